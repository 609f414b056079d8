//! Regression tests from the seed papers in ../shared/seeds.

use crate::support::{analyse, assert_matches, enumerate_pruned};
use sleuth_core::count::count;
use sleuth_core::CountOptions;
use sleuth_core::{CountProblem, Game, Place, Status};

/// `cr.suggest(suggester, card1, card2, card3, refuter, cardShown)`.
type Call = (&'static str, [&'static str; 3], Option<&'static str>, Option<&'static str>);

/// The sample game of clue-deduction-sat.txt, section 8 ("Test the
/// ClueReasoner with a sample game"), transcribed call by call:
/// `cr.suggest(suggester, card1, card2, card3, refuter, cardShown)`.
/// Players in turn order Scarlet, Mustard, White, Green, Peacock, Plum;
/// the observer is Scarlet with White, library and study.
const SAT_SAMPLE_SUGGESTIONS: [Call; 27] = [
    ("sc", ["sc", "ro", "lo"], Some("mu"), Some("sc")),
    ("mu", ["pe", "pi", "di"], Some("pe"), None),
    ("wh", ["mu", "re", "ba"], Some("pe"), None),
    ("gr", ["wh", "kn", "ba"], Some("pl"), None),
    ("pe", ["gr", "ca", "di"], Some("wh"), None),
    ("pl", ["wh", "wr", "st"], Some("sc"), Some("wh")),
    ("sc", ["pl", "ro", "co"], Some("mu"), Some("pl")),
    ("mu", ["pe", "ro", "ba"], Some("wh"), None),
    ("wh", ["mu", "ca", "st"], Some("gr"), None),
    ("gr", ["pe", "kn", "di"], Some("pe"), None),
    ("pe", ["mu", "pi", "di"], Some("pl"), None),
    ("pl", ["gr", "kn", "co"], Some("wh"), None),
    ("sc", ["pe", "kn", "lo"], Some("mu"), Some("lo")),
    ("mu", ["pe", "kn", "di"], Some("wh"), None),
    ("wh", ["pe", "wr", "ha"], Some("gr"), None),
    ("gr", ["wh", "pi", "co"], Some("pl"), None),
    ("pe", ["sc", "pi", "ha"], Some("mu"), None),
    ("pl", ["pe", "pi", "ba"], None, None),
    ("sc", ["wh", "pi", "ha"], Some("pe"), Some("ha")),
    ("wh", ["pe", "pi", "ha"], Some("pe"), None),
    ("pe", ["pe", "pi", "ha"], None, None),
    ("sc", ["gr", "pi", "st"], Some("wh"), Some("gr")),
    ("mu", ["pe", "pi", "ba"], Some("pl"), None),
    ("wh", ["pe", "pi", "st"], Some("sc"), Some("st")),
    ("gr", ["wh", "pi", "st"], Some("sc"), Some("wh")),
    ("pe", ["wh", "pi", "st"], Some("sc"), Some("wh")),
    ("pl", ["pe", "pi", "ki"], Some("gr"), None),
];

fn json_str(s: Option<&str>) -> String {
    s.map_or("null".to_string(), |s| format!("\"{s}\""))
}

/// The sample game as a game file; with `accusation`, the final
/// `cr.accuse("sc", "pe", "pi", "bi", true)` too.
fn sat_sample(accusation: bool) -> String {
    let mut events: Vec<String> = SAT_SAMPLE_SUGGESTIONS
        .iter()
        .map(|(by, [a, b, c], refuter, shown)| {
            let shown = shown.map(|s| format!(", \"shown\": \"{s}\"")).unwrap_or_default();
            format!(
                r#"{{"suggestion": {{"by": "{by}", "cards": ["{a}", "{b}", "{c}"], "refuted_by": {}{shown}}}}}"#,
                json_str(*refuter)
            )
        })
        .collect();
    if accusation {
        events.push(r#"{"accusation": {"by": "sc", "cards": ["pe", "pi", "bi"], "correct": true}}"#.into());
    }
    format!(
        r#"{{"version": 1, "deck": "classic", "players": ["sc", "mu", "wh", "gr", "pe", "pl"],
            "me": "sc", "hand": ["wh", "li", "st"], "events": [{}]}}"#,
        events.join(",\n")
    )
}

