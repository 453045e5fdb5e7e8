//! A response head in HTTP/1.1's bytes, and how its body is framed: the
//! headers in the map's order, names as the map holds them (lower case),
//! `content-length` or `transfer-encoding: chunked` where the app set
//! neither, `connection` when the connection closes (or an HTTP/1.0 one
//! stays open), then `date`, as hyper wrote them, under Node's status line
//! (`HTTP/1.1` to every client, `unknown` for a code without a reason).

use std::time::{SystemTime, UNIX_EPOCH};

use http::header::{CONNECTION, CONTENT_LENGTH, DATE, TRAILER, TRANSFER_ENCODING};
use http::{HeaderMap, HeaderName};
use http_body::Body as _;

use crate::server::dispatch::HyperResponse;

/// How the body after a head is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyFraming {
    /// This many bytes.
    Length(u64),
    /// In chunks, then `0\r\n\r\n`.
    Chunked,
    /// As it comes, the connection's close ending it (HTTP/1.0).
    Close,
    /// None at all (HEAD, 1xx, 204, 304): the body is read and dropped.
    Nothing,
}

/// What the request says about its response.
#[derive(Clone, Copy)]
pub(crate) struct Asked {
    pub(crate) head: bool,
    /// HTTP/1.1: chunked bodies can be sent.
    pub(crate) http11: bool,
    /// The request and the server both keep the connection open.
    pub(crate) keep_alive: bool,
}

/// A head written: how its body follows, and whether the connection stays
/// open after it.
pub(crate) struct Written {
    pub(crate) framing: BodyFraming,
    pub(crate) keep_alive: bool,
}

