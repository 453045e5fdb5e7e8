//! A `redis-server` child process on a port of its own, for the tests of the
//! Redis stores and of the interop with Express.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::guard;

const INSTALL: &str = "install it with `apt-get install redis-server`";

/// A port no socket holds right now. Another may take it before the child
/// that is given it binds it: [`Redis::start`] then tries another.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// `redis-server` on 127.0.0.1 without persistence, killed on drop.
pub struct Redis {
    child: Child,
    pub port: u16,
    dir: PathBuf,
}

impl Redis {
    /// Starts one on a free port, answering PING.
    pub async fn start() -> Redis {
        for _ in 0..10 {
            if let Some(redis) = Redis::try_start(free_port()).await {
                return redis;
            }
        }
        panic!("redis-server could not bind a free port in 10 tries");
    }

    /// Starts one on `port` (where a stopped one was), answering PING.
    pub async fn start_on(port: u16) -> Redis {
        Redis::try_start(port)
            .await
            .unwrap_or_else(|| panic!("redis-server exited at start on port {port}; {INSTALL}"))
    }

    /// `None` when the server exits at start: the port was taken since.
    async fn try_start(port: u16) -> Option<Redis> {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "webfw-redis-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("a temporary directory for redis-server");
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--dir"])
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start redis-server ({e}): {INSTALL}"));
        let mut redis = Redis { child, port, dir };
        // PING, not a connect: another test's server may hold the port.
        let up = guard("redis-server to answer PING", async {
            loop {
                if let Ok(Some(_)) = redis.child.try_wait() {
                    return false;
                }
                if let Ok(mut c) = redis.client().get_multiplexed_async_connection().await
                    && redis::cmd("PING")
                        .query_async::<String>(&mut c)
                        .await
                        .is_ok()
                {
                    return true;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await;
        up.then_some(redis)
    }

    /// `redis://127.0.0.1:<port>/`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// A client of this server.
    pub fn client(&self) -> redis::Client {
        redis::Client::open(self.url()).expect("a valid redis URL")
    }

    /// Runs `cmd` on a connection of its own.
    pub async fn cmd<T: redis::FromRedisValue>(&self, cmd: &mut redis::Cmd) -> T {
        let mut c = self
            .client()
            .get_multiplexed_async_connection()
            .await
            .expect("connect to redis");
        cmd.query_async(&mut c).await.expect("redis command")
    }

    /// Kills the server now (as a crash would).
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
