//! The in-process client (feature `testing`): [`TestClient`] sends
//! requests through [`App::into_service`], as the server does.
//!
//! ```
//! use webfw::prelude::*;
//! use webfw::testing::TestClient;
//!
//! fn hello(req: &mut Request, res: &mut Response) -> Result {
//!     let name = req.query()["name"].as_str().unwrap_or("world").to_owned();
//!     res.send(format!("hello {name}"))
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let mut app = webfw::app();
//! app.get("/hello", hello);
//! let client = TestClient::new(app);
//! let res = client.get("/hello?name=ann").send().await;
//! assert_eq!(res.status(), 200);
//! assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
//! assert_eq!(res.text(), "hello ann");
//! # });
//! ```

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use http_body_util::{BodyExt, Full};
use tower_service::Service;

use crate::app::App;
use crate::tower::AppService;

/// Sends requests to an app in-process. Cheap to clone; each request
/// runs on the calling task (use it from `#[tokio::test]`).
///
/// ```
/// let client = webfw::testing::TestClient::new(webfw::app());
/// ```
#[derive(Clone, Debug)]
pub struct TestClient {
    service: AppService,
}

impl TestClient {
    /// Freezes `app` and makes a client for it.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// ```
    pub fn new(app: App) -> TestClient {
        TestClient {
            service: app.into_service(),
        }
    }

    /// A request with any method; `target` is the path and query
    /// (`"/users/7?full=1"`).
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.request(http::Method::PATCH, "/users/7");
    /// ```
    pub fn request(&self, method: Method, target: &str) -> TestRequest {
        TestRequest {
            service: self.service.clone(),
            method,
            target: target.to_owned(),
            headers: HeaderMap::new(),
            body: Bytes::new(),
            peer: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0),
        }
    }

    /// A `GET` request.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.get("/");
    /// ```
    pub fn get(&self, target: &str) -> TestRequest {
        self.request(Method::GET, target)
    }

    /// A `HEAD` request.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.head("/");
    /// ```
    pub fn head(&self, target: &str) -> TestRequest {
        self.request(Method::HEAD, target)
    }

    /// A `POST` request.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.post("/items").body("x");
    /// ```
    pub fn post(&self, target: &str) -> TestRequest {
        self.request(Method::POST, target)
    }

    /// A `PUT` request.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.put("/items/1");
    /// ```
    pub fn put(&self, target: &str) -> TestRequest {
        self.request(Method::PUT, target)
    }

    /// A `PATCH` request.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.patch("/items/1");
    /// ```
    pub fn patch(&self, target: &str) -> TestRequest {
        self.request(Method::PATCH, target)
    }

    /// A `DELETE` request.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.delete("/items/1");
    /// ```
    pub fn delete(&self, target: &str) -> TestRequest {
        self.request(Method::DELETE, target)
    }

    /// An `OPTIONS` request.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.options("/items");
    /// ```
    pub fn options(&self, target: &str) -> TestRequest {
        self.request(Method::OPTIONS, target)
    }
}

/// A request being built; [`TestRequest::send`] sends it.
#[derive(Debug)]
pub struct TestRequest {
    service: AppService,
    method: Method,
    target: String,
    headers: HeaderMap,
    body: Bytes,
    peer: SocketAddr,
}

impl TestRequest {
    /// Adds a header (repeated names add values). Panics on a name or value
    /// HTTP does not allow: a test's own mistake.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.get("/").header("accept", "application/json");
    /// ```
    pub fn header(mut self, name: &str, value: &str) -> TestRequest {
        let name = HeaderName::try_from(name)
            .unwrap_or_else(|_| panic!("{name:?} is not a valid header name"));
        let value = HeaderValue::try_from(value)
            .unwrap_or_else(|_| panic!("{value:?} is not a valid header value"));
        self.headers.append(name, value);
        self
    }

    /// The request body, sent with its `Content-Length`.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.post("/").header("content-type", "text/plain").body("hi");
    /// ```
    pub fn body(mut self, body: impl Into<Bytes>) -> TestRequest {
        self.body = body.into();
        self
    }

