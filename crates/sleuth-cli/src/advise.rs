//! `sleuth advise`: what to do next, from `sleuth_core::advice`.

use crate::input::{display, load_game};
use crate::output::{card_ids, group_digits, plural, write_json, write_title, Paint};
use crate::Outcome;
use anyhow::bail;
use sleuth_core::advice::{
    advise_with, alternatives, same_answers, Advice, AdviceError, AdviceOptions, AdviceProgress, BehaviourHint,
    OpponentProgress, Position, RefutationAdvice, SuggestionEval, THREAT_BASIS,
};
use sleuth_core::{wire, CardSet, CountOptions, Game, Player};
use std::io::Write;
use std::path::PathBuf;

// The arguments of `sleuth advise`; its description is the doc comment of
// `Command::Advise` (lib.rs).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game file (JSON, format version 1) of a player ('me' and 'hand'); '-' reads standard input.
    game: PathBuf,
    /// Which of my cards to show for this suggestion (three card ids, comma separated, e.g. 'mu,kn,ha').
    #[arg(long, value_name = "SUSPECT,WEAPON,ROOM")]
    refute: Option<String>,
    /// Who made the suggestion to refute (default: the player before me, the first to ask me).
    #[arg(long, value_name = "PLAYER", requires = "refute")]
    by: Option<String>,
    /// How many suggestions to list; those with the same answers (they differ only in cards nobody else can show)
    /// are one, on one line ('kn/ca').
    #[arg(long, default_value_t = 5, value_name = "N")]
    suggestions: usize,
    /// How many suggestions the first pass hands to the exact evaluation (a sixth of them the most likely to
    /// end the game unrefuted, the rest the best by a cheap estimate of their information). Where few deals
    /// fit, every legal suggestion is evaluated exactly instead, whatever this says.
    #[arg(long, default_value_t = 12, value_name = "N")]
    shortlist: usize,
    /// The most deals sampled to estimate what each opponent can know (the threat that one solves first).
    #[arg(long, default_value_t = 32, value_name = "N")]
    samples: usize,
    /// The budget of that estimate: the states the exact counts of the opponents' views may visit in all
    /// (work, not time: the same on every machine). Sampling stops at this or --samples, whichever comes
    /// first; the 95% interval shown with each threat says how far the sampling may be off. Whether a
    /// view knows the case file now rarely needs a count, so that threat usually gets every deal.
    #[arg(long, default_value_t = sleuth_core::advice::OPPONENT_STATES, value_name = "N")]
    opponent_states: usize,
    /// In how many of those deals (the first, within the budget) every opponent's view is counted for
    /// its mean case-file entropy.
    #[arg(long, default_value_t = sleuth_core::advice::ENTROPY_SAMPLES, value_name = "N")]
    entropy_samples: usize,
    /// Where the consistent deals are few, the most distinct views of the opponents counted to give their
    /// progress exactly (over every deal) instead of sampling it; 0 always samples.
    #[arg(long, default_value_t = sleuth_core::advice::EXACT_VIEWS, value_name = "N")]
    exact_views: usize,
    /// Seed of that sampling (the same seed gives the same advice).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Deals sampled for the behaviour hint (what the case file would be if the opponents avoid asking
    /// about their own cards); 0 leaves the hint out. The hint never decides "accuse now".
    #[arg(long, default_value_t = sleuth_core::advice::TELL_SAMPLES, value_name = "N")]
    tell_samples: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let game = load_game(&args.game)?;
    let name = display(&args.game);
    let fail = |e: AdviceError| -> anyhow::Result<Outcome> {
        match e {
            AdviceError::Inconsistent => {
                writeln!(out_err(), "{name}: {e}; `sleuth notepad` names the conflicting events")?;
                Ok(Outcome::Inconsistent)
            }
            e => bail!("{name}: {e}"),
        }
    };
    if let Some(list) = &args.refute {
        let (suggester, cards) = parse_refute(&game, list, args.by.as_deref())?;
        let limit = CountOptions::new().max_states(crate::limits::max_states()?);
        let advice = match Position::with_options(&game, &limit).and_then(|p| p.refutation(suggester, cards)) {
            Ok(a) => a,
            Err(e) => return fail(e),
        };
        if args.json {
            write_json(out, &wire::Refutation::new(&game, suggester, cards, &advice))?;
        } else {
            write_refute(out, &game, suggester, cards, &advice, args.by.is_none())?;
        }
        return Ok(Outcome::Success);
    }
    let options = AdviceOptions {
        suggestions: args.suggestions,
        shortlist: args.shortlist,
        samples: args.samples,
        opponent_states: args.opponent_states,
        entropy_samples: args.entropy_samples,
        exact_views: args.exact_views,
        seed: args.seed,
        tell_samples: args.tell_samples,
        max_states: crate::limits::max_states()?,
        ..AdviceOptions::default()
    };
    let mut bar = Evaluating::new();
    let advice = match advise_with(&game, &options, |p| bar.update(p)) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    drop(bar);
    if args.json {
        write_json(out, &wire::Advice::new(&game, &advice))?;
    } else {
        write_advice(out, &game, &advice)?;
    }
    Ok(Outcome::Success)
}

