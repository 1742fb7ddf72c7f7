//! Inns & Cathedrals as data (issue 21, part e): the tiles' facts, the variant's values citing
//! IC-3 / IC-4, the large meeple (IC-2) and six players (IC-6). Each hand-worked scenario of
//! `scenarios/ic*.toml` (run by `tests/scenarios.rs`) is run here again under a variant that
//! differs from `variants/inns-cathedrals.toml` only in the mechanism it tests, and must fail
//! there: the mechanism, not the board, makes the numbers.

use std::path::{Path, PathBuf};

use tegula_scenario::VariantCache;

mod common;
use common::{assert_exit, fails_under, play_and_replay, root, run_under, tegula};

const LINE: &str = "variant = \"../variants/inns-cathedrals.toml\"";

/// A private data root for this test: the schemas, the I&C variant and its tile sets, so that
/// a variant written into its `variants/` may extend `inns-cathedrals.toml` (a variant reads
/// only files inside its data root).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tegula-ic-{}-{name}", std::process::id()));
    for sub in ["schema", "tiles", "variants"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for f in std::fs::read_dir(root().join("schema")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join("schema").join(f.file_name().unwrap())).unwrap();
    }
    for f in [
        "tiles/base.toml",
        "tiles/inns-cathedrals.toml",
        "variants/inns-cathedrals.toml",
    ] {
        std::fs::copy(root().join(f), dir.join(f)).unwrap();
    }
    dir
}

