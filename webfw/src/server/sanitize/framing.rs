//! The HTTP/1 framing scanner: follows a connection's requests (request
//! line, header lines, a body framed by `Content-Length` or chunked coding,
//! the next request) and percent-encodes the bytes `http::Uri` rejects in
//! each request target.
//!
//! Where the scanner thinks a request begins is where hyper will, or the
//! scanner stops following. It reads the framing as hyper does (hyper's
//! `Content-Length` syntax, chunked only as the final coding and not in
//! HTTP/1.0, trailers, blank lines before a request line), and anything
//! the two could read differently (lengths that disagree, folded lines, a
//! line without a colon, `Upgrade`, `CONNECT`, the HTTP/2 preface, a bad
//! chunk size, over-long lines) switches it to pass-through for the rest of
//! the connection. A head left to hyper resumes from the framing hyper
//! reported for that very request. The only change it makes is a target
//! byte into its `%XX`: no byte is added, dropped or moved otherwise, and
//! nothing in a body is touched.

use crate::http::{find_byte, find_in_words, repeat, zero_bytes};

use super::{BodyFraming, RawTargets};

/// Longest request line, header line (of a header the shim must read) or
/// chunk extension it follows; longer ones switch to pass-through. hyper's
/// own read buffer is this size, so it rejects such heads anyway.
pub(super) const MAX_LINE: usize = 64 * 1024;

/// Runs the read shim's line-by-line scanner over `input`, fed in the
/// pieces `cuts` marks (offsets, in order), and returns what hyper would
/// read. For the fuzz target (`fuzz/`), built only there.
#[cfg(fuzzing)]
#[doc(hidden)]
pub fn fuzz_rewrite(input: &[u8], cuts: &[usize]) -> Vec<u8> {
    let mut scan = Scanner::new(std::sync::Arc::default());
    scan.defer = false;
    let mut output = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&input.len())) {
        let cut = cut.clamp(from, input.len());
        let piece = &input[from..cut];
        let mut out = Vec::new();
        if scan.feed(piece, &mut out) {
            output.extend_from_slice(&out);
        } else {
            output.extend_from_slice(piece);
        }
        from = cut;
    }
    output
}

/// The bytes Node accepts in a target and `http::Uri` rejects.
pub(super) fn needs_escape(b: u8) -> bool {
    matches!(
        b,
        b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
    )
}

/// The bytes of a word (for [`find_in_words`]) that end a clean target in a
/// request line: a space, CR or LF, one of the nine escaped bytes, or one the
/// byte-wise states must look at (controls, `~`, DEL, non-ASCII).
pub(super) fn target_stops(x: u64) -> u64 {
    // Below `!`, and above `z`: those hold `{`, `|` and `}`.
    let below = below_space(x);
    let above = (x.wrapping_add(repeat(0x7f - b'z')) | x) & repeat(0x80);
    // `<` `>` `\` `^` and only bytes flagged anyway: 0x1c, 0x1e, `|`, `~`.
    let angle = zero_bytes((x & repeat(0x9d)) ^ repeat(0x1c));
    let quote = zero_bytes(x ^ repeat(b'"'));
    let tick = zero_bytes(x ^ repeat(b'`'));
    below | above | angle | quote | tick
}

/// The bytes below `!` of a word (for [`find_in_words`]): space, CR, LF and controls.
fn below_space(x: u64) -> u64 {
    x.wrapping_sub(repeat(b'!')) & !x & repeat(0x80)
}

/// The colons and LFs of a word (for [`find_in_words`]).
fn colon_or_lf(x: u64) -> u64 {
    zero_bytes(x ^ repeat(b':')) | zero_bytes(x ^ repeat(b'\n'))
}

fn push_escaped(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
}

