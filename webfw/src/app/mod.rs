//! The application (`express()`): settings, locals, the app's router, mounting
//! of sub-apps, and the entry point of every request.
//!
//! An [`App`] is built mutably, then frozen when it starts serving: sub-apps
//! are frozen under their parent so that settings inheritance and
//! `app.path()` are resolved once. Its handlers see the frozen app as an
//! [`AppRef`] (module `app_ref`, a leaf the request and response hold); the
//! server runs it as a `ServedApp` (`served.rs`), its router beside it.
//!
//! ```
//! use webfw::prelude::*;
//! let mut admin = webfw::app();
//! admin.get("/", |req: &mut Request, res: &mut Response| res.send(req.base_url().to_owned()));
//! let mut app = webfw::app();
//! app.set("trust proxy", true);
//! app.use_at("/admin", admin);
//! let frozen = app.freeze_root();
//! assert!(frozen.enabled("trust proxy"));
//! ```

mod served;
#[cfg(feature = "views")]
mod views;

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::app_ref::parent::Parent;
use crate::app_ref::settings::Settings;
use crate::app_ref::state::StateMap;
use crate::error::Error;
use crate::handler::markers::AppValue;
use crate::handler::sealed::Plain;
use crate::handler::{
    Handler, IntoMiddleware, IntoMiddlewares, IntoParamHandler, Middleware, Mount,
};
use crate::router::{PathSpec, RouteBuilder, Router, RouterOptions};

pub use crate::app_ref::AppRef;
pub use crate::app_ref::settings::{
    Compiled, ENV_VAR, EtagFn, EtagMode, JsonSpaces, QueryFn, QueryParser, ReplacerFn, Setting,
};
pub(crate) use served::ServedApp;

type MountHook = Box<dyn FnOnce(&App) + Send + Sync>;

/// An application under construction: register settings, middleware and
/// routes, then [`App::listen`].
///
/// ```
/// use webfw::prelude::*;
/// let mut app = webfw::app();
/// app.set("json spaces", 2);
/// app.get("/", |_: &mut Request, res: &mut Response| res.send("Hello World!"));
/// assert_eq!(app.setting("json spaces").unwrap().as_json(), &serde_json::json!(2));
/// ```
pub struct App {
    settings: Settings,
    locals: Map<String, Value>,
    router: Option<Router>,
    mountpath: Vec<String>,
    mountpath_is_list: bool,
    mount_hooks: Vec<MountHook>,
    #[cfg(feature = "views")]
    engines: crate::view::Engines,
    state: StateMap,
}

impl Default for App {
    fn default() -> Self {
        App::new()
    }
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("mountpath", &self.mountpath)
            .field("router", &self.router)
            .finish()
    }
}

impl App {
    /// A new application with Express's default settings.
    ///
    /// ```
    /// let app = webfw::App::new();
    /// assert!(app.enabled("x-powered-by"));
    /// ```
    pub fn new() -> App {
        App::with_dialect(crate::Dialect::Express4)
    }

    /// A new application speaking `dialect`, with that Express's default
    /// settings ([`webfw::express5::app`](crate::express5::app) is
    /// `with_dialect(Dialect::Express5)`).
    ///
    /// ```
    /// use webfw::{App, Dialect};
    /// let app = App::with_dialect(Dialect::Express5);
    /// assert_eq!(app.setting("query parser").unwrap().as_str(), Some("simple"));
    /// ```
    pub fn with_dialect(dialect: crate::Dialect) -> App {
        App {
            settings: Settings::new(dialect),
            locals: Map::new(),
            router: None,
            mountpath: vec!["/".into()],
            mountpath_is_list: false,
            mount_hooks: Vec::new(),
            #[cfg(feature = "views")]
            engines: Default::default(),
            state: Default::default(),
        }
    }

    /// `app.set(name, value)`.
    ///
    /// # Panics
    /// On a value Express rejects (`etag`, `query parser`, `trust proxy`), with
    /// Express's message; use [`App::try_set`] to handle it.
    ///
    /// ```
    /// let mut app = webfw::app();
    /// app.set("trust proxy", "loopback").set("etag", "strong");
    /// ```
    pub fn set(&mut self, name: &str, value: impl Into<Setting>) -> &mut Self {
        if let Err(e) = self.try_set(name, value) {
            panic!("{e}");
        }
        self
    }

