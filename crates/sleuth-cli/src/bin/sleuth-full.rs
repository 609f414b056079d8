//! `sleuth-full`: Sleuth's whole command line, every subcommand included
//! (the web server, simulations, experiments, benchmarks). `sleuth` hands
//! it the subcommands it does not run itself.
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    sleuth_cli::sleuth_full_main()
}
