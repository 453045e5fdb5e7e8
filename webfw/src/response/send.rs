//! `res.send`, `res.json`, `res.sendStatus`, `res.end`, `res.write`,
//! `res.location` and `res.redirect`.

use std::borrow::Cow;

use bytes::Bytes;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE, ETAG, TRANSFER_ENCODING};
use serde::Serialize;
use serde_json::Value;

use super::outbox::HeadBody;
use super::{Known, Response};
use crate::app_ref::settings::EtagMode;
use crate::error::Error;
use crate::outcome::{Flow, Result};

/// What `res.send` accepts: text, bytes, or a JSON value. Borrowed text and
/// bytes are copied only when the response needs them; a small body sent
/// again and again shares one copy.
///
/// ```
/// use webfw::SendBody;
/// let _: SendBody = "text".into();
/// let _: SendBody = vec![0u8, 1].into();
/// let _: SendBody = serde_json::json!({"a": 1}).into();
/// ```
pub enum SendBody<'a> {
    /// A string: `text/html` unless a type was set; charset forced to utf-8.
    Text(Cow<'a, str>),
    /// Bytes: `application/octet-stream` unless a type was set.
    Bytes(Bytes),
    /// Borrowed bytes, sent as [`SendBody::Bytes`].
    Slice(&'a [u8]),
    /// A JSON value other than a string or null: sent with `res.json`.
    Json(Value),
    /// `res.send(null)`: an empty body without a default type.
    Null,
    /// `res.send()`: no body, no type, no ETag.
    Nothing,
}

impl<'a> From<&'a str> for SendBody<'a> {
    fn from(s: &'a str) -> Self {
        SendBody::Text(Cow::Borrowed(s))
    }
}
impl From<String> for SendBody<'_> {
    fn from(s: String) -> Self {
        SendBody::Text(Cow::Owned(s))
    }
}
impl<'a> From<&'a String> for SendBody<'a> {
    fn from(s: &'a String) -> Self {
        SendBody::Text(Cow::Borrowed(s))
    }
}
impl From<Vec<u8>> for SendBody<'_> {
    fn from(b: Vec<u8>) -> Self {
        SendBody::Bytes(Bytes::from(b))
    }
}
impl<'a> From<&'a [u8]> for SendBody<'a> {
    fn from(b: &'a [u8]) -> Self {
        SendBody::Slice(b)
    }
}
impl<'a, const N: usize> From<&'a [u8; N]> for SendBody<'a> {
    fn from(b: &'a [u8; N]) -> Self {
        SendBody::Slice(b)
    }
}
impl From<Bytes> for SendBody<'_> {
    fn from(b: Bytes) -> Self {
        SendBody::Bytes(b)
    }
}
impl From<Value> for SendBody<'_> {
    fn from(v: Value) -> Self {
        match v {
            Value::Null => SendBody::Null,
            Value::String(s) => SendBody::Text(Cow::Owned(s)),
            other => SendBody::Json(other),
        }
    }
}
impl From<()> for SendBody<'_> {
    fn from(_: ()) -> Self {
        SendBody::Nothing
    }
}

/// What [`Response::json`] takes: any `Serialize` value, owned
/// (`res.json(todo)`, `res.json(vec![json!(1)])`) or borrowed
/// (`res.json(&todo)`). Implemented for every `Serialize` type; there is
/// nothing to implement by hand.
///
/// ```
/// fn send_it(res: &mut webfw::Response, body: impl webfw::JsonBody) -> webfw::Result {
///     res.json(body)
/// }
/// let req = webfw::testing::request(http::Method::GET, "/");
/// let mut res = webfw::testing::response(&req);
/// send_it(&mut res, [1, 2]).unwrap();
/// ```
pub trait JsonBody: Serialize {
    /// The value to serialise. Takes `&mut self` so that clippy's
    /// `needless_borrows_for_generic_args` does not ask to drop the `&` of
    /// `res.json(&value)` (it leaves traits with such methods alone).
    #[doc(hidden)]
    fn json_body(&mut self) -> &Self;
}

impl<T: Serialize + ?Sized> JsonBody for T {
    fn json_body(&mut self) -> &Self {
        self
    }
}

/// A body on its way out. Borrowed bytes are copied only once `send` knows
/// it sends them, from the memo when they were sent before.
enum Chunk<'a> {
    Owned(Bytes),
    Borrowed(&'a [u8]),
}

