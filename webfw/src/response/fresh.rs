//! `req.fresh` and `req.stale`. Express's request reads them from `this.res`;
//! here they take the response, and live beside it because they read
//! what it is about to send.

use super::Response;
use crate::request::Request;

impl Request {
    /// `req.fresh`: whether the client's cached copy matches the response being
    /// prepared (its `ETag` / `Last-Modified`). Only GET and HEAD with a 2xx or
    /// 304 status can be fresh.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let res = webfw::testing::response(&req);
    /// assert!(!req.fresh(&res));
    /// ```
    pub fn fresh(&self, res: &Response) -> bool {
        res.is_fresh_for(self.method(), self.headers())
    }

    /// `req.stale`: `!req.fresh`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let res = webfw::testing::response(&req);
    /// assert!(req.stale(&res));
    /// ```
    pub fn stale(&self, res: &Response) -> bool {
        !self.fresh(res)
    }
}
