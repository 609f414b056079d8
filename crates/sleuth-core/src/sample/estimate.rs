//! Probability estimates from samples, with 95 % confidence intervals, and
//! the paper's error measure (RMSD against exact values).

use rand::Rng;

use super::{Deal, UniformSampler};
use crate::analysis::Analysis;
use crate::count::CountError;
use crate::deduce::CountProblem;
use crate::model::Status;
use crate::model::{Card, Game, Place};

/// The standard normal quantile for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The fewest complete batches kept for batch means (between this many and
/// twice as many are kept once there are enough samples).
const MIN_BATCHES: usize = 32;

/// A closed interval of probabilities.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Interval {
    /// The lower end.
    pub lo: f64,
    /// The upper end.
    pub hi: f64,
}

impl Interval {
    /// Whether `x` lies in the interval.
    pub fn contains(self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// The smallest interval containing both.
    pub fn hull(self, other: Interval) -> Interval {
        Interval { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }

    /// `hi - lo`.
    pub fn width(self) -> f64 {
        self.hi - self.lo
    }
}

/// The Wilson score interval (95 %) for `k` successes in `n` independent
/// trials; `[0, 1]` when `n` is 0.
///
/// # Examples
/// ```
/// let i = sleuth_core::sample::wilson(0, 10);
/// assert!(i.lo == 0.0 && (i.hi - 0.2775).abs() < 1e-4);
/// ```
pub fn wilson(k: u64, n: u64) -> Interval {
    if n == 0 {
        return Interval { lo: 0.0, hi: 1.0 };
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // The ends are exactly 0 and 1 at k = 0 and k = n; say so despite rounding.
    let lo = if k == 0 { 0.0 } else { (center - half).max(0.0) };
    let hi = if k as f64 == n { 1.0 } else { (center + half).min(1.0) };
    Interval { lo, hi }
}

/// The 0.975 quantile of Student's t distribution with `df` degrees of
/// freedom (a table up to 30, then the Cornish-Fisher expansion, accurate
/// to about 1e-5 there).
fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    if (1..=30).contains(&df) {
        return TABLE[df - 1];
    }
    let z = Z95;
    let v = df as f64;
    let g1 = (z.powi(3) + z) / 4.0;
    let g2 = (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / 96.0;
    let g3 = (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / 384.0;
    z + g1 / v + g2 / (v * v) + g3 / (v * v * v)
}

/// Counts of consecutive samples in batches of equal size, for batch-means
/// intervals. Batches start with one sample each; whenever `2 *
/// MIN_BATCHES` are complete, neighbours merge and the size doubles.
#[derive(Clone, Debug)]
pub(super) struct Batches {
    size: u64,
    cur_n: u64,
    cur: Vec<u32>,
    done: Vec<Vec<u32>>,
}

impl Batches {
    pub(super) fn new(num_vars: usize) -> Batches {
        Batches { size: 1, cur_n: 0, cur: vec![0; num_vars], done: Vec::new() }
    }

    /// Counts one more sample in which variable `v` is true.
    #[inline]
    pub(super) fn hit(&mut self, v: usize) {
        self.cur[v] += 1;
    }

    /// Closes the current sample.
    pub(super) fn end_sample(&mut self) {
        self.cur_n += 1;
        if self.cur_n < self.size {
            return;
        }
        let fresh = vec![0; self.cur.len()];
        let full = std::mem::replace(&mut self.cur, fresh);
        self.done.push(full);
        self.cur_n = 0;
        if self.done.len() == 2 * MIN_BATCHES {
            let old = std::mem::take(&mut self.done);
            for pair in old.chunks(2) {
                self.done.push(pair[0].iter().zip(&pair[1]).map(|(a, b)| a + b).collect());
            }
            self.size *= 2;
        }
    }
}

/// How a WalkSAT-style search went.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Search steps run (the iteration budget).
    pub iterations: u64,
    /// Variable flips made.
    pub flips: u64,
    /// Random restarts, the initial one included.
    pub restarts: u64,
    /// Satisfying assignments reached, duplicates included.
    pub solutions: u64,
}

/// Estimated probabilities of every card-place pair, from samples.
///
/// Probabilities are frequencies among the recorded samples. Atoms the
/// sampler was told are certain (fixed variables) are reported exactly.
///
/// Two 95 % intervals are available for each pair:
///
/// * [`wilson`](Estimate::wilson): the Wilson score interval, valid when the
///   samples are independent draws from the distribution being estimated,
///   as the [`UniformSampler`]'s are.
/// * [`batch_means`](Estimate::batch_means): consecutive samples are grouped
///   in 32 to 63 batches of equal size, and the interval is the mean batch
///   frequency ± t·sd/√batches. It allows for correlation between
///   consecutive samples, as in WalkSAT's, provided batches are long
///   enough to be nearly independent.
///
/// What neither covers: a WalkSAT sampler's samples are not uniform over the
/// consistent deals (its bias is what the paper measures), so for it both
/// intervals are about the long-run frequency *of that sampler*, not the
/// exact probability; a systematic bias lies outside them. For the uniform
/// sampler the exact probability is that long-run frequency, so the
/// intervals do cover it at about the nominal rate.
#[derive(Clone, Debug)]
pub struct Estimate {
    method: String,
    num_players: usize,
    num_places: usize,
    samples: u64,
    counts: Vec<u64>,
    fixed: Vec<Option<bool>>,
    batches: Option<(u64, Vec<Vec<u32>>)>,
    independent: bool,
    stats: Option<SearchStats>,
}

impl Estimate {
    /// Assembles an estimate (for the samplers of this module).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn from_parts(
        method: String,
        num_players: usize,
        samples: u64,
        counts: Vec<u64>,
        fixed: Vec<Option<bool>>,
        batches: Batches,
        independent: bool,
        stats: Option<SearchStats>,
    ) -> Estimate {
        let batches = (batches.done.len() >= 2).then_some((batches.size, batches.done));
        Estimate {
            method,
            num_players,
            num_places: num_players + 1,
            samples,
            counts,
            fixed,
            batches,
            independent,
            stats,
        }
    }

    /// How the estimate was computed, e.g. `"alg2: WalkSAT ..."` or
    /// `"uniform: 1000 independent exactly uniform draws"`.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// Replaces the method description (to add a seed, say).
    pub fn with_method(mut self, method: impl Into<String>) -> Estimate {
        self.method = method.into();
        self
    }

    /// The number of recorded samples.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// Whether the samples are independent draws (so that
    /// [`wilson`](Estimate::wilson) applies as it stands).
    pub fn independent(&self) -> bool {
        self.independent
    }

    /// Search statistics, for WalkSAT-style samplers.
    pub fn stats(&self) -> Option<SearchStats> {
        self.stats
    }

    fn index(&self, card: Card, place: Place) -> usize {
        card.index() * self.num_places + place.index(self.num_players)
    }

    fn fixed_at(&self, i: usize) -> Option<bool> {
        self.fixed.get(i).copied().flatten()
    }

    /// The number of recorded samples with `card` at `place`.
    pub fn count(&self, card: Card, place: Place) -> u64 {
        self.counts[self.index(card, place)]
    }

    /// Whether the pair was fixed (known exactly) rather than sampled.
    pub fn is_fixed(&self, card: Card, place: Place) -> bool {
        self.fixed_at(self.index(card, place)).is_some()
    }

    /// The estimated probability of `card` at `place`: 0 or 1 for fixed
    /// pairs, otherwise the frequency among the samples (0 when there are
    /// none; check [`samples`](Estimate::samples)).
    pub fn probability(&self, card: Card, place: Place) -> f64 {
        let i = self.index(card, place);
        match self.fixed_at(i) {
            Some(v) => f64::from(u8::from(v)),
            None if self.samples == 0 => 0.0,
            None => self.counts[i] as f64 / self.samples as f64,
        }
    }

    /// The Wilson score 95 % interval (a single point for fixed pairs).
    /// Valid as a confidence interval for independent samples only.
    pub fn wilson(&self, card: Card, place: Place) -> Interval {
        let i = self.index(card, place);
        match self.fixed_at(i) {
            Some(v) => point(v),
            None => wilson(self.counts[i], self.samples),
        }
    }

    /// The batch-means 95 % interval (a single point for fixed pairs), or
    /// `None` with fewer than two complete batches.
    pub fn batch_means(&self, card: Card, place: Place) -> Option<Interval> {
        let i = self.index(card, place);
        if let Some(v) = self.fixed_at(i) {
            return Some(point(v));
        }
        let (size, batches) = self.batches.as_ref()?;
        let b = batches.len() as f64;
        let props = batches.iter().map(|counts| f64::from(counts[i]) / *size as f64);
        let mean = props.clone().sum::<f64>() / b;
        let var = props.map(|p| (p - mean) * (p - mean)).sum::<f64>() / (b - 1.0);
        let half = t975(batches.len() - 1) * (var / b).sqrt();
        Some(Interval { lo: (mean - half).max(0.0), hi: (mean + half).min(1.0) })
    }

    /// The recommended 95 % interval: Wilson's for independent samples;
    /// for correlated ones, the hull of Wilson's and the batch-means
    /// interval (so never narrower than an independent sample of the same
    /// size would give). See the type's documentation for what it covers.
    pub fn interval(&self, card: Card, place: Place) -> Interval {
        let w = self.wilson(card, place);
        if self.independent {
            return w;
        }
        match self.batch_means(card, place) {
            Some(b) => w.hull(b),
            None => w,
        }
    }
}

fn point(v: bool) -> Interval {
    let x = f64::from(u8::from(v));
    Interval { lo: x, hi: x }
}

/// The paper's error measure: the root-mean-square deviation of the
/// estimates from the exact probabilities over the card-place pairs that
/// are neither certain nor impossible (status [`Status::Maybe`]); `None`
/// when there are no such pairs or no samples.
pub fn rmsd(estimate: &Estimate, analysis: &Analysis) -> Option<f64> {
    if estimate.samples == 0 {
        return None;
    }
    let mut sum = 0.0;
    let mut n = 0usize;
    for card in 0..estimate.counts.len() / estimate.num_places {
        let card = Card::new(card);
        for q in 0..estimate.num_places {
            let place = Place::from_index(q, estimate.num_players);
            if analysis.status(card, place) == Status::Maybe {
                let d = estimate.probability(card, place) - analysis.probability(card, place);
                sum += d * d;
                n += 1;
            }
        }
    }
    (n > 0).then(|| (sum / n as f64).sqrt())
}

/// Estimates every card-place probability of a game from `draws`
/// independent exactly uniform deals; `Ok(None)` when no deal is
/// consistent.
///
/// # Errors
/// [`CountError`] when the game is too large for the exact counter.
pub fn estimate_uniform<R: Rng + ?Sized>(game: &Game, draws: u64, rng: &mut R) -> Result<Option<Estimate>, CountError> {
    let sampler = UniformSampler::new(&CountProblem::new(game), &crate::CountOptions::default())?;
    Ok(sampler.map(|s| estimate_with_sampler(&s, game, draws, rng)))
}

/// Like [`estimate_uniform`], with a prepared sampler (which must be the
/// game's).
pub fn estimate_with_sampler<R: Rng + ?Sized>(
    sampler: &UniformSampler,
    game: &Game,
    draws: u64,
    rng: &mut R,
) -> Estimate {
    estimate_from_deals(game, (0..draws).map(|_| sampler.sample(rng)), "uniform", true)
        .with_method(format!("uniform: {draws} independent exactly uniform draws"))
}

/// An estimate from deals of a game (`deal[card]`), in the order drawn;
/// `independent` says whether they are independent draws. The method
/// description is `method`.
pub fn estimate_from_deals(
    game: &Game,
    deals: impl IntoIterator<Item = Deal>,
    method: &str,
    independent: bool,
) -> Estimate {
    let n = game.num_players();
    let np = n + 1;
    let num_vars = game.deck().len() * np;
    let mut counts = vec![0u64; num_vars];
    let mut batches = Batches::new(num_vars);
    let mut samples = 0;
    for deal in deals {
        for (c, p) in deal.iter().take(game.deck().len()).enumerate() {
            if let Some(p) = p {
                let v = c * np + p.index(n);
                counts[v] += 1;
                batches.hit(v);
            }
        }
        batches.end_sample();
        samples += 1;
    }
    Estimate::from_parts(method.to_string(), n, samples, counts, Vec::new(), batches, independent, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_reference_values() {
        let i = wilson(5, 10);
        assert!((i.lo - 0.2366).abs() < 1e-4 && (i.hi - 0.7634).abs() < 1e-4, "{i:?}");
        let i = wilson(10, 10);
        assert!((i.lo - 0.7225).abs() < 1e-4 && i.hi == 1.0, "{i:?}");
        let i = wilson(81, 263);
        assert!((i.lo - 0.2553).abs() < 1e-4 && (i.hi - 0.3662).abs() < 1e-4, "{i:?}");
        assert_eq!(wilson(0, 0), Interval { lo: 0.0, hi: 1.0 });
    }

    #[test]
    fn t_quantiles_are_continuous_past_the_table() {
        assert!((t975(30) - 2.042).abs() < 1e-3);
        assert!((t975(31) - 2.0395).abs() < 1e-3);
        assert!((t975(60) - 2.0003).abs() < 1e-3);
        assert!((t975(1000) - 1.9623).abs() < 1e-3);
    }

    #[test]
    fn batches_merge_and_keep_equal_sizes() {
        let mut b = Batches::new(2);
        for s in 0..1000u32 {
            if s % 2 == 0 {
                b.hit(0);
            }
            b.end_sample();
        }
        assert!((MIN_BATCHES..2 * MIN_BATCHES).contains(&b.done.len()));
        let total: u64 = b.done.len() as u64 * b.size + b.cur_n;
        assert_eq!(total, 1000);
        for batch in &b.done {
            assert_eq!(u64::from(batch[0]), b.size / 2);
        }
    }
}
