//! The pure half of an HTTP/1 server codec: a request head and a chunked
//! body, taken from bytes with no I/O, accepted and refused exactly as
//! Node 20's parser (llhttp 9.3 in strict mode, as `http.createServer`
//! sets it up) decides, with the status Node's server then answers.
//!
//! [`parse_head`] reads one request head from the start of a buffer and
//! hands back offsets, not borrows, so the caller keeps its buffer;
//! [`ChunkedDecoder`] decodes a chunked body fed in any pieces.
//!
//! ```
//! use webfw_http::h1::{ChunkedDecoder, Framing, parse_head};
//!
//! let buf = b"POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\
//!             3;ext=1\r\nabc\r\n0\r\n\r\n";
//! let mut headers = Vec::new();
//! let head = parse_head(buf, &mut headers).unwrap().expect("a whole head");
//! assert_eq!(head.method(buf), b"POST");
//! assert_eq!(head.target(buf), b"/up");
//! assert_eq!(headers[0].name(buf), b"Host");
//! assert_eq!(head.framing, Framing::Chunked);
//!
//! let mut body = &buf[head.len..];
//! let mut decoder = ChunkedDecoder::for_head(&head);
//! let mut data = Vec::new();
//! loop {
//!     let d = decoder.decode(body).unwrap();
//!     data.extend_from_slice(&body[d.data.clone()]);
//!     body = &body[d.consumed..];
//!     if d.done {
//!         break;
//!     }
//! }
//! assert_eq!(data, b"abc");
//!
//! // What llhttp refuses, with Node's answer.
//! let err = parse_head(b"GET / HTTP/1.1\r\nA : b\r\n\r\n", &mut headers).unwrap_err();
//! assert_eq!((err.status, err.code), (400, "HPE_INVALID_HEADER_TOKEN"));
//! ```
//!
//! What the caller must still do as Node does: after a message whose
//! `keep_alive` is false, any byte but CR or LF is llhttp's
//! `HPE_CLOSED_CONNECTION` (Node answers 400 unless a response is under
//! way, and closes); CR and LF between messages are skipped (so
//! [`parse_head`] skips them and counts them in `len`); on a refusal Node
//! writes the status with `Connection: close` and closes the connection.

mod chars;
mod chunked;
mod fields;
mod head;
#[cfg(test)]
mod tests;

pub use chunked::{ChunkedDecoder, Decoded};
pub use head::parse_head;

/// Node's `--max-http-header-size` default: a head's (and a trailer
/// section's) url, name and value bytes must stay below it (431).
pub const MAX_HEADER_SIZE: usize = 16384;

/// The most raw bytes a head may take, whitespace and line ends included;
/// beyond it [`parse_head`] refuses with 431 though llhttp, which does not
/// count whitespace, would read on. 16383 one-letter headers with empty
/// values (`a:\r\n`) still fit, so this only refuses padded heads.
pub const MAX_HEAD_BYTES: usize = 80 * 1024;

/// One header line: `(start, len)` of its name and of its value in the
/// buffer given to [`parse_head`]. The value is as Node gives it: without
/// the spaces and tabs before and after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct HeaderSpan {
    /// The name, as sent (not lower-cased).
    pub name: (u32, u32),
    /// The value, trimmed of SP and HTAB; may contain obs-text and HTAB.
    pub value: (u32, u32),
}

impl HeaderSpan {
    /// The name's bytes in `buf`.
    pub fn name<'a>(&self, buf: &'a [u8]) -> &'a [u8] {
        slice(buf, self.name)
    }

    /// The value's bytes in `buf`.
    pub fn value<'a>(&self, buf: &'a [u8]) -> &'a [u8] {
        slice(buf, self.value)
    }
}

fn slice(buf: &[u8], (start, len): (u32, u32)) -> &[u8] {
    &buf[start as usize..(start + len) as usize]
}

/// How the body of a request is delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// No body: no Content-Length nor Transfer-Encoding, or an upgrade.
    None,
    /// `Content-Length` bytes (0 included) follow the head.
    Length(u64),
    /// A chunked body follows: decode it with [`ChunkedDecoder::for_head`].
    Chunked,
}

/// What Node's server does with an `Expect` header (HTTP/1.1 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// None, or not HTTP/1.1: Node ignores it.
    None,
    /// `100-continue`: Node sends `100 Continue` (or emits `checkContinue`).
    Continue,
    /// Anything else: Node answers 417 (without a `checkExpectation`
    /// listener).
    Unsupported,
}

/// A request head llhttp accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestHead {
    /// Bytes of the head, from the buffer's start (empty lines llhttp skips
    /// before the request line included) to the end of its empty line.
    pub len: usize,
    /// `(start, len)` of the method, one of llhttp's (RTSP's included).
    pub method: (u32, u32),
    /// `(start, len)` of the request target, as sent.
    pub target: (u32, u32),
    /// HTTP major version: 1, or 0 (HTTP/0.9), or 2 (`HTTP/2.0`).
    pub major: u8,
    /// HTTP minor version.
    pub minor: u8,
    /// How the body is delimited.
    pub framing: Framing,
    /// How the body is delimited when nothing takes the upgrade: Node's
    /// server without an `'upgrade'` listener (an Express app's) reads an
    /// upgrade request's body as any other's; only CONNECT has none.
    pub body: Framing,
    /// llhttp's `should_keep_alive`: HTTP/1.1 without `Connection: close`,
    /// or any other version with `Connection: keep-alive`.
    pub keep_alive: bool,
    /// llhttp's `upgrade`: CONNECT, or `Connection: upgrade` with a
    /// non-empty Upgrade header. Node's server then hands the connection
    /// off: the bytes after `len` are the new protocol's (framing is None).
    pub upgrade: bool,
    /// What Node's server does about `Expect`.
    pub expect: Expect,
    /// Node's count of the head (url, names and values), below
    /// [`MAX_HEADER_SIZE`].
    pub size: usize,
    /// llhttp's header flags, which the chunk decoder carries on.
    pub(crate) flags: u16,
}

impl RequestHead {
    /// The method's bytes in `buf`.
    pub fn method<'a>(&self, buf: &'a [u8]) -> &'a [u8] {
        slice(buf, self.method)
    }

    /// The request target's bytes in `buf`.
    pub fn target<'a>(&self, buf: &'a [u8]) -> &'a [u8] {
        slice(buf, self.target)
    }
}

/// A refusal: llhttp's error code and the status Node's server answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadError {
    /// 431 for `HPE_HEADER_OVERFLOW`, 413 for
    /// `HPE_CHUNK_EXTENSIONS_OVERFLOW`, 400 for every other code.
    pub status: u16,
    /// llhttp's `HPE_*` name, as Node reports it in `err.code`.
    pub code: &'static str,
}

impl HeadError {
    /// The error for an llhttp code, with Node's status (`socketOnError`).
    pub fn new(code: &'static str) -> Self {
        let status = match code {
            "HPE_HEADER_OVERFLOW" => 431,
            "HPE_CHUNK_EXTENSIONS_OVERFLOW" => 413,
            _ => 400,
        };
        HeadError { status, code }
    }
}

impl std::fmt::Display for HeadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.code, self.status)
    }
}

impl std::error::Error for HeadError {}
