//! `ray`: a re-implementation of ray's Speed Clue entrant, `entries/ray/ai01.py`
//! of sadakatsu/SpeedClueContest (the `AI01` class, the version whose
//! gamble on a 70 % solution is commented out), written from its source in
//! our own terms. Where each rule comes from:
//!
//! - **Notes** (`Card`, `PlayerInfo`): per card its owner or "in the
//!   solution", per player the cards it must have, may have, and "selection
//!   groups" (a suggestion it disproved without the card being seen). Its
//!   own hand is known; no other player may have those cards.
//! - **What a suggestion teaches** (`AI01.suggestion`): the players asked
//!   before the disprover (everyone but the suggester when nobody disproves)
//!   have none of the three cards; a seen card belongs to the disprover;
//!   an unseen one adds a selection group; a disproved triple is no longer a
//!   possible solution.
//! - **Deduction** (`AI01.update`, `PlayerInfo.update`), until nothing
//!   changes: a card nobody may have is the solution; a category with one
//!   unplaced card has it as the solution; a player whose known cards fill
//!   its hand has nothing else, and one whose possible cards number its hand
//!   has them all; a selection group with one possible card left is owned
//!   (a group with a known card is dropped); a player with one card left to
//!   find has nothing outside the groups it has not yet satisfied.
//! - **Possible solutions** (`filter_solutions`, `check_solution`): a triple
//!   stays possible while none of its cards is owned and it agrees with
//!   every solved category, and, once fewer than ten cards are unplaced,
//!   while some assignment of them to the hands (sizes, notes and groups)
//!   exists. Cards common to every possible triple are the solution. The
//!   source starts that intersection from the first triple of the *previous*
//!   list (a Python dict in hash order), so a deduction can come one event
//!   late; this re-implementation keeps the list in a random order drawn at
//!   the start of each game, as the hash seed does, and reports when the
//!   order decided something ([`RayNotes::order_mattered`]).
//! - **Suggesting** (`AI01.suggest`): per category, the unowned card with
//!   the fewest possible owners, first in card order (`Gr Mu Pe Pl Sc Wh`,
//!   `Ca Kn Pi Re Ro Wr`, `Ba Bi ... St`) among equals; a solved category's
//!   solution has none, so it is always asked. It never names a card of its
//!   own. When that triple was asked before, any unasked triple (`set.pop()`:
//!   arbitrary; here at random).
//! - **Accusing** (`AI01.accuse`): only when every category is solved.
//! - **Disproving** (`AI01.disprove`): the first of its cards in suggestion
//!   order (suspect, weapon, room): its `disproved_to` sets are never
//!   filled, so "show a card already shown to that player" never fires.
//! - **Wrong accusations** (`AI01.accusation`): only drop that triple.
//!
//! The simulator may ask for an accusation before a suggestion too (the
//! contest only after); the answer is the same rule.

use crate::agent::{Agent, SimRng, View};
use rand::seq::SliceRandom;
use sleuth_core::{Card, CardSet, Event, Player};

/// Deduction stops being a count of assignments when this many cards or
/// more are unplaced (`check_solution`'s threshold).
const COUNT_BELOW: usize = 10;

/// ray's notes of one game (the state of `AI01`).
#[derive(Clone, Debug)]
pub struct RayNotes {
    me: usize,
    /// Per category, its cards in ray's order.
    categories: Vec<Vec<Card>>,
    owner: Vec<Option<usize>>,
    solution: Vec<Option<Card>>,
    /// Per category, cards neither owned nor the solution.
    rest: Vec<usize>,
    sizes: Vec<usize>,
    must: Vec<CardSet>,
    may: Vec<CardSet>,
    groups: Vec<Vec<CardSet>>,
    /// Possible solution triples, in dict order.
    solutions: Vec<CardSet>,
    order_mattered: bool,
}

impl RayNotes {
    /// Notes at the start of a game; `order` shuffles the possible
    /// solutions as Python's hash seed would (`None`: card order).
    pub fn new(view: &View<'_>, order: Option<&mut SimRng>) -> RayNotes {
        let deck = view.deck();
        let game = view.game();
        let n = game.num_players();
        let me = view.me().index();
        let categories: Vec<Vec<Card>> = deck
            .categories()
            .map(|cat| {
                let mut cards: Vec<Card> = deck.category_cards(cat).iter().collect();
                cards.sort_by_key(|&c| deck.id(c).to_string());
                cards
            })
            .collect();
        let mut solutions = vec![CardSet::EMPTY];
        for cat in &categories {
            solutions = solutions.iter().flat_map(|&s| cat.iter().map(move |&c| s | CardSet::single(c))).collect();
        }
        if let Some(rng) = order {
            solutions.shuffle(rng);
        }
        let hand = view.hand();
        let mut notes = RayNotes {
            me,
            owner: vec![None; deck.len()],
            solution: vec![None; categories.len()],
            rest: categories.iter().map(Vec::len).collect(),
            categories,
            sizes: (0..n).map(|p| game.hand_size(Player::new(p))).collect(),
            must: vec![CardSet::EMPTY; n],
            may: (0..n).map(|p| if p == me { hand } else { deck.all() }).collect(),
            groups: vec![Vec::new(); n],
            solutions,
            order_mattered: false,
        };
        for c in hand {
            notes.set_owner(c, me);
        }
        notes.filter_solutions();
        notes
    }

