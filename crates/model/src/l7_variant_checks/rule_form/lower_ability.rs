//! A tile's `[[ability]]` lowered to a rule of the one form the tile carries
//! ([`When::tile`]; docs/design/rule-form.md, "Lowered: abilities"): the engine runs it once per
//! owned tile of the type, in the order the tiles got their owners, for the tile's owner. The
//! trigger becomes the event, the conditions and `owners_turn`/`not_in_placing_turn` the test,
//! the points table and the count one value, the effect one act to the owner.
//!
//! | ability | one form |
//! |---|---|
//! | `follower-placed` | `figure-placed`, test `owner_figure > 0` |
//! | `feature-completed`, `owners_turn` | `feature-completed { kinds = [K] }`, `owner_acts > 0` |
//! | `feature-scored`, `during_game_only` | `feature-scored { kinds = [K], at = "game" }` |
//! | `game-end`, `draw` | `game-end`, `draw` |
//! | `not_in_placing_turn` | `not placed_this_turn > 0` |
//! | `near_building = T`, `occupied`, `min_tiles = N`, `owner_present` | `near(T) > 0`, `occupants > 0`, `tiles >= N`, `owner_figures > 0` |
//! | `score = { per…, count… }` | `score = PER * COUNT` to `owner` (`per_players`/`per_tiles`: `if players >= …`) |
//! | `gain`, `extra_turn`, `hand` | `gain` to `owner`, `extra_turn` (test `owner_acts > 0`), `hand` to `owner` |

use std::path::PathBuf;

use tegula_ruleset::{
    Ability, Act, Compare, Condition, Count, Effect, Expr, Per, Quantity, RuleEvent, ScoredAt,
    Seat, Test, Trigger, When,
};

use crate::abilities::AbilityDef;
use crate::diag::Source;

/// The rules the abilities of `tiles` lower to (tile by tile, each tile's in its order), with
/// where each ability was written: `source(i, def)` is the file of tile `i`'s ability `def`.
/// `tags` and `resources` name the variant's tags and resource ids.
pub fn ability_rules<'a>(
    tiles: &[crate::compile::CompiledTile],
    (tags, resources): (&[String], &[String]),
    source: impl Fn(usize, &AbilityDef) -> &'a Source,
) -> Vec<(When, (PathBuf, usize))> {
    let mut out = Vec::new();
    for (i, t) in tiles.iter().enumerate() {
        let lowered = crate::abilities::lower(&t.abilities, tags);
        for (def, a) in t.abilities.iter().zip(lowered) {
            let src = source(i, def);
            let (file, local) = src.origin(def.span.start);
            let at = (crate::reach::normalize(&file.path), file.line_col(local).0);
            out.push((ability_rule(i as u16, &a, resources), at));
        }
    }
    out
}

/// Ability `a` of tile type `tile` as the rule the tile carries.
pub fn ability_rule(tile: u16, a: &Ability, resources: &[String]) -> When {
    let (event, mut tests) = event(a.when);
    if a.not_in_placing_turn {
        tests.push(Test::Not(Box::new(is(Quantity::PlacedThisTurn))));
    }
    tests.extend(a.conditions.iter().map(condition));
    let act = match &a.effect {
        Effect::Score { per, count } => Act::Score {
            value: score_value(per, count),
            to: Seat::Owner,
        },
        Effect::Gain { resource, amount } => Act::Gain {
            // The validator refuses an unknown resource; the index past the list gains nothing.
            resource: resources
                .iter()
                .position(|r| r == resource)
                .map_or(u16::MAX - 1, |r| r as u16),
            amount: amount.clone(),
            to: Seat::Owner,
            spend: false,
        },
        Effect::ExtraTurn => {
            if !tests.contains(&is(Quantity::OwnerActs)) {
                tests.push(is(Quantity::OwnerActs));
            }
            Act::ExtraTurn
        }
        Effect::Hand(n) => Act::Hand {
            size: *n,
            to: Seat::Owner,
        },
    };
    let test = tests
        .into_iter()
        .reduce(|a, b| Test::And(Box::new(a), Box::new(b)));
    When {
        rule: a.rule.clone(),
        event,
        test,
        then: vec![act],
        offer: None,
        tile: Some(tile),
    }
}

