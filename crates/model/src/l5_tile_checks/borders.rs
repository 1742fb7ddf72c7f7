//! Field borders (B-6): which cities of its cell a field touches, derived from the half-edges and
//! sides around the cell's perimeter, and compared with what the data states. Farm scoring pays
//! per bordered city, so a border the data merely claims would silently change scores.
//!
//! The perimeter of a cell, walked clockwise from its north-west corner, is a ring of slots:
//! `Nw [N] Ne En [E] Es Se [S] Sw Ws [W] Wn`. A city side fills its three slots with its city
//! segment; a road side gives its halves to the fields that claim them and its middle slot to
//! its road; a field side has only its two halves; an `any` side is one slot of nothing. Then:
//!
//! - a field **borders** a city when one of its half-edges is next to one of the city's slots in
//!   the ring (they meet at a corner of the cell: nothing can come between them);
//! - a field **cannot border** a city when a *wall* separates them: a road or city segment that
//!   reaches the perimeter in two or more places, splitting the rest of the ring into arcs, with
//!   the field in one arc and the city in another; a segment is a wall only if no other segment
//!   lies in two of its arcs (then something crosses it, a bridge, and it separates nothing);
//! - otherwise (an inner field, a field reaching a wall round a road's end) the geometry cannot
//!   tell; such a border is stated under `hidden_borders` with the reason.
//!
//! Mega tiles apply the same rule per cell; a field feature borders the city features its
//! segments border, joined through the tile's connections ([`CompiledTile::rebuild`]).

use std::collections::HashMap;
use std::ops::Range;

use tegula_ruleset::{FeatureKind, Half, Side, SideKind};

use crate::diag::{Code, Diagnostic, Source};
use crate::names::suggest;
use crate::raw::{RawSegment, RawSegmentKind, RawTile, Sp};
use crate::tile::{kind_name, CompiledTile};

/// One slot of a cell's perimeter ring.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The segment there (`None`: an `any` side).
    owner: Option<usize>,
    /// The half-edge, for a field's slot.
    half: Option<Half>,
    /// The side the slot lies on.
    side: Side,
}

/// What the perimeter of one cell says about its fields and cities.
#[derive(Default)]
struct Geometry {
    /// (field, city) → the field's half-edge next to the city's side.
    touching: HashMap<(usize, usize), (Half, Side)>,
    /// Walls: the separating segment and, for every other segment on the ring, its arc.
    walls: Vec<(usize, HashMap<usize, usize>)>,
}

impl Geometry {
    /// The wall that keeps `field` and `city` apart, if any.
    fn separating(&self, field: usize, city: usize) -> Option<usize> {
        self.walls.iter().find_map(|(wall, arcs)| {
            let (a, b) = (arcs.get(&field)?, arcs.get(&city)?);
            (a != b).then_some(*wall)
        })
    }
}

