//! The conformance application: the Rust port of
//! `shared/conformance/reference/app.js`, route by route as specified in
//! `shared/conformance/ROUTES.md`. The differential kit sends the same raw
//! requests to both and diffs the bytes.
//!
//! One function per route group, registered in the order of the reference
//! (order matters: `/log` first, `app.param` before the `/params` router, …).
//! Groups that need features webfw does not have yet are left out; see
//! the comments in `main`.
//!
//! Environment (set by the kit's runner):
//! `PORT` (default 3000, bound on 127.0.0.1), `FIXTURES` (fixtures directory),
//! `LOG_FILE` (where the `/log/*` loggers append), `NODE_ENV` (read by webfw
//! itself when `WEBFW_ENV` is unset; `production` hides error details).

#[path = "conformance/body.rs"]
mod body;
#[path = "conformance/cookies.rs"]
mod cookies;
#[path = "conformance/eco_compression.rs"]
mod eco_compression;
#[path = "conformance/eco_cors.rs"]
mod eco_cors;
#[path = "conformance/eco_csession.rs"]
mod eco_csession;
#[path = "conformance/eco_favicon.rs"]
mod eco_favicon;
#[path = "conformance/eco_helmet.rs"]
mod eco_helmet;
#[path = "conformance/eco_multer.rs"]
mod eco_multer;
#[path = "conformance/eco_override.rs"]
mod eco_override;
#[path = "conformance/eco_ratelimit.rs"]
mod eco_ratelimit;
#[path = "conformance/eco_response_time.rs"]
mod eco_response_time;
#[path = "conformance/eco_vhost.rs"]
mod eco_vhost;
#[path = "conformance/files.rs"]
mod files;
#[path = "conformance/log.rs"]
mod log;
#[path = "conformance/neg.rs"]
mod neg;
#[path = "conformance/render.rs"]
mod render;
#[path = "conformance/static.rs"]
mod static_files;
#[path = "conformance/tpl.rs"]
mod tpl;

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use webfw::prelude::*;
use webfw::{ListenOptions, PathSpec, RouterOptions, Setting};

/// The process contract of ROUTES.md.
struct Config {
    port: u16,
    /// `$FIXTURES`: `public/`, `files/` and `views/` live below it.
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
            || std::env::temp_dir().join(format!("conformance-{port}.log")),
            PathBuf::from,
        );
        Config {
            port,
            fixtures,
            log_file,
        }
    }
}

fn main() -> std::io::Result<()> {
    let cfg = Config::from_env();
    let mut app = webfw::app();

    health(&mut app);
    // /log/* must be registered before every other group (ROUTES.md): the
    // loggers have to see requests before anything else answers them.
    log(&mut app, &cfg);
    routing(&mut app);
    req(&mut app);
    res(&mut app);
    neg::routes(&mut app);
    // /body also registers POST /errors/json-body and ALL /req/is.
    body::routes(&mut app);
    static_files::routes(&mut app, &static_files::public_dir());
    files::routes(&mut app);
    cookies::routes(&mut app);
    errors(&mut app);
    proxy(&mut app);
    sub(&mut app);
    params(&mut app);
    etag(&mut app);
    render::routes(&mut app, &cfg.fixtures);
    eco_csession::routes(&mut app);
    eco_ratelimit::routes(&mut app);
    eco_cors::routes(&mut app);
    eco_compression::routes(&mut app, &cfg.fixtures);
    eco_helmet::routes(&mut app);
    eco_vhost::routes(&mut app);
    eco_favicon::routes(&mut app, &cfg.fixtures);
    eco_response_time::routes(&mut app);
    eco_override::routes(&mut app);
    eco_multer::routes(&mut app);

    let opts = ListenOptions::port(cfg.port).host("127.0.0.1");
    app.listen_with(opts, |addr| {
        println!(
            "conformance port listening on http://{addr} (FIXTURES={}, LOG_FILE={})",
            cfg.fixtures.display(),
            cfg.log_file.display()
        );
    })
}

// ===========================================================================
// Helpers shared by several groups
// ===========================================================================

/// A handler answering with a fixed text (ROUTES.md's "text `S`").
fn text(
    body: &'static str,
) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |_req, res| res.send(body)
}

/// A JSON object whose `None` members are left out, as `JSON.stringify`
/// drops properties whose value is `undefined`.
fn object<'k>(members: impl IntoIterator<Item = (&'k str, Option<Value>)>) -> Value {
    let map: Map<String, Value> = members
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
        .collect();
    Value::Object(map)
}

/// JavaScript's `String(v)` for the values a query parser produces.
fn js_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        Value::Object(_) => "[object Object]".to_owned(),
        other => other.to_string(),
    }
}

