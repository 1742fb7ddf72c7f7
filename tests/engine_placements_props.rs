//! The fast placement generator against the naive checker on every shipped variant (B-2, AM-1,
//! W-5, W-6, W-12): whatever form the generator keeps its result in (words decoded on demand for
//! single-cell tiles, an explicit list otherwise), [`Game::placements`] equals
//! [`Game::naive_placements`], [`Game::placement_count`] is its length, a clone lists the same
//! placements, and an agent that picks by count plays the same games as one that is handed the
//! list. The draw's count and the pick by index (which skips whole blocks of frontier cells by
//! the per-block counts the draw leaves, issue 19) are checked at every draw against the naive
//! generator, through clones, `clone_from` copies and restarted games.

mod common;

use std::path::Path;
use std::sync::Arc;

use tegula_engine::sim::play_out;
use tegula_engine::{
    naive, Action, Agent, FollowerOption, Game, MoveTarget, Phase, PileOrder, Placement,
    RandomAgent, Rules,
};

/// Every shipped variant, the house rules included.
fn shipped() -> Vec<std::path::PathBuf> {
    let mut all = common::toml_files("variants");
    all.extend(common::toml_files("variants/house"));
    assert!(all.len() > 20, "variants found: {all:?}");
    all
}

fn rules_of(path: &Path) -> Arc<Rules> {
    let (rs, diags) = tegula_model::variant::build_variant(path);
    let rs = rs.unwrap_or_else(|| panic!("{} does not build: {diags:?}", path.display()));
    Arc::new(Rules::new(rs).expect("playable"))
}

/// Play `g` to its end with seeded random agents, running `check` at every placement phase and
/// `after` after every move (with the number of phases checked so far); returns that number.
fn play_checking(
    g: &mut Game,
    seed: u64,
    what: &str,
    check: fn(&Game, &str),
    mut after: impl FnMut(&mut Game, usize),
) -> usize {
    let mut agents =
        tegula_engine::sim::build_agents(&[tegula_engine::AgentKind::Random], &[seed, seed + 1]);
    let mut checked = 0;
    while g.phase() != Phase::Over {
        if matches!(g.phase(), Phase::Place | Phase::Hand) {
            check(g, &format!("{what} turn {}", g.turn()));
            checked += 1;
        }
        assert!(tegula_engine::sim::play_one(g, &mut agents), "{what}");
        after(g, checked);
    }
    checked
}

/// The placements of the phase as the fast generator gives them, checked against the naive
/// generator and the count; `what` names the game for the message.
fn check_placements(g: &Game, what: &str) {
    let listed = g.placements();
    assert_eq!(g.placement_count(), listed.len(), "{what}");
    let mut fast = listed.to_vec();
    fast.sort_unstable();
    let naive = g.naive_placements();
    assert_eq!(fast, naive, "{what}");
    // A clone starts without the decoded list and decodes the same one, in the same order.
    assert_eq!(g.clone().placements(), listed, "{what}");
}

#[test]
fn fast_placements_equal_naive_on_every_shipped_variant() {
    for path in shipped() {
        let rules = rules_of(&path);
        for seed in 0..2u64 {
            let what = format!("{} seed {seed}", path.display());
            let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(seed), false).unwrap();
            let checked = play_checking(&mut g, seed, &what, check_placements, |_, _| {});
            assert!(checked > 10, "{what}: {checked} placement phases");
            if let Err(e) = naive::audit(&g) {
                panic!("{what}: {e}");
            }
        }
    }
}

/// A random agent that is only ever handed the whole list (the trait's default
/// `choose_placement_of`), as an agent written before the count existed is.
struct ListOnly(RandomAgent);

