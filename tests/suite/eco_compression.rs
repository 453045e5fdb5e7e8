//! `webfw::compression` on the wire: which responses are compressed and
//! with what (compression 1.8.2 with negotiator 0.6.4, as Node answers),
//! the bytes decoded back with flate2 and brotli, streamed bodies and
//! `res.flush()`, files and ranges, and a client that stops reading.

use crate::common;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use common::{HttpResponse, TestServer, async_handler, guard, request};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{Notify, oneshot};
use webfw::compression::{self, BrotliOptions, CompressionOptions};
use webfw::prelude::*;

fn gunzip(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(b)
        .read_to_end(&mut out)
        .expect("a gzip body");
    out
}

fn inflate(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(b)
        .read_to_end(&mut out)
        .expect("a deflate (zlib) body");
    out
}

fn unbrotli(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(b, 4096)
        .read_to_end(&mut out)
        .expect("a br body");
    out
}

/// The body with its `Content-Encoding` undone.
fn decoded(res: &HttpResponse) -> Vec<u8> {
    match res.header("content-encoding") {
        None => res.body.clone(),
        Some("gzip") => gunzip(&res.body),
        Some("deflate") => inflate(&res.body),
        Some("br") => unbrotli(&res.body),
        Some(other) => panic!("unexpected Content-Encoding {other}"),
    }
}

/// ROUTES.md's `BIG_JSON`: 4,391 bytes serialised.
fn big_json() -> Value {
    let items: Vec<Value> = (0..80)
        .map(|i| json!({ "id": i, "name": format!("item number {i}"), "tags": ["a", "b", "c"] }))
        .collect();
    json!({ "items": items })
}

fn json_app() -> webfw::App {
    let mut app = webfw::app();
    let body = big_json();
    app.get(
        "/json",
        (
            webfw::compression(()),
            move |_: &mut Request, res: &mut Response| res.json(&body),
        ),
    );
    let body = big_json();
    app.get(
        "/enforced",
        (
            webfw::compression(CompressionOptions::new().enforce_encoding("gzip")),
            move |_: &mut Request, res: &mut Response| res.json(&body),
        ),
    );
    let body = big_json();
    app.get(
        "/enforced-unknown",
        (
            webfw::compression(CompressionOptions::new().enforce_encoding("zstd")),
            move |_: &mut Request, res: &mut Response| res.json(&body),
        ),
    );
    app
}

#[tokio::test]
async fn the_encoding_is_negotiated_as_negotiator_0_6_4_ranks_it() {
    let srv = TestServer::start(json_app()).await;
    let plain = serde_json::to_vec(&big_json()).unwrap();
    let tag = srv.get("/json").await.header("etag").unwrap().to_owned();
    // (Accept-Encoding, the coding chosen): recorded from compression 1.8.2.
    let table: &[(Option<&str>, Option<&str>)] = &[
        (Some("gzip"), Some("gzip")),
        (Some("deflate"), Some("deflate")),
        (Some("br"), Some("br")),
        (Some("gzip, deflate, br"), Some("br")),
        (Some("deflate, gzip"), Some("gzip")),
        (Some("*"), Some("br")),
        (Some("gzip;q=0, deflate"), Some("deflate")),
        (Some("gzip;q=0.5, deflate"), Some("deflate")),
        (Some("br;q=0.8, gzip;q=0.8"), Some("br")),
        (Some("deflate;q=0.9, *"), Some("br")),
        (Some("identity, deflate"), None),
        (Some("GZIP"), Some("gzip")),
        (Some("x-gzip"), None),
        (Some("compress, zstd"), None),
        (Some("identity"), None),
        (Some("identity;q=0"), None),
        (Some("*;q=0"), None),
        (Some(""), None),
        (None, None),
    ];
    for (accept, coding) in table {
        let headers: Vec<(&str, &str)> =
            accept.map(|a| ("Accept-Encoding", a)).into_iter().collect();
        let res = srv.call("GET", "/json", &headers).await;
        assert_eq!(res.status, 200, "{accept:?}");
        assert_eq!(res.header("content-encoding"), *coding, "{accept:?}");
        assert_eq!(res.header("vary"), Some("Accept-Encoding"), "{accept:?}");
        // The ETag is the uncompressed body's, left as it was.
        assert_eq!(res.header("etag"), Some(tag.as_str()), "{accept:?}");
        assert_eq!(decoded(&res), plain, "{accept:?}");
        match coding {
            // Compressed whole: sent with the compressed length.
            Some(_) => assert_eq!(
                res.header("content-length"),
                Some(res.body.len().to_string().as_str())
            ),
            None => assert_eq!(res.header("content-length"), Some("4391")),
        }
    }
}