    /// Whether the order of the possible solutions changed a deduction so
    /// far (then ray's moves depend on its hash seed).
    pub fn order_mattered(&self) -> bool {
        self.order_mattered
    }

    /// The solved categories' solutions, when every category is solved.
    pub fn solved(&self) -> Option<CardSet> {
        self.solution.iter().map(|s| s.map(CardSet::single)).try_fold(CardSet::EMPTY, |acc, s| Some(acc | s?))
    }

    fn category_of(&self, card: Card) -> usize {
        self.categories.iter().position(|cards| cards.contains(&card)).expect("a card of the deck")
    }

    fn owners(&self, card: Card) -> usize {
        self.may.iter().filter(|m| m.contains(card)).count()
    }

    fn set_owner(&mut self, card: Card, player: usize) {
        for m in &mut self.may {
            m.remove(card);
        }
        self.owner[card.index()] = Some(player);
        self.must[player].insert(card);
        let k = self.category_of(card);
        self.rest[k] -= 1;
    }

    fn set_solution(&mut self, card: Card) {
        for m in &mut self.may {
            m.remove(card);
        }
        let k = self.category_of(card);
        self.solution[k] = Some(card);
        self.rest[k] -= 1;
    }

    fn in_solution(&self, card: Card) -> bool {
        self.solution[self.category_of(card)] == Some(card)
    }

    /// A suggestion and its answer (`AI01.suggestion`).
    pub fn suggestion(&mut self, by: usize, cards: CardSet, disprover: Option<usize>, shown: Option<Card>) {
        let n = self.sizes.len();
        let end = disprover.unwrap_or(by);
        let mut p = (by + 1) % n;
        while p != end {
            if p != self.me {
                self.may[p] = self.may[p] - cards;
            }
            p = (p + 1) % n;
        }
        if let Some(d) = disprover {
            match shown {
                Some(c) if self.owner[c.index()].is_none() => self.set_owner(c, d),
                Some(_) => {}
                None => self.groups[d].push(cards),
            }
            self.solutions.retain(|&s| s != cards);
        }
        self.update();
    }

    /// A wrong accusation drops that triple, nothing more (`AI01.accusation`).
    pub fn wrong_accusation(&mut self, cards: CardSet) {
        self.solutions.retain(|&s| s != cards);
    }

    fn update(&mut self) {
        loop {
            let mut changed = false;
            for k in 0..self.categories.len() {
                for i in 0..self.categories[k].len() {
                    let c = self.categories[k][i];
                    let placed = self.owner[c.index()].is_some() || self.in_solution(c);
                    if !placed && self.owners(c) == 0 && self.solution[k].is_none() {
                        self.set_solution(c);
                        changed = true;
                    }
                }
            }
            for k in 0..self.categories.len() {
                if self.solution[k].is_none() && self.rest[k] == 1 {
                    let c = *self.categories[k].iter().find(|c| self.owner[c.index()].is_none()).expect("one left");
                    self.set_solution(c);
                    changed = true;
                }
            }
            for p in 0..self.sizes.len() {
                if p != self.me && self.update_player(p) {
                    changed = true;
                }
            }
            if self.filter_solutions() {
                changed = true;
            }
            if !changed {
                return;
            }
        }
    }

    /// `PlayerInfo.update`: whether anything changed.
    fn update_player(&mut self, p: usize) -> bool {
        let size = self.sizes[p];
        let mut updated = false;
        loop {
            let mut stable = true;
            if self.must[p].len() == size {
                if self.may[p].is_empty() {
                    break;
                }
                self.may[p] = CardSet::EMPTY;
                stable = false;
                updated = true;
            }
            if self.must[p].len() + self.may[p].len() == size {
                stable = false;
                updated = true;
                for c in self.may[p] {
                    self.set_owner(c, p);
                }
            }
            let groups = std::mem::take(&mut self.groups[p]);
            let mut kept = Vec::new();
            for group in groups {
                if !(group & self.must[p]).is_empty() {
                    continue;
                }
                let left = group & self.may[p];
                if let Some(c) = left.single_card() {
                    self.set_owner(c, p);
                    updated = true;
                    stable = false;
                } else if !left.is_empty() {
                    kept.push(left);
                }
            }
            self.groups[p] = kept;
            if self.must[p].len() + 1 == size {
                let mut keep = self.may[p];
                for &g in &self.groups[p] {
                    if (g & self.must[p]).is_empty() {
                        keep &= g;
                    }
                }
                let drop = self.may[p] - keep;
                if !drop.is_empty() {
                    self.may[p] = keep;
                    stable = false;
                    updated = true;
                }
            }
            if stable {
                break;
            }
        }
        updated
    }

