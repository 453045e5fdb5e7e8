//! `webfw::helmet` over a socket: each header's options, turning each off,
//! per-request CSP sources, and the options helmet refuses.

use crate::common;

use common::{HttpResponse, TestServer};
use webfw::helmet::{
    ContentSecurityPolicy, Helmet, HelmetOptions, Source, StrictTransportSecurity, Toggle,
};
use webfw::prelude::*;

const DEFAULT_CSP: &str = "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests";

/// helmet()'s headers, in the order helmet sets them.
const DEFAULTS: [(&str, &str); 12] = [
    ("content-security-policy", DEFAULT_CSP),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
    ("origin-agent-cluster", "?1"),
    ("referrer-policy", "no-referrer"),
    (
        "strict-transport-security",
        "max-age=31536000; includeSubDomains",
    ),
    ("x-content-type-options", "nosniff"),
    ("x-dns-prefetch-control", "off"),
    ("x-download-options", "noopen"),
    ("x-frame-options", "SAMEORIGIN"),
    ("x-permitted-cross-domain-policies", "none"),
    ("x-xss-protection", "0"),
];

async fn fetch(opts: HelmetOptions) -> HttpResponse {
    let mut app = webfw::app();
    app.use_(webfw::helmet(opts));
    app.get("/", |_req: &mut Request, res: &mut Response| {
        res.send("<p>helmet</p>")
    });
    TestServer::start(app).await.get("/").await
}

#[tokio::test]
async fn defaults_set_twelve_headers_in_order_and_drop_x_powered_by() {
    let res = fetch(HelmetOptions::new()).await;
    let got: Vec<(&str, &str)> = res
        .headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .filter(|(k, _)| DEFAULTS.iter().any(|(d, _)| d == k))
        .collect();
    assert_eq!(got, DEFAULTS);
    assert!(!res.has_header("x-powered-by"));
    assert!(!res.has_header("cross-origin-embedder-policy"));
}

#[tokio::test]
async fn every_header_can_be_turned_off() {
    let opts = HelmetOptions::new()
        .content_security_policy(false)
        .cross_origin_opener_policy(false)
        .cross_origin_resource_policy(false)
        .origin_agent_cluster(false)
        .referrer_policy(false)
        .strict_transport_security(false)
        .x_content_type_options(false)
        .x_dns_prefetch_control(false)
        .x_download_options(false)
        .x_frame_options(false)
        .x_permitted_cross_domain_policies(false)
        .x_powered_by(false)
        .x_xss_protection(false);
    let res = fetch(opts).await;
    for (name, _) in DEFAULTS {
        assert!(!res.has_header(name), "{name} is still set");
    }
    assert_eq!(res.header("x-powered-by"), Some("webfw"));
    assert_eq!(res.body, b"<p>helmet</p>");
}

#[tokio::test]
async fn each_header_takes_its_options() {
    let opts = HelmetOptions::new()
        .content_security_policy(
            ContentSecurityPolicy::new()
                .use_defaults(false)
                .directive("defaultSrc", "'none'")
                .directive("imgSrc", ["'self'", "img.example"])
                .directive("upgradeInsecureRequests", [""; 0]),
        )
        .cross_origin_embedder_policy("credentialless")
        .cross_origin_opener_policy("same-origin-allow-popups")
        .cross_origin_resource_policy("cross-origin")
        .referrer_policy("strict-origin-when-cross-origin")
        .strict_transport_security(
            StrictTransportSecurity::new()
                .max_age(600)
                .include_sub_domains(false)
                .preload(true),
        )
        .x_dns_prefetch_control(Toggle::With(true))
        .x_frame_options("same-origin")
        .x_permitted_cross_domain_policies("by-content-type");
    let res = fetch(opts).await;
    let expect = [
        (
            "content-security-policy",
            "default-src 'none';img-src 'self' img.example;upgrade-insecure-requests",
        ),
        ("cross-origin-embedder-policy", "credentialless"),
        ("cross-origin-opener-policy", "same-origin-allow-popups"),
        ("cross-origin-resource-policy", "cross-origin"),
        ("referrer-policy", "strict-origin-when-cross-origin"),
        ("strict-transport-security", "max-age=600; preload"),
        ("x-dns-prefetch-control", "on"),
        ("x-frame-options", "SAMEORIGIN"),
        ("x-permitted-cross-domain-policies", "by-content-type"),
    ];
    for (name, value) in expect {
        assert_eq!(res.header(name), Some(value), "{name}");
    }
}

