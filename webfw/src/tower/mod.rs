//! tower, both ways: a frozen app is a [`tower_service::Service`]
//! ([`App::into_service`](crate::App::into_service)), and a
//! [`tower_layer::Layer`] is webfw middleware ([`tower()`]).
//!
//! Serving an app from a tower stack (hyper-util, axum's `nest_service`,
//! `tower::ServiceBuilder`) runs each request through the same code as
//! [`App::listen`](crate::App::listen): the chain, the final handler, the
//! `on_finish` hooks. What the server does around it (Node's rejections of
//! malformed heads, its timeouts and limits) is the host's business then.
//!
//! ```
//! use tower_service::Service;
//! use webfw::prelude::*;
//!
//! fn hello(_req: &mut Request, res: &mut Response) -> Result {
//!     res.send("hello")
//! }
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let mut app = webfw::app();
//! app.get("/", hello);
//! let mut service = app.into_service();
//! let request = http::Request::get("/").body(http_body_util::Empty::<bytes::Bytes>::new()).unwrap();
//! let response = service.call(request).await.unwrap();
//! assert_eq!(response.status(), 200);
//! # });
//! ```

mod captured;
mod layer;
mod service;

pub use captured::{Next, NextBody, NextFuture};
pub use layer::tower;
pub use service::{AppService, ResponseFuture};
