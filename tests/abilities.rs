//! The wonders' abilities (W-10 .. W-17) and the open pool (W-1 .. W-4, W-30) as lowered from the
//! shipped data: every expected value below is written out by hand from the rule registry's text
//! (`tegula rules W-10` .. `W-17`), not derived from the data it checks.

use std::path::Path;

use tegula_model::variant::build_variant;
use tegula_ruleset::{
    Ability, Condition, Count, Effect, FeatureKind, Owner, Per, PoolCitations, PoolRules, Ruleset,
    State, Trigger,
};

mod common;
use common::show_diags;

fn build(path: &str) -> Ruleset {
    let (rs, diags) = build_variant(Path::new(path));
    assert!(diags.is_empty(), "{path}:\n{}", show_diags(&diags));
    rs.unwrap()
}

fn index(rs: &Ruleset, id: &str) -> usize {
    rs.tiles
        .iter()
        .position(|t| t.id == id)
        .unwrap_or_else(|| panic!("no tile {id}"))
}

fn abilities<'a>(rs: &'a Ruleset, id: &str) -> &'a [Ability] {
    &rs.tiles[index(rs, id)].abilities
}

fn score(per: Per, count: Count) -> Effect {
    Effect::Score { per, count }
}

/// The wonders in variant order (set I's folder, then set II's, files sorted by name).
const WONDERS: [&str; 8] = [
    "alhambra",
    "circus-maximus",
    "notre-dame",
    "stonehenge",
    "abu-simbel",
    "angkor-wat",
    "terracotta-army",
    "tikal",
];

/// What the rule registry says (W-10 .. W-17), one ability per wonder.
fn expected(rs: &Ruleset) -> Vec<(&'static str, Ability)> {
    let religious = rs
        .tag("religious")
        .expect("the religious tag is in the list");
    vec![
        (
            "notre-dame",
            // W-10: a follower placed on one of the 8 tiles around a cloister-like building;
            // 3 at most per placement; not in the placing turn.
            Ability {
                rule: "W-10".into(),
                when: Trigger::FollowerPlaced,
                conditions: vec![Condition::Near {
                    tag: Some(religious),
                }],
                effect: score(Per::Fixed(3), Count::One),
                not_in_placing_turn: true,
            },
        ),
        (
            "stonehenge",
            // W-11: occupied roads completed in the owner's turn, 3 each; not in the placing turn.
            Ability {
                rule: "W-11".into(),
                when: Trigger::FeatureCompleted {
                    kind: FeatureKind::Road,
                    owners_turn: true,
                },
                conditions: vec![Condition::Occupied],
                effect: score(Per::Fixed(3), Count::One),
                not_in_placing_turn: true,
            },
        ),
        (
            "abu-simbel",
            // W-12: choose from 2 tiles.
            Ability {
                rule: "W-12".into(),
                when: Trigger::Draw,
                conditions: vec![],
                effect: Effect::Hand(2),
                not_in_placing_turn: false,
            },
        ),
        (
            "tikal",
            // W-13: a scored city of >= 3 tiles with an own follower, during the game only;
            // 2 per own follower in any city, whatever its state.
            Ability {
                rule: "W-13".into(),
                when: Trigger::FeatureScored {
                    kind: FeatureKind::City,
                    during_game_only: true,
                },
                conditions: vec![Condition::MinTiles(3), Condition::OwnerPresent],
                effect: score(
                    Per::Fixed(2),
                    Count::Followers {
                        owner: Owner::Own,
                        kind: Some(FeatureKind::City),
                        state: State::Any,
                    },
                ),
                not_in_placing_turn: false,
            },
        ),
        (
            "circus-maximus",
            // W-14: others' followers in incomplete cities; 4 with 2 players, 3 with 3-4, 2 with 5+.
            Ability {
                rule: "W-14".into(),
                when: Trigger::GameEnd,
                conditions: vec![],
                effect: score(
                    Per::ByPlayers(vec![(2, 4), (3, 3), (5, 2)]),
                    Count::Followers {
                        owner: Owner::Others,
                        kind: Some(FeatureKind::City),
                        state: State::Incomplete,
                    },
                ),
                not_in_placing_turn: false,
            },
        ),
        (
            "alhambra",
            // W-15: own farmers, 5 each; 6 with 120 tiles or more.
            Ability {
                rule: "W-15".into(),
                when: Trigger::GameEnd,
                conditions: vec![],
                effect: score(
                    Per::ByTiles(vec![(0, 5), (120, 6)]),
                    Count::Followers {
                        owner: Owner::Own,
                        kind: Some(FeatureKind::Field),
                        state: State::Any,
                    },
                ),
                not_in_placing_turn: false,
            },
        ),
        (
            "angkor-wat",
            // W-16: 5 per road of >= 5 tiles, complete or not.
            Ability {
                rule: "W-16".into(),
                when: Trigger::GameEnd,
                conditions: vec![],
                effect: score(
                    Per::Fixed(5),
                    Count::Features {
                        kind: FeatureKind::Road,
                        min_tiles: 5,
                        state: State::Any,
                        tag: None,
                    },
                ),
                not_in_placing_turn: false,
            },
        ),
        (
            "terracotta-army",
            // W-17: 2 per row and per column with a gap-free run of >= 7 tiles.
            Ability {
                rule: "W-17".into(),
                when: Trigger::GameEnd,
                conditions: vec![],
                effect: score(Per::Fixed(2), Count::LinesWithRun(7)),
                not_in_placing_turn: false,
            },
        ),
    ]
}

