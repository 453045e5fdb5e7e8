//! The matcher for every pattern the fast paths cannot run: a backtracking
//! interpreter of the parsed JavaScript regex that follows ECMA-262's
//! pattern semantics (non-Unicode mode) step for step, as V8 does.
//!
//! A backtracking interpreter gives JavaScript's answers by construction:
//! alternatives are tried in order, a quantifier resets the captures inside
//! it at every iteration and rejects an empty iteration beyond its minimum,
//! look-arounds are atomic, a backreference to an unset group matches the
//! empty string. It also keeps a route-only build free of a regex crate.
//!
//! Bounds, because the text is a client's path: a match gives up (reports no
//! match) after [`STEP_LIMIT`] steps, so a pattern that backtracks
//! catastrophically (`/:a-:b-:c` on older path-to-regexp, `(a+)+$`) costs a
//! bounded time; and after [`DEPTH_LIMIT`] nested frames, so no path can
//! overflow the stack. A quantified single character (`[^/]+?`, `.*`, `\d+`,
//! the bulk of real routes) is scanned in a loop and costs no depth.

use crate::charset::{self, CharSet};
use crate::jsre::{Ast, GroupKind, Node};

/// Steps (node visits and characters scanned) before a match gives up.
pub(crate) const STEP_LIMIT: u32 = 1_000_000;

/// Nested steps before a match gives up: ~270 bytes of stack each in a
/// release build (~870 in a debug one), well inside a tokio worker's 2 MiB.
/// Each iteration of a quantified group costs about four (`/:p+` matches up
/// to ~250 segments).
pub(crate) const DEPTH_LIMIT: u32 = 1_000;

/// A compiled pattern.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    alts: Vec<Vec<Op>>,
    /// Number of capture groups (JavaScript numbers them from 1).
    groups: usize,
    /// Every alternative starts with `^`: only position 0 can match.
    anchored: bool,
    insensitive: bool,
}

/// The backtracking engine as a pattern holds it: a trait object, so that
/// its code is linked only where a [`Program`] is boxed (the compilers of
/// paths no fast engine runs), not wherever a pattern is matched or cloned.
pub(crate) trait Matcher: std::fmt::Debug + Send + Sync {
    fn exec(&self, text: &str) -> Option<Exec>;
    fn clone_boxed(&self) -> Box<dyn Matcher>;
}

impl Matcher for Program {
    fn exec(&self, text: &str) -> Option<Exec> {
        Program::exec(self, text)
    }

    fn clone_boxed(&self) -> Box<dyn Matcher> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Matcher> {
    fn clone(&self) -> Self {
        self.clone_boxed()
    }
}

/// One matching step, with its character sets resolved (case-folded when
/// insensitive).
#[derive(Clone, Debug)]
enum Op {
    Class(Class),
    Start,
    End,
    Boundary {
        negated: bool,
    },
    Group {
        /// 0-based capture slot.
        capture: Option<usize>,
        alts: Vec<Vec<Op>>,
    },
    Look {
        ahead: bool,
        negated: bool,
        alts: Vec<Vec<Op>>,
    },
    Repeat {
        node: Box<Op>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        /// Capture slots inside `node`, reset at every iteration.
        inner: (usize, usize),
    },
    /// 0-based capture slot.
    Backref(usize),
}

/// A set of characters with an ASCII bitmap in front.
#[derive(Clone, Debug)]
struct Class {
    ascii: u128,
    set: CharSet,
}

impl Class {
    fn new(set: CharSet) -> Class {
        let mut ascii = 0u128;
        for c in 0..128u32 {
            if set.contains(c) {
                ascii |= 1 << c;
            }
        }
        Class { ascii, set }
    }

    #[inline]
    fn contains(&self, c: char) -> bool {
        let c = c as u32;
        if c < 128 {
            self.ascii & (1 << c) != 0
        } else {
            self.set.contains(c)
        }
    }
}

impl Program {
    /// Compile a parsed pattern.
    pub(crate) fn new(mut ast: Ast, insensitive: bool) -> Program {
        rewrite(&mut ast.alts, insensitive);
        let anchored = !ast.alts.is_empty()
            && ast
                .alts
                .iter()
                .all(|alt| matches!(alt.first(), Some(Node::Start)));
        Program {
            alts: ast.alts.iter().map(|alt| ops(alt, insensitive)).collect(),
            groups: ast.groups,
            anchored,
            insensitive,
        }
    }

