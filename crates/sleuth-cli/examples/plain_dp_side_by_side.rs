//! Issue 20's judge, reproduced: `sleuth analyze --json` against the
//! independent plain DP (`plain_dp`), whole process, side by side in one
//! run, on generated master states (the bench's master cells at 10 and 20
//! suggestions) and the issue's three states. Each state is timed three
//! times per program, interleaved (each first in turn), and the fastest
//! kept; the two outputs must agree on the total and on every card-place
//! count.
//!
//! ```sh
//! cargo build --release -p sleuth-cli -p sleuth-testkit --bin sleuth --example plain_dp_side_by_side --example plain_dp
//! nice target/release/examples/plain_dp_side_by_side [--seeds 0..200] [--repeat 3] [--plot DIR]
//! ```
//!
//! Options: `--seeds N` or `A..B` (default 0..200), `--repeat R` (default
//! 3), `--sleuth PATH` and `--plain PATH` (default: beside this program,
//! `target/release/sleuth` and `target/release/examples/plain_dp`), `--tsv
//! PATH` (every state's times, a line each: label, analyze ms, plain_dp ms),
//! `--plot DIR` (every state as a point, analyze's time against plain_dp's
//! on log scales, coloured by kind of state, with the diagonal:
//! `side_by_side.svg` and `.png`),
//! `--few-players` (also master games of 2 to 5 players, observer and
//! bystander: the judge's "generated master states" need not be the
//! bench's cells), `--other-games` (also other decks, players and events:
//! classic, custom decks of three to five categories, face-up cards,
//! accusations; 20 or 30 suggestions;
//! Sleuth is judged on games it has not seen), `--inconsistent` (also
//! master and classic games with one event corrupted, kept where no deal
//! fits: `analyze` then also finds a smallest set of conflicting events;
//! `analyze` exits 3 there, with its JSON), `--random-decks N` (also N
//! states of random custom decks, 1 to 12 categories, drawn from a fixed
//! seed: where the shape of a deck changes which method works), `--copies` (time copies of
//! both programs, as `cargo install` leaves them, instead of the files the
//! build left: on this VM a file the linker wrote starts up to 0.5 ms
//! slower while it stays in the page cache, the larger program the more),
//! `--noise-floor` (time a copy of plain_dp in
//! analyze's place against another copy: how many states the machine's
//! noise alone makes "slower" between two identical programs), `--confirm
//! N` (time the states where analyze came out slower N more times per
//! program, the fastest of all kept: a slower state that stays slower is
//! the program's, one that does not was the machine's), `--files PATH`
//! (also these game files: a file, or every `.json` file of a directory;
//! repeatable; e.g. the states of games played by other agents, which
//! `cargo run --release -p sleuth-sim --example agent_states -- DIR`
//! writes), `--idle MS` (a pause before every run: back to back, a
//! program reuses memory the one before just freed; after a pause, as a
//! user runs an analysis, a VM may have handed it back to its host, and
//! memory taken afresh can cost more).

use serde_json::Value;
use sleuth_cli::plot::scatter::{write_scatter, Curve, Point, Scatter};
use sleuth_testkit::random_deck::RandomDeck;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

/// The master cells of `sleuth bench` timed here: players, observer.
const CELLS: [(usize, bool); 4] = [(6, true), (8, true), (10, true), (10, false)];
const SUGGESTIONS: [usize; 2] = [10, 20];
/// The cells `--few-players` adds, at the same numbers of suggestions.
const FEW_PLAYERS_CELLS: [(usize, bool); 8] =
    [(2, true), (2, false), (3, true), (3, false), (4, true), (4, false), (5, true), (5, false)];
