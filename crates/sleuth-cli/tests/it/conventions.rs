//! The command line's conventions: completions and manual pages generated
//! from the command's definitions, `--color`, help texts in the user's
//! words, and the README's first command.

use crate::support::{sleuth, sleuth_in_env, testdata, Scratch};
use std::process::Command;

/// Every subcommand, nested ones included, as `sleuth help` lists them.
fn subcommands() -> Vec<String> {
    let mut all = Vec::new();
    let mut queue = vec![Vec::<String>::new()];
    while let Some(path) = queue.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let run = sleuth(&args);
        run.code(0);
        let Some(list) = run.stdout.split("Commands:\n").nth(1) else { continue };
        for line in list.lines().take_while(|l| l.starts_with("  ")) {
            let name = line.split_whitespace().next().unwrap().to_string();
            if name != "help" && line.starts_with("  ") && !line.starts_with("   ") {
                let mut sub = path.clone();
                sub.push(name);
                all.push(sub.join(" "));
                queue.push(sub);
            }
        }
    }
    all.sort();
    all
}

#[test]
fn completions_name_every_subcommand_and_the_bash_script_parses() {
    let subs = subcommands();
    assert!(subs.len() > 25 && subs.contains(&"completions".into()) && subs.contains(&"experiment merge".into()));
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = sleuth(&["completions", shell]);
        run.code(0);
        for sub in &subs {
            let last = sub.rsplit(' ').next().unwrap();
            assert!(run.stdout.contains(last), "{shell} completions lack '{sub}'");
        }
    }
    // bash itself reads the script without an error.
    let script = sleuth(&["completions", "bash"]).stdout;
    let scratch = Scratch::new();
    let path = scratch.write("sleuth.bash", &script);
    let check = Command::new("bash").arg("-n").arg(&path).current_dir(scratch.path()).output().expect("bash runs");
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    sleuth(&["completions", "tcsh"]).code(2);
}

#[test]
fn man_pages_cover_every_subcommand() {
    let run = sleuth(&["man"]);
    run.code(0);
    assert!(run.stdout.starts_with(".ie") || run.stdout.contains(".TH sleuth 1"), "{}", &run.stdout[..200]);
    assert!(run.stdout.contains(".SH SUBCOMMANDS") && run.stdout.contains("Exit codes:"), "{}", run.stdout);
    let scratch = Scratch::new();
    let run = scratch.sleuth(&["man", "--out", "man1"]);
    run.code(0);
    for sub in subcommands() {
        let page = format!("man1/sleuth-{}.1", sub.replace(' ', "-"));
        let text = scratch.read(&page);
        assert!(text.contains(".TH sleuth-"), "{page}");
    }
    assert!(scratch.read("man1/sleuth.1").contains(".TH sleuth 1"));
}

#[test]
fn color_follows_the_option_and_no_color() {
    let game = testdata("seed-sat-sample-midgame.json");
    let game = game.to_str().unwrap();
    let dir = testdata("");
    let esc = |args: &[&str], vars: &[(&str, &str)]| {
        let run = sleuth_in_env(&dir, args, None, vars);
        run.code(0);
        run.stdout.contains('\x1b')
    };
    // Standard output is a pipe here: auto means no colour.
    assert!(!esc(&["notepad", game], &[]));
    assert!(esc(&["--color", "always", "notepad", game], &[]));
    assert!(esc(&["notepad", game, "--color=always"], &[]));
    assert!(!esc(&["--color", "never", "notepad", game], &[]));
    // An explicit --color always wins over NO_COLOR; --no-color over it.
    assert!(esc(&["--color", "always", "notepad", game], &[("NO_COLOR", "1")]));
    assert!(!esc(&["--color", "always", "notepad", "--no-color", game], &[]));
    assert!(!esc(&["--color", "auto", "notepad", game], &[("NO_COLOR", "1")]));
    // Help follows it too.
    assert!(esc(&["--color", "always", "--help"], &[]));
    assert!(!esc(&["--color", "never", "--help"], &[]));
    let run = sleuth(&["--color", "sometimes", "notepad", game]);
    run.code(2);
    assert!(run.stderr.contains("possible values: auto, always, never"), "{}", run.stderr);
}

#[test]
fn help_speaks_the_users_words() {
    for sub in subcommands() {
        let mut args: Vec<&str> = sub.split(' ').collect();
        args.push("--help");
        let run = sleuth(&args);
        run.code(0);
        for internal in ["basic_cnf", "to_dimacs", "Dpll::", "seed's", "the seed ", "the seed,", "[`", "::"] {
            assert!(!run.stdout.contains(internal), "'sleuth {sub} --help' says {internal:?}:\n{}", run.stdout);
        }
        // The GAME footer only where a game file is read.
        let reads_game = run.stdout.contains("<GAME>");
        let footer = run.stdout.contains("A GAME argument of '-'");
        assert!(!footer || reads_game, "'sleuth {sub} --help' has the GAME footer but takes no game");
    }
    for sub in ["generate", "bench", "completions", "man"] {
        assert!(!sleuth(&[sub, "--help"]).stdout.contains("A GAME argument"), "{sub}");
    }
    assert!(sleuth(&["notepad", "--help"]).stdout.contains("A GAME argument of '-'"));
}

/// The README's first command: a notepad with exact probabilities on screen,
/// not a solved game.
#[test]
fn the_readmes_first_command_shows_probabilities() {
    let readme = std::fs::read_to_string(testdata("../README.md")).unwrap();
    let first = readme.lines().find(|l| l.starts_with("cargo run")).unwrap();
    let file = first.split_whitespace().last().unwrap();
    assert_eq!(first, format!("cargo run --release -p sleuth-cli -- notepad {file}"));
    let run = sleuth(&["notepad", &testdata(file.strip_prefix("testdata/").unwrap()).to_string_lossy()]);
    run.code(0);
    let percents = run.stdout.matches('%').count();
    assert!(percents >= 30, "{percents} probabilities:\n{}", run.stdout);
    assert!(run.stdout.contains("64 consistent deals (exact count)"), "{}", run.stdout);
    assert!(run.stdout.contains(" O ") && run.stdout.contains(" X "), "{}", run.stdout);
}
