//! The per-request walk over a router's layers (Express's `router.handle`,
//! `process_params`, `trim_prefix` and `route.dispatch`).

use std::borrow::Cow;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::Method;

use super::Middleware;
use super::index::Fact;
use super::layer::{Layer, LayerKind, Matched};
use super::route::{MethodSel, Route, lower_method, same_method};
use super::{Params, Router};
use crate::error::Error;
use crate::handler::{BoxFuture, Flow, HandlerFuture, Result};
use crate::inline_option::InlineOption;
use crate::request::{Mounted, Request, mount_edge};
use crate::response::Response;

/// Calls a handler under [`guarded`] and gives its result; only a handler
/// that returned a pending future is awaited, so a synchronous one costs no
/// poll.
macro_rules! call_guarded {
    ($call:expr) => {{
        let mut g = guarded(|| $call);
        match g.take_ready() {
            Some(r) => r,
            None => g.await,
        }
    }};
}

/// How a router (or app) hands control back to its parent.
pub(crate) enum Exit {
    /// The response was handled; stop everything.
    Done,
    /// Continue with the parent's next layer, with an error or without.
    Next(Option<Error>),
}

/// How a run of handlers ended.
enum Step {
    Done,
    /// `next('router')`: leave this router.
    LeaveRouter,
    Next,
}

/// Outcome of the parameter callbacks of one layer.
enum ParamOutcome {
    Continue,
    Done,
    /// `next('route')`: skip this layer.
    Skip,
    LeaveRouter,
    Err(Error),
}

/// The cached result of a parameter's callbacks for one value.
struct ParamCalled {
    name: Arc<str>,
    matched: String,
    value: String,
    outcome: Cached,
}

#[derive(Clone)]
enum Cached {
    Ok,
    Route,
    Router,
    Err(Error),
}

/// A router's walk over its layers, in values: the synchronous walk
/// ([`Router::walk_now`]) stops where a layer may await, and the async
/// [`Router::resume`] goes on from there. Owned, so that a future can hold
/// it beside the app the router belongs to.
struct Walk {
    method: Cow<'static, str>,
    /// The method's bit among the standard ones (see [`lower_method`]).
    method_bit: u16,
    is_options: bool,
    is_head: bool,
    /// What only some walks need, made when first needed: most walks then
    /// set up and drop one empty field.
    rare: InlineOption<Box<Rare>>,
    layer_error: Option<Error>,
    /// `req.url_version()` when the candidates were found.
    version: u32,
    /// The first layer the candidates were looked up from.
    cands_from: usize,
    /// The next candidate to look at.
    ci: usize,
    /// The layer matched last.
    last: usize,
    /// `req.params` of the parent router, restored on the way out.
    parent_params: Params,
}

/// The parts of a [`Walk`] only some requests use.
#[derive(Default)]
struct Rare {
    /// The methods of the routes an OPTIONS request matched.
    allow: Vec<String>,
    param_cache: Vec<ParamCalled>,
}

impl Walk {
    fn rare(&mut self) -> &mut Rare {
        self.rare.get_or_insert_default()
    }

    /// The `Allow` list of an automatic OPTIONS answer so far.
    fn allow(&self) -> &[String] {
        self.rare.as_ref().map_or(&[], |r| &r.allow)
    }
}

/// The layer the synchronous walk stopped at, because it may await.
enum Pending {
    /// The router has param callbacks: the layer runs from them on.
    Layer { matched_len: usize },
    /// A route, from handler `from` on.
    Route { from: usize, err: Option<Error> },
    /// A `use` layer (its mount entered), from handler `from` on.
    Use {
        from: usize,
        err: Option<Error>,
        mount: Mount,
    },
}

/// A router's walk stopped at a layer that may await.
pub(crate) struct Resume {
    walk: Walk,
    pending: Pending,
}

