//! `spock`: a re-implementation of gamecoder's `SpockAI`, the 2014 Speed Clue
//! winner (sadakatsu/SpeedClueContest, `entries/gamecoder/SpockAI/src/`),
//! written from its source in our own terms. Where each rule comes from:
//!
//! - **Hands** (`knowledge/PlayerFacts.java`): every other player's
//!   possible hands are listed outright (every hand of its size from the
//!   cards Spock does not hold); "has one of these" and "has none of these"
//!   filter the list, and a card is known held (or not) when every listed
//!   hand has it (or none does).
//! - **Solutions and candidates** (`knowledge/Knowledge.java`): the possible
//!   solution triples (at first those without a card of its own), the
//!   candidates left in each category, and the cards whose holder was
//!   noted. A category down to one candidate has its solution.
//! - **What a suggestion teaches** (`Knowledge.recordSuggestion`): players
//!   asked before the disprover have none of the three; the disprover has
//!   the card shown to Spock, or else one of the three; its own suggestion
//!   undisproved puts every card it does not hold in the solution, and a
//!   card shown to it leaves every solution.
//! - **The absent accusation** (`learnFromAbsentAccusation`): when another
//!   player's suggestion went undisproved and the next event is a
//!   suggestion (it did not accuse), that player is taken to hold one of
//!   the three (the contest disqualifies passing there when none of the
//!   three was seen, and Spock reads "seen" as "held").
//! - **Accusations seen** (`recordAccusation`): the accuser holds none of
//!   the three; a wrong one drops that triple.
//! - **Deduction** (`bubbleInferences`), until no player's hands change: a
//!   category in which one card is not known held has it as the solution
//!   (nobody holds it); a card every player is known not to hold is the
//!   solution; in a category whose solution is known, a card only one player
//!   can hold is that player's; a card known held is held by nobody else and
//!   leaves the solutions.
//! - **Suggesting** (`SpockAI.suggest`): every triple not asked before is
//!   scored by its worst outcome: each answer its notes allow (`getOutcomes`:
//!   players in turn, each showing any of the three it may hold, until one
//!   surely holds one; "nobody" if none surely does) is recorded, and the
//!   outcome with the most possible solutions, then the most possible hands
//!   (counts in decreasing order, compared in turn) is the worst. The triple
//!   whose worst outcome is least wins, at random among equals. Outcomes the
//!   notes find contradictory are skipped. It often names its own cards:
//!   nobody can show those, so they shrink the outcomes.
//! - **Accusing** (`SpockAI.accuse`): only when one possible solution is left.
//! - **Disproving** (`SpockAI.disprove`): a card already shown to that
//!   player; else the suggested card of the category with the most
//!   candidates left (rooms, then suspects, then weapons among equals).
//!
//! Where the source throws on a contradiction while recording a real event
//! (its process then stops and the server disqualifies it), this agent stops
//! reasoning: it no longer accuses and asks random unasked triples.

use crate::agent::{Agent, SimRng, View};
use rand::seq::SliceRandom;
use sleuth_core::{Card, CardSet, Event, Player};
use std::sync::Arc;

/// The notes found a contradiction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Contradiction;

type Step = Result<(), Contradiction>;

/// One player's possible hands (`PlayerFacts`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Hands {
    hands: Vec<CardSet>,
    yes: CardSet,
    no: CardSet,
}

impl Hands {
    fn new(hands: Vec<CardSet>, all: CardSet) -> Hands {
        let yes = hands.iter().fold(all, |a, &h| a & h);
        let any = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
        Hands { hands, yes, no: all - any }
    }

    /// Holds at least one of `cards`: `None` when nothing changes.
    fn has_one(&self, cards: CardSet, all: CardSet) -> Result<Option<Hands>, Contradiction> {
        if !(cards & self.yes).is_empty() {
            return Ok(None);
        }
        if cards.is_subset(self.no) {
            return Err(Contradiction);
        }
        let hands: Vec<CardSet> = self.hands.iter().copied().filter(|h| !(*h & cards).is_empty()).collect();
        if hands.is_empty() {
            return Err(Contradiction);
        }
        Ok((hands.len() < self.hands.len()).then(|| Hands::new(hands, all)))
    }

