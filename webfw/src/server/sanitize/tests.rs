use super::framing::{MAX_LINE, Scanner, State, escape, needs_escape, target_stops};
use super::*;
use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};

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
