//! Compiling: raw tiles → per-tile petgraph model (segments as nodes, connections as edges),
//! features as connected components with their facts; topology checks; rulebook fact checks.
//!
//! Every problem is reported (not just the first), each at the most specific span the TOML
//! gives. A tile with errors is still compiled as far as possible (bad pieces are left out) and
//! marked `valid = false`, so one mistake does not hide the others; rulebook facts are only
//! checked against valid tiles (a broken tile would make every fact about it fail spuriously).

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::visit::EdgeRef;
use serde::Serialize;
use tegula_ruleset::{FeatureKind, Half, Side, SideKind};

use crate::diag::{Code, Diagnostic, Source};
use crate::load::Loaded;
use crate::raw::{RawHalf, RawSegmentKind, RawSide, RawSideKind, RawTile, Sp, TileSetFile};

/// Most cells a tile may have (the engine keeps a feature's cells in an 8-bit set).
pub const MAX_CELLS: usize = 8;
/// Largest allowed `count` of a tile.
pub const MAX_COUNT: u64 = 1000;
/// Most diagnostics of one kind reported for one tile by the per-cell checks (overlapping and
/// disconnected cells), so that a hostile tile with 100,000 cells stays cheap to report.
const MAX_CELL_REPORTS: usize = 20;

/// A compiled tile set (one file).
#[derive(Clone, Debug, Default, Serialize)]
pub struct CompiledSet {
    /// Set id.
    pub set: String,
    /// The tiles, in file order (tiles whose shape could not be determined at all are left out).
    pub tiles: Vec<CompiledTile>,
    /// What became of each of the file's `[[fact]]` tables, in file order.
    #[serde(skip)]
    pub facts: Vec<crate::facts::FactOutcome>,
}

/// One compiled tile type: its cells, segments, connections, graph and features.
#[derive(Clone, Debug, Serialize)]
pub struct CompiledTile {
    /// Tile id.
    pub id: String,
    /// Display name (the id when the file gives none).
    pub name: String,
    /// Set id.
    pub set: String,
    /// Copies in the draw pile (start copy not included).
    pub count: u64,
    /// Whether one extra copy is the start tile.
    pub start: bool,
    /// Tile-level tags, as written (duplicates removed).
    pub tags: Vec<String>,
    /// `false` when a topology error was found in this tile (it is then only partly compiled).
    pub valid: bool,
    /// The cells; cell 0 is the anchor.
    pub cells: Vec<CompiledCell>,
    /// The segments, in file order (segments that could not be placed are left out).
    pub segments: Vec<CompiledSegment>,
    /// The connections between segments of different cells, in file order (malformed ones are
    /// left out).
    pub connections: Vec<CompiledConnection>,
    /// Features: connected components of the segment graph over joined connections, ordered by
    /// their first segment.
    pub features: Vec<CompiledFeature>,
    /// Segment graph: node `i` (weight `i`) is segment `i`; each connection is an edge whose
    /// weight says whether it joins (separate connections are recorded but do not join).
    #[serde(skip)]
    pub graph: UnGraph<usize, Link>,
    /// Span of the tile's id in its file.
    #[serde(skip)]
    pub span: Range<usize>,
    /// The tile's abilities, checked (docs/ABILITIES.md); tag names are resolved when a variant
    /// is lowered. A variant's `[[ability]]` entries replace them.
    #[serde(skip)]
    pub abilities: Vec<crate::abilities::AbilityDef>,
    /// Ids of segments left out because their cell is missing or names no cell: references to
    /// them are consequences of that root cause, not reported again.
    #[serde(skip)]
    pub dropped: Vec<String>,
}

/// Edge weight of a tile's segment graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Index into [`CompiledTile::connections`].
    pub connection: usize,
    /// Whether the two segments are one feature.
    pub joined: bool,
}

/// A cell of a compiled tile.
#[derive(Clone, Debug, Serialize)]
pub struct CompiledCell {
    /// Cell id (`"0"` for a single-cell tile).
    pub id: String,
    /// Local coordinates (x east, y south).
    pub at: (i64, i64),
    /// Side kinds, indexed by [`Side`].
    pub sides: [SideKind; 4],
    /// Whether each side faces the map (`false` = it faces another cell of the tile).
    pub outer: [bool; 4],
    /// For inner sides, the index of the facing cell.
    pub neighbour: [Option<usize>; 4],
    /// Span of the cell (its id for mega tiles, the `sides` array for single-cell tiles).
    #[serde(skip)]
    pub span: Range<usize>,
    /// Span of each side's kind.
    #[serde(skip)]
    pub side_spans: [Range<usize>; 4],
}

/// A segment: one feature's piece inside one cell.
#[derive(Clone, Debug, Serialize)]
pub struct CompiledSegment {
    /// Segment id.
    pub id: String,
    /// Kind.
    pub kind: FeatureKind,
    /// Index of its cell.
    pub cell: usize,
    /// Sides it touches (cities and roads).
    pub sides: Vec<Side>,
    /// Half-edges it touches (fields).
    pub halves: Vec<Half>,
    /// Pennants (cities).
    pub pennants: u8,
    /// Ids of the city segments it borders (fields).
    pub borders: Vec<String>,
    /// Indices of the city segments it borders (resolved `borders`).
    #[serde(skip)]
    pub border_segments: Vec<usize>,
    /// Tags, as written.
    pub tags: Vec<String>,
    /// Index of the feature it belongs to.
    pub feature: usize,
    /// Span of the segment's id.
    #[serde(skip)]
    pub span: Range<usize>,
    /// Span of each entry of `sides`.
    #[serde(skip)]
    pub side_spans: Vec<Range<usize>>,
    /// Span of each entry of `halves`.
    #[serde(skip)]
    pub half_spans: Vec<Range<usize>>,
}

/// A connection between two segments of different cells.
#[derive(Clone, Debug, Serialize)]
pub struct CompiledConnection {
    /// Connection id.
    pub id: String,
    /// The two segment ids.
    pub segments: [String; 2],
    /// The two segment indices.
    #[serde(skip)]
    pub ends: [usize; 2],
    /// Whether they are one feature.
    pub joined: bool,
    /// Rule cited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Span of the connection's id.
    #[serde(skip)]
    pub span: Range<usize>,
}

/// A tile-local feature: a connected component of the segment graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CompiledFeature {
    /// Kind (that of its segments).
    pub kind: FeatureKind,
    /// Ids of its segments, in segment order.
    pub segments: Vec<String>,
    /// Indices of its segments, ascending.
    #[serde(skip)]
    pub members: Vec<usize>,
    /// Indices of the cells it spans, ascending (W-18: each is one tile for counting).
    pub cells: Vec<usize>,
    /// Outer sides its city / road segments touch: the open ends of a road or city (B-3).
    pub open_sides: u32,
    /// Pennants (B-4).
    pub pennants: u32,
    /// Union of its segments' tags, sorted.
    pub tags: Vec<String>,
    /// Fields: indices of the city features it borders, ascending (B-6).
    pub borders: Vec<usize>,
}

impl CompiledTile {
    /// Copies in the game: draw-pile copies plus the start copy.
    pub fn copies(&self) -> u64 {
        self.count + u64::from(self.start)
    }

    /// Total pennants of one copy.
    pub fn pennants(&self) -> u64 {
        self.segments.iter().map(|s| u64::from(s.pennants)).sum()
    }

    /// Number of features of `kind`.
    pub fn features_of(&self, kind: FeatureKind) -> impl Iterator<Item = &CompiledFeature> {
        self.features.iter().filter(move |f| f.kind == kind)
    }

