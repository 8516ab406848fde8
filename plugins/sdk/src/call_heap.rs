//! The components' global allocator. A component instance lives for one call and then
//! its whole memory is thrown away, so the allocator need not give memory back to anyone
//! or fight fragmentation over days: blocks come from a bump pointer, and a freed block
//! waits on a free list of its size class (powers of two) for the next request of that
//! class. Allocating and freeing are a few instructions, where dlmalloc (wasi-libc's
//! malloc) splits, coalesces and bins.
//!
//! The price is memory: a block is up to twice its request, and a freed block serves only
//! its own class. The host's memory cap still holds (growing past it fails the call), and
//! the conversions' peaks stay within a small factor of dlmalloc's (see the bench).

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ptr;

const PAGE: usize = 65536;
/// Every block is aligned to this; a request for more is served by the bump pointer alone.
const ALIGN: usize = 16;
const MIN_CLASS: u32 = ALIGN.trailing_zeros();
/// Memory is taken from the engine in steps of at least this many pages: each grow is a
/// call into the host.
const GROW_PAGES: usize = 16;

pub struct CallHeap {
    state: UnsafeCell<State>,
}

struct State {
    next: usize,
    end: usize,
    /// The head of each size class's free list; a free block holds the next one's address.
    free: [usize; 32],
}

// Components are single-threaded (wasm32-wasip2 has no threads).
unsafe impl Sync for CallHeap {}

impl CallHeap {
    pub const fn new() -> CallHeap {
        CallHeap {
            state: UnsafeCell::new(State {
                next: 0,
                end: 0,
                free: [0; 32],
            }),
        }
    }
}

impl Default for CallHeap {
    fn default() -> Self {
        Self::new()
    }
}

/// The size class of a request: the power of two its size rounds up to (at least `ALIGN`).
fn class(size: usize) -> Option<u32> {
    let size = size.max(ALIGN);
    let c = usize::BITS - (size - 1).leading_zeros();
    (c < 32).then_some(c.max(MIN_CLASS))
}

impl State {
    fn bump(&mut self, size: usize, align: usize) -> *mut u8 {
        loop {
            let start = (self.next + align - 1) & !(align - 1);
            if let Some(stop) = start.checked_add(size).filter(|stop| *stop <= self.end) {
                self.next = stop;
                return start as *mut u8;
            }
            if !self.grow(size.saturating_add(align)) {
                return ptr::null_mut();
            }
        }
    }

    /// Takes at least `bytes` more from the engine.
    fn grow(&mut self, bytes: usize) -> bool {
        let pages = bytes.div_ceil(PAGE).max(GROW_PAGES);
        let old = memory_grow(pages);
        if old == usize::MAX {
            return false;
        }
        let base = old * PAGE;
        // Someone else (wasi-libc's malloc) grew memory since our last step: go on from
        // the fresh region, leaving the tail of the old one unused.
        if base != self.end {
            self.next = base;
        }
        // Saturating: a memory grown to the whole 4 GiB ends one past `usize::MAX`.
        self.end = base.saturating_add(pages.saturating_mul(PAGE));
        true
    }
}

#[cfg(target_arch = "wasm32")]
fn memory_grow(pages: usize) -> usize {
    core::arch::wasm32::memory_grow(0, pages)
}

/// Natively the system allocator serves; this heap is never installed there.
#[cfg(not(target_arch = "wasm32"))]
fn memory_grow(_pages: usize) -> usize {
    usize::MAX
}

unsafe impl GlobalAlloc for CallHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: single-threaded, and no call below re-enters the allocator.
        let state = unsafe { &mut *self.state.get() };
        let Some(c) = class(layout.size()) else {
            return ptr::null_mut();
        };
        if layout.align() > ALIGN {
            return state.bump(1 << c, layout.align());
        }
        let head = state.free[c as usize];
        if head != 0 {
            // SAFETY: a free block of this class holds the next free block's address.
            state.free[c as usize] = unsafe { *(head as *const usize) };
            return head as *mut u8;
        }
        state.bump(1 << c, ALIGN)
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let state = unsafe { &mut *self.state.get() };
        // Over-aligned blocks are not reused (their class's list promises only `ALIGN`).
        let Some(c) = class(layout.size()).filter(|_| layout.align() <= ALIGN) else {
            return;
        };
        // SAFETY: the block is ours, at least `ALIGN` bytes and aligned for a usize.
        unsafe { *(block as *mut usize) = state.free[c as usize] };
        state.free[c as usize] = block as usize;
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if class(layout.size()) == class(new_size) && layout.align() <= ALIGN {
            return block;
        }
        // SAFETY: the caller guarantees `layout.align()` is a valid alignment.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let grown = unsafe { self.alloc(new_layout) };
        if !grown.is_null() {
            // SAFETY: both blocks hold at least the smaller size, and they are distinct.
            unsafe {
                ptr::copy_nonoverlapping(block, grown, layout.size().min(new_size));
                self.dealloc(block, layout);
            }
        }
        grown
    }
}

#[cfg(test)]
mod tests {
    use super::class;

    #[test]
    fn classes_are_the_powers_of_two_requests_round_up_to() {
        assert_eq!(class(0), Some(4));
        assert_eq!(class(1), Some(4));
        assert_eq!(class(16), Some(4));
        assert_eq!(class(17), Some(5));
        assert_eq!(class(4096), Some(12));
        assert_eq!(class(4097), Some(13));
        assert_eq!(class(usize::MAX), None);
    }
}
