use super::*;

fn layers(found: &[Candidate]) -> Vec<u32> {
    found.iter().map(|c| c.layer).collect()
}

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
        // Keys too far apart for a table: scanned.
        "/x!",
        "/x~",
    ];
    let extra: Vec<String> = (0..40).map(|k| format!("/r/route{k}/")).collect();
    prefixes.extend(extra.iter().map(String::as_str));
    let paths = [
        "",
        "/",
        "/a/",
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
        // Keys below and above a dense table's range, and a gap in it.
        "/r/route!",
        "/r/routez",
        "/r/route3:",
        "/x!",
        "/x~/y",
        "/xa",
    ];
    for case_sensitive in [false, true] {
        let idx = Index::from_prefixes(prefixes.iter().copied(), prefixes.len(), case_sensitive);
        assert!(idx.linear.is_none());
        assert!(idx.nodes.iter().any(|n| !n.dense.is_empty()));
        assert!(
            idx.nodes
                .iter()
                .any(|n| n.dense.is_empty() && n.children.len() > 1)
        );
        // Paths spelling a whole node are answered by the exact table.
        let exact = idx.exact.as_ref().expect("a trie has an exact table");
        assert!(
            ["/mw/plaintext", "/r/route1", "/a/"]
                .iter()
                .all(|p| exact.get(p.as_bytes()).is_some())
        );
        for path in paths {
            for from in [0, 3, 9, prefixes.len()] {
                let (found, prefixed) = idx.candidates(path, from);
                assert_eq!(
                    (layers(found), prefixed),
                    (linear(&prefixes, path, from, !case_sensitive), true),
                    "{path} from {from} case_sensitive {case_sensitive}"
                );
            }
        }
    }
}

#[test]
fn a_walk_steps_to_the_roots_only_child_as_a_lookup_would() {
    let many: Vec<String> = (0..20).map(|k| format!("/api/v{k}")).collect();
    let shapes: [Vec<&str>; 3] = [
        // The root's one child is `/`: stepped to directly.
        many.iter().map(String::as_str).chain(["", "/"]).collect(),
        // Its one child has a longer edge (`/api/v`), or there are two.
        many.iter().map(String::as_str).collect(),
        many.iter().map(String::as_str).chain(["x"]).collect(),
    ];
    for (k, prefixes) in shapes.iter().enumerate() {
        let idx = Index::from_prefixes(prefixes.iter().copied(), prefixes.len(), false);
        assert_eq!(idx.first.is_some(), k == 0, "shape {k}");
        for path in ["", "/", "/api", "/api/v1", "/API/V12/x", "x", "/x", "?"] {
            assert_eq!(
                layers(idx.candidates(path, 0).0),
                linear(prefixes, path, 0, true),
                "shape {k}, {path}"
            );
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
