//! The advice's wire types (`sleuth advise --json`, with and without
//! `--refute`; the web API's `advice`).

use super::{ids, Count};
use crate::advice::{self as core, THREAT_BASIS};
use crate::model::{CardSet, Game, Player};
use serde::{Deserialize, Serialize};

/// What the observer should do next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Advice {
    /// The observer.
    pub me: String,
    /// The number of consistent deals.
    pub models: Count,
    /// The case file's entropy, in bits.
    pub entropy: f64,
    /// Whether to accuse now.
    pub accusation: Accusation,
    /// The best suggestions: most likely to end the game first, then most
    /// informative. Suggestions with the same answers are one choice: the
    /// first is listed with its `alternatives`, the others point back to it
    /// (`same_answers_as`); `--suggestions N` lists `N` choices.
    pub suggestions: Vec<Suggestion>,
    /// How many suggestions were evaluated exactly: a shortlist chosen by
    /// an estimate, or all `legal` ones where the deals that fit are few
    /// (`suggestions` is then the best of all).
    #[serde(default)]
    pub evaluated: usize,
    /// How many suggestions are legal (never one the observer made before).
    #[serde(default)]
    pub legal: usize,
    /// Each opponent's progress, in seat order.
    pub opponents: Vec<Opponent>,
    /// A guess about how the opponents ask (never part of the accusation);
    /// `null` when not computed.
    pub behaviour_hint: Option<BehaviourHint>,
}

/// The best accusation and whether to make it now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Accusation {
    /// The most likely case file, one card id per category.
    pub cards: Vec<String>,
    /// Its exact probability, `models / Advice.models` as the nearest number.
    pub probability: f64,
    /// The number of consistent deals with these cards in the case file.
    pub models: Count,
    /// Whether the case file is certain.
    pub certain: bool,
    /// The recommendation: accuse now.
    pub accuse: bool,
    /// Which part of the rule decided: `out`, `certain`, `below_even_odds`,
    /// `waiting_is_better`, `threat_outweighs` or `agent`.
    pub reason: String,
    /// That rule, in words.
    pub rule: String,
    /// The estimated chance that an opponent solves first (see `threat_basis`).
    pub threat: f64,
    /// How the threat is estimated, in words.
    pub threat_basis: String,
    /// The observer's best chance after its next question (1 when not needed).
    pub wait_value: f64,
}

/// One suggestion the observer could make, evaluated exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Suggestion {
    /// The suggested cards, one per category.
    pub cards: Vec<String>,
    /// The expected information about the case file, in bits.
    pub information: f64,
    /// The probability that the answer makes the case file certain.
    pub end_probability: f64,
    /// Every possible answer with a positive probability, in the order
    /// refuters are asked (nobody last).
    pub outcomes: Vec<Outcome>,
    /// Per card of `cards`, in order, the other cards of its category that
    /// give the same answers in its place: where nobody but the observer
    /// can show it (its own cards, the face-up ones, a case-file card that
    /// is certain), every other such card; else none.
    #[serde(default)]
    pub alternatives: Vec<Vec<String>>,
    /// The index in this list of the first suggestion with the same
    /// answers (the same cards but for `alternatives`, and the same
    /// numbers), or `null` when this is the first.
    #[serde(default)]
    pub same_answers_as: Option<usize>,
}

/// One possible answer to a suggestion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// Who refutes, or `null` when nobody can.
    pub refuter: Option<String>,
    /// The card shown, or `null` when nobody refutes.
    pub shown: Option<String>,
    /// The probability of this answer (a refuter holding several of the
    /// cards shows each with equal chance).
    pub probability: f64,
    /// The case file's entropy after this answer, in bits.
    pub entropy_after: f64,
    /// Whether the case file is certain after this answer.
    pub solves: bool,
}

