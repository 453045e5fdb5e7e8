//! A static site: `express.static` for pages (with an index page and
//! extension fallback), long-cached assets, and a download link.
//!
//! ```text
//! cargo run --example static_site
//! curl -i http://127.0.0.1:3000/
//! curl -i http://127.0.0.1:3000/assets/style.css     # Cache-Control: public, max-age=31536000, immutable
//! curl -i http://127.0.0.1:3000/download/report.txt  # Content-Disposition: attachment; filename="report.txt"
//! curl -i -H 'Range: bytes=0-9' http://127.0.0.1:3000/download/report.txt   # 206
//! ```

use std::path::PathBuf;

use webfw::files::{SendFileOptions, StaticOptions, static_};
use webfw::prelude::*;

/// The example's files, beside this source file.
fn site() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/site")
}

/// `res.download(name, { root })`: a missing file gets the 404 page.
async fn download(req: &mut Request, res: &mut Response) -> Result {
    let name = req.param("name").unwrap_or_default().to_owned();
    let opts = SendFileOptions::new().root(site().join("files"));
    res.download(req, &name, None, opts).await
}

fn main() -> std::io::Result<()> {
    let port = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    let mut app = webfw::app();
    // Fingerprinted assets never change: cache them for a year.
    app.use_at(
        "/assets",
        static_(
            site().join("assets"),
            StaticOptions::new().max_age("1y").immutable(true),
        ),
    );
    app.get("/download/:name", download);
    // Pages: `/` serves index.html, `/about` about.html.
    app.use_(static_(
        site().join("public"),
        StaticOptions::new().extensions(["html"]),
    ));
    let opts = webfw::ListenOptions::port(port).host("127.0.0.1");
    app.listen_with(opts, |addr| println!("static site on http://{addr}"))
}
