//! The [`Agent`] trait and the [`View`] an agent plays from.

use sleuth_core::format::GameFile;
use sleuth_core::{CardSet, Deck, Event, Game, Player};

/// The random number generator handed to agents (and used for the deal).
///
/// A concrete type keeps [`Agent`] object-safe and every game reproducible.
pub type SimRng = rand_chacha::ChaCha8Rng;

/// One player's perspective of the game so far: its own game file, and that
/// file validated as a [`Game`] (observer = this player).
///
/// A view holds nothing the player should not know: its hand, the face-up
/// cards, the public events, and the cards shown in suggestions it made or
/// refuted. Build one with [`View::new`], or get it from a
/// [`Perspective`](crate::Perspective).
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    file: &'a GameFile,
    game: &'a Game,
    me: Player,
    hand: CardSet,
}

impl<'a> View<'a> {
    /// A view of a player's game file and the game validated from it.
    /// `None` if the game has no observer (a bystander's file).
    ///
    /// `game` must be `Game::new(file)`; this is not checked (it would cost a
    /// full validation), and a mismatch is a logic error of the caller.
    pub fn new(file: &'a GameFile, game: &'a Game) -> Option<View<'a>> {
        let (me, hand) = game.observer()?;
        debug_assert_eq!(file.events.len(), game.events().len(), "view file and game disagree");
        Some(View { file, game, me, hand })
    }

    /// The game file of this perspective, exactly as it would be written out.
    pub fn file(&self) -> &'a GameFile {
        self.file
    }

    /// The validated game of this perspective.
    pub fn game(&self) -> &'a Game {
        self.game
    }

    /// The deck.
    pub fn deck(&self) -> &'a Deck {
        self.game.deck()
    }

    /// The player whose view this is.
    pub fn me(&self) -> Player {
        self.me
    }

    /// This player's cards.
    pub fn hand(&self) -> CardSet {
        self.hand
    }

    /// The events so far, in order.
    pub fn events(&self) -> &'a [Event] {
        self.game.events()
    }

    /// Whether `player` has made a wrong accusation (and so takes no more
    /// turns, though it still refutes).
    pub fn is_out(&self, player: Player) -> bool {
        self.game.is_out(player)
    }

    /// The players still in the game, in seat order.
    pub fn active_players(&self) -> impl Iterator<Item = Player> + '_ {
        self.game.players().filter(move |&p| !self.is_out(p))
    }
}

/// A strategy for one seat.
///
/// The simulator calls an agent only with its own [`View`], and gives it its
/// own random stream. Agents may keep state between calls (and across games:
/// [`Agent::new_game`] is called at the start of each one), but everything
/// they may legitimately know is in the view, which grows by whole events.
///
/// Moves are [`CardSet`]s of the view's deck holding exactly one card per
/// category; anything else is an illegal move and ends the simulation with
/// [`SimError::IllegalMove`](crate::SimError::IllegalMove).
pub trait Agent: Send {
    /// A short name for reports and tournaments, e.g. `"exact"`.
    fn name(&self) -> &str;

    /// A new game starts: `view` has the hand and no events yet.
    fn new_game(&mut self, view: &View<'_>, rng: &mut SimRng) {
        let _ = (view, rng);
    }

    /// Whether to accuse, and of which cards (one per category). Asked at the
    /// start of each of this player's turns and, by default, again after its
    /// own suggestion has been answered.
    fn accuse(&mut self, view: &View<'_>, rng: &mut SimRng) -> Option<CardSet>;

    /// The suggestion to make this turn: one card per category. Any
    /// combination is allowed (there is no board; see the crate docs).
    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet;

    /// Which card to show `suggester`, who suggested `suggestion`, when this
    /// player is the first clockwise to hold any of it. `candidates` (the
    /// suggested cards in this hand) has at least two cards: with one, it is
    /// shown without asking. Must return a member of `candidates`.
    ///
    /// `view` does not yet include this suggestion.
    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        suggester: Player,
        suggestion: CardSet,
        candidates: CardSet,
        rng: &mut SimRng,
    ) -> sleuth_core::Card;
}

impl<A: Agent + ?Sized> Agent for Box<A> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn new_game(&mut self, view: &View<'_>, rng: &mut SimRng) {
        (**self).new_game(view, rng);
    }
    fn accuse(&mut self, view: &View<'_>, rng: &mut SimRng) -> Option<CardSet> {
        (**self).accuse(view, rng)
    }
    fn suggest(&mut self, view: &View<'_>, rng: &mut SimRng) -> CardSet {
        (**self).suggest(view, rng)
    }
    fn choose_card_to_show(
        &mut self,
        view: &View<'_>,
        suggester: Player,
        suggestion: CardSet,
        candidates: CardSet,
        rng: &mut SimRng,
    ) -> sleuth_core::Card {
        (**self).choose_card_to_show(view, suggester, suggestion, candidates, rng)
    }
}
