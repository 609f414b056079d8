//! The exact counter's state limit for this process: what
//! `SLEUTH_MAX_STATES` says, or what the memory the process may use holds.
//! The core counts within whatever limit it is given; the command line
//! measures it, so that a count too large for the machine is refused
//! (exit 2) instead of pushing it into swap or dying for want of memory.
//!
//! The memory is the least of what Linux reports as available
//! (`MemAvailable`), the address space left under `ulimit -v`
//! (`RLIMIT_AS`), and what the process's cgroup (v2 `memory.max`, v1
//! `memory.limit_in_bytes`) has left. Half of it goes to the count's tables
//! at `sleuth_core::count::BYTES_PER_STATE`, the rest to everything else
//! (the index of the largest layer while it grows, the case-file sweeps).

use sleuth_core::count::{states_for_memory, MAX_STATES, MAX_STATE_LIMIT};
use std::path::Path;

/// The environment variable that sets another state limit, for a machine
/// with more or less memory than the measure assumes (and for tests that
/// take a game past the limit without a minute of counting).
pub const STATE_LIMIT_ENV: &str = "SLEUTH_MAX_STATES";

/// The least limit that the memory available alone sets: on a machine
/// with little memory free, a count may still take what the page cache
/// and swap give back (a hard limit, `ulimit -v` or a cgroup, may set a
/// lower one).
const MIN_STATES: usize = 20_000_000;

/// The state limit [`STATE_LIMIT_ENV`] sets: `Ok(None)` when it is unset, an
/// error in words when it is not a number from 1 to `MAX_STATE_LIMIT`.
pub fn from_env() -> Result<Option<usize>, String> {
    let Some(text) = std::env::var_os(STATE_LIMIT_ENV) else { return Ok(None) };
    let text = text.to_string_lossy();
    match text.trim().replace('_', "").parse::<usize>() {
        Ok(n) if (1..=MAX_STATE_LIMIT).contains(&n) => Ok(Some(n)),
        _ => Err(format!(
            "{STATE_LIMIT_ENV}={text:?}: expected a number of states from 1 to {MAX_STATE_LIMIT} (default {MAX_STATES}, fewer where memory is short)"
        )),
    }
}

/// The state limit of this process: [`STATE_LIMIT_ENV`]'s, or what its
/// memory holds ([`for_memory`] of [`Memory::measure`]).
///
/// # Errors
/// When [`STATE_LIMIT_ENV`] is set but not a valid limit.
pub fn max_states() -> anyhow::Result<usize> {
    match from_env().map_err(anyhow::Error::msg)? {
        Some(limit) => Ok(limit),
        None => Ok(for_memory(&Memory::measure())),
    }
}

/// What the process may use, as far as it can be read (`None`: unknown or
/// unlimited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// The memory available to a new process (Linux's `MemAvailable`).
    pub available: Option<u64>,
    /// What a hard limit leaves: the address space under `RLIMIT_AS` less
    /// what the process maps now, or the cgroup's limit less its usage,
    /// whichever is less.
    pub hard: Option<u64>,
}

impl Memory {
    /// Reads the memory this process may use.
    pub fn measure() -> Memory {
        let hard = [address_space_left(), cgroup_left()].into_iter().flatten().min();
        Memory { available: mem_available(), hard }
    }
}

/// The state limit for `memory`: as many states as half the memory
/// available holds, from [`MIN_STATES`] to `MAX_STATES`, and never more
/// than half of what a hard limit leaves holds, however few.
pub fn for_memory(memory: &Memory) -> usize {
    let half = |bytes: u64| states_for_memory(bytes / 2);
    let soft = memory.available.map_or(MAX_STATES, half).clamp(MIN_STATES, MAX_STATES);
    memory.hard.map_or(soft, |hard| soft.min(half(hard)))
}

/// Linux's `MemAvailable`, in bytes.
fn mem_available() -> Option<u64> {
    kib_field(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemAvailable:")
}

/// The address space left under the soft `RLIMIT_AS` (`ulimit -v`).
#[cfg(unix)]
fn address_space_left() -> Option<u64> {
    let limit = rustix::process::getrlimit(rustix::process::Resource::As).current?;
    // Where the mapped size cannot be read, the whole limit.
    let mapped = std::fs::read_to_string("/proc/self/status").ok().and_then(|s| kib_field(&s, "VmSize:")).unwrap_or(0);
    Some(limit.saturating_sub(mapped))
}

#[cfg(not(unix))]
fn address_space_left() -> Option<u64> {
    None
}

/// The memory left to the process's cgroup: its limit less its usage
/// (page cache it can reclaim, `inactive_file`, counted as free), the
/// least over the cgroup and its ancestors (v2), or of the memory
/// controller's group (v1).
fn cgroup_left() -> Option<u64> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    cgroup_left_in(Path::new("/sys/fs/cgroup"), &membership)
}