    /// Holds none of `cards`: `None` when nothing changes.
    fn has_none(&self, cards: CardSet, all: CardSet) -> Result<Option<Hands>, Contradiction> {
        if !(cards & self.yes).is_empty() {
            return Err(Contradiction);
        }
        if cards.is_subset(self.no) {
            return Ok(None);
        }
        let hands: Vec<CardSet> = self.hands.iter().copied().filter(|h| (*h & cards).is_empty()).collect();
        if hands.is_empty() {
            return Err(Contradiction);
        }
        Ok((hands.len() < self.hands.len()).then(|| Hands::new(hands, all)))
    }
}

/// Who holds a card, as far as Spock noted it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Holder {
    Player,
    Solution,
}

/// The last event recorded, for the absent accusation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Last {
    None,
    Suggestion { by: usize, cards: CardSet, disproved: bool },
    Accusation,
}

/// Spock's knowledge of one game (`Knowledge`).
#[derive(Clone, Debug)]
pub struct SpockNotes {
    me: usize,
    all: CardSet,
    /// Rooms, suspects, weapons: the order of its disprove rule.
    categories: Vec<CardSet>,
    players: Vec<Arc<Hands>>,
    holders: Vec<Option<Holder>>,
    candidates: Vec<CardSet>,
    solutions: Vec<CardSet>,
    last: Last,
}

impl SpockNotes {
    /// Notes at the start of a game.
    pub fn new(view: &View<'_>) -> SpockNotes {
        let deck = view.deck();
        let game = view.game();
        let all = deck.all();
        let hand = view.hand();
        let me = view.me().index();
        let mut categories: Vec<CardSet> = deck.categories().map(|c| deck.category_cards(c)).collect();
        categories.rotate_right(1);
        let players = (0..game.num_players())
            .map(|p| {
                let hands = if p == me {
                    vec![hand]
                } else {
                    (all - hand).subsets_of_size(game.hand_size(Player::new(p))).collect()
                };
                Arc::new(Hands::new(hands, all))
            })
            .collect();
        let mut holders = vec![None; deck.len()];
        for c in hand {
            holders[c.index()] = Some(Holder::Player);
        }
        let solutions = super::clauses::combinations(deck).into_iter().filter(|s| (*s & hand).is_empty()).collect();
        SpockNotes {
            me,
            all,
            candidates: categories.iter().map(|&c| c - hand).collect(),
            categories,
            players,
            holders,
            solutions,
            last: Last::None,
        }
    }

    /// The possible solutions left.
    pub fn solutions(&self) -> &[CardSet] {
        &self.solutions
    }

    fn category(&self, card: Card) -> usize {
        self.categories.iter().position(|c| c.contains(card)).expect("a card of the deck")
    }

    fn has_one(&mut self, p: usize, cards: CardSet) -> Step {
        if let Some(h) = self.players[p].has_one(cards, self.all)? {
            self.players[p] = Arc::new(h);
        }
        Ok(())
    }

    fn has_none(&mut self, p: usize, cards: CardSet) -> Step {
        if let Some(h) = self.players[p].has_none(cards, self.all)? {
            self.players[p] = Arc::new(h);
        }
        Ok(())
    }

    /// `notePlayerHas`.
    fn holds(&mut self, p: usize, card: Card) -> Step {
        self.holders[card.index()] = Some(Holder::Player);
        for q in 0..self.players.len() {
            if q == p {
                self.has_one(q, CardSet::single(card))?;
            } else {
                self.has_none(q, CardSet::single(card))?;
            }
        }
        Ok(())
    }

    /// `noteForSolution`.
    fn note_solution(&mut self, card: Card, part: bool) -> Step {
        if let Some(h) = self.holders[card.index()] {
            return if (h == Holder::Solution) == part { Ok(()) } else { Err(Contradiction) };
        }
        let k = self.category(card);
        if part {
            self.holders[card.index()] = Some(Holder::Solution);
            self.candidates[k] = CardSet::single(card);
        } else {
            self.candidates[k].remove(card);
            if let Some(last) = self.candidates[k].single_card() {
                self.holders[last.index()] = Some(Holder::Solution);
            }
        }
        if self.candidates[k].is_empty() {
            return Err(Contradiction);
        }
        Ok(())
    }

