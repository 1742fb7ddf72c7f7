//! Raw (unchecked) TOML types: what the files say, with source spans on every blamable value.
//!
//! These types are deserialised from TOML only **after** the JSON Schema generated from them
//! (`schema/*.schema.json`) has accepted the document, so serde errors here are a last resort.
//! Rules followed for span-keeping (see STYLE.md): `Sp<T>` on blamable fields, no
//! `#[serde(flatten)]`, no internally tagged enums.

use std::collections::BTreeMap;
use std::ops::Range;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use tegula_ruleset::limits::{MAX_GAME_CELLS, MAX_POINTS, MAX_RESOURCES};

/// A value with the byte range it came from in the TOML text.
///
/// Transparent in the JSON Schema (it describes `T`), so schemas stay readable.
#[derive(Clone, Debug)]
pub struct Sp<T> {
    /// The value.
    pub value: T,
    /// Byte range in the source text (empty `0..0` when built in code).
    pub span: Range<usize>,
}

impl<T> Sp<T> {
    /// A value with no source position (for values built in code / tests).
    pub fn unspanned(value: T) -> Self {
        Sp { value, span: 0..0 }
    }
}

impl<T> std::ops::Deref for Sp<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Sp<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = toml::Spanned::<T>::deserialize(d)?;
        let span = s.span();
        Ok(Sp {
            value: s.into_inner(),
            span,
        })
    }
}

impl<T: Serialize> Serialize for Sp<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

impl<T: JsonSchema> JsonSchema for Sp<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// Identifier: lower/upper case letters, digits, `-`, `_` and `.`; 1 to 64 characters.
pub type Id = String;

/// The JSON Schema pattern of an [`Id`] (the schema's `id` fields carry it).
pub const ID_PATTERN: &str = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$";

/// Whether `s` is a valid [`Id`] ([`ID_PATTERN`]): never a path, never empty.
pub fn is_id(s: &str) -> bool {
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    s.len() <= 64 && s.starts_with(|c: char| c.is_ascii_alphanumeric()) && s.chars().all(ok)
}

/// Kind of a cell side, as written in TOML.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RawSideKind {
    /// A city edge.
    City,
    /// A road edge: its two halves belong to fields.
    Road,
    /// A field edge: its two halves belong to fields.
    Field,
    /// Matches any neighbouring side and closes the neighbour's feature there (the abbey, AM-1).
    Any,
    /// `{ edge = "ID" }`: an edge kind the tile set declares (`[[edge]]`, e.g. `water`): it
    /// matches only itself, carries no segment, and its two halves belong to fields.
    Edge(#[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))] Id),
}

/// An edge kind a tile set declares beside city, road and field (`[[edge]]`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEdgeKind {
    /// Id, as the tiles' `sides` name it (not `city`, `road`, `field` or `any`).
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Display name.
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
}

/// A condition on where a tile may be placed beside matching edges (`placement` of a tile).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPlacementRule {
    /// `"continues"`: a side of the edge kind must meet a placed neighbour; `"room-ahead"`:
    /// every open end of that kind keeps room to go on (`readings.open_end`).
    pub rule: Sp<RawPlacementKind>,
    /// The declared edge kind (`[[edge]]`) it is about.
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub edge: Sp<Id>,
    /// The rule id a refused placement cites.
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub cites: Sp<String>,
}

/// What a placement rule asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawPlacementKind {
    /// A side of the edge kind meets a placed neighbour.
    Continues,
    /// Every side of the edge kind facing an empty cell keeps room ahead.
    RoomAhead,
}

/// A side of a cell: `N`, `E`, `S`, `W` (tile picture upright, north up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum RawSide {
    /// North.
    N,
    /// East.
    E,
    /// South.
    S,
    /// West.
    W,
}

/// A half-edge: `Nw Ne En Es Se Sw Ws Wn` (west half of the north side, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum RawHalf {
    /// West half of the north side.
    Nw,
    /// East half of the north side.
    Ne,
    /// North half of the east side.
    En,
    /// South half of the east side.
    Es,
    /// East half of the south side.
    Se,
    /// West half of the south side.
    Sw,
    /// South half of the west side.
    Ws,
    /// North half of the west side.
    Wn,
}

/// Kind of a segment (a piece of one feature inside one cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RawSegmentKind {
    /// A city piece: touches city sides (`sides`).
    City,
    /// A road segment: touches road sides (`sides`); one side = the road ends on the tile.
    Road,
    /// A field area: touches half-edges (`halves`); none = an inner field.
    Field,
    /// A cloister (or other building scored by its 8-neighbourhood); touches nothing.
    Cloister,
    /// The wonder building: on no feature, carries the marker (W-5, W-19); touches nothing.
    Wonder,
}

/// A tile-set file (`tiles/*.toml`): set metadata, tiles, and rulebook facts.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "tegula tile set")]
pub struct TileSetFile {
    /// The set (expansion) the tiles of this file belong to. Several files may share a set id
    /// (e.g. one file per wonder).
    pub set: SetInfo,
    /// The tiles.
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub tile: Vec<Sp<RawTile>>,
    /// Rulebook facts the compiled tiles must satisfy, each citing its rule id.
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub fact: Vec<Sp<RawFact>>,
    /// Abilities of tiles of this file (docs/RULE-LANGUAGE.md), each naming its tile; by convention
    /// at the end of the file.
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub ability: Vec<Sp<RawAbility>>,
    /// Rules this file declares for itself (an author's new wonder or expansion), citable here
    /// and by every variant that uses the file (docs/FORMAT.md, "Rules of your own").
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub rule: Vec<Sp<RawRule>>,
    /// Edge kinds this file's tiles use beside city, road and field (docs/FORMAT.md, "Edge
    /// kinds").
    #[serde(default)]
    #[schemars(length(max = 8))]
    pub edge: Vec<Sp<RawEdgeKind>>,
    /// Single-holder tokens (docs/RULE-LANGUAGE.md, "Tokens, counters and tracks").
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub token: Vec<Sp<crate::raw_when::RawToken>>,
    /// Kinds of counter tiles carry (docs/RULE-LANGUAGE.md, "Tokens, counters and tracks").
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub counter: Vec<Sp<crate::raw_when::RawCounter>>,
    /// Shared tracks (docs/RULE-LANGUAGE.md, "Tokens, counters and tracks").
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub track: Vec<Sp<crate::raw_when::RawTrack>>,
    /// Neutral figures (docs/RULE-LANGUAGE.md, "Neutral figures").
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub neutral: Vec<Sp<crate::raw_when::RawNeutral>>,
    /// Rules of the one form: when EVENT, if TEST, then EFFECTS (docs/RULE-LANGUAGE.md, "The one
    /// rule form"); a set's come first, in the variant's set order, then the variant's own.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub when: Vec<Sp<crate::raw_when::RawWhen>>,
}

/// A rule the data declares (`[[rule]]`): what the registry (`tegula rules`) holds for the
/// published rules, for a rule of the author's own.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRule {
    /// Rule id, new to the registry (e.g. `FM-2`): upper-case letters, a dash, digits.
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub id: Sp<String>,
    /// Short title.
    #[schemars(length(min = 1, max = 200))]
    pub title: String,
    /// The rule in the author's words, one paragraph.
    #[schemars(length(min = 1, max = 4000))]
    pub statement: String,
    /// Where it comes from (a rulebook and section, or "fan-made").
    #[schemars(length(min = 1, max = 500))]
    pub source: String,
}

