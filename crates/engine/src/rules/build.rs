//! Making [`Rules`] from a [`Ruleset`]: every check the move loop relies on, each fault a typed
//! [`RulesReason`], then the flat tables.

use tegula_ruleset::limits::{MAX_EDGE_KINDS, MAX_GAME_CELLS, MAX_RESOURCES};
use tegula_ruleset::{
    AfterScore, Condition, FeatureKind, JoinedFieldTiming, Linear, NeedsOwnOnCompleted, Ruleset,
    Side, SideKind, Strength, TileSite, TileType, NO_FEATURE,
};

use super::error::{RulesError, RulesReason, TileProblem};
use super::{
    field_corners, pack_sigs, side_bits, FeatInfo, FigureInfo, NarrowFit, RotCell, Rules, TileInfo,
    WideFit, MAX_TILE_CELLS,
};

/// Most follower types (figure bit sets are 16 wide).
const MAX_FOLLOWER_TYPES: usize = 16;
/// Most players a variant may seat (per-seat strength tables are 32 wide).
pub const MAX_PLAYERS: u8 = 32;

impl Rules {
    /// Read a compiled ruleset artefact (`tegula compile VARIANT --format json`, a versioned
    /// JSON file described by `schema/ruleset.schema.json`) and build the tables: a program
    /// embedding the engine ships the artefact, not the TOML compiler.
    pub fn from_json(text: &str) -> Result<Rules, RulesError> {
        let ruleset = Ruleset::from_json(text).map_err(|e| RulesError {
            reasons: vec![RulesReason::Artefact(e)],
        })?;
        Rules::new(ruleset)
    }

    /// Check `ruleset` and build the tables. Reports every problem found.
    pub fn new(ruleset: Ruleset) -> Result<Rules, RulesError> {
        let mut reasons = Vec::new();
        check_counts(&ruleset, &mut reasons);
        let start_tile = start_tile(&ruleset, &mut reasons);
        let mut max_offset = 0;
        let mut tiles = Vec::with_capacity(ruleset.tiles.len());
        for t in &ruleset.tiles {
            match tile_info(t) {
                Ok((info, offset)) => {
                    max_offset = max_offset.max(offset);
                    tiles.push(info);
                }
                Err(problems) => {
                    reasons.extend(problems.into_iter().map(|problem| RulesReason::Tile {
                        tile: t.id.clone(),
                        problem,
                    }));
                    tiles.push(dummy_tile());
                }
            }
        }
        if !ruleset.edge_kinds.is_empty() {
            widen_fit_tables(&mut tiles);
        }
        let figures = figures(&ruleset, &mut reasons);
        check_pool(&ruleset, &mut reasons);
        check_player_tiles(&ruleset, &tiles, &mut reasons);
        check_abilities(&ruleset, &mut reasons);
        check_edges_and_groups(&ruleset, &mut reasons);
        super::when::check_when(&ruleset, &mut reasons);
        super::when::check_unlowered(&ruleset, &mut reasons);
        super::when::check_stacks(&ruleset, &mut reasons);
        if ruleset.hand == 0 {
            reasons.push(RulesReason::EmptyHand);
        }
        if !reasons.is_empty() {
            return Err(RulesError { reasons });
        }
        Ok(assemble(ruleset, tiles, figures, start_tile, max_offset))
    }
}

/// The sizes the engine's tables bound: tile and follower types, players, cells of a game.
fn check_counts(ruleset: &Ruleset, reasons: &mut Vec<RulesReason>) {
    let tiles = ruleset.tiles.len();
    if tiles == 0 {
        reasons.push(RulesReason::NoTiles);
    }
    if tiles > u16::MAX as usize - 1 {
        reasons.push(RulesReason::TooManyTileTypes { count: tiles });
    }
    let followers = ruleset.followers.len();
    if followers > MAX_FOLLOWER_TYPES {
        reasons.push(RulesReason::TooManyFollowerTypes {
            count: followers,
            max: MAX_FOLLOWER_TYPES,
        });
    }
    let (min, max) = (ruleset.min_players, ruleset.max_players);
    if min == 0 || min > max {
        reasons.push(RulesReason::PlayerRange { min, max });
    }
    if max > MAX_PLAYERS {
        reasons.push(RulesReason::TooManyPlayers {
            players: max,
            max: MAX_PLAYERS,
        });
    }
    let resources = &ruleset.resources;
    if resources.len() > MAX_RESOURCES {
        reasons.push(RulesReason::TooManyResources {
            count: resources.len(),
            max: MAX_RESOURCES,
        });
    }
    let named_before = |i: usize| resources[..i].iter().any(|r| r.id == resources[i].id);
    if let Some(i) = (0..resources.len()).find(|&i| named_before(i)) {
        reasons.push(RulesReason::DuplicateResource(resources[i].id.clone()));
    }
    let cells = ruleset.game_cells(max);
    if cells > MAX_GAME_CELLS {
        reasons.push(RulesReason::TooManyCells {
            cells,
            max: MAX_GAME_CELLS,
        });
    }
}

