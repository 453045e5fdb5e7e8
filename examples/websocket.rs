//! WebSockets with `tokio-tungstenite`: `/echo` sends every message back,
//! `/chat` sends every message to every connected client.
//!
//! `cargo run --example websocket`, then open `ws://127.0.0.1:3000/echo`
//! (`websocat ws://127.0.0.1:3000/chat` in two terminals, say).
//!
//! The request goes through the app like any other: middleware (a logger, a
//! session) runs first, and the route accepts with `res.upgrade`. Nothing
//! here is WebSocket-specific in webfw: the handshake's one header is
//! computed with tungstenite's `derive_accept_key`.
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use tokio::sync::{Semaphore, broadcast};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use webfw::prelude::*;
use webfw::upgrade::{OnUpgrade, Upgraded};

/// The most WebSocket connections open at once. They count against the
/// server's `max_connections` too, when it has one; this bound is the
/// app's own, below it, so that plain HTTP requests still get through.
const MAX_SOCKETS: usize = 1000;
/// The largest message a client may send.
const MAX_MESSAGE: usize = 64 * 1024;
/// Chat messages a slow client may fall behind by before it misses some.
const BACKLOG: usize = 64;

/// Answers the WebSocket handshake: `101 Switching Protocols` with the
/// `Sec-WebSocket-Accept` the client's key asks for.
fn handshake(req: &mut Request, res: &mut Response) -> webfw::Result<OnUpgrade> {
    if req.get("Sec-WebSocket-Version") != Some("13") {
        return Err(Error::from_status(426)
            .with_header("Upgrade", "websocket")
            .with_header("Sec-WebSocket-Version", "13"));
    }
    let Some(key) = req.get("Sec-WebSocket-Key") else {
        return Err(Error::status_message(400, "Sec-WebSocket-Key is missing"));
    };
    let accept = derive_accept_key(key.as_bytes());
    res.set("Sec-WebSocket-Accept", accept);
    res.upgrade(req, "websocket")
}

async fn websocket(io: Upgraded) -> WebSocketStream<Upgraded> {
    let config = WebSocketConfig {
        max_message_size: Some(MAX_MESSAGE),
        max_frame_size: Some(MAX_MESSAGE),
        ..WebSocketConfig::default()
    };
    WebSocketStream::from_raw_socket(io, Role::Server, Some(config)).await
}

/// The app: `/echo` and `/chat`.
pub fn app() -> App {
    let mut app = webfw::app();
    let sockets = Arc::new(Semaphore::new(MAX_SOCKETS));
    let (chat, _) = broadcast::channel::<String>(BACKLOG);

    let slots = sockets.clone();
    app.get("/echo", move |req: &mut Request, res: &mut Response| {
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            return Err(Error::from_status(503));
        };
        let upgrade = handshake(req, res)?;
        tokio::spawn(async move {
            let _slot = slot;
            let Ok(io) = upgrade.await else { return };
            let mut ws = websocket(io).await;
            // Pings are answered and a close is echoed by tungstenite itself.
            while let Some(Ok(msg)) = ws.next().await {
                if (msg.is_text() || msg.is_binary()) && ws.send(msg).await.is_err() {
                    break;
                }
            }
        });
        Ok(Flow::Done)
    });

    app.get("/chat", move |req: &mut Request, res: &mut Response| {
        let Ok(slot) = sockets.clone().try_acquire_owned() else {
            return Err(Error::from_status(503));
        };
        let upgrade = handshake(req, res)?;
        // Subscribed before the 101 leaves: once the client sees it, it
        // gets every message sent after.
        let mut inbox = chat.subscribe();
        let outbox = chat.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let Ok(io) = upgrade.await else { return };
            let (mut tx, mut rx) = websocket(io).await.split();
            loop {
                tokio::select! {
                    msg = rx.next() => match msg {
                        Some(Ok(Message::Text(text))) => {
                            let _ = outbox.send(text);
                        }
                        Some(Ok(_)) => {}
                        Some(Err(_)) | None => break,
                    },
                    text = inbox.recv() => match text {
                        Ok(text) => {
                            if tx.send(Message::Text(text)).await.is_err() {
                                break;
                            }
                        }
                        // Too slow: the missed messages are gone; go on.
                        Err(broadcast::error::RecvError::Lagged(_)) => {}
                        Err(broadcast::error::RecvError::Closed) => break,
                    },
                }
            }
        });
        Ok(Flow::Done)
    });
    app
}

fn main() -> std::io::Result<()> {
    let opts = webfw::ListenOptions::port(3000).host("127.0.0.1");
    app().listen_with(opts, |addr| {
        println!("ws://{addr}/echo and ws://{addr}/chat");
    })
}
