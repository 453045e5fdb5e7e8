//! The body reader of webfw/src/body/read.rs on two decoders, zlib-rs and
//! webfw-http's own: the differential tests (`tests/inflate.rs`) and the
//! `inflate` fuzz target (by `#[path]`) compare them.

use webfw_http::inflate::{Format, Inflate, Status};
use zlib_rs::{InflateError, InflateFlush};

/// What the body reader answers.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Body(Vec<u8>),
    TooLarge,
    Failed(String),
}

/// The reader of webfw/src/body/read.rs as it was on zlib-rs: `step`
/// bytes of output per call (16 KiB there; any value must give the same).
///
/// zlib-rs 0.6 differs from zlib in one way: an error its fast path finds
/// (with 260 bytes of room or more) loses its message to `repeated call
/// with bad state`. zlib keeps it, and so the same stream read with less
/// room per call (never on the fast path) gives zlib's answer.
pub fn zlib_rs_reader(gzip: bool, pieces: &[&[u8]], limit: usize, step: usize) -> Outcome {
    let outcome = zlib_rs_steps(gzip, pieces, limit, step);
    if outcome == Outcome::Failed("repeated call with bad state".into()) {
        let slow = zlib_rs_steps(gzip, pieces, limit, 259);
        assert!(matches!(&slow, Outcome::Failed(m) if m != "repeated call with bad state"));
        return slow;
    }
    outcome
}

fn zlib_rs_steps(gzip: bool, pieces: &[&[u8]], limit: usize, step: usize) -> Outcome {
    let new = || zlib_rs::Inflate::new(true, if gzip { 31 } else { 15 });
    let mut d = new();
    let mut ended = false;
    let mut out = Vec::new();
    let mut buf = vec![0u8; step];
    for input in pieces.iter().copied().chain([&[][..]]) {
        let mut input = input;
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
            let status = d.decompress(input, &mut buf[..room], InflateFlush::NoFlush);
            let made = (d.total_out() - out0) as usize;
            out.extend_from_slice(&buf[..made]);
            let status = match status {
                Ok(s) => s,
                Err(InflateError::NeedDict { .. }) => {
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

/// The same reader on `webfw_http::inflate` (read.rs's `Inflater`).
pub fn our_reader(gzip: bool, pieces: &[&[u8]], limit: usize) -> Outcome {
    let format = if gzip { Format::Gzip } else { Format::Zlib };
    let mut d = Inflate::new(format);
    let mut ended = false;
    let mut out = Vec::new();
    for input in pieces {
        let mut input = *input;
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
    if ended {
        return Outcome::Body(out);
    }
    match d.finish() {
        Ok(()) => Outcome::Body(out),
        Err(e) => Outcome::Failed(e.message().into()),
    }
}
