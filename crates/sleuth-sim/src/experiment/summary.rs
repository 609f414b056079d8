//! Aggregating the runs: mean RMSD per method next to the paper's, per-state
//! means for the plots, the LOESS smoother, and `summary.json` /
//! `summary.md`.

use super::results::{io_err, write_file, Range, Results};
use super::{ExperimentError, Method, SamplingConfig};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// The paper's threshold: 10,000,000 consistent deals.
pub const PAPER_THRESHOLD: u64 = 10_000_000;

/// The LOESS span used for the curves (ggplot2's default for `loess`).
pub const SPAN: f64 = 0.75;

/// Means over the runs of one method in one range of states.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RangeStats {
    /// States with runs.
    pub states: usize,
    /// Runs.
    pub runs: usize,
    /// Mean RMSD over the runs (equal to the mean over states of the
    /// per-state means, since every state has the same number of runs).
    pub rmsd: Option<f64>,
    /// Mean samples recorded per run.
    pub samples: Option<f64>,
    /// Mean wall time per run, in milliseconds.
    pub ms: Option<f64>,
}

/// One method's row of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodSummary {
    /// The method's name.
    pub method: String,
    /// What it is.
    pub label: String,
    /// The paper's mean RMSD.
    pub paper_rmsd: Option<f64>,
    /// The paper's change relative to Algorithm 1 (e.g. -0.41).
    pub paper_vs_alg1: Option<f64>,
    /// Our change relative to Algorithm 1, in the paper's range.
    pub vs_alg1: Option<f64>,
    /// States within the threshold.
    pub paper: RangeStats,
    /// States beyond it.
    pub beyond: RangeStats,
    /// Every state.
    pub all: RangeStats,
}

/// How often one method's per-state mean RMSD beats another's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Wins {
    /// The method that should win.
    pub method: String,
    /// The one it is compared with.
    pub against: String,
    /// States (in the paper's range) where it has the lower mean RMSD.
    pub paper: usize,
    /// States in the paper's range compared.
    pub paper_of: usize,
    /// The same beyond the threshold.
    pub beyond: usize,
    /// States beyond compared.
    pub beyond_of: usize,
}

/// Mean RMSD per method over the states of one size class: a row of the
/// second table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizeRow {
    /// The class, e.g. `10^3–10^4` (by consistent deals).
    pub deals: String,
    /// States in it with runs.
    pub states: usize,
    /// Per method (in table order): the mean over its states of the
    /// per-state mean RMSD.
    pub rmsd: Vec<(String, Option<f64>)>,
}

/// The size classes of [`SizeRow`]: upper ends in log10(deals), the one
/// at 7 inclusive (the paper's threshold), then everything above.
const SIZE_EDGES: [f64; 6] = [2.0, 3.0, 4.0, 5.0, 6.0, 7.0];

fn size_class(log10: f64) -> usize {
    SIZE_EDGES.iter().position(|&e| if e == 7.0 { log10 <= e + 1e-12 } else { log10 < e }).unwrap_or(SIZE_EDGES.len())
}

fn size_label(class: usize) -> String {
    match class {
        0 => "< 10^2".to_string(),
        c if c < SIZE_EDGES.len() => format!("10^{}–10^{}", SIZE_EDGES[c - 1], SIZE_EDGES[c]),
        _ => "> 10^7".to_string(),
    }
}

/// Mean RMSD per method (of `methods`) by size class of the states.
pub fn by_size(means: &[StateMean], methods: &[Method]) -> Vec<SizeRow> {
    (0..=SIZE_EDGES.len())
        .map(|class| {
            let of = |m: Method| means.iter().filter(move |s| s.method == m && size_class(s.log10_models) == class);
            SizeRow {
                deals: size_label(class),
                states: means
                    .iter()
                    .filter(|s| size_class(s.log10_models) == class)
                    .map(|s| s.state.as_str())
                    .collect::<std::collections::BTreeSet<_>>()
                    .len(),
                rmsd: methods.iter().map(|&m| (m.name(), mean(of(m).map(|s| s.rmsd)))).collect(),
            }
        })
        .filter(|row| row.states > 0)
        .collect()
}

