//! `/static/*` (serve-static 2 / send 1), `/files/*` (`res.sendFile` and
//! `res.download`) and `/etag/*` (the `etag` setting, which Express 5 also
//! applies to `res.sendFile`): ROUTES5.md's sections of those names.

use std::path::PathBuf;

use serde_json::json;
use webfw::Setting;
use webfw::files::Static5;
use webfw::files::{Dotfiles, SendFileOptions, StaticOptions};
use webfw::prelude::*;

use crate::{Config, text};

/// `$FIXTURES/<dir>` for handlers, which cannot hold the [`Config`].
fn fixture(dir: &str) -> PathBuf {
    std::env::var_os("FIXTURES")
        .map_or_else(
            || PathBuf::from("shared/conformance/fixtures"),
            PathBuf::from,
        )
        .join(dir)
}

/// `express.static(root, options)` of Express 5 (serve-static 2 / send 1).
fn static_with(root: PathBuf, opts: StaticOptions) -> Static5 {
    webfw::express5::static_with(root, opts)
}

/// The `/static/*` mounts.
pub fn static_routes(app: &mut App, cfg: &Config) {
    let public = cfg.public();
    let o = StaticOptions::new;
    app.use_at("/static/default", static_with(public.clone(), o()));
    app.use_at(
        "/static/dot-allow",
        static_with(public.clone(), o().dotfiles(Dotfiles::Allow)),
    );
    app.use_at(
        "/static/dot-deny",
        static_with(public.clone(), o().dotfiles(Dotfiles::Deny)),
    );
    app.use_at(
        "/static/nofall",
        static_with(public.clone(), o().fallthrough(false)),
    );
    app.use_at(
        "/static/ext",
        static_with(public.clone(), o().extensions(["html", "htm"])),
    );
    app.use_at(
        "/static/cache",
        static_with(public, o().max_age("1d").immutable(true)),
    );
    app.use_at("/static/eco", static_with(cfg.eco(), o()));
}

fn rooted() -> SendFileOptions {
    SendFileOptions::new().root(fixture("files"))
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
            let status = e.raw_status().filter(|&s| s != 0).unwrap_or(500);
            let body = json!({ "error": e.code(), "status": e.raw_status() });
            res.status(u16::try_from(status).unwrap_or(500)).json(&body)
        }
    }
}

async fn send(req: &mut Request, res: &mut Response) -> Result {
    let name = name(req);
    res.send_file(req, &name, rooted()).await
}

/// `res.sendFile(req.params.path.join('/'), {root: FILES})`.
async fn nested(req: &mut Request, res: &mut Response) -> Result {
    let path = crate::wildcard(req, "path");
    res.send_file(req, &path, rooted()).await
}

async fn public(req: &mut Request, res: &mut Response) -> Result {
    let path = crate::wildcard(req, "path");
    let opts = SendFileOptions::new().root(fixture("public"));
    res.send_file(req, &path, opts).await
}

async fn public_dot(req: &mut Request, res: &mut Response) -> Result {
    let path = crate::wildcard(req, "path");
    let opts = SendFileOptions::new()
        .root(fixture("public"))
        .dotfiles(Dotfiles::Allow);
    res.send_file(req, &path, opts).await
}

/// The call's `etag: false` is replaced by the app's etag setting.
async fn etag_false(req: &mut Request, res: &mut Response) -> Result {
    res.send_file(req, "note.txt", rooted().etag(false)).await
}

/// A relative path without a root: a TypeError (500).
async fn no_root(req: &mut Request, res: &mut Response) -> Result {
    res.send_file(req, "files/note.txt", SendFileOptions::new())
        .await
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

async fn download_missing(req: &mut Request, res: &mut Response) -> Result {
    let outcome = res.try_download(req, "missing.txt", None, rooted()).await;
    file_error_json(res, outcome)
}

/// The `/files` router.
pub fn routes(app: &mut App, _cfg: &Config) {
    let mut r = webfw::express5::router();
    r.get("/send/:name", send);
    r.get("/nested/*path", nested);
    r.get("/public/*path", public);
    r.get("/public-dot/*path", public_dot);
    r.get("/etag-false", etag_false);
    r.get("/no-root", no_root);
    r.get("/callback/:name", callback);
    r.get("/download/:name", download);
    r.get("/download-as/:name", download_as);
    r.get("/download-utf8", download_utf8);
    r.get("/download-missing", download_missing);
    app.use_at("/files", r);
}

async fn note(req: &mut Request, res: &mut Response) -> Result {
    res.send_file(req, "note.txt", rooted()).await
}

/// The `/etag/*` routes and sub-apps.
pub fn etag(app: &mut App, cfg: &Config) {
    app.get("/etag/weak/text", text("etag me")); // app default: weak
    app.get("/etag/weak/file", note);
    app.use_at(
        "/etag/strong",
        etag_app(cfg, Setting::from("strong"), "strong"),
    );
    app.use_at("/etag/off", etag_app(cfg, Setting::from(false), "off"));
    app.use_at(
        "/etag/fn",
        etag_app(
            cfg,
            Setting::etag_fn(|body| Some(format!("\"len-{}\"", body.len()))),
            "fn",
        ),
    );
}

/// `etagApp(setting, label)`; its `/static` mount ignores the setting.
fn etag_app(cfg: &Config, setting: Setting, label: &'static str) -> App {
    let mut a = webfw::express5::app();
    a.set("etag", setting);
    a.get("/text", text("etag me"));
    a.get("/json", move |_req: &mut Request, res: &mut Response| {
        res.json(&json!({ "etag": label }))
    });
    a.get("/file", note);
    a.use_at("/static", static_with(cfg.public(), StaticOptions::new()));
    a
}
