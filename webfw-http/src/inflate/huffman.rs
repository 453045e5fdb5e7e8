//! Decoding tables for deflate's canonical Huffman codes (RFC 1951 3.2.2),
//! accepting and refusing exactly the sets of code lengths zlib's
//! `inflate_table` does.
//!
//! A table is looked up with the next `root` bits of the stream (least
//! significant first, so codes are stored bit-reversed). An entry either
//! holds a symbol and its code's length, or links to a sub-table indexed by
//! the bits after the root ones, for the few codes longer than `root`.

use std::sync::OnceLock;

/// An entry, packed in a `u32`: bits 0-3 the code bits it consumes (past
/// the root bits for a sub-table's entry), bits 4-7 a length or distance's
/// extra bits (a link's sub-table index bits), bits 8-10 its kind, bits
/// 16-31 its value.
pub(super) type Entry = u32;

/// A literal byte, or a code-length symbol (0-18): the value.
pub(super) const LITERAL: u32 = 0;
/// A length or distance: the value is its base, extra bits follow.
pub(super) const BASE: u32 = 1;
/// The end of the block (literal/length symbol 256).
pub(super) const END: u32 = 2;
/// No symbol: literal/length 286 and 287 and distances 30 and 31 of the
/// fixed codes, and the code zlib's incomplete or empty sets leave unused.
/// Its value is 0, which is what zlib's code-length decoding reads from it.
pub(super) const INVALID: u32 = 3;
/// A sub-table: the value is its offset.
pub(super) const LINK: u32 = 4;

pub(super) const fn bits(e: Entry) -> u32 {
    e & 15
}

pub(super) const fn extra(e: Entry) -> u32 {
    (e >> 4) & 15
}

pub(super) const fn kind(e: Entry) -> u32 {
    (e >> 8) & 7
}

pub(super) const fn value(e: Entry) -> u32 {
    e >> 16
}

const fn entry(kind: u32, bits: u32, extra: u32, value: u32) -> Entry {
    value << 16 | kind << 8 | extra << 4 | bits
}

/// Lengths 3-258 of symbols 257-285: base and extra bits.
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// Distances 1-32768 of symbols 0-29: base and extra bits.
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

/// Which alphabet a code is for: what its symbols mean, and whether an
/// incomplete code of one symbol passes (zlib allows it for the literal/
/// length and distance codes, not for the code-length code).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Alphabet {
    CodeLengths,
    LitLen,
    Dist,
}

impl Alphabet {
    fn entry(self, symbol: usize, bits: u32) -> Entry {
        match self {
            Alphabet::CodeLengths => entry(LITERAL, bits, 0, symbol as u32),
            Alphabet::LitLen => match symbol {
                0..=255 => entry(LITERAL, bits, 0, symbol as u32),
                256 => entry(END, bits, 0, 0),
                257..=285 => {
                    let i = symbol - 257;
                    entry(
                        BASE,
                        bits,
                        u32::from(LENGTH_EXTRA[i]),
                        u32::from(LENGTH_BASE[i]),
                    )
                }
                _ => entry(INVALID, bits, 0, 0),
            },
            Alphabet::Dist => match symbol {
                0..=29 => entry(
                    BASE,
                    bits,
                    u32::from(DIST_EXTRA[symbol]),
                    u32::from(DIST_BASE[symbol]),
                ),
                _ => entry(INVALID, bits, 0, 0),
            },
        }
    }
}

/// Builds into `table` the decoding table of the code whose lengths
/// (0 = unused, at most 15) are `lens`, with a root of `root` (at most 10)
/// bits or fewer; returns the root used. `Err` is zlib's refusal: an over-subscribed
/// set, or an incomplete one other than a single code of one bit (for
/// literal/length and distance codes). A set with no code at all passes
/// with a table whose every lookup reads one bit and finds no symbol, as
/// zlib's does: decoding from it is an error only once a bit is there.
pub(super) fn build(
    alphabet: Alphabet,
    lens: &[u8],
    root: u32,
    table: &mut Vec<Entry>,
) -> Result<u32, ()> {
    let mut count = [0u16; 16];
    for &len in lens {
        count[usize::from(len)] += 1;
    }
    count[0] = 0;
    let Some(max) = (1..16).rev().find(|&len| count[len] != 0) else {
        table.clear();
        table.extend([entry(INVALID, 1, 0, 0); 2]);
        return Ok(1);
    };
    let min = (1..16).find(|&len| count[len] != 0).unwrap_or(max);

    let mut left: i32 = 1;
    for &n in &count[1..] {
        left = 2 * left - i32::from(n);
        if left < 0 {
            return Err(());
        }
    }
    if left > 0 && (alphabet == Alphabet::CodeLengths || max != 1) {
        return Err(());
    }

    // The root never exceeds the longest code nor falls below the
    // shortest: no bigger table than needed, no sub-table for every code.
    let root = (root as usize).clamp(min, max);
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for len in 1..16 {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
    }

    // Each code, bit-reversed as the stream delivers it.
    let mut codes = [0u16; 320];
    for (sym, &len) in lens.iter().enumerate() {
        if len != 0 {
            let len = usize::from(len);
            codes[sym] = next[len].reverse_bits() >> (16 - len);
            next[len] += 1;
        }
    }

    table.clear();
    table.resize(1 << root, entry(INVALID, 1, 0, 0));
    let mask = (1usize << root) - 1;
    if max > root {
        // A sub-table per root prefix, as deep as its longest code.
        let mut depth = [0u8; 1 << 10];
        for (sym, &len) in lens.iter().enumerate() {
            let len = usize::from(len);
            if len > root {
                let at = usize::from(codes[sym]) & mask;
                depth[at] = depth[at].max((len - root) as u8);
            }
        }
        for (at, &d) in depth.iter().enumerate().take(1 << root) {
            if d != 0 {
                let offset = table.len();
                table[at] = entry(LINK, root as u32, u32::from(d), offset as u32);
                table.resize(offset + (1 << d), entry(INVALID, 1, 0, 0));
            }
        }
    }
    for (sym, &len) in lens.iter().enumerate() {
        let len = usize::from(len);
        if len == 0 {
            continue;
        }
        let code = usize::from(codes[sym]);
        if len <= root {
            let e = alphabet.entry(sym, len as u32);
            for i in (code..1 << root).step_by(1 << len) {
                table[i] = e;
            }
        } else {
            let link = table[code & mask];
            let offset = value(link) as usize;
            let e = alphabet.entry(sym, (len - root) as u32);
            for i in ((code >> root)..1 << extra(link)).step_by(1 << (len - root)) {
                table[offset + i] = e;
            }
        }
    }
    Ok(root as u32)
}

