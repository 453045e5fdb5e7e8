//! A request head, as Node's parser reads it, and the request parts made
//! of it.
//!
//! [`parse`] finds the head at the start of the read buffer and decides
//! what Node's parser (llhttp) decides: refused (400, or 431 past Node's
//! 16 KiB count), not whole yet, or whole, with its body's framing and
//! whether the connection stays open. [`parts`] makes the `http` request
//! parts of it, the target kept as received for `req.originalUrl`.

use std::mem::MaybeUninit;

use bytes::Bytes;

use crate::server::methods;
use crate::server::requests::MAX_HEAD_SIZE;

/// Header lines parsed on the stack; a head with more is parsed again with
/// room for all of them.
const STACK_HEADERS: usize = 64;

/// The longest partial head buffered: past it, no head of Node's size can
/// still be whole (Node counts 16 KiB of target, names and values; the
/// separators and line ends of thousands of short lines come on top).
const MAX_PARTIAL: usize = 4 * MAX_HEAD_SIZE;

/// Where one header line's name and value are in the head.
#[derive(Clone, Copy, Default)]
pub(crate) struct HeaderSpan {
    name: (u32, u32),
    value: (u32, u32),
}

/// How a request's body is framed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    None,
    Length(u64),
    Chunked,
}

/// A whole request head at the start of the buffer.
pub(crate) struct RequestHead {
    /// Its length in bytes, the empty line included.
    pub(crate) len: usize,
    method: (u32, u32),
    target: (u32, u32),
    /// `x` of `HTTP/1.x`.
    pub(crate) minor: u8,
    pub(crate) framing: Framing,
    /// Whether the connection stays open after this request, as the
    /// request asks (llhttp's `should_keep_alive`).
    pub(crate) keep_alive: bool,
    /// `CONNECT`, or `Connection: upgrade` with an `Upgrade` header.
    pub(crate) upgrade: bool,
    pub(crate) connect: bool,
    /// HTTP/1.1 with `Expect: 100-continue`.
    pub(crate) expect_continue: bool,
    pub(crate) has_host: bool,
}

/// A head Node's parser refuses, with the status Node answers.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct HeadError {
    pub(crate) status: u16,
}

const BAD: HeadError = HeadError { status: 400 };
const TOO_LARGE: HeadError = HeadError { status: 431 };

/// Reads the request head at the start of `buf`; `Ok(None)` until it is
/// whole. `spans` is the caller's, reused from request to request.
#[inline]
pub(crate) fn parse(
    buf: &[u8],
    spans: &mut Vec<HeaderSpan>,
) -> Result<Option<RequestHead>, HeadError> {
    let mut raw = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; STACK_HEADERS];
    let mut req = httparse::Request::new(&mut []);
    match req.parse_with_uninit_headers(buf, &mut raw) {
        Ok(httparse::Status::Complete(len)) => read(buf, len, &req, spans).map(Some),
        Ok(httparse::Status::Partial) if buf.len() > MAX_PARTIAL => Err(TOO_LARGE),
        Ok(httparse::Status::Partial) => Ok(None),
        Err(httparse::Error::TooManyHeaders) => parse_many(buf, spans),
        Err(_) => Err(BAD),
    }
}

/// [`parse`] for a head of more than [`STACK_HEADERS`] lines.
#[cold]
fn parse_many(buf: &[u8], spans: &mut Vec<HeaderSpan>) -> Result<Option<RequestHead>, HeadError> {
    let lines = memchr::memchr_iter(b'\n', buf).count();
    let mut headers = vec![httparse::EMPTY_HEADER; lines];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(buf) {
        Ok(httparse::Status::Complete(len)) => read(buf, len, &req, spans).map(Some),
        Ok(httparse::Status::Partial) if buf.len() > MAX_PARTIAL => Err(TOO_LARGE),
        Ok(httparse::Status::Partial) => Ok(None),
        Err(_) => Err(BAD),
    }
}

