//! [`Rules`]: a [`Ruleset`] checked once and turned into the flat lookup tables the move loop uses
//! (packed side signatures per rotation, per-cell port tables, feature facts).

use tegula_ruleset::{
    Adjacency, CornerScoring, FeatureKind, Linear, Ruleset, SideKind, NO_FEATURE,
};

mod build;
pub use build::MAX_PLAYERS;
mod error;
pub(crate) mod joins;
pub(crate) mod when;

pub use error::{RulesError, RulesReason, TileProblem};

/// Most cells a tile may cover (mega tiles have 5).
pub const MAX_TILE_CELLS: usize = 8;

/// One-hot code of a side kind in a 4-bit nibble; `Any` matches everything (all bits).
pub(crate) fn side_bits(k: SideKind) -> u16 {
    match k {
        SideKind::City => 1,
        SideKind::Road => 2,
        SideKind::Field => 4,
        // The one free bit of the nibble: at most one declared kind (`limits::MAX_EDGE_KINDS`).
        SideKind::Declared(_) => 8,
        SideKind::Any => 0xF,
    }
}

/// Whether packed signature `sig` fits requirement word `req` on all four sides: every nibble of
/// `sig & req` must be non-zero.
#[inline(always)]
pub(crate) fn fits(sig: u16, req: u16) -> bool {
    let x = sig & req;
    ((x | (x >> 1) | (x >> 2) | (x >> 3)) & 0x1111) == 0x1111
}

/// Code of what a neighbour requires on side `side` of a cell, placed where the cell's
/// requirement code keeps that side: 2 bits at `2 * side` (0 nothing — an empty cell or an
/// `Any` side —, 1 city, 2 road, 3 field) and, for the declared kind (at most one,
/// `limits::MAX_EDGE_KINDS`), bit `8 + side`. The low byte alone indexes the fit tables of
/// variants that declare no edge kind ([`NarrowFit`]), all twelve bits those of variants
/// that do ([`WideFit`]).
pub(crate) const fn side_code(k: SideKind, side: usize) -> u16 {
    match k {
        SideKind::Any => 0,
        SideKind::City => 1 << (2 * side),
        SideKind::Road => 2 << (2 * side),
        SideKind::Field => 3 << (2 * side),
        SideKind::Declared(_) => 1 << (8 + side),
    }
}

/// The bits of a requirement code that hold side `side` ([`side_code`]).
pub(crate) const fn side_code_mask(side: usize) -> u16 {
    3 << (2 * side) | 1 << (8 + side)
}

/// The requirement word of a requirement code ([`side_code`] per side).
pub(crate) fn code_req(code: u16) -> u16 {
    (0..4).fold(0, |req, s| {
        let nib = match (code >> (8 + s) & 1, (code >> (2 * s)) & 3) {
            (1, _) => 8,
            (_, 0) => 0xF,
            (_, 1) => 1,
            (_, 2) => 2,
            _ => 4,
        };
        req | nib << (4 * s)
    })
}

/// A single-cell tile's rotations that fit, for each requirement code of `N` entries (four
/// sides' [`side_code`]s): the draw counts and the pick finds placements by table lookups.
#[derive(Clone, Debug)]
pub(crate) struct FitTables<const N: usize> {
    /// Rotation mask (bit `r`: rotation `r` fits) by code.
    pub rotations: [u8; N],
    /// How many rotations fit by code (the mask's count, one load less in the draw's count).
    pub count: [u8; N],
}

/// Requirement codes without the declared kind's bits (variants that declare none).
const NARROW_CODES: usize = 1 << 8;
/// Requirement codes with them.
const WIDE_CODES: usize = 1 << 12;

impl<const N: usize> FitTables<N> {
    /// The tables of a tile whose four rotations' signatures are `sig4` ([`pack_sigs`]).
    pub(crate) fn new(sig4: u64) -> Self {
        let mut rotations = [0u8; N];
        for (code, m) in (0u16..).zip(rotations.iter_mut()) {
            *m = fit_mask(sig4, code_req(code)) as u8;
        }
        let count = rotations.map(|m| ROT_COUNT[m as usize]);
        FitTables { rotations, count }
    }
}

