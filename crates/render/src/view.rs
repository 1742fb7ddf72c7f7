//! A drawing-oriented view of one tile: cells at (rotated, normalised) grid positions, segments
//! with board sides and halves, features (connected components) and mega-tile connections.
//!
//! Built from the compiler's [`CompiledTile`], so features, their numbers (`#0`, `#1`, ... in the
//! order of their first segment) and their facts are exactly what `tegula compile` reports.

use std::fmt::Write as _;

use tegula_model::compile::CompiledTile;
use tegula_model::glyphs::TagGlyph;
use tegula_ruleset::{FeatureKind, Half, Side, SideKind};

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
    /// The tile's abilities (as its own file gives them), each its rule id and its sentence
    /// (`Ability::words`): "W-14 At the end of the game: the owner scores …".
    pub abilities: Vec<String>,
    /// The marks its file's `[set] glyphs` give the segment tags it carries (drawn on each
    /// segment carrying the tag).
    pub glyphs: Vec<TagGlyph>,
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
    /// For each inner side (by board side), the index of the cell it faces (the compiler's).
    pub neighbour: [Option<usize>; 4],
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
            if best.is_none_or(|(_, l)| len > l) {
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

/// Name of a feature kind as used in the TOML files (the compiler's).
pub use tegula_model::compile::kind_name;

/// The cells of `tile` turned by `rotation` quarter turns, their offsets starting at (0, 0).
fn rotated_cells(tile: &CompiledTile, rotation: u8) -> Vec<CellView> {
    // Rotate (x, y) -> (-y, x) per quarter turn, then normalise to start at (0, 0).
    let rotated: Vec<(i64, i64)> = tile
        .cells
        .iter()
        .map(|c| {
            let (mut x, mut y) = c.at;
            for _ in 0..rotation {
                (x, y) = (y.saturating_neg(), x);
            }
            (x, y)
        })
        .collect();
    let min_x = rotated.iter().map(|p| p.0).min().unwrap_or(0);
    let min_y = rotated.iter().map(|p| p.1).min().unwrap_or(0);
    tile.cells
        .iter()
        .zip(&rotated)
        .map(|(c, p)| {
            let mut sides = [SideKind::Field; 4];
            let mut outer = [true; 4];
            let mut neighbour = [None; 4];
            for s in Side::ALL {
                let b = s.rotated(rotation).index();
                sides[b] = c.sides[s.index()];
                outer[b] = c.outer[s.index()];
                neighbour[b] = c.neighbour[s.index()];
            }
            // Far-away cells (rejected by the validator) are clamped, never a panic.
            let clamp = |v: i64| i32::try_from(v.clamp(0, 64)).unwrap_or(64);
            CellView {
                id: c.id.clone(),
                x: clamp(p.0.saturating_sub(min_x)),
                y: clamp(p.1.saturating_sub(min_y)),
                sides,
                outer,
                neighbour,
            }
        })
        .collect()
}

/// The segments of `tile` turned by `rotation` quarter turns; a feature or cell index out of
/// range (not expected from the compiler) is clamped so the rest is still drawn.
fn rotated_segments(tile: &CompiledTile, rotation: u8, cells: usize) -> Vec<SegmentView> {
    let mut segments: Vec<SegmentView> = tile
        .segments
        .iter()
        .map(|s| {
            let mut sides: Vec<Side> = s.sides.iter().map(|x| x.rotated(rotation)).collect();
            sides.sort();
            sides.dedup();
            let mut halves: Vec<Half> = s.halves.iter().map(|x| x.rotated(rotation)).collect();
            halves.sort();
            halves.dedup();
            SegmentView {
                id: s.id.clone(),
                kind: s.kind,
                cell: s.cell,
                sides,
                halves,
                pennants: s.pennants,
                tags: s.tags.clone(),
                feature: s.feature,
                borders: s.borders.clone(),
            }
        })
        .collect();
    let nfeat = tile.features.len();
    for s in &mut segments {
        if s.feature >= nfeat || s.cell >= cells {
            // Not expected from the compiler; keep drawing the rest.
            s.feature = s.feature.min(nfeat.saturating_sub(1));
            s.cell = s.cell.min(cells.saturating_sub(1));
        }
    }
    segments
}

/// A feature's facts for its legend line: a city's cells, pennants and open sides, a road's
/// cells and open ends, a field's bordered cities.
fn feature_facts(line: &mut String, f: &FeatureView) {
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
        FeatureKind::Cloister | FeatureKind::Unscored => {}
    }
}

