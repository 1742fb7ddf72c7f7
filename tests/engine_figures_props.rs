//! Property tests of figures built from generic properties (issue 21 items 3 and 4) on the
//! shipped variants that use them (`variants/traders-builders.toml`,
//! `variants/abbey-mayor-traders.toml`): in random games that place builders and pigs often, an
//! extra turn (TB-5) never earns another, the seat that earned it plays it, and none is taken
//! with the pile empty; no builder or pig stands where its owner had no figure when it came
//! (TB-4, TB-7); every seat's figures are conserved; final scoring equals the from-scratch
//! recount with the pig's modifier (B-6, TB-8, AM-9); the same game played with chance steps
//! is the same game event for event; logs replay and snapshots read back equal.

mod common;

use std::sync::Arc;

use tegula_engine::{log, naive, Action, Event, Game, Phase, PileOrder, Rules};

/// A small generator for the test's own choices (xorshift64*).
struct Pick(u64);

impl Pick {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// A decision that favours the figures that do not occupy (builder, pig) whenever offered, so
/// that the batch holds many extra turns and pig payments.
fn choose(g: &Game, pick: &mut Pick) -> Action {
    let actions = g.legal_actions();
    let rs = g.rules().ruleset();
    let guests: Vec<&Action> = actions
        .iter()
        .filter(|a| matches!(a, Action::Follower(o) if !rs.followers[o.follower as usize].occupies))
        .collect();
    if !guests.is_empty() && pick.below(4) > 0 {
        return *guests[pick.below(guests.len())];
    }
    actions[pick.below(actions.len())]
}

/// TB-5: after an extra-turn event the same seat places next, and the turn it plays earns none.
fn extra_turns_never_chain(g: &Game) -> Result<usize, String> {
    let events = g.events();
    let mut count = 0;
    for (i, e) in events.iter().enumerate() {
        let Event::ExtraTurn { player, rule, .. } = e else {
            continue;
        };
        count += 1;
        if rule != "TB-5" {
            return Err(format!("extra turn cites {rule}"));
        }
        let place = events[i + 1..].iter().find_map(|e| match e {
            Event::Place { turn, player, .. } => Some((*turn, *player)),
            _ => None,
        });
        let Some((turn, seat)) = place else {
            return Err("an extra turn with no placement after it (the pile was empty)".into());
        };
        if seat != *player {
            return Err(format!(
                "seat {player} earned the extra turn, seat {seat} played"
            ));
        }
        let chained = events
            .iter()
            .any(|e| matches!(e, Event::ExtraTurn { turn: t, .. } if *t == turn));
        if chained {
            return Err(format!("the extra turn {turn} earned another"));
        }
    }
    Ok(count)
}

/// One game, played twice at once: without and with chance steps (draws decided by the seeded
/// order); both must be the same game. Returns the game without chance steps.
fn play(rules: &Arc<Rules>, players: u8, seed: u64) -> Game {
    let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
    let mut c = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
    c.set_chance_steps(true);
    let mut pick = Pick(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    while g.phase() != Phase::Over {
        while c.phase() == Phase::Draw {
            assert!(
                c.draw_default(),
                "seed {seed}: a chance step that cannot draw"
            );
        }
        assert_eq!(c.current_player(), g.current_player(), "seed {seed}");
        common::conserved(&g).unwrap_or_else(|e| panic!("seed {seed}, turn {}: {e}", g.turn()));
        let a = choose(&g, &mut pick);
        g.apply(a).unwrap();
        c.apply(a).unwrap();
    }
    while c.phase() == Phase::Draw {
        assert!(c.draw_default());
    }
    assert_eq!(
        c.events(),
        g.events(),
        "seed {seed}: chance steps changed the game"
    );
    g
}

fn keeps_the_rules(variant: &str, games: u64) -> usize {
    let rules = common::variant_rules(variant);
    let mut extra = 0;
    for seed in 0..games {
        let players = 2 + (seed % 4) as u8;
        let g = play(&rules, players, seed);
        extra += extra_turns_never_chain(&g).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        common::final_matches(&g).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        naive::audit(&g).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let replayed = log::replay(rules.clone(), &log::log_text(&g)).unwrap();
        assert_eq!(replayed.events(), g.events(), "seed {seed}: replay");
        let back = Game::from_json(&g.to_json(), rules.clone()).unwrap();
        assert!(back == g, "seed {seed}: snapshot");
    }
    extra
}

#[test]
fn builder_and_pig_games_keep_the_rules() {
    let extra = keeps_the_rules("variants/traders-builders.toml", 24);
    assert!(extra > 10, "only {extra} extra turns in 24 games");
}

#[test]
fn builder_and_pig_with_abbey_mayor_keep_the_rules() {
    let extra = keeps_the_rules("variants/abbey-mayor-traders.toml", 24);
    assert!(extra > 10, "only {extra} extra turns in 24 games");
}

/// TB-8 acts in random games: some final, barn and join payments carry the pig's addition.
#[test]
fn pig_payments_happen() {
    let rules = common::variant_rules("variants/abbey-mayor-traders.toml");
    let mut pig = 0;
    for seed in 0..12 {
        let g = play(&rules, 3, seed);
        pig += g
            .events()
            .iter()
            .filter(|e| e.rule() == Some("TB-8"))
            .count();
    }
    assert!(pig > 5, "only {pig} pig payments in 12 games");
}

/// A figure type that does not occupy and needs nothing (the builder of traders-builders with
/// its precondition taken away): alone on a road it blocks nobody (B-2's "unoccupied" ignores
/// it) and, the road completed, it pays nobody (B-5: top strength 0) and returns (B-4).
#[test]
fn a_feature_holding_only_figures_that_do_not_occupy_pays_nobody() {
    let mut rs = common::variant_rules("variants/traders-builders.toml")
        .ruleset()
        .clone();
    let guest = rs.followers.iter().position(|f| f.id == "builder").unwrap();
    rs.followers[guest].needs_own_figure = false;
    let rules = Arc::new(Rules::new(rs).unwrap());
    let (u, a) = (
        rules.tile_index("U").unwrap(),
        rules.tile_index("A").unwrap(),
    );
    let meeple = rules.follower_index("meeple").unwrap();
    let mut g = Game::scripted(rules.clone(), 2, vec![u, a, a, u]).unwrap();
    let place = |g: &mut Game, tile, x, rotation| {
        let p = tegula_engine::Placement {
            tile,
            x,
            y: 0,
            rotation,
        };
        g.apply(Action::Place(p)).unwrap();
    };
    let on_road = |g: &Game, tile, follower| tegula_engine::FollowerOption {
        feature: g.rules().feature_index(tile, "road").unwrap(),
        follower,
    };
    // Seat 0: U east of the start tile, the guest alone on the road D-U.
    place(&mut g, u, 1, 0);
    g.apply(Action::Follower(on_road(&g, u, guest as u8)))
        .unwrap();
    // Seat 1: A closes the west end; the road holds only the guest: a meeple may join it.
    place(&mut g, a, -1, 3);
    assert!(g.follower_options().contains(&on_road(&g, a, meeple)));
    g.apply(Action::Pass).unwrap();
    // Seat 0: A closes the east end: the road (A, D, U, A) is complete and pays nobody.
    place(&mut g, a, 2, 1);
    g.apply(Action::Pass).unwrap();
    let scored: Vec<&Event> = g
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Score { .. } | Event::Return { .. }))
        .collect();
    assert!(
        matches!(scored[..], [Event::Score { players, points: 4, .. }, Event::Return { follower, .. }]
            if players.is_empty() && follower == "builder"),
        "{scored:?}"
    );
    assert_eq!(g.scores(), &[0, 0]);
}

/// A hand-made artefact whose figure that does not occupy has a strength is refused with the
/// reason (it would count in a majority while blocking nobody).
#[test]
fn a_figure_that_does_not_occupy_with_a_strength_is_refused() {
    let mut rs = common::variant_rules("variants/traders-builders.toml")
        .ruleset()
        .clone();
    let guest = rs.followers.iter().position(|f| f.id == "pig").unwrap();
    rs.followers[guest].strength = tegula_ruleset::Strength::Fixed(1);
    let err = Rules::from_json(&rs.to_json()).unwrap_err().to_string();
    assert!(
        err.contains("follower `pig` does not occupy its feature") && err.contains("must be 0"),
        "{err}"
    );
}
