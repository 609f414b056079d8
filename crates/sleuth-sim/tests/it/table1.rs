//! Neller and Luo's Table 1 game (testdata/seeds/neller-luo-table1.json):
//! its exact answer against an independent enumeration that checks every
//! deal by playing the rules, the readings it rests on, and the structure
//! of `table1`'s runs and observations.

use sleuth_core::{Analysis, Card, CardSet, Event, Game, GameFile, Place, Player, Status};
use sleuth_sim::experiment::table1::{candidate_hands, table1, Cell, Reading};

const TABLE1: &str = include_str!("../../../../testdata/seeds/neller-luo-table1.json");

fn game() -> Game {
    Game::from_json(TABLE1).expect("the Table 1 game loads")
}

/// Consistent deals and `[card][place]` counts, by enumerating hands seat
/// by seat and checking each complete deal with `Game::fits` (the
/// rules played out). The only pruning is the rule that a player asked
/// before the refuter holds none of the suggested cards, applied to each
/// hand as it is chosen; the case file must hold one card per category.
fn enumerate(game: &Game) -> (u128, Vec<Vec<u128>>) {
    let deck = game.deck();
    let n = game.num_players();
    let (me, hand) = game.observer().expect("an observer");
    let mut cannot = vec![CardSet(0); n];
    for e in game.events() {
        if let Event::Suggestion(s) = e {
            let mut q = game.next_player(s.by);
            while Some(q) != s.refuted_by && q != s.by {
                cannot[q.index()] = CardSet(cannot[q.index()].0 | s.cards.0);
                q = game.next_player(q);
            }
        }
    }
    let players: Vec<Player> = game.players().filter(|&p| p != me).collect();
    let mut place: Vec<Option<Place>> = vec![None; deck.len()];
    for c in hand.iter() {
        place[c.index()] = Some(Place::Player(me));
    }
    let rest = CardSet(deck.all().0 & !hand.0);
    let mut total = 0u128;
    let mut marginal = vec![vec![0u128; n + 1]; deck.len()];
    #[allow(clippy::too_many_arguments)]
    fn go(
        game: &Game,
        players: &[Player],
        cannot: &[CardSet],
        rest: CardSet,
        place: &mut Vec<Option<Place>>,
        total: &mut u128,
        marginal: &mut [Vec<u128>],
    ) {
        let deck = game.deck();
        let n = game.num_players();
        let Some((&p, others)) = players.split_first() else {
            let cats: Vec<_> = rest.iter().map(|c| deck.category(c)).collect();
            if rest.len() != deck.num_categories() || (0..cats.len()).any(|i| cats[..i].contains(&cats[i])) {
                return;
            }
            for c in rest.iter() {
                place[c.index()] = Some(Place::CaseFile);
            }
            if game.fits(place) {
                *total += 1;
                for c in deck.cards() {
                    marginal[c.index()][place[c.index()].expect("placed").index(n)] += 1;
                }
            }
            for c in rest.iter() {
                place[c.index()] = None;
            }
            return;
        };
        let allowed = CardSet(rest.0 & !cannot[p.index()].0);
        for h in allowed.subsets_of_size(game.hand_size(p)) {
            for c in h.iter() {
                place[c.index()] = Some(Place::Player(p));
            }
            go(game, others, cannot, CardSet(rest.0 & !h.0), place, total, marginal);
            for c in h.iter() {
                place[c.index()] = None;
            }
        }
    }
    go(game, &players, &cannot, rest, &mut place, &mut total, &mut marginal);
    (total, marginal)
}

fn uncertain(game: &Game, a: &Analysis) -> Vec<String> {
    let deck = game.deck();
    deck.cards()
        .filter(|&c| !game.places().any(|p| a.status(c, p) == Status::Yes))
        .map(|c| deck.id(c).to_string())
        .collect()
}

/// The certainties Table 1(a) states outright, read off its rows by the
/// rules alone: Mustard's hand, the cards shown (`ba` by Scarlet, `gr` by
/// Green, `li` by Mustard), and the players asked before the refuter, who
/// hold none of the three cards; a card held is in no other place.
fn stated_certainties(game: &Game) -> Vec<(Card, Place, Status)> {
    let (me, hand) = game.observer().expect("an observer");
    let mut held: Vec<(Card, Player)> = hand.iter().map(|c| (c, me)).collect();
    let mut out = Vec::new();
    for e in game.events() {
        let Event::Suggestion(s) = e else { continue };
        if let (Some(shown), Some(by)) = (s.shown, s.refuted_by) {
            held.push((shown, by));
        }
        let mut q = game.next_player(s.by);
        while Some(q) != s.refuted_by && q != s.by {
            out.extend(s.cards.iter().map(|c| (c, Place::Player(q), Status::No)));
            q = game.next_player(q);
        }
    }
    for (c, p) in held {
        for place in game.places() {
            out.push((c, place, if place == Place::Player(p) { Status::Yes } else { Status::No }));
        }
    }
    out
}

