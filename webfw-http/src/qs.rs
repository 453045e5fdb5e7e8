//! The `qs` query-string parser (6.16.2, and the charset options of 6.17 that body-parser 2
//! passes), as Express uses it.
//!
//! Express's "extended" query parser calls `qs.parse(str, { allowPrototypes: true, arrayLimit: 1000 })`
//! and `express.urlencoded({ extended: true })` calls it with `depth: 32, strictDepth: true` and
//! `arrayLimit: max(100, parameterCount)`. Every other qs option keeps its default: delimiter `&`,
//! no dot notation, duplicates combined, `strictMerge`, utf-8 charset, no comma splitting, arrays
//! compacted. [`QsOptions`] exposes only the options those two callers vary.
//!
//! The result is built the way qs builds it in JavaScript — sparse arrays, arrays that turn into
//! objects once they outgrow `arrayLimit` ("overflow" objects), `strictMerge` conflict arrays — and
//! objects enumerate their keys in V8's order (array-index keys ascending, then the others in
//! insertion order), so that `serde_json::to_string` of the result equals `JSON.stringify` of what
//! qs returns.
//!
//! Known gaps, unreachable with Express's settings: an `array_limit` above 2^32 − 1 acts as
//! 2^32 − 1 (a JavaScript array cannot be longer, and qs's behaviour past that is an accident of
//! the engine); and the bracket depth is capped at [`MAX_DEPTH`] so that deeply nested input
//! cannot exhaust the stack.
//!
//! ```
//! assert_eq!(webfw_http::qs::MAX_DEPTH, 1000);
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde_json::{Map, Value};

mod charset;
pub use charset::Charset;

/// The most bracket groups ever split off one key, whatever [`QsOptions::depth`] says.
///
/// Building and serialising the result recurses once per nesting level, so an unbounded depth
/// would let one request overflow the stack. Beyond it a key behaves as if `depth` were this
/// value (its remainder becomes one literal key, or [`QsError::DepthExceeded`] with
/// `strict_depth`).
///
/// ```
/// assert_eq!(webfw_http::qs::MAX_DEPTH, 1000);
/// ```
pub const MAX_DEPTH: usize = 1000;

/// The qs options that Express's callers set; all other qs options keep their defaults.
///
/// `Default` gives Express's query-parser settings (`depth` 5, `arrayLimit` 1000,
/// `parameterLimit` 1000, `strictDepth` false, `allowPrototypes` true, UTF-8, no sentinel, no
/// entities). qs 6.17's own `arrayLimit` default, 20, is `array_limit: 20`.
///
/// ```
/// use webfw_http::qs::QsOptions;
/// let urlencoded = QsOptions { depth: 32, array_limit: 100, strict_depth: true, ..QsOptions::default() };
/// assert_eq!(urlencoded.parameter_limit, 1000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QsOptions {
    /// How many bracket groups (`[b]`) are split off a key; the rest stays one literal key.
    /// Values above [`MAX_DEPTH`] act as [`MAX_DEPTH`].
    pub depth: usize,
    /// Indices `>=` this make objects instead of arrays, and arrays may hold at most this many
    /// elements before they turn into objects.
    pub array_limit: usize,
    /// How many `&`-separated parts are read; the rest of the input is ignored.
    pub parameter_limit: usize,
    /// Fail with [`QsError::DepthExceeded`] instead of keeping the remainder of a too-deep key.
    pub strict_depth: bool,
    /// Keep keys named like `Object.prototype` members (`hasOwnProperty`, `toString`, …).
    /// `__proto__` is dropped either way.
    pub allow_prototypes: bool,
    /// `charset`: how percent-escapes are decoded (default UTF-8).
    pub charset: Charset,
    /// `charsetSentinel`: a `utf8=` part (the `✓` a form sends) picks the charset and is
    /// dropped from the result.
    pub charset_sentinel: bool,
    /// `interpretNumericEntities`: in ISO-8859-1, `&#NNNN;` in a value becomes that character.
    pub interpret_numeric_entities: bool,
}

