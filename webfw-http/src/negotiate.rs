//! Content negotiation with `negotiator` 0.6 semantics: media types
//! (`Accept`, here), charsets and encodings (`charset.rs`) and languages
//! (`language.rs`), plus the `accepts` 1.3 rules on top (extension names,
//! the first offer when there is no `Accept`).
//!
//! Every kind ranks the same way: each offer takes the best entry of the
//! header that matches it (most specific, then highest q, then the later
//! entry), offers with q > 0 are kept, and they are sorted by q, then
//! specificity, then the header entry's position, then the offer's.
//!
//! ```
//! use webfw_http::negotiate::preferred;
//! assert_eq!(preferred(Some("text/html"), &["text/plain", "text/html"]), vec![1]);
//! assert_eq!(preferred(None, &["a/b", "c/d"]), vec![0, 1]);
//! assert_eq!(preferred(Some("text/*;q=0.5, text/html"), &["text/plain", "text/html"]), vec![1, 0]);
//! ```

mod charset;
mod language;

pub use charset::{
    accepted_charsets, accepted_encodings, preferred_charsets, preferred_encodings,
    preferred_encodings_favouring,
};
pub use language::{accepted_languages, preferred_languages};

use std::cmp::Ordering;

use super::is_js_whitespace;

/// How one offer matched its best header entry.
#[derive(Clone, Copy)]
struct Priority {
    /// Specificity bits (what matched exactly).
    s: u8,
    q: f64,
    /// Position of the header entry (-1: none matched).
    o: isize,
    /// Position of the offer.
    i: usize,
}

/// The first of `diffs` JavaScript's `a || b || …` would stop at: not zero
/// and not NaN; 0 when there is none.
fn first_truthy(diffs: &[f64]) -> f64 {
    diffs
        .iter()
        .copied()
        .find(|d| *d != 0.0 && !d.is_nan())
        .unwrap_or(0.0)
}