/// Metadata of a set.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetInfo {
    /// Set id, e.g. `base`, `abbey-mayor`, `wonders-1`.
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Display name.
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// How pictures mark segment tags of this file's tiles (`tegula render`, board pictures, the
    /// replay viewer): each entry draws a small symbol on every segment carrying its tag.
    /// Tags without an entry are not drawn.
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub glyphs: Vec<Sp<RawGlyph>>,
    /// Rule ids the placement events of every tile of this file cite (docs/FORMAT.md, "Cited
    /// rules"), e.g. the rule that brings the set's tiles into the game.
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub rules: Vec<Sp<String>>,
}

/// A picture's mark for one segment tag: a shape in a colour (docs/FORMAT.md, "Glyphs").
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGlyph {
    /// The segment tag it marks; some segment of the file must carry it.
    pub tag: Sp<String>,
    /// The symbol's shape.
    pub shape: GlyphShape,
    /// Fill colour, `#rrggbb`.
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"))]
    pub colour: String,
}

/// Shapes a [`RawGlyph`] may draw: plain symbols, named by what they look like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GlyphShape {
    /// A small house with a gabled roof.
    House,
    /// A building with a pointed spire and a cross.
    Spire,
    /// A filled circle.
    Circle,
    /// A filled square.
    Square,
    /// A filled diamond.
    Diamond,
    /// A filled triangle, point up.
    Triangle,
}

/// One tile type: either a single cell (`sides`) or a mega tile (`cells`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTile {
    /// Tile id, unique across everything loaded together (e.g. `D`, `am-11`, `notre-dame`).
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Display name.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub name: Option<String>,
    /// Copies in the draw pile (the start copy, if any, is extra).
    #[schemars(range(min = 1, max = 1000))]
    pub count: Sp<u64>,
    /// One extra copy of this tile is the start tile (B-1).
    #[serde(default)]
    pub start: bool,
    /// Tile-level tags rules may refer to (e.g. `wonder`, `abbey`).
    #[serde(default)]
    #[schemars(length(max = 32))]
    pub tags: Vec<Sp<String>>,
    /// Single-cell tiles: the kinds of the sides N, E, S, W (in that order).
    #[serde(default)]
    #[schemars(length(min = 4, max = 4))]
    pub sides: Option<Sp<Vec<Sp<RawSideKind>>>>,
    /// Mega tiles: the cells, at local coordinates (x east, y south). The first cell is the anchor.
    /// At most 8 cells (`MAX_CELLS`: the compiler's limit and the width of the engine's cell mask).
    #[serde(default)]
    #[schemars(length(min = 1, max = crate::caps::MAX_CELLS))]
    pub cells: Option<Sp<Vec<Sp<RawCell>>>>,
    /// The segments (feature pieces) of the tile.
    #[schemars(length(min = 1, max = 200))]
    pub segments: Vec<Sp<RawSegment>>,
    /// Mega tiles: how segments meeting on inner sides are joined or kept apart.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub connections: Vec<Sp<RawConnection>>,
    /// Free text for authors (e.g. the documented shape choice of a wonder).
    #[serde(default)]
    pub note: Option<String>,
    /// Conditions on where the tile may be placed beside matching edges (docs/FORMAT.md,
    /// "Placement rules").
    #[serde(default)]
    #[schemars(length(max = 8))]
    pub placement: Vec<Sp<RawPlacementRule>>,
    /// Rule ids this tile's placement events cite besides its set's `rules` (docs/FORMAT.md,
    /// "Cited rules").
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub rules: Vec<Sp<String>>,
}

/// A cell of a mega tile.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCell {
    /// Cell id, unique within the tile (e.g. `centre`, `top`).
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Local coordinates `[x, y]`, x east, y south.
    #[schemars(length(min = 2, max = 2))]
    pub at: Sp<Vec<Sp<i64>>>,
    /// Kinds of the sides N, E, S, W. Inner sides (facing another cell of the tile) are stated too
    /// and must agree with the facing cell.
    #[schemars(length(min = 4, max = 4))]
    pub sides: Sp<Vec<Sp<RawSideKind>>>,
}

/// A segment: one feature's piece inside one cell.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSegment {
    /// Segment id, unique within the tile.
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// What it is.
    pub kind: Sp<RawSegmentKind>,
    /// Mega tiles: the id of the cell this segment lies in (required there).
    #[serde(default)]
    pub cell: Option<Sp<Id>>,
    /// City / road: the sides it touches.
    #[serde(default)]
    #[schemars(length(max = 4))]
    pub sides: Vec<Sp<RawSide>>,
    /// Field: the half-edges it touches (none = an inner field).
    #[serde(default)]
    #[schemars(length(max = 8))]
    pub halves: Vec<Sp<RawHalf>>,
    /// City: pennants (coats of arms) on this piece (0–2).
    #[serde(default)]
    #[schemars(range(max = 2))]
    pub pennants: Sp<u8>,
    /// Field: ids of the city segments (of this tile) it borders (B-6).
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub borders: Vec<Sp<Id>>,
    /// Field: cities of its cell it borders where the half-edges cannot show it (an inner field,
    /// a field reaching a wall round a road's end, a bridge), with the reason; see
    /// docs/FORMAT.md, "Field borders". Not repeated in `borders`.
    #[serde(default)]
    pub hidden_borders: Option<Sp<RawHiddenBorders>>,
    /// Tags rules may refer to (e.g. `religious`, `inn`, `cathedral`).
    #[serde(default)]
    #[schemars(length(max = 32))]
    pub tags: Vec<Sp<String>>,
}

/// Borders of a field that its half-edges cannot show, and why the drawing has them.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawHiddenBorders {
    /// Ids of city segments of the field's cell.
    #[schemars(length(min = 1, max = 200))]
    pub cities: Vec<Sp<Id>>,
    /// What in the drawing makes the field touch them (required, not blank).
    #[schemars(length(max = 2000))]
    pub reason: Sp<String>,
}

/// A connection between two segments of different cells of a mega tile, across an inner side.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConnection {
    /// Connection id, unique within the tile; variants refer to it to override it (W-21).
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// The two segment ids (same kind, facing each other across an inner side).
    #[schemars(length(min = 2, max = 2))]
    pub segments: Sp<Vec<Sp<Id>>>,
    /// `true`: one feature (blue circle); `false`: explicitly kept apart (red circle).
    pub joined: Sp<bool>,
    /// The rule this connection implements (e.g. `W-21`).
    #[serde(default)]
    pub rule: Option<Sp<String>>,
}

/// Where a fact's numbers come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RawFactSource {
    /// The rulebook states them (the fact gives a `quote`).
    #[default]
    Rulebook,
    /// The data's reconstruction derives them from its chosen shape (the fact gives a
    /// `derivation`).
    Reconstruction,
}

impl RawFactSource {
    /// The spelling in the files.
    pub fn as_str(self) -> &'static str {
        match self {
            RawFactSource::Rulebook => "rulebook",
            RawFactSource::Reconstruction => "reconstruction",
        }
    }
}

