//! The connections counted against `max_connections`.
//!
//! A connection holds its [`Slot`] in its stream ([`super::http1::io::Stream`]), so
//! the slot goes with the stream when a handler takes the connection over
//! (`res.upgrade`): an upgraded connection counts until it closes, as Node
//! counts a socket handed to `'upgrade'` in `maxConnections`. Only a server
//! with a maximum keeps the count.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The count of one server's open connections, shared by its workers.
#[derive(Clone, Default)]
pub(super) struct Slots(Arc<AtomicUsize>);

impl Slots {
    /// How many connections are open, upgraded ones included.
    pub(super) fn held(&self) -> usize {
        self.0.load(Ordering::Acquire)
    }

    /// Counts a new connection until the returned slot is dropped.
    pub(super) fn take(&self) -> Slot {
        self.0.fetch_add(1, Ordering::AcqRel);
        Slot(self.0.clone())
    }
}

/// One open connection's place in its listener's [`Slots`].
pub(crate) struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_counts_until_dropped() {
        let slots = Slots::default();
        let a = slots.take();
        let b = slots.take();
        assert_eq!(slots.held(), 2);
        drop(a);
        assert_eq!(slots.held(), 1);
        drop(b);
        assert_eq!(slots.held(), 0);
    }
}
