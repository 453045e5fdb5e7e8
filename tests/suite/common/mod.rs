//! Shared helpers of the socket-level tests: start an app on `127.0.0.1:0`,
//! send raw HTTP/1.1 bytes exactly as given, read the response until the
//! server closes, and parse it (status line, ordered headers with lower-cased
//! names, body with chunked encoding decoded).
//!
//! Every read is wrapped in [`HANG_GUARD`] so that a server that never
//! answers fails the test instead of blocking it; it is never used to measure
//! speed.

pub mod alloc;
pub mod alone;
pub mod capture;
pub mod redis;

pub use alone::{alone, test_name};

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use webfw::{
    App, BoxFuture, Handler, HandlerFuture, ListenOptions, Middleware, Request, Response, Result,
    Server,
};

/// Upper bound for any single wait on the server (a hang guard, not a timing assertion).
pub const HANG_GUARD: Duration = Duration::from_secs(30);

/// Awaits `fut`, failing the test with `what` if the server never answers.
pub async fn guard<T>(what: &str, fut: impl std::future::Future<Output = T>) -> T {
    match tokio::time::timeout(HANG_GUARD, fut).await {
        Ok(v) => v,
        Err(_) => panic!("hang guard expired while waiting for {what}"),
    }
}

/// A running app bound to `127.0.0.1` on an ephemeral port.
pub struct TestServer {
    pub addr: SocketAddr,
    server: Server,
}

impl TestServer {
    /// Binds `app` on `127.0.0.1:0` in the current tokio runtime.
    pub async fn start(app: App) -> TestServer {
        TestServer::start_with(app, ListenOptions::port(0)).await
    }

    /// As [`TestServer::start`], with other listen options (the host is
    /// always 127.0.0.1).
    pub async fn start_with(app: App, opts: ListenOptions) -> TestServer {
        let server = app
            .bind(opts.host("127.0.0.1"))
            .await
            .expect("bind 127.0.0.1:0");
        let addr = server.local_addr().expect("a TCP server has an address");
        TestServer { addr, server }
    }

    /// Sends `bytes` on a new connection and reads the response until the
    /// server closes it. A request starting with `HEAD ` is parsed as a HEAD
    /// response (no body expected).
    pub async fn raw(&self, bytes: impl AsRef<[u8]>) -> HttpResponse {
        let bytes = bytes.as_ref();
        let data = send_raw(self.addr, bytes).await;
        parse_response(&data, bytes.starts_with(b"HEAD "))
    }

    /// The bytes the server sent back, unparsed.
    pub async fn raw_bytes(&self, bytes: impl AsRef<[u8]>) -> Vec<u8> {
        send_raw(self.addr, bytes.as_ref()).await
    }

    /// `GET path` with `Host` and `Connection: close`.
    pub async fn get(&self, path: &str) -> HttpResponse {
        self.raw(request("GET", path, &[])).await
    }

    /// Any method, with extra headers (after `Host`, before `Connection: close`).
    pub async fn call(&self, method: &str, path: &str, headers: &[(&str, &str)]) -> HttpResponse {
        self.raw(request(method, path, headers)).await
    }

    /// `GET path` with extra headers.
    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> HttpResponse {
        self.call("GET", path, headers).await
    }

    /// Graceful shutdown, waiting for it to complete.
    pub async fn shutdown(self) {
        guard("server shutdown", self.server.shutdown()).await;
    }

    /// Gives up the handle (for tests that drive the shutdown themselves).
    pub fn into_server(self) -> Server {
        self.server
    }
}

/// Builds an HTTP/1.1 request: request line, `Host: localhost`, the given
/// headers in order, `Connection: close`, blank line.
pub fn request(method: &str, target: &str, headers: &[(&str, &str)]) -> Vec<u8> {
    let mut s = format!("{method} {target} HTTP/1.1\r\nHost: localhost\r\n");
    for (k, v) in headers {
        s.push_str(&format!("{k}: {v}\r\n"));
    }
    s.push_str("Connection: close\r\n\r\n");
    s.into_bytes()
}

