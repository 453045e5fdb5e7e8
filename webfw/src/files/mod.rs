//! Files: `res.sendFile` / `res.download` and `express.static`, with the
//! HTTP semantics of `send` 0.19 and `serve-static` 1.16 (Express 4), or
//! of send 1.2 and serve-static 2.2 (Express 5: `rules` holds what differs,
//! `serve_static2` is its middleware).
//!
//! `path` turns a request path or a file name into a file system path the
//! way send does (decoding, `..` checks, dotfiles), `send` answers with a
//! file (validators, conditional requests, ranges, streaming) and
//! `serve_static` is the middleware.
//!
//! ```
//! use webfw::files::StaticOptions;
//! let mut app = webfw::app();
//! app.use_at("/assets", webfw::static_("public", StaticOptions::new().max_age("1d")));
//! ```

mod max_age;
pub(crate) mod node_path;
pub(crate) mod options;
pub(crate) mod path;
pub(crate) mod rules;
pub(crate) mod send;
mod serve_static;
mod serve_static2;

pub use max_age::MaxAge;
pub use options::{Dotfiles, SendFileOptions};
pub(crate) use send::Sent;
pub use serve_static::{SetHeaders, Static, StaticOptions, static_};
pub use serve_static2::Static5;