#[tokio::test]
async fn enforce_encoding_answers_requests_without_accept_encoding() {
    let srv = TestServer::start(json_app()).await;
    let plain = serde_json::to_vec(&big_json()).unwrap();
    let res = srv.get("/enforced").await;
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    assert_eq!(decoded(&res), plain);
    let res = srv
        .call("GET", "/enforced", &[("Accept-Encoding", "")])
        .await;
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    let res = srv
        .call("GET", "/enforced", &[("Accept-Encoding", "identity")])
        .await;
    assert_eq!(res.header("content-encoding"), None);
    let res = srv.get("/enforced-unknown").await;
    assert_eq!(res.header("content-encoding"), None);
    assert_eq!(res.body, plain);
}

/// A text body of `n` bytes.
fn text(n: usize) -> String {
    "abcdefghij".repeat(n / 10 + 1)[..n].to_owned()
}

fn gzip_get(srv: &TestServer, path: &str) -> impl Future<Output = HttpResponse> {
    srv.call("GET", path, &[("Accept-Encoding", "gzip")])
}

#[tokio::test]
async fn the_threshold_applies_to_bodies_of_known_length() {
    let mut app = webfw::app();
    app.get(
        "/len/:n",
        (
            webfw::compression(()),
            |req: &mut Request, res: &mut Response| {
                let n: usize = req.param("n").unwrap().parse().unwrap();
                res.type_("text").send(text(n))
            },
        ),
    );
    app.get(
        "/kb/:n",
        (
            webfw::compression(CompressionOptions::new().threshold("2kb")),
            |req: &mut Request, res: &mut Response| {
                let n: usize = req.param("n").unwrap().parse().unwrap();
                res.type_("text").send(text(n))
            },
        ),
    );
    app.get(
        "/empty",
        (
            webfw::compression(CompressionOptions::new().threshold(0)),
            |_: &mut Request, res: &mut Response| res.type_("text").end(),
        ),
    );
    app.get(
        "/end-chunk",
        (
            webfw::compression(()),
            |_: &mut Request, res: &mut Response| res.type_("text").end_with(text(1000)),
        ),
    );
    app.get(
        "/streamed-small",
        (
            webfw::compression(()),
            |_: &mut Request, res: &mut Response| {
                res.type_("text").write("tiny")?;
                res.end()
            },
        ),
    );
    let srv = TestServer::start(app).await;
    for (path, n, compressed) in [
        ("/len", 1023, false),
        ("/len", 1024, true),
        ("/kb", 2047, false),
        ("/kb", 2048, true),
    ] {
        let res = gzip_get(&srv, &format!("{path}/{n}")).await;
        let want = compressed.then_some("gzip");
        assert_eq!(res.header("content-encoding"), want, "{path}/{n}");
        // Vary either way: the answer depends on Accept-Encoding.
        assert_eq!(res.header("vary"), Some("Accept-Encoding"));
        assert_eq!(decoded(&res), text(n).as_bytes());
    }
    // Threshold 0 compresses even an empty body: the 20 bytes Node sends.
    let res = gzip_get(&srv, "/empty").await;
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    assert_eq!(
        res.body,
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    );
    // `res.end(chunk)` counts the chunk; a streamed body has no known length.
    let res = gzip_get(&srv, "/end-chunk").await;
    assert_eq!(res.header("content-encoding"), None);
    assert_eq!(res.body, text(1000).as_bytes());
    let res = gzip_get(&srv, "/streamed-small").await;
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    assert_eq!(decoded(&res), b"tiny");
}

