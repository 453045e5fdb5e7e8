//! The built-in tokens of morgan 1.12, as functions of `(cx, req, res)`.
//!
//! Both paths call exactly these functions: a format compiled at run time
//! dispatches to them through its pieces, and `logger!` expands to direct
//! calls of them. Each returns a [`Val`]; [`Line::push`] applies morgan's
//! rules to it (a missing or empty value prints `-`; text is escaped).

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::OnceLock;
use std::time::{Instant, SystemTime};

use http::{HeaderMap, HeaderName, HeaderValue};
use webfw_pattern::logfmt::DateFormat;

use super::clock::{self, SmallStr};
use crate::request::Request;
use crate::response::Response;

/// What morgan keeps on `req`/`res` for one request: when the logger saw the
/// request (`req._startAt`) and when the head was written (`res._startAt`).
/// `now` fixes the clock for tests; normally the tokens read the clock.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Cx {
    /// When the request entered the logger.
    pub start: Option<Instant>,
    /// When the response head was written.
    pub head: Option<Instant>,
    /// A fixed "now" (wall clock, monotonic) instead of the real clocks.
    pub now: Option<(SystemTime, Instant)>,
}

impl Cx {
    fn wall(&self) -> SystemTime {
        self.now.map_or_else(SystemTime::now, |n| n.0)
    }
    fn mono(&self) -> Instant {
        self.now.map_or_else(Instant::now, |n| n.1)
    }
}

