//! `sleuth why`: which events force a certain fact.

use crate::count_progress::Counting;
use crate::input::{in_file, load_game};
use crate::output::{cell_percent, explanation_lines, group_digits, plural, write_conflict, write_json};
use crate::Outcome;
use anyhow::bail;
use sleuth_core::{why, wire, Analysis, Card, CountOptions, Game, Place, Status, Why};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game file (JSON, format version 1); '-' reads standard input.
    game: PathBuf,
    /// A card id, e.g. 'pi'.
    card: String,
    /// A player id, or 'case_file'.
    place: String,
    /// Print JSON (docs/game-format.md: the status, the exact counts, and the
    /// events that force a certain fact) instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let game = load_game(&args.game)?;
    let card = find_card(&game, &args.card)?;
    let place = find_place(&game, &args.place)?;
    let counting = Counting::new()?;
    let analysis = crate::input::counted(&args.game, Analysis::with_options(&game, &counting.options()))?;
    if args.json {
        return json(args, out, &game, &analysis, card, place, &counting.options());
    }
    if !analysis.is_consistent() {
        write_conflict(out, &game, analysis.conflict())?;
        return Ok(Outcome::Inconsistent);
    }
    let card_id = game.deck().id(card);
    let fact = fact(&game, card, place, true);
    let status = analysis.status(card, place);
    if status == Status::Maybe {
        let (num, den) = analysis.fraction(card, place);
        writeln!(out, "not certain: {fact} with probability {}", cell_percent(num, den))?;
        writeln!(out, "(in {} of {} consistent deals)", group_digits(num), group_digits(den))?;
        return Ok(Outcome::NoResult);
    }
    let yes = status == Status::Yes;
    writeln!(out, "{}: {}", status.as_str(), fact_sentence(&game, card, place, yes))?;
    if game.face_up().contains(card) {
        writeln!(out, "{card_id} is face up: every player has seen it, and it is in no hand and not in the case file")?;
        return Ok(Outcome::Success);
    }
    let explanation = match in_file(&args.game, why(&game, card, place, &counting.options()))? {
        Why::Certain { explanation, .. } => explanation,
        // The analysis says the fact is certain, so this should not happen.
        _ => bail!("could not explain the fact; the exact counts disagree with each other"),
    };
    let lines = explanation_lines(&game, &explanation);
    if lines.is_empty() {
        writeln!(out, "it follows from the rules alone (deck, hand sizes and face-up cards), with no event")?;
    } else {
        let which = if explanation.minimum {
            "a smallest set, proven: no smaller set forces it"
        } else {
            "a minimal set: no item can be dropped, but the search for a smaller one ran out of budget"
        };
        writeln!(out, "forced by {} item{} ({which}):", lines.len(), plural(lines.len()))?;
        for line in &lines {
            writeln!(out, "  {line}")?;
        }
        if game.observer().is_some() && !explanation.hand {
            writeln!(out, "your hand is not needed")?;
        }
    }
    Ok(Outcome::Success)
}

/// `why --json`: the wire form, with the same exit codes as the text.
fn json(
    args: &Args,
    out: &mut dyn Write,
    game: &Game,
    analysis: &Analysis,
    card: Card,
    place: Place,
    options: &CountOptions<'_>,
) -> anyhow::Result<Outcome> {
    let report = in_file(&args.game, wire::report::why(game, analysis, card, place, options))?;
    write_json(out, &report)?;
    Ok(match (analysis.is_consistent(), report.reason.is_some()) {
        (false, _) => Outcome::Inconsistent,
        (true, false) => Outcome::NoResult,
        (true, true) => Outcome::Success,
    })
}

/// "`pi` is in the case file" / "mu holds `sc`".
fn fact(game: &Game, card: Card, place: Place, positive: bool) -> String {
    let id = game.deck().id(card);
    match (place, positive) {
        (Place::CaseFile, true) => format!("{id} is in the case file"),
        (Place::CaseFile, false) => format!("{id} is not in the case file"),
        (Place::Player(p), true) => format!("{} holds {id}", game.player_id(p)),
        (Place::Player(p), false) => format!("{} does not hold {id}", game.player_id(p)),
    }
}

fn fact_sentence(game: &Game, card: Card, place: Place, positive: bool) -> String {
    let name = game.deck().name(card);
    let id = game.deck().id(card);
    let f = fact(game, card, place, positive);
    if name == id {
        f
    } else {
        format!("{f} ({name})")
    }
}

pub(crate) fn find_card(game: &Game, id: &str) -> anyhow::Result<Card> {
    Ok(wire::report::find_card(game, id)?)
}

fn find_place(game: &Game, id: &str) -> anyhow::Result<Place> {
    Ok(wire::report::find_place(game, id)?)
}
