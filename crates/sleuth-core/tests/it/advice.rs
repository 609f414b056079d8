//! The advice module against brute-force enumeration of every deal, and its
//! stated properties on seeded random games.

use crate::support::{big_game, small_game};
use sleuth_core::advice::{advise, case_file_entropy, AdviceError, AdviceOptions, Position};
use sleuth_core::CountOptions;
use sleuth_core::{count::count_marginals, Card, CardSet, CountProblem, Event, Game, Place, Player};
use std::collections::BTreeMap;

/// A deal: the place of every card (`None` face up).
type Deal = Vec<Option<Place>>;
/// An answer to a suggestion: the refuter and the card shown.
type Answer = (Option<Player>, Option<Card>);

/// Every consistent deal of a small game, `place[card]` (`None` face up).
fn deals(game: &Game) -> Vec<Vec<Option<Place>>> {
    fn go(
        game: &Game,
        cards: &[Card],
        i: usize,
        place: &mut Vec<Option<Place>>,
        cap: &mut [usize],
        case: &mut [bool],
        out: &mut Vec<Vec<Option<Place>>>,
    ) {
        if i == cards.len() {
            if case.iter().all(|&t| t) && game.fits(place) {
                out.push(place.clone());
            }
            return;
        }
        let c = cards[i];
        for p in game.players() {
            if cap[p.index()] > 0 {
                cap[p.index()] -= 1;
                place[c.index()] = Some(Place::Player(p));
                go(game, cards, i + 1, place, cap, case, out);
                cap[p.index()] += 1;
            }
        }
        let k = game.deck().category(c).index();
        if !case[k] {
            case[k] = true;
            place[c.index()] = Some(Place::CaseFile);
            go(game, cards, i + 1, place, cap, case, out);
            case[k] = false;
        }
        place[c.index()] = None;
    }
    let cards: Vec<Card> = game.deck().cards().filter(|c| !game.face_up().contains(*c)).collect();
    let mut cap: Vec<usize> = game.players().map(|p| game.hand_size(p)).collect();
    let mut case = vec![false; game.deck().num_categories()];
    let mut out = Vec::new();
    go(game, &cards, 0, &mut vec![None; game.deck().len()], &mut cap, &mut case, &mut out);
    out
}

/// The player views among the small games `0..n` of test `tag` that have a
/// consistent deal: `(i, game, observer, hand, every consistent deal)`.
fn small_views(tag: &str, n: u64) -> impl Iterator<Item = (u64, Game, Player, CardSet, Vec<Deal>)> + '_ {
    (0..n).filter_map(move |i| {
        let game = Game::new(&small_game(tag, i).file).expect("generated games are valid");
        let (me, hand) = game.observer()?;
        let all = deals(&game);
        (!all.is_empty()).then_some((i, game, me, hand, all))
    })
}

/// The case-file entropy (sum over categories) of a set of equally likely deals.
fn entropy_of(game: &Game, deals: &[&Vec<Option<Place>>]) -> f64 {
    let deck = game.deck();
    let mut h = 0.0;
    for cat in deck.categories() {
        for c in deck.category_cards(cat) {
            let n = deals.iter().filter(|d| d[c.index()] == Some(Place::CaseFile)).count();
            let p = n as f64 / deals.len() as f64;
            if p > 0.0 && p < 1.0 {
                h -= p * p.log2();
            }
        }
    }
    h
}

/// The answer to `cards` suggested by `me` in a deal: the refuter and the
/// cards it could show.
fn answer(game: &Game, deal: &[Option<Place>], me: Player, cards: CardSet) -> Option<(Player, Vec<Card>)> {
    let mut q = game.next_player(me);
    while q != me {
        let held: Vec<Card> = cards.iter().filter(|c| deal[c.index()] == Some(Place::Player(q))).collect();
        if !held.is_empty() {
            return Some((q, held));
        }
        q = game.next_player(q);
    }
    None
}

/// Every suggestion's exact evaluation (the shared count by answer class)
/// against enumerating the deals: the probability of every answer (refuter
/// chooses uniformly), the deals and the entropy after it, the information
/// and the chance of ending.
#[test]
fn suggestion_evaluation_matches_brute_force() {
    let mut checked = 0;
    for (i, game, me, _, all) in small_views("advice-brute", 400) {
        let pos = Position::new(&game).expect("a consistent player's view");
        let h_now = entropy_of(&game, &all.iter().collect::<Vec<_>>());
        assert!((pos.entropy() - h_now).abs() < 1e-9, "game {i}: entropy now");
        for cards in pos.legal_suggestions().into_iter().take(12) {
            // The shared count, by answer class (`evaluate` uses it).
            let eval = pos.evaluate_shared(cards).expect("small games count").expect("the shared count applies");
            // Brute force: probability mass and deal sets per answer.
            let mut mass: BTreeMap<Answer, f64> = BTreeMap::new();
            let mut sets: BTreeMap<Answer, Vec<&Deal>> = BTreeMap::new();
            for d in &all {
                match answer(&game, d, me, cards) {
                    None => {
                        *mass.entry((None, None)).or_default() += 1.0 / all.len() as f64;
                        sets.entry((None, None)).or_default().push(d);
                    }
                    Some((r, held)) => {
                        for &c in &held {
                            *mass.entry((Some(r), Some(c))).or_default() += 1.0 / (held.len() * all.len()) as f64;
                            sets.entry((Some(r), Some(c))).or_default().push(d);
                        }
                    }
                }
            }
            assert_eq!(eval.outcomes.len(), mass.len(), "game {i}: number of answers");
            let (mut info, mut end) = (h_now, 0.0);
            for o in &eval.outcomes {
                let key = (o.refuter, o.shown);
                let p = mass[&key];
                assert!((o.probability - p).abs() < 1e-12, "game {i}: P{key:?} {} vs {p}", o.probability);
                assert_eq!(o.models_after, sets[&key].len() as u128, "game {i}: deals after {key:?}");
                let h = entropy_of(&game, &sets[&key]);
                assert!((o.entropy_after - h).abs() < 1e-9, "game {i}: entropy after {key:?}");
                info -= p * h;
                if h == 0.0 {
                    end += p;
                }
                assert_eq!(o.solves, h == 0.0, "game {i}: solved after {key:?}");
            }
            assert!((eval.information - info.max(0.0)).abs() < 1e-9, "game {i}: information");
            assert!((eval.end_probability - end).abs() < 1e-9, "game {i}: end probability");
            checked += 1;
        }
    }
    assert!(checked > 500, "only {checked} suggestions checked");
}

