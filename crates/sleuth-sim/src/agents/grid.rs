//! The X/O grid of the Cluedo strategies seed ("X's and O's"): one row per
//! place (each player, then the case file), one column per card; `O` where a
//! card is known to be, `X` where it is known not to be.
//!
//! The grid only ever holds facts that follow from what was marked; its rules
//! ([`Grid::close`]) are the simple ones a player applies with a pencil:
//!
//! 1. **One place per card**: an `O` crosses out the card everywhere else.
//! 2. **Full hand**: a player with as many `O`s as cards gets `X` on every
//!    other card.
//! 3. **Forced hand**: a player whose cards not crossed out number exactly
//!    their hand size holds all of them (the seed's "the number of unknowns =
//!    the number of cards he holds").
//! 4. **Case file**: it holds one card per category, so rules 2 and 3 apply to
//!    it category by category.
//! 5. **Somewhere**: a card crossed out in every place but one is there. The
//!    seed does not spell this out, but its worked example relies on it (the
//!    hidden cards are whatever nobody can hold), and every paper notepad
//!    user applies it.
//!
//! The rules are sound: marks that are true of the deal give only true marks.
//! Contradictory marks (impossible in a real game) are remembered, not
//! repaired ([`Grid::is_contradictory`]).

use sleuth_core::{Card, CardSet, Game, Place, Player, Status};

/// The X/O grid of one player's notepad.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    num_players: usize,
    hand_sizes: Vec<usize>,
    /// The cards of each category.
    categories: Vec<CardSet>,
    /// Every card that is not face up.
    in_play: CardSet,
    /// `yes[place index]`: the `O`s of that row.
    yes: Vec<CardSet>,
    /// `no[place index]`: the `X`s of that row.
    no: Vec<CardSet>,
    contradiction: bool,
}

impl Grid {
    /// An empty grid for `game`'s deck, players and hand sizes, with the
    /// face-up cards crossed out everywhere (they are in no place).
    pub fn new(game: &Game) -> Grid {
        let deck = game.deck();
        let num_players = game.num_players();
        let face_up = game.face_up();
        Grid {
            num_players,
            hand_sizes: game.players().map(|p| game.hand_size(p)).collect(),
            categories: deck.categories().map(|cat| deck.category_cards(cat)).collect(),
            in_play: deck.all() - face_up,
            yes: vec![CardSet::EMPTY; num_players + 1],
            no: vec![face_up; num_players + 1],
            contradiction: false,
        }
    }

    /// The number of players.
    pub fn num_players(&self) -> usize {
        self.num_players
    }

    /// Every card not face up.
    pub fn in_play(&self) -> CardSet {
        self.in_play
    }

    /// The number of cards in `player`'s hand.
    pub fn hand_size(&self, player: Player) -> usize {
        self.hand_sizes[player.index()]
    }

    /// Marks `O`: `card` is at `place`. Returns whether the mark is new.
    pub fn mark_yes(&mut self, card: Card, place: Place) -> bool {
        let i = place.index(self.num_players);
        self.contradiction |= self.no[i].contains(card);
        self.yes[i].insert(card)
    }

    /// Marks `X`: `card` is not at `place`. Returns whether the mark is new.
    pub fn mark_no(&mut self, card: Card, place: Place) -> bool {
        let i = place.index(self.num_players);
        self.contradiction |= self.yes[i].contains(card);
        self.no[i].insert(card)
    }

    /// The mark of a cell: `Yes` (`O`), `No` (`X`) or `Maybe` (blank).
    pub fn status(&self, card: Card, place: Place) -> Status {
        let i = place.index(self.num_players);
        if self.yes[i].contains(card) {
            Status::Yes
        } else if self.no[i].contains(card) {
            Status::No
        } else {
            Status::Maybe
        }
    }

    /// The `O`s of `place`'s row.
    pub fn yes(&self, place: Place) -> CardSet {
        self.yes[place.index(self.num_players)]
    }

    /// The `X`s of `place`'s row.
    pub fn no(&self, place: Place) -> CardSet {
        self.no[place.index(self.num_players)]
    }

    /// The blank cells of `place`'s row (cards in play neither `O` nor `X`).
    pub fn open(&self, place: Place) -> CardSet {
        self.in_play - self.yes(place) - self.no(place)
    }

    /// Where `card` is known to be, if the grid has an `O` for it.
    pub fn holder(&self, card: Card) -> Option<Place> {
        (0..=self.num_players).find(|&i| self.yes[i].contains(card)).map(|i| Place::from_index(i, self.num_players))
    }

    /// The cards whose place the grid knows.
    pub fn located(&self) -> CardSet {
        self.yes.iter().fold(CardSet::EMPTY, |acc, &s| acc | s)
    }

    /// The cards that may still be in the case file (not crossed out there).
    pub fn case_file_candidates(&self) -> CardSet {
        self.in_play - self.no(Place::CaseFile)
    }

    /// The case file, when the grid leaves exactly one candidate in every
    /// category.
    pub fn certain_case_file(&self) -> Option<CardSet> {
        if self.contradiction {
            return None;
        }
        let candidates = self.case_file_candidates();
        let mut out = CardSet::EMPTY;
        for &cat in &self.categories {
            out.insert((candidates & cat).single_card()?);
        }
        Some(out)
    }

    /// Whether some marks contradict each other or the rules (never in a
    /// real game with true marks).
    pub fn is_contradictory(&self) -> bool {
        self.contradiction
    }