#[tokio::test]
async fn the_filter_decides_first_and_a_filtered_response_gets_no_vary() {
    let mut app = webfw::app();
    let filter = CompressionOptions::new().filter(|req, res| {
        req.get("x-no-compression").is_none() && compression::should_compress(req, res)
    });
    app.get(
        "/filtered",
        (
            webfw::compression(filter),
            |_: &mut Request, res: &mut Response| res.type_("text").send(text(4096)),
        ),
    );
    app.get(
        "/type/:ext",
        (
            webfw::compression(()),
            |req: &mut Request, res: &mut Response| {
                let ext = req.param("ext").unwrap().to_owned();
                res.type_(&ext).send(text(4096).into_bytes())
            },
        ),
    );
    app.get(
        "/untyped",
        (
            webfw::compression(()),
            |_: &mut Request, res: &mut Response| res.end_with(text(4096)),
        ),
    );
    let srv = TestServer::start(app).await;
    let res = gzip_get(&srv, "/filtered").await;
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    let res = srv
        .call(
            "GET",
            "/filtered",
            &[("Accept-Encoding", "gzip"), ("X-No-Compression", "1")],
        )
        .await;
    assert_eq!(res.header("content-encoding"), None);
    assert_eq!(res.header("vary"), None);
    assert_eq!(res.body, text(4096).as_bytes());
    for (ext, compressed) in [
        ("svg", true),
        ("js", true),
        ("csv", true),
        ("png", false),
        ("zip", false),
        ("bin", false),
    ] {
        let res = gzip_get(&srv, &format!("/type/{ext}")).await;
        assert_eq!(
            res.header("content-encoding").is_some(),
            compressed,
            "{ext}"
        );
        assert_eq!(res.header("vary").is_some(), compressed, "{ext}");
        assert_eq!(decoded(&res), text(4096).as_bytes(), "{ext}");
    }
    let res = gzip_get(&srv, "/untyped").await;
    assert_eq!(res.header("content-encoding"), None);
    assert_eq!(res.header("vary"), None);
}

#[tokio::test]
async fn no_transform_an_existing_encoding_and_the_etag_are_respected() {
    let mut app = webfw::app();
    app.get(
        "/cc/:value",
        (
            webfw::compression(()),
            |req: &mut Request, res: &mut Response| {
                let value = req.param("value").unwrap().to_owned();
                res.set("Cache-Control", value);
                res.type_("text").send(text(2000))
            },
        ),
    );
    app.get(
        "/encoded/:coding",
        (
            webfw::compression(()),
            |req: &mut Request, res: &mut Response| {
                let coding = req.param("coding").unwrap().to_owned();
                res.set("Content-Encoding", coding);
                res.type_("text").send(text(2000))
            },
        ),
    );
    app.get(
        "/tagged",
        (
            webfw::compression(()),
            |_: &mut Request, res: &mut Response| {
                res.set("ETag", "\"v1\"").type_("text").send(text(2000))
            },
        ),
    );
    let srv = TestServer::start(app).await;
    let res = gzip_get(&srv, "/cc/public,%20No-Transform").await;
    assert_eq!(res.header("content-encoding"), None);
    assert_eq!(res.header("vary"), None);
    let res = gzip_get(&srv, "/cc/no-transformed").await;
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    // Already encoded: left alone, but the answer still varies.
    let res = gzip_get(&srv, "/encoded/br").await;
    assert_eq!(res.header("content-encoding"), Some("br"));
    assert_eq!(res.header("vary"), Some("Accept-Encoding"));
    assert_eq!(res.body, text(2000).as_bytes());
    // `identity` is no encoding: replaced.
    let res = gzip_get(&srv, "/encoded/identity").await;
    assert_eq!(res.header_all("content-encoding"), ["gzip"]);
    assert_eq!(decoded(&res), text(2000).as_bytes());
    let res = gzip_get(&srv, "/tagged").await;
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    assert_eq!(res.header("etag"), Some("\"v1\""));
}

