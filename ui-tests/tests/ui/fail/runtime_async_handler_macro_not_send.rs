// Through `async_handler!` the future is checked where its type is known:
// the error names the value held across an `.await`.
use std::sync::Arc;

use webfw::prelude::*;

fn main() {
    let name = Arc::new(String::from("main"));
    let mut app: App = webfw::app();
    app.get("/", webfw::async_handler!(async move |_req, res| {
        let local = std::rc::Rc::new(1);
        tokio::task::yield_now().await;
        res.send(format!("{name} {local}"))
    }));
}
