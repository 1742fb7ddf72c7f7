//! `Game::preset` (scenario `[setup]`, issue 18 item 4): a position set by hand before the first
//! placement is applied whole or refused whole, keeps W-2's take bookkeeping for held pool
//! tiles, and travels with snapshots so that a preset game reads back equal.

use tegula_engine::{Action, Game, Phase, PileOrder, Preset, PresetError};

mod common;
use common::{base, variant_rules};

/// A 2-player Wonders game after the setup picks (seat 0 Notre-Dame, seat 1 Tikal, W-1).
fn wonders_game() -> Game {
    let rules = variant_rules("variants/wonders.toml");
    let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(7), true).unwrap();
    for id in ["notre-dame", "tikal"] {
        assert_eq!(g.phase(), Phase::Pick);
        g.apply(Action::Take(rules.tile_index(id).unwrap()))
            .unwrap();
    }
    g
}

#[test]
fn a_preset_sets_scores_supply_held_tiles_and_pairs() {
    let mut g = wonders_game();
    let rules = g.rules().clone();
    let (nd, meeple) = (
        rules.tile_index("notre-dame").unwrap(),
        rules.follower_index("meeple").unwrap(),
    );
    let large = rules.follower_index("large-meeple").unwrap();
    let before = g.supply(1, meeple);
    let preset = Preset {
        scores: vec![7, 11],
        supply: vec![(0, large, 0)],
        held: vec![(1, nd)],
        track_at: None,
        resources: Vec::new(),
    };
    g.preset(preset.clone()).unwrap();
    assert_eq!(g.scores(), &[7, 11]);
    assert_eq!(g.supply(0, large), 0);
    // W-2: the take's gain (the pair's 2 meeples) and the pairs' move (10 -> 15).
    assert_eq!(g.supply(1, meeple), before + 2);
    assert_eq!(g.track_at(0), 15);
    assert_eq!(g.pool_held(), &[(1, nd)]);
    assert!(!g.pool().contains(&nd));
    assert_eq!(g.preset_applied(), Some((2, &preset)));
    // A snapshot carries the preset: it reads back equal and plays on the same.
    let back = Game::from_json(&g.to_json(), rules.clone()).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.state_hash(), g.state_hash());
}

#[test]
fn a_bad_preset_is_refused_whole() {
    let mut g = wonders_game();
    let rules = g.rules().clone();
    let tikal = rules.tile_index("tikal").unwrap();
    let stonehenge = rules.tile_index("stonehenge").unwrap();
    let untouched = g.clone();
    let bad = |p: Preset| {
        let mut h = untouched.clone();
        let e = h.preset(p).unwrap_err();
        assert_eq!(h, untouched, "{e}: a refused preset changes nothing");
        e
    };
    let scores = vec![1, 2, 3];
    assert!(matches!(
        bad(Preset {
            scores,
            ..Preset::default()
        }),
        PresetError::Seats {
            given: 3,
            players: 2
        }
    ));
    let held = vec![(0, tikal), (2, tikal)];
    assert_eq!(
        bad(Preset {
            held,
            ..Preset::default()
        }),
        PresetError::Seat(2)
    );
    let supply = vec![(0, 9, 1)];
    assert_eq!(
        bad(Preset {
            supply,
            ..Preset::default()
        }),
        PresetError::Follower(9)
    );
    let held = vec![(0, stonehenge)];
    assert_eq!(
        bad(Preset {
            held,
            ..Preset::default()
        }),
        PresetError::NotInPool(stonehenge)
    );
    let held = vec![(0, tikal), (1, tikal)];
    assert_eq!(
        bad(Preset {
            held,
            ..Preset::default()
        }),
        PresetError::NotInPool(tikal)
    );
    // After the first placement, or a second time: too late.
    g.preset(Preset::default()).unwrap();
    assert_eq!(g.preset(Preset::default()), Err(PresetError::TooLate));
    let mut placed = untouched.clone();
    let p = placed.placements()[0];
    placed.apply(Action::Place(p)).unwrap();
    assert_eq!(placed.preset(Preset::default()), Err(PresetError::TooLate));
    // No pool, no pairs.
    let mut b = Game::new(base(), 2, PileOrder::Shuffled(1), true).unwrap();
    let pairs = Preset {
        track_at: Some(5),
        ..Preset::default()
    };
    assert_eq!(b.preset(pairs), Err(PresetError::NoTrack));
}

/// Ordinary games' snapshots have no preset key: their format is unchanged.
#[test]
fn snapshots_without_a_preset_are_unchanged() {
    let g = Game::new(base(), 2, PileOrder::Shuffled(3), true).unwrap();
    assert!(!g.to_json().contains("preset"));
}

/// Seat resources preset by hand (Traders & Builders' goods): applied, part of equality, the
/// state hash and snapshots; a resource the variant lacks or a seat the game lacks is refused.
#[test]
fn a_preset_sets_seat_resources() {
    let rules = variant_rules("variants/traders-builders.toml");
    let fresh = Game::new(rules, 3, PileOrder::Shuffled(5), true).unwrap();
    let mut g = fresh.clone();
    let p = Preset {
        resources: vec![(0, 0, 2), (2, 1, 1)],
        ..Preset::default()
    };
    g.preset(p).unwrap();
    assert_eq!(
        (g.holding(0, 0), g.holding(2, 1), g.holding(1, 0)),
        (2, 1, 0)
    );
    assert_ne!(g, fresh);
    assert_ne!(g.state_hash(), fresh.state_hash());
    let back = Game::from_json(&g.to_json(), g.rules().clone()).unwrap();
    assert_eq!(back, g);
    let mut h = fresh.clone();
    let p = Preset {
        resources: vec![(0, 3, 1)],
        ..Preset::default()
    };
    assert_eq!(h.preset(p), Err(PresetError::Resource(3)));
    let p = Preset {
        resources: vec![(3, 0, 1)],
        ..Preset::default()
    };
    assert_eq!(h.preset(p), Err(PresetError::Seat(3)));
    assert_eq!(h, fresh);
    let mut b = Game::new(base(), 2, PileOrder::Shuffled(1), true).unwrap();
    let p = Preset {
        resources: vec![(0, 0, 1)],
        ..Preset::default()
    };
    assert_eq!(b.preset(p), Err(PresetError::Resource(0)));
}
