//! `tracing` (feature `tracing`): one span per request, events for errors
//! that reach the final handler and for panics.
//!
//! With no subscriber interested, each request pays for one check of the
//! callsite's cached interest (a relaxed load) and nothing more: no span is
//! made, no hook registered.

use std::sync::Arc;
use std::time::Instant;

use http::HeaderName;
use tracing::{Level, Span, field};

use crate::error::Error;
use crate::request::Request;
use crate::response::{Response, SharedFinish};

/// The request's span, kept in its extensions for the events raised while
/// it runs.
#[derive(Clone)]
struct RequestSpan(Span);

/// Opens the request's span when a subscriber wants it: `method` and `path`
/// now, `route`, `status` and `latency_ms` once the response is written.
#[inline]
pub(crate) fn begin(req: &mut Request, res: &mut Response) {
    if tracing::span_enabled!(target: "webfw", Level::INFO) {
        open(req, res);
    }
}

#[cold]
#[inline(never)]
fn open(req: &mut Request, res: &mut Response) {
    let span = tracing::info_span!(
        target: "webfw",
        "request",
        method = %req.method(),
        path = req.path(),
        route = field::Empty,
        status = field::Empty,
        latency_ms = field::Empty,
    );
    if span.is_disabled() {
        return;
    }
    req.extensions_mut().insert(RequestSpan(span.clone()));
    res.on_finish_shared(Arc::new(Close(span)), Some(Instant::now()));
}

/// Records what the span reports once the response is done.
struct Close(Span);

impl SharedFinish for Close {
    fn reads(&self) -> Option<&[HeaderName]> {
        Some(&[])
    }

    fn runs_early(&self) -> bool {
        // The latency includes writing the response.
        false
    }

    fn finish(&self, req: &Request, res: &Response, since: Option<Instant>) {
        if let Some(path) = req.route().and_then(|r| r.path()) {
            self.0.record("route", path);
        }
        self.0.record("status", res.status_code());
        if let Some(since) = since {
            self.0
                .record("latency_ms", since.elapsed().as_secs_f64() * 1000.0);
        }
    }
}

/// An error the final handler answers: an event in the request's span.
/// False when no subscriber listens (the caller writes to stderr then).
pub(crate) fn unhandled_in(req: &Request, err: &Error) -> bool {
    if !tracing::enabled!(target: "webfw", Level::ERROR) {
        return false;
    }
    let parent = req.extensions().get::<RequestSpan>().map(|s| s.0.id());
    tracing::error!(
        target: "webfw",
        parent: parent.flatten(),
        status = err.status(),
        error = %err,
        "unhandled error"
    );
    true
}

/// An error with no request left to answer (a failed head gate, a tower
/// layer's failure). False when no subscriber listens.
pub(crate) fn unhandled(err: &Error) -> bool {
    if !tracing::enabled!(target: "webfw", Level::ERROR) {
        return false;
    }
    tracing::error!(target: "webfw", status = err.status(), error = %err, "unhandled error");
    true
}

/// A handler panicked (it becomes a 500 error travelling on).
pub(crate) fn panicked(message: &str) {
    tracing::error!(target: "webfw", panic = message, "handler panicked");
}
