//! `req.params`: route parameters in capture order, serialised the way V8
//! enumerates object keys (integer-like keys first, ascending).

use std::sync::Arc;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::http::same_str;

/// The parameters of the matched layer (`req.params`).
///
/// ```
/// let mut p = webfw::Params::default();
/// p.set("id", "a");
/// p.set("0", "/b/c");
/// assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"0":"/b/c","id":"a"}"#);
/// ```
#[derive(Clone, Default)]
pub struct Params {
    /// Each name, and where its value lies in `values`.
    entries: Vec<(Arc<str>, usize, usize)>,
    /// The values, one after another: one buffer, recycled with the
    /// entries (see [`Params::recycled`]), so a request's params allocate
    /// nothing once a thread has served one. A replaced value's old text
    /// stays until the params are cleared.
    values: String,
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
            .find(|(k, _, _)| same_str(k, name))
            .map(|&(_, a, b)| &self.values[a..b])
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
        let name = name.into();
        let a = self.values.len();
        self.values.push_str(value.as_ref());
        let b = self.values.len();
        match self.entries.iter_mut().find(|(k, _, _)| same_str(k, &name)) {
            Some(slot) => (slot.1, slot.2) = (a, b),
            None => self.entries.push((name, a, b)),
        }
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
        let i = self.entries.iter().position(|(k, _, _)| &**k == name)?;
        let (_, a, b) = self.entries.remove(i);
        Some(self.values[a..b].to_owned())
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
            .map(|(k, a, b)| (&**k, &self.values[*a..*b]))
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
            Params::keep(std::mem::take(params));
        }
    }

    #[inline(never)]
    fn keep(mut params: Params) {
        params.entries.clear();
        params.values.clear();
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
        for (k, a, b) in &child.entries {
            let v = &child.values[*a..*b];
            match k.parse::<usize>() {
                Ok(i) if shift > 0 && is_index(k) => out.set((i + shift).to_string(), v),
                _ => out.set(k.clone(), v),
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
            map.insert(k.to_owned(), serde_json::Value::String(v.to_owned()));
        }
        serde_json::Value::Object(map)
    }

    fn ordered(&self) -> Vec<(&str, &str)> {
        let mut idx: Vec<(u64, &str, &str)> = Vec::new();
        let mut named: Vec<(&str, &str)> = Vec::new();
        for (k, v) in self.iter() {
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
        self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Params {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for Params {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ordered = self.ordered();
        let mut map = s.serialize_map(Some(ordered.len()))?;
        for (k, v) in ordered {
            map.serialize_entry(k, v)?;
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
    fn merge_params_child_wins_by_name() {
        let mut parent = Params::default();
        parent.set("userId", "7");
        let mut child = Params::default();
        child.set("userId", "8");
        assert_eq!(Params::merged(&parent, child).get("userId"), Some("8"));
    }
}
