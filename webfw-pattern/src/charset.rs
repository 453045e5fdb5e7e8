//! Sets of characters (inclusive code-point ranges) and the case folding of
//! JavaScript's non-Unicode `i` flag.
//!
//! JavaScript (ECMA-262 `Canonicalize`, non-Unicode mode) compares two
//! characters case-insensitively by upper-casing both; a character whose
//! upper case is not a single UTF-16 code unit, or a non-ASCII character whose
//! upper case is ASCII (`ſ` → `S`, `K` (Kelvin) stays), is its own canonical
//! form. We reproduce that exactly for the Basic Multilingual Plane, so that
//! e.g. `k` never matches the Kelvin sign (the `regex` crate's own Unicode
//! case folding would).

use std::sync::OnceLock;

/// Largest Unicode scalar value.
pub(crate) const MAX_CHAR: u32 = 0x10_FFFF;

/// A set of code points as sorted, non-overlapping, non-adjacent inclusive ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CharSet {
    ranges: Vec<(u32, u32)>,
}

impl CharSet {
    pub(crate) fn new() -> Self {
        CharSet { ranges: Vec::new() }
    }

    pub(crate) fn from_ranges(ranges: &[(u32, u32)]) -> Self {
        let mut s = CharSet::new();
        for &(a, b) in ranges {
            s.add_range(a, b);
        }
        s
    }

    pub(crate) fn single(c: u32) -> Self {
        CharSet {
            ranges: vec![(c, c)],
        }
    }

    pub(crate) fn add(&mut self, c: u32) {
        self.add_range(c, c);
    }

    pub(crate) fn add_range(&mut self, a: u32, b: u32) {
        if a > b {
            return;
        }
        self.ranges.push((a, b));
        self.normalize();
    }

    pub(crate) fn union(&mut self, other: &CharSet) {
        self.ranges.extend_from_slice(&other.ranges);
        self.normalize();
    }

    fn normalize(&mut self) {
        sort_pairs(&mut self.ranges);
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(self.ranges.len());
        for &(a, b) in &self.ranges {
            if let Some(last) = out.last_mut()
                && a <= last.1.saturating_add(1)
            {
                if b > last.1 {
                    last.1 = b;
                }
                continue;
            }
            out.push((a, b));
        }
        self.ranges = out;
    }

