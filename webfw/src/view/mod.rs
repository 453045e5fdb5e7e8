//! Views: template engines, view lookup and the view cache (`app.engine`,
//! `res.render`, `app.render`). Needs the `views` feature (on by default);
//! without it none of this is compiled and the `views`, `view engine` and
//! `view cache` settings are only values `app.get` gives back.
//!
//! An engine is anything that implements [`Engine`]: it compiles a template's
//! text once and renders the compiled form with the merged locals. webfw finds
//! the file as Express's `View` does, reads it off the async runtime, keeps the
//! compiled template while `view cache` is on (the default in production), and
//! turns lookup failures into Express's error.
//!
//! ```no_run
//! # #[cfg(feature = "minijinja")] {
//! use webfw::prelude::*;
//! use webfw::view::MiniJinja;
//!
//! async fn home(_req: &mut Request, res: &mut Response) -> Result {
//!     res.render("home", serde_json::json!({ "title": "Welcome" })).await
//! }
//!
//! let mut app = webfw::app();
//! app.set("views", "templates").set("view engine", "html");
//! app.engine("html", MiniJinja::new());
//! app.get("/", home);
//! app.listen(3000, |addr| println!("listening on {addr}")).unwrap();
//! # }
//! ```
//!
//! # Writing an engine
//!
//! Any template library fits behind the trait. This one is
//! [Tera](https://docs.rs/tera) (with `tera` as a dependency of your app;
//! not compiled here, since webfw does not depend on it):
//!
//! ```ignore
//! use webfw::view::{Engine, Locals, ViewFile};
//! use webfw::Error;
//!
//! struct TeraEngine;
//!
//! impl Engine for TeraEngine {
//!     // One parsed view and its name: what the view cache keeps.
//!     type Template = (tera::Tera, String);
//!
//!     fn compile(&self, view: &ViewFile<'_>) -> Result<Self::Template, Error> {
//!         let mut tera = tera::Tera::default();
//!         tera.autoescape_on(vec![""]); // escape every view, whatever its extension
//!         tera.add_raw_template(view.name(), view.source())
//!             .map_err(|e| Error::new(e.to_string()))?;
//!         Ok((tera, view.name().to_owned()))
//!     }
//!
//!     fn render(&self, (tera, name): &Self::Template, locals: &Locals) -> Result<String, Error> {
//!         let context = tera::Context::from_serialize(locals)
//!             .map_err(|e| Error::new(e.to_string()))?;
//!         tera.render(name, &context).map_err(|e| Error::new(e.to_string()))
//!     }
//! }
//!
//! let mut app = webfw::app();
//! app.engine("tera", TeraEngine);
//! ```

mod cache;
#[cfg(feature = "minijinja")]
mod jinja;
mod lookup;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::error::Error;

use cache::ViewCache;
#[cfg(feature = "minijinja")]
pub use jinja::{Escape, MiniJinja, MiniJinjaTemplate};

/// The variables a template sees: `app.locals`, then `res.locals`, then the
/// locals given to `render`, later ones winning. (Express also hands its
/// engines `settings`, `_locals` and `cache`; webfw does not.)
///
/// ```
/// let mut locals = webfw::view::Locals::new();
/// locals.insert("title".into(), serde_json::json!("Home"));
/// ```
pub type Locals = Map<String, Value>;

/// The largest template file webfw reads (8 MiB); a larger one is an error,
/// never read into memory.
///
/// ```
/// assert_eq!(webfw::view::MAX_VIEW_SIZE, 8 << 20);
/// ```
pub const MAX_VIEW_SIZE: u64 = 8 * 1024 * 1024;

/// The most compiled views one app keeps; further views are still rendered,
/// just not kept (view names should never come from clients, but a handler
/// that lets them must not make the cache grow without end).
///
/// ```
/// assert_eq!(webfw::view::MAX_CACHED_VIEWS, 1024);
/// ```
pub const MAX_CACHED_VIEWS: usize = 1024;

