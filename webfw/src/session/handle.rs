//! `req.session`: the session object handlers use, and the per-request
//! state express-session keeps beside it (ids, hashes) to decide what to
//! write when the response leaves.

use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::cookie::SessionCookie;
use super::options::SessionOptions;
use super::store::SessionRecord;
use crate::error::Error;

/// The session of the current request: `req.session` in Express. Get it
/// with [`Request::session`](crate::Request::session). Reading and writing
/// values is synchronous; the methods that talk to the store are async.
///
/// ```
/// use webfw::prelude::*;
///
/// async fn login(req: &mut Request, res: &mut Response) -> Result {
///     // A new id on login (against session fixation), then the user.
///     req.session().regenerate().await?;
///     req.session().set("user", "tobi")?;
///     req.session().save().await?;
///     res.redirect("/")
/// }
/// let mut app = webfw::app();
/// app.use_(webfw::session(webfw::session::SessionOptions::new("keyboard cat")));
/// app.post("/login", login);
/// ```
#[derive(Clone)]
pub struct Session {
    pub(crate) shared: Arc<Shared>,
}

pub(crate) struct Shared {
    pub(crate) options: Arc<SessionOptions>,
    pub(crate) state: Mutex<State>,
}

/// What express-session keeps in its middleware's closure for one request.
pub(crate) struct State {
    /// `req.sessionID`.
    pub(crate) id: String,
    /// The id the request's cookie carried (`cookieId`).
    pub(crate) cookie_id: Option<String>,
    /// Whether `req.session` is set (not destroyed or unset).
    pub(crate) present: bool,
    pub(crate) record: SessionRecord,
    pub(crate) original_id: String,
    pub(crate) original_hash: String,
    pub(crate) saved_hash: Option<String>,
    pub(crate) touched: bool,
    /// Whether the request came over HTTPS, as the `proxy` option judges it.
    pub(crate) secure_request: bool,
}

/// What the data hashes to: its JSON (express-session hashes the same
/// text with CRC32).
pub(crate) fn hash(record: &SessionRecord) -> String {
    Value::Object(record.data.clone()).to_string()
}

impl State {
    fn hash(&self) -> String {
        hash(&self.record)
    }

    pub(crate) fn is_modified(&self) -> bool {
        self.original_id != self.id || self.original_hash != self.hash()
    }

    fn is_saved(&self) -> bool {
        self.original_id == self.id && self.saved_hash.as_deref() == Some(&*self.hash())
    }

    fn cookie_is_current(&self) -> bool {
        self.cookie_id.as_deref() == Some(&*self.id)
    }

    pub(crate) fn should_save(&self, opts: &SessionOptions) -> bool {
        if !opts.save_uninitialized && self.saved_hash.is_none() && !self.cookie_is_current() {
            self.is_modified()
        } else {
            !self.is_saved()
        }
    }

    pub(crate) fn should_touch(&self, opts: &SessionOptions) -> bool {
        self.cookie_is_current() && !self.should_save(opts)
    }

    pub(crate) fn should_set_cookie(&self, opts: &SessionOptions) -> bool {
        if self.cookie_is_current() {
            opts.rolling || (self.record.cookie.expires().is_some() && self.is_modified())
        } else {
            opts.save_uninitialized || self.is_modified()
        }
    }

    /// `session.touch()`.
    pub(crate) fn touch(&mut self) {
        self.record.cookie.reset_max_age();
    }

    /// `store.generate(req)`: a new id and an empty session.
    pub(crate) fn generate(&mut self, opts: &SessionOptions) {
        self.id = (opts.genid)();
        self.record = SessionRecord {
            cookie: SessionCookie::new(&opts.cookie, self.secure_request),
            data: Map::new(),
        };
        self.present = true;
    }

    /// The middleware's `generate()`: also the baseline it compares against.
    pub(crate) fn generate_first(&mut self, opts: &SessionOptions) {
        self.generate(opts);
        self.original_id = self.id.clone();
        self.original_hash = self.hash();
    }