/// Check and resolve every field's `borders` and `hidden_borders` of `t` into `tile`'s segments.
pub(crate) fn check_borders(
    t: &RawTile,
    tile: &mut CompiledTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let geometry: Vec<Option<Geometry>> = (0..tile.cells.len())
        .map(|c| ring(tile, c).map(|r| read_ring(tile, &r)))
        .collect();
    for rs in &t.segments {
        let s = &rs.value;
        if s.kind.value != RawSegmentKind::Field {
            continue;
        }
        let Some(me) = tile.segments.iter().position(|x| x.span == s.id.span) else {
            continue;
        };
        let root = diags.len();
        let stated = resolve(&s.borders, me, tile, src, diags);
        // A typo in `borders` is the root cause of the missing borders that follow from it.
        let root = diags[root..]
            .iter()
            .position(|d| d.code == Code::DanglingReference)
            .map(|k| root + k);
        let hidden = match &s.hidden_borders {
            Some(h) => {
                if h.value.reason.value.trim().is_empty() {
                    diags.push(
                        src.diag(
                            Code::BadBorder,
                            h.value.reason.span.clone(),
                            "a hidden border needs a reason: what in the drawing makes the field touch the city",
                        )
                        .with_rule("B-6"),
                    );
                }
                resolve(&h.value.cities, me, tile, src, diags)
            }
            None => Vec::new(),
        };
        let cell = tile.segments[me].cell;
        if let Some(g) = &geometry[cell] {
            let found = Found {
                stated: &stated,
                hidden: &hidden,
                root,
            };
            compare(s, me, &found, g, tile, src, diags);
        }
        let mut all: Vec<usize> = Vec::new();
        for (i, _) in stated.iter().chain(&hidden) {
            if !all.contains(i) {
                all.push(*i);
            }
        }
        let names = all.iter().map(|&i| tile.segments[i].id.clone()).collect();
        let seg = &mut tile.segments[me];
        seg.border_segments = all;
        seg.borders = names;
        for (i, span) in &hidden {
            if let Some((_, first)) = stated.iter().find(|(j, _)| j == i) {
                diags.push(
                    src.diag(
                        Code::BadBorder,
                        span.clone(),
                        format!(
                            "`{}` is listed in both `borders` and `hidden_borders`",
                            tile.segments[*i].id
                        ),
                    )
                    .with_rule("B-6")
                    .with_label(src.label(first.clone(), "listed in `borders` here")),
                );
            }
        }
    }
}

/// Resolve border ids to city segments of the field's cell; each bad one is reported.
fn resolve(
    ids: &[Sp<String>],
    field: usize,
    tile: &CompiledTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(usize, Range<usize>)> {
    let cell = tile.segments[field].cell;
    let mut out: Vec<(usize, Range<usize>)> = Vec::new();
    for b in ids {
        match tile.segment(&b.value) {
            None if tile.dropped.contains(&b.value) => {} // reported at its cell
            None => {
                let cities = tile
                    .segments
                    .iter()
                    .filter(|x| x.kind == FeatureKind::City && x.cell == cell)
                    .map(|x| x.id.as_str());
                let mut d = src
                    .diag(
                        Code::DanglingReference,
                        b.span.clone(),
                        format!("no segment `{}` in this tile", b.value),
                    )
                    .with_rule("B-6");
                if let Some(near) = suggest(&b.value, cities) {
                    d.notes.push(format!("did you mean `{near}`?"));
                }
                diags.push(d);
            }
            Some(i) if tile.segments[i].kind != FeatureKind::City => diags.push(
                src.diag(
                    Code::BadBorder,
                    b.span.clone(),
                    format!(
                        "a field borders cities only; `{}` is a {}",
                        b.value,
                        kind_name(tile.segments[i].kind)
                    ),
                )
                .with_rule("B-6"),
            ),
            Some(i) if tile.segments[i].cell != cell => diags.push(
                src.diag(
                    Code::BadBorder,
                    b.span.clone(),
                    format!(
                        "`{}` lies in cell `{}`, but this field lies in cell `{}`: a field borders the cities of its own cell (connections join the rest)",
                        b.value,
                        tile.cells[tile.segments[i].cell].id,
                        tile.cells[cell].id
                    ),
                )
                .with_rule("B-6")
                .with_label(src.label(tile.segments[i].span.clone(), "that city")),
            ),
            Some(i) => {
                if !out.iter().any(|(j, _)| *j == i) {
                    out.push((i, b.span.clone()));
                }
            }
        }
    }
    out
}

/// A field's resolved borders, and the dangling reference among them (an index into the
/// diagnostics) under which their consequences are folded.
struct Found<'a> {
    stated: &'a [(usize, Range<usize>)],
    hidden: &'a [(usize, Range<usize>)],
    root: Option<usize>,
}

/// Report where the stated borders of field `me` disagree with the geometry of its cell.
fn compare(
    s: &RawSegment,
    me: usize,
    found: &Found<'_>,
    g: &Geometry,
    tile: &CompiledTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    missing(s, me, found, g, tile, src, diags);
    not_shown(s, me, found.stated, g, tile, src, diags);
}