/// The advice's progress on standard error for a slow state: from half a
/// second on, a bar of the suggestions evaluated (indicatif draws it only
/// on a terminal), cleared when dropped.
struct Evaluating {
    start: std::time::Instant,
    bar: Option<indicatif::ProgressBar>,
}

impl Evaluating {
    fn new() -> Evaluating {
        Evaluating { start: std::time::Instant::now(), bar: None }
    }

    /// Shows `p`; always goes on.
    fn update(&mut self, p: &AdviceProgress<'_>) -> bool {
        if self.bar.is_none() && self.start.elapsed() >= std::time::Duration::from_millis(500) {
            let bar = indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
            if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} [{elapsed}]") {
                bar.set_style(style);
            }
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            let done = p.suggestions.len() as u64;
            bar.set_length(p.shortlisted as u64);
            bar.set_position(done);
            let what = if done < p.shortlisted as u64 { "evaluating suggestions" } else { "weighing the opponents" };
            bar.set_message(what);
        }
        true
    }
}

impl Drop for Evaluating {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn out_err() -> std::io::StderrLock<'static> {
    std::io::stderr().lock()
}

/// The suggester and the suggested cards of `--refute` (and `--by`).
fn parse_refute(game: &Game, list: &str, by: Option<&str>) -> anyhow::Result<(Player, CardSet)> {
    let Some((me, _)) = game.observer() else {
        bail!("advice needs a player's view: the game file has no 'me' and 'hand'")
    };
    let deck = game.deck();
    let mut cards = CardSet::EMPTY;
    for id in list.split(',').map(str::trim) {
        cards.insert(crate::why::find_card(game, id)?);
    }
    let per_category = deck.categories().all(|k| (cards & deck.category_cards(k)).len() == 1);
    if !per_category || list.split(',').count() != deck.num_categories() {
        // The example uses this deck's own cards: the first of each category.
        let example: Vec<&str> =
            deck.categories().filter_map(|k| deck.category_cards(k).iter().next()).map(|c| deck.id(c)).collect();
        bail!("--refute takes one card of each category ({}), e.g. '{}'", category_names(game), example.join(","));
    }
    let suggester = match by {
        Some(id) => match game.player(&sleuth_core::text::nfc(id)) {
            Some(p) => p,
            None => {
                let ids: Vec<&str> = game.players().map(|p| game.player_id(p)).collect();
                bail!("unknown player '{}'; the players are {}", sleuth_core::text::quote(id), ids.join(", "))
            }
        },
        None => {
            let n = game.num_players();
            Player::new((me.index() + n - 1) % n)
        }
    };
    Ok((suggester, cards))
}

fn category_names(game: &Game) -> String {
    let deck = game.deck();
    deck.categories().map(|k| deck.category_name(k).to_string()).collect::<Vec<_>>().join(", ")
}

/// A probability as a percentage that never rounds to 0 or 100 unless exact.
fn pct(p: f64) -> String {
    if p <= 0.0 {
        "0%".to_string()
    } else if p >= 1.0 {
        "100%".to_string()
    } else if p < 0.001 {
        "<0.1%".to_string()
    } else if p > 0.999 {
        ">99.9%".to_string()
    } else {
        format!("{:.1}%", p * 100.0)
    }
}