/// A template engine, registered for a file extension with
/// [`App::engine`](crate::App::engine) (`app.engine(ext, fn)` in Express).
///
/// webfw finds and reads the file; the engine compiles its text once
/// ([`Engine::compile`]) and renders the compiled form as often as asked
/// ([`Engine::render`]). With `view cache` on, the compiled template is kept
/// and later renders skip the file system. A view's compile and its first
/// render run on tokio's blocking pool, so they may read files (partials,
/// layouts); renders of a cached view run on the runtime thread and should
/// only compute.
///
/// ```
/// use webfw::view::{Engine, Locals, ViewFile};
/// use webfw::Error;
///
/// /// Replaces `{name}` with the local `name`.
/// struct Braces;
///
/// impl Engine for Braces {
///     type Template = String;
///
///     fn compile(&self, view: &ViewFile<'_>) -> Result<String, Error> {
///         Ok(view.source().to_owned())
///     }
///
///     fn render(&self, template: &String, locals: &Locals) -> Result<String, Error> {
///         let name = locals.get("name").and_then(|v| v.as_str()).unwrap_or("");
///         Ok(template.replace("{name}", name))
///     }
/// }
///
/// let mut app = webfw::app();
/// app.engine("br", Braces);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a webfw view engine",
    label = "expected a type implementing `webfw::view::Engine`",
    note = "Express's `app.engine(ext, fn)` takes a function; webfw takes a type with `fn compile(&self, view: &ViewFile<'_>) -> Result<Self::Template, Error>` and `fn render(&self, template: &Self::Template, locals: &Locals) -> Result<String, Error>` (see `webfw::view::Engine`), or the built-in `webfw::view::MiniJinja`"
)]
pub trait Engine: Send + Sync + 'static {
    /// What [`Engine::compile`] produces and the view cache keeps.
    type Template: Send + Sync + 'static;

    /// Compiles the text of a view file. A syntax error is an `Err`, passed
    /// on as `next(err)` by `res.render`.
    ///
    /// ```
    /// use webfw::view::{Engine, Locals, ViewFile};
    /// struct Upper;
    /// impl Engine for Upper {
    ///     type Template = String;
    ///     fn compile(&self, view: &ViewFile<'_>) -> Result<String, webfw::Error> {
    ///         if view.source().contains("{{") {
    ///             return Err(webfw::Error::new(format!("{}: no templating here", view.name())));
    ///         }
    ///         Ok(view.source().to_uppercase())
    ///     }
    ///     fn render(&self, t: &String, _: &Locals) -> Result<String, webfw::Error> {
    ///         Ok(t.clone())
    ///     }
    /// }
    /// ```
    fn compile(&self, view: &ViewFile<'_>) -> Result<Self::Template, Error>;

    /// Renders a compiled template with the merged locals.
    ///
    /// ```
    /// use webfw::view::{Engine, Locals, ViewFile};
    /// struct Hello;
    /// impl Engine for Hello {
    ///     type Template = ();
    ///     fn compile(&self, _: &ViewFile<'_>) -> Result<(), webfw::Error> {
    ///         Ok(())
    ///     }
    ///     fn render(&self, _: &(), locals: &Locals) -> Result<String, webfw::Error> {
    ///         let name = locals.get("name").and_then(|v| v.as_str()).unwrap_or("world");
    ///         Ok(format!("hello {name}"))
    ///     }
    /// }
    /// let mut locals = Locals::new();
    /// locals.insert("name".into(), "tobi".into());
    /// assert_eq!(Hello.render(&(), &locals).unwrap(), "hello tobi");
    /// ```
    fn render(&self, template: &Self::Template, locals: &Locals) -> Result<String, Error>;
}

/// A view file found by the lookup, as handed to [`Engine::compile`].
///
/// ```
/// use webfw::view::{Engine, Locals, ViewFile};
///
/// struct Echo;
/// impl Engine for Echo {
///     type Template = String;
///     fn compile(&self, view: &ViewFile<'_>) -> Result<String, webfw::Error> {
///         Ok(format!("{} from {}: {}", view.name(), view.path().display(), view.source()))
///     }
///     fn render(&self, t: &String, _: &Locals) -> Result<String, webfw::Error> {
///         Ok(t.clone())
///     }
/// }
/// ```
#[derive(Debug)]
pub struct ViewFile<'a> {
    name: &'a str,
    path: &'a Path,
    roots: &'a [PathBuf],
    source: &'a str,
}

