//! The game state in parts (issue 34). `Game::restart` sets up the game `Game::new` sets up: on
//! every shipped variant (`variants/*.toml`, `variants/house/*.toml`), with the fewest and the
//! most seats, recording or not, with and without chance steps, and with a scripted pile, a game
//! played some random moves (none, a few, many, to its end) and then restarted equals a new game
//! of the new pile — every part of the state, the hash, and the games that follow from both.
//! Every part's invariants (`Game::check_parts`) hold after every one of those moves.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use tegula_engine::{Game, Phase, PileOrder, Rng, Rules};

fn shipped() -> Vec<PathBuf> {
    let mut all = common::toml_files(common::root().join("variants"));
    all.extend(common::toml_files(common::root().join("variants/house")));
    assert!(all.len() > 20, "variants found: {all:?}");
    all
}

fn rules_of(path: &std::path::Path) -> Arc<Rules> {
    let (rs, diags) = tegula_model::variant::build_variant(path);
    let rs = rs.unwrap_or_else(|| panic!("{} does not build: {diags:?}", path.display()));
    Arc::new(Rules::new(rs).expect("playable"))
}

/// Up to `n` random legal moves (chance outcomes included); fewer if the game ends. The parts'
/// invariants hold before and after each.
fn random_moves(g: &mut Game, rng: &mut Rng, n: usize) {
    for _ in 0..n {
        if let Err(e) = g.check_parts() {
            panic!("{e} after {:?}", g.history().last());
        }
        if g.phase() == Phase::Over {
            return;
        }
        let actions = g.legal_actions();
        assert!(!actions.is_empty(), "a running game has a legal action");
        let a = actions[rng.below(actions.len() as u32) as usize];
        g.apply(a).expect("a legal action applies");
    }
    if let Err(e) = g.check_parts() {
        panic!("{e} after {:?}", g.history().last());
    }
}

/// How a game is made: seats, recording, chance steps.
#[derive(Clone, Copy, Debug)]
struct Setup {
    players: u8,
    record: bool,
    chance: bool,
}

impl Setup {
    fn game(self, rules: &Arc<Rules>, pile: PileOrder) -> Game {
        let g = Game::new(rules.clone(), self.players, pile, self.record).expect("sets up");
        if self.chance {
            g.with_chance_steps()
        } else {
            g
        }
    }
}

/// `g` restarted with `pile` against a new game of `pile`: equal, hashing alike, and the same
/// game when both are played on with the same random moves.
fn check_restart(mut g: Game, fresh: Game, pile: PileOrder, what: &str) {
    g.restart(pile)
        .unwrap_or_else(|e| panic!("{what}: restart refused: {e}"));
    assert!(g == fresh, "{what}: restarted game differs from a new one");
    assert_eq!(g.state_hash(), fresh.state_hash(), "{what}: hash");
    let (mut a, mut b) = (g, fresh);
    random_moves(&mut a, &mut Rng::new(99), 60);
    random_moves(&mut b, &mut Rng::new(99), 60);
    assert!(a == b, "{what}: the games diverge after the restart");
}

#[test]
fn a_restarted_game_equals_a_new_one_on_every_shipped_variant() {
    for path in shipped() {
        let rules = rules_of(&path);
        let rs = rules.ruleset();
        let seats = [rs.min_players.max(1), rs.max_players];
        for (i, players) in seats.into_iter().enumerate() {
            for (j, moves) in [0, 5, 40, usize::MAX].into_iter().enumerate() {
                let setup = Setup {
                    players,
                    record: j % 2 == 0,
                    chance: (i + j) % 2 == 1,
                };
                let what = format!("{} {setup:?} after {moves} moves", path.display());
                let mut g = setup.game(&rules, PileOrder::Shuffled(1));
                random_moves(&mut g, &mut Rng::new(j as u64), moves);
                let fresh = setup.game(&rules, PileOrder::Shuffled(2));
                check_restart(g, fresh, PileOrder::Shuffled(2), &what);
            }
        }
    }
}

/// A scripted pile restarts into the game a new game of the same script is (its board is
/// sized for the script, so the comparison is with a game set up for the script).
#[test]
fn a_restarted_scripted_game_equals_a_new_one_on_every_shipped_variant() {
    for path in shipped() {
        let rules = rules_of(&path);
        let rs = rules.ruleset();
        let setup = Setup {
            players: rs.min_players.max(2).min(rs.max_players),
            record: true,
            chance: false,
        };
        let shuffled = setup.game(&rules, PileOrder::Shuffled(5));
        let script = shuffled.pile().to_vec();
        let what = format!("{} scripted", path.display());
        let mut g = setup.game(&rules, PileOrder::Scripted(script.clone()));
        random_moves(&mut g, &mut Rng::new(3), 30);
        let fresh = setup.game(&rules, PileOrder::Scripted(script.clone()));
        check_restart(g, fresh, PileOrder::Scripted(script), &what);
    }
}
