//! `/eco/vhost/*`: the vhost middleware (ROUTES.md, "/eco/vhost").

use serde_json::{Value, json};
use webfw::App;
use webfw::prelude::*;
use webfw::vhost::Regex;

/// ROUTES.md's `h(label)`: what vhost left in `req.vhost`.
fn vhost_echo(label: &'static str) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync {
    move |req, res| {
        let v = req.vhost().expect("runs under vhost");
        let captures: Vec<Value> = v
            .captures()
            .iter()
            .map(|c| c.as_deref().map_or(Value::Null, Value::from))
            .collect();
        let body = json!({
            "app": label, "url": req.url(), "host": v.host(), "hostname": v.hostname(),
            "length": v.len(), "captures": captures,
        });
        res.json(&body)
    }
}

pub fn routes(app: &mut App) {
    let mut vh = webfw::router();
    vh.use_(webfw::vhost("*.api.example", vhost_echo("api")));
    vh.use_(webfw::vhost("www.example", vhost_echo("www")));
    vh.use_(webfw::vhost("*.*.deep.example", vhost_echo("deep")));
    // JavaScript's \w and \d are ASCII-only.
    let re = Regex::new(r"^([A-Za-z0-9_]+)-([0-9]+)\.re\.example$").expect("valid regex");
    vh.use_(webfw::vhost(re, vhost_echo("regex")));
    vh.use_(|req: &mut Request, res: &mut Response| {
        // `req.headers.host || null`: an empty header is null too.
        let host = match req.headers().get("host") {
            Some(h) if !h.is_empty() => Value::from(webfw_http::cookie::latin1(h.as_bytes())),
            _ => Value::Null,
        };
        res.json(&json!({"app": "none", "host": host}))
    });
    app.use_at("/eco/vhost", vh);
}