/// The facts of a whole head that httparse read.
#[inline]
fn read(
    buf: &[u8],
    len: usize,
    req: &httparse::Request<'_, '_>,
    spans: &mut Vec<HeaderSpan>,
) -> Result<RequestHead, HeadError> {
    let base = buf.as_ptr() as usize;
    // Where a parsed slice lies in the head (each does; checked all the
    // same, as `parts` slices by it).
    let at = |s: &[u8]| -> Result<(u32, u32), HeadError> {
        let at = (s.as_ptr() as usize).wrapping_sub(base);
        match at.checked_add(s.len()) {
            Some(end) if end <= len => Ok((at as u32, s.len() as u32)),
            _ => Err(BAD),
        }
    };
    let (Some(method), Some(target), Some(minor)) = (req.method, req.path, req.version) else {
        return Err(BAD);
    };
    let mut size = target.len();
    let mut has_host = false;
    let mut length: Option<u64> = None;
    let mut te: Option<bool> = None;
    let mut close = false;
    let mut keep_alive = false;
    let mut conn_upgrade = false;
    let mut has_upgrade = false;
    let mut expect_continue = false;
    spans.clear();
    for h in req.headers.iter() {
        let name = h.name.as_bytes();
        let value = h.value;
        size += name.len() + value.len();
        match name.len() {
            4 if name.eq_ignore_ascii_case(b"host") => has_host = true,
            6 if name.eq_ignore_ascii_case(b"expect") => {
                expect_continue |= has_continue_word(value);
            }
            7 if name.eq_ignore_ascii_case(b"upgrade") => has_upgrade = true,
            10 if name.eq_ignore_ascii_case(b"connection") => {
                for token in value.split(|&b| b == b',') {
                    let token = token.trim_ascii();
                    close |= token.eq_ignore_ascii_case(b"close");
                    keep_alive |= token.eq_ignore_ascii_case(b"keep-alive");
                    conn_upgrade |= token.eq_ignore_ascii_case(b"upgrade");
                }
            }
            14 if name.eq_ignore_ascii_case(b"content-length") => {
                if length.is_some() {
                    return Err(BAD);
                }
                length = Some(content_length(value).ok_or(BAD)?);
            }
            17 if name.eq_ignore_ascii_case(b"transfer-encoding") => {
                // Only `chunked` as the last coding frames a request.
                let last = value.rsplit(|&b| b == b',').next().unwrap_or(b"");
                te = Some(last.trim_ascii().eq_ignore_ascii_case(b"chunked"));
            }
            _ => {}
        }
        spans.push(HeaderSpan {
            name: at(name)?,
            value: at(value)?,
        });
    }
    if size >= MAX_HEAD_SIZE {
        return Err(TOO_LARGE);
    }
    let framing = match (te, length) {
        (Some(_), Some(_)) | (Some(false), None) => return Err(BAD),
        (Some(true), None) => Framing::Chunked,
        (None, Some(0) | None) => Framing::None,
        (None, Some(n)) => Framing::Length(n),
    };
    let connect = method == "CONNECT";
    Ok(RequestHead {
        len,
        method: at(method.as_bytes())?,
        target: at(target.as_bytes())?,
        minor: minor as u8,
        framing,
        keep_alive: if minor == 1 { !close } else { keep_alive && !close },
        upgrade: connect || (conn_upgrade && has_upgrade),
        connect,
        expect_continue: expect_continue && minor == 1,
        has_host,
    })
}

/// A `Content-Length` of digits, as llhttp takes it.
fn content_length(value: &[u8]) -> Option<u64> {
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    value.iter().try_fold(0u64, |n, d| {
        n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })
}

/// Node's test for `100-continue`: `/(?:^|\W)100-continue(?:$|\W)/i`.
fn has_continue_word(v: &[u8]) -> bool {
    const WORD: &[u8] = b"100-continue";
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    (0..v.len().saturating_sub(WORD.len() - 1)).any(|i| {
        v[i..i + WORD.len()].eq_ignore_ascii_case(WORD)
            && (i == 0 || !is_word(v[i - 1]))
            && v.get(i + WORD.len()).is_none_or(|&b| !is_word(b))
    })
}

/// The bytes of a target `http::Uri` refuses and Node takes: they are
/// percent-encoded in the `Uri`, and the target as received is kept.
fn needs_escape(b: u8) -> bool {
    matches!(b, b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}') || b >= 0x80
}

