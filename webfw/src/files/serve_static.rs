//! `express.static(root, options)`: serve-static 1.16.

use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use http::HeaderValue;
use http::header::{ALLOW, CONTENT_LENGTH, CONTENT_TYPE, LOCATION};

use super::node_path::absolute;
use super::options::{Config, Dotfiles};
use super::rules::{Send0, SendRules};
use super::send::{FileStream, Located, Sent, locate, respond, stream};
use super::{MaxAge, path};
use crate::error::Error;
use crate::handler::{Flow, Handler, HandlerFuture, Result};
use crate::request::{Request, pathname};
use crate::response::Response;

/// The `setHeaders` callback: the response, the file's path and its
/// metadata, before send sets its own headers. Usually built by
/// [`StaticOptions::set_headers`](crate::StaticOptions::set_headers).
///
/// ```
/// use std::sync::Arc;
/// use webfw::files::SetHeaders;
/// let hook: SetHeaders = Arc::new(|res, path, _meta| {
///     if path.extension().is_some_and(|e| e == "wasm") {
///         res.set("Cache-Control", "no-store");
///     }
/// });
/// ```
pub type SetHeaders = Arc<dyn Fn(&mut Response, &Path, &Metadata) + Send + Sync>;

/// Options of [`static_`] (serve-static's, plus send's `acceptRanges` and
/// `cacheControl`).
///
/// ```
/// use webfw::files::StaticOptions;
/// let opts = StaticOptions::new()
///     .max_age("1d")
///     .immutable(true)
///     .extensions(["html", "htm"])
///     .index(["main.html", "index.html"]);
/// ```
#[derive(Clone)]
pub struct StaticOptions {
    config: Config,
    max_age: MaxAge,
    immutable: bool,
    fallthrough: bool,
    redirect: bool,
    set_headers: Option<SetHeaders>,
}

impl Default for StaticOptions {
    fn default() -> Self {
        StaticOptions {
            config: Config::new(MaxAge::default(), false),
            max_age: MaxAge::default(),
            immutable: false,
            fallthrough: true,
            redirect: true,
            set_headers: None,
        }
    }
}

impl std::fmt::Debug for StaticOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaticOptions")
            .field("config", &self.config)
            .field("fallthrough", &self.fallthrough)
            .field("redirect", &self.redirect)
            .field("set_headers", &self.set_headers.is_some())
            .finish()
    }
}

impl StaticOptions {
    /// serve-static's defaults: index `index.html`, ETag and Last-Modified
    /// on, `max-age=0`, fall through on client errors, redirect
    /// directories to their trailing slash, only a final dot segment
    /// ignored.
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new();
    /// ```
    pub fn new() -> StaticOptions {
        StaticOptions::default()
    }

    /// `dotfiles`: `Allow`, `Deny` (403) or `Ignore` (404, dot directories
    /// too). Unset, only a final segment starting with a dot is ignored
    /// (serve-static 1); [`express5::static_with`](crate::express5::static_with)
    /// takes unset as `Ignore`.
    ///
    /// ```
    /// use webfw::files::{Dotfiles, StaticOptions};
    /// let opts = StaticOptions::new().dotfiles(Dotfiles::Deny);
    /// ```
    pub fn dotfiles(mut self, dotfiles: Dotfiles) -> Self {
        self.config.dotfiles = Some(dotfiles);
        self
    }

    /// `etag`: whether to send the weak `ETag`.
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().etag(false);
    /// ```
    pub fn etag(mut self, on: bool) -> Self {
        self.config.etag = on;
        self
    }

    /// `extensions`: extensions tried in order for a missing name without
    /// one (`["html", "htm"]` serves `/about` from `about.html`).
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().extensions(["html"]);
    /// ```
    pub fn extensions<I, S>(mut self, extensions: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.config.extensions = extensions.into_iter().map(Into::into).collect();
        self
    }

    /// `fallthrough`: `true` lets client errors (404, 403, 400 before a
    /// file was found) and methods other than GET and HEAD go on with
    /// `next()`; `false` passes them to `next(err)` and answers other
    /// methods with 405 and `Allow: GET, HEAD`.
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().fallthrough(false);
    /// ```
    pub fn fallthrough(mut self, on: bool) -> Self {
        self.fallthrough = on;
        self
    }

