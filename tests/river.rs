//! The River as data (`variants/river.toml`, R-1..R-6): in random games every river tile is
//! placed (or removed, R-6) before any land tile and the lake is the last river tile (R-2); the
//! fast placement generator equals the naive checker with the placement rules (R-3, R-4); a
//! scripted pile must draw the groups in order; chance steps only ever draw from the group
//! being drawn; an unplaceable river tile leaves the game citing R-6; logs replay.

mod common;

use std::sync::Arc;

use proptest::prelude::*;
use tegula_engine::{
    Action, Agent, Event, Game, MoveError, Phase, PileOrder, Placement, RandomAgent, Rules,
    SetupError,
};

fn river() -> Arc<Rules> {
    common::variant_rules("variants/river.toml")
}

fn tile(rules: &Rules, id: &str) -> u16 {
    rules
        .tile_index(id)
        .unwrap_or_else(|| panic!("no tile {id}"))
}

/// Tile ids placed or discarded, in order.
fn laid(g: &Game) -> Vec<String> {
    let ids = g.events().iter().filter_map(|e| match e {
        Event::Place { tile, .. } | Event::Discard { tile, .. } => Some(tile.clone()),
        _ => None,
    });
    ids.collect()
}

/// R-2: every river tile (`river-…`) comes before every land tile, and the lake last of them.
fn river_first_lake_last(ids: &[String]) -> Result<(), String> {
    let river = ids.iter().take_while(|t| t.starts_with("river-")).count();
    if ids[river..].iter().any(|t| t.starts_with("river-")) {
        return Err(format!("a river tile after a land tile: {ids:?}"));
    }
    if river != 11 {
        return Err(format!("{river} river tiles laid, not 11: {ids:?}"));
    }
    if ids[river - 1] != "river-10" {
        return Err(format!("the lake is not the last river tile: {ids:?}"));
    }
    Ok(())
}

