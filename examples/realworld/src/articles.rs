//! Articles: list, feed, create, read, update, delete, favorite.

use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;
use sqlx::any::AnyRow;
use webfw::prelude::*;

use crate::auth::{require_viewer, viewer};
use crate::errors::{db, forbidden, invalid, not_found, taken};
use crate::slug::slugify;
use crate::state::{Ctx, ctx};
use crate::time::iso_now;
use crate::validate::{required, required_short};

/// The most articles one page may ask for.
const MAX_LIMIT: i64 = 100;
/// The most tags one article may carry, and the longest tag.
const MAX_TAGS: usize = 32;
const MAX_TAG_LEN: usize = 64;

#[derive(Deserialize)]
struct Wrapper<T> {
    article: T,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NewArticle {
    title: Option<String>,
    description: Option<String>,
    body: Option<String>,
    #[serde(default)]
    tag_list: Vec<String>,
}

#[derive(Deserialize)]
struct ArticleUpdate {
    title: Option<String>,
    description: Option<String>,
    body: Option<String>,
}

/// `?tag=&author=&favorited=&limit=&offset=`.
#[derive(Deserialize)]
struct ListQuery {
    tag: Option<String>,
    author: Option<String>,
    favorited: Option<String>,
    limit: Option<i64>,
    offset: Option<i64>,
}

/// An argument of a dynamically built query.
enum Arg {
    Text(String),
    Int(i64),
}

/// `SELECT` of an article with its author, counts and the viewer's flags;
/// `$1` is the viewer's id (0 for nobody).
const ARTICLE_SELECT: &str = "SELECT a.id, a.slug, a.title, a.description, a.body, a.tag_list, \
     a.created_at, a.updated_at, a.author_id, u.username, u.bio, u.image, \
     (SELECT COUNT(*) FROM favorites f WHERE f.article_id = a.id) AS favorites_count, \
     (SELECT COUNT(*) FROM favorites f WHERE f.article_id = a.id AND f.user_id = $1) AS favorited, \
     (SELECT COUNT(*) FROM follows w WHERE w.followee_id = a.author_id AND w.follower_id = $1) \
     AS following \
     FROM articles a JOIN users u ON u.id = a.author_id";

/// An article row as the spec's JSON; lists leave `body` out.
fn article_json(row: &AnyRow, with_body: bool) -> std::result::Result<Value, Error> {
    let tags: String = row.try_get("tag_list").map_err(db)?;
    let tags: Value = serde_json::from_str(&tags).unwrap_or_else(|_| json!([]));
    let mut article = json!({
        "slug": row.try_get::<String, _>("slug").map_err(db)?,
        "title": row.try_get::<String, _>("title").map_err(db)?,
        "description": row.try_get::<String, _>("description").map_err(db)?,
        "tagList": tags,
        "createdAt": row.try_get::<String, _>("created_at").map_err(db)?,
        "updatedAt": row.try_get::<String, _>("updated_at").map_err(db)?,
        "favorited": row.try_get::<i64, _>("favorited").map_err(db)? > 0,
        "favoritesCount": row.try_get::<i64, _>("favorites_count").map_err(db)?,
        "author": {
            "username": row.try_get::<String, _>("username").map_err(db)?,
            "bio": row.try_get::<Option<String>, _>("bio").map_err(db)?,
            "image": row.try_get::<Option<String>, _>("image").map_err(db)?,
            "following": row.try_get::<i64, _>("following").map_err(db)? > 0,
        },
    });
    if with_body {
        article["body"] = json!(row.try_get::<String, _>("body").map_err(db)?);
    }
    Ok(article)
}

/// The article `slug` seen by `viewer`, or 404.
async fn load(cx: &Ctx, slug: &str, viewer: i64) -> std::result::Result<AnyRow, Error> {
    sqlx::query(&format!("{ARTICLE_SELECT} WHERE a.slug = $2"))
        .bind(viewer)
        .bind(slug)
        .fetch_optional(&cx.db)
        .await
        .map_err(db)?
        .ok_or_else(|| not_found("article"))
}

/// The article `slug` for a change by `viewer`: 404 if missing, 403 if not theirs.
async fn load_own(cx: &Ctx, slug: &str, viewer: i64) -> std::result::Result<AnyRow, Error> {
    let row = load(cx, slug, viewer).await?;
    if row.try_get::<i64, _>("author_id").map_err(db)? != viewer {
        return Err(forbidden("article"));
    }
    Ok(row)
}

fn slug_param(req: &Request) -> String {
    req.param("slug").unwrap_or_default().to_owned()
}

/// One page of articles matching `conds` (SQL with `$n` for `args`,
/// numbered from 2), newest first, with the total count.
async fn page(
    cx: &Ctx,
    viewer: i64,
    conds: &[String],
    args: Vec<Arg>,
    limit: Option<i64>,
    offset: Option<i64>,
) -> std::result::Result<Value, Error> {
    let limit = limit.unwrap_or(20);
    let offset = offset.unwrap_or(0);
    if !(0..=MAX_LIMIT).contains(&limit) {
        return Err(invalid("limit", "must be between 0 and 100"));
    }
    if offset < 0 {
        return Err(invalid("offset", "must not be negative"));
    }
    let filter = if conds.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", conds.join(" AND "))
    };
    let n = args.len();
    let list_sql = format!(
        "{ARTICLE_SELECT}{filter} ORDER BY a.id DESC LIMIT ${} OFFSET ${}",
        n + 2,
        n + 3
    );
    let mut list = sqlx::query(&list_sql).bind(viewer);
    for arg in &args {
        list = match arg {
            Arg::Text(s) => list.bind(s.clone()),
            Arg::Int(i) => list.bind(*i),
        };
    }
    let rows = list
        .bind(limit)
        .bind(offset)
        .fetch_all(&cx.db)
        .await
        .map_err(db)?;
    // The count numbers its arguments from 1: shift every `$n` down by one.
    let count_filter = (2..n + 2).fold(filter, |f, i| {
        f.replace(&format!("${i}"), &format!("${}", i - 1))
    });
    let count_sql =
        format!("SELECT COUNT(*) FROM articles a JOIN users u ON u.id = a.author_id{count_filter}");
    let mut count = sqlx::query_scalar::<_, i64>(&count_sql);
    for arg in args {
        count = match arg {
            Arg::Text(s) => count.bind(s),
            Arg::Int(i) => count.bind(i),
        };
    }
    let total = count.fetch_one(&cx.db).await.map_err(db)?;
    let articles = rows
        .iter()
        .map(|r| article_json(r, false))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(json!({ "articles": articles, "articlesCount": total }))
}

