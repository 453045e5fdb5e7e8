//! The session object (`req.session` of cookie-session): its data, its
//! flags, and the cookie body it round-trips through (base64 of its JSON).

use std::sync::{Arc, Mutex, MutexGuard};

use base64::Engine;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::cookies::{self, Cookie, Read};
use super::options::CookieSessionOptions;
use crate::error::Error;
use crate::http::qs::array_index;

/// Names the session object has already (its flags, its context, and what
/// every JavaScript object inherits), which a cookie's body cannot set.
const RESERVED: &[&str] = &[
    "_ctx",
    "isChanged",
    "isNew",
    "isPopulated",
    "__proto__",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

/// What `req.session` holds.
pub(crate) enum Sess {
    /// Never read in this request: nothing is written.
    Unread,
    /// `req.session = null`: both cookies are expired.
    Null,
    /// A session: read from the cookie (`val` is the cookie's body) or new.
    Live {
        data: Map<String, Value>,
        is_new: bool,
        val: Option<String>,
    },
}

/// One request's cookie-session state, shared by the handle on the request
/// and the hook that writes the cookies.
pub(crate) struct State {
    pub(crate) options: Arc<CookieSessionOptions>,
    /// `req.sessionOptions` once the app changed it.
    pub(crate) per_request: Option<CookieSessionOptions>,
    pub(crate) sess: Sess,
    /// `req.protocol === 'https'` or a TLS connection.
    pub(crate) secure_request: bool,
    /// The request's `Cookie` header, kept for the first read.
    pub(crate) cookie_header: String,
    /// Signature cookies the read rewrote (a rotated key's, a forged one).
    pub(crate) pending: Vec<String>,
}

impl State {
    pub(crate) fn options(&self) -> &CookieSessionOptions {
        self.per_request.as_ref().unwrap_or(&self.options)
    }

    /// The getter of `req.session`: reads the cookie the first time.
    fn load(&mut self) {
        if !matches!(self.sess, Sess::Unread) {
            return;
        }
        let opts = self.options();
        let name = opts.name.clone();
        let found = if opts.signed {
            match cookies::get_signed(&self.cookie_header, &name, &opts.keys) {
                Read::Signed(value, 0) => Some(value),
                Read::Signed(value, _) => {
                    // Signed with an older key: the signature is renewed.
                    let sig = crate::http::keygrip::sign(&format!("{name}={value}"), &opts.keys[0]);
                    let line =
                        Cookie::plain(self.secure_request).header(&format!("{name}.sig"), &sig);
                    self.pending.extend(line);
                    Some(value)
                }
                Read::Forged => {
                    let mut expired = Cookie::plain(self.secure_request);
                    expired.expires_ms = Some(0.0);
                    self.pending
                        .extend(expired.header(&format!("{name}.sig"), ""));
                    None
                }
                Read::Missing => None,
            }
        } else {
            cookies::find(&self.cookie_header, &name).map(str::to_owned)
        };
        self.sess = match found
            .filter(|v| !v.is_empty())
            .and_then(|v| decode(&v).map(|d| (d, v)))
        {
            Some((data, val)) => Sess::Live {
                data,
                is_new: false,
                val: Some(val),
            },
            None => Sess::Live {
                data: Map::new(),
                is_new: true,
                val: None,
            },
        };
    }
}

/// `req.session` for cookie-session, from
/// [`req.cookie_session()`](crate::Request::cookie_session). The data is
/// JSON, kept in the cookie itself (base64 of its JSON text, signed in
/// `<name>.sig`), so it stays small: browsers drop cookies past 4 KB.
///
/// ```
/// use webfw::prelude::*;
/// fn count(req: &mut Request, res: &mut Response) -> Result {
///     let s = req.cookie_session();
///     let n = s.get::<u64>("n").unwrap_or(0) + 1;
///     s.set("n", n)?;
///     res.json(&serde_json::json!({ "n": n, "isNew": s.is_new() }))
/// }
/// ```
#[derive(Clone)]
pub struct CookieSession {
    pub(crate) state: Arc<Mutex<State>>,
}

impl std::fmt::Debug for CookieSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CookieSession")
            .field("value", &self.to_value())
            .finish()
    }
}

impl CookieSession {
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs the getter (reads the cookie once).
    pub(crate) fn load(&self) {
        self.lock().load();
    }

    /// `req.session[key]`, deserialized; `None` when absent, of another
    /// shape, or after [`clear`](Self::clear).
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn h(req: &mut Request, res: &mut Response) -> Result {
    ///     let user: Option<String> = req.cookie_session().get("user");
    ///     res.send(user.unwrap_or_default())
    /// }
    /// ```
    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        self.get_value(key)
            .and_then(|v| serde_json::from_value(v).ok())
    }

