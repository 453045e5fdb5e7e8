//! webfw against the npm packages on the wire (`tests/interop/eco.js`):
//! cookie-session cookies made by Express are read by webfw and the other
//! way round, and express-rate-limit counts kept in one `redis-server`
//! (rate-limit-redis's keys) are shared by Express and two webfw limiters
//! with connections of their own.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::redis::Redis;
use common::{HttpResponse, TestServer, guard};
use serde_json::json;
use webfw::cookie_session::CookieSessionOptions;
use webfw::prelude::*;
use webfw::rate_limit::{Draft, RateLimitOptions, RedisStore};

/// A child process killed on drop.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The Express app of `tests/interop/eco.js` and its port.
async fn express(redis_url: &str) -> (Proc, u16) {
    let dir = common::interop_dir(&["cookie-session", "express-rate-limit", "rate-limit-redis"]);
    let mut child = Command::new("node")
        .arg("eco.js")
        .current_dir(&dir)
        .env("REDIS_URL", redis_url)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start node ({e}): install Node.js 20"));
    let stdout = child.stdout.take().expect("piped stdout");
    let child = Proc(child);
    let line = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).map(|_| line)
    });
    let line = guard("the Express app to listen", line)
        .await
        .expect("the reader thread")
        .expect("the Express app's first line");
    let port = line
        .trim()
        .strip_prefix("listening ")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line from the Express app: {line:?}"));
    (child, port)
}

async fn express_get(port: u16, target: &str, headers: &[(&str, &str)]) -> HttpResponse {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let bytes = common::request("GET", target, headers);
    common::parse_response(&common::send_raw(addr, &bytes).await, false)
}

/// The `name=value` pairs of a response's Set-Cookie lines, as a Cookie
/// header.
fn cookie_header(res: &HttpResponse) -> String {
    res.header_all("set-cookie")
        .iter()
        .map(|l| l.split(';').next().unwrap())
        .collect::<Vec<_>>()
        .join("; ")
}

async fn webfw_sessions(keys: &[&str]) -> TestServer {
    let mut cs = webfw::router();
    cs.use_(webfw::cookie_session(
        CookieSessionOptions::new()
            .keys(keys.iter().copied())
            .max_age(Duration::from_secs(3600)),
    ));
    cs.get("/count", |req: &mut Request, res: &mut Response| {
        let s = req.cookie_session();
        let n = s.get::<u64>("n").unwrap_or(0) + 1;
        s.set("n", n)?;
        res.json(&json!({ "n": n, "isNew": s.is_new() }))
    });
    cs.get("/read", |req: &mut Request, res: &mut Response| {
        let s = req.cookie_session();
        res.json(&json!({ "session": s.to_value(), "isNew": s.is_new() }))
    });
    cs.get("/set-obj", |req: &mut Request, res: &mut Response| {
        req.cookie_session().set(
            "user",
            json!({"name": "tobi", "roles": ["admin"], "note": "café ✓"}),
        )?;
        res.send("set")
    });
    let mut app = webfw::app();
    app.use_at("/cs", cs);
    TestServer::start(app).await
}

