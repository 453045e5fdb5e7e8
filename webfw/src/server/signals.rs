//! `listen`'s graceful shutdown on Ctrl-C (SIGINT) and SIGTERM.
//!
//! On Unix the signal handler writes to one end of a socket pair, and a
//! task waits for the other end to become readable: the runtime's I/O
//! driver watches it with the connections, at no cost until a signal comes.
//! Not tokio's signal driver, which looks for delivered signals each time
//! the runtime parks (on a busy single-threaded server, once per request).
//! Not a thread blocked on the signals either: the first extra thread turns
//! on glibc malloc's locking for the whole process (docs/PERFORMANCE.md).

use super::ShutdownHandle;

/// Stops waiting for the signals when dropped (the server is done).
pub(super) struct SignalWatch {
    #[cfg(unix)]
    ids: [signal_hook::SigId; 2],
    task: tokio::task::JoinHandle<()>,
}

/// Triggers `handle`'s graceful shutdown on the first SIGINT or SIGTERM.
/// Must be called inside the tokio runtime that serves.
#[cfg(unix)]
pub(super) fn shutdown_on_signal(handle: ShutdownHandle) -> std::io::Result<SignalWatch> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::low_level::pipe;
    let (read, write) = std::os::unix::net::UnixStream::pair()?;
    read.set_nonblocking(true)?;
    let read = tokio::net::UnixStream::from_std(read)?;
    let int = pipe::register(SIGINT, write.try_clone()?)?;
    let term = match pipe::register(SIGTERM, write) {
        Ok(id) => id,
        Err(e) => {
            signal_hook::low_level::unregister(int);
            return Err(e);
        }
    };
    let task = tokio::spawn(async move {
        if read.readable().await.is_ok() {
            handle.shutdown();
        }
    });
    Ok(SignalWatch {
        ids: [int, term],
        task,
    })
}

/// Triggers `handle`'s graceful shutdown on the first Ctrl-C.
#[cfg(not(unix))]
pub(super) fn shutdown_on_signal(handle: ShutdownHandle) -> std::io::Result<SignalWatch> {
    let task = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            handle.shutdown();
        }
    });
    Ok(SignalWatch { task })
}

impl Drop for SignalWatch {
    fn drop(&mut self) {
        #[cfg(unix)]
        for id in self.ids {
            signal_hook::low_level::unregister(id);
        }
        self.task.abort();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use signal_hook::consts::{SIGINT, SIGTERM};
    use std::time::Duration;

    /// Waits for the shutdown `rx` watches (a generous bound: no test may hang).
    async fn shut_down(rx: &mut tokio::sync::watch::Receiver<bool>) {
        tokio::time::timeout(Duration::from_secs(30), rx.wait_for(|&s| s))
            .await
            .expect("the signal reached the shutdown")
            .expect("the sender is alive");
    }

    #[test]
    fn sigint_and_sigterm_start_the_shutdown_until_the_watch_is_dropped() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            for sig in [SIGTERM, SIGINT] {
                let (tx, mut rx) = tokio::sync::watch::channel(false);
                let watch = shutdown_on_signal(ShutdownHandle(tx)).unwrap();
                signal_hook::low_level::raise(sig).unwrap();
                shut_down(&mut rx).await;
                drop(watch);
            }
            // Dropped: its task ends (dropping the sender) and the handler
            // no longer writes to its socket.
            let (tx, mut rx) = tokio::sync::watch::channel(false);
            drop(shutdown_on_signal(ShutdownHandle(tx)).unwrap());
            tokio::time::timeout(Duration::from_secs(30), rx.changed())
                .await
                .expect("the task ended")
                .expect_err("no shutdown was sent");
        });
    }
}
