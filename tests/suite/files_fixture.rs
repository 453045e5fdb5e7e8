//! A directory tree for the file-serving tests, made fresh per test under
//! the system's temp directory and removed afterwards. Every file's mtime is
//! 2020-01-01T00:00:00Z, so ETags are `W/"<size hex>-16f5e66e800"`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, UNIX_EPOCH};

pub const LAST_MODIFIED: &str = "Wed, 01 Jan 2020 00:00:00 GMT";
const MTIME_SECS: u64 = 1_577_836_800;

/// Bytes of the large file: a pattern that shows misplaced ranges.
pub fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 % 251) as u8).collect()
}

pub const BIG_LEN: usize = 300 * 1024;

pub struct Fixture {
    pub dir: PathBuf,
}

impl Fixture {
    pub fn new() -> Fixture {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "webfw-files-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let f = Fixture { dir };
        f.write("secret.txt", b"outside the root\n");
        f.write("root/hello.txt", b"Hello, files!\n");
        f.write("root/big.bin", &pattern(BIG_LEN));
        f.write("root/empty.txt", b"");
        f.write("root/index.html", b"<p>root index</p>\n");
        f.write("root/page.html", b"<p>page</p>\n");
        f.write("root/about.htm", b"<p>about</p>\n");
        f.write("root/README", b"no extension\n");
        f.write("root/data.json", b"{\"a\":1}\n");
        f.write("root/style.css", b"p{}\n");
        f.write("root/.hidden", b"hidden\n");
        f.write("root/.dot/inside.txt", b"in a dot dir\n");
        f.write("root/sub/index.html", b"<p>sub index</p>\n");
        f.write("root/sub/main.html", b"<p>sub main</p>\n");
        f.write("root/noindex/a.txt", b"a\n");
        f.write("root/na\u{ef}ve \u{2713}.txt", b"utf-8 name\n");
        std::os::unix::fs::symlink("../secret.txt", f.dir.join("root/link.txt"))
            .expect("make a symlink");
        f
    }

    fn write(&self, rel: &str, bytes: &[u8]) {
        let p = self.dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        let file = std::fs::File::options().write(true).open(&p).unwrap();
        file.set_modified(UNIX_EPOCH + Duration::from_secs(MTIME_SECS))
            .unwrap();
    }

    pub fn root(&self) -> PathBuf {
        self.dir.join("root")
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    /// The weak ETag send gives a file of `size` bytes here.
    pub fn etag(size: usize) -> String {
        format!("W/\"{size:x}-16f5e66e800\"")
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
