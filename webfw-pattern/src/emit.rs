//! Turn a parsed JavaScript regex into `regex` (or, when it needs
//! look-around or backreferences, `fancy-regex`) syntax with the same
//! matching behaviour:
//!
//! * every character class is spelled out explicitly, case-folded with
//!   JavaScript's rules when case-insensitive (no `(?i)` is ever used);
//! * a positive look-ahead that ends a top-level alternative (path-to-regexp's
//!   `(?=\/|$)`) is matched as a consuming group whose start marks the end of
//!   the JavaScript match, so `regex` can run it;
//! * `(?!A|B).` with single-character alternatives becomes a class difference
//!   (path-to-regexp's `((?:(?!\/|-).)+?)` for `/:from-:to`);
//! * captures inside quantifiers get a hidden group around the quantified
//!   body so that JavaScript's per-iteration capture reset can be applied
//!   after the match.

use std::fmt::Write as _;

use crate::charset::{self, CharSet};
use crate::jsre::{Ast, GroupKind, Node};

/// How captures of the compiled Rust regex map back to JavaScript.
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    /// Rust group index of every JavaScript group (index = JS number - 1);
    /// `None` for groups that can never participate.
    pub(crate) js_groups: Vec<Option<usize>>,
    /// Groups whose end is the end of the JavaScript match (rewritten
    /// trailing look-aheads); the first one that participated counts.
    pub(crate) ends: Vec<usize>,
    /// Capture-reset rules for groups inside quantifiers.
    pub(crate) fixups: Vec<Fixup>,
    /// Whether `fancy-regex` is needed.
    pub(crate) fancy: bool,
}

/// JS groups `members` (0-based) only count if they lie inside the span of
/// Rust group `hidden` (the last iteration); if `unset_if_empty` an empty
/// last iteration means JavaScript rejected it, so they are unset.
#[derive(Clone, Debug)]
pub(crate) struct Fixup {
    pub(crate) hidden: usize,
    pub(crate) members: Vec<usize>,
    pub(crate) unset_if_empty: bool,
}

/// The emitted Rust pattern and its capture plan.
pub(crate) struct Emitted {
    pub(crate) pattern: String,
    pub(crate) plan: Plan,
}

