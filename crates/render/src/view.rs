//! A drawing-oriented view of one tile: cells at (rotated, normalised) grid positions, segments
//! with board sides and halves, features (connected components) and mega-tile connections.
//!
//! Built from the raw TOML tile; features are the connected components of the segments joined by
//! `joined = true` connections, numbered in the order of their first segment in the file (the
//! same order `tegula compile` lists them in). Building never panics: inconsistent data (an
//! unknown cell id, a connection naming no segment) is reported as an error string, and the
//! validator is the place that explains it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use tegula_model::raw::{RawHalf, RawSegmentKind, RawSide, RawSideKind, RawTile};
use tegula_ruleset::{rotate_offset, FeatureKind, Half, Side, SideKind};

/// One tile, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct TileView {
    /// Tile id as written.
    pub id: String,
    /// Display name (empty when the file gives none).
    pub name: String,
    /// Copies in the draw pile.
    pub count: u64,
    /// Whether an extra start copy exists.
    pub start: bool,
    /// Clockwise quarter turns applied.
    pub rotation: u8,
    /// Tile-level tags.
    pub tags: Vec<String>,
    /// Cells, in file order (cell 0 is the anchor).
    pub cells: Vec<CellView>,
    /// Segments, in file order.
    pub segments: Vec<SegmentView>,
    /// Features (connected components), numbered from 0.
    pub features: Vec<FeatureView>,
    /// Mega-tile connections, in file order.
    pub connections: Vec<ConnectionView>,
}

/// One cell at its drawing position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellView {
    /// Cell id as written (`"0"` for a single-cell tile).
    pub id: String,
    /// Column, from 0 (west) after rotation and normalisation.
    pub x: i32,
    /// Row, from 0 (north) after rotation and normalisation.
    pub y: i32,
    /// Kind of each side, by board side (after rotation).
    pub sides: [SideKind; 4],
    /// Whether each side (by board side) faces the map rather than another cell of the tile.
    pub outer: [bool; 4],
}

/// One segment (a feature's piece inside one cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentView {
    /// Segment id as written.
    pub id: String,
    /// Kind.
    pub kind: FeatureKind,
    /// Index into [`TileView::cells`].
    pub cell: usize,
    /// Sides touched (board sides after rotation), sorted.
    pub sides: Vec<Side>,
    /// Half-edges touched (after rotation), sorted.
    pub halves: Vec<Half>,
    /// Pennants on this piece.
    pub pennants: u8,
    /// Tags as written.
    pub tags: Vec<String>,
    /// Index into [`TileView::features`].
    pub feature: usize,
    /// Ids of the city segments this field borders, as written.
    pub borders: Vec<String>,
}

impl SegmentView {
    /// For a field: the middle half of its largest run of consecutive half-edges (where its
    /// label goes); `None` for an inner field or another kind.
    pub fn main_half(&self) -> Option<Half> {
        let own: Vec<bool> = (0..8)
            .map(|k| self.halves.iter().any(|h| h.index() == k))
            .collect();
        let mut best: Option<(usize, usize)> = None;
        for start in 0..8usize {
            if !own[start] || (own[(start + 7) % 8] && own.iter().any(|o| !o)) {
                continue;
            }
            let mut len = 1;
            while len < 8 && own[(start + len) % 8] {
                len += 1;
            }
            if best.map_or(true, |(_, l)| len > l) {
                best = Some((start, len));
            }
        }
        best.map(|(start, len)| Half::from_index(start + len / 2))
    }
}

/// One feature: a connected component of segments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureView {
    /// Kind.
    pub kind: FeatureKind,
    /// Indices into [`TileView::segments`], in file order.
    pub segments: Vec<usize>,
    /// Number of distinct cells touched.
    pub cells: usize,
    /// Pennants over all its segments.
    pub pennants: u32,
    /// For fields: the city features it borders (indices into [`TileView::features`]), sorted.
    pub borders: Vec<usize>,
    /// Outer city/road sides it reaches.
    pub open_sides: usize,
}

