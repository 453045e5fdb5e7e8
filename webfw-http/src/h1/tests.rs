//! Each decision llhttp 9.3 (Node 20) makes, pinned with its code; the
//! differential test (tests/h1_llhttp.rs) checks them against Node itself.

use super::*;

fn head(s: &[u8]) -> Result<Option<RequestHead>, &'static str> {
    parse_head(s, &mut Vec::new()).map_err(|e| e.code)
}

fn ok(s: &[u8]) -> RequestHead {
    head(s).unwrap().expect("a whole head")
}

fn refused(s: &[u8]) -> &'static str {
    head(s).unwrap_err()
}

fn body(head_and_body: &[u8]) -> Result<(Vec<u8>, usize), &'static str> {
    let h = ok(head_and_body);
    let mut d = ChunkedDecoder::for_head(&h);
    let mut rest = &head_and_body[h.len..];
    let mut out = Vec::new();
    let mut used = 0;
    // A byte at a time: the hardest split.
    while !d.is_done() {
        let piece = &rest[..rest.len().min(1)];
        if piece.is_empty() {
            return Err("incomplete");
        }
        let r = d.decode(piece).map_err(|e| e.code)?;
        out.extend_from_slice(&piece[r.data]);
        rest = &rest[r.consumed..];
        used += r.consumed;
    }
    Ok((out, used))
}

