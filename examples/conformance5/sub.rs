//! `/sub/*`: sub-apps, Routers and mergeParams, and `/params/*`:
//! `app.param` and `router.param` (ROUTES5.md's sections of those names).

use serde_json::{Value, json};
use webfw::RouterOptions;
use webfw::prelude::*;

use crate::{js_status_or_500, object, push_to, req_value, text};

pub fn routes(app: &mut App) {
    let mut sub_app = webfw::express5::app();
    sub_app.get("/info", mount_info);
    let mut nested = webfw::express5::app();
    nested.get("/info", mount_info);
    sub_app.use_at("/nested", nested);
    app.use_at("/sub/app", sub_app);

    let mut multi = webfw::express5::app();
    multi.get("/info", mount_info);
    app.use_at(["/sub/one", "/sub/two"], multi); // array mount path

    let mut tenant = webfw::express5::app();
    tenant.get("/info", mount_info);
    app.use_at("/sub/tenant/:tenant", tenant);

    // Merged params are a plain object: hasOwnProperty answers there.
    let mut merge = webfw::express5::router_with(RouterOptions::new().merge_params(true));
    merge.get("/items/:itemId", |req: &mut Request, res: &mut Response| {
        let has = req.params().get("userId").is_some();
        let body = json!({ "params": req.params().to_json(), "has": has });
        res.json(&body)
    });
    merge.get("/files/*rest", |req: &mut Request, res: &mut Response| {
        let body = json!({ "params": req.params().to_json() });
        res.json(&body)
    });
    app.use_at("/sub/users/:userId", merge);

    let mut outer = webfw::express5::router();
    let mut inner = webfw::express5::router();
    inner.get("/info", |req: &mut Request, res: &mut Response| {
        let body = json!({
            "baseUrl": req.base_url(),
            "originalUrl": req.original_url(),
            "url": req.url(),
            "path": req.path(),
        });
        res.json(&body)
    });
    outer.use_at("/inner", inner);
    app.use_at("/sub/router", outer);

    // next('router') from a router-level middleware skips the rest of it.
    let mut gate = webfw::express5::router();
    gate.use_(|req: &mut Request, _res: &mut Response| {
        if req.get("X-Gate") == Some("closed") {
            return next_router();
        }
        next()
    });
    gate.get("/sub/gate", text("inside the gate router"));
    app.use_(gate);
    app.get("/sub/gate", text("outside the gate router"));

    let mut inherit = webfw::express5::app();
    inherit.set("json spaces", 2);
    let mut child = webfw::express5::app();
    child.get("/json", |_req: &mut Request, res: &mut Response| {
        res.json(&json!({ "inherited": ["spaces"] }))
    });
    inherit.use_at("/child", child);
    inherit.get("/json", |_req: &mut Request, res: &mut Response| {
        res.json(&json!({ "parent": true }))
    });
    app.use_at("/sub/inherit", inherit);
}

/// `mountInfo(a)`: `req.app` is the sub-app whose route is running.
fn mount_info(req: &mut Request, res: &mut Response) -> Result {
    let body = json!({
        "mountpath": req.app().mountpath(),
        "appPath": req.app().path(),
        "baseUrl": req.base_url(),
        "originalUrl": req.original_url(),
        "url": req.url(),
        "path": req.path(),
        "params": req.params().to_json(),
    });
    res.json(&body)
}

pub fn params(app: &mut App) {
    // app.param(['first', 'last'], cb): cb logs "<name>=<value>". A webfw
    // param callback is not told the parameter's name, so each name gets
    // its own callback.
    app.param("first", log_named_param("first"));
    app.param("last", log_named_param("last"));
    app.get(
        "/params/name/:first/:last",
        |req: &mut Request, res: &mut Response| {
            let body = object([
                ("log", req_value(req, "paramLog")),
                ("params", Some(req.params().to_json())),
            ]);
            res.json(&body)
        },
    );

    let mut r = webfw::express5::router();
    r.param("id", load_id);
    r.param("slug", load_slug);
    // Registered with its colon: Express 5 no longer strips it, so this
    // never runs for the `legacy` parameter.
    r.param(
        ":legacy",
        |req: &mut Request, _res: &mut Response, value: &str| {
            push_to(
                req.locals_mut(),
                "paramLog",
                json!(format!("legacy:{value}")),
            );
            next()
        },
    );
    r.get("/item/:id", |_req: &mut Request, res: &mut Response| {
        res.locals_mut().insert("first".into(), json!(true));
        next()
    });
    r.get("/item/:id", |req: &mut Request, res: &mut Response| {
        let first = res.locals().get("first") == Some(&json!(true));
        let body = object([
            ("log", req_value(req, "paramLog")),
            ("item", req_value(req, "item")),
            ("first", Some(json!(first))),
        ]);
        res.json(&body)
    });
    r.get("/item/*rest", |req: &mut Request, res: &mut Response| {
        let log = req_value(req, "paramLog").unwrap_or_else(|| json!([]));
        res.json(&json!({ "fallback": true, "log": log }))
    });
    r.get("/post/:slug", |req: &mut Request, res: &mut Response| {
        let body = object([
            ("log", req_value(req, "paramLog")),
            ("slug", req.param("slug").map(Value::from)),
        ]);
        res.json(&body)
    });
    r.get(
        "/legacy/:legacy",
        |req: &mut Request, res: &mut Response| {
            let log = req_value(req, "paramLog").unwrap_or_else(|| json!([]));
            let body = object([
                ("log", Some(log)),
                ("legacy", req.param("legacy").map(Value::from)),
            ]);
            res.json(&body)
        },
    );
    r.use_(|err: Error, req: &mut Request, res: &mut Response| {
        let body = object([
            ("error", Some(json!(err.message()))),
            ("log", req_value(req, "paramLog")),
        ]);
        res.status(js_status_or_500(&err)).json(&body)
    });
    app.use_at("/params", r);
}

/// The app-level param callback for `name`: logs `"<name>=<value>"`.
fn log_named_param(
    name: &'static str,
) -> impl Fn(&mut Request, &mut Response, &str) -> Result + Send + Sync + 'static {
    move |req, _res, value| {
        push_to(
            req.locals_mut(),
            "paramLog",
            json!(format!("{name}={value}")),
        );
        next()
    }
}

/// `router.param('id', …)`: logs `"id:<value>"`; `fail` is a 422 error,
/// `skip` skips the route, anything else loads `req.item`.
fn load_id(req: &mut Request, _res: &mut Response, id: &str) -> Result {
    push_to(req.locals_mut(), "paramLog", json!(format!("id:{id}")));
    match id {
        "fail" => Err(Error::new("bad id").with_status(422)),
        "skip" => next_route(),
        _ => {
            req.set_local("item", json!({ "id": id, "loaded": true }));
            next()
        }
    }
}

/// `router.param('slug', async …)`: logs, waits a tick; `reject` rejects
/// with a 409 (Express 5 passes the rejection to the error handler).
async fn load_slug(req: &mut Request, _res: &mut Response, slug: &str) -> Result {
    push_to(req.locals_mut(), "paramLog", json!(format!("slug:{slug}")));
    tokio::task::yield_now().await;
    if slug == "reject" {
        return Err(Error::new("slug rejected").with_status(409));
    }
    next()
}
