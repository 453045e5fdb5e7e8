//! tower both ways, over real sockets: tower-http layers in front of webfw
//! routes (`webfw::tower`), and a webfw app served inside an axum router
//! (`App::into_service` with `Router::nest_service`).

use crate::common;

use std::io::Read;
use std::time::Duration;

use common::{TestServer, request};
use http::{HeaderValue, Method, StatusCode, header};
use tower_http::compression::CompressionLayer;
use tower_http::cors::CorsLayer;
use tower_http::timeout::TimeoutLayer;
use webfw::prelude::*;

fn items(_req: &mut Request, res: &mut Response) -> Result {
    res.send("items")
}

fn cors() -> CorsLayer {
    CorsLayer::new()
        .allow_origin("https://a.example".parse::<HeaderValue>().unwrap())
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::CONTENT_TYPE])
        .max_age(Duration::from_secs(600))
}

#[tokio::test]
async fn a_cors_preflight_is_answered_by_the_layer() {
    let mut app = webfw::app();
    app.use_(webfw::tower(cors()));
    app.options("/items", |_req: &mut Request, res: &mut Response| {
        res.send("the route must not answer a preflight")
    });
    let server = TestServer::start(app).await;
    let res = server
        .call(
            "OPTIONS",
            "/items",
            &[
                ("Origin", "https://a.example"),
                ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
            ],
        )
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("https://a.example")
    );
    assert_eq!(res.header("access-control-allow-methods"), Some("GET,POST"));
    assert_eq!(
        res.header("access-control-allow-headers"),
        Some("content-type")
    );
    assert_eq!(res.header("access-control-max-age"), Some("600"));
    assert_eq!(res.header("content-length"), Some("0"));
    assert_eq!(res.text(), "");
}

#[tokio::test]
async fn a_simple_cors_request_gets_the_route_and_the_layers_headers() {
    let mut app = webfw::app();
    app.use_(webfw::tower(cors()));
    app.get("/items", items);
    let server = TestServer::start(app).await;
    let res = server
        .get_with("/items", &[("Origin", "https://a.example")])
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "items");
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("https://a.example")
    );
    // webfw's own headers come through the layer untouched.
    assert_eq!(res.header("x-powered-by"), Some("webfw"));
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(
        res.header("etag"),
        Some("W/\"5-cxbIsudIcNnX6dMLvCjs9M35Re4\"")
    );
    // The final handler's 404 passes through the layer too.
    let res = server
        .get_with("/nothing", &[("Origin", "https://a.example")])
        .await;
    assert_eq!(res.status, 404);
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("https://a.example")
    );
    assert!(res.text().contains("Cannot GET /nothing"));
}

fn big(_req: &mut Request, res: &mut Response) -> Result {
    res.type_("text/plain").send(text())
}

fn text() -> String {
    "webfw compresses through tower-http. ".repeat(300)
}

#[tokio::test]
async fn compression_gzips_a_webfw_body_that_decodes_to_the_original() {
    let mut app = webfw::app();
    app.use_(webfw::tower(CompressionLayer::new()));
    app.get("/big", big);
    app.get("/stream", |_req: &mut Request, res: &mut Response| {
        res.type_("text/plain");
        for _ in 0..300 {
            res.write("webfw compresses through tower-http. ")?;
        }
        res.end()
    });
    let server = TestServer::start(app).await;
    for path in ["/big", "/stream"] {
        let res = server.get_with(path, &[("Accept-Encoding", "gzip")]).await;
        assert_eq!(res.status, 200, "{path}");
        assert_eq!(res.header("content-encoding"), Some("gzip"), "{path}");
        assert_eq!(
            res.header("content-type"),
            Some("text/plain; charset=utf-8")
        );
        assert!(
            res.body.len() < text().len() / 10,
            "{path}: {} bytes",
            res.body.len()
        );
        let mut decoded = String::new();
        flate2::read::GzDecoder::new(&res.body[..])
            .read_to_string(&mut decoded)
            .expect("a gzip body");
        assert_eq!(decoded, text(), "{path}");
    }
    let plain = server.get("/big").await;
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(plain.text(), text());
}

