//! `res.attachment([filename])`.

use http::HeaderValue;
use http::header::CONTENT_DISPOSITION;

use super::Response;
use crate::http::content_disposition::{content_disposition, latin1_bytes, v2};

impl Response {
    /// `res.attachment([filename])`: `Content-Disposition: attachment`, and
    /// with a file name its `filename` parameters (as the
    /// `content-disposition` package writes them) and the `Content-Type` of
    /// its extension. Latin-1 characters go out as single bytes, like Node.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.attachment("logs/report.pdf");
    /// assert_eq!(res.get("content-disposition"), Some(r#"attachment; filename="report.pdf""#));
    /// assert_eq!(res.get("content-type"), Some("application/pdf"));
    /// res.attachment(None);
    /// assert_eq!(res.get("content-disposition"), Some("attachment"));
    /// ```
    ///
    /// An Express 5 app writes content-disposition 2's pure-ASCII form:
    /// `attachment; filename=report.pdf`, and for `café.txt`
    /// `attachment; filename="caf?.txt"; filename*=UTF-8''caf%C3%A9.txt`.
    pub fn attachment<'a>(&mut self, filename: impl Into<Option<&'a str>>) -> &mut Self {
        let filename = filename.into();
        if let Some(name) = filename {
            self.type_(extname(name));
        }
        let value = self.disposition(filename);
        self.headers_mut().insert(CONTENT_DISPOSITION, value);
        self
    }

    /// The `Content-Disposition` of an attachment named after `filename`'s
    /// base name: content-disposition 0.5 (Latin-1 bytes as Node writes
    /// them) in Express 4, content-disposition 2 (ASCII) in Express 5.
    pub(crate) fn disposition(&self, filename: Option<&str>) -> HeaderValue {
        if self.app.dialect().is_express5() {
            let value = v2::content_disposition(filename.map(basename));
            return HeaderValue::from_str(&value)
                .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
        }
        let value = content_disposition(filename);
        latin1_bytes(&value)
            .and_then(|b| HeaderValue::from_bytes(&b).ok())
            .unwrap_or_else(|| HeaderValue::from_static("attachment"))
    }
}

/// Node's `path.basename` (POSIX): after the last `/`, trailing slashes
/// ignored.
fn basename(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// Node's `path.extname`: from the last `.` of the base name (not a
/// leading one), else empty.
fn extname(path: &str) -> &str {
    let base = path.trim_end_matches('/');
    let base = base.rsplit('/').next().unwrap_or(base);
    match base.rfind('.') {
        Some(i) if !base[..i].bytes().all(|b| b == b'.') => &base[i..],
        _ => "",
    }
}
