//! express-rate-limit over a socket: the default answer and headers, the
//! limit as a function (sync and async), skipFailedRequests and
//! skipSuccessfulRequests, the memory store's bound, `req.rateLimit`.

use crate::common;

use std::time::Duration;

use common::{HttpResponse, TestServer};
use serde_json::json;
use webfw::prelude::*;
use webfw::rate_limit::{Draft, MemoryStore, Message, RateLimitOptions};

fn by_client(req: &Request) -> String {
    req.get("x-client").unwrap_or("anonymous").to_owned()
}

async fn server(options: RateLimitOptions) -> TestServer {
    let mut app = webfw::app();
    app.use_(webfw::rate_limit(options));
    app.get("/", |req: &mut Request, res: &mut Response| {
        if req.query()["fail"].is_string() {
            return res.status(500).send("failed");
        }
        res.json(&json!({ "info": req.rate_limit() }))
    });
    TestServer::start(app).await
}

async fn hit(srv: &TestServer, path: &str, client: &str) -> HttpResponse {
    srv.get_with(path, &[("X-Client", client)]).await
}

fn remaining(res: &HttpResponse) -> &str {
    res.header("x-ratelimit-remaining")
        .expect("X-RateLimit-Remaining")
}

#[tokio::test]
async fn past_the_limit_the_default_answer_is_429_with_retry_after() {
    let srv = server(
        RateLimitOptions::new()
            .limit(2)
            .window(Duration::from_secs(3600)),
    )
    .await;
    let res = srv.get("/").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("x-ratelimit-limit"), Some("2"));
    assert_eq!(remaining(&res), "1");
    let reset: u64 = res.header("x-ratelimit-reset").unwrap().parse().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    assert!(
        (now + 3590..=now + 3601).contains(&reset),
        "reset {reset}, now {now}"
    );
    // The default key is the client's address.
    assert_eq!(res.json()["info"]["key"], "127.0.0.1");
    assert_eq!(res.json()["info"]["used"], 1);
    assert!(
        res.json()["info"]["resetTime"]
            .as_str()
            .unwrap()
            .ends_with('Z')
    );

    assert_eq!(srv.get("/").await.status, 200);
    let res = srv.get("/").await;
    assert_eq!(res.status, 429);
    assert_eq!(res.text(), "Too many requests, please try again later.");
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(remaining(&res), "0");
    let retry: u64 = res.header("retry-after").unwrap().parse().unwrap();
    assert!((3590..=3600).contains(&retry), "Retry-After {retry}");
    // No standard headers unless asked for.
    assert!(!res.has_header("ratelimit-limit") && !res.has_header("ratelimit"));
}

#[tokio::test]
async fn the_limit_may_be_a_function_of_the_request() {
    let srv = server(
        RateLimitOptions::new()
            .key_generator(by_client)
            .limit_fn(|req, _res| {
                if req.get("x-plan") == Some("premium") {
                    3
                } else {
                    1
                }
            }),
    )
    .await;
    assert_eq!(hit(&srv, "/", "free").await.status, 200);
    assert_eq!(hit(&srv, "/", "free").await.status, 429);
    for left in ["2", "1", "0"] {
        let res = srv
            .get_with("/", &[("X-Client", "gold"), ("X-Plan", "premium")])
            .await;
        assert_eq!((res.status, remaining(&res)), (200, left));
    }

    let srv = server(
        RateLimitOptions::new()
            .key_generator(by_client)
            .limit_async(|req, _res| {
                let plan = req.get("x-plan").map(str::to_owned);
                Box::pin(async move {
                    tokio::task::yield_now().await;
                    if plan.as_deref() == Some("premium") {
                        2
                    } else {
                        1
                    }
                })
            })
            .message(Message::from_fn(|req, _res| {
                json!({ "error": "slow down", "client": req.get("x-client") }).into()
            }))
            .status_code(503),
    )
    .await;
    assert_eq!(hit(&srv, "/", "a").await.status, 200);
    let res = hit(&srv, "/", "a").await;
    assert_eq!(res.status, 503);
    assert_eq!(res.json(), json!({"error": "slow down", "client": "a"}));
    let premium = [("X-Client", "b"), ("X-Plan", "premium")];
    assert_eq!(srv.get_with("/", &premium).await.status, 200);
    assert_eq!(srv.get_with("/", &premium).await.status, 200);
    assert_eq!(srv.get_with("/", &premium).await.status, 503);
}

