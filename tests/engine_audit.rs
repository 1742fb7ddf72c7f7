//! Rules audit of the engine (B-2, B-5 in the rule registry): follower options are one per board
//! feature, a follower of strength 0 wins nothing, and an unplaceable last tile ends the game
//! with the final scoring. Expected values are worked out by hand in the comments.

mod common;
use common::base;

use std::collections::BTreeSet;
use std::sync::Arc;

use tegula_engine::{
    testkit, Action, Agent, Event, FollowerOption, Game, Phase, PileOrder, RandomAgent, Rules,
};

/// The board feature of tile-local feature `feature` of the tile just placed.
fn root_of(g: &Game, feature: u8) -> u32 {
    let t = *g.tiles().last().expect("a tile was placed");
    let name = g.rules().feature_name(t.tile, feature).to_string();
    g.feature_id(t.x, t.y, &name)
        .expect("feature of the placed tile")
        .0
}

/// B-2: "place one follower on an unoccupied feature of the tile just placed" — the choice is a
/// board feature, so two segments of the new tile that belong to the same connected feature are
/// one option, and every legal (feature, follower type) is still offered once.
#[test]
fn b2_follower_options_are_one_per_board_feature() {
    let rules = base();
    let mut merged_turns = 0;
    for seed in 0..60u64 {
        let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(seed), false).unwrap();
        let mut agent = RandomAgent::new(seed ^ 0x5eed);
        while g.phase() != Phase::Over {
            if g.phase() == Phase::Place {
                let i = agent.choose_placement(&g, g.placements());
                assert!(g.play_placement(i));
                continue;
            }
            // Every legal choice by the checked API, keyed by (board feature, follower type).
            let t = *g.tiles().last().unwrap();
            let rs = g.rules().ruleset();
            let mut legal = BTreeSet::new();
            let mut legal_segments = 0;
            for feature in 0..rs.tiles[t.tile as usize].features.len() as u8 {
                for follower in 0..rs.followers.len() as u8 {
                    if g.check_follower(FollowerOption { feature, follower })
                        .is_ok()
                    {
                        legal.insert((root_of(&g, feature), follower));
                        legal_segments += 1;
                    }
                }
            }
            let offered: Vec<(u32, u8)> = g
                .follower_options()
                .iter()
                .map(|o| (root_of(&g, o.feature), o.follower))
                .collect();
            let offered_set: BTreeSet<(u32, u8)> = offered.iter().copied().collect();
            assert_eq!(
                offered.len(),
                offered_set.len(),
                "a board feature offered twice"
            );
            assert_eq!(
                offered_set, legal,
                "options differ from the checked choices"
            );
            if legal_segments > legal.len() {
                merged_turns += 1;
            }
            let c = agent.choose_follower(&g, g.follower_options());
            assert!(g.play_follower(c));
        }
    }
    // The situation does arise in random games (a field reaching both sides of a road tile,
    // a city entering a tile twice), so the test above is not vacuous.
    assert!(merged_turns > 0, "no turn with two segments in one feature");
}

/// B-5: "Top strength 0 -> no one scores". A follower type of strength 0 alone on a completed
/// city: the city (D + E, 2 tiles x 2 = 4) is scored for nobody, and the follower returns (B-4).
#[test]
fn b5_strength_zero_follower_scores_nothing() {
    let mut rs = testkit::base_ruleset();
    let mut ghost = rs.followers[0].clone();
    ghost.id = "ghost".to_string();
    ghost.name = "Ghost".to_string();
    ghost.count = 1;
    ghost.strength = tegula_ruleset::Strength::Fixed(0);
    rs.followers.push(ghost);
    let rules = Arc::new(Rules::new(rs).unwrap());
    let e = rules.tile_index("E").unwrap();
    let u = rules.tile_index("U").unwrap();
    let mut g = Game::scripted(rules.clone(), 2, vec![e, u]).unwrap();
    g.place(0, -1, 2).unwrap(); // E's city faces south onto D's city: complete (B-3)
    let city = rules.feature_index(e, "city").unwrap();
    let ghost = rules.follower_index("ghost").unwrap();
    g.apply(Action::Follower(FollowerOption {
        feature: city,
        follower: ghost,
    }))
    .unwrap();
    assert_eq!(g.scores(), &[0, 0]);
    let scored: Vec<(Vec<u8>, u32)> = g
        .events()
        .iter()
        .filter_map(|ev| match ev {
            Event::Score {
                players, points, ..
            } => Some((players.clone(), *points)),
            _ => None,
        })
        .collect();
    assert_eq!(scored, vec![(vec![], 4)]);
    assert_eq!(g.supply(0, ghost), 1, "the follower returns (B-4)");
}

/// B-2: an unplaceable tile is discarded; when it is the last tile of the pile the game ends
/// and the final scoring (B-6) runs. After E closes D's city every open side on the board is
/// road or field, so C (city on all four sides) fits nowhere. Seat 0's meeple on D's road
/// (D + U, open at both ends: 2 tiles) scores 2 at the end.
#[test]
fn b2_unplaceable_last_tile_ends_the_game() {
    let rules = base();
    let [e, u, c] = ["E", "U", "C"].map(|t| rules.tile_index(t).unwrap());
    let mut g = Game::scripted(rules.clone(), 2, vec![e, u, c]).unwrap();
    g.place(0, -1, 2).unwrap();
    g.apply(Action::Pass).unwrap();
    g.place(1, 0, 0).unwrap();
    let road = rules.feature_index(u, "road").unwrap();
    g.apply(Action::Follower(FollowerOption {
        feature: road,
        follower: 0,
    }))
    .unwrap();
    assert_eq!(
        g.phase(),
        Phase::Over,
        "the last tile is unplaceable: the game is over"
    );
    assert_eq!(g.remaining(), 0);
    let discards = g
        .events()
        .iter()
        .filter(|ev| matches!(ev, Event::Discard { tile, .. } if tile == "C"))
        .count();
    assert_eq!(discards, 1);
    assert!(matches!(g.events().last(), Some(Event::End { .. })));
    assert_eq!(g.scores(), &[0, 2]);
}