/// The cells `--other-games` adds: deck, players, observer, suggestions,
/// further `sleuth generate` options.
const OTHER_CELLS: [Cell; 16] = [
    Cell { deck: "classic", players: 3, observer: false, suggestions: 30, extra: &[] },
    Cell { deck: "classic", players: 6, observer: true, suggestions: 20, extra: &[] },
    Cell { deck: "classic", players: 6, observer: false, suggestions: 20, extra: &[] },
    Cell { deck: "master", players: 7, observer: false, suggestions: 20, extra: &[] },
    Cell { deck: "master", players: 9, observer: true, suggestions: 20, extra: &[] },
    Cell { deck: "master", players: 5, observer: false, suggestions: 20, extra: &["--face-up", "3"] },
    Cell { deck: "master", players: 10, observer: false, suggestions: 20, extra: &["--face-up", "2"] },
    Cell { deck: "master", players: 4, observer: false, suggestions: 20, extra: &["--accusation-rate", "0.1"] },
    Cell { deck: "master", players: 6, observer: true, suggestions: 15, extra: &["--accusation-rate", "0.3"] },
    Cell { deck: "master", players: 10, observer: false, suggestions: 15, extra: &["--accusation-rate", "0.3"] },
    Cell { deck: "5,6,7", players: 5, observer: false, suggestions: 20, extra: &[] },
    Cell { deck: "10,10,10", players: 6, observer: false, suggestions: 20, extra: &[] },
    Cell { deck: "12,12,12", players: 8, observer: false, suggestions: 20, extra: &[] },
    Cell { deck: "6,6,6,6", players: 6, observer: false, suggestions: 20, extra: &[] },
    Cell { deck: "8,8,8,8", players: 8, observer: true, suggestions: 20, extra: &[] },
    Cell { deck: "5,5,5,5,5", players: 5, observer: true, suggestions: 20, extra: &[] },
];

/// The cells `--inconsistent` adds: one event corrupted, the states kept
/// where no deal fits (`sleuth check` exits 3). `analyze` also names a
/// smallest set of conflicting events there; the plain DP says no deal.
const INCONSISTENT_CELLS: [Cell; 9] = [
    Cell { deck: "master", players: 10, observer: false, suggestions: 20, extra: &["--corrupt"] },
    Cell { deck: "master", players: 10, observer: true, suggestions: 20, extra: &["--corrupt"] },
    Cell { deck: "master", players: 10, observer: false, suggestions: 10, extra: &["--corrupt"] },
    Cell { deck: "master", players: 8, observer: true, suggestions: 20, extra: &["--corrupt"] },
    Cell { deck: "master", players: 6, observer: false, suggestions: 20, extra: &["--corrupt"] },
    Cell { deck: "master", players: 6, observer: true, suggestions: 10, extra: &["--corrupt"] },
    Cell { deck: "master", players: 4, observer: false, suggestions: 20, extra: &["--corrupt"] },
    Cell { deck: "master", players: 3, observer: false, suggestions: 20, extra: &["--corrupt"] },
    Cell { deck: "classic", players: 6, observer: false, suggestions: 20, extra: &["--corrupt"] },
];

/// A kind of generated state: `sleuth generate`'s options but the seed.
#[derive(Clone, Copy)]
struct Cell {
    deck: &'static str,
    players: usize,
    observer: bool,
    suggestions: usize,
    /// Further options, e.g. `--face-up 2`.
    extra: &'static [&'static str],
}

impl Cell {
    fn master(players: usize, observer: bool, suggestions: usize) -> Cell {
        Cell { deck: "master", players, observer, suggestions, extra: &[] }
    }

    /// E.g. `master 10 bystander 20` or `master 10 bystander 20 face-up 2`.
    fn name(&self) -> String {
        let view = if self.observer { "observer" } else { "bystander" };
        let mut name = format!("{} {} {view} {}", self.deck, self.players, self.suggestions);
        for option in self.extra {
            name.push(' ');
            name.push_str(option.trim_start_matches("--"));
        }
        name
    }
}
/// The states issue 20 names: seed and observer, master, 10 players, 20
/// suggestions.
const ISSUE_STATES: [(u64, bool); 3] = [(500, true), (532, true), (505, false)];
/// How many of plain_dp's slowest states the judge looks at.
const SLOWEST: usize = 45;

