//! Candidate prefilter: a byte trie over each layer's literal path prefix.
//!
//! Every layer whose pattern can match a path has a literal prefix that the
//! path starts with (case-folded for case-insensitive routers). Walking the
//! path through the trie therefore yields a superset of the matching layers;
//! testing those in registration order gives exactly the answer of Express's
//! linear scan, at a cost that depends on the path length, not on the number
//! of layers.
//!
//! A path that spells a whole node (a route without parameters, a mount
//! path) is found by hash, and for it the index knows more: what every
//! layer without parameters makes of exactly that text, worked out once
//! when the router freezes. The walk then neither reads the path nor
//! matches those layers again.
//!
//! The index is a leaf: it is built from data (each layer's literal prefix,
//! and what a layer makes of an exact text) and maps a path to layer
//! numbers. It knows nothing of layers, requests or handlers.

use super::exact::ExactPaths;
use crate::http::same_bytes;

/// A layer that may match a path, and what the index knows of its match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub(crate) layer: u32,
    pub(crate) fact: Fact,
}

/// What matching a [`Candidate`]'s layer against the path gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fact {
    /// Not known: the walk matches the layer.
    Unknown,
    /// The layer matches `len` bytes without parameters; `edge` is what
    /// its owner said of the path there (a mount's edge), handed back as is.
    Matches { len: u32, edge: Option<bool> },
}

impl Candidate {
    fn unknown(layer: u32) -> Candidate {
        Candidate {
            layer,
            fact: Fact::Unknown,
        }
    }
}

/// Routers with fewer layers than this are scanned linearly: testing a handful
/// of patterns is cheaper than walking a trie.
const LINEAR_MAX: usize = 12;

/// A radix-trie node: chains of single-child nodes are merged into one edge,
/// so a walk compares whole literal runs at once instead of byte by byte.
#[derive(Default)]
struct Node {
    /// The edge into this node (case-folded when the index folds); its first
    /// byte is the key the parent's `children` are sorted by.
    label: Vec<u8>,
    children: Vec<(u8, u32)>,
    /// For a node with two children or more whose keys lie close together
    /// (the first letters of an app's paths, the digits of numbered ones):
    /// the child of each key from `dense_from` on, `NONE` for none. One
    /// load instead of a scan or a binary search.
    dense: Vec<u32>,
    dense_from: u8,
    /// In ascending order, the layers whose prefix ends here or at an
    /// ancestor: a walk's answer is the list of the deepest node it reaches.
    layers: Vec<Candidate>,
    /// The answer for a path that is exactly this node's text: `layers`
    /// less those known not to match it, with the facts known of the rest.
    exact: Vec<Candidate>,
}

pub(crate) struct Index {
    nodes: Vec<Node>,
    fold: bool,
    /// Every layer, for routers too small for a trie.
    linear: Option<Vec<Candidate>>,
    /// The root's only child, when its edge is one byte without case (the
    /// `/` every path starts with): a walk steps there without a lookup.
    first: Option<(u8, u32)>,
    /// The nodes by their full text, tried before a walk.
    exact: Option<ExactPaths>,
}

impl Index {
    /// The index of layers `0..prefixes.len()`, layer `i` starting with
    /// `prefixes[i]`; `fact(i, text)` tells what layer `i` makes of a path
    /// that is exactly `text` (`None`: it cannot match it).
    pub(crate) fn build(
        prefixes: &[&str],
        case_sensitive: bool,
        fact: impl Fn(u32, &str) -> Option<Fact>,
    ) -> Index {
        let mut idx =
            Index::from_prefixes(prefixes.iter().copied(), prefixes.len(), case_sensitive);
        idx.learn(fact);
        idx
    }

    /// Whether `path` is exactly the text of a node.
    #[cfg(test)]
    pub(crate) fn is_exact(&self, path: &str) -> bool {
        self.exact
            .as_ref()
            .is_some_and(|e| e.get(path.as_bytes()).is_some())
    }

