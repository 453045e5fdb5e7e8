//! `/eco/csession/*` and `/eco/csession-plain/*`: cookie-session (ROUTES.md,
//! "/eco/csession/* and /eco/csession-plain/* — cookie-session").

use std::time::Duration;

use serde_json::{Number, Value, json};
use webfw::SameSite;
use webfw::cookie_session::CookieSessionOptions;
use webfw::prelude::*;

/// `(x || 0) + 1` on a JSON value, as JavaScript computes it.
fn js_increment(x: Option<Value>) -> Value {
    match x {
        None | Some(Value::Null) | Some(Value::Bool(false)) => json!(1),
        Some(Value::Bool(true)) => json!(2),
        Some(Value::Number(n)) => match n.as_i64() {
            Some(0) => json!(1),
            Some(i) if i.checked_add(1).is_some_and(|s| s.abs() < 1 << 53) => json!(i + 1),
            _ => {
                Number::from_f64(n.as_f64().unwrap_or(0.0) + 1.0).map_or(Value::Null, Value::Number)
            }
        },
        Some(Value::String(s)) if s.is_empty() => json!(1),
        Some(Value::String(s)) => Value::String(format!("{s}1")),
        Some(other) => Value::String(format!("{}1", js_to_string(&other))),
    }
}

/// `String(value)` for objects and arrays.
fn js_to_string(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(js_to_string).collect::<Vec<_>>().join(","),
        Value::Object(_) => "[object Object]".into(),
        other => other.to_string(),
    }
}

fn count(with_is_new: bool) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync {
    move |req: &mut Request, res: &mut Response| {
        let s = req.cookie_session();
        let n = js_increment(s.get_value("n"));
        s.set("n", &n)?;
        if with_is_new {
            res.json(&json!({ "n": n, "isNew": s.is_new() }))
        } else {
            res.json(&json!({ "n": n }))
        }
    }
}

pub fn routes(app: &mut App) {
    let mut cs = webfw::router();
    cs.use_(webfw::cookie_session(
        CookieSessionOptions::new()
            .name("session")
            .keys(["key-new", "key-old"])
            .max_age(Duration::from_millis(3_600_000))
            .same_site(SameSite::Lax),
    ));
    cs.get("/count", count(true));
    cs.get("/read", |req: &mut Request, res: &mut Response| {
        let s = req.cookie_session();
        res.json(&json!({
            "session": s.to_value(),
            "isNew": s.is_new(),
            "populated": s.is_populated(),
        }))
    });
    cs.get("/clear", |req: &mut Request, res: &mut Response| {
        req.cookie_session().clear();
        res.send("cleared")
    });
    cs.get("/set-obj", |req: &mut Request, res: &mut Response| {
        req.cookie_session()
            .set("user", json!({"name": "tobi", "roles": ["admin"]}))?;
        res.send("set")
    });
    app.use_at("/eco/csession", cs);

    let mut plain = webfw::router();
    plain.use_(webfw::cookie_session(
        CookieSessionOptions::new()
            .name("plain")
            .secret("only-secret")
            .signed(true)
            .http_only(false)
            .path("/eco/csession-plain"),
    ));
    plain.get("/count", count(false));
    app.use_at("/eco/csession-plain", plain);
}
