//! What the players did in one game, read from its events (crates/engine/src/event.rs), for
//! `simulate --compare`: features completed by kind (and their tiles), figures placed from
//! supply by site, and the scorings of tile abilities. Points alone cannot show what a house
//! rule does to play; these can.

use std::collections::BTreeSet;

use tegula_engine::{Event, Game};
use tegula_ruleset::{FeatureKind, Site};

/// The kinds a feature can be completed as (a field never is, B-3), with their plural names.
pub const COMPLETED: [(FeatureKind, &str); 3] = [
    (FeatureKind::Road, "roads"),
    (FeatureKind::City, "cities"),
    (FeatureKind::Cloister, "cloisters"),
];

/// One game's behaviour.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Behaviour {
    /// Per [`COMPLETED`] kind: features completed.
    pub completed: [u32; 3],
    /// Per [`COMPLETED`] kind: tiles in those features, summed.
    pub completed_tiles: [u32; 3],
    /// Per [`Site::ALL`]: figures placed there from supply (not moved, not markers).
    pub placed: [u32; 5],
    /// Points events caused by tile abilities (each time one scored).
    pub abilities_fired: u32,
}

/// The behaviour of a finished game played with events recorded.
pub fn of(game: &Game) -> Behaviour {
    let ruleset = game.rules().ruleset();
    let ability_rules: BTreeSet<&str> = ruleset
        .tiles
        .iter()
        .flat_map(|t| t.abilities.iter().map(|a| a.rule.as_str()))
        .collect();
    let mut out = Behaviour::default();
    let mut seen = BTreeSet::new();
    // The tile of the last placement: a figure from supply stands on the tile just placed.
    let mut last_tile: Option<&str> = None;
    for e in game.events() {
        match e {
            Event::Place { tile, .. } => last_tile = Some(tile),
            Event::Follower {
                feature,
                corner,
                moved: false,
                claim: false,
                ..
            } => {
                let site = if corner.is_some() {
                    Some(Site::Corner)
                } else {
                    last_tile
                        .and_then(|id| ruleset.tiles.iter().find(|t| t.id == id))
                        .and_then(|t| t.features.get(usize::from(*feature)))
                        .and_then(|f| site_of(f.kind))
                };
                if let Some(i) = site.and_then(|s| Site::ALL.iter().position(|x| *x == s)) {
                    out.placed[i] += 1;
                }
            }
            Event::Score { rule, feature, .. } => {
                if ability_rules.contains(rule.as_str()) {
                    out.abilities_fired += 1;
                }
                let k = COMPLETED.iter().position(|(k, _)| *k == feature.kind);
                if let (true, Some(k)) = (feature.complete, k) {
                    if seen.insert(feature.id) {
                        out.completed[k] += 1;
                        out.completed_tiles[k] += feature.tiles;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The site a figure on a feature of this kind stands on.
fn site_of(kind: FeatureKind) -> Option<Site> {
    Site::ALL
        .into_iter()
        .find(|s| s.feature_kind() == Some(kind))
}
