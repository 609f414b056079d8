//! `sleuth`: Sleuth's command line. It runs the subcommands that read a
//! game and answer at once, and hands the others to `sleuth-full`.
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    sleuth_cli::sleuth_main()
}