    /// Index of the segment called `id`.
    pub fn segment(&self, id: &str) -> Option<usize> {
        self.segments.iter().position(|s| s.id == id)
    }

    /// Set whether the connection `id` joins its segments (a W-21 override) and recompute the
    /// graph and features. `false` if there is no such connection.
    pub fn set_joined(&mut self, id: &str, joined: bool) -> bool {
        match self.connections.iter_mut().find(|c| c.id == id) {
            Some(c) => {
                c.joined = joined;
                self.rebuild();
                true
            }
            None => false,
        }
    }

    /// Rebuild the graph from the segments and connections, then the features.
    pub fn rebuild(&mut self) {
        let n = self.segments.len();
        let mut g = UnGraph::with_capacity(n, self.connections.len());
        for i in 0..n {
            g.add_node(i);
        }
        for (ci, c) in self.connections.iter().enumerate() {
            g.add_edge(
                NodeIndex::new(c.ends[0]),
                NodeIndex::new(c.ends[1]),
                Link {
                    connection: ci,
                    joined: c.joined,
                },
            );
        }
        let mut comp = vec![usize::MAX; n];
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for s in 0..n {
            if comp[s] != usize::MAX {
                continue;
            }
            let f = groups.len();
            comp[s] = f;
            let mut stack = vec![s];
            let mut members = Vec::new();
            while let Some(x) = stack.pop() {
                members.push(x);
                for e in g.edges(NodeIndex::new(x)) {
                    if !e.weight().joined {
                        continue;
                    }
                    let y = if e.source().index() == x {
                        e.target().index()
                    } else {
                        e.source().index()
                    };
                    if comp[y] == usize::MAX {
                        comp[y] = f;
                        stack.push(y);
                    }
                }
            }
            members.sort_unstable();
            groups.push(members);
        }
        for (i, seg) in self.segments.iter_mut().enumerate() {
            seg.feature = comp[i];
        }
        let mut features: Vec<CompiledFeature> = groups
            .into_iter()
            .map(|members| {
                let kind = self.segments[members[0]].kind;
                let mut cells: Vec<usize> =
                    members.iter().map(|&m| self.segments[m].cell).collect();
                cells.sort_unstable();
                cells.dedup();
                let mut open_sides = 0;
                let mut pennants = 0;
                let mut tags: Vec<String> = Vec::new();
                for &m in &members {
                    let seg = &self.segments[m];
                    if matches!(seg.kind, FeatureKind::City | FeatureKind::Road) {
                        let outer = &self.cells[seg.cell].outer;
                        open_sides += seg.sides.iter().filter(|s| outer[s.index()]).count() as u32;
                    }
                    pennants += u32::from(seg.pennants);
                    tags.extend(seg.tags.iter().cloned());
                }
                tags.sort();
                tags.dedup();
                CompiledFeature {
                    kind,
                    segments: members
                        .iter()
                        .map(|&m| self.segments[m].id.clone())
                        .collect(),
                    members,
                    cells,
                    open_sides,
                    pennants,
                    tags,
                    borders: Vec::new(),
                }
            })
            .collect();
        for f in &mut features {
            if f.kind != FeatureKind::Field {
                continue;
            }
            let mut borders: Vec<usize> = f
                .members
                .iter()
                .flat_map(|&m| self.segments[m].border_segments.iter())
                .map(|&b| comp[b])
                .collect();
            borders.sort_unstable();
            borders.dedup();
            f.borders = borders;
        }
        self.graph = g;
        self.features = features;
    }
}

fn side_kind(k: RawSideKind) -> SideKind {
    match k {
        RawSideKind::City => SideKind::City,
        RawSideKind::Road => SideKind::Road,
        RawSideKind::Field => SideKind::Field,
        RawSideKind::Any => SideKind::Any,
    }
}

fn side(s: RawSide) -> Side {
    match s {
        RawSide::N => Side::N,
        RawSide::E => Side::E,
        RawSide::S => Side::S,
        RawSide::W => Side::W,
    }
}

fn half(h: RawHalf) -> Half {
    match h {
        RawHalf::Nw => Half::Nw,
        RawHalf::Ne => Half::Ne,
        RawHalf::En => Half::En,
        RawHalf::Es => Half::Es,
        RawHalf::Se => Half::Se,
        RawHalf::Sw => Half::Sw,
        RawHalf::Ws => Half::Ws,
        RawHalf::Wn => Half::Wn,
    }
}

fn segment_kind(k: RawSegmentKind) -> FeatureKind {
    match k {
        RawSegmentKind::City => FeatureKind::City,
        RawSegmentKind::Road => FeatureKind::Road,
        RawSegmentKind::Field => FeatureKind::Field,
        RawSegmentKind::Cloister => FeatureKind::Cloister,
        RawSegmentKind::Wonder => FeatureKind::Wonder,
    }
}

/// Lower-case name of a feature kind, for messages.
pub fn kind_name(k: FeatureKind) -> &'static str {
    match k {
        FeatureKind::City => "city",
        FeatureKind::Road => "road",
        FeatureKind::Field => "field",
        FeatureKind::Cloister => "cloister",
        FeatureKind::Wonder => "wonder",
    }
}

/// Lower-case name of a side kind, for messages.
pub fn side_kind_name(k: SideKind) -> &'static str {
    match k {
        SideKind::City => "city",
        SideKind::Road => "road",
        SideKind::Field => "field",
        SideKind::Any => "any",
    }
}

/// Compile one loaded tile-set file: topology checks and fact checks; every problem reported.
pub fn compile_tileset(file: &Loaded<TileSetFile>) -> (CompiledSet, Vec<Diagnostic>) {
    let src = &file.source;
    let doc = &file.doc;
    let set = doc.set.id.value.clone();
    let mut diags = Vec::new();
    let mut tiles = Vec::new();
    let mut ids: HashMap<&str, (usize, Range<usize>)> = HashMap::new();
    let mut start: Option<&str> = None;
    // Ids of tiles that are absent from `tiles` or invalid: facts about them are not checked.
    let mut broken: HashSet<String> = HashSet::new();
    for raw in &doc.tile {
        let t = &raw.value;
        if let Some((line, first)) = ids.get(t.id.value.as_str()) {
            diags.push(
                src.diag(
                    Code::DuplicateId,
                    t.id.span.clone(),
                    format!("tile id `{}` is already used on line {line}", t.id.value),
                )
                .with_label(src.label(first.clone(), "first used here")),
            );
        } else {
            let line = src.line_col(t.id.span.start).0;
            ids.insert(&t.id.value, (line, t.id.span.clone()));
        }
        if t.start {
            if let Some(first) = start {
                diags.push(
                    src.diag(
                        Code::BadCount,
                        t.id.span.clone(),
                        format!("a second start tile: `{first}` is already the start tile"),
                    )
                    .with_rule("B-1"),
                );
            } else {
                start = Some(&t.id.value);
            }
        }
        let before = diags.len();
        let compiled = compile_tile(t, &set, src, &mut diags);
        let ok = !diags[before..].iter().any(Diagnostic::is_error);
        match compiled {
            Some(mut ct) => {
                ct.valid = ok;
                if !ok {
                    broken.insert(ct.id.clone());
                }
                tiles.push(ct);
            }
            None => {
                broken.insert(t.id.value.clone());
            }
        }
    }
    let cited = doc
        .fact
        .iter()
        .map(|f| &f.value.rule)
        .chain(doc.ability.iter().map(|a| &a.value.rule))
        .chain(
            doc.tile
                .iter()
                .flat_map(|t| &t.value.connections)
                .filter_map(|c| c.value.rule.as_ref()),
        );
    diags.extend(cited.filter_map(|r| crate::rules::check(src, &r.value, r.span.clone())));
    let (fact_diags, facts) = crate::facts::check_facts(&doc.fact, &tiles, &broken, src);
    diags.extend(fact_diags);
    let known: Vec<&str> = doc.tile.iter().map(|t| t.value.id.value.as_str()).collect();
    crate::abilities::attach(&doc.ability, &known, &mut tiles, src, &mut diags);
    (CompiledSet { set, tiles, facts }, diags)
}

