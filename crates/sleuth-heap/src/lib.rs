//! The heap of the `sleuth` program: [`talc`] serving from one reservation
//! of address space whose pages past the first 512 KiB are advised to be
//! transparent huge pages (2 MiB).
//!
//! Why: `sleuth analyze` is a short process, and every page of memory it
//! first touches costs a page fault in which the kernel zeroes it: about
//! 2.4 µs per 4 KiB page on the 2-core VM of BENCHMARKS.md, a fifth to a
//! third of the whole process on states of 1 to 30 ms (master 4 bystander
//! 20 seed 0: 440 faults past the start, 1.1 ms of 3.5). A 2 MiB huge page
//! is one fault and costs about as much as 125 small ones (0.3 ms), so
//! below about 500 KiB small pages are cheaper and above it huge ones. The
//! first [`SMALL_PREFIX`] bytes of the heap therefore stay on small pages
//! (a small state touches no huge page at all) and the rest is advised
//! huge, starting at a 2 MiB boundary. glibc's allocator cannot be told to
//! do this from inside the program (its `glibc.malloc.hugetlb` tunable is
//! read from the environment before `main`, and measured 504 → 470 faults
//! there); jemalloc and mimalloc start 0.7-1 ms slower here.
//!
//! The heap never gives memory back to the system (freed memory is reused
//! by talc), which suits a process that answers once and exits; the
//! long-running `sleuth-full` (server, tournaments) keeps the system
//! allocator. Where the reservation cannot be made (another system, a
//! strict overcommit policy, an address-space limit) or is used up, the
//! system allocator serves instead: a pointer is talc's if and only if it
//! lies in the reservation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr::{null_mut, NonNull};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use talc::{ErrOnOom, Span, Talc, Talck};

/// The heap's first bytes, on small pages.
pub const SMALL_PREFIX: usize = 512 << 10;

/// A transparent huge page on x86-64 and most Linux systems.
const HUGE: usize = 2 << 20;

/// The address space reserved, largest first: untouched pages cost
/// nothing (`MAP_NORESERVE`), and a smaller one is tried where a policy
/// refuses the larger.
const RESERVATIONS: [usize; 3] = [16 << 30, 1 << 30, 256 << 20];

const UNSET: u8 = 0;
const TALC: u8 = 1;
const SYSTEM: u8 = 2;

/// A global allocator: talc in a reservation advised to huge pages, the
/// system allocator where that is not possible.
pub struct HugePageHeap {
    talc: Talck<spin::Mutex<()>, ErrOnOom>,
    /// [`UNSET`] until the first allocation, then [`TALC`] or [`SYSTEM`].
    mode: AtomicU8,
    /// The reservation, `start..end` (empty under [`SYSTEM`]).
    start: AtomicUsize,
    end: AtomicUsize,
    /// The reservations to try, largest first.
    reservations: &'static [usize],
    /// Whether the kernel accepted the advice (for the tests).
    advised: AtomicBool,
}

impl HugePageHeap {
    /// The heap `sleuth` runs on.
    pub const fn new() -> HugePageHeap {
        HugePageHeap::reserving(&RESERVATIONS)
    }

    /// A heap that tries these reservations, largest first (the tests use
    /// small ones to reach the system allocator's fallback).
    pub const fn reserving(reservations: &'static [usize]) -> HugePageHeap {
        HugePageHeap {
            talc: Talc::new(ErrOnOom).lock(),
            mode: AtomicU8::new(UNSET),
            start: AtomicUsize::new(0),
            end: AtomicUsize::new(0),
            reservations,
            advised: AtomicBool::new(false),
        }
    }

    /// Whether `ptr` is talc's: in the reservation.
    fn owns(&self, ptr: *mut u8) -> bool {
        let p = ptr as usize;
        self.start.load(Ordering::Relaxed) <= p && p < self.end.load(Ordering::Relaxed)
    }

    /// The reservation, if one was made: its start and end.
    pub fn reservation(&self) -> Option<(usize, usize)> {
        (self.mode.load(Ordering::Acquire) == TALC)
            .then(|| (self.start.load(Ordering::Relaxed), self.end.load(Ordering::Relaxed)))
    }

    /// Whether the kernel accepted the huge-page advice.
    pub fn advised(&self) -> bool {
        self.advised.load(Ordering::Relaxed)
    }

