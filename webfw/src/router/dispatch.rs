//! The per-request walk over a router's layers (Express's `router.handle`,
//! `process_params` and `trim_prefix`); the handlers of each layer run
//! through the flow engine ([`super::flow`]).

use std::borrow::Cow;
use std::sync::Arc;

use http::Method;

use super::flow::{self, Run, Step, call_guarded};
use super::index::Fact;
use super::layer::{Layer, LayerKind, Matched};
use super::route::{lower_method, route_method};
use super::{Params, RouterRef};
use crate::error::Error;
use crate::handler::{Handler, HandlerFuture};
use crate::inline_option::InlineOption;
use crate::outcome::{Meaning, Within, meaning};
use crate::request::{Mounted, Request, mount_edge};
use crate::response::Response;

/// How a router (or app) hands control back to its parent.
pub(crate) enum Exit {
    /// The response was handled; stop everything.
    Done,
    /// Continue with the parent's next layer, with an error or without.
    Next(Option<Error>),
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
/// ([`RouterRef::walk_now`]) pauses before a layer's param callbacks or an
/// entry that may await, and the async [`RouterRef::resume`] awaits that and
/// goes back into the same walk. Owned, so that a future can hold it beside
/// the app the router belongs to.
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
    /// `req.rewrites()` when the candidates were found and the method read.
    version: u32,
    /// The first layer the candidates were looked up from.
    cands_from: usize,
    /// The next candidate to look at.
    ci: usize,
    /// The layer matched last.
    last: usize,
    /// `req.params` of the parent router, restored on the way out.
    parent_params: Params,
    /// The layer the walk paused in, when it did.
    paused: Option<InLayer>,
}

/// A matched layer whose handlers are running.
struct InLayer {
    run: Run,
    /// A use layer's mount path, stripped from `req.url` while it runs.
    mount: Mount,
    /// The matched length, while the router's param callbacks have yet to
    /// run (the use layer's mount waits for them).
    params: Option<usize>,
}

impl InLayer {
    fn new(run: Run, mount: Mount) -> InLayer {
        InLayer {
            run,
            mount,
            params: None,
        }
    }
}

/// The walk paused: [`RouterRef::resume`] goes on.
struct Paused;

/// The parts of a [`Walk`] only some requests use.
#[derive(Default)]
struct Rare {
    /// The methods of the routes an OPTIONS request matched.
    allow: Vec<String>,
    param_cache: Vec<ParamCalled>,
}

impl Walk {
    /// Takes up a rewritten `req.method`. Whether the router answers
    /// OPTIONS stays as it was on entry, as Express decides it there.
    #[cold]
    fn reread_method(&mut self, method: &Method) {
        // Express lower-cases a method it compares with a route's, so a
        // method assigned in any case finds the standard one's bit.
        (self.method, self.method_bit) = route_method(method.as_str().to_ascii_lowercase());
        self.is_head = *method == Method::HEAD;
    }

    fn rare(&mut self) -> &mut Rare {
        self.rare.get_or_insert_default()
    }

    /// The `Allow` list of an automatic OPTIONS answer so far.
    fn allow(&self) -> &[String] {
        self.rare.as_ref().map_or(&[], |r| &r.allow)
    }
}

/// A router's walk paused where it must await.
pub(crate) struct Resume {
    walk: Walk,
}

/// A mounted router runs as one handler of its parent's layer (Express's
/// router is itself a `(req, res, next)` function); boxed, as routers nest.
impl Handler for RouterRef {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        HandlerFuture::boxed(Box::pin(
            async move { self.run(req, res).await.into_result() },
        ))
    }
}

impl RouterRef {
    /// Runs this router; restores `req.params` on the way out.
    pub(crate) async fn run(&self, req: &mut Request, res: &mut Response) -> Exit {
        match self.run_now(req, res) {
            Ok(exit) => exit,
            Err(resume) => self.resume(req, res, resume).await,
        }
    }

