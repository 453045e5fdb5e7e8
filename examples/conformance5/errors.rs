//! `/errors/*`: errors, rejected promises and finalhandler 2 (ROUTES5.md,
//! "/errors/* — errors, rejected promises, finalhandler"), and `/removed/*`:
//! the Express 4 calls Express 5 no longer has.
//!
//! A thrown error is an `Err`; an `async` handler whose promise rejects is
//! an `async fn` that returns `Err` (Express 5's router passes the reason
//! to `next`, as webfw passes the `Err` on).

use serde_json::json;
use webfw::prelude::*;

use crate::{Config, js_status_or_500};

/// `err.status = Number(code)`: NaN is no usable status (finalhandler then
/// answers 500).
fn with_js_status(err: Error, code: Option<&str>) -> Error {
    let n = crate::js_number(code.unwrap_or_default());
    if n.is_finite() && n.fract() == 0.0 {
        err.with_status(n as i64)
    } else {
        err
    }
}

pub fn routes(app: &mut App) {
    app.get(
        "/errors/throw",
        |_req: &mut Request, _res: &mut Response| -> Result { Err(Error::new("boom")) },
    );
    app.get(
        "/errors/status/:code",
        |req: &mut Request, _res: &mut Response| -> Result {
            Err(with_js_status(
                Error::new("custom status"),
                req.param("code"),
            ))
        },
    );
    app.get(
        "/errors/headers",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(Error::new("rate limited")
                .with_status(429)
                .with_header("Retry-After", "120")
                .with_header("X-Error-Header", "yes"))
        },
    );
    app.get("/errors/async-throw", async_throw);
    app.get("/errors/reject/:kind", reject);
    app.get(
        "/errors/reject/:kind",
        |req: &mut Request, res: &mut Response| {
            let kind = req.param("kind").unwrap_or_default().to_owned();
            res.send(format!("after rejected route: {kind}"))
        },
    );
    app.get("/errors/resolve", resolve);
    app.get("/errors/next-later", next_later);
    app.use_at("/errors/async-mw", async_mw);
    crate::body::json_body_route(app);

    // A router with its own error handlers, one of them async.
    let mut custom = webfw::express5::router();
    custom.get(
        "/throw",
        |_req: &mut Request, _res: &mut Response| -> Result { Err(Error::new("custom boom")) },
    );
    custom.get(
        "/teapot",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(Error::new("short and stout").with_status(418))
        },
    );
    custom.get(
        "/conflict",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(Error::new("conflict").with_status(409))
        },
    );
    custom.get("/async-teapot", async_teapot);
    custom.use_(custom_error);
    custom.use_(|req: &mut Request, res: &mut Response| {
        let body = json!({ "notFound": true, "path": req.path() });
        res.status(404).json(&body)
    });
    app.use_at("/errors/custom", custom);
}

async fn async_throw(_req: &mut Request, _res: &mut Response) -> Result {
    Err(Error::new("async boom"))
}

/// The route's promise is rejected with a reason chosen by `:kind`.
/// Express 5 calls `next(reason)`: a falsy reason becomes
/// `Error('Rejected promise')`, the string `route` is `next('route')`, any
/// other string is an error of that text.
async fn reject(req: &mut Request, _res: &mut Response) -> Result {
    let kind = req.param("kind").unwrap_or_default().to_owned();
    match kind.as_str() {
        "null" => Err(Error::new("Rejected promise")),
        "string" => Err(Error::new("plain string reason")),
        "route" => next_route(),
        _ => {
            let err = Error::new(format!("rejected {kind}"));
            let status = kind
                .strip_prefix("status-")
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            Err(match status {
                Some(d) => with_js_status(err, Some(d)),
                None => err,
            })
        }
    }
}

/// Waits a tick, then answers: a promise that resolves is ignored.
async fn resolve(_req: &mut Request, res: &mut Response) -> Result {
    tokio::task::yield_now().await;
    res.send("resolved")
}

/// `next(new Error('later'))` from `setImmediate`.
async fn next_later(_req: &mut Request, _res: &mut Response) -> Result {
    tokio::task::yield_now().await;
    Err(Error::new("later"))
}

/// A rejected middleware.
async fn async_mw(_req: &mut Request, _res: &mut Response) -> Result {
    Err(Error::new("forbidden by middleware").with_status(403))
}

async fn async_teapot(_req: &mut Request, _res: &mut Response) -> Result {
    Err(Error::new("async teapot").with_status(418))
}

/// The async error handler of `/errors/custom`: 409 makes it throw an
/// error of its own (503), 418 is passed on, anything else is answered.
async fn custom_error(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    match err.raw_status() {
        Some(409) => Err(Error::new("error handler gave up").with_status(503)),
        Some(418) => Err(err),
        _ => {
            let body = json!({ "handled": true, "message": err.message() });
            res.status(js_status_or_500(&err)).json(&body)
        }
    }
}

/// `/removed/*`: each handler calls an Express 4 API that Express 5 no
/// longer has, so JavaScript throws `TypeError: … is not a function`. In
/// Rust the call does not exist at all (webfw's Express 5 surface has no
/// `req.param(name)` lookup over body and query, no `acceptsCharset`, no
/// `res.sendfile`, no `app.del`, no `express.query`); each route answers
/// what the JavaScript call does, the TypeError's 500 page.
pub fn removed(app: &mut App, _cfg: &Config) {
    let gone = |what: &'static str| {
        move |_req: &mut Request, _res: &mut Response| -> Result {
            Err(crate::type_error(&format!("{what} is not a function")))
        }
    };
    app.get("/removed/req-param/:id", gone("req.param"));
    app.get("/removed/accepts-charset", gone("req.acceptsCharset"));
    app.get("/removed/accepts-encoding", gone("req.acceptsEncoding"));
    app.get("/removed/accepts-language", gone("req.acceptsLanguage"));
    app.get("/removed/sendfile", gone("res.sendfile"));
    app.get("/removed/app-del", gone("app.del"));
    app.get("/removed/express-query", gone("express.query"));
}