/// `String(req.query[key] || '')`.
fn query_text(req: &Request, key: &str) -> String {
    query_or(req, key, "")
}

/// `String(req.query[key] || fallback)`: absent and empty-string values are
/// falsy; arrays and objects are truthy even when they print as `""`.
fn query_or(req: &Request, key: &str, fallback: &str) -> String {
    match req.query().get(key) {
        None | Some(Value::Null) => fallback.to_owned(),
        Some(Value::String(s)) if s.is_empty() => fallback.to_owned(),
        Some(v) => js_string(v),
    }
}

/// JavaScript's `parseInt(s, 10)`: optional sign and leading digits, `None`
/// for NaN. Huge values saturate (callers clamp them anyway).
fn parse_int(s: &str) -> Option<f64> {
    let t = s.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    let n: f64 = digits[..end].parse().ok()?;
    Some(if neg { -n } else { n })
}

/// `Number(req.params.code)` for a `(\d+)` parameter, as a status code. Values
/// beyond `u16` saturate: they are invalid statuses either way (Express fails
/// with a RangeError when the head is written).
fn status_param(req: &Request, name: &str) -> u16 {
    let digits = req.param(name).unwrap_or_default();
    digits
        .parse::<u64>()
        .map_or(u16::MAX, |n| u16::try_from(n).unwrap_or(u16::MAX))
}

/// A per-request value kept on `req` (Express code sets ad-hoc properties
/// such as `req.paramLog`), `None` when never set.
fn req_value(req: &Request, key: &str) -> Option<Value> {
    req.local(key).cloned()
}

/// Pushes `entry` onto the JSON array `key` of `locals`, creating it first.
fn push_to(locals: &mut Map<String, Value>, key: &str, entry: Value) {
    let slot = locals.entry(key).or_insert_with(|| json!([]));
    if let Value::Array(items) = slot {
        items.push(entry);
    }
}

// ===========================================================================
// Health and root
// ===========================================================================
fn health(app: &mut App) {
    app.get("/health", text("ok")); // readiness probe for the runner
    app.get("/", text("Express conformance reference"));
}

// ===========================================================================
// /log/*  morgan loggers (registered first)
// ===========================================================================
/// The `/log/*` routes: one logger per prefix over the shared `logRoutes`,
/// plus `/log/last` and `/log/target` (in `conformance/log.rs`). They
/// register HERE so that they come before every other group.
fn log(app: &mut App, cfg: &Config) {
    log::routes(app, &cfg.log_file.to_string_lossy());
}