#[test]
fn request_line() {
    let buf = b"\r\n\nGET /a?b#c HTTP/1.1\r\n\r\n";
    let h = ok(buf);
    assert_eq!(
        (h.method(buf), h.target(buf), h.len),
        (&b"GET"[..], &b"/a?b#c"[..], buf.len())
    );
    // Targets llhttp takes that http::Uri would not.
    assert_eq!(ok(b"GET /<>\"^`{|}\\ HTTP/1.1\r\n\r\n").len, 27);
    assert_eq!(refused(b"GET /a\x80 HTTP/1.1\r\n\r\n"), "HPE_INVALID_URL");
    assert_eq!(refused(b"GET /a\x7f HTTP/1.1\r\n\r\n"), "HPE_INVALID_URL");
    assert_eq!(refused(b"GET /a\tb HTTP/1.1\r\n\r\n"), "HPE_INVALID_URL");
    assert_eq!(refused(b"GET / \tHTTP/1.1\r\n\r\n"), "HPE_INVALID_URL");
    assert_eq!(
        refused(b"GET http://a@@b/ HTTP/1.1\r\n\r\n"),
        "HPE_INVALID_URL"
    );
    ok(b"GET http://a@b@c/ HTTP/1.1\r\n\r\n");
    ok(b"CONNECT a:443 HTTP/1.1\r\n\r\n");
    ok(b"GET  /  HTTP/1.1\r\n\r\n");
    assert_eq!(refused(b"GET / HTTP/1.1 \r\n\r\n"), "HPE_INVALID_VERSION");
    // Methods: llhttp's list, case-sensitive.
    assert_eq!(refused(b"FOO / HTTP/1.1\r\n\r\n"), "HPE_INVALID_METHOD");
    assert_eq!(refused(b"get / HTTP/1.1\r\n\r\n"), "HPE_INVALID_METHOD");
    assert_eq!(head(b"GE"), Ok(None));
    ok(b"QUERY / HTTP/1.1\r\n\r\n");
    assert_eq!(
        refused(b"DESCRIBE / HTTP/1.1\r\n\r\n"),
        "HPE_INVALID_CONSTANT"
    );
    ok(b"DESCRIBE / RTSP/1.0\r\n\r\n");
    assert_eq!(
        refused(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
        "HPE_PAUSED_H2_UPGRADE"
    );
}

#[test]
fn versions() {
    for (v, m) in [
        ("0.9", (0, 9)),
        ("1.0", (1, 0)),
        ("1.1", (1, 1)),
        ("2.0", (2, 0)),
    ] {
        let h = ok(format!("GET / HTTP/{v}\r\n\r\n").as_bytes());
        assert_eq!((h.major, h.minor), m);
    }
    for v in ["1.2", "3.0", "1.10", "11"] {
        let r = format!("GET / HTTP/{v}\r\n\r\n");
        assert_eq!(refused(r.as_bytes()), "HPE_INVALID_VERSION", "{v}");
    }
    // No version: HTTP/0.9, with headers all the same.
    let h = ok(b"GET /\r\nHost: a\r\n\r\n");
    assert_eq!((h.major, h.minor, h.keep_alive), (0, 9, false));
    assert_eq!(
        refused(b"GET / HTTP/1.1\nHost: a\n\n"),
        "HPE_INVALID_VERSION"
    );
}

#[test]
fn header_lines() {
    let buf = b"GET / HTTP/1.1\r\nA:  b \t c \t \r\nE:\r\nO: \x80\xff\r\n\r\n";
    let mut hs = Vec::new();
    parse_head(buf, &mut hs).unwrap().unwrap();
    let pairs: Vec<_> = hs.iter().map(|h| (h.name(buf), h.value(buf))).collect();
    assert_eq!(
        pairs,
        [
            (&b"A"[..], &b"b \t c"[..]),
            (b"E", b""),
            (b"O", b"\x80\xff")
        ]
    );
    assert_eq!(
        refused(b"GET / HTTP/1.1\r\nA : b\r\n\r\n"),
        "HPE_INVALID_HEADER_TOKEN"
    );
    assert_eq!(
        refused(b"GET / HTTP/1.1\r\nA B: c\r\n\r\n"),
        "HPE_INVALID_HEADER_TOKEN"
    );
    assert_eq!(
        refused(b"GET / HTTP/1.1\r\nA\r\n\r\n"),
        "HPE_INVALID_HEADER_TOKEN"
    );
    assert_eq!(
        refused(b"GET / HTTP/1.1\r\n: c\r\n\r\n"),
        "HPE_INVALID_HEADER_TOKEN"
    );
    // obs-fold, and a space opening the header block.
    assert_eq!(
        refused(b"GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n"),
        "HPE_INVALID_HEADER_TOKEN"
    );
    assert_eq!(
        refused(b"GET / HTTP/1.1\r\n A: b\r\n\r\n"),
        "HPE_UNEXPECTED_SPACE"
    );
    // Controls but HTAB, and DEL, are refused in values; obs-text is not.
    for c in [0u8, 1, 0x7f] {
        let r = [&b"GET / HTTP/1.1\r\nA: b"[..], &[c], b"\r\n\r\n"].concat();
        assert_eq!(refused(&r), "HPE_INVALID_HEADER_TOKEN");
    }
    // Bare LF.
    assert_eq!(refused(b"GET / HTTP/1.1\r\nA: b\n\r\n"), "HPE_CR_EXPECTED");
    assert_eq!(
        refused(b"GET / HTTP/1.1\r\nA: b\r\n\n"),
        "HPE_INVALID_HEADER_TOKEN"
    );
    assert_eq!(refused(b"GET / HTTP/1.1\r\nA: b\r\r\n"), "HPE_LF_EXPECTED");
    assert_eq!(head(b"GET / HTTP/1.1\r\nA: b\r\n"), Ok(None));
}

#[test]
fn content_length() {
    let len = |v: &str| {
        head(format!("POST / HTTP/1.1\r\nContent-Length:{v}\r\n\r\n").as_bytes())
            .map(|h| h.unwrap().framing)
    };
    assert_eq!(len(" 5"), Ok(Framing::Length(5)));
    assert_eq!(len(" \t005  "), Ok(Framing::Length(5)));
    assert_eq!(len(" 18446744073709551615"), Ok(Framing::Length(u64::MAX)));
    for bad in [
        " 18446744073709551616",
        " 5\t",
        " +1",
        " 1 1",
        " 1,1",
        "",
        " ",
    ] {
        assert_eq!(len(bad), Err("HPE_INVALID_CONTENT_LENGTH"), "{bad:?}");
    }
    let two = b"POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n";
    assert_eq!(refused(two), "HPE_UNEXPECTED_CONTENT_LENGTH");
    let cl_te = b"POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n";
    assert_eq!(refused(cl_te), "HPE_INVALID_TRANSFER_ENCODING");
    let te_cl = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n";
    assert_eq!(refused(te_cl), "HPE_INVALID_CONTENT_LENGTH");
}

#[test]
fn transfer_encoding() {
    let te = |v: &str| {
        head(format!("POST / HTTP/1.1\r\nTransfer-Encoding: {v}\r\n\r\n").as_bytes())
            .map(|h| h.unwrap().framing)
    };
    for v in [
        "chunked",
        "CHUNKED",
        "gzip, chunked",
        "gzip,chunked",
        "chunked  ",
    ] {
        assert_eq!(te(v), Ok(Framing::Chunked), "{v}");
    }
    // chunked not last (or not there, or followed by a tab: llhttp 9.3).
    for v in ["gzip", "identity", "chunked, gzip", "chunkedx", "chunked\t"] {
        assert_eq!(te(v), Err("HPE_INVALID_TRANSFER_ENCODING"), "{v}");
    }
    let twice = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n";
    assert_eq!(refused(twice), "HPE_INVALID_TRANSFER_ENCODING");
    // HTTP/1.0 may be chunked.
    assert_eq!(
        ok(b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n").framing,
        Framing::Chunked
    );
}

#[test]
fn keep_alive_and_upgrade() {
    let ka = |s: &[u8]| ok(s).keep_alive;
    assert!(ka(b"GET / HTTP/1.1\r\n\r\n"));
    assert!(!ka(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n"));
    assert!(!ka(
        b"GET / HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\n"
    ));
    assert!(!ka(b"GET / HTTP/1.1\r\nProxy-Connection: close\r\n\r\n"));
    assert!(ka(b"GET / HTTP/1.1\r\nConnection: closed\r\n\r\n"));
    assert!(ka(b"GET / HTTP/1.1\r\nConnection: close\t\r\n\r\n"));
    assert!(!ka(b"GET / HTTP/1.0\r\n\r\n"));
    assert!(ka(b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
    assert!(ka(
        b"GET / HTTP/1.0\r\nConnection: close, keep-alive\r\n\r\n"
    ));
    assert!(!ka(b"GET / HTTP/2.0\r\n\r\n"));
    let ws = ok(b"GET / HTTP/1.1\r\nConnection: keep-alive, Upgrade\r\nUpgrade: ws\r\n\r\n");
    assert!(ws.upgrade && ws.framing == Framing::None);
    assert!(!ok(b"GET / HTTP/1.1\r\nConnection: upgrade\r\nUpgrade:\r\n\r\n").upgrade);
    assert!(ok(b"CONNECT a:1 HTTP/1.1\r\nContent-Length: 3\r\n\r\n").upgrade);
    let e = |s: &[u8]| ok(s).expect;
    assert_eq!(
        e(b"PUT / HTTP/1.1\r\nExpect: 100-Continue\r\n\r\n"),
        Expect::Continue
    );
    assert_eq!(
        e(b"PUT / HTTP/1.1\r\nExpect: x\r\n\r\n"),
        Expect::Unsupported
    );
    assert_eq!(e(b"PUT / HTTP/1.0\r\nExpect: x\r\n\r\n"), Expect::None);
}

#[test]
fn header_size() {
    // Node counts url + names + values and refuses at 16384.
    let with = |n: usize| {
        let mut r = b"GET / HTTP/1.1\r\nX: ".to_vec();
        r.extend(std::iter::repeat_n(b'a', n - 2));
        r.extend_from_slice(b"\r\n\r\n");
        head(&r).map(|h| h.map(|h| h.size))
    };
    assert_eq!(with(16383), Ok(Some(16383)));
    assert_eq!(with(16384), Err("HPE_HEADER_OVERFLOW"));
    // Refused before the head ends, so a caller never buffers more.
    let partial = [&b"GET / HTTP/1.1\r\nX: "[..], &[b'a'; 16382]].concat();
    assert_eq!(refused(&partial), "HPE_HEADER_OVERFLOW");
    assert_eq!(HeadError::new("HPE_HEADER_OVERFLOW").status, 431);
    // Whitespace is not counted, but a head has a raw bound.
    let padded = [&b"GET / HTTP/1.1\r\nX:"[..], &vec![b' '; MAX_HEAD_BYTES]].concat();
    assert_eq!(refused(&padded), "HPE_HEADER_OVERFLOW");
}

const CHUNKED: &[u8] = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";

fn chunked(b: &[u8]) -> Result<(Vec<u8>, usize), &'static str> {
    body(&[CHUNKED, b].concat())
}

#[test]
fn chunks() {
    let b = b"3;a=b;c=\"d\\\"e\"\r\nabc\r\n00002\r\nde\r\n0\r\nX: y\r\n\r\nrest";
    assert_eq!(chunked(b), Ok((b"abcde".to_vec(), b.len() - 4)));
    assert_eq!(chunked(b"ffffffffffffffff\r\n"), Err("incomplete"));
    assert_eq!(
        chunked(b"10000000000000000\r\n"),
        Err("HPE_INVALID_CHUNK_SIZE")
    );
    for bad in [
        &b"3 \r\n"[..],
        b"3\t\r\n",
        b" 3\r\n",
        b"\r\n",
        b"x\r\n",
        b"-1\r\n",
    ] {
        assert_eq!(chunked(bad), Err("HPE_INVALID_CHUNK_SIZE"), "{bad:?}");
    }
    assert_eq!(chunked(b"3\nabc"), Err("HPE_CR_EXPECTED"));
    assert_eq!(chunked(b"3\r\nabc\n"), Err("HPE_CR_EXPECTED"));
    assert_eq!(chunked(b"3\r\nabcX"), Err("HPE_STRICT"));
    assert_eq!(chunked(b"3\r\nabc\rX"), Err("HPE_STRICT"));
    for bad in [
        &b"3; a\r\n"[..],
        b"3;a =b\r\n",
        b"3;\r\n",
        b"3;a=\"b\"c\r\n",
        b"3;a=\"\\\x01\"\r\n",
    ] {
        assert_eq!(chunked(bad), Err("HPE_STRICT"), "{bad:?}");
    }
    assert_eq!(chunked(b"1;;=\r\nx\r\n0\r\n\r\n"), Ok((b"x".to_vec(), 14)));
    assert_eq!(chunked(b"3;a\nabc"), Err("HPE_CR_EXPECTED"));
}

#[test]
fn chunk_limits() {
    // Node: 16384 extension bytes a chunk (413), 16383 trailer bytes (431).
    let ext = |n: usize| {
        chunked(&[&b"1;"[..], &vec![b'a'; n], b"\r\nx\r\n0\r\n\r\n"].concat()).map(|_| ())
    };
    assert_eq!(ext(16384), Ok(()));
    assert_eq!(ext(16385), Err("HPE_CHUNK_EXTENSIONS_OVERFLOW"));
    assert_eq!(HeadError::new("HPE_CHUNK_EXTENSIONS_OVERFLOW").status, 413);
    let trailer = |n: usize| {
        chunked(&[&b"0\r\nX: "[..], &vec![b'a'; n - 1], b"\r\n\r\n"].concat()).map(|_| ())
    };
    assert_eq!(trailer(16383), Ok(()));
    assert_eq!(trailer(16384), Err("HPE_HEADER_OVERFLOW"));
}

#[test]
fn trailers() {
    assert_eq!(
        chunked(b"0\r\nX : y\r\n\r\n"),
        Err("HPE_INVALID_HEADER_TOKEN")
    );
    assert_eq!(
        chunked(b"0\r\nX: y\r\n z\r\n\r\n"),
        Err("HPE_INVALID_HEADER_TOKEN")
    );
    assert_eq!(
        chunked(b"0\r\nContent-Length: 5\r\n\r\n"),
        Err("HPE_INVALID_CONTENT_LENGTH")
    );
    assert_eq!(
        chunked(b"0\r\nTransfer-Encoding: x\r\n\r\n"),
        Err("HPE_INVALID_TRANSFER_ENCODING")
    );
    assert_eq!(chunked(b"0\r\n\n"), Err("HPE_INVALID_HEADER_TOKEN"));
    // A trailer's Connection counts for keep-alive, as in llhttp.
    let buf = [CHUNKED, b"0\r\nConnection: close\r\n\r\n"].concat();
    let h = ok(&buf);
    let mut d = ChunkedDecoder::for_head(&h);
    // The last-chunk line is one call, the trailer section the next.
    let last = d.decode(&buf[h.len..]).unwrap();
    assert_eq!(
        (last.consumed, last.done, d.in_trailers()),
        (3, false, true)
    );
    assert!(d.decode(&buf[h.len + 3..]).unwrap().done);
    assert!(!d.keep_alive() && d.trailer_size() == 15);
}
