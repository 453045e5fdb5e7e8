//! Serde values as `res.send` bodies: JSON values by reference, arrays and
//! maps of them, and any `Serialize` type through [`Json`].

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Map, Value};

use super::SendBody;

/// Any `Serialize` value as a JSON body for `res.send` (`res.send(Json(&todo))`
/// is `res.json(&todo)`). A value that serialises to a string or null is
/// sent as `res.send` sends those.
///
/// ```
/// use webfw::Json;
/// #[derive(serde::Serialize)]
/// struct Todo { id: u32, title: String }
/// let req = webfw::testing::request(http::Method::GET, "/");
/// let mut res = webfw::testing::response(&req);
/// res.send(Json(&Todo { id: 1, title: "milk".into() })).unwrap();
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Json<T>(pub T);

impl<T: Serialize> From<Json<T>> for SendBody<'_> {
    fn from(Json(v): Json<T>) -> Self {
        match serde_json::to_value(v) {
            Ok(v) => SendBody::from(v),
            Err(e) => SendBody::Text(Cow::Owned(e.to_string())),
        }
    }
}

impl From<&Value> for SendBody<'_> {
    fn from(v: &Value) -> Self {
        SendBody::from(v.clone())
    }
}

impl From<Vec<Value>> for SendBody<'_> {
    fn from(v: Vec<Value>) -> Self {
        SendBody::Json(Value::Array(v))
    }
}

impl From<&[Value]> for SendBody<'_> {
    fn from(v: &[Value]) -> Self {
        SendBody::Json(Value::Array(v.to_vec()))
    }
}

impl From<&Vec<Value>> for SendBody<'_> {
    fn from(v: &Vec<Value>) -> Self {
        SendBody::Json(Value::Array(v.clone()))
    }
}

impl From<Map<String, Value>> for SendBody<'_> {
    fn from(m: Map<String, Value>) -> Self {
        SendBody::Json(Value::Object(m))
    }
}

impl From<&Map<String, Value>> for SendBody<'_> {
    fn from(m: &Map<String, Value>) -> Self {
        SendBody::Json(Value::Object(m.clone()))
    }
}
