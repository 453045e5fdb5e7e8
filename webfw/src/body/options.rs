//! The options every body parser has (`inflate`, `limit`, `type`,
//! `verify`) and the steps they share: skip, check, read, verify.

use std::fmt;
use std::sync::Arc;

use bytes::Bytes;

use super::read::{ReadSpec, read_body};
use super::{Body, Limit, errors};
use crate::Dialect;
use crate::error::Error;
use crate::request::Request;
use crate::response::Response;

/// The `type` option given as names: one or more extension names, MIME
/// types or wildcards (`"json"`, `"text/*"`, `["application/json",
/// "text/plain"]`, `"+json"`).
///
/// ```
/// use webfw::body::MediaTypes;
/// let one: MediaTypes = "text/*".into();
/// let many: MediaTypes = ["application/json", "text/plain"].into();
/// assert_eq!(many.as_slice().len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaTypes(Vec<String>);

impl MediaTypes {
    /// The types, as given.
    ///
    /// ```
    /// let t: webfw::body::MediaTypes = "json".into();
    /// assert_eq!(t.as_slice(), ["json"]);
    /// ```
    pub fn as_slice(&self) -> &[String] {
        &self.0
    }
}

impl From<&str> for MediaTypes {
    fn from(t: &str) -> Self {
        MediaTypes(vec![t.to_owned()])
    }
}
impl From<String> for MediaTypes {
    fn from(t: String) -> Self {
        MediaTypes(vec![t])
    }
}
impl<const N: usize> From<[&str; N]> for MediaTypes {
    fn from(t: [&str; N]) -> Self {
        MediaTypes(t.iter().map(|s| (*s).to_owned()).collect())
    }
}
impl From<&[&str]> for MediaTypes {
    fn from(t: &[&str]) -> Self {
        MediaTypes(t.iter().map(|s| (*s).to_owned()).collect())
    }
}
impl From<Vec<&str>> for MediaTypes {
    fn from(t: Vec<&str>) -> Self {
        MediaTypes(t.into_iter().map(str::to_owned).collect())
    }
}
impl From<Vec<String>> for MediaTypes {
    fn from(t: Vec<String>) -> Self {
        MediaTypes(t)
    }
}

type TypeFn = dyn Fn(&Request) -> bool + Send + Sync;
type VerifyFn = dyn Fn(&Request, &Response, &[u8], Option<&str>) -> Result<(), Error> + Send + Sync;

#[derive(Clone)]
pub(crate) enum TypeMatch {
    /// The types, and whether they are one lower-case `type/subtype`
    /// without wildcards: a `Content-Type` equal to it byte for byte then
    /// matches without being parsed (most requests send exactly the type).
    Types(MediaTypes, bool),
    Fn(Arc<TypeFn>),
}

impl TypeMatch {
    pub(crate) fn types(types: MediaTypes) -> TypeMatch {
        let plain = match types.as_slice() {
            [only] => {
                !only.contains('*')
                    && crate::http::type_is::normalize_content_type(only).as_ref() == Some(only)
            }
            _ => false,
        };
        TypeMatch::Types(types, plain)
    }
}

/// `inflate`, `limit`, `type` and `verify`, and which body-parser the parser is.
#[derive(Clone)]
pub(crate) struct Common {
    pub inflate: bool,
    pub limit: Limit,
    pub types: TypeMatch,
    pub verify: Option<Arc<VerifyFn>>,
    /// body-parser 1 (Express 4) or 2 (Express 5): set by the `webfw::express5`
    /// constructors, read only where the two differ, so Express 4 parsers take the
    /// path they always took.
    pub dialect: Dialect,
}

impl Common {
    pub(crate) fn new(default_type: &str) -> Common {
        Common {
            inflate: true,
            limit: Limit::default(),
            types: TypeMatch::types(default_type.into()),
            verify: None,
            dialect: Dialect::Express4,
        }
    }

    /// Whether this is a body-parser 2 (Express 5) parser.
    pub(crate) fn express5(&self) -> bool {
        self.dialect.is_express5()
    }

    /// The checks every parser makes before reading, in body-parser's order:
    /// a body parsed already (`req._body`) is left alone; requests without a
    /// body or of another type pass through with `req.body` `{}` if nothing
    /// set it (body-parser 1) or as it was, `undefined` if nothing set it
    /// (body-parser 2). `true` when this parser should read the body;
    /// `req.body` is then set by the parse (or to `{}` by [`Common::settle`]
    /// on failure, body-parser 1), which spares replacing it twice.
    pub(crate) fn applies(&self, req: &mut Request) -> bool {
        if req.body_consumed() {
            return false;
        }
        let wanted = req.has_body()
            && match &self.types {
                TypeMatch::Types(t, plain) => {
                    let ct = req.headers().get(http::header::CONTENT_TYPE);
                    // Exactly the type is the same request to both type-is versions.
                    *plain && ct.is_some_and(|ct| ct.as_bytes() == t.as_slice()[0].as_bytes())
                        || if self.express5() {
                            super::lenient::type_matches(ct, t.as_slice())
                        } else {
                            crate::http::type_is::matches(
                                ct.and_then(|v| v.to_str().ok()),
                                t.as_slice(),
                            )
                        }
                }
                TypeMatch::Fn(f) => f(req),
            };
        if !wanted && !self.express5() {
            default_body(req);
        }
        wanted
    }

