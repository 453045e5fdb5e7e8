//! Several processes on one port, sharing sessions through Redis: what
//! Node's `cluster` module (or PM2) does for an Express app, done with
//! `SO_REUSEPORT`.
//!
//! ```sh
//! redis-server --port 6379 &
//! REDIS_URL=redis://127.0.0.1:6379/ cargo run --example cluster -- 4   # PORT=… for another port
//! curl -c jar -b jar localhost:3000/login/tobi
//! curl -c jar -b jar localhost:3000/      # several times: the pid changes, the login stays
//! ```
//!
//! The first process starts N workers (itself again, with `CLUSTER_WORKER`
//! set) and restarts one that crashes, up to `RESTARTS` times. Each worker
//! binds the port with `reuse_port(true)` on a one-thread runtime, and the
//! kernel spreads new connections over them. Ctrl-C reaches every process
//! of the terminal's group: each worker shuts down gracefully. Without
//! `REDIS_URL` each worker keeps its own sessions in memory, and a login
//! holds only on the worker that saw it.
use std::process::{Command, ExitStatus};

use webfw::ListenOptions;
use webfw::prelude::*;
use webfw::session::{RedisStore, SessionOptions};

/// The port, unless `PORT` says another.
const PORT: u16 = 3000;
/// How often a crashing worker is started again before the primary gives
/// up on it (one that cannot start at all, say Redis is not there, would
/// otherwise loop for ever).
const RESTARTS: usize = 5;

#[get("/")]
async fn home(req: &mut Request, res: &mut Response) -> Result {
    let who = req
        .session()
        .get::<String>("user")
        .unwrap_or_else(|| "guest".into());
    res.send(format!(
        "Hello {who}, from process {}\n",
        std::process::id()
    ))
}

#[get("/login/:name")]
async fn login(req: &mut Request, res: &mut Response) -> Result {
    let name = req.param("name").unwrap_or("").to_owned();
    // A new id on login, against session fixation.
    req.session().regenerate().await?;
    req.session().set("user", name)?;
    res.redirect("/")
}

/// One worker: the app, served on the shared port until SIGINT or SIGTERM.
fn worker() -> std::io::Result<()> {
    let port = match std::env::var("PORT") {
        Ok(port) => port
            .parse()
            .map_err(|_| std::io::Error::other(format!("PORT={port:?} is not a port number")))?,
        Err(_) => PORT,
    };
    let opts = ListenOptions::port(port)
        .host("127.0.0.1")
        .reuse_port(true)
        .single_threaded(true);
    // The Redis connection must live on the runtime that serves.
    opts.runtime()?.block_on(async {
        let mut sessions = SessionOptions::new("keyboard cat")
            .resave(false)
            .save_uninitialized(false);
        if let Ok(url) = std::env::var("REDIS_URL") {
            let store = RedisStore::connect(&url)
                .await
                .map_err(|e| std::io::Error::other(format!("{url}: {e}")))?;
            sessions = sessions.store(store);
        }
        let mut app = webfw::app();
        app.use_(webfw::session(sessions));
        app.mount(routes![home, login]);
        let server = app.bind(opts).await?;
        println!("worker {} on http://127.0.0.1:{port}", std::process::id());
        server.wait_with_signals().await
    })
}

/// Whether a worker that ended this way is started again: not after a clean
/// exit or a signal (a shutdown), yes after a crash.
fn crashed(status: ExitStatus) -> bool {
    !status.success() && status.code().is_some()
}

fn main() -> std::io::Result<()> {
    if std::env::var_os("CLUSTER_WORKER").is_some() {
        return worker();
    }
    let n = match std::env::args().nth(1) {
        Some(n) => n
            .parse()
            .map_err(|_| std::io::Error::other(format!("usage: cluster [WORKERS] (not {n:?})")))?,
        None => std::thread::available_parallelism().map_or(2, usize::from),
    };
    let exe = std::env::current_exe()?;
    let supervisors: Vec<_> = (0..n)
        .map(|i| {
            let exe = exe.clone();
            std::thread::spawn(move || -> std::io::Result<()> {
                for _ in 0..=RESTARTS {
                    let status = Command::new(&exe)
                        .env("CLUSTER_WORKER", i.to_string())
                        .status()?;
                    if !crashed(status) {
                        return Ok(());
                    }
                    eprintln!("worker {i} {status}");
                }
                Err(std::io::Error::other(format!(
                    "worker {i} crashed {} times",
                    RESTARTS + 1
                )))
            })
        })
        .collect();
    for supervisor in supervisors {
        supervisor
            .join()
            .map_err(|_| std::io::Error::other("a supervisor thread panicked"))??;
    }
    Ok(())
}
