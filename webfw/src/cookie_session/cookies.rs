//! What cookie-session asks of the `cookies` 0.9 package: find a cookie in
//! the request's `Cookie` header (checking its `.sig` companion), and make
//! the `Set-Cookie` lines, lowercase attributes and all, that it writes.

use std::time::{SystemTime, UNIX_EPOCH};

use super::options::CookieSessionOptions;
use crate::http::cookie::{Priority, SameSite, utc_string};
use crate::http::keygrip;

/// The value of the first `name=` pair in `header`, as the package's
/// `(?:^|;) *name=([^;]*)` finds it, without surrounding double quotes.
pub(crate) fn find<'h>(header: &'h str, name: &str) -> Option<&'h str> {
    let mut rest = header;
    loop {
        let pair = rest.trim_start_matches(' ');
        if let Some(after) = pair.strip_prefix(name)
            && let Some(value) = after.strip_prefix('=')
        {
            let value = &value[..value.find(';').unwrap_or(value.len())];
            return Some(unquote(value));
        }
        rest = &rest[rest.find(';')? + 1..];
    }
}

/// `if (value[0] === '"') value = value.slice(1, -1)`.
fn unquote(value: &str) -> &str {
    match value.strip_prefix('"') {
        Some(inner) => inner.char_indices().last().map_or("", |(i, _)| &inner[..i]),
        None => value,
    }
}

/// What reading a signed cookie found.
pub(crate) enum Read {
    /// No cookie, or no signature for it.
    Missing,
    /// Signed by none of the keys: the package expires the `.sig` cookie.
    Forged,
    /// Signed by the key at this position (0 is the newest).
    Signed(String, usize),
}

/// `cookies.get(name, {signed: true})`.
pub(crate) fn get_signed(header: &str, name: &str, keys: &[String]) -> Read {
    let Some(value) = find(header, name) else {
        return Read::Missing;
    };
    let sig_name = format!("{name}.sig");
    let remote = match find(header, &sig_name) {
        Some(r) if !r.is_empty() => r,
        _ => return Read::Missing,
    };
    match keygrip::index(&format!("{name}={value}"), remote, keys) {
        Some(i) => Read::Signed(value.to_owned(), i),
        None => Read::Forged,
    }
}

/// `field-content` (RFC 7230): what the package accepts in names, values,
/// paths and domains.
fn field_content(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c == '\t' || (' '..='~').contains(&c) || ('\u{80}'..='\u{ff}').contains(&c))
}

/// The attributes of one cookie, as `new Cookie(name, value, opts)` holds
/// them.
pub(crate) struct Cookie<'a> {
    pub(crate) path: Option<&'a str>,
    pub(crate) expires_ms: Option<f64>,
    pub(crate) domain: Option<&'a str>,
    pub(crate) priority: Option<Priority>,
    pub(crate) same_site: Option<SameSite>,
    pub(crate) secure: bool,
    pub(crate) http_only: bool,
    pub(crate) partitioned: bool,
}

