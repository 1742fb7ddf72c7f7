//! Coverage: every side and half-edge of every cell claimed by exactly the segments it should be
//! (B-2, B-3).

use super::*;

/// The sides and half-edges that segments left out of the tile ([`CompiledTile::dropped`]) claim,
/// in whatever cell they meant: a side or half of these left uncovered is a consequence of the
/// left-out segment, already reported, not a problem of its own.
pub(super) fn unplaced_claims(t: &RawTile, tile: &CompiledTile) -> (HashSet<Side>, HashSet<Half>) {
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
pub(super) type SideClaims = HashMap<(usize, Side), Vec<Claim>>;
pub(super) type HalfClaims = HashMap<(usize, Half), Vec<Claim>>;

/// Coverage of every side and half-edge of every cell (B-2, B-3).
pub(super) fn check_coverage(
    tile: &CompiledTile,
    unplaced: &(HashSet<Side>, HashSet<Half>),
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> (SideClaims, HalfClaims) {
    let (sides, halves) = claims(tile);
    for (ci, cell) in tile.cells.iter().enumerate() {
        let where_ = if tile.cells.len() > 1 || cell.id != "0" {
            format!(" of cell `{}`", cell.id)
        } else {
            String::new()
        };
        let cx = CellCx {
            tile,
            cell,
            where_,
            src,
        };
        for s in Side::ALL {
            let k = cell.sides[s.index()];
            if matches!(k, SideKind::City | SideKind::Road) {
                let claims = sides.get(&(ci, s)).map_or(&[][..], |v| v.as_slice());
                cx.side(s, claims, unplaced.0.contains(&s), diags);
            }
            if k.has_field_halves() {
                for h in s.halves() {
                    let claims = halves.get(&(ci, h)).map_or(&[][..], |v| v.as_slice());
                    cx.half(s, h, claims, unplaced.1.contains(&h), diags);
                }
            }
        }
    }
    (sides, halves)
}

/// The segments claiming each (cell, side) and each (cell, half), in file order.
fn claims(tile: &CompiledTile) -> (SideClaims, HalfClaims) {
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
    (sides, halves)
}

/// One cell being checked: its tile, the words that name it in messages (`where_`), its file.
struct CellCx<'a> {
    tile: &'a CompiledTile,
    cell: &'a CompiledCell,
    where_: String,
    src: &'a Source,
}

impl CellCx<'_> {
    /// A city or road side `s` is touched by exactly one segment of its kind (B-3); `unplaced`:
    /// a left-out segment claimed it (an uncovered side is then no problem of its own).
    fn side(&self, s: Side, claims: &[Claim], unplaced: bool, diags: &mut Vec<Diagnostic>) {
        let (tile, cell, where_, src) = (self.tile, self.cell, &self.where_, self.src);
        let k = cell.sides[s.index()];
        let kname = side_kind_name(k);
        match claims {
            [] if unplaced => {}
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

    /// Half-edge `h` of side `s` is in exactly one field (B-2); `unplaced` as for [`Self::side`].
    fn half(
        &self,
        s: Side,
        h: Half,
        claims: &[Claim],
        unplaced: bool,
        diags: &mut Vec<Diagnostic>,
    ) {
        let (tile, cell, where_, src) = (self.tile, self.cell, &self.where_, self.src);
        let k = cell.sides[s.index()];
        match claims {
            [] if unplaced => {}
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
