//! Express: `app.use(cookieSession({ name: 'session', keys: ['new', 'old'] }))`
//! and `req.session.n = 1`.
//!
//! webfw: `app.use_(webfw::cookie_session(CookieSessionOptions::new().keys(["new", "old"])))`
//! and `req.cookie_session().set("n", 1)?`.
//!
//! Cookie sessions, the session's data kept in a signed cookie: the
//! `cookie-session` 2.1 package rebuilt (feature `cookie-session`). The
//! session is JSON, written base64-encoded into the `session` cookie and
//! signed in `session.sig` with HMAC-SHA1 as the `keygrip` package does
//! ([`crate::http::keygrip`]): cookies made by Express's cookie-session are
//! read here and the other way round, given the same keys. The first key
//! signs; any key verifies, and a cookie signed with an older one gets its
//! signature renewed. A cookie is written only when the session changed
//! (and is not a new, empty one); [`CookieSession::clear`]
//! (`req.session = null`) expires both cookies.
//!
//! The session is [`req.cookie_session()`](crate::Request::cookie_session),
//! so that it does not collide with express-session's
//! [`req.session()`](crate::Request::session).
//!
//! ```
//! use webfw::prelude::*;
//! use webfw::cookie_session::CookieSessionOptions;
//!
//! fn count(req: &mut Request, res: &mut Response) -> Result {
//!     let s = req.cookie_session();
//!     let n = s.get::<u64>("n").unwrap_or(0) + 1;
//!     s.set("n", n)?;
//!     res.json(&serde_json::json!({ "n": n, "isNew": s.is_new() }))
//! }
//!
//! let mut app = webfw::app();
//! app.use_(webfw::cookie_session(
//!     CookieSessionOptions::new()
//!         .keys(["key-new", "key-old"])
//!         .max_age(std::time::Duration::from_secs(3600)),
//! ));
//! app.get("/count", count);
//! ```

mod cookies;
mod middleware;
mod options;
mod session;

pub use middleware::CookieSessionMiddleware;
pub use options::CookieSessionOptions;
pub use session::CookieSession;

/// `cookieSession(options)`: the cookie session middleware.
///
/// ```
/// use webfw::cookie_session::CookieSessionOptions;
/// let mut app = webfw::app();
/// app.use_(webfw::cookie_session(CookieSessionOptions::new().secret("s3cr3t")));
/// ```
///
/// # Panics
///
/// When the session is signed (the default) and no key is given, as the
/// package throws `.keys required.`: give
/// [`keys`](CookieSessionOptions::keys) or
/// [`secret`](CookieSessionOptions::secret), or
/// [`signed(false)`](CookieSessionOptions::signed).
pub fn cookie_session(options: CookieSessionOptions) -> CookieSessionMiddleware {
    CookieSessionMiddleware::new(options)
}