/// One random decision; in the placement phase the fast generator must equal the naive one.
fn step(g: &mut Game, agent: &mut RandomAgent) -> Result<(), String> {
    match g.phase() {
        Phase::Place => {
            let mut fast = g.placements().to_vec();
            fast.sort_unstable();
            if fast != g.naive_placements() {
                return Err(format!(
                    "turn {}: placements differ from the naive checker",
                    g.turn()
                ));
            }
            let i = agent.choose_placement(g, g.placements());
            assert!(g.play_placement(i));
        }
        Phase::Follower => {
            let c = agent.choose_follower(g, g.follower_options());
            assert!(g.play_follower(c));
        }
        phase => return Err(format!("unexpected phase {phase:?}")),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// R-2..R-4 over whole random games, with the naive checkers and a log replay.
    #[test]
    fn river_games_lay_the_river_first(seed in any::<u64>(), players in 2u8..=5) {
        let rules = river();
        let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
        let mut agent = RandomAgent::new(seed ^ 0x5EED);
        while g.phase() != Phase::Over {
            let r = step(&mut g, &mut agent);
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        }
        let r = river_first_lake_last(&laid(&g));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        let r = common::audit_and_replay(rules, &g);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    /// With chance steps every outcome is a tile of the group being drawn, so however the draws
    /// are decided the river still comes first and the lake last (R-2).
    #[test]
    fn chance_steps_draw_only_from_the_group_being_drawn(seed in any::<u64>()) {
        let rules = river();
        let g = Game::new(rules.clone(), 2, PileOrder::Shuffled(seed), true).unwrap();
        let mut g = g.with_chance_steps();
        let mut agent = RandomAgent::new(seed);
        let mut pick = seed;
        while g.phase() != Phase::Over {
            if g.is_chance_node() {
                let outcomes = g.chance_outcomes();
                let river_left = (0..rules.ruleset().tiles.len() as u16)
                    .filter(|&t| rules.tile_id(t).starts_with("river-"))
                    .any(|t| g.remaining_counts()[t as usize] > 0);
                for &(t, _) in &outcomes {
                    prop_assert_eq!(rules.tile_id(t).starts_with("river-"), river_left);
                }
                let total: f64 = outcomes.iter().map(|o| o.1).sum();
                prop_assert!((total - 1.0).abs() < 1e-9, "{}", total);
                pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let t = outcomes[(pick >> 33) as usize % outcomes.len()].0;
                g.apply(Action::Draw(t)).unwrap();
                continue;
            }
            let r = step(&mut g, &mut agent);
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        }
        let r = river_first_lake_last(&laid(&g));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// A scripted pile that draws a land tile before a river tile is refused (R-2); in order it
/// is accepted.
#[test]
fn a_scripted_pile_must_draw_the_groups_in_order() {
    let rules = river();
    let (straight, lake, d) = (
        tile(&rules, "river-2"),
        tile(&rules, "river-10"),
        tile(&rules, "D"),
    );
    let err = Game::scripted(rules.clone(), 2, vec![straight, d, lake]).unwrap_err();
    assert_eq!(err, SetupError::GroupOrder { position: 2 });
    assert!(err.to_string().contains("draw 3"), "{err}");
    assert!(Game::scripted(rules, 2, vec![straight, lake, d]).is_ok());
}

/// A chance step refuses a land tile while river tiles are left (R-2), and a redeal keeps the
/// groups in order.
#[test]
fn a_chance_step_refuses_a_tile_of_a_later_group() {
    let rules = river();
    let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(7), true)
        .unwrap()
        .with_chance_steps();
    assert!(g.is_chance_node());
    let d = tile(&rules, "D");
    assert!(g.remaining_counts()[d as usize] > 0);
    assert_eq!(
        g.apply(Action::Draw(d)),
        Err(MoveError::NotInPile { tile: d })
    );
    assert!(!g.legal_actions().contains(&Action::Draw(d)));
    g.determinize(99);
    assert!(g.draw_default());
    assert!(rules.tile_id(g.current_tile()).starts_with("river-"));
}

/// R-6: a river tile with no legal placement leaves the game, the discard cites R-6, and the
/// same seat draws the next river tile (the spiral of scenarios/house-river-no-repeated-turn.toml,
/// where the open end lies beside the spring's field).
#[test]
fn an_unplaceable_river_tile_leaves_citing_r6() {
    let rules = common::variant_rules("variants/house/river-no-repeated-turn.toml");
    let ids = [
        "river-3", "river-2", "river-3", "river-2", "river-9", "river-7", "river-4", "river-10",
    ];
    let pile: Vec<u16> = ids.iter().map(|id| tile(&rules, id)).collect();
    let mut g = Game::scripted(rules.clone(), 2, pile).unwrap();
    let at = [
        (1, 0, 1),
        (1, -1, 1),
        (1, -2, 0),
        (0, -2, 0),
        (-1, -2, 3),
        (-1, -1, 0),
    ];
    for (x, y, rotation) in at {
        let p = Placement {
            tile: g.current_tile(),
            x,
            y,
            rotation,
        };
        g.apply(Action::Place(p)).unwrap();
        g.apply(Action::Pass).unwrap();
    }
    let discard = g.events().iter().find_map(|e| match e {
        Event::Discard {
            tile, rule, player, ..
        } => Some((tile.clone(), rule.clone(), *player)),
        _ => None,
    });
    assert_eq!(discard, Some(("river-4".into(), "R-6".into(), 0)));
    assert_eq!(rules.tile_id(g.current_tile()), "river-10");
    assert_eq!(g.current_player(), 0);
}

/// The refusals explain themselves with the data's rule ids (R-3, R-4).
#[test]
fn refused_river_placements_cite_r3_and_r4() {
    let rules = river();
    let ids = ["river-3", "river-2", "river-3", "river-2", "river-9"];
    let pile: Vec<u16> = ids.iter().map(|id| tile(&rules, id)).collect();
    let mut g = Game::scripted(rules.clone(), 2, pile).unwrap();
    let away = Placement {
        tile: g.current_tile(),
        x: 0,
        y: 1,
        rotation: 0,
    };
    let err = g.check(Action::Place(away)).unwrap_err();
    assert_eq!((err.kind(), g.rule_of(&err)), ("placement-rule", "R-3"));
    for (x, y, rotation) in [(1, 0, 1), (1, -1, 1), (1, -2, 0), (0, -2, 0)] {
        let p = Placement {
            tile: g.current_tile(),
            x,
            y,
            rotation,
        };
        g.apply(Action::Place(p)).unwrap();
        g.apply(Action::Pass).unwrap();
    }
    let back = Placement {
        tile: g.current_tile(),
        x: -1,
        y: -2,
        rotation: 3,
    };
    let err = g.check(Action::Place(back)).unwrap_err();
    assert_eq!((err.kind(), g.rule_of(&err)), ("placement-rule", "R-4"));
    assert!(!g.placements().contains(&back));
}

/// The CLI plays 200 river games cleanly (issue 21 item 7).
#[test]
fn simulate_plays_200_river_games() {
    let out = common::tegula(&[
        "simulate",
        "--variant",
        "variants/river.toml",
        "--games",
        "200",
        "--seed",
        "1",
    ]);
    common::assert_exit(&out, 0);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("200 games of river"), "{text}");
}

/// Water edges are drawn: a blue band across the water sides on the tile picture and on the board
/// picture of a river game (which the replay viewer shows too).
#[test]
fn water_edges_are_drawn_on_tiles_and_boards() {
    let out = common::tegula(&["render", "river-2"]);
    common::assert_exit(&out, 0);
    let svg = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        svg.matches("sides E, W: declared edge 0</title>").count(),
        1,
        "{svg}"
    );
    // A bend is drawn round its corner (a curve), not through the centre.
    let out = common::tegula(&["render", "river-3"]);
    let svg = String::from_utf8(out.stdout).unwrap();
    let band = svg
        .lines()
        .find(|l| l.contains("sides S, W: declared edge 0"))
        .unwrap();
    assert!(band.contains(" Q"), "{band}");
    let out = common::tegula(&["render", "D"]);
    let svg = String::from_utf8(out.stdout).unwrap();
    assert!(!svg.contains("declared edge"), "{svg}");

    let dir = std::env::temp_dir().join(format!("tegula-river-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("game.jsonl");
    let log = log.to_str().unwrap();
    let out = common::tegula(&["play", "--variant", "variants/river.toml", "--log", log]);
    common::assert_exit(&out, 0);
    let out = common::tegula(&["board", log]);
    common::assert_exit(&out, 0);
    let board = String::from_utf8(out.stdout).unwrap();
    assert!(
        board.contains(": declared edge 0</title>"),
        "no water on the board"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A copy of the River's data in a temporary root (`tiles/`, `variants/`) with `edit` applied to
/// the river tile set and `variant` as the variant file; `tegula validate` on that variant.
fn validate_edited(name: &str, edit: impl Fn(String) -> String, variant: &str) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("tegula-river-{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("tiles")).unwrap();
    std::fs::create_dir_all(dir.join("variants")).unwrap();
    std::fs::create_dir_all(dir.join("schema")).unwrap();
    let read = |p: &str| std::fs::read_to_string(common::root().join(p)).unwrap();
    for s in ["schema/variant.schema.json", "schema/tileset.schema.json"] {
        std::fs::write(dir.join(s), read(s)).unwrap();
    }
    std::fs::write(dir.join("tiles/base.toml"), read("tiles/base.toml")).unwrap();
    std::fs::write(dir.join("tiles/river.toml"), edit(read("tiles/river.toml"))).unwrap();
    std::fs::write(dir.join("variants/v.toml"), variant).unwrap();
    let v = dir.join("variants/v.toml");
    let out = common::tegula(&["validate", v.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// The shipped variant with `extra` lines added at the end.
fn river_variant_with(extra: &str) -> String {
    let v = std::fs::read_to_string(common::root().join("variants/river.toml")).unwrap();
    let v = v.split("[[fact]]").next().unwrap().to_string();
    format!("{v}\n{extra}\n")
}

/// Hostile River data gets located diagnostics and exit 1, never a panic: an undeclared edge
/// kind (with a suggestion), a second edge kind, an unknown `start`, a tile in two pile groups.
#[test]
fn bad_river_data_is_reported_where_it_is_written() {
    let typo = |t: String| {
        t.replacen(
            r#"{ edge = "water" }, "field", "field""#,
            r#"{ edge = "watr" }, "field", "field""#,
            1,
        )
    };
    let (code, text) = validate_edited("typo", typo, &river_variant_with(""));
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("dangling-reference") && text.contains("did you mean `water`?"),
        "{text}"
    );
    assert!(text.contains("river.toml:"), "{text}");

    let second = |t: String| t + "\n[[edge]]\nid = \"lava\"\nname = \"Lava\"\n";
    let (code, text) = validate_edited("second", second, &river_variant_with(""));
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("bad-variant") && text.contains("2 edge kinds"),
        "{text}"
    );

    let same = |t: String| t;
    let bad_start = river_variant_with("").replace(r#"start = "river-1""#, r#"start = "river-0""#);
    let (code, text) = validate_edited("start", same, &bad_start);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("`start` names tile `river-0`"), "{text}");

    let twice = river_variant_with("[[pile]]\ntiles = [\"river-2\"]");
    let (code, text) = validate_edited("twice", same, &twice);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("already in a pile group") && text.contains("v.toml:"),
        "{text}"
    );
}

/// A hand-edited artefact whose pile group or declared side names nothing is refused by the
/// engine with its reason (exit 1 on `simulate`), not a panic.
#[test]
fn a_bad_river_artefact_is_refused() {
    let (rs, diags) =
        tegula_model::variant::build_variant(&common::root().join("variants/river.toml"));
    let mut rs = rs.unwrap_or_else(|| panic!("{diags:?}"));
    rs.pile_groups[0].tiles.push(60_000);
    let err = Rules::new(rs.clone()).unwrap_err().to_string();
    assert!(err.contains("pile group 0: tile type 60000"), "{err}");
    rs.pile_groups[0].tiles.pop();
    rs.edge_kinds.clear();
    let err = Rules::new(rs).unwrap_err().to_string();
    assert!(
        err.contains("declared edge kind 0 is not declared"),
        "{err}"
    );
}

/// A snapshot taken mid-river (chance steps on, a draw decided out of the seeded order) restores
/// to the same game, whose next chance step still offers only river tiles (R-2).
#[test]
fn a_snapshot_in_the_river_restores_the_groups() {
    let rules = river();
    let mut g = Game::new(rules.clone(), 3, PileOrder::Shuffled(11), true)
        .unwrap()
        .with_chance_steps();
    let mut agent = RandomAgent::new(11);
    for _ in 0..3 {
        let last = *g.chance_outcomes().last().map(|o| &o.0).unwrap();
        g.apply(Action::Draw(last)).unwrap();
        while !g.is_chance_node() {
            step(&mut g, &mut agent).unwrap();
        }
    }
    let back = Game::from_json(&g.to_json(), rules.clone()).unwrap();
    assert_eq!(back, g);
    assert!(back
        .chance_outcomes()
        .iter()
        .all(|&(t, _)| rules.tile_id(t).starts_with("river-")));
}

/// Under the plain reading of R-4 two bends in a row the same way are refused, the other way is
/// legal.
#[test]
fn the_plain_reading_refuses_two_bends_in_a_row_the_same_way() {
    let rules = common::variant_rules("variants/house/river-no-repeated-turn.toml");
    let bend = tile(&rules, "river-3");
    let mut g = Game::scripted(rules.clone(), 2, vec![bend, bend]).unwrap();
    let at = |rotation, y| Placement {
        tile: bend,
        x: 1,
        y,
        rotation,
    };
    // In from the west, out to the north: a left turn.
    g.apply(Action::Place(at(1, 0))).unwrap();
    g.apply(Action::Pass).unwrap();
    // In from the south, out to the west: left again.
    let err = g.check(Action::Place(at(0, -1))).unwrap_err();
    assert_eq!((err.kind(), g.rule_of(&err)), ("placement-rule", "R-4"));
    // In from the south, out to the east: a right turn.
    assert_eq!(g.check(Action::Place(at(3, -1))), Ok(()));
}

/// More hostile River data: a start tile whose pile copies a `tile_count` removed, a pile group
/// naming no tile, R-4's reading in a variant without the rule, an `[[edge]]` named like a
/// built-in kind: each located, exit 1.
#[test]
fn more_bad_river_data_is_reported_where_it_is_written() {
    let same = |t: String| t;
    let cases = [
        (
            "[tile_count]\nriver-1 = 0",
            "`start` tile `river-1` has no copy in the pile",
        ),
        (
            "[[pile]]\ntiles = [\"river-99\"]",
            "pile group names tile `river-99`, which no set has",
        ),
    ];
    for (extra, want) in cases {
        let (code, text) = validate_edited("more", same, &river_variant_with(extra));
        assert_eq!(code, 1, "{text}");
        assert!(
            text.contains(want) && text.contains("v.toml:"),
            "{want}: {text}"
        );
    }
    let base = std::fs::read_to_string(common::root().join("variants/base.toml")).unwrap();
    let base = base.split("[[fact]]").next().unwrap().to_string();
    let no_river = format!("{base}\n[readings]\nopen_end = \"no-repeated-turn\"\n");
    let (code, text) = validate_edited("reading", same, &no_river);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("readings.open_end decides R-4"), "{text}");

    let builtin = |t: String| t.replacen("id = \"water\"", "id = \"field\"", 1);
    let (code, text) = validate_edited("builtin", builtin, &river_variant_with(""));
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("edge kind `field` is already a side kind"),
        "{text}"
    );
}

/// A river log whose setup line draws a land tile before the river is refused by `replay`
/// (exit 1, the engine's reason), not replayed out of order.
#[test]
fn a_log_drawing_land_before_the_river_is_refused() {
    let dir = std::env::temp_dir().join(format!("tegula-river-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("game.jsonl");
    let log_s = log.to_str().unwrap();
    let out = common::tegula(&["play", "--variant", "variants/river.toml", "--log", log_s]);
    common::assert_exit(&out, 0);
    let text = std::fs::read_to_string(&log).unwrap();
    let setup = text.lines().next().unwrap();
    // The same multiset, one D moved from the land pile to the front.
    let bad = setup
        .replacen(",\"D\"", "", 1)
        .replacen("\"pile\":[", "\"pile\":[\"D\",", 1);
    assert_ne!(bad, setup);
    let bad_log = dir.join("bad.jsonl");
    std::fs::write(&bad_log, text.replacen(setup, &bad, 1)).unwrap();
    let out = common::tegula(&["replay", bad_log.to_str().unwrap()]);
    common::assert_exit(&out, 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("earlier pile group"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 35 item 8: with hands of 3 (`tests/fixtures/valid/river-hand-3.toml`), river tiles kept
/// in a hand outlast the pile; when they then fit nowhere they leave the game by their pile
/// group's `unplaceable_rule` (R-6), as drawn river tiles do, not by the placement rule (B-2,
/// which this game cited before). In this game (seed 1, random agents) four kept river tiles
/// are discarded after the last pile tile.
#[test]
fn a_kept_river_tile_discarded_after_the_pile_cites_r6() {
    let log = std::env::temp_dir().join(format!("tegula-river-hand-{}.jsonl", std::process::id()));
    let out = common::tegula(&[
        "play",
        "--variant",
        "tests/fixtures/valid/river-hand-3.toml",
        "--players",
        "2",
        "--seed",
        "1",
        "--agents",
        "random",
        "--log",
        log.to_str().unwrap(),
    ]);
    common::assert_exit(&out, 0);
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::remove_file(&log).ok();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The index of the last draw: discards after it are of kept tiles.
    let last_draw = lines.iter().rposition(|v| v["type"] == "draw").unwrap();
    let kept_river: Vec<&serde_json::Value> = lines[last_draw..]
        .iter()
        .filter(|v| v["type"] == "discard")
        .filter(|v| v["tile"].as_str().unwrap().starts_with("river-"))
        .collect();
    assert!(
        kept_river.len() >= 2,
        "no kept river tile discarded: {text}"
    );
    for d in kept_river {
        assert_eq!(d["rule"], "R-6", "{d}");
    }
}
