//! `/cookies/*`: cookie-parser, `res.cookie` and `res.clearCookie` (ROUTES.md,
//! "/cookies/* — cookie-parser and res.cookie").

use std::time::{Duration, UNIX_EPOCH};

use serde_json::{Value, json};
use webfw::prelude::*;
use webfw::{App, CookieOptions, Router};
use webfw::{Priority, SameSite};

const COOKIE_SECRET: &str = "conformance-secret";

/// A route that sets cookies with `set`, then sends `cookie set`.
fn set_route(
    router: &mut Router,
    path: &str,
    set: impl Fn(&mut Request, &mut Response) -> Result<(), Error> + Send + Sync + 'static,
) {
    router.get(path, move |req: &mut Request, res: &mut Response| {
        set(req, res)?;
        res.send("cookie set")
    });
}

/// A `TypeError` as the serializer throws it.
fn type_error(e: impl std::fmt::Display) -> Error {
    Error::new(e.to_string()).with_name("TypeError")
}

/// `sameSite: v` where `true`/`false` are the booleans, anything else the
/// string (empty: no attribute; invalid: the serializer's error).
fn same_site(v: &str) -> Result<Option<SameSite>, Error> {
    match v {
        "true" => Ok(Some(SameSite::Strict)),
        "false" | "" => Ok(None),
        other => other.parse().map(Some).map_err(type_error),
    }
}

/// `priority: p` (empty: no attribute).
fn priority(p: &str) -> Result<Option<Priority>, Error> {
    if p.is_empty() {
        return Ok(None);
    }
    p.parse().map(Some).map_err(type_error)
}

/// JavaScript's `Number(s)` for a query value (NaN when not a number).
fn js_number(s: &str) -> f64 {
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

/// `String(q[key])` when present (arrays join with `,`).
fn query_string(req: &Request, key: &str) -> Option<String> {
    match req.query().get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => Some(
            items
                .iter()
                .map(|v| v.as_str().unwrap_or_default().to_owned())
                .collect::<Vec<_>>()
                .join(","),
        ),
        Value::Object(_) => Some("[object Object]".to_owned()),
        other => Some(other.to_string()),
    }
}

