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
}

impl Val<'_> {
    /// The value as morgan's (escaping) token wrapper returns it.
    pub(crate) fn into_string(self) -> Option<String> {
        match self {
            Val::Missing => None,
            Val::Safe(s) => Some(s.to_owned()),
            Val::SafeSmall(s) => Some(s.as_str().to_owned()),
            Val::Text(t) => {
                let mut out = String::with_capacity(t.len());
                escape_into(&mut out, &t);
                Some(out)
            }
        }
    }
}

/// The line being built.
#[doc(hidden)]
#[derive(Default)]
pub struct Line {
    buf: String,
}

impl Line {
    /// An empty line.
    pub fn new() -> Line {
        Line::default()
    }

    /// Appends literal format text.
    #[inline(always)]
    pub fn lit(&mut self, s: &str) {
        self.buf.push_str(s);
    }

    /// Appends a built-in token's value.
    #[inline(always)]
    pub fn push(&mut self, v: Val<'_>) {
        match v {
            Val::Missing => self.buf.push('-'),
            Val::Safe(s) => self.safe(s),
            Val::SafeSmall(s) => self.safe(s.as_str()),
            Val::Text(t) => self.text(&t),
        }
    }

    /// Appends a custom token's value: escaped, `-` when missing or empty.
    #[inline]
    pub fn push_custom(&mut self, v: Option<String>) {
        match v {
            Some(s) => self.text(&s),
            None => self.buf.push('-'),
        }
    }

    #[inline(always)]
    fn safe(&mut self, s: &str) {
        if s.is_empty() {
            self.buf.push('-');
        } else {
            self.buf.push_str(s);
        }
    }

    #[inline(always)]
    fn text(&mut self, s: &str) {
        if s.is_empty() {
            self.buf.push('-');
        } else {
            escape_into(&mut self.buf, s);
        }
    }

    /// The text so far.
    pub fn as_str(&self) -> &str {
        &self.buf
    }

    pub(crate) fn clear(&mut self) {
        self.buf.clear();
    }

    pub(crate) fn into_string(self) -> String {
        self.buf
    }

    pub(crate) fn buf_mut(&mut self) -> &mut String {
        &mut self.buf
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

/// morgan 1.12's `escapeLogField`: `\` and `"` get a backslash, `\b \f \n
/// \r \t` their escapes, other C0/C1 controls, DEL, U+2028 and U+2029
/// `\uXXXX` (lowercase hex). So no value can break a line or a quoted field.
pub(crate) fn escape_into(out: &mut String, s: &str) {
    // Fast path: no byte that could need escaping (0xC2 starts U+0080-U+00BF,
    // 0xE2 starts U+2000-U+2FFF).
    if !s.bytes().any(|b| SUSPECT[usize::from(b)]) {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// A header value as Node decodes request headers: Latin-1 (one char per byte).
fn latin1(v: &HeaderValue) -> Cow<'_, str> {
    let b = v.as_bytes();
    if b.is_ascii() {
        // ASCII is valid UTF-8.
        Cow::Borrowed(std::str::from_utf8(b).unwrap_or_default())
    } else {
        Cow::Owned(b.iter().map(|&b| char::from(b)).collect())
    }
}

/// A response header value as the JavaScript string it was set from: UTF-8
/// when valid, else Latin-1.
fn res_text(v: &HeaderValue) -> Cow<'_, str> {
    match std::str::from_utf8(v.as_bytes()) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => latin1(v),
    }
}

/// `req.headers[name]` as Node builds it: duplicates of a few headers are
/// dropped, `cookie` lines are joined with `; `, all others with `, `
/// (`set-cookie` is an array, which morgan joins with `, ` as well).
pub(crate) fn node_req_header<'a>(
    headers: &'a HeaderMap,
    name: &HeaderName,
) -> Option<Cow<'a, str>> {
    let mut all = headers.get_all(name).iter();
    let first = all.next()?;
    let Some(second) = all.next() else {
        return Some(latin1(first));
    };
    if crate::request::FIRST_VALUE_WINS.contains(&name.as_str()) {
        return Some(latin1(first));
    }
    let sep = if name == http::header::COOKIE {
        "; "
    } else {
        ", "
    };
    let mut s = latin1(first).into_owned();
    for v in std::iter::once(second).chain(all) {
        s.push_str(sep);
        s.push_str(&latin1(v));
    }
    Some(Cow::Owned(s))
}

