//! Property tests of the Wonders rules on the shipped variants (`variants/wonders.toml`,
//! `variants/wonders-two.toml`; W-1…W-20): in random games a marker never moves or scores (W-5),
//! no player holds more pool tiles than the variant allows (W-4, W-30), the marker pairs never
//! pass the cap (W-2), ability points always go to the owner of the tile whose ability scores
//! (W-10…W-17), figures are conserved (supply + board + markers = count + gains), every game
//! ends with the pile empty and every taken tile placed or recorded as unplaceable (W-6), and
//! logs replay.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use proptest::prelude::*;
use tegula_engine::{log, sim, AgentKind, Event, FeatureKind, Game, PileOrder, Rules};

fn rules(name: &str) -> Arc<Rules> {
    common::variant_rules(name)
}

/// The pool's thresholds as the model lowered them: the figure type a take gives, how many
/// the first and the second take give, and the most takes a seat can make (a seat at a score
/// of 1000 qualifies for its `k`-th take when the offer's test holds with `taken = k`).
fn takes(g: &Game) -> Result<(u8, [u32; 2], u8), String> {
    use tegula_ruleset::{Act, Counts, Options, Quantity, Seat};
    struct At(u32);
    impl Counts for At {
        fn count(&mut self, q: Quantity) -> u32 {
            match q {
                Quantity::Taken => self.0,
                Quantity::Score => 1000,
                _ => 0,
            }
        }
    }
    let rs = g.rules().ruleset();
    let offers = rs.when.iter().filter_map(|w| w.offer.as_ref());
    let mut pool_tile = offers.filter(|o| o.options == Options::PoolTile);
    let offer = pool_tile.next().ok_or("no rule offers pool tiles")?;
    let Seat::Where(test) = &offer.to else {
        return Err(format!("offered to {:?}", offer.to));
    };
    let most = (0..4u8)
        .take_while(|&k| test.holds(&mut At(u32::from(k))))
        .count() as u8;
    for a in &offer.then {
        if let Act::Figures { figure, add, .. } = a {
            let gains = [add.eval(&mut At(0)), add.eval(&mut At(1))];
            return Ok((*figure, gains, most));
        }
    }
    Err("the take gives no figures".into())
}

/// Supply + figures on features + waiting + markers = count + what the takes gained.
fn conserved(g: &Game) -> Result<(), String> {
    let rs = g.rules().ruleset();
    let (gain_figure, gains, _) = takes(g)?;
    let mut have: BTreeMap<(u8, u8), u32> = BTreeMap::new();
    for f in g.followers() {
        *have.entry((f.player, f.follower)).or_default() += 1;
    }
    for (p, t, _, _) in g.waiting_figures() {
        *have.entry((p, t)).or_default() += 1;
    }
    for (p, t) in g.claims() {
        *have.entry((p, t)).or_default() += 1;
    }
    for p in 0..g.players() {
        for (t, ft) in rs.followers.iter().enumerate() {
            let t = t as u8;
            let mut want = u32::from(ft.count);
            if t == gain_figure {
                let taken = g.pool_taken()[p as usize];
                want += gains[0] * u32::from(taken >= 1);
                want += gains[1] * u32::from(taken >= 2);
            }
            let got = u32::from(g.supply(p, t)) + have.get(&(p, t)).copied().unwrap_or(0);
            if got != want {
                return Err(format!("seat {p}: {got} `{}`, not {want}", ft.id));
            }
        }
    }
    Ok(())
}

/// Invariants that hold after every decision.
fn invariants(g: &Game) -> Result<(), String> {
    let cap = g.rules().ruleset().tracks.first().ok_or("no track")?.max;
    if g.track_at(0) > cap {
        return Err(format!("pairs at {} past the cap {cap}", g.track_at(0)));
    }
    let (_, _, most) = takes(g)?;
    if let Some(p) = g.pool_taken().iter().position(|&n| n > most) {
        return Err(format!("seat {p} took more than {most} pool tiles"));
    }
    if g.claims().len() != g.pool_owned().len() {
        return Err("a placed pool tile without its marker, or a marker without its tile".into());
    }
    conserved(g)
}

/// Every ability score goes to the owner of a placed tile with that ability; no marker or
/// building is scored as a feature (W-5, W-19).
fn abilities_to_owners(g: &Game) -> Result<(), String> {
    let rs = g.rules().ruleset();
    let owned = g.pool_owned();
    for e in g.events() {
        let Event::Score {
            rule,
            players,
            feature,
            points,
            ..
        } = e
        else {
            continue;
        };
        let ability = owned.iter().any(|&(_, t, _)| {
            rs.tiles[t as usize]
                .abilities
                .iter()
                .any(|a| &a.rule == rule)
        });
        if !ability {
            if feature.kind == FeatureKind::Unscored && *points > 0 {
                return Err(format!("a building was scored under {rule}"));
            }
            continue;
        }
        let ok = players.len() == 1
            && owned.iter().any(|&(o, t, _)| {
                o == players[0]
                    && rs.tiles[t as usize]
                        .abilities
                        .iter()
                        .any(|a| &a.rule == rule)
            });
        if !ok {
            return Err(format!(
                "{rule} scored to {players:?}, not its tile's owner"
            ));
        }
    }
    Ok(())
}

