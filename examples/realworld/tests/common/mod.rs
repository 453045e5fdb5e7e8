//! The app over a socket for the tests: started on 127.0.0.1:0 with a
//! fresh SQLite file or a throwaway PostgreSQL cluster, spoken to with raw
//! HTTP/1.1, its rows read back to check that bad input changed nothing.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use realworld::Config;
use serde_json::{Value, json};

pub mod scenarios;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub const SECRET: &str = "bad-input-test-secret";

/// The app on 127.0.0.1:0 with its own database, and a pool on that
/// database to look at the rows.
pub struct Api {
    addr: std::net::SocketAddr,
    db: realworld::db::Db,
    _server: webfw::Server,
    postgres: Option<Postgres>,
    dir: PathBuf,
}

impl Drop for Api {
    fn drop(&mut self) {
        if let Some(pg) = self.postgres.take() {
            pg.stop();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A response: its status and its body as JSON (`null` if not JSON).
pub struct Reply {
    pub status: u16,
    /// The header lines, names lower-cased.
    pub head: String,
    pub body: Value,
}

impl Api {
    /// The app on a fresh SQLite file.
    pub async fn sqlite() -> Api {
        let dir = scratch_dir();
        let url = format!("sqlite:{}/conduit.db", dir.display());
        Api::start(url, dir, None).await
    }

    /// The app on a fresh PostgreSQL cluster of its own.
    pub async fn postgres() -> Api {
        let dir = scratch_dir();
        let cluster = Postgres::start(&dir);
        let url = cluster.url.clone();
        Api::start(url, dir, Some(cluster)).await
    }

    async fn start(url: String, dir: PathBuf, postgres: Option<Postgres>) -> Api {
        let config = Config {
            port: 0,
            database_url: url.clone(),
            jwt_secret: SECRET.to_owned(),
            log: false,
        };
        let app = realworld::app(&config).await.unwrap();
        let server = app
            .bind(webfw::ListenOptions::port(0).host("127.0.0.1"))
            .await
            .unwrap();
        let addr = server.local_addr().unwrap();
        let db = realworld::db::connect(&url).await.unwrap();
        Api {
            addr,
            db,
            _server: server,
            postgres,
            dir,
        }
    }

    /// Sends raw body bytes; reads the whole answer (`Connection: close`).
    pub async fn send(&self, method: &str, path: &str, token: Option<&str>, body: &[u8]) -> Reply {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        );
        if let Some(t) = token {
            head.push_str(&format!("Authorization: {t}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        self.raw(&bytes).await
    }

    /// Sends `bytes` as they are; reads the whole answer (the request
    /// should say `Connection: close`).
    pub async fn raw(&self, bytes: impl AsRef<[u8]>) -> Reply {
        let mut stream = TcpStream::connect(self.addr).await.unwrap();
        // The server may answer (413) and close before reading all of a
        // large body: a failed write is then expected.
        let _ = stream.write_all(bytes.as_ref()).await;
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw).await;
        let text = String::from_utf8_lossy(&raw);
        let status = text[9..12].parse().unwrap();
        let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(rest)
        } else {
            rest.to_owned()
        };
        Reply {
            status,
            head: head.to_ascii_lowercase(),
            body: serde_json::from_str(&body).unwrap_or(Value::Null),
        }
    }

    /// Sends `body` as JSON; `null` sends no body.
    pub async fn json(&self, method: &str, path: &str, token: Option<&str>, body: Value) -> Reply {
        let bytes = if body.is_null() {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        self.send(method, path, token, &bytes).await
    }

    /// Registers a user; returns `Token <jwt>`.
    pub async fn register(&self, username: &str, email: &str, password: &str) -> String {
        let r = self
            .json(
                "POST",
                "/api/users",
                None,
                json!({"user": {"username": username, "email": email, "password": password}}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        format!("Token {}", r.body["user"]["token"].as_str().unwrap())
    }

    pub async fn create_article(&self, token: &str, title: &str) -> Reply {
        self.json(
            "POST",
            "/api/articles",
            Some(token),
            json!({"article": {"title": title, "description": "d", "body": "b", "tagList": ["t"]}}),
        )
        .await
    }

    /// Every row of every table, as text: equal snapshots, unchanged data.
    pub async fn snapshot(&self) -> Vec<String> {
        let queries = [
            "SELECT id || '|' || email || '|' || username || '|' || password_hash || '|' || \
             COALESCE(bio, '-') || '|' || COALESCE(image, '-') FROM users ORDER BY id",
            "SELECT id || '|' || slug || '|' || title || '|' || description || '|' || body || \
             '|' || tag_list || '|' || updated_at FROM articles ORDER BY id",
            "SELECT article_id || '|' || tag FROM article_tags ORDER BY article_id, tag",
            "SELECT id || '|' || body FROM comments ORDER BY id",
            "SELECT user_id || '|' || article_id FROM favorites ORDER BY user_id, article_id",
            "SELECT follower_id || '|' || followee_id FROM follows ORDER BY 1",
        ];
        let mut rows = Vec::new();
        for q in queries {
            let part: Vec<String> = sqlx::query_scalar(q).fetch_all(&self.db).await.unwrap();
            rows.push(part.join("\n"));
        }
        rows
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

/// A directory of this test's own under the system's temporary directory.
fn scratch_dir() -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "realworld-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A PostgreSQL cluster in a temporary directory, listening on 127.0.0.1
/// only, with trust authentication; as root it runs as the `postgres` user
/// (initdb refuses root). Debian's `postgresql` package provides it
/// (`tests/run` installs it).
struct Postgres {
    bin: PathBuf,
    data: PathBuf,
    as_root: bool,
    url: String,
}

impl Postgres {
    fn start(dir: &Path) -> Postgres {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()
            .and_then(|versions| {
                versions
                    .filter_map(|v| Some(v.ok()?.path().join("bin")))
                    .filter(|b| b.join("initdb").exists())
                    .max()
            })
            .expect("PostgreSQL is not installed: apt-get install postgresql (tests/run does)");
        let as_root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
        if as_root {
            let status = Command::new("chown")
                .arg("postgres")
                .arg(dir)
                .status()
                .unwrap();
            assert!(status.success(), "chown postgres {}", dir.display());
        }
        let data = dir.join("pg");
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let pg = Postgres {
            bin,
            data,
            as_root,
            url: format!("postgres://postgres@127.0.0.1:{port}/postgres"),
        };
        let data = pg.data.display().to_string();
        pg.run(
            "initdb",
            &["-D", &data, "-U", "postgres", "-A", "trust", "--no-sync"],
        );
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {port} -k {} -c fsync=off",
            dir.display()
        );
        let log = dir.join("pg.log").display().to_string();
        pg.run(
            "pg_ctl",
            &["-D", &data, "-l", &log, "-w", "-o", &options, "start"],
        );
        pg
    }

    fn run(&self, tool: &str, args: &[&str]) {
        let exe = self.bin.join(tool);
        let mut cmd = if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(exe);
            c
        } else {
            Command::new(exe)
        };
        let out = cmd.args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{tool} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn stop(self) {
        let data = self.data.display().to_string();
        self.run("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"]);
    }
}
