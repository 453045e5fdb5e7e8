//! The minijinja adapter (cargo feature `minijinja`, on by default).

use std::path::{Component, Path, PathBuf};

use minijinja::value::Serde;
use minijinja::{AutoEscape, Environment, ErrorKind};

use super::{Engine, Locals, ViewFile, read_view};
use crate::error::Error;

/// Jinja templates through [minijinja](https://docs.rs/minijinja): register
/// it for an extension with `app.engine("html", MiniJinja::new())`.
///
/// `{% extends %}`, `{% include %}` and `{% import %}` name other templates
/// relative to the `views` directories, searched in order (`"layout.html"`,
/// `"partials/nav.html"`); names with `..` or a leading `/` are not found.
/// Each compiled view keeps the templates it loaded while `view cache` is on.
///
/// ```no_run
/// use webfw::prelude::*;
/// use webfw::view::MiniJinja;
///
/// async fn page(_req: &mut Request, res: &mut Response) -> Result {
///     res.render("page", serde_json::json!({ "items": ["a", "b"] })).await
/// }
///
/// let mut app = webfw::app();
/// app.set("view engine", "html");
/// app.engine("html", MiniJinja::new());
/// app.get("/", page);
/// app.listen(3000, |_| {}).unwrap();
/// ```
#[derive(Clone)]
pub struct MiniJinja {
    base: Environment<'static>,
}

impl std::fmt::Debug for MiniJinja {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniJinja").finish_non_exhaustive()
    }
}

impl Default for MiniJinja {
    fn default() -> Self {
        MiniJinja::new()
    }
}

impl MiniJinja {
    /// An engine that HTML-escapes every `{{ value }}` in every template,
    /// whatever the file extension (`{{ value|safe }}` opts out).
    ///
    /// ```
    /// let mut app = webfw::app();
    /// app.engine("html", webfw::view::MiniJinja::new());
    /// ```
    pub fn new() -> MiniJinja {
        let mut env = Environment::new();
        env.set_auto_escape_callback(|_| AutoEscape::Html);
        MiniJinja { base: env }
    }

    /// An engine built on your own environment: its filters, functions,
    /// globals, syntax and auto-escape rules apply to every view, and the
    /// templates you added stay available to `{% include %}` and
    /// `{% import %}`. Its loader is replaced by one reading the `views`
    /// directories.
    ///
    /// ```
    /// let mut env = minijinja::Environment::new();
    /// env.add_filter("shout", |s: String| s.to_uppercase());
    /// env.add_global("site", "Example");
    /// let mut app = webfw::app();
    /// app.engine("jinja", webfw::view::MiniJinja::from_env(env));
    /// ```
    pub fn from_env(env: Environment<'static>) -> MiniJinja {
        MiniJinja { base: env }
    }
}

/// A view compiled by [`MiniJinja`]: its own environment holding the view and
/// the templates it loads. The view cache keeps it; applications never build
/// one themselves.
///
/// ```
/// use webfw::view::{Engine, MiniJinja, MiniJinjaTemplate};
/// fn compiled_by<E: Engine<Template = MiniJinjaTemplate>>(_: &E) {}
/// compiled_by(&MiniJinja::new());
/// ```
pub struct MiniJinjaTemplate {
    env: Environment<'static>,
    name: String,
}

impl std::fmt::Debug for MiniJinjaTemplate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniJinjaTemplate")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Engine for MiniJinja {
    type Template = MiniJinjaTemplate;

    fn compile(&self, view: &ViewFile<'_>) -> Result<MiniJinjaTemplate, Error> {
        let mut env = self.base.clone();
        let roots = view.roots().to_vec();
        env.set_loader(move |name| load(&roots, name));
        let name = template_name(view.path(), view.roots());
        env.add_template_owned(name.clone(), view.source().to_owned())
            .map_err(to_error)?;
        Ok(MiniJinjaTemplate { env, name })
    }

    fn render(&self, template: &MiniJinjaTemplate, locals: &Locals) -> Result<String, Error> {
        let tpl = template
            .env
            .get_template(&template.name)
            .map_err(to_error)?;
        tpl.render(Serde(locals)).map_err(to_error)
    }
}

/// The name minijinja shows in errors: the path below the root holding it.
fn template_name(path: &Path, roots: &[PathBuf]) -> String {
    roots
        .iter()
        .find_map(|r| path.strip_prefix(r).ok())
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// Loads a template another one names, from the first root that has it.
fn load(roots: &[PathBuf], name: &str) -> Result<Option<String>, minijinja::Error> {
    let rel = Path::new(name);
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return Ok(None);
    }
    let Some(path) = roots
        .iter()
        .map(|r| r.join(rel))
        .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
    else {
        return Ok(None);
    };
    read_view(name, &path)
        .map(Some)
        .map_err(|e| minijinja::Error::new(ErrorKind::InvalidOperation, e.message().to_owned()))
}

fn to_error(e: minijinja::Error) -> Error {
    let mut message = e.to_string();
    if let Some(detail) = e.detail()
        && !message.contains(detail)
    {
        message.push_str(": ");
        message.push_str(detail);
    }
    Error::new(message).with_source(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(engine: &MiniJinja, source: &str) -> MiniJinjaTemplate {
        let view = ViewFile {
            name: "t",
            path: Path::new("/v/t.html"),
            roots: &[PathBuf::from("/v")],
            source,
        };
        engine.compile(&view).unwrap()
    }

    #[test]
    fn escapes_html_whatever_the_extension() {
        let engine = MiniJinja::new();
        let t = compile(&engine, "<p>{{ name }}</p>");
        let mut locals = Locals::new();
        locals.insert("name".into(), "<b>&".into());
        assert_eq!(engine.render(&t, &locals).unwrap(), "<p>&lt;b&gt;&amp;</p>");
    }

    #[test]
    fn syntax_errors_name_the_template() {
        let engine = MiniJinja::new();
        let view = ViewFile {
            name: "t",
            path: Path::new("/v/bad.html"),
            roots: &[PathBuf::from("/v")],
            source: "{% if %}",
        };
        let err = engine.compile(&view).unwrap_err();
        assert!(err.message().contains("bad.html"), "{}", err.message());
    }

    #[test]
    fn from_env_keeps_filters_globals_and_templates() {
        let mut env = Environment::new();
        env.add_filter("shout", |s: String| s.to_uppercase());
        env.add_global("site", "S");
        env.add_template(
            "macros.html",
            "{% macro b(x) %}<b>{{ x }}</b>{% endmacro %}",
        )
        .unwrap();
        let engine = MiniJinja::from_env(env);
        let t = compile(
            &engine,
            "{% import \"macros.html\" as m %}{{ site }} {{ 'hi'|shout }} {{ m.b('x') }}",
        );
        assert_eq!(engine.render(&t, &Locals::new()).unwrap(), "S HI <b>x</b>");
    }

    #[test]
    fn partial_names_cannot_leave_the_roots() {
        let roots = [PathBuf::from("/")];
        assert!(load(&roots, "../etc/passwd").unwrap().is_none());
        assert!(load(&roots, "/etc/passwd").unwrap().is_none());
    }
}
