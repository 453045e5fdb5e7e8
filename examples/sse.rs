//! Server-sent events: the streaming loop that respects a slow client and
//! stops when the client leaves.
//!
//! `cargo run --example sse`, then `curl -N http://127.0.0.1:3000/events`.
use std::time::Duration;

use webfw::prelude::*;

#[get("/events")]
async fn events(_req: &mut Request, res: &mut Response) -> Result {
    res.set("Content-Type", "text/event-stream");
    res.set("Cache-Control", "no-cache");
    for n in 0u64.. {
        // Fails once the client has gone: `?` ends the handler.
        res.write(format!("id: {n}\ndata: tick {n}\n\n"))?;
        // A client that reads slowly makes this wait instead of letting
        // unsent events pile up in memory.
        res.drain().await?;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    res.end()
}

fn main() -> std::io::Result<()> {
    let mut app = webfw::app();
    app.mount(routes![events]);
    let opts = webfw::ListenOptions::port(3000).host("127.0.0.1");
    app.listen_with(opts, |addr| println!("events on http://{addr}/events"))
}
