//! Which requests the connection's own loop answers, and their parts.
//!
//! The loop takes a GET, POST, PUT, PATCH or DELETE over HTTP/1.1 with
//! `Host`, without `Expect`, `Upgrade` or `Transfer-Encoding`, with at most
//! `keep-alive` as its `Connection` and at most one `Content-Length`, whose
//! body (if any) is in the buffer with its head, all in at most
//! [`OWN_HEAD_LIMIT`] bytes and [`OWN_MAX_HEADERS`] header lines: the usual
//! request of browsers, API clients and load testers. Every other request
//! goes to hyper, which streams bodies, upgrades, closes and refuses, with
//! Node's answers on top (see `requests.rs`). httparse is hyper's parser, so
//! a head taken here is one hyper would have parsed the same way.

use std::mem::MaybeUninit;

use bytes::Bytes;

/// The largest request, head and body, the loop answers; a longer one (or a
/// partial head this long) goes to hyper, whose limits and Node's 431 apply.
pub(super) const OWN_HEAD_LIMIT: usize = 8 * 1024;

/// The most header lines of a head the loop answers.
const OWN_MAX_HEADERS: usize = 32;

/// What the start of the read buffer holds.
pub(super) enum Parsed {
    /// A whole head the loop answers, now in the [`Head`].
    Whole,
    /// Not a whole head yet.
    Partial,
    /// A request for hyper: another kind, a whole head whose body is not
    /// all in the buffer, or not a request at all.
    Other,
}

/// Where a whole request's parts are in the buffer (offsets fit in `u16`:
/// the request is at most [`OWN_HEAD_LIMIT`] bytes).
pub(super) struct Head {
    len: usize,
    /// The body's length: its bytes follow the head's in the buffer.
    body: usize,
    /// The method when not GET (an `http::Method` has drop glue; GET is
    /// what a request's parts start with).
    other_method: Option<Verb>,
    target: (u16, u16),
    count: usize,
    lines: [(u16, u16, u16, u16); OWN_MAX_HEADERS],
}

impl Head {
    pub(super) fn new() -> Head {
        Head {
            len: 0,
            body: 0,
            other_method: None,
            target: (0, 0),
            count: 0,
            lines: [(0, 0, 0, 0); OWN_MAX_HEADERS],
        }
    }
}

/// Reads the request at the start of `buf` into `head`.
#[inline]
pub(super) fn parse(buf: &[u8], head: &mut Head) -> Parsed {
    let mut raw = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; OWN_MAX_HEADERS];
    let mut req = httparse::Request::new(&mut []);
    let len = match req.parse_with_uninit_headers(buf, &mut raw) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Parsed::Partial,
        Err(_) => return Parsed::Other,
    };
    if len > OWN_HEAD_LIMIT || req.version != Some(1) {
        return Parsed::Other;
    }
    head.other_method = match req.method {
        Some("GET") => None,
        Some(method) => match Verb::of(method) {
            Some(verb) => Some(verb),
            None => return Parsed::Other,
        },
        None => return Parsed::Other,
    };
    // Where a parsed slice starts in the head (each lies in it, so within
    // `OWN_HEAD_LIMIT`; checked all the same, as `parts` slices by it).
    let base = buf.as_ptr() as usize;
    let at = |s: &[u8]| {
        let at = (s.as_ptr() as usize).wrapping_sub(base);
        let inside = at.checked_add(s.len()).is_some_and(|end| end <= len);
        inside.then_some(at as u16)
    };
    let Some(target) = req.path else {
        return Parsed::Other;
    };
    let Some(target_at) = at(target.as_bytes()) else {
        return Parsed::Other;
    };
    head.len = len;
    head.target = (target_at, target.len() as u16);
    head.count = req.headers.len();
    let mut has_host = false;
    let mut length = None;
    for (line, h) in head.lines.iter_mut().zip(req.headers.iter()) {
        let name = h.name.as_bytes();
        match name.len() {
            4 if name.eq_ignore_ascii_case(b"host") => has_host = true,
            6 if name.eq_ignore_ascii_case(b"expect") => return Parsed::Other,
            7 if name.eq_ignore_ascii_case(b"upgrade") => return Parsed::Other,
            10 if name.eq_ignore_ascii_case(b"connection")
                && !h.value.eq_ignore_ascii_case(b"keep-alive") =>
            {
                return Parsed::Other;
            }
            14 if name.eq_ignore_ascii_case(b"content-length") => {
                if length.is_some() {
                    return Parsed::Other;
                }
                let Some(n) = content_length(h.value) else {
                    return Parsed::Other;
                };
                length = Some(n);
            }
            17 if name.eq_ignore_ascii_case(b"transfer-encoding") => return Parsed::Other,
            _ => {}
        }
        let (Some(name_at), Some(value_at)) = (at(name), at(h.value)) else {
            return Parsed::Other;
        };
        *line = (name_at, name.len() as u16, value_at, h.value.len() as u16);
    }
    let body = length.unwrap_or(0);
    if !has_host || len + body > OWN_HEAD_LIMIT || len + body > buf.len() {
        return Parsed::Other;
    }
    head.body = body;
    Parsed::Whole
}

