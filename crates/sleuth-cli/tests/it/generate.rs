//! `sleuth generate`.

use crate::support::{sleuth, Scratch};
use expect_test::expect;

#[test]
fn same_seed_same_game() {
    let args = ["generate", "--seed", "42", "--suggestions", "30", "--accusation-rate", "0.1", "--face-up", "3"];
    let a = sleuth(&args);
    a.code(0);
    let b = sleuth(&args);
    assert_eq!(a.stdout, b.stdout);
    let c = sleuth(&["generate", "--seed", "43", "--suggestions", "30"]);
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn generated_games_pass_check() {
    let scratch = Scratch::new();
    let variants: &[&[&str]] = &[
        &[],
        &["--deck", "master", "--players", "10", "--bystander", "--suggestions", "40"],
        &["--deck", "classic", "--players", "3", "--face-up", "3", "--hand-sizes"],
        &["--deck", "4,3,5,2", "--players", "4", "--accusation-rate", "0.5"],
        &["--players", "2", "--suggestions", "0"],
    ];
    for (i, variant) in variants.iter().enumerate() {
        let out = format!("game{i}.json");
        let mut args = vec!["generate", "--seed", "7", "-o", &out];
        args.extend_from_slice(variant);
        let run = scratch.sleuth(&args);
        run.code(0);
        assert!(run.stdout.is_empty());
        scratch.sleuth(&["check", &out]).code(0);
    }
    // Leaves no temporary files behind.
    let names: Vec<String> = std::fs::read_dir(scratch.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn output_file_matches_stdout_and_the_deal_is_written() {
    let scratch = Scratch::new();
    let run = scratch.sleuth(&["generate", "--seed", "1", "-o", "g.json", "--deal", "deal.json"]);
    run.code(0);
    let stdout = scratch.sleuth(&["generate", "--seed", "1"]).stdout;
    assert_eq!(scratch.read("g.json"), stdout);
    let deal: serde_json::Value = serde_json::from_str(&scratch.read("deal.json")).unwrap();
    let deal = deal.as_object().unwrap();
    assert_eq!(deal.len(), 21);
    assert_eq!(deal.values().filter(|p| *p == "case_file").count(), 3);

    // Without a file, the deal goes to standard error.
    let run = scratch.sleuth(&["generate", "--seed", "1", "--deal"]);
    run.code(0);
    assert_eq!(run.stdout, stdout);
    let deal2: serde_json::Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(deal2.as_object().unwrap(), deal);
}

#[test]
fn corrupt_games_are_valid_files() {
    let scratch = Scratch::new();
    for seed in 0..10 {
        let seed = seed.to_string();
        let run = scratch.sleuth(&["generate", "--seed", &seed, "--corrupt", "-o", "c.json"]);
        run.code(0);
        let check = scratch.sleuth(&["check", "c.json"]);
        assert!(check.code == 0 || check.code == 3, "{check:?}");
    }
}

#[test]
fn bad_options_are_usage_errors() {
    let cases: &[(&[&str], expect_test::Expect)] = &[
        (
            &["--players", "11"],
            expect![[r#"
                error: --players: between 2 and 10 players are supported, not 11
            "#]],
        ),
        (
            &["--players", "1"],
            expect![[r#"
                error: --players: between 2 and 10 players are supported, not 1
            "#]],
        ),
        (
            &["--deck", "cluedo"],
            expect![[r#"
                error: invalid value 'cluedo' for '--deck <DECK>': expected 'classic', 'master' or category sizes such as '6,6,9'

                For more information, try '--help'.
            "#]],
        ),
        (
            &["--deck", "30,30,30"],
            expect![[r#"
                error: --deck: too many cards (90): at most 64 are supported
            "#]],
        ),
        (
            &["--deck", "3,0,3"],
            expect![[r#"
                error: --deck: every category needs at least one card, and category 2 has none
            "#]],
        ),
        (
            &["--face-up", "19"],
            expect![[r#"
                error: --face-up: too many face-up cards (19): at most 18 are outside the case file
            "#]],
        ),
        (
            &["--accusation-rate", "NaN"],
            expect![[r#"
                error: --accusation-rate: accusation rate NaN is not between 0 and 1
            "#]],
        ),
        (
            &["--suggestions", "100000000"],
            expect![[r#"
                error: --suggestions 100000000: at most 100000 are supported
            "#]],
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["generate", "--seed", "0"];
        all.extend_from_slice(args);
        let run = sleuth(&all);
        run.code(2);
        expected.assert_eq(&run.stderr);
    }
    let run = sleuth(&["generate"]);
    run.code(2);
    assert!(run.stderr.contains("--seed"), "{}", run.stderr);
}

#[test]
fn unwritable_output_is_an_error() {
    let scratch = Scratch::new();
    let run = scratch.sleuth(&["generate", "--seed", "1", "-o", "no/such/dir/g.json"]);
    run.code(2);
    expect![[r#"
        error: cannot write 'no/such/dir/g.json': no such file or directory
    "#]]
    .assert_eq(&run.stderr);
}
