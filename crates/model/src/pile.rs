//! The variant's pile and edge vocabulary (docs/FORMAT.md, "Edge kinds", "Pile groups"): the
//! edge kinds its tile sets declare, numbered once for the whole variant; the start tile a
//! variant names instead of its set's; and the ordered groups of the draw pile.

use tegula_ruleset::limits::MAX_EDGE_KINDS;
use tegula_ruleset::{EdgeKind, PileGroup, PlacementRule, SideKind};

use crate::compile::CompiledTile;
use crate::diag::{Code, Diagnostic, Source};
use crate::raw::{RawEdgeKind, RawPileGroup, Sp};

/// Number a set's declared edge kinds in the variant's list (adding the new ones) and renumber
/// its tiles' declared sides and placement rules from the file's numbering to the variant's.
pub fn renumber_edges(
    declared: &[Sp<RawEdgeKind>],
    variant: &mut Vec<EdgeKind>,
    tiles: &mut [CompiledTile],
) {
    let map: Vec<u8> = declared
        .iter()
        .map(|e| {
            let id = &e.value.id.value;
            let at = variant.iter().position(|k| &k.id == id).unwrap_or_else(|| {
                let name = e.value.name.clone();
                variant.push(EdgeKind {
                    id: id.clone(),
                    name,
                });
                variant.len() - 1
            });
            u8::try_from(at).unwrap_or(u8::MAX)
        })
        .collect();
    let renumber = |k: &mut SideKind| {
        if let SideKind::Declared(i) = k {
            *i = map.get(usize::from(*i)).copied().unwrap_or(u8::MAX);
        }
    };
    for t in tiles {
        t.cells
            .iter_mut()
            .flat_map(|c| &mut c.sides)
            .for_each(renumber);
        for p in &mut t.placement {
            match p {
                PlacementRule::Continues { kind, .. } | PlacementRule::RoomAhead { kind, .. } => {
                    renumber(kind)
                }
            }
        }
    }
}

/// More declared edge kinds than the engine's side signatures hold is an error of the variant.
pub fn check_edge_count(edges: &[EdgeKind], vsrc: &Source, diags: &mut Vec<Diagnostic>) {
    if edges.len() > MAX_EDGE_KINDS {
        let names: Vec<&str> = edges.iter().map(|e| e.id.as_str()).collect();
        let why = format!(
            "the variant's tile sets declare {} edge kinds ({}); the engine plays at most \
             {MAX_EDGE_KINDS} beside city, road and field",
            edges.len(),
            names.join(", ")
        );
        diags.push(vsrc.diag(Code::BadVariant, 0..0, why));
    }
}

/// The variant's `start`: one pile copy of the named tile becomes the start tile, and the
/// sets' start copy goes into the pile (R-2: the spring starts, the base start tile is
/// shuffled in).
pub fn start_override(
    start: Option<&Sp<String>>,
    tiles: &mut [CompiledTile],
    sets_ok: bool,
    vsrc: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    // With a set missing, an unknown id would be a consequence, not a cause.
    let Some(start) = start.filter(|_| sets_ok) else {
        return;
    };
    let Some(i) = tiles.iter().position(|t| t.id == start.value) else {
        let why = format!("`start` names tile `{}`, which no set has", start.value);
        diags.push(vsrc.diag(Code::DanglingReference, start.span.clone(), why));
        return;
    };
    if tiles[i].count == 0 {
        let why = format!("`start` tile `{}` has no copy in the pile", start.value);
        diags.push(
            vsrc.diag(Code::BadCount, start.span.clone(), why)
                .with_rule("B-1"),
        );
        return;
    }
    for t in tiles.iter_mut().filter(|t| t.start) {
        t.start = false;
        t.count += 1;
    }
    tiles[i].count -= 1;
    tiles[i].start = true;
}

/// The `[[pile]]` groups with their tiles as indices into `tiles`: every id names a tile (not
/// checked with a set missing: the id may be in it), none is in two groups.
pub fn groups(
    raw: &[Sp<RawPileGroup>],
    tiles: &[CompiledTile],
    sets_ok: bool,
    rules: &crate::rules::Scope,
    vsrc: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<PileGroup> {
    let mut taken = vec![false; tiles.len()];
    let mut out = Vec::with_capacity(raw.len());
    for g in raw {
        let g = &g.value;
        let mut members = Vec::new();
        for id in &g.tiles {
            let Some(i) = tiles.iter().position(|t| t.id == id.value) else {
                if sets_ok {
                    let why = format!("pile group names tile `{}`, which no set has", id.value);
                    diags.push(vsrc.diag(Code::DanglingReference, id.span.clone(), why));
                }
                continue;
            };
            if std::mem::replace(&mut taken[i], true) {
                let why = format!("tile `{}` is already in a pile group", id.value);
                diags.push(
                    vsrc.diag(Code::DuplicateId, id.span.clone(), why)
                        .with_rule("R-2"),
                );
                continue;
            }
            members.push(i as u16);
        }
        let unplaceable_rule = g.unplaceable_rule.as_ref().map(|r| {
            diags.extend(rules.check(vsrc, &r.value, r.span.clone()));
            r.value.clone()
        });
        let draw_rule = g.draw_rule.as_ref().map(|r| {
            diags.extend(rules.check(vsrc, &r.value, r.span.clone()));
            r.value.clone()
        });
        out.push(PileGroup {
            tiles: members,
            unplaceable_rule,
            draw_rule,
        });
    }
    out
}