impl<'a> From<Cow<'a, str>> for Chunk<'a> {
    fn from(s: Cow<'a, str>) -> Self {
        match s {
            Cow::Borrowed(s) => Chunk::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Chunk::Owned(Bytes::from(s)),
        }
    }
}

impl Chunk<'_> {
    fn as_slice(&self) -> &[u8] {
        match self {
            Chunk::Owned(b) => b,
            Chunk::Borrowed(b) => b,
        }
    }
}

impl Response {
    /// `res.send(body)`: sends a complete response. Strings default to
    /// `text/html; charset=utf-8`, bytes to `application/octet-stream`, JSON
    /// values go through [`Response::json`]. Sets `Content-Length` and the
    /// `etag` setting's ETag, answers 304 when the request is fresh, and strips
    /// the body for HEAD, 204 and 304.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.send("hello").unwrap();
    /// ```
    #[inline]
    pub fn send<'a>(&mut self, body: impl Into<SendBody<'a>>) -> Result {
        if let Some(e) = self.thrown() {
            return Err(e);
        }
        match body.into() {
            SendBody::Text(s) => {
                let ct = match self.content_type {
                    Known::Utf8 => return self.send_bytes(Some(s.into())),
                    Known::Absent => None,
                    Known::Unknown => self.map().get(CONTENT_TYPE),
                };
                match ct {
                    None => {
                        self.put_content_type(
                            http::HeaderValue::from_static("text/html; charset=utf-8"),
                            true,
                        );
                    }
                    Some(ct) if is_canonical_utf8(ct.as_bytes()) => {}
                    Some(ct) => {
                        let ct = std::str::from_utf8(ct.as_bytes()).unwrap_or("");
                        let set = if self.app.dialect().is_express5() {
                            // content-type 2: parameters keep their order.
                            crate::http::content_type::v2::set_charset(ct, "utf-8")
                                .map_err(|e| e.to_string())
                        } else {
                            crate::http::content_type::set_charset(ct, "utf-8")
                                .map_err(|e| e.to_string())
                        };
                        match set {
                            Ok(v) => {
                                if v != ct {
                                    self.insert_value(CONTENT_TYPE, &v);
                                }
                            }
                            Err(e) => {
                                return Err(Error::new(e).with_name("TypeError"));
                            }
                        }
                    }
                }
                self.send_bytes(Some(s.into()))
            }
            SendBody::Slice(b) => self.send_binary(Chunk::Borrowed(b)),
            SendBody::Bytes(b) => self.send_binary(Chunk::Owned(b)),
            SendBody::Json(v) => self.json(v),
            SendBody::Null => self.send_bytes(Some(Chunk::Owned(Bytes::new()))),
            SendBody::Nothing => self.send_bytes(None),
        }
    }

    /// Bytes: `application/octet-stream` unless a type was set.
    fn send_binary(&mut self, body: Chunk<'_>) -> Result {
        if !self.has_content_type() {
            self.put_content_type(
                http::HeaderValue::from_static("application/octet-stream"),
                false,
            );
        }
        self.send_bytes(Some(body))
    }

    /// Sets the ETag the `etag` setting gives `body` (unless one was set)
    /// and returns the body's bytes.
    fn tag(&mut self, body: Chunk<'_>) -> Bytes {
        let wanted = self.no_etag || !self.map().contains_key(ETAG);
        // Matched by reference: cloning the mode costs more than the match.
        let weak = match &self.app.settings().etag {
            _ if !wanted => None,
            EtagMode::Off => None,
            EtagMode::Weak => Some(true),
            EtagMode::Strong => Some(false),
            EtagMode::Custom(f) => {
                if let Some(tag) = f(body.as_slice()) {
                    self.insert_value(ETAG, &tag);
                }
                None
            }
        };
        let (bytes, tag) = match body {
            // One look in the memo gives both.
            Chunk::Borrowed(b) => super::body_memo::shared(b, weak),
            Chunk::Owned(b) => {
                let tag = weak.map(|weak| super::body_memo::entity_tag(&b, weak));
                (b, tag)
            }
        };
        if let Some(tag) = tag {
            self.map_mut().insert(ETAG, tag);
            self.no_etag = false;
        }
        bytes
    }

    /// The common tail of `send`: ETag, Content-Length, freshness, stripping.
    fn send_bytes(&mut self, chunk: Option<Chunk<'_>>) -> Result {
        let mut chunk = chunk.map(|body| self.tag(body));
        if let Some(body) = &chunk {
            // hyper writes the same Content-Length from the body's exact size;
            // the header is stored only where the body is withheld (HEAD) or
            // a hook may read any header. Hooks that declare what they read
            // get the length from `sent_length`.
            if *self.method() == http::Method::HEAD || self.hooks_read_all() {
                self.map_mut()
                    .insert(CONTENT_LENGTH, http::HeaderValue::from(body.len()));
            } else if self.has_finish_hooks() {
                self.sent_length = Some(body.len());
            }
        }
        if self.is_fresh() {
            self.status = 304;
        }
        if self.status == 204 || self.status == 304 {
            self.map_mut().remove(CONTENT_TYPE);
            self.content_type = Known::Absent;
            self.map_mut().remove(CONTENT_LENGTH);
            self.sent_length = None;
            self.map_mut().remove(TRANSFER_ENCODING);
            chunk = Some(Bytes::new());
        } else if self.status == 205 {
            self.map_mut()
                .insert(CONTENT_LENGTH, http::HeaderValue::from_static("0"));
            self.sent_length = None;
            self.map_mut().remove(TRANSFER_ENCODING);
            chunk = Some(Bytes::new());
        }
        if *self.method() == http::Method::HEAD {
            chunk = None;
        }
        let body = match chunk {
            Some(b) if !b.is_empty() => HeadBody::Full(b),
            _ => HeadBody::Empty,
        };
        self.commit(body)?;
        Ok(Flow::Done)
    }

    /// `res.json(value)`: serialises `value` (any `Serialize`: a
    /// `serde_json::Value`, your own types, vectors and maps of them; by
    /// value or by reference, see [`JsonBody`]) with the `json replacer`,
    /// `json spaces` and `json escape` settings and sends it as
    /// `application/json` unless another type was set.
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct Todo { id: u32 }
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.json(serde_json::json!({ "ok": true })).unwrap();
    /// # let mut res = webfw::testing::response(&req);
    /// let todos = vec![Todo { id: 1 }];
    /// res.json(&todos).unwrap();
    /// ```
    pub fn json<B: JsonBody>(&mut self, mut value: B) -> Result {
        if let Some(e) = self.thrown() {
            return Err(e);
        }
        let body = crate::app_ref::json::stringify(value.json_body(), self.app.settings());
        self.send_json(body)
    }

    /// The rest of [`Self::json`] once the value is text: one copy, not one
    /// for each type an app sends.
    fn send_json(
        &mut self,
        body: std::result::Result<Option<String>, serde_json::Error>,
    ) -> Result {
        let body = match body {
            Ok(b) => b,
            Err(e) => return Err(Error::new(e.to_string()).with_name("TypeError")),
        };
        if !self.has_content_type() {
            self.put_content_type(
                http::HeaderValue::from_static("application/json; charset=utf-8"),
                true,
            );
        }
        match body {
            Some(text) => self.send(text),
            None => self.send(SendBody::Nothing),
        }
    }

    /// `res.sendStatus(code)`: the status with its text as a `text/plain` body
    /// (the number itself for unknown codes).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.send_status(404).unwrap();
    /// assert_eq!(res.status_code(), 404);
    /// ```
    pub fn send_status(&mut self, code: u16) -> Result {
        let body =
            crate::http::status::status_text(code).map_or_else(|| code.to_string(), str::to_owned);
        self.status(code);
        if let Some(e) = self.thrown() {
            return Err(e);
        }
        self.type_("txt");
        self.send(body)
    }

    /// `res.end()`: ends the response without a body (Content-Length 0 unless
    /// a body was already being streamed).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.status(204).end().unwrap();
    /// ```
    pub fn end(&mut self) -> Result {
        self.end_with(Bytes::new())
    }

    /// `res.end(data)`: ends the response with a last chunk. No Content-Type or
    /// ETag is added.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.end_with("raw end").unwrap();
    /// ```
    pub fn end_with(&mut self, data: impl Into<Bytes>) -> Result {
        if let Some(e) = self.thrown() {
            return Err(e);
        }
        let data = data.into();
        if self.headers_sent {
            if self.finished {
                return Err(Error::new("write after end"));
            }
            // Ending a response whose client is gone is not an error.
            let _ = self.push_body(data, true);
            self.finished = true;
            return Ok(Flow::Done);
        }
        let body = if *self.method() == http::Method::HEAD {
            HeadBody::Empty
        } else if !data.is_empty() || self.zero_length_set() {
            HeadBody::Full(data)
        } else {
            HeadBody::Empty
        };
        self.commit(body)?;
        Ok(Flow::Done)
    }

    /// Whether a handler set `Content-Length: 0` itself. hyper drops that
    /// header when the body is absent (and writes none for 204 and 304),
    /// where Node sends it as set (cors's 204 preflight answer): an
    /// empty body of known length keeps it.
    fn zero_length_set(&self) -> bool {
        self.headers
            .as_ref()
            .and_then(|h| h.get(CONTENT_LENGTH))
            .is_some_and(|v| v.as_bytes() == b"0")
    }

    /// `res.write(chunk)`: sends the head (chunked, unless a Content-Length was
    /// set) on the first call and streams the chunk.
    ///
    /// Chunks wait in a buffer until the client takes them: a handler that
    /// writes a lot awaits [`Response::drain`] between writes (Node's
    /// `write() === false` and `'drain'`). Once the client has gone
    /// ([`Response::closed`]) writes fail, and so do writes past 16 MiB
    /// waiting, so no handler can buffer without bound.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.write("a").unwrap();
    /// res.end_with("b").unwrap();
    /// ```
    pub fn write(&mut self, chunk: impl Into<Bytes>) -> Result<()> {
        if self.finished {
            return Err(Error::new("write after end"));
        }
        if !self.headers_sent {
            self.commit(HeadBody::Stream)?;
        }
        let chunk = chunk.into();
        if *self.method() != http::Method::HEAD && !chunk.is_empty() {
            return super::backpressure::pushed(self.push_body(chunk, false));
        }
        Ok(())
    }

    /// `res.location(url)`: sets `Location` to the URL-encoded value; `back`
    /// means the request's Referrer (or `/`), with Express's one-time
    /// deprecation warning on standard error.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.location("/a b");
    /// assert_eq!(res.get("location"), Some("/a%20b"));
    ///
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("referer", "/from?q=1".parse().unwrap());
    /// let mut res = webfw::testing::response(&req);
    /// res.location("back");
    /// assert_eq!(res.get("location"), Some("/from?q=1"));
    /// ```
    #[track_caller]
    pub fn location(&mut self, url: &str) -> &mut Self {
        // Express 4 (deprecated there): 'back' is the Referrer, else '/';
        // Express 5 sends it as written.
        let url = if url == "back" && !self.app.dialect().is_express5() {
            crate::deprecate::deprecate(|| {
                "res.location(\"back\"): use res.location(req.get(\"Referrer\") || \"/\") and refer to https://dub.sh/security-redirect for best practices".to_owned()
            });
            self.referrer
                .as_ref()
                .and_then(crate::request::header_str)
                .unwrap_or("/")
        } else {
            url
        };
        let encoded = crate::http::encodeurl::encode_url(url).into_owned();
        self.set("Location", encoded)
    }

    /// `res.redirect(url)`: a 302 redirect with the body Express negotiates
    /// (text by default).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.redirect("/login").unwrap();
    /// assert_eq!(res.status_code(), 302);
    /// ```
    #[track_caller]
    pub fn redirect(&mut self, url: &str) -> Result {
        self.redirect_with(302, url)
    }

    /// `res.redirect(status, url)`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.redirect_with(301, "/moved").unwrap();
    /// ```
    #[track_caller]
    pub fn redirect_with(&mut self, status: u16, url: &str) -> Result {
        self.location(url);
        let address = self.get("location").unwrap_or("").to_owned();
        let text = crate::http::status::status_text(status).unwrap_or("undefined");
        // Express negotiates with res.format({text, html, default}).
        self.vary("Accept");
        let accept = self.accept.as_ref().and_then(crate::request::header_str);
        let body = match crate::http::negotiate::accepts(accept, &["text/plain", "text/html"]) {
            Some(0) => {
                self.set("Content-Type", "text/plain");
                format!("{text}. Redirecting to {address}")
            }
            Some(_) => {
                self.set("Content-Type", "text/html");
                let escaped = crate::http::escape_html::escape_html(&address);
                if self.app.dialect().is_express5() {
                    format!(
                        "<!DOCTYPE html><head><title>{text}</title></head><body><p>{text}. Redirecting to {escaped}</p></body>"
                    )
                } else {
                    format!("<p>{text}. Redirecting to {escaped}</p>")
                }
            }
            None => String::new(),
        };
        self.status(status);
        if let Some(e) = self.thrown() {
            return Err(e);
        }
        self.map_mut()
            .insert(CONTENT_LENGTH, http::HeaderValue::from(body.len()));
        self.end_with(body)
    }
}

