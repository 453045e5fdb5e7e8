//! `/req/*`: request properties (ROUTES5.md, "/req/* — request properties").

use serde_json::{Value, json};
use webfw::prelude::*;
use webfw::{ParsedRange, Setting};

use crate::{js_number, query_or, query_str};

pub fn routes(app: &mut App) {
    app.all("/req/info", |req: &mut Request, res: &mut Response| {
        let info = req_info(req, res);
        res.json(&info)
    });
    app.get("/req/query", |req: &mut Request, res: &mut Response| {
        res.json(req.query())
    });
    // Express 5's query object has no prototype, so
    // `req.query.hasOwnProperty('x')` throws; a Rust app looks the key up
    // in the map, and the port answers what the JavaScript call does.
    app.get(
        "/req/query-has",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(crate::type_error(
                "req.query.hasOwnProperty is not a function",
            ))
        },
    );
    // `req.query` is a getter without a setter in Express 5: the
    // assignment throws (strict mode). Rust has no assignment to a getter;
    // the port gives the TypeError's 500.
    app.get(
        "/req/query-assign",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(crate::type_error(
                "Cannot set property query of #<IncomingMessage> which has only a getter",
            ))
        },
    );
    app.get("/req/get", |req: &mut Request, res: &mut Response| {
        let name = query_or(req, "name", "");
        let value = req.get(&name).map(str::to_owned);
        res.json(&json!({ "name": name, "value": value }))
    });
    accepts(app);
    app.all("/req/is", |req: &mut Request, res: &mut Response| {
        let list = list_param(req, "t").unwrap_or_default();
        let result = if !req.has_body() {
            Value::Null
        } else {
            req.is(&list).map_or(Value::Bool(false), Value::String)
        };
        res.json(&json!({ "result": result }))
    });
    app.get("/req/range", range);
    app.get("/req/fresh", |req: &mut Request, res: &mut Response| {
        res.set("ETag", "\"fresh-v1\"");
        res.set("Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT");
        let body = json!({ "fresh": req.fresh(res), "stale": req.stale(res) });
        res.json(&body)
    });

    // The 'query parser' of a sub-app applies inside it in Express 5.
    app.use_at("/req/extended", query_app(Setting::from("extended")));
    app.use_at("/req/noquery", query_app(Setting::from(false)));
    app.use_at(
        "/req/rawquery",
        query_app(Setting::query_fn(|raw| json!({ "raw": raw }))),
    );

    let mut proxy = webfw::express5::app();
    proxy.set("trust proxy", "loopback");
    proxy.get("/info", |req: &mut Request, res: &mut Response| {
        let body = json!({
            "host": req.host(),
            "hostname": req.hostname(),
            "protocol": req.protocol(),
            "ip": req.ip(),
            "ips": req.ips(),
            "subdomains": req.subdomains(),
        });
        res.json(&body)
    });
    app.use_at("/req/proxy", proxy);
}

/// ROUTES5.md's `reqInfo(req)`, in its key order (`host` keeps the port).
fn req_info(req: &Request, res: &Response) -> Value {
    json!({
        "method": req.method().as_str(),
        "url": req.url(),
        "path": req.path(),
        "baseUrl": req.base_url(),
        "originalUrl": req.original_url(),
        "host": req.host(),
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

/// `queryApp(setting)`: a sub-app with that `query parser`, GET `/query`.
fn query_app(setting: Setting) -> App {
    let mut a = webfw::express5::app();
    a.set("query parser", setting);
    a.get("/query", |req: &mut Request, res: &mut Response| {
        res.json(req.query())
    });
    a
}

/// The reference's `listParam(q[key])`: a non-empty string split on `,`;
/// `None` (no argument) otherwise.
fn list_param(req: &Request, key: &str) -> Option<Vec<String>> {
    match req.query().get(key) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.split(',').map(str::to_owned).collect()),
        _ => None,
    }
}

/// `res.json({result: …})` for one of the `req.accepts*` methods: the best
/// of the list (or `false`), or with no list every accepted value.
fn accepts_route(
    key: &'static str,
    best: fn(&Request, &[&str]) -> Option<String>,
    all: fn(&Request) -> Vec<String>,
) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |req, res| {
        let result = match list_param(req, key) {
            Some(list) => {
                let list: Vec<&str> = list.iter().map(String::as_str).collect();
                best(req, &list).map_or(json!(false), Value::String)
            }
            None => json!(all(req)),
        };
        res.json(&json!({ "result": result }))
    }
}

fn accepts(app: &mut App) {
    app.get(
        "/req/accepts",
        accepts_route(
            "t",
            |req, l| req.accepts(l).map(str::to_owned),
            Request::accepted_types,
        ),
    );
    app.get(
        "/req/accepts-charsets",
        accepts_route(
            "c",
            |req, l| req.accepts_charsets(l).map(str::to_owned),
            Request::accepted_charsets,
        ),
    );
    app.get(
        "/req/accepts-encodings",
        accepts_route(
            "e",
            |req, l| req.accepts_encodings(l).map(str::to_owned),
            Request::accepted_encodings,
        ),
    );
    app.get(
        "/req/accepts-languages",
        accepts_route(
            "l",
            |req, l| req.accepts_languages(l).map(str::to_owned),
            Request::accepted_languages,
        ),
    );
}

/// `GET /req/range?size=S&combine=1`.
fn range(req: &mut Request, res: &mut Response) -> Result {
    // Number(q.size || 1000)
    let size = match query_str(req, "size").filter(|s| !s.is_empty()) {
        Some(s) => js_number(&s),
        None => 1000.0,
    };
    let combine = query_str(req, "combine").as_deref() == Some("1");
    let size = if size.is_finite() && size >= 0.0 {
        size as u64
    } else {
        0
    };
    let body = match req.range(size, combine) {
        None => json!({ "result": null }),
        Some(ParsedRange::Ranges { unit, ranges }) => json!({
            "type": unit,
            "ranges": ranges.iter().map(|r| json!({ "start": r.start, "end": r.end })).collect::<Vec<_>>(),
        }),
        Some(other) => json!({ "result": other.code() }),
    };
    res.json(&body)
}
