//! [`InlineOption`]: an `Option` for per-request state that is usually
//! empty when dropped or refilled.

use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

/// An `Option<T>` that looks for `None` inline when dropped or refilled.
/// The compiler drops an `Option<T>` whose `T` owns more through an
/// out-of-line call that saves six registers before it looks, for each
/// empty field on every request, and again for each refill of an emptied
/// slot (`Option::insert` drops the `None` first).
pub(crate) struct InlineOption<T>(ManuallyDrop<Option<T>>);

impl<T> InlineOption<T> {
    /// An empty one.
    pub(crate) const fn none() -> InlineOption<T> {
        InlineOption(ManuallyDrop::new(None))
    }

    /// Drops the value, if any.
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        if self.0.is_some() {
            clear(&mut self.0);
        }
    }

    /// Fills an empty slot, in place when inlined. A value already there
    /// is leaked, not dropped (debug builds panic): callers fill only
    /// slots they made or emptied. Dropping it, or even testing for it in
    /// release builds, puts a call before the write, and the new value is
    /// then built aside and copied (a large `memcpy` for a request).
    #[inline(always)]
    pub(crate) fn fill(&mut self, value: T) -> &mut T {
        debug_assert!(self.0.is_none(), "an InlineOption filled twice");
        // Assigning a `ManuallyDrop` drops nothing.
        self.0 = ManuallyDrop::new(Some(value));
        match &mut *self.0 {
            Some(value) => value,
            None => unreachable!("filled above"),
        }
    }
}

/// Out of line, so that what inlines into every drop is only the test.
#[inline(never)]
fn clear<T>(slot: &mut Option<T>) {
    *slot = None;
}

impl<T> Default for InlineOption<T> {
    fn default() -> InlineOption<T> {
        InlineOption::none()
    }
}

impl<T> Deref for InlineOption<T> {
    type Target = Option<T>;
    fn deref(&self) -> &Option<T> {
        &self.0
    }
}

impl<T> DerefMut for InlineOption<T> {
    fn deref_mut(&mut self) -> &mut Option<T> {
        &mut self.0
    }
}

impl<T> Drop for InlineOption<T> {
    #[inline(always)]
    fn drop(&mut self) {
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn values_are_dropped_when_replaced_cleared_or_dropped_with_the_option() {
        let value = Rc::new(());
        let count = || Rc::strong_count(&value);
        let mut slot: InlineOption<Rc<()>> = InlineOption::none();
        assert!(slot.is_none());
        drop(InlineOption::<Rc<()>>::default());
        slot.fill(Rc::clone(&value));
        assert_eq!(count(), 2);
        slot.clear();
        assert_eq!(count(), 1);
        // Filled again, and replaced through the option.
        let other = Rc::new(());
        *slot.fill(Rc::clone(&other)) = Rc::clone(&value);
        assert_eq!((count(), Rc::strong_count(&other)), (2, 1));
        slot.clear();
        *slot = Some(Rc::clone(&value));
        drop(slot);
        assert_eq!(count(), 1);
    }
}