/// Resolve a character-like node to the set of characters it matches.
fn resolve(node: &Node, insensitive: bool) -> Option<CharSet> {
    Some(match node {
        Node::Char(c) => {
            if insensitive {
                charset::case_mates(*c)
            } else {
                CharSet::single(*c)
            }
        }
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

/// Apply the `(?!a|b).` → class rewrite everywhere.
fn rewrite(alts: &mut [Vec<Node>], insensitive: bool) {
    for alt in alts.iter_mut() {
        rewrite_seq(alt, insensitive);
    }
}

fn rewrite_seq(seq: &mut Vec<Node>, insensitive: bool) {
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
        if let Node::Group {
            kind:
                GroupKind::Look {
                    ahead: true,
                    negated: true,
                },
            alts,
        } = &seq[i]
            && let Some(next) = resolve(&seq[i + 1], insensitive)
        {
            let mut excluded = Some(CharSet::new());
            for alt in alts {
                match (alt.as_slice(), excluded.as_mut()) {
                    ([one], Some(ex)) => match resolve(one, insensitive) {
                        Some(s) => ex.union(&s),
                        None => excluded = None,
                    },
                    _ => excluded = None,
                }
            }
            if let Some(ex) = excluded {
                seq[i] = Node::Resolved(next.difference(&ex));
                seq.remove(i + 1);
                continue;
            }
        }
        i += 1;
    }
}

fn zero_width(node: &Node) -> bool {
    match node {
        Node::Start | Node::End | Node::WordBoundary { .. } => true,
        Node::Group {
            kind: GroupKind::Look { .. },
            ..
        } => true,
        Node::Group { alts, .. } => alts.iter().all(|a| a.iter().all(zero_width)),
        Node::Repeat { node, max, .. } => *max == Some(0) || zero_width(node),
        _ => false,
    }
}

fn nullable(node: &Node) -> bool {
    match node {
        Node::Char(_) | Node::Set { .. } | Node::Resolved(_) | Node::Dot => false,
        Node::Start | Node::End | Node::WordBoundary { .. } | Node::Backref(_) => true,
        Node::Group {
            kind: GroupKind::Look { .. },
            ..
        } => true,
        Node::Group { alts, .. } => alts.iter().any(|a| a.iter().all(nullable)),
        Node::Repeat { node, min, .. } => *min == 0 || nullable(node),
    }
}

fn captures_in(node: &Node, out: &mut Vec<usize>) {
    match node {
        Node::Group { kind, alts } => {
            if let GroupKind::Capture(n) = kind {
                out.push(n - 1);
            }
            for alt in alts {
                for n in alt {
                    captures_in(n, out);
                }
            }
        }
        Node::Repeat { node, .. } => captures_in(node, out),
        _ => {}
    }
}

/// Does the (rewritten) tree need fancy-regex? `top` says whether a
/// trailing positive look-ahead of each top-level alternative is exempt.
fn needs_fancy(alts: &[Vec<Node>], top: bool) -> bool {
    alts.iter().any(|alt| {
        let n = alt.len();
        alt.iter().enumerate().any(|(i, node)| {
            if top && i + 1 == n && is_trailing_lookahead(node) {
                let Node::Group { alts, .. } = node else {
                    return false;
                };
                return needs_fancy(alts, false);
            }
            node_needs_fancy(node)
        })
    })
}

fn node_needs_fancy(node: &Node) -> bool {
    match node {
        Node::Backref(_) => true,
        Node::Group {
            kind: GroupKind::Look { .. },
            ..
        } => true,
        Node::Group { alts, .. } => needs_fancy(alts, false),
        Node::Repeat {
            node, min, max: _, ..
        } => {
            if zero_width(node) && *min == 0 {
                false
            } else {
                node_needs_fancy(node)
            }
        }
        _ => false,
    }
}

fn is_trailing_lookahead(node: &Node) -> bool {
    matches!(
        node,
        Node::Group {
            kind: GroupKind::Look {
                ahead: true,
                negated: false
            },
            ..
        }
    )
}

struct Emitter {
    out: String,
    next_group: usize,
    insensitive: bool,
    fancy: bool,
    plan: Plan,
    /// JavaScript groups currently open (a backreference to one of them
    /// matches the empty string)
    open: Vec<usize>,
}

/// Emit `ast` (consumed) as Rust regex syntax.
pub(crate) fn emit(mut ast: Ast, insensitive: bool) -> Emitted {
    rewrite(&mut ast.alts, insensitive);
    let fancy = needs_fancy(&ast.alts, true);
    let mut e = Emitter {
        out: String::new(),
        next_group: 1,
        insensitive,
        fancy,
        plan: Plan {
            js_groups: vec![None; ast.groups],
            fancy,
            ..Plan::default()
        },
        open: Vec::new(),
    };
    for (k, alt) in ast.alts.iter().enumerate() {
        if k > 0 {
            e.out.push('|');
        }
        match alt.split_last() {
            Some((last, rest)) if is_trailing_lookahead(last) => {
                let Node::Group { alts: la, .. } = last else {
                    unreachable!()
                };
                let marker = e.open_group();
                e.plan.ends.push(marker);
                e.seq(rest);
                e.out.push_str(")(?:");
                e.alts(la);
                e.out.push(')');
            }
            _ => e.seq(alt),
        }
    }
    Emitted {
        pattern: e.out,
        plan: e.plan,
    }
}

impl Emitter {
    /// Whether `node` would be emitted as the empty string (only
    /// backreferences to groups not set yet do that).
    fn emits_nothing(&self, node: &Node) -> bool {
        match node {
            Node::Backref(n) => {
                !matches!(self.plan.js_groups.get(n - 1), Some(Some(_))) || self.open.contains(n)
            }
            Node::Group {
                kind: GroupKind::NonCapture,
                alts,
            } => alts.len() == 1 && alts[0].iter().all(|n| self.emits_nothing(n)),
            Node::Repeat { node, min, .. } => {
                (zero_width(node) && *min == 0) || self.emits_nothing(node)
            }
            _ => false,
        }
    }

    fn open_group(&mut self) -> usize {
        let g = self.next_group;
        self.next_group += 1;
        self.out.push('(');
        g
    }

    fn alts(&mut self, alts: &[Vec<Node>]) {
        for (k, alt) in alts.iter().enumerate() {
            if k > 0 {
                self.out.push('|');
            }
            self.seq(alt);
        }
    }

    fn seq(&mut self, seq: &[Node]) {
        let mut i = 0;
        while i < seq.len() {
            // a surrogate pair written as two escapes is one character
            if let (Node::Char(hi), Some(Node::Char(lo))) = (&seq[i], seq.get(i + 1))
                && (0xD800..0xDC00).contains(hi)
                && (0xDC00..0xE000).contains(lo)
            {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                self.char(c);
                i += 2;
                continue;
            }
            self.node(&seq[i]);
            i += 1;
        }
    }

    fn char(&mut self, c: u32) {
        if self.insensitive {
            let mates = charset::case_mates(c);
            if mates.as_single().is_none() {
                self.set(&mates);
                return;
            }
        }
        match char::from_u32(c) {
            Some(ch) => self
                .out
                .push_str(&regex::escape(ch.encode_utf8(&mut [0; 4]))),
            None => self.set(&CharSet::new()), // lone surrogate: never matches
        }
    }

    fn set(&mut self, set: &CharSet) {
        // surrogates are not characters in Rust strings
        let set = set.difference(&CharSet::from_ranges(&[(0xD800, 0xDFFF)]));
        if set.is_empty() {
            self.out.push_str(r"[^\x{0}-\x{10FFFF}]");
            return;
        }
        self.out.push('[');
        for &(a, b) in set.ranges() {
            if a == b {
                let _ = write!(self.out, "\\x{{{a:X}}}");
            } else {
                let _ = write!(self.out, "\\x{{{a:X}}}-\\x{{{b:X}}}");
            }
        }
        self.out.push(']');
    }

    fn node(&mut self, node: &Node) {
        match node {
            Node::Char(c) => self.char(*c),
            Node::Set { .. } | Node::Dot | Node::Resolved(_) => {
                let set = resolve(node, self.insensitive).unwrap_or_default();
                self.set(&set);
            }
            Node::Start => self.out.push('^'),
            Node::End => self.out.push('$'),
            Node::WordBoundary { negated } => {
                if self.fancy {
                    const W: &str = r"[0-9A-Za-z_]";
                    if *negated {
                        let _ = write!(self.out, "(?:(?<={W})(?={W})|(?<!{W})(?!{W}))");
                    } else {
                        let _ = write!(self.out, "(?:(?<={W})(?!{W})|(?<!{W})(?={W}))");
                    }
                } else if *negated {
                    self.out.push_str(r"(?-u:\B)");
                } else {
                    self.out.push_str(r"(?-u:\b)");
                }
            }
            Node::Group { kind, alts } => {
                match kind {
                    GroupKind::Capture(n) => {
                        let g = self.open_group();
                        self.plan.js_groups[n - 1] = Some(g);
                        self.open.push(*n);
                    }
                    GroupKind::NonCapture => self.out.push_str("(?:"),
                    GroupKind::Look { ahead, negated } => {
                        self.out.push_str(match (ahead, negated) {
                            (true, false) => "(?=",
                            (true, true) => "(?!",
                            (false, false) => "(?<=",
                            (false, true) => "(?<!",
                        })
                    }
                }
                self.alts(alts);
                self.out.push(')');
                if let GroupKind::Capture(_) = kind {
                    self.open.pop();
                }
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => {
                if zero_width(node) {
                    // JavaScript rejects empty iterations beyond the minimum
                    if *min > 0 {
                        self.node(node);
                    }
                    return;
                }
                // a child that emits nothing (a backreference to a group
                // that cannot be set yet) is an empty repeat: drop it
                if self.emits_nothing(node) {
                    return;
                }
                let mut members = Vec::new();
                captures_in(node, &mut members);
                let fix = !members.is_empty() && (*max != Some(1) || nullable(node));
                self.out.push_str("(?:");
                let hidden = if fix { Some(self.open_group()) } else { None };
                self.node(node);
                if let Some(hidden) = hidden {
                    self.out.push(')');
                    self.plan.fixups.push(Fixup {
                        hidden,
                        members,
                        unset_if_empty: *min == 0,
                    });
                }
                self.out.push(')');
                match (min, max) {
                    (0, None) => self.out.push('*'),
                    (1, None) => self.out.push('+'),
                    (0, Some(1)) => self.out.push('?'),
                    (m, None) => {
                        let _ = write!(self.out, "{{{m},}}");
                    }
                    (m, Some(x)) if m == x => {
                        let _ = write!(self.out, "{{{m}}}");
                    }
                    (m, Some(x)) => {
                        let _ = write!(self.out, "{{{m},{x}}}");
                    }
                }
                if !greedy {
                    self.out.push('?');
                }
            }
            Node::Backref(n) => {
                // JavaScript: a group that has not participated (or is still
                // open) matches empty
                if let Some(Some(g)) = self.plan.js_groups.get(n - 1)
                    && !self.open.contains(n)
                {
                    let _ = write!(self.out, "(?:(?({g})\\{g}|))");
                }
            }
        }
    }
}
