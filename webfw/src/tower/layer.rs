//! A tower layer as webfw middleware.
//!
//! The middleware calls the layer's service with the request. When the
//! layer answers by itself (a CORS preflight, a rejection), that answer is
//! the response. When it calls the inner service ([`Next`]), the request it
//! passes on goes down the rest of the stack, whose response is captured in
//! a mailbox of its own; the layer's future, polled alongside the chain as
//! a gate on the real response's head, turns it into the response that is
//! sent. A timeout then fires while the rest of the stack still runs.

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

use bytes::Bytes;
use http_body::Body;
use tower_layer::Layer;
use tower_service::Service;

use super::captured::{Link, Next};
use crate::error::{BoxError, Error};
use crate::handler::Middleware;
use crate::handler::{Handler, HandlerFuture, Result};
use crate::request::{RawBody, Request};
use crate::response::Response;
use crate::response::outbox::{Head, HeadBody, MAX_BUFFERED, Outbox};

/// Turns a [`tower_layer::Layer`] into webfw middleware: `app.use_(webfw::tower(layer))`.
///
/// The layer wraps [`Next`], the rest of the webfw stack: calling it
/// continues with `next()`, and its response is what the handlers after
/// this middleware (or the final handler) send. What the layer's service
/// answers is written to the client. A layer that answers by itself (a
/// CORS preflight) ends the chain there.
///
/// The layer sees the request's method, URI (`req.originalUrl`), version,
/// headers and body, and passes headers and body on (a changed method or
/// URI is not taken over). Its response is written once its body is
/// complete (at most 16 MiB; a streamed response is gathered first), and
/// `res.statusCode` in `on_finish` hooks of earlier middleware (the logger)
/// is the stack's, not the layer's.
///
/// ```
/// use webfw::prelude::*;
///
/// fn hello(_req: &mut Request, res: &mut Response) -> Result {
///     res.send("hello")
/// }
/// let mut app = webfw::app();
/// app.use_(webfw::tower(tower_layer::Identity::new()));
/// app.get("/", hello);
/// ```
pub fn tower<L, B>(layer: L) -> Middleware
where
    L: Layer<Next> + Send + Sync + 'static,
    L::Service: Service<http::Request<RawBody>, Response = http::Response<B>> + Send + 'static,
    <L::Service as Service<http::Request<RawBody>>>::Future: Send + 'static,
    <L::Service as Service<http::Request<RawBody>>>::Error: Into<BoxError>,
    B: Body + Send + 'static,
    B::Data: Into<Bytes>,
    B::Error: Into<BoxError>,
{
    Middleware::from_handler(Arc::new(Layered { layer }))
}

/// The middleware [`tower()`] makes.
struct Layered<L> {
    layer: L,
}

impl<L, B> Handler for Layered<L>
where
    L: Layer<Next> + Send + Sync + 'static,
    L::Service: Service<http::Request<RawBody>, Response = http::Response<B>> + Send + 'static,
    <L::Service as Service<http::Request<RawBody>>>::Future: Send + 'static,
    <L::Service as Service<http::Request<RawBody>>>::Error: Into<BoxError>,
    B: Body + Send + 'static,
    B::Data: Into<Bytes>,
    B::Error: Into<BoxError>,
{
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        HandlerFuture::boxed(Box::pin(self.run(req, res)))
    }
}

