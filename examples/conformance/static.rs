//! `/static/*`: express.static option variations, all serving `$PUBLIC`
//! (ROUTES.md, "/static/* — express.static").

use std::path::{Path, PathBuf};

use webfw::App;
use webfw::files::{Dotfiles, StaticOptions, static_};

/// `$FIXTURES/public`.
pub fn public_dir() -> PathBuf {
    std::env::var_os("FIXTURES")
        .map_or_else(
            || PathBuf::from("shared/conformance/fixtures"),
            PathBuf::from,
        )
        .join("public")
}

/// Registers the `/static/*` mounts.
pub fn routes(app: &mut App, public: &Path) {
    let mount = |app: &mut App, at: &str, opts: StaticOptions| {
        app.use_at(at, static_(public, opts));
    };
    let o = StaticOptions::new;
    mount(app, "/static/default", o());
    mount(app, "/static/noindex", o().no_index());
    mount(
        app,
        "/static/custom-index",
        o().index(["main.html", "index.html"]),
    );
    mount(app, "/static/ext", o().extensions(["html", "htm"]));
    mount(app, "/static/dot-allow", o().dotfiles(Dotfiles::Allow));
    mount(app, "/static/dot-deny", o().dotfiles(Dotfiles::Deny));
    mount(app, "/static/dot-ignore", o().dotfiles(Dotfiles::Ignore));
    mount(app, "/static/noredirect", o().redirect(false));
    mount(app, "/static/nofall", o().fallthrough(false));
    mount(app, "/static/cache", o().max_age("1d").immutable(true));
    mount(app, "/static/maxage-ms", o().max_age(5500));
    mount(app, "/static/nocache", o().cache_control(false));
    mount(
        app,
        "/static/novalidators",
        o().etag(false).last_modified(false),
    );
    mount(app, "/static/noranges", o().accept_ranges(false));
    mount(
        app,
        "/static/headers",
        o().set_headers(|res, path, meta| {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            res.set("X-Static-Name", name);
            res.set("X-Static-Size", meta.len().to_string());
        }),
    );
    // Two static layers in a row: misses of the first fall through.
    app.use_at(
        "/static/layered",
        (static_(public.join("sub"), o()), static_(public, o())),
    );
}