impl Router {
    /// Runs this router for a request (boxed: routers nest).
    pub(crate) fn handle<'a>(
        &'a self,
        req: &'a mut Request,
        res: &'a mut Response,
    ) -> BoxFuture<'a, Exit> {
        Box::pin(self.run(req, res))
    }

    /// Runs this router; restores `req.params` on the way out.
    pub(crate) async fn run(&self, req: &mut Request, res: &mut Response) -> Exit {
        match self.run_now(req, res) {
            Ok(exit) => exit,
            Err(resume) => self.resume(req, res, resume).await,
        }
    }

    /// Runs this router as far as its layers are synchronous: the exit, or
    /// where [`Router::resume`] must go on.
    /// The resume point is boxed: it is rare, and it moves into the
    /// request's future.
    pub(crate) fn run_now(
        &self,
        req: &mut Request,
        res: &mut Response,
    ) -> Result<Exit, Box<Resume>> {
        let Some(index) = self.index.as_ref() else {
            return Ok(Exit::Next(Some(Error::new(
                "router used before the app was frozen (call app.listen or app.into_service)",
            ))));
        };
        let (method, method_bit) = lower_method(req.method());
        let mut walk = Walk {
            method,
            method_bit,
            is_options: *req.method() == Method::OPTIONS,
            is_head: *req.method() == Method::HEAD,
            rare: InlineOption::none(),
            layer_error: None,
            version: req.url_version(),
            cands_from: 0,
            ci: 0,
            last: 0,
            parent_params: std::mem::take(&mut req.params),
        };
        match self.walk_now(index, &mut walk, req, res) {
            Ok(exit) => {
                leave(req, &exit, walk.parent_params);
                Ok(exit)
            }
            Err(pending) => Err(Box::new(Resume { walk, pending })),
        }
    }

    /// Goes on with a walk [`Router::run_now`] stopped.
    pub(crate) async fn resume(
        &self,
        req: &mut Request,
        res: &mut Response,
        resume: Box<Resume>,
    ) -> Exit {
        let Resume {
            mut walk,
            mut pending,
        } = *resume;
        let exit = loop {
            if let Some(exit) = self.run_pending(&mut walk, pending, req, res).await {
                break exit;
            }
            let Some(index) = self.index.as_ref() else {
                break Exit::Next(None);
            };
            match self.walk_now(index, &mut walk, req, res) {
                Ok(exit) => break exit,
                Err(p) => pending = p,
            }
        };
        leave(req, &exit, std::mem::take(&mut walk.parent_params));
        exit
    }

    /// Walks the layers from where `walk` is, for as long as they run
    /// synchronously.
    #[inline(always)]
    fn walk_now(
        &self,
        index: &super::index::Index,
        walk: &mut Walk,
        req: &mut Request,
        res: &mut Response,
    ) -> std::result::Result<Exit, Pending> {
        let mut cands = None;
        loop {
            if req.url_version() != walk.version {
                // A handler rewrote req.url: later layers match the new path.
                walk.version = req.url_version();
                walk.cands_from = walk.last + 1;
                walk.ci = 0;
                cands = None;
            }
            let (list, prefixed) =
                *cands.get_or_insert_with(|| index.candidates(req.path(), walk.cands_from));
            let Some(&cand) = list.get(walk.ci) else {
                break;
            };
            walk.ci += 1;
            walk.last = cand.layer as usize;
            let layer = &self.stack[walk.last];
            // A use layer's mount looks at the bytes around its end: known
            // with the match, or read while the path is at hand.
            let (matched, edge) = match cand.fact {
                Fact::Matches { len, edge } => (
                    Matched {
                        len: len as usize,
                        params: None,
                    },
                    edge,
                ),
                Fact::Unknown => {
                    let path = req.path();
                    let matched = match layer.literal_end().filter(|_| prefixed) {
                        // The trie compared the prefix: only the text after it is left.
                        Some(end) => match end.matches(path) {
                            Some(len) => Matched { len, params: None },
                            None => continue,
                        },
                        None => match layer.match_path(path, prefixed) {
                            Ok(Some(m)) => m,
                            Ok(None) => continue,
                            Err(e) => {
                                walk.layer_error.get_or_insert(e);
                                continue;
                            }
                        },
                    };
                    let edge = layer.edge_at(path, matched.len);
                    (matched, edge)
                }
            };
            if let LayerKind::Route(route) = &layer.kind {
                if walk.layer_error.is_some() {
                    continue;
                }
                let handles = route.handles_method(&walk.method, walk.method_bit);
                if !handles && walk.is_options {
                    for m in route.options_methods() {
                        let allow = &mut walk.rare().allow;
                        if !allow.contains(&m) {
                            allow.push(m);
                        }
                    }
                }
                if !handles && !walk.is_head {
                    continue;
                }
                req.route = route.info.clone();
            }
            match (self.opts.merge_params, matched.params) {
                (false, Some(params)) => req.replace_params(params),
                // No params where there were none: nothing to move.
                (false, None) if req.params.is_empty() => {}
                (false, None) => req.replace_params(Params::default()),
                (true, params) => req.replace_params(Params::merged(
                    &walk.parent_params,
                    params.unwrap_or_default(),
                )),
            }
            if !self.params.is_empty() {
                return Err(Pending::Layer {
                    matched_len: matched.len,
                });
            }
            let out = match &layer.kind {
                LayerKind::Route(route) => {
                    match dispatch_route_now(route, req, res, &walk.method) {
                        Now::Done(out) => out,
                        Now::From(from, err) => return Err(Pending::Route { from, err }),
                    }
                }
                LayerKind::Use(handlers) => {
                    let err = walk.layer_error.take();
                    let Some(mount) = Mount::enter(matched.len, edge, req) else {
                        walk.layer_error = err;
                        continue;
                    };
                    // Synchronous handlers run without a future; the first
                    // that may await continues on the async path.
                    match run_handlers_now(handlers, req, res, err) {
                        Now::Done(out) => {
                            mount.leave(req);
                            out
                        }
                        Now::From(from, err) => return Err(Pending::Use { from, err, mount }),
                    }
                }
            };
            if let Some(exit) = self.after_layer(walk, out, res) {
                return Ok(exit);
            }
        }
        Ok(self.finish(res, walk.layer_error.take(), walk.allow(), walk.is_options))
    }

    /// Runs the layer a synchronous walk stopped at; `Some` when the walk
    /// ends there.
    async fn run_pending(
        &self,
        walk: &mut Walk,
        pending: Pending,
        req: &mut Request,
        res: &mut Response,
    ) -> Option<Exit> {
        let layer = &self.stack[walk.last];
        let out = match (pending, &layer.kind) {
            (Pending::Layer { matched_len }, kind) => {
                match self
                    .process_params(layer, &mut walk.rare().param_cache, req, res)
                    .await
                {
                    ParamOutcome::Continue => {}
                    ParamOutcome::Done => return Some(Exit::Done),
                    ParamOutcome::Skip => return None,
                    ParamOutcome::LeaveRouter => {
                        return Some(self.finish(res, None, walk.allow(), walk.is_options));
                    }
                    ParamOutcome::Err(e) => {
                        walk.layer_error.get_or_insert(e);
                        return None;
                    }
                }
                match kind {
                    LayerKind::Route(route) => {
                        dispatch_route(route, req, res, &walk.method, 0, None).await
                    }
                    LayerKind::Use(handlers) => {
                        let err = walk.layer_error.take();
                        let edge = mount_edge(req.path().as_bytes(), matched_len);
                        let Some(mount) = Mount::enter(matched_len, edge, req) else {
                            walk.layer_error = err;
                            return None;
                        };
                        let out = run_handlers(handlers, req, res, err).await;
                        mount.leave(req);
                        out
                    }
                }
            }
            (Pending::Route { from, err }, LayerKind::Route(route)) => {
                dispatch_route(route, req, res, &walk.method, from, err).await
            }
            (Pending::Use { from, err, mount }, LayerKind::Use(handlers)) => {
                let out = run_handlers(&handlers[from..], req, res, err).await;
                mount.leave(req);
                out
            }
            _ => unreachable!("a pending layer keeps its kind"),
        };
        self.after_layer(walk, out, res)
    }

    /// What a layer's outcome means for the walk: `Some` when it ends here.
    #[inline(always)]
    fn after_layer(
        &self,
        walk: &mut Walk,
        out: (Step, Option<Error>),
        res: &mut Response,
    ) -> Option<Exit> {
        match out {
            (Step::Done, _) => Some(Exit::Done),
            (Step::LeaveRouter, _) => Some(self.finish(res, None, walk.allow(), walk.is_options)),
            (Step::Next, err) => {
                walk.layer_error = err;
                None
            }
        }
    }

    /// The router's `done`: the automatic OPTIONS answer, else back to the parent.
    fn finish(
        &self,
        res: &mut Response,
        err: Option<Error>,
        allow: &[String],
        is_options: bool,
    ) -> Exit {
        if err.is_none() && is_options && !allow.is_empty() {
            let body = allow.join(",");
            res.set("Allow", &body);
            return match res.send(body) {
                Ok(_) => Exit::Done,
                Err(e) => Exit::Next(Some(e)),
            };
        }
        Exit::Next(err)
    }

    async fn process_params(
        &self,
        layer: &Layer,
        cache: &mut Vec<ParamCalled>,
        req: &mut Request,
        res: &mut Response,
    ) -> ParamOutcome {
        if self.params.is_empty() {
            return ParamOutcome::Continue;
        }
        for key in layer.keys() {
            let Some(callbacks) = self.params.get(&**key) else {
                continue;
            };
            let Some(value) = req.params.get(key).map(str::to_owned) else {
                continue;
            };
            if let Some(pos) = cache.iter().position(|c| c.name == *key) {
                let c = &cache[pos];
                if c.matched == value || matches!(c.outcome, Cached::Err(_)) {
                    // Same value (or an earlier error): reuse, don't rerun.
                    req.params.set(key.clone(), c.value.clone());
                    match c.outcome.clone() {
                        Cached::Ok => continue,
                        Cached::Route => return ParamOutcome::Skip,
                        Cached::Router => return ParamOutcome::LeaveRouter,
                        Cached::Err(e) => return ParamOutcome::Err(e),
                    }
                }
                cache.remove(pos);
            }
            let mut entry = ParamCalled {
                name: key.clone(),
                matched: value.clone(),
                value: value.clone(),
                outcome: Cached::Ok,
            };
            let mut outcome = ParamOutcome::Continue;
            for cb in callbacks {
                let r = call_guarded!(cb.call(req, res, &value));
                entry.value = req.params.get(key).unwrap_or_default().to_owned();
                match r {
                    Ok(Flow::Next) => continue,
                    Ok(Flow::Done) => return ParamOutcome::Done,
                    Ok(Flow::Route) => {
                        entry.outcome = Cached::Route;
                        outcome = ParamOutcome::Skip;
                    }
                    Ok(Flow::Router) => {
                        entry.outcome = Cached::Router;
                        outcome = ParamOutcome::LeaveRouter;
                    }
                    Err(e) => {
                        entry.outcome = Cached::Err(e.clone());
                        outcome = ParamOutcome::Err(e);
                    }
                }
                break;
            }
            cache.push(entry);
            if !matches!(outcome, ParamOutcome::Continue) {
                return outcome;
            }
        }
        ParamOutcome::Continue
    }
}

