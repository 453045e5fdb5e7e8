//! Regex-free matchers for the two most common shapes of string paths, with
//! exactly the semantics of the regex path-to-regexp builds for them:
//!
//! * [`Literal`]: no parameters and no regex syntax (`/plaintext`, a
//!   `use("/mw")` mount path);
//! * [`Segments`]: literal text and whole-segment parameters `/:name` (also
//!   `/:name?`), e.g. `/users/:id/books/:bookId`. Such a parameter is
//!   `(?:\/([^/]+?))` followed by a `/` or the end, so it always spans up to
//!   the next `/`; the only choices are whether optional parameters are
//!   present (tried first, as the greedy `?` does).

use crate::Options;

/// Characters that make a path more than literal text for path-to-regexp.
const SPECIAL: &[char] = &[
    '\\', '(', ')', '[', ']', '{', '}', '|', '^', '$', '+', '?', '*', ':',
];

/// What follows the last literal text (path-to-regexp's suffix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tail {
    /// `\/?$`
    LooseEnd,
    /// `\/?(?=\/|$)`
    LoosePrefix,
    /// `$`
    StrictEnd,
    /// `(?=\/|$)`
    StrictPrefix,
    /// nothing (strict, `end: false`, the path ends with `/`)
    StrictOpen,
    /// `(?:\/$)?(?=\/|$)`: path-to-regexp 8's non-strict mount, whose
    /// optional `/` is taken only at the end (`//` after it is not eaten).
    LooseEdge,
}

impl Tail {
    /// The end of the match given the text after the last literal at `n`.
    #[inline]
    pub(crate) fn end(self, p: &[u8], n: usize) -> Option<usize> {
        let rest = &p[n..];
        match self {
            // A slice pattern: `rest == b"/"` calls `memcmp`.
            Tail::LooseEnd => matches!(rest, [] | [b'/']).then_some(p.len()),
            Tail::LoosePrefix => match rest {
                [] => Some(n),
                [b'/'] | [b'/', b'/', ..] => Some(n + 1),
                [b'/', ..] => Some(n),
                _ => None,
            },
            Tail::StrictEnd => rest.is_empty().then_some(n),
            Tail::StrictPrefix => (rest.is_empty() || rest[0] == b'/').then_some(n),
            Tail::StrictOpen => Some(n),
            Tail::LooseEdge => match rest {
                [b'/'] => Some(n + 1),
                [] | [b'/', ..] => Some(n),
                _ => None,
            },
        }
    }
}

/// The literal that ends a path and the suffix rule after it: a
/// non-strict path loses one trailing `/` (path-to-regexp makes it optional).
fn split_tail(last: &str, opts: Options) -> (&str, Tail) {
    match (opts.strict, opts.end) {
        (false, true) => (last.strip_suffix('/').unwrap_or(last), Tail::LooseEnd),
        (false, false) => (last.strip_suffix('/').unwrap_or(last), Tail::LoosePrefix),
        (true, true) => (last, Tail::StrictEnd),
        (true, false) if last.ends_with('/') => (last, Tail::StrictOpen),
        (true, false) => (last, Tail::StrictPrefix),
    }
}

/// path-to-regexp 8's suffix as router 2 asks for it: non-strict paths
/// were already stripped of their trailing slashes (so nothing is split
/// off here), strict ones keep them and end at `$` or `(?=\/|$)`.
pub(crate) fn tail_v8(opts: Options) -> Tail {
    match (opts.strict, opts.end) {
        (false, true) => Tail::LooseEnd,
        (false, false) => Tail::LooseEdge,
        (true, true) => Tail::StrictEnd,
        (true, false) => Tail::StrictPrefix,
    }
}

/// Literal text compared ASCII-case-insensitively (or exactly): stored
/// lower-cased with a mask that has bit 0x20 set at letters, so a path byte
/// `b` matches iff `b | mask == text` (8 bytes at a time).
#[derive(Clone, Debug)]
pub(crate) struct Lit {
    text: Box<[u8]>,
    mask: Box<[u8]>,
}

