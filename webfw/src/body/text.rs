//! `express.text(options)` (body-parser 1.20 `text`).

use crate::body::{Body, has_body, parse_limit, read_limited, type_matches};
use crate::error::Error;
use crate::handler::{Flow, Handler, HandlerFuture, Result};
use crate::request::Request;
use crate::response::Response;

/// Options of [`text`].
///
/// ```
/// let opts = webfw::body::TextOptions::new().type_("*/*").limit("1mb").default_charset("utf-8");
/// ```
#[derive(Clone, Debug)]
pub struct TextOptions {
    types: Vec<String>,
    limit: usize,
    default_charset: String,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions {
            types: vec!["text/plain".to_owned()],
            limit: 100 * 1024,
            default_charset: "utf-8".to_owned(),
        }
    }
}

impl TextOptions {
    /// The defaults: `type` `text/plain`, `limit` 100kb, `defaultCharset` utf-8.
    ///
    /// ```
    /// let opts = webfw::body::TextOptions::new();
    /// ```
    pub fn new() -> TextOptions {
        TextOptions::default()
    }

    /// `type`: the media type(s) to parse (`*/*`, `text/*`, `+json`, an
    /// extension such as `txt`). Replaces the list; call again to add more.
    ///
    /// ```
    /// let opts = webfw::body::TextOptions::new().type_("*/*");
    /// ```
    pub fn type_(mut self, t: &str) -> TextOptions {
        if self.types == ["text/plain"] {
            self.types.clear();
        }
        self.types.push(t.to_owned());
        self
    }

    /// `limit`: bytes (`"100kb"`, `"1mb"`, `"512"`).
    ///
    /// # Panics
    ///
    /// When the value is not a valid size (body-parser throws
    /// `option limit "…" is invalid` there too).
    ///
    /// ```
    /// let opts = webfw::body::TextOptions::new().limit("10kb");
    /// ```
    pub fn limit(mut self, limit: &str) -> TextOptions {
        self.limit =
            parse_limit(limit).unwrap_or_else(|| panic!("option limit \"{limit}\" is invalid"));
        self
    }

    /// `limit` in bytes.
    ///
    /// ```
    /// let opts = webfw::body::TextOptions::new().limit_bytes(1024);
    /// ```
    pub fn limit_bytes(mut self, limit: usize) -> TextOptions {
        self.limit = limit;
        self
    }

    /// `defaultCharset`: used when the request names none.
    ///
    /// ```
    /// let opts = webfw::body::TextOptions::new().default_charset("latin1");
    /// ```
    pub fn default_charset(mut self, charset: &str) -> TextOptions {
        self.default_charset = charset.to_ascii_lowercase();
        self
    }
}

/// `express.text(options)`: reads bodies of the configured types into
/// `req.body` as a string ([`Body::Text`]). Requests without a body or of
/// another type get `req.body = {}` and pass through. Errors: 413 past the
/// limit, 415 for a charset other than UTF-8 / Latin-1 / ASCII or a
/// compressed body, 400 when the body is cut short.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::body::{text, TextOptions};
/// fn echo(req: &mut Request, res: &mut Response) -> Result {
///     let s = req.body().as_str().unwrap_or_default().to_owned();
///     res.send(s)
/// }
/// let mut app = webfw::app();
/// app.post("/echo", (text(TextOptions::new()), echo));
/// ```
pub fn text(options: TextOptions) -> TextParser {
    TextParser { options }
}

/// The middleware [`text`] returns.
///
/// ```
/// let parser: webfw::body::TextParser = webfw::text(webfw::TextOptions::new());
/// let mut app = webfw::app();
/// app.use_(parser);
/// ```
#[derive(Clone, Debug)]
pub struct TextParser {
    options: TextOptions,
}

impl Handler for TextParser {
    fn call<'a>(&'a self, req: &'a mut Request, _res: &'a mut Response) -> HandlerFuture<'a> {
        if req.body_consumed() {
            return HandlerFuture::Ready(Some(Ok(Flow::Next)));
        }
        if req.body().is_undefined() {
            req.set_body(Body::Value(serde_json::Value::Object(Default::default())));
        }
        if !has_body(req) || !type_matches(req, &self.options.types) {
            return HandlerFuture::Ready(Some(Ok(Flow::Next)));
        }
        HandlerFuture::Boxed(Box::pin(self.parse(req)))
    }
}

impl TextParser {
    async fn parse(&self, req: &mut Request) -> Result {
        let charset = request_charset(req).unwrap_or_else(|| self.options.default_charset.clone());
        req.mark_body_consumed();
        let bytes = read_limited(req, self.options.limit).await?;
        let text = decode(&bytes, &charset)?;
        req.set_body(Body::Text(text));
        Ok(Flow::Next)
    }
}

fn request_charset(req: &Request) -> Option<String> {
    let ct = req
        .headers()
        .get(http::header::CONTENT_TYPE)?
        .to_str()
        .ok()?;
    let parsed = crate::http::content_type::parse(ct).ok()?;
    parsed
        .parameters
        .get("charset")
        .map(|c| c.to_ascii_lowercase())
}

/// iconv-lite's decode for the charsets supported so far (BOM stripped).
fn decode(bytes: &[u8], charset: &str) -> std::result::Result<String, Error> {
    match charset {
        "utf-8" | "utf8" | "unicode-1-1-utf-8" => {
            let s = String::from_utf8_lossy(bytes);
            Ok(s.strip_prefix('\u{feff}').unwrap_or(&s).to_owned())
        }
        "latin1" | "iso-8859-1" | "iso8859-1" | "binary" | "l1" => {
            Ok(bytes.iter().map(|&b| char::from(b)).collect())
        }
        "ascii" | "us-ascii" => Ok(bytes.iter().map(|&b| char::from(b & 0x7f)).collect()),
        other => Err(Error::status_message(
            415,
            format!("unsupported charset \"{}\"", other.to_ascii_uppercase()),
        )
        .with_name("UnsupportedMediaTypeError")
        .with_type("charset.unsupported")),
    }
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn charsets() {
        assert_eq!(decode(b"\xef\xbb\xbfhi", "utf-8").unwrap(), "hi");
        assert_eq!(decode(b"caf\xe9", "latin1").unwrap(), "café");
        assert_eq!(decode(b"x", "koi8-r").unwrap_err().status(), 415);
    }
}
