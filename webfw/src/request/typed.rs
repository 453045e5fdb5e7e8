//! `req.body_as`, `req.query_as`, `req.params_as`: the request read into
//! your own types through serde.

use serde::de::DeserializeOwned;

use crate::body::Body;
use crate::error::Error;
use crate::request::Request;
use crate::typed;

impl Request {
    /// `req.body` as a `T`. A JSON body is read with JSON's types (a string
    /// is not a number); a form body (`urlencoded`) holds strings, which
    /// are converted as [`Request::query_as`] does; a text body reads as a
    /// string. Fails with a 400 error naming the field and what was
    /// expected, or saying that no parser read a body.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use webfw::prelude::*;
    ///
    /// #[derive(Deserialize)]
    /// struct NewTodo { title: String, done: Option<bool> }
    ///
    /// fn create(req: &mut Request, res: &mut Response) -> Result {
    ///     let todo: NewTodo = req.body_as()?;
    ///     res.status(201).json(&serde_json::json!({ "title": todo.title }))
    /// }
    /// let mut app = webfw::app();
    /// app.post("/todos", (webfw::json(Default::default()), create));
    /// ```
    pub fn body_as<T: DeserializeOwned>(&self) -> Result<T, Error> {
        const WHAT: &str = "request body";
        match self.body() {
            Body::Value(v) if self.extensions().get::<crate::body::FormBody>().is_some() => {
                typed::from_strings(v, WHAT)
            }
            Body::Value(v) => typed::from_json(v, WHAT),
            Body::Text(t) => typed::from_json(&serde_json::Value::String(t.clone()), WHAT),
            Body::Bytes(_) => Err(Error::status_message(
                400,
                "invalid request body: raw bytes cannot be read as a typed value",
            )),
            Body::Undefined => Err(Error::status_message(
                400,
                "invalid request body: no body parser ran (add webfw::json(…) before this handler)",
            )),
        }
    }

    /// `req.query` as a `T`. Query values are strings; numbers, booleans
    /// (`true`/`false`), options (an empty or missing value is `None`),
    /// sequences (`?tag=a&tag=b`, or one value) and unit enum variants are
    /// converted from them, as with `serde_qs` or axum's `Query`. Fails with
    /// a 400 error naming the field.
    ///
    /// ```
    /// use serde::Deserialize;
    /// #[derive(Deserialize)]
    /// struct Paging { #[serde(default)] page: u32, per_page: Option<u32> }
    ///
    /// let req = webfw::testing::request(http::Method::GET, "/todos?page=2");
    /// let p: Paging = req.query_as().unwrap();
    /// assert_eq!((p.page, p.per_page), (2, None));
    /// let req = webfw::testing::request(http::Method::GET, "/todos?page=two");
    /// let err = req.query_as::<Paging>().err().unwrap();
    /// assert_eq!(err.status(), 400);
    /// assert!(err.message().contains("page"));
    /// ```
    pub fn query_as<T: DeserializeOwned>(&self) -> Result<T, Error> {
        typed::from_strings(self.query(), "query string")
    }

    /// `req.params` as a `T`: a struct with a field per parameter, a tuple
    /// in order, or, for a route with one parameter, that parameter alone
    /// (`u64`, `String`, an enum). Strings are converted as in
    /// [`Request::query_as`]; fails with a 400 error naming the parameter.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/todos/7");
    /// req.params_mut().set("id", "7");
    /// let id: u64 = req.params_as().unwrap();
    /// assert_eq!(id, 7);
    /// ```
    pub fn params_as<T: DeserializeOwned>(&self) -> Result<T, Error> {
        typed::from_strings(&self.params().to_json(), "route parameters")
    }
}
