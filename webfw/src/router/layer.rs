//! A layer: one `use` registration or one route, with its compiled path.

use std::sync::Arc;

use webfw_pattern::{Key, LiteralEnd, Pattern};

use super::Params;
use super::index::Fact;
use super::route::Route;
use crate::app_ref::parent::Parent;
use crate::error::Error;
use crate::handler::{Entry, Middleware};
use crate::request::mount_edge;

/// What a frozen layer runs.
pub(crate) enum LayerKind {
    /// `use` middleware, run in order under the stripped mount path.
    Use(Vec<Entry>),
    Route(Route),
}

/// A compiled path and what runs under it: [`LayerKind`] once frozen; a
/// router being built keeps its `use` lists and routes as registered.
pub(crate) struct Layer<K = LayerKind> {
    pattern: Pattern,
    /// For a literal pattern: its match once the prefix is known to match.
    literal_end: Option<LiteralEnd>,
    keys: Vec<Arc<str>>,
    /// Which keys are Express 5 wildcards (array values); `None` for the
    /// patterns without any, so their match checks nothing per param.
    wildcards: Option<Box<[bool]>>,
    pub(crate) kind: K,
}

/// A successful match: the matched prefix length and the decoded params.
pub(crate) struct Matched {
    pub(crate) len: usize,
    /// `None` for a pattern without parameters: most layers, whose walk
    /// then has no params to move.
    pub(crate) params: Option<Params>,
}

impl<K> Layer<K> {
    pub(crate) fn new(pattern: Pattern, kind: K) -> Layer<K> {
        let keys = pattern
            .keys()
            .iter()
            .map(|k| match k {
                Key::Name(n) | Key::Wildcard(n) => Arc::from(n.as_str()),
                Key::Index(i) => Arc::from(i.to_string().as_str()),
            })
            .collect();
        let wildcards = pattern
            .keys()
            .iter()
            .any(Key::is_wildcard)
            .then(|| pattern.keys().iter().map(Key::is_wildcard).collect());
        Layer {
            literal_end: pattern.literal_end(),
            pattern,
            keys,
            wildcards,
            kind,
        }
    }

    /// The same path, running what `f` makes of its kind.
    fn map<J>(self, f: impl FnOnce(K) -> J) -> Layer<J> {
        Layer {
            pattern: self.pattern,
            literal_end: self.literal_end,
            keys: self.keys,
            wildcards: self.wildcards,
            kind: f(self.kind),
        }
    }

    pub(crate) fn literal_prefix(&self) -> &str {
        self.pattern.literal_prefix()
    }

    /// For a literal pattern, its match of a path known to start with
    /// [`Layer::literal_prefix`]: only what follows its text is looked at.
    #[inline]
    pub(crate) fn literal_end(&self) -> Option<LiteralEnd> {
        self.literal_end
    }

    pub(crate) fn keys(&self) -> &[Arc<str>] {
        &self.keys
    }

    /// Matches the request path; a parameter that cannot be percent-decoded is
    /// a 400 error, as in Express. `prefixed`: the path is known to start
    /// with the layer's literal prefix.
    pub(crate) fn match_path(&self, path: &str, prefixed: bool) -> Result<Option<Matched>, Error> {
        if self.keys.is_empty() {
            let len = self.match_keyless(path, prefixed);
            return Ok(len.map(|len| Matched { len, params: None }));
        }
        let mut params = Params::recycled();
        let mut bad = None;
        let len = self.pattern.matches_each_from(path, prefixed, |ki, raw| {
            if let Some(wild) = &self.wildcards
                && wild[ki]
            {
                if let Err(e) = set_wildcard(&mut params, self.keys[ki].clone(), raw) {
                    bad.get_or_insert(e);
                }
                return;
            }
            // Express 4 decodes every value, router 2 only those with a
            // `%`: the same text, since decoding leaves the others as they are.
            match webfw_pattern::decode_param(raw) {
                Ok(value) => params.set(self.keys[ki].clone(), value),
                Err(e) => {
                    bad.get_or_insert(e);
                }
            }
        });
        let Some(len) = len else {
            Params::recycle(&mut params);
            return Ok(None);
        };
        if let Some(e) = bad {
            Params::recycle(&mut params);
            return Err(Error::new(e.to_string())
                .with_status(400)
                .with_name("URIError"));
        }
        Ok(Some(Matched {
            len,
            params: Some(params),
        }))
    }

    /// The matched length for a pattern without parameters.
    fn match_keyless(&self, path: &str, prefixed: bool) -> Option<usize> {
        if self.pattern.is_match_all() {
            return Some(0);
        }
        self.pattern.matches_each_from(path, prefixed, |_, _| {})
    }
}

impl Layer<Vec<Middleware>> {
    /// The `use` layer as it serves, its handlers frozen under the app `parent`.
    pub(crate) fn freeze(self, parent: &Parent) -> Layer {
        self.map(|handlers| {
            LayerKind::Use(
                handlers
                    .into_iter()
                    .filter_map(|m| m.freeze(parent))
                    .collect(),
            )
        })
    }
}

impl Layer<Route<Middleware>> {
    /// The route as it serves, its handlers frozen under the app `parent`.
    pub(crate) fn freeze(self, parent: &Parent) -> Layer {
        self.map(|route| LayerKind::Route(route.freeze(parent)))
    }
}