/// The `/cookies` router.
pub fn routes(app: &mut App) {
    let mut r = Router::new();
    r.use_(webfw::cookie_parser(COOKIE_SECRET));
    r.get("/echo", |req: &mut Request, res: &mut Response| {
        let body = json!({ "cookies": req.cookies(), "signedCookies": req.signed_cookies() });
        res.json(&body)
    });
    set_route(&mut r, "/set/plain", |_req, res| {
        res.cookie("plain", "value")?;
        Ok(())
    });
    set_route(&mut r, "/set/max-age", |_req, res| {
        let o = CookieOptions::new().max_age(Duration::from_millis(60_000));
        res.cookie_with("ma", "1", &o)?;
        Ok(())
    });
    set_route(&mut r, "/set/max-age-zero", |_req, res| {
        res.cookie_with("ma0", "1", &CookieOptions::new().max_age(Duration::ZERO))?;
        Ok(())
    });
    set_route(&mut r, "/set/expires", |_req, res| {
        // 2030-01-15T12:30:00Z
        let at = UNIX_EPOCH + Duration::from_secs(1_894_710_600);
        res.cookie_with("exp", "1", &CookieOptions::new().expires(at))?;
        Ok(())
    });
    set_route(&mut r, "/set/http-only", |_req, res| {
        res.cookie_with("ho", "1", &CookieOptions::new().http_only())?;
        Ok(())
    });
    set_route(&mut r, "/set/secure", |_req, res| {
        res.cookie_with("sec", "1", &CookieOptions::new().secure())?;
        Ok(())
    });
    set_route(&mut r, "/set/same-site/:v", |req, res| {
        let mut o = CookieOptions::new();
        o.same_site = same_site(req.param("v").unwrap_or_default())?;
        res.cookie_with("ss", "1", &o)?;
        Ok(())
    });
    set_route(&mut r, "/set/path", |_req, res| {
        res.cookie_with("p", "1", &CookieOptions::new().path("/admin"))?;
        Ok(())
    });
    set_route(&mut r, "/set/domain", |_req, res| {
        res.cookie_with("d", "1", &CookieOptions::new().domain("example.com"))?;
        Ok(())
    });
    set_route(&mut r, "/set/signed", |_req, res| {
        res.cookie_with("sig", "secret value", &CookieOptions::new().signed())?;
        Ok(())
    });
    set_route(&mut r, "/set/priority/:p", |req, res| {
        let mut o = CookieOptions::new();
        o.priority = priority(req.param("p").unwrap_or_default())?;
        res.cookie_with("pri", "1", &o)?;
        Ok(())
    });
    set_route(&mut r, "/set/partitioned", |_req, res| {
        let o = CookieOptions::new().partitioned().secure();
        res.cookie_with("part", "1", &o)?;
        Ok(())
    });
    set_route(&mut r, "/set/object", |_req, res| {
        res.cookie("obj", json!({ "a": 1, "b": [1, 2], "s": "x y" }))?;
        Ok(())
    });
    set_route(&mut r, "/set/signed-object", |_req, res| {
        res.cookie_with("sobj", json!({ "a": 1 }), &CookieOptions::new().signed())?;
        Ok(())
    });
    set_route(&mut r, "/set/encode", |_req, res| {
        res.cookie("enc", "a b;c=d,\u{e9}")?;
        Ok(())
    });
    set_route(&mut r, "/set/custom-encode", |_req, res| {
        let o = CookieOptions::new().encode(|v| v.replace(' ', "_"));
        res.cookie_with("ce", "a b c", &o)?;
        Ok(())
    });
    set_route(&mut r, "/set/all", |_req, res| {
        let o = CookieOptions::new()
            .max_age(Duration::from_millis(3_600_000))
            .http_only()
            .secure()
            .same_site(SameSite::Strict)
            .path("/p")
            .domain("example.com")
            .priority(Priority::High)
            .partitioned();
        res.cookie_with("all", "v", &o)?;
        Ok(())
    });
    set_route(&mut r, "/set/multi", |_req, res| {
        res.cookie("one", "1")?
            .cookie_with("two", "2", &CookieOptions::new().path("/two"))?
            .cookie_with("three", "3", &CookieOptions::new().http_only())?;
        Ok(())
    });
    set_route(&mut r, "/set/invalid-name", |_req, res| {
        res.cookie("bad name", "v")?;
        Ok(())
    });
    set_route(&mut r, "/set/custom", |req, res| {
        let q = |k| query_string(req, k);
        let mut o = CookieOptions::new();
        if let Some(v) = q("maxAge") {
            o.max_age = Some(js_number(&v));
        }
        o.http_only = q("httpOnly").as_deref() == Some("1");
        o.secure = q("secure").as_deref() == Some("1");
        if let Some(v) = q("sameSite") {
            o.same_site = same_site_string(&v)?;
        }
        o.path = q("path");
        o.domain = q("domain");
        if let Some(v) = q("priority") {
            o.priority = priority(&v)?;
        }
        o.partitioned = q("partitioned").as_deref() == Some("1");
        o.signed = q("signed").as_deref() == Some("1");
        let name = q("name").filter(|n| !n.is_empty());
        let name = name.as_deref().unwrap_or("custom");
        let value = q("value").unwrap_or_default();
        res.cookie_with(name, value, &o)?;
        Ok(())
    });
    r.get("/clear", |_req: &mut Request, res: &mut Response| {
        res.clear_cookie("plain")?.send("cleared")
    });
    r.get("/clear-path", |_req: &mut Request, res: &mut Response| {
        res.clear_cookie_with("p", &CookieOptions::new().path("/admin"))?
            .send("cleared")
    });
    r.get(
        "/clear-options",
        |_req: &mut Request, res: &mut Response| {
            let o = CookieOptions::new()
                .http_only()
                .secure()
                .same_site(SameSite::Lax)
                .domain("example.com");
            res.clear_cookie_with("all", &o)?.send("cleared")
        },
    );
    app.use_at("/cookies", r);
}

/// `sameSite` from the query: always the string (`true` is not a boolean
/// there), empty meaning no attribute.
fn same_site_string(v: &str) -> Result<Option<SameSite>, Error> {
    if v.is_empty() {
        return Ok(None);
    }
    v.parse().map(Some).map_err(type_error)
}
