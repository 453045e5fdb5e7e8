//! webfw behind a real nginx (Debian's `nginx`), started by each test as a
//! process of its own on 127.0.0.1 with `tests/nginx/nginx.conf` (the config
//! the Deploying docs show): what `trust proxy` = `loopback` makes of nginx's
//! `X-Forwarded-*` headers over HTTP and HTTPS, upstream connections kept
//! alive, a 413 and downloads passed through intact, and two webfw processes
//! behind one upstream sharing a login through Redis.

use crate::common;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use common::redis::Redis;
use common::{HttpResponse, TestServer, guard};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use webfw::prelude::*;
use webfw::rustls::pki_types::ServerName;
use webfw::rustls::{self, ClientConfig, RootCertStore};
use webfw::session::{CookieOptions, RedisStore, Secure, SessionOptions};
use webfw::{JsonOptions, SendFileOptions};

const INSTALL_NGINX: &str = "install nginx: apt-get install nginx";
const SECRET: &str = "nginx test secret";

/// Two different ports no socket holds right now (both listeners are open
/// at once, so they differ). Another socket may take one before nginx binds
/// it: [`Nginx::try_start`] then fails.
fn two_free_ports() -> [u16; 2] {
    let bind = || TcpListener::bind("127.0.0.1:0").expect("a free port");
    let held = [bind(), bind()];
    held.map(|l| l.local_addr().expect("a bound address").port())
}

/// A directory of this test process, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(what: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "webfw-{what}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An nginx master process (and its worker) on two ports of its own, with
/// its pid file, logs, temp files and TLS key under a temporary prefix.
struct Nginx {
    child: Child,
    http: SocketAddr,
    https: SocketAddr,
    cert: rustls::pki_types::CertificateDer<'static>,
    prefix: TempDir,
}

impl Nginx {
    /// nginx with `tests/nginx/nginx.conf` in front of the apps on `ports`.
    async fn start(apps: [u16; 2]) -> Nginx {
        Nginx::start_edited(apps, |conf| conf).await
    }

    /// As [`Nginx::start`], with the config changed by `edit` first.
    async fn start_edited(apps: [u16; 2], edit: impl FnOnce(String) -> String) -> Nginx {
        let conf = edit(include_str!("../nginx/nginx.conf").to_owned());
        for _ in 0..10 {
            if let Some(nginx) = Nginx::try_start(&conf, apps).await {
                return nginx;
            }
        }
        panic!("nginx could not bind two free ports in 10 tries");
    }

