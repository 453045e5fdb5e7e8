// A closure returning an `async move` block cannot lend it its arguments
// (a closure's return type cannot name their lifetimes): rustc's own
// error. What compiles instead: the same closure inside
// `webfw::async_handler!(move |req, res| async move { ... })`.
use std::sync::Arc;

use webfw::prelude::*;

fn main() {
    let name = Arc::new(String::from("main"));
    let mut app = webfw::app();
    app.get("/", move |_req: &mut Request, res: &mut Response| {
        let name = Arc::clone(&name);
        async move { res.send(name.to_string()) }
    });
}
