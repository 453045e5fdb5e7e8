//! The application (`express()`): settings, locals, the app's router, mounting
//! of sub-apps, and the entry point of every request.
//!
//! An [`App`] is built mutably, then frozen into an [`AppRef`] when it starts
//! serving: sub-apps are frozen under their parent so that settings
//! inheritance and `app.path()` are resolved once.
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

pub(crate) mod json;
mod settings;
mod state;
pub(crate) mod views;

use std::sync::Arc;

use http::HeaderValue;
use serde_json::{Map, Value};

use crate::error::Error;
use crate::handler::{IntoMiddlewares, IntoParamHandler};
use crate::request::Request;
use crate::response::Response;
use crate::router::Entry;
use crate::router::{Exit, PathSpec, Resume, RouteBuilder, Router, RouterOptions};

pub(crate) use settings::Settings;
pub use settings::{
    Compiled, EtagFn, EtagMode, JsonSpaces, QueryFn, QueryParser, ReplacerFn, Setting,
};
pub(crate) use state::StateMap;

/// The environment variable that sets the `env` setting (`NODE_ENV` is read
/// when it is unset, so apps behave like Express under the same environment).
///
/// ```
/// assert_eq!(webfw::ENV_VAR, "WEBFW_ENV");
/// ```
pub const ENV_VAR: &str = "WEBFW_ENV";

const X_POWERED_BY: http::HeaderName = http::HeaderName::from_static("x-powered-by");
const POWERED_BY_VALUE: HeaderValue = HeaderValue::from_static("webfw");

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
    engines: crate::view::Engines,
    state: state::StateMap,
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
        let mut settings = Settings::new();
        if std::env::var(ENV_VAR).is_err()
            && let Ok(env) = std::env::var("NODE_ENV")
            && !env.is_empty()
        {
            let prod = env == "production";
            let _ = settings.set("env", Setting::from(env));
            if prod {
                let _ = settings.set("view cache", Setting::from(true));
            }
        }
        App {
            settings,
            locals: Map::new(),
            router: None,
            mountpath: vec!["/".into()],
            mountpath_is_list: false,
            mount_hooks: Vec::new(),
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
            };
            self.router = Some(Router::with_options(opts));
        }
        self.router.as_mut().expect("router was just created")
    }

    /// `app.use(fn)`.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut app = webfw::app();
    /// app.use_(|_: &mut Request, _: &mut Response| next());
    /// ```
    pub fn use_<M>(&mut self, middleware: impl IntoMiddlewares<M>) -> &mut Self {
        self.use_at("/", middleware)
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
        let mut handlers = Vec::new();
        middleware.into_use_middlewares(&mut handlers);
        for h in &mut handlers {
            if let Entry::App(sub) = &mut h.0 {
                sub.mountpath = path.mountpath();
                sub.mountpath_is_list = matches!(path, PathSpec::Many(_));
                for hook in std::mem::take(&mut sub.mount_hooks) {
                    hook(self);
                }
            }
        }
        self.router_mut().push_use(path, handlers);
        self
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

    /// Freezes a top-level app for serving.
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

    /// Freezes a top-level app for serving; an error when a handler taken
    /// through [`with_state`](crate::with_state) needs a value no app
    /// provides.
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
        let ctx = Parent {
            settings: self.settings.resolve(None),
            path: String::new(),
            engines: self.engines.clone(),
            state: self.state.clone(),
            missing: state::Missing::default(),
        };
        let missing = ctx.missing.clone();
        let app = self.freeze_with(ctx);
        match missing.message() {
            None => Ok(app),
            Some(m) => Err(Error::new(m)),
        }
    }

    /// Freezes a mounted sub-app under its parent.
    pub(crate) fn freeze_under(self, parent: &Parent) -> AppRef {
        let mut path = parent.path.clone();
        path.push_str(&self.mountpath.join(","));
        let ctx = Parent {
            settings: self.settings.resolve(Some(&parent.settings)),
            path,
            engines: self.engines.over(&parent.engines),
            state: self.state.over(&parent.state),
            missing: parent.missing.clone(),
        };
        self.freeze_with(ctx)
    }

    fn freeze_with(self, ctx: Parent) -> AppRef {
        let router = self.router.map(|r| r.freeze(&ctx));
        let compiled = ctx.settings.compile();
        let mountpath = if self.mountpath_is_list {
            Value::from(self.mountpath.clone())
        } else {
            Value::from(self.mountpath.first().cloned().unwrap_or_default())
        };
        AppRef(Arc::new(AppInner {
            compiled,
            settings: ctx.settings,
            locals: self.locals,
            router,
            mountpath,
            path: ctx.path,
            views: crate::view::Views::new(ctx.engines),
            state: ctx.state,
        }))
    }
}

/// What a sub-app needs from its parent while freezing.
pub(crate) struct Parent {
    settings: Settings,
    path: String,
    engines: crate::view::Engines,
    /// The app's values over its parents'.
    pub(crate) state: state::StateMap,
    /// Where handlers record the values they need and do not find.
    pub(crate) missing: state::Missing,
}

impl Parent {
    /// The app's full mount path (`""` for the top app).
    pub(crate) fn path(&self) -> &str {
        &self.path
    }
}

