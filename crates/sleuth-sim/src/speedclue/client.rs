//! The player side: an [`Agent`] behind the protocol.
//!
//! [`Client`] keeps the player's own game file (a [`Perspective`]) from
//! the server's messages and asks its agent for every decision, then
//! enforces the contest's rules itself, whatever the agent says:
//!
//! - **no repeated suggestion**: a suggestion made before (or an illegal
//!   one) is replaced by the unrepeated combination most likely to be the
//!   case file under the exact engine's marginals (highest product of the
//!   three case-file probabilities; lowest card indices on ties); "made
//!   before" counts both what it said and what the server reported it said;
//! - **never a card it has seen in an accusation** (its hand, or a card
//!   shown to it: the server's `SuicidalAccusation`): such an accusation
//!   becomes a pass;
//! - **accuse at once when certain**: when the exact engine finds a single
//!   possible case file, that is the accusation, whatever the agent wants.
//!
//! The card shown on `disprove` is the agent's choice, or the lowest
//! matching card if the agent names one it cannot show.
//!
//! The client also checks what it is told: a message that contradicts its
//! own hand or what it has seen is an error naming the message
//! ([`ClientError::Contradiction`]), and the session stops. Besides the
//! direct checks (a card shown by another player that it holds, a disprove
//! it cannot answer), every reported suggestion and accusation is added to
//! its view and the exact engine must still find a deal that fits: holding
//! `Mu`, `suggestion 1 Mu Re Di -` (nobody could disprove, so nobody holds
//! `Mu`) or `accusation 1 Mu Re Di +` (so `Mu` is in the case file) leave
//! no deal and are refused.

use super::message::{Message, ParseError, Reply};
use super::Triple;
use crate::agent::{Agent, SimRng};
use crate::agents::certain_case_file;
use crate::perspective::{event_spec, Perspective};
use crate::sim::agent_rng;
use crate::stats::game_seed;
use sleuth_core::count::{count, count_marginals};
use sleuth_core::format::{DeckSpec, GameFile};
use sleuth_core::model::{Accusation, Suggestion};
use sleuth_core::CountOptions;
use sleuth_core::{Card, CardSet, CountProblem, Counts, Deck, Event, Game, GameError, Place, Player};
use std::collections::HashSet;