    /// Makes the reservation and gives it to talc, on the first allocation
    /// (called with talc's lock held, so once).
    fn set_up(&self, talc: &mut Talc<ErrOnOom>) {
        let Some((start, size)) = reserve(self.reservations) else {
            self.mode.store(SYSTEM, Ordering::Release);
            return;
        };
        let end = start + size;
        // The heap starts SMALL_PREFIX below a 2 MiB boundary, and huge
        // pages from that boundary on. Talc writes a tag at the top of its
        // free span, so the last 2 MiB stay on small pages: one fault there,
        // not a huge page per process.
        let huge_start = (start + SMALL_PREFIX).next_multiple_of(HUGE);
        let huge_end = (end - HUGE) & !(HUGE - 1);
        let base = huge_start - SMALL_PREFIX;
        if huge_start < huge_end && advise_huge(huge_start, huge_end - huge_start) {
            self.advised.store(true, Ordering::Relaxed);
        }
        // SAFETY: `base..end` lies in a private mapping that nothing else
        // uses, readable and writable, and stays mapped for the process.
        match unsafe { talc.claim(Span::new(base as *mut u8, end as *mut u8)) } {
            Ok(_) => {
                self.start.store(base, Ordering::Relaxed);
                self.end.store(end, Ordering::Relaxed);
                self.mode.store(TALC, Ordering::Release);
            }
            Err(()) => self.mode.store(SYSTEM, Ordering::Release),
        }
    }
}

impl Default for HugePageHeap {
    fn default() -> HugePageHeap {
        HugePageHeap::new()
    }
}

// SAFETY: talc's pointers are valid for their layouts until freed (talc's
// contract, under its lock); every other pointer comes from `System` and
// goes back to it, told apart by the reservation, which never moves.
unsafe impl GlobalAlloc for HugePageHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if self.mode.load(Ordering::Acquire) != SYSTEM {
            let mut talc = self.talc.lock();
            if self.mode.load(Ordering::Acquire) == UNSET {
                self.set_up(&mut talc);
            }
            if self.mode.load(Ordering::Acquire) == TALC {
                // SAFETY: `GlobalAlloc::alloc` callers never ask for zero bytes.
                if let Ok(ptr) = unsafe { talc.malloc(layout) } {
                    return ptr.as_ptr();
                }
            }
        }
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if self.owns(ptr) {
            // SAFETY: talc allocated `ptr` with `layout` (it lies in the
            // reservation), and the caller gives it back once.
            unsafe { self.talc.lock().free(NonNull::new_unchecked(ptr), layout) }
        } else {
            // SAFETY: `System` allocated it, with `layout`.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !self.owns(ptr) {
            // SAFETY: `System` allocated it, with `layout`.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: `ptr` is talc's with `layout`, and `new_size` is not zero.
        let nn = unsafe { NonNull::new_unchecked(ptr) };
        if new_size <= layout.size() {
            // SAFETY: as above; shrinking is always in place.
            unsafe { self.talc.lock().shrink(nn, layout, new_size) };
            return ptr;
        }
        // SAFETY: as above.
        if let Ok(grown) = unsafe { self.talc.lock().grow(nn, layout, new_size) } {
            return grown.as_ptr();
        }
        // The reservation is used up: move the block to the system's heap.
        // SAFETY: `new_size` rounded to the alignment does not overflow (the
        // caller's promise), so the layout is valid.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: a valid, non-zero layout.
        let moved = unsafe { System.alloc(new_layout) };
        if !moved.is_null() {
            // SAFETY: both blocks hold at least `layout.size()` bytes and
            // are distinct; the old one is talc's and freed once.
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, moved, layout.size());
                self.talc.lock().free(nn, layout);
            }
        }
        moved
    }
}

/// Reserves address space, the first size the system grants: its start and
/// size.
#[cfg(target_os = "linux")]
fn reserve(sizes: &[usize]) -> Option<(usize, usize)> {
    sizes.iter().find_map(|&size| {
        let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE;
        // SAFETY: a fresh anonymous mapping at an address the kernel picks
        // touches no existing memory.
        let ptr = unsafe { libc::mmap(null_mut(), size, libc::PROT_READ | libc::PROT_WRITE, flags, -1, 0) };
        (ptr != libc::MAP_FAILED).then_some((ptr as usize, size))
    })
}

#[cfg(not(target_os = "linux"))]
fn reserve(_: &[usize]) -> Option<(usize, usize)> {
    None
}

/// Advises `len` bytes from `start` (both multiples of 2 MiB, inside the
/// reservation) to be backed by huge pages; false where the kernel has no
/// transparent huge pages.
#[cfg(target_os = "linux")]
fn advise_huge(start: usize, len: usize) -> bool {
    // SAFETY: the range lies in our own mapping; the advice changes how it
    // is backed, not what it holds.
    unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_: usize, _: usize) -> bool {
    false
}

#[cfg(test)]
mod tests;
