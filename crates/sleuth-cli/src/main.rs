//! `sleuth`: Sleuth's command line, every subcommand (`sleuth --help`).

fn main() -> std::process::ExitCode {
    sleuth_cli::main()
}
