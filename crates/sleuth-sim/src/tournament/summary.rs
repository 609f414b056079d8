//! Win rates with Wilson intervals, by player count and by seat, game
//! lengths, and whether one agent is ahead of all others beyond doubt.

use super::{fixtures, GameRow, TournamentConfig, TournamentResults};
use crate::experiment::results::{io_err, write_file};
use crate::experiment::{ExperimentError, Shard};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval at 95 % of `wins` successes in `n` trials,
/// `(low, high)`; `(0, 1)` with no trials.
pub fn wilson(wins: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = wins as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 and n successes the interval ends exactly at 0 and 1; rounding
    // would otherwise leave them a hair inside.
    let low = if wins == 0 { 0.0 } else { (center - half).max(0.0) };
    let high = if wins as f64 == n { 1.0 } else { (center + half).min(1.0) };
    (low, high)
}

/// An agent's record at one player count (or at all of them).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentRow {
    /// The player count; `None` for all counts together.
    pub players: Option<usize>,
    /// The agent.
    pub agent: String,
    /// Seats played.
    pub seats: usize,
    /// Games won.
    pub wins: usize,
    /// Wins per seat.
    pub rate: f64,
    /// Lower end of the 95 % Wilson interval.
    pub low: f64,
    /// Upper end of the 95 % Wilson interval.
    pub high: f64,
}

/// Wins from one seat position at one player count, for one agent or for
/// every agent together.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatRow {
    /// The player count.
    pub players: usize,
    /// The seat (0 moves first).
    pub seat: usize,
    /// The agent; `None` for every agent together.
    pub agent: Option<String>,
    /// Games played from this seat.
    pub seats: usize,
    /// Games won from this seat.
    pub wins: usize,
    /// Wins per game.
    pub rate: f64,
    /// Lower end of the 95 % Wilson interval.
    pub low: f64,
    /// Upper end of the 95 % Wilson interval.
    pub high: f64,
}

/// How long games lasted and how they ended, at one player count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LengthRow {
    /// The player count.
    pub players: usize,
    /// Games.
    pub games: usize,
    /// Won by a correct accusation.
    pub solved: usize,
    /// Won by the last player left in.
    pub last_standing: usize,
    /// Ended by the round limit, without a winner.
    pub turn_limit: usize,
    /// Mean turns per game.
    pub mean_turns: f64,
    /// Mean rounds per game.
    pub mean_rounds: f64,
    /// Wrong accusations per game.
    pub wrong_accusations: f64,
}

/// The best agent at one player count and whether its lead is clear: its
/// interval lies wholly above every other agent's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judgement {
    /// The player count.
    pub players: usize,
    /// The agent with the highest win rate.
    pub best: String,
    /// The runner-up (`None` with a single agent).
    pub second: Option<String>,
    /// Best rate minus the runner-up's.
    pub lead: f64,
    /// The best agent's lower bound minus the highest upper bound of the
    /// others: positive exactly when the intervals do not overlap.
    pub gap: f64,
    /// Whether the intervals do not overlap.
    pub clear: bool,
}

/// Everything reported about a tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The deck.
    pub deck: String,
    /// The agents.
    pub agents: Vec<String>,
    /// Games per seating.
    pub games_per_seating: usize,
    /// Games in these results.
    pub games: usize,
    /// Games of the schedule missing from these results (a shard alone, or
    /// a merge without every shard).
    pub missing: usize,
    /// Per agent and player count, then per agent over all counts.
    pub by_agent: Vec<AgentRow>,
    /// Per player count and seat: every agent together, then each agent.
    pub by_seat: Vec<SeatRow>,
    /// Per player count.
    pub lengths: Vec<LengthRow>,
    /// Per player count, with at least two agents.
    pub judgements: Vec<Judgement>,
    /// Per player count and agent that accused without certainty.
    pub gambles: Vec<GambleRow>,
}

/// One agent's accusations without certainty at one player count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GambleRow {
    /// The player count.
    pub players: usize,
    /// The agent.
    pub agent: String,
    /// Its seats.
    pub seats: usize,
    /// Accusations it could not be certain of.
    pub gambles: usize,
    /// How many of them were right.
    pub right: usize,
    /// The mean exact probability of its gambles.
    pub mean: f64,
    /// The mean exact probability of its wrong accusations (0 with none).
    pub mean_wrong: f64,
    /// The smallest exact probability it accused on.
    pub lowest: f64,
}

