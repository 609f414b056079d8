use super::*;
use proptest::prelude::*;

/// Fills a block with a pattern of its own, so a block overwritten by
/// another or moved without its bytes shows.
fn fill(ptr: *mut u8, len: usize, tag: u8) {
    for i in 0..len {
        // SAFETY: the block holds `len` bytes.
        unsafe { ptr.add(i).write(tag.wrapping_add(i as u8)) };
    }
}

fn holds(ptr: *mut u8, len: usize, tag: u8) -> bool {
    // SAFETY: the block holds `len` bytes.
    (0..len).all(|i| unsafe { ptr.add(i).read() } == tag.wrapping_add(i as u8))
}

#[derive(Debug, Clone)]
enum Op {
    Alloc { size: usize, align_log: u32 },
    Grow { which: usize, size: usize },
    Shrink { which: usize, size: usize },
    Free { which: usize },
}

fn op() -> impl Strategy<Value = Op> {
    // Sizes from a word to 1.5 MiB, so a 4 MiB reservation runs out.
    let size = prop_oneof![1usize..64, 64usize..4096, 4096usize..(3 << 19)];
    prop_oneof![
        3 => (size.clone(), 0u32..7).prop_map(|(size, align_log)| Op::Alloc { size, align_log }),
        2 => (any::<usize>(), size.clone()).prop_map(|(which, size)| Op::Grow { which, size }),
        1 => (any::<usize>(), 1usize..64).prop_map(|(which, size)| Op::Shrink { which, size }),
        2 => any::<usize>().prop_map(|which| Op::Free { which }),
    ]
}

/// Runs the operations on `heap`, checking after each that every live
/// block is aligned and still holds its bytes; frees everything at the end.
fn run(heap: &Heap, ops: &[Op]) {
    let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
    for (n, op) in ops.iter().enumerate() {
        let tag = n as u8;
        match *op {
            Op::Alloc { size, align_log } => {
                let layout = Layout::from_size_align(size, 1 << align_log).unwrap();
                // SAFETY: a non-zero size.
                let ptr = unsafe { heap.alloc(layout) };
                assert!(!ptr.is_null());
                fill(ptr, size, tag);
                live.push((ptr, layout, tag));
            }
            Op::Grow { which, size } | Op::Shrink { which, size } if !live.is_empty() => {
                let at = which % live.len();
                let (ptr, layout, old_tag) = live[at];
                // SAFETY: a live block of this heap with its layout; non-zero size.
                let new = unsafe { heap.realloc(ptr, layout, size) };
                assert!(!new.is_null());
                let kept = size.min(layout.size());
                assert!(holds(new, kept, old_tag), "realloc lost the block's bytes");
                fill(new, size, tag);
                live[at] = (new, Layout::from_size_align(size, layout.align()).unwrap(), tag);
            }
            Op::Free { which } if !live.is_empty() => {
                let (ptr, layout, _) = live.swap_remove(which % live.len());
                // SAFETY: a live block of this heap with its layout.
                unsafe { heap.dealloc(ptr, layout) };
            }
            _ => {}
        }
        for &(ptr, layout, tag) in &live {
            assert_eq!(ptr as usize % layout.align(), 0);
            assert!(holds(ptr, layout.size(), tag), "a live block was overwritten");
        }
    }
    for (ptr, layout, _) in live {
        // SAFETY: as above.
        unsafe { heap.dealloc(ptr, layout) };
    }
}

static SMALL: Heap = Heap::reserving(&[4 << 20]);
static LARGE: Heap = Heap::new();

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A reservation of 4 MiB runs out, so blocks go to the system's heap,
    /// and grow out of the reservation into it.
    #[test]
    fn blocks_keep_their_bytes_when_the_reservation_runs_out(ops in prop::collection::vec(op(), 1..60)) {
        run(&SMALL, &ops);
    }

    #[test]
    fn blocks_keep_their_bytes(ops in prop::collection::vec(op(), 1..60)) {
        run(&LARGE, &ops);
    }
}

