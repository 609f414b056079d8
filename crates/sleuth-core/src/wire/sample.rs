//! The sampled estimate's wire type (`sleuth sample --json`).

use super::{ids, places, table, Count, Status, Table};
use crate::model::{Card, CardSet, Game, Place};
use crate::sample::Estimate;
use serde::{Deserialize, Serialize};

/// Probabilities estimated from sampled deals: the analysis's keys with
/// estimates, plus how they were sampled and 95 % intervals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Sample {
    /// `true` when a deal fits (counted exactly, or a deal was sampled);
    /// `null` when the game is too large to count and no deal was sampled.
    pub consistent: Option<bool>,
    /// The exact number of consistent deals, or `null` when the game is too
    /// large for the exact counter.
    pub models: Option<Count>,
    /// How the estimate was computed, in words (sampler, samples, seed).
    pub method: String,
    /// The sampler: `uniform`, `alg1`, `alg2`, `a` to `e`, or `custom`.
    pub sampler: String,
    /// The number of samples recorded.
    pub samples: u64,
    /// The random seed.
    pub seed: u64,
    /// Whether the samples are independent draws.
    pub independent: bool,
    /// The player ids in seat order, then `"case_file"`.
    pub places: Vec<String>,
    /// The estimated probability of each card at each place.
    pub probabilities: Table<f64>,
    /// A 95 % interval `[lo, hi]` around each estimate.
    pub intervals: Table<[f64; 2]>,
    /// What is certain: by exact deduction, or (for a game too large to
    /// count) by propagation.
    pub status: Table<Status>,
    /// The case files seen among the samples, most frequent first.
    pub case_file: Vec<SampledCaseFile>,
    /// The face-up cards.
    pub face_up: Vec<String>,
}

/// A case file seen among the samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SampledCaseFile {
    /// One card id per category, in category order.
    pub cards: Vec<String>,
    /// Its frequency among the samples.
    pub probability: f64,
    /// How many samples had it.
    pub samples: u64,
}

impl Sample {
    /// The wire form of `estimate`, sampled from `game` with `sampler` and
    /// `seed`: `models` is the exact count when known, `status` what is
    /// certain, `case_files` each case file seen with its number of samples,
    /// most frequent first.
    pub fn new(
        game: &Game,
        estimate: &Estimate,
        models: Option<u128>,
        status: impl Fn(Card, Place) -> crate::Status,
        sampler: &str,
        seed: u64,
        case_files: &[(CardSet, u64)],
    ) -> Sample {
        let samples = estimate.samples();
        Sample {
            // Without the exact count, a deal sampled shows that one fits.
            consistent: (models.is_some() || samples > 0).then_some(true),
            models: models.map(Count),
            method: estimate.method().to_string(),
            sampler: sampler.to_string(),
            samples,
            seed,
            independent: estimate.independent(),
            places: places(game),
            probabilities: table(game, |c, p| estimate.probability(c, p)),
            intervals: table(game, |c, p| {
                let i = estimate.interval(c, p);
                [i.lo, i.hi]
            }),
            status: table(game, |c, p| status(c, p).into()),
            case_file: case_files
                .iter()
                .map(|&(cards, n)| SampledCaseFile {
                    cards: ids(game, cards),
                    probability: if samples == 0 { 0.0 } else { n as f64 / samples as f64 },
                    samples: n,
                })
                .collect(),
            face_up: ids(game, game.face_up()),
        }
    }
}
