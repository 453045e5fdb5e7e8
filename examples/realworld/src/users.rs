//! `POST /users`, `POST /users/login`, `GET /user`, `PUT /user`.

use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;
use sqlx::any::AnyRow;
use webfw::prelude::*;

use crate::auth::{hash_password, require_viewer, verify_password};
use crate::errors::{db, invalid, taken, unauthorized};
use crate::state::{Ctx, ctx};
use crate::validate::{optional_field, required, required_short};

#[derive(Deserialize)]
struct Wrapper<T> {
    user: T,
}

#[derive(Deserialize)]
struct Registration {
    username: Option<String>,
    email: Option<String>,
    password: Option<String>,
}

#[derive(Deserialize)]
struct Login {
    email: Option<String>,
    password: Option<String>,
}

/// `PUT /user`: every field optional; `bio` and `image` may be `null`.
#[derive(Deserialize)]
struct Update {
    email: Option<String>,
    username: Option<String>,
    password: Option<String>,
    #[serde(default, deserialize_with = "optional_field")]
    bio: Option<Option<String>>,
    #[serde(default, deserialize_with = "optional_field")]
    image: Option<Option<String>>,
}

const USER_COLUMNS: &str = "SELECT id, email, username, bio, image, password_hash FROM users";

fn user_json(cx: &Ctx, row: &AnyRow) -> std::result::Result<Value, Error> {
    let id: i64 = row.try_get("id").map_err(db)?;
    Ok(json!({ "user": {
        "email": row.try_get::<String, _>("email").map_err(db)?,
        "token": cx.keys.token_for(id),
        "username": row.try_get::<String, _>("username").map_err(db)?,
        "bio": row.try_get::<Option<String>, _>("bio").map_err(db)?,
        "image": row.try_get::<Option<String>, _>("image").map_err(db)?,
    }}))
}

async fn user_by_id(cx: &Ctx, id: i64) -> std::result::Result<AnyRow, Error> {
    sqlx::query(&format!("{USER_COLUMNS} WHERE id = $1"))
        .bind(id)
        .fetch_optional(&cx.db)
        .await
        .map_err(db)?
        .ok_or_else(|| unauthorized("names a user who no longer exists"))
}

/// 422 if `column` already holds `value` for a user other than `except`.
async fn check_free(
    cx: &Ctx,
    column: &'static str,
    value: &str,
    except: i64,
) -> std::result::Result<(), Error> {
    let sql = format!("SELECT COUNT(*) FROM users WHERE {column} = $1 AND id <> $2");
    let n: i64 = sqlx::query_scalar(&sql)
        .bind(value)
        .bind(except)
        .fetch_one(&cx.db)
        .await
        .map_err(db)?;
    if n > 0 { Err(taken(column)) } else { Ok(()) }
}

#[post("/users")]
async fn register(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let Wrapper { user } = req.body_as::<Wrapper<Registration>>()?;
    let username = required_short("username", user.username)?;
    let email = required_short("email", user.email)?;
    let password = required("password", user.password)?;
    check_free(&cx, "email", &email, 0).await?;
    check_free(&cx, "username", &username, 0).await?;
    let hash = hash_password(password).await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, username, password_hash) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(&email)
    .bind(&username)
    .bind(hash)
    .fetch_one(&cx.db)
    .await
    .map_err(db)?;
    let row = user_by_id(&cx, id).await?;
    res.status(201).json(&user_json(&cx, &row)?)
}

#[post("/users/login")]
async fn login(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let Wrapper { user } = req.body_as::<Wrapper<Login>>()?;
    let email = required_short("email", user.email)?;
    let password = required("password", user.password)?;
    let row = sqlx::query(&format!("{USER_COLUMNS} WHERE email = $1"))
        .bind(email)
        .fetch_optional(&cx.db)
        .await
        .map_err(db)?;
    let hash = match &row {
        Some(r) => Some(r.try_get::<String, _>("password_hash").map_err(db)?),
        None => None,
    };
    match row {
        Some(row) if verify_password(password, hash).await => res.json(&user_json(&cx, &row)?),
        _ => Err(Error::status_message(401, "is invalid").with_code("email or password")),
    }
}

#[get("/user")]
async fn current(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let id = require_viewer(req)?;
    let row = user_by_id(&cx, id).await?;
    res.json(&user_json(&cx, &row)?)
}

#[put("/user")]
async fn update(req: &mut Request, res: &mut Response) -> Result {
    let cx = ctx(req)?;
    let id = require_viewer(req)?;
    let Wrapper { user } = req.body_as::<Wrapper<Update>>()?;
    let current = user_by_id(&cx, id).await?;
    let email = match user.email {
        Some(e) => {
            let e = required_short("email", Some(e))?;
            check_free(&cx, "email", &e, id).await?;
            e
        }
        None => current.try_get("email").map_err(db)?,
    };
    let username = match user.username {
        Some(u) => {
            let u = required_short("username", Some(u))?;
            check_free(&cx, "username", &u, id).await?;
            u
        }
        None => current.try_get("username").map_err(db)?,
    };
    let hash = match user.password {
        Some(p) => hash_password(required("password", Some(p))?).await?,
        None => current.try_get("password_hash").map_err(db)?,
    };
    let bio = match user.bio {
        Some(b) => b,
        None => current.try_get("bio").map_err(db)?,
    };
    let image = match user.image {
        Some(i) => i,
        None => current.try_get("image").map_err(db)?,
    };
    if image.as_deref().is_some_and(|i| i.len() > 2048) {
        return Err(invalid("image", "is longer than 2048 bytes"));
    }
    sqlx::query(
        "UPDATE users SET email = $1, username = $2, password_hash = $3, bio = $4, image = $5 \
         WHERE id = $6",
    )
    .bind(email)
    .bind(username)
    .bind(hash)
    .bind(bio)
    .bind(image)
    .bind(id)
    .execute(&cx.db)
    .await
    .map_err(db)?;
    let row = user_by_id(&cx, id).await?;
    res.json(&user_json(&cx, &row)?)
}

/// The routes of this file.
pub fn routes() -> webfw::Routes {
    routes![register, login, current, update]
}
