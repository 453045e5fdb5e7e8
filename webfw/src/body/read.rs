//! The bounded reader shared by the body parsers (raw-body).

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;

use crate::error::Error;
use crate::request::{RawBody, Request};

fn too_large() -> Error {
    Error::status_message(413, "request entity too large")
        .with_name("PayloadTooLargeError")
        .with_type("entity.too.large")
}

/// Reads the whole request body, at most `limit` bytes (raw-body): a
/// `Content-Length` above the limit is refused with 413 before anything is
/// read, and so is a body that grows past it while streaming; nothing beyond
/// the limit is buffered. A body that ends early (client gone) is a 400
/// `request aborted`. Only the `identity` content encoding is read; others
/// are a 415 `unsupported content encoding "…"`.
///
/// ```no_run
/// # async fn demo(req: &mut webfw::Request) -> webfw::Result<()> {
/// let bytes = webfw::body::read_limited(req, 100 * 1024).await?;
/// # Ok(()) }
/// ```
pub async fn read_limited(req: &mut Request, limit: usize) -> Result<Bytes, Error> {
    let encoding = req
        .headers()
        .get(http::header::CONTENT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .map_or_else(|| "identity".to_owned(), str::to_ascii_lowercase);
    if encoding != "identity" {
        return Err(Error::status_message(
            415,
            format!("unsupported content encoding \"{encoding}\""),
        )
        .with_name("UnsupportedMediaTypeError")
        .with_type("encoding.unsupported"));
    }
    let expected = req
        .headers()
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if expected.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let mut body = match req.take_body() {
        RawBody::Incoming(b) => b,
        RawBody::Empty => return Ok(Bytes::new()),
    };
    let mut buf = BytesMut::with_capacity(expected.map_or(0, |n| n as usize));
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            Error::status_message(400, "request aborted")
                .with_name("BadRequestError")
                .with_type("request.aborted")
                .with_source(e)
        })?;
        if let Ok(data) = frame.into_data() {
            if buf.len() + data.len() > limit {
                return Err(too_large());
            }
            buf.extend_from_slice(&data);
        }
    }
    if expected.is_some_and(|n| n != buf.len() as u64) {
        return Err(
            Error::status_message(400, "request size did not match content length")
                .with_name("BadRequestError")
                .with_type("request.size.invalid"),
        );
    }
    Ok(buf.freeze())
}