    /// Fills each node's exact answer from `fact(layer, text)`: `None`
    /// when the layer cannot match the node's text.
    fn learn(&mut self, fact: impl Fn(u32, &str) -> Option<Fact>) {
        let Some(exact) = &self.exact else {
            return;
        };
        for (node, text) in self.nodes.iter_mut().zip(exact.texts()) {
            // A node can end inside a character; no `&str` path spells it.
            let Ok(text) = std::str::from_utf8(text) else {
                continue;
            };
            node.exact = node
                .layers
                .iter()
                .filter_map(|c| {
                    fact(c.layer, text).map(|fact| Candidate {
                        layer: c.layer,
                        fact,
                    })
                })
                .collect();
        }
    }

    fn from_prefixes<'a>(
        prefixes: impl Iterator<Item = &'a str>,
        len: usize,
        case_sensitive: bool,
    ) -> Index {
        let fold = !case_sensitive;
        let mut idx = Index {
            nodes: vec![Node::default()],
            fold,
            linear: (len <= LINEAR_MAX).then(|| (0..len as u32).map(Candidate::unknown).collect()),
            first: None,
            exact: None,
        };
        if idx.linear.is_some() {
            return idx;
        }
        // A byte trie first, then merged into the radix form.
        let mut trie = vec![Node::default()];
        for (i, prefix) in prefixes.enumerate() {
            let mut node = 0usize;
            for &b in prefix.as_bytes() {
                let b = if fold { b.to_ascii_lowercase() } else { b };
                node = match trie[node].children.binary_search_by_key(&b, |c| c.0) {
                    Ok(pos) => trie[node].children[pos].1 as usize,
                    Err(pos) => {
                        let new = trie.len();
                        trie.push(Node {
                            label: vec![b],
                            ..Node::default()
                        });
                        trie[node].children.insert(pos, (b, new as u32));
                        new
                    }
                };
            }
            trie[node].layers.push(Candidate::unknown(i as u32));
        }
        idx.nodes[0].layers = std::mem::take(&mut trie[0].layers);
        idx.compress(&mut trie, 0, 0);
        for node in &mut idx.nodes {
            node.densify(fold);
        }
        idx.first = match idx.nodes[0].children[..] {
            [(key, child)]
                if idx.nodes[child as usize].label.len() == 1 && !key.is_ascii_alphabetic() =>
            {
                Some((key, child))
            }
            _ => None,
        };
        for node in &mut idx.nodes {
            node.exact = node.layers.clone();
        }
        idx.exact = Some(ExactPaths::new(idx.texts()));
        idx
    }

    /// Each node's full text (its ancestors' labels and its own), by number.
    fn texts(&self) -> Vec<Box<[u8]>> {
        let mut texts: Vec<Box<[u8]>> = vec![Box::default(); self.nodes.len()];
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            for &(_, child) in &self.nodes[n].children {
                let child = child as usize;
                texts[child] = [&texts[n][..], &self.nodes[child].label[..]]
                    .concat()
                    .into();
                stack.push(child);
            }
        }
        texts
    }

    /// Copies the children of `trie[from]` under `self.nodes[to]`, merging
    /// every chain of layer-less single-child nodes into one edge.
    fn compress(&mut self, trie: &mut [Node], from: usize, to: usize) {
        for (key, child) in std::mem::take(&mut trie[from].children) {
            let mut end = child as usize;
            let mut label = vec![key];
            while trie[end].layers.is_empty() && trie[end].children.len() == 1 {
                let (b, next) = trie[end].children[0];
                label.push(b);
                end = next as usize;
            }
            let new = self.nodes.len();
            // The ancestors' layers and this node's own interleave by number.
            let mut layers = self.nodes[to].layers.clone();
            layers.extend(std::mem::take(&mut trie[end].layers));
            crate::http::sort::sort_by_key(&mut layers, |c| c.layer);
            self.nodes.push(Node {
                label,
                layers,
                ..Node::default()
            });
            self.nodes[to].children.push((key, new as u32));
            self.compress(trie, end, new);
        }
    }

    /// The layers from `from` on (inclusive) that may match `path`, in
    /// registration order, and whether `path` is known to start with each
    /// one's literal prefix (it is when the trie found them).
    pub(crate) fn candidates(&self, path: &str, from: usize) -> (&[Candidate], bool) {
        let (all, prefixed) = match &self.linear {
            Some(all) => (&all[..], false),
            None => (self.find(path.as_bytes()), true),
        };
        // A walk starts from the first layer: no search then.
        let start = match from {
            0 => 0,
            _ => all.partition_point(|c| (c.layer as usize) < from),
        };
        (&all[start..], prefixed)
    }

    /// The exact answer of the node spelling all of `path` when there is
    /// one, else the layers of the deepest node a walk reaches.
    #[inline]
    fn find(&self, path: &[u8]) -> &[Candidate] {
        match self.exact.as_ref().and_then(|e| e.get(path)) {
            Some(node) => &self.nodes[node as usize].exact,
            None => &self.walk(path).layers,
        }
    }

    /// [`Index::find`] by walking the trie.
    fn walk(&self, path: &[u8]) -> &Node {
        let (mut node, mut pos) = match self.first {
            Some((key, child)) if path.first() == Some(&key) => (&self.nodes[child as usize], 1),
            _ => (&self.nodes[0], 0),
        };
        while let Some(&b) = path.get(pos) {
            // A table has both cases of a folded letter: no folding for it.
            let c = if node.dense.is_empty() {
                // A leaf ends the walk: a route's parameters follow its prefix.
                if node.children.is_empty() {
                    break;
                }
                node.child(if self.fold { b.to_ascii_lowercase() } else { b })
            } else {
                node.dense_child(b)
            };
            let Some(c) = c else {
                break;
            };
            let child = &self.nodes[c as usize];
            // The key matched the label's first byte; most labels are that
            // one byte (digits, path separators), so skip the comparison call.
            let label = &child.label[1..];
            if !label.is_empty() {
                let Some(run) = path.get(pos + 1..pos + 1 + label.len()) else {
                    break;
                };
                // Labels are folded already, so comparing without case is exact;
                // most paths are lower case, so the plain comparison usually decides.
                let same = same_bytes(run, label) || (self.fold && run.eq_ignore_ascii_case(label));
                if !same {
                    break;
                }
            }
            pos += child.label.len();
            node = child;
        }
        node
    }
}