struct Options {
    seeds: (u64, u64),
    repeat: usize,
    sleuth: PathBuf,
    plain: PathBuf,
    tsv: Option<PathBuf>,
    /// `--plot DIR`: where `side_by_side.{svg,png}` go.
    plot: Option<PathBuf>,
    few_players: bool,
    inconsistent: bool,
    other_games: bool,
    random_decks: usize,
    copies: bool,
    /// Times a copy of plain_dp in analyze's place (`noise_a`).
    noise_floor: bool,
    /// `--idle MS`: a pause before every run.
    idle: Duration,
    noise_a: Option<PathBuf>,
    confirm: usize,
    /// Game files given with `--files`.
    files: Vec<PathBuf>,
}

fn options() -> Result<Options, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let examples = exe.parent().ok_or("no directory")?.to_path_buf();
    let release = examples.parent().ok_or("no directory")?.to_path_buf();
    let mut o = Options {
        seeds: (0, 200),
        repeat: 3,
        sleuth: release.join("sleuth"),
        plain: examples.join("plain_dp"),
        tsv: None,
        plot: None,
        few_players: false,
        inconsistent: false,
        other_games: false,
        random_decks: 0,
        copies: false,
        noise_floor: false,
        idle: Duration::ZERO,
        noise_a: None,
        confirm: 0,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--seeds" => {
                let v = value()?;
                let bad = || format!("--seeds: expected N or A..B, not {v}");
                o.seeds = match v.split_once("..") {
                    Some((a, b)) => (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?),
                    None => (0, v.parse().map_err(|_| bad())?),
                };
            }
            "--repeat" => {
                o.repeat = value()?.parse().map_err(|_| "--repeat: expected a positive number".to_string())?;
                if o.repeat == 0 {
                    return Err("--repeat: expected a positive number".into());
                }
            }
            "--sleuth" => o.sleuth = value()?.into(),
            "--plain" => o.plain = value()?.into(),
            "--tsv" => o.tsv = Some(value()?.into()),
            "--plot" => o.plot = Some(value()?.into()),
            "--few-players" => o.few_players = true,
            "--other-games" => o.other_games = true,
            "--inconsistent" => o.inconsistent = true,
            "--random-decks" => {
                o.random_decks = value()?.parse().map_err(|_| "--random-decks: expected a number".to_string())?
            }
            "--copies" => o.copies = true,
            "--noise-floor" => o.noise_floor = true,
            "--idle" => {
                let ms: u64 = value()?.parse().map_err(|_| "--idle: expected milliseconds".to_string())?;
                o.idle = Duration::from_millis(ms);
            }
            "--confirm" => o.confirm = value()?.parse().map_err(|_| "--confirm: expected a number".to_string())?,
            "--files" => o.files.push(value()?.into()),
            _ => return Err(format!("unknown argument {arg}")),
        }
    }
    for path in [&o.sleuth, &o.plain] {
        if !path.exists() {
            return Err(format!("{} not found: build it first (see the top of this file)", path.display()));
        }
    }
    Ok(o)
}

/// One generated state and its timings.
struct State {
    label: String,
    /// The bench cell, e.g. `master 10 bystander 20` (`issue 20` for its states).
    cell: String,
    /// The kind of state, as the plot's legend names it.
    group: &'static str,
    file: PathBuf,
    analyze: Duration,
    plain: Duration,
}

impl State {
    /// analyze's time over plain_dp's.
    fn ratio(&self) -> f64 {
        self.analyze.as_secs_f64() / self.plain.as_secs_f64()
    }
}

fn generate(sleuth: &Path, dir: &Path, c: &Cell, seed: u64) -> Result<State, String> {
    let cell = c.name();
    let mut args: Vec<String> = ["--deck", c.deck, "--players", &c.players.to_string()].map(String::from).into();
    args.extend(["--suggestions".into(), c.suggestions.to_string()]);
    if !c.observer {
        args.push("--bystander".into());
    }
    args.extend(c.extra.iter().map(|s| s.to_string()));
    generate_with(sleuth, dir, &cell, cell.clone(), &args, seed)
}

