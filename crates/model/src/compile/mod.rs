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
use tegula_ruleset::{FeatureKind, Half, PlacementRule, Side, SideKind};

use crate::diag::{Code, Diagnostic, Source};
use crate::load::Loaded;
use crate::raw::{
    RawHalf, RawPlacementKind, RawSegmentKind, RawSide, RawSideKind, RawTile, Sp, TileSetFile,
};

mod cells;
mod connections;
mod coverage;
mod features;
mod segments;
#[cfg(test)]
pub(crate) mod tests;

use cells::*;
use connections::*;
use coverage::*;
use features::*;
use segments::*;

/// Most cells a tile may have (the engine keeps a feature's cells in an 8-bit set).
pub const MAX_CELLS: usize = 8;
/// Largest allowed `count` of a tile.
pub const MAX_COUNT: u64 = 1000;
/// Most diagnostics of one kind reported for one tile by the per-cell checks (overlapping and
/// disconnected cells), so that a hostile tile with 100,000 cells stays cheap to report.
pub(super) const MAX_CELL_REPORTS: usize = 20;

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
    /// The rules the file declares (`[[rule]]`), beside the registry's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<crate::rules::Rule>,
    /// The edge kinds the file declares (`[[edge]]`), which its tiles' declared sides index.
    #[serde(skip)]
    pub edges: Vec<crate::raw::Sp<crate::raw::RawEdgeKind>>,
    /// The file's tokens, counters and `[[when]]` rules, as written (lowered per variant, where
    /// the names they use are known).
    #[serde(skip)]
    pub rule_form: crate::rule_form::RawRuleForm,
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
    /// The tile's abilities, checked (docs/RULE-LANGUAGE.md); tag names are resolved when a variant
    /// is lowered. A variant's `[[ability]]` entries replace them.
    #[serde(skip)]
    pub abilities: Vec<crate::abilities::AbilityDef>,
    /// Ids of segments left out because their cell is missing or names no cell: references to
    /// them are consequences of that root cause, not reported again.
    #[serde(skip)]
    pub dropped: Vec<String>,
    /// The marks pictures draw for this tile's segment tags: its file's `[set] glyphs` entries
    /// whose tag one of its segments carries ([`crate::glyphs`]).
    #[serde(skip)]
    pub glyphs: Vec<crate::glyphs::TagGlyph>,
    /// Placement rules; a declared edge kind is indexed among its file's `[[edge]]`s (the
    /// variant renumbers them when it is lowered).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub placement: Vec<PlacementRule>,
    /// Rule ids its placement events cite, each once: its file's `[set] rules`, its own, then
    /// those of its placement rules.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
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

/// The side kind of `k`; a declared kind by its index among the file's `[[edge]]`s (`None` when
/// the file declares no such kind).
pub(super) fn side_kind(k: &RawSideKind, edges: &[String]) -> Option<SideKind> {
    Some(match k {
        RawSideKind::City => SideKind::City,
        RawSideKind::Road => SideKind::Road,
        RawSideKind::Field => SideKind::Field,
        RawSideKind::Any => SideKind::Any,
        RawSideKind::Edge(id) => SideKind::Declared(edge_index(id, edges)?),
    })
}

/// Index of the declared edge kind `id` among `edges`.
pub(super) fn edge_index(id: &str, edges: &[String]) -> Option<u8> {
    edges.iter().position(|e| e == id).map(|i| i as u8)
}

pub(super) fn side(s: RawSide) -> Side {
    match s {
        RawSide::N => Side::N,
        RawSide::E => Side::E,
        RawSide::S => Side::S,
        RawSide::W => Side::W,
    }
}

pub(super) fn half(h: RawHalf) -> Half {
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

pub(super) fn segment_kind(k: RawSegmentKind) -> FeatureKind {
    match k {
        RawSegmentKind::City => FeatureKind::City,
        RawSegmentKind::Road => FeatureKind::Road,
        RawSegmentKind::Field => FeatureKind::Field,
        RawSegmentKind::Cloister => FeatureKind::Cloister,
        RawSegmentKind::Wonder => FeatureKind::Unscored,
    }
}

/// Lower-case name of a feature kind, for messages.
pub fn kind_name(k: FeatureKind) -> &'static str {
    k.name()
}

