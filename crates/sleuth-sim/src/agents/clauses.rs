//! A clause notebook, the deduction of the published Speed Clue entrants
//! (sadakatsu/SpeedClueContest: `InferencePlayer.PlayerInformation` by
//! Peter Taylor, `SpockAI`'s `Knowledge`): for every place (each player,
//! then the case file) the cards it may hold, the cards it surely holds, and
//! clauses "holds at least one of these" from disproved suggestions. It is
//! sound but not complete (no counting of deals): it is what those players
//! know, not what Sleuth's exact engine knows.
//!
//! Rules, applied until nothing changes ([`Clauses::close`]):
//! - a card surely held by one place is possible nowhere else;
//! - a clause shrinks to the cards still possible; one card left: held;
//! - a place whose sure cards fill its hand holds nothing else, and one
//!   whose possible cards number its hand size holds them all;
//! - the case file holds one card per category;
//! - a card possible in a single place is there;
//! - as many disjoint clauses as the cards a place has left to find: the
//!   place holds nothing outside them and its sure cards.

use sleuth_core::{Card, CardSet, Deck, Event, Game};

/// What a place may and must hold.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Place {
    possible: CardSet,
    known: CardSet,
    clauses: Vec<CardSet>,
    size: usize,
}

/// The notebook of one player's view.
#[derive(Clone, Debug)]
pub struct Clauses {
    categories: Vec<CardSet>,
    /// Players `0..n`, then the case file at `n`.
    places: Vec<Place>,
    contradiction: bool,
}

impl Clauses {
    /// The notebook of `game` seen by its observer (its hand known), with
    /// every suggestion recorded. Wrong accusations are ignored, as the
    /// entrants do.
    ///
    /// # Panics
    /// If `game` has no observer.
    pub fn of_view(game: &Game) -> Clauses {
        let (me, hand) = game.observer().expect("a player's view");
        let deck = game.deck();
        let n = game.num_players();
        let all = deck.all();
        let mut places: Vec<Place> = (0..n)
            .map(|p| Place {
                possible: if p == me.index() { hand } else { all - hand },
                known: if p == me.index() { hand } else { CardSet::EMPTY },
                clauses: Vec::new(),
                size: game.hand_size(sleuth_core::Player::new(p)),
            })
            .collect();
        let categories: Vec<CardSet> = deck.categories().map(|c| deck.category_cards(c)).collect();
        places.push(Place {
            possible: all - hand,
            known: CardSet::EMPTY,
            clauses: categories.iter().map(|&c| c - hand).collect(),
            size: categories.len(),
        });
        let mut notebook = Clauses { categories, places, contradiction: false };
        for event in game.events() {
            if let Event::Suggestion(s) = event {
                notebook.record(s.by.index(), s.cards, s.refuted_by.map(|p| p.index()), s.shown);
            }
        }
        notebook.close();
        notebook
    }

    fn players(&self) -> usize {
        self.places.len() - 1
    }

    /// The number of players.
    pub fn players_count(&self) -> usize {
        self.players()
    }

    /// Records a suggestion by `by`: the players after it up to the
    /// disprover (or all, if nobody) hold none of the cards; the disprover
    /// holds `shown`, or one of the cards. Nobody: the cards not in the
    /// suggester's hand are in the case file. Call [`Clauses::close`] after.
    pub fn record(&mut self, by: usize, cards: CardSet, disprover: Option<usize>, shown: Option<Card>) {
        let n = self.players();
        let mut q = (by + 1) % n;
        while q != by && Some(q) != disprover {
            self.exclude(q, cards);
            q = (q + 1) % n;
        }
        match (disprover, shown) {
            (Some(d), Some(c)) => self.hold(d, c),
            (Some(d), None) => self.places[d].clauses.push(cards),
            // Nobody: every other player was crossed out above, so each
            // card is in the suggester's hand or the case file; for our own
            // suggestion the rules put those we do not hold in the case file.
            (None, _) => {}
        }
    }

    fn hold(&mut self, place: usize, card: Card) {
        if !self.places[place].possible.contains(card) {
            self.contradiction = true;
        }
        self.places[place].known.insert(card);
        for (q, other) in self.places.iter_mut().enumerate() {
            if q != place {
                other.possible.remove(card);
            }
        }
    }

    fn exclude(&mut self, place: usize, cards: CardSet) {
        let p = &mut self.places[place];
        if !(p.known & cards).is_empty() {
            self.contradiction = true;
        }
        p.possible = p.possible - cards;
    }

