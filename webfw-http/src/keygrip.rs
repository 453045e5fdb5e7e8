//! Signatures as the `keygrip` 1.1 package makes them for the `cookies`
//! package (and so for cookie-session): the HMAC-SHA1 of the data under a
//! key, base64url without `=` padding. A list of keys signs with the first
//! and accepts any, so keys can be rotated: put the new key first and keep
//! the old ones after it until their cookies have expired.
//!
//! ```
//! use webfw_http::keygrip::{index, sign};
//! let keys = ["key-new", "key-old"];
//! assert_eq!(sign("session=eyJuIjo0fQ==", "key-new"), "xBNDpKJjSBecrE2s9bTDBwf6SwA");
//! let digest = sign("session=eyJuIjo0fQ==", "key-old");
//! assert_eq!(index("session=eyJuIjo0fQ==", &digest, &keys), Some(1));
//! ```

use base64::Engine;
use hmac::{Hmac, Mac};
use sha1::Sha1;

/// `keygrip.sign(data)` with one key: base64url HMAC-SHA1, no padding.
///
/// ```
/// use webfw_http::keygrip::sign;
/// assert_eq!(sign("session=eyJuIjo0fQ==", "key-new"), "xBNDpKJjSBecrE2s9bTDBwf6SwA");
/// ```
pub fn sign(data: &str, key: &str) -> String {
    // HMAC takes keys of any length, so this cannot fail.
    let mut m = <Hmac<Sha1> as Mac>::new_from_slice(key.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
    m.update(data.as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(m.finalize().into_bytes())
}

/// `keygrip.index(data, digest)`: the position of the key that signed
/// `data` as `digest`, or `None` when none did. Each comparison takes the
/// same time wherever the first difference is.
///
/// ```
/// use webfw_http::keygrip::{index, sign};
/// let keys = ["new", "old"];
/// assert_eq!(index("a=1", &sign("a=1", "new"), &keys), Some(0));
/// assert_eq!(index("a=1", &sign("a=1", "old"), &keys), Some(1));
/// assert_eq!(index("a=2", &sign("a=1", "new"), &keys), None);
/// ```
pub fn index<K: AsRef<str>>(data: &str, digest: &str, keys: &[K]) -> Option<usize> {
    keys.iter()
        .position(|key| same(digest.as_bytes(), sign(data, key.as_ref()).as_bytes()))
}

/// Equality whose time does not depend on where the inputs differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_match_the_npm_packages() {
        // Made by keygrip 1.1 in the conformance reference.
        assert_eq!(
            sign("session=eyJuIjo3fQ==", "key-old"),
            "__hVbfyoXNusuWq8Hanv777K-Ro"
        );
        assert_eq!(
            sign("session=eyJuIjoxfQ==", "key-new"),
            "5wXwmfm8b9rjSVV9KS8BZjOOKpc"
        );
    }

    #[test]
    fn a_tampered_digest_matches_no_key() {
        let keys = ["key-new", "key-old"];
        assert_eq!(
            index(
                "session=eyJuIjo0fQ==",
                "xxBNDpKJjSBecrE2s9bTDBwf6SwA",
                &keys
            ),
            None
        );
        assert_eq!(index("session=eyJuIjo0fQ==", "", &keys), None);
    }
}
