//! `req.body` of a multipart form: append-field 1.0's reading of field
//! names (`a[b]` nests, `a[0]` indexes an array, `a[]` appends, a repeated
//! name becomes an array), and its conversion to JSON with JavaScript's key
//! order (array indexes first, ascending, then insertion order).
//!
//! Two bounds keep a hostile name from costing more than its bytes: a
//! name nests at most [`MAX_DEPTH`] levels, and the holes that array
//! indexes leave (`a[100000]`) add up to at most [`MAX_HOLES`] per form.

use indexmap::IndexMap;
use serde_json::{Map, Value};

/// The deepest a field name may nest (JSON parsers' usual bound).
pub(crate) const MAX_DEPTH: usize = 128;
/// The most array slots a form's indexes may leave empty.
pub(crate) const MAX_HOLES: usize = 100_000;

/// A value of the form (JavaScript's: `undefined`, a string, a sparse
/// array, an object).
#[derive(Debug, Default)]
pub(crate) enum Node {
    #[default]
    Undefined,
    Str(String),
    Arr(Vec<Node>),
    Obj(IndexMap<String, Node>),
}

/// Why a name was refused.
#[derive(Debug, PartialEq)]
pub(crate) enum Refused {
    /// Past [`MAX_DEPTH`].
    Nesting,
    /// Past [`MAX_HOLES`].
    ArrayIndex,
}

#[derive(Debug)]
enum Key {
    Name(String),
    Index(u64),
}

struct PathStep {
    key: Key,
    append: bool,
    next_is_array: bool,
}

/// append-field's `parsePath`; a name it cannot read is one plain key.
fn parse_path(name: &str) -> Vec<PathStep> {
    let whole = || {
        vec![PathStep {
            key: Key::Name(name.to_owned()),
            append: false,
            next_is_array: false,
        }]
    };
    let first = name.find('[').unwrap_or(name.len());
    if first == 0 {
        return whole();
    }
    let mut steps = vec![PathStep {
        key: Key::Name(name[..first].to_owned()),
        append: false,
        next_is_array: false,
    }];
    let b = name.as_bytes();
    let mut pos = first;
    while pos < b.len() {
        if b[pos] == b'[' && b.get(pos + 1) == Some(&b']') {
            pos += 2;
            if pos != b.len() {
                return whole();
            }
            if let Some(t) = steps.last_mut() {
                t.append = true;
            }
            continue;
        }
        // `[` then one or more characters up to the first `]`.
        let Some(close) = name[pos + 1..].find(']').map(|i| pos + 1 + i) else {
            return whole();
        };
        if b[pos] != b'[' || close == pos + 1 {
            return whole();
        }
        let inner = &name[pos + 1..close];
        let key = if inner.bytes().all(|c| c.is_ascii_digit()) {
            // parseInt of a long run of digits: past any array index.
            Key::Index(inner.parse().unwrap_or(u64::MAX))
        } else {
            Key::Name(inner.to_owned())
        };
        if let Some(t) = steps.last_mut() {
            t.next_is_array = matches!(key, Key::Index(_));
        }
        steps.push(PathStep {
            key,
            append: false,
            next_is_array: false,
        });
        pos = close + 1;
    }
    steps
}

/// The form's values so far, with the hole budget.
#[derive(Debug, Default)]
pub(crate) struct Form {
    root: IndexMap<String, Node>,
    holes: usize,
}

impl Form {
    /// append-field's `appendField(req.body, name, value)`.
    pub(crate) fn append(&mut self, name: &str, value: Option<String>) -> Result<(), Refused> {
        let steps = parse_path(name);
        if steps.len() > MAX_DEPTH {
            return Err(Refused::Nesting);
        }
        let value = value.map_or(Node::Undefined, Node::Str);
        let holes = &mut self.holes;
        let (last, path) = steps.split_last().expect("a path has a first step");
        let mut ctx = Ctx::Obj(&mut self.root);
        for step in path {
            let Some(slot) = ctx.slot(&step.key, holes)? else {
                return Ok(());
            };
            match slot {
                Node::Undefined => {
                    *slot = if step.next_is_array {
                        Node::Arr(Vec::new())
                    } else {
                        Node::Obj(IndexMap::new())
                    };
                }
                Node::Arr(items) if !step.next_is_array => {
                    let obj = std::mem::take(items)
                        .into_iter()
                        .enumerate()
                        .filter(|(_, v)| !matches!(v, Node::Undefined))
                        .map(|(i, v)| (i.to_string(), v))
                        .collect();
                    *slot = Node::Obj(obj);
                }
                Node::Str(s) => {
                    let s = std::mem::take(s);
                    *slot = Node::Obj(IndexMap::from([(String::new(), Node::Str(s))]));
                }
                Node::Obj(_) | Node::Arr(_) => {}
            }
            ctx = match slot {
                Node::Obj(m) => Ctx::Obj(m),
                Node::Arr(a) => Ctx::Arr(a),
                _ => unreachable!("the slot was made a container above"),
            };
        }
        let Some(mut slot) = ctx.slot(&last.key, holes)? else {
            return Ok(());
        };
        let mut append = last.append;
        loop {
            match slot {
                Node::Undefined => {
                    *slot = if append {
                        Node::Arr(vec![value])
                    } else {
                        value
                    };
                }
                Node::Arr(items) => items.push(value),
                Node::Obj(m) => {
                    // A value for an object goes under its `''` key.
                    slot = m.entry(String::new()).or_default();
                    append = false;
                    continue;
                }
                Node::Str(s) => {
                    let s = std::mem::take(s);
                    *slot = Node::Arr(vec![Node::Str(s), value]);
                }
            }
            return Ok(());
        }
    }

