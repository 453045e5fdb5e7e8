//! webfw-http's inflate (Node's zlib inflate, as body-parser uses it)
//! against zlib-rs (zlib 1.3 in Rust) on any input, cut into any pieces,
//! under any limit, read as webfw's body reader reads a gzip or deflate
//! body: the same body, 413 or message, every time.
//!
//! The first three bytes choose: the wrapper and whether a valid header is
//! put before the rest (so that the rest is all deflate data), the limit,
//! and where the input is cut.
#![no_main]
use libfuzzer_sys::fuzz_target;

// The two readers the differential tests compare.
#[path = "../../webfw-http/tests/readers/mod.rs"]
mod readers;

fuzz_target!(|data: &[u8]| {
    let [mode, limit, cuts, rest @ ..] = data else {
        return;
    };
    let gzip = mode & 1 != 0;
    let mut stream = Vec::new();
    if mode & 2 != 0 {
        stream.extend_from_slice(if gzip {
            &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3][..]
        } else {
            &[0x78, 0x9c][..]
        });
    }
    stream.extend_from_slice(rest);
    let limit = match limit {
        0xff => 1 << 24,
        n => usize::from(*n) * 37,
    };
    // Pieces from a small generator seeded by `cuts`: 0 keeps the input whole.
    let mut pieces = Vec::new();
    let mut left = &stream[..];
    let mut x = u32::from(*cuts);
    while !left.is_empty() {
        let n = if *cuts == 0 {
            left.len()
        } else {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            1 + (x >> 16) as usize % (1 << (x >> 29))
        };
        let (piece, next) = left.split_at(n.min(left.len()));
        pieces.push(piece);
        left = next;
    }
    assert_eq!(
        readers::our_reader(gzip, &pieces, limit),
        readers::zlib_rs_reader(gzip, &pieces, limit, 16 * 1024)
    );
});
