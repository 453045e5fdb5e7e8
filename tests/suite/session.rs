//! `webfw::session`: express-session's cookie, store writes and methods,
//! over real sockets. A recording store shows which writes each request
//! made; the stored JSON is compared with what express-session writes.

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{HttpResponse, TestServer};
use serde::{Deserialize, Serialize};
use serde_json::json;
use webfw::BoxFuture;
use webfw::prelude::*;
use webfw::session::{
    CookieOptions, MemoryStore, Secure, SessionOptions, SessionRecord, SessionStore, Unset,
};
use webfw_http::cookie_signature;

/// A memory store that logs each call and can be told to fail.
#[derive(Default)]
struct Recording {
    inner: MemoryStore,
    log: Mutex<Vec<String>>,
    fail: Mutex<Option<&'static str>>,
}

impl Recording {
    fn take_log(&self) -> Vec<String> {
        std::mem::take(&mut *self.log.lock().unwrap())
    }
    fn note(&self, op: &str, id: &str) -> webfw::Result<()> {
        self.log.lock().unwrap().push(format!("{op} {id}"));
        if *self.fail.lock().unwrap() == Some(op) {
            return Err(webfw::Error::new(format!("store {op} failed")));
        }
        Ok(())
    }
}

impl SessionStore for Recording {
    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, webfw::Result<Option<SessionRecord>>> {
        Box::pin(async move {
            self.note("get", id)?;
            self.inner.get(id).await
        })
    }
    fn set<'a>(&'a self, id: &'a str, s: &'a SessionRecord) -> BoxFuture<'a, webfw::Result<()>> {
        Box::pin(async move {
            // A store that really waits: the head must wait for it.
            tokio::task::yield_now().await;
            self.note("set", id)?;
            self.inner.set(id, s).await
        })
    }
    fn destroy<'a>(&'a self, id: &'a str) -> BoxFuture<'a, webfw::Result<()>> {
        Box::pin(async move {
            self.note("destroy", id)?;
            self.inner.destroy(id).await
        })
    }
    fn touch<'a>(&'a self, id: &'a str, s: &'a SessionRecord) -> BoxFuture<'a, webfw::Result<()>> {
        Box::pin(async move {
            self.note("touch", id)?;
            self.inner.touch(id, s).await
        })
    }
}

const SECRET: &str = "keyboard cat";

fn views(req: &mut Request, res: &mut Response) -> Result {
    let n = req.session().get::<u64>("views").unwrap_or(0) + 1;
    req.session().set("views", n)?;
    res.send(n.to_string())
}

fn look(req: &mut Request, res: &mut Response) -> Result {
    let n = req.session().get::<u64>("views").unwrap_or(0);
    res.send(n.to_string())
}

fn id(req: &mut Request, res: &mut Response) -> Result {
    res.send(req.session().id())
}

async fn regenerate(req: &mut Request, res: &mut Response) -> Result {
    req.session().regenerate().await?;
    req.session().set("fresh", true)?;
    res.send(req.session().id())
}

async fn destroy(req: &mut Request, res: &mut Response) -> Result {
    req.session().destroy().await?;
    res.send(format!("{}", req.session().exists()))
}

async fn reload(req: &mut Request, res: &mut Response) -> Result {
    req.session().set("views", 1000)?;
    req.session().reload().await?;
    res.send(req.session().get::<u64>("views").unwrap_or(0).to_string())
}

async fn save_then_change(req: &mut Request, res: &mut Response) -> Result {
    req.session().set("step", 1)?;
    req.session().save().await?;
    res.send("saved")
}

fn unset(req: &mut Request, res: &mut Response) -> Result {
    req.session().unset();
    res.send("unset")
}

