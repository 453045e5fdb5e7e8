//! `/routing/*`: path-to-regexp 8 syntax and router 2 behaviour (ROUTES5.md,
//! "/routing/* — path syntax and router behaviour").

use serde_json::{Value, json};
use webfw::prelude::*;
use webfw::{PathSpec, RouterOptions, TextOptions};

use crate::{echo_params, text};

pub fn routes(app: &mut App) {
    app.get("/routing/plain", text("plain route"));
    app.get("/routing/users/:id", echo_params);
    app.get("/routing/users/:id/books/:bookId", echo_params);
    app.get("/routing/opt/:a{/:b}", echo_params); // optional segment group
    app.get("/routing/file/:name{.:ext}", echo_params); // optional extension
    app.get("/routing/dot/:name.:ext", echo_params); // greedy first parameter
    app.get("/routing/range/:from-:to", echo_params);
    app.get("/routing/star/*rest", echo_params); // named wildcard: an array
    app.get("/routing/optstar{/*rest}", echo_params); // optional wildcard
    app.get("/routing/tree/:dir/*path", echo_params);
    app.get("/routing/color{s}", echo_params); // optional literal text
    app.get(r"/routing/lit/\(1\+1\)", echo_params); // escaped characters
    app.get(r#"/routing/quoted/:"user-id""#, echo_params); // quoted name
    app.get(
        PathSpec::regex(r"^\/routing\/re\/(\w+)-(\d+)?$"),
        echo_params,
    );
    app.get(
        PathSpec::regex(r"^\/routing\/named\/(?<year>\d{4})\/(?<month>\d{2})$"),
        echo_params,
    );
    app.get(["/routing/arr/one", "/routing/arr/two/:x"], echo_params);

    // Params of a string pattern have no prototype in Express 5, so
    // `req.params.hasOwnProperty('id')` throws a TypeError: a Rust app asks
    // `req.params()` instead, and the port answers what the JavaScript call
    // does, the TypeError's 500.
    app.get(
        "/routing/has-param/:id",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(crate::type_error(
                "req.params.hasOwnProperty is not a function",
            ))
        },
    );
    // A RegExp route's params are a plain object: the call answers.
    app.get(
        PathSpec::regex(r"^\/routing\/has-param-re\/(\d+)$"),
        |req: &mut Request, res: &mut Response| {
            let has = req.params().get("0").is_some();
            res.json(&json!({ "has": has }))
        },
    );

    // next('route')
    app.get(
        "/routing/next/:n",
        |req: &mut Request, res: &mut Response| {
            let n = req.param("n").unwrap_or_default().to_owned();
            if n == "skip" {
                return next_route();
            }
            res.send(format!("first route: {n}"))
        },
    );
    app.get(
        "/routing/next/:n",
        |req: &mut Request, res: &mut Response| {
            let n = req.param("n").unwrap_or_default().to_owned();
            res.send(format!("second route: {n}"))
        },
    );

    app.all("/routing/all", |req: &mut Request, res: &mut Response| {
        let body = format!("all: {}", req.method());
        res.send(body)
    });

    // One route, four methods; OPTIONS gets the sorted automatic answer.
    app.route("/routing/chain")
        .get(text("chain GET"))
        .post(text("chain POST"))
        .put(text("chain PUT"))
        .delete(text("chain DELETE"));

    app.head("/routing/head", |_req: &mut Request, res: &mut Response| {
        res.set("X-Head-Handler", "head").end()
    });
    app.get("/routing/head", |_req: &mut Request, res: &mut Response| {
        res.set("X-Head-Handler", "get").send("get body")
    });

    app.options(
        "/routing/options",
        |_req: &mut Request, res: &mut Response| res.set("Allow", "CUSTOM").send_status(204),
    );
    app.get("/routing/options", text("options get"));

    // The QUERY method (a GET with a body).
    app.method(
        "QUERY",
        "/routing/search",
        (
            webfw::express5::text_with(TextOptions::new().type_("*/*")),
            |req: &mut Request, res: &mut Response| {
                let body = match req.body().as_str() {
                    Some(s) => s.to_owned(),
                    None => "(no body)".to_owned(),
                };
                res.set("ETag", "\"search-v1\"");
                res.send(format!("search: {body}"))
            },
        ),
    );
    app.get("/routing/search", text("search page"));

    // next('router') leaves the Router; the app-level route after it answers.
    let mut exit = webfw::express5::router();
    exit.get(
        "/routing/exit",
        |_req: &mut Request, _res: &mut Response| next_router(),
    );
    exit.get("/routing/exit", text("never reached"));
    app.use_(exit);
    app.get("/routing/exit", text("after router exit"));

    app.use_at("/routing/mw", |req: &mut Request, res: &mut Response| {
        let info = json!({
            "url": req.url(),
            "path": req.path(),
            "baseUrl": req.base_url(),
            "originalUrl": req.original_url(),
        });
        res.json(&info)
    });

    // A mounted middleware rewrites req.url; once it calls next() the later
    // layers see the mount path joined to the new url with a '/'.
    app.use_at("/routing/rw", |req: &mut Request, _res: &mut Response| {
        let tail = crate::query_str(req, "tail").map_or_else(String::new, |t| format!("/{t}"));
        req.set_url(format!("/target{tail}"));
        next()
    });
    app.get(
        "/routing/rw/target{/*rest}",
        |req: &mut Request, res: &mut Response| {
            let rest = req
                .params()
                .to_json()
                .get("rest")
                .cloned()
                .unwrap_or(Value::Null);
            let info = json!({
                "url": req.url(),
                "path": req.path(),
                "baseUrl": req.base_url(),
                "originalUrl": req.original_url(),
                "rest": rest,
            });
            res.json(&info)
        },
    );

    let mut strict =
        webfw::express5::router_with(RouterOptions::new().case_sensitive(true).strict(true));
    strict.get("/Abc", text("strict /Abc"));
    strict.get("/dir/", text("strict /dir/"));
    strict.get("/file", text("strict /file"));
    app.use_at("/routing/strict", strict);

    let mut loose = webfw::express5::router();
    loose.get("/Abc", text("loose /Abc"));
    loose.get("/dir/", text("loose /dir/"));
    loose.get("/file", text("loose /file"));
    app.use_at("/routing/loose", loose);

    // Settings set before the first route, which is when the app's router
    // is created.
    let mut strict_app = webfw::express5::app();
    strict_app.set("case sensitive routing", true);
    strict_app.set("strict routing", true);
    strict_app.get("/Abc", text("strict app /Abc"));
    strict_app.get("/dir/", text("strict app /dir/"));
    app.use_at("/routing/app-strict", strict_app);

    app.get("/routing/check", check);
}

/// `GET /routing/check?p=P`: registers `express.Router().get(P, noop)` on
/// a fresh Express 5 router; a refusal is Express's `TypeError`, returned
/// by `try_route` where `get` would panic at start-up.
fn check(req: &mut Request, res: &mut Response) -> Result {
    let pattern = match req.query().get("p") {
        None => String::new(),
        Some(v) => crate::js_string(v),
    };
    let mut r = webfw::express5::router();
    let outcome = r.try_route(pattern.as_str()).map(|route| {
        route.get(|_req: &mut Request, _res: &mut Response| next());
    });
    let body = match outcome {
        Ok(()) => json!({ "pattern": pattern, "ok": true }),
        Err(err) => json!({ "pattern": pattern, "ok": false, "error": err.message() }),
    };
    res.json(&body)
}
