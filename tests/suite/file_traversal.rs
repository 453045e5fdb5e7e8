//! The traversal catalogue: hostile paths against both `static_` and
//! `send_file` with a root. None may read outside the root; each answers
//! the status send gives. A symlink inside the root is followed, as send
//! does (it never resolves links).

use crate::common;
use crate::files_fixture;

use common::{TestServer, async_handler};
use files_fixture::Fixture;
use webfw::files::{Dotfiles, SendFileOptions, StaticOptions, static_};

/// `/s` is static with `fallthrough: false` (errors show their status),
/// `/f/*` sends `params[0]` and `/p/:name` the decoded parameter, both with
/// the root; `/deny/*` and `/ignore/*` likewise with a dotfiles mode.
async fn start(fx: &Fixture) -> TestServer {
    let root = fx.root();
    let mut app = webfw::app();
    app.use_at(
        "/s",
        static_(&root, StaticOptions::new().fallthrough(false)),
    );
    app.use_at(
        "/s-deny",
        static_(
            &root,
            StaticOptions::new()
                .fallthrough(false)
                .dotfiles(Dotfiles::Deny),
        ),
    );
    app.use_at(
        "/s-ignore",
        static_(
            &root,
            StaticOptions::new()
                .fallthrough(false)
                .dotfiles(Dotfiles::Ignore),
        ),
    );
    for (at, dotfiles) in [
        ("/f/*", None),
        ("/p/:name", None),
        ("/deny/*", Some(Dotfiles::Deny)),
        ("/ignore/*", Some(Dotfiles::Ignore)),
    ] {
        let r = root.clone();
        app.get(
            at,
            async_handler(move |req, res| {
                let mut o = SendFileOptions::new().root(&r);
                if let Some(d) = dotfiles {
                    o = o.dotfiles(d);
                }
                Box::pin(async move {
                    let name = req
                        .param("0")
                        .or_else(|| req.param("name"))
                        .unwrap_or_default()
                        .to_owned();
                    res.send_file(req, &name, o).await
                })
            }),
        );
    }
    TestServer::start(app).await
}

/// Asserts the status and that the secret outside the root never shows.
async fn check(s: &TestServer, path: &str, status: u16) {
    let res = s.get(path).await;
    assert_eq!(res.status, status, "{path}");
    assert!(
        !String::from_utf8_lossy(&res.body).contains("outside the root"),
        "{path} read outside the root"
    );
}

#[tokio::test]
async fn parent_segments_are_forbidden() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    for prefix in ["/s", "/f"] {
        check(&s, &format!("{prefix}/../secret.txt"), 403).await;
        check(&s, &format!("{prefix}/a/../../secret.txt"), 403).await;
        check(&s, &format!("{prefix}/..%2fsecret.txt"), 403).await;
        check(&s, &format!("{prefix}/%2e%2e/secret.txt"), 403).await;
        check(&s, &format!("{prefix}/%2e%2e%2fsecret.txt"), 403).await;
        check(&s, &format!("{prefix}/..%5csecret.txt"), 403).await;
        check(&s, &format!("{prefix}/sub/..%5c..%5csecret.txt"), 403).await;
    }
    check(&s, "/p/..%2fsecret.txt", 403).await;
    check(&s, "/p/%2e%2e", 403).await;
    // `..` that stays inside the root is fine.
    check(&s, "/s/sub/..%2fhello.txt", 200).await;
    check(&s, "/f/sub/../hello.txt", 200).await;
}

#[tokio::test]
async fn nul_bytes_and_bad_encodings_are_bad_requests() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    check(&s, "/s/hello.txt%00.png", 400).await;
    check(&s, "/s/%00", 400).await;
    check(&s, "/s/%zz", 400).await;
    check(&s, "/s/%C3", 400).await;
    check(&s, "/p/hello.txt%00.png", 400).await;
}

#[tokio::test]
async fn absolute_paths_stay_under_the_root() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    let secret = fx.path("secret.txt");
    let encoded = secret.to_string_lossy().replace('/', "%2f");
    check(&s, &format!("/s/{encoded}"), 404).await;
    check(&s, &format!("/s/{}", secret.display()), 404).await;
    check(&s, &format!("/p/{encoded}"), 404).await;
    check(&s, "/s//etc/passwd", 404).await;
    check(&s, "/f//etc/passwd", 404).await;
}

#[tokio::test]
async fn dotfiles_in_parent_directories() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    // Without the option only a final dot segment hides.
    check(&s, "/s/.dot/inside.txt", 200).await;
    check(&s, "/f/.dot/inside.txt", 200).await;
    check(&s, "/s-deny/.dot/inside.txt", 403).await;
    check(&s, "/deny/.dot/inside.txt", 403).await;
    check(&s, "/s-ignore/.dot/inside.txt", 404).await;
    check(&s, "/ignore/.dot/inside.txt", 404).await;
    // A dot segment hidden behind `..` still counts once normalised away.
    check(&s, "/s-deny/.dot/../hello.txt", 200).await;
    check(&s, "/s-deny/sub/..%2f.hidden", 403).await;
}

#[tokio::test]
async fn a_symlink_inside_the_root_is_followed_as_send_does() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    for path in ["/s/link.txt", "/f/link.txt"] {
        let res = s.get(path).await;
        assert_eq!(
            (res.status, res.text().as_str()),
            (200, "outside the root\n"),
            "{path}"
        );
    }
}