/// The shortlist of the default ranking holds the suggestions most likely to
/// end the game unrefuted, against brute force: per legal suggestion, the
/// deals where nobody refutes it (every card of it that may be shown is in
/// the case file) and every category without such a card already has a
/// certain case-file card. The two with the most such deals (ties in deck
/// order) are ranked, and no ranked suggestion ends the game less often than
/// those deals say.
#[test]
fn the_ranking_holds_the_likeliest_unrefuted_ends() {
    let mut checked = 0;
    for (i, game, me, hand, all) in small_views("advice-unrefuted", 300) {
        let pos = Position::new(&game).expect("a consistent player's view");
        let deck = game.deck();
        let certain: CardSet =
            deck.cards().filter(|c| all.iter().all(|d| d[c.index()] == Some(Place::CaseFile))).collect();
        let unrefuted = |cards: CardSet| -> usize {
            let shown = cards - hand - game.face_up();
            let pinned = deck.categories().all(|k| {
                !(shown & deck.category_cards(k)).is_empty() || !(certain & deck.category_cards(k)).is_empty()
            });
            if !pinned {
                return 0;
            }
            all.iter()
                .filter(|d| {
                    answer(&game, d, me, cards).is_none() && shown.iter().all(|c| d[c.index()] == Some(Place::CaseFile))
                })
                .count()
        };
        let mut by_deals: Vec<(usize, CardSet)> =
            pos.legal_suggestions().into_iter().map(|s| (unrefuted(s), s)).filter(|x| x.0 > 0).collect();
        by_deals.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1 .0.cmp(&b.1 .0)));
        let ranked = pos.rank_suggestions(12).expect("small games count");
        for &(n, cards) in by_deals.iter().take(2) {
            assert!(ranked.iter().any(|e| e.cards == cards), "game {i}: {cards:?} ({n} deals unrefuted) not ranked");
            checked += 1;
        }
        for e in &ranked {
            let share = unrefuted(e.cards) as f64 / all.len() as f64;
            assert!(e.end_probability >= share - 1e-12, "game {i}: {:?} ends {} < {share}", e.cards, e.end_probability);
        }
    }
    assert!(checked > 200, "only {checked} suggestions checked");
}