impl Lit {
    pub(crate) fn new(text: &str, insensitive: bool) -> Lit {
        let fold = |b: u8| insensitive && b.is_ascii_alphabetic();
        Lit {
            text: text
                .bytes()
                .map(|b| if fold(b) { b.to_ascii_lowercase() } else { b })
                .collect(),
            mask: text
                .bytes()
                .map(|b| if fold(b) { 0x20 } else { 0 })
                .collect(),
        }
    }

    /// The text as stored (ASCII letters lower-cased when insensitive).
    fn as_string(&self) -> String {
        // Made from a `&str` with ASCII letters folded: still UTF-8.
        String::from_utf8_lossy(&self.text).into_owned()
    }

    /// Does `p[at..]` start with this literal? The position after it.
    #[inline(always)]
    pub(crate) fn eat(&self, p: &[u8], at: usize) -> Option<usize> {
        let n = self.text.len();
        // The text after a last parameter is mostly empty.
        if n == 0 {
            return (at <= p.len()).then_some(at);
        }
        let end = at.checked_add(n)?;
        let head = p.get(at..end)?;
        let (text, mask) = (&*self.text, &*self.mask);
        let same = if n >= 8 {
            // Whole words; the last one overlaps its predecessor.
            let mut i = 0;
            while i + 8 < n {
                if word(head, i) | word(mask, i) != word(text, i) {
                    return None;
                }
                i += 8;
            }
            word(head, n - 8) | word(mask, n - 8) == word(text, n - 8)
        } else if n >= 4 {
            half(head, 0) | half(mask, 0) == half(text, 0)
                && half(head, n - 4) | half(mask, n - 4) == half(text, n - 4)
        } else if n >= 2 {
            // Short mount paths (`/mw`): two overlapping pairs, no loop.
            pair(head, 0) | pair(mask, 0) == pair(text, 0)
                && pair(head, n - 2) | pair(mask, n - 2) == pair(text, n - 2)
        } else {
            (0..n).all(|i| head[i] | mask[i] == text[i])
        };
        same.then_some(end)
    }
}

/// Two bytes of `s` at `i` as one word.
#[inline(always)]
fn pair(s: &[u8], i: usize) -> u16 {
    let mut w = [0u8; 2];
    w.copy_from_slice(&s[i..i + 2]);
    u16::from_ne_bytes(w)
}

/// Four bytes of `s` at `i` as one word.
#[inline(always)]
fn half(s: &[u8], i: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&s[i..i + 4]);
    u32::from_ne_bytes(w)
}

/// Eight bytes of `s` at `i` as one word.
#[inline(always)]
fn word(s: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&s[i..i + 8]);
    u64::from_ne_bytes(w)
}

/// Literal text that passes through path-to-regexp unchanged (but for `.`)?
fn plain(text: &str, opts: Options) -> bool {
    !text.contains(SPECIAL) && (opts.sensitive || text.is_ascii())
}

/// A path without parameters or regex syntax.
#[derive(Clone, Debug)]
pub(crate) struct Literal {
    /// the literal every match starts with (ASCII when case-insensitive)
    text: Lit,
    tail: Tail,
}

impl Literal {
    pub(crate) fn new(path: &str, opts: Options) -> Option<Literal> {
        if !plain(path, opts) {
            return None;
        }
        let (text, tail) = split_tail(path, opts);
        Some(Literal {
            text: Lit::new(text, !opts.sensitive),
            tail,
        })
    }

    /// Already unescaped literal text (path-to-regexp 8 escapes all of it)
    /// and its suffix; `None` when case folding would need more than ASCII.
    pub(crate) fn from_text(text: &str, tail: Tail, opts: Options) -> Option<Literal> {
        (opts.sensitive || text.is_ascii()).then(|| Literal {
            text: Lit::new(text, !opts.sensitive),
            tail,
        })
    }

    /// The literal prefix of the regex path-to-regexp builds: the text
    /// (folded as it is compared).
    pub(crate) fn prefix(&self) -> String {
        self.text.as_string()
    }

    /// The length of the match.
    #[inline]
    pub(crate) fn matches(&self, path: &str) -> Option<usize> {
        let p = path.as_bytes();
        let n = self.text.eat(p, 0)?;
        self.tail.end(p, n)
    }

