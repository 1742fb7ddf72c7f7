//! `tegula validate` as a user runs it: exit codes 0 / 1 / 2, the `--format json` contract
//! (issue 2, items 6 and 8: one object, its `diagnostics` array and its `facts` summary) and the
//! facts counted by source (rulebook vs reconstruction).

use std::path::{Path, PathBuf};

mod common;
use common::{assert_exit, tegula};

fn fixture(rel: &str) -> String {
    Path::new("tests/fixtures").join(rel).display().to_string()
}

#[test]
fn clean_file_exits_0() {
    let out = tegula(&["validate", &fixture("valid/single-field.toml")]);
    assert_exit(&out, 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok: 1 file, no problems"));
}

#[test]
fn shipped_data_is_clean() {
    let out = tegula(&["validate", "tiles", "variants"]);
    assert_exit(&out, 0);
}

#[test]
fn warnings_only_exit_0() {
    let out = tegula(&["validate", &fixture("invalid/missing-schema-line.toml")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("warning[missing-schema-line]"), "{stdout}");
    // The file may have other problems for the compiler; without errors the exit is 0.
    let errors = stdout.contains("error[");
    assert_eq!(
        out.status.code(),
        Some(if errors { 1 } else { 0 }),
        "{stdout}"
    );
}

#[test]
fn errors_exit_1_with_excerpt() {
    let out = tegula(&["validate", &fixture("invalid/schema-count-too-big.toml")]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "error[schema]: `count` in tile `big-1` must be at most 1000, found 1000000000000"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("schema-count-too-big.toml:9:9"), "{stdout}");
    assert!(stdout.contains("count = 1000000000000"), "{stdout}");
    // Not a terminal: no colour codes.
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
}

#[test]
fn missing_path_exits_2() {
    let out = tegula(&["validate", "no/such/path.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("error[io]"));
}

#[test]
fn no_path_is_a_usage_error() {
    let out = tegula(&["validate"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn json_is_one_object_with_the_contract_keys() {
    let out = tegula(&[
        "validate",
        "--format",
        "json",
        &fixture("invalid/schema-bad-enum.toml"),
        &fixture("invalid/toml-syntax.toml"),
        &fixture("valid/single-field.toml"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("stdout is one JSON value");
    let items = v["diagnostics"]
        .as_array()
        .expect("an array of diagnostics");
    assert!(items.len() >= 2, "{v}");
    for item in items {
        let o = item.as_object().unwrap();
        for key in ["code", "severity", "message", "file", "line", "column"] {
            assert!(o.contains_key(key), "{key} missing in {item}");
        }
        assert!(o["line"].is_u64() && o["column"].is_u64());
        assert!(matches!(o["severity"].as_str(), Some("error" | "warning")));
    }
    let codes: Vec<&str> = items.iter().filter_map(|i| i["code"].as_str()).collect();
    assert!(
        codes.contains(&"schema") && codes.contains(&"toml-syntax"),
        "{codes:?}"
    );
    // Sorted by file: bad-enum before toml-syntax.
    let files: Vec<PathBuf> = items
        .iter()
        .map(|i| PathBuf::from(i["file"].as_str().unwrap()))
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
}

#[test]
fn json_clean_has_no_diagnostics() {
    let out = tegula(&["validate", "--format", "json", &fixture("valid")]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["diagnostics"], serde_json::json!([]));
    assert_eq!(v["facts"]["fail"], 0);
}

#[test]
fn shipped_facts_are_counted_by_source_in_both_formats() {
    // Every fact of the shipped data names its source; human and JSON output agree on the counts.
    let json = tegula(&["validate", "--format", "json", "tiles", "variants"]);
    assert_exit(&json, 0);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let facts = &v["facts"];
    let list = facts["list"].as_array().unwrap();
    let count = |source: &str| list.iter().filter(|f| f["source"] == source).count();
    let (rulebook, reconstruction) = (count("rulebook"), count("reconstruction"));
    assert!(rulebook > 0 && reconstruction > 0, "{facts}");
    assert_eq!(
        rulebook + reconstruction,
        list.len(),
        "every fact has a source"
    );
    assert_eq!(facts["rulebook"], rulebook);
    assert_eq!(facts["reconstruction"], reconstruction);
    assert_eq!(facts["hold"], list.len());
    assert_eq!(facts["fail"], 0);
    assert_eq!(facts["unchecked"], 0);
    for f in list {
        for key in ["file", "line", "column", "rule", "source", "status"] {
            assert!(f.get(key).is_some(), "{key} missing in {f}");
        }
    }
    // Each fact once, although the variants re-check their tile sets' facts.
    let places: std::collections::BTreeSet<(String, u64)> = list
        .iter()
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(places.len(), list.len());
    // The wonders' road ends are the reconstruction's: e.g. Stonehenge's.
    assert!(list
        .iter()
        .any(|f| f["file"] == "tiles/wonders-1/stonehenge.toml"
            && f["source"] == "reconstruction"
            && f["rule"] == "W-18"));

    let human = tegula(&["validate", "tiles", "variants"]);
    assert_exit(&human, 0);
    let stdout = String::from_utf8_lossy(&human.stdout);
    let line = format!(
        "facts: {rulebook} from the rulebook, {reconstruction} from the reconstruction, all hold"
    );
    assert!(stdout.contains(&line), "{stdout}");
    assert!(stdout.trim_end().ends_with("no problems"), "{stdout}");
}

#[test]
fn a_failing_fact_is_counted_as_not_holding() {
    let out = tegula(&["validate", &fixture("invalid/fact-mismatch-tile.toml")]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("facts: 0 from the rulebook, 1 from the reconstruction; 1 does not hold"),
        "{stdout}"
    );
    let out = tegula(&[
        "validate",
        "--format",
        "json",
        &fixture("invalid/fact-mismatch-tile.toml"),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["facts"]["fail"], 1);
    assert_eq!(v["facts"]["list"][0]["status"], "fails");
}

#[test]
fn variants_revalidate_their_sets_but_each_problem_is_reported_once() {
    // tests/fixtures/dedupe: variant.toml names ./bad-set.toml, which has one schema error; the
    // folder run validates the set directly and again through the variant.
    let out = tegula(&["validate", "--format", "json", &fixture("dedupe")]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = v["diagnostics"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{v:#}");
    assert_eq!(items[0]["file"], "tests/fixtures/dedupe/bad-set.toml");
    assert_eq!(items[0]["line"], 8);
}

/// Issue 9, item 5: a file that states a fact the rulebook does not make is labelled so, in the
/// text output (one line per such file, naming its facts) and in JSON (each fact's `source`);
/// a file whose facts all come from the rulebook is not.
#[test]
fn files_with_reconstruction_facts_are_labelled_in_text_and_json() {
    let human = tegula(&["validate", "tiles"]);
    assert_exit(&human, 0);
    let stdout = String::from_utf8_lossy(&human.stdout);
    let labelled: Vec<&str> = stdout
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("not in the rulebook (reconstruction): ")
        })
        .collect();
    assert!(
        labelled.contains(&"tiles/wonders-1/stonehenge.toml: W-18 (line 96), W-19 (line 111)"),
        "{stdout}"
    );
    assert!(
        !labelled.iter().any(|l| l.starts_with("tiles/base.toml")),
        "{stdout}"
    );

    let json = tegula(&["validate", "--format", "json", "tiles"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let list = v["facts"]["list"].as_array().unwrap();
    // The same files, from the JSON list.
    let mut from_json: Vec<String> = list
        .iter()
        .filter(|f| f["source"] == "reconstruction")
        .map(|f| f["file"].as_str().unwrap().to_string())
        .collect();
    from_json.dedup();
    let from_text: Vec<String> = labelled
        .iter()
        .map(|l| l.split_once(": ").unwrap().0.to_string())
        .collect();
    assert_eq!(from_json, from_text);
    assert!(list
        .iter()
        .filter(|f| f["file"] == "tiles/base.toml")
        .all(|f| f["source"] == "rulebook"));
}

/// A word outside the ability language (an unknown trigger, count or condition key) gets a note
/// pointing at the list of what the language cannot say; a value the language has but out of
/// range (a malformed rule id) does not.
#[test]
fn words_outside_the_ability_language_point_at_its_limits() {
    let note = "docs/RULE-LANGUAGE.md, \"What it cannot say yet\"";
    for f in [
        "schema-ability-unknown-trigger.toml",
        "schema-ability-unknown-count.toml",
        "schema-ability-unknown-condition.toml",
    ] {
        let out = tegula(&["validate", &fixture(&format!("invalid/{f}"))]);
        assert_exit(&out, 1);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("error[schema]") && text.contains(note),
            "{f}: {text}"
        );
    }
    let out = tegula(&["validate", &fixture("invalid/schema-ability-rule-id.toml")]);
    assert_exit(&out, 1);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("error[schema]") && !text.contains(note),
        "{text}"
    );
    // The heading the note names is there.
    let doc = std::fs::read_to_string("docs/RULE-LANGUAGE.md").unwrap();
    assert!(doc.contains("\n## What it cannot say yet\n"));
}
