//! body-parser 2.4's `urlencoded`, what Express 5's `express.urlencoded` is: qs for both
//! modes (`extended: false` is depth 0), UTF-8 and ISO-8859-1 bodies, and `req.body` left
//! `undefined` when the parser does not parse.

use serde_json::Value;

use super::{UrlencodedOptions, UrlencodedParser, depth_error, errors};
use crate::body::Body;
use crate::error::Error;
use crate::handler::{Flow, HandlerFuture};
use crate::http::qs::{self, Charset, QsOptions};
use crate::request::Request;
use crate::response::Response;

impl UrlencodedParser {
    /// The Express 5 parser's `call`.
    pub(super) fn call5<'a>(
        &'a self,
        req: &'a mut Request,
        res: &'a mut Response,
    ) -> HandlerFuture<'a> {
        let common = &self.options.common;
        if !common.applies(req) {
            return HandlerFuture::ready(Ok(Flow::Next));
        }
        let charset = match crate::body::request_charset(req, common) {
            None if self.options.latin1_default => Charset::Iso88591,
            None => Charset::Utf8,
            Some(cs) => match cs.as_str() {
                "utf-8" => Charset::Utf8,
                "iso-8859-1" => Charset::Iso88591,
                _ => {
                    let err = Err(errors::charset_unsupported(&cs));
                    return HandlerFuture::ready(common.settle(req, err));
                }
            },
        };
        let name = match charset {
            Charset::Utf8 => "utf-8",
            Charset::Iso88591 => "iso-8859-1",
        };
        HandlerFuture::boxed(Box::pin(async move {
            let body = match common.read(req, res, Some(name)).await {
                Ok(bytes) => {
                    let text = match charset {
                        Charset::Utf8 => crate::body::decode_utf8(&bytes),
                        // Each byte is its character (iconv-lite's latin1).
                        Charset::Iso88591 => bytes.iter().map(|&b| char::from(b)).collect(),
                    };
                    parse_form(&text, &self.options, self.extended, charset)
                        .map_err(errors::parse_failed)
                }
                Err(e) => Err(e),
            };
            if body.is_ok() {
                req.extensions_mut().insert(crate::body::FormBody);
            }
            common.settle(req, body.map(Body::Value))
        }))
    }
}

/// body-parser 2's `parse(body, encoding)`.
fn parse_form(
    text: &str,
    opts: &UrlencodedOptions,
    extended: bool,
    charset: Charset,
) -> Result<Value, Error> {
    if text.is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    let count = super::parameter_count(text, opts.parameter_limit)
        .ok_or_else(errors::too_many_parameters)?;
    let qs_opts = QsOptions {
        // The simple parser is qs keeping every key whole.
        depth: if extended { opts.depth } else { 0 },
        array_limit: if extended { count.max(100) } else { count },
        parameter_limit: opts.parameter_limit,
        strict_depth: true,
        allow_prototypes: true,
        charset,
        charset_sentinel: opts.charset_sentinel,
        interpret_numeric_entities: opts.interpret_numeric_entities,
    };
    qs::parse(text, &qs_opts).map_err(depth_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str, opts: &UrlencodedOptions, extended: bool) -> Value {
        parse_form(text, opts, extended, Charset::Utf8).unwrap()
    }

    #[test]
    fn simple_mode_is_qs_at_depth_zero() {
        let o = UrlencodedOptions::new();
        assert_eq!(
            parse("a[b]=1&a=2&a=3&__proto__=x", &o, false),
            json!({"a[b]": "1", "a": ["2", "3"]})
        );
        assert_eq!(
            parse("a[b]=1&a[c][]=2", &o, true),
            json!({"a": {"b": "1", "c": ["2"]}})
        );
    }

    #[test]
    fn depth_and_parameters() {
        let o = UrlencodedOptions::new().depth(1);
        let err = parse_form("a[b][c]=1", &o, true, Charset::Utf8).unwrap_err();
        assert_eq!(
            (err.status(), err.kind()),
            (400, Some("querystring.parse.rangeError"))
        );
        // Depth does not apply to the simple parser.
        assert_eq!(parse("a[b][c]=1", &o, false), json!({"a[b][c]": "1"}));
        let three = UrlencodedOptions::new().parameter_limit(3);
        let err = parse_form("a&b&c&d", &three, false, Charset::Utf8).unwrap_err();
        assert_eq!(err.kind(), Some("parameters.too.many"));
    }

    #[test]
    fn latin1_with_entities() {
        let o = UrlencodedOptions::new().interpret_numeric_entities(true);
        let v = parse_form("n=caf%E9+%26%2310003%3B", &o, false, Charset::Iso88591).unwrap();
        assert_eq!(v, json!({"n": "café ✓"}));
    }
}
