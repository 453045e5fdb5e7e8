//! `res.render` (feature `views`).

use std::future::Future;

use serde::Serialize;

use super::Response;
use crate::app_ref::render::{merge, to_locals};
use crate::error::Error;
use crate::outcome::Result;

impl Response {
    /// `res.render(view, locals)`: renders a view with `app.locals`,
    /// `res.locals` and `locals` (later keys win) and sends the HTML
    /// (`text/html; charset=utf-8`, the status set before kept). A lookup or
    /// engine error is returned as `Err`, which the router passes on as
    /// `next(err)`.
    ///
    /// The view is found as Express finds it: `view` is a path relative to
    /// the `views` setting (each directory in turn when it is a list) or
    /// absolute; without an extension the `view engine` setting supplies
    /// one; `<view>/index.<ext>` is tried after `<view>.<ext>`. `locals` is
    /// anything that serializes to a map (`json!({…})`, a `#[derive(Serialize)]`
    /// struct, `()` for none). `view` must not come from clients. Needs the
    /// `views` feature (on by default).
    ///
    /// ```no_run
    /// # #[cfg(feature = "minijinja")] {
    /// use webfw::prelude::*;
    ///
    /// async fn profile(req: &mut Request, res: &mut Response) -> Result {
    ///     let name = req.param("name").unwrap_or("stranger").to_owned();
    ///     res.render("profile", serde_json::json!({ "name": name })).await
    /// }
    /// let mut app = webfw::app();
    /// app.engine("html", webfw::view::MiniJinja::new()).set("view engine", "html");
    /// app.get("/users/:name", profile);
    /// # }
    /// ```
    pub fn render<'a>(
        &'a mut self,
        view: &'a str,
        locals: impl Serialize,
    ) -> impl Future<Output = Result> + Send + 'a {
        let app = self.app.clone();
        let merged = to_locals(locals).map(|own| merge(app.locals(), Some(self.locals()), own));
        async move {
            let html = app.render_merged(view, merged?).await?;
            self.send(html)
        }
    }

    /// `res.render(view, locals, callback)`: renders like
    /// [`Response::render`] but gives the HTML back instead of sending it.
    /// Needs the `views` feature (on by default).
    ///
    /// ```no_run
    /// use webfw::prelude::*;
    ///
    /// async fn wrapped(_req: &mut Request, res: &mut Response) -> Result {
    ///     match res.render_to_string("card", ()).await {
    ///         Ok(html) => res.type_("text/plain").send(format!("[{}]{html}", html.len())),
    ///         Err(_) => res.status(500).send("render failed"),
    ///     }
    /// }
    /// ```
    pub fn render_to_string<'a>(
        &self,
        view: &'a str,
        locals: impl Serialize,
    ) -> impl Future<Output = std::result::Result<String, Error>> + Send + 'a {
        let app = self.app.clone();
        let merged = to_locals(locals).map(|own| merge(app.locals(), Some(self.locals()), own));
        async move { app.render_merged(view, merged?).await }
    }
}
