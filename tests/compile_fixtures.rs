//! The compiler's invalid fixtures (`tests/fixtures/invalid/`, convention in the file header:
//! `# expect: <code> line <N> [rule <ID>]`), checked against the compiler alone: every fixture
//! whose code the compiler owns must yield that code at that line (and rule), and every compiler
//! code must have a fixture. The valid fixtures and the shipped data must compile with no
//! diagnostic at all. (The loader's harness runs the same files through the whole validator.)

use std::path::Path;

use tegula_model::diag::{Code, Diagnostic};
use tegula_model::variant::{compile_tileset_file, compile_variant, is_variant_file};

mod common;
use common::toml_files;

/// Codes reported by the compiler (topology, references, facts, variants).
fn compiler_codes() -> impl Iterator<Item = Code> {
    Code::ALL.iter().copied().filter(|c| c.is_compiler_code())
}

fn compile_any(path: &Path) -> Vec<Diagnostic> {
    if is_variant_file(path) {
        compile_variant(path).1
    } else {
        compile_tileset_file(path).1
    }
}

#[test]
fn every_compiler_fixture_yields_its_code_at_its_line() {
    let mut covered = Vec::new();
    let mut failures = Vec::new();
    for path in toml_files("tests/fixtures/invalid") {
        for exp in common::expectations(&path) {
            let Some(code) = compiler_codes().find(|c| c.as_str() == exp.code) else {
                continue; // a loader code
            };
            covered.push(code);
            let diags = compile_any(&path);
            let hit = diags.iter().any(|d| {
                d.code == code
                    && d.at.line == exp.line
                    && exp.rule.as_ref().is_none_or(|r| d.rule.as_ref() == Some(r))
            });
            if !hit {
                let got: Vec<String> = diags
                    .iter()
                    .map(|d| {
                        format!(
                            "{}:{} {} {:?} {}",
                            d.at.line,
                            d.at.column,
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
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // `disconnected-feature` is only ever a folded consequence (see tests/fixtures.rs).
    for code in compiler_codes().filter(|c| *c != Code::DisconnectedFeature) {
        assert!(covered.contains(&code), "no fixture for {}", code.as_str());
    }
}

#[test]
fn valid_fixtures_and_shipped_data_compile_without_diagnostics() {
    let mut paths = toml_files("tests/fixtures/valid");
    for dir in ["tiles", "tiles/wonders-1", "tiles/wonders-2", "variants"] {
        if common::root().join(dir).is_dir() {
            paths.extend(toml_files(dir));
        }
    }
    assert!(paths.len() > 3);
    for p in paths {
        let diags = compile_any(&p);
        assert!(diags.is_empty(), "{}: {diags:#?}", p.display());
    }
}
