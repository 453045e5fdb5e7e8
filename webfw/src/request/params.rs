//! `req.params`: route parameters in capture order, serialised the way V8
//! enumerates object keys (integer-like keys first, ascending).

use std::sync::Arc;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::http::same_str;

/// The parameters of the matched layer (`req.params`).
///
/// A value is text, or (an Express 5 wildcard `*name`) an array of
/// segments: [`Params::get`] gives an array joined with `/`,
/// [`Params::list`] its parts.
///
/// ```
/// let mut p = webfw::Params::default();
/// p.set("id", "a");
/// p.set("0", "/b/c");
/// p.set_list("rest", ["x", "y"]);
/// assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"0":"/b/c","id":"a","rest":["x","y"]}"#);
/// ```
#[derive(Clone, Default)]
pub struct Params {
    /// Each name, and where its value lies in `values`.
    entries: Vec<Entry>,
    /// The values, one after another: one buffer, recycled with the
    /// entries (see [`Params::recycled`]), so a request's params allocate
    /// nothing once a thread has served one. A replaced value's old text
    /// stays until the params are cleared.
    values: String,
    /// Array values (Express 5 wildcards): boxed, so that params without
    /// any cost one pointer to move and drop.
    arrays: Option<Box<Arrays>>,
}

/// Where the parts of array values lie.
#[derive(Clone, Default)]
struct Arrays {
    /// The spans in `values` of the parts.
    parts: Vec<(usize, usize)>,
    /// Each array value's range of `parts`, which [`Entry::list`] indexes
    /// (kept apart so that an entry stays 32 bytes).
    lists: Vec<(u32, u32)>,
}

#[derive(Clone)]
struct Entry {
    name: Arc<str>,
    /// the value (an array's parts joined with `/`)
    a: u32,
    b: u32,
    /// an array's index in `lists`, else [`NO_LIST`]
    list: u32,
}

const NO_LIST: u32 = u32::MAX;

impl Entry {
    fn span(&self) -> std::ops::Range<usize> {
        self.a as usize..self.b as usize
    }
}

/// A value as JSON shows it.
enum Value<'a> {
    Text(&'a str),
    List(Vec<&'a str>),
}

impl Serialize for Value<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Text(t) => s.serialize_str(t),
            Value::List(l) => l.serialize(s),
        }
    }
}

impl std::fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Text(t) => t.fmt(f),
            Value::List(l) => l.fmt(f),
        }
    }
}

thread_local! {
    static SPARE: std::cell::Cell<Option<Params>> = const { std::cell::Cell::new(None) };
}

