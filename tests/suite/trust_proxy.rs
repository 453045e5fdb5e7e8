//! `trust proxy` in every form (booleans, hop counts, addresses, CIDR and
//! netmask ranges, the names loopback/linklocal/uniquelocal, lists,
//! functions) and what it changes: `req.ip`, `req.ips`, `req.protocol`,
//! `req.secure`, `req.hostname`. The test client always connects from
//! 127.0.0.1.

use crate::common;

use common::{Log, TestServer};
use serde_json::{Value, json};
use webfw::Setting;
use webfw::prelude::*;

fn echo(req: &mut Request, res: &mut Response) -> Result {
    let v = json!({
        "ip": req.ip(),
        "ips": req.ips(),
        "protocol": req.protocol(),
        "secure": req.secure(),
        "hostname": req.hostname(),
        "subdomains": req.subdomains(),
    });
    res.json(&v)
}

async fn server(trust: Option<Setting>) -> TestServer {
    let mut app = webfw::app();
    if let Some(t) = trust {
        app.set("trust proxy", t);
    }
    app.get("/", echo);
    TestServer::start(app).await
}

async fn ask(srv: &TestServer, headers: &[(&str, &str)]) -> Value {
    srv.get_with("/", headers).await.json()
}

async fn ip_and_ips(trust: Setting, xff: &str) -> (Value, Value) {
    let srv = server(Some(trust)).await;
    let v = ask(&srv, &[("X-Forwarded-For", xff)]).await;
    (v["ip"].clone(), v["ips"].clone())
}

const XFF: &str = "1.1.1.1, 2.2.2.2";

fn untrusted() -> (Value, Value) {
    (json!("127.0.0.1"), json!([]))
}
fn one_hop() -> (Value, Value) {
    (json!("2.2.2.2"), json!(["2.2.2.2"]))
}
fn whole_chain() -> (Value, Value) {
    (json!("1.1.1.1"), json!(["1.1.1.1", "2.2.2.2"]))
}

#[tokio::test]
async fn default_trusts_nothing() {
    let srv = server(None).await;
    let v = ask(&srv, &[("X-Forwarded-For", XFF)]).await;
    assert_eq!((v["ip"].clone(), v["ips"].clone()), untrusted());
}

#[tokio::test]
async fn boolean_values() {
    assert_eq!(ip_and_ips(false.into(), XFF).await, untrusted());
    assert_eq!(ip_and_ips(true.into(), XFF).await, whole_chain());
}

#[tokio::test]
async fn hop_counts() {
    assert_eq!(ip_and_ips(0.into(), XFF).await, untrusted());
    assert_eq!(ip_and_ips(1.into(), XFF).await, one_hop());
    assert_eq!(ip_and_ips(2.into(), XFF).await, whole_chain());
    assert_eq!(ip_and_ips(5.into(), XFF).await, whole_chain());
}

#[tokio::test]
async fn addresses_and_lists() {
    assert_eq!(ip_and_ips("127.0.0.1".into(), XFF).await, one_hop());
    assert_eq!(
        ip_and_ips("loopback, 2.2.2.2".into(), XFF).await,
        whole_chain()
    );
    assert_eq!(
        ip_and_ips(["loopback", "2.2.2.2"].into(), XFF).await,
        whole_chain()
    );
    assert_eq!(
        ip_and_ips(vec!["127.0.0.1", "2.2.2.2"].into(), XFF).await,
        whole_chain()
    );
    assert_eq!(ip_and_ips("10.0.0.1".into(), XFF).await, untrusted());
}

#[tokio::test]
async fn cidr_and_netmask_ranges() {
    assert_eq!(ip_and_ips("127.0.0.0/8".into(), XFF).await, one_hop());
    assert_eq!(
        ip_and_ips("127.0.0.0/255.0.0.0".into(), XFF).await,
        one_hop()
    );
    assert_eq!(
        ip_and_ips("127.0.0.0/8, 2.0.0.0/8".into(), XFF).await,
        whole_chain()
    );
    assert_eq!(ip_and_ips("10.0.0.0/8".into(), XFF).await, untrusted());
    assert_eq!(ip_and_ips("::ffff:127.0.0.1".into(), XFF).await, one_hop());
}

#[tokio::test]
async fn named_ranges() {
    assert_eq!(ip_and_ips("loopback".into(), XFF).await, one_hop());
    assert_eq!(ip_and_ips("linklocal".into(), XFF).await, untrusted());
    assert_eq!(ip_and_ips("uniquelocal".into(), XFF).await, untrusted());
    assert_eq!(
        ip_and_ips("loopback, linklocal".into(), "8.8.8.8, 169.254.1.1").await,
        (json!("8.8.8.8"), json!(["8.8.8.8", "169.254.1.1"]))
    );
    assert_eq!(
        ip_and_ips("loopback, linklocal".into(), "8.8.8.8, 10.0.0.1").await,
        (json!("10.0.0.1"), json!(["10.0.0.1"]))
    );
    assert_eq!(
        ip_and_ips(
            "loopback, uniquelocal".into(),
            "8.8.8.8, 10.0.0.1, 172.16.0.1, 192.168.1.1"
        )
        .await,
        (
            json!("8.8.8.8"),
            json!(["8.8.8.8", "10.0.0.1", "172.16.0.1", "192.168.1.1"])
        )
    );
    assert_eq!(
        ip_and_ips(
            "loopback, uniquelocal".into(),
            "10.0.0.1, 8.8.8.8, 10.0.0.2"
        )
        .await,
        (json!("8.8.8.8"), json!(["8.8.8.8", "10.0.0.2"]))
    );
}

