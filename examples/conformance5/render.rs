//! `/render/*`: views (ROUTES5.md, "/render/* — views"), with the
//! reference's `.tpl` engine implemented through webfw's [`Engine`] trait.

use serde_json::{Value, json};
use webfw::prelude::*;

use crate::Config;
use crate::tpl::Tpl;

/// The top-level app's view settings, `app.locals.siteName` and `tpl`.
pub fn settings(app: &mut App, cfg: &Config) {
    app.set("views", cfg.views()).set("view engine", "tpl");
    app.locals_mut()
        .insert("siteName".into(), json!("Conformance Site"));
    app.engine("tpl", Tpl);
}

pub fn routes(app: &mut App, cfg: &Config) {
    app.use_at("/render", |_req: &mut Request, res: &mut Response| {
        res.locals_mut().insert("greeting".into(), json!("Welcome"));
        next()
    });
    app.get("/render/hello", hello);
    app.get("/render/plain", plain);
    app.get("/render/missing", missing);
    app.get("/render/callback", callback);
    app.get("/render/app", app_render);

    // A sub-app with its own views, engine and app.locals (no siteName).
    let mut sync = webfw::express5::app();
    sync.set("views", cfg.views()).set("view engine", "tpl");
    sync.engine("tpl", Tpl);
    sync.get("/order", order);
    sync.get("/hello", sync_hello);
    app.use_at("/render/sync", sync);
}

/// `res.render('hello', {name: req.query.name || 'world'})`.
async fn hello(req: &mut Request, res: &mut Response) -> Result {
    let name = match req.query().get("name") {
        None | Some(Value::Null) => json!("world"),
        Some(Value::String(s)) if s.is_empty() => json!("world"),
        Some(v) => v.clone(),
    };
    res.render("hello", json!({ "name": name })).await
}

async fn plain(_req: &mut Request, res: &mut Response) -> Result {
    res.status(201).render("plain", ()).await
}

async fn missing(_req: &mut Request, res: &mut Response) -> Result {
    res.render("does-not-exist", ()).await
}

/// The callback form: the length printed is in UTF-16 code units, as
/// JavaScript's `html.length`.
async fn callback(_req: &mut Request, res: &mut Response) -> Result {
    match res.render_to_string("hello", json!({ "name": "cb" })).await {
        Ok(html) => {
            let len = html.encode_utf16().count();
            res.type_("text/plain").send(format!("[{len}]{html}"))
        }
        Err(_) => res.status(500).send("render failed"),
    }
}

/// `app.render`: no `res.locals`, so `greeting` is empty.
async fn app_render(req: &mut Request, res: &mut Response) -> Result {
    let app = req.app().clone();
    match app.render("hello", json!({ "name": "app-level" })).await {
        Ok(html) => res.json(&json!({ "html": html })),
        Err(_) => res.status(500).send("render failed"),
    }
}

/// Express 5 runs the render callback on a later tick, after the code that
/// follows `res.render`; a Rust render is a future that does nothing until
/// it is awaited, so the code after the call runs first here too.
async fn order(_req: &mut Request, res: &mut Response) -> Result {
    let mut order = Vec::new();
    let rendering = res.render_to_string("plain", ());
    order.push("after res.render");
    let outcome = rendering.await;
    match outcome {
        Ok(html) => {
            order.push("callback");
            res.json(&json!({ "order": order, "html": html }))
        }
        Err(_) => {
            order.push("callback error");
            res.json(&json!({ "order": order, "html": null }))
        }
    }
}

async fn sync_hello(_req: &mut Request, res: &mut Response) -> Result {
    res.render("hello", json!({ "name": "sync" })).await
}
