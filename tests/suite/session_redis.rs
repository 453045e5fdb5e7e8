//! The Redis session store against a real `redis-server` started on a port
//! of its own: what it writes (connect-redis's keys, JSON and TTLs), a
//! Redis restart in the middle, and sessions shared both ways with an
//! Express app using express-session and connect-redis (`tests/interop`).

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::redis::Redis;
use common::{HttpResponse, TestServer, guard};
use webfw::prelude::*;
use webfw::session::{CookieOptions, RedisStore, RedisStoreOptions, SessionOptions};

const SECRET: &str = "shared secret";

fn set_user(req: &mut Request, res: &mut Response) -> Result {
    let user = req.query()["user"].as_str().unwrap_or("").to_owned();
    req.session().set("user", user)?;
    let visits = req.session().get::<u64>("visits").unwrap_or(0) + 1;
    req.session().set("visits", visits)?;
    res.send("ok")
}

fn get_user(req: &mut Request, res: &mut Response) -> Result {
    let visits = req.session().get::<u64>("visits").unwrap_or(0) + 1;
    req.session().set("visits", visits)?;
    let user = req.session().get::<String>("user");
    res.json(&serde_json::json!({ "user": user, "visits": visits }))
}

async fn webfw_app(redis: &Redis, options: SessionOptions, store: RedisStoreOptions) -> TestServer {
    let store = RedisStore::connect_with(&redis.url(), store)
        .await
        .expect("connect the store");
    let mut app = webfw::app();
    app.use_(webfw::session(options.store(store)));
    app.get("/set", set_user);
    app.get("/get", get_user);
    TestServer::start(app).await
}

fn options() -> SessionOptions {
    SessionOptions::new(SECRET)
        .resave(false)
        .save_uninitialized(false)
}

/// The `connect.sid=…` pair a response sets, and the session id in it.
fn cookie(res: &HttpResponse) -> (String, String) {
    let line = res.header("set-cookie").expect("a Set-Cookie header");
    let pair = line.split(';').next().unwrap().to_owned();
    let signed = pair
        .strip_prefix("connect.sid=s%3A")
        .expect("a signed session cookie");
    let id = signed.rsplit_once('.').unwrap().0.to_owned();
    (pair, id)
}

