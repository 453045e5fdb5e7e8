//! The threads that serve beside the calling one ([`ListenOptions::workers`]).
//!
//! Each is a tokio `current_thread` runtime of its own running the same
//! accept loop on a duplicate of the one listening socket: the kernel hands
//! each new connection to whichever thread accepts first, and the
//! connection stays there. This is Node's `cluster` within one process, and
//! actix-web's model; it needs no work-stealing scheduler (with its task
//! code built for every spawned future, and libm for its statistics).

use std::io;
use std::sync::Arc;

use tokio::sync::{oneshot, watch};

use super::accept::accept_loop;
use super::listen::{Bound, ListenOptions};
use super::slots::Slots;
use super::task;
use crate::app::ServedApp;

/// What a worker serves with.
#[derive(Clone)]
pub(super) struct Worker {
    pub(super) app: Arc<ServedApp>,
    pub(super) opts: ListenOptions,
    /// The server's connection count (`max_connections` is the server's).
    pub(super) slots: Slots,
    pub(super) shutdown: watch::Receiver<bool>,
}

impl Worker {
    /// Runs the accept loop on `listener` until the shutdown has finished.
    pub(super) async fn serve(self, listener: Bound) {
        accept_loop(listener, self.app, self.opts, self.slots, self.shutdown).await;
    }
}

/// Starts the workers `first`'s options ask for besides the calling
/// thread's, each on a duplicate of `listener`. Returns the calling
/// thread's own duplicate (`listener` itself when it serves alone) and, for
/// each other worker, a receiver that completes once it has stopped: its
/// connections done, its runtime and the tasks left on it dropped.
pub(super) fn start_others(
    listener: Bound,
    first: &mut Worker,
) -> io::Result<(Bound, Vec<oneshot::Receiver<()>>)> {
    let extra = first.opts.extra_workers();
    if extra == 0 {
        return Ok((listener, Vec::new()));
    }
    first.opts.given = Some(listener.into_given()?);
    let mut others = Vec::with_capacity(extra);
    for n in 1..=extra {
        others.push(start(n, first.clone())?);
    }
    Ok((first.opts.open()?, others))
}

/// Starts worker `n` on a thread of its own. Its runtime and its socket are
/// made here, so an error fails the bind.
fn start(n: usize, worker: Worker) -> io::Result<oneshot::Receiver<()>> {
    let rt = worker.opts.runtime()?;
    let listener = {
        let _in = rt.enter();
        worker.opts.open()?
    };
    let (stopped, done) = oneshot::channel();
    std::thread::Builder::new()
        .name(format!("webfw-worker-{n}"))
        .spawn(move || {
            rt.block_on(task::occasional(worker.serve(listener)));
            drop(rt);
            let _ = stopped.send(());
        })?;
    Ok(done)
}