/// A rulebook fact: expectations about a tile (`tile = "…"`) or the whole file / variant.
/// Every key given is checked against what the geometry compiles to.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFact {
    /// Rule id the fact comes from (e.g. `B-1`, `W-18`); shown with any mismatch.
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Sp<String>,
    /// The tile the fact is about; absent = every tile of the file (or variant).
    #[serde(default)]
    pub tile: Option<Sp<Id>>,
    /// Where the numbers come from: `"rulebook"` (the rulebook states them; give `quote`) or
    /// `"reconstruction"` (the data's chosen shape yields them; give `derivation`).
    pub source: Sp<RawFactSource>,
    /// The rulebook's words that state the numbers (required with `source = "rulebook"`): the
    /// seed's own phrase or the rule registry's statement (`tegula rules ID`).
    #[serde(default)]
    #[schemars(length(max = 2000))]
    pub quote: Option<Sp<String>>,
    /// How the reconstruction's chosen shape gives the numbers (required with
    /// `source = "reconstruction"`).
    #[serde(default)]
    #[schemars(length(max = 2000))]
    pub derivation: Option<Sp<String>>,
    /// Free text (what the numbers mean).
    #[serde(default)]
    pub note: Option<String>,
    /// Number of tiles (copies, start copy included).
    #[serde(default)]
    pub tiles: Option<Sp<u64>>,
    /// Number of tile types.
    #[serde(default)]
    pub types: Option<Sp<u64>>,
    /// Number of start tiles.
    #[serde(default)]
    pub start_tiles: Option<Sp<u64>>,
    /// Number of pennants (over all copies).
    #[serde(default)]
    pub pennants: Option<Sp<u64>>,
    /// Number of cloisters (over all copies).
    #[serde(default)]
    pub cloisters: Option<Sp<u64>>,
    /// Number of cells (per tile).
    #[serde(default)]
    pub cells: Option<Sp<u64>>,
    /// Number of city features (per tile).
    #[serde(default)]
    pub cities: Option<Sp<u64>>,
    /// Number of road features (per tile).
    #[serde(default)]
    pub roads: Option<Sp<u64>>,
    /// Number of field features (per tile).
    #[serde(default)]
    pub fields: Option<Sp<u64>>,
    /// Cells spanned by each city feature, as a multiset (order ignored), e.g. `[2]`.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub city_cells: Option<Sp<Vec<u64>>>,
    /// Cells spanned by each road feature, as a multiset, e.g. `[2, 1, 1]`.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub road_cells: Option<Sp<Vec<u64>>>,
    /// Open (outer) ends of each road feature, as a multiset, e.g. `[2, 1]`.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub road_ends: Option<Sp<Vec<u64>>>,
    /// Number of field features that border no city (W-19).
    #[serde(default)]
    pub fields_without_city: Option<Sp<u64>>,
    /// Number of wonder buildings.
    #[serde(default)]
    pub wonders: Option<Sp<u64>>,
    /// Segments carrying each named segment tag, over all copies (e.g. `{ inn = 6 }`); a tag no
    /// segment carries counts 0. At most 100 tags.
    #[serde(default)]
    #[schemars(extend("maxProperties" = 100))]
    pub tags: Option<BTreeMap<String, Sp<u64>>>,
    /// Tiles carrying each named tile-level tag (a tile's own `tags`), over all copies (e.g.
    /// `{ gold = 8 }`, GM-1); a tag no tile carries counts 0. At most 100 tags.
    #[serde(default)]
    #[schemars(extend("maxProperties" = 100))]
    pub tile_tags: Option<BTreeMap<String, Sp<u64>>>,
    /// Number of sides of a declared edge kind (`[[edge]]`, e.g. water) over all copies.
    #[serde(default)]
    pub declared_edges: Option<Sp<u64>>,
}

/// A variant file (`variants/*.toml`): which tiles, how many players, followers, house rules.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "tegula variant")]
#[schemars(extend(
    "if" = { "not": { "required": ["extends"] } },
    "then" = { "required": ["players", "sets", "followers"] }
))]
pub struct VariantFile {
    /// The variant file this one changes (a path relative to this file): tables merge key by
    /// key, other values are replaced, facts are not inherited (docs/FORMAT.md, "Inheritance").
    /// Without it, `players`, `sets` and `followers` are required.
    #[serde(default)]
    pub extends: Option<Sp<String>>,
    /// Variant id (by convention the file name without `.toml`).
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Display name.
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// Allowed player counts.
    #[serde(default = "any_players")]
    pub players: Sp<PlayerRange>,
    /// Tile files or folders (paths relative to this file), each with a multiplicity.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub sets: Vec<Sp<RawSetRef>>,
    /// Follower types every player receives.
    #[serde(default)]
    #[schemars(length(min = 1, max = 16))]
    pub followers: Vec<Sp<RawFollower>>,
    /// Tiles in every player's hand: 1 is the normal game (draw one, place it); N: hold N
    /// tiles, draw up to N, place one (the mechanism of W-12). Default 1.
    #[serde(default)]
    #[schemars(range(min = 1, max = 8))]
    pub hand: Option<Sp<u8>>,
    /// Lists added to the inherited ones instead of replacing them (applied when the chain is
    /// merged; docs/FORMAT.md, "Inheritance").
    #[serde(default)]
    pub append: Option<Sp<RawAppend>>,
    /// How many of a follower type each player has, by follower id (changes `count`).
    #[serde(default)]
    pub follower_count: std::collections::BTreeMap<Id, Sp<RawFollowerCount>>,
    /// How many copies of a tile are in the pile, by tile id (0 removes it; the start tile's
    /// start copy stays).
    #[serde(default)]
    pub tile_count: std::collections::BTreeMap<Id, Sp<RawTileCount>>,
    /// Tiles every player holds in their own supply (taken out of the draw pile).
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub player_tiles: Vec<Sp<RawPlayerTile>>,
    /// Scoring parameters that differ from the standard rules (house rules).
    #[serde(default)]
    pub scoring: Option<Sp<RawScoring>>,
    /// Feature values as expressions over the feature's counts (docs/FORMAT.md, "Values");
    /// absent keys keep `[scoring]`'s numbers.
    #[serde(default)]
    pub values: Option<Sp<RawValues>>,
    /// The rulebook's *Readings* this variant decides otherwise (the rule registry's "Reading"
    /// entries, `tegula rules ID`; docs/FORMAT.md, "Rule parameters"); absent keys keep the
    /// registry's reading.
    #[serde(default)]
    pub readings: Option<Sp<RawReadings>>,
    /// Overrides of mega-tile connections (W-21 meadow connections).
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub connections: Vec<Sp<RawConnectionOverride>>,
    /// Facts about the variant's compiled tiles.
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub fact: Vec<Sp<RawFact>>,
    /// The open pool of tiles taken at score thresholds (W-1 .. W-4, W-30).
    #[serde(default)]
    pub pool: Option<Sp<RawPool>>,
    /// Ability overrides: the entries naming a tile replace all abilities that tile's file
    /// gives it (docs/RULE-LANGUAGE.md).
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub ability: Vec<Sp<RawAbility>>,
    /// Rules this variant declares for itself (a house rule's own id), beside those of its
    /// tile sets (docs/FORMAT.md, "Rules of your own").
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub rule: Vec<Sp<RawRule>>,
    /// The start tile, when it is not the one its set marks `start = true`: one pile copy of
    /// this tile starts on the board instead, and the set's start copy goes into the pile.
    #[serde(default)]
    pub start: Option<Sp<Id>>,
    /// Ordered groups of the draw pile (docs/FORMAT.md, "Pile groups"): each group's tiles are
    /// shuffled among themselves and drawn before the next group's; the tiles of no group come
    /// last.
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub pile: Vec<Sp<RawPileGroup>>,
    /// Seat resources: named counters every seat holds, how a seat gains them and what they
    /// are worth at the end (docs/FORMAT.md, "Seat resources").
    #[serde(default)]
    #[schemars(length(max = MAX_RESOURCES))]
    pub resource: Vec<Sp<RawResource>>,
    /// The rule ids the game's own steps cite (docs/FORMAT.md, "Cited rules"); absent keys
    /// cite the registry's standard rules.
    #[serde(default)]
    pub citations: Option<Sp<RawCitations>>,
    /// Single-holder tokens (docs/RULE-LANGUAGE.md, "Tokens, counters and tracks").
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub token: Vec<Sp<crate::raw_when::RawToken>>,
    /// Kinds of counter tiles carry (docs/RULE-LANGUAGE.md, "Tokens, counters and tracks").
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub counter: Vec<Sp<crate::raw_when::RawCounter>>,
    /// Shared tracks (docs/RULE-LANGUAGE.md, "Tokens, counters and tracks").
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub track: Vec<Sp<crate::raw_when::RawTrack>>,
    /// Neutral figures (docs/RULE-LANGUAGE.md, "Neutral figures").
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub neutral: Vec<Sp<crate::raw_when::RawNeutral>>,
    /// Named sets of follower ids (the figure table of an action expansion as data), for
    /// an effect's `figures` (docs/RULE-LANGUAGE.md, "Neutral figures").
    #[serde(default)]
    pub groups: Option<crate::raw_when::RawGroups>,
    /// Rules of the one form: when EVENT, if TEST, then EFFECTS (docs/RULE-LANGUAGE.md, "The one
    /// rule form"); a set's come first, in the variant's set order, then the variant's own.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub when: Vec<Sp<crate::raw_when::RawWhen>>,
    /// Kinds of stack (docs/RULE-LANGUAGE.md, "Stacks and held figures").
    #[serde(default)]
    #[schemars(length(max = 8))]
    pub stack: Vec<Sp<crate::raw_when::RawStack>>,
}