/// An opponent's progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Opponent {
    /// The player.
    pub player: String,
    /// Whether it accused wrongly (and is out).
    pub out: bool,
    /// The estimated chance that it knows the case file now.
    pub solved: f64,
    /// The estimated chance that it can know it by the end of its next turn
    /// (with `lookahead`), else `solved`.
    pub threat: f64,
    /// A 95 % interval for `threat` from the sampling alone, `[low, high]`
    /// (the Wilson score interval over `samples` views): its width is what
    /// the estimate's budget costs in accuracy.
    pub threat_interval: [f64; 2],
    /// Whether its next turn was looked at.
    pub lookahead: bool,
    /// Its case-file entropy, in bits (estimated, from the first
    /// `entropy_samples` deals).
    pub entropy: f64,
    /// The deals sampled for the estimate: as many as fit its budget, at
    /// most `--samples` (opponents later in a round cut short by the
    /// budget have one fewer); where `exact`, every consistent deal.
    pub samples: usize,
    /// The deals `entropy` is from: the first `--entropy-samples` within
    /// the budget (each needs its views counted, which the threat of
    /// knowing the case file now rarely does).
    pub entropy_samples: usize,
    /// Whether `solved`, `threat` and `entropy` are exact (over every
    /// consistent deal and every way the unseen cards shown to the opponent
    /// can have fallen, where those are few; `threat_interval` is then the
    /// point `threat`), not estimated from a sample.
    pub exact: bool,
}

/// The behaviour hint: what the case file would be if some opponents avoid
/// asking about their own cards. A model of behaviour, not a deduction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BehaviourHint {
    /// The assumption, in words.
    pub assumption: String,
    /// The opponents whose questions show the habit, in seat order.
    pub habitual: Vec<String>,
    /// The case file the assumption makes likeliest, or `null`.
    pub cards: Option<Vec<String>>,
    /// How many times its exact probability the assumption makes it, or `null`.
    pub factor: Option<f64>,
    /// Every opponent's evidence.
    pub tells: Vec<Tell>,
}

/// An opponent's evidence for the behaviour hint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Tell {
    /// The opponent.
    pub player: String,
    /// Its suggested cards whose place the observer knows.
    pub known: usize,
    /// How many of those it holds.
    pub own: usize,
    /// The chance that a blind asker holds at most `own` of `known`.
    pub blind_chance: f64,
    /// The fitted relative rate of suggesting a card it holds.
    pub rate: f64,
}

impl Advice {
    /// The wire form of `advice`, the advice for the observer of `game`.
    pub fn new(game: &Game, advice: &core::Advice) -> Advice {
        let player = |p: Player| game.player_id(p).to_string();
        let a = &advice.accusation;
        Advice {
            me: player(advice.me),
            models: Count(advice.models),
            entropy: advice.entropy,
            accusation: Accusation {
                cards: ids(game, a.cards),
                probability: a.probability,
                models: Count(a.deals),
                certain: a.certain,
                accuse: a.accuse,
                reason: a.reason.id().to_string(),
                rule: a.reason.words().to_string(),
                threat: a.threat,
                threat_basis: THREAT_BASIS.to_string(),
                wait_value: a.wait_value,
            },
            suggestions: Suggestion::ranked(game, &advice.suggestions, advice.unshowable),
            evaluated: advice.evaluated,
            legal: advice.legal,
            opponents: advice
                .opponents
                .iter()
                .map(|o| Opponent {
                    player: player(o.player),
                    out: o.out,
                    solved: o.solved,
                    threat: o.threat,
                    threat_interval: [o.threat_interval.0, o.threat_interval.1],
                    lookahead: o.lookahead,
                    entropy: o.entropy,
                    samples: o.samples,
                    entropy_samples: o.entropy_samples,
                    exact: o.exact,
                })
                .collect(),
            behaviour_hint: advice.hint.as_ref().map(|h| BehaviourHint {
                assumption: "the opponents listed in 'habitual' avoid asking about their own cards".to_string(),
                habitual: h.habitual.iter().map(|&p| player(p)).collect(),
                cards: h.case_file.map(|(c, _)| ids(game, c)),
                factor: h.case_file.map(|(_, f)| f),
                tells: h
                    .tells
                    .iter()
                    .map(|t| Tell {
                        player: player(t.player),
                        known: t.known,
                        own: t.own,
                        blind_chance: t.blind_chance,
                        rate: t.rate,
                    })
                    .collect(),
            }),
        }
    }
}