    /// The middleware's `inflate()`: a stored session becomes `req.session`.
    pub(crate) fn inflate(&mut self, record: SessionRecord, opts: &SessionOptions) {
        self.record = record;
        self.present = true;
        self.original_id = self.id.clone();
        self.original_hash = self.hash();
        if !opts.resave {
            self.saved_hash = Some(self.original_hash.clone());
        }
    }
}

fn destroyed() -> Error {
    Error::new("req.session was destroyed or unset; call regenerate() to start a new session")
}

impl Session {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Every change is a plain assignment; a panic cannot leave it half done.
        self.shared.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `req.sessionID`.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn show(req: &mut Request, res: &mut Response) -> Result {
    ///     let id = req.session().id();
    ///     res.send(id)
    /// }
    /// ```
    pub fn id(&self) -> String {
        self.lock().id.clone()
    }

    /// Whether `req.session` is there: `false` after [`Session::destroy`]
    /// or [`Session::unset`], until [`Session::regenerate`].
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// async fn logout(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().destroy().await?;
    ///     assert!(!req.session().exists());
    ///     res.send("bye")
    /// }
    /// ```
    pub fn exists(&self) -> bool {
        self.lock().present
    }

    /// `req.session[key]`, deserialized; `None` when missing or of another type.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn who(req: &mut Request, res: &mut Response) -> Result {
    ///     let user: Option<String> = req.session().get("user");
    ///     res.send(user.unwrap_or_else(|| "nobody".into()))
    /// }
    /// ```
    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        let st = self.lock();
        if !st.present {
            return None;
        }
        T::deserialize(st.record.data.get(key)?).ok()
    }

    /// `req.session[key] = value`. `cookie` is the session's own field:
    /// setting it is an error, as is setting a value on a destroyed session.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn remember(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().set("cart", vec![1, 2, 3])?;
    ///     res.send("ok")
    /// }
    /// ```
    pub fn set<T: Serialize>(&self, key: &str, value: T) -> Result<(), Error> {
        if key == "cookie" {
            return Err(Error::new(
                "`cookie` is the session's cookie; change it with set_max_age()",
            ));
        }
        let value = serde_json::to_value(value)
            .map_err(|e| Error::new(format!("session value `{key}`: {e}")))?;
        let mut st = self.lock();
        if !st.present {
            return Err(destroyed());
        }
        st.record.data.insert(key.to_owned(), value);
        Ok(())
    }

    /// `delete req.session[key]`: the value that was there.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn forget(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().remove("cart");
    ///     res.send("ok")
    /// }
    /// ```
    pub fn remove(&self, key: &str) -> Option<Value> {
        self.lock().record.data.shift_remove(key)
    }