/// The fit-table lookups of one code width (masked so that they need no bounds check).
pub(crate) trait FitLookup {
    /// How many rotations fit requirement code `code`.
    fn count(&self, code: u16) -> u8;
    /// Which rotations fit it (bit `r`: rotation `r`).
    fn rotations(&self, code: u16) -> u8;
}

impl FitLookup for NarrowFit {
    #[inline(always)]
    fn count(&self, code: u16) -> u8 {
        self.count[usize::from(code as u8)]
    }
    #[inline(always)]
    fn rotations(&self, code: u16) -> u8 {
        self.rotations[usize::from(code as u8)]
    }
}

impl FitLookup for WideFit {
    #[inline(always)]
    fn count(&self, code: u16) -> u8 {
        self.count[usize::from(code) & (WIDE_CODES - 1)]
    }
    #[inline(always)]
    fn rotations(&self, code: u16) -> u8 {
        self.rotations[usize::from(code) & (WIDE_CODES - 1)]
    }
}

/// The 2-bit-code tables.
pub(crate) type NarrowFit = FitTables<NARROW_CODES>;
/// The 3-bit-code tables.
pub(crate) type WideFit = FitTables<WIDE_CODES>;

/// The four rotations' signatures of a single-cell tile packed in one word (rotation `r` in bits
/// `16r..16r+16`).
pub(crate) fn pack_sigs(sigs: [u16; 4]) -> u64 {
    sigs.iter()
        .enumerate()
        .fold(0, |acc, (r, &s)| acc | (s as u64) << (16 * r))
}

/// Bit `r` set iff rotation `r` (of the packed signatures `sig4`) fits `req`: [`fits`] for all four
/// rotations at once, on 16-bit lanes.
#[inline(always)]
pub(crate) fn fit_mask(sig4: u64, req: u16) -> u32 {
    const LOW: u64 = 0x1111_1111_1111_1111;
    const HIGH: u64 = 0x8000_8000_8000_8000;
    let x = sig4 & (req as u64 * 0x0001_0001_0001_0001);
    let y = (x | (x >> 1) | (x >> 2) | (x >> 3)) & LOW;
    // A lane fits iff it equals 0x1111, i.e. iff `lane ^ 0x1111` is zero; lanes stay below
    // 0x1112, so adding 0x7FFF sets bit 15 exactly for the non-zero lanes, without carries.
    let w = y ^ LOW;
    let fit = !(w + 0x7FFF_7FFF_7FFF_7FFF) & HIGH;
    // Gather bits 15, 31, 47, 63 into bits 45..48 with one multiplication.
    (((fit >> 15).wrapping_mul((1 << 45) | (1 << 30) | (1 << 15) | 1) >> 45) & 0xF) as u32
}

