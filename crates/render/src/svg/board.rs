//! SVG pictures of a game board ([`BoardView`]): one drawing per tile type and rotation in
//! `<defs>` (the same layers as `tegula render`, without labels), placed with `<use>`; then the
//! completed-feature marks, the last-tile highlight, the figures in their seats' colours, and the
//! score table. The picture has a `viewBox`, so it scales without losing detail.
//!
//! Each layer is one function; [`board_svg`] draws a whole picture, [`tile_defs`] and
//! [`board_body`] serve the HTML replay (one set of tile drawings shared by every turn).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use tegula_ruleset::{FeatureKind, Strength};

use super::geom::{
    building_spots, city_anchor, inner_field_spot, side_mid, towards_centre, wedge_centroid,
};
use super::{draw_layers, esc, n, svg_open, Size, CELL};
use crate::board::{figure_symbols, BoardView, Figure, FigureAt};
use crate::view::{kind_name, TileView};

const MARGIN: f64 = 20.0;
const TOP: f64 = 34.0;
const ROW: f64 = 16.0;

/// Colours of the seats, in seat order (then repeated).
pub const SEAT_COLOURS: [&str; 8] = [
    "#1f5fd1", "#d62828", "#f2c200", "#222222", "#8e44ad", "#f28c00", "#e84393", "#00897b",
];

/// Colour of seat `seat`.
pub fn seat_colour(seat: u8) -> &'static str {
    SEAT_COLOURS[seat as usize % SEAT_COLOURS.len()]
}

/// Id of the drawing of tile type `tile` turned `rotation` times.
fn def_id(tile: u16, rotation: u8) -> String {
    format!("tt{tile}r{rotation}")
}

/// `<g>` drawings (inside a `<defs>`) of every tile type and rotation on the boards, each at the
/// origin.
pub fn tile_defs<'a>(boards: impl IntoIterator<Item = &'a BoardView>) -> String {
    let mut seen = BTreeSet::new();
    let mut out = String::new();
    for b in boards {
        for t in &b.tiles {
            if seen.insert((t.tile, t.rotation)) {
                out.push_str(&tile_def(t.tile, t.rotation, &t.view));
            }
        }
    }
    out
}

/// The `<g>` drawing (inside a `<defs>`) of tile type `tile` turned `rotation` times, whose
/// view is `view`, at the origin: what the boards' `<use>` elements name (`#tt{tile}r{rotation}`).
/// The play page (`tegula serve`) draws every tile of a variant this way once.
pub fn tile_def(tile: u16, rotation: u8, view: &TileView) -> String {
    let mut out = format!("<g id=\"{}\">\n", def_id(tile, rotation));
    draw_layers(&mut out, view, 0.0, 0.0, false);
    out.push_str("</g>\n");
    out
}

/// Pixel position of board cell `(x, y)`'s top-left corner, for a board whose top-left cell is
/// `(min_x, min_y)` drawn at `(ox, oy)`.
#[derive(Clone, Copy)]
struct Frame {
    min_x: i32,
    min_y: i32,
    ox: f64,
    oy: f64,
}

impl Frame {
    fn at(&self, x: i32, y: i32, (u, v): (f64, f64)) -> (f64, f64) {
        (
            self.ox + (f64::from(x - self.min_x) + u) * CELL,
            self.oy + (f64::from(y - self.min_y) + v) * CELL,
        )
    }
}

/// The cell (index into the view's cells) and cell-local point where figures on feature
/// `feature` of `view` stand: on its first segment (a city near its sides, a road on its first
/// arm, a field in its largest run of wedges, a building on the building).
pub fn feature_spot(view: &TileView, feature: usize) -> Option<(usize, (f64, f64))> {
    let &si = view.features.get(feature)?.segments.first()?;
    segment_spot(view, si)
}

