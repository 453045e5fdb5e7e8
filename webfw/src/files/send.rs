//! send 0.19's answer with a file: find it (index files, extensions),
//! set the validators and caching headers, decide conditional requests and
//! ranges, then send the bytes, streamed with backpressure when large.

use std::fs::{File, Metadata};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::UNIX_EPOCH;

use bytes::Bytes;
use http::HeaderValue;
use http::header::{
    ACCEPT_RANGES, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_LANGUAGE, CONTENT_LENGTH,
    CONTENT_RANGE, CONTENT_TYPE, ETAG, IF_MATCH, IF_MODIFIED_SINCE, IF_NONE_MATCH, IF_RANGE,
    IF_UNMODIFIED_SINCE, LAST_MODIFIED, RANGE,
};

use super::options::Config;
use super::path::{Resolved, has_no_extension};
use super::rules::SendRules;
use crate::error::Error;
use crate::http::range::ParsedRange;
use crate::request::{Request, header_str};
use crate::response::Response;

/// Files up to this size (and ranges up to it) are read in one go on the
/// request's thread: one read of what the streamed path would read as its
/// first chunk anyway, without the hand-off to a blocking thread and back.
/// Larger ones are streamed in chunks of the same size (Node's read stream
/// uses 64 KiB too).
pub(crate) const CHUNK: u64 = 64 * 1024;

/// What send found at a path. Lives on the stack for one call: boxing
/// the file's metadata would cost an allocation per request.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Located {
    File(File, Metadata, PathBuf),
    /// A directory where a file was asked for (send's `redirect`).
    Directory,
}

/// The rest of a large file, for [`stream`].
pub(crate) struct FileStream {
    file: Arc<File>,
    offset: u64,
    len: u64,
}

/// How [`respond`] left the response.
pub(crate) enum Sent {
    /// The whole response is out.
    Done,
    /// The head is set, the body is to be streamed.
    Stream(FileStream),
}

/// send's `sendFile` / `sendIndex`: the file at the path, trying index
/// files for a path ending in `/` (`use_index`) and the configured
/// extensions for a missing name without one.
pub(crate) fn locate(r: &Resolved, cfg: &Config) -> Result<Located, Error> {
    if !cfg.index.is_empty() && r.trailing_slash {
        return first_of(cfg.index.iter().map(|name| r.path.join(name)), None);
    }
    match open(&r.path) {
        Ok(Opened::File(f, m)) => Ok(Located::File(f, m, r.path.clone())),
        Ok(Opened::Directory) => Ok(Located::Directory),
        Err(e) => {
            let text = r.path.to_string_lossy();
            if e.kind() == io::ErrorKind::NotFound
                && has_no_extension(&text)
                && !text.ends_with('/')
            {
                let tries = cfg
                    .extensions
                    .iter()
                    .map(|ext| PathBuf::from(format!("{text}.{ext}")));
                return first_of(tries, Some((e, r.path.clone())));
            }
            Err(stat_error(&e, &r.path))
        }
    }
}

/// The first regular file of `paths`; directories are skipped. Without
/// one, the last error (a 404 when the last candidate was a directory or
/// there was none).
fn first_of(
    paths: impl Iterator<Item = PathBuf>,
    mut last: Option<(io::Error, PathBuf)>,
) -> Result<Located, Error> {
    for p in paths {
        match open(&p) {
            Ok(Opened::File(f, m)) => return Ok(Located::File(f, m, p)),
            Ok(Opened::Directory) => last = None,
            Err(e) => last = Some((e, p)),
        }
    }
    Err(match last {
        Some((e, p)) => stat_error(&e, &p),
        None => Error::from_status(404),
    })
}

enum Opened {
    File(File, Metadata),
    Directory,
}

/// `fs.stat`, then the file opened. Only regular files are opened: a FIFO
/// would block the open, a device could be endless.
fn open(path: &Path) -> io::Result<Opened> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Ok(Opened::Directory);
    }
    if !meta.is_file() {
        return Err(io::Error::from(io::ErrorKind::NotFound));
    }
    // send, too, streams what it opens after a stat.
    let file = File::open(path)?;
    Ok(Opened::File(file, meta))
}

/// send's `onStatError`: 404 for a missing path, 500 otherwise, with the
/// system error's `code`.
pub(crate) fn stat_error(e: &io::Error, path: &Path) -> Error {
    use io::ErrorKind as K;
    let (code, text) = match e.kind() {
        K::NotFound => ("ENOENT", "no such file or directory"),
        K::NotADirectory => ("ENOTDIR", "not a directory"),
        K::InvalidFilename => ("ENAMETOOLONG", "name too long"),
        K::PermissionDenied => ("EACCES", "permission denied"),
        K::IsADirectory => ("EISDIR", "illegal operation on a directory"),
        _ => ("EIO", "i/o error"),
    };
    let status = match code {
        "ENOENT" | "ENOTDIR" | "ENAMETOOLONG" => 404,
        _ => 500,
    };
    let message = format!("{code}: {text}, stat '{}'", path.display());
    // createError(status, err) keeps the system error's plain `Error` name.
    Error::status_message(status, message)
        .with_name("Error")
        .with_code(code)
        .with_expose(false)
}

