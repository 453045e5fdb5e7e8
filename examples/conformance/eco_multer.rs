//! `/eco/multer/*` (ROUTES.md, "/eco/multer/* — multer (memory storage)"):
//! each route answers what multer left on the request; the router's error
//! handler answers 400 for a `MulterError`, else 500.

use serde_json::{Map, Value, json};
use webfw::multer::{FieldSpec, File, Files, Limits, MulterError, MulterOptions, Storage};
use webfw::prelude::*;

/// `fileSummary(f)`.
fn summary(f: &File) -> Value {
    let text = f
        .buffer
        .as_deref()
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default();
    json!({
        "fieldname": f.fieldname,
        "originalname": f.originalname,
        "encoding": f.encoding,
        "mimetype": f.mimetype,
        "size": f.size,
        "text": text,
    })
}

/// `uploadResult`.
fn upload_result(req: &mut Request, res: &mut Response) -> Result {
    let file = req.file().map_or(json!("undefined"), summary);
    let files = match req.files() {
        None => json!("undefined"),
        Some(Files::Array(v)) => Value::Array(v.iter().map(summary).collect()),
        Some(Files::Object(m)) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), Value::Array(v.iter().map(summary).collect())))
                .collect::<Map<String, Value>>(),
        ),
    };
    let body = if req.body().is_undefined() {
        json!("undefined")
    } else {
        serde_json::to_value(req.body()).unwrap_or(Value::Null)
    };
    res.json(&json!({ "file": file, "files": files, "body": body }))
}

/// The router's error handler; `undefined` members are left out.
fn multer_error(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    let multer = MulterError::of(&err);
    let mut out = Map::new();
    out.insert("name".into(), json!(err.name()));
    if let Some(code) = err.code() {
        out.insert("code".into(), json!(code));
    }
    out.insert("message".into(), json!(err.message()));
    if let Some(field) = multer.and_then(MulterError::field) {
        out.insert("field".into(), json!(field));
    }
    out.insert("multer".into(), json!(multer.is_some()));
    res.status(if multer.is_some() { 400 } else { 500 })
        .json(&Value::Object(out))
}

/// The `/eco/multer` router.
pub fn routes(app: &mut App) {
    let upload = webfw::multer(MulterOptions::new().storage(Storage::memory()));
    let limited = webfw::multer(
        MulterOptions::new()
            .storage(Storage::memory())
            .limits(Limits::new().file_size(10).files(1).fields(2).field_size(5)),
    );
    let mut r = Router::new();
    r.post("/single", (upload.single("avatar"), upload_result));
    r.post("/array", (upload.array("photos", Some(2)), upload_result));
    r.post(
        "/fields",
        (
            upload.fields(&[
                FieldSpec::new("a").max_count(1),
                FieldSpec::new("b").max_count(2),
            ]),
            upload_result,
        ),
    );
    r.post("/none", (upload.none(), upload_result));
    r.post("/any", (upload.any(), upload_result));
    r.post("/limited", (limited.single("f"), upload_result));
    r.use_(multer_error);
    app.use_at("/eco/multer", r);
}