/// The cell and cell-local point where a figure on segment `si` of `view` would stand.
pub fn segment_spot(view: &TileView, si: usize) -> Option<(usize, (f64, f64))> {
    let seg = view.segments.get(si)?;
    let spot = match seg.kind {
        FeatureKind::City => {
            if seg.sides.len() == 1 {
                towards_centre(side_mid(seg.sides[0]), 0.3)
            } else {
                let a = city_anchor(seg);
                let dy = if seg.pennants > 0 { 0.13 } else { 0.0 };
                (a.0, a.1 + dy)
            }
        }
        FeatureKind::Road => match seg.sides.first() {
            Some(&s) => towards_centre(side_mid(s), 0.3),
            None => (0.5, 0.5),
        },
        FeatureKind::Field => match seg.main_half() {
            Some(h) => wedge_centroid(h.index()),
            None => {
                let k = view
                    .segments_in(seg.cell)
                    .take_while(|(i, _)| *i != si)
                    .filter(|(_, s)| s.kind == FeatureKind::Field && s.halves.is_empty())
                    .count();
                inner_field_spot(k)
            }
        },
        FeatureKind::Cloister | FeatureKind::Unscored => {
            let (x, y) = building_spots(view, seg.cell)
                .into_iter()
                .find(|b| b.0 == si)
                .map_or((0.5, 0.5), |b| b.1);
            (x, (y + 0.2).min(0.88))
        }
    };
    Some((seg.cell, spot))
}

/// One element of a board drawing (a placed tile, a completion mark, the last-tile outline, a
/// figure): its markup, one line, and its place in the drawing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Where it is drawn: the pieces of a board, sorted by key, are its [`board_body`].
    pub key: PieceKey,
    /// The SVG markup (one line, ending in a newline).
    pub markup: String,
}

/// The place of a [`Piece`] in the drawing order: layer by layer (tiles, marks, outline,
/// figures), then by what it shows. Within one board no two pieces share a key.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PieceKey {
    /// Placed tile instance (it never moves: its piece is the same at every later turn).
    Tile(usize),
    /// Completion mark on segment `.2` of feature `.1` of tile instance `.0`.
    Done(usize, usize, usize),
    /// The outline of the last placed tile.
    Last,
    /// A figure, and its rank among the figures on the same spot.
    Figure(crate::board::Figure, usize),
    /// The counters of kind `.2` on the tile anchored at cell `(.0, .1)`.
    Counters(i32, i32, usize),
    /// Neutral figure `.0` on cell `(.1, .2)`.
    Neutral(usize, i32, i32),
}

fn piece(pieces: &mut Vec<Piece>, key: PieceKey, markup: String) {
    pieces.push(Piece { key, markup });
}

/// Layer: the placed tiles (but the `known` ones), each a `<use>` of its drawing, titled with
/// its id and turn.
fn tiles_layer(
    pieces: &mut Vec<Piece>,
    b: &BoardView,
    f: Frame,
    known: &dyn Fn(&PieceKey) -> bool,
) {
    for (i, t) in b.tiles.iter().enumerate() {
        if known(&PieceKey::Tile(i)) {
            continue;
        }
        let (x, y) = f.at(t.x, t.y, (0.0, 0.0));
        let mut out = String::new();
        let _ = writeln!(
            out,
            r##"<g class="placed" data-turn="{}"><title>turn {}: {}</title><use href="#{}" x="{}" y="{}"/></g>"##,
            t.turn,
            t.turn,
            esc(&t.view.id),
            def_id(t.tile, t.rotation),
            n(x),
            n(y)
        );
        piece(pieces, PieceKey::Tile(i), out);
    }
}

