//! The decoder's steps, zlib's `inflate()` state machine: the wrappers'
//! headers and trailers, the block headers, and the symbols a byte at a
//! time when the fast loop cannot run. Each step either completes or
//! returns wanting input or room, with what it read kept, so that any cut
//! of the input gives the same result.

use super::buffers::{Input, Output};
use super::checksum::crc32;
use super::fast::{FAST_INPUT, FAST_ROOM, fast};
use super::huffman::{self, Alphabet, BASE, END, LITERAL, bits, extra, kind, value};
use super::{Format, Inflate, InflateError, Status};

/// Where the decoder is: zlib's modes, with what a pending step carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    Header,
    GzipMethod,
    GzipTime,
    GzipOs,
    GzipExtraLen,
    GzipExtra(u16),
    GzipName,
    GzipComment,
    GzipHeaderCrc,
    DictId,
    Block,
    StoredLengths,
    Stored(u16),
    Table,
    CodeLengthLengths,
    CodeLengths,
    Symbol,
    Literal(u8),
    LengthExtra { base: u16, extra: u8 },
    Distance { length: u16 },
    DistanceExtra { length: u16, base: u16, extra: u8 },
    Copy { length: u16, distance: u16 },
    Check,
    Length,
    Done,
}

/// The gzip header flags zlib reads (FTEXT is ignored; bits 5-7 refused).
const FHCRC: u8 = 0x02;
const FEXTRA: u8 = 0x04;
const FNAME: u8 = 0x08;
const FCOMMENT: u8 = 0x10;

/// The order the code-length code's lengths come in (RFC 1951 3.2.7).
const ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Root bits of the dynamic tables: most codes resolve in one lookup.
const LIT_ROOT: u32 = 10;
const DIST_ROOT: u32 = 8;
const CODE_LENGTHS_ROOT: u32 = 7;

