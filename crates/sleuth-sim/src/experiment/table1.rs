//! Neller and Luo's Table 1: one game state, its exact card-place
//! probabilities (b), and Algorithm 1's (c) and Algorithm 2's (d) estimates
//! of them, with the paper's three observations on (c) and (d) checked over
//! several seeds:
//!
//! 1. Algorithm 1's significant errors are in the `wh` row and repeat
//!    across runs;
//! 2. Algorithm 2's greatest errors are in the `pe` column;
//! 3. Algorithm 2's worst error is roughly half of Algorithm 1's.
//!
//! Each observation is computed from the runs and reported with its
//! numbers; the criteria are stated at [`Observations`].

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sleuth_core::sample::{search_and_sample, Estimate, Formula, WalkSatConfig};
use sleuth_core::{Analysis, CountError, Game, Place, Status};

/// The card whose row the paper singles out for Algorithm 1's errors.
pub const PAPER_ROW: &str = "wh";
/// The player whose column the paper singles out for Algorithm 2's errors.
pub const PAPER_COLUMN: &str = "pe";
/// "Roughly half": the ratio of the worst errors counts as about half when
/// it lies in this range.
pub const ABOUT_HALF: (f64, f64) = (1.0 / 3.0, 2.0 / 3.0);
/// An error this large or larger is one the paper's two-decimal tables
/// show (its boldface marks errors; their threshold is not stated).
pub const VISIBLE: f64 = 0.02;

/// Card-place values of a state: `[card index][place index]`, places in
/// seat order, then the case file.
pub type Grid = Vec<Vec<f64>>;

/// One sampler's estimates and errors on the state.
#[derive(Clone, Debug)]
pub struct Run {
    /// The seed.
    pub seed: u64,
    /// The estimate (fixed pairs at their exact 0 or 1).
    pub estimate: Grid,
    /// Estimate minus exact probability (0 on fixed pairs).
    pub error: Grid,
    /// Samples recorded.
    pub samples: u64,
}

impl Run {
    /// The largest absolute error.
    pub fn worst(&self) -> f64 {
        self.error.iter().flatten().fold(0.0, |m: f64, e| m.max(e.abs()))
    }

    /// Pairs with an absolute error of at least [`VISIBLE`].
    pub fn visible(&self) -> usize {
        self.error.iter().flatten().filter(|e| e.abs() >= VISIBLE).count()
    }
}

/// One cell's errors across the seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct CellStat {
    /// The card id.
    pub card: String,
    /// The place id (`case_file` for the case file).
    pub place: String,
    /// Mean error over the seeds.
    pub mean_error: f64,
    /// Mean absolute error over the seeds.
    pub mean_abs: f64,
    /// Seeds whose error has the sign of the mean error (and is not 0).
    pub same_sign: usize,
    /// Seeds.
    pub seeds: usize,
}

impl CellStat {
    /// Whether the error has the same sign in every seed.
    pub fn repeatable(&self) -> bool {
        self.seeds > 0 && self.same_sign == self.seeds
    }
}

/// The paper's observations, as computed over the seeds.
///
/// * `wh_row`: the cell with Algorithm 1's largest mean absolute error
///   (over the seeds) is in the `wh` row, and its error has the same sign
///   in every seed. `wh_row_repeatable`, the weaker reading: some cell of
///   the `wh` row has an error of the same sign in every seed and of mean
///   size at least [`VISIBLE`].
/// * `pe_column`: the cell with Algorithm 2's largest mean absolute error
///   is in the `pe` column.
/// * `about_half`: the mean over seeds of Algorithm 2's worst absolute
///   error, divided by the same for Algorithm 1, lies in [`ABOUT_HALF`].
#[derive(Clone, Debug)]
pub struct Observations {
    /// The seeds run.
    pub seeds: Vec<u64>,
    /// Algorithm 1's cell with the largest mean absolute error.
    pub alg1_worst: CellStat,
    /// Algorithm 1's worst cell in the `wh` row, and outside it.
    pub alg1_in_row: Option<CellStat>,
    /// See `alg1_in_row`.
    pub alg1_outside_row: Option<CellStat>,
    /// Algorithm 1's cells with a repeatable error of mean size at least
    /// [`VISIBLE`].
    pub alg1_repeatable: Vec<CellStat>,
    /// Algorithm 2's cell with the largest mean absolute error.
    pub alg2_worst: CellStat,
    /// Algorithm 2's worst cell in the `pe` column, and outside it.
    pub alg2_in_column: Option<CellStat>,
    /// See `alg2_in_column`.
    pub alg2_outside_column: Option<CellStat>,
    /// Algorithm 2's worst cell in the `wh` row.
    pub alg2_in_row: Option<CellStat>,
    /// Mean over seeds of each run's worst absolute error.
    pub alg1_mean_worst: f64,
    /// See `alg1_mean_worst`.
    pub alg2_mean_worst: f64,
    /// Mean over seeds of the pairs with an error of at least [`VISIBLE`].
    pub alg1_mean_visible: f64,
    /// See `alg1_mean_visible`.
    pub alg2_mean_visible: f64,
    /// Observation 1, strictly: Algorithm 1's largest error is in the row.
    pub wh_row: bool,
    /// Observation 1, as the paper words it: the row has a repeatable error
    /// of mean size at least [`VISIBLE`] (not necessarily the largest).
    pub wh_row_repeatable: bool,
    /// Observation 2.
    pub pe_column: bool,
    /// Observation 3.
    pub about_half: bool,
}

