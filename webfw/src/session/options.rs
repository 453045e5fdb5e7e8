//! The options of [`session`](crate::session()).

use std::fmt;
use std::sync::Arc;

use super::cookie::CookieOptions;
use super::memory::MemoryStore;
use super::store::SessionStore;

/// What happens when a handler unsets `req.session`
/// ([`Session::unset`](super::Session::unset)).
///
/// ```
/// use webfw::session::{SessionOptions, Unset};
/// let _ = SessionOptions::new("s").unset(Unset::Destroy);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unset {
    /// `'keep'` (the default): the stored session stays, unchanged.
    #[default]
    Keep,
    /// `'destroy'`: the stored session is destroyed when the response ends.
    Destroy,
}

/// The options of [`session`](crate::session()), express-session's: start
/// with [`SessionOptions::new`] and the secret, then set what differs.
///
/// ```
/// use std::time::Duration;
/// use webfw::session::{CookieOptions, SessionOptions};
/// let opts = SessionOptions::new("keyboard cat")
///     .name("sid")
///     .resave(false)
///     .save_uninitialized(false)
///     .cookie(CookieOptions::new().max_age(Duration::from_secs(3600)));
/// let mut app = webfw::app();
/// app.use_(webfw::session(opts));
/// ```
#[derive(Clone)]
pub struct SessionOptions {
    pub(crate) secrets: Vec<String>,
    pub(crate) name: String,
    pub(crate) cookie: CookieOptions,
    pub(crate) resave: bool,
    pub(crate) save_uninitialized: bool,
    pub(crate) rolling: bool,
    pub(crate) proxy: Option<bool>,
    pub(crate) genid: Arc<dyn Fn() -> String + Send + Sync>,
    pub(crate) store: Arc<dyn SessionStore>,
    pub(crate) unset: Unset,
}

impl fmt::Debug for SessionOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The secrets are left out on purpose.
        f.debug_struct("SessionOptions")
            .field("name", &self.name)
            .field("cookie", &self.cookie)
            .field("resave", &self.resave)
            .field("save_uninitialized", &self.save_uninitialized)
            .field("rolling", &self.rolling)
            .field("proxy", &self.proxy)
            .field("unset", &self.unset)
            .finish_non_exhaustive()
    }
}

impl SessionOptions {
    /// Options with `secret` (it signs the session cookie) and
    /// express-session's defaults: name `connect.sid`, `resave` and
    /// `saveUninitialized` on, a [`MemoryStore`], ids of 192 random bits.
    ///
    /// ```
    /// let _ = webfw::session::SessionOptions::new("keyboard cat");
    /// ```
    pub fn new(secret: impl Into<String>) -> SessionOptions {
        SessionOptions {
            secrets: vec![secret.into()],
            name: "connect.sid".to_owned(),
            cookie: CookieOptions::default(),
            resave: true,
            save_uninitialized: true,
            rolling: false,
            proxy: None,
            genid: Arc::new(super::generate_id),
            store: Arc::new(MemoryStore::new()),
            unset: Unset::Keep,
        }
    }

    /// `secret` as a list, for rotation: the first signs new cookies, all
    /// are accepted when reading one.
    ///
    /// ```
    /// let _ = webfw::session::SessionOptions::new("x").secrets(["new secret", "old secret"]);
    /// ```
    ///
    /// # Panics
    ///
    /// When the list is empty: a session cookie needs a secret to sign it.
    pub fn secrets<I, S>(mut self, secrets: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.secrets = secrets.into_iter().map(Into::into).collect();
        assert!(
            !self.secrets.is_empty(),
            "SessionOptions::secrets needs at least one secret, e.g. .secrets([\"keyboard cat\"])"
        );
        self
    }

    /// `name`: the session cookie's name (default `connect.sid`).
    ///
    /// ```
    /// let _ = webfw::session::SessionOptions::new("x").name("sid");
    /// ```
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// `cookie`: the session cookie's attributes; its `max_age` is also the
    /// store's TTL.
    ///
    /// ```
    /// use webfw::session::{CookieOptions, SessionOptions, Secure};
    /// let _ = SessionOptions::new("x").cookie(CookieOptions::new().secure(Secure::Auto));
    /// ```
    pub fn cookie(mut self, cookie: CookieOptions) -> Self {
        self.cookie = cookie;
        self
    }

    /// `resave`: store the session after every request even when it did not
    /// change (default `true`, as in express-session).
    ///
    /// ```
    /// let _ = webfw::session::SessionOptions::new("x").resave(false);
    /// ```
    pub fn resave(mut self, yes: bool) -> Self {
        self.resave = yes;
        self
    }

    /// `saveUninitialized`: store (and send the cookie of) a new session even
    /// when the request left it empty (default `true`).
    ///
    /// ```
    /// let _ = webfw::session::SessionOptions::new("x").save_uninitialized(false);
    /// ```
    pub fn save_uninitialized(mut self, yes: bool) -> Self {
        self.save_uninitialized = yes;
        self
    }

    /// `rolling`: send the cookie (with a fresh expiry) on every response.
    ///
    /// ```
    /// let _ = webfw::session::SessionOptions::new("x").rolling(true);
    /// ```
    pub fn rolling(mut self, yes: bool) -> Self {
        self.rolling = yes;
        self
    }

    /// `proxy`: whether to believe `X-Forwarded-Proto` when deciding if the
    /// request is secure (for `secure` cookies). `None` (the default)
    /// follows the app's `trust proxy` setting (`req.secure()`).
    ///
    /// ```
    /// let _ = webfw::session::SessionOptions::new("x").proxy(Some(true));
    /// ```
    pub fn proxy(mut self, proxy: Option<bool>) -> Self {
        self.proxy = proxy;
        self
    }

    /// `genid`: makes new session ids (default: 24 bytes from the OS RNG,
    /// base64url, as `uid-safe` makes them). Ids must be unguessable.
    ///
    /// ```
    /// let _ = webfw::session::SessionOptions::new("x")
    ///     .genid(|| format!("app-{}", webfw::session::generate_id()));
    /// ```
    pub fn genid(mut self, genid: impl Fn() -> String + Send + Sync + 'static) -> Self {
        self.genid = Arc::new(genid);
        self
    }

    /// `store`: where sessions live (default: a [`MemoryStore`]).
    ///
    /// ```
    /// let _ = webfw::session::SessionOptions::new("x").store(webfw::session::MemoryStore::with_max_entries(100));
    /// ```
    pub fn store(mut self, store: impl SessionStore) -> Self {
        self.store = Arc::new(store);
        self
    }

    /// [`SessionOptions::store`] for a store shared with other code.
    ///
    /// ```
    /// use std::sync::Arc;
    /// let store = Arc::new(webfw::session::MemoryStore::new());
    /// let _ = webfw::session::SessionOptions::new("x").shared_store(store.clone());
    /// ```
    pub fn shared_store(mut self, store: Arc<dyn SessionStore>) -> Self {
        self.store = store;
        self
    }

    /// `unset`: what unsetting `req.session` does (default [`Unset::Keep`]).
    ///
    /// ```
    /// let _ = webfw::session::SessionOptions::new("x").unset(webfw::session::Unset::Destroy);
    /// ```
    pub fn unset(mut self, unset: Unset) -> Self {
        self.unset = unset;
        self
    }
}
