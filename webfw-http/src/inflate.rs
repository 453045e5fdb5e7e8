//! Node's zlib inflate as body-parser 1.20 uses it for a request body:
//! `zlib.createInflate()` for `Content-Encoding: deflate` (a zlib stream,
//! RFC 1950) and `zlib.createGunzip()` for `gzip` (one gzip member,
//! RFC 1952), both over deflate (RFC 1951).
//!
//! The body is fed as it arrives, cut anywhere, and each failure is the one
//! zlib 1.3 reports, with its message (the 400's message body-parser
//! sends), found after as much input as zlib needs to find it. The output
//! is appended to the caller's buffer, which is also where back-references
//! are read from, and stops at a bound the caller sets (body-parser's
//! limit).
//!
//! ```
//! use webfw_http::inflate::{Format, Inflate};
//! let body = [0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x06, 0x2c, 0x02, 0x15];
//! let mut inflate = Inflate::new(Format::Zlib);
//! let mut out = Vec::new();
//! for byte in body.chunks(1) {
//!     inflate.inflate(byte, &mut out, 1024).unwrap();
//! }
//! inflate.finish().unwrap();
//! assert_eq!(out, b"hello");
//!
//! let mut gunzip = Inflate::new(Format::Gzip);
//! let err = gunzip.inflate(&body, &mut Vec::new(), 1024).unwrap_err();
//! assert_eq!(err.message(), "incorrect header check");
//! ```

mod buffers;
mod checksum;
mod decode;
mod fast;
mod huffman;

use buffers::{Input, Output};
use checksum::{adler32, crc32};
use decode::Mode;
use huffman::{Codes, Entry};

/// The wrapper around the deflate data, as Node's two constructors expect
/// it.
///
/// ```
/// use webfw_http::inflate::{Format, Inflate};
/// let gunzip = Inflate::new(Format::Gzip);
/// assert_eq!(gunzip.format(), Format::Gzip);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A zlib stream (`createInflate()`, window bits 15): a gzip header is
    /// an `incorrect header check`.
    Zlib,
    /// One gzip member (`createGunzip()`, window bits 31): a zlib header is
    /// an `incorrect header check`.
    Gzip,
}

/// Why [`Inflate::inflate`] returned without an error.
///
/// ```
/// use webfw_http::inflate::{Format, Inflate, Status};
/// let mut inflate = Inflate::new(Format::Zlib);
/// let step = inflate.inflate(&[0x78], &mut Vec::new(), 1024).unwrap();
/// assert_eq!(step.status, Status::NeedInput);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// All the input was taken in and the stream goes on.
    NeedInput,
    /// The next byte would take the output past the `max` given.
    OutputFull,
    /// The stream is complete, its trailer checked; the input from
    /// `consumed` on is not part of it.
    StreamEnd,
}

/// What a call to [`Inflate::inflate`] did.
///
/// ```
/// use webfw_http::inflate::{Format, Inflate, Status};
/// // "hello" as a gzip member, then one byte after it.
/// let gz = [
///     0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9,
///     0x07, 0x00, 0x86, 0xa6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00, 0x0a,
/// ];
/// let mut out = Vec::new();
/// let step = Inflate::new(Format::Gzip).inflate(&gz, &mut out, 1024).unwrap();
/// assert_eq!((step.consumed, step.status), (25, Status::StreamEnd));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The input bytes used, including any held as part of a code or
    /// header not complete yet.
    pub consumed: usize,
    /// Why it stopped.
    pub status: Status,
}

/// A stream that cannot be inflated, with what Node says of it.
///
/// ```
/// use webfw_http::inflate::{Format, Inflate, InflateError};
/// // A zlib header with FDICT set, then the dictionary's Adler-32.
/// let mut inflate = Inflate::new(Format::Zlib);
/// let err = inflate.inflate(&[0x78, 0xbb, 0, 0, 0, 1], &mut Vec::new(), 1024).unwrap_err();
/// assert_eq!(err, InflateError::NeedDictionary(1));
/// assert_eq!(err.to_string(), "Missing dictionary");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InflateError {
    /// zlib's `Z_DATA_ERROR`, with zlib's message (`invalid block type`,
    /// `incorrect data check`, …).
    Data(&'static str),
    /// zlib's `Z_NEED_DICT`: the zlib header names a preset dictionary
    /// (its Adler-32 here), and none is ever given.
    NeedDictionary(u32),
    /// The input ended inside the stream.
    UnexpectedEnd,
}

