//! `req.is(types)` and type-is's `hasBody`.

use crate::http::type_is;
use crate::request::Request;

impl Request {
    /// `req.is(types)`: the first of `types` the request's `Content-Type`
    /// matches (an extension such as `json`, a MIME type, `text/*`, `+json`,
    /// `urlencoded`, `multipart`), as type-is returns it: the type as given,
    /// or the request's media type when the type was a wildcard or a suffix.
    /// With no types, the request's media type. `None` when nothing matches,
    /// the `Content-Type` is missing or malformed, or the request has no body
    /// (Express returns `null` then; tell the cases apart with
    /// [`Request::has_body`]).
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::POST, "/");
    /// req.headers_mut().insert("content-type", "application/json; charset=utf-8".parse().unwrap());
    /// req.headers_mut().insert("content-length", "2".parse().unwrap());
    /// assert_eq!(req.is(&["html", "json"]).as_deref(), Some("json"));
    /// assert_eq!(req.is(&["application/*"]).as_deref(), Some("application/json"));
    /// assert_eq!(req.is(&["text/*"]), None);
    /// ```
    pub fn is<S: AsRef<str>>(&self, types: &[S]) -> Option<String> {
        if !self.has_body() {
            return None;
        }
        let ct = self
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok());
        if self.app.dialect().is_express5() {
            // type-is 2 reads the type past broken parameters.
            return type_is::type_is_lenient(ct, types);
        }
        type_is::type_is(ct, types)
    }

    /// type-is `hasBody(req)`: the request says it has a body (a
    /// `Transfer-Encoding` header, or a numeric `Content-Length`, even `0`).
    /// Body parsers skip requests without one.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::POST, "/");
    /// assert!(!req.has_body());
    /// req.headers_mut().insert("content-length", "0".parse().unwrap());
    /// assert!(req.has_body());
    /// ```
    pub fn has_body(&self) -> bool {
        let h = self.headers();
        let te = h
            .get(http::header::TRANSFER_ENCODING)
            .map(|v| v.to_str().unwrap_or(""));
        let cl = h
            .get(http::header::CONTENT_LENGTH)
            .map(|v| v.to_str().unwrap_or("x"));
        type_is::has_body(te, cl)
    }
}