    /// `req.session[key]` as JSON.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn h(req: &mut Request, res: &mut Response) -> Result {
    ///     let v = req.cookie_session().get_value("cart");
    ///     res.json(&v)
    /// }
    /// ```
    pub fn get_value(&self, key: &str) -> Option<Value> {
        match &self.lock().sess {
            Sess::Live { data, .. } => data.get(key).cloned(),
            _ => None,
        }
    }

    /// `req.session[key] = value`. An error when the value is not JSON,
    /// when `key` is one of the session's own names (`isNew`,
    /// `isChanged`, `isPopulated`, `_ctx`), or after
    /// [`clear`](Self::clear) (`req.session` is `null` then: use
    /// [`replace`](Self::replace)).
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn login(req: &mut Request, res: &mut Response) -> Result {
    ///     req.cookie_session().set("user", serde_json::json!({"name": "tobi"}))?;
    ///     res.send("ok")
    /// }
    /// ```
    pub fn set(&self, key: &str, value: impl Serialize) -> crate::Result<()> {
        if matches!(key, "_ctx" | "isChanged" | "isNew" | "isPopulated") {
            return Err(Error::new(format!(
                "req.session.{key} belongs to the session object and cannot be set; \
                 store the value under another name"
            ))
            .with_name("TypeError"));
        }
        let value = serde_json::to_value(value)?;
        match &mut self.lock().sess {
            Sess::Live { data, .. } => {
                data.insert(key.to_owned(), value);
                Ok(())
            }
            _ => Err(Error::new(format!(
                "Cannot set properties of null (setting '{key}'): the session was cleared; \
                 start a new one with req.cookie_session().replace(map)"
            ))
            .with_name("TypeError")),
        }
    }

    /// `delete req.session[key]`: the value it held.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn logout(req: &mut Request, res: &mut Response) -> Result {
    ///     req.cookie_session().remove("user");
    ///     res.send("bye")
    /// }
    /// ```
    pub fn remove(&self, key: &str) -> Option<Value> {
        match &mut self.lock().sess {
            Sess::Live { data, .. } => data.shift_remove(key),
            _ => None,
        }
    }

    /// `req.session = null`: the response expires the session's cookies.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn logout(req: &mut Request, res: &mut Response) -> Result {
    ///     req.cookie_session().clear();
    ///     res.send("cleared")
    /// }
    /// ```
    pub fn clear(&self) {
        self.lock().sess = Sess::Null;
    }

    /// `req.session = {...}`: a new session holding `data` (written when
    /// it is not empty).
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn h(req: &mut Request, res: &mut Response) -> Result {
    ///     let mut data = serde_json::Map::new();
    ///     data.insert("user".into(), "tobi".into());
    ///     req.cookie_session().replace(data);
    ///     res.send("ok")
    /// }
    /// ```
    pub fn replace(&self, data: Map<String, Value>) {
        self.lock().sess = Sess::Live {
            data: own_keys(Value::Object(data)),
            is_new: true,
            val: None,
        };
    }

    /// `req.session.isNew`: no valid cookie came with the request (false
    /// after [`clear`](Self::clear)).
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn h(req: &mut Request, res: &mut Response) -> Result {
    ///     res.send(if req.cookie_session().is_new() { "hello" } else { "welcome back" })
    /// }
    /// ```
    pub fn is_new(&self) -> bool {
        matches!(self.lock().sess, Sess::Live { is_new: true, .. })
    }

    /// `req.session.isPopulated`: the session holds something.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn h(req: &mut Request, res: &mut Response) -> Result {
    ///     res.send(req.cookie_session().is_populated().to_string())
    /// }
    /// ```
    pub fn is_populated(&self) -> bool {
        matches!(&self.lock().sess, Sess::Live { data, .. } if !data.is_empty())
    }

    /// `req.session.isChanged`: new, or its cookie body would differ from
    /// the one that came in.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn h(req: &mut Request, res: &mut Response) -> Result {
    ///     res.send(req.cookie_session().is_changed().to_string())
    /// }
    /// ```
    pub fn is_changed(&self) -> bool {
        match &self.lock().sess {
            Sess::Live { data, is_new, val } => *is_new || val.as_deref() != Some(&encode(data)),
            _ => false,
        }
    }

    /// `req.session` as JSON (what `res.json({session: req.session})`
    /// shows): an object, or `null` after [`clear`](Self::clear).
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn h(req: &mut Request, res: &mut Response) -> Result {
    ///     res.json(&req.cookie_session().to_value())
    /// }
    /// ```
    pub fn to_value(&self) -> Value {
        match &self.lock().sess {
            Sess::Live { data, .. } => js_ordered(Value::Object(data.clone())),
            _ => Value::Null,
        }
    }

    /// `req.sessionOptions`: this request's copy of the options, which
    /// decide how the cookie is written (its `maxAge`, say).
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// fn remember(req: &mut Request, res: &mut Response) -> Result {
    ///     req.cookie_session().session_options(|o| {
    ///         o.max_age = Some(std::time::Duration::from_secs(30 * 24 * 3600));
    ///     });
    ///     res.send("remembered")
    /// }
    /// ```
    pub fn session_options<R>(&self, f: impl FnOnce(&mut CookieSessionOptions) -> R) -> R {
        let mut st = self.lock();
        let st = &mut *st;
        let opts = st
            .per_request
            .get_or_insert_with(|| CookieSessionOptions::clone(&st.options));
        f(opts)
    }
}

impl Serialize for CookieSession {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(s)
    }
}

/// `Session.serialize`: base64 (with padding) of `JSON.stringify(session)`.
pub(crate) fn encode(data: &Map<String, Value>) -> String {
    let json = crate::app_ref::json::to_js_string(&js_ordered(Value::Object(data.clone())));
    base64::engine::general_purpose::STANDARD.encode(json)
}

/// `Session.deserialize`: Node's forgiving base64 (either alphabet, other
/// characters skipped, stopping at `=`), UTF-8 with replacement, then
/// `JSON.parse`; `None` when that throws.
pub(crate) fn decode(text: &str) -> Option<Map<String, Value>> {
    let bytes = forgiving_base64(text);
    let json = String::from_utf8_lossy(&bytes);
    let value = crate::body::json_value::from_str(&json).ok()?;
    Some(own_keys(value))
}

/// The keys `for (key in obj) if (!(key in this))` copies into a session:
/// an object's own, an array's or a string's indices; nothing for other
/// values.
fn own_keys(value: Value) -> Map<String, Value> {
    let pairs: Vec<(String, Value)> = match value {
        Value::Object(m) => m.into_iter().collect(),
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v))
            .collect(),
        Value::String(s) => s
            .encode_utf16()
            .enumerate()
            .map(|(i, u)| (i.to_string(), Value::String(String::from_utf16_lossy(&[u]))))
            .collect(),
        _ => Vec::new(),
    };
    pairs
        .into_iter()
        .filter(|(k, _)| !RESERVED.contains(&k.as_str()))
        .collect()
}

/// Objects with their array-index keys first, ascending, as JavaScript
/// enumerates (and `JSON.stringify` writes) them.
fn js_ordered(value: Value) -> Value {
    match value {
        Value::Object(m) => {
            let (mut idx, named): (Vec<_>, Vec<_>) =
                m.into_iter().partition(|(k, _)| array_index(k).is_some());
            crate::http::sort::sort_by_key(&mut idx, |(k, _)| array_index(k));
            Value::Object(
                idx.into_iter()
                    .chain(named)
                    .map(|(k, v)| (k, js_ordered(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(js_ordered).collect()),
        other => other,
    }
}

fn forgiving_base64(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in text.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_round_trip_as_the_package_writes_them() {
        let data = decode("eyJuIjo0fQ==").unwrap();
        assert_eq!(Value::Object(data.clone()), serde_json::json!({"n": 4}));
        assert_eq!(encode(&data), "eyJuIjo0fQ==");
        // Index keys first, numbers as JavaScript prints them.
        let mut m = Map::new();
        m.insert("b".into(), serde_json::json!(1.0));
        m.insert("10".into(), serde_json::json!(true));
        m.insert("2".into(), serde_json::json!(null));
        let text = String::from_utf8(
            base64::engine::general_purpose::STANDARD
                .decode(encode(&m))
                .unwrap(),
        )
        .unwrap();
        assert_eq!(text, r#"{"2":null,"10":true,"b":1}"#);
    }

    #[test]
    fn decoding_forgives_as_node_does() {
        // base64url, a stray character, no padding, text after `=`.
        assert_eq!(forgiving_base64("eyJu$IjoxfQ"), b"{\"n\":1}");
        assert_eq!(forgiving_base64("eyJuIjoxfQ=abc"), b"{\"n\":1}");
        assert_eq!(forgiving_base64("e"), b"");
        assert!(decode("bm90IGpzb24=").is_none());
        // Not an object: a string gives its characters, a number nothing.
        let s = decode(&base64::engine::general_purpose::STANDARD.encode("\"ab\"")).unwrap();
        assert_eq!(Value::Object(s), serde_json::json!({"0": "a", "1": "b"}));
        assert!(decode("NDI=").unwrap().is_empty());
        let r = decode(
            &base64::engine::general_purpose::STANDARD.encode(r#"{"isNew":1,"toString":2,"ok":3}"#),
        )
        .unwrap();
        assert_eq!(Value::Object(r), serde_json::json!({"ok": 3}));
    }
}