fn write_advice(out: &mut dyn Write, game: &Game, advice: &Advice) -> std::io::Result<()> {
    write_title(out, game, Paint::for_stdout(true), "advice")?;
    writeln!(out)?;
    writeln!(out, "{} consistent deals; case-file entropy {:.2} bits", group_digits(advice.models), advice.entropy)?;
    writeln!(out)?;
    write_accusation(out, game, advice)?;
    writeln!(out, "\nbest suggestions, most likely to end the game first, then most informative")?;
    writeln!(out, "(expected information about the case file; chance the answer solves it; likeliest answers)")?;
    if advice.evaluated >= advice.legal {
        writeln!(out, "(all {} legal suggestions evaluated exactly: these are the best of all):", advice.legal)?;
    } else {
        writeln!(
            out,
            "({} of the {} legal suggestions evaluated exactly, chosen by a quick estimate):",
            advice.evaluated, advice.legal
        )?;
    }
    if advice.suggestions.is_empty() {
        writeln!(out, "  none: every combination has been suggested")?;
    }
    // One line per choice: suggestions with the same answers share one.
    let same = same_answers(&advice.suggestions, advice.unshowable);
    let choices: Vec<(&SuggestionEval, String)> = (advice.suggestions.iter().zip(same))
        .filter(|(_, same)| same.is_none())
        .map(|(s, _)| (s, choice(game, s.cards, advice.unshowable)))
        .collect();
    let width = choices.iter().map(|(_, cards)| cards.chars().count()).max().unwrap_or(0).max(12);
    for (i, (s, cards)) in choices.iter().enumerate() {
        writeln!(
            out,
            "  {}. {:<width$} {:.3} bits  ends {:>5}   {}",
            i + 1,
            cards,
            s.information,
            pct(s.end_probability),
            answers(game, s)
        )?;
    }
    let deck = game.deck();
    if choices.iter().any(|(s, _)| s.cards.iter().any(|c| !alternatives(deck, c, advice.unshowable).is_empty())) {
        writeln!(out, "  (a/b: either card gives the same answers, as nobody else can show your own cards nor a certain case-file card)")?;
    }
    let n = deals_sampled(advice);
    let deals = format!("{n} deal{}", plural(n as u128));
    match exact(advice) {
        true => writeln!(out, "\nopponents (over every one of the {deals} consistent with your view; each opponent's knowledge worked out exactly):")?,
        false => writeln!(out, "\nopponents (estimated from {deals} drawn from your view; each opponent's knowledge worked out exactly; 95% intervals from the sampling alone):")?,
    }
    for o in &advice.opponents {
        write_opponent(out, game, o)?;
    }
    if let Some(hint) = &advice.hint {
        write_hint(out, game, hint)?;
    }
    Ok(())
}

/// How many deals the opponents' estimate drew: the most views of any
/// opponent (the budget may stop a round part-way, leaving later seats one
/// fewer).
fn deals_sampled(advice: &Advice) -> usize {
    advice.opponents.iter().map(|o| o.samples).max().unwrap_or(0)
}

/// Whether every opponent's progress is exact (over every consistent deal).
fn exact(advice: &Advice) -> bool {
    !advice.opponents.is_empty() && advice.opponents.iter().all(|o| o.exact)
}

/// Whether to accuse: the exact probability first, then the rule that
/// decided and what the threat rests on.
fn write_accusation(out: &mut dyn Write, game: &Game, advice: &Advice) -> std::io::Result<()> {
    let n = deals_sampled(advice);
    let samples = match exact(advice) {
        true => format!("exact over every one of the {n} deal{}", plural(n as u128)),
        false => format!("estimated from {n} deal{}", plural(n as u128)),
    };
    let a = &advice.accusation;
    let cards = card_ids(game, a.cards, ", ");
    let deals = format!("{} of {} deals", group_digits(a.deals), group_digits(advice.models));
    let verdict = if a.accuse { "yes" } else { "no" };
    writeln!(
        out,
        "accuse now: {verdict}: {cards} is the case file with exact probability {} ({deals})",
        pct(a.probability)
    )?;
    writeln!(out, "  why: {}", a.reason.words())?;
    if !a.certain && a.reason != sleuth_core::advice::AccuseReason::Out {
        if advice.opponents.iter().any(|o| o.lookahead) {
            writeln!(
                out,
                "  an opponent can know the case file by the end of its next turn: {} ({samples})",
                pct(a.threat)
            )?;
        } else {
            writeln!(
                out,
                "  an opponent knows the case file now: {} ({samples}; its next turn is looked at only above even odds)",
                pct(a.threat)
            )?;
        }
        if a.wait_value < 1.0 {
            writeln!(
                out,
                "  waiting is worth at most {} (your best chance after your next question, {}, times no opponent solving first)",
                pct((1.0 - a.threat) * a.wait_value),
                pct(a.wait_value)
            )?;
        }
        writeln!(out, "  the threat is {THREAT_BASIS}")?;
    }
    Ok(())
}

