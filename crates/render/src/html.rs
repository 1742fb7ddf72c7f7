//! The replay viewer: one self-contained HTML file (inline CSS, SVG and a few lines of script; no
//! network, no build step) that steps through a game turn by turn.
//!
//! Every turn's score table and event list are in the page, and every turn's board as deltas
//! ([`crate::deltas`]: each drawn piece once, with the turns it is shown at; the tile drawings
//! once, in a shared `<defs>`), so the page and the memory used to build it grow linearly with
//! the game; games of more than [`MAX_REPLAY_TURNS`] turns are refused. The script draws the
//! board of the turn chosen with the slider, the buttons, the keyboard arrows (Home/End too) or
//! the URL hash (`replay.html#turn=12`), shows that turn's tables, and moves the cursor of the
//! score track. At "fit" (the default) the board shows the turn's tiles as large as its panel
//! allows; `+` and `−` show the whole board at a pixel scale. Event lines are worded by
//! [`crate::words`]. The final score breakdown by feature kind is always shown.

use std::fmt::Write as _;

use tegula_engine::{Event, Game};
use tegula_model::compile::CompiledTile;

use crate::board::{timeline_each, BoardView};
use crate::deltas::{BoardDeltas, Span};
use crate::svg::board::{seat_colour, tile_defs};
use crate::svg::{esc, CELL};
use crate::words::Words;

/// Most turns a replay page shows: far beyond real games (the base game has 72 tiles, every
/// expansion together a few hundred), and a bound on the page's size and on the time and memory
/// spent building it.
pub const MAX_REPLAY_TURNS: u32 = 2_000;

/// Turn of an event (the end of the game belongs to the last turn).
fn event_turn(e: &Event) -> Option<u32> {
    let v = serde_json::to_value(e).ok()?;
    v.get("turn")?.as_u64().map(|t| t as u32)
}