impl ViewFile<'_> {
    /// The view name as given to `render` (`"users/show"`).
    ///
    /// ```
    /// # fn f(view: &webfw::view::ViewFile<'_>) {
    /// println!("compiling {}", view.name());
    /// # }
    /// ```
    pub fn name(&self) -> &str {
        self.name
    }

    /// The absolute path of the file found.
    ///
    /// ```
    /// # fn f(view: &webfw::view::ViewFile<'_>) {
    /// assert!(view.path().is_absolute());
    /// # }
    /// ```
    pub fn path(&self) -> &Path {
        self.path
    }

    /// The `views` directories, absolute, in search order: where an engine
    /// looks for the partials and layouts a template names.
    ///
    /// ```
    /// # fn f(view: &webfw::view::ViewFile<'_>) {
    /// for root in view.roots() {
    ///     println!("partials may live in {}", root.display());
    /// }
    /// # }
    /// ```
    pub fn roots(&self) -> &[PathBuf] {
        self.roots
    }

    /// The file's text (invalid UTF-8 replaced by U+FFFD, as Node's
    /// `readFile(path, 'utf8')` does).
    ///
    /// ```
    /// # fn f(view: &webfw::view::ViewFile<'_>) {
    /// let lines = view.source().lines().count();
    /// # }
    /// ```
    pub fn source(&self) -> &str {
        self.source
    }
}

/// A compiled template together with the engine that renders it.
pub(crate) trait Compiled: Send + Sync {
    fn render(&self, locals: &Locals) -> Result<String, Error>;
}

struct Bound<E: Engine> {
    engine: Arc<E>,
    template: E::Template,
}

impl<E: Engine> Compiled for Bound<E> {
    fn render(&self, locals: &Locals) -> Result<String, Error> {
        self.engine.render(&self.template, locals)
    }
}

/// [`Engine`] made object-safe: compiling binds the template to its engine.
trait DynEngine: Send + Sync {
    fn compile_view(self: Arc<Self>, view: &ViewFile<'_>) -> Result<Arc<dyn Compiled>, Error>;
}

impl<E: Engine> DynEngine for E {
    fn compile_view(self: Arc<Self>, view: &ViewFile<'_>) -> Result<Arc<dyn Compiled>, Error> {
        let template = self.compile(view)?;
        Ok(Arc::new(Bound {
            engine: self,
            template,
        }))
    }
}

/// Express's `app.set('view', View)`: where an app's views come from when
/// not from files under the `views` directories (templates embedded in the
/// binary, kept in a database, fetched from elsewhere). Set with
/// [`App::view`](crate::App::view); the engine registered for the view's
/// extension still compiles and renders what it returns, and the view
/// cache keeps the result as for files. It runs on the blocking pool, so it
/// may block. Templates an engine loads by itself (MiniJinja's
/// `{% include %}`) are still read from the `views` directories.
///
/// ```
/// # #[cfg(feature = "minijinja")] {
/// use std::path::{Path, PathBuf};
/// use webfw::view::{FoundView, ViewLookup};
///
/// /// Views compiled into the binary.
/// struct Embedded;
///
/// impl ViewLookup for Embedded {
///     fn lookup(&self, file_name: &str, _roots: &[PathBuf]) -> Result<Option<FoundView>, webfw::Error> {
///         let source = match file_name {
///             "home.html" => "<h1>{{ title }}</h1>",
///             _ => return Ok(None), // Express's "Failed to lookup view"
///         };
///         Ok(Some(FoundView::new(Path::new("embedded").join(file_name), source)))
///     }
/// }
///
/// let mut app = webfw::app();
/// app.view(Embedded).set("view engine", "html");
/// app.engine("html", webfw::view::MiniJinja::new());
/// # }
/// ```
pub trait ViewLookup: Send + Sync + 'static {
    /// Finds the view: `file_name` is the name given to `render` with the
    /// `view engine` extension added when it had none (`users/list.html`),
    /// `roots` the `views` setting resolved against the working directory.
    /// `Ok(None)` means not found, which `render` reports as Express does.
    fn lookup(&self, file_name: &str, roots: &[PathBuf]) -> Result<Option<FoundView>, Error>;
}

