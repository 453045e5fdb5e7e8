//! `webfw::static_` (serve-static 1.16 / send 0.19) over real sockets:
//! every option, and send's HTTP semantics (types, validators, caching,
//! ranges, conditional requests, HEAD, directories, errors).

use crate::common;
use crate::files_fixture;

use common::{TestServer, error_page};
use files_fixture::{BIG_LEN, Fixture, LAST_MODIFIED, pattern};
use webfw::files::{Dotfiles, StaticOptions, static_};
use webfw::prelude::*;

/// An app serving the fixture's root at `/s` with `opts`, and a last
/// handler that says it was reached (so fall-through is visible).
async fn serve(fx: &Fixture, opts: StaticOptions) -> TestServer {
    let mut app = webfw::app();
    // Error pages show the status text only, as the conformance app does.
    app.set("env", "production");
    app.use_at("/s", static_(fx.root(), opts));
    app.use_(|_req: &mut Request, res: &mut Response| res.status(299).send("fell through"));
    TestServer::start(app).await
}

fn redirect_page(location: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Redirecting</title>\n</head>\n<body>\n<pre>Redirecting to {location}</pre>\n</body>\n</html>\n"
    )
}

#[tokio::test]
async fn a_file_gets_type_validators_caching_and_length() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new()).await;
    let res = s.get("/s/hello.txt").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "Hello, files!\n");
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=UTF-8")
    );
    assert_eq!(res.header("etag"), Some(Fixture::etag(14).as_str()));
    assert_eq!(res.header("last-modified"), Some(LAST_MODIFIED));
    assert_eq!(res.header("cache-control"), Some("public, max-age=0"));
    assert_eq!(res.header("accept-ranges"), Some("bytes"));
    assert_eq!(res.header("content-length"), Some("14"));
    for (path, ty) in [
        ("/s/data.json", "application/json; charset=UTF-8"),
        ("/s/style.css", "text/css; charset=UTF-8"),
        ("/s/page.html", "text/html; charset=UTF-8"),
        ("/s/README", "application/octet-stream"),
        ("/s/big.bin", "application/octet-stream"),
    ] {
        assert_eq!(s.get(path).await.header("content-type"), Some(ty), "{path}");
    }
    let res = s.get("/s/empty.txt").await;
    assert_eq!((res.status, res.header("content-length")), (200, Some("0")));
    let res = s.get("/s/na%C3%AFve%20%E2%9C%93.txt").await;
    assert_eq!(res.text(), "utf-8 name\n");
}

#[tokio::test]
async fn a_large_file_streams_whole_with_its_length() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new()).await;
    let res = s.get("/s/big.bin").await;
    assert_eq!(res.status, 200);
    assert!(!res.chunked);
    assert_eq!(
        res.header("content-length"),
        Some(BIG_LEN.to_string().as_str())
    );
    assert_eq!(res.body, pattern(BIG_LEN));
}