/// Abilities name tags by index into [`Ruleset::tags`], tested as bits of a feature's `u32` tag
/// set: an index past either would test the wrong bit (or shift past the width).
fn check_abilities(ruleset: &Ruleset, reasons: &mut Vec<RulesReason>) {
    let tags = ruleset.tags.len().min(u32::BITS as usize);
    for t in &ruleset.tiles {
        for a in &t.abilities {
            for c in &a.conditions {
                if let Condition::Near { tag: Some(g) } = *c {
                    if g as usize >= tags {
                        reasons.push(RulesReason::AbilityTag {
                            tile: t.id.clone(),
                            rule: a.rule.clone(),
                            tag: g,
                            tags,
                        });
                    }
                }
            }
        }
    }
}

/// Declared edge kinds fit the side signatures and every tile shows only declared ones; pile
/// groups name existing tiles, each in one group at most.
fn check_edges_and_groups(ruleset: &Ruleset, reasons: &mut Vec<RulesReason>) {
    let kinds = ruleset.edge_kinds.len();
    if kinds > MAX_EDGE_KINDS {
        let max = MAX_EDGE_KINDS;
        reasons.push(RulesReason::TooManyEdgeKinds { count: kinds, max });
    }
    for t in &ruleset.tiles {
        let sides = t
            .rotations
            .iter()
            .flat_map(|r| &r.cells)
            .flat_map(|c| c.sides);
        let bad = sides.filter_map(|k| match k {
            SideKind::Declared(i) if i as usize >= kinds => Some(i),
            _ => None,
        });
        if let Some(kind) = bad.min() {
            let tile = t.id.clone();
            reasons.push(RulesReason::EdgeKindOutOfRange { tile, kind });
        }
    }
    if ruleset.pile_groups.len() >= u8::MAX as usize {
        let group = ruleset.pile_groups.len();
        reasons.push(RulesReason::PileGroupTile { group, tile: 0 });
    }
    let mut seen = vec![false; ruleset.tiles.len()];
    for (group, g) in ruleset.pile_groups.iter().enumerate() {
        for &tile in &g.tiles {
            match seen.get_mut(tile as usize) {
                Some(s) if !*s => *s = true,
                _ => reasons.push(RulesReason::PileGroupTile { group, tile }),
            }
        }
    }
}

/// The start tile's index (0 after a reason, so that the other checks still run).
fn start_tile(ruleset: &Ruleset, reasons: &mut Vec<RulesReason>) -> u16 {
    match ruleset.start_tile {
        Some(s) if (s as usize) < ruleset.tiles.len() => s,
        Some(s) => {
            reasons.push(RulesReason::StartTileOutOfRange(s));
            0
        }
        None => {
            reasons.push(RulesReason::NoStartTile);
            0
        }
    }
}

