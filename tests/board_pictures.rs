//! Board pictures read like the game (issue 18, item 5): every figure type has its own letters,
//! from its name in the data, upright on a lying farmer too; the standalone board SVG scales to
//! the browser window; the winner's star fits before the score; the terminal board explains its
//! characters. The pictures are drawn by the built binary (`tegula play --board`).

use std::path::PathBuf;

mod common;
use common::{assert_exit, tegula};

/// The final board of a greedy two-player game of `variant` with `seed`, drawn to `name`.
fn board(variant: &str, seed: &str, name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tegula-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_path: PathBuf = dir.join(name);
    let v = format!("variants/{variant}.toml");
    let out = tegula(&[
        "play",
        "--variant",
        &v,
        "--seed",
        seed,
        "--agents",
        "greedy",
        "--board",
        out_path.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let text = std::fs::read_to_string(&out_path).unwrap();
    let _ = std::fs::remove_file(&out_path);
    text
}

/// A drawn figure: its title, its transform, and its text (content, transform) if any.
type DrawnFigure = (String, String, Option<(String, String)>);

/// The `<g class="figure">` elements of a board.
fn figures(doc: &roxmltree::Document<'_>) -> Vec<DrawnFigure> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("figure"))
        .map(|g| {
            let title = g
                .children()
                .find(|c| c.has_tag_name("title"))
                .and_then(|t| t.text())
                .unwrap_or_default()
                .to_string();
            let text = g.children().find(|c| c.has_tag_name("text")).map(|t| {
                (
                    t.text().unwrap_or_default().to_string(),
                    t.attribute("transform").unwrap_or_default().to_string(),
                )
            });
            (
                title,
                g.attribute("transform").unwrap_or_default().to_string(),
                text,
            )
        })
        .collect()
}

#[test]
fn every_figure_type_has_its_own_letters_upright_on_a_lying_farmer() {
    let svg = board("abbey-mayor", "1", "am.svg");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let figs = figures(&doc);
    assert!(figs.len() > 5, "{} figures", figs.len());
    // Figure type name (from the title "seat: Name on ...") -> the letters it shows.
    let mut letters: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    let mut lying = 0;
    for (title, transform, text) in &figs {
        let name = title
            .split(": ")
            .nth(1)
            .unwrap()
            .split(" on ")
            .next()
            .unwrap();
        let (symbol, text_transform) = text.clone().expect("several types: each shows letters");
        letters.entry(name.to_string()).or_default().insert(symbol);
        if transform.contains("rotate(90)") {
            lying += 1;
            assert_eq!(
                text_transform, "rotate(-90)",
                "{title}: letters turned back upright"
            );
        }
    }
    assert!(lying > 0, "a farmer lies down in this game");
    let mut all = std::collections::BTreeSet::new();
    for (name, set) in &letters {
        assert_eq!(set.len(), 1, "{name} shows one set of letters: {set:?}");
        let symbol = set.iter().next().unwrap();
        assert!(name.starts_with(symbol.as_str()), "{name} shows {symbol}");
        assert!(
            all.insert(symbol.clone()),
            "{symbol} is shown by two figure types"
        );
    }
    assert!(letters.len() >= 3, "{letters:?}");
}

#[test]
fn the_board_svg_fills_the_window_and_the_winners_star_fits_before_the_score() {
    let svg = board("base", "2", "base.svg");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let root = doc.root_element();
    assert!(root.attribute("viewBox").is_some());
    assert_eq!(root.attribute("width"), Some("100%"));
    assert_eq!(root.attribute("height"), Some("100%"));
    // The score table: each seat's name text, then its score text to the right. At 12 px a
    // monospace character is 7.2 px wide; the star may be up to two of them.
    let texts: Vec<(f64, String)> = doc
        .descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("seat-")))
        .map(|n| {
            let x = n.attribute("x").unwrap().parse().unwrap();
            (x, n.text().unwrap_or_default().to_string())
        })
        .collect();
    let winner = texts
        .iter()
        .position(|(_, t)| t.ends_with('★'))
        .expect("a winner");
    let (name_x, name) = &texts[winner];
    let score_x = texts[winner + 1].0;
    let end = name_x + 7.2 * (name.chars().count() as f64 + 1.0);
    assert!(
        end <= score_x,
        "`{name}` ends at {end}, its score starts at {score_x}"
    );
}

#[test]
fn the_terminal_board_explains_its_characters() {
    let text = board("base", "2", "base.txt");
    for needle in [
        "key: ",
        "C city",
        "R road",
        ". field",
        "+ cloister",
        "# a road's end",
        "@ ",
    ] {
        assert!(text.contains(needle), "the key lacks `{needle}`:\n{text}");
    }
}