impl TileView {
    /// The view of a compiled tile turned by `rotation` clockwise quarter turns (taken mod 4).
    /// Features, their numbers and facts are the compiler's.
    pub fn from_compiled(tile: &CompiledTile, rotation: u8) -> TileView {
        let rotation = rotation % 4;
        let cells = rotated_cells(tile, rotation);
        let segments = rotated_segments(tile, rotation, cells.len());
        let features = tile
            .features
            .iter()
            .map(|f| FeatureView {
                kind: f.kind,
                segments: f.members.clone(),
                cells: f.cells.len(),
                pennants: f.pennants,
                borders: f.borders.clone(),
                open_sides: f.open_sides as usize,
            })
            .collect();
        let connections = tile
            .connections
            .iter()
            .map(|c| ConnectionView {
                id: c.id.clone(),
                a: c.ends[0],
                b: c.ends[1],
                joined: c.joined,
                rule: c.rule.clone(),
            })
            .collect();
        TileView {
            id: tile.id.clone(),
            name: if tile.name == tile.id {
                String::new()
            } else {
                tile.name.clone()
            },
            count: tile.count,
            start: tile.start,
            rotation,
            tags: tile.tags.clone(),
            cells,
            segments,
            features,
            connections,
            abilities: ability_sentences(tile),
            glyphs: tile.glyphs.clone(),
        }
    }

    /// The lines that show the abilities under the legend: a heading, then each ability,
    /// wrapped at `width` characters where it can be (a picture is not a terminal that wraps);
    /// none without abilities.
    pub fn ability_lines(&self, width: usize) -> Vec<String> {
        if self.abilities.is_empty() {
            return Vec::new();
        }
        let mut out = vec!["abilities (of the tile's owner):".to_string()];
        for a in &self.abilities {
            let mut line = String::from(" ");
            for word in a.split(' ') {
                if line.chars().count() + 1 + word.chars().count() > width && line.len() > 4 {
                    out.push(std::mem::replace(&mut line, "   ".to_string()));
                }
                line.push(' ');
                line.push_str(word);
            }
            out.push(line);
        }
        out
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
            // Past 10 features the picture names them 0-9 then a-z: every line then shows its
            // picture character, numbers padded so the lines stay aligned.
            let mut line = if view.features.len() > 10 {
                format!(
                    "#{i:<2} ({}) {}: {}",
                    crate::ascii::feature_char(i),
                    kind_name(f.kind),
                    segs.join(" ")
                )
            } else {
                format!("#{i} {}: {}", kind_name(f.kind), segs.join(" "))
            };
            feature_facts(&mut line, f);
            lines.push(line);
        }
        for c in &view.connections {
            let seg_id = |i: usize| view.segments.get(i).map_or("?", |s| s.id.as_str());
            let (a, b) = (seg_id(c.a), seg_id(c.b));
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

    /// The side of cell `a` that faces cell `b`, if they are edge neighbours (by the compiler).
    pub fn shared_side(&self, a: usize, b: usize) -> Option<Side> {
        let ca = self.cells.get(a)?;
        Side::ALL
            .into_iter()
            .find(|s| ca.neighbour[s.index()] == Some(b))
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

/// `"s"` unless `k` is 1.
pub fn plural(k: usize) -> &'static str {
    if k == 1 {
        ""
    } else {
        "s"
    }
}

/// The abilities of a compiled tile in words. A `near_building` tag is still a name here (tags
/// are resolved against a variant): the tile's own tag names stand in for the variant's list.
fn ability_sentences(tile: &CompiledTile) -> Vec<String> {
    // A gain's amount names its tags inside `count(…)`: every word of it stands in as a name.
    let amount_words = |d: &tegula_model::abilities::AbilityDef| {
        let texts = [&d.gain_amount, &d.per_value];
        let texts = texts.into_iter().flatten().map(|(t, _)| t.value.as_str());
        texts
            .flat_map(|text| text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_')))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let tags: Vec<String> = tile
        .abilities
        .iter()
        .flat_map(|d| {
            let named = [&d.near_tag, &d.count_tag];
            let named = named.into_iter().flatten().map(|t| t.value.clone());
            named.chain(amount_words(d))
        })
        .collect();
    tegula_model::abilities::lower(&tile.abilities, &tags)
        .iter()
        .map(|a| format!("{} {}", a.rule, a.words(&tags)))
        .collect()
}