impl Params {
    /// The value of a parameter.
    ///
    /// ```
    /// let mut p = webfw::Params::default();
    /// p.set("id", "7");
    /// assert_eq!(p.get("id"), Some("7"));
    /// ```
    pub fn get(&self, name: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| same_str(&e.name, name))
            .map(|e| &self.values[e.span()])
    }

    /// The parts of an array value (an Express 5 wildcard); `None` when
    /// the parameter is absent or text.
    ///
    /// ```
    /// let mut p = webfw::Params::default();
    /// p.set_list("rest", ["a/b", "c"]);
    /// assert_eq!(p.get("rest"), Some("a/b/c"));
    /// assert_eq!(p.list("rest").unwrap().collect::<Vec<_>>(), ["a/b", "c"]);
    /// p.set("id", "7");
    /// assert!(p.list("id").is_none());
    /// ```
    pub fn list(&self, name: &str) -> Option<impl Iterator<Item = &str>> {
        let e = self.entries.iter().find(|e| same_str(&e.name, name))?;
        Some(self.parts_of(self.list_of(e)?))
    }

    fn parts_of(&self, (from, to): (u32, u32)) -> impl Iterator<Item = &str> {
        let parts = self.arrays.as_ref().map_or(&[][..], |a| &a.parts[..]);
        parts[from as usize..to as usize]
            .iter()
            .map(|&(a, b)| &self.values[a..b])
    }

    fn list_of(&self, e: &Entry) -> Option<(u32, u32)> {
        let arrays = self.arrays.as_ref().filter(|_| e.list != NO_LIST)?;
        Some(arrays.lists[e.list as usize])
    }

    fn value(&self, e: &Entry) -> Value<'_> {
        match self.list_of(e) {
            Some(range) => Value::List(self.parts_of(range).collect()),
            None => Value::Text(&self.values[e.span()]),
        }
    }

    /// Sets (or replaces) a parameter with an array value, as Express 5
    /// does for a wildcard `*name`.
    ///
    /// ```
    /// let mut p = webfw::Params::default();
    /// p.set_list("path", ["a", "b.txt"]);
    /// assert_eq!(p.to_json().to_string(), r#"{"path":["a","b.txt"]}"#);
    /// ```
    pub fn set_list<S: AsRef<str>>(
        &mut self,
        name: impl Into<Arc<str>>,
        parts: impl IntoIterator<Item = S>,
    ) {
        let arrays = self.arrays.get_or_insert_default();
        let from = arrays.parts.len() as u32;
        let a = self.values.len();
        for (i, part) in parts.into_iter().enumerate() {
            if i > 0 {
                self.values.push('/');
            }
            let s = self.values.len();
            self.values.push_str(part.as_ref());
            arrays.parts.push((s, self.values.len()));
        }
        arrays.lists.push((from, arrays.parts.len() as u32));
        let list = (arrays.lists.len() - 1) as u32;
        self.put(name.into(), a, list);
    }

    /// Points `name` at `values[a..]` (just written); `list` is its index
    /// in `lists`, or [`NO_LIST`].
    #[inline]
    fn put(&mut self, name: Arc<str>, a: usize, list: u32) {
        let (a, b) = (a as u32, self.values.len() as u32);
        match self.entries.iter_mut().find(|e| same_str(&e.name, &name)) {
            Some(slot) => (slot.a, slot.b, slot.list) = (a, b, list),
            None => self.entries.push(Entry { name, a, b, list }),
        }
    }

    /// Sets (or replaces) a parameter.
    ///
    /// ```
    /// let mut p = webfw::Params::default();
    /// p.set("id", "1");
    /// p.set("id", "2");
    /// assert_eq!(p.len(), 1);
    /// assert_eq!(p.get("id"), Some("2"));
    /// ```
    pub fn set(&mut self, name: impl Into<Arc<str>>, value: impl AsRef<str>) {
        let a = self.values.len();
        self.values.push_str(value.as_ref());
        self.put(name.into(), a, NO_LIST);
    }

    /// Removes a parameter.
    ///
    /// ```
    /// let mut p = webfw::Params::default();
    /// p.set("id", "1");
    /// assert_eq!(p.remove("id").as_deref(), Some("1"));
    /// assert!(p.is_empty());
    /// ```
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.entries.iter().position(|e| &*e.name == name)?;
        let e = self.entries.remove(i);
        Some(self.values[e.span()].to_owned())
    }

    /// Number of parameters.
    ///
    /// ```
    /// assert_eq!(webfw::Params::default().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no parameters.
    ///
    /// ```
    /// assert!(webfw::Params::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The parameters in capture order.
    ///
    /// ```
    /// let mut p = webfw::Params::default();
    /// p.set("a", "1");
    /// assert_eq!(p.iter().next(), Some(("a", "1")));
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries
            .iter()
            .map(|e| (&*e.name, &self.values[e.span()]))
    }

    /// Empty params with the buffers of earlier ones, if the thread kept any.
    pub(crate) fn recycled() -> Params {
        SPARE
            .try_with(std::cell::Cell::take)
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Empties `params`, keeping their buffers for [`Params::recycled`].
    /// Params that never allocated cost one check.
    #[inline]
    pub(crate) fn recycle(params: &mut Params) {
        if params.entries.capacity() != 0 || params.values.capacity() != 0 {
            // (arrays only ever grow with `values`)
            Params::keep(std::mem::take(params));
        }
    }

    #[inline(never)]
    fn keep(mut params: Params) {
        params.entries.clear();
        params.values.clear();
        if let Some(arrays) = &mut params.arrays {
            arrays.parts.clear();
            arrays.lists.clear();
        }
        let _ = SPARE.try_with(|spare| spare.set(Some(params)));
    }

    /// `mergeParams`: the parent's parameters, overridden by the child's; when both
    /// have numbered keys the child's are shifted past the parent's.
    pub(crate) fn merged(parent: &Params, mut child: Params) -> Params {
        let mut out = parent.clone();
        let parent_numbered = (0..)
            .take_while(|i: &usize| parent.get(&i.to_string()).is_some())
            .count();
        let shift = if parent_numbered > 0 && child.get("0").is_some() {
            parent_numbered
        } else {
            0
        };
        for e in &child.entries {
            let k = &e.name;
            let name: Arc<str> = match k.parse::<usize>() {
                Ok(i) if shift > 0 && is_index(k) => Arc::from((i + shift).to_string()),
                _ => k.clone(),
            };
            match child.list_of(e) {
                Some(range) => out.set_list(name, child.parts_of(range)),
                None => out.set(name, &child.values[e.span()]),
            }
        }
        Params::recycle(&mut child);
        out
    }

    /// The parameters as a JSON object, keys ordered as `JSON.stringify` would.
    ///
    /// ```
    /// let mut p = webfw::Params::default();
    /// p.set("b", "2");
    /// p.set("1", "x");
    /// assert_eq!(p.to_json().to_string(), r#"{"1":"x","b":"2"}"#);
    /// ```
    pub fn to_json(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        for (k, v) in self.ordered() {
            let v = match v {
                Value::Text(t) => serde_json::Value::String(t.to_owned()),
                Value::List(l) => l.into_iter().map(serde_json::Value::from).collect(),
            };
            map.insert(k.to_owned(), v);
        }
        serde_json::Value::Object(map)
    }

    fn ordered(&self) -> Vec<(&str, Value<'_>)> {
        let mut idx: Vec<(u64, &str, Value<'_>)> = Vec::new();
        let mut named: Vec<(&str, Value<'_>)> = Vec::new();
        for e in &self.entries {
            let (k, v) = (&*e.name, self.value(e));
            match k.parse::<u64>() {
                Ok(n) if is_index(k) => idx.push((n, k, v)),
                _ => named.push((k, v)),
            }
        }
        crate::http::sort::sort_by_key(&mut idx, |e| e.0);
        idx.into_iter()
            .map(|(_, k, v)| (k, v))
            .chain(named)
            .collect()
    }
}

/// A canonical array index as V8 orders it: digits without leading zeros, < 2^32 - 1.
fn is_index(k: &str) -> bool {
    !k.is_empty()
        && k.bytes().all(|b| b.is_ascii_digit())
        && (k == "0" || !k.starts_with('0'))
        && k.parse::<u64>().is_ok_and(|n| n < u64::from(u32::MAX))
}

impl PartialEq for Params {
    fn eq(&self, other: &Params) -> bool {
        self.entries.len() == other.entries.len()
            && self.entries.iter().zip(&other.entries).all(|(a, b)| {
                a.name == b.name
                    && self.values[a.span()] == other.values[b.span()]
                    && match (self.list_of(a), other.list_of(b)) {
                        (None, None) => true,
                        (Some(x), Some(y)) => self.parts_of(x).eq(other.parts_of(y)),
                        _ => false,
                    }
            })
    }
}

impl std::fmt::Debug for Params {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|e| (&*e.name, self.value(e))))
            .finish()
    }
}

