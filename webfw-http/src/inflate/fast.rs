//! zlib's `inflate_fast`: a block's symbols decoded while a whole step's
//! input and output room are surely there.

use super::buffers::{Input, Output};
use super::huffman::{self, BASE, Codes, END, LINK, LITERAL, extra, kind, value};

/// Input bytes the fast loop needs for a step: one 8-byte refill, which
/// covers the 48 bits of the longest length/distance pair.
pub(super) const FAST_INPUT: usize = 8;
/// Output room the fast loop needs for a step: the longest match.
pub(super) const FAST_ROOM: usize = 258;
/// Scratch past a match that the fast loop's 16-byte copies may write.
const SLACK: usize = 32;

/// Decodes a block's symbols, refilling the bit buffer eight bytes at a
/// time and writing into zeroed scratch past the output: `Ok(true)` at the
/// end of the block, `Ok(false)` when input or room runs short, for the
/// step-by-step decoder to go on from. The errors are zlib's messages.
pub(super) fn fast(codes: &Codes, inp: &mut Input, out: &mut Output) -> Result<bool, &'static str> {
    let data = inp.data;
    let (lit, dist) = (&codes.lit[..], &codes.dist[..]);
    let (lit_root, dist_root) = (codes.lit_root, codes.dist_root);
    let lit_mask = (1u64 << lit_root) - 1;
    let dist_mask = (1u64 << dist_root) - 1;
    let (mut hold, mut bits, mut pos) = (inp.hold, inp.bits, inp.pos);
    let entered = pos;
    let start = out.start;
    let mut at = out.len;
    let result = 'run: loop {
        // The last output position a step may start at: a longest match
        // still fits below `max`, and its copy within the scratch.
        let Some(last) = out.max.checked_sub(FAST_ROOM) else {
            break Ok(false);
        };
        if at > last || data.len() - pos < FAST_INPUT {
            break Ok(false);
        }
        if out.buf.len() < at + FAST_ROOM + SLACK {
            // Zeroed ahead in proportion to the input at hand, so a body
            // sent in small pieces is not zeroed far past what it inflates to.
            let ahead = ((data.len() - pos) * 8).clamp(1024, 1 << 16);
            let end = (at + ahead)
                .min(out.max.saturating_add(SLACK))
                .max(at + FAST_ROOM + SLACK);
            out.buf.resize(end, 0);
        }
        let last = last.min(out.buf.len() - FAST_ROOM - SLACK);
        let buf = &mut out.buf[..];
        while at <= last {
            if data.len() - pos < FAST_INPUT {
                break 'run Ok(false);
            }
            // Bits above `bits` are either zero or the stream's next ones,
            // so or-ing the next eight bytes in at `bits` is exact.
            let word = u64::from_le_bytes(data[pos..pos + 8].try_into().unwrap_or_default());
            hold |= word << bits;
            pos += ((63 - bits) >> 3) as usize;
            bits |= 56;

            let mut e = lit[(hold & lit_mask) as usize];
            if kind(e) == LINK {
                hold >>= lit_root;
                bits -= lit_root;
                e = lit[(value(e) + (hold as u32 & ((1 << extra(e)) - 1))) as usize];
            }
            hold >>= huffman::bits(e);
            bits -= huffman::bits(e);
            match kind(e) {
                LITERAL => {
                    buf[at] = value(e) as u8;
                    at += 1;
                }
                BASE => {
                    let x = extra(e);
                    let length = (value(e) + (hold as u32 & ((1 << x) - 1))) as usize;
                    hold >>= x;
                    bits -= x;
                    let mut d = dist[(hold & dist_mask) as usize];
                    if kind(d) == LINK {
                        hold >>= dist_root;
                        bits -= dist_root;
                        d = dist[(value(d) + (hold as u32 & ((1 << extra(d)) - 1))) as usize];
                    }
                    hold >>= huffman::bits(d);
                    bits -= huffman::bits(d);
                    if kind(d) != BASE {
                        break 'run Err("invalid distance code");
                    }
                    let x = extra(d);
                    let distance = (value(d) + (hold as u32 & ((1 << x) - 1))) as usize;
                    hold >>= x;
                    bits -= x;
                    if distance > at - start {
                        break 'run Err("invalid distance too far back");
                    }
                    copy_match(buf, at, distance, length);
                    at += length;
                }
                END => break 'run Ok(true),
                _ => break 'run Err("invalid literal/length code"),
            }
        }
    };
    // Whole bytes read ahead go back to the input, so that the stream's
    // end is found at its last byte.
    let back = ((bits >> 3) as usize).min(pos - entered);
    pos -= back;
    bits -= 8 * back as u32;
    inp.hold = hold & ((1u64 << bits) - 1);
    inp.bits = bits;
    inp.pos = pos;
    out.len = at;
    result
}

/// Copies `len` bytes from `distance` back to `at`, in 16- or 8-byte
/// chunks where the distance lets each chunk read bytes already written
/// (writing up to 15 bytes of scratch past the end).
fn copy_match(buf: &mut [u8], at: usize, distance: usize, len: usize) {
    let from = at - distance;
    if distance >= 16 {
        let mut i = 0;
        while i < len {
            let chunk: [u8; 16] = buf[from + i..from + i + 16].try_into().unwrap_or_default();
            buf[at + i..at + i + 16].copy_from_slice(&chunk);
            i += 16;
        }
    } else if distance >= 8 {
        let mut i = 0;
        while i < len {
            let chunk: [u8; 8] = buf[from + i..from + i + 8].try_into().unwrap_or_default();
            buf[at + i..at + i + 8].copy_from_slice(&chunk);
            i += 8;
        }
    } else if distance == 1 {
        let b = buf[from];
        buf[at..at + len].fill(b);
    } else {
        for i in 0..len {
            buf[at + i] = buf[from + i];
        }
    }
}
