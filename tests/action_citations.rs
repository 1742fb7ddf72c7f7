//! Issue 30, "Done when": The Abbot, King & Robber Baron, Goldmines, Little Buildings and The
//! Cathars (and, issue 31, The Tower) play from data alone and cite their rule ids in simulated games. Seeded games of each
//! variant, by random and by greedy agents, are logged by the built binary (`tegula simulate
//! --logs`); every rule id below must be cited by some event of some log of its variant, and no
//! event may cite a rule id of another of these expansions.

mod common;
use common::{assert_exit, tegula};

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

/// A variant, the rule ids its games must cite (written from RULES-ACTIONS.md, not read from
/// the data), and the prefix no other expansion's events may carry.
struct Expansion {
    variant: &'static str,
    prefix: &'static str,
    cited: &'static [&'static str],
}

/// Which rule ids show up in events, and why the others do not:
/// - AB: AB-1 on a garden tile's placement, AB-2 on the abbot's, AB-3 and AB-5 on a garden's
///   score, AB-4 on a withdrawal's score and return.
/// - KR: KR-1 on a King & Robber Baron tile's placement, KR-2 / KR-3 on the tokens' passing, KR-4
///   on the end payments.
/// - GM: GM-1 on a gold tile's placement, GM-2 on the ingots put, GM-3 on the ingots taken (the
///   same events share them as GM-4 says: GM-4 is no event of its own), GM-5 on the end
///   payments.
/// - LB: LB-2 on a building's placement (spent and put on the tile), LB-3 on its points. LB-1 is
///   the deal at setup (the seats' starting holdings), which no event cites.
/// - CA: CA-1 on a Cathars tile's placement, CA-2 on a besieged city's score, CA-3 on an escape,
///   CA-4 on a field's score.
/// - TO (issue 31): TO-1 on a tower tile's placement, TO-2 on a floor (spent, stacked) or a top,
///   TO-4 on a capture, TO-6 on an exchange, TO-7 on a buy-back. TO-3 (reach) and TO-5 (closed)
///   say which captures and floors are offered, TO-8 that the end scores nothing: no event.
const EXPANSIONS: [Expansion; 6] = [
    Expansion {
        variant: "variants/abbot.toml",
        prefix: "AB-",
        cited: &["AB-1", "AB-2", "AB-3", "AB-4", "AB-5"],
    },
    Expansion {
        variant: "variants/king-robber-baron.toml",
        prefix: "KR-",
        cited: &["KR-1", "KR-2", "KR-3", "KR-4"],
    },
    Expansion {
        variant: "variants/goldmines.toml",
        prefix: "GM-",
        cited: &["GM-1", "GM-2", "GM-3", "GM-5"],
    },
    Expansion {
        variant: "variants/little-buildings.toml",
        prefix: "LB-",
        cited: &["LB-2", "LB-3"],
    },
    Expansion {
        variant: "variants/cathars.toml",
        prefix: "CA-",
        cited: &["CA-1", "CA-2", "CA-3", "CA-4"],
    },
    Expansion {
        variant: "variants/tower.toml",
        prefix: "TO-",
        cited: &["TO-1", "TO-2", "TO-4", "TO-6", "TO-7"],
    },
];

/// Every rule id cited by the events of `games` games of `variant` played by `agents`.
fn cited_ids(variant: &str, games: u32, agents: &str, dir: &Path) -> BTreeSet<String> {
    std::fs::create_dir_all(dir).unwrap();
    let g = games.to_string();
    let out = tegula(&[
        "simulate",
        "--variant",
        variant,
        "--players",
        "3",
        "--games",
        &g,
        "--agents",
        agents,
        "--seed",
        "30",
        "--logs",
        dir.to_str().unwrap(),
        "--max-logs",
        &g,
        "--no-timing",
    ]);
    assert_exit(&out, 0);
    let mut ids = BTreeSet::new();
    for f in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        for line in text.lines() {
            let e: Value = serde_json::from_str(line).unwrap();
            ids.extend(e["rule"].as_str().map(str::to_string));
            if let Some(list) = e["rules"].as_array() {
                ids.extend(list.iter().filter_map(Value::as_str).map(str::to_string));
            }
        }
    }
    ids
}

#[test]
fn every_action_expansion_rule_is_cited_in_simulated_games() {
    let tmp = std::env::temp_dir().join(format!("tegula-actions-{}", std::process::id()));
    let mut problems = Vec::new();
    for (i, x) in EXPANSIONS.iter().enumerate() {
        let mut seen = cited_ids(x.variant, 40, "random", &tmp.join(format!("{i}-random")));
        seen.extend(cited_ids(
            x.variant,
            10,
            "greedy",
            &tmp.join(format!("{i}-greedy")),
        ));
        for id in x.cited {
            if !seen.contains(*id) {
                problems.push(format!("{}: {id} never cited; cited: {seen:?}", x.variant));
            }
        }
        let foreign: Vec<&String> = (seen.iter())
            .filter(|id| {
                EXPANSIONS
                    .iter()
                    .any(|o| o.prefix != x.prefix && id.starts_with(o.prefix))
            })
            .collect();
        if !foreign.is_empty() {
            problems.push(format!("{}: cites {foreign:?}", x.variant));
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
