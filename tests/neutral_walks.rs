//! Neutral figures and walks (issue 31; docs/design/actions.md, 1, 2, 7) on the shipped
//! `variants/princess-dragon.toml`: a walk's step is a choice with no pass, its options in the
//! fixed order N, E, S, W; random and greedy games cite the dragon's rules and replay from their
//! logs; chance steps keep the remaining counts right when set-aside tiles go back. The same
//! for the action combination (`variants/action-all.toml`), with PD-9's once per turn and The
//! Tower.

use std::sync::Arc;

use tegula_engine::{
    log, sim, Action, AgentKind, ChoiceOption, Event, Game, MoveError, Phase, PileOrder, Rng, Rules,
};

mod common;

const PD: &str = "variants/princess-dragon.toml";

fn rules() -> Arc<Rules> {
    common::variant_rules(PD)
}

fn tile(rules: &Rules, id: &str) -> u16 {
    rules
        .tile_index(id)
        .unwrap_or_else(|| panic!("no tile {id}"))
}

/// Place the drawn tile at `(x, y)` rotation 0 and pass the figure step.
fn place_and_pass(g: &mut Game, x: i32, y: i32) {
    let p = g.placements();
    let at = p.iter().find(|p| (p.x, p.y, p.rotation) == (x, y, 0));
    let at = *at.unwrap_or_else(|| panic!("no placement at ({x}, {y}) r0"));
    g.apply(Action::Place(at)).unwrap();
    if g.phase() == Phase::Follower {
        g.apply(Action::Pass).unwrap();
    }
}

#[test]
fn a_walk_step_is_a_choice_in_fixed_order_with_no_pass() {
    let r = rules();
    // A volcano at [0,1], U at [1,0], a dragon tile at [-1,0]: from [0,1] the walk reaches D;
    // from D, E [1,0] and W [-1,0] (N [0,-1] empty, S visited).
    let pile = ["pd-1", "U", "pd-12", "U", "U"]
        .map(|t| tile(&r, t))
        .to_vec();
    let mut g = Game::new(r.clone(), 2, PileOrder::Scripted(pile), true).unwrap();
    place_and_pass(&mut g, 0, 1);
    assert_eq!(
        g.neutral_at(0),
        Some((0, 1)),
        "the volcano brings the dragon"
    );
    place_and_pass(&mut g, 1, 0);
    place_and_pass(&mut g, -1, 0);
    // Step 1 by the active seat (seat 0), to D: the only option.
    assert_eq!(g.phase(), Phase::Choice);
    assert_eq!(g.current_player(), 0);
    assert_eq!(g.walking_from(), Some((0, 1)));
    assert_eq!(g.legal_actions(), vec![Action::Choose(0)]);
    assert!(matches!(
        g.apply(Action::Pass),
        Err(MoveError::MustChoose { .. })
    ));
    g.apply(Action::Choose(0)).unwrap();
    // Step 2 by seat 1: E before W.
    assert_eq!(g.current_player(), 1);
    let options: Vec<ChoiceOption> = g.choice_options().into_iter().map(|o| o.1).collect();
    assert_eq!(
        options,
        vec![
            ChoiceOption::Tile { x: 1, y: 0 },
            ChoiceOption::Tile { x: -1, y: 0 }
        ]
    );
    g.apply(Action::Choose(1)).unwrap();
    // From [-1,0] every neighbour is empty or visited: a dead end, the turn goes on.
    assert_eq!(g.neutral_at(0), Some((-1, 0)));
    assert_eq!(g.phase(), Phase::Place);
    assert_eq!(g.current_player(), 1);
    let kinds: Vec<&str> = g.events().iter().map(|e| e.kind()).collect();
    assert!(
        kinds.ends_with(&["step", "step", "walk_end", "draw"]),
        "{kinds:?}"
    );
    g.check_parts().unwrap();
}

#[test]
fn random_and_greedy_games_cite_the_dragon_rules_and_replay() {
    let cited = play_and_replay(&rules(), 0..6);
    for id in ["PD-1", "PD-2", "PD-3", "PD-5", "PD-6"] {
        assert!(cited.contains(id), "no game cites {id}: {cited:?}");
    }
}

/// The action combination (base with The Abbot + I&C + T&B + A&M + P&D + Tower, issue 31 item 7): random and
/// greedy games play, replay and cite the P&D and Tower rules beside the other boxes'; no PD-9
/// point is paid at the start of the second part of a double turn (TB-5).
#[test]
fn the_action_combination_plays_replays_and_cites_its_rules() {
    let cited = play_and_replay(&common::variant_rules("variants/action-all.toml"), 0..4);
    // AB-3 and AB-5 (a garden scored) are rare here (a garden needs the abbot, and it withdraws,
    // AB-4): `scenarios/ab3-garden-completes-with-the-abbot.toml` plays them in variants/abbot.toml.
    // PD-12 (the princess) is rare in these games (a princess tile joining an occupied city,
    // then the offer taken): `scenarios/pd12-princess-removes-a-mayor-not-a-builder.toml` plays
    // it in this variant.
    let ids = [
        "PD-1", "PD-2", "PD-3", "PD-5", "PD-6", "PD-7", "PD-9", "PD-10", "PD-11", "PD-13", "PD-14",
        "IC-2", "TB-5", "TB-8", "AM-7", "TO-1", "TO-2", "TO-4", "TO-6", "TO-7", "AB-1", "AB-2",
        "AB-4",
    ];
    for id in ids {
        assert!(cited.contains(id), "no game cites {id}: {cited:?}");
    }
}

