//! The rule registry (crates/ruleset/rules.toml, `tegula rules`): every rule id used anywhere
//! resolves to an entry — in the data files and scenarios (validated: `unknown-rule`), in the
//! code (every rule-id string literal: engine `rule()` strings, event rule ids, diagnostics'
//! `with_rule`), in the events of played games, and in the docs; and the verb prints them.

mod common;
use common::{assert_exit, root, tegula, toml_files_recursive};

use std::path::{Path, PathBuf};

use tegula_engine::{sim, AgentKind, Game, Phase, PileOrder};
use tegula_model::validate::validate_paths;
use tegula_model::{rules, Code};

/// Every `"X-12"`-shaped string literal in the Rust files under `dir`.
fn rule_literals(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let p = entry.path();
        if p.is_dir() {
            rule_literals(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&p).unwrap();
            for lit in text.split('"').skip(1).step_by(2) {
                if is_rule_shaped(lit) {
                    out.push((p.clone(), lit.to_string()));
                }
            }
        }
    }
}

/// `AM-7`, `W-18`, `B-4a`: upper-case letters, a dash, digits, at most one lower-case letter.
fn is_rule_shaped(s: &str) -> bool {
    let Some((a, b)) = s.split_once('-') else {
        return false;
    };
    let digits = b.trim_end_matches(|c: char| c.is_ascii_lowercase());
    (1..=3).contains(&a.len())
        && a.chars().all(|c| c.is_ascii_uppercase())
        && !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && b.len() - digits.len() <= 1
}

/// Ids the test code cites on purpose to show that unknown ones are refused.
const DELIBERATELY_UNKNOWN: &[&str] = &["ZZZ-99", "W-81", "B-4a", "B-7a", "X-1", "W-99", "IC-33"];

#[test]
fn every_rule_id_in_the_code_resolves() {
    let mut found = Vec::new();
    for dir in ["crates", "src"] {
        rule_literals(&root().join(dir), &mut found);
    }
    assert!(found.len() > 50, "{}", found.len());
    let unknown: Vec<String> = found
        .iter()
        .filter(|(_, id)| rules::find(id).is_none() && !DELIBERATELY_UNKNOWN.contains(&id.as_str()))
        .map(|(p, id)| format!("{}: {id}", p.display()))
        .collect();
    assert!(
        unknown.is_empty(),
        "rule ids with no registry entry:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn every_rule_id_in_the_data_and_scenarios_resolves() {
    let paths: Vec<PathBuf> = ["tiles", "variants", "scenarios"]
        .iter()
        .map(|d| root().join(d))
        .collect();
    // Scenarios are checked by their hook, as `tegula validate` does.
    let hook = |p: &Path| tegula_scenario::validate_file(p);
    let v = tegula_model::validate::run(&paths, &[("scenario.schema.json", &hook)]);
    let unknown: Vec<_> = v
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::UnknownRule)
        .collect();
    assert!(unknown.is_empty(), "{unknown:#?}");
    // And every token shaped like a rule id with a registered prefix, comments included.
    // The registry's rules and those the shipped data declares for itself (`[[rule]]`).
    let (declared, problems) =
        tegula_model::validate::declared_rules(&[root().join("tiles"), root().join("variants")]);
    assert!(problems.is_empty(), "{problems:?}");
    let scope = rules::Scope::with(declared);
    let prefixes: Vec<&str> = rules::all()
        .iter()
        .chain(scope.declared())
        .filter_map(|r| r.id.split_once('-').map(|(p, _)| p))
        .collect();
    let mut bad = Vec::new();
    let mut files = Vec::new();
    for d in ["tiles", "variants", "scenarios"] {
        files.extend(toml_files_recursive(d));
    }
    files.push(root().join("README.md"));
    for entry in std::fs::read_dir(root().join("docs"))
        .unwrap()
        .filter_map(Result::ok)
    {
        if entry.path().extension().is_some_and(|e| e == "md") {
            files.push(entry.path());
        }
    }
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for token in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            let token = token.trim_matches('-');
            if is_rule_shaped(token)
                && prefixes.contains(&token.split_once('-').unwrap().0)
                && scope.find(token).is_none()
                && !DELIBERATELY_UNKNOWN.contains(&token)
            {
                bad.push(format!("{}: {token}", f.display()));
            }
        }
    }
    assert!(bad.is_empty(), "unregistered rule ids:\n{}", bad.join("\n"));
}