#[tokio::test]
async fn function_values() {
    assert_eq!(
        ip_and_ips(Setting::trust_fn(|ip, _| ip.is_loopback()), XFF).await,
        one_hop()
    );
    assert_eq!(
        ip_and_ips(Setting::trust_fn(|_, hop| hop < 2), XFF).await,
        whole_chain()
    );
    assert_eq!(
        ip_and_ips(Setting::trust_fn(|_, _| false), XFF).await,
        untrusted()
    );
}

#[tokio::test]
async fn trust_function_is_called_with_address_and_hop_until_untrusted() {
    let log = Log::new();
    let l = log.clone();
    let mut app = webfw::app();
    app.set(
        "trust proxy",
        Setting::trust_fn(move |ip, hop| {
            l.push(format!("{ip}@{hop}"));
            ip.to_string() != "2.2.2.2"
        }),
    );
    app.get("/", |req: &mut Request, res: &mut Response| {
        res.send(req.ip())
    });
    let srv = TestServer::start(app).await;
    let res = srv
        .get_with("/", &[("X-Forwarded-For", "1.1.1.1, 2.2.2.2")])
        .await;
    assert_eq!(res.text(), "2.2.2.2");
    assert_eq!(log.entries(), ["127.0.0.1@0", "2.2.2.2@1"]);
}

#[tokio::test]
async fn forwarded_for_entries_are_trimmed_and_empty_ones_dropped() {
    assert_eq!(
        ip_and_ips(true.into(), " 1.1.1.1,, 2.2.2.2 ,").await,
        whole_chain()
    );
}

#[tokio::test]
async fn trusted_without_forwarded_for_uses_the_peer() {
    let srv = server(Some(true.into())).await;
    let v = ask(&srv, &[]).await;
    assert_eq!((v["ip"].clone(), v["ips"].clone()), untrusted());
}

// ---- protocol / secure ----

#[tokio::test]
async fn protocol_comes_from_x_forwarded_proto_when_the_peer_is_trusted() {
    let srv = server(Some(true.into())).await;
    let cases = [
        ("https", "https", true),
        ("http", "http", false),
        ("https, http", "https", true),
        (" https , http", "https", true),
        ("HTTPS", "HTTPS", false),
    ];
    for (header, protocol, secure) in cases {
        let v = ask(&srv, &[("X-Forwarded-Proto", header)]).await;
        assert_eq!(v["protocol"], protocol, "{header:?}");
        assert_eq!(v["secure"], secure, "{header:?}");
    }
    let v = ask(&srv, &[]).await;
    assert_eq!(v["protocol"], "http");
}

#[tokio::test]
async fn protocol_ignores_x_forwarded_proto_from_an_untrusted_peer() {
    for trust in [
        None,
        Some(Setting::from("10.0.0.0/8")),
        Some(Setting::from(0)),
    ] {
        let srv = server(trust).await;
        let v = ask(&srv, &[("X-Forwarded-Proto", "https")]).await;
        assert_eq!(v["protocol"], "http");
        assert_eq!(v["secure"], false);
    }
}

#[tokio::test]
async fn protocol_trusts_the_first_hop_with_a_hop_count() {
    let srv = server(Some(1.into())).await;
    let v = ask(&srv, &[("X-Forwarded-Proto", "https")]).await;
    assert_eq!(v["protocol"], "https");
}

// ---- hostname ----

#[tokio::test]
async fn hostname_comes_from_x_forwarded_host_when_trusted() {
    let srv = server(Some(true.into())).await;
    let cases = [
        ("example.org", "example.org"),
        ("example.org:8080", "example.org"),
        ("a.com, b.com", "a.com"),
        ("a.com ,b.com", "a.com"),
        ("[::1]:80", "[::1]"),
    ];
    for (header, want) in cases {
        let v = ask(&srv, &[("X-Forwarded-Host", header)]).await;
        assert_eq!(v["hostname"], want, "{header:?}");
    }
    let v = ask(&srv, &[("X-Forwarded-Host", "tobi.ferrets.example.com")]).await;
    assert_eq!(v["subdomains"], json!(["ferrets", "tobi"]));
    let v = ask(&srv, &[]).await;
    assert_eq!(v["hostname"], "localhost");
}

#[tokio::test]
async fn hostname_ignores_x_forwarded_host_from_an_untrusted_peer() {
    let srv = server(None).await;
    let v = ask(&srv, &[("X-Forwarded-Host", "evil.example")]).await;
    assert_eq!(v["hostname"], "localhost");
}
