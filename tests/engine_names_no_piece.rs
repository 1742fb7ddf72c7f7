//! Issue 21 item 9, issue 30 item 6: the engine and the ruleset contract name no game piece and
//! no rule. Mechanisms carry generic names; inns, cathedrals, goods, builders, pigs, rivers,
//! barns, mayors, wagons, abbeys, wonders and the pieces of the action expansions exist only in
//! the data (tiles/, variants/, scenarios/), the tests and the docs; and every rule id the engine
//! cites comes from the data (the compiled contract), never from a literal in its code.
//!
//! Words are found in every line (code and comments) after splitting on anything not a letter
//! or a digit and then at CamelCase humps, so `BarnScoring`, `barn_scoring` and `barn-scoring`
//! are all caught. Rule ids (`B-2`, `AM-11`, `W-6`: capitals, a dash, digits) are looked for in
//! code only: comments may cite the rules they implement.

mod common;
use common::root;

use std::path::Path;

/// The pieces of the shipped expansions and of `../shared/reference/RULES-ACTIONS.md`, as whole
/// words (singular and plural).
const PIECES: &[&str] = &[
    "inn",
    "inns",
    "cathedral",
    "cathedrals",
    "goods",
    "wine",
    "grain",
    "cloth",
    "builder",
    "builders",
    "pig",
    "pigs",
    "river",
    "rivers",
    "barn",
    "barns",
    "mayor",
    "mayors",
    "wagon",
    "wagons",
    "abbey",
    "abbeys",
    "wonder",
    "wonders",
    "marker",
    "markers",
    // The action expansions (RULES-ACTIONS.md): PD, TO, AB, KR, GM, LB, CA.
    "dragon",
    "dragons",
    "fairy",
    "fairies",
    "princess",
    "princesses",
    "portal",
    "portals",
    "volcano",
    "volcanoes",
    "tower",
    "towers",
    "floor",
    "floors",
    "prisoner",
    "prisoners",
    "ransom",
    "abbot",
    "abbots",
    "garden",
    "gardens",
    "king",
    "kings",
    "robber",
    "robbers",
    "baron",
    "barons",
    "gold",
    "goldmine",
    "goldmines",
    "ingot",
    "ingots",
    "building",
    "buildings",
    "house",
    "houses",
    "shed",
    "sheds",
    "cathar",
    "cathars",
    "siege",
    "sieges",
    "besieger",
    "besiegers",
];

/// Files that are test code or test data of their crate, not the engine or the contract (the
/// test kit builds rulesets from spec strings, standing in for the data).
const TEST_FILES: &[&str] = &["tests.rs", "testkit.rs", "choice_tests.rs"];

/// Lines that spell a word of a frozen format — the artefact's and the log's, pinned by
/// `schema/` and `tests/logs.rs` — in a serde attribute or the kind's data word, beside a Rust
/// name that is generic. Each must still be in its file (a stale entry fails the test).
const FORMAT_WORDS: &[(&str, &str)] = &[
    (
        "crates/engine/src/event.rs",
        r#"#[serde(default, skip_serializing_if = "is_false", rename = "marker")]"#,
    ),
    (
        "crates/ruleset/src/features.rs",
        r#"#[serde(rename = "wonder")]"#,
    ),
    (
        "crates/ruleset/src/features.rs",
        r#"FeatureKind::Unscored => "wonder","#,
    ),
    (
        "crates/ruleset/src/readings.rs",
        r#"#[serde(rename = "near_building")]"#,
    ),
    (
        "crates/ruleset/src/effects.rs",
        r#"#[serde(rename = "near-building")]"#,
    ),
];

/// The words of a line, lower-cased: split on anything not a letter or digit, then at
/// CamelCase humps (`BarnScoring` → `barn`, `scoring`; `HTTPServer` → `http`, `server`).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in line.split(|c: char| !c.is_ascii_alphanumeric()) {
        let chars: Vec<char> = token.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (prev, cur) = (chars[i - 1], chars[i]);
            let next_lower = chars.get(i + 1).is_some_and(|c| c.is_ascii_lowercase());
            let hump = cur.is_ascii_uppercase()
                && (prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase() && next_lower));
            if hump {
                out.push(chars[start..i].iter().collect::<String>().to_lowercase());
                start = i;
            }
        }
        if start < chars.len() {
            out.push(chars[start..].iter().collect::<String>().to_lowercase());
        }
    }
    out
}

/// The code of a line: what comes before a `//` outside a string literal.
fn code_of(line: &str) -> &str {
    let b = line.as_bytes();
    let mut in_str = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && b.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}

