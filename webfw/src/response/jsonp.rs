//! `res.jsonp(body)`: JSON, or a call of the callback the query names.

use serde::Serialize;
use serde_json::Value;

use super::Response;
use crate::error::Error;
use crate::outcome::Result;
use crate::request::Request;

/// The callback name as Express keeps it: `[`, `]`, `$`, `.`, letters,
/// digits and `_` (anything else could break out of the call).
fn sanitize_callback(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '[' | ']'))
        .collect()
}

impl Response {
    /// `res.jsonp(body)`: like [`Response::json`] (with the `json replacer`,
    /// `json spaces` and `json escape` settings), wrapped in a call of the
    /// callback named by the query parameter of the `jsonp callback name`
    /// setting (`callback`; the first value when repeated). With a callback
    /// the body is
    /// `/**/ typeof cb === 'function' && cb(json);` as `text/javascript`,
    /// with `X-Content-Type-Options: nosniff`, the name stripped of anything
    /// but `[]$._`, letters and digits, and U+2028/U+2029 escaped. The
    /// request is passed because the callback comes from its query.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/?callback=show");
    /// let mut res = webfw::testing::response(&req);
    /// // Sends `/**/ typeof show === 'function' && show({"user":"tobi"});`
    /// res.jsonp(&req, &serde_json::json!({ "user": "tobi" })).unwrap();
    /// assert!(res.headers_sent());
    /// ```
    pub fn jsonp<T: Serialize + ?Sized>(&mut self, req: &Request, value: &T) -> Result {
        let body = crate::app_ref::json::stringify(value, self.app.settings())
            .map_err(|e| Error::new(e.to_string()).with_name("TypeError"))?;
        let name = &self.app.settings().jsonp_callback_name;
        let callback = match req.query().get(name.as_str()) {
            Some(Value::Array(items)) => items.first().and_then(Value::as_str),
            Some(v) => v.as_str(),
            None => None,
        }
        .filter(|c| !c.is_empty())
        .map(sanitize_callback);
        if self.get("content-type").is_none() {
            self.set("X-Content-Type-Options", "nosniff");
            self.set("Content-Type", "application/json");
        }
        let Some(callback) = callback else {
            return match body {
                Some(text) => self.send(text),
                None => self.send(()),
            };
        };
        self.set("X-Content-Type-Options", "nosniff");
        self.set("Content-Type", "text/javascript");
        let body = body
            .unwrap_or_default()
            .replace('\u{2028}', "\\u2028")
            .replace('\u{2029}', "\\u2029");
        self.send(format!(
            "/**/ typeof {callback} === 'function' && {callback}({body});"
        ))
    }
}
