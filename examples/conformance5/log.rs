//! `/log/*`: morgan 1.12 under Express 5 (ROUTES5.md, "/log/* — morgan
//! 1.12"). Both loggers append to `LOG_FILE` through one shared stream,
//! synchronously when the stream is idle (which it is between the kit's
//! requests), so a line is in the file by the time its response is sent.

use webfw::App;
use webfw::logger::{self, LogStream};
use webfw::prelude::*;

use crate::Config;

/// Registers the `/log/*` routes (first in the app, after `/health` and `/`).
pub fn routes(app: &mut App, cfg: &Config) {
    let file = cfg.log_file.to_string_lossy().into_owned();
    let stream =
        LogStream::append(&file).unwrap_or_else(|e| panic!("cannot open LOG_FILE {file}: {e}"));
    app.use_at(
        "/log/tiny",
        (webfw::logger!("tiny").stream(stream.clone()), log_routes()),
    );
    app.use_at(
        "/log/combined",
        (webfw::logger!("combined").stream(stream), log_routes()),
    );
    app.get("/log/last", move |req: &mut Request, res: &mut Response| {
        last_lines(req, res, &file)
    });
}

/// The router mounted under both logger prefixes (`logRoutes`).
fn log_routes() -> Router {
    let mut r = webfw::express5::router();
    r.get("/ok", crate::text("ok"));
    r.get("/json", |_req: &mut Request, res: &mut Response| {
        res.json(&serde_json::json!({ "logged": true }))
    });
    // res.sendStatus(Number(code)): Express 5 refuses codes outside 100–999.
    r.get("/status/:code", |req: &mut Request, res: &mut Response| {
        let code = crate::status_number(req, "code")?;
        res.send_status(code)
    });
    // An async handler that throws: its rejection is the future's Err.
    r.get("/async-error", log_async_error);
    r
}

async fn log_async_error(_req: &mut Request, _res: &mut Response) -> Result {
    Err(Error::new("logged async failure"))
}

/// `GET /log/last?n=K`: the last K non-empty lines of the log file, sent
/// with `res.end` (no ETag).
fn last_lines(req: &mut Request, res: &mut Response, file: &str) -> Result {
    let n = crate::query_str(req, "n")
        .as_deref()
        .and_then(parse_int)
        .filter(|&n| n > 0)
        .unwrap_or(1);
    logger::flush_all();
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let lines: Vec<&str> = text.split('\n').filter(|l| !l.is_empty()).collect();
    let skip = lines.len().saturating_sub(n);
    let mut out = String::new();
    for l in &lines[skip..] {
        out.push_str(l);
        out.push('\n');
    }
    res.set("Content-Type", "text/plain; charset=utf-8");
    res.end_with(out)
}

/// `parseInt(s, 10)` for a count (negative: 0).
fn parse_int(s: &str) -> Option<usize> {
    let t = s.trim_start();
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.starts_with('-') {
        return Some(0);
    }
    let end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    t[..end]
        .parse::<usize>()
        .ok()
        .or_else(|| (end > 0).then_some(usize::MAX))
}