/// [`cgroup_left`] with the cgroup file system at `root` and the lines of
/// `/proc/self/cgroup`.
fn cgroup_left_in(root: &Path, membership: &str) -> Option<u64> {
    let mut left: Option<u64> = None;
    for line in membership.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (fields.next(), fields.next(), fields.next()) else {
            continue;
        };
        let path = path.trim_start_matches('/');
        let found = if id == "0" && controllers.is_empty() {
            // v2: the group and every ancestor up to the root may limit it.
            let mut dir = root.join(path);
            let mut least: Option<u64> = None;
            loop {
                let here = room(&dir, "memory.max", "memory.current", "inactive_file");
                least = [least, here].into_iter().flatten().min();
                if dir == root || !dir.pop() {
                    break;
                }
            }
            least
        } else if controllers.split(',').any(|c| c == "memory") {
            // v1: the group's directory under the controller's mount, or
            // its root where a namespace shows the group as the root.
            let base = root.join("memory");
            [base.join(path), base]
                .iter()
                .find_map(|dir| room(dir, "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"))
        } else {
            None
        };
        left = [left, found].into_iter().flatten().min();
    }
    left
}

/// What a cgroup directory's limit leaves: the limit file less the usage
/// file, plus the reclaimable page cache from `memory.stat`; `None` where
/// there is no limit (`max`, or a v1 limit of nearly 2^63).
fn room(dir: &Path, limit: &str, usage: &str, inactive: &str) -> Option<u64> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let limit: u64 = read(limit)?.trim().parse().ok()?;
    if limit >= 1 << 62 {
        return None;
    }
    let used: u64 = read(usage).and_then(|s| s.trim().parse().ok()).unwrap_or(0);
    let reclaimable = read("memory.stat")
        .and_then(|stat| {
            stat.lines().find_map(|l| l.strip_prefix(inactive)?.strip_prefix(' ')?.trim().parse::<u64>().ok())
        })
        .unwrap_or(0);
    Some(limit.saturating_sub(used.saturating_sub(reclaimable)))
}

/// The value in bytes of a `/proc` line such as `MemAvailable:  1234 kB`.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GB: u64 = 1_000_000_000;

    /// Half the memory available, between the floor and the default; a
    /// hard limit below that wins, however low.
    #[test]
    fn the_limit_follows_the_memory() {
        let limit = |available, hard| for_memory(&Memory { available, hard });
        assert_eq!(limit(None, None), MAX_STATES);
        assert_eq!(limit(Some(0), None), MIN_STATES);
        assert_eq!(limit(Some(GB), None), MIN_STATES);
        assert_eq!(limit(Some(10 * GB), None), 71_428_571);
        assert_eq!(limit(Some(100 * GB), None), MAX_STATES);
        assert_eq!(limit(Some(u64::MAX), None), MAX_STATES);
        // `ulimit -v 300000`: 307 MB of address space, some of it mapped.
        assert_eq!(limit(Some(100 * GB), Some(280_000_000)), 2_000_000);
        assert_eq!(limit(None, Some(0)), 1);
        assert_eq!(limit(Some(GB), Some(10 * GB)), MIN_STATES);
    }

    #[test]
    fn proc_fields_read_in_bytes() {
        let meminfo = "MemTotal:       32780436 kB\nMemFree:  123 kB\nMemAvailable:   21035324 kB\n";
        assert_eq!(kib_field(meminfo, "MemAvailable:"), Some(21_035_324 * 1024));
        assert_eq!(kib_field(meminfo, "VmSize:"), None);
        assert_eq!(kib_field("VmSize:\t  12 kB", "VmSize:"), Some(12 * 1024));
    }

    /// cgroup v2 and v1 trees written out: the least room over the group
    /// and its ancestors, reclaimable cache counted free, and no limit
    /// where the files say `max` or nearly 2^63.
    #[test]
    fn cgroup_limits_are_read_in_both_versions() {
        let root = tempfile::tempdir().expect("a temporary directory");
        let write = |path: &str, text: &str| {
            let path = root.path().join(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("creates");
            std::fs::write(path, text).expect("writes");
        };
        // v2: the parent limits to 1 GB with 300 MB used (100 MB of it
        // cache); the group itself has no limit.
        write("app.slice/memory.max", "1000000000\n");
        write("app.slice/memory.current", "300000000\n");
        write("app.slice/memory.stat", "anon 200000000\ninactive_file 100000000\nactive_file 0\n");
        write("app.slice/run.scope/memory.max", "max\n");
        write("app.slice/run.scope/memory.current", "5000\n");
        assert_eq!(cgroup_left_in(root.path(), "0::/app.slice/run.scope\n"), Some(800_000_000));
        assert_eq!(cgroup_left_in(root.path(), "0::/elsewhere\n"), None);
        // v1: the memory controller's group, and the namespace's root.
        write("memory/job/memory.limit_in_bytes", "4000000000\n");
        write("memory/job/memory.usage_in_bytes", "1000000000\n");
        write("memory/job/memory.stat", "cache 0\ntotal_inactive_file 500000000\n");
        let v1 = "4:memory:/job\n3:cpuset:/\n0::/\n";
        assert_eq!(cgroup_left_in(root.path(), v1), Some(3_500_000_000));
        write("memory/memory.limit_in_bytes", "9223372036854771712\n");
        assert_eq!(cgroup_left_in(root.path(), "4:memory:/hidden\n0::/\n"), None);
        write("memory/memory.limit_in_bytes", "2000000000\n");
        write("memory/memory.usage_in_bytes", "500000000\n");
        assert_eq!(cgroup_left_in(root.path(), "4:cpu,memory:/hidden\n"), Some(1_500_000_000));
    }
}
