//! The two sides of a call: the input with the bit buffer carried between
//! calls, and the caller's output buffer.

use super::Status;
use super::huffman::{Entry, LINK, bits, extra, kind, value};

/// The input of one call and the bit buffer carried between calls.
pub(super) struct Input<'a> {
    pub(super) data: &'a [u8],
    pub(super) pos: usize,
    /// Bits above `bits` are zero here (the fast loop clears them when it
    /// hands back).
    pub(super) hold: u64,
    pub(super) bits: u32,
}

impl Input<'_> {
    /// At least `n` bits held, taking input a byte at a time (so that no
    /// byte past the stream's end is ever taken); false when it runs out.
    pub(super) fn need(&mut self, n: u32) -> bool {
        while self.bits < n {
            if !self.pull() {
                return false;
            }
        }
        true
    }

    /// One more input byte into the bit buffer.
    pub(super) fn pull(&mut self) -> bool {
        let Some(&b) = self.data.get(self.pos) else {
            return false;
        };
        self.hold |= u64::from(b) << self.bits;
        self.pos += 1;
        self.bits += 8;
        true
    }

    pub(super) fn peek(&self, n: u32) -> u32 {
        (self.hold & ((1u64 << n) - 1)) as u32
    }

    pub(super) fn drop(&mut self, n: u32) {
        self.hold >>= n;
        self.bits -= n;
    }

    /// To the next byte boundary.
    pub(super) fn align(&mut self) {
        self.drop(self.bits & 7);
    }

    /// The input not taken yet, for whole-byte reads (the bit buffer is
    /// empty where they happen).
    pub(super) fn rest(&self) -> &[u8] {
        &self.data[self.pos..]
    }

    /// One symbol's entry, once the bits of its code are all held (and only
    /// then, whatever the root: zlib decides at the same bit).
    pub(super) fn decode(&mut self, table: &[Entry], root: u32) -> Option<Entry> {
        loop {
            let e = table[self.peek(root) as usize];
            if kind(e) == LINK {
                if root <= self.bits {
                    let index = (self.hold >> root) as u32 & ((1 << extra(e)) - 1);
                    let sub = table[(value(e) + index) as usize];
                    if root + bits(sub) <= self.bits {
                        self.drop(root + bits(sub));
                        return Some(sub);
                    }
                }
            } else if bits(e) <= self.bits {
                self.drop(bits(e));
                return Some(e);
            }
            if !self.pull() {
                return None;
            }
        }
    }
}

/// The caller's buffer during a call: the stream's output is
/// `buf[start..len]`; `buf` may run past `len` with zeroed scratch the
/// fast loop writes ahead into, cut off when the call returns.
pub(super) struct Output<'a> {
    pub(super) buf: &'a mut Vec<u8>,
    pub(super) start: usize,
    pub(super) len: usize,
    pub(super) max: usize,
}

impl Output<'_> {
    pub(super) fn room(&self) -> usize {
        self.max.saturating_sub(self.len)
    }

    pub(super) fn produced(&self) -> usize {
        self.len - self.start
    }

    /// Why a copy that cannot go on stopped.
    pub(super) fn stopped(&self) -> Status {
        if self.room() == 0 {
            Status::OutputFull
        } else {
            Status::NeedInput
        }
    }

    pub(super) fn push(&mut self, b: u8) {
        if self.len < self.buf.len() {
            self.buf[self.len] = b;
        } else {
            self.buf.push(b);
        }
        self.len += 1;
    }

    pub(super) fn extend(&mut self, bytes: &[u8]) {
        let inside = (self.buf.len() - self.len).min(bytes.len());
        self.buf[self.len..self.len + inside].copy_from_slice(&bytes[..inside]);
        self.buf.extend_from_slice(&bytes[inside..]);
        self.len += bytes.len();
    }

    /// Appends `n` bytes copied from `distance` back, overlapping as
    /// LZ77 means it (a distance of 1 repeats one byte).
    pub(super) fn copy_back(&mut self, distance: usize, n: usize) {
        if self.buf.len() < self.len + n {
            self.buf.resize(self.len + n, 0);
        }
        let from = self.len - distance;
        if distance >= n {
            self.buf.copy_within(from..from + n, self.len);
        } else {
            for i in 0..n {
                self.buf[self.len + i] = self.buf[from + i];
            }
        }
        self.len += n;
    }
}
