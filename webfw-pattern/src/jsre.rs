//! A parser for JavaScript regular expressions as `new RegExp(source, "i")`
//! reads them on Node.js: non-Unicode mode with the Annex B (web
//! compatibility) grammar. It validates exactly what V8 rejects and builds a
//! small syntax tree that `backtrack` compiles and runs.
//!
//! Positions are indices into the `char` slice being parsed. Characters outside
//! the Basic Multilingual Plane are treated as one character (JavaScript sees
//! two UTF-16 code units).

use crate::charset::{self, CharSet};

/// One node of a parsed JavaScript regex.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// A literal character (code point; may be a lone surrogate from `\uD800`).
    Char(u32),
    /// A character class or class escape, not yet case-folded.
    Set { set: CharSet, negated: bool },
    /// A set already folded and negated (built by rewrites); emitted as is.
    Resolved(CharSet),
    /// `.`
    Dot,
    /// `^`
    Start,
    /// `$`
    End,
    /// `\b` (`negated` = `\B`)
    WordBoundary { negated: bool },
    /// A group of alternatives.
    Group {
        kind: GroupKind,
        alts: Vec<Vec<Node>>,
    },
    /// A quantified node.
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    /// A backreference to a (1-based) capture group.
    Backref(usize),
}

/// What kind of group a [`Node::Group`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GroupKind {
    /// `(?:…)`
    NonCapture,
    /// `(…)` or `(?<name>…)`, with its 1-based JavaScript group number.
    Capture(usize),
    /// `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`.
    Look { ahead: bool, negated: bool },
}

/// A parsed pattern: top-level alternatives.
#[derive(Clone, Debug)]
pub(crate) struct Ast {
    pub(crate) alts: Vec<Vec<Node>>,
    pub(crate) groups: usize,
}

/// A syntax error at `pos..pos+len` (char indices into the parsed source).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub(crate) pos: usize,
    pub(crate) len: usize,
    pub(crate) msg: &'static str,
}

fn err<T>(pos: usize, len: usize, msg: &'static str) -> Result<T, SyntaxError> {
    Err(SyntaxError { pos, len, msg })
}

struct Parser<'a> {
    s: &'a [char],
    i: usize,
    total_groups: usize,
    has_named: bool,
    groups_seen: usize,
    names: Vec<(String, usize)>,
    named_refs: Vec<(String, usize, usize)>, // name, node fixup index, pos
    ref_slots: Vec<usize>,
    depth: usize,
}

/// Deepest group nesting accepted: deeper patterns would only overflow the
/// parser's stack.
const MAX_DEPTH: usize = 250;

/// Parse `s` as a non-Unicode JavaScript regex.
pub(crate) fn parse(s: &[char]) -> Result<Ast, SyntaxError> {
    let (total_groups, has_named) = prescan(s);
    let mut p = Parser {
        s,
        i: 0,
        total_groups,
        has_named,
        groups_seen: 0,
        names: Vec::new(),
        named_refs: Vec::new(),
        ref_slots: Vec::new(),
        depth: 0,
    };
    let mut alts = p.disjunction()?;
    if p.i < s.len() {
        // only a ')' stops a top-level disjunction early
        return err(p.i, 1, "Unmatched ')'");
    }
    // resolve named backreferences now that every name is known
    let named_refs = std::mem::take(&mut p.named_refs);
    for (name, slot, pos) in named_refs {
        let Some(&(_, group)) = p.names.iter().find(|(n, _)| *n == name) else {
            return err(
                pos,
                name.chars().count() + 4,
                "Invalid named capture referenced",
            );
        };
        p.ref_slots[slot] = group;
    }
    let slots = p.ref_slots;
    if !slots.is_empty() {
        fix_named_refs(&mut alts, &slots);
    }
    Ok(Ast {
        alts,
        groups: p.groups_seen,
    })
}

/// Named backreferences are parsed as `Backref(usize::MAX - slot)` and
/// patched here.
fn fix_named_refs(alts: &mut [Vec<Node>], slots: &[usize]) {
    for alt in alts {
        for node in alt {
            fix_node(node, slots);
        }
    }
}

fn fix_node(node: &mut Node, slots: &[usize]) {
    match node {
        Node::Backref(n) if *n > usize::MAX / 2 => *n = slots[usize::MAX - *n],
        Node::Group { alts, .. } => fix_named_refs(alts, slots),
        Node::Repeat { node, .. } => fix_node(node, slots),
        _ => {}
    }
}