/// Lower-case name of a side kind, for messages.
pub fn side_kind_name(k: SideKind) -> &'static str {
    match k {
        SideKind::City => "city",
        SideKind::Road => "road",
        SideKind::Field => "field",
        SideKind::Any => "any",
        SideKind::Declared(_) => "a declared edge",
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
    let edges = declared_edges(doc, src, &mut diags);
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
        let compiled = compile_tile(t, &set, &edges, src, &mut diags);
        let ok = !diags[before..].iter().any(Diagnostic::is_error);
        match compiled {
            Some(mut ct) => {
                ct.valid = ok;
                ct.rules = cited_on_place(&doc.set.rules, t);
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
        )
        .chain(
            doc.tile
                .iter()
                .flat_map(|t| &t.value.placement)
                .map(|p| &p.value.cites),
        )
        .chain(&doc.set.rules)
        .chain(doc.tile.iter().flat_map(|t| &t.value.rules))
        .chain(doc.when.iter().map(|w| &w.value.rule));
    let mut rules = crate::rules::Scope::default();
    rules.declare(&doc.rule, src, &mut diags);
    diags.extend(cited.filter_map(|r| rules.check(src, &r.value, r.span.clone())));
    let (fact_diags, facts) = crate::facts::check_facts(&doc.fact, &tiles, &broken, src);
    diags.extend(fact_diags);
    let known: Vec<&str> = doc.tile.iter().map(|t| t.value.id.value.as_str()).collect();
    crate::abilities::attach(&doc.ability, &known, &mut tiles, src, &mut diags);
    crate::glyphs::attach(&doc.set.glyphs, &mut tiles, src, &mut diags);
    let rules = rules.declared().to_vec();
    let edges = doc.edge.clone();
    let rule_form = crate::rule_form::RawRuleForm {
        token: doc.token.clone(),
        counter: doc.counter.clone(),
        when: doc.when.clone(),
    };
    (
        CompiledSet {
            set,
            tiles,
            facts,
            rules,
            edges,
            rule_form,
        },
        diags,
    )
}

/// The ids of the file's declared edge kinds, in file order; a repeated id or one of the
/// built-in kinds' names is reported.
fn declared_edges(doc: &TileSetFile, src: &Source, diags: &mut Vec<Diagnostic>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in &doc.edge {
        let id = &e.value.id;
        if ["city", "road", "field", "any"].contains(&id.value.as_str()) || out.contains(&id.value)
        {
            let why = format!("edge kind `{}` is already a side kind", id.value);
            diags.push(src.diag(Code::DuplicateId, id.span.clone(), why));
        }
        out.push(id.value.clone());
    }
    out
}

/// The tile's placement rules, with the edge kind by its index among the file's `edges`.
fn placement_rules(
    t: &RawTile,
    edges: &[String],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<PlacementRule> {
    let mut out = Vec::new();
    for p in &t.placement {
        let p = &p.value;
        let Some(i) = edge_index(&p.edge.value, edges) else {
            let why = format!(
                "placement rule names edge kind `{}`, which this file does not declare \
                 (`[[edge]]`)",
                p.edge.value
            );
            diags.push(src.diag(Code::DanglingReference, p.edge.span.clone(), why));
            continue;
        };
        let (kind, rule) = (SideKind::Declared(i), p.cites.value.clone());
        out.push(match p.rule.value {
            RawPlacementKind::Continues => PlacementRule::Continues { kind, rule },
            RawPlacementKind::RoomAhead => PlacementRule::RoomAhead { kind, rule },
        });
    }
    out
}

/// The rule ids a tile's placement events cite, each once: the set's, the tile's own, then
/// those its placement rules cite (a placement satisfied them).
fn cited_on_place(set: &[Sp<String>], tile: &RawTile) -> Vec<String> {
    let placement = tile.placement.iter().map(|p| &p.value.cites);
    let mut out: Vec<String> = Vec::new();
    for r in set.iter().chain(&tile.rules).chain(placement) {
        if !out.contains(&r.value) {
            out.push(r.value.clone());
        }
    }
    out
}

/// One coverage claim: a segment touching a side or half at a span.
pub(super) type Claim = (usize, Range<usize>);

/// Compile one tile; `None` when its cells cannot be determined.
pub(super) fn compile_tile(
    t: &RawTile,
    set: &str,
    edges: &[String],
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
    let first_diag = diags.len();
    let cells = compile_cells(t, edges, src, diags)?;
    let mega = t.cells.is_some();

    let what = format!("tile `{}`", t.id.value);
    let tags = unique_tags(&t.tags, &what, src, diags);

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
        glyphs: Vec::new(),
        placement: placement_rules(t, edges, src, diags),
        rules: Vec::new(),
    };

    compile_segments(t, mega, &mut tile, src, diags);
    crate::borders::check_borders(t, &mut tile, src, diags);
    let unplaced = unplaced_claims(t, &tile);
    let (side_claims, half_claims) = check_coverage(&tile, &unplaced, src, diags);
    cells::fold_under_mismatches(&tile.cells, diags, first_diag);
    let facing = facing_pairs(&tile, &side_claims, &half_claims);
    let misjoined = compile_connections(t, &mut tile, &facing, src, diags);
    tile.rebuild();
    check_feature_cells(&tile, &misjoined, src, diags);
    Some(tile)
}

/// The tags as written, each once; a tag listed twice is a warning at the second listing (it
/// counts once: `count(TAG)` counts segments carrying it, not listings). `what` names the
/// tile or segment.
pub(crate) fn unique_tags(
    raw: &[Sp<String>],
    what: &str,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    for tag in raw {
        if !tags.contains(&tag.value) {
            tags.push(tag.value.clone());
            continue;
        }
        let d = src
            .diag(
                Code::DuplicateId,
                tag.span.clone(),
                format!("{what} lists tag `{}` twice", tag.value),
            )
            .with_note(
                "a tag counts once on its segment or tile: `count(TAG)` counts the segments \
                 carrying it, not how often it is listed",
            );
        diags.push(Diagnostic {
            severity: crate::diag::Severity::Warning,
            ..d
        });
    }
    tags
}
