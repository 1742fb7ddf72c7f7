//! Figures: follower types, where they may stand, their strengths, payments and corner scoring.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::serde_default::{is_false, is_true, yes};
#[cfg(doc)] // Named by doc links only.
use crate::{Citations, Ruleset};
use crate::{Counts, Expr, FeatureKind};

/// A kind of follower ("figure") and how it behaves: where it may stand, how strong it is, what
/// happens after its feature is scored, and, for figures that stand on corners, how they score.
/// Every behaviour is a value from a small closed vocabulary, so a new figure is data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FollowerType {
    /// Stable id (e.g. `meeple`, `large-meeple`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// How many each player has in supply at the start.
    pub count: u8,
    /// Strength for majorities (B-5).
    pub strength: Strength,
    /// Where it may be placed (one or more sites; a corner figure has only [`Site::Corner`]).
    pub sites: Vec<Site>,
    /// Whether it may join a feature that already holds a follower (standard: no, B-2).
    #[serde(default)]
    pub joins_occupied: bool,
    /// What happens to it after its feature is scored during the game.
    #[serde(default)]
    pub after_score: AfterScore,
    /// How a corner figure scores the field it stands on ([`Site::Corner`] only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corner: Option<CornerScoring>,
    /// A placement precondition: the feature must already hold at least one occupying figure
    /// of the owner's (default: none).
    #[serde(default, skip_serializing_if = "is_false")]
    pub needs_own_figure: bool,
    /// Whether it occupies its feature (default yes). A figure that does not never stops
    /// another player's figure from joining (B-2's "unoccupied" ignores it), never makes a
    /// feature a move target's "occupied" (AM-11), and counts for no majority (strength 0).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub occupies: bool,
    /// Rule id the events placing a figure of this type from supply cite (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place_rule: Option<String>,
    /// Rule id the events returning a figure of this type to supply cite (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_rule: Option<String>,
    /// Rule id a placement of this figure refused for where it would stand cites (its sites,
    /// its precondition, a corner; default: `place_rule`, else [`Citations::placement`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_rule: Option<String>,
    /// Rule id a refused move of this figure after a scoring cites ([`AfterScore::Move`];
    /// default: [`Citations::placement`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_rule: Option<String>,
    /// Sites by tag (AB-1): when not empty, the figure stands only on a tile-local feature
    /// carrying one of these tags (indices into [`Ruleset::tags`]), besides its `sites`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub only_tags: Vec<u32>,
    /// Sites by tag (AB-1): the figure never stands on a tile-local feature carrying one of
    /// these tags (AB-1: a feature only one figure type may hold).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub never_tags: Vec<u32>,
}

impl FollowerType {
    /// A standard follower: stands on roads, cities, cloisters and fields, returns after scoring.
    pub fn standard(id: &str, name: &str, count: u8, strength: u8) -> FollowerType {
        FollowerType {
            id: id.to_string(),
            name: name.to_string(),
            count,
            strength: Strength::Fixed(strength),
            sites: vec![Site::Road, Site::City, Site::Cloister, Site::Field],
            joins_occupied: false,
            after_score: AfterScore::Return,
            corner: None,
            needs_own_figure: false,
            occupies: true,
            place_rule: None,
            return_rule: None,
            site_rule: None,
            move_rule: None,
            only_tags: Vec::new(),
            never_tags: Vec::new(),
        }
    }

    /// Whether it may stand on a feature of kind `kind`.
    pub fn stands_on(&self, kind: FeatureKind) -> bool {
        self.sites.iter().any(|s| s.feature_kind() == Some(kind))
    }

    /// Its strength on the feature `c` counts (B-5): a constant without looking at the
    /// feature, else its expression over the feature's counts.
    pub fn strength_on(&self, c: &mut impl Counts) -> u32 {
        match &self.strength {
            Strength::Fixed(s) => u32::from(*s),
            Strength::Value(e) => e.eval(c),
        }
    }

