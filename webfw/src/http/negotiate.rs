//! Media-type negotiation on `Accept` (negotiator 0.6 / accepts 1.3 rules).

/// One parsed `Accept` entry.
struct Accepted<'a> {
    kind: &'a str,
    subtype: &'a str,
    params: Vec<(&'a str, &'a str)>,
    q: f64,
    index: usize,
}

/// Splits on commas outside double quotes.
fn split_outside_quotes(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quoted = false;
    let mut start = 0;
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

fn parse_accept(accept: &str) -> Vec<Accepted<'_>> {
    let mut out = Vec::new();
    for (index, entry) in split_outside_quotes(accept, ',').into_iter().enumerate() {
        let mut parts = split_outside_quotes(entry, ';').into_iter();
        let full = parts.next().unwrap_or("").trim();
        let Some((kind, subtype)) = full.split_once('/') else {
            continue;
        };
        if kind.is_empty()
            || subtype.is_empty()
            || kind.contains(char::is_whitespace)
            || subtype.contains(char::is_whitespace)
        {
            continue;
        }
        let mut q = 1.0;
        let mut params = Vec::new();
        for p in parts {
            let Some((k, v)) = p.split_once('=') else {
                continue;
            };
            let k = k.trim();
            let v = v.trim().trim_matches('"');
            if k.eq_ignore_ascii_case("q") {
                q = v.parse::<f64>().unwrap_or(0.0);
                break;
            }
            params.push((k, v));
        }
        out.push(Accepted {
            kind,
            subtype,
            params,
            q,
            index,
        });
    }
    out
}

/// How well `ty` matches `spec`: (specificity, q, accept position), or None.
fn specify(ty: &str, spec: &Accepted<'_>) -> Option<(u8, f64, usize)> {
    let (kind, rest) = ty.split_once('/')?;
    let mut pieces = rest.split(';');
    let subtype = pieces.next()?.trim();
    let own_params: Vec<(&str, &str)> = pieces
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.trim(), v.trim().trim_matches('"')))
        .collect();
    let mut s = 0u8;
    if spec.kind.eq_ignore_ascii_case(kind) {
        s |= 4;
    } else if spec.kind != "*" {
        return None;
    }
    if spec.subtype.eq_ignore_ascii_case(subtype) {
        s |= 2;
    } else if spec.subtype != "*" {
        return None;
    }
    if !spec.params.is_empty() {
        let all = spec.params.iter().all(|(k, v)| {
            *v == "*"
                || own_params
                    .iter()
                    .find(|(ok, _)| ok.eq_ignore_ascii_case(k))
                    .is_some_and(|(_, ov)| ov.eq_ignore_ascii_case(v))
        });
        if !all {
            return None;
        }
        s |= 1;
    }
    Some((s, spec.q, spec.index))
}

/// The indexes of `provided` that `accept` allows, best first
/// (negotiator's `preferredMediaTypes`). A missing header accepts everything.
///
/// ```
/// use webfw::http::negotiate::preferred;
/// assert_eq!(preferred(Some("text/html"), &["text/plain", "text/html"]), vec![1]);
/// assert_eq!(preferred(None, &["a/b", "c/d"]), vec![0, 1]);
/// ```
pub fn preferred(accept: Option<&str>, provided: &[&str]) -> Vec<usize> {
    let accepted = parse_accept(accept.unwrap_or("*/*"));
    let mut ranked: Vec<(usize, u8, f64, usize)> = Vec::new();
    for (i, ty) in provided.iter().enumerate() {
        let mut best: Option<(u8, f64, usize)> = None;
        for spec in &accepted {
            if let Some(cand) = specify(ty, spec) {
                let better = match best {
                    None => true,
                    Some(b) => {
                        (b.0 as i32 - cand.0 as i32) < 0
                            || (b.0 == cand.0 && b.1 < cand.1)
                            || (b.0 == cand.0 && b.1 == cand.1 && b.2 > cand.2)
                    }
                };
                if better {
                    best = Some(cand);
                }
            }
        }
        if let Some((s, q, o)) = best
            && q > 0.0
        {
            ranked.push((i, s, q, o));
        }
    }
    ranked.sort_by(|a, b| {
        b.2.partial_cmp(&a.2)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(b.1.cmp(&a.1))
            .then(a.3.cmp(&b.3))
            .then(a.0.cmp(&b.0))
    });
    ranked.into_iter().map(|r| r.0).collect()
}

/// `req.accepts(types)`: the index of the best type, or None when none is
/// acceptable; with no (or an empty) `Accept` header, the first type.
///
/// ```
/// use webfw::http::negotiate::accepts;
/// assert_eq!(accepts(Some("application/json"), &["text/html", "application/json"]), Some(1));
/// assert_eq!(accepts(Some("image/png"), &["text/html"]), None);
/// ```
pub fn accepts(accept: Option<&str>, types: &[&str]) -> Option<usize> {
    match accept {
        None | Some("") => (!types.is_empty()).then_some(0),
        Some(a) => preferred(Some(a), types).first().copied(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_zero_is_not_acceptable() {
        assert_eq!(
            accepts(
                Some("application/json;q=0, text/html;q=0.1"),
                &["application/json", "text/html"]
            ),
            Some(1)
        );
    }

    #[test]
    fn specificity_beats_order() {
        assert_eq!(
            accepts(Some("*/*, text/html"), &["text/plain", "text/html"]),
            Some(1)
        );
    }

    #[test]
    fn garbage_accept_matches_nothing() {
        assert_eq!(accepts(Some(";;;,,,/"), &["application/json"]), None);
    }
}
