//! Node's `querystring.parse` (Node 20), used by Express's "simple" query parser and by
//! `express.urlencoded({ extended: false })`.
//!
//! No bracket syntax: every key is literal, a repeated key collects its values into an array.
//! `+` is a space. Percent escapes are decoded with `decodeURIComponent` when the key or value
//! holds a valid `%XX`; if that throws, Node falls back to a byte-wise decoder whose result is
//! read as lossy UTF-8 (`U+FFFD` for bad sequences) — including its quirk of keeping only the
//! low byte of each non-ASCII UTF-16 unit, which is reproduced here.
//!
//! The object enumerates its keys in V8's order (array-index keys ascending, then the rest in
//! insertion order), so `serde_json::to_string` of the result equals `JSON.stringify` in Node.
//!
//! ```
//! use webfw_http::querystring::parse;
//! let v = parse("a[]=1&a[]=2&b=x+y&=c", 1000);
//! assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"a[]":["1","2"],"b":"x y","":"c"}"#);
//! assert_eq!(parse("a=%E0%A4%A", 1000), serde_json::json!({"a": "\u{FFFD}%A"}));
//! ```

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::qs::{array_index, decode_uri_component, hex_value};

/// Parses `input` like `querystring.parse(input, '&', '=', { maxKeys })`.
///
/// `max_keys` caps the number of pairs read (empty `&&` slots count too); `0` means
/// unlimited. Node's default, and Express's, is 1000. The result is an object whose values are
/// strings, or arrays of strings for repeated keys.
///
/// ```
/// use webfw_http::querystring::parse;
/// let v = parse("a[]=1&a[]=2&b=x+y&=c", 1000);
/// assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"a[]":["1","2"],"b":"x y","":"c"}"#);
/// assert_eq!(parse("a=%E0%A4%A", 1000), serde_json::json!({"a": "\u{FFFD}%A"}));
/// ```
pub fn parse(input: &str, max_keys: usize) -> Value {
    let mut obj = Pairs::default();
    if input.is_empty() {
        return obj.into_value();
    }
    let b = input.as_bytes();
    // Node counts down and stops at exactly zero; `None` is its "-1" for unlimited.
    let mut remaining = (max_keys > 0).then_some(max_keys);
    let mut spend = || match remaining.as_mut() {
        Some(r) => {
            *r -= 1;
            *r == 0
        }
        None => false,
    };

    let mut last = 0;
    let mut eq_seen = false;
    let mut key = String::new();
    let mut value = String::new();
    // Whether a valid `%XX` was seen: only then is the text decoded at all, which matters
    // because the fallback decoder alters non-ASCII text.
    let mut key_encoded = false;
    let mut value_encoded = false;
    let mut encode_check = 0u8;

    // The separators are ASCII, so byte offsets next to them are char boundaries.
    for (i, &c) in b.iter().enumerate() {
        if c == b'&' {
            if !eq_seen {
                if last < i {
                    key.push_str(&input[last..i]);
                } else if key.is_empty() {
                    // An empty slot (`&&`): nothing added, but it still uses up a key.
                    if spend() {
                        return obj.into_value();
                    }
                    last = i + 1;
                    continue;
                }
            } else if last < i {
                value.push_str(&input[last..i]);
            }
            obj.add(
                std::mem::take(&mut key),
                std::mem::take(&mut value),
                key_encoded,
                value_encoded,
            );
            if spend() {
                return obj.into_value();
            }
            key_encoded = false;
            value_encoded = false;
            encode_check = 0;
            last = i + 1;
            eq_seen = false;
            continue;
        }

        if !eq_seen {
            if c == b'=' {
                eq_seen = true;
                if last < i {
                    key.push_str(&input[last..i]);
                }
                encode_check = 0;
                last = i + 1;
                continue;
            }
            if !key_encoded {
                if c == b'%' {
                    encode_check = 1;
                    continue;
                } else if encode_check > 0 {
                    if hex_value(c).is_some() {
                        encode_check = encode_check.saturating_add(1);
                        if encode_check == 3 {
                            key_encoded = true;
                        }
                        continue;
                    }
                    encode_check = 0;
                }
            }
            if c == b'+' {
                if last < i {
                    key.push_str(&input[last..i]);
                }
                key.push(' ');
                last = i + 1;
                continue;
            }
        }

        // Node falls through to here for key characters too, so a second escape in an
        // already-encoded key marks the value as encoded as well.
        if c == b'+' {
            if last < i {
                value.push_str(&input[last..i]);
            }
            value.push(' ');
            last = i + 1;
        } else if !value_encoded {
            if c == b'%' {
                encode_check = 1;
            } else if encode_check > 0 {
                if hex_value(c).is_some() {
                    encode_check = encode_check.saturating_add(1);
                    if encode_check == 3 {
                        value_encoded = true;
                    }
                } else {
                    encode_check = 0;
                }
            }
        }
    }

    if last < b.len() {
        if eq_seen {
            value.push_str(&input[last..]);
        } else {
            key.push_str(&input[last..]);
        }
    } else if !eq_seen && key.is_empty() {
        // The input ended on an empty slot.
        return obj.into_value();
    }
    obj.add(key, value, key_encoded, value_encoded);
    obj.into_value()
}