/// Cities the field touches at a corner of its cell that `borders` does not list.
fn missing(
    s: &RawSegment,
    me: usize,
    found: &Found<'_>,
    g: &Geometry,
    tile: &CompiledTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let (stated, hidden) = (found.stated, found.hidden);
    let field = &tile.segments[me];
    let half_span = |h: Half| {
        let k = field.halves.iter().position(|x| *x == h).unwrap_or(0);
        field
            .half_spans
            .get(k)
            .cloned()
            .unwrap_or(field.span.clone())
    };
    let side_span = |c: usize, sd: Side| {
        let city = &tile.segments[c];
        let k = city.sides.iter().position(|x| *x == sd).unwrap_or(0);
        city.side_spans.get(k).cloned().unwrap_or(city.span.clone())
    };
    let mut touching: Vec<(usize, (Half, Side))> = g
        .touching
        .iter()
        .filter(|((f, _), _)| *f == me)
        .map(|((_, c), at)| (*c, *at))
        .collect();
    touching.sort_by_key(|(c, _)| *c);
    for (c, (h, sd)) in touching {
        let city = &tile.segments[c].id;
        if stated.iter().any(|(i, _)| *i == c) {
            continue;
        }
        let shown = format!(
            "half-edge {} of `{}` meets city side {} of `{city}` at a corner",
            h.name(),
            s.id.value,
            sd.name()
        );
        if let (Some(root), None) = (found.root, hidden.iter().find(|(i, _)| *i == c)) {
            diags[root].notes.push(format!(
                "so `borders` does not list `{city}`, although {shown}"
            ));
            continue;
        }
        let d = match hidden.iter().find(|(i, _)| *i == c) {
            Some((_, span)) => src
                .diag(
                    Code::BadBorder,
                    span.clone(),
                    format!("the geometry shows this border ({shown}): list `{city}` in `borders`, not `hidden_borders`"),
                ),
            None => src
                .diag(
                    Code::MissingBorder,
                    half_span(h),
                    format!("{shown}, but `borders` does not list `{city}`"),
                )
                .with_note("a field touching a city side at a corner borders that city (B-6: it scores for it)"),
        };
        diags.push(d.with_rule("B-6").with_label(src.label(
            side_span(c, sd),
            format!("city side {} of `{city}`", sd.name()),
        )));
    }
}

/// Cities in `borders` that no half-edge of the field meets: separated by a wall, or not shown.
fn not_shown(
    s: &RawSegment,
    me: usize,
    stated: &[(usize, Range<usize>)],
    g: &Geometry,
    tile: &CompiledTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    for (c, span) in stated {
        if g.touching.contains_key(&(me, *c)) {
            continue;
        }
        let city = &tile.segments[*c].id;
        let d = match g.separating(me, *c) {
            Some(w) => {
                let wall = &tile.segments[w];
                let ends: Vec<&str> = wall.sides.iter().map(|x| x.name()).collect();
                src.diag(
                    Code::BadBorder,
                    span.clone(),
                    format!(
                        "field `{}` cannot border `{city}`: {} `{}` (sides {}) separates them",
                        s.id.value,
                        kind_name(wall.kind),
                        wall.id,
                        ends.join(", ")
                    ),
                )
                .with_label(src.label(wall.span.clone(), "the separating segment"))
                .with_note("if the drawing crosses it (a bridge), move the city to `hidden_borders` with the reason")
            }
            None => src
                .diag(
                    Code::BadBorder,
                    span.clone(),
                    format!(
                        "no half-edge of field `{}` meets a side of `{city}`, so the geometry cannot show this border",
                        s.id.value
                    ),
                )
                .with_note("if the drawing shows it (an inner field, a field reaching the wall round a road's end), move it to `hidden_borders = { cities = [...], reason = \"...\" }`"),
        };
        diags.push(d.with_rule("B-6"));
    }
}

