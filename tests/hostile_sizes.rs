//! Hostile sizes in otherwise well-formed input (issue #20, round 3): counts, points and
//! coordinates at the edges of their types, and inputs with very many errors. The built binary
//! must refuse or cap them with a located message and exit 1 or 2 — never panic (exit 101),
//! wrap a number or take time that grows faster than the input.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_exit, tegula};

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tegula-sizes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Defect 1: a setup line whose pile holds 65,536 copies of one tile (past the engine's `u16`
/// tile counts and the board's cell limit) is refused at line 1 by every verb that reads logs.
#[test]
fn a_setup_pile_that_is_not_the_variants_is_refused_at_its_line() {
    let dir = scratch("big-pile");
    let log = dir.join("big.jsonl");
    let pile = vec!["\"C\""; 65_536].join(",");
    let setup = format!(
        "{{\"type\":\"setup\",\"variant\":\"base\",\"players\":2,\"seed\":1,\"pile\":[{pile}]}}\n"
    );
    std::fs::write(&log, setup).unwrap();
    for verb in ["replay", "board"] {
        let o = tegula(&[verb, s(&log), "--variant", "variants/base.toml"]);
        assert_exit(&o, 1);
        let err = stderr(&o);
        assert!(err.contains("line 1"), "{verb}: {err}");
        assert!(err.contains("pile"), "{verb}: {err}");
    }
}