/// The target as hyper sees it after the shim rewrote `raw`.
pub(super) fn escape(raw: &str) -> String {
    let mut out = Vec::with_capacity(raw.len() + 8);
    for &b in raw.as_bytes() {
        if needs_escape(b) {
            push_escaped(&mut out, b);
        } else {
            out.push(b);
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Where the scanner is in the HTTP/1 byte stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    /// Before a request line (blank lines are skipped, as hyper does).
    Start,
    Method,
    Target,
    Version,
    /// At or inside a header line.
    Header,
    Body(u64),
    /// The chunk-size digits; `bool`: at least one digit seen.
    ChunkSize(bool),
    ChunkSizeLws,
    ChunkExt,
    ChunkSizeLf,
    ChunkData(u64),
    ChunkDataCr,
    ChunkDataLf,
    /// After a head left to hyper (it ended where its read did): the next
    /// read starts from the framing the service reports.
    Framing,
    /// At the start of a trailer line, or of the final empty line.
    TrailerStart,
    TrailerLine,
    TrailerLf,
    EndLf,
    PassThrough,
}

/// The framing state machine, apart from the IO so it can be fed by tests.
pub(super) struct Scanner {
    pub(super) state: State,
    raw: std::sync::Arc<RawTargets>,
    /// Index of the current request on the connection.
    pub(super) index: u64,
    /// Length of the request line so far.
    line_len: usize,
    method: [u8; 8],
    method_len: usize,
    /// The start of the version, with its CR if any.
    version: [u8; 9],
    version_len: usize,
    /// The raw target so far (capacity reused across requests).
    target: Vec<u8>,
    rewritten: bool,
    /// A header line split across reads (only one whose name may matter).
    pub(super) carry: Vec<u8>,
    /// The current header line was found irrelevant: skip to its end.
    skip_line: bool,
    content_length: Option<u64>,
    te: bool,
    te_chunked: bool,
    chunk_size: u64,
    pub(super) ext_len: usize,
    /// Leave heads that end with their read to hyper ([`State::Framing`]);
    /// off only for tests of the line-by-line states.
    pub(super) defer: bool,
    /// The last read was one whole head and nothing more (see
    /// `batched` in [`super::io`]).
    pub(super) lone: bool,
}

impl Scanner {
    pub(super) fn new(raw: std::sync::Arc<RawTargets>) -> Scanner {
        Scanner {
            defer: true,
            lone: false,
            state: State::Start,
            raw,
            index: 0,
            line_len: 0,
            method: [0; 8],
            method_len: 0,
            version: [0; 9],
            version_len: 0,
            target: Vec::new(),
            rewritten: false,
            carry: Vec::new(),
            skip_line: false,
            content_length: None,
            te: false,
            te_chunked: false,
            chunk_size: 0,
            ext_len: 0,
        }
    }

    fn begin_request(&mut self) {
        self.line_len = 0;
        self.method_len = 0;
        self.version_len = 0;
        self.target.clear();
        self.rewritten = false;
        self.begin_headers();
    }

    /// What a request's header lines and body are followed with.
    fn begin_headers(&mut self) {
        self.ext_len = 0;
        self.carry.clear();
        self.skip_line = false;
        self.content_length = None;
        self.te = false;
        self.te_chunked = false;
    }

    /// Follows `input`; returns true if it had to be rewritten, the rewritten
    /// bytes then being appended to `out` (left untouched otherwise).
    pub(super) fn feed(&mut self, input: &[u8], out: &mut Vec<u8>) -> bool {
        self.lone = false;
        if matches!(self.state, State::Framing) {
            self.state = match self.raw.framing_of(self.index) {
                BodyFraming::None => State::Start,
                BodyFraming::Length(n) => State::Body(n),
                BodyFraming::Chunked => {
                    self.chunk_size = 0;
                    State::ChunkSize(false)
                }
                BodyFraming::Opaque => State::PassThrough,
            };
        }
        let i = self.clean_heads(input);
        i < input.len() && self.feed_from(input, i, out)
    }

    /// The usual read: whole request heads that need no rewriting, followed
    /// without the state machine's setup. Returns how far it got; the state
    /// is exact there, so the state machine takes over from that point.
    fn clean_heads(&mut self, input: &[u8]) -> usize {
        let mut i = 0;
        // `matches!`, not `==`: the derived comparison also looks at payloads.
        while matches!(self.state, State::Start)
            && i < input.len()
            && !matches!(input[i], b'\r' | b'\n')
        {
            // Nothing `begin_request` resets is read before the headers: a
            // head left to hyper skips it (the next read starts afresh).
            let head_start = i;
            let Some(n) = self.request_line(&input[i..]) else {
                break;
            };
            i += n;
            if self.defer && head_ends_at_end(&input[i..]) {
                self.state = State::Framing;
                self.lone = head_start == 0;
                return input.len();
            }
            self.begin_headers();
            i += self.headers(&input[i..]);
        }
        i
    }

    /// [`Self::feed`] from `input[i..]`, everything before being followed
    /// already. Kept out of `feed`, whose usual read never needs its setup.
    #[inline(never)]
    fn feed_from(&mut self, input: &[u8], mut i: usize, out: &mut Vec<u8>) -> bool {
        let mut emitted = 0;
        let mut dirty = false;
        while i < input.len() {
            let rest = &input[i..];
            match self.state {
                // `feed` resolved a pending framing before; none is left here.
                State::PassThrough | State::Framing => break,
                State::Start => match rest[0] {
                    b'\r' | b'\n' => i += 1,
                    _ => {
                        self.begin_request();
                        match self.request_line(rest) {
                            Some(n) => i += n,
                            None => self.state = State::Method,
                        }
                    }
                },
                State::Method => {
                    let end = rest.iter().position(|&b| matches!(b, b' ' | b'\r' | b'\n'));
                    let seg = &rest[..end.unwrap_or(rest.len())];
                    if self.over_limit(seg) {
                        break;
                    }
                    append_capped(&mut self.method, &mut self.method_len, seg);
                    self.line_len += seg.len();
                    i += seg.len();
                    match end {
                        None => {}
                        Some(p) if rest[p] == b' ' => {
                            i += 1;
                            self.line_len += 1;
                            // The HTTP/2 preface, and tunnels: not HTTP/1 after this.
                            let m = &self.method[..self.method_len];
                            self.state = if m == b"PRI" || m == b"CONNECT" {
                                State::PassThrough
                            } else {
                                State::Target
                            };
                        }
                        Some(_) => self.state = State::PassThrough,
                    }
                }
                State::Target => {
                    let end = rest.iter().position(|&b| matches!(b, b' ' | b'\r' | b'\n'));
                    let seg = &rest[..end.unwrap_or(rest.len())];
                    if self.over_limit(seg) {
                        break;
                    }
                    self.target.extend_from_slice(seg);
                    if seg.iter().any(|&b| needs_escape(b)) {
                        dirty = true;
                        for (k, &b) in seg.iter().enumerate() {
                            if needs_escape(b) {
                                out.extend_from_slice(&input[emitted..i + k]);
                                push_escaped(out, b);
                                emitted = i + k + 1;
                            }
                        }
                        self.rewritten = true;
                    }
                    self.line_len += seg.len();
                    i += seg.len();
                    match end {
                        None => {}
                        Some(p) if rest[p] == b' ' => {
                            i += 1;
                            self.line_len += 1;
                            self.state = State::Version;
                        }
                        // No version (HTTP/0.9): hyper rejects it.
                        Some(_) => self.state = State::PassThrough,
                    }
                }
                State::Version => {
                    let end = rest.iter().position(|&b| b == b'\n');
                    let seg = &rest[..end.unwrap_or(rest.len())];
                    if self.over_limit(seg) {
                        break;
                    }
                    append_capped(&mut self.version, &mut self.version_len, seg);
                    self.line_len += seg.len();
                    i += seg.len();
                    match end {
                        None => {}
                        Some(_) => {
                            i += 1;
                            self.end_request_line();
                        }
                    }
                }
                State::Header => i += self.headers(rest),
                State::Body(rem) => {
                    let n = usize::try_from(rem).unwrap_or(usize::MAX).min(rest.len());
                    i += n;
                    let rem = rem - n as u64;
                    self.state = if rem == 0 {
                        State::Start
                    } else {
                        State::Body(rem)
                    };
                }
                State::ChunkData(rem) => {
                    let n = usize::try_from(rem).unwrap_or(usize::MAX).min(rest.len());
                    i += n;
                    let rem = rem - n as u64;
                    self.state = if rem == 0 {
                        State::ChunkDataCr
                    } else {
                        State::ChunkData(rem)
                    };
                }
                State::ChunkExt => {
                    let end = rest.iter().position(|&b| b == b'\r' || b == b'\n');
                    let n = end.unwrap_or(rest.len());
                    self.ext_len += n;
                    i += n;
                    if self.ext_len > MAX_LINE {
                        self.state = State::PassThrough;
                    } else if let Some(p) = end {
                        i += 1;
                        // hyper rejects a bare LF in an extension.
                        self.state = if rest[p] == b'\r' {
                            State::ChunkSizeLf
                        } else {
                            State::PassThrough
                        };
                    }
                }
                State::TrailerLine => {
                    let end = rest.iter().position(|&b| b == b'\r');
                    i += end.map_or(rest.len(), |p| p + 1);
                    if end.is_some() {
                        self.state = State::TrailerLf;
                    }
                }
                _ => {
                    self.chunk_byte(rest[0]);
                    i += 1;
                }
            }
        }
        if dirty {
            out.extend_from_slice(&input[emitted..]);
        }
        dirty
    }

    /// Switches to pass-through if `seg` would make the request line too long.
    fn over_limit(&mut self, seg: &[u8]) -> bool {
        if self.line_len + seg.len() > MAX_LINE {
            self.state = State::PassThrough;
            // A request line this long makes the head larger than Node's
            // limit: Node answers 431, where hyper would say 414.
            self.raw.answer_bare(431);
        }
        self.state == State::PassThrough
    }

    /// The usual case, a whole request line in `rest` with a target that
    /// needs no escaping: follows it without copying anything and returns its
    /// length with the LF. `None` (nothing changed) leaves the line to the
    /// byte-wise states, which handle everything else. Inlined, as is
    /// [`Self::headers`]: a call's setup costs as much as a short line.
    #[inline(always)]
    fn request_line(&mut self, rest: &[u8]) -> Option<usize> {
        // Longer lines are the byte-wise states' to switch to pass-through.
        let rest = &rest[..rest.len().min(MAX_LINE + 1)];
        // The method ends at the first space; any other byte up to a space
        // (a CR, LF or control) is the byte-wise states' case.
        let m = find_in_words(rest, 32, below_space, |r| r.iter().position(|&b| b <= b' '))?;
        let method = &rest[..m];
        if rest[m] != b' ' || method == b"PRI" || method == b"CONNECT" {
            return None;
        }
        let t = m + 1;
        let v = t + find_in_words(&rest[t..], usize::MAX, target_stops, |_| None)? + 1;
        if rest[v - 1] != b' ' {
            return None;
        }
        // The version almost always is exactly this: no search for the LF,
        // and a fixed-size copy.
        let lf = if rest[v..].starts_with(b"HTTP/1.1\r\n") {
            self.version = *b"HTTP/1.1\r";
            self.version_len = 9;
            v + 9
        } else {
            let lf = v + find_byte(b'\n', &rest[v..])?;
            let version = &rest[v..lf];
            let n = version.len().min(self.version.len());
            self.version[..n].copy_from_slice(&version[..n]);
            self.version_len = n;
            lf
        };
        // A clean target: nothing to record, whatever an earlier request left
        // in `rewritten`.
        self.index += 1;
        self.state = State::Header;
        Some(lf + 1)
    }

    fn end_request_line(&mut self) {
        if self.rewritten {
            self.record_raw();
        }
        self.index += 1;
        self.state = State::Header;
    }

    /// Out of line: rare, and it would make every request line pay for the
    /// setup of a call it does not make.
    #[cold]
    fn record_raw(&mut self) {
        let raw = String::from_utf8_lossy(&self.target).into_owned();
        self.raw.push(self.index, raw);
    }

    /// Follows header lines in `rest` up to the end of the head; returns how
    /// many bytes it consumed.
    #[inline(always)]
    fn headers(&mut self, rest: &[u8]) -> usize {
        // Only the first line can be the rest of one split across reads:
        // `header` leaves a partial line only when it took all of `rest`.
        let mut pos = if !self.carry.is_empty() || self.skip_line {
            self.header(rest)
        } else {
            0
        };
        while matches!(self.state, State::Header) && pos < rest.len() {
            let line = &rest[pos..];
            if line.starts_with(b"\r\n") {
                self.end_head();
                pos += 2;
                continue;
            }
            // Other ends of the head, folded lines (and other lines starting
            // with a control) and the headers the framing depends on are
            // `header`'s; of any other line only its colon (hyper rejects a
            // line without one) and its end matter.
            let colon = match line[0] {
                ..=b' ' => None,
                _ => find_in_words(line, 32, colon_or_lf, |r| memchr::memchr2(b':', b'\n', r)),
            };
            let end = match colon {
                Some(c) if line[c] == b':' && !is_framing_header(&line[..c]) => {
                    find_byte(b'\n', &line[c..]).map(|p| c + p + 1)
                }
                _ => None,
            };
            pos += match end {
                Some(n) => n,
                None => self.header(line),
            };
        }
        pos
    }

    /// Follows the header line at the start of `rest`, which may be split
    /// across reads; returns how many bytes it consumed.
    fn header(&mut self, rest: &[u8]) -> usize {
        let Some(p) = find_byte(b'\n', rest) else {
            if !self.skip_line {
                self.carry.extend_from_slice(rest);
                if !self.may_matter(&self.carry) {
                    self.carry.clear();
                    self.skip_line = true;
                } else if self.carry.len() > MAX_LINE {
                    self.state = State::PassThrough;
                }
            }
            return rest.len();
        };
        if self.skip_line {
            self.skip_line = false;
        } else if self.carry.is_empty() {
            self.header_line(&rest[..p]);
        } else {
            let mut line = std::mem::take(&mut self.carry);
            line.extend_from_slice(&rest[..p]);
            self.header_line(&line);
            line.clear();
            self.carry = line;
        }
        p + 1
    }

    /// Whether the start of a header line may name a header the framing
    /// depends on (false only once the name is known to be another one), or
    /// is folded, which `header_line` must see as in one read.
    fn may_matter(&self, start: &[u8]) -> bool {
        if matches!(start.first(), Some(b' ' | b'\t')) {
            return true;
        }
        match find_byte(b':', start) {
            Some(c) => is_framing_header(&start[..c]),
            None => true,
        }
    }

    /// One complete header line, without its LF.
    fn header_line(&mut self, line: &[u8]) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            self.end_head();
            return;
        }
        // Obsolete line folding: hyper rejects it.
        if line[0] == b' ' || line[0] == b'\t' {
            self.state = State::PassThrough;
            return;
        }
        let Some(c) = find_byte(b':', line) else {
            self.state = State::PassThrough;
            return;
        };
        let name = &line[..c];
        if !is_framing_header(name) {
            return;
        }
        let value = trim_ows(&line[c + 1..]);
        if name.eq_ignore_ascii_case(b"content-length") {
            // As hyper: once Transfer-Encoding was seen, lengths are ignored.
            if self.te {
                return;
            }
            match from_digits(value) {
                Some(n) if self.content_length.is_none_or(|prev| prev == n) => {
                    self.content_length = Some(n);
                }
                _ => self.state = State::PassThrough,
            }
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            self.te = true;
            let last = value.rsplit(|&b| b == b',').next().unwrap_or_default();
            self.te_chunked = trim_ows(last).eq_ignore_ascii_case(b"chunked");
        } else {
            // Upgrade: what follows may be another protocol.
            self.state = State::PassThrough;
        }
    }

    fn end_head(&mut self) {
        self.state = if self.te {
            // hyper rejects Transfer-Encoding in HTTP/1.0 and non-final chunked.
            let version = &self.version[..self.version_len];
            let version = version.strip_suffix(b"\r").unwrap_or(version);
            if self.te_chunked && version != b"HTTP/1.0" {
                self.chunk_size = 0;
                State::ChunkSize(false)
            } else {
                State::PassThrough
            }
        } else {
            match self.content_length {
                Some(n) if n > 0 => State::Body(n),
                _ => State::Start,
            }
        };
    }

    /// One byte of chunked framing outside chunk data, extensions and trailer lines.
    fn chunk_byte(&mut self, b: u8) {
        self.state = match (self.state, b) {
            (State::ChunkSize(_), b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F') => {
                let digit = u64::from((b as char).to_digit(16).unwrap_or(0));
                match self.chunk_size.checked_mul(16) {
                    Some(n) => {
                        self.chunk_size = n + digit;
                        State::ChunkSize(true)
                    }
                    None => State::PassThrough,
                }
            }
            (State::ChunkSize(true) | State::ChunkSizeLws, b' ' | b'\t') => State::ChunkSizeLws,
            (State::ChunkSize(true) | State::ChunkSizeLws, b';') => State::ChunkExt,
            (State::ChunkSize(true) | State::ChunkSizeLws, b'\r') => State::ChunkSizeLf,
            (State::ChunkSizeLf, b'\n') if self.chunk_size == 0 => State::TrailerStart,
            (State::ChunkSizeLf, b'\n') => State::ChunkData(self.chunk_size),
            (State::ChunkDataCr, b'\r') => State::ChunkDataLf,
            (State::ChunkDataLf, b'\n') => {
                self.chunk_size = 0;
                State::ChunkSize(false)
            }
            (State::TrailerStart, b'\r') => State::EndLf,
            (State::TrailerStart, _) => State::TrailerLine,
            (State::TrailerLf, b'\n') => State::TrailerStart,
            (State::EndLf, b'\n') => State::Start,
            _ => State::PassThrough,
        };
    }
}