impl Response {
    fn has_content_type(&self) -> bool {
        match self.content_type {
            Known::Absent => false,
            Known::Utf8 => true,
            Known::Unknown => self.map().contains_key(CONTENT_TYPE),
        }
    }
}

/// True for `type/subtype; charset=utf-8` already in the form `set_charset`
/// produces (lower-case type, charset the only parameter), which it would
/// return unchanged.
fn is_canonical_utf8(ct: &[u8]) -> bool {
    const SUFFIX: &[u8] = b"; charset=utf-8";
    let Some(base) = ct.strip_suffix(SUFFIX) else {
        return false;
    };
    let mut slash = 0;
    for &b in base {
        match b {
            b'/' => slash += 1,
            b'a'..=b'z' | b'0'..=b'9' | b'+' | b'-' | b'.' | b'_' => {}
            _ => return false,
        }
    }
    slash == 1 && !base.starts_with(b"/") && !base.ends_with(b"/")
}

#[cfg(test)]
mod tests {
    use super::is_canonical_utf8;
    use crate::Response;

    /// A response whose headers stay readable after `send` (a finish hook
    /// keeps them).
    fn response() -> Response {
        let req = crate::testing::request(http::Method::GET, "/");
        let mut res = crate::testing::response(&req);
        res.on_finish(|_, _| {});
        res
    }