    /// The form as JSON, keys in JavaScript's order.
    pub(crate) fn to_value(&self) -> Value {
        obj_value(&self.root)
    }
}

enum Ctx<'a> {
    Obj(&'a mut IndexMap<String, Node>),
    Arr(&'a mut Vec<Node>),
}

impl<'a> Ctx<'a> {
    /// The slot `key` names; `None` for a named property of an array,
    /// which JavaScript keeps out of JSON.
    fn slot(self, key: &Key, holes: &mut usize) -> Result<Option<&'a mut Node>, Refused> {
        Ok(Some(match (self, key) {
            (Ctx::Obj(m), Key::Name(k)) => m.entry(k.clone()).or_default(),
            (Ctx::Obj(m), Key::Index(i)) => m.entry(i.to_string()).or_default(),
            (Ctx::Arr(a), Key::Index(i)) => {
                let i = usize::try_from(*i).map_err(|_| Refused::ArrayIndex)?;
                if i >= a.len() {
                    *holes = holes.saturating_add(i - a.len());
                    if *holes > MAX_HOLES {
                        return Err(Refused::ArrayIndex);
                    }
                    a.resize_with(i + 1, Node::default);
                }
                &mut a[i]
            }
            (Ctx::Arr(_), Key::Name(_)) => return Ok(None),
        }))
    }
}

/// Whether `key` is a JavaScript array index (listed first, ascending).
fn array_index(key: &str) -> Option<u32> {
    crate::http::qs::array_index(key)
}

fn obj_value(m: &IndexMap<String, Node>) -> Value {
    let mut indexed: Vec<(u32, &String, &Node)> = Vec::new();
    let mut out = Map::new();
    for (k, v) in m {
        if let Some(i) = array_index(k) {
            indexed.push((i, k, v));
        }
    }
    crate::http::sort::sort_by_key(&mut indexed, |(i, _, _)| *i);
    for (_, k, v) in indexed {
        if let Some(v) = node_value(v) {
            out.insert(k.clone(), v);
        }
    }
    for (k, v) in m {
        if array_index(k).is_none()
            && let Some(v) = node_value(v)
        {
            out.insert(k.clone(), v);
        }
    }
    Value::Object(out)
}

/// `None` for `undefined` (left out of objects, `null` in arrays).
fn node_value(n: &Node) -> Option<Value> {
    Some(match n {
        Node::Undefined => return None,
        Node::Str(s) => Value::String(s.clone()),
        Node::Arr(a) => Value::Array(
            a.iter()
                .map(|v| node_value(v).unwrap_or(Value::Null))
                .collect(),
        ),
        Node::Obj(m) => obj_value(m),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn form(fields: &[(&str, &str)]) -> Value {
        let mut f = Form::default();
        for (k, v) in fields {
            f.append(k, Some((*v).to_owned())).unwrap();
        }
        f.to_value()
    }

    #[test]
    fn names_nest_and_repeat_as_append_field_reads_them() {
        assert_eq!(
            form(&[("a", "1"), ("a", "2"), ("a", "3")]),
            json!({"a": ["1", "2", "3"]})
        );
        assert_eq!(form(&[("a[]", "1")]), json!({"a": ["1"]}));
        assert_eq!(
            form(&[("a[b][c]", "1"), ("a[b][d]", "2")]),
            json!({"a": {"b": {"c": "1", "d": "2"}}})
        );
        assert_eq!(
            form(&[("a[1]", "x"), ("a[0]", "y")]),
            json!({"a": ["y", "x"]})
        );
        assert_eq!(form(&[("a[2]", "x")]), json!({"a": [null, null, "x"]}));
        assert_eq!(
            form(&[("a", "s"), ("a[b]", "t")]),
            json!({"a": {"": "s", "b": "t"}})
        );
        assert_eq!(
            form(&[("a[b]", "t"), ("a", "s")]),
            json!({"a": {"b": "t", "": "s"}})
        );
        assert_eq!(
            form(&[("a[0]", "x"), ("a[k]", "y")]),
            json!({"a": {"0": "x", "k": "y"}})
        );
        assert_eq!(
            form(&[("[x]", "1"), ("a[b", "2"), ("a[]b", "3")]),
            json!({"[x]": "1", "a[b": "2", "a[]b": "3"})
        );
        assert_eq!(
            form(&[("b", "1"), ("2", "x"), ("1", "y")]),
            json!({"1": "y", "2": "x", "b": "1"})
        );
        assert_eq!(
            form(&[("a[007]", "x")]).to_string(),
            r#"{"a":[null,null,null,null,null,null,null,"x"]}"#
        );
    }

    #[test]
    fn hostile_names_are_bounded() {
        let mut f = Form::default();
        assert_eq!(
            f.append("a[99999999999]", Some("x".into())),
            Err(Refused::ArrayIndex)
        );
        let deep = format!("a{}", "[b]".repeat(MAX_DEPTH));
        assert_eq!(f.append(&deep, Some("x".into())), Err(Refused::Nesting));
        let mut g = Form::default();
        g.append("u", None).unwrap();
        assert_eq!(g.to_value(), json!({}));
    }
}