    /// The end of a parse: on failure `req.body` is `{}` (body-parser 1) or
    /// left as it was (body-parser 2).
    pub(crate) fn settle(
        &self,
        req: &mut Request,
        result: Result<Body, Error>,
    ) -> crate::handler::Result {
        match result {
            Ok(body) => {
                req.set_body(body);
                Ok(crate::handler::Flow::Next)
            }
            Err(e) => {
                if !self.express5() {
                    default_body(req);
                }
                Err(e)
            }
        }
    }

    /// Reads the body (marking it consumed) and runs `verify` over the raw
    /// bytes. `charset` is what the body will be decoded with (`None` for
    /// raw bytes).
    pub(crate) async fn read(
        &self,
        req: &mut Request,
        res: &mut Response,
        charset: Option<&str>,
    ) -> Result<Bytes, Error> {
        req.mark_body_consumed();
        if self.verify.is_some()
            && let Some(cs) = charset
            && !super::charset_supported(cs)
        {
            return Err(errors::charset_unsupported(cs));
        }
        let spec = ReadSpec {
            limit: self.limit.bytes(),
            inflate: self.inflate,
            brotli: self.express5(),
            charset,
        };
        let bytes = read_body(req, spec).await?;
        if let Some(verify) = &self.verify {
            // body-parser 1 sets `req.body = {}` before reading; 2 leaves it.
            if !self.express5() {
                default_body(req);
            }
            verify(req, &*res, &bytes, charset).map_err(errors::verify_failed)?;
        }
        Ok(bytes)
    }
}

/// `req.body = req.body || {}`.
pub(crate) fn default_body(req: &mut Request) {
    if req.body().is_undefined() {
        req.set_body(Body::empty_object());
    }
}

impl fmt::Debug for Common {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Options");
        d.field("inflate", &self.inflate)
            .field("limit", &self.limit.bytes());
        match &self.types {
            TypeMatch::Types(t, _) => d.field("type", &t.as_slice()),
            TypeMatch::Fn(_) => d.field("type", &"<fn>"),
        };
        d.field("verify", &self.verify.is_some())
            .field("dialect", &self.dialect)
            .finish()
    }
}

/// The builder methods of the options every parser shares.
macro_rules! common_options {
    ($opts:ident, $ctor:literal) => {
        impl $opts {
            /// `inflate`: whether compressed bodies (gzip and deflate, and
            /// br for the Express 5 parsers) are inflated (default `true`);
            /// when `false` every encoding but `identity` is refused with 415.
            ///
            /// ```
            #[doc = concat!("let opts = ", $ctor, ".inflate(false);")]
            /// ```
            pub fn inflate(mut self, inflate: bool) -> Self {
                self.common.inflate = inflate;
                self
            }

            /// Makes these options a body-parser 2 (Express 5) parser's.
            pub(crate) fn into_express5(mut self) -> Self {
                self.common.dialect = $crate::Dialect::Express5;
                self
            }

            /// `limit`: the most bytes read (after inflating), as a count or
            /// a size string such as `"100kb"` or `"1mb"` (default
            /// `"100kb"`). Past it the request fails with 413
            /// `entity.too.large`.
            ///
            /// # Panics
            ///
            /// For a string that is not a size (body-parser throws
            /// `option limit "…" is invalid` too).
            ///
            /// ```
            #[doc = concat!("let opts = ", $ctor, ".limit(\"1mb\");")]
            #[doc = concat!("let opts = ", $ctor, ".limit(64);")]
            /// ```
            pub fn limit(mut self, limit: impl Into<$crate::body::Limit>) -> Self {
                self.common.limit = limit.into();
                self
            }

            /// `type`: which `Content-Type`s this parser reads: an
            /// extension name, a MIME type, a wildcard (`*/*`, `text/*`,
            /// `+json`), or a list of them (see `req.is`).
            ///
            /// ```
            #[doc = concat!("let opts = ", $ctor, ".type_([\"application/json\", \"text/*\"]);")]
            /// ```
            pub fn type_(mut self, types: impl Into<$crate::body::MediaTypes>) -> Self {
                self.common.types = $crate::body::options::TypeMatch::types(types.into());
                self
            }

            /// `type` as a function of the request: the body is read when it
            /// returns `true`.
            ///
            /// ```
            #[doc = concat!("let opts = ", $ctor, ".type_fn(|req| req.get(\"x-parse\").is_some());")]
            /// ```
            pub fn type_fn(
                mut self,
                f: impl Fn(&$crate::Request) -> bool + Send + Sync + 'static,
            ) -> Self {
                self.common.types = $crate::body::options::TypeMatch::Fn(std::sync::Arc::new(f));
                self
            }

            /// `verify(req, res, buf, encoding)`: runs over the raw (inflated)
            /// bytes before they are parsed; an `Err` stops the request with
            /// 403 `entity.verify.failed`, or with the error's own status and
            /// type when it has them. `encoding` is the charset the body will
            /// be decoded with (`None` for `raw`).
            ///
            /// ```
            #[doc = concat!("let opts = ", $ctor, ".verify(|_req, _res, buf, _enc| {")]
            ///     if buf.starts_with(b"sig:") { Ok(()) } else { Err(webfw::Error::new("unsigned")) }
            /// });
            /// ```
            pub fn verify(
                mut self,
                f: impl Fn(&$crate::Request, &$crate::Response, &[u8], Option<&str>) -> Result<(), $crate::Error>
                    + Send
                    + Sync
                    + 'static,
            ) -> Self {
                self.common.verify = Some(std::sync::Arc::new(f));
                self
            }
        }
    };
}
pub(crate) use common_options;
