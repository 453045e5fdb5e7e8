//! `req.param(name, defaultValue)` (deprecated in Express 4, kept for ports).

use serde_json::Value;

use super::Request;
use crate::body::Body;

impl Request {
    /// `req.param(name, defaultValue)`: the route parameter `name`, else the
    /// body's member `name`, else the query's, else `default` (`null` and
    /// absent values are skipped). Deprecated in Express: prefer
    /// [`Request::param`], [`Request::body`] or [`Request::query`], which say
    /// where the value came from.
    ///
    /// ```
    /// use serde_json::json;
    /// let req = webfw::testing::request(http::Method::GET, "/?page=2");
    /// assert_eq!(req.param_or("page", "1"), json!("2"));
    /// assert_eq!(req.param_or("size", 20), json!(20));
    /// ```
    #[track_caller]
    pub fn param_or(&self, name: &str, default: impl Into<Value>) -> Value {
        crate::deprecate::deprecate(|| {
            "req.param(name, default): Use req.params, req.body, or req.query instead".to_owned()
        });
        if let Some(v) = self.param(name) {
            return Value::String(v.to_owned());
        }
        let from_body = match self.body() {
            Body::Value(v) => member(v, name),
            _ => None,
        };
        from_body
            .or_else(|| member(self.query(), name))
            .cloned()
            .unwrap_or_else(|| default.into())
    }
}

/// `obj[name]` unless null or undefined.
fn member<'v>(v: &'v Value, name: &str) -> Option<&'v Value> {
    let found = match v {
        Value::Object(map) => map.get(name),
        Value::Array(items) => name.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    };
    found.filter(|v| !v.is_null())
}
