//! Property tests of seat resources on Traders & Builders (`variants/traders-builders.toml`,
//! TB-1 .. TB-3): over random games, the goods taken of each kind are exactly the symbols of that
//! kind on the cities completed during play (recomputed from scratch by the naive reference,
//! `tegula_engine::naive::features`), so never more than the symbols on completed cities nor
//! than the box's symbols; each seat's holding is the sum of its gain events; the awards go to
//! the most holders (ties all, never for zero); and snapshots carry the holdings.

mod common;

use proptest::prelude::*;
use tegula_engine::{naive, Agent, Event, Game, Phase, PileOrder, RandomAgent};
use tegula_ruleset::FeatureKind;

/// The symbols of each resource's tag (in the ruleset's resource order) on the cities complete
/// at the end, from scratch.
fn symbols_on_completed_cities(g: &Game) -> Vec<u32> {
    let rs = g.rules().ruleset();
    let tiles = g.tiles();
    let mut out = vec![0; rs.resources.len()];
    for f in naive::features(g) {
        if f.kind != FeatureKind::City || !f.complete {
            continue;
        }
        for (r, res) in rs.resources.iter().enumerate() {
            let tag = rs
                .tag(&res.id)
                .expect("each resource counts the tag of its name");
            let tagged = |&&(i, fi): &&(usize, u8)| {
                let feat = &rs.tiles[tiles[i].tile as usize].features[fi as usize];
                feat.tags & (1 << tag) != 0
            };
            out[r] += f.members.iter().filter(tagged).count() as u32;
        }
    }
    out
}

fn play(seed: u64, players: u8) -> Game {
    let rules = common::variant_rules("variants/traders-builders.toml");
    let mut g = Game::new(rules, players, PileOrder::Shuffled(seed), true).unwrap();
    let mut agent = RandomAgent::new(seed ^ 0x600D);
    while g.phase() != Phase::Over {
        match g.phase() {
            Phase::Place => {
                let i = agent.choose_placement(&g, g.placements());
                assert!(g.play_placement(i));
            }
            _ => {
                let c = agent.choose_follower(&g, g.follower_options());
                assert!(g.play_follower(c));
            }
        }
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn goods_are_conserved(seed in any::<u64>(), players in 2u8..=5) {
        let g = play(seed, players);
        let rs = g.rules().ruleset();
        let n = rs.resources.len();
        prop_assert_eq!(n, 3);
        let mut gained = vec![0u32; n];
        let mut by_seat = vec![0u32; n * players as usize];
        for e in g.events() {
            if let Event::Gain { rule, player, resource, amount, .. } = e {
                prop_assert_eq!(rule.as_str(), "TB-2");
                let r = rs.resources.iter().position(|x| &x.id == resource).unwrap();
                gained[r] += amount;
                by_seat[*player as usize * n + r] += amount;
            }
        }
        // TB-2: every completed city was completed during play (final scoring completes
        // nothing), and its placer took each of its symbols once.
        let symbols = symbols_on_completed_cities(&g);
        prop_assert_eq!(&gained, &symbols);
        for (r, box_symbols) in [9u32, 6, 5].into_iter().enumerate() {
            prop_assert!(gained[r] <= box_symbols);
        }
        prop_assert_eq!(g.holdings(), &by_seat[..]);
        // TB-3: one award event per kind somebody holds, to exactly the most holders.
        for (r, res) in rs.resources.iter().enumerate() {
            let held: Vec<u32> = (0..players).map(|p| g.holding(p, r)).collect();
            let best = held.iter().copied().max().unwrap_or(0);
            let want: Vec<u8> = (0..players).filter(|&p| best > 0 && held[p as usize] == best).collect();
            let awards: Vec<&Event> = g.events().iter().filter(|e| {
                matches!(e, Event::Award { resource, .. } if *resource == res.id)
            }).collect();
            match awards.as_slice() {
                [] => prop_assert!(want.is_empty()),
                [Event::Award { players: got, points, held: h, rule, .. }] => {
                    prop_assert_eq!(got, &want);
                    prop_assert_eq!((*points, *h, rule.as_str()), (10, best, "TB-3"));
                }
                more => prop_assert!(false, "{} award events for {}", more.len(), res.id),
            }
        }
        // The holdings survive a snapshot (they replay from the decisions).
        let back = Game::from_json(&g.to_json(), g.rules().clone()).unwrap();
        prop_assert_eq!(back.holdings(), g.holdings());
        prop_assert_eq!(back.state_hash(), g.state_hash());
    }
}
