//! `[[ability]]` is sugar for the one rule form (issue 30, item 1): each ability is lowered to
//! a rule its tile carries. Here every shipped ability (the eight wonders, W-10..W-17, and the
//! fan-made Guilds, GU-1..GU-3 and GU-5) is written again by hand as a `[[when]]` with
//! `tile = …`, the lowered rules are taken out, and random games of the two rulesets are played
//! decision for decision: the same events, scores and ability points — the lowering and the
//! hand-written rules are one rule.

use std::path::Path;
use std::sync::Arc;

use tegula_engine::{Game, Phase, PileOrder, Rules};
use tegula_model::rule_form::{lower, RawRuleForm, Scope};
use tegula_model::variant::build_variant;
use tegula_ruleset::Ruleset;

mod common;
use common::show_diags;

/// The wonders' abilities as `[[when]]`s, written from the rule texts (`tegula rules W-10` ..
/// `W-17`): a table by players or tiles in the game is an `if`.
const WONDERS: &str = r#"
[[when]]
rule = "W-10"
tile = "notre-dame"
event = "figure-placed"
if = "owner_figure > 0 and not placed_this_turn > 0 and near(religious) > 0"
then = [{ score = 3, to = "owner" }]

[[when]]
rule = "W-11"
tile = "stonehenge"
event = "feature-completed"
kinds = ["road"]
if = "owner_acts > 0 and not placed_this_turn > 0 and occupants > 0"
then = [{ score = 3, to = "owner" }]

[[when]]
rule = "W-12"
tile = "abu-simbel"
event = "draw"
then = [{ hand = 2, to = "owner" }]

[[when]]
rule = "W-13"
tile = "tikal"
event = "feature-scored"
kinds = ["city"]
at = "game"
if = "tiles >= 3 and owner_figures > 0"
then = [{ score = "2 * figures(own, city, any)", to = "owner" }]

[[when]]
rule = "W-14"
tile = "circus-maximus"
event = "game-end"
then = [{ score = "(if players >= 5 then 2 else if players >= 3 then 3 else 4) * figures(others, city, incomplete)", to = "owner" }]

[[when]]
rule = "W-15"
tile = "alhambra"
event = "game-end"
then = [{ score = "(if game_tiles >= 120 then 6 else 5) * figures(own, field, any)", to = "owner" }]

[[when]]
rule = "W-16"
tile = "angkor-wat"
event = "game-end"
then = [{ score = "5 * features(road, 5, any)", to = "owner" }]

[[when]]
rule = "W-17"
tile = "terracotta-army"
event = "game-end"
then = [{ score = "2 * lines(7)", to = "owner" }]
"#;

/// The Guilds' abilities (tiles/fan-made/guilds/guilds.toml) as `[[when]]`s.
const GUILDS: &str = r#"
[[when]]
rule = "GU-1"
tile = "guildhall"
event = "feature-completed"
kinds = ["city"]
then = [{ gain = "coin", amount = "count(market)", to = "owner" }]

[[when]]
rule = "GU-2"
tile = "waystation"
event = "feature-completed"
kinds = ["road"]
if = "owner_acts > 0"
then = [{ extra_turn = true }]

[[when]]
rule = "GU-3"
tile = "exchange"
event = "game-end"
then = [{ score = "3 * features(city, 1, complete, market)", to = "owner" }]

[[when]]
rule = "GU-5"
tile = "toll-house"
event = "feature-completed"
kinds = ["road"]
if = "owner_figures > 0"
then = [{ score = "tiles", to = "owner" }]
"#;

fn build(path: &str) -> Ruleset {
    let (rs, diags) = build_variant(Path::new(path));
    assert!(diags.is_empty(), "{path}:\n{}", show_diags(&diags));
    rs.unwrap()
}