#[tokio::test]
async fn head_sends_the_headers_only() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new()).await;
    let res = s.call("HEAD", "/s/big.bin", &[]).await;
    assert_eq!(res.status, 200);
    assert_eq!(
        res.header("content-length"),
        Some(BIG_LEN.to_string().as_str())
    );
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn ranges() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new()).await;
    let big = pattern(BIG_LEN);
    let len = BIG_LEN;
    let s = &s;
    let range = |r: &'static str| async move { s.get_with("/s/big.bin", &[("Range", r)]).await };

    let res = range("bytes=0-99").await;
    assert_eq!(res.status, 206);
    assert_eq!(
        res.header("content-range"),
        Some(format!("bytes 0-99/{len}").as_str())
    );
    assert_eq!(res.body, &big[..100]);

    // A range larger than one read chunk streams.
    let res = range("bytes=1000-").await;
    assert_eq!(res.status, 206);
    assert_eq!(res.body, &big[1000..]);

    let res = range("bytes=-10").await;
    assert_eq!(res.body, &big[len - 10..]);

    // Overlapping ranges combine into one.
    let res = range("bytes=0-5,3-9").await;
    assert_eq!((res.status, res.body.as_slice()), (206, &big[..10]));

    // Several ranges: the whole file.
    let res = range("bytes=0-1,5-6").await;
    assert_eq!((res.status, res.body.len()), (200, len));
    assert!(!res.has_header("content-range"));

    // Another unit, or no `bytes=` at the start: ignored.
    let res = range("items=0-5").await;
    assert_eq!(res.status, 200);

    for unsatisfiable in ["bytes=999999999-", "bytes=abc"] {
        let res = s.get_with("/s/big.bin", &[("Range", unsatisfiable)]).await;
        assert_eq!(res.status, 416, "{unsatisfiable}");
        assert_eq!(
            res.header("content-range"),
            Some(format!("bytes */{len}").as_str())
        );
        assert_eq!(res.text(), error_page("Range Not Satisfiable"));
        // The validators send had set stay, as in Express.
        assert!(res.has_header("etag"));
    }

    // If-Range: a matching validator keeps the range, another drops it.
    let etag = Fixture::etag(len);
    let res = s
        .get_with("/s/big.bin", &[("Range", "bytes=0-9"), ("If-Range", &etag)])
        .await;
    assert_eq!(res.status, 206);
    let res = s
        .get_with(
            "/s/big.bin",
            &[("Range", "bytes=0-9"), ("If-Range", "W/\"x\"")],
        )
        .await;
    assert_eq!((res.status, res.body.len()), (200, len));
    let res = s
        .get_with(
            "/s/big.bin",
            &[("Range", "bytes=0-9"), ("If-Range", LAST_MODIFIED)],
        )
        .await;
    assert_eq!(res.status, 206);
    let res = s
        .get_with(
            "/s/big.bin",
            &[
                ("Range", "bytes=0-9"),
                ("If-Range", "Sun, 01 Dec 2019 00:00:00 GMT"),
            ],
        )
        .await;
    assert_eq!(res.status, 200);

    // HEAD of a range: the 206 head.
    let res = s
        .call("HEAD", "/s/big.bin", &[("Range", "bytes=0-9")])
        .await;
    assert_eq!(
        (res.status, res.header("content-length")),
        (206, Some("10"))
    );
}

#[tokio::test]
async fn conditional_requests() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new()).await;
    let etag = Fixture::etag(14);
    let s = &s;
    let get =
        |h: &'static str, v: String| async move { s.get_with("/s/hello.txt", &[(h, &v)]).await };

    let res = get("If-None-Match", etag.clone()).await;
    assert_eq!(res.status, 304);
    assert!(res.body.is_empty());
    assert!(!res.has_header("content-type"));
    assert!(!res.has_header("content-length"));
    assert_eq!(get("If-None-Match", "\"other\"".into()).await.status, 200);
    assert_eq!(get("If-None-Match", "*".into()).await.status, 304);
    let res = get("If-Modified-Since", "Sat, 01 Feb 2020 00:00:00 GMT".into()).await;
    assert_eq!(res.status, 304);
    let res = get("If-Modified-Since", "Sun, 01 Dec 2019 00:00:00 GMT".into()).await;
    assert_eq!(res.status, 200);

    let res = get("If-Match", "\"nope\"".into()).await;
    assert_eq!(res.status, 412);
    assert_eq!(res.text(), error_page("Precondition Failed"));
    assert_eq!(get("If-Match", etag.clone()).await.status, 200);
    assert_eq!(get("If-Match", "*".into()).await.status, 200);
    let res = get(
        "If-Unmodified-Since",
        "Sun, 01 Dec 2019 00:00:00 GMT".into(),
    )
    .await;
    assert_eq!(res.status, 412);
    let res = get("If-Unmodified-Since", LAST_MODIFIED.into()).await;
    assert_eq!(res.status, 200);

    // A reload (no-cache) is never answered 304.
    let res = s
        .get_with(
            "/s/hello.txt",
            &[("If-None-Match", &etag), ("Cache-Control", "no-cache")],
        )
        .await;
    assert_eq!(res.status, 200);
}

