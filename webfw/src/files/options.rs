//! The options of `res.sendFile` / `res.download`, and what send needs of
//! them and of serve-static's.

use std::path::PathBuf;

use http::{HeaderName, HeaderValue};

use super::MaxAge;
use super::node_path::absolute;

/// The `dotfiles` option: what to do with a path that has a segment
/// starting with `.`.
///
/// ```
/// use webfw::files::{Dotfiles, SendFileOptions};
/// let opts = SendFileOptions::new().dotfiles(Dotfiles::Deny);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dotfiles {
    /// No special treatment.
    Allow,
    /// 403 Forbidden.
    Deny,
    /// As if the file did not exist: 404.
    Ignore,
}

/// What send's stream is configured with (both front ends fill it).
#[derive(Clone, Debug)]
pub(crate) struct Config {
    /// Absolute and normalised, without a trailing slash.
    pub(crate) root: Option<String>,
    pub(crate) accept_ranges: bool,
    pub(crate) cache_control: bool,
    pub(crate) etag: bool,
    pub(crate) last_modified: bool,
    /// `None`: send's default, which ignores a path only when its last
    /// segment starts with a dot.
    pub(crate) dotfiles: Option<Dotfiles>,
    pub(crate) extensions: Vec<String>,
    pub(crate) index: Vec<String>,
    /// The `Cache-Control` value, made once.
    pub(crate) cache_control_value: HeaderValue,
}

impl Config {
    pub(crate) fn new(max_age: MaxAge, immutable: bool) -> Config {
        Config {
            root: None,
            accept_ranges: true,
            cache_control: true,
            etag: true,
            last_modified: true,
            dotfiles: None,
            extensions: Vec::new(),
            index: vec!["index.html".to_owned()],
            cache_control_value: cache_control(max_age, immutable),
        }
    }

    pub(crate) fn set_cache(&mut self, max_age: MaxAge, immutable: bool) {
        self.cache_control_value = cache_control(max_age, immutable);
    }
}

fn cache_control(max_age: MaxAge, immutable: bool) -> HeaderValue {
    if max_age.seconds() == 0 && !immutable {
        return HeaderValue::from_static("public, max-age=0");
    }
    let mut v = format!("public, max-age={}", max_age.seconds());
    if immutable {
        v.push_str(", immutable");
    }
    HeaderValue::from_str(&v).unwrap_or_else(|_| HeaderValue::from_static("public, max-age=0"))
}

/// Options of [`Response::send_file`](crate::Response::send_file) and
/// [`Response::download`](crate::Response::download) (Express 4's
/// `res.sendFile` options).
///
/// ```
/// use webfw::files::SendFileOptions;
/// let opts = SendFileOptions::new()
///     .root("public")
///     .max_age("2h")
///     .immutable(true)
///     .header("X-Sent-By", "webfw");
/// ```
#[derive(Clone, Debug)]
pub struct SendFileOptions {
    pub(crate) config: Config,
    max_age: MaxAge,
    immutable: bool,
    pub(crate) headers: Vec<(HeaderName, HeaderValue)>,
}

impl Default for SendFileOptions {
    fn default() -> Self {
        SendFileOptions {
            config: Config::new(MaxAge::default(), false),
            max_age: MaxAge::default(),
            immutable: false,
            headers: Vec::new(),
        }
    }
}

impl SendFileOptions {
    /// The defaults: no root, ETag and Last-Modified on, ranges accepted,
    /// `Cache-Control: public, max-age=0`, only a final dot segment ignored.
    ///
    /// ```
    /// let opts = webfw::files::SendFileOptions::new();
    /// ```
    pub fn new() -> SendFileOptions {
        SendFileOptions::default()
    }

    /// `root`: the directory relative paths are resolved in; a path that
    /// would leave it (`..`) gets 403.
    ///
    /// ```
    /// let opts = webfw::files::SendFileOptions::new().root("/srv/files");
    /// ```
    pub fn root(mut self, root: impl Into<PathBuf>) -> Self {
        self.config.root = Some(absolute(root.into()));
        self
    }