    /// The text's length and the rule after it, when every path starting
    /// with `prefix` (folded as the text is) starts with the text.
    pub(crate) fn end_after(&self, prefix: &str) -> Option<(usize, Tail)> {
        let n = self.text.text.len();
        (self.text.eat(prefix.as_bytes(), 0) == Some(n)).then_some((n, self.tail))
    }
}

/// At most this many parameters (their spans live on the stack).
pub(crate) const MAX_PARAMS: usize = 8;
/// Byte spans of the parameters: `(0, 0)` for an absent one (a present
/// one is never empty). `u32`: the array is cleared for every match, and
/// half the bytes cost half the stores.
pub(crate) type Spans = [(u32, u32); MAX_PARAMS];

/// At most this many optional parameters (each one doubles the worst case).
const MAX_OPTIONAL: usize = 3;

#[derive(Clone, Debug)]
struct Param {
    optional: bool,
    /// literal text after the parameter (starts with `/` unless empty)
    after: Lit,
}

/// The non-empty segment a parameter takes after the `/` at `pos`.
#[inline]
fn segment(p: &[u8], pos: usize) -> Option<(usize, usize)> {
    if p.get(pos) != Some(&b'/') {
        return None;
    }
    let s = pos + 1;
    let e = p[s..]
        .iter()
        .position(|&c| c == b'/')
        .map_or(p.len(), |x| s + x);
    (e > s).then_some((s, e))
}

/// A span as [`Spans`] holds it; `None` (no match) past 4 GiB.
#[inline]
fn span(s: usize, e: usize) -> Option<(u32, u32)> {
    Some((u32::try_from(s).ok()?, u32::try_from(e).ok()?))
}

/// Literal text and `/:name` / `/:name?` parameters.
#[derive(Clone, Debug)]
pub(crate) struct Segments {
    head: Lit,
    params: Vec<Param>,
    tail: Tail,
    /// No parameter is optional: there is nothing to backtrack over.
    required: bool,
    /// The pattern's literal prefix starts with `head`: a path known to
    /// start with the prefix need not have its head compared again.
    head_in_prefix: bool,
}

/// Parse `/:name` at `s[i..]` (`i` at the `/`); returns (optional, end).
fn param_at(s: &[u8], i: usize) -> Option<(bool, usize)> {
    if s.get(i) != Some(&b'/') || s.get(i + 1) != Some(&b':') {
        return None;
    }
    let mut j = i + 2;
    while s
        .get(j)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        j += 1;
    }
    if j == i + 2 {
        return None;
    }
    let optional = s.get(j) == Some(&b'?');
    if optional {
        j += 1;
    }
    // the parameter must end its segment
    match s.get(j) {
        None | Some(b'/') => Some((optional, j)),
        _ => None,
    }
}

impl Segments {
    pub(crate) fn new(path: &str, opts: Options) -> Option<Segments> {
        let s = path.as_bytes();
        let mut chunks: Vec<&str> = Vec::new(); // literal chunks between params
        let mut optional: Vec<bool> = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i < s.len() {
            if let Some((opt, end)) = param_at(s, i) {
                chunks.push(&path[start..i]);
                optional.push(opt);
                start = end;
                i = end;
            } else {
                i += 1;
            }
        }
        chunks.push(&path[start..]);
        let n = optional.len();
        if n == 0
            || n > MAX_PARAMS
            || optional.iter().filter(|o| **o).count() > MAX_OPTIONAL
            || !chunks.iter().all(|c| plain(c, opts))
        {
            return None;
        }
        let (last, tail) = split_tail(chunks[n], opts);
        Some(Segments::build(&chunks[..n], &optional, last, tail, opts))
    }

    /// Whole-segment parameters of path-to-regexp 8 (`/users/:id`), given
    /// as the literal text before each one (which ends with the `/` the
    /// parameter follows) and the text after the last (empty or starting
    /// with `/`); `None` for any other shape.
    pub(crate) fn from_chunks(chunks: &[&str], tail: Tail, opts: Options) -> Option<Segments> {
        let n = chunks.len().checked_sub(1)?;
        let last = chunks[n];
        let fits = (1..=MAX_PARAMS).contains(&n)
            && chunks.iter().all(|c| opts.sensitive || c.is_ascii())
            && chunks[..n].iter().all(|c| c.ends_with('/'))
            && chunks[1..]
                .iter()
                .all(|c| c.is_empty() || c.starts_with('/'))
            && (last.is_empty() || last.starts_with('/'));
        if !fits {
            return None;
        }
        // This engine's chunks hold the `/` of a parameter with it.
        let heads: Vec<&str> = chunks[..n].iter().map(|c| &c[..c.len() - 1]).collect();
        Some(Segments::build(&heads, &vec![false; n], last, tail, opts))
    }