impl<L> Layered<L> {
    async fn run<B>(&self, req: &mut Request, res: &mut Response) -> Result
    where
        L: Layer<Next>,
        L::Service: Service<http::Request<RawBody>, Response = http::Response<B>> + Send + 'static,
        <L::Service as Service<http::Request<RawBody>>>::Future: Send + 'static,
        <L::Service as Service<http::Request<RawBody>>>::Error: Into<BoxError>,
        B: Body + Send + 'static,
        B::Data: Into<Bytes>,
        B::Error: Into<BoxError>,
    {
        let link = Arc::new(Link::default());
        let mut service = self.layer.layer(Next::new(link.clone()));
        poll_fn(|cx| service.poll_ready(cx))
            .await
            .map_err(|e| layer_error(e.into()))?;
        let mut answer = Box::pin(service.call(http_request(req)));
        let answered = poll_fn(|cx| match answer.as_mut().poll(cx) {
            Poll::Ready(r) => Poll::Ready(Some(r.map_err(Into::into))),
            Poll::Pending if link.called() => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        })
        .await;
        if let Some(answer) = answered {
            // The layer answered without the rest of the stack.
            let answer = answer.map_err(layer_error)?;
            let (parts, body) = answer.into_parts();
            let body = collect(body).await.map_err(layer_error)?;
            res.status(parts.status.as_u16());
            let headers = res.headers_mut();
            for name in parts.headers.keys() {
                headers.remove(name);
            }
            headers.extend(parts.headers);
            return res.end_with(body);
        }
        if let Some((parts, body)) = link.take_request() {
            *req.headers_mut() = parts.headers;
            req.put_raw_body(body);
        }
        // The rest of the stack sends into a mailbox of its own; the
        // layer's future turns what arrives there into the head the
        // connection waits for.
        let private = Arc::new(crate::response::outbox::Mailbox::default());
        let outbox = std::mem::replace(&mut res.outbox, Outbox::new(private.clone()));
        link.hand_over(private);
        let mailbox = outbox.mailbox().clone();
        mailbox.set_gate(Box::pin(send_answer(answer, outbox)));
        crate::next()
    }
}

/// The request the layer sees.
fn http_request(req: &mut Request) -> http::Request<RawBody> {
    let mut out = http::Request::new(req.take_body());
    *out.method_mut() = req.method().clone();
    *out.uri_mut() = req
        .original_url()
        .parse()
        .unwrap_or_else(|_| http::Uri::from_static("/"));
    *out.version_mut() = req.version();
    *out.headers_mut() = req.headers().clone();
    out
}

/// Awaits the layer's response to the rest of the stack's and sends it in
/// place of the head the connection waits for. Never fails: a layer's
/// error becomes the 500 page.
async fn send_answer<F, B, E>(answer: Pin<Box<F>>, mut outbox: Outbox) -> Result<(), Error>
where
    F: Future<Output = std::result::Result<http::Response<B>, E>>,
    E: Into<BoxError>,
    B: Body,
    B::Data: Into<Bytes>,
    B::Error: Into<BoxError>,
{
    // The layer's error type need not be `Send`: converted before the
    // next await.
    let answered = answer.await.map_err(Into::into);
    let head = match answered {
        Ok(response) => {
            let (parts, body) = response.into_parts();
            match collect(body).await {
                Ok(body) => Ok(Head {
                    status: parts.status.as_u16(),
                    headers: Box::new(parts.headers),
                    body: if body.is_empty() {
                        HeadBody::Empty
                    } else {
                        HeadBody::Full(body)
                    },
                }),
                Err(e) => Err(layer_error(e)),
            }
        }
        Err(e) => Err(layer_error(e)),
    };
    let head = head.unwrap_or_else(|err| {
        crate::final_handler::report_unhandled(&err);
        let (status, headers, body) = crate::final_handler::panic_response();
        Head {
            status,
            headers: Box::new(headers),
            body: HeadBody::Full(body),
        }
    });
    outbox.put_head(head);
    Ok(())
}

/// The whole body, up to the most a streamed response may buffer.
async fn collect<B>(body: B) -> std::result::Result<Bytes, BoxError>
where
    B: Body,
    B::Data: Into<Bytes>,
    B::Error: Into<BoxError>,
{
    let mut body = std::pin::pin!(body);
    let mut first: Option<Bytes> = None;
    let mut rest: Vec<u8> = Vec::new();
    while let Some(frame) = poll_fn(|cx| body.as_mut().poll_frame(cx)).await {
        let Ok(data) = frame.map_err(Into::into)?.into_data() else {
            continue;
        };
        let data: Bytes = data.into();
        let len = first.as_ref().map_or(0, Bytes::len) + rest.len() + data.len();
        if len > MAX_BUFFERED {
            return Err("a tower layer's response body is over 16 MiB".into());
        }
        match &first {
            None if rest.is_empty() => first = Some(data),
            _ => {
                if let Some(f) = first.take() {
                    rest.extend_from_slice(&f);
                }
                rest.extend_from_slice(&data);
            }
        }
    }
    Ok(first.unwrap_or_else(|| Bytes::from(rest)))
}

/// A layer's failure, as the error the final handler answers.
fn layer_error(e: BoxError) -> Error {
    Error::new(format!("tower layer: {e}")).with_status(500)
}