#[get("/articles")]
async fn list(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let q: ListQuery = req.query_as()?;
    let mut conds = Vec::new();
    let mut args = Vec::new();
    let mut add = |sql: &str, value: String| {
        conds.push(sql.replace("$n", &format!("${}", args.len() + 2)));
        args.push(Arg::Text(value));
    };
    if let Some(tag) = q.tag {
        add(
            "a.id IN (SELECT article_id FROM article_tags WHERE tag = $n)",
            tag,
        );
    }
    if let Some(author) = q.author {
        add("u.username = $n", author);
    }
    if let Some(fan) = q.favorited {
        add(
            "a.id IN (SELECT f.article_id FROM favorites f JOIN users fu ON fu.id = f.user_id \
             WHERE fu.username = $n)",
            fan,
        );
    }
    let body = page(
        &cx,
        viewer(req).unwrap_or(0),
        &conds,
        args,
        q.limit,
        q.offset,
    )
    .await?;
    res.json(&body)
}

#[get("/articles/feed")]
async fn feed(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let me = require_viewer(req)?;
    let q: ListQuery = req.query_as()?;
    let conds =
        ["a.author_id IN (SELECT followee_id FROM follows WHERE follower_id = $2)".to_owned()];
    let body = page(&cx, me, &conds, vec![Arg::Int(me)], q.limit, q.offset).await?;
    res.json(&body)
}

/// Tags trimmed, without blanks or repeats, sorted.
fn clean_tags(tags: Vec<String>) -> std::result::Result<Vec<String>, Error> {
    let mut tags: Vec<String> = tags
        .into_iter()
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty())
        .collect();
    tags.sort();
    tags.dedup();
    if tags.len() > MAX_TAGS {
        return Err(invalid("tagList", "has more than 32 tags"));
    }
    if tags.iter().any(|t| t.len() > MAX_TAG_LEN) {
        return Err(invalid("tagList", "has a tag longer than 64 bytes"));
    }
    Ok(tags)
}

/// The slug of `title`, 422 if it has no letter or digit or is taken by
/// another article than `except`.
async fn free_slug(cx: &Ctx, title: &str, except: i64) -> std::result::Result<String, Error> {
    let slug = slugify(title);
    if slug.is_empty() {
        return Err(invalid("title", "must contain a letter or a digit"));
    }
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM articles WHERE slug = $1 AND id <> $2")
        .bind(&slug)
        .bind(except)
        .fetch_one(&cx.db)
        .await
        .map_err(db)?;
    if n > 0 { Err(taken("slug")) } else { Ok(slug) }
}

