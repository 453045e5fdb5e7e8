//! Typed application state over a socket: every kind of handler reaches
//! the app's values (plain and async functions, macro handlers, closures,
//! middleware, in routers and sub-apps); a sub-app sees its own values,
//! then its parents'; a value a `with_state` handler needs and no app
//! provides fails the start; reaching a value allocates nothing.

use crate::common;

use std::sync::atomic::{AtomicU64, Ordering};

use common::TestServer;
use common::alloc::allocations;
use webfw::prelude::*;
use webfw::{handler_fn, with_state, with_state_async};

/// A shared resource, as a pool would be.
struct Pool {
    name: &'static str,
    hits: AtomicU64,
}

impl Pool {
    fn new(name: &'static str) -> Pool {
        Pool {
            name,
            hits: AtomicU64::new(0),
        }
    }

    fn hit(&self) -> u64 {
        self.hits.fetch_add(1, Ordering::Relaxed) + 1
    }
}

struct Greeting(&'static str);

/// Types no app of some tests provides.
struct Missing;
struct Absent;

fn plain(req: &mut Request, res: &mut Response) -> Result {
    let pool = req.state::<Pool>()?;
    let line = format!("plain {}", pool.name);
    res.send(line)
}

async fn later(req: &mut Request, res: &mut Response) -> Result {
    tokio::task::yield_now().await;
    let name = req.state::<Pool>()?.name;
    tokio::task::yield_now().await;
    res.send(format!("async {name}"))
}

#[get("/macro")]
async fn by_macro(req: &mut Request, res: &mut Response) -> Result {
    let name = req.state::<Pool>()?.name;
    res.send(format!("macro {name}"))
}

fn taking(_req: &mut Request, res: &mut Response, pool: &Pool) -> Result {
    res.send(format!("taking {} {}", pool.name, pool.hit()))
}

async fn taking_later(_req: &mut Request, res: &mut Response, pool: &Pool) -> Result {
    tokio::task::yield_now().await;
    res.send(format!("taking later {}", pool.name))
}

fn app() -> App {
    let mut app = webfw::app();
    app.state(Pool::new("main")).state(Greeting("hello"));
    app.use_(|req: &mut Request, res: &mut Response| {
        let Greeting(word) = req.state::<Greeting>()?;
        res.set("X-Greeting", *word);
        next()
    });
    app.get("/plain", plain);
    app.get("/async", later);
    app.mount(webfw::routes![by_macro]);
    app.get(
        "/closure",
        handler_fn(|req, res| {
            let name = req.state::<Pool>()?.name;
            res.send(format!("closure {name}"))
        }),
    );
    app.get("/taking", with_state(taking));
    app.get("/taking-later", with_state_async(taking_later));
    app.get(
        "/async-closure",
        with_state_async(async |_req, res, pool: &Pool| {
            tokio::task::yield_now().await;
            res.send(format!("async closure {}", pool.name))
        }),
    );
    let mut router = webfw::router();
    router.get("/plain", plain);
    router.get("/taking", with_state(taking));
    app.use_at("/router", router);

    // A sub-app with its own pool: its handlers see it first, and the
    // parent's greeting behind it.
    let mut sub = webfw::app();
    sub.state(Pool::new("sub"));
    sub.get("/plain", plain);
    sub.get("/taking", with_state(taking));
    sub.get("/greeting", |req: &mut Request, res: &mut Response| {
        let Greeting(word) = req.state::<Greeting>()?;
        res.send(*word)
    });
    app.use_at("/sub", sub);
    app
}

#[tokio::test]
async fn every_kind_of_handler_reaches_the_apps_values() {
    let srv = TestServer::start(app()).await;
    for (path, want) in [
        ("/plain", "plain main"),
        ("/async", "async main"),
        ("/macro", "macro main"),
        ("/closure", "closure main"),
        ("/taking", "taking main 1"),
        ("/taking", "taking main 2"),
        ("/taking-later", "taking later main"),
        ("/async-closure", "async closure main"),
        ("/router/plain", "plain main"),
        ("/router/taking", "taking main 3"),
    ] {
        let res = srv.get(path).await;
        assert_eq!((res.status, res.text().as_str()), (200, want), "{path}");
        assert_eq!(res.header("x-greeting"), Some("hello"), "{path}");
    }
}

#[tokio::test]
async fn a_sub_app_sees_its_own_values_then_its_parents() {
    let srv = TestServer::start(app()).await;
    assert_eq!(srv.get("/sub/plain").await.text(), "plain sub");
    assert_eq!(srv.get("/sub/taking").await.text(), "taking sub 1");
    assert_eq!(srv.get("/sub/greeting").await.text(), "hello");
    // The parent's own pool is untouched by the sub-app's.
    assert_eq!(srv.get("/taking").await.text(), "taking main 1");
}

#[tokio::test]
async fn a_value_no_app_provides_fails_the_start() {
    let mut app = webfw::app();
    let mut sub = webfw::app();
    sub.get(
        "/x",
        with_state(|_req, res, _m: &Missing| res.send("never")),
    );
    app.use_at("/admin", sub);
    let err = app.bind(0).await.err().expect("the start fails");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    let message = err.to_string();
    assert!(
        message.contains("the app mounted at /admin")
            && message.contains("app_state::Missing")
            && message.contains("app.state(value)"),
        "{message}"
    );
    // A value of the parent's is enough.
    let mut app = webfw::app();
    app.state(Missing);
    let mut sub = webfw::app();
    sub.get(
        "/x",
        with_state(|_req, res, _m: &Missing| res.send("found")),
    );
    app.use_at("/admin", sub);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/admin/x").await.text(), "found");
}

#[tokio::test]
async fn a_value_looked_up_and_missing_is_a_500_naming_it() {
    let mut app = webfw::app();
    app.set("env", "development");
    app.get("/", |req: &mut Request, res: &mut Response| {
        req.state::<Absent>()?;
        res.send("never")
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/").await;
    assert_eq!(res.status, 500);
    assert!(
        res.text()
            .contains("no `suite::app_state::Absent` in the app&#39;s state"),
        "{}",
        res.text()
    );
}

#[tokio::test]
async fn reaching_a_value_allocates_nothing() {
    let mut app = webfw::app();
    // Values of other types ahead of the one looked up.
    app.state(Pool::new("main"))
        .state(Greeting("hi"))
        .state(7u32)
        .state(8u64);
    app.get("/", |req: &mut Request, res: &mut Response| {
        let before = allocations();
        let mut found = 0;
        for _ in 0..100 {
            found += usize::from(req.state::<Pool>().is_ok());
            found += usize::from(req.app().state::<u64>().is_some());
        }
        let after = allocations();
        res.send(format!("{found} {}", after - before))
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/").await.text(), "200 0");
}

/// Closures that own what they capture, through `async_handler!`: each
/// request calls the same closure, whose captured values persist.
#[tokio::test]
async fn closures_that_own_a_pool_serve_every_request() {
    let pool = std::sync::Arc::new(Pool::new("captured"));
    let mut app = webfw::app();
    let p = std::sync::Arc::clone(&pool);
    app.get(
        "/async-closure",
        webfw::async_handler!(async move |req, res| {
            tokio::task::yield_now().await;
            res.send(format!("{} {} {}", p.name, p.hit(), req.path()))
        }),
    );
    let p = std::sync::Arc::clone(&pool);
    app.get(
        "/block",
        webfw::async_handler!(move |req, res| async move {
            tokio::task::yield_now().await;
            res.send(format!("{} {} {}", p.name, p.hit(), req.path()))
        }),
    );
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/async-closure").await.text(),
        "captured 1 /async-closure"
    );
    assert_eq!(srv.get("/block").await.text(), "captured 2 /block");
    assert_eq!(
        srv.get("/async-closure").await.text(),
        "captured 3 /async-closure"
    );
    assert_eq!(pool.hits.load(Ordering::Relaxed), 3);
}