    /// `app.set`, returning Express's TypeError text on a rejected value.
    ///
    /// ```
    /// let mut app = webfw::app();
    /// let err = app.try_set("etag", "bogus").unwrap_err();
    /// assert!(err.starts_with("unknown value for etag function"));
    /// ```
    pub fn try_set(&mut self, name: &str, value: impl Into<Setting>) -> Result<&mut Self, String> {
        self.settings.set(name, value.into())?;
        Ok(self)
    }

    /// `app.get(name)`: a setting's value (route registration uses
    /// [`App::get`] with a path and handlers, so the setting getter is named
    /// `setting`).
    ///
    /// ```
    /// let app = webfw::app();
    /// assert_eq!(app.setting("etag").and_then(|s| s.as_str()), Some("weak"));
    /// ```
    pub fn setting(&self, name: &str) -> Option<&Setting> {
        self.settings.get_own(name)
    }

    /// `app.enable(name)`.
    ///
    /// ```
    /// let mut app = webfw::app();
    /// app.enable("strict routing");
    /// assert!(app.enabled("strict routing"));
    /// ```
    pub fn enable(&mut self, name: &str) -> &mut Self {
        self.set(name, true)
    }

    /// `app.disable(name)`.
    ///
    /// ```
    /// let mut app = webfw::app();
    /// app.disable("x-powered-by");
    /// assert!(app.disabled("x-powered-by"));
    /// ```
    pub fn disable(&mut self, name: &str) -> &mut Self {
        self.set(name, false)
    }

    /// `app.enabled(name)`.
    ///
    /// ```
    /// assert!(!webfw::app().enabled("case sensitive routing"));
    /// ```
    pub fn enabled(&self, name: &str) -> bool {
        self.setting(name)
            .and_then(Setting::as_bool)
            .unwrap_or(false)
    }

    /// `app.disabled(name)`.
    ///
    /// ```
    /// assert!(webfw::app().disabled("strict routing"));
    /// ```
    pub fn disabled(&self, name: &str) -> bool {
        !self.enabled(name)
    }

    /// `app.locals`.
    ///
    /// ```
    /// let mut app = webfw::app();
    /// app.locals_mut().insert("title".into(), serde_json::json!("My App"));
    /// assert_eq!(app.locals()["title"], "My App");
    /// ```
    pub fn locals(&self) -> &Map<String, Value> {
        &self.locals
    }