impl Default for QsOptions {
    fn default() -> Self {
        QsOptions {
            depth: 5,
            array_limit: 1000,
            parameter_limit: 1000,
            strict_depth: false,
            allow_prototypes: true,
            charset: Charset::Utf8,
            charset_sentinel: false,
            interpret_numeric_entities: false,
        }
    }
}

/// Why [`parse`] rejected its input.
///
/// ```
/// use webfw_http::qs::{parse, QsError, QsOptions};
/// let opts = QsOptions { depth: 1, strict_depth: true, ..QsOptions::default() };
/// let err = parse("a[b][c]=1", &opts).unwrap_err();
/// assert_eq!(err, QsError::DepthExceeded);
/// assert_eq!(err.to_string(), "The input exceeded the depth");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QsError {
    /// A key had more bracket groups than `depth` while `strict_depth` was set.
    DepthExceeded,
}

impl fmt::Display for QsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // body-parser's wording for qs's RangeError, which is what clients see.
            QsError::DepthExceeded => f.write_str("The input exceeded the depth"),
        }
    }
}

impl std::error::Error for QsError {}

/// Parses a query string (without the leading `?`) the way `qs.parse` does.
///
/// The result is always a JSON object whose leaves are strings.
///
/// ```
/// use webfw_http::qs::{parse, QsOptions};
/// let v = parse("a[]=1&a[]=2&b[c]=d+e&a[1000]=x", &QsOptions::default()).unwrap();
/// assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"a":{"0":"1","1":"2","1000":"x"},"b":{"c":"d e"}}"#);
/// let v = parse("x[1]=b&x[0]=a", &QsOptions::default()).unwrap();
/// assert_eq!(v, serde_json::json!({"x": ["a", "b"]}));
/// ```
pub fn parse(input: &str, opts: &QsOptions) -> Result<Value, QsError> {
    if input.is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    let cx = Cx {
        // A JS array never grows past 2^32 - 1 elements; larger limits behave like that one.
        limit: (opts.array_limit as f64).min(f64::from(u32::MAX)),
    };
    let flat = parse_values(input, opts, &cx);
    let mut root = Box::<Obj>::default();
    for (key, val) in flat.into_entries() {
        if key.is_empty() {
            continue;
        }
        let Some(segments) = split_key(&key, opts)? else {
            continue;
        };
        root = match parse_object(&segments, val, &cx) {
            Node::Obj(src) => {
                let overflow = src.overflow;
                merge_entries(root, src.into_entries(), overflow, &cx)
            }
            Node::Arr(src) => merge_entries(root, src.into_entries(), None, &cx),
            // A chain always yields a container; nothing to merge otherwise.
            Node::Str(_) => root,
        };
    }
    Ok(root.into_value())
}

// ---------------------------------------------------------------------------------------------
// The JavaScript-shaped intermediate tree.

/// Shared numeric settings (qs compares JS numbers, so the limit is kept as one).
struct Cx {
    limit: f64,
}

/// A qs value under construction. Containers are boxed to keep recursion frames small.
enum Node {
    Str(String),
    Arr(Box<Arr>),
    Obj(Box<Obj>),
}

impl Default for Node {
    fn default() -> Self {
        Node::Str(String::new())
    }
}

impl Node {
    /// `x && typeof x === 'object'` in qs.
    fn is_container(&self) -> bool {
        !matches!(self, Node::Str(_))
    }

    fn into_value(self) -> Value {
        match self {
            Node::Str(s) => Value::String(s),
            // Holes vanish here: qs `compact`s every array before returning.
            Node::Arr(a) => Value::Array(a.items.into_values().map(Node::into_value).collect()),
            Node::Obj(o) => o.into_value(),
        }
    }
}

/// A JS array: possibly sparse, `len` is its `length`.
#[derive(Default)]
struct Arr {
    items: BTreeMap<u64, Node>,
    len: u64,
    /// Set on a `strictMerge` conflict pair: the last index appended as a conflict.
    conflict: Option<f64>,
}

impl Arr {
    fn push(&mut self, v: Node) {
        self.items.insert(self.len, v);
        self.len += 1;
    }

