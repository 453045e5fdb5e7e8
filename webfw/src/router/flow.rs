//! The flow engine: what a handler's outcome means, and the run through
//! one layer's handlers (Express's `next` inside `router.handle` and
//! `route.dispatch`).
//!
//! A run calls the handlers that never await directly, in one loop
//! ([`run_now`]); it stops before an entry that may await. The router's
//! async path then awaits that one entry ([`call`]), gives its result to
//! the same [`Run::after`], and goes back into the same loop.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::Exit;
use super::layer::LayerKind;
use super::route::{MethodSel, same_method};
use crate::error::Error;
use crate::handler::{Entry, HandlerFuture};
use crate::outcome::{Flow, Meaning, Result, Within, meaning};
use crate::request::Request;
use crate::response::Response;

impl Exit {
    /// A nested router's or app's exit as its entry's result.
    pub(crate) fn into_result(self) -> Result {
        match self {
            Exit::Done => Ok(Flow::Done),
            Exit::Next(None) => Ok(Flow::Next),
            Exit::Next(Some(e)) => Err(e),
        }
    }
}

/// How a layer's run ended.
pub(crate) enum Step {
    /// The response is handled.
    Done,
    /// `next('router')`.
    LeaveRouter,
    /// On to the router's next layer, with the error travelling or without.
    Next(Option<Error>),
}

/// A run through one layer's handlers: the next entry to look at and the
/// error travelling.
pub(crate) struct Run {
    pub(crate) next: usize,
    pub(crate) err: Option<Error>,
}

impl Run {
    pub(crate) fn new(err: Option<Error>) -> Run {
        Run { next: 0, err }
    }

    /// Takes a handler's result: `Some` when the layer's run ends here.
    #[inline(always)]
    pub(crate) fn after(&mut self, r: Result, within: Within) -> Option<Step> {
        match meaning(r, within) {
            Meaning::Continue => None,
            Meaning::Fail(e) => {
                self.err = Some(e);
                None
            }
            Meaning::EndLayer => Some(Step::Next(None)),
            Meaning::LeaveRouter => Some(Step::LeaveRouter),
            Meaning::Done => Some(Step::Done),
        }
    }
}

/// The entry a run looks at next.
enum Slot<'a> {
    /// Past the last entry.
    End,
    /// An entry for another method.
    Skip,
    Entry(&'a Entry),
}

impl LayerKind {
    fn within(&self) -> Within {
        match self {
            LayerKind::Use(_) => Within::Use,
            LayerKind::Route(_) => Within::Route,
        }
    }

    /// Entry `i` as a request with `method` (see `Route::dispatch_method`)
    /// sees it.
    #[inline(always)]
    fn slot(&self, i: usize, method: &str) -> Slot<'_> {
        match self {
            LayerKind::Use(handlers) => match handlers.get(i) {
                Some(h) => Slot::Entry(h),
                None => Slot::End,
            },
            LayerKind::Route(route) => match route.stack.get(i) {
                Some((MethodSel::One(m), _)) if !same_method(m, method) => Slot::Skip,
                Some((_, h)) => Slot::Entry(h),
                None => Slot::End,
            },
        }
    }
}

/// Whether an entry runs in the run's mode: error handlers only with an
/// error travelling, everything else only without one.
#[inline(always)]
fn runs(entry: &Entry, failing: bool) -> bool {
    match entry {
        Entry::Error(_) => failing,
        Entry::Handler(_) | Entry::Sync(_) => !failing,
    }
}

/// Runs a layer's handlers from `run.next` for as long as they never
/// await: `Some` with how the layer ended, `None` when entry `run.next`
/// must be awaited ([`call`]).
///
/// One panic guard covers the whole run, not one per handler: a handler's
/// panic becomes the error travelling on from the entry after it (the run
/// counts an entry as passed before calling it), as a thrown error does in
/// Express.
pub(crate) fn run_now(
    kind: &LayerKind,
    run: &mut Run,
    method: &str,
    req: &mut Request,
    res: &mut Response,
) -> Option<Step> {
    let within = kind.within();
    loop {
        let attempt = std::panic::catch_unwind(AssertUnwindSafe(|| {
            loop {
                let entry = match kind.slot(run.next, method) {
                    Slot::End => return Some(Step::Next(run.err.take())),
                    Slot::Skip => {
                        run.next += 1;
                        continue;
                    }
                    Slot::Entry(entry) => entry,
                };
                if !runs(entry, run.err.is_some()) {
                    run.next += 1;
                    continue;
                }
                let Entry::Sync(f) = entry else {
                    return None;
                };
                run.next += 1;
                if let Some(step) = run.after(f.call_sync(req, res), within) {
                    return Some(step);
                }
            }
        }));
        match attempt {
            Ok(stop) => return stop,
            Err(payload) => run.err = Some(panic_error(payload)),
        }
    }
}

/// Runs entry `run.next`, which [`run_now`] stopped at, awaiting it: `Some`
/// with how the layer ended.
pub(crate) async fn call(
    kind: &LayerKind,
    run: &mut Run,
    method: &str,
    req: &mut Request,
    res: &mut Response,
) -> Option<Step> {
    let Slot::Entry(entry) = kind.slot(run.next, method) else {
        // Nothing to await there: the synchronous run goes on.
        return None;
    };
    run.next += 1;
    if !runs(entry, run.err.is_some()) {
        return None;
    }
    let r = match entry {
        Entry::Handler(f) => call_guarded(|| f.call(req, res)).await,
        Entry::Sync(f) => call_guarded(|| HandlerFuture::ready(f.call_sync(req, res))).await,
        Entry::Error(f) => {
            let e = run
                .err
                .take()
                .unwrap_or_else(|| Error::new("error handler"));
            call_guarded(|| f.call(e, req, res)).await
        }
    };
    run.after(r, kind.within())
}

/// Calls a handler and awaits its result, turning a panic in the call or
/// the future into a 500 error (Express turns a synchronous throw into
/// `next(err)`); only a handler that returned a pending future is polled.
pub(crate) async fn call_guarded<'a>(call: impl FnOnce() -> HandlerFuture<'a>) -> Result {
    let mut fut = match std::panic::catch_unwind(AssertUnwindSafe(call)) {
        Ok(fut) => fut,
        Err(payload) => return Err(panic_error(payload)),
    };
    match fut.take_ready() {
        Some(r) => r,
        None => Guarded(fut).await,
    }
}

/// The error a caught panic becomes.
pub(crate) fn panic_error(payload: Box<dyn std::any::Any + Send>) -> Error {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "handler panicked".to_owned());
    #[cfg(feature = "tracing")]
    crate::trace::panicked(&msg);
    Error::plain(msg).with_status(500)
}

/// A handler's future polled under a panic guard.
struct Guarded<'a>(HandlerFuture<'a>);

impl Future for Guarded<'_> {
    type Output = Result;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result> {
        let fut = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(fut).poll(cx))) {
            Ok(p) => p,
            Err(payload) => Poll::Ready(Err(panic_error(payload))),
        }
    }
}