/// The request's parts of `head` (the head's bytes, split off the buffer),
/// its headers in `headers` (an emptied map), and the target as received
/// when the `Uri` had to escape it; `None` when `http` refuses the target
/// or a header (Node's 400).
#[inline]
pub(crate) fn parts(
    parsed: &RequestHead,
    head: &Bytes,
    spans: &[HeaderSpan],
    mut headers: http::HeaderMap,
) -> Option<(http::request::Parts, Option<String>)> {
    let slice = |(at, len): (u32, u32)| head.slice(at as usize..(at + len) as usize);
    let target = slice(parsed.target);
    let (uri, raw) = if target.iter().any(|&b| needs_escape(b)) {
        escaped(&target)?
    } else {
        (http::Uri::from_maybe_shared(target).ok()?, None)
    };
    headers.reserve(spans.len());
    for span in spans {
        let (at, len) = span.name;
        let name = http::HeaderName::from_bytes(&head[at as usize..(at + len) as usize]);
        let value = http::HeaderValue::from_maybe_shared(slice(span.value));
        headers.append(name.ok()?, value.ok()?);
    }
    let (mut parts, ()) = http::Request::new(()).into_parts();
    let (at, len) = parsed.method;
    let method = &head[at as usize..(at + len) as usize];
    if method != b"GET" {
        parts.method = http::Method::from_bytes(method).ok()?;
        if !methods::node_accepts(&parts.method) {
            return None;
        }
    }
    if parsed.minor == 0 {
        parts.version = http::Version::HTTP_10;
    }
    parts.uri = uri;
    parts.headers = headers;
    Some((parts, raw))
}

/// A target with bytes `http::Uri` refuses: the `Uri` of it escaped, and
/// the target as received.
#[cold]
fn escaped(target: &[u8]) -> Option<(http::Uri, Option<String>)> {
    let mut escaped = String::with_capacity(target.len() + 16);
    for &b in target {
        if needs_escape(b) {
            escaped.push_str(&format!("%{b:02X}"));
        } else {
            escaped.push(b as char);
        }
    }
    let uri = http::Uri::try_from(escaped).ok()?;
    Some((uri, Some(String::from_utf8_lossy(target).into_owned())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(head: &[u8]) -> Result<Option<RequestHead>, HeadError> {
        parse(head, &mut Vec::new())
    }

    #[test]
    fn framing_node_refuses_is_a_400() {
        for head in [
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
        ] {
            assert_eq!(parsed(head.as_bytes()).err(), Some(BAD), "{head:?}");
        }
    }

    #[test]
    fn keep_alive_upgrade_and_expect_are_read_as_node_reads_them() {
        let head = parsed(b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").unwrap().unwrap();
        assert!(head.keep_alive);
        let head = parsed(b"GET / HTTP/1.0\r\n\r\n").unwrap().unwrap();
        assert!(!head.keep_alive);
        let head = parsed(b"GET / HTTP/1.1\r\nConnection: x, close\r\n\r\n").unwrap().unwrap();
        assert!(!head.keep_alive);
        let head = parsed(b"GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: ws\r\n\r\n").unwrap().unwrap();
        assert!(head.upgrade && !head.connect);
        let head = parsed(b"GET / HTTP/1.1\r\nUpgrade: ws\r\n\r\n").unwrap().unwrap();
        assert!(!head.upgrade);
        let head = parsed(b"POST / HTTP/1.1\r\nExpect: 100-Continue\r\n\r\n").unwrap().unwrap();
        assert!(head.expect_continue);
        assert!(has_continue_word(b"x,100-continue"));
        assert!(!has_continue_word(b"100-continued"));
    }

    #[test]
    fn a_head_past_node_s_count_is_a_431_and_a_partial_head_is_bounded() {
        let long = format!("GET /{} HTTP/1.1\r\nHost: a\r\n\r\n", "a".repeat(MAX_HEAD_SIZE));
        assert_eq!(parsed(long.as_bytes()).err(), Some(TOO_LARGE));
        let partial = format!("GET / HTTP/1.1\r\nX: {}", "a".repeat(MAX_PARTIAL));
        assert_eq!(parsed(partial.as_bytes()).err(), Some(TOO_LARGE));
        let many: String = (0..500).map(|i| format!("X-{i}: v\r\n")).collect();
        let head = format!("GET / HTTP/1.1\r\nHost: a\r\n{many}\r\n");
        let mut spans = Vec::new();
        assert!(parse(head.as_bytes(), &mut spans).unwrap().is_some());
        assert_eq!(spans.len(), 501);
    }

    #[test]
    fn a_target_http_refuses_is_escaped_and_kept_as_received() {
        let bytes = Bytes::from_static(b"GET /a|b\"c HTTP/1.1\r\nHost: a\r\n\r\n");
        let mut spans = Vec::new();
        let head = parse(&bytes, &mut spans).unwrap().unwrap();
        let (parts, raw) = parts(&head, &bytes, &spans, http::HeaderMap::new()).unwrap();
        assert_eq!(parts.uri, "/a%7Cb%22c");
        assert_eq!(raw.as_deref(), Some("/a|b\"c"));
    }
}
