//! `app.render` on the frozen app, and the locals every render merges
//! (feature `views`).

use std::future::Future;

use serde::Serialize;
use serde_json::Value;

use super::AppRef;
use super::settings::Setting;
use crate::error::Error;
use crate::view::{Locals, ViewConfig};

impl AppRef {
    /// `app.render(view, locals, callback)`: renders a view with
    /// `app.locals` and `locals` (later keys win) and gives back the HTML
    /// without sending it. Lookup and engine errors are `Err`, with
    /// Express's messages (`Failed to lookup view "x" in views directory
    /// "…"`). `locals` is anything that serializes to a map (`json!({…})`,
    /// a `#[derive(Serialize)]` struct, `()` for none); a `cache` local
    /// turns the view cache on or off for this call.
    ///
    /// `view` must not come from clients: like Express, it may name any
    /// file with a registered extension. Needs the `views` feature (on by
    /// default).
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