/// The perimeter ring of cell `c`, or `None` when its sides or halves are not each claimed by
/// exactly one segment (reported as coverage problems; the borders are then not judged).
fn ring(tile: &CompiledTile, c: usize) -> Option<Vec<Slot>> {
    let mut side_owner: HashMap<Side, Vec<usize>> = HashMap::new();
    let mut half_owner: HashMap<Half, Vec<usize>> = HashMap::new();
    for (i, seg) in tile
        .segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.cell == c)
    {
        for s in &seg.sides {
            side_owner.entry(*s).or_default().push(i);
        }
        for h in &seg.halves {
            half_owner.entry(*h).or_default().push(i);
        }
    }
    let one = |v: Option<&Vec<usize>>| match v.map(Vec::as_slice) {
        Some([x]) => Some(*x),
        _ => None,
    };
    let mut out = Vec::with_capacity(12);
    for side in Side::ALL {
        let [h1, h2] = side.halves();
        let half = |h: Half| -> Option<Slot> {
            Some(Slot {
                owner: Some(one(half_owner.get(&h))?),
                half: Some(h),
                side,
            })
        };
        let mid = |owner| Slot {
            owner,
            half: None,
            side,
        };
        match tile.cells[c].sides[side.index()] {
            SideKind::City => {
                let city = Some(one(side_owner.get(&side))?);
                out.extend([mid(city), mid(city), mid(city)]);
            }
            SideKind::Road => {
                out.extend([half(h1)?, mid(Some(one(side_owner.get(&side))?)), half(h2)?]);
            }
            SideKind::Field => out.extend([half(h1)?, half(h2)?]),
            // A declared edge carries no feature: it only parts its two halves.
            SideKind::Declared(_) => out.extend([half(h1)?, mid(None), half(h2)?]),
            SideKind::Any => out.push(mid(None)),
        }
    }
    Some(out)
}

/// Corner contacts and walls of one ring.
fn read_ring(tile: &CompiledTile, ring: &[Slot]) -> Geometry {
    let kind = |o: Option<usize>| o.map(|i| tile.segments[i].kind);
    let n = ring.len();
    let mut g = Geometry::default();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        for (f, c) in [(a, b), (b, a)] {
            if kind(f.owner) == Some(FeatureKind::Field) && kind(c.owner) == Some(FeatureKind::City)
            {
                if let (Some(fi), Some(ci), Some(h)) = (f.owner, c.owner, f.half) {
                    g.touching.entry((fi, ci)).or_insert((h, c.side));
                }
            }
        }
    }
    let mut candidates: Vec<usize> = ring
        .iter()
        .filter_map(|s| s.owner)
        .filter(|&o| matches!(kind(Some(o)), Some(FeatureKind::City | FeatureKind::Road)))
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    for x in candidates {
        if let Some(arcs) = arcs(ring, x) {
            g.walls.push((x, arcs));
        }
    }
    g
}

/// The arcs `x` splits the ring into, as segment → arc, when `x` is a wall: it reaches the ring
/// in two or more runs and no other segment lies in two of its arcs.
fn arcs(ring: &[Slot], x: usize) -> Option<HashMap<usize, usize>> {
    let n = ring.len();
    let is_x = |i: usize| ring[i % n].owner == Some(x);
    // Start just after the end of a run of `x`.
    let start = (0..n).find(|&i| is_x(i) && !is_x(i + 1))? + 1;
    let mut arc_of: HashMap<usize, usize> = HashMap::new();
    let mut arc = 0;
    let mut in_arc = false;
    for k in 0..n {
        let i = start + k;
        if is_x(i) {
            in_arc = false;
            continue;
        }
        if !in_arc {
            arc += 1;
            in_arc = true;
        }
        if let Some(o) = ring[i % n].owner {
            if *arc_of.entry(o).or_insert(arc) != arc {
                return None; // `o` crosses `x`: no wall
            }
        }
    }
    (arc >= 2).then_some(arc_of)
}
