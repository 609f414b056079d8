//! Arguments, help, exit codes and pipes.

use crate::support::{sleuth, testdata};
use std::io::Read;
use std::process::{Command, Stdio};

#[test]
fn unknown_subcommand_is_a_usage_error() {
    let run = sleuth(&["frobnicate"]);
    run.code(2);
    assert!(run.stderr.contains("unrecognized subcommand 'frobnicate'"), "{}", run.stderr);
}

#[test]
fn unknown_option_is_a_usage_error() {
    let run = sleuth(&["notepad", "--colour", "seed-sat-sample.json"]);
    run.code(2);
    assert!(run.stderr.contains("unexpected argument '--colour'"), "{}", run.stderr);
}

#[test]
fn missing_argument_is_a_usage_error() {
    let run = sleuth(&["why", "seed-sat-sample.json", "pi"]);
    run.code(2);
    assert!(run.stderr.contains("<PLACE>"), "{}", run.stderr);
    sleuth(&[]).code(2);
}

#[test]
fn help_documents_exit_codes() {
    let run = sleuth(&["--help"]);
    run.code(0);
    for line in ["0  success", "1  no result", "2  usage or input error", "3  the history is inconsistent"] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
    for cmd in ["notepad", "analyze", "check", "constraints", "why", "generate", "bench"] {
        assert!(run.stdout.contains(cmd), "{cmd}");
        let sub = sleuth(&[cmd, "--help"]);
        sub.code(0);
        assert!(sub.stdout.contains("Exit codes:"), "{cmd}");
    }
    sleuth(&["--version"]).code(0);
}

#[test]
fn closed_pipe_exits_cleanly() {
    // `sleuth constraints --dimacs big | head -1`: the reader goes away
    // after the first line; sleuth must not panic or report an error. The
    // output (230 KB) outgrows the pipe, so this also checks that `sleuth`,
    // which starts without Rust's runtime (src/main.rs), ignores SIGPIPE:
    // otherwise the signal kills it.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sleuth"))
        .args(["constraints", "--dimacs", "seed-sat-sample.json"])
        .current_dir(testdata(""))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

/// The program headers of the `sleuth` binary: (type, flags, file offset,
/// alignment) each, from its 64-bit little-endian ELF header.
#[cfg(target_os = "linux")]
fn sleuth_program_headers() -> Vec<(u32, u32, u64, u64)> {
    let elf = std::fs::read(env!("CARGO_BIN_EXE_sleuth")).unwrap();
    assert_eq!(&elf[..4], b"\x7fELF");
    assert_eq!(elf[4], 2, "a 64-bit ELF file");
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([elf[at], elf[at + 1]]));
    let u32_at = |at: usize| u32::from_le_bytes(elf[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(elf[at..at + 8].try_into().unwrap());
    let phoff = u64_at(0x20) as usize;
    let (phentsize, phnum) = (u16_at(0x36), u16_at(0x38));
    (0..phnum)
        .map(|i| phoff + i * phentsize)
        .map(|at| (u32_at(at), u32_at(at + 4), u64_at(at + 8), u64_at(at + 0x30)))
        .collect()
}

/// Whether the build's rustc wrapper is `.cargo/link-sleuth-static`; not
/// when one from the environment replaced it.
#[cfg(target_os = "linux")]
fn built_through_our_wrapper() -> bool {
    std::env::var_os("RUSTC_WORKSPACE_WRAPPER").is_none()
}

/// The binary links statically exactly where `.cargo/link-sleuth-static`
/// says it can (a fast start, README "Usage"): a static PIE has no program
/// interpreter.
#[cfg(target_os = "linux")]
#[test]
fn binary_links_statically_where_glibc_allows() {
    if !built_through_our_wrapper() {
        return;
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.cargo/link-sleuth-static");
    let can = Command::new("sh").arg(&script).arg("--static-glibc").status().unwrap().success();
    const PT_INTERP: u32 = 3;
    let interp = sleuth_program_headers().iter().any(|&(kind, ..)| kind == PT_INTERP);
    assert_eq!(!interp, can, "statically linked: {}, static glibc available: {can}", !interp);
}

/// The binary's code starts at a 2 MiB boundary of the file and is loaded
/// at one (ARCHITECTURE.md, "The program file in the page cache"): the
/// kernel can then map 2 MiB of it with one page-table entry.
#[cfg(target_os = "linux")]
#[test]
fn binary_code_is_aligned_to_huge_pages() {
    if !built_through_our_wrapper() {
        return;
    }
    const PT_LOAD: u32 = 1;
    const PF_X: u32 = 1;
    const TWO_MIB: u64 = 2 << 20;
    let code: Vec<_> = sleuth_program_headers()
        .into_iter()
        .filter(|&(kind, flags, ..)| kind == PT_LOAD && flags & PF_X != 0)
        .collect();
    assert_eq!(code.len(), 1, "one executable segment: {code:?}");
    let (_, _, offset, align) = code[0];
    assert_eq!(offset % TWO_MIB, 0, "code at file offset {offset:#x}");
    assert!(align >= TWO_MIB, "segments aligned to {align:#x}");
}
