//! `/body/*` (ROUTES.md, "/body/* — body parsers"), `POST /errors/json-body`
//! and `/req/is`: the body parsers and type-is.

use serde_json::{Value, json};
use webfw::body::{Body, JsonOptions, RawOptions, TextOptions, UrlencodedOptions};
use webfw::prelude::*;

/// `echoBody`: bytes as `{kind, length, hex}`, anything else as
/// `{kind: typeof req.body, body}`.
fn echo_body(req: &mut Request, res: &mut Response) -> Result {
    let out = match req.body() {
        Body::Bytes(b) => {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            json!({ "kind": "buffer", "length": b.len(), "hex": hex })
        }
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

/// Numbers are doubled.
fn double_numbers(_key: &str, v: Value) -> Option<Value> {
    Some(match v {
        Value::Number(n) => {
            let d = n.as_f64().unwrap_or(0.0) * 2.0;
            serde_json::Number::from_f64(d).map_or(Value::Null, Value::Number)
        }
        other => other,
    })
}

/// A 403 when the body text holds `forbidden`.
fn verify_forbidden(
    _req: &Request,
    _res: &Response,
    buf: &[u8],
    _enc: Option<&str>,
) -> std::result::Result<(), Error> {
    if String::from_utf8_lossy(buf).contains("forbidden") {
        Err(Error::new("verify rejected").with_status(403))
    } else {
        Ok(())
    }
}

pub fn routes(app: &mut App) {
    let mut r = webfw::router();
    let json = |o: JsonOptions| webfw::json(o);
    r.post("/json", (json(JsonOptions::new()), echo_body));
    r.post(
        "/json/lax",
        (json(JsonOptions::new().strict(false)), echo_body),
    );
    r.post(
        "/json/limit",
        (json(JsonOptions::new().limit(64)), echo_body),
    );
    r.post(
        "/json/vendor",
        (
            json(JsonOptions::new().type_("application/vnd.api+json")),
            echo_body,
        ),
    );
    r.post(
        "/json/types",
        (
            json(JsonOptions::new().type_(["application/json", "text/plain"])),
            echo_body,
        ),
    );
    r.post(
        "/json/no-inflate",
        (json(JsonOptions::new().inflate(false)), echo_body),
    );
    r.post(
        "/json/reviver",
        (json(JsonOptions::new().reviver(double_numbers)), echo_body),
    );
    r.post(
        "/json/verify",
        (json(JsonOptions::new().verify(verify_forbidden)), echo_body),
    );
    r.post("/raw", (webfw::raw(RawOptions::new()), echo_body));
    r.post(
        "/raw/any",
        (
            webfw::raw(RawOptions::new().type_("*/*").limit("1kb")),
            echo_body,
        ),
    );
    r.post("/text", (webfw::text(TextOptions::new()), echo_body));
    r.post(
        "/text/latin1",
        (
            webfw::text(TextOptions::new().default_charset("iso-8859-1")),
            echo_body,
        ),
    );
    r.post(
        "/text/any",
        (webfw::text(TextOptions::new().type_("*/*")), echo_body),
    );
    r.post(
        "/text/limit",
        (webfw::text(TextOptions::new().limit(10)), echo_body),
    );
    let form = |o: UrlencodedOptions| webfw::urlencoded(o);
    r.post("/urlencoded", (form(UrlencodedOptions::new()), echo_body));
    r.post(
        "/urlencoded/simple",
        (form(UrlencodedOptions::new().extended(false)), echo_body),
    );
    r.post(
        "/urlencoded/params",
        (form(UrlencodedOptions::new().parameter_limit(3)), echo_body),
    );
    r.post(
        "/urlencoded/depth",
        (form(UrlencodedOptions::new().depth(1)), echo_body),
    );
    r.post(
        "/urlencoded/limit",
        (form(UrlencodedOptions::new().limit("50b")), echo_body),
    );
    r.post(
        "/any",
        (
            json(JsonOptions::new()),
            form(UrlencodedOptions::new().extended(false)),
            webfw::text(TextOptions::new()),
            echo_body,
        ),
    );
    r.put("/json", (json(JsonOptions::new()), echo_body));
    r.use_(body_error);
    app.use_at("/body", r);
    req_is(app);

    // Parse errors go on to the final handler (a 400 page).
    app.post(
        "/errors/json-body",
        (
            webfw::json(JsonOptions::new()),
            |req: &mut Request, res: &mut Response| {
                let body = req.body().clone();
                res.json(&body)
            },
        ),
    );
}

/// `ALL /req/is?t=a,b`: `{"result": req.is(list)}`, null without a body.
fn req_is(app: &mut App) {
    app.all("/req/is", |req: &mut Request, res: &mut Response| {
        let list: Vec<String> = match req.query().get("t") {
            Some(Value::String(s)) if !s.is_empty() => s.split(',').map(str::to_owned).collect(),
            _ => Vec::new(),
        };
        let result = if !req.has_body() {
            Value::Null
        } else {
            req.is(&list).map_or(Value::Bool(false), Value::String)
        };
        res.json(&json!({ "result": result }))
    });
}
