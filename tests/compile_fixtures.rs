//! The compiler's invalid fixtures (`tests/fixtures/invalid/`, convention in the file header:
//! `# expect: <code> line <N> [rule <ID>]`), checked against the compiler alone: every fixture
//! whose code the compiler owns must yield that code at that line (and rule), and every compiler
//! code must have a fixture. The valid fixtures and the shipped data must compile with no
//! diagnostic at all. (The loader's harness runs the same files through the whole validator.)

use std::path::{Path, PathBuf};

use tegula_model::diag::{Code, Diagnostic};
use tegula_model::variant::{compile_tileset_file, compile_variant, is_variant_file};

/// Codes reported by the compiler (topology, references, facts, variants).
const COMPILER_CODES: &[Code] = &[
    Code::DuplicateId,
    Code::DanglingReference,
    Code::TileShape,
    Code::SegmentCell,
    Code::OverlappingCells,
    Code::DisconnectedCells,
    Code::SideCoverage,
    Code::HalfCoverage,
    Code::SegmentShape,
    Code::InnerSideMismatch,
    Code::BadConnection,
    Code::MissingConnection,
    Code::DisconnectedFeature,
    Code::BadBorder,
    Code::BadCount,
    Code::FactMismatch,
    Code::BadVariant,
];

fn compile_any(path: &Path) -> Vec<Diagnostic> {
    if is_variant_file(path) {
        compile_variant(path).1
    } else {
        compile_tileset_file(path).1
    }
}

struct Expect {
    code: String,
    line: usize,
    rule: Option<String>,
}

fn expectation(path: &Path) -> Option<Expect> {
    let text = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&text);
    let line = text.lines().nth(1)?.strip_prefix("# expect:")?;
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [code, "line", n, rest @ ..] => Some(Expect {
            code: code.to_string(),
            line: n.parse().ok()?,
            rule: match rest {
                ["rule", r] => Some(r.to_string()),
                _ => None,
            },
        }),
        _ => None,
    }
}

fn files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_compiler_fixture_yields_its_code_at_its_line() {
    let mut covered = Vec::new();
    let mut failures = Vec::new();
    for path in files("tests/fixtures/invalid") {
        let Some(exp) = expectation(&path) else {
            continue;
        };
        let Some(code) = COMPILER_CODES.iter().find(|c| c.as_str() == exp.code) else {
            continue; // a loader code
        };
        covered.push(*code);
        let diags = compile_any(&path);
        let hit = diags.iter().any(|d| {
            d.code == *code
                && d.line == exp.line
                && exp.rule.as_ref().is_none_or(|r| d.rule.as_ref() == Some(r))
        });
        if !hit {
            let got: Vec<String> = diags
                .iter()
                .map(|d| {
                    format!(
                        "{}:{} {} {:?} {}",
                        d.line,
                        d.column,
                        d.code.as_str(),
                        d.rule,
                        d.message
                    )
                })
                .collect();
            failures.push(format!(
                "{}: expected {} at line {} (rule {:?}); got:\n  {}",
                path.display(),
                exp.code,
                exp.line,
                exp.rule,
                got.join("\n  ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for code in COMPILER_CODES {
        assert!(covered.contains(code), "no fixture for {}", code.as_str());
    }
}

#[test]
fn valid_fixtures_and_shipped_data_compile_without_diagnostics() {
    let mut paths = files("tests/fixtures/valid");
    for dir in ["tiles", "tiles/wonders-1", "tiles/wonders-2", "variants"] {
        if Path::new(dir).is_dir() {
            paths.extend(files(dir));
        }
    }
    assert!(paths.len() > 3);
    for p in paths {
        let diags = compile_any(&p);
        assert!(diags.is_empty(), "{}: {diags:#?}", p.display());
    }
}