    /// A JSON body, with `Content-Type: application/json`.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.post("/").json(&serde_json::json!({ "a": 1 }));
    /// ```
    pub fn json(mut self, value: &impl serde::Serialize) -> TestRequest {
        let body = serde_json::to_vec(value).unwrap_or_else(|e| panic!("the JSON body: {e}"));
        self.headers.insert(
            http::header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        self.body(body)
    }

    /// The client's address (`req.ip()`); `127.0.0.1:0` unless set.
    ///
    /// ```
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let req = client.get("/").peer("10.0.0.7:5000".parse().unwrap());
    /// ```
    pub fn peer(mut self, peer: SocketAddr) -> TestRequest {
        self.peer = peer;
        self
    }

    /// Sends the request and reads the whole response.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// assert_eq!(client.get("/nothing").send().await.status(), 404);
    /// # });
    /// ```
    pub async fn send(self) -> TestResponse {
        let mut req = http::Request::new(Full::new(self.body.clone()));
        *req.method_mut() = self.method;
        *req.uri_mut() = self
            .target
            .parse()
            .unwrap_or_else(|e| panic!("{:?} is not a request target: {e}", self.target));
        let mut headers = self.headers;
        if !headers.contains_key(http::header::HOST) {
            headers.insert(http::header::HOST, HeaderValue::from_static("localhost"));
        }
        if !self.body.is_empty() && !headers.contains_key(http::header::CONTENT_LENGTH) {
            headers.insert(
                http::header::CONTENT_LENGTH,
                HeaderValue::from(self.body.len()),
            );
        }
        *req.headers_mut() = headers;
        req.extensions_mut().insert(self.peer);
        let mut service = self.service;
        let response = match service.call(req).await {
            Ok(response) => response,
            Err(never) => match never {},
        };
        let (mut parts, body) = response.into_parts();
        // The length hyper would send for a complete body.
        let status = parts.status.as_u16();
        if let Some(len) = http_body::Body::size_hint(&body).exact()
            && !parts.headers.contains_key(http::header::CONTENT_LENGTH)
            && status >= 200
            && status != 204
            && status != 304
        {
            parts
                .headers
                .insert(http::header::CONTENT_LENGTH, HeaderValue::from(len));
        }
        // Reading the body to its end runs the app's `on_finish` hooks.
        let body = match body.collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(never) => match never {},
        };
        TestResponse {
            status: parts.status,
            headers: parts.headers,
            body,
        }
    }
}

/// A response read to its end: status, headers (with the `Content-Length`
/// the server would add to a complete body) and body.
#[derive(Debug)]
pub struct TestResponse {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl TestResponse {
    /// The status code.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// assert_eq!(client.get("/").send().await.status(), 404);
    /// # });
    /// ```
    pub fn status(&self) -> u16 {
        self.status.as_u16()
    }

    /// A header's value (the first, when repeated), if it is text.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let res = client.get("/").send().await;
    /// assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    /// # });
    /// ```
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// All headers.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let res = client.get("/").send().await;
    /// assert!(res.headers().contains_key("content-length"));
    /// # });
    /// ```
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The body's bytes.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let res = client.head("/").send().await;
    /// assert!(res.bytes().is_empty());
    /// # });
    /// ```
    pub fn bytes(&self) -> &Bytes {
        &self.body
    }

    /// The body as text (invalid UTF-8 replaced).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let client = webfw::testing::TestClient::new(webfw::app());
    /// let res = client.get("/x").send().await;
    /// assert!(res.text().contains("Cannot GET /x"));
    /// # });
    /// ```
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body parsed as JSON. Panics with the body when it is not: a
    /// failing test then shows what came back.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// fn user(_req: &mut Request, res: &mut Response) -> Result {
    ///     res.json(&serde_json::json!({ "id": 7 }))
    /// }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let mut app = webfw::app();
    /// app.get("/user", user);
    /// let client = webfw::testing::TestClient::new(app);
    /// let body: serde_json::Value = client.get("/user").send().await.json();
    /// assert_eq!(body["id"], 7);
    /// # });
    /// ```
    pub fn json<T: serde::de::DeserializeOwned>(&self) -> T {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("the body is not that JSON ({e}): {}", self.text()))
    }
}
