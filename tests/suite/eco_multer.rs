//! `webfw::multer` over real sockets: disk storage, every limit code with
//! multer's message and field, the file filter, the memory bound, and
//! hostile bodies (a 2 GiB upload past `fileSize`, 256 MiB past the memory
//! bound, a cut form, a boundary line that never ends, 10,000 tiny parts,
//! 1 MiB of part headers), each answered as multer answers it while the
//! server's memory stays bounded.

use crate::common;

use std::path::{Path, PathBuf};

use common::{HttpResponse, TestServer, guard, parse_response};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use webfw::multer::{DiskStorage, Files, Limits, MulterError, MulterOptions, Storage};
use webfw::prelude::*;

const B: &str = "XyZb0und";

/// One part: its headers, then its body.
fn part(headers: &[&str], body: &str) -> String {
    let mut s = format!("--{B}\r\n");
    for h in headers {
        s.push_str(h);
        s.push_str("\r\n");
    }
    s.push_str("\r\n");
    s.push_str(body);
    s.push_str("\r\n");
    s
}

fn text(name: &str, value: &str) -> String {
    part(
        &[&format!("Content-Disposition: form-data; name=\"{name}\"")],
        value,
    )
}

fn file(name: &str, filename: &str, body: &str) -> String {
    part(
        &[
            &format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\""),
            "Content-Type: text/plain",
        ],
        body,
    )
}

fn form(parts: &[String]) -> String {
    format!("{}--{B}--\r\n", parts.concat())
}

fn post(path: &str, body: &str) -> Vec<u8> {
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary={B}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body.as_bytes());
    req
}

/// What the route saw: files (with their paths) and the body.
fn result(req: &mut Request, res: &mut Response) -> Result {
    let summary = |f: &webfw::multer::File| {
        json!({
            "fieldname": f.fieldname, "originalname": f.originalname, "size": f.size,
            "mimetype": f.mimetype, "filename": f.filename, "path": f.path,
            "destination": f.destination,
            "text": f.buffer.as_deref().map(|b| String::from_utf8_lossy(b).into_owned()),
        })
    };
    let files = match req.files() {
        Some(Files::Array(v)) => Value::Array(v.iter().map(summary).collect()),
        Some(Files::Object(m)) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), Value::Array(v.iter().map(summary).collect())))
                .collect(),
        ),
        None => Value::Null,
    };
    let out = json!({
        "file": req.file().map(summary),
        "files": files,
        "body": req.body(),
    });
    res.json(&out)
}

/// The error as the conformance app shows it: 400 for a `MulterError`.
fn show_error(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    let multer = MulterError::of(&err);
    let mut out = Map::new();
    out.insert("name".into(), json!(err.name()));
    out.insert("code".into(), json!(err.code()));
    out.insert("message".into(), json!(err.message()));
    out.insert("field".into(), json!(multer.and_then(MulterError::field)));
    out.insert(
        "filename".into(),
        json!(multer.and_then(MulterError::filename)),
    );
    res.status(if multer.is_some() { 400 } else { 500 })
        .json(&Value::Object(out))
}

