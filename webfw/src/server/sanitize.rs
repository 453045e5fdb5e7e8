//! A read-side shim that lets request targets Node accepts get past hyper.
//!
//! Node's parser accepts `"` `<` `>` `\` `^` `` ` `` `{` `|` `}` in a request
//! target; hyper hands the target to `http::Uri`, which rejects them, and
//! answers a bare 400 before webfw runs. [`Sanitize`] wraps the connection
//! and percent-encodes exactly those bytes inside the request-target of every
//! HTTP/1.x request, following the message framing (head, then a body framed
//! by `Content-Length` or chunked encoding, then the next request). The raw
//! target is recorded in [`RawTargets`] so `req.originalUrl` shows what the
//! client sent, as in Express.
//!
//! Anything it cannot follow (the HTTP/2 preface, `CONNECT`, `Upgrade`, an
//! unparsable length, over-long lines) switches it to pass-through for the
//! rest of the connection: it never waits for bytes, never drops or reorders
//! them, and buffers at most the expansion of one read.
//!
//! A clean head that ends where its read ends (the usual request: one per
//! read) is not followed line by line: hyper parses it before it reads
//! again, and the service reports how hyper frames its body
//! ([`RawTargets::report`]), which the next read starts from.

use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};
use std::task::{Context, Poll, ready};

use crate::http::{find_byte, find_in_words, repeat, zero_bytes};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Longest request line, header line (of a header the shim must read) or
/// chunk extension it follows; longer ones switch to pass-through. hyper's
/// own read buffer is this size, so it rejects such heads anyway.
const MAX_LINE: usize = 64 * 1024;

/// hyper parses up to this many header lines per head on the stack; more
/// need its heap-allocated parser (see [`Sniffed::Http1`]).
pub(crate) const MANY_HEADER_LINES: usize = 100;

/// What a connection's first bytes say about its protocol.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Sniffed {
    /// The HTTP/2 preface.
    Http2,
    /// HTTP/1.x; `many_headers` when the first read holds more than
    /// [`MANY_HEADER_LINES`] lines, as a client sending the thousands of
    /// headers Node takes does.
    Http1 { many_headers: bool },
}

/// Runs the read shim's line-by-line scanner over `input`, fed in the
/// pieces `cuts` marks (offsets, in order), and returns what hyper would
/// read. For the fuzz target (`fuzz/`); not part of the API.
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
fn needs_escape(b: u8) -> bool {
    matches!(
        b,
        b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
    )
}