/// Ends a router's walk. Express restores the parent's `req.params` only
/// when the router is left (`next` past its last layer, `next('router')`,
/// an error); a response ends the chain where it is, and `on_finish` hooks
/// see the params of the route that answered.
#[inline(always)]
fn leave(req: &mut Request, exit: &Exit, mut parent_params: Params) {
    match exit {
        Exit::Done => Params::recycle(&mut parent_params),
        Exit::Next(_) => req.replace_params(parent_params),
    }
}

/// A `use` layer's mount path, stripped from `req.url` (and added to
/// `req.baseUrl`) while the layer's handlers run; `None` for an empty one.
struct Mount(Option<Mounted>);

impl Mount {
    /// Strips the first `removed_len` bytes of `req.path`, whose
    /// [`mount_edge`] is `edge`; `None` when they do not end at a segment
    /// boundary (the layer does not apply).
    #[inline(always)]
    fn enter(removed_len: usize, edge: Option<bool>, req: &mut Request) -> Option<Mount> {
        if removed_len == 0 {
            return Some(Mount(None));
        }
        // The removed text lives on in `base_url` (less a trailing `/`): no copy.
        req.enter_mount(removed_len, edge).map(|m| Mount(Some(m)))
    }

    /// Restores `req.url` and `req.baseUrl`.
    #[inline(always)]
    fn leave(self, req: &mut Request) {
        if let Some(m) = self.0 {
            req.leave_mount(m);
        }
    }
}

