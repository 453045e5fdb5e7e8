//! Signed cookie values as `cookie-signature` 1.0.6 makes them: the value,
//! `.`, and the base64 HMAC-SHA256 of the value under the secret without
//! `=` padding. Node's cookie-parser verifies what this signs, and the other
//! way round.
//!
//! ```
//! use webfw_http::cookie_signature::sign;
//! assert_eq!(
//!     sign("hello", "conformance-secret"),
//!     "hello.wy5O5hbgeVSMtbnyN5HEkJoPUihodQqb+zg4hcjpr28"
//! );
//! ```

use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The base64 (with `+` and `/`, no padding) HMAC-SHA256 of `value`.
fn mac(value: &str, secret: &str) -> String {
    // HMAC takes keys of any length, so this cannot fail.
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(secret.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
    m.update(value.as_bytes());
    base64::engine::general_purpose::STANDARD_NO_PAD.encode(m.finalize().into_bytes())
}

/// `sign(value, secret)`: `value.signature`.
///
/// ```
/// use webfw_http::cookie_signature::sign;
/// assert_eq!(
///     sign("hello", "conformance-secret"),
///     "hello.wy5O5hbgeVSMtbnyN5HEkJoPUihodQqb+zg4hcjpr28"
/// );
/// ```
pub fn sign(value: &str, secret: &str) -> String {
    format!("{value}.{}", mac(value, secret))
}

/// `unsign(signed, secret)`: the value when the signature is the secret's,
/// else `None`. The comparison takes the same time wherever the first
/// difference is.
///
/// ```
/// use webfw_http::cookie_signature::{sign, unsign};
/// let signed = sign("tobi", "keyboard cat");
/// assert_eq!(unsign(&signed, "keyboard cat"), Some("tobi"));
/// assert_eq!(unsign(&signed, "other secret"), None);
/// assert_eq!(unsign("tobi.forged", "keyboard cat"), None);
/// ```
pub fn unsign<'a>(signed: &'a str, secret: &str) -> Option<&'a str> {
    // Without a `.`, cookie-signature drops the last character (`slice(0, -1)`).
    let value = match signed.rfind('.') {
        Some(dot) => &signed[..dot],
        None => signed
            .char_indices()
            .last()
            .map_or("", |(i, _)| &signed[..i]),
    };
    let expected = sign(value, secret);
    let same = expected.len() == signed.len()
        && expected
            .bytes()
            .zip(signed.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    same.then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny deterministic generator, so the property tests need no crate.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    fn text(state: &mut u64, max: u64) -> String {
        const CHARS: &[char] = &[
            'a', 'Z', '0', '.', ' ', '%', 's', ':', '\u{e9}', '\u{2713}', '=', '+',
        ];
        let len = next(state) % max;
        (0..len)
            .map(|_| CHARS[(next(state) % CHARS.len() as u64) as usize])
            .collect()
    }

    #[test]
    fn matches_node_signatures() {
        // Recorded with cookie-signature 1.0.6 under Node 20.
        assert_eq!(
            sign("secret value", "conformance-secret"),
            "secret value.a9LRY3fa4rM1JFddZUaQTBEdWiUJ76TxZ4WIyIwaMjU"
        );
        assert_eq!(
            sign("", "k"),
            ".i7mQxAp9YcuXWXqUISUCW+UKyL63RDbjc1uYiTp/ZiA"
        );
        assert_eq!(
            sign("j:{\"a\":1}", "conformance-secret"),
            "j:{\"a\":1}.IhjrQ0O5O13efNg1WgKsg9WOhARB3wAmnNHvzLncrQU"
        );
    }

    #[test]
    fn a_signed_value_always_verifies() {
        let mut state = 0x2545_f491_4f6c_dd1d;
        for _ in 0..500 {
            let value = text(&mut state, 24);
            let secret = text(&mut state, 16);
            let signed = sign(&value, &secret);
            assert_eq!(unsign(&signed, &secret), Some(value.as_str()), "{signed:?}");
        }
    }

    #[test]
    fn any_other_byte_never_verifies() {
        let mut state = 0x1234_5678_9abc_def1;
        for _ in 0..200 {
            let value = text(&mut state, 16);
            let secret = text(&mut state, 8);
            let signed = sign(&value, &secret).into_bytes();
            for i in 0..signed.len() {
                for flip in [0x01u8, 0x20, 0x80] {
                    let mut bytes = signed.clone();
                    bytes[i] ^= flip;
                    let Ok(forged) = String::from_utf8(bytes) else {
                        continue;
                    };
                    assert_eq!(unsign(&forged, &secret), None, "{forged:?}");
                }
            }
        }
    }

    #[test]
    fn no_dot_drops_the_last_character_as_node_does() {
        assert_eq!(unsign("abc", "k"), None);
        assert_eq!(unsign("", "k"), None);
    }
}
