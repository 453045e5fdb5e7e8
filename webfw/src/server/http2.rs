//! HTTP/2's settings (feature `http2`), for connections that open with its
//! preface (prior knowledge) or chose `h2` through ALPN.

use std::time::Duration;

use hyper::server::conn::http2;
use hyper_util::rt::{TokioExecutor, TokioTimer};

use super::ListenOptions;

/// hyper's HTTP/2 settings of a listener, and the unsent bodies each of its
/// connections may hold.
pub(super) struct Builder {
    pub(super) hyper: http2::Builder<TokioExecutor>,
    /// [`ListenOptions::http2_max_session_memory`]: an HTTP/2 connection
    /// holding this much of unsent bodies gets 503 for new streams.
    pub(super) session_memory: u64,
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
            session_memory: opts.http2_max_session_memory as u64,
        }
    }
}
