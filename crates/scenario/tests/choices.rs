//! Scenario steps that answer offered choices (`choices`), and the expected events of the one
//! rule form (`points`, `token`, `counters`, `collect`, a spent gain), on rulesets built in Rust
//! (the testkit's base game plus one rule with an offer), so that the runner is tested apart
//! from the TOML compiler.

use std::path::Path;
use std::sync::Arc;

use tegula_engine::testkit::{base_ruleset, offers};
use tegula_ruleset::{
    Act, CounterType, Expr, FeatureKind, Quantity, Resource, Rule, RuleEvent, Ruleset, Seat,
    TileRef, When,
};
use tegula_scenario::{load, run, Outcome, VariantCache};

fn declared(id: &str) -> Rule {
    Rule {
        id: id.into(),
        title: id.into(),
        statement: "a rule of this test".into(),
        source: "this test".into(),
    }
}

/// The base game with `rule` (its id declared as the variant's own).
fn with_rule(rule: When) -> Ruleset {
    let mut rs = base_ruleset();
    rs.rules.push(declared(&rule.rule));
    rs.when.push(rule);
    rs
}

/// Withdraw a figure from a cloister for 1 + its neighbours, instead of a follower.
fn withdraw() -> Ruleset {
    with_rule(offers::withdraw("xa-4"))
}

/// At the end of a turn, take a figure off a city (may decline).
fn escape() -> Ruleset {
    with_rule(offers::escape("xc-3"))
}

/// A counter on the tile placed and on a neighbour the actor picks, and 2 of a resource.
fn neighbour() -> Ruleset {
    let mut rs = base_ruleset();
    let w = offers::neighbour(&mut rs, "xg-2", "nuggets", "ore");
    rs.rules.push(declared(&w.rule));
    rs.when.push(w);
    rs
}

/// Load `text` as a scenario of the variant `rs`: its diagnostics' messages, and the outcome
/// of running it if it loaded.
fn scenario(rs: Ruleset, text: &str) -> (Vec<String>, Option<Outcome>) {
    let dir = Path::new("/nonexistent-tegula-test");
    let mut cache = VariantCache::default();
    cache.insert(&dir.join("v.toml"), Arc::new(rs));
    let head = "#:schema ../schema/scenario.schema.json\nname = \"t\"\nvariant = \"v.toml\"\n";
    let text = format!("{head}players = 2\n{text}");
    let (parsed, mut diags) = load::parse_text(&dir.join("s.toml"), text);
    let Some((source, doc)) = parsed else {
        return (diags.iter().map(|d| d.message.clone()).collect(), None);
    };
    let (sc, more) = load::resolve(source, doc, &mut cache);
    diags.extend(more);
    let messages = diags.iter().map(|d| d.message.clone()).collect();
    (messages, sc.map(|sc| run(&sc)))
}

fn passes(rs: Ruleset, text: &str) {
    let (diags, outcome) = scenario(rs, text);
    assert!(diags.is_empty(), "{diags:?}");
    let outcome = outcome.expect("loaded");
    assert!(outcome.passed(), "{:#?}", outcome.failures);
}

fn fails(rs: Ruleset, text: &str, needle: &str) {
    let (diags, outcome) = scenario(rs, text);
    assert!(diags.is_empty(), "{diags:?}");
    let failures = outcome.expect("loaded").failures;
    let all: Vec<String> = failures.iter().map(|f| f.to_string()).collect();
    assert!(all.iter().any(|f| f.contains(needle)), "{all:#?}");
}

fn refused(rs: Ruleset, text: &str, needle: &str) {
    let (diags, _) = scenario(rs, text);
    assert!(diags.iter().any(|d| d.contains(needle)), "{diags:?}");
}

const MONK: &str = r#"
[[step]]
tile = "B"
at = [0, 1]
follower = { on = "cloister" }

[[step]]
tile = "U"
at = [1, 0]
"#;

#[test]
fn a_figure_step_choice_withdraws_for_points_instead_of_a_follower() {
    let text = format!(
        "{MONK}{}",
        r#"
[[step]]
tile = "U"
at = [-1, 0]
choices = [{ choose = { rule = "xa-4", figure = [0, 1] }, player = 0 }]
expect = [
  { score = "cloister", player = 0, points = 4, rule = "xa-4" },
  { returned = "meeple", player = 0, rule = "xa-4" },
]
scores = [4, 0]
"#
    );
    passes(withdraw(), &text);
    // Naming the cloister's segment too; and a decline (then a follower) is no withdrawal.
    passes(
        withdraw(),
        &text.replace("[0, 1] }", "[0, 1], on = \"cloister\" }"),
    );
    let declined = format!(
        "{MONK}{}",
        r#"
[[step]]
tile = "U"
at = [-1, 0]
choices = [{ decline = "xa-4" }]
follower = { on = "road" }
"#
    );
    passes(withdraw(), &declined);
}

#[test]
fn a_choice_the_engine_does_not_list_fails_naming_the_options() {
    let text = format!(
        "{MONK}{}",
        r#"
[[step]]
tile = "U"
at = [-1, 0]
choices = [{ choose = { rule = "xa-4", figure = [1, 0] } }]
"#
    );
    fails(
        withdraw(),
        &text,
        "the meeple on `cloister` of the tile at (0, 1)",
    );
    // Not offered at all (no figure on a cloister): the answer is left over.
    let early = "[[step]]\ntile = \"U\"\nat = [1, 0]\n\
                 choices = [{ choose = { rule = \"xa-4\", figure = [0, 1] } }]\n";
    fails(withdraw(), early, "did not offer");
}