/// A token's value before morgan's rules are applied.
#[doc(hidden)]
pub enum Val<'a> {
    /// `undefined`: prints `-`.
    Missing,
    /// Text that needs no escaping (digits, dates, method names).
    Safe(&'a str),
    /// Short text that needs no escaping, held inline.
    SafeSmall(SmallStr),
    /// Text from the request or response: escaped.
    Text(Cow<'a, str>),
    /// A request header's bytes, read as Latin-1 (as Node does): escaped.
    Latin1(&'a [u8]),
    /// A response header's bytes, read as UTF-8 when valid, else Latin-1:
    /// escaped.
    Utf8OrLatin1(&'a [u8]),
}

impl Val<'_> {
    /// The value as morgan's (escaping) token wrapper returns it.
    pub(crate) fn into_string(self) -> Option<String> {
        let mut out = Vec::new();
        match self {
            Val::Missing => return None,
            Val::Safe(s) => out.extend_from_slice(s.as_bytes()),
            Val::SafeSmall(s) => out.extend_from_slice(s.as_bytes()),
            Val::Text(t) => escape_into(&mut out, &t),
            Val::Latin1(b) => escape_bytes(&mut out, b, latin1),
            Val::Utf8OrLatin1(b) => escape_bytes(&mut out, b, utf8_or_latin1),
        }
        Some(utf8(out))
    }

    /// Whether the value is an empty string (which prints `-`).
    fn is_empty(&self) -> bool {
        match self {
            Val::Missing => false,
            Val::Safe(s) => s.is_empty(),
            Val::SafeSmall(s) => s.as_bytes().is_empty(),
            Val::Text(t) => t.is_empty(),
            Val::Latin1(b) | Val::Utf8OrLatin1(b) => b.is_empty(),
        }
    }
}

/// Bytes built only from `&str`s, ASCII and escaped text, as a `String`.
fn utf8(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Lines up to this long are built in place (see [`Line`]).
const INLINE: usize = 1024;

/// The line being built: bytes, so that text known to be UTF-8 (inline
/// digits and dates, header bytes checked to be plain ASCII) is appended
/// without being validated again. It is built in a fixed array, where an
/// append costs a bounds check instead of a `Vec`'s capacity check and
/// pointer loads; a longer line, or one with a value to escape, moves to
/// `spill` and continues there.
#[doc(hidden)]
pub struct Line {
    /// The line while `len <= INLINE`. Always UTF-8 up to `len`.
    buf: [u8; INLINE],
    /// `INLINE + 1` once the line is in `spill` (so that every range of
    /// `buf` from `len` is out of bounds).
    len: usize,
    spill: Vec<u8>,
}

impl Default for Line {
    fn default() -> Line {
        Line::new()
    }
}

impl Line {
    /// An empty line.
    pub const fn new() -> Line {
        Line {
            buf: [0; INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline(always)]
    fn bytes(&mut self, s: &[u8]) {
        match self.buf.get_mut(self.len..self.len + s.len()) {
            Some(dst) => {
                dst.copy_from_slice(s);
                self.len += s.len();
            }
            None => self.spilled().extend_from_slice(s),
        }
    }

    /// [`bytes`](Self::bytes) for text that is usually short (a method, a
    /// url, a header value): up to 16 bytes are copied as two overlapping
    /// fixed-size pieces, which costs less than a `memcpy` call.
    #[inline(always)]
    fn short(&mut self, s: &[u8]) {
        let n = s.len();
        let Some(dst) = self.buf.get_mut(self.len..self.len + 16) else {
            return self.bytes(s);
        };
        if (8..=16).contains(&n) {
            dst[..8].copy_from_slice(&s[..8]);
            dst[n - 8..n].copy_from_slice(&s[n - 8..]);
        } else if (4..8).contains(&n) {
            dst[..4].copy_from_slice(&s[..4]);
            dst[n - 4..n].copy_from_slice(&s[n - 4..]);
        } else if (1..4).contains(&n) {
            dst[0] = s[0];
            dst[n / 2] = s[n / 2];
            dst[n - 1] = s[n - 1];
        } else if n > 0 {
            return self.bytes(s);
        }
        self.len += n;
    }

    /// The line so far in `spill` (moved there on first use).
    #[cold]
    #[inline(never)]
    fn spilled(&mut self) -> &mut Vec<u8> {
        if let Some(inline) = self.buf.get(..self.len) {
            self.spill.clear();
            self.spill.extend_from_slice(inline);
            self.len = INLINE + 1;
        }
        &mut self.spill
    }

    /// Appends literal format text.
    #[inline(always)]
    pub fn lit(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    /// Appends a built-in token's value.
    #[inline(always)]
    pub fn push(&mut self, v: Val<'_>) {
        match v {
            Val::Missing => self.bytes(b"-"),
            Val::Safe(s) => self.safe(s.as_bytes()),
            Val::SafeSmall(s) => self.small(&s),
            Val::Text(t) => self.text(&t),
            Val::Latin1(b) => self.escaped_bytes(b, latin1),
            Val::Utf8OrLatin1(b) => self.escaped_bytes(b, utf8_or_latin1),
        }
    }

    #[inline(always)]
    fn small(&mut self, s: &SmallStr) {
        let (pad, len) = s.padded();
        if len == 0 {
            self.bytes(b"-");
            return;
        }
        // Copying the whole fixed-size buffer and counting only the text
        // costs less than a `memcpy` call for a few bytes.
        match self.buf.get_mut(self.len..self.len + pad.len()) {
            Some(dst) => {
                dst.copy_from_slice(pad);
                self.len += len;
            }
            None => self.spilled().extend_from_slice(s.as_bytes()),
        }
    }

    /// Appends a custom token's value: escaped, `-` when missing or empty.
    #[inline]
    pub fn push_custom(&mut self, v: Option<String>) {
        match v {
            Some(s) => self.text(&s),
            None => self.bytes(b"-"),
        }
    }

    #[inline(always)]
    fn safe(&mut self, s: &[u8]) {
        if s.is_empty() {
            self.bytes(b"-");
        } else {
            self.short(s);
        }
    }

    #[inline(always)]
    fn text(&mut self, s: &str) {
        if s.is_empty() {
            self.bytes(b"-");
        } else if plain_ascii(s.as_bytes()) {
            // The usual url or value: no call into the escaper.
            self.short(s.as_bytes());
        } else {
            escape_into(self.spilled(), s);
        }
    }

    #[inline(always)]
    fn escaped_bytes(&mut self, b: &[u8], decode: fn(&[u8]) -> Cow<'_, str>) {
        if b.is_empty() {
            self.bytes(b"-");
        } else if plain_ascii(b) {
            self.short(b);
        } else {
            escape_into(self.spilled(), &decode(b));
        }
    }

    /// The bytes so far (UTF-8).
    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&self.spill)
    }

    /// The capacity of the buffer for long lines.
    pub(crate) fn capacity(&self) -> usize {
        self.spill.capacity()
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Frees the buffer for long lines.
    pub(crate) fn shrink(&mut self) {
        self.spill = Vec::new();
    }

    pub(crate) fn into_string(self) -> String {
        utf8(self.as_bytes().to_vec())
    }
}

/// Bytes that may start something `escape_into` rewrites.
static SUSPECT: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0x7f] = true;
    t[0xc2] = true;
    t[0xe2] = true;
    t
};

/// Whether `b` is printable ASCII without `"` and `\\`, i.e. text that
/// `escape_into` copies unchanged. Checks eight bytes at a time: this runs
/// over every url, header and custom value of every line.
#[inline]
fn plain_ascii(b: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    // Each term sets a byte's high bit when that byte is (or, only after a
    // byte that is, may look) a byte to escape: below 0x20, 0x7F and up,
    // `"`, `\\`.
    let bad = |x: u64| {
        let zero = |y: u64| y.wrapping_sub(ONES) & !y;
        (x.wrapping_sub(ONES * 0x20) & !x)
            | x
            | x.wrapping_add(ONES)
            | zero(x ^ (ONES * u64::from(b'"')))
            | zero(x ^ (ONES * u64::from(b'\\')))
    };
    let word = |c: &[u8]| {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        u64::from_ne_bytes(w)
    };
    if b.len() < 8 {
        return b
            .iter()
            .all(|&c| (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\');
    }
    let chunks = b.chunks_exact(8);
    // The last eight bytes cover the remainder (overlapping is harmless).
    let last = word(&b[b.len() - 8..]);
    chunks.fold(bad(last), |acc, c| acc | bad(word(c))) & HIGH == 0
}

/// morgan 1.12's `escapeLogField`: `\\` and `"` get a backslash, `\b \f \n
/// \r \t` their escapes, other C0/C1 controls, DEL, U+2028 and U+2029
/// `\uXXXX` (lowercase hex). So no value can break a line or a quoted field.
pub(crate) fn escape_into(out: &mut Vec<u8>, s: &str) {
    // Fast path: no byte that could need escaping (0xC2 starts U+0080-U+00BF,
    // 0xE2 starts U+2000-U+2FFF).
    if plain_ascii(s.as_bytes()) || !s.bytes().any(|b| SUSPECT[usize::from(b)]) {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    let mut buf = [0u8; 4];
    for c in s.chars() {
        let esc: &[u8] = match c {
            '\\' => b"\\\\",
            '"' => b"\\\"",
            '\u{8}' => b"\\b",
            '\u{c}' => b"\\f",
            '\n' => b"\\n",
            '\r' => b"\\r",
            '\t' => b"\\t",
            '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let n = c as usize;
                let digit = |shift: usize| HEX[(n >> shift) & 0xf];
                out.extend_from_slice(&[b'\\', b'u', digit(12), digit(8), digit(4), digit(0)]);
                continue;
            }
            c => c.encode_utf8(&mut buf).as_bytes(),
        };
        out.extend_from_slice(esc);
    }
}

/// Escapes header bytes, decoding them with `decode` unless they are plain
/// ASCII (the usual case, which every decoding leaves unchanged).
#[inline]
fn escape_bytes(out: &mut Vec<u8>, b: &[u8], decode: fn(&[u8]) -> Cow<'_, str>) {
    if plain_ascii(b) {
        out.extend_from_slice(b);
    } else {
        escape_into(out, &decode(b));
    }
}

/// Header bytes as Node decodes request headers: Latin-1 (one char per byte).
fn latin1(b: &[u8]) -> Cow<'_, str> {
    if b.is_ascii() {
        // ASCII is valid UTF-8.
        Cow::Borrowed(std::str::from_utf8(b).unwrap_or_default())
    } else {
        Cow::Owned(b.iter().map(|&b| char::from(b)).collect())
    }
}

/// A response header value as the JavaScript string it was set from: UTF-8
/// when valid, else Latin-1.
fn utf8_or_latin1(b: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => latin1(b),
    }
}

/// In maps with at most this many values, names are looked for by walking
/// them, which costs less than hashing each name (most requests and
/// responses are this small, and most looked-up headers are absent).
const SCAN_LIMIT: usize = 8;

/// A header's first value and whether it has more.
#[doc(hidden)]
pub type First<'a> = Option<(&'a HeaderValue, bool)>;

/// The first value of each of `names` (one walk of a small map).
#[inline]
fn first_values<'a, const N: usize>(
    headers: &'a HeaderMap,
    names: [&HeaderName; N],
) -> [First<'a>; N] {
    let mut found = [None; N];
    let mut present = [true; N];
    if headers.len() <= SCAN_LIMIT {
        // The names alone: walking `(name, value)` pairs costs several times
        // more, and only present names are then looked up.
        present = [false; N];
        for n in headers.keys() {
            for (name, p) in names.iter().zip(&mut present) {
                *p |= n == *name;
            }
        }
    }
    for ((name, slot), present) in names.iter().zip(&mut found).zip(present) {
        if present {
            let mut all = headers.get_all(*name).iter();
            *slot = all.next().map(|first| (first, all.next().is_some()));
        }
    }
    found
}

/// The first value of each of `names` among the request's headers: one walk
/// for all the request headers a `logger!` format reads (each lookup costs a
/// walk of its own).
#[inline]
pub fn req_values<'a, const N: usize>(req: &'a Request, names: [&HeaderName; N]) -> [First<'a>; N] {
    first_values(req.headers(), names)
}

