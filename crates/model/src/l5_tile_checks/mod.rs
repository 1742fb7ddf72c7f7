//! Layer 5: checks over compiled tiles: rulebook facts, borders, abilities, glyphs, readings, site tags, features that never score.

pub mod abilities;
pub(crate) mod borders;
pub mod facts;
pub mod glyphs;
pub mod never_scores;
pub mod readings;
pub mod site_tags;