fn join_res_header<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<Cow<'a, str>> {
    let mut all = headers.get_all(name).iter();
    let first = all.next()?;
    let Some(second) = all.next() else {
        return Some(res_text(first));
    };
    let mut s = res_text(first).into_owned();
    for v in std::iter::once(second).chain(all) {
        s.push_str(", ");
        s.push_str(&res_text(v));
    }
    Some(Cow::Owned(s))
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

/// `:referrer`: `Referer`, else `Referrer` (an empty `Referer` counts as absent).
#[inline]
pub fn referrer<'a>(_cx: &Cx, req: &'a Request, _res: &Response) -> Val<'a> {
    let h = req.headers();
    match node_req_header(h, &http::header::REFERER) {
        Some(v) if !v.is_empty() => Val::Text(v),
        _ => {
            static REFERRER: HeaderName = HeaderName::from_static("referrer");
            node_req_header(h, &REFERRER).map_or(Val::Missing, Val::Text)
        }
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

/// Dotted-quad text of an IPv4 address, without the formatting machinery.
fn ipv4(ip: std::net::Ipv4Addr) -> SmallStr {
    let mut buf = [0u8; 15];
    let mut n = 0;
    for (i, octet) in ip.octets().into_iter().enumerate() {
        if i > 0 {
            buf[n] = b'.';
            n += 1;
        }
        if octet >= 100 {
            buf[n] = b'0' + octet / 100;
            n += 1;
        }
        if octet >= 10 {
            buf[n] = b'0' + octet / 10 % 10;
            n += 1;
        }
        buf[n] = b'0' + octet % 10;
        n += 1;
    }
    let mut s = SmallStr::new();
    let _ = s.write_str(std::str::from_utf8(&buf[..n]).unwrap_or_default());
    s
}

/// `:remote-user`: the user name of a Basic `Authorization` header.
#[inline]
pub fn remote_user<'a>(_cx: &Cx, req: &'a Request, _res: &Response) -> Val<'a> {
    let Some(v) = req.headers().get(http::header::AUTHORIZATION) else {
        return Val::Missing;
    };
    basic_auth_user(&latin1(v)).map_or(Val::Missing, |u| Val::Text(Cow::Owned(u)))
}

/// `:req[name]`: a request header (`name` lowercased).
#[inline]
pub fn req_header<'a>(_cx: &Cx, req: &'a Request, _res: &Response, name: &HeaderName) -> Val<'a> {
    node_req_header(req.headers(), name).map_or(Val::Missing, Val::Text)
}

/// `:res[name]`: a response header, once the head was sent.
#[inline]
pub fn res_header<'a>(_cx: &Cx, _req: &Request, res: &'a Response, name: &HeaderName) -> Val<'a> {
    if !res.headers_sent() {
        return Val::Missing;
    }
    join_res_header(res.headers(), name).map_or(Val::Missing, Val::Text)
}

fn ms(value: f64, digits: u8) -> Val<'static> {
    let mut s = SmallStr::new();
    let mut big = String::new();
    clock::to_fixed(value, digits, &mut big);
    if s.write_str(&big).is_ok() {
        Val::SafeSmall(s)
    } else {
        Val::Text(Cow::Owned(big))
    }
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
        let digits = [
            b'0' + (code / 100) as u8,
            b'0' + (code / 10 % 10) as u8,
            b'0' + (code % 10) as u8,
        ];
        let _ = s.write_str(std::str::from_utf8(&digits).unwrap_or_default());
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
    node_req_header(req.headers(), &http::header::USER_AGENT).map_or(Val::Missing, Val::Text)
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
mod tests {
    use super::*;

    fn esc(s: &str) -> String {
        let mut o = String::new();
        escape_into(&mut o, s);
        o
    }

