//! `/log/*`: morgan loggers (ROUTES.md, "/log/* — morgan loggers"). Every
//! logger appends to `LOG_FILE` through one shared stream, synchronously when
//! the stream is idle (which it is between the kit's requests), so a line is
//! in the file by the time its response has been sent.

use webfw::logger::{self, LogStream, LoggerOptions};
use webfw::prelude::*;
use webfw::{App, logger_token};

/// `morgan.token('trace', req => req.headers['x-trace'] || 'no-trace')`.
#[logger_token("trace")]
fn trace(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
    Some(
        req.get("x-trace")
            .filter(|v| !v.is_empty())
            .unwrap_or("no-trace")
            .to_owned(),
    )
}

/// The `custom` format of ROUTES.md.
const CUSTOM: &str = ":method :url :status :res[content-length] :res[content-type] \":req[user-agent]\" :req[accept] \
    :trace [:date[iso]] [:date[web]] :response-time[1] ms :total-time[0] ms HTTP/:http-version \
    :remote-addr :remote-user \":referrer\"";

/// Registers the `/log/*` routes (first in the app, after `/health` and `/`).
pub fn routes(app: &mut App, log_file: &str) {
    let stream = LogStream::append(log_file)
        .unwrap_or_else(|e| panic!("cannot open LOG_FILE {log_file}: {e}"));
    logger::register::<trace>();
    let opts = || LoggerOptions::new().stream(stream.clone());

    // The predefined formats, resolved and checked at compile time.
    app.use_at(
        "/log/combined",
        (
            webfw::logger!("combined").stream(stream.clone()),
            log_routes(),
        ),
    );
    app.use_at(
        "/log/common",
        (
            webfw::logger!("common").stream(stream.clone()),
            log_routes(),
        ),
    );
    app.use_at(
        "/log/short",
        (webfw::logger!("short").stream(stream.clone()), log_routes()),
    );
    app.use_at(
        "/log/tiny",
        (webfw::logger!("tiny").stream(stream.clone()), log_routes()),
    );
    app.use_at(
        "/log/dev",
        (webfw::logger!("dev").stream(stream.clone()), log_routes()),
    );
    // The custom format compiled at run time (the `:trace` token is defined above).
    app.use_at(
        "/log/custom",
        (logger::logger(CUSTOM, opts()), log_routes()),
    );
    app.use_at(
        "/log/skip",
        (
            logger::logger("tiny", opts().skip(|_req, res| res.status_code() < 400)),
            log_routes(),
        ),
    );
    app.use_at(
        "/log/immediate",
        (
            logger::logger("short", opts().immediate(true)),
            log_routes(),
        ),
    );

    let file = log_file.to_owned();
    app.get("/log/last", move |req: &mut Request, res: &mut Response| {
        last_lines(req, res, &file)
    });
    app.get("/log/target", |_req: &mut Request, res: &mut Response| {
        res.send("log target")
    });
}

/// The router mounted under every logger prefix (`logRoutes`).
fn log_routes() -> Router {
    let mut r = webfw::router();
    r.get("/ok", |_req: &mut Request, res: &mut Response| {
        res.send("ok")
    });
    r.get(
        r"/status/:code(\d+)",
        |req: &mut Request, res: &mut Response| {
            let code = req
                .param("code")
                .and_then(|c| c.parse::<u64>().ok())
                .map_or(u16::MAX, |n| u16::try_from(n).unwrap_or(u16::MAX));
            res.send_status(code)
        },
    );
    r.get("/json", |_req: &mut Request, res: &mut Response| {
        res.json(&serde_json::json!({ "logged": true }))
    });
    r.post(
        "/echo",
        (
            webfw::text(webfw::TextOptions::new().type_("*/*")),
            |req: &mut Request, res: &mut Response| {
                let body = req.body().as_str().unwrap_or("").to_owned();
                res.type_("text/plain").send(body)
            },
        ),
    );
    r.get("/redirect", |_req: &mut Request, res: &mut Response| {
        res.redirect("/log/target")
    });
    r.get("/chunked", |_req: &mut Request, res: &mut Response| {
        res.type_("text/plain");
        res.write("chunk-1;")?;
        res.end_with("chunk-2")
    });
    r.get(
        "/error",
        |_req: &mut Request, _res: &mut Response| -> Result { Err(Error::new("log error")) },
    );
    r
}

/// `GET /log/last?n=K`: the last K non-empty lines of the log file.
fn last_lines(req: &mut Request, res: &mut Response, file: &str) -> Result {
    let n = req
        .query()
        .get("n")
        .and_then(|v| v.as_str())
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

/// `parseInt(s, 10)` for a count.
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
