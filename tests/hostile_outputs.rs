//! Issue 35 (docs/HOSTILE-INPUT.md): one command's outputs never overwrite each other, a log
//! goes no further than its `end`, pictures saved to files carry no raw control characters,
//! `--variant` says what a wrong file is, and `replay`/`board` find a variant wherever it
//! lives. The built binary is run as a user would.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{assert_exit, tegula};

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch("outputs", name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

use common::base_game_log as game_log;

// ----- item 4: nothing after `end` -----

#[test]
fn replay_refuses_lines_after_the_end() {
    let dir = scratch("after-end");
    let log = game_log(&dir);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines = text.lines().count();
    let end = text.lines().last().unwrap();
    for extra in [r#"{"type":"finish","turn":71}"#, end] {
        let forged = dir.join("forged.jsonl");
        std::fs::write(&forged, format!("{text}{extra}\n{extra}\n")).unwrap();
        let o = tegula(&["replay", s(&forged)]);
        assert_exit(&o, 1);
        let err = stderr(&o);
        assert!(
            err.contains(&format!("line {}", lines + 1)) && err.contains("after the game's `end`"),
            "{err}"
        );
        assert!(!err.contains("waits for a decision"), "{err}");
    }
}

// ----- item 9: terminal pictures saved to files are escaped -----

/// A copy of the base game in `dir`: `dir/tiles/base.toml` edited by `tiles`, and the variant
/// edited by `variant` (its sets in `dir/tiles`) written to `dir/name`; its path.
fn base_copy(
    dir: &Path,
    name: &str,
    tiles: impl Fn(String) -> String,
    variant: impl Fn(String) -> String,
) -> PathBuf {
    let root = common::root();
    std::fs::create_dir_all(dir.join("tiles")).unwrap();
    let text = std::fs::read_to_string(root.join("tiles/base.toml")).unwrap();
    std::fs::write(dir.join("tiles/base.toml"), tiles(text)).unwrap();
    let text = std::fs::read_to_string(root.join("variants/base.toml")).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, variant(text.replace("../tiles/", "tiles/"))).unwrap();
    file
}

/// A copy of the base game in `dir`, with a second figure, whose figure and tile names carry
/// terminal control sequences (clear screen, bell, C1 CSI). Returns the variant's path.
fn hostile_names(dir: &Path) -> PathBuf {
    let tile = |t: String| {
        t.replacen(
            "name = \"Cloister with road\"",
            "name = \"Cloister\\u001b[2J\\u0007\\u009b31m\"",
            1,
        )
    };
    let figures = |v: String| {
        v.replacen(
            "{ id = \"meeple\", name = \"Meeple\", count = 7, strength = 1 }",
            "{ id = \"meeple\", name = \"Meeple\", count = 7, strength = 1 }, \
             { id = \"big\", name = \"Big\\u001b[2J\\u001b]0;owned\\u0007\", count = 1, \
             strength = 2 }",
            1,
        )
    };
    base_copy(dir, "base.toml", tile, figures)
}

fn has_raw_controls(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
}

#[test]
fn terminal_pictures_written_to_files_are_escaped() {
    let dir = scratch("pictures");
    let variant = hostile_names(&dir);
    let (log, txt) = (dir.join("g.jsonl"), dir.join("board.txt"));
    let o = tegula(&[
        "play",
        "--variant",
        s(&variant),
        "--seed",
        "3",
        "--log",
        s(&log),
        "--board",
        s(&txt),
    ]);
    assert_exit(&o, 0);
    let board_out = dir.join("board-out.txt");
    let o = tegula(&[
        "board",
        s(&log),
        "--variant",
        s(&variant),
        "--format",
        "ascii",
        "--out",
        s(&board_out),
    ]);
    assert_exit(&o, 0);
    let tile_out = dir.join("tile.txt");
    let tiles = dir.join("tiles");
    let o = tegula(&[
        "render",
        "A",
        "--tiles",
        s(&tiles),
        "--format",
        "ascii",
        "--out",
        s(&tile_out),
    ]);
    assert_exit(&o, 0);
    for file in [&txt, &board_out, &tile_out] {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(!has_raw_controls(&text), "{}: {text:?}", file.display());
        assert!(text.contains("\\u001b[2J"), "{}: {text}", file.display());
    }
}

