// An async closure that captures a value is not `Fn`, and Rust cannot yet
// require its future to be `Send`: rustc's own error. What compiles
// instead: `webfw::async_handler!(async move |req, res| ...)`, or the
// value in the app's state and `webfw::with_state_async`.
use std::sync::Arc;

use webfw::prelude::*;

fn main() {
    let name = Arc::new(String::from("main"));
    let mut app = webfw::app();
    app.get("/", async move |_req: &mut Request, res: &mut Response| {
        tokio::task::yield_now().await;
        res.send(name.to_string())
    });
}
