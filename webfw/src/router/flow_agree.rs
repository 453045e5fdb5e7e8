//! The fast paths agree with the general one: the same apps, built once
//! with plain functions (called directly, fused in `use` groups) and once
//! with every handler behind a future, answer every request alike.

use std::cell::RefCell;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use http::Method;

use crate::app::ServedApp;
use crate::handler::{ErrorHandler, Handler, HandlerFuture, IntoMiddleware};
use crate::response::outbox::HeadBody;
use crate::{Error, Flow, Middleware, Request, Response, Result, Router};

thread_local! {
    static TRAIL: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

fn mark(name: &'static str) {
    TRAIL.with(|t| t.borrow_mut().push(name));
}

type Plain = fn(&mut Request, &mut Response) -> Result;
type OnError = fn(Error, &mut Request, &mut Response) -> Result;

fn pass(_: &mut Request, _: &mut Response) -> Result {
    mark("pass");
    Ok(Flow::Next)
}
fn skip_route(_: &mut Request, _: &mut Response) -> Result {
    mark("route");
    Ok(Flow::Route)
}
fn leave_router(_: &mut Request, _: &mut Response) -> Result {
    mark("router");
    Ok(Flow::Router)
}
fn answer(req: &mut Request, res: &mut Response) -> Result {
    mark("send");
    let url = req.url().to_owned();
    res.send(format!("sent at {url}"))
}
fn fail(_: &mut Request, _: &mut Response) -> Result {
    mark("fail");
    Err(Error::new("failed").with_status(418))
}
fn explode(_: &mut Request, _: &mut Response) -> Result {
    mark("panic");
    panic!("exploded")
}
fn done_silently(_: &mut Request, _: &mut Response) -> Result {
    mark("done");
    Ok(Flow::Done)
}
fn recover(err: Error, _: &mut Request, res: &mut Response) -> Result {
    mark("recover");
    res.status(299).send(format!("recovered {err}"))
}
fn hand_on(err: Error, _: &mut Request, _: &mut Response) -> Result {
    mark("hand on");
    Err(err)
}
fn resume_flow(_: Error, _: &mut Request, _: &mut Response) -> Result {
    mark("resume");
    Ok(Flow::Next)
}

const PLAIN: [Plain; 7] = [
    pass,
    skip_route,
    leave_router,
    answer,
    fail,
    explode,
    done_silently,
];
const ON_ERROR: [OnError; 3] = [recover, hand_on, resume_flow];

/// A plain function behind a future: the general path.
struct Awaited(Plain);

impl Handler for Awaited {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        let f = self.0;
        HandlerFuture::boxed(Box::pin(async move { f(req, res) }))
    }
}

struct AwaitedError(OnError);

impl ErrorHandler for AwaitedError {
    fn call<'a>(
        &'a self,
        err: Error,
        req: &'a mut Request,
        res: &'a mut Response,
    ) -> HandlerFuture<'a> {
        let f = self.0;
        HandlerFuture::boxed(Box::pin(async move { f(err, req, res) }))
    }
}

#[derive(Clone, Copy)]
enum Item {
    Plain(Plain),
    OnError(OnError),
}

