//! `req.accepts`, `req.acceptsCharsets`, `req.acceptsEncodings`,
//! `req.acceptsLanguages` (accepts 1.3 over negotiator 0.6).

use super::{Request, header_str};
use crate::http::negotiate;

impl Request {
    /// A request header as text (`None` when absent or not UTF-8).
    fn accept_header(&self, name: http::header::HeaderName) -> Option<&str> {
        self.headers().get(name).and_then(header_str)
    }

    /// `req.accepts(types)`: the best of `types` for the `Accept` header, or
    /// `None` when none is acceptable (Express's `false`; answer 406). Types
    /// are MIME types (`text/html`, `text/*`) or extension names (`json`).
    /// Without an `Accept` header, the first type. For every type the client
    /// accepts, see [`Request::accepted_types`].
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("accept", "text/html;q=0.5, application/json".parse().unwrap());
    /// assert_eq!(req.accepts(&["html", "json"]), Some("json"));
    /// assert_eq!(req.accepts(&["image/png"]), None);
    /// ```
    pub fn accepts<'t>(&self, types: &[&'t str]) -> Option<&'t str> {
        let accept = self.accept_header(http::header::ACCEPT);
        negotiate::accepts(accept, types).map(|i| types[i])
    }

    /// `req.accepts()` with no argument: every media type of the `Accept`
    /// header with q > 0, best first (`["*/*"]` when there is no header).
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("accept", "text/html, */*;q=0.8".parse().unwrap());
    /// assert_eq!(req.accepted_types(), ["text/html", "*/*"]);
    /// ```
    pub fn accepted_types(&self) -> Vec<String> {
        negotiate::accepted_media_types(self.accept_header(http::header::ACCEPT))
    }

    /// `req.acceptsCharsets(…)`: the best of `charsets` for
    /// `Accept-Charset`, or `None`. No header accepts any charset.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("accept-charset", "iso-8859-1, utf-8;q=0.5".parse().unwrap());
    /// assert_eq!(req.accepts_charsets(&["utf-8", "iso-8859-1"]), Some("iso-8859-1"));
    /// ```
    pub fn accepts_charsets<'t>(&self, charsets: &[&'t str]) -> Option<&'t str> {
        let header = self.accept_header(http::header::ACCEPT_CHARSET);
        let order = negotiate::preferred_charsets(header, charsets);
        order.first().map(|&i| charsets[i])
    }

    /// `req.acceptsCharsets()` with no argument: every charset accepted, best first.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.accepted_charsets(), ["*"]);
    /// ```
    pub fn accepted_charsets(&self) -> Vec<String> {
        negotiate::accepted_charsets(self.accept_header(http::header::ACCEPT_CHARSET))
    }

    /// `req.acceptsEncodings(…)`: the best of `encodings` for
    /// `Accept-Encoding`, or `None`. `identity` is acceptable unless the
    /// header refuses it (`identity;q=0` or `*;q=0`); no header accepts
    /// `identity` only.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("accept-encoding", "gzip;q=0.5, br".parse().unwrap());
    /// assert_eq!(req.accepts_encodings(&["gzip", "br"]), Some("br"));
    /// assert_eq!(req.accepts_encodings(&["deflate", "identity"]), Some("identity"));
    /// ```
    pub fn accepts_encodings<'t>(&self, encodings: &[&'t str]) -> Option<&'t str> {
        let header = self.accept_header(http::header::ACCEPT_ENCODING);
        let order = negotiate::preferred_encodings(header, encodings);
        order.first().map(|&i| encodings[i])
    }

    /// `req.acceptsEncodings()` with no argument: every encoding accepted,
    /// best first, `identity` included unless refused.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.accepted_encodings(), ["identity"]);
    /// ```
    pub fn accepted_encodings(&self) -> Vec<String> {
        negotiate::accepted_encodings(self.accept_header(http::header::ACCEPT_ENCODING))
    }

    /// `req.acceptsLanguages(…)`: the best of `languages` for
    /// `Accept-Language`, or `None`. `en` in the header accepts `en-US`,
    /// and `en-US` in the header accepts `en`.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("accept-language", "fr-CH, fr;q=0.9, en;q=0.8".parse().unwrap());
    /// assert_eq!(req.accepts_languages(&["en", "fr"]), Some("fr"));
    /// ```
    pub fn accepts_languages<'t>(&self, languages: &[&'t str]) -> Option<&'t str> {
        let header = self.accept_header(http::header::ACCEPT_LANGUAGE);
        let order = negotiate::preferred_languages(header, languages);
        order.first().map(|&i| languages[i])
    }

    /// `req.acceptsLanguages()` with no argument: every language of the
    /// header with q > 0, best first (`["*"]` when there is no header).
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("accept-language", "de;q=0.7, en-US".parse().unwrap());
    /// assert_eq!(req.accepted_languages(), ["en-US", "de"]);
    /// ```
    pub fn accepted_languages(&self) -> Vec<String> {
        negotiate::accepted_languages(self.accept_header(http::header::ACCEPT_LANGUAGE))
    }
}
