//! `webfw::cors` over a socket: what the conformance kit's routes do not
//! reach (an async origin function, origin values a function decides,
//! `Vary` merged with an earlier one, the preflight's exact bytes).

use crate::common;

use common::TestServer;
use webfw::cors::{CorsOptions, Origin, OriginMatch, Regex};
use webfw::prelude::*;

fn app(opts: CorsOptions) -> webfw::App {
    let mut app = webfw::app();
    app.use_(webfw::cors(opts));
    app.all("/*", |req: &mut Request, res: &mut Response| {
        let body = format!("{} {}", req.method(), req.url());
        res.send(body)
    });
    app
}

#[tokio::test]
async fn an_async_origin_function_decides_after_awaiting() {
    let opts = CorsOptions::new().origin(Origin::function_async(
        |origin: Option<String>| async move {
            tokio::task::yield_now().await;
            match origin.as_deref() {
                Some("http://boom.example") => Err(Error::new("origin store down")),
                o => Ok(Origin::from(o == Some("http://ok.example"))),
            }
        },
    ));
    let server = TestServer::start(app(opts)).await;
    let ok = server
        .get_with("/a", &[("Origin", "http://ok.example")])
        .await;
    assert_eq!(ok.status, 200);
    assert_eq!(
        ok.header("access-control-allow-origin"),
        Some("http://ok.example")
    );
    assert_eq!(ok.header("vary"), Some("Origin"));
    // Deciding `false` passes the request on untouched.
    let no = server
        .get_with("/a", &[("Origin", "http://no.example")])
        .await;
    assert_eq!(no.status, 200);
    assert!(!no.has_header("access-control-allow-origin"));
    assert!(!no.has_header("vary"));
    let boom = server
        .get_with("/a", &[("Origin", "http://boom.example")])
        .await;
    assert_eq!(boom.status, 500);
}

#[tokio::test]
async fn a_function_may_answer_with_any_origin_value() {
    let opts = CorsOptions::new().origin(Origin::function(|origin| {
        Ok(match origin {
            Some(o) if o.ends_with(".fixed") => "http://fixed.example".into(),
            Some(o) if o.ends_with(".star") => "*".into(),
            _ => Origin::list([
                OriginMatch::from("http://a.example"),
                OriginMatch::from(Regex::new(r"\.b\.example$").unwrap()),
            ]),
        })
    }));
    let server = TestServer::start(app(opts)).await;
    let fixed = server.get_with("/", &[("Origin", "http://x.fixed")]).await;
    assert_eq!(
        fixed.header("access-control-allow-origin"),
        Some("http://fixed.example")
    );
    assert_eq!(fixed.header("vary"), Some("Origin"));
    let star = server.get_with("/", &[("Origin", "http://x.star")]).await;
    assert_eq!(star.header("access-control-allow-origin"), Some("*"));
    assert!(!star.has_header("vary"));
    let listed = server
        .get_with("/", &[("Origin", "http://q.b.example")])
        .await;
    assert_eq!(
        listed.header("access-control-allow-origin"),
        Some("http://q.b.example")
    );
    let unlisted = server
        .get_with("/", &[("Origin", "http://c.example")])
        .await;
    assert!(!unlisted.has_header("access-control-allow-origin"));
    assert_eq!(unlisted.header("vary"), Some("Origin"));
}

#[tokio::test]
async fn the_preflight_answer_is_a_204_with_content_length_zero() {
    let server = TestServer::start(app(CorsOptions::new())).await;
    let raw = server
        .raw_bytes(common::request(
            "OPTIONS",
            "/a",
            &[
                ("Origin", "http://x.example"),
                ("Access-Control-Request-Method", "PUT"),
            ],
        ))
        .await;
    let text = String::from_utf8(raw).unwrap();
    assert!(text.starts_with("HTTP/1.1 204 No Content\r\n"), "{text}");
    assert!(text.contains("\r\ncontent-length: 0\r\n"), "{text}");
    assert!(text.ends_with("\r\n\r\n"), "no body: {text}");
    // Without Access-Control-Request-Headers nothing is reflected, but the
    // answer still varies on it.
    assert!(
        text.contains("\r\nvary: Access-Control-Request-Headers\r\n"),
        "{text}"
    );
    assert!(!text.contains("access-control-allow-headers"), "{text}");
}