/// The rule ids the steps every game has cite (`[citations]`).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCitations {
    /// Placing a tile: refused placements and figure placements with no more particular rule,
    /// and a tile that fits nowhere outside a pile group with its own rule (default `B-2`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub placement: Option<Sp<String>>,
    /// A feature scored during the game (default `B-4`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub scoring: Option<Sp<String>>,
    /// A feature scored at the end of the game, fields included (default `B-6`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub final_scoring: Option<Sp<String>>,
}

/// A seat resource (`[[resource]]`): a named counter every seat holds, starting at 0.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawResource {
    /// Id, unique in the variant (events, logs and scenarios name the resource by it).
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Display name (default: the id).
    #[serde(default)]
    pub name: Option<String>,
    /// How a seat gains it; absent: only a scenario's `[setup]` gives it.
    #[serde(default)]
    pub gain: Option<Sp<RawResourceGain>>,
    /// What holding the most of it is worth at the end; absent: nothing.
    #[serde(default)]
    pub award: Option<Sp<RawResourceAward>>,
    /// How many each seat holds at setup: a number, or `[players, count]` pairs (default 0).
    #[serde(default)]
    pub start: Option<Sp<crate::raw_when::RawStart>>,
}

/// When a feature of kind `completed` is completed during the game (never in final scoring),
/// the seat that placed the tile completing it gains `amount`, whoever wins the feature.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawResourceGain {
    /// The kind of feature whose completion gains.
    pub completed: Sp<RawFeatureKind>,
    /// How much, as a value expression over the completed feature's counts (docs/FORMAT.md,
    /// "Values"), e.g. `"count(wine)"`: the segments of the feature tagged `wine`.
    #[schemars(length(min = 1, max = 1000))]
    pub amount: Sp<String>,
    /// Rule id the gain events cite (e.g. `TB-2`).
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Sp<String>,
}

/// At the end, each seat holding the most of the resource scores `most` points; ties all score;
/// a seat holding none never scores it.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawResourceAward {
    /// Points to each seat holding the most (e.g. `10`, TB-3).
    #[schemars(range(min = 1, max = MAX_POINTS))]
    pub most: Sp<u32>,
    /// Rule id the award events cite (e.g. `TB-3`).
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Sp<String>,
}

/// One ordered group of the draw pile (`[[pile]]`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPileGroup {
    /// Ids of the tiles whose pile copies are in this group.
    #[schemars(length(min = 1, max = 1000))]
    pub tiles: Vec<Sp<Id>>,
    /// Rule id cited when a drawn tile of this group fits nowhere and leaves the game (default
    /// B-2).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub unplaceable_rule: Option<Sp<String>>,
    /// Rule id the draw events of this group's tiles cite (default: none).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub draw_rule: Option<Sp<String>>,
}

/// The lists a variant adds to those it inherits (`[append]`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAppend {
    /// More tile sets.
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub sets: Vec<Sp<RawSetRef>>,
    /// More follower types.
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub followers: Vec<Sp<RawFollower>>,
    /// More own tiles.
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub player_tiles: Vec<Sp<RawPlayerTile>>,
    /// More W-21 connection overrides.
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub connections: Vec<Sp<RawConnectionOverride>>,
    /// More ability overrides.
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub ability: Vec<Sp<RawAbility>>,
    /// More tokens of the one rule form.
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub token: Vec<Sp<crate::raw_when::RawToken>>,
    /// More tile counters of the one rule form.
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub counter: Vec<Sp<crate::raw_when::RawCounter>>,
    /// More shared tracks of the one rule form.
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub track: Vec<Sp<crate::raw_when::RawTrack>>,
    /// Neutral figures (docs/RULE-LANGUAGE.md, "Neutral figures").
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub neutral: Vec<Sp<crate::raw_when::RawNeutral>>,
    /// More rules of the one form.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub when: Vec<Sp<crate::raw_when::RawWhen>>,
}

/// A follower count (1–50), the value of a `follower_count` entry.
pub type RawFollowerCount = u64;

/// A tile count (0–1000), the value of a `tile_count` entry.
pub type RawTileCount = u64;

fn any_players() -> Sp<PlayerRange> {
    // Only used for a file that `extends` another and is read alone (the schema requires
    // `players` otherwise); the merged chain always has the root's.
    Sp::unspanned(PlayerRange {
        min: 1,
        max: 8,
        above: None,
    })
}

/// Allowed player counts.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerRange {
    /// Fewest players.
    #[schemars(range(min = 1, max = 8))]
    pub min: u8,
    /// Most players.
    #[schemars(range(min = 1, max = 8))]
    pub max: u8,
    /// The rule that allows seating more than `above.count` players: a game with more players
    /// than that cites it once, at its start (docs/FORMAT.md, "Cited rules").
    #[serde(default)]
    pub above: Option<Sp<RawSeatsRule>>,
}

