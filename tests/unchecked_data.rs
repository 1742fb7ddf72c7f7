//! Data that validated and then played something else than it says (issue 35, items 5, 6, 7,
//! 12, 13 and 14): each case runs the built binary on a file of `tests/fixtures/` and expects
//! the located diagnostic (or the scenario verdict) that the fix promises.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_exit, expectations, tegula};

/// A fresh folder for one test inside the repository's data root (under the target folder), so
/// that a scenario written there may name `variants/` with a relative path; and the way from it
/// up to the repository root (`../../…`).
fn scratch(name: &str) -> (PathBuf, String) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("unchecked-data-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let root = std::fs::canonicalize(common::root()).unwrap();
    let real = std::fs::canonicalize(&dir).unwrap();
    let depth = real
        .strip_prefix(&root)
        .expect("the target folder is inside the repository")
        .components()
        .count();
    (dir, "../".repeat(depth))
}

fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Run `tegula` with `args`, expect exit `code`, and return its stdout and stderr together.
fn output(args: &[&str], code: i32) -> String {
    let o = tegula(args);
    assert_exit(&o, code);
    text(&o)
}

/// The scenario `sc` (naming its variant as `variant = "{own}"`) passes, and FAILS (loads, runs,
/// an expectation does not hold) under the variant `parent` it extends: the house-rule check.
fn fails_under_parent(sc: &str, own: &str, parent: &str) {
    output(&["check", sc], 0);
    let mut cache = tegula_scenario::VariantCache::default();
    let line = format!("variant = \"{own}\"");
    let tmp = std::env::temp_dir();
    let verdict = common::run_under(&common::root().join(sc), &line, parent, &tmp, &mut cache);
    assert_eq!(verdict, Some(true), "{sc} under {parent}");
}