fn agent_row(players: Option<usize>, agent: &str, seats: usize, wins: usize) -> AgentRow {
    let (low, high) = wilson(wins, seats);
    let rate = if seats == 0 { 0.0 } else { wins as f64 / seats as f64 };
    AgentRow { players, agent: agent.to_string(), seats, wins, rate, low, high }
}

/// Sums up the games of `results`.
pub fn summarize(results: &TournamentResults) -> Summary {
    let cfg = &results.config;
    let scheduled = fixtures(&TournamentConfig { shard: Shard::ALL, ..cfg.clone() })
        .map(|f| f.len())
        .unwrap_or(results.games.len());
    // (players, agent) -> (seats, wins); (players, seat, agent) likewise.
    let mut agent: BTreeMap<(usize, &str), (usize, usize)> = BTreeMap::new();
    let mut seat: BTreeMap<(usize, usize, &str), (usize, usize)> = BTreeMap::new();
    let mut lengths: BTreeMap<usize, Vec<&GameRow>> = BTreeMap::new();
    for g in &results.games {
        lengths.entry(g.players).or_default().push(g);
        for (s, a) in g.seat_agents().enumerate() {
            let won = usize::from(g.winner_seat == Some(s));
            let e = agent.entry((g.players, a)).or_default();
            e.0 += 1;
            e.1 += won;
            let e = seat.entry((g.players, s, a)).or_default();
            e.0 += 1;
            e.1 += won;
        }
    }
    let mut by_agent = Vec::new();
    for &n in &cfg.players {
        for a in &cfg.agents {
            let (seats, wins) = agent.get(&(n, a.as_str())).copied().unwrap_or_default();
            by_agent.push(agent_row(Some(n), a, seats, wins));
        }
    }
    for a in &cfg.agents {
        let (seats, wins) =
            agent.iter().filter(|((_, name), _)| *name == a).fold((0, 0), |acc, (_, &(s, w))| (acc.0 + s, acc.1 + w));
        by_agent.push(agent_row(None, a, seats, wins));
    }
    let mut by_seat = Vec::new();
    for &n in &cfg.players {
        for s in 0..n {
            let (seats, wins) = seat
                .iter()
                .filter(|((p, q, _), _)| *p == n && *q == s)
                .fold((0, 0), |acc, (_, &(x, w))| (acc.0 + x, acc.1 + w));
            let r = agent_row(Some(n), "", seats, wins);
            by_seat.push(SeatRow {
                players: n,
                seat: s,
                agent: None,
                seats,
                wins,
                rate: r.rate,
                low: r.low,
                high: r.high,
            });
        }
        for a in &cfg.agents {
            for s in 0..n {
                let (seats, wins) = seat.get(&(n, s, a.as_str())).copied().unwrap_or_default();
                let r = agent_row(Some(n), a, seats, wins);
                by_seat.push(SeatRow {
                    players: n,
                    seat: s,
                    agent: Some(a.clone()),
                    seats,
                    wins,
                    rate: r.rate,
                    low: r.low,
                    high: r.high,
                });
            }
        }
    }
    let lengths = cfg
        .players
        .iter()
        .map(|&n| {
            let games = lengths.get(&n).map(Vec::as_slice).unwrap_or_default();
            let count = |end: &str| games.iter().filter(|g| g.end == end).count();
            let mean = |f: &dyn Fn(&GameRow) -> usize| {
                if games.is_empty() {
                    0.0
                } else {
                    games.iter().map(|g| f(g)).sum::<usize>() as f64 / games.len() as f64
                }
            };
            LengthRow {
                players: n,
                games: games.len(),
                solved: count("solved"),
                last_standing: count("last-standing"),
                turn_limit: count("turn-limit"),
                mean_turns: mean(&|g| g.turns),
                mean_rounds: mean(&|g| g.rounds),
                wrong_accusations: mean(&|g| g.wrong_accusations),
            }
        })
        .collect();
    let judgements = cfg.players.iter().filter_map(|&n| judge(n, &by_agent)).collect();
    let mut gambled: BTreeMap<(usize, &str), Vec<(f64, bool)>> = BTreeMap::new();
    for g in &results.games {
        let seats: Vec<&str> = g.seat_agents().collect();
        for x in g.gamble_list() {
            if let Some(a) = seats.get(x.seat) {
                gambled.entry((g.players, a)).or_default().push((x.probability, x.correct));
            }
        }
    }
    let gambles = gambled
        .into_iter()
        .map(|((players, a), list)| {
            let mean = |xs: &[f64]| if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 };
            let all: Vec<f64> = list.iter().map(|x| x.0).collect();
            let wrong: Vec<f64> = list.iter().filter(|x| !x.1).map(|x| x.0).collect();
            GambleRow {
                players,
                agent: a.to_string(),
                seats: agent.get(&(players, a)).map_or(0, |e| e.0),
                gambles: list.len(),
                right: list.iter().filter(|x| x.1).count(),
                mean: mean(&all),
                mean_wrong: mean(&wrong),
                lowest: all.iter().copied().fold(1.0, f64::min),
            }
        })
        .collect();
    Summary {
        deck: match cfg.cards_per_player {
            None => cfg.deck.to_string(),
            Some(n) => format!("{n}-cards-per-player"),
        },
        agents: cfg.agents.clone(),
        games_per_seating: cfg.games,
        games: results.games.len(),
        missing: scheduled.saturating_sub(results.games.len()),
        by_agent,
        by_seat,
        lengths,
        judgements,
        gambles,
    }
}

