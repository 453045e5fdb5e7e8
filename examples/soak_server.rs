//! The server the soak suite (`soak/run`, `examples/soak.rs`) attacks: a
//! hello route, a body reader, a slow route, a 1 MiB body, a naive
//! streaming route that writes 64 KiB every 10 ms without waiting for the
//! client, and a worse one that writes 64 KiB chunks in a loop until a
//! write fails. It speaks HTTP/2 as well (by prior knowledge).
//!
//! `soak_server PORT` serves on 127.0.0.1 until SIGTERM, then prints how
//! many requests its handlers started and answered.
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use webfw::prelude::*;

static STARTED: AtomicU64 = AtomicU64::new(0);
static ANSWERED: AtomicU64 = AtomicU64::new(0);

#[get("/")]
async fn hello(_req: &mut Request, res: &mut Response) -> Result {
    res.send("hello")
}

#[post("/upload")]
async fn upload(req: &mut Request, res: &mut Response) -> Result {
    let body = webfw::body::read_limited(req, 1 << 20).await?;
    res.send(format!("{} bytes", body.len()))
}

#[get("/slow")]
async fn slow(_req: &mut Request, res: &mut Response) -> Result {
    STARTED.fetch_add(1, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let sent = res.send("slow");
    ANSWERED.fetch_add(1, Ordering::SeqCst);
    sent
}

#[get("/big")]
async fn big(_req: &mut Request, res: &mut Response) -> Result {
    res.send(vec![b'x'; 1024 * 1024])
}

#[get("/stream")]
async fn stream(_req: &mut Request, res: &mut Response) -> Result {
    loop {
        // A fresh buffer each time, as a handler that renders its chunks
        // makes: queued chunks then each hold their own memory.
        res.write(vec![b'x'; 64 * 1024])?;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[get("/flood")]
async fn flood(_req: &mut Request, res: &mut Response) -> Result {
    while res.write(vec![b'x'; 64 * 1024]).is_ok() {}
    res.end()
}

fn main() -> std::io::Result<()> {
    let port: u16 = std::env::args()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(4190);
    let mut app = webfw::app();
    app.mount(routes![hello, upload, slow, big, stream, flood]);
    // Short deadlines keep the suite bounded in time.
    let opts = webfw::ListenOptions::port(port)
        .host("127.0.0.1")
        .header_read_timeout(Duration::from_secs(3))
        .request_timeout(Duration::from_secs(3))
        .shutdown_timeout(Some(Duration::from_secs(5)));
    app.listen_with(opts, |addr| println!("ready {addr}"))?;
    println!(
        "slow started {} answered {}",
        STARTED.load(Ordering::SeqCst),
        ANSWERED.load(Ordering::SeqCst)
    );
    Ok(())
}
