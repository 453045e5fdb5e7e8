//! What every handler shares: the database pool and the token key, the
//! app's typed state (`app.state(ctx)` in `lib.rs`).

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

/// The shared state of this request's app, owned so a handler can hold it
/// across `.await`s while it reads the request.
pub fn ctx(req: &Request) -> std::result::Result<Ctx, Error> {
    req.state::<Ctx>().cloned()
}
