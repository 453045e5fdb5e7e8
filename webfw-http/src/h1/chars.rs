//! llhttp's byte classes (src/llhttp/constants.ts of llhttp 9.3), as tables.

const fn table(ranges: &[(u8, u8)], singles: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < ranges.len() {
        let (lo, hi) = ranges[i];
        let mut b = lo as usize;
        while b <= hi as usize {
            t[b] = true;
            b += 1;
        }
        i += 1;
    }
    let mut j = 0;
    while j < singles.len() {
        t[singles[j] as usize] = true;
        j += 1;
    }
    t
}

const ALNUM: [(u8, u8); 3] = [(b'0', b'9'), (b'A', b'Z'), (b'a', b'z')];

/// RFC 2616 token: header names, chunk extension names and values.
pub(crate) static TOKEN: [bool; 256] = table(&ALNUM, b"!#$%&'*+-.^_`|~");

/// URL_CHAR: what a path, query or fragment may hold (`"<>\^`{|}` included,
/// `#`, `?`, controls, DEL and obs-text not).
pub(crate) static URL: [bool; 256] = table(&ALNUM, b"!\"$%&'()*+,-./:;<=>@[\\]^_`{|}~");

/// USERINFO_CHARS plus `[` `]`: the authority of an absolute URL.
pub(crate) static SERVER: [bool; 256] = table(&ALNUM, b"-_.!~*'()%;:&=+$,[]");

/// HTAB / SP / VCHAR / obs-text: a header value, a quoted-pair's second byte.
pub(crate) static VALUE: [bool; 256] = table(&[(0x20, 0x7e), (0x80, 0xff)], b"\t");

/// The same without `,`: a token of Connection or Transfer-Encoding.
pub(crate) static LIST_TOKEN: [bool; 256] =
    table(&[(0x20, 0x2b), (0x2d, 0x7e), (0x80, 0xff)], b"\t");

/// qdtext of a quoted chunk extension value.
pub(crate) static QDTEXT: [bool; 256] = table(
    &[(0x20, 0x21), (0x23, 0x5b), (0x5d, 0x7e), (0x80, 0xff)],
    b"\t",
);

/// llhttp's hex digit value, or `None`.
pub(crate) fn hex(b: u8) -> Option<u64> {
    (b as char).to_digit(16).map(u64::from)
}
