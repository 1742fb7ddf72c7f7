//! Seeing a game (issue 10): board pictures (`play --board`, `tegula board LOG --turn N`, SVG and
//! ASCII), the board model built from the engine, readable `play` and `simulate` results,
//! `simulate --out`, and the CLI contract (closed pipes, exit codes in every `--help`, plurals).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;

use tegula_engine::{log, Game, Rules};
use tegula_render::board::{timeline, BoardView, Figure, FigureAt};
use tegula_render::svg::board::{board_svg, feature_spot};

mod common;
use common::{assert_exit, root, tegula};

/// A temporary folder for this test binary.
fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tegula-board-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A logged 2-player base game (seed 7); returns the log path.
fn logged_game(dir: &std::path::Path) -> PathBuf {
    let log = dir.join("game.jsonl");
    let out = tegula(&[
        "play",
        "--variant",
        "variants/base.toml",
        "--seed",
        "7",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    log
}

fn base() -> (Arc<Rules>, Vec<tegula_model::compile::CompiledTile>) {
    let path = root().join("variants/base.toml");
    let (rs, diags) = tegula_model::variant::build_variant(&path);
    let rs = rs.unwrap_or_else(|| panic!("{diags:#?}"));
    let (v, _) = tegula_model::variant::compile_variant(&path);
    (Arc::new(Rules::new(rs).unwrap()), v.unwrap().tiles)
}

fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

#[test]
fn the_board_model_matches_the_engine_at_every_turn() {
    let (rules, drawings) = base();
    let dir = tmp("model");
    let log = logged_game(&dir);
    let game: Game = log::replay(rules, &std::fs::read_to_string(log).unwrap()).unwrap();
    let views = timeline(&game, &drawings, &[]).unwrap();
    assert_eq!(views.len() as u32, game.turn() + 1, "one position per turn");
    for (k, v) in views.iter().enumerate() {
        assert_eq!(v.turn as usize, k);
        assert_eq!(v.tiles.len(), k + 1, "turn {k}: start tile + one per turn");
        assert_eq!(v.last, (k > 0).then_some(k), "turn {k}: the last tile");
        for f in &v.figures {
            let FigureAt::Segment { instance, feature } = f.at else {
                panic!("base figures stand on segments")
            };
            let t = &v.tiles[instance];
            let (cell, (u, q)) = feature_spot(&t.view, feature).expect("a spot");
            assert!(cell < t.view.cells.len());
            assert!((0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&q));
        }
        let total: i64 = v.seats.iter().map(|s| s.score).sum();
        let by_kind: u32 = v
            .seats
            .iter()
            .flat_map(|s| s.by_kind.iter().map(|(_, p)| *p))
            .sum();
        assert_eq!(
            total,
            i64::from(by_kind),
            "turn {k}: points by kind add up to the scores"
        );
    }
    let last = views.last().unwrap();
    assert!(last.over);
    assert_eq!(
        last.seats.iter().map(|s| s.score).collect::<Vec<_>>(),
        game.scores()
    );
    let now = BoardView::from_game(&game, &drawings, &[]);
    assert_eq!(now.figures, last.figures);
    assert_eq!(now.completed, last.completed);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn figures_are_drawn_from_their_type_data_on_segments_and_corners() {
    let (rules, drawings) = base();
    let game = Game::seeded(rules, 2, 3).unwrap();
    let mut view = BoardView::from_game(&game, &drawings, &[]);
    let mut barnlike = view.figure_types[0].clone();
    barnlike.id = "x-corner".into();
    barnlike.name = "Cornerstone".into();
    barnlike.sites = vec![tegula_ruleset::Site::Corner];
    view.figure_types.push(barnlike);
    view.figures = vec![
        Figure {
            seat: 0,
            follower: 0,
            at: FigureAt::Segment {
                instance: 0,
                feature: 0,
            },
        },
        Figure {
            seat: 1,
            follower: 1,
            at: FigureAt::Corner { x: 1, y: 1 },
        },
    ];
    let svg = board_svg(&view);
    roxmltree::Document::parse(&svg).expect("well-formed SVG");
    assert_eq!(count(&svg, r#"class="figure""#), 2);
    assert!(svg.contains(r#"data-seat="1""#) && svg.contains("M0,-9 L9,0 L0,9 L-9,0 Z"));
    assert!(
        svg.contains("Cornerstone on corner"),
        "titled from the data"
    );
    // Several figure types: each shows its initial.
    assert!(svg.contains(">C</text>"));
}

#[test]
fn board_verb_draws_any_turn_as_svg_or_ascii() {
    let dir = tmp("verb");
    let log = logged_game(&dir);
    let log = log.to_str().unwrap();
    let final_svg = dir.join("final.svg");
    assert_exit(
        &tegula(&["board", log, "--out", final_svg.to_str().unwrap()]),
        0,
    );
    let svg = std::fs::read_to_string(&final_svg).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    assert!(doc.root_element().attribute("viewBox").is_some());
    let placed = std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.contains(r#""type":"place""#))
        .count();
    assert_eq!(count(&svg, r#"class="placed""#), placed + 1);
    assert!(svg.contains("final scores"));
    assert!(svg.contains(r#"class="last""#));
    assert!(
        svg.contains(r#"class="done""#),
        "completed features are marked"
    );
    // Turn 0: the start tile alone; turn 5: six tiles, the fifth placed highlighted.
    let out = tegula(&["board", log, "--turn", "0"]);
    assert_exit(&out, 0);
    let t0 = String::from_utf8(out.stdout).unwrap();
    assert_eq!(count(&t0, r#"class="placed""#), 1);
    assert_eq!(count(&t0, r#"class="figure""#), 0);
    assert!(!t0.contains(r#"class="last""#));
    let out = tegula(&["board", log, "--turn", "5"]);
    assert_exit(&out, 0);
    let t5 = String::from_utf8(out.stdout).unwrap();
    assert_eq!(count(&t5, r#"class="placed""#), 6);
    assert!(t5.contains("turn 5"));
    // ASCII for a terminal.
    let out = tegula(&["board", log, "--turn", "5", "--format", "ascii"]);
    assert_exit(&out, 0);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("base — turn 5\n"), "{text}");
    assert!(text.contains("figures: A = seat 0, B = seat 1"));
    assert!(text.contains('@'), "the last tile's corners");
    // A turn the game never reached is a usage error.
    let out = tegula(&["board", log, "--turn", "999"]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("the game has turns 0 to"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn play_names_seats_agents_points_by_kind_and_draws_the_board() {
    let dir = tmp("play");
    let board = dir.join("board.svg");
    let ascii = dir.join("board.txt");
    let out = tegula(&[
        "play",
        "--variant",
        "variants/base.toml",
        "--seed",
        "7",
        "--agents",
        "random,greedy",
        "--board",
        board.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "seat 0 (random)",
        "seat 1 (greedy)",
        "roads ",
        "cities ",
        "cloisters ",
        "fields ",
    ] {
        assert!(text.contains(want), "missing `{want}` in:\n{text}");
    }
    assert!(
        text.contains("winner: seat") || text.contains("winners (tie): seat"),
        "{text}"
    );
    roxmltree::Document::parse(&std::fs::read_to_string(&board).unwrap()).unwrap();
    let out = tegula(&[
        "play",
        "--variant",
        "variants/base.toml",
        "--board",
        ascii.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_exit(&out, 0);
    assert!(std::fs::read_to_string(&ascii)
        .unwrap()
        .contains("figures: A = seat 0 (random)"));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let scores = v["scores"].as_array().unwrap();
    for (p, by) in v["points_by_kind"].as_array().unwrap().iter().enumerate() {
        let sum: u64 = by
            .as_object()
            .unwrap()
            .values()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(sum, scores[p].as_u64().unwrap(), "seat {p}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn simulate_prints_per_seat_means_and_writes_one_line_per_game() {
    let dir = tmp("sim");
    let games = dir.join("games.jsonl");
    let out = tegula(&[
        "simulate",
        "--variant",
        "variants/base.toml",
        "--games",
        "20",
        "--seed",
        "3",
        "--out",
        games.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("seat 0 (random)  mean score"), "{text}");
    assert!(text.contains("seat 1 (random)  mean score"), "{text}");
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&games)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 20);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["game"], i as u64);
        assert!(l["seed"].is_u64() && l["turns"].is_u64());
        assert_eq!(l["scores"].as_array().unwrap().len(), 2);
        assert!(!l["winners"].as_array().unwrap().is_empty());
    }
    // The lines are the same games as the statistics: their mean agrees.
    let json = tegula(&[
        "simulate",
        "--variant",
        "variants/base.toml",
        "--games",
        "20",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let mean0: f64 = lines
        .iter()
        .map(|l| l["scores"][0].as_f64().unwrap())
        .sum::<f64>()
        / 20.0;
    assert!((v["mean_scores"][0].as_f64().unwrap() - mean0).abs() < 1e-9);
    // One game, one player: singular words.
    let out = tegula(&[
        "simulate",
        "--variant",
        "variants/base.toml",
        "--games",
        "1",
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("1 game of base (2 players"));
    let out = tegula(&["play", "--variant", "variants/base.toml", "--players", "1"]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 player,"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_closed_pipe_ends_every_verb_quietly_with_0() {
    let dir = tmp("pipe");
    let log = logged_game(&dir);
    let log = log.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["compile", "variants/base.toml", "--format", "json"],
        vec!["board", log],
        vec!["board", log, "--format", "ascii"],
        vec!["render", "--sheet", "base"],
        vec!["validate", "tiles", "--format", "json"],
        vec!["tiles", "tiles"],
        vec!["check", "scenarios"],
    ];
    for args in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tegula"))
            .current_dir(root())
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read nothing and close the pipe at once, as `| head -c0` would.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: stderr {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_verb_states_its_exit_codes_in_help() {
    for verb in [
        "validate",
        "schema",
        "compile",
        "tiles",
        "render",
        "play",
        "simulate",
        "simulate-merge",
        "replay",
        "board",
        "check",
        "serve",
    ] {
        let out = tegula(&[verb, "--help"]);
        assert_exit(&out, 0);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Exit status: 0"), "{verb} --help:\n{text}");
    }
}

#[test]
fn a_refused_move_in_a_log_cites_its_rule_once() {
    let dir = tmp("rule-once");
    let log = logged_game(&dir);
    let text = std::fs::read_to_string(&log).unwrap();
    // Move the first placement far away from the start tile: B-2 forbids it.
    let bad: Vec<String> = text
        .lines()
        .map(|l| {
            if l.contains(r#""type":"place","turn":1,"#) {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let mut v = v.as_object().unwrap().clone();
                v.insert("x".into(), 40.into());
                serde_json::Value::Object(v).to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    let bad_log = dir.join("bad.jsonl");
    std::fs::write(&bad_log, bad.join("\n") + "\n").unwrap();
    let out = tegula(&["replay", bad_log.to_str().unwrap()]);
    assert_exit(&out, 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("B-2").count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn mega_tiles_sit_on_the_cells_the_engine_gave_them() {
    let path = root().join("variants/wonders.toml");
    let (rs, diags) = tegula_model::variant::build_variant(&path);
    let rs = rs.unwrap_or_else(|| panic!("{diags:#?}"));
    let (v, _) = tegula_model::variant::compile_variant(&path);
    let drawings = v.unwrap().tiles;
    let rules = Arc::new(Rules::new(rs).unwrap());
    let mut mega = 0;
    for seed in 0..4 {
        let mut game = Game::seeded(rules.clone(), 3, seed).unwrap();
        let mut agents =
            tegula_engine::sim::build_agents(&[tegula_engine::AgentKind::Random], &[1, 2, 3]);
        tegula_engine::sim::play_out(&mut game, &mut agents);
        let view = BoardView::from_game(&game, &drawings, &[]);
        let placed = game.tiles();
        for (i, t) in view.tiles.iter().enumerate() {
            mega += usize::from(t.view.cells.len() > 1);
            for (ci, c) in t.view.cells.iter().enumerate() {
                let (at, cell) = game.tile_at(t.x + c.x, t.y + c.y).unwrap_or_else(|| {
                    panic!("seed {seed}: no tile under {} cell {ci}", t.view.id)
                });
                assert_eq!(at, placed[i], "seed {seed}: {} cell {ci}", t.view.id);
                assert_eq!(
                    usize::from(cell),
                    ci,
                    "seed {seed}: {} cell {ci}",
                    t.view.id
                );
            }
        }
    }
    assert!(mega > 0, "some wonders were placed");
}

/// Games with every new kind of decision (own tiles, corner figures, moves, pool picks and takes,
/// markers) step through in `board --turn` and `replay --html`: corner figures are drawn on their
/// points and markers on their buildings.
#[test]
fn expansion_games_step_through_board_and_replay() {
    let dir = tmp("expansions");
    let log = dir.join("game.jsonl");
    let log_s = log.to_str().unwrap();
    let out = common::tegula(&[
        "play",
        "--variant",
        "variants/abbey-mayor-wonders.toml",
        "--players",
        "3",
        "--seed",
        "3",
        "--agents",
        "greedy",
        "--log",
        log_s,
    ]);
    common::assert_exit(&out, 0);
    let text = std::fs::read_to_string(&log).unwrap();
    for kind in ["\"take\"", "\"marker\":true", "\"tile\":\"abbey\""] {
        assert!(text.contains(kind), "the game has no {kind} line");
    }
    let html = dir.join("game.html");
    let out = common::tegula(&["replay", log_s, "--html", html.to_str().unwrap()]);
    common::assert_exit(&out, 0);
    let svg = dir.join("end.svg");
    let out = common::tegula(&["board", log_s, "--out", svg.to_str().unwrap()]);
    common::assert_exit(&out, 0);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}
