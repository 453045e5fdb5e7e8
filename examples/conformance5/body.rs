//! `/body/*`: body-parser 2 (ROUTES5.md, "/body/* — body-parser 2"), and
//! `POST /errors/json-body`, which uses `express.json()` without an error
//! handler of its own.

use serde_json::{Value, json};
use webfw::body::{Body, JsonOptions, RawOptions, TextOptions, UrlencodedOptions};
// express.json() and friends of Express 5 (body-parser 2).
use webfw::express5::{json_with, raw_with, text_with, urlencoded_with};
use webfw::prelude::*;

/// `echoBody`: bytes as `{kind, length, hex}`, anything else as
/// `{kind: typeof req.body, body}` (`null` for `undefined`: Express 5
/// leaves `req.body` undefined when no parser read the request).
fn echo_body(req: &mut Request, res: &mut Response) -> Result {
    let out = match req.body() {
        Body::Bytes(b) => {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            json!({ "kind": "buffer", "length": b.len(), "hex": hex })
        }
        Body::Undefined => json!({ "kind": "undefined", "body": Value::Null }),
        other => json!({ "kind": other.type_of(), "body": other }),
    };
    res.json(&out)
}

/// The group's error handler: status and `type`, never the message.
fn body_error(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    let status = err.raw_status().filter(|&s| s != 0).unwrap_or(500);
    let body = json!({ "error": { "status": status, "type": err.kind() } });
    res.status(u16::try_from(status).unwrap_or(500)).json(&body)
}

pub fn routes(app: &mut App) {
    let mut r = webfw::express5::router();
    let json = || json_with(JsonOptions::new());
    let form = || urlencoded_with(UrlencodedOptions::new());
    r.post("/json", (json(), echo_body));
    r.put("/json", (json(), echo_body));
    r.get("/json", (json(), echo_body));
    r.post(
        "/json/lax",
        (json_with(JsonOptions::new().strict(false)), echo_body),
    );
    r.post(
        "/json/limit",
        (json_with(JsonOptions::new().limit(64)), echo_body),
    );
    r.post(
        "/json/no-inflate",
        (json_with(JsonOptions::new().inflate(false)), echo_body),
    );
    // extended defaults to false in body-parser 2.
    r.post("/urlencoded", (form(), echo_body));
    r.post(
        "/urlencoded/extended",
        (
            urlencoded_with(UrlencodedOptions::new().extended(true)),
            echo_body,
        ),
    );
    r.post(
        "/urlencoded/depth",
        (
            urlencoded_with(UrlencodedOptions::new().extended(true).depth(1)),
            echo_body,
        ),
    );
    r.post(
        "/urlencoded/params",
        (
            urlencoded_with(UrlencodedOptions::new().parameter_limit(3)),
            echo_body,
        ),
    );
    r.post(
        "/urlencoded/latin1",
        (
            urlencoded_with(UrlencodedOptions::new().default_charset("iso-8859-1")),
            echo_body,
        ),
    );
    r.post("/text", (text_with(TextOptions::new()), echo_body));
    r.post("/raw", (raw_with(RawOptions::new()), echo_body));
    r.post("/none", echo_body); // no parser at all
    r.post(
        "/chain",
        (json(), form(), text_with(TextOptions::new()), echo_body),
    );
    r.use_(body_error);
    app.use_at("/body", r);
}

/// `POST /errors/json-body`: parse errors go on to the final handler (a
/// 400 page). Registered with the `/errors` group.
pub fn json_body_route(app: &mut App) {
    app.post(
        "/errors/json-body",
        (
            json_with(JsonOptions::new()),
            |req: &mut Request, res: &mut Response| {
                // res.json(undefined) when no body was parsed: the JSON
                // type and no body.
                let body = match req.body() {
                    Body::Undefined => return res.type_("json").send(()),
                    other => other.clone(),
                };
                res.json(&body)
            },
        ),
    );
}