#[tokio::test]
async fn csp_report_only_and_a_nonce_made_per_request() {
    let mut app = webfw::app();
    app.use_(|_req: &mut Request, res: &mut Response| {
        res.locals_mut().insert("nonce".into(), "r4nd0m".into());
        next()
    });
    let nonce = Source::function(|_req, res| {
        format!("'nonce-{}'", res.locals()["nonce"].as_str().unwrap_or(""))
    });
    app.use_(webfw::helmet(
        HelmetOptions::new().content_security_policy(
            ContentSecurityPolicy::new()
                .report_only(true)
                .use_defaults(false)
                .directive("default-src", "'self'")
                .directive("script-src", vec![Source::from("'self'"), nonce]),
        ),
    ));
    app.get("/", |_req: &mut Request, res: &mut Response| res.send("ok"));
    let res = TestServer::start(app).await.get("/").await;
    assert!(!res.has_header("content-security-policy"));
    assert_eq!(
        res.header("content-security-policy-report-only"),
        Some("default-src 'self';script-src 'self' 'nonce-r4nd0m'")
    );
}

#[tokio::test]
async fn a_source_function_helmet_refuses_fails_the_request() {
    let mut app = webfw::app();
    app.use_(webfw::helmet(
        HelmetOptions::new().content_security_policy(
            ContentSecurityPolicy::new()
                .directive("script-src", Source::function(|_, _| "self".into())),
        ),
    ));
    app.get("/", |_req: &mut Request, res: &mut Response| {
        res.send("never")
    });
    app.use_(|err: Error, _req: &mut Request, res: &mut Response| {
        res.status(500).send(err.to_string())
    });
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(res.status, 500);
    assert_eq!(
        String::from_utf8_lossy(&res.body),
        r#"Content-Security-Policy received an invalid directive value for "script-src". "self" should be quoted"#
    );
    // Nothing was set before the error.
    assert!(!res.has_header("x-frame-options"));
}

#[test]
fn options_helmet_refuses_are_reported_with_its_messages() {
    let err = |o: HelmetOptions| Helmet::try_new(o).unwrap_err();
    assert_eq!(
        err(HelmetOptions::new().cross_origin_opener_policy("nope")),
        r#"Cross-Origin-Opener-Policy does not support the "nope" policy"#
    );
    assert_eq!(
        err(HelmetOptions::new().cross_origin_resource_policy("nope")),
        r#"Cross-Origin-Resource-Policy does not support the "nope" policy"#
    );
    assert_eq!(
        err(HelmetOptions::new().referrer_policy(["origin", "nope"])),
        r#"Referrer-Policy received an unexpected policy token "nope""#
    );
    assert_eq!(
        err(HelmetOptions::new().content_security_policy(
            ContentSecurityPolicy::new()
                .use_defaults(false)
                .directive("img-src", "x")
        )),
        "Content-Security-Policy needs a default-src but none was provided. If you really want to disable it, set it to `contentSecurityPolicy.dangerouslyDisableDefaultSrc`."
    );
    let bell = err(HelmetOptions::new().content_security_policy(
        ContentSecurityPolicy::new()
            .use_defaults(false)
            .directive("default-src", "a\u{7}"),
    ));
    assert_eq!(
        bell,
        r#"content-security-policy: "default-src a\u{7}" holds a character a header cannot carry; use visible ASCII"#
    );
    let panicked =
        std::panic::catch_unwind(|| webfw::helmet(HelmetOptions::new().x_frame_options("allow")));
    assert!(panicked.is_err());
}
