//! A typed JSON API: the body, the query and the route parameters read into
//! your own types, errors answered as JSON.
//!
//! `cargo run --example todo_api`, then:
//!
//! ```text
//! curl -i -X POST localhost:3000/todos -H 'content-type: application/json' -d '{"title":"milk"}'
//! curl -i 'localhost:3000/todos?done=false&limit=10'
//! curl -i localhost:3000/todos/1
//! curl -i localhost:3000/todos/one          # 400: route parameters: expected u64
//! curl -i -X POST localhost:3000/todos -H 'content-type: application/json' -d '{"title":5}'
//! curl -i -X POST localhost:3000/todos -H 'content-type: application/json' -d '{"title":'
//! ```

use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use serde_json::json;
use webfw::body::JsonOptions;
use webfw::prelude::*;

#[derive(Clone, Serialize)]
struct Todo {
    id: u64,
    title: String,
    done: bool,
}

/// `POST /todos` body.
#[derive(Deserialize)]
struct NewTodo {
    title: String,
    #[serde(default)]
    done: bool,
}

/// `GET /todos?done=…&limit=…`: both optional; `limit` defaults to 20.
#[derive(Deserialize)]
struct Filter {
    done: Option<bool>,
    #[serde(default = "default_limit")]
    limit: usize,
}

fn default_limit() -> usize {
    20
}

#[derive(Default)]
struct Store {
    next: u64,
    todos: Vec<Todo>,
}

type Shared = Arc<Mutex<Store>>;

fn lock(store: &Shared) -> std::sync::MutexGuard<'_, Store> {
    store.lock().unwrap_or_else(|e| e.into_inner())
}

/// Every error as `{"error": {"status", "type", "message"}}`; messages of
/// server errors stay private.
fn json_errors(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    let status = err.status();
    let message = if err.expose() {
        err.message()
    } else {
        "internal error"
    };
    let body = json!({ "error": { "status": status, "type": err.kind(), "message": message } });
    res.status(status).json(&body)
}

fn app(store: Shared) -> App {
    let mut app = webfw::app();
    app.use_(webfw::json(JsonOptions::new().limit("16kb")));

    let s = store.clone();
    app.post("/todos", move |req: &mut Request, res: &mut Response| {
        let new: NewTodo = req.body_as()?;
        let mut store = lock(&s);
        store.next += 1;
        let todo = Todo {
            id: store.next,
            title: new.title,
            done: new.done,
        };
        store.todos.push(todo.clone());
        res.status(201).json(&todo)
    });

    let s = store.clone();
    app.get("/todos", move |req: &mut Request, res: &mut Response| {
        let filter: Filter = req.query_as()?;
        let store = lock(&s);
        let found: Vec<&Todo> = store
            .todos
            .iter()
            .filter(|t| filter.done.is_none_or(|d| t.done == d))
            .take(filter.limit)
            .collect();
        res.json(&found)
    });

    let s = store;
    app.get(
        "/todos/:id",
        move |req: &mut Request, res: &mut Response| {
            let id: u64 = req.params_as()?;
            let store = lock(&s);
            match store.todos.iter().find(|t| t.id == id) {
                Some(todo) => res.json(todo),
                None => Err(Error::status_message(404, format!("no todo {id}"))),
            }
        },
    );

    app.use_(json_errors);
    app
}

fn main() -> std::io::Result<()> {
    let port = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    app(Shared::default()).listen(port, |addr| println!("todo API on http://{addr}"))
}