/// The summary of a run (`summary.json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The configuration.
    pub config: SamplingConfig,
    /// Games simulated.
    pub games: usize,
    /// Games whose states were used.
    pub games_used: usize,
    /// States counted exactly.
    pub states: usize,
    /// Of which within the threshold.
    pub states_paper: usize,
    /// Of which beyond it.
    pub states_beyond: usize,
    /// States sampled within the threshold.
    pub sampled_paper: usize,
    /// States sampled beyond it.
    pub sampled_beyond: usize,
    /// States not sampled because every card's place is certain.
    pub without_open_pairs: usize,
    /// Mean wall time of the exact analysis per sampled state, in
    /// milliseconds, within the threshold and beyond.
    pub exact_ms_paper: Option<f64>,
    /// See `exact_ms_paper`.
    pub exact_ms_beyond: Option<f64>,
    /// Mean wall time to prepare the uniform sampler per sampled state, in
    /// milliseconds.
    pub uniform_setup_ms: Option<f64>,
    /// One row per method, in table order.
    pub methods: Vec<MethodSummary>,
    /// Per-state comparisons.
    pub wins: Vec<Wins>,
    /// Mean RMSD by number of consistent deals.
    pub by_size: Vec<SizeRow>,
    /// Section 4.2.5's sweep: per tabu tenure that was run (duplicates
    /// eliminated), the method and its mean RMSD within the threshold.
    pub tenures: Vec<TenureRow>,
}

/// One tenure of the sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TenureRow {
    /// The tabu tenure.
    pub tenure: u64,
    /// The method that runs it.
    pub method: String,
    /// Mean RMSD within the threshold.
    pub rmsd: Option<f64>,
    /// The same beyond it.
    pub beyond: Option<f64>,
    /// Mean samples recorded per run, over every sampled state.
    pub samples: Option<f64>,
}

/// One method's mean over the runs on one state: a point of the plots.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StateMean {
    /// The state id.
    pub state: String,
    /// `log10` of its consistent deals.
    pub log10_models: f64,
    /// Its range.
    pub range: Range,
    /// The method.
    pub method: Method,
    /// Mean RMSD over the runs.
    pub rmsd: f64,
    /// Mean samples per run.
    pub samples: f64,
    /// Runs.
    pub runs: usize,
}

