//! The errors body-parser 1.20 makes, with its statuses, names (those
//! http-errors gives each status), `type` tags and messages (http-errors
//! sets `expose` for every 4xx).

use crate::error::Error;

/// 413 `request entity too large` (`entity.too.large`).
pub(crate) fn too_large() -> Error {
    Error::status_message(413, "request entity too large").with_type("entity.too.large")
}

/// 400 `request aborted` (`request.aborted`): the client went away mid-body.
pub(crate) fn aborted() -> Error {
    Error::status_message(400, "request aborted").with_type("request.aborted")
}

/// 400 `request size did not match content length` (`request.size.invalid`).
pub(crate) fn size_invalid() -> Error {
    Error::status_message(400, "request size did not match content length")
        .with_type("request.size.invalid")
}

/// 415 `unsupported charset "X"` (`charset.unsupported`).
pub(crate) fn charset_unsupported(charset: &str) -> Error {
    Error::status_message(
        415,
        format!("unsupported charset \"{}\"", charset.to_uppercase()),
    )
    .with_type("charset.unsupported")
}

/// 415 for a `Content-Encoding` that cannot be read: unknown ones
/// (`unsupported content encoding "br"`), or any but identity when the
/// parser's `inflate` is off (`content encoding unsupported`).
pub(crate) fn encoding_unsupported(message: String) -> Error {
    Error::status_message(415, message).with_type("encoding.unsupported")
}

/// 413 `too many parameters` (`parameters.too.many`).
pub(crate) fn too_many_parameters() -> Error {
    Error::status_message(413, "too many parameters").with_type("parameters.too.many")
}

/// 400 from a parser: `entity.parse.failed` unless the error names its own
/// type; a status the error already carries wins (http-errors'
/// `createError(400, err)`).
pub(crate) fn parse_failed(err: Error) -> Error {
    wrap(err, 400, "entity.parse.failed")
}

/// 403 from `verify`: `entity.verify.failed` unless the error names its own
/// type or status.
pub(crate) fn verify_failed(err: Error) -> Error {
    wrap(err, 403, "entity.verify.failed")
}

fn wrap(err: Error, status: u16, kind: &'static str) -> Error {
    let err = if err.raw_status().is_some_and(|s| (400..=599).contains(&s)) {
        err
    } else {
        err.with_status(status)
    };
    if err.kind().is_some() {
        err
    } else {
        err.with_type(kind)
    }
}

/// A gzip or deflate body zlib could not inflate: 400 with zlib's message,
/// no `type` (Node's zlib error passed through `createError(400, err)`).
pub(crate) fn inflate_failed(message: &str) -> Error {
    Error::status_message(400, message.to_owned()).with_name("Error")
}