impl InflateError {
    /// Node's message: zlib's for a data error, `Missing dictionary` for a
    /// stream that needs one, `unexpected end of file` for a truncated one.
    ///
    /// ```
    /// use webfw_http::inflate::InflateError;
    /// assert_eq!(InflateError::UnexpectedEnd.message(), "unexpected end of file");
    /// assert_eq!(InflateError::Data("invalid block type").message(), "invalid block type");
    /// ```
    pub fn message(&self) -> &'static str {
        match self {
            InflateError::Data(message) => message,
            InflateError::NeedDictionary(_) => "Missing dictionary",
            InflateError::UnexpectedEnd => "unexpected end of file",
        }
    }
}

impl std::fmt::Display for InflateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for InflateError {}

/// A streaming decoder of one zlib stream or one gzip member.
///
/// Its output goes to the end of a `Vec<u8>` the caller keeps from call to
/// call: back-references are read from the bytes this stream appended, so
/// no window is kept (a distance past them is zlib's `invalid distance too
/// far back`). Input is taken whole: only the bits of a code or header
/// field not complete yet are held between calls.
///
/// ```
/// use webfw_http::inflate::{Format, Inflate, Status};
/// let gz = [
///     0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9,
///     0x07, 0x00, 0x86, 0xa6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00,
/// ];
/// let mut gunzip = Inflate::new(Format::Gzip);
/// let mut out = b"body: ".to_vec();
/// let (head, tail) = gz.split_at(12);
/// assert_eq!(gunzip.inflate(head, &mut out, 1024).unwrap().status, Status::NeedInput);
/// assert_eq!(gunzip.inflate(tail, &mut out, 1024).unwrap().status, Status::StreamEnd);
/// assert_eq!(out, b"body: hello");
/// ```
pub struct Inflate {
    format: Format,
    mode: Mode,
    /// Input bits taken but not used yet, least significant first.
    hold: u64,
    bits: u32,
    /// The block being read is the last.
    last: bool,
    gzip_flags: u8,
    /// CRC-32 of the gzip header so far (FHCRC checks its low 16 bits).
    header_crc: u32,
    /// Adler-32 or CRC-32 of the first `checked` bytes of output.
    check: u32,
    checked: usize,
    /// Bytes this stream appended to the caller's buffer.
    produced: usize,
    /// A dynamic block's header: the counts HLIT, HDIST and HCLEN give,
    /// the lengths read so far and how many.
    nlen: usize,
    ndist: usize,
    ncode: usize,
    have: usize,
    lens: [u8; 320],
    code_lengths: Vec<Entry>,
    code_lengths_root: u32,
    dynamic: Codes,
    /// The block being read uses the fixed codes.
    fixed: bool,
    /// The failure, reported again by later calls.
    error: Option<InflateError>,
}

impl Inflate {
    /// A decoder at the start of a stream in `format`.
    ///
    /// ```
    /// use webfw_http::inflate::{Format, Inflate};
    /// let inflate = Inflate::new(Format::Zlib);
    /// assert!(inflate.finish().is_err());
    /// ```
    pub fn new(format: Format) -> Inflate {
        Inflate {
            format,
            mode: Mode::Header,
            hold: 0,
            bits: 0,
            last: false,
            gzip_flags: 0,
            header_crc: 0,
            check: initial_check(format),
            checked: 0,
            produced: 0,
            nlen: 0,
            ndist: 0,
            ncode: 0,
            have: 0,
            lens: [0; 320],
            code_lengths: Vec::new(),
            code_lengths_root: 0,
            dynamic: Codes {
                lit: Vec::new(),
                lit_root: 0,
                dist: Vec::new(),
                dist_root: 0,
            },
            fixed: false,
            error: None,
        }
    }

    /// The wrapper this decoder reads.
    ///
    /// ```
    /// use webfw_http::inflate::{Format, Inflate};
    /// assert_eq!(Inflate::new(Format::Zlib).format(), Format::Zlib);
    /// ```
    pub fn format(&self) -> Format {
        self.format
    }