    /// Appends like `Array.prototype.concat`: arrays are spread (holes kept), others pushed.
    fn concat(&mut self, v: Node) {
        match v {
            Node::Arr(a) => {
                let base = self.len;
                for (i, x) in a.items {
                    self.items.insert(base + i, x);
                }
                self.len = base + a.len;
            }
            other => self.push(other),
        }
    }

    fn into_entries(self) -> Vec<(String, Node)> {
        self.items
            .into_iter()
            .map(|(i, v)| (i.to_string(), v))
            .collect()
    }

    /// `utils.arrayToObject`: indices become keys, holes are skipped, marks are not carried.
    fn into_obj(self) -> Box<Obj> {
        let mut o = Box::<Obj>::default();
        for (i, v) in self.items {
            o.insert_index(i, v);
        }
        o
    }

    /// An array that outgrew `arrayLimit`: the object qs marks as overflow at `length - 1`.
    fn into_overflow(self) -> Box<Obj> {
        let max = self.len as f64 - 1.0;
        let mut o = self.into_obj();
        o.overflow = Some(max);
        o
    }

    /// Returns the array, or its overflow object once it holds more than `arrayLimit` slots.
    fn limited(self: Box<Self>, cx: &Cx) -> Node {
        if self.len as f64 > cx.limit {
            Node::Obj(self.into_overflow())
        } else {
            Node::Arr(self)
        }
    }
}

/// A JS object; keys enumerate like V8's: array indices ascending, then the rest by insertion.
#[derive(Default)]
struct Obj {
    indexed: BTreeMap<u32, Node>,
    named: Vec<(String, Node)>,
    positions: HashMap<String, usize>,
    /// qs's overflow mark: the highest numeric key, where the next pushed value goes after.
    overflow: Option<f64>,
    /// qs's strictMerge conflict mark, same meaning as on [`Arr`].
    conflict: Option<f64>,
}

impl Obj {
    fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        match array_index(key) {
            Some(i) => self.indexed.get_mut(&i),
            None => {
                let pos = *self.positions.get(key)?;
                Some(&mut self.named[pos].1)
            }
        }
    }

    fn insert(&mut self, key: String, v: Node) {
        match array_index(&key) {
            Some(i) => {
                self.indexed.insert(i, v);
            }
            None => self.insert_named(key, v),
        }
    }

    fn insert_index(&mut self, i: u64, v: Node) {
        match u32::try_from(i) {
            Ok(i) if i < u32::MAX => {
                self.indexed.insert(i, v);
            }
            _ => self.insert_named(i.to_string(), v),
        }
    }

    fn insert_named(&mut self, key: String, v: Node) {
        if let Some(&pos) = self.positions.get(&key) {
            self.named[pos].1 = v;
        } else {
            self.positions.insert(key.clone(), self.named.len());
            self.named.push((key, v));
        }
    }

    /// `Object.keys` order with values, consuming the object.
    fn into_entries(self) -> Vec<(String, Node)> {
        let mut out = Vec::with_capacity(self.indexed.len() + self.named.len());
        out.extend(self.indexed.into_iter().map(|(i, v)| (i.to_string(), v)));
        out.extend(self.named);
        out
    }

    /// The largest canonical numeric key, at least `min` (`maxNumericIndex` in qs).
    fn max_numeric_key(&self, min: f64) -> f64 {
        let mut max = min;
        if let Some((&i, _)) = self.indexed.last_key_value() {
            max = max.max(f64::from(i));
        }
        for (k, _) in &self.named {
            if let Some(n) = canonical_index(k) {
                max = max.max(n);
            }
        }
        max
    }

    fn into_value(self) -> Value {
        let o = self;
        let mut map = Map::with_capacity(o.indexed.len() + o.named.len());
        for (i, v) in o.indexed {
            map.insert(i.to_string(), v.into_value());
        }
        for (k, v) in o.named {
            map.insert(k, v.into_value());
        }
        Value::Object(map)
    }
}

// ---------------------------------------------------------------------------------------------
// Stage 1: split on `&` and `=`, decode, combine duplicate keys (qs `parseValues`).

