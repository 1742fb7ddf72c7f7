//! Compiling: raw tiles → per-tile petgraph model (segments as nodes, connections as edges),
//! features as connected components with their facts; topology checks; rulebook fact checks.
//!
//! Every problem is reported (not just the first), each at the most specific span the TOML
//! gives. A tile with errors is still compiled as far as possible (bad pieces are left out) and
//! marked `valid = false`, so one mistake does not hide the others; rulebook facts are only
//! checked against valid tiles (a broken tile would make every fact about it fail spuriously).

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use petgraph::graph::UnGraph;
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

pub use crate::caps::{MAX_CELLS, MAX_COUNT};
pub use crate::tile::{
    kind_name, side_kind_name, CompiledCell, CompiledConnection, CompiledFeature, CompiledSegment,
    CompiledTile, Link,
};
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
    pub rule_form: crate::raw_when::RawRuleForm,
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
    let rule_form = crate::raw_when::RawRuleForm {
        token: doc.token.clone(),
        counter: doc.counter.clone(),
        neutral: doc.neutral.clone(),
        groups: Vec::new(),
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
