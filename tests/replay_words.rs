//! The replay viewer reads like the game (issue 18, item 5): every event line of a Wonders and an
//! Abbey & Mayor game as a player would say it, with its rule id, and a per-turn score table with
//! the same columns at every turn and a cell for every seat in each. The games are played and
//! replayed by the built binary (`tegula play --log`, `tegula replay --html`).

use std::path::PathBuf;

mod common;
use common::play_and_replay;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tegula-words-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The replay page of a greedy two-player game of `variant` with `seed` (`test` keeps the
/// folders of tests running at once apart).
fn replay_page(variant: &str, seed: &str, test: &str) -> String {
    let dir = tmp(&format!("{test}-{variant}"));
    let log = dir.join("game.jsonl");
    let html = dir.join("game.html");
    let v = format!("variants/{variant}.toml");
    let args = ["--variant", &v, "--seed", seed, "--agents", "greedy"];
    let page = play_and_replay(&args, &log, &html);
    let _ = std::fs::remove_dir_all(&dir);
    page
}

/// The event lines of the page, markup removed.
fn event_lines(page: &str) -> Vec<String> {
    page.split("<li class=\"ev-")
        .skip(1)
        .map(|rest| {
            let body = &rest[rest.find('>').unwrap() + 1..rest.find("</li>").unwrap()];
            let mut text = String::new();
            let mut in_tag = false;
            for c in body.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            text.replace("&apos;", "'").replace("&amp;", "&")
        })
        .collect()
}

/// Lines that are not as a player would say them.
fn unplayerlike(lines: &[String]) -> Vec<String> {
    let rule_end = |l: &str| {
        l.rsplit_once(" [")
            .is_some_and(|(_, r)| r.ends_with(']') && r.contains('-'))
    };
    lines
        .iter()
        .filter(|l| {
            let bad_words = [
                "([",
                "incomplete field",
                "of 8 tiles",
                " +0",
                " for the ",
                "puts a Wagon on road",
                ".city",
                ".road",
                ".field",
                " on city",
                " on road",
                " on field",
            ];
            let cloister_in_tiles = l.contains("cloister of ") && l.contains(" tile");
            let ends_without_rule = !l.starts_with("game over") && !rule_end(l);
            let field_without_cities =
                l.contains("field") && l.contains(": ") && !l.contains("completed cit");
            bad_words.iter().any(|w| l.contains(w))
                || cloister_in_tiles
                || ends_without_rule
                || field_without_cities
        })
        .cloned()
        .collect()
}

/// The per-turn score tables: (header cells, each row's cells).
fn score_tables(page: &str) -> Vec<(usize, Vec<usize>)> {
    page.split("<table class=\"scores\"")
        .skip(1)
        .map(|rest| {
            let table = &rest[..rest.find("</table>").unwrap()];
            let mut rows = table.split("<tr>").skip(1);
            let header = rows.next().unwrap().matches("<th>").count();
            let cells = rows.map(|r| r.matches("<td>").count()).collect();
            (header, cells)
        })
        .collect()
}

#[test]
fn wonders_events_name_pool_tiles_abilities_and_fields_as_a_player_would() {
    let page = replay_page("wonders", "1", "words");
    let lines = event_lines(&page);
    assert!(lines.len() > 100, "{} event lines", lines.len());
    let bad = unplayerlike(&lines);
    assert!(
        bad.is_empty(),
        "lines not as a player says them:\n{}",
        bad.join("\n")
    );
    // Pool picks name the wonder by its name from the tile data, with the setup rule.
    let wonders = [
        "Stonehenge",
        "Circus Maximus",
        "Notre-Dame",
        "Alhambra",
        "Abu Simbel",
        "Tikal",
        "Angkor Wat",
        "Terracotta Army",
    ];
    let picks: Vec<&String> = lines.iter().filter(|l| l.contains(" picks ")).collect();
    assert_eq!(picks.len(), 2, "one pick per seat at setup: {picks:?}");
    for p in picks {
        assert!(
            wonders
                .iter()
                .any(|w| p.contains(&format!("picks {w} [W-1]"))),
            "{p}"
        );
    }
    // An ability's points are the ability's, not a feature's.
    let ability: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("'s ability [W-"))
        .collect();
    assert!(!ability.is_empty(), "no ability line");
    assert!(
        lines
            .iter()
            .any(|l| l.contains(": field with ") && l.ends_with("[B-6]")),
        "no farm line"
    );
    assert!(lines.iter().any(|l| l.starts_with("game over: seat 0 ")));
}

