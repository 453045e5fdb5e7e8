//! Correctness with 10,000 routes: every route still answers, the first
//! registered match wins, and pattern, regex and case-insensitive matches
//! are not lost. (Not a timing test.)

use crate::common;

use common::TestServer;
use webfw::PathSpec;
use webfw::prelude::*;

const N: usize = 10_000;

fn numbered(i: usize) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |_: &mut Request, res: &mut Response| res.send(format!("route {i}"))
}

fn labelled(
    s: &'static str,
) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |_: &mut Request, res: &mut Response| res.send(s)
}

fn big_app() -> App {
    let mut app = webfw::app();
    app.get("/dup", labelled("first dup"));
    for i in 0..N {
        app.get(format!("/route/{i}").as_str(), numbered(i));
        if i == N / 2 {
            app.get("/item/:id", labelled("item pattern"));
            app.get(PathSpec::regex(r"^\/re(\d+)$"), labelled("regex"));
        }
    }
    app.get("/item/42", labelled("item literal"));
    app.get("/dup", labelled("last dup"));
    app.get("/tail/:x", labelled("tail"));
    app
}

#[tokio::test]
async fn the_last_of_ten_thousand_routes_still_answers() {
    let srv = TestServer::start(big_app()).await;
    assert_eq!(srv.get("/route/9999").await.text(), "route 9999");
    assert_eq!(srv.get("/route/0").await.text(), "route 0");
    assert_eq!(srv.get("/route/5000").await.text(), "route 5000");
    assert_eq!(srv.get("/tail/z").await.text(), "tail");
    assert_eq!(srv.get("/route/10000").await.status, 404);
}

#[tokio::test]
async fn the_first_registered_match_wins_among_ten_thousand_routes() {
    let srv = TestServer::start(big_app()).await;
    assert_eq!(srv.get("/dup").await.text(), "first dup");
    assert_eq!(srv.get("/item/42").await.text(), "item pattern");
}

#[tokio::test]
async fn pattern_regex_and_case_insensitive_matches_survive_scaling() {
    let srv = TestServer::start(big_app()).await;
    assert_eq!(srv.get("/ROUTE/1234").await.text(), "route 1234");
    assert_eq!(srv.get("/route/77/").await.text(), "route 77");
    assert_eq!(srv.get("/re123").await.text(), "regex");
    assert_eq!(srv.get("/item/abc").await.text(), "item pattern");
}

#[tokio::test]
async fn middleware_registered_between_many_routes_runs_in_order() {
    let mut app = webfw::app();
    for i in 0..N {
        app.get(format!("/r/{i}").as_str(), numbered(i));
        if i == 100 {
            app.use_at("/r", |req: &mut Request, res: &mut Response| {
                if req.path() == "/150" {
                    return res.send("middleware first");
                }
                next()
            });
        }
    }
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/r/50").await.text(), "route 50");
    assert_eq!(srv.get("/r/150").await.text(), "middleware first");
    assert_eq!(srv.get("/r/9000").await.text(), "route 9000");
}

/// A literal layer the prefilter found is matched only on what follows its
/// text (the prefilter compared the text): the routing options must still
/// decide as the whole pattern would.
#[tokio::test]
async fn literal_layers_found_by_the_prefilter_obey_the_routing_options() {
    let mut app = webfw::app();
    app.enable("case sensitive routing");
    app.enable("strict routing");
    for i in 0..100 {
        app.get(format!("/r/{i}").as_str(), numbered(i));
    }
    app.get("/Plain", labelled("plain"));
    app.get("/dir/", labelled("dir"));
    app.get("/item/:id", labelled("item"));
    app.use_at("/m", |req: &mut Request, res: &mut Response| {
        res.send(format!("mounted url={} base={}", req.url(), req.base_url()))
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/Plain").await.text(), "plain");
    assert_eq!(srv.get("/plain").await.status, 404);
    assert_eq!(srv.get("/Plain/").await.status, 404);
    assert_eq!(srv.get("/dir/").await.text(), "dir");
    assert_eq!(srv.get("/dir").await.status, 404);
    assert_eq!(srv.get("/item/").await.status, 404);
    assert_eq!(srv.get("/m").await.text(), "mounted url=/ base=/m");
    assert_eq!(srv.get("/m/x").await.text(), "mounted url=/x base=/m");
    assert_eq!(srv.get("/mx").await.status, 404);
    assert_eq!(srv.get("/r/42").await.text(), "route 42");

    let mut loose = webfw::app();
    for i in 0..100 {
        loose.get(format!("/r/{i}").as_str(), numbered(i));
    }
    loose.get("/Plain", labelled("plain"));
    let srv = TestServer::start(loose).await;
    assert_eq!(srv.get("/pLAIN").await.text(), "plain");
    assert_eq!(srv.get("/plain/").await.text(), "plain");
}
