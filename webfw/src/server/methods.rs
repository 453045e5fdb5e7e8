//! The `Expect` values Node's server meets (its parser, `webfw_http::h1`,
//! decides which methods it takes).

/// Whether the `Expect` headers ask for `100-continue` (as a whole word,
/// any case, as Node tests them), which the server meets; any other
/// expectation gets Node's 417.
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