#[inline]
fn first_value<'a>(headers: &'a HeaderMap, name: &HeaderName) -> First<'a> {
    let [first] = first_values(headers, [name]);
    first
}

/// All values of `name` decoded with `decode` and joined with `sep`.
fn joined<'a>(
    headers: &'a HeaderMap,
    name: &HeaderName,
    sep: &str,
    decode: fn(&[u8]) -> Cow<'_, str>,
) -> Val<'a> {
    let mut s = String::new();
    for (i, v) in headers.get_all(name).iter().enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        s.push_str(&decode(v.as_bytes()));
    }
    Val::Text(Cow::Owned(s))
}

/// `req.headers[name]` as Node builds it: duplicates of a few headers are
/// dropped, `cookie` lines are joined with `; `, all others with `, `
/// (`set-cookie` is an array, which morgan joins with `, ` as well).
pub(crate) fn node_req_header<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<Val<'a>> {
    node_value(headers, name, first_value(headers, name))
}

/// [`node_req_header`] once the first value was found.
#[inline(always)]
fn node_value<'a>(headers: &'a HeaderMap, name: &HeaderName, first: First<'a>) -> Option<Val<'a>> {
    match first? {
        (first, false) => Some(Val::Latin1(first.as_bytes())),
        (first, true) => Some(node_values(headers, name, first)),
    }
}