const KNIGHT: &str = r#"
[[step]]
tile = "E"
at = [0, 1]
rotation = 2
follower = { on = "city" }
"#;

#[test]
fn a_turn_end_offer_is_declined_then_taken() {
    let text = format!(
        "{KNIGHT}choices = [{{ decline = \"xc-3\" }}]\n{}",
        r#"
[[step]]
tile = "U"
at = [1, 0]

[[step]]
tile = "U"
at = [-1, 0]
choices = [{ choose = { rule = "xc-3", figure = [0, 1] } }]
expect = [{ returned = "meeple", player = 0, rule = "xc-3" }]
"#
    );
    passes(escape(), &text);
    // Unanswered: a failure, never a silent decline.
    fails(escape(), KNIGHT, "do not answer");
}

#[test]
fn a_tile_placed_choice_puts_counters_on_the_tile_picked() {
    let text = r#"
[[step]]
tile = "B"
at = [0, 1]
choices = [{ choose = { rule = "xg-2", tile = [0, 0] } }]
expect = [
  { counters = "ore", at = [0, 1], rule = "xg-2" },
  { counters = "ore", at = [0, 0], count = 1, rule = "xg-2" },
  { gained = "nuggets", player = 0, count = 2, rule = "xg-2" },
]
"#;
    passes(neighbour(), text);
    // The counter on the tile picked left out: a failure naming it.
    let missing = text.replace(
        "  { counters = \"ore\", at = [0, 0], count = 1, rule = \"xg-2\" },\n",
        "",
    );
    fails(
        neighbour(),
        &missing,
        "1 ore put on the tile at [0, 0] (xg-2)",
    );
}

#[test]
fn answers_are_checked_against_the_variants_offers_when_loaded() {
    let step =
        |choices: &str| format!("[[step]]\ntile = \"B\"\nat = [0, 1]\nchoices = [{choices}]\n");
    refused(
        neighbour(),
        &step("{ choose = { rule = \"xz-9\", tile = [0, 0] } }"),
        "no rule `xz-9` of the variant offers a choice",
    );
    refused(
        neighbour(),
        &step("{ decline = \"xg-2\" }"),
        "may not be declined",
    );
    refused(
        neighbour(),
        &step("{ choose = { rule = \"xg-2\", figure = [0, 0] } }"),
        "neighbouring tiles",
    );
    refused(
        neighbour(),
        &step("{ choose = { rule = \"xg-2\", tile = [0, 0], kind = \"ore\" } }"),
        "exactly one of",
    );
    let both = "[[step]]\ntile = \"U\"\nat = [1, 0]\nfollower = { on = \"road\" }\n\
                choices = [{ choose = { rule = \"xa-4\", figure = [0, 1] } }]\n";
    refused(withdraw(), both, "cannot also place a follower");
}

/// A token to the placer of a completed city, a point to its holder at each turn's end, a
/// counter on every tile placed, collected by a scored feature's winners.
fn automatic() -> Ruleset {
    let mut rs = base_ruleset();
    let rule = |id: &str, event, then| When {
        rule: String::from(id),
        event,
        test: None,
        then,
        offer: None,
        tile: None,
    };
    let city = vec![FeatureKind::City];
    let token = Act::Token {
        token: 0,
        to: Seat::Placer,
        record: Expr::Count(Quantity::Tiles),
    };
    let point = Act::Score {
        value: Expr::Int(1),
        to: Seat::Holder(0),
    };
    let ore = Act::Counters {
        counter: 0,
        add: Expr::Int(1),
        on: TileRef::Subject,
    };
    let take = Act::Take {
        counter: 0,
        into: 0,
        to: Seat::Winners,
    };
    let scored = RuleEvent::FeatureScored {
        kinds: city.clone(),
        at: tegula_ruleset::ScoredAt::Game,
    };
    rs.when = vec![
        rule("xg-2", RuleEvent::TilePlaced { tag: None }, vec![ore]),
        rule(
            "xk-2",
            RuleEvent::FeatureCompleted { kinds: city },
            vec![token],
        ),
        rule("xg-3", scored, vec![take]),
        rule("xk-4", RuleEvent::TurnEnd, vec![point]),
    ];
    rs.rules = ["xg-2", "xk-2", "xg-3", "xk-4"].map(declared).to_vec();
    rs.tokens.push(tegula_ruleset::TokenType {
        id: "crown".into(),
        name: "crown".into(),
    });
    rs.counters.push(CounterType {
        id: "ore".into(),
        name: "ore".into(),
    });
    rs.resources.push(Resource {
        id: "nuggets".into(),
        name: "nuggets".into(),
        start: Vec::new(),
    });
    rs
}

#[test]
fn the_one_forms_events_are_expected_like_the_others() {
    let text = r#"
[[step]]
tile = "E"
at = [0, -1]
rotation = 2
follower = { on = "city" }
expect = [
  { counters = "ore", at = [0, -1], rule = "xg-2" },
  { token = "crown", player = 0, rule = "xk-2" },
  { score = "city", player = 0, points = 4, rule = "B-4" },
  { collect = "ore", player = 0, count = 1, rule = "xg-3" },
  { returned = "meeple", player = 0 },
  { points = 1, player = 0, rule = "xk-4" },
]
scores = [5, 0]
"#;
    passes(automatic(), text);
    let wrong = text.replace("{ points = 1, player = 0", "{ points = 1, player = 1");
    fails(automatic(), &wrong, "seat 1 scores 1 (xk-4)");
    refused(
        automatic(),
        &text.replace("token = \"crown\"", "token = \"mitre\""),
        "unknown token `mitre`",
    );
}
