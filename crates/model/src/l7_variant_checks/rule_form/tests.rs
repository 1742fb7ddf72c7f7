//! Tests of the rule form's lowering: one TOML snippet per check, lowered against a fixed scope
//! (tags `garden`, `gold`, `siege`; resources `ingots`, `tower`; figures `meeple`, `abbot`;
//! tile `T1`).

use tegula_ruleset::{Act, Expr, Options, Quantity, RuleEvent, Seat, TileRef, CHOSEN};

use super::{lower, Lowered, RawRuleForm, Scope};
use crate::diag::{Code, Diagnostic, Source};

const DECLARED: &str = r#"
[[token]]
id = "king"
name = "King"

[[counter]]
id = "gold"
name = "gold"

[[counter]]
id = "tower"
name = "tower"
"#;

fn run(text: &str) -> (Lowered, Vec<Diagnostic>) {
    run_with_stacks(text, &[])
}

/// [`run`] in a variant declaring the stack types `stacks`.
fn run_with_stacks(text: &str, stacks: &[String]) -> (Lowered, Vec<Diagnostic>) {
    let text = format!("{DECLARED}\n{text}");
    let form = RawRuleForm::parse(&text).expect("TOML of the snippet");
    let src = Source::new("t.toml", text);
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (tags, resources, followers) = (
        s(&["garden", "gold", "siege"]),
        s(&["ingots", "tower"]),
        s(&["meeple", "abbot"]),
    );
    let tiles = s(&["T1"]);
    let rules = crate::rules::Scope::default();
    let scope = Scope {
        tags: &tags,
        resources: &resources,
        followers: &followers,
        tiles: &tiles,
        stacks,
        rules: &rules,
        tracks: &[],
        pool: true,
    };
    let mut diags = Vec::new();
    let lowered = lower(&[(&src, &form)], &scope, &mut diags);
    (lowered, diags)
}

/// The one diagnostic of a snippet: its code, line (of the snippet, 1-based) and message.
fn one(text: &str) -> (Code, usize, String) {
    let (lowered, diags) = run(text);
    assert!(lowered.when.is_empty(), "a bad rule is left out");
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    let offset = DECLARED.lines().count() + 1;
    (d.code, d.at.line - offset, d.message.clone())
}