/// [`node_value`] of a header sent more than once.
fn node_values<'a>(headers: &'a HeaderMap, name: &HeaderName, first: &'a HeaderValue) -> Val<'a> {
    if crate::request::FIRST_VALUE_WINS.contains(&name.as_str()) {
        return Val::Latin1(first.as_bytes());
    }
    let sep = if name == http::header::COOKIE {
        "; "
    } else {
        ", "
    };
    joined(headers, name, sep, latin1)
}

fn join_res_header<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<Val<'a>> {
    let (first, more) = first_value(headers, name)?;
    if !more {
        return Some(Val::Utf8OrLatin1(first.as_bytes()));
    }
    Some(joined(headers, name, ", ", utf8_or_latin1))
}

/// `:date[fmt]`: the current date in UTC.
#[inline]
pub fn date(cx: &Cx, _req: &Request, _res: &Response, fmt: DateFormat) -> Val<'static> {
    Val::SafeSmall(clock::date(cx.wall(), fmt))
}

/// `:http-version`: `1.1`, `1.0` or `2.0`.
#[inline]
pub fn http_version<'a>(_cx: &Cx, req: &'a Request, _res: &Response) -> Val<'a> {
    Val::Safe(req.http_version())
}

/// `:method`.
#[inline]
pub fn method<'a>(_cx: &Cx, req: &'a Request, _res: &Response) -> Val<'a> {
    // A method is an HTTP token: nothing to escape.
    Val::Safe(req.method().as_str())
}

