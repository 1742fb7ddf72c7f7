//! Scenario steps that answer offered choices (`choices`), and the expected events of the one
//! rule form (`points`, `token`, `counters`, `collect`, a spent gain), on rulesets built in Rust
//! (the testkit's base game plus one rule with an offer), so that the runner is tested apart
//! from the TOML compiler.

use std::path::Path;
use std::sync::Arc;

use tegula_engine::testkit::base_ruleset;
use tegula_ruleset::{
    Act, CounterType, Expr, FeatureKind, Offer, Options, Quantity, Resource, Rule, RuleEvent,
    Ruleset, Seat, TileRef, When,
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

fn with_offer(rule: &str, event: RuleEvent, offer: Offer, then: Vec<Act>) -> Ruleset {
    let mut rs = base_ruleset();
    rs.when.push(When {
        rule: rule.into(),
        event,
        test: None,
        then,
        offer: Some(offer),
    });
    rs.rules.push(declared(rule));
    rs
}

/// Withdraw a figure from a cloister for 1 + its neighbours, instead of a follower.
fn withdraw() -> Ruleset {
    let options = Options::OwnFigure {
        figure: None,
        on: vec![FeatureKind::Cloister],
        test: None,
    };
    let score = Act::Score {
        value: Expr::plus(Expr::Int(1), Expr::Count(Quantity::Neighbours)),
        to: Seat::Chooser,
    };
    let then = vec![score, Act::ReturnChosen];
    let offer = Offer {
        to: Seat::Actor,
        options,
        may_decline: true,
        uses_figure_step: true,
        then,
    };
    with_offer("XA-4", RuleEvent::FigureStep, offer, Vec::new())
}

/// At the end of a turn, take a figure off a city (may decline).
fn escape() -> Ruleset {
    let options = Options::OwnFigure {
        figure: None,
        on: vec![FeatureKind::City],
        test: None,
    };
    let offer = Offer {
        to: Seat::Actor,
        options,
        may_decline: true,
        uses_figure_step: false,
        then: vec![Act::ReturnChosen],
    };
    with_offer("XC-3", RuleEvent::TurnEnd, offer, Vec::new())
}

/// A counter on the tile placed and on a neighbour the actor picks, and 2 of a resource.
fn neighbour() -> Ruleset {
    let counter = |on| Act::Counters {
        counter: 0,
        add: Expr::Int(1),
        on,
    };
    let gain = Act::Gain {
        resource: 0,
        amount: Expr::Int(2),
        to: Seat::Chooser,
        spend: false,
    };
    let offer = Offer {
        to: Seat::Actor,
        options: Options::NeighbourTile { diagonals: true },
        may_decline: false,
        uses_figure_step: false,
        then: vec![counter(TileRef::Chosen), gain],
    };
    let event = RuleEvent::TilePlaced { tag: None };
    let mut rs = with_offer("XG-2", event, offer, vec![counter(TileRef::Subject)]);
    rs.resources.push(Resource {
        id: "nuggets".into(),
        name: "nuggets".into(),
        gain: None,
        award: None,
        start: Vec::new(),
    });
    rs.counters.push(CounterType {
        id: "ore".into(),
        name: "ore".into(),
    });
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
choices = [{ choose = { rule = "XA-4", figure = [0, 1] }, player = 0 }]
expect = [
  { score = "cloister", player = 0, points = 4, rule = "XA-4" },
  { returned = "meeple", player = 0, rule = "XA-4" },
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
choices = [{ decline = "XA-4" }]
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
choices = [{ choose = { rule = "XA-4", figure = [1, 0] } }]
"#
    );
    fails(withdraw(), &text, "meeple at [0, 1] on `cloister`");
    // Not offered at all (no figure on a cloister): the answer is left over.
    let early = "[[step]]\ntile = \"U\"\nat = [1, 0]\n\
                 choices = [{ choose = { rule = \"XA-4\", figure = [0, 1] } }]\n";
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
        "{KNIGHT}choices = [{{ decline = \"XC-3\" }}]\n{}",
        r#"
[[step]]
tile = "U"
at = [1, 0]

[[step]]
tile = "U"
at = [-1, 0]
choices = [{ choose = { rule = "XC-3", figure = [0, 1] } }]
expect = [{ returned = "meeple", player = 0, rule = "XC-3" }]
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
choices = [{ choose = { rule = "XG-2", tile = [0, 0] } }]
expect = [
  { counters = "ore", at = [0, 1], rule = "XG-2" },
  { counters = "ore", at = [0, 0], added = 1, rule = "XG-2" },
  { gained = "nuggets", player = 0, count = 2, rule = "XG-2" },
]
"#;
    passes(neighbour(), text);
    // The counter on the tile picked left out: a failure naming it.
    let missing = text.replace(
        "  { counters = \"ore\", at = [0, 0], added = 1, rule = \"XG-2\" },\n",
        "",
    );
    fails(
        neighbour(),
        &missing,
        "1 ore put on the tile at [0, 0] (XG-2)",
    );
}

#[test]
fn answers_are_checked_against_the_variants_offers_when_loaded() {
    let step =
        |choices: &str| format!("[[step]]\ntile = \"B\"\nat = [0, 1]\nchoices = [{choices}]\n");
    refused(
        neighbour(),
        &step("{ choose = { rule = \"XZ-9\", tile = [0, 0] } }"),
        "no rule `XZ-9` of the variant offers a choice",
    );
    refused(
        neighbour(),
        &step("{ decline = \"XG-2\" }"),
        "may not be declined",
    );
    refused(
        neighbour(),
        &step("{ choose = { rule = \"XG-2\", figure = [0, 0] } }"),
        "neighbouring tiles",
    );
    refused(
        neighbour(),
        &step("{ choose = { rule = \"XG-2\", tile = [0, 0], kind = \"ore\" } }"),
        "exactly one of",
    );
    let both = "[[step]]\ntile = \"U\"\nat = [1, 0]\nfollower = { on = \"road\" }\n\
                choices = [{ choose = { rule = \"XA-4\", figure = [0, 1] } }]\n";
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
        rule("XG-2", RuleEvent::TilePlaced { tag: None }, vec![ore]),
        rule(
            "XK-2",
            RuleEvent::FeatureCompleted { kinds: city },
            vec![token],
        ),
        rule("XG-3", scored, vec![take]),
        rule("XK-4", RuleEvent::TurnEnd, vec![point]),
    ];
    rs.rules = ["XG-2", "XK-2", "XG-3", "XK-4"].map(declared).to_vec();
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
        gain: None,
        award: None,
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
  { counters = "ore", at = [0, -1], rule = "XG-2" },
  { token = "crown", player = 0, rule = "XK-2" },
  { score = "city", player = 0, points = 4, rule = "B-4" },
  { collect = "ore", player = 0, amount = 1, rule = "XG-3" },
  { returned = "meeple", player = 0 },
  { points = 1, player = 0, rule = "XK-4" },
]
scores = [5, 0]
"#;
    passes(automatic(), text);
    let wrong = text.replace("{ points = 1, player = 0", "{ points = 1, player = 1");
    fails(automatic(), &wrong, "seat 1 scores 1 (XK-4)");
    refused(
        automatic(),
        &text.replace("token = \"crown\"", "token = \"mitre\""),
        "unknown token `mitre`",
    );
}
