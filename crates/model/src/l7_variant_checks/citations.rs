//! Cited rules: the rule ids the engine's own steps cite, as the data gives them — a variant's
//! `[citations]`, a figure's `site_rule` and `move_rule`, a corner figure's payment rules, the
//! pool's `rules`, a player tile's `rule` — lowered into the contract. The engine names no rule;
//! a key a file leaves out cites the registry's rule for that mechanism, given here once.

use tegula_ruleset::{Citations, PoolCitations};

use crate::raw::{RawCitations, RawCornerScoring, RawPoolRules, Sp};

/// The registry's rule of a tile's placement (refusals, a tile that fits nowhere).
pub const PLACEMENT: &str = "B-2";
/// The registry's rule of a feature scored during the game.
pub const SCORING: &str = "B-4";
/// The registry's rule of final scoring.
pub const FINAL_SCORING: &str = "B-6";
/// The registry's rule of a player's own tile (placing it, into an enclosed cell).
pub const PLAYER_TILE: &str = "AM-1";
/// The registry's rules of a corner figure's three payments (place, join, final).
pub const CORNER: [&str; 3] = ["AM-7", "AM-8", "AM-9"];
/// The registry's rules of the pool's steps (take, choice, place, fit, follow).
pub const POOL: [&str; 5] = ["W-2", "W-3", "W-5", "W-6", "W-7"];

/// The value of an optional rule key, else `default`.
fn or(key: Option<&Sp<String>>, default: &str) -> String {
    key.map_or_else(|| default.to_string(), |r| r.value.clone())
}

/// A variant's `[citations]`, the registry's standard rules for absent keys.
pub fn lower(raw: Option<&Sp<RawCitations>>) -> Citations {
    let c = raw.map(|c| &c.value);
    Citations {
        placement: or(c.and_then(|c| c.placement.as_ref()), PLACEMENT),
        scoring: or(c.and_then(|c| c.scoring.as_ref()), SCORING),
        final_scoring: or(c.and_then(|c| c.final_scoring.as_ref()), FINAL_SCORING),
    }
}

/// A corner figure's payment rules (place, join, final).
pub fn corner(raw: &RawCornerScoring) -> [String; 3] {
    let keys = [&raw.place_rule, &raw.join_rule, &raw.final_rule];
    std::array::from_fn(|i| or(keys[i].as_ref(), CORNER[i]))
}

/// The pool's `rules`, the registry's for absent keys.
pub fn pool(raw: Option<&Sp<RawPoolRules>>) -> PoolCitations {
    let r = raw.map(|r| &r.value);
    let key = |f: fn(&RawPoolRules) -> Option<&Sp<String>>, i: usize| or(r.and_then(f), POOL[i]);
    PoolCitations {
        take: key(|r| r.take.as_ref(), 0),
        choice: key(|r| r.choice.as_ref(), 1),
        place: key(|r| r.place.as_ref(), 2),
        fit: key(|r| r.fit.as_ref(), 3),
        follow: key(|r| r.follow.as_ref(), 4),
    }
}

/// Every rule id the keys of this module name in a variant file, to check against the
/// registry and the declared rules.
pub fn cited(doc: &crate::raw::VariantFile) -> Vec<&Sp<String>> {
    let mut out = Vec::new();
    if let Some(c) = &doc.citations {
        out.extend([&c.value.placement, &c.value.scoring, &c.value.final_scoring]);
    }
    for f in &doc.followers {
        out.extend([&f.value.site_rule, &f.value.move_rule]);
        if let Some(c) = &f.value.corner {
            out.extend([&c.value.place_rule, &c.value.join_rule, &c.value.final_rule]);
        }
    }
    if let Some(r) = doc.pool.as_ref().and_then(|p| p.value.rules.as_ref()) {
        let r = &r.value;
        out.extend([&r.take, &r.choice, &r.place, &r.fit, &r.follow]);
    }
    out.extend(doc.player_tiles.iter().map(|p| &p.value.rule));
    out.into_iter().flatten().collect()
}