/// Like [`request`] but without `Connection: close` (for keep-alive tests).
pub fn keep_alive_request(method: &str, target: &str, headers: &[(&str, &str)]) -> Vec<u8> {
    let mut s = format!("{method} {target} HTTP/1.1\r\nHost: localhost\r\n");
    for (k, v) in headers {
        s.push_str(&format!("{k}: {v}\r\n"));
    }
    s.push_str("\r\n");
    s.into_bytes()
}

/// Sends `bytes` on a new TCP connection and returns everything read until
/// the server closes (a reset after some data counts as the end).
pub async fn send_raw(addr: SocketAddr, bytes: &[u8]) -> Vec<u8> {
    let stream = guard("connect", TcpStream::connect(addr))
        .await
        .expect("connect to the test server");
    exchange(stream, bytes).await
}

/// Writes `bytes` on `stream` and reads until end of stream.
pub async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(mut stream: S, bytes: &[u8]) -> Vec<u8> {
    guard("request write", stream.write_all(bytes))
        .await
        .expect("write the request");
    guard("request flush", stream.flush()).await.expect("flush");
    read_to_close(&mut stream).await
}

/// Reads until end of stream (or a connection reset once data arrived).
pub async fn read_to_close<S: AsyncRead + Unpin>(stream: &mut S) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match guard("response bytes", stream.read(&mut buf)).await {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if !out.is_empty() => {
                let _ = e;
                break;
            }
            Err(e) => panic!("reading the response failed before any byte arrived: {e}"),
        }
    }
    out
}

/// A parsed HTTP/1.x response.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    /// `HTTP/1.1`.
    pub version: String,
    pub status: u16,
    /// The reason phrase as sent.
    pub reason: String,
    /// Header lines in wire order, names lower-cased, values trimmed.
    pub headers: Vec<(String, String)>,
    /// The body, chunked encoding decoded.
    pub body: Vec<u8>,
    /// Whether the body came chunked.
    pub chunked: bool,
    /// The raw chunked framing, when chunked (for framing assertions).
    pub raw_body: Vec<u8>,
}

impl HttpResponse {
    /// The first value of a header (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of a header, in order.
    pub fn header_all(&self, name: &str) -> Vec<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .filter(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    pub fn has_header(&self, name: &str) -> bool {
        self.header(name).is_some()
    }

    /// Header names in order, without the ones Node and hyper add on their
    /// own (`date`, `connection`, `keep-alive`).
    pub fn header_names(&self) -> Vec<&str> {
        self.headers
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| !matches!(*k, "date" | "connection" | "keep-alive"))
            .collect()
    }

    /// The body as UTF-8 text.
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("response body is UTF-8")
    }

    /// The body parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("body is not JSON ({e}): {:?}", self.text()))
    }
}

