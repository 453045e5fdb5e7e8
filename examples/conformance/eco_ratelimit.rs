//! `/eco/ratelimit/*`: express-rate-limit (ROUTES.md, "/eco/ratelimit/* —
//! express-rate-limit"): one memory store per route, clients keyed by the
//! `X-Client` header.

use std::time::Duration;

use serde_json::{Value, json};
use webfw::prelude::*;
use webfw::rate_limit::{Draft, RateLimitOptions};

/// `req.get('X-Client') || 'anonymous'`.
fn by_client(req: &Request) -> String {
    match req.get("x-client") {
        Some(c) if !c.is_empty() => c.to_owned(),
        _ => "anonymous".into(),
    }
}

fn limiter(limit: u64) -> RateLimitOptions {
    RateLimitOptions::new()
        .window(Duration::from_millis(3_600_000))
        .limit(limit)
        .key_generator(by_client)
}

fn text(body: &'static str) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync {
    move |_req: &mut Request, res: &mut Response| res.send(body)
}

/// JavaScript truthiness of a query value.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::String(s) => !s.is_empty(),
        Value::Bool(b) => *b,
        _ => true,
    }
}

pub fn routes(app: &mut App) {
    let mut rl = webfw::router();
    rl.get(
        "/basic",
        (
            webfw::rate_limit(
                limiter(2)
                    .standard_headers(Draft::Draft6)
                    .legacy_headers(true),
            ),
            text("basic ok"),
        ),
    );
    rl.get(
        "/draft7",
        (
            webfw::rate_limit(
                limiter(1)
                    .standard_headers(Draft::Draft7)
                    .legacy_headers(false)
                    .message(json!({"error": "slow down"}))
                    .status_code(503),
            ),
            text("draft7 ok"),
        ),
    );
    rl.get(
        "/draft8",
        (
            webfw::rate_limit(
                limiter(3)
                    .standard_headers(Draft::Draft8)
                    .legacy_headers(false)
                    .identifier("eco"),
            ),
            text("draft8 ok"),
        ),
    );
    rl.get(
        "/skip-ok",
        (
            webfw::rate_limit(
                limiter(1)
                    .standard_headers(Draft::Draft6)
                    .legacy_headers(false)
                    .skip_successful_requests(true),
            ),
            |req: &mut Request, res: &mut Response| {
                if truthy(&req.query()["fail"]) {
                    res.status(400).send("failed")
                } else {
                    res.send("fine")
                }
            },
        ),
    );
    rl.get(
        "/skip-fn",
        (
            webfw::rate_limit(
                limiter(1)
                    .standard_headers(Draft::Draft6)
                    .legacy_headers(false)
                    .skip(|req, _res| req.get("x-admin") == Some("yes")),
            ),
            text("skip-fn ok"),
        ),
    );
    rl.get(
        "/handler",
        (
            webfw::rate_limit(limiter(1).legacy_headers(false).handler(|req, res, o| {
                let used = req.rate_limit().map_or(0, |i| i.used);
                res.status(o.status_code_value()).json(&json!({
                    "limited": true,
                    "limit": o.fixed_limit(),
                    "used": used,
                }))
            })),
            |req: &mut Request, res: &mut Response| {
                res.json(&json!({ "limited": false, "info": req.rate_limit() }))
            },
        ),
    );
    app.use_at("/eco/ratelimit", rl);
}