/// `above = { count = 5, rule = "IC-6" }` in `players`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSeatsRule {
    /// Games seating more players than this cite `rule`; less than `max`.
    #[schemars(range(min = 1, max = 7))]
    pub count: Sp<u8>,
    /// Rule id.
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Sp<String>,
}

/// A reference from a variant to tile data.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSetRef {
    /// A tile-set file or a folder of them, relative to the variant file.
    pub path: Sp<String>,
    /// Multiplicity: every count in it is multiplied by this (default 1).
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 16))]
    pub copies: Sp<u64>,
    /// Only these tile ids (default: all).
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub only: Option<Vec<Sp<Id>>>,
}

fn one() -> Sp<u64> {
    Sp::unspanned(1)
}

/// A follower type ("figure"): where it may stand, how strong it is, what happens after its
/// feature is scored, and (corner figures only) how it scores its field. Every key but `id` and
/// `count` has a default that makes a standard follower (B-2, B-4, B-5).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFollower {
    /// Id, e.g. `meeple`, `large-meeple`.
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Display name.
    #[serde(default)]
    pub name: Option<String>,
    /// How many each player has.
    #[schemars(range(min = 1, max = 50))]
    pub count: Sp<u64>,
    /// Strength for majorities (B-5): an integer, or a value expression over the counts of the
    /// feature it stands on, e.g. `"pennants"` (as many as the pennants of its city, AM-5).
    /// Default 1; a corner figure is in no majority and defaults to 0.
    #[serde(default)]
    pub strength: Option<Sp<RawStrength>>,
    /// Where it may be placed (default `["road", "city", "cloister", "field"]`); `["corner"]`
    /// for a figure standing where four cells meet (AM-6).
    #[serde(default)]
    #[schemars(length(max = 5))]
    pub sites: Option<Sp<Vec<Sp<RawSite>>>>,
    /// Whether it may join a feature that already holds a follower (default `false`, B-2).
    #[serde(default)]
    pub joins_occupied: Option<Sp<bool>>,
    /// What happens to it after its feature is scored during the game (default `"return"`, B-4).
    #[serde(default)]
    pub after_score: Option<Sp<RawAfterScore>>,
    /// With `after_score = "move"`: which features count as adjacent (default
    /// `"neighbourhood"`, AM-11).
    #[serde(default)]
    pub adjacency: Option<Sp<RawAdjacency>>,
    /// Corner figures only: what the field it stands on pays when it is placed, joined and at
    /// the end (AM-7..AM-9).
    #[serde(default)]
    pub corner: Option<Sp<RawCornerScoring>>,
    /// A placement precondition: the feature must already hold at least one of the owner's
    /// occupying figures (default `false`; TB-4, TB-7).
    #[serde(default)]
    pub needs_own_figure: Option<Sp<bool>>,
    /// Whether it occupies its feature (default `true`). One that does not never stops another
    /// player's figure from joining and counts for no majority: its strength is 0 (TB-4).
    #[serde(default)]
    pub occupies: Option<Sp<bool>>,
    /// A payment modifier: added to its owner's payment from the feature it stands on when the
    /// owner is among that feature's majority (TB-8).
    #[serde(default)]
    pub payment: Option<Sp<RawPayment>>,
    /// A turn effect: when a placement of the owner's extends a feature that already held
    /// this figure (TB-5).
    #[serde(default)]
    pub when_extended: Option<Sp<RawTurnEffect>>,
    /// Rule id the events placing this figure from supply cite (default: none; docs/FORMAT.md,
    /// "Cited rules").
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub place_rule: Option<Sp<String>>,
    /// Rule id the events returning this figure to supply cite (default: none).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub return_rule: Option<Sp<String>>,
    /// Rule id a placement of this figure cites when it is refused for where it would stand:
    /// not one of its sites, its precondition unmet, no corner (default: `place_rule`, else
    /// `[citations] placement`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub site_rule: Option<Sp<String>>,
    /// With `after_score = "move"`: rule id a refused move cites (default: `[citations]
    /// placement`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub move_rule: Option<Sp<String>>,
    /// Segment tags it never stands on (the meeple and `garden`, AB-1): a feature with a
    /// segment carrying one of them is no site of it.
    #[serde(default)]
    #[schemars(length(min = 1, max = 16))]
    pub never_tags: Option<Sp<Vec<Sp<String>>>>,
    /// Segment tags it stands only on: a feature is a site of it only when some segment of it
    /// carries one of them.
    #[serde(default)]
    #[schemars(length(min = 1, max = 16))]
    pub only_tags: Option<Sp<Vec<Sp<String>>>>,
}

/// A figure's payment modifier (`payment = { rule = "TB-8", value = "cities" }`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPayment {
    /// Rule id its score events cite.
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Sp<String>,
    /// The addition: a value expression over the counts of the feature paid (docs/FORMAT.md,
    /// "Values"); checked for every kind of feature the figure stands on.
    #[schemars(length(max = 2000))]
    pub value: Sp<String>,
}

/// A figure's turn effect (`when_extended = { rule = "TB-5", effect = "extra-turn" }`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTurnEffect {
    /// Rule id its events cite.
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Sp<String>,
    /// What the owner gets.
    pub effect: Sp<RawTurnAction>,
    /// Whether a placement that extends the feature and completes it at once still triggers
    /// (default `true`, TB-5's reading).
    #[serde(default)]
    pub completing: Option<Sp<bool>>,
}

/// The effect of a turn effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawTurnAction {
    /// After this turn the owner takes one more (not with the pile empty); a turn granted this
    /// way grants none.
    ExtraTurn,
}

/// Strength of a figure: a constant, or a value expression.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum RawStrength {
    /// A constant strength (meeple 1, large meeple 2).
    Fixed(u64),
    /// A value expression over the counts of the feature the figure stands on
    /// (docs/FORMAT.md, "Values"), checked for every kind of feature it stands on.
    Value(String),
}

/// The most strength a constant may have.
pub const MAX_STRENGTH: u64 = 10;

impl JsonSchema for RawStrength {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RawStrength".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Strength for majorities (B-5): an integer 0..10, or a value \
                expression over the counts of the feature it stands on (docs/FORMAT.md, \
                \"Values\"), e.g. `pennants` (as many as the pennants of its city, AM-5).",
            "anyOf": [
                { "type": "integer", "minimum": 0, "maximum": MAX_STRENGTH },
                {
                    "type": "string",
                    "maxLength": 2000,
                    "description": "A value expression over the counts of the feature it \
                        stands on, e.g. `pennants` or `if pennants > 2 then 3 else pennants`."
                }
            ]
        })
    }
}

/// Where a figure may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RawSite {
    /// On a road of the tile just placed.
    Road,
    /// On a city of the tile just placed.
    City,
    /// On a cloister (or cloister-like building) of the tile just placed.
    Cloister,
    /// On a field of the tile just placed (a farmer).
    Field,
    /// On a corner of the tile just placed where four filled cells meet, all four field (AM-6).
    Corner,
}