fn parse_values(input: &str, opts: &QsOptions, cx: &Cx) -> Obj {
    let clean = unescape_brackets(input);
    // A null-prototype object in qs, so it enumerates in V8 order too (which matters: `0=x`
    // is processed before `a=y` whatever their order in the input).
    let mut flat = Obj::default();
    let parts = || clean.split('&').take(opts.parameter_limit);
    let (cs, skip) = if opts.charset_sentinel {
        charset::sentinel(parts(), opts.charset)
    } else {
        (opts.charset, None)
    };
    let entities = opts.interpret_numeric_entities && cs == Charset::Iso88591;
    for (i, part) in parts().enumerate() {
        if skip == Some(i) {
            continue;
        }
        // `a[b]=c=d` splits after `]`, so `=` inside a bracketed key's value stays in the value.
        let pos = match part.find("]=") {
            Some(p) => Some(p + 1),
            None => part.find('='),
        };
        let (key, mut val) = match pos {
            None => (charset::decode(part, cs), String::new()),
            Some(p) => (
                charset::decode(&part[..p], cs),
                charset::decode(&part[p + 1..], cs),
            ),
        };
        if entities && let Cow::Owned(v) = charset::numeric_entities(&val) {
            val = v;
        }
        match flat.get_mut(&key) {
            Some(slot) => {
                let old = std::mem::take(slot);
                *slot = combine(old, Node::Str(val), cx);
            }
            None => flat.insert(key, Node::Str(val)),
        }
    }
    flat
}

/// qs replaces `%5B`/`%5D` (any case) before splitting, so encoded brackets act as brackets.
fn unescape_brackets(input: &str) -> Cow<'_, str> {
    let b = input.as_bytes();
    let is_escape = |i: usize| {
        b[i] == b'%'
            && i + 2 < b.len()
            && b[i + 1] == b'5'
            && matches!(b[i + 2], b'B' | b'b' | b'D' | b'd')
    };
    let Some(first) = (0..b.len()).find(|&i| is_escape(i)) else {
        return Cow::Borrowed(input);
    };
    let mut out = String::with_capacity(input.len());
    out.push_str(&input[..first]);
    let mut i = first;
    let mut last = first;
    while i < b.len() {
        if is_escape(i) {
            out.push_str(&input[last..i]);
            out.push(if matches!(b[i + 2], b'B' | b'b') {
                '['
            } else {
                ']'
            });
            i += 3;
            last = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&input[last..]);
    Cow::Owned(out)
}

