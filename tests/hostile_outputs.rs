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
    let dir = std::env::temp_dir().join(format!("tegula-outputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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

/// The log of a finished base game (seed 3), written into `dir`.
fn game_log(dir: &Path) -> PathBuf {
    let log = dir.join("game.jsonl");
    let o = tegula(&[
        "play",
        "--variant",
        "variants/base.toml",
        "--seed",
        "3",
        "--log",
        s(&log),
    ]);
    assert_exit(&o, 0);
    log
}

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
