//! The benchmark target of `../shared/bench`: the same program as
//! `peers/express/server.js`, written against webfw. One thread
//! (`current_thread` runtime), as the kit requires.
//!
//! Environment: `PORT`, `STATIC_DIR`, `LOG_FILE`, `ROUTES` (see the kit's
//! README), `WORKERS`: N > 0 serves on N worker threads instead
//! (`ListenOptions::workers`, `docs/PERFORMANCE.md`, multi-core), and
//! `EXPRESS=5`: the same app in the Express 5 dialect.

use serde::Serialize;
use webfw::prelude::*;

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

fn plaintext(_req: &mut Request, res: &mut Response) -> Result {
    res.type_("text/plain").send("Hello, World!")
}

fn json(_req: &mut Request, res: &mut Response) -> Result {
    res.json(&Message {
        message: "Hello, World!",
    })
}

#[derive(Serialize)]
struct KeyCount {
    n: usize,
}

/// `res.json({ n: Object.keys(req.body).length })`.
fn echo_json(req: &mut Request, res: &mut Response) -> Result {
    let n = req
        .body()
        .as_value()
        .and_then(|v| v.as_object())
        .map_or(0, |m| m.len());
    res.json(&KeyCount { n })
}

/// `res.send(req.params.id)`, as the kit's Express app has it.
fn echo_param(req: &mut Request, res: &mut Response) -> Result {
    res.send(req.params().get("id").unwrap_or_default())
}

macro_rules! pass_through {
    ($($name:ident),*) => {$(
        fn $name(_req: &mut Request, _res: &mut Response) -> Result {
            next()
        }
    )*};
}
pass_through!(mw1, mw2, mw3, mw4, mw5, mw6, mw7, mw8, mw9, mw10);

fn main() -> std::io::Result<()> {
    let port: u16 = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(18080);
    let routes: usize = std::env::var("ROUTES")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(100);

    // `EXPRESS=5`: the same program as an Express 5 app (its router, body
    // parser and static files), to measure what the dialect costs.
    let express5 = std::env::var_os("EXPRESS").is_some_and(|v| v == "5");
    let mut app = if express5 {
        webfw::express5::app()
    } else {
        webfw::app()
    };
    app.get("/plaintext", plaintext);
    app.get("/json", json);
    let limit = webfw::JsonOptions::new().limit("100kb");
    let parser = if express5 {
        webfw::express5::json_with(limit)
    } else {
        webfw::json(limit)
    };
    app.post("/echo-json", (parser, echo_json));
    // `app.use('/static', express.static(STATIC_DIR))`, default options.
    let static_dir = std::env::var("STATIC_DIR").unwrap_or_else(|_| "static".to_owned());
    if express5 {
        app.use_at("/static", webfw::express5::static_(static_dir));
    } else {
        app.use_at("/static", webfw::static_(static_dir, Default::default()));
    }
    app.use_at("/mw", (mw1, mw2, mw3, mw4, mw5, mw6, mw7, mw8, mw9, mw10));
    app.get("/mw/plaintext", plaintext);
    // BENCH-LOG: the `/log` scenario is registered here.
    // `app.use('/log', morgan('combined', { stream: <append to LOG_FILE> }))`
    let log_file = std::env::var("LOG_FILE").unwrap_or_else(|_| "/dev/null".to_owned());
    let stream = webfw::logger::LogStream::append(&log_file)?;
    app.use_at("/log", webfw::logger!("combined").stream(stream));
    app.get("/log/plaintext", plaintext);
    for k in 0..routes {
        app.get(format!("/r/route{k}/:id"), echo_param);
    }

    let workers: usize = std::env::var("WORKERS")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(0);
    // A pipelined batch's responses leave in one write
    // (`ListenOptions::pipeline_flush`, on by default); `PIPELINE_FLUSH=0`
    // writes each response on its own, to compare.
    let opts = webfw::ListenOptions::port(port)
        .host("127.0.0.1")
        .pipeline_flush(std::env::var_os("PIPELINE_FLUSH").is_none_or(|v| v != "0"));
    let opts = if workers == 0 {
        opts.single_threaded(true)
    } else {
        opts.workers(workers)
    };
    app.listen_with(opts, |addr| eprintln!("bench server on {addr}"))
}
