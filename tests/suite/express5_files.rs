//! Express 5's files over real sockets: `webfw::express5::static_`
//! (serve-static 2 / send 1.2) and `res.send_file` / `res.download` in an
//! Express 5 app, each beside an Express 4 app in the same process that
//! keeps send 0.19's answers.

use crate::common;
use crate::files_fixture;

use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use common::{TestServer, async_handler};
use files_fixture::{BIG_LEN, Fixture, LAST_MODIFIED};
use webfw::Setting;
use webfw::files::{Dotfiles, SendFileOptions, StaticOptions};
use webfw::prelude::*;

const FAVICON: &[u8] = b"\x00\x00\x01\x00fake icon";
const SCRIPT: &[u8] = b"console.log(1)\n";

/// The shared fixture plus the files whose types changed in mime-types 3,
/// with the fixture's mtime (so their ETags are `Fixture::etag`'s).
fn fixture() -> Fixture {
    let fx = Fixture::new();
    for (name, bytes) in [("script.js", SCRIPT), ("favicon.ico", FAVICON)] {
        let p = fx.root().join(name);
        std::fs::write(&p, bytes).unwrap();
        let mtime = UNIX_EPOCH + Duration::from_secs(1_577_836_800);
        let f = std::fs::File::options().write(true).open(&p).unwrap();
        f.set_modified(mtime).unwrap();
    }
    fx
}

/// serve-static 2 at `/s` (defaults), `/allow`, `/deny` and `/nofall`, and
/// a last handler that says it was reached (so fall-through is visible).
async fn static5(root: &Path) -> TestServer {
    let mut app = webfw::express5::app();
    app.set("env", "production");
    let with = |o: StaticOptions| webfw::express5::static_with(root, o);
    app.use_at("/s", webfw::express5::static_(root));
    app.use_at(
        "/allow",
        with(StaticOptions::new().dotfiles(Dotfiles::Allow)),
    );
    app.use_at("/deny", with(StaticOptions::new().dotfiles(Dotfiles::Deny)));
    app.use_at("/nofall", with(StaticOptions::new().fallthrough(false)));
    app.use_(|_req: &mut Request, res: &mut Response| res.status(299).send("fell through"));
    TestServer::start(app).await
}

/// serve-static 1 at `/s`, the same shape in an Express 4 app.
async fn static4(root: &Path) -> TestServer {
    let mut app = webfw::app();
    app.set("env", "production");
    app.use_at("/s", webfw::static_(root, StaticOptions::new()));
    app.use_(|_req: &mut Request, res: &mut Response| res.status(299).send("fell through"));
    TestServer::start(app).await
}

/// The `sendFile` / `download` routes of ROUTES5.md's `/files` and
/// `/etag`, in an app made by `make`: `/send/:name`, `/dot` (a file in a
/// dot directory), `/dot-allow`, `/etag-false/:name` (the call's `etag:
/// false`), `/download/:name`, `/attach/:name` (`res.attachment`, to
/// compare `Content-Disposition` with), and a sub-app of the same dialect
/// with `etag` off at `/off`.
async fn files(make: fn() -> App, root: &Path) -> TestServer {
    let mut app = make();
    app.set("env", "production");
    let root = root.to_path_buf();
    add_send_routes(&mut app, &root);
    let r = root.clone();
    app.get(
        "/dot",
        async_handler(move |req, res| {
            let o = SendFileOptions::new().root(&r);
            Box::pin(async move { res.send_file(req, ".dot/inside.txt", o).await })
        }),
    );
    let r = root.clone();
    app.get(
        "/dot-allow",
        async_handler(move |req, res| {
            let o = SendFileOptions::new().root(&r).dotfiles(Dotfiles::Allow);
            Box::pin(async move { res.send_file(req, ".dot/inside.txt", o).await })
        }),
    );
    let r = root.clone();
    app.get(
        "/etag-false/:name",
        async_handler(move |req, res| {
            let o = SendFileOptions::new().root(&r).etag(false);
            Box::pin(async move {
                let name = req.param("name").unwrap_or_default().to_owned();
                res.send_file(req, &name, o).await
            })
        }),
    );
    let r = root.clone();
    app.get(
        "/download/:name",
        async_handler(move |req, res| {
            let o = SendFileOptions::new().root(&r);
            Box::pin(async move {
                let name = req.param("name").unwrap_or_default().to_owned();
                res.download(req, &name, None, o).await
            })
        }),
    );
    app.get("/attach/:name", |req: &mut Request, res: &mut Response| {
        let name = req.param("name").unwrap_or_default().to_owned();
        res.attachment(name.as_str()).send("x")
    });
    let mut off = make();
    off.set("etag", false);
    add_send_routes(&mut off, &root);
    app.use_at("/off", off);
    let mut strong = make();
    strong.set("etag", "strong");
    add_send_routes(&mut strong, &root);
    app.use_at("/strong", strong);
    TestServer::start(app).await
}