fn json_of(r: &HttpResponse) -> Value {
    serde_json::from_slice(&r.body).unwrap_or_else(|_| {
        panic!("not JSON: {}", String::from_utf8_lossy(&r.body));
    })
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("webfw-multer-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[tokio::test]
async fn disk_storage_streams_files_to_their_folder_with_random_or_chosen_names() {
    let dir = temp_dir("disk");
    let named = temp_dir("named");
    let named_for_fn = named.clone();
    let mut app = webfw::app();
    let random = webfw::multer(MulterOptions::new().dest(&dir));
    let chosen = webfw::multer(
        MulterOptions::new().storage(Storage::disk(
            DiskStorage::new()
                .destination(&named)
                .filename(|_req, f| Ok(format!("{}-{}", f.fieldname, f.originalname))),
        )),
    );
    let per_file = webfw::multer(MulterOptions::new().storage(Storage::disk(
        DiskStorage::new().destination_fn(move |_req, _f| Ok(named_for_fn.clone())),
    )));
    let limited = webfw::multer(
        MulterOptions::new()
            .dest(&dir)
            .limits(Limits::new().fields(0)),
    );
    app.post("/random", (random.array("docs", None), result));
    app.post("/chosen", (chosen.single("doc"), result));
    app.post("/per-file", (per_file.any(), result));
    app.post("/limited", (limited.any(), result));
    let missing = dir.join("no-such-dir");
    let nowhere = webfw::multer(MulterOptions::new().storage(Storage::disk(
        DiskStorage::new().destination_fn(move |_req, _f| Ok(missing.clone())),
    )));
    app.post("/nowhere", (nowhere.any(), result));
    app.use_(show_error);
    let server = TestServer::start(app).await;

    let body = form(&[
        file("docs", "a.txt", "first file"),
        file("docs", "b.txt", "second"),
    ]);
    let r = server.raw(post("/random", &body)).await;
    assert_eq!(r.status, 200);
    let v = json_of(&r);
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    for (f, content) in files.iter().zip(["first file", "second"]) {
        let name = f["filename"].as_str().unwrap();
        assert_eq!(name.len(), 32, "multer's names are 16 random bytes in hex");
        assert!(
            name.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        let path = PathBuf::from(f["path"].as_str().unwrap());
        assert_eq!(path, dir.join(name));
        assert_eq!(f["destination"].as_str().unwrap(), dir.to_str().unwrap());
        assert_eq!(f["size"], json!(content.len()));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), content);
        assert_eq!(f["text"], Value::Null);
    }
    assert_ne!(files[0]["filename"], files[1]["filename"]);

    let r = server
        .raw(post("/chosen", &form(&[file("doc", "c.txt", "chosen")])))
        .await;
    assert_eq!(json_of(&r)["file"]["filename"], json!("doc-c.txt"));
    assert_eq!(
        std::fs::read_to_string(named.join("doc-c.txt")).unwrap(),
        "chosen"
    );

    let r = server
        .raw(post("/per-file", &form(&[file("x", "d.txt", "by fn")])))
        .await;
    let v = json_of(&r);
    let stored = PathBuf::from(v["files"][0]["path"].as_str().unwrap());
    assert_eq!(stored.parent(), Some(named.as_path()));

    // A later error removes what the upload had stored.
    let before = entries(&dir);
    let body = form(&[file("docs", "e.txt", "kept?"), text("t", "v")]);
    let r = server.raw(post("/limited", &body)).await;
    assert_eq!(r.status, 400);
    assert_eq!(json_of(&r)["code"], json!("LIMIT_FIELD_COUNT"));
    assert_eq!(entries(&dir), before);

    // A folder that is not there: Node's error for the write stream.
    let r = server
        .raw(post("/nowhere", &form(&[file("f", "g.txt", "x")])))
        .await;
    assert_eq!(r.status, 500);
    let v = json_of(&r);
    assert_eq!(v["code"], json!("ENOENT"));
    let msg = v["message"].as_str().unwrap();
    assert!(
        msg.starts_with("ENOENT: no such file or directory, open '"),
        "{msg}"
    );
    assert!(msg.contains("no-such-dir"), "{msg}");

    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&named);
}

