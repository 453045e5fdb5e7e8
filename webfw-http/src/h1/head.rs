//! The request line, as llhttp 9.3 parses it in strict mode (http.ts
//! `buildLine`, url.ts), then the header lines (fields.rs) and the framing
//! decision (`llhttp__after_headers_complete` in src/native/http.c).

use super::chars::{SERVER, URL};
use super::fields::{
    F_CHUNKED, F_CLOSE, F_CONN_UPGRADE, F_CONTENT_LENGTH, F_KEEP_ALIVE, F_TRANSFER_ENCODING,
    F_UPGRADE, Fields, err,
};
use super::{Expect, Framing, HeadError, HeaderSpan, MAX_HEAD_BYTES, MAX_HEADER_SIZE, RequestHead};

/// Every method llhttp knows (`METHODS`: HTTP/1, PRI and RTSP's), with the
/// protocols it may be used with: H = HTTP, R = RTSP, I = ICE.
const METHODS: &[(&[u8], u8)] = &[
    (b"DELETE", H),
    (b"GET", H | R),
    (b"HEAD", H),
    (b"POST", H | R),
    (b"PUT", H),
    (b"CONNECT", H),
    (b"OPTIONS", H | R),
    (b"TRACE", H),
    (b"COPY", H),
    (b"LOCK", H),
    (b"MKCOL", H),
    (b"MOVE", H),
    (b"PROPFIND", H),
    (b"PROPPATCH", H),
    (b"SEARCH", H),
    (b"UNLOCK", H),
    (b"BIND", H),
    (b"REBIND", H),
    (b"UNBIND", H),
    (b"ACL", H),
    (b"REPORT", H),
    (b"MKACTIVITY", H),
    (b"CHECKOUT", H),
    (b"MERGE", H),
    (b"M-SEARCH", H),
    (b"NOTIFY", H),
    (b"SUBSCRIBE", H),
    (b"UNSUBSCRIBE", H),
    (b"PATCH", H),
    (b"PURGE", H),
    (b"MKCALENDAR", H),
    (b"LINK", H),
    (b"UNLINK", H),
    (b"SOURCE", H | I),
    (b"PRI", H),
    (b"DESCRIBE", R),
    (b"ANNOUNCE", R),
    (b"SETUP", R),
    (b"PLAY", R),
    (b"PAUSE", R),
    (b"TEARDOWN", R),
    (b"GET_PARAMETER", R),
    (b"SET_PARAMETER", R),
    (b"REDIRECT", R),
    (b"RECORD", R),
    (b"FLUSH", R),
    (b"QUERY", H),
];
const H: u8 = 1;
const R: u8 = 2;
const I: u8 = 4;

/// End of input: llhttp would wait for more.
struct Partial;

enum Stop {
    Partial,
    Err(HeadError),
}

impl From<Partial> for Stop {
    fn from(_: Partial) -> Self {
        Stop::Partial
    }
}

impl From<HeadError> for Stop {
    fn from(e: HeadError) -> Self {
        Stop::Err(e)
    }
}

struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Node's count of url bytes so far.
    size: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Result<u8, Partial> {
        self.buf.get(self.pos).copied().ok_or(Partial)
    }

    /// Matches `lit` byte by byte: a prefix at the end of input waits.
    fn literal(&mut self, lit: &[u8], code: &'static str) -> Result<(), Stop> {
        for &want in lit {
            if self.peek()? != want {
                return Err(err(code).into());
            }
            self.pos += 1;
        }
        Ok(())
    }

    /// One url byte consumed, counted as Node counts it.
    fn url_byte(&mut self) -> Result<(), HeadError> {
        self.pos += 1;
        self.size += 1;
        if self.size >= MAX_HEADER_SIZE {
            return Err(err("HPE_HEADER_OVERFLOW"));
        }
        Ok(())
    }
}

