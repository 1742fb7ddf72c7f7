//! Issue 21 item 9: the engine and the ruleset contract name no game piece. Mechanisms carry
//! generic names; inns, cathedrals, goods, builders, pigs, rivers, barns, mayors, wagons and
//! abbeys exist only in the data (tiles/, variants/, scenarios/), the tests and the docs.

mod common;
use common::root;

use std::path::Path;

/// The pieces of the shipped expansions, as whole words (singular and plural).
const PIECES: &[&str] = &[
    "inn",
    "inns",
    "cathedral",
    "cathedrals",
    "goods",
    "wine",
    "grain",
    "cloth",
    "builder",
    "builders",
    "pig",
    "pigs",
    "river",
    "rivers",
    "barn",
    "barns",
    "mayor",
    "mayors",
    "wagon",
    "wagons",
    "abbey",
    "abbeys",
];

/// Files that are test code or test data of their crate, not the engine or the contract.
const TEST_FILES: &[&str] = &["tests.rs"];

/// Every `path:line: word` where a Rust file under `dir` names a piece.
fn named_pieces(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let p = entry.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            named_pieces(&p, out);
        } else if name.ends_with(".rs") && !TEST_FILES.contains(&name) {
            let text = std::fs::read_to_string(&p).unwrap();
            for (n, line) in text.lines().enumerate() {
                let lower = line.to_lowercase();
                let words = lower.split(|c: char| !c.is_ascii_alphanumeric());
                for w in words.filter(|w| PIECES.contains(w)) {
                    out.push(format!("{}:{}: {w}", p.display(), n + 1));
                }
            }
        }
    }
}

#[test]
fn engine_and_contract_name_no_piece() {
    let mut found = Vec::new();
    for dir in ["crates/engine/src", "crates/ruleset/src"] {
        named_pieces(&root().join(dir), &mut found);
    }
    assert!(
        found.is_empty(),
        "the engine or the contract names a game piece (give the mechanism a generic name; \
         the piece belongs in the data):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_a_piece_where_there_is_one() {
    // The scan itself must be able to fail: a piece word in a scratch tree is reported.
    let dir = std::env::temp_dir().join(format!("tegula-pieces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("x.rs"), "// the Wagon moves (AM-11)\nfn f() {}\n").unwrap();
    let mut found = Vec::new();
    named_pieces(&dir, &mut found);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with("1: wagon"), "{found:?}");
}
