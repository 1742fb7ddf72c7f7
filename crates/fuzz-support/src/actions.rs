//! The engine-actions target: random games of the shipped variants, with random legal moves and
//! random arbitrary actions; `is_legal(a)` must hold, and `apply(a)` succeed, exactly when `a`
//! is in `legal_actions()` (a corner figure on a named corner: when its option is, on one of
//! the option's `corner_points`), and a refused action must leave the game equal to what it
//! was. Odd seeds play with chance steps (draws as [`Action::Draw`], also random and mutated
//! ones).

use tegula_engine::{
    Action, CornerChoice, FollowerOption, Game, MoveTarget, Phase, Placement, Rng,
};

use crate::data::shipped_variants;

/// The input read as a stream of decisions; the game ends when the bytes do.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    /// A small signed number (coordinates, offsets).
    fn small(&mut self) -> Option<i32> {
        Some(i32::from(self.byte()? as i8))
    }
}

/// See the module documentation.
pub fn engine_actions(data: &[u8]) {
    let mut b = Bytes(data);
    let _ = play(&mut b);
}

fn play(b: &mut Bytes) -> Option<()> {
    let all = shipped_variants();
    let (_, rules) = all.get(usize::from(b.byte()?) % all.len().max(1))?;
    let rs = rules.ruleset();
    let span = rs.max_players.saturating_sub(rs.min_players) + 1;
    let players = rs.min_players + b.byte()? % span;
    let seed = (0..4).try_fold(0u64, |s, _| Some(s << 8 | u64::from(b.byte()?)))?;
    let mut game = Game::seeded(rules.clone(), players, seed).ok()?;
    if seed & 1 == 1 {
        game = game.with_chance_steps();
    }
    let mut rng = Rng::new(seed);
    while game.phase() != Phase::Over {
        let op = b.byte()?;
        match op % 4 {
            // Several random legal moves at once, to reach deep states with few bytes.
            0 => {
                for _ in 0..=op / 4 {
                    if game.phase() == Phase::Over {
                        break;
                    }
                    let legal = game.legal_actions();
                    let a = legal[rng.below(legal.len() as u32) as usize];
                    check(&mut game, &legal, a);
                }
            }
            1 => {
                let legal = game.legal_actions();
                let a = named_corner(&game, legal[usize::from(b.byte()?) % legal.len()], b)?;
                check(&mut game, &legal, a);
            }
            2 => {
                let legal = game.legal_actions();
                let listed = named_corner(&game, legal[usize::from(b.byte()?) % legal.len()], b)?;
                let a = near(listed, b)?;
                check(&mut game, &legal, a);
            }
            _ => {
                let legal = game.legal_actions();
                let a = arbitrary(b)?;
                check(&mut game, &legal, a);
            }
        }
    }
    Some(())
}

/// Apply `a` and compare the outcome with the listed actions `legal` (a named corner is
/// listed as its option, on one of the option's corners).
fn check(game: &mut Game, legal: &[Action], a: Action) {
    assert!(!legal.is_empty(), "no legal action in {:?}", game.phase());
    let listed = match a {
        Action::Corner(c) => {
            legal.contains(&Action::Follower(c.option))
                && game.corner_points(c.option).contains(&c.point)
        }
        _ => legal.contains(&a),
    };
    assert_eq!(
        game.is_legal(&a),
        listed,
        "is_legal({a:?}) disagrees with legal_actions"
    );
    let before = snapshot(game);
    let copy = game.clone();
    match game.apply(a) {
        Ok(()) => assert!(
            listed,
            "apply accepted {a:?}, which legal_actions does not list: {legal:?}"
        ),
        Err(e) => {
            assert!(!listed, "apply refused the listed {a:?}: {e}");
            assert_eq!(before, snapshot(game), "the refused {a:?} changed the game");
            assert!(copy == *game, "the refused {a:?} changed the game's state");
        }
    }
}

