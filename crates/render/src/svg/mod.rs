//! SVG pictures of tiles and contact sheets, written as plain text (no dependencies).
//!
//! Geometry (cell-local units, 0..1, x east, y south; one cell = [`CELL`] pixels):
//! - a field segment is the union of the wedges between the cell centre and its half-edges; the
//!   wedges of city/any sides (which have no halves) go to the nearest field of the cell, and the
//!   city is drawn over them;
//! - a city segment is the polygon over its sides: a cap for one side, a region through the centre
//!   for several (sides joined along the border when adjacent, by an inward curve otherwise; a
//!   city over two adjacent sides curves around the centre, leaving room for the field beside it);
//! - a road segment is a thick line from each of its side midpoints to the centre; a one-side road
//!   runs to the building of its cell, or to one junction mark at the centre where three or more
//!   roads end, or else ends in a small square (gate, house);
//! - inner fields are discs, the cloister a small church, the wonder a gold star (at the centre,
//!   or where it stands clear of roads through the cell and of cities), pennants small blue
//!   shields kept inside their cell;
//! - outer sides are bold, inner sides of a mega tile thin dashed lines; a connection is a dot on
//!   the inner side where its two segments meet: blue when joined, red when kept apart (W-21).
//!
//! Every feature has its own shade (greens for fields, browns/oranges for cities, light greys for
//! roads) and every segment a label `#feature segment-id`. Output is deterministic: fixed order,
//! numbers printed with one decimal.

use std::fmt::Write as _;

pub mod board;
mod geom;
mod glyphs;
mod labels;
mod layers;

use tegula_ruleset::FeatureKind;

use crate::view::{plural, TileView};

/// Size of one cell in pixels.
pub const CELL: f64 = 120.0;
const MARGIN: f64 = 20.0;
const LINE: f64 = 13.0;
/// Width of one title character (14 px bold monospace).
const TITLE_CHAR: f64 = 8.6;

const FIELD_SHADES: [&str; 10] = [
    "#9ccc65", "#66bb6a", "#c5e1a5", "#7cb342", "#a5d6a7", "#558b2f", "#dce775", "#81c784",
    "#aed581", "#43a047",
];
const CITY_SHADES: [&str; 8] = [
    "#d9a05b", "#c0703a", "#e8b878", "#a0522d", "#f0a050", "#b8864b", "#e07b39", "#8d5a2b",
];
const ROAD_SHADES: [&str; 6] = [
    "#f4f4f4", "#d6d6d6", "#e6e6e6", "#c8c8c8", "#fbfbfb", "#dedede",
];

/// Fill colour of feature `f` of `view`.
pub fn feature_colour(view: &TileView, f: usize) -> &'static str {
    let rank = view.kind_rank(f);
    match view.features[f].kind {
        FeatureKind::Field => FIELD_SHADES[rank % FIELD_SHADES.len()],
        FeatureKind::City => CITY_SHADES[rank % CITY_SHADES.len()],
        FeatureKind::Road => ROAD_SHADES[rank % ROAD_SHADES.len()],
        FeatureKind::Cloister => "#c0392b",
        FeatureKind::Unscored => "#e6b422",
    }
}

/// Format a coordinate with one decimal (never `-0.0`).
fn n(v: f64) -> String {
    let s = format!("{v:.1}");
    if s == "-0.0" {
        "0.0".to_string()
    } else {
        s
    }
}

