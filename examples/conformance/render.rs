//! `/render/*`: views (ROUTES.md, "/render/* — views"), with the reference's
//! `.tpl` engine implemented through webfw's [`Engine`] trait.

use std::path::Path;

use crate::tpl::Tpl;
use serde_json::{Value, json};
use webfw::App;
use webfw::prelude::*;

/// Registers the view settings, the `.tpl` engine and the `/render/*` routes
/// (last in the app).
pub fn routes(app: &mut App, fixtures: &Path) {
    app.set("views", fixtures.join("views"))
        .set("view engine", "tpl");
    app.locals_mut()
        .insert("siteName".into(), json!("Conformance Site"));
    app.engine("tpl", Tpl);

    app.use_at("/render", |_req: &mut Request, res: &mut Response| {
        res.locals_mut().insert("greeting".into(), json!("Welcome"));
        next()
    });
    app.get("/render/hello", hello);
    app.get("/render/explicit-ext", explicit_ext);
    app.get("/render/nested", nested);
    app.get("/render/plain", plain);
    app.get("/render/missing", missing);
    app.get("/render/callback", callback);
    app.get("/render/app", app_render);
    app.get("/render/locals-override", locals_override);
}

/// `res.render('hello', {name: req.query.name || 'world'})`: the raw query
/// value, whatever its shape (the engine prints it with `String`).
async fn hello(req: &mut Request, res: &mut Response) -> Result {
    let name = match req.query().get("name") {
        None | Some(Value::Null) => json!("world"),
        Some(Value::String(s)) if s.is_empty() => json!("world"),
        Some(v) => v.clone(),
    };
    res.render("hello", json!({ "name": name })).await
}

async fn explicit_ext(_req: &mut Request, res: &mut Response) -> Result {
    res.render("hello.tpl", json!({ "name": "ext" })).await
}

async fn nested(_req: &mut Request, res: &mut Response) -> Result {
    res.render(
        "partials/item",
        json!({ "title": "Item <1>", "price": 9.5 }),
    )
    .await
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

async fn locals_override(_req: &mut Request, res: &mut Response) -> Result {
    res.locals_mut()
        .insert("siteName".into(), json!("Overridden"));
    res.render("hello", json!({ "name": "local", "greeting": "Hi" }))
        .await
}