/// One coverage claim: a segment touching a side or half at a span.
type Claim = (usize, Range<usize>);

/// Compile one tile; `None` when its cells cannot be determined.
fn compile_tile(
    t: &RawTile,
    set: &str,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<CompiledTile> {
    if t.count.value < 1 || t.count.value > MAX_COUNT {
        diags.push(
            src.diag(
                Code::BadCount,
                t.count.span.clone(),
                format!(
                    "count {} is out of range (1 to {MAX_COUNT} copies)",
                    t.count.value
                ),
            )
            .with_rule("B-1"),
        );
    }
    let cells = compile_cells(t, src, diags)?;
    let mega = t.cells.is_some();

    let mut tags: Vec<String> = Vec::new();
    for tag in &t.tags {
        if !tags.contains(&tag.value) {
            tags.push(tag.value.clone());
        }
    }

    let mut tile = CompiledTile {
        id: t.id.value.clone(),
        name: t.name.clone().unwrap_or_else(|| t.id.value.clone()),
        set: set.to_string(),
        count: t.count.value.clamp(1, MAX_COUNT),
        start: t.start,
        tags,
        valid: true,
        cells,
        segments: Vec::new(),
        connections: Vec::new(),
        features: Vec::new(),
        graph: UnGraph::default(),
        span: t.id.span.clone(),
        abilities: Vec::new(),
        dropped: Vec::new(),
    };

    compile_segments(t, mega, &mut tile, src, diags);
    crate::borders::check_borders(t, &mut tile, src, diags);
    let unplaced = unplaced_claims(t, &tile);
    let (side_claims, half_claims) = check_coverage(&tile, &unplaced, src, diags);
    let facing = facing_pairs(&tile, &side_claims, &half_claims);
    let misjoined = compile_connections(t, &mut tile, &facing, src, diags);
    tile.rebuild();
    check_feature_cells(&tile, &misjoined, src, diags);
    Some(tile)
}

/// The cells of a tile (a single cell for `sides`), with overlap / connectivity / inner-side
/// checks. `None` when the tile's shape is unusable.
fn compile_cells(
    t: &RawTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<CompiledCell>> {
    match (&t.sides, &t.cells) {
        (Some(_), Some(cells)) => {
            diags.push(src.diag(
                Code::TileShape,
                cells.span.clone(),
                format!(
                    "tile `{}` gives both `sides` (a single cell) and `cells` (a mega tile); give one",
                    t.id.value
                ),
            ));
            None
        }
        (None, None) => {
            diags.push(src.diag(
                Code::TileShape,
                t.id.span.clone(),
                format!(
                    "tile `{}` gives neither `sides` (a single cell) nor `cells` (a mega tile)",
                    t.id.value
                ),
            ));
            None
        }
        (Some(sides), None) => {
            let (kinds, spans) = four_sides(sides, src, diags)?;
            Some(vec![CompiledCell {
                id: "0".to_string(),
                at: (0, 0),
                sides: kinds,
                outer: [true; 4],
                neighbour: [None; 4],
                span: sides.span.clone(),
                side_spans: spans,
            }])
        }
        (None, Some(raw_cells)) => {
            if raw_cells.value.is_empty() {
                diags.push(src.diag(
                    Code::TileShape,
                    raw_cells.span.clone(),
                    "a mega tile needs at least one cell",
                ));
                return None;
            }
            let mut cells = Vec::with_capacity(raw_cells.value.len().min(1024));
            let mut cell_ids: HashSet<&str> = HashSet::new();
            let mut usable = true;
            for rc in &raw_cells.value {
                let c = &rc.value;
                if !cell_ids.insert(&c.id.value) {
                    diags.push(src.diag(
                        Code::DuplicateId,
                        c.id.span.clone(),
                        format!("cell id `{}` is already used in this tile", c.id.value),
                    ));
                }
                let at = match c.at.value.as_slice() {
                    [x, y] => (x.value, y.value),
                    _ => {
                        diags.push(src.diag(
                            Code::TileShape,
                            c.at.span.clone(),
                            "`at` must be two coordinates [x, y]",
                        ));
                        usable = false;
                        continue;
                    }
                };
                let Some((kinds, spans)) = four_sides(&c.sides, src, diags) else {
                    usable = false;
                    continue;
                };
                cells.push((
                    rc.span.clone(),
                    c.at.span.clone(),
                    CompiledCell {
                        id: c.id.value.clone(),
                        at,
                        sides: kinds,
                        outer: [true; 4],
                        neighbour: [None; 4],
                        span: c.id.span.clone(),
                        side_spans: spans,
                    },
                ));
            }
            if !usable || cells.is_empty() {
                return None;
            }
            // Coordinates → first cell there (linear; no pairwise comparison).
            let mut by_at: HashMap<(i64, i64), usize> = HashMap::with_capacity(cells.len());
            let mut overlapping = vec![false; cells.len()];
            let mut reports = 0;
            for (i, (_, at_span, c)) in cells.iter().enumerate() {
                if let Some(&first) = by_at.get(&c.at) {
                    overlapping[i] = true;
                    if reports < MAX_CELL_REPORTS {
                        diags.push(
                            src.diag(
                                Code::OverlappingCells,
                                at_span.clone(),
                                format!(
                                    "cell `{}` is at [{}, {}], where cell `{}` already is",
                                    c.id, c.at.0, c.at.1, cells[first].2.id
                                ),
                            )
                            .with_rule("W-18"),
                        );
                    }
                    reports += 1;
                } else {
                    by_at.insert(c.at, i);
                }
            }
            // Edge-connectivity from the anchor (breadth-first over the coordinate map).
            let mut reached = vec![false; cells.len()];
            reached[0] = true;
            let mut stack = vec![0usize];
            while let Some(i) = stack.pop() {
                let (x, y) = cells[i].2.at;
                for s in Side::ALL {
                    let Some(n) = step(x, y, s) else { continue };
                    if let Some(&j) = by_at.get(&n) {
                        if !reached[j] {
                            reached[j] = true;
                            stack.push(j);
                        }
                    }
                }
            }
            let mut reports = 0;
            for (i, (_, at_span, c)) in cells.iter().enumerate() {
                let here = by_at.get(&c.at).copied().unwrap_or(i);
                if !reached[here] {
                    if reports < MAX_CELL_REPORTS {
                        diags.push(
                            src.diag(
                                Code::DisconnectedCells,
                                at_span.clone(),
                                format!(
                                    "cell `{}` at [{}, {}] is not edge-connected to the anchor cell `{}`",
                                    c.id, c.at.0, c.at.1, cells[0].2.id
                                ),
                            )
                            .with_rule("W-18"),
                        );
                    }
                    reports += 1;
                }
            }
            if cells.len() > MAX_CELLS {
                diags.push(src.diag(
                    Code::TileShape,
                    raw_cells.span.clone(),
                    format!(
                        "a tile has at most {MAX_CELLS} cells; this one has {}",
                        cells.len()
                    ),
                ));
                return None;
            }
            // Inner sides: a side facing another (non-overlapping) cell of the tile.
            let mut cells: Vec<CompiledCell> = cells.into_iter().map(|(_, _, c)| c).collect();
            for i in 0..cells.len() {
                if overlapping[i] {
                    continue;
                }
                let (x, y) = cells[i].at;
                for s in Side::ALL {
                    let Some(n) = step(x, y, s) else { continue };
                    if let Some(&j) = by_at.get(&n) {
                        cells[i].outer[s.index()] = false;
                        cells[i].neighbour[s.index()] = Some(j);
                    }
                }
            }
            for (i, c) in cells.iter().enumerate() {
                for s in Side::ALL {
                    let Some(j) = c.neighbour[s.index()] else {
                        continue;
                    };
                    if j <= i {
                        continue;
                    }
                    let a = c.sides[s.index()];
                    let b = cells[j].sides[s.opposite().index()];
                    if a != b {
                        diags.push(
                            src.diag(
                                Code::InnerSideMismatch,
                                cells[j].side_spans[s.opposite().index()].clone(),
                                format!(
                                    "inner side {} of cell `{}` is {}, but it faces side {} of cell `{}`, which is {}",
                                    s.opposite().name(),
                                    cells[j].id,
                                    side_kind_name(b),
                                    s.name(),
                                    c.id,
                                    side_kind_name(a)
                                ),
                            )
                            .with_rule("W-18"),
                        );
                    }
                }
            }
            Some(cells)
        }
    }
}

/// The neighbouring coordinate across side `s` (`None` on overflow).
fn step(x: i64, y: i64, s: Side) -> Option<(i64, i64)> {
    let (dx, dy) = s.delta();
    Some((x.checked_add(i64::from(dx))?, y.checked_add(i64::from(dy))?))
}

type FourSides = ([SideKind; 4], [Range<usize>; 4]);

fn four_sides(
    sides: &Sp<Vec<Sp<RawSideKind>>>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<FourSides> {
    if sides.value.len() != 4 {
        diags.push(src.diag(
            Code::TileShape,
            sides.span.clone(),
            format!(
                "`sides` must give 4 kinds (N, E, S, W); it gives {}",
                sides.value.len()
            ),
        ));
        return None;
    }
    let kinds = std::array::from_fn(|i| side_kind(sides.value[i].value));
    let spans = std::array::from_fn(|i| sides.value[i].span.clone());
    Some((kinds, spans))
}

/// Segments: ids, cells, and shape (what each kind may touch).
fn compile_segments(
    t: &RawTile,
    mega: bool,
    tile: &mut CompiledTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let mut seen: HashSet<&str> = HashSet::new();
    for rs in &t.segments {
        let s = &rs.value;
        if !seen.insert(&s.id.value) {
            let mut d = src.diag(
                Code::DuplicateId,
                s.id.span.clone(),
                format!("segment id `{}` is already used in this tile", s.id.value),
            );
            if let Some(first) = t.segments.iter().find(|x| x.value.id.value == s.id.value) {
                d = d.with_label(src.label(first.value.id.span.clone(), "first used here"));
            }
            diags.push(d);
            continue;
        }
        let cell = match (&s.cell, mega) {
            (Some(c), false) => {
                diags.push(src.diag(
                    Code::SegmentCell,
                    c.span.clone(),
                    "a single-cell tile's segments take no `cell`",
                ));
                0
            }
            (None, false) => 0,
            (None, true) => {
                diags.push(
                    src.diag(
                        Code::SegmentCell,
                        s.id.span.clone(),
                        format!(
                            "segment `{}` of a mega tile needs `cell` (the id of its cell)",
                            s.id.value
                        ),
                    )
                    .with_rule("W-18")
                    .with_note("the segment is left out: its sides, half-edges, borders and connections are not checked"),
                );
                tile.dropped.push(s.id.value.clone());
                continue;
            }
            (Some(c), true) => match tile.cells.iter().position(|x| x.id == c.value) {
                Some(i) => i,
                None => {
                    let mut d = src.diag(
                        Code::DanglingReference,
                        c.span.clone(),
                        format!("no cell `{}` in this tile", c.value),
                    );
                    if let Some(near) =
                        crate::load::suggest(&c.value, tile.cells.iter().map(|x| x.id.as_str()))
                    {
                        d.notes.push(format!("did you mean `{near}`?"));
                    }
                    diags.push(d.with_note(
                        "the segment is left out: its sides, half-edges, borders and connections are not checked",
                    ));
                    tile.dropped.push(s.id.value.clone());
                    continue;
                }
            },
        };
        let kind = segment_kind(s.kind.value);
        let cell_sides = tile.cells[cell].sides;
        let cell_id = tile.cells[cell].id.clone();
        let where_ = if mega {
            format!(" of cell `{cell_id}`")
        } else {
            String::new()
        };
        let shape = |span: Range<usize>, msg: String| src.diag(Code::SegmentShape, span, msg);
        let kname = kind_name(kind);
        let mut sides = Vec::new();
        let mut side_spans = Vec::new();
        let mut halves = Vec::new();
        let mut half_spans = Vec::new();
        match kind {
            FeatureKind::City | FeatureKind::Road => {
                if let Some(h) = s.halves.first() {
                    diags.push(shape(
                        h.span.clone(),
                        format!("a {kname} segment lists `sides`, not `halves` (only fields touch half-edges)"),
                    ));
                }
                if s.sides.is_empty() {
                    diags.push(shape(
                        s.id.span.clone(),
                        format!("{kname} segment `{}` touches no side", s.id.value),
                    ));
                }
                let want = if kind == FeatureKind::City {
                    SideKind::City
                } else {
                    SideKind::Road
                };
                for sd in &s.sides {
                    let sv = side(sd.value);
                    if sides.contains(&sv) {
                        diags.push(shape(
                            sd.span.clone(),
                            format!("side {} is listed twice", sv.name()),
                        ));
                    } else if cell_sides[sv.index()] != want {
                        diags.push(
                            shape(
                                sd.span.clone(),
                                format!(
                                    "a {kname} segment cannot touch side {}{where_}, which is {}",
                                    sv.name(),
                                    side_kind_name(cell_sides[sv.index()])
                                ),
                            )
                            .with_rule("B-2"),
                        );
                    } else {
                        sides.push(sv);
                        side_spans.push(sd.span.clone());
                    }
                }
            }
            FeatureKind::Field => {
                if let Some(sd) = s.sides.first() {
                    diags.push(shape(
                        sd.span.clone(),
                        "a field segment lists `halves` (half-edges), not `sides`".to_string(),
                    ));
                }
                for h in &s.halves {
                    let hv = half(h.value);
                    let k = cell_sides[hv.side().index()];
                    if halves.contains(&hv) {
                        diags.push(shape(
                            h.span.clone(),
                            format!("half-edge {} is listed twice", hv.name()),
                        ));
                    } else if !matches!(k, SideKind::Road | SideKind::Field) {
                        diags.push(
                            shape(
                                h.span.clone(),
                                format!(
                                    "a field cannot touch half-edge {}{where_}: side {} is {}",
                                    hv.name(),
                                    hv.side().name(),
                                    side_kind_name(k)
                                ),
                            )
                            .with_rule("B-2"),
                        );
                    } else {
                        halves.push(hv);
                        half_spans.push(h.span.clone());
                    }
                }
            }
            FeatureKind::Cloister | FeatureKind::Wonder => {
                if let Some(sd) = s.sides.first() {
                    diags.push(shape(
                        sd.span.clone(),
                        format!("a {kname} segment touches no side"),
                    ));
                }
                if let Some(h) = s.halves.first() {
                    diags.push(shape(
                        h.span.clone(),
                        format!("a {kname} segment touches no half-edge"),
                    ));
                }
            }
        }
        if s.pennants.value > 0 && kind != FeatureKind::City {
            diags.push(
                shape(
                    s.pennants.span.clone(),
                    format!("only cities have pennants, not a {kname} segment"),
                )
                .with_rule("B-4"),
            );
        } else if s.pennants.value > 2 {
            diags.push(
                shape(
                    s.pennants.span.clone(),
                    format!("a city piece has 0 to 2 pennants, not {}", s.pennants.value),
                )
                .with_rule("B-4"),
            );
        }
        if kind != FeatureKind::Field {
            if let Some(b) = s.borders.first() {
                diags.push(
                    shape(
                        b.span.clone(),
                        format!("only fields border cities, not a {kname} segment"),
                    )
                    .with_rule("B-6"),
                );
            }
        }
        let mut tags: Vec<String> = Vec::new();
        for tag in &s.tags {
            if !tags.contains(&tag.value) {
                tags.push(tag.value.clone());
            }
        }
        let pennants = if kind == FeatureKind::City {
            s.pennants.value.min(2)
        } else {
            0
        };
        tile.segments.push(CompiledSegment {
            id: s.id.value.clone(),
            kind,
            cell,
            sides,
            halves,
            pennants,
            borders: Vec::new(),
            border_segments: Vec::new(),
            tags,
            feature: 0,
            span: s.id.span.clone(),
            side_spans,
            half_spans,
        });
    }
}

/// The sides and half-edges that segments left out of the tile ([`CompiledTile::dropped`]) claim,
/// in whatever cell they meant: a side or half of these left uncovered is a consequence of the
/// left-out segment, already reported, not a problem of its own.
fn unplaced_claims(t: &RawTile, tile: &CompiledTile) -> (HashSet<Side>, HashSet<Half>) {
    let mut sides = HashSet::new();
    let mut halves = HashSet::new();
    for rs in t
        .segments
        .iter()
        .filter(|s| tile.dropped.contains(&s.value.id.value))
    {
        sides.extend(rs.value.sides.iter().map(|x| side(x.value)));
        halves.extend(rs.value.halves.iter().map(|x| half(x.value)));
    }
    (sides, halves)
}

/// Claims per (cell, side) by city/road segments and per (cell, half) by fields.
type SideClaims = HashMap<(usize, Side), Vec<Claim>>;
type HalfClaims = HashMap<(usize, Half), Vec<Claim>>;

/// Coverage of every side and half-edge of every cell (B-2, B-3).
fn check_coverage(
    tile: &CompiledTile,
    unplaced: &(HashSet<Side>, HashSet<Half>),
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> (SideClaims, HalfClaims) {
    let mut sides: SideClaims = HashMap::new();
    let mut halves: HalfClaims = HashMap::new();
    for (i, seg) in tile.segments.iter().enumerate() {
        for (s, sp) in seg.sides.iter().zip(&seg.side_spans) {
            sides
                .entry((seg.cell, *s))
                .or_default()
                .push((i, sp.clone()));
        }
        for (h, sp) in seg.halves.iter().zip(&seg.half_spans) {
            halves
                .entry((seg.cell, *h))
                .or_default()
                .push((i, sp.clone()));
        }
    }
    for (ci, cell) in tile.cells.iter().enumerate() {
        let where_ = if tile.cells.len() > 1 || cell.id != "0" {
            format!(" of cell `{}`", cell.id)
        } else {
            String::new()
        };
        for s in Side::ALL {
            let k = cell.sides[s.index()];
            if matches!(k, SideKind::City | SideKind::Road) {
                let kname = side_kind_name(k);
                let claims = sides.get(&(ci, s)).map_or(&[][..], |v| v.as_slice());
                match claims {
                    [] if unplaced.0.contains(&s) => {}
                    [] => diags.push(
                        src.diag(
                            Code::SideCoverage,
                            cell.side_spans[s.index()].clone(),
                            format!(
                                "{kname} side {}{where_} is touched by no {kname} segment",
                                s.name()
                            ),
                        )
                        .with_rule("B-3"),
                    ),
                    [_] => {}
                    [(first, first_span), rest @ ..] => {
                        for (other, sp) in rest {
                            diags.push(
                                src.diag(
                                    Code::SideCoverage,
                                    sp.clone(),
                                    format!(
                                        "{kname} side {}{where_} is already touched by segment `{}`; `{}` cannot touch it too",
                                        s.name(),
                                        tile.segments[*first].id,
                                        tile.segments[*other].id
                                    ),
                                )
                                .with_rule("B-3")
                                .with_label(src.label(
                                    first_span.clone(),
                                    format!("first touched by `{}` here", tile.segments[*first].id),
                                )),
                            );
                        }
                    }
                }
            }
            if matches!(k, SideKind::Road | SideKind::Field) {
                for h in s.halves() {
                    let claims = halves.get(&(ci, h)).map_or(&[][..], |v| v.as_slice());
                    match claims {
                        [] if unplaced.1.contains(&h) => {}
                        [] => diags.push(
                            src.diag(
                                Code::HalfCoverage,
                                cell.side_spans[s.index()].clone(),
                                format!(
                                    "half-edge {}{where_} (of {} side {}) is in no field",
                                    h.name(),
                                    side_kind_name(k),
                                    s.name()
                                ),
                            )
                            .with_rule("B-2"),
                        ),
                        [_] => {}
                        [(first, first_span), rest @ ..] => {
                            for (other, sp) in rest {
                                diags.push(
                                    src.diag(
                                        Code::HalfCoverage,
                                        sp.clone(),
                                        format!(
                                            "half-edge {}{where_} is already in field `{}`; `{}` cannot have it too",
                                            h.name(),
                                            tile.segments[*first].id,
                                            tile.segments[*other].id
                                        ),
                                    )
                                    .with_rule("B-2")
                                    .with_label(src.label(
                                        first_span.clone(),
                                        format!("first used by `{}` here", tile.segments[*first].id),
                                    )),
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    (sides, halves)
}

/// A pair of facing segments and the (cell, side) where they first meet.
type FacingPair = ((usize, usize), (usize, Side));

/// Unordered segment pair key.
fn pair(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// Pairs of segments facing each other across an inner side, each with the (cell, side) where
/// they first meet, in a deterministic order.
fn facing_pairs(tile: &CompiledTile, sides: &SideClaims, halves: &HalfClaims) -> Vec<FacingPair> {
    let mut out: Vec<FacingPair> = Vec::new();
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    let mut push = |a: usize, b: usize, at: (usize, Side)| {
        let p = pair(a, b);
        if seen.insert(p) {
            out.push((p, at));
        }
    };
    for (i, cell) in tile.cells.iter().enumerate() {
        for s in Side::ALL {
            let Some(j) = cell.neighbour[s.index()] else {
                continue;
            };
            if j <= i {
                continue;
            }
            let o = s.opposite();
            let first = |v: Option<&Vec<Claim>>| v.and_then(|v| v.first()).map(|c| c.0);
            if let (Some(a), Some(b)) = (first(sides.get(&(i, s))), first(sides.get(&(j, o)))) {
                if tile.segments[a].kind == tile.segments[b].kind {
                    push(a, b, (i, s));
                }
            }
            for h in s.halves() {
                if let (Some(a), Some(b)) = (
                    first(halves.get(&(i, h))),
                    first(halves.get(&(j, h.opposite()))),
                ) {
                    push(a, b, (i, s));
                }
            }
        }
    }
    out
}

/// A joined connection between segments that do not face each other: the index of its
/// `bad-connection` diagnostic and its two segments.
type Misjoined = (usize, [usize; 2]);

/// Connections: well-formed, facing, one per pair; and every facing pair has one. Returns the
/// joined connections between segments that do not face each other.
fn compile_connections(
    t: &RawTile,
    tile: &mut CompiledTile,
    facing: &[FacingPair],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Misjoined> {
    let mut misjoined = Vec::new();
    let facing_set: HashSet<(usize, usize)> = facing.iter().map(|(p, _)| *p).collect();
    // Dangling-reference diagnostics (index into `diags`) with the segments the connection meant.
    let mut roots: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut ids: HashSet<&str> = HashSet::new();
    let mut pairs: HashMap<(usize, usize), String> = HashMap::new();
    for rc in &t.connections {
        let c = &rc.value;
        if !ids.insert(&c.id.value) {
            let mut d = src.diag(
                Code::DuplicateId,
                c.id.span.clone(),
                format!(
                    "connection id `{}` is already used in this tile",
                    c.id.value
                ),
            );
            if let Some(first) = t
                .connections
                .iter()
                .find(|x| x.value.id.value == c.id.value)
            {
                d = d.with_label(src.label(first.value.id.span.clone(), "first used here"));
            }
            diags.push(d);
            continue;
        }
        let bad = |span: Range<usize>, msg: String| {
            src.diag(Code::BadConnection, span, msg).with_rule("W-18")
        };
        if c.segments.value.len() != 2 {
            diags.push(bad(
                c.segments.span.clone(),
                format!(
                    "a connection names exactly 2 segments, not {}",
                    c.segments.value.len()
                ),
            ));
            continue;
        }
        let mut ends = [0usize; 2];
        let mut ok = true;
        for (k, sid) in c.segments.value.iter().enumerate() {
            match tile.segment(&sid.value) {
                Some(i) => ends[k] = i,
                None if tile.dropped.contains(&sid.value) => ok = false, // reported at its cell
                None => {
                    let near = crate::load::suggest(
                        &sid.value,
                        tile.segments.iter().map(|x| x.id.as_str()),
                    );
                    let mut d = src.diag(
                        Code::DanglingReference,
                        sid.span.clone(),
                        format!("no segment `{}` in this tile", sid.value),
                    );
                    if let Some(n) = near {
                        d.notes.push(format!("did you mean `{n}`?"));
                    }
                    // What the connection meant to join: the named segments that exist, and the
                    // suggestion; a missing connection between them is this typo's consequence.
                    let mut meant: Vec<usize> = c
                        .segments
                        .value
                        .iter()
                        .filter_map(|x| tile.segment(&x.value))
                        .collect();
                    meant.extend(near.and_then(|n| tile.segment(n)));
                    roots.push((diags.len(), meant));
                    diags.push(d);
                    ok = false;
                }
            }
        }
        if !ok {
            continue;
        }
        let (a, b) = (&tile.segments[ends[0]], &tile.segments[ends[1]]);
        let span = c.segments.span.clone();
        if a.kind != b.kind {
            diags.push(bad(
                span,
                format!(
                    "`{}` is a {} and `{}` a {}: a connection joins segments of one kind",
                    a.id,
                    kind_name(a.kind),
                    b.id,
                    kind_name(b.kind)
                ),
            ));
            continue;
        }
        if !matches!(
            a.kind,
            FeatureKind::City | FeatureKind::Road | FeatureKind::Field
        ) {
            diags.push(bad(
                span,
                format!(
                    "only cities, roads and fields are connected, not {} segments",
                    kind_name(a.kind)
                ),
            ));
            continue;
        }
        if a.cell == b.cell {
            diags.push(bad(
                span,
                format!(
                    "`{}` and `{}` lie in the same cell; connections join segments of different cells",
                    a.id, b.id
                ),
            ));
            continue;
        }
        let p = pair(ends[0], ends[1]);
        if let Some(prev) = pairs.get(&p) {
            diags.push(bad(
                c.id.span.clone(),
                format!(
                    "`{}` and `{}` are already connected by `{prev}`",
                    a.id, b.id
                ),
            ));
            continue;
        }
        let neighbours = tile.cells[a.cell].neighbour.contains(&Some(b.cell));
        if !facing_set.contains(&p) && c.joined.value {
            // Kept in the graph: the feature it makes may span cells that are not connected;
            // that is this connection's consequence, folded under it.
            misjoined.push((diags.len(), ends));
        }
        if !neighbours {
            let (ca, cb) = (&tile.cells[a.cell], &tile.cells[b.cell]);
            diags.push(
                bad(
                    span,
                    format!(
                        "`{}` lies in cell `{}` and `{}` in cell `{}`, which are not neighbours: a connection joins segments across a side the two cells share",
                        a.id, ca.id, b.id, cb.id
                    ),
                )
                .with_label(src.label(ca.span.clone(), format!("cell `{}` at [{}, {}]", ca.id, ca.at.0, ca.at.1)))
                .with_label(src.label(cb.span.clone(), format!("cell `{}` at [{}, {}]", cb.id, cb.at.0, cb.at.1))),
            );
        } else if !facing_set.contains(&p) {
            let what = if a.kind == FeatureKind::Field {
                "on facing half-edges of an inner side"
            } else {
                "across an inner side"
            };
            diags.push(bad(
                span,
                format!("`{}` and `{}` do not face each other {what}", a.id, b.id),
            ));
        }
        pairs.insert(p, c.id.value.clone());
        tile.connections.push(CompiledConnection {
            id: c.id.value.clone(),
            segments: [a.id.clone(), b.id.clone()],
            ends,
            joined: c.joined.value,
            rule: c.rule.as_ref().map(|r| r.value.clone()),
            span: c.id.span.clone(),
        });
    }
    for (p, (cell, s)) in facing {
        if pairs.contains_key(p) {
            continue;
        }
        let (a, b) = (&tile.segments[p.0], &tile.segments[p.1]);
        let rule = if a.kind == FeatureKind::Field {
            "W-21"
        } else {
            "W-18"
        };
        let c = &tile.cells[*cell];
        if let Some((root, _)) = roots
            .iter()
            .find(|(_, meant)| meant.contains(&p.0) && meant.contains(&p.1))
            .or_else(|| {
                roots
                    .iter()
                    .find(|(_, m)| m.contains(&p.0) || m.contains(&p.1))
            })
        {
            diags[*root].notes.push(format!(
                "so {} segments `{}` and `{}` (facing across inner side {} of cell `{}`) have no connection",
                kind_name(a.kind),
                a.id,
                b.id,
                s.name(),
                c.id
            ));
            continue;
        }
        diags.push(
            src.diag(
                Code::MissingConnection,
                c.side_spans[s.index()].clone(),
                format!(
                    "{} segments `{}` and `{}` face each other across inner side {} of cell `{}`; add a connection with `joined = true` or `false`",
                    kind_name(a.kind),
                    a.id,
                    b.id,
                    s.name(),
                    c.id
                ),
            )
            .with_rule(rule),
        );
    }
    misjoined
}

/// Every multi-cell feature's cells are edge-connected through the tile (W-18).
fn check_feature_cells(
    tile: &CompiledTile,
    misjoined: &[Misjoined],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    for f in &tile.features {
        if f.cells.len() < 2 {
            continue;
        }
        let inside: HashSet<usize> = f.cells.iter().copied().collect();
        let mut reached: HashSet<usize> = HashSet::from([f.cells[0]]);
        let mut stack = vec![f.cells[0]];
        while let Some(c) = stack.pop() {
            for n in tile.cells[c].neighbour.iter().flatten() {
                if inside.contains(n) && reached.insert(*n) {
                    stack.push(*n);
                }
            }
        }
        if reached.len() < inside.len() {
            let names: Vec<&str> = f.cells.iter().map(|&c| tile.cells[c].id.as_str()).collect();
            let first = &tile.segments[f.members[0]];
            if let Some((root, _)) = misjoined
                .iter()
                .find(|(_, ends)| ends.iter().any(|e| f.members.contains(e)))
            {
                diags[*root].notes.push(format!(
                    "so the {} feature of `{}` spans cells {} that are not edge-connected",
                    kind_name(f.kind),
                    first.id,
                    names.join(", ")
                ));
                continue;
            }
            diags.push(
                src.diag(
                    Code::DisconnectedFeature,
                    first.span.clone(),
                    format!(
                        "the {} feature of `{}` spans cells {} that are not edge-connected",
                        kind_name(f.kind),
                        first.id,
                        names.join(", ")
                    ),
                )
                .with_rule("W-18"),
            );
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::raw::{RawCell, RawSegment};

    /// Compile a tile-set text (which must parse) as `test.toml`.
    pub(crate) fn compile(text: &str) -> (CompiledSet, Vec<Diagnostic>) {
        let doc: TileSetFile = toml::from_str(text).expect("test TOML parses");
        let loaded = Loaded {
            source: Source::new("test.toml", text.to_string()),
            doc,
        };
        compile_tileset(&loaded)
    }

    /// Base tile D (city, road, two fields; B-1), the start tile.
    pub(crate) const D: &str = r#"
[set]
id = "t"
name = "t"
[[tile]]
id = "D"
count = 3
start = true
sides = ["city", "road", "field", "road"]
segments = [
  { id = "city", kind = "city", sides = ["N"] },
  { id = "road", kind = "road", sides = ["W", "E"] },
  { id = "north", kind = "field", halves = ["Wn", "En"], borders = ["city"] },
  { id = "south", kind = "field", halves = ["Es", "Se", "Sw", "Ws"] },
]
"#;

    /// The guard behind `disconnected-feature` (W-18): reported on its own when no
    /// `bad-connection` is the root cause, folded under that one when it is.
    #[test]
    fn a_disconnected_feature_is_reported_unless_folded() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/invalid/bad-connection-not-neighbours.toml"
        ))
        .unwrap();
        let (set, diags) = compile(&text);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, Code::BadConnection);
        assert!(diags[0]
            .notes
            .iter()
            .any(|n| n.contains("not edge-connected")));
        assert_eq!(diags[0].labels.len(), 2, "both cells are shown");
        let src = Source::new("test.toml", text);
        let mut alone = Vec::new();
        check_feature_cells(&set.tiles[0], &[], &src, &mut alone);
        assert_eq!(alone.len(), 1, "{alone:?}");
        assert_eq!(alone[0].code, Code::DisconnectedFeature);
    }

    #[test]
    fn tile_d_has_a_city_a_road_and_two_fields_b1() {
        let (set, diags) = compile(D);
        assert!(diags.is_empty(), "{diags:?}");
        let t = &set.tiles[0];
        assert!(t.valid);
        assert_eq!(t.copies(), 4);
        let kinds: Vec<_> = t.features.iter().map(|f| f.kind).collect();
        assert_eq!(
            kinds,
            [
                FeatureKind::City,
                FeatureKind::Road,
                FeatureKind::Field,
                FeatureKind::Field
            ]
        );
        // B-3: the city has one open side, the road two open ends.
        assert_eq!(t.features[0].open_sides, 1);
        assert_eq!(t.features[1].open_sides, 2);
        // B-6: only the northern field borders the city.
        assert_eq!(t.features[2].borders, [0]);
        assert!(t.features[3].borders.is_empty());
        assert_eq!(t.graph.node_count(), 4);
        assert_eq!(t.graph.edge_count(), 0);
    }

    #[test]
    fn two_start_tiles_are_a_bad_count_b1() {
        let second = D[D.find("[[tile]]").unwrap()..].replace("\"D\"", "\"D2\"");
        let text = format!("{D}\n{second}");
        let (_, diags) = compile(&text);
        let bad: Vec<_> = diags.iter().filter(|d| d.code == Code::BadCount).collect();
        assert_eq!(bad.len(), 1, "{diags:?}");
        assert_eq!(bad[0].rule.as_deref(), Some("B-1"));
    }

    #[test]
    fn every_problem_of_a_tile_is_reported_with_its_line() {
        let text = r#"
[set]
id = "t"
name = "t"
[[tile]]
id = "bad"
count = 1
sides = ["city", "road", "field", "any"]
segments = [
  { id = "road", kind = "road", sides = ["E"], pennants = 1 },
  { id = "f1", kind = "field", halves = ["En", "Es", "Se"], borders = ["road"] },
  { id = "f2", kind = "field", halves = ["Sw", "Se", "Ws"] },
]
"#;
        let (set, diags) = compile(text);
        let got: Vec<(&str, usize)> = diags.iter().map(|d| (d.code.as_str(), d.line)).collect();
        // City side N touched by nothing (line 8), a pennant on a road (10), a field bordering a
        // road (11), half Se in two fields (12), a half of the `any` side W (12).
        assert!(got.contains(&("side-coverage", 8)), "{got:?}");
        assert!(got.contains(&("segment-shape", 10)), "{got:?}");
        assert!(got.contains(&("bad-border", 11)), "{got:?}");
        assert!(got.contains(&("half-coverage", 12)), "{got:?}");
        assert!(got.contains(&("segment-shape", 12)), "{got:?}");
        assert!(!set.tiles[0].valid);
    }

    fn cell(id: &str, x: i64, y: i64) -> Sp<RawCell> {
        Sp::unspanned(RawCell {
            id: Sp::unspanned(id.to_string()),
            at: Sp::unspanned(vec![Sp::unspanned(x), Sp::unspanned(y)]),
            sides: Sp::unspanned(vec![Sp::unspanned(RawSideKind::Field); 4]),
        })
    }

    fn huge(cells: Vec<Sp<RawCell>>) -> Vec<Diagnostic> {
        let tile = RawTile {
            id: Sp::unspanned("huge".into()),
            name: None,
            count: Sp::unspanned(1_000_000_000_000),
            start: false,
            tags: vec![],
            sides: None,
            cells: Some(Sp::unspanned(cells)),
            segments: vec![Sp::unspanned(RawSegment {
                id: Sp::unspanned("w".into()),
                kind: Sp::unspanned(RawSegmentKind::Wonder),
                cell: Some(Sp::unspanned("c0".into())),
                sides: vec![],
                halves: vec![],
                pennants: Sp::unspanned(0),
                borders: vec![],
                hidden_borders: None,
                tags: vec![],
            })],
            connections: vec![],
            note: None,
        };
        let doc = TileSetFile {
            set: crate::raw::SetInfo {
                id: Sp::unspanned("t".into()),
                name: "t".into(),
                description: None,
            },
            tile: vec![Sp::unspanned(tile)],
            fact: vec![],
            ability: vec![],
        };
        let loaded = Loaded {
            source: Source::new("huge.toml", String::new()),
            doc,
        };
        compile_tileset(&loaded).1
    }

    #[test]
    fn a_tile_with_100000_cells_is_reported_in_bounded_time_and_size() {
        // A long row: connected, so only the size limit and the count are wrong.
        let row: Vec<_> = (0..100_000).map(|i| cell(&format!("c{i}"), i, 0)).collect();
        let diags = huge(row);
        let codes: Vec<_> = diags.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::BadCount, Code::TileShape], "{diags:?}");
        // All on one spot: overlapping, reported a bounded number of times.
        let pile: Vec<_> = (0..100_000).map(|i| cell(&format!("c{i}"), 0, 0)).collect();
        let diags = huge(pile);
        let overlapping = diags
            .iter()
            .filter(|d| d.code == Code::OverlappingCells)
            .count();
        assert!(overlapping > 0 && overlapping <= MAX_CELL_REPORTS);
        // Scattered far apart (coordinates near the i64 limits must not overflow).
        let scattered: Vec<_> = (0..100_000)
            .map(|i| cell(&format!("c{i}"), i64::MAX - 2 * i, i64::MIN + 3 * i))
            .collect();
        let diags = huge(scattered);
        let disconnected = diags
            .iter()
            .filter(|d| d.code == Code::DisconnectedCells)
            .count();
        assert!(disconnected > 0 && disconnected <= MAX_CELL_REPORTS);
    }

    #[test]
    fn a_w21_override_splits_a_joined_field() {
        let text = r#"
[set]
id = "t"
name = "t"
[[tile]]
id = "domino"
count = 1
cells = [
  { id = "a", at = [0, 0], sides = ["field", "field", "field", "field"] },
  { id = "b", at = [0, 1], sides = ["field", "field", "field", "field"] },
]
segments = [
  { id = "a.f", kind = "field", cell = "a", halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] },
  { id = "b.f", kind = "field", cell = "b", halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] },
]
connections = [{ id = "meadow", segments = ["a.f", "b.f"], joined = true, rule = "W-21" }]
"#;
        let (mut set, diags) = compile(text);
        assert!(diags.is_empty(), "{diags:?}");
        let t = &mut set.tiles[0];
        assert_eq!(t.features.len(), 1);
        assert_eq!(t.features[0].cells, [0, 1]);
        assert_eq!(t.cells[0].outer, [true, true, false, true]);
        assert!(t.set_joined("meadow", false));
        assert_eq!(t.features.len(), 2);
        // The separate connection is still an edge of the graph, just not a joining one.
        assert_eq!(t.graph.edge_count(), 1);
        assert!(!t.set_joined("nope", true));
    }

    mod arbitrary {
        use super::super::*;
        use crate::raw::{RawCell, RawConnection, RawSegment};
        use proptest::prelude::*;

        const IDS: [&str; 5] = ["a", "b", "c", "d", "e"];

        fn id() -> impl Strategy<Value = Sp<String>> {
            (0..IDS.len()).prop_map(|i| Sp::unspanned(IDS[i].to_string()))
        }

        fn side_kind() -> impl Strategy<Value = Sp<RawSideKind>> {
            prop_oneof![
                Just(RawSideKind::City),
                Just(RawSideKind::Road),
                Just(RawSideKind::Field),
                Just(RawSideKind::Any)
            ]
            .prop_map(Sp::unspanned)
        }

        fn cell() -> impl Strategy<Value = Sp<RawCell>> {
            (
                id(),
                prop::collection::vec(-2i64..3, 1..4),
                prop::collection::vec(side_kind(), 3..6),
            )
                .prop_map(|(id, at, sides)| {
                    Sp::unspanned(RawCell {
                        id,
                        at: Sp::unspanned(at.into_iter().map(Sp::unspanned).collect()),
                        sides: Sp::unspanned(sides),
                    })
                })
        }

        fn segment() -> impl Strategy<Value = Sp<RawSegment>> {
            const KINDS: [RawSegmentKind; 5] = [
                RawSegmentKind::City,
                RawSegmentKind::Road,
                RawSegmentKind::Field,
                RawSegmentKind::Cloister,
                RawSegmentKind::Wonder,
            ];
            const SIDES: [RawSide; 4] = [RawSide::N, RawSide::E, RawSide::S, RawSide::W];
            const HALVES: [RawHalf; 8] = [
                RawHalf::Nw,
                RawHalf::Ne,
                RawHalf::En,
                RawHalf::Es,
                RawHalf::Se,
                RawHalf::Sw,
                RawHalf::Ws,
                RawHalf::Wn,
            ];
            (
                id(),
                0..5usize,
                prop::option::of(id()),
                prop::collection::vec(0..4usize, 0..5),
                prop::collection::vec(0..8usize, 0..9),
                0u8..4,
                prop::collection::vec(id(), 0..3),
            )
                .prop_map(|(id, k, cell, sides, halves, pennants, borders)| {
                    Sp::unspanned(RawSegment {
                        id,
                        kind: Sp::unspanned(KINDS[k]),
                        cell,
                        sides: sides.into_iter().map(|s| Sp::unspanned(SIDES[s])).collect(),
                        halves: halves
                            .into_iter()
                            .map(|h| Sp::unspanned(HALVES[h]))
                            .collect(),
                        pennants: Sp::unspanned(pennants),
                        borders,
                        hidden_borders: None,
                        tags: vec![],
                    })
                })
        }

        fn connection() -> impl Strategy<Value = Sp<RawConnection>> {
            (id(), prop::collection::vec(id(), 0..4), any::<bool>()).prop_map(
                |(id, segs, joined)| {
                    Sp::unspanned(RawConnection {
                        id,
                        segments: Sp::unspanned(segs),
                        joined: Sp::unspanned(joined),
                        rule: None,
                    })
                },
            )
        }

        fn tile() -> impl Strategy<Value = Sp<RawTile>> {
            (
                id(),
                0u64..2000,
                any::<bool>(),
                prop::option::of(prop::collection::vec(side_kind(), 3..6)),
                prop::option::of(prop::collection::vec(cell(), 0..6)),
                prop::collection::vec(segment(), 1..8),
                prop::collection::vec(connection(), 0..5),
            )
                .prop_map(|(id, count, start, sides, cells, segments, connections)| {
                    Sp::unspanned(RawTile {
                        id,
                        name: None,
                        count: Sp::unspanned(count),
                        start,
                        tags: vec![],
                        sides: sides.map(Sp::unspanned),
                        cells: cells.map(Sp::unspanned),
                        segments,
                        connections,
                        note: None,
                    })
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(512))]

            /// Arbitrary (mostly broken) tiles never panic the compiler or the lowering; a tile
            /// marked valid has no error and lowers.
            #[test]
            fn arbitrary_tiles_never_panic(tiles in prop::collection::vec(tile(), 1..4)) {
                let doc = TileSetFile {
                    set: crate::raw::SetInfo {
                        id: Sp::unspanned("t".into()),
                        name: "t".into(),
                        description: None,
                    },
                    tile: tiles,
                    fact: vec![],
                    ability: vec![],
                };
                let loaded = Loaded { source: Source::new("a.toml", String::new()), doc };
                let (set, diags) = compile_tileset(&loaded);
                let all_valid = set.tiles.iter().all(|t| t.valid);
                if diags.is_empty() {
                    prop_assert!(all_valid);
                }
                for t in &set.tiles {
                    let lowered = crate::lower::lower_tile(t, &[]);
                    if t.valid {
                        prop_assert!(lowered.is_ok());
                    }
                }
            }
        }
    }
}
