//! The tree-search agent (issue 19 item 4): the tree kept between decisions only where the game
//! continues the searched state, legal decisions from a kept tree, the same game for the same
//! seed, and the search figures `simulate` reports.

mod common;

use std::sync::Arc;

use tegula_engine::{sim, AgentKind, Game, MctsAgent, Phase, Rng, Rules};

fn rules(rel: &str) -> Arc<Rules> {
    common::variant_rules(rel)
}

/// Play `game` to the end: the seats below `searching` by `agent`'s searches (each checked
/// legal; one agent for them all, so that it keeps trees across seats), the others at random;
/// chance steps by the pile. Returns the decisions searched.
fn play_searched(game: &mut Game, agent: &mut MctsAgent, searching: u8, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut searched = 0;
    while game.phase() != Phase::Over {
        if game.is_chance_node() {
            game.draw_default();
            continue;
        }
        let legal = game.legal_actions();
        let a = if game.current_player() < searching {
            searched += 1;
            let a = agent.search(game).expect("a decision to make");
            assert!(legal.contains(&a), "illegal {a:?}");
            a
        } else {
            legal[rng.below(legal.len() as u32) as usize]
        };
        game.apply(a).unwrap();
    }
    searched
}

#[test]
fn a_kept_tree_gives_legal_decisions_on_every_turn_structure() {
    // Kept subtrees hold children of other samples' draws (the opponents' tiles, one's own next
    // tile): the search must still pick among the actions legal now.
    for v in [
        "variants/base.toml",
        "variants/abbey-mayor.toml",
        "variants/wonders.toml",
        "variants/house/hand-3.toml",
    ] {
        // Against random (seat 0 searches), and in self-play: one agent decides for both
        // seats, so the tree it keeps after a seat's turn holds the other seat's tiles.
        for searching in [1, 2] {
            let r = rules(v);
            let mut g = Game::seeded(r, 2, 7).unwrap();
            g.set_chance_steps(true);
            let mut agent = MctsAgent::new(40, 1);
            let searched = play_searched(&mut g, &mut agent, searching, 2);
            let s = agent.stats();
            assert!(searched > 10, "{v}");
            assert!(s.reused > 0, "{v}: no tree was kept ({s:?})");
            assert!(s.searches <= searched as u64, "{v}");
            // Each search tops its budget up: kept visits plus new playouts reach it.
            assert_eq!(s.playouts + s.reused, 40 * s.searches, "{v}: {s:?}");
        }
    }
}

#[test]
fn the_same_state_searched_again_keeps_the_whole_tree() {
    let r = rules("variants/base.toml");
    let g = Game::seeded(r, 2, 3).unwrap();
    let mut agent = MctsAgent::new(50, 9);
    let first = agent.search(&g);
    assert_eq!(agent.stats().playouts, 50);
    let again = agent.search(&g);
    assert_eq!(again, first);
    assert_eq!(agent.stats().playouts, 50, "no new playout was needed");
    assert_eq!(agent.stats().reused, 50);
}

#[test]
fn the_tree_is_kept_for_a_copy_without_events() {
    // A snapshot or a replayed game is the same state without the same recorded events: a
    // pickled Python agent replays its decisions on such copies and must search as the
    // original does.
    let r = rules("variants/base.toml");
    let mut g = Game::seeded(r.clone(), 2, 3).unwrap();
    g.set_recording(true);
    let mut agent = MctsAgent::new(50, 9);
    let a = agent.search(&g).expect("a decision");
    g.apply(a).unwrap();
    let mut quiet = g.clone();
    quiet.set_recording(false);
    quiet.clear_events();
    let kept = Game::from_json(&g.to_json(), r).unwrap();
    for copy in [&quiet, &kept, &g] {
        let before = agent.stats().reused;
        agent.search(copy);
        assert!(agent.stats().reused > before, "nothing kept");
    }
}

#[test]
fn a_tree_is_not_kept_for_another_game() {
    // Another pile with the same first tile and the same (empty) history: the tree's root
    // actions are all legal in game 2, but its statistics come from samples of game 1's
    // information, so they must not be kept.
    let r = rules("variants/base.toml");
    let one = Game::seeded(r.clone(), 2, 1).unwrap();
    let two = (2..500)
        .map(|s| Game::seeded(r.clone(), 2, s).unwrap())
        .find(|g| g.current_tile() == one.current_tile() && g.pile() != one.pile())
        .expect("a pile with the same first tile");
    let mut agent = MctsAgent::new(30, 5);
    agent.search(&one);
    let a = agent.search(&two).expect("a decision");
    assert_eq!(agent.stats().reused, 0);
    assert_eq!(agent.stats().playouts, 60);
    assert!(two.legal_actions().contains(&a), "{a:?}");
}

#[test]
fn same_seed_same_game_with_kept_trees() {
    let r = rules("variants/abbey-mayor.toml");
    let kinds = [AgentKind::Mcts(25), AgentKind::Random];
    let run = || {
        let mut g = Game::seeded(r.clone(), 2, 4).unwrap();
        sim::play_out(&mut g, &mut sim::build_agents(&kinds, &[8, 9]));
        (g.history().to_vec(), g.scores().to_vec())
    };
    assert_eq!(run(), run());
}

#[test]
fn simulate_reports_the_search_figures() {
    let run = |agents: &str, format: &str| {
        let out = common::tegula(&[
            "simulate",
            "--variant",
            "variants/base.toml",
            "--games",
            "2",
            "--seed",
            "4",
            "--agents",
            agents,
            "--format",
            format,
        ]);
        common::assert_exit(&out, 0);
        out
    };
    let out = run("mcts:20,random", "json");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["search"];
    let searched = s["decisions"].as_u64().unwrap();
    let (playouts, kept) = (
        s["playouts"].as_u64().unwrap(),
        s["reused_playouts"].as_u64(),
    );
    assert!(
        searched > 20 && searched < v["decisions"].as_u64().unwrap(),
        "{s}"
    );
    assert_eq!(playouts + kept.unwrap(), 20 * searched, "{s}");
    assert!(s["playouts_per_second"].as_f64().unwrap() > 0.0, "{s}");
    assert!(s["decisions_per_second"].as_f64().unwrap() > 0.0, "{s}");
    let text = String::from_utf8(run("mcts:20,random", "human").stdout).unwrap();
    assert!(
        text.contains(&format!("search: {searched} decisions searched")),
        "{text}"
    );
    assert!(text.contains("playouts/s: "), "{text}");
    // Without a search agent, or without a timing, no search figures.
    let plain = run("random", "json");
    let v: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(v.get("search").is_none(), "{v}");
    let out = common::tegula(&[
        "simulate",
        "--variant",
        "variants/base.toml",
        "--games",
        "1",
        "--agents",
        "mcts:5",
        "--no-timing",
        "--format",
        "json",
    ]);
    common::assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.get("search").is_none(), "{v}");
}
