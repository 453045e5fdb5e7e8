//! A layer: one `use` registration or one route, with its compiled path.

use std::sync::Arc;

use webfw_pattern::{Key, LiteralEnd, Pattern};

use super::index::Fact;
use super::route::Route;
use super::{Params, PathSpec};
use crate::error::Error;
use crate::handler::markers::{AppValue, MiddlewareValue, RouterValue};
use crate::handler::{ErrorHandler, Handler, IntoMiddleware};
use crate::request::mount_edge;

/// One entry of a `use` or route stack.
pub enum Middleware {
    /// A normal handler.
    Handler(Arc<dyn Handler>),
    /// An error handler.
    Error(Arc<dyn ErrorHandler>),
    /// A mounted router.
    Router(Box<super::Router>),
    /// A mounted sub-application.
    App(Box<crate::app::App>),
    /// A sub-application after the app tree was frozen for serving.
    #[doc(hidden)]
    Mounted(crate::app::AppRef),
}

impl std::fmt::Debug for Middleware {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Middleware::Handler(_) => "Middleware::Handler",
            Middleware::Error(_) => "Middleware::Error",
            Middleware::Router(_) => "Middleware::Router",
            Middleware::App(_) => "Middleware::App",
            Middleware::Mounted(_) => "Middleware::Mounted",
        })
    }
}

impl IntoMiddleware<MiddlewareValue> for Middleware {
    fn into_middleware(self) -> Middleware {
        self
    }
}

impl IntoMiddleware<RouterValue> for super::Router {
    fn into_middleware(self) -> Middleware {
        Middleware::Router(Box::new(self))
    }
}

impl IntoMiddleware<AppValue> for crate::app::App {
    fn into_middleware(self) -> Middleware {
        Middleware::App(Box::new(self))
    }
}

pub(crate) enum LayerKind {
    /// `use` middleware, run in order under the stripped mount path.
    Use(Vec<Middleware>),
    Route(Route),
}

pub(crate) struct Layer {
    pattern: Pattern,
    /// For a literal pattern: its match once the prefix is known to match.
    literal_end: Option<LiteralEnd>,
    keys: Vec<Arc<str>>,
    pub(crate) kind: LayerKind,
}

/// A successful match: the matched prefix length and the decoded params.
pub(crate) struct Matched {
    pub(crate) len: usize,
    /// `None` for a pattern without parameters: most layers, whose walk
    /// then has no params to move.
    pub(crate) params: Option<Params>,
}

impl Layer {
    pub(crate) fn new(
        path: &PathSpec,
        opts: webfw_pattern::Options,
        kind: LayerKind,
    ) -> Result<Layer, webfw_pattern::PatternError> {
        let pattern = match path {
            PathSpec::Pattern(p) => Pattern::new(p, opts)?,
            PathSpec::Many(list) => {
                let refs: Vec<&str> = list.iter().map(String::as_str).collect();
                Pattern::many(&refs, opts)?
            }
            PathSpec::Regex(r) => Pattern::regex(r, opts)?,
        };
        let keys = pattern
            .keys()
            .iter()
            .map(|k| match k {
                Key::Name(n) => Arc::from(n.as_str()),
                Key::Index(i) => Arc::from(i.to_string().as_str()),
            })
            .collect();
        Ok(Layer {
            literal_end: pattern.literal_end(),
            pattern,
            keys,
            kind,
        })
    }

    pub(crate) fn literal_prefix(&self) -> &str {
        self.pattern.literal_prefix()
    }

    /// For a literal pattern, its match of a path known to start with
    /// [`Layer::literal_prefix`]: only what follows its text is looked at.
    #[inline]
    pub(crate) fn literal_end(&self) -> Option<LiteralEnd> {
        self.literal_end
    }

    pub(crate) fn keys(&self) -> &[Arc<str>] {
        &self.keys
    }

    /// Matches the request path; a parameter that cannot be percent-decoded is
    /// a 400 error, as in Express. `prefixed`: the path is known to start
    /// with the layer's literal prefix.
    pub(crate) fn match_path(&self, path: &str, prefixed: bool) -> Result<Option<Matched>, Error> {
        if self.keys.is_empty() {
            let len = self.match_keyless(path, prefixed);
            return Ok(len.map(|len| Matched { len, params: None }));
        }
        let mut params = Params::recycled();
        let mut bad = None;
        let len = self.pattern.matches_each_from(path, prefixed, |ki, raw| {
            match webfw_pattern::decode_param(raw) {
                Ok(value) => params.set(self.keys[ki].clone(), value),
                Err(e) => {
                    bad.get_or_insert(e);
                }
            }
        });
        let Some(len) = len else {
            Params::recycle(&mut params);
            return Ok(None);
        };
        if let Some(e) = bad {
            Params::recycle(&mut params);
            return Err(Error::new(e.to_string())
                .with_status(400)
                .with_name("URIError"));
        }
        Ok(Some(Matched {
            len,
            params: Some(params),
        }))
    }

    /// The matched length for a pattern without parameters.
    fn match_keyless(&self, path: &str, prefixed: bool) -> Option<usize> {
        if self.pattern.is_match_all() {
            return Some(0);
        }
        self.pattern.matches_each_from(path, prefixed, |_, _| {})
    }

    /// What matching `path` (known to start with the literal prefix)
    /// gives, for the index to keep for a path that is exactly `path`:
    /// `None` when the layer does not match it; not known for a pattern
    /// with parameters, whose values are decoded per request.
    pub(crate) fn fact_at(&self, path: &str) -> Option<Fact> {
        if !self.keys.is_empty() {
            return Some(Fact::Unknown);
        }
        let len = self.match_keyless(path, true)?;
        Some(Fact::Matches {
            len: len as u32,
            edge: self.edge_at(path, len),
        })
    }

    /// For a use layer that matched `len` bytes of `path`: the
    /// [`mount_edge`] its mount needs; nothing for a route.
    #[inline(always)]
    pub(crate) fn edge_at(&self, path: &str, len: usize) -> Option<bool> {
        match self.kind {
            LayerKind::Use(_) => mount_edge(path.as_bytes(), len),
            LayerKind::Route(_) => None,
        }
    }

    pub(crate) fn freeze(&mut self, parent: &crate::app::Frozen) {
        match &mut self.kind {
            LayerKind::Use(handlers) => freeze_all(handlers.iter_mut(), parent),
            LayerKind::Route(route) => {
                route.freeze();
                freeze_all(route.stack.iter_mut().map(|(_, h)| h), parent);
            }
        }
    }
}

fn freeze_all<'a>(handlers: impl Iterator<Item = &'a mut Middleware>, parent: &crate::app::Frozen) {
    for h in handlers {
        match h {
            Middleware::Router(r) => r.freeze(parent),
            Middleware::App(_) => {
                let Middleware::App(app) = std::mem::replace(h, Middleware::Handler(noop())) else {
                    unreachable!("matched App above")
                };
                *h = Middleware::Mounted(app.freeze_under(parent));
            }
            _ => {}
        }
    }
}

fn noop() -> Arc<dyn Handler> {
    struct Noop;
    impl Handler for Noop {
        fn call<'a>(
            &'a self,
            _req: &'a mut crate::Request,
            _res: &'a mut crate::Response,
        ) -> crate::handler::HandlerFuture<'a> {
            crate::handler::HandlerFuture::Ready(Some(crate::next()))
        }
    }
    Arc::new(Noop)
}