/// The event of a trigger, with the tests the trigger itself made.
fn event(when: Trigger) -> (RuleEvent, Vec<Test>) {
    match when {
        Trigger::FollowerPlaced => (
            RuleEvent::FigurePlaced { figure: None },
            vec![is(Quantity::OwnerFigure)],
        ),
        Trigger::FeatureCompleted { kind, owners_turn } => (
            RuleEvent::FeatureCompleted { kinds: vec![kind] },
            if owners_turn {
                vec![is(Quantity::OwnerActs)]
            } else {
                Vec::new()
            },
        ),
        Trigger::FeatureScored {
            kind,
            during_game_only,
        } => {
            let at = if during_game_only {
                ScoredAt::Game
            } else {
                ScoredAt::Any
            };
            let event = RuleEvent::FeatureScored {
                kinds: vec![kind],
                at,
            };
            (event, Vec::new())
        }
        Trigger::GameEnd => (RuleEvent::GameEnd, Vec::new()),
        Trigger::Draw => (RuleEvent::Draw { tag: None }, Vec::new()),
    }
}

/// A condition as a test.
fn condition(c: &Condition) -> Test {
    match *c {
        Condition::Near { tag } => is(Quantity::Near(tag)),
        Condition::Occupied => is(Quantity::Occupants),
        Condition::MinTiles(n) => Test::Cmp(
            Compare::Ge,
            Box::new(Expr::Count(Quantity::Tiles)),
            Box::new(Expr::Int(n)),
        ),
        Condition::OwnerPresent => is(Quantity::OwnerFigures),
    }
}

/// `q > 0`.
fn is(q: Quantity) -> Test {
    Test::Cmp(
        Compare::Gt,
        Box::new(Expr::Count(q)),
        Box::new(Expr::Int(0)),
    )
}

/// The points per counted thing times the count.
pub fn score_value(per: &Per, count: &Count) -> Expr {
    let per = match per {
        Per::Fixed(v) => Expr::Int(*v),
        Per::ByPlayers(t) => {
            let steps: Vec<(u32, u32)> = t.iter().map(|&(k, v)| (u32::from(k), v)).collect();
            table(Quantity::Players, &steps)
        }
        Per::ByTiles(t) => table(Quantity::GameTiles, t),
        Per::Value(e) => e.clone(),
    };
    let count = match *count {
        Count::One => return per,
        Count::Followers { owner, kind, state } => Quantity::Figures {
            whose: owner,
            kind,
            state,
        },
        Count::Features {
            kind,
            min_tiles,
            state,
            tag,
        } => Quantity::Features {
            kind,
            min_tiles,
            state,
            tag,
        },
        Count::LinesWithRun(run) => Quantity::Lines(run),
    };
    Expr::Mul(Box::new(per), Box::new(Expr::Count(count)))
}

/// The entry of `(least, points)` steps with the largest `least` not above `q` (0 below every
/// step): `if q >= LAST then … else if … else 0` (a step from 0 is the last `else`).
fn table(q: Quantity, steps: &[(u32, u32)]) -> Expr {
    let mut sorted = steps.to_vec();
    sorted.sort_by_key(|s| s.0);
    // A step from 0 holds whatever the count: it is the value below the others.
    let (below, rest) = match sorted.split_first() {
        Some(((0, points), rest)) => (Expr::Int(*points), rest),
        _ => (Expr::Int(0), &sorted[..]),
    };
    rest.iter().fold(below, |below, &(least, points)| {
        let test = Test::Cmp(
            Compare::Ge,
            Box::new(Expr::Count(q)),
            Box::new(Expr::Int(least)),
        );
        Expr::If(Box::new(test), Box::new(Expr::Int(points)), Box::new(below))
    })
}