#[derive(Clone)]
enum Shape {
    /// `use` at a path: its items.
    Use(&'static str, Vec<Item>),
    /// A route for GET (`true`) or all methods.
    Route(&'static str, bool, Vec<Item>),
    /// A router mounted at a path.
    Nested(&'static str, Vec<Shape>),
}

/// A small deterministic generator (no dependency for one test).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }

    fn items(&mut self) -> Vec<Item> {
        (0..1 + self.below(3))
            .map(|_| match self.below(4) {
                0 => Item::OnError(ON_ERROR[self.below(ON_ERROR.len())]),
                _ => Item::Plain(PLAIN[self.below(PLAIN.len())]),
            })
            .collect()
    }

    fn shapes(&mut self, depth: usize) -> Vec<Shape> {
        const PATHS: [&str; 3] = ["/", "/a", "/a/b"];
        (0..1 + self.below(4))
            .map(|_| match self.below(if depth == 0 { 3 } else { 2 }) {
                0 => Shape::Use(PATHS[self.below(2)], self.items()),
                1 => Shape::Route(PATHS[1 + self.below(2)], self.below(2) == 0, self.items()),
                _ => Shape::Nested(PATHS[self.below(2)], self.shapes(depth + 1)),
            })
            .collect()
    }
}

fn entries(items: &[Item], general: bool) -> Vec<Middleware> {
    items
        .iter()
        .map(|item| match (*item, general) {
            (Item::Plain(f), false) => f.into_middleware(),
            (Item::Plain(f), true) => crate::handler(Awaited(f)),
            (Item::OnError(f), false) => f.into_middleware(),
            (Item::OnError(f), true) => crate::error_handler_value(AwaitedError(f)),
        })
        .collect()
}

/// Registers `items` on `router` with `use`: a group of plain functions
/// goes in as a tuple, as an app would write it (one fused handler).
fn use_items(router: &mut Router, path: &'static str, items: &[Item], general: bool) {
    let plain: Option<Vec<Plain>> = items
        .iter()
        .map(|i| match i {
            Item::Plain(f) => Some(*f),
            Item::OnError(_) => None,
        })
        .collect();
    match plain.as_deref() {
        Some(&[a]) if !general => router.use_at(path, (a,)),
        Some(&[a, b]) if !general => router.use_at(path, (a, b)),
        Some(&[a, b, c]) if !general => router.use_at(path, (a, b, c)),
        _ => router.use_at(path, entries(items, general)),
    };
}

fn build(router: &mut Router, shapes: &[Shape], general: bool) {
    for shape in shapes {
        match shape {
            Shape::Use(path, items) => use_items(router, path, items, general),
            Shape::Route(path, true, items) => {
                router.get(*path, entries(items, general));
            }
            Shape::Route(path, false, items) => {
                router.all(*path, entries(items, general));
            }
            Shape::Nested(path, inner) => {
                let mut nested = Router::new();
                build(&mut nested, inner, general);
                router.use_at(*path, nested);
            }
        }
    }
}

fn app(shapes: &[Shape], general: bool) -> ServedApp {
    let mut router = Router::new();
    build(&mut router, shapes, general);
    let mut app = crate::app();
    app.use_(router);
    app.serve_root().expect("no state is missing")
}

fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = fut.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

/// What a request to `app` did: the handlers it passed, status and body.
fn serve(app: &ServedApp, method: Method, target: &str) -> (Vec<&'static str>, u16, Vec<u8>) {
    TRAIL.with(|t| t.borrow_mut().clear());
    let mut req = crate::testing::request(method, target);
    req.app = app.app().clone();
    let mut res = crate::testing::response(&req);
    res.outbox.hold();
    if let Some(resume) = app.handle_root_now(&mut req, &mut res) {
        block_on(app.resume_root(&mut req, &mut res, resume));
    }
    let head = res.outbox.take_held().expect("every request is answered");
    let body = match head.body {
        HeadBody::Full(b) => b.to_vec(),
        HeadBody::Empty | HeadBody::Stream => Vec::new(),
    };
    (TRAIL.with(|t| t.take()), head.status, body)
}

#[test]
fn plain_functions_called_directly_answer_as_awaited_handlers_do() {
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Lcg(7);
    let mut passed_fused = 0;
    for case in 0..400 {
        let shapes = rng.shapes(0);
        let (fast, general) = (app(&shapes, false), app(&shapes, true));
        for (method, target) in [
            (Method::GET, "/a"),
            (Method::GET, "/a/b"),
            (Method::POST, "/a/b?x=1"),
            (Method::HEAD, "/a"),
        ] {
            let want = serve(&general, method.clone(), target);
            let got = serve(&fast, method.clone(), target);
            assert_eq!(got, want, "case {case}: {method} {target}");
            passed_fused += usize::from(want.0.len() > 1);
        }
    }
    std::panic::set_hook(quiet);
    assert!(passed_fused > 100, "the cases run chains of handlers");
}