    /// nginx with `conf` on two free ports; `None` when it could not bind
    /// them (another socket took one after [`two_free_ports`] chose it).
    async fn try_start(conf: &str, apps: [u16; 2]) -> Option<Nginx> {
        let prefix = TempDir::new("nginx");
        let [http, https] = two_free_ports().map(|p| SocketAddr::from(([127, 0, 0, 1], p)));
        let conf = conf
            .replace("@HTTP_PORT@", &http.port().to_string())
            .replace("@HTTPS_PORT@", &https.port().to_string())
            .replace("@APP_A@", &apps[0].to_string())
            .replace("@APP_B@", &apps[1].to_string());
        let unfilled = conf
            .lines()
            .find(|l| !l.trim_start().starts_with('#') && l.contains('@'));
        assert!(
            unfilled.is_none(),
            "a placeholder left unfilled: {unfilled:?}"
        );
        std::fs::write(prefix.0.join("nginx.conf"), conf).expect("write nginx.conf");

        let tls = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
        std::fs::write(prefix.0.join("cert.pem"), tls.cert.pem()).expect("write cert.pem");
        std::fs::write(prefix.0.join("key.pem"), tls.key_pair.serialize_pem())
            .expect("write key.pem");

        // Debian puts nginx in /usr/sbin, which a user's PATH may lack.
        let spawn = |exe: &str| {
            Command::new(exe)
                .arg("-p")
                .arg(&prefix.0)
                .args(["-c", "nginx.conf", "-e", "error.log", "-g", "daemon off;"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(
                    std::fs::File::create(prefix.0.join("stderr.log"))
                        .map_or_else(|_| Stdio::null(), Stdio::from),
                )
                .spawn()
        };
        let child = spawn("nginx")
            .or_else(|_| spawn("/usr/sbin/nginx"))
            .unwrap_or_else(|e| panic!("cannot start nginx ({e}): {INSTALL_NGINX}"));
        let mut nginx = Nginx {
            child,
            http,
            https,
            cert: tls.cert.der().clone(),
            prefix,
        };
        // nginx writes its pid file once it holds its ports: a connection
        // could reach another test's server on a port nginx failed to bind.
        let pid = nginx.prefix.0.join("nginx.pid");
        let bound = guard("nginx to bind its ports", async {
            loop {
                if let Ok(Some(status)) = nginx.child.try_wait() {
                    let log = std::fs::read_to_string(nginx.prefix.0.join("stderr.log"))
                        .unwrap_or_default();
                    assert!(
                        log.contains("Address already in use"),
                        "nginx exited at start ({status}); {INSTALL_NGINX}\n{log}"
                    );
                    return false;
                }
                if pid.exists() {
                    return true;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await;
        bound.then_some(nginx)
    }

    /// A request through nginx's plain HTTP port.
    async fn http(&self, method: &str, target: &str, headers: &[(&str, &str)]) -> HttpResponse {
        self.http_body(method, target, headers, b"").await
    }

    /// As [`Nginx::http`], with a request body.
    async fn http_body(
        &self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> HttpResponse {
        let mut bytes = request(method, target, headers);
        bytes.extend_from_slice(body);
        let raw = common::send_raw(self.http, &bytes).await;
        common::parse_response(&raw, method == "HEAD")
    }

    /// A request through nginx's HTTPS port (TLS with the test's own
    /// certificate for `localhost`).
    async fn https(&self, method: &str, target: &str, headers: &[(&str, &str)]) -> HttpResponse {
        let mut roots = RootCertStore::empty();
        roots.add(self.cert.clone()).expect("the test certificate");
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let tcp = guard("connect", TcpStream::connect(self.https))
            .await
            .expect("connect to nginx");
        let name = ServerName::try_from("localhost").unwrap();
        let tls = guard("the TLS handshake", connector.connect(name, tcp))
            .await
            .expect("a TLS session with nginx");
        let raw = common::exchange(tls, &request(method, target, headers)).await;
        common::parse_response(&raw, method == "HEAD")
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM: the master stops its workers too (a SIGKILL would leave
        // them holding the ports).
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

/// The peer ports each in-process app has seen, by app name.
#[derive(Clone, Default)]
struct Peers(Arc<Mutex<Vec<(&'static str, u16)>>>);

impl Peers {
    fn distinct_ports(&self, app: &str) -> usize {
        let seen = self.0.lock().unwrap();
        let ports: BTreeSet<u16> = seen
            .iter()
            .filter(|(name, _)| *name == app)
            .map(|(_, port)| *port)
            .collect();
        ports.len()
    }
}

/// The bytes `GET /download` sends: 3 MiB, many times what nginx's proxy
/// buffers hold.
fn download_bytes() -> Vec<u8> {
    (0..3 * 1024 * 1024u32)
        .map(|i| (i.wrapping_mul(31) % 251) as u8)
        .collect()
}

/// A directory holding `report.bin` with [`download_bytes`], written once
/// per test process (renamed into place, for test processes running at once).
fn files_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nginx");
        std::fs::create_dir_all(&dir).expect("a directory for the download");
        let part = dir.join(format!("report.bin.{}", std::process::id()));
        std::fs::write(&part, download_bytes()).expect("write report.bin");
        std::fs::rename(&part, dir.join("report.bin")).expect("rename report.bin");
        dir
    })
}

async fn download(req: &mut Request, res: &mut Response) -> Result {
    let opts = SendFileOptions::new().root(files_dir().to_str().unwrap());
    res.download(req, "report.bin", Some("report 2026.bin"), opts)
        .await
}

/// 200 chunks of one line each, written as they come (chunked).
async fn stream(_req: &mut Request, res: &mut Response) -> Result {
    res.attachment("log.txt");
    for i in 0..200 {
        res.write(stream_line(i))?;
        res.drain().await?;
    }
    res.end()
}

fn stream_line(i: usize) -> String {
    format!("line {i:03} {}\n", "x".repeat(500))
}

fn expected_stream() -> String {
    (0..200).map(stream_line).collect()
}

/// An app named `name` that answers who it is and what it knows of the
/// client, and records the peer port of every request in `peers`.
fn app(name: &'static str, peers: Peers) -> App {
    let mut app = webfw::app();
    app.set("trust proxy", "loopback");
    app.get("/whoami", move |req: &mut Request, res: &mut Response| {
        peers
            .0
            .lock()
            .unwrap()
            .push((name, req.remote_addr().port()));
        res.json(&json!({
            "app": name,
            "ip": req.ip(),
            "ips": req.ips(),
            "protocol": req.protocol(),
            "secure": req.secure(),
            "hostname": req.hostname(),
            "host": req.get("host"),
        }))
    });
    app.post(
        "/upload",
        (
            webfw::json(JsonOptions::new().limit("1kb")),
            |req: &mut Request, res: &mut Response| res.json(&req.body().clone()),
        ),
    );
    app.get("/download", download);
    app.get("/stream", stream);
    app
}

/// Two in-process apps, `a` and `b`, and nginx in front of them.
struct Stack {
    nginx: Nginx,
    peers: Peers,
    a: TestServer,
    _b: TestServer,
}

async fn stack_edited(edit: impl FnOnce(String) -> String) -> Stack {
    let peers = Peers::default();
    let a = TestServer::start(app("a", peers.clone())).await;
    let b = TestServer::start(app("b", peers.clone())).await;
    let nginx = Nginx::start_edited([a.addr.port(), b.addr.port()], edit).await;
    Stack {
        nginx,
        peers,
        a,
        _b: b,
    }
}

async fn stack() -> Stack {
    stack_edited(|conf| conf).await
}

#[tokio::test]
async fn forwarded_headers_describe_the_client_over_http_and_https() {
    let s = stack().await;

    let plain = s
        .nginx
        .http("GET", "/whoami", &[("Host", "shop.example:8080")])
        .await;
    assert_eq!(plain.status, 200, "{}", plain.text());
    let mut v = plain.json();
    v.as_object_mut().unwrap().remove("app");
    assert_eq!(
        v,
        json!({
            "ip": "127.0.0.1",
            "ips": ["127.0.0.1"],
            "protocol": "http",
            "secure": false,
            "hostname": "shop.example",
            // nginx's own Host for the upstream: the public name arrives in
            // X-Forwarded-Host, which the app trusts.
            "host": "webfw",
        })
    );

    let tls = s
        .nginx
        .https("GET", "/whoami", &[("Host", "shop.example")])
        .await;
    assert_eq!(tls.status, 200, "{}", tls.text());
    let v = tls.json();
    assert_eq!(v["protocol"], "https");
    assert_eq!(v["secure"], true);
    assert_eq!(v["hostname"], "shop.example");

    // The client's own X-Forwarded-For is kept by nginx and the loopback
    // hop appended; the app trusts loopback only, so the first untrusted
    // address is the client's, and what a client claims beyond it is not
    // believed.
    let via = s
        .nginx
        .http(
            "GET",
            "/whoami",
            &[("X-Forwarded-For", "198.51.100.1, 203.0.113.9")],
        )
        .await
        .json();
    assert_eq!(via["ip"], "203.0.113.9");
    assert_eq!(via["ips"], json!(["203.0.113.9", "127.0.0.1"]));

    // Straight to the app, without nginx, the peer is the client.
    let direct =
        s.a.raw(request("GET", "/whoami", &[("Host", "shop.example")]))
            .await;
    let v = direct.json();
    assert_eq!(
        (&v["ips"], &v["host"]),
        (&json!([]), &json!("shop.example"))
    );
}

#[tokio::test]
async fn upstream_connections_are_kept_alive() {
    let s = stack().await;
    let mut apps = Vec::new();
    for _ in 0..6 {
        let res = s.nginx.http("GET", "/whoami", &[]).await;
        assert_eq!(res.status, 200, "{}", res.text());
        apps.push(res.json()["app"].as_str().unwrap().to_owned());
    }
    // Round robin over the upstream, one kept-alive connection to each app
    // for six client connections.
    assert_eq!(apps, ["a", "b", "a", "b", "a", "b"]);
    assert_eq!(
        (s.peers.distinct_ports("a"), s.peers.distinct_ports("b")),
        (1, 1)
    );

    // Without `keepalive` in the upstream, every request opens its own.
    let s = stack_edited(|conf| conf.replace("keepalive 16;", "")).await;
    for _ in 0..6 {
        assert_eq!(s.nginx.http("GET", "/whoami", &[]).await.status, 200);
    }
    assert_eq!(
        (s.peers.distinct_ports("a"), s.peers.distinct_ports("b")),
        (3, 3)
    );
}

#[tokio::test]
async fn a_413_from_the_body_limit_passes_through() {
    let s = stack().await;
    let body = format!(r#"{{"text":"{}"}}"#, "y".repeat(2000));
    let headers = [
        ("Content-Type", "application/json"),
        ("Content-Length", &body.len().to_string()),
    ];
    let via = s
        .nginx
        .http_body("POST", "/upload", &headers, body.as_bytes())
        .await;
    let mut direct = common::request("POST", "/upload", &headers);
    direct.extend_from_slice(body.as_bytes());
    let direct = s.a.raw(direct).await;

    assert_eq!(via.status, 413);
    assert_eq!(via.header("content-type"), direct.header("content-type"));
    assert_eq!(via.text(), direct.text());
    assert!(
        via.text()
            .contains("PayloadTooLargeError: request entity too large"),
        "the app's error page, not nginx's: {}",
        via.text()
    );

    // Under the limit the body arrives whole.
    let small = r#"{"text":"fits"}"#;
    let res = s
        .nginx
        .http_body(
            "POST",
            "/upload",
            &[
                ("Content-Type", "application/json"),
                ("Content-Length", &small.len().to_string()),
            ],
            small.as_bytes(),
        )
        .await;
    assert_eq!((res.status, res.text()), (200, small.to_owned()));
}

#[tokio::test]
async fn downloads_pass_through_intact() {
    let s = stack().await;
    let via = s.nginx.http("GET", "/download", &[]).await;
    let direct = s.a.get("/download").await;
    assert_eq!(via.status, 200);
    for name in [
        "content-disposition",
        "content-type",
        "content-length",
        "etag",
        "last-modified",
    ] {
        assert_eq!(via.header(name), direct.header(name), "{name}");
    }
    assert_eq!(
        via.header("content-disposition"),
        Some(r#"attachment; filename="report 2026.bin""#)
    );
    assert_eq!(via.header("content-length"), Some("3145728"));
    assert!(via.body == download_bytes(), "the 3 MiB arrived changed");

    // Ranges are answered by the app, through nginx.
    let part = s
        .nginx
        .http("GET", "/download", &[("Range", "bytes=1000-1099")])
        .await;
    assert_eq!(part.status, 206);
    assert_eq!(
        part.header("content-range"),
        Some("bytes 1000-1099/3145728")
    );
    assert!(part.body == download_bytes()[1000..1100]);

    // A body streamed in chunks, with no length known up front.
    let streamed = s.nginx.http("GET", "/stream", &[]).await;
    assert_eq!(streamed.status, 200);
    assert_eq!(streamed.header("transfer-encoding"), Some("chunked"));
    assert_eq!(
        streamed.header("content-disposition"),
        Some(r#"attachment; filename="log.txt""#)
    );
    assert_eq!(streamed.text(), expected_stream());
}

/// An HTTP/1.1 request with `Connection: close`, and `Host: localhost`
/// unless `headers` name another.
fn request(method: &str, target: &str, headers: &[(&str, &str)]) -> Vec<u8> {
    let mut s = format!("{method} {target} HTTP/1.1\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        s.push_str("Host: localhost\r\n");
    }
    for (k, v) in headers {
        s.push_str(&format!("{k}: {v}\r\n"));
    }
    s.push_str("Connection: close\r\n\r\n");
    s.into_bytes()
}

/// A webfw process: this test binary run again as [`upstream_process`].
struct AppProcess {
    child: Child,
    port: u16,
}

impl AppProcess {
    async fn start(name: &str, redis: &Redis) -> AppProcess {
        let exe = std::env::current_exe().expect("the test binary's path");
        let mut child = Command::new(exe)
            .args([
                &common::test_name(module_path!(), "upstream_process"),
                "--exact",
                "--ignored",
                "--nocapture",
            ])
            .env("WEBFW_UPSTREAM_NAME", name)
            .env("REDIS_URL", redis.url())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run the test binary again as an upstream process");
        let stdout = child.stdout.take().expect("piped stdout");
        let port = tokio::task::spawn_blocking(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(std::result::Result::ok)
                .find_map(|line| line.strip_prefix("listening ")?.parse::<u16>().ok())
        });
        let port = guard("the upstream process to listen", port)
            .await
            .expect("the reader thread")
            .unwrap_or_else(|| panic!("the upstream process {name} ended without listening"));
        AppProcess { child, port }
    }
}

impl Drop for AppProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn login(req: &mut Request, res: &mut Response) -> Result {
    let user = req.query()["user"].as_str().unwrap_or("").to_owned();
    req.session().regenerate().await?;
    req.session().set("user", user)?;
    res.send("welcome")
}

fn me(app: String) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |req, res| {
        let user = req.session().get::<String>("user");
        res.json(&json!({ "app": app, "user": user }))
    }
}

/// Not a test: the entry point of the webfw processes that
/// [`two_processes_share_a_login_through_redis`] starts (it runs this binary
/// again with `WEBFW_UPSTREAM_NAME` set). Run alone it returns at once.
#[tokio::test]
#[ignore = "an upstream process of the nginx tests, started by them"]
async fn upstream_process() {
    let (Ok(name), Ok(url)) = (
        std::env::var("WEBFW_UPSTREAM_NAME"),
        std::env::var("REDIS_URL"),
    ) else {
        return;
    };
    let store = RedisStore::connect(&url).await.expect("connect to Redis");
    // A secure cookie: sent only when the request came over HTTPS, which
    // the app learns from nginx's X-Forwarded-Proto.
    let cookie = CookieOptions::new().secure(Secure::On);
    let options = SessionOptions::new(SECRET)
        .resave(false)
        .save_uninitialized(false)
        .cookie(cookie)
        .store(store);
    let mut app = webfw::app();
    app.set("trust proxy", "loopback");
    app.use_(webfw::session(options));
    app.post("/login", login);
    app.get("/me", me(name));
    let server = app
        .bind(webfw::ListenOptions::port(0).host("127.0.0.1"))
        .await
        .expect("bind 127.0.0.1:0");
    println!("listening {}", server.local_addr().unwrap().port());
    // The parent holds our stdin: when it ends, even killed, so do we.
    std::thread::spawn(|| {
        let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
        std::process::exit(0);
    });
    server.wait().await;
}

/// The `connect.sid=…` pair of a response's `Set-Cookie`.
fn session_cookie(res: &HttpResponse) -> String {
    let line = res.header("set-cookie").expect("a Set-Cookie header");
    assert!(line.starts_with("connect.sid=s%3A"), "{line}");
    assert!(line.contains("; Secure"), "{line}");
    line.split(';').next().unwrap().to_owned()
}

#[tokio::test]
async fn two_processes_share_a_login_through_redis() {
    let redis = Redis::start().await;
    let a = AppProcess::start("a", &redis).await;
    let b = AppProcess::start("b", &redis).await;
    let nginx = Nginx::start([a.port, b.port]).await;

    // Over plain HTTP the secure cookie is not sent.
    let res = nginx.http("POST", "/login?user=tobi", &[]).await;
    assert_eq!(res.status, 200, "{}", res.text());
    assert!(!res.has_header("set-cookie"));

    let res = nginx.https("POST", "/login?user=tobi", &[]).await;
    assert_eq!(res.status, 200, "{}", res.text());
    let cookie = session_cookie(&res);

    // Whichever process nginx picks knows the login.
    let mut seen = Vec::new();
    for _ in 0..4 {
        let res = nginx.https("GET", "/me", &[("Cookie", &cookie)]).await;
        let v: Value = res.json();
        assert_eq!(v["user"], "tobi", "{v}");
        seen.push(v["app"].as_str().unwrap().to_owned());
    }
    seen.sort();
    assert_eq!(seen, ["a", "a", "b", "b"]);

    // Without the cookie, neither does.
    let v = nginx.https("GET", "/me", &[]).await.json();
    assert_eq!(v["user"], Value::Null);
}