// ===========================================================================
// /routing/*  path patterns, next('route'), route chains, HEAD/OPTIONS
// ===========================================================================
fn routing(app: &mut App) {
    app.get("/routing/plain", text("plain route"));
    app.get("/routing/users/:id", echo_params);
    app.get("/routing/users/:id/books/:bookId", echo_params);
    app.get("/routing/opt/:a/:b?", echo_params);
    app.get("/routing/star/*", echo_params);
    app.get(r"/routing/num/:id(\d+)", echo_params);
    app.get("/routing/file/:name.:ext", echo_params);
    app.get("/routing/range/:from-:to", echo_params);
    app.get("/routing/ab?cd", echo_params);
    app.get("/routing/ab+cd", echo_params);
    app.get("/routing/ab*cd", echo_params);
    app.get("/routing/ab(cd)?e", echo_params);
    app.get(
        PathSpec::regex(r"^\/routing\/re\/(\w+)-(\d+)$"),
        echo_params,
    );
    app.get(
        PathSpec::regex(r"^\/routing\/named\/(?<year>\d{4})\/(?<month>\d{2})$"),
        echo_params,
    );
    app.get(["/routing/arr/one", "/routing/arr/two/:x"], echo_params);

    // next('route'): the first route steps aside when :n is "skip".
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

    // Express's `app.get(path, [a, b], c, final)`: a nested tuple is the array.
    app.get(
        "/routing/multi",
        (
            (trail("a"), trail("b")),
            trail("c"),
            |_req: &mut Request, res: &mut Response| {
                let trail = res.locals().get("trail").cloned();
                res.json(&object([("trail", trail)]))
            },
        ),
    );

    app.all("/routing/all", |req: &mut Request, res: &mut Response| {
        let body = format!("all: {}", req.method());
        res.send(body)
    });

    // One route, four methods; OPTIONS is answered automatically.
    app.route("/routing/chain")
        .get(text("chain GET"))
        .post(text("chain POST"))
        .put(text("chain PUT"))
        .delete(text("chain DELETE"));

    // An explicit HEAD handler registered first beats GET for HEAD requests.
    app.head("/routing/head", |_req: &mut Request, res: &mut Response| {
        res.set("X-Head-Handler", "head").end()
    });
    app.get("/routing/head", |_req: &mut Request, res: &mut Response| {
        res.set("X-Head-Handler", "get").send("get body")
    });

    // An explicit OPTIONS handler replaces the automatic answer.
    app.options(
        "/routing/options",
        |_req: &mut Request, res: &mut Response| res.set("Allow", "CUSTOM").send_status(204),
    );
    app.get("/routing/options", text("options get"));

    app.patch("/routing/patch", text("patched"));

    // next('router') leaves the router; the app-level route after it answers.
    let mut exit = webfw::router();
    exit.get(
        "/routing/exit",
        |_req: &mut Request, _res: &mut Response| next_router(),
    );
    exit.get("/routing/exit", text("never reached"));
    app.use_(exit);
    app.get("/routing/exit", text("after router exit"));

    // Middleware mounted with use sees a stripped req.url.
    app.use_at("/routing/mw", |req: &mut Request, res: &mut Response| {
        let info = json!({
            "url": req.url(),
            "path": req.path(),
            "baseUrl": req.base_url(),
            "originalUrl": req.original_url(),
        });
        res.json(&info)
    });

    // Case-sensitive + strict Router vs the default Router.
    let mut strict =
        webfw::Router::with_options(RouterOptions::new().case_sensitive(true).strict(true));
    strict.get("/Abc", text("strict /Abc"));
    strict.get("/dir/", text("strict /dir/"));
    strict.get("/file", text("strict /file"));
    app.use_at("/routing/strict", strict);

    let mut loose = webfw::router();
    loose.get("/Abc", text("loose /Abc"));
    loose.get("/dir/", text("loose /dir/"));
    loose.get("/file", text("loose /file"));
    app.use_at("/routing/loose", loose);

    // The same through application settings (set before the first route,
    // which is when the app's router is created).
    let mut strict_app = webfw::app();
    strict_app.set("case sensitive routing", true);
    strict_app.set("strict routing", true);
    strict_app.get("/Abc", text("strict app /Abc"));
    strict_app.get("/dir/", text("strict app /dir/"));
    app.use_at("/routing/app-strict", strict_app);
}

/// `{"route": <route path, null for a RegExp or an array>, "params": req.params}`.
fn echo_params(req: &mut Request, res: &mut Response) -> Result {
    let route = req.route().and_then(|r| r.path());
    let body = json!({ "route": route, "params": req.params().to_json() });
    res.json(&body)
}

/// Middleware pushing its letter onto `res.locals.trail`.
fn trail(
    letter: &'static str,
) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |_req, res| {
        push_to(res.locals_mut(), "trail", json!(letter));
        next()
    }
}

// ===========================================================================
// /req/*  request properties
// ===========================================================================
fn req(app: &mut App) {
    app.all("/req/info", |req: &mut Request, res: &mut Response| {
        let info = req_info(req, res);
        res.json(&info)
    });
    app.get("/req/query", |req: &mut Request, res: &mut Response| {
        res.json(req.query())
    });
    app.get("/req/get", |req: &mut Request, res: &mut Response| {
        let name = query_text(req, "name");
        let value = req.get(&name);
        let body = json!({ "name": name, "value": value });
        res.json(&body)
    });
    neg::req_routes(app);
    // /req/is is registered with /body (it needs the body parsers).
    app.get("/req/range", files::req_range);

    // Freshness against validators set before responding: a fresh request
    // gets a 304 from res.json.
    app.get("/req/fresh", |req: &mut Request, res: &mut Response| {
        res.set("ETag", "\"fresh-v1\"");
        res.set("Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT");
        let body = json!({ "fresh": req.fresh(res), "stale": req.stale(res) });
        res.json(&body)
    });

    let mut offset = webfw::app();
    offset.set("subdomain offset", 1);
    offset.get("/info", |req: &mut Request, res: &mut Response| {
        let body = object([
            ("hostname", req.hostname().map(Value::from)),
            ("subdomains", Some(json!(req.subdomains()))),
        ]);
        res.json(&body)
    });
    app.use_at("/req/offset", offset);

    // 'query parser' on a sub-app has no effect: the parent already parsed.
    let mut simple = webfw::app();
    simple.set("query parser", "simple");
    simple.get("/query", |req: &mut Request, res: &mut Response| {
        res.json(req.query())
    });
    app.use_at("/req/simple-parser", simple);
}