#[tokio::test]
async fn a_slow_handler_gets_the_timeout_layers_status() {
    let mut app = webfw::app();
    app.use_(webfw::tower(TimeoutLayer::with_status_code(
        StatusCode::SERVICE_UNAVAILABLE,
        Duration::from_millis(50),
    )));
    app.get("/fast", items);
    app.get(
        "/never",
        async |_req: &mut Request, res: &mut Response| -> Result {
            std::future::pending::<()>().await;
            res.send("never")
        },
    );
    let server = TestServer::start(app).await;
    let res = server.get("/never").await;
    assert_eq!(res.status, 503);
    assert_eq!(res.text(), "");
    let res = server.get("/fast").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "items");
}

#[tokio::test]
async fn layers_nest_and_run_in_order() {
    let mut app = webfw::app();
    app.use_(webfw::tower(cors()));
    app.use_(webfw::tower(CompressionLayer::new()));
    app.get("/big", big);
    let server = TestServer::start(app).await;
    let res = server
        .get_with(
            "/big",
            &[("Origin", "https://a.example"), ("Accept-Encoding", "gzip")],
        )
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("https://a.example")
    );
    let mut decoded = String::new();
    flate2::read::GzDecoder::new(&res.body[..])
        .read_to_string(&mut decoded)
        .expect("a gzip body");
    assert_eq!(decoded, text());
}

/// Serves an axum router on `127.0.0.1:0` with hyper, one task per connection.
async fn serve_axum(router: axum::Router) -> std::net::SocketAddr {
    use tower::ServiceExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let router = router.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req| router.clone().oneshot(req));
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    addr
}

#[tokio::test]
async fn a_webfw_app_serves_inside_an_axum_router() {
    let mut app = webfw::app();
    app.get("/users/:id", |req: &mut Request, res: &mut Response| {
        let id = req.param("id").unwrap_or_default().to_owned();
        let url = req.original_url().to_owned();
        res.json(&serde_json::json!({ "id": id, "url": url }))
    });
    let router = axum::Router::new()
        .route("/health", axum::routing::get(async || "axum ok"))
        .nest_service("/api", app.into_service());
    let addr = serve_axum(router).await;

    let res = common::parse_response(
        &common::send_raw(addr, &request("GET", "/api/users/7?x=1", &[])).await,
        false,
    );
    assert_eq!(res.status, 200);
    assert_eq!(
        res.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(res.header("x-powered-by"), Some("webfw"));
    assert_eq!(
        res.json(),
        serde_json::json!({ "id": "7", "url": "/users/7?x=1" })
    );

    let res = common::parse_response(
        &common::send_raw(addr, &request("GET", "/api/nothing", &[])).await,
        false,
    );
    assert_eq!(res.status, 404);
    assert!(res.text().contains("Cannot GET /nothing"), "{}", res.text());

    let res = common::parse_response(
        &common::send_raw(addr, &request("GET", "/health", &[])).await,
        false,
    );
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "axum ok");
}

