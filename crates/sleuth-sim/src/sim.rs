//! The game loop.

use crate::agent::{Agent, SimRng};
use crate::deal::Deal;
use crate::error::{MoveKind, SimError};
use crate::perspective::{event_spec, Perspective};
use crate::record::{End, GameRecord};
use rand::SeedableRng;
use sleuth_core::format::{DeckSpec, GameFile};
use sleuth_core::model::{Accusation, Suggestion};
use sleuth_core::{CardSet, Deck, Event, Player};

/// What kind of game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// The deck.
    pub deck: Deck,
    /// Player ids in seat order (2 to 10 of them).
    pub players: Vec<String>,
    /// How many cards to lay face up before dealing (0 by default).
    pub face_up: usize,
    /// The game ends without a winner after this many rounds (200 by default).
    pub max_rounds: usize,
    /// Whether an agent may also accuse after its own suggestion has been
    /// answered, in the same turn (true by default, as in the printed rules).
    /// It is always asked before suggesting.
    pub accuse_after_suggestion: bool,
}

impl GameConfig {
    /// A game with `players` seats named `p1`, `p2`, ..., no face-up cards,
    /// a 200-round limit and accusations allowed after suggesting.
    pub fn new(deck: Deck, players: usize) -> GameConfig {
        GameConfig {
            deck,
            players: (1..=players).map(|i| format!("p{i}")).collect(),
            face_up: 0,
            max_rounds: 200,
            accuse_after_suggestion: true,
        }
    }

    /// The same configuration with the cards that do not divide evenly laid
    /// face up, so that every hand has the same size.
    pub fn with_even_hands(mut self) -> GameConfig {
        let n = self.players.len().max(1);
        self.face_up = (self.deck.len() - self.deck.num_categories()) % n;
        self
    }
}

/// The random stream of the deal for a game seed (ChaCha8, stream 0).
pub fn deal_rng(seed: u64) -> SimRng {
    SimRng::seed_from_u64(seed)
}

/// The random stream of the agent in `seat` for a game seed (ChaCha8 stream
/// `seat + 1`), independent of the deal's and of every other seat's.
pub fn agent_rng(seed: u64, seat: usize) -> SimRng {
    let mut rng = SimRng::seed_from_u64(seed);
    rng.set_stream(seat as u64 + 1);
    rng
}

/// Plays one game with a random deal drawn from `seed`.
///
/// `agents[i]` plays seat `i`; agents are told of the new game through
/// [`Agent::new_game`] and may be reused for further games.
///
/// # Errors
/// [`SimError::Setup`] for a bad configuration (including a number of agents
/// different from the number of players), [`SimError::IllegalMove`] when an
/// agent breaks the rules.
pub fn play(config: &GameConfig, agents: &mut [Box<dyn Agent>], seed: u64) -> Result<GameRecord, SimError> {
    let deal = Deal::random(&config.deck, config.players.len(), config.face_up, &mut deal_rng(seed))?;
    play_deal(config, deal, agents, seed)
}

/// Plays one game from a given deal; `seed` seeds only the agents' streams.
/// `config.face_up` is ignored: the deal says which cards are face up.
///
/// # Errors
/// As [`play`], and [`SimError::Setup`] when the deal does not fit the deck
/// and players.
pub fn play_deal(
    config: &GameConfig,
    deal: Deal,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
) -> Result<GameRecord, SimError> {
    let deck = &config.deck;
    let n = config.players.len();
    if agents.len() != n {
        return Err(SimError::Setup(format!("{} agents for {n} players", agents.len())));
    }
    if deal.num_players() != n {
        return Err(SimError::Setup(format!("the deal has {} hands for {n} players", deal.num_players())));
    }
    let deal = Deal::new(deck, deal.case_file, deal.face_up, deal.hands)?;
    let mut sim = Sim::new(config, deal, agents, seed)?;
    sim.run()?;
    Ok(GameRecord {
        seed,
        deck: deck.clone(),
        players: config.players.clone(),
        agents: sim.agents.iter().map(|a| a.name().to_string()).collect(),
        deal: sim.deal,
        events: sim.events,
        winner: sim.winner,
        end: sim.end,
        turns: sim.turns,
        rounds: sim.rounds,
    })
}

/// A game in progress.
struct Sim<'a> {
    config: &'a GameConfig,
    deal: Deal,
    agents: &'a mut [Box<dyn Agent>],
    rngs: Vec<SimRng>,
    views: Vec<Perspective>,
    events: Vec<Event>,
    out: Vec<bool>,
    winner: Option<Player>,
    end: End,
    turns: usize,
    rounds: usize,
}

/// What happens after a move.
#[derive(PartialEq, Eq)]
enum Flow {
    /// The turn goes on.
    Continue,
    /// The turn is over (the player is now out).
    EndTurn,
    /// The game is over.
    GameOver,
}