    /// Mutable `app.locals`.
    ///
    /// ```
    /// let mut app = webfw::app();
    /// app.locals_mut().insert("n".into(), serde_json::json!(1));
    /// ```
    pub fn locals_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.locals
    }

    /// Gives the app a typed value (`app.locals` for things that are not
    /// JSON: a database pool, a client, configuration). Every handler of the
    /// app reaches it with [`Request::state`](crate::Request::state), or as
    /// an argument through [`with_state`](crate::with_state), which checks
    /// when the app starts that the value is there; handlers of mounted
    /// routers and sub-apps too (a sub-app sees its own values first, then
    /// its parents'). One value per type: a second replaces the first.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// struct Config { greeting: String }
    /// let mut app = webfw::app();
    /// app.state(Config { greeting: "hello".into() });
    /// app.get("/", |req: &mut Request, res: &mut Response| {
    ///     let line = req.state::<Config>()?.greeting.clone();
    ///     res.send(line)
    /// });
    /// ```
    pub fn state<T: Send + Sync + 'static>(&mut self, value: T) -> &mut Self {
        self.state.insert(value);
        self
    }

    /// `app.mountpath`: `["/"]` for the top app, else the pattern(s) it was
    /// mounted on.
    ///
    /// ```
    /// assert_eq!(webfw::app().mountpath(), ["/"]);
    /// ```
    pub fn mountpath(&self) -> &[String] {
        &self.mountpath
    }

    /// `app.on('mount', fn)`: runs when this app is mounted on a parent.
    ///
    /// ```
    /// let mut admin = webfw::app();
    /// admin.on_mount(|parent| println!("mounted under an app with {} locals", parent.locals().len()));
    /// let mut app = webfw::app();
    /// app.use_at("/admin", admin);
    /// ```
    pub fn on_mount(&mut self, hook: impl FnOnce(&App) + Send + Sync + 'static) -> &mut Self {
        self.mount_hooks.push(Box::new(hook));
        self
    }

    /// The app's router, created on first use with the routing settings in
    /// force at that moment (as Express does).
    pub(crate) fn router_mut(&mut self) -> &mut Router {
        if self.router.is_none() {
            let opts = RouterOptions {
                case_sensitive: self.enabled("case sensitive routing"),
                strict: self.enabled("strict routing"),
                merge_params: false,
                dialect: self.settings.dialect(),
            };
            self.router = Some(Router::with_options(opts));
        }
        self.router.as_mut().expect("router was just created")
    }

    /// The Express this app speaks, fixed when it was made.
    ///
    /// ```
    /// assert_eq!(webfw::app().dialect(), webfw::Dialect::Express4);
    /// ```
    pub fn dialect(&self) -> crate::Dialect {
        self.settings.dialect()
    }

    /// `app.use(fn)`.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut app = webfw::app();
    /// app.use_(|_: &mut Request, _: &mut Response| next());
    /// ```
    pub fn use_<M>(&mut self, middleware: impl IntoMiddlewares<M>) -> &mut Self {
        let handlers = self.mounting(&PathSpec::Pattern("/".into()), middleware);
        self.router_mut().push_use_everywhere(handlers);
        self
    }

    /// `app.use(path, fn…)`: mounts middleware, routers or sub-apps on a path.
    /// A sub-app gets its `mountpath`, fires its mount hooks, and inherits
    /// settings as in Express.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut blog = webfw::app();
    /// blog.get("/", |req: &mut Request, res: &mut Response| res.send(req.base_url().to_owned()));
    /// let mut app = webfw::app();
    /// app.use_at("/blog", blog);
    /// ```
    pub fn use_at<M>(
        &mut self,
        path: impl Into<PathSpec>,
        middleware: impl IntoMiddlewares<M>,
    ) -> &mut Self {
        let path = path.into();
        let handlers = self.mounting(&path, middleware);
        self.router_mut().push_use(path, handlers);
        self
    }

    /// The middleware of `app.use`, with every sub-app among them given its
    /// `mountpath` and its mount hooks fired.
    fn mounting<M>(
        &mut self,
        path: &PathSpec,
        middleware: impl IntoMiddlewares<M>,
    ) -> Vec<Middleware> {
        let mut handlers = Vec::new();
        middleware.into_use_middlewares(&mut handlers);
        self.mount_sub_apps(path, &mut handlers);
        handlers
    }

    /// The non-generic part of [`Self::mounting`]: compiled once, not for
    /// each middleware type an app passes to `use`.
    fn mount_sub_apps(&mut self, path: &PathSpec, handlers: &mut [Middleware]) {
        for h in handlers {
            if let Some(sub) = h.mounted_mut::<App>() {
                sub.mountpath = path.mountpath();
                sub.mountpath_is_list = matches!(path, PathSpec::Many(_));
                for hook in std::mem::take(&mut sub.mount_hooks) {
                    hook(self);
                }
            }
        }
    }

    /// `app.route(path)`.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut app = webfw::app();
    /// app.route("/book").get(|_: &mut Request, res: &mut Response| res.send("book"));
    /// ```
    pub fn route(&mut self, path: impl Into<PathSpec>) -> RouteBuilder<'_> {
        self.router_mut().route(path)
    }

    /// `app.all(path, …)`.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut app = webfw::app();
    /// app.all("/any", |_: &mut Request, res: &mut Response| res.send("any"));
    /// ```
    pub fn all<M>(
        &mut self,
        path: impl Into<PathSpec>,
        handlers: impl IntoMiddlewares<M>,
    ) -> &mut Self {
        self.router_mut().all(path, handlers);
        self
    }

    /// `app.METHOD(path, …)` for a method given by name, e.g. `m-search`.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut app = webfw::app();
    /// app.method("m-search", "/", |_: &mut Request, res: &mut Response| res.send("ok"));
    /// ```
    pub fn method<M>(
        &mut self,
        method: &str,
        path: impl Into<PathSpec>,
        handlers: impl IntoMiddlewares<M>,
    ) -> &mut Self {
        self.router_mut().method(method, path, handlers);
        self
    }

    /// `app.param(name, fn)`.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut app = webfw::app();
    /// app.param("id", |_: &mut Request, _: &mut Response, _id: &str| next());
    /// ```
    pub fn param<M>(&mut self, name: &str, handler: impl IntoParamHandler<M>) -> &mut Self {
        self.router_mut().param(name, handler);
        self
    }

    /// `app.param([names], fn)`.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut app = webfw::app();
    /// app.params(&["first", "last"], |_: &mut Request, _: &mut Response, _v: &str| next());
    /// ```
    pub fn params<M>(&mut self, names: &[&str], handler: impl IntoParamHandler<M>) -> &mut Self {
        self.router_mut().params(names, handler);
        self
    }

    /// Freezes a top-level app as serving does (settings resolved,
    /// sub-apps frozen under it, state looked up) and gives what its
    /// handlers see as `req.app`.
    ///
    /// ```
    /// let frozen = webfw::app().freeze_root();
    /// assert_eq!(frozen.path(), "");
    /// ```
    ///
    /// # Panics
    /// When a handler taken through [`with_state`](crate::with_state) needs
    /// a value no app provides, with a message naming its type;
    /// [`App::try_freeze_root`] returns it instead (`bind` and `listen`
    /// fail with it).
    pub fn freeze_root(self) -> AppRef {
        match self.try_freeze_root() {
            Ok(app) => app,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`App::freeze_root`], with an error when a handler taken through
    /// [`with_state`](crate::with_state) needs a value no app provides.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// struct Pool;
    /// let mut app = webfw::app();
    /// app.get("/", webfw::with_state(|_req, res, _pool: &Pool| res.send("ok")));
    /// let err = app.try_freeze_root().unwrap_err();
    /// assert!(err.to_string().contains("Pool"));
    /// ```
    pub fn try_freeze_root(self) -> Result<AppRef, Error> {
        self.serve_root().map(|served| served.app().clone())
    }

    /// Freezes a top-level app for the server; an error when a handler
    /// taken through [`with_state`](crate::with_state) needs a value no app
    /// provides.
    pub(crate) fn serve_root(self) -> Result<ServedApp, Error> {
        let ctx = Parent::root(&self.settings, self.state.clone());
        let missing = ctx.missing.clone();
        let app = self.freeze_with(ctx);
        match missing.message() {
            None => Ok(app),
            Some(m) => Err(Error::new(m)),
        }
    }

    /// Freezes a mounted sub-app under its parent.
    pub(crate) fn freeze_under(self, parent: &Parent) -> ServedApp {
        let mountpath = self.mountpath.join(",");
        let ctx = parent.under(&self.settings, &mountpath, &self.state);
        self.freeze_with(ctx)
    }

    fn freeze_with(self, ctx: Parent) -> ServedApp {
        #[cfg(feature = "views")]
        let ctx = self.lay_engines(ctx);
        let router = self.router.map(|r| r.freeze(&ctx));
        let mountpath = if self.mountpath_is_list {
            Value::from(self.mountpath)
        } else {
            Value::from(self.mountpath.into_iter().next().unwrap_or_default())
        };
        ServedApp::new(AppRef::new(ctx, self.locals, mountpath), router)
    }
}

