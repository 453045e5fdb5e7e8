//! webfw's HTTP/1 parsing against Node 20's (llhttp): every case of a table
//! of raw byte strings goes, followed by the sentinel [`END`] on the same
//! connection, once to `tests/oracle/h1_echo.js` (plain `http.createServer`,
//! Node's defaults, no 'clientError', 'upgrade' or 'connect' listener, as in
//! an Express app) and once to a webfw app with one catch-all route. Both
//! answer 200 with what they parsed (method, raw target, version, headers,
//! body bytes, trailers) as JSON; Node's own refusals (`400 Bad Request`,
//! `431`, ...) and interim `100 Continue` answers count as answers too. Each
//! server's whole answer stream, read until it closes (or stays quiet for
//! [`QUIET`]: "still open"), is split into answers (the status line's version
//! and code, and the body) and must be the same from both, and end the same
//! way.
//!
//! Headers are compared as each side's folded map (Node's `req.headers`,
//! webfw's `Request::headers`, which folds repeated names as Node does),
//! sorted by name; trailers as each name's values in order.

use crate::common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{TestServer, async_handler, guard};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The request that follows every case on its connection.
const END: &[u8] = b"GET /__end HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

/// How long a server may stay silent before its connection counts as "still
/// open" (below Node's 5 s keep-alive timeout, which would close it).
const QUIET: Duration = Duration::from_secs(3);

/// The Node oracle, killed on drop.
struct Node(Child);

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `tests/oracle/h1_echo.js` and returns it with its address.
async fn node_echo() -> (Node, SocketAddr) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/h1_echo.js");
    let mut child = Command::new("node")
        .arg(&script)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start `node` ({e}): install Node.js 20 (`node` on PATH) to run these tests"
            )
        });
    let stdout = child.stdout.take().expect("piped stdout");
    let node = Node(child);
    let line = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).map(|_| line)
    });
    let line = guard("the Node oracle to listen", line)
        .await
        .expect("the reader thread")
        .expect("the Node oracle's first line");
    let port: u16 = line
        .trim()
        .strip_prefix("listening ")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line from h1_echo.js: {line:?}"));
    (node, SocketAddr::from(([127, 0, 0, 1], port)))
}

/// One byte per char, as Node's `latin1`.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// `[[name, value], …]` sorted by name, each name's values in order.
fn pairs(map: &http::HeaderMap) -> Value {
    let mut out: Vec<(String, String)> = Vec::new();
    for name in map.keys() {
        for value in map.get_all(name) {
            out.push((name.as_str().to_owned(), latin1(value.as_bytes())));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.into_iter().map(|(k, v)| json!([k, v])).collect()
}

/// h1_echo.js in webfw: one catch-all route answering what webfw parsed.
fn echo_app() -> webfw::App {
    let mut app = webfw::app();
    app.use_(async_handler(|req, res| {
        Box::pin(async move {
            let body = req
                .take_body()
                .collect()
                .await
                .map_err(|e| webfw::Error::new(format!("body: {e}")).with_status(400))?;
            let trailers = body.trailers().map(pairs).unwrap_or_else(|| json!([]));
            let bytes = body.to_bytes();
            res.json(&json!({
                "method": req.method().as_str(),
                "url": req.original_url(),
                "version": req.http_version(),
                "headers": pairs(req.headers()),
                "body": latin1(&bytes),
                "trailers": trailers,
            }))
        })
    }));
    app
}

/// What one server did with one case: its answers, `HTTP/1.1 200` and the
/// body each, and how the connection ended.
#[derive(Debug, PartialEq)]
struct Stream {
    answers: Vec<(String, Value)>,
    closed: bool,
}

impl std::fmt::Display for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (status, body) in &self.answers {
            writeln!(f, "      {status} {body}")?;
        }
        write!(
            f,
            "      ({})",
            if self.closed { "closed" } else { "still open" }
        )
    }
}

