//! The Express 5 conformance application: the Rust port of
//! `shared/conformance/reference5/app.js` (express 5.3 on Node 20), route by
//! route as specified in `shared/conformance/ROUTES5.md`. The differential kit
//! sends the same raw requests to both and diffs the bytes.
//!
//! It is an Express 5 app ([`webfw::express5::app`]) and every router and
//! sub-app in it is made by [`webfw::express5`]: path-to-regexp 8 paths
//! (`/files/*rest`, `/:file{.:ext}`), the `simple` query parser, router 2's
//! automatic OPTIONS answer, finalhandler 2's pages. One function per route
//! group, registered in the order of ROUTES5.md (`/log` first).
//!
//! Where ROUTES5.md describes something only JavaScript can do (calling a
//! method Express 5 removed, `hasOwnProperty` on an object without a
//! prototype, assigning a getter-only `req.query`, a promise's rejection),
//! the port does what a Rust app meets in its place: the call does not exist
//! or does not type-check, so the handler returns the `Err` that JavaScript's
//! `TypeError` becomes, and an `async` handler's rejection is its `Err`.
//! Everything Express 5 itself decides (status validation, redirect bodies,
//! the query parser, the types, the file rules) is left to webfw.
//!
//! Environment (set by the kit's runner): `PORT` (default 3000, bound on
//! 127.0.0.1), `FIXTURES` (fixtures directory), `LOG_FILE` (where the
//! `/log/*` loggers append), `NODE_ENV` (read by webfw itself when
//! `WEBFW_ENV` is unset; `production` hides error details).

#[path = "conformance5/body.rs"]
mod body;
#[path = "conformance5/cookies.rs"]
mod cookies;
#[path = "conformance5/errors.rs"]
mod errors;
#[path = "conformance5/files.rs"]
mod files;
#[path = "conformance5/log.rs"]
mod log;
#[path = "conformance5/render.rs"]
mod render;
#[path = "conformance5/req.rs"]
mod req;
#[path = "conformance5/res.rs"]
mod res;
#[path = "conformance5/routing.rs"]
mod routing;
#[path = "conformance5/sub.rs"]
mod sub;
#[path = "conformance/tpl.rs"]
mod tpl;

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use webfw::ListenOptions;
use webfw::prelude::*;

/// The process contract of ROUTES5.md.
pub struct Config {
    port: u16,
    /// `$FIXTURES`: `public/`, `files/`, `views/` and `eco/` live below it.
    fixtures: PathBuf,
    /// `$LOG_FILE`: the `/log/*` loggers append one line per request.
    log_file: PathBuf,
}

impl Config {
    fn from_env() -> Config {
        let port = std::env::var("PORT")
            .ok()
            .and_then(|p| p.parse().ok())
            .unwrap_or(3000);
        let fixtures = std::env::var_os("FIXTURES").map_or_else(
            || PathBuf::from("shared/conformance/fixtures"),
            PathBuf::from,
        );
        let log_file = std::env::var_os("LOG_FILE").map_or_else(
            || std::env::temp_dir().join(format!("conformance5-{port}.log")),
            PathBuf::from,
        );
        Config {
            port,
            fixtures,
            log_file,
        }
    }

    /// `PUBLIC = $FIXTURES/public`.
    pub fn public(&self) -> PathBuf {
        self.fixtures.join("public")
    }

    /// `FILES = $FIXTURES/files`.
    pub fn files(&self) -> PathBuf {
        self.fixtures.join("files")
    }

    /// `VIEWS = $FIXTURES/views`.
    pub fn views(&self) -> PathBuf {
        self.fixtures.join("views")
    }

    /// `ECO = $FIXTURES/eco`.
    pub fn eco(&self) -> PathBuf {
        self.fixtures.join("eco")
    }
}

fn main() -> std::io::Result<()> {
    let cfg = Config::from_env();
    let mut app = webfw::express5::app();
    // views, view engine, app.locals.siteName and the tpl engine.
    render::settings(&mut app, &cfg);

    health(&mut app);
    // /log/* comes before every other group: its loggers must see the
    // requests before anything else answers them.
    log::routes(&mut app, &cfg);
    routing::routes(&mut app);
    req::routes(&mut app);
    res::routes(&mut app);
    res::neg(&mut app);
    body::routes(&mut app);
    files::static_routes(&mut app, &cfg);
    files::routes(&mut app, &cfg);
    cookies::routes(&mut app);
    errors::routes(&mut app);
    sub::routes(&mut app);
    sub::params(&mut app);
    files::etag(&mut app, &cfg);
    render::routes(&mut app, &cfg);
    errors::removed(&mut app, &cfg);

    let opts = ListenOptions::port(cfg.port).host("127.0.0.1");
    app.listen_with(opts, |addr| {
        println!(
            "express 5 conformance port listening on http://{addr} (FIXTURES={}, LOG_FILE={})",
            cfg.fixtures.display(),
            cfg.log_file.display()
        );
    })
}

// ===========================================================================
// Helpers shared by several groups
// ===========================================================================