/// The rule ids in `code`: capitals (and digits) starting with a capital, a dash, digits, an
/// optional lower-case letter, not part of a longer word (`B-2`, `AM-11`, `W-6`, `R2-1`).
fn rule_ids(code: &str) -> Vec<String> {
    let b = code.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_uppercase() && (i == 0 || !word(b[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_uppercase() || b[j].is_ascii_digit()) {
            j += 1;
        }
        let digits_from = j + 1;
        let mut k = digits_from;
        while k < b.len() && b[k].is_ascii_digit() {
            k += 1;
        }
        if j < b.len() && b[j] == b'-' && k > digits_from {
            if k < b.len() && b[k].is_ascii_lowercase() {
                k += 1;
            }
            if k == b.len() || !word(b[k]) {
                out.push(code[i..k].to_string());
            }
        }
        i = j.max(i + 1);
    }
    out
}

/// What a scan found: `path:line: word` for piece words, `path:line: rule id` for rule ids.
#[derive(Default)]
struct Found {
    pieces: Vec<String>,
    rules: Vec<String>,
}

/// Scan the Rust files under `dir` (test modules and test files left out).
fn scan(dir: &Path, found: &mut Found) {
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let p = entry.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            scan(&p, found);
        } else if name.ends_with(".rs") && !TEST_FILES.contains(&name) {
            scan_file(&p, found);
        }
    }
}

fn scan_file(p: &Path, found: &mut Found) {
    let text = std::fs::read_to_string(p).unwrap();
    let rel = p.strip_prefix(root()).unwrap_or(p).to_string_lossy();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            // The unit tests at the end of the file are test code.
            break;
        }
        let format_word = FORMAT_WORDS
            .iter()
            .any(|(f, l)| rel.ends_with(f) && line.trim() == *l);
        if !format_word {
            for w in words(line).into_iter().filter(|w| PIECES.contains(&&**w)) {
                found.pieces.push(format!("{}:{}: {w}", p.display(), n + 1));
            }
        }
        for r in rule_ids(code_of(line)) {
            found.rules.push(format!("{}:{}: {r}", p.display(), n + 1));
        }
    }
}

fn engine_and_contract() -> Found {
    let mut found = Found::default();
    for dir in ["crates/engine/src", "crates/ruleset/src"] {
        scan(&root().join(dir), &mut found);
    }
    found
}

#[test]
fn engine_and_contract_name_no_piece() {
    let found = engine_and_contract();
    assert!(
        found.pieces.is_empty(),
        "the engine or the contract names a game piece (give the mechanism a generic name; \
         the piece belongs in the data):\n{}",
        found.pieces.join("\n")
    );
}

#[test]
fn engine_and_contract_cite_no_rule_of_their_own() {
    let found = engine_and_contract();
    assert!(
        found.rules.is_empty(),
        "the engine or the contract holds a rule id in its code (the rule belongs in the data: \
         the compiled contract carries it):\n{}",
        found.rules.join("\n")
    );
}

#[test]
fn every_format_word_is_still_where_it_is_allowed() {
    for (file, line) in FORMAT_WORDS {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        assert!(
            text.lines().any(|l| l.trim() == *line),
            "{file} no longer has `{line}`: remove it from FORMAT_WORDS"
        );
    }
}

#[test]
fn words_split_at_humps_and_underscores() {
    assert_eq!(words("BarnScoring"), ["barn", "scoring"]);
    assert_eq!(words("barn_scoring"), ["barn", "scoring"]);
    assert_eq!(
        words("HTTPServer x2Wagon"),
        ["http", "server", "x2", "wagon"]
    );
    assert_eq!(
        rule_ids(r#"f("B-2"); g(AM-11); h("R2-1a")"#),
        ["B-2", "AM-11", "R2-1a"]
    );
    assert!(rule_ids("a - 1; x-1; UTF-8xy; TB_4; N - 2; aB-2").is_empty());
    assert_eq!(
        code_of(r#"let u = "http://x"; // B-2"#),
        r#"let u = "http://x"; "#
    );
}

#[test]
fn the_scan_sees_a_piece_or_a_rule_where_there_is_one() {
    // The scan itself must be able to fail: a piece word in a comment, a CamelCase name, a
    // snake_case name and a rule-id literal in a scratch tree are each reported, and a rule id
    // in a comment is not.
    let dir = std::env::temp_dir().join(format!("tegula-pieces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("x.rs"),
        "// the Wagon moves (AM-11)\n\
         struct BarnScoring;\n\
         fn gold_ingots() {}\n\
         fn rule() -> &'static str { \"TB-7\" }\n",
    )
    .unwrap();
    let mut found = Found::default();
    scan(&dir, &mut found);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        found
            .pieces
            .iter()
            .map(|f| f.rsplit(": ").next().unwrap())
            .collect::<Vec<_>>(),
        ["wagon", "barn", "gold", "ingots"],
        "{:?}",
        found.pieces
    );
    assert!(found.pieces[1].contains("x.rs:2:"), "{:?}", found.pieces);
    assert_eq!(found.rules.len(), 1, "{:?}", found.rules);
    assert!(
        found.rules[0].ends_with("x.rs:4: TB-7"),
        "{:?}",
        found.rules
    );
}
