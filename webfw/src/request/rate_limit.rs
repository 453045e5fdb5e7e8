//! `req.rateLimit`: what the rate limiter counted for this request.

use crate::rate_limit::RateLimitInfo;
use crate::request::Request;

impl Request {
    /// `req.rateLimit`: the limit, the hits used and left, the reset time
    /// and the key, once a [`rate_limit`](crate::rate_limit()) middleware
    /// counted this request (`None` before, or when it skipped it).
    ///
    /// ```
    /// use webfw::prelude::*;
    /// fn h(req: &mut Request, res: &mut Response) -> Result {
    ///     match req.rate_limit() {
    ///         Some(info) => res.json(info),
    ///         None => res.send("not limited"),
    ///     }
    /// }
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.rate_limit().is_none());
    /// ```
    pub fn rate_limit(&self) -> Option<&RateLimitInfo> {
        self.extensions().get::<RateLimitInfo>()
    }
}