pub(crate) struct AppInner {
    compiled: Compiled,
    settings: Settings,
    locals: Map<String, Value>,
    router: Option<crate::router::Frozen>,
    mountpath: Value,
    path: String,
    views: crate::view::Views,
    state: state::StateMap,
}

/// A running application (`req.app`): settings, locals, mount information.
///
/// ```
/// use webfw::prelude::*;
/// fn info(req: &mut Request, res: &mut Response) -> Result {
///     let env = req.app().setting_str("env").unwrap_or("?").to_owned();
///     res.send(env)
/// }
/// ```
#[derive(Clone)]
pub struct AppRef(Arc<AppInner>);

impl AppRef {
    /// The typed settings in force.
    ///
    /// ```
    /// let app = webfw::app().freeze_root();
    /// assert_eq!(app.settings().subdomain_offset, 2);
    /// ```
    pub fn settings(&self) -> &Compiled {
        &self.0.compiled
    }

    /// `app.get(name)`.
    ///
    /// ```
    /// let app = webfw::app().freeze_root();
    /// assert!(app.setting("etag").is_some());
    /// ```
    pub fn setting(&self, name: &str) -> Option<&Setting> {
        self.0.settings.get_own(name)
    }

    /// A string setting.
    ///
    /// ```
    /// let app = webfw::app().freeze_root();
    /// assert_eq!(app.setting_str("jsonp callback name"), Some("callback"));
    /// ```
    pub fn setting_str(&self, name: &str) -> Option<&str> {
        self.setting(name).and_then(Setting::as_str)
    }

    /// `app.enabled(name)`.
    ///
    /// ```
    /// assert!(webfw::app().freeze_root().enabled("x-powered-by"));
    /// ```
    pub fn enabled(&self, name: &str) -> bool {
        self.setting(name)
            .and_then(Setting::as_bool)
            .unwrap_or(false)
    }

    /// `app.locals`.
    ///
    /// ```
    /// assert!(webfw::app().freeze_root().locals().is_empty());
    /// ```
    pub fn locals(&self) -> &Map<String, Value> {
        &self.0.locals
    }

    /// `app.mountpath`: a string, or an array when mounted on several paths.
    ///
    /// ```
    /// assert_eq!(webfw::app().freeze_root().mountpath(), &serde_json::json!("/"));
    /// ```
    pub fn mountpath(&self) -> &Value {
        &self.0.mountpath
    }

    /// `app.path()`: the parent's path plus the mount path (`""` at the top).
    ///
    /// ```
    /// assert_eq!(webfw::app().freeze_root().path(), "");
    /// ```
    pub fn path(&self) -> &str {
        &self.0.path
    }

    /// Runs this app as a mounted sub-app (Express's `mounted_app` plus
    /// `expressInit`): `req.app` is this app while inside, the parent after.
    pub(crate) async fn handle_mounted(&self, req: &mut Request, res: &mut Response) -> Exit {
        let Some(router) = self.0.router.as_ref() else {
            return Exit::Next(None);
        };
        let parent = std::mem::replace(&mut req.app, self.clone());
        res.set_app(self.clone());
        self.init(res);
        let exit = router.handle(req, res).await;
        res.set_app(parent.clone());
        req.app = parent;
        exit
    }

    /// `expressInit`: the `X-Powered-By` header.
    fn init(&self, res: &mut Response) {
        if self.0.compiled.x_powered_by {
            res.insert_header(X_POWERED_BY, POWERED_BY_VALUE);
        }
    }

    /// Runs a request through the top-level app and the final handler, as
    /// far as its handlers are synchronous: `Some` when the rest must be
    /// awaited through [`AppRef::resume_root`].
    pub(crate) fn handle_root_now(
        &self,
        req: &mut Request,
        res: &mut Response,
    ) -> Option<Box<Resume>> {
        let exit = match self.0.router.as_ref() {
            Some(router) => {
                self.init(res);
                match router.run_now(req, res) {
                    Ok(exit) => exit,
                    Err(resume) => return Some(resume),
                }
            }
            None => Exit::Next(None),
        };
        self.finish_root(req, res, exit);
        None
    }

    /// Goes on with a request [`AppRef::handle_root_now`] stopped.
    pub(crate) async fn resume_root(
        &self,
        req: &mut Request,
        res: &mut Response,
        resume: Box<Resume>,
    ) {
        let exit = match self.0.router.as_ref() {
            // Not boxed: only nested routers recurse.
            Some(router) => router.resume(req, res, resume).await,
            None => Exit::Next(None),
        };
        self.finish_root(req, res, exit);
    }

    /// What the top-level app does once its router is done.
    fn finish_root(&self, req: &mut Request, res: &mut Response, exit: Exit) {
        let env = &self.0.compiled.env;
        match exit {
            Exit::Done if res.headers_sent() => {
                if !res.finished() {
                    let _ = res.end();
                }
            }
            Exit::Done => {
                let err = Error::new(format!(
                    "a handler for {} {} returned Flow::Done without sending a response",
                    req.method(),
                    req.original_url()
                ));
                crate::final_handler::respond(req, res, Some(err), env);
            }
            Exit::Next(err) => crate::final_handler::respond(req, res, err, env),
        }
    }
}

impl std::fmt::Debug for AppRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppRef")
            .field("mountpath", &self.0.mountpath)
            .field("path", &self.0.path)
            .finish()
    }
}
