//! A request body on its way from the socket to the app: decoded from the
//! read buffer by its framing and pushed into the request's bounded
//! [`BodyChannel`], or thrown away once the app dropped its end.

use std::sync::Arc;
use std::task::Context;

use super::chunked::Decoder;
use super::io::ReadBuffer;
use crate::request::channel::{BodyChannel, Broken, Want};

enum Framing {
    Length { left: u64 },
    Chunked(Decoder),
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
    /// Its framing is malformed.
    Malformed,
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

    /// A chunked body.
    pub(crate) fn chunked(channel: Arc<BodyChannel>) -> Incoming {
        Incoming {
            channel,
            framing: Framing::Chunked(Decoder::new()),
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
                Framing::Chunked(decoder) => {
                    let Ok(decoded) = decoder.decode(buf.filled()) else {
                        self.channel.break_off(Broken::Invalid);
                        return Fed::Malformed;
                    };
                    if decoded.data.is_empty() || !keep {
                        buf.skip(decoded.consumed);
                    } else {
                        let bytes = buf.take(decoded.consumed);
                        self.channel.push(bytes.slice(decoded.data));
                    }
                    if decoded.done {
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
