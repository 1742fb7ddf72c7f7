//! The compiled ruleset as a shipped artefact: `tegula compile VARIANT --format json` writes a
//! versioned file described by `schema/ruleset.schema.json`; the engine loads it without the
//! TOML compiler (`Rules::from_json`) and plays exactly the games the TOML gives.

use std::sync::Arc;

use tegula_engine::{sim, AgentKind, Game, PileOrder, Rules};
use tegula_ruleset::{Ruleset, FORMAT_VERSION};

mod common;
use common::{assert_exit, root, tegula, toml_files};

fn build(rel: &str) -> Ruleset {
    let (rs, diags) = tegula_model::variant::build_variant(&root().join(rel));
    rs.unwrap_or_else(|| panic!("{rel}: {diags:#?}"))
}

/// The event lists of `games` games with the same seeds and agents.
fn games(rules: &Arc<Rules>, players: u8, games: u64) -> Vec<Vec<tegula_engine::Event>> {
    (0..games)
        .map(|i| {
            let (g, seeds) = sim::game_seeds(7, i, players);
            let mut game = Game::new(rules.clone(), players, PileOrder::Shuffled(g), true).unwrap();
            let kinds = [AgentKind::Random, AgentKind::Greedy];
            let mut agents = sim::build_agents(&kinds[..usize::from(players)], &seeds);
            sim::play_out(&mut game, &mut agents);
            game.events().to_vec()
        })
        .collect()
}

#[test]
fn the_artefact_plays_the_same_games_as_the_toml() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("schema/ruleset.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut variants = vec![
        "variants/base.toml".to_string(),
        "variants/abbey-mayor.toml".to_string(),
        "variants/wonders.toml".to_string(),
        // Seat resources (`resources`, format version 3).
        "variants/traders-builders.toml".to_string(),
    ];
    for f in toml_files("variants/house") {
        variants.push(f.strip_prefix(root()).unwrap().display().to_string());
    }
    for v in &variants {
        let rs = build(v);
        let text = rs.to_json();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["format_version"], FORMAT_VERSION);
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{v}: {errors:?}");
        let from_toml = Arc::new(Rules::new(rs.clone()).unwrap());
        let from_file = Arc::new(Rules::from_json(&text).unwrap());
        assert_eq!(from_file.ruleset(), &rs, "{v}");
        assert_eq!(games(&from_toml, 2, 5), games(&from_file, 2, 5), "{v}");
    }
}

#[test]
fn compile_writes_the_artefact_and_other_versions_are_refused() {
    let out = tegula(&["compile", "variants/house/hand-3.toml", "--format", "json"]);
    assert_exit(&out, 0);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, build("variants/house/hand-3.toml").to_json());
    let rules = Rules::from_json(&text).unwrap();
    assert_eq!(rules.ruleset().hand, 3);

    let newer = text.replacen(
        &format!("\"format_version\": {FORMAT_VERSION}"),
        "\"format_version\": 99",
        1,
    );
    let err = Rules::from_json(&newer).unwrap_err().to_string();
    assert!(
        err.contains("format version 99")
            && err.contains(&format!("reads version {FORMAT_VERSION}")),
        "{err}"
    );
    let unversioned = text.replacen(&format!("\"format_version\": {FORMAT_VERSION},"), "", 1);
    let err = Rules::from_json(&unversioned).unwrap_err().to_string();
    assert!(err.contains("missing field `format_version`"), "{err}");
    assert!(Rules::from_json("not json").is_err());
}

/// An artefact whose ability names a tag index past the variant's tags (and past the 32 tag
/// bits of a feature) is refused by `Rules::new` with a typed reason, as tiles and the pool are;
/// it used to reach a shift by 40 in play (a debug panic, the wrong bit in release). The
/// shipped Wonders' tags are accepted.
#[test]
fn an_ability_tag_past_the_variants_tags_is_refused() {
    use tegula_engine::RulesReason;
    use tegula_ruleset::Condition;
    let mut rs = build("variants/wonders.toml");
    let tags = rs.tags.len();
    assert!(Rules::new(rs.clone()).is_ok());
    for bad in [tags as u32, 40] {
        let near = rs
            .tiles
            .iter_mut()
            .flat_map(|t| t.abilities.iter_mut())
            .flat_map(|a| a.conditions.iter_mut())
            .find(|c| matches!(c, Condition::Near { tag: Some(_) }))
            .expect("Notre-Dame's condition");
        *near = Condition::Near { tag: Some(bad) };
        let err = Rules::new(rs.clone()).unwrap_err();
        let found = err.reasons.iter().any(|r| {
            matches!(r, RulesReason::AbilityTag { tag, tags: n, .. } if *tag == bad && *n == tags)
        });
        assert!(found, "{bad}: {err}");
        assert!(err.to_string().contains("nearness tag"), "{err}");
    }
}

/// A hand-made artefact whose seat resources the engine cannot keep apart or count is refused
/// with a reason: more than `MAX_RESOURCES`, or two with one id.
#[test]
fn artefacts_with_unplayable_resources_are_refused() {
    use tegula_engine::RulesReason;
    use tegula_ruleset::limits::MAX_RESOURCES;
    let rs = build("variants/traders-builders.toml");
    assert!(Rules::new(rs.clone()).is_ok());
    let mut twice = rs.clone();
    twice.resources[1].id = "wine".into();
    let err = Rules::from_json(&twice.to_json()).unwrap_err();
    assert_eq!(err.reasons, [RulesReason::DuplicateResource("wine".into())]);
    assert!(
        err.to_string()
            .contains("two seat resources are called `wine`"),
        "{err}"
    );
    let mut many = rs.clone();
    many.resources = (0..=MAX_RESOURCES)
        .map(|i| {
            let mut r = rs.resources[0].clone();
            r.id = format!("r{i}");
            r
        })
        .collect();
    let err = Rules::new(many).unwrap_err();
    let count = MAX_RESOURCES + 1;
    assert_eq!(
        err.reasons,
        [RulesReason::TooManyResources {
            count,
            max: MAX_RESOURCES
        }]
    );
}
