//! The notepad in a real headless Chromium, driven by the scripts in
//! `e2e/` with playwright-core and the system's Chromium, each against its
//! own server on 127.0.0.1:
//! - `notepad.mjs`: the sample game of Neller et al. set up and played
//!   through the page, checked cell by cell against sleuth-core; why, undo,
//!   redo, edit, a contradiction, a reload, keyboard entry, a phone screen;
//! - `tabs.mjs`: two pages on one game (stale edit and delete refused and
//!   explained, polling) and double taps on "Add turn" and "Delete";
//! - `phone.mjs`: the phone flow (bottom bar, what a turn taught, why box
//!   and contradiction in view with the focus), my own turns, the one-tap
//!   refutation turn, and the same on a desktop;
//! - `games.mjs`: names, rename, delete, a clean "New game", and the "Join
//!   from a phone" panel;
//! - `offline.mjs`: the offline app (`crates/sleuth-wasm/build.sh
//!   target/wasm-app`, or `SLEUTH_APP_DIR`) from a static server, then with
//!   the network off: the sample game on a 360 px phone, the notepad after
//!   every turn, a what-if and a planned suggestion after turn 12 against
//!   sleuth-core's numbers, export, reload, undo and redo.
//! - `table.mjs`: at the table on 360 and 390 px phones: the case-file
//!   column legible, the view after a turn, Redo, the privacy hide, the
//!   collapsed case files, the game over, out after a wrong accusation, and
//!   the what-if's numbers against the game with the fact written as a turn;
//! - `progressive.mjs` (and `offline.mjs`, with `advice-progress.mjs`): a
//!   slow master 10-player advice firms up on the page, rankings of some
//!   suggestions with sleuth-core's numbers first, then sleuth-core's.
//!
//! Needs `node`, `e2e/node_modules/playwright-core` (`npm ci --prefix
//! crates/sleuth-web/e2e`) and Chromium (`/usr/bin/chromium`, or
//! `SLEUTH_CHROMIUM`), so the tests are ignored by a plain `cargo test` and
//! run with `cargo test -p sleuth-web --test it e2e -- --ignored` (as in
//! `.ci/run`); run so, a missing piece fails them.
//! `SLEUTH_SCREENSHOTS=DIR` saves the README's screenshots.

use crate::support::{sample_game, start, Server};
use sleuth_core::{Analysis, Game, Status};
use std::path::{Path, PathBuf};
use std::process::Command;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

/// What the page must show in a cell, by the rules of the page and the CLI.
fn cell_text(p: f64, status: Status) -> String {
    match status {
        Status::Yes => "O".into(),
        Status::No => "X".into(),
        Status::Maybe if p * 100.0 < 1.0 => "<1%".into(),
        Status::Maybe if p * 100.0 > 99.0 => ">99%".into(),
        Status::Maybe => format!("{}%", (p * 100.0).round()),
    }
}

/// The notepad of a game as `{card: {place: text}}`.
fn expected_notepad(game: &Game) -> serde_json::Value {
    let a = Analysis::new(game).unwrap();
    let deck = game.deck();
    let mut out = serde_json::Map::new();
    for card in deck.cards() {
        let row: serde_json::Map<String, serde_json::Value> = game
            .places()
            .map(|p| (game.place_id(p).to_string(), cell_text(a.probability(card, p), a.status(card, p)).into()))
            .collect();
        out.insert(deck.id(card).to_string(), row.into());
    }
    out.into()
}

/// The first of `candidates` that exists.
fn find(candidates: &[PathBuf]) -> Option<PathBuf> {
    candidates.iter().find(|p| p.exists()).cloned()
}

fn in_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .and_then(|paths| find(&std::env::split_paths(&paths).map(|d| d.join(name)).collect::<Vec<_>>()))
}

/// Runs `e2e/SCRIPT` against `server` with the environment the scripts
/// share (and `extra`); its standard output. Fails when the browser, node
/// or playwright-core is missing.
fn run_script(script: &str, server: &Server, extra: &[(&str, &Path)]) -> String {
    let url = format!("http://{}/", server.addr);
    run_node(script, &[("SLEUTH_URL", Path::new(&url))], extra)
}

