//! `/files/*`: res.sendFile and res.download on a router at `/files`
//! (ROUTES.md, "/files/* — res.sendFile and res.download").

use std::path::PathBuf;

use serde_json::json;
use webfw::files::{Dotfiles, SendFileOptions};
use webfw::prelude::*;

/// `$FIXTURES/files`.
fn files_dir() -> PathBuf {
    std::env::var_os("FIXTURES")
        .map_or_else(
            || PathBuf::from("shared/conformance/fixtures"),
            PathBuf::from,
        )
        .join("files")
}

fn rooted() -> SendFileOptions {
    SendFileOptions::new().root(files_dir())
}

/// The name parameter, owned (the handler lends `req` to the send).
fn name(req: &Request) -> String {
    req.param("name").unwrap_or_default().to_owned()
}

/// `fileErrorJson`: on an error, while nothing was sent, JSON with the
/// error's code and status.
fn file_error_json(res: &mut Response, outcome: std::result::Result<(), Error>) -> Result {
    match outcome {
        Ok(()) => Ok(Flow::Done),
        Err(_) if res.headers_sent() => Ok(Flow::Done),
        Err(e) => {
            let status = e.raw_status().unwrap_or(500);
            let body = json!({ "error": e.code(), "status": e.raw_status() });
            res.status(u16::try_from(status).unwrap_or(500)).json(&body)
        }
    }
}

async fn send(req: &mut Request, res: &mut Response) -> Result {
    let name = name(req);
    res.send_file(req, &name, rooted()).await
}

async fn send_nested(req: &mut Request, res: &mut Response) -> Result {
    let rest = req.param("0").unwrap_or_default().to_owned();
    res.send_file(req, &rest, rooted()).await
}

async fn dot(req: &mut Request, res: &mut Response) -> Result {
    let name = name(req);
    res.send_file(req, &name, rooted().dotfiles(Dotfiles::Allow))
        .await
}

async fn dot_deny(req: &mut Request, res: &mut Response) -> Result {
    let name = name(req);
    res.send_file(req, &name, rooted().dotfiles(Dotfiles::Deny))
        .await
}

async fn absolute(req: &mut Request, res: &mut Response) -> Result {
    let path = files_dir().join("ten-kb.txt");
    res.send_file(req, &path.to_string_lossy(), SendFileOptions::new())
        .await
}

async fn no_root(req: &mut Request, res: &mut Response) -> Result {
    res.send_file(req, "files/note.txt", SendFileOptions::new())
        .await
}

async fn options(req: &mut Request, res: &mut Response) -> Result {
    let opts = rooted()
        .max_age("2h")
        .immutable(true)
        .last_modified(false)
        .header("X-Sent-By", "sendFile");
    res.send_file(req, "note.txt", opts).await
}

async fn bare(req: &mut Request, res: &mut Response) -> Result {
    let opts = rooted()
        .etag(false)
        .accept_ranges(false)
        .cache_control(false);
    res.send_file(req, "ten-kb.txt", opts).await
}

async fn callback(req: &mut Request, res: &mut Response) -> Result {
    let name = name(req);
    let outcome = res.try_send_file(req, &name, rooted()).await;
    file_error_json(res, outcome)
}

async fn download(req: &mut Request, res: &mut Response) -> Result {
    let name = name(req);
    res.download(req, &name, None, rooted()).await
}

async fn download_as(req: &mut Request, res: &mut Response) -> Result {
    let name = name(req);
    res.download(req, &name, Some("renamed \u{fc} file.txt"), rooted())
        .await
}

async fn download_utf8(req: &mut Request, res: &mut Response) -> Result {
    res.download(
        req,
        "na\u{ef}ve r\u{e9}sum\u{e9} \u{2713}.txt",
        None,
        rooted(),
    )
    .await
}

async fn download_headers(req: &mut Request, res: &mut Response) -> Result {
    let opts = rooted()
        .header("X-Download", "yes")
        .header("Content-Disposition", "inline");
    res.download(req, "note.txt", Some("note.txt"), opts).await
}

async fn download_callback(req: &mut Request, res: &mut Response) -> Result {
    let name = name(req);
    let outcome = res.try_download(req, &name, None, rooted()).await;
    file_error_json(res, outcome)
}

/// Registers the `/files` router.
pub fn routes(app: &mut App) {
    let mut r = webfw::router();
    r.get("/send/:name", send);
    r.get("/send-nested/*", send_nested);
    r.get("/dot/:name", dot);
    r.get("/dot-deny/:name", dot_deny);
    r.get("/absolute", absolute);
    r.get("/no-root", no_root);
    r.get("/options", options);
    r.get("/bare", bare);
    r.get("/callback/:name", callback);
    r.get("/download/:name", download);
    r.get("/download-as/:name", download_as);
    r.get("/download-utf8", download_utf8);
    r.get("/download-headers", download_headers);
    r.get("/download-callback/:name", download_callback);
    app.use_at("/files", r);
}

/// `GET /req/range?size=S&combine=1`.
pub fn req_range(req: &mut Request, res: &mut Response) -> Result {
    let query = |k: &str| {
        req.query()
            .get(k)
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    };
    let size = query("size")
        .filter(|s| !s.is_empty())
        .map_or(1000.0, |s| s.trim().parse::<f64>().unwrap_or(f64::NAN));
    let combine = query("combine").as_deref() == Some("1");
    let size = if size.is_finite() && size >= 0.0 {
        size as u64
    } else {
        0
    };
    let body = match req.range(size, combine) {
        None => json!({ "result": null }),
        Some(webfw::ParsedRange::Ranges { unit, ranges }) => json!({
            "type": unit,
            "ranges": ranges.iter().map(|r| json!({ "start": r.start, "end": r.end })).collect::<Vec<_>>(),
        }),
        Some(other) => json!({ "result": other.code() }),
    };
    res.json(&body)
}

/// `GET /res/attachment` and `/res/attachment/:name`.
pub fn attachment_routes(app: &mut App) {
    app.get(
        "/res/attachment",
        |_req: &mut Request, res: &mut Response| res.attachment(None).send("attachment body"),
    );
    app.get(
        "/res/attachment/:name",
        |req: &mut Request, res: &mut Response| {
            let name = req.param("name").unwrap_or_default().to_owned();
            res.attachment(name.as_str()).send("attachment body")
        },
    );
}
