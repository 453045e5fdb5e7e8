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

/// `keygrip.sign(data)` with one key: base64url HMAC-SHA1, no padding.
///
/// ```
/// use webfw_http::keygrip::sign;
/// assert_eq!(sign("session=eyJuIjo0fQ==", "key-new"), "xBNDpKJjSBecrE2s9bTDBwf6SwA");
/// ```
pub fn sign(data: &str, key: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(hmac_sha1(key.as_bytes(), data.as_bytes()))
}

/// HMAC (RFC 2104) over SHA-1's 64-byte blocks.
fn hmac_sha1(key: &[u8], data: &[u8]) -> [u8; 20] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..20].copy_from_slice(&crate::sha1::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let padded = |pad: u8, rest: &[u8]| {
        let mut v: Vec<u8> = block.iter().map(|b| b ^ pad).collect();
        v.extend_from_slice(rest);
        v
    };
    let inner = crate::sha1::digest(&padded(0x36, data));
    crate::sha1::digest(&padded(0x5c, &inner))
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

    /// RFC 2202's HMAC-SHA1 cases 1, 3 and 6 (a key longer than a block).
    #[test]
    fn hmac_sha1_matches_rfc_2202() {
        let hex = |d: [u8; 20]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            hex(hmac_sha1(&[0x0b; 20], b"Hi There")),
            "b617318655057264e28bc0b6fb378c8ef146be00"
        );
        assert_eq!(
            hex(hmac_sha1(&[0xaa; 20], &[0xdd; 50])),
            "125d7342b9ac11cd91a39af48aa17b4f63f175d3"
        );
        assert_eq!(
            hex(hmac_sha1(
                &[0xaa; 80],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "aa4ae5e15272d00e95705637ce8a3b55ed402112"
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