/// Sends `case` and [`END`] on a new connection to `addr`, reading while
/// writing, until the server closes or stays quiet for [`QUIET`].
async fn converse(addr: SocketAddr, case: &[u8]) -> Stream {
    let mut stream = guard("connect", TcpStream::connect(addr))
        .await
        .expect("connect");
    let mut bytes = case.to_vec();
    bytes.extend_from_slice(END);
    let (mut rd, mut wr) = stream.split();
    let read = async {
        let mut out = Vec::new();
        let mut buf = [0u8; 16 * 1024];
        loop {
            match tokio::time::timeout(QUIET, rd.read(&mut buf)).await {
                Err(_) => return (out, false),
                Ok(Ok(0) | Err(_)) => return (out, true),
                Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
            }
        }
    };
    // The server may close before it has read everything: a failed write
    // is one of the outcomes, not an error. The write half stays open.
    let write = async {
        let _ = wr.write_all(&bytes).await;
        std::future::pending::<()>().await;
    };
    let (data, closed) = tokio::select! {
        r = read => r,
        () = write => unreachable!(),
    };
    Stream {
        answers: answers(&data),
        closed,
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A body as JSON when it is JSON, else as (lossy) text.
fn body_value(body: &[u8]) -> Value {
    serde_json::from_slice(body).unwrap_or_else(|_| Value::from(String::from_utf8_lossy(body)))
}

/// Decodes a chunked body at the start of `data`: the body and the bytes used.
fn dechunk(data: &[u8]) -> Option<(Vec<u8>, usize)> {
    let mut body = Vec::new();
    let mut pos = 0;
    loop {
        let line = find(&data[pos..], b"\r\n")? + pos;
        let size = std::str::from_utf8(&data[pos..line]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        pos = line + 2;
        if size == 0 {
            loop {
                let end = find(&data[pos..], b"\r\n")? + pos;
                let empty = end == pos;
                pos = end + 2;
                if empty {
                    return Some((body, pos));
                }
            }
        }
        body.extend_from_slice(data.get(pos..pos + size)?);
        pos += size + 2;
    }
}

/// Splits an answer stream into `(version and status, body)`; bytes that
/// are not a response end the list as `("junk", text)`.
fn answers(mut data: &[u8]) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    while !data.is_empty() {
        let junk = |data: &[u8]| ("junk".to_owned(), Value::from(latin1(data)));
        let Some(end) = find(data, b"\r\n\r\n") else {
            out.push(junk(data));
            break;
        };
        let head = latin1(&data[..end]);
        let mut lines = head.split("\r\n");
        let mut status_line = lines.next().unwrap_or_default().split(' ');
        let version = status_line.next().unwrap_or_default().to_owned();
        let status = status_line.next().and_then(|s| s.parse::<u16>().ok());
        let Some(status) = status else {
            out.push(junk(data));
            break;
        };
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        let rest = &data[end + 4..];
        let (body, used) = if (100..200).contains(&status) || status == 204 || status == 304 {
            (Vec::new(), 0)
        } else if header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
            match dechunk(rest) {
                Some(b) => b,
                None => (rest.to_vec(), rest.len()),
            }
        } else if let Some(len) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
            let len = len.min(rest.len());
            (rest[..len].to_vec(), len)
        } else {
            (rest.to_vec(), rest.len())
        };
        out.push((format!("{version} {status}"), body_value(&body)));
        data = &rest[used..];
    }
    out
}