/// `:pid`: the process id.
#[inline]
pub fn pid(_cx: &Cx, _req: &Request, _res: &Response) -> Val<'static> {
    static PID: OnceLock<String> = OnceLock::new();
    Val::Safe(PID.get_or_init(|| std::process::id().to_string()))
}

/// The non-standard `Referrer` header.
#[doc(hidden)]
pub static REFERRER: HeaderName = HeaderName::from_static("referrer");

/// `:referrer`: `Referer`, else `Referrer` (an empty `Referer` counts as absent).
#[inline]
pub fn referrer<'a>(_cx: &Cx, req: &'a Request, _res: &Response) -> Val<'a> {
    let [referer, referrer] = req_values(req, [&http::header::REFERER, &REFERRER]);
    referrer_of(req, referer, referrer)
}

/// [`referrer`] once `Referer` and `Referrer` were looked up.
#[inline]
pub fn referrer_of<'a>(req: &'a Request, referer: First<'a>, referrer: First<'a>) -> Val<'a> {
    let h = req.headers();
    match node_value(h, &http::header::REFERER, referer) {
        Some(v) if !v.is_empty() => v,
        _ => node_value(h, &REFERRER, referrer).unwrap_or(Val::Missing),
    }
}

/// `:remote-addr`: `req.ip` (trust-proxy aware).
#[inline]
pub fn remote_addr<'a>(_cx: &Cx, req: &'a Request, _res: &Response) -> Val<'a> {
    if let std::net::IpAddr::V4(v4) = req.remote_addr().ip()
        && req.app().settings().trust_proxy.is_none()
    {
        // `req.ip` is then the peer's address: format it in place.
        return Val::SafeSmall(ipv4(v4));
    }
    Val::Text(Cow::Owned(req.ip()))
}

/// The decimal text of each byte value followed by `.`, and its length.
static OCTETS: [([u8; 4], u8); 256] = {
    let mut t = [([0u8; 4], 0u8); 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b >= 100 {
            ([b'0' + b / 100, b'0' + b / 10 % 10, b'0' + b % 10, b'.'], 4)
        } else if b >= 10 {
            ([b'0' + b / 10, b'0' + b % 10, b'.', 0], 3)
        } else {
            ([b'0' + b, b'.', 0, 0], 2)
        };
        i += 1;
    }
    t
};