/// `GET /send/:name`: `res.sendFile(name, {root})`.
fn add_send_routes(app: &mut App, root: &Path) {
    let r: PathBuf = root.to_path_buf();
    app.get(
        "/send/:name",
        async_handler(move |req, res| {
            let o = SendFileOptions::new().root(&r);
            Box::pin(async move {
                let name = req.param("name").unwrap_or_default().to_owned();
                res.send_file(req, &name, o).await
            })
        }),
    );
}

#[tokio::test]
async fn static_ignores_every_dot_segment_by_default() {
    let fx = fixture();
    let (s5, s4) = (static5(&fx.root()).await, static4(&fx.root()).await);
    for path in [
        "/s/.dot/inside.txt",
        "/s/%2Edot/inside.txt",
        "/s/.dot/",
        "/s/.hidden",
        "/s/sub/../.dot/inside.txt",
    ] {
        let res = s5.get(path).await;
        assert_eq!(
            (res.status, res.text().as_str()),
            (299, "fell through"),
            "{path}"
        );
    }
    // serve-static 1 ignores only a final dot segment.
    let res = s4.get("/s/.dot/inside.txt").await;
    assert_eq!((res.status, res.text().as_str()), (200, "in a dot dir\n"));
    assert_eq!(s4.get("/s/.hidden").await.status, 299);
}

#[tokio::test]
async fn static_dotfiles_allow_and_deny() {
    let fx = fixture();
    let s = static5(&fx.root()).await;
    let res = s.get("/allow/.dot/inside.txt").await;
    assert_eq!((res.status, res.text().as_str()), (200, "in a dot dir\n"));
    assert_eq!(s.get("/allow/.hidden").await.text(), "hidden\n");
    // 403 falls through by default, as every client error does.
    let res = s.get("/deny/.dot/inside.txt").await;
    assert_eq!((res.status, res.text().as_str()), (299, "fell through"));
    // Without fallthrough the ignored dot directory is the 404 itself.
    assert_eq!(s.get("/nofall/.dot/inside.txt").await.status, 404);
}

#[tokio::test]
async fn static_types_are_mime_types_3_with_lower_case_charset() {
    let fx = fixture();
    let (s5, s4) = (static5(&fx.root()).await, static4(&fx.root()).await);
    for (path, ty) in [
        ("/s/script.js", "text/javascript; charset=utf-8"),
        ("/s/favicon.ico", "image/vnd.microsoft.icon"),
        ("/s/hello.txt", "text/plain; charset=utf-8"),
        ("/s/data.json", "application/json; charset=utf-8"),
        ("/s/style.css", "text/css; charset=utf-8"),
        ("/s/page.html", "text/html; charset=utf-8"),
        ("/s/README", "application/octet-stream"),
    ] {
        assert_eq!(
            s5.get(path).await.header("content-type"),
            Some(ty),
            "{path}"
        );
    }
    let res = s5.get("/s/script.js").await;
    assert_eq!(res.body, SCRIPT);
    assert_eq!(
        res.header("etag"),
        Some(Fixture::etag(SCRIPT.len()).as_str())
    );
    assert_eq!(res.header("last-modified"), Some(LAST_MODIFIED));
    assert_eq!(res.header("cache-control"), Some("public, max-age=0"));
    assert_eq!(res.header("accept-ranges"), Some("bytes"));
    for (path, ty) in [
        ("/s/script.js", "application/javascript; charset=UTF-8"),
        ("/s/favicon.ico", "image/x-icon"),
        ("/s/hello.txt", "text/plain; charset=UTF-8"),
    ] {
        assert_eq!(
            s4.get(path).await.header("content-type"),
            Some(ty),
            "{path}"
        );
    }
}

