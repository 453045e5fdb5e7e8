//! `GET /tags`: every tag in use, most used first.

use serde_json::json;
use webfw::prelude::*;

use crate::errors::db;
use crate::state::ctx;

/// The most tags the list returns.
const MAX_TAGS: i64 = 100;

#[get("/tags")]
async fn list(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let tags: Vec<String> = sqlx::query_scalar(
        "SELECT tag FROM article_tags GROUP BY tag ORDER BY COUNT(*) DESC, tag LIMIT $1",
    )
    .bind(MAX_TAGS)
    .fetch_all(&cx.db)
    .await
    .map_err(db)?;
    res.json(&json!({ "tags": tags }))
}

/// The routes of this file.
pub fn routes() -> webfw::Routes {
    routes![list]
}
