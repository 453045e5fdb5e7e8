//! Idle zlib states kept per thread for the next response: a fresh one
//! costs an allocation of ~300 KiB and clearing all of it, where a reset
//! clears only the hash table (zlib's `deflateReset`), and the output is
//! the same byte for byte.

use std::cell::RefCell;

use zlib_rs::{Deflate, DeflateConfig};

/// States kept per thread: one per response compressed at the same time
/// on it is the most that is reused, and each holds ~300 KiB.
const KEPT: usize = 2;

thread_local! {
    static IDLE: RefCell<Vec<(DeflateConfig, Zstream)>> = const { RefCell::new(Vec::new()) };
}

/// A zlib stream and the buffer its output is made in (Node's
/// `chunkSize`), zeroed once: zlib-rs writes into initialised memory.
pub(super) struct Zstream {
    pub(super) deflate: Deflate,
    pub(super) buffer: Vec<u8>,
}

/// A stream for `config` with a `chunk`-byte buffer: an idle one reset,
/// else a new one.
pub(super) fn take(config: DeflateConfig, chunk: usize) -> Zstream {
    let idle = IDLE.with_borrow_mut(|idle| {
        let at = idle.iter().position(|(c, _)| *c == config)?;
        Some(idle.swap_remove(at).1)
    });
    match idle {
        Some(mut z) => {
            z.deflate.reset();
            z.buffer.resize(chunk, 0);
            z
        }
        None => Zstream {
            deflate: Deflate::new_with_config(config),
            buffer: vec![0; chunk],
        },
    }
}

/// Keeps a stream no zlib error stopped, for [`take`]; a reset makes it as
/// new, wherever it was.
pub(super) fn give(config: DeflateConfig, z: Zstream) {
    // During thread teardown the pool may be gone: the stream is dropped.
    let _ = IDLE.try_with(|idle| {
        if let Ok(mut idle) = idle.try_borrow_mut()
            && idle.len() < KEPT
        {
            idle.push((config, z));
        }
    });
}