/// What happens to a figure after its feature is scored during the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RawAfterScore {
    /// Back to its owner's supply (B-4).
    Return,
    /// Stays where it is (corner figures, AM-7..AM-9).
    Stay,
    /// Its owner may move it to an adjacent unfinished, unoccupied feature, or take it back
    /// (AM-11, AM-12).
    Move,
}

/// Which features count as adjacent for a figure that moves after scoring (AM-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RawAdjacency {
    /// The registry's reading (AM-11): features on the figure's tile or on tiles in the 8 cells
    /// around it (a mega tile counts whole).
    Neighbourhood,
    /// The older reading: features connected to the scored one through a shared tile.
    Connected,
}

/// How a corner figure scores its field: each of its three payments as a value expression over
/// the field's counts (`place = "3 * cities"`), or as a number per completed city the field
/// borders (`place_per_city = 3`, the same). Each payment is given one way.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCornerScoring {
    /// On placement, to the field's farmer majority; the farmers return (AM-7; `3 * cities`).
    #[serde(default)]
    #[schemars(length(max = 2000))]
    pub place: Option<Sp<String>>,
    /// When a placement joins a field with farmers to its field, to the farmer majority of the
    /// joined field; the farmers return (AM-8; `cities`).
    #[serde(default)]
    #[schemars(length(max = 2000))]
    pub join: Option<Sp<String>>,
    /// At the end, to its owner (AM-9; `4 * cities`).
    #[serde(default, rename = "final")]
    #[schemars(length(max = 2000))]
    pub final_: Option<Sp<String>>,
    /// Shorthand for `place = "N * cities"`.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub place_per_city: Option<Sp<u32>>,
    /// Shorthand for `join = "N * cities"`.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub join_per_city: Option<Sp<u32>>,
    /// Shorthand for `final = "N * cities"`.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub final_per_city: Option<Sp<u32>>,
    /// Rule id the payment on placement cites (default `AM-7`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub place_rule: Option<Sp<String>>,
    /// Rule id the payment of a join cites, and a follower refused on its field (default
    /// `AM-8`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub join_rule: Option<Sp<String>>,
    /// Rule id the final payment cites (default `AM-9`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub final_rule: Option<Sp<String>>,
}

/// A tile each player holds in their own supply instead of it being in the draw pile (AM-1).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPlayerTile {
    /// Id of a tile of the variant (e.g. `abbey`); its copies leave the draw pile.
    pub tile: Sp<Id>,
    /// How many each player holds.
    #[schemars(range(min = 1, max = 255))]
    pub count: Sp<u64>,
    /// Where it may be placed (default `"anywhere"`).
    #[serde(default)]
    pub site: Option<Sp<RawTileSite>>,
    /// Whether players still holding it may place it after the last pile tile (AM-4; default
    /// `false`).
    #[serde(default)]
    pub final_round: Option<Sp<bool>>,
    /// Rule id a refused placement of it cites (default `AM-1`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Option<Sp<String>>,
}

/// Where a player's own tile may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RawTileSite {
    /// Only into a hole: an empty cell with all four orthogonal neighbours filled (AM-1).
    Hole,
    /// Anywhere a drawn tile could go (B-2).
    Anywhere,
}

/// House-rule scoring parameters; absent keys keep the standard rules (B-4, B-6).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScoring {
    /// Completed road, per tile.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub road_complete_per_tile: Option<Sp<u32>>,
    /// Incomplete road at the end, per tile.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub road_incomplete_per_tile: Option<Sp<u32>>,
    /// Completed city, per tile.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub city_complete_per_tile: Option<Sp<u32>>,
    /// Completed city, per pennant.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub city_complete_per_pennant: Option<Sp<u32>>,
    /// Incomplete city at the end, per tile.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub city_incomplete_per_tile: Option<Sp<u32>>,
    /// Incomplete city at the end, per pennant.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub city_incomplete_per_pennant: Option<Sp<u32>>,
    /// Legacy: completed 2-tile city, per tile (1 makes it worth 2).
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub small_city_per_tile: Option<Sp<u32>>,
    /// Completed cloister.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub cloister_complete: Option<Sp<u32>>,
    /// Incomplete cloister: base points.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub cloister_incomplete_base: Option<Sp<u32>>,
    /// Incomplete cloister: per surrounding tile.
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub cloister_incomplete_per_neighbour: Option<Sp<u32>>,
    /// Field: per completed bordering city (legacy: 4).
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub field_per_city: Option<Sp<u32>>,
    /// Whether incomplete roads, cities and cloisters score at the end (B-6; default `true`).
    /// `false` scores only completed features and fields.
    #[serde(default)]
    pub final_incomplete: Option<bool>,
    /// How fields score at the end: `"per-field"` (B-6, default) or `"per-city"` (the first
    /// edition: each completed city once, to the farmer majority over all its fields).
    #[serde(default)]
    pub field_rule: Option<RawFieldRule>,
}

/// `[values]`: a value expression per feature kind and state (docs/FORMAT.md, "Values").
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawValues {
    /// Roads: `complete` (B-4) and `incomplete` (B-6).
    #[serde(default)]
    pub road: Option<RawStateValues>,
    /// Cities: `complete` (B-4) and `incomplete` (B-6).
    #[serde(default)]
    pub city: Option<RawStateValues>,
    /// Cloisters: `complete` (B-4) and `incomplete` (B-6).
    #[serde(default)]
    pub cloister: Option<RawStateValues>,
    /// Fields: `end`, the value of a field at the end of the game (B-6).
    #[serde(default)]
    pub field: Option<RawFieldValues>,
}

/// The values of one kind when completed and when incomplete at the end.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStateValues {
    /// Value when completed during the game (B-4), e.g. `"2 * tiles + 2 * pennants"`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1000))]
    pub complete: Option<Sp<String>>,
    /// Value when still incomplete at the end (B-6), e.g. `"tiles + pennants"`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1000))]
    pub incomplete: Option<Sp<String>>,
}

/// The value of a field.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFieldValues {
    /// Value at the end of the game (B-6), e.g. `"3 * cities"`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1000))]
    pub end: Option<Sp<String>>,
}

