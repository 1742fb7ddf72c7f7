//! The `ruleset` target: compiled ruleset artefacts (`tegula compile --format json`), the JSON a
//! program embedding the engine reads instead of the TOML files.

use std::sync::Arc;

use tegula_engine::{Game, Rules};

use crate::inputs::play_randomly;

/// Artefact text through [`Rules::from_json`]: an error or rules, never a panic; rules it
/// accepts set up two games with the fewest and two with the most players of their range, each
/// playing 400 random legal decisions and the final scoring. `Rules::new` must refuse whatever the engine cannot play,
/// since an artefact skips the validator.
pub fn ruleset(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rules) = Rules::from_json(text) else {
        return;
    };
    let rules = Arc::new(rules);
    let seed = data
        .iter()
        .fold(0u64, |h, &b| h.rotate_left(5) ^ u64::from(b));
    let (min, max) = (rules.ruleset().min_players, rules.ruleset().max_players);
    let counts = if min == max {
        vec![min]
    } else {
        vec![min, max]
    };
    for players in counts {
        for s in 0..2 {
            let mut game = match Game::seeded(rules.clone(), players, seed.wrapping_add(s)) {
                Ok(g) => g,
                Err(e) => panic!("rules the engine accepted cannot set up {players} players: {e}"),
            };
            play_randomly(&mut game, seed.wrapping_add(s), 400);
        }
    }
}