fn mean(xs: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = xs.into_iter().fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// Per-state means of every method, ordered by method, then by deals.
pub fn state_means(results: &Results) -> Vec<StateMean> {
    /// log10(models), range, sum of RMSD, sum of samples, runs.
    type Acc = (f64, Range, f64, f64, usize);
    let mut acc: BTreeMap<(Method, String), Acc> = BTreeMap::new();
    for r in &results.runs {
        let Some(method) = Method::from_name(&r.method) else { continue };
        let e = acc.entry((method, r.state.clone())).or_insert((r.log10_models, r.range, 0.0, 0.0, 0));
        e.2 += r.rmsd;
        e.3 += r.samples as f64;
        e.4 += 1;
    }
    let mut out: Vec<StateMean> = acc
        .into_iter()
        .map(|((method, state), (x, range, rmsd, samples, runs))| StateMean {
            state,
            log10_models: x,
            range,
            method,
            rmsd: rmsd / runs as f64,
            samples: samples / runs as f64,
            runs,
        })
        .collect();
    out.sort_by(|a, b| a.method.cmp(&b.method).then(a.log10_models.total_cmp(&b.log10_models)));
    out
}

fn range_stats(results: &Results, method: Method, range: Option<Range>) -> RangeStats {
    let runs: Vec<_> =
        results.runs.iter().filter(|r| r.method == method.name() && range.is_none_or(|g| r.range == g)).collect();
    let states = runs.iter().map(|r| r.state.as_str()).collect::<std::collections::BTreeSet<_>>().len();
    RangeStats {
        states,
        runs: runs.len(),
        rmsd: mean(runs.iter().map(|r| r.rmsd)),
        samples: mean(runs.iter().map(|r| r.samples as f64)),
        ms: mean(runs.iter().map(|r| r.seconds * 1e3)),
    }
}

fn wins(means: &[StateMean], method: Method, against: Method) -> Wins {
    let of = |m: Method| -> BTreeMap<&str, (f64, Range)> {
        means.iter().filter(|s| s.method == m).map(|s| (s.state.as_str(), (s.rmsd, s.range))).collect()
    };
    let (a, b) = (of(method), of(against));
    let mut w = Wins { method: method.name(), against: against.name(), paper: 0, paper_of: 0, beyond: 0, beyond_of: 0 };
    for (state, (x, range)) in &a {
        let Some((y, _)) = b.get(state) else { continue };
        let (won, of) = match range {
            Range::Paper => (&mut w.paper, &mut w.paper_of),
            Range::Beyond => (&mut w.beyond, &mut w.beyond_of),
        };
        *of += 1;
        if x < y {
            *won += 1;
        }
    }
    w
}

/// The methods of a run, in table order.
pub fn methods_run(results: &Results) -> Vec<Method> {
    Method::ALL.into_iter().filter(|m| results.config.methods.contains(m)).collect()
}

/// Summarises a run.
pub fn summarize(results: &Results) -> Summary {
    let alg1 = range_stats(results, Method::Alg1, Some(Range::Paper)).rmsd;
    let run: Vec<Method> = methods_run(results);
    let methods = run
        .iter()
        .map(|&m| {
            let paper = range_stats(results, m, Some(Range::Paper));
            let rel = |x: Option<f64>, base: Option<f64>| Some(x? / base? - 1.0);
            MethodSummary {
                method: m.name(),
                label: m.label(),
                paper_rmsd: m.paper_rmsd(),
                paper_vs_alg1: rel(m.paper_rmsd(), Method::Alg1.paper_rmsd()),
                vs_alg1: rel(paper.rmsd, alg1),
                beyond: range_stats(results, m, Some(Range::Beyond)),
                all: range_stats(results, m, None),
                paper,
            }
        })
        .collect();
    let means = state_means(results);
    let sampled = |g: Range| results.states.iter().filter(move |s| s.sampled && s.range == g);
    Summary {
        config: results.config.clone(),
        games: results.games.len(),
        games_used: results.games.iter().filter(|g| g.status == "used").count(),
        states: results.states.len(),
        states_paper: results.states.iter().filter(|s| s.range == Range::Paper).count(),
        states_beyond: results.states.iter().filter(|s| s.range == Range::Beyond).count(),
        sampled_paper: sampled(Range::Paper).count(),
        sampled_beyond: sampled(Range::Beyond).count(),
        without_open_pairs: results.states.iter().filter(|s| s.open_pairs == 0).count(),
        exact_ms_paper: mean(sampled(Range::Paper).map(|s| s.exact_seconds * 1e3)),
        exact_ms_beyond: mean(sampled(Range::Beyond).map(|s| s.exact_seconds * 1e3)),
        uniform_setup_ms: mean(results.states.iter().filter_map(|s| s.uniform_setup_seconds).map(|t| t * 1e3)),
        methods,
        wins: [
            (Method::Alg2, Method::Alg1),
            (Method::D, Method::Alg1),
            (Method::Alg2, Method::D),
            (Method::B20, Method::B),
            (Method::UniformSamples, Method::Alg2),
            (Method::UniformTime, Method::Alg2),
        ]
        .into_iter()
        .filter(|(a, b)| run.contains(a) && run.contains(b))
        .map(|(a, b)| wins(&means, a, b))
        .collect(),
        by_size: by_size(&means, &run),
        tenures: Method::TENURES
            .into_iter()
            .filter(|(_, m)| run.contains(m))
            .map(|(tenure, m)| TenureRow {
                tenure,
                method: m.name(),
                rmsd: range_stats(results, m, Some(Range::Paper)).rmsd,
                beyond: range_stats(results, m, Some(Range::Beyond)).rmsd,
                samples: range_stats(results, m, None).samples,
            })
            .collect(),
    }
}

fn opt(x: Option<f64>, f: impl Fn(f64) -> String) -> String {
    x.map_or_else(|| "–".to_string(), f)
}

fn pct(x: f64) -> String {
    format!("{:+.0} %", 100.0 * x)
}

impl Summary {
    /// The threshold as text: `10^7` or the number.
    fn threshold(&self) -> String {
        match self.config.max_models {
            0 => "no threshold".to_string(),
            10_000_000 => "10^7".to_string(),
            m => m.to_string(),
        }
    }

    /// The table of mean RMSD per method next to the paper's, as Markdown.
    pub fn table(&self) -> String {
        let t = self.threshold();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "| method | paper | RMSD, ≤ {t} deals | vs Alg. 1, paper | vs Alg. 1, here | RMSD, > {t} deals | samples/run | ms/run |"
        );
        let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|");
        for m in &self.methods {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                m.label,
                opt(m.paper_rmsd, |x| format!("{x:.5}")),
                opt(m.paper.rmsd, |x| format!("{x:.5}")),
                opt(m.paper_vs_alg1, pct),
                opt(m.vs_alg1, pct),
                opt(m.beyond.rmsd, |x| format!("{x:.5}")),
                opt(m.all.samples, |x| format!("{x:.0}")),
                opt(m.all.ms, |x| format!("{x:.2}")),
            );
        }
        s
    }

    /// Mean RMSD per method by number of consistent deals, as Markdown.
    pub fn size_table(&self) -> String {
        let mut s = String::from("| deals | states |");
        let names: Vec<&str> = self.methods.iter().map(|m| m.method.as_str()).collect();
        for name in &names {
            let _ = write!(s, " {name} |");
        }
        s.push_str("\n|---|---:|");
        s.push_str(&"---:|".repeat(names.len()));
        s.push('\n');
        for row in &self.by_size {
            let _ = write!(s, "| {} | {} |", row.deals, row.states);
            for (_, x) in &row.rmsd {
                let _ = write!(s, " {} |", opt(*x, |x| format!("{x:.5}")));
            }
            s.push('\n');
        }
        s
    }

    /// The tenure sweep as Markdown (empty when fewer than two tenures
    /// ran).
    pub fn tenure_table(&self) -> String {
        if self.tenures.len() < 2 {
            return String::new();
        }
        let t = self.threshold();
        let mut s = format!("| tabu tenure | method | RMSD, ≤ {t} deals | RMSD, > {t} deals | samples/run |\n|---:|---|---:|---:|---:|\n");
        for r in &self.tenures {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                r.tenure,
                r.method,
                opt(r.rmsd, |x| format!("{x:.5}")),
                opt(r.beyond, |x| format!("{x:.5}")),
                opt(r.samples, |x| format!("{x:.0}"))
            );
        }
        s
    }

    /// What was counted and run, as Markdown bullet points.
    pub fn counts(&self) -> String {
        let c = &self.config;
        let t = self.threshold();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "- {} games simulated ({} players, classic deck, {} agents, seed {}), {} used",
            self.games,
            c.players,
            c.agents.as_str(),
            c.seed,
            self.games_used
        );
        let _ = writeln!(
            s,
            "- {} states counted exactly: {} with ≤ {t} consistent deals, {} beyond",
            self.states, self.states_paper, self.states_beyond
        );
        let _ = writeln!(
            s,
            "- sampled: {} states ≤ {t} and {} beyond ({} states with no open card-place pair skipped{})",
            self.sampled_paper,
            self.sampled_beyond,
            self.without_open_pairs,
            match (c.max_states, c.beyond) {
                (None, None) => String::new(),
                (m, b) => {
                    let part = |cap: Option<usize>, what: &str| match cap {
                        None => format!("every state {what}"),
                        Some(n) => format!("at most {n} state{} {what}", if n == 1 { "" } else { "s" }),
                    };
                    format!("; {} and {} per game", part(m, &format!("≤ {t}")), part(b, "beyond"))
                }
            }
        );
        let _ = writeln!(s, "- {} runs of {} iterations per method and state", c.runs, c.iterations);
        let _ = writeln!(
            s,
            "- exact analysis per sampled state: {} ms (≤ {t}), {} ms (beyond); uniform sampler setup {} ms",
            opt(self.exact_ms_paper, |x| format!("{x:.2}")),
            opt(self.exact_ms_beyond, |x| format!("{x:.2}")),
            opt(self.uniform_setup_ms, |x| format!("{x:.2}")),
        );
        for w in &self.wins {
            let _ = writeln!(
                s,
                "- {} has a lower mean RMSD than {} on {} of {} states ≤ {t} and {} of {} beyond",
                w.method, w.against, w.paper, w.paper_of, w.beyond, w.beyond_of
            );
        }
        s
    }

    /// `summary.md`: the counts and both tables.
    pub fn markdown(&self) -> String {
        format!(
            "# Sampling experiment (Neller and Luo, section 4.1)\n\n{}\n## Mean RMSD per method\n\n{}\n\
             RMSD is over the card-place pairs that are neither certain nor impossible. \
             \"paper\" is the paper's mean RMSD over its 539 states (all ≤ 10^7 deals); \
             samples/run and ms/run are over every sampled state.\n\n\
             ## Mean RMSD by number of consistent deals\n\n\
             Each cell is the mean over the states of the class of each state's mean RMSD.\n\n{}{}",
            self.counts(),
            self.table(),
            self.size_table(),
            if self.tenures.len() < 2 {
                String::new()
            } else {
                format!(
                    "\n## Tabu tenure sweep (section 4.2.5)\n\nDuplicates eliminated throughout; \
                     tenure 2 is Algorithm 2, tenure 10 is (d). The paper found tenure 2 best.\n\n{}",
                    self.tenure_table()
                )
            }
        )
    }
}

