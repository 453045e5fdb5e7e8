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

/// A radix-trie node: chains of single-child nodes are merged into one edge,
/// so a walk compares whole literal runs at once instead of byte by byte.
#[derive(Default)]
struct Node {
    /// The edge into this node (case-folded when the index folds); its first
    /// byte is the key the parent's `children` are sorted by.
    label: Vec<u8>,
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
        Index::from_prefixes(
            stack.iter().map(Layer::literal_prefix),
            stack.len(),
            case_sensitive,
        )
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
            linear: len <= LINEAR_MAX,
            len,
        };
        if idx.linear {
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
            trie[node].layers.push(i as u32);
        }
        idx.nodes[0].layers = std::mem::take(&mut trie[0].layers);
        idx.compress(&mut trie, 0, 0);
        idx
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
            self.nodes.push(Node {
                label,
                children: Vec::new(),
                layers: std::mem::take(&mut trie[end].layers),
            });
            self.nodes[to].children.push((key, new as u32));
            self.compress(trie, end, new);
        }
    }

    /// Appends, in registration order, the indexes of layers after `from`
    /// (inclusive) that may match `path`.
    pub(crate) fn candidates(&self, path: &str, from: usize, out: &mut Candidates) {
        out.clear();
        if self.linear {
            out.extend_range(from, self.len);
            return;
        }
        let path = path.as_bytes();
        let mut node = &self.nodes[0];
        out.extend_filtered(&node.layers, from);
        let mut pos = 0;
        while let Some(&b) = path.get(pos) {
            let b = if self.fold { b.to_ascii_lowercase() } else { b };
            let Ok(k) = node.children.binary_search_by_key(&b, |c| c.0) else {
                break;
            };
            node = &self.nodes[node.children[k].1 as usize];
            let Some(run) = path.get(pos..pos + node.label.len()) else {
                break;
            };
            // Labels are folded already, so comparing without case is exact.
            let same = if self.fold {
                run.eq_ignore_ascii_case(&node.label)
            } else {
                run == &node.label[..]
            };
            if !same {
                break;
            }
            pos += run.len();
            out.extend_filtered(&node.layers, from);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What the index must return: every layer from `from` on whose
    /// literal prefix starts the path.
    fn linear(prefixes: &[&str], path: &str, from: usize, fold: bool) -> Vec<u32> {
        let starts = |p: &str| match path.get(..p.len()) {
            Some(head) if fold => head.eq_ignore_ascii_case(p),
            Some(head) => head == p,
            None => false,
        };
        (from..prefixes.len())
            .filter(|&i| starts(prefixes[i]))
            .map(|i| i as u32)
            .collect()
    }

    #[test]
    fn radix_walk_finds_exactly_the_layers_whose_prefix_starts_the_path() {
        let mut prefixes = vec![
            "",
            "/",
            "/r/route",
            "/r/route1",
            "/r/route10/",
            "/R/Route2",
            "/mw",
            "/mw/",
            "/mw/plaintext",
            "/plaintext",
            "/plain",
            "/json",
            "/log",
            "/static/",
            "/a/b/c",
            "/a/bd",
            "/a/",
        ];
        let extra: Vec<String> = (0..40).map(|k| format!("/r/route{k}/")).collect();
        prefixes.extend(extra.iter().map(String::as_str));
        let paths = [
            "",
            "/",
            "/r",
            "/r/route",
            "/r/route1",
            "/r/route10/5",
            "/r/route1/5",
            "/r/route2/x",
            "/R/ROUTE2/x",
            "/mw/plaintext",
            "/MW/PLAINTEXT",
            "/mw",
            "/plaintext",
            "/plain",
            "/pla",
            "/json/",
            "/a/b/c/d",
            "/a/bd",
            "/a/bx",
            "/zzz",
            "/r/route39/1",
            "/r/route4",
        ];
        for case_sensitive in [false, true] {
            let idx =
                Index::from_prefixes(prefixes.iter().copied(), prefixes.len(), case_sensitive);
            assert!(!idx.linear);
            for path in paths {
                for from in [0, 3, 9, prefixes.len()] {
                    let mut out = Candidates::new();
                    idx.candidates(path, from, &mut out);
                    assert_eq!(
                        out.as_slice(),
                        linear(&prefixes, path, from, !case_sensitive),
                        "{path} from {from} case_sensitive {case_sensitive}"
                    );
                }
            }
        }
    }

    #[test]
    fn chains_are_merged_into_single_edges() {
        let prefixes = ["/plaintext", "/plain", "/json"].repeat(5);
        let idx = Index::from_prefixes(prefixes.iter().copied(), prefixes.len(), false);
        // root, "/", "plain", "text", "json"
        assert_eq!(idx.nodes.len(), 5);
    }
}
