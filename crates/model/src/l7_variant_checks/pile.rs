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

/// Why tile `i` of a pile group is never drawn, if it is not: it has no copy left for the pile
/// (its one copy is the start tile, or `tile_count`/`copies` give none), the players hold its
/// copies (`player_tiles`, AM-1), or it is a pool tile, taken at score thresholds (W-1).
fn never_drawn(
    t: &CompiledTile,
    i: usize,
    held: &[tegula_ruleset::PlayerTile],
    pooled: &[u16],
) -> Option<&'static str> {
    if held.iter().any(|p| usize::from(p.tile) == i) {
        Some("the players hold its copies (`player_tiles`), so it is never in the draw pile")
    } else if pooled.iter().any(|&p| usize::from(p) == i) {
        Some("it is a pool tile (`[pool]`), taken at score thresholds and never drawn")
    } else if t.count == 0 && t.start {
        Some("its one copy is the start tile, so none is left for the draw pile")
    } else if t.count == 0 {
        Some("it has no copy in the draw pile")
    } else {
        None
    }
}

/// A `[[pile]]` group's tile that is never drawn is an error at its id (its group's rules would
/// never be cited, and the game would play as if it were not listed); a group none of whose
/// tiles is ever drawn says so too.
pub fn check_drawable(
    raw: &[Sp<RawPileGroup>],
    tiles: &[CompiledTile],
    held: &[tegula_ruleset::PlayerTile],
    pooled: &[u16],
    vsrc: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    for g in raw {
        let found: Vec<(&Sp<String>, usize)> = (g.value.tiles.iter())
            .filter_map(|id| Some((id, tiles.iter().position(|t| t.id == id.value)?)))
            .collect();
        let mut never = 0;
        for &(id, i) in &found {
            let Some(why) = never_drawn(&tiles[i], i, held, pooled) else {
                continue;
            };
            never += 1;
            let whole = if found.len() == 1 {
                "; the group holds no other tile, so its rules are never cited"
            } else {
                ""
            };
            let msg = format!(
                "pile group lists tile `{}`, which is never drawn: {why}{whole}",
                id.value
            );
            diags.push(
                vsrc.diag(Code::BadCount, id.span.clone(), msg)
                    .with_note("list only tiles of the draw pile in `[[pile]]` groups"),
            );
        }
        if never > 1 && never == found.len() {
            let msg = "no tile of this pile group is ever drawn: its rules are never cited";
            diags.push(vsrc.diag(Code::BadCount, g.span.clone(), msg));
        }
    }
}
