//! Testing handlers and apps without a socket.
//!
//! Express: `httpMocks.createRequest()` / `createResponse()` (node-mocks-http)
//! for one handler, `request(app).get('/')` (supertest) for a whole app;
//! webfw: [`request`] and [`response`] for one handler, and, with the
//! `testing` feature, `TestClient` for a whole app.
//!
//! [`request`] and [`response`] build a request and its response with no
//! connection behind them, so a handler can be called directly and its
//! effects read back:
//!
//! ```
//! use webfw::prelude::*;
//!
//! fn greet(req: &mut Request, res: &mut Response) -> Result {
//!     let name = req.query()["name"].as_str().unwrap_or("world").to_owned();
//!     res.send(format!("hello {name}"))
//! }
//!
//! let mut req = webfw::testing::request(http::Method::GET, "/?name=ann");
//! let mut res = webfw::testing::response(&req);
//! greet(&mut req, &mut res).unwrap();
//! assert_eq!(res.status_code(), 200);
//! assert!(res.headers_sent());
//! ```
//!
//! The client (feature `testing`) sends requests through
//! [`App::into_service`](crate::App::into_service), the entry point the
//! server itself uses, so a test runs the same chain, final handler and
//! `on_finish` hooks as a client over HTTP would.

#[cfg(feature = "testing")]
mod client;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use http::{Method, Uri};

#[cfg(feature = "testing")]
pub use client::{TestClient, TestRequest, TestResponse};

use crate::app_ref::AppRef;
use crate::inline_option::InlineOption;
use crate::request::{RawBody, Request};
use crate::response::Response;

/// A request with no connection behind it, as a new app would see it:
/// `method` and `target` (path and query; an unparsable target is `/`),
/// no headers, no body, from 127.0.0.1.
///
/// ```
/// let req = webfw::testing::request(http::Method::GET, "/a/b?x=1");
/// assert_eq!(req.path(), "/a/b");
/// assert_eq!(req.query()["x"], "1");
/// ```
pub fn request(method: Method, target: &str) -> Request {
    let uri: Uri = target.parse().unwrap_or_else(|_| Uri::from_static("/"));
    let (mut parts, ()) = http::Request::new(()).into_parts();
    parts.method = method;
    parts.uri = uri;
    let mut slot = InlineOption::none();
    Request::new_in(
        &mut slot,
        parts,
        None,
        RawBody::Empty,
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0),
        false,
        AppRef::of_new_app(),
    );
    slot.take()
        .unwrap_or_else(|| unreachable!("new_in fills the slot"))
}

/// The response to `req`, going nowhere: what a handler sends stays in it,
/// to be read back.
///
/// ```
/// let req = webfw::testing::request(http::Method::GET, "/");
/// let mut res = webfw::testing::response(&req);
/// res.status(201).send("made").unwrap();
/// assert_eq!(res.status_code(), 201);
/// assert!(res.headers_sent());
/// ```
pub fn response(req: &Request) -> Response {
    Response::new(req, Default::default())
}

/// A [`Vhost`](crate::vhost::Vhost) as a match of `host` would give, `captures`
/// being what the wildcards caught (feature `vhost`).
///
/// ```
/// let v = webfw::testing::vhost("x.example.com:8080", &["x"]);
/// assert_eq!(v.hostname(), "x.example.com");
/// assert_eq!(v.get(0), Some("x"));
/// ```
#[cfg(feature = "vhost")]
pub fn vhost(host: &str, captures: &[&str]) -> crate::vhost::Vhost {
    crate::vhost::Vhost::of(host, captures)
}