    /// `filterSolutions`: every card of `cards` in the solution, or none.
    fn filter(&mut self, part: bool, cards: CardSet) -> Step {
        for c in cards {
            self.note_solution(c, part)?;
        }
        if part {
            self.solutions.retain(|s| cards.is_subset(*s));
        } else {
            self.solutions.retain(|s| (*s & cards).is_empty());
        }
        if self.solutions.is_empty() {
            return Err(Contradiction);
        }
        Ok(())
    }

    fn hand_counts(&self) -> Vec<usize> {
        self.players.iter().map(|h| h.hands.len()).collect()
    }

    /// `bubbleInferences`.
    fn deduce(&mut self) -> Step {
        let n = self.players.len();
        loop {
            let before = self.hand_counts();
            let held = self.players.iter().fold(CardSet::EMPTY, |a, h| a | h.yes);
            for k in 0..self.categories.len() {
                let left = self.categories[k] - held;
                if let Some(c) = left.single_card() {
                    self.filter(true, left)?;
                    for p in 0..n {
                        self.has_none(p, CardSet::single(c))?;
                    }
                }
            }
            let nobody = self.players.iter().fold(self.all, |a, h| a & h.no);
            for c in nobody {
                self.filter(true, CardSet::single(c))?;
            }
            for k in 0..self.categories.len() {
                let Some(proven) = self.candidates[k].single_card() else { continue };
                for p in 0..n {
                    self.has_none(p, CardSet::single(proven))?;
                }
                for c in self.categories[k] {
                    if self.holders[c.index()].is_none() {
                        let mut can = (0..n).filter(|&p| !self.players[p].no.contains(c));
                        if let (Some(p), None) = (can.next(), can.next()) {
                            self.holds(p, c)?;
                        }
                    }
                }
            }
            for p in 0..n {
                let known = self.players[p].yes;
                if !known.is_empty() {
                    for q in (0..n).filter(|&q| q != p) {
                        self.has_none(q, known)?;
                    }
                    self.filter(false, known)?;
                }
            }
            if self.hand_counts() == before {
                return Ok(());
            }
        }
    }

    /// `recordSuggestion`.
    pub fn suggestion(&mut self, by: usize, cards: CardSet, disprover: Option<usize>, shown: Option<Card>) -> Step {
        let n = self.players.len();
        if let Last::Suggestion { by: last, cards: asked, disproved: false } = self.last {
            if last != self.me {
                self.has_one(last, asked)?;
            }
        }
        self.last = Last::Suggestion { by, cards, disproved: disprover.is_some() };
        let mut p = (by + 1) % n;
        while p != by && disprover.is_none_or(|d| p != (d + 1) % n) {
            if disprover != Some(p) {
                self.has_none(p, cards)?;
            } else {
                match shown {
                    Some(c) if by == self.me => self.holds(p, c)?,
                    _ => self.has_one(p, cards)?,
                }
            }
            p = (p + 1) % n;
        }
        if by == self.me {
            match (disprover, shown) {
                (None, _) => {
                    for c in cards - self.players[self.me].hands[0] {
                        self.filter(true, CardSet::single(c))?;
                    }
                }
                (Some(_), Some(c)) => self.filter(false, CardSet::single(c))?,
                (Some(_), None) => {}
            }
        }
        self.deduce()
    }

    /// `recordAccusation`.
    pub fn accusation(&mut self, by: usize, cards: CardSet, correct: bool) -> Step {
        self.last = Last::Accusation;
        self.has_none(by, cards)?;
        if correct {
            self.filter(true, cards)?;
        } else {
            self.solutions.retain(|&s| s != cards);
        }
        self.deduce()
    }

    /// `getOutcomes`: every answer the notes allow to `by` asking `cards`.
    fn outcomes(&self, by: usize, cards: CardSet) -> Vec<(Option<usize>, Option<Card>)> {
        let n = self.players.len();
        let mut out = Vec::new();
        let mut p = (by + 1) % n;
        while p != by {
            let facts = &self.players[p];
            out.extend((cards - facts.no).iter().map(|c| (Some(p), Some(c))));
            if !(cards & facts.yes).is_empty() {
                return out;
            }
            p = (p + 1) % n;
        }
        out.push((None, None));
        out
    }

