//! `GET /profiles/:username`, `POST` and `DELETE /profiles/:username/follow`.

use serde_json::{Value, json};
use sqlx::Row;
use webfw::prelude::*;

use crate::auth::{require_viewer, viewer};
use crate::errors::{db, invalid, not_found};
use crate::state::{Ctx, ctx};

/// A profile as the spec shows it, seen by `viewer` (0: nobody).
async fn profile(
    cx: &Ctx,
    username: &str,
    viewer: i64,
) -> std::result::Result<(i64, Value), Error> {
    let row = sqlx::query(
        "SELECT u.id, u.username, u.bio, u.image, \
         (SELECT COUNT(*) FROM follows w WHERE w.followee_id = u.id AND w.follower_id = $2) \
         AS following FROM users u WHERE u.username = $1",
    )
    .bind(username)
    .bind(viewer)
    .fetch_optional(&cx.db)
    .await
    .map_err(db)?
    .ok_or_else(|| not_found("profile"))?;
    let id: i64 = row.try_get("id").map_err(db)?;
    let body = json!({ "profile": {
        "username": row.try_get::<String, _>("username").map_err(db)?,
        "bio": row.try_get::<Option<String>, _>("bio").map_err(db)?,
        "image": row.try_get::<Option<String>, _>("image").map_err(db)?,
        "following": row.try_get::<i64, _>("following").map_err(db)? > 0,
    }});
    Ok((id, body))
}

fn username(req: &Request) -> String {
    req.param("username").unwrap_or_default().to_owned()
}

#[get("/profiles/:username")]
async fn show(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let (_, body) = profile(&cx, &username(req), viewer(req).unwrap_or(0)).await?;
    res.json(&body)
}

#[post("/profiles/:username/follow")]
async fn follow(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let me = require_viewer(req)?;
    let name = username(req);
    let (id, _) = profile(&cx, &name, me).await?;
    if id == me {
        return Err(invalid("profile", "cannot follow yourself"));
    }
    sqlx::query(
        "INSERT INTO follows (follower_id, followee_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
    )
    .bind(me)
    .bind(id)
    .execute(&cx.db)
    .await
    .map_err(db)?;
    res.json(&profile(&cx, &name, me).await?.1)
}

#[delete("/profiles/:username/follow")]
async fn unfollow(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let me = require_viewer(req)?;
    let name = username(req);
    let (id, _) = profile(&cx, &name, me).await?;
    sqlx::query("DELETE FROM follows WHERE follower_id = $1 AND followee_id = $2")
        .bind(me)
        .bind(id)
        .execute(&cx.db)
        .await
        .map_err(db)?;
    res.json(&profile(&cx, &name, me).await?.1)
}

/// The routes of this file.
pub fn routes() -> webfw::Routes {
    routes![show, follow, unfollow]
}