/// A view a [`ViewLookup`] found: the path the engine sees (in error
/// messages, and as the place its includes are relative to) and the
/// template's text.
///
/// ```
/// let found = webfw::view::FoundView::new("db/users.html", "<p>{{ name }}</p>");
/// ```
#[derive(Debug, Clone)]
pub struct FoundView {
    path: PathBuf,
    source: String,
}

impl FoundView {
    /// A view at `path` with the text `source`.
    ///
    /// ```
    /// let found = webfw::view::FoundView::new("embedded/home.html", "<h1>Home</h1>");
    /// ```
    pub fn new(path: impl Into<PathBuf>, source: impl Into<String>) -> FoundView {
        FoundView {
            path: path.into(),
            source: source.into(),
        }
    }
}

/// The engines of one app, by extension with its dot (`.html`), and its
/// custom view lookup.
#[derive(Clone, Default)]
pub(crate) struct Engines {
    by_ext: HashMap<String, Arc<dyn DynEngine>>,
    lookup: Option<Arc<dyn ViewLookup>>,
}

impl Engines {
    /// `app.engine(ext, engine)`: a leading dot is added when missing.
    pub(crate) fn insert(&mut self, ext: &str, engine: impl Engine) {
        let key = if ext.starts_with('.') {
            ext.to_owned()
        } else {
            format!(".{ext}")
        };
        self.by_ext.insert(key, Arc::new(engine));
    }

    /// `app.set('view', View)`.
    pub(crate) fn set_lookup(&mut self, lookup: impl ViewLookup) {
        self.lookup = Some(Arc::new(lookup));
    }

    /// A mounted app's engines: its own, then its parent's (Express chains
    /// `engines` to the parent's on mount, and `view` inherits as settings do).
    pub(crate) fn over(&self, parent: &Engines) -> Engines {
        let mut all = parent.by_ext.clone();
        all.extend(self.by_ext.iter().map(|(k, v)| (k.clone(), v.clone())));
        Engines {
            by_ext: all,
            lookup: self.lookup.clone().or_else(|| parent.lookup.clone()),
        }
    }
}

/// What one app reads from its settings to render.
pub(crate) struct ViewConfig<'a> {
    /// `views`: a directory or a list of them.
    pub views: Option<&'a Value>,
    /// `view engine`.
    pub default_engine: Option<&'a str>,
    /// `view cache`.
    pub cache: bool,
}

/// A running app's engines and view cache.
pub(crate) struct Views {
    engines: Engines,
    cache: ViewCache,
}

impl Views {
    pub(crate) fn new(engines: Engines) -> Views {
        Views {
            engines,
            cache: ViewCache::new(MAX_CACHED_VIEWS),
        }
    }

    /// Express's `app.render`: the cached view or a fresh lookup, then the
    /// engine. `locals` are already merged.
    pub(crate) async fn render(
        &self,
        name: &str,
        config: ViewConfig<'_>,
        locals: Locals,
    ) -> Result<String, Error> {
        let cache = match locals.get("cache") {
            None | Some(Value::Null) => config.cache,
            Some(v) => truthy(v),
        };
        if cache && let Some(view) = self.cache.get(name) {
            return view.render(&locals);
        }
        let target = lookup::target(name, config.default_engine).map_err(Error::new)?;
        let Some(engine) = self.engines.by_ext.get(&target.ext).cloned() else {
            return Err(Error::new(format!(
                "No view engine is registered for \"{ext}\" (rendering \"{name}\"): \
                 add one with app.engine(\"{bare}\", engine)",
                ext = target.ext,
                bare = target.ext.trim_start_matches('.'),
            )));
        };
        let job = Job {
            name: name.to_owned(),
            roots: roots(config.views)?,
            target,
            engine,
            lookup: self.engines.lookup.clone(),
            locals,
        };
        let fresh = match tokio::runtime::Handle::try_current() {
            Ok(rt) => rt
                .spawn_blocking(move || job.run())
                .await
                .map_err(|e| Error::new(format!("rendering view \"{name}\" failed: {e}")))??,
            Err(_) => job.run()?,
        };
        if cache {
            self.cache.insert(name, fresh.compiled);
        }
        fresh.html
    }
}