/// Writes `summary.json` and `summary.md` into `dir`.
///
/// # Errors
/// [`ExperimentError::Io`] or [`ExperimentError::Json`].
pub fn write_summary(dir: &Path, summary: &Summary) -> Result<(), ExperimentError> {
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let path = dir.join("summary.json");
    let json =
        serde_json::to_string_pretty(summary).map_err(|source| ExperimentError::Json { path: path.clone(), source })?;
    write_file(&path, (json + "\n").as_bytes())?;
    let path = dir.join("summary.md");
    write_file(&path, summary.markdown().as_bytes())
}

/// LOESS: locally weighted linear regression (degree 1, tricube weights)
/// of `y` on `x`, evaluated at each of `at`. Each fit uses the
/// `ceil(span * n)` nearest points (at least 3, or all when there are
/// fewer), weighted by `(1 - (d / dmax)^3)^3` with `dmax` the largest of
/// their distances, as in Cleveland's `loess` (without its robustness
/// iterations). Where the neighbours' x values coincide, the weighted mean.
/// Empty when `x` is.
///
/// # Panics
/// If `x` and `y` differ in length.
pub fn loess(x: &[f64], y: &[f64], span: f64, at: &[f64]) -> Vec<f64> {
    assert_eq!(x.len(), y.len(), "one y per x");
    let n = x.len();
    if n == 0 {
        return Vec::new();
    }
    let q = ((span * n as f64).ceil() as usize).clamp(3.min(n), n);
    let mut dist: Vec<(f64, usize)> = Vec::with_capacity(n);
    at.iter()
        .map(|&x0| {
            dist.clear();
            dist.extend(x.iter().enumerate().map(|(i, &xi)| ((xi - x0).abs(), i)));
            dist.sort_by(|a, b| a.0.total_cmp(&b.0));
            let near = &dist[..q];
            // Beyond the data (span > 1 is not used), dmax grows as in R.
            let dmax = near[q - 1].0.max(f64::MIN_POSITIVE) * if span > 1.0 { span } else { 1.0 };
            let (mut sw, mut swx, mut swy, mut swxx, mut swxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for &(d, i) in near {
                let u = (d / dmax).min(1.0);
                let w = (1.0 - u * u * u).powi(3).max(1e-12);
                sw += w;
                swx += w * x[i];
                swy += w * y[i];
                swxx += w * x[i] * x[i];
                swxy += w * x[i] * y[i];
            }
            let mx = swx / sw;
            let my = swy / sw;
            let sxx = swxx / sw - mx * mx;
            if sxx <= 1e-12 * (1.0 + mx * mx) {
                return my;
            }
            let slope = (swxy / sw - mx * my) / sxx;
            my + slope * (x0 - mx)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loess_reproduces_lines_and_smooths_noise() {
        let x: Vec<f64> = (0..50).map(|i| i as f64 / 5.0).collect();
        let y: Vec<f64> = x.iter().map(|&x| 2.0 * x + 1.0).collect();
        for (fit, &x0) in loess(&x, &y, SPAN, &x).iter().zip(&x) {
            assert!((fit - (2.0 * x0 + 1.0)).abs() < 1e-9);
        }
        // Alternating noise around a constant averages out.
        let y: Vec<f64> = (0..50).map(|i| if i % 2 == 0 { 1.1 } else { 0.9 }).collect();
        for fit in loess(&x, &y, SPAN, &[2.0, 5.0, 8.0]) {
            assert!((fit - 1.0).abs() < 0.02, "{fit}");
        }
        assert_eq!(loess(&[1.0, 1.0], &[2.0, 4.0], SPAN, &[1.0]), vec![3.0]);
        assert!(loess(&[], &[], SPAN, &[1.0]).is_empty());
    }
}
