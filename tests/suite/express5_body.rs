//! The Express 5 body parsers (`webfw::express5::json`, `urlencoded`,
//! `text`, `raw`: body-parser 2.4) over real sockets, on the `/body` router
//! of ROUTES5.md: every status and body below is what express 5.3 answers
//! to the same bytes.

use crate::common;

use std::io::Write;

use common::TestServer;
use webfw::body::{Body, JsonOptions, UrlencodedOptions};
use webfw::prelude::*;

/// ROUTES5's `echoBody`.
fn echo(req: &mut Request, res: &mut Response) -> Result {
    let out = match req.body() {
        Body::Bytes(b) => {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            serde_json::json!({ "kind": "buffer", "length": b.len(), "hex": hex })
        }
        other => serde_json::json!({ "kind": other.type_of(), "body": other }),
    };
    res.json(&out)
}

fn body_router() -> Router {
    use webfw::express5::{json, json_with, raw, text, urlencoded, urlencoded_with};
    let form = UrlencodedOptions::new;
    let mut r = webfw::express5::router();
    r.post("/json", (json(), echo));
    r.get("/json", (json(), echo));
    r.post(
        "/json/lax",
        (json_with(JsonOptions::new().strict(false)), echo),
    );
    r.post(
        "/json/limit",
        (json_with(JsonOptions::new().limit(64)), echo),
    );
    r.post(
        "/json/no-inflate",
        (json_with(JsonOptions::new().inflate(false)), echo),
    );
    r.post("/urlencoded", (urlencoded(), echo));
    r.post(
        "/urlencoded/extended",
        (urlencoded_with(form().extended(true)), echo),
    );
    r.post(
        "/urlencoded/depth",
        (urlencoded_with(form().extended(true).depth(1)), echo),
    );
    r.post(
        "/urlencoded/params",
        (urlencoded_with(form().parameter_limit(3)), echo),
    );
    r.post(
        "/urlencoded/latin1",
        (urlencoded_with(form().default_charset("iso-8859-1")), echo),
    );
    r.post(
        "/urlencoded/sentinel",
        (
            urlencoded_with(
                form()
                    .charset_sentinel(true)
                    .interpret_numeric_entities(true),
            ),
            echo,
        ),
    );
    r.post("/text", (text(), echo));
    r.post("/raw", (raw(), echo));
    r.post("/none", echo);
    r.post("/chain", (json(), urlencoded(), text(), echo));
    r.use_(
        |err: Error, _req: &mut Request, res: &mut Response| -> Result {
            let s = err.status();
            res.status(s)
                .json(&serde_json::json!({"error": {"status": s, "type": err.kind()}}))
        },
    );
    r
}

async fn server() -> TestServer {
    let mut app = webfw::express5::app();
    app.use_at("/body", body_router());
    TestServer::start(app).await
}

fn request(method: &str, path: &str, headers: &[(&str, &str)], body: Option<&[u8]>) -> Vec<u8> {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        head.push_str(&format!("Content-Length: {}\r\n", b.len()));
    }
    head.push_str("Connection: close\r\n\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.unwrap_or_default());
    bytes
}

/// `POST /body{path}` and the status and body of the answer.
async fn post(s: &TestServer, path: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String) {
    let r = s
        .raw(request(
            "POST",
            &format!("/body{path}"),
            headers,
            Some(body),
        ))
        .await;
    (r.status, r.text())
}

const JSON: (&str, &str) = ("Content-Type", "application/json");
const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");
const UNDEFINED: &str = r#"{"kind":"undefined","body":null}"#;

fn ok(body: &str) -> (u16, String) {
    (200, body.to_owned())
}