/// The bytes of a word (for [`find_in_words`]) that end a clean target in a
/// request line: a space, CR or LF, one of the nine escaped bytes, or one the
/// byte-wise states must look at (controls, `~`, DEL, non-ASCII).
fn target_stops(x: u64) -> u64 {
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
fn escape(raw: &str) -> String {
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

/// How hyper frames a request's body, as the service reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyFraming {
    /// No body.
    None,
    /// `Content-Length` bytes.
    Length(u64),
    /// Chunked transfer coding.
    Chunked,
    /// Not HTTP/1 after the head (an upgrade), or not known.
    Opaque,
}

impl BodyFraming {
    /// What hyper made of a request head: the body it will read, or an
    /// upgrade (hyper hands those an `OnUpgrade`).
    pub(crate) fn of(parts: &http::request::Parts, body: &hyper::body::Incoming) -> BodyFraming {
        if parts
            .extensions
            .get::<hyper::upgrade::OnUpgrade>()
            .is_some()
        {
            return BodyFraming::Opaque;
        }
        match http_body::Body::size_hint(body).exact() {
            Some(0) => BodyFraming::None,
            Some(n) => BodyFraming::Length(n),
            None => BodyFraming::Chunked,
        }
    }

    // hyper's longest body length is `u64::MAX - 2`: the two values above
    // are free for the other kinds.
    const CHUNKED: u64 = u64::MAX - 1;
    const OPAQUE: u64 = u64::MAX;

    fn encode(self) -> u64 {
        match self {
            BodyFraming::None => 0,
            BodyFraming::Length(n) => n.min(Self::CHUNKED - 1),
            BodyFraming::Chunked => Self::CHUNKED,
            BodyFraming::Opaque => Self::OPAQUE,
        }
    }

    fn decode(code: u64) -> BodyFraming {
        match code {
            0 => BodyFraming::None,
            Self::CHUNKED => BodyFraming::Chunked,
            Self::OPAQUE => BodyFraming::Opaque,
            n => BodyFraming::Length(n),
        }
    }
}

/// The raw targets of a connection's rewritten requests, shared between the
/// [`Sanitize`] reader (which records them) and the service (which takes them,
/// one call per request, in order); and the body framing of the last request
/// the service saw.
#[derive(Default)]
pub(crate) struct RawTargets {
    /// Set while `queue` is non-empty: the common case is one atomic load.
    any: AtomicBool,
    queue: Mutex<VecDeque<(u64, String)>>,
    /// How many requests the service has taken so far.
    served: AtomicU64,
    /// The request count `framing` belongs to (see [`RawTargets::report`]).
    framed: AtomicU64,
    /// A [`BodyFraming`], encoded.
    framing: AtomicU64,
    /// The status of a bare answer Node would give in place of the next
    /// response hyper writes (see `server/bare.rs`); 0 for none.
    bare: AtomicU16,
}

impl RawTargets {
    /// Asks for Node's bare answer with `status` (400 or 431) in place of
    /// the response hyper writes next; the connection closes after it.
    pub(crate) fn answer_bare(&self, status: u16) {
        self.bare.store(status, Ordering::Relaxed);
    }

    /// The bare answer asked for, or 0.
    #[inline]
    pub(crate) fn bare(&self) -> u16 {
        self.bare.load(Ordering::Relaxed)
    }

    fn push(&self, index: u64, raw: String) {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.push_back((index, raw));
        self.any.store(true, Ordering::Release);
    }

    /// Called once per request, in order: the raw target of this request if
    /// the shim rewrote it into `target` (the target hyper parsed).
    pub(crate) fn next(&self, target: impl FnOnce() -> String) -> Option<String> {
        let index = self.served.fetch_add(1, Ordering::Relaxed);
        if !self.any.load(Ordering::Acquire) {
            return None;
        }
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        while q.front().is_some_and(|(i, _)| *i < index) {
            q.pop_front();
        }
        let raw = match q.front() {
            Some((i, _)) if *i == index => q.pop_front().map(|(_, raw)| raw),
            _ => None,
        };
        self.any.store(!q.is_empty(), Ordering::Release);
        drop(q);
        // Should the counts ever disagree, the raw target of another request
        // must not leak in: it is used only if it is what hyper parsed.
        raw.filter(|raw| escape(raw) == target())
    }

    /// Called by the service after [`RawTargets::next`]: how hyper frames
    /// the body of the request just taken.
    pub(crate) fn report(&self, framing: BodyFraming) {
        self.report_for(self.served.load(Ordering::Relaxed), framing);
    }

    /// The framing of the `count`th request (counting from 1).
    fn report_for(&self, count: u64, framing: BodyFraming) {
        self.framing.store(framing.encode(), Ordering::Relaxed);
        self.framed.store(count, Ordering::Release);
    }

    /// The reported framing of the `count`th request; `Opaque` when the
    /// report is of another request (counts out of step: stop rewriting).
    fn framing_of(&self, count: u64) -> BodyFraming {
        if self.framed.load(Ordering::Acquire) != count {
            return BodyFraming::Opaque;
        }
        BodyFraming::decode(self.framing.load(Ordering::Relaxed))
    }
}

/// Where the scanner is in the HTTP/1 byte stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
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
struct Scanner {
    state: State,
    raw: std::sync::Arc<RawTargets>,
    /// Index of the current request on the connection.
    index: u64,
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
    carry: Vec<u8>,
    /// The current header line was found irrelevant: skip to its end.
    skip_line: bool,
    content_length: Option<u64>,
    te: bool,
    te_chunked: bool,
    chunk_size: u64,
    ext_len: usize,
    /// Leave heads that end with their read to hyper ([`State::Framing`]);
    /// off only for tests of the line-by-line states.
    defer: bool,
    /// The last read was one whole head and nothing more (see [`Sanitize::batched`]).
    lone: bool,
}

impl Scanner {
    fn new(raw: std::sync::Arc<RawTargets>) -> Scanner {
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
    fn feed(&mut self, input: &[u8], out: &mut Vec<u8>) -> bool {
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

/// A connection stream whose request targets get the bytes `http::Uri`
/// rejects percent-encoded (see the module docs). Writes pass straight through.
pub(crate) struct Sanitize<I> {
    inner: I,
    scan: Scanner,
    /// Rewritten bytes that did not fit the caller's buffer.
    pending: Vec<u8>,
    pending_pos: usize,
}

impl<I> Sanitize<I> {
    /// Wraps `inner`, recording rewritten targets in `raw`.
    pub(crate) fn new(inner: I, raw: std::sync::Arc<RawTargets>) -> Sanitize<I> {
        Sanitize {
            inner,
            scan: Scanner::new(raw),
            pending: Vec::new(),
            pending_pos: 0,
        }
    }

    /// Reads the connection's first bytes, until they either are the HTTP/2
    /// preface (a client with prior knowledge) or cannot be, and tells which
    /// protocol follows. The bytes read are kept for the next reads, so
    /// choosing this way costs nothing per request.
    pub(crate) async fn sniff(&mut self) -> io::Result<Sniffed>
    where
        I: AsyncRead + Unpin,
    {
        const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
        let mut seen: Vec<u8> = Vec::new();
        loop {
            let n = seen.len().min(PREFACE.len());
            if seen[..n] != PREFACE[..n] {
                break;
            }
            if n == PREFACE.len() {
                self.keep(seen);
                return Ok(Sniffed::Http2);
            }
            // The read goes to the stack and only what came is kept: a
            // connection waiting for its first bytes holds no buffer.
            let read = std::future::poll_fn(|cx| {
                let mut stack = [0u8; 8 * 1024];
                let mut buf = ReadBuf::new(&mut stack);
                ready!(Pin::new(&mut *self).poll_read(cx, &mut buf))?;
                seen.extend_from_slice(buf.filled());
                Poll::Ready(Ok::<_, io::Error>(buf.filled().len()))
            })
            .await?;
            if read == 0 {
                break;
            }
        }
        let lines = memchr::memchr_iter(b'\n', &seen).count();
        self.keep(seen);
        Ok(Sniffed::Http1 {
            many_headers: lines > MANY_HEADER_LINES,
        })
    }

    /// Queues bytes that were read (and scanned) ahead of the caller.
    fn keep(&mut self, mut bytes: Vec<u8>) {
        bytes.extend_from_slice(&self.pending[self.pending_pos..]);
        bytes.shrink_to_fit();
        self.pending = bytes;
        self.pending_pos = 0;
    }

    /// Whether the last read held more than one whole request head and
    /// nothing else, on a connection still followed: hyper then has more to
    /// answer before it reads again ([`super::coalesce`]).
    pub(crate) fn batched(&self) -> bool {
        !self.scan.lone && self.scan.state != State::PassThrough
    }

    fn drain_pending(&mut self, buf: &mut ReadBuf<'_>) {
        let n = buf.remaining().min(self.pending.len() - self.pending_pos);
        buf.put_slice(&self.pending[self.pending_pos..self.pending_pos + n]);
        self.pending_pos += n;
        if self.pending_pos == self.pending.len() {
            self.pending.clear();
            self.pending_pos = 0;
        }
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for Sanitize<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.pending.is_empty() {
            this.drain_pending(buf);
            return Poll::Ready(Ok(()));
        }
        if this.scan.state == State::PassThrough {
            return Pin::new(&mut this.inner).poll_read(cx, buf);
        }
        let start = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        // The bytes just read are rewritten in place only when needed: the
        // expanded form goes through `pending`, whose excess stays for the
        // next call.
        if this.scan.feed(&buf.filled()[start..], &mut this.pending) {
            buf.set_filled(start);
            this.drain_pending(buf);
        }
        Poll::Ready(Ok(()))
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Sanitize<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// Appends as much of `seg` as fits after `buf[..*len]`: the method and
/// version are only compared against short known values, so a prefix is enough.
fn append_capped(buf: &mut [u8], len: &mut usize, seg: &[u8]) {
    let n = seg.len().min(buf.len() - *len);
    buf[*len..*len + n].copy_from_slice(&seg[..n]);
    *len += n;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::sync::Arc;
    use tokio::io::AsyncReadExt;

    const GET: &[u8] = b"GET /a<b>?q={x} HTTP/1.1\r\nHost: h\r\n\r\n";
    const GET_OUT: &[u8] = b"GET /a%3Cb%3E?q=%7Bx%7D HTTP/1.1\r\nHost: h\r\n\r\n";
    const POST_LEN: &[u8] =
        b"POST /p|q HTTP/1.1\r\nHost: h\r\ncontent-length:  12 \r\n\r\n<x> GET /<\r\n";
    const POST_LEN_OUT: &[u8] =
        b"POST /p%7Cq HTTP/1.1\r\nHost: h\r\ncontent-length:  12 \r\n\r\n<x> GET /<\r\n";
    const POST_CHUNKED: &[u8] =
        b"POST /c^ HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n\
        5;ext=\"a<b\"\r\nab<cd\r\n3 ; x=y\r\n<>`\r\n0\r\nX-T: <v>\r\n\r\n";
    const POST_CHUNKED_OUT: &[u8] =
        b"POST /c%5E HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n\
        5;ext=\"a<b\"\r\nab<cd\r\n3 ; x=y\r\n<>`\r\n0\r\nX-T: <v>\r\n\r\n";
    const LAST: &[u8] = b"\r\nGET /l`\"\\ HTTP/1.1\r\nHost: h\r\n\r\n";
    const LAST_OUT: &[u8] = b"\r\nGET /l%60%22%5C HTTP/1.1\r\nHost: h\r\n\r\n";

    fn pipelined() -> (Vec<u8>, Vec<u8>) {
        let input = [GET, POST_LEN, POST_CHUNKED, LAST].concat();
        let output = [GET_OUT, POST_LEN_OUT, POST_CHUNKED_OUT, LAST_OUT].concat();
        (input, output)
    }

    fn raw_list(raw: &RawTargets) -> Vec<(u64, String)> {
        raw.queue.lock().unwrap().iter().cloned().collect()
    }

    /// Feeds `input` to a scanner in the given pieces, as hyper reads them;
    /// returns the output. Where the scanner leaves a head to hyper, the
    /// service's report is simulated: the framing a scanner following every
    /// line gives the same bytes.
    fn feed_split(input: &[u8], cuts: &[usize], raw: Arc<RawTargets>) -> (Vec<u8>, Scanner) {
        let mut scan = Scanner::new(raw.clone());
        let mut output = Vec::new();
        let mut from = 0;
        for &cut in cuts.iter().chain(std::iter::once(&input.len())) {
            let piece = &input[from..cut];
            let mut out = Vec::new();
            if scan.feed(piece, &mut out) {
                output.extend_from_slice(&out);
            } else {
                assert!(out.is_empty());
                output.extend_from_slice(piece);
            }
            if scan.state == State::Framing {
                raw.report_for(scan.index, line_by_line_framing(&input[..cut]));
            }
            from = cut;
        }
        // The next read would start from the report.
        if scan.state == State::Framing {
            assert!(!scan.feed(&[], &mut Vec::new()));
        }
        (output, scan)
    }

    /// The framing a scanner that follows every line gives the head that
    /// ends `input`.
    fn line_by_line_framing(input: &[u8]) -> BodyFraming {
        let mut scan = Scanner::new(Arc::default());
        scan.defer = false;
        scan.feed(input, &mut Vec::new());
        match scan.state {
            State::Start => BodyFraming::None,
            State::Body(n) => BodyFraming::Length(n),
            State::ChunkSize(false) => BodyFraming::Chunked,
            _ => BodyFraming::Opaque,
        }
    }

    #[test]
    fn a_head_that_ends_its_read_is_left_to_hyper_and_the_report() {
        let head = b"GET /clean HTTP/1.1\r\nHost: h\r\n\r\n";
        let feed = |scan: &mut Scanner, input: &[u8]| {
            let mut out = Vec::new();
            if scan.feed(input, &mut out) {
                out
            } else {
                input.to_vec()
            }
        };
        let cases = [
            (BodyFraming::None, &b""[..], &b""[..]),
            (BodyFraming::Length(3), b"<{>", b"<{>"),
            (
                BodyFraming::Chunked,
                b"3\r\n<{>\r\n0\r\n\r\n",
                b"3\r\n<{>\r\n0\r\n\r\n",
            ),
        ];
        for (framing, body, body_out) in cases {
            let raw = Arc::new(RawTargets::default());
            let mut scan = Scanner::new(raw.clone());
            assert_eq!(feed(&mut scan, head), head);
            assert_eq!(scan.state, State::Framing);
            raw.report_for(1, framing);
            let next = [body, GET].concat();
            assert_eq!(
                feed(&mut scan, &next),
                [body_out, GET_OUT].concat(),
                "{framing:?}"
            );
            assert_eq!(scan.state, State::Start);
        }
        // No report for this head (or one for another request), or an
        // upgrade: nothing after it is rewritten.
        for report in [
            None,
            Some((2, BodyFraming::None)),
            Some((1, BodyFraming::Opaque)),
        ] {
            let raw = Arc::new(RawTargets::default());
            let mut scan = Scanner::new(raw.clone());
            feed(&mut scan, head);
            if let Some((count, framing)) = report {
                raw.report_for(count, framing);
            }
            assert_eq!(feed(&mut scan, GET), GET);
            assert_eq!(scan.state, State::PassThrough);
        }
        // Only a head that ends exactly with the read, at its first empty line.
        for input in [
            &b"GET / HTTP/1.1\r\nHost: h\r\n\r\nX"[..],
            b"GET / HTTP/1.1\r\nHost: h\n\nX: y\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: h\r\n",
            b"GET / HTTP/1.1\r\nHost: h\r\n\r",
        ] {
            let mut scan = Scanner::new(Arc::default());
            feed(&mut scan, input);
            assert_ne!(
                scan.state,
                State::Framing,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
        for input in [&b"GET / HTTP/1.1\r\n\r\n"[..], b"GET / HTTP/1.0\nA: b\n\n"] {
            let mut scan = Scanner::new(Arc::default());
            feed(&mut scan, input);
            assert_eq!(
                scan.state,
                State::Framing,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn pipelined_requests_split_at_every_byte_boundary() {
        let (input, expected) = pipelined();
        let want = vec![
            (0, "/a<b>?q={x}".to_owned()),
            (1, "/p|q".to_owned()),
            (2, "/c^".to_owned()),
            (3, "/l`\"\\".to_owned()),
        ];
        for cut in 0..=input.len() {
            let raw = Arc::new(RawTargets::default());
            let (out, scan) = feed_split(&input, &[cut], raw.clone());
            assert_eq!(out, expected, "cut at {cut}");
            assert_eq!(scan.state, State::Start, "cut at {cut}");
            assert_eq!(scan.index, 4);
            assert_eq!(raw_list(&raw), want, "cut at {cut}");
        }
        // And one byte at a time.
        let raw = Arc::new(RawTargets::default());
        let cuts: Vec<usize> = (1..input.len()).collect();
        let (out, scan) = feed_split(&input, &cuts, raw.clone());
        assert_eq!(out, expected);
        assert_eq!(scan.state, State::Start);
        assert_eq!(raw_list(&raw), want);
    }

    #[test]
    fn service_takes_raw_targets_in_order_and_checks_them() {
        let raw = Arc::new(RawTargets::default());
        let (input, _) = pipelined();
        let _ = feed_split(&input, &[], raw.clone());
        assert_eq!(
            raw.next(|| "/a%3Cb%3E?q=%7Bx%7D".into()).as_deref(),
            Some("/a<b>?q={x}")
        );
        // A mismatch (counts out of step) yields nothing rather than a wrong target.
        assert_eq!(raw.next(|| "/other".into()), None);
        assert_eq!(raw.next(|| "/c%5E".into()).as_deref(), Some("/c^"));
        assert!(raw.any.load(Ordering::Relaxed));
        assert_eq!(
            raw.next(|| "/l%60%22%5C".into()).as_deref(),
            Some("/l`\"\\")
        );
        assert!(!raw.any.load(Ordering::Relaxed));
        assert_eq!(raw.next(|| "/".into()), None);
    }

    #[test]
    fn a_clean_request_after_a_rewritten_one_records_no_raw_target() {
        let dirty = b"GET /d{x} HTTP/1.1\r\nHost: h\r\n\r\n";
        let clean = b"GET /c HTTP/1.1\r\nHost: h\r\n\r\n";
        let input = [&dirty[..], clean, clean].concat();
        // In one read, and with each request in a read of its own.
        for cuts in [vec![], vec![dirty.len(), dirty.len() + clean.len()]] {
            let raw = Arc::new(RawTargets::default());
            let _ = feed_split(&input, &cuts, raw.clone());
            assert_eq!(
                raw_list(&raw),
                vec![(0, "/d{x}".to_owned())],
                "cuts {cuts:?}"
            );
        }
    }

    #[test]
    fn chunk_extensions_are_counted_per_request() {
        let one = b"POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\
            1;ext=abc\r\nx\r\n0\r\n\r\n";
        let input = [&one[..], one, one].concat();
        let (_, scan) = feed_split(&input, &[], Arc::default());
        assert_eq!(scan.state, State::Start);
        assert_eq!(scan.ext_len, "ext=abc".len());
    }

    #[test]
    fn clean_requests_are_not_copied() {
        let input = b"GET /plain?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n<<<";
        let raw = Arc::new(RawTargets::default());
        let mut scan = Scanner::new(raw.clone());
        let mut out = Vec::new();
        assert!(!scan.feed(input, &mut out));
        assert!(out.is_empty());
        assert_eq!(scan.state, State::Start);
        assert!(!raw.any.load(Ordering::Relaxed));
    }

    #[test]
    fn http2_preface_passes_through() {
        let mut input = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
        input.extend_from_slice(b"\x00\x00\x12\x04GET /<x> HTTP/1.1\r\n\r\n");
        for cut in 0..=input.len() {
            let (out, scan) = feed_split(&input, &[cut], Arc::new(RawTargets::default()));
            assert_eq!(out, input);
            assert_eq!(scan.state, State::PassThrough);
        }
    }

    #[test]
    fn what_it_cannot_follow_switches_to_pass_through() {
        let next = b"GET /<x> HTTP/1.1\r\n\r\n";
        let cases: [&[u8]; 8] = [
            b"GET / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n",
            b"GET / HTTP/1.1\r\nContent-Length: +1\r\n\r\n",
            b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            b"GET / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n",
            b"CONNECT h:1 HTTP/1.1\r\n\r\n",
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
            b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        ];
        for case in cases {
            let input = [case, next].concat();
            let (out, scan) = feed_split(&input, &[], Arc::new(RawTargets::default()));
            assert_eq!(out, input, "{}", String::from_utf8_lossy(case));
            assert_eq!(scan.state, State::PassThrough);
        }
        let mut long = b"GET /".to_vec();
        long.resize(MAX_LINE + 10, b'a');
        long.extend_from_slice(b"<");
        let (out, scan) = feed_split(&long, &[100, 60_000], Arc::new(RawTargets::default()));
        assert!(out == long);
        assert_eq!(scan.state, State::PassThrough);
    }

    #[test]
    fn long_unrelated_header_lines_are_not_buffered() {
        let mut input = b"GET /<x> HTTP/1.1\r\nX-Big: ".to_vec();
        input.resize(200_000, b'b');
        input.extend_from_slice(b"\r\nContent-Length: 2\r\n\r\n<>GET /> HTTP/1.1\r\n\r\n");
        let cuts: Vec<usize> = (1..input.len() / 1000).map(|k| k * 1000).collect();
        let (out, scan) = feed_split(&input, &cuts, Arc::new(RawTargets::default()));
        assert!(scan.carry.capacity() < 1000);
        assert_eq!(scan.state, State::Start);
        let expected = String::from_utf8(input)
            .unwrap()
            .replacen("/<x>", "/%3Cx%3E", 1);
        let expected = expected.replacen("/> HTTP", "/%3E HTTP", 1);
        assert!(out == expected.as_bytes());
    }

    /// Yields its chunks one read at a time.
    struct Chunks(VecDeque<Vec<u8>>);

    impl AsyncRead for Chunks {
        fn poll_read(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            if let Some(mut chunk) = this.0.pop_front() {
                let n = chunk.len().min(buf.remaining());
                buf.put_slice(&chunk[..n]);
                if n < chunk.len() {
                    this.0.push_front(chunk.split_off(n));
                }
            }
            Poll::Ready(Ok(()))
        }
    }

    async fn read_all<R: AsyncRead + Unpin>(mut r: R, size: usize) -> Vec<u8> {
        let mut all = Vec::new();
        let mut buf = vec![0; size];
        loop {
            let n = r.read(&mut buf).await.unwrap();
            if n == 0 {
                return all;
            }
            all.extend_from_slice(&buf[..n]);
        }
    }

    #[tokio::test]
    async fn small_caller_buffers_get_the_expansion_through_pending() {
        let (input, expected) = pipelined();
        for size in [1, 2, 3, 5, 64] {
            for chunk in [1, 7, input.len()] {
                let chunks = input.chunks(chunk).map(<[u8]>::to_vec).collect();
                let raw = Arc::new(RawTargets::default());
                let io = Sanitize::new(Chunks(chunks), raw.clone());
                assert_eq!(
                    read_all(io, size).await,
                    expected,
                    "buf {size} chunk {chunk}"
                );
                assert_eq!(raw_list(&raw).len(), 4);
            }
        }
        // A target made only of escaped bytes: every read overflows.
        let input = b"GET /<<<<<<<<<<<<<<<< HTTP/1.1\r\n\r\n";
        let io = Sanitize::new(Chunks(VecDeque::from([input.to_vec()])), Arc::default());
        let out = read_all(io, 4).await;
        assert_eq!(
            out,
            [&b"GET /"[..], &b"%3C".repeat(16), b" HTTP/1.1\r\n\r\n"].concat()
        );
    }

    #[tokio::test]
    async fn sniffing_the_preface_keeps_every_byte_for_the_reader() {
        const HTTP1: Sniffed = Sniffed::Http1 {
            many_headers: false,
        };
        let preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x12".to_vec();
        let (http1, http1_out) = pipelined();
        for chunk in [1, 5, 23, 24, 4096] {
            let chunks = preface.chunks(chunk).map(<[u8]>::to_vec).collect();
            let mut io = Sanitize::new(Chunks(chunks), Arc::default());
            assert_eq!(io.sniff().await.unwrap(), Sniffed::Http2, "chunk {chunk}");
            assert_eq!(read_all(io, 7).await, preface, "chunk {chunk}");

            let chunks = http1.chunks(chunk).map(<[u8]>::to_vec).collect();
            let raw = Arc::new(RawTargets::default());
            let mut io = Sanitize::new(Chunks(chunks), raw.clone());
            assert_eq!(io.sniff().await.unwrap(), HTTP1, "chunk {chunk}");
            assert_eq!(read_all(io, 7).await, http1_out, "chunk {chunk}");
            assert_eq!(raw_list(&raw).len(), 4);
        }
        // A method that starts like the preface, and a client that closes early.
        for input in [&b"PRIVATE / HTTP/1.1\r\n\r\n"[..], b"PRI * HT"] {
            let mut io = Sanitize::new(Chunks(VecDeque::from([input.to_vec()])), Arc::default());
            assert_eq!(io.sniff().await.unwrap(), HTTP1);
            assert_eq!(read_all(io, 64).await, input);
        }
        // A first read with more header lines than hyper parses on the stack.
        let mut many = b"GET / HTTP/1.1\r\n".to_vec();
        for k in 0..MANY_HEADER_LINES {
            many.extend_from_slice(format!("x-{k}: v\r\n").as_bytes());
        }
        many.extend_from_slice(b"\r\n");
        let mut io = Sanitize::new(Chunks(VecDeque::from([many.clone()])), Arc::default());
        let sniffed = io.sniff().await.unwrap();
        assert_eq!(sniffed, Sniffed::Http1 { many_headers: true });
        assert_eq!(read_all(io, 64).await, many);
    }

    #[test]
    fn whole_heads_in_one_read_take_the_fast_path_like_the_split_ones() {
        let browser = b"GET /page?x=1 HTTP/1.1\r\nHost: h\r\nUser-Agent: u\r\n\
            Accept: text/html\r\nAccept-Language: en\r\nAccept-Encoding: gzip\r\n\
            Connection: keep-alive\r\nCookie: a=b\r\nUpgrade-Insecure-Requests: 1\r\n\
            Cache-Control: max-age=0\r\nTE: trailers\r\n\r\n";
        let mixed = b"POST /m HTTP/1.1\r\nX-A: 1\r\ncOnTeNt-LeNgTh: 4\r\n\r\n<{}>";
        let chunked = b"POST /t HTTP/1.1\r\ntRaNsFeR-eNcOdInG: chunked\r\n\r\n2\r\n<>\r\n0\r\n\r\n";
        let bare_lf = b"GET /b HTTP/1.0\nHost: h\n\n";
        let input = [&browser[..], mixed, chunked, bare_lf, GET].concat();
        let expected = [&browser[..], mixed, chunked, bare_lf, GET_OUT].concat();
        for cut in 0..=input.len() {
            let raw = Arc::new(RawTargets::default());
            let (out, scan) = feed_split(&input, &[cut], raw.clone());
            assert_eq!(out, expected, "cut at {cut}");
            assert_eq!(scan.state, State::Start, "cut at {cut}");
            assert_eq!(scan.index, 5);
            assert_eq!(raw_list(&raw), vec![(4, "/a<b>?q={x}".to_owned())]);
        }
        // The length header is honoured in any case: the body is not a request.
        let (_, scan) = feed_split(mixed, &[], Arc::default());
        assert_eq!(scan.state, State::Start);
        let (_, scan) = feed_split(&mixed[..mixed.len() - 1], &[], Arc::default());
        assert_eq!(scan.state, State::Body(1));
        // Malformed and framing-relevant lines still switch to pass-through.
        let cases: [&[u8]; 3] = [
            b"GET / HTTP/1.1\r\nX-No-Colon\r\n\r\n",
            b"GET / HTTP/1.1\r\nX-A: 1\r\n folded\r\n\r\n",
            b"GET / HTTP/1.1\r\nuPgRaDe: h2c\r\n\r\n",
        ];
        for case in cases {
            let input = [case, GET].concat();
            let (out, scan) = feed_split(&input, &[], Arc::default());
            assert_eq!(out, input, "{}", String::from_utf8_lossy(case));
            assert_eq!(scan.state, State::PassThrough);
        }
    }

    /// What the scanner made of `input`: the bytes hyper would read, the
    /// state, the request count and the raw targets recorded.
    fn outcome(input: &[u8], cuts: &[usize]) -> (Vec<u8>, State, u64, Vec<(u64, String)>) {
        let raw = Arc::new(RawTargets::default());
        let (out, scan) = feed_split(input, cuts, raw.clone());
        (out, scan.state, scan.index, raw_list(&raw))
    }

    #[test]
    fn the_word_at_a_time_paths_agree_with_the_byte_wise_states() {
        let long_name = format!("X-{}: v\r\n", "n".repeat(40));
        let header_lines: [&[u8]; 10] = [
            long_name.as_bytes(),
            b"X-Lf-Before-Colon\r\nY: 1:2\r\n",
            b"X-Abcdefghijklmn\nZ: 1\r\n",
            b"Connection: close\r\nContent-Type: a/b\r\nCookie: a=b\r\nCache-Control: x\r\n",
            // The lengths of the framing headers' names, and near misses.
            b"Content-Lengtx: 1\r\nUpgradx: 1\r\nTransfer-Encodinx: chunked\r\n",
            b"Content-Length : 3\r\nX: y\r\n",
            b"X: y\r\ncontent-length: 3\r\n",
            b"TE: trailers\r\nTransfer-Encoding: chunked\r\nUpgrade: h2c\r\n",
            b"X-A: 1\r\n X-B: 2\r\n\tX-C: 3\r\n",
            b"\x01X: y\r\nX-D: \x01\r\n",
        ];
        // Header lines get a request line and an end.
        let mut heads: Vec<Vec<u8>> = header_lines
            .iter()
            .map(|h| [&b"GET /{} HTTP/1.1\r\n"[..], h, b"\r\n"].concat())
            .collect();
        heads.extend([
            format!("GET /{}?q=1 HTTP/1.1\r\n\r\n", "t".repeat(40)).into_bytes(),
            b"GET /a\tb HTTP/1.1\r\n\r\n".to_vec(),
            b"GET /~user/\xc3\xa9?x=\x7f HTTP/1.1\r\n\r\n".to_vec(),
            b"GET /\x1c\x1e HTTP/1.1\r\n\r\n".to_vec(),
            b"G\tET / HTTP/1.1\r\n\r\n".to_vec(),
            b"GET / HTTP/1.0\r\n\r\n".to_vec(),
        ]);
        // Every byte the target scan stops at, at every offset of a word.
        for b in [b' ', b'"', b'<', b'>', b'\\', b'^', b'`', b'{', b'|', b'}'] {
            for k in 0..17 {
                let mut line = b"GET /".to_vec();
                line.extend(std::iter::repeat_n(b'a', k));
                line.push(b);
                line.extend_from_slice(b"z?q=1 HTTP/1.1\r\n\r\n");
                heads.push(line);
            }
        }
        // Methods of every length around a word.
        for k in 1..12 {
            heads.push([&b"M".repeat(k)[..], b" /<> HTTP/1.1\r\nA: b\r\n\r\n"].concat());
        }
        for head in heads {
            let input = [&head[..], GET].concat();
            let bytewise: Vec<usize> = (1..input.len()).collect();
            let want = outcome(&input, &bytewise);
            let text = String::from_utf8_lossy(&input);
            assert_eq!(outcome(&input, &[]), want, "{text}");
            for cut in 1..input.len() {
                assert_eq!(outcome(&input, &[cut]), want, "{text} cut at {cut}");
            }
        }
    }

    #[test]
    fn target_stops_flags_exactly_the_first_stop_byte() {
        let clean = u64::from_le_bytes([b'a'; 8]);
        for b in 0..=255u8 {
            let stop = b <= b' ' || b > b'z' || needs_escape(b);
            for lane in 0..8 {
                // Anything may follow; only the lowest flag counts.
                for above in [b'a', b'<', 0xff] {
                    let mut w = [b'a'; 8];
                    w[lane] = b;
                    w[lane + 1..].fill(above);
                    let m = target_stops(u64::from_le_bytes(w));
                    let first = (m != 0).then(|| m.trailing_zeros() as usize / 8);
                    if stop {
                        assert_eq!(first, Some(lane), "{b:#x} in lane {lane}");
                    } else {
                        assert!(first.is_none_or(|f| f > lane), "{b:#x} in lane {lane}");
                    }
                }
            }
        }
        assert_eq!(target_stops(clean), 0);
    }

    #[test]
    fn escape_matches_the_shim() {
        assert_eq!(escape("/a\"<>\\^`{|}b"), "/a%22%3C%3E%5C%5E%60%7B%7C%7Db");
    }
}