/// JavaScript's `decodeURIComponent`; `None` where it throws a `URIError`.
///
/// Every `%` must start `%XX`, and the escaped bytes must form valid UTF-8. Decoding all
/// escapes and validating the whole byte string is equivalent, because literal text is
/// already valid UTF-8 and so can neither complete nor continue an escaped sequence.
#[doc(hidden)]
pub fn decode_uri_component(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hi = b.get(i + 1).copied().and_then(hex_value)?;
            let lo = b.get(i + 2).copied().and_then(hex_value)?;
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The value of one ASCII hex digit.
pub(super) fn hex_value(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// `utils.combine(a, b)`: `[].concat(a, b)` with the arrayLimit rule, or an append to an
/// overflow object. Reuses `a`'s array so repeated keys stay linear.
fn combine(a: Node, b: Node, cx: &Cx) -> Node {
    match a {
        Node::Obj(mut o) if o.overflow.is_some() => {
            let mut next = o.overflow.unwrap_or(0.0);
            match b {
                // qs spreads an array one level; holes would be `undefined`, which
                // JSON.stringify drops, so they only advance the index.
                Node::Arr(arr) => {
                    for (i, v) in arr.items {
                        o.insert(js_number_key(next + i as f64 + 1.0), v);
                    }
                    next += arr.len as f64;
                }
                other => {
                    next += 1.0;
                    o.insert(js_number_key(next), other);
                }
            }
            o.overflow = Some(next);
            Node::Obj(o)
        }
        Node::Arr(mut arr) => {
            // concat builds a fresh array, so any conflict mark is gone.
            arr.conflict = None;
            arr.concat(b);
            arr.limited(cx)
        }
        other => {
            let mut arr = Box::<Arr>::default();
            arr.concat(other);
            arr.concat(b);
            arr.limited(cx)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Stage 2: split each key into bracket segments and build its one-path tree (qs `parseKeys`).

/// `Object.prototype`'s own property names in Node 20 (what `allowPrototypes: false` guards).
const PROTOTYPE_KEYS: [&str; 12] = [
    "constructor",
    "__defineGetter__",
    "__defineSetter__",
    "hasOwnProperty",
    "__lookupGetter__",
    "__lookupSetter__",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toString",
    "valueOf",
    "__proto__",
    "toLocaleString",
];

fn is_prototype_key(s: &str) -> bool {
    PROTOTYPE_KEYS.contains(&s)
}

/// qs `splitKeyIntoSegments`: `a[b][c[]]` → `a`, `[b]`, `[c[]]`. `Ok(None)` drops the key.
fn split_key<'k>(key: &'k str, opts: &QsOptions) -> Result<Option<Vec<Cow<'k, str>>>, QsError> {
    let guard = |s: &str| !opts.allow_prototypes && is_prototype_key(s);
    let depth = opts.depth.min(MAX_DEPTH);
    if depth == 0 {
        // `parse_object` strips one wrapping bracket pair (`[toString]` is `toString`), so
        // that is the name to guard.
        let stored = key
            .strip_prefix('[')
            .and_then(|k| k.strip_suffix(']'))
            .unwrap_or(key);
        return Ok((!guard(stored)).then(|| vec![Cow::Borrowed(key)]));
    }
    let mut segments = Vec::new();
    let first = key.find('[');
    let parent = first.map_or(key, |f| &key[..f]);
    if !parent.is_empty() {
        if guard(parent) {
            return Ok(None);
        }
        segments.push(Cow::Borrowed(parent));
    }
    let b = key.as_bytes();
    let mut open = first;
    let mut collected = 0;
    while let Some(o) = open {
        if collected >= depth {
            break;
        }
        // Balance nested brackets: `[c[]]` is one group.
        let mut level = 1usize;
        let mut close = None;
        for (i, &c) in b.iter().enumerate().skip(o + 1) {
            if c == b'[' {
                level += 1;
            } else if c == b']' {
                level -= 1;
                if level == 0 {
                    close = Some(i);
                    break;
                }
            }
        }
        let Some(c) = close else {
            // Unterminated group: the raw remainder becomes one literal segment.
            segments.push(Cow::Owned(format!("[{}]", &key[o..])));
            return Ok(Some(segments));
        };
        if guard(&key[o + 1..c]) {
            return Ok(None);
        }
        segments.push(Cow::Borrowed(&key[o..=c]));
        collected += 1;
        // Text between groups is ignored, as in qs.
        open = key[c + 1..].find('[').map(|p| p + c + 1);
    }
    if let Some(o) = open {
        if opts.strict_depth {
            return Err(QsError::DepthExceeded);
        }
        segments.push(Cow::Owned(format!("[{}]", &key[o..])));
    }
    Ok(Some(segments))
}

/// qs `parseObject`: wraps the value in one container per segment, innermost first.
fn parse_object(chain: &[Cow<'_, str>], val: Node, cx: &Cx) -> Node {
    let mut leaf = val;
    for root in chain.iter().rev() {
        let root: &str = root;
        leaf = if root == "[]" {
            match leaf {
                Node::Obj(o) if o.overflow.is_some() => Node::Obj(o),
                other => combine(Node::Arr(Box::default()), other, cx),
            }
        } else {
            let clean = if root.len() >= 2 && root.starts_with('[') && root.ends_with(']') {
                &root[1..root.len() - 1]
            } else {
                root
            };
            // Only a bracketed canonical integer is an index (`a[0]`, not `0` or `a[00]`).
            let index = if clean.len() != root.len() {
                canonical_index(clean)
            } else {
                None
            };
            match index {
                Some(i) if i < cx.limit => {
                    let mut arr = Box::<Arr>::default();
                    // i < limit <= usize::MAX, and it is an integer, so the cast is exact.
                    let i = i as u64;
                    arr.items.insert(i, leaf);
                    arr.len = i + 1;
                    Node::Arr(arr)
                }
                Some(i) => {
                    let mut o = Box::<Obj>::default();
                    o.insert(clean.to_owned(), leaf);
                    o.overflow = Some(i);
                    Node::Obj(o)
                }
                // qs never sets `__proto__`: the level becomes an empty object.
                None if clean == "__proto__" => Node::Obj(Box::default()),
                None => {
                    let mut o = Box::<Obj>::default();
                    o.insert(clean.to_owned(), leaf);
                    Node::Obj(o)
                }
            }
        };
    }
    leaf
}

// ---------------------------------------------------------------------------------------------
// Stage 3: merge each key's tree into the result (qs `utils.merge` with strictMerge).

fn merge(target: Node, source: Node, cx: &Cx) -> Node {
    match source {
        // `if (!source) return target`: an empty string never overwrites anything.
        Node::Str(s) if s.is_empty() => target,
        Node::Str(s) => merge_primitive(target, s, cx),
        Node::Arr(src) => match target {
            Node::Str(t) => prepend(t, Node::Arr(src), cx),
            Node::Arr(dst) => merge_arrays(dst, *src, cx),
            Node::Obj(dst) => Node::Obj(merge_entries(dst, src.into_entries(), None, cx)),
        },
        Node::Obj(src) => match target {
            Node::Str(t) if src.overflow.is_some() => Node::Obj(shift_overflow(t, *src)),
            Node::Str(t) => prepend(t, Node::Obj(src), cx),
            Node::Arr(dst) => {
                let conflict = dst.conflict.is_some();
                let len = dst.len;
                let mut acc = dst.into_obj();
                if conflict {
                    // Later conflicts continue after the array's last slot.
                    acc.conflict = Some(len as f64 - 1.0);
                }
                let overflow = src.overflow;
                Node::Obj(merge_entries(acc, src.into_entries(), overflow, cx))
            }
            Node::Obj(dst) => {
                let overflow = src.overflow;
                Node::Obj(merge_entries(dst, src.into_entries(), overflow, cx))
            }
        },
    }
}

/// Merging a non-empty string into `target`.
fn merge_primitive(target: Node, s: String, cx: &Cx) -> Node {
    match target {
        Node::Arr(mut arr) => {
            let next = arr.len;
            if next as f64 >= cx.limit {
                let mut o = arr.into_obj();
                o.insert_index(next, Node::Str(s));
                o.overflow = Some(next as f64);
                Node::Obj(o)
            } else {
                arr.push(Node::Str(s));
                Node::Arr(arr)
            }
        }
        Node::Obj(mut o) => {
            if let Some(max) = o.overflow {
                o.insert(js_number_key(max + 1.0), Node::Str(s));
                o.overflow = Some(max + 1.0);
                Node::Obj(o)
            } else if let Some(last) = o.conflict {
                o.insert(js_number_key(last + 1.0), Node::Str(s));
                o.conflict = Some(last + 1.0);
                Node::Obj(o)
            } else {
                limited_pair(Node::Obj(o), Node::Str(s), true, cx)
            }
        }
        t @ Node::Str(_) => limited_pair(t, Node::Str(s), false, cx),
    }
}

/// qs `limitedPair`: `[first, second]`, or an overflow object when arrayLimit < 2.
fn limited_pair(first: Node, second: Node, mark_conflict: bool, cx: &Cx) -> Node {
    let mut pair = Box::<Arr>::default();
    pair.push(first);
    pair.push(second);
    match pair.limited(cx) {
        Node::Arr(mut arr) => {
            if mark_conflict {
                arr.conflict = Some(1.0);
            }
            Node::Arr(arr)
        }
        other => other,
    }
}

/// `[target].concat(source)` with the arrayLimit rule.
fn prepend(t: String, source: Node, cx: &Cx) -> Node {
    let mut arr = Box::<Arr>::default();
    arr.push(Node::Str(t));
    arr.concat(source);
    arr.limited(cx)
}

/// A string meeting an overflow object: the string takes key 0 and every key shifts up by one.
fn shift_overflow(t: String, src: Obj) -> Box<Obj> {
    let max = src.overflow.unwrap_or(0.0);
    let mut out = Box::<Obj>::default();
    out.insert_index(0, Node::Str(t));
    for (k, v) in src.into_entries() {
        out.insert(js_number_key(js_parse_int(&k) + 1.0), v);
    }
    out.overflow = Some(max + 1.0);
    out
}

/// Array into array: same indices merge when both are containers, else the value is appended.
fn merge_arrays(mut dst: Box<Arr>, src: Arr, cx: &Cx) -> Node {
    for (i, item) in src.items {
        match dst.items.get_mut(&i) {
            Some(slot) if slot.is_container() && item.is_container() => {
                let old = std::mem::take(slot);
                *slot = merge(old, item, cx);
            }
            Some(_) => dst.push(item),
            None => {
                dst.items.insert(i, item);
                dst.len = dst.len.max(i + 1);
            }
        }
    }
    dst.limited(cx)
}

/// The `Object.keys(source).reduce(...)` half of qs `merge`, including its overflow and
/// conflict index bookkeeping.
fn merge_entries(
    mut acc: Box<Obj>,
    entries: Vec<(String, Node)>,
    source_overflow: Option<f64>,
    cx: &Cx,
) -> Box<Obj> {
    for (key, value) in entries {
        let numeric = canonical_index(&key);
        match acc.get_mut(&key) {
            Some(slot) => {
                let old = std::mem::take(slot);
                *slot = merge(old, value, cx);
            }
            None => acc.insert(key, value),
        }
        if let Some(src_max) = source_overflow
            && acc.overflow.is_none()
        {
            acc.overflow = Some(acc.max_numeric_key(src_max));
        }
        if let Some(n) = numeric {
            if let Some(max) = acc.overflow
                && n > max
            {
                acc.overflow = Some(n);
            }
            if let Some(last) = acc.conflict
                && n > last
            {
                acc.conflict = Some(n);
            }
        }
    }
    acc
}

// ---------------------------------------------------------------------------------------------
// JavaScript number and property-key helpers.

/// The V8 "array index" a property key denotes: canonical decimal below 2^32 − 1.
#[doc(hidden)]
pub fn array_index(key: &str) -> Option<u32> {
    let b = key.as_bytes();
    if b.is_empty() || b.len() > 10 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if b.len() > 1 && b[0] == b'0' {
        return None;
    }
    let n: u64 = key.parse().ok()?;
    u32::try_from(n).ok().filter(|&n| n < u32::MAX)
}

/// `n` when `String(parseInt(s, 10)) === s` and `n >= 0`: the keys qs treats as indices.
fn canonical_index(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 21 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if b.len() > 1 && b[0] == b'0' {
        return None;
    }
    let n: f64 = s.parse().ok()?;
    (js_number_key(n) == s).then_some(n)
}

/// `String(n)` for the numbers qs uses as keys.
fn js_number_key(n: f64) -> String {
    if n.is_nan() {
        "NaN".to_owned()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
    } else if n == 0.0 {
        "0".to_owned()
    } else if n.abs() < 1e21 {
        // Rust prints the shortest round-trip digits padded with zeros, like JS below 1e21.
        format!("{n}")
    } else {
        // JS writes `1e+21` where Rust writes `1e21`.
        format!("{n:e}").replace("e", "e+").replace("e+-", "e-")
    }
}

/// `parseInt(s, 10)`: optional whitespace and sign, then the leading digits; NaN without any.
fn js_parse_int(s: &str) -> f64 {
    let t = s.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let end = digits
        .bytes()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    match digits[..end].parse::<f64>() {
        Ok(n) if end > 0 => {
            if neg {
                -n
            } else {
                n
            }
        }
        _ => f64::NAN,
    }
}

#[cfg(test)]
mod tests;
