//! `res.links(links)`: the `Link` header.

use super::Response;

impl Response {
    /// `res.links({rel: url, …})`: appends `<url>; rel="rel"` entries to
    /// the `Link` header, comma-separated, after any value it had.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.links([("next", "/users?page=2"), ("last", "/users?page=5")]);
    /// res.links([("prev", "/users?page=1")]);
    /// assert_eq!(
    ///     res.get("link"),
    ///     Some(r#"</users?page=2>; rel="next", </users?page=5>; rel="last", </users?page=1>; rel="prev""#)
    /// );
    /// ```
    pub fn links<I, R, U>(&mut self, links: I) -> &mut Self
    where
        I: IntoIterator<Item = (R, U)>,
        R: AsRef<str>,
        U: AsRef<str>,
    {
        let mut value = self.get("link").unwrap_or("").to_owned();
        let mut first = value.is_empty();
        for (rel, url) in links {
            if !first {
                value.push_str(", ");
            }
            first = false;
            value.push('<');
            value.push_str(url.as_ref());
            value.push_str(">; rel=\"");
            value.push_str(rel.as_ref());
            value.push('"');
        }
        self.set("Link", value)
    }
}
