//! The artefact: the whole ruleset, its format version, reading and writing it as JSON.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::serde_default::one_tile;
#[cfg(doc)] // Named by doc links only.
use crate::{limits, Effect, Feature, SideKind};
use crate::{
    Citations, CounterType, EdgeKind, FollowerType, NeutralType, PileGroup, PlayerTile, PoolRules,
    Readings, Resource, Rule, Scoring, SeatsRule, StackType, TileType, TokenType, TrackType, When,
};

/// Version of the ruleset artefact's format. Raised whenever a change to these types would make
/// an older engine misread a newer file (or the reverse); [`Ruleset::from_json`] refuses others.
pub const FORMAT_VERSION: u32 = 8;

/// One complete, lowered variant: the "generated engine" input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "tegula ruleset (compiled variant)")]
pub struct Ruleset {
    /// Version of this format ([`FORMAT_VERSION`]); required.
    pub format_version: u32,
    /// Variant id (file name stem by convention).
    pub id: String,
    /// Human-readable variant name.
    pub name: String,
    /// Smallest allowed number of players.
    pub min_players: u8,
    /// Largest allowed number of players.
    pub max_players: u8,
    /// Follower types every player receives.
    pub followers: Vec<FollowerType>,
    /// Scoring parameters (the standard rules by default; a variant may change them).
    pub scoring: Scoring,
    /// Tag names; [`Feature::tags`] and [`TileType::tags`] are bit sets over this list.
    pub tags: Vec<String>,
    /// Tile types, in a stable order (sets in variant order, tiles in file order).
    pub tiles: Vec<TileType>,
    /// Index into `tiles` of the start tile, if the variant has one.
    pub start_tile: Option<u16>,
    /// Tiles every player holds in their own supply (not in the pile), placed instead of drawing.
    #[serde(default)]
    pub player_tiles: Vec<PlayerTile>,
    /// An open pool of tiles players take when their score reaches a threshold, then place
    /// instead of drawing (W-1..W-7). `None`: no pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<PoolRules>,
    /// Tiles in every player's hand (1 = the normal game: draw one, place it; N: hold N, draw
    /// up to N, place one). Abilities may raise one player's hand (W-12's [`Effect::Hand`]).
    #[serde(default = "one_tile")]
    pub hand: u8,
    /// How the rulebook's *Readings* are decided (the rule registry, `tegula rules ID`): each
    /// defaults to the registry's reading; a variant may pick the alternative. Left out of the
    /// artefact when every one is the default, so artefacts of the shipped variants do not
    /// change.
    #[serde(default, skip_serializing_if = "Readings::is_default")]
    pub readings: Readings,
    /// Rules the data declares for itself (`[[rule]]` in its tile sets and variant), beside the
    /// registry ([`RULES_TOML`]): what events and scenarios citing them resolve to. Left out of
    /// the artefact when empty, so artefacts of variants without their own rules do not change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<Rule>,
    /// Named counters every seat holds, with how they are gained and what they are worth at
    /// the end (docs/FORMAT.md, "Seat resources"). Left out of the artefact when empty, so
    /// artefacts of variants without them do not change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<Resource>,
    /// Edge kinds the data declares beside city, road and field ([`SideKind::Declared`] indexes
    /// this list). Left out of the artefact when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edge_kinds: Vec<EdgeKind>,
    /// The draw pile's ordered groups (each shuffled on its own, drawn in this order, the tiles
    /// of no group last). Empty: one group, the whole pile. Left out of the artefact when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pile_groups: Vec<PileGroup>,
    /// The rule that allows seating more players than a smaller game would: a game with more
    /// than [`SeatsRule::above`] players cites it once, at its start. Left out of the artefact
    /// when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats_rule: Option<SeatsRule>,
    /// The rule ids the game's own steps cite (placing a tile, scoring during the game and at
    /// the end): the engine names no rule, the data does.
    pub citations: Citations,
    /// Rules of the one form (`[[when]]`; docs/design/rule-form.md), in file order. Left out of
    /// the artefact when empty, so artefacts of variants without them do not change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub when: Vec<When>,
    /// Single-holder tokens (`[[token]]`). Left out of the artefact when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<TokenType>,
    /// Kinds of counter tiles carry (`[[counter]]`). Left out of the artefact when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<CounterType>,
    /// Shared tracks (the pool's threshold pairs, lowered from `[pool] thresholds`). Left out
    /// of the artefact when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<TrackType>,
    /// Kinds of stack (`[[stack]]`, TO-1..TO-5). Left out of the artefact when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stacks: Vec<StackType>,
    /// Neutral figures (`[[neutral]]`; docs/design/actions.md, 1). Left out of the artefact
    /// when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutrals: Vec<NeutralType>,
}