/// Everything the game shows outside, as text (besides `Eq`: what a refused action must not
/// change, readable in a failure message).
fn snapshot(g: &Game) -> String {
    let rs = g.rules().ruleset();
    let supply: Vec<u8> = (0..g.players())
        .flat_map(|p| (0..rs.followers.len()).map(move |f| (p, f as u8)))
        .map(|(p, f)| g.supply(p, f))
        .collect();
    format!(
        "{:?} {:?}",
        (
            g.phase(),
            g.current_player(),
            g.current_tile(),
            g.turn(),
            g.scores(),
            g.remaining(),
            g.tiles(),
            g.followers(),
        ),
        (
            supply,
            g.events().len(),
            g.events().last(),
            g.legal_actions(),
            g.waiting_figures(),
        )
    )
}

/// A listed corner-figure option on one of its corners (AM-6), as a byte picks; other actions
/// as they are.
fn named_corner(game: &Game, a: Action, b: &mut Bytes) -> Option<Action> {
    let Action::Follower(option) = a else {
        return Some(a);
    };
    let points = game.corner_points(option);
    if points.is_empty() {
        return Some(a);
    }
    let point = points[usize::from(b.byte()?) % points.len()];
    Some(Action::Corner(CornerChoice { option, point }))
}

/// A legal action with one field changed a little: the actions most likely to be wrongly
/// accepted (another segment of the same feature, a neighbouring cell, another rotation).
fn near(a: Action, b: &mut Bytes) -> Option<Action> {
    let d = b.small()?;
    let k = b.byte()?;
    Some(match a {
        Action::Place(p) => Action::Place(match k % 4 {
            0 => Placement {
                x: p.x.wrapping_add(d),
                ..p
            },
            1 => Placement {
                y: p.y.wrapping_add(d),
                ..p
            },
            2 => Placement {
                rotation: p.rotation.wrapping_add(d as u8),
                ..p
            },
            _ => Placement {
                tile: p.tile.wrapping_add(d as u16),
                ..p
            },
        }),
        Action::Follower(o) => Action::Follower(match k % 2 {
            0 => FollowerOption {
                feature: o.feature.wrapping_add(d as u8),
                ..o
            },
            _ => FollowerOption {
                follower: o.follower.wrapping_add(d as u8),
                ..o
            },
        }),
        Action::Move(t) => Action::Move(match k % 3 {
            0 => MoveTarget {
                x: t.x.wrapping_add(d),
                ..t
            },
            1 => MoveTarget {
                y: t.y.wrapping_add(d),
                ..t
            },
            _ => MoveTarget {
                feature: t.feature.wrapping_add(d as u8),
                ..t
            },
        }),
        Action::Take(t) => Action::Take(t.wrapping_add(d as u16)),
        Action::Seat(s) => Action::Seat(s.wrapping_add(d as u8)),
        Action::Draw(t) => Action::Draw(t.wrapping_add(d as u16)),
        Action::Corner(c) => Action::Corner(CornerChoice {
            point: [
                c.point[0].wrapping_add(d),
                c.point[1].wrapping_add(i32::from(k % 3) - 1),
            ],
            ..c
        }),
        _ => arbitrary(b)?,
    })
}

/// Any action at all, its fields from the bytes.
fn arbitrary(b: &mut Bytes) -> Option<Action> {
    Some(match b.byte()? % 8 {
        0 => Action::Place(Placement {
            tile: u16::from(b.byte()?),
            x: b.small()?,
            y: b.small()?,
            rotation: b.byte()? % 6,
        }),
        1 => Action::Follower(FollowerOption {
            feature: b.byte()?,
            follower: b.byte()? % 8,
        }),
        2 => Action::Move(MoveTarget {
            x: b.small()?,
            y: b.small()?,
            feature: b.byte()?,
        }),
        3 => Action::Take(u16::from(b.byte()?)),
        4 => Action::Seat(b.byte()? % 10),
        5 => Action::Draw(u16::from(b.byte()?)),
        6 => Action::Corner(CornerChoice {
            option: FollowerOption {
                feature: b.byte()?,
                follower: b.byte()? % 8,
            },
            point: [b.small()?, b.small()?],
        }),
        _ => Action::Pass,
    })
}