/// Node's `qsUnescape`: `decodeURIComponent`, else its byte-wise fallback read as lossy UTF-8.
fn unescape(s: &str) -> String {
    decode_uri_component(s)
        .unwrap_or_else(|| String::from_utf8_lossy(&unescape_buffer(s)).into_owned())
}

/// Node's `unescapeBuffer` (without `+` handling, which the parser already did).
///
/// It walks UTF-16 units and stores each into a byte buffer, so a non-ASCII unit keeps only its
/// low byte; `%` starts an escape only with two more units after it.
fn unescape_buffer(s: &str) -> Vec<u8> {
    let units: Vec<u16> = s.encode_utf16().collect();
    let hex = |u: u16| u8::try_from(u).ok().and_then(hex_value);
    let mut out = Vec::with_capacity(units.len());
    let mut i = 0;
    while i < units.len() {
        let mut unit = units[i];
        if unit == u16::from(b'%') && i + 2 < units.len() {
            match (hex(units[i + 1]), hex(units[i + 2])) {
                (Some(hi), Some(lo)) => {
                    out.push(hi << 4 | lo);
                    i += 3;
                    continue;
                }
                // Bad first digit: `%` alone, the digit is read again as ordinary text.
                (None, _) => {
                    out.push(b'%');
                    i += 1;
                    continue;
                }
                // Bad second digit: `%` and the first digit, the second is read again.
                (Some(_), None) => {
                    out.push(b'%');
                    i += 1;
                    unit = units[i];
                }
            }
        }
        out.push(unit.to_le_bytes()[0]);
        i += 1;
    }
    out
}

/// A repeated key's values.
enum Entry {
    One(String),
    Many(Vec<String>),
}

impl Entry {
    fn into_value(self) -> Value {
        match self {
            Entry::One(s) => Value::String(s),
            Entry::Many(v) => Value::Array(v.into_iter().map(Value::String).collect()),
        }
    }
}

/// The result object, keeping V8's key order.
#[derive(Default)]
struct Pairs {
    indexed: BTreeMap<u32, Entry>,
    named: Vec<(String, Entry)>,
    positions: HashMap<String, usize>,
}

impl Pairs {
    /// Node's `addKeyVal`: decode if an escape was seen, then set or append.
    fn add(&mut self, key: String, value: String, key_encoded: bool, value_encoded: bool) {
        let key = if key_encoded && !key.is_empty() {
            unescape(&key)
        } else {
            key
        };
        let value = if value_encoded && !value.is_empty() {
            unescape(&value)
        } else {
            value
        };
        let slot = match array_index(&key) {
            Some(i) => self.indexed.get_mut(&i),
            None => match self.positions.get(&key) {
                Some(&pos) => Some(&mut self.named[pos].1),
                None => None,
            },
        };
        match slot {
            Some(entry) => match entry {
                Entry::Many(values) => values.push(value),
                Entry::One(first) => {
                    let first = std::mem::take(first);
                    *entry = Entry::Many(vec![first, value]);
                }
            },
            None => match array_index(&key) {
                Some(i) => {
                    self.indexed.insert(i, Entry::One(value));
                }
                None => {
                    self.positions.insert(key.clone(), self.named.len());
                    self.named.push((key, Entry::One(value)));
                }
            },
        }
    }

    fn into_value(self) -> Value {
        let mut map = Map::with_capacity(self.indexed.len() + self.named.len());
        for (i, e) in self.indexed {
            map.insert(i.to_string(), e.into_value());
        }
        for (k, e) in self.named {
            map.insert(k, e.into_value());
        }
        Value::Object(map)
    }
}

#[cfg(test)]
mod tests;