    #[test]
    fn escaping_matches_morgan_1_12() {
        assert_eq!(esc("plain text/é✓"), "plain text/é✓");
        assert_eq!(esc("a\"b\\c"), "a\\\"b\\\\c");
        assert_eq!(esc("\u{8}\u{c}\n\r\t"), "\\b\\f\\n\\r\\t");
        assert_eq!(
            esc("\u{0}\u{1b}\u{7f}\u{85}\u{9f}"),
            "\\u0000\\u001b\\u007f\\u0085\\u009f"
        );
        assert_eq!(
            esc("\u{2028}\u{2029}\u{2030}\u{a0}"),
            "\\u2028\\u2029\u{2030}\u{a0}"
        );
        // A header can never forge a second line.
        assert!(!esc("x\r\n127.0.0.1 - admin").contains('\n'));
    }

    #[test]
    fn ipv4_text() {
        for ip in [
            "0.0.0.0",
            "127.0.0.1",
            "10.20.30.40",
            "255.255.255.255",
            "1.100.99.9",
        ] {
            let a: std::net::Ipv4Addr = ip.parse().unwrap();
            assert_eq!(ipv4(a).as_str(), ip);
        }
    }

    #[test]
    fn basic_auth() {
        assert_eq!(
            basic_auth_user("Basic dXNlcjpwYXNz").as_deref(),
            Some("user")
        );
        assert_eq!(
            basic_auth_user("  bAsIc   dXNlcjpwYXNz  ").as_deref(),
            Some("user")
        );
        assert_eq!(
            basic_auth_user("Basic dXNlcjpwYXNz==").as_deref(),
            Some("user")
        );
        assert_eq!(basic_auth_user("Basicx dXNlcjpwYXNz"), None);
        assert_eq!(basic_auth_user("Basic"), None);
        assert_eq!(basic_auth_user("Basic dXNlcg=="), None); // no colon
        assert_eq!(basic_auth_user("Basic OnBhc3M=").as_deref(), Some("")); // ":pass"
        assert_eq!(basic_auth_user("Bearer dXNlcjpwYXNz"), None);
        assert_eq!(basic_auth_user("Basic\tdXNlcjpwYXNz"), None);
        // "a:b\nc": `.` does not match the newline.
        assert_eq!(basic_auth_user("Basic YTpiCmM="), None);
        // "a\nb:c": the user part may contain it (escaped later).
        assert_eq!(basic_auth_user("Basic YQpiOmM=").as_deref(), Some("a\nb"));
        // "dXNl.cjpwYXNz": '.' is skipped by Node's decoder.
        assert_eq!(
            basic_auth_user("Basic dXNl.cjpwYXNz").as_deref(),
            Some("user")
        );
    }

    #[test]
    fn base64_like_node() {
        assert_eq!(node_base64("YQ"), b"a");
        assert_eq!(node_base64("YWI"), b"ab");
        assert_eq!(node_base64("YWJj"), b"abc");
        assert_eq!(node_base64("YW=Jj"), b"a");
        assert_eq!(node_base64("_-8"), vec![0xff, 0xef]);
    }

    #[test]
    fn node_header_joining() {
        let mut h = HeaderMap::new();
        h.append("x-a", HeaderValue::from_static("1"));
        h.append("x-a", HeaderValue::from_static("2"));
        h.append("user-agent", HeaderValue::from_static("first"));
        h.append("user-agent", HeaderValue::from_static("second"));
        h.append("cookie", HeaderValue::from_static("a=1"));
        h.append("cookie", HeaderValue::from_static("b=2"));
        h.append("x-l", HeaderValue::from_bytes(b"caf\xe9").unwrap());
        let get = |n: &'static str| {
            node_req_header(&h, &HeaderName::from_static(n)).map(|c| c.into_owned())
        };
        assert_eq!(get("x-a").as_deref(), Some("1, 2"));
        assert_eq!(get("user-agent").as_deref(), Some("first"));
        assert_eq!(get("cookie").as_deref(), Some("a=1; b=2"));
        assert_eq!(get("x-l").as_deref(), Some("café"));
        assert_eq!(get("x-none"), None);
    }
}