#[test]
fn each_wonder_lowers_to_its_ability_w10_to_w17() {
    for path in [
        "variants/wonders.toml",
        "variants/wonders-meadows.toml",
        "variants/wonders-two.toml",
        "variants/abbey-mayor-wonders.toml",
    ] {
        let rs = build(path);
        for (id, want) in expected(&rs) {
            assert_eq!(abilities(&rs, id), [want], "{path}: {id}");
        }
        let with: Vec<&str> = rs
            .tiles
            .iter()
            .filter(|t| !t.abilities.is_empty())
            .map(|t| t.id.as_str())
            .collect();
        assert_eq!(
            with.len(),
            8,
            "{path}: only the wonders have abilities: {with:?}"
        );
    }
}

#[test]
fn the_religious_tag_is_the_cloisters_tag() {
    // W-10, W-22: the tag Notre-Dame's condition names is on the base cloisters and the abbey.
    let rs = build("variants/abbey-mayor-wonders.toml");
    let religious = rs.tag("religious").unwrap();
    for id in ["A", "B", "abbey", "notre-dame"] {
        let t = &rs.tiles[index(&rs, id)];
        assert!(
            t.features
                .iter()
                .any(|f| f.kind == FeatureKind::Cloister && f.tags & (1 << religious) != 0),
            "{id}"
        );
    }
}

/// The pool's thresholds as the model lowered them (a track and a `turn-finished` rule offering
/// pool tiles): the track's start and end, then for each take a seat at a score of 100 can
/// make (its takes so far 0, 1, …) the figures it gains and how far the track moves, and the
/// figure type gained.
fn thresholds(rs: &tegula_ruleset::Ruleset) -> (u32, u32, Vec<(u32, u32)>, u8) {
    use tegula_ruleset::{Act, Counts, Options, Quantity, RuleEvent, Seat};
    struct At(u32);
    impl Counts for At {
        fn count(&mut self, q: Quantity) -> u32 {
            match q {
                Quantity::Taken => self.0,
                Quantity::Score => 100,
                _ => 10,
            }
        }
    }
    let track = &rs.tracks[0];
    let rule = rs
        .when
        .iter()
        .find(|w| w.event == RuleEvent::TurnFinished)
        .unwrap();
    let offer = rule.offer.as_ref().unwrap();
    assert_eq!(offer.options, Options::PoolTile);
    assert!(offer.repeat, "W-3: tested again after every take");
    let Seat::Where(test) = &offer.to else {
        panic!("{:?}", offer.to)
    };
    let (mut takes, mut figure) = (Vec::new(), u8::MAX);
    for k in (0..5).take_while(|&k| test.holds(&mut At(k))) {
        let (mut add, mut by) = (0, 0);
        for a in &offer.then {
            match a {
                Act::Figures {
                    figure: f,
                    add: n,
                    to,
                } => {
                    assert_eq!(*to, Seat::Chooser);
                    (figure, add) = (*f, n.eval(&mut At(k)));
                }
                Act::Advance { by: n, .. } => by = n.eval(&mut At(k)),
                other => panic!("{other:?}"),
            }
        }
        takes.push((add, by));
    }
    (track.start, track.max, takes, figure)
}

#[test]
fn the_wonders_variant_has_the_w1_pool() {
    let rs = build("variants/wonders.toml");
    let tiles: Vec<u16> = WONDERS.iter().map(|w| index(&rs, w) as u16).collect();
    // Base first: 24 types, then the wonders in folder and file order.
    assert_eq!(tiles, (24..32).collect::<Vec<u16>>());
    assert_eq!(
        rs.pool,
        Some(PoolRules {
            tiles,
            pick: 1,         // W-1: each player picks 1 wonder into the pool
            claim_figure: 0, // the pair's meeples (W-1: 6 in supply + 2 = 8 of the 9)
            rules: PoolCitations {
                take: "W-2".into(),
                choice: "W-3".into(),
                place: "W-5".into(),
                fit: "W-6".into(),
                follow: "W-7".into(),
            },
        })
    );
    // W-2: the pairs stand beside score space 10, move 5 after each take and wait at 25; a
    // take gives the pair's two meeples; W-4: one wonder each.
    assert_eq!(thresholds(&rs), (10, 25, vec![(2, 5)], 0));
    assert_eq!(rs.followers[0].id, "meeple");
    assert_eq!(rs.followers[0].count, 6, "W-1: 6 meeples in supply");
    assert_eq!(rs.followers[1].id, "large-meeple", "W-1: one extra type");
    for w in WONDERS {
        assert_eq!(rs.tiles[index(&rs, w)].count, 0, "{w} is not in the pile");
    }
    // 72 base tiles minus the start tile.
    assert_eq!(rs.pile_size(), 71);
}