/// The best agent at `players` and whether its lead is clear.
fn judge(players: usize, rows: &[AgentRow]) -> Option<Judgement> {
    let mut rows: Vec<&AgentRow> = rows.iter().filter(|r| r.players == Some(players) && r.seats > 0).collect();
    if rows.len() < 2 {
        return None;
    }
    rows.sort_by(|a, b| b.rate.total_cmp(&a.rate));
    let (best, second) = (rows[0], rows[1]);
    let top_other = rows[1..].iter().map(|r| r.high).fold(0.0, f64::max);
    let gap = best.low - top_other;
    Some(Judgement {
        players,
        best: best.agent.clone(),
        second: Some(second.agent.clone()),
        lead: best.rate - second.rate,
        gap,
        clear: gap > 0.0,
    })
}

fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

impl Summary {
    /// The win-rate table in Markdown: one row per agent, one column per
    /// player count and one for all, each `rate [low, high] (wins/seats)`.
    pub fn win_table(&self) -> String {
        let counts: Vec<usize> = self.lengths.iter().map(|l| l.players).collect();
        let mut s = String::from("| agent |");
        for n in &counts {
            let _ = write!(s, " {n} players |");
        }
        s.push_str(" all |\n|---|");
        for _ in 0..=counts.len() {
            s.push_str("---|");
        }
        s.push('\n');
        for a in &self.agents {
            let _ = write!(s, "| {a} |");
            for p in counts.iter().map(|&n| Some(n)).chain([None]) {
                if let Some(r) = self.by_agent.iter().find(|r| r.players == p && &r.agent == a) {
                    let _ = write!(s, " {} [{}, {}] ({}/{}) |", pct(r.rate), pct(r.low), pct(r.high), r.wins, r.seats);
                }
            }
            s.push('\n');
        }
        s
    }

    /// Win rate by seat (every agent together), in Markdown.
    pub fn seat_table(&self) -> String {
        let max = self.lengths.iter().map(|l| l.players).max().unwrap_or(0);
        let mut s = String::from("| players |");
        for k in 0..max {
            let _ = write!(s, " seat {k} |");
        }
        s.push_str("\n|---|");
        for _ in 0..max {
            s.push_str("---|");
        }
        s.push('\n');
        for l in &self.lengths {
            let _ = write!(s, "| {} |", l.players);
            for k in 0..max {
                match self.by_seat.iter().find(|r| r.players == l.players && r.seat == k && r.agent.is_none()) {
                    Some(r) => {
                        let _ = write!(s, " {} [{}, {}] |", pct(r.rate), pct(r.low), pct(r.high));
                    }
                    None => s.push_str(" |"),
                }
            }
            s.push('\n');
        }
        s
    }