/// The methods with a body the loop takes besides GET.
#[derive(Clone, Copy)]
enum Verb {
    Post,
    Put,
    Patch,
    Delete,
}

impl Verb {
    fn of(method: &str) -> Option<Verb> {
        match method {
            "POST" => Some(Verb::Post),
            "PUT" => Some(Verb::Put),
            "PATCH" => Some(Verb::Patch),
            "DELETE" => Some(Verb::Delete),
            _ => None,
        }
    }

    fn method(self) -> http::Method {
        match self {
            Verb::Post => http::Method::POST,
            Verb::Put => http::Method::PUT,
            Verb::Patch => http::Method::PATCH,
            Verb::Delete => http::Method::DELETE,
        }
    }
}

/// A `Content-Length` of plain digits short enough for a body the loop
/// takes (hyper refuses or frames anything else, as Node does).
fn content_length(value: &[u8]) -> Option<usize> {
    if value.is_empty() || value.len() > 5 || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(value.iter().fold(0, |n, d| n * 10 + usize::from(d - b'0')))
}

impl Head {
    /// The head's length in bytes.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The body's length in bytes: they follow the head's.
    pub(super) fn body_len(&self) -> usize {
        self.body
    }

    /// The request's parts, their target and values sharing `head` (the
    /// request's bytes, split off the buffer), their headers in `headers`
    /// (an emptied map); `None` when `http` refuses the target or a header
    /// (hyper then answers).
    #[inline]
    pub(super) fn parts(
        &self,
        head: &Bytes,
        mut headers: http::HeaderMap,
    ) -> Option<http::request::Parts> {
        let slice = |at: u16, len: u16| head.slice(at as usize..at as usize + len as usize);
        let uri = http::Uri::from_maybe_shared(slice(self.target.0, self.target.1)).ok()?;
        headers.reserve(self.count);
        for &(name_at, name_len, value_at, value_len) in &self.lines[..self.count] {
            let name_at = name_at as usize;
            let name = http::HeaderName::from_bytes(&head[name_at..name_at + name_len as usize]);
            let value = http::HeaderValue::from_maybe_shared(slice(value_at, value_len));
            headers.append(name.ok()?, value.ok()?);
        }
        let (mut parts, ()) = http::Request::new(()).into_parts();
        if let Some(verb) = self.other_method {
            parts.method = verb.method();
        }
        parts.uri = uri;
        parts.headers = headers;
        Some(parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(head: &[u8]) -> &'static str {
        match parse(head, &mut Head::new()) {
            Parsed::Whole => "whole",
            Parsed::Partial => "partial",
            Parsed::Other => "other",
        }
    }

    #[test]
    fn the_loop_takes_a_get_with_host_and_at_most_keep_alive() {
        assert_eq!(parsed(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"), "whole");
        assert_eq!(
            parsed(b"GET / HTTP/1.1\r\nhost: a\r\nConnection: Keep-Alive\r\n\r\n"),
            "whole"
        );
        assert_eq!(parsed(b"GET / HTTP/1.1\r\nHost: a\r\n"), "partial");
        assert_eq!(parsed(b"GE"), "partial");
        assert_eq!(parsed(b""), "partial");
    }

    #[test]
    fn a_body_is_taken_when_all_of_it_came_with_its_head() {
        for method in ["POST", "PUT", "PATCH", "DELETE", "GET"] {
            let request =
                format!("{method} / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello");
            let mut head = Head::new();
            assert!(matches!(
                parse(request.as_bytes(), &mut head),
                Parsed::Whole
            ));
            assert_eq!(head.len() + head.body_len(), request.len());
            assert_eq!(head.body_len(), 5);
            let bytes = Bytes::from(request.clone());
            let parts = head.parts(&bytes, http::HeaderMap::new()).unwrap();
            assert_eq!(parts.method.as_str(), method);
            // Part of the body, or none of it: hyper's, which streams it.
            assert_eq!(parsed(&request.as_bytes()[..request.len() - 1]), "other");
            assert_eq!(parsed(&request.as_bytes()[..head.len()]), "other");
        }
        // What follows a body is the next request's.
        let two = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 002\r\n\r\nokGET";
        let mut head = Head::new();
        assert!(matches!(parse(two, &mut head), Parsed::Whole));
        assert_eq!(head.len() + head.body_len(), two.len() - 3);
        assert_eq!(
            parsed(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"),
            "whole"
        );
    }

    #[test]
    fn every_other_head_is_hyper_s() {
        for head in [
            &b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n"[..],
            b"OPTIONS / HTTP/1.1\r\nHost: a\r\n\r\n",
            b"CONNECT a:1 HTTP/1.1\r\nHost: a\r\n\r\n",
            b"get / HTTP/1.1\r\nHost: a\r\n\r\n",
            b"GET / HTTP/1.0\r\nHost: a\r\n\r\n",
            b"GET / HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Upgrade\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\r\nBad Name: v\r\n\r\n",
            b"GET /\x01 HTTP/1.1\r\nHost: a\r\n\r\n",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nxx",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1, 1\r\n\r\nxx",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\nxx",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\nxx",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 1\r\n\r\nxx",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \r\n\r\nxx",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\nxx",
        ] {
            assert_eq!(parsed(head), "other", "{}", String::from_utf8_lossy(head));
        }
    }

    #[test]
    fn long_requests_and_many_lines_are_hyper_s() {
        let line = |n: usize| format!("X-A: {}\r\n", "v".repeat(n));
        let head = |extra: &str| format!("GET / HTTP/1.1\r\nHost: a\r\n{extra}\r\n");
        let fits = head(&line(OWN_HEAD_LIMIT - head("").len() - 7));
        assert_eq!(fits.len(), OWN_HEAD_LIMIT);
        assert_eq!(parsed(fits.as_bytes()), "whole");
        let over = head(&line(OWN_HEAD_LIMIT - head("").len() - 6));
        assert_eq!(parsed(over.as_bytes()), "other");

        let post = |body: usize| {
            let head = format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: {body:05}\r\n\r\n");
            format!("{head}{}", "b".repeat(body))
        };
        let at_limit = OWN_HEAD_LIMIT - post(0).len();
        assert_eq!(parsed(post(at_limit).as_bytes()), "whole");
        assert_eq!(parsed(post(at_limit + 1).as_bytes()), "other");

        let lines = |n: usize| (0..n).map(|k| format!("X-{k}: v\r\n")).collect::<String>();
        assert_eq!(
            parsed(head(&lines(OWN_MAX_HEADERS - 1)).as_bytes()),
            "whole"
        );
        assert_eq!(parsed(head(&lines(OWN_MAX_HEADERS)).as_bytes()), "other");
    }

    #[test]
    fn any_bytes_parse_without_panicking_and_a_whole_head_has_parts() {
        // Mutations of a head with an empty value, and of a request with a
        // body, byte by byte and cut short, as a fuzzer's first steps would
        // make them.
        let seed = b"GET /p?q HTTP/1.1\r\nHost: h\r\nX-E:\r\nX-F: \t\r\nAccept: */*\r\n\r\n";
        let post = b"POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 12\r\n\r\n{\"a\":[1,2]}\r\n";
        let mut state = 0x9e37_79b9_u32;
        for round in 0..40_000 {
            let mut input = if round % 2 == 0 {
                seed.to_vec()
            } else {
                post.to_vec()
            };
            for _ in 0..1 + round % 4 {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                let at = state as usize % input.len();
                input[at] = (state >> 8) as u8;
            }
            input.truncate(input.len() - round % 7);
            let mut head = Head::new();
            if let Parsed::Whole = parse(&input, &mut head) {
                let len = head.len() + head.body_len();
                let bytes = Bytes::copy_from_slice(&input[..len]);
                let _ = head.parts(&bytes, http::HeaderMap::new());
            }
        }
        let mut head = Head::new();
        assert!(matches!(parse(seed, &mut head), Parsed::Whole));
        let parts = head
            .parts(&Bytes::from_static(seed), http::HeaderMap::new())
            .unwrap();
        assert_eq!(parts.headers["x-e"], "");
        assert_eq!(parts.headers["x-f"], "");
    }

    #[test]
    fn the_parts_share_the_head_and_keep_its_lines_in_order() {
        let bytes = Bytes::from_static(
            b"GET /a?b=c HTTP/1.1\r\nHost: h\r\nX-One: 1\r\nx-one: 2\r\nAccept: */*\r\n\r\nGET",
        );
        let mut head = Head::new();
        assert!(matches!(parse(&bytes, &mut head), Parsed::Whole));
        assert_eq!(head.len(), bytes.len() - 3);
        let parts = head
            .parts(&bytes.slice(..head.len()), http::HeaderMap::new())
            .unwrap();
        assert_eq!(parts.method, http::Method::GET);
        assert_eq!(parts.version, http::Version::HTTP_11);
        assert_eq!(parts.uri, "/a?b=c");
        let lines: Vec<_> = parts
            .headers
            .iter()
            .map(|(k, v)| format!("{k}: {}", v.to_str().unwrap()))
            .collect();
        assert_eq!(lines, ["host: h", "x-one: 1", "x-one: 2", "accept: */*"]);
    }
}