/// send's `send`: headers, preconditions, freshness, range, then the body
/// (whole when small). `hook` is send's `headers` event; `R` is the send
/// whose type, range and freshness rules apply.
pub(crate) fn respond<R: SendRules>(
    req: &Request,
    res: &mut Response,
    file: File,
    meta: &Metadata,
    path: &Path,
    cfg: &Config,
    hook: &dyn Fn(&mut Response, &Path, &Metadata),
) -> Result<Sent, Error> {
    if res.headers_sent() {
        return Err(Error::new("Can't set headers after they are sent.").with_status(500));
    }
    hook(res, path, meta);
    let size = meta.len();
    let mtime_ms = crate::http::date::node_mtime_ms(meta.modified().unwrap_or(UNIX_EPOCH));
    let h = res.headers_mut();
    // Nothing but X-Powered-By yet (the usual case): send's headers go in
    // without a look for each.
    let bare = h.len() <= 1 && h.keys().all(|k| k.as_str() == "x-powered-by");
    if cfg.accept_ranges && (bare || !h.contains_key(ACCEPT_RANGES)) {
        h.insert(ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    }
    if cfg.cache_control && (bare || !h.contains_key(CACHE_CONTROL)) {
        h.insert(CACHE_CONTROL, cfg.cache_control_value.clone());
    }
    if cfg.last_modified
        && (bare || !h.contains_key(LAST_MODIFIED))
        && let Some(v) = last_modified(mtime_ms)
    {
        h.insert(LAST_MODIFIED, v);
    }
    if cfg.etag && (bare || !h.contains_key(ETAG)) {
        h.insert(ETAG, stat_etag(size, mtime_ms));
    }
    if bare || !h.contains_key(CONTENT_TYPE) {
        h.insert(CONTENT_TYPE, R::content_type(path));
    }

    let c = Conditions::of(req);
    if c.if_match.is_some()
        || c.if_unmodified_since.is_some()
        || c.if_none_match.is_some()
        || c.if_modified_since.is_some()
    {
        let etag = res.get("etag").map(str::to_owned);
        let last_modified = res.get("last-modified").map(str::to_owned);
        if precondition_failed(
            c.if_match,
            c.if_unmodified_since,
            etag.as_deref(),
            last_modified.as_deref(),
        ) {
            return Err(Error::from_status(412));
        }
        let status = res.status_code();
        let cachable = (200..300).contains(&status) || status == 304;
        if cachable
            && R::is_fresh(
                c.if_none_match,
                c.if_modified_since,
                c.cache_control,
                etag.as_deref(),
                last_modified.as_deref(),
            )
        {
            let h = res.headers_mut();
            for name in [
                CONTENT_ENCODING,
                CONTENT_LANGUAGE,
                CONTENT_LENGTH,
                CONTENT_RANGE,
                CONTENT_TYPE,
            ] {
                h.remove(name);
            }
            res.status(304).end()?;
            return Ok(Sent::Done);
        }
    }

    let mut offset = 0;
    let mut len = size;
    if let Some(range) = c.range
        && cfg.accept_ranges
        && range.trim_start_matches(' ').starts_with("bytes=")
    {
        let mut parsed = R::parse_range(size, range);
        if !range_fresh(c.if_range, res) {
            parsed = ParsedRange::Malformed;
        }
        match parsed {
            ParsedRange::Unsatisfiable => {
                let value = format!("bytes */{size}");
                res.set("Content-Range", &value);
                return Err(Error::from_status(416).with_header("Content-Range", &value));
            }
            ParsedRange::Ranges { ranges, .. } if ranges.len() == 1 => {
                let r = ranges[0];
                res.status(206);
                res.set(
                    "Content-Range",
                    format!("bytes {}-{}/{size}", r.start, r.end),
                );
                offset = r.start;
                len = r.len();
            }
            _ => {}
        }
    }
    res.headers_mut()
        .insert(CONTENT_LENGTH, HeaderValue::from(len));
    if *req.method() == http::Method::HEAD || len == 0 {
        res.end()?;
        return Ok(Sent::Done);
    }
    if len <= CHUNK {
        let buf = read_small(&file, offset, len).map_err(|e| stat_error(&e, path))?;
        res.end_with(Bytes::from(buf))?;
        return Ok(Sent::Done);
    }
    Ok(Sent::Stream(FileStream {
        file: Arc::new(file),
        offset,
        len,
    }))
}

/// Reads `len` bytes at `offset` into a vector that is not zeroed first
/// (zeroing cost more than the read itself for a small file).
fn read_small(file: &File, offset: u64, len: u64) -> io::Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = file;
    if offset > 0 {
        f.seek(SeekFrom::Start(offset))?;
    }
    let mut buf = Vec::with_capacity(len as usize);
    f.take(len).read_to_end(&mut buf)?;
    if buf.len() as u64 != len {
        return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
    }
    Ok(buf)
}