impl<'a> Sim<'a> {
    fn new(
        config: &'a GameConfig,
        deal: Deal,
        agents: &'a mut [Box<dyn Agent>],
        seed: u64,
    ) -> Result<Sim<'a>, SimError> {
        let deck = &config.deck;
        let n = config.players.len();
        let mut views = Vec::with_capacity(n);
        for (seat, hand) in deal.hands.iter().enumerate() {
            let file = GameFile {
                version: 1,
                deck: DeckSpec::from_deck(deck),
                players: config.players.clone(),
                hand_sizes: None,
                face_up: deck.ids(deal.face_up),
                me: Some(config.players[seat].clone()),
                hand: Some(deck.ids(*hand)),
                events: Vec::new(),
            };
            // Validates the player ids too.
            views.push(Perspective::new(file)?);
        }
        let rngs = (0..n).map(|seat| agent_rng(seed, seat)).collect();
        Ok(Sim {
            config,
            deal,
            agents,
            rngs,
            views,
            events: Vec::new(),
            out: vec![false; n],
            winner: None,
            end: End::TurnLimit,
            turns: 0,
            rounds: 0,
        })
    }

    fn run(&mut self) -> Result<(), SimError> {
        for seat in 0..self.agents.len() {
            let view = self.views[seat].view()?.expect("player views have an observer");
            self.agents[seat].new_game(&view, &mut self.rngs[seat]);
        }
        let n = self.agents.len();
        for round in 0..self.config.max_rounds {
            self.rounds = round + 1;
            for seat in 0..n {
                if self.out[seat] {
                    continue;
                }
                self.turns += 1;
                if self.turn(seat)? == Flow::GameOver {
                    return Ok(());
                }
            }
        }
        self.end = End::TurnLimit;
        Ok(())
    }

    fn turn(&mut self, seat: usize) -> Result<Flow, SimError> {
        match self.ask_accusation(seat)? {
            Flow::Continue => {}
            flow => return Ok(flow),
        }
        let cards = {
            let view = self.views[seat].view()?.expect("player views have an observer");
            self.agents[seat].suggest(&view, &mut self.rngs[seat])
        };
        self.check_combination(seat, MoveKind::Suggestion, cards)?;
        let by = Player::new(seat);
        let n = self.agents.len();
        let mut refutation = None;
        for step in 1..n {
            let q = (seat + step) % n;
            let candidates = self.deal.hands[q] & cards;
            if candidates.is_empty() {
                continue;
            }
            let shown = match candidates.single_card() {
                Some(c) => c,
                None => {
                    let view = self.views[q].view()?.expect("player views have an observer");
                    let c = self.agents[q].choose_card_to_show(&view, by, cards, candidates, &mut self.rngs[q]);
                    if !candidates.contains(c) {
                        return Err(self.illegal(
                            q,
                            MoveKind::Refutation,
                            format!(
                                "showed {} instead of one of {:?}",
                                self.config.deck.ids(CardSet::single(c) & self.config.deck.all()).join(""),
                                self.config.deck.ids(candidates)
                            ),
                        ));
                    }
                    c
                }
            };
            refutation = Some((Player::new(q), shown));
            break;
        }
        self.record(Event::Suggestion(Suggestion {
            by,
            cards,
            refuted_by: refutation.map(|r| r.0),
            shown: refutation.map(|r| r.1),
        }));
        if self.config.accuse_after_suggestion {
            return self.ask_accusation(seat);
        }
        Ok(Flow::Continue)
    }

    /// Asks `seat` whether to accuse, and resolves the accusation.
    fn ask_accusation(&mut self, seat: usize) -> Result<Flow, SimError> {
        let accusation = {
            let view = self.views[seat].view()?.expect("player views have an observer");
            self.agents[seat].accuse(&view, &mut self.rngs[seat])
        };
        let Some(cards) = accusation else { return Ok(Flow::Continue) };
        self.check_combination(seat, MoveKind::Accusation, cards)?;
        let correct = cards == self.deal.case_file;
        self.record(Event::Accusation(Accusation { by: Player::new(seat), cards, correct }));
        if correct {
            self.winner = Some(Player::new(seat));
            self.end = End::Solved;
            return Ok(Flow::GameOver);
        }
        self.out[seat] = true;
        let mut left = (0..self.out.len()).filter(|&p| !self.out[p]);
        if let (Some(last), None) = (left.next(), left.next()) {
            self.winner = Some(Player::new(last));
            self.end = End::LastStanding;
            return Ok(Flow::GameOver);
        }
        Ok(Flow::EndTurn)
    }

    /// Appends an event to the record and to every player's file.
    fn record(&mut self, event: Event) {
        for (seat, view) in self.views.iter_mut().enumerate() {
            view.push(event_spec(&self.config.players, &self.config.deck, &event, Some(Player::new(seat))));
        }
        self.events.push(event);
    }

    fn check_combination(&self, seat: usize, kind: MoveKind, cards: CardSet) -> Result<(), SimError> {
        let deck = &self.config.deck;
        if !cards.is_subset(deck.all()) {
            return Err(self.illegal(seat, kind, "cards outside the deck".into()));
        }
        for cat in deck.categories() {
            let k = (cards & deck.category_cards(cat)).len();
            if k != 1 {
                let detail = format!(
                    "{k} cards of category {} in {:?}; name exactly one per category",
                    deck.category_name(cat),
                    deck.ids(cards & deck.all())
                );
                return Err(self.illegal(seat, kind, detail));
            }
        }
        Ok(())
    }

    fn illegal(&self, seat: usize, kind: MoveKind, detail: String) -> SimError {
        SimError::IllegalMove { seat, agent: self.agents[seat].name().to_string(), kind, detail }
    }
}