#[test]
fn abbey_mayor_events_say_wagon_moves_barns_and_cloister_neighbours() {
    let page = replay_page("abbey-mayor", "1", "words");
    let lines = event_lines(&page);
    let bad = unplayerlike(&lines);
    assert!(
        bad.is_empty(),
        "lines not as a player says them:\n{}",
        bad.join("\n")
    );
    let has = |needle: &str| lines.iter().any(|l| l.contains(needle));
    assert!(has("moves its Wagon to the "), "no wagon move");
    assert!(has("[AM-11]"), "a wagon move cites AM-11");
    assert!(has("puts a Barn on the corner at "), "no barn placement");
    assert!(
        has("cloister with "),
        "no cloister scored by its neighbours"
    );
    let barn = lines
        .iter()
        .find(|l| l.ends_with("[AM-7]"))
        .expect("a barn scoring");
    assert!(barn.contains(": field with "), "{barn}");
    // A barn that pays nothing during the game says so (the final scoring leaves such lines out).
    assert!(has(
        "seat 0 scores nothing: field with 0 completed cities [AM-7]"
    ));
}

#[test]
fn every_turn_score_table_has_the_same_columns_and_a_cell_for_every_seat() {
    for (variant, seed) in [("wonders", "1"), ("abbey-mayor", "1"), ("base", "3")] {
        let page = replay_page(variant, seed, "table");
        let tables = score_tables(&page);
        assert!(tables.len() > 10, "{variant}: {} tables", tables.len());
        let first = tables[0].0;
        for (k, (header, rows)) in tables.iter().enumerate() {
            assert_eq!(*header, first, "{variant}: turn {k} has other columns");
            assert_eq!(rows.len(), 2, "{variant}: turn {k}: a row per seat");
            for cells in rows {
                assert_eq!(
                    cells, header,
                    "{variant}: turn {k}: a cell under every header"
                );
            }
        }
    }
}

/// A 6-player Inns & Cathedrals game, logged and replayed: the viewer says the seating line
/// with IC-6, and the lines of draws, placements, figures and returns add the rules the data
/// names for them inside their brackets (IC-1 on the expansion's tiles, IC-2 on the large
/// meeple). Every line still reads as a player would say it.
#[test]
fn inns_cathedrals_lines_name_the_rules_the_data_cites() {
    let dir = tmp("cited");
    let (log, html) = (dir.join("game.jsonl"), dir.join("game.html"));
    let page = play_and_replay(&common::IC_SIX_SEATS, &log, &html);
    let _ = std::fs::remove_dir_all(&dir);
    let lines = event_lines(&page);
    assert_eq!(lines[0], "6 players sit down [IC-6]", "{lines:#?}");
    let has = |what: &str, end: &str| lines.iter().any(|l| l.contains(what) && l.ends_with(end));
    assert!(has(" places ", ", IC-1]"), "{lines:#?}");
    assert!(has(" puts a Large meeple on ", ", IC-2]"), "{lines:#?}");
    assert!(
        !lines
            .iter()
            .any(|l| l.contains(" puts a Meeple ") && l.contains("IC-")),
        "{lines:#?}"
    );
    assert_eq!(unplayerlike(&lines), Vec::<String>::new());
}