/// Random and greedy 2-seat games of `r` for `seeds`: each ends, keeps its figures, replays to
/// the same events and pays no `turn-start` point in the second part of a double turn. The
/// rules they cite.
fn play_and_replay(
    r: &Arc<Rules>,
    seeds: std::ops::Range<u64>,
) -> std::collections::BTreeSet<String> {
    let mut cited = std::collections::BTreeSet::new();
    for seed in seeds {
        for kinds in [
            [AgentKind::Random, AgentKind::Random],
            [AgentKind::Greedy, AgentKind::Random],
        ] {
            let mut g = Game::new(r.clone(), 2, PileOrder::Shuffled(seed), true).unwrap();
            let (_, seeds) = sim::game_seeds(seed, 0, 2);
            let mut agents = sim::build_agents(&kinds, &seeds);
            sim::play_out(&mut g, &mut agents);
            assert_eq!(g.phase(), Phase::Over);
            common::conserved(&g).unwrap();
            for e in g.events() {
                cited.extend(e.cited().map(str::to_string));
            }
            once_per_turn(&g, seed);
            let text = log::log_text(&g);
            let again = log::replay(r.clone(), &text).unwrap_or_else(|e| panic!("{seed}: {e}"));
            // The same events; the setup line of a replay names no seed.
            assert_eq!(again.events(), g.events(), "seed {seed}");
        }
    }
    cited
}

/// Between an extra turn's start and its tile's placement, no event cites PD-9 (the fairy's
/// turn-start point is once per turn).
fn once_per_turn(g: &Game, seed: u64) {
    let mut in_second_part = false;
    for e in g.events() {
        match e {
            Event::ExtraTurn { .. } => in_second_part = true,
            Event::Place { .. } => in_second_part = false,
            _ if in_second_part => {
                assert!(e.cited().all(|r| r != "PD-9"), "seed {seed}: {e:?}");
            }
            _ => {}
        }
    }
}

#[test]
fn chance_steps_put_set_aside_tiles_back_into_the_counts() {
    let r = rules();
    for seed in 0..4u64 {
        let g = Game::new(r.clone(), 3, PileOrder::Shuffled(seed), false).unwrap();
        let mut g = g.with_chance_steps();
        let mut rng = Rng::new(seed);
        let mut steps = 0;
        while g.phase() != Phase::Over {
            steps += 1;
            assert!(steps < 100_000, "the game does not end");
            if g.is_chance_node() {
                let outcomes = g.chance_outcomes();
                let total: f64 = outcomes.iter().map(|o| o.1).sum();
                assert!((total - 1.0).abs() < 1e-9, "{outcomes:?}");
                let t = outcomes[rng.below(outcomes.len() as u32) as usize].0;
                g.apply_draw(t).unwrap();
                continue;
            }
            let legal = g.legal_actions();
            let a = legal[rng.below(legal.len() as u32) as usize];
            g.apply(a).unwrap();
            g.check_parts().unwrap();
        }
        assert!(g.remaining_counts().iter().all(|&c| c == 0));
    }
}

#[test]
fn the_walk_is_part_of_the_state_and_its_hash() {
    let r = rules();
    let pile = ["pd-1", "U", "pd-12", "U"].map(|t| tile(&r, t)).to_vec();
    let mut g = Game::new(r, 2, PileOrder::Scripted(pile), true).unwrap();
    place_and_pass(&mut g, 0, 1);
    place_and_pass(&mut g, 1, 0);
    let before = g.clone();
    place_and_pass(&mut g, -1, 0);
    assert_eq!(g.phase(), Phase::Choice);
    let walking = g.clone();
    assert_eq!(walking, g);
    assert_ne!(walking.state_hash(), before.state_hash());
    g.apply(Action::Choose(0)).unwrap();
    assert_ne!(walking.state_hash(), g.state_hash());
}

#[test]
fn replay_stops_at_a_step_the_engine_does_not_offer() {
    let r = rules();
    let mut g = Game::new(r.clone(), 2, PileOrder::Shuffled(3), true).unwrap();
    let (_, seeds) = sim::game_seeds(3, 0, 2);
    let mut agents = sim::build_agents(&[AgentKind::Random, AgentKind::Random], &seeds);
    sim::play_out(&mut g, &mut agents);
    let text = log::log_text(&g);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("\"type\":\"step\""))
        .expect("a walk");
    // The same step sent far away: no tile lies there, so no walk can enter it.
    let mut bad: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let v: serde_json::Value = serde_json::from_str(lines[at]).unwrap();
    let x = v["x"].as_i64().unwrap();
    bad[at] = lines[at].replace(&format!("\"x\":{x},"), "\"x\":999,");
    let err = log::replay(r, &(bad.join("\n") + "\n")).unwrap_err();
    let said = err.to_string();
    assert!(said.contains(&format!("line {}", at + 1)), "{said}");
    assert!(said.contains("PD-5"), "{said}");
}

#[test]
fn finishing_a_game_during_a_walk_scores_the_turn_and_ends() {
    let r = rules();
    let pile = ["pd-1", "U", "pd-12", "U"].map(|t| tile(&r, t)).to_vec();
    let mut g = Game::new(r, 2, PileOrder::Scripted(pile), true).unwrap();
    place_and_pass(&mut g, 0, 1);
    place_and_pass(&mut g, 1, 0);
    place_and_pass(&mut g, -1, 0);
    assert!(g.walking_from().is_some());
    g.finish();
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.walking_from(), None);
    g.check_parts().unwrap();
    assert!(matches!(
        g.events().last(),
        Some(tegula_engine::Event::End { .. })
    ));
}