// ----- item 1: one command's outputs never overwrite each other -----

/// Assert `o` exited 2 before writing anything in `dir` but `keep`, naming both options.
fn refused_before_running(o: &Output, dir: &Path, flags: [&str; 2], keep: &[&str]) {
    assert_exit(o, 2);
    let err = stderr(o);
    for flag in flags {
        assert!(err.contains(flag), "{flag}: {err}");
    }
    assert!(err.contains("would overwrite each other"), "{err}");
    let mut left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !keep.contains(&n.as_str()))
        .collect();
    left.sort();
    assert!(left.is_empty(), "written before the refusal: {left:?}");
}

#[test]
fn two_outputs_naming_one_file_are_refused_before_anything_runs() {
    let dir = scratch("clash");
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink(dir.join("same.out"), dir.join("link.out")).unwrap();
    let same = dir.join("same.out");
    for other in ["same.out", "sub/../same.out", "link.out"] {
        let other = dir.join(other);
        let o = tegula(&[
            "play",
            "--variant",
            "variants/base.toml",
            "--log",
            s(&same),
            "--board",
            s(&other),
        ]);
        refused_before_running(&o, &dir, ["--log", "--board"], &["sub", "link.out"]);
    }
    let o = tegula(&[
        "simulate",
        "--variant",
        "variants/base.toml",
        "--games",
        "3",
        "--out",
        s(&same),
        "--log-game",
        "1",
        "--log",
        s(&same),
    ]);
    refused_before_running(&o, &dir, ["--out", "--log"], &["sub", "link.out"]);
}

#[test]
fn a_file_inside_the_logs_folder_that_a_log_would_replace_is_refused() {
    let dir = scratch("clash-logs");
    let logs = dir.join("d");
    for (flag, file) in [("--out", "game-0.jsonl"), ("--log", "game-1.jsonl")] {
        let target = logs.join(file);
        let mut args = vec![
            "simulate",
            "--variant",
            "variants/base.toml",
            "--games",
            "3",
            "--logs",
            s(&logs),
            flag,
            s(&target),
        ];
        if flag == "--log" {
            args.extend(["--log-game", "2"]);
        }
        let o = tegula(&args);
        refused_before_running(&o, &dir, ["--logs", flag], &[]);
        assert!(stderr(&o).contains(file), "{}", stderr(&o));
    }
    // Another name in the folder is no clash: the summary sits beside the logs.
    let summary = logs.join("summary.jsonl");
    let o = tegula(&[
        "simulate",
        "--variant",
        "variants/base.toml",
        "--games",
        "2",
        "--logs",
        s(&logs),
        "--out",
        s(&summary),
    ]);
    assert_exit(&o, 0);
    for f in ["summary.jsonl", "game-0.jsonl", "game-1.jsonl"] {
        assert!(logs.join(f).is_file(), "{f}: {}", stdout(&o));
    }
}

// ----- item 11: `--variant` on a file that is no variant says what it is -----

#[test]
fn a_variant_option_naming_another_kind_of_file_says_what_it_is() {
    let dir = scratch("kinds");
    let log = game_log(&dir);
    let artefact = dir.join("base.ruleset.json");
    let o = tegula(&[
        "compile",
        "variants/base.toml",
        "--format",
        "json",
        "--out",
        s(&artefact),
    ]);
    assert_exit(&o, 0);
    let empty = dir.join("empty.toml");
    std::fs::write(&empty, "").unwrap();
    let unknown = dir.join("notes.toml");
    std::fs::write(&unknown, "title = \"my notes\"\n").unwrap();
    let shard = dir.join("shard.jsonl");
    let o = tegula(&[
        "simulate",
        "--variant",
        "variants/base.toml",
        "--games",
        "2",
        "--shard",
        "0/2",
        "--out",
        s(&shard),
    ]);
    assert_exit(&o, 0);
    let cases = [
        (s(&empty).to_string(), "is an empty file"),
        (s(&log).to_string(), "is a game log"),
        ("schema/variant.schema.json".into(), "is a JSON schema"),
        (s(&artefact).to_string(), "is a compiled ruleset"),
        (
            s(&shard).to_string(),
            "is a shard of `tegula simulate --shard`",
        ),
        (s(&unknown).to_string(), "is no file tegula knows"),
    ];
    for (file, what) in &cases {
        for verb in [
            vec!["play", "--variant", file],
            vec!["simulate", "--variant", file, "--games", "1"],
            vec!["variant", "explain", file],
        ] {
            let o = tegula(&verb);
            assert_exit(&o, 2);
            let err = stderr(&o);
            assert!(!err.contains("tile-set"), "{verb:?}: {err}");
            assert!(
                err.contains(what) && err.contains("not a variant"),
                "{verb:?}: {err}"
            );
        }
    }
    let o = tegula(&["play", "--variant", s(&artefact)]);
    assert!(stderr(&o).contains("Rules::from_json"), "{}", stderr(&o));
}

