//! `req.session` of cookie-session, as `req.cookie_session()` (so that it
//! does not collide with express-session's `req.session()`).

use crate::cookie_session::CookieSession;
use crate::request::Request;

impl Request {
    /// `req.session` of cookie-session: the session read from the request's
    /// cookie (the first call reads it), or a new one.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// fn count(req: &mut Request, res: &mut Response) -> Result {
    ///     let n = req.cookie_session().get::<u32>("n").unwrap_or(0) + 1;
    ///     req.cookie_session().set("n", n)?;
    ///     res.send(n.to_string())
    /// }
    /// let mut app = webfw::app();
    /// app.use_(webfw::cookie_session(
    ///     webfw::cookie_session::CookieSessionOptions::new().keys(["a secret"]),
    /// ));
    /// app.get("/", count);
    /// ```
    ///
    /// # Panics
    ///
    /// When no cookie session middleware ran for this request (the message
    /// says what to add); [`Request::try_cookie_session`] does not panic.
    pub fn cookie_session(&self) -> &CookieSession {
        self.try_cookie_session().unwrap_or_else(|| {
            panic!(
                "req.cookie_session() needs the cookie session middleware before this handler: \
                 app.use_(webfw::cookie_session(webfw::cookie_session::CookieSessionOptions::new()\
                 .keys([\"your secret\"])))"
            )
        })
    }

    /// [`Request::cookie_session`], or `None` when no cookie session
    /// middleware ran.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.try_cookie_session().is_none());
    /// ```
    pub fn try_cookie_session(&self) -> Option<&CookieSession> {
        let session = self.extensions().get::<CookieSession>()?;
        session.load();
        Some(session)
    }
}
