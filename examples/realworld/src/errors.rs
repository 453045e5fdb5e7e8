//! The spec's error bodies: `{"errors": {"field": ["message"]}}`.
//!
//! Handlers fail with a webfw [`Error`] whose `code` names the field
//! ([`invalid`], [`taken`]); [`spec_errors`] turns every error, ours or
//! webfw's (a malformed or oversized body), into the spec's shape.

use serde_json::json;
use webfw::prelude::*;

/// 422 with `{"errors": {field: [message]}}`.
pub fn invalid(field: &'static str, message: &'static str) -> Error {
    Error::status_message(422, message).with_code(field)
}

/// 422: `field` is already used by another row.
pub fn taken(field: &'static str) -> Error {
    invalid(field, "has already been taken")
}

/// 404 for `what` (`"article"`, `"profile"`, `"comment"`).
pub fn not_found(what: &'static str) -> Error {
    Error::status_message(404, "not found").with_code(what)
}

/// 403: the resource belongs to someone else.
pub fn forbidden(what: &'static str) -> Error {
    Error::status_message(403, "is not yours").with_code(what)
}

/// 401 with the reason under `token`.
pub fn unauthorized(message: &'static str) -> Error {
    Error::status_message(401, message).with_code("token")
}

/// A database failure: logged, answered 500 without details; a unique
/// constraint that lost a race becomes the field's 422, a missing user
/// behind a valid token 401.
pub fn db(err: sqlx::Error) -> Error {
    if let sqlx::Error::Database(e) = &err
        && e.is_unique_violation()
    {
        let field = match e.message() {
            m if m.contains("email") => "email",
            m if m.contains("username") => "username",
            _ => "slug",
        };
        return taken(field);
    }
    if let sqlx::Error::Database(e) = &err
        && e.is_foreign_key_violation()
    {
        // The rows a write points at were just read, except the viewer's
        // own: a token for a user the database does not hold (reset).
        return unauthorized("names a user who no longer exists");
    }
    eprintln!("realworld: database error: {err}");
    Error::status_message(500, "database error").with_expose(false)
}

/// Every error as the spec's body. A body webfw could not read (bad JSON,
/// a field of the wrong type) is the spec's 422; an oversized one keeps 413,
/// which says what to change; server errors say nothing of their cause.
#[error_handler]
pub fn spec_errors(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    let status = match err.status() {
        400 => 422,
        s => s,
    };
    let field = err.code().filter(|_| status != 500).unwrap_or("body");
    let message = if status >= 500 {
        "internal error"
    } else {
        err.message()
    };
    res.status(status)
        .json(&json!({ "errors": { field: [message] } }))
}