/// A handler answering with a fixed text (ROUTES5.md's "text `S`").
pub fn text(
    body: &'static str,
) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |_req, res| res.send(body)
}

/// A JSON object whose `None` members are left out, as `JSON.stringify`
/// drops properties whose value is `undefined`.
pub fn object<'k>(members: impl IntoIterator<Item = (&'k str, Option<Value>)>) -> Value {
    let map: Map<String, Value> = members
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
        .collect();
    Value::Object(map)
}

/// JavaScript's `String(v)` for the values a query parser produces.
pub fn js_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        Value::Object(_) => "[object Object]".to_owned(),
        other => other.to_string(),
    }
}

/// `String(req.query[key] || fallback)`: absent and empty-string values are
/// falsy; arrays and objects are truthy even when they print as `""`.
pub fn query_or(req: &Request, key: &str, fallback: &str) -> String {
    match req.query().get(key) {
        None | Some(Value::Null) => fallback.to_owned(),
        Some(Value::String(s)) if s.is_empty() => fallback.to_owned(),
        Some(v) => js_string(v),
    }
}

/// `req.query[key]` when it is a string (`typeof … === 'string'`).
pub fn query_str(req: &Request, key: &str) -> Option<String> {
    req.query()
        .get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// JavaScript's `Number(s)`: whitespace trimmed, `""` is 0, `0x`/`0o`/`0b`
/// prefixes, `Infinity`, otherwise a decimal literal or NaN.
pub fn js_number(s: &str) -> f64 {
    let t = s.trim();
    if t.is_empty() {
        return 0.0;
    }
    let radix = |p: &str, r| u64::from_str_radix(p, r).map_or(f64::NAN, |n| n as f64);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return radix(h, 16);
    }
    if let Some(o) = t.strip_prefix("0o").or_else(|| t.strip_prefix("0O")) {
        return radix(o, 8);
    }
    if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        return radix(b, 2);
    }
    match t {
        "Infinity" | "+Infinity" => f64::INFINITY,
        "-Infinity" => f64::NEG_INFINITY,
        _ if t.contains(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E') => f64::NAN,
        _ => t.parse().unwrap_or(f64::NAN),
    }
}

/// `Number(req.params[name])` handed to `res.status`. Express 5 throws a
/// `TypeError` for a value that is not an integer (NaN, `200.5`); a Rust
/// status is a `u16`, so that value never reaches `res.status`: the
/// conversion fails first, with the same 500. Integers that fit are given
/// to webfw, whose Express 5 `res.status` refuses those outside 100–999.
pub fn status_number(req: &Request, name: &str) -> Result<u16, Error> {
    let raw = req.param(name).unwrap_or_default();
    let n = js_number(raw);
    if n.fract() != 0.0 || !n.is_finite() || n < 0.0 || n > f64::from(u16::MAX) {
        return Err(Error::new(format!(
            "Invalid status code: {raw}. Status code must be an integer."
        ))
        .with_name("TypeError"));
    }
    Ok(n as u16)
}

/// The `TypeError` JavaScript throws where the Rust call does not exist
/// (a method Express 5 removed, `hasOwnProperty` on an object without a
/// prototype, …): the route answers with the same 500 page.
pub fn type_error(message: &str) -> Error {
    Error::new(message.to_owned()).with_name("TypeError")
}

/// A per-request value kept on `req` (Express code sets ad-hoc properties
/// such as `req.paramLog`), `None` when never set.
pub fn req_value(req: &Request, key: &str) -> Option<Value> {
    req.local(key).cloned()
}

/// Pushes `entry` onto the JSON array `key` of `locals`, creating it first.
pub fn push_to(locals: &mut Map<String, Value>, key: &str, entry: Value) {
    let slot = locals.entry(key).or_insert_with(|| json!([]));
    if let Value::Array(items) = slot {
        items.push(entry);
    }
}

/// `err.status || 500` (also `err.statusCode`, which webfw keeps in the
/// same place).
pub fn js_status_or_500(err: &Error) -> u16 {
    err.raw_status()
        .filter(|s| *s != 0)
        .map_or(500, |s| u16::try_from(s).unwrap_or(u16::MAX))
}

/// A wildcard parameter (`*name`) joined again with `/`:
/// `req.params.name.join('/')` (the value is the array of segments).
pub fn wildcard(req: &Request, name: &str) -> String {
    match req.params().list(name) {
        Some(parts) => parts.collect::<Vec<_>>().join("/"),
        None => req.param(name).unwrap_or_default().to_owned(),
    }
}

/// `echoParams`: `{"route": <route path when a string, else null>, "params": req.params}`.
pub fn echo_params(req: &mut Request, res: &mut Response) -> Result {
    let route = req.route().and_then(|r| r.path());
    let body = json!({ "route": route, "params": req.params().to_json() });
    res.json(&body)
}

// ===========================================================================
// Health and root
// ===========================================================================
fn health(app: &mut App) {
    app.get("/health", text("ok")); // readiness probe for the runner
    app.get("/", text("Express 5 conformance reference"));
}
