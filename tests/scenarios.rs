//! Scenario files: every file in `scenarios/` runs through the engine and must pass (rules B-2 …
//! B-7, W-18 and AM-1 … AM-12, with scores worked out by hand in each file); deliberately wrong
//! and invalid scenarios must be reported by `tegula check` with exit codes 1 and 2.

use tegula_scenario::{load, run, VariantCache};

mod common;
use common::{assert_exit, root, tegula, toml_files};

fn check(args: &[&str]) -> (i32, String, String) {
    let out = tegula(&[&["check"], args].concat());
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every scenario in `scenarios/` loads cleanly, declares final scores and the rules it
/// exercises, and every expectation holds.
#[test]
fn every_scenario_passes() {
    let files = toml_files("scenarios");
    assert!(files.len() >= 18, "scenarios/ holds {} files", files.len());
    let mut cache = VariantCache::default();
    let mut problems = Vec::new();
    for f in &files {
        let (sc, diags) = load(f, &mut cache);
        let Some(sc) = sc else {
            problems.push(format!("{}: invalid: {diags:#?}", f.display()));
            continue;
        };
        if !diags.is_empty() {
            problems.push(format!("{}: warnings: {diags:#?}", f.display()));
        }
        if sc.final_scores.is_none() || sc.rules.is_empty() {
            problems.push(format!(
                "{}: every scenario states `rules` and `[expect] scores`",
                f.display()
            ));
        }
        let out = run(&sc);
        for fl in &out.failures {
            problems.push(format!("{}:{}:{}: {fl}", f.display(), fl.line, fl.column));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Base rules B-2 … B-7, W-18, the Abbey & Mayor rules AM-1 … AM-12 and the rules of the six
/// action expansions (AB, KR, GM, LB, CA, TO) each have at least one scenario citing them.
#[test]
fn every_base_rule_has_a_scenario() {
    let mut cache = VariantCache::default();
    let mut cited = std::collections::BTreeSet::new();
    for f in toml_files("scenarios") {
        if let (Some(sc), _) = load(&f, &mut cache) {
            cited.extend(sc.rules.clone());
        }
    }
    for rule in ["B-2", "B-3", "B-4", "B-5", "B-6", "B-7", "W-18"] {
        assert!(cited.contains(rule), "no scenario cites {rule}");
    }
    for n in 1..=12 {
        let rule = format!("AM-{n}");
        assert!(cited.contains(&rule), "no scenario cites {rule}");
    }
    // Issue 30: every rule of The Abbot, King & Robber Baron, Goldmines, Little Buildings and
    // The Cathars (RULES-ACTIONS.md) has a hand-worked scenario; issue 31: The Tower's TO-1 ..
    // TO-9 (TO-9 in variants/tower-dragon.toml, with the dragon).
    let rules = [
        ("AB", 5),
        ("KR", 4),
        ("GM", 5),
        ("LB", 3),
        ("CA", 4),
        ("TO", 9),
    ];
    for (prefix, last) in rules {
        for n in 1..=last {
            let rule = format!("{prefix}-{n}");
            assert!(cited.contains(&rule), "no scenario cites {rule}");
        }
    }
}

/// A wrong expected score (B-4: 12, the fixture says 10) makes `check` exit 1 and name the step,
/// its line, and expected vs actual.
#[test]
fn wrong_expectation_is_reported() {
    let (code, out, _) = check(&["tests/fixtures/scenarios-bad"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAILED"), "{out}");
    assert!(
        out.contains("city-wrong-score.toml:26:3: step 3: events differ"),
        "{out}"
    );
    assert!(
        out.contains("missing: seat 0 scores 10 for a city (B-4)"),
        "{out}"
    );
    assert!(
        out.contains("unexpected: seat 0 scores 12 for a city (B-4)"),
        "{out}"
    );
    assert!(out.contains("final scores differ"), "{out}");
    assert!(out.contains("expected: [10, 0]"), "{out}");
    assert!(out.contains("actual:   [12, 0]"), "{out}");

    let (code, out, _) = check(&["tests/fixtures/scenarios-bad", "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["failed"], 1);
    assert_eq!(v["passed"], 0);
    let f = &v["scenarios"][0]["failures"][0];
    assert_eq!(f["step"], 3);
    assert_eq!(f["line"], 26);
}

/// Invalid scenario files exit 2 with positioned diagnostics naming every problem.
#[test]
fn invalid_scenarios_are_diagnosed() {
    let (code, out, _) = check(&["tests/fixtures/scenarios-invalid/unknown-names.toml"]);
    assert_eq!(code, 2, "{out}");
    for needle in [
        "unknown tile id `Z`",
        "bad rotation 5",
        "tile `E` has no segment `road`",
        "bad rotation \"up\"",
        "unknown follower type `wizard`",
        "seat 3 does not exist",
        "unknown-names.toml:7:8",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
    let (code, out, _) = check(&["tests/fixtures/scenarios-invalid/unknown-key.toml"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("rotaton"), "{out}");
    assert!(out.contains("unknown-key.toml:9:1"), "{out}");
    let (code, out, _) = check(&["tests/fixtures/scenarios-invalid/too-many-copies.toml"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("tile `C` is used 2 times"), "{out}");
    assert!(
        out.contains("the next step must place the same tile `C`"),
        "{out}"
    );
    let (code, _, _) = check(&["tests/fixtures/scenarios-invalid/does-not-exist.toml"]);
    assert_eq!(code, 2);
}

/// The same moves under two variants give different scores (legacy house rules, B-4/B-6).
#[test]
fn variants_change_scores() {
    let mut cache = VariantCache::default();
    let (std, _) = load(
        &root().join("scenarios/b4-small-city-standard.toml"),
        &mut cache,
    );
    let (legacy, _) = load(
        &root().join("scenarios/legacy-small-city-and-farms.toml"),
        &mut cache,
    );
    let (std, legacy) = (std.expect("standard"), legacy.expect("legacy"));
    assert_eq!(run(&std).scores, vec![4, 3]);
    assert_eq!(run(&legacy).scores, vec![2, 4]);
}

/// The goods scenarios fail without seat resources: the same moves under a ruleset whose
/// resources are taken out give the base game's scores (TB-2, TB-3).
#[test]
fn goods_scenarios_need_the_resources() {
    let mut cache = VariantCache::default();
    for (file, with, without) in [
        (
            "tb2-completer-takes-goods-without-a-follower",
            vec![6, 10],
            vec![6, 0],
        ),
        ("tb1-two-symbols-in-one-city", vec![28, 0], vec![8, 0]),
    ] {
        let path = root().join(format!("scenarios/{file}.toml"));
        let (sc, _) = load(&path, &mut cache);
        let sc = sc.expect("valid scenario");
        let outcome = run(&sc);
        assert!(outcome.passed(), "{file}");
        assert_eq!(outcome.scores, with, "{file}");
        let mut bare = sc.clone();
        let mut rs = (*bare.ruleset).clone();
        rs.resources.clear();
        // With them go the rules of the one form their `gain` and `award` were lowered to.
        rs.when.retain(|w| !names_a_resource(w));
        bare.ruleset = std::sync::Arc::new(rs);
        let outcome = run(&bare);
        assert_eq!(outcome.scores, without, "{file}: {:?}", outcome.failures);
        assert!(!outcome.passed(), "{file} passes without resources");
    }
}

/// Whether a rule of the one form gains a resource or pays by holdings.
fn names_a_resource(w: &tegula_ruleset::When) -> bool {
    use tegula_ruleset::{Act, Seat};
    w.then.iter().any(|a| {
        matches!(
            a,
            Act::Gain { .. }
                | Act::Score {
                    to: Seat::Most(_),
                    ..
                }
        )
    })
}

/// Every expected number matters: raising any one expected score event's points, or any seat's
/// expected final score, by one, or adding a seat to a step's `declined`, makes the scenario
/// fail (so a scenario cannot pass when the engine scores differently from the hand
/// computation, or offers own tiles to other seats).
#[test]
fn every_expected_number_is_checked() {
    use tegula_scenario::load::Expected;
    let mut cache = VariantCache::default();
    for f in toml_files("scenarios") {
        let (sc, _) = load(&f, &mut cache);
        let sc = sc.expect("valid scenario");
        let mut variants = Vec::new();
        // Points of score and award events, amounts of gains.
        let raise = |e: &mut Expected| match e {
            Expected::Score { points, .. } | Expected::Award { points, .. } => {
                *points += 1;
                true
            }
            Expected::Gain { amount, .. } => {
                *amount += 1;
                true
            }
            _ => false,
        };
        for (i, st) in sc.steps.iter().enumerate() {
            for j in 0..st.expect.len() {
                let mut m = sc.clone();
                if raise(&mut m.steps[i].expect[j]) {
                    variants.push(m);
                }
            }
        }
        if let Some(end) = &sc.end {
            for j in 0..end.expect.len() {
                let mut m = sc.clone();
                if m.end.as_mut().is_some_and(|e| raise(&mut e.expect[j])) {
                    variants.push(m);
                }
            }
        }
        // A `declined` list with one more offer than the engine makes fails too.
        for (i, st) in sc.steps.iter().enumerate() {
            if st.declined.is_some() {
                let mut m = sc.clone();
                if let Some(d) = &mut m.steps[i].declined {
                    d.push(0);
                }
                variants.push(m);
            }
        }
        let seats = sc.final_scores.as_ref().map_or(0, |s| s.0.len());
        for seat in 0..seats {
            let mut m = sc.clone();
            if let Some((s, _)) = &mut m.final_scores {
                s[seat] += 1;
            }
            variants.push(m);
        }
        for m in variants {
            assert!(
                !run(&m).passed(),
                "{}: a changed expectation still passes",
                f.display()
            );
        }
    }
}

/// The committed `schema/scenario.schema.json` is what the code generates (run
/// `cargo run -- schema` after changing the scenario types).
#[test]
fn committed_scenario_schema_matches_the_code() {
    let path = root().join("schema").join(tegula_scenario::SCENARIO_SCHEMA);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let expected = tegula_model::schema::to_pretty(&tegula_scenario::schema_json());
    assert!(
        committed == expected,
        "{} is out of date: run `cargo run -- schema`",
        path.display()
    );
}

/// `tegula validate` checks scenario files too (by their `#:schema` line): the shipped ones are
/// clean, the invalid fixtures are errors with positions.
#[test]
fn validate_checks_scenario_files() {
    let run = |p: &str| tegula(&["validate", p]);
    let ok = run("scenarios");
    assert_exit(&ok, 0);
    let bad = run("tests/fixtures/scenarios-invalid/unknown-names.toml");
    let out = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{out}");
    assert!(out.contains("unknown tile id `Z`"), "{out}");
    assert!(out.contains("unknown-names.toml:7:8"), "{out}");
}

/// `check FOLDER` on a folder whose subfolder holds a variant and a tile set (issue 18 item 4):
/// those files are not scenarios and are reported as skipped, never as INVALID scenarios; the
/// scenario beside them still runs and the exit code is that of the scenarios alone.
#[test]
fn check_skips_variants_and_tile_sets_in_subfolders() {
    let top = data_tree("check-skip", &["base.toml"]);
    let dir = top.join("scenarios");
    let sub = dir.join("variants");
    std::fs::create_dir_all(&sub).unwrap();
    let copy = |from: &str, to: &std::path::Path| {
        std::fs::copy(root().join(from), to).unwrap();
    };
    copy("variants/base.toml", &sub.join("base.toml"));
    copy("tiles/base.toml", &sub.join("tiles.toml"));
    let scenario =
        std::fs::read_to_string(root().join("scenarios/b4-small-city-standard.toml")).unwrap();
    std::fs::write(dir.join("s.toml"), scenario).unwrap();
    let d = dir.to_str().unwrap();
    let (code, out, _) = check(&[d]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("INVALID"), "{out}");
    assert!(
        out.contains("skipped") && out.contains("a variant") && out.contains("a tile set"),
        "{out}"
    );
    assert!(
        out.contains("1 scenario: 1 ok, 0 failed, 0 invalid, 2 skipped"),
        "{out}"
    );
    let (code, json, _) = check(&[d, "--format", "json"]);
    assert_eq!(code, 0, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["invalid"], 0, "{json}");
    assert_eq!(v["skipped"], 2, "{json}");
    let _ = std::fs::remove_dir_all(&top);
}

/// A final-round own-tile offer (AM-4) that no step answers is a failure naming the seat, never
/// a silent decline (issue 18 item 4): before a step (its `declined` must list the seat) and
/// after the last step (`declined_at_end`). Without the keys the shipped scenarios fail.
#[test]
fn unanswered_final_round_offers_fail() {
    let top = data_tree("final-offers", &["abbey-mayor.toml"]);
    let dir = top.join("scenarios");
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "am4-final-round-seat-order.toml",
            "declined = [1]\n",
            "list seat 1 in this step's `declined`",
        ),
        (
            "am4-final-round-declined-at-the-end.toml",
            "declined_at_end = [0]\n",
            "list seat 0 in `declined_at_end`",
        ),
    ];
    for (file, key, message) in cases {
        let text = std::fs::read_to_string(root().join("scenarios").join(file)).unwrap();
        assert!(text.contains(key), "{file}");
        let text = text.replacen(key, "", 1);
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let (code, out, _) = check(&[path.to_str().unwrap()]);
        assert_eq!(code, 1, "{out}");
        assert!(
            out.contains("offered its own tile in the final round (AM-4)"),
            "{out}"
        );
        assert!(out.contains(message), "{out}");
    }
    let _ = std::fs::remove_dir_all(&top);
}

/// A data tree outside the repository for scenarios to run in (a scenario's `variant` stays
/// inside its data root): `schema/variant.schema.json` marking the root, the shipped tile sets
/// and the shipped `variants` named; its path.
fn data_tree(name: &str, variants: &[&str]) -> std::path::PathBuf {
    let top = std::env::temp_dir().join(format!("tegula-tree-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&top);
    for sub in ["schema", "tiles", "variants"] {
        std::fs::create_dir_all(top.join(sub)).unwrap();
    }
    let copy = |rel: String| std::fs::copy(root().join(&rel), top.join(&rel)).unwrap();
    copy("schema/variant.schema.json".into());
    for v in variants {
        copy(format!("variants/{v}"));
    }
    for entry in std::fs::read_dir(root().join("tiles")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".toml") {
            copy(format!("tiles/{name}"));
        }
    }
    top
}