#[test]
fn a_rule_lowers_with_its_names() {
    let (l, diags) = run(r#"
[[when]]
rule = "B-4"
event = "tile-placed"
tag = "gold"
then = [{ counters = "gold", add = 1 }, { score = "held(tower) + record(king)", to = "holder(king)" }]
"#);
    assert!(diags.is_empty(), "{diags:?}");
    let w = &l.when[0];
    assert_eq!(w.event, RuleEvent::TilePlaced { tag: Some(1) });
    assert_eq!(
        w.then[0],
        Act::Counters {
            counter: 0,
            add: Expr::Int(1),
            on: TileRef::Subject
        }
    );
    let Act::Score { value, to } = &w.then[1] else {
        panic!("{:?}", w.then[1])
    };
    assert_eq!(*to, Seat::Holder(0));
    assert_eq!(
        *value,
        Expr::Add(
            Box::new(Expr::Count(Quantity::Held(1))),
            Box::new(Expr::Count(Quantity::Record(0)))
        )
    );
    assert_eq!(l.tokens[0].id, "king");
    assert_eq!(l.counters.len(), 2);
    assert_eq!(l.when_at[0].1, DECLARED.lines().count() + 4);
}

#[test]
fn a_kind_offer_acts_on_the_chosen_kind() {
    let (l, diags) = run(r#"
[[when]]
rule = "B-4"
event = "figure-step"
[when.offer]
to = "actor"
options = { kind = ["tower"] }
may_decline = true
then = [{ spend = "chosen", amount = 1, to = "chooser" }, { counters = "chosen", add = 1 }]
"#);
    assert!(diags.is_empty(), "{diags:?}");
    let o = l.when[0].offer.as_ref().expect("offer");
    assert!(
        matches!(&o.options, Options::Kind { of } if of[0].resource == 1 && of[0].counter == 1)
    );
    assert!(matches!(
        o.then[0],
        Act::Gain {
            resource: CHOSEN,
            spend: true,
            ..
        }
    ));
    assert!(matches!(
        o.then[1],
        Act::Counters {
            counter: CHOSEN,
            ..
        }
    ));
}

#[test]
fn seats_are_refused_where_the_event_gives_them_no_meaning() {
    let rule = |event: &str, to: &str| {
        format!("[[when]]\nrule = \"B-4\"\nevent = \"{event}\"\nthen = [{{ score = \"1\", to = \"{to}\" }}]\n")
    };
    let (code, line, msg) = one(&rule("turn-start", "winners"));
    assert_eq!((code, line), (Code::BadWhen, 4));
    assert!(msg.contains("`turn-start`"), "{msg}");
    let (_, _, msg) = one(&rule("game-end", "placer"));
    assert!(
        msg.contains("`placer` is a seat of the subject tile"),
        "{msg}"
    );
    let (_, _, msg) = one(&rule("feature-scored", "chooser"));
    assert!(msg.contains("only in the `then` of an offer"), "{msg}");
    let (_, _, msg) = one(&rule("feature-scored", "winers"));
    assert!(msg.contains("did you mean `winners`?"), "{msg}");
    let (code, _, msg) = one(&rule("game-end", "holder(queen)"));
    assert_eq!(code, Code::DanglingReference);
    assert!(msg.contains("the variant's tokens: king"), "{msg}");
}

#[test]
fn effects_need_their_keys_and_only_them() {
    let effect =
        |e: &str| format!("[[when]]\nrule = \"B-4\"\nevent = \"feature-scored\"\nthen = [{e}]\n");
    let cases = [
        ("{ to = \"actor\" }", "an effect needs one of"),
        ("{ score = \"1\" }", "`score` needs `to`"),
        (
            "{ score = \"1\", to = \"actor\", amount = 2 }",
            "`amount` does not go with `score`",
        ),
        (
            "{ gain = \"ingot\", amount = 1, to = \"actor\" }",
            "did you mean `ingots`?",
        ),
        (
            "{ gain = \"chosen\", amount = 1, to = \"actor\" }",
            "offer with `kind` options",
        ),
        (
            "{ counters = \"gold\", add = 1, on = \"chosen\" }",
            "`neighbour-tile` options",
        ),
        ("{ extra_turn = false }", "does nothing"),
        (
            "{ take = \"gold\", into = \"tower\", to = \"winners\", record = 1 }",
            "`record` does not go with `take`",
        ),
        (
            "{ score = \"pennants +\", to = \"actor\" }",
            "expected a number",
        ),
    ];
    for (e, want) in cases {
        let (code, line, msg) = one(&effect(e));
        assert!(
            matches!(code, Code::BadWhen | Code::DanglingReference) && line == 4,
            "{e}: {code:?} line {line}"
        );
        assert!(msg.contains(want), "{e}: {msg}");
    }
}

#[test]
fn events_take_only_their_keys_and_subjects() {
    let (_, line, msg) = one("[[when]]\nrule = \"B-4\"\nevent = \"turn-end\"\nfigure = \"abbot\"\nthen = [{ extra_turn = true }]\n");
    assert_eq!(line, 4);
    assert!(
        msg.contains("`figure` goes only with event = `figure-placed`"),
        "{msg}"
    );
    let (_, _, msg) = one("[[when]]\nrule = \"B-4\"\nevent = \"feature-completed\"\nkinds = [\"field\"]\nthen = [{ extra_turn = true }]\n");
    assert!(msg.contains("a field is never completed"), "{msg}");
    let (_, _, msg) = one("[[when]]\nrule = \"B-4\"\nevent = \"turn-end\"\nif = \"count(siege) > 0\"\nthen = [{ extra_turn = true }]\n");
    assert!(
        msg.contains("`count(siege)` counts the event's subject"),
        "{msg}"
    );
    let (_, _, msg) = one("[[when]]\nrule = \"B-4\"\nevent = \"turn-end\"\n");
    assert!(msg.contains("does nothing"), "{msg}");
    let (code, _, msg) = one("[[when]]\nrule = \"B-4\"\nevent = \"tile-placed\"\ntag = \"glod\"\nthen = [{ extra_turn = true }]\n");
    assert_eq!(code, Code::DanglingReference);
    assert!(msg.contains("did you mean `gold`?"), "{msg}");
}

#[test]
fn an_offer_of_the_chosen_figure_reads_its_feature_on_any_event() {
    // CA-3's shape: at the end of a turn, a figure of theirs on a besieged city may escape.
    let (l, diags) = run(r#"
[[when]]
rule = "B-4"
event = "turn-end"
[when.offer]
to = "actor"
options = { own-figure = { on = ["city"], if = "count(siege) > 0 and touching(cloister) > 0" } }
may_decline = true
then = [{ score = "tiles", to = "chooser" }, { return = "chosen" }]
"#);
    assert!(diags.is_empty(), "{diags:?}");
    let o = l.when[0].offer.as_ref().expect("offer");
    assert!(o.may_decline && !o.uses_figure_step);
    assert_eq!(o.then[1], Act::ReturnChosen);
}

#[test]
fn offers_are_checked() {
    let (_, _, msg) = one(r#"
[[when]]
rule = "B-4"
event = "turn-end"
[when.offer]
to = "actor"
options = { neighbour-tile = {} }
then = [{ counters = "gold", add = 1, on = "chosen" }]
"#);
    assert!(
        msg.contains("a `turn-end` rule has no subject tile"),
        "{msg}"
    );
    let (_, _, msg) = one(r#"
[[when]]
rule = "B-4"
event = "figure-step"
[when.offer]
to = "actor"
options = { kind = ["gold"] }
then = [{ counters = "chosen", add = 1 }]
"#);
    assert!(msg.contains("it is a counter but no resource"), "{msg}");
    let (_, _, msg) = one(r#"
[[when]]
rule = "B-4"
event = "figure-step"
[when.offer]
to = "chooser"
options = { own-figure = { figure = "abbot" } }
then = [{ return = "chosen" }]
"#);
    assert!(msg.contains("`chooser` is the seat that made"), "{msg}");
}

#[test]
fn tokens_and_counters_are_declared_once() {
    let (l, diags) = run("[[token]]\nid = \"king\"\nname = \"again\"\n");
    assert_eq!(l.tokens.len(), 1);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, Code::DuplicateId);
    assert!(
        diags[0].message.contains("first in t.toml line 3"),
        "{}",
        diags[0].message
    );
}

#[test]
fn nothing_is_offered_or_granted_once_the_game_is_over() {
    let (_, line, msg) =
        one("[[when]]\nrule = \"B-4\"\nevent = \"game-end\"\nthen = [{ extra_turn = true }]\n");
    assert_eq!(line, 4);
    assert!(msg.contains("an extra turn would never be taken"), "{msg}");
    let (_, _, msg) = one(r#"
[[when]]
rule = "B-4"
event = "feature-scored"
at = "end"
[when.offer]
to = "actor"
options = { own-figure = {} }
then = [{ return = "chosen" }]
"#);
    assert!(msg.contains("its offer would never be made"), "{msg}");
    assert!(msg.contains("`feature-scored` `at = \"end\"`"), "{msg}");
}

/// `tile` makes a rule one the tile carries, with an owner at every event; a `draw` rule with
/// `hand` takes `hand` effects only, and `hand` goes only with `draw`.
#[test]
fn a_rule_a_tile_carries_and_the_draw() {
    let (l, diags) = run(r#"
[[when]]
rule = "B-4"
tile = "T1"
event = "game-end"
then = [{ score = "2 * lines(7)", to = "owner" }]

[[when]]
rule = "B-4"
tile = "T1"
event = "draw"
then = [{ hand = 2, to = "owner" }]
"#);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(l.when[0].tile, Some(0));
    assert_eq!(
        l.when[1].then[0],
        Act::Hand {
            size: 2,
            to: Seat::Owner
        }
    );
    let rule = |lines: &str| format!("[[when]]\nrule = \"B-4\"\n{lines}");
    // Without `tile`, a game-end rule has no owner.
    let (code, _, msg) = one(&rule(
        "event = \"game-end\"\nthen = [{ score = 1, to = \"owner\" }]\n",
    ));
    assert_eq!(code, Code::BadWhen);
    assert!(msg.contains("has none"), "{msg}");
    let (code, _, msg) = one(&rule(
        "tile = \"T2\"\nevent = \"game-end\"\nthen = [{ score = 1, to = \"actor\" }]\n",
    ));
    assert_eq!(code, Code::DanglingReference);
    assert!(msg.contains("T1"), "{msg}");
    let (_, _, msg) = one(&rule(
        "event = \"turn-end\"\nthen = [{ hand = 2, to = \"actor\" }]\n",
    ));
    assert!(msg.contains("only with event = \"draw\""), "{msg}");
    let (_, _, msg) = one(&rule(
        "event = \"draw\"\nthen = [{ hand = 2, to = \"actor\" }, { score = 1, to = \"actor\" }]\n",
    ));
    assert!(msg.contains("`hand` only"), "{msg}");
}

#[test]
fn pool_tile_offers_and_their_words_go_together() {
    // W-2's rule, written out: it lowers with its track, seat test, effects and order.
    let (l, diags) = run(r#"
[[track]]
id = "pairs"
name = "pairs"
start = 10
max = 25

[[when]]
rule = "W-2"
event = "turn-finished"
offer = { to = "where(taken == 0 and score >= track_was(pairs))", options = { pool-tile = true }, repeat = true, order = "actor-chooses", then = [{ supply = "meeple", add = 2, to = "chooser" }, { advance = "pairs", by = 5 }] }
"#);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(l.tracks.len(), 1);
    assert_eq!((l.tracks[0].start, l.tracks[0].max), (10, 25));
    let o = l.when[0].offer.as_ref().unwrap();
    assert_eq!(o.options, Options::PoolTile);
    assert!(o.repeat);
    assert!(matches!(&o.to, Seat::Where(_)));
    assert!(matches!(o.then[1], Act::Advance { track: 0, .. }));
    let offer = |event: &str, options: &str, more: &str| {
        format!(
            "[[when]]\nrule = \"W-2\"\nevent = \"{event}\"\noffer = {{ to = \"actor\", options = \
             {options}{more}, then = [{{ score = 1, to = \"chooser\" }}] }}\n"
        )
    };
    let cases = [
        (
            offer("turn-end", "{ pool-tile = true }", ""),
            "pool tiles are offered when the turn is finished",
        ),
        (
            offer("turn-finished", "{ neighbour-tile = {} }", ""),
            "a `turn-finished` offer is of pool tiles",
        ),
        (
            offer("turn-end", "{ kind = [\"tower\"] }", ", repeat = true"),
            "`repeat` goes only with `pool-tile` options",
        ),
        (
            offer(
                "turn-end",
                "{ kind = [\"tower\"] }",
                ", order = \"actor-chooses\"",
            ),
            "`order` goes only with `pool-tile` options",
        ),
    ];
    for (text, want) in cases {
        let (code, _, msg) = one(&text);
        assert_eq!(code, Code::BadWhen, "{text}");
        assert!(msg.contains(want), "{text}: {msg}");
    }
    let (_, _, msg) = one(
        "[[when]]\nrule = \"B-4\"\nevent = \"turn-end\"\nthen = [{ score = 1, to = \"where(score >=)\" }]\n",
    );
    assert!(msg.starts_with("where: "), "{msg}");
    let (code, line, msg) = one("[[track]]\nid = \"t\"\nname = \"t\"\nstart = 9\nmax = 5\n");
    assert_eq!((code, line), (Code::BadWhen, 4));
    assert!(msg.contains("past its end `max = 5`"), "{msg}");
    let (code, _, msg) = one(
        "[[when]]\nrule = \"B-4\"\nevent = \"turn-end\"\nthen = [{ advance = \"none\", by = 1 }]\n",
    );
    assert_eq!(code, Code::DanglingReference, "{msg}");
}

const DRAGON: &str = r##"
[[neutral]]
id = "dragon"
name = "Dragon"
symbol = "D"
colour = "#b71c1c"
"##;

#[test]
fn neutral_figures_walks_and_set_aside_tiles_lower() {
    let (l, diags) = run(&format!(
        r#"{DRAGON}
[[when]]
rule = "B-4"
event = "draw"
tag = "gold"
if = "on_board(dragon) == 0"
then = [{{ set_aside = true }}]

[[when]]
rule = "B-4"
event = "before-scoring"
then = [{{ walk = "dragon", steps = 6, avoid = ["visited", "neutral(dragon)", "tag(siege)"], on_enter = [{{ return_on = "entered", figures = ["meeple"] }}] }}]
"#
    ));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(l.neutrals[0].id, "dragon");
    assert_eq!(l.when[0].event, RuleEvent::Draw { tag: Some(1) });
    assert_eq!(l.when[0].then, vec![Act::SetAside]);
    let Act::Walk(w) = &l.when[1].then[0] else {
        panic!("{:?}", l.when[1].then);
    };
    use tegula_ruleset::{Avoid, FigureSet};
    assert_eq!(w.avoid, [Avoid::Visited, Avoid::Neutral(0), Avoid::Tag(2)]);
    assert_eq!(
        w.on_enter,
        [Act::ReturnOn {
            on: TileRef::Entered,
            figures: FigureSet(1),
            rule: None,
            tops: false,
        }]
    );
}

#[test]
fn neutral_effects_are_refused_where_they_mean_nothing() {
    let rule = |event: &str, then: &str| {
        format!("{DRAGON}\n[[when]]\nrule = \"B-4\"\nevent = \"{event}\"\nthen = [{then}]\n")
    };
    let (code, _, msg) = one(&rule("tile-placed", r#"{ put = "drake" }"#));
    assert_eq!(code, Code::DanglingReference);
    assert!(msg.contains("dragon"), "{msg}");
    let (_, _, msg) = one(&rule("tile-placed", "{ set_aside = true }"));
    assert!(msg.contains("only in a `draw` rule"), "{msg}");
    let (_, _, msg) = one(&rule(
        "tile-placed",
        r#"{ return_on = "entered", figures = ["meeple"] }"#,
    ));
    assert!(msg.contains("a walk's `on_enter`"), "{msg}");
    let (_, _, msg) = one(&rule("draw", r#"{ put = "dragon", on = "subject" }"#));
    assert!(msg.contains("a `draw` rule has none"), "{msg}");
    let (code, _, msg) = one(&rule(
        "turn-end",
        r#"{ walk = "dragon", steps = 6, avoid = ["visitd"] }"#,
    ));
    assert_eq!(code, Code::BadWhen);
    assert!(msg.contains("`visitd` is no cell to avoid"), "{msg}");
    let (code, _, _) = one(&rule(
        "tile-placed",
        r#"{ return_on = "subject", figures = "eaten" }"#,
    ));
    assert_eq!(code, Code::DanglingReference);
}

#[test]
fn turn_start_parts_lower_to_once_per_turn_or_each_part() {
    let rule = |parts: &str| {
        format!("[[when]]\nrule = \"B-4\"\nevent = \"turn-start\"\n{parts}then = [{{ score = \"1\", to = \"actor\" }}]\n")
    };
    for (parts, event) in [
        ("", RuleEvent::TurnStart),
        ("parts = \"first\"\n", RuleEvent::TurnStart),
        ("parts = \"each\"\n", RuleEvent::TurnStartEach),
    ] {
        let (lowered, diags) = run(&rule(parts));
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(lowered.when[0].event, event, "{parts}");
    }
    let text = "[[when]]\nrule = \"B-4\"\nevent = \"turn-end\"\nparts = \"each\"\nthen = [{ score = \"1\", to = \"actor\" }]\n";
    let (code, line, msg) = one(text);
    assert_eq!((code, line), (Code::BadWhen, 4));
    assert!(
        msg.contains("`parts` goes only with event = `turn-start`"),
        "{msg}"
    );
}

#[test]
fn a_neutral_figure_goes_onto_the_chosen_figure_s_tile_and_is_counted_there() {
    let (l, diags) = run(&format!(
        r#"{DRAGON}
[[when]]
rule = "B-4"
event = "figure-step"
offer = {{ to = "actor", options = {{ own-figure = {{ figures = ["meeple"] }} }}, may_decline = true, uses_figure_step = true, then = [{{ put = "dragon", on = "chosen" }}] }}

[[when]]
rule = "B-4"
event = "turn-start"
if = "on_tile_of(dragon) > 0"
then = [{{ score = 1, to = "actor" }}]
"#
    ));
    assert!(diags.is_empty(), "{diags:?}");
    let offer = l.when[0].offer.as_ref().expect("an offer");
    assert_eq!(
        offer.then,
        [Act::Put {
            neutral: 0,
            on: TileRef::Chosen
        }]
    );
    let text = format!("{:?}", l.when[1].test);
    assert!(text.contains("OnTileOf(0)"), "{text}");
}

#[test]
fn owners_on_a_neutral_figure_s_tile_is_a_seat_of_feature_events_only() {
    let rule = |event: &str, to: &str| {
        format!(
            "{DRAGON}\n[[when]]\nrule = \"B-4\"\nevent = \"{event}\"\nthen = [{{ score = 3, to = \"{to}\" }}]\n"
        )
    };
    let (l, diags) = run(&rule("feature-scored", "owners-on(dragon)"));
    assert!(diags.is_empty(), "{diags:?}");
    let Act::Score { to, .. } = &l.when[0].then[0] else {
        panic!("{:?}", l.when[0].then)
    };
    assert_eq!(*to, Seat::OwnersOn(0));
    let (code, _, msg) = one(&rule("turn-start", "owners-on(dragon)"));
    assert_eq!(code, Code::BadWhen);
    assert!(msg.contains("reads the subject feature's figures"), "{msg}");
    let (code, _, msg) = one(&rule("feature-scored", "owners-on(dragn)"));
    assert_eq!(code, Code::DanglingReference);
    assert!(msg.contains("dragon"), "{msg}");
}

/// TO-6's Reading as data: an `exchange-back` offer in a `chained` rule, to the `chooser` of the
/// capture (or its `chosen-owner`), with `exchange_back = "chosen"`; a walk's `return_on`
/// with `tops` (PD-6's Reading). Each refused where it means nothing.
#[test]
fn exchange_back_offers_and_tops_lower_and_are_refused_elsewhere() {
    let chained = |to: &str, options: &str, then: &str| {
        format!(
            "[[when]]\nrule = \"TO-6\"\nevent = \"chained\"\noffer = {{ to = \"{to}\", \
             options = {{ {options} }}, then = [{then}] }}\n"
        )
    };
    let back = r#"{ exchange_back = "chosen" }"#;
    for to in ["chooser", "chosen-owner"] {
        let (l, diags) = run(&chained(to, "exchange-back = true", back));
        assert!(diags.is_empty(), "{diags:?}");
        let offer = l.when[0].offer.as_ref().unwrap();
        assert_eq!(offer.options, Options::ExchangeBack);
        assert_eq!(offer.then, [Act::ExchangeBack]);
    }
    // The options only in a `chained` rule; the effect only after them; the seat only there.
    let turn_end = "[[when]]\nrule = \"TO-6\"\nevent = \"turn-end\"\noffer = { to = \"actor\", \
                    options = { exchange-back = true }, then = [{ exchange_back = \"chosen\" }] }\n";
    let (code, _, msg) = one(turn_end);
    assert_eq!(code, Code::BadWhen);
    assert!(msg.contains("`exchange-back = true`"), "{msg}");
    let (code, _, msg) = one(&chained("actor", "own-captive = {}", back));
    assert_eq!(code, Code::BadWhen);
    assert!(msg.contains("`exchange-back` options"), "{msg}");
    let owner =
        "[[when]]\nrule = \"TO-6\"\nevent = \"turn-end\"\noffer = { to = \"chosen-owner\", \
                 options = { own-captive = {} }, then = [{ redeem = 3 }] }\n";
    let (code, _, msg) = one(owner);
    assert_eq!(code, Code::BadWhen);
    assert!(msg.contains("only in a `chained` rule"), "{msg}");
    // `tops` goes with `return_on` only.
    let (l, diags) = run(&format!(
        "{DRAGON}\n[[when]]\nrule = \"B-4\"\nevent = \"before-scoring\"\nthen = [{{ walk = \
         \"dragon\", steps = 6, on_enter = [{{ return_on = \"entered\", figures = [\"meeple\"], \
         tops = true }}] }}]\n"
    ));
    assert!(diags.is_empty(), "{diags:?}");
    let Act::Walk(w) = &l.when[0].then[0] else {
        panic!("{:?}", l.when[0].then);
    };
    assert!(matches!(w.on_enter[0], Act::ReturnOn { tops: true, .. }));
    let (_, _, msg) = one("[[when]]\nrule = \"B-4\"\nevent = \"turn-end\"\nthen = [{ score = 1, to = \"actor\", tops = true }]\n");
    assert!(msg.contains("`tops` does not go with `score`"), "{msg}");
}

/// `own-figure`'s `tops` (PD-7's Reading: the fairy may join a follower on a tower) lowers to
/// `tops: true`; it is refused beside `on` or `if` and in a variant without stacks.
#[test]
fn own_figure_tops_lowers_and_is_refused_without_stacks_or_beside_a_feature() {
    let pd7 = |options: &str| {
        format!(
            "[[when]]\nrule = \"PD-7\"\nevent = \"figure-step\"\noffer = {{ to = \"actor\", \
             options = {{ own-figure = {{ {options} }} }}, may_decline = true, then = [{{ score \
             = 1, to = \"chooser\" }}] }}\n"
        )
    };
    let stacks = ["tower".to_string()];
    let (l, diags) = run_with_stacks(&pd7("tops = true"), &stacks);
    assert!(diags.is_empty(), "{diags:?}");
    let offer = l.when[0].offer.as_ref().unwrap();
    assert!(matches!(
        offer.options,
        Options::OwnFigure { tops: true, .. }
    ));
    let (l, _) = run_with_stacks(&pd7("tops = false"), &stacks);
    let offer = l.when[0].offer.as_ref().unwrap();
    assert!(matches!(
        offer.options,
        Options::OwnFigure { tops: false, .. }
    ));
    let (code, line, msg) = one(&pd7("tops = true"));
    assert_eq!((code, line), (Code::BadWhen, 4));
    assert!(msg.contains("no `[[stack]]`"), "{msg}");
    for beside in [
        r#"on = ["road"], tops = true"#,
        r#"if = "tiles > 1", tops = true"#,
    ] {
        let (l, diags) = run_with_stacks(&pd7(beside), &stacks);
        assert!(l.when.is_empty());
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(
            diags[0].message.contains("does not go with `on` or `if`"),
            "{diags:?}"
        );
    }
}