#[tokio::test]
async fn static_ignores_a_malformed_range_but_refuses_an_unsatisfiable_one() {
    let fx = fixture();
    let (s5, s4) = (static5(&fx.root()).await, static4(&fx.root()).await);
    let full = BIG_LEN.to_string();
    for range in ["bytes=abc", "bytes=0-5,x", "bytes=1-2-3", "bytes=0x10-20"] {
        let res = s5.get_with("/s/big.bin", &[("Range", range)]).await;
        assert_eq!(res.status, 200, "{range}");
        assert_eq!(res.header("content-length"), Some(full.as_str()), "{range}");
        assert!(!res.has_header("content-range"), "{range}");
    }
    let res = s5.get_with("/s/hello.txt", &[("Range", "bytes=0-4")]).await;
    assert_eq!((res.status, res.text().as_str()), (206, "Hello"));
    assert_eq!(res.header("content-range"), Some("bytes 0-4/14"));
    let res = s5
        .get_with("/s/hello.txt", &[("Range", "bytes=500-")])
        .await;
    assert_eq!(res.status, 416);
    assert_eq!(res.header("content-range"), Some("bytes */14"));
    // send 0.19: `abc` is unsatisfiable and `0-5,x` is the range `0-5`.
    let res = s4.get_with("/s/hello.txt", &[("Range", "bytes=abc")]).await;
    assert_eq!(res.status, 416);
    let res = s4
        .get_with("/s/hello.txt", &[("Range", "bytes=0-5,x")])
        .await;
    assert_eq!((res.status, res.text().as_str()), (206, "Hello,"));
}

#[tokio::test]
async fn static_if_none_match_wins_over_if_modified_since() {
    let fx = fixture();
    let (s5, s4) = (static5(&fx.root()).await, static4(&fx.root()).await);
    let etag = Fixture::etag(14);
    let old = "Sun, 01 Dec 2019 00:00:00 GMT";
    let h = [("If-None-Match", etag.as_str()), ("If-Modified-Since", old)];
    let res = s5.get_with("/s/hello.txt", &h).await;
    assert_eq!(res.status, 304);
    assert!(!res.has_header("content-type"));
    assert!(res.body.is_empty());
    assert_eq!(s4.get_with("/s/hello.txt", &h).await.status, 200);
    // A mismatching tag is stale even with a date after the file's.
    let later = "Sun, 01 Jan 2023 00:00:00 GMT";
    let h = [("If-None-Match", "\"other\""), ("If-Modified-Since", later)];
    assert_eq!(s5.get_with("/s/hello.txt", &h).await.status, 200);
    let h = [("If-Modified-Since", later)];
    assert_eq!(s5.get_with("/s/hello.txt", &h).await.status, 304);
}

#[tokio::test]
async fn static_methods_and_fallthrough_are_unchanged() {
    let fx = fixture();
    let s = static5(&fx.root()).await;
    let res = s.call("POST", "/nofall/hello.txt", &[]).await;
    assert_eq!(res.status, 405);
    assert_eq!(res.header("allow"), Some("GET, HEAD"));
    assert_eq!(res.header("content-length"), Some("0"));
    assert_eq!(s.call("POST", "/s/hello.txt", &[]).await.status, 299);
    assert_eq!(s.get("/s/missing.txt").await.status, 299);
    assert_eq!(s.get("/nofall/missing.txt").await.status, 404);
    let res = s.get("/s/sub").await;
    assert_eq!((res.status, res.header("location")), (301, Some("/s/sub/")));
    assert_eq!(res.header("content-type"), Some("text/html; charset=UTF-8"));
    assert_eq!(s.get("/s/%2e%2e/secret.txt").await.status, 299);
    let res = s.get("/s/").await;
    assert_eq!(
        (res.status, res.text().as_str()),
        (200, "<p>root index</p>\n")
    );
}

#[tokio::test]
async fn send_file_ignores_dot_directories_in_express_5_only() {
    let fx = fixture();
    let (f5, f4) = (
        files(webfw::express5::app, &fx.root()).await,
        files(webfw::app, &fx.root()).await,
    );
    assert_eq!(f5.get("/dot").await.status, 404);
    let res = f5.get("/dot-allow").await;
    assert_eq!((res.status, res.text().as_str()), (200, "in a dot dir\n"));
    let res = f4.get("/dot").await;
    assert_eq!((res.status, res.text().as_str()), (200, "in a dot dir\n"));
    assert_eq!(f5.get("/send/.hidden").await.status, 404);
    assert_eq!(f4.get("/send/.hidden").await.status, 404);
}