#[tokio::test]
async fn head_204_and_304_are_not_given_a_compressed_body() {
    let mut app = webfw::app();
    let body = big_json();
    app.get(
        "/json",
        (
            webfw::compression(()),
            move |_: &mut Request, res: &mut Response| res.json(&body),
        ),
    );
    app.get(
        "/no-content",
        (
            webfw::compression(CompressionOptions::new().threshold(0)),
            |_: &mut Request, res: &mut Response| res.type_("text").status(204).end(),
        ),
    );
    app.get(
        "/not-modified",
        (
            webfw::compression(CompressionOptions::new().threshold(0)),
            |_: &mut Request, res: &mut Response| res.type_("text").status(304).end_with("abc"),
        ),
    );
    let srv = TestServer::start(app).await;
    // HEAD: Vary and the uncompressed length, no encoding.
    let res = srv
        .call("HEAD", "/json", &[("Accept-Encoding", "gzip")])
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("vary"), Some("Accept-Encoding"));
    assert_eq!(res.header("content-encoding"), None);
    assert_eq!(res.header("content-length"), Some("4391"));
    assert!(res.body.is_empty());
    // A fresh request: send's 304 has no Content-Type, so no filter passes.
    let tag = srv.get("/json").await.header("etag").unwrap().to_owned();
    let res = srv
        .call(
            "GET",
            "/json",
            &[("Accept-Encoding", "gzip"), ("If-None-Match", &tag)],
        )
        .await;
    assert_eq!(res.status, 304);
    assert_eq!(res.header("content-encoding"), None);
    assert_eq!(res.header("vary"), None);
    // With a type left on them, Node announces gzip but writes no body.
    for path in ["/no-content", "/not-modified"] {
        let res = gzip_get(&srv, path).await;
        assert!(matches!(res.status, 204 | 304), "{path}");
        assert_eq!(res.header("content-encoding"), Some("gzip"), "{path}");
        assert_eq!(res.header("vary"), Some("Accept-Encoding"), "{path}");
        assert!(res.body.is_empty(), "{path}");
    }
}

#[tokio::test]
async fn streamed_bodies_are_compressed_as_a_stream() {
    let mut app = webfw::app();
    app.get(
        "/stream",
        (
            webfw::compression(()),
            |_: &mut Request, res: &mut Response| {
                res.type_("text");
                res.write("part one. ".repeat(150))?;
                res.write("part two. ".repeat(150))?;
                res.end_with("end.")
            },
        ),
    );
    let srv = TestServer::start(app).await;
    let want = format!(
        "{}{}end.",
        "part one. ".repeat(150),
        "part two. ".repeat(150)
    );
    for coding in ["gzip", "deflate", "br"] {
        let res = srv
            .call("GET", "/stream", &[("Accept-Encoding", coding)])
            .await;
        assert_eq!(res.header("content-encoding"), Some(coding));
        assert!(res.chunked, "{coding}");
        assert_eq!(res.header("content-length"), None);
        assert_eq!(decoded(&res), want.as_bytes(), "{coding}");
    }
    // br at quality 4: the 33 bytes Node's zlib writes for these writes.
    let res = srv
        .call("GET", "/stream", &[("Accept-Encoding", "br")])
        .await;
    assert_eq!(res.body.len(), 33);
}

/// The body of a chunked response read so far: the complete chunks after
/// the head, and whether the last one came.
fn dechunk(raw: &[u8]) -> (Vec<u8>, bool) {
    let Some(start) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        return (Vec::new(), false);
    };
    let mut at = start + 4;
    let mut body = Vec::new();
    loop {
        let Some(eol) = raw[at..].windows(2).position(|w| w == b"\r\n") else {
            return (body, false);
        };
        let size_text = std::str::from_utf8(&raw[at..at + eol]).unwrap();
        let size = usize::from_str_radix(size_text, 16).unwrap();
        let data = at + eol + 2;
        if raw.len() < data + size + 2 {
            return (body, false);
        }
        if size == 0 {
            return (body, true);
        }
        body.extend_from_slice(&raw[data..data + size]);
        at = data + size + 2;
    }
}

/// What an incremental decoder makes of the compressed bytes so far.
fn decode_so_far(coding: &str, compressed: &[u8]) -> Vec<u8> {
    match coding {
        "gzip" => {
            let mut d = flate2::write::GzDecoder::new(Vec::new());
            d.write_all(compressed).unwrap();
            d.flush().unwrap();
            d.get_ref().clone()
        }
        _ => {
            let mut d = brotli::DecompressorWriter::new(Vec::new(), 4096);
            d.write_all(compressed).unwrap();
            d.flush().unwrap();
            d.get_ref().clone()
        }
    }
}

