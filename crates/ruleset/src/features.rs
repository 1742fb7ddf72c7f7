//! Features and their scoring: feature kinds and the scoring numbers of a variant.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::serde_default::yes;
use crate::Values;

/// Kind of a feature (a connected set of segments).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum FeatureKind {
    /// City (B-3, B-4).
    City,
    /// Road (B-3, B-4).
    Road,
    /// Field / meadow (B-6).
    Field,
    /// Cloister or another feature of one cell scored by its 8-neighbourhood (B-3, B-4).
    Cloister,
    /// A feature no figure stands on and no feature scoring pays (W-5, W-19); the data, the
    /// artefact and the logs spell it with the word of the expansion that brought it.
    #[serde(rename = "wonder")]
    Unscored,
}

impl FeatureKind {
    /// All kinds.
    pub const ALL: [FeatureKind; 5] = [
        FeatureKind::City,
        FeatureKind::Road,
        FeatureKind::Field,
        FeatureKind::Cloister,
        FeatureKind::Unscored,
    ];

    /// Lower-case name, as in the data files and messages.
    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::City => "city",
            FeatureKind::Road => "road",
            FeatureKind::Field => "field",
            FeatureKind::Cloister => "cloister",
            FeatureKind::Unscored => "wonder",
        }
    }
}

/// Scoring parameters. Defaults are the standard rules (B-4, B-6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Scoring {
    /// What each feature is worth, as expressions over its counts (docs/FORMAT.md, "Values").
    pub values: Values,
    /// Whether incomplete roads, cities and cloisters score at the end (B-6: yes). Fields are
    /// scored either way.
    #[serde(default = "yes")]
    pub final_incomplete: bool,
    /// How fields score at the end: B-6's procedure, or the first edition's.
    #[serde(default)]
    pub field_rule: FieldRule,
}

/// How fields are scored at the end of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FieldRule {
    /// B-6: every field scores each completed city it borders, to that field's farmer majority
    /// (a city can score for several fields).
    #[default]
    PerField,
    /// The first edition: every completed city bordered by a field with farmers scores once, to
    /// the farmer majority over all the fields that border it (strengths summed over them).
    PerCity,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            values: Values::default(),
            final_incomplete: true,
            field_rule: FieldRule::PerField,
        }
    }
}