/// For each 4-bit rotation mask: its rotations in increasing order (padded with 0), as words so
/// that the generator writes a frontier cell's four candidate slots in one store.
pub(crate) const ROT_ORDER: [[u32; 4]; 16] = {
    let mut t = [[0u32; 4]; 16];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        let mut r = 0;
        while r < 4 {
            if m & (1 << r) != 0 {
                t[m][k] = r;
                k += 1;
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// How many rotations each 4-bit rotation mask admits (a load, cheaper than a bit count on
/// targets without a population-count instruction).
pub(crate) const ROT_COUNT: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut m = 0;
    while m < 16 {
        t[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    t
};

/// One cell of a tile in one rotation, as the engine uses it.
#[derive(Clone, Debug)]
pub(crate) struct RotCell {
    pub dx: i32,
    pub dy: i32,
    /// Packed side signature (nibble per board side, [`side_bits`]); inner sides are `0xF`.
    pub sig: u16,
    /// Side kinds by board side.
    pub sides: [SideKind; 4],
    /// Outer-side bit set.
    pub outer: u8,
    pub side_feature: [u8; 4],
    pub half_feature: [u8; 8],
    /// Bit `k` set when cell corner `k` (`NW, NE, SE, SW`) is field on both of its half-edges
    /// ([`CORNER_HALVES`]): what a corner figure's point needs of each cell around it (AM-6),
    /// read per placement in variants with corner figures.
    pub field_corners: u8,
}

/// The two half-edges of each cell corner, by corner `NW, NE, SE, SW`: `{Wn, Nw}`, `{Ne, En}`,
/// `{Es, Se}`, `{Sw, Ws}`.
pub(crate) const CORNER_HALVES: [(usize, usize); 4] = [(7, 0), (1, 2), (3, 4), (5, 6)];

/// [`RotCell::field_corners`] of a cell's half-edge features.
pub(crate) fn field_corners(half_feature: &[u8; 8]) -> u8 {
    let field = |&(a, b): &(usize, usize)| {
        let f = half_feature[a];
        f != NO_FEATURE && f == half_feature[b]
    };
    (0..4).fold(0, |m, k| m | u8::from(field(&CORNER_HALVES[k])) << k)
}

/// Facts about one tile-local feature.
#[derive(Clone, Debug)]
pub(crate) struct FeatInfo {
    pub kind: FeatureKind,
    pub open_sides: u8,
    pub pennants: u8,
    pub cells: u8,
    /// Bit set over the ruleset's tags (what a value's `count(TAG)` counts).
    pub tags: u32,
    pub borders: Vec<u8>,
}

/// Tables of one tile type.
#[derive(Clone, Debug)]
pub(crate) struct TileInfo {
    pub cell_count: usize,
    /// `rot[r]` = cells in rotation `r`.
    pub rot: [Vec<RotCell>; 4],
    pub feats: Vec<FeatInfo>,
    /// Cloister features by cell index.
    pub cloisters_by_cell: Vec<Vec<u8>>,
    /// Whether the tile is a single cell (fast path).
    pub single: bool,
    /// Single-cell tiles in variants without a declared edge kind: the fit tables by
    /// requirement code ([`side_code`]).
    pub fit: NarrowFit,
    /// Single-cell tiles in variants with one: the fit tables by requirement code with the
    /// declared kind's bits (boxed: 8 KiB).
    pub fit_wide: Option<Box<WideFit>>,
    /// Whether the tile carries placement rules (`TileType::placement`).
    pub has_placement_rules: bool,
    /// The tags the tile or one of its features carries, bit per tag: the hot "does this
    /// tile carry tag T" tests (rule filters, stack sites, walks) read one word.
    pub any_tags: u32,
}

/// How one follower type behaves, in the form the move loop reads.
#[derive(Clone, Debug)]
pub(crate) struct FigureInfo {
    /// Bit `kind as u8` set for every feature kind it may stand on.
    pub site_mask: u8,
    /// Corner scoring, for corner figures (AM-6..AM-9).
    pub corner: Option<CornerScoring>,
    /// Adjacency of its moves after scoring, for figures that move (AM-11).
    pub moves: Option<Adjacency>,
    /// Whether it stays on its feature after scoring.
    pub stays: bool,
    /// Whether it may join an occupied feature.
    pub joins: bool,
    /// Whether it occupies its feature (B-2); a figure that does not is a guest there.
    pub occupies: bool,
    /// Whether its feature must already hold one of the owner's occupying figures.
    pub needs_own: bool,
    /// Sites by tag (AB-1): tag bits one of which its tile-local feature must carry (0: any).
    pub only_tags: u32,
    /// Sites by tag: tag bits its tile-local feature must not carry.
    pub never_tags: u32,
}

impl FigureInfo {
    /// Whether it may stand on a feature of kind `kind`.
    #[inline]
    pub fn stands_on(&self, kind: FeatureKind) -> bool {
        self.site_mask & (1 << kind as u8) != 0
    }

    /// Whether its site tags (AB-1) let it stand on a tile-local feature carrying `tags`.
    #[inline]
    pub fn tags_allow(&self, tags: u32) -> bool {
        (self.only_tags == 0 || tags & self.only_tags != 0) && tags & self.never_tags == 0
    }
}

/// A checked ruleset plus precomputed tables. Build once, share (via `Arc`) between games.
///
/// Two `Rules` are equal when they are the same object or were built from equal rulesets (the
/// tables are computed from the ruleset); hashing them adds nothing, so that [`crate::Game`]'s
/// derived `Hash` costs nothing for its rules.
#[derive(Clone, Debug)]
pub struct Rules {
    ruleset: Ruleset,
    pub(crate) tiles: Vec<TileInfo>,
    /// The placed cells' side words, flat (what the joins of a placement read).
    pub(crate) joins: joins::JoinTables,
    /// The scoring values that are linear ([`Linear`]), by [`Rules::value_slot`]: evaluated
    /// without walking their trees.
    pub(crate) linear_values: [Option<Linear>; 16],
    /// By tile type, the segments a placement adds.
    pub(crate) seg_templates: Vec<crate::game::place::SegTemplate>,
    pub(crate) start_tile: u16,
    /// Largest absolute cell offset of any tile in any rotation.
    pub(crate) max_offset: i32,
    /// The draw pile in ruleset order, pile group by pile group.
    full_pile: Vec<u16>,
    /// Follower behaviour by type.
    pub(crate) figures: Vec<FigureInfo>,
    /// Whether any follower type stands on corners (AM-6).
    pub(crate) any_corner: bool,
    /// Whether a join to a corner-figure field scores each farmer field as it was before the
    /// placement (AM-8, `readings.joined_field_scoring = "each-field"`): then the placement
    /// records those fields before it merges them. Needs a corner figure.
    pub(crate) each_field_joins: bool,
    /// Whether a join to a corner-figure field scores as the tile is placed, before the figure
    /// decision (AM-8, the registry's reading), rather than in the turn's scoring step
    /// (`readings.joined_field_timing = "scoring-step"`).
    pub(crate) joins_at_once: bool,
    /// Whether any follower type may join an occupied feature.
    pub(crate) any_joins: bool,
    /// Whether turns are only draws: no own tiles, no pool, no extra turns and no rules of
    /// the one form (the base game).
    pub(crate) plain_turns: bool,
    /// By feature kind (`kind as usize`), the follower types that may stand on it, bit `k` for
    /// type `k`: the follower options read one mask per feature instead of every type's facts.
    pub(crate) figs_on_kind: [u16; 8],
    /// The follower types that may join an occupied feature, bit per type.
    pub(crate) joining_figs: u16,
    /// The follower types that need one of their owner's figures on the feature, bit per type.
    pub(crate) needs_own_figs: u16,
    /// Of those, the types that may not go on a feature the tile just placed completes (TB-4's
    /// other reading, [`tegula_ruleset::NeedsOwnOnCompleted::Refused`]); 0 under the registry's.
    pub(crate) open_only_figs: u16,
    /// The follower types that occupy nothing and need an own figure (TB-7), bit per
    /// type: AM-8 keeps only followers off a corner-figure field, so these may go on one where
    /// their owner's figure still stands (a join left for the scoring step).
    pub(crate) corner_guest_figs: u16,
    /// The corner figure types (AM-6), bit per type: the corner options of every placement mask
    /// the supply with it instead of reading every type's facts.
    pub(crate) corner_figs: u16,
    /// The follower types with site tags (AB-1), bit per type: the figure options of a feature
    /// test its tags only when a type on offer has some.
    pub(crate) tag_sited_figs: u16,
    /// The tags that make a placed tile a stack's site, bit per tag: a placement of a tile
    /// carrying one notes it among the sites, which the sites' offers read instead of every
    /// placed tile. 0 in a variant without stacks.
    pub(crate) stack_site_tags: u32,
    /// The rules of the one form by event kind ([`Ruleset::when`]).
    pub(crate) when: when::WhenIndex,
    /// Whether some rule of the one form waits for `feature-paid` (a figure's `payment`, TB-8,
    /// is lowered to one): the majority payments raise it only then.
    pub(crate) any_payment: bool,
    /// Whether any follower type gives an extra turn when its feature is extended.
    pub(crate) any_extra_turn: bool,
    /// By tile type: whether the seat placing it owns its abilities (a tile with abilities that
    /// is not an open-pool tile, whose owner the pool records); empty when no tile is such.
    pub(crate) owns_on_place: Vec<bool>,
    /// Whether every follower type stands on roads, cities, cloisters and fields only, joins
    /// nothing occupied and is no corner figure (the base game's figures).
    pub(crate) plain_figures: bool,
    /// The pieces the variant deals besides players' own tiles: pile, start tile, pool (W-15's
    /// "tiles in the game"; a mega tile counts once).
    pub(crate) dealt: u32,
    /// Tiles in every player's hand ([`Ruleset::hand`], read once here: the draw reads a field).
    pub(crate) hand: u8,
    /// The state hash's key of one remaining tile, by tile type (a draw subtracts its key).
    pub(crate) left_keys: Vec<u64>,
    /// Pile group of each tile type (`Ruleset::pile_groups`; the tiles of no group are in the
    /// last). Empty when the pile is one group.
    pub(crate) group_of: Vec<u8>,
    /// Where each group of [`Rules::pile`] ends (empty when the pile is one group).
    pub(crate) group_ends: Vec<usize>,
}

impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        std::ptr::eq(self, other) || self.ruleset() == other.ruleset()
    }
}

// Rulesets are checked by `Rules::new` (no NaN parameters), so equality is reflexive.
impl Eq for Rules {}

impl std::hash::Hash for Rules {
    fn hash<H: std::hash::Hasher>(&self, _state: &mut H) {}
}

impl Rules {
    /// The ruleset these tables were built from.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// Where the value of a feature of `kind` (completed during the game with `during`) is in
    /// [`Rules::linear_values`].
    #[inline]
    pub(crate) fn value_slot(kind: FeatureKind, during: bool) -> usize {
        kind as usize * 2 + usize::from(during)
    }

    /// Index of the tile type with id `id`.
    pub fn tile_index(&self, id: &str) -> Option<u16> {
        self.ruleset
            .tiles
            .iter()
            .position(|t| t.id == id)
            .map(|i| i as u16)
    }

    /// Id of tile type `tile` (`"?"` if out of range).
    pub fn tile_id(&self, tile: u16) -> &str {
        self.ruleset
            .tiles
            .get(tile as usize)
            .map(|t| t.id.as_str())
            .unwrap_or("?")
    }

    /// Index of the tile-local feature of `tile` that contains the segment named `segment`.
    pub fn feature_index(&self, tile: u16, segment: &str) -> Option<u8> {
        let t = self.ruleset.tiles.get(tile as usize)?;
        t.features
            .iter()
            .position(|f| f.segments.iter().any(|s| s == segment))
            .map(|i| i as u8)
    }

    /// Name of a tile-local feature: its first segment id.
    pub fn feature_name(&self, tile: u16, feature: u8) -> &str {
        self.ruleset
            .tiles
            .get(tile as usize)
            .and_then(|t| t.features.get(feature as usize))
            .and_then(|f| f.segments.first())
            .map(|s| s.as_str())
            .unwrap_or("?")
    }

    /// Index of the follower type with id `id`.
    pub fn follower_index(&self, id: &str) -> Option<u8> {
        self.ruleset
            .followers
            .iter()
            .position(|f| f.id == id)
            .map(|i| i as u8)
    }

    /// Id of follower type `follower`.
    pub fn follower_id(&self, follower: u8) -> &str {
        self.ruleset
            .followers
            .get(follower as usize)
            .map(|f| f.id.as_str())
            .unwrap_or("?")
    }

    /// The draw pile in ruleset order: each tile type repeated `count` times (start copy
    /// excluded), pile group by pile group (`Ruleset::pile_groups`) when the variant has them.
    pub fn pile(&self) -> Vec<u16> {
        self.full_pile.clone()
    }

    /// [`Rules::pile`] without copying.
    pub(crate) fn pile_slice(&self) -> &[u16] {
        &self.full_pile
    }

    /// The pile group of tile type `tile` (`Ruleset::pile_groups` are drawn in order; the tiles
    /// of no group last; 0 when the pile is one group).
    pub fn pile_group(&self, tile: u16) -> u8 {
        self.group(tile)
    }

    #[inline]
    pub(crate) fn group(&self, tile: u16) -> u8 {
        self.group_of.get(tile as usize).copied().unwrap_or(0)
    }

    /// The first position of `pile` whose tile belongs to an earlier group than the tile before
    /// it, if any (a pile must draw its groups in order).
    pub(crate) fn group_order_break(&self, pile: &[u16]) -> Option<usize> {
        if self.group_of.is_empty() {
            return None;
        }
        let groups: Vec<u8> = pile.iter().map(|&t| self.group(t)).collect();
        groups.windows(2).position(|w| w[1] < w[0]).map(|i| i + 1)
    }

    /// The rule a tile that fits nowhere leaves the game by: its pile group's, else the
    /// placement rule the data cites ([`tegula_ruleset::Citations::placement`]).
    pub(crate) fn unplaceable_rule(&self, tile: u16) -> &str {
        let group = self.ruleset.pile_groups.get(self.group(tile) as usize);
        group
            .and_then(|g| g.unplaceable_rule.as_deref())
            .unwrap_or(self.placement_rule())
    }

    /// The rule a tile's placement cites unless a more particular one applies (refusals).
    #[inline]
    pub fn placement_rule(&self) -> &str {
        &self.ruleset.citations.placement
    }

    /// The rule a feature scored during the game (`during`) or at the end cites.
    #[inline]
    pub(crate) fn scoring_rule(&self, during: bool) -> &str {
        let c = &self.ruleset.citations;
        if during {
            &c.scoring
        } else {
            &c.final_scoring
        }
    }

    /// The rule a placement of figure type `ftype` refused for where it would stand cites:
    /// its `site_rule`, else its `place_rule`, else the placement rule.
    pub(crate) fn site_rule(&self, ftype: u8) -> &str {
        let f = self.ruleset.followers.get(usize::from(ftype));
        f.and_then(|f| f.site_rule.as_deref().or(f.place_rule.as_deref()))
            .unwrap_or(self.placement_rule())
    }

    /// The rule a pool tile that fits nowhere, and a tile drawn for it that cannot serve, leave
    /// the game by: the pool's `fit` rule, else the placement rule.
    pub(crate) fn pool_fit_rule(&self) -> &str {
        let pool = self.ruleset.pool.as_ref();
        pool.map_or(self.placement_rule(), |p| &p.rules.fit)
    }

    /// The payments of the first corner figure type, which the corner refusals cite.
    pub(crate) fn corner_scoring(&self) -> Option<&tegula_ruleset::CornerScoring> {
        self.ruleset
            .followers
            .iter()
            .find_map(|f| f.corner.as_ref())
    }

    /// The rule the draw events of `tile` cite: its pile group's `draw_rule`, if any.
    #[inline]
    pub(crate) fn draw_rule(&self, tile: u16) -> Option<&str> {
        let group = self.ruleset.pile_groups.get(self.group(tile) as usize);
        group.and_then(|g| g.draw_rule.as_deref())
    }

    /// Index of the start tile.
    pub fn start_tile(&self) -> u16 {
        self.start_tile
    }

    /// Cells covered by the open pool's tiles (W-1), for sizing the board.
    pub(crate) fn pool_cells(&self) -> usize {
        let pool = self.ruleset.pool.as_ref();
        pool.map_or(0, |p| {
            p.tiles
                .iter()
                .map(|&t| self.tiles[t as usize].cell_count)
                .sum()
        })
    }

    /// Cells covered by the tiles one player holds at the start (AM-1), for sizing the board.
    pub(crate) fn held_cells(&self) -> usize {
        let pts = &self.ruleset.player_tiles;
        pts.iter()
            .map(|p| p.count as usize * self.tiles[p.tile as usize].cell_count)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_mask_equals_fits_per_rotation() {
        // Exhaustive over every requirement word built from the five per-side values.
        let vals = [0xFu16, 1, 2, 4];
        let kinds = [
            SideKind::City,
            SideKind::Road,
            SideKind::Field,
            SideKind::Any,
        ];
        let mut sigs = Vec::new();
        for a in kinds {
            for b in kinds {
                for c in kinds {
                    for d in kinds {
                        sigs.push(
                            side_bits(a)
                                | side_bits(b) << 4
                                | side_bits(c) << 8
                                | side_bits(d) << 12,
                        );
                    }
                }
            }
        }
        for (i, _) in sigs.iter().enumerate().step_by(7) {
            let four = [
                sigs[i],
                sigs[(i + 5) % sigs.len()],
                sigs[(i + 11) % sigs.len()],
                sigs[(i + 13) % sigs.len()],
            ];
            let packed = pack_sigs(four);
            for a in vals {
                for b in vals {
                    for c in vals {
                        for d in vals {
                            let req = a | b << 4 | c << 8 | d << 12;
                            let want = (0..4).fold(0, |m, r| m | (fits(four[r], req) as u32) << r);
                            assert_eq!(fit_mask(packed, req), want, "{four:x?} {req:x}");
                        }
                    }
                }
            }
        }
        assert_eq!(ROT_ORDER[0b1010], [1, 3, 0, 0]);
    }

    #[test]
    fn fit_tables_agree_with_fits() {
        // B-2 fast path: the per-code tables give exactly the rotations `fits` accepts.
        // Both code widths; a declared side (the wide codes' 4) on a base tile fits nothing.
        let rules = Rules::new(crate::testkit::base_ruleset()).unwrap();
        let want = |t: &TileInfo, req: u16| {
            (0..4).fold(0u8, |m, r| m | (fits(t.rot[r][0].sig, req) as u8) << r)
        };
        for t in &rules.tiles {
            let sig4 = pack_sigs([0, 1, 2, 3].map(|r| t.rot[r][0].sig));
            let wide = WideFit::new(sig4);
            for code in 0..=u16::MAX {
                let (narrow_req, wide_req) = (code_req(code & 0xFF), code_req(code & 0xFFF));
                assert_eq!(t.fit.rotations(code), want(t, narrow_req));
                assert_eq!(wide.rotations(code), want(t, wide_req));
                assert_eq!(wide.count(code), want(t, wide_req).count_ones() as u8);
            }
        }
        assert_eq!(code_req(0), 0xFFFF);
        assert_eq!(code_req(0b11_10_01_00), 0x421F);
        // The declared kind requires exactly its bit.
        assert_eq!(code_req(0b0100_0000_0000), 0xF8FF);
        let codes = [
            SideKind::City,
            SideKind::Road,
            SideKind::Field,
            SideKind::Declared(0),
        ];
        for (s, k) in codes.into_iter().enumerate() {
            assert_eq!(side_code(k, s) & !side_code_mask(s), 0, "{k:?} on side {s}");
            assert_eq!(code_req(side_code(k, s)) >> (4 * s) & 0xF, side_bits(k));
        }
    }

    #[test]
    fn fits_checks_every_nibble() {
        // B-2: every shared edge must match; Any (AM-1) matches everything; empty = 0xF.
        let city = side_bits(SideKind::City);
        let road = side_bits(SideKind::Road);
        let sig = city | road << 4 | city << 8 | road << 12;
        assert!(fits(sig, 0xFFFF));
        // North needs a city (ok), east needs a city (the tile shows a road).
        assert!(!fits(sig, 0xFF11));
        assert!(fits(sig, 0xFF21));
        assert!(!fits(sig, 0xFFF2));
        assert!(fits(0xFFFF, 0x1241));
        assert!(fits(sig, 0xF1F1));
        assert!(fits(sig, 0x2F2F));
        assert!(!fits(sig, 0xF4F1));
    }
}
