use super::*;

/// A target and its URL state, as a request holds them.
struct Target {
    original: String,
    url: Url,
}

impl Target {
    fn new(original: &str) -> Target {
        let mut url = Url::new();
        url.locate_path(|| original, None);
        Target {
            original: original.to_owned(),
            url,
        }
    }

    fn url(&self) -> &str {
        self.url.url(&self.original)
    }

    fn path(&self) -> &str {
        self.url.path(|| &self.original)
    }

    fn base_url(&self) -> &str {
        self.url.base_url(&self.original)
    }

    fn enter(&mut self, len: usize, edge: Option<bool>) -> Option<Mounted> {
        self.url.enter_mount(|| &self.original, len, edge, false)
    }

    fn leave(&mut self, m: Mounted) {
        self.url.leave_mount(|| &self.original, m);
    }

    fn set(&mut self, url: &str) {
        self.url.set(url.to_owned(), &self.original);
    }

    /// Strips a mount path step by step: returns the saved base length.
    fn mount(&mut self, removed_len: usize) -> usize {
        let saved = self.url.base_url_len();
        self.url.append_base_url(&self.original, removed_len);
        self.url.strip_url(&self.original, removed_len);
        saved
    }

    fn states(&self) -> (String, String, String) {
        (
            self.url().to_owned(),
            self.path().to_owned(),
            self.base_url().to_owned(),
        )
    }
}

#[test]
fn enter_mount_agrees_with_append_then_strip() {
    let targets = [
        "/log/plaintext",
        "/log/",
        "/log",
        "/a//b?x=/y",
        "/a/b/c/d?q",
        "/a.b/c",
        "http://h.example/a/b?c",
        "/%2F/x",
    ];
    for target in targets {
        for first in 1..=target.len() {
            for second in [0, 1, 2, 3] {
                let mut fast = Target::new(target);
                let mut slow = Target::new(target);
                for len in [first, second] {
                    if len == 0 || len > fast.path().len() {
                        continue;
                    }
                    let edge = mount_edge(fast.path().as_bytes(), len);
                    let got = fast.enter(len, edge).map(|m| match m {
                        Mounted::Offsets { trailing_slash, .. } => (trailing_slash, false),
                        Mounted::Saved {
                            trailing_slash,
                            slash_added,
                            ..
                        } => (trailing_slash, slash_added),
                    });
                    let boundary =
                        matches!(slow.path().as_bytes().get(len), None | Some(b'/' | b'.'));
                    let want = boundary.then(|| {
                        (
                            slow.url.append_base_url(&slow.original, len),
                            slow.url.strip_url(&slow.original, len),
                        )
                    });
                    assert_eq!(got, want, "{target} {first} {second}");
                    assert_eq!(fast.states(), slow.states(), "{target} {first} {second}");
                }
            }
        }
    }
}

#[test]
fn leaving_a_mount_by_offsets_restores_as_leaving_a_saved_one() {
    for target in ["/mw/plaintext?q=1", "/mw//a", "/a/b/c", "/a/b/"] {
        for len in 1..target.len() {
            for rewrite in [None, Some("/x?y"), Some("z")] {
                let mut fast = Target::new(target);
                let mut slow = Target::new(target);
                let edge = mount_edge(fast.path().as_bytes(), len);
                let (Some(f), Some(s)) = (fast.enter(len, edge), slow.enter(len, None)) else {
                    continue;
                };
                assert_eq!(
                    matches!(f, Mounted::Offsets { .. }),
                    edge.is_some(),
                    "{target} {len}"
                );
                assert!(matches!(s, Mounted::Saved { .. }));
                assert_eq!(fast.states(), slow.states(), "{target} {len}");
                if let Some(url) = rewrite {
                    fast.set(url);
                    slow.set(url);
                }
                fast.leave(f);
                slow.leave(s);
                assert_eq!(fast.states(), slow.states(), "{target} {len} {rewrite:?}");
                if rewrite.is_none() {
                    assert_eq!(
                        fast.states(),
                        (target.to_owned(), fast.path().to_owned(), String::new())
                    );
                }
            }
        }
    }
}

#[test]
fn base_url_spans_the_original_target_until_it_cannot() {
    let mut t = Target::new("/a/b/c/d?x=1");
    let outer = t.mount(2);
    let inner = t.mount(2);
    assert_eq!((t.base_url(), t.url()), ("/a/b", "/c/d?x=1"));
    assert!(matches!(t.url.base, BaseUrl::Span(..)));
    // A mount path ending in `/` leaves it out of baseUrl; the next mount
    // is then no longer adjacent and baseUrl becomes owned.
    let slash = t.mount(3);
    assert_eq!((t.base_url(), t.url()), ("/a/b/c", "/d?x=1"));
    t.mount(2);
    assert_eq!(t.base_url(), "/a/b/c/d");
    assert!(matches!(t.url.base, BaseUrl::Owned(_)));
    t.url.truncate_base_url(slash);
    assert_eq!(t.base_url(), "/a/b");
    t.url.truncate_base_url(inner);
    assert_eq!(t.base_url(), "/a");
    t.url.truncate_base_url(outer);
    assert_eq!(t.base_url(), "");
}

#[test]
fn base_url_after_a_rewrite_is_owned() {
    let mut t = Target::new("/a/b");
    t.mount(2);
    t.set("/x/y");
    t.mount(2);
    assert_eq!((t.base_url(), t.url()), ("/a/x", "/y"));
}