    /// Search `text` as `RegExp.prototype.exec` does (from the start, no
    /// sticky or global flag): the span of the match and every capture
    /// (index = JavaScript group number - 1).
    pub(crate) fn exec(&self, text: &str) -> Option<Exec> {
        let mut run = Run {
            text,
            caps: vec![None; self.groups],
            steps: 0,
            depth: 0,
            aborted: false,
            insensitive: self.insensitive,
        };
        let mut start = 0;
        loop {
            let mut end = None;
            let found = run.alts(&self.alts, start, &mut |_, e| {
                end = Some(e);
                true
            });
            if found {
                let end = end?;
                return Some(Exec {
                    start,
                    end,
                    caps: run.caps,
                });
            }
            if self.anchored || run.aborted || start >= text.len() {
                return None;
            }
            start += text[start..].chars().next().map_or(1, char::len_utf8);
        }
    }
}

/// The result of [`Program::exec`].
pub(crate) struct Exec {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) caps: Vec<Option<(usize, usize)>>,
}

/// Resolve a character-like node to the set it matches.
fn resolve(node: &Node, insensitive: bool) -> Option<CharSet> {
    Some(match node {
        Node::Char(c) if insensitive => charset::case_mates(*c),
        Node::Char(c) => CharSet::single(*c),
        Node::Set { set, negated } => {
            let closed = if insensitive {
                set.case_closed()
            } else {
                set.clone()
            };
            if *negated { closed.negate() } else { closed }
        }
        Node::Dot => charset::dot(),
        Node::Resolved(s) => s.clone(),
        _ => return None,
    })
}

/// `(?!a|b).` with single-character alternatives is the class `. ∖ {a, b}`
/// (path-to-regexp's `((?:(?!\/|-).)+?)` of `/:from-:to`), which the loop
/// for a quantified character then scans without recursion.
fn rewrite(alts: &mut [Vec<Node>], insensitive: bool) {
    for seq in alts.iter_mut() {
        for node in seq.iter_mut() {
            match node {
                Node::Group { alts, .. } => rewrite(alts, insensitive),
                Node::Repeat { node, .. } => {
                    if let Node::Group { alts, .. } = node.as_mut() {
                        rewrite(alts, insensitive);
                    }
                }
                _ => {}
            }
        }
        let mut i = 0;
        while i + 1 < seq.len() {
            if let Some(class) = negated_lookahead_class(&seq[i], &seq[i + 1], insensitive) {
                seq[i] = Node::Resolved(class);
                seq.remove(i + 1);
                continue;
            }
            i += 1;
        }
    }
}

fn negated_lookahead_class(look: &Node, next: &Node, insensitive: bool) -> Option<CharSet> {
    let Node::Group {
        kind: GroupKind::Look {
            ahead: true,
            negated: true,
        },
        alts,
    } = look
    else {
        return None;
    };
    let next = resolve(next, insensitive)?;
    let mut excluded = CharSet::new();
    for alt in alts {
        let [one] = alt.as_slice() else { return None };
        excluded.union(&resolve(one, insensitive)?);
    }
    Some(next.difference(&excluded))
}

fn ops(seq: &[Node], insensitive: bool) -> Vec<Op> {
    let mut out = Vec::with_capacity(seq.len());
    let mut i = 0;
    while i < seq.len() {
        // a surrogate pair written as two escapes is one character
        if let (Node::Char(hi), Some(Node::Char(lo))) = (&seq[i], seq.get(i + 1))
            && (0xD800..0xDC00).contains(hi)
            && (0xDC00..0xE000).contains(lo)
        {
            let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
            out.push(op(&Node::Char(c), insensitive));
            i += 2;
            continue;
        }
        out.push(op(&seq[i], insensitive));
        i += 1;
    }
    out
}

