//! Neller and Luo's Table 1: one game state, its exact card-place
//! probabilities (b), and Algorithm 1's (c) and Algorithm 2's (d)
//! estimates of them over several seeds, with the paper's observations on
//! (c) and (d) read at each seed as the paper words them (section 4.3):
//!
//! 1. "Boldface estimates in the `wh` row of Table 1(c) have errors that
//!    are both significant and repeatable across runs of Algorithm 1", and
//!    Algorithm 2's estimates there "are much closer to exact values";
//! 2. "the greatest errors in our Algorithm 2 estimates \[are\] in the
//!    Peacock (`pe`) columns";
//! 3. they "are roughly half the magnitude of the worst errors observed
//!    with Algorithm 1",
//! 4. "and such errors are much less common".
//!
//! The paper claims none of these for every run, and none more than it
//! says: it does not say that Algorithm 1's worst error is in the `wh` row,
//! and its own table has Algorithm 2's worst error at 0.29 of Algorithm 1's,
//! so "roughly half" is read as "half or less" ([`HALF_OR_LESS`]). Each
//! criterion is a method of [`Reading`]; how often each holds is counted
//! over the seeds.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sleuth_core::sample::{search_and_sample, Estimate, Formula, WalkSatConfig};
use sleuth_core::{Analysis, CountError, Game, Place, Status};

/// The card whose row the paper singles out for Algorithm 1's errors.
pub const PAPER_ROW: &str = "wh";
/// The player whose column the paper singles out for Algorithm 2's errors.
pub const PAPER_COLUMN: &str = "pe";
/// A "significant" error, one the paper would set in bold: it shows in the
/// second decimal of a two-decimal table by more than rounding (the paper
/// does not state its threshold).
pub const SIGNIFICANT: f64 = 0.02;
/// "Roughly half", "much closer", "much less common": the second quantity
/// is at most this fraction of the first (one half, with room for
/// "roughly").
pub const HALF_OR_LESS: f64 = 2.0 / 3.0;

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

    /// Pairs with an absolute error of at least [`SIGNIFICANT`].
    pub fn significant(&self) -> usize {
        self.error.iter().flatten().filter(|e| e.abs() >= SIGNIFICANT).count()
    }

    /// The `(card index, place index)` of the largest absolute error (the
    /// first in card, then place order, on a tie).
    pub fn worst_cell(&self) -> (usize, usize) {
        let mut best = (0, 0);
        for (ci, row) in self.error.iter().enumerate() {
            for (pi, e) in row.iter().enumerate() {
                if e.abs() > self.error[best.0][best.1].abs() {
                    best = (ci, pi);
                }
            }
        }
        best
    }

    /// The largest absolute error in card row `ci`.
    pub fn row_worst(&self, ci: usize) -> f64 {
        self.error[ci].iter().fold(0.0, |m: f64, e| m.max(e.abs()))
    }
}

/// A cell of the table, by ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The card id.
    pub card: String,
    /// The place id (`case_file` for the case file).
    pub place: String,
}

/// One seed's pair of runs, Algorithm 1 and 2, read as the paper reads its
/// Tables 1(c) and (d): each method is one of its observations.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The seed.
    pub seed: u64,
    /// Each algorithm's cell with the largest absolute error.
    pub worst_cell: [Cell; 2],
    /// Each algorithm's largest absolute error.
    pub worst: [f64; 2],
    /// Each algorithm's largest absolute error in the [`PAPER_ROW`] row.
    pub row_worst: [f64; 2],
    /// Each algorithm's cells with an absolute error of at least
    /// [`SIGNIFICANT`].
    pub significant: [usize; 2],
}

impl Reading {
    /// Observation 1: Algorithm 1 has a significant error in the `wh` row.
    pub fn row_significant(&self) -> bool {
        self.row_worst[0] >= SIGNIFICANT
    }

    /// Observation 1, continued: Algorithm 2's `wh` row is much closer to
    /// the exact values (its largest error there at most [`HALF_OR_LESS`]
    /// of Algorithm 1's).
    pub fn row_much_closer(&self) -> bool {
        self.row_worst[0] > 0.0 && self.row_worst[1] <= HALF_OR_LESS * self.row_worst[0]
    }

    /// Observation 2: Algorithm 2's greatest error is in the `pe` column.
    pub fn greatest_in_column(&self) -> bool {
        self.worst_cell[1].place == PAPER_COLUMN
    }

    /// Algorithm 2's greatest error over Algorithm 1's.
    pub fn ratio(&self) -> f64 {
        self.worst[1] / self.worst[0]
    }

    /// Observation 3: Algorithm 2's greatest error is roughly half of
    /// Algorithm 1's or less.
    pub fn about_half(&self) -> bool {
        self.worst[0] > 0.0 && self.ratio() <= HALF_OR_LESS
    }

    /// Observation 4: significant errors are much less common with
    /// Algorithm 2.
    pub fn much_less_common(&self) -> bool {
        self.significant[0] > 0 && self.significant[1] as f64 <= HALF_OR_LESS * self.significant[0] as f64
    }
}