/// Why a client cannot answer the server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The line is not a message of the protocol.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A well-formed message that makes no sense now (before `reset`, a
    /// player number out of range, a disprove this player cannot answer).
    #[error("protocol error on '{line}': {reason}")]
    Protocol {
        /// The line.
        line: String,
        /// What is wrong.
        reason: String,
    },
    /// The messages so far do not make a valid game (for example a hand of
    /// the wrong size).
    #[error("the game described by the server is invalid: {0}")]
    Game(#[from] GameError),
    /// A well-formed message that contradicts this player's hand or what it
    /// has seen: no deal of the cards fits the game with it.
    #[error("'{line}' contradicts the game so far: {reason}")]
    Contradiction {
        /// The line.
        line: String,
        /// What it contradicts.
        reason: String,
    },
    /// Every combination has been suggested already.
    #[error("every combination has been suggested already")]
    Exhausted,
    /// The exact engine could not count the player's view.
    #[error(transparent)]
    Count(#[from] sleuth_core::CountError),
}

/// One game in progress, from this player's seat.
struct Table {
    perspective: Perspective,
    players: Vec<String>,
    me: usize,
    hand: CardSet,
    /// Its hand and the cards shown to it.
    seen: CardSet,
    /// What it suggested, as it said and as the server reported.
    suggested: HashSet<CardSet>,
    /// The reports added to its view, each once.
    told: HashSet<Event>,
    rng: SimRng,
}

/// A Speed Clue player driven by an [`Agent`].
pub struct Client {
    deck: Deck,
    agent: Box<dyn Agent>,
    seed: u64,
    games: usize,
    table: Option<Table>,
}

impl Client {
    /// A player for `agent`; `seed` seeds the agent's random stream of each
    /// game (game `g` gets [`game_seed`]`(seed, g)`, stream of its seat).
    pub fn new(agent: Box<dyn Agent>, seed: u64) -> Client {
        Client { deck: Deck::classic(), agent, seed, games: 0, table: None }
    }

    /// The classic deck the protocol's cards belong to.
    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    /// The agent's name.
    pub fn agent_name(&self) -> &str {
        self.agent.name()
    }

    /// This player's number in the current game (`None` before `reset`).
    pub fn me(&self) -> Option<usize> {
        self.table.as_ref().map(|t| t.me)
    }

    /// Games started so far (`reset` messages).
    pub fn games(&self) -> usize {
        self.games
    }

    /// Answers one line from the server. `done` is answered `dead`: the
    /// caller then stops.
    ///
    /// # Errors
    /// [`ClientError`] for a line that is not a message, or a message that
    /// does not fit the game so far.
    pub fn answer_line(&mut self, line: &str) -> Result<Reply, ClientError> {
        let message = Message::parse(&self.deck, line)?;
        self.answer(&message, line)
    }

    /// Answers one message (`line` is quoted in errors).
    ///
    /// # Errors
    /// As [`Client::answer_line`].
    pub fn answer(&mut self, message: &Message, line: &str) -> Result<Reply, ClientError> {
        let protocol = |reason: String| ClientError::Protocol { line: line.to_string(), reason };
        let contradiction = |reason: &str| ClientError::Contradiction { line: line.to_string(), reason: reason.into() };
        match message {
            Message::Reset { players, me, hand } => {
                self.reset(*players, *me, hand)?;
                Ok(Reply::Ok)
            }
            Message::Done => Ok(Reply::Dead),
            _ => {
                let Some(table) = self.table.as_mut() else {
                    return Err(protocol("no game yet: the server has not sent 'reset'".into()));
                };
                let n = table.players.len();
                let check = |p: usize| if p < n { Ok(()) } else { Err(protocol(format!("no player {p} among {n}"))) };
                match message {
                    Message::Suggest => suggest(&self.deck, &mut *self.agent, table).map(Reply::Suggest),
                    Message::Accuse => {
                        accuse(&self.deck, &mut *self.agent, table).map(|a| a.map_or(Reply::Pass, Reply::Accuse))
                    }
                    Message::Disprove { by, cards } => {
                        check(*by)?;
                        let candidates = cards.set() & table.hand;
                        if candidates.is_empty() {
                            return Err(protocol("asked to disprove with none of the cards in hand".into()));
                        }
                        if *by == table.me {
                            return Err(protocol("asked to disprove its own suggestion".into()));
                        }
                        let card = match candidates.single_card() {
                            Some(c) => c,
                            None => {
                                let view = table.perspective.view()?.expect("a player's view");
                                let c = self.agent.choose_card_to_show(
                                    &view,
                                    Player::new(*by),
                                    cards.set(),
                                    candidates,
                                    &mut table.rng,
                                );
                                if candidates.contains(c) {
                                    c
                                } else {
                                    candidates.first_card().expect("not empty")
                                }
                            }
                        };
                        Ok(Reply::Show(card))
                    }
                    Message::Suggestion { by, cards, disprover, shown } => {
                        check(*by)?;
                        if let Some(d) = disprover {
                            check(*d)?;
                            if d == by {
                                return Err(protocol("a player disproved its own suggestion".into()));
                            }
                        }
                        let involved = *by == table.me || *disprover == Some(table.me);
                        if involved && disprover.is_some() && shown.is_none() {
                            return Err(protocol("the card shown is missing".into()));
                        }
                        if !involved && shown.is_some() {
                            return Err(protocol("a card shown to others was sent".into()));
                        }
                        // The shown card is in the disprover's hand: in ours
                        // exactly when we disproved.
                        if let Some(c) = shown {
                            let mine = *disprover == Some(table.me);
                            if table.hand.contains(*c) != mine {
                                return Err(contradiction(if mine {
                                    "we were said to show a card we do not hold"
                                } else {
                                    "another player was said to show a card we hold"
                                }));
                            }
                        }
                        let event = Event::Suggestion(Suggestion {
                            by: Player::new(*by),
                            cards: cards.set(),
                            refuted_by: disprover.map(Player::new),
                            shown: *shown,
                        });
                        push(&self.deck, table, &event, line)?;
                        if *by == table.me {
                            table.suggested.insert(cards.set());
                            table.seen |= shown.map_or(CardSet::EMPTY, CardSet::single);
                        }
                        Ok(Reply::Ok)
                    }
                    Message::Accusation { by, cards, correct } => {
                        check(*by)?;
                        let event = Event::Accusation(Accusation {
                            by: Player::new(*by),
                            cards: cards.set(),
                            correct: *correct,
                        });
                        push(&self.deck, table, &event, line)?;
                        Ok(Reply::Ok)
                    }
                    Message::Reset { .. } | Message::Done => unreachable!("handled above"),
                }
            }
        }
    }

    fn reset(&mut self, players: usize, me: usize, hand: &[Card]) -> Result<(), ClientError> {
        let ids: Vec<String> = (0..players).map(|p| format!("p{p}")).collect();
        let hand_set: CardSet = hand.iter().copied().collect();
        let file = GameFile {
            version: 1,
            deck: DeckSpec::from_deck(&self.deck),
            players: ids.clone(),
            hand_sizes: None,
            face_up: Vec::new(),
            me: Some(ids[me].clone()),
            hand: Some(hand.iter().map(|&c| self.deck.id(c).to_string()).collect()),
            events: Vec::new(),
        };
        // Checks the hand: its size (floor(18/n), plus one for the first
        // 18 mod n players) and no card twice.
        let mut perspective = Perspective::new(file)?;
        let mut rng = agent_rng(game_seed(self.seed, self.games), me);
        let view = perspective.view()?.expect("a player's view");
        self.agent.new_game(&view, &mut rng);
        self.games += 1;
        self.table = Some(Table {
            perspective,
            players: ids,
            me,
            hand: hand_set,
            seen: hand_set,
            suggested: HashSet::new(),
            told: HashSet::new(),
            rng,
        });
        Ok(())
    }
}

/// Appends an event (told in `line`) to the player's file, and checks that
/// the file still makes a valid game and that some deal of the cards fits
/// it: the exact engine's test of the message against the player's hand and
/// everything it has been told.
///
/// A report heard before says nothing new and is not added again, so a
/// server that repeats itself does not make every later message rebuild a
/// longer view.
fn push(deck: &Deck, table: &mut Table, event: &Event, line: &str) -> Result<(), ClientError> {
    if !table.told.insert(event.clone()) {
        return Ok(());
    }
    table.perspective.push(event_spec(&table.players, deck, event, Some(Player::new(table.me))));
    let game = table.perspective.game()?;
    if count(&CountProblem::new(game), &CountOptions::default())? == 0 {
        let reason = "no deal of the cards fits it with this player's hand and the game's events".into();
        return Err(ClientError::Contradiction { line: line.to_string(), reason });
    }
    Ok(())
}

/// The exact counts of the view, if they can be computed and some deal fits.
fn counts(game: &Game) -> Option<Counts> {
    count_marginals(&CountProblem::new(game), &CountOptions::default()).ok().filter(|c| c.total > 0)
}

fn suggest(deck: &Deck, agent: &mut dyn Agent, table: &mut Table) -> Result<Triple, ClientError> {
    let wanted = {
        let view = table.perspective.view()?.expect("a player's view");
        agent.suggest(&view, &mut table.rng)
    };
    let choice = match Triple::from_set(deck, wanted) {
        Some(t) if !table.suggested.contains(&t.set()) => t,
        _ => best_unrepeated(deck, table.perspective.game()?, &table.suggested).ok_or(ClientError::Exhausted)?,
    };
    table.suggested.insert(choice.set());
    Ok(choice)
}

/// The unrepeated combination with the highest product of case-file
/// probabilities (the lowest card indices first among equals).
pub fn best_unrepeated(deck: &Deck, game: &Game, suggested: &HashSet<CardSet>) -> Option<Triple> {
    let counts = counts(game);
    let case_file = Place::CaseFile.index(game.num_players());
    let weight = |c: Card| counts.as_ref().map_or(1.0, |k| k.marginal[c.index()][case_file] as f64 / k.total as f64);
    let cats: Vec<CardSet> = deck.categories().map(|c| deck.category_cards(c)).collect();
    let mut best: Option<(f64, Triple)> = None;
    for s in cats[0] {
        for w in cats[1] {
            for r in cats[2] {
                let t = Triple([s, w, r]);
                if suggested.contains(&t.set()) {
                    continue;
                }
                let score = weight(s) * weight(w) * weight(r);
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, t));
                }
            }
        }
    }
    best.map(|(_, t)| t)
}