/// `rs` with every tile's abilities and lowered rules taken out and the rules of `text` (a
/// `[[when]]` list naming `rs`'s tiles, tags, resources and figures) added instead.
fn by_hand(rs: &Ruleset, text: &str) -> Ruleset {
    let ids = |v: Vec<&String>| v.into_iter().cloned().collect::<Vec<String>>();
    let resources = ids(rs.resources.iter().map(|r| &r.id).collect());
    let followers = ids(rs.followers.iter().map(|f| &f.id).collect());
    let tiles = ids(rs.tiles.iter().map(|t| &t.id).collect());
    let rules = tegula_model::rules::Scope::with(rs.rules.clone());
    let scope = Scope {
        tags: &rs.tags,
        resources: &resources,
        followers: &followers,
        tiles: &tiles,
        tracks: &[],
        stacks: &[],
        pool: false,
        rules: &rules,
    };
    let form = RawRuleForm::parse(text).expect("TOML");
    let src = tegula_model::Source::new("by-hand.toml", text.to_string());
    let mut diags = Vec::new();
    let lowered = lower(&[(&src, &form)], &scope, &mut diags);
    assert!(diags.is_empty(), "{}", show_diags(&diags));
    let mut out = rs.clone();
    let carriers: Vec<u16> = rs.when.iter().filter_map(|w| w.tile).collect();
    assert!(!carriers.is_empty(), "{}: no ability was lowered", rs.id);
    for t in carriers {
        out.without_tile_rules(t);
    }
    assert_eq!(
        lowered.when.len(),
        rs.when.len() - out.when.len(),
        "one rule per ability"
    );
    out.when.extend(lowered.when);
    out
}

/// Play one legal action picked by a xorshift step of `rng`.
fn step(g: &mut Game, rng: &mut u64) {
    let actions = g.legal_actions();
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    g.apply(actions[(*rng % actions.len() as u64) as usize])
        .unwrap();
}

/// Random games of `a` and `b` (seeds, 2 to 4 seats), decision for decision: the same events,
/// scores and ability points.
fn same_games(a: &Ruleset, b: &Ruleset, games: u64) -> u32 {
    let (ra, rb) = (
        Arc::new(Rules::new(a.clone()).expect("lowered")),
        Arc::new(Rules::new(b.clone()).expect("by hand")),
    );
    let mut points = 0;
    for seed in 0..games {
        let players = 2 + (seed % 3) as u8;
        let mut ga = Game::new(ra.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
        let mut gb = Game::new(rb.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
        let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        while ga.phase() != Phase::Over {
            assert_eq!(ga.legal_actions(), gb.legal_actions(), "seed {seed}");
            let mut r2 = rng;
            step(&mut ga, &mut rng);
            step(&mut gb, &mut r2);
        }
        assert_eq!(gb.phase(), Phase::Over, "seed {seed}");
        let log = |g: &Game| serde_json::to_string(g.events()).unwrap();
        assert_eq!(log(&ga), log(&gb), "seed {seed}");
        assert_eq!(ga.scores(), gb.scores(), "seed {seed}");
        assert_eq!(ga.ability_points(), gb.ability_points(), "seed {seed}");
        points += ga.ability_points().iter().map(|p| p.2).sum::<u32>();
    }
    points
}

#[test]
fn the_wonders_abilities_and_their_rules_by_hand_play_the_same_games() {
    for v in ["variants/wonders.toml", "variants/wonders-meadows.toml"] {
        let rs = build(v);
        let points = same_games(&rs, &by_hand(&rs, WONDERS), 24);
        assert!(points > 0, "{v}: the abilities scored in these games");
    }
}

#[test]
fn the_guilds_abilities_and_their_rules_by_hand_play_the_same_games() {
    let rs = build("variants/house/guilds.toml");
    let points = same_games(&rs, &by_hand(&rs, GUILDS), 24);
    assert!(points > 0, "the abilities scored in these games");
}

/// An artefact whose tile still has an ability but not its lowered rule (compiled before the
/// lowering) is refused: the engine would not play it.
#[test]
fn an_ability_without_its_lowered_rule_is_refused() {
    let mut rs = build("variants/wonders.toml");
    rs.when.retain(|w| w.rule != "W-11");
    let err = Rules::new(rs).unwrap_err().to_string();
    assert!(err.contains("`stonehenge`: its `ability`"), "{err}");
}

/// `variant explain` says each lowered ability as a rule of the one form, at the ability's own
/// line in its tile file (Tikal's `[[ability]]` is at line 125, its `tile` key at 126).
#[test]
fn explain_says_the_lowered_ability_at_its_line() {
    let o = common::tegula(&[
        "variant",
        "explain",
        "variants/wonders.toml",
        "--format",
        "json",
    ]);
    common::assert_exit(&o, 0);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let rules = v["rules"].as_array().expect("rules");
    let tikal = rules
        .iter()
        .find(|r| r["key"] == "when.W-13")
        .expect("when.W-13");
    assert_eq!(tikal["origin"]["file"], "tiles/wonders-2/tikal.toml");
    assert_eq!(tikal["origin"]["line"], 126);
    assert_eq!(
        tikal["text"],
        "When a city is scored during the game, for each placed tile `tikal` with an owner (in \
         the order they got one), if its tiles are at least 3 and the owner's figures on it are \
         more than 0: the tile's owner scores 2 per figure of the owner's on a city on the board."
    );
}
