//! Inns & Cathedrals as data (issue 21, part e): the tiles' facts, the variant's values citing
//! IC-3 / IC-4, the large meeple (IC-2) and six players (IC-6). Each hand-worked scenario of
//! `scenarios/ic*.toml` (run by `tests/scenarios.rs`) is run here again under a variant that
//! differs from `variants/inns-cathedrals.toml` only in the mechanism it tests, and must fail
//! there: the mechanism, not the board, makes the numbers.

use std::path::{Path, PathBuf};

use tegula_scenario::VariantCache;

mod common;
use common::{assert_exit, fails_under, root, run_under, tegula};

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
    let text = std::fs::read_to_string(root().join("tiles/inns-cathedrals.toml")).unwrap();
    let wrong = text.replacen(
        "tags = { inn = 6, cathedral = 2 }",
        "tags = { inn = 7, cathedral = 2 }",
        1,
    );
    assert_ne!(wrong, text);
    let path = tmp.join("tiles/inns-cathedrals.toml");
    std::fs::write(&path, wrong).unwrap();
    let out = tegula(&["validate", path.to_str().unwrap()]);
    assert_exit(&out, 1);
    let err = String::from_utf8_lossy(&out.stdout);
    assert!(
        err.contains("error[fact-mismatch]: tags.inn: expected 7, the tiles give 6"),
        "{err}"
    );
    assert!(err.contains("inns-cathedrals.toml:42:16"), "{err}");
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
    let out = tegula(&["validate", &variant]);
    assert_exit(&out, 1);
    let err = String::from_utf8_lossy(&out.stdout);
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