/// Whether the first empty line (CRLF or bare LF) of `rest`, the header
/// lines after a request line, ends exactly where `rest` does: the head is
/// then whole and nothing follows it in this read.
fn head_ends_at_end(rest: &[u8]) -> bool {
    let empty_line_end = |q: usize| match rest.get(q) {
        Some(b'\n') => Some(q + 1),
        Some(b'\r') if rest.get(q + 1) == Some(&b'\n') => Some(q + 2),
        _ => None,
    };
    let mut q = 0;
    loop {
        if let Some(end) = empty_line_end(q) {
            return end == rest.len();
        }
        match find_byte(b'\n', &rest[q..]) {
            Some(p) => q += p + 1,
            None => return false,
        }
    }
}

/// Inlined, and by length first: every header line of a head asks, and
/// almost none is one of these.
#[inline]
fn is_framing_header(name: &[u8]) -> bool {
    let framing: &[u8] = match name.len() {
        14 => b"content-length",
        17 => b"transfer-encoding",
        7 => b"upgrade",
        _ => return false,
    };
    name.eq_ignore_ascii_case(framing)
}

fn trim_ows(v: &[u8]) -> &[u8] {
    let start = v
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(v.len());
    let end = v
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(start, |e| e + 1);
    &v[start..end]
}

/// hyper's Content-Length syntax: digits only, no sign, no overflow.
fn from_digits(v: &[u8]) -> Option<u64> {
    if v.is_empty() {
        return None;
    }
    v.iter().try_fold(0u64, |n, &b| {
        b.is_ascii_digit()
            .then_some(())
            .and_then(|()| n.checked_mul(10)?.checked_add(u64::from(b - b'0')))
    })
}

/// Appends as much of `seg` as fits after `buf[..*len]`: the method and
/// version are only compared against short known values, so a prefix is enough.
fn append_capped(buf: &mut [u8], len: &mut usize, seg: &[u8]) {
    let n = seg.len().min(buf.len() - *len);
    buf[*len..*len + n].copy_from_slice(&seg[..n]);
    *len += n;
}