/// ROUTES.md's `reqInfo(req)`, in its key order.
fn req_info(req: &Request, res: &Response) -> Value {
    json!({
        "method": req.method().as_str(),
        "url": req.url(),
        "path": req.path(),
        "baseUrl": req.base_url(),
        "originalUrl": req.original_url(),
        "hostname": req.hostname(),
        "ip": req.ip(),
        "ips": req.ips(),
        "protocol": req.protocol(),
        "secure": req.secure(),
        "subdomains": req.subdomains(),
        "xhr": req.xhr(),
        "fresh": req.fresh(res),
        "stale": req.stale(res),
        "query": req.query(),
    })
}

// ===========================================================================
// /res/*  response helpers
// ===========================================================================
fn res(app: &mut App) {
    res_send(app);
    res_json(app);
    res_status_redirect(app);
    res_headers(app);
}

fn res_send(app: &mut App) {
    app.get("/res/send/string", text("<p>hello</p>"));
    app.get(
        "/res/send/text-type",
        |_req: &mut Request, res: &mut Response| res.type_("text/plain").send("plain text"),
    );
    app.get(
        "/res/send/charset-override",
        |_req: &mut Request, res: &mut Response| {
            res.set("Content-Type", "text/plain; charset=iso-8859-1");
            res.send("charset replaced")
        },
    );
    app.get(
        "/res/send/buffer",
        |_req: &mut Request, res: &mut Response| {
            res.send(&[0x00u8, 0x01, 0x02, 0x62, 0x69, 0x6e, 0xff])
        },
    );
    app.get(
        "/res/send/buffer-typed",
        |_req: &mut Request, res: &mut Response| res.type_("png").send(b"not really a png"),
    );
    app.get(
        "/res/send/object",
        |_req: &mut Request, res: &mut Response| {
            res.send(
                json!({ "ok": true, "n": 1, "list": [1, "two", null], "nested": { "a": "b" } }),
            )
        },
    );
    app.get(
        "/res/send/array",
        |_req: &mut Request, res: &mut Response| res.send(json!([1, 2, 3])),
    );
    app.get(
        "/res/send/null",
        |_req: &mut Request, res: &mut Response| res.send(Value::Null),
    );
    app.get(
        "/res/send/undefined",
        |_req: &mut Request, res: &mut Response| res.send(()),
    );
    app.get(
        "/res/send/bool",
        |_req: &mut Request, res: &mut Response| res.send(json!(true)),
    );
    app.get("/res/send/empty", text(""));
    // Express's deprecated res.send(404) is sendStatus by another name.
    app.get(
        "/res/send/number",
        |_req: &mut Request, res: &mut Response| res.send_status(404),
    );
    // The deprecated (status, body) / (body, status) forms set the status first.
    app.get(
        "/res/send/status-first",
        |_req: &mut Request, res: &mut Response| res.status(201).send("created (status first)"),
    );
    app.get(
        "/res/send/body-first",
        |_req: &mut Request, res: &mut Response| res.status(202).send("created (body first)"),
    );
    app.get(
        "/res/send/chain",
        |_req: &mut Request, res: &mut Response| res.status(202).send("accepted"),
    );
    app.get("/res/send/204", |_req: &mut Request, res: &mut Response| {
        res.status(204).send("dropped body")
    });
    app.get("/res/send/304", |_req: &mut Request, res: &mut Response| {
        res.status(304).send("dropped body")
    });
    app.get(
        "/res/send/unicode",
        text("h\u{e9}llo \u{2713} \u{65e5}\u{672c}"),
    );
    app.get(
        "/res/send/large",
        |req: &mut Request, res: &mut Response| {
            // Math.min(Math.max(parseInt(q.n) || 0, 0), 1000000)
            let n = parse_int(&query_text(req, "n")).unwrap_or(0.0);
            let n = n.clamp(0.0, 1_000_000.0) as usize;
            res.type_("text/plain").send("x".repeat(n))
        },
    );
    app.get(
        "/res/send/preset-etag",
        |_req: &mut Request, res: &mut Response| {
            res.set("ETag", "\"preset\"").send("body with preset etag")
        },
    );
    app.get(
        "/res/send/no-powered",
        |_req: &mut Request, res: &mut Response| {
            res.remove_header("X-Powered-By").send("no powered-by")
        },
    );
}