#[test]
fn sat_sample_game_determines_every_card() {
    let game = Game::from_json(&sat_sample(false)).expect("the sample game is valid");
    assert_eq!(game.events().len(), 27);
    let analysis = analyse(&game);
    assert_eq!(analysis.consistent_deals(), 1, "exactly one deal fits the sample game");
    for card in game.deck().cards() {
        let statuses: Vec<Status> = game.places().map(|p| analysis.status(card, p)).collect();
        assert!(statuses.iter().all(|&s| s != Status::Maybe), "{}: {statuses:?}", game.deck().id(card));
        let yes = statuses.iter().filter(|&&s| s == Status::Yes).count();
        assert_eq!(yes, 1, "{} is at exactly one place", game.deck().id(card));
    }
    let case: Vec<(Vec<&str>, u128)> =
        analysis.case_files().map(|(cards, n)| (cards.iter().map(|&c| game.deck().id(c)).collect(), n)).collect();
    assert_eq!(case, vec![(vec!["pe", "pi", "bi"], 1)]);
    for id in ["pe", "pi", "bi"] {
        let card = game.deck().card(id).unwrap();
        assert_eq!(analysis.fraction(card, Place::CaseFile), (1, 1));
    }
    // The independent enumerator finds the same single deal.
    let oracle = enumerate_pruned(&game, 50_000_000).expect("the evidence prunes the search");
    assert_matches(&game, &analysis, &oracle, "SAT sample");

    // The final, correct accusation agrees.
    let game = Game::from_json(&sat_sample(true)).expect("valid");
    let after = analyse(&game);
    assert_eq!(after.consistent_deals(), 1);
    assert_eq!(after.counts(), analysis.counts());
}

#[test]
fn sat_sample_matches_the_cli_testdata_file() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/seed-sat-sample-before-accusation.json");
    let text = std::fs::read_to_string(&path).expect("the bundled example game is committed");
    let from_file = Game::from_json(&text).expect("the testdata file is valid");
    let inline = Game::from_json(&sat_sample(false)).unwrap();
    assert_eq!(from_file.events(), inline.events(), "{} transcribes the same events", path.display());
    assert_eq!(from_file.observer(), inline.observer());
}

/// The example of cluedo-clp-prolog.txt:
///
/// ```prolog
/// cluedo(4, [mustard, plum, game_room, garage], [dagger, courtyard],
///   [ yes(1, 3, [rope, green, study], rope),
///     yes(2, 1, [candlestick, plum, kitchen]),
///     no(3, [candlestick, green, living_room]),
///     no(4, [pistol, green, courtyard]) ], X).
/// ```
///
/// Player 1 is "you"; `yes(A, R, Cards[, Shown])`: A asked, R was the first
/// to respond; `no(A, Cards)`: nobody else could respond. The article's
/// "players in between" are those strictly between asker and responder
/// clockwise, as in Sleuth. (In `yes(2, 1, ...)` you refuted, but the card
/// you showed is not recorded, so `shown` is absent.)
const CLP_EXAMPLE: &str = r#"{
  "version": 1,
  "deck": {"categories": [
    {"name": "suspect", "cards": ["plum", "white", "scarlet", "green", "mustard", "peacock"]},
    {"name": "weapon", "cards": ["rope", "dagger", "wrench", "pistol", "candlestick", "lead_pipe"]},
    {"name": "room", "cards": ["courtyard", "game_room", "study", "dining_room", "garage",
                               "living_room", "kitchen", "bedroom", "bathroom"]}
  ]},
  "players": ["you", "p2", "p3", "p4"],
  "face_up": ["dagger", "courtyard"],
  "me": "you",
  "hand": ["mustard", "plum", "game_room", "garage"],
  "events": [
    {"suggestion": {"by": "you", "cards": ["rope", "green", "study"], "refuted_by": "p3", "shown": "rope"}},
    {"suggestion": {"by": "p2", "cards": ["candlestick", "plum", "kitchen"], "refuted_by": "you"}},
    {"suggestion": {"by": "p3", "cards": ["candlestick", "green", "living_room"], "refuted_by": null}},
    {"suggestion": {"by": "p4", "cards": ["pistol", "green", "courtyard"], "refuted_by": null}}
  ]
}"#;

