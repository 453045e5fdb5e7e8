//! `req.range(size, options)`.

use super::{Request, header_str};
use crate::http::range::{ParsedRange, parse};

impl Request {
    /// `req.range(size, {combine})`: the request's `Range` header parsed
    /// for a resource of `size` bytes (range-parser 1.2); `None` without
    /// the header. [`ParsedRange::Unsatisfiable`] and
    /// [`ParsedRange::Malformed`] are Express's `-1` and `-2`. An Express 5
    /// app parses with range-parser 1.3, where one malformed part makes the
    /// whole header `-2`.
    ///
    /// ```
    /// use webfw::{ByteRange, ParsedRange};
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.range(1000, false), None);
    /// req.headers_mut().insert("range", "bytes=0-99".parse().unwrap());
    /// assert_eq!(req.range(1000, false), Some(ParsedRange::Ranges {
    ///     unit: "bytes".into(),
    ///     ranges: vec![ByteRange { start: 0, end: 99 }],
    /// }));
    /// ```
    pub fn range(&self, size: u64, combine: bool) -> Option<ParsedRange> {
        let header = self
            .headers()
            .get(http::header::RANGE)
            .and_then(header_str)
            .filter(|s| !s.is_empty())?;
        if self.app.dialect().is_express5() {
            // range-parser 1.3: any malformed part makes the whole header -2.
            return Some(crate::http::range::parse_strict(size, header, combine));
        }
        Some(parse(size, header, combine))
    }
}
