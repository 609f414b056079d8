//! Players and places.

/// The most players a game may have (Clue Master Detective seats ten).
pub const MAX_PLAYERS: usize = 10;

/// The most places: every player and the case file.
pub const MAX_PLACES: usize = MAX_PLAYERS + 1;

/// A player, as an index into the seat order of its game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Player(pub(crate) u8);

impl Player {
    /// The player in seat `index`.
    ///
    /// # Panics
    /// If `index >= MAX_PLAYERS`.
    pub fn new(index: usize) -> Player {
        assert!(index < MAX_PLAYERS, "player index {index} out of range");
        Player(index as u8)
    }

    /// The seat index of this player.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a card can be: in a player's hand or in the case file.
///
/// Face-up cards are in no place; they are known to everyone and excluded.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// A player's hand.
    Player(Player),
    /// The envelope with one card of each category.
    CaseFile,
}

impl Place {
    /// Dense index: players `0..n`, then the case file at `n`.
    pub fn index(self, num_players: usize) -> usize {
        match self {
            Place::Player(p) => p.index(),
            Place::CaseFile => num_players,
        }
    }

    /// The place with dense index `index` in a game of `num_players`.
    pub fn from_index(index: usize, num_players: usize) -> Place {
        if index == num_players {
            Place::CaseFile
        } else {
            Place::Player(Player::new(index))
        }
    }
}
