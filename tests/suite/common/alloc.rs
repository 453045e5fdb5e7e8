//! The suite's global allocator: the system's, counting per thread, so that
//! a test can see what its own code allocated while other tests run on
//! other threads.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

/// Counts one allocation of `grown` bytes (negative: freed) on this thread.
fn count(allocations: u64, grown: isize) {
    ALLOCATIONS.with(|n| n.set(n.get() + allocations));
    LIVE.with(|n| n.set(n.get() + grown));
}

// Counting allocations needs an allocator, and `GlobalAlloc` is an unsafe
// trait. SAFETY: every call goes to the system allocator unchanged; only
// this thread's counters are updated besides.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(1, layout.size() as isize);
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, -(layout.size() as isize));
        // SAFETY: `ptr` came from this allocator, with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(1, new_size as isize - layout.size() as isize);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many allocations (and reallocations) this thread has made.
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// The bytes this thread has allocated less those it has freed.
pub fn live_bytes() -> isize {
    LIVE.with(Cell::get)
}
