//! Exact paths in front of the candidate trie: a path that spells a whole
//! trie node (a route registered without parameters, a mount path) finds
//! that node with one hash and one comparison instead of a walk of one
//! step per edge. Any other path misses and walks the trie as before, so
//! the answer is the walk's either way: the deepest node a walk reaches for
//! a node's own text is that node.

use crate::http::{half_at, same_bytes, word_at};

/// No node in a slot.
const EMPTY: u32 = u32::MAX;

pub(super) struct ExactPaths {
    /// Open addressing with linear probing, a power of two long, at most
    /// half full: `(tag, node)`, the tag being the low half of the hash, so
    /// a probe compares text only when the tags agree.
    slots: Box<[(u32, u32)]>,
    /// `64 - log2(slots.len())`: the slot is the hash's top bits.
    shift: u32,
    /// Each node's full text, by node number (folded as the trie's labels).
    texts: Box<[Box<[u8]>]>,
}

impl ExactPaths {
    /// A table of the nodes whose full texts are `texts` (by node number);
    /// the root (node 0, the empty text) is left to the walk.
    pub(super) fn new(texts: Vec<Box<[u8]>>) -> ExactPaths {
        let len = (texts.len() * 2).next_power_of_two().max(8);
        let mut slots = vec![(0, EMPTY); len].into_boxed_slice();
        let shift = 64 - len.trailing_zeros();
        for (node, text) in texts.iter().enumerate().skip(1) {
            let h = hash(text);
            let mut i = (h >> shift) as usize;
            while slots[i].1 != EMPTY {
                i = (i + 1) & (len - 1);
            }
            slots[i] = (h as u32, node as u32);
        }
        ExactPaths {
            slots,
            shift,
            texts: texts.into_boxed_slice(),
        }
    }

    /// Each node's full text, by node number.
    pub(super) fn texts(&self) -> &[Box<[u8]>] {
        &self.texts
    }

    /// The node whose full text is exactly `path`.
    #[inline]
    pub(super) fn get(&self, path: &[u8]) -> Option<u32> {
        let h = hash(path);
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        loop {
            let (tag, node) = self.slots[i];
            if node == EMPTY {
                return None;
            }
            if tag == h as u32 && same_bytes(&self.texts[node as usize], path) {
                return Some(node);
            }
            i = (i + 1) & mask;
        }
    }
}

/// A word-at-a-time hash of a path (the last word overlapping the one
/// before it), mixed so that both its top bits (the slot) and its low half
/// (the tag) depend on every byte.
#[inline]
fn hash(p: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let word = |i: usize| word_at(p, i);
    let half = |i: usize| u64::from(half_at(p, i));
    let n = p.len();
    let mut h = n as u64;
    let mut step = |w: u64| h = (h.rotate_left(23) ^ w).wrapping_mul(K);
    // Most paths are 8 to 16 bytes: two words, no loop.
    if n > 16 {
        let mut i = 0;
        while i + 8 < n {
            step(word(i));
            i += 8;
        }
        step(word(n - 8));
    } else if n >= 8 {
        step(word(0));
        step(word(n - 8));
    } else if n >= 4 {
        step(half(0) << 32 | half(n - 4));
    } else {
        step(p.iter().fold(0, |w, &b| w << 8 | u64::from(b)));
    }
    (h ^ (h >> 29)).wrapping_mul(K)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(texts: &[&str]) -> ExactPaths {
        ExactPaths::new(texts.iter().map(|t| t.as_bytes().into()).collect())
    }

    #[test]
    fn every_text_but_the_roots_is_found_and_nothing_else() {
        let mut texts = vec!["", "/", "/mw", "/mw/plaintext", "/plaintext", "/a", "/ab"];
        let many: Vec<String> = (0..300).map(|k| format!("/r/route{k}/")).collect();
        texts.extend(many.iter().map(String::as_str));
        let t = table(&texts);
        assert_eq!(t.get(b""), None);
        for (node, text) in texts.iter().enumerate().skip(1) {
            assert_eq!(t.get(text.as_bytes()), Some(node as u32), "{text}");
        }
        for other in [
            "/m",
            "/mw/",
            "/MW",
            "/plaintex",
            "/plaintexts",
            "/r/route300/",
            "/b",
        ] {
            assert_eq!(t.get(other.as_bytes()), None, "{other}");
        }
    }

    #[test]
    fn the_hash_sees_every_byte_at_every_length() {
        let text: Vec<u8> = (0..24).map(|i| b'a' + i).collect();
        for n in 1..=text.len() {
            for flip in 0..n {
                let mut other = text[..n].to_vec();
                other[flip] ^= 1;
                assert_ne!(hash(&text[..n]), hash(&other), "length {n}, byte {flip}");
            }
        }
    }
}