/// Count capture groups and detect named groups in the whole pattern (what
/// V8 does before deciding whether `\1` is a backreference and `\k` special).
fn prescan(s: &[char]) -> (usize, bool) {
    let mut count = 0;
    let mut named = false;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            '\\' => i += 2,
            '[' => {
                i += 1;
                while i < s.len() {
                    let c = s[i];
                    i += 1;
                    if c == '\\' {
                        i += 1;
                    } else if c == ']' {
                        break;
                    }
                }
            }
            '(' => {
                if s.get(i + 1) == Some(&'?') {
                    if s.get(i + 2) == Some(&'<') && !matches!(s.get(i + 3), Some('=') | Some('!'))
                    {
                        named = true;
                        count += 1;
                    }
                } else {
                    count += 1;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    (count, named)
}

enum ClassAtom {
    Char(u32),
    Set(CharSet),
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.s.get(self.i + k).copied()
    }

    fn disjunction(&mut self) -> Result<Vec<Vec<Node>>, SyntaxError> {
        let mut alts = vec![self.alternative()?];
        while self.peek() == Some('|') {
            self.i += 1;
            alts.push(self.alternative()?);
        }
        Ok(alts)
    }

    fn alternative(&mut self) -> Result<Vec<Node>, SyntaxError> {
        let mut seq = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            self.term(&mut seq)?;
        }
        Ok(seq)
    }

    /// Is there a syntactically complete `{n}`, `{n,}` or `{n,m}` at `self.i`?
    /// Returns (min, max, length).
    fn braced_quantifier(&self) -> Option<(u32, Option<u32>, usize)> {
        let s = self.s;
        let mut j = self.i;
        if s.get(j) != Some(&'{') {
            return None;
        }
        j += 1;
        let (min, n) = number(&s[j..])?;
        j += n;
        let max = if s.get(j) == Some(&',') {
            j += 1;
            match number(&s[j..]) {
                Some((m, n)) => {
                    j += n;
                    Some(m)
                }
                None => None,
            }
        } else {
            Some(min)
        };
        if s.get(j) != Some(&'}') {
            return None;
        }
        Some((min, max, j + 1 - self.i))
    }

    fn term(&mut self, seq: &mut Vec<Node>) -> Result<(), SyntaxError> {
        let start = self.i;
        let c = self.s[self.i];
        // (node, quantifiable)
        let (node, quantifiable) = match c {
            '^' => {
                self.i += 1;
                (Node::Start, false)
            }
            '$' => {
                self.i += 1;
                (Node::End, false)
            }
            '\\' if matches!(self.peek_at(1), Some('b') | Some('B')) => {
                let negated = self.peek_at(1) == Some('B');
                self.i += 2;
                (Node::WordBoundary { negated }, false)
            }
            '\\' => (self.atom_escape()?, true),
            '(' => self.group()?,
            '[' => (self.class()?, true),
            '.' => {
                self.i += 1;
                (Node::Dot, true)
            }
            '*' | '+' | '?' => return err(start, 1, "Nothing to repeat"),
            '{' => {
                if let Some((_, _, n)) = self.braced_quantifier() {
                    return err(start, n, "Nothing to repeat");
                }
                self.i += 1;
                (Node::Char('{' as u32), true)
            }
            _ => {
                self.i += 1;
                (Node::Char(c as u32), true)
            }
        };
        // quantifier
        let qstart = self.i;
        let q = match self.peek() {
            Some('*') => {
                self.i += 1;
                Some((0, None))
            }
            Some('+') => {
                self.i += 1;
                Some((1, None))
            }
            Some('?') => {
                self.i += 1;
                Some((0, Some(1)))
            }
            Some('{') => match self.braced_quantifier() {
                Some((min, max, n)) => {
                    if let Some(max) = max
                        && max < min
                    {
                        return err(qstart, n, "numbers out of order in {} quantifier");
                    }
                    self.i += n;
                    Some((min, max))
                }
                None => None,
            },
            _ => None,
        };
        match q {
            None => seq.push(node),
            Some((min, max)) => {
                if !quantifiable {
                    let msg = if let Node::Group {
                        kind: GroupKind::Look { ahead: false, .. },
                        ..
                    } = node
                    {
                        "Invalid quantifier"
                    } else {
                        "Nothing to repeat"
                    };
                    return err(qstart, self.i - qstart, msg);
                }
                let greedy = if self.peek() == Some('?') {
                    self.i += 1;
                    false
                } else {
                    true
                };
                seq.push(Node::Repeat {
                    node: Box::new(node),
                    min,
                    max,
                    greedy,
                });
            }
        }
        Ok(())
    }

    fn group(&mut self) -> Result<(Node, bool), SyntaxError> {
        let start = self.i;
        if self.depth >= MAX_DEPTH {
            return err(start, 1, "unsupported: groups nested too deeply");
        }
        self.i += 1; // '('
        let mut pending_name = None;
        let (kind, quantifiable) = if self.peek() == Some('?') {
            match (self.peek_at(1), self.peek_at(2)) {
                (Some(':'), _) => {
                    self.i += 2;
                    (GroupKind::NonCapture, true)
                }
                (Some('='), _) | (Some('!'), _) => {
                    let negated = self.peek_at(1) == Some('!');
                    self.i += 2;
                    (
                        GroupKind::Look {
                            ahead: true,
                            negated,
                        },
                        true,
                    )
                }
                (Some('<'), Some('=')) | (Some('<'), Some('!')) => {
                    let negated = self.peek_at(2) == Some('!');
                    self.i += 3;
                    (
                        GroupKind::Look {
                            ahead: false,
                            negated,
                        },
                        false,
                    )
                }
                (Some('<'), _) => {
                    self.i += 2;
                    let name_start = self.i;
                    let name = self.group_name().ok_or(SyntaxError {
                        pos: name_start,
                        len: 1,
                        msg: "Invalid capture group name",
                    })?;
                    self.groups_seen += 1;
                    pending_name = Some((name, name_start, self.i - 1 - name_start));
                    (GroupKind::Capture(self.groups_seen), true)
                }
                _ => return err(start, 2, "Invalid group"),
            }
        } else {
            self.groups_seen += 1;
            (GroupKind::Capture(self.groups_seen), true)
        };
        self.depth += 1;
        let alts = self.disjunction()?;
        self.depth -= 1;
        if self.peek() != Some(')') {
            return err(start, 1, "Unterminated group");
        }
        self.i += 1;
        // V8 registers (and checks) a group name when the group closes
        if let (Some((name, pos, len)), GroupKind::Capture(n)) = (pending_name, kind) {
            if self.names.iter().any(|(other, _)| *other == name) {
                return err(pos, len, "Duplicate capture group name");
            }
            self.names.push((name, n));
        }
        Ok((Node::Group { kind, alts }, quantifiable))
    }

    /// Parse `name>`; returns the name.
    fn group_name(&mut self) -> Option<String> {
        let mut name = String::new();
        loop {
            let c = self.peek()?;
            self.i += 1;
            if c == '>' {
                return if name.is_empty() { None } else { Some(name) };
            }
            let ok = if name.is_empty() {
                c == '$'
                    || c == '_'
                    || c.is_ascii_alphabetic()
                    || (!c.is_ascii() && c.is_alphabetic())
            } else {
                c == '$'
                    || c == '_'
                    || c == '\u{200C}'
                    || c == '\u{200D}'
                    || c.is_ascii_alphanumeric()
                    || (!c.is_ascii() && c.is_alphanumeric())
            };
            if !ok {
                return None;
            }
            name.push(c);
        }
    }

    /// After a backslash outside a class (not `\b`/`\B`).
    fn atom_escape(&mut self) -> Result<Node, SyntaxError> {
        let start = self.i;
        let Some(c) = self.peek_at(1) else {
            return err(start, 1, "\\ at end of pattern");
        };
        match c {
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => {
                self.i += 2;
                let set = match c.to_ascii_lowercase() {
                    'd' => charset::digit(),
                    's' => charset::space(),
                    _ => charset::word(),
                };
                Ok(Node::Set {
                    set,
                    negated: c.is_ascii_uppercase(),
                })
            }
            '1'..='9' => {
                // a backreference if the number is at most the group count
                let (n, len) = decimal(&self.s[self.i + 1..]);
                if n >= 1 && n <= self.total_groups {
                    self.i += 1 + len;
                    return Ok(Node::Backref(n));
                }
                if c == '8' || c == '9' {
                    self.i += 2;
                    return Ok(Node::Char(c as u32));
                }
                self.i += 1;
                Ok(Node::Char(self.octal()))
            }
            '0' => {
                self.i += 1;
                Ok(Node::Char(self.octal()))
            }
            'k' if self.has_named => {
                self.i += 2;
                if self.peek() != Some('<') {
                    return err(start, 2, "Invalid named reference");
                }
                self.i += 1;
                let name = self.group_name().ok_or(SyntaxError {
                    pos: start,
                    len: 2,
                    msg: "Invalid named reference",
                })?;
                let slot = self.ref_slots.len();
                self.ref_slots.push(0);
                self.named_refs.push((name, slot, start));
                Ok(Node::Backref(usize::MAX - slot))
            }
            _ => Ok(Node::Char(self.character_escape(false))),
        }
    }

    /// Legacy octal escape starting at the current digit.
    fn octal(&mut self) -> u32 {
        let d = |c: Option<char>| {
            c.filter(|c| ('0'..='7').contains(c))
                .map(|c| c as u32 - '0' as u32)
        };
        let mut value = self.peek().map_or(0, |c| c as u32 - '0' as u32);
        self.i += 1;
        if let Some(v) = d(self.peek()) {
            value = value * 8 + v;
            self.i += 1;
            if value < 32
                && let Some(v) = d(self.peek())
            {
                value = value * 8 + v;
                self.i += 1;
            }
        }
        value
    }

    /// A CharacterEscape after the backslash at `self.i` (also used in
    /// classes). Consumes what it uses; returns the character.
    fn character_escape(&mut self, in_class: bool) -> u32 {
        let c = self.s[self.i + 1];
        match c {
            'f' => self.take(2, 0x0C),
            'n' => self.take(2, 0x0A),
            'r' => self.take(2, 0x0D),
            't' => self.take(2, 0x09),
            'v' => self.take(2, 0x0B),
            'c' => match self.peek_at(2) {
                Some(l) if l.is_ascii_alphabetic() => self.take(3, l as u32 % 32),
                Some(l) if in_class && (l.is_ascii_digit() || l == '_') => {
                    self.take(3, l as u32 % 32)
                }
                // `\` followed by `c`: the backslash is a literal
                _ => self.take(1, '\\' as u32),
            },
            'x' => match hex(&self.s[self.i + 2..], 2) {
                Some(v) => self.take(4, v),
                None => self.take(2, 'x' as u32),
            },
            'u' => match hex(&self.s[self.i + 2..], 4) {
                Some(v) => self.take(6, v),
                None => self.take(2, 'u' as u32),
            },
            _ => self.take(2, c as u32),
        }
    }

    fn take(&mut self, n: usize, v: u32) -> u32 {
        self.i += n;
        v
    }

    fn class(&mut self) -> Result<Node, SyntaxError> {
        let start = self.i;
        self.i += 1;
        let negated = if self.peek() == Some('^') {
            self.i += 1;
            true
        } else {
            false
        };
        let mut set = CharSet::new();
        loop {
            match self.peek() {
                None => return err(start, 1, "Unterminated character class"),
                Some(']') => {
                    self.i += 1;
                    break;
                }
                _ => {}
            }
            let astart = self.i;
            let a = self.class_atom()?;
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.i += 1;
                let b = self.class_atom()?;
                match (a, b) {
                    (ClassAtom::Char(x), ClassAtom::Char(y)) => {
                        if x > y {
                            return err(
                                astart,
                                self.i - astart,
                                "Range out of order in character class",
                            );
                        }
                        set.add_range(x, y);
                    }
                    (a, b) => {
                        // Annex B: a class escape in a range is a union
                        add_atom(&mut set, a);
                        set.add('-' as u32);
                        add_atom(&mut set, b);
                    }
                }
            } else {
                add_atom(&mut set, a);
            }
        }
        Ok(Node::Set { set, negated })
    }

    fn class_atom(&mut self) -> Result<ClassAtom, SyntaxError> {
        let c = self.s[self.i];
        if c != '\\' {
            self.i += 1;
            return Ok(ClassAtom::Char(c as u32));
        }
        let Some(e) = self.peek_at(1) else {
            return err(self.i, 1, "\\ at end of pattern");
        };
        Ok(match e {
            'b' => ClassAtom::Char(self.take(2, 8)),
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => {
                self.i += 2;
                let set = match e.to_ascii_lowercase() {
                    'd' => charset::digit(),
                    's' => charset::space(),
                    _ => charset::word(),
                };
                ClassAtom::Set(if e.is_ascii_uppercase() {
                    set.negate()
                } else {
                    set
                })
            }
            '0' if !self.peek_at(2).is_some_and(|c| c.is_ascii_digit()) => {
                ClassAtom::Char(self.take(2, 0))
            }
            '0'..='7' => {
                self.i += 1;
                ClassAtom::Char(self.octal())
            }
            _ => ClassAtom::Char(self.character_escape(true)),
        })
    }
}

