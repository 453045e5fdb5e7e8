//! `/cookies/*`: cookie-parser 1.4.7, `res.cookie` and `res.clearCookie`
//! (ROUTES5.md, "/cookies/* — cookie-parser 1.4.7 and res.cookie").

use std::time::{Duration, UNIX_EPOCH};

use serde_json::json;
use webfw::prelude::*;
use webfw::{CookieOptions, Priority, Router, SameSite};

const COOKIE_SECRET: &str = "conformance-secret";

/// A route that runs `f`, then sends `reply`.
fn route(
    router: &mut Router,
    path: &str,
    reply: &'static str,
    f: impl Fn(&mut Response) -> Result<(), Error> + Send + Sync + 'static,
) {
    router.get(path, move |_req: &mut Request, res: &mut Response| {
        f(res)?;
        res.send(reply)
    });
}

/// The `/cookies` router.
pub fn routes(app: &mut App) {
    let mut r = webfw::express5::router();
    r.use_(webfw::cookie_parser(COOKIE_SECRET));
    r.get("/echo", |req: &mut Request, res: &mut Response| {
        let body = json!({ "cookies": req.cookies(), "signedCookies": req.signed_cookies() });
        res.json(&body)
    });
    route(&mut r, "/set/plain", "cookie set", |res: &mut Response| {
        res.cookie("plain", "value")?;
        Ok(())
    });
    route(
        &mut r,
        "/set/max-age",
        "cookie set",
        |res: &mut Response| {
            let o = CookieOptions::new()
                .max_age(Duration::from_millis(60_000))
                .http_only();
            res.cookie_with("ma", "1", &o)?;
            Ok(())
        },
    );
    route(&mut r, "/set/signed", "cookie set", |res: &mut Response| {
        res.cookie_with("sig", "secret value", &CookieOptions::new().signed())?;
        Ok(())
    });
    route(&mut r, "/set/object", "cookie set", |res: &mut Response| {
        res.cookie("obj", json!({ "a": 1, "b": [1, 2] }))?;
        Ok(())
    });
    route(
        &mut r,
        "/set/options",
        "cookie set",
        |res: &mut Response| {
            let o = CookieOptions::new()
                .path("/p")
                .domain("example.com")
                .secure()
                .same_site(SameSite::Lax)
                .priority(Priority::Low);
            res.cookie_with("opt", "v", &o)?;
            Ok(())
        },
    );
    route(&mut r, "/clear", "cleared", |res: &mut Response| {
        res.clear_cookie("plain")?;
        Ok(())
    });
    // Express 5 ignores maxAge and expires here: the cookie always expires.
    route(&mut r, "/clear/max-age", "cleared", |res: &mut Response| {
        let o = CookieOptions::new().max_age(Duration::from_millis(60_000));
        res.clear_cookie_with("ma", &o)?;
        Ok(())
    });
    route(&mut r, "/clear/expires", "cleared", |res: &mut Response| {
        // 2030-01-15T12:30:00Z
        let at = UNIX_EPOCH + Duration::from_secs(1_894_710_600);
        res.clear_cookie_with("exp", &CookieOptions::new().expires(at))?;
        Ok(())
    });
    route(&mut r, "/clear/options", "cleared", |res: &mut Response| {
        let o = CookieOptions::new()
            .path("/p")
            .domain("example.com")
            .http_only()
            .secure()
            .same_site(SameSite::Strict);
        res.clear_cookie_with("all", &o)?;
        Ok(())
    });
    app.use_at("/cookies", r);
}
