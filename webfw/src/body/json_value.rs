//! `req.body` built straight from serde_json's parse, shaped as
//! `JSON.parse` shapes it: integers past 2^53 become doubles, and objects
//! list array-index keys first, in ascending order, as V8 enumerates them
//! (so echoing a body gives Express's bytes).
//!
//! Why not `serde_json::Value`'s own `Deserialize`: it grows every object
//! one insert at a time, and with `preserve_order` each growth reallocates
//! the entries and rehashes the index (SipHash, which `Map` does not let us
//! change). Here an object's entries wait on a stack until it closes and the
//! map is then made once at its final size; arrays likewise. The stacks are
//! kept per thread, so a request allocates only what its value holds.

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::http::qs::array_index;

/// The members of the objects and arrays still open.
#[derive(Default)]
struct Stacks {
    entries: Vec<(String, Value)>,
    items: Vec<Value>,
}

/// Stacks grown past this many members (a huge body) are freed rather than
/// kept for the thread's next request.
const KEEP: usize = 4096;

thread_local! {
    static STACKS: Cell<Stacks> = Cell::new(Stacks::default());
}

/// `JSON.parse(text)` as a `Value`; serde_json's error when `text` is not
/// JSON (the caller words it as V8 does).
pub(crate) fn from_str(text: &str) -> serde_json::Result<Value> {
    let mut stacks = STACKS.take();
    let mut de = serde_json::Deserializer::from_str(text);
    let value = JsValue(&mut stacks)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v));
    // A failed parse leaves the members read so far.
    stacks.entries.clear();
    stacks.items.clear();
    if stacks.entries.capacity() <= KEEP && stacks.items.capacity() <= KEEP {
        STACKS.set(stacks);
    }
    value
}

struct JsValue<'s>(&'s mut Stacks);

impl<'de> DeserializeSeed<'de> for JsValue<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// The largest integer a double holds exactly.
const MAX_SAFE: u64 = 1 << 53;

fn double(n: f64) -> Value {
    Number::from_f64(n).map_or(Value::Null, Value::Number)
}

impl<'de> Visitor<'de> for JsValue<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(if n > MAX_SAFE {
            double(n as f64)
        } else {
            Value::from(n)
        })
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(if n.unsigned_abs() > MAX_SAFE {
            double(n as f64)
        } else {
            Value::from(n)
        })
    }

    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(double(n))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let base = self.0.items.len();
        while let Some(item) = seq.next_element_seed(JsValue(&mut *self.0))? {
            self.0.items.push(item);
        }
        Ok(Value::Array(self.0.items.drain(base..).collect()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let base = self.0.entries.len();
        let mut has_index = false;
        while let Some(key) = map.next_key::<String>()? {
            has_index |= key.as_bytes().first().is_some_and(u8::is_ascii_digit)
                && array_index(&key).is_some();
            let value = map.next_value_seed(JsValue(&mut *self.0))?;
            self.0.entries.push((key, value));
        }
        let entries = &mut self.0.entries[base..];
        if has_index {
            // Stable: the other keys keep their order.
            crate::http::sort::sort_by_key(entries, |(k, _)| match array_index(k) {
                Some(i) => (0, i),
                None => (1, 0),
            });
        }
        // A repeated key keeps its first place and its last value, as in V8.
        let mut object = Map::with_capacity(entries.len());
        object.extend(self.0.entries.drain(base..));
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javascript_shapes() {
        let v = from_str(r#"{"b":1,"1":2,"a":3,"0":4,"01":5,"n":12345678901234567890}"#).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["0", "1", "b", "a", "01", "n"]);
        assert!(v["n"].is_f64());
        assert_eq!(v["a"], 3);
    }

    #[test]
    fn nested_values_and_repeats() {
        let v =
            from_str(r#"{"a":[1,{"x":[],"y":{}},-9007199254740993],"a2":"s","a":null}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"a":null,"a2":"s"}"#);
        let v = from_str(r#"[[1,[2,{"3":[4]}]],5.5,true,"\u00e9"]"#).unwrap();
        assert_eq!(v.to_string(), r#"[[1,[2,{"3":[4]}]],5.5,true,"é"]"#);
        let v = from_str(r#"[-9007199254740993, 9007199254740992]"#).unwrap();
        assert!(v[0].is_f64());
        assert!(v[1].is_u64());
    }

    #[test]
    fn a_failed_parse_leaves_nothing_behind() {
        assert!(from_str(r#"{"a":[1,{"b":2,"#).is_err());
        assert!(from_str(r#"{"a":1} x"#).is_err());
        assert_eq!(
            from_str(r#"{"c":[3]}"#).unwrap().to_string(),
            r#"{"c":[3]}"#
        );
    }
}