/// Where a synchronous run of handlers stopped.
enum Now {
    /// Every handler ran, or one ended the run: the outcome.
    Done((Step, Option<Error>)),
    /// Handler `.0` may await: the async path goes on from it, with the
    /// error travelling so far.
    From(usize, Option<Error>),
}

/// A synchronous run of handlers: the next to call and the error travelling.
struct Run {
    next: usize,
    err: Option<Error>,
}

impl Run {
    /// Runs `step` under one panic guard for the whole run, not one per
    /// handler: a handler's panic becomes the error travelling on from the
    /// handler after it (`step` counts a handler as passed before calling
    /// it), as a thrown error does in Express.
    fn guarded(err: Option<Error>, mut step: impl FnMut(&mut Run) -> Now) -> Now {
        let mut run = Run { next: 0, err };
        loop {
            match std::panic::catch_unwind(AssertUnwindSafe(|| step(&mut run))) {
                Ok(now) => return now,
                Err(payload) => run.err = Some(panic_error(payload)),
            }
        }
    }
}

/// [`run_handlers`] for as long as the handlers are synchronous (see
/// [`Handler::call_now`](crate::handler::Handler::call_now)).
fn run_handlers_now(
    handlers: &[Middleware],
    req: &mut Request,
    res: &mut Response,
    err: Option<Error>,
) -> Now {
    Run::guarded(err, |run| {
        while let Some(h) = handlers.get(run.next) {
            let i = run.next;
            run.next += 1;
            let result = match h {
                Middleware::Handler(_) if run.err.is_some() => continue,
                Middleware::Handler(f) => match f.call_now(req, res) {
                    Some(r) => r,
                    None => return Now::From(i, run.err.take()),
                },
                Middleware::Error(_) if run.err.is_none() => continue,
                Middleware::Router(_) | Middleware::Mounted(_) if run.err.is_some() => continue,
                Middleware::App(_) => continue,
                _ => return Now::From(i, run.err.take()),
            };
            match result {
                Ok(Flow::Next) | Ok(Flow::Route) => {}
                Ok(Flow::Router) => return Now::Done((Step::LeaveRouter, None)),
                Ok(Flow::Done) => return Now::Done((Step::Done, None)),
                Err(e) => run.err = Some(e),
            }
        }
        Now::Done((Step::Next, run.err.take()))
    })
}

