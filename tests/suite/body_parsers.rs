//! The body parsers over real sockets: every option of `webfw::json`,
//! `raw`, `text` and `urlencoded`, and every error body-parser 1.20 makes,
//! with its status, `type` and message.

use crate::common;

use std::io::Write;
use std::sync::Arc;

use common::{Log, TestServer, guard};
use flate2::Compression;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use webfw::body::{Body, JsonOptions, RawOptions, TextOptions, UrlencodedOptions};
use webfw::prelude::*;

/// `{kind, body}` (or `{kind: "buffer", hex}`) of `req.body`.
fn echo(req: &mut Request, res: &mut Response) -> Result {
    let out = match req.body() {
        Body::Bytes(b) => {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            json!({ "kind": "buffer", "hex": hex })
        }
        other => json!({ "kind": other.type_of(), "body": other }),
    };
    res.json(&out)
}

fn app_with(log: Arc<Log>) -> App {
    let mut app = webfw::app();
    app.post("/json", (webfw::json(JsonOptions::new()), echo));
    app.post(
        "/json/lax",
        (webfw::json(JsonOptions::new().strict(false)), echo),
    );
    app.post(
        "/json/limit",
        (webfw::json(JsonOptions::new().limit(64)), echo),
    );
    app.post(
        "/json/gz-limit",
        (webfw::json(JsonOptions::new().limit("1kb")), echo),
    );
    app.post(
        "/json/no-inflate",
        (webfw::json(JsonOptions::new().inflate(false)), echo),
    );
    app.post(
        "/json/types",
        (
            webfw::json(JsonOptions::new().type_(["+json", "txt"])),
            echo,
        ),
    );
    app.post(
        "/json/type-fn",
        (
            webfw::json(JsonOptions::new().type_fn(|req| req.get("x-json").is_some())),
            echo,
        ),
    );
    app.post(
        "/json/reviver",
        (
            webfw::json(
                JsonOptions::new().reviver(|k, v| if k == "secret" { None } else { Some(v) }),
            ),
            echo,
        ),
    );
    app.post(
        "/json/verify",
        (
            webfw::json(JsonOptions::new().verify(|_req, _res, buf, enc| {
                assert_eq!(enc, Some("utf-8"));
                if buf.starts_with(b"{\"teapot") {
                    Err(Error::new("short and stout").with_status(418))
                } else if buf.windows(3).any(|w| w == b"bad") {
                    Err(Error::new("bad bytes"))
                } else {
                    Ok(())
                }
            })),
            echo,
        ),
    );
    app.post(
        "/raw",
        (
            webfw::raw(RawOptions::new().type_("*/*").limit("1kb")),
            echo,
        ),
    );
    app.post("/text", (webfw::text(TextOptions::new()), echo));
    app.post(
        "/text/latin1",
        (
            webfw::text(TextOptions::new().default_charset("latin1")),
            echo,
        ),
    );
    app.post("/form", (webfw::urlencoded(UrlencodedOptions::new()), echo));
    app.post(
        "/form/simple",
        (
            webfw::urlencoded(UrlencodedOptions::new().extended(false)),
            echo,
        ),
    );
    app.post(
        "/form/params",
        (
            webfw::urlencoded(UrlencodedOptions::new().parameter_limit(2)),
            echo,
        ),
    );
    app.post(
        "/form/depth",
        (webfw::urlencoded(UrlencodedOptions::new().depth(2)), echo),
    );
    app.post(
        "/twice",
        (
            webfw::json(JsonOptions::new()),
            webfw::text(TextOptions::new().type_("*/*")),
            echo,
        ),
    );
    app.all("/any", (webfw::json(JsonOptions::new()), echo));
    app.use_(
        move |err: Error, _req: &mut Request, res: &mut Response| -> Result {
            log.push(err.kind().unwrap_or("-").to_owned());
            let body = json!({
                "status": err.status(),
                "type": err.kind(),
                "message": err.message(),
                "expose": err.expose(),
                "name": err.name(),
            });
            res.status(err.status()).json(&body)
        },
    );
    app
}

async fn server() -> (TestServer, Arc<Log>) {
    let log = Arc::new(Log::new());
    (TestServer::start(app_with(log.clone())).await, log)
}