    /// Starts over for a new stream in the same format (the next member of
    /// a multi-member gzip body), keeping the tables' memory.
    ///
    /// ```
    /// use webfw_http::inflate::{Format, Inflate, Status};
    /// let gz = [
    ///     0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9,
    ///     0xc9, 0x07, 0x00, 0x86, 0xa6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00,
    /// ];
    /// let two = [&gz[..], &gz[..]].concat();
    /// let mut gunzip = Inflate::new(Format::Gzip);
    /// let mut out = Vec::new();
    /// let first = gunzip.inflate(&two, &mut out, 1024).unwrap();
    /// gunzip.reset();
    /// let second = gunzip.inflate(&two[first.consumed..], &mut out, 1024).unwrap();
    /// assert_eq!(second.status, Status::StreamEnd);
    /// assert_eq!(out, b"hellohello");
    /// ```
    pub fn reset(&mut self) {
        self.mode = Mode::Header;
        self.hold = 0;
        self.bits = 0;
        self.last = false;
        self.check = initial_check(self.format);
        self.checked = 0;
        self.produced = 0;
        self.fixed = false;
        self.error = None;
    }

    /// Inflates `input`, the next bytes of the stream, appending to `out`
    /// until `out.len()` reaches `max`. It stops with
    /// [`Status::OutputFull`] where the next byte would pass `max`, having
    /// read on as far as zlib does with its output full (the next code,
    /// block headers, the trailer), so that a corrupt stream fails where
    /// zlib's does.
    ///
    /// `out` must end with the bytes this stream appended (the caller may
    /// have anything before them, such as earlier gzip members). After an
    /// error, every call returns it again.
    ///
    /// # Panics
    ///
    /// If `out` is shorter than what this stream appended to it.
    ///
    /// ```
    /// use webfw_http::inflate::{Format, Inflate, Status};
    /// let z = [0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x06, 0x2c, 0x02, 0x15];
    /// let mut out = Vec::new();
    /// let step = Inflate::new(Format::Zlib).inflate(&z, &mut out, 3).unwrap();
    /// assert_eq!(step.status, Status::OutputFull);
    /// assert_eq!(out, b"hel");
    /// ```
    pub fn inflate(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        max: usize,
    ) -> Result<Progress, InflateError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let Some(start) = out.len().checked_sub(self.produced) else {
            panic!("inflate: `out` lost bytes the stream wrote to it");
        };
        let mut inp = Input {
            data: input,
            pos: 0,
            hold: self.hold,
            bits: self.bits,
        };
        let len = out.len();
        let mut o = Output {
            buf: &mut *out,
            start,
            len,
            max,
        };
        let result = self.run(&mut inp, &mut o);
        let end = o.len;
        out.truncate(end);
        self.produced = end - start;
        // While the output is still in cache.
        self.fold(&out[start..]);
        self.hold = inp.hold;
        self.bits = inp.bits;
        match result {
            Ok(status) => Ok(Progress {
                consumed: inp.pos,
                status,
            }),
            Err(e) => {
                self.error = Some(e);
                Err(e)
            }
        }
    }

    /// The input has ended: `Ok` if the stream was complete, else the error
    /// already reported or [`InflateError::UnexpectedEnd`].
    ///
    /// ```
    /// use webfw_http::inflate::{Format, Inflate, InflateError};
    /// let z = [0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x06, 0x2c, 0x02, 0x15];
    /// let mut inflate = Inflate::new(Format::Zlib);
    /// inflate.inflate(&z[..8], &mut Vec::new(), 1024).unwrap();
    /// assert_eq!(inflate.finish(), Err(InflateError::UnexpectedEnd));
    /// ```
    pub fn finish(&self) -> Result<(), InflateError> {
        match self.error {
            Some(e) => Err(e),
            None if self.mode == Mode::Done => Ok(()),
            None => Err(InflateError::UnexpectedEnd),
        }
    }

    /// Adds the output past `checked` (of `member`, this stream's output)
    /// to the trailer's checksum.
    fn fold(&mut self, member: &[u8]) {
        let new = &member[self.checked..];
        if new.is_empty() {
            return;
        }
        self.check = match self.format {
            Format::Zlib => adler32(self.check, new),
            Format::Gzip => crc32(self.check, new),
        };
        self.checked = member.len();
    }
}

fn initial_check(format: Format) -> u32 {
    match format {
        Format::Zlib => 1,
        Format::Gzip => 0,
    }
}
