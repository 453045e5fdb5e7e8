//! `/neg/*`: `res.format` (ROUTES.md, "/neg/* — res.format"), and the
//! `/req/accepts*` routes (ROUTES.md, "/req/* — request properties").

use serde_json::{Value, json};
use webfw::prelude::*;
use webfw::{App, Format};

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

/// The `/req/accepts*` routes.
pub fn req_routes(app: &mut App) {
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

/// The `/neg/*` routes.
pub fn routes(app: &mut App) {
    app.get("/neg/format", |_req: &mut Request, res: &mut Response| {
        res.format(
            Format::new()
                .on("text/plain", |res| res.send("plain"))
                .on("text/html", |res| res.send("<p>html</p>"))
                .on("application/json", |res| {
                    res.json(&json!({ "format": "json" }))
                })
                .default(|res| res.type_("text/plain").send("default")),
        )
    });
    app.get(
        "/neg/format-strict",
        |_req: &mut Request, res: &mut Response| {
            res.format(
                Format::new()
                    .on("application/json", |res| {
                        res.json(&json!({ "format": "json" }))
                    })
                    .on("text/html", |res| res.send("<p>html</p>")),
            )
        },
    );
    app.get(
        "/neg/format-ext",
        |_req: &mut Request, res: &mut Response| {
            res.format(
                Format::new()
                    .on("text", |res| res.send("text ext"))
                    .on("html", |res| res.send("<b>html ext</b>"))
                    .on("json", |res| res.send(json!({ "ext": "json" })))
                    .on("xml", |res| res.send("<x/>")),
            )
        },
    );
    app.get(
        "/neg/format-wild",
        |_req: &mut Request, res: &mut Response| {
            res.format(
                Format::new()
                    .on("image/png", |res| res.send(b"png"))
                    .on("text/*", |res| res.send("some text")),
            )
        },
    );
}