#[tokio::test]
async fn flush_lets_the_client_decode_each_event_before_the_end() {
    let next = Arc::new(Notify::new());
    let go = next.clone();
    let mut app = webfw::app();
    app.get(
        "/events",
        (
            webfw::compression(()),
            async_handler(move |_req, res| {
                let go = go.clone();
                Box::pin(async move {
                    res.type_("text/event-stream");
                    for n in 1..=3 {
                        res.write(format!("data: {n}\n\n"))?;
                        res.flush()?;
                        go.notified().await;
                    }
                    res.end()
                })
            }),
        ),
    );
    let srv = TestServer::start(app).await;
    for coding in ["gzip", "br"] {
        let mut conn = TcpStream::connect(srv.addr).await.unwrap();
        let req = request("GET", "/events", &[("Accept-Encoding", coding)]);
        conn.write_all(&req).await.unwrap();
        let mut raw = Vec::new();
        for n in 1..=3 {
            let want: String = (1..=n).map(|k| format!("data: {k}\n\n")).collect();
            loop {
                let (compressed, _) = dechunk(&raw);
                if decode_so_far(coding, &compressed) == want.as_bytes() {
                    break;
                }
                let mut buf = [0u8; 4096];
                let got = guard("an event", conn.read(&mut buf)).await.unwrap();
                assert_ne!(got, 0, "closed before event {n}");
                raw.extend_from_slice(&buf[..got]);
            }
            next.notify_one();
        }
        let text = String::from_utf8_lossy(&raw).into_owned();
        assert!(
            text.contains(&format!("\r\ncontent-encoding: {coding}\r\n")),
            "{text}"
        );
        while !dechunk(&raw).1 {
            let mut buf = [0u8; 4096];
            let got = guard("the end", conn.read(&mut buf)).await.unwrap();
            assert_ne!(got, 0, "closed before the last chunk");
            raw.extend_from_slice(&buf[..got]);
        }
        let (compressed, _) = dechunk(&raw);
        let all = match coding {
            "gzip" => gunzip(&compressed),
            _ => unbrotli(&compressed),
        };
        assert_eq!(all, b"data: 1\n\ndata: 2\n\ndata: 3\n\n");
    }
}

#[tokio::test]
async fn flush_without_compression_changes_nothing() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.write("a")?;
        res.flush()?;
        res.end_with("b")
    });
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(res.raw_body, b"1\r\na\r\n1\r\nb\r\n0\r\n\r\n");
}

