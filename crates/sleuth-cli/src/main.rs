//! `sleuth`: Sleuth's command line, every subcommand (`sleuth --help`).
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    sleuth_cli::main()
}