/// Every event of played games (all shipped variants, a few seeds) cites a registered rule.
#[test]
fn every_event_rule_id_resolves() {
    let mut seen = std::collections::BTreeSet::new();
    for variant in toml_files_recursive("variants") {
        let (rs, diags) = tegula_model::variant::build_variant(&variant);
        let rs = rs.unwrap_or_else(|| panic!("{}: {diags:?}", variant.display()));
        let players = rs.min_players.max(2).min(rs.max_players);
        let scope = rules::Scope::with(rs.rules.clone());
        let rules = std::sync::Arc::new(tegula_engine::Rules::new(rs).unwrap());
        for seed in 0..3u64 {
            let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
            let (_, seeds) = sim::game_seeds(seed, 0, players);
            let kinds = vec![AgentKind::Greedy; usize::from(players)];
            let mut agents = sim::build_agents(&kinds, &seeds);
            sim::play_out(&mut g, &mut agents);
            assert_eq!(g.phase(), Phase::Over);
            for e in g.events() {
                for r in e.cited() {
                    assert!(
                        scope.find(r).is_some(),
                        "{}: event rule `{r}`",
                        variant.display()
                    );
                    seen.insert(r.to_string());
                }
            }
        }
    }
    for must in ["B-4", "B-6"] {
        assert!(seen.contains(must), "{seen:?}");
    }
}

#[test]
fn an_unknown_rule_in_a_fact_is_an_error_with_did_you_mean() {
    let file = root().join("tests/fixtures/invalid/unknown-rule.toml");
    let d = validate_paths(std::slice::from_ref(&file));
    let hit = d
        .iter()
        .find(|d| d.code == Code::UnknownRule)
        .expect("unknown-rule");
    assert!(
        hit.notes.iter().any(|n| n.contains("did you mean `W-18`?")),
        "{hit:?}"
    );
}

#[test]
fn the_rules_verb_prints_one_or_all_as_text_and_json() {
    let out = tegula(&["rules", "B-6"]);
    assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("B-6  Final scoring and farms\n"), "{text}");
    assert!(text.contains("source: "), "{text}");

    let out = tegula(&["rules", "--format", "json"]);
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let all = v.as_array().unwrap();
    assert_eq!(all.len(), rules::all().len());
    for r in all {
        for k in ["id", "title", "statement", "source"] {
            assert!(r[k].as_str().is_some_and(|s| !s.is_empty()), "{k} in {r}");
        }
    }

    let out = tegula(&["rules", "W-18", "--format", "json"]);
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["id"], "W-18");

    let out = tegula(&["rules", "W-81"]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `W-1`?"));
}

/// docs/, README.md and the data point into the repository, not at files outside it.
/// The rulebook transcription the project was seeded from; it is not in the repository, so
/// nothing may cite it (cite the registry, `tegula rules ID`). Spelt in two parts so that this
/// file does not cite it either.
const MISSING_RULEBOOK: &str = concat!("RULES", ".md");

#[test]
fn no_reference_leaves_the_repository() {
    let mut files = vec![root().join("README.md")];
    for d in ["docs", "tiles", "variants", "scenarios"] {
        files.extend(toml_files_recursive(d));
    }
    for entry in std::fs::read_dir(root().join("docs"))
        .unwrap()
        .filter_map(Result::ok)
    {
        if entry.path().extension().is_some_and(|e| e == "md") {
            files.push(entry.path());
        }
    }
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.contains("../shared") || line.contains(MISSING_RULEBOOK) {
                bad.push(format!("{}:{}: {line}", f.display(), n + 1));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "references outside the repository:\n{}",
        bad.join("\n")
    );
}

