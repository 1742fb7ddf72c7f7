//! The engine's benchmark reads compiled artefacts (`crates/engine/benches/data/V.json`), so
//! that the engine crate needs no TOML compiler, not even as a dev-dependency. This test keeps
//! them true: each must equal what the current compiler writes for `variants/V.toml`
//! (`tegula compile variants/V.toml --format json`), and every variant the benchmark names
//! must have one. `UPDATE_SNAPSHOTS=1` rewrites them.

use std::path::PathBuf;

mod common;
use common::root;

/// The variants the benchmark plays: the `GAMES` list of `crates/engine/benches/engine.rs`.
fn bench_variants() -> Vec<String> {
    let src = std::fs::read_to_string(root().join("crates/engine/benches/engine.rs")).unwrap();
    let start = src
        .find("const GAMES: &[&str] = &[")
        .expect("the GAMES list");
    let list = &src[start..];
    let list = &list[list.find('[').unwrap() + 4..list.find("];").unwrap()];
    let names: Vec<String> = list
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 3, "GAMES parsed as {names:?}");
    names
}

fn data_dir() -> PathBuf {
    root().join("crates/engine/benches/data")
}

#[test]
fn the_benchmark_artefacts_are_what_the_compiler_writes() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for v in bench_variants() {
        let toml = root().join("variants").join(format!("{v}.toml"));
        let (rs, diags) = tegula_model::variant::build_variant(&toml);
        let text = rs
            .unwrap_or_else(|| panic!("{}: {diags:#?}", toml.display()))
            .to_json();
        let path = data_dir().join(format!("{v}.json"));
        if update {
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(format!(
                "{}: missing or stale; run `tegula compile variants/{v}.toml --format json > \
                 crates/engine/benches/data/{v}.json` (or this test with UPDATE_SNAPSHOTS=1)",
                path.display()
            ));
        }
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

#[test]
fn no_artefact_is_left_over() {
    let wanted = bench_variants();
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let known = name
            .strip_suffix(".json")
            .is_some_and(|v| wanted.iter().any(|w| w == v));
        assert!(
            known,
            "crates/engine/benches/data/{name} is no benchmark variant's artefact"
        );
    }
}

/// The engine reads only the lowered contract: its manifest names no `tegula-model` in any
/// dependency table (dev included), and none of its sources (library, tests, benches) uses it.
#[test]
fn the_engine_crate_does_not_depend_on_the_model() {
    let engine = root().join("crates/engine");
    let manifest = std::fs::read_to_string(engine.join("Cargo.toml")).unwrap();
    let deps: Vec<&str> = manifest
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter(|l| l.contains("tegula-model") || l.contains("tegula_model"))
        .collect();
    assert!(deps.is_empty(), "crates/engine/Cargo.toml: {deps:?}");
    let mut users = Vec::new();
    let mut dirs = vec![engine];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                if text.contains("tegula_model") {
                    users.push(path.display().to_string());
                }
            }
        }
    }
    assert!(
        users.is_empty(),
        "engine sources using tegula_model: {users:?}"
    );
}
