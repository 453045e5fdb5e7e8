//! The RealWorld (Conduit) API on webfw: users and tokens, profiles and
//! follows, articles with tags and favorites, comments, the feed.
//!
//! Express's shape: one file of routes per resource, written with the
//! route macros and mounted under `/api`; middleware for logging, CORS, the
//! JSON body and authentication; the pool as the app's typed state; one
//! error handler that answers the spec's `{"errors": {…}}` bodies.

pub mod articles;
pub mod auth;
pub mod comments;
pub mod config;
pub mod db;
pub mod errors;
pub mod profiles;
pub mod slug;
pub mod state;
pub mod tags;
pub mod time;
pub mod users;
pub mod validate;

use std::sync::Arc;

use webfw::body::JsonOptions;
use webfw::prelude::*;

pub use config::Config;

/// The largest JSON body: an article of a few hundred pages.
pub const BODY_LIMIT: &str = "1mb";

/// Anything under `/api` that no route answered.
#[middleware]
fn no_route(_req: &mut Request, _res: &mut Response) -> Result {
    Err(Error::status_message(404, "no such route").with_code("route"))
}

/// Connects to the database (creating and migrating it) and builds the app.
///
/// ```no_run
/// # async fn run() -> Result<(), sqlx::Error> {
/// let app = realworld::app(&realworld::Config::from_env()).await?;
/// let server = app.bind(3000).await?;
/// # Ok(()) }
/// ```
pub async fn app(config: &Config) -> std::result::Result<App, sqlx::Error> {
    let db = db::connect(&config.database_url).await?;
    let shared = state::Ctx {
        db,
        keys: Arc::new(auth::Keys::new(&config.jwt_secret)),
    };
    let mut app = webfw::app();
    if config.log {
        app.use_(webfw::logger("dev", ()));
    }
    // Any origin: the API authenticates with a header, never a cookie.
    app.use_(webfw::cors(()));
    app.state(shared);
    app.use_(webfw::json(JsonOptions::new().limit(BODY_LIMIT)));
    app.mount_at("/api", routes![auth::authenticate]);
    app.mount_at("/api", users::routes());
    app.mount_at("/api", profiles::routes());
    app.mount_at("/api", articles::routes());
    app.mount_at("/api", comments::routes());
    app.mount_at("/api", tags::routes());
    app.mount(routes![no_route, errors::spec_errors]);
    Ok(app)
}