/// One tile type's tables and its largest absolute cell offset, or every problem found.
fn tile_info(t: &TileType) -> Result<(TileInfo, i32), Vec<TileProblem>> {
    if let Some(p) = shape_problem(t) {
        return Err(vec![p]);
    }
    let n = t.cell_count as usize;
    let mut problems = Vec::new();
    let feats = feat_infos(t, n, &mut problems);
    let (rot, max_offset) = rot_cells(t, n, &mut problems);
    for (r, cells) in rot.iter().enumerate() {
        for (ci, c) in cells.iter().enumerate() {
            check_sides(r, ci, c, cells, &feats, &mut problems);
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let rules = !t.placement.is_empty();
    let mut info = finish_tile(n, rot, feats, rules);
    info.any_tags = info.feats.iter().fold(t.tags, |m, f| m | f.tags);
    Ok((info, max_offset))
}

/// A fault that leaves nothing else to check: the cell, rotation or feature count.
fn shape_problem(t: &TileType) -> Option<TileProblem> {
    let n = t.cell_count as usize;
    if n == 0 || n > MAX_TILE_CELLS {
        Some(TileProblem::CellCount {
            cells: n,
            max: MAX_TILE_CELLS,
        })
    } else if t.rotations.len() != 4 {
        Some(TileProblem::RotationCount(t.rotations.len()))
    } else if t.features.len() >= NO_FEATURE as usize {
        Some(TileProblem::TooManyFeatures(t.features.len()))
    } else {
        None
    }
}

/// The features' facts; borders and cells must name what exists.
fn feat_infos(t: &TileType, n: usize, problems: &mut Vec<TileProblem>) -> Vec<FeatInfo> {
    let nf = t.features.len() as u8;
    let mut feats = Vec::with_capacity(t.features.len());
    for (i, f) in t.features.iter().enumerate() {
        if f.borders.iter().any(|&b| b >= nf) {
            problems.push(TileProblem::BorderOutOfRange { feature: i });
        }
        if (f.cells as u32) >> n != 0 {
            problems.push(TileProblem::FeatureCellOutOfRange { feature: i });
        }
        feats.push(FeatInfo {
            kind: f.kind,
            open_sides: f.open_sides,
            pennants: f.pennants,
            cells: f.cells,
            tags: f.tags,
            borders: f.borders.clone(),
        });
    }
    feats
}

/// The cells of each rotation with their packed signatures (a rotation with the wrong number of
/// cells is left empty), and the largest absolute offset.
fn rot_cells(t: &TileType, n: usize, problems: &mut Vec<TileProblem>) -> ([Vec<RotCell>; 4], i32) {
    let nf = t.features.len() as u8;
    let mut max_offset = 0;
    let mut rot: [Vec<RotCell>; 4] = Default::default();
    for (r, rotation) in t.rotations.iter().enumerate() {
        if rotation.cells.len() != n {
            problems.push(TileProblem::RotationCells {
                rotation: r,
                cells: rotation.cells.len(),
            });
            continue;
        }
        for (ci, c) in rotation.cells.iter().enumerate() {
            let offset = (c.offset.0 as i32, c.offset.1 as i32);
            if ci == 0 && offset != (0, 0) {
                problems.push(TileProblem::AnchorOffset { rotation: r });
            }
            if rot[r].iter().any(|o| (o.dx, o.dy) == offset) {
                problems.push(TileProblem::DuplicateCell {
                    rotation: r,
                    offset,
                });
            }
            max_offset = max_offset.max(offset.0.abs()).max(offset.1.abs());
            let refs = c.side_feature.iter().chain(&c.half_feature).chain(&c.inner);
            if refs.into_iter().any(|&f| f != NO_FEATURE && f >= nf) {
                problems.push(TileProblem::FeatureOutOfRange {
                    rotation: r,
                    cell: ci,
                });
            }
            let sig = (0..4).fold(0u16, |sig, s| {
                let bits = if c.outer & (1 << s) != 0 {
                    side_bits(c.sides[s])
                } else {
                    0xF
                };
                sig | bits << (4 * s)
            });
            rot[r].push(RotCell {
                dx: offset.0,
                dy: offset.1,
                sig,
                sides: c.sides,
                outer: c.outer & 0xF,
                side_feature: c.side_feature,
                half_feature: c.half_feature,
                field_corners: field_corners(&c.half_feature),
            });
        }
    }
    (rot, max_offset)
}

/// Outer sides face no cell of the tile and inner sides face one; every outer city or road side
/// names a feature of that kind; half-edges name fields.
fn check_sides(
    rotation: usize,
    cell: usize,
    c: &RotCell,
    cells: &[RotCell],
    feats: &[FeatInfo],
    problems: &mut Vec<TileProblem>,
) {
    let kind_of = |f: u8| feats.get(f as usize).map(|x| x.kind);
    for side in Side::ALL {
        let s = side.index();
        let (ddx, ddy) = side.delta();
        let faces_own = cells
            .iter()
            .any(|o| (o.dx, o.dy) == (c.dx + ddx, c.dy + ddy));
        let outer = c.outer & (1 << s) != 0;
        if outer == faces_own {
            problems.push(TileProblem::OuterMismatch {
                rotation,
                cell,
                side,
                outer,
            });
        }
        if !outer {
            continue;
        }
        let want = match c.sides[s] {
            SideKind::City => Some(FeatureKind::City),
            SideKind::Road => Some(FeatureKind::Road),
            _ => None,
        };
        if want.is_some() && kind_of(c.side_feature[s]) != want {
            problems.push(TileProblem::SideWithoutFeature {
                rotation,
                cell,
                side,
                shows: c.sides[s],
            });
        }
        for half in side.halves() {
            let f = c.half_feature[half.index()];
            if f != NO_FEATURE && kind_of(f) != Some(FeatureKind::Field) {
                problems.push(TileProblem::HalfNotField {
                    rotation,
                    cell,
                    half,
                });
            }
        }
    }
}

/// The checked tile's lookup tables: cloisters by cell and, for single cells, the fit table.
fn finish_tile(
    n: usize,
    rot: [Vec<RotCell>; 4],
    feats: Vec<FeatInfo>,
    has_placement_rules: bool,
) -> TileInfo {
    let mut cloisters_by_cell = vec![Vec::new(); n];
    for (i, f) in feats.iter().enumerate() {
        if f.kind == FeatureKind::Cloister {
            let cell = if f.cells == 0 {
                0
            } else {
                f.cells.trailing_zeros() as usize
            };
            cloisters_by_cell[cell].push(i as u8);
        }
    }
    // The tables of a multi-cell tile are never read (its cells are tested one by one).
    let sig4 = match n {
        1 => pack_sigs([0, 1, 2, 3].map(|r| rot[r][0].sig)),
        _ => 0,
    };

    TileInfo {
        cell_count: n,
        rot,
        feats,
        single: n == 1,
        fit: NarrowFit::new(sig4),
        fit_wide: None,
        has_placement_rules,
        cloisters_by_cell,
        any_tags: 0,
    }
}

/// Follower behaviour tables; impossible combinations are reasons the ruleset cannot be played
/// (the validator reports them in the variant file first).
fn figures(ruleset: &Ruleset, reasons: &mut Vec<RulesReason>) -> Vec<FigureInfo> {
    let mut out = Vec::with_capacity(ruleset.followers.len());
    for f in &ruleset.followers {
        let site_mask = FeatureKind::ALL
            .into_iter()
            .filter(|&k| f.stands_on(k))
            .fold(0u8, |m, k| m | 1 << k as u8);
        let corner = f.is_corner_figure();
        if site_mask == 0 && !corner {
            reasons.push(RulesReason::FollowerWithoutSite {
                follower: f.id.clone(),
            });
        }
        if corner != f.corner.is_some() || (corner && site_mask != 0) {
            reasons.push(RulesReason::CornerFigureMismatch {
                follower: f.id.clone(),
            });
        }
        if !f.occupies && f.strength != Strength::Fixed(0) {
            reasons.push(RulesReason::GuestWithStrength {
                follower: f.id.clone(),
            });
        }
        out.push(FigureInfo {
            site_mask,
            corner: f.corner.clone(),
            moves: match f.after_score {
                AfterScore::Move(a) => Some(a),
                _ => None,
            },
            stays: f.after_score == AfterScore::Stay,
            // Its precondition means the feature is occupied (by the owner) when it comes.
            joins: f.joins_occupied || f.needs_own_figure,
            occupies: f.occupies,
            needs_own: f.needs_own_figure,
            only_tags: tag_bits(ruleset, f, &f.only_tags, reasons),
            never_tags: tag_bits(ruleset, f, &f.never_tags, reasons),
        });
    }
    out
}

/// The bit set of a figure type's site tags (AB-1); a tag the ruleset lacks is a reason.
fn tag_bits(
    ruleset: &Ruleset,
    f: &tegula_ruleset::FollowerType,
    list: &[u32],
    reasons: &mut Vec<RulesReason>,
) -> u32 {
    let tags = ruleset.tags.len().min(u32::BITS as usize);
    let mut bits = 0;
    for &tag in list {
        if tag as usize >= tags {
            let follower = f.id.clone();
            reasons.push(RulesReason::SiteTag {
                follower,
                tag,
                tags,
            });
        } else {
            bits |= 1 << tag;
        }
    }
    bits
}

/// The pool's tiles and claiming figure exist; the tracks start within their ends.
fn check_pool(ruleset: &Ruleset, reasons: &mut Vec<RulesReason>) {
    for (i, t) in ruleset.tracks.iter().enumerate() {
        if t.start > t.max {
            reasons.push(RulesReason::TrackRange(i as u16));
        }
    }
    let Some(pool) = &ruleset.pool else {
        return;
    };
    for &t in &pool.tiles {
        if t as usize >= ruleset.tiles.len() {
            reasons.push(RulesReason::PoolTile(t));
        }
    }
    if pool.claim_figure as usize >= ruleset.followers.len() {
        reasons.push(RulesReason::PoolFollower(pool.claim_figure));
    }
}

/// Players' own tiles exist, and those that go into holes are single cells (AM-1).
fn check_player_tiles(ruleset: &Ruleset, tiles: &[TileInfo], reasons: &mut Vec<RulesReason>) {
    for (index, pt) in ruleset.player_tiles.iter().enumerate() {
        match tiles.get(pt.tile as usize) {
            None => reasons.push(RulesReason::PlayerTileMissing {
                index,
                tile: pt.tile,
            }),
            Some(t) if pt.site == TileSite::Enclosed && !t.single => {
                reasons.push(RulesReason::HoleTileNotSingle {
                    index,
                    rule: pt.rule.clone(),
                })
            }
            Some(_) => {}
        }
    }
}

/// The checked parts put together, with the flags the move loop branches on.
fn assemble(
    ruleset: Ruleset,
    tiles: Vec<TileInfo>,
    figures: Vec<FigureInfo>,
    start_tile: u16,
    max_offset: i32,
) -> Rules {
    let (group_of, group_ends, full_pile) = grouped_pile(&ruleset);
    let pooled = ruleset.pool.as_ref().map_or(0, |p| p.tiles.len() as u32);
    let dealt = full_pile.len() as u32 + 1 + pooled;
    let plain_mask = [
        FeatureKind::Road,
        FeatureKind::City,
        FeatureKind::Cloister,
        FeatureKind::Field,
    ]
    .iter()
    .fold(0u8, |m, &k| m | 1 << k as u8);
    let when = super::when::WhenIndex::new(&ruleset.when);
    let owns_on_place = owned_on_place(&ruleset, &when.carriers);
    let tag_sited_figs = figure_bits(&figures, |f| f.only_tags | f.never_tags != 0);
    Rules {
        any_corner: figures.iter().any(|f| f.corner.is_some()),
        each_field_joins: when.each_part,
        joins_at_once: ruleset.readings.joined_field_timing == JoinedFieldTiming::AtOnce,
        any_joins: figures.iter().any(|f| f.joins),
        figs_on_kind: std::array::from_fn(|kind| {
            figure_bits(&figures, |f| f.site_mask >> kind & 1 != 0)
        }),
        joining_figs: figure_bits(&figures, |f| f.joins),
        needs_own_figs: figure_bits(&figures, |f| f.needs_own),
        corner_guest_figs: figure_bits(&figures, |f| f.needs_own && !f.occupies),
        open_only_figs: match ruleset.readings.needs_own_on_completed {
            NeedsOwnOnCompleted::Allowed => 0,
            NeedsOwnOnCompleted::Refused => figure_bits(&figures, |f| f.needs_own),
        },
        corner_figs: figure_bits(&figures, |f| f.corner.is_some()),
        any_payment: when.kinds & super::when::Kind::FeaturePaid.bit() != 0,
        any_extra_turn: when.extra_turn,
        owns_on_place,
        plain_turns: ruleset.player_tiles.is_empty()
            && ruleset.pool.is_none()
            // The turn's start (rule-form events, the tokens' records) is `begin_turn`'s.
            && ruleset.when.is_empty(),
        plain_figures: tag_sited_figs == 0
            && figures
                .iter()
                .all(|f| f.site_mask == plain_mask && !f.joins && f.corner.is_none() && f.occupies),
        tag_sited_figs,
        stack_site_tags: (ruleset.stacks.iter())
            .fold(0, |m, s| m | 1u32.checked_shl(s.site_tag).unwrap_or(0)),
        when,
        dealt,
        hand: ruleset.hand,
        left_keys: crate::game::hash::left_keys(tiles.len()),
        linear_values: linear_values(&ruleset),
        group_of,
        group_ends,
        figures,
        full_pile,
        ruleset,
        joins: super::joins::JoinTables::new(&tiles),
        seg_templates: crate::game::place::seg_templates(&tiles),
        tiles,
        start_tile,
        max_offset,
    }
}

/// The linear scoring values of `ruleset` by [`Rules::value_slot`] (`None`: another shape, or
/// a kind scored by no value).
fn linear_values(ruleset: &Ruleset) -> [Option<Linear>; 16] {
    let mut out = [None; 16];
    for kind in FeatureKind::ALL {
        for during in [false, true] {
            let value = ruleset.scoring.values.of(kind, during);
            out[Rules::value_slot(kind, during)] = value.and_then(Linear::of);
        }
    }
    out
}

/// The follower types (at most [`MAX_FOLLOWER_TYPES`]) for which `has` holds, bit `k` for type `k`.
fn figure_bits(figures: &[FigureInfo], has: impl Fn(&FigureInfo) -> bool) -> u16 {
    let bits = figures.iter().enumerate().filter(|(_, f)| has(f));
    bits.fold(0, |m, (k, _)| m | 1 << k)
}

/// By tile type, whether placing it makes the placer its rules' owner (every tile carrying a
/// rule of the one form but the open pool's, which the pool gives an owner); empty when no tile
/// qualifies.
fn owned_on_place(ruleset: &Ruleset, carriers: &[bool]) -> Vec<bool> {
    let pool: &[u16] = ruleset.pool.as_ref().map_or(&[], |p| &p.tiles);
    let owns: Vec<bool> = (0..ruleset.tiles.len())
        .map(|t| carriers.get(t) == Some(&true) && !pool.contains(&(t as u16)))
        .collect();
    if owns.contains(&true) {
        owns
    } else {
        Vec::new()
    }
}

/// The pile in ruleset order, group by group: each tile type's group (empty without groups),
/// where each group ends, and the pile.
fn grouped_pile(ruleset: &Ruleset) -> (Vec<u8>, Vec<usize>, Vec<u16>) {
    let copies = |i: usize| std::iter::repeat_n(i as u16, ruleset.tiles[i].count as usize);
    let groups = &ruleset.pile_groups;
    if groups.is_empty() {
        let pile = (0..ruleset.tiles.len()).flat_map(copies).collect();
        return (Vec::new(), Vec::new(), pile);
    }
    let mut group_of = vec![groups.len() as u8; ruleset.tiles.len()];
    for (g, group) in groups.iter().enumerate() {
        for &t in &group.tiles {
            group_of[t as usize] = g as u8;
        }
    }
    let mut pile = Vec::new();
    let mut ends = Vec::new();
    for g in 0..=groups.len() {
        let members = (0..ruleset.tiles.len()).filter(|&i| group_of[i] as usize == g);
        pile.extend(members.flat_map(copies));
        ends.push(pile.len());
    }
    (group_of, ends, pile)
}

/// Give every single-cell tile the fit tables of requirement codes with the declared kind's
/// bits (variants that declare an edge kind).
fn widen_fit_tables(tiles: &mut [TileInfo]) {
    for t in tiles
        .iter_mut()
        .filter(|t| t.single && !t.rot[0].is_empty())
    {
        let sig4 = pack_sigs([0, 1, 2, 3].map(|r| t.rot[r][0].sig));
        t.fit_wide = Some(Box::new(WideFit::new(sig4)));
    }
}

/// The tables of a tile that failed its checks (never played: the ruleset is refused).
fn dummy_tile() -> TileInfo {
    TileInfo {
        cell_count: 1,
        rot: Default::default(),
        feats: Vec::new(),
        cloisters_by_cell: vec![Vec::new()],
        single: true,
        fit: NarrowFit::new(0),
        fit_wide: None,
        has_placement_rules: false,
        any_tags: 0,
    }
}
