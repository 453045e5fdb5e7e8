//! Express's one-time deprecation warnings, in depd's format: the first call
//! from each place in the app's code prints one line to standard error,
//! `<date> webfw deprecated <message> at <file>:<line>:<column>` (coloured
//! on a terminal, as depd does), and later calls from there print nothing.
//! `NO_DEPRECATION=webfw` (or `*`) silences them, as it silences depd.
//!
//! Functions that warn are `#[track_caller]`, so the place is the app's own
//! call, not webfw's.

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::panic::Location;
use std::sync::{Mutex, OnceLock};

const NAMESPACE: &str = "webfw";

/// Warns once for the calling place in the app's code.
#[track_caller]
pub(crate) fn deprecate(message: impl FnOnce() -> String) {
    let at = Location::caller();
    if !first_time(at) || silenced(std::env::var("NO_DEPRECATION").ok().as_deref()) {
        return;
    }
    let stderr = std::io::stderr();
    let line = format_line(&message(), at, stderr.is_terminal(), now_secs());
    let _ = writeln!(stderr.lock(), "{line}");
}

/// A place in the source: file, line, column.
type Place = (&'static str, u32, u32);

/// Whether this place has not warned yet; remembers it.
fn first_time(at: &'static Location<'static>) -> bool {
    static SEEN: OnceLock<Mutex<HashSet<Place>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    let mut seen = seen.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    seen.insert((at.file(), at.line(), at.column()))
}

/// depd's `NO_DEPRECATION`: namespaces separated by commas or spaces, `*` for all.
fn silenced(setting: Option<&str>) -> bool {
    setting.is_some_and(|s| {
        s.split([',', ' '])
            .any(|n| n == "*" || n.eq_ignore_ascii_case(NAMESPACE))
    })
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// depd's `formatPlain` (a date first) or, on a terminal, `formatColor`.
fn format_line(message: &str, at: &Location<'_>, color: bool, secs: i64) -> String {
    let place = format!("{}:{}:{}", at.file(), at.line(), at.column());
    if color {
        format!(
            "\x1b[36;1m{NAMESPACE}\x1b[22;39m \x1b[33;1mdeprecated\x1b[22;39m \x1b[0m{message}\x1b[39m \x1b[36m{place}\x1b[39m"
        )
    } else {
        let date =
            crate::http::date::with_utc_string(secs, |b| String::from_utf8_lossy(b).into_owned())
                .unwrap_or_default();
        format!("{date} {NAMESPACE} deprecated {message} at {place}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_coloured_lines_are_depds() {
        let at = Location::caller();
        let place = format!("{}:{}:{}", at.file(), at.line(), at.column());
        assert_eq!(
            format_line("req.param(name): Use req.params", at, false, 0),
            format!(
                "Thu, 01 Jan 1970 00:00:00 GMT webfw deprecated req.param(name): Use req.params at {place}"
            )
        );
        assert_eq!(
            format_line("m", at, true, 0),
            format!(
                "\x1b[36;1mwebfw\x1b[22;39m \x1b[33;1mdeprecated\x1b[22;39m \x1b[0mm\x1b[39m \x1b[36m{place}\x1b[39m"
            )
        );
    }

    #[test]
    fn each_place_warns_once() {
        #[track_caller]
        fn here() -> &'static Location<'static> {
            Location::caller()
        }
        let (a, b) = (here(), here());
        assert!(first_time(a));
        assert!(!first_time(a));
        assert!(first_time(b));
    }

    #[test]
    fn no_deprecation_names_the_namespace_or_all() {
        assert!(silenced(Some("webfw")));
        assert!(silenced(Some("express, webfw")));
        assert!(silenced(Some("*")));
        assert!(!silenced(Some("express")));
        assert!(!silenced(None));
    }
}
