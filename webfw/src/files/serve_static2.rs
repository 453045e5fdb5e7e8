//! `express.static(root, options)` of Express 5: serve-static 2.2 over
//! send 1.2. The middleware is serve-static 1's with send 1's rules
//! ([`Send1`]) and its `dotfiles` default, `Ignore` for every segment.

use std::path::PathBuf;
use std::sync::Arc;

use super::options::Dotfiles;
use super::rules::Send1;
use super::serve_static::{StaticOptions, call, rooted};
use crate::handler::{Handler, HandlerFuture};
use crate::request::Request;
use crate::response::Response;

/// The middleware [`webfw::express5::static_`](crate::express5::static_)
/// returns: serve-static 2 (Express 5's `express.static`).
///
/// ```
/// let mw: webfw::files::Static5 = webfw::express5::static_(".");
/// let mut app = webfw::express5::app();
/// app.use_(mw);
/// ```
#[derive(Clone, Debug)]
pub struct Static5 {
    inner: Arc<StaticOptions>,
}

impl Static5 {
    /// serve-static 2 with `options`: serve-static 1's, except that an
    /// unset `dotfiles` is `Ignore` (a dot directory is not served either).
    pub(crate) fn new(root: PathBuf, options: StaticOptions) -> Static5 {
        Static5 {
            inner: rooted(root, options.dotfiles_default(Dotfiles::Ignore)),
        }
    }
}

impl Handler for Static5 {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        call::<Send1>(&self.inner, req, res)
    }
}
