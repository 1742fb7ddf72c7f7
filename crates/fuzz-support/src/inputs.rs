//! Targets over file inputs: tile sets, variants, scenarios and logs.

use std::sync::Arc;

use tegula_engine::{Game, Phase, Rng, Rules};
use tegula_model::compile::compile_tileset;
use tegula_model::load::{parse_tileset, parse_variant, MAX_SCHEMA_ERRORS};
use tegula_model::variant::{compile_variant, lower_variant};
use tegula_model::{Diagnostic, Source};

use crate::data::{scratch_file, shipped_variants};

/// Diagnostics are bounded and point inside the text.
fn check_diags(text: &str, diags: &[Diagnostic]) {
    assert!(
        diags.len() <= MAX_SCHEMA_ERRORS + 1,
        "{} diagnostics",
        diags.len()
    );
    for d in diags {
        if let Some(span) = &d.at.span {
            assert!(span.start <= text.len(), "{d:?} points past the end");
        }
    }
}

/// Tile-set text through the loader (as tile set and as variant) and the compiler: diagnostics,
/// never a panic.
pub fn tileset(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (loaded, diags) = parse_tileset(Source::new("fuzz.toml", text.to_string()));
    check_diags(text, &diags);
    check_diags(
        text,
        &parse_variant(Source::new("fuzz.toml", text.to_string())).1,
    );
    if let Some(loaded) = loaded {
        let _ = compile_tileset(&loaded);
    }
}

/// Variant text (its sets resolved against the shipped tiles): diagnostics, never a panic; and a
/// variant the validator accepts is accepted by the engine and plays (issue 9, item 4).
pub fn variant(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_diags(
        text,
        &parse_variant(Source::new("fuzz.toml", text.to_string())).1,
    );
    let Some(path) = scratch_file("v", data) else {
        return;
    };
    let (compiled, diags) = compile_variant(&path);
    let Some(v) = compiled else {
        return;
    };
    if diags.iter().any(Diagnostic::is_error) {
        return;
    }
    let (rs, more) = lower_variant(&v);
    let Some(rs) = rs.filter(|_| !more.iter().any(Diagnostic::is_error)) else {
        return;
    };
    let players = rs.min_players;
    let rules = match Rules::new(rs) {
        Ok(r) => Arc::new(r),
        Err(e) => panic!("the validator accepted a variant the engine refuses: {e}"),
    };
    let seed = data
        .iter()
        .fold(0u64, |h, &b| h.rotate_left(5) ^ u64::from(b));
    let mut game = Game::seeded(rules, players, seed).expect("players within the range");
    play_randomly(&mut game, seed, 400);
}

/// Play up to `decisions` random legal actions (each must be accepted), then end the game.
pub(crate) fn play_randomly(game: &mut Game, seed: u64, decisions: usize) {
    let mut rng = Rng::new(seed);
    for _ in 0..decisions {
        if game.phase() == Phase::Over {
            break;
        }
        let legal = game.legal_actions();
        assert!(!legal.is_empty(), "no legal action in {:?}", game.phase());
        let a = legal[rng.below(legal.len() as u32) as usize];
        if let Err(e) = game.apply(a) {
            panic!("listed action {a:?} refused: {e}");
        }
    }
    game.finish();
    assert_eq!(game.phase(), Phase::Over);
}

/// Scenario text (its variant resolved against the shipped variants): diagnostics, never a
/// panic; a scenario that loads runs to its end.
pub fn scenario(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some(path) = scratch_file("s", data) else {
        return;
    };
    let (sc, diags) = tegula_scenario::load(&path, &mut tegula_scenario::VariantCache::default());
    check_diags(text, &diags);
    if let Some(sc) = sc.filter(|_| !diags.iter().any(Diagnostic::is_error)) {
        let _ = tegula_scenario::run(&sc);
    }
}

/// Log text replayed against the shipped variant its setup line names (the base game when it
/// names none): a game or an error, never a panic.
pub fn log(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let named = text
        .lines()
        .next()
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .and_then(|v| v.get("variant")?.as_str().map(str::to_string));
    let all = shipped_variants();
    let Some((_, rules)) = all
        .iter()
        .find(|(id, _)| Some(id) == named.as_ref())
        .or_else(|| all.iter().find(|(id, _)| id == "base"))
    else {
        return;
    };
    let _ = tegula_engine::log::replay(rules.clone(), text);
}