impl Agent for ListOnly {
    fn choose_placement(&mut self, game: &Game, options: &[Placement]) -> usize {
        self.0.choose_placement(game, options)
    }
    fn choose_follower(&mut self, game: &Game, options: &[FollowerOption]) -> Option<usize> {
        self.0.choose_follower(game, options)
    }
    fn choose_own_tile(&mut self, game: &Game, options: &[Placement]) -> Option<usize> {
        self.0.choose_own_tile(game, options)
    }
    fn choose_move(&mut self, game: &Game, options: &[MoveTarget]) -> Option<usize> {
        self.0.choose_move(game, options)
    }
    fn choose_pool(&mut self, game: &Game, n: usize) -> usize {
        self.0.choose_pool(game, n)
    }
    // The rule form's choices (issue 30) are no placements: the same random answers both ways.
    fn choose_step(
        &mut self,
        game: &Game,
        options: &[FollowerOption],
        choices: usize,
    ) -> Option<usize> {
        self.0.choose_step(game, options, choices)
    }
    fn choose_offer(&mut self, game: &Game, n: usize, may_decline: bool) -> Option<usize> {
        self.0.choose_offer(game, n, may_decline)
    }
}

#[test]
fn picking_by_count_plays_the_same_games_as_picking_from_the_list() {
    for path in shipped() {
        let rules = rules_of(&path);
        for seed in 0..2u64 {
            let play = |by_count: bool| {
                let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(seed), true).unwrap();
                let mut agents: Vec<Box<dyn Agent + Send>> = (0..2)
                    .map(|p| {
                        let a = RandomAgent::new(seed * 2 + p);
                        if by_count {
                            Box::new(a) as Box<dyn Agent + Send>
                        } else {
                            Box::new(ListOnly(a))
                        }
                    })
                    .collect();
                play_out(&mut g, &mut agents);
                g
            };
            let (a, b) = (play(true), play(false));
            assert_eq!(a.events(), b.events(), "{} seed {seed}", path.display());
            assert!(a == b, "{} seed {seed}", path.display());
        }
    }
}

/// The count and the placement each index plays, against the naive generator: the count equals
/// the naive list's length, and placement `i` (played on a copy) is the decoded list's `i`-th,
/// which is in the naive list. About a dozen indices per phase, the first and last included.
fn check_indices(g: &Game, what: &str) {
    let naive = g.naive_placements();
    assert_eq!(g.placement_count(), naive.len(), "{what}: count");
    let listed = g.placements().to_vec();
    let n = naive.len();
    let step = (n / 12).max(1);
    for i in (0..n).step_by(step).chain(n.checked_sub(1)) {
        let mut h = g.clone();
        assert!(h.play_placement(i), "{what}: index {i} of {n}");
        let Some(&Action::Place(p)) = h.history().last() else {
            panic!("{what}: index {i} played no placement");
        };
        assert_eq!(p, listed[i], "{what}: index {i} of {n}");
        assert!(
            naive.binary_search(&p).is_ok(),
            "{what}: {p:?} is not legal"
        );
    }
}

/// Every draw of seeded random games on every shipped variant, each game played on copies:
/// every other move on a `clone_from` copy into a game that held another position (the
/// per-block counts travel with the copy, not recomputed), the others on a plain clone; the
/// second game of each variant on a restarted game. Checked to fail when the draw leaves stale
/// block counts or a clone drops them.
#[test]
fn counts_and_picks_equal_naive_at_every_draw() {
    for path in shipped() {
        let rules = rules_of(&path);
        let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(7), false).unwrap();
        let mut other = g.clone();
        for seed in 0..2u64 {
            if seed > 0 {
                g.restart(PileOrder::Shuffled(seed)).unwrap();
            }
            let what = format!("{} seed {seed}", path.display());
            let draws = play_checking(&mut g, seed, &what, check_indices, |g, draws| {
                if draws % 2 == 0 {
                    other.clone_from(g);
                    std::mem::swap(g, &mut other);
                } else {
                    *g = g.clone();
                }
            });
            assert!(draws > 10, "{what}: {draws} placement phases");
        }
    }
}