/// `tegula validate FILE` exits 1 and prints every `# expect:` line of the fixture as
/// `[code]` at `FILE:line:`.
fn refused_where_expected(rel: &str) {
    let out = output(&["validate", rel], 1);
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

/// Item 6: a scenario's `pile` is checked against the variant's tiles before anything is
/// played: two C tiles in the base game (which has one) are INVALID at the second C.
#[test]
fn a_scenario_pile_with_more_copies_than_the_variant_is_invalid() {
    let rel = "tests/fixtures/scenarios-invalid/pile-more-copies.toml";
    let out = output(&["check", rel], 2);
    assert!(out.contains(&format!("{rel}:9:")), "{out}");
    assert!(out.contains("tile `C` 2 times"), "{out}");
}

/// Item 6: a 150,000-tile pile is INVALID at the `pile` key (it used to run and fail at 1:1),
/// refused by its length before its ids are resolved one by one.
#[test]
fn a_scenario_pile_longer_than_the_game_is_invalid_at_the_key() {
    let (dir, up) = scratch("long-pile");
    let ids = vec!["\"C\""; 150_000].join(",");
    let sc = format!(
        "name = \"a pile of 150,000 tiles\"\nvariant = \"{up}variants/base.toml\"\nplayers = 2\n\
         pile = [{ids}]\n\n[[step]]\ntile = \"C\"\nat = [0, -1]\nrotation = 0\n"
    );
    let file = dir.join("long-pile.toml");
    std::fs::write(&file, sc).unwrap();
    let out = output(&["check", file.to_str().unwrap()], 2);
    assert!(out.contains("long-pile.toml:4:8"), "{out}");
    assert!(out.contains("the pile lists 150000 tiles"), "{out}");
    assert!(out.contains("has 72 tiles in all"), "{out}");
}

/// A variant of one straight road tile, `copies` in the pile and one start copy, written into
/// `dir` (its set beside it). Returns the variant's path.
fn line_variant(dir: &Path, copies: u32) -> PathBuf {
    let set = format!(
        "[set]\nid = \"line\"\nname = \"Line\"\n\n[[tile]]\nid = \"L\"\nname = \"Straight road\"\n\
         count = {copies}\nstart = true\nsides = [\"field\", \"road\", \"field\", \"road\"]\n\
         segments = [\n  {{ id = \"road\", kind = \"road\", sides = [\"W\", \"E\"] }},\n  \
         {{ id = \"field-n\", kind = \"field\", halves = [\"Wn\", \"Nw\", \"Ne\", \"En\"] }},\n  \
         {{ id = \"field-s\", kind = \"field\", halves = [\"Es\", \"Se\", \"Sw\", \"Ws\"] }},\n]\n"
    );
    std::fs::write(dir.join("line.toml"), set).unwrap();
    let variant = "id = \"line\"\nname = \"A line of roads\"\nplayers = { min = 2, max = 2 }\n\
                   sets = [{ path = \"line.toml\" }]\n\
                   followers = [{ id = \"meeple\", name = \"Meeple\", count = 7, strength = 1 }]\n";
    let path = dir.join("variant.toml");
    std::fs::write(&path, variant).unwrap();
    path
}

/// Item 7: a variant whose game could reach past the engine's board (the 1,001 cells:
/// a line of roads runs into the board's 511-cell radius and lost its last tiles citing B-2)
/// is refused by the validator, at its `sets`, naming the limit and the board.
#[test]
fn a_variant_that_could_reach_past_the_board_is_refused() {
    let (dir, _) = scratch("past-the-board");
    let v = line_variant(&dir, 1000);
    let out = output(&["validate", v.to_str().unwrap()], 1);
    assert!(out.contains("[bad-variant]"), "{out}");
    assert!(out.contains("variant.toml:4:"), "{out}");
    assert!(out.contains("cover 1001 cells"), "{out}");
    assert!(out.contains("1023 × 1023"), "{out}");
    // The engine refuses it too, and a game cannot be set up from it.
    let (rs, _) = tegula_model::variant::build_variant(&v);
    assert!(rs.is_none());
}

/// Item 7: at the limit, a game laid in one line eastwards places every tile: the last lies
/// 499 cells from the start tile and nothing is discarded at the board's edge.
#[test]
fn a_game_at_the_cell_limit_reaches_its_end_on_the_board() {
    use tegula_engine::{Action, Event, Game, Phase, Rules};
    let (dir, _) = scratch("at-the-limit");
    let v = line_variant(&dir, 499);
    assert_exit(&tegula(&["validate", v.to_str().unwrap()]), 0);
    let (rs, diags) = tegula_model::variant::build_variant(&v);
    let rules = std::sync::Arc::new(Rules::new(rs.expect("builds")).expect("the engine plays it"));
    assert!(diags.iter().all(|d| !d.is_error()));
    let mut g = Game::seeded(rules, 2, 7).unwrap();
    while g.phase() != Phase::Over {
        let a = match g.phase() {
            Phase::Place => g
                .placements()
                .iter()
                .max_by_key(|p| (p.x, -p.y.abs(), p.rotation))
                .map(|&p| Action::Place(p))
                .expect("a placement"),
            _ => Action::Pass,
        };
        g.apply(a).unwrap();
    }
    assert!(!g
        .events()
        .iter()
        .any(|e| matches!(e, Event::Discard { .. })));
    let far = g.tiles().iter().map(|t| t.x).max();
    assert_eq!((g.tile_count(), far), (500, Some(499)));
}

/// Copy the folder `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// Item 13: the shipped scenarios are self-contained data: the data tree (`tiles`, `variants`,
/// `scenarios`, `schema`) copied elsewhere still checks, the W-6 test kits included (they used to
/// live in `tests/fixtures`, so the copy broke with a location of `:0:0`).
#[test]
fn the_scenarios_checked_from_a_copy_of_the_data_tree_pass() {
    let dir = std::env::temp_dir().join(format!("tegula-data-copy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["tiles", "variants", "scenarios", "schema"] {
        copy_tree(&common::root().join(sub), &dir.join(sub));
    }
    let kits = dir.join("scenarios/kits");
    assert_exit(&tegula(&["validate", kits.to_str().unwrap()]), 0);
    for f in [
        "w6-any-fit-drawn-tiles-stay",
        "w6-no-follower-on-the-tile-placed-for-a-wonder",
        "w6-unplaceable-wonder-removes-drawn-tiles",
    ] {
        let sc = dir.join(format!("scenarios/{f}.toml"));
        output(&["check", sc.to_str().unwrap()], 0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 13: a scenario naming a variant file that does not exist is INVALID at its `variant`
/// key, saying so, with no `:0:0` location anywhere.
#[test]
fn a_missing_variant_is_named_at_the_key() {
    let (dir, _) = scratch("missing-variant");
    let sc = dir.join("missing.toml");
    std::fs::write(
        &sc,
        "name = \"x\"\nrules = [\"B-4\"]\nvariant = \"nowhere/v.toml\"\nplayers = 2\n",
    )
    .unwrap();
    let out = output(&["check", sc.to_str().unwrap()], 2);
    assert!(out.contains("missing.toml:3:11"), "{out}");
    assert!(out.contains("no variant file"), "{out}");
    assert!(!out.contains(":0:0"), "{out}");
}

/// Item 13: a `gained` count above 100 is compared as written (a correct 128 used to be
/// reported as "expected 100"); past a seat's 32-bit holding it is INVALID at the count.
#[test]
fn gained_counts_above_100_are_compared_and_bounded() {
    output(&["check", "tests/fixtures/gains/power-gain-128.toml"], 0);
    let rel = "tests/fixtures/scenarios-invalid/gained-out-of-range.toml";
    let out = output(&["check", rel], 2);
    assert!(out.contains(&format!("{rel}:19:50")), "{out}");
    assert!(out.contains("a gain is 1 to 4294967295"), "{out}");
}

/// Item 13: `variant explain` words a product of counts as a power, not as "its tiles times
/// its tiles per tile per tile …".
#[test]
fn explain_words_a_product_of_counts_as_a_power() {
    let out = output(
        &[
            "variant",
            "explain",
            "tests/fixtures/gains/power-variant.toml",
        ],
        0,
    );
    assert!(out.contains("gains its tiles to the power of 7"), "{out}");
    assert!(!out.contains("per tile per tile"), "{out}");
}

/// Item 13: a malformed rule id (`R2-1`) declared and cited in three places is one diagnostic
/// that says what a rule id may look like, the other places as notes.
#[test]
fn a_malformed_rule_id_is_one_diagnostic_saying_what_an_id_looks_like() {
    let rel = "tests/fixtures/invalid/rule-id-malformed-once.toml";
    refused_where_expected(rel);
    let out = text(&tegula(&["validate", rel]));
    assert_eq!(out.matches("error[schema]").count(), 1, "{out}");
    assert!(out.contains("capital letters, `-`, a number"), "{out}");
    assert!(out.contains("also written at line 12, column 6"), "{out}");
    // Cited where the schema does not check it (a scenario's `rules`): one `unknown-rule` that
    // also says what a rule id looks like.
    let (dir, up) = scratch("malformed-rule-id");
    let sc = dir.join("r2.toml");
    let text = format!(
        "name = \"x\"\nrules = [\"R2-1\"]\nvariant = \"{up}variants/base.toml\"\nplayers = 2\n"
    );
    std::fs::write(&sc, text).unwrap();
    let out = output(&["check", sc.to_str().unwrap()], 2);
    assert_eq!(out.matches("error[").count(), 1, "{out}");
    assert!(out.contains("error[unknown-rule]"), "{out}");
    assert!(
        out.contains("not shaped like a rule id: capital letters"),
        "{out}"
    );
}

/// Item 13: a tag listed twice on a segment counts once, with a warning at the second listing
/// (it used to count once without a word); the file still validates.
#[test]
fn a_tag_listed_twice_warns() {
    let rel = "tests/fixtures/invalid/duplicate-segment-tag.toml";
    let out = output(&["validate", rel], 0);
    assert!(out.contains("warning[duplicate-id]"), "{out}");
    assert!(out.contains(&format!("{rel}:15:69")), "{out}");
    assert!(out.contains("lists tag `gold` twice"), "{out}");
}

/// Item 13: the house-rule check plays a house rule's scenario under the variant it extends;
/// a scenario citing the house rule's own rule (HR-1, declared by the house variant) used to be
/// INVALID there (the parent declares no HR-1) and so "failed" for the wrong reason. Now it
/// loads, runs and FAILS on the points: 3, not 9.
#[test]
fn a_house_scenario_citing_its_own_rule_fails_under_the_parent() {
    let sc = common::root().join("tests/fixtures/house-own-rule/triple-roads-scenario.toml");
    let mut cache = tegula_scenario::VariantCache::default();
    let (own, _) = tegula_scenario::load(&sc, &mut cache);
    assert!(tegula_scenario::run(&own.expect("loads"))
        .failures
        .is_empty());
    let base = common::root().join("variants/base.toml");
    let (under, diags) = tegula_scenario::load_under(&sc, &base, &mut cache);
    let under = under.unwrap_or_else(|| panic!("INVALID under the parent: {diags:#?}"));
    let failures = tegula_scenario::run(&under).failures;
    let all: String = failures.iter().map(|f| format!("{f}\n")).collect();
    assert!(all.contains("HR-1") && all.contains('9'), "{all}");
    let line = "variant = \"triple-roads.toml\"";
    let tmp = std::env::temp_dir();
    let verdict = common::run_under(&sc, line, "variants/base.toml", &tmp, &mut cache);
    assert_eq!(verdict, Some(true));
    // An id known to neither variant is still an error of the scenario.
    let (dir, _) = scratch("unknown-rule-under");
    let text = std::fs::read_to_string(&sc)
        .unwrap()
        .replace("\"HR-1\", \"B-4\"", "\"HR-7\"");
    let copy = dir.join("triple-roads-scenario.toml");
    std::fs::write(&copy, text).unwrap();
    std::fs::copy(
        common::root().join("tests/fixtures/house-own-rule/triple-roads.toml"),
        dir.join("triple-roads.toml"),
    )
    .unwrap();
    let (bad, diags) = tegula_scenario::load_under(&copy, &base, &mut cache);
    assert!(bad.is_none());
    let unknown = |d: &tegula_model::Diagnostic| {
        d.code == tegula_model::Code::UnknownRule && d.message.contains("HR-7")
    };
    assert!(diags.iter().any(unknown), "{diags:#?}");
}

/// Item 14: a house variant that lists its parent's figures again keeps what they cite: each
/// figure type of the same id places and returns under the same rules (the builder's return
/// cites TB-6 under `extra-turn-not-when-completing` too; its figures had lost
/// `place_rule`/`return_rule`).
#[test]
fn house_variants_keep_their_parents_figure_citations() {
    for f in common::toml_files("variants/house") {
        let text = std::fs::read_to_string(&f).unwrap();
        let Some(parent) = text
            .lines()
            .find_map(|l| l.strip_prefix("extends = \"../")?.strip_suffix(".toml\""))
        else {
            continue;
        };
        let (child, _) = tegula_model::variant::build_variant(&f);
        let (parent_rs, _) = tegula_model::variant::build_variant(
            &common::root().join(format!("variants/{parent}.toml")),
        );
        let (child, parent_rs) = (child.expect("builds"), parent_rs.expect("builds"));
        for p in &parent_rs.followers {
            let Some(c) = child.followers.iter().find(|c| c.id == p.id) else {
                continue;
            };
            let cites =
                |x: &tegula_ruleset::FollowerType| (x.place_rule.clone(), x.return_rule.clone());
            assert_eq!(cites(c), cites(p), "{}: figure `{}`", f.display(), p.id);
        }
    }
}

/// Item 14: TB-4's other reading is a `[readings]` parameter. Under
/// `variants/house/builder-not-on-completed.toml` the builder asked for on the road its tile
/// completes is refused (`feature-completed`); the same scenario FAILS under Traders &
/// Builders, where the registry's reading accepts it. Set without a builder, the reading is
/// an error at its key.
#[test]
fn no_builder_on_a_completed_feature_is_a_reading() {
    fails_under_parent(
        "scenarios/house-builder-not-on-completed.toml",
        "../variants/house/builder-not-on-completed.toml",
        "variants/traders-builders.toml",
    );
    refused_where_expected("tests/fixtures/invalid/readings-needs-own-without-builder.toml");
}

/// Item 14: under the `scoring-step` timing of AM-8, a pig may go on the field its tile joins
/// to a barn field while its owner's farmer still stands there (TB-7's reading: AM-8 forbids
/// only followers); tegula offered no figure there. The scenario passes and FAILS under the
/// at-once timing of the parent, where the farmer is home before the figure decision.
#[test]
fn a_pig_joins_its_farmer_on_a_field_joined_to_a_barn_in_the_scoring_step() {
    fails_under_parent(
        "scenarios/house-barn-join-scoring-step-traders.toml",
        "../variants/house/barn-join-scoring-step-traders.toml",
        "variants/abbey-mayor-traders.toml",
    );
}