/// Outcome of trying to parse one response from a buffer.
enum Parsed {
    Complete(HttpResponse, usize),
    Incomplete,
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// Parses one response from `buf`. `eof` says the stream ended (needed for
/// close-delimited bodies). `head` says the request was HEAD.
fn try_parse(buf: &[u8], head: bool, eof: bool) -> Parsed {
    let Some(head_end) = find(buf, b"\r\n\r\n", 0) else {
        if eof {
            panic!(
                "response ended inside its head: {:?}",
                String::from_utf8_lossy(buf)
            );
        }
        return Parsed::Incomplete;
    };
    let head_text = std::str::from_utf8(&buf[..head_end]).expect("response head is UTF-8");
    let mut lines = head_text.split("\r\n");
    let status_line = lines.next().expect("a status line");
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default().to_owned();
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
    let reason = parts.next().unwrap_or_default().to_owned();
    let headers: Vec<(String, String)> = lines
        .map(|l| {
            let (k, v) = l
                .split_once(':')
                .unwrap_or_else(|| panic!("bad header line {l:?}"));
            (k.to_ascii_lowercase(), v.trim().to_owned())
        })
        .collect();
    let body_start = head_end + 4;
    let mut resp = HttpResponse {
        version,
        status,
        reason,
        headers,
        body: Vec::new(),
        chunked: false,
        raw_body: Vec::new(),
    };
    if head || status == 204 || status == 304 || (100..200).contains(&status) {
        return Parsed::Complete(resp, body_start);
    }
    let chunked = resp
        .header("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
    if chunked {
        resp.chunked = true;
        let mut pos = body_start;
        loop {
            let Some(line_end) = find(buf, b"\r\n", pos) else {
                return incomplete(buf, eof);
            };
            let size_text = std::str::from_utf8(&buf[pos..line_end]).expect("chunk size");
            let size_text = size_text.split(';').next().unwrap_or_default().trim();
            let size = usize::from_str_radix(size_text, 16)
                .unwrap_or_else(|_| panic!("bad chunk size {size_text:?}"));
            pos = line_end + 2;
            if size == 0 {
                // Trailers, then the final CRLF.
                loop {
                    let Some(end) = find(buf, b"\r\n", pos) else {
                        return incomplete(buf, eof);
                    };
                    let empty = end == pos;
                    pos = end + 2;
                    if empty {
                        break;
                    }
                }
                resp.raw_body = buf[body_start..pos].to_vec();
                return Parsed::Complete(resp, pos);
            }
            if buf.len() < pos + size + 2 {
                return incomplete(buf, eof);
            }
            resp.body.extend_from_slice(&buf[pos..pos + size]);
            assert_eq!(
                &buf[pos + size..pos + size + 2],
                b"\r\n",
                "chunk not followed by CRLF"
            );
            pos += size + 2;
        }
    }
    if let Some(len) = resp.header("content-length") {
        let len: usize = len.parse().expect("numeric Content-Length");
        if buf.len() < body_start + len {
            return incomplete(buf, eof);
        }
        resp.body = buf[body_start..body_start + len].to_vec();
        return Parsed::Complete(resp, body_start + len);
    }
    if !eof {
        return Parsed::Incomplete;
    }
    resp.body = buf[body_start..].to_vec();
    Parsed::Complete(resp, buf.len())
}

fn incomplete(buf: &[u8], eof: bool) -> Parsed {
    if eof {
        panic!("response truncated: {:?}", String::from_utf8_lossy(buf));
    }
    Parsed::Incomplete
}

/// Parses a complete response stream (read until close). Fails on bytes
/// after the response (e.g. a body on a HEAD, 204 or 304 response).
pub fn parse_response(raw: &[u8], head: bool) -> HttpResponse {
    match try_parse(raw, head, true) {
        Parsed::Complete(resp, used) => {
            assert_eq!(
                used,
                raw.len(),
                "bytes after the response: {:?}",
                String::from_utf8_lossy(&raw[used..])
            );
            resp
        }
        Parsed::Incomplete => unreachable!("eof parsing never returns Incomplete"),
    }
}

/// One client connection used for several requests (keep-alive).
pub struct Conn<S = TcpStream> {
    stream: S,
    buf: Vec<u8>,
}

impl Conn<TcpStream> {
    pub async fn open(addr: SocketAddr) -> Conn<TcpStream> {
        let stream = guard("connect", TcpStream::connect(addr))
            .await
            .expect("connect to the test server");
        Conn::new(stream)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> Conn<S> {
    pub fn new(stream: S) -> Conn<S> {
        Conn {
            stream,
            buf: Vec::new(),
        }
    }

    pub async fn send(&mut self, bytes: impl AsRef<[u8]>) {
        guard("request write", self.stream.write_all(bytes.as_ref()))
            .await
            .expect("write the request");
    }

    /// Reads exactly one response (framed by Content-Length or chunked).
    pub async fn read_response(&mut self, head: bool) -> HttpResponse {
        let mut tmp = [0u8; 16 * 1024];
        loop {
            if let Parsed::Complete(resp, used) = try_parse(&self.buf, head, false) {
                self.buf.drain(..used);
                return resp;
            }
            let n = guard("response bytes", self.stream.read(&mut tmp))
                .await
                .expect("read the response");
            if n == 0 {
                match try_parse(&self.buf, head, true) {
                    Parsed::Complete(resp, used) => {
                        self.buf.drain(..used);
                        return resp;
                    }
                    Parsed::Incomplete => unreachable!(),
                }
            }
            self.buf.extend_from_slice(&tmp[..n]);
        }
    }

    /// Reads whatever the server still sends until it closes the connection.
    pub async fn read_to_close(&mut self) -> Vec<u8> {
        let mut rest = std::mem::take(&mut self.buf);
        rest.extend(read_to_close(&mut self.stream).await);
        rest
    }
}

/// The §1.1 HTML document of finalhandler with an already-escaped body.
pub fn error_page(body_html: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>{body_html}</pre>\n</body>\n</html>\n"
    )
}

/// An async handler that captures state: `f` returns a boxed future
/// borrowing the request and response.
pub struct AsyncFn<F>(pub F);

impl<F> Handler for AsyncFn<F>
where
    F: for<'a> Fn(&'a mut Request, &'a mut Response) -> BoxFuture<'a, Result>
        + Send
        + Sync
        + 'static,
{
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        HandlerFuture::boxed((self.0)(req, res))
    }
}

/// Wraps a closure returning `Box::pin(async move { … })` as middleware.
pub fn async_handler<F>(f: F) -> Middleware
where
    F: for<'a> Fn(&'a mut Request, &'a mut Response) -> BoxFuture<'a, Result>
        + Send
        + Sync
        + 'static,
{
    webfw::handler(AsyncFn(f))
}

/// A shared log that handlers append to and tests read.
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    pub fn new() -> Log {
        Log::default()
    }

    pub fn push(&self, entry: impl Into<String>) {
        self.0.lock().expect("log lock").push(entry.into());
    }

    pub fn entries(&self) -> Vec<String> {
        self.0.lock().expect("log lock").clone()
    }
}

/// Appends `entry` to the per-request trace kept in `req` local `trace`.
pub fn trace(req: &mut Request, entry: &str) {
    let list = req
        .locals_mut()
        .entry("trace")
        .or_insert_with(|| serde_json::Value::Array(Vec::new()));
    if let serde_json::Value::Array(items) = list {
        items.push(serde_json::Value::from(entry));
    }
}

/// A param callback that records `param <value>` in the trace and goes on.
pub fn trace_param(req: &mut Request, _: &mut Response, id: &str) -> Result {
    trace(req, &format!("param {id}"));
    webfw::next()
}

/// The per-request trace as `a,b,c`.
pub fn trace_of(req: &Request) -> String {
    match req.local("trace") {
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(serde_json::Value::as_str)
            .collect::<Vec<_>>()
            .join(","),
        _ => String::new(),
    }
}

/// `tests/interop`, the Express apps of the interop tests, once `modules`
/// are installed there (by `npm ci`, which `tests/run` also runs). One
/// install at a time: two tests may ask at once.
pub fn interop_dir(modules: &[&str]) -> PathBuf {
    static INSTALL: Mutex<()> = Mutex::new(());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop");
    let _one = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if modules
        .iter()
        .all(|m| dir.join("node_modules").join(m).is_dir())
    {
        return dir;
    }
    let status = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&dir)
        .status()
        .unwrap_or_else(|e| panic!("cannot run npm ({e}): install Node.js 20 and npm"));
    assert!(status.success(), "npm ci failed in {}", dir.display());
    dir
}
