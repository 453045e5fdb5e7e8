//! `Accept-Charset` and `Accept-Encoding` (negotiator 0.6): one token per
//! entry, `*` matching any; encodings add the `identity` rule.

use std::borrow::Cow;

use std::cmp::Ordering;

use super::{
    acceptable, all_accepted, first_truthy, js_parse_float, order_of, params_tail, rank, run_len,
};
use crate::is_js_whitespace;

struct Token<'a> {
    value: &'a str,
    q: f64,
    index: usize,
}

fn parse_token(entry: &str, index: usize) -> Option<Token<'_>> {
    let s = entry.trim_start_matches(is_js_whitespace);
    let n = run_len(s, |c| !is_js_whitespace(c) && c != ';');
    if n == 0 {
        return None;
    }
    let mut q = 1.0;
    if let Some(params) = params_tail(&s[n..])? {
        for p in params.split(';') {
            let p = p.trim_matches(is_js_whitespace);
            let mut kv = p.split('=');
            if kv.next() == Some("q") {
                q = kv.next().map_or(f64::NAN, js_parse_float);
                break;
            }
        }
    }
    Some(Token {
        value: &s[..n],
        q,
        index,
    })
}

fn parse_list(header: &str) -> (Vec<Token<'_>>, usize) {
    let pieces: Vec<&str> = header.split(',').collect();
    let count = pieces.len();
    let tokens = pieces
        .into_iter()
        .enumerate()
        .filter_map(|(i, p)| parse_token(p.trim_matches(is_js_whitespace), i))
        .collect();
    (tokens, count)
}

fn specify(offer: &str, spec: &Token<'_>) -> Option<(u8, f64, usize)> {
    if spec.value.to_lowercase() == offer.to_lowercase() {
        Some((1, spec.q, spec.index))
    } else if spec.value == "*" {
        Some((0, spec.q, spec.index))
    } else {
        None
    }
}

/// The `Accept-Encoding` entries, with `identity` added at the lowest q
/// given (0 counting as 1) when neither it nor `*` is listed.
fn encoding_entries(header: &str) -> Vec<Token<'_>> {
    let (mut tokens, count) = parse_list(header);
    let has_identity = tokens.iter().any(|t| specify("identity", t).is_some());
    if !has_identity {
        let min_q = tokens
            .iter()
            .map(|t| if t.q == 0.0 || t.q.is_nan() { 1.0 } else { t.q })
            .fold(1.0, f64::min);
        tokens.push(Token {
            value: "identity",
            q: min_q,
            index: count,
        });
    }
    tokens
}

/// negotiator's `charsets(provided)`: indexes of `provided` by preference.
/// A missing header is `*`; an empty one accepts nothing.
///
/// ```
/// use webfw_http::negotiate::preferred_charsets;
/// assert_eq!(preferred_charsets(Some("iso-8859-1, utf-8;q=0.5"), &["utf-8", "iso-8859-1"]), [1, 0]);
/// ```
pub fn preferred_charsets(accept: Option<&str>, provided: &[&str]) -> Vec<usize> {
    let (tokens, _) = parse_list(accept.unwrap_or("*"));
    rank(provided.len(), &tokens, |i, spec| {
        specify(provided[i], spec)
    })
}

/// negotiator's `charsets()`: every charset the header accepts, best
/// first (`["*"]` without a header).
///
/// ```
/// use webfw_http::negotiate::accepted_charsets;
/// assert_eq!(accepted_charsets(Some("utf-8;q=0.5, iso-8859-1")), ["iso-8859-1", "utf-8"]);
/// assert_eq!(accepted_charsets(None), ["*"]);
/// ```
pub fn accepted_charsets(accept: Option<&str>) -> Vec<String> {
    let (tokens, _) = parse_list(accept.unwrap_or("*"));
    all_accepted(tokens.iter().map(|t| (Cow::Borrowed(t.value), t.q)))
}

/// negotiator's `encodings(provided)`: indexes of `provided` by preference.
/// A missing or empty header accepts `identity` only.
///
/// ```
/// use webfw_http::negotiate::preferred_encodings;
/// assert_eq!(preferred_encodings(Some("gzip;q=0.5, br"), &["gzip", "br", "identity"]), [1, 0, 2]);
/// assert_eq!(preferred_encodings(None, &["gzip", "identity"]), [1]);
/// ```
pub fn preferred_encodings(accept: Option<&str>, provided: &[&str]) -> Vec<usize> {
    let tokens = encoding_entries(accept.unwrap_or(""));
    rank(provided.len(), &tokens, |i, spec| {
        specify(provided[i], spec)
    })
}

/// negotiator 0.6.4's `encodings(provided, preferred)`: as
/// [`preferred_encodings`], except that among offers of equal q those named
/// in `preferred` come first, in its order (the compression middleware's
/// `br` before `gzip`, whatever the header's order).
///
/// ```
/// use webfw_http::negotiate::preferred_encodings_favouring;
/// let offers = ["br", "gzip", "deflate", "identity"];
/// assert_eq!(preferred_encodings_favouring(Some("deflate, gzip"), &offers, &["br", "gzip"]), [1, 2, 3]);
/// assert_eq!(preferred_encodings_favouring(Some("*"), &offers, &["br", "gzip"]), [0, 1, 2, 3]);
/// assert_eq!(preferred_encodings_favouring(Some("gzip;q=0.5, deflate"), &offers, &["br", "gzip"]), [2, 1, 3]);
/// ```
pub fn preferred_encodings_favouring(
    accept: Option<&str>,
    provided: &[&str],
    preferred: &[&str],
) -> Vec<usize> {
    let tokens = encoding_entries(accept.unwrap_or(""));
    let mut kept = acceptable(provided.len(), &tokens, |i, spec| {
        specify(provided[i], spec)
    });
    let place = |i: usize| preferred.iter().position(|p| *p == provided[i]);
    // No q is NaN (NaN > 0 is false), and the preferred offers come in
    // one order: a total order.
    crate::sort::sort_by(&mut kept, |a, b| {
        if a.q != b.q {
            return order_of(b.q - a.q);
        }
        match (place(a.i), place(b.i)) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => order_of(first_truthy(&[
                f64::from(b.s) - f64::from(a.s),
                (a.o - b.o) as f64,
                a.i as f64 - b.i as f64,
            ])),
        }
    });
    kept.into_iter().map(|p| p.i).collect()
}

/// negotiator's `encodings()`: every encoding the header accepts, best
/// first, `identity` included unless refused.
///
/// ```
/// use webfw_http::negotiate::accepted_encodings;
/// assert_eq!(accepted_encodings(Some("gzip;q=0.5, br")), ["br", "gzip", "identity"]);
/// assert_eq!(accepted_encodings(None), ["identity"]);
/// ```
pub fn accepted_encodings(accept: Option<&str>) -> Vec<String> {
    let tokens = encoding_entries(accept.unwrap_or(""));
    all_accepted(tokens.iter().map(|t| (Cow::Borrowed(t.value), t.q)))
}
