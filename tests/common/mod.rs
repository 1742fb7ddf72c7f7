//! Helpers shared by the integration tests (each test binary compiles this module and uses only
//! part of it, hence the `dead_code` allowance).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root (the tests run from it too).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Run the `tegula` binary with `args` from the repository root.
pub fn tegula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tegula"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run tegula")
}

/// Assert the process exited with `code`, showing its stdout and stderr otherwise.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The `.toml` files directly inside `dir` (relative to the repository root), sorted.
pub fn toml_files(dir: impl AsRef<Path>) -> Vec<PathBuf> {
    let dir = root().join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

/// One `# expect: <code> line <N> [rule <ID>]` line of an invalid fixture.
#[derive(Debug)]
pub struct Expect {
    /// Diagnostic code name.
    pub code: String,
    /// 1-based line.
    pub line: usize,
    /// Rule id, when given.
    pub rule: Option<String>,
}

/// The `# expect:` lines among a fixture's leading comment lines. Panics (fails the test) on a
/// malformed one.
pub fn expectations(path: &Path) -> Vec<Expect> {
    let bytes = std::fs::read(path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let mut out = Vec::new();
    for line in text.lines().take_while(|l| l.trim_start().starts_with('#')) {
        let Some(rest) = line.trim().strip_prefix("# expect:") else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let (code, line_no) = match words.as_slice() {
            [code, "line", n, ..] => (
                code.to_string(),
                n.parse()
                    .unwrap_or_else(|_| panic!("{}: bad line number", path.display())),
            ),
            _ => panic!("{}: malformed `# expect:` line: {line}", path.display()),
        };
        let rule = match words.as_slice() {
            [_, _, _, "rule", r, ..] => Some(r.to_string()),
            [_, _, _] => None,
            _ => panic!("{}: malformed `# expect:` line: {line}", path.display()),
        };
        out.push(Expect {
            code,
            line: line_no,
            rule,
        });
    }
    out
}

/// The `.toml` files under `dir` (relative to the repository root), recursively, sorted by path.
/// A missing folder gives none.
pub fn toml_files_recursive(dir: impl AsRef<Path>) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for p in entries.filter_map(Result::ok).map(|e| e.path()) {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join(dir), &mut out);
    out.sort();
    out
}

/// Diagnostics one per line, `file:line:column: code message`, for assertion messages.
pub fn show_diags(diags: &[tegula_model::Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{}: {} {}",
                d.at.file.display(),
                d.at.line,
                d.at.column,
                d.code.as_str(),
                d.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The base-game rules (`variants/base.toml`), built once per test binary.
pub fn base() -> std::sync::Arc<tegula_engine::Rules> {
    use std::sync::{Arc, OnceLock};
    static RULES: OnceLock<Arc<tegula_engine::Rules>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            let path = root().join("variants/base.toml");
            let (rs, diags) = tegula_model::variant::build_variant(&path);
            let rs = rs.unwrap_or_else(|| panic!("variants/base.toml does not build: {diags:?}"));
            Arc::new(tegula_engine::Rules::new(rs).expect("base ruleset is playable"))
        })
        .clone()
}

/// The engine rules of the variant file at `rel` (relative to the repository root); panics with
/// the diagnostics if it does not build.
pub fn variant_rules(rel: &str) -> std::sync::Arc<tegula_engine::Rules> {
    let (rs, diags) = tegula_model::variant::build_variant(&root().join(rel));
    let rs = rs.unwrap_or_else(|| panic!("{rel} does not build: {}", show_diags(&diags)));
    std::sync::Arc::new(tegula_engine::Rules::new(rs).expect("the ruleset is playable"))
}

/// Every player's figures: supply + on the board + waiting to move = the variant's count.
pub fn conserved(g: &tegula_engine::Game) -> Result<(), String> {
    let rs = g.rules().ruleset();
    let mut count: std::collections::BTreeMap<(u8, u8), u32> = std::collections::BTreeMap::new();
    for f in g.followers() {
        *count.entry((f.player, f.follower)).or_default() += 1;
    }
    for (p, t, _, _) in g.waiting_figures() {
        *count.entry((p, t)).or_default() += 1;
    }
    // Figures on top of stacks and figures held by another seat (The Tower).
    for (p, t) in g.stacks().into_iter().filter_map(|s| s.top) {
        *count.entry((p, t)).or_default() += 1;
    }
    for (_, p, t) in g.held_figures() {
        *count.entry((p, t)).or_default() += 1;
    }
    for p in 0..g.players() {
        for (t, ft) in rs.followers.iter().enumerate() {
            let t = t as u8;
            let total = u32::from(g.supply(p, t)) + count.get(&(p, t)).copied().unwrap_or(0);
            if total != u32::from(ft.count) {
                return Err(format!(
                    "seat {p} has {total} `{}`, not {}",
                    ft.id, ft.count
                ));
            }
        }
    }
    Ok(())
}

/// Final scoring equals the from-scratch recount (B-6 fields and incomplete features, AM-9,
/// payment modifiers).
pub fn final_matches(g: &tegula_engine::Game) -> Result<(), String> {
    let from = g.final_scoring_from().ok_or("no final scoring")?;
    let mut finals = vec![0u32; g.players() as usize];
    for e in &g.events()[from..] {
        if let tegula_engine::Event::Score {
            players, points, ..
        } = e
        {
            for &p in players {
                finals[p as usize] += points;
            }
        }
    }
    let want = tegula_engine::naive::final_scores(g);
    if finals != want {
        return Err(format!("final scoring {finals:?}, recount {want:?}"));
    }
    Ok(())
}

/// Whether the scenario at `sc_path`, with its `variant = ...` line `line` pointed at `parent`
/// (relative to the repository, or absolute), fails: it does not load or its expectations do not hold.
pub fn fails_under(
    sc_path: &Path,
    line: &str,
    parent: &str,
    tmp: &Path,
    cache: &mut tegula_scenario::VariantCache,
) -> bool {
    run_under(sc_path, line, parent, tmp, cache).unwrap_or(true)
}

/// [`fails_under`], telling a scenario that does not load (`None`) from one that runs and
/// fails (`Some(true)`) or holds (`Some(false)`). The scenario is played where it is, under
/// `parent` ([`tegula_scenario::load_under`]): it may still cite its own variant's rules.
/// `_tmp` is kept for the callers (the scenario is no longer copied).
pub fn run_under(
    sc_path: &Path,
    line: &str,
    parent: &str,
    _tmp: &Path,
    cache: &mut tegula_scenario::VariantCache,
) -> Option<bool> {
    let text =
        std::fs::read_to_string(sc_path).unwrap_or_else(|e| panic!("{}: {e}", sc_path.display()));
    assert!(
        text.contains(line),
        "{} names its variant",
        sc_path.display()
    );
    let (sc, _) = tegula_scenario::load_under(sc_path, &root().join(parent), cache);
    sc.map(|sc| !tegula_scenario::run(&sc).failures.is_empty())
}

/// The path of `to` relative to the folder `from` (both absolute and canonical).
pub fn relative(from: &Path, to: &Path) -> PathBuf {
    let (a, b): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out: PathBuf = a[common..].iter().map(|_| "..").collect();
    out.extend(&b[common..]);
    out
}

/// The `tegula play` arguments of one Inns & Cathedrals game of six seats (IC-6), whose log and
/// replay several tests read.
pub const IC_SIX_SEATS: [&str; 6] = [
    "--variant",
    "variants/inns-cathedrals.toml",
    "--players",
    "6",
    "--seed",
    "2",
];

/// Play one game with `tegula play` and `args` (variant, seed, …), logging it to `log`, then
/// write its replay viewer to `html` with `tegula replay`; the viewer's page.
pub fn play_and_replay(args: &[&str], log: &Path, html: &Path) -> String {
    let mut play = vec!["play"];
    play.extend_from_slice(args);
    play.extend_from_slice(&["--log", log.to_str().unwrap()]);
    assert_exit(&tegula(&play), 0);
    let replay = [
        "replay",
        log.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ];
    assert_exit(&tegula(&replay), 0);
    std::fs::read_to_string(html).unwrap()
}

/// A finished game checked from scratch: the naive recount of its features agrees with the
/// engine's (`naive::audit`), and its log replays to the same scores.
pub fn audit_and_replay(
    rules: std::sync::Arc<tegula_engine::Rules>,
    g: &tegula_engine::Game,
) -> Result<(), String> {
    use tegula_engine::{log, naive};
    naive::audit(g)?;
    let replayed = log::replay(rules, &log::log_text(g)).map_err(|e| format!("{e:?}"))?;
    if replayed.scores() != g.scores() {
        let (a, b) = (replayed.scores(), g.scores());
        return Err(format!("the replay scores {a:?}, the game {b:?}"));
    }
    Ok(())
}

/// A fresh folder for one test: `prefix` names the test file, `name` the test.
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tegula-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The log of a finished base game (`tegula play`, seed 3), written to `dir/game.jsonl`.
pub fn base_game_log(dir: &Path) -> PathBuf {
    let log = dir.join("game.jsonl");
    let o = tegula(&[
        "play",
        "--variant",
        "variants/base.toml",
        "--seed",
        "3",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_exit(&o, 0);
    log
}

/// A fresh folder inside the repository's data root (under `target/`, which git ignores), for
/// scenarios that name the shipped variants: a scenario's `variant` stays inside its data root.
/// From it the repository is `../../../`.
pub fn repo_scratch(name: &str) -> PathBuf {
    let dir = root()
        .join("target/tegula-moved-scenarios")
        .join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