const STYLE: &str = r#"
body { font-family: sans-serif; margin: 0; color: #222; background: #fafafa; }
header { padding: 8px 14px; background: #33691e; color: #fff; }
header h1 { font-size: 18px; margin: 0; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(320px, 2fr); gap: 12px; padding: 12px; }
#board-box { overflow: auto; border: 1px solid #ccc; background: #fff; height: 78vh; }
#board { display: block; }
.panel { display: flex; flex-direction: column; gap: 10px; }
.controls { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
#slider { flex: 1; min-width: 160px; }
#status { font-weight: bold; font-size: 16px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { padding: 2px 8px; text-align: right; border-bottom: 1px solid #ddd; }
td:first-child, th:first-child { text-align: left; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 5px; border: 1px solid #222; }
ol.events { font-size: 13px; margin: 0; padding-left: 22px; max-height: 30vh; overflow: auto; }
.rule { color: #1565c0; }
[hidden] { display: none !important; }
h2 { font-size: 14px; margin: 4px 0; }
"#;

const SCRIPT: &str = r#"
(function () {
  var data = JSON.parse(document.getElementById('data').textContent);
  var last = data.turns.length - 1;
  var slider = document.getElementById('slider');
  var current = -1;
  function indexOfTurn(t) {
    for (var i = last; i >= 0; i--) { if (data.turns[i] === t) { return i; } }
    return last;
  }
  var board = document.getElementById('turn-board');
  // The board at position k: the pieces shown then, in drawing order (data.pieces: [from, to,
  // markup], shown at positions from <= k < to).
  function boardAt(k) {
    var parts = [];
    for (var i = 0; i < data.pieces.length; i++) {
      var p = data.pieces[i];
      if (p[0] <= k && k < p[1]) { parts.push(p[2]); }
    }
    return '\n<g class="board" data-turn="' + data.turns[k] + '">\n' + parts.join('') + '</g>\n';
  }
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    if (k === current) { return; }
    current = k;
    board.innerHTML = boardAt(k);
    board.setAttribute('data-k', String(k));
    view();
    var all = document.querySelectorAll('[data-k]');
    for (var i = 0; i < all.length; i++) {
      if (Number(all[i].getAttribute('data-k')) === k) { all[i].removeAttribute('hidden'); }
      else { all[i].setAttribute('hidden', ''); }
    }
    slider.value = String(k);
    document.getElementById('status').textContent =
      'Turn ' + data.turns[k] + ' of ' + data.turns[last] + (k === last ? ' (final scores)' : '');
    var cursor = document.getElementById('cursor');
    var x = data.track_x[k].toFixed(1);
    cursor.setAttribute('x1', x);
    cursor.setAttribute('x2', x);
    if (window.history && history.replaceState) {
      history.replaceState(null, '', '#turn=' + data.turns[k]);
    }
  }
  function fromHash() {
    var m = /turn=(\d+)/.exec(location.hash);
    show(m ? indexOfTurn(Number(m[1])) : last);
  }
  slider.addEventListener('input', function () { show(Number(slider.value)); });
  document.getElementById('prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current + 1); });
  document.getElementById('first').addEventListener('click', function () { show(0); });
  document.getElementById('final').addEventListener('click', function () { show(last); });
  // Zoom: "fit" shows the turn's tiles as large as the panel allows (the picture is 100 % of
  // the box and its viewBox the turn's part of the board, data.boxes; it follows the window);
  // + and − show the whole board at a pixel scale, starting from the scale shown.
  var svg = document.getElementById('board');
  var box = document.getElementById('board-box');
  var zoom = null;
  function view() {
    var b = zoom === null && current >= 0 ? data.boxes[current] : [0, 0, data.width, data.height];
    svg.setAttribute('viewBox', b.map(function (v) { return v.toFixed(1); }).join(' '));
  }
  function fitScale() {
    var b = current >= 0 ? data.boxes[current] : [0, 0, data.width, data.height];
    return Math.min(box.clientWidth / b[2], box.clientHeight / b[3]);
  }
  function setZoom(z) {
    zoom = z === null ? null : Math.max(0.2, Math.min(4, z));
    svg.setAttribute('width', zoom === null ? '100%' : (data.width * zoom).toFixed(0));
    svg.setAttribute('height', zoom === null ? '100%' : (data.height * zoom).toFixed(0));
    view();
    if (zoom !== null && current >= 0) {
      // Keep the turn's tiles in sight: scroll to where they are on the whole board.
      box.scrollLeft = data.boxes[current][0] * zoom;
      box.scrollTop = data.boxes[current][1] * zoom;
    }
  }
  function scale() { return zoom === null ? fitScale() : zoom; }
  document.getElementById('zoom-in').addEventListener('click', function () { setZoom(scale() * 1.25); });
  document.getElementById('zoom-out').addEventListener('click', function () { setZoom(scale() / 1.25); });
  document.getElementById('zoom-fit').addEventListener('click', function () { setZoom(null); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(current - 1); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { show(current + 1); e.preventDefault(); }
    else if (e.key === 'Home') { show(0); e.preventDefault(); }
    else if (e.key === 'End') { show(last); e.preventDefault(); }
  });
  window.addEventListener('hashchange', fromHash);
  document.getElementById('zoom-fit').click();
  fromHash();
})();
"#;

/// Width and height of the score track.
const TRACK: (f64, f64) = (420.0, 150.0);

/// Padding around the board, in pixels: the board of every turn is drawn with its top-left cell
/// (of the final board's bounds) at `(BOARD_PAD, BOARD_PAD)` ([`crate::svg::board::board_body`]).
pub const BOARD_PAD: f64 = 10.0;

/// What the page needs of every position, gathered while the game is replayed one position at
/// a time (no position is kept).
struct Positions {
    turns: Vec<u32>,
    /// The seats' scores at each position.
    scores: Vec<Vec<i64>>,
    /// The score tables of the positions, markup.
    tables: String,
    board: BoardDeltas,
    /// Union of the positions' bounds (within the final position's, as tiles only accumulate).
    bounds: (i32, i32, i32, i32),
    /// The part of the page's board picture each position's tiles cover ([`fit_box`]).
    boxes: Vec<[f64; 4]>,
}

/// Fewest cells across that "fit" shows, so that the first turns' few tiles are not drawn huge.
const FIT_MIN_CELLS: f64 = 4.0;

/// The box "fit" shows of a position whose tiles span `b`, on the picture of a board spanning
/// `whole` (both in cells): `[x, y, width, height]` in picture pixels, the tiles and the padding
/// around them, at least [`FIT_MIN_CELLS`] cells each way (centred on the tiles).
fn fit_box(b: (i32, i32, i32, i32), whole: (i32, i32, i32, i32)) -> [f64; 4] {
    let span = |lo: i32, hi: i32, origin: i32| {
        let cells = f64::from(hi - lo + 1);
        let extra = (FIT_MIN_CELLS - cells).max(0.0) * CELL / 2.0;
        (
            f64::from(lo - origin) * CELL - extra,
            cells * CELL + 2.0 * extra + 2.0 * BOARD_PAD,
        )
    };
    let (x, w) = span(b.0, b.2, whole.0);
    let (y, h) = span(b.1, b.3, whole.1);
    [x, y, w, h]
}

/// The replay page of `game` (replayed from its first position, [`timeline_each`]): `drawings`
/// are the compiled tiles of its variant in ruleset order, `seat_names` name the seats, `title`
/// is the page title. Refused (`Err`) for games of more than [`MAX_REPLAY_TURNS`] turns, or when
/// the events hold a decision the viewer cannot replay.
pub fn replay_html(
    title: &str,
    game: &Game,
    drawings: &[CompiledTile],
    seat_names: &[String],
) -> Result<String, String> {
    if game.turn() > MAX_REPLAY_TURNS {
        return Err(format!(
            "the game has {} turns; the replay viewer shows at most {MAX_REPLAY_TURNS}",
            game.turn()
        ));
    }
    let final_view = BoardView::from_game(game, drawings, seat_names);
    let bounds = final_view.bounds();
    let mut at = Positions {
        turns: Vec::new(),
        scores: Vec::new(),
        tables: String::new(),
        board: BoardDeltas::new(bounds, (BOARD_PAD, BOARD_PAD)),
        bounds,
        boxes: Vec::new(),
    };
    // The same columns at every turn: every column some seat scores in by the end (scores only
    // grow, so no column is used earlier and not at the end).
    let columns = final_view.used_columns();
    let mut last = None;
    timeline_each(game, drawings, seat_names, |v| {
        let k = at.turns.len();
        at.turns.push(v.turn);
        at.scores.push(v.seats.iter().map(|s| s.score).collect());
        at.tables.push_str(&score_table(k, v, &columns));
        at.board.push(v);
        let b = v.bounds();
        at.boxes.push(fit_box(b, bounds));
        at.bounds = (
            at.bounds.0.min(b.0),
            at.bounds.1.min(b.1),
            at.bounds.2.max(b.2),
            at.bounds.3.max(b.3),
        );
        last = Some((v.seats.clone(), v.over));
        Ok(())
    })?;
    if at.bounds != bounds {
        return Err("a position of the game lies outside its final board".into());
    }
    // The last position of the replay is the final one: its seats and its end.
    let Some((seats, over)) = last else {
        return Ok(String::new());
    };
    let final_view = BoardView {
        seats,
        over,
        ..final_view
    };
    Ok(page(title, &final_view, at, game))
}

/// The whole page from what was gathered.
fn page(title: &str, final_view: &BoardView, at: Positions, game: &Game) -> String {
    let bounds = at.bounds;
    let w = f64::from(bounds.2 - bounds.0 + 1) * CELL + 2.0 * BOARD_PAD;
    let h = f64::from(bounds.3 - bounds.1 + 1) * CELL + 2.0 * BOARD_PAD;
    let positions = at.turns.len();
    let last_k = positions.saturating_sub(1).max(1) as f64;
    let track_x: Vec<f64> = (0..positions)
        .map(|k| 30.0 + k as f64 * (TRACK.0 - 40.0) / last_k)
        .collect();
    let pieces: Vec<(usize, usize, String)> = at
        .board
        .finish()
        .into_iter()
        .map(|Span { from, to, markup }| (from, to, markup))
        .collect();
    let data = serde_json::json!({
        "turns": at.turns,
        "track_x": track_x,
        "boxes": at.boxes,
        "width": w,
        "height": h,
        "pieces": pieces,
    });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>",
        esc(title)
    );
    let _ = writeln!(out, "<header><h1>{}</h1></header>\n<main>", esc(title));
    // The board: shared tile drawings, then the group the script draws the turn's board in.
    let _ = writeln!(
        out,
        r#"<div id="board-box"><svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.1} {h:.1}" width="{w:.0}" height="{h:.0}" font-family="monospace"><defs>"#
    );
    out.push_str(&tile_defs([final_view]));
    let _ = writeln!(out, "</defs>");
    let _ = writeln!(
        out,
        r#"<g class="turn" data-k="{}" id="turn-board" hidden></g>"#,
        positions - 1
    );
    let _ = writeln!(out, "</svg></div>\n<div class=\"panel\">");
    controls(&mut out, positions - 1, final_view.turn);
    let _ = writeln!(out, "<h2>Scores</h2>");
    out.push_str(&at.tables);
    score_track(&mut out, final_view, &at.scores, &track_x);
    event_lists(
        &mut out,
        &Words::new(game.rules().ruleset(), final_view),
        &at.turns,
        game.events(),
    );
    final_breakdown(&mut out, final_view);
    let _ = writeln!(out, "</div>\n</main>");
    let json = serde_json::to_string(&data)
        .unwrap_or_else(|_| "{}".into())
        .replace("</", "<\\/");
    let _ = writeln!(
        out,
        "<script id=\"data\" type=\"application/json\">{json}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>"
    );
    out
}

/// The turn slider, its buttons, the turn line and the zoom buttons.
fn controls(out: &mut String, last_k: usize, final_turn: u32) {
    let _ = writeln!(
        out,
        r#"<div class="controls"><button id="first" title="first turn (Home)">|◀</button><button id="prev" title="previous turn (←)">◀</button><input id="slider" type="range" min="0" max="{last_k}" value="{last_k}" aria-label="turn"><button id="next" title="next turn (→)">▶</button><button id="final" title="final scores (End)">▶|</button></div>
<div class="controls"><span id="status">Turn {final_turn} of {final_turn}</span><span style="flex:1"></span><button id="zoom-out">−</button><button id="zoom-fit">fit</button><button id="zoom-in">+</button></div>"#
    );
}

/// The score table of position `k` (hidden until the script shows it): a header for each of
/// `columns` and a cell in each for every seat.
fn score_table(k: usize, v: &BoardView, columns: &[&str]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<table class="scores" data-k="{k}" hidden><tr><th>seat</th><th>score</th>"#
    );
    for c in columns {
        let _ = write!(out, "<th>{}</th>", esc(c));
    }
    if v.has_resources() {
        let _ = write!(out, "<th>resources</th>");
    }
    let _ = writeln!(out, "</tr>");
    for (p, s) in v.seats.iter().enumerate() {
        let star = if v.over && s.winner { " ★" } else { "" };
        let _ = write!(
            out,
            r#"<tr><td><span class="swatch" style="background:{}"></span>{}{star}</td><td>{}</td>"#,
            seat_colour(p as u8),
            esc(&s.name),
            s.score
        );
        for c in columns {
            let _ = write!(out, "<td>{}</td>", s.points_in(c));
        }
        if v.has_resources() {
            let _ = write!(out, "<td>{}</td>", esc(&s.tally()));
        }
        let _ = writeln!(out, "</tr>");
    }
    let _ = writeln!(out, "</table>");
    out
}

/// The score track: one line per seat through its score at every position, and the cursor. Its
/// bottom is 0, or the lowest score when a seat went below 0 (TO-7's other reading).
fn score_track(out: &mut String, final_view: &BoardView, scores: &[Vec<i64>], track_x: &[f64]) {
    let max_score = scores.iter().flatten().copied().max().unwrap_or(0).max(1);
    let low = scores.iter().flatten().copied().min().unwrap_or(0).min(0);
    let span = (max_score - low) as f64;
    let track_y = |s: i64| TRACK.1 - 20.0 - (s - low) as f64 * (TRACK.1 - 30.0) / span;
    let _ = writeln!(
        out,
        r##"<h2>Score track</h2><svg id="track" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-size="10"><rect x="30" y="10" width="{}" height="{}" fill="#fff" stroke="#bbb"/><text x="2" y="{}">{max_score}</text><text x="2" y="{}">{low}</text>"##,
        TRACK.0,
        TRACK.1,
        TRACK.0,
        TRACK.1,
        TRACK.0 - 40.0,
        TRACK.1 - 30.0,
        track_y(max_score) + 4.0,
        track_y(low) + 4.0
    );
    for p in 0..final_view.seats.len() {
        let pts: Vec<String> = scores
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let s = s.get(p).copied().unwrap_or(0);
                format!("{:.1},{:.1}", track_x[k], track_y(s))
            })
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline class="track-seat" points="{}" fill="none" stroke="{}" stroke-width="2"><title>{}</title></polyline>"#,
            pts.join(" "),
            seat_colour(p as u8),
            esc(&final_view.seats[p].name)
        );
    }
    let _ = writeln!(
        out,
        r##"<line id="cursor" x1="{x:.1}" y1="10" x2="{x:.1}" y2="{}" stroke="#ff6f00" stroke-width="2"/><text x="30" y="{}">turn 0</text><text x="{}" y="{}" text-anchor="end">turn {}</text></svg>"##,
        TRACK.1 - 20.0,
        TRACK.1 - 6.0,
        TRACK.0 - 10.0,
        TRACK.1 - 6.0,
        final_view.turn,
        x = track_x.last().copied().unwrap_or(30.0)
    );
}