impl Inflate {
    /// Takes steps until one needs more input or room, the stream ends, or
    /// it fails.
    pub(super) fn run(
        &mut self,
        inp: &mut Input,
        out: &mut Output,
    ) -> Result<Status, InflateError> {
        loop {
            match self.mode {
                Mode::Header => {
                    if !inp.need(16) {
                        return Ok(Status::NeedInput);
                    }
                    let head = inp.peek(16);
                    inp.drop(16);
                    match self.format {
                        Format::Gzip => {
                            if head != 0x8b1f {
                                return bad("incorrect header check");
                            }
                            self.header_crc = crc32(0, &[0x1f, 0x8b]);
                            self.mode = Mode::GzipMethod;
                        }
                        Format::Zlib => {
                            let (cmf, flg) = (head & 0xff, head >> 8);
                            if (cmf << 8 | flg) % 31 != 0 {
                                return bad("incorrect header check");
                            }
                            if cmf & 15 != 8 {
                                return bad("unknown compression method");
                            }
                            if (cmf >> 4) + 8 > 15 {
                                return bad("invalid window size");
                            }
                            self.mode = if flg & 0x20 != 0 {
                                Mode::DictId
                            } else {
                                Mode::Block
                            };
                        }
                    }
                }
                Mode::GzipMethod => {
                    let Some(v) = self.header_field(inp, 2) else {
                        return Ok(Status::NeedInput);
                    };
                    if v & 0xff != 8 {
                        return bad("unknown compression method");
                    }
                    if v & 0xe000 != 0 {
                        return bad("unknown header flags set");
                    }
                    self.gzip_flags = (v >> 8) as u8;
                    self.mode = Mode::GzipTime;
                }
                Mode::GzipTime => {
                    if self.header_field(inp, 4).is_none() {
                        return Ok(Status::NeedInput);
                    }
                    self.mode = Mode::GzipOs;
                }
                Mode::GzipOs => {
                    if self.header_field(inp, 2).is_none() {
                        return Ok(Status::NeedInput);
                    }
                    self.mode = Mode::GzipExtraLen;
                }
                Mode::GzipExtraLen => {
                    self.mode = if self.gzip_flags & FEXTRA == 0 {
                        Mode::GzipName
                    } else {
                        let Some(len) = self.header_field(inp, 2) else {
                            return Ok(Status::NeedInput);
                        };
                        Mode::GzipExtra(len as u16)
                    };
                }
                Mode::GzipExtra(left) => {
                    let rest = inp.rest();
                    let n = rest.len().min(usize::from(left));
                    self.header_crc = crc32(self.header_crc, &rest[..n]);
                    inp.pos += n;
                    if n < usize::from(left) {
                        self.mode = Mode::GzipExtra(left - n as u16);
                        return Ok(Status::NeedInput);
                    }
                    self.mode = Mode::GzipName;
                }
                Mode::GzipName => {
                    if self.gzip_flags & FNAME != 0 && !self.skip_string(inp) {
                        return Ok(Status::NeedInput);
                    }
                    self.mode = Mode::GzipComment;
                }
                Mode::GzipComment => {
                    if self.gzip_flags & FCOMMENT != 0 && !self.skip_string(inp) {
                        return Ok(Status::NeedInput);
                    }
                    self.mode = Mode::GzipHeaderCrc;
                }
                Mode::GzipHeaderCrc => {
                    if self.gzip_flags & FHCRC != 0 {
                        if !inp.need(16) {
                            return Ok(Status::NeedInput);
                        }
                        if inp.peek(16) != self.header_crc & 0xffff {
                            return bad("header crc mismatch");
                        }
                        inp.drop(16);
                    }
                    self.mode = Mode::Block;
                }
                Mode::DictId => {
                    if !inp.need(32) {
                        return Ok(Status::NeedInput);
                    }
                    let id = inp.peek(32).swap_bytes();
                    inp.drop(32);
                    return Err(InflateError::NeedDictionary(id));
                }
                Mode::Block => {
                    if self.last {
                        inp.align();
                        self.mode = Mode::Check;
                        continue;
                    }
                    if !inp.need(3) {
                        return Ok(Status::NeedInput);
                    }
                    let header = inp.peek(3);
                    inp.drop(3);
                    self.last = header & 1 != 0;
                    self.mode = match header >> 1 {
                        0 => Mode::StoredLengths,
                        1 => {
                            self.fixed = true;
                            Mode::Symbol
                        }
                        2 => Mode::Table,
                        _ => return bad("invalid block type"),
                    };
                }
                Mode::StoredLengths => {
                    inp.align();
                    if !inp.need(32) {
                        return Ok(Status::NeedInput);
                    }
                    let lengths = inp.peek(32);
                    if lengths & 0xffff != !(lengths >> 16) & 0xffff {
                        return bad("invalid stored block lengths");
                    }
                    inp.drop(32);
                    self.mode = Mode::Stored(lengths as u16);
                }
                Mode::Stored(left) => {
                    if left == 0 {
                        self.mode = Mode::Block;
                        continue;
                    }
                    let rest = inp.rest();
                    let n = usize::from(left).min(rest.len()).min(out.room());
                    if n == 0 {
                        return Ok(out.stopped());
                    }
                    out.extend(&rest[..n]);
                    inp.pos += n;
                    self.mode = Mode::Stored(left - n as u16);
                }
                Mode::Table => {
                    if !inp.need(14) {
                        return Ok(Status::NeedInput);
                    }
                    let counts = inp.peek(14) as usize;
                    inp.drop(14);
                    self.nlen = 257 + (counts & 31);
                    self.ndist = 1 + (counts >> 5 & 31);
                    self.ncode = 4 + (counts >> 10);
                    if self.nlen > 286 || self.ndist > 30 {
                        return bad("too many length or distance symbols");
                    }
                    self.have = 0;
                    self.mode = Mode::CodeLengthLengths;
                }
                Mode::CodeLengthLengths => {
                    while self.have < self.ncode {
                        if !inp.need(3) {
                            return Ok(Status::NeedInput);
                        }
                        self.lens[ORDER[self.have]] = inp.peek(3) as u8;
                        inp.drop(3);
                        self.have += 1;
                    }
                    for &i in &ORDER[self.ncode..] {
                        self.lens[i] = 0;
                    }
                    match huffman::build(
                        Alphabet::CodeLengths,
                        &self.lens[..19],
                        CODE_LENGTHS_ROOT,
                        &mut self.code_lengths,
                    ) {
                        Ok(root) => self.code_lengths_root = root,
                        Err(()) => return bad("invalid code lengths set"),
                    }
                    self.have = 0;
                    self.mode = Mode::CodeLengths;
                }
                Mode::CodeLengths => {
                    if let Some(status) = self.code_lengths(inp)? {
                        return Ok(status);
                    }
                    self.fixed = false;
                    self.mode = Mode::Symbol;
                }
                Mode::Symbol => {
                    let codes = if self.fixed {
                        huffman::fixed()
                    } else {
                        &self.dynamic
                    };
                    if inp.rest().len() >= FAST_INPUT && out.room() >= FAST_ROOM {
                        match fast(codes, inp, out) {
                            Ok(true) => {
                                self.mode = Mode::Block;
                                continue;
                            }
                            Ok(false) => {}
                            Err(message) => return bad(message),
                        }
                    }
                    let Some(e) = inp.decode(&codes.lit, codes.lit_root) else {
                        return Ok(Status::NeedInput);
                    };
                    self.mode = match kind(e) {
                        LITERAL => Mode::Literal(value(e) as u8),
                        BASE => Mode::LengthExtra {
                            base: value(e) as u16,
                            extra: extra(e) as u8,
                        },
                        END => Mode::Block,
                        _ => return bad("invalid literal/length code"),
                    };
                }
                Mode::Literal(byte) => {
                    if out.room() == 0 {
                        return Ok(Status::OutputFull);
                    }
                    out.push(byte);
                    self.mode = Mode::Symbol;
                }
                Mode::LengthExtra { base, extra } => {
                    let extra = u32::from(extra);
                    if !inp.need(extra) {
                        return Ok(Status::NeedInput);
                    }
                    let length = base + inp.peek(extra) as u16;
                    inp.drop(extra);
                    self.mode = Mode::Distance { length };
                }
                Mode::Distance { length } => {
                    let codes = if self.fixed {
                        huffman::fixed()
                    } else {
                        &self.dynamic
                    };
                    let Some(e) = inp.decode(&codes.dist, codes.dist_root) else {
                        return Ok(Status::NeedInput);
                    };
                    if kind(e) != BASE {
                        return bad("invalid distance code");
                    }
                    self.mode = Mode::DistanceExtra {
                        length,
                        base: value(e) as u16,
                        extra: extra(e) as u8,
                    };
                }
                Mode::DistanceExtra {
                    length,
                    base,
                    extra,
                } => {
                    let extra = u32::from(extra);
                    if !inp.need(extra) {
                        return Ok(Status::NeedInput);
                    }
                    let distance = base + inp.peek(extra) as u16;
                    inp.drop(extra);
                    self.mode = Mode::Copy { length, distance };
                }
                Mode::Copy { length, distance } => {
                    // zlib checks the distance where it copies, so not
                    // while the output is full.
                    let room = out.room();
                    if room == 0 {
                        return Ok(Status::OutputFull);
                    }
                    if usize::from(distance) > out.produced() {
                        return bad("invalid distance too far back");
                    }
                    let n = usize::from(length).min(room);
                    out.copy_back(usize::from(distance), n);
                    let length = length - n as u16;
                    self.mode = if length == 0 {
                        Mode::Symbol
                    } else {
                        Mode::Copy { length, distance }
                    };
                }
                Mode::Check => {
                    if !inp.need(32) {
                        return Ok(Status::NeedInput);
                    }
                    self.fold(&out.buf[out.start..out.len]);
                    let given = match self.format {
                        Format::Zlib => inp.peek(32).swap_bytes(),
                        Format::Gzip => inp.peek(32),
                    };
                    if given != self.check {
                        return bad("incorrect data check");
                    }
                    inp.drop(32);
                    self.mode = match self.format {
                        Format::Zlib => Mode::Done,
                        Format::Gzip => Mode::Length,
                    };
                }
                Mode::Length => {
                    if !inp.need(32) {
                        return Ok(Status::NeedInput);
                    }
                    // ISIZE is the length modulo 2^32.
                    if inp.peek(32) != out.produced() as u32 {
                        return bad("incorrect length check");
                    }
                    inp.drop(32);
                    self.mode = Mode::Done;
                }
                Mode::Done => return Ok(Status::StreamEnd),
            }
        }
    }

