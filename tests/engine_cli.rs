//! CLI tests of `tegula play`, `simulate` and `replay` on `variants/base.toml`.

mod common;

use std::path::PathBuf;
use std::process::Output;

use common::{assert_exit, tegula};
use serde_json::Value;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tegula-engine-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn play_log(seed: &str, name: &str) -> (Value, PathBuf) {
    let log = tmp(name);
    let o = tegula(&[
        "play",
        "--variant",
        "variants/base.toml",
        "--players",
        "3",
        "--seed",
        seed,
        "--agents",
        "random,greedy",
        "--log",
        log.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_exit(&o, 0);
    (json(&o), log)
}

#[test]
fn play_prints_scores_winners_and_a_deterministic_log() {
    let (v, log) = play_log("11", "a.jsonl");
    let scores = v["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 3);
    let best = scores.iter().map(|s| s.as_u64().unwrap()).max().unwrap();
    for w in v["winners"].as_array().unwrap() {
        assert_eq!(scores[w.as_u64().unwrap() as usize].as_u64().unwrap(), best);
    }
    assert_eq!(v["log"].as_str().unwrap(), log.to_str().unwrap());
    let (_, log2) = play_log("11", "b.jsonl");
    let a = std::fs::read(&log).unwrap();
    assert_eq!(
        a,
        std::fs::read(&log2).unwrap(),
        "same seed, same decisions → same bytes"
    );
    let text = String::from_utf8(a).unwrap();
    assert!(text
        .lines()
        .next()
        .unwrap()
        .starts_with("{\"type\":\"setup\""));
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["type"], "end");
    assert_eq!(&last["scores"], &v["scores"]);
}

#[test]
fn replay_accepts_a_log_and_rejects_tampering() {
    let (_, log) = play_log("5", "r.jsonl");
    let var = "variants/base.toml";
    let ok = tegula(&["replay", log.to_str().unwrap(), "--variant", var]);
    assert_exit(&ok, 0);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();

    // A changed score: divergence at that line.
    let k = lines
        .iter()
        .position(|l| l.contains("\"type\":\"score\"") && l.contains("\"points\":"))
        .expect("a score line");
    let mut bad: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    bad[k] = bad[k].replacen("\"points\":", "\"points\":1", 1);
    let f = tmp("tampered.jsonl");
    std::fs::write(&f, bad.join("\n")).unwrap();
    let o = tegula(&["replay", f.to_str().unwrap(), "--variant", var]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("line {}", k + 1)), "{err}");
    assert!(err.contains("divergence"), "{err}");

    // An illegal placement (far from the map): illegal move with its number (B-2).
    let k = lines
        .iter()
        .position(|l| l.contains("\"type\":\"place\""))
        .unwrap();
    let mut bad: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    let v: Value = serde_json::from_str(lines[k]).unwrap();
    let x = v["x"].as_i64().unwrap();
    bad[k] = bad[k].replacen(&format!("\"x\":{x}"), "\"x\":40", 1);
    std::fs::write(&f, bad.join("\n")).unwrap();
    let o = tegula(&["replay", f.to_str().unwrap(), "--variant", var]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("illegal move") && err.contains("(move 1)"),
        "{err}"
    );

    // A corrupt line: clear error with its line number, no panic.
    let mut bad: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    bad[3] = "{not json".to_string();
    std::fs::write(&f, bad.join("\n")).unwrap();
    let o = tegula(&["replay", f.to_str().unwrap(), "--variant", var]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 4") && err.contains("corrupt"), "{err}");

    // A truncated log: the game is not over.
    std::fs::write(&f, lines[..lines.len() / 2].join("\n")).unwrap();
    let o = tegula(&["replay", f.to_str().unwrap(), "--variant", var]);
    assert_eq!(o.status.code(), Some(1));

    // Missing file: usage/IO error.
    let o = tegula(&["replay", "no/such/log.jsonl", "--variant", var]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn simulate_is_deterministic_across_jobs() {
    let run = |jobs: &str| {
        let o = tegula(&[
            "simulate",
            "--variant",
            "variants/base.toml",
            "--players",
            "2",
            "--games",
            "300",
            "--seed",
            "3",
            "--jobs",
            jobs,
            "--format",
            "json",
        ]);
        assert_exit(&o, 0);
        // No progress bar when stderr is not a terminal.
        assert!(
            o.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        json(&o)
    };
    let a = run("1");
    let b = run("2");
    for key in [
        "games",
        "decisions",
        "mean_total_score",
        "mean_scores",
        "win_rates",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }
    assert_eq!(a["games"], 300);
    assert!(a["games_per_second"].as_f64().unwrap() > 0.0);
    assert!(a["decisions_per_second"].as_f64().unwrap() > 0.0);
    let rates: f64 = a["win_rates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_f64().unwrap())
        .sum();
    assert!((rates - 1.0).abs() < 1e-9, "ties are shared: {rates}");
}

#[test]
fn bad_inputs_exit_2_with_a_message() {
    let o = tegula(&["play", "--variant", "no/such.toml"]);
    assert_eq!(o.status.code(), Some(2));
    let o = tegula(&["play", "--variant", "variants/base.toml", "--players", "9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("players"));
    let o = tegula(&[
        "play",
        "--variant",
        "variants/base.toml",
        "--agents",
        "nope",
    ]);
    assert_eq!(o.status.code(), Some(2));
    // A tile set is not a variant: diagnostics, exit 2.
    let o = tegula(&["simulate", "--variant", "tiles/base.toml", "--games", "1"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A tile set or scenario given as `--variant` is refused with one plain sentence (exit 2).
#[test]
fn wrong_kind_of_file_as_variant_is_named() {
    for (file, kind) in [
        ("tiles/base.toml", "is a tile-set file"),
        (
            "scenarios/b3-road-loop.toml",
            "is a scenario: run it with `tegula check FILE`",
        ),
    ] {
        let o = tegula(&["play", "--variant", file, "--players", "2"]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(kind) && err.contains("not a variant (such as variants/base.toml)"),
            "{err}"
        );
    }
}
