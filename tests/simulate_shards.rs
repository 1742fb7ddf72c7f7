//! `tegula simulate --shard I/N` and `tegula simulate-merge`: the shards of a run, merged, give
//! the whole run's report and `--out` file byte for byte; bad shard specifications and shard
//! files that do not make up one run are refused with located messages.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{assert_exit, root};

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tegula-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Run `tegula` in `dir`.
fn tegula_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tegula"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run tegula")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The variant by absolute path, so that runs from different folders name it alike.
fn variant(name: &str) -> String {
    root().join("variants").join(name).display().to_string()
}

/// `tegula simulate` of the test run (Wonders, 3 seats, 10 games, seed 5) in `dir`, with
/// `extra` options and the default agents.
fn run(dir: &Path, seed: &str, extra: &[&str]) -> Output {
    let v = variant("wonders.toml");
    let mut args = vec![
        "simulate",
        "--variant",
        &v,
        "--players",
        "3",
        "--games",
        "10",
        "--seed",
        seed,
    ];
    args.extend_from_slice(extra);
    tegula_in(dir, &args)
}

/// The test run with its agents (random and greedy), with `extra` options.
fn simulate(dir: &Path, seed: &str, extra: &[&str]) -> Output {
    let mut args = vec!["--agents", "random,greedy", "--progress-every", "0"];
    args.extend_from_slice(extra);
    run(dir, seed, &args)
}

/// Shard `spec` of the test run with `seed`, written to `dir/file`.
fn shard(dir: &Path, seed: &str, spec: &str, file: &str) {
    let o = simulate(dir, seed, &["--shard", spec, "--out", file, "--jobs", "2"]);
    assert_exit(&o, 0);
}

