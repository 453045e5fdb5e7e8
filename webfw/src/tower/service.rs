//! A frozen app as a tower service: each call goes through the server's own
//! entry point ([`crate::server::dispatch::start`]) with the body boxed.

use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;

use crate::app::{App, ServedApp};
use crate::error::BoxError;
use crate::request::RawBody;
use crate::response::Response;
use crate::response::outbox::Mailbox;
use crate::server::dispatch::{self, Dispatch, HyperResponse, ResponseBody};

/// A frozen app as a [`tower_service::Service`], from
/// [`App::into_service`]. Cheap to clone; always ready.
///
/// `req.ip()` is the [`SocketAddr`] found in the request's extensions
/// (insert one to set it; hyper-util and axum do not), else `0.0.0.0:0`;
/// `req.secure()` is whether the URI's scheme is `https`.
///
/// ```
/// let service: webfw::tower::AppService = webfw::app().into_service();
/// let other = service.clone();
/// ```
#[derive(Clone, Debug)]
pub struct AppService {
    app: Arc<ServedApp>,
}

impl App {
    /// Freezes the app into a [`tower_service::Service`] over
    /// `http::Request<B>` for any body `B`, answering
    /// `http::Response<`[`ResponseBody`]`>`: serve it with hyper-util, nest
    /// it in an axum router (`Router::nest_service`), wrap it in tower
    /// layers, or test it with `webfw::testing::TestClient` (feature `testing`).
    ///
    /// ```
    /// use tower_service::Service;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let mut app = webfw::app();
    /// app.get("/", |_req: &mut webfw::Request, res: &mut webfw::Response| res.send("hi"));
    /// let mut service = app.into_service();
    /// let request = http::Request::get("/missing").body(String::new()).unwrap();
    /// let response = service.call(request).await.unwrap();
    /// assert_eq!(response.status(), 404);
    /// # });
    /// ```
    pub fn into_service(self) -> AppService {
        AppService {
            app: Arc::new(self.serve_root().unwrap_or_else(|e| panic!("{e}"))),
        }
    }
}

impl<B> tower_service::Service<http::Request<B>> for AppService
where
    B: http_body::Body + Send + 'static,
    B::Data: Into<Bytes>,
    B::Error: Into<BoxError>,
{
    type Response = http::Response<ResponseBody>;
    type Error = Infallible;
    type Future = ResponseFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: http::Request<B>) -> ResponseFuture {
        let (parts, body) = req.into_parts();
        let body = if body.is_end_stream() {
            RawBody::Empty
        } else {
            RawBody::from_body(body)
        };
        let peer = parts
            .extensions
            .get::<SocketAddr>()
            .copied()
            .unwrap_or(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0));
        let secure = parts.uri.scheme() == Some(&http::uri::Scheme::HTTPS);
        ResponseFuture(dispatch::start(
            &self.app,
            parts,
            None,
            body,
            peer,
            secure,
            Arc::new(Mailbox::default()),
            None,
            None::<fn(&mut Response)>,
        ))
    }
}

/// The future of [`AppService`]'s call: ready once the app has sent the
/// head; the body streams while the rest of the chain runs.
pub struct ResponseFuture(Dispatch);

impl Future for ResponseFuture {
    type Output = Result<HyperResponse, Infallible>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx)
    }
}

impl std::fmt::Debug for ResponseFuture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ResponseFuture")
    }
}