    /// Runs this router as far as its layers are synchronous: the exit, or
    /// where [`RouterRef::resume`] must go on.
    /// The resume point is boxed: it is rare, and it moves into the
    /// request's future.
    pub(crate) fn run_now(
        &self,
        req: &mut Request,
        res: &mut Response,
    ) -> Result<Exit, Box<Resume>> {
        let (method, method_bit) = lower_method(req.method());
        let mut walk = Walk {
            method,
            method_bit,
            is_options: *req.method() == Method::OPTIONS,
            is_head: *req.method() == Method::HEAD,
            rare: InlineOption::none(),
            layer_error: None,
            version: req.rewrites(),
            cands_from: 0,
            ci: 0,
            last: 0,
            parent_params: std::mem::take(&mut req.params),
            paused: None,
        };
        match self.walk_now(&mut walk, req, res) {
            Ok(exit) => {
                leave(req, &exit, walk.parent_params);
                Ok(exit)
            }
            Err(Paused) => Err(Box::new(Resume { walk })),
        }
    }

    /// Goes on with a walk [`RouterRef::run_now`] paused: awaits what it
    /// paused at, then re-enters the synchronous walk.
    pub(crate) async fn resume(
        &self,
        req: &mut Request,
        res: &mut Response,
        resume: Box<Resume>,
    ) -> Exit {
        let Resume { mut walk } = *resume;
        let exit = loop {
            if let Some(exit) = self.await_paused(&mut walk, req, res).await {
                break exit;
            }
            // Paused again: the loop awaits what it paused at.
            if let Ok(exit) = self.walk_now(&mut walk, req, res) {
                break exit;
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
        walk: &mut Walk,
        req: &mut Request,
        res: &mut Response,
    ) -> std::result::Result<Exit, Paused> {
        if let Some(layer) = walk.paused.take()
            && let Some(exit) = self.go_on(walk, layer, req, res)?
        {
            return Ok(exit);
        }
        let mut cands = None;
        loop {
            if req.rewrites() != walk.version {
                // A handler rewrote req.url or req.method: later layers
                // match the new values (Express reads both per layer).
                walk.version = req.rewrites();
                walk.cands_from = walk.last + 1;
                walk.ci = 0;
                cands = None;
                walk.reread_method(req.method());
            }
            let (list, prefixed) =
                *cands.get_or_insert_with(|| self.index.candidates(req.path(), walk.cands_from));
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
                // The methods are collected while the method is OPTIONS
                // (Express compares it per layer).
                if !handles && walk.is_options && *req.method() == Method::OPTIONS {
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
                req.route = Some(route.info.clone());
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
                walk.paused = Some(InLayer {
                    params: Some(matched.len),
                    ..InLayer::new(Run::new(None), Mount(None))
                });
                return Err(Paused);
            }
            let running = match &layer.kind {
                LayerKind::Route(_) => InLayer::new(Run::new(None), Mount(None)),
                LayerKind::Use(_) => {
                    let err = walk.layer_error.take();
                    let Some(mount) =
                        Mount::enter(matched.len, edge, self.opts.dialect.is_express5(), req)
                    else {
                        walk.layer_error = err;
                        continue;
                    };
                    InLayer::new(Run::new(err), mount)
                }
            };
            if let Some(exit) = self.go_on(walk, running, req, res)? {
                return Ok(exit);
            }
        }
        Ok(self.finish(res, walk.layer_error.take(), walk.allow(), walk.is_options))
    }

    /// Runs the handlers of the layer `walk.last` on from where `running`
    /// is, for as long as they are synchronous: `Some` when the walk ends
    /// with the layer.
    #[inline(always)]
    fn go_on(
        &self,
        walk: &mut Walk,
        mut running: InLayer,
        req: &mut Request,
        res: &mut Response,
    ) -> std::result::Result<Option<Exit>, Paused> {
        let kind = &self.stack[walk.last].kind;
        let method = dispatch_method(kind, &walk.method);
        match flow::run_now(kind, &mut running.run, method, req, res) {
            Some(step) => Ok(self.end_layer(walk, running.mount, step, req, res)),
            None => {
                walk.paused = Some(running);
                Err(Paused)
            }
        }
    }

    /// Awaits what the walk paused at: the layer's param callbacks, or the
    /// one entry that may await. `Some` when the walk ends there.
    async fn await_paused(
        &self,
        walk: &mut Walk,
        req: &mut Request,
        res: &mut Response,
    ) -> Option<Exit> {
        let mut running = walk.paused.take()?;
        let layer = &self.stack[walk.last];
        if let Some(matched_len) = running.params.take() {
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
            if let LayerKind::Use(_) = layer.kind {
                let err = walk.layer_error.take();
                let edge = mount_edge(req.path().as_bytes(), matched_len);
                let Some(mount) =
                    Mount::enter(matched_len, edge, self.opts.dialect.is_express5(), req)
                else {
                    walk.layer_error = err;
                    return None;
                };
                running = InLayer::new(Run::new(err), mount);
            }
            walk.paused = Some(running);
            return None;
        }
        let method = dispatch_method(&layer.kind, &walk.method);
        match flow::call(&layer.kind, &mut running.run, method, req, res).await {
            Some(step) => self.end_layer(walk, running.mount, step, req, res),
            None => {
                walk.paused = Some(running);
                None
            }
        }
    }

    /// Leaves a layer whose run ended with `step`: `Some` when the walk
    /// ends with it.
    #[inline(always)]
    fn end_layer(
        &self,
        walk: &mut Walk,
        mount: Mount,
        step: Step,
        req: &mut Request,
        res: &mut Response,
    ) -> Option<Exit> {
        mount.leave(req);
        match step {
            Step::Done => Some(Exit::Done),
            Step::LeaveRouter => Some(self.finish(res, None, walk.allow(), walk.is_options)),
            Step::Next(err) => {
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
            return self.options_answer(res, allow);
        }
        Exit::Next(err)
    }

    /// The automatic OPTIONS answer, Express 4's or router 2's. Out of line:
    /// `finish` is on every request's path.
    #[cold]
    #[inline(never)]
    fn options_answer(&self, res: &mut Response, allow: &[String]) -> Exit {
        let sent = if self.opts.dialect.is_express5() {
            options_answer_5(res, allow)
        } else {
            let body = allow.join(",");
            res.set("Allow", &body);
            res.send(body)
        };
        match sent {
            Ok(_) => Exit::Done,
            Err(e) => Exit::Next(Some(e)),
        }
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
                let r = call_guarded(|| cb.call(req, res, &value)).await;
                entry.value = req.params.get(key).unwrap_or_default().to_owned();
                match meaning(r, Within::Param) {
                    Meaning::Continue => continue,
                    Meaning::Done => return ParamOutcome::Done,
                    Meaning::EndLayer => {
                        entry.outcome = Cached::Route;
                        outcome = ParamOutcome::Skip;
                    }
                    Meaning::LeaveRouter => {
                        entry.outcome = Cached::Router;
                        outcome = ParamOutcome::LeaveRouter;
                    }
                    Meaning::Fail(e) => {
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
    fn enter(removed_len: usize, edge: Option<bool>, v5: bool, req: &mut Request) -> Option<Mount> {
        if removed_len == 0 {
            return Some(Mount(None));
        }
        // The removed text lives on in `base_url` (less a trailing `/`): no copy.
        req.enter_mount(removed_len, edge, v5)
            .map(|m| Mount(Some(m)))
    }

    /// Restores `req.url` and `req.baseUrl`.
    #[inline(always)]
    fn leave(self, req: &mut Request) {
        if let Some(m) = self.0 {
            req.leave_mount(m);
        }
    }
}

/// The method a layer's entries are selected by: a route answers HEAD
/// with its GET handlers when it has none for HEAD.
#[inline(always)]
fn dispatch_method<'m>(kind: &LayerKind, method: &'m str) -> &'m str {
    match kind {
        LayerKind::Route(route) => route.dispatch_method(method),
        LayerKind::Use(_) => method,
    }
}

/// router 2's automatic OPTIONS answer: the methods unique and sorted, as
/// plain text with `nosniff`, written with `res.end` (so no ETag).
fn options_answer_5(res: &mut Response, allow: &[String]) -> crate::Result {
    let mut methods: Vec<&str> = allow.iter().map(String::as_str).collect();
    methods.sort_unstable();
    methods.dedup();
    let body = methods.join(", ");
    res.insert_value(http::header::ALLOW, &body);
    res.insert_value(http::header::CONTENT_TYPE, "text/plain");
    res.insert_value(http::header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    res.end_with(body)
}