impl Serialize for Params {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ordered = self.ordered();
        let mut map = s.serialize_map(Some(ordered.len()))?;
        for (k, v) in ordered {
            map.serialize_entry(k, &v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recycled_params_come_back_empty_with_their_buffers() {
        let mut p = Params::default();
        p.set("id", "a-long-value");
        p.set("id", "2");
        assert_eq!(p.get("id"), Some("2"));
        let mut fresh = Params::default();
        fresh.set("id", "2");
        assert_eq!(p, fresh, "replaced text is not compared");
        let values = p.values.capacity();
        Params::recycle(&mut p);
        assert!(p.is_empty());
        let again = Params::recycled();
        assert!(again.is_empty());
        assert_eq!(again.get("id"), None);
        assert_eq!(again.values.capacity(), values);
        assert_eq!(
            Params::recycled().values.capacity(),
            0,
            "one spare per thread"
        );
    }

    #[test]
    fn merge_params_shifts_child_indexes_past_parent() {
        let mut parent = Params::default();
        parent.set("0", "10");
        let mut child = Params::default();
        child.set("0", "profile");
        child.set("1", "json");
        let m = Params::merged(&parent, child);
        assert_eq!(
            m.to_json().to_string(),
            r#"{"0":"10","1":"profile","2":"json"}"#
        );
    }

    #[test]
    fn arrays_survive_merging_and_compare_by_parts() {
        let mut parent = Params::default();
        parent.set_list("rest", ["a", "b"]);
        let mut child = Params::default();
        child.set_list("more", ["a/b"]);
        child.set("id", "1");
        let m = Params::merged(&parent, child);
        assert_eq!(
            m.to_json().to_string(),
            r#"{"rest":["a","b"],"more":["a/b"],"id":"1"}"#
        );
        assert_eq!(
            format!("{m:?}"),
            r#"{"rest": ["a", "b"], "more": ["a/b"], "id": "1"}"#
        );
        let mut text = Params::default();
        text.set("rest", "a/b");
        let mut list = Params::default();
        list.set_list("rest", ["a", "b"]);
        assert_ne!(text, list);
        let mut split = Params::default();
        split.set_list("rest", ["a/b"]);
        assert_ne!(split, list);
        list.set("rest", "x");
        assert!(list.list("rest").is_none());
    }

    #[test]
    fn merge_params_child_wins_by_name() {
        let mut parent = Params::default();
        parent.set("userId", "7");
        let mut child = Params::default();
        child.set("userId", "8");
        assert_eq!(Params::merged(&parent, child).get("userId"), Some("8"));
    }
}
