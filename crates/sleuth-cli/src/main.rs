//! `sleuth`: Sleuth's command line. It runs the subcommands that read a
//! game and answer at once, and hands the others to `sleuth-full`.
//!
//! On Linux the process starts at the C `main` below (`#![no_main]`), not
//! through Rust's runtime start-up, which reads `/proc/self/maps` (to find
//! the main thread's stack guard) and installs stack-overflow handlers on an
//! alternate stack: 17 of the 37 system calls of `sleuth --version`, and
//! 0.05 ms of every run (0.57 -> 0.52 ms). What `sleuth` needs of that start-up is
//! done here: standard streams that are closed opened on `/dev/null`,
//! SIGPIPE ignored (writing to a closed pipe is an error `sleuth` handles,
//! not a kill), a panic's exit status 101, standard output flushed. A stack
//! overflow ends the process without Rust's message.
#![cfg_attr(all(target_os = "linux", not(test)), no_main)]
#![deny(unsafe_code)]

/// A short process: a heap that reuses what it frees faults each page in
/// once (`sleuth-heap`).
#[global_allocator]
static HEAP: sleuth_heap::Heap = sleuth_heap::Heap::new();

// Elsewhere, and in the test harness (which brings its own `main`), the
// usual start.
#[cfg(any(not(target_os = "linux"), test))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(sleuth_cli::sleuth_main())
}

#[cfg(all(target_os = "linux", not(test)))]
#[allow(unsafe_code)]
mod start {
    use std::io::Write as _;

    /// The process's entry, called by the C library (`std::env::args`
    /// reads the arguments on its own).
    // SAFETY: the program's only `main` (`#![no_main]`), with the C
    // signature the C library calls.
    #[unsafe(no_mangle)]
    extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
        open_closed_standard_streams();
        // SAFETY: ignoring a signal installs no handler and touches no memory.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
        // A panic has printed its message through the hook; the status is
        // the one Rust's runtime gives.
        let status = std::panic::catch_unwind(sleuth_cli::sleuth_main).unwrap_or(101);
        let _ = std::io::stdout().flush();
        libc::c_int::from(status)
    }

    /// Opens `/dev/null` on standard input, output or error where the parent
    /// left it closed, as Rust's runtime does: otherwise the first file the
    /// program opens would take its number, and output meant for the
    /// terminal would go into that file.
    fn open_closed_standard_streams() {
        let mut fds = [0, 1, 2].map(|fd| libc::pollfd { fd, events: 0, revents: 0 });
        // SAFETY: `poll` reads and writes the three structs it is given.
        if unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) } == -1 {
            return;
        }
        for fd in fds.iter().filter(|fd| fd.revents & libc::POLLNVAL != 0) {
            // SAFETY: a C string literal; the descriptor is left open for the
            // process, in place of the closed one (the lowest free number).
            let opened = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
            debug_assert!(opened == -1 || opened == fd.fd);
        }
    }
}