    fn build(
        chunks: &[&str],
        optional: &[bool],
        last: &str,
        tail: Tail,
        opts: Options,
    ) -> Segments {
        let n = optional.len();
        let insensitive = !opts.sensitive;
        let params: Vec<Param> = (0..n)
            .map(|k| Param {
                optional: optional[k],
                after: Lit::new(if k + 1 == n { last } else { chunks[k + 1] }, insensitive),
            })
            .collect();
        Segments {
            head: Lit::new(chunks[0], insensitive),
            required: !params.iter().any(|p| p.optional),
            params,
            tail,
            head_in_prefix: false,
        }
    }

    /// The literal prefix of the regex path-to-regexp builds: the head, and
    /// the `/` of the first parameter unless that one is optional.
    pub(crate) fn prefix(&self) -> String {
        let mut prefix = self.head.as_string();
        if self.params.first().is_some_and(|p| !p.optional) {
            prefix.push('/');
        }
        prefix
    }

    /// Notes whether `prefix` (folded as the head is) starts with the head.
    pub(crate) fn set_prefix(&mut self, prefix: &str) {
        self.head_in_prefix = self.head.eat(prefix.as_bytes(), 0).is_some();
    }

    /// The match length; `spans` gets the span of every parameter that is
    /// present (the caller's array: returning it by value costs a copy).
    /// `prefixed`: the path is known to start with the pattern's literal
    /// prefix.
    #[inline(always)]
    pub(crate) fn matches(&self, path: &str, prefixed: bool, spans: &mut Spans) -> Option<usize> {
        let p = path.as_bytes();
        let mut pos = if prefixed && self.head_in_prefix {
            self.head.text.len()
        } else {
            self.head.eat(p, 0)?
        };
        if !self.required {
            return self.step(p, pos, 0, spans);
        }
        // Each parameter then has one way to match: `step` without its
        // recursion.
        for (k, param) in self.params.iter().enumerate() {
            let (s, e) = segment(p, pos)?;
            pos = param.after.eat(p, e)?;
            spans[k] = span(s, e)?;
        }
        self.tail.end(p, pos)
    }

    fn step(&self, p: &[u8], pos: usize, k: usize, spans: &mut Spans) -> Option<usize> {
        let Some(param) = self.params.get(k) else {
            return self.tail.end(p, pos);
        };
        let after = &param.after;
        if let Some((s, e)) = segment(p, pos)
            && let Some(next) = after.eat(p, e)
        {
            spans[k] = span(s, e)?;
            if let Some(end) = self.step(p, next, k + 1, spans) {
                return Some(end);
            }
            spans[k] = (0, 0);
        }
        if param.optional {
            let next = after.eat(p, pos)?;
            return self.step(p, next, k + 1, spans);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::Lit;

    #[test]
    fn lit_eat_agrees_with_a_bytewise_comparison_at_every_length() {
        let text = "/Abc/def-GHI/jklm/NOP";
        for n in 0..=text.len() {
            for insensitive in [false, true] {
                let lit = Lit::new(&text[..n], insensitive);
                let path = format!("x{}rest", &text[..n]);
                assert_eq!(lit.eat(path.as_bytes(), 1), Some(1 + n));
                let upper = format!("x{}", text[..n].to_ascii_uppercase());
                let same_when_upper = insensitive || text[..n] == text[..n].to_ascii_uppercase();
                assert_eq!(lit.eat(upper.as_bytes(), 1).is_some(), same_when_upper);
                for flip in 0..n {
                    let mut bad = path.clone().into_bytes();
                    bad[1 + flip] = b'#';
                    assert_eq!(lit.eat(&bad, 1), None, "length {n}, byte {flip}");
                }
                // One byte short of the literal.
                assert_eq!(lit.eat(&path.as_bytes()[..n], 1), None);
            }
        }
    }
}
