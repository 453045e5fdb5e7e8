//! `GET`/`POST /articles/:slug/comments`, `DELETE /articles/:slug/comments/:id`.

use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;
use sqlx::any::AnyRow;
use webfw::prelude::*;

use crate::articles::article_id;
use crate::auth::{require_viewer, viewer};
use crate::errors::{db, forbidden, not_found};
use crate::state::{Ctx, ctx};
use crate::time::iso_now;
use crate::validate::required;

#[derive(Deserialize)]
struct Wrapper {
    comment: NewComment,
}

#[derive(Deserialize)]
struct NewComment {
    body: Option<String>,
}

/// A comment with its author; `$1` is the viewer's id (0 for nobody).
const COMMENT_SELECT: &str = "SELECT c.id, c.body, c.created_at, c.updated_at, c.author_id, \
     u.username, u.bio, u.image, \
     (SELECT COUNT(*) FROM follows w WHERE w.followee_id = c.author_id AND w.follower_id = $1) \
     AS following \
     FROM comments c JOIN users u ON u.id = c.author_id";

fn comment_json(row: &AnyRow) -> std::result::Result<Value, Error> {
    Ok(json!({
        "id": row.try_get::<i64, _>("id").map_err(db)?,
        "createdAt": row.try_get::<String, _>("created_at").map_err(db)?,
        "updatedAt": row.try_get::<String, _>("updated_at").map_err(db)?,
        "body": row.try_get::<String, _>("body").map_err(db)?,
        "author": {
            "username": row.try_get::<String, _>("username").map_err(db)?,
            "bio": row.try_get::<Option<String>, _>("bio").map_err(db)?,
            "image": row.try_get::<Option<String>, _>("image").map_err(db)?,
            "following": row.try_get::<i64, _>("following").map_err(db)? > 0,
        },
    }))
}

async fn article_of(cx: &Ctx, req: &Request) -> std::result::Result<i64, Error> {
    article_id(cx, req.param("slug").unwrap_or_default()).await
}

#[get("/articles/:slug/comments")]
async fn list(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let article = article_of(&cx, req).await?;
    let rows = sqlx::query(&format!(
        "{COMMENT_SELECT} WHERE c.article_id = $2 ORDER BY c.id DESC"
    ))
    .bind(viewer(req).unwrap_or(0))
    .bind(article)
    .fetch_all(&cx.db)
    .await
    .map_err(db)?;
    let comments = rows
        .iter()
        .map(comment_json)
        .collect::<std::result::Result<Vec<_>, _>>()?;
    res.json(&json!({ "comments": comments }))
}

#[post("/articles/:slug/comments")]
async fn create(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let me = require_viewer(req)?;
    let Wrapper { comment } = req.body_as::<Wrapper>()?;
    let body = required("body", comment.body)?;
    let article = article_of(&cx, req).await?;
    let now = iso_now();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO comments (body, article_id, author_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $4) RETURNING id",
    )
    .bind(body)
    .bind(article)
    .bind(me)
    .bind(now)
    .fetch_one(&cx.db)
    .await
    .map_err(db)?;
    let row = sqlx::query(&format!("{COMMENT_SELECT} WHERE c.id = $2"))
        .bind(me)
        .bind(id)
        .fetch_one(&cx.db)
        .await
        .map_err(db)?;
    res.status(201)
        .json(&json!({ "comment": comment_json(&row)? }))
}

#[delete("/articles/:slug/comments/:id")]
async fn remove(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let me = require_viewer(req)?;
    let article = article_of(&cx, req).await?;
    let id: i64 = req
        .param("id")
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| not_found("comment"))?;
    let author: i64 =
        sqlx::query_scalar("SELECT author_id FROM comments WHERE id = $1 AND article_id = $2")
            .bind(id)
            .bind(article)
            .fetch_optional(&cx.db)
            .await
            .map_err(db)?
            .ok_or_else(|| not_found("comment"))?;
    if author != me {
        return Err(forbidden("comment"));
    }
    sqlx::query("DELETE FROM comments WHERE id = $1")
        .bind(id)
        .execute(&cx.db)
        .await
        .map_err(db)?;
    res.send_status(204)
}

/// The routes of this file.
pub fn routes() -> webfw::Routes {
    routes![list, create, remove]
}