/// testdata/seed-clp-example.json, the same game as a file for the command line.
fn clp_example_file() -> Game {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/seed-clp-example.json");
    let text = std::fs::read_to_string(&path).expect("the bundled example game is committed");
    Game::from_json(&text).expect("the testdata file is valid")
}

#[test]
fn clp_example_matches_the_testdata_file() {
    let from_file = clp_example_file();
    let inline = Game::from_json(CLP_EXAMPLE).expect("the CLP example is a valid game");
    assert_eq!(from_file.events(), inline.events());
    assert_eq!(from_file.observer(), inline.observer());
    assert_eq!(from_file.face_up(), inline.face_up());
    for p in inline.players() {
        assert_eq!(from_file.hand_size(p), inline.hand_size(p));
    }
}

/// The article concludes "Reverend Green with the candlestick in either the
/// bathroom, bedroom, kitchen, living room, dining room or study". The exact
/// count agrees on the set, and adds the odds: 3430 deals fit; Green and the
/// candlestick are in the case file in every one of them; the room is
///
/// | room        | deals | probability |
/// |-------------|-------|-------------|
/// | living room | 1120  | 16/49       |
/// | kitchen     |  700  | 10/49       |
/// | study       |  560  |  8/49       |
/// | dining room |  350  |  5/49       |
/// | bedroom     |  350  |  5/49       |
/// | bathroom    |  350  |  5/49       |
///
/// (checked by the independent pruned enumerator of `support`, by the
/// engine's marginals and by per-case-file counts with added facts).
#[test]
fn clp_example_case_files_agree_with_enumeration() {
    let game = clp_example_file();
    assert_eq!(game.hand_size(game.player("p2").unwrap()), 4);
    let analysis = analyse(&game);
    let oracle = enumerate_pruned(&game, 200_000_000).expect("the enumerator finishes");
    assert_matches(&game, &analysis, &oracle, "CLP example");

    // Per case file through the engine's own counter with added facts.
    let deck = game.deck();
    for (cards, &n) in &oracle.case_files {
        let mut problem = CountProblem::new(&game);
        for &c in cards {
            problem.add_fact(c, Place::CaseFile, true);
        }
        assert_eq!(
            count(&problem, &CountOptions::default()).unwrap(),
            n,
            "case file {:?}",
            deck.ids(cards.iter().copied().collect())
        );
    }

    let case: Vec<(String, u128)> = analysis
        .case_files()
        .map(|(cards, n)| (cards.iter().map(|&c| deck.id(c)).collect::<Vec<_>>().join(" "), n))
        .collect();
    let expected = [
        ("green candlestick living_room", 1120),
        ("green candlestick kitchen", 700),
        ("green candlestick study", 560),
        ("green candlestick dining_room", 350),
        ("green candlestick bedroom", 350),
        ("green candlestick bathroom", 350),
    ];
    let expected: Vec<(String, u128)> = expected.iter().map(|&(c, n)| (c.to_string(), n)).collect();
    assert_eq!(case, expected);
    assert_eq!(analysis.consistent_deals(), 3430);
    for id in ["green", "candlestick"] {
        assert_eq!(analysis.status(deck.card(id).unwrap(), Place::CaseFile), Status::Yes, "{id}");
    }
}