#[tokio::test]
async fn every_limit_code_with_multers_message_and_field() {
    let mut app = webfw::app();
    let mk = |l: Limits| webfw::multer(MulterOptions::new().limits(l));
    app.post("/parts", (mk(Limits::new().parts(2)).any(), result));
    app.post("/file-size", (mk(Limits::new().file_size(4)).any(), result));
    app.post("/files", (mk(Limits::new().files(1)).any(), result));
    app.post(
        "/name",
        (mk(Limits::new().field_name_size(3)).any(), result),
    );
    app.post("/value", (mk(Limits::new().field_size(3)).any(), result));
    app.post("/fields", (mk(Limits::new().fields(1)).any(), result));
    app.post("/single", (mk(Limits::new()).single("one"), result));
    app.post("/none", (mk(Limits::new()).none(), result));
    app.post("/pairs", (mk(Limits::new().header_pairs(1)).none(), result));
    app.post(
        "/nest",
        (mk(Limits::new().field_nesting_depth(1)).none(), result),
    );
    app.post(
        "/index",
        (mk(Limits::new().field_array_index_limit(5)).none(), result),
    );
    app.use_(show_error);
    let server = TestServer::start(app).await;

    let cases: Vec<(&str, String, Value)> = vec![
        (
            "/parts",
            form(&[text("a", "1"), text("b", "2"), text("c", "3")]),
            json!({"code": "LIMIT_PART_COUNT", "message": "Too many parts", "field": null}),
        ),
        (
            "/file-size",
            form(&[file("up", "big.bin", "12345")]),
            json!({"code": "LIMIT_FILE_SIZE", "message": "File too large", "field": "up", "filename": "big.bin"}),
        ),
        (
            "/files",
            form(&[file("a", "1", "x"), file("b", "2", "y")]),
            json!({"code": "LIMIT_FILE_COUNT", "message": "Too many files", "field": null}),
        ),
        (
            "/name",
            form(&[text("long", "x")]),
            json!({"code": "LIMIT_FIELD_KEY", "message": "Field name too long", "field": null}),
        ),
        (
            "/value",
            form(&[text("k", "1234")]),
            json!({"code": "LIMIT_FIELD_VALUE", "message": "Field value too long", "field": "k"}),
        ),
        (
            "/fields",
            form(&[text("a", "1"), text("b", "2")]),
            json!({"code": "LIMIT_FIELD_COUNT", "message": "Too many fields", "field": null}),
        ),
        (
            "/single",
            form(&[file("two", "t.txt", "x")]),
            json!({"code": "LIMIT_UNEXPECTED_FILE", "message": "Unexpected file field", "field": "two", "filename": "t.txt"}),
        ),
        (
            "/single",
            form(&[part(&["Content-Disposition: form-data"], "x")]),
            json!({"code": "MISSING_FIELD_NAME", "message": "Field name missing", "field": null}),
        ),
        (
            "/nest",
            form(&[text("a[b][c]", "x")]),
            json!({"code": "LIMIT_FIELD_NESTING", "message": "Field name nesting too deep", "field": "a[b][c]"}),
        ),
        (
            "/index",
            form(&[text("a[6]", "x")]),
            json!({"code": "LIMIT_FIELD_ARRAY_INDEX", "message": "Field name array index too large", "field": "a[6]"}),
        ),
        (
            "/none",
            form(&[text("a[99999999]", "x")]),
            json!({"code": "LIMIT_FIELD_ARRAY_INDEX", "message": "Field name array index too large", "field": "a[99999999]"}),
        ),
    ];
    for (path, body, want) in cases {
        let r = server.raw(post(path, &body)).await;
        assert_eq!(
            r.status,
            400,
            "{path}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let got = json_of(&r);
        assert_eq!(got["name"], json!("MulterError"), "{path}");
        for (k, v) in want.as_object().unwrap() {
            assert_eq!(&got[k], v, "{path}: {k}");
        }
    }

    // At the limits themselves, nothing is refused.
    let ok = [
        ("/parts", form(&[text("a", "1"), text("b", "2")])),
        ("/file-size", form(&[file("up", "b", "1234")])),
        ("/name", form(&[text("abc", "x")])),
        ("/value", form(&[text("k", "123")])),
        ("/nest", form(&[text("a[b]", "x")])),
        ("/index", form(&[text("a[5]", "x"), text("a[9]x", "y")])),
    ];
    for (path, body) in ok {
        assert_eq!(server.raw(post(path, &body)).await.status, 200, "{path}");
    }
    // busboy keeps its own bound on header lines, whatever headerPairs says.
    let r = server
        .raw(post(
            "/pairs",
            &form(&[part(
                &[
                    "X-A: 1",
                    "X-B: 2",
                    "Content-Disposition: form-data; name=\"k\"",
                ],
                "v",
            )]),
        ))
        .await;
    assert_eq!(json_of(&r)["body"], json!({"k": "v"}));
}

#[tokio::test]
async fn multer_errors_have_no_status_so_the_final_handler_answers_500() {
    let mut app = webfw::app();
    app.post(
        "/up",
        (
            webfw::multer(MulterOptions::new().limits(Limits::new().files(0))).any(),
            result,
        ),
    );
    let server = TestServer::start(app).await;
    let r = server.raw(post("/up", &form(&[file("f", "a", "x")]))).await;
    assert_eq!(r.status, 500);
}

#[tokio::test]
async fn the_file_filter_accepts_skips_or_fails() {
    let mut app = webfw::app();
    let filtered =
        webfw::multer(
            MulterOptions::new().file_filter(|_req, f| match f.originalname.as_str() {
                "bad.exe" => Err(Error::new("no executables").with_status(415)),
                name => Ok(name.ends_with(".png")),
            }),
        );
    app.post("/up", (filtered.array("pics", Some(1)), result));
    app.use_(show_error);
    let server = TestServer::start(app).await;

    // A skipped file does not use up maxCount.
    let body = form(&[
        file("pics", "notes.txt", "skip me"),
        file("pics", "a.png", "png!"),
    ]);
    let r = server.raw(post("/up", &body)).await;
    assert_eq!(r.status, 200);
    let v = json_of(&r);
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0]["originalname"], json!("a.png"));
    assert_eq!(files[0]["text"], json!("png!"));

    let body = form(&[file("pics", "bad.exe", "MZ")]);
    let r = server.raw(post("/up", &body)).await;
    assert_eq!(r.status, 500);
    let v = json_of(&r);
    assert_eq!(v["message"], json!("no executables"));
    assert_eq!(v["code"], Value::Null);

    let body = form(&[file("pics", "a.png", "1"), file("pics", "b.png", "2")]);
    let r = server.raw(post("/up", &body)).await;
    assert_eq!(json_of(&r)["code"], json!("LIMIT_UNEXPECTED_FILE"));
}