#[tokio::test]
async fn skip_failed_requests_does_not_count_failures() {
    let srv = server(
        RateLimitOptions::new()
            .limit(1)
            .key_generator(by_client)
            .skip_failed_requests(true),
    )
    .await;
    // Failures are counted while they run, then taken back.
    for _ in 0..3 {
        let res = hit(&srv, "/?fail", "c").await;
        assert_eq!((res.status, remaining(&res)), (500, "0"));
    }
    assert_eq!(hit(&srv, "/", "c").await.status, 200);
    assert_eq!(hit(&srv, "/", "c").await.status, 429);

    // requestWasSuccessful decides what failed.
    let srv = server(
        RateLimitOptions::new()
            .limit(1)
            .key_generator(by_client)
            .skip_failed_requests(true)
            .request_was_successful(|_req, res| res.status_code() != 200),
    )
    .await;
    assert_eq!(hit(&srv, "/", "d").await.status, 200);
    assert_eq!(hit(&srv, "/", "d").await.status, 200);
    assert_eq!(hit(&srv, "/?fail", "d").await.status, 500);
    assert_eq!(hit(&srv, "/", "d").await.status, 429);
}

#[tokio::test]
async fn skip_successful_requests_counts_only_failures() {
    let srv = server(
        RateLimitOptions::new()
            .limit(1)
            .key_generator(by_client)
            .skip_successful_requests(true),
    )
    .await;
    for _ in 0..3 {
        assert_eq!(hit(&srv, "/", "e").await.status, 200);
    }
    assert_eq!(hit(&srv, "/?fail", "e").await.status, 500);
    assert_eq!(hit(&srv, "/", "e").await.status, 429);
}

#[tokio::test]
async fn the_memory_store_starts_over_past_its_bound() {
    let srv = server(
        RateLimitOptions::new()
            .limit(5)
            .key_generator(by_client)
            .store(MemoryStore::new().max_keys(2)),
    )
    .await;
    assert_eq!(remaining(&hit(&srv, "/", "a").await), "4");
    assert_eq!(remaining(&hit(&srv, "/", "a").await), "3");
    assert_eq!(remaining(&hit(&srv, "/", "b").await), "4");
    // A third client passes the bound: the store starts over.
    assert_eq!(remaining(&hit(&srv, "/", "c").await), "4");
    assert_eq!(remaining(&hit(&srv, "/", "a").await), "4");
    // Within the bound, counts are kept.
    assert_eq!(remaining(&hit(&srv, "/", "c").await), "3");
}

#[tokio::test]
async fn standard_headers_skip_and_handler() {
    let srv = server(
        RateLimitOptions::new()
            .limit(2)
            .key_generator(by_client)
            .standard_headers(Draft::Draft8)
            .legacy_headers(false)
            .skip(|req, _res| req.get("x-admin") == Some("yes"))
            .handler(|req, res, opts| {
                let used = req.rate_limit().map_or(0, |i| i.used);
                res.status(opts.status_code_value())
                    .json(&json!({ "limited": true, "used": used }))
            }),
    )
    .await;
    let res = hit(&srv, "/", "f").await;
    let rl = res.header("ratelimit").unwrap();
    assert!(rl.starts_with("\"2-in-1min\"; r=1; t="), "{rl}");
    assert_eq!(
        res.header("ratelimit-policy"),
        Some("\"2-in-1min\"; q=2; w=60; pk=:MjUyZjEwYzgzNjEw:")
    );
    assert!(!res.has_header("x-ratelimit-limit"));
    hit(&srv, "/", "f").await;
    let res = hit(&srv, "/", "f").await;
    assert_eq!(res.status, 429);
    assert_eq!(res.json(), json!({"limited": true, "used": 3}));
    assert!(res.has_header("retry-after"));
    // Skipped: neither counted nor limited, no headers.
    let res = srv
        .get_with("/", &[("X-Client", "f"), ("X-Admin", "yes")])
        .await;
    assert_eq!(res.status, 200);
    assert!(!res.has_header("ratelimit"));
    assert_eq!(res.json(), json!({"info": null}));
}
