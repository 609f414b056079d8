//! `sleuth`: Sleuth's command line. It runs the subcommands that read a
//! game and answer at once, and hands the others to `sleuth-full`.
#![forbid(unsafe_code)]

/// A short process: its heap on huge pages past the first 512 KiB saves
/// most of the page faults of a larger analysis (`sleuth-heap`).
#[global_allocator]
static HEAP: sleuth_heap::HugePageHeap = sleuth_heap::HugePageHeap::new();

fn main() -> std::process::ExitCode {
    sleuth_cli::sleuth_main()
}
