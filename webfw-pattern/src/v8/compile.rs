//! path-to-regexp 8.4's `pathToRegexp()`: every combination of optional
//! groups (all included first, as `flatten` recurses) becomes one
//! alternative of the regex, built by the same rules as `toRegExpSource`
//! (the "backtrack" text that a parameter after another one in the same
//! segment may not run over, and the wildcard variants).

use super::{ErrorKind, Token};
use crate::{Key, PatternError};

/// Most alternatives a path may expand to.
const MAX_COMBINATIONS: usize = 256;

/// A token of one combination: groups are gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flat<'t> {
    Text(&'t str),
    Param(&'t str),
    Wildcard(&'t str),
}

/// Calls `each` with every combination, in path-to-regexp's order.
fn flatten<'t, E>(
    tokens: &'t [Token],
    at: usize,
    seq: &mut Vec<Flat<'t>>,
    each: &mut dyn FnMut(&[Flat<'t>]) -> Result<(), E>,
) -> Result<(), E> {
    let mut i = at;
    while let Some(token) = tokens.get(i) {
        i += 1;
        match token {
            Token::Group(inner) => {
                let len = seq.len();
                flatten(inner, 0, seq, &mut |with: &[Flat<'t>]| {
                    let mut with = with.to_vec();
                    flatten(tokens, i, &mut with, each)
                })?;
                seq.truncate(len);
            }
            Token::Text(t) => seq.push(Flat::Text(t)),
            Token::Param(n) => seq.push(Flat::Param(n)),
            Token::Wildcard(n) => seq.push(Flat::Wildcard(n)),
        }
    }
    each(seq)
}

/// Calls `each` with every combination of `tokens` in path-to-regexp's
/// order, failing as it does with `Too many path combinations` before the
/// 257th (so an error `each` finds in an earlier one wins).
pub(crate) fn for_each_combination<'t>(
    tokens: &'t [Token],
    path: &str,
    mut each: impl FnMut(&[Flat<'t>]) -> Result<(), PatternError>,
) -> Result<usize, PatternError> {
    let mut count = 0usize;
    flatten(tokens, 0, &mut Vec::new(), &mut |seq: &[Flat<'t>]| {
        if count >= MAX_COMBINATIONS {
            return Err(super::error(
                ErrorKind::TooManyCombinations,
                super::parse::message("Too many path combinations", path),
                0,
                path.len(),
                path,
            ));
        }
        count += 1;
        each(seq)
    })?;
    Ok(count)
}

/// JavaScript's `String.length`: UTF-16 code units.
fn js_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// path-to-regexp 8's `escape()` for regex text.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for c in s.chars() {
        if ".+*?^${}()[]|/\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One character that is none of the text in `a` and `b` (`negate()`).
fn negate(a: &str, b: &str) -> String {
    if js_len(b) > js_len(a) {
        return negate(b, a);
    }
    let b = if a == b { "" } else { b };
    if js_len(b) > 1 {
        format!("(?:(?!{}|{})[^])", escape(a), escape(b))
    } else if js_len(a) > 1 {
        format!("(?:(?!{})[^{}])", escape(a), escape(b))
    } else {
        format!("[^{}]", escape(&format!("{a}{b}")))
    }
}

/// One combination's regex source (`toRegExpSource()`), its keys appended.
pub(crate) fn source(
    seq: &[Flat<'_>],
    keys: &mut Vec<Key>,
    path: &str,
) -> Result<String, PatternError> {
    const SLASH: &str = "/";
    let mut out = String::new();
    let mut backtrack = String::new();
    let mut wild_backtrack = String::new();
    // 1: a parameter came last, 2: a wildcard did
    let mut prev = 0u8;
    // bit 1: a parameter in this segment, bit 2: a wildcard
    let mut in_segment = 0u8;
    let has_wildcard_ahead = |from: usize| {
        for token in &seq[from..] {
            match token {
                Flat::Wildcard(_) => return true,
                Flat::Text(t) if t.contains(SLASH) => break,
                _ => {}
            }
        }
        false
    };
    let text_ahead = |from: usize| -> String {
        seq[from..]
            .iter()
            .map_while(|t| match t {
                Flat::Text(t) => Some(*t),
                _ => None,
            })
            .collect()
    };
    for (i, token) in seq.iter().enumerate() {
        let (name, wildcard) = match *token {
            Flat::Text(t) => {
                out.push_str(&escape(t));
                backtrack.push_str(t);
                if prev == 2 {
                    wild_backtrack.push_str(t);
                }
                if t.contains(SLASH) {
                    in_segment = 0;
                }
                continue;
            }
            Flat::Param(n) => (n, false),
            Flat::Wildcard(n) => (n, true),
        };
        if prev != 0 && backtrack.is_empty() {
            let what = if wildcard { "wildcard" } else { "param" };
            return Err(super::error(
                ErrorKind::MissingText(name.to_owned()),
                super::parse::message(&format!("Missing text before \"{name}\" {what}"), path),
                0,
                path.len(),
                path,
            ));
        }
        if wildcard {
            let group = if in_segment & 2 != 0 {
                format!("({}+)", negate(&backtrack, ""))
            } else if !wild_backtrack.is_empty() {
                format!("({}+|{}+)", negate(&wild_backtrack, ""), negate(SLASH, ""))
            } else {
                "([^]+)".to_owned()
            };
            out.push_str(&group);
            wild_backtrack.clear();
            prev = 2;
            in_segment |= 2;
            keys.push(Key::Wildcard(name.to_owned()));
        } else {
            let group = if in_segment & 2 != 0 {
                format!("({}+)", negate(SLASH, &backtrack))
            } else if has_wildcard_ahead(i + 1) {
                format!("({}+)", negate(SLASH, &text_ahead(i + 1)))
            } else if in_segment & 1 != 0 {
                format!("({}+|{})", negate(SLASH, &backtrack), escape(&backtrack))
            } else {
                format!("({}+)", negate(SLASH, ""))
            };
            out.push_str(&group);
            prev = 1;
            in_segment |= 1;
            keys.push(Key::Name(name.to_owned()));
        }
        backtrack.clear();
    }
    Ok(out)
}
