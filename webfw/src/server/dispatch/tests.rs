use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use http::{HeaderName, Method};

use super::super::pair::Pair;
use super::super::watchdog::Activity;
use super::*;
use crate::request::Request;
use crate::response::{Response, SharedFinish};

struct Hook {
    early: bool,
    ran: Arc<AtomicUsize>,
}

impl SharedFinish for Hook {
    fn reads(&self) -> Option<&[HeaderName]> {
        Some(&[])
    }
    fn runs_early(&self) -> bool {
        self.early
    }
    fn finish(&self, _req: &Request, _res: &Response, _since: Option<Instant>) {
        self.ran.fetch_add(1, Ordering::SeqCst);
    }
}

/// Pending at its first poll (waking its waker), ready at the next.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if std::mem::replace(&mut self.0, true) {
            return Poll::Ready(());
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// A dispatch whose chain registers a finish hook (when `hook` is
/// given), optionally yields once, then sends.
fn dispatch(hook: Option<Hook>, yields: bool) -> Dispatch {
    let mailbox = Arc::new(Mailbox::default());
    let mut pair = Pair::empty();
    let (req, res) = pair.slots();
    let req = req.fill(crate::testing::request(Method::GET, "/"));
    res.fill(Response::new(req, mailbox.clone()));
    let chain: ChainFuture = Box::pin(async move {
        if yields {
            YieldOnce(false).await;
        }
        let (_, res) = pair.parts();
        if let Some(hook) = hook {
            res.on_finish_shared(Arc::new(hook), None);
        }
        res.send("done").unwrap();
        res.has_finish_hooks().then_some(pair)
    });
    let activity = Arc::new(Activity::default());
    Dispatch::new(
        Chain::Running(chain),
        None,
        mailbox,
        Some(InFlight::new(&activity)),
        crate::final_handler::panic_response,
    )
}

fn poll(d: &mut Dispatch, waker: &Waker) -> Poll<HyperResponse> {
    let polled = Pin::new(d).poll(&mut Context::from_waker(waker));
    polled.map(|r| r.unwrap_or_else(|never| match never {}))
}

#[test]
fn the_map_a_new_http_response_makes_owns_no_memory() {
    // `build` forgets it rather than dropping it.
    assert_eq!(http::Response::new(()).headers().capacity(), 0);
}

#[test]
fn a_synchronous_chain_is_answered_while_the_dispatch_is_made() {
    let d = dispatch(None, false);
    assert!(d.answered.is_some());
    assert!(d.chain.is_none(), "the chain is done, its request dropped");
}

#[test]
fn a_chain_that_waits_is_polled_again_by_the_connection() {
    let mut d = dispatch(None, true);
    assert!(d.answered.is_none(), "the first poll only started it");
    let Poll::Ready(response) = poll(&mut d, Waker::noop()) else {
        panic!("the second poll finishes the chain");
    };
    assert_eq!(response.status(), 200);
}

/// A dispatch whose chain registers a hook, and the hook's run count.
fn with_hook(early: bool, yields: bool) -> (Dispatch, Arc<AtomicUsize>) {
    let ran = Arc::new(AtomicUsize::new(0));
    let hook = Hook {
        early,
        ran: ran.clone(),
    };
    (dispatch(Some(hook), yields), ran)
}

/// Polls until the dispatch answers.
fn response(d: &mut Dispatch) -> HyperResponse {
    loop {
        if let Poll::Ready(r) = poll(d, Waker::noop()) {
            return r;
        }
    }
}

#[test]
fn a_hook_that_may_run_early_runs_before_the_response_is_written() {
    let (mut d, ran) = with_hook(true, false);
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    let response = response(&mut d);
    assert!(
        response.body().finisher.is_none(),
        "nothing is left to run when the body is done"
    );
    drop(response);
    assert_eq!(ran.load(Ordering::SeqCst), 1, "and only once");
}

#[test]
fn other_hooks_run_once_the_body_is_done() {
    for yields in [false, true] {
        let (mut d, ran) = with_hook(false, yields);
        let response = response(&mut d);
        assert_eq!(ran.load(Ordering::SeqCst), 0, "not before the write");
        drop(response);
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    }
}

#[test]
fn a_hook_of_a_waiting_chain_runs_once_the_body_is_done() {
    let (mut d, ran) = with_hook(true, true);
    let response = response(&mut d);
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    drop(response);
    assert_eq!(ran.load(Ordering::SeqCst), 1);
}