/// A variant extending the I&C variant with `change` (TOML), written into `dir`'s `variants/`;
/// its path.
fn child(dir: &Path, change: &str) -> String {
    let text = format!(
        "#:schema ../schema/variant.schema.json\nextends = \"inns-cathedrals.toml\"\n\
         id = \"ic-child\"\nname = \"I&C changed\"\n{change}\n"
    );
    let path = dir.join("variants/ic-child.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Each scenario holds under the I&C variant (tests/scenarios.rs), loads under `variant` and
/// fails there.
fn each_fails_under(scenarios: &[&str], variant: &str, tmp: &Path) {
    let mut cache = VariantCache::default();
    let unchanged = tmp.join("variants/inns-cathedrals.toml");
    let unchanged = unchanged.to_str().unwrap();
    for s in scenarios {
        let path = root().join("scenarios").join(s);
        // The control: from this folder, under the I&C variant's copy, it holds.
        assert_eq!(
            run_under(&path, LINE, unchanged, tmp, &mut cache),
            Some(false),
            "{s} does not hold under the copied variant"
        );
        assert_eq!(
            run_under(&path, LINE, variant, tmp, &mut cache),
            Some(true),
            "{s} holds (or does not load) without the mechanism it tests"
        );
    }
}

/// The copy of the I&C tile set in the scratch root `tmp`, with `from` replaced by `to` once
/// (which must be there); its path.
fn edited_tiles(tmp: &Path, from: &str, to: &str) -> String {
    let path = tmp.join("tiles/inns-cathedrals.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let changed = text.replacen(from, to, 1);
    assert_ne!(changed, text, "`{from}` is not in the tile set");
    std::fs::write(&path, changed).unwrap();
    path.display().to_string()
}

/// What `tegula validate` says about the invalid file at `path` (it must exit 1).
fn refused(path: &str) -> String {
    let out = tegula(&["validate", path]);
    assert_exit(&out, 1);
    String::from_utf8(out.stdout).unwrap()
}

/// IC-3 and IC-4: the same boards under the base game's values give other scores.
#[test]
fn the_inn_and_cathedral_scenarios_fail_under_the_base_values() {
    let tmp = scratch("values");
    let base_values = "[values]\nroad.complete = \"tiles\"\nroad.incomplete = \"tiles\"\n\
        city.complete = \"2 * tiles + 2 * pennants\"\ncity.incomplete = \"tiles + pennants\"";
    let variant = child(&tmp, base_values);
    each_fails_under(
        &[
            "ic3-inn-road-complete.toml",
            "ic3-two-inns-still-two-per-tile.toml",
            "ic3-inn-road-incomplete-scores-nothing.toml",
            "ic4-cathedral-city-complete.toml",
            "ic4-cathedral-city-incomplete-scores-nothing.toml",
            "ic5-farmer-scores-cathedral-city.toml",
            "ic2-large-meeple-beats-a-meeple.toml",
        ],
        &variant,
        &tmp,
    );
    // The scores alone are not the point: with the values but no cited rule the events cite
    // B-4 / B-6, and the scenarios expecting IC-3 / IC-4 fail too.
    let uncited = "[values]\nroad.complete = \"if any(inn) then 2 * tiles else tiles\"\n\
        city.complete = \"if any(cathedral) then 3 * tiles + 3 * pennants else 2 * tiles + 2 * pennants\"";
    let variant = child(&tmp, uncited);
    each_fails_under(
        &[
            "ic3-inn-road-complete.toml",
            "ic4-cathedral-city-complete.toml",
        ],
        &variant,
        &tmp,
    );
    std::fs::remove_dir_all(&tmp).ok();
}

/// IC-2: with a large meeple of strength 1 the city is a tie and both seats score.
#[test]
fn the_large_meeple_scenario_fails_when_it_weighs_one() {
    let tmp = scratch("strength");
    let followers = "[[followers]]\nid = \"meeple\"\nname = \"Meeple\"\ncount = 7\nstrength = 1\n\
        [[followers]]\nid = \"large-meeple\"\nname = \"Large meeple\"\ncount = 1\nstrength = 1";
    let variant = child(&tmp, followers);
    each_fails_under(&["ic2-large-meeple-beats-a-meeple.toml"], &variant, &tmp);
    std::fs::remove_dir_all(&tmp).ok();
}

/// IC-6: the six-player scenario does not even load where the variant allows 5 players.
#[test]
fn the_six_player_scenario_fails_with_five_seats_at_most() {
    let tmp = scratch("seats");
    let variant = child(&tmp, "players = { min = 2, max = 5 }");
    let path = root().join("scenarios/ic6-six-players.toml");
    let mut cache = VariantCache::default();
    assert!(fails_under(&path, LINE, &variant, &tmp, &mut cache));
    let moved = tmp.join("ic6-six-players.toml");
    let out = tegula(&["check", moved.to_str().unwrap()]);
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("players"), "{said}");
    std::fs::remove_dir_all(&tmp).ok();
}

/// The shipped files validate with their facts (18 tiles, 6 inns, 2 cathedrals, 3 pennants)
/// holding, and a wrong tag count is a located `fact-mismatch` (exit 1).
#[test]
fn the_facts_hold_and_a_wrong_tag_count_is_located() {
    let out = tegula(&[
        "validate",
        "tiles/inns-cathedrals.toml",
        "variants/inns-cathedrals.toml",
    ]);
    assert_exit(&out, 0);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        (stdout.clone() + &stderr).contains("all hold"),
        "{stdout}{stderr}"
    );
    let tmp = scratch("facts");
    let path = edited_tiles(
        &tmp,
        "tags = { inn = 6, cathedral = 2 }",
        "tags = { inn = 7, cathedral = 2 }",
    );
    let err = refused(&path);
    assert!(
        err.contains("error[fact-mismatch]: tags.inn: expected 7, the tiles give 6"),
        "{err}"
    );
    assert!(err.contains("inns-cathedrals.toml:43:16"), "{err}");
    // More than 100 tags in one fact is refused by the schema, before any is counted.
    let many: Vec<String> = (0..101).map(|i| format!("t{i} = 0")).collect();
    let path = edited_tiles(
        &tmp,
        "tags = { inn = 7, cathedral = 2 }",
        &format!("tags = {{ {} }}", many.join(", ")),
    );
    let err = refused(&path);
    assert!(
        err.contains("error[schema]: `tags` in fact #1")
            && err.contains("more than 100 properties"),
        "{err}"
    );
    std::fs::remove_dir_all(&tmp).ok();
}

/// A value citing a rule nobody declared is a located `bad-value` (exit 1), with the nearest id.
#[test]
fn a_value_citing_an_unknown_rule_is_located() {
    let tmp = scratch("cite");
    let variant = child(
        &tmp,
        "[values]\nroad.complete = \"if any(inn) then [IC-33] 2 * tiles else tiles\"",
    );
    let err = refused(&variant);
    assert!(
        err.contains("error[bad-value]: values.road.complete: unknown rule `IC-33`"),
        "{err}"
    );
    assert!(err.contains("did you mean `IC-3`"), "{err}");
    assert!(err.contains("ic-child.toml:6:35"), "{err}");
    std::fs::remove_dir_all(&tmp).ok();
}

/// 200 random games with 2 to 6 players run cleanly, and their events cite IC-3 and IC-4.
#[test]
fn two_hundred_games_play_and_cite_the_expansion_rules() {
    for players in ["2", "6"] {
        let out = tegula(&[
            "simulate",
            "--variant",
            "variants/inns-cathedrals.toml",
            "--games",
            "100",
            "--players",
            players,
        ]);
        assert_exit(&out, 0);
    }
    let tmp = scratch("logs");
    let mut cited = String::new();
    for seed in ["0", "1", "2", "3"] {
        let log = tmp.join(format!("{seed}.jsonl"));
        let out = tegula(&[
            "play",
            "--variant",
            "variants/inns-cathedrals.toml",
            "--players",
            "6",
            "--seed",
            seed,
            "--log",
            log.to_str().unwrap(),
        ]);
        assert_exit(&out, 0);
        cited += &std::fs::read_to_string(&log).unwrap();
    }
    for rule in ["\"rule\":\"IC-3\"", "\"rule\":\"IC-4\"", "\"rule\":\"B-4\""] {
        assert!(cited.contains(rule), "no event cites {rule}");
    }
    std::fs::remove_dir_all(&tmp).ok();
}

/// Pictures mark inns and cathedrals with the shape and colour the tile set's `[set] glyphs`
/// give them: in `tegula render`, and in the replay viewer's boards. Change the data and the
/// picture changes; a tile without tagged segments gets no mark.
#[test]
fn pictures_mark_tags_as_the_data_says() {
    let svg = |args: &[&str]| {
        let out = tegula(args);
        assert_exit(&out, 0);
        String::from_utf8(out.stdout).unwrap()
    };
    let inn = svg(&["render", "ic-o"]);
    assert!(
        inn.contains(r##"<g class="glyph" fill="#6d3b1f""##) && inn.contains("inn on #0 road"),
        "{inn}"
    );
    let cathedral = svg(&["render", "ic-a"]);
    assert!(cathedral.contains("cathedral on #0 city"), "{cathedral}");
    assert!(!svg(&["render", "D"]).contains("class=\"glyph\""));
    // The same tile with the mark changed in the data.
    let tmp = scratch("glyphs");
    edited_tiles(
        &tmp,
        r##"{ tag = "inn", shape = "house", colour = "#6d3b1f" }"##,
        r##"{ tag = "inn", shape = "circle", colour = "#123456" }"##,
    );
    let tiles = tmp.join("tiles");
    let moved = svg(&["render", "ic-o", "--tiles", tiles.to_str().unwrap()]);
    assert!(
        moved.contains(r##"<g class="glyph" fill="#123456""##) && moved.contains("<circle"),
        "{moved}"
    );
    // The replay viewer draws them on its boards.
    let log = tmp.join("game.jsonl");
    let html = tmp.join("game.html");
    let page = play_and_replay(&common::IC_SIX_SEATS, &log, &html);
    assert!(
        page.contains("<title>inn on #"),
        "no inn in the replay viewer"
    );
    std::fs::remove_dir_all(&tmp).ok();
}

/// A glyph for a tag no segment of the file carries, or a second glyph for one tag, is a
/// located error (exit 1).
#[test]
fn a_glyph_for_no_tag_or_twice_for_one_is_located() {
    let tmp = scratch("glyph-errors");
    let path = edited_tiles(
        &tmp,
        r##"  { tag = "cathedral", shape = "spire", colour = "#5a4a8c" },"##,
        r##"  { tag = "cathedrale", shape = "spire", colour = "#5a4a8c" },
  { tag = "inn", shape = "circle", colour = "#000000" },"##,
    );
    let said = refused(&path);
    assert!(
        said.contains(
            "error[dangling-reference]: no segment or tile of this file carries the tag `cathedrale`"
        ) && said.contains("inns-cathedrals.toml:26:11"),
        "{said}"
    );
    assert!(
        said.contains("error[duplicate-id]: a second glyph for tag `inn`")
            && said.contains("inns-cathedrals.toml:27:11"),
        "{said}"
    );
    std::fs::remove_dir_all(&tmp).ok();
}

/// The naive reference engine recomputes the final scoring of I&C games from scratch with the
/// same value expressions (the cited rule changes only which rule an event names): every final
/// score event, whatever rule it cites, adds up to what it recomputes.
#[test]
fn final_scoring_matches_the_naive_engine() {
    use tegula_engine::{naive, sim, AgentKind, Event, Game, PileOrder};
    let rules = common::variant_rules("variants/inns-cathedrals.toml");
    let mut cited = 0;
    for seed in 0..30u64 {
        let players = 2 + (seed % 5) as u8;
        let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
        let seeds: Vec<u64> = (0..u64::from(players)).map(|p| seed * 8 + p).collect();
        let kinds = vec![AgentKind::Random; players as usize];
        sim::play_out(&mut g, &mut sim::build_agents(&kinds, &seeds));
        let from = g.final_scoring_from().expect("the game ended");
        let mut finals = vec![0u32; players as usize];
        for e in &g.events()[from..] {
            if let Event::Score {
                rule,
                players: ps,
                points,
                ..
            } = e
            {
                cited += usize::from(rule.starts_with("IC-"));
                for &p in ps {
                    finals[p as usize] += points;
                }
            }
        }
        assert_eq!(finals, naive::final_scores(&g), "seed {seed}");
    }
    assert!(cited > 0, "some final score cites IC-3 or IC-4");
}

/// A glyph's shape is one of the six and its colour `#rrggbb`: anything else (a colour that
/// would break out of the SVG attribute) is a schema error at the value and never drawn.
#[test]
fn a_glyph_of_unknown_shape_or_colour_is_a_schema_error() {
    let tmp = scratch("glyph-schema");
    let path = edited_tiles(
        &tmp,
        r##"{ tag = "inn", shape = "house", colour = "#6d3b1f" }"##,
        r##"{ tag = "inn", shape = "hut", colour = "red\" onload=\"x" }"##,
    );
    let said = refused(&path);
    assert!(
        said.contains("error[schema]: `shape` in `glyphs` #1 of [set]: expected one of `house`"),
        "{said}"
    );
    assert!(
        said.contains("error[schema]: `colour` in `glyphs` #1 of [set] must match the pattern"),
        "{said}"
    );
    std::fs::remove_dir_all(&tmp).ok();
}
