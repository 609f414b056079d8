//! The heap of the `sleuth` program: [`talc`] serving from one reservation
//! of address space, on ordinary (4 KiB) pages, grown in steps whose pages
//! are faulted in at once ([`Grow`]).
//!
//! Why: `sleuth analyze` is a short process that allocates and frees large
//! layers and vectors. Talc reuses the memory a freed block gave back, so
//! a page is faulted in (and zeroed by the kernel) once per process; the
//! system allocator maps large blocks afresh and unmaps them when freed,
//! so a later block of the same size faults its pages in again (master 10
//! bystander, 60 states: 4 % more time on the system allocator).
//!
//! Not on transparent huge pages (2 MiB), which this heap used from
//! 2026-11-27 to 2026-11-29: a huge page costs one fault instead of 512,
//! and back to back they saved 5-20 % of a larger analysis, but on the
//! VMs Sleuth is measured on (Firecracker, free page reporting of blocks
//! of 8 MiB and more: `page_reporting.page_reporting_order=11`) memory
//! left free for a few seconds goes back to the host, and a huge page
//! taken from it costs 3-4 ms instead of 0.3: after 3 s idle, issue 20's
//! seed 505 took 42 ms on huge pages against 25 on small pages (the plain
//! DP 27), and 8,8,8,8 8 bystander 20 seed 4 0.58-0.81 s against 0.36-0.40
//! (ARCHITECTURE.md, "The heap"). Small pages come from the kernel's small
//! free blocks, which are not reported, and cost the same idle or not.
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
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use talc::{OomHandler, Span, Talc, Talck};

/// The address space reserved, largest first: untouched pages cost
/// nothing (`MAP_NORESERVE`), and a smaller one is tried where a policy
/// refuses the larger.
const RESERVATIONS: [usize; 3] = [16 << 30, 1 << 30, 256 << 20];

const UNSET: u8 = 0;
const TALC: u8 = 1;
const SYSTEM: u8 = 2;

/// A global allocator: talc in a reservation, the system allocator where
/// that is not possible.
pub struct Heap {
    talc: Talck<spin::Mutex<()>, Grow>,
    /// [`UNSET`] until the first allocation, then [`TALC`] or [`SYSTEM`].
    mode: AtomicU8,
    /// The reservation, `start..end` (empty under [`SYSTEM`]).
    start: AtomicUsize,
    end: AtomicUsize,
    /// The reservations to try, largest first.
    reservations: &'static [usize],
}

impl Heap {
    /// The heap `sleuth` runs on.
    pub const fn new() -> Heap {
        Heap::reserving(&RESERVATIONS)
    }

    /// A heap that tries these reservations, largest first (the tests use
    /// small ones to reach the system allocator's fallback).
    pub const fn reserving(reservations: &'static [usize]) -> Heap {
        Heap {
            talc: Talc::new(Grow { heap: Span::empty(), limit: 0 }).lock(),
            mode: AtomicU8::new(UNSET),
            start: AtomicUsize::new(0),
            end: AtomicUsize::new(0),
            reservations,
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

    /// Makes the reservation and gives it to talc, on the first allocation
    /// (called with talc's lock held, so once).
    fn set_up(&self, talc: &mut Talc<Grow>) {
        let Some((start, size)) = reserve(self.reservations) else {
            self.mode.store(SYSTEM, Ordering::Release);
            return;
        };
        let end = start + size;
        // Small pages even where the system's setting would make them huge
        // (`always`): one syscall, and the heap costs the same everywhere.
        advise_small(start, size);
        // Talc gets the reservation's first pages, and more as it runs out
        // ([`Grow`]).
        let first = Span::new(start as *mut u8, (start + FIRST.min(size)) as *mut u8);
        // SAFETY: `start..end` is a private mapping that nothing else uses,
        // readable and writable, and stays mapped for the process.
        match unsafe { talc.claim(first) } {
            Ok(heap) => {
                talc.oom_handler = Grow { heap, limit: end };
                self.start.store(start, Ordering::Relaxed);
                self.end.store(end, Ordering::Relaxed);
                self.mode.store(TALC, Ordering::Release);
            }
            Err(()) => self.mode.store(SYSTEM, Ordering::Release),
        }
    }
}

impl Default for Heap {
    fn default() -> Heap {
        Heap::new()
    }
}

// SAFETY: talc's pointers are valid for their layouts until freed (talc's
// contract, under its lock); every other pointer comes from `System` and
// goes back to it, told apart by the reservation, which never moves.
unsafe impl GlobalAlloc for Heap {
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

/// The heap's first claim: what a small analysis touches in all.
const FIRST: usize = 256 << 10;

/// Talc's out-of-memory handler: the heap grows through the reservation,
/// by an eighth of its size or what the allocation needs, at least
/// [`STEP`], and each step's pages (up to [`POPULATE_MAX`]) are faulted in
/// by one `MADV_POPULATE_WRITE` (about 1.0 µs a page against 1.5 touched
/// one by one on this VM: the kernel zeroes and maps them in one call,
/// without a trap per page; at most an eighth of the heap, or 64 MiB, is
/// faulted in unused).
struct Grow {
    /// Talc's heap so far (empty before the reservation is made).
    heap: Span,
    /// The end of the reservation.
    limit: usize,
}

/// The least the heap grows by at once.
const STEP: usize = 128 << 10;

/// The most of one step faulted in at once.
const POPULATE_MAX: usize = 64 << 20;

impl OomHandler for Grow {
    fn handle_oom(talc: &mut Talc<Self>, layout: Layout) -> Result<(), ()> {
        let Grow { heap, limit } = talc.oom_handler;
        let (base, acme) = heap.get_base_acme().ok_or(())?;
        let (base, acme) = (base as usize, acme as usize);
        // Room for the block at any alignment, and for talc's tags.
        let need = layout.size().checked_add(layout.align()).and_then(|n| n.checked_add(64)).ok_or(())?;
        let step = need.max((acme - base) / 8).max(STEP).next_multiple_of(4096);
        let new_acme = acme.saturating_add(step).min(limit);
        if new_acme < acme.saturating_add(need) {
            return Err(()); // the reservation is used up: the system serves
        }
        // Faulted in up to a bound: a block larger than that (a layer
        // reserved ahead of its states) may never be touched to its end,
        // and a large analysis near the memory limit should not pay for it.
        populate(acme, (new_acme - acme).min(POPULATE_MAX));
        // SAFETY: `base..new_acme` lies in the reservation, which only this
        // heap uses, and contains the old heap.
        let grown = unsafe { talc.extend(heap, Span::new(base as *mut u8, new_acme as *mut u8)) };
        talc.oom_handler.heap = grown;
        Ok(())
    }
}

/// Faults in `len` bytes from `start` (in the reservation) at once, where
/// the kernel can (Linux 5.14 and later); elsewhere they fault in as
/// touched.
#[cfg(target_os = "linux")]
fn populate(start: usize, len: usize) {
    // SAFETY: the range lies in our own mapping; populating it changes no
    // byte (fresh anonymous pages read as zero either way).
    unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_POPULATE_WRITE) };
}

#[cfg(not(target_os = "linux"))]
fn populate(_: usize, _: usize) {}

/// Advises the reservation (`len` bytes from `start`) not to be backed by
/// transparent huge pages; without effect where the kernel has none.
#[cfg(target_os = "linux")]
fn advise_small(start: usize, len: usize) {
    // SAFETY: the range is our own mapping; the advice changes how it is
    // backed, not what it holds.
    unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_NOHUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_small(_: usize, _: usize) {}

#[cfg(test)]
mod tests;
