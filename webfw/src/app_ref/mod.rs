//! `req.app` in Express is the application itself; here it is [`AppRef`],
//! the app as freezing left it for its handlers: settings, locals, mount
//! information, typed state and views. A leaf: the request and the
//! response hold one, and nothing here knows of routers or handlers.

pub(crate) mod json;
pub(crate) mod parent;
pub(crate) mod settings;
pub(crate) mod state;

use std::future::Future;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::Error;
use crate::view::{Locals, ViewConfig, Views};
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
            views: Views::new(ctx.engines),
            state: ctx.state,
        }))
    }

    /// What a new app frozen as it is gives: the app of a request made
    /// outside any app ([`testing::request`](crate::testing::request)).
    pub(crate) fn of_new_app() -> AppRef {
        let ctx = Parent::root(&Settings::new(), Default::default(), Default::default());
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

    /// `app.render(view, locals, callback)`: renders a view with
    /// `app.locals` and `locals` (later keys win) and gives back the HTML
    /// without sending it. Lookup and engine errors are `Err`, with
    /// Express's messages (`Failed to lookup view "x" in views directory
    /// "…"`). `locals` is anything that serializes to a map (`json!({…})`,
    /// a `#[derive(Serialize)]` struct, `()` for none); a `cache` local
    /// turns the view cache on or off for this call.
    ///
    /// `view` must not come from clients: like Express, it may name any
    /// file with a registered extension.
    ///
    /// ```no_run
    /// use webfw::prelude::*;
    ///
    /// async fn mail_preview(req: &mut Request, res: &mut Response) -> Result {
    ///     let app = req.app().clone();
    ///     let html = app.render("email/welcome", serde_json::json!({ "user": "ada" })).await?;
    ///     res.json(&serde_json::json!({ "html": html }))
    /// }
    /// ```
    pub fn render(
        &self,
        view: &str,
        locals: impl Serialize,
    ) -> impl Future<Output = Result<String, Error>> + Send + '_ {
        let merged = to_locals(locals).map(|own| merge(self.locals(), None, own));
        let view = view.to_owned();
        async move { self.render_merged(&view, merged?).await }
    }

    /// Renders with locals already merged (`res.render` adds `res.locals`).
    pub(crate) async fn render_merged(&self, view: &str, locals: Locals) -> Result<String, Error> {
        let config = ViewConfig {
            views: self.setting("views").map(Setting::as_json),
            default_engine: self.setting_str("view engine"),
            cache: self.enabled("view cache"),
        };
        self.0.views.render(view, config, locals).await
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

/// Render locals as a map: objects as they are, `null` (`()`, `None`) as
/// none, anything else an error.
pub(crate) fn to_locals(locals: impl Serialize) -> Result<Locals, Error> {
    match serde_json::to_value(locals) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(Value::Null) => Ok(Locals::new()),
        Ok(other) => Err(Error::new(format!(
            "render locals must serialize to a map (json!({{…}}) or a struct), got {other}"
        ))),
        Err(e) => Err(Error::new(format!(
            "render locals could not be serialized: {e}"
        ))),
    }
}

/// Express's merge order: `app.locals`, then `res.locals`, then the render
/// call's own.
pub(crate) fn merge(app: &Locals, res: Option<&Locals>, own: Locals) -> Locals {
    let mut all = app.clone();
    if let Some(res) = res {
        all.extend(res.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    all.extend(own);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn later_locals_win() {
        let app = json!({"a": "app", "b": "app", "c": "app"});
        let res = json!({"b": "res", "c": "res"});
        let own = json!({"c": "own"});
        let m = merge(
            app.as_object().unwrap(),
            res.as_object(),
            own.as_object().unwrap().clone(),
        );
        assert_eq!(
            Value::Object(m),
            json!({"a": "app", "b": "res", "c": "own"})
        );
    }

    #[test]
    fn locals_must_be_a_map() {
        assert!(to_locals(()).unwrap().is_empty());
        assert_eq!(to_locals(json!({"x": 1})).unwrap()["x"], 1);
        let err = to_locals(vec![1]).unwrap_err();
        assert!(
            err.message()
                .starts_with("render locals must serialize to a map")
        );
    }
}