    /// Game lengths and endings, in Markdown.
    pub fn length_table(&self) -> String {
        let mut s = String::from(
            "| players | games | solved | last standing | round limit | mean turns | mean rounds | wrong accusations per game |\n|---|---|---|---|---|---|---|---|\n",
        );
        for l in &self.lengths {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.2} |",
                l.players,
                l.games,
                l.solved,
                l.last_standing,
                l.turn_limit,
                l.mean_turns,
                l.mean_rounds,
                l.wrong_accusations
            );
        }
        s
    }

    /// Accusations without certainty, in Markdown: per player count and
    /// agent, how many (and per seat), how many were right, and their exact
    /// probabilities.
    pub fn gamble_table(&self) -> String {
        let mut s = String::from(
            "| players | agent | accusations without certainty | right | wrong per seat | mean exact probability | of the wrong ones | lowest |\n|---|---|---|---|---|---|---|---|\n",
        );
        for g in &self.gambles {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {}/{} | {:.3} | {:.3} | {:.3} |",
                g.players,
                g.agent,
                g.gambles,
                g.right,
                g.gambles - g.right,
                g.seats,
                g.mean,
                g.mean_wrong,
                g.lowest
            );
        }
        s
    }

    /// One line per player count: the best agent, its lead and whether the
    /// intervals are apart.
    pub fn judgement_lines(&self) -> String {
        let mut s = String::new();
        for j in &self.judgements {
            let _ = writeln!(
                s,
                "- {} players: {} leads {} by {:.1} points; {} (gap between intervals {:+.1} points)",
                j.players,
                j.best,
                j.second.as_deref().unwrap_or("-"),
                100.0 * j.lead,
                if j.clear { "the 95 % intervals do not overlap" } else { "the 95 % intervals overlap" },
                100.0 * j.gap
            );
        }
        s
    }

    /// The whole report in Markdown.
    pub fn markdown(&self) -> String {
        let mut s = format!(
            "Tournament: {} deck, agents {}, {} games per seating, {} games{}\n\n",
            self.deck,
            self.agents.join(", "),
            self.games_per_seating,
            self.games,
            if self.missing > 0 { format!(" ({} of the schedule missing)", self.missing) } else { String::new() }
        );
        s.push_str("Win rate per seat played, 95 % Wilson interval, (wins/seats):\n\n");
        s.push_str(&self.win_table());
        s.push('\n');
        s.push_str(&self.judgement_lines());
        s.push_str("\nWin rate by seat (every agent together; seat 0 moves first):\n\n");
        s.push_str(&self.seat_table());
        s.push_str("\nGame length and endings:\n\n");
        s.push_str(&self.length_table());
        if !self.gambles.is_empty() {
            s.push_str("\nAccusations without certainty (exact probability in the accuser's view):\n\n");
            s.push_str(&self.gamble_table());
        }
        s
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 50/100: 0.404 to 0.596 (standard tables).
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        // 0/10: 0 to 0.278.
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
        let (lo, hi) = wilson(10, 10);
        assert!((lo - 0.7225).abs() < 1e-3 && hi == 1.0, "{lo} {hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn judge_needs_intervals_apart() {
        let rows = vec![agent_row(Some(3), "b", 100, 45), agent_row(Some(3), "a", 100, 55)];
        let j = judge(3, &rows).unwrap();
        assert_eq!(j.best, "a");
        assert!((j.lead - 0.1).abs() < 1e-12);
        assert!(!j.clear, "55/100 and 45/100 overlap");
        // 60/100 is [50.2 %, 69.0 %] and 40/100 [30.9 %, 49.8 %]: apart.
        let rows = vec![agent_row(Some(3), "a", 100, 60), agent_row(Some(3), "b", 100, 40)];
        assert!(judge(3, &rows).unwrap().clear);
        let rows = vec![agent_row(Some(3), "a", 1000, 600), agent_row(Some(3), "b", 1000, 400)];
        assert!(judge(3, &rows).unwrap().clear);
        assert!(judge(3, &rows[..1]).is_none());
    }
}