impl Observations {
    /// `alg2_mean_worst / alg1_mean_worst`.
    pub fn ratio(&self) -> f64 {
        self.alg2_mean_worst / self.alg1_mean_worst
    }
}

/// The whole table.
#[derive(Clone, Debug)]
pub struct Table1 {
    /// The exact analysis (Table 1(b)).
    pub exact: Analysis,
    /// The exact probabilities as a grid.
    pub probabilities: Grid,
    /// Algorithm 1 at the first seed (Table 1(c)).
    pub alg1: Run,
    /// Algorithm 2 at the first seed (Table 1(d)).
    pub alg2: Run,
    /// The observations over every seed.
    pub observations: Observations,
}

/// Why the table could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Table1Error {
    /// The exact count failed.
    #[error(transparent)]
    Count(#[from] CountError),
    /// The game has no consistent deal.
    #[error("the game has no consistent deal")]
    Inconsistent,
    /// No seeds.
    #[error("at least one seed is needed")]
    NoSeeds,
}

/// The places of `game` in the tables' order: seats, then the case file.
pub fn places(game: &Game) -> Vec<Place> {
    game.places().collect()
}

fn grid(game: &Game, f: impl Fn(sleuth_core::Card, Place) -> f64) -> Grid {
    let places = places(game);
    game.deck().cards().map(|c| places.iter().map(|&p| f(c, p)).collect()).collect()
}

fn run(game: &Game, exact: &Analysis, formula: &Formula, config: &WalkSatConfig, seed: u64) -> Run {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let e: Estimate = search_and_sample(formula, config, &mut rng);
    let estimate = grid(game, |c, p| e.probability(c, p));
    let error = grid(game, |c, p| {
        if exact.status(c, p) == Status::Maybe {
            e.probability(c, p) - exact.probability(c, p)
        } else {
            0.0
        }
    });
    Run { seed, estimate, error, samples: e.samples() }
}

fn cell_stats(game: &Game, runs: &[Run]) -> Vec<CellStat> {
    let places = places(game);
    let mut out = Vec::new();
    for (ci, card) in game.deck().cards().enumerate() {
        for (pi, &place) in places.iter().enumerate() {
            let errors: Vec<f64> = runs.iter().map(|r| r.error[ci][pi]).collect();
            let n = errors.len() as f64;
            let mean_error = errors.iter().sum::<f64>() / n;
            let mean_abs = errors.iter().map(|e| e.abs()).sum::<f64>() / n;
            let same_sign = errors.iter().filter(|&&e| e != 0.0 && (e > 0.0) == (mean_error > 0.0)).count();
            out.push(CellStat {
                card: game.deck().id(card).to_string(),
                place: game.place_id(place).to_string(),
                mean_error,
                mean_abs,
                same_sign,
                seeds: runs.len(),
            });
        }
    }
    out
}

fn worst<'a>(cells: impl Iterator<Item = &'a CellStat>) -> Option<CellStat> {
    cells.max_by(|a, b| a.mean_abs.total_cmp(&b.mean_abs)).cloned()
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        0.0
    } else {
        s / n as f64
    }
}

