//! `sleuth notepad`.

use crate::support::{classic_game, sleuth, Scratch};
use expect_test::expect;

#[test]
fn seed_sample_notepad_is_fully_determined() {
    let run = sleuth(&["notepad", "seed-sat-sample-before-accusation.json"]);
    run.code(0);
    expect![[r#"
        Sleuth notepad: sc's view (hand: wh, li, st), 27 events, classic deck (21 cards: 6+6+9)

                                sc    mu    wh    gr    pe    pl   case file
        suspect
          mu  Colonel Mustard   X     X     X     X     X     O        X
          pl  Professor Plum    X     O     X     X     X     X        X
          gr  Mr. Green         X     X     O     X     X     X        X
          pe  Mrs. Peacock      X     X     X     X     X     X        O
          sc  Miss Scarlet      X     O     X     X     X     X        X
          wh  Mrs. White        O     X     X     X     X     X        X
        weapon
          kn  Knife             X     X     O     X     X     X        X
          ca  Candlestick       X     X     X     O     X     X        X
          re  Revolver          X     X     X     X     O     X        X
          ro  Rope              X     X     O     X     X     X        X
          pi  Lead Pipe         X     X     X     X     X     X        O
          wr  Wrench            X     X     X     O     X     X        X
        room
          ha  Hall              X     X     X     X     O     X        X
          lo  Lounge            X     O     X     X     X     X        X
          di  Dining Room       X     X     X     X     O     X        X
          ki  Kitchen           X     X     X     O     X     X        X
          ba  Ballroom          X     X     X     X     X     O        X
          co  Conservatory      X     X     X     X     X     O        X
          bi  Billiard Room     X     X     X     X     X     X        O
          li  Library           O     X     X     X     X     X        X
          st  Study             O     X     X     X     X     X        X

        1 consistent deal (exact count)
        solved: the case file is pe, pi, bi (Mrs. Peacock, Lead Pipe, Billiard Room)
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn every_row_of_the_seed_sample_has_one_o() {
    let run = sleuth(&["notepad", "seed-sat-sample.json"]);
    run.code(0);
    let rows: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("  ") && !l.starts_with("   ")).collect();
    assert_eq!(rows.len(), 21);
    for row in rows {
        let cells: Vec<&str> = row.split_whitespace().rev().take(7).collect();
        assert_eq!(cells.iter().filter(|c| **c == "O").count(), 1, "{row}");
        assert_eq!(cells.iter().filter(|c| **c == "X").count(), 6, "{row}");
    }
    assert!(run.stdout.contains("solved: the case file is pe, pi, bi"));
}

#[test]
fn open_games_show_percentages_and_case_files() {
    let scratch = Scratch::new();
    let name = scratch.write(
        "early.json",
        &classic_game(
            r#"{"suggestion": {"by": "sc", "cards": ["sc", "ro", "lo"], "refuted_by": "mu", "shown": "sc"}}"#,
        ),
    );
    let run = scratch.sleuth(&["notepad", &name]);
    run.code(0);
    expect![[r#"
        Sleuth notepad: sc's view (hand: wh, li, st), 1 event, classic deck (21 cards: 6+6+9)

                                sc    mu    wh    gr    pe    pl   case file
        suspect
          mu  Colonel Mustard   X    11%   16%   16%   16%   16%      25%
          pl  Professor Plum    X    11%   16%   16%   16%   16%      25%
          gr  Mr. Green         X    11%   16%   16%   16%   16%      25%
          pe  Mrs. Peacock      X    11%   16%   16%   16%   16%      25%
          sc  Miss Scarlet      X     O     X     X     X     X        X
          wh  Mrs. White        O     X     X     X     X     X        X
        weapon
          kn  Knife             X    12%   18%   18%   18%   18%      17%
          ca  Candlestick       X    12%   18%   18%   18%   18%      17%
          re  Revolver          X    12%   18%   18%   18%   18%      17%
          ro  Rope              X    12%   18%   18%   18%   18%      17%
          pi  Lead Pipe         X    12%   18%   18%   18%   18%      17%
          wr  Wrench            X    12%   18%   18%   18%   18%      17%
        room
          ha  Hall              X    12%   18%   18%   18%   18%      14%
          lo  Lounge            X    12%   18%   18%   18%   18%      14%
          di  Dining Room       X    12%   18%   18%   18%   18%      14%
          ki  Kitchen           X    12%   18%   18%   18%   18%      14%
          ba  Ballroom          X    12%   18%   18%   18%   18%      14%
          co  Conservatory      X    12%   18%   18%   18%   18%      14%
          bi  Billiard Room     X    12%   18%   18%   18%   18%      14%
          li  Library           O     X     X     X     X     X        X
          st  Study             O     X     X     X     X     X        X

        5,650,444,800 consistent deals (exact count)
        most likely case files (168 possible):
            0.6%  mu, kn, ha (Colonel Mustard, Knife, Hall)
            0.6%  mu, kn, lo (Colonel Mustard, Knife, Lounge)
            0.6%  mu, kn, di (Colonel Mustard, Knife, Dining Room)
            0.6%  mu, kn, ki (Colonel Mustard, Knife, Kitchen)
            0.6%  mu, kn, ba (Colonel Mustard, Knife, Ballroom)
          ... and 163 more
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn no_colour_when_not_a_terminal() {
    let run = sleuth(&["notepad", "seed-sat-sample.json"]);
    assert!(!run.stdout.contains('\x1b'));
    let run = sleuth(&["notepad", "--no-color", "seed-sat-sample.json"]);
    run.code(0);
    assert!(!run.stdout.contains('\x1b'));
}

#[test]
fn inconsistent_game_names_the_conflict() {
    let scratch = Scratch::new();
    // sc holds wh, yet nobody before the refuter could show one of wh, kn, ha.
    let name = scratch.write(
        "bad.json",
        &classic_game(
            r#"{"suggestion": {"by": "pe", "cards": ["mu", "kn", "di"], "refuted_by": "pl"}},
               {"suggestion": {"by": "pl", "cards": ["wh", "kn", "ha"], "refuted_by": "wh"}}"#,
        ),
    );
    let run = scratch.sleuth(&["notepad", &name]);
    run.code(3);
    expect![[r#"
        Sleuth notepad: sc's view (hand: wh, li, st), 2 events, classic deck (21 cards: 6+6+9)

        inconsistent history: no deal of the cards fits every event
        these cannot all be true (a smallest set; one of them was probably entered wrong):
          event 1: pl suggested wh, kn, ha; wh refuted (card not seen)
          your hand: wh, li, st
    "#]]
    .assert_eq(&run.stdout);
}