impl<'a> Cookie<'a> {
    /// The package's defaults for a cookie set with only `signed: false`
    /// (the signature cookies it rewrites while reading).
    pub(crate) fn plain(secure: bool) -> Cookie<'a> {
        Cookie {
            path: Some("/"),
            expires_ms: None,
            domain: None,
            priority: None,
            same_site: None,
            secure,
            http_only: true,
            partitioned: false,
        }
    }

    /// A cookie with the session's options; `value_empty` expires it
    /// (`maxAge` is dropped and `expires` becomes the epoch). `Err` with
    /// the package's message when it would refuse to write it.
    pub(crate) fn from_options(
        opts: &'a CookieSessionOptions,
        secure_request: bool,
        value_empty: bool,
    ) -> Result<Cookie<'a>, &'static str> {
        if !secure_request && opts.secure == Some(true) {
            return Err("Cannot send secure cookie over unencrypted connection");
        }
        let path = (!opts.path.is_empty()).then_some(opts.path.as_str());
        if path.is_some_and(|p| !field_content(p)) {
            return Err("option path is invalid");
        }
        let domain = opts.domain.as_deref().filter(|d| !d.is_empty());
        if domain.is_some_and(|d| !field_content(d)) {
            return Err("option domain is invalid");
        }
        let now_ms = || {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0.0, |d| d.as_millis() as f64)
        };
        let expires_ms = if value_empty {
            Some(0.0)
        } else {
            match opts.max_age.filter(|a| !a.is_zero()) {
                Some(age) => Some(now_ms() + age.as_millis() as f64),
                None => opts.expires.map(|t| match t.duration_since(UNIX_EPOCH) {
                    Ok(d) => d.as_millis() as f64,
                    Err(e) => -(e.duration().as_millis() as f64),
                }),
            }
        };
        Ok(Cookie {
            path,
            expires_ms,
            domain,
            priority: opts.priority,
            same_site: opts.same_site,
            secure: opts.secure.unwrap_or(secure_request),
            http_only: opts.http_only,
            partitioned: opts.partitioned,
        })
    }

    /// `cookie.toHeader()`, or `None` when the package would throw on the
    /// name or the value.
    pub(crate) fn header(&self, name: &str, value: &str) -> Option<String> {
        if !field_content(name) || name.contains([';', '=']) {
            return None;
        }
        if !value.is_empty() && (!field_content(value) || value.contains(';')) {
            return None;
        }
        let mut line = format!("{name}={value}");
        if let Some(p) = self.path {
            line.push_str("; path=");
            line.push_str(p);
        }
        // A time outside JavaScript's Date range is "Invalid Date", still
        // truthy, so the package writes it.
        if let Some(ms) = self.expires_ms {
            line.push_str("; expires=");
            line.push_str(&utc_string(ms).unwrap_or_else(|| "Invalid Date".into()));
        }
        if let Some(d) = self.domain {
            line.push_str("; domain=");
            line.push_str(d);
        }
        if let Some(p) = self.priority {
            line.push_str(match p {
                Priority::Low => "; priority=low",
                Priority::Medium => "; priority=medium",
                Priority::High => "; priority=high",
            });
        }
        if let Some(s) = self.same_site {
            line.push_str(match s {
                SameSite::Strict => "; samesite=strict",
                SameSite::Lax => "; samesite=lax",
                SameSite::None => "; samesite=none",
            });
        }
        if self.secure {
            line.push_str("; secure");
        }
        if self.http_only {
            line.push_str("; httponly");
        }
        if self.partitioned {
            line.push_str("; partitioned");
        }
        Some(line)
    }
}

/// `pushCookie`: with `overwrite`, lines already setting `name` go first.
pub(crate) fn push(lines: &mut Vec<String>, name: &str, line: String, overwrite: bool) {
    if overwrite {
        let prefix = format!("{name}=");
        lines.retain(|l| !l.starts_with(&prefix));
    }
    lines.push(line);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cookies_as_the_package_does() {
        assert_eq!(find("a=1; session=2", "session"), Some("2"));
        assert_eq!(find("xsession=1;session=2", "session"), Some("2"));
        assert_eq!(find("session=\"abc\"", "session"), Some("abc"));
        assert_eq!(find("session=", "session"), Some(""));
        assert_eq!(find("session.sig=1", "session"), None);
        assert_eq!(find("a=1;  session=x y; b", "session"), Some("x y"));
        assert_eq!(find("", "session"), None);
    }

    #[test]
    fn lines_have_the_packages_attributes() {
        let c = Cookie::plain(false);
        assert_eq!(c.header("a.sig", "x").unwrap(), "a.sig=x; path=/; httponly");
        assert!(c.header("a;b", "x").is_none());
        assert!(c.header("a", "x;y").is_none());
        let mut lines = vec!["a=1".to_owned(), "b=2".to_owned(), "a.sig=3".to_owned()];
        push(&mut lines, "a", "a=4".into(), true);
        assert_eq!(lines, ["b=2", "a.sig=3", "a=4"]);
    }
}