fn res_json(app: &mut App) {
    app.get(
        "/res/json/object",
        |_req: &mut Request, res: &mut Response| {
            res.json(&json!({ "a": 1, "b": "two", "c": [true, false], "d": null }))
        },
    );
    app.get(
        "/res/json/string",
        |_req: &mut Request, res: &mut Response| res.json("just a string"),
    );
    app.get(
        "/res/json/number",
        |_req: &mut Request, res: &mut Response| res.json(&42),
    );
    app.get(
        "/res/json/null",
        |_req: &mut Request, res: &mut Response| res.json(&Value::Null),
    );
    // res.json(undefined): Rust has no `undefined` to serialise, so this is
    // what Express does for it: the JSON type, then send() with no body.
    app.get(
        "/res/json/undefined",
        |_req: &mut Request, res: &mut Response| res.type_("json").send(()),
    );
    app.get(
        "/res/json/status",
        |_req: &mut Request, res: &mut Response| res.status(418).json(&json!({ "teapot": true })),
    );
    // Deprecated res.json(201, obj): the status first.
    app.get(
        "/res/json/status-first",
        |_req: &mut Request, res: &mut Response| res.status(201).json(&json!({ "created": true })),
    );
    app.get(
        "/res/json/special",
        |_req: &mut Request, res: &mut Response| {
            res.json(&json!({
                "html": "<script>&</script>",
                "sep": "a\u{2028}b\u{2029}c",
                "uni": "\u{e9}\u{2713}",
                "quote": "\"\\",
            }))
        },
    );
    app.get(
        "/res/json/preset-type",
        |_req: &mut Request, res: &mut Response| {
            res.type_("application/vnd.api+json")
                .json(&json!({ "vnd": true }))
        },
    );

    // Sub-app: json spaces 2, a replacer dropping keys that start with '_',
    // json escape on. (Its /jsonp route waits for res.jsonp.)
    let mut settings = webfw::app();
    settings.set("json spaces", 2);
    settings.set(
        "json replacer",
        Setting::replacer(|key, v| (!key.starts_with('_')).then(|| v.clone())),
    );
    settings.set("json escape", true);
    settings.get("/object", |_req: &mut Request, res: &mut Response| {
        res.json(&json!({
            "a": 1,
            "_hidden": "x",
            "list": [1, 2],
            "nested": { "b": "<&>", "_c": 3 },
        }))
    });
    settings.get("/jsonp", |req: &mut Request, res: &mut Response| {
        res.jsonp(req, &json!({ "a": "<b>", "_x": 1 }))
    });
    app.use_at("/res/json-settings", settings);

    app.get(
        "/res/jsonp/object",
        |req: &mut Request, res: &mut Response| res.jsonp(req, &json!({ "user": "tobi", "n": 1 })),
    );
    app.get(
        "/res/jsonp/string",
        |req: &mut Request, res: &mut Response| res.jsonp(req, "line\u{2028}sep\u{2029}end"),
    );
    app.get(
        "/res/jsonp/status",
        |req: &mut Request, res: &mut Response| {
            res.status(201).jsonp(req, &json!({ "created": true }))
        },
    );
    let mut custom = webfw::app();
    custom.set("jsonp callback name", "cb");
    custom.get("/object", |req: &mut Request, res: &mut Response| {
        res.jsonp(req, &json!({ "custom": true }))
    });
    app.use_at("/res/jsonp-custom", custom);
}

fn res_status_redirect(app: &mut App) {
    app.get(
        r"/res/sendStatus/:code(\d+)",
        |req: &mut Request, res: &mut Response| {
            let code = status_param(req, "code");
            res.send_status(code)
        },
    );
    app.get(
        r"/res/status/:code(\d+)",
        |req: &mut Request, res: &mut Response| {
            let code = status_param(req, "code");
            res.status(code).end()
        },
    );

    app.get("/res/landing", text("landed"));
    app.get(
        "/res/redirect/relative",
        |_req: &mut Request, res: &mut Response| res.redirect("landing?from=relative"),
    );
    app.get(
        "/res/redirect/path",
        |_req: &mut Request, res: &mut Response| res.redirect("/res/landing"),
    );
    app.get(
        "/res/redirect/absolute",
        |_req: &mut Request, res: &mut Response| res.redirect("http://example.org/landing?a=1&b=2"),
    );
    app.get(
        "/res/redirect/permanent",
        |_req: &mut Request, res: &mut Response| res.redirect_with(301, "/res/landing"),
    );
    app.get(
        r"/res/redirect/status/:code(\d+)",
        |req: &mut Request, res: &mut Response| {
            let code = status_param(req, "code");
            res.redirect_with(code, "/res/landing")
        },
    );
    app.get(
        "/res/redirect/back",
        |_req: &mut Request, res: &mut Response| res.redirect("back"),
    );
    app.get(
        "/res/redirect/encoded",
        |_req: &mut Request, res: &mut Response| {
            res.redirect("/res/landing/\u{fc}mlaut path?q=a b&x=%20&y=%zz")
        },
    );
    app.get(
        "/res/redirect/html-escape",
        |_req: &mut Request, res: &mut Response| res.redirect("/res/landing?<b>\"&'"),
    );
    // Deprecated res.redirect(url, 303): the status given second.
    app.get(
        "/res/redirect/url-first",
        |_req: &mut Request, res: &mut Response| res.redirect_with(303, "/res/landing"),
    );
    app.all(
        "/res/redirect/to",
        |req: &mut Request, res: &mut Response| {
            let to = query_or(req, "to", "/");
            res.redirect(&to)
        },
    );

    app.get("/res/location", |req: &mut Request, res: &mut Response| {
        let to = query_or(req, "to", "/res/landing");
        res.location(&to).status(201).send("located")
    });
}