/// Computes Table 1 for `game`: the exact probabilities, Algorithm 1 and 2
/// with `iterations` steps at every seed of `seeds` (the first one is the
/// one tabulated), and the observations over all of them.
///
/// # Errors
/// [`Table1Error`] when the game cannot be counted, has no consistent deal,
/// or `seeds` is empty.
pub fn table1(game: &Game, iterations: u64, seeds: &[u64]) -> Result<Table1, Table1Error> {
    if seeds.is_empty() {
        return Err(Table1Error::NoSeeds);
    }
    let exact = Analysis::new(game)?;
    let formula = Formula::new(game, &exact).ok_or(Table1Error::Inconsistent)?;
    let (alg1, alg2) =
        (WalkSatConfig::alg1().with_iterations(iterations), WalkSatConfig::alg2().with_iterations(iterations));
    let runs1: Vec<Run> = seeds.iter().map(|&s| run(game, &exact, &formula, &alg1, s)).collect();
    let runs2: Vec<Run> = seeds.iter().map(|&s| run(game, &exact, &formula, &alg2, s)).collect();
    let (cells1, cells2) = (cell_stats(game, &runs1), cell_stats(game, &runs2));
    let alg1_worst = worst(cells1.iter()).expect("a deck has cards");
    let alg2_worst = worst(cells2.iter()).expect("a deck has cards");
    let observations = Observations {
        seeds: seeds.to_vec(),
        alg1_in_row: worst(cells1.iter().filter(|c| c.card == PAPER_ROW)),
        alg1_outside_row: worst(cells1.iter().filter(|c| c.card != PAPER_ROW)),
        alg1_repeatable: {
            let mut v: Vec<CellStat> =
                cells1.iter().filter(|c| c.repeatable() && c.mean_error.abs() >= VISIBLE).cloned().collect();
            v.sort_by(|a, b| b.mean_abs.total_cmp(&a.mean_abs));
            v
        },
        alg2_in_column: worst(cells2.iter().filter(|c| c.place == PAPER_COLUMN)),
        alg2_outside_column: worst(cells2.iter().filter(|c| c.place != PAPER_COLUMN)),
        alg2_in_row: worst(cells2.iter().filter(|c| c.card == PAPER_ROW)),
        alg1_mean_worst: mean(runs1.iter().map(Run::worst)),
        alg2_mean_worst: mean(runs2.iter().map(Run::worst)),
        alg1_mean_visible: mean(runs1.iter().map(|r| r.visible() as f64)),
        alg2_mean_visible: mean(runs2.iter().map(|r| r.visible() as f64)),
        wh_row: alg1_worst.card == PAPER_ROW && alg1_worst.repeatable(),
        wh_row_repeatable: cells1
            .iter()
            .any(|c| c.card == PAPER_ROW && c.repeatable() && c.mean_error.abs() >= VISIBLE),
        pe_column: alg2_worst.place == PAPER_COLUMN,
        about_half: false,
        alg1_worst,
        alg2_worst,
    };
    let ratio = observations.ratio();
    let observations = Observations { about_half: (ABOUT_HALF.0..=ABOUT_HALF.1).contains(&ratio), ..observations };
    let probabilities = grid(game, |c, p| exact.probability(c, p));
    let mut runs1 = runs1;
    let mut runs2 = runs2;
    Ok(Table1 { exact, probabilities, alg1: runs1.swap_remove(0), alg2: runs2.swap_remove(0), observations })
}

/// The hands of `size` cards for `game`'s observer that are consistent with
/// its events and leave exactly `uncertain` cards without a certain place:
/// the readings of a table that gives the events but not the hand. Each
/// with its number of consistent deals.
///
/// # Errors
/// [`CountError`] from the exact counter.
pub fn candidate_hands(game: &Game, size: usize, uncertain: usize) -> Result<Vec<(Vec<String>, u128)>, CountError> {
    let Some((me, _)) = game.observer() else { return Ok(Vec::new()) };
    let deck = game.deck();
    let mut out = Vec::new();
    for hand in deck.all().subsets_of_size(size) {
        let mut file = game.to_file();
        file.hand = Some(deck.ids(hand));
        file.me = Some(game.player_id(me).to_string());
        let Ok(g) = Game::new(&file) else { continue };
        let a = Analysis::new(&g)?;
        if !a.is_consistent() {
            continue;
        }
        let open = deck.cards().filter(|&c| !g.places().any(|p| a.status(c, p) == Status::Yes)).count();
        if open == uncertain {
            out.push((deck.ids(hand), a.models()));
        }
    }
    Ok(out)
}
