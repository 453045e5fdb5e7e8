//! `app.engine`, `app.set('view', View)` and `app.render` (feature
//! `views`), and what an app's engines hand down while it freezes.

use std::future::Future;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{App, Setting};
use crate::app_ref::parent::Parent;
use crate::app_ref::render::{merge, to_locals};
use crate::error::Error;
use crate::view::{Engine, ViewConfig, ViewLookup, Views};

impl App {
    /// While freezing: this app's engines over the ones `ctx` carries from
    /// its parent (none at the top).
    pub(super) fn lay_engines(&self, mut ctx: Parent) -> Parent {
        ctx.engines = self.engines.over(&ctx.engines);
        ctx
    }

    /// `app.engine(ext, engine)`: renders views whose file extension is
    /// `ext` (with or without the dot) with `engine`. Mounted sub-apps use
    /// their parent's engines unless they register their own. Needs the
    /// `views` feature (on by default).
    ///
    /// ```
    /// # #[cfg(feature = "minijinja")] {
    /// let mut app = webfw::app();
    /// app.engine("html", webfw::view::MiniJinja::new())
    ///     .set("view engine", "html");
    /// # }
    /// ```
    pub fn engine(&mut self, ext: &str, engine: impl Engine) -> &mut Self {
        self.engines.insert(ext, engine);
        self
    }

    /// `app.set('view', View)`: views come from `lookup` instead of files
    /// under the `views` directories (see [`ViewLookup`]); mounted sub-apps
    /// use their parent's unless they set their own. Needs the `views`
    /// feature (on by default).
    ///
    /// ```
    /// use std::path::PathBuf;
    /// use webfw::view::{FoundView, ViewLookup};
    ///
    /// struct One;
    /// impl ViewLookup for One {
    ///     fn lookup(&self, name: &str, _: &[PathBuf]) -> Result<Option<FoundView>, webfw::Error> {
    ///         Ok(Some(FoundView::new(name, "<p>the only view</p>")))
    ///     }
    /// }
    /// let mut app = webfw::app();
    /// app.view(One);
    /// ```
    pub fn view(&mut self, lookup: impl ViewLookup) -> &mut Self {
        self.engines.set_lookup(lookup);
        self
    }

    /// `app.render(view, locals, callback)` before the app serves (emails,
    /// static pages, tests): like [`AppRef::render`](crate::AppRef::render),
    /// with this app's own settings, engines and `app.locals`; nothing is
    /// cached between calls. Needs the `views` feature (on by default).
    ///
    /// ```no_run
    /// # #[cfg(feature = "minijinja")]
    /// # async fn f() -> Result<(), webfw::Error> {
    /// let mut app = webfw::app();
    /// app.set("views", "templates").set("view engine", "html");
    /// app.engine("html", webfw::view::MiniJinja::new());
    /// let html = app.render("welcome", serde_json::json!({ "user": "ada" })).await?;
    /// # Ok(()) }
    /// ```
    pub fn render(
        &self,
        view: &str,
        locals: impl Serialize,
    ) -> impl Future<Output = Result<String, Error>> + Send + '_ {
        let merged = to_locals(locals).map(|own| merge(&self.locals, None, own));
        let view = view.to_owned();
        async move {
            let config = ViewConfig {
                views: self.setting("views").map(Setting::as_json),
                default_engine: self.setting("view engine").and_then(Setting::as_str),
                cache: false,
            };
            Views::new(self.engines.clone())
                .render(&view, config, merged?)
                .await
        }
    }
}

impl From<PathBuf> for Setting {
    /// A directory for the `views` setting.
    ///
    /// ```
    /// let mut app = webfw::app();
    /// app.set("views", std::path::PathBuf::from("/srv/templates"));
    /// ```
    fn from(path: PathBuf) -> Self {
        Setting::from(path.to_string_lossy().into_owned())
    }
}

impl From<&Path> for Setting {
    /// A directory for the `views` setting.
    ///
    /// ```
    /// let mut app = webfw::app();
    /// app.set("views", std::path::Path::new("templates"));
    /// ```
    fn from(path: &Path) -> Self {
        Setting::from(path.to_string_lossy().into_owned())
    }
}