/// Runs `e2e/SCRIPT` with `env` and `extra` in its environment, and the
/// sample game and the browser; its standard output.
fn run_node(script: &str, env: &[(&str, &Path)], extra: &[(&str, &Path)]) -> String {
    let chromium = match std::env::var_os("SLEUTH_CHROMIUM") {
        Some(p) => Some(PathBuf::from(p)),
        None => find(&["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].map(PathBuf::from)),
    };
    let chromium =
        chromium.filter(|p| p.exists()).expect("no Chromium: install the chromium package, or set SLEUTH_CHROMIUM");
    let node = in_path("node").expect("no node in PATH");
    let e2e = Path::new(DIR).join("e2e");
    assert!(
        e2e.join("node_modules/playwright-core/package.json").exists(),
        "playwright-core is not installed: npm ci --prefix crates/sleuth-web/e2e"
    );
    let mut cmd = Command::new(node);
    cmd.arg(e2e.join(script))
        .current_dir(&e2e)
        .env("SLEUTH_SAMPLE", Path::new(DIR).join("../../testdata/seed-sat-sample.json"))
        .env("SLEUTH_CHROMIUM", &chromium);
    for (k, v) in env.iter().chain(extra) {
        cmd.env(k, v);
    }
    if let Some(dir) = std::env::var_os("SLEUTH_SCREENSHOTS") {
        // Relative to where cargo runs the test: the crate's directory.
        cmd.env("SLEUTH_SCREENSHOTS", std::env::current_dir().unwrap().join(dir));
    }
    let out = cmd.output().expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the browser test {script} failed:\n{stdout}\n{stderr}");
    stdout
}

#[test]
#[ignore = "needs Chromium, node and playwright-core; run with --ignored (README, Development)"]
fn the_sample_game_through_the_page_in_headless_chromium() {
    let server = start(None);
    let game = Game::from_json(&sample_game().to_string()).unwrap();
    let expected = server.dir.path().join("expected.json");
    std::fs::write(&expected, expected_notepad(&game).to_string()).unwrap();
    let stdout = run_script("notepad.mjs", &server, &[("SLEUTH_EXPECTED", &expected)]);
    println!("e2e timings: {stdout}");

    // What the page confirmed is stored: a server started anew on the same
    // folder exports the sample game.
    crate::support::stop(server.addr);
    let again = crate::support::start_in(server.dir.path(), None);
    let list = crate::support::get(again, "/api/games").json();
    let id = list["games"][0]["id"].as_str().expect("a game");
    let export = crate::support::get(again, &format!("/api/games/{id}/export"));
    let stored = sleuth_core::GameFile::from_json(&export.body).unwrap();
    let mut sample = sleuth_core::GameFile::from_json(&sample_game().to_string()).unwrap();
    sample.hand_sizes = stored.hand_sizes.clone(); // the page writes the dealing rule's sizes out
    assert_eq!(stored, sample);
}

#[test]
#[ignore = "needs Chromium, node and playwright-core; run with --ignored (README, Development)"]
fn two_tabs_and_double_taps_in_headless_chromium() {
    let server = start(None);
    run_script("tabs.mjs", &server, &[]);
}

#[test]
#[ignore = "needs Chromium, node and playwright-core; run with --ignored (README, Development)"]
fn the_phone_flow_and_my_own_turns_in_headless_chromium() {
    let server = start(None);
    run_script("phone.mjs", &server, &[]);
}

#[test]
#[ignore = "needs Chromium, node and playwright-core; run with --ignored (README, Development)"]
fn the_game_list_and_joining_from_a_phone_in_headless_chromium() {
    let server = start(None);
    run_script("games.mjs", &server, &[]);
}

#[test]
#[ignore = "needs the built offline app, Chromium, node and playwright-core; run with --ignored (README, Development)"]
fn the_offline_app_on_a_phone_with_the_network_off_in_headless_chromium() {
    let app = match std::env::var_os("SLEUTH_APP_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(DIR).join("../../target/wasm-app"),
    };
    for file in ["index.html", "sw.js", "manifest.webmanifest", "sleuth.wasm", "sleuth.mjs", "local.mjs"] {
        assert!(
            app.join(file).exists(),
            "no {} in {}: build the offline app first (crates/sleuth-wasm/build.sh target/wasm-app, or set SLEUTH_APP_DIR)",
            file,
            app.display()
        );
    }
    // The notepad before the first turn and after each turn, as sleuth-core
    // computes it (the rules of `sleuth notepad`).
    let sample = sleuth_core::GameFile::from_json(&sample_game().to_string()).unwrap();
    let expected: Vec<serde_json::Value> = (0..=sample.events.len())
        .map(|n| {
            let file = sleuth_core::GameFile { events: sample.events[..n].to_vec(), ..sample.clone() };
            expected_notepad(&Game::new(&file).unwrap())
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let expected_path = dir.path().join("expected.json");
    std::fs::write(&expected_path, serde_json::Value::from(expected).to_string()).unwrap();
    let export = dir.path().join("export.json");
    let what_if = dir.path().join("what-if.json");
    std::fs::write(&what_if, what_if_expected().to_string()).unwrap();
    let stdout = run_node(
        "offline.mjs",
        &[
            ("SLEUTH_APP_DIR", &app),
            ("SLEUTH_EXPECTED", &expected_path),
            ("SLEUTH_EXPORT", &export),
            ("SLEUTH_WHAT_IF", &what_if),
            ("SLEUTH_RANKED", &ranked(dir.path())),
        ],
        &[],
    );
    println!("offline app: {stdout}");

    // The game file the page exported is the sample's.
    let exported = sleuth_core::GameFile::from_json(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let mut want = sample;
    want.hand_sizes = exported.hand_sizes.clone(); // the page writes the dealing rule's sizes out
    assert_eq!(exported, want);
}

/// `sleuth analyze --json` of a game file.
/// sleuth-core's ranking of `e2e/custom-4x8-slow-advice.json` (every
/// shortlisted suggestion, best first, with its information as the page
/// writes it) and how many the advice lists, written into `dir` for
/// `advice-progress.mjs`.
fn ranked(dir: &Path) -> PathBuf {
    let game =
        Game::from_json(&std::fs::read_to_string(Path::new(DIR).join("e2e/custom-4x8-slow-advice.json")).unwrap())
            .unwrap();
    let options = sleuth_core::advice::AdviceOptions::default();
    let position = sleuth_core::advice::Position::new(&game).unwrap();
    let mut ranked = position.rank_suggestions(options.shortlist).unwrap();
    let same = sleuth_core::advice::same_answers(&ranked, position.unshowable());
    let entries: Vec<serde_json::Value> = (ranked.iter().zip(&same))
        .map(|(e, same)| {
            let cards: Vec<&str> = e.cards.iter().map(|c| game.deck().id(c)).collect();
            serde_json::json!({"cards": cards.join(","), "information": format!("{:.2}", e.information), "same": same})
        })
        .collect();
    // The advice the page shows is the non-progressive one's: the best
    // `options.suggestions` choices, each with those of the same answers.
    let advice = sleuth_core::wire::view::advice(&game, 0, usize::MAX).unwrap().advice.unwrap();
    let listed: Vec<String> = advice.suggestions.iter().map(|s| s.cards.join(",")).collect();
    sleuth_core::advice::keep_distinct(&mut ranked, options.suggestions, position.unshowable());
    let want: Vec<String> =
        ranked.iter().map(|e| e.cards.iter().map(|c| game.deck().id(c)).collect::<Vec<_>>().join(",")).collect();
    assert_eq!(listed, want, "the advice lists the ranking's best");
    let choices = advice.suggestions.iter().filter(|s| s.same_answers_as.is_none()).count();
    let path = dir.join("ranked.json");
    std::fs::write(&path, serde_json::json!({"ranked": entries, "listed": choices}).to_string()).unwrap();
    path
}

#[test]
#[ignore = "needs Chromium, node and playwright-core; run with --ignored (README, Development)"]
fn the_advice_firms_up_in_headless_chromium() {
    let server = start(None);
    let dir = tempfile::tempdir().unwrap();
    let stdout = run_script("progressive.mjs", &server, &[("SLEUTH_RANKED", &ranked(dir.path()))]);
    println!("progressive advice: {stdout}");
}

fn analyze_json(file: &serde_json::Value) -> sleuth_core::wire::Analysis {
    let game = Game::from_json(&file.to_string()).unwrap();
    sleuth_core::wire::Analysis::new(&game, &Analysis::new(&game).unwrap())
}

/// The what-if the table and offline scripts make after the sample's first
/// 12 turns, and its exact answer: supposing mu holds the first card open at
/// mu is the game with "sc suggested it; mu showed it" added (mu sits right
/// after sc, so nobody passes), analysed as `sleuth analyze --json`
/// analyses it (`card`, `analysis`). And the planned suggestion: the
/// advice's best (`best`, as `sleuth advise --json` lists it, every answer
/// evaluated) and the game with its first answer added (`after`).
fn what_if_expected() -> serde_json::Value {
    let mut file = sample_game();
    file["events"] = serde_json::Value::Array(file["events"].as_array().unwrap()[..12].to_vec());
    let game = Game::from_json(&file.to_string()).unwrap();
    let a = Analysis::new(&game).unwrap();
    let advice = sleuth_core::wire::view::advice(&game, 12, usize::MAX).unwrap().advice.unwrap();
    let best = advice.suggestions[0].clone();
    let first = &best.outcomes[0];
    let mut planned = serde_json::json!({"by": "sc", "cards": best.cards, "refuted_by": first.refuter});
    if let Some(shown) = &first.shown {
        planned["shown"] = shown.as_str().into();
    }
    let mut after = file.clone();
    after["events"].as_array_mut().unwrap().push(serde_json::json!({ "suggestion": planned }));

    let mu = game.place("mu").unwrap();
    let card = game.deck().cards().find(|&c| a.status(c, mu) == Status::Maybe).expect("a card open at mu");
    let mut cards = ["pl", "kn", "ha"];
    cards[game.deck().category(card).index()] = game.deck().id(card);
    let card = game.deck().id(card);
    file["events"].as_array_mut().unwrap().push(serde_json::json!(
        {"suggestion": {"by": "sc", "cards": cards, "refuted_by": "mu", "shown": card}}
    ));
    serde_json::json!({"card": card, "analysis": analyze_json(&file), "best": best, "after": analyze_json(&after)})
}

#[test]
#[ignore = "needs Chromium, node and playwright-core; run with --ignored (README, Development)"]
fn at_the_table_on_phones_in_headless_chromium() {
    let server = start(None);
    let expected = server.dir.path().join("what-if.json");
    std::fs::write(&expected, what_if_expected().to_string()).unwrap();
    run_script("table.mjs", &server, &[("SLEUTH_WHAT_IF", &expected)]);
}