#[post("/articles")]
async fn create(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let me = require_viewer(req)?;
    let Wrapper { article } = req.body_as::<Wrapper<NewArticle>>()?;
    let title = required_short("title", article.title)?;
    let description = required("description", article.description)?;
    let body = required("body", article.body)?;
    let tags = clean_tags(article.tag_list)?;
    let slug = free_slug(&cx, &title, 0).await?;
    let now = iso_now();
    let mut tx = cx.db.begin().await.map_err(db)?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO articles (slug, title, description, body, tag_list, author_id, created_at, \
         updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id",
    )
    .bind(&slug)
    .bind(title)
    .bind(description)
    .bind(body)
    .bind(serde_json::to_string(&tags).unwrap_or_else(|_| "[]".into()))
    .bind(me)
    .bind(now)
    .fetch_one(&mut *tx)
    .await
    .map_err(db)?;
    for tag in tags {
        sqlx::query("INSERT INTO article_tags (article_id, tag) VALUES ($1, $2)")
            .bind(id)
            .bind(tag)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
    }
    tx.commit().await.map_err(db)?;
    let row = load(&cx, &slug, me).await?;
    res.status(201)
        .json(&json!({ "article": article_json(&row, true)? }))
}

#[get("/articles/:slug")]
async fn show(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let row = load(&cx, &slug_param(req), viewer(req).unwrap_or(0)).await?;
    res.json(&json!({ "article": article_json(&row, true)? }))
}

#[put("/articles/:slug")]
async fn update(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let me = require_viewer(req)?;
    let Wrapper { article } = req.body_as::<Wrapper<ArticleUpdate>>()?;
    let row = load_own(&cx, &slug_param(req), me).await?;
    let id: i64 = row.try_get("id").map_err(db)?;
    let (title, slug) = match article.title {
        Some(t) => {
            let t = required_short("title", Some(t))?;
            let s = free_slug(&cx, &t, id).await?;
            (t, s)
        }
        None => (
            row.try_get("title").map_err(db)?,
            row.try_get("slug").map_err(db)?,
        ),
    };
    let description = match article.description {
        Some(d) => required("description", Some(d))?,
        None => row.try_get("description").map_err(db)?,
    };
    let body = match article.body {
        Some(b) => required("body", Some(b))?,
        None => row.try_get("body").map_err(db)?,
    };
    sqlx::query(
        "UPDATE articles SET slug = $1, title = $2, description = $3, body = $4, updated_at = $5 \
         WHERE id = $6",
    )
    .bind(&slug)
    .bind(title)
    .bind(description)
    .bind(body)
    .bind(iso_now())
    .bind(id)
    .execute(&cx.db)
    .await
    .map_err(db)?;
    let row = load(&cx, &slug, me).await?;
    res.json(&json!({ "article": article_json(&row, true)? }))
}

#[delete("/articles/:slug")]
async fn remove(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let me = require_viewer(req)?;
    let row = load_own(&cx, &slug_param(req), me).await?;
    let id: i64 = row.try_get("id").map_err(db)?;
    sqlx::query("DELETE FROM articles WHERE id = $1")
        .bind(id)
        .execute(&cx.db)
        .await
        .map_err(db)?;
    res.send_status(204)
}

#[post("/articles/:slug/favorite")]
async fn favorite(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let me = require_viewer(req)?;
    let slug = slug_param(req);
    let id: i64 = load(&cx, &slug, me).await?.try_get("id").map_err(db)?;
    sqlx::query(
        "INSERT INTO favorites (user_id, article_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
    )
    .bind(me)
    .bind(id)
    .execute(&cx.db)
    .await
    .map_err(db)?;
    let row = load(&cx, &slug, me).await?;
    res.json(&json!({ "article": article_json(&row, true)? }))
}

#[delete("/articles/:slug/favorite")]
async fn unfavorite(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let me = require_viewer(req)?;
    let slug = slug_param(req);
    let id: i64 = load(&cx, &slug, me).await?.try_get("id").map_err(db)?;
    sqlx::query("DELETE FROM favorites WHERE user_id = $1 AND article_id = $2")
        .bind(me)
        .bind(id)
        .execute(&cx.db)
        .await
        .map_err(db)?;
    let row = load(&cx, &slug, me).await?;
    res.json(&json!({ "article": article_json(&row, true)? }))
}

/// The id of article `slug`, or 404 (for the comment routes).
pub async fn article_id(cx: &Ctx, slug: &str) -> std::result::Result<i64, Error> {
    sqlx::query_scalar("SELECT id FROM articles WHERE slug = $1")
        .bind(slug)
        .fetch_optional(&cx.db)
        .await
        .map_err(db)?
        .ok_or_else(|| not_found("article"))
}

/// The routes of this file; the feed comes before `/articles/:slug`.
pub fn routes() -> webfw::Routes {
    routes![
        list, feed, create, show, update, remove, favorite, unfavorite
    ]
}