fn remember(req: &mut Request, res: &mut Response) -> Result {
    req.session().set_max_age(Some(Duration::from_secs(3600)));
    res.send("remembered")
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct User {
    name: String,
    roles: Vec<String>,
}

fn typed(req: &mut Request, res: &mut Response) -> Result {
    let user = User {
        name: "tobi".into(),
        roles: vec!["admin".into()],
    };
    req.session().set("user", &user)?;
    req.session().data_mut().insert("raw".into(), json!([1, 2]));
    let back: User = req.session().get("user").expect("typed value reads back");
    assert_eq!(back, user);
    res.json(&serde_json::Value::Object(req.session().data()))
}

fn stream(req: &mut Request, res: &mut Response) -> Result {
    req.session().set("streamed", true)?;
    res.write("a")?;
    res.end_with("b")
}

fn has_session(req: &mut Request, res: &mut Response) -> Result {
    res.send(req.try_session().is_some().to_string())
}

async fn server_with(options: SessionOptions) -> TestServer {
    let mut app = webfw::app();
    app.use_(webfw::session(options));
    app.get("/", views);
    app.get("/look", look);
    app.get("/id", id);
    app.get("/regenerate", regenerate);
    app.get("/destroy", destroy);
    app.get("/reload", reload);
    app.get("/save", save_then_change);
    app.get("/unset", unset);
    app.get("/remember", remember);
    app.get("/typed", typed);
    app.get("/stream", stream);
    app.get("/app/has", has_session);
    app.get("/has", has_session);
    TestServer::start(app).await
}

async fn recorded(options: SessionOptions) -> (TestServer, Arc<Recording>) {
    let store = Arc::new(Recording::default());
    let srv = server_with(options.shared_store(store.clone())).await;
    (srv, store)
}

/// The session cookie's `name=value` pair and the id it signs.
fn session_cookie(res: &HttpResponse, name: &str) -> Option<(String, String)> {
    let line = res
        .header_all("set-cookie")
        .into_iter()
        .find(|l| l.starts_with(&format!("{name}=")))?
        .to_owned();
    let pair = line.split(';').next().unwrap().to_owned();
    let value = pair[name.len() + 1..].to_owned();
    let signed = value.strip_prefix("s%3A").expect("signed cookie value");
    let id = signed.rsplit_once('.').unwrap().0.to_owned();
    Some((pair, id))
}

async fn get(srv: &TestServer, path: &str, cookie: Option<&str>) -> HttpResponse {
    match cookie {
        Some(c) => srv.get_with(path, &[("Cookie", c)]).await,
        None => srv.get(path).await,
    }
}

#[tokio::test]
async fn a_new_session_gets_a_signed_cookie_and_is_stored_as_express_session_stores_it() {
    let (srv, store) = recorded(SessionOptions::new(SECRET)).await;
    let res = srv.get("/look").await;
    assert_eq!(res.status, 200);
    let line = res.header("set-cookie").unwrap();
    let (pair, id) = session_cookie(&res, "connect.sid").unwrap();
    assert_eq!(id.len(), 32, "24 random bytes in base64url");
    assert!(
        id.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    let signed = cookie_signature::sign(&id, SECRET);
    assert_eq!(
        pair,
        format!(
            "connect.sid=s%3A{}",
            signed.replace('+', "%2B").replace('/', "%2F")
        )
    );
    assert_eq!(line, format!("{pair}; Path=/; HttpOnly"));
    assert_eq!(store.take_log(), [format!("set {id}")]);
    assert_eq!(
        store.inner.raw(&id).unwrap(),
        r#"{"cookie":{"originalMaxAge":null,"expires":null,"httpOnly":true,"path":"/"}}"#
    );
}

#[tokio::test]
async fn the_cookie_brings_the_session_back_and_changes_are_saved() {
    let (srv, store) = recorded(SessionOptions::new(SECRET)).await;
    let first = srv.get("/").await;
    assert_eq!(first.text(), "1");
    let (pair, id) = session_cookie(&first, "connect.sid").unwrap();
    store.take_log();
    let second = get(&srv, "/", Some(&pair)).await;
    assert_eq!(second.text(), "2");
    // Same id, browser-session cookie, not rolling: no new Set-Cookie.
    assert!(!second.has_header("set-cookie"));
    assert_eq!(store.take_log(), [format!("get {id}"), format!("set {id}")]);
    assert_eq!(get(&srv, "/look", Some(&pair)).await.text(), "2");
    assert!(store.inner.raw(&id).unwrap().ends_with(r#""views":2}"#));
}

#[tokio::test]
async fn a_tampered_or_unsigned_cookie_starts_a_new_session() {
    let (srv, _store) = recorded(SessionOptions::new(SECRET)).await;
    let first = srv.get("/").await;
    let (pair, id) = session_cookie(&first, "connect.sid").unwrap();
    assert_eq!(get(&srv, "/", Some(&pair)).await.text(), "2");
    let forged = pair.replacen(&id[..4], "AAAA", 1);
    let res = get(&srv, "/", Some(&forged)).await;
    assert_eq!(res.text(), "1");
    let (_, new_id) = session_cookie(&res, "connect.sid").unwrap();
    assert_ne!(new_id, id);
    let unsigned = format!("connect.sid={id}");
    assert_eq!(get(&srv, "/", Some(&unsigned)).await.text(), "1");
    let other_secret = format!(
        "connect.sid=s%3A{}",
        cookie_signature::sign(&id, "another secret")
    );
    assert_eq!(get(&srv, "/", Some(&other_secret)).await.text(), "1");
}

#[tokio::test]
async fn rotated_secrets_read_old_cookies_and_sign_with_the_first() {
    let store = Arc::new(MemoryStore::new());
    let old = server_with(SessionOptions::new("old secret").shared_store(store.clone())).await;
    let (pair, id) = session_cookie(&old.get("/").await, "connect.sid").unwrap();
    let new = server_with(
        SessionOptions::new("x")
            .secrets(["new secret", "old secret"])
            .rolling(true)
            .shared_store(store.clone()),
    )
    .await;
    let res = get(&new, "/", Some(&pair)).await;
    assert_eq!(res.text(), "2");
    let (new_pair, same_id) = session_cookie(&res, "connect.sid").unwrap();
    assert_eq!(same_id, id);
    assert!(
        new_pair.contains(
            &cookie_signature::sign(&id, "new secret")
                .replace('/', "%2F")
                .replace('+', "%2B")
        )
    );
}

#[tokio::test]
async fn the_name_option_names_the_cookie() {
    let (srv, _) = recorded(SessionOptions::new(SECRET).name("sid")).await;
    let res = srv.get("/").await;
    let (pair, _) = session_cookie(&res, "sid").unwrap();
    assert!(session_cookie(&res, "connect.sid").is_none());
    assert_eq!(get(&srv, "/", Some(&pair)).await.text(), "2");
}

#[tokio::test]
async fn max_age_sets_expires_stores_it_and_a_modified_session_gets_a_new_cookie() {
    let opts = SessionOptions::new(SECRET).cookie(
        CookieOptions::new()
            .max_age(Duration::from_secs(60))
            .same_site(webfw::SameSite::Lax),
    );
    let (srv, store) = recorded(opts).await;
    let res = srv.get("/").await;
    let line = res.header("set-cookie").unwrap().to_owned();
    let (pair, id) = session_cookie(&res, "connect.sid").unwrap();
    assert!(line.contains("; Path=/; Expires="), "{line}");
    assert!(line.ends_with(" GMT; HttpOnly; SameSite=Lax"), "{line}");
    let raw: serde_json::Value = serde_json::from_str(&store.inner.raw(&id).unwrap()).unwrap();
    assert_eq!(raw["cookie"]["originalMaxAge"], 60000);
    assert_eq!(raw["cookie"]["sameSite"], "lax");
    assert!(raw["cookie"]["expires"].as_str().unwrap().ends_with('Z'));
    // Modified and expiring: the cookie is sent again with the new expiry.
    assert!(get(&srv, "/", Some(&pair)).await.has_header("set-cookie"));
    // Unmodified: no cookie; the store is touched (resave) or not.
    store.take_log();
    let res = get(&srv, "/look", Some(&pair)).await;
    assert!(!res.has_header("set-cookie"));
    assert_eq!(store.take_log(), [format!("get {id}"), format!("set {id}")]);
}

#[tokio::test]
async fn save_uninitialized_false_keeps_empty_sessions_out_of_the_store() {
    let (srv, store) = recorded(SessionOptions::new(SECRET).save_uninitialized(false)).await;
    let res = srv.get("/look").await;
    assert!(!res.has_header("set-cookie"));
    assert!(store.take_log().is_empty());
    assert!(store.inner.is_empty());
    let res = srv.get("/").await;
    let (_, id) = session_cookie(&res, "connect.sid").unwrap();
    assert_eq!(store.take_log(), [format!("set {id}")]);
}

#[tokio::test]
async fn resave_false_touches_an_unchanged_session_instead_of_saving_it() {
    let (srv, store) = recorded(SessionOptions::new(SECRET).resave(false)).await;
    let (pair, id) = session_cookie(&srv.get("/").await, "connect.sid").unwrap();
    store.take_log();
    get(&srv, "/look", Some(&pair)).await;
    assert_eq!(
        store.take_log(),
        [format!("get {id}"), format!("touch {id}")]
    );
    get(&srv, "/", Some(&pair)).await;
    assert_eq!(store.take_log(), [format!("get {id}"), format!("set {id}")]);
}

#[tokio::test]
async fn rolling_sends_the_cookie_on_every_response() {
    let (srv, _) = recorded(SessionOptions::new(SECRET).rolling(true)).await;
    let (pair, id) = session_cookie(&srv.get("/").await, "connect.sid").unwrap();
    let res = get(&srv, "/look", Some(&pair)).await;
    assert_eq!(session_cookie(&res, "connect.sid").unwrap().1, id);
    let (plain, _) = recorded(SessionOptions::new(SECRET)).await;
    let (pair, _) = session_cookie(&plain.get("/").await, "connect.sid").unwrap();
    assert!(
        !get(&plain, "/look", Some(&pair))
            .await
            .has_header("set-cookie")
    );
}

#[tokio::test]
async fn a_secure_cookie_is_only_sent_over_https_as_the_proxy_option_judges_it() {
    let secure = CookieOptions::new().secure(Secure::On);
    let (srv, _) = recorded(SessionOptions::new(SECRET).cookie(secure.clone())).await;
    let https = [("X-Forwarded-Proto", "https")];
    assert!(!srv.get("/").await.has_header("set-cookie"));
    // Without `proxy` the app's `trust proxy` decides (off here).
    assert!(!srv.get_with("/", &https).await.has_header("set-cookie"));
    let (trusting, _) = recorded(
        SessionOptions::new(SECRET)
            .cookie(secure.clone())
            .proxy(Some(true)),
    )
    .await;
    let res = trusting.get_with("/", &https).await;
    assert!(
        res.header("set-cookie")
            .unwrap()
            .ends_with("; Path=/; HttpOnly; Secure")
    );
    assert!(!trusting.get("/").await.has_header("set-cookie"));
    let mut app = webfw::app();
    app.set("trust proxy", true);
    app.use_(webfw::session(SessionOptions::new(SECRET).cookie(secure)));
    app.get("/", views);
    let behind = TestServer::start(app).await;
    assert!(behind.get_with("/", &https).await.has_header("set-cookie"));
    let (never, _) = recorded(
        SessionOptions::new(SECRET)
            .cookie(CookieOptions::new().secure(Secure::On))
            .proxy(Some(false)),
    )
    .await;
    assert!(!never.get_with("/", &https).await.has_header("set-cookie"));
}

#[tokio::test]
async fn secure_auto_follows_the_request() {
    let auto = CookieOptions::new().secure(Secure::Auto);
    let (srv, store) = recorded(SessionOptions::new(SECRET).cookie(auto).proxy(Some(true))).await;
    let res = srv.get_with("/", &[("X-Forwarded-Proto", "https")]).await;
    assert!(res.header("set-cookie").unwrap().ends_with("; Secure"));
    let res = srv.get("/").await;
    let line = res.header("set-cookie").unwrap();
    assert!(!line.contains("Secure"), "{line}");
    let (_, id) = session_cookie(&res, "connect.sid").unwrap();
    assert!(store.inner.raw(&id).unwrap().contains(r#""secure":false"#));
}

#[tokio::test]
async fn genid_makes_the_ids() {
    let (srv, _) = recorded(SessionOptions::new(SECRET).genid(|| "fixed-id".to_owned())).await;
    let res = srv.get("/id").await;
    assert_eq!(res.text(), "fixed-id");
    assert_eq!(session_cookie(&res, "connect.sid").unwrap().1, "fixed-id");
}

#[tokio::test]
async fn regenerate_destroys_the_old_session_and_sends_the_new_id() {
    let (srv, store) = recorded(SessionOptions::new(SECRET)).await;
    let (pair, old) = session_cookie(&srv.get("/").await, "connect.sid").unwrap();
    store.take_log();
    let res = get(&srv, "/regenerate", Some(&pair)).await;
    let (_, new) = session_cookie(&res, "connect.sid").unwrap();
    assert_eq!(res.text(), new);
    assert_ne!(new, old);
    assert_eq!(
        store.take_log(),
        [
            format!("get {old}"),
            format!("destroy {old}"),
            format!("set {new}")
        ]
    );
    assert!(store.inner.raw(&old).is_none());
    assert!(store.inner.raw(&new).unwrap().ends_with(r#""fresh":true}"#));
}

#[tokio::test]
async fn destroy_removes_the_session_and_sends_no_cookie() {
    let (srv, store) = recorded(SessionOptions::new(SECRET).rolling(true)).await;
    let (pair, id) = session_cookie(&srv.get("/").await, "connect.sid").unwrap();
    store.take_log();
    let res = get(&srv, "/destroy", Some(&pair)).await;
    assert_eq!(res.text(), "false");
    assert!(!res.has_header("set-cookie"));
    assert_eq!(
        store.take_log(),
        [format!("get {id}"), format!("destroy {id}")]
    );
    assert_eq!(get(&srv, "/look", Some(&pair)).await.text(), "0");
}

#[tokio::test]
async fn reload_drops_unsaved_changes_and_save_writes_at_once() {
    let (srv, store) = recorded(SessionOptions::new(SECRET).resave(false)).await;
    let (pair, id) = session_cookie(&srv.get("/").await, "connect.sid").unwrap();
    assert_eq!(get(&srv, "/reload", Some(&pair)).await.text(), "1");
    store.take_log();
    assert_eq!(get(&srv, "/save", Some(&pair)).await.text(), "saved");
    // Saved by the handler; unchanged since, so the middleware only touches.
    assert_eq!(
        store.take_log(),
        [
            format!("get {id}"),
            format!("set {id}"),
            format!("touch {id}")
        ]
    );
    let raw = store.inner.raw(&id).unwrap();
    assert!(raw.ends_with(r#""views":1,"step":1}"#), "{raw}");
}

#[tokio::test]
async fn unset_keeps_or_destroys_the_stored_session() {
    let (keep, store) = recorded(SessionOptions::new(SECRET)).await;
    let (pair, id) = session_cookie(&keep.get("/").await, "connect.sid").unwrap();
    store.take_log();
    let res = get(&keep, "/unset", Some(&pair)).await;
    assert!(!res.has_header("set-cookie"));
    assert_eq!(store.take_log(), [format!("get {id}")]);
    assert!(store.inner.raw(&id).is_some());

    let (destroy, store) = recorded(SessionOptions::new(SECRET).unset(Unset::Destroy)).await;
    let (pair, id) = session_cookie(&destroy.get("/").await, "connect.sid").unwrap();
    store.take_log();
    get(&destroy, "/unset", Some(&pair)).await;
    assert_eq!(
        store.take_log(),
        [format!("get {id}"), format!("destroy {id}")]
    );
    assert!(store.inner.raw(&id).is_none());
}

#[tokio::test]
async fn set_max_age_makes_a_lasting_cookie() {
    let (srv, store) = recorded(SessionOptions::new(SECRET)).await;
    let (pair, id) = session_cookie(&srv.get("/").await, "connect.sid").unwrap();
    let res = get(&srv, "/remember", Some(&pair)).await;
    // The data did not change, so (not rolling) no cookie; the store has the expiry.
    assert!(!res.has_header("set-cookie"));
    assert!(
        store
            .inner
            .raw(&id)
            .unwrap()
            .contains(r#""originalMaxAge":3600000"#)
    );
}

#[tokio::test]
async fn typed_values_and_the_raw_map_are_stored_as_json() {
    let (srv, store) = recorded(SessionOptions::new(SECRET)).await;
    let res = srv.get("/typed").await;
    assert_eq!(
        res.text(),
        r#"{"user":{"name":"tobi","roles":["admin"]},"raw":[1,2]}"#
    );
    let (_, id) = session_cookie(&res, "connect.sid").unwrap();
    assert!(
        store
            .inner
            .raw(&id)
            .unwrap()
            .ends_with(r#""user":{"name":"tobi","roles":["admin"]},"raw":[1,2]}"#)
    );
}

#[tokio::test]
async fn a_streamed_response_saves_before_its_head() {
    let (srv, store) = recorded(SessionOptions::new(SECRET)).await;
    let res = srv.get("/stream").await;
    assert_eq!(res.text(), "ab");
    let (_, id) = session_cookie(&res, "connect.sid").unwrap();
    assert!(
        store
            .inner
            .raw(&id)
            .unwrap()
            .ends_with(r#""streamed":true}"#)
    );
}

#[tokio::test]
async fn the_cookie_path_limits_where_sessions_exist() {
    let opts = SessionOptions::new(SECRET).cookie(CookieOptions::new().path("/app"));
    let (srv, store) = recorded(opts).await;
    let res = srv.get("/has").await;
    assert_eq!(res.text(), "false");
    assert!(!res.has_header("set-cookie"));
    let res = srv.get("/app/has").await;
    assert_eq!(res.text(), "true");
    assert!(res.header("set-cookie").unwrap().contains("; Path=/app;"));
    assert_eq!(store.take_log().len(), 1);
}

#[tokio::test]
async fn store_errors_answer_500_and_nothing_leaks() {
    let (srv, store) = recorded(SessionOptions::new(SECRET)).await;
    let (pair, _) = session_cookie(&srv.get("/").await, "connect.sid").unwrap();
    *store.fail.lock().unwrap() = Some("get");
    let res = get(&srv, "/", Some(&pair)).await;
    assert_eq!(res.status, 500);
    assert!(!res.has_header("set-cookie"));
    *store.fail.lock().unwrap() = Some("set");
    let res = srv.get("/").await;
    assert_eq!(res.status, 500);
    assert!(
        !res.has_header("set-cookie"),
        "no cookie for a session that was not saved"
    );
    assert!(res.text().contains("Internal Server Error"));
    *store.fail.lock().unwrap() = None;
    assert_eq!(get(&srv, "/", Some(&pair)).await.text(), "2");
}

#[tokio::test]
async fn without_the_middleware_req_session_says_what_to_add() {
    let mut app = webfw::app();
    app.get("/", views);
    app.get("/has", has_session);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/has").await.text(), "false");
    assert_eq!(srv.get("/").await.status, 500);
}

/// With the default options every cookieless request stores an empty
/// session; a flood of them (more than the default `MemoryStore` holds)
/// must not log out a user whose session holds data.
#[tokio::test]
async fn a_flood_of_cookieless_requests_keeps_a_logged_in_users_session() {
    let srv = server_with(SessionOptions::new(SECRET)).await;
    let first = srv.get("/").await;
    let (pair, _) = session_cookie(&first, "connect.sid").unwrap();
    let batch = 500;
    let flood = MemoryStore::DEFAULT_MAX_ENTRIES + batch;
    for _ in 0..flood / batch {
        let mut bytes = common::keep_alive_request("GET", "/look", &[]).repeat(batch - 1);
        bytes.extend(common::request("GET", "/look", &[]));
        let raw = srv.raw_bytes(bytes).await;
        let answered = raw.windows(9).filter(|w| w == b"HTTP/1.1 ").count();
        assert_eq!(answered, batch);
    }
    assert_eq!(get(&srv, "/", Some(&pair)).await.text(), "2");
}
