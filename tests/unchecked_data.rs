//! Data that validated and then played something else than it says (issue 35, items 5, 6, 7,
//! 12, 13 and 14): each case runs the built binary on a file of `tests/fixtures/` and expects
//! the located diagnostic (or the scenario verdict) that the fix promises.

mod common;

use common::{assert_exit, expectations, tegula};

fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `tegula validate FILE` exits 1 and prints every `# expect:` line of the fixture as
/// `[code]` at `FILE:line:`.
fn refused_where_expected(rel: &str) {
    let o = tegula(&["validate", rel]);
    assert_exit(&o, 1);
    let out = text(&o);
    let expects = expectations(&common::root().join(rel));
    assert!(!expects.is_empty(), "{rel}: no `# expect:` line");
    for e in expects {
        assert!(out.contains(&format!("[{}]", e.code)), "{rel}: {out}");
        assert!(out.contains(&format!("{rel}:{}:", e.line)), "{rel}: {out}");
    }
}

/// Item 5: a pile group of tiles that are never drawn (the start tile's single copy, a player
/// tile, pool tiles) is refused at the tile's id.
#[test]
fn pile_groups_that_are_never_drawn_are_refused() {
    for f in [
        "pile-group-start-tile",
        "pile-group-player-tile",
        "pile-group-pool-tiles",
    ] {
        refused_where_expected(&format!("tests/fixtures/invalid/{f}.toml"));
    }
}

/// Item 12: abilities that pay or gain 0 in every game (`per = 0`, `per_value = "0"`,
/// `"tiles - tiles"`, a gain of `"0"`) are `never-scores` errors at the ability.
#[test]
fn abilities_that_always_pay_zero_never_score() {
    refused_where_expected("tests/fixtures/invalid/never-scores-zero-amounts.toml");
    // Values over the feature are read with the variant's tags, not as the placeholder the
    // tile set's own check leaves: `per_value = "tiles"` and `count(market)` still validate.
    assert_exit(&tegula(&["validate", "variants/house/guilds.toml"]), 0);
}