/// The url states of url.ts; returns whether it ended in HTTP/0.9 style
/// (CRLF or LF right after the target), and where the target ended.
fn url(c: &mut Cursor<'_>, connect: bool) -> Result<(usize, bool), Stop> {
    #[derive(PartialEq)]
    enum U {
        Start,
        Schema,
        Server,
        ServerAt,
        Path,
        Query,
        Fragment,
    }
    let mut st = if connect { U::Server } else { U::Start };
    loop {
        let b = c.peek()?;
        if b == b'\t' || b == 0x0c {
            return Err(err("HPE_INVALID_URL").into());
        }
        // The ends of a url, where llhttp's node has them.
        if matches!(b, b' ' | b'\r' | b'\n') {
            if st == U::Start || st == U::Schema {
                return Err(err("HPE_INVALID_URL").into());
            }
            let end = c.pos;
            if b == b'\r' {
                c.literal(b"\r\n", "HPE_INVALID_URL")?;
            } else {
                c.pos += 1;
            }
            return Ok((end, b != b' '));
        }
        match st {
            U::Start => match b {
                b'/' | b'*' => st = U::Path,
                _ if b.is_ascii_alphabetic() => st = U::Schema,
                _ => return Err(err("HPE_INVALID_URL").into()),
            },
            U::Schema => {
                if b == b':' {
                    c.url_byte()?;
                    for _ in 0..2 {
                        if c.peek()? != b'/' {
                            return Err(err("HPE_INVALID_URL").into());
                        }
                        c.url_byte()?;
                    }
                    st = U::Server;
                    continue;
                } else if !b.is_ascii_alphabetic() {
                    return Err(err("HPE_INVALID_URL").into());
                }
            }
            U::Server | U::ServerAt => match b {
                b'/' => st = U::Path,
                b'?' => st = U::Query,
                b'@' if st == U::ServerAt => return Err(err("HPE_INVALID_URL").into()),
                b'@' => st = U::ServerAt,
                _ if SERVER[b as usize] => st = U::Server,
                _ => return Err(err("HPE_INVALID_URL").into()),
            },
            U::Path => match b {
                b'?' => st = U::Query,
                b'#' => st = U::Fragment,
                _ if URL[b as usize] => {}
                _ => return Err(err("HPE_INVALID_URL").into()),
            },
            U::Query => match b {
                b'#' => st = U::Fragment,
                b'?' => {}
                _ if URL[b as usize] => {}
                _ => return Err(err("HPE_INVALID_URL").into()),
            },
            U::Fragment => {
                if !(URL[b as usize] || b == b'?' || b == b'#') {
                    return Err(err("HPE_INVALID_URL").into());
                }
            }
        }
        c.url_byte()?;
    }
}

/// The usual request line, read at once: a common method, an origin-form
/// target of url bytes, ` HTTP/1.1` or ` HTTP/1.0`, CRLF. It takes only
/// lines `line` takes the same way; `None` leaves any other to it.
fn usual_line(c: &mut Cursor<'_>) -> Option<LineParts> {
    let start = c.pos;
    let buf = &c.buf[start..];
    let method = [
        &b"GET "[..],
        b"POST ",
        b"PUT ",
        b"HEAD ",
        b"DELETE ",
        b"PATCH ",
        b"OPTIONS ",
    ]
    .into_iter()
    .find(|m| buf.starts_with(m))?
    .len()
        - 1;
    let from = method + 1;
    if buf.get(from) != Some(&b'/') {
        return None;
    }
    // Path, query and fragment alike take url bytes, `?` and `#`.
    let len = buf[from..]
        .iter()
        .position(|&b| !(URL[b as usize] || b == b'?' || b == b'#'))?;
    if c.size + len >= MAX_HEADER_SIZE / 2 {
        return None;
    }
    let end = from + len;
    let minor = match buf.get(end..end + 11)? {
        b" HTTP/1.1\r\n" => 1,
        b" HTTP/1.0\r\n" => 0,
        _ => return None,
    };
    c.size += len;
    c.pos = start + end + 11;
    Some(LineParts {
        method: (start, method),
        target: (start + from, len),
        major: 1,
        minor,
    })
}