#[tokio::test]
async fn cookie_sessions_pass_between_express_and_webfw() {
    let redis = Redis::start().await;
    let url = redis.url();
    let (_node, port) = express(&url).await;
    let srv = webfw_sessions(&["key-new", "key-old"]).await;

    // Made by Express, counted on by webfw, read back by Express.
    let res = express_get(port, "/cs/count", &[]).await;
    assert_eq!(res.json(), json!({"n": 1, "isNew": true}));
    let res = srv
        .get_with("/cs/count", &[("Cookie", &cookie_header(&res))])
        .await;
    assert_eq!(res.json(), json!({"n": 2, "isNew": false}));
    let res = express_get(port, "/cs/count", &[("Cookie", &cookie_header(&res))]).await;
    assert_eq!(res.json(), json!({"n": 3, "isNew": false}));

    // The same session written by each side: the same cookie bytes.
    let by_express = express_get(port, "/cs/set-obj", &[]).await;
    let by_webfw = srv.get("/cs/set-obj").await;
    assert_eq!(cookie_header(&by_express), cookie_header(&by_webfw));
    let res = express_get(port, "/cs/read", &[("Cookie", &cookie_header(&by_webfw))]).await;
    assert_eq!(
        res.json(),
        json!({"session": {"user": {"name": "tobi", "roles": ["admin"], "note": "café ✓"}}, "isNew": false})
    );

    // Keys rotated on the webfw side: Express's cookie (now under the old
    // key) is accepted and re-signed; Express, still on key-new, accepts the
    // new signature only if it knows the newer key, so it starts over.
    let rotated = webfw_sessions(&["key-newer", "key-new"]).await;
    let res = rotated
        .get_with("/cs/read", &[("Cookie", &cookie_header(&by_express))])
        .await;
    assert_eq!(res.json()["isNew"], false);
    let resigned = format!(
        "{}; {}",
        cookie_header(&by_express).split("; ").next().unwrap(),
        cookie_header(&res)
    );
    let res = rotated.get_with("/cs/read", &[("Cookie", &resigned)]).await;
    assert_eq!(res.json()["isNew"], false);
    assert!(res.header_all("set-cookie").is_empty());
    let res = express_get(port, "/cs/read", &[("Cookie", &resigned)]).await;
    assert_eq!(res.json(), json!({"session": {}, "isNew": true}));
}

async fn webfw_limiter(url: &str) -> TestServer {
    let store = RedisStore::connect(url).await.expect("connect the store");
    let mut app = webfw::app();
    app.get(
        "/rl",
        (
            webfw::rate_limit(
                RateLimitOptions::new()
                    .window(Duration::from_secs(3600))
                    .limit(3)
                    .standard_headers(Draft::Draft7)
                    .legacy_headers(false)
                    .key_generator(|req| req.get("x-client").unwrap_or("anonymous").to_owned())
                    .store(store),
            ),
            |_req: &mut Request, res: &mut Response| res.send("ok"),
        ),
    );
    TestServer::start(app).await
}

/// `limit=3, remaining=N, …` → N.
fn remaining(res: &HttpResponse) -> String {
    let h = res.header("ratelimit").expect("a RateLimit header");
    h.split(", ")
        .find_map(|p| p.strip_prefix("remaining="))
        .unwrap_or_else(|| panic!("no remaining in {h:?}"))
        .to_owned()
}

#[tokio::test]
async fn rate_limit_counts_are_shared_through_redis() {
    let redis = Redis::start().await;
    let url = redis.url();
    let (_node, port) = express(&url).await;
    let a = webfw_limiter(&url).await;
    let b = webfw_limiter(&url).await;
    let client = [("X-Client", "shared")];

    let res = express_get(port, "/rl", &client).await;
    assert_eq!((res.status, remaining(&res)), (200, "2".into()));
    let res = a.get_with("/rl", &client).await;
    assert_eq!((res.status, remaining(&res)), (200, "1".into()));
    let res = b.get_with("/rl", &client).await;
    assert_eq!((res.status, remaining(&res)), (200, "0".into()));
    let res = express_get(port, "/rl", &client).await;
    assert_eq!(res.status, 429);
    let res = a.get_with("/rl", &client).await;
    assert_eq!(res.status, 429);
    assert_eq!(res.text(), "Too many requests, please try again later.");
    // Another client has its own count.
    assert_eq!(
        b.get_with("/rl", &[("X-Client", "other")]).await.status,
        200
    );

    // rate-limit-redis's key: the count, expiring with the window.
    let redis = redis::Client::open(url.as_str()).unwrap();
    let mut c = redis.get_multiplexed_async_connection().await.unwrap();
    let hits: i64 = redis::cmd("GET")
        .arg("rl:shared")
        .query_async(&mut c)
        .await
        .unwrap();
    assert_eq!(hits, 5);
    let ttl: i64 = redis::cmd("PTTL")
        .arg("rl:shared")
        .query_async(&mut c)
        .await
        .unwrap();
    assert!((3_590_000..=3_600_000).contains(&ttl), "PTTL {ttl}");
}
