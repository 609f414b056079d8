//! `sleuth analyze`: the exact analysis, as text or as the `--json` contract.

use crate::count_progress::Counting;
use crate::input::{counted, load_game};
use crate::notepad::TOP_CASE_FILES;
use crate::output::{
    deck_name, describe_cards, fine_percent, group_digits, plural, viewpoint, write_conflict, write_json, write_more,
};
use crate::Outcome;
use sleuth_core::{wire, Analysis, Card, Game, Place, Status};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game file (JSON, format version 1); '-' reads standard input.
    game: PathBuf,
    /// Print the JSON output contract of docs/game-format.md instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let game = load_game(&args.game)?;
    let counting = Counting::new()?;
    let analysis = counted(&args.game, Analysis::with_options(&game, &counting.options()))?;
    drop(counting);
    if args.json {
        write_json(out, &wire::Analysis::new(&game, &analysis))?;
    } else {
        write_text(out, &game, &analysis)?;
    }
    Ok(if analysis.is_consistent() { Outcome::Success } else { Outcome::Inconsistent })
}

fn write_text(out: &mut dyn Write, game: &Game, analysis: &Analysis) -> std::io::Result<()> {
    let deck = game.deck();
    let n = game.events().len();
    writeln!(out, "{}, {n} event{}, {}", viewpoint(game), plural(n), deck_name(game))?;
    if !analysis.is_consistent() {
        return write_conflict(out, game, analysis.conflict());
    }
    let total = analysis.consistent_deals();
    writeln!(out, "consistent: yes, {} consistent deal{} (exact count)", group_digits(total), plural(total))?;

    writeln!(out, "\nknown cards:")?;
    for place in game.places() {
        let known: Vec<&str> =
            deck.cards().filter(|&c| analysis.status(c, place) == Status::Yes).map(|c| deck.id(c)).collect();
        let size = match place {
            Place::Player(p) => game.hand_size(p),
            Place::CaseFile => deck.num_categories(),
        };
        let name = if place == Place::CaseFile { "case file" } else { game.place_id(place) };
        let list = if known.is_empty() { "-".to_string() } else { known.join(", ") };
        writeln!(out, "  {name}: {list} ({} of {size} known)", known.len())?;
    }

    writeln!(out, "\ncase file, by category:")?;
    for cat in deck.categories() {
        let mut cands: Vec<(Card, u128)> = deck
            .category_cards(cat)
            .iter()
            .map(|c| (c, analysis.count(c, Place::CaseFile)))
            .filter(|&(_, k)| k > 0)
            .collect();
        cands.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let list: Vec<String> =
            cands.iter().map(|&(c, k)| format!("{} {}", deck.id(c), fine_percent(k, total))).collect();
        writeln!(out, "  {}: {}", deck.category_name(cat), list.join(", "))?;
    }

    let case_files: Vec<(&[Card], u128)> = analysis.case_files().collect();
    if analysis.case_files_listed() {
        writeln!(out, "\nmost likely case files ({} possible):", group_digits(case_files.len() as u128))?;
        for (cards, k) in case_files.iter().take(TOP_CASE_FILES) {
            writeln!(out, "  {:>6}  {}", fine_percent(*k, total), describe_cards(game, cards))?;
        }
        write_more(out, case_files.len(), TOP_CASE_FILES)?;
    } else {
        writeln!(out, "\ntoo many possible case files to list; the probabilities above are exact")?;
    }
    let open = deck
        .cards()
        .filter(|&c| !game.face_up().contains(c) && game.places().all(|p| analysis.status(c, p) != Status::Yes))
        .count();
    writeln!(out, "\n{open} card{} not yet placed with certainty", plural(open as u128))?;
    Ok(())
}