    /// Whether it stands on corners where four cells meet (AM-6).
    pub fn is_corner_figure(&self) -> bool {
        self.sites.contains(&Site::Corner)
    }
}

/// Where a figure may stand.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Site {
    /// On a road of the tile just placed.
    Road,
    /// On a city of the tile just placed.
    City,
    /// On a cloister (or another one-cell feature scored by its neighbourhood) of the tile just
    /// placed.
    Cloister,
    /// On a field of the tile just placed (a farmer).
    Field,
    /// On a corner of the tile just placed where four filled cells meet and all four cell
    /// corners there are field (AM-6); it then belongs to that field.
    Corner,
}

impl Site {
    /// All sites.
    pub const ALL: [Site; 5] = [
        Site::Road,
        Site::City,
        Site::Cloister,
        Site::Field,
        Site::Corner,
    ];

    /// The feature kind a follower on this site stands on (`None` for a corner).
    pub fn feature_kind(self) -> Option<FeatureKind> {
        match self {
            Site::Road => Some(FeatureKind::Road),
            Site::City => Some(FeatureKind::City),
            Site::Cloister => Some(FeatureKind::Cloister),
            Site::Field => Some(FeatureKind::Field),
            Site::Corner => None,
        }
    }

    /// Lower-case name, as in the variant files.
    pub fn name(self) -> &'static str {
        match self {
            Site::Road => "road",
            Site::City => "city",
            Site::Cloister => "cloister",
            Site::Field => "field",
            Site::Corner => "corner",
        }
    }
}

/// How strong a figure is in a majority (B-5). A strength that reads no count of its feature is
/// always [`Strength::Fixed`] (the model folds constant expressions), so majorities of figures
/// with constant strengths never evaluate an expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    /// A constant (meeple 1, large meeple 2, a figure that never counts 0).
    Fixed(u8),
    /// A value expression over the counts of the feature it stands on, e.g. `pennants` (as
    /// many as the pennants of its city; 0 pennants → 0).
    Value(Expr),
}

/// What happens to a figure after its feature is scored during the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AfterScore {
    /// Back to its owner's supply (B-4).
    #[default]
    Return,
    /// Stays where it is (corner figures: AM-7..AM-9).
    Stay,
    /// Its owner may move it to an unfinished, unoccupied feature it may stand on that is
    /// adjacent in the given sense, or take it back (AM-11, AM-12).
    Move(Adjacency),
}

/// Which features count as adjacent for a figure that moves after scoring (AM-11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Adjacency {
    /// The registry's reading of AM-11: a feature with a segment on the figure's tile or on a tile
    /// covering a cell in the 8-neighbourhood of any of that tile's cells (a mega tile counts
    /// whole).
    #[default]
    Neighbourhood,
    /// The older reading: a feature with a segment on a tile that the scored feature also
    /// touches.
    Connected,
}

/// How a corner figure scores its field (AM-7..AM-9): three value expressions over the field's
/// counts (`cities` is the completed cities it borders; the standard payments are `3 * cities`,
/// `cities` and `4 * cities`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct CornerScoring {
    /// When it is placed: the field is paid this to its farmer majority, and the farmers return
    /// (AM-7).
    pub place: Expr,
    /// When a placement joins a field holding farmers to its field: the joined field (or, by
    /// the other reading, each former field, `cities` then counting that field's) is paid this
    /// to the farmer majority, and the farmers return (AM-8).
    pub join: Expr,
    /// At the end of the game, its owner scores this for its field (AM-9). Every corner figure
    /// on a field scores in full.
    #[serde(rename = "final")]
    pub final_: Expr,
    /// Rule id the payment on placement cites.
    pub place_rule: String,
    /// Rule id the payment of a join cites, and a follower refused on its field.
    pub join_rule: String,
    /// Rule id the final payment cites.
    pub final_rule: String,
}
