//! A request body on its way from the socket to the app: decoded from the
//! read buffer by its framing and pushed into the request's bounded
//! [`BodyChannel`], or thrown away once the app dropped its end.

use std::sync::Arc;
use std::task::Context;

use webfw_http::h1::{ChunkedDecoder, RequestHead};

use super::io::ReadBuffer;
use crate::request::channel::{BodyChannel, Broken, Want};

enum Framing {
    Length {
        left: u64,
    },
    Chunked {
        decoder: ChunkedDecoder,
        /// The trailer section's bytes as they come (the decoder holds them
        /// to Node's 16 KiB count).
        trailers: Vec<u8>,
    },
}

/// What [`Incoming::feed`] left the body at.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Fed {
    /// Its last byte has been decoded.
    Done,
    /// It needs more bytes from the socket.
    More,
    /// The app has a window of it waiting: the connection reads no more
    /// until the app takes some (the task is woken then).
    Full,
    /// Its framing is malformed: Node answers this status.
    Malformed(u16),
}

/// The body of the request in flight.
pub(crate) struct Incoming {
    channel: Arc<BodyChannel>,
    framing: Framing,
}

impl Incoming {
    /// A body of `len` bytes.
    pub(crate) fn length(channel: Arc<BodyChannel>, len: u64) -> Incoming {
        Incoming {
            channel,
            framing: Framing::Length { left: len },
        }
    }

    /// The chunked body of `head`.
    pub(crate) fn chunked(channel: Arc<BodyChannel>, head: &RequestHead) -> Incoming {
        Incoming {
            channel,
            framing: Framing::Chunked {
                decoder: ChunkedDecoder::for_head(head),
                trailers: Vec::new(),
            },
        }
    }

    /// Moves what `buf` holds of the body into the channel.
    pub(crate) fn feed(&mut self, buf: &mut ReadBuffer, cx: &Context<'_>) -> Fed {
        loop {
            let keep = match self.channel.want(cx) {
                Want::Full => return Fed::Full,
                Want::Data => true,
                Want::Gone => false,
            };
            match &mut self.framing {
                Framing::Length { left } => {
                    let n = (buf.filled().len() as u64).min(*left) as usize;
                    *left -= n as u64;
                    if n > 0 && keep {
                        self.channel.push(buf.take(n));
                    } else {
                        buf.skip(n);
                    }
                    if *left == 0 {
                        self.channel.finish();
                        return Fed::Done;
                    }
                    return Fed::More;
                }
                Framing::Chunked { decoder, trailers } => {
                    let in_trailers = decoder.in_trailers();
                    let decoded = match decoder.decode(buf.filled()) {
                        Ok(decoded) => decoded,
                        Err(refused) => {
                            self.channel.break_off(Broken::Invalid);
                            return Fed::Malformed(refused.status);
                        }
                    };
                    if in_trailers && keep {
                        trailers.extend_from_slice(&buf.filled()[..decoded.consumed]);
                    }
                    if decoded.data.is_empty() || !keep {
                        buf.skip(decoded.consumed);
                    } else {
                        let bytes = buf.take(decoded.consumed);
                        self.channel.push(bytes.slice(decoded.data));
                    }
                    if decoded.done {
                        self.channel.trailers(header_lines(trailers));
                        self.channel.finish();
                        return Fed::Done;
                    }
                    if buf.filled().is_empty() || decoded.consumed == 0 {
                        return Fed::More;
                    }
                }
            }
        }
    }

    /// The client stopped before the body's end.
    pub(crate) fn aborted(&self) {
        self.channel.break_off(Broken::Aborted);
    }
}

/// The header map of a trailer section the decoder accepted (its lines,
/// then the empty line); empty when there were none.
fn header_lines(section: &[u8]) -> http::HeaderMap {
    let mut map = http::HeaderMap::new();
    for line in section.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let (name, value) = (&line[..colon], line[colon + 1..].trim_ascii());
        if let (Ok(name), Ok(value)) = (
            http::HeaderName::from_bytes(name),
            http::HeaderValue::from_bytes(value),
        ) {
            map.append(name, value);
        }
    }
    map
}