    /// `immutable`: adds `immutable` to `Cache-Control`.
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().max_age("1y").immutable(true);
    /// ```
    pub fn immutable(mut self, on: bool) -> Self {
        self.immutable = on;
        self.config.set_cache(self.max_age, self.immutable);
        self
    }

    /// `index`: the index files of a directory, tried in order; an empty
    /// list (or [`StaticOptions::no_index`]) turns indexes off.
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().index(["index.htm"]);
    /// ```
    pub fn index<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.config.index = names.into_iter().map(Into::into).collect();
        self
    }

    /// `index: false`.
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().no_index();
    /// ```
    pub fn no_index(self) -> Self {
        self.index(Vec::<String>::new())
    }

    /// `lastModified`: whether to send `Last-Modified`.
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().last_modified(false);
    /// ```
    pub fn last_modified(mut self, on: bool) -> Self {
        self.config.last_modified = on;
        self
    }

    /// `maxAge`: milliseconds or a time string (`"1d"`).
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().max_age(5500);
    /// ```
    pub fn max_age(mut self, max_age: impl Into<MaxAge>) -> Self {
        self.max_age = max_age.into();
        self.config.set_cache(self.max_age, self.immutable);
        self
    }

    /// `redirect`: whether a directory without its trailing slash is
    /// redirected (301) to it; otherwise it is a 404.
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().redirect(false);
    /// ```
    pub fn redirect(mut self, on: bool) -> Self {
        self.redirect = on;
        self
    }

    /// `setHeaders`: called with the response, the file's path and its
    /// metadata before send sets its headers (which keep what it set).
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().set_headers(|res, path, meta| {
    ///     res.set("X-Size", meta.len().to_string());
    /// });
    /// ```
    pub fn set_headers(
        mut self,
        f: impl Fn(&mut Response, &Path, &Metadata) + Send + Sync + 'static,
    ) -> Self {
        self.set_headers = Some(Arc::new(f));
        self
    }

    /// `acceptRanges` (send's): whether to answer `Range` requests.
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().accept_ranges(false);
    /// ```
    pub fn accept_ranges(mut self, on: bool) -> Self {
        self.config.accept_ranges = on;
        self
    }

    /// `cacheControl` (send's): whether to send `Cache-Control`.
    ///
    /// ```
    /// let opts = webfw::files::StaticOptions::new().cache_control(false);
    /// ```
    pub fn cache_control(mut self, on: bool) -> Self {
        self.config.cache_control = on;
        self
    }
}

/// `express.static(root, options)`: serves the files under `root`, the
/// request's path (below the mount point) naming the file. Missing files
/// and other client errors go on to the next handler unless
/// [`fallthrough`](StaticOptions::fallthrough) is off.
///
/// ```no_run
/// use webfw::files::{static_, StaticOptions};
/// let mut app = webfw::app();
/// app.use_at("/static", static_("public", StaticOptions::new().max_age("1d")));
/// ```
pub fn static_(root: impl Into<PathBuf>, options: StaticOptions) -> Static {
    Static {
        inner: rooted(root.into(), options),
    }
}

/// The options with serve-static's resolved root, shared by the middleware.
pub(super) fn rooted(root: PathBuf, mut options: StaticOptions) -> Arc<StaticOptions> {
    options.config.root = Some(absolute(root));
    Arc::new(options)
}

impl StaticOptions {
    /// The `dotfiles` rule when none was chosen (serve-static 2's is
    /// `Ignore` for every segment).
    pub(super) fn dotfiles_default(mut self, dotfiles: Dotfiles) -> Self {
        self.config.dotfiles.get_or_insert(dotfiles);
        self
    }
}

/// The middleware [`static_`] returns.
///
/// ```
/// let mw: webfw::files::Static = webfw::files::static_(".", Default::default());
/// let mut app = webfw::app();
/// app.use_(mw);
/// ```
#[derive(Clone, Debug)]
pub struct Static {
    inner: Arc<StaticOptions>,
}

/// What one pass of [`Static::serve`] came to.
enum Outcome {
    Done(Result),
    /// The head is set; the body is to be streamed.
    Stream(FileStream),
}

impl Handler for Static {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        call::<Send0>(&self.inner, req, res)
    }
}