fn card(game: &Game, id: &str) -> Card {
    game.deck().card(id).unwrap()
}

#[test]
fn exact_answer_matches_an_independent_enumeration() {
    let game = game();
    let a = Analysis::new(&game).unwrap();
    let (total, marginal) = enumerate(&game);
    // The reading of the paper's Table 1(b) (Mustard's O's: pl, ro, li).
    assert_eq!(total, 6_798);
    assert_eq!(a.consistent_deals(), total);
    let n = game.num_players();
    for c in game.deck().cards() {
        for p in game.places() {
            let k = marginal[c.index()][p.index(n)];
            assert_eq!(a.count(c, p), k, "{} at {}", game.deck().id(c), game.place_id(p));
            // Every certainty of (b) is one the enumeration confirms.
            let status = if k == 0 {
                Status::No
            } else if k == total {
                Status::Yes
            } else {
                Status::Maybe
            };
            assert_eq!(a.status(c, p), status, "{} at {}", game.deck().id(c), game.place_id(p));
        }
    }
    // The paper: "there are still 11 cards whose locations are uncertain".
    assert_eq!(uncertain(&game, &a).len(), 11);
}

#[test]
fn certainties_stated_by_table_1a_are_certain() {
    let game = game();
    let a = Analysis::new(&game).unwrap();
    let stated = stated_certainties(&game);
    // Mustard's three cards, three shown cards (seven places each), and the
    // players who could not refute.
    assert!(stated.len() > 6 * 7, "{}", stated.len());
    for (c, p, status) in stated {
        assert_eq!(a.status(c, p), status, "{} at {}", game.deck().id(c), game.place_id(p));
    }
    assert_eq!(game.deck().ids(game.observer().unwrap().1), ["pl", "ro", "li"]);
    // Mustard's row 10 shows the card the paper underlines, and it is his.
    assert_eq!(a.status(card(&game, "li"), game.place("mu").unwrap()), Status::Yes);
}
#[test]
fn row_nine_shown_card_is_what_leaves_eleven_cards_uncertain() {
    // Without the underline of row 9 (Green showed Mustard `gr`), 13 cards
    // would be uncertain, not the paper's 11.
    let game = game();
    let mut file: GameFile = game.to_file();
    match &mut file.events[8] {
        sleuth_core::format::EventSpec::Suggestion(s) => {
            assert_eq!((s.by.as_str(), s.shown.as_deref()), ("mu", Some("gr")));
            s.shown = None;
        }
        other => panic!("row 9 is a suggestion, not {other:?}"),
    }
    let without = Game::new(&file).unwrap();
    let a = Analysis::new(&without).unwrap();
    assert_eq!(uncertain(&without, &a).len(), 13);
    let (total, _) = enumerate(&without);
    assert_eq!(a.consistent_deals(), total);
}

#[test]
fn candidate_hands_are_the_readings_with_eleven_uncertain_cards() {
    let game = game();
    let hands = candidate_hands(&game, 3, 11).unwrap();
    let names: Vec<String> = hands.iter().map(|(h, _)| h.join(",")).collect();
    assert!(names.contains(&"pl,ro,li".to_string()), "{names:?}");
    assert_eq!(hands.len(), 9, "{names:?}");
    for (h, models) in &hands {
        let mut file = game.to_file();
        file.hand = Some(h.clone());
        let g = Game::new(&file).unwrap();
        let a = Analysis::new(&g).unwrap();
        assert_eq!(a.consistent_deals(), *models);
        assert_eq!(uncertain(&g, &a).len(), 11);
    }
}