#[test]
fn a_block_too_large_for_the_reservation_comes_from_the_system() {
    static HEAP: Heap = Heap::reserving(&[4 << 20]);
    let small = Layout::from_size_align(1000, 8).unwrap();
    // SAFETY: non-zero sizes; each block is freed once with its layout.
    unsafe {
        let a = HEAP.alloc(small);
        assert!(HEAP.owns(a), "the first block is talc's");
        fill(a, 1000, 7);
        // Grown past the reservation: moved to the system's heap, bytes kept.
        let b = HEAP.realloc(a, small, 16 << 20);
        assert!(!b.is_null() && !HEAP.owns(b));
        assert!(holds(b, 1000, 7));
        HEAP.dealloc(b, Layout::from_size_align(16 << 20, 8).unwrap());
    }
}

/// Past its first claim the heap grows through the reservation: a block
/// far larger than the first claim, and many after it, are talc's.
#[test]
fn the_heap_grows_through_the_reservation() {
    static HEAP: Heap = Heap::reserving(&[64 << 20]);
    let big = Layout::from_size_align(10 << 20, 64).unwrap();
    let small = Layout::from_size_align(3000, 8).unwrap();
    // SAFETY: non-zero sizes; each block is freed once with its layout.
    unsafe {
        let a = HEAP.alloc(big);
        assert!(HEAP.owns(a), "a block past the first claim is talc's");
        fill(a, 10 << 20, 5);
        let rest: Vec<*mut u8> = (0..2000).map(|_| HEAP.alloc(small)).collect();
        assert!(rest.iter().all(|&p| HEAP.owns(p)), "6 MB more in small blocks stay in the reservation");
        for (i, &p) in rest.iter().enumerate() {
            fill(p, 3000, i as u8);
        }
        assert!(holds(a, 10 << 20, 5));
        assert!(rest.iter().enumerate().all(|(i, &p)| holds(p, 3000, i as u8)));
        for p in rest {
            HEAP.dealloc(p, small);
        }
        HEAP.dealloc(a, big);
    }
}

#[test]
fn without_a_reservation_the_system_serves() {
    // No system grants this much address space.
    static HEAP: Heap = Heap::reserving(&[usize::MAX & !0xfff]);
    let layout = Layout::from_size_align(100, 16).unwrap();
    // SAFETY: a non-zero size; freed once with its layout.
    unsafe {
        let a = HEAP.alloc(layout);
        assert!(!a.is_null());
        assert_eq!(HEAP.reservation(), None);
        assert!(!HEAP.owns(a));
        fill(a, 100, 3);
        assert!(holds(a, 100, 3));
        HEAP.dealloc(a, layout);
    }
}

/// The reservation is advised to stay on small pages (flag `nh` in the
/// kernel's own account of the mapping, `/proc/self/smaps`) where the
/// kernel has transparent huge pages.
#[cfg(target_os = "linux")]
#[test]
fn the_heap_stays_on_small_pages() {
    static HEAP: Heap = Heap::new();
    let layout = Layout::from_size_align(64, 8).unwrap();
    // SAFETY: a non-zero size; freed once with its layout.
    let first = unsafe { HEAP.alloc(layout) };
    let (start, end) = HEAP.reservation().expect("a reservation on Linux");
    assert!(start <= first as usize && (first as usize) < end, "talc serves from the reservation");
    if std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists() {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let flags = vm_flags(&smaps, start).expect("the reservation is mapped");
        assert!(flags.split_whitespace().any(|f| f == "nh"), "not advised small: {flags}");
    }
    // SAFETY: as above.
    unsafe { HEAP.dealloc(first, layout) };
}

/// The `VmFlags` line of the mapping of `smaps` that holds `addr`.
fn vm_flags(smaps: &str, addr: usize) -> Option<String> {
    let mut current = None;
    for line in smaps.lines() {
        if let Some((range, _)) = line.split_once(' ') {
            if let Some((a, b)) = range.split_once('-') {
                if let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16)) {
                    current = Some((a, b));
                    continue;
                }
            }
        }
        if let (Some((a, b)), Some(flags)) = (current, line.strip_prefix("VmFlags:")) {
            if a <= addr && addr < b {
                return Some(flags.to_string());
            }
        }
    }
    None
}
