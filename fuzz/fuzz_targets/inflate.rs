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
use webfw_http::inflate::{Format, Inflate, Status};

#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Body(Vec<u8>),
    TooLarge,
    Failed(String),
}

/// read.rs's reader on zlib-rs (as it was before webfw inflated with its
/// own), `step` bytes of output per call.
fn zlib_rs(gzip: bool, pieces: &[&[u8]], limit: usize, step: usize) -> Outcome {
    let new = || zlib_rs::Inflate::new(true, if gzip { 31 } else { 15 });
    let mut d = new();
    let mut ended = false;
    let mut out = Vec::new();
    let mut buf = vec![0u8; step];
    for mut input in pieces.iter().copied().chain([&[][..]]) {
        loop {
            if ended {
                if gzip && input.first() == Some(&0x1f) {
                    d = new();
                    ended = false;
                } else {
                    break;
                }
            }
            let room = (limit + 1).saturating_sub(out.len()).clamp(1, step);
            let (in0, out0) = (d.total_in(), d.total_out());
            let status = d.decompress(input, &mut buf[..room], zlib_rs::InflateFlush::NoFlush);
            let made = (d.total_out() - out0) as usize;
            out.extend_from_slice(&buf[..made]);
            let status = match status {
                Ok(s) => s,
                Err(zlib_rs::InflateError::NeedDict { .. }) => {
                    return Outcome::Failed("Missing dictionary".into());
                }
                Err(_) => return Outcome::Failed(d.error_message().unwrap_or("?").into()),
            };
            input = &input[(d.total_in() - in0) as usize..];
            if out.len() > limit {
                return Outcome::TooLarge;
            }
            if status == zlib_rs::Status::StreamEnd {
                ended = true;
                continue;
            }
            if input.is_empty() && made < room || made == 0 && d.total_in() == in0 {
                break;
            }
        }
    }
    if ended {
        Outcome::Body(out)
    } else {
        Outcome::Failed("unexpected end of file".into())
    }
}

/// read.rs's reader on webfw-http's inflate.
fn ours(gzip: bool, pieces: &[&[u8]], limit: usize) -> Outcome {
    let mut d = Inflate::new(if gzip { Format::Gzip } else { Format::Zlib });
    let mut ended = false;
    let mut out = Vec::new();
    for &piece in pieces {
        let mut input = piece;
        loop {
            if ended {
                if gzip && input.first() == Some(&0x1f) {
                    d.reset();
                    ended = false;
                } else {
                    break;
                }
            }
            let step = match d.inflate(input, &mut out, limit.saturating_add(1)) {
                Ok(step) => step,
                Err(e) => return Outcome::Failed(e.message().into()),
            };
            input = &input[step.consumed..];
            if out.len() > limit {
                return Outcome::TooLarge;
            }
            if step.status != Status::StreamEnd {
                break;
            }
            ended = true;
        }
    }
    match d.finish() {
        Ok(()) => Outcome::Body(out),
        Err(e) => Outcome::Failed(e.message().into()),
    }
}

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
    let want = match zlib_rs(gzip, &pieces, limit, 16 * 1024) {
        // zlib-rs 0.6 loses the message of an error its fast path finds;
        // zlib keeps it, and zlib-rs with less room per call (never on the
        // fast path) gives it.
        Outcome::Failed(m) if m == "repeated call with bad state" => {
            zlib_rs(gzip, &pieces, limit, 259)
        }
        other => other,
    };
    assert_eq!(ours(gzip, &pieces, limit), want);
});