    pub(crate) fn contains(&self, c: u32) -> bool {
        self.ranges
            .binary_search_by(|&(a, b)| {
                if b < c {
                    std::cmp::Ordering::Less
                } else if a > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }

    /// Complement with respect to `0..=MAX_CHAR`.
    pub(crate) fn negate(&self) -> CharSet {
        let mut out = Vec::with_capacity(self.ranges.len() + 1);
        let mut next = 0u32;
        for &(a, b) in &self.ranges {
            if a > next {
                out.push((next, a - 1));
            }
            next = b.saturating_add(1);
        }
        if next <= MAX_CHAR {
            out.push((next, MAX_CHAR));
        }
        CharSet { ranges: out }
    }

    pub(crate) fn difference(&self, other: &CharSet) -> CharSet {
        let mut out = CharSet::new();
        let neg = other.negate();
        // intersection of self and neg
        for &(a, b) in &self.ranges {
            for &(c, d) in &neg.ranges {
                let lo = a.max(c);
                let hi = b.min(d);
                if lo <= hi {
                    out.ranges.push((lo, hi));
                }
            }
        }
        out.normalize();
        out
    }

    /// The set closed under JavaScript's non-Unicode case-insensitive
    /// equivalence (`Canonicalize(x) == Canonicalize(y)`).
    pub(crate) fn case_closed(&self) -> CharSet {
        let mut out = self.clone();
        if self.ranges.last().is_none_or(|r| r.1 < 0x80) {
            // ASCII letters only pair with each other (no table needed)
            for &(a, b) in &self.ranges {
                for c in a..=b {
                    let byte = c as u8;
                    if byte.is_ascii_alphabetic() {
                        out.ranges.push((
                            byte.to_ascii_lowercase() as u32,
                            byte.to_ascii_lowercase() as u32,
                        ));
                        out.ranges.push((
                            byte.to_ascii_uppercase() as u32,
                            byte.to_ascii_uppercase() as u32,
                        ));
                    }
                }
            }
            out.normalize();
            return out;
        }
        let mut extra = Vec::new();
        for group in case_groups() {
            if group.iter().any(|&c| self.contains(c)) {
                extra.extend(group.iter().map(|&c| (c, c)));
            }
        }
        if !extra.is_empty() {
            out.ranges.extend(extra);
            out.normalize();
        }
        out
    }

    /// The single character of this set, if it has exactly one.
    pub(crate) fn as_single(&self) -> Option<u32> {
        match self.ranges.as_slice() {
            [(a, b)] if a == b => Some(*a),
            _ => None,
        }
    }
}

/// JavaScript's non-Unicode `Canonicalize` for one UTF-16 code unit.
pub(crate) fn js_canonicalize(c: u32) -> u32 {
    if c < 0x80 {
        return if (b'a' as u32..=b'z' as u32).contains(&c) {
            c - 32
        } else {
            c
        };
    }
    if c > 0xFFFF {
        return c;
    }
    let Some(ch) = char::from_u32(c) else {
        return c; // lone surrogate
    };
    let mut up = ch.to_uppercase();
    let Some(u) = up.next() else { return c };
    if up.next().is_some() {
        return c;
    }
    let u = u as u32;
    if !(0x80..=0xFFFF).contains(&u) {
        return c;
    }
    u
}

/// Sorts pairs in ascending order: a heap sort of a few hundred bytes of
/// code, where `sort_unstable` would link the standard library's (about
/// 8 KB) into every app with a route.
fn sort_pairs(v: &mut [(u32, u32)]) {
    fn sift_down(v: &mut [(u32, u32)], mut root: usize, end: usize) {
        loop {
            let mut child = 2 * root + 1;
            if child >= end {
                return;
            }
            if child + 1 < end && v[child] < v[child + 1] {
                child += 1;
            }
            if v[root] >= v[child] {
                return;
            }
            v.swap(root, child);
            root = child;
        }
    }
    for root in (0..v.len() / 2).rev() {
        sift_down(v, root, v.len());
    }
    for end in (1..v.len()).rev() {
        v.swap(0, end);
        sift_down(v, 0, end);
    }
}

/// Equivalence classes (of size ≥ 2) of BMP characters under
/// [`js_canonicalize`].
fn case_groups() -> &'static [Vec<u32>] {
    static GROUPS: OnceLock<Vec<Vec<u32>>> = OnceLock::new();
    GROUPS.get_or_init(|| {
        let mut pairs: Vec<(u32, u32)> = (0..=0xFFFFu32)
            .filter(|c| !(0xD800..=0xDFFF).contains(c))
            .map(|c| (js_canonicalize(c), c))
            .collect();
        sort_pairs(&mut pairs);
        let mut groups = Vec::new();
        let mut i = 0;
        while i < pairs.len() {
            let mut j = i + 1;
            while j < pairs.len() && pairs[j].0 == pairs[i].0 {
                j += 1;
            }
            if j - i >= 2 {
                groups.push(pairs[i..j].iter().map(|p| p.1).collect());
            }
            i = j;
        }
        groups
    })
}

/// All characters equivalent to `c` under the `i` flag (including `c`).
pub(crate) fn case_mates(c: u32) -> CharSet {
    if c < 0x80 {
        let b = c as u8;
        if b.is_ascii_alphabetic() {
            let mut s = CharSet::single(b.to_ascii_lowercase() as u32);
            s.add(b.to_ascii_uppercase() as u32);
            return s;
        }
        return CharSet::single(c);
    }
    let canon = js_canonicalize(c);
    for group in case_groups() {
        if js_canonicalize(group[0]) == canon && group.contains(&c) {
            return CharSet::from_ranges(&group.iter().map(|&x| (x, x)).collect::<Vec<_>>());
        }
    }
    CharSet::single(c)
}

/// JavaScript `\d`.
pub(crate) fn digit() -> CharSet {
    CharSet::from_ranges(&[(0x30, 0x39)])
}

/// JavaScript `\w` (ASCII only in non-Unicode mode).
pub(crate) fn word() -> CharSet {
    CharSet::from_ranges(&[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
}

/// JavaScript `\s` (WhiteSpace and LineTerminator).
pub(crate) fn space() -> CharSet {
    CharSet::from_ranges(&[
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ])
}

/// JavaScript `.` without the `s` flag: anything but a line terminator.
pub(crate) fn dot() -> CharSet {
    CharSet::from_ranges(&[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]).negate()
}

/// Whether `c` is a JavaScript line terminator.
pub(crate) fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_pairs_is_the_standard_sort() {
        let mut seed = 3u64;
        for len in [0, 1, 2, 3, 7, 16, 100, 1000] {
            let v: Vec<(u32, u32)> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    ((seed >> 40) as u32 % 20, (seed >> 20) as u32 % 50)
                })
                .collect();
            let mut ours = v.clone();
            sort_pairs(&mut ours);
            let mut std = v;
            std.sort_unstable();
            assert_eq!(ours, std, "len {len}");
        }
    }

    #[test]
    fn canonicalize_follows_js_rules() {
        assert_eq!(js_canonicalize('a' as u32), 'A' as u32);
        assert_eq!(js_canonicalize('ſ' as u32), 'ſ' as u32);
        assert_eq!(js_canonicalize('\u{212A}' as u32), 0x212A);
        assert_eq!(js_canonicalize('ß' as u32), 'ß' as u32);
        assert_eq!(js_canonicalize('σ' as u32), 'Σ' as u32);
        assert_eq!(js_canonicalize('ς' as u32), 'Σ' as u32);
    }

    #[test]
    fn case_mates_are_js_equivalence_classes() {
        assert_eq!(
            case_mates('k' as u32),
            CharSet::from_ranges(&[(75, 75), (107, 107)])
        );
        let sigma = case_mates('σ' as u32);
        assert!(sigma.contains('ς' as u32) && sigma.contains('Σ' as u32));
        assert_eq!(case_mates('/' as u32), CharSet::single('/' as u32));
    }

    #[test]
    fn set_operations() {
        let w = word();
        assert!(w.contains('_' as u32) && !w.contains('-' as u32));
        let nw = w.negate();
        assert!(nw.contains('-' as u32) && nw.contains(MAX_CHAR) && !nw.contains('a' as u32));
        let d = dot().difference(&CharSet::single('/' as u32));
        assert!(!d.contains('/' as u32) && !d.contains('\n' as u32) && d.contains('a' as u32));
        let closed = CharSet::from_ranges(&[('a' as u32, 'c' as u32)]).case_closed();
        assert!(closed.contains('B' as u32) && !closed.contains('D' as u32));
        // the ASCII shortcut agrees with the table
        for (a, b) in [
            (0x20u32, 0x7Eu32),
            ('k' as u32, 'k' as u32),
            ('S' as u32, 'Z' as u32),
        ] {
            let set = CharSet::from_ranges(&[(a, b)]);
            let mut wide = set.clone();
            wide.add(0x10_0000);
            let via_table = wide.case_closed().difference(&CharSet::single(0x10_0000));
            assert_eq!(set.case_closed(), via_table);
        }
    }
}