/// A block's two codes: the literal/length table and the distance table,
/// each with its root bits.
pub(super) struct Codes {
    pub lit: Vec<Entry>,
    pub lit_root: u32,
    pub dist: Vec<Entry>,
    pub dist_root: u32,
}

/// The fixed codes of block type 1 (RFC 1951 3.2.6), built once: all 288
/// literal/length symbols (286 and 287 decode as invalid) and all 32
/// distance symbols (30 and 31 likewise).
pub(super) fn fixed() -> &'static Codes {
    static FIXED: OnceLock<Codes> = OnceLock::new();
    FIXED.get_or_init(|| {
        let mut lens = [0u8; 288];
        lens[..144].fill(8);
        lens[144..256].fill(9);
        lens[256..280].fill(7);
        lens[280..].fill(8);
        let mut codes = Codes {
            lit: Vec::new(),
            lit_root: 0,
            dist: Vec::new(),
            dist_root: 0,
        };
        codes.lit_root = build(Alphabet::LitLen, &lens, 9, &mut codes.lit).unwrap_or(0);
        codes.dist_root = build(Alphabet::Dist, &[5; 32], 5, &mut codes.dist).unwrap_or(0);
        codes
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refuses(alphabet: Alphabet, lens: &[u8]) -> bool {
        build(alphabet, lens, 9, &mut Vec::new()).is_err()
    }

    #[test]
    fn zlib_refuses_over_subscribed_and_incomplete_sets() {
        // Three codes of one bit.
        assert!(refuses(Alphabet::LitLen, &[1, 1, 1]));
        // One code of two bits: incomplete.
        assert!(refuses(Alphabet::Dist, &[0, 2]));
        // One code of one bit: allowed for literal/length and distance,
        // not for the code-length code.
        assert!(!refuses(Alphabet::Dist, &[0, 0, 1]));
        assert!(refuses(Alphabet::CodeLengths, &[0, 1]));
        // No code at all: allowed, decoding is the error.
        assert!(!refuses(Alphabet::CodeLengths, &[0; 19]));
        assert!(!refuses(Alphabet::Dist, &[0; 30]));
    }

    #[test]
    fn single_code_reads_one_bit_and_the_other_is_invalid() {
        let mut t = Vec::new();
        let root = build(Alphabet::Dist, &[0, 0, 1], 9, &mut t).unwrap();
        assert_eq!(root, 1);
        assert_eq!((kind(t[0]), bits(t[0]), value(t[0])), (BASE, 1, 3));
        assert_eq!((kind(t[1]), bits(t[1])), (INVALID, 1));
    }

    #[test]
    fn long_codes_go_through_sub_tables() {
        // Lengths 1, 2, ..., 14, 15, 15: a complete code as deep as it gets.
        let mut lens: Vec<u8> = (1..=15).collect();
        lens.push(15);
        let mut t = Vec::new();
        let root = build(Alphabet::CodeLengths, &lens, 4, &mut t).unwrap();
        assert_eq!(root, 4);
        // Symbol 15 (code 111111111111111, 15 bits) and 16 (its sibling).
        let at = 0b1111;
        assert_eq!(kind(t[at]), LINK);
        let sub = value(t[at]) as usize;
        assert_eq!(extra(t[at]), 11);
        let last = t[sub + 0b111_1111_1111];
        assert_eq!((kind(last), bits(last), value(last)), (LITERAL, 11, 15));
        let before = t[sub + 0b011_1111_1111];
        assert_eq!((bits(before), value(before)), (11, 14));
    }

    #[test]
    fn fixed_codes() {
        let f = fixed();
        assert_eq!((f.lit_root, f.dist_root), (9, 5));
        // 0 is 00110000 (8 bits), reversed 00001100.
        let e = f.lit[0b0000_1100];
        assert_eq!((kind(e), bits(e), value(e)), (LITERAL, 8, 0));
        // 256 is 0000000 (7 bits).
        assert_eq!(kind(f.lit[0]), END);
        // 286 is 11000110, reversed 01100011.
        let e = f.lit[0b0110_0011];
        assert_eq!((kind(e), bits(e)), (INVALID, 8));
        // Distance 30 is 11110, reversed 01111.
        assert_eq!(kind(f.dist[0b01111]), INVALID);
    }
}