/// A directory with `lorem.txt`: 200 KiB of text, streamed in chunks.
fn files() -> (PathBuf, Vec<u8>) {
    let dir = std::env::temp_dir().join(format!("webfw-compression-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let content: Vec<u8> = (0..)
        .map(|i| format!("line {i}: lorem ipsum dolor sit amet\n"))
        .flat_map(String::into_bytes)
        .take(200 * 1024)
        .collect();
    std::fs::write(dir.join("lorem.txt"), &content).unwrap();
    (dir, content)
}

#[tokio::test]
async fn static_files_and_ranges_are_compressed_as_the_npm_package_does() {
    let (dir, content) = files();
    let mut app = webfw::app();
    app.use_at(
        "/files",
        (
            webfw::compression(()),
            webfw::static_(&dir, webfw::StaticOptions::new()),
        ),
    );
    let srv = TestServer::start(app).await;
    let res = gzip_get(&srv, "/files/lorem.txt").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    assert_eq!(res.header("accept-ranges"), Some("bytes"));
    assert!(
        res.header("etag")
            .is_some_and(|t| t.starts_with("W/\"32000-"))
    );
    assert!(res.chunked);
    assert_eq!(gunzip(&res.body), content);

    // A range is compressed as it is sent, its Content-Range about the
    // uncompressed bytes (the package changes nothing there).
    let res = srv
        .call(
            "GET",
            "/files/lorem.txt",
            &[("Accept-Encoding", "gzip"), ("Range", "bytes=1000-70999")],
        )
        .await;
    assert_eq!(res.status, 206);
    assert_eq!(res.header("content-range"), Some("bytes 1000-70999/204800"));
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    assert_eq!(gunzip(&res.body), &content[1000..71000]);

    // A range under the threshold is sent as it is.
    let res = srv
        .call(
            "GET",
            "/files/lorem.txt",
            &[("Accept-Encoding", "br"), ("Range", "bytes=0-99")],
        )
        .await;
    assert_eq!(res.status, 206);
    assert_eq!(res.header("content-encoding"), None);
    assert_eq!(res.header("vary"), Some("Accept-Encoding"));
    assert_eq!(res.body, &content[..100]);

    // br through the streamed path too.
    let res = srv
        .call("GET", "/files/lorem.txt", &[("Accept-Encoding", "br")])
        .await;
    assert_eq!(unbrotli(&res.body), content);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The process's resident set, in bytes.
fn rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .expect("VmRSS line");
    let kib: usize = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("VmRSS in kB");
    kib * 1024
}

/// 64 KiB that deflate cannot shrink: repeated, they are further apart
/// than its 32 KiB window.
fn noise() -> bytes::Bytes {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..64 * 1024)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect::<Vec<u8>>()
        .into()
}

const GIB: u64 = 1 << 30;
const MIB: usize = 1 << 20;

#[tokio::test]
async fn a_client_that_stops_reading_a_compressed_stream_holds_bounded_memory() {
    // It reads this process's RSS: alone in a child process.
    if !common::alone(
        module_path!(),
        "a_client_that_stops_reading_a_compressed_stream_holds_bounded_memory",
    ) {
        return;
    }
    let counted = Arc::new(AtomicU64::new(0));
    let written = counted.clone();
    let (done_tx, done_rx) = oneshot::channel::<(u64, String)>();
    let done_tx = Arc::new(std::sync::Mutex::new(Some(done_tx)));
    let mut app = webfw::app();
    // A handler that never waits for `drain`: writing fails once the
    // compressed bytes waiting reach the response's bound.
    app.get(
        "/greedy",
        (
            webfw::compression(CompressionOptions::new().level(1)),
            move |_: &mut Request, res: &mut Response| {
                let block = noise();
                res.type_("text");
                let mut sent = 0u64;
                let outcome = loop {
                    if sent >= GIB {
                        break "wrote it all".to_owned();
                    }
                    if let Err(e) = res.write(block.clone()) {
                        break e.message().to_owned();
                    }
                    sent += block.len() as u64;
                };
                if let Some(tx) = done_tx.lock().unwrap().take() {
                    let _ = tx.send((sent, outcome));
                }
                res.end()
            },
        ),
    );
    // A handler that waits for `drain` between writes, as it should.
    app.get(
        "/patient",
        (
            webfw::compression(CompressionOptions::new().brotli(BrotliOptions::new().quality(1))),
            async_handler(move |_req, res| {
                let written = written.clone();
                Box::pin(async move {
                    let block = noise();
                    res.type_("text");
                    while written.load(Ordering::SeqCst) < GIB {
                        res.write(block.clone())?;
                        written.fetch_add(block.len() as u64, Ordering::SeqCst);
                        res.drain().await?;
                    }
                    res.end()
                })
            }),
        ),
    );
    let srv = TestServer::start(app).await;
    // Warm up the runtime and the allocator before the baseline.
    let warm = gzip_get(&srv, "/nothing").await;
    assert_eq!(warm.status, 404);
    let before = rss();

    let mut greedy = TcpStream::connect(srv.addr).await.unwrap();
    greedy
        .write_all(&request("GET", "/greedy", &[("Accept-Encoding", "gzip")]))
        .await
        .unwrap();
    let (sent, outcome) = guard("the greedy handler to stop", done_rx).await.unwrap();
    assert!(outcome.contains("await res.drain()"), "{outcome}");
    assert!(
        sent < GIB / 8,
        "wrote {sent} bytes to a client that reads nothing"
    );
    let grown = rss().saturating_sub(before);
    assert!(grown < 64 * MIB, "RSS grew by {} MiB", grown / MIB);

    let mut patient = TcpStream::connect(srv.addr).await.unwrap();
    patient
        .write_all(&request("GET", "/patient", &[("Accept-Encoding", "br")]))
        .await
        .unwrap();
    // Read the first MiB, then stop reading: the handler stops with it.
    let mut got = 0;
    let mut buf = vec![0u8; 64 * 1024];
    while got < MIB {
        let n = guard("the first MiB", patient.read(&mut buf))
            .await
            .unwrap();
        assert_ne!(n, 0);
        got += n;
    }
    guard("the patient handler to be held back", async {
        let mut last = counted.load(Ordering::SeqCst);
        let mut still = 0;
        while still < 20 {
            tokio::time::sleep(Duration::from_millis(25)).await;
            let now = counted.load(Ordering::SeqCst);
            still = if now == last { still + 1 } else { 0 };
            last = now;
        }
    })
    .await;
    let held = counted.load(Ordering::SeqCst);
    assert!(
        held < 64 * MIB as u64,
        "wrote {held} bytes to a client that stopped"
    );
    let grown = rss().saturating_sub(before);
    assert!(grown < 64 * MIB, "RSS grew by {} MiB", grown / MIB);
    drop((greedy, patient));
}
