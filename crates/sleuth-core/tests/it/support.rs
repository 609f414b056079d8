//! Helpers shared by the integration tests.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sleuth_core::brute::BruteCounts;
use sleuth_core::format::{AccusationSpec, EventSpec, SuggestionSpec};
use sleuth_core::generate::{generate, DeckChoice, GenConfig, Generated};
use sleuth_core::model::MAX_PLACES;
use sleuth_core::{Analysis, Card, Event, Game, Place, Player};
use std::collections::BTreeMap;

/// A seeded RNG for test case `i` of a named test.
pub fn rng(test: &str, i: u64) -> ChaCha8Rng {
    let mut seed = 0xcafe_f00d_u64 ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for b in test.bytes() {
        seed = seed.rotate_left(5) ^ u64::from(b);
    }
    ChaCha8Rng::seed_from_u64(seed)
}

/// A random small game: 2 or 3 categories of 2-4 cards, 2-4 players,
/// face-up cards, accusations, observers and bystanders, sometimes corrupted.
pub fn small_game(test: &str, i: u64) -> Generated {
    small_game_of(test, i, 2..=3, 2..=4, 4)
}

/// A random small game of 4 or 5 categories of 2 or 3 cards, as
/// [`small_game`] otherwise (the case files take other sweeps there).
pub fn small_game_many_categories(test: &str, i: u64) -> Generated {
    small_game_of(test, i, 4..=5, 2..=3, 4)
}

/// A random small game of 9 or 10 categories of 2 cards and 2 or 3
/// players (more than eight categories: a wider record of the categories
/// placed), as [`small_game`] otherwise.
pub fn small_game_most_categories(test: &str, i: u64) -> Generated {
    small_game_of(test, i, 9..=10, 2..=2, 3)
}

fn small_game_of(
    test: &str,
    i: u64,
    categories: std::ops::RangeInclusive<usize>,
    cards: std::ops::RangeInclusive<usize>,
    most_players: usize,
) -> Generated {
    let mut r = rng(test, i);
    let cats = r.gen_range(categories);
    let sizes: Vec<usize> = (0..cats).map(|_| r.gen_range(cards.clone())).collect();
    let total: usize = sizes.iter().sum();
    let players = r.gen_range(2..=most_players.min(total - cats));
    let spare = total - cats - players; // keep at least one card per player
    let cfg = GenConfig {
        deck: DeckChoice::Custom(sizes),
        players,
        observer: r.gen_bool(0.6),
        suggestions: r.gen_range(0..=8),
        face_up: if r.gen_bool(0.3) { r.gen_range(0..=spare.min(2)) } else { 0 },
        accusation_rate: 0.15,
        explicit_hand_sizes: r.gen_bool(0.3),
        corrupt: r.gen_bool(0.2),
    };
    generate(&cfg, &mut r)
}

/// A random classic (or, with `master`, Clue Master Detective) game:
/// 3-6 players (3-10 for master), observer or bystander, `0..=max_sugg`
/// suggestions, some accusations and face-up cards, corrupted with
/// probability `corrupt`.
pub fn big_game(test: &str, i: u64, master: bool, max_sugg: usize, corrupt: f64) -> Generated {
    let mut r = rng(test, i);
    let players = if master { r.gen_range(3..=10) } else { r.gen_range(3..=6) };
    let dealt = if master { 27 } else { 18 };
    let face_up = if r.gen_bool(0.25) { dealt % players } else { 0 };
    let cfg = GenConfig {
        deck: if master { DeckChoice::Master } else { DeckChoice::Classic },
        players,
        observer: r.gen_bool(0.5),
        suggestions: r.gen_range(0..=max_sugg),
        face_up,
        accusation_rate: 0.08,
        explicit_hand_sizes: r.gen_bool(0.2),
        corrupt: r.gen_bool(corrupt),
    };
    generate(&cfg, &mut r)
}

/// A classic game of 3-6 players after 13 to `max_events` suggestions
/// with one event corrupted (usually inconsistent): conflicts among more
/// events than brute force over every subset can check.
pub fn big_game_corrupted(test: &str, i: u64, max_events: usize) -> Generated {
    let mut r = rng(test, i);
    let cfg = GenConfig {
        corrupt: true,
        accusation_rate: 0.05,
        ..GenConfig::new(DeckChoice::Classic, r.gen_range(3..=6), r.gen_bool(0.5), r.gen_range(13..=max_events))
    };
    generate(&cfg, &mut r)
}

/// A Clue Master Detective game cheap enough to analyse many times: 3-10
/// players, uncorrupted, and from an observer's view when 8 or more play
/// (a bystander's view of a big table can take the engine seconds, mostly
/// in the case-file list).
pub fn master_game(test: &str, i: u64, max_sugg: usize) -> Generated {
    let mut r = rng(test, i);
    let players = r.gen_range(3..=10);
    let cfg = GenConfig {
        deck: DeckChoice::Master,
        players,
        observer: players >= 8 || r.gen_bool(0.5),
        suggestions: r.gen_range(0..=max_sugg),
        face_up: if r.gen_bool(0.25) { 27 % players } else { 0 },
        accusation_rate: 0.08,
        explicit_hand_sizes: r.gen_bool(0.2),
        corrupt: false,
    };
    generate(&cfg, &mut r)
}