/// The refutation advice against brute force: the suggester's model entropy
/// before and after each card, enumerated over the public game's deals with
/// the facts the observer knows the suggester has; the card advised reveals
/// no more than any other, and a card already shown to the suggester reveals
/// nothing.
#[test]
fn refutation_reveals_least_and_matches_brute_force() {
    let mut checked = 0;
    for i in 0..600 {
        let generated = small_game("advice-refute", i);
        let game = Game::new(&generated.file).expect("generated games are valid");
        let Some((me, hand)) = game.observer() else { continue };
        let Ok(pos) = Position::new(&game) else { continue };
        let public = deals(&game.bystander());
        for s in game.players().filter(|&s| s != me) {
            // Suggestions holding at least two of my cards, when the deck allows.
            for cards in pos.legal_suggestions().into_iter().filter(|c| (*c & hand).len() >= 2).take(3) {
                let advice = pos.refutation(s, cards).expect("I hold some of the cards");
                // The model: public deals where I hold what I showed s, s holds what it showed me, and
                // the players s passed hold none of the cards.
                let passed: Vec<_> = sleuth_core::model::passed_players(&game, s, Some(me)).collect();
                let mut known: Vec<(Card, Player)> = Vec::new();
                let mut shown_before = CardSet::EMPTY;
                for e in game.events() {
                    if let Event::Suggestion(x) = e {
                        match (x.refuted_by, x.shown) {
                            (Some(r), Some(c)) if x.by == s && r == me => {
                                known.push((c, me));
                                shown_before.insert(c);
                            }
                            (Some(r), Some(c)) if x.by == me && r == s => known.push((c, s)),
                            _ => {}
                        }
                    }
                }
                let model: Vec<&Deal> = public
                    .iter()
                    .filter(|d| known.iter().all(|&(c, p)| d[c.index()] == Some(Place::Player(p))))
                    .filter(|d| passed.iter().all(|&p| cards.iter().all(|c| d[c.index()] != Some(Place::Player(p)))))
                    .collect();
                if model.is_empty() {
                    continue;
                }
                let before = entropy_of(&game, &model);
                for o in &advice.options {
                    let after: Vec<&Deal> =
                        model.iter().copied().filter(|d| d[o.card.index()] == Some(Place::Player(me))).collect();
                    if after.is_empty() {
                        continue;
                    }
                    let h = entropy_of(&game, &after);
                    assert!((o.entropy_after - h).abs() < 1e-9, "game {i}: entropy after showing");
                    assert!((o.revealed - (before - h).max(0.0)).abs() < 1e-9, "game {i}: revealed");
                    assert!(advice.options[0].revealed <= o.revealed + 1e-12, "game {i}: the advice reveals least");
                    if shown_before.contains(o.card) {
                        assert!(o.already_shown && o.revealed.abs() < 1e-12, "game {i}: re-showing is free");
                    }
                }
                assert_eq!(advice.card, advice.options[0].card);
                assert_eq!(advice.options.len(), (cards & hand).len());
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} refutations checked");
}

/// On random classic games: legal, sensible advice. Suggestions are never
/// repeated, have one card per category and non-negative information; the
/// accusation never names a card the observer holds or that cannot be in the
/// case file, and a certain case file is always accused.
#[test]
fn advice_is_legal_on_random_classic_games() {
    let (mut certain, mut out_and_certain) = (0, 0);
    for i in 0..150 {
        let generated = big_game("advice-legal", i, false, 40, 0.0);
        let game = Game::new(&generated.file).expect("generated games are valid");
        let options = AdviceOptions { samples: 4, shortlist: 4, ..AdviceOptions::default() };
        let advice = match advise(&game, &options) {
            Ok(a) => a,
            Err(AdviceError::NoObserver) => {
                assert!(game.observer().is_none());
                continue;
            }
            Err(AdviceError::Inconsistent) => continue, // accusations can make generated games unlucky
            Err(e) => panic!("game {i}: {e}"),
        };
        let (me, hand) = game.observer().expect("advice needs an observer");
        let deck = game.deck();
        let made: Vec<CardSet> = game
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::Suggestion(s) if s.by == me => Some(s.cards),
                _ => None,
            })
            .collect();
        assert!(!advice.suggestions.is_empty(), "game {i}: some suggestion is listed");
        for s in &advice.suggestions {
            assert!(!made.contains(&s.cards), "game {i}: a repeated suggestion");
            assert!(deck.categories().all(|k| (s.cards & deck.category_cards(k)).len() == 1));
            assert!(s.information >= 0.0 && (0.0..=1.0 + 1e-9).contains(&s.end_probability));
            let total: f64 = s.outcomes.iter().map(|o| o.probability).sum();
            assert!((total - 1.0).abs() < 1e-9, "game {i}: answer probabilities add up to one");
        }
        let counts = count_marginals(&CountProblem::new(&game), &CountOptions::default()).expect("classic games count");
        let a = &advice.accusation;
        assert!((a.cards & hand).is_empty(), "game {i}: accusation names my own card");
        assert!(a.cards.iter().all(|c| counts.marginal[c.index()][game.num_players()] > 0));
        assert!(deck.categories().all(|k| (a.cards & deck.category_cards(k)).len() == 1));
        assert!((0.0..=1.0).contains(&a.probability));
        let out = game.events().iter().any(|e| matches!(e, Event::Accusation(x) if x.by == me && !x.correct));
        if sleuth_core::advice::certain_case_file(&game, &counts).is_some() {
            assert!(a.certain && a.probability == 1.0, "game {i}: a certain case file is found");
            // A player who is out may not accuse again; everyone else accuses at once.
            assert_eq!(a.accuse, !out, "game {i}: a certain case file is accused unless I am out");
            certain += 1;
            out_and_certain += usize::from(out);
        } else if out {
            assert!(!a.accuse, "game {i}: a player who is out is never advised to accuse");
        }
        assert!(case_file_entropy(&game, &counts) >= 0.0);
        assert_eq!(advice.opponents.len(), game.num_players() - 1);
        for o in &advice.opponents {
            assert!((0.0..=1.0).contains(&o.solved) && (0.0..=1.0).contains(&o.threat));
            assert!(o.player != me);
        }
    }
    assert!(certain > out_and_certain, "some game was solved for a player still in");
}

