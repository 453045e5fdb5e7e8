//! `JSON.stringify(value, replacer, spaces)` with the app's `json *` settings.

use serde::Serialize;
use serde_json::Value;

use super::settings::{Compiled, JsonSpaces, ReplacerFn};

/// Serialises `value` as `res.json` does. `Ok(None)` when the replacer
/// dropped the root value (JavaScript `undefined`: no body).
pub(crate) fn stringify<T: Serialize + ?Sized>(
    value: &T,
    settings: &Compiled,
) -> Result<Option<String>, serde_json::Error> {
    let mut out = match (&settings.json_replacer, &settings.json_spaces) {
        (None, None) => serde_json::to_string(value)?,
        (replacer, spaces) => {
            let mut v = serde_json::to_value(value)?;
            if let Some(f) = replacer {
                match replace("", v, f) {
                    Some(r) => v = r,
                    None => return Ok(None),
                }
            }
            match spaces {
                None => serde_json::to_string(&v)?,
                Some(sp) => pretty(&v, sp)?,
            }
        }
    };
    if settings.json_escape {
        out = escape(&out);
    }
    Ok(Some(out))
}

/// Applies a replacer depth-first, as `JSON.stringify` does: the holder's key
/// first, then the members of whatever the replacer returned.
fn replace(key: &str, value: Value, f: &ReplacerFn) -> Option<Value> {
    let value = f(key, &value)?;
    Some(match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter_map(|(k, v)| replace(&k, v, f).map(|v| (k, v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| replace(&i.to_string(), v, f).unwrap_or(Value::Null))
                .collect(),
        ),
        other => other,
    })
}

fn pretty(v: &Value, spaces: &JsonSpaces) -> Result<String, serde_json::Error> {
    let indent = match spaces {
        JsonSpaces::Width(n) => " ".repeat(*n),
        JsonSpaces::Text(t) => t.clone(),
    };
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    v.serialize(&mut ser)?;
    Ok(String::from_utf8(buf).unwrap_or_default())
}

/// `json escape`: `<`, `>` and `&` as Unicode escapes (they only occur inside
/// strings in JSON text, so a plain replacement is exact).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    out
}