impl Mount for App {
    fn freeze(self: Box<Self>, parent: &Parent) -> Arc<dyn Handler> {
        Arc::new(self.freeze_under(parent))
    }

    fn kind(&self) -> &'static str {
        "App"
    }
}

#[diagnostic::do_not_recommend]
impl IntoMiddleware<AppValue> for App {
    fn into_middleware(self) -> Middleware {
        Middleware::mount(Box::new(self))
    }
}

impl Plain<AppValue> for App {}

/// `app.get(path, …)` and the other verbs, made from the router's list.
macro_rules! app_verbs {
    ($($(#[$doc:meta])* $name:ident => $method:literal;)*) => {
        impl App {
            $(
                $(#[$doc])*
                ///
                /// ```
                /// # use webfw::prelude::*;
                /// # fn handler(_req: &mut Request, res: &mut Response) -> Result { res.end() }
                /// let mut app = webfw::app();
                #[doc = concat!("app.", stringify!($name), "(\"/items/:id\", handler);")]
                /// ```
                pub fn $name<M>(&mut self, path: impl Into<PathSpec>, handlers: impl IntoMiddlewares<M>) -> &mut Self {
                    self.router_mut().method($method, path, handlers);
                    self
                }
            )*
        }
    };
}

crate::router::verbs::each_verb!(app_verbs);