fn res_headers(app: &mut App) {
    app.get("/res/links", |_req: &mut Request, res: &mut Response| {
        res.links([
            ("next", "http://api.example.com/users?page=2"),
            ("last", "http://api.example.com/users?page=5"),
        ])
        .links([("prev", "http://api.example.com/users?page=1")])
        .send("links")
    });
    app.get("/res/vary", |_req: &mut Request, res: &mut Response| {
        res.vary("Accept").vary("Accept-Encoding, accept");
        // res.vary(['Origin', 'User-Agent']): one name at a time.
        res.vary("Origin").vary("User-Agent");
        res.send("vary")
    });
    app.get(
        "/res/vary-star",
        |_req: &mut Request, res: &mut Response| {
            res.vary("Accept")
                .vary("*")
                .vary("Origin")
                .send("vary star")
        },
    );
    app.get("/res/append", |_req: &mut Request, res: &mut Response| {
        // res.append('Link', [a, b]) adds one line per value.
        res.append("Link", "<http://localhost/>")
            .append("Link", "<http://localhost:80/>")
            .append("Warning", "199 Miscellaneous warning")
            .append("X-Multi", "one")
            .append("X-Multi", "two")
            .append("Set-Cookie", "raw=1; Path=/");
        res.cookie("made", "yes")?.send("appended")
    });
    app.get("/res/set", |_req: &mut Request, res: &mut Response| {
        res.set("X-One", "1");
        // res.set({'X-Two': '2', 'X-Three': ['a', 'b']})
        res.set_many([("X-Two", "2")])
            .set_all("X-Three", ["a", "b"]);
        res.set("Content-Type", "text/html").send("set")
    });
    app.get("/res/set-type", |req: &mut Request, res: &mut Response| {
        let v = query_or(req, "v", "text/plain");
        res.set("Content-Type", v).send(b"typed")
    });
    app.get("/res/type", |req: &mut Request, res: &mut Response| {
        let t = query_or(req, "t", "html");
        res.type_(&t).send(b"typed")
    });
    app.get("/res/get", |_req: &mut Request, res: &mut Response| {
        res.set("X-A", "a").append("X-B", "1").append("X-B", "2");
        let body = json!({
            "xa": header_value(res, "X-A"),
            "xb": header_value(res, "X-B"),
            "contentType": header_value(res, "Content-Type"),
        });
        res.json(&body)
    });
    files::attachment_routes(app);
    app.get("/res/end", |_req: &mut Request, res: &mut Response| {
        res.end_with("raw end")
    });
    app.get("/res/write", |_req: &mut Request, res: &mut Response| {
        res.write("a")?;
        res.write("b")?;
        res.end_with("c")
    });
}

/// `res.get(field)` as Express returns it: absent → null, one line → the
/// string, several lines → an array.
fn header_value(res: &Response, field: &str) -> Value {
    match res.get_all(field).as_slice() {
        [] => Value::Null,
        [one] => json!(one),
        many => json!(many),
    }
}

// ===========================================================================
// /errors/*  error propagation and finalhandler
// ===========================================================================
fn errors(app: &mut App) {
    // A thrown error is an Err in Rust.
    app.get(
        "/errors/throw",
        |_req: &mut Request, _res: &mut Response| -> Result { Err(Error::new("boom")) },
    );
    app.get(
        "/errors/status/:code",
        |req: &mut Request, _res: &mut Response| -> Result {
            Err(with_js_status(
                Error::new("custom status"),
                req.param("code"),
            ))
        },
    );
    // err.statusCode: webfw errors carry one status, which finalhandler reads
    // the same way when err.status is absent.
    app.get(
        "/errors/status-code/:code",
        |req: &mut Request, _res: &mut Response| -> Result {
            Err(with_js_status(
                Error::new("custom statusCode"),
                req.param("code"),
            ))
        },
    );
    app.get(
        "/errors/headers",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(Error::new("rate limited")
                .with_status(429)
                .with_header("Retry-After", "120")
                .with_header("X-Error-Header", "yes"))
        },
    );
    // Headers of an error without a status are not applied (500).
    app.get(
        "/errors/headers-500",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(Error::new("server side").with_header("X-Error-Header", "ignored for 500"))
        },
    );
    app.get(
        "/errors/string",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(Error::new("plain string error"))
        },
    );
    app.get("/errors/async", errors_async);
    // Not ported yet: POST /errors/json-body (needs express.json()).

    // A router with its own error handler; the 418 path goes on to finalhandler.
    let mut custom = webfw::router();
    custom.get(
        "/throw",
        |_req: &mut Request, _res: &mut Response| -> Result { Err(Error::new("custom boom")) },
    );
    custom.get(
        "/teapot",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(Error::new("short and stout").with_status(418))
        },
    );
    custom.get(
        "/skip",
        (
            |_req: &mut Request, _res: &mut Response| -> Result { Err(Error::new("skipping")) },
            text("not reached"),
        ),
    );
    // A normal middleware: never runs while an error is pending.
    custom.use_(|_req: &mut Request, res: &mut Response| {
        res.set("X-Skipped", "no");
        next()
    });
    custom.use_(custom_error);
    // Router-level 404.
    custom.use_(|req: &mut Request, res: &mut Response| {
        let body = json!({ "notFound": true, "path": req.path() });
        res.status(404).json(&body)
    });
    app.use_at("/errors/custom", custom);
}