/// Writes `sleuth generate --seed SEED ARGS` to a file in `dir`.
fn generate_with(
    sleuth: &Path,
    dir: &Path,
    cell: &str,
    name: String,
    args: &[String],
    seed: u64,
) -> Result<State, String> {
    let label = format!("{name} seed {seed}");
    let out = Command::new(sleuth)
        .args(["generate", "--seed", &seed.to_string()])
        .args(args)
        .output()
        .map_err(|e| format!("{label}: cannot run sleuth generate: {e}"))?;
    if !out.status.success() {
        return Err(format!("{label}: sleuth generate failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let file = dir.join(format!("{}-{seed}.json", name.replace([' ', ','], "-")));
    std::fs::write(&file, &out.stdout).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(State { label, cell: cell.into(), group: "", file, analyze: Duration::MAX, plain: Duration::MAX })
}

/// The cell of [`random_decks`]' states.
const RANDOM_DECKS: &str = "random decks";

/// Random custom decks, `n` of them from a fixed seed ([`RandomDeck`]):
/// decks no one plays, drawn to find where Sleuth is slow on games it has
/// not seen (the shape of a deck changes which method does the work).
fn random_decks(sleuth: &Path, dir: &Path, n: usize) -> Result<Vec<State>, String> {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20);
    let mut states = Vec::with_capacity(n);
    while states.len() < n {
        let Some(d) = RandomDeck::draw(&mut rng) else { continue };
        let (deck, players, suggestions, face_up) = (d.deck(), d.players, d.suggestions, d.face_up);
        let view = if d.bystander { "bystander" } else { "observer" };
        let name = format!("{deck} {players} {view} {suggestions} face-up {face_up}");
        let mut args: Vec<String> = vec!["--deck".into(), deck, "--players".into(), players.to_string()];
        args.extend(["--suggestions".into(), suggestions.to_string(), "--face-up".into(), face_up.to_string()]);
        if d.bystander {
            args.push("--bystander".into());
        }
        let mut s = generate_with(sleuth, dir, RANDOM_DECKS, name, &args, d.seed)?;
        s.group = "random decks";
        states.push(s);
    }
    Ok(states)
}

/// The states of `--files`: each path a game file or a directory of them
/// (its `.json` files, by name), the cell named after the path.
fn given_files(paths: &[PathBuf]) -> Result<Vec<State>, String> {
    let mut states = Vec::new();
    for path in paths {
        let cell = format!("files {}", path.display());
        let mut files = if path.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut files = Vec::new();
            for entry in entries {
                let file = entry.map_err(|e| format!("{}: {e}", path.display()))?.path();
                if file.extension().is_some_and(|x| x == "json") {
                    files.push(file);
                }
            }
            files
        } else {
            vec![path.clone()]
        };
        files.sort();
        for file in files {
            let name = file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into());
            let (label, cell) = (name, cell.clone());
            states.push(State { label, cell, group: "game files", file, analyze: Duration::MAX, plain: Duration::MAX });
        }
    }
    Ok(states)
}

/// Whether no deal fits a game file: `sleuth check` exits 3 (README, "Exit
/// codes").
fn inconsistent(sleuth: &Path, file: &Path) -> Result<bool, String> {
    let out = Command::new(sleuth)
        .arg("check")
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", sleuth.display()))?;
    match out.status.code() {
        Some(0) => Ok(false),
        Some(3) => Ok(true),
        _ => Err(format!("sleuth check {}: {}", file.display(), String::from_utf8_lossy(&out.stderr))),
    }
}

