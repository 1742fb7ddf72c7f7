//! Property tests of the Abbey & Mayor rules on the shipped variant (`variants/abbey-mayor.toml`,
//! AM-1…AM-12): in random games an own tile is only ever placed into a hole (AM-1), no follower
//! ever joins a corner-figure field (AM-8), figures stand only on their sites (AM-5, AM-10),
//! every player's figures are conserved (supply + board + waiting to move), each feature is
//! scored at most once (B-4, AM-7), the fast generators equal from-scratch checkers for own-tile
//! placements, corner options, their corners (AM-6, named corners accepted exactly there) and
//! move targets, final scoring equals a from-scratch recount (B-6, AM-9), and logs (with barns
//! on named corners) replay.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use proptest::prelude::*;
use tegula_engine::{
    log, naive, Action, Agent, CornerChoice, Event, FeatureId, FeatureKind, Game, Phase, PileOrder,
    RandomAgent, Rules,
};

fn am() -> Arc<Rules> {
    common::variant_rules("variants/abbey-mayor.toml")
}

/// No follower on a field that holds a corner figure (AM-8); every figure on one of its sites.
fn figures_on_sites(g: &Game) -> Result<(), String> {
    let rs = g.rules().ruleset();
    let figures = g.followers();
    let corner_fields: BTreeSet<FeatureId> = figures
        .iter()
        .filter(|f| f.corner.is_some())
        .map(|f| f.feature_id)
        .collect();
    for f in figures.iter().filter(|f| f.corner.is_none()) {
        let kind = g.feature(f.feature_id).map(|i| i.kind);
        let ft = &rs.followers[f.follower as usize];
        if !kind.is_some_and(|k| ft.stands_on(k)) {
            return Err(format!("a `{}` stands on a {kind:?}", ft.id));
        }
        if corner_fields.contains(&f.feature_id) {
            return Err(format!("a `{}` stands on a corner-figure field", ft.id));
        }
    }
    Ok(())
}

/// AM-1: the cell is empty and its four orthogonal neighbours are filled.
fn is_hole(g: &Game, x: i32, y: i32) -> bool {
    g.tile_at(x, y).is_none()
        && [(0, -1), (1, 0), (0, 1), (-1, 0)]
            .iter()
            .all(|(dx, dy)| g.tile_at(x + dx, y + dy).is_some())
}

/// One decision, checked against the from-scratch generators first.
fn checked_step(g: &mut Game, agent: &mut RandomAgent) -> Result<(), String> {
    match g.phase() {
        Phase::Hand => {
            let mut fast = g.placements().to_vec();
            fast.sort_unstable();
            if fast != g.naive_placements() {
                return Err("own-tile placements differ from the naive checker".into());
            }
            if let Some(p) = fast.iter().find(|p| !is_hole(g, p.x, p.y)) {
                return Err(format!("own tile offered outside a hole: {p:?}"));
            }
            match agent.choose_own_tile(g, g.placements()) {
                Some(i) => assert!(g.play_placement(i)),
                None => g.play_pass(),
            }
        }
        Phase::Place => {
            let i = agent.choose_placement(g, g.placements());
            assert!(g.play_placement(i));
        }
        Phase::Follower => {
            follower_options_match(g)?;
            corner_points_match(g)?;
            let c = agent.choose_follower(g, g.follower_options());
            // A corner figure goes on its field's last corner (a named one when there are
            // several), so that the logs replayed below carry named corners.
            let named = c
                .map(|i| g.follower_options()[i])
                .and_then(|o| Some((o, *g.corner_points(o).get(1..)?.last()?)));
            match named {
                Some((option, point)) => g
                    .apply(Action::Corner(CornerChoice { option, point }))
                    .map_err(|e| format!("the named corner {point:?} was refused: {e}"))?,
                None => assert!(g.play_follower(c)),
            }
        }
        Phase::Move => {
            let fast: BTreeSet<FeatureId> = g
                .move_targets()
                .iter()
                .map(|t| feature_of(g, t.x, t.y, t.feature))
                .collect();
            if fast != naive::move_targets(g) {
                return Err(format!(
                    "move targets {fast:?} differ from the naive checker"
                ));
            }
            let c = agent.choose_move(g, &g.move_targets());
            assert!(g.play_move(c));
        }
        _ => {}
    }
    Ok(())
}