    /// `filter_solutions`: whether a solution card was found.
    fn filter_solutions(&mut self) -> bool {
        let Some(&first) = self.solutions.first() else { return false };
        let unplaced: CardSet = self.categories.iter().flatten().filter(|&&c| self.owners(c) > 0).copied().collect();
        let mut kept = Vec::with_capacity(self.solutions.len());
        let mut join = first;
        let mut exact: Option<CardSet> = None;
        for &s in &self.solutions {
            let fits = s.iter().all(|c| {
                let k = self.category_of(c);
                self.owner[c.index()].is_none() && self.solution[k].is_none_or(|sol| sol == c)
            });
            if fits && self.assignments(unplaced - s) {
                kept.push(s);
                join &= s;
                exact = Some(exact.map_or(s, |e| e & s));
            }
        }
        self.solutions = kept;
        if self.solutions.is_empty() {
            return false; // the source would fail an assertion here
        }
        let mut found = false;
        for c in join {
            if !self.in_solution(c) {
                self.set_solution(c);
                found = true;
            }
        }
        if exact.is_some_and(|e| e.iter().any(|c| !self.in_solution(c))) {
            self.order_mattered = true;
        }
        found
    }

    /// `check_solution` as a yes/no: some assignment of the `unplaced`
    /// cards fills every hand (always yes with ten or more of them).
    fn assignments(&self, unplaced: CardSet) -> bool {
        if unplaced.len() >= COUNT_BELOW {
            return true;
        }
        self.assign(0, unplaced)
    }

    fn assign(&self, p: usize, left: CardSet) -> bool {
        if p == self.sizes.len() {
            return true;
        }
        let take = self.sizes[p].saturating_sub(self.must[p].len());
        let pool = left & self.may[p];
        pool.subsets_of_size(take).any(|choice| {
            let hand = self.must[p] | choice;
            self.groups[p].iter().all(|&g| !(g & hand).is_empty()) && self.assign(p + 1, left - choice)
        })
    }

    /// ray's wanted suggestion (`AI01.suggest` before the repeat check).
    pub fn wanted(&self) -> CardSet {
        self.categories
            .iter()
            .filter_map(|cards| {
                cards.iter().copied().filter(|c| self.owner[c.index()].is_none()).min_by_key(|&c| self.owners(c))
            })
            .collect()
    }
}

/// ray's entrant (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct RayAgent {
    notes: Option<RayNotes>,
    seen: usize,
    asked: Vec<CardSet>,
}

impl RayAgent {
    /// A new agent.
    pub fn new() -> RayAgent {
        RayAgent::default()
    }

    /// Its notes, brought up to date with `view`.
    pub fn notes(&mut self, view: &View<'_>) -> &RayNotes {
        let notes = self.notes.get_or_insert_with(|| RayNotes::new(view, None));
        for event in &view.events()[self.seen..] {
            match event {
                Event::Suggestion(s) => {
                    notes.suggestion(s.by.index(), s.cards, s.refuted_by.map(|p| p.index()), s.shown)
                }
                Event::Accusation(a) if !a.correct => notes.wrong_accusation(a.cards),
                Event::Accusation(_) => {}
            }
        }
        self.seen = view.events().len();
        notes
    }
}

impl Agent for RayAgent {
    fn name(&self) -> &str {
        "ray"
    }

    fn new_game(&mut self, view: &View<'_>, rng: &mut SimRng) {
        self.notes = Some(RayNotes::new(view, Some(rng)));
        self.seen = 0;
        self.asked.clear();
    }

    fn accuse(&mut self, view: &View<'_>, _rng: &mut SimRng) -> Option<CardSet> {
        self.notes(view).solved()
    }

    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        let wanted = self.notes(view).wanted();
        let choice = if self.asked.contains(&wanted) || wanted.len() != view.deck().num_categories() {
            let unasked: Vec<CardSet> =
                super::clauses::combinations(view.deck()).into_iter().filter(|c| !self.asked.contains(c)).collect();
            unasked.choose(rng).copied().unwrap_or(wanted)
        } else {
            wanted
        };
        self.asked.push(choice);
        choice
    }

    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        _suggester: Player,
        _suggestion: CardSet,
        candidates: CardSet,
        _rng: &mut SimRng,
    ) -> Card {
        let deck = view.deck();
        deck.categories().find_map(|cat| (candidates & deck.category_cards(cat)).first_card()).expect("a matching card")
    }
}
