//! Sessions: express-session's middleware, session object and stores.
//!
//! [`session`](crate::session()) loads the session named by the signed
//! session cookie (or starts one) before the next handler runs, gives it to
//! handlers as [`req.session()`](crate::Request::session), and, just before
//! the response head leaves, sets the cookie and saves, touches or destroys
//! the stored session as express-session decides. The head waits for that
//! store write; if it fails the request gets a 500 page instead.
//!
//! ```
//! use webfw::prelude::*;
//! use webfw::session::SessionOptions;
//!
//! fn views(req: &mut Request, res: &mut Response) -> Result {
//!     let n = req.session().get::<u64>("views").unwrap_or(0) + 1;
//!     req.session().set("views", n)?;
//!     res.send(format!("{n} views"))
//! }
//!
//! let mut app = webfw::app();
//! app.use_(webfw::session(SessionOptions::new("keyboard cat")));
//! app.get("/", views);
//! ```

mod cookie;
mod handle;
mod memory;
mod middleware;
mod options;
#[cfg(feature = "redis")]
mod redis;
mod store;

use base64::Engine;

#[cfg(feature = "redis")]
pub use self::redis::{RedisStore, RedisStoreOptions};
pub use cookie::{CookieOptions, Secure, SessionCookie};
pub use handle::{DataMut, Session};
pub use memory::MemoryStore;
pub use middleware::SessionMiddleware;
pub use options::{SessionOptions, Unset};
pub use store::{SessionRecord, SessionStore};

/// `session(options)`: the session middleware.
///
/// ```
/// use webfw::session::{SessionOptions, MemoryStore};
/// let mut app = webfw::app();
/// app.use_(webfw::session(
///     SessionOptions::new("keyboard cat").resave(false).save_uninitialized(false).store(MemoryStore::new()),
/// ));
/// ```
pub fn session(options: SessionOptions) -> SessionMiddleware {
    SessionMiddleware::new(options)
}

/// A new session id: 24 bytes (192 bits) from the operating system's
/// random number generator, base64url without padding (`uid-safe`'s form,
/// as express-session makes them).
///
/// ```
/// let id = webfw::session::generate_id();
/// assert_eq!(id.len(), 32);
/// assert_ne!(id, webfw::session::generate_id());
/// ```
///
/// # Panics
///
/// When the operating system cannot give random bytes (no safe id can be
/// made then).
pub fn generate_id() -> String {
    let mut bytes = [0u8; 24];
    getrandom::getrandom(&mut bytes)
        .expect("the operating system's random number generator failed");
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}
