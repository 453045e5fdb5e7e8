//! What every handler shares: the database pool and the token key.
//!
//! webfw's typed application state is not on main yet, so [`provide`] is a
//! middleware that puts a [`Ctx`] in each request's extensions and [`ctx`]
//! reads it back; moving to `app.state(ctx)` / `req.state::<Ctx>()` changes
//! only these two functions.

use std::sync::Arc;

use webfw::prelude::*;

use crate::auth::Keys;
use crate::db::Db;

/// The shared state, cheap to clone (two reference counts).
#[derive(Clone)]
pub struct Ctx {
    /// The connection pool.
    pub db: Db,
    /// The key tokens are signed and checked with.
    pub keys: Arc<Keys>,
}

/// A middleware that hands `ctx` to every request.
pub fn provide(ctx: Ctx) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |req: &mut Request, _res: &mut Response| {
        req.extensions_mut().insert(ctx.clone());
        next()
    }
}

/// The shared state of this request.
pub fn ctx(req: &Request) -> std::result::Result<Ctx, Error> {
    req.extensions()
        .get::<Ctx>()
        .cloned()
        .ok_or_else(|| Error::status_message(500, "state::provide is not mounted"))
}
