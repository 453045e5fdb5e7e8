//! `cors(options)`: the `cors` 2.8 middleware.
//!
//! Express: `app.use(cors({ origin: 'https://app.example', credentials: true }))`;
//! webfw: `app.use_(webfw::cors(CorsOptions::new().origin("https://app.example").credentials(true)))`.
//!
//! Every request gets `Access-Control-Allow-Origin` as the
//! [`origin`](CorsOptions::origin) option decides (with `Vary: Origin`
//! unless it is `*`), `Access-Control-Allow-Credentials` and
//! `Access-Control-Expose-Headers` when configured. An `OPTIONS` request is
//! a preflight: it also gets the allowed methods, headers and max-age, and
//! is answered at once (204, `Content-Length: 0`) unless
//! [`preflight_continue`](CorsOptions::preflight_continue) passes it on.
//! `origin: false` (or a function deciding `false`) leaves the request
//! untouched. The options may also be worked out per request
//! ([`delegate`], [`delegate_async`]: cors's options delegate).
//!
//! ```
//! use webfw::cors::{CorsOptions, Origin, OriginMatch, Regex};
//! let mut app = webfw::app();
//! app.use_(webfw::cors(()));
//! app.use_at("/api", webfw::cors(CorsOptions::new().origin(Origin::list([
//!     OriginMatch::from("https://a.example"),
//!     OriginMatch::from(Regex::new(r"\.b\.example$").unwrap()),
//! ]))));
//! ```

mod headers;
mod options;
mod origin;

use std::future::Future;
use std::sync::Arc;

use http::{HeaderName, HeaderValue, Method};
pub use regex::Regex;

pub use options::{CorsOptions, List};
pub use origin::{Origin, OriginMatch};

use crate::error::Error;
use crate::handler::{BoxFuture, Flow, Handler, HandlerFuture, Result};
use crate::request::Request;
use crate::response::Response;
use headers::{Allowed, Incoming, Step};
use origin::{Kind, Matcher};

/// The middleware [`cors`](crate::cors()), [`delegate`] and
/// [`delegate_async`] return.
///
/// ```
/// let cors: webfw::cors::Cors = webfw::cors(());
/// let mut app = webfw::app();
/// app.use_(webfw::handler(cors));
/// ```
#[derive(Clone)]
pub struct Cors(Options);

type DelegateFn = dyn Fn(&Request) -> std::result::Result<CorsOptions, Error> + Send + Sync;
type AsyncDelegateFn =
    dyn Fn(&Request) -> BoxFuture<'static, std::result::Result<CorsOptions, Error>> + Send + Sync;

/// Where a request's options come from.
#[derive(Clone)]
enum Options {
    Fixed(CorsOptions),
    Delegate(Arc<DelegateFn>),
    AsyncDelegate(Arc<AsyncDelegateFn>),
}

impl std::fmt::Debug for Cors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Options::Fixed(o) => f.debug_tuple("Cors").field(o).finish(),
            Options::Delegate(_) | Options::AsyncDelegate(_) => f.write_str("Cors(delegate)"),
        }
    }
}

/// `cors(options)`: CORS headers and preflight answers (see the
/// [module](self)). Takes [`CorsOptions`], an [`Origin`] alone, or `()`
/// for cors's defaults.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::cors::CorsOptions;
/// let mut app = webfw::app();
/// app.use_(webfw::cors(CorsOptions::new().origin(true).methods("GET,POST")));
/// app.get("/", |_req: &mut Request, res: &mut Response| res.json(&serde_json::json!({"ok": true})));
/// ```
pub fn cors(options: impl Into<CorsOptions>) -> Cors {
    Cors(Options::Fixed(options.into()))
}

/// `cors((req, callback) => …)`: the options worked out for each request
/// by `f` (cors's options delegate); an error goes to the error handlers.
///
/// ```
/// use webfw::cors::CorsOptions;
/// let mut app = webfw::app();
/// app.use_(webfw::cors::delegate(|req| {
///     let public = req.path().starts_with("/public/");
///     Ok(CorsOptions::new().origin(if public { "*" } else { "https://app.example" }))
/// }));
/// ```
pub fn delegate<F>(f: F) -> Cors
where
    F: Fn(&Request) -> std::result::Result<CorsOptions, Error> + Send + Sync + 'static,
{
    Cors(Options::Delegate(Arc::new(f)))
}

