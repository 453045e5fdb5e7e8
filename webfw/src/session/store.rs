//! The `SessionStore` trait and the stored form of a session.

use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};

use super::cookie::SessionCookie;
use crate::error::Error;
use crate::handler::BoxFuture;

/// A session as a store keeps it: its cookie and its data, written as
/// express-session writes it (`{"cookie":{…},…data}`), so stores can be
/// shared with Express apps.
///
/// ```
/// use webfw::session::SessionRecord;
/// let rec = SessionRecord::from_json(r#"{"cookie":{"originalMaxAge":null,"expires":null,"httpOnly":true,"path":"/"},"user":"tobi"}"#).unwrap();
/// assert_eq!(rec.data()["user"], "tobi");
/// assert!(rec.to_json().starts_with(r#"{"cookie":{"originalMaxAge":null"#));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SessionRecord {
    pub(crate) cookie: SessionCookie,
    pub(crate) data: Map<String, Value>,
}

impl SessionRecord {
    /// Reads a stored session; `None` when `json` is not a JSON object.
    ///
    /// ```
    /// assert!(webfw::session::SessionRecord::from_json("[1]").is_none());
    /// ```
    pub fn from_json(json: &str) -> Option<SessionRecord> {
        match serde_json::from_str::<Value>(json).ok()? {
            Value::Object(mut data) => {
                let cookie = data.shift_remove("cookie").unwrap_or(Value::Null);
                Some(SessionRecord {
                    cookie: SessionCookie::from_json(&cookie),
                    data,
                })
            }
            _ => None,
        }
    }

    /// The stored form: `JSON.stringify(req.session)`.
    ///
    /// ```
    /// let rec = webfw::session::SessionRecord::from_json(r#"{"cookie":{},"n":1}"#).unwrap();
    /// assert_eq!(rec.to_json(), r#"{"cookie":{"originalMaxAge":null,"expires":null,"httpOnly":true,"path":"/"},"n":1}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut m = Map::with_capacity(self.data.len() + 1);
        m.insert("cookie".into(), self.cookie.to_json());
        for (k, v) in &self.data {
            if k != "cookie" {
                m.insert(k.clone(), v.clone());
            }
        }
        Value::Object(m).to_string()
    }

    /// The session's cookie.
    ///
    /// ```
    /// let rec = webfw::session::SessionRecord::from_json(r#"{"cookie":{}}"#).unwrap();
    /// assert_eq!(rec.cookie().expires(), None);
    /// ```
    pub fn cookie(&self) -> &SessionCookie {
        &self.cookie
    }

    /// The session's data (everything but the cookie).
    ///
    /// ```
    /// let rec = webfw::session::SessionRecord::from_json(r#"{"cookie":{},"a":true}"#).unwrap();
    /// assert_eq!(rec.data().len(), 1);
    /// ```
    pub fn data(&self) -> &Map<String, Value> {
        &self.data
    }

    /// When the session expires: the cookie's expiry.
    ///
    /// ```
    /// let rec = webfw::session::SessionRecord::from_json(r#"{"cookie":{"expires":"2000-01-01T00:00:00.000Z"}}"#).unwrap();
    /// assert!(rec.expires().unwrap() < std::time::SystemTime::now());
    /// ```
    pub fn expires(&self) -> Option<SystemTime> {
        self.cookie.expires()
    }

    /// How long a store keeps it, as connect-redis computes it: whole
    /// seconds up to the cookie's expiry (rounded up; zero or less means
    /// "already gone"), else `default`.
    ///
    /// ```
    /// use std::time::Duration;
    /// let rec = webfw::session::SessionRecord::from_json(r#"{"cookie":{}}"#).unwrap();
    /// assert_eq!(rec.ttl_secs(Duration::from_secs(86400)), 86400);
    /// ```
    pub fn ttl_secs(&self, default: Duration) -> i64 {
        match self.cookie.max_age() {
            Some(ms) => (ms / 1000.0).ceil() as i64,
            None => default.as_secs() as i64,
        }
    }
}