fn line(c: &mut Cursor<'_>) -> Result<LineParts, Stop> {
    if let Some(parts) = usual_line(c) {
        return Ok(parts);
    }
    while matches!(c.peek()?, b'\r' | b'\n') {
        c.pos += 1;
    }
    let start = c.pos;
    // A method is one of llhttp's names, followed by a space.
    loop {
        let b = c.peek();
        let so_far = &c.buf[start..c.pos];
        match b {
            Ok(b' ') => break,
            Ok(b) if b.is_ascii_uppercase() || b == b'-' || b == b'_' => c.pos += 1,
            Ok(_) => return Err(err("HPE_INVALID_METHOD").into()),
            Err(Partial) => {
                return if METHODS.iter().any(|(m, _)| m.starts_with(so_far)) {
                    Err(Stop::Partial)
                } else {
                    Err(err("HPE_INVALID_METHOD").into())
                };
            }
        }
        let so_far = &c.buf[start..c.pos];
        if !METHODS.iter().any(|(m, _)| m.starts_with(so_far)) {
            return Err(err("HPE_INVALID_METHOD").into());
        }
    }
    let method_bytes = &c.buf[start..c.pos];
    let protocols = METHODS
        .iter()
        .find(|(m, _)| *m == method_bytes)
        .map(|(_, p)| *p)
        .ok_or_else(|| err("HPE_INVALID_METHOD"))?;
    let method = (start, c.pos - start);
    while c.peek()? == b' ' {
        c.pos += 1;
    }
    let target_start = c.pos;
    let (target_end, http09) = url(c, method_bytes == b"CONNECT")?;
    // llhttp's `to_http` nodes are url nodes too: they refuse HTAB and FF.
    if matches!(c.peek()?, b'\t' | 0x0c) {
        return Err(err("HPE_INVALID_URL").into());
    }
    let target = (target_start, target_end - target_start);
    if http09 {
        return Ok(LineParts {
            method,
            target,
            major: 0,
            minor: 9,
        });
    }
    while c.peek()? == b' ' {
        c.pos += 1;
    }
    let (lit, allowed): (&[u8], u8) = match c.peek()? {
        b'H' => (b"HTTP", H),
        b'R' => (b"RTSP", R),
        b'I' => (b"ICE", I),
        _ => return Err(err("HPE_INVALID_CONSTANT").into()),
    };
    c.literal(lit, "HPE_INVALID_CONSTANT")?;
    if protocols & allowed == 0 {
        return Err(err("HPE_INVALID_CONSTANT").into());
    }
    c.literal(b"/", "HPE_INVALID_CONSTANT")?;
    let digit = |c: &mut Cursor<'_>| -> Result<u8, Stop> {
        let b = c.peek()?;
        if !b.is_ascii_digit() {
            return Err(err("HPE_INVALID_VERSION").into());
        }
        c.pos += 1;
        Ok(b - b'0')
    };
    let major = digit(c)?;
    c.literal(b".", "HPE_INVALID_VERSION")?;
    let minor = digit(c)?;
    if !matches!((major, minor), (0, 9) | (1, 0) | (1, 1) | (2, 0)) {
        return Err(err("HPE_INVALID_VERSION").into());
    }
    if method_bytes == b"PRI" {
        // The HTTP/2 preface: llhttp pauses, Node answers 400.
        c.literal(b"\r\n\r\nSM\r\n\r\n", "HPE_INVALID_VERSION")?;
        return Err(err("HPE_PAUSED_H2_UPGRADE").into());
    }
    c.literal(b"\r", "HPE_INVALID_VERSION")?;
    c.literal(b"\n", "HPE_STRICT")?;
    Ok(LineParts {
        method,
        target,
        major,
        minor,
    })
}

struct LineParts {
    method: (usize, usize),
    target: (usize, usize),
    major: u8,
    minor: u8,
}

