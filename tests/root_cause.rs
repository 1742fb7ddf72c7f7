//! Root cause first (issue 9, item 3): a typo in an id is reported once, as the dangling
//! reference with a "did you mean", and what follows from it is folded under it as notes; a
//! repeated claim points at the second use and names the first as a secondary location; a
//! connection between cells that are not neighbours says so. Secondary locations carry their
//! end positions in JSON.

use std::path::PathBuf;

use tegula_model::report::to_json;
use tegula_model::validate::validate_paths;
use tegula_model::{Code, Diagnostic};

fn diags(name: &str) -> Vec<Diagnostic> {
    validate_paths(&[PathBuf::from("tests/fixtures/invalid").join(name)])
}

fn only(d: &[Diagnostic]) -> &Diagnostic {
    assert_eq!(d.len(), 1, "exactly one diagnostic, the root cause: {d:#?}");
    &d[0]
}

#[test]
fn a_typo_in_a_connection_folds_the_missing_connection() {
    let d = diags("dangling-reference-connection-typo.toml");
    let root = only(&d);
    assert_eq!(root.code, Code::DanglingReference);
    assert_eq!(root.at.line, 20);
    assert_eq!(root.notes[0], "did you mean `b.field`?");
    assert!(
        root.notes
            .iter()
            .any(|n| n.contains("`a.field` and `b.field`") && n.contains("no connection")),
        "{:?}",
        root.notes
    );
}

#[test]
fn a_typo_in_a_cell_is_not_followed_by_uncovered_sides_or_a_dangling_connection() {
    let d = diags("dangling-reference-cell-typo.toml");
    let root = only(&d);
    assert_eq!((root.code, root.at.line), (Code::DanglingReference, 18));
    assert!(
        root.notes.contains(&"did you mean `east`?".to_string()),
        "{:?}",
        root.notes
    );
}

#[test]
fn a_typo_in_borders_folds_the_missing_border() {
    let d = diags("dangling-reference.toml");
    let root = only(&d);
    assert_eq!((root.code, root.at.line), (Code::DanglingReference, 14));
    assert!(
        root.notes.contains(&"did you mean `city`?".to_string()),
        "{:?}",
        root.notes
    );
    assert!(
        root.notes
            .iter()
            .any(|n| n.contains("does not list `city`")),
        "{:?}",
        root.notes
    );
}

#[test]
fn a_half_edge_used_twice_points_at_the_second_use_and_names_the_first() {
    let d = diags("half-coverage.toml");
    let twice = d
        .iter()
        .find(|d| d.code == Code::HalfCoverage)
        .expect("half-coverage");
    assert_eq!(twice.at.line, 16, "the second use");
    assert_eq!(twice.labels.len(), 1);
    let first = &twice.labels[0];
    assert_eq!(first.message, "first used by `field-n` here");
    assert_eq!((first.at.line, first.at.column), (14, 65));
    assert_eq!((first.at.end_line, first.at.end_column), (14, 69));
}

#[test]
fn a_connection_between_cells_that_are_not_neighbours_says_so() {
    let d = diags("bad-connection-not-neighbours.toml");
    let root = only(&d);
    assert_eq!(root.code, Code::BadConnection);
    assert!(
        root.message.contains("which are not neighbours"),
        "{}",
        root.message
    );
    let at: Vec<(usize, &str)> = root
        .labels
        .iter()
        .map(|l| (l.at.line, l.message.as_str()))
        .collect();
    assert_eq!(at, [(12, "cell `a` at [0, 0]"), (14, "cell `c` at [2, 0]")]);
}

#[test]
fn json_carries_end_positions_and_labels() {
    let d = diags("half-coverage.toml");
    let v: serde_json::Value = serde_json::from_str(&to_json(&d)).unwrap();
    let o = v
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["code"] == "half-coverage")
        .unwrap();
    assert_eq!(o["end_line"], 16);
    assert_eq!(o["end_column"], 9);
    let l = &o["labels"][0];
    for (k, want) in [
        ("line", 14),
        ("column", 65),
        ("end_line", 14),
        ("end_column", 69),
    ] {
        assert_eq!(l[k], want, "{k} in {l}");
    }
    assert_eq!(l["message"], "first used by `field-n` here");
    assert!(l["file"].as_str().unwrap().ends_with("half-coverage.toml"));
}

/// A mega tile's cell one step off its place but still a neighbour (issue 18 item 8): its fields
/// now face the anchor's, and before this the first error said "add a connection" for them.
/// The root cause is the misplaced cell, named with where the connection says it belongs; the
/// missing field connection follows from it and is a note.
#[test]
fn a_cell_one_step_off_is_named_before_any_missing_connection() {
    let d = diags("bad-connection-misplaced-cell.toml");
    let root = only(&d);
    assert_eq!((root.code, root.at.line), (Code::BadConnection, 28));
    assert!(
        root.message
            .starts_with("cell `b` at [0, 1] looks misplaced")
            && root.message.contains("with it at [1, 0]"),
        "{}",
        root.message
    );
    assert!(
        root.notes
            .iter()
            .any(|n| n.contains("`a.field` and `b.field-e`") && n.contains("no connection")),
        "{:?}",
        root.notes
    );
    assert!(
        root.labels.iter().any(|r| r.message.contains("cell `b`")),
        "{:?}",
        root.labels
    );
}

/// A city edge that does not meet (issue 18 item 8): before, the two half-edges of the
/// mistyped field side came first as coverage errors and the root cause third. Now the
/// `inner-side-mismatch` is the one error, with the coverage errors it causes as notes.
#[test]
fn a_city_edge_that_does_not_meet_is_reported_before_what_follows() {
    let d = diags("inner-side-mismatch-city-edge.toml");
    let root = only(&d);
    assert_eq!((root.code, root.at.line), (Code::InnerSideMismatch, 16));
    assert!(
        root.message.contains("inner side W of cell `b` is field"),
        "{}",
        root.message
    );
    for half in ["Wn", "Ws"] {
        let note = format!("so: half-edge {half} of cell `b` (of field side W) is in no field");
        assert!(root.notes.contains(&note), "{:?}", root.notes);
    }
}

/// A variant with a missing set: its tiles' kinds are unknown, so an ability counting
/// cloisters (which only the missing base game has) is not called one that can never score;
/// the missing set is the one error.
#[test]
fn a_missing_set_is_not_followed_by_never_scores() {
    let d = diags("dangling-reference-missing-set-no-never-scores.toml");
    let root = only(&d);
    assert_eq!((root.code, root.at.line), (Code::DanglingReference, 13));
}
