//! docs/GUIDE.md's "Layout" table stays true: every path it lists exists in the tree. A path in
//! the first column is read from the repository's root; one in the second column from the root
//! or from one of its row's paths (`rules.toml` in the `crates/ruleset` row).

mod common;
use common::root;

/// The code spans of a table cell: the text between each pair of backticks.
fn spans(cell: &str) -> impl Iterator<Item = &str> {
    cell.split('`').skip(1).step_by(2)
}

/// A code span that names a file or folder (no spaces, flags, calls or Python attributes).
fn is_path(span: &str) -> bool {
    !span.contains(' ')
        && !span.starts_with('-')
        && (span.contains('/')
            || [".md", ".toml", ".rs", ".py", ".sh"]
                .iter()
                .any(|e| span.ends_with(e)))
}

#[test]
fn every_path_in_the_layout_table_exists() {
    let guide = std::fs::read_to_string(root().join("docs/GUIDE.md")).unwrap();
    let start = guide.find("## Layout").expect("a Layout section");
    let rows: Vec<&str> = guide[start..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .collect();
    assert!(rows.len() >= 10, "the Layout table has {} rows", rows.len());
    let mut missing = Vec::new();
    let mut checked = 0;
    for row in rows {
        let cells: Vec<&str> = row.split('|').collect();
        let (places, what) = (cells[1], cells[2]);
        let bases: Vec<&str> = spans(places).collect();
        assert!(!bases.is_empty(), "a row without a path: {row}");
        for p in &bases {
            checked += 1;
            if !root().join(p).exists() {
                missing.push(format!("{p} (first column)"));
            }
        }
        for p in spans(what).filter(|s| is_path(s)) {
            checked += 1;
            let found = std::iter::once("")
                .chain(bases.iter().copied())
                .any(|b| root().join(b).join(p).exists());
            if !found {
                missing.push(format!("{p} (in the row of {})", bases.join(", ")));
            }
        }
    }
    assert!(
        checked >= 40,
        "only {checked} paths read from the Layout table"
    );
    assert!(
        missing.is_empty(),
        "docs/GUIDE.md, Layout: no such path:\n{}",
        missing.join("\n")
    );
}