fn op(node: &Node, insensitive: bool) -> Op {
    if let Some(set) = resolve(node, insensitive) {
        return Op::Class(Class::new(set));
    }
    match node {
        Node::Start => Op::Start,
        Node::End => Op::End,
        Node::WordBoundary { negated } => Op::Boundary { negated: *negated },
        Node::Group { kind, alts } => {
            let alts: Vec<Vec<Op>> = alts.iter().map(|a| ops(a, insensitive)).collect();
            match *kind {
                GroupKind::Look { ahead, negated } => Op::Look {
                    ahead,
                    negated,
                    alts,
                },
                GroupKind::Capture(n) => Op::Group {
                    capture: Some(n - 1),
                    alts,
                },
                // A group of one single-character alternative is that
                // character (`(?:.)+?` scans in a loop).
                GroupKind::NonCapture => match <[Vec<Op>; 1]>::try_from(alts) {
                    Ok([mut one]) if one.len() == 1 && matches!(one[0], Op::Class(_)) => {
                        one.remove(0)
                    }
                    Ok([one]) => Op::Group {
                        capture: None,
                        alts: vec![one],
                    },
                    Err(alts) => Op::Group {
                        capture: None,
                        alts,
                    },
                },
            }
        }
        Node::Repeat {
            node,
            min,
            max,
            greedy,
        } => {
            let mut slots = Vec::new();
            captures_in(node, &mut slots);
            let inner = match (slots.iter().min(), slots.iter().max()) {
                (Some(&a), Some(&b)) => (a, b + 1),
                _ => (0, 0),
            };
            Op::Repeat {
                node: Box::new(op(node, insensitive)),
                min: *min,
                max: *max,
                greedy: *greedy,
                inner,
            }
        }
        Node::Backref(n) => Op::Backref(n - 1),
        Node::Char(_) | Node::Set { .. } | Node::Dot | Node::Resolved(_) => {
            unreachable!("resolved above")
        }
    }
}

fn captures_in(node: &Node, out: &mut Vec<usize>) {
    match node {
        Node::Group { kind, alts } => {
            if let GroupKind::Capture(n) = kind {
                out.push(n - 1);
            }
            for n in alts.iter().flatten() {
                captures_in(n, out);
            }
        }
        Node::Repeat { node, .. } => captures_in(node, out),
        _ => {}
    }
}

/// What a step hands the rest of the match: the state and the position.
type Cont<'k, 't> = dyn FnMut(&mut Run<'t>, usize) -> bool + 'k;

/// The state of one match attempt.
struct Run<'t> {
    text: &'t str,
    caps: Vec<Option<(usize, usize)>>,
    steps: u32,
    depth: u32,
    /// A limit was reached: every step now fails.
    aborted: bool,
    insensitive: bool,
}

impl<'t> Run<'t> {
    /// Count one step; false once a limit is reached.
    #[inline]
    fn tick(&mut self) -> bool {
        self.steps += 1;
        if self.steps > STEP_LIMIT {
            self.aborted = true;
        }
        !self.aborted
    }

    fn char_at(&self, pos: usize) -> Option<char> {
        self.text[pos..].chars().next()
    }

    fn is_word_byte(&self, pos: usize) -> bool {
        self.text
            .as_bytes()
            .get(pos)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
    }

