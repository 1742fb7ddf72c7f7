//! Figures' value expressions in play (issue 21, item 3): a strength written as an expression
//! over the feature a figure stands on, and a corner figure's payments as expressions over its
//! field. In random games the engine's final scoring equals the naive reference engine's
//! from-scratch recount, which evaluates the same expressions over counts it computes itself
//! (cells, pennants, completed cities), and the expressions are exercised, not just loaded.

mod common;

use std::sync::Arc;

use tegula_engine::{sim, Agent, Event, Game, PileOrder, RandomAgent, Rules};
use tegula_ruleset::{Compare, Expr, Quantity, Strength, Test};

/// Random games of `rules`, each checked against the naive recount; the final score events.
fn final_events(rules: &Arc<Rules>, seeds: std::ops::Range<u64>) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for seed in seeds {
        let players = 2 + (seed % 4) as u8;
        let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
        let mut agents: Vec<Box<dyn Agent + Send>> = (0..players)
            .map(|p| Box::new(RandomAgent::new(seed * 8 + u64::from(p))) as Box<dyn Agent + Send>)
            .collect();
        sim::play_out(&mut g, &mut agents);
        common::final_matches(&g).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        tegula_engine::naive::audit(&g).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let from = g.final_scoring_from().unwrap();
        for e in &g.events()[from..] {
            if let Event::Score { rule, points, .. } = e {
                out.push((rule.clone(), *points));
            }
        }
    }
    out
}

/// The barn's final payment `4 * cities + tiles` (variants/house/barn-field-size.toml): some
/// barn is paid for its field's cells (a payment that is no multiple of 4), and the engine's
/// payments equal the recount's.
#[test]
fn a_corner_payment_over_the_fields_cells_matches_the_recount() {
    let rules = common::variant_rules("variants/house/barn-field-size.toml");
    let events = final_events(&rules, 0..16);
    let by_cells = events
        .iter()
        .filter(|(rule, points)| rule == "AM-9" && points % 4 != 0)
        .count();
    assert!(
        by_cells > 0,
        "no barn was paid for its field's cells: {events:?}"
    );
}

/// A strength over the counts of every kind a figure stands on: the meeple is worth 2 on a
/// feature of more than 3 cells, else 1, and the mayor at most 2
/// (variants/house/mayor-at-most-2.toml). Final majorities equal the recount's.
#[test]
fn strength_expressions_decide_final_majorities_as_the_recount_does() {
    let base = common::variant_rules("variants/house/mayor-at-most-2.toml");
    let mut rs = base.ruleset().clone();
    let big = Test::Cmp(
        Compare::Gt,
        Box::new(Expr::Count(Quantity::Tiles)),
        Box::new(Expr::Int(3)),
    );
    let meeple = rs.followers.iter_mut().find(|f| f.id == "meeple").unwrap();
    meeple.strength = Strength::Value(Expr::If(
        Box::new(big),
        Box::new(Expr::Int(2)),
        Box::new(Expr::Int(1)),
    ));
    let rules = Arc::new(Rules::new(rs).expect("playable"));
    let events = final_events(&rules, 0..16);
    assert!(events.iter().any(|(rule, _)| rule == "B-6"), "{events:?}");
    final_events(&base, 0..8);
}

/// What `tegula ARGS` prints (stdout and stderr) when it exits with `code`.
fn output(args: &[&str], code: i32) -> String {
    let out = common::tegula(args);
    common::assert_exit(&out, code);
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// `tegula variant explain` says an expression strength and a corner figure's payments in words.
#[test]
fn explain_words_expression_strengths_and_corner_payments() {
    let said = [
        (
            "variants/house/mayor-at-most-2.toml",
            "strength on its feature: if its pennants are more than 2: 2, otherwise 1 per pennant",
        ),
        (
            "variants/house/barn-field-size.toml",
            "and its owner 4 per completed city it borders plus 1 per tile at the end (AM-9)",
        ),
    ];
    for (variant, words) in said {
        let text = output(&["variant", "explain", variant], 0);
        assert!(text.contains(words), "{variant}: {text}");
    }
}

/// `tegula validate` refuses a strength expression reading a count that one of the figure's
/// sites does not have, at the count inside the string, with exit 1.
#[test]
fn validate_locates_a_strength_count_off_a_site() {
    let f = "tests/fixtures/invalid/bad-figure-strength-count-off-site.toml";
    let text = output(&["validate", f], 1);
    assert!(
        text.contains("strength on a road: `pennants` counts only on cities"),
        "{text}"
    );
    assert!(text.contains(&format!("{f}:9:73")), "{text}");
}
