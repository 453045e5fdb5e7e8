//! Pure HTTP helpers ported from Express's dependencies: no app state, no I/O.

pub mod content_type;
pub mod encodeurl;
pub mod escape_html;
pub mod etag;
pub mod fresh;
pub mod mime;
pub mod negotiate;
pub mod proxy_addr;
pub mod qs;
pub mod querystring;
pub mod status;
pub mod vary;

/// JavaScript's `\s` class (WhiteSpace plus LineTerminator), which is also what
/// `String.prototype.trim` removes; several of Express's helpers split and trim
/// with it.
pub(crate) fn is_js_whitespace(c: char) -> bool {
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
pub(crate) fn find_byte(b: u8, hay: &[u8]) -> Option<usize> {
    const LO: u64 = u64::from_le_bytes([1; 8]);
    const HI: u64 = LO << 7;
    let pattern = LO * u64::from(b);
    let head = &hay[..hay.len().min(32)];
    let mut words = head.chunks_exact(8);
    let mut base = 0;
    for w in &mut words {
        let x = u64::from_le_bytes(w.try_into().unwrap_or_default()) ^ pattern;
        // Nonzero at (and only above) a zero byte: the lowest one is exact.
        let m = x.wrapping_sub(LO) & !x & HI;
        if m != 0 {
            return Some(base + (m.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    if let Some(p) = words.remainder().iter().position(|&c| c == b) {
        return Some(base + p);
    }
    if head.len() == hay.len() {
        return None;
    }
    memchr::memchr(b, &hay[head.len()..]).map(|p| head.len() + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_matches_position() {
        let hay: Vec<u8> = (0..100u8).map(|k| b'a' + k % 26).collect();
        for b in [b'a', b'h', b'z', b'\n'] {
            for from in 0..hay.len() {
                let h = &hay[from..];
                assert_eq!(find_byte(b, h), h.iter().position(|&c| c == b));
            }
        }
    }
}