    fn alts(&mut self, alts: &[Vec<Op>], pos: usize, k: &mut Cont<'_, 't>) -> bool {
        for alt in alts {
            if self.seq(alt, pos, k) {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        false
    }

    fn seq(&mut self, ops: &[Op], pos: usize, k: &mut Cont<'_, 't>) -> bool {
        if !self.tick() {
            return false;
        }
        let Some((op, rest)) = ops.split_first() else {
            return k(self, pos);
        };
        self.depth += 1;
        let found = if self.depth > DEPTH_LIMIT {
            self.aborted = true;
            false
        } else {
            self.step(op, rest, pos, k)
        };
        self.depth -= 1;
        found
    }

    fn step(&mut self, op: &Op, rest: &[Op], pos: usize, k: &mut Cont<'_, 't>) -> bool {
        match op {
            Op::Class(class) => match self.char_at(pos) {
                Some(c) if class.contains(c) => self.seq(rest, pos + c.len_utf8(), k),
                _ => false,
            },
            Op::Start => pos == 0 && self.seq(rest, pos, k),
            Op::End => pos == self.text.len() && self.seq(rest, pos, k),
            Op::Boundary { negated } => {
                let before = pos > 0 && self.is_word_byte(pos - 1);
                (before != self.is_word_byte(pos)) != *negated && self.seq(rest, pos, k)
            }
            Op::Group { capture, alts } => self.alts(alts, pos, &mut |run, end| match *capture {
                Some(slot) => {
                    let old = run.caps[slot].replace((pos, end));
                    if run.seq(rest, end, k) {
                        return true;
                    }
                    run.caps[slot] = old;
                    false
                }
                None => run.seq(rest, end, k),
            }),
            Op::Look {
                ahead,
                negated,
                alts,
            } => self.look(*ahead, *negated, alts, pos, &mut |run, p| {
                run.seq(rest, p, k)
            }),
            Op::Repeat {
                node,
                min,
                max,
                greedy,
                inner,
            } => {
                let rep = Rep {
                    node,
                    min: *min,
                    max: *max,
                    greedy: *greedy,
                    inner: *inner,
                };
                let k = &mut |run: &mut Run<'t>, p| run.seq(rest, p, k);
                match node.as_ref() {
                    Op::Class(class) => self.scan(class, &rep, pos, k),
                    _ => self.repeat(&rep, 0, pos, k),
                }
            }
            Op::Backref(slot) => match self.backref(*slot, pos) {
                Some(end) => self.seq(rest, end, k),
                None => false,
            },
        }
    }

    /// A look-around: atomic, its captures kept only when it is positive.
    fn look(
        &mut self,
        ahead: bool,
        negated: bool,
        alts: &[Vec<Op>],
        pos: usize,
        k: &mut Cont<'_, 't>,
    ) -> bool {
        let saved = self.caps.clone();
        let found = if ahead {
            self.alts(alts, pos, &mut |_, _| true)
        } else {
            // A look-behind holds if some stretch ending here matches; the
            // longest is tried first, as JavaScript's backward greedy
            // matching tends to find.
            let mut found = false;
            let mut start = 0;
            while start <= pos && !self.aborted {
                if self.text.is_char_boundary(start)
                    && self.alts(alts, start, &mut |_, end| end == pos)
                {
                    found = true;
                    break;
                }
                start += 1;
            }
            found
        };
        if self.aborted {
            return false;
        }
        if negated {
            self.caps = saved;
            return !found && k(self, pos);
        }
        if found && k(self, pos) {
            return true;
        }
        self.caps = saved;
        false
    }

    /// A backreference: the end of the text it matches at `pos`.
    fn backref(&self, slot: usize, pos: usize) -> Option<usize> {
        let Some((a, b)) = self.caps.get(slot).copied().flatten() else {
            return Some(pos);
        };
        let want = &self.text[a..b];
        let mut end = pos;
        let mut have = self.text[pos..].chars();
        for w in want.chars() {
            let h = have.next()?;
            let same = h == w
                || (self.insensitive
                    && charset::js_canonicalize(h as u32) == charset::js_canonicalize(w as u32));
            if !same {
                return None;
            }
            end += h.len_utf8();
        }
        Some(end)
    }

    /// A quantified group: ECMA-262's `RepeatMatcher`.
    fn repeat(&mut self, rep: &Rep<'_>, count: u32, pos: usize, k: &mut Cont<'_, 't>) -> bool {
        if rep.max == Some(count) {
            return k(self, pos);
        }
        let may_stop = count >= rep.min;
        if may_stop && !rep.greedy && k(self, pos) {
            return true;
        }
        if self.aborted {
            return false;
        }
        let (a, b) = rep.inner;
        let saved: Vec<_> = self.caps[a..b].to_vec();
        self.caps[a..b].fill(None);
        let found = self.seq(std::slice::from_ref(rep.node), pos, &mut |run, p| {
            // An empty iteration past the minimum is rejected.
            !(may_stop && p == pos) && run.repeat(rep, count + 1, p, k)
        });
        if found {
            return true;
        }
        self.caps[a..b].copy_from_slice(&saved);
        may_stop && rep.greedy && !self.aborted && k(self, pos)
    }

    /// A quantified single character, in a loop.
    fn scan(&mut self, class: &Class, rep: &Rep<'_>, pos: usize, k: &mut Cont<'_, 't>) -> bool {
        let max = rep.max.unwrap_or(u32::MAX);
        let mut count = 0;
        let mut end = pos;
        // the mandatory part
        while count < rep.min {
            match self.char_at(end) {
                Some(c) if class.contains(c) && self.tick() => end += c.len_utf8(),
                _ => return false,
            }
            count += 1;
        }
        if !rep.greedy {
            loop {
                if k(self, end) {
                    return true;
                }
                if self.aborted || count == max {
                    return false;
                }
                match self.char_at(end) {
                    Some(c) if class.contains(c) && self.tick() => end += c.len_utf8(),
                    _ => return false,
                }
                count += 1;
            }
        }
        let least = end;
        while count < max {
            match self.char_at(end) {
                Some(c) if class.contains(c) && self.tick() => end += c.len_utf8(),
                _ => break,
            }
            count += 1;
        }
        loop {
            if k(self, end) {
                return true;
            }
            if self.aborted || end == least {
                return false;
            }
            end -= 1;
            while !self.text.is_char_boundary(end) {
                end -= 1;
            }
        }
    }
}

/// A quantifier's fields, passed down its iterations.
struct Rep<'p> {
    node: &'p Op,
    min: u32,
    max: Option<u32>,
    greedy: bool,
    inner: (usize, usize),
}
