//! Header field lines (a request's headers, a chunked body's trailers) as
//! llhttp 9.3 parses them in strict mode: a resumable byte machine, so the
//! chunk decoder can feed trailers in any pieces without buffering them.
//! Each state is one of llhttp's nodes (src/llhttp/http.ts, `buildHeaders`).

use super::chars::{LIST_TOKEN, TOKEN, VALUE};
use super::{HeadError, HeaderSpan, MAX_HEADER_SIZE};

// llhttp's `flags` (constants.ts FLAGS).
pub(crate) const F_KEEP_ALIVE: u16 = 1 << 0;
pub(crate) const F_CLOSE: u16 = 1 << 1;
pub(crate) const F_CONN_UPGRADE: u16 = 1 << 2;
pub(crate) const F_CHUNKED: u16 = 1 << 3;
pub(crate) const F_UPGRADE: u16 = 1 << 4;
pub(crate) const F_CONTENT_LENGTH: u16 = 1 << 5;
pub(crate) const F_TRANSFER_ENCODING: u16 = 1 << 9;

/// llhttp's `header_state`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Hs {
    General,
    Connection,
    ContentLength,
    TransferEncoding,
    Upgrade,
    KeepAlive,
    Close,
    ConnUpgrade,
    TeChunked,
}

/// The special names llhttp matches (lower case), with their state.
const SPECIAL: [(&[u8], Hs); 5] = [
    (b"connection", Hs::Connection),
    (b"content-length", Hs::ContentLength),
    (b"proxy-connection", Hs::Connection),
    (b"transfer-encoding", Hs::TransferEncoding),
    (b"upgrade", Hs::Upgrade),
];
const CONN_WORDS: [(&[u8], Hs); 3] = [
    (b"close", Hs::Close),
    (b"upgrade", Hs::ConnUpgrade),
    (b"keep-alive", Hs::KeepAlive),
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum St {
    /// `headers_start`: a space opening the first line is an error.
    HeadersStart,
    FieldStart,
    /// A name so far; `cand` has bit i set while it may be `SPECIAL[i]`.
    Field {
        cand: u8,
        len: u8,
    },
    DiscardWs,
    DiscardWsAlmostDone,
    DiscardLws,
    ValueStart,
    TeChunked(u8),
    TeChunkedLast,
    TeToken,
    TeTokenOws,
    ClDigits,
    ClWs,
    Conn,
    ConnMatch {
        word: u8,
        len: u8,
    },
    ConnWs,
    ConnToken,
    Value,
    ValueOtherwise,
    ValueAlmostDone,
    ValueLws,
    AlmostDone,
    Done,
}

/// Where a field line machine stands; `size` is Node's count (names and
/// values, `header_nread_` in src/node_http_parser.cc).
#[derive(Clone, Debug)]
pub(crate) struct Fields {
    st: St,
    hs: Hs,
    pub(crate) flags: u16,
    pub(crate) content_length: u64,
    pub(crate) size: usize,
    name: (usize, usize),
    value_start: usize,
    /// Last byte of the value that is not SP/HTAB (Node trims those).
    value_end: usize,
}

pub(crate) fn err(code: &'static str) -> HeadError {
    HeadError::new(code)
}

impl Fields {
    /// `head`: right after a request line (a leading space is refused);
    /// otherwise trailers. `flags` carries over from the head, as llhttp's do.
    pub(crate) fn new(head: bool, flags: u16) -> Self {
        Fields {
            st: if head {
                St::HeadersStart
            } else {
                St::FieldStart
            },
            hs: Hs::General,
            flags,
            content_length: 0,
            size: 0,
            name: (0, 0),
            value_start: 0,
            value_end: 0,
        }
    }

    fn count(&mut self) -> Result<(), HeadError> {
        self.size += 1;
        if self.size >= MAX_HEADER_SIZE {
            return Err(err("HPE_HEADER_OVERFLOW"));
        }
        Ok(())
    }

    /// The value of a plain header line, whole in `rest` (what follows its
    /// colon, at `at` in the head) with its line end and the next line's
    /// first byte: read at once, its span pushed, the state at the next
    /// line; the bytes used, or `None` (nothing done) for any other shape,
    /// which the states then read byte by byte.
    fn plain_value(
        &mut self,
        rest: &[u8],
        at: usize,
        out: &mut Option<&mut Vec<HeaderSpan>>,
    ) -> Result<Option<usize>, HeadError> {
        let start = rest.iter().position(|&c| c != b' ' && c != b'\t');
        let Some(start) = start else { return Ok(None) };
        let len = rest[start..].iter().position(|&c| !VALUE[c as usize]);
        let Some(len @ 1..) = len else {
            return Ok(None);
        };
        let end = start + len;
        match rest.get(end..end + 3) {
            Some([b'\r', b'\n', next]) if *next != b' ' && *next != b'\t' => {}
            _ => return Ok(None),
        }
        self.size += len;
        if self.size >= MAX_HEADER_SIZE {
            return Err(err("HPE_HEADER_OVERFLOW"));
        }
        let value = &rest[start..end];
        let trimmed = value
            .iter()
            .rposition(|&c| c != b' ' && c != b'\t')
            .map_or(0, |i| i + 1);
        if let Some(out) = out.as_deref_mut() {
            out.push(span(self.name, (at + start, trimmed)));
        }
        self.st = St::FieldStart;
        Ok(Some(end + 2))
    }

    /// A name ended at its colon, its kind in `hs`.
    fn name_done(&mut self) -> Result<(), HeadError> {
        // llhttp 9 refuses Content-Length with Transfer-Encoding.
        if self.hs == Hs::TransferEncoding && self.flags & F_CONTENT_LENGTH != 0 {
            return Err(err("HPE_INVALID_TRANSFER_ENCODING"));
        }
        if self.hs == Hs::ContentLength && self.flags & F_TRANSFER_ENCODING != 0 {
            return Err(err("HPE_INVALID_CONTENT_LENGTH"));
        }
        self.st = St::DiscardWs;
        Ok(())
    }

    /// llhttp's `setHeaderFlags`, at a comma of Connection and a line's end.
    fn set_header_flags(&mut self) {
        match self.hs {
            Hs::KeepAlive => self.flags |= F_KEEP_ALIVE,
            Hs::Close => self.flags |= F_CLOSE,
            Hs::ConnUpgrade => self.flags |= F_CONN_UPGRADE,
            Hs::TeChunked => {
                self.flags |= F_CHUNKED;
                return;
            }
            _ => return,
        }
        self.hs = Hs::Connection;
    }

    /// Runs over `buf[*pos..]` (offsets are `base`-relative positions in the
    /// caller's buffer) until the empty line ends the section (`Ok(true)`),
    /// the bytes run out (`Ok(false)`), or llhttp would refuse.
    pub(crate) fn feed(
        &mut self,
        buf: &[u8],
        pos: &mut usize,
        base: usize,
        mut out: Option<&mut Vec<HeaderSpan>>,
    ) -> Result<bool, HeadError> {
        while *pos < buf.len() {
            let b = buf[*pos];
            let at = base + *pos;
            // Every arm either consumes `b` (`*pos += 1` below) or `continue`s
            // to re-examine it in the next state, as llhttp's peeks do.
            match self.st {
                St::HeadersStart => {
                    if b == b' ' {
                        return Err(err("HPE_UNEXPECTED_SPACE"));
                    }
                    self.st = St::FieldStart;
                    continue;
                }
                St::FieldStart => match b {
                    b'\r' => self.st = St::AlmostDone,
                    b'\n' | b':' => return Err(err("HPE_INVALID_HEADER_TOKEN")),
                    _ => {
                        self.hs = Hs::General;
                        self.name = (at, 0);
                        self.st = St::Field { cand: 0x1f, len: 0 };
                        continue;
                    }
                },
                St::Field { cand, len } => {
                    // The usual name, whole in `buf` up to its colon, is
                    // read at once; the same decisions as byte by byte.
                    let name = &buf[*pos..];
                    let n = match len {
                        0 => name.iter().position(|&c| !TOKEN[c as usize]),
                        _ => None,
                    };
                    if let Some(n @ 1..) = n
                        && name[n] == b':'
                    {
                        self.size += n;
                        if self.size >= MAX_HEADER_SIZE {
                            return Err(err("HPE_HEADER_OVERFLOW"));
                        }
                        let line = name;
                        let name = &line[..n];
                        self.name.1 = n;
                        self.hs = SPECIAL
                            .iter()
                            .find(|(s, _)| s.len() == n && s.eq_ignore_ascii_case(name))
                            .map_or(Hs::General, |(_, hs)| *hs);
                        self.name_done()?;
                        *pos += n + 1;
                        if self.hs == Hs::General
                            && let Some(used) =
                                self.plain_value(&line[n + 1..], at + n + 1, &mut out)?
                        {
                            *pos += used;
                        }
                        continue;
                    }
                    if b == b':' && len > 0 {
                        self.name.1 = at.saturating_sub(self.name.0);
                        self.hs = SPECIAL
                            .iter()
                            .enumerate()
                            .find(|(i, (n, _))| cand & (1 << i) != 0 && n.len() == len as usize)
                            .map_or(Hs::General, |(_, (_, hs))| *hs);
                        self.name_done()?;
                    } else if TOKEN[b as usize] {
                        let lower = b.to_ascii_lowercase();
                        let mut next = 0u8;
                        for (i, (n, _)) in SPECIAL.iter().enumerate() {
                            if cand & (1 << i) != 0 && n.get(len as usize) == Some(&lower) {
                                next |= 1 << i;
                            }
                        }
                        self.st = St::Field {
                            cand: next,
                            len: len.saturating_add(1),
                        };
                        self.count()?;
                    } else {
                        return Err(err("HPE_INVALID_HEADER_TOKEN"));
                    }
                }
                St::DiscardWs => match b {
                    b' ' | b'\t' => {}
                    b'\r' => self.st = St::DiscardWsAlmostDone,
                    b'\n' => return Err(err("HPE_INVALID_HEADER_TOKEN")),
                    _ => {
                        self.value_start = at;
                        self.value_end = at;
                        self.st = St::ValueStart;
                        continue;
                    }
                },
                St::DiscardWsAlmostDone => {
                    if b != b'\n' {
                        return Err(err("HPE_STRICT"));
                    }
                    self.st = St::DiscardLws;
                }
                St::DiscardLws => {
                    // obs-fold is refused in strict mode.
                    if b == b' ' || b == b'\t' {
                        return Err(err("HPE_INVALID_HEADER_TOKEN"));
                    }
                    if self.hs == Hs::ContentLength {
                        return Err(err("HPE_INVALID_CONTENT_LENGTH"));
                    }
                    self.set_header_flags();
                    if let Some(out) = out.as_deref_mut() {
                        out.push(span(self.name, (at, 0)));
                    }
                    self.st = St::FieldStart;
                    continue;
                }
                St::ValueStart => {
                    self.st = match self.hs {
                        Hs::Upgrade => {
                            self.flags |= F_UPGRADE;
                            self.hs = Hs::General;
                            St::Value
                        }
                        Hs::TransferEncoding => {
                            // chunked must be the last coding of a request.
                            if self.flags & F_CHUNKED != 0 {
                                return Err(err("HPE_INVALID_TRANSFER_ENCODING"));
                            }
                            self.flags |= F_TRANSFER_ENCODING;
                            St::TeChunked(0)
                        }
                        Hs::ContentLength => {
                            if self.flags & F_CONTENT_LENGTH != 0 {
                                return Err(err("HPE_UNEXPECTED_CONTENT_LENGTH"));
                            }
                            self.content_length = 0;
                            St::ClDigits
                        }
                        Hs::Connection => St::Conn,
                        _ => St::Value,
                    };
                    continue;
                }
                St::TeChunked(n) => {
                    if b | 0x20 == b"chunked"[n as usize] {
                        self.st = if n == 6 {
                            St::TeChunkedLast
                        } else {
                            St::TeChunked(n + 1)
                        };
                    } else {
                        self.st = St::TeToken;
                        continue;
                    }
                }
                St::TeChunkedLast => match b {
                    b' ' => {}
                    b'\r' | b'\n' => {
                        self.hs = Hs::TeChunked;
                        self.st = St::ValueOtherwise;
                        continue;
                    }
                    b',' => return Err(err("HPE_INVALID_TRANSFER_ENCODING")),
                    _ => {
                        self.st = St::TeToken;
                        continue;
                    }
                },
                St::TeToken => {
                    if b == b',' {
                        self.st = St::TeTokenOws;
                    } else if !LIST_TOKEN[b as usize] {
                        self.hs = Hs::General;
                        self.st = St::Value;
                        continue;
                    }
                }
                St::TeTokenOws => {
                    if b != b' ' && b != b'\t' {
                        self.st = St::TeChunked(0);
                        continue;
                    }
                }
                St::ClDigits => {
                    if b.is_ascii_digit() {
                        self.content_length = self
                            .content_length
                            .checked_mul(10)
                            .and_then(|n| n.checked_add(u64::from(b - b'0')))
                            .ok_or_else(|| err("HPE_INVALID_CONTENT_LENGTH"))?;
                    } else {
                        self.st = St::ClWs;
                        continue;
                    }
                }
                St::ClWs => match b {
                    b' ' => {}
                    b'\r' | b'\n' => {
                        self.flags |= F_CONTENT_LENGTH;
                        self.st = St::ValueOtherwise;
                        continue;
                    }
                    _ => return Err(err("HPE_INVALID_CONTENT_LENGTH")),
                },
                St::Conn => {
                    let lower = b.to_ascii_lowercase();
                    if b == b' ' || b == b'\t' {
                    } else if let Some(i) = CONN_WORDS.iter().position(|(w, _)| w[0] == lower) {
                        self.st = St::ConnMatch {
                            word: i as u8,
                            len: 1,
                        };
                    } else {
                        self.st = St::ConnToken;
                        continue;
                    }
                }
                St::ConnMatch { word, len } => {
                    let (w, hs) = CONN_WORDS[word as usize];
                    if len as usize == w.len() {
                        self.hs = hs;
                        self.st = St::ConnWs;
                        continue;
                    }
                    if b.to_ascii_lowercase() != w[len as usize] {
                        self.st = St::ConnToken;
                        continue;
                    }
                    self.st = St::ConnMatch { word, len: len + 1 };
                }
                St::ConnWs => match b {
                    b',' => {
                        self.set_header_flags();
                        self.st = St::Conn;
                    }
                    b' ' => {}
                    b'\r' | b'\n' => {
                        self.st = St::ValueOtherwise;
                        continue;
                    }
                    _ => {
                        // llhttp 9.3 drops the word here (`close\t` too).
                        self.hs = Hs::General;
                        self.st = St::ConnToken;
                        continue;
                    }
                },
                St::ConnToken => {
                    if b == b',' {
                        self.st = St::Conn;
                    } else if !LIST_TOKEN[b as usize] {
                        self.st = St::ValueOtherwise;
                        continue;
                    }
                }
                St::Value => {
                    // The common case: scan the plain value bytes at once.
                    let rest = &buf[*pos..];
                    let n = rest
                        .iter()
                        .position(|&c| !VALUE[c as usize])
                        .unwrap_or(rest.len());
                    self.size += n;
                    if self.size >= MAX_HEADER_SIZE {
                        return Err(err("HPE_HEADER_OVERFLOW"));
                    }
                    if let Some(last) = rest[..n].iter().rposition(|&c| c != b' ' && c != b'\t') {
                        self.value_end = at + last + 1;
                    }
                    *pos += n;
                    if *pos < buf.len() {
                        self.st = St::ValueOtherwise;
                    }
                    continue;
                }
                St::ValueOtherwise => match b {
                    b'\r' => {
                        self.st = St::ValueAlmostDone;
                    }
                    b'\n' => return Err(err("HPE_CR_EXPECTED")),
                    _ => return Err(err("HPE_INVALID_HEADER_TOKEN")),
                },
                St::ValueAlmostDone => {
                    if b != b'\n' {
                        return Err(err("HPE_LF_EXPECTED"));
                    }
                    self.st = St::ValueLws;
                }
                St::ValueLws => {
                    if b == b' ' || b == b'\t' {
                        return Err(err("HPE_INVALID_HEADER_TOKEN"));
                    }
                    self.set_header_flags();
                    if let Some(out) = out.as_deref_mut() {
                        let v = (
                            self.value_start,
                            self.value_end.saturating_sub(self.value_start),
                        );
                        out.push(span(self.name, v));
                    }
                    self.st = St::FieldStart;
                    continue;
                }
                St::AlmostDone => {
                    if b != b'\n' {
                        return Err(err("HPE_STRICT"));
                    }
                    *pos += 1;
                    self.st = St::Done;
                    return Ok(true);
                }
                St::Done => return Ok(true),
            }
            // `b` was consumed: the value states count it into Node's size.
            if matches!(
                self.st,
                St::TeChunked(_)
                    | St::TeChunkedLast
                    | St::TeToken
                    | St::TeTokenOws
                    | St::ClDigits
                    | St::ClWs
                    | St::Conn
                    | St::ConnMatch { .. }
                    | St::ConnWs
                    | St::ConnToken
            ) {
                self.count()?;
                if b != b' ' && b != b'\t' {
                    self.value_end = at + 1;
                }
            }
            *pos += 1;
        }
        Ok(self.st == St::Done)
    }
}

fn span(name: (usize, usize), value: (usize, usize)) -> HeaderSpan {
    HeaderSpan {
        name: (name.0 as u32, name.1 as u32),
        value: (value.0 as u32, value.1 as u32),
    }
}