fn accuse(deck: &Deck, agent: &mut dyn Agent, table: &mut Table) -> Result<Option<Triple>, ClientError> {
    let game = table.perspective.game()?;
    if let Some(certain) = counts(game).and_then(|c| certain_case_file(game, &c)) {
        return Ok(Triple::from_set(deck, certain));
    }
    let wanted = {
        let view = table.perspective.view()?.expect("a player's view");
        agent.accuse(&view, &mut table.rng)
    };
    Ok(wanted.filter(|w| (*w & table.seen).is_empty()).and_then(|w| Triple::from_set(deck, w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 59: a report repeated by the server is one event of the view.
    #[test]
    fn a_repeated_report_is_added_once() {
        let mut client = Client::new(crate::agent_by_name("random").expect("registered"), 1);
        client.answer_line("reset 3 0 Mu Kn Ca Ba Bi Co").expect("a hand");
        for _ in 0..1000 {
            assert_eq!(client.answer_line("suggestion 1 Gr Re Di 2").expect("consistent"), Reply::Ok);
            assert_eq!(client.answer_line("accusation 2 Pl Re Di -").expect("consistent"), Reply::Ok);
        }
        let table = client.table.as_ref().expect("a game");
        assert_eq!(table.perspective.file().events.len(), 2);
        assert_eq!(client.answer_line("suggestion 2 Gr Re Di 1").expect("consistent"), Reply::Ok);
        assert_eq!(client.table.as_ref().expect("a game").perspective.file().events.len(), 3);
    }
}
