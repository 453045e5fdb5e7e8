//! The minijinja adapter (cargo feature `minijinja`, on by default).

use std::path::{Component, Path, PathBuf};

use minijinja::value::Serde;
use minijinja::{AutoEscape, Environment, ErrorKind, Output, State, Value};

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
/// Every `{{ value }}` is HTML-escaped, whatever the view's extension
/// (`{{ value|safe }}` opts out), unless the app chooses otherwise with
/// [`MiniJinja::escape`]. Coming from EJS, two differences show in the
/// output: minijinja's escaping also turns `/` into `&#x2f;` and writes
/// `"` and `'` as `&quot;` and `&#x27;` (EJS: `&#34;`, `&#39;`, `/` kept),
/// and minijinja drops the template's last newline where EJS keeps it.
/// [`Escape::Ejs`] and [`MiniJinja::keep_trailing_newline`] give EJS's output.
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
    escape: Escape,
}

/// How [`MiniJinja`] escapes the values a view prints (`{{ value }}`):
/// [`MiniJinja::escape`].
///
/// ```
/// use webfw::view::{Escape, MiniJinja};
/// let mut app = webfw::app();
/// app.engine("ejs", MiniJinja::new().escape(Escape::Ejs).keep_trailing_newline(true));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Escape {
    /// minijinja's HTML escaping in every view, whatever its extension:
    /// `&`, `<`, `>`, `"`, `'` and `/` (the default).
    #[default]
    Html,
    /// EJS's `<%= %>` escaping in every view: `&`, `<`, `>`, `"` and `'` as
    /// `&amp;`, `&lt;`, `&gt;`, `&#34;` and `&#39;`; `/` stays. It replaces
    /// the environment's formatter.
    Ejs,
    /// The environment's own rules: the callback given to
    /// `Environment::set_auto_escape_callback`, or minijinja's default, which
    /// escapes `.html`, `.htm` and `.xml` views only. This is how an app turns
    /// escaping off for its other views, knowingly.
    Environment,
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
        MiniJinja::from_env(Environment::new())
    }

    /// An engine built on your own environment: its filters, functions,
    /// globals and syntax apply to every view, and the templates you added
    /// stay available to `{% include %}` and `{% import %}`. Its loader is
    /// replaced by one reading the `views` directories. Views are
    /// HTML-escaped whatever their extension; `.escape(Escape::Environment)`
    /// hands escaping back to the environment's own auto-escape rules.
    ///
    /// ```
    /// let mut env = minijinja::Environment::new();
    /// env.add_filter("shout", |s: String| s.to_uppercase());
    /// env.add_global("site", "Example");
    /// let mut app = webfw::app();
    /// app.engine("jinja", webfw::view::MiniJinja::from_env(env));
    /// ```
    pub fn from_env(env: Environment<'static>) -> MiniJinja {
        MiniJinja {
            base: env,
            escape: Escape::Html,
        }
    }

    /// How printed values are escaped (see [`Escape`]); HTML by default.
    ///
    /// ```
    /// use webfw::view::{Escape, MiniJinja};
    /// // Plain-text mail templates: nothing to escape, said explicitly.
    /// let mut env = minijinja::Environment::new();
    /// env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    /// let engine = MiniJinja::from_env(env).escape(Escape::Environment);
    /// ```
    pub fn escape(mut self, escape: Escape) -> MiniJinja {
        self.escape = escape;
        self
    }

    /// Keeps a view's last newline in the output, as EJS does (minijinja,
    /// like Jinja2, drops one trailing newline by default).
    ///
    /// ```
    /// let engine = webfw::view::MiniJinja::new().keep_trailing_newline(true);
    /// ```
    pub fn keep_trailing_newline(mut self, keep: bool) -> MiniJinja {
        let mut syntax = self.base.syntax().to_builder();
        // Rebuilding a configuration that was already valid cannot fail.
        if let Ok(syntax) = syntax.keep_trailing_newline(keep).build() {
            self.base.set_syntax(syntax);
        }
        self
    }
}

/// EJS's `escapeXML` as a minijinja formatter: safe values and views whose
/// escaping is off print as they are.
fn ejs_formatter(
    out: &mut Output,
    state: &mut State,
    value: &Value,
) -> Result<(), minijinja::Error> {
    if value.is_safe() || *state.auto_escape() == AutoEscape::None {
        return minijinja::escape_formatter(out, state, value);
    }
    let text = value.to_string();
    let mut rest = text.as_str();
    while let Some(i) = rest.find(['&', '<', '>', '"', '\'']) {
        out.write_str(&rest[..i])?;
        out.write_str(match rest.as_bytes()[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&#34;",
            _ => "&#39;",
        })?;
        rest = &rest[i + 1..];
    }
    out.write_str(rest)?;
    Ok(())
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
        match self.escape {
            Escape::Html => env.set_auto_escape_callback(|_| AutoEscape::Html),
            Escape::Ejs => {
                env.set_auto_escape_callback(|_| AutoEscape::Html);
                env.set_formatter(ejs_formatter);
            }
            Escape::Environment => {}
        }
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

    fn render(engine: &MiniJinja, path: &str, source: &str, name: &str) -> String {
        let view = ViewFile {
            name: "t",
            path: Path::new(path),
            roots: &[PathBuf::from("/v")],
            source,
        };
        let t = engine.compile(&view).unwrap();
        let mut locals = Locals::new();
        locals.insert("name".into(), name.into());
        engine.render(&t, &locals).unwrap()
    }

    #[test]
    fn a_users_own_environment_escapes_every_extension_too() {
        let engine = MiniJinja::from_env(Environment::new());
        for path in ["/v/t.ejs", "/v/t.hbs", "/v/t.tpl", "/v/t.html"] {
            assert_eq!(
                render(&engine, path, "{{ name }}", "<i>"),
                "&lt;i&gt;",
                "{path}"
            );
        }
        // Turned off explicitly: minijinja's own rule (by extension) applies.
        let engine = engine.escape(Escape::Environment);
        assert_eq!(render(&engine, "/v/t.tpl", "{{ name }}", "<i>"), "<i>");
        assert_eq!(
            render(&engine, "/v/t.html", "{{ name }}", "<i>"),
            "&lt;i&gt;"
        );
    }

    #[test]
    fn ejs_escaping_and_last_newline() {
        let text = r#"<a href="/x?a=1&b='2'">"#;
        let html = MiniJinja::new();
        assert_eq!(
            render(&html, "/v/t.ejs", "{{ name }}\n", text),
            "&lt;a href=&quot;&#x2f;x?a=1&amp;b=&#x27;2&#x27;&quot;&gt;"
        );
        // What `<%= name %>` gives in EJS 3.
        let ejs = MiniJinja::new()
            .escape(Escape::Ejs)
            .keep_trailing_newline(true);
        assert_eq!(
            render(&ejs, "/v/t.ejs", "{{ name }}|{{ name|safe }}\n", text),
            format!("&lt;a href=&#34;/x?a=1&amp;b=&#39;2&#39;&#34;&gt;|{text}\n")
        );
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
