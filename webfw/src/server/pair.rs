//! The box that holds one request and its response while the chain runs and
//! until the `on_finish` hooks are done. Its allocation is recycled: a
//! finished pair's box, emptied in place, holds the next pair on the thread,
//! so a request costs no allocation and no free for it.

use std::cell::Cell;

use crate::inline_option::InlineOption;
use crate::request::Request;
use crate::response::Response;

/// Two options rather than an optional pair: each value is then built in
/// its place in the box, not on the stack and copied. Emptied when the
/// pair is dropped and refilled for the next one: [`InlineOption`]s, which
/// test for the empty slot inline.
type Slot = Box<(InlineOption<Request>, InlineOption<Response>)>;

thread_local! {
    static SPARE: Cell<Option<Slot>> = const { Cell::new(None) };
}

/// A request and its response, boxed (the pair is ~850 bytes: futures hold
/// a pointer to it instead of moving it).
pub(crate) struct Pair(Option<Slot>);

impl Pair {
    /// A pair in a recycled box, its request and response still to be built
    /// in their slots ([`Pair::slots`]; see [`Request::new_in`] and
    /// [`Response::new_in`]). Built by the caller rather than by closures
    /// given here: a closure would hold the request's parts, and copy them
    /// once more.
    #[inline(always)]
    pub(crate) fn empty() -> Pair {
        let slot = SPARE
            .try_with(Cell::take)
            .ok()
            .flatten()
            .unwrap_or_else(|| Box::new((InlineOption::none(), InlineOption::none())));
        Pair(Some(slot))
    }

    /// The empty slots of a pair from [`Pair::empty`].
    pub(crate) fn slots(&mut self) -> (&mut InlineOption<Request>, &mut InlineOption<Response>) {
        match self.0.as_deref_mut() {
            Some((req, res)) => (req, res),
            None => unreachable!("a pair holds its box until dropped"),
        }
    }

    pub(crate) fn parts(&mut self) -> (&mut Request, &mut Response) {
        let Some((req, res)) = self.0.as_deref_mut() else {
            unreachable!("a pair holds its box until dropped")
        };
        match (&mut **req, &mut **res) {
            (Some(req), Some(res)) => (req, res),
            _ => unreachable!("a pair holds its request and response until dropped"),
        }
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        if let Some(mut slot) = self.0.take() {
            // Dropped in place: moving the pair out first would copy it.
            slot.0.clear();
            slot.1.clear();
            let _ = SPARE.try_with(|spare| spare.set(Some(slot)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(target: &str) -> Pair {
        let mut pair = Pair::empty();
        let (req, res) = pair.slots();
        res.fill(crate::testing::response(
            req.fill(crate::testing::request(http::Method::GET, target)),
        ));
        pair
    }

    #[test]
    fn a_dropped_pair_lends_its_box_to_the_next_one() {
        let mut first = pair("/first");
        let address = std::ptr::from_ref(first.0.as_deref().unwrap());
        assert_eq!(first.parts().0.path(), "/first");
        drop(first);
        let mut second = pair("/second");
        assert_eq!(std::ptr::from_ref(second.0.as_deref().unwrap()), address);
        assert_eq!(second.parts().0.path(), "/second");
    }

    #[test]
    fn the_contents_are_dropped_with_the_pair() {
        let alive = std::sync::Arc::new(());
        let mut p = pair("/");
        p.parts().0.extensions_mut().insert(alive.clone());
        assert_eq!(std::sync::Arc::strong_count(&alive), 2);
        drop(p);
        assert_eq!(std::sync::Arc::strong_count(&alive), 1);
    }
}