/// Escape text for XML content and attribute values. Characters XML 1.0 forbids even as
/// references (C0 controls, U+FFFE, U+FFFF) become a space, so the picture stays well-formed
/// whatever the names in the data.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if !is_xml_char(c) || c == '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Whether XML 1.0 allows `c` in a document (its `Char` production; Rust strings hold no
/// surrogates).
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Draw one tile with its top-left corner at `(ox, oy)`, labelled, in a group `id="tile-ID"`.
fn draw_tile(out: &mut String, view: &TileView, ox: f64, oy: f64) {
    let _ = writeln!(out, r#"<g class="tile" id="tile-{}">"#, esc(&view.id));
    draw_layers(out, view, ox, oy, true);
    let _ = writeln!(out, "</g>");
}

/// Every drawing layer of one tile, bottom to top, with or without the segment labels.
pub(crate) fn draw_layers(out: &mut String, view: &TileView, ox: f64, oy: f64, with_labels: bool) {
    let mut pen = geom::Pen { out, ox, oy };
    layers::backgrounds(&mut pen, view);
    layers::fields(&mut pen, view);
    layers::declared_edges(&mut pen, view);
    layers::cities(&mut pen, view);
    layers::roads(&mut pen, view);
    layers::buildings(&mut pen, view);
    layers::pennants(&mut pen, view);
    glyphs::glyphs(&mut pen, view);
    layers::sides(&mut pen, view);
    layers::connections(&mut pen, view);
    if with_labels {
        labels::labels(&mut pen, view);
    }
}

/// How big a picture asks to be shown.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Size {
    /// Its own size in pixels.
    Natural,
    /// The whole window (or the box it is put in), its shape kept by the `viewBox`: a board may
    /// be far larger than a screen.
    Window,
}

/// The `<svg>` element, a white background and the bold title line at the top left.
pub(crate) fn svg_open(out: &mut String, (w, h): (f64, f64), size: Size, title: &str) {
    let (sw, sh) = match size {
        Size::Natural => (n(w), n(h)),
        Size::Window => ("100%".to_string(), "100%".to_string()),
    };
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{sw}" height="{sh}" viewBox="0 0 {w} {h}" font-family="monospace">"#,
        w = n(w),
        h = n(h)
    );
    let _ = writeln!(
        out,
        r##"<rect x="0.0" y="0.0" width="{}" height="{}" fill="#ffffff"/>"##,
        n(w),
        n(h)
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="14.0" font-weight="bold">{}</text>"#,
        n(MARGIN),
        n(MARGIN + 12.0),
        esc(title)
    );
}

/// An SVG picture of one tile, with a legend of its features and connections under it.
pub fn tile_svg(view: &TileView) -> String {
    // Characters per line of an ability sentence: about the legend's width.
    const ABILITY_WIDTH: usize = 80;
    let (cw, ch) = view.size();
    let mut lines = view.legend();
    lines.extend(view.ability_lines(ABILITY_WIDTH));
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let title = if view.name.is_empty() {
        view.id.clone()
    } else {
        format!("{} — {}", view.id, view.name)
    };
    let w = (f64::from(cw) * CELL)
        .max(longest * 6.0)
        .max(title.chars().count() as f64 * TITLE_CHAR)
        + 2.0 * MARGIN;
    let tile_h = f64::from(ch) * CELL;
    let h = MARGIN + 22.0 + tile_h + 12.0 + LINE * lines.len() as f64 + MARGIN;
    let mut out = String::new();
    svg_open(&mut out, (w, h), Size::Natural, &title);
    draw_tile(&mut out, view, MARGIN, MARGIN + 22.0);
    let mut y = MARGIN + 22.0 + tile_h + 12.0 + 9.0;
    for l in &lines {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="10.0">{}</text>"#,
            n(MARGIN),
            n(y),
            esc(l)
        );
        y += LINE;
    }
    out.push_str("</svg>\n");
    out
}