#[tokio::test]
async fn text_fields_follow_append_field_and_other_bodies_pass() {
    let mut app = webfw::app();
    app.post("/f", (webfw::multer(MulterOptions::new()).none(), result));
    let server = TestServer::start(app).await;
    let body = form(&[
        text("a[b]", "1"),
        text("a[c][]", "2"),
        text("a[c][]", "3"),
        text("k", "x"),
        text("k", "y"),
        text("2", "two"),
    ]);
    let r = server.raw(post("/f", &body)).await;
    assert_eq!(
        serde_json::to_string(&json_of(&r)["body"]).unwrap(),
        r#"{"2":"two","a":{"b":"1","c":["2","3"]},"k":["x","y"]}"#
    );
    let r = server
        .call(
            "POST",
            "/f",
            &[("Content-Type", "text/plain"), ("Content-Length", "0")],
        )
        .await;
    assert_eq!(json_of(&r)["body"], Value::Null);
}

// ---------------------------------------------------------------------------------------------
#[tokio::test]
async fn memory_storage_holds_no_more_than_its_memory_limit() {
    let mut app = webfw::app();
    let capped = webfw::multer(MulterOptions::new().memory_limit(Some(100)));
    let lifted = webfw::multer(MulterOptions::new().memory_limit(None));
    let disk_dir = temp_dir("memory-limit");
    let disk = webfw::multer(
        MulterOptions::new()
            .memory_limit(Some(100))
            .storage(Storage::disk(DiskStorage::new().destination(&disk_dir))),
    );
    app.post("/capped", (capped.any(), result));
    app.post("/lifted", (lifted.any(), result));
    app.post("/disk", (disk.any(), result));
    app.use_(show_error);
    let server = TestServer::start(app).await;
    let a100 = "a".repeat(100);
    let b60 = "b".repeat(60);

    // At the bound exactly: kept.
    let r = server
        .raw(post("/capped", &form(&[file("f", "x.txt", &a100)])))
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(json_of(&r)["files"][0]["size"], json!(100));

    // One byte more, in one file or over two: LIMIT_FILE_SIZE on the file
    // that crossed it.
    let cases = [
        form(&[file("f", "x.txt", &format!("{a100}!"))]),
        form(&[file("one", "1.txt", &b60), file("two", "2.txt", &b60)]),
        form(&[text("t", &b60), file("two", "2.txt", &b60)]),
    ];
    for (body, field) in cases.iter().zip(["f", "two", "two"]) {
        let r = server.raw(post("/capped", body)).await;
        assert_eq!(r.status, 400);
        assert_eq!(
            json_of(&r),
            json!({"name": "MulterError", "code": "LIMIT_FILE_SIZE", "message": "File too large",
                   "field": field, "filename": if field == "f" { "x.txt" } else { "2.txt" }})
        );
    }

    // A text field that crosses it: LIMIT_FIELD_VALUE on that field.
    let r = server
        .raw(post(
            "/capped",
            &form(&[file("f", "x.txt", &b60), text("t", &b60)]),
        ))
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(json_of(&r)["code"], json!("LIMIT_FIELD_VALUE"));
    assert_eq!(json_of(&r)["field"], json!("t"));

    // `None` is multer's own default: no bound.
    let big = "c".repeat(200_000);
    let r = server
        .raw(post("/lifted", &form(&[file("f", "x.txt", &big)])))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(json_of(&r)["files"][0]["size"], json!(200_000));

    // Files on disk are not held in memory, so they do not count.
    let r = server
        .raw(post("/disk", &form(&[file("f", "x.txt", &big)])))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(json_of(&r)["files"][0]["size"], json!(200_000));
    let _ = std::fs::remove_dir_all(&disk_dir);
}