/// The validated game of a generated file.
pub fn game_of(generated: &Generated) -> Game {
    Game::new(&generated.file)
        .unwrap_or_else(|e| panic!("generated games are valid: {e}\n{}", generated.file.to_json()))
}

/// The analysis of a game; panics with the game text on error.
pub fn analyse(game: &Game) -> Analysis {
    Analysis::new(game).unwrap_or_else(|e| panic!("analysis failed: {e}\n{}", game.to_file().to_json()))
}

/// A random event that is valid for the game (it may contradict the others).
pub fn random_event<R: Rng>(game: &Game, r: &mut R) -> EventSpec {
    let deck = game.deck();
    let n = game.num_players();
    let pick = |r: &mut R| -> Vec<String> {
        deck.categories()
            .map(|cat| {
                let cards: Vec<Card> = deck.category_cards(cat).iter().collect();
                deck.id(cards[r.gen_range(0..cards.len())]).to_string()
            })
            .collect()
    };
    let by = r.gen_range(0..n);
    let cards = pick(r);
    if r.gen_bool(0.2) {
        return EventSpec::Accusation(AccusationSpec {
            by: game.player_id(Player::new(by)).to_string(),
            cards,
            correct: r.gen_bool(0.2),
        });
    }
    let refuter = if r.gen_bool(0.2) { None } else { Some((by + r.gen_range(1..n)) % n) };
    let me = game.observer().map(|(p, _)| p.index());
    let shown = match (refuter, me) {
        (Some(q), Some(m)) if (m == by || m == q) && r.gen_bool(0.7) => {
            Some(cards[r.gen_range(0..cards.len())].clone())
        }
        _ => None,
    };
    EventSpec::Suggestion(SuggestionSpec {
        by: game.player_id(Player::new(by)).to_string(),
        cards,
        refuted_by: refuter.map(|q| game.player_id(Player::new(q)).to_string()),
        shown,
    })
}

/// Whether a complete deal (`place[card]`, `None` for face-up cards) obeys
/// one event, by the rules of the game (written independently of
/// `sleuth_core::brute` and `sleuth_core::knowledge`).
fn event_holds(game: &Game, event: &Event, place: &[Option<Place>]) -> bool {
    let at = |c: Card| place[c.index()];
    match event {
        Event::Suggestion(s) => {
            let n = game.num_players();
            let holder_of_any = |q: usize| s.cards.iter().any(|c| at(c) == Some(Place::Player(Player::new(q))));
            let first = (1..n).map(|k| (s.by.index() + k) % n).find(|&q| holder_of_any(q));
            if first != s.refuted_by.map(|p| p.index()) {
                return false;
            }
            match (s.refuted_by, s.shown) {
                (Some(q), Some(c)) => at(c) == Some(Place::Player(q)),
                _ => true,
            }
        }
        Event::Accusation(a) => a.cards.iter().all(|c| at(c) == Some(Place::CaseFile)) == a.correct,
    }
}

/// Every consistent deal, counted by a depth-first search that fixes the
/// observer's hand, bars cards from players who passed on them, checks each
/// event as soon as all its cards are placed, and gives up (returning `None`)
/// after `node_limit` search nodes. Independent of the engine; fast enough
/// for full classic games once the evidence pins most cards down.
pub fn enumerate_pruned(game: &Game, node_limit: u64) -> Option<BruteCounts> {
    let deck = game.deck();
    let np = game.num_players();
    let face_up = game.face_up();
    let all_places: u32 = (1 << (np + 1)) - 1;
    let mut allowed = vec![0u32; deck.len()];
    for c in deck.cards().filter(|c| !face_up.contains(*c)) {
        allowed[c.index()] = all_places;
    }
    if let Some((me, hand)) = game.observer() {
        for c in deck.cards() {
            if hand.contains(c) {
                allowed[c.index()] &= 1 << me.index();
            } else {
                allowed[c.index()] &= !(1 << me.index());
            }
        }
    }
    for event in game.events() {
        match event {
            Event::Suggestion(s) => {
                let mut q = (s.by.index() + 1) % np;
                while q != s.by.index() && Some(q) != s.refuted_by.map(|p| p.index()) {
                    for c in s.cards {
                        allowed[c.index()] &= !(1 << q);
                    }
                    q = (q + 1) % np;
                }
                if let (Some(r), Some(c)) = (s.refuted_by, s.shown) {
                    allowed[c.index()] &= 1 << r.index();
                }
            }
            Event::Accusation(a) if a.correct => {
                for c in a.cards {
                    allowed[c.index()] &= 1 << np;
                }
            }
            Event::Accusation(_) => {}
        }
    }
    // Most constrained cards first; an event is checked after its last card.
    let mut order: Vec<Card> = deck.cards().filter(|c| !face_up.contains(*c)).collect();
    order.sort_by_key(|c| (allowed[c.index()].count_ones(), c.index()));
    let pos: BTreeMap<Card, usize> = order.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let mut check_at: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
    for (i, e) in game.events().iter().enumerate() {
        let cards = match e {
            Event::Suggestion(s) => s.cards,
            Event::Accusation(a) => a.cards,
        };
        // Every event names at least one card in play or none at all.
        match cards.iter().filter_map(|c| pos.get(&c)).max() {
            Some(&last) => check_at[last].push(i),
            None => {
                if !event_holds(game, e, &vec![None; deck.len()]) {
                    return Some(BruteCounts { marginal: vec![[0; MAX_PLACES]; deck.len()], ..Default::default() });
                }
            }
        }
    }
    let mut cap = vec![0usize; np];
    for p in game.players() {
        cap[p.index()] = game.hand_size(p);
    }
    let mut s = Search {
        game,
        order,
        allowed,
        check_at,
        cap,
        cat_taken: vec![false; deck.num_categories()],
        place: vec![None; deck.len()],
        nodes: 0,
        limit: node_limit,
        out: BruteCounts { marginal: vec![[0; MAX_PLACES]; deck.len()], ..Default::default() },
    };
    s.go(0).then_some(s.out)
}

