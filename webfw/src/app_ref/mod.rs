//! `req.app` in Express is the application itself; here it is [`AppRef`],
//! the app as freezing left it for its handlers: settings, locals, mount
//! information, typed state and views. A leaf: the request and the
//! response hold one, and nothing here knows of routers or handlers.

pub(crate) mod json;
pub(crate) mod parent;
#[cfg(feature = "views")]
pub(crate) mod render;
pub(crate) mod settings;
pub(crate) mod state;

use std::sync::Arc;

use serde_json::{Map, Value};

#[cfg(feature = "views")]
use crate::view::Views;
use parent::Parent;
use settings::{Compiled, Setting, Settings};
use state::StateMap;

/// A frozen application as its handlers see it (`req.app`, `res.app`):
/// settings, locals, mount information, typed state and views.
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

struct AppInner {
    compiled: Compiled,
    settings: Settings,
    locals: Map<String, Value>,
    mountpath: Value,
    path: String,
    #[cfg(feature = "views")]
    views: Views,
    state: StateMap,
}

impl AppRef {
    /// The app frozen with what its freeze gathered (`ctx`), its
    /// `app.locals` and `app.mountpath`.
    pub(crate) fn new(ctx: Parent, locals: Map<String, Value>, mountpath: Value) -> AppRef {
        AppRef(Arc::new(AppInner {
            compiled: ctx.settings.compile(),
            settings: ctx.settings,
            locals,
            mountpath,
            path: ctx.path,
            #[cfg(feature = "views")]
            views: Views::new(ctx.engines),
            state: ctx.state,
        }))
    }

    /// What a new app frozen as it is gives: the app of a request made
    /// outside any app ([`testing::request`](crate::testing::request)).
    pub(crate) fn of_new_app() -> AppRef {
        let ctx = Parent::root(&Settings::new(crate::Dialect::Express4), Default::default());
        AppRef::new(ctx, Map::new(), Value::from("/"))
    }

    /// The typed settings in force.
    ///
    /// ```
    /// let app = webfw::app().freeze_root();
    /// assert_eq!(app.settings().subdomain_offset, 2);
    /// ```
    pub fn settings(&self) -> &Compiled {
        &self.0.compiled
    }

    /// The Express this app speaks: what its request and response helpers
    /// follow while a request is inside it.
    ///
    /// ```
    /// let app = webfw::express5::app().freeze_root();
    /// assert_eq!(app.dialect(), webfw::Dialect::Express5);
    /// ```
    pub fn dialect(&self) -> crate::Dialect {
        self.0.compiled.dialect
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

    /// The app's value of type `T` (its own, else a parent's), as set with
    /// [`App::state`](crate::App::state).
    ///
    /// ```
    /// let mut app = webfw::app();
    /// app.state(7u32);
    /// let frozen = app.freeze_root();
    /// assert_eq!(frozen.state::<u32>(), Some(&7));
    /// assert_eq!(frozen.state::<u64>(), None);
    /// ```
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.0.state.get::<T>()
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
