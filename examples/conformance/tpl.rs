//! The reference apps' `.tpl` view engine, shared by the Express 4 and
//! Express 5 conformance ports (both references register the same one).

use serde_json::Value;
use webfw::Error;
use webfw::view::{Engine, Locals, ViewFile};
use webfw_http::escape_html::escape_html;

/// The reference's `tplEngine`: every `{{ key }}` (optional whitespace
/// inside the braces, `key` made of ASCII word characters) becomes the
/// HTML-escaped `String(options[key])`; `undefined` and `null` become `""`.
pub struct Tpl;

impl Engine for Tpl {
    type Template = String;

    fn compile(&self, view: &ViewFile<'_>) -> Result<String, Error> {
        Ok(view.source().to_owned())
    }

    fn render(&self, template: &String, locals: &Locals) -> Result<String, Error> {
        let mut out = String::with_capacity(template.len());
        let mut rest = template.as_str();
        while let Some(open) = rest.find("{{") {
            out.push_str(&rest[..open]);
            let after = &rest[open..];
            match placeholder(after) {
                Some((key, len)) => {
                    match locals.get(key) {
                        None | Some(Value::Null) => {}
                        Some(v) => out.push_str(&escape_html(&js_string(v))),
                    }
                    rest = &after[len..];
                }
                // The regex would try again one character later.
                None => {
                    out.push('{');
                    rest = &after[1..];
                }
            }
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// Matches `/\{\{\s*(\w+)\s*\}\}/` at the start of `s`: the key and the
/// length of the whole match.
fn placeholder(s: &str) -> Option<(&str, usize)> {
    let inner = s.strip_prefix("{{")?;
    let key_start = inner.len() - inner.trim_start().len();
    let key_len = inner[key_start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len() - key_start);
    if key_len == 0 {
        return None;
    }
    let after_key = &inner[key_start + key_len..];
    let close = after_key.len() - after_key.trim_start().len();
    after_key[close..].strip_prefix("}}")?;
    let key = &inner[key_start..key_start + key_len];
    Some((key, 2 + key_start + key_len + close + 2))
}

/// JavaScript's `String(v)` for JSON values.
fn js_string(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 1e21 => format!("{f:.0}"),
            _ => n.to_string(),
        },
        Value::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        Value::Object(_) => "[object Object]".to_owned(),
    }
}