fn failed(status: u16, kind: Option<&str>) -> (u16, String) {
    let kind = kind.map_or("null".to_owned(), |k| format!("\"{k}\""));
    (
        status,
        format!(r#"{{"error":{{"status":{status},"type":{kind}}}}}"#),
    )
}

fn br(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        w.write_all(data).unwrap();
    }
    out
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[tokio::test]
async fn body_stays_undefined_when_nothing_parses() {
    let s = server().await;
    // No body at all.
    let r = s.raw(request("GET", "/body/json", &[JSON], None)).await;
    assert_eq!((r.status, r.text()), ok(UNDEFINED));
    // Another type, or none.
    let plain = ("Content-Type", "text/plain");
    assert_eq!(post(&s, "/json", &[plain], b"hi").await, ok(UNDEFINED));
    assert_eq!(post(&s, "/json", &[], b"{}").await, ok(UNDEFINED));
    assert_eq!(post(&s, "/raw", &[plain], b"\x01").await, ok(UNDEFINED));
    // No parser.
    assert_eq!(
        post(&s, "/none", &[JSON], br#"{"a":1}"#).await,
        ok(UNDEFINED)
    );
    // Three parsers, none of them for this type.
    let xml = ("Content-Type", "application/xml");
    assert_eq!(post(&s, "/chain", &[xml], b"<a/>").await, ok(UNDEFINED));
    // The one that matches parses, the others leave it.
    assert_eq!(
        post(&s, "/chain", &[plain], b"hi").await,
        ok(r#"{"kind":"string","body":"hi"}"#)
    );
    assert_eq!(
        post(&s, "/chain", &[FORM], b"a[b]=1").await,
        ok(r#"{"kind":"object","body":{"a[b]":"1"}}"#)
    );
    // An empty JSON body is still `{}`.
    assert_eq!(
        post(&s, "/json", &[JSON], b"").await,
        ok(r#"{"kind":"object","body":{}}"#)
    );
}

/// The Express 4 parsers keep body-parser 1's `{}`, in an Express 5 app too.
#[tokio::test]
async fn express4_parsers_are_unchanged() {
    let mut app = webfw::express5::app();
    app.post("/e4", (webfw::json(JsonOptions::new()), echo));
    app.post("/e5", (webfw::express5::json(), echo));
    let s = TestServer::start(app).await;
    let plain = [("Content-Type", "text/plain")];
    let e4 = s.raw(request("POST", "/e4", &plain, Some(b"x"))).await;
    assert_eq!(e4.text(), r#"{"kind":"object","body":{}}"#);
    let e5 = s.raw(request("POST", "/e5", &plain, Some(b"x"))).await;
    assert_eq!(e5.text(), UNDEFINED);
    let brotli = [JSON, ("Content-Encoding", "br")];
    let e4 = s
        .raw(request("POST", "/e4", &brotli, Some(&br(b"{}"))))
        .await;
    assert_eq!(e4.status, 415);
}

#[tokio::test]
async fn urlencoded_defaults_to_literal_keys() {
    let s = server().await;
    assert_eq!(
        post(
            &s,
            "/urlencoded",
            &[FORM],
            b"a[b]=1&a[c][]=2&__proto__=x&n=1&n=2"
        )
        .await,
        ok(r#"{"kind":"object","body":{"a[b]":"1","a[c][]":"2","n":["1","2"]}}"#)
    );
    assert_eq!(
        post(&s, "/urlencoded/extended", &[FORM], b"a[b]=1&a[c][]=2").await,
        ok(r#"{"kind":"object","body":{"a":{"b":"1","c":["2"]}}}"#)
    );
}

#[tokio::test]
async fn urlencoded_charsets() {
    let s = server().await;
    let latin1 = (
        "Content-Type",
        "application/x-www-form-urlencoded; charset=iso-8859-1",
    );
    let cafe = r#"{"kind":"object","body":{"n":"café","m":"é"}}"#;
    assert_eq!(
        post(&s, "/urlencoded", &[latin1], b"n=caf%E9&m=\xe9").await,
        ok(cafe)
    );
    assert_eq!(
        post(&s, "/urlencoded/latin1", &[FORM], b"n=caf%E9&m=\xe9").await,
        ok(cafe)
    );
    let utf8 = (
        "Content-Type",
        "application/x-www-form-urlencoded; charset=utf-8",
    );
    assert_eq!(
        post(&s, "/urlencoded/latin1", &[utf8], b"n=caf%C3%A9").await,
        ok(r#"{"kind":"object","body":{"n":"café"}}"#)
    );
    let koi8 = (
        "Content-Type",
        "application/x-www-form-urlencoded; charset=koi8-r",
    );
    assert_eq!(
        post(&s, "/urlencoded", &[koi8], b"n=1").await,
        failed(415, Some("charset.unsupported"))
    );
    assert_eq!(
        post(
            &s,
            "/urlencoded/sentinel",
            &[FORM],
            b"utf8=%26%2310003%3B&n=caf%E9&x=%26%2310003%3B"
        )
        .await,
        ok(r#"{"kind":"object","body":{"n":"café","x":"✓"}}"#)
    );
}

#[tokio::test]
async fn brotli_bodies_are_inflated() {
    let s = server().await;
    let a1 = br(br#"{"a":1}"#);
    let want = ok(r#"{"kind":"object","body":{"a":1}}"#);
    for coding in ["br", "BR"] {
        let h = [JSON, ("Content-Encoding", coding)];
        assert_eq!(post(&s, "/json", &h, &a1).await, want, "{coding}");
    }
    let h = [JSON, ("Content-Encoding", "br")];
    // Corrupt, cut short, or empty: zlib's error, no type.
    assert_eq!(
        post(&s, "/json", &h, b"not brotli at all").await,
        failed(400, None)
    );
    assert_eq!(
        post(&s, "/json", &h, &a1[..a1.len() - 2]).await,
        failed(400, None)
    );
    assert_eq!(post(&s, "/json", &h, b"").await, failed(400, None));
    // The limit counts inflated bytes.
    let big = br(format!(r#"{{"a":"{}"}}"#, "x".repeat(200)).as_bytes());
    assert!(big.len() < 64);
    assert_eq!(
        post(&s, "/json/limit", &h, &big).await,
        failed(413, Some("entity.too.large"))
    );
    let text = [("Content-Type", "text/plain"), ("Content-Encoding", "br")];
    assert_eq!(
        post(&s, "/text", &text, &a1).await,
        ok(r#"{"kind":"string","body":"{\"a\":1}"}"#)
    );
}

#[tokio::test]
async fn other_encodings_and_no_inflate_are_415() {
    let s = server().await;
    let unsupported = failed(415, Some("encoding.unsupported"));
    let zstd = [JSON, ("Content-Encoding", "zstd")];
    assert_eq!(post(&s, "/json", &zstd, b"xx").await, unsupported);
    let a1 = br#"{"a":1}"#;
    for (coding, body) in [("gzip", gzip(a1)), ("br", br(a1))] {
        let h = [JSON, ("Content-Encoding", coding)];
        assert_eq!(
            post(&s, "/json/no-inflate", &h, &body).await,
            unsupported,
            "{coding}"
        );
    }
    let identity = [JSON, ("Content-Encoding", "identity")];
    assert_eq!(
        post(&s, "/json/no-inflate", &identity, a1).await,
        ok(r#"{"kind":"object","body":{"a":1}}"#)
    );
}

#[tokio::test]
async fn content_type_is_read_leniently() {
    let s = server().await;
    let a1 = ok(r#"{"kind":"object","body":{"a":1}}"#);
    for ct in [
        "application/json;;charset=utf-8",
        "application/json; charset",
    ] {
        let h = [("Content-Type", ct)];
        assert_eq!(post(&s, "/json", &h, br#"{"a":1}"#).await, a1, "{ct}");
    }
    let latin1 = [("Content-Type", "application/json;;charset=latin1")];
    assert_eq!(
        post(&s, "/json", &latin1, b"{}").await,
        failed(415, Some("charset.unsupported"))
    );
}

#[tokio::test]
async fn limits_and_errors() {
    let s = server().await;
    assert_eq!(
        post(&s, "/urlencoded/depth", &[FORM], b"a[b]=1").await,
        ok(r#"{"kind":"object","body":{"a":{"b":"1"}}}"#)
    );
    assert_eq!(
        post(&s, "/urlencoded/depth", &[FORM], b"a[b][c]=1").await,
        failed(400, Some("querystring.parse.rangeError"))
    );
    assert_eq!(
        post(&s, "/urlencoded/params", &[FORM], b"a=1&b=2&c=3").await,
        ok(r#"{"kind":"object","body":{"a":"1","b":"2","c":"3"}}"#)
    );
    assert_eq!(
        post(&s, "/urlencoded/params", &[FORM], b"a=1&b=2&c=3&d=4").await,
        failed(413, Some("parameters.too.many"))
    );
    let long = format!(r#"{{"a":"{}"}}"#, "x".repeat(100));
    assert_eq!(
        post(&s, "/json/limit", &[JSON], long.as_bytes()).await,
        failed(413, Some("entity.too.large"))
    );
    assert_eq!(
        post(&s, "/json", &[JSON], br#""str""#).await,
        failed(400, Some("entity.parse.failed"))
    );
    assert_eq!(
        post(&s, "/json/lax", &[JSON], br#""str""#).await,
        ok(r#"{"kind":"string","body":"str"}"#)
    );
    assert_eq!(
        post(&s, "/json", &[JSON], br#"{"a":}"#).await,
        failed(400, Some("entity.parse.failed"))
    );
    let octets = [("Content-Type", "application/octet-stream")];
    assert_eq!(
        post(&s, "/raw", &octets, b"\x01\x02").await,
        ok(r#"{"kind":"buffer","length":2,"hex":"0102"}"#)
    );
}
