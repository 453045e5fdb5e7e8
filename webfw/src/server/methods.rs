//! The request methods and `Expect` values Node's HTTP/1 parser accepts.

/// Node's method list beyond the nine standard ones (`http.METHODS`), upper
/// case: the parser answers 400 to any other token, lower case included.
const NODE_EXTRA: [&str; 26] = [
    "ACL",
    "BIND",
    "CHECKOUT",
    "COPY",
    "LINK",
    "LOCK",
    "M-SEARCH",
    "MERGE",
    "MKACTIVITY",
    "MKCALENDAR",
    "MKCOL",
    "MOVE",
    "NOTIFY",
    "PROPFIND",
    "PROPPATCH",
    "PURGE",
    "QUERY",
    "REBIND",
    "REPORT",
    "SEARCH",
    "SOURCE",
    "SUBSCRIBE",
    "UNBIND",
    "UNLINK",
    "UNLOCK",
    "UNSUBSCRIBE",
];

/// Whether Node's parser accepts `method` (then routes see exactly it).
#[inline]
pub(super) fn node_accepts(method: &http::Method) -> bool {
    match *method {
        http::Method::GET
        | http::Method::POST
        | http::Method::PUT
        | http::Method::DELETE
        | http::Method::HEAD
        | http::Method::OPTIONS
        | http::Method::PATCH
        | http::Method::TRACE
        | http::Method::CONNECT => true,
        _ => NODE_EXTRA.contains(&method.as_str()),
    }
}

/// Whether the `Expect` headers ask for `100-continue` (as a whole word,
/// any case, as Node tests them), which hyper meets; any other expectation
/// gets Node's 417.
pub(super) fn expects_only_continue(headers: &http::HeaderMap) -> bool {
    let mut values = headers.get_all(http::header::EXPECT).iter();
    // Node joins repeated headers with ", " and tests the whole.
    values.any(|v| has_continue_word(v.as_bytes()))
}

fn has_continue_word(v: &[u8]) -> bool {
    const WORD: &[u8] = b"100-continue";
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    (0..v.len().saturating_sub(WORD.len() - 1)).any(|i| {
        v[i..i + WORD.len()].eq_ignore_ascii_case(WORD)
            && (i == 0 || !is_word(v[i - 1]))
            && v.get(i + WORD.len()).is_none_or(|&b| !is_word(b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_s_methods_are_accepted_in_upper_case_only() {
        for m in ["GET", "POST", "M-SEARCH", "QUERY", "PURGE", "UNSUBSCRIBE"] {
            let method = http::Method::from_bytes(m.as_bytes()).unwrap();
            assert!(node_accepts(&method), "{m}");
        }
        for m in ["post", "Get", "FOO", "PRI", "m-search"] {
            let method = http::Method::from_bytes(m.as_bytes()).unwrap();
            assert!(!node_accepts(&method), "{m}");
        }
    }

    #[test]
    fn continue_is_found_as_a_word_in_any_case() {
        for v in [
            "100-continue",
            "100-Continue",
            "foo, 100-continue",
            "100-continue;x",
        ] {
            assert!(has_continue_word(v.as_bytes()), "{v}");
        }
        for v in ["foo", "", "100-continued", "x100-continue", "100-contin"] {
            assert!(!has_continue_word(v.as_bytes()), "{v}");
        }
    }
}