/// `next(new Error('async failure'))` from a later tick (`setImmediate`).
async fn errors_async(_req: &mut Request, _res: &mut Response) -> Result {
    tokio::task::yield_now().await;
    Err(Error::new("async failure"))
}

/// `err.status = Number(code)`: a non-numeric code gives NaN, i.e. no usable
/// status (finalhandler then answers 500).
fn with_js_status(err: Error, code: Option<&str>) -> Error {
    match code.and_then(|c| c.parse::<i64>().ok()) {
        Some(n) => err.with_status(n),
        None => err,
    }
}

/// The `/errors/custom` error handler: 418 is passed on, anything else is
/// answered as JSON with `err.status || 500`.
fn custom_error(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    if err.raw_status() == Some(418) {
        return Err(err);
    }
    let body = json!({ "handled": true, "message": err.message() });
    res.status(js_status_or_500(&err)).json(&body)
}

/// `err.status || 500`.
fn js_status_or_500(err: &Error) -> u16 {
    err.raw_status()
        .filter(|s| *s != 0)
        .map_or(500, |s| u16::try_from(s).unwrap_or(u16::MAX))
}

// ===========================================================================
// /proxy/*  trust proxy variations (sub-apps)
// ===========================================================================
fn proxy(app: &mut App) {
    let mut loopback = proxy_app(Some(Setting::from("loopback")));
    loopback.use_at("/child", proxy_app(None)); // inherits 'loopback'
    app.use_at("/proxy/none", proxy_app(None));
    app.use_at("/proxy/loopback", loopback);
    app.use_at("/proxy/hop1", proxy_app(Some(Setting::from(1))));
    app.use_at("/proxy/hop2", proxy_app(Some(Setting::from(2))));
    app.use_at("/proxy/all", proxy_app(Some(Setting::from(true))));
    app.use_at(
        "/proxy/list",
        proxy_app(Some(Setting::from("10.0.0.0/8, 127.0.0.1"))),
    );
    app.use_at(
        "/proxy/fn",
        proxy_app(Some(Setting::trust_fn(|_addr, i| i < 1))),
    );
}

/// A sub-app with the given `trust proxy` setting (unset: not set at all,
/// so that it inherits) and one route, GET `/info`.
fn proxy_app(trust: Option<Setting>) -> App {
    let mut a = webfw::app();
    if let Some(t) = trust {
        a.set("trust proxy", t);
    }
    a.get("/info", |req: &mut Request, res: &mut Response| {
        let body = json!({
            "ip": req.ip(),
            "ips": req.ips(),
            "protocol": req.protocol(),
            "secure": req.secure(),
            "hostname": req.hostname(),
            "subdomains": req.subdomains(),
        });
        res.json(&body)
    });
    a
}

