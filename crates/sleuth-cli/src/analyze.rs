//! `sleuth analyze`: the exact analysis, as text or as the `--json` contract.

use crate::input::{counted, load_game};
use crate::notepad::describe_cards;
use crate::output::{
    deck_name, fine_percent, group_digits, places, push_json_count, push_json_f64, push_json_str, push_json_str_array,
    viewpoint, write_conflict,
};
use crate::Outcome;
use sleuth_core::{Analysis, Card, Game, Place, Status};
use std::fmt::Write as _;
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
    crate::count_progress::install();
    let game = load_game(&args.game)?;
    let analysis = counted(&args.game, Analysis::new(&game))?;
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
    // Written straight into one buffer: on master decks the output runs to
    // 100 KB (the case-file list), and a string per value cost more than
    // the analysis of small states.
    let deck = game.deck();
    let places = places(game);
    // Each place's key as written in a row, escaped once: `"p1": `, then
    // `, "p2": ` and so on (three tables of cards × places).
    let keys: Vec<String> = places
        .iter()
        .enumerate()
        .map(|(j, &(_, id))| {
            let mut key = String::from(if j == 0 { "" } else { ", " });
            push_json_str(&mut key, id);
            key.push_str(": ");
            key
        })
        .collect();
    // Each card's id as a JSON string, escaped once: the case-file list
    // names up to three cards per file, and bystanders' lists run to
    // hundreds of files.
    let ids: Vec<String> = deck
        .cards()
        .map(|c| {
            let mut id = String::new();
            push_json_str(&mut id, deck.id(c));
            id
        })
        .collect();
    let files = analysis.case_files().count();
    let mut out = String::with_capacity(1024 + deck.len() * places.len() * 48 + files * 96);
    out.push_str("{\n");
    let mut first = true;
    let mut field = |out: &mut String, key: &str| {
        out.push_str(if first { "  " } else { ",\n  " });
        first = false;
        push_json_str(out, key);
        out.push_str(": ");
    };
    field(&mut out, "consistent");
    out.push_str(if analysis.is_consistent() { "true" } else { "false" });
    if !analysis.is_consistent() {
        let (events, hand, minimum) = match analysis.conflict() {
            Some(c) => (c.events.clone(), c.hand, c.minimum),
            None => (Vec::new(), false, false),
        };
        field(&mut out, "conflict");
        let list: Vec<String> = events.iter().map(usize::to_string).collect();
        let _ = write!(out, "[{}]", list.join(", "));
        field(&mut out, "conflict_hand");
        let _ = write!(out, "{hand}");
        field(&mut out, "conflict_minimum");
        let _ = write!(out, "{minimum}");
    }
    field(&mut out, "models");
    push_json_count(&mut out, analysis.models());
    field(&mut out, "method");
    out.push_str("\"exact\"");
    field(&mut out, "places");
    push_json_str_array(&mut out, places.iter().map(|&(_, id)| id));

    let per_card = |out: &mut String, cell: &dyn Fn(&mut String, Card, Place)| {
        out.push_str("{\n");
        for (i, c) in deck.cards().enumerate() {
            out.push_str(if i == 0 { "    " } else { ",\n    " });
            out.push_str(&ids[c.index()]);
            out.push_str(": {");
            for (&(p, _), key) in places.iter().zip(&keys) {
                out.push_str(key);
                cell(out, c, p);
            }
            out.push('}');
        }
        out.push_str("\n  }");
    };
    field(&mut out, "probabilities");
    per_card(&mut out, &|out, c, p| push_json_f64(out, analysis.probability(c, p)));
    field(&mut out, "status");
    per_card(&mut out, &|out, c, p| push_json_str(out, analysis.status(c, p).as_str()));
    field(&mut out, "models_by_place");
    per_card(&mut out, &|out, c, p| push_json_count(out, analysis.count(c, p)));

    let total = analysis.models();
    field(&mut out, "case_file");
    let mut files = analysis.case_files().peekable();
    if files.peek().is_none() {
        out.push_str("[]");
    } else {
        out.push_str("[\n");
        for (i, (cards, n)) in files.enumerate() {
            out.push_str(if i == 0 { "    {\"cards\": [" } else { ",\n    {\"cards\": [" });
            for (j, c) in cards.iter().enumerate() {
                if j > 0 {
                    out.push_str(", ");
                }
                out.push_str(&ids[c.index()]);
            }
            out.push_str("], \"probability\": ");
            push_json_f64(&mut out, sleuth_core::analysis::ratio(n, total));
            out.push_str(", \"models\": ");
            push_json_count(&mut out, n);
            out.push('}');
        }
        out.push_str("\n  ]");
    }
    if !analysis.case_files_listed() {
        // Too many to list: `case_file` is empty and says so.
        field(&mut out, "case_file_omitted");
        out.push_str("true");
    }
    field(&mut out, "face_up");
    push_json_str_array(&mut out, game.face_up().iter().map(|c| deck.id(c)));
    out.push_str("\n}\n");
    out
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
