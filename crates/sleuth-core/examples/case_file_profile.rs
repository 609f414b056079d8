//! The case-file part of the analysis on generated states, one line per
//! state: the CPU time of the count and of the count with the case files.
//!
//! Usage: case_file_profile DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [MIN_MS]

mod states;

use sleuth_core::count::{count_marginals, count_with_case_files};

/// This thread's time on a CPU so far, in ms (from the scheduler's
/// statistics: unlike wall time, it leaves out waiting for a core, so it
/// stays usable on a loaded machine).
fn cpu_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat");
    let ns: f64 = stat.split_whitespace().next().expect("a field").parse().expect("a number");
    ns / 1e6
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((states, rest)) = states::from_args(&args) else {
        eprintln!("usage: case_file_profile DECK PLAYERS observer|bystander SUGGESTIONS SEEDS [MIN_MS]");
        std::process::exit(2);
    };
    let min_ms: f64 = rest.first().map_or(0.0, |s| s.parse().expect("min ms"));
    for (seed, p) in states {
        let t = cpu_ms();
        let c = count_marginals(&p).expect("counts");
        let count_ms = cpu_ms() - t;
        let t = cpu_ms();
        let (_, files) = count_with_case_files(&p).expect("counts");
        let whole_ms = cpu_ms() - t;
        if whole_ms >= min_ms {
            let files = files.map(|f| f.len());
            println!(
                "seed {seed}: count {count_ms:.3} ms ({} states), whole {whole_ms:.3} ms, ratio {:.2}, case files {files:?}",
                c.states,
                whole_ms / count_ms
            );
        }
    }
}