    /// A copy of the session's data as JSON (everything but the cookie).
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn dump(req: &mut Request, res: &mut Response) -> Result {
    ///     res.json(&serde_json::Value::Object(req.session().data()))
    /// }
    /// ```
    pub fn data(&self) -> Map<String, Value> {
        self.lock().record.data.clone()
    }

    /// The session's data as a mutable JSON map. The guard holds a lock:
    /// drop it before awaiting (the compiler says so if you do not).
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn bump(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().data_mut().insert("seen".into(), true.into());
    ///     res.send("ok")
    /// }
    /// ```
    pub fn data_mut(&self) -> DataMut<'_> {
        DataMut(self.lock())
    }

    /// `req.session.cookie`: a copy.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn left(req: &mut Request, res: &mut Response) -> Result {
    ///     let ms = req.session().cookie().max_age();
    ///     res.send(format!("{ms:?}"))
    /// }
    /// ```
    pub fn cookie(&self) -> SessionCookie {
        self.lock().record.cookie.clone()
    }

    /// `req.session.cookie.maxAge = …`: the cookie (and the stored
    /// session) then expires that long from now ("remember me").
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn remember_me(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().set_max_age(Some(std::time::Duration::from_secs(30 * 86400)));
    ///     res.send("ok")
    /// }
    /// ```
    pub fn set_max_age(&self, max_age: Option<Duration>) {
        self.lock().record.cookie.set_max_age(max_age);
    }

    /// `req.session.touch()`: resets the cookie's expiry to its full
    /// lifetime (the middleware does it once per request anyway).
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn ping(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().touch();
    ///     res.send("ok")
    /// }
    /// ```
    pub fn touch(&self) {
        self.lock().touch();
    }

    /// `req.session = null`: no cookie is sent and, with
    /// [`Unset::Destroy`](super::Unset::Destroy), the stored session is
    /// destroyed when the response leaves.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn drop_it(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().unset();
    ///     res.send("ok")
    /// }
    /// ```
    pub fn unset(&self) {
        self.lock().present = false;
    }

    /// `req.session.regenerate()`: destroys the stored session and starts a
    /// new one with a new id (do it on login). The new session exists even
    /// when destroying the old one failed; the error is returned.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// async fn login(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().regenerate().await?;
    ///     res.send("new session")
    /// }
    /// ```
    pub async fn regenerate(&self) -> Result<(), Error> {
        let old = self.id();
        let destroyed = self.shared.options.store.destroy(&old).await;
        self.lock().generate(&self.shared.options);
        destroyed
    }

    /// `req.session.destroy()`: removes the stored session and unsets
    /// `req.session` (no cookie is sent).
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// async fn logout(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().destroy().await?;
    ///     res.send("bye")
    /// }
    /// ```
    pub async fn destroy(&self) -> Result<(), Error> {
        let id = {
            let mut st = self.lock();
            st.present = false;
            st.id.clone()
        };
        self.shared.options.store.destroy(&id).await
    }

    /// `req.session.reload()`: reads the stored session again, dropping
    /// unsaved changes. An error when the store no longer has it.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// async fn fresh(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().reload().await?;
    ///     res.send("reloaded")
    /// }
    /// ```
    pub async fn reload(&self) -> Result<(), Error> {
        let id = self.id();
        match self.shared.options.store.get(&id).await? {
            Some(record) => {
                let mut st = self.lock();
                st.record = record;
                st.present = true;
                Ok(())
            }
            None => Err(Error::new("failed to load session")),
        }
    }

    /// `req.session.save()`: writes the session to the store now (before
    /// a redirect, say). The middleware saves a changed session anyway when
    /// the response leaves, and skips that if nothing changed since.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// async fn then_go(req: &mut Request, res: &mut Response) -> Result {
    ///     req.session().set("step", 2)?;
    ///     req.session().save().await?;
    ///     res.redirect("/next")
    /// }
    /// ```
    pub async fn save(&self) -> Result<(), Error> {
        let (id, record) = {
            let mut st = self.lock();
            st.saved_hash = Some(st.hash());
            (st.id.clone(), st.record.clone())
        };
        self.shared.options.store.set(&id, &record).await
    }
}

/// The session's data, locked for changes ([`Session::data_mut`]).
///
/// ```
/// # use webfw::prelude::*;
/// fn reset(req: &mut Request, res: &mut Response) -> Result {
///     let mut data = req.session().data_mut();
///     data.clear();
///     data.insert("theme".into(), "dark".into());
///     drop(data);
///     res.send("ok")
/// }
/// ```
pub struct DataMut<'a>(MutexGuard<'a, State>);

impl Deref for DataMut<'_> {
    type Target = Map<String, Value>;
    fn deref(&self) -> &Map<String, Value> {
        &self.0.record.data
    }
}

impl DerefMut for DataMut<'_> {
    fn deref_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.0.record.data
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The id is a credential: left out.
        f.debug_struct("Session").finish_non_exhaustive()
    }
}
