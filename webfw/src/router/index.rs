//! Candidate prefilter: a byte trie over each layer's literal path prefix.
//!
//! Every layer whose pattern can match a path has a literal prefix that the
//! path starts with (case-folded for case-insensitive routers). Walking the
//! path through the trie therefore yields a superset of the matching layers;
//! testing those in registration order gives exactly the answer of Express's
//! linear scan, at a cost that depends on the path length, not on the number
//! of layers.

use super::layer::Layer;

/// Routers with fewer layers than this are scanned linearly: testing a handful
/// of patterns is cheaper than walking a trie.
const LINEAR_MAX: usize = 12;

#[derive(Default)]
struct Node {
    children: Vec<(u8, u32)>,
    layers: Vec<u32>,
}

pub(crate) struct Index {
    nodes: Vec<Node>,
    fold: bool,
    linear: bool,
    len: usize,
}

impl Index {
    pub(crate) fn build(stack: &[Layer], case_sensitive: bool) -> Index {
        let mut idx = Index {
            nodes: vec![Node::default()],
            fold: !case_sensitive,
            linear: stack.len() <= LINEAR_MAX,
            len: stack.len(),
        };
        if idx.linear {
            return idx;
        }
        for (i, layer) in stack.iter().enumerate() {
            let mut node = 0usize;
            for &b in layer.literal_prefix().as_bytes() {
                let b = if idx.fold { b.to_ascii_lowercase() } else { b };
                node = match idx.nodes[node].children.binary_search_by_key(&b, |c| c.0) {
                    Ok(pos) => idx.nodes[node].children[pos].1 as usize,
                    Err(pos) => {
                        let new = idx.nodes.len();
                        idx.nodes.push(Node::default());
                        idx.nodes[node].children.insert(pos, (b, new as u32));
                        new
                    }
                };
            }
            idx.nodes[node].layers.push(i as u32);
        }
        idx
    }

    /// Appends, in registration order, the indexes of layers after `from`
    /// (inclusive) that may match `path`.
    pub(crate) fn candidates(&self, path: &str, from: usize, out: &mut Candidates) {
        out.clear();
        if self.linear {
            out.extend_range(from, self.len);
            return;
        }
        let mut node = 0usize;
        out.extend_filtered(&self.nodes[0].layers, from);
        for &b in path.as_bytes() {
            let b = if self.fold { b.to_ascii_lowercase() } else { b };
            match self.nodes[node].children.binary_search_by_key(&b, |c| c.0) {
                Ok(pos) => {
                    node = self.nodes[node].children[pos].1 as usize;
                    out.extend_filtered(&self.nodes[node].layers, from);
                }
                Err(_) => break,
            }
        }
        out.sort();
    }
}

/// A small list of layer indexes, kept on the stack unless it grows large.
pub(crate) struct Candidates {
    inline: [u32; 24],
    len: usize,
    spill: Vec<u32>,
}

impl Candidates {
    pub(crate) fn new() -> Self {
        Candidates {
            inline: [0; 24],
            len: 0,
            spill: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    fn push(&mut self, v: u32) {
        if self.spill.is_empty() && self.len < self.inline.len() {
            self.inline[self.len] = v;
            self.len += 1;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline[..self.len]);
            }
            self.spill.push(v);
        }
    }

    fn extend_range(&mut self, from: usize, to: usize) {
        for i in from..to {
            self.push(i as u32);
        }
    }

    fn extend_filtered(&mut self, items: &[u32], from: usize) {
        for &i in items {
            if i as usize >= from {
                self.push(i);
            }
        }
    }

    fn sort(&mut self) {
        if self.spill.is_empty() {
            self.inline[..self.len].sort_unstable();
        } else {
            self.spill.sort_unstable();
        }
    }

    pub(crate) fn as_slice(&self) -> &[u32] {
        if self.spill.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.spill
        }
    }
}