#[test]
fn merged_shards_are_the_whole_run_byte_for_byte() {
    let dir = scratch("whole");
    let (whole, parts) = (dir.join("whole"), dir.join("parts"));
    std::fs::create_dir_all(&whole).unwrap();
    std::fs::create_dir_all(&parts).unwrap();
    for format in ["json", "human"] {
        let one = simulate(
            &whole,
            "5",
            &["--out", "games.jsonl", "--no-timing", "--format", format],
        );
        assert_exit(&one, 0);
        for i in 0..3 {
            shard(&parts, "5", &format!("{i}/3"), &format!("s{i}.jsonl"));
        }
        // Given out of order: the merge orders the shards itself.
        let merged = tegula_in(
            &parts,
            &[
                "simulate-merge",
                "s2.jsonl",
                "s0.jsonl",
                "s1.jsonl",
                "--out",
                "games.jsonl",
                "--format",
                format,
            ],
        );
        assert_exit(&merged, 0);
        assert_eq!(
            String::from_utf8_lossy(&merged.stdout),
            String::from_utf8_lossy(&one.stdout),
            "{format} report"
        );
        let games = std::fs::read(whole.join("games.jsonl")).unwrap();
        assert_eq!(games.iter().filter(|&&b| b == b'\n').count(), 10);
        assert_eq!(
            std::fs::read(parts.join("games.jsonl")).unwrap(),
            games,
            "--out"
        );
    }
    // The Wonders run places pool tiles: their figures are merged too.
    let one = simulate(&whole, "5", &["--no-timing", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert!(!report["pool_tiles"].as_object().unwrap().is_empty());
}

#[test]
fn a_shard_plays_its_games_with_the_whole_runs_seeds() {
    let dir = scratch("seeds");
    shard(&dir, "5", "1/4", "s.jsonl");
    let o = simulate(&dir, "5", &["--out", "all.jsonl"]);
    assert_exit(&o, 0);
    let all = std::fs::read_to_string(dir.join("all.jsonl")).unwrap();
    let text = std::fs::read_to_string(dir.join("s.jsonl")).unwrap();
    let mut lines = text.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["tegula_simulate_shard"]["shard"]["index"], 1);
    assert_eq!(header["tegula_simulate_shard"]["sums"]["games"], 3);
    let wanted: Vec<&str> = all.lines().skip(1).step_by(4).collect();
    assert_eq!(lines.collect::<Vec<_>>(), wanted);
}

#[test]
fn bad_shard_specifications_exit_2_naming_the_flag() {
    let dir = scratch("specs");
    for (spec, says) in [
        ("0/0", "between 1 and"),
        ("3/2", "0 to 1, not 3"),
        ("2/2", "0 to 1, not 2"),
        ("x/y", "`x` is not a whole number"),
        ("1", "expected I/N"),
    ] {
        let o = simulate(&dir, "5", &["--shard", spec, "--out", "s.jsonl"]);
        assert_exit(&o, 2);
        let e = stderr(&o);
        assert!(e.contains("--shard") && e.contains(says), "{spec}: {e}");
        assert!(!dir.join("s.jsonl").exists());
    }
    let o = simulate(&dir, "5", &["--shard", "0/2"]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("--out"), "{}", stderr(&o));
}

/// `simulate-merge FILES…` in `dir`: exit code and stderr.
fn merge(dir: &Path, files: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["simulate-merge", "--out", "merged.jsonl"];
    args.extend_from_slice(files);
    let o = tegula_in(dir, &args);
    (o.status.code(), stderr(&o))
}

#[test]
fn shards_that_do_not_make_up_one_run_exit_1_located() {
    let dir = scratch("sets");
    shard(&dir, "5", "0/3", "a0.jsonl");
    shard(&dir, "5", "1/3", "a1.jsonl");
    shard(&dir, "5", "2/3", "a2.jsonl");
    shard(&dir, "6", "2/3", "b2.jsonl");
    std::fs::copy(dir.join("a1.jsonl"), dir.join("copy1.jsonl")).unwrap();
    let cases: [(&[&str], &str); 3] = [
        (&["a0.jsonl", "a2.jsonl"], "shard 1/3 missing"),
        (
            &["a0.jsonl", "a1.jsonl", "copy1.jsonl", "a2.jsonl"],
            "copy1.jsonl: line 1: shard 1/3 again (also a1.jsonl)",
        ),
        (
            &["a0.jsonl", "a1.jsonl", "b2.jsonl"],
            "b2.jsonl: line 1: seed 6, but a0.jsonl has seed 5",
        ),
    ];
    for (files, says) in cases {
        let (code, e) = merge(&dir, files);
        assert_eq!(code, Some(1), "{files:?}: {e}");
        assert!(e.contains(says), "{files:?}: {e}");
        assert!(!dir.join("merged.jsonl").exists(), "{files:?}");
    }
}

#[test]
fn other_agents_or_an_edited_shard_exit_1_located() {
    let dir = scratch("edited");
    shard(&dir, "5", "0/2", "a0.jsonl");
    shard(&dir, "5", "1/2", "a1.jsonl");
    // The same shard with the default agents instead of the run's.
    let o = run(&dir, "5", &["--shard", "1/2", "--out", "g1.jsonl"]);
    assert_exit(&o, 0);
    let (code, e) = merge(&dir, &["a0.jsonl", "g1.jsonl"]);
    assert_eq!(code, Some(1), "{e}");
    assert!(
        e.contains("g1.jsonl: line 1: agents random,random,random"),
        "{e}"
    );
    // A game line dropped: the line after it is out of place.
    let text = std::fs::read_to_string(dir.join("a1.jsonl")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(2);
    std::fs::write(dir.join("cut1.jsonl"), lines.join("\n") + "\n").unwrap();
    let (code, e) = merge(&dir, &["a0.jsonl", "cut1.jsonl"]);
    assert_eq!(code, Some(1), "{e}");
    assert!(
        e.contains("cut1.jsonl: line 3: game 5 is not the next game"),
        "{e}"
    );
}

#[test]
fn a_file_that_is_no_shard_exits_2_located() {
    let dir = scratch("foreign");
    let o = simulate(&dir, "5", &["--out", "plain.jsonl"]);
    assert_exit(&o, 0);
    std::fs::write(dir.join("empty.jsonl"), "").unwrap();
    for (file, says) in [
        (
            "plain.jsonl",
            "plain.jsonl: line 1: not the header of a shard",
        ),
        ("empty.jsonl", "empty.jsonl: line 1: the file is empty"),
        ("absent.jsonl", "absent.jsonl"),
    ] {
        let (code, e) = merge(&dir, &[file]);
        assert_eq!(code, Some(2), "{file}: {e}");
        assert!(e.contains(says), "{file}: {e}");
    }
    // The merged file may not replace a shard it reads.
    shard(&dir, "5", "0/1", "only.jsonl");
    let o = tegula_in(
        &dir,
        &["simulate-merge", "only.jsonl", "--out", "only.jsonl"],
    );
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("one of this command's inputs"));
}

#[test]
fn hostile_shard_headers_are_refused_not_panicking() {
    let dir = scratch("hostile");
    shard(&dir, "5", "0/2", "a0.jsonl");
    shard(&dir, "5", "1/2", "a1.jsonl");
    let text = std::fs::read_to_string(dir.join("a0.jsonl")).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(head).unwrap();
    let sums = &mut header["tegula_simulate_shard"]["sums"];
    // Sums that overflow when added to the other shard's: exit 1, no panic (debug builds).
    sums["total_score"] = serde_json::json!(u64::MAX);
    std::fs::write(dir.join("big0.jsonl"), format!("{header}\n{rest}")).unwrap();
    let (code, e) = merge(&dir, &["big0.jsonl", "a1.jsonl"]);
    assert_eq!(code, Some(1), "{e}");
    assert!(e.contains(".jsonl: line 1: the sums overflow"), "{e}");
    // Per-seat sums that do not match the seats: no shard header (exit 2).
    let sums = &mut header["tegula_simulate_shard"]["sums"];
    sums["total_score"] = serde_json::json!(1);
    sums["wins"] = serde_json::json!([1]);
    std::fs::write(dir.join("seats0.jsonl"), format!("{header}\n{rest}")).unwrap();
    let (code, e) = merge(&dir, &["seats0.jsonl", "a1.jsonl"]);
    assert_eq!(code, Some(2), "{e}");
    assert!(
        e.contains("seats0.jsonl: line 1:") && e.contains("one entry per seat"),
        "{e}"
    );
}