fn order_of(d: f64) -> Ordering {
    if d < 0.0 {
        Ordering::Less
    } else if d > 0.0 {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// negotiator's ranking of `count` offers: `specify(offer, entry)` gives
/// (specificity, q, entry position) when the entry matches the offer.
/// Returns the indexes of the acceptable offers, best first.
fn rank<E>(
    count: usize,
    entries: &[E],
    specify: impl Fn(usize, &E) -> Option<(u8, f64, usize)>,
) -> Vec<usize> {
    let mut kept = acceptable(count, entries, specify);
    // No q is NaN here (NaN > 0 is false), so this is a total order.
    crate::sort::sort_by(&mut kept, |a, b| {
        order_of(first_truthy(&[
            b.q - a.q,
            f64::from(b.s) - f64::from(a.s),
            (a.o - b.o) as f64,
            a.i as f64 - b.i as f64,
        ]))
    });
    kept.into_iter().map(|p| p.i).collect()
}

/// Each offer's best matching entry (see [`rank`]), for the offers it
/// gives a q above 0, in offer order.
fn acceptable<E>(
    count: usize,
    entries: &[E],
    specify: impl Fn(usize, &E) -> Option<(u8, f64, usize)>,
) -> Vec<Priority> {
    let mut kept: Vec<Priority> = Vec::new();
    for i in 0..count {
        let mut best = Priority {
            s: 0,
            q: 0.0,
            o: -1,
            i,
        };
        for entry in entries {
            let Some((s, q, o)) = specify(i, entry) else {
                continue;
            };
            let o = o as isize;
            let d = first_truthy(&[
                f64::from(best.s) - f64::from(s),
                best.q - q,
                (best.o - o) as f64,
            ]);
            if d < 0.0 {
                best = Priority { s, q, o, i };
            }
        }
        if best.q > 0.0 {
            kept.push(best);
        }
    }
    kept
}

/// The header's own entries with q > 0, by q then position (negotiator's
/// answer when nothing is offered). `entries` are (value, q), in header order.
fn all_accepted<'a>(
    entries: impl Iterator<Item = (std::borrow::Cow<'a, str>, f64)>,
) -> Vec<String> {
    let mut kept: Vec<(String, f64)> = entries
        .filter(|(_, q)| *q > 0.0)
        .map(|(v, q)| (v.into_owned(), q))
        .collect();
    crate::sort::sort_by(&mut kept, |a, b| order_of(first_truthy(&[b.1 - a.1])));
    kept.into_iter().map(|(v, _)| v).collect()
}

/// JavaScript's `parseFloat`: the longest decimal prefix after leading white
/// space (`Infinity` included), NaN when there is none.
#[doc(hidden)]
pub fn js_parse_float(s: &str) -> f64 {
    let t = s.trim_start_matches(is_js_whitespace);
    let b = t.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    if t[i..].starts_with("Infinity") {
        return if b.first() == Some(&b'-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let int = digits(i);
    let mut end = i + int;
    let mut frac = 0;
    if b.get(end) == Some(&b'.') {
        frac = digits(end + 1);
        if int > 0 || frac > 0 {
            end += 1 + frac;
        }
    }
    if int == 0 && frac == 0 {
        return f64::NAN;
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let mut j = end + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp = digits(j);
        if exp > 0 {
            end = j + exp;
        }
    }
    t[..end].parse().unwrap_or(f64::NAN)
}

/// One entry of an `Accept` header.
struct MediaRange<'a> {
    kind: &'a str,
    subtype: &'a str,
    /// Lower-cased names; `None`: a name without `=`.
    params: Vec<(String, Option<&'a str>)>,
    q: f64,
    index: usize,
}

/// Splits on `sep`, joining pieces back while a piece has an odd number of
/// double quotes (a quoted separator).
fn split_quoted(s: &str, sep: char) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            out.push(&s[start..i]);
            start = i + 1;
        }
    }
    out.push(&s[start..]);
    out
}

/// `^\s*([^\s;]+)\s*(?:;(.*))?$`-like tails: after the value, white space,
/// then the end or `;` and the parameters. `None` when anything else follows.
fn params_tail(rest: &str) -> Option<Option<&str>> {
    let rest = rest.trim_start_matches(is_js_whitespace);
    if rest.is_empty() {
        return Some(None);
    }
    let params = rest.strip_prefix(';')?;
    // `.` does not match line terminators.
    if params.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some(Some(params))
}

/// The length of the run at the start of `s` of characters `ok` accepts.
fn run_len(s: &str, ok: impl Fn(char) -> bool) -> usize {
    s.char_indices()
        .find(|(_, c)| !ok(*c))
        .map_or(s.len(), |(i, _)| i)
}

fn parse_media_range(entry: &str, index: usize) -> Option<MediaRange<'_>> {
    let s = entry.trim_start_matches(is_js_whitespace);
    let k = run_len(s, |c| !is_js_whitespace(c) && c != '/' && c != ';');
    if k == 0 || !s[k..].starts_with('/') {
        return None;
    }
    let kind = &s[..k];
    let rest = &s[k + 1..];
    let n = run_len(rest, |c| !is_js_whitespace(c) && c != ';');
    if n == 0 {
        return None;
    }
    let subtype = &rest[..n];
    let tail = params_tail(&rest[n..])?;
    let mut q = 1.0;
    let mut params = Vec::new();
    if let Some(tail) = tail {
        for p in split_quoted(tail, ';') {
            let p = p.trim_matches(is_js_whitespace);
            let (key, val) = match p.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (p, None),
            };
            let key = key.to_lowercase();
            let val = val.map(|v| {
                if v.len() >= 2 && v.starts_with('"') && v.ends_with('"') {
                    &v[1..v.len() - 1]
                } else if v == "\"" {
                    ""
                } else {
                    v
                }
            });
            if key == "q" {
                q = val.map_or(f64::NAN, js_parse_float);
                break;
            }
            params.push((key, val));
        }
    }
    // A repeated name keeps its last value, as an object would (sorted by
    // hash rather than scanned, so a hostile entry stays linear).
    let mut last = std::collections::HashMap::new();
    for (i, (k, _)) in params.iter().enumerate() {
        last.insert(k.clone(), i);
    }
    let params = params
        .into_iter()
        .enumerate()
        .filter(|(i, (k, _))| last.get(k) == Some(i))
        .map(|(_, p)| p)
        .collect();
    Some(MediaRange {
        kind,
        subtype,
        params,
        q,
        index,
    })
}

fn parse_accept(accept: &str) -> Vec<MediaRange<'_>> {
    split_quoted(accept, ',')
        .into_iter()
        .enumerate()
        .filter_map(|(i, e)| parse_media_range(e.trim_matches(is_js_whitespace), i))
        .collect()
}