/// Dotted-quad text of an IPv4 address: the last one per thread is kept, as
/// a connection's requests (and most of a busy client's) share it.
fn ipv4(ip: std::net::Ipv4Addr) -> SmallStr {
    thread_local! {
        static LAST: std::cell::Cell<Option<(std::net::Ipv4Addr, SmallStr)>> =
            const { std::cell::Cell::new(None) };
    }
    LAST.try_with(|last| match last.get() {
        Some((addr, text)) if addr == ip => text,
        _ => {
            let text = ipv4_text(ip);
            last.set(Some((ip, text)));
            text
        }
    })
    .unwrap_or_else(|_| ipv4_text(ip))
}

/// Dotted-quad text of an IPv4 address, without the formatting machinery.
fn ipv4_text(ip: std::net::Ipv4Addr) -> SmallStr {
    let mut buf = [0u8; 31];
    let mut n = 0;
    for octet in ip.octets() {
        let (text, len) = OCTETS[usize::from(octet)];
        buf[n..n + 4].copy_from_slice(&text);
        n += usize::from(len);
    }
    // Without the last octet's dot.
    SmallStr::from_buf(buf, n - 1)
}

/// `:remote-user`: the user name of a Basic `Authorization` header.
#[inline]
pub fn remote_user<'a>(_cx: &Cx, req: &'a Request, _res: &Response) -> Val<'a> {
    remote_user_of(first_value(req.headers(), &http::header::AUTHORIZATION))
}

/// [`remote_user`] once `Authorization` was looked up.
#[inline]
pub fn remote_user_of(authorization: First<'_>) -> Val<'static> {
    let Some((v, _)) = authorization else {
        return Val::Missing;
    };
    basic_auth_user(&latin1(v.as_bytes())).map_or(Val::Missing, |u| Val::Text(Cow::Owned(u)))
}

/// `:req[name]`: a request header (`name` lowercased).
#[inline]
pub fn req_header<'a>(_cx: &Cx, req: &'a Request, _res: &Response, name: &HeaderName) -> Val<'a> {
    node_req_header(req.headers(), name).unwrap_or(Val::Missing)
}

/// [`req_header`] (and `:user-agent`) once `name` was looked up.
#[inline]
pub fn req_header_of<'a>(req: &'a Request, name: &HeaderName, first: First<'a>) -> Val<'a> {
    node_value(req.headers(), name, first).unwrap_or(Val::Missing)
}

/// `:res[name]`: a response header, once the head was sent.
#[inline]
pub fn res_header<'a>(_cx: &Cx, _req: &Request, res: &'a Response, name: &HeaderName) -> Val<'a> {
    if !res.headers_sent() {
        return Val::Missing;
    }
    if let Some(v) = join_res_header(res.headers(), name) {
        return v;
    }
    match res.sent_length() {
        Some(n) if *name == http::header::CONTENT_LENGTH => Val::SafeSmall(decimal(n)),
        _ => Val::Missing,
    }
}

/// 10, 100, … up to the largest power of ten in a `u64`.
const POW10: [u64; 19] = {
    let mut t = [0; 19];
    let mut i = 0;
    let mut p: u64 = 10;
    while i < 19 {
        t[i] = p;
        p = p.wrapping_mul(10);
        i += 1;
    }
    t
};

/// `n` in decimal (much cheaper than `write!`).
fn decimal(n: usize) -> SmallStr {
    // Counted by comparisons, not divisions.
    let len = 1 + POW10.iter().take_while(|&&p| n as u64 >= p).count();
    let mut buf = [0u8; 31];
    let mut rest = n;
    for slot in buf[..len].iter_mut().rev() {
        *slot = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    SmallStr::from_buf(buf, len)
}

fn ms(value: f64, digits: u8) -> Val<'static> {
    /// Inline text that remembers whether all of it fitted.
    struct Fits(SmallStr, bool);
    impl std::fmt::Write for Fits {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.1 &= self.0.write_str(s).is_ok();
            Ok(())
        }
    }
    // Written inline first: the string is only for many decimals.
    let mut s = Fits(SmallStr::new(), true);
    clock::to_fixed(value, digits, &mut s);
    if s.1 {
        return Val::SafeSmall(s.0);
    }
    let mut big = String::new();
    clock::to_fixed(value, digits, &mut big);
    Val::Text(Cow::Owned(big))
}

