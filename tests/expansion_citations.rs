//! Issue 21, "Done when": the three expansions play from data alone with every rule id of
//! RULES-MORE.md cited in events. Seeded games of the I&C, T&B, River and combined variants are
//! logged by the built binary (`tegula simulate --logs`); every IC-/TB-/R- id of the registry
//! must be cited by some event of some log, and each citation the data names must sit on the
//! right events only: tile sets' rules on the placements of their tiles, a pile group's on the
//! draws of its tiles, a figure type's on its placements and returns, IC-6 once at the start
//! of 6-player games, IC-5 on field scores.

mod common;
use common::{assert_exit, root, tegula};

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// What the data of these variants says each kind of event cites (written here from the rule
/// texts, not read from the data).
mod expected {
    /// Rules the placement of a tile of `set` (id `tile`) cites.
    pub fn place(set: &str, tile: &str) -> Vec<&'static str> {
        let mut out = match set {
            "inns-cathedrals" => vec!["IC-1"],
            "traders-builders" => vec!["TB-1"],
            // The spring starts on the board; every other river tile must continue the river
            // and all but the lake, which leaves no open end, keep room ahead.
            "river" if tile == "river-10" => vec!["R-1", "R-5", "R-3"],
            "river" => vec!["R-1", "R-5", "R-3", "R-4"],
            _ => vec![],
        };
        // The crossing roads, the cloister among roads, the bridged dead end (TB-9).
        if matches!(tile, "tb-22" | "tb-23" | "tb-24") {
            out.push("TB-9");
        }
        out
    }

    /// The rule a draw of a tile of `set` cites: the river tiles are drawn first.
    pub fn draw(set: &str) -> Option<&'static str> {
        (set == "river").then_some("R-2")
    }

    /// The rule of placing a figure from supply.
    pub fn follower(figure: &str) -> Option<&'static str> {
        match figure {
            "large-meeple" => Some("IC-2"),
            "builder" => Some("TB-4"),
            "pig" => Some("TB-7"),
            _ => None,
        }
    }

    /// The rule of a figure's return to supply.
    pub fn ret(figure: &str) -> Option<&'static str> {
        match figure {
            "large-meeple" => Some("IC-2"),
            "builder" => Some("TB-6"),
            _ => None,
        }
    }
}

/// One logged run: variant, players, games, agents.
type Run = (&'static str, u8, u32, &'static str);

const RUNS: [Run; 6] = [
    ("variants/inns-cathedrals.toml", 4, 100, "random"),
    // IC-6: six seats.
    ("variants/inns-cathedrals.toml", 6, 20, "random"),
    // Greedy farmers complete cathedral cities beside their fields (IC-5) now and then.
    ("variants/inns-cathedrals.toml", 3, 30, "greedy"),
    ("variants/traders-builders.toml", 4, 100, "random"),
    ("variants/river.toml", 4, 100, "random"),
    ("variants/abbey-mayor-inns-traders.toml", 6, 100, "random"),
];

/// The logs of `run`, written by `tegula simulate` into `dir`.
fn logs(run: Run, dir: &Path) -> Vec<Vec<Value>> {
    let (variant, players, games, agents) = run;
    std::fs::create_dir_all(dir).unwrap();
    let (p, g) = (players.to_string(), games.to_string());
    let out = tegula(&[
        "simulate",
        "--variant",
        variant,
        "--players",
        &p,
        "--games",
        &g,
        "--agents",
        agents,
        "--seed",
        "21",
        "--logs",
        dir.to_str().unwrap(),
        "--max-logs",
        &g,
        "--no-timing",
    ]);
    assert_exit(&out, 0);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), games as usize, "{variant}");
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            text.lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        })
        .collect()
}

/// Tile id → set id, from the variant's compiled ruleset.
fn sets_of(variant: &str) -> BTreeMap<String, String> {
    let (rs, diags) = tegula_model::variant::build_variant(&root().join(variant));
    let rs = rs.unwrap_or_else(|| panic!("{variant}: {diags:?}"));
    rs.tiles.into_iter().map(|t| (t.id, t.set)).collect()
}

fn s<'a>(e: &'a Value, key: &str) -> &'a str {
    e[key].as_str().unwrap_or_default()
}

/// Every rule id `e` cites: `rule`, and each of a placement's `rules`.
fn cited(e: &Value) -> Vec<&str> {
    let mut out: Vec<&str> = e["rule"].as_str().into_iter().collect();
    if let Some(list) = e["rules"].as_array() {
        out.extend(list.iter().filter_map(Value::as_str));
    }
    out
}

/// Check the citations of one game's events against [`expected`]; count what was seen.
fn check_game(
    game: &[Value],
    sets: &BTreeMap<String, String>,
    players: u8,
    seen: &mut BTreeMap<String, usize>,
) -> Result<(), String> {
    let set = |e: &Value| sets[s(e, "tile")].as_str();
    // The setup line, then the seating line exactly when more than five are seated (IC-6).
    let seated = game.iter().filter(|e| s(e, "type") == "seating").count();
    let ic6 = players > 5 && sets.values().any(|s| s == "inns-cathedrals");
    if seated != usize::from(ic6) {
        return Err(format!("{seated} seating lines with {players} players"));
    }
    if ic6
        && (game[1]["type"] != "seating"
            || game[1]["seats"] != players
            || game[1]["rule"] != "IC-6")
    {
        return Err(format!("line 2 is not the IC-6 seating line: {}", game[1]));
    }
    for e in &game[1..] {
        let got = cited(e);
        let want: Vec<&str> = match s(e, "type") {
            "place" => expected::place(set(e), s(e, "tile")),
            "draw" => expected::draw(set(e)).into_iter().collect(),
            "follower" if e["moved"] == true || e["marker"] == true => vec![],
            "follower" => expected::follower(s(e, "follower")).into_iter().collect(),
            "return" => expected::ret(s(e, "follower")).into_iter().collect(),
            // IC-5 is a field score's, only when a counted city has a cathedral: never on
            // another kind of feature.
            "score" if got == ["IC-5"] && e["feature"]["kind"] != "field" => {
                return Err(format!("IC-5 on a score that is not a field's: {e}"));
            }
            _ => got.clone(),
        };
        if got != want {
            return Err(format!("cites {got:?}, expected {want:?}: {e}"));
        }
        for r in got {
            *seen.entry(r.to_string()).or_default() += 1;
        }
    }
    Ok(())
}

