//! HTTP/2's settings (feature `http2`), for connections that open with its
//! preface (prior knowledge) or chose `h2` through ALPN.

use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http2;
use hyper_util::rt::{TokioExecutor, TokioTimer};

use super::listen::ListenOptions;
use crate::response::session_memory::{ListenerMemory, SessionMemory};

/// hyper's HTTP/2 settings of a listener, and the memory its connections'
/// responses may hold until written.
pub(super) struct Builder {
    pub(super) hyper: http2::Builder<TokioExecutor>,
    /// [`ListenOptions::http2_max_session_memory`]: an HTTP/2 connection
    /// holding this much gets 503 for new streams.
    session_memory: usize,
    /// What all the listener's HTTP/2 connections hold
    /// ([`ListenOptions::http2_max_total_memory`]).
    listener: Arc<ListenerMemory>,
}

impl Builder {
    pub(super) fn new(opts: &ListenOptions) -> Builder {
        let mut hyper = http2::Builder::new(TokioExecutor::new());
        let streams = opts.http2_max_concurrent_streams;
        let per_stream = opts.http2_max_session_memory / streams as usize;
        hyper
            .timer(TokioTimer::new())
            .max_concurrent_streams(streams)
            .max_send_buf_size(per_stream.max(16 * 1024))
            // A client that stops reading stops answering pings too.
            .keep_alive_interval(Some(Duration::from_secs(10)))
            .keep_alive_timeout(Duration::from_secs(20));
        Builder {
            hyper,
            session_memory: opts.http2_max_session_memory,
            listener: ListenerMemory::new(opts.http2_max_total_memory),
        }
    }

    /// The memory account of a new connection.
    pub(super) fn session_memory(&self) -> Arc<SessionMemory> {
        SessionMemory::new(self.session_memory, self.listener.clone())
    }
}