    /// `maxAge`: milliseconds or a time string (`"2h"`, `"1d"`).
    ///
    /// ```
    /// let opts = webfw::files::SendFileOptions::new().max_age("1d").max_age(5000);
    /// ```
    pub fn max_age(mut self, max_age: impl Into<MaxAge>) -> Self {
        self.max_age = max_age.into();
        self.config.set_cache(self.max_age, self.immutable);
        self
    }

    /// `immutable`: adds `immutable` to `Cache-Control`.
    ///
    /// ```
    /// let opts = webfw::files::SendFileOptions::new().max_age("1y").immutable(true);
    /// ```
    pub fn immutable(mut self, on: bool) -> Self {
        self.immutable = on;
        self.config.set_cache(self.max_age, self.immutable);
        self
    }

    /// `lastModified`: whether to send `Last-Modified`.
    ///
    /// ```
    /// let opts = webfw::files::SendFileOptions::new().last_modified(false);
    /// ```
    pub fn last_modified(mut self, on: bool) -> Self {
        self.config.last_modified = on;
        self
    }

    /// `etag`: whether to send the weak `ETag`. In an Express 5 app the
    /// app's `etag` setting decides instead (express 5 overwrites the
    /// option with `app.enabled('etag')`).
    ///
    /// ```
    /// let opts = webfw::files::SendFileOptions::new().etag(false);
    /// ```
    pub fn etag(mut self, on: bool) -> Self {
        self.config.etag = on;
        self
    }

    /// `acceptRanges`: whether to answer `Range` requests (and say so).
    ///
    /// ```
    /// let opts = webfw::files::SendFileOptions::new().accept_ranges(false);
    /// ```
    pub fn accept_ranges(mut self, on: bool) -> Self {
        self.config.accept_ranges = on;
        self
    }

    /// `cacheControl`: whether to send `Cache-Control`.
    ///
    /// ```
    /// let opts = webfw::files::SendFileOptions::new().cache_control(false);
    /// ```
    pub fn cache_control(mut self, on: bool) -> Self {
        self.config.cache_control = on;
        self
    }

    /// `dotfiles`: `Allow`, `Deny` (403) or `Ignore` (404) for paths with a
    /// dot segment. Unset, only a final segment starting with a dot is
    /// ignored, as send 0.19 does; in an Express 5 app (send 1) every
    /// such segment is.
    ///
    /// ```
    /// use webfw::files::{Dotfiles, SendFileOptions};
    /// let opts = SendFileOptions::new().dotfiles(Dotfiles::Allow);
    /// ```
    pub fn dotfiles(mut self, dotfiles: Dotfiles) -> Self {
        self.config.dotfiles = Some(dotfiles);
        self
    }

    /// `headers`: a header sent with the file (set before send's own, which
    /// then keep it). Values may hold Latin-1 characters, written as single
    /// bytes like Node.
    ///
    /// # Panics
    ///
    /// When the name is not a valid header name or the value holds a
    /// control character or a character above U+00FF (Node throws there too).
    ///
    /// ```
    /// let opts = webfw::files::SendFileOptions::new().header("X-Sent-By", "webfw");
    /// ```
    pub fn header(mut self, name: &str, value: &str) -> Self {
        let (name, value) = header_pair(name, value)
            .unwrap_or_else(|| panic!("invalid header for sendFile: {name:?}: {value:?}"));
        self.headers.retain(|(n, _)| *n != name);
        self.headers.push((name, value));
        self
    }
}

/// A header name and a value written as Latin-1 bytes.
pub(crate) fn header_pair(name: &str, value: &str) -> Option<(HeaderName, HeaderValue)> {
    let name = HeaderName::from_bytes(name.as_bytes()).ok()?;
    let bytes = crate::http::content_disposition::latin1_bytes(value)?;
    let value = HeaderValue::from_bytes(&bytes).ok()?;
    Some((name, value))
}