/// Where sessions live between requests (express-session's `Store`). The
/// middleware calls `get` on entry and `set`, `touch` or `destroy` before
/// the response head leaves; an error fails that request with a 500.
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use webfw::BoxFuture;
/// use webfw::session::{SessionRecord, SessionStore};
///
/// #[derive(Default)]
/// struct Plain(Mutex<HashMap<String, String>>);
///
/// impl SessionStore for Plain {
///     fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, webfw::Result<Option<SessionRecord>>> {
///         let found = self.0.lock().unwrap().get(id).and_then(|j| SessionRecord::from_json(j));
///         Box::pin(async move { Ok(found) })
///     }
///     fn set<'a>(&'a self, id: &'a str, s: &'a SessionRecord) -> BoxFuture<'a, webfw::Result<()>> {
///         self.0.lock().unwrap().insert(id.to_owned(), s.to_json());
///         Box::pin(async { Ok(()) })
///     }
///     fn destroy<'a>(&'a self, id: &'a str) -> BoxFuture<'a, webfw::Result<()>> {
///         self.0.lock().unwrap().remove(id);
///         Box::pin(async { Ok(()) })
///     }
/// }
/// let _ = webfw::session(webfw::session::SessionOptions::new("secret").store(Plain::default()));
/// ```
pub trait SessionStore: Send + Sync + 'static {
    /// The session stored under `id`, `None` when there is none (or it expired).
    ///
    /// ```
    /// use webfw::session::{MemoryStore, SessionRecord, SessionStore};
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let store = MemoryStore::new();
    /// let rec = SessionRecord::from_json(r#"{"cookie":{},"n":1}"#).unwrap();
    /// store.set("sid", &rec).await.unwrap();
    /// assert!(store.get("sid").await.unwrap().is_some());
    /// assert!(store.get("other").await.unwrap().is_none());
    /// # });
    /// ```
    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SessionRecord>, Error>>;

    /// Stores `session` under `id`, replacing what was there.
    ///
    /// ```
    /// use webfw::session::{MemoryStore, SessionRecord, SessionStore};
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let store = MemoryStore::new();
    /// let rec = SessionRecord::from_json(r#"{"cookie":{},"n":1}"#).unwrap();
    /// store.set("sid", &rec).await.unwrap();
    /// assert_eq!(store.get("sid").await.unwrap().unwrap().to_json(), rec.to_json());
    /// # });
    /// ```
    fn set<'a>(
        &'a self,
        id: &'a str,
        session: &'a SessionRecord,
    ) -> BoxFuture<'a, Result<(), Error>>;

    /// Removes the session stored under `id`.
    ///
    /// ```
    /// use webfw::session::{MemoryStore, SessionRecord, SessionStore};
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let store = MemoryStore::new();
    /// let rec = SessionRecord::from_json(r#"{"cookie":{},"n":1}"#).unwrap();
    /// store.set("sid", &rec).await.unwrap();
    /// store.destroy("sid").await.unwrap();
    /// assert!(store.get("sid").await.unwrap().is_none());
    /// # });
    /// ```
    fn destroy<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), Error>>;

    /// Extends the life of an unchanged session (its cookie's new expiry is
    /// in `session`). The default stores it again.
    ///
    /// ```
    /// use webfw::session::{MemoryStore, SessionRecord, SessionStore};
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let store = MemoryStore::new();
    /// let rec = SessionRecord::from_json(r#"{"cookie":{},"n":1}"#).unwrap();
    /// store.set("sid", &rec).await.unwrap();
    /// store.touch("sid", &rec).await.unwrap();
    /// assert!(store.get("sid").await.unwrap().is_some());
    /// # });
    /// ```
    fn touch<'a>(
        &'a self,
        id: &'a str,
        session: &'a SessionRecord,
    ) -> BoxFuture<'a, Result<(), Error>> {
        self.set(id, session)
    }
}
