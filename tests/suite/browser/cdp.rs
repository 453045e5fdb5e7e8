//! A small Chrome DevTools Protocol client: starts a headless Chromium with
//! a profile of its own, speaks JSON over the browser's WebSocket, and
//! drives one page (navigate, evaluate, type, screenshot) while keeping
//! every event it receives for the test to look at.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use base64::Engine;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

use crate::common::guard;

pub const INSTALL_CHROMIUM: &str = "install chromium: apt-get install chromium chromium-driver";

/// A protocol event: its method, its parameters, and the session (page) it
/// came from, if any.
#[derive(Clone, Debug)]
pub struct Event {
    pub method: String,
    pub params: Value,
    pub session: Option<String>,
}

/// A headless Chromium process and the DevTools connection to it.
pub struct Browser {
    child: Child,
    profile: PathBuf,
    ws: futures_util::stream::SplitSink<WebSocketStream<TcpStream>, Message>,
    incoming: mpsc::UnboundedReceiver<Value>,
    /// Events read while waiting for something else, not yet taken.
    queued: VecDeque<Event>,
    /// Every event received so far, in order.
    pub events: Vec<Event>,
    next_id: u64,
}

impl Browser {
    /// Starts Chromium with `profile` as its user data directory (created,
    /// and removed on drop) and connects to it.
    pub async fn launch(profile: PathBuf) -> Browser {
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("a Chromium profile directory");
        let mut child = Command::new("chromium")
            .args([
                "--headless",
                // The test may run as root, where the sandbox cannot start.
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--window-size=1000,700",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                let _ = std::fs::remove_dir_all(&profile);
                panic!("cannot start chromium ({e}): {INSTALL_CHROMIUM}")
            });
        // Chromium writes its port and the browser's WebSocket path here
        // once it listens.
        let active = profile.join("DevToolsActivePort");
        let url = guard("Chromium to open its DevTools port", async {
            loop {
                if let Ok(Some(status)) = child.try_wait() {
                    let _ = std::fs::remove_dir_all(&profile);
                    panic!("chromium exited at start ({status}): {INSTALL_CHROMIUM}");
                }
                if let Ok(text) = std::fs::read_to_string(&active)
                    && let [port, path] = text.lines().collect::<Vec<_>>()[..]
                {
                    return format!("ws://127.0.0.1:{port}{path}");
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await;
        let addr = url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let tcp = guard("connect to DevTools", TcpStream::connect(&addr))
            .await
            .expect("connect to Chromium's DevTools port");
        let (ws, _) = guard(
            "the DevTools WebSocket handshake",
            tokio_tungstenite::client_async(url.as_str(), tcp),
        )
        .await
        .expect("a DevTools WebSocket");
        let (sink, mut stream) = ws.split();
        let (tx, incoming) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(Ok(msg)) = stream.next().await {
                if let Message::Text(text) = msg {
                    let value = serde_json::from_str(&text).expect("DevTools sends JSON");
                    if tx.send(value).is_err() {
                        break;
                    }
                }
            }
        });
        Browser {
            child,
            profile,
            ws: sink,
            incoming,
            queued: VecDeque::new(),
            events: Vec::new(),
            next_id: 0,
        }
    }

    /// Sends `method` (to the page `session`, or to the browser) and
    /// returns its result; a protocol error fails the test.
    pub async fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        guard(
            "a DevTools send",
            self.ws.send(Message::Text(msg.to_string())),
        )
        .await
        .expect("the DevTools connection is open");
        loop {
            let msg = self.receive().await;
            if msg["id"] == json!(id) {
                if let Some(err) = msg.get("error") {
                    panic!("{method} failed: {err}");
                }
                return msg["result"].clone();
            }
            self.queue(msg);
        }
    }

    /// Takes the first event, queued or to come, that `pred` accepts;
    /// events before it are dropped from the queue (they stay in
    /// [`Browser::events`]).
    pub async fn wait_event(&mut self, what: &str, pred: impl Fn(&Event) -> bool) -> Event {
        while let Some(event) = self.queued.pop_front() {
            if pred(&event) {
                return event;
            }
        }
        guard(what, async {
            loop {
                let msg = self.receive().await;
                self.queue(msg);
                let event = self.queued.pop_back().unwrap();
                if pred(&event) {
                    return event;
                }
            }
        })
        .await
    }

    /// Drops the queued events, so that the next wait sees only what comes
    /// after the action about to be taken.
    pub fn forget_queued(&mut self) {
        self.queued.clear();
    }

    async fn receive(&mut self) -> Value {
        guard("a DevTools message", self.incoming.recv())
            .await
            .expect("Chromium closed the DevTools connection")
    }

    fn queue(&mut self, msg: Value) {
        let event = Event {
            method: msg["method"].as_str().unwrap_or_default().to_owned(),
            params: msg["params"].clone(),
            session: msg["sessionId"].as_str().map(str::to_owned),
        };
        self.events.push(event.clone());
        self.queued.push_back(event);
    }

    /// Asks Chromium to quit and waits until it has, so that no process of
    /// it still writes to the profile when it is removed.
    pub async fn close(mut self) {
        let msg = json!({ "id": 0, "method": "Browser.close" });
        let _ = self.ws.send(Message::Text(msg.to_string())).await;
        guard("Chromium to quit", async {
            while let Ok(None) = self.child.try_wait() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await;
    }

    /// Opens a new tab with the Page and Network domains enabled.
    pub async fn new_page(&mut self) -> Page {
        let target = self
            .call(None, "Target.createTarget", json!({ "url": "about:blank" }))
            .await;
        let attached = self
            .call(
                None,
                "Target.attachToTarget",
                json!({ "targetId": target["targetId"], "flatten": true }),
            )
            .await;
        let session = attached["sessionId"].as_str().unwrap().to_owned();
        for domain in ["Page.enable", "Network.enable", "Runtime.enable"] {
            self.call(Some(&session), domain, json!({})).await;
        }
        Page { session }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// One tab, addressed through its flattened DevTools session.
pub struct Page {
    pub session: String,
}

impl Page {
    pub async fn call(&self, b: &mut Browser, method: &str, params: Value) -> Value {
        b.call(Some(&self.session), method, params).await
    }

    /// Waits for this page's next `load` event.
    pub async fn loaded(&self, b: &mut Browser) {
        let session = self.session.clone();
        b.wait_event("the page to load", |e| {
            e.method == "Page.loadEventFired" && e.session.as_deref() == Some(&session)
        })
        .await;
    }

    /// Goes to `url` and waits until the page (after any redirect) loaded.
    pub async fn navigate(&self, b: &mut Browser, url: &str) {
        b.forget_queued();
        let res = self.call(b, "Page.navigate", json!({ "url": url })).await;
        assert!(res.get("errorText").is_none(), "navigating to {url}: {res}");
        self.loaded(b).await;
    }

    /// Reloads the page (as the reload button does) and waits for it.
    pub async fn reload(&self, b: &mut Browser) {
        b.forget_queued();
        self.call(b, "Page.reload", json!({})).await;
        self.loaded(b).await;
    }

    /// The value of the JavaScript expression `js` in the page.
    pub async fn eval(&self, b: &mut Browser, js: &str) -> Value {
        let res = self
            .call(
                b,
                "Runtime.evaluate",
                json!({ "expression": js, "returnByValue": true, "awaitPromise": true }),
            )
            .await;
        if let Some(e) = res.get("exceptionDetails") {
            panic!("{js} threw: {e}");
        }
        res["result"]["value"].clone()
    }

    /// Focuses the element `selector` selects and types `text` into it.
    pub async fn type_into(&self, b: &mut Browser, selector: &str, text: &str) {
        let found = self
            .eval(
                b,
                &format!("(e => (e && e.focus(), !!e))(document.querySelector({selector:?}))"),
            )
            .await;
        assert_eq!(found, json!(true), "no element matches {selector}");
        self.call(b, "Input.insertText", json!({ "text": text }))
            .await;
    }

    /// Writes a PNG of the page to `dir/name.png`.
    pub async fn screenshot(&self, b: &mut Browser, dir: &Path, name: &str) {
        let res = self
            .call(b, "Page.captureScreenshot", json!({ "format": "png" }))
            .await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(res["data"].as_str().expect("screenshot data"))
            .expect("base64 PNG");
        std::fs::create_dir_all(dir).expect("the screenshot directory");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("write the screenshot");
    }
}