fn play_checked(
    rules: &Arc<Rules>,
    players: u8,
    seed: u64,
    agent: AgentKind,
) -> Result<Game, String> {
    let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true)
        .map_err(|e| e.to_string())?;
    let (_, seeds) = sim::game_seeds(seed, 0, players);
    let mut agents = sim::build_agents(&[agent], &seeds);
    let mut steps = 0;
    while g.phase() != tegula_engine::Phase::Over {
        invariants(&g).map_err(|e| format!("turn {}: {e}", g.turn()))?;
        // One decision at a time through the simulation driver's policy.
        let before = g.events().len();
        sim::play_one(&mut g, &mut agents);
        steps += 1;
        if steps > 10_000 || (g.events().len() == before && g.phase() != tegula_engine::Phase::Over)
        {
            return Err("no progress".into());
        }
    }
    invariants(&g)?;
    if g.remaining() != 0 {
        return Err("the pile is not empty at the end".into());
    }
    if !g.pool_held().is_empty() {
        return Err("a taken pool tile is neither placed nor recorded unplaceable".into());
    }
    // Every tile taken from the pool (a `take` after setup) is placed or recorded unplaceable;
    // a seat reaching the pairs when the pool is empty takes its pair without a tile.
    let taken_tiles = g
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Take { turn, .. } if *turn > 0))
        .count();
    let accounted = g.pool_owned().len() + g.pool_unplaceable().len();
    let taken: usize = g.pool_taken().iter().map(|&n| usize::from(n)).sum();
    if taken_tiles != accounted || accounted > taken {
        return Err(format!(
            "{taken_tiles} tiles taken ({taken} takes), {accounted} placed or unplaceable"
        ));
    }
    abilities_to_owners(&g)?;
    Ok(g)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn wonders_games_keep_the_rules(seed in any::<u64>(), players in 2u8..=5, two in any::<bool>()) {
        let name = if two { "variants/wonders-two.toml" } else { "variants/wonders.toml" };
        let players = if two { players.min(4) } else { players };
        let r = rules(name);
        let g = play_checked(&r, players, seed, AgentKind::Greedy);
        prop_assert!(g.is_ok(), "{}", g.err().unwrap_or_default());
        let g = g.unwrap();
        let replayed = log::replay(r, &log::log_text(&g));
        prop_assert!(replayed.is_ok(), "{:?}", replayed.err());
        let replayed = replayed.unwrap();
        prop_assert_eq!(replayed.scores(), g.scores());
    }
}

/// The properties are not vacuous: in a batch of greedy games every one of the eight
/// abilities scores, pool tiles are placed and W-3 orders happen.
#[test]
fn greedy_games_exercise_the_wonders() {
    let r = rules("variants/wonders.toml");
    let mut rules_seen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let g = play_checked(&r, 2 + (seed % 3) as u8, seed, AgentKind::Greedy).unwrap();
        for e in g.events() {
            match e {
                Event::Score { rule, .. } if rule.starts_with("W-") => {
                    rules_seen.insert(rule.clone());
                }
                Event::Take { .. } | Event::Seat { .. } => {
                    rules_seen.insert(e.kind().to_string());
                }
                _ => {}
            }
        }
    }
    for want in [
        "take", "W-10", "W-11", "W-13", "W-14", "W-15", "W-16", "W-17",
    ] {
        assert!(
            rules_seen.contains(want),
            "no `{want}` in 40 games: {rules_seen:?}"
        );
    }
}

/// Every follower action the engine accepts is one it lists, and the reverse, in every follower
/// phase of random games with Abbey & Mayor and the Wonders: in particular no corner figure is
/// accepted on a pool tile just placed (W-7), where none is listed.
#[test]
fn accepted_follower_actions_are_the_listed_ones() {
    use tegula_engine::{Action, FollowerOption, Phase};
    let r = rules("variants/abbey-mayor-wonders.toml");
    let figures = r.ruleset().followers.len() as u8;
    let mut checked = 0;
    for seed in 0..30 {
        let mut g = Game::new(r.clone(), 3, PileOrder::Shuffled(seed), false).unwrap();
        let (_, seeds) = sim::game_seeds(seed, 0, 3);
        let mut agents = sim::build_agents(&[AgentKind::Random], &seeds);
        while g.phase() != Phase::Over {
            if g.phase() == Phase::Follower {
                let listed = g.legal_actions();
                let tile = g.tiles().last().expect("a tile was placed").tile;
                let features = r.ruleset().tiles[usize::from(tile)].features.len() as u8;
                for feature in 0..features {
                    for follower in 0..figures {
                        let a = Action::Follower(FollowerOption { feature, follower });
                        assert_eq!(
                            g.is_legal(&a),
                            listed.contains(&a),
                            "seed {seed}, turn {}: {a:?} accepted {} but listed {}",
                            g.turn(),
                            g.is_legal(&a),
                            listed.contains(&a)
                        );
                        checked += 1;
                    }
                }
            }
            sim::play_one(&mut g, &mut agents);
        }
    }
    assert!(checked > 10_000, "only {checked} follower actions checked");
}
