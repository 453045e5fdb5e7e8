//! `/eco/compression/*`: compression (ROUTES.md, "/eco/compression").

use std::path::Path;

use serde_json::{Value, json};
use webfw::App;
use webfw::compression::{self, CompressionOptions};
use webfw::prelude::*;

/// `BIG_JSON`: `{items: [{id, name: 'item number ' + id, tags}]}` for 80 ids.
fn big_json() -> Value {
    let items: Vec<Value> = (0..80)
        .map(|i| json!({ "id": i, "name": format!("item number {i}"), "tags": ["a", "b", "c"] }))
        .collect();
    json!({ "items": items })
}

/// `BIG_TEXT`.
fn big_text() -> String {
    "compressible text. ".repeat(200)
}

fn send_big_text(res: &mut Response) -> Result {
    res.type_("text").send(big_text())
}

pub fn routes(app: &mut App, fixtures: &Path) {
    let mut comp = webfw::router();
    let body = big_json();
    comp.get(
        "/json",
        (
            webfw::compression(()),
            move |_req: &mut Request, res: &mut Response| res.json(&body),
        ),
    );
    comp.get(
        "/small",
        (
            webfw::compression(()),
            |_req: &mut Request, res: &mut Response| res.send("tiny body"),
        ),
    );
    comp.get(
        "/threshold0",
        (
            webfw::compression(CompressionOptions::new().threshold(0)),
            |_req: &mut Request, res: &mut Response| res.send("tiny body"),
        ),
    );
    comp.get(
        "/level1",
        (
            webfw::compression(CompressionOptions::new().level(1)),
            |_req: &mut Request, res: &mut Response| send_big_text(res),
        ),
    );
    let filter = CompressionOptions::new().filter(|req, res| {
        if req.headers().contains_key("x-no-compression") {
            return false;
        }
        compression::should_compress(req, res)
    });
    comp.get(
        "/filter",
        (
            webfw::compression(filter),
            |_req: &mut Request, res: &mut Response| send_big_text(res),
        ),
    );
    comp.get(
        "/notransform",
        (
            webfw::compression(()),
            |_req: &mut Request, res: &mut Response| {
                res.set("Cache-Control", "no-transform");
                send_big_text(res)
            },
        ),
    );
    comp.get(
        "/image",
        (
            webfw::compression(()),
            |_req: &mut Request, res: &mut Response| res.type_("png").send(vec![7u8; 4096]),
        ),
    );
    comp.get(
        "/stream",
        (
            webfw::compression(()),
            |_req: &mut Request, res: &mut Response| {
                res.type_("text");
                res.write("part one. ".repeat(150))?;
                res.write("part two. ".repeat(150))?;
                res.end_with("end.")
            },
        ),
    );
    comp.get(
        "/status",
        (
            webfw::compression(()),
            |_req: &mut Request, res: &mut Response| {
                res.status(404);
                send_big_text(res)
            },
        ),
    );
    comp.use_at(
        "/static",
        (
            webfw::compression(()),
            webfw::static_(fixtures.join("eco"), webfw::StaticOptions::new()),
        ),
    );
    app.use_at("/eco/compression", comp);
}