/// One open cell's estimates and errors across the seeds, for one algorithm.
#[derive(Clone, Debug, PartialEq)]
pub struct CellStat {
    /// The cell.
    pub cell: Cell,
    /// The exact probability.
    pub exact: f64,
    /// Mean, smallest and largest estimate over the seeds.
    pub mean: f64,
    /// See `mean`.
    pub min: f64,
    /// See `mean`.
    pub max: f64,
    /// Seeds whose error has the sign of the mean error (and is not 0).
    pub same_sign: usize,
    /// Seeds.
    pub seeds: usize,
}

impl CellStat {
    /// Mean error over the seeds.
    pub fn mean_error(&self) -> f64 {
        self.mean - self.exact
    }

    /// Whether the error has the same sign in every seed.
    pub fn repeatable(&self) -> bool {
        self.seeds > 0 && self.same_sign == self.seeds
    }
}

/// The whole table.
#[derive(Clone, Debug)]
pub struct Table1 {
    /// The exact analysis (Table 1(b)).
    pub exact: Analysis,
    /// The exact probabilities as a grid.
    pub probabilities: Grid,
    /// Algorithm 1's runs (Table 1(c)), one per seed, in seed order.
    pub alg1: Vec<Run>,
    /// Algorithm 2's runs (Table 1(d)).
    pub alg2: Vec<Run>,
    /// Each seed's reading of the observations.
    pub readings: Vec<Reading>,
    /// The open cells (neither certain nor impossible), with each
    /// algorithm's statistics over the seeds: `(Algorithm 1, Algorithm 2)`.
    pub cells: Vec<(CellStat, CellStat)>,
}

impl Table1 {
    /// Seeds at which `holds` is true of the reading.
    pub fn holds(&self, holds: impl Fn(&Reading) -> bool) -> usize {
        self.readings.iter().filter(|r| holds(r)).count()
    }

    /// Observation 1's "repeatable across runs": the cells of the `wh` row
    /// whose Algorithm 1 error has the same sign at every seed and a mean
    /// size of at least [`SIGNIFICANT`].
    pub fn repeatable_in_row(&self) -> Vec<&CellStat> {
        self.cells
            .iter()
            .map(|(a, _)| a)
            .filter(|c| c.cell.card == PAPER_ROW && c.repeatable() && c.mean_error().abs() >= SIGNIFICANT)
            .collect()
    }
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

fn cell(game: &Game, ci: usize, pi: usize) -> Cell {
    let card = game.deck().cards().nth(ci).expect("a card of the deck");
    Cell { card: game.deck().id(card).to_string(), place: game.place_id(places(game)[pi]).to_string() }
}

fn reading(game: &Game, row: Option<usize>, alg1: &Run, alg2: &Run) -> Reading {
    let runs = [alg1, alg2];
    let (w1, w2) = (alg1.worst_cell(), alg2.worst_cell());
    Reading {
        seed: alg1.seed,
        worst_cell: [cell(game, w1.0, w1.1), cell(game, w2.0, w2.1)],
        worst: runs.map(Run::worst),
        row_worst: runs.map(|r| row.map_or(0.0, |ci| r.row_worst(ci))),
        significant: runs.map(Run::significant),
    }
}

fn cell_stat(game: &Game, runs: &[Run], exact: f64, ci: usize, pi: usize) -> CellStat {
    let estimates: Vec<f64> = runs.iter().map(|r| r.estimate[ci][pi]).collect();
    let n = estimates.len() as f64;
    let mean = estimates.iter().sum::<f64>() / n;
    let up = mean > exact;
    CellStat {
        cell: cell(game, ci, pi),
        exact,
        mean,
        min: estimates.iter().copied().fold(f64::INFINITY, f64::min),
        max: estimates.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        same_sign: estimates.iter().filter(|&&e| e != exact && (e > exact) == up).count(),
        seeds: runs.len(),
    }
}

/// Computes Table 1 for `game`: the exact probabilities, and Algorithm 1
/// and 2 with `iterations` steps at every seed of `seeds`, read seed by
/// seed and cell by cell.
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
    let (config1, config2) =
        (WalkSatConfig::alg1().with_iterations(iterations), WalkSatConfig::alg2().with_iterations(iterations));
    let alg1: Vec<Run> = seeds.iter().map(|&s| run(game, &exact, &formula, &config1, s)).collect();
    let alg2: Vec<Run> = seeds.iter().map(|&s| run(game, &exact, &formula, &config2, s)).collect();
    let row = game.deck().cards().position(|c| game.deck().id(c) == PAPER_ROW);
    let readings = alg1.iter().zip(&alg2).map(|(a, b)| reading(game, row, a, b)).collect();
    let probabilities = grid(game, |c, p| exact.probability(c, p));
    let places = places(game);
    let mut cells = Vec::new();
    for (ci, c) in game.deck().cards().enumerate() {
        for (pi, &p) in places.iter().enumerate() {
            if exact.status(c, p) == Status::Maybe {
                let x = probabilities[ci][pi];
                cells.push((cell_stat(game, &alg1, x, ci, pi), cell_stat(game, &alg2, x, ci, pi)));
            }
        }
    }
    Ok(Table1 { exact, probabilities, alg1, alg2, readings, cells })
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
            out.push((deck.ids(hand), a.consistent_deals()));
        }
    }
    Ok(out)
}
