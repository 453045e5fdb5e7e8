//! The `tracing` feature: one span per request with its method, path,
//! matched route, status and latency; events for errors that reach the
//! final handler and for panics. A small subscriber records what webfw
//! reports, installed globally (the server's tasks run on other threads),
//! so the test runs alone in a child process.

use crate::common;

use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use common::{TestServer, guard};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};
use webfw::prelude::*;

type Fields = HashMap<String, String>;

#[derive(Default)]
struct Seen {
    spans: HashMap<u64, (String, Fields)>,
    events: Vec<(Option<u64>, Fields)>,
}

#[derive(Clone, Default)]
struct Recorder {
    seen: Arc<Mutex<Seen>>,
    next_id: Arc<AtomicU64>,
}

struct Collect<'a>(&'a mut Fields);

impl Visit for Collect<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target().starts_with("webfw")
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let mut fields = Fields::new();
        span.record(&mut Collect(&mut fields));
        let name = span.metadata().name().to_owned();
        self.seen.lock().unwrap().spans.insert(id, (name, fields));
        Id::from_u64(id)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut seen = self.seen.lock().unwrap();
        if let Some((_, fields)) = seen.spans.get_mut(&span.into_u64()) {
            values.record(&mut Collect(fields));
        }
    }
    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = Fields::new();
        event.record(&mut Collect(&mut fields));
        let parent = event.parent().map(Id::into_u64);
        self.seen.lock().unwrap().events.push((parent, fields));
    }
    fn enter(&self, _span: &Id) {}
    fn exit(&self, _span: &Id) {}
}

impl Recorder {
    /// The request span whose path is `path`, once its status is recorded
    /// (the span closes after the response is written).
    async fn span(&self, path: &str) -> (u64, Fields) {
        guard("the request span's status", async {
            loop {
                let found = self
                    .seen
                    .lock()
                    .unwrap()
                    .spans
                    .iter()
                    .find_map(|(id, (name, f))| {
                        (name == "request"
                            && f.get("path").map(String::as_str) == Some(path)
                            && f.contains_key("status"))
                        .then(|| (*id, f.clone()))
                    });
                if let Some(found) = found {
                    return found;
                }
                tokio::task::yield_now().await;
            }
        })
        .await
    }

    fn events(&self) -> Vec<(Option<u64>, Fields)> {
        self.seen.lock().unwrap().events.clone()
    }
}

fn show(req: &mut Request, res: &mut Response) -> Result {
    let id = req.param("id").unwrap_or_default().to_owned();
    res.send(id)
}

fn fail(_req: &mut Request, _res: &mut Response) -> Result {
    Err(webfw::Error::new("the store is down").with_status(503))
}

fn boom(_req: &mut Request, _res: &mut Response) -> Result {
    panic!("boom in a handler")
}

#[tokio::test]
async fn requests_have_spans_and_unhandled_errors_and_panics_are_events() {
    if !common::alone(
        module_path!(),
        "requests_have_spans_and_unhandled_errors_and_panics_are_events",
    ) {
        return;
    }
    let recorder = Recorder::default();
    tracing::subscriber::set_global_default(recorder.clone()).expect("the only subscriber");
    let mut app = webfw::app();
    app.set("env", "development");
    app.get("/users/:id", show);
    app.get("/fail", fail);
    app.get("/boom", boom);
    let server = TestServer::start(app).await;

    let res = server.get("/users/7").await;
    assert_eq!(res.text(), "7");
    let (_, span) = recorder.span("/users/7").await;
    assert_eq!(span["method"], "GET");
    assert_eq!(span["route"], "/users/:id");
    assert_eq!(span["status"], "200");
    let latency: f64 = span["latency_ms"].parse().expect("a latency in ms");
    assert!(latency >= 0.0);

    let res = server.get("/nowhere").await;
    assert_eq!(res.status, 404);
    let (_, span) = recorder.span("/nowhere").await;
    assert_eq!(span["status"], "404");
    assert!(!span.contains_key("route"), "no route matched: {span:?}");

    let res = server.get("/fail").await;
    assert_eq!(res.status, 503);
    let (fail_span, span) = recorder.span("/fail").await;
    assert_eq!(span["status"], "503");
    let events = recorder.events();
    let (parent, error) = events
        .iter()
        .find(|(_, f)| f.get("message").map(String::as_str) == Some("unhandled error"))
        .expect("an event for the unhandled error");
    assert_eq!(
        *parent,
        Some(fail_span),
        "the event is in the request's span"
    );
    assert_eq!(error["status"], "503");
    assert_eq!(error["error"], "the store is down");

    let res = server.get("/boom").await;
    assert_eq!(res.status, 500);
    let (boom_span, _) = recorder.span("/boom").await;
    let events = recorder.events();
    let (_, panic) = events
        .iter()
        .find(|(_, f)| f.get("message").map(String::as_str) == Some("handler panicked"))
        .expect("an event for the panic");
    assert_eq!(panic["panic"], "boom in a handler");
    assert!(
        events.iter().any(|(parent, f)| *parent == Some(boom_span)
            && f.get("error").map(String::as_str) == Some("boom in a handler")),
        "the panic reaches the final handler as an error: {events:?}"
    );
}
