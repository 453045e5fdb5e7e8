// Closures that own what they capture become async handlers through
// `webfw::async_handler!`, in both spellings; values from the app's state
// reach a closure that captures nothing through `with_state_async`.
use std::sync::Arc;

use webfw::prelude::*;

struct Pool {
    name: &'static str,
}

impl Pool {
    async fn query(&self) -> String {
        tokio::task::yield_now().await;
        format!("rows from {}", self.name)
    }
}

fn main() {
    let pool = Arc::new(Pool { name: "main" });
    let mut app: App = webfw::app();
    let p = Arc::clone(&pool);
    app.get("/a", webfw::async_handler!(async move |_req, res| {
        let rows = p.query().await;
        res.send(rows)
    }));
    let p = Arc::clone(&pool);
    app.get("/b", webfw::async_handler!(move |req, res| async move {
        let rows = p.query().await;
        res.send(format!("{rows} at {}", req.path()))
    }));
    app.state(Pool { name: "state" });
    app.get("/c", webfw::with_state_async(async |_req, res, pool: &Pool| {
        let rows = pool.query().await;
        res.send(rows)
    }));
    app.freeze_root();
}
