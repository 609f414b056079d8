//! `sleuth advise`: what to do next, from `sleuth_core::advice`.

use crate::input::{display, load_game};
use crate::output::{
    card_ids, group_digits, json_count, json_f64, json_object, json_str, json_str_array, write_title, Paint,
};
use crate::Outcome;
use anyhow::bail;
use sleuth_core::advice::{
    advise, Advice, AdviceError, AdviceOptions, BehaviourHint, OpponentProgress, Position, RefutationAdvice,
    SuggestionEval, THREAT_BASIS,
};
use sleuth_core::{CardSet, Game, Player};
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
    /// How many suggestions to list.
    #[arg(long, default_value_t = 5, value_name = "N")]
    suggestions: usize,
    /// How many suggestions the first pass hands to the exact evaluation.
    #[arg(long, default_value_t = 12, value_name = "N")]
    shortlist: usize,
    /// Deals sampled to estimate what each opponent can know (the threat that one solves first).
    #[arg(long, default_value_t = 32, value_name = "N")]
    samples: usize,
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
        let advice = match Position::new(&game).and_then(|p| p.refutation(suggester, cards)) {
            Ok(a) => a,
            Err(e) => return fail(e),
        };
        if args.json {
            out.write_all(refute_json(&game, suggester, cards, &advice).as_bytes())?;
        } else {
            write_refute(out, &game, suggester, cards, &advice, args.by.is_none())?;
        }
        return Ok(Outcome::Success);
    }
    let options = AdviceOptions {
        suggestions: args.suggestions,
        shortlist: args.shortlist,
        samples: args.samples,
        seed: args.seed,
        tell_samples: args.tell_samples,
        ..AdviceOptions::default()
    };
    let advice = match advise(&game, &options) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    if args.json {
        out.write_all(advice_json(&game, &advice).as_bytes())?;
    } else {
        write_advice(out, &game, &advice, args.samples)?;
    }
    Ok(Outcome::Success)
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
        Some(id) => match game.player(id) {
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

fn write_advice(out: &mut dyn Write, game: &Game, advice: &Advice, samples: usize) -> std::io::Result<()> {
    write_title(out, game, Paint::for_stdout(true), "advice")?;
    writeln!(out)?;
    writeln!(out, "{} consistent deals; case-file entropy {:.2} bits", group_digits(advice.models), advice.entropy)?;
    writeln!(out)?;
    write_accusation(out, game, advice, samples)?;
    writeln!(out, "\nbest suggestions, most likely to end the game first, then most informative")?;
    writeln!(out, "(expected information about the case file; chance the answer solves it; likeliest answers):")?;
    if advice.suggestions.is_empty() {
        writeln!(out, "  none: every combination has been suggested")?;
    }
    for (i, s) in advice.suggestions.iter().enumerate() {
        writeln!(
            out,
            "  {}. {:<12} {:.3} bits  ends {:>5}   {}",
            i + 1,
            card_ids(game, s.cards, ", "),
            s.information,
            pct(s.end_probability),
            answers(game, s)
        )?;
    }
    writeln!(
        out,
        "\nopponents (estimated from {samples} deals drawn from your view; each opponent's knowledge counted exactly):"
    )?;
    for o in &advice.opponents {
        write_opponent(out, game, o)?;
    }
    if let Some(hint) = &advice.hint {
        write_hint(out, game, hint)?;
    }
    Ok(())
}

/// Whether to accuse: the exact probability first, then the rule that
/// decided and what the threat rests on.
fn write_accusation(out: &mut dyn Write, game: &Game, advice: &Advice, samples: usize) -> std::io::Result<()> {
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
                "  an opponent can know the case file by the end of its next turn: {} (estimated from {samples} deals)",
                pct(a.threat)
            )?;
        } else {
            writeln!(
                out,
                "  an opponent knows the case file now: {} (estimated from {samples} deals; its next turn is looked at only above even odds)",
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
    let id = game.player_id(o.player);
    if o.out {
        return writeln!(out, "  {id}: out (accused wrongly)");
    }
    let next = if o.lookahead {
        format!(", can know it by the end of its next turn {:>5}", pct(o.threat))
    } else {
        String::new()
    };
    writeln!(
        out,
        "  {id}: knows the case file now {:>5}{next}, case-file entropy {:.2} bits (public knowledge alone: {:.2})",
        pct(o.solved),
        o.entropy,
        o.public_entropy
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

fn ids(game: &Game, cards: CardSet) -> String {
    let deck = game.deck();
    json_str_array(cards.iter().map(|c| deck.id(c)))
}

pub(crate) fn advice_json(game: &Game, advice: &Advice) -> String {
    let a = &advice.accusation;
    let accusation = json_object([
        ("cards".to_string(), ids(game, a.cards)),
        ("probability".to_string(), json_f64(a.probability)),
        ("models".to_string(), json_count(a.deals)),
        ("certain".to_string(), a.certain.to_string()),
        ("accuse".to_string(), a.accuse.to_string()),
        ("reason".to_string(), json_str(a.reason.id())),
        ("rule".to_string(), json_str(a.reason.words())),
        ("threat".to_string(), json_f64(a.threat)),
        ("threat_basis".to_string(), json_str(THREAT_BASIS)),
        ("wait_value".to_string(), json_f64(a.wait_value)),
    ]);
    let hint = advice.hint.as_ref().map_or("null".to_string(), |h| hint_json(game, h));
    let suggestions: Vec<String> = advice
        .suggestions
        .iter()
        .map(|s| {
            let outcomes: Vec<String> = s
                .outcomes
                .iter()
                .map(|o| {
                    json_object([
                        ("refuter".to_string(), o.refuter.map_or("null".into(), |r| json_str(game.player_id(r)))),
                        ("shown".to_string(), o.shown.map_or("null".into(), |c| json_str(game.deck().id(c)))),
                        ("probability".to_string(), json_f64(o.probability)),
                        ("entropy_after".to_string(), json_f64(o.entropy_after)),
                        ("solves".to_string(), o.solves.to_string()),
                    ])
                })
                .collect();
            format!(
                "    {{\"cards\": {}, \"information\": {}, \"end_probability\": {}, \"outcomes\": [{}]}}",
                ids(game, s.cards),
                json_f64(s.information),
                json_f64(s.end_probability),
                outcomes.join(", ")
            )
        })
        .collect();
    let opponents: Vec<String> = advice
        .opponents
        .iter()
        .map(|o| {
            format!(
                "    {}",
                json_object([
                    ("player".to_string(), json_str(game.player_id(o.player))),
                    ("out".to_string(), o.out.to_string()),
                    ("solved".to_string(), json_f64(o.solved)),
                    ("threat".to_string(), json_f64(o.threat)),
                    ("lookahead".to_string(), o.lookahead.to_string()),
                    ("entropy".to_string(), json_f64(o.entropy)),
                    ("public_entropy".to_string(), json_f64(o.public_entropy)),
                    ("samples".to_string(), o.samples.to_string()),
                ])
            )
        })
        .collect();
    let list = |items: Vec<String>| {
        if items.is_empty() {
            "[]".to_string()
        } else {
            format!("[\n{}\n  ]", items.join(",\n"))
        }
    };
    format!(
        "{{\n  \"me\": {},\n  \"models\": {},\n  \"entropy\": {},\n  \"accusation\": {accusation},\n  \"suggestions\": {},\n  \"opponents\": {},\n  \"behaviour_hint\": {hint}\n}}\n",
        json_str(game.player_id(advice.me)),
        json_count(advice.models),
        json_f64(advice.entropy),
        list(suggestions),
        list(opponents)
    )
}

/// The behaviour hint as JSON: every opponent's evidence, who passes the
/// habit check, and the case file the assumption favours with its factor.
fn hint_json(game: &Game, hint: &BehaviourHint) -> String {
    let tells: Vec<String> = hint
        .tells
        .iter()
        .map(|t| {
            json_object([
                ("player".to_string(), json_str(game.player_id(t.player))),
                ("known".to_string(), t.known.to_string()),
                ("own".to_string(), t.own.to_string()),
                ("blind_chance".to_string(), json_f64(t.blind_chance)),
                ("rate".to_string(), json_f64(t.rate)),
            ])
        })
        .collect();
    let (cards, factor) = match &hint.case_file {
        Some((c, f)) => (ids(game, *c), json_f64(*f)),
        None => ("null".to_string(), "null".to_string()),
    };
    json_object([
        ("assumption".to_string(), json_str("the opponents listed in 'habitual' avoid asking about their own cards")),
        ("habitual".to_string(), json_str_array(hint.habitual.iter().map(|&p| game.player_id(p)))),
        ("cards".to_string(), cards),
        ("factor".to_string(), factor),
        ("tells".to_string(), format!("[{}]", tells.join(", "))),
    ])
}

pub(crate) fn refute_json(game: &Game, suggester: Player, cards: CardSet, advice: &RefutationAdvice) -> String {
    let options: Vec<String> = advice
        .options
        .iter()
        .map(|o| {
            json_object([
                ("card".to_string(), json_str(game.deck().id(o.card))),
                ("already_shown".to_string(), o.already_shown.to_string()),
                ("revealed".to_string(), json_f64(o.revealed)),
                ("entropy_after".to_string(), json_f64(o.entropy_after)),
            ])
        })
        .collect();
    format!(
        "{{\n  \"suggester\": {},\n  \"suggestion\": {},\n  \"show\": {},\n  \"options\": [\n    {}\n  ]\n}}\n",
        json_str(game.player_id(suggester)),
        ids(game, cards),
        json_str(game.deck().id(advice.card)),
        options.join(",\n    ")
    )
}
