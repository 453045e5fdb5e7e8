//! Server-sent events: the streaming loop that respects a slow client and
//! stops when the client leaves. `/stats` counts the streams still open.
//!
//! `cargo run --example sse`, then `curl -N http://127.0.0.1:3000/events`;
//! stop curl and `curl http://127.0.0.1:3000/stats` says `{"open":0}`.
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use webfw::prelude::*;
use webfw::{Handler, HandlerFuture};

/// The event stream: one event per `tick`.
struct Events {
    tick: Duration,
    open: Arc<AtomicUsize>,
}

/// Counts a stream as open until its handler ends, however it ends.
struct Open(Arc<AtomicUsize>);

impl Open {
    fn new(count: &Arc<AtomicUsize>) -> Open {
        count.fetch_add(1, Ordering::SeqCst);
        Open(count.clone())
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Handler for Events {
    fn call<'a>(&'a self, _req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        HandlerFuture::boxed(Box::pin(async move {
            let _open = Open::new(&self.open);
            res.set("Content-Type", "text/event-stream");
            res.set("Cache-Control", "no-cache");
            for n in 0u64.. {
                // Fails once the client has gone: `?` ends the handler.
                res.write(format!("id: {n}\ndata: tick {n}\n\n"))?;
                // A client that reads slowly makes this wait instead of
                // letting unsent events pile up in memory.
                res.drain().await?;
                tokio::time::sleep(self.tick).await;
            }
            res.end()
        }))
    }
}

/// The app: `/events` sends an event every `tick`.
pub fn app(tick: Duration) -> App {
    let open = Arc::new(AtomicUsize::new(0));
    let mut app = webfw::app();
    app.get(
        "/events",
        webfw::handler(Events {
            tick,
            open: open.clone(),
        }),
    );
    app.get("/stats", move |_: &mut Request, res: &mut Response| {
        res.json(&serde_json::json!({ "open": open.load(Ordering::SeqCst) }))
    });
    app
}

fn main() -> std::io::Result<()> {
    let opts = webfw::ListenOptions::port(3000).host("127.0.0.1");
    app(Duration::from_secs(1)).listen_with(opts, |addr| println!("events on http://{addr}/events"))
}