/// Layer: a check mark on every segment of every completed feature.
fn completed_layer(
    pieces: &mut Vec<Piece>,
    b: &BoardView,
    f: Frame,
    known: &dyn Fn(&PieceKey) -> bool,
) {
    for &(i, feat) in &b.completed {
        let Some(t) = b.tiles.get(i) else { continue };
        let Some(fv) = t.view.features.get(feat) else {
            continue;
        };
        if fv.kind == FeatureKind::Field {
            continue;
        }
        for &si in &fv.segments {
            if known(&PieceKey::Done(i, feat, si)) {
                continue;
            }
            let seg = &t.view.segments[si];
            let c = &t.view.cells[seg.cell];
            let q = match seg.kind {
                FeatureKind::City => city_anchor(seg),
                FeatureKind::Road => seg
                    .sides
                    .first()
                    .map_or((0.5, 0.5), |s| towards_centre(side_mid(*s), 0.12)),
                _ => (0.5, 0.32),
            };
            let q = (q.0.clamp(0.1, 0.9), q.1.clamp(0.1, 0.9));
            let (x, y) = f.at(t.x + c.x, t.y + c.y, q);
            let mut out = String::new();
            let _ = writeln!(
                out,
                r##"<g class="done"><title>complete {} ({})</title><circle cx="{}" cy="{}" r="6.5" fill="#fff" stroke="#2e7d32" stroke-width="1.5"/><path d="M{},{} l2.5,2.5 l4.5,-5" fill="none" stroke="#2e7d32" stroke-width="2"/></g>"##,
                kind_name(seg.kind),
                esc(&t.view.id),
                n(x),
                n(y),
                n(x - 3.5),
                n(y),
            );
            piece(pieces, PieceKey::Done(i, feat, si), out);
        }
    }
}