/// Parses the request head at the start of `buf` exactly as Node 20's
/// llhttp decides; see the module docs.
pub fn parse_head(
    buf: &[u8],
    headers: &mut Vec<HeaderSpan>,
) -> Result<Option<RequestHead>, HeadError> {
    headers.clear();
    let mut c = Cursor {
        buf,
        pos: 0,
        size: 0,
    };
    let refuse_long = |buf: &[u8]| {
        if buf.len() > MAX_HEAD_BYTES {
            Err(err("HPE_HEADER_OVERFLOW"))
        } else {
            Ok(None)
        }
    };
    let parts = match line(&mut c) {
        Ok(p) => p,
        Err(Stop::Partial) => return refuse_long(buf),
        Err(Stop::Err(e)) => return Err(e),
    };
    let mut fields = Fields::new(true, 0);
    fields.size = c.size;
    let mut pos = c.pos;
    if !fields.feed(buf, &mut pos, 0, Some(headers))? {
        return refuse_long(buf);
    }
    if pos > MAX_HEAD_BYTES {
        // Refused whole too, so that no prefix is refused of a head accepted.
        return Err(err("HPE_HEADER_OVERFLOW"));
    }
    let flags = fields.flags;
    let method = &buf[parts.method.0..parts.method.0 + parts.method.1];
    let upgrade = if flags & F_UPGRADE != 0 && flags & F_CONN_UPGRADE != 0 {
        true
    } else {
        method == b"CONNECT"
    };
    // Node's server answers on_headers_complete with 2 (upgrade, no body)
    // for an upgrade it hands off: the bytes after the head are not a body.
    let body = if method == b"CONNECT" {
        Framing::None
    } else if flags & F_CHUNKED != 0 {
        Framing::Chunked
    } else if flags & F_TRANSFER_ENCODING != 0 && upgrade {
        // llhttp hands an upgrade over before it judges the coding.
        Framing::None
    } else if flags & F_TRANSFER_ENCODING != 0 {
        // RFC 9112 6.3: a request whose last coding is not chunked.
        return Err(err("HPE_INVALID_TRANSFER_ENCODING"));
    } else if flags & F_CONTENT_LENGTH != 0 {
        Framing::Length(fields.content_length)
    } else {
        Framing::None
    };
    let framing = if upgrade { Framing::None } else { body };
    let expect = if (parts.major, parts.minor) == (1, 1) {
        expect(buf, headers)
    } else {
        Expect::None
    };
    Ok(Some(RequestHead {
        len: pos,
        method: (parts.method.0 as u32, parts.method.1 as u32),
        target: (parts.target.0 as u32, parts.target.1 as u32),
        major: parts.major,
        minor: parts.minor,
        framing,
        body,
        keep_alive: should_keep_alive(parts.major, parts.minor, flags),
        upgrade,
        expect,
        size: fields.size,
        flags,
    }))
}

/// `llhttp_should_keep_alive` for a request.
pub(crate) fn should_keep_alive(major: u8, minor: u8, flags: u16) -> bool {
    if major > 0 && minor > 0 {
        flags & F_CLOSE == 0
    } else {
        // HTTP/1.0, 0.9 and (as llhttp counts them) 2.0.
        flags & F_KEEP_ALIVE != 0
    }
}

/// Node's server (HTTP/1.1 only): `/(?:^|\W)100-continue(?:$|\W)/i` on the
/// joined Expect values.
fn expect(buf: &[u8], headers: &[HeaderSpan]) -> Expect {
    let mut seen = Expect::None;
    for h in headers {
        if !h.name(buf).eq_ignore_ascii_case(b"expect") {
            continue;
        }
        let v = h.value(buf);
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let hit = (0..v.len().saturating_sub(11)).any(|i| {
            v[i..i + 12].eq_ignore_ascii_case(b"100-continue")
                && (i == 0 || !word(v[i - 1]))
                && v.get(i + 12).is_none_or(|&b| !word(b))
        });
        if hit {
            return Expect::Continue;
        }
        seen = Expect::Unsupported;
    }
    seen
}