/// No child in [`Node::dense`].
const NONE: u32 = u32::MAX;

/// Nodes with two children or more get a dense table when their keys span
/// at most this many bytes (a table of at most 256 bytes each): one load,
/// where even a scan of two keys costs more.
const DENSE_SPAN: usize = 64;
/// Other nodes with at most this many children are scanned, and nodes
/// with more binary-searched.
const SCAN_MAX: usize = 8;

impl Node {
    /// Builds the table; `fold`: keys are lower case, and the table maps the
    /// upper case of a letter too.
    fn densify(&mut self, fold: bool) {
        let keys = || {
            self.children.iter().flat_map(move |&(key, child)| {
                let upper = (fold && key.is_ascii_lowercase()).then(|| key.to_ascii_uppercase());
                std::iter::once((key, child)).chain(upper.map(|u| (u, child)))
            })
        };
        let (Some(first), Some(last)) = (keys().map(|k| k.0).min(), keys().map(|k| k.0).max())
        else {
            return;
        };
        let span = usize::from(last - first) + 1;
        if self.children.len() < 2 || span > DENSE_SPAN {
            return;
        }
        let mut dense = vec![NONE; span];
        for (key, child) in keys() {
            dense[usize::from(key - first)] = child;
        }
        self.dense_from = first;
        self.dense = dense;
    }

    /// The child of the key `b` in the table.
    #[inline]
    fn dense_child(&self, b: u8) -> Option<u32> {
        let c = *self
            .dense
            .get(usize::from(b.wrapping_sub(self.dense_from)))?;
        (c != NONE).then_some(c)
    }

    /// The child whose edge starts with `b`, for a node without a table: a
    /// scan of a few children costs less than a binary search's setup,
    /// which only nodes with many keys far apart need.
    #[inline]
    fn child(&self, b: u8) -> Option<u32> {
        let k = if self.children.len() <= SCAN_MAX {
            self.children.iter().position(|c| c.0 == b)
        } else {
            self.children.binary_search_by_key(&b, |c| c.0).ok()
        }?;
        Some(self.children[k].1)
    }
}

#[cfg(test)]
mod tests;
