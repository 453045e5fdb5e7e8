//! The trailers' checksums: Adler-32 (RFC 1950) and CRC-32 (RFC 1952),
//! each continued from a running value as the output grows.

/// Adler-32's modulus: the largest prime below 2^16.
const BASE: u64 = 65521;

/// Bytes summed between reductions, a multiple of 16 (zlib's 5552): the
/// lanes' sums below stay within 32 bits, the largest being at most
/// 255·347·348/2.
const BLOCK: usize = 5552;

/// Continues the Adler-32 `adler` (1 for none yet) over `data`.
///
/// Over `m` 16-byte chunks, `a` gains the sum of the bytes and `b` gains
/// `16m·a` plus each byte weighted by how many bytes follow it, counting
/// itself. Sixteen lanes keep, per position in a chunk, the running sum of
/// the bytes (`sa`) and the sum of those running sums (`sb`): the weighted
/// sum is then `16·Σsb − Σ j·sa[j]`, and the lanes' loop is one the
/// compiler vectorises.
pub(super) fn adler32(adler: u32, data: &[u8]) -> u32 {
    let (mut a, mut b) = (u64::from(adler & 0xffff), u64::from(adler >> 16));
    for block in data.chunks(BLOCK) {
        let mut chunks = block.chunks_exact(16);
        let (mut sa, mut sb) = ([0u32; 16], [0u32; 16]);
        for chunk in &mut chunks {
            for j in 0..16 {
                sa[j] += u32::from(chunk[j]);
                sb[j] += sa[j];
            }
        }
        let n = (block.len() / 16 * 16) as u64;
        let sum: u64 = sa.iter().map(|&s| u64::from(s)).sum();
        let runs: u64 = sb.iter().map(|&s| u64::from(s)).sum();
        let offsets: u64 = sa
            .iter()
            .enumerate()
            .map(|(j, &s)| j as u64 * u64::from(s))
            .sum();
        b += n * a + 16 * runs - offsets;
        a += sum;
        for &x in chunks.remainder() {
            a += u64::from(x);
            b += a;
        }
        a %= BASE;
        b %= BASE;
    }
    (b << 16 | a) as u32
}

/// CRC-32's polynomial, bit-reversed (x^0 is bit 31).
const POLY: u32 = 0xedb8_8320;

/// Slicing-by-8 tables: `TABLES[k][x]` is the CRC of byte `x` followed by
/// `k` zero bytes, so eight bytes are folded with eight lookups at once.
static TABLES: [[u32; 256]; 8] = tables();

const fn tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { POLY ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut i = 0;
        while i < 256 {
            let prev = t[k - 1][i];
            t[k][i] = (prev >> 8) ^ t[0][(prev & 0xff) as usize];
            i += 1;
        }
        k += 1;
    }
    t
}

/// The (inverted) CRC register `c` after the eight bytes of `word`.
#[inline(always)]
fn word(c: u32, word: &[u8]) -> u32 {
    let t = &TABLES;
    let v = u64::from_le_bytes(word.try_into().unwrap_or_default()) ^ u64::from(c);
    t[7][(v & 0xff) as usize]
        ^ t[6][(v >> 8 & 0xff) as usize]
        ^ t[5][(v >> 16 & 0xff) as usize]
        ^ t[4][(v >> 24 & 0xff) as usize]
        ^ t[3][(v >> 32 & 0xff) as usize]
        ^ t[2][(v >> 40 & 0xff) as usize]
        ^ t[1][(v >> 48 & 0xff) as usize]
        ^ t[0][(v >> 56) as usize]
}

/// Continues the CRC-32 `crc` (0 for none yet) over `data`, eight bytes at
/// a time.
fn crc32_words(crc: u32, data: &[u8]) -> u32 {
    let mut c = !crc;
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        c = word(c, w);
    }
    for &x in words.remainder() {
        c = TABLES[0][((c ^ u32::from(x)) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// Continues the CRC-32 `crc` (0 for none yet) over `data`.
///
/// Each table lookup waits on the one before, so a long input is taken as
/// three parts whose CRCs are computed side by side, then joined: the CRC
/// of `A ‖ B` is that of `A` times x^(8·|B|), plus that of `B` (zlib's
/// `crc32_combine`).
pub(super) fn crc32(crc: u32, data: &[u8]) -> u32 {
    let n = data.len() / 24 * 8;
    if n < 256 {
        return crc32_words(crc, data);
    }
    let (first, rest) = data.split_at(n);
    let (second, rest) = rest.split_at(n);
    let (third, tail) = rest.split_at(n);
    let (mut c0, mut c1, mut c2) = (!crc, !0, !0);
    let parts = first.chunks_exact(8).zip(second.chunks_exact(8));
    for ((w0, w1), w2) in parts.zip(third.chunks_exact(8)) {
        c0 = word(c0, w0);
        c1 = word(c1, w1);
        c2 = word(c2, w2);
    }
    let shift = x_to_8n(n);
    let joined = multiply(shift, multiply(shift, !c0) ^ !c1) ^ !c2;
    crc32_words(joined, tail)
}

/// `a·b` modulo the CRC polynomial, both bit-reversed.
fn multiply(a: u32, mut b: u32) -> u32 {
    let mut product = 0;
    let mut m = 1u32 << 31;
    while m != 0 {
        if a & m != 0 {
            product ^= b;
        }
        b = if b & 1 != 0 { (b >> 1) ^ POLY } else { b >> 1 };
        m >>= 1;
    }
    product
}

/// x^(8n) modulo the CRC polynomial, by squaring.
fn x_to_8n(mut n: usize) -> u32 {
    let mut power = 1u32 << 31;
    let mut square = 1u32 << 23;
    while n != 0 {
        if n & 1 != 0 {
            power = multiply(square, power);
        }
        square = multiply(square, square);
        n >>= 1;
    }
    power
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(adler32(1, b""), 1);
        assert_eq!(adler32(1, b"Wikipedia"), 0x11e6_0398);
        assert_eq!(crc32(0, b""), 0);
        assert_eq!(crc32(0, b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn agree_with_zlib_at_every_length_and_split() {
        let data: Vec<u8> = (0..40_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let ff = vec![0xffu8; 40_000];
        let lengths = (0..100).chain([767, 768, 769, 5551, 5552, 5553, 11_104, 30_001, 40_000]);
        for len in lengths {
            for d in [&data[..len], &ff[..len]] {
                for start in [0, 1, 0xfff0_fff0, 0x1234_5678] {
                    let want = zlib_rs::adler32::adler32(start, d);
                    assert_eq!(adler32(start, d), want, "adler32 {len} {start:#x}");
                    assert_eq!(
                        crc32(start, d),
                        zlib_rs::crc32::crc32(start, d),
                        "crc32 {len}"
                    );
                }
            }
        }
        let (a, c) = (adler32(1, &data), crc32(0, &data));
        for cut in [0, 1, 7, 8, 9, 5551, 5552, 5553, 39_999, 40_000] {
            assert_eq!(adler32(adler32(1, &data[..cut]), &data[cut..]), a, "{cut}");
            assert_eq!(crc32(crc32(0, &data[..cut]), &data[cut..]), c, "{cut}");
        }
    }
}
