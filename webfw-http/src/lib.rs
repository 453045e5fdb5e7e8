//! The npm HTTP helpers Express 4 is built on, with their exact behaviour:
//! each module is one package (`cookie`, `negotiator`, `fresh`, `qs`, …),
//! takes bytes and strings, and does no I/O.
//!
//! This is the part of [webfw](https://docs.rs/webfw) that holds no
//! application state, in a crate with its own version. Items hidden from
//! these docs are webfw's own scanning helpers and carry no semver promise.
//!
//! ```
//! use webfw_http::{escape_html::escape_html, status::status_text};
//! assert_eq!(status_text(404), Some("Not Found"));
//! assert_eq!(escape_html("<b>"), "&lt;b&gt;");
//! ```

pub mod content_disposition;
pub mod content_type;
pub mod cookie;
#[cfg(feature = "cookie-signature")]
pub mod cookie_signature;
#[doc(hidden)]
pub mod date;
pub mod encodeurl;
pub mod escape_html;
pub mod etag;
pub mod fresh;
#[doc(hidden)]
pub mod h1;
pub mod inflate;
#[cfg(feature = "keygrip")]
pub mod keygrip;
pub mod mime;
pub mod negotiate;
pub mod proxy_addr;
pub mod qs;
pub mod querystring;
pub mod range;
mod sha1;
#[doc(hidden)]
pub mod sort;
pub mod status;
pub mod type_is;
pub mod vary;

/// An RFC 9110 `tchar`: `[!#$%&'*+\-.^_`|~0-9A-Za-z]`, what a header name,
/// a media type's parts and a cookie name are made of.
#[doc(hidden)]
pub fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// JavaScript's `\s` class (WhiteSpace plus LineTerminator), which is also what
/// `String.prototype.trim` removes; several of Express's helpers split and trim
/// with it.
#[doc(hidden)]
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// The first `b` in `hay`. Lines are short: a word at a time for the first
/// few words costs less than `memchr`'s dispatch, which takes over after.
#[inline]
#[doc(hidden)]
pub fn find_byte(b: u8, hay: &[u8]) -> Option<usize> {
    find_in_words(
        hay,
        32,
        |x| zero_bytes(x ^ repeat(b)),
        |rest| memchr::memchr(b, rest),
    )
}

/// `b` in every byte of a word.
#[doc(hidden)]
pub const fn repeat(b: u8) -> u64 {
    u64::from_le_bytes([b; 8])
}

/// The high bit of each zero byte of `x` is set, and possibly of bytes above
/// the lowest zero one: the lowest set bit is exact, which is all a search needs.
#[doc(hidden)]
pub const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(repeat(1)) & !x & repeat(0x80)
}

/// The first byte of `hay` that `hit` flags, `hit` mapping a little-endian
/// word to a mask whose lowest set bit is the high bit of its first matching
/// byte (as [`zero_bytes`] gives). The first `limit` bytes are searched a
/// word at a time, a short tail through one overlapping word; `long`
/// searches the rest. Always inlined, so that `hit` is.
#[inline(always)]
#[doc(hidden)]
pub fn find_in_words(
    hay: &[u8],
    limit: usize,
    hit: impl Fn(u64) -> u64,
    long: impl FnOnce(&[u8]) -> Option<usize>,
) -> Option<usize> {
    let head = &hay[..hay.len().min(limit)];
    let mut words = head.chunks_exact(8);
    let mut base = 0;
    for w in &mut words {
        let m = hit(u64::from_le_bytes(w.try_into().unwrap_or_default()));
        if m != 0 {
            return Some(base + (m.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    if words.remainder().is_empty() {
        return if head.len() == hay.len() {
            None
        } else {
            long(&hay[head.len()..]).map(|p| head.len() + p)
        };
    }
    if head.len() < 8 {
        // The byte alone in the lowest lane: only that lane's bit counts.
        return head.iter().position(|&c| hit(u64::from(c)) & 0x80 != 0);
    }
    // The last eight bytes: those before `base` were searched already, so the
    // lowest hit is past them.
    let last = head.len() - 8;
    let m = hit(u64::from_le_bytes(
        head[last..].try_into().unwrap_or_default(),
    ));
    (m != 0).then(|| last + (m.trailing_zeros() / 8) as usize)
}

/// The eight bytes of `s` from `i` as a word (native order).
#[inline(always)]
#[doc(hidden)]
pub fn word_at(s: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&s[i..i + 8]);
    u64::from_ne_bytes(w)
}

/// The four bytes of `s` from `i` as a half word (native order).
#[inline(always)]
#[doc(hidden)]
pub fn half_at(s: &[u8], i: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&s[i..i + 4]);
    u32::from_ne_bytes(w)
}

/// [`same_bytes`] for strings.
#[inline]
#[doc(hidden)]
pub fn same_str(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// `a == b`, a word at a time: for the short names and labels routing
/// compares, a `memcmp` call costs more than the comparison itself.
#[inline]
#[doc(hidden)]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let (word, half) = (word_at, half_at);
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 4 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    if n < 8 {
        return half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4);
    }
    if n <= 16 {
        return word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8);
    }
    let mut i = 0;
    while i + 8 < n {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 8;
    }
    word(a, n - 8) == word(b, n - 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_agrees_with_slice_equality_at_every_length() {
        let a: Vec<u8> = (0..20).map(|i| b'a' + i).collect();
        for n in 0..=a.len() {
            for flip in 0..n {
                let mut b = a[..n].to_vec();
                assert!(same_bytes(&a[..n], &b));
                b[flip] ^= 0x20;
                assert!(!same_bytes(&a[..n], &b), "length {n}, byte {flip}");
            }
        }
        assert!(!same_bytes(b"abc", b"abcd"));
    }

    #[test]
    fn find_matches_position() {
        let hay: Vec<u8> = (0..100u8).map(|k| b'a' + k % 26).collect();
        for b in [b'a', b'h', b'z', b'\n'] {
            for from in 0..hay.len() {
                let h = &hay[from..];
                assert_eq!(find_byte(b, h), h.iter().position(|&c| c == b));
                for len in 0..h.len().min(40) {
                    let h = &h[..len];
                    assert_eq!(find_byte(b, h), h.iter().position(|&c| c == b));
                }
            }
        }
    }
}
