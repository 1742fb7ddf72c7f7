//! The committed JSON Schemas (`schema/*.schema.json`, issue 2 item 5) must equal what the code
//! generates. If this fails, run `cargo run -- schema` and commit the result.

use std::path::Path;

mod common;
use common::{assert_exit, tegula, toml_files_recursive};

#[test]
fn committed_schemas_match_the_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    let mut stale = Vec::new();
    for (name, schema) in tegula_model::schema::schemas() {
        let expected = tegula_model::schema::to_pretty(&schema);
        match std::fs::read_to_string(dir.join(name)) {
            Ok(text) if text == expected => {}
            Ok(_) => stale.push(format!("{name} differs")),
            Err(e) => stale.push(format!("{name}: {e}")),
        }
    }
    assert!(
        stale.is_empty(),
        "schema/ is out of date ({}): run `cargo run -- schema` and commit schema/",
        stale.join(", ")
    );
}

#[test]
fn cli_check_agrees() {
    let out = tegula(&["schema", "--check", "--out", "schema"]);
    assert_exit(&out, 0);
}

#[test]
fn every_data_file_starts_with_a_schema_line() {
    let files: Vec<_> = ["tiles", "variants", "scenarios"]
        .into_iter()
        .flat_map(toml_files_recursive)
        .collect();
    assert!(!files.is_empty());
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let target = tegula_model::load::schema_line_target(&text);
        assert!(
            matches!(
                target,
                Some("tileset.schema.json" | "variant.schema.json" | "scenario.schema.json")
            ),
            "{} does not start with a #:schema line naming a known schema",
            f.display()
        );
    }
}

#[test]
fn schema_verb_writes_then_check_detects_staleness() {
    let dir = std::env::temp_dir().join(format!("tegula-schema-{}", std::process::id()));
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tegula"))
            .arg("schema")
            .args(args)
            .arg("--out")
            .arg(&dir)
            .output()
            .unwrap()
    };
    // Missing files: --check fails and writes nothing.
    let out = run(&["--check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!dir.join("tileset.schema.json").exists());
    // Write, then check passes.
    assert_eq!(run(&[]).status.code(), Some(0));
    assert_eq!(run(&["--check"]).status.code(), Some(0));
    // Tamper with one file: --check reports it as differing.
    std::fs::write(dir.join("variant.schema.json"), "{}\n").unwrap();
    let out = run(&["--check", "--format", "json"]);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let statuses: Vec<(String, String)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["file"].as_str().unwrap().to_string(),
                e["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        statuses
            .iter()
            .any(|(f, s)| f.ends_with("variant.schema.json") && s == "differs"),
        "{statuses:?}"
    );
    assert!(
        statuses
            .iter()
            .any(|(f, s)| f.ends_with("tileset.schema.json") && s == "unchanged"),
        "{statuses:?}"
    );
    assert!(leftovers.is_empty(), "temporary files left behind");
}