// ----- item 13: `replay` and `board` find a variant that lives elsewhere -----

/// A copy of the base game with its own id in `dir` (`dir/elsewhere.toml`, its tiles in
/// `dir/tiles`), outside the repository's `variants/`.
fn variant_elsewhere(dir: &Path) -> PathBuf {
    let id = |v: String| v.replacen("id = \"base\"", "id = \"elsewhere\"", 1);
    base_copy(dir, "elsewhere.toml", |t| t, id)
}

#[test]
fn replay_and_board_find_a_variant_outside_variants() {
    let dir = scratch("elsewhere");
    let variant = variant_elsewhere(&dir);
    // Beside the log, and in variants/ of a folder above it.
    let beside = dir.join("g.jsonl");
    std::fs::create_dir_all(dir.join("v/variants")).unwrap();
    std::fs::create_dir_all(dir.join("v/runs/today")).unwrap();
    std::fs::create_dir_all(dir.join("v/tiles")).unwrap();
    std::fs::copy(dir.join("tiles/base.toml"), dir.join("v/tiles/base.toml")).unwrap();
    let schema = common::root().join("schema/variant.schema.json");
    std::fs::create_dir_all(dir.join("v/schema")).unwrap();
    std::fs::copy(&schema, dir.join("v/schema/variant.schema.json")).unwrap();
    let text = std::fs::read_to_string(&variant).unwrap();
    std::fs::write(
        dir.join("v/variants/elsewhere.toml"),
        text.replace("tiles/", "../tiles/"),
    )
    .unwrap();
    let below = dir.join("v/runs/today/g.jsonl");
    for log in [&beside, &below] {
        let o = tegula(&[
            "play",
            "--variant",
            s(&variant),
            "--seed",
            "4",
            "--log",
            s(log),
        ]);
        assert_exit(&o, 0);
        let o = tegula(&["replay", s(log)]);
        assert_exit(&o, 0);
        let o = tegula(&["board", s(log), "--format", "ascii"]);
        assert_exit(&o, 0);
    }
    // Nowhere to be found: the message says where it looked.
    let lost = scratch("elsewhere-lost").join("g.jsonl");
    std::fs::copy(&beside, &lost).unwrap();
    let o = tegula(&["replay", s(&lost)]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("no elsewhere.toml was found") && stderr(&o).contains("--variant"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_replay_command_of_simulate_out_names_the_variant() {
    let dir = scratch("replay-command");
    let variant = variant_elsewhere(&dir);
    let (logs, out) = (dir.join("logs"), dir.join("out.jsonl"));
    let o = tegula(&[
        "simulate",
        "--variant",
        s(&variant),
        "--games",
        "2",
        "--logs",
        s(&logs),
        "--out",
        s(&out),
    ]);
    assert_exit(&o, 0);
    let text = std::fs::read_to_string(&out).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let argv: Vec<String> = line["replay"]["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect();
    assert!(
        argv.windows(2)
            .any(|w| w[0] == "--variant" && w[1] == s(&variant)),
        "{argv:?}"
    );
    // The command as printed works from another folder (here the log's own).
    let mut args: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
    let html = dir.join("game-0.html");
    let at = args.iter().position(|w| *w == "--html").unwrap();
    args[at + 1] = s(&html);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tegula"))
        .current_dir(&logs)
        .args(&args)
        .output()
        .unwrap();
    assert_exit(&o, 0);
}