/// [`delegate`] for a function that awaits: it takes from the request
/// what it needs and returns a future of the options.
///
/// ```
/// use webfw::cors::CorsOptions;
/// let mut app = webfw::app();
/// app.use_(webfw::cors::delegate_async(|req| {
///     let tenant = req.get("x-tenant").unwrap_or("").to_owned();
///     async move {
///         tokio::task::yield_now().await;
///         Ok(CorsOptions::new().origin(format!("https://{tenant}.example")))
///     }
/// }));
/// ```
pub fn delegate_async<F, Fut>(f: F) -> Cors
where
    F: Fn(&Request) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = std::result::Result<CorsOptions, Error>> + Send + 'static,
{
    Cors(Options::AsyncDelegate(Arc::new(move |req| {
        Box::pin(f(req))
    })))
}

impl From<()> for CorsOptions {
    fn from((): ()) -> CorsOptions {
        CorsOptions::new()
    }
}

impl Handler for Cors {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        match &self.0 {
            Options::Fixed(opts) => run(opts, req, res),
            Options::Delegate(f) => match f(req) {
                Err(e) => HandlerFuture::ready(Err(e)),
                Ok(opts) if matches!(opts.origin.0, Kind::Async(_)) => {
                    HandlerFuture::boxed(Box::pin(async move { run(&opts, req, res).await }))
                }
                Ok(opts) => HandlerFuture::ready(run_now(&opts, req, res)),
            },
            Options::AsyncDelegate(f) => {
                let opts = f(req);
                HandlerFuture::boxed(Box::pin(async move {
                    let opts = opts.await?;
                    run(&opts, req, res).await
                }))
            }
        }
    }
}

/// cors's `corsMiddleware` once the options are known: the origin
/// decided (by a function, maybe awaiting), then the headers.
fn run<'a>(
    opts: &'a CorsOptions,
    req: &'a mut Request,
    res: &'a mut Response,
) -> HandlerFuture<'a> {
    match &opts.origin.0 {
        Kind::Async(f) => {
            let decided = f(header_text(req, "origin"));
            HandlerFuture::boxed(Box::pin(async move {
                let origin = decided.await?;
                apply(opts, &origin.0, req, res)
            }))
        }
        _ => HandlerFuture::ready(run_now(opts, req, res)),
    }
}

/// [`run`] for an origin option that needs no await.
fn run_now(opts: &CorsOptions, req: &Request, res: &mut Response) -> Result {
    match &opts.origin.0 {
        Kind::Sync(f) => {
            let origin = header_text(req, "origin");
            let decided = f(origin.as_deref())?;
            apply(opts, &decided.0, req, res)
        }
        fixed => apply(opts, fixed, req, res),
    }
}

/// A function deciding `true`, or another function: any origin is
/// reflected, as cors treats a truthy non-string value.
static REFLECT: Matcher = Matcher::All;

/// cors's inner `cors(options, req, res, next)` once the origin is known.
fn apply(opts: &CorsOptions, origin: &Kind, req: &Request, res: &mut Response) -> Result {
    let allowed = match origin {
        Kind::Off => return Ok(Flow::Next),
        Kind::Any => Allowed::Any,
        Kind::Fixed(o) => Allowed::Fixed(o),
        Kind::Match(m) => Allowed::Match(m),
        Kind::Sync(_) | Kind::Async(_) => Allowed::Match(&REFLECT),
    };
    let preflight = *req.method() == Method::OPTIONS;
    let request_origin = header_text(req, "origin");
    let request_headers = if preflight {
        header_text(req, "access-control-request-headers")
    } else {
        None
    };
    let incoming = Incoming {
        preflight,
        origin: request_origin.as_deref(),
        request_headers: request_headers.as_deref(),
    };
    for step in headers::plan(opts, &allowed, &incoming) {
        match step {
            Step::Set(name, value) => {
                let value = latin1_value(&name, &value)?;
                res.insert_header(name, value);
            }
            Step::Vary(field) => {
                res.vary(field);
            }
        }
    }
    if !preflight || opts.preflight_continue {
        return Ok(Flow::Next);
    }
    res.status(opts.options_success_status)
        .set("Content-Length", "0")
        .end()
}

/// A request header as Node shows it in `req.headers`: bytes read as
/// Latin-1, repeated lines joined with `, `.
fn header_text(req: &Request, name: &str) -> Option<String> {
    let mut values = req.headers().get_all(name).iter();
    let first = values.next()?;
    let mut text = crate::http::cookie::latin1(first.as_bytes());
    for v in values {
        text.push_str(", ");
        text.push_str(&crate::http::cookie::latin1(v.as_bytes()));
    }
    Some(text)
}

/// Latin-1 text back to header bytes; Node's `setHeader` refuses what
/// cannot be written.
fn latin1_value(name: &HeaderName, value: &str) -> Result<HeaderValue> {
    crate::http::content_disposition::latin1_bytes(value)
        .and_then(|b| HeaderValue::from_bytes(&b).ok())
        .ok_or_else(|| {
            Error::new(format!("Invalid character in header content [\"{name}\"]"))
                .with_name("TypeError")
        })
}
