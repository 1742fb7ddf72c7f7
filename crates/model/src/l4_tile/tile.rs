//! Compiled-tile types: a tile type as the tile-set driver ([`crate::compile`]) builds it — its
//! cells, segments, connections, segment graph and features — and the names of feature and side
//! kinds for messages. Layer 4: these types know nothing of checks, sets or variants.

use std::ops::Range;

use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::visit::EdgeRef;
use serde::Serialize;
use tegula_ruleset::{Ability, FeatureKind, Half, PlacementRule, Side, SideKind};

use crate::raw::{GlyphShape, Sp};

pub use crate::caps::{MAX_CELLS, MAX_COUNT};

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
    pub abilities: Vec<AbilityDef>,
    /// Ids of segments left out because their cell is missing or names no cell: references to
    /// them are consequences of that root cause, not reported again.
    #[serde(skip)]
    pub dropped: Vec<String>,
    /// The marks pictures draw for this tile's segment tags: its file's `[set] glyphs` entries
    /// whose tag one of its segments carries ([`crate::glyphs`]).
    #[serde(skip)]
    pub glyphs: Vec<TagGlyph>,
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
        let g = self.segment_graph();
        let (comp, groups) = joined_components(&g);
        for (i, seg) in self.segments.iter_mut().enumerate() {
            seg.feature = comp[i];
        }
        let mut features: Vec<CompiledFeature> =
            groups.into_iter().map(|m| self.feature(m)).collect();
        self.resolve_borders(&mut features, &comp);
        self.graph = g;
        self.features = features;
    }

    /// The segment graph: node `i` is segment `i`, each connection an edge.
    fn segment_graph(&self) -> UnGraph<usize, Link> {
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
        g
    }

    /// The feature made of segments `members` (ascending): its kind, cells, open sides,
    /// pennants and tags.
    fn feature(&self, members: Vec<usize>) -> CompiledFeature {
        let kind = self.segments[members[0]].kind;
        let mut cells: Vec<usize> = members.iter().map(|&m| self.segments[m].cell).collect();
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
    }

    /// Each field's bordered cities, from its segments' bordered segments (`comp`: each
    /// segment's feature).
    fn resolve_borders(&self, features: &mut [CompiledFeature], comp: &[usize]) {
        for f in features.iter_mut() {
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
    }
}

/// The connected components of `g` over joined edges: each node's component, and each
/// component's nodes (ascending), numbered by their first node.
fn joined_components(g: &UnGraph<usize, Link>) -> (Vec<usize>, Vec<Vec<usize>>) {
    let n = g.node_count();
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
    (comp, groups)
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

/// A checked ability, not yet lowered: the tag of a `near-building` condition is still a name.
#[derive(Clone, Debug)]
pub struct AbilityDef {
    /// The ability; a `NearCells` condition has `tag: None` until lowering.
    pub ability: Ability,
    /// The tag name of the `near-building` condition (`None`: cloisters only, or no such
    /// condition).
    pub near_tag: Option<Sp<String>>,
    /// The `per_players` table, for the check against the variant's player range.
    pub per_players_at: Option<Range<usize>>,
    /// The tag name of a `count = "features"` filter (`tag`), resolved when lowered.
    pub count_tag: Option<Sp<String>>,
    /// A gain's resource id, checked against the variant's resources.
    pub gain_resource: Option<Sp<String>>,
    /// A gain's amount over the triggering feature (of this kind), parsed against the
    /// variant's tags when it is checked and lowered (the effect holds 0 until then).
    pub gain_amount: Option<(Sp<String>, FeatureKind)>,
    /// A score's `per_value` over the triggering feature (of this kind), resolved like
    /// `gain_amount`.
    pub per_value: Option<(Sp<String>, FeatureKind)>,
    /// Span of the entry's `tile` value.
    pub span: Range<usize>,
    /// Whether the entry comes from the variant file (else from the tile's own file).
    pub in_variant: bool,
}

/// The mark pictures draw on every segment carrying `tag`, or once on a tile carrying it as a
/// tile-level tag (Goldmines' `gold`, GM-1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagGlyph {
    /// The segment tag.
    pub tag: String,
    /// The symbol's shape.
    pub shape: GlyphShape,
    /// Fill colour, `#rrggbb`.
    pub colour: String,
}