#[test]
fn every_expansion_rule_is_cited_by_the_events_it_applies_to() {
    let tmp = std::env::temp_dir().join(format!("tegula-citations-{}", std::process::id()));
    let mut seen = BTreeMap::new();
    let mut field_scores = BTreeMap::<&str, usize>::new();
    for (i, run) in RUNS.into_iter().enumerate() {
        let sets = sets_of(run.0);
        for (g, game) in logs(run, &tmp.join(i.to_string())).iter().enumerate() {
            if let Err(why) = check_game(game, &sets, run.1, &mut seen) {
                panic!("{} ({} players) game {g}: {why}", run.0, run.1);
            }
            let fields = game
                .iter()
                .filter(|e| e["type"] == "score" && e["feature"]["kind"] == "field");
            for e in fields {
                *field_scores
                    .entry(if e["rule"] == "IC-5" { "IC-5" } else { "other" })
                    .or_default() += 1;
            }
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
    let want: BTreeSet<&str> = tegula_model::rules::all()
        .iter()
        .map(|r| r.id.as_str())
        .filter(|id| ["IC-", "TB-", "R-"].iter().any(|p| id.starts_with(p)))
        .collect();
    assert_eq!(want.len(), 6 + 9 + 6, "{want:?}");
    let missing: Vec<&&str> = want.iter().filter(|id| !seen.contains_key(**id)).collect();
    assert!(
        missing.is_empty(),
        "never cited: {missing:?}; cited: {seen:?}"
    );
    // IC-5 is not cited on every field score: most fields border no cathedral city.
    assert!(
        field_scores["other"] > field_scores["IC-5"],
        "{field_scores:?}"
    );
}

/// `tegula variant explain` says which rules a variant's player range and figures cite.
#[test]
fn explain_names_the_rules_the_data_cites() {
    let out = tegula(&["variant", "explain", "variants/inns-cathedrals.toml"]);
    assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("2 to 6 players; a game of more than 5 cites IC-6 at its start"),
        "{text}"
    );
    assert!(
        text.contains("its placements cite IC-2; its returns cite IC-2"),
        "{text}"
    );
    let out = tegula(&["variant", "explain", "variants/base.toml"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains(" cite"), "{text}");
}

/// `variants/NAME.toml` without its lines starting with any of `keys`, written into
/// `tmp/variants/` of a private data root (the schemas and copies of the tile sets it names: a
/// variant reads only files inside its data root); the new file's path.
fn without(name: &str, keys: &[&str], tmp: &Path) -> String {
    let text = std::fs::read_to_string(root().join(format!("variants/{name}.toml"))).unwrap();
    for sub in ["schema", "tiles", "variants"] {
        std::fs::create_dir_all(tmp.join(sub)).unwrap();
    }
    for f in std::fs::read_dir(root().join("schema")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, tmp.join("schema").join(f.file_name().unwrap())).unwrap();
    }
    for set in ["base", "inns-cathedrals", "traders-builders"] {
        let file = format!("tiles/{set}.toml");
        std::fs::copy(root().join(&file), tmp.join(&file)).unwrap();
    }
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !keys.iter().any(|k| l.starts_with(k)))
        .collect();
    let path = tmp.join(format!("variants/{name}.toml"));
    std::fs::write(&path, kept.join("\n")).unwrap();
    path.display().to_string()
}

/// The scenarios that check IC-5, IC-2's and TB-6's citations hold with the shipped variants
/// and fail with the same variants stripped of the data that names those rules (the field
/// value's cited branch, the figures' `place_rule` / `return_rule`): the citations come from
/// the data, and the scenarios see them.
#[test]
fn the_citation_scenarios_fail_without_the_data_that_names_the_rules() {
    let tmp = std::env::temp_dir().join(format!("tegula-cite-sc-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let keys = ["field.end", "place_rule", "return_rule"];
    let ic = without("inns-cathedrals", &keys, &tmp);
    let tb = without("traders-builders", &keys, &tmp);
    let mut cache = tegula_scenario::VariantCache::default();
    for (scenario, variant, stripped) in [
        ("ic5-farmer-scores-cathedral-city", "inns-cathedrals", &ic),
        ("ic2-large-meeple-beats-a-meeple", "inns-cathedrals", &ic),
        ("tb4-tb5-tb6-builder-on-a-road", "traders-builders", &tb),
    ] {
        let sc = root().join(format!("scenarios/{scenario}.toml"));
        let line = format!("variant = \"../variants/{variant}.toml\"");
        let shipped = format!("variants/{variant}.toml");
        let sub = tmp.join(scenario);
        std::fs::create_dir_all(&sub).unwrap();
        let holds = common::run_under(&sc, &line, &shipped, &sub, &mut cache);
        assert_eq!(holds, Some(false), "{scenario} under {shipped}");
        let fails = common::run_under(&sc, &line, stripped, &sub, &mut cache);
        assert_eq!(fails, Some(true), "{scenario} under {stripped}");
    }
    std::fs::remove_dir_all(&tmp).ok();
}
