//! CLI tests of seat resources (docs/FORMAT.md, "Seat resources") on
//! `variants/traders-builders.toml`: `play` (text, JSON, log), `simulate` (text, JSON) and
//! `replay` show them; the base game's outputs name none.

mod common;

use common::{assert_exit, root, tegula};
use serde_json::Value;

fn stdout_json(args: &[&str]) -> Value {
    let o = tegula(args);
    assert_exit(&o, 0);
    serde_json::from_slice(&o.stdout).expect("JSON")
}

/// Seed 7, greedy against greedy: seat 0 completes a city with a wine, a grain and a cloth
/// symbol (TB-2) and holds the most of each at the end (TB-3: 3 × 10).
#[test]
fn play_shows_goods_in_text_json_and_log() {
    let dir = std::env::temp_dir().join(format!("tegula-resources-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("tb.jsonl");
    let args = [
        "play",
        "--variant",
        "variants/traders-builders.toml",
        "--seed",
        "7",
        "--agents",
        "greedy,greedy",
    ];
    let o = tegula(&[&args[..], &["--log", log.to_str().unwrap()]].concat());
    assert_exit(&o, 0);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("[Wine 1, Grain 1, Cloth 1]"), "{text}");
    let v = stdout_json(&[&args[..], &["--format", "json"]].concat());
    let held = &v["resources"];
    for id in ["wine", "grain", "cloth"] {
        assert_eq!(held[id], serde_json::json!([1, 0]), "{v}");
    }
    let lines = std::fs::read_to_string(&log).unwrap();
    let events: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of = |kind: &str| events.iter().filter(|e| e["type"] == kind).count();
    assert_eq!((of("gain"), of("award")), (3, 3));
    let end = events.last().unwrap();
    assert_eq!(end["resources"]["cloth"], serde_json::json!([1, 0]));
    // The board picture's score table and the replay viewer show the tallies and the events.
    let svg = dir.join("tb.svg");
    let o = tegula(&[&args[..], &["--board", svg.to_str().unwrap()]].concat());
    assert_exit(&o, 0);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains(">resources</text>"), "no tally column");
    assert!(picture.contains(">Wine 1, Grain 1, Cloth 1</text>"));
    let html = dir.join("tb.html");
    let o = tegula(&[
        "replay",
        log.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_exit(&o, 0);
    let viewer = std::fs::read_to_string(&html).unwrap();
    assert!(viewer.contains("<th>resources</th>"));
    assert!(viewer.contains("seat 0 takes 1 cloth <span class=\"rule\">[TB-2]</span>"));
    assert!(viewer.contains("seat 0 holds the most cloth (1) and scores 10"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn simulate_reports_mean_holdings_only_where_there_are_resources() {
    let args = ["simulate", "--games", "40", "--seed", "1", "--variant"];
    let tb = stdout_json(
        &[
            &args[..],
            &["variants/traders-builders.toml", "--format", "json"],
        ]
        .concat(),
    );
    let means = tb["mean_resources"]["wine"]
        .as_array()
        .expect("a mean per seat");
    assert_eq!(means.len(), 2);
    let o = tegula(&[&args[..], &["variants/traders-builders.toml"]].concat());
    assert!(String::from_utf8_lossy(&o.stdout).contains("mean wine held at the end, by seat:"));
    let base = stdout_json(&[&args[..], &["variants/base.toml", "--format", "json"]].concat());
    assert!(base.get("mean_resources").is_none(), "{base}");
    let o = tegula(&[&args[..], &["variants/base.toml"]].concat());
    assert!(!String::from_utf8_lossy(&o.stdout).contains("held at the end"));
    let v = stdout_json(&[
        "play",
        "--variant",
        "variants/base.toml",
        "--format",
        "json",
    ]);
    assert!(v.get("resources").is_none(), "{v}");
}

/// `variant explain` says how each resource is gained and awarded, with the data's rule ids and
/// the line that declares each: the gain and the award are rules of the one form (lowered from
/// the resource's `gain` and `award`, at the line of that key), the resource its own line.
#[test]
fn explain_states_each_resource() {
    let o = tegula(&["variant", "explain", "variants/traders-builders.toml"]);
    assert_exit(&o, 0);
    let text = String::from_utf8_lossy(&o.stdout);
    let find = |start: &str, has: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(start) && l.contains(has))
            .unwrap_or_else(|| panic!("no line {start} with {has}:\n{text}"))
            .to_string()
    };
    let file = std::fs::read_to_string(root().join("variants/traders-builders.toml")).unwrap();
    let line_of = |text: &str| {
        let i = file.lines().position(|l| l.starts_with(text)).unwrap();
        format!("variants/traders-builders.toml:{}", i + 1)
    };
    let resource = find("resource.grain", "");
    assert!(resource.contains(&line_of("id = \"grain\"")), "{resource}");
    let gain = line_of("gain = { completed = \"city\", amount = \"count(grain)\"");
    // Grain's award is the second `award` key of the file.
    let second = file
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("award = "))
        .nth(1)
        .map(|(i, _)| format!("variants/traders-builders.toml:{}", i + 1))
        .unwrap();
    for (start, parts) in [
        (
            "when.TB-2",
            [
                "When a city is completed during the game: the placer of the tile gains \
                 resource `grain`: 1 per segment tagged `grain`. (TB-2)",
                gain.as_str(),
            ],
        ),
        (
            "when.TB-3",
            [
                "Once the game is over, after final scoring: each seat holding the most of \
                 resource `grain` (none for 0) scores 10. (TB-3)",
                second.as_str(),
            ],
        ),
    ] {
        let line = find(start, "`grain`");
        for part in parts {
            assert!(line.contains(part), "{part} not in {line}");
        }
    }
}