#[tokio::test]
async fn sessions_are_stored_as_connect_redis_stores_them() {
    let redis = Redis::start().await;
    let srv = webfw_app(&redis, options(), RedisStoreOptions::default()).await;
    let res = srv.get("/set?user=tobi").await;
    assert_eq!(res.status, 200);
    let (pair, id) = cookie(&res);
    let json: String = redis.cmd(redis::cmd("GET").arg(format!("sess:{id}"))).await;
    assert_eq!(
        json,
        r#"{"cookie":{"originalMaxAge":null,"expires":null,"httpOnly":true,"path":"/"},"user":"tobi","visits":1}"#
    );
    let ttl: i64 = redis.cmd(redis::cmd("TTL").arg(format!("sess:{id}"))).await;
    assert!(
        (86_390..=86_400).contains(&ttl),
        "a day without a cookie expiry, got {ttl}"
    );
    let res = srv.get_with("/get", &[("Cookie", &pair)]).await;
    assert_eq!(res.text(), r#"{"user":"tobi","visits":2}"#);

    // The cookie's maxAge is the TTL; the prefix is configurable.
    let srv = webfw_app(
        &redis,
        options().cookie(CookieOptions::new().max_age(Duration::from_secs(600))),
        RedisStoreOptions::new().prefix("app:"),
    )
    .await;
    let (pair, id) = cookie(&srv.get("/set?user=loki").await);
    let ttl: i64 = redis.cmd(redis::cmd("TTL").arg(format!("app:{id}"))).await;
    assert!((590..=600).contains(&ttl), "the cookie's maxAge, got {ttl}");
    let exists: i64 = redis
        .cmd(redis::cmd("EXISTS").arg(format!("sess:{id}")))
        .await;
    assert_eq!(exists, 0);
    // Unchanged with resave off: touched (EXPIRE), not rewritten.
    redis
        .cmd::<()>(redis::cmd("EXPIRE").arg(format!("app:{id}")).arg(100))
        .await;
    let res = srv.get_with("/get", &[("Cookie", &pair)]).await;
    assert_eq!(res.text(), r#"{"user":"loki","visits":2}"#);
    let ttl: i64 = redis.cmd(redis::cmd("TTL").arg(format!("app:{id}"))).await;
    assert!(ttl > 500, "the save reset the TTL, got {ttl}");
}

#[tokio::test]
async fn a_redis_restart_fails_requests_then_they_recover() {
    let mut redis = Redis::start().await;
    let srv = webfw_app(&redis, options(), RedisStoreOptions::default()).await;
    let (pair, _) = cookie(&srv.get("/set?user=tobi").await);
    assert_eq!(srv.get_with("/get", &[("Cookie", &pair)]).await.status, 200);

    redis.stop();
    let down = srv.get_with("/get", &[("Cookie", &pair)]).await;
    assert_eq!(down.status, 500, "{}", down.text());
    let down = srv.get("/set?user=x").await;
    assert_eq!(down.status, 500);
    assert!(!down.has_header("set-cookie"));

    // Same port, empty data (no persistence): the old session is gone, but
    // requests work again once the store has reconnected.
    let redis = Redis::start_on(redis.port).await;
    let back = guard("the store to reconnect", async {
        loop {
            let res = srv.get("/set?user=again").await;
            if res.status == 200 {
                return res;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    let (pair, id) = cookie(&back);
    let res = srv.get_with("/get", &[("Cookie", &pair)]).await;
    assert_eq!(res.text(), r#"{"user":"again","visits":2}"#);
    let exists: i64 = redis
        .cmd(redis::cmd("EXISTS").arg(format!("sess:{id}")))
        .await;
    assert_eq!(exists, 1);
}

/// The Express app of `tests/interop`, after `npm ci` when its modules are missing.
struct NodeApp {
    child: Child,
    port: u16,
}

impl Drop for NodeApp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn node_app(redis: &Redis) -> NodeApp {
    let dir = common::interop_dir(&["express-session"]);
    let mut child = Command::new("node")
        .arg("app.js")
        .current_dir(&dir)
        .env("REDIS_URL", redis.url())
        .env("SESSION_SECRET", SECRET)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start node ({e}): install Node.js 20"));
    let stdout = child.stdout.take().expect("piped stdout");
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
    NodeApp { child, port }
}

async fn node_get(app: &NodeApp, target: &str, cookie: Option<&str>) -> HttpResponse {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], app.port));
    let headers: Vec<(&str, &str)> = cookie.map(|c| ("Cookie", c)).into_iter().collect();
    let bytes = common::request("GET", target, &headers);
    common::parse_response(&common::send_raw(addr, &bytes).await, false)
}

#[tokio::test]
async fn express_and_webfw_share_sessions_through_redis_both_ways() {
    let redis = Redis::start().await;
    let node = node_app(&redis).await;
    let srv = webfw_app(&redis, options(), RedisStoreOptions::default()).await;

    // Created by Express, read (and changed) by webfw, read back by Express.
    let res = node_get(&node, "/set?user=alice", None).await;
    assert_eq!(res.status, 200, "{}", res.text());
    let (pair, id) = cookie(&res);
    let res = srv.get_with("/get", &[("Cookie", &pair)]).await;
    assert_eq!(res.text(), r#"{"user":"alice","visits":2}"#);
    let res = node_get(&node, "/get", Some(&pair)).await;
    assert_eq!(res.text(), r#"{"user":"alice","visits":3}"#);
    let stored: String = redis.cmd(redis::cmd("GET").arg(format!("sess:{id}"))).await;
    assert!(
        stored.ends_with(r#""user":"alice","visits":3}"#),
        "{stored}"
    );

    // Created by webfw, read (and changed) by Express, read back by webfw.
    let res = srv.get("/set?user=bob").await;
    let (pair, _) = cookie(&res);
    let res = node_get(&node, "/get", Some(&pair)).await;
    assert_eq!(res.text(), r#"{"user":"bob","visits":2}"#);
    let res = srv.get_with("/get", &[("Cookie", &pair)]).await;
    assert_eq!(res.text(), r#"{"user":"bob","visits":3}"#);

    // A cookie one side signed with another secret is not accepted by the other.
    let forged = pair.replace("s%3A", "s%3Ax");
    let res = node_get(&node, "/get", Some(&forged)).await;
    assert_eq!(res.text(), r#"{"user":null,"visits":1}"#);
}