    #[test]
    fn content_type_changed_after_type_is_still_checked() {
        let mut res = response();
        res.type_("text");
        res.headers_mut()
            .insert("content-type", "TEXT/Plain".parse().unwrap());
        res.send("x").unwrap();
        assert_eq!(res.get("content-type"), Some("text/plain; charset=utf-8"));

        let mut res = response();
        res.type_("html")
            .set("Content-Type", "text/x-a; charset=latin1");
        res.send("x").unwrap();
        assert_eq!(res.get("content-type"), Some("text/x-a; charset=utf-8"));

        let mut res = response();
        res.type_("html").remove_header("Content-Type");
        res.send(vec![1u8]).unwrap();
        assert_eq!(res.get("content-type"), Some("application/octet-stream"));

        let mut res = response();
        res.type_("png");
        res.send("x").unwrap();
        assert_eq!(res.get("content-type"), Some("image/png; charset=utf-8"));
    }

    #[test]
    fn static_types_with_a_charset_are_canonical() {
        // `set_content_type` trusts the suffix for the MIME table's values.
        for t in crate::http::mime::STATIC_TYPES {
            let v = crate::http::mime::with_utf8_static(t).unwrap();
            let v = v.as_bytes();
            assert_eq!(v.ends_with(b"; charset=utf-8"), is_canonical_utf8(v), "{t}");
        }
    }

