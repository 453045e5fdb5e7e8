//! A recycled, boxed header map. A finished request's map, cleared, becomes
//! a later response's, so setting a response's first header allocates
//! nothing once a thread has served a request: a map's two allocations and
//! two frees cost about as much as hashing all of a small response's
//! headers. The response's map stays in its box from its first header to
//! the hand-off to hyper, so the ~100-byte map itself is not copied at each
//! step on the way (into the head, the outbox, the connection's future).

use std::cell::Cell;

use http::HeaderMap;

/// Maps that grew past this many entries are freed rather than kept.
const MAX_CAPACITY: usize = 64;

/// Headers a kept map is sized for: 16 slots. A small response's few
/// headers then rarely share a slot (with `HeaderMap`'s first size, 8, its
/// inserts probed past each other), and clearing the slots still costs
/// little (docs/PERFORMANCE.md).
const RESERVE: usize = 12;

thread_local! {
    // One map: requests on a thread finish about as often as responses
    // start, and a single slot costs the least to fill and empty.
    static SPARE: Cell<Option<Box<HeaderMap>>> = const { Cell::new(None) };
    // A box whose map owns no memory, to hold the next map given.
    static BOX: Cell<Option<Box<HeaderMap>>> = const { Cell::new(None) };
}

/// A shared empty map, for a header map that is absent.
pub(crate) fn empty() -> &'static HeaderMap {
    static EMPTY: std::sync::OnceLock<HeaderMap> = std::sync::OnceLock::new();
    EMPTY.get_or_init(HeaderMap::new)
}

/// An empty map, recycled when one is available.
pub(crate) fn take() -> Box<HeaderMap> {
    SPARE
        .try_with(Cell::take)
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Clears `map` and keeps it for a later [`take`] (unless it never
/// allocated or grew large); a map kept before is freed.
pub(crate) fn give(map: HeaderMap) {
    if !worth_keeping(&map) {
        return;
    }
    let mut boxed = BOX.try_with(Cell::take).ok().flatten().unwrap_or_default();
    // The box's map owns no memory: nothing is lost by not dropping it.
    std::mem::forget(std::mem::replace(&mut *boxed, map));
    keep(boxed);
}

/// [`give`] for a boxed map; the box of a map that owns no memory (as once
/// hyper has its contents) is kept to hold the next map given.
pub(crate) fn give_box(boxed: Box<HeaderMap>) {
    if boxed.capacity() == 0 {
        let _ = BOX.try_with(|spare| spare.set(Some(boxed)));
    } else if worth_keeping(&boxed) {
        keep(boxed);
    }
}

fn worth_keeping(map: &HeaderMap) -> bool {
    map.capacity() != 0 && map.capacity() <= MAX_CAPACITY
}

fn keep(mut boxed: Box<HeaderMap>) {
    boxed.clear();
    boxed.reserve(RESERVE);
    let _ = SPARE.try_with(|spare| spare.set(Some(boxed)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_map_comes_back_empty_and_sized_for_a_response() {
        let mut map = HeaderMap::new();
        map.insert("x-a", "1".parse().unwrap());
        map.append("x-a", "2".parse().unwrap());
        let capacity = map.capacity();
        give(map);
        let again = take();
        assert!(again.is_empty());
        assert_eq!(again.capacity(), capacity.max(RESERVE));
        assert_eq!(take().capacity(), 0, "the pool held one map");
    }

    #[test]
    fn maps_without_allocation_or_too_large_are_not_kept() {
        give(HeaderMap::new());
        let mut big = HeaderMap::new();
        for i in 0..100 {
            big.insert(
                http::HeaderName::try_from(format!("x-{i}")).unwrap(),
                "v".parse().unwrap(),
            );
        }
        assert!(big.capacity() > MAX_CAPACITY);
        give(big);
        assert_eq!(take().capacity(), 0);
    }

    #[test]
    fn an_emptied_box_holds_the_next_map_given() {
        let emptied = Box::new(HeaderMap::new());
        let address = std::ptr::from_ref(&*emptied);
        give_box(emptied);
        let mut map = HeaderMap::new();
        map.insert("x-a", "1".parse().unwrap());
        give(map);
        let kept = take();
        assert_eq!(std::ptr::from_ref(&*kept), address);
        assert!(kept.is_empty() && kept.capacity() > 0);
    }
}