    /// Applies the rules until nothing changes.
    pub fn close(&mut self) {
        let n = self.players();
        loop {
            let before: Vec<(CardSet, CardSet)> = self.places.iter().map(|p| (p.possible, p.known)).collect();
            for place in 0..=n {
                let p = &mut self.places[place];
                for clause in &mut p.clauses {
                    *clause &= p.possible;
                }
                if p.clauses.iter().any(|c| c.is_empty()) || p.known.len() > p.size || p.possible.len() < p.size {
                    self.contradiction = true;
                    return;
                }
                let singles: Vec<Card> = p.clauses.iter().filter_map(|c| c.single_card()).collect();
                for c in singles {
                    self.hold(place, c);
                }
                // Clauses already met by a sure card say nothing more (and
                // must not count as disjoint clauses below).
                let p = &mut self.places[place];
                let known = p.known;
                p.clauses.retain(|c| c.len() > 1 && (*c & known).is_empty());
                if p.known.len() == p.size {
                    p.possible = p.known;
                    p.clauses.clear();
                } else if p.possible.len() == p.size {
                    let all = p.possible;
                    for c in all - p.known {
                        self.hold(place, c);
                    }
                } else {
                    let left = p.size - p.known.len();
                    if let Some(union) = disjoint_cover(&p.clauses, left) {
                        p.possible = p.known | union;
                    }
                }
            }
            for cat in self.categories.clone() {
                let case = &mut self.places[n];
                if !(case.known & cat).is_empty() {
                    case.possible = case.possible - (cat - case.known);
                }
                let open = case.possible & cat;
                if open.is_empty() {
                    self.contradiction = true;
                    return;
                }
                if let Some(c) = open.single_card() {
                    self.hold(n, c);
                }
            }
            let all = self.categories.iter().fold(CardSet::EMPTY, |a, &c| a | c);
            for card in all {
                let mut holders = (0..=n).filter(|&q| self.places[q].possible.contains(card));
                match (holders.next(), holders.next()) {
                    (Some(q), None) if !self.places[q].known.contains(card) => self.hold(q, card),
                    (None, _) => {
                        self.contradiction = true;
                        return;
                    }
                    _ => {}
                }
            }
            if self.contradiction {
                return;
            }
            let after: Vec<(CardSet, CardSet)> = self.places.iter().map(|p| (p.possible, p.known)).collect();
            if after == before {
                return;
            }
        }
    }

    /// Whether the notes are true of a deal: `places[c]` is where card `c`
    /// lies (`None`: out of play).
    pub fn holds_in(&self, places: &[Option<sleuth_core::Place>]) -> bool {
        let n = self.players();
        places.iter().enumerate().all(|(c, place)| {
            let card = Card::new(c);
            let Some(place) = place else { return true };
            let at = place.index(n);
            self.places[at].possible.contains(card)
                && self.places.iter().enumerate().all(|(q, p)| q == at || !p.known.contains(card))
        })
    }

    /// Whether the notes contradict themselves (an impossible outcome).
    pub fn is_contradictory(&self) -> bool {
        self.contradiction
    }

    /// The case-file combinations left: the product of the candidates of
    /// each category.
    pub fn solutions(&self) -> usize {
        let case = &self.places[self.players()];
        self.categories.iter().map(|&c| (case.possible & c).len()).product()
    }

    /// The case file's candidate cards.
    pub fn case_file_candidates(&self) -> CardSet {
        self.places[self.players()].possible
    }

    /// The case file, when one combination is left.
    pub fn certain(&self) -> Option<CardSet> {
        (!self.contradiction && self.solutions() == 1).then(|| self.case_file_candidates())
    }

    /// The cards `player` may hold.
    pub fn possible(&self, player: usize) -> CardSet {
        self.places[player].possible
    }

    /// The cards `player` surely holds.
    pub fn known(&self, player: usize) -> CardSet {
        self.places[player].known
    }

    /// The clauses of every place, by size.
    pub fn clause_sizes(&self) -> impl Iterator<Item = usize> + '_ {
        self.places.iter().flat_map(|p| p.clauses.iter().map(|c| c.len()))
    }

    /// Possible (place, card) pairs over the players other than `me`.
    pub fn open_pairs(&self, me: usize) -> usize {
        (0..self.players()).filter(|&q| q != me).map(|q| self.places[q].possible.len()).sum()
    }

    /// Every outcome a suggestion of `cards` by `me` may have, given these
    /// notes, each as the notebook after it (impossible ones left out):
    /// a later player shows one of the cards it may hold (the players
    /// before it passing), or nobody can.
    pub fn outcomes(&self, me: usize, cards: CardSet) -> Vec<Clauses> {
        let n = self.players();
        let mut out = Vec::new();
        let mut q = (me + 1) % n;
        while q != me {
            for c in cards & self.places[q].possible {
                let mut k = self.clone();
                k.record(me, cards, Some(q), Some(c));
                k.close();
                if !k.contradiction {
                    out.push(k);
                }
            }
            if !(cards & self.places[q].known).is_empty() {
                return out;
            }
            q = (q + 1) % n;
        }
        let mut k = self.clone();
        k.record(me, cards, None, None);
        k.close();
        if !k.contradiction {
            out.push(k);
        }
        out
    }
}

/// The union of `k` pairwise disjoint clauses, if there are such (a small
/// search: a few clauses per place).
fn disjoint_cover(clauses: &[CardSet], k: usize) -> Option<CardSet> {
    fn go(clauses: &[CardSet], k: usize, union: CardSet) -> Option<CardSet> {
        if k == 0 {
            return Some(union);
        }
        for (i, &c) in clauses.iter().enumerate() {
            if (c & union).is_empty() {
                if let Some(u) = go(&clauses[i + 1..], k - 1, union | c) {
                    return Some(u);
                }
            }
        }
        None
    }
    if k == 0 || clauses.len() < k || clauses.len() > 16 {
        return None;
    }
    go(clauses, k, CardSet::EMPTY)
}

/// The classic combinations (one card per category) in a fixed order.
pub fn combinations(deck: &Deck) -> Vec<CardSet> {
    let cats: Vec<CardSet> = deck.categories().map(|c| deck.category_cards(c)).collect();
    let mut all = vec![CardSet::EMPTY];
    for cat in cats {
        all = all.into_iter().flat_map(|s| cat.iter().map(move |c| s | CardSet::single(c))).collect();
    }
    all
}
