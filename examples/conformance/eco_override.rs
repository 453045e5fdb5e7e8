//! `/eco/override/<getter>/*`: method-override with its header, query and
//! function getters and the `methods` option (ROUTES.md, reference/eco.js).

use serde_json::{Value, json};
use webfw::body::Body;
use webfw::prelude::*;
use webfw::{MethodGetter, UrlencodedOptions, method_override};

/// The routes every mount ends with.
fn override_routes() -> Router {
    let mut r = webfw::router();
    r.all("/item", |req: &mut Request, res: &mut Response| {
        let body = match req.body() {
            Body::Undefined => json!("undefined"),
            other => json!(other),
        };
        let v = json!({
            "method": req.method().as_str(),
            "originalMethod": req.original_method().as_str(),
            "body": body,
        });
        res.json(&v)
    });
    r.put("/only-put", |_: &mut Request, res: &mut Response| {
        res.send("put route")
    });
    r.delete("/only-put", |_: &mut Request, res: &mut Response| {
        res.send("delete route")
    });
    r.post("/only-put", |_: &mut Request, res: &mut Response| {
        res.send("post route")
    });
    r
}

/// The `_method` field of a parsed form, removed from `req.body` (the
/// first value when the field repeats, as method-override takes it).
fn method_from_body(req: &mut Request, _res: &mut Response) -> Option<String> {
    let Body::Value(Value::Object(form)) = req.body() else {
        return None;
    };
    let mut form = form.clone();
    let method = form.shift_remove("_method")?;
    req.set_body(Body::Value(Value::Object(form)));
    match method {
        Value::String(s) => Some(s),
        Value::Array(values) => values.first()?.as_str().map(str::to_owned),
        _ => None,
    }
}

pub fn routes(app: &mut App) {
    app.use_at(
        "/eco/override/header",
        (method_override("X-HTTP-Method-Override"), override_routes()),
    );
    app.use_at(
        "/eco/override/query",
        (method_override("_method"), override_routes()),
    );
    app.use_at(
        "/eco/override/fn",
        (
            webfw::urlencoded(UrlencodedOptions::new().extended(false)),
            method_override(MethodGetter::from_fn(method_from_body)),
            override_routes(),
        ),
    );
    app.use_at(
        "/eco/override/methods",
        (
            method_override("X-M").methods(["POST", "PATCH"]),
            override_routes(),
        ),
    );
}