    /// Applies the grid rules (see the module docs) until nothing changes.
    pub fn close(&mut self) {
        let n = self.num_players;
        let case = n;
        loop {
            let before = (self.yes.clone(), self.no.clone());
            // 1. One place per card.
            for i in 0..=n {
                let elsewhere = (0..=n).filter(|&j| j != i).fold(CardSet::EMPTY, |acc, j| acc | self.yes[j]);
                self.no[i] |= elsewhere;
            }
            // 2 and 3 for the players.
            for p in 0..n {
                let h = self.hand_sizes[p];
                if self.yes[p].len() == h {
                    self.no[p] |= self.in_play - self.yes[p];
                }
                let possible = self.in_play - self.no[p];
                if possible.len() == h {
                    self.yes[p] |= possible;
                }
                self.contradiction |= self.yes[p].len() > h || possible.len() < h;
            }
            // 4. The case file, category by category.
            for &cat in &self.categories {
                let cards = cat & self.in_play;
                let known = self.yes[case] & cards;
                if known.len() == 1 {
                    self.no[case] |= cards - known;
                }
                let possible = cards - self.no[case];
                if possible.len() == 1 {
                    self.yes[case] |= possible;
                }
                self.contradiction |= known.len() > 1 || possible.is_empty();
            }
            // 5. Somewhere.
            for card in self.in_play {
                let mut possible = (0..=n).filter(|&i| !self.no[i].contains(card));
                match (possible.next(), possible.next()) {
                    (Some(i), None) => {
                        self.yes[i].insert(card);
                    }
                    (None, _) => self.contradiction = true,
                    _ => {}
                }
            }
            for i in 0..=n {
                self.contradiction |= !(self.yes[i] & self.no[i]).is_empty();
            }
            if (&self.yes, &self.no) == (&before.0, &before.1) || self.contradiction {
                return;
            }
        }
    }

    /// Whether every mark is true of a deal, given as each card's place
    /// (`None` for face-up cards). For tests and assertions.
    pub fn holds_in(&self, places: &[Option<Place>]) -> bool {
        (0..=self.num_players).all(|i| {
            let place = Place::from_index(i, self.num_players);
            self.yes[i].iter().all(|c| places[c.index()] == Some(place))
                && self.no[i].iter().all(|c| places[c.index()] != Some(place))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sleuth_core::Game;

    /// A classic three-player game (hands of 6) seen by `a`.
    fn game() -> Game {
        Game::from_json(
            r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
                "hand": ["mu", "pl", "gr", "kn", "ca", "ha"], "events": []}"#,
        )
        .unwrap()
    }

    #[test]
    fn an_o_crosses_the_card_out_everywhere_else_and_a_full_hand_crosses_out_the_rest() {
        let g = game();
        let deck = g.deck();
        let mut grid = Grid::new(&g);
        let a = Place::Player(Player::new(0));
        for c in g.observer().unwrap().1 {
            grid.mark_yes(c, a);
        }
        grid.close();
        let mu = deck.card("mu").unwrap();
        let sc = deck.card("sc").unwrap();
        assert_eq!(grid.status(mu, a), Status::Yes);
        assert_eq!(grid.status(mu, Place::Player(Player::new(1))), Status::No);
        assert_eq!(grid.status(mu, Place::CaseFile), Status::No);
        assert_eq!(grid.status(sc, a), Status::No, "a's hand is full");
        assert_eq!(grid.status(sc, Place::CaseFile), Status::Maybe);
        assert!(!grid.is_contradictory());
    }

    #[test]
    fn forced_hands_and_the_last_case_file_candidate_are_filled_in() {
        let g = game();
        let deck = g.deck();
        let mut grid = Grid::new(&g);
        let (a, b, c) = (Place::Player(Player::new(0)), Place::Player(Player::new(1)), Place::Player(Player::new(2)));
        for card in g.observer().unwrap().1 {
            grid.mark_yes(card, a);
        }
        // b can hold only six cards: all the other ones are crossed out.
        let b_cards: CardSet = ["pe", "sc", "wh", "re", "ro", "pi"].iter().map(|id| deck.card(id).unwrap()).collect();
        for card in deck.all() - b_cards {
            grid.mark_no(card, b);
        }
        grid.close();
        assert_eq!(grid.yes(b), b_cards);
        // Suspects: a holds mu, pl, gr; b holds pe, sc, wh: nothing is left for c
        // or the case file... which is a contradiction (six suspects, six held).
        assert!(grid.is_contradictory());

        let mut grid = Grid::new(&g);
        for card in g.observer().unwrap().1 {
            grid.mark_yes(card, a);
        }
        let (wh, sc) = (deck.card("wh").unwrap(), deck.card("sc").unwrap());
        grid.mark_yes(deck.card("pe").unwrap(), c);
        grid.close();
        // Suspects: mu pl gr (a), pe (c): sc and wh may be with b, with c or in the case file.
        assert_eq!(grid.status(wh, Place::CaseFile), Status::Maybe);
        grid.mark_no(wh, b);
        grid.mark_no(wh, c);
        grid.close();
        assert_eq!(grid.status(wh, Place::CaseFile), Status::Yes, "nobody else can hold it");
        assert_eq!(grid.status(sc, Place::CaseFile), Status::No, "one suspect in the case file");
        let suspects = deck.category_cards(deck.category(wh));
        assert_eq!(grid.case_file_candidates() & suspects, CardSet::single(wh));
        assert!(!grid.is_contradictory());
    }
}