fn add_atom(set: &mut CharSet, a: ClassAtom) {
    match a {
        ClassAtom::Char(c) => set.add(c),
        ClassAtom::Set(s) => set.union(&s),
    }
}

/// Leading decimal digits: (value saturated, count). Count 0 = none.
fn decimal(s: &[char]) -> (usize, usize) {
    let mut v: usize = 0;
    let mut n = 0;
    for &c in s {
        let Some(d) = c.to_digit(10) else { break };
        v = v.saturating_mul(10).saturating_add(d as usize);
        n += 1;
    }
    (v, n)
}

fn number(s: &[char]) -> Option<(u32, usize)> {
    let (v, n) = decimal(s);
    if n == 0 {
        None
    } else {
        Some((u32::try_from(v).unwrap_or(u32::MAX), n))
    }
}

fn hex(s: &[char], n: usize) -> Option<u32> {
    if s.len() < n {
        return None;
    }
    let mut v = 0;
    for &c in &s[..n] {
        v = v * 16 + c.to_digit(16)?;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Ast, SyntaxError> {
        parse(&s.chars().collect::<Vec<_>>())
    }

    fn e(s: &str) -> (usize, &'static str) {
        let e = p(s).unwrap_err();
        (e.pos, e.msg)
    }

    #[test]
    fn accepts_annex_b_forms() {
        for ok in [
            "a{",
            "a{1",
            "a{,2}",
            "]",
            "}",
            "x{1,2}?",
            "[]",
            "[^]",
            "\\c",
            "\\c1",
            "[\\c1]",
            "\\8",
            "\\1",
            "(a)\\1",
            "\\k",
            "(?=a)*",
            "[\\d-z]",
            "a|",
            "(?<n>a)\\k<n>",
            "\\u12",
            "\\x4",
            "(?:)",
            "",
        ] {
            assert!(p(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn rejects_what_v8_rejects() {
        assert_eq!(e("("), (0, "Unterminated group"));
        assert_eq!(e("a)"), (1, "Unmatched ')'"));
        assert_eq!(e("+a"), (0, "Nothing to repeat"));
        assert_eq!(e("a**"), (2, "Nothing to repeat"));
        assert_eq!(e("^*"), (1, "Nothing to repeat"));
        assert_eq!(e("a{2}{3}"), (4, "Nothing to repeat"));
        assert_eq!(e("a{3,2}"), (1, "numbers out of order in {} quantifier"));
        assert_eq!(e("[a"), (0, "Unterminated character class"));
        assert_eq!(e("[z-a]"), (1, "Range out of order in character class"));
        assert_eq!(e("(?i:a)"), (0, "Invalid group"));
        assert_eq!(e("(?<1>a)"), (3, "Invalid capture group name"));
        assert_eq!(e("(?<a>x)(?<a>y)"), (10, "Duplicate capture group name"));
        assert_eq!(e("(?<a>x)\\k"), (7, "Invalid named reference"));
        assert_eq!(e("(?<a>x)\\k<b>"), (7, "Invalid named capture referenced"));
        assert_eq!(e("a\\"), (1, "\\ at end of pattern"));
        assert_eq!(e("(?<=a)*"), (6, "Invalid quantifier"));
        assert_eq!(e("(?<a>x)(?<a>y)("), (10, "Duplicate capture group name"));
        assert_eq!(e("(?<a>(?<a>x)"), (0, "Unterminated group"));
    }

    #[test]
    fn escapes_decode() {
        let chars = |s: &str| -> Vec<u32> {
            p(s).unwrap().alts[0]
                .iter()
                .map(|n| match n {
                    Node::Char(c) => *c,
                    other => panic!("{other:?}"),
                })
                .collect()
        };
        assert_eq!(chars("\\101\\0\\08\\477"), vec![65, 0, 0, 56, 39, 55]);
        assert_eq!(chars("\\x41\\u0042\\cc\\/"), vec![65, 66, 3, 47]);
        assert_eq!(chars("\\c"), vec![92, 99]);
        assert_eq!(chars("\\8\\2"), vec![56, 2]);
    }
}
