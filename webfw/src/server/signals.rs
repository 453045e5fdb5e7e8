//! `listen`'s graceful shutdown on Ctrl-C (SIGINT) and SIGTERM.
//!
//! On Unix the signal handler writes to one end of a socket pair, and a
//! task waits for the other end to become readable: the runtime's I/O
//! driver watches it with the connections, at no cost until a signal comes.
//! Not tokio's signal driver, which looks for delivered signals each time
//! the runtime parks (on a busy single-threaded server, once per request).
//! Not a thread blocked on the signals either: the first extra thread turns
//! on glibc malloc's locking for the whole process (docs/PERFORMANCE.md).

use super::shutdown_handle::ShutdownHandle;

/// Stops waiting for the signals when dropped (the server is done).
pub(super) struct SignalWatch {
    #[cfg(unix)]
    ids: [signal_hook::SigId; 2],
    task: tokio::task::JoinHandle<()>,
}

/// Triggers `handle`'s graceful shutdown on the first SIGINT or SIGTERM;
/// a second one exits the process at once (status 130 for SIGINT, 143 for
/// SIGTERM, as a shell reports a process killed by it).
/// Must be called inside the tokio runtime that serves.
#[cfg(unix)]
pub(super) fn shutdown_on_signal(handle: ShutdownHandle) -> std::io::Result<SignalWatch> {
    watch_signals(handle, |code| std::process::exit(code))
}

/// [`shutdown_on_signal`] with what a second signal does given.
#[cfg(unix)]
fn watch_signals(
    handle: ShutdownHandle,
    on_second: impl FnOnce(i32) + Send + 'static,
) -> std::io::Result<SignalWatch> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::low_level::pipe;
    let (int_read, int_write) = std::os::unix::net::UnixStream::pair()?;
    let (term_read, term_write) = std::os::unix::net::UnixStream::pair()?;
    int_read.set_nonblocking(true)?;
    term_read.set_nonblocking(true)?;
    let int_read = tokio::net::UnixStream::from_std(int_read)?;
    let term_read = tokio::net::UnixStream::from_std(term_read)?;
    let int = pipe::register(SIGINT, int_write)?;
    let term = match pipe::register(SIGTERM, term_write) {
        Ok(id) => id,
        Err(e) => {
            signal_hook::low_level::unregister(int);
            return Err(e);
        }
    };
    let task = tokio::spawn(super::task::occasional(async move {
        let mut shut = false;
        loop {
            let ready = tokio::select! {
                r = int_read.readable() => r,
                r = term_read.readable() => r,
            };
            if ready.is_err() {
                return;
            }
            // Each signal writes one byte. None is a spurious wake-up; the
            // end of the stream is the watch being dropped (its writing
            // ends close), never a signal.
            let (Some(ints), Some(terms)) = (take_bytes(&int_read), take_bytes(&term_read)) else {
                return;
            };
            let mut signals = ints + terms;
            if signals == 0 {
                continue;
            }
            if !shut {
                shut = true;
                signals -= 1;
                handle.shutdown();
            }
            if signals > 0 {
                on_second(if ints > 0 {
                    128 + SIGINT
                } else {
                    128 + SIGTERM
                });
                return;
            }
        }
    }));
    Ok(SignalWatch {
        ids: [int, term],
        task,
    })
}

/// Reads what the signal handler wrote to `sock` so far: how many bytes, or
/// `None` once its writing end is closed (or the socket failed).
#[cfg(unix)]
fn take_bytes(sock: &tokio::net::UnixStream) -> Option<usize> {
    let mut buf = [0u8; 64];
    let mut taken = 0;
    loop {
        match sock.try_read(&mut buf) {
            Ok(0) => return None,
            Ok(n) => taken += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Some(taken),
            Err(_) => return None,
        }
    }
}

/// Triggers `handle`'s graceful shutdown on the first Ctrl-C.
#[cfg(not(unix))]
pub(super) fn shutdown_on_signal(handle: ShutdownHandle) -> std::io::Result<SignalWatch> {
    let task = tokio::spawn(super::task::occasional(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            handle.shutdown();
        }
    }));
    Ok(SignalWatch { task })
}

impl Drop for SignalWatch {
    fn drop(&mut self) {
        // The task first: unregistering closes the sockets' writing ends,
        // which the task (reading the end of the stream) must not take for
        // a signal however the two interleave on a multi-threaded runtime.
        self.task.abort();
        #[cfg(unix)]
        for id in self.ids {
            signal_hook::low_level::unregister(id);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use signal_hook::consts::{SIGINT, SIGTERM};
    use std::time::Duration;

    /// Signals are process-wide: one test raises them at a time.
    static SIGNALS: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// Waits for the shutdown `rx` watches (a generous bound: no test may hang).
    async fn shut_down(rx: &mut tokio::sync::watch::Receiver<bool>) {
        tokio::time::timeout(Duration::from_secs(30), rx.wait_for(|&s| s))
            .await
            .expect("the signal reached the shutdown")
            .expect("the sender is alive");
    }

    #[test]
    fn sigint_and_sigterm_start_the_shutdown_until_the_watch_is_dropped() {
        let _one = SIGNALS.lock().unwrap_or_else(|p| p.into_inner());
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

    #[test]
    fn the_watch_closing_its_sockets_is_not_a_second_signal() {
        let _one = SIGNALS.lock().unwrap_or_else(|p| p.into_inner());
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (tx, mut rx) = tokio::sync::watch::channel(false);
            let (exit_tx, exit_rx) = tokio::sync::oneshot::channel();
            let mut watch = watch_signals(ShutdownHandle(tx), move |code| {
                let _ = exit_tx.send(code);
            })
            .unwrap();
            signal_hook::low_level::raise(SIGTERM).unwrap();
            shut_down(&mut rx).await;
            // The writing ends close while the task still runs (as when
            // another worker thread polls it during the drop).
            for id in watch.ids {
                signal_hook::low_level::unregister(id);
            }
            tokio::time::timeout(Duration::from_secs(30), &mut watch.task)
                .await
                .expect("the task ends once its sockets close")
                .unwrap();
            assert_eq!(exit_rx.await.ok(), None, "no exit");
        });
    }

    #[test]
    fn a_second_signal_exits_at_once() {
        let _one = SIGNALS.lock().unwrap_or_else(|p| p.into_inner());
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (tx, mut rx) = tokio::sync::watch::channel(false);
            let (exit_tx, exit_rx) = tokio::sync::oneshot::channel();
            let watch = watch_signals(ShutdownHandle(tx), move |code| {
                let _ = exit_tx.send(code);
            })
            .unwrap();
            signal_hook::low_level::raise(SIGTERM).unwrap();
            shut_down(&mut rx).await;
            signal_hook::low_level::raise(SIGINT).unwrap();
            let code = tokio::time::timeout(Duration::from_secs(30), exit_rx)
                .await
                .expect("the second signal exits")
                .unwrap();
            assert_eq!(code, 130);
            drop(watch);
        });
    }
}