fn post(path: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut req = format!("POST {path} HTTP/1.1\r\nHost: localhost\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    let mut bytes = req.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

fn chunked(path: &str, ct: &str, chunks: &[&[u8]]) -> Vec<u8> {
    let mut bytes = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {ct}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    .into_bytes();
    for c in chunks.iter().filter(|c| !c.is_empty()) {
        bytes.extend_from_slice(format!("{:x}\r\n", c.len()).as_bytes());
        bytes.extend_from_slice(c);
        bytes.extend_from_slice(b"\r\n");
    }
    bytes.extend_from_slice(b"0\r\n\r\n");
    bytes
}

const JSON: (&str, &str) = ("Content-Type", "application/json");

async fn call(s: &TestServer, path: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, Value) {
    let r = s.raw(post(path, headers, body)).await;
    (r.status, r.json())
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[tokio::test]
async fn json_objects_arrays_and_empty_bodies() {
    let (s, _) = server().await;
    let (st, v) = call(&s, "/json", &[JSON], br#"{"b":1,"2":true,"a":[null,"x"]}"#).await;
    assert_eq!(st, 200);
    // V8 lists array-index keys first.
    assert_eq!(
        serde_json::to_string(&v["body"]).unwrap(),
        r#"{"2":true,"b":1,"a":[null,"x"]}"#
    );
    let (_, v) = call(&s, "/json", &[JSON], b"").await;
    assert_eq!(v, json!({"kind": "object", "body": {}}));
    let (_, v) = call(&s, "/json", &[JSON], b" [1.5e3, -0]").await;
    assert_eq!(serde_json::to_string(&v["body"]).unwrap(), "[1500,0]");
}

#[tokio::test]
async fn json_syntax_errors_carry_node_messages() {
    let (s, _) = server().await;
    let (st, v) = call(&s, "/json", &[JSON], br#"{"a":}"#).await;
    assert_eq!(st, 400);
    assert_eq!(v["type"], "entity.parse.failed");
    assert_eq!(v["name"], "SyntaxError");
    assert_eq!(v["expose"], true);
    assert_eq!(
        v["message"],
        "Unexpected token '}', \"{\"a\":}\" is not valid JSON"
    );
    let (_, v) = call(&s, "/json", &[JSON], b"{\"a\":1").await;
    assert_eq!(
        v["message"],
        "Expected ',' or '}' after property value in JSON at position 6"
    );
}

/// Node parses any nesting; webfw takes 127 levels (a `serde_json::Value`
/// is dropped, cloned and compared recursively, and deeper values could
/// overflow a thread's stack) and says so for deeper bodies.
#[tokio::test]
async fn nesting_past_127_levels_is_refused_with_a_clear_message() {
    let (s, _) = server().await;
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    // Echoed inside an object: text, as serde_json would not read it back.
    let r = s.raw(post("/json", &[JSON], deep(127).as_bytes())).await;
    assert_eq!(r.status, 200);
    assert!(r.text().ends_with(&format!(r#""body":{}}}"#, deep(127))));
    let (st, v) = call(&s, "/json", &[JSON], deep(50_000).as_bytes()).await;
    assert_eq!(
        (st, &v["type"], &v["message"]),
        (
            400,
            &json!("entity.parse.failed"),
            &json!("Nesting deeper than 127 levels in JSON at position 127")
        )
    );
}

#[tokio::test]
async fn strict_refuses_primitives_and_lax_takes_them() {
    let (s, _) = server().await;
    let (st, v) = call(&s, "/json", &[JSON], b"\n \"str\"").await;
    assert_eq!(st, 400);
    assert_eq!(
        v["message"],
        "Unexpected token '\"', \"\n \"str\"\" is not valid JSON"
    );
    let (st, v) = call(&s, "/json/lax", &[JSON], b"\"str\"").await;
    assert_eq!((st, v), (200, json!({"kind": "string", "body": "str"})));
    let (_, v) = call(&s, "/json/lax", &[JSON], b"null").await;
    assert_eq!(v, json!({"kind": "object", "body": null}));
    let (_, v) = call(&s, "/json/lax", &[JSON], b"12").await;
    assert_eq!(v, json!({"kind": "number", "body": 12}));
}

#[tokio::test]
async fn limit_is_inclusive_and_checked_before_reading() {
    let (s, _) = server().await;
    let at = format!("{{\"p\":\"{}\"}}", "a".repeat(64 - 8));
    assert_eq!(at.len(), 64);
    assert_eq!(call(&s, "/json/limit", &[JSON], at.as_bytes()).await.0, 200);
    let over = format!("{{\"p\":\"{}\"}}", "a".repeat(65 - 8));
    let (st, v) = call(&s, "/json/limit", &[JSON], over.as_bytes()).await;
    assert_eq!(
        (st, &v["type"], &v["message"]),
        (
            413,
            &json!("entity.too.large"),
            &json!("request entity too large")
        )
    );
    assert_eq!(v["name"], "PayloadTooLargeError");
    // Only the head is sent: the declared length alone is refused.
    let head = "POST /json/limit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n";
    let mut conn = common::Conn::open(s.addr).await;
    conn.send(head).await;
    let r = guard("413 before the body", conn.read_response(false)).await;
    assert_eq!(r.status, 413);
}

#[tokio::test]
async fn chunked_bodies_are_counted_as_they_stream() {
    let (s, _) = server().await;
    let piece = [b'7'; 40];
    let r = s
        .raw(chunked(
            "/json/limit",
            "application/json",
            &[b"[", &piece[..20], b"]"],
        ))
        .await;
    assert_eq!(r.status, 200);
    let r = s
        .raw(chunked(
            "/json/limit",
            "application/json",
            &[b"[", &piece, &piece, b"]"],
        ))
        .await;
    assert_eq!(r.status, 413);
    assert_eq!(r.json()["type"], "entity.too.large");
}

#[tokio::test]
async fn any_split_of_a_chunked_body_parses_the_same() {
    let (s, _) = server().await;
    let body: &[u8] = "{\"k\":[1,2,{\"deep\":\"caf\u{e9} \u{2713}\"}],\"z\":null}".as_bytes();
    let whole = s.raw(post("/json", &[JSON], body)).await.json();
    assert_eq!(whole["body"]["k"][2]["deep"], "caf\u{e9} \u{2713}");
    for i in 0..=body.len() {
        let r = s
            .raw(chunked(
                "/json",
                "application/json",
                &[&body[..i], &body[i..]],
            ))
            .await;
        assert_eq!(r.json(), whole, "split at {i}");
    }
    // Three-way splits from a fixed pseudo-random sequence.
    let mut x: u32 = 0x2545_f491;
    for _ in 0..40 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let a = x as usize % (body.len() + 1);
        let b = a + (x >> 8) as usize % (body.len() + 1 - a);
        let r = s
            .raw(chunked(
                "/json",
                "application/json",
                &[&body[..a], &body[a..b], &body[b..]],
            ))
            .await;
        assert_eq!(r.json(), whole, "splits at {a} and {b}");
    }
}

#[tokio::test]
async fn gzip_and_deflate_are_inflated_and_counted_inflated() {
    let (s, _) = server().await;
    let gz = gzip(br#"{"zipped":true}"#);
    let (st, v) = call(&s, "/json", &[JSON, ("Content-Encoding", "gzip")], &gz).await;
    assert_eq!((st, v["body"].clone()), (200, json!({"zipped": true})));
    let df = deflate(br#"{"deflated":1}"#);
    let (_, v) = call(&s, "/json", &[JSON, ("Content-Encoding", "Deflate")], &df).await;
    assert_eq!(v["body"], json!({"deflated": 1}));
    // 1 MB of spaces compresses to about a kilobyte: the limit counts what it inflates to.
    let mut bomb = b"[".to_vec();
    bomb.resize(1_000_000, b' ');
    bomb.push(b']');
    let gz = gzip(&bomb);
    assert!(gz.len() < 1024 * 2);
    let (st, v) = call(
        &s,
        "/json/gz-limit",
        &[JSON, ("Content-Encoding", "gzip")],
        &gz,
    )
    .await;
    assert_eq!((st, v["type"].clone()), (413, json!("entity.too.large")));
}

/// Node's gunzip reads every member of a concatenated gzip stream, and the
/// decoder is reused for each. Members that inflate to nothing cost CPU
/// without reaching the limit: compressed bytes past twice the limit plus
/// 64 KiB get 413 (Express would read all 50 MB of them).
#[tokio::test]
async fn gzip_members_are_read_and_compressed_bytes_are_bounded() {
    let (s, _) = server().await;
    let mut two = gzip(br#"{"a":"#);
    two.extend(gzip(b"[1,2]}"));
    let (st, v) = call(&s, "/json", &[JSON, ("Content-Encoding", "gzip")], &two).await;
    assert_eq!((st, v["body"].clone()), (200, json!({"a": [1, 2]})));
    let empty = gzip(b"");
    let cap = 2 * 100 * 1024 + 64 * 1024;
    let mut flood = gzip(br#"{"a":1}"#);
    while flood.len() <= cap - empty.len() {
        flood.extend_from_slice(&empty);
    }
    let (st, v) = call(&s, "/json", &[JSON, ("Content-Encoding", "gzip")], &flood).await;
    assert_eq!((st, v["body"].clone()), (200, json!({"a": 1})));
    flood.extend_from_slice(&empty);
    flood.extend_from_slice(&empty);
    let (st, v) = call(&s, "/json", &[JSON, ("Content-Encoding", "gzip")], &flood).await;
    assert_eq!((st, v["type"].clone()), (413, json!("entity.too.large")));
}

#[tokio::test]
async fn corrupt_and_truncated_compressed_bodies_get_zlibs_messages() {
    let (s, _) = server().await;
    let (st, v) = call(
        &s,
        "/json",
        &[JSON, ("Content-Encoding", "gzip")],
        b"not gzip at all",
    )
    .await;
    assert_eq!(
        (st, v["message"].clone(), v["type"].clone()),
        (400, json!("incorrect header check"), Value::Null)
    );
    let gz = gzip(br#"{"a":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}"#);
    let (st, v) = call(
        &s,
        "/json",
        &[JSON, ("Content-Encoding", "gzip")],
        &gz[..gz.len() - 6],
    )
    .await;
    assert_eq!(
        (st, v["message"].clone()),
        (400, json!("unexpected end of file"))
    );
    // Node's messages for these two deflate streams: a reserved block type,
    // and a zlib header that asks for a preset dictionary.
    for (body, message) in [
        (&[0x78, 0x9c, 0x07, 0, 0][..], "invalid block type"),
        (
            &[0x78, 0x20, 0, 0, 0, 1, 0x03, 0x00][..],
            "Missing dictionary",
        ),
    ] {
        let (st, v) = call(&s, "/json", &[JSON, ("Content-Encoding", "deflate")], body).await;
        assert_eq!((st, v["message"].clone()), (400, json!(message)));
    }
}

#[tokio::test]
async fn encodings_that_cannot_be_read_are_415() {
    let (s, _) = server().await;
    let (st, v) = call(&s, "/json", &[JSON, ("Content-Encoding", "br")], b"{}").await;
    assert_eq!(
        (st, v["type"].clone()),
        (415, json!("encoding.unsupported"))
    );
    assert_eq!(v["message"], "unsupported content encoding \"br\"");
    let gz = gzip(b"{}");
    let (st, v) = call(
        &s,
        "/json/no-inflate",
        &[JSON, ("Content-Encoding", "gzip")],
        &gz,
    )
    .await;
    assert_eq!(
        (st, v["message"].clone()),
        (415, json!("content encoding unsupported"))
    );
    let (st, _) = call(
        &s,
        "/json/no-inflate",
        &[JSON, ("Content-Encoding", "identity")],
        b"{}",
    )
    .await;
    assert_eq!(st, 200);
}

#[tokio::test]
async fn charsets() {
    let (s, _) = server().await;
    let (st, v) = call(
        &s,
        "/json",
        &[("Content-Type", "application/json; charset=latin1")],
        b"{}",
    )
    .await;
    assert_eq!(
        (st, v["type"].clone(), v["message"].clone()),
        (
            415,
            json!("charset.unsupported"),
            json!("unsupported charset \"LATIN1\"")
        )
    );
    let utf16: Vec<u8> = "{\"\u{e9}\":1}"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    let (st, v) = call(
        &s,
        "/json",
        &[("Content-Type", "application/json; charset=utf-16be")],
        &utf16,
    )
    .await;
    assert_eq!((st, v["body"].clone()), (200, json!({"\u{e9}": 1})));
    let (_, v) = call(
        &s,
        "/text",
        &[("Content-Type", "text/plain; charset=windows-1251")],
        b"\xcf\xf0\xe8",
    )
    .await;
    assert_eq!(v["body"], "При");
    let (_, v) = call(
        &s,
        "/text/latin1",
        &[("Content-Type", "text/plain")],
        b"na\xefve",
    )
    .await;
    assert_eq!(v["body"], "na\u{ef}ve");
    let (st, v) = call(
        &s,
        "/text",
        &[("Content-Type", "text/plain; charset=x-unknown")],
        b"x",
    )
    .await;
    assert_eq!(
        (st, v["message"].clone()),
        (415, json!("unsupported charset \"X-UNKNOWN\""))
    );
    let (st, v) = call(
        &s,
        "/form",
        &[(
            "Content-Type",
            "application/x-www-form-urlencoded; charset=utf-16",
        )],
        b"a=1",
    )
    .await;
    assert_eq!((st, v["type"].clone()), (415, json!("charset.unsupported")));
}

/// Charsets beyond the usual ones, each answered as body-parser 1.20 with
/// iconv-lite 0.4.24 answers it (checked against Express 4 on node 20).
#[tokio::test]
async fn odd_charsets_decode_as_iconv_lite_does() {
    let (s, _) = server().await;
    let text = |charset: &str| format!("text/plain; charset={charset}");
    for (charset, body, expected) in [
        ("utf-7", &b"+AOk-t+AOk-"[..], "été"),
        ("UTF-7", b"a+-b", "a+b"),
        ("utf-7-imap", b"&AOk-", "é"),
        ("base64", b"hi", "aGk="),
        ("hex", b"hi", "6869"),
        ("binary", b"\xe9", "é"),
        ("ucs2", b"h\0i\0", "hi"),
        ("ucs-2", b"\xff\xfeh\0", "h"),
        ("cp437", b"\x80", "Ç"),
        ("ibm850", b"\x9b", "ø"),
        ("macintosh", b"\x8e", "é"),
        ("windows-1252", b"\x80\x81", "€\u{fffd}"),
        ("latin1", b"\xef\xbb\xbf!", "ï»¿!"),
    ] {
        let (st, v) = call(&s, "/text", &[("Content-Type", &text(charset))], body).await;
        assert_eq!((st, &v["body"]), (200, &json!(expected)), "{charset}");
    }
    for charset in ["utf-32", "iso-2022-jp", "cp720", "x-mac-roman"] {
        let (st, v) = call(&s, "/text", &[("Content-Type", &text(charset))], b"x").await;
        let message = format!("unsupported charset \"{}\"", charset.to_uppercase());
        assert_eq!(
            (st, &v["type"], &v["message"]),
            (415, &json!("charset.unsupported"), &json!(message)),
            "{charset}"
        );
    }
    // json takes only charsets starting with `utf-`, UTF-7 among them.
    let (st, v) = call(
        &s,
        "/json",
        &[("Content-Type", "application/json; charset=utf-7")],
        br#"{"+AOk-":"+AOk-"}"#,
    )
    .await;
    assert_eq!((st, &v["body"]), (200, &json!({"é": "é"})));
    for charset in ["base64", "ucs-2", "binary"] {
        let ct = format!("application/json; charset={charset}");
        let (st, v) = call(&s, "/json", &[("Content-Type", &ct)], b"{}").await;
        let message = format!("unsupported charset \"{}\"", charset.to_uppercase());
        assert_eq!((st, &v["message"]), (415, &json!(message)), "{charset}");
    }
    let (st, v) = call(
        &s,
        "/json",
        &[("Content-Type", "application/json; charset=utf-32")],
        b"{}",
    )
    .await;
    assert_eq!((st, &v["type"]), (415, &json!("charset.unsupported")));
    // raw never decodes, whatever the charset says.
    for charset in ["utf-7", "nope"] {
        let ct = format!("application/octet-stream; charset={charset}");
        let (st, v) = call(&s, "/raw", &[("Content-Type", &ct)], b"+AOk-").await;
        assert_eq!((st, &v["hex"]), (200, &json!("2b414f6b2d")), "{charset}");
    }
}

#[tokio::test]
async fn types_decide_which_requests_are_read() {
    let (s, _) = server().await;
    let (_, v) = call(&s, "/json", &[("Content-Type", "text/plain")], b"{\"a\":1}").await;
    assert_eq!(v, json!({"kind": "object", "body": {}}));
    let (_, v) = call(
        &s,
        "/json/types",
        &[("Content-Type", "application/ld+json")],
        b"[1]",
    )
    .await;
    assert_eq!(v["body"], json!([1]));
    let (_, v) = call(&s, "/json/types", &[("Content-Type", "text/plain")], b"[2]").await;
    assert_eq!(v["body"], json!([2]));
    let (_, v) = call(&s, "/json/type-fn", &[("X-Json", "1")], b"[3]").await;
    assert_eq!(v["body"], json!([3]));
    let (_, v) = call(&s, "/json/type-fn", &[JSON], b"[3]").await;
    assert_eq!(v["body"], json!({}));
    // No body at all: skipped, and req.body is {}.
    let r = s.call("GET", "/any", &[JSON]).await;
    assert_eq!(r.json(), json!({"kind": "object", "body": {}}));
}

#[tokio::test]
async fn a_parsed_body_is_not_read_twice() {
    let (s, _) = server().await;
    let (_, v) = call(&s, "/twice", &[JSON], b"{\"once\":1}").await;
    assert_eq!(v["body"], json!({"once": 1}));
    let (_, v) = call(&s, "/twice", &[("Content-Type", "text/csv")], b"a,b").await;
    assert_eq!(v, json!({"kind": "string", "body": "a,b"}));
}

#[tokio::test]
async fn reviver_and_verify() {
    let (s, _) = server().await;
    let (_, v) = call(&s, "/json/reviver", &[JSON], br#"{"a":1,"secret":2}"#).await;
    assert_eq!(v["body"], json!({"a": 1}));
    let (st, v) = call(&s, "/json/verify", &[JSON], br#"{"bad":1}"#).await;
    assert_eq!(
        (st, v["type"].clone(), v["message"].clone()),
        (403, json!("entity.verify.failed"), json!("bad bytes"))
    );
    let (st, v) = call(&s, "/json/verify", &[JSON], br#"{"teapot":1}"#).await;
    assert_eq!(
        (st, v["type"].clone()),
        (418, json!("entity.verify.failed"))
    );
    assert_eq!(
        call(&s, "/json/verify", &[JSON], br#"{"ok":1}"#).await.0,
        200
    );
}

#[tokio::test]
async fn raw_bodies_are_bytes() {
    let (s, _) = server().await;
    let (_, v) = call(
        &s,
        "/raw",
        &[("Content-Type", "image/png")],
        b"\x00\x01\xfe",
    )
    .await;
    assert_eq!(v, json!({"kind": "buffer", "hex": "0001fe"}));
    let (st, _) = call(&s, "/raw", &[("Content-Type", "x/y")], &[0u8; 1025]).await;
    assert_eq!(st, 413);
    let gz = gzip(b"hello");
    let (_, v) = call(
        &s,
        "/raw",
        &[("Content-Type", "x/y"), ("Content-Encoding", "gzip")],
        &gz,
    )
    .await;
    assert_eq!(v["hex"], "68656c6c6f");
}

#[tokio::test]
async fn urlencoded_extended_simple_and_limits() {
    let (s, _) = server().await;
    let form = ("Content-Type", "application/x-www-form-urlencoded");
    let (_, v) = call(&s, "/form", &[form], b"a[b]=1&a[c][]=2&n=t+j&e=%E2%9C%93").await;
    assert_eq!(
        v["body"],
        json!({"a": {"b": "1", "c": ["2"]}, "n": "t j", "e": "\u{2713}"})
    );
    let (_, v) = call(&s, "/form/simple", &[form], b"a[b]=1&a=2&a=3").await;
    assert_eq!(v["body"], json!({"a[b]": "1", "a": ["2", "3"]}));
    let (st, _) = call(&s, "/form/params", &[form], b"a=1&b=2").await;
    assert_eq!(st, 200);
    let (st, v) = call(&s, "/form/params", &[form], b"a=1&b=2&c=3").await;
    assert_eq!(
        (st, v["type"].clone(), v["message"].clone()),
        (
            413,
            json!("parameters.too.many"),
            json!("too many parameters")
        )
    );
    let (st, v) = call(&s, "/form/depth", &[form], b"a[b][c][d]=1").await;
    assert_eq!(
        (st, v["type"].clone()),
        (400, json!("querystring.parse.rangeError"))
    );
    assert_eq!(call(&s, "/form/depth", &[form], b"a[b][c]=1").await.0, 200);
}

#[tokio::test]
async fn a_client_that_stops_mid_body_ends_its_request() {
    let (s, log) = server().await;
    let mut conn = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let head = "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":";
    conn.write_all(head.as_bytes()).await.unwrap();
    conn.flush().await.unwrap();
    drop(conn);
    // The error reaches the error handler once the server sees the close.
    guard("request.aborted", async {
        loop {
            if log.entries().iter().any(|e| e == "request.aborted") {
                break;
            }
            tokio::task::yield_now().await;
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await;
}
