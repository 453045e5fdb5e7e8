//! An app written in Express 5 style: path-to-regexp 8 paths (a named
//! wildcard, an optional group), a JSON API on a sub-router, async handlers
//! whose errors reach the error handler, and an error handler of its own.
//!
//! `cargo run --example express5` (`PORT` picks the port, default 3000), then try:
//! `curl -i http://127.0.0.1:3000/files/docs/guide/intro.md`,
//! `/report.pdf`, `/report`, `/api/notes`, `/api/notes/9`,
//! `curl -i -X POST -H 'Content-Type: application/json' -d '{"text":"hi"}' http://127.0.0.1:3000/api/notes`.
//!
//! The Express 5 original:
//!
//! ```js
//! const app = express();
//! app.get('/files/*rest', (req, res) => res.json({ path: req.params.rest.join('/') }));
//! app.get('/:file{.:ext}', (req, res) => res.json({ file: req.params.file, ext: req.params.ext ?? null }));
//! const api = express.Router();
//! api.use(express.json());
//! api.get('/notes/:id', async (req, res) => { … throw err … });
//! app.use('/api', api);
//! app.use((err, req, res, next) => res.status(err.status || 500).json({ error: err.message }));
//! ```

use std::sync::Mutex;

use serde_json::{Value, json};
use webfw::ListenOptions;
use webfw::prelude::*;

/// The notes the API keeps in memory.
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn notes() -> std::sync::MutexGuard<'static, Vec<String>> {
    NOTES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn list_notes(_req: &mut Request, res: &mut Response) -> Result {
    let all = notes().clone();
    res.json(&json!({ "notes": all }))
}

fn add_note(req: &mut Request, res: &mut Response) -> Result {
    let Some(text) = req.body().get("text").and_then(Value::as_str) else {
        // Express 5: a thrown error (here an Err) reaches the error handler.
        return Err(Error::status_message(400, "a note needs a text"));
    };
    let text = text.to_owned();
    let id = {
        let mut all = notes();
        all.push(text.clone());
        all.len()
    };
    res.status(201).json(&json!({ "id": id, "text": text }))
}

/// An async handler: its Err is the rejected promise Express 5 passes to
/// `next(err)`.
async fn show_note(req: &mut Request, res: &mut Response) -> Result {
    let id = req.param("id").unwrap_or_default().to_owned();
    tokio::task::yield_now().await;
    let found = id
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| notes().get(i).cloned());
    match found {
        Some(text) => res.json(&json!({ "id": id, "text": text })),
        None => Err(Error::status_message(404, format!("no note {id}"))),
    }
}

fn api() -> Router {
    let mut api = webfw::express5::router();
    // express.json() of body-parser 2: a request without a JSON body leaves
    // req.body undefined.
    api.use_(webfw::express5::json());
    api.get("/notes", list_notes);
    api.post("/notes", add_note);
    api.get("/notes/:id", show_note);
    api
}

fn main() -> std::io::Result<()> {
    let mut app = webfw::express5::app();

    app.get("/", |_req: &mut Request, res: &mut Response| {
        res.send("Hello from an Express 5 app in webfw")
    });
    // A named wildcard: `rest` is the array of segments (joined with `/`
    // by `req.param`).
    app.get("/files/*rest", |req: &mut Request, res: &mut Response| {
        let path = req.param("rest").unwrap_or_default().to_owned();
        res.json(&json!({ "path": path }))
    });
    // An optional group: `ext` is absent from req.params when it did not match.
    app.get("/:file{.:ext}", |req: &mut Request, res: &mut Response| {
        let body = json!({ "file": req.param("file"), "ext": req.param("ext") });
        res.json(&body)
    });
    app.use_at("/api", api());

    // The error handler: every Err above, sync or async, ends here.
    app.use_(|err: Error, _req: &mut Request, res: &mut Response| {
        res.status(err.status())
            .json(&json!({ "error": err.message() }))
    });

    let port = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    app.listen_with(ListenOptions::port(port).host("127.0.0.1"), |addr| {
        println!("Express 5 example listening on http://{addr}");
    })
}