#[tokio::test]
async fn vary_is_appended_to_an_earlier_value_and_repeated_headers_are_joined() {
    let mut app = webfw::app();
    app.use_(|_req: &mut Request, res: &mut Response| {
        res.vary("Accept-Encoding");
        next()
    });
    app.use_(webfw::cors(CorsOptions::new().origin(true)));
    app.options("/x", |_req: &mut Request, res: &mut Response| {
        res.send("never")
    });
    let server = TestServer::start(app).await;
    let res = server
        .raw(
            "OPTIONS /x HTTP/1.1\r\nHost: h\r\nOrigin: http://o.example\r\n\
             Access-Control-Request-Headers: X-A\r\nAccess-Control-Request-Headers: X-B\r\n\
             Connection: close\r\n\r\n",
        )
        .await;
    assert_eq!(res.status, 204);
    assert_eq!(
        res.header("vary"),
        Some("Accept-Encoding, Origin, Access-Control-Request-Headers")
    );
    assert_eq!(res.header("access-control-allow-headers"), Some("X-A, X-B"));
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("http://o.example")
    );
}

#[tokio::test]
async fn origin_false_leaves_even_preflights_to_the_routes() {
    let server = TestServer::start(app(CorsOptions::new().origin(false))).await;
    let res = server
        .call("OPTIONS", "/p", &[("Origin", "http://a.example")])
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.body, b"OPTIONS /p");
    assert!(!res.has_header("access-control-allow-origin"));
    assert!(!res.has_header("access-control-allow-methods"));
}

#[tokio::test]
async fn actual_requests_get_credentials_and_exposed_headers_but_no_preflight_headers() {
    let opts = CorsOptions::new()
        .origin("http://a.example")
        .credentials(true)
        .exposed_headers("X-Total")
        .max_age(60)
        .allowed_headers(["X-A"]);
    let server = TestServer::start(app(opts)).await;
    let res = server
        .call("DELETE", "/d", &[("Origin", "http://z.example")])
        .await;
    assert_eq!(res.body, b"DELETE /d");
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("http://a.example")
    );
    assert_eq!(res.header("access-control-allow-credentials"), Some("true"));
    assert_eq!(res.header("access-control-expose-headers"), Some("X-Total"));
    for absent in [
        "access-control-allow-methods",
        "access-control-allow-headers",
        "access-control-max-age",
    ] {
        assert!(!res.has_header(absent), "{absent}");
    }
}

#[tokio::test]
async fn a_delegate_works_the_options_out_per_request() {
    let mut app = webfw::app();
    app.use_at(
        "/sync",
        webfw::cors::delegate(|req| match req.get("x-tenant") {
            Some("bad") => Err(Error::new("unknown tenant")),
            Some(t) => Ok(CorsOptions::new().origin(format!("https://{t}.example"))),
            None => Ok(CorsOptions::new().origin(false)),
        }),
    );
    app.use_at(
        "/async",
        webfw::cors::delegate_async(|req| {
            let tenant = req.get("x-tenant").map(str::to_owned);
            async move {
                tokio::task::yield_now().await;
                // An async origin function under an async delegate.
                Ok(CorsOptions::new()
                    .max_age(5)
                    .origin(Origin::function_async(move |origin| {
                        let tenant = tenant.clone();
                        async move { Ok(Origin::from(origin.is_some() && tenant.is_some())) }
                    })))
            }
        }),
    );
    app.all("/*", |_req: &mut Request, res: &mut Response| {
        res.send("routed")
    });
    let server = TestServer::start(app).await;
    let res = server.get_with("/sync/a", &[("X-Tenant", "acme")]).await;
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("https://acme.example")
    );
    let res = server.get("/sync/a").await;
    assert_eq!(res.body, b"routed");
    assert!(!res.has_header("access-control-allow-origin"));
    let res = server.get_with("/sync/a", &[("X-Tenant", "bad")]).await;
    assert_eq!(res.status, 500);
    let res = server
        .call(
            "OPTIONS",
            "/async/a",
            &[("X-Tenant", "t"), ("Origin", "http://o.example")],
        )
        .await;
    assert_eq!(res.status, 204);
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("http://o.example")
    );
    assert_eq!(res.header("access-control-max-age"), Some("5"));
    let res = server
        .call("OPTIONS", "/async/a", &[("Origin", "http://o.example")])
        .await;
    assert_eq!(res.body, b"routed");
}