/// An uncached render: lookup, read, compile and the first render, all of
/// which may block.
struct Job {
    name: String,
    roots: Vec<String>,
    target: lookup::Target,
    engine: Arc<dyn DynEngine>,
    lookup: Option<Arc<dyn ViewLookup>>,
    locals: Locals,
}

/// What a [`Job`] produced: the compiled view even when its render failed,
/// as Express caches the view before rendering it.
struct Fresh {
    compiled: Arc<dyn Compiled>,
    html: Result<String, Error>,
}

impl Job {
    fn run(self) -> Result<Fresh, Error> {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let roots: Vec<PathBuf> = self
            .roots
            .iter()
            .map(|r| lookup::resolve(&cwd, r, ""))
            .collect();
        let not_found = || Error::new(lookup::not_found_message(&self.name, &self.roots));
        let (path, source) = match &self.lookup {
            Some(custom) => {
                let found = custom
                    .lookup(&self.target.file_name, &roots)?
                    .ok_or_else(not_found)?;
                (found.path, found.source)
            }
            None => {
                let path = self
                    .roots
                    .iter()
                    .flat_map(|root| lookup::candidates(&cwd, root, &self.target))
                    .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
                    .ok_or_else(not_found)?;
                let source = read_view(&self.name, &path)?;
                (path, source)
            }
        };
        let file = ViewFile {
            name: &self.name,
            path: &path,
            roots: &roots,
            source: &source,
        };
        let compiled = self.engine.compile_view(&file)?;
        let html = compiled.render(&self.locals);
        Ok(Fresh { compiled, html })
    }
}

/// JavaScript truthiness, for the `cache` local.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// The `views` setting as a list of roots.
fn roots(views: Option<&Value>) -> Result<Vec<String>, Error> {
    let bad = || {
        Error::new(
            "The \"views\" setting must be a directory or a list of directories, \
             e.g. app.set(\"views\", \"templates\")",
        )
    };
    match views {
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned).ok_or_else(bad))
            .collect(),
        _ => Err(bad()),
    }
}

/// Reads a view file, refusing one larger than [`MAX_VIEW_SIZE`]. I/O errors
/// read as Node's (`ENOENT: no such file or directory, open '…'`).
fn read_view(name: &str, path: &Path) -> Result<String, Error> {
    let io = |e: std::io::Error| node_io_error(&e, "open", path);
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_VIEW_SIZE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| node_io_error(&e, "read", path))?;
    if bytes.len() as u64 > MAX_VIEW_SIZE {
        return Err(Error::new(format!(
            "View \"{name}\" ({}) is larger than {MAX_VIEW_SIZE} bytes, the most webfw reads",
            path.display()
        )));
    }
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// An I/O error worded as Node's `fs` words it.
pub(crate) fn node_io_error(e: &std::io::Error, syscall: &str, path: &Path) -> Error {
    use std::io::ErrorKind;
    let path = path.display();
    let message = match e.kind() {
        ErrorKind::NotFound => format!("ENOENT: no such file or directory, {syscall} '{path}'"),
        ErrorKind::PermissionDenied => format!("EACCES: permission denied, {syscall} '{path}'"),
        ErrorKind::IsADirectory => "EISDIR: illegal operation on a directory, read".to_owned(),
        _ => format!("{e}, {syscall} '{path}'"),
    };
    Error::new(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_setting_is_a_directory_or_a_list() {
        assert_eq!(roots(Some(&Value::from("v"))).unwrap(), ["v"]);
        assert_eq!(
            roots(Some(&serde_json::json!(["a", "b"]))).unwrap(),
            ["a", "b"]
        );
        assert!(roots(Some(&serde_json::json!([1]))).is_err());
        assert!(roots(None).is_err());
    }

    #[test]
    fn io_errors_read_like_node() {
        let e = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert_eq!(
            node_io_error(&e, "open", Path::new("/v/x.tpl")).message(),
            "ENOENT: no such file or directory, open '/v/x.tpl'"
        );
    }
}