// Hostile bodies, with the process's memory watched (alone in a child process).

/// `VmHWM` (the peak resident set) of this process, in KiB.
fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Sends the head, then `total` body bytes made by repeating `fill` after
/// `prefix` (never all in memory), then `suffix`; reads the answer.
async fn stream_post(
    server: &TestServer,
    path: &str,
    prefix: &[u8],
    fill: &[u8],
    fill_len: u64,
    suffix: &[u8],
) -> HttpResponse {
    let total = prefix.len() as u64 + fill_len + suffix.len() as u64;
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary={B}\r\n\
         Content-Length: {total}\r\nConnection: close\r\n\r\n"
    );
    let stream = TcpStream::connect(server.addr).await.unwrap();
    let (mut rd, mut wr) = stream.into_split();
    let prefix = prefix.to_vec();
    let suffix = suffix.to_vec();
    let chunk: Vec<u8> = fill.iter().copied().cycle().take(64 * 1024).collect();
    let writer = tokio::spawn(async move {
        wr.write_all(head.as_bytes()).await?;
        wr.write_all(&prefix).await?;
        let mut left = fill_len;
        while left > 0 {
            let n = left.min(chunk.len() as u64) as usize;
            wr.write_all(&chunk[..n]).await?;
            left -= n as u64;
        }
        wr.write_all(&suffix).await?;
        std::io::Result::Ok(wr)
    });
    let mut out = Vec::new();
    guard(path, async {
        let _ = rd.read_to_end(&mut out).await;
    })
    .await;
    // multer reads the whole body before it answers: every byte was taken.
    let sent = writer.await.expect("writer task");
    assert!(sent.is_ok(), "the server stopped reading: {:?}", sent.err());
    parse_response(&out, false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_bodies_get_multers_answers_in_bounded_memory() {
    if !common::alone(
        module_path!(),
        "hostile_bodies_get_multers_answers_in_bounded_memory",
    ) {
        return;
    }
    let dir = temp_dir("hostile");
    let mut app = webfw::app();
    let small = webfw::multer(MulterOptions::new().limits(Limits::new().file_size(1 << 20)));
    let disk = webfw::multer(MulterOptions::new().dest(&dir));
    let counted = webfw::multer(MulterOptions::new().limits(Limits::new().parts(1000)));
    let open = webfw::multer(MulterOptions::new());
    app.post("/small", (small.any(), result));
    app.post("/default", (open.any(), result));
    app.post("/disk", (disk.any(), result));
    app.post("/counted", (counted.none(), result));
    app.post("/open", (open.none(), result));
    app.use_(show_error);
    let server = TestServer::start(app).await;
    let start = peak_kib();
    let file_head = format!(
        "--{B}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n\r\n"
    );
    let end = format!("\r\n--{B}--\r\n");

    // 2 GiB past a 1 MiB fileSize: refused with LIMIT_FILE_SIZE once the
    // body is read (multer drains it), never held.
    let r = stream_post(
        &server,
        "/small",
        file_head.as_bytes(),
        b"0123456789abcdef",
        2 << 30,
        end.as_bytes(),
    )
    .await;
    assert_eq!(r.status, 400);
    assert_eq!(json_of(&r)["code"], json!("LIMIT_FILE_SIZE"));

    // 256 MiB with no limits set: memory storage's own bound (16 MiB)
    // refuses it, where npm's multer would hold it all.
    let r = stream_post(
        &server,
        "/default",
        file_head.as_bytes(),
        b"0123456789abcdef",
        256 << 20,
        end.as_bytes(),
    )
    .await;
    assert_eq!(r.status, 400);
    assert_eq!(json_of(&r)["code"], json!("LIMIT_FILE_SIZE"));
    let after_2g = peak_kib();

    // A form cut short inside a 64 MiB file on disk: multer's error, and
    // the partial file is gone.
    let r = stream_post(&server, "/disk", file_head.as_bytes(), b"x", 64 << 20, b"").await;
    assert_eq!(r.status, 500);
    assert_eq!(json_of(&r)["message"], json!("Unexpected end of form"));
    assert!(entries(&dir).is_empty(), "{:?}", entries(&dir));

    // A boundary line that never ends: 64 MiB after `--boundary`.
    let r = stream_post(
        &server,
        "/open",
        format!("--{B}").as_bytes(),
        b"-boundary-",
        64 << 20,
        b"",
    )
    .await;
    assert_eq!(r.status, 500);
    assert_eq!(json_of(&r)["message"], json!("Unexpected end of form"));

    // 10,000 tiny parts: past `parts`, LIMIT_PART_COUNT; without it, all read.
    let tiny: String = (0..10_000).map(|i| text(&format!("k{i}"), "v")).collect();
    let body = form(&[tiny]);
    let r = server.raw(post("/counted", &body)).await;
    assert_eq!(json_of(&r)["code"], json!("LIMIT_PART_COUNT"));
    let r = server.raw(post("/open", &body)).await;
    assert_eq!(r.status, 200);
    assert_eq!(json_of(&r)["body"].as_object().map(Map::len), Some(10_000));

    // 1 MiB of headers in one part: busboy stops at 16 KiB.
    let mut huge = format!("--{B}\r\nContent-Disposition: form-data; name=\"h\"\r\n");
    for i in 0..16 * 1024 {
        huge.push_str(&format!("X-Pad-{i:05}: {:0>50}\r\n", i));
    }
    assert!(huge.len() > 1 << 20);
    let r = stream_post(
        &server,
        "/open",
        huge.as_bytes(),
        b"",
        0,
        format!("\r\nv{end}").as_bytes(),
    )
    .await;
    assert_eq!(r.status, 500);
    assert_eq!(json_of(&r)["message"], json!("Malformed part header"));

    let last = peak_kib();
    eprintln!(
        "multer RSS peak (VmHWM): start {start} KiB, after the 2 GiB upload {after_2g} KiB, \
         after all hostile bodies {last} KiB"
    );
    assert!(
        after_2g - start < 64 * 1024,
        "2 GiB upload grew the peak by {} KiB",
        after_2g - start
    );
    assert!(
        last - start < 96 * 1024,
        "hostile bodies grew the peak by {} KiB",
        last - start
    );
    let _ = std::fs::remove_dir_all(&dir);
}
