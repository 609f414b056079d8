//! Whole-process wall time of command lines, run interleaved: each round
//! runs every command once, standard output and error to /dev/null. Prints
//! the median and the fastest run of each (a tool for start-up costs, such
//! as `sleuth` against `sleuth-full`; ARCHITECTURE.md, "Two programs").
//!
//! ```sh
//! cargo run --release -p sleuth-cli --example start_time -- 1000 \
//!     'target/release/sleuth --version' 'target/release/sleuth-full --version'
//! ```
//!
//! Arguments are split on spaces (no quoting inside a command line).

use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((rounds, commands)) = args.split_first().and_then(|(n, c)| Some((n.parse::<usize>().ok()?, c))) else {
        eprintln!("usage: start_time ROUNDS 'COMMAND ARGS...' ...");
        return ExitCode::from(2);
    };
    if rounds == 0 || commands.is_empty() {
        eprintln!("usage: start_time ROUNDS 'COMMAND ARGS...' ...");
        return ExitCode::from(2);
    }
    let mut times = vec![Vec::with_capacity(rounds); commands.len()];
    for _ in 0..rounds {
        for (c, line) in commands.iter().enumerate() {
            let mut words = line.split_whitespace();
            let mut command = Command::new(words.next().unwrap_or_default());
            command.args(words).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
            let start = Instant::now();
            match command.status() {
                Ok(_) => times[c].push(start.elapsed().as_secs_f64() * 1e3),
                Err(e) => {
                    eprintln!("cannot run {line}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    for (line, t) in commands.iter().zip(&mut times) {
        t.sort_by(f64::total_cmp);
        println!("{:>8.3} ms median {:>8.3} ms fastest  {line}", t[t.len() / 2], t[0]);
    }
    ExitCode::SUCCESS
}