/// Streams the rest of a large file: a chunk is read (on a blocking
/// thread) only once the connection has taken the one before. `Ok(false)`
/// when the client went away first; the file is closed either way.
pub(crate) async fn stream(res: &mut Response, s: FileStream) -> Result<bool, Error> {
    let FileStream { file, offset, len } = s;
    let end = offset + len;
    let mut pos = offset;
    while pos < end {
        let n = (end - pos).min(CHUNK) as usize;
        let f = file.clone();
        let read = tokio::task::spawn_blocking(move || {
            let mut buf = vec![0; n];
            f.read_exact_at(&mut buf, pos).map(|()| buf)
        })
        .await;
        let chunk = match read {
            Ok(Ok(buf)) => buf,
            Ok(Err(e)) => return Err(stat_error(&e, Path::new(""))),
            Err(_) => return Err(Error::new("file read task failed")),
        };
        pos += n as u64;
        res.write(Bytes::from(chunk))?;
        if !res.drained().await {
            return Ok(false);
        }
    }
    res.end()?;
    Ok(true)
}

/// The request headers send reads, found in one pass (empty ones count
/// as absent, as in JavaScript).
#[derive(Default)]
struct Conditions<'a> {
    if_match: Option<&'a str>,
    if_unmodified_since: Option<&'a str>,
    if_none_match: Option<&'a str>,
    if_modified_since: Option<&'a str>,
    cache_control: Option<&'a str>,
    range: Option<&'a str>,
    if_range: Option<&'a str>,
}