/// Runs every case against both servers, all at once, and fails listing
/// every case where webfw differs from Node.
async fn differ(cases: Vec<(&'static str, Vec<u8>)>) {
    let (_node, node_addr) = node_echo().await;
    let server = TestServer::start(echo_app()).await;
    let webfw_addr = server.addr;
    let mut runs = tokio::task::JoinSet::new();
    for (k, (_, bytes)) in cases.iter().enumerate() {
        let bytes = bytes.clone();
        runs.spawn(async move {
            let (node, webfw) =
                tokio::join!(converse(node_addr, &bytes), converse(webfw_addr, &bytes));
            (k, node, webfw)
        });
    }
    let mut results = Vec::new();
    while let Some(r) = runs.join_next().await {
        results.push(r.expect("a case's task"));
    }
    results.sort_by_key(|r| r.0);
    let mut report = String::new();
    let mut failed = 0;
    for (k, node, webfw) in &results {
        if node != webfw {
            failed += 1;
            let (name, bytes) = &cases[*k];
            let shown: String = latin1(&bytes[..bytes.len().min(300)])
                .escape_debug()
                .collect();
            report.push_str(&format!(
                "  {name}: {shown}\n    node:\n{node}\n    webfw:\n{webfw}\n"
            ));
        }
    }
    server.shutdown().await;
    assert!(
        failed == 0,
        "webfw differs from Node 20 in {failed} of {} cases:\n{report}",
        cases.len()
    );
}

/// A case as text (`\r\n` written out).
fn c(name: &'static str, text: &str) -> (&'static str, Vec<u8>) {
    (name, text.as_bytes().to_vec())
}

/// `GET /` with `lines` header lines `x-<k>: v` after `Host`.
fn many_lines(lines: usize) -> String {
    let mut s = String::from("GET /many HTTP/1.1\r\nHost: x\r\n");
    for k in 0..lines {
        s.push_str(&format!("x-{k}: v\r\n"));
    }
    s.push_str("\r\n");
    s
}

/// `GET /` whose target, header names and values (what Node counts against
/// its 16 KiB `maxHeaderSize`) add up to `counted` bytes, in `parts` header
/// lines besides `Host`.
fn head_of(counted: usize, parts: usize) -> String {
    let fixed = "/".len() + "Host".len() + "x".len();
    let names: usize = (0..parts).map(|k| format!("x-pad-{k}").len()).sum();
    let mut values = counted - fixed - names;
    let mut s = String::from("GET / HTTP/1.1\r\nHost: x\r\n");
    for k in 0..parts {
        let n = if k + 1 == parts {
            values
        } else {
            values / (parts - k)
        };
        values -= n;
        s.push_str(&format!("x-pad-{k}: {}\r\n", "a".repeat(n)));
    }
    s.push_str("\r\n");
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_boundaries_and_content_length_as_node() {
    let post =
        |cl: &str| format!("POST /cl HTTP/1.1\r\nHost: x\r\nContent-Length:{cl}\r\n\r\nhello");
    differ(vec![
        c("plain GET", "GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("two pipelined GETs", "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("POST then GET", "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /g HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("Content-Length: 0", "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"),
        c("GET with a body", "GET /g HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"),
        c("GET, chunked POST, GET", "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /2 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nGET /3 HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("CL `5\\t`", post(" 5\t").into_bytes()),
        ("CL ` 5` (two spaces)", post("  5").into_bytes()),
        ("CL `5 ` (trailing space)", post(" 5 ").into_bytes()),
        ("CL `+5`", post(" +5").into_bytes()),
        ("CL `05`", post(" 05").into_bytes()),
        ("CL empty", post("").into_bytes()),
        ("CL `-1`", post(" -1").into_bytes()),
        ("CL `0x5`", post(" 0x5").into_bytes()),
        ("CL `5 5`", post(" 5 5").into_bytes()),
        ("CL `5, 5`", post(" 5, 5").into_bytes()),
        ("CL `5,5`", post(" 5,5").into_bytes()),
        c("two equal CLs", "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello"),
        c("two different CLs", "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
        ("CL past u64", post(" 18446744073709551616").into_bytes()),
        ("CL 20 nines", post(" 99999999999999999999").into_bytes()),
        ("CL huge but valid (body never comes)", post(" 1000000000").into_bytes()),
        ("CL longer than the body (swallows the sentinel)", post(" 6").into_bytes()),
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transfer_encoding_and_chunks_as_node() {
    let te = |v: &str| {
        format!(
            "POST /te HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: {v}\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
        )
    };
    let chunks = |body: &str| {
        format!("POST /ch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n{body}")
    };
    differ(vec![
        ("TE chunked", te("chunked").into_bytes()),
        c("TE then CL", "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
        c("CL then TE", "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
        ("TE `gzip, chunked`", te("gzip, chunked").into_bytes()),
        ("TE `chunked, gzip`", te("chunked, gzip").into_bytes()),
        ("TE `identity`", te("identity").into_bytes()),
        c("TE identity with CL", "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\nContent-Length: 5\r\n\r\nhello"),
        ("TE `CHUNKED`", te("CHUNKED").into_bytes()),
        ("TE `Chunked`", te("Chunked").into_bytes()),
        ("TE `chunked ` (trailing space)", te("chunked ").into_bytes()),
        ("TE `xchunked`", te("xchunked").into_bytes()),
        ("TE `chunked, chunked`", te("chunked, chunked").into_bytes()),
        c("TE gzip + TE chunked lines", "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
        c("TE chunked on HTTP/1.0", "POST /p HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
        ("chunk extension", chunks("5;foo=bar\r\nhello\r\n0\r\n\r\n").into_bytes()),
        ("quoted chunk extension", chunks("5;foo=\"bar baz\"\r\nhello\r\n0\r\n\r\n").into_bytes()),
        ("chunk extension without value", chunks("5;foo\r\nhello\r\n0\r\n\r\n").into_bytes()),
        ("space before `;`", chunks("5 ;foo=bar\r\nhello\r\n0\r\n\r\n").into_bytes()),
        ("trailer", chunks("5\r\nhello\r\n0\r\nX-T: 1\r\n\r\n").into_bytes()),
        ("two trailers", chunks("5\r\nhello\r\n0\r\nX-A: 1\r\nX-B: 2\r\n\r\n").into_bytes()),
        ("bare LF after the size", chunks("5\nhello\r\n0\r\n\r\n").into_bytes()),
        ("bare LF after the data", chunks("5\r\nhello\n0\r\n\r\n").into_bytes()),
        ("no CRLF after the data", chunks("5\r\nhello0\r\n\r\n").into_bytes()),
        ("bare LF ending the trailers", chunks("5\r\nhello\r\n0\r\n\n").into_bytes()),
        ("upper-case hex size", chunks("A\r\n0123456789\r\n0\r\n\r\n").into_bytes()),
        ("lower-case hex size", chunks("a\r\n0123456789\r\n0\r\n\r\n").into_bytes()),
        ("leading zeros", chunks("0005\r\nhello\r\n000\r\n\r\n").into_bytes()),
        ("size overflow", chunks("ffffffffffffffffff\r\nhello\r\n0\r\n\r\n").into_bytes()),
        ("space before the size", chunks(" 5\r\nhello\r\n0\r\n\r\n").into_bytes()),
        ("spaces after the size", chunks("5  \r\nhello\r\n0\r\n\r\n").into_bytes()),
        ("size `0x5`", chunks("0x5\r\nhello\r\n0\r\n\r\n").into_bytes()),
        ("empty chunked body", chunks("0\r\n\r\n").into_bytes()),
        ("three chunks", chunks("1\r\na\r\n2\r\nbc\r\n3\r\ndef\r\n0\r\n\r\n").into_bytes()),
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heads_and_targets_as_node() {
    let header = |line: &[u8]| {
        let mut v = b"GET /h HTTP/1.1\r\nHost: x\r\n".to_vec();
        v.extend_from_slice(line);
        v.extend_from_slice(b"\r\n\r\n");
        v
    };
    let target = |t: &[u8]| {
        let mut v = b"GET ".to_vec();
        v.extend_from_slice(t);
        v.extend_from_slice(b" HTTP/1.1\r\nHost: x\r\n\r\n");
        v
    };
    differ(vec![
        c("bare LF everywhere", "GET / HTTP/1.1\nHost: x\n\n"),
        c("bare LF on one header line", "GET / HTTP/1.1\r\nHost: x\nX-A: 1\r\n\r\n"),
        c("bare LF ending the head", "GET / HTTP/1.1\r\nHost: x\r\n\n"),
        c("CR without LF", "GET / HTTP/1.1\r\nHost: x\rX-A: 1\r\n\r\n"),
        ("obs-fold", header(b"X-F: a\r\n b")),
        ("obs-fold with a tab", header(b"X-F: a\r\n\tb")),
        ("space before the colon", header(b"X-A : 1")),
        ("tab before the colon", header(b"X-A\t: 1")),
        ("\\x01 in a value", header(b"X-A: a\x01b")),
        ("DEL in a value", header(b"X-A: a\x7fb")),
        ("NUL in a value", header(b"X-A: a\x00b")),
        ("tab in a value", header(b"X-A: a\tb")),
        ("bytes >= 0x80 in a value", header(b"X-A: caf\xc3\xa9 \xff")),
        ("whitespace around a value", header(b"X-A: \t a b \t ")),
        ("empty value", header(b"X-A:")),
        ("empty name", header(b": x")),
        ("`@` in a name", header(b"X@Y: 1")),
        ("space in a name", header(b"X Y: 1")),
        ("line without a colon", header(b"Foo")),
        ("repeated names fold", header(b"X-R: 1\r\nX-R: 2\r\nCookie: a=1\r\nCookie: b=2\r\nSet-Cookie: s=1\r\nSet-Cookie: s=2")),
        ("repeated Content-Type (first wins)", header(b"Content-Type: a/b\r\nContent-Type: c/d")),
        ("target with `\"`", target(b"/a\"b")),
        ("target with `<>`", target(b"/<a>")),
        ("target with `\\`", target(b"/a\\b")),
        ("target with `^`", target(b"/a^b")),
        ("target with a backtick", target(b"/a`b")),
        ("target with `{|}`", target(b"/{a|b}")),
        ("target with bytes >= 0x80", target(b"/caf\xc3\xa9/\xff")),
        ("target with `#`", target(b"/a#frag")),
        ("target with a tab", target(b"/a\tb")),
        ("target with \\x01", target(b"/a\x01b")),
        ("absolute-form target", target(b"http://example.com/x?y=1")),
        c("`*` target on OPTIONS", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("`*` target on GET", target(b"*")),
        ("authority-form target on GET", target(b"example.com:80")),
        c("two spaces before the target", "GET  /a HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("target with a space", "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("unknown method", "FOO / HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("lower-case method", "get / HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("PROPFIND", "PROPFIND / HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("PURGE", "PURGE / HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("QUERY", "QUERY / HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("M-SEARCH", "M-SEARCH * HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("leading CRLFs", "\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("leading bare LF", "\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("HTTP/1.1 without Host", "GET / HTTP/1.1\r\n\r\n"),
        c("two Host lines", "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n"),
        c("HTTP/2.0 request line", "GET / HTTP/2.0\r\nHost: x\r\n\r\n"),
        c("HTTP/1.2", "GET / HTTP/1.2\r\nHost: x\r\n\r\n"),
        c("lower-case version", "GET / http/1.1\r\nHost: x\r\n\r\n"),
        c("HTTP/0.9 request line", "GET /\r\n\r\n"),
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_and_sizes_as_node() {
    let get = "GET /k HTTP/1.1\r\nHost: x\r\n\r\n";
    differ(vec![
        c("HTTP/1.0 without keep-alive", "GET /a HTTP/1.0\r\nHost: x\r\n\r\n"),
        c("HTTP/1.0 with keep-alive", "GET /a HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"),
        c("HTTP/1.0 without Host", "GET /a HTTP/1.0\r\n\r\n"),
        c("Connection: close mid-batch", "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /3 HTTP/1.1\r\nHost: x\r\n\r\n"),
        c("Connection: keep-alive, close", "GET /1 HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, close\r\n\r\n"),
        c("Connection: CLOSE", "GET /1 HTTP/1.1\r\nHost: x\r\nConnection: CLOSE\r\n\r\n"),
        ("101 header lines first", many_lines(100).into_bytes()),
        ("150 header lines first", many_lines(149).into_bytes()),
        ("150 header lines second", format!("{get}{}", many_lines(149)).into_bytes()),
        ("head counting 16383 bytes", head_of(16383, 1).into_bytes()),
        ("head counting 16384 bytes", head_of(16384, 1).into_bytes()),
        ("head counting 16383 bytes in 40 lines", head_of(16383, 40).into_bytes()),
        ("head counting 16384 bytes in 40 lines", head_of(16384, 40).into_bytes()),
        ("a 16 KiB head second", format!("{get}{}", head_of(16384, 1)).into_bytes()),
        ("target of 16000 bytes", format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(16000)).into_bytes()),
        c("Expect: 100-continue on a POST", "POST /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello"),
        c("Expect: 100-continue on a GET", "GET /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n"),
        c("Expect: 100-Continue", "POST /e HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\nContent-Length: 5\r\n\r\nhello"),
        c("Expect: 100-continue on HTTP/1.0", "POST /e HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello"),
        c("Expect: foo", "GET /e HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n"),
        c("Upgrade with Connection: Upgrade", "GET /u HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: foo\r\n\r\n"),
        c("Upgrade with a body", "POST /u HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: foo\r\nContent-Length: 3\r\n\r\nabc"),
        c("Upgrade without Connection: Upgrade", "GET /u HTTP/1.1\r\nHost: x\r\nUpgrade: foo\r\n\r\n"),
        c("Connection: Upgrade without Upgrade", "GET /u HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\n\r\n"),
        c("Upgrade after a GET", "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /u HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: foo\r\n\r\n"),
        c("CONNECT", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"),
        c("CONNECT after a GET", "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nCONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"),
    ])
    .await;
}
