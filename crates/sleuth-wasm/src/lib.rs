//! Sleuth's engine for JavaScript: game file text in, the command line's
//! `--json` text out, byte for byte (`sleuth analyze --json`, `why --json`,
//! `advise --json`, `check --json`), except that an advice entropy can
//! differ in its last bit (`log2` is the platform's: glibc natively, Rust's
//! libm in WebAssembly).
//!
//! The functions here are plain Rust and build natively too; [`abi`]
//! exports them to WebAssembly through a C ABI that `sleuth.mjs` (beside
//! this file) loads. An error is the message the command line prints for
//! the same game read from standard input, without its `error: <stdin>: `
//! prefix; the command's exit code 2. The JSON of a game with no consistent
//! deal is a result, not an error, as on the command line (exit code 3),
//! except for the advice, which refuses it.
//!
//! [`page::page`] answers the notepad page's requests for the offline app.

pub mod abi;
pub mod page;

use sleuth_core::advice::{advise as advice_for, AdviceError, AdviceOptions};
use sleuth_core::count::{states_for_memory, CountError};
use sleuth_core::wire::report::{self, ReportError};
use sleuth_core::{wire, Analysis, CountOptions, Game, GameFile};

/// The memory for the exact counter's tables: half of the 4 GiB that a
/// wasm32 memory can address, the rule the command line applies to the
/// memory it finds. A larger count is refused, not a trap.
const TABLE_BYTES: u64 = 2 << 30;

fn max_states() -> usize {
    states_for_memory(TABLE_BYTES)
}

fn options() -> CountOptions<'static> {
    CountOptions::new().max_states(max_states())
}

/// Reads and validates a game file's text.
fn game(text: &str) -> Result<Game, String> {
    let file = GameFile::from_json(text).map_err(|e| e.to_string())?;
    Game::new(&file).map_err(|e| e.to_string())
}

fn count_error(e: CountError) -> String {
    e.to_string()
}

fn report_error(e: ReportError) -> String {
    e.to_string()
}

/// `sleuth analyze --json`.
pub fn analyze(game_text: &str) -> Result<String, String> {
    let game = game(game_text)?;
    let analysis = Analysis::with_options(&game, &options()).map_err(count_error)?;
    Ok(report::to_text(&wire::Analysis::new(&game, &analysis)))
}

/// `sleuth why --json GAME CARD PLACE`: `place` is a player id or
/// `case_file`.
pub fn why(game_text: &str, card: &str, place: &str) -> Result<String, String> {
    let game = game(game_text)?;
    let card = report::find_card(&game, card).map_err(report_error)?;
    let place = report::find_place(&game, place).map_err(report_error)?;
    let options = options();
    let analysis = Analysis::with_options(&game, &options).map_err(count_error)?;
    Ok(report::to_text(&report::why(&game, &analysis, card, place, &options).map_err(report_error)?))
}

/// `sleuth advise --json` with its default options.
pub fn advise(game_text: &str) -> Result<String, String> {
    let game = game(game_text)?;
    let options = AdviceOptions { max_states: max_states(), ..AdviceOptions::default() };
    match advice_for(&game, &options) {
        Ok(advice) => Ok(report::to_text(&wire::Advice::new(&game, &advice))),
        // The command line's words for it (exit code 3 there).
        Err(e @ AdviceError::Inconsistent) => Err(format!("{e}; `sleuth notepad` names the conflicting events")),
        Err(e) => Err(e.to_string()),
    }
}

/// `sleuth check --json`. A game too large to count is an error here
/// (the command line prints `"consistent": null` before the same error).
pub fn check(game_text: &str) -> Result<String, String> {
    let game = game(game_text)?;
    report::check(&game, &options()).map(|check| report::to_text(&check)).map_err(|(_, e)| count_error(e))
}