#[test]
fn table1_errors_are_estimate_minus_exact_and_seeded() {
    let game = game();
    let t = table1(&game, 3_000, &[5, 6, 7]).unwrap();
    let again = table1(&game, 3_000, &[5, 6, 7]).unwrap();
    assert_eq!(t.alg1[0].estimate, again.alg1[0].estimate);
    assert_eq!(t.alg2[2].estimate, again.alg2[2].estimate);
    assert_eq!(t.alg1.iter().map(|r| r.seed).collect::<Vec<_>>(), [5, 6, 7]);
    let n = game.num_players();
    for c in game.deck().cards() {
        for p in game.places() {
            let (ci, pi) = (c.index(), p.index(n));
            for run in t.alg1.iter().chain(&t.alg2) {
                let e = run.error[ci][pi];
                match t.exact.status(c, p) {
                    Status::Maybe => assert!((e - (run.estimate[ci][pi] - t.probabilities[ci][pi])).abs() < 1e-12),
                    Status::Yes => assert_eq!((e, run.estimate[ci][pi]), (0.0, 1.0)),
                    Status::No => assert_eq!((e, run.estimate[ci][pi]), (0.0, 0.0)),
                }
            }
        }
    }
    // One side-by-side cell per open pair, with the runs' range and mean.
    let open = game.deck().cards().flat_map(|c| game.places().map(move |p| (c, p)));
    assert_eq!(t.cells.len(), open.filter(|&(c, p)| t.exact.status(c, p) == Status::Maybe).count());
    for (a, b) in &t.cells {
        assert_eq!((&a.cell, a.exact, a.seeds), (&b.cell, b.exact, 3));
        for c in [a, b] {
            assert!(c.min <= c.mean && c.mean <= c.max, "{c:?}");
        }
    }
    for (r, (a1, a2)) in t.readings.iter().zip(t.alg1.iter().zip(&t.alg2)) {
        assert_eq!(r.seed, a1.seed);
        assert_eq!(r.worst, [a1.worst(), a2.worst()]);
        assert_eq!(r.significant, [a1.significant(), a2.significant()]);
        let wh = card(&game, "wh").index();
        assert_eq!(r.row_worst, [a1.row_worst(wh), a2.row_worst(wh)]);
        let (ci, pi) = a2.worst_cell();
        assert_eq!(a2.error[ci][pi].abs(), a2.worst());
        assert_eq!(r.greatest_in_column(), r.worst_cell[1].place == "pe");
    }
    assert!(table1(&game, 10, &[]).is_err());
}

/// A reading with the given worst cells and errors.
fn reading(worst_cell: [(&str, &str); 2], worst: [f64; 2], row_worst: [f64; 2], significant: [usize; 2]) -> Reading {
    let cell = |(card, place): (&str, &str)| Cell { card: card.into(), place: place.into() };
    Reading { seed: 0, worst_cell: worst_cell.map(cell), worst, row_worst, significant }
}

#[test]
fn observations_accept_what_the_papers_own_table_shows() {
    // The paper's printed (c) and (d), as the issue reports them: Algorithm
    // 1's worst cell is bi/pe, not in the wh row, and Algorithm 2's worst
    // error, in the pe column, is 0.29 of it. The paper calls that "roughly
    // half", so the criteria must accept it. (The errors are made up to
    // that ratio; the cells and the ratio are the paper's.)
    let paper = reading([("bi", "pe"), ("wh", "pe")], [0.10, 0.029], [0.07, 0.02], [12, 2]);
    assert!(paper.row_significant());
    assert!(paper.row_much_closer());
    assert!(paper.greatest_in_column());
    assert!(paper.about_half());
    assert!(paper.much_less_common());
    // And they can fail.
    let worse = reading([("bi", "pe"), ("ca", "wh")], [0.10, 0.08], [0.01, 0.02], [3, 3]);
    assert!(!worse.row_significant());
    assert!(!worse.row_much_closer());
    assert!(!worse.greatest_in_column());
    assert!(!worse.about_half());
    assert!(!worse.much_less_common());
}

#[test]
fn the_papers_observations_hold_for_sleuths_samplers() {
    // The paper's budget, 100,000 iterations, at 20 seeds: each observation
    // at most seeds (the paper reports one run of each algorithm).
    let game = game();
    let seeds: Vec<u64> = (0..20).collect();
    let t = table1(&game, 100_000, &seeds).unwrap();
    for (name, holds) in [
        ("a significant error in the wh row", t.holds(Reading::row_significant)),
        ("Algorithm 2 much closer in the wh row", t.holds(Reading::row_much_closer)),
        ("Algorithm 2's greatest error in the pe column", t.holds(Reading::greatest_in_column)),
        ("roughly half or less", t.holds(Reading::about_half)),
        ("significant errors much less common", t.holds(Reading::much_less_common)),
    ] {
        assert!(holds >= 15, "{name}: at {holds} of 20 seeds");
    }
    assert!(!t.repeatable_in_row().is_empty(), "no repeatable error in the wh row");
}