/// The events of each position (`turns`: the turn of each position), each line ending with its
/// rule id in its own colour.
fn event_lists(out: &mut String, words: &Words, turns: &[u32], events: &[Event]) {
    let _ = writeln!(out, "<h2>Events of this turn</h2>");
    let mut by_k: Vec<Vec<(&str, String)>> = vec![Vec::new(); turns.len()];
    let last_decision = events.iter().rposition(Event::is_decision);
    for (i, e) in events.iter().enumerate() {
        let final_scoring = last_decision.is_some_and(|d| i > d);
        let Some(line) = words.describe(e, final_scoring) else {
            continue;
        };
        let k = match event_turn(e) {
            Some(t) => turns
                .iter()
                .rposition(|&x| x == t)
                .unwrap_or(turns.len() - 1),
            None => turns.len() - 1,
        };
        by_k[k].push((e.kind(), line));
    }
    for (k, evs) in by_k.iter().enumerate() {
        let _ = writeln!(out, r#"<ol class="events" data-k="{k}" hidden>"#);
        if evs.is_empty() {
            let _ = writeln!(out, "<li>the start tile is placed</li>");
        }
        for (kind, line) in evs {
            let text = esc(line);
            let text = match text.rfind(" [") {
                Some(i) if text.ends_with(']') => format!(
                    "{} <span class=\"rule\">{}</span>",
                    &text[..i],
                    &text[i + 1..]
                ),
                _ => text,
            };
            let _ = writeln!(out, "<li class=\"ev-{kind}\">{text}</li>");
        }
        let _ = writeln!(out, "</ol>");
    }
}

/// The final score of each seat by feature kind.
fn final_breakdown(out: &mut String, final_view: &BoardView) {
    let cols = final_view.used_columns();
    let _ = writeln!(
        out,
        r#"<h2>Final score by feature kind</h2><table id="final-breakdown"><tr><th>seat</th>"#
    );
    for c in &cols {
        let _ = write!(out, "<th>{c}</th>");
    }
    let _ = writeln!(out, "<th>total</th></tr>");
    for (p, s) in final_view.seats.iter().enumerate() {
        let star = if s.winner { " ★" } else { "" };
        let _ = write!(
            out,
            r#"<tr><td><span class="swatch" style="background:{}"></span>{}{star}</td>"#,
            seat_colour(p as u8),
            esc(&s.name)
        );
        for c in &cols {
            let _ = write!(out, "<td>{}</td>", s.points_in(c));
        }
        let _ = writeln!(out, "<td>{}</td></tr>", s.score);
    }
    let _ = writeln!(out, "</table>");
}