    /// The worst outcome of asking `cards`: possible solutions, then the
    /// possible-hand counts in decreasing order (`SuggestionTest`).
    pub fn worst_case(&self, cards: CardSet) -> Vec<usize> {
        let mut worst = vec![0; self.players.len() + 1];
        for (d, c) in self.outcomes(self.me, cards) {
            let mut next = self.clone();
            if next.suggestion(self.me, cards, d, c).is_err() {
                continue;
            }
            let mut score = vec![next.solutions.len()];
            let mut counts = next.hand_counts();
            counts.sort_unstable_by(|a, b| b.cmp(a));
            score.extend(counts);
            if score > worst {
                worst = score;
            }
        }
        worst
    }

    /// The triples Spock would choose among (least worst case), given the
    /// ones it has `asked`.
    pub fn best_suggestions(&self, deck: &sleuth_core::Deck, asked: &[CardSet]) -> Vec<CardSet> {
        let mut best: Option<Vec<usize>> = None;
        let mut options = Vec::new();
        for s in super::clauses::combinations(deck).into_iter().filter(|s| !asked.contains(s)) {
            let score = self.worst_case(s);
            match best.as_ref().map(|b| score.cmp(b)) {
                Some(std::cmp::Ordering::Greater) => {}
                Some(std::cmp::Ordering::Equal) => options.push(s),
                _ => {
                    best = Some(score);
                    options = vec![s];
                }
            }
        }
        options
    }

    /// The cards Spock may show `suggester` among `candidates`, given the
    /// cards it showed that player before (`SpockAI.disprove`): several only
    /// when several were shown before (the source's order is a hash set's).
    pub fn to_show(&self, candidates: CardSet, shown_before: CardSet) -> CardSet {
        let again = candidates & shown_before;
        if !again.is_empty() {
            return again;
        }
        let mut order: Vec<usize> = (0..self.categories.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(self.candidates[k].len()));
        order
            .into_iter()
            .find_map(|k| (candidates & self.categories[k]).first_card())
            .map_or(CardSet::EMPTY, CardSet::single)
    }
}

/// gamecoder's `SpockAI` (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct SpockAgent {
    notes: Option<SpockNotes>,
    broken: bool,
    seen: usize,
    asked: Vec<CardSet>,
}

impl SpockAgent {
    /// A new agent.
    pub fn new() -> SpockAgent {
        SpockAgent::default()
    }

    /// Its notes, brought up to date with `view`; `None` once they broke.
    pub fn notes(&mut self, view: &View<'_>) -> Option<&SpockNotes> {
        let notes = self.notes.get_or_insert_with(|| SpockNotes::new(view));
        for event in &view.events()[self.seen..] {
            if self.broken {
                break;
            }
            let step = match event {
                Event::Suggestion(s) => {
                    notes.suggestion(s.by.index(), s.cards, s.refuted_by.map(|p| p.index()), s.shown)
                }
                Event::Accusation(a) => notes.accusation(a.by.index(), a.cards, a.correct),
            };
            self.broken = step.is_err();
        }
        self.seen = view.events().len();
        (!self.broken).then_some(&*notes)
    }
}

impl Agent for SpockAgent {
    fn name(&self) -> &str {
        "spock"
    }

    fn new_game(&mut self, view: &View<'_>, _rng: &mut SimRng) {
        *self = SpockAgent { notes: Some(SpockNotes::new(view)), ..SpockAgent::default() };
    }

    fn accuse(&mut self, view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        match self.notes(view)?.solutions() {
            [only] => Some(*only),
            _ => None,
        }
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        let asked = self.asked.clone();
        let options = match self.notes(view) {
            Some(notes) => notes.best_suggestions(view.deck(), &asked),
            None => super::clauses::combinations(view.deck()).into_iter().filter(|s| !asked.contains(s)).collect(),
        };
        let choice = options.choose(rng).copied().unwrap_or_else(|| super::random_combination(view.deck(), rng));
        self.asked.push(choice);
        choice
    }

    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        suggester: Player,
        _suggestion: CardSet,
        candidates: CardSet,
        rng: &mut SimRng,
    ) -> Card {
        let before = super::tactics::shown_to(view, suggester);
        let pool = match self.notes(view) {
            Some(notes) => notes.to_show(candidates, before),
            None => candidates,
        };
        super::random_card(if pool.is_empty() { candidates } else { pool }, rng)
    }
}