    /// Reads a whole-byte gzip header field of `n` bytes (little-endian)
    /// into the header's CRC; `None` while it is not all in.
    fn header_field(&mut self, inp: &mut Input, n: u32) -> Option<u32> {
        if !inp.need(8 * n) {
            return None;
        }
        let v = inp.peek(8 * n);
        self.header_crc = crc32(self.header_crc, &v.to_le_bytes()[..n as usize]);
        inp.drop(8 * n);
        Some(v)
    }

    /// Skips a zero-terminated gzip header field (the name or comment);
    /// false while its end is not in yet.
    fn skip_string(&mut self, inp: &mut Input) -> bool {
        let rest = inp.rest();
        let (n, done) = match memchr::memchr(0, rest) {
            Some(i) => (i + 1, true),
            None => (rest.len(), false),
        };
        self.header_crc = crc32(self.header_crc, &rest[..n]);
        inp.pos += n;
        done
    }

    /// Reads the literal/length and distance code lengths with the
    /// code-length code, then builds the block's tables: `Some` when the
    /// input runs out first.
    fn code_lengths(&mut self, inp: &mut Input) -> Result<Option<Status>, InflateError> {
        let total = self.nlen + self.ndist;
        let root = self.code_lengths_root;
        while self.have < total {
            let e = self.code_lengths[inp.peek(root) as usize];
            let n = bits(e);
            if n > inp.bits {
                if !inp.pull() {
                    return Ok(Some(Status::NeedInput));
                }
                continue;
            }
            // An empty code-length code's entries (one bit, no symbol) hold
            // 0: zlib reads them as a length of 0 too, so such a block
            // fails only further on.
            let symbol = value(e);
            let (fill, count) = match symbol {
                0..=15 => {
                    inp.drop(n);
                    self.lens[self.have] = symbol as u8;
                    self.have += 1;
                    continue;
                }
                16 => {
                    if !inp.need(n + 2) {
                        return Ok(Some(Status::NeedInput));
                    }
                    inp.drop(n);
                    if self.have == 0 {
                        return bad("invalid bit length repeat");
                    }
                    let count = 3 + inp.peek(2);
                    inp.drop(2);
                    (self.lens[self.have - 1], count)
                }
                17 => {
                    if !inp.need(n + 3) {
                        return Ok(Some(Status::NeedInput));
                    }
                    inp.drop(n);
                    let count = 3 + inp.peek(3);
                    inp.drop(3);
                    (0, count)
                }
                _ => {
                    if !inp.need(n + 7) {
                        return Ok(Some(Status::NeedInput));
                    }
                    inp.drop(n);
                    let count = 11 + inp.peek(7);
                    inp.drop(7);
                    (0, count)
                }
            };
            let end = self.have + count as usize;
            if end > total {
                return bad("invalid bit length repeat");
            }
            self.lens[self.have..end].fill(fill);
            self.have = end;
        }
        if self.lens[256] == 0 {
            return bad("invalid code -- missing end-of-block");
        }
        let (lit, dist) = self.lens[..total].split_at(self.nlen);
        match huffman::build(Alphabet::LitLen, lit, LIT_ROOT, &mut self.dynamic.lit) {
            Ok(root) => self.dynamic.lit_root = root,
            Err(()) => return bad("invalid literal/lengths set"),
        }
        match huffman::build(Alphabet::Dist, dist, DIST_ROOT, &mut self.dynamic.dist) {
            Ok(root) => self.dynamic.dist_root = root,
            Err(()) => return bad("invalid distances set"),
        }
        Ok(None)
    }
}

/// A data error with zlib's message.
fn bad<T>(message: &'static str) -> Result<T, InflateError> {
    Err(InflateError::Data(message))
}