/// The rulebook's *Readings*, each a named choice whose default is the registry's reading.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawReadings {
    /// AM-4: who places first in the final round of player tiles: `"next-seat"` (default: the
    /// seat after the one that placed the last tile) or `"last-placer"` (that player first).
    #[serde(default)]
    pub final_round_first: Option<Sp<tegula_ruleset::FinalRoundFirst>>,
    /// W-10: which cells are near a building for a `near_building` condition: `"around"`
    /// (default: the 8 cells around the building's cell) or `"around-or-on"` (its own cell too).
    #[serde(default)]
    pub near_building: Option<Sp<tegula_ruleset::NearCells>>,
    /// W-3: after the pairs moved, whom a player compared again must reach: `"new-position"`
    /// (default) or `"old-position"` (where they stood when the turn's takes began).
    #[serde(default)]
    pub threshold_recheck: Option<Sp<tegula_ruleset::ThresholdRecheck>>,
    /// W-6: which tiles drawn for a pool tile that fits nowhere are placed: `"enabling"`
    /// (default: only where the pool tile can then touch it, others removed) or `"any-fit"`
    /// (wherever it fits; only a tile that fits nowhere is removed).
    #[serde(default)]
    pub pool_tile_draw: Option<Sp<tegula_ruleset::PoolTileDraw>>,
    /// W-12: who plays the tiles still kept in hands when the pile is empty: `"keeper"`
    /// (default) or `"next-seat"` (they are the pile's last tiles, played by the seats in turn).
    #[serde(default)]
    pub kept_after_pile: Option<Sp<tegula_ruleset::KeptAfterPile>>,
    /// AM-8: what scores when a placement joins farmer fields to a corner-figure field:
    /// `"whole-field"` (default: the joined field, to all its farmers' majority) or
    /// `"each-field"` (each field that held farmers before, its own cities to its own majority).
    #[serde(default)]
    pub joined_field_scoring: Option<Sp<tegula_ruleset::JoinedFieldScoring>>,
    /// AM-8: when a join to a corner-figure field scores: `"at-once"` (default: as the tile is
    /// placed, before the figure decision) or `"scoring-step"` (after it, with the turn's
    /// scoring).
    #[serde(default)]
    pub joined_field_timing: Option<Sp<tegula_ruleset::JoinedFieldTiming>>,
    /// R-4: what room the open end of a line of declared edges needs under a `room-ahead`
    /// placement rule: `"room"` (default: the two cells ahead and the cells beside them empty)
    /// or `"no-repeated-turn"` (only no two turns in a row the same way).
    #[serde(default)]
    pub open_end: Option<Sp<tegula_ruleset::OpenEnd>>,
    /// TB-4: whether a figure with `needs_own_figure` may go on a road or city the tile just
    /// placed completes: `"allowed"` (default: it returns with the feature's scoring, TB-6) or
    /// `"refused"` (the best-known Java engine's reading).
    #[serde(default)]
    pub needs_own_on_completed: Option<Sp<tegula_ruleset::NeedsOwnOnCompleted>>,
    /// PD-3: where tiles set aside go back into the pile: `"random-positions"` (default: each
    /// at a random position of the remaining pile, from the game's seeded source) or
    /// `"bottom"` (under it, in the order set aside).
    #[serde(default)]
    pub shuffle_back: Option<Sp<tegula_ruleset::ShuffleBack>>,
    /// PD-6's second Reading (PD-12, TO-4 too): when a rule's effect takes the last figure of a
    /// seat's off a feature, that seat's figures there that need an own figure (a builder, a
    /// pig) `"stays"` (default) or `"leaves"` with it.
    #[serde(default)]
    pub needs_own_alone: Option<Sp<tegula_ruleset::NeedsOwnAlone>>,
    /// PD-4: when a walk a `before-scoring` rule starts is made: `"before-scoring"` (default:
    /// between the figure step and the turn's scoring) or `"after-scoring"`.
    #[serde(default)]
    pub walk_timing: Option<Sp<tegula_ruleset::WalkTiming>>,
}

/// The field procedure at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawFieldRule {
    /// B-6: each field scores every completed city it borders, to its own farmer majority.
    PerField,
    /// First edition: each completed city scores once, to the farmer majority over all the
    /// fields bordering it.
    PerCity,
}

/// Override of one mega-tile connection (W-21).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConnectionOverride {
    /// Tile id (e.g. `stonehenge`).
    pub tile: Sp<Id>,
    /// Connection id within that tile.
    pub connection: Sp<Id>,
    /// New value.
    pub joined: Sp<bool>,
    /// Rule cited (normally `W-21`).
    #[serde(default)]
    pub rule: Option<Sp<String>>,
}

/// A tile's ability in the rule language (docs/RULE-LANGUAGE.md): when it acts, under which
/// conditions, and what it does for the tile's owner.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAbility {
    /// The tile that has the ability (in a tile-set file: a tile of that file).
    pub tile: Sp<Id>,
    /// Rule id the ability implements, cited by its score events (e.g. `W-13`).
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Sp<String>,
    /// When it acts.
    pub when: Sp<RawTrigger>,
    /// `feature-completed` / `feature-scored` only (required there): the kind of feature.
    #[serde(default)]
    pub feature: Option<Sp<RawFeatureKind>>,
    /// `feature-completed` only: only in the owner's turn (default `false`).
    #[serde(default)]
    pub owners_turn: Option<Sp<bool>>,
    /// `feature-scored` only: not in final scoring (default `false`).
    #[serde(default)]
    pub during_game_only: Option<Sp<bool>>,
    /// Silent in the turn the tile itself is placed (default `false`).
    #[serde(default)]
    pub not_in_placing_turn: Option<Sp<bool>>,
    /// Conditions that must all hold (default: none).
    #[serde(default)]
    pub conditions: Option<Sp<RawConditions>>,
    /// The owner scores points (every trigger but `draw`).
    #[serde(default)]
    pub score: Option<Sp<RawScore>>,
    /// `draw` only: the owner's hand holds this many tiles (W-12: 2).
    #[serde(default)]
    #[schemars(range(min = 2, max = 8))]
    pub hand: Option<Sp<u64>>,
    /// The owner gains a seat resource (every trigger but `draw`).
    #[serde(default)]
    pub gain: Option<Sp<RawAbilityGain>>,
    /// `extra_turn = true`: the owner takes one more turn after this one (`follower-placed`, or
    /// `feature-completed` with `owners_turn = true`: triggers that act in the owner's turn).
    #[serde(default)]
    pub extra_turn: Option<Sp<bool>>,
    /// Free text (the rulebook's words).
    #[serde(default)]
    pub note: Option<String>,
}

/// An ability's gain of a seat resource (`gain = { resource, amount }`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAbilityGain {
    /// The resource's id (a `[[resource]]` of the variant).
    pub resource: Sp<String>,
    /// How much: a value expression (docs/FORMAT.md, "Values") over the triggering feature's
    /// counts under `feature-completed` / `feature-scored` (e.g. `"count(wine)"`), an integer
    /// under the other triggers (default `"1"`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1000))]
    pub amount: Option<Sp<String>>,
}

/// When an ability acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawTrigger {
    /// The owner places a figure from supply on a feature (once per placement).
    FollowerPlaced,
    /// A feature of kind `feature` is completed (once per feature, before its own scoring).
    FeatureCompleted,
    /// A feature of kind `feature` is scored (once per feature, before its figures return).
    FeatureScored,
    /// At the end of the game, before final scoring (W-20).
    GameEnd,
    /// The owner's draw (with `hand`).
    Draw,
}

/// A kind of feature an ability refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RawFeatureKind {
    /// A city.
    City,
    /// A road.
    Road,
    /// A field.
    Field,
    /// A cloister (or cloister-like building).
    Cloister,
}

impl RawFeatureKind {
    /// The engine's kind.
    pub fn lowered(self) -> tegula_ruleset::FeatureKind {
        use tegula_ruleset::FeatureKind as K;
        match self {
            RawFeatureKind::City => K::City,
            RawFeatureKind::Road => K::Road,
            RawFeatureKind::Field => K::Field,
            RawFeatureKind::Cloister => K::Cloister,
        }
    }
}