/// Runs the handlers of one layer in order, honouring error mode.
async fn run_handlers(
    handlers: &[Middleware],
    req: &mut Request,
    res: &mut Response,
    mut err: Option<Error>,
) -> (Step, Option<Error>) {
    for h in handlers {
        let result = match h {
            Middleware::Handler(f) => {
                if err.is_some() {
                    continue;
                }
                call_guarded!(f.call(req, res))
            }
            Middleware::Error(f) => {
                let Some(e) = err.take() else { continue };
                call_guarded!(f.call(e, req, res))
            }
            Middleware::Router(r) => {
                if err.is_some() {
                    continue;
                }
                match r.handle(req, res).await {
                    Exit::Done => return (Step::Done, None),
                    Exit::Next(e) => {
                        err = e;
                        continue;
                    }
                }
            }
            Middleware::Mounted(app) => {
                if err.is_some() {
                    continue;
                }
                match app.handle_mounted(req, res).await {
                    Exit::Done => return (Step::Done, None),
                    Exit::Next(e) => {
                        err = e;
                        continue;
                    }
                }
            }
            Middleware::App(_) => continue,
        };
        match result {
            Ok(Flow::Next) | Ok(Flow::Route) => {}
            Ok(Flow::Router) => return (Step::LeaveRouter, None),
            Ok(Flow::Done) => return (Step::Done, None),
            Err(e) => err = Some(e),
        }
    }
    (Step::Next, err)
}

