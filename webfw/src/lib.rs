//! # webfw
//!
//! The Express 4 API in Rust: an [`App`] registers middleware and routes that
//! run in registration order, [`Request`] and [`Response`] carry Express's
//! properties and methods, and the bytes on the wire equal Express's.
//!
//! ```no_run
//! use webfw::prelude::*;
//!
//! fn hello(_req: &mut Request, res: &mut Response) -> Result {
//!     res.send("Hello World!")
//! }
//!
//! let mut app = webfw::app();
//! app.get("/", hello);
//! app.listen(3000, |addr| println!("listening on {addr}")).unwrap();
//! ```
//!
//! Flow control is the handler's return value: [`next()`] is Express's
//! `next()`, [`next_route()`] is `next('route')`, [`next_router()`] is
//! `next('router')`, `Err(e)` is `next(err)`, and the response methods
//! (`send`, `json`, `end`, …) return `Ok(Flow::Done)`.
//!
//! A handler that returns `Ok(Flow::Done)` without sending anything is a bug
//! Express would turn into a hung request; webfw answers it with a 500 error
//! through the final handler instead, and logs which request it was.

pub mod app;
pub mod body;
mod error;
mod final_handler;
mod handler;
pub mod http;
mod inline_option;
pub mod logger;
mod macros;
mod request;
mod response;
mod router;
mod routes;
mod server;

pub use app::{App, AppRef, ENV_VAR, EtagMode, QueryParser, Setting};
pub use body::{TextOptions, text};
pub use error::Error;
pub use handler::{
    AsyncErrorHandlerFn, AsyncHandlerFn, AsyncParamFn, BoxFuture, ErrorHandler, Flow, Handler,
    HandlerFuture, IntoMiddleware, IntoMiddlewares, IntoParamHandler, Middleware, ParamHandler,
    Result, error_handler_value, handler, markers, next, next_route, next_router,
};
pub use logger::{logger, logger_token};
pub use macros::{
    all, delete, error_handler, get, head, middleware, options, param, patch, post, put, route,
    routes,
};
pub use request::{RawBody, Request};
pub use response::{Response, SendBody};
pub use router::{Params, PathSpec, RouteBuilder, RouteInfo, Router, RouterOptions};
#[doc(hidden)]
pub use routes::__private;
pub use routes::{EntryKind, RouteEntry, Routes};
pub use server::exchange::ResponseBody;
#[doc(hidden)]
pub use server::fuzz_rewrite as __fuzz_sanitize;
pub use server::{ListenOptions, MAX_HEAD_SIZE, Server, ShutdownHandle, TlsConfig};

/// `express()`: a new application.
///
/// ```
/// let app = webfw::app();
/// assert!(app.enabled("x-powered-by"));
/// ```
pub fn app() -> App {
    App::new()
}

/// Alias of [`app`], for those who think of the framework function by name.
///
/// ```
/// let app = webfw::webfw();
/// ```
pub fn webfw() -> App {
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