/// Layer: a thick outline around the outer sides of the last placed tile.
fn last_layer(pieces: &mut Vec<Piece>, b: &BoardView, f: Frame) {
    let Some(t) = b.last.and_then(|i| b.tiles.get(i)) else {
        return;
    };
    let mut d = String::new();
    for c in &t.view.cells {
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        for s in 0..4 {
            if !c.outer[s] {
                continue;
            }
            let (x1, y1) = f.at(t.x + c.x, t.y + c.y, corners[s]);
            let (x2, y2) = f.at(t.x + c.x, t.y + c.y, corners[(s + 1) % 4]);
            let _ = write!(d, "M{},{} L{},{} ", n(x1), n(y1), n(x2), n(y2));
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<path class="last" d="{}" fill="none" stroke="#ff6f00" stroke-width="6" stroke-linecap="square"><title>last placed: {} (turn {})</title></path>"##,
        d.trim_end(),
        esc(&t.view.id),
        t.turn
    );
    piece(pieces, PieceKey::Last, out);
}

/// Scale of a figure from its strength (a strength-2 figure is drawn larger; one whose strength
/// depends on its feature is drawn at the size of strength 1).
fn figure_scale(s: &Strength) -> f64 {
    match s {
        Strength::Fixed(k) => (0.8 + 0.2 * f64::from(*k)).min(1.4),
        Strength::Value(_) => 1.0,
    }
}

/// Layer: the figures, in their seats' colours, where they stand. A figure on a field lies down
/// (a farmer); a corner figure is a diamond; when the ruleset has several figure types each
/// shows its letters ([`figure_symbols`]), upright on a lying figure too.
fn figures_layer(pieces: &mut Vec<Piece>, b: &BoardView, f: Frame) {
    let mut on_spot: Vec<(FigureAt, usize)> = Vec::new();
    let several = b.figure_types.len() > 1;
    let symbols = figure_symbols(&b.figure_types);
    for fig in &b.figures {
        let Some(ft) = b.figure_types.get(fig.follower) else {
            continue;
        };
        let k = match on_spot.iter_mut().find(|(a, _)| *a == fig.at) {
            Some((_, k)) => {
                *k += 1;
                *k
            }
            None => {
                on_spot.push((fig.at, 0));
                0
            }
        };
        let Some((pos, lying, on)) = figure_place(b, fig, f) else {
            continue;
        };
        let (x, y) = (pos.0 + 14.0 * k as f64, pos.1);
        let s = 1.5 * figure_scale(&ft.strength);
        let colour = seat_colour(fig.seat);
        let title = format!(
            "{}: {} on {}",
            b.seats
                .get(fig.seat as usize)
                .map_or_else(|| format!("seat {}", fig.seat), |p| p.name.clone()),
            ft.name,
            on
        );
        let rot = if lying { " rotate(90)" } else { "" };
        let mut out = String::new();
        let shape = if ft.is_corner_figure() {
            r#"<path d="M0,-9 L9,0 L0,9 L-9,0 Z"/>"#
        } else {
            r#"<path d="M-8,9 L-3,9 L0,5 L3,9 L8,9 L4,0 L9,-2 L8,-5 L3,-4 L-3,-4 L-8,-5 L-9,-2 L-4,0 Z"/><circle cx="0" cy="-7.5" r="3.8"/>"#
        };
        let _ = write!(
            out,
            r##"<g class="figure" data-seat="{}" transform="translate({},{}) scale({}){rot}" fill="{colour}" stroke="#fff" stroke-width="1.2"><title>{}</title>{shape}"##,
            fig.seat,
            n(x),
            n(y),
            n(s),
            esc(&title)
        );
        if several {
            let symbol = symbols.get(fig.follower).map_or("", String::as_str);
            figure_symbol(&mut out, symbol, fig.seat, lying);
        }
        let _ = writeln!(out, "</g>");
        piece(pieces, PieceKey::Figure(fig.clone(), k), out);
    }
}

/// Where figure `fig` stands in the picture, whether it lies (on a field) and what it stands
/// on, in words; `None` when its tile or feature is not on the board.
fn figure_place(b: &BoardView, fig: &Figure, f: Frame) -> Option<((f64, f64), bool, String)> {
    Some(match fig.at {
        FigureAt::Segment { instance, feature } => {
            let t = b.tiles.get(instance)?;
            let (cell, q) = feature_spot(&t.view, feature)?;
            let c = &t.view.cells[cell];
            let kind = t.view.features[feature].kind;
            (
                f.at(t.x + c.x, t.y + c.y, q),
                kind == FeatureKind::Field,
                format!("{} of {}", kind_name(kind), t.view.id),
            )
        }
        FigureAt::Corner { x, y } => (f.at(x, y, (0.0, 0.0)), false, "corner".to_string()),
    })
}

/// The symbol telling figure types apart, written on a figure of seat `seat`.
fn figure_symbol(out: &mut String, symbol: &str, seat: u8, lying: bool) {
    let fill = if seat == 2 { "#000" } else { "#fff" };
    // Turned back on a lying figure, so the letters read upright.
    let upright = if lying {
        r#" transform="rotate(-90)""#
    } else {
        ""
    };
    let size = if symbol.chars().count() > 1 { 6.5 } else { 8.0 };
    let _ = write!(
        out,
        r#"<text x="0" y="{}" font-size="{size}" font-weight="bold" text-anchor="middle" fill="{fill}" stroke="none"{upright}>{}</text>"#,
        if lying { 2.5 } else { 4.0 },
        esc(symbol)
    );
}

/// Height of the score table in pixels.
fn table_height(b: &BoardView) -> f64 {
    ROW * (b.seats.len() as f64 + 1.0) + 10.0
}

/// Width of the score table's name column: the longest name and the winner's star after it
/// (the star may come from a wider fallback font: counted as 3 characters).
fn name_width(b: &BoardView) -> f64 {
    let chars = b
        .seats
        .iter()
        .map(|s| s.name.chars().count() + if b.over && s.winner { 3 } else { 0 })
        .max()
        .unwrap_or(6)
        .max(6);
    chars as f64 * 7.2 + 28.0
}

/// Width of the score table's resource tally column (0 without seat resources).
fn tally_width(b: &BoardView) -> f64 {
    if !b.has_resources() {
        return 0.0;
    }
    let chars = (b.seats.iter()).map(|s| s.tally().chars().count()).max();
    chars.unwrap_or(0).max(9) as f64 * 7.2 + 16.0
}

/// Layer: the score table (seat colour, name, score, points by feature kind).
fn score_layer(out: &mut String, b: &BoardView, x0: f64, y0: f64) {
    let cols = b.used_columns();
    let name_w = name_width(b);
    let mut header = vec![
        ("seat".to_string(), x0 + 16.0),
        ("score".into(), x0 + name_w),
    ];
    for (i, c) in cols.iter().enumerate() {
        header.push((c.to_string(), x0 + name_w + 60.0 + 80.0 * i as f64));
    }
    // The seats' resources as a last column, one tally per seat.
    let tally_x = x0 + name_w + 60.0 + 80.0 * cols.len() as f64;
    if b.has_resources() {
        header.push(("resources".into(), tally_x));
    }
    let _ = writeln!(out, r#"<g class="scores" font-size="12">"#);
    for (t, x) in &header {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-weight="bold">{}</text>"#,
            n(*x),
            n(y0 + 12.0),
            esc(t)
        );
    }
    for (p, seat) in b.seats.iter().enumerate() {
        let y = y0 + 12.0 + ROW * (p as f64 + 1.0);
        let _ = writeln!(
            out,
            r##"<rect x="{}" y="{}" width="10" height="10" fill="{}" stroke="#222" stroke-width="0.8"/>"##,
            n(x0),
            n(y - 9.5),
            seat_colour(p as u8)
        );
        let win = if b.over && seat.winner { " ★" } else { "" };
        let mut cells = vec![
            (format!("{}{win}", seat.name), header[0].1),
            (seat.score.to_string(), header[1].1),
        ];
        for (i, c) in cols.iter().enumerate() {
            cells.push((seat.points_in(c).to_string(), header[i + 2].1));
        }
        if b.has_resources() {
            cells.push((seat.tally(), tally_x));
        }
        for (t, x) in cells {
            let _ = writeln!(
                out,
                r#"<text class="seat-{p}" x="{}" y="{}">{}</text>"#,
                n(x),
                n(y),
                esc(&t)
            );
        }
    }
    let _ = writeln!(out, "</g>");
}

/// The pieces of [`board_body`] in drawing order, except the placed tiles and completion marks
/// for which `known` holds (a caller that drew them at an earlier position of the same game need
/// not draw them again: they never change).
pub fn board_pieces(
    b: &BoardView,
    bounds: (i32, i32, i32, i32),
    (ox, oy): (f64, f64),
    known: &dyn Fn(&PieceKey) -> bool,
) -> Vec<Piece> {
    let f = Frame {
        min_x: bounds.0,
        min_y: bounds.1,
        ox,
        oy,
    };
    let mut pieces = Vec::new();
    tiles_layer(&mut pieces, b, f, known);
    completed_layer(&mut pieces, b, f, known);
    last_layer(&mut pieces, b, f);
    figures_layer(&mut pieces, b, f);
    counters_layer(&mut pieces, b, f);
    neutrals_layer(&mut pieces, b, f);
    pieces
}

/// Layer: the neutral figures, each a disc of its data's colour holding its letters, in the
/// south-west part of its cell (figures stand on features; this corner keeps both readable),
/// titled with its name.
fn neutrals_layer(pieces: &mut Vec<Piece>, b: &BoardView, f: Frame) {
    for (k, m) in b.neutrals.iter().enumerate() {
        let (x, y) = f.at(m.x, m.y, (0.2 + 0.22 * k as f64, 0.8));
        let markup = format!(
            r##"<g class="neutral" data-neutral="{}"><title>{} on the tile at ({}, {})</title><circle cx="{}" cy="{}" r="9" fill="{}" stroke="#fff" stroke-width="1.5"/><text x="{}" y="{}" font-size="9" font-weight="bold" text-anchor="middle" fill="#fff">{}</text></g>
"##,
            m.index,
            esc(&m.name),
            m.x,
            m.y,
            n(x),
            n(y),
            esc(&m.colour),
            n(x),
            n(y + 3.0),
            esc(&m.symbol)
        );
        piece(pieces, PieceKey::Neutral(m.index, m.x, m.y), markup);
    }
}

/// Fill of a counter badge, by counter kind (the data names no colour for counters).
const COUNTER_FILLS: [&str; 4] = ["#d4a017", "#7a5230", "#4a6fa5", "#8c4a8c"];

/// Layer: the counters on placed tiles, a badge per kind in the tile's north-east corner holding
/// the count, titled with the kind's name, one under the other.
fn counters_layer(pieces: &mut Vec<Piece>, b: &BoardView, f: Frame) {
    let mut on_tile: Vec<((i32, i32), usize)> = Vec::new();
    for c in &b.counters {
        let k = match on_tile.iter_mut().find(|(at, _)| *at == (c.x, c.y)) {
            Some((_, k)) => {
                *k += 1;
                *k
            }
            None => {
                on_tile.push(((c.x, c.y), 0));
                0
            }
        };
        let (x, y) = f.at(c.x, c.y, (0.84, 0.14 + 0.2 * k as f64));
        let fill = COUNTER_FILLS[c.kind % COUNTER_FILLS.len()];
        let markup = format!(
            r##"<g class="counters" data-kind="{}"><title>{} × {} on the tile at ({}, {})</title><rect x="{}" y="{}" width="18" height="14" rx="4" fill="{fill}" stroke="#fff" stroke-width="1"/><text x="{}" y="{}" font-size="10" font-weight="bold" text-anchor="middle" fill="#fff">{}</text></g>
"##,
            c.kind,
            esc(&c.name),
            c.count,
            c.x,
            c.y,
            n(x - 9.0),
            n(y - 7.0),
            n(x),
            n(y + 3.5),
            c.count
        );
        piece(pieces, PieceKey::Counters(c.x, c.y, c.kind), markup);
    }
}

/// The opening tag of [`board_body`] (its closing tag is `</g>` and a newline).
pub fn board_open(turn: u32) -> String {
    format!("<g class=\"board\" data-turn=\"{turn}\">\n")
}

/// The board's tiles, completion marks, last-tile outline and figures, inside a `<g>`, drawn for
/// a board whose cells span `bounds` (min x, min y, max x, max y). Uses the drawings of
/// [`tile_defs`].
pub fn board_body(b: &BoardView, bounds: (i32, i32, i32, i32), ox: f64, oy: f64) -> String {
    let mut out = board_open(b.turn);
    for p in board_pieces(b, bounds, (ox, oy), &|_| false) {
        out.push_str(&p.markup);
    }
    out.push_str("</g>\n");
    out
}

/// Title line of a board picture.
pub fn board_title(b: &BoardView) -> String {
    let end = if b.over { ", final scores" } else { "" };
    format!("{} — turn {}{end}", b.variant, b.turn)
}

/// A whole board picture: title, board, score table.
pub fn board_svg(b: &BoardView) -> String {
    let bounds = b.bounds();
    let (bw, bh) = (
        f64::from(bounds.2 - bounds.0 + 1) * CELL,
        f64::from(bounds.3 - bounds.1 + 1) * CELL,
    );
    let cols = b.used_columns().len() as f64;
    let table_w = name_width(b) + 60.0 + 80.0 * cols + tally_width(b);
    let w = bw.max(table_w.max(360.0 + 80.0 * cols)) + 2.0 * MARGIN;
    let h = TOP + bh + 16.0 + table_height(b) + MARGIN;
    let mut out = String::new();
    svg_open(&mut out, (w, h), Size::Window, &board_title(b));
    let _ = writeln!(out, "<defs>");
    out.push_str(&tile_defs([b]));
    let _ = writeln!(out, "</defs>");
    out.push_str(&board_body(b, bounds, MARGIN, TOP));
    score_layer(&mut out, b, MARGIN, TOP + bh + 16.0);
    out.push_str("</svg>\n");
    out
}