/// Conditions of an ability; absent keys are no condition.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConditions {
    /// `follower-placed` only: the figure's cell is one of the 8 cells around a cloister, or
    /// around a feature with this tag (`"cloister"`: cloisters only) (W-10).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub near_building: Option<Sp<String>>,
    /// `feature-completed` / `feature-scored` only: the feature holds at least one figure (W-11).
    #[serde(default)]
    pub occupied: Option<Sp<bool>>,
    /// `feature-completed` / `feature-scored` only: the feature covers at least this many cells
    /// (W-13: 3).
    #[serde(default)]
    #[schemars(range(min = 1, max = 1000))]
    pub min_tiles: Option<Sp<u64>>,
    /// `feature-completed` / `feature-scored` only: the owner has a figure on the feature (W-13).
    #[serde(default)]
    pub owner_present: Option<Sp<bool>>,
}

/// A per-point table: `[threshold, points]` pairs, thresholds increasing.
pub type PerTable = Vec<Sp<PerStep>>;

/// One entry of a per-point table: `[threshold, points]`: from this many players or tiles on,
/// this many points per counted thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct PerStep(
    /// From this many players or tiles on.
    #[schemars(range(max = MAX_GAME_CELLS))]
    pub u64,
    /// Points per counted thing.
    #[schemars(range(max = MAX_POINTS))]
    pub u64,
);

/// Points for the owner: `per` (or a per table) times what `count` counts.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScore {
    /// Points per counted thing, a constant (exactly one of `per`, `per_players`, `per_tiles`).
    #[serde(default)]
    #[schemars(range(max = MAX_POINTS))]
    pub per: Option<Sp<u64>>,
    /// Points per counted thing by the number of players: `[least players, points]` pairs in
    /// increasing order (W-14: `[[2, 4], [3, 3], [5, 2]]`).
    #[serde(default)]
    #[schemars(length(max = 8))]
    pub per_players: Option<Sp<PerTable>>,
    /// Points per counted thing by the number of tiles in the game: `[least tiles, points]`
    /// pairs in increasing order (W-15: `[[0, 5], [120, 6]]`).
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub per_tiles: Option<Sp<PerTable>>,
    /// `feature-completed` / `feature-scored` only: the points as a value expression over the
    /// triggering feature's counts (docs/FORMAT.md, "Values"), e.g. `"tiles"`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1000))]
    pub per_value: Option<Sp<String>>,
    /// What is counted (default `"one"`).
    #[serde(default)]
    pub count: Option<Sp<RawCount>>,
    /// `followers`: whose (default `"own"`).
    #[serde(default)]
    pub owner: Option<Sp<RawOwner>>,
    /// `followers`: on which kind of feature (default: any); `features`: which kind (required).
    #[serde(default)]
    pub feature: Option<Sp<RawFeatureKind>>,
    /// `followers` / `features`: the feature's state (default `"any"`).
    #[serde(default)]
    pub state: Option<Sp<RawState>>,
    /// `features`: least size in cells (default 1).
    #[serde(default)]
    #[schemars(range(min = 1, max = 1000))]
    pub min_tiles: Option<Sp<u64>>,
    /// `lines`: least gap-free run of filled cells in a row or column (required; W-17: 7).
    #[serde(default)]
    #[schemars(range(max = 1000))]
    pub min_run: Option<Sp<u64>>,
    /// `count = "features"` only: only features with a segment carrying this tag.
    #[serde(default)]
    pub tag: Option<Sp<String>>,
}

/// What an ability counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawCount {
    /// Once.
    One,
    /// Figures on features (each once, whatever its strength).
    Followers,
    /// Features of a kind.
    Features,
    /// Rows and columns with a gap-free run of filled cells.
    Lines,
}

/// Whose figures are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawOwner {
    /// The ability's owner.
    Own,
    /// Every other player.
    Others,
    /// Anyone.
    Anyone,
}

/// A feature's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawState {
    /// Complete (B-3).
    Complete,
    /// Not complete.
    Incomplete,
    /// Either.
    Any,
}

/// The open pool of tiles (the wonders) taken when a score reaches a threshold (W-1 .. W-4,
/// W-30).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPool {
    /// Tiles with this tile tag form the pool; they leave the draw pile.
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub tag: Sp<String>,
    /// Tiles each player picks into the pool at setup (W-1: 1; 0 = every pool tile; default 1).
    #[serde(default)]
    #[schemars(range(max = 16))]
    pub pick: Option<Sp<u64>>,
    /// Where the marker pairs stand on the score track and how they move (W-2).
    pub thresholds: Sp<RawThresholds>,
    /// Score at which a player takes a second tile (W-30: 50); absent = one tile each (W-4).
    #[serde(default)]
    #[schemars(range(max = 10000))]
    pub second: Option<Sp<u64>>,
    /// The figures gained with a take; one of them marks the placed tile (W-2, W-5).
    pub gain: Sp<RawGain>,
    /// The rule ids the pool's steps cite; absent keys cite the registry's (W-2 .. W-7).
    #[serde(default)]
    pub rules: Option<Sp<RawPoolRules>>,
}

/// The rule ids the pool's steps cite (`[pool] rules`).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPoolRules {
    /// A take of a tile not among the pool's choices (default `W-2`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub take: Option<Sp<String>>,
    /// The choice of the seat that takes next when several reached the threshold together
    /// (default `W-3`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub choice: Option<Sp<String>>,
    /// A taken tile is placed instead of drawing; no follower on its unscored feature (default
    /// `W-5`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub place: Option<Sp<String>>,
    /// A taken tile that fits nowhere: tiles are drawn and placed for it (default `W-6`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub fit: Option<Sp<String>>,
    /// Which figures may follow a pool tile (default `W-7`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub follow: Option<Sp<String>>,
}

/// The score thresholds of the pool (W-2).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawThresholds {
    /// Where the pairs start (W-2: 10).
    #[schemars(range(max = 10000))]
    pub first: Sp<u64>,
    /// How far the remaining pairs move after each take (W-2: 5).
    #[schemars(range(max = 10000))]
    pub step: Sp<u64>,
    /// The furthest the pairs go; they wait there (W-2: 25).
    #[schemars(range(max = 10000))]
    pub cap: Sp<u64>,
}

/// Figures gained with a take from the pool.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGain {
    /// Id of a follower type of the variant.
    pub follower: Sp<Id>,
    /// How many come with the first take (W-2: 2); one of them marks the tile (W-5).
    #[schemars(range(min = 1, max = 50))]
    pub first: Sp<u64>,
    /// How many come with the second take (W-30: 1); only with `second`.
    #[serde(default)]
    #[schemars(range(min = 1, max = 50))]
    pub second: Option<Sp<u64>>,
}

impl<T: Default> Default for Sp<T> {
    fn default() -> Self {
        Sp::unspanned(T::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_id_follows_the_schema_pattern() {
        let schema = crate::schema::variant_schema();
        assert_eq!(schema["properties"]["id"]["pattern"], ID_PATTERN);
        for good in ["base", "farms-4", "a.b_c", &"x".repeat(64)] {
            assert!(is_id(good), "{good}");
        }
        for bad in [
            "",
            "..",
            "../x",
            "/etc/x",
            "a/b",
            "-a",
            ".a",
            "é",
            &"x".repeat(65),
        ] {
            assert!(!is_id(bad), "{bad}");
        }
    }
}