#[tokio::test]
async fn send_file_answers_as_send_1() {
    let fx = fixture();
    let (f5, f4) = (
        files(webfw::express5::app, &fx.root()).await,
        files(webfw::app, &fx.root()).await,
    );
    let res = f5.get("/send/script.js").await;
    assert_eq!(
        res.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    let res = f5.get("/send/favicon.ico").await;
    assert_eq!(res.header("content-type"), Some("image/vnd.microsoft.icon"));
    let res = f4.get("/send/script.js").await;
    assert_eq!(
        res.header("content-type"),
        Some("application/javascript; charset=UTF-8")
    );
    let res = f5
        .get_with("/send/hello.txt", &[("Range", "bytes=abc")])
        .await;
    assert_eq!((res.status, res.text().as_str()), (200, "Hello, files!\n"));
    let res = f5
        .get_with("/send/hello.txt", &[("Range", "bytes=99-")])
        .await;
    assert_eq!(res.status, 416);
    assert_eq!(
        f4.get_with("/send/hello.txt", &[("Range", "bytes=abc")])
            .await
            .status,
        416
    );
    let etag = Fixture::etag(14);
    let h = [
        ("If-None-Match", etag.as_str()),
        ("If-Modified-Since", "Sun, 01 Dec 2019 00:00:00 GMT"),
    ];
    assert_eq!(f5.get_with("/send/hello.txt", &h).await.status, 304);
    assert_eq!(f4.get_with("/send/hello.txt", &h).await.status, 200);
}

#[tokio::test]
async fn send_file_etag_follows_the_app_setting() {
    let fx = fixture();
    let (f5, f4) = (
        files(webfw::express5::app, &fx.root()).await,
        files(webfw::app, &fx.root()).await,
    );
    let tag = Fixture::etag(14);
    // Express 5: the app's setting replaces the call's `etag: false`.
    let res = f5.get("/etag-false/hello.txt").await;
    assert_eq!(res.header("etag"), Some(tag.as_str()));
    let res = f5.get("/off/send/hello.txt").await;
    assert_eq!(res.status, 200);
    assert!(!res.has_header("etag"));
    assert_eq!(res.header("last-modified"), Some(LAST_MODIFIED));
    // Any enabled setting gives the file's weak tag.
    let res = f5.get("/strong/send/hello.txt").await;
    assert_eq!(res.header("etag"), Some(tag.as_str()));
    // Express 4: the call's option decides, the app's setting is ignored.
    assert!(!f4.get("/etag-false/hello.txt").await.has_header("etag"));
    let res = f4.get("/off/send/hello.txt").await;
    assert_eq!(res.header("etag"), Some(tag.as_str()));
}

#[tokio::test]
async fn an_etag_function_setting_is_enabled_for_send_file() {
    let fx = fixture();
    let mut app = webfw::express5::app();
    app.set(
        "etag",
        Setting::etag_fn(|b| Some(format!("\"len-{}\"", b.len()))),
    );
    add_send_routes(&mut app, &fx.root());
    let s = TestServer::start(app).await;
    let res = s.get("/send/hello.txt").await;
    assert_eq!(res.header("etag"), Some(Fixture::etag(14).as_str()));
}

#[tokio::test]
async fn download_names_the_file_as_the_response_helper_does() {
    let fx = fixture();
    let (f5, f4) = (
        files(webfw::express5::app, &fx.root()).await,
        files(webfw::app, &fx.root()).await,
    );
    let res = f5.get("/download/hello.txt").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "Hello, files!\n");
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    let attached = f5.get("/attach/hello.txt").await;
    assert_eq!(
        res.header("content-disposition"),
        attached.header("content-disposition")
    );
    // content-disposition 2 leaves a token name bare (Express 4 quotes it).
    assert_eq!(
        res.header("content-disposition"),
        Some("attachment; filename=hello.txt")
    );
    let res4 = f4.get("/download/hello.txt").await;
    assert_eq!(
        res4.header("content-disposition"),
        f4.get("/attach/hello.txt")
            .await
            .header("content-disposition")
    );
    assert_eq!(
        res4.header("content-disposition"),
        Some("attachment; filename=\"hello.txt\"")
    );
    assert_eq!(
        res4.header("content-type"),
        Some("text/plain; charset=UTF-8")
    );
    // A dot file is ignored by download too (it is sendFile underneath).
    assert_eq!(f5.get("/download/.hidden").await.status, 404);
}