/// The behaviour hint: labelled as a model, never a probability of a case
/// file.
fn write_hint(out: &mut dyn Write, game: &Game, hint: &BehaviourHint) -> std::io::Result<()> {
    writeln!(out, "\nbehaviour hint (a guess about how people ask, not a deduction; it never decides 'accuse now'):")?;
    let evidence: Vec<String> =
        hint.tells.iter().map(|t| format!("{} holds {} of {}", game.player_id(t.player), t.own, t.known)).collect();
    writeln!(out, "  of the cards each opponent asked about whose place you know: {}", evidence.join(", "))?;
    match &hint.case_file {
        Some((cards, factor)) if !hint.habitual.is_empty() => {
            let who: Vec<&str> = hint.habitual.iter().map(|&p| game.player_id(p)).collect();
            writeln!(
                out,
                "  if {} avoid(s) asking about their own cards, as their questions so far suggest, {} would be the likeliest case file, about {factor:.1} times as likely as its exact probability",
                who.join(", "),
                card_ids(game, *cards, ", ")
            )?;
        }
        _ => writeln!(
            out,
            "  no opponent's questions show that it avoids its own cards (too few known, or as many as a blind asker would hold): no hint"
        )?,
    }
    Ok(())
}

/// A suggestion's cards, each followed by the others of its category that
/// give the same answers in its place (`mu/pl, pi, ba`).
fn choice(game: &Game, cards: CardSet, unshowable: CardSet) -> String {
    let deck = game.deck();
    let card = |c| {
        let others = alternatives(deck, c, unshowable).iter();
        std::iter::once(c).chain(others).map(|c| deck.id(c)).collect::<Vec<_>>().join("/")
    };
    cards.iter().map(card).collect::<Vec<_>>().join(", ")
}

/// The answers of a suggestion, most likely first, at most four.
fn answers(game: &Game, s: &SuggestionEval) -> String {
    let mut outs: Vec<_> = s.outcomes.iter().collect();
    outs.sort_by(|a, b| b.probability.total_cmp(&a.probability));
    let mut parts: Vec<String> = outs
        .iter()
        .take(4)
        .map(|o| match (o.refuter, o.shown) {
            (Some(r), Some(c)) => format!("{} shows {} {}", game.player_id(r), game.deck().id(c), pct(o.probability)),
            _ => format!("nobody {}", pct(o.probability)),
        })
        .collect();
    if outs.len() > 4 {
        parts.push(format!("+{} more", outs.len() - 4));
    }
    parts.join(", ")
}

fn write_opponent(out: &mut dyn Write, game: &Game, o: &OpponentProgress) -> std::io::Result<()> {
    // Padded to the longest player's name, so that the numbers line up.
    let width = game.players().map(|p| game.player_id(p).chars().count() + 1).max().unwrap_or(0);
    let id = format!("{:<width$}", format!("{}:", game.player_id(o.player)));
    if o.out {
        return writeln!(out, "  {id} out (accused wrongly)");
    }
    // The sampling's 95 % interval, on the estimate the threat is; none where it is exact.
    let (lo, hi) = o.threat_interval;
    let deals = format!("{} deal{}", o.samples, plural(o.samples as u128));
    let interval = match o.exact {
        true => format!(" (exact, every one of {deals})"),
        false => format!(" (95%: {}-{}, {deals})", pct(lo).trim(), pct(hi).trim()),
    };
    let (now, next) = if o.lookahead {
        (String::new(), format!(", can know it by the end of its next turn {:>5}{interval}", pct(o.threat)))
    } else {
        (interval, String::new())
    };
    writeln!(
        out,
        "  {id} knows the case file now {:>5}{now}{next}, case-file entropy {:.2} bits ({} deal{})",
        pct(o.solved),
        o.entropy,
        o.entropy_samples,
        plural(o.entropy_samples as u128),
    )
}

fn write_refute(
    out: &mut dyn Write,
    game: &Game,
    suggester: Player,
    cards: CardSet,
    advice: &RefutationAdvice,
    assumed: bool,
) -> std::io::Result<()> {
    write_title(out, game, Paint::for_stdout(true), "advice")?;
    writeln!(out)?;
    let by = game.player_id(suggester);
    let assumed = if assumed { " (assumed: the player before you; use --by)" } else { "" };
    writeln!(out, "{by} suggested {}{assumed}", card_ids(game, cards, ", "))?;
    writeln!(out, "show {} to {by}", game.deck().id(advice.card))?;
    for o in &advice.options {
        let note = if o.already_shown { " (already shown to them)" } else { "" };
        writeln!(
            out,
            "  {:<3} reveals {:.3} bits; their case-file entropy after: {:.2} bits{note}",
            game.deck().id(o.card),
            o.revealed,
            o.entropy_after
        )?;
    }
    Ok(())
}