/// A rule an author writes belongs in the author's data: a tile set or variant declares it with
/// `[[rule]]` and cites it at once, with no rebuild; the CLI shows it with `--data`.
#[test]
fn a_rule_declared_in_the_data_is_citable_without_a_rebuild() {
    let dir = root().join("tests/fixtures/own-rules");
    for ok in ["set.toml", "variant.toml"] {
        let d = validate_paths(&[dir.join(ok)]);
        assert!(d.is_empty(), "{ok}: {d:?}");
    }
    // The compiled artefact carries the declared rules, the set's and the variant's own.
    let (rs, diags) = tegula_model::variant::build_variant(&dir.join("variant.toml"));
    let rs = rs.unwrap_or_else(|| panic!("{diags:?}"));
    let ids: Vec<&str> = rs.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["XY-1", "XY-2"]);
    // The shipped variants without rules of their own keep the artefact they had.
    let (base, _) = tegula_model::variant::build_variant(&root().join("variants/base.toml"));
    assert!(!base.unwrap().to_json().contains("\"rules\""));

    let out = tegula(&[
        "rules",
        "XY-2",
        "--data",
        "tests/fixtures/own-rules/variant.toml",
    ]);
    assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("XY-2  The pile\n"), "{text}");
    // Without the data the id is unknown, and the message says how to include it.
    let out = tegula(&["rules", "XY-2"]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--data"));
    // FM-1 is the fan-made wonder's own rule: declared in its file, not in the registry.
    assert!(rules::find("FM-1").is_none());
    let out = tegula(&["rules", "FM-1", "--data", "tiles", "--format", "json"]);
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["title"], "Pont du Gard (fan-made)");
}

/// A declared rule may not take a registry id, nor an id declared in other words; an id
/// neither knows is `unknown-rule`, and the note says how to declare it.
#[test]
fn declared_rules_that_clash_or_are_missing_are_located_errors() {
    let dir = root().join("tests/fixtures/own-rules");
    let one = |f: &str, code: Code| {
        let d = validate_paths(&[dir.join(f)]);
        let hits: Vec<_> = d.iter().filter(|d| d.code == code).collect();
        assert_eq!(hits.len(), 1, "{f}: {d:?}");
        assert_eq!(d.len(), 1, "{f}: only that: {d:?}");
        hits[0].clone()
    };
    let d = one("redefines-registry.toml", Code::DuplicateId);
    assert_eq!((d.at.line, d.at.column), (8, 6));
    assert!(
        d.message.contains("`B-6` is a rule of the registry"),
        "{d:?}"
    );
    let d = one("clash-variant.toml", Code::DuplicateId);
    assert_eq!(d.at.line, 10);
    assert!(d.message.contains("different words"), "{d:?}");
    let d = one("cites-undeclared.toml", Code::UnknownRule);
    assert_eq!(d.at.line, 17);
    assert!(d.notes.iter().any(|n| n.contains("[[rule]]")), "{d:?}");
    assert!(
        d.notes.iter().any(|n| n.contains("did you mean `XY-1`?")),
        "{d:?}"
    );
}

/// Code comments, doc comments (and so the published JSON Schemas' descriptions), the rule
/// registry and the test fixtures cite rules by id through the registry, never the rulebook file
/// that is not in the repository.
#[test]
fn no_code_schema_or_fixture_cites_the_missing_rulebook() {
    fn walk(dir: &Path, bad: &mut Vec<String>) {
        for p in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
            let p = p.path();
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if p.is_dir() && !p.ends_with("target") {
                walk(&p, bad);
            } else if ["rs", "toml", "json", "py"].contains(&ext) {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                for (n, line) in text.lines().enumerate() {
                    if line.contains(MISSING_RULEBOOK) {
                        bad.push(format!("{}:{}: {line}", p.display(), n + 1));
                    }
                }
            }
        }
    }
    let mut bad = Vec::new();
    for d in ["crates", "src", "schema", "tests", "scripts", "fuzz"] {
        if root().join(d).is_dir() {
            walk(&root().join(d), &mut bad);
        }
    }
    assert!(
        bad.is_empty(),
        "cite the rule registry instead:\n{}",
        bad.join("\n")
    );
}