impl<'a> Conditions<'a> {
    fn of(req: &'a Request) -> Conditions<'a> {
        let mut c = Conditions::default();
        for (name, value) in req.headers() {
            let field = match *name {
                IF_MATCH => &mut c.if_match,
                IF_UNMODIFIED_SINCE => &mut c.if_unmodified_since,
                IF_NONE_MATCH => &mut c.if_none_match,
                IF_MODIFIED_SINCE => &mut c.if_modified_since,
                CACHE_CONTROL => &mut c.cache_control,
                RANGE => &mut c.range,
                IF_RANGE => &mut c.if_range,
                _ => continue,
            };
            if field.is_none() {
                *field = header_str(value).filter(|s| !s.is_empty());
            }
        }
        c
    }
}

/// send's `isPreconditionFailure`.
fn precondition_failed(
    if_match: Option<&str>,
    if_unmodified_since: Option<&str>,
    etag: Option<&str>,
    last_modified: Option<&str>,
) -> bool {
    if let Some(m) = if_match {
        let Some(etag) = etag else {
            return true;
        };
        return m != "*"
            && token_list(m).all(|t| {
                t != etag
                    && t.strip_prefix("W/") != Some(etag)
                    && etag.strip_prefix("W/") != Some(t)
            });
    }
    if let Some(since) = if_unmodified_since.and_then(|s| httpdate::parse_http_date(s).ok()) {
        return match last_modified.and_then(|s| httpdate::parse_http_date(s).ok()) {
            Some(lm) => lm > since,
            None => true,
        };
    }
    false
}

/// send's `parseTokenList`: split at commas, spaces around dropped.
fn token_list(s: &str) -> impl Iterator<Item = &str> {
    s.split(',')
        .map(|t| t.trim_matches(' '))
        .filter(|t| !t.is_empty())
}

/// send's `isRangeFresh`: an `If-Range` ETag must appear in the response's,
/// a date must not be older than `Last-Modified`.
fn range_fresh(if_range: Option<&str>, res: &Response) -> bool {
    let Some(if_range) = if_range.filter(|s| !s.is_empty()) else {
        return true;
    };
    if if_range.contains('"') {
        return res.get("etag").is_some_and(|etag| if_range.contains(etag));
    }
    let date = |s: &str| httpdate::parse_http_date(s).ok();
    match (res.get("last-modified").and_then(date), date(if_range)) {
        (Some(lm), Some(ir)) => lm <= ir,
        _ => false,
    }
}

/// `W/"<size hex>-<mtime ms hex>"` (the `etag` package's stat tag; a time
/// before 1970 is `-` and the hex, as JavaScript's `toString(16)` writes it),
/// written without the formatting machinery.
fn stat_etag(size: u64, ms: i64) -> HeaderValue {
    fn hex(out: &mut Vec<u8>, n: u64) {
        let digits = (64 - n.leading_zeros()).div_ceil(4).max(1);
        for i in (0..digits).rev() {
            out.push(b"0123456789abcdef"[((n >> (i * 4)) & 0xf) as usize]);
        }
    }
    let mut v = Vec::with_capacity(40);
    v.extend_from_slice(b"W/\"");
    hex(&mut v, size);
    v.push(b'-');
    if ms < 0 {
        v.push(b'-');
    }
    hex(&mut v, ms.unsigned_abs());
    v.push(b'"');
    HeaderValue::from_maybe_shared(Bytes::from(v))
        .unwrap_or_else(|_| HeaderValue::from_static("W/\"0-0\""))
}

/// `stat.mtime.toUTCString()` of the rounded time, to the second.
fn last_modified(mtime_ms: i64) -> Option<HeaderValue> {
    let secs = mtime_ms.div_euclid(1000);
    crate::http::date::with_utc_string(secs, |text| HeaderValue::from_bytes(text).ok()).flatten()
}

/// [`content_type`] from a file system path's extension.
pub(super) fn content_type_of(path: &Path) -> HeaderValue {
    let b = path.as_os_str().as_encoded_bytes();
    let start = b
        .iter()
        .rposition(|&c| c == b'.' || c == b'/')
        .map_or(0, |i| i + 1);
    content_type(std::str::from_utf8(&b[start..]).unwrap_or(""))
}

/// send's `type`: the MIME type of the extension, with `; charset=UTF-8`
/// for text, JavaScript and JSON (mime 1.x's `charsets.lookup`).
pub(crate) fn content_type(path: &str) -> HeaderValue {
    let t = crate::http::mime::lookup(path);
    let with_charset = match t {
        "text/plain" => "text/plain; charset=UTF-8",
        "text/html" => "text/html; charset=UTF-8",
        "text/css" => "text/css; charset=UTF-8",
        "application/javascript" => "application/javascript; charset=UTF-8",
        "application/json" => "application/json; charset=UTF-8",
        t if t.starts_with("text/") => {
            return HeaderValue::from_str(&format!("{t}; charset=UTF-8"))
                .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"));
        }
        t => t,
    };
    HeaderValue::from_static(with_charset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preconditions() {
        let tag = Some(r#"W/"20-1""#);
        assert!(precondition_failed(Some(r#""nope""#), None, tag, None));
        assert!(!precondition_failed(Some("*"), None, tag, None));
        assert!(precondition_failed(Some("*"), None, None, None));
        assert!(!precondition_failed(
            Some(r#""a", W/"20-1""#),
            None,
            tag,
            None
        ));
        assert!(!precondition_failed(Some(r#""20-1""#), None, tag, None));
        let lm = Some("Wed, 01 Jan 2020 00:00:00 GMT");
        assert!(precondition_failed(
            None,
            Some("Sun, 01 Dec 2019 00:00:00 GMT"),
            tag,
            lm
        ));
        assert!(!precondition_failed(
            None,
            Some("Wed, 01 Jan 2020 00:00:00 GMT"),
            tag,
            lm
        ));
        assert!(!precondition_failed(None, Some("garbage"), tag, lm));
        assert!(precondition_failed(
            None,
            Some("Wed, 01 Jan 2020 00:00:00 GMT"),
            tag,
            None
        ));
    }

    #[test]
    fn types() {
        assert_eq!(content_type("/a/b.txt"), "text/plain; charset=UTF-8");
        assert_eq!(content_type("/a/b.png"), "image/png");
        assert_eq!(content_type("/a/README"), "application/octet-stream");
        assert_eq!(content_type("/a/b.csv"), "text/csv; charset=UTF-8");
        assert_eq!(
            content_type_of(Path::new("/a.d/README")),
            "application/octet-stream"
        );
        assert_eq!(
            content_type_of(Path::new("/a/b.JSON")),
            "application/json; charset=UTF-8"
        );
        for (size, ms) in [(0, 0), (32, 1_577_836_800_000), (u64::MAX, 1)] {
            let want = crate::http::etag::stat_tag(size, ms as u128);
            assert_eq!(stat_etag(size, ms), want.as_str());
        }
        // etag(stat) in Node for a file of 1969-12-31 23:59:58.5004.
        assert_eq!(stat_etag(0, -1_500), r#"W/"0--5dc""#);
    }
}
