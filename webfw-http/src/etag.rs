//! Entity tags exactly as the `etag` 1.8.1 package builds them (used by `res.send` and `send`).
//!
//! ```
//! use webfw_http::etag::entity_tag;
//! assert_eq!(entity_tag(b"hello", true), r#"W/"5-qvTGHdzF6KLavt4PO0gs2a6pQ00""#);
//! assert_eq!(entity_tag(b"", false), r#""0-2jmj7l5rSw0yVb/vlWAYkK/YBwk""#);
//! ```

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;

/// Builds the entity tag of a response body: `"<len hex>-<hash>"`, prefixed with `W/` when `weak`.
///
/// `<len hex>` is the body's byte length in lowercase hexadecimal and `<hash>` the first 27
/// characters of the base64 SHA-1 digest of the body.
///
/// ```
/// use webfw_http::etag::entity_tag;
/// assert_eq!(entity_tag(b"hello", true), r#"W/"5-qvTGHdzF6KLavt4PO0gs2a6pQ00""#);
/// assert_eq!(entity_tag(b"", false), r#""0-2jmj7l5rSw0yVb/vlWAYkK/YBwk""#);
/// ```
pub fn entity_tag(body: &[u8], weak: bool) -> String {
    let mut out = String::with_capacity(MAX_ENTITY_TAG_LEN);
    write_entity_tag(body, weak, &mut out);
    out
}

/// Appends the entity tag of `body` (see [`entity_tag`]) to `out`.
///
/// Meant for the per-request path: it reserves once and allocates nothing else.
///
/// ```
/// use webfw_http::etag::write_entity_tag;
/// let mut header = String::new();
/// write_entity_tag(br#"{"a":1}"#, true, &mut header);
/// assert_eq!(header, r#"W/"7-n4nHQM60bXQYySSnisV5QdXpZSA""#);
/// ```
pub fn write_entity_tag(body: &[u8], weak: bool, out: &mut String) {
    out.reserve(MAX_ENTITY_TAG_LEN);
    if weak {
        out.push_str("W/");
    }
    let digest = crate::sha1::digest(body);
    // 20 digest bytes are 27 base64 characters once the single `=` pad is dropped, which is
    // exactly the 27-character prefix etag keeps.
    let mut b64 = [0u8; 27];
    let written = STANDARD_NO_PAD
        .encode_slice(digest, &mut b64)
        .unwrap_or_default();
    out.push('"');
    // Writing into a String cannot fail.
    let _ = write!(out, "{:x}", body.len());
    out.push('-');
    // base64 output is ASCII, so this conversion always succeeds.
    out.push_str(std::str::from_utf8(&b64[..written]).unwrap_or_default());
    out.push('"');
}

/// Builds the weak validator `send` and `serve-static` put on files: `W/"<size hex>-<mtime ms hex>"`.
///
/// ```
/// use webfw_http::etag::stat_tag;
/// assert_eq!(stat_tag(11, 1_577_836_800_136), r#"W/"b-16f5e66e888""#);
/// ```
pub fn stat_tag(size: u64, mtime_ms: u128) -> String {
    format!("W/\"{size:x}-{mtime_ms:x}\"")
}

/// `W/` + quotes + 16 hex digits + `-` + 27 hash characters.
const MAX_ENTITY_TAG_LEN: usize = 2 + 2 + 16 + 1 + 27;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_body_uses_the_well_known_sha1_of_nothing() {
        assert_eq!(entity_tag(b"", false), "\"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk\"");
        assert_eq!(entity_tag(b"", true), "W/\"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk\"");
    }

    #[test]
    fn json_body_matches_express_output() {
        assert_eq!(
            entity_tag(br#"{"a":1}"#, true),
            "W/\"7-n4nHQM60bXQYySSnisV5QdXpZSA\""
        );
    }

    #[test]
    fn hello_body_matches_express_output() {
        assert_eq!(
            entity_tag(b"hello", true),
            "W/\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\""
        );
        assert_eq!(
            entity_tag(b"hello", false),
            "\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\""
        );
    }

    #[test]
    fn length_is_byte_length_in_lowercase_hex() {
        let body = vec![b'x'; 255];
        let tag = entity_tag(&body, false);
        assert!(tag.starts_with("\"ff-"), "{tag}");
        let utf8 = "é".repeat(10); // 20 bytes, 10 chars
        assert!(entity_tag(utf8.as_bytes(), true).starts_with("W/\"14-"));
    }

    #[test]
    fn hash_part_is_27_characters_without_padding() {
        for body in [&b""[..], b"a", b"ab", b"abc", &[0u8; 1000][..]] {
            let tag = entity_tag(body, false);
            let hash = tag
                .trim_matches('"')
                .split_once('-')
                .map(|(_, h)| h)
                .unwrap_or("");
            assert_eq!(hash.len(), 27, "{tag}");
            assert!(!hash.contains('='));
        }
    }

    #[test]
    fn write_entity_tag_appends_to_existing_text() {
        let mut out = String::from("ETag: ");
        write_entity_tag(b"hello", true, &mut out);
        assert_eq!(out, "ETag: W/\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"");
    }

    #[test]
    fn write_entity_tag_needs_no_reallocation_after_reserve() {
        let mut out = String::with_capacity(MAX_ENTITY_TAG_LEN);
        let before = out.capacity();
        write_entity_tag(&[7u8; 1 << 20], true, &mut out);
        assert_eq!(out.capacity(), before);
        assert!(out.len() <= MAX_ENTITY_TAG_LEN);
    }

    #[test]
    fn stat_tag_is_weak_size_and_mtime_in_hex() {
        assert_eq!(stat_tag(11, 0x16f6435cc88), "W/\"b-16f6435cc88\"");
        assert_eq!(stat_tag(0, 0), "W/\"0-0\"");
        assert_eq!(stat_tag(u64::MAX, 255), "W/\"ffffffffffffffff-ff\"");
    }
}