fn specify_media(offer: &MediaRange<'_>, spec: &MediaRange<'_>) -> Option<(u8, f64, usize)> {
    let mut s = 0;
    if spec.kind.to_lowercase() == offer.kind.to_lowercase() {
        s |= 4;
    } else if spec.kind != "*" {
        return None;
    }
    if spec.subtype.to_lowercase() == offer.subtype.to_lowercase() {
        s |= 2;
    } else if spec.subtype != "*" {
        return None;
    }
    if !spec.params.is_empty() {
        let all = spec.params.iter().all(|(k, v)| {
            *v == Some("*") || {
                let theirs = offer
                    .params
                    .iter()
                    .find(|(ok, _)| ok == k)
                    .and_then(|(_, ov)| *ov)
                    .unwrap_or("");
                v.unwrap_or("").to_lowercase() == theirs.to_lowercase()
            }
        });
        if !all {
            return None;
        }
        s |= 1;
    }
    Some((s, spec.q, spec.index))
}

/// negotiator's `mediaTypes(provided)`: the indexes of `provided` that
/// `accept` allows, best first. A missing header is `*/*`; an empty one
/// accepts nothing.
///
/// ```
/// use webfw_http::negotiate::preferred;
/// assert_eq!(preferred(Some("text/html"), &["text/plain", "text/html"]), vec![1]);
/// assert_eq!(preferred(None, &["a/b", "c/d"]), vec![0, 1]);
/// assert_eq!(preferred(Some("text/*;q=0.5, text/html"), &["text/plain", "text/html"]), vec![1, 0]);
/// ```
pub fn preferred(accept: Option<&str>, provided: &[&str]) -> Vec<usize> {
    let entries = parse_accept(accept.unwrap_or("*/*"));
    let offers: Vec<Option<MediaRange<'_>>> =
        provided.iter().map(|t| parse_media_range(t, 0)).collect();
    rank(provided.len(), &entries, |i, spec| {
        specify_media(offers[i].as_ref()?, spec)
    })
}

/// negotiator's `mediaTypes()`: every media type the header accepts, best
/// first (`["*/*"]` without a header).
///
/// ```
/// use webfw_http::negotiate::accepted_media_types;
/// assert_eq!(
///     accepted_media_types(Some("text/html;q=0.5, application/json")),
///     ["application/json", "text/html"]
/// );
/// ```
pub fn accepted_media_types(accept: Option<&str>) -> Vec<String> {
    let entries = parse_accept(accept.unwrap_or("*/*"));
    all_accepted(
        entries
            .iter()
            .map(|e| (format!("{}/{}", e.kind, e.subtype).into(), e.q)),
    )
}

/// `req.accepts(types)` (accepts 1.3): the index of the best of `types`
/// (MIME types, or extension names such as `json`), or `None` when none is
/// acceptable. With no (or an empty) `Accept` header, the first type.
///
/// ```
/// use webfw_http::negotiate::accepts;
/// assert_eq!(accepts(Some("application/json"), &["html", "json"]), Some(1));
/// assert_eq!(accepts(Some("image/png"), &["text/html"]), None);
/// assert_eq!(accepts(None, &["json", "html"]), Some(0));
/// ```
pub fn accepts(accept: Option<&str>, types: &[&str]) -> Option<usize> {
    if types.is_empty() {
        return None;
    }
    let accept = match accept {
        None | Some("") => return Some(0),
        Some(a) => a,
    };
    let mimes: Vec<Option<&str>> = types
        .iter()
        .map(|t| {
            if t.contains('/') {
                Some(*t)
            } else {
                super::mime::lookup_db(t)
            }
        })
        .collect();
    let valid: Vec<&str> = mimes.iter().flatten().copied().collect();
    let best = *preferred(Some(accept), &valid).first()?;
    // The first type giving that MIME type, as `indexOf` finds it.
    mimes.iter().position(|m| *m == Some(valid[best]))
}

/// The MIME type `res.format` sets for a key: the type part of a MIME type
/// (parameters and q dropped), or an extension looked up
/// (`application/octet-stream` when unknown).
///
/// ```
/// use webfw_http::negotiate::format_type;
/// assert_eq!(format_type("html"), "text/html");
/// assert_eq!(format_type("text/plain; q=0.5"), "text/plain");
/// ```
pub fn format_type(key: &str) -> &str {
    if key.contains('/') {
        // Express splits on / *; */ and keeps the first part as is.
        let first = key.split(';').next().unwrap_or(key);
        first.trim_end_matches(' ')
    } else {
        super::mime::lookup(key)
    }
}

#[cfg(test)]
mod tests;