    #[test]
    fn type_set_before_json_or_bytes_is_kept() {
        let mut res = response();
        res.type_("text").json(&1).unwrap();
        assert_eq!(res.get("content-type"), Some("text/plain; charset=utf-8"));

        let mut res = response();
        res.headers_mut()
            .insert("content-type", "image/gif".parse().unwrap());
        res.send(vec![1u8]).unwrap();
        assert_eq!(res.get("content-type"), Some("image/gif"));
    }

    #[test]
    fn an_etag_set_any_way_is_kept() {
        let mut res = response();
        res.headers_mut().insert("etag", "\"raw\"".parse().unwrap());
        res.send("x").unwrap();
        assert_eq!(res.get("etag"), Some("\"raw\""));

        let mut res = response();
        res.set("ETag", "\"set\"").send("x").unwrap();
        assert_eq!(res.get("etag"), Some("\"set\""));

        let mut res = response();
        res.append("X-A", "1").send("x").unwrap();
        let tag = crate::http::etag::entity_tag(b"x", true);
        assert_eq!(res.get("etag"), Some(tag.as_str()));
    }

    #[test]
    fn canonical_check_implies_set_charset_is_a_no_op() {
        for ct in [
            "text/html; charset=utf-8",
            "text/plain; charset=utf-8",
            "application/vnd.api+json; charset=utf-8",
            "TEXT/html; charset=utf-8",
            "text/html; charset=UTF-8",
            "text/html; a=b; charset=utf-8",
            "text/html",
        ] {
            let unchanged =
                crate::http::content_type::set_charset(ct, "utf-8").is_ok_and(|v| v == ct);
            // The fast check may miss canonical values, but must never claim one
            // that set_charset would change.
            if is_canonical_utf8(ct.as_bytes()) {
                assert!(unchanged, "{ct}");
            }
        }
    }
}
