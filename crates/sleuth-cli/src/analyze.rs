//! `sleuth analyze`: the exact analysis, as text or as the `--json` contract.

use crate::input::{in_file, load_game};
use crate::notepad::describe_cards;
use crate::output::{
    deck_name, fine_percent, group_digits, json_f64, json_object, json_str, json_str_array, places, viewpoint,
    write_conflict,
};
use crate::Outcome;
use sleuth_core::{Analysis, Card, Game, Place, Status};
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
    let analysis = in_file(&args.game, Analysis::new(&game))?;
    if args.json {
        out.write_all(to_json(&game, &analysis).as_bytes())?;
    } else {
        write_text(out, &game, &analysis)?;
    }
    Ok(if analysis.is_consistent() { Outcome::Success } else { Outcome::Inconsistent })
}

/// The analysis as JSON: the keys of the output contract, then optional
/// extras (`conflict_hand`, `conflict_minimum`, `models_by_place`,
/// `case_file[].models`, `face_up`, and `case_file_omitted: true` when there
/// are too many possible case files to list), one card per line.
pub fn to_json(game: &Game, analysis: &Analysis) -> String {
    let deck = game.deck();
    let places = places(game);
    let mut fields: Vec<(String, String)> = Vec::new();
    fields.push(("consistent".into(), analysis.is_consistent().to_string()));
    if !analysis.is_consistent() {
        let (events, hand, minimum) = match analysis.conflict() {
            Some(c) => (c.events.clone(), c.hand, c.minimum),
            None => (Vec::new(), false, false),
        };
        let list: Vec<String> = events.iter().map(usize::to_string).collect();
        fields.push(("conflict".into(), format!("[{}]", list.join(", "))));
        fields.push(("conflict_hand".into(), hand.to_string()));
        fields.push(("conflict_minimum".into(), minimum.to_string()));
    }
    fields.push(("models".into(), json_str(&analysis.models().to_string())));
    fields.push(("method".into(), json_str("exact")));
    fields.push(("places".into(), json_str_array(places.iter().map(|&(_, id)| id))));

    let per_card = |cell: &dyn Fn(Card, Place) -> String| -> String {
        let rows: Vec<String> = deck
            .cards()
            .map(|c| {
                let obj = json_object(places.iter().map(|&(p, id)| (id.to_string(), cell(c, p))));
                format!("    {}: {obj}", json_str(deck.id(c)))
            })
            .collect();
        format!("{{\n{}\n  }}", rows.join(",\n"))
    };
    fields.push(("probabilities".into(), per_card(&|c, p| json_f64(analysis.probability(c, p)))));
    fields.push(("status".into(), per_card(&|c, p| json_str(analysis.status(c, p).as_str()))));
    fields.push(("models_by_place".into(), per_card(&|c, p| json_str(&analysis.count(c, p).to_string()))));

    let total = analysis.models();
    let case_files: Vec<String> = analysis
        .case_files()
        .map(|(cards, n)| {
            let ids = json_str_array(cards.iter().map(|&c| deck.id(c)));
            let p = json_f64(sleuth_core::analysis::ratio(n, total));
            format!("    {{\"cards\": {ids}, \"probability\": {p}, \"models\": {}}}", json_str(&n.to_string()))
        })
        .collect();
    let case_files =
        if case_files.is_empty() { "[]".to_string() } else { format!("[\n{}\n  ]", case_files.join(",\n")) };
    fields.push(("case_file".into(), case_files));
    if !analysis.case_files_listed() {
        // Too many to list: `case_file` is empty and says so.
        fields.push(("case_file_omitted".into(), "true".into()));
    }
    fields.push(("face_up".into(), json_str_array(game.face_up().iter().map(|c| deck.id(c)))));

    let body: Vec<String> = fields.iter().map(|(k, v)| format!("  {}: {v}", json_str(k))).collect();
    format!("{{\n{}\n}}\n", body.join(",\n"))
}

fn write_text(out: &mut dyn Write, game: &Game, analysis: &Analysis) -> std::io::Result<()> {
    let deck = game.deck();
    let n = game.events().len();
    writeln!(out, "{}, {n} event{}, {}", viewpoint(game), if n == 1 { "" } else { "s" }, deck_name(game))?;
    if !analysis.is_consistent() {
        return write_conflict(out, game, analysis.conflict());
    }
    let total = analysis.models();
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
    if !analysis.case_files_listed() {
        writeln!(out, "\ntoo many possible case files to list; the probabilities above are exact")?;
    }
    writeln!(out, "\nmost likely case files ({} possible):", group_digits(case_files.len() as u128))?;
    for (cards, k) in case_files.iter().take(5) {
        writeln!(out, "  {:>6}  {}", fine_percent(*k, total), describe_cards(game, cards))?;
    }
    let open = deck
        .cards()
        .filter(|&c| !game.face_up().contains(c) && game.places().all(|p| analysis.status(c, p) != Status::Yes))
        .count();
    writeln!(out, "\n{open} card{} not yet placed with certainty", plural(open as u128))?;
    Ok(())
}

fn plural(n: u128) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
