//! The responses the connection's own loop writes: the usual shapes, in
//! exactly the bytes hyper writes for them (its status line, the headers in
//! the map's order with their names in lower case, `content-length` where
//! the app set none, then hyper's `date`). Any other answer goes back to
//! the loop, which leaves it to hyper.

use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http::HeaderMap;
use http::header::{CONNECTION, CONTENT_LENGTH, DATE, TRAILER, TRANSFER_ENCODING};
use http_body::Body as _;

use crate::server::dispatch::HyperResponse;

/// A body longer than this is written from its own buffer rather than
/// copied behind the head.
const COPY_LIMIT: usize = 16 * 1024;

/// What [`usual`] did with an answer.
pub(super) enum Written {
    /// In `out`, whole.
    Whole,
    /// The head is in `out`; this body is to be written after it.
    Head(Bytes),
    /// Not one of the usual shapes: the answer is untouched.
    Not,
}

/// Writes `answer` to `out` when it is a response with a whole body (to a
/// request the loop took, never a HEAD): not informational, 204 or 304,
/// without a reason phrase of its own, without `Transfer-Encoding`,
/// `Connection` or `Trailer` headers or several `Content-Length`s.
/// `close`: the server is stopping, and the connection closes after this
/// response, as hyper says with `connection: close`. A body over
/// [`COPY_LIMIT`] stays out of `out`.
/// The emptied header map goes to `spare`, for the next request's headers
/// (as hyper reuses a response's map).
#[inline]
pub(super) fn usual(
    out: &mut Vec<u8>,
    answer: &mut HyperResponse,
    close: bool,
    clock: &mut Clock,
    spare: &mut HeaderMap,
) -> Written {
    let status = answer.status();
    let reason = match status.canonical_reason() {
        Some(reason) if !matches!(status.as_u16(), 100..=199 | 204 | 304) => reason,
        _ => return Written::Not,
    };
    let len = match answer.body().size_hint().exact() {
        Some(len) if !answer.body().is_end_stream() => len,
        _ => return Written::Not,
    };
    let mut lengths = 0;
    let mut dated = false;
    for name in answer.headers().keys() {
        if name == TRANSFER_ENCODING || name == CONNECTION || name == TRAILER {
            return Written::Not;
        }
        dated |= name == DATE;
        if name == CONTENT_LENGTH {
            lengths = answer.headers().get_all(CONTENT_LENGTH).iter().count();
        }
    }
    if lengths > 1 {
        return Written::Not;
    }
    if status == http::StatusCode::OK {
        out.extend_from_slice(b"HTTP/1.1 200 OK\r\n");
    } else {
        out.extend_from_slice(b"HTTP/1.1 ");
        out.extend_from_slice(status.as_str().as_bytes());
        out.push(b' ');
        out.extend_from_slice(reason.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    for (name, value) in answer.headers() {
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if close {
        out.extend_from_slice(b"connection: close\r\n");
    }
    if lengths == 0 {
        out.extend_from_slice(b"content-length: ");
        out.extend_from_slice(itoa::Buffer::new().format(len).as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if dated {
        out.extend_from_slice(b"\r\n");
    } else {
        out.extend_from_slice(b"date: ");
        out.extend_from_slice(clock.date());
        out.extend_from_slice(b"\r\n\r\n");
    }
    let body = answer.body_mut().take_full();
    *spare = std::mem::take(answer.headers_mut());
    spare.clear();
    match body {
        Some(body) if body.len() > COPY_LIMIT => Written::Head(body),
        Some(body) => {
            out.extend_from_slice(&body);
            Written::Whole
        }
        None => Written::Whole,
    }
}

/// The `date` hyper writes: the clock is read once per batch of requests
/// ([`Clock::tick`]) and the value formatted once a second.
pub(super) struct Clock {
    read: bool,
    second: u64,
    value: [u8; 29],
}

impl Clock {
    pub(super) fn new() -> Clock {
        Clock {
            read: false,
            second: u64::MAX,
            value: [0; 29],
        }
    }

    /// Time has passed: read the clock again before the next `date`.
    pub(super) fn tick(&mut self) {
        self.read = false;
    }

    fn date(&mut self) -> &[u8] {
        if !self.read {
            self.read = true;
            let now = SystemTime::now();
            let second = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
            if second != self.second {
                self.second = second;
                self.value
                    .copy_from_slice(httpdate::fmt_http_date(now).as_bytes());
            }
        }
        &self.value
    }
}