/// serve-static's middleware answering with send `R`'s rules (serve-static
/// 1 and 2 differ only in the send they use and its dotfiles default).
pub(super) fn call<'a, R: SendRules>(
    opts: &'a StaticOptions,
    req: &'a mut Request,
    res: &'a mut Response,
) -> HandlerFuture<'a> {
    match serve::<R>(opts, req, res) {
        Outcome::Done(r) => HandlerFuture::ready(r),
        Outcome::Stream(s) => HandlerFuture::boxed(Box::pin(async move {
            match stream(res, s).await {
                Ok(_) => Ok(Flow::Done),
                // A file was found: errors go on as they are.
                Err(e) => Err(e),
            }
        })),
    }
}

/// serve-static's middleware up to the body.
fn serve<R: SendRules>(opts: &StaticOptions, req: &mut Request, res: &mut Response) -> Outcome {
    let method = req.method();
    if method != http::Method::GET && method != http::Method::HEAD {
        if opts.fallthrough {
            return Outcome::Done(Ok(Flow::Next));
        }
        res.status(405);
        let h = res.headers_mut();
        h.insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        h.insert(CONTENT_LENGTH, HeaderValue::from_static("0"));
        return Outcome::Done(res.end());
    }
    let raw = pathname(req.url());
    let raw = if raw == "/" && !pathname(req.original_url()).ends_with('/') {
        ""
    } else {
        raw
    };
    // Client errors before a file is found fall through (when on).
    let early = |e: Error| -> Outcome {
        if !opts.fallthrough || e.status() >= 500 {
            Outcome::Done(Err(e))
        } else {
            Outcome::Done(Ok(Flow::Next))
        }
    };
    let Some(decoded) = path::decode_component(raw) else {
        return early(Error::from_status(400));
    };
    let mut resolved = match path::resolve(&decoded, &opts.config) {
        Ok(r) => r,
        Err(e) => return early(e),
    };
    // send looks at the path as sent: `/dir%2f` names the directory
    // without its slash (so it is redirected), as `/dir` does.
    resolved.trailing_slash = raw.ends_with('/');
    let (file, meta, found) = match locate(&resolved, &opts.config) {
        Ok(Located::File(f, m, p)) => (f, m, p),
        Ok(Located::Directory) => {
            if !opts.redirect || resolved.trailing_slash {
                return early(Error::from_status(404));
            }
            return Outcome::Done(redirect_to_slash(req, res));
        }
        Err(e) => return early(e),
    };
    let hook = |res: &mut Response, p: &Path, m: &Metadata| {
        if let Some(f) = &opts.set_headers {
            f(res, p, m);
        }
    };
    // From here on errors are the file's: they go to `next(err)`.
    match respond::<R>(req, res, file, &meta, &found, &opts.config, &hook) {
        Ok(Sent::Done) => Outcome::Done(Ok(Flow::Done)),
        Ok(Sent::Stream(s)) => Outcome::Stream(s),
        Err(e) => Outcome::Done(Err(e)),
    }
}

/// serve-static's directory redirect: 301 to the original URL's path with
/// a `/` added, query kept, with send's small HTML page.
fn redirect_to_slash(req: &Request, res: &mut Response) -> Result {
    let original = req.original_url();
    let (path, query) = match original.find('?') {
        Some(i) => original.split_at(i),
        None => (original, ""),
    };
    let with_slash = format!("{path}/");
    let collapsed = match with_slash.bytes().take_while(|&b| b == b'/').count() {
        n if n > 1 => &with_slash[n - 1..],
        _ => &with_slash[..],
    };
    let location = crate::http::encodeurl::encode_url(&format!("{collapsed}{query}")).into_owned();
    let escaped = crate::http::escape_html::escape_html(&location);
    let doc = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Redirecting</title>\n</head>\n<body>\n<pre>Redirecting to {escaped}</pre>\n</body>\n</html>\n"
    );
    res.status(301);
    let h = res.headers_mut();
    h.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=UTF-8"),
    );
    h.insert(CONTENT_LENGTH, HeaderValue::from(doc.len()));
    h.insert(
        "content-security-policy",
        HeaderValue::from_static("default-src 'none'"),
    );
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    if let Ok(v) = HeaderValue::from_str(&location) {
        h.insert(LOCATION, v);
    }
    if *req.method() == http::Method::HEAD {
        return res.end();
    }
    res.end_with(doc)
}