impl Suggestion {
    /// The wire forms of `ranked` (best first), suggestions of the
    /// observer of `game`, to whom `unshowable` are the cards nobody else
    /// can show ([`Position::unshowable`](core::Position::unshowable)).
    pub fn ranked(game: &Game, ranked: &[core::SuggestionEval], unshowable: CardSet) -> Vec<Suggestion> {
        let same = core::same_answers(ranked, unshowable);
        (ranked.iter().zip(same))
            .map(|(eval, same_answers_as)| Suggestion { same_answers_as, ..Suggestion::new(game, eval, unshowable) })
            .collect()
    }

    /// The wire form of `eval`, a suggestion of the observer of `game`,
    /// to whom `unshowable` are the cards nobody else can show (the web
    /// API's `evaluate`).
    pub fn new(game: &Game, eval: &core::SuggestionEval, unshowable: CardSet) -> Suggestion {
        let alternatives = |c| ids(game, core::alternatives(game.deck(), c, unshowable));
        Suggestion {
            alternatives: eval.cards.iter().map(alternatives).collect(),
            same_answers_as: None,
            cards: ids(game, eval.cards),
            information: eval.information,
            end_probability: eval.end_probability,
            outcomes: eval
                .outcomes
                .iter()
                .map(|o| Outcome {
                    refuter: o.refuter.map(|p| game.player_id(p).to_string()),
                    shown: o.shown.map(|c| game.deck().id(c).to_string()),
                    probability: o.probability,
                    entropy_after: o.entropy_after,
                    solves: o.solves,
                })
                .collect(),
        }
    }
}

/// Which card to show a suggester (`sleuth advise --refute`, the web API's
/// `advice?by=&cards=`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Refutation {
    /// Who suggested.
    pub suggester: String,
    /// The suggested cards.
    pub suggestion: Vec<String>,
    /// The card to show, or `null` when the observer holds none (a pass).
    pub show: Option<String>,
    /// Why, in words.
    pub reason: String,
    /// Every card the observer could show.
    pub options: Vec<RefutationOption>,
}

/// A card the observer could show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RefutationOption {
    /// The card.
    pub card: String,
    /// Whether it was shown to the suggester before (it then tells nothing).
    pub already_shown: bool,
    /// What it tells the suggester about the case file, in bits.
    pub revealed: f64,
    /// The suggester's case-file entropy after seeing it, in bits.
    pub entropy_after: f64,
}

impl Refutation {
    /// The wire form of `advice`: which of `suggestion` to show `suggester`.
    pub fn new(game: &Game, suggester: Player, suggestion: CardSet, advice: &core::RefutationAdvice) -> Refutation {
        let deck = game.deck();
        let who = game.player_id(suggester);
        let reason = match advice.options.iter().find(|o| o.card == advice.card) {
            Some(o) if o.already_shown => format!("{who} has seen it already: it reveals nothing"),
            _ if advice.options.len() == 1 => "your only card of these".to_string(),
            Some(o) => format!("it tells {who} least about the case file ({:.2} bits)", o.revealed),
            None => "it tells the suggester least".to_string(),
        };
        Refutation {
            suggester: who.to_string(),
            suggestion: ids(game, suggestion),
            show: Some(deck.id(advice.card).to_string()),
            reason,
            options: advice
                .options
                .iter()
                .map(|o| RefutationOption {
                    card: deck.id(o.card).to_string(),
                    already_shown: o.already_shown,
                    revealed: o.revealed,
                    entropy_after: o.entropy_after,
                })
                .collect(),
        }
    }

    /// The answer when the observer holds none of `suggestion`: pass.
    pub fn pass(game: &Game, suggester: Player, suggestion: CardSet) -> Refutation {
        Refutation {
            suggester: game.player_id(suggester).to_string(),
            suggestion: ids(game, suggestion),
            show: None,
            reason: "you hold none of these cards: pass".to_string(),
            options: Vec::new(),
        }
    }
}