/// Suggestions with the same answers, against brute force: the cards
/// nobody but the observer can show are those no deal gives another
/// player; suggestions that differ only in such cards have the same answer
/// in every deal and the same evaluation to the bit; and the advice lists
/// its first choices of distinct answers, each with every suggestion of the
/// same answers, numbers and all.
#[test]
fn suggestions_with_the_same_answers_are_one_choice() {
    use sleuth_core::advice::{alternatives, same_answers};
    let (mut pairs, mut grouped_advice) = (0, 0);
    for (i, game, me, _, all) in small_views("same-answers", 300) {
        let pos = Position::new(&game).expect("a consistent player's view");
        let unshowable = pos.unshowable();
        let by_brute: CardSet = (game.deck().cards())
            .filter(|c| all.iter().all(|d| !matches!(d[c.index()], Some(Place::Player(p)) if p != me)))
            .collect();
        assert_eq!(unshowable, by_brute, "game {i}: the cards nobody else can show");
        let legal = pos.legal_suggestions();
        let ranked = pos.rank_suggestions(legal.len()).expect("small games count");
        let same = same_answers(&ranked, unshowable);
        for (k, (a, first)) in ranked.iter().zip(&same).enumerate() {
            let Some(j) = *first else { continue };
            let b = &ranked[j];
            assert!(j < k && a.cards - unshowable == b.cards - unshowable, "game {i}: {k} is like {j}");
            for c in a.cards - b.cards {
                let stand_in = b.cards & game.deck().category_cards(game.deck().category(c));
                assert!(alternatives(game.deck(), c, unshowable).contains(stand_in.iter().next().unwrap()));
            }
            for d in &all {
                assert_eq!(answer(&game, d, me, a.cards), answer(&game, d, me, b.cards), "game {i}: the same answer");
            }
            assert_eq!(a.information.to_bits(), b.information.to_bits(), "game {i}: information");
            assert_eq!(a.end_probability.to_bits(), b.end_probability.to_bits(), "game {i}: end");
            assert_eq!(a.outcomes, b.outcomes, "game {i}: answers");
            pairs += 1;
        }
        // The advice: its first two choices, each with its like.
        let options = AdviceOptions { suggestions: 2, shortlist: legal.len(), samples: 2, ..AdviceOptions::default() };
        let advice = advise(&game, &options).expect("small games count");
        assert_eq!(advice.unshowable, unshowable);
        let firsts: Vec<CardSet> =
            (ranked.iter().zip(&same)).filter(|(_, s)| s.is_none()).map(|(e, _)| e.cards).collect();
        let kept: Vec<CardSet> = firsts.iter().take(2).map(|&f| f - unshowable).collect();
        let want: Vec<CardSet> = ranked.iter().map(|e| e.cards).filter(|&c| kept.contains(&(c - unshowable))).collect();
        let listed: Vec<CardSet> = advice.suggestions.iter().map(|e| e.cards).collect();
        assert_eq!(listed, want, "game {i}: the first two choices and their like");
        grouped_advice += usize::from(listed.len() > 2);
    }
    assert!(pairs > 100 && grouped_advice > 10, "only {pairs} pairs, {grouped_advice} grouped advice");
}

/// Errors for bystanders, inconsistent histories and impossible refutations.
#[test]
fn advice_errors_are_clear() {
    let bystander = Game::from_json(r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "events": []}"#)
        .expect("valid");
    assert_eq!(advise(&bystander, &AdviceOptions::default()), Err(AdviceError::NoObserver));
    let bad = Game::from_json(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
            "hand": ["mu", "pl", "kn", "ca", "ha", "lo"],
            "events": [{"suggestion": {"by": "b", "cards": ["mu", "kn", "ha"], "refuted_by": "c"}}]}"#,
    )
    .expect("valid");
    assert_eq!(advise(&bad, &AdviceOptions::default()), Err(AdviceError::Inconsistent));
    let game = Game::from_json(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
            "hand": ["mu", "pl", "kn", "ca", "ha", "lo"], "events": []}"#,
    )
    .expect("valid");
    let d = game.deck();
    let set = |ids: &[&str]| ids.iter().map(|i| d.card(i).expect("a card")).collect::<CardSet>();
    let a = game.player("a").expect("a");
    let b = game.player("b").expect("b");
    let err = |r: Result<_, AdviceError>| r.expect_err("an error").to_string();
    assert_eq!(
        err(sleuth_core::advice::advise_refutation(&game, b, set(&["gr", "re", "ki"]))),
        "you hold none of gr, re, ki, so you cannot refute"
    );
    assert_eq!(
        err(sleuth_core::advice::advise_refutation(&game, a, set(&["mu", "re", "ki"]))),
        "you cannot refute your own suggestion"
    );
    assert_eq!(
        err(sleuth_core::advice::advise_refutation(&game, b, set(&["mu", "pl", "ki"]))),
        "a suggestion names exactly one card of each category"
    );
    let ok = sleuth_core::advice::advise_refutation(&game, b, set(&["mu", "kn", "ki"])).expect("I can refute");
    assert!(set(&["mu", "kn"]).contains(ok.card));
}

/// A custom deck with more combinations than are listed one by one still
/// gets legal advice (the most likely case file and its one-category
/// variations).
#[test]
fn decks_with_too_many_combinations_get_a_short_list() {
    let cats: Vec<String> = (0..7u8)
        .map(|k| {
            let name = (b'a' + k) as char;
            let cards: Vec<String> = (0..6).map(|i| format!("\"{name}{i}\"")).collect();
            format!(r#"{{"name": "c{name}", "cards": [{}]}}"#, cards.join(", "))
        })
        .collect();
    let text = format!(
        r#"{{"version": 1, "deck": {{"categories": [{}]}}, "players": ["p", "q", "r"], "me": "p",
            "hand": ["a0", "b0", "c0", "d0", "e0", "f0", "g0", "a1", "b1", "c1", "d1", "e1"], "events": []}}"#,
        cats.join(", ")
    );
    let game = Game::from_json(&text).expect("a valid custom game");
    let pos = Position::new(&game).expect("counts");
    let legal = pos.legal_suggestions();
    assert_eq!(legal.len(), 1 + 7 * 5, "the mode and its one-category variations");
    let advice =
        advise(&game, &AdviceOptions { shortlist: 2, samples: 2, ..AdviceOptions::default() }).expect("advice");
    let deck = game.deck();
    for s in &advice.suggestions {
        assert!(deck.categories().all(|k| (s.cards & deck.category_cards(k)).len() == 1));
        let total: f64 = s.outcomes.iter().map(|o| o.probability).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }
}