#[tokio::test]
async fn directories_redirect_to_their_slash_and_serve_their_index() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new()).await;
    let res = s.get("/s/sub?x=1&y=%20").await;
    assert_eq!(res.status, 301);
    assert_eq!(res.header("location"), Some("/s/sub/?x=1&y=%20"));
    assert_eq!(res.text(), redirect_page("/s/sub/?x=1&amp;y=%20"));
    assert_eq!(
        res.header("content-security-policy"),
        Some("default-src 'none'")
    );
    // The mount point itself, without its slash.
    let res = s.get("/s").await;
    assert_eq!((res.status, res.header("location")), (301, Some("/s/")));
    assert_eq!(s.get("/s/").await.text(), "<p>root index</p>\n");
    assert_eq!(s.get("/s/sub/").await.text(), "<p>sub index</p>\n");
    // No index file: falls through.
    assert_eq!(s.get("/s/noindex/").await.status, 299);
}

/// send judges the trailing slash on the path as sent: an encoded slash
/// names the directory without its slash, which is redirected (Express 4).
#[tokio::test]
async fn an_encoded_trailing_slash_redirects_like_a_missing_one() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new()).await;
    for (path, location) in [
        ("/s/sub%2f", "/s/sub%2f/"),
        ("/s/sub%2F?x=1", "/s/sub%2F/?x=1"),
        ("/s/sub/%2f", "/s/sub/%2f/"),
    ] {
        let res = s.get(path).await;
        assert_eq!(
            (res.status, res.header("location")),
            (301, Some(location)),
            "{path}"
        );
    }
    assert_eq!(
        s.get("/s/sub%2findex.html").await.text(),
        "<p>sub index</p>\n"
    );
}

#[tokio::test]
async fn fallthrough_on_passes_client_errors_and_other_methods_on() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new()).await;
    for path in [
        "/s/missing.txt",
        "/s/.hidden",
        "/s/%2e%2e/secret.txt",
        "/s/a%00b",
        "/s/%zz",
    ] {
        let res = s.get(path).await;
        assert_eq!(
            (res.status, res.text().as_str()),
            (299, "fell through"),
            "{path}"
        );
    }
    assert_eq!(
        s.call("POST", "/s/hello.txt", &[("Content-Length", "0")])
            .await
            .status,
        299
    );
    // Once a file was found, its errors are errors.
    let res = s.get_with("/s/hello.txt", &[("If-Match", "\"x\"")]).await;
    assert_eq!(res.status, 412);
}

#[tokio::test]
async fn fallthrough_off_answers_errors_and_405() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new().fallthrough(false)).await;
    for (path, status, text) in [
        ("/s/missing.txt", 404, "Not Found"),
        ("/s/.hidden", 404, "Not Found"),
        ("/s/%2e%2e/secret.txt", 403, "Forbidden"),
        ("/s/a%00b", 400, "Bad Request"),
        ("/s/%zz", 400, "Bad Request"),
        ("/s/noindex/", 404, "Not Found"),
    ] {
        let res = s.get(path).await;
        assert_eq!(res.status, status, "{path}");
        assert_eq!(res.text(), error_page(text), "{path}");
    }
    let res = s
        .call("POST", "/s/hello.txt", &[("Content-Length", "0")])
        .await;
    assert_eq!(res.status, 405);
    assert_eq!(res.header("allow"), Some("GET, HEAD"));
    assert_eq!(res.header("content-length"), Some("0"));
}

#[tokio::test]
async fn dotfiles_option() {
    let fx = Fixture::new();
    // Default: only a final dot segment is ignored.
    let s = serve(&fx, StaticOptions::new()).await;
    assert_eq!(s.get("/s/.hidden").await.status, 299);
    assert_eq!(s.get("/s/.dot/inside.txt").await.text(), "in a dot dir\n");

    let s = serve(&fx, StaticOptions::new().dotfiles(Dotfiles::Allow)).await;
    assert_eq!(s.get("/s/.hidden").await.text(), "hidden\n");

    let s = serve(
        &fx,
        StaticOptions::new()
            .dotfiles(Dotfiles::Ignore)
            .fallthrough(false),
    )
    .await;
    assert_eq!(s.get("/s/.hidden").await.status, 404);
    assert_eq!(s.get("/s/.dot/inside.txt").await.status, 404);

    let s = serve(
        &fx,
        StaticOptions::new()
            .dotfiles(Dotfiles::Deny)
            .fallthrough(false),
    )
    .await;
    assert_eq!(s.get("/s/.hidden").await.status, 403);
    assert_eq!(s.get("/s/.dot/inside.txt").await.status, 403);
}