/// [`dispatch_route`] for as long as the handlers are synchronous.
fn dispatch_route_now(route: &Route, req: &mut Request, res: &mut Response, method: &str) -> Now {
    let method = route.dispatch_method(method);
    Run::guarded(None, |run| {
        while let Some((sel, h)) = route.stack.get(run.next) {
            let i = run.next;
            run.next += 1;
            if let MethodSel::One(m) = sel
                && !same_method(m, method)
            {
                continue;
            }
            let result = match h {
                Middleware::Error(_) if run.err.is_none() => continue,
                Middleware::Error(_) => return Now::From(i, run.err.take()),
                _ if run.err.is_some() => continue,
                Middleware::Handler(f) => match f.call_now(req, res) {
                    Some(r) => r,
                    None => return Now::From(i, run.err.take()),
                },
                _ => return Now::From(i, run.err.take()),
            };
            match result {
                Ok(Flow::Next) => {}
                Ok(Flow::Route) => return Now::Done((Step::Next, None)),
                Ok(Flow::Router) => return Now::Done((Step::LeaveRouter, None)),
                Ok(Flow::Done) => return Now::Done((Step::Done, None)),
                Err(e) => run.err = Some(e),
            }
        }
        Now::Done((Step::Next, run.err.take()))
    })
}

/// `route.dispatch`: the route's handlers for the request's method, from
/// handler `from` on, with the error travelling so far.
async fn dispatch_route(
    route: &Route,
    req: &mut Request,
    res: &mut Response,
    method: &str,
    from: usize,
    mut err: Option<Error>,
) -> (Step, Option<Error>) {
    let method = route.dispatch_method(method);
    for (sel, h) in &route.stack[from..] {
        if let MethodSel::One(m) = sel
            && !same_method(m, method)
        {
            continue;
        }
        let result = match h {
            Middleware::Error(f) => {
                let Some(e) = err.take() else { continue };
                call_guarded!(f.call(e, req, res))
            }
            _ if err.is_some() => continue,
            Middleware::Handler(f) => call_guarded!(f.call(req, res)),
            other => {
                let (step, e) = run_handlers(std::slice::from_ref(other), req, res, None).await;
                match step {
                    Step::Next => {
                        err = e;
                        continue;
                    }
                    s => return (s, None),
                }
            }
        };
        match result {
            Ok(Flow::Next) => {}
            Ok(Flow::Route) => return (Step::Next, None),
            Ok(Flow::Router) => return (Step::LeaveRouter, None),
            Ok(Flow::Done) => return (Step::Done, None),
            Err(e) => err = Some(e),
        }
    }
    (Step::Next, err)
}

/// Calls a handler and polls its future, turning a panic in either into a 500
/// error for this request (Express turns a synchronous throw into `next(err)`).
fn guarded<'a>(call: impl FnOnce() -> HandlerFuture<'a>) -> Guarded<HandlerFuture<'a>> {
    match std::panic::catch_unwind(AssertUnwindSafe(call)) {
        Ok(fut) => Guarded(fut),
        Err(payload) => Guarded(HandlerFuture::Ready(Some(Err(panic_error(payload))))),
    }
}

/// The error a caught panic becomes.
fn panic_error(payload: Box<dyn std::any::Any + Send>) -> Error {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "handler panicked".to_owned());
    Error::new(msg).with_status(500)
}

struct Guarded<F>(F);

impl Guarded<HandlerFuture<'_>> {
    /// The result of a handler that finished synchronously.
    fn take_ready(&mut self) -> Option<Result> {
        match &mut self.0 {
            HandlerFuture::Ready(r) => r.take(),
            HandlerFuture::Boxed(_) => None,
        }
    }
}

impl<F: Future<Output = Result> + Unpin> Future for Guarded<F> {
    type Output = Result;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result> {
        let fut = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(fut).poll(cx))) {
            Ok(p) => p,
            Err(payload) => Poll::Ready(Err(panic_error(payload))),
        }
    }
}
