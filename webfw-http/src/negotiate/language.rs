//! `Accept-Language` (negotiator 0.6): `en-US` entries match `en-US`
//! exactly, an `en` offer by prefix, and an `en` entry matches `en-US` offers.

use std::borrow::Cow;

use super::{all_accepted, js_parse_float, params_tail, rank, run_len};
use crate::is_js_whitespace;

struct Language<'a> {
    prefix: &'a str,
    full: &'a str,
    q: f64,
    index: usize,
}

fn parse_language(entry: &str, index: usize) -> Option<Language<'_>> {
    let s = entry.trim_start_matches(is_js_whitespace);
    let p = run_len(s, |c| !is_js_whitespace(c) && c != '-' && c != ';');
    if p == 0 {
        return None;
    }
    let mut end = p;
    if let Some(rest) = s[p..].strip_prefix('-') {
        let n = run_len(rest, |c| !is_js_whitespace(c) && c != ';');
        if n > 0 {
            end = p + 1 + n;
        }
    }
    let mut q = 1.0;
    if let Some(params) = params_tail(&s[end..])? {
        // Not trimmed, and the last `q` wins: `en; q=0.5` keeps q = 1.
        for param in params.split(';') {
            let mut kv = param.split('=');
            if kv.next() == Some("q") {
                q = kv.next().map_or(f64::NAN, js_parse_float);
            }
        }
    }
    Some(Language {
        prefix: &s[..p],
        full: &s[..end],
        q,
        index,
    })
}

fn parse_list(header: &str) -> Vec<Language<'_>> {
    header
        .split(',')
        .enumerate()
        .filter_map(|(i, p)| parse_language(p.trim_matches(is_js_whitespace), i))
        .collect()
}

fn specify(offer: &str, spec: &Language<'_>) -> Option<(u8, f64, usize)> {
    let p = parse_language(offer, 0)?;
    let full = p.full.to_lowercase();
    let s = if spec.full.to_lowercase() == full {
        4
    } else if spec.prefix.to_lowercase() == full {
        2
    } else if spec.full.to_lowercase() == p.prefix.to_lowercase() {
        1
    } else if spec.full == "*" {
        0
    } else {
        return None;
    };
    Some((s, spec.q, spec.index))
}

/// negotiator's `languages(provided)`: indexes of `provided` by preference.
/// A missing header is `*`; an empty one accepts nothing.
///
/// ```
/// use webfw_http::negotiate::preferred_languages;
/// assert_eq!(preferred_languages(Some("fr-CH, fr;q=0.9, en;q=0.8"), &["en", "fr"]), [1, 0]);
/// ```
pub fn preferred_languages(accept: Option<&str>, provided: &[&str]) -> Vec<usize> {
    let entries = parse_list(accept.unwrap_or("*"));
    rank(provided.len(), &entries, |i, spec| {
        specify(provided[i], spec)
    })
}

/// negotiator's `languages()`: every language the header accepts, best
/// first (`["*"]` without a header).
///
/// ```
/// use webfw_http::negotiate::accepted_languages;
/// assert_eq!(accepted_languages(Some("de;q=0.7, en-US, en;q=0.9")), ["en-US", "en", "de"]);
/// ```
pub fn accepted_languages(accept: Option<&str>) -> Vec<String> {
    let entries = parse_list(accept.unwrap_or("*"));
    all_accepted(entries.iter().map(|e| (Cow::Borrowed(e.full), e.q)))
}