#[tokio::test]
async fn index_extensions_and_redirect_options() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new().index(["main.html", "index.html"])).await;
    assert_eq!(s.get("/s/sub/").await.text(), "<p>sub main</p>\n");
    assert_eq!(s.get("/s/").await.text(), "<p>root index</p>\n");

    let s = serve(&fx, StaticOptions::new().no_index()).await;
    assert_eq!(s.get("/s/").await.status, 299);
    assert_eq!(s.get("/s/hello.txt").await.status, 200);

    let s = serve(&fx, StaticOptions::new().extensions(["html", "htm"])).await;
    assert_eq!(s.get("/s/page").await.text(), "<p>page</p>\n");
    assert_eq!(s.get("/s/about").await.text(), "<p>about</p>\n");
    assert_eq!(s.get("/s/hello").await.status, 299);

    let s = serve(&fx, StaticOptions::new().redirect(false)).await;
    assert_eq!(s.get("/s/sub").await.status, 299);
}

#[tokio::test]
async fn caching_and_validator_options() {
    let fx = Fixture::new();
    let s = serve(&fx, StaticOptions::new().max_age("1d").immutable(true)).await;
    let res = s.get("/s/hello.txt").await;
    assert_eq!(
        res.header("cache-control"),
        Some("public, max-age=86400, immutable")
    );
    let s = serve(&fx, StaticOptions::new().max_age(5500)).await;
    assert_eq!(
        s.get("/s/hello.txt").await.header("cache-control"),
        Some("public, max-age=5")
    );
    let s = serve(&fx, StaticOptions::new().cache_control(false)).await;
    assert!(!s.get("/s/hello.txt").await.has_header("cache-control"));

    let s = serve(&fx, StaticOptions::new().etag(false).last_modified(false)).await;
    let res = s.get("/s/hello.txt").await;
    assert!(!res.has_header("etag") && !res.has_header("last-modified"));
    let res = s
        .get_with("/s/hello.txt", &[("If-None-Match", &Fixture::etag(14))])
        .await;
    assert_eq!(res.status, 200);

    let s = serve(&fx, StaticOptions::new().accept_ranges(false)).await;
    let res = s.get_with("/s/big.bin", &[("Range", "bytes=0-9")]).await;
    assert_eq!((res.status, res.body.len()), (200, BIG_LEN));
    assert!(!res.has_header("accept-ranges"));
}

#[tokio::test]
async fn set_headers_sees_the_file_before_send_sets_its_own() {
    let fx = Fixture::new();
    let opts = StaticOptions::new().set_headers(|res, path, meta| {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        res.set("X-Name", name)
            .set("X-Size", meta.len().to_string());
        res.set("Cache-Control", "no-store");
    });
    let s = serve(&fx, opts).await;
    let res = s.get("/s/data.json").await;
    assert_eq!(res.header("x-name"), Some("data.json"));
    assert_eq!(res.header("x-size"), Some("8"));
    assert_eq!(res.header("cache-control"), Some("no-store"));
}

#[tokio::test]
async fn layered_statics_fall_through_to_the_next() {
    let fx = Fixture::new();
    let mut app = webfw::app();
    app.use_at(
        "/s",
        (
            static_(fx.root().join("sub"), StaticOptions::new()),
            static_(fx.root(), StaticOptions::new()),
        ),
    );
    let s = TestServer::start(app).await;
    assert_eq!(s.get("/s/main.html").await.text(), "<p>sub main</p>\n");
    assert_eq!(s.get("/s/hello.txt").await.text(), "Hello, files!\n");
}
