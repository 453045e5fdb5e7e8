//! `res.send_file`, `res.download` and `webfw::static_` put the same ETag
//! and Last-Modified on a file as Express does when its time has a
//! sub-millisecond part: Node rounds the time to the millisecond (half up,
//! after adding seconds and nanoseconds in a double), it does not truncate.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::{TestServer, async_handler};
use webfw::SendFileOptions;

/// A file's name, its time, and what Express 4.22 on Node 20 sends for it:
/// `ETag` and `Last-Modified`. Recorded from Node with `touch -d '<time> UTC' f`,
/// then `etag(fs.statSync(f))` and `fs.statSync(f).mtime.toUTCString()`
/// (`mtimeMs` in the comment); every file holds 5 bytes.
fn cases() -> Vec<(&'static str, SystemTime, &'static str, &'static str)> {
    let at = |s: u64, ns: u32| UNIX_EPOCH + Duration::new(s, ns);
    vec![
        // 2026-01-01 00:00:00.0004999 (mtimeMs 1767225600000.5)
        (
            "half-after-sum.txt",
            at(1_767_225_600, 499_900),
            r#"W/"5-19b76daa801""#,
            "Thu, 01 Jan 2026 00:00:00 GMT",
        ),
        // 2026-01-01 00:00:00.9995 (1767225600999.5): the next second
        (
            "next-second.txt",
            at(1_767_225_600, 999_500_000),
            r#"W/"5-19b76daabe8""#,
            "Thu, 01 Jan 2026 00:00:01 GMT",
        ),
        // 2026-01-01 00:00:59.99951 (1767225659999.51): the next minute
        (
            "next-minute.txt",
            at(1_767_225_659, 999_510_000),
            r#"W/"5-19b76db9260""#,
            "Thu, 01 Jan 2026 00:01:00 GMT",
        ),
        // 2026-03-04 05:06:07.123456789 (1772600767123.4568): rounds down
        (
            "down.txt",
            at(1_772_600_767, 123_456_789),
            r#"W/"5-19cb73d3293""#,
            "Wed, 04 Mar 2026 05:06:07 GMT",
        ),
        // 1969-12-31 23:59:58.5004 (-1499.6)
        (
            "before-1970.txt",
            UNIX_EPOCH - Duration::new(1, 499_600_000),
            r#"W/"5--5dc""#,
            "Wed, 31 Dec 1969 23:59:58 GMT",
        ),
    ]
}

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fixture() -> Dir {
    let dir = std::env::temp_dir().join(format!("webfw-file-times-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, time, _, _) in cases() {
        let p = dir.join(name);
        std::fs::write(&p, b"times").unwrap();
        let f = std::fs::File::options().write(true).open(&p).unwrap();
        f.set_modified(time).unwrap();
    }
    Dir(dir)
}

async fn start(root: &Path) -> TestServer {
    let mut app = webfw::app();
    let r = root.to_owned();
    app.get(
        "/send/:name",
        async_handler(move |req, res| {
            let o = SendFileOptions::new().root(&r);
            Box::pin(async move {
                let name = req.param("name").unwrap_or_default().to_owned();
                res.send_file(req, &name, o).await
            })
        }),
    );
    let r = root.to_owned();
    app.get(
        "/download/:name",
        async_handler(move |req, res| {
            let path = r.join(req.param("name").unwrap_or_default());
            Box::pin(async move {
                let path = path.to_string_lossy();
                res.download(req, &path, None, SendFileOptions::new()).await
            })
        }),
    );
    app.use_at("/static", webfw::static_(root, webfw::StaticOptions::new()));
    TestServer::start(app).await
}

#[tokio::test]
async fn etag_and_last_modified_round_the_file_time_as_node() {
    let dir = fixture();
    let s = start(&dir.0).await;
    for (name, _, etag, last_modified) in cases() {
        for prefix in ["/send/", "/download/", "/static/"] {
            let r = s.get(&format!("{prefix}{name}")).await;
            assert_eq!(r.status, 200, "{prefix}{name}");
            assert_eq!(r.header("etag"), Some(etag), "{prefix}{name}");
            assert_eq!(
                r.header("last-modified"),
                Some(last_modified),
                "{prefix}{name}"
            );
        }
        // The rounded validators are the ones a cache sends back.
        let r = s
            .get_with(&format!("/static/{name}"), &[("If-None-Match", etag)])
            .await;
        assert_eq!(r.status, 304, "{name} revalidated by its ETag");
    }
}