#[tokio::test]
async fn the_request_a_layer_passes_on_reaches_the_handlers_with_its_body() {
    let mut app = webfw::app();
    app.use_(webfw::tower(tower::util::MapRequestLayer::new(
        |mut req: http::Request<webfw::RawBody>| {
            req.headers_mut()
                .insert("x-tenant", HeaderValue::from_static("acme"));
            req
        },
    )));
    app.use_(webfw::json(Default::default()));
    app.post("/echo", |req: &mut Request, res: &mut Response| {
        let tenant = req.get("x-tenant").unwrap_or("-").to_owned();
        let body = req.body().as_value().cloned().unwrap_or_default();
        res.json(&serde_json::json!({ "tenant": tenant, "body": body }))
    });
    let server = TestServer::start(app).await;
    let res = server
        .raw(
            "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{\"a\":1}\n",
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(
        res.json(),
        serde_json::json!({ "tenant": "acme", "body": { "a": 1 } })
    );
}

/// A layer whose service fails: before calling the rest of the stack
/// (`Early`), after it answered (`Late`), or when it calls it a second
/// time (`Twice`, a retry).
#[derive(Clone, Copy, Debug)]
enum Mode {
    Early,
    Late,
    Twice,
}

#[derive(Clone)]
struct Failing {
    mode: Mode,
}

impl<S> tower::Layer<S> for Failing {
    type Service = FailingService<S>;
    fn layer(&self, inner: S) -> FailingService<S> {
        FailingService {
            inner,
            mode: self.mode,
        }
    }
}

struct FailingService<S> {
    inner: S,
    mode: Mode,
}

impl<S> tower::Service<http::Request<webfw::RawBody>> for FailingService<S>
where
    S: tower::Service<
            http::Request<webfw::RawBody>,
            Response = http::Response<webfw::tower::NextBody>,
            Error = webfw::BoxError,
        >,
    S::Future: Send + 'static,
{
    type Response = http::Response<webfw::tower::NextBody>;
    type Error = webfw::BoxError;
    type Future = std::pin::Pin<
        Box<
            dyn std::future::Future<Output = std::result::Result<Self::Response, webfw::BoxError>>
                + Send,
        >,
    >;
    fn poll_ready(
        &mut self,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::result::Result<(), webfw::BoxError>> {
        std::task::Poll::Ready(Ok(()))
    }
    fn call(&mut self, req: http::Request<webfw::RawBody>) -> Self::Future {
        match self.mode {
            Mode::Early => Box::pin(async { Err("refused early".into()) }),
            Mode::Late => {
                let inner = self.inner.call(req);
                Box::pin(async move {
                    let _ = inner.await;
                    Err("failed after the stack".into())
                })
            }
            Mode::Twice => {
                let first = self.inner.call(req);
                let second = self.inner.call(http::Request::new(webfw::RawBody::Empty));
                Box::pin(async move {
                    let _ = first.await?;
                    second.await
                })
            }
        }
    }
}

#[tokio::test]
async fn a_failing_layer_answers_with_a_500_page() {
    for mode in [Mode::Early, Mode::Late, Mode::Twice] {
        let mut app = webfw::app();
        app.set("env", "test");
        app.use_(webfw::tower(Failing { mode }));
        app.get("/", items);
        let server = TestServer::start(app).await;
        let res = server.get("/").await;
        assert_eq!(res.status, 500, "{mode:?}");
        assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
        assert!(res.text().contains("<pre>"), "{mode:?}: {}", res.text());
    }
}

#[tokio::test]
async fn a_panicking_handler_behind_a_layer_gets_the_error_page_with_the_layers_headers() {
    let mut app = webfw::app();
    app.set("env", "test");
    app.use_(webfw::tower(cors()));
    app.get(
        "/boom",
        |_req: &mut Request, _res: &mut Response| -> Result { panic!("boom") },
    );
    let server = TestServer::start(app).await;
    let res = server
        .get_with("/boom", &[("Origin", "https://a.example")])
        .await;
    assert_eq!(res.status, 500);
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("https://a.example")
    );
    assert!(res.text().contains("boom"), "{}", res.text());
}

#[tokio::test]
async fn a_session_behind_a_layer_is_saved_before_the_head_leaves() {
    let mut app = webfw::app();
    app.use_(webfw::tower(CompressionLayer::new()));
    app.use_(webfw::session(webfw::session::SessionOptions::new(
        "keyboard cat",
    )));
    app.get("/count", |req: &mut Request, res: &mut Response| {
        let n = req.session().get::<u64>("n").unwrap_or(0) + 1;
        req.session().set("n", n)?;
        res.send(n.to_string())
    });
    let server = TestServer::start(app).await;
    let first = server.get("/count").await;
    assert_eq!(first.text(), "1");
    let cookie = first
        .header("set-cookie")
        .expect("the session cookie")
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let second = server.get_with("/count", &[("Cookie", &cookie)]).await;
    assert_eq!(second.text(), "2", "the first request's save landed");
}