/// A mega-tile connection between two segments across an inner side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectionView {
    /// Connection id as written.
    pub id: String,
    /// First segment (index into [`TileView::segments`]).
    pub a: usize,
    /// Second segment.
    pub b: usize,
    /// One feature (`true`, blue circle) or kept apart (`false`, red circle), W-21.
    pub joined: bool,
    /// Rule id cited, if any.
    pub rule: Option<String>,
}

/// Convert a raw side.
pub fn side_of(s: RawSide) -> Side {
    match s {
        RawSide::N => Side::N,
        RawSide::E => Side::E,
        RawSide::S => Side::S,
        RawSide::W => Side::W,
    }
}

/// Convert a raw half-edge.
pub fn half_of(h: RawHalf) -> Half {
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

fn side_kind_of(k: RawSideKind) -> SideKind {
    match k {
        RawSideKind::City => SideKind::City,
        RawSideKind::Road => SideKind::Road,
        RawSideKind::Field => SideKind::Field,
        RawSideKind::Any => SideKind::Any,
    }
}

fn kind_of(k: RawSegmentKind) -> FeatureKind {
    match k {
        RawSegmentKind::City => FeatureKind::City,
        RawSegmentKind::Road => FeatureKind::Road,
        RawSegmentKind::Field => FeatureKind::Field,
        RawSegmentKind::Cloister => FeatureKind::Cloister,
        RawSegmentKind::Wonder => FeatureKind::Wonder,
    }
}

/// Name of a feature kind as used in the TOML files.
pub fn kind_name(k: FeatureKind) -> &'static str {
    match k {
        FeatureKind::City => "city",
        FeatureKind::Road => "road",
        FeatureKind::Field => "field",
        FeatureKind::Cloister => "cloister",
        FeatureKind::Wonder => "wonder",
    }
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

impl TileView {
    /// Build the view of `tile` turned by `rotation` clockwise quarter turns (taken mod 4).
    ///
    /// Errors name the first inconsistency found (the validator reports them all).
    pub fn from_raw(tile: &RawTile, rotation: u8) -> Result<TileView, String> {
        let rotation = rotation % 4;
        let id = tile.id.value.clone();
        // Cells in file coordinates.
        let mut raw_cells: Vec<(String, i32, i32, [SideKind; 4])> = Vec::new();
        match (&tile.sides, &tile.cells) {
            (Some(sides), None) => {
                raw_cells.push(("0".to_string(), 0, 0, four_sides(&id, "tile", sides)?));
            }
            (None, Some(cells)) => {
                if cells.value.is_empty() {
                    return Err(format!("tile `{id}` has an empty `cells` list"));
                }
                for c in cells.iter() {
                    if c.at.len() != 2 {
                        return Err(format!(
                            "cell `{}` of tile `{id}`: `at` needs 2 numbers",
                            *c.id
                        ));
                    }
                    let x = i32::try_from(c.at[0].value).ok();
                    let y = i32::try_from(c.at[1].value).ok();
                    let (Some(x), Some(y)) = (x, y) else {
                        return Err(format!(
                            "cell `{}` of tile `{id}`: coordinates out of range",
                            *c.id
                        ));
                    };
                    if x.abs() > 64 || y.abs() > 64 {
                        return Err(format!(
                            "cell `{}` of tile `{id}`: coordinates out of range",
                            *c.id
                        ));
                    }
                    let sides = four_sides(&id, &c.id, &c.sides)?;
                    raw_cells.push((c.id.value.clone(), x, y, sides));
                }
            }
            _ => {
                return Err(format!(
                    "tile `{id}` needs exactly one of `sides` and `cells`"
                ))
            }
        }
        for (i, a) in raw_cells.iter().enumerate() {
            for b in &raw_cells[..i] {
                if a.0 == b.0 {
                    return Err(format!("tile `{id}`: two cells have the id `{}`", a.0));
                }
                if (a.1, a.2) == (b.1, b.2) {
                    return Err(format!(
                        "tile `{id}`: cells `{}` and `{}` overlap",
                        b.0, a.0
                    ));
                }
            }
        }
        // Rotate and normalise.
        let rotated: Vec<(i32, i32)> = raw_cells
            .iter()
            .map(|c| rotate_offset(c.1, c.2, rotation))
            .collect();
        let min_x = rotated.iter().map(|p| p.0).min().unwrap_or(0);
        let min_y = rotated.iter().map(|p| p.1).min().unwrap_or(0);
        let positions: Vec<(i32, i32)> =
            rotated.iter().map(|p| (p.0 - min_x, p.1 - min_y)).collect();
        let mut cells = Vec::with_capacity(raw_cells.len());
        for (i, c) in raw_cells.iter().enumerate() {
            let mut sides = [SideKind::Field; 4];
            let mut outer = [true; 4];
            for s in Side::ALL {
                sides[s.rotated(rotation).index()] = c.3[s.index()];
            }
            let (x, y) = positions[i];
            for s in Side::ALL {
                let (dx, dy) = s.delta();
                outer[s.index()] = !positions.contains(&(x + dx, y + dy));
            }
            cells.push(CellView {
                id: c.0.clone(),
                x,
                y,
                sides,
                outer,
            });
        }
        let mega = tile.cells.is_some();
        // Segments.
        let mut segments = Vec::with_capacity(tile.segments.len());
        let mut seg_index: BTreeMap<&str, usize> = BTreeMap::new();
        for seg in &tile.segments {
            let sid = seg.id.value.clone();
            if seg_index
                .insert(seg.id.value.as_str(), segments.len())
                .is_some()
            {
                return Err(format!("tile `{id}`: two segments have the id `{sid}`"));
            }
            let cell = match (&seg.cell, mega) {
                (Some(c), true) => {
                    cells
                        .iter()
                        .position(|cv| cv.id == c.value)
                        .ok_or_else(|| {
                            format!("segment `{sid}` of tile `{id}`: no cell `{}`", c.value)
                        })?
                }
                (None, true) => {
                    return Err(format!("segment `{sid}` of tile `{id}` needs a `cell`"))
                }
                (_, false) => 0,
            };
            let mut sides: Vec<Side> = seg
                .sides
                .iter()
                .map(|s| side_of(s.value).rotated(rotation))
                .collect();
            sides.sort();
            sides.dedup();
            let mut halves: Vec<Half> = seg
                .halves
                .iter()
                .map(|h| half_of(h.value).rotated(rotation))
                .collect();
            halves.sort();
            halves.dedup();
            segments.push(SegmentView {
                id: sid,
                kind: kind_of(seg.kind.value),
                cell,
                sides,
                halves,
                pennants: seg.pennants.value,
                tags: seg.tags.iter().map(|t| t.value.clone()).collect(),
                feature: 0,
                borders: seg.borders.iter().map(|b| b.value.clone()).collect(),
            });
        }
        // Connections and features.
        let mut parent: Vec<usize> = (0..segments.len()).collect();
        let mut connections = Vec::with_capacity(tile.connections.len());
        for c in &tile.connections {
            if c.segments.len() != 2 {
                return Err(format!(
                    "connection `{}` of tile `{id}` needs 2 segments",
                    *c.id
                ));
            }
            let look = |s: &str| {
                seg_index.get(s).copied().ok_or_else(|| {
                    format!("connection `{}` of tile `{id}`: no segment `{s}`", *c.id)
                })
            };
            let a = look(&c.segments[0])?;
            let b = look(&c.segments[1])?;
            if *c.joined {
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                if ra != rb {
                    parent[ra.max(rb)] = ra.min(rb);
                }
            }
            connections.push(ConnectionView {
                id: c.id.value.clone(),
                a,
                b,
                joined: *c.joined,
                rule: c.rule.as_ref().map(|r| r.value.clone()),
            });
        }
        let mut features: Vec<FeatureView> = Vec::new();
        let mut root_feature: BTreeMap<usize, usize> = BTreeMap::new();
        for (i, seg) in segments.iter_mut().enumerate() {
            let r = find(&mut parent, i);
            let f = *root_feature.entry(r).or_insert_with(|| {
                features.push(FeatureView {
                    kind: seg.kind,
                    segments: Vec::new(),
                    cells: 0,
                    pennants: 0,
                    borders: Vec::new(),
                    open_sides: 0,
                });
                features.len() - 1
            });
            seg.feature = f;
            features[f].segments.push(i);
        }
        for f in &mut features {
            let mut fc: Vec<usize> = f.segments.iter().map(|&s| segments[s].cell).collect();
            fc.sort();
            fc.dedup();
            f.cells = fc.len();
            f.pennants = f
                .segments
                .iter()
                .map(|&s| u32::from(segments[s].pennants))
                .sum();
            f.open_sides = f
                .segments
                .iter()
                .map(|&s| {
                    let seg = &segments[s];
                    match seg.kind {
                        FeatureKind::City | FeatureKind::Road => seg
                            .sides
                            .iter()
                            .filter(|side| cells[seg.cell].outer[side.index()])
                            .count(),
                        _ => 0,
                    }
                })
                .sum();
        }
        for f in &mut features {
            let mut borders = Vec::new();
            for &s in &f.segments {
                for b in &segments[s].borders {
                    if let Some(&bs) = seg_index.get(b.as_str()) {
                        borders.push(segments[bs].feature);
                    }
                }
            }
            borders.sort();
            borders.dedup();
            f.borders = borders;
        }
        Ok(TileView {
            id,
            name: tile.name.clone().unwrap_or_default(),
            count: tile.count.value,
            start: tile.start,
            rotation,
            tags: tile.tags.iter().map(|t| t.value.clone()).collect(),
            cells,
            segments,
            features,
            connections,
        })
    }

    /// Legend lines: counts, then one line per feature (kind, segments, cells, pennants, open
    /// sides, bordered cities), then one per connection.
    pub fn legend(&self) -> Vec<String> {
        let view = self;
        let mut lines = Vec::new();
        let mut count = format!("count {}", view.count);
        if view.start {
            count.push_str(" + start copy");
        }
        if view.rotation != 0 {
            let _ = write!(count, ", rotated {}°", u32::from(view.rotation) * 90);
        }
        if !view.tags.is_empty() {
            let _ = write!(count, ", tags: {}", view.tags.join(" "));
        }
        lines.push(count);
        for (i, f) in view.features.iter().enumerate() {
            let segs: Vec<&str> = f
                .segments
                .iter()
                .map(|&s| view.segments[s].id.as_str())
                .collect();
            let mut line = if i >= 10 {
                format!(
                    "#{i} ({}) {}: {}",
                    crate::ascii::feature_char(i),
                    kind_name(f.kind),
                    segs.join(" ")
                )
            } else {
                format!("#{i} {}: {}", kind_name(f.kind), segs.join(" "))
            };
            match f.kind {
                FeatureKind::City => {
                    let _ = write!(
                        line,
                        " ({} cell{}, {} pennant{}, {} open side{})",
                        f.cells,
                        plural(f.cells),
                        f.pennants,
                        plural(f.pennants as usize),
                        f.open_sides,
                        plural(f.open_sides)
                    );
                }
                FeatureKind::Road => {
                    let _ = write!(
                        line,
                        " ({} cell{}, {} open end{})",
                        f.cells,
                        plural(f.cells),
                        f.open_sides,
                        plural(f.open_sides)
                    );
                }
                FeatureKind::Field => {
                    if f.borders.is_empty() {
                        line.push_str(" (borders no city)");
                    } else {
                        let b: Vec<String> = f.borders.iter().map(|b| format!("#{b}")).collect();
                        let _ = write!(line, " (borders {})", b.join(" "));
                    }
                }
                FeatureKind::Cloister | FeatureKind::Wonder => {}
            }
            lines.push(line);
        }
        for c in &view.connections {
            let (a, b) = (&view.segments[c.a].id, &view.segments[c.b].id);
            let what = if c.joined {
                "joined (blue)"
            } else {
                "separate (red)"
            };
            let rule = c
                .rule
                .as_deref()
                .map(|r| format!(" [{r}]"))
                .unwrap_or_default();
            lines.push(format!("{}: {a} / {b} {what}{rule}", c.id));
        }
        lines
    }

    /// Which field segment each of the 8 wedges of cell `cell` shows (by half index): the field
    /// owning that half-edge, or, for the halfless wedges of city/any sides, the nearest owned
    /// wedge (the city is drawn over them).
    pub fn wedge_owners(&self, cell: usize) -> [Option<usize>; 8] {
        let mut own: [Option<usize>; 8] = [None; 8];
        for (i, seg) in self.segments_in(cell) {
            if seg.kind == FeatureKind::Field {
                for h in &seg.halves {
                    own[h.index()].get_or_insert(i);
                }
            }
        }
        let mut out = own;
        for (h, slot) in out.iter_mut().enumerate() {
            if slot.is_some() {
                continue;
            }
            // Look outwards from the wedge, nearest corner first.
            for d in 1..=4usize {
                let (a, b) = ((h + 8 - d) % 8, (h + d) % 8);
                let order = if h % 2 == 0 { [a, b] } else { [b, a] };
                if let Some(o) = order.iter().find_map(|&k| own[k]) {
                    *slot = Some(o);
                    break;
                }
            }
        }
        out
    }

    /// Width and height in cells.
    pub fn size(&self) -> (i32, i32) {
        let w = self.cells.iter().map(|c| c.x + 1).max().unwrap_or(1);
        let h = self.cells.iter().map(|c| c.y + 1).max().unwrap_or(1);
        (w, h)
    }

    /// Index of the cell at `(x, y)`, if any.
    pub fn cell_at(&self, x: i32, y: i32) -> Option<usize> {
        self.cells.iter().position(|c| c.x == x && c.y == y)
    }

    /// The side of cell `a` that faces cell `b`, if they are edge neighbours.
    pub fn shared_side(&self, a: usize, b: usize) -> Option<Side> {
        let (ca, cb) = (self.cells.get(a)?, self.cells.get(b)?);
        Side::ALL.into_iter().find(|s| {
            let (dx, dy) = s.delta();
            (ca.x + dx, ca.y + dy) == (cb.x, cb.y)
        })
    }

    /// Segments lying in cell `c`, in file order.
    pub fn segments_in(&self, c: usize) -> impl Iterator<Item = (usize, &SegmentView)> {
        self.segments
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.cell == c)
    }

    /// Number of features of `kind` before feature `f` (its shade index within the kind).
    pub fn kind_rank(&self, f: usize) -> usize {
        let kind = self.features[f].kind;
        self.features[..f].iter().filter(|g| g.kind == kind).count()
    }
}

fn four_sides(
    tile: &str,
    cell: &str,
    sides: &tegula_model::raw::Sp<Vec<tegula_model::raw::Sp<RawSideKind>>>,
) -> Result<[SideKind; 4], String> {
    if sides.len() != 4 {
        return Err(format!(
            "tile `{tile}`, cell `{cell}`: `sides` needs 4 kinds (N E S W)"
        ));
    }
    Ok([
        side_kind_of(sides[0].value),
        side_kind_of(sides[1].value),
        side_kind_of(sides[2].value),
        side_kind_of(sides[3].value),
    ])
}

/// `"s"` unless `k` is 1.
pub fn plural(k: usize) -> &'static str {
    if k == 1 {
        ""
    } else {
        "s"
    }
}