#[test]
fn the_two_wonder_variant_has_the_w30_pool() {
    let rs = build("variants/wonders-two.toml");
    let pool = rs.pool.as_ref().unwrap();
    assert_eq!(pool.tiles.len(), 8);
    assert_eq!(pool.pick, 2);
    // W-30: 10 meeples = 6 in supply + 2 with the first wonder + 1 with the second + the marker;
    // the second take at 50 does not move the pairs.
    assert_eq!(thresholds(&rs), (10, 25, vec![(2, 5), (1, 0)], 0));
    assert_eq!(rs.followers[usize::from(pool.claim_figure)].id, "meeple");
    assert_eq!(rs.followers[0].count, 6);
    assert_eq!(rs.max_players, 4, "2 of the 8 wonders per player");
}

#[test]
fn a_variant_replaces_the_abilities_of_the_tiles_it_names() {
    let rs = build("tests/fixtures/valid/wonders-house-abilities.toml");
    assert_eq!(
        abilities(&rs, "alhambra"),
        [Ability {
            rule: "W-15".into(),
            when: Trigger::GameEnd,
            conditions: vec![],
            effect: score(
                Per::Fixed(4),
                Count::Followers {
                    owner: Owner::Own,
                    kind: Some(FeatureKind::Field),
                    state: State::Any,
                },
            ),
            not_in_placing_turn: false,
        }]
    );
    let tikal = abilities(&rs, "tikal");
    assert_eq!(tikal.len(), 1);
    assert_eq!(
        tikal[0].when,
        Trigger::FeatureScored {
            kind: FeatureKind::City,
            during_game_only: false
        }
    );
    // The tiles it does not name keep their files' abilities.
    let want = expected(&rs);
    for (id, a) in want
        .iter()
        .filter(|(id, _)| !["alhambra", "tikal"].contains(id))
    {
        assert_eq!(abilities(&rs, id), std::slice::from_ref(a), "{id}");
    }
}

/// `variant explain` says what each ability does, in the words of the rule language's own
/// English (tegula_ruleset's `Ability::words`), at its file and line with a normalised path.
#[test]
fn explain_says_what_each_ability_does() {
    let out = common::tegula(&["variant", "explain", "variants/wonders-fan-made.toml"]);
    common::assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    for said in [
        "tile pont-du-gard: FM-1 When a cloister is completed, if the owner has a figure on the \
         feature: the owner scores 1 per completed road of 3 tiles or more on the board.  \
         [tiles/fan-made/pont-du-gard.toml:",
        "tile abu-simbel: W-12 When the owner draws: the owner holds a hand of 2 tiles",
        "tile circus-maximus: W-14 At the end of the game, before final scoring: the owner scores \
         4 (2 players), 3 (3 to 4 players), 2 (5 players or more) per other player's figure on an \
         incomplete city.",
    ] {
        assert!(text.contains(said), "{said}\nnot in:\n{text}");
    }
    assert!(!text.contains("/../"), "{text}");
}

/// An ability that acts when a feature is scored acts on unoccupied features too, whether or not
/// the game records its events: the engine's shortcut for unoccupied features (nothing to pay)
/// must not skip the abilities (it did when events were off, as in `simulate` and Python).
#[test]
fn scored_abilities_act_the_same_with_and_without_recording() {
    use tegula_engine::{sim, AgentKind, Game, PileOrder, Rules};
    let rs = build("tests/fixtures/valid/wonders-unconditional-scored.toml");
    let rules = std::sync::Arc::new(Rules::new(rs).unwrap());
    let mut fired = 0;
    for seed in 0..40u64 {
        let play = |record: bool| {
            let (pile, seeds) = sim::game_seeds(seed, 0, 2);
            let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(pile), record).unwrap();
            let mut agents = sim::build_agents(&[AgentKind::Random], &seeds);
            sim::play_out(&mut g, &mut agents);
            g
        };
        let (with, without) = (play(true), play(false));
        assert_eq!(with.scores(), without.scores(), "seed {seed}");
        fired += with.ability_points().len();
    }
    assert!(fired > 0, "no ability ever acted: the test shows nothing");
}