/// `:response-time[digits]`: milliseconds from the logger seeing the request
/// to the head being written.
#[inline]
pub fn response_time(cx: &Cx, _req: &Request, _res: &Response, digits: u8) -> Val<'static> {
    match (cx.start, cx.head) {
        (Some(start), Some(head)) => {
            ms(clock::millis(head.saturating_duration_since(start)), digits)
        }
        _ => Val::Missing,
    }
}

/// `:total-time[digits]`: milliseconds from the logger seeing the request to
/// now (the line is written once the last byte went out).
#[inline]
pub fn total_time(cx: &Cx, _req: &Request, _res: &Response, digits: u8) -> Val<'static> {
    match (cx.start, cx.head) {
        (Some(start), Some(_)) => ms(
            clock::millis(cx.mono().saturating_duration_since(start)),
            digits,
        ),
        _ => Val::Missing,
    }
}

/// `:status`: the status code once the head was sent.
#[inline]
pub fn status(_cx: &Cx, _req: &Request, res: &Response) -> Val<'static> {
    if !res.headers_sent() {
        return Val::Missing;
    }
    let code = res.status_code();
    let mut s = SmallStr::new();
    if (100..1000).contains(&code) {
        // Always the case once the head was sent.
        s.push_ascii(b'0' + (code / 100) as u8);
        s.push_ascii(b'0' + (code / 10 % 10) as u8);
        s.push_ascii(b'0' + (code % 10) as u8);
    } else {
        let _ = write!(s, "{code}");
    }
    Val::SafeSmall(s)
}

/// `:url`: `req.originalUrl`.
#[inline]
pub fn url<'a>(_cx: &Cx, req: &'a Request, _res: &Response) -> Val<'a> {
    Val::Text(Cow::Borrowed(req.original_url()))
}

/// `:user-agent`.
#[inline]
pub fn user_agent<'a>(_cx: &Cx, req: &'a Request, _res: &Response) -> Val<'a> {
    node_req_header(req.headers(), &http::header::USER_AGENT).unwrap_or(Val::Missing)
}

/// basic-auth 2.0's parser: `^ *[Bb][Aa][Ss][Ii][Cc] +<token68>=* *$`, the
/// token base64-decoded as Node does (lenient) and read as UTF-8, then
/// `^([^:]*):(.*)$` (`.` excludes line terminators); the user is the part
/// before the first colon.
pub(crate) fn basic_auth_user(header: &str) -> Option<String> {
    let s = header.trim_start_matches(' ');
    let scheme = s.get(..5)?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let rest = &s[5..];
    let token = rest.trim_start_matches(' ');
    if token.len() == rest.len() {
        return None;
    }
    let token = token.trim_end_matches(' ');
    let body = token.trim_end_matches('=');
    if body.is_empty()
        || !body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._~+/-".contains(&b))
    {
        return None;
    }
    let decoded = String::from_utf8_lossy(&node_base64(token)).into_owned();
    let (user, pass) = decoded.split_once(':')?;
    if pass.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some(user.to_owned())
}

/// `Buffer.from(s, 'base64')` (Node 20): both alphabets, characters outside
/// them skipped, decoding stops at `=`, the result cut to
/// `(len without up to two trailing '=') * 3 / 4` bytes.
fn node_base64(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut n = b.len();
    if n > 0 && b[n - 1] == b'=' {
        n -= 1;
    }
    if n > 1 && b[n - 1] == b'=' {
        n -= 1;
    }
    let cap = (n * 3) >> 2;
    let mut out = Vec::with_capacity(cap);
    let mut acc = 0u32;
    let mut bits = 0u32;
    for &c in b {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out.truncate(cap);
    out
}

#[cfg(test)]
mod tests;
