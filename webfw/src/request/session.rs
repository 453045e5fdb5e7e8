//! `req.session`: the session the session middleware put on the request.

use crate::request::Request;
use crate::session::Session;

impl Request {
    /// `req.session`: the current session.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// fn count(req: &mut Request, res: &mut Response) -> Result {
    ///     let n = req.session().get::<u32>("n").unwrap_or(0) + 1;
    ///     req.session().set("n", n)?;
    ///     res.send(n.to_string())
    /// }
    /// let mut app = webfw::app();
    /// app.use_(webfw::session(webfw::session::SessionOptions::new("keyboard cat")));
    /// app.get("/", count);
    /// ```
    ///
    /// # Panics
    ///
    /// When no session middleware ran for this request (the message says
    /// what to add); [`Request::try_session`] does not panic.
    pub fn session(&self) -> &Session {
        self.try_session().unwrap_or_else(|| {
            panic!(
                "req.session() needs the session middleware before this handler: \
                 app.use_(webfw::session(webfw::session::SessionOptions::new(\"your secret\")))"
            )
        })
    }

    /// `req.session`, or `None` when no session middleware ran (or its
    /// cookie path does not cover this request).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.try_session().is_none());
    /// ```
    pub fn try_session(&self) -> Option<&Session> {
        self.extensions().get::<Session>()
    }
}