/// Writes the head of `answer` to `out`. The emptied header map goes to
/// `spare`, for the next request's headers.
#[inline]
pub(crate) fn head(
    out: &mut Vec<u8>,
    answer: &mut HyperResponse,
    asked: Asked,
    clock: &mut Clock,
    spare: &mut HeaderMap,
) -> Written {
    let status = answer.status();
    let code = status.as_u16();
    let informational = status.is_informational();
    let no_content = matches!(code, 204 | 304);
    let can_length = !informational && !no_content;
    let can_body = can_length && !asked.head;
    let chunkable = can_body && asked.http11;
    // The body's length as its size hint tells it: none, known, unknown.
    let body = answer.body();
    let known = match body.is_end_stream() {
        true => Some(None),
        false => body.size_hint().exact().map(Some),
    };
    if code == 200 {
        out.extend_from_slice(b"HTTP/1.1 200 OK\r\n");
    } else {
        out.extend_from_slice(b"HTTP/1.1 ");
        out.extend_from_slice(status.as_str().as_bytes());
        out.push(b' ');
        out.extend_from_slice(status.canonical_reason().unwrap_or("unknown").as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    let mut framing = None;
    let mut dated = false;
    let mut closes = false;
    let mut keeps = false;
    let mut lengths = false;
    // The name whose values are being joined on one line (`connection`,
    // `transfer-encoding`, `trailer`, as hyper writes them), and whether
    // the last coding so far is chunked.
    let mut joined: Option<&HeaderName> = None;
    let mut chunked_last = false;
    let headers = answer.headers();
    for (name, value) in headers {
        let joins = *name == CONNECTION || *name == TRANSFER_ENCODING || *name == TRAILER;
        if let Some(open) = joined
            && open != name
        {
            end_joined(out, open, chunked_last, &mut framing);
            joined = None;
        }
        if !joins && *name != CONTENT_LENGTH {
            dated |= *name == DATE;
            line(out, name.as_str().as_bytes(), value.as_bytes());
            continue;
        }
        if *name == CONTENT_LENGTH {
            if std::mem::replace(&mut lengths, true) || framing.is_some() {
                continue;
            }
            let length = match known {
                Some(Some(n)) => Some(n),
                Some(None) if asked.head => Some(0),
                Some(None) => None,
                None => std::str::from_utf8(value.as_bytes())
                    .ok()
                    .and_then(|v| v.parse().ok()),
            };
            if let Some(length) = length {
                framing = Some(BodyFraming::Length(length));
                line(out, b"content-length", value.as_bytes());
            }
            continue;
        }
        if *name != CONNECTION
            && (!chunkable || (*name == TRANSFER_ENCODING && joined.is_none() && framing.is_some()))
        {
            continue;
        }
        if joined.is_some() {
            out.extend_from_slice(b", ");
        } else {
            out.extend_from_slice(name.as_str().as_bytes());
            out.extend_from_slice(b": ");
            joined = Some(name);
        }
        out.extend_from_slice(value.as_bytes());
        let tokens = value
            .as_bytes()
            .split(|&b| b == b',')
            .map(<[u8]>::trim_ascii);
        if *name == CONNECTION {
            for token in tokens {
                closes |= token.eq_ignore_ascii_case(b"close");
                keeps |= token.eq_ignore_ascii_case(b"keep-alive");
            }
        } else if *name == TRANSFER_ENCODING {
            let last = value.as_bytes().rsplit(|&b| b == b',').next();
            chunked_last = last.is_some_and(|t| t.trim_ascii().eq_ignore_ascii_case(b"chunked"));
        }
    }
    if let Some(open) = joined {
        end_joined(out, open, chunked_last, &mut framing);
    }
    let keep_alive = asked.keep_alive && !closes && code != 101;
    if !keep_alive && !closes && code != 101 {
        out.extend_from_slice(b"connection: close\r\n");
    } else if keep_alive && !asked.http11 && !keeps {
        out.extend_from_slice(b"connection: keep-alive\r\n");
    }
    let framing = match framing {
        Some(framing) => framing,
        None => match known {
            None if chunkable => {
                out.extend_from_slice(b"transfer-encoding: chunked\r\n");
                BodyFraming::Chunked
            }
            None if can_body => BodyFraming::Close,
            None => BodyFraming::Nothing,
            Some(None | Some(0)) => {
                if can_body {
                    out.extend_from_slice(b"content-length: 0\r\n");
                }
                BodyFraming::Length(0)
            }
            Some(Some(n)) if can_length => {
                out.extend_from_slice(b"content-length: ");
                out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
                out.extend_from_slice(b"\r\n");
                BodyFraming::Length(n)
            }
            Some(Some(_)) => BodyFraming::Nothing,
        },
    };
    if dated {
        out.extend_from_slice(b"\r\n");
    } else {
        out.extend_from_slice(b"date: ");
        out.extend_from_slice(clock.date());
        out.extend_from_slice(b"\r\n\r\n");
    }
    *spare = std::mem::take(answer.headers_mut());
    spare.clear();
    let framing = match framing {
        _ if !can_body => BodyFraming::Nothing,
        BodyFraming::Length(0) => BodyFraming::Nothing,
        framing => framing,
    };
    Written {
        keep_alive: keep_alive && framing != BodyFraming::Close,
        framing,
    }
}

/// Ends a joined line; `transfer-encoding` gets `chunked` as its last
/// coding, and frames the body.
fn end_joined(
    out: &mut Vec<u8>,
    name: &HeaderName,
    chunked_last: bool,
    framing: &mut Option<BodyFraming>,
) {
    if *name == TRANSFER_ENCODING {
        if !chunked_last {
            out.extend_from_slice(b", chunked");
        }
        *framing = Some(BodyFraming::Chunked);
    }
    out.extend_from_slice(b"\r\n");
}

fn line(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.extend_from_slice(name);
    out.extend_from_slice(b": ");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\r\n");
}

/// Appends one chunk of a chunked body.
pub(crate) fn chunk(out: &mut Vec<u8>, data: &[u8]) {
    if data.is_empty() {
        return;
    }
    let mut size = [0u8; 16];
    let mut at = size.len();
    let mut n = data.len();
    while n > 0 || at == size.len() {
        at -= 1;
        size[at] = b"0123456789ABCDEF"[n % 16];
        n /= 16;
    }
    out.extend_from_slice(&size[at..]);
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(data);
    out.extend_from_slice(b"\r\n");
}

/// The end of a chunked body.
pub(crate) const LAST_CHUNK: &[u8] = b"0\r\n\r\n";

/// The `date` written: the clock is read once per batch of requests
/// ([`Clock::tick`]) and the value formatted once a second.
pub(crate) struct Clock {
    read: bool,
    second: u64,
    value: [u8; 29],
}

impl Clock {
    pub(crate) fn new() -> Clock {
        Clock {
            read: false,
            second: u64::MAX,
            value: [0; 29],
        }
    }

    /// Time has passed: read the clock again before the next `date`.
    pub(crate) fn tick(&mut self) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_sizes_are_upper_case_hex() {
        let mut out = Vec::new();
        chunk(&mut out, &[b'a'; 26]);
        assert_eq!(&out[..4], b"1A\r\n");
        out.clear();
        chunk(&mut out, b"");
        assert!(out.is_empty());
    }
}