/// Runs a program on a file, whole process, capturing its output: the wall
/// time from spawn to exit and the parsed JSON.
fn run(program: &Path, args: &[&str], file: &Path) -> Result<(Duration, Value), String> {
    let start = Instant::now();
    let out = Command::new(program)
        .args(args)
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let elapsed = start.elapsed();
    // Exit code 3: `analyze` found the history inconsistent (README, "Exit
    // codes"); its JSON says so, and the plain DP's says zero deals.
    if !out.status.success() && out.status.code() != Some(3) {
        return Err(format!(
            "{} {}: failed: {}",
            program.display(),
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let json = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("{} {}: output is not JSON: {e}", program.display(), file.display()))?;
    Ok((elapsed, json))
}

/// Whether the two outputs agree on `models` and every `models_by_place`
/// count (exact integers, as decimal strings).
fn agree(analyze: &Value, plain: &Value) -> Result<(), String> {
    if analyze["models"] != plain["models"] {
        return Err(format!("models: analyze {} plain {}", analyze["models"], plain["models"]));
    }
    let (Some(a), Some(p)) = (analyze["models_by_place"].as_object(), plain["models_by_place"].as_object()) else {
        return Err("models_by_place missing".into());
    };
    if a.len() != p.len() {
        return Err(format!("{} cards against {}", a.len(), p.len()));
    }
    for (card, row) in a {
        if p.get(card) != Some(row) {
            return Err(format!("card {card}: analyze {row} plain {:?}", p.get(card)));
        }
    }
    Ok(())
}

/// Times one state `repeat` times per program, the fastest kept. The
/// program run first takes turns (by state and by repetition): whichever
/// runs first in a pair is slower by about 1 % at the median, even two
/// copies of one program (`--noise-floor`, before the turns: the first
/// slower on 69 % of 7,003 states).
fn time_state(o: &Options, s: &mut State, i: usize, repeat: usize) -> Result<(), String> {
    let analyze = || match &o.noise_a {
        Some(copy) => run(copy, &[], &s.file),
        None => run(&o.sleuth, &["analyze", "--json"], &s.file),
    };
    let plain = || run(&o.plain, &[], &s.file);
    // With `--idle`, each program runs after a pause, as a user's analysis
    // does (memory left free that long may have gone back to the VM's host).
    let idle = || std::thread::sleep(o.idle);
    for rep in 0..repeat {
        let ((ta, a), (tp, p)) = if (i + rep) % 2 == 0 {
            idle();
            let a = analyze()?;
            idle();
            (a, plain()?)
        } else {
            idle();
            let p = plain()?;
            idle();
            (analyze()?, p)
        };
        agree(&a, &p).map_err(|e| format!("{}: the counts differ: {e}", s.label))?;
        s.analyze = s.analyze.min(ta);
        s.plain = s.plain.min(tp);
    }
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Prints one state's times.
fn print_state(s: &State) {
    println!("  {}: analyze {:.2} ms, plain_dp {:.2} ms, ratio {:.2}", s.label, ms(s.analyze), ms(s.plain), s.ratio());
}

/// Prints how `analyze` fares on a set of states.
fn summary(name: &str, states: &[&State]) {
    let slower: Vec<&&State> = states.iter().filter(|s| s.analyze > s.plain).collect();
    let worst = states.iter().map(|s| s.ratio()).fold(0.0, f64::max);
    println!(
        "{name}: {} states; analyze slower than plain_dp on {}; worst analyze/plain {worst:.2}; \
         median analyze {:.2} ms, plain_dp {:.2} ms, ratio {:.2}",
        states.len(),
        slower.len(),
        median(states.iter().map(|s| ms(s.analyze)).collect()),
        median(states.iter().map(|s| ms(s.plain)).collect()),
        median(states.iter().map(|s| s.ratio()).collect()),
    );
}

/// `side_by_side.{svg,png}` in `dir`: each state's analyze time against
/// plain_dp's, with the diagonal (a point above it: analyze was slower).
fn plot(o: &Options, dir: &Path, states: &[State]) -> Result<(), String> {
    let points: Vec<Point> =
        states.iter().map(|s| Point { group: s.group.into(), x: ms(s.plain), y: ms(s.analyze) }).collect();
    let slower = states.iter().filter(|s| s.analyze > s.plain).count();
    let curves = [Curve {
        label: format!("analyze = plain_dp ({slower} of {} states above: analyze slower)", states.len()),
        f: |x| x,
        solid: false,
    }];
    let runs = if o.repeat == 1 { "one run each".to_string() } else { format!("fastest of {} runs each", o.repeat) };
    let title = format!("sleuth analyze --json against the plain DP, whole process, {runs}");
    let plot = Scatter {
        name: "side_by_side",
        title: &title,
        x_desc: "plain_dp (independent exact counter: count and marginals), ms",
        y_desc: "sleuth analyze --json (counts and case files), ms",
        points: &points,
        curves: &curves,
    };
    let files = write_scatter(dir, &plot).map_err(|e| format!("cannot plot to {}: {e:#}", dir.display()))?;
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    eprintln!("plot written: {}", names.join(", "));
    Ok(())
}

fn main() -> ExitCode {
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("plain_dp_side_by_side: {e}");
            ExitCode::FAILURE
        }
    }
}

fn real_main() -> Result<(), String> {
    let mut o = options()?;
    let dir = std::env::temp_dir().join(format!("plain-dp-side-by-side-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if o.copies {
        // Both programs as `cargo install` leaves them: copied files.
        for (path, name) in [(&mut o.sleuth, "sleuth"), (&mut o.plain, "plain_dp")] {
            let copy = dir.join(name);
            std::fs::copy(&*path, &copy).map_err(|e| format!("{}: {e}", path.display()))?;
            *path = copy;
        }
    }
    if o.noise_floor {
        // Two copies of one program, written alike: what differs between
        // their times is the machine's.
        let (a, b) = (dir.join("plain_dp_a"), dir.join("plain_dp_b"));
        for copy in [&a, &b] {
            std::fs::copy(&o.plain, copy).map_err(|e| format!("{}: {e}", o.plain.display()))?;
        }
        eprintln!("noise floor: plain_dp against a copy of itself, in analyze's column");
        (o.noise_a, o.plain) = (Some(a), b);
    }
    let result = measure(&o, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn measure(o: &Options, dir: &Path) -> Result<(), String> {
    let mut states = Vec::new();
    for (seed, observer) in ISSUE_STATES {
        let mut s = generate(&o.sleuth, dir, &Cell::master(10, observer, 20), seed)?;
        s.cell = "issue 20".into();
        s.group = "issue 20's states";
        states.push(s);
    }
    let master = |list: &[(usize, bool)]| -> Vec<Cell> {
        list.iter()
            .flat_map(|&(players, observer)| SUGGESTIONS.map(|sugg| Cell::master(players, observer, sugg)))
            .collect()
    };
    let mut kinds: Vec<(&'static str, Vec<Cell>)> = vec![("master 6-10 players (bench cells)", master(&CELLS))];
    if o.few_players {
        kinds.push(("master 2-5 players", master(&FEW_PLAYERS_CELLS)));
    }
    if o.other_games {
        kinds.push(("other decks and games", OTHER_CELLS.to_vec()));
    }
    for (group, cells) in &kinds {
        for cell in cells {
            for seed in o.seeds.0..o.seeds.1 {
                let mut s = generate(&o.sleuth, dir, cell, seed)?;
                s.group = group;
                states.push(s);
            }
        }
    }
    if o.inconsistent {
        for cell in &INCONSISTENT_CELLS {
            for seed in o.seeds.0..o.seeds.1 {
                let mut s = generate(&o.sleuth, dir, cell, seed)?;
                if inconsistent(&o.sleuth, &s.file)? {
                    s.group = "inconsistent histories";
                    states.push(s);
                }
            }
        }
    }
    states.extend(random_decks(&o.sleuth, dir, o.random_decks)?);
    states.extend(given_files(&o.files)?);
    eprintln!("{} states generated; timing each {} times per program, interleaved", states.len(), o.repeat);
    let start = Instant::now();
    let total = states.len();
    // A random deck that a program cannot count is set aside and named in
    // the output; any other failure stops. Sleuth runs once first: where it
    // refuses (past `MAX_STATES`) the plain DP is not run, as it would take
    // gigabytes, tens of seconds, or more memory than the machine has.
    let mut skipped = Vec::new();
    for (i, s) in states.iter_mut().enumerate() {
        if s.cell == RANDOM_DECKS {
            if let Err(e) = run(&o.sleuth, &["analyze", "--json"], &s.file) {
                skipped.push(format!("{}: {}", s.label, e.trim_end()));
                continue;
            }
        }
        if let Err(e) = time_state(o, s, i, o.repeat) {
            if s.cell != RANDOM_DECKS || !e.contains(": failed: ") {
                return Err(e);
            }
            skipped.push(format!("{}: {}", s.label, e.trim_end()));
        }
        if (i + 1) % 50 == 0 || i + 1 == total {
            eprintln!("  {}/{total} states, {:.0} s", i + 1, start.elapsed().as_secs_f64());
        }
    }
    states.retain(|s| s.analyze != Duration::MAX && s.plain != Duration::MAX);
    let first_slower = states.iter().filter(|s| s.analyze > s.plain).count();
    if o.confirm > 0 {
        eprintln!("confirming the {first_slower} states where analyze came out slower, {} more runs each", o.confirm);
        for (i, s) in states.iter_mut().enumerate().filter(|(_, s)| s.analyze > s.plain) {
            time_state(o, s, i, o.confirm)?;
        }
    }
    if let Some(path) = &o.tsv {
        let lines: String =
            states.iter().map(|s| format!("{}\t{:.3}\t{:.3}\n", s.label, ms(s.analyze), ms(s.plain))).collect();
        std::fs::write(path, lines).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(dir) = &o.plot {
        plot(o, dir, &states)?;
    }
    println!(
        "plain_dp_side_by_side: whole process, fastest of {}, seeds {}..{}; outputs agree on every state",
        o.repeat, o.seeds.0, o.seeds.1
    );
    if o.confirm > 0 {
        let still = states.iter().filter(|s| s.analyze > s.plain).count();
        println!(
            "confirmed: of the {first_slower} states where analyze came out slower, {still} stay slower after {} more runs",
            o.confirm
        );
    }
    for s in &skipped {
        println!("skipped, a program cannot count it: {}", s.replace(&format!("{}/", dir.display()), ""));
    }
    println!("\nissue 20's states:");
    for s in &states[..ISSUE_STATES.len()] {
        print_state(s);
    }

    let mut by_plain: Vec<&State> = states.iter().collect();
    by_plain.sort_by_key(|s| std::cmp::Reverse(s.plain));
    let slowest = &by_plain[..SLOWEST.min(by_plain.len())];
    println!("\nplain_dp's {} slowest states:\n", slowest.len());
    println!("| state | plain_dp ms | analyze ms | analyze/plain |");
    println!("| ----- | ----------: | ---------: | ------------: |");
    for s in slowest {
        println!("| {} | {:.2} | {:.2} | {:.2} |", s.label, ms(s.plain), ms(s.analyze), s.ratio());
    }
    println!();
    summary("the slowest states", slowest);
    for sugg in SUGGESTIONS {
        let suffix = format!(" {sugg} seed");
        let after = |s: &&State| s.label.starts_with("master ") && s.label.contains(&suffix);
        let of: Vec<&State> = by_plain.iter().copied().filter(after).take(SLOWEST).collect();
        summary(&format!("the slowest master states after {sugg} suggestions"), &of);
    }
    summary("all states", &by_plain);
    let mut cells: Vec<&str> = states.iter().map(|s| s.cell.as_str()).collect();
    cells.dedup();
    for cell in cells {
        let of_cell: Vec<&State> = states.iter().filter(|s| s.cell == cell).collect();
        summary(&format!("  {cell}"), &of_cell);
    }

    let mut slower: Vec<&State> = states.iter().filter(|s| s.analyze > s.plain).collect();
    slower.sort_by(|a, b| b.ratio().total_cmp(&a.ratio()));
    println!("\nstates where analyze is slower than plain_dp, worst first:");
    for s in slower {
        print_state(s);
    }
    Ok(())
}