/// `Game::bystander` keeps the public part only: no observer, no shown cards.
#[test]
fn the_bystander_view_drops_the_hand_and_shown_cards() {
    let game = Game::from_json(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
            "hand": ["mu", "pl", "kn", "ca", "ha", "lo"],
            "events": [{"suggestion": {"by": "a", "cards": ["gr", "re", "di"], "refuted_by": "b", "shown": "re"}}]}"#,
    )
    .expect("valid");
    let public = game.bystander();
    assert!(public.observer().is_none());
    match &public.events()[0] {
        Event::Suggestion(s) => {
            assert_eq!(s.shown, None);
            assert_eq!(s.refuted_by, game.player("b"));
        }
        e => panic!("unexpected {e:?}"),
    }
    assert_eq!(public.events().len(), game.events().len());
}

/// The focused combination names, per category, the certain case-file card
/// when there is one, otherwise a case-file candidate with the fewest
/// possible places; `rank_suggestions` evaluates it unless it was made before.
#[test]
fn the_focused_combination_is_a_case_file_candidate_with_fewest_places() {
    let mut checked = 0;
    for i in 0..60 {
        let generated = big_game("advice-focused", i, false, 30, 0.0);
        let game = Game::new(&generated.file).expect("generated games are valid");
        let Ok(pos) = Position::new(&game) else { continue };
        let counts = pos.counts().clone();
        let np = game.num_players();
        let deck = game.deck();
        let focused = pos.focused_combination().expect("a consistent game has candidates");
        let places = |c: Card| counts.marginal[c.index()][..=np].iter().filter(|&&n| n > 0).count();
        for k in deck.categories() {
            let cards = deck.category_cards(k);
            let picked: Vec<Card> = (focused & cards).iter().collect();
            assert_eq!(picked.len(), 1, "game {i}: one card per category");
            let c = picked[0];
            assert!(counts.marginal[c.index()][np] > 0, "game {i}: a case-file candidate");
            match cards.iter().find(|d| counts.marginal[d.index()][np] == counts.total) {
                Some(culprit) => assert_eq!(c, culprit, "game {i}: the certain card"),
                None => {
                    let fewest = cards.iter().filter(|d| counts.marginal[d.index()][np] > 0).map(places).min();
                    assert_eq!(Some(places(c)), fewest, "game {i}: the fewest possible places");
                }
            }
        }
        if !pos.own_suggestions().contains(&focused) {
            let ranked = pos.rank_suggestions(1).expect("classic games count");
            assert!(ranked.iter().any(|e| e.cards == focused), "game {i}: the focused combination is evaluated");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn a_player_who_is_out_is_never_advised_to_accuse() {
    // The SAT paper's sample game, solved for sc before the final accusation;
    // had sc already accused wrongly, a certain case file must not be accused.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/seed-sat-sample-before-accusation.json");
    let text = std::fs::read_to_string(path).expect("the bundled sample game");
    let solved = Game::from_json(&text).expect("valid");
    let advice = advise(&solved, &AdviceOptions::default()).expect("advice");
    assert!(advice.accusation.certain && advice.accusation.accuse, "in the game, a certain case file is accused");

    let mut file: serde_json::Value = serde_json::from_str(&text).expect("json");
    let wrong = serde_json::json!({"accusation": {"by": "sc", "cards": ["mu", "kn", "ha"], "correct": false}});
    file["events"].as_array_mut().expect("events").push(wrong);
    let out = Game::from_json(&file.to_string()).expect("valid");
    let advice = advise(&out, &AdviceOptions::default()).expect("advice");
    assert!(advice.accusation.certain, "the case file is still certain");
    assert!(!advice.accusation.accuse, "but sc is out and may not accuse");
}

#[test]
fn focused_tiers_match_brute_force() {
    let mut checked = 0;
    for (i, game, _, hand, all) in small_views("advice-tiers", 300) {
        let pos = Position::new(&game).expect("a consistent observer's view");
        let deck = game.deck();
        for cat in deck.categories() {
            let cards = deck.category_cards(cat);
            let places = |c: Card| {
                let mut seen: Vec<Place> = all.iter().filter_map(|d| d[c.index()]).collect();
                seen.sort_by_key(|p| p.index(game.num_players()));
                seen.dedup();
                seen
            };
            let in_case_file = |c: Card| all.iter().filter(|d| d[c.index()] == Some(Place::CaseFile)).count();
            let certain: CardSet = cards.iter().filter(|&c| in_case_file(c) == all.len()).collect();
            let expected: Vec<CardSet> = if !certain.is_empty() {
                vec![certain | (cards & hand)]
            } else {
                let mut tiers: Vec<CardSet> = (2..=game.num_players() + 1)
                    .map(|m| cards.iter().filter(|&c| in_case_file(c) > 0 && places(c).len() == m).collect())
                    .collect();
                tiers.push(cards & hand);
                tiers
            };
            assert_eq!(pos.focused_tiers(cards), expected, "game {i}, category {cat:?}");
            checked += 1;
        }
    }
    assert!(checked > 300, "only {checked} categories checked");
}

#[test]
fn told_case_files_match_the_weighted_enumeration() {
    use sleuth_core::advice::Tell;
    let mut checked = 0;
    for i in 0..300 {
        let generated = small_game("advice-tells", i);
        let game = Game::new(&generated.file).expect("generated games are valid");
        let Some((me, _)) = game.observer() else { continue };
        let Ok(pos) = Position::new(&game) else { continue };
        // Fixed rates (the fitted ones are checked below): 1 is the exact
        // distribution, the others weigh each suggested card its suggester holds.
        for rate in [1.0, 0.3] {
            let tells: Vec<Tell> = game
                .players()
                .filter(|&j| j != me)
                .map(|player| Tell { player, known: 0, own: 0, rate, blind_chance: 1.0 })
                .collect();
            let mut exact: BTreeMap<u64, f64> = BTreeMap::new();
            let mut sum = 0.0;
            // A repeated suggestion counts once (issue 59): the advice works
            // on the distinct events.
            let mut distinct = std::collections::HashSet::new();
            let events: Vec<&Event> = game.events().iter().filter(|e| distinct.insert(*e)).collect();
            for deal in deals(&game) {
                let mut w = 1.0;
                for e in &events {
                    if let Event::Suggestion(s) = e {
                        if s.by != me {
                            w *= rate
                                .powi(s.cards.iter().filter(|c| deal[c.index()] == Some(Place::Player(s.by))).count()
                                    as i32);
                        }
                    }
                }
                let case: CardSet = game.deck().cards().filter(|c| deal[c.index()] == Some(Place::CaseFile)).collect();
                *exact.entry(case.0).or_insert(0.0) += w;
                sum += w;
            }
            let told = pos
                .told_case_files(&tells, 20_000, &mut crate::support::rng("advice-tells-sample", i))
                .expect("small counts fit");
            let told: BTreeMap<u64, f64> = told.into_iter().map(|(k, p)| (k.0, p)).collect();
            assert!((told.values().sum::<f64>() - 1.0).abs() < 1e-9, "game {i}: a distribution");
            for (case, w) in &exact {
                let (want, got) = (w / sum, told.get(case).copied().unwrap_or(0.0));
                assert!((want - got).abs() < 0.03, "game {i}, rate {rate}: case file {case:#x} {got} vs {want}");
            }
            assert!(told.keys().all(|k| exact.contains_key(k)), "game {i}: only consistent case files");
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} views checked");
}

#[test]
fn tells_are_fitted_from_suggested_cards_whose_place_is_known() {
    use sleuth_core::advice::{PRIOR_RATE, PRIOR_WEIGHT};
    let game = Game::from_json(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
            "hand": ["mu", "pl", "kn", "ca", "ha", "lo"], "events": [
            {"suggestion": {"by": "a", "cards": ["gr", "re", "di"], "refuted_by": "b", "shown": "gr"}},
            {"suggestion": {"by": "a", "cards": ["pe", "ro", "ki"], "refuted_by": "b", "shown": "ro"}},
            {"suggestion": {"by": "b", "cards": ["gr", "ro", "ba"], "refuted_by": "c"}},
            {"suggestion": {"by": "c", "cards": ["mu", "pi", "ba"], "refuted_by": "a", "shown": "mu"}},
            {"suggestion": {"by": "c", "cards": ["gr", "wr", "st"], "refuted_by": "b"}}]}"#,
    )
    .expect("valid");
    let pos = Position::new(&game).expect("consistent");
    let tells = pos.tells();
    let share = 6.0 / 15.0; // a hand of 6 among the 15 cards I do not hold
    let fitted = |own: f64, known: f64| (own + PRIOR_WEIGHT * PRIOR_RATE * share) / ((known + PRIOR_WEIGHT) * share);
    // b asked about gr and ro, which it showed me, and ba, which c must then hold.
    assert_eq!((tells[0].player.index(), tells[0].known, tells[0].own), (1, 3, 2));
    assert!((tells[0].rate - fitted(2.0, 3.0)).abs() < 1e-12);
    // c asked about mu (mine: no evidence), pi (unknown), ba (its own) and gr (b's).
    assert_eq!((tells[1].player.index(), tells[1].known, tells[1].own), (2, 2, 1));
    assert!((tells[1].rate - fitted(1.0, 2.0)).abs() < 1e-12);
    // The habit check: a blind asker holds at most 2 of 3 with chance 1 − 0.4³, at most 1 of 2 with 1 − 0.4².
    assert!((tells[0].blind_chance - (1.0 - share.powi(3))).abs() < 1e-12);
    assert!((tells[1].blind_chance - (1.0 - share.powi(2))).abs() < 1e-12);
    // Nobody asked anything yet: the prior.
    let fresh = Game::from_json(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a",
            "hand": ["mu", "pl", "kn", "ca", "ha", "lo"], "events": []}"#,
    )
    .expect("valid");
    let pos = Position::new(&fresh).expect("consistent");
    assert!(pos.tells().iter().all(|t| t.rate == PRIOR_RATE && t.known == 0));
}

/// The best chance to end the game, which leaves a suggestion as soon as it
/// cannot be the best, is the largest of the full ranking's, to the bit
/// (where the deals are listed and the ranking evaluates every suggestion,
/// at most that): classic and master games, 3-10 players, observers and
/// bystanders with seat 0's hand, short and long shortlists.
#[test]
fn the_best_chance_to_end_the_game_is_the_full_rankings_largest() {
    let (mut positive, mut states, mut listed) = (0, 0, 0);
    for i in 0..1500 {
        let master = i % 10 == 9;
        let generated = big_game("advice-best-end", i, master, if master { 15 } else { 40 }, 0.0);
        let game = generated.player_view().expect("generated games are valid");
        let Ok(pos) = Position::new(&game) else { continue }; // an unlucky accusation
        let shortlist = [1, 4, 12][i as usize % 3];
        let ranked = pos.rank_suggestions(shortlist).expect("generated games count");
        let full = ranked.iter().map(|e| e.end_probability).fold(0.0, f64::max);
        let best = pos.best_end_probability(shortlist).expect("generated games count");
        if pos.evaluate_listed(&pos.legal_suggestions()).expect("counted").is_some() {
            // The ranking evaluated every suggestion: none is better.
            assert!(best <= full, "game {i} (shortlist {shortlist}): {best} vs {full}");
            listed += 1;
            continue;
        }
        assert_eq!(best.to_bits(), full.to_bits(), "game {i} (shortlist {shortlist}): {best} vs {full}");
        states += 1;
        positive += usize::from(ranked.iter().filter(|e| e.end_probability > 0.0).count() > 1);
    }
    // Most states have several suggestions that can end the game, where
    // leaving one early matters.
    assert!(states > 600 && listed > 300 && positive > states / 4, "{positive} of {states} states ({listed} listed)");
}

/// `advise` against its parts, composed as the separate public calls do
/// them (each suggestion evaluated anew, the value of waiting ranked again,
/// every opponent's public model counted): the same advice, to the bit.
#[test]
fn advise_is_the_composition_of_its_parts() {
    use rand::SeedableRng;
    use sleuth_core::advice::{better_than_even, combined_threat, AccuseReason};
    let (mut weighed, mut states) = (0, 0);
    for i in 0..300 {
        let master = i % 10 == 9;
        let generated = big_game("advice-parts", i, master, if master { 15 } else { 40 }, 0.0);
        let game = generated.player_view().expect("generated games are valid");
        let options = AdviceOptions { samples: 6, tell_samples: 0, seed: i, ..AdviceOptions::default() };
        let Ok(advice) = advise(&game, &options) else { continue }; // an unlucky accusation
        let pos = Position::new(&game).expect("advice was given");
        let ranked = pos.rank_suggestions(options.shortlist).expect("counted");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(options.seed);
        let (_, deals) = pos.best_accusation().expect("counted");
        let total = pos.counts().total;
        let lookahead = if deals < total && better_than_even(deals, total) { options.opponent_shortlist } else { 0 };
        let opponents = pos.opponents_by_knowledge(options.threat_budget(), lookahead, &mut rng).expect("counted");
        let accusation = pos.player_accusation(combined_threat(&opponents), options.shortlist).expect("counted");
        // The first choices of distinct answers, each with its like.
        let mut listed = ranked.clone();
        sleuth_core::advice::keep_distinct(&mut listed, options.suggestions, pos.unshowable());
        assert_eq!((&advice.suggestions, advice.unshowable), (&listed, pos.unshowable()), "game {i}");
        assert_eq!(advice.accusation, accusation, "game {i}");
        assert_eq!(advice.opponents, opponents, "game {i}");
        states += 1;
        weighed +=
            usize::from(matches!(accusation.reason, AccuseReason::ThreatOutweighs | AccuseReason::WaitingIsBetter));
    }
    assert!(states > 200 && weighed >= 5, "{weighed} of {states} states weigh waiting");
}

/// The shared evaluation of a suggestion (every answer from one count by
/// answer class) against the reference that counts each answer on its own:
/// the same answers, probabilities and posteriors, to the bit, so the same
/// ranking. Classic and master games, 3-10 players, observers and
/// bystanders with seat 0's hand, wrong accusations and face-up cards; the
/// suggestions ranked first, the most likely case file, and others spread
/// over the legal ones (some with the observer's own cards).
#[test]
fn shared_suggestion_evaluation_matches_one_count_per_answer() {
    let (mut states, mut suggestions, mut several, mut ranked_checked) = (0, 0, 0, 0);
    for i in 0..2000 {
        let master = i % 3 == 2;
        let generated = big_game("advice-shared", i, master, if master { 20 } else { 40 }, 0.0);
        let game = generated.player_view().expect("generated games are valid");
        let Ok(pos) = Position::new(&game) else { continue }; // an unlucky accusation
        let legal = pos.legal_suggestions();
        let ranked = pos.rank_suggestions(2).expect("generated games count");
        // The first two (every legal one is ranked where the deals are listed).
        let mut picks: Vec<CardSet> = ranked.iter().take(2).map(|e| e.cards).collect();
        picks.extend((0..3).map(|k| legal[(i as usize * 7919 + k * 104_729) % legal.len()]));
        for cards in picks {
            let shared = pos.evaluate_shared(cards).expect("generated games count").expect("the shared count applies");
            assert_eq!(pos.evaluate(cards).expect("generated games count"), shared, "game {i}");
            let alone = pos.evaluate_one_by_one(cards).expect("generated games count");
            assert_eq!(shared, alone, "game {i}, suggestion {cards:?}");
            suggestions += 1;
            several += usize::from(shared.outcomes.len() > 3);
        }
        // A ranking shares its counts between suggestions with the same
        // cards of uncertain place: each evaluation is still its own.
        if i % 10 == 0 {
            for eval in pos.rank_suggestions(12).expect("generated games count") {
                assert_eq!(eval, pos.evaluate_one_by_one(eval.cards).expect("generated games count"), "game {i}");
                ranked_checked += 1;
            }
        }
        states += 1;
    }
    assert!(states > 1600 && several > suggestions / 2, "{several} of {suggestions} suggestions in {states} states");
    assert!(ranked_checked > 2000, "{ranked_checked} ranked suggestions");
}

/// `advise_with` gives `advise`'s advice, to the bit, and each of its
/// updates is the final ranking's order restricted to the suggestions
/// evaluated so far (the same exact numbers), one more each time, from
/// none to the whole shortlist (or all at once, from the listed deals):
/// classic and master games, 3-10 players, observers and bystanders with
/// seat 0's hand.
#[test]
fn progressive_advice_is_the_advice_and_its_updates_are_exact() {
    use sleuth_core::advice::advise_with;
    let (mut states, mut all_at_once) = (0, 0);
    for i in 0..120 {
        let master = i % 6 == 5;
        let generated = big_game("advice-progressive", i, master, if master { 15 } else { 40 }, 0.0);
        let game = generated.player_view().expect("generated games are valid");
        let options = AdviceOptions {
            samples: 6,
            tell_samples: 0,
            seed: i,
            shortlist: [3, 12][i as usize % 2],
            ..AdviceOptions::default()
        };
        let Ok(advice) = advise(&game, &options) else { continue }; // an unlucky accusation
        let mut updates = Vec::new();
        let progressive = advise_with(&game, &options, |p| {
            assert_eq!((p.models, p.entropy.to_bits()), (advice.models, advice.entropy.to_bits()), "game {i}");
            updates.push((p.suggestions.to_vec(), p.shortlisted));
            true
        })
        .expect("advised before");
        assert_eq!(progressive, advice, "game {i}");
        let pos = Position::new(&game).expect("counted");
        let full = pos.rank_suggestions(options.shortlist).expect("counted");
        // From the listed deals, every legal suggestion at once.
        let listed = pos.evaluate_listed(&pos.legal_suggestions()).expect("counted").is_some();
        let evaluated = |k: usize| if listed { k * full.len() } else { k };
        let expected = if listed { 2 } else { full.len() + 1 };
        assert_eq!(updates.len(), expected, "game {i}: one update before and one after each evaluation");
        for (k, (ranked, shortlisted)) in updates.iter().enumerate() {
            assert_eq!((ranked.len(), *shortlisted), (evaluated(k), full.len()), "game {i}, update {k}");
            let order: Vec<_> = full.iter().filter(|e| ranked.iter().any(|r| r.cards == e.cards)).cloned().collect();
            assert_eq!(ranked, &order, "game {i}, update {k}");
            if k > 0 {
                assert!(updates[k - 1].0.iter().all(|e| ranked.contains(e)), "game {i}, update {k} drops one");
            }
        }
        let mut kept = full.clone();
        sleuth_core::advice::keep_distinct(&mut kept, options.suggestions, pos.unshowable());
        assert_eq!(advice.suggestions, kept, "game {i}");
        all_at_once += usize::from(listed);
        states += 1;
    }
    assert!(states > 100 && all_at_once > 0 && all_at_once < states, "{all_at_once} of {states} states listed");
}

/// An update that answers `false` stops the advice there: no more updates,
/// and `AdviceError::Stopped`.
#[test]
fn progressive_advice_stops_when_asked() {
    use sleuth_core::advice::advise_with;
    let game = Game::from_json(
        r#"{"version": 1, "deck": "classic", "players": ["a", "b", "c"],
        "me": "a", "hand": ["mu", "pl", "kn", "ca", "ha", "lo"], "events": []}"#,
    )
    .expect("a valid game");
    let options = AdviceOptions { samples: 4, tell_samples: 0, ..AdviceOptions::default() };
    for stop_at in 1..4 {
        let mut seen = 0;
        let r = advise_with(&game, &options, |_| {
            seen += 1;
            seen < stop_at
        });
        assert_eq!((r, seen), (Err(AdviceError::Stopped), stop_at), "stopping at update {stop_at}");
    }
}

/// The accusation `advise` reads from its position's own listing of the
/// case files against the best accusation of a position that lists them in
/// a count of their own (`Position::new`): the same file and deals,
/// uncertain case files included, classic and master games.
#[test]
fn the_advice_reads_the_mode_of_a_separate_listing() {
    let options = AdviceOptions { shortlist: 1, samples: 1, tell_samples: 0, ..AdviceOptions::default() };
    let mut uncertain = 0;
    for i in 0..300 {
        let master = i % 3 == 2;
        let generated = big_game("advice-mode", i, master, if master { 20 } else { 40 }, 0.0);
        let game = generated.player_view().expect("generated games are valid");
        let Ok(advice) = advise(&game, &options) else { continue }; // an unlucky accusation
        let separate = Position::new(&game).expect("advice was given").best_accusation().expect("counted");
        assert_eq!((advice.accusation.cards, advice.accusation.deals), separate, "game {i}");
        uncertain += usize::from(!advice.accusation.certain);
    }
    assert!(uncertain > 150, "{uncertain} uncertain case files");
}