struct Search<'a> {
    game: &'a Game,
    order: Vec<Card>,
    allowed: Vec<u32>,
    check_at: Vec<Vec<usize>>,
    cap: Vec<usize>,
    cat_taken: Vec<bool>,
    place: Vec<Option<Place>>,
    nodes: u64,
    limit: u64,
    out: BruteCounts,
}

impl Search<'_> {
    /// `false` when the node limit was hit.
    fn go(&mut self, i: usize) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            return false;
        }
        let np = self.game.num_players();
        if i == self.order.len() {
            if self.cat_taken.iter().all(|&t| t) && self.cap.iter().all(|&c| c == 0) {
                // The library's own rule checker must accept every deal found.
                assert!(self.game.fits(&self.place), "Game::fits rejects {:?}", self.place);
                self.out.total += 1;
                let mut case = Vec::new();
                for (c, p) in self.place.iter().enumerate() {
                    if let Some(p) = p {
                        self.out.marginal[c][p.index(np)] += 1;
                        if *p == Place::CaseFile {
                            case.push(Card::new(c));
                        }
                    }
                }
                *self.out.case_files.entry(case).or_insert(0) += 1;
            }
            return true;
        }
        let c = self.order[i];
        let k = self.game.deck().category(c).index();
        for q in 0..=np {
            if self.allowed[c.index()] >> q & 1 == 0 {
                continue;
            }
            if q < np {
                if self.cap[q] == 0 {
                    continue;
                }
                self.cap[q] -= 1;
                self.place[c.index()] = Some(Place::Player(Player::new(q)));
            } else {
                if self.cat_taken[k] {
                    continue;
                }
                self.cat_taken[k] = true;
                self.place[c.index()] = Some(Place::CaseFile);
            }
            let events = self.game.events();
            let ok = self.check_at[i].iter().all(|&e| event_holds(self.game, &events[e], &self.place));
            let finished = !ok || self.go(i + 1);
            if q < np {
                self.cap[q] += 1;
            } else {
                self.cat_taken[k] = false;
            }
            self.place[c.index()] = None;
            if !finished {
                return false;
            }
        }
        true
    }
}

/// The true deal of a generated game as `place[card]`.
pub fn true_deal(game: &Game, generated: &Generated) -> Vec<Option<Place>> {
    game.deck()
        .cards()
        .map(|c| {
            let at = &generated.deal[game.deck().id(c)];
            if at == "face_up" {
                None
            } else {
                Some(game.place(at).expect("the deal names places of the game"))
            }
        })
        .collect()
}

/// Compares an engine analysis with enumerated counts: total, every
/// marginal, and the case-file distribution.
pub fn assert_matches(game: &Game, analysis: &Analysis, oracle: &BruteCounts, label: &str) {
    assert_eq!(analysis.consistent_deals(), oracle.total, "{label}: total");
    for card in game.deck().cards() {
        for place in game.places() {
            assert_eq!(
                analysis.count(card, place),
                oracle.marginal[card.index()][place.index(game.num_players())],
                "{label}: card {} at {}",
                game.deck().id(card),
                game.place_id(place)
            );
        }
    }
    let engine: BTreeMap<Vec<Card>, u128> = analysis.case_files().map(|(cards, n)| (cards.to_vec(), n)).collect();
    assert_eq!(engine, oracle.case_files, "{label}: case files");
}
