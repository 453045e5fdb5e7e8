#![doc = include_str!("guide.md")]

pub mod app;
mod app_ref;
pub mod body;
#[cfg(feature = "compression")]
pub mod compression;
#[cfg(feature = "cookie-parser")]
mod cookie_parser;
#[cfg(feature = "cookie-session")]
pub mod cookie_session;
#[cfg(feature = "cors")]
pub mod cors;
mod deprecate;
mod dialect;
mod error;
pub mod express5;
pub mod files;
mod final_handler;
mod handler;
mod header_pool;
#[cfg(feature = "helmet")]
pub mod helmet;
mod inline_option;
#[cfg(feature = "logger")]
pub mod logger;
mod macros;
#[cfg(feature = "method-override")]
mod method_override;
#[cfg(feature = "multer")]
pub mod multer;
mod outcome;
#[cfg(feature = "rate-limit")]
pub mod rate_limit;
mod request;
mod response;
#[cfg(feature = "response-time")]
pub mod response_time;
mod rewind;
mod router;
mod routes;
#[cfg(feature = "serve-favicon")]
pub mod serve_favicon;
mod server;
#[cfg(feature = "session")]
pub mod session;
pub mod testing;
#[cfg(feature = "tower")]
pub mod tower;
#[cfg(feature = "tracing")]
mod trace;
mod typed;
pub mod upgrade;
#[cfg(feature = "vhost")]
pub mod vhost;
#[cfg(feature = "views")]
pub mod view;

pub use app::{App, AppRef, ENV_VAR, EtagMode, QueryParser, Setting};
pub use body::{
    JsonOptions, RawOptions, TextOptions, UrlencodedOptions, json, raw, text, urlencoded,
};
#[cfg(feature = "compression")]
pub use compression::compression;
#[cfg(feature = "cookie-parser")]
pub use cookie_parser::{CookieParser, CookieSecrets, cookie_parser};
#[cfg(feature = "cookie-session")]
pub use cookie_session::cookie_session;
#[cfg(feature = "cors")]
pub use cors::cors;
pub use dialect::Dialect;
pub use error::{BoxError, Error};
pub use files::{SendFileOptions, StaticOptions, static_};
#[doc(hidden)]
pub use handler::__async_handler;
pub use handler::{
    AsyncErrorHandlerFn, AsyncHandlerFn, AsyncParamFn, AsyncStateFn, BoxFuture, ErrorHandler, Flow,
    Handler, HandlerFuture, IntoMiddleware, IntoMiddlewares, IntoParamHandler, Middleware,
    ParamHandler, Result, async_handler_fn, error_handler_fn, error_handler_value, handler,
    handler_fn, markers, next, next_route, next_router, param_fn, with_state, with_state_async,
};
#[cfg(feature = "helmet")]
pub use helmet::helmet;
#[cfg(feature = "logger")]
pub use logger::{logger, logger_token};
pub use macros::{
    all, delete, error_handler, get, head, middleware, options, param, patch, post, put, route,
    routes,
};
#[cfg(feature = "method-override")]
pub use method_override::{MethodGetter, MethodOverride, method_override};
/// The minijinja version [`view::MiniJinja`] is built on, for the
/// `Environment` given to [`view::MiniJinja::from_env`] without a version
/// pinned by hand. Needs the `minijinja` feature.
#[cfg(feature = "minijinja")]
pub use minijinja;
#[cfg(feature = "multer")]
pub use multer::multer;
#[cfg(feature = "rate-limit")]
pub use rate_limit::rate_limit;
/// The redis version [`session::RedisStore`] is built on, for a client the
/// app shares with its sessions without a version pinned by hand. Needs the
/// `redis` feature.
#[cfg(feature = "redis")]
pub use redis;
pub use request::{BoxBody, IncomingBody, Params, RawBody, Request, RouteInfo};
pub use response::{
    BranchFuture, CookieOptions, CookieValue, Format, Json, JsonBody, NotAcceptable, Response,
    SendBody,
};
#[cfg(feature = "response-time")]
pub use response_time::response_time;
pub use router::{PathSpec, RouteBuilder, Router, RouterOptions};
#[doc(hidden)]
pub use routes::__private;
pub use routes::{EntryKind, RouteEntry, Routes};
#[cfg(feature = "serve-favicon")]
pub use serve_favicon::favicon;
#[cfg(feature = "tls")]
pub use server::TlsConfig;
pub use server::dispatch::ResponseBody;
pub use server::{ListenOptions, MAX_HEAD_SIZE, Server, ShutdownHandle};
#[cfg(feature = "session")]
pub use session::session;
/// The rustls version webfw serves HTTPS with, for building a
/// [`TlsConfig::from_server_config`] by hand. Needs the `tls` feature.
#[cfg(feature = "tls")]
pub use tokio_rustls::rustls;
#[cfg(feature = "tower")]
pub use tower::tower;
#[cfg(feature = "vhost")]
pub use vhost::vhost;
/// The npm helpers behind webfw (`cookie`, `negotiator`, `qs`, …), as the
/// `webfw-http` crate: webfw's own code reaches them as `crate::http`.
pub(crate) use webfw_http as http;
pub use webfw_http::cookie::{Priority, SameSite};
pub use webfw_http::range::{ByteRange, ParsedRange};

/// `express()`: a new application.
///
/// ```
/// let app = webfw::app();
/// assert!(app.enabled("x-powered-by"));
/// ```
pub fn app() -> App {
    App::new()
}

/// `express.Router()`: a new router.
///
/// ```
/// let router = webfw::router();
/// ```
pub fn router() -> Router {
    Router::new()
}

/// The names most handlers need.
///
/// ```
/// use webfw::prelude::*;
/// fn ok(_req: &mut Request, res: &mut Response) -> Result { res.send("ok") }
/// ```
pub mod prelude {
    pub use crate::{
        App, Error, Flow, Request, Response, Result, Router, next, next_route, next_router,
    };
    pub use crate::{
        all, delete, error_handler, get, head, middleware, options, param, patch, post, put, route,
        routes,
    };
}