fn feature_of(g: &Game, x: i32, y: i32, feature: u8) -> FeatureId {
    let (t, _) = g.tile_at(x, y).expect("target tile");
    let seg = g.rules().feature_name(t.tile, feature).to_string();
    g.feature_id(x, y, &seg).expect("target feature")
}

/// The follower options equal a from-scratch enumeration: every (feature, type) the explaining
/// check accepts for ordinary figures, and the naive corner fields for corner figures.
fn follower_options_match(g: &Game) -> Result<(), String> {
    let rs = g.rules().ruleset();
    let last = *g.tiles().last().expect("a tile");
    let tt = &rs.tiles[last.tile as usize];
    let id = |f: u8| {
        let cell = tt.features[f as usize].cells.trailing_zeros().min(7) as usize;
        let off = tt.rotations[last.rotation as usize].cells[cell].offset;
        g.feature_id(
            last.x + off.0 as i32,
            last.y + off.1 as i32,
            &tt.features[f as usize].segments[0],
        )
    };
    let fast: BTreeSet<(Option<FeatureId>, u8)> = g
        .follower_options()
        .iter()
        .map(|o| (id(o.feature), o.follower))
        .collect();
    let mut slow = BTreeSet::new();
    for (k, ft) in rs.followers.iter().enumerate() {
        if g.supply(g.current_player(), k as u8) == 0 {
            continue;
        }
        if ft.is_corner_figure() {
            slow.extend(
                naive::corner_fields(g)
                    .into_iter()
                    .map(|f| (Some(f), k as u8)),
            );
            continue;
        }
        for f in 0..tt.features.len() as u8 {
            let o = tegula_engine::FollowerOption {
                feature: f,
                follower: k as u8,
            };
            if g.check_follower(o).is_ok() {
                slow.insert((id(f), k as u8));
            }
        }
    }
    if fast != slow {
        return Err(format!(
            "follower options {fast:?} differ from the naive ones {slow:?}"
        ));
    }
    Ok(())
}

/// Each corner-figure option's corners equal the from-scratch ones of its field (AM-6), the
/// first is where the option itself puts the figure, and a named corner is accepted exactly
/// on those points.
fn corner_points_match(g: &Game) -> Result<(), String> {
    let slow = naive::corner_points(g);
    let last = *g.tiles().last().expect("a tile");
    for &o in g.follower_options() {
        let points = g.corner_points(o);
        let rs = g.rules().ruleset();
        if !rs.followers[o.follower as usize].is_corner_figure() {
            if !points.is_empty() {
                return Err(format!(
                    "{o:?} is no corner figure but has corners {points:?}"
                ));
            }
            continue;
        }
        let id = g.feature_id(last.x, last.y, g.rules().feature_name(last.tile, o.feature));
        let want = id.and_then(|id| slow.get(&id)).cloned().unwrap_or_default();
        if points.iter().copied().collect::<BTreeSet<_>>() != want || points.len() != want.len() {
            return Err(format!(
                "corners of {o:?}: {points:?}, from scratch {want:?}"
            ));
        }
        let mut plain = g.clone();
        plain
            .apply(Action::Follower(o))
            .map_err(|e| e.to_string())?;
        let at = plain.followers().iter().find_map(|f| {
            f.corner
                .filter(|_| f.instance as usize + 1 == g.tiles().len())
        });
        if at != points.first().copied() {
            return Err(format!(
                "{o:?} stands on {at:?}, its first corner is {:?}",
                points.first()
            ));
        }
        for dx in -1..=2 {
            let point = [points[0][0] + dx, points[0][1] + 1];
            let named = g.check(Action::Corner(CornerChoice { option: o, point }));
            if named.is_ok() != points.contains(&point) {
                return Err(format!(
                    "corner {point:?} of {o:?}: {named:?}, corners {points:?}"
                ));
            }
        }
    }
    Ok(())
}