impl Layer {
    /// What matching `path` (known to start with the literal prefix)
    /// gives, for the index to keep for a path that is exactly `path`:
    /// `None` when the layer does not match it; not known for a pattern
    /// with parameters, whose values are decoded per request.
    pub(crate) fn fact_at(&self, path: &str) -> Option<Fact> {
        if !self.keys.is_empty() {
            return Some(Fact::Unknown);
        }
        let len = self.match_keyless(path, true)?;
        Some(Fact::Matches {
            len: len as u32,
            edge: self.edge_at(path, len),
        })
    }

    /// For a use layer that matched `len` bytes of `path`: the
    /// [`mount_edge`] its mount needs; nothing for a route.
    #[inline(always)]
    pub(crate) fn edge_at(&self, path: &str, len: usize) -> Option<bool> {
        match self.kind {
            LayerKind::Use(_) => mount_edge(path.as_bytes(), len),
            LayerKind::Route(_) => None,
        }
    }
}

/// router 2's wildcard value: split on `/`, then each part decoded (so
/// `%2F` stays inside its part). Out of line: the usual param's closure
/// stays small enough to inline its decoding.
#[inline(never)]
fn set_wildcard(
    params: &mut Params,
    key: Arc<str>,
    raw: &str,
) -> Result<(), webfw_pattern::DecodeError> {
    let mut parts = Vec::new();
    for part in raw.split('/') {
        parts.push(webfw_pattern::decode_param(part)?);
    }
    params.set_list(key, parts);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::PathSpec;
    use super::super::index::{Candidate, Index};
    use super::*;

    fn index(stack: &[Layer], sensitive: bool) -> Index {
        let prefixes: Vec<&str> = stack.iter().map(Layer::literal_prefix).collect();
        Index::build(&prefixes, sensitive, |i, text| {
            stack[i as usize].fact_at(text)
        })
    }

    #[test]
    fn an_exact_hit_knows_what_matching_each_layer_would_give() {
        // (pattern, a `use` layer?, regex?)
        let mut shapes: Vec<(String, bool, bool)> = [
            ("/mw", true, false),
            ("/mw/", true, false),
            ("/", true, false),
            ("/MW", true, false),
            ("/mw", false, false),
            ("/mw/", false, false),
            ("/mw/plaintext", false, false),
            ("/mw/plaintext/", false, false),
            ("/Mw/PlainText", false, false),
            ("/mw/:x", false, false),
            ("/mw/plain*", false, false),
            ("/mw.json", false, false),
            ("^\\/mw\\/p", false, true),
        ]
        .iter()
        .map(|&(p, u, r)| (p.to_owned(), u, r))
        .collect();
        // Enough layers for a trie.
        shapes.extend((0..15).map(|k| (format!("/r/route{k}/:id"), false, false)));
        let paths = [
            "",
            "/",
            "/mw",
            "/mw/",
            "/MW",
            "/Mw/PlainText",
            "/mw/plaintext",
            "/mw/plaintext/",
            "/mw//plaintext",
            "/mw.json",
            "/mwx",
            "/mw/plain",
            "/r/route1/",
        ];
        let (mut known, mut left_out) = (0, 0);
        for sensitive in [false, true] {
            for strict in [false, true] {
                let stack: Vec<Layer> = shapes
                    .iter()
                    .map(|(p, is_use, regex)| {
                        let opts = webfw_pattern::Options {
                            end: !is_use,
                            strict: !is_use && strict,
                            sensitive,
                        };
                        let spec = if *regex {
                            PathSpec::Regex(p.clone())
                        } else {
                            PathSpec::Pattern(p.clone())
                        };
                        let kind = if *is_use {
                            LayerKind::Use(Vec::new())
                        } else {
                            LayerKind::Route(Route::new(Some(p.clone())))
                        };
                        Layer::new(spec.compile(opts, crate::Dialect::Express4).unwrap(), kind)
                    })
                    .collect();
                let idx = index(&stack, sensitive);
                for path in paths {
                    let exact = idx.is_exact(path);
                    let (found, prefixed) = idx.candidates(path, 0);
                    for (i, layer) in stack.iter().enumerate() {
                        let with_edge = |len: usize| {
                            let edge = match layer.kind {
                                LayerKind::Use(_) => mount_edge(path.as_bytes(), len),
                                LayerKind::Route(_) => None,
                            };
                            (len, edge)
                        };
                        let matched = |prefixed| {
                            let m = layer.match_path(path, prefixed).unwrap();
                            m.map(|m| with_edge(m.len))
                        };
                        let want = matched(false);
                        let got = match found.iter().find(|c| c.layer == i as u32) {
                            None => {
                                left_out += usize::from(exact && i < 13);
                                None
                            }
                            Some(Candidate {
                                fact: Fact::Matches { len, edge },
                                ..
                            }) => {
                                assert!(exact, "facts only for exact hits");
                                known += 1;
                                Some((*len as usize, *edge))
                            }
                            Some(_) => matched(prefixed),
                        };
                        let case = format!("layer {i} path {path:?} {sensitive} {strict}");
                        assert_eq!(got, want, "{case}");
                    }
                }
            }
        }
        // The test saw layers known to match and layers left out.
        assert!(known > 20 && left_out > 20, "{known} {left_out}");
    }
}