/// A contact sheet: every tile of `views` in a grid (rows of at most 8 cells' width), each with
/// its id, name and count under it.
pub fn sheet_svg(title: &str, views: &[TileView]) -> String {
    const GAP: f64 = 24.0;
    const CAPTION: f64 = 4.0 * LINE + 6.0;
    let max_row = 8.0 * CELL;
    // Lay out: slot width = tile width (at least one cell plus gap).
    let mut placed = Vec::with_capacity(views.len());
    let (mut x, mut y, mut row_h, mut total_w) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for v in views {
        let (cw, ch) = v.size();
        let (tw, th) = (f64::from(cw) * CELL, f64::from(ch) * CELL);
        if x > 0.0 && x + tw > max_row {
            x = 0.0;
            y += row_h + CAPTION + GAP;
            row_h = 0.0;
        }
        placed.push((x, y, tw));
        x += tw + GAP;
        total_w = total_w.max(x - GAP);
        row_h = row_h.max(th);
    }
    let body_h = if views.is_empty() {
        0.0
    } else {
        y + row_h + CAPTION
    };
    let total: u64 = views.iter().map(|v| v.count + u64::from(v.start)).sum();
    let heading = format!(
        "{title} — {} tile type{}, {total} tile{}",
        views.len(),
        plural(views.len()),
        plural(total as usize)
    );
    let w = total_w
        .max(4.0 * CELL)
        .max(heading.chars().count() as f64 * TITLE_CHAR)
        + 2.0 * MARGIN;
    let h = MARGIN + 26.0 + body_h + MARGIN;
    let mut out = String::new();
    svg_open(&mut out, (w, h), Size::Natural, &heading);
    let top = MARGIN + 26.0;
    for (v, &(x, y, tw)) in views.iter().zip(&placed) {
        let (_, ch) = v.size();
        let (ox, oy) = (MARGIN + x, top + y);
        draw_tile(&mut out, v, ox, oy);
        let cap_y = oy + f64::from(ch) * CELL + 12.0;
        let max_chars = ((tw / 6.0) as usize).max(8);
        let mut count = format!("×{}", v.count);
        if v.start {
            count.push_str(" + start");
        }
        let (name1, name2) = wrap2(&v.name, max_chars);
        let lines = [
            (v.id.clone(), r#" font-weight="bold""#, 11.0),
            (name1, "", 9.0),
            (name2, "", 9.0),
            (count, "", 9.0),
        ];
        for (k, (text, extra, size)) in lines.iter().filter(|l| !l.0.is_empty()).enumerate() {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" font-size="{}"{extra}>{}</text>"#,
                n(ox),
                n(cap_y + LINE * k as f64),
                n(*size),
                esc(text)
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// Split `s` into at most two lines of `max` characters at spaces (the rest truncated with `…`).
fn wrap2(s: &str, max: usize) -> (String, String) {
    if s.chars().count() <= max {
        return (s.to_string(), String::new());
    }
    let mut first = String::new();
    let mut rest = s;
    for (i, ch) in s.char_indices() {
        if ch == ' ' {
            if s[..i].chars().count() > max {
                break;
            }
            first = s[..i].to_string();
            rest = &s[i + 1..];
        }
    }
    if first.is_empty() {
        let head: String = s.chars().take(max).collect();
        rest = &s[head.len()..];
        first = head;
    }
    (first, truncate(rest, max))
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::geom::{half_mid, side_mid};
    use super::*;
    use tegula_ruleset::{Half, Side};

    #[test]
    fn numbers_have_one_decimal_and_no_negative_zero() {
        assert_eq!(n(1.0), "1.0");
        assert_eq!(n(-0.0001), "0.0");
        assert_eq!(n(12.345), "12.3");
    }

    #[test]
    fn text_is_escaped_for_xml() {
        assert_eq!(
            esc(r#"<a & 'b' "c">"#),
            "&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;"
        );
        assert_eq!(esc("x\u{1}y"), "x y");
        // Not XML characters at all: replaced, never written even as references.
        assert_eq!(esc("a\u{FFFE}b\u{FFFF}c\u{0}\r"), "a b c  ");
        assert_eq!(esc("ä\u{10000}\u{FFFD}"), "ä\u{10000}\u{FFFD}");
    }

    #[test]
    fn names_wrap_on_two_lines() {
        assert_eq!(wrap2("Cloister", 20), ("Cloister".into(), String::new()));
        assert_eq!(
            wrap2("City cap with straight road", 20),
            ("City cap with".into(), "straight road".into())
        );
        let (a, b) = wrap2("Supercalifragilisticexpialidocious and more words", 10);
        assert_eq!(a.chars().count(), 10);
        assert!(b.ends_with('…') && b.chars().count() == 10);
    }

    #[test]
    fn half_edge_points_run_clockwise_from_the_north_west_corner() {
        // Ruleset convention: halves Nw Ne En Es Se Sw Ws Wn clockwise.
        assert_eq!(half_mid(Half::Nw), (0.25, 0.0));
        assert_eq!(half_mid(Half::En), (1.0, 0.25));
        assert_eq!(half_mid(Half::Se), (0.75, 1.0));
        assert_eq!(half_mid(Half::Wn), (0.0, 0.25));
        assert_eq!(side_mid(Side::E), (1.0, 0.5));
    }
}
