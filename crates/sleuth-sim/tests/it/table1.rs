//! Neller and Luo's Table 1 game (testdata/seeds/neller-luo-table1.json):
//! its exact answer against an independent enumeration that checks every
//! deal by playing the rules, the readings it rests on, and the structure
//! of `table1`'s runs and observations.

use sleuth_core::brute::deal_fits;
use sleuth_core::{Analysis, Card, CardSet, Event, Game, GameFile, Place, Player, Status};
use sleuth_sim::experiment::table1::{candidate_hands, table1};

const TABLE1: &str = include_str!("../../../../testdata/seeds/neller-luo-table1.json");

fn game() -> Game {
    Game::from_json(TABLE1).expect("the Table 1 game loads")
}

/// Consistent deals and `[card][place]` counts, by enumerating hands seat
/// by seat and checking each complete deal with `brute::deal_fits` (the
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
            if deal_fits(game, place) {
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

fn card(game: &Game, id: &str) -> Card {
    game.deck().card(id).unwrap()
}

#[test]
fn exact_answer_matches_an_independent_enumeration() {
    let game = game();
    let a = Analysis::new(&game).unwrap();
    let (total, marginal) = enumerate(&game);
    assert_eq!(total, 7_902);
    assert_eq!(a.models(), total);
    let n = game.num_players();
    for c in game.deck().cards() {
        for p in game.places() {
            assert_eq!(a.count(c, p), marginal[c.index()][p.index(n)], "{} at {}", game.deck().id(c), game.place_id(p));
        }
    }
    // The paper: "there are still 11 cards whose locations are uncertain".
    assert_eq!(uncertain(&game, &a), ["pl", "wh", "kn", "ca", "pi", "wr", "lo", "di", "ki", "co", "bi"]);
    // A few cells, as fractions of the 7,902 deals.
    let wh = game.place("wh").unwrap();
    assert_eq!(a.fraction(card(&game, "lo"), wh), (7_074, 7_902));
    assert_eq!(a.status(card(&game, "re"), Place::CaseFile), Status::Yes);
    assert_eq!(a.status(card(&game, "sc"), Place::CaseFile), Status::Yes);
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
    assert_eq!(a.models(), total);
}

#[test]
fn candidate_hands_are_the_readings_with_eleven_uncertain_cards() {
    let game = game();
    let hands = candidate_hands(&game, 3, 11).unwrap();
    let names: Vec<String> = hands.iter().map(|(h, _)| h.join(",")).collect();
    assert!(names.contains(&"mu,ro,li".to_string()), "{names:?}");
    assert_eq!(hands.len(), 9, "{names:?}");
    for (h, models) in &hands {
        let mut file = game.to_file();
        file.hand = Some(h.clone());
        let g = Game::new(&file).unwrap();
        let a = Analysis::new(&g).unwrap();
        assert_eq!(a.models(), *models);
        assert_eq!(uncertain(&g, &a).len(), 11);
    }
}

#[test]
fn table1_errors_are_estimate_minus_exact_and_seeded() {
    let game = game();
    let t = table1(&game, 3_000, &[5, 6, 7]).unwrap();
    let again = table1(&game, 3_000, &[5, 6, 7]).unwrap();
    assert_eq!(t.alg1.estimate, again.alg1.estimate);
    assert_eq!(t.alg2.estimate, again.alg2.estimate);
    assert_eq!(t.alg1.seed, 5);
    let n = game.num_players();
    for c in game.deck().cards() {
        for p in game.places() {
            let (ci, pi) = (c.index(), p.index(n));
            for run in [&t.alg1, &t.alg2] {
                let e = run.error[ci][pi];
                match t.exact.status(c, p) {
                    Status::Maybe => assert!((e - (run.estimate[ci][pi] - t.probabilities[ci][pi])).abs() < 1e-12),
                    Status::Yes => assert_eq!((e, run.estimate[ci][pi]), (0.0, 1.0)),
                    Status::No => assert_eq!((e, run.estimate[ci][pi]), (0.0, 0.0)),
                }
            }
        }
    }
    let o = &t.observations;
    assert_eq!(o.seeds, [5, 6, 7]);
    assert!(o.alg1_worst.mean_abs >= o.alg1_in_row.as_ref().unwrap().mean_abs);
    assert_eq!(o.pe_column, o.alg2_worst.place == "pe");
    assert!((o.ratio() - o.alg2_mean_worst / o.alg1_mean_worst).abs() < 1e-15);
    assert_eq!(o.about_half, (1.0 / 3.0..=2.0 / 3.0).contains(&o.ratio()));
    assert!(table1(&game, 10, &[]).is_err());
}
