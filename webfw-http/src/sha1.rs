//! SHA-1 (FIPS 180-4), for etag's entity tags and Keygrip's HMAC-SHA1.
//!
//! Written here rather than taken from RustCrypto's `sha1`: that crate
//! brings seven crates (typenum's build among them) into every user's build
//! for one function. x86-64 CPUs with the SHA extensions compress with
//! them (`x86.rs`), as `sha1` does; every hashed ETag takes that path.

#[cfg(target_arch = "x86_64")]
mod x86;

/// The digest of `data`.
pub(crate) fn digest(data: &[u8]) -> [u8; 20] {
    let mut state = INITIAL;
    let whole = data.len() / 64 * 64;
    compress(&mut state, &data[..whole]);
    // The tail, the 0x80 marker and the bit length fill one block or two.
    let tail = &data[whole..];
    let mut last = [0u8; 128];
    last[..tail.len()].copy_from_slice(tail);
    last[tail.len()] = 0x80;
    let end = if tail.len() < 56 { 64 } else { 128 };
    let bits = (data.len() as u64).wrapping_mul(8);
    last[end - 8..end].copy_from_slice(&bits.to_be_bytes());
    compress(&mut state, &last[..end]);
    let mut out = [0u8; 20];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

const INITIAL: [u32; 5] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
];

/// Runs the compression function over `blocks`, a whole number of 64-byte
/// blocks.
fn compress(state: &mut [u32; 5], blocks: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    if x86::compress(state, blocks) {
        return;
    }
    for block in blocks.chunks_exact(64) {
        compress_portable(state, block);
    }
}

/// One block, in plain Rust.
fn compress_portable(state: &mut [u32; 5], block: &[u8]) {
    let mut w = [0u32; 80];
    for (i, word) in block.chunks_exact(4).enumerate() {
        w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
    }
    for i in 16..80 {
        w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
    }
    let [mut a, mut b, mut c, mut d, mut e] = *state;
    for (i, &wi) in w.iter().enumerate() {
        let (f, k) = match i / 20 {
            0 => ((b & c) | (!b & d), 0x5a82_7999),
            1 => (b ^ c ^ d, 0x6ed9_eba1),
            2 => ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc),
            _ => (b ^ c ^ d, 0xca62_c1d6),
        };
        let t = a
            .rotate_left(5)
            .wrapping_add(f)
            .wrapping_add(e)
            .wrapping_add(k)
            .wrapping_add(wi);
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = t;
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e]) {
        *s = s.wrapping_add(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(d: [u8; 20]) -> String {
        d.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn the_standards_vectors() {
        assert_eq!(hex(digest(b"")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(
            hex(digest(b"abc")),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
        assert_eq!(
            hex(digest(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        );
        assert_eq!(
            hex(digest(&vec![b'a'; 1_000_000])),
            "34aa973cd4c4daa4f61eeb2bdbad27316534016f"
        );
    }

    /// Every length around the block and padding boundaries, against
    /// RustCrypto's `sha1`; on a CPU with the SHA extensions this checks
    /// that path, and the portable one is checked block by block.
    #[test]
    fn equals_rustcryptos_sha1_at_every_length() {
        use sha1_reference::{Digest as _, Sha1};
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let data: Vec<u8> = (0..1200)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        for len in 0..data.len() {
            let want: [u8; 20] = Sha1::digest(&data[..len]).into();
            assert_eq!(digest(&data[..len]), want, "length {len}");
        }
        for block in data.chunks_exact(64) {
            let (mut fast, mut plain) = (INITIAL, INITIAL);
            compress(&mut fast, block);
            compress_portable(&mut plain, block);
            assert_eq!(fast, plain);
        }
    }
}
