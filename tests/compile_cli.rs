//! `tegula compile` and `tegula tiles` as a user runs them: outputs, formats and exit codes
//! (0 clean, 1 problems found, 2 usage / I/O).

use std::process::Output;

use tegula_ruleset::Ruleset;

mod common;
use common::{assert_exit, tegula};

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn compile_a_tile_set_prints_its_model_as_json() {
    let o = tegula(&["compile", "tiles/base.toml"]);
    assert_exit(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["set"], "base");
    let tiles = v["tiles"].as_array().unwrap();
    assert_eq!(tiles.len(), 24); // B-1: 24 types
    let d = tiles.iter().find(|t| t["id"] == "D").unwrap();
    assert_eq!(d["start"], true);
    assert_eq!(d["features"].as_array().unwrap().len(), 4);
}

#[test]
fn compile_a_variant_prints_a_ruleset_that_reads_back() {
    let o = tegula(&["compile", "variants/base.toml"]);
    assert_exit(&o, 0);
    let rs: Ruleset = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(rs.id, "base");
    assert_eq!(rs.pile_size() + 1, 72); // B-1: 72 tiles, one of them the start tile
    assert!(rs.tiles.iter().all(|t| t.rotations.len() == 4));
}

#[test]
fn compile_one_tile_as_dot() {
    let o = tegula(&[
        "compile",
        "tiles/base.toml",
        "--format",
        "dot",
        "--tile",
        "L",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let s = stdout(&o);
    assert!(s.starts_with("graph tegula {"), "{s}");
    assert!(s.contains("\"L/road-e\" [label=\"road-e (road)\""), "{s}");
    assert!(!s.contains("\"D/"), "{s}");
}

#[test]
fn compile_a_mega_tile_as_dot_draws_its_connections() {
    let o = tegula(&[
        "compile",
        "tests/fixtures/valid/variant-w21.toml",
        "--format",
        "dot",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let s = stdout(&o);
    // W-21: the variant keeps the meadow apart, drawn dashed red.
    assert!(
        s.contains("\"meadow-domino/top.field\" -- \"meadow-domino/bottom.field\" [label=\"meadow\", style=dashed, color=red]"),
        "{s}"
    );
}

#[test]
fn compile_writes_the_output_file_atomically() {
    let dir = std::env::temp_dir().join(format!("tegula-compile-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("base.json");
    let o = tegula(&[
        "compile",
        "variants/base.toml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    let rs: Ruleset = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(rs.tiles.len(), 24);
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(leftovers, 1, "only the output file remains");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compile_reports_problems_with_exit_1_and_usage_errors_with_exit_2() {
    let o = tegula(&["compile", "tests/fixtures/invalid/missing-connection.toml"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("missing-connection"), "{err}");
    let o = tegula(&["compile", "tiles/base.toml", "--tile", "no-such-tile"]);
    assert_eq!(o.status.code(), Some(2));
    let o = tegula(&["compile", "no/such/file.toml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn tiles_lists_a_set_as_json_and_as_a_table() {
    let o = tegula(&["tiles", "tiles/base.toml", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(rows.len(), 24);
    let c = rows.iter().find(|r| r["id"] == "C").unwrap();
    // TILES.md: C is a four-sided city with one pennant and no field.
    assert_eq!(
        (
            c["cities"].as_u64(),
            c["fields"].as_u64(),
            c["pennants"].as_u64()
        ),
        (Some(1), Some(0), Some(1))
    );
    let o = tegula(&["tiles", "tiles/base.toml"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("24 tile types, 72 tiles"),
        "{}",
        stdout(&o)
    );
    let o = tegula(&["tiles", "no/such/folder"]);
    assert_eq!(o.status.code(), Some(2));
}