// ===========================================================================
// /sub/*  mounted sub-apps, Routers, mergeParams, settings inheritance
// ===========================================================================
fn sub(app: &mut App) {
    let mut sub_app = webfw::app();
    sub_app.get("/info", mount_info);
    let mut nested = webfw::app();
    nested.get("/info", mount_info);
    sub_app.use_at("/nested", nested);
    app.use_at("/sub/app", sub_app);

    let mut multi = webfw::app();
    multi.get("/info", mount_info);
    app.use_at(["/sub/one", "/sub/two"], multi); // array mount path

    let mut tenant = webfw::app();
    tenant.get("/info", mount_info);
    app.use_at("/sub/tenant/:tenant", tenant); // parameterised mount path

    let mut merge = webfw::Router::with_options(RouterOptions::new().merge_params(true));
    merge.get("/items/:itemId", echo_req_params);
    merge.get("/dup/:userId", echo_req_params); // the child's value wins
    app.use_at("/sub/users/:userId", merge);

    let mut no_merge = webfw::router();
    no_merge.get("/items/:itemId", echo_req_params);
    app.use_at("/sub/nomerge/:userId", no_merge);

    let mut outer = webfw::router();
    let mut inner = webfw::router();
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

    // json spaces 4 on a parent sub-app, inherited by its child sub-app
    // (the /child mount is registered before /json, as in the reference).
    let mut inherit = webfw::app();
    inherit.set("json spaces", 4);
    let mut child = webfw::app();
    child.get("/json", |_req: &mut Request, res: &mut Response| {
        res.json(&json!({ "inherited": ["spaces"] }))
    });
    inherit.use_at("/child", child);
    inherit.get("/json", |_req: &mut Request, res: &mut Response| {
        res.json(&json!({ "parent": true }))
    });
    app.use_at("/sub/inherit", inherit);

    // Disabling x-powered-by on a sub-app cannot remove the parent's header.
    let mut no_powered = webfw::app();
    no_powered.disable("x-powered-by");
    no_powered.get("/info", text("sub-app with x-powered-by disabled"));
    app.use_at("/sub/nopowered", no_powered);
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

fn echo_req_params(req: &mut Request, res: &mut Response) -> Result {
    let body = json!({ "params": req.params().to_json() });
    res.json(&body)
}

// ===========================================================================
// /params/*  app.param / router.param
// ===========================================================================
fn params(app: &mut App) {
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

    let mut r = webfw::router();
    r.param("id", load_id);
    r.get("/item/:id", |_req: &mut Request, res: &mut Response| {
        res.locals_mut().insert("first".into(), json!(true));
        next()
    });
    r.get("/item/:id", |req: &mut Request, res: &mut Response| {
        let first = res.locals().get("first").is_some_and(|v| v == &json!(true));
        let body = object([
            ("log", req_value(req, "paramLog")),
            ("item", req_value(req, "item")),
            ("first", Some(json!(first))),
        ]);
        res.json(&body)
    });
    r.get("/item/*", |req: &mut Request, res: &mut Response| {
        let log = req_value(req, "paramLog").unwrap_or_else(|| json!([]));
        res.json(&json!({ "fallback": true, "log": log }))
    });
    r.get(
        "/change/:id/*",
        |_req: &mut Request, _res: &mut Response| next(),
    );
    r.get("/change/*/:id", log_and_id);
    r.use_at("/mw/:id", |req: &mut Request, _res: &mut Response| {
        let id = req.param("id").map(Value::from);
        if let Some(id) = id {
            req.set_local("seenByMw", id);
        }
        next()
    });
    r.get("/mw/:id/end", |req: &mut Request, res: &mut Response| {
        let body = object([
            ("log", req_value(req, "paramLog")),
            ("seenByMw", req_value(req, "seenByMw")),
        ]);
        res.json(&body)
    });
    r.get(r"/num/:id(\d+)", log_and_id);
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

fn log_and_id(req: &mut Request, res: &mut Response) -> Result {
    let body = object([
        ("log", req_value(req, "paramLog")),
        ("id", req.param("id").map(Value::from)),
    ]);
    res.json(&body)
}

// ===========================================================================
// /etag/*  etag setting variations
// ===========================================================================
fn etag(app: &mut App) {
    app.get("/etag/weak/text", text("etag me")); // app default: weak
    app.get(
        "/etag/weak/json",
        |_req: &mut Request, res: &mut Response| res.json(&json!({ "etag": "weak" })),
    );
    app.use_at("/etag/strong", etag_app(Setting::from("strong"), "strong"));
    app.use_at("/etag/off", etag_app(Setting::from(false), "off"));
    app.use_at(
        "/etag/fn",
        etag_app(
            Setting::etag_fn(|body| Some(format!("\"len-{}\"", body.len()))),
            "fn",
        ),
    );
}

/// `etagApp(setting, label)`; its `/static` mount ignores the setting.
fn etag_app(setting: Setting, label: &'static str) -> App {
    let mut a = webfw::app();
    a.set("etag", setting);
    a.get("/text", text("etag me"));
    a.get("/json", move |_req: &mut Request, res: &mut Response| {
        res.json(&json!({ "etag": label }))
    });
    a.get("/buffer", |_req: &mut Request, res: &mut Response| {
        res.send(b"etag buffer")
    });
    a.use_at(
        "/static",
        webfw::static_(static_files::public_dir(), Default::default()),
    );
    a
}