/// B-4 at most once per feature; AM-7 at most once per field (one corner figure per field).
fn scored_once(events: &[Event]) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    for e in events {
        if let Event::Score { rule, feature, .. } = e {
            if (rule == "B-4" || rule == "AM-7") && !seen.insert((rule.clone(), feature.id)) {
                return Err(format!("{rule} scored {:?} twice", feature.id));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn abbey_mayor_games_keep_the_rules(seed in any::<u64>(), players in 2u8..=5) {
        let rules = am();
        let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
        let mut agent = RandomAgent::new(seed ^ 0x5EED);
        while g.phase() != Phase::Over {
            let r = common::conserved(&g)
                .and_then(|_| figures_on_sites(&g))
                .and_then(|_| checked_step(&mut g, &mut agent));
            prop_assert!(r.is_ok(), "turn {}: {}", g.turn(), r.unwrap_err());
        }
        prop_assert!(common::conserved(&g).is_ok(), "{:?}", common::conserved(&g));
        prop_assert_eq!(g.remaining(), 0);
        prop_assert!(scored_once(g.events()).is_ok(), "{:?}", scored_once(g.events()));
        prop_assert!(common::final_matches(&g).is_ok(), "{:?}", common::final_matches(&g));
        let r = common::audit_and_replay(rules, &g);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// Every rule of the expansion happens in a batch of random games (so the properties above
/// are not vacuous): own tiles placed, a mayor, a corner figure placed (on a named corner too),
/// joined and scored at the end, a figure moved after scoring.
#[test]
fn random_games_exercise_every_abbey_mayor_rule() {
    let rules = am();
    let mut seen = BTreeSet::new();
    for seed in 0..60 {
        let mut g = Game::new(rules.clone(), 4, PileOrder::Shuffled(seed), true).unwrap();
        let mut agent = RandomAgent::new(seed);
        while g.phase() != Phase::Over {
            checked_step(&mut g, &mut agent).unwrap();
        }
        if g.history().iter().any(|a| matches!(a, Action::Corner(_))) {
            seen.insert("named corner".to_string());
        }
        for e in g.events() {
            match e {
                Event::Score { rule, .. } => seen.insert(rule.clone()),
                Event::Follower {
                    follower,
                    moved,
                    corner,
                    ..
                } => seen.insert(format!(
                    "{follower} moved={moved} corner={}",
                    corner.is_some()
                )),
                Event::Place { tile, .. } => seen.insert(format!("place {tile}")),
                _ => false,
            };
        }
    }
    for want in [
        "AM-7",
        "AM-8",
        "AM-9",
        "place abbey",
        "mayor moved=false corner=false",
        "barn moved=false corner=true",
        "wagon moved=true corner=false",
        "named corner",
    ] {
        assert!(seen.contains(want), "no `{want}` in 60 games: {seen:?}");
    }
    let _ = FeatureKind::Field;
}

/// Each seat's points by AM-8 and the turns at which AM-8 scored, and the events of every
/// other kind (the end's totals left out).
fn split_am8(g: &Game) -> (Vec<u32>, BTreeSet<u32>, Vec<Event>) {
    let mut points = vec![0; g.scores().len()];
    let mut turns = BTreeSet::new();
    let mut rest = Vec::new();
    for e in g.events() {
        match e {
            Event::Score {
                rule,
                players,
                points: p,
                turn,
                ..
            } if rule == "AM-8" => {
                turns.insert(*turn);
                for &s in players {
                    points[s as usize] += p;
                }
            }
            Event::End { .. } => {}
            e => rest.push(e.clone()),
        }
    }
    (points, turns, rest)
}

/// AM-8's reading (`readings.joined_field_scoring`) changes what a join pays and nothing else:
/// random agents choose without looking at scores, so one seed plays the same game under both
/// readings. The joins happen at the same turns, the same farmers return, every other event is
/// the same, and each seat's total differs by its AM-8 points only. The field-by-field games
/// end with the final recount ([`final_matches`]). Joins are rare among random agents, so
/// many games are played (without the per-step checks) and some must pay differently.
#[test]
fn the_am8_reading_changes_only_what_the_joins_pay() {
    let whole = am();
    let each = common::variant_rules("variants/house/barn-join-each-field.toml");
    let (mut joins, mut differ) = (0, 0);
    for seed in 0..400 {
        let play = |rules: &Arc<Rules>| {
            let mut g = Game::new(rules.clone(), 4, PileOrder::Shuffled(seed), true).unwrap();
            let mut agents: Vec<Box<dyn Agent + Send>> = vec![Box::new(RandomAgent::new(seed))];
            tegula_engine::sim::play_out(&mut g, &mut agents);
            assert!(
                common::final_matches(&g).is_ok(),
                "seed {seed}: {:?}",
                common::final_matches(&g)
            );
            g
        };
        let (a, b) = (play(&whole), play(&each));
        let (pa, ta, ra) = split_am8(&a);
        let (pb, tb, rb) = split_am8(&b);
        assert_eq!(ta, tb, "seed {seed}: AM-8 at other turns");
        assert!(ra == rb, "seed {seed}: events other than AM-8's differ");
        for s in 0..4 {
            assert_eq!(
                a.scores()[s] - i64::from(pa[s]),
                b.scores()[s] - i64::from(pb[s]),
                "seed {seed}, seat {s}"
            );
        }
        joins += ta.len();
        differ += usize::from(pa != pb);
    }
    assert!(
        differ > 0,
        "no seed of 400 pays AM-8 differently ({joins} joins)"
    );
}

/// Plays a random game in which every seat declines its own tiles while the pile lasts, so
/// that all still hold them when it is empty. Returns the seats offered an own tile after the
/// pile is empty, in order, and the seat that placed the last drawn tile.
fn offers_after_the_pile(rules: &Arc<Rules>, seed: u64, players: u8) -> (Vec<u8>, u8) {
    let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
    let mut agent = RandomAgent::new(seed);
    let (mut offered, mut last_placer) = (Vec::new(), 0);
    while g.phase() != Phase::Over {
        match g.phase() {
            Phase::Hand if g.remaining() == 0 => {
                offered.push(g.current_player());
                match agent.choose_own_tile(&g, g.placements()) {
                    Some(i) => assert!(g.play_placement(i)),
                    None => g.play_pass(),
                }
            }
            Phase::Hand => g.play_pass(),
            Phase::Place => {
                last_placer = g.current_player();
                let i = agent.choose_placement(&g, g.placements());
                assert!(g.play_placement(i));
            }
            Phase::Follower => {
                let c = agent.choose_follower(&g, g.follower_options());
                assert!(g.play_follower(c));
            }
            Phase::Move => {
                let c = agent.choose_move(&g, &g.move_targets());
                assert!(g.play_move(c));
            }
            _ => unreachable!("no pool in Abbey & Mayor"),
        }
    }
    (offered, last_placer)
}

/// AM-4: after the pile is empty each seat is offered its final-round tile once, in seat order
/// from the seat after the last placer (or, with `readings.final_round_first =
/// "last-placer"`, from that player): no turn offers it of its own before the final round.
/// The seats keep their abbeys to the end, so the final round has work to do.
#[test]
fn no_seat_is_offered_its_abbey_twice_after_the_pile() {
    let next = am();
    let last = common::variant_rules("variants/house/final-round-last-placer-first.toml");
    let mut offers = 0;
    for seed in 0..24u64 {
        let players = 2 + (seed % 4) as u8;
        for (rules, first) in [(&next, 1), (&last, 0)] {
            let (offered, placer) = offers_after_the_pile(rules, seed, players);
            // Each seat's place in the final round's order.
            let order: Vec<u8> = offered
                .iter()
                .map(|&s| (s + players - placer - first) % players)
                .collect();
            assert!(
                order.windows(2).all(|w| w[0] < w[1]),
                "seed {seed}, {players} players, last placer {placer}: offers to {offered:?}"
            );
            offers += offered.len();
        }
    }
    assert!(offers > 24, "only {offers} final-round offers in 48 games");
}

/// AM-8 scored in the scoring step (`readings.joined_field_timing = "scoring-step"`, the house
/// variant barn-join-scoring-step): random games keep the invariants of
/// [`abbey_mayor_games_keep_the_rules`] (figures conserved, the fast generators equal the
/// naive checkers, final scoring equals a recount, logs replay). Only while a player decides on
/// a figure may farmers still stand on a field just joined to a corner-figure field: the scoring
/// step sends them home, so before every other decision no follower stands on one. The batch
/// must contain joins.
#[test]
fn scoring_step_joins_keep_the_rules() {
    let rules = common::variant_rules("variants/house/barn-join-scoring-step.toml");
    let mut joins = 0;
    for seed in 0..16 {
        let mut g = Game::new(rules.clone(), 4, PileOrder::Shuffled(seed), true).unwrap();
        let mut agent = RandomAgent::new(seed ^ 0x5EED);
        while g.phase() != Phase::Over {
            let sites = if g.phase() == Phase::Follower {
                Ok(())
            } else {
                figures_on_sites(&g)
            };
            let r = common::conserved(&g)
                .and(sites)
                .and_then(|_| checked_step(&mut g, &mut agent));
            assert!(
                r.is_ok(),
                "seed {seed}, turn {}: {}",
                g.turn(),
                r.unwrap_err()
            );
        }
        assert!(
            common::final_matches(&g).is_ok(),
            "seed {seed}: {:?}",
            common::final_matches(&g)
        );
        naive::audit(&g).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let replayed = log::replay(rules.clone(), &log::log_text(&g)).unwrap();
        assert_eq!(replayed.scores(), g.scores(), "seed {seed}");
        joins += split_am8(&g).1.len();
    }
    assert!(joins > 0, "no AM-8 join in 16 games");
}

/// The holes of the board (AM-1), from the cells the placements so far filled (every Abbey &
/// Mayor tile is one cell; the start tile is at the origin).
fn holes_now(g: &Game) -> Vec<(i32, i32)> {
    let placed = g.history().iter().filter_map(|a| match a {
        Action::Place(p) => Some((p.x, p.y)),
        _ => None,
    });
    let filled: BTreeSet<(i32, i32)> = std::iter::once((0, 0)).chain(placed).collect();
    let sides = [(0, -1), (1, 0), (0, 1), (-1, 0)];
    let around = filled
        .iter()
        .flat_map(|&(x, y)| sides.map(|(dx, dy)| (x + dx, y + dy)));
    let empty: BTreeSet<(i32, i32)> = around.filter(|c| !filled.contains(c)).collect();
    let hole = |&(x, y): &(i32, i32)| {
        sides
            .iter()
            .all(|(dx, dy)| filled.contains(&(x + dx, y + dy)))
    };
    empty.into_iter().filter(hole).collect()
}

/// AM-1: a turn draws while its player holds an own tile only when the board has no hole, or
/// after the player passed on the offer. The offer learns that there is no hole from the cells
/// around the tiles placed since it last asked; a hole it missed would make a turn draw here.
#[test]
fn a_turn_draws_only_without_a_hole_or_after_a_pass() {
    let rules = am();
    let (mut offers, mut checked) = (0, 0);
    for seed in 0..40 {
        let players = 2 + (seed % 4) as u8;
        let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
        let mut agent = RandomAgent::new(seed);
        let mut passed_on = None;
        while g.phase() != Phase::Over {
            match g.phase() {
                Phase::Hand => {
                    offers += 1;
                    match agent.choose_own_tile(&g, g.placements()) {
                        Some(i) => assert!(g.play_placement(i)),
                        None => {
                            passed_on = Some(g.turn());
                            g.play_pass();
                        }
                    }
                }
                Phase::Place => {
                    let p = g.current_player();
                    if passed_on != Some(g.turn()) && g.held(p, 0) > 0 {
                        checked += 1;
                        let holes = holes_now(&g);
                        assert!(
                            holes.is_empty(),
                            "seed {seed}, turn {}: seat {p} holds an abbey and drew, but {holes:?} are holes",
                            g.turn()
                        );
                    }
                    checked_step(&mut g, &mut agent).unwrap();
                }
                _ => checked_step(&mut g, &mut agent).unwrap(),
            }
        }
    }
    assert!(
        offers > 100 && checked > 1000,
        "offers {offers}, checked {checked}"
    );
}