/// Why a ruleset artefact cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArtefactError {
    /// Not JSON, or not a ruleset (the parser's message, with line and column).
    Parse(String),
    /// Written by another version of the format.
    Version {
        /// The file's `format_version`.
        found: u32,
    },
}

impl std::fmt::Display for ArtefactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArtefactError::Parse(m) => write!(f, "not a tegula ruleset: {m}"),
            ArtefactError::Version { found } => write!(
                f,
                "ruleset format version {found}; this engine reads version {FORMAT_VERSION} \
                 (compile the variant again with this tegula)"
            ),
        }
    }
}

impl std::error::Error for ArtefactError {}

impl Ruleset {
    /// Tile type `tile` played as a plain tile: its abilities and the rules it carries
    /// ([`crate::When::tile`], what the abilities are lowered to) removed.
    pub fn without_tile_rules(&mut self, tile: u16) {
        if let Some(t) = self.tiles.get_mut(usize::from(tile)) {
            t.abilities.clear();
        }
        self.when.retain(|w| w.tile != Some(tile));
    }

    /// Read a ruleset artefact (`tegula compile VARIANT --format json`): the version is checked
    /// first, so that a file of another version gets that message rather than a parse error.
    pub fn from_json(text: &str) -> Result<Ruleset, ArtefactError> {
        #[derive(Deserialize)]
        struct Version {
            format_version: u32,
        }
        let v: Version =
            serde_json::from_str(text).map_err(|e| ArtefactError::Parse(e.to_string()))?;
        if v.format_version != FORMAT_VERSION {
            return Err(ArtefactError::Version {
                found: v.format_version,
            });
        }
        serde_json::from_str(text).map_err(|e| ArtefactError::Parse(e.to_string()))
    }

    /// The artefact text: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a ruleset is plain data");
        s.push('\n');
        s
    }

    /// Index of the tag called `name`, if any feature or tile uses it.
    pub fn tag(&self, name: &str) -> Option<u32> {
        self.tags.iter().position(|t| t == name).map(|i| i as u32)
    }

    /// Cells the tiles of one game with `players` players may cover: the draw pile, the start
    /// tile, every player's own tiles and the pool (bounded by [`limits::MAX_GAME_CELLS`]).
    /// Saturating; tile indices out of range count nothing.
    pub fn game_cells(&self, players: u8) -> u64 {
        let cells = |t: u16| {
            self.tiles
                .get(usize::from(t))
                .map_or(0, |t| u64::from(t.cell_count))
        };
        let pile = self.tiles.iter().fold(0u64, |n, t| {
            n.saturating_add(u64::from(t.count).saturating_mul(u64::from(t.cell_count)))
        });
        let start = self.start_tile.map_or(0, cells);
        let held = self.player_tiles.iter().fold(0u64, |n, p| {
            n.saturating_add(u64::from(p.count) * u64::from(players) * cells(p.tile))
        });
        let pool = self
            .pool
            .iter()
            .flat_map(|p| &p.tiles)
            .map(|&t| cells(t))
            .sum::<u64>();
        pile.saturating_add(start)
            .saturating_add(held)
            .saturating_add(pool)
    }

    /// Total tiles in the draw pile (start tile excluded).
    pub fn pile_size(&self) -> u32 {
        // Saturating: a hand-built ruleset may hold any counts; the engine refuses piles over
        // `limits::MAX_PILE` anyway.
        self.tiles
            .iter()
            .fold(0u32, |n, t| n.saturating_add(t.count))
    }
}

/// The rule registry as data (TOML): every rule id the data, diagnostics, scenarios and events
/// cite, with its title, statement and source. Read by `tegula_model::rules`, its only loader.
pub const RULES_TOML: &str = include_str!("../rules.toml");
