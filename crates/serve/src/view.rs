//! What the page is sent about a game: the board as SVG (drawn by the render crate), every
//! legal action (placements with their cells, figure options with their spots on the board,
//! everything else in words), the events in words with their rule ids, and the score table.
//! The page knows no tile, figure or rule by name: it draws and lists what is here.

use serde_json::{json, Value};
use tegula_engine::{Action, Event, Game, Phase, Placement};
use tegula_render::board::{figure_symbols, points_by_kind, BoardView};
use tegula_render::svg::board::{board_body, feature_spot, seat_colour, tile_def};
use tegula_render::svg::CELL;
use tegula_render::words::Words;
use tegula_render::TileView;

use crate::catalog::Loaded;
use crate::session::{Seat, Session};

/// The phase as the page's root element carries it (`data-phase`).
pub fn phase_word(phase: Phase) -> &'static str {
    match phase {
        Phase::Place => "placing",
        Phase::Follower => "figure",
        Phase::Over => "over",
        _ => "choice",
    }
}

/// The names of the seats: `seat N (who)`.
pub fn seat_names(seats: &[Seat]) -> Vec<String> {
    (seats.iter().enumerate())
        .map(|(p, s)| format!("seat {p} ({})", s.name()))
        .collect()
}

/// Every tile type of the variant in its four rotations, as SVG `<defs>` content: the page
/// inserts it once per game and draws boards and previews with `<use>`.
pub fn defs(loaded: &Loaded) -> String {
    let mut out = String::new();
    for (t, compiled) in loaded.drawings.iter().enumerate() {
        let Ok(t) = u16::try_from(t) else { break };
        for r in 0..4 {
            out.push_str(&tile_def(t, r, &TileView::from_compiled(compiled, r)));
        }
    }
    out
}

/// The state of `s` for the page; `since` events are already shown there (only later ones are
/// sent, in words).
pub fn state(id: &str, s: &Session, since: usize) -> Value {
    let game = &s.game;
    let names = seat_names(&s.seats);
    let board = BoardView::from_game(game, &s.loaded.drawings, &names);
    let words = Words::new(game.rules().ruleset(), &board);
    let actions = actions(game);
    let (min_x, min_y, max_x, max_y) = board.bounds();
    let seats: Vec<Value> = (s.seats.iter().enumerate())
        .map(|(p, seat)| {
            json!({
                "name": names[p],
                "kind": seat.name(),
                "colour": seat_colour(p as u8),
            })
        })
        .collect();
    json!({
        "id": id,
        "variant": s.key,
        "variant_name": game.rules().ruleset().name,
        "players": game.players(),
        "seats": seats,
        "phase": phase_word(game.phase()),
        "engine_phase": format!("{:?}", game.phase()),
        "current": game.current_player(),
        "to_act": s.to_act().map(Seat::name),
        "human": s.to_act() == Some(Seat::Human),
        "can_undo": s.can_undo(),
        "turn": game.turn(),
        "remaining": game.remaining(),
        "scores": game.scores(),
        "resources": game.holdings_by_id(),
        "points_by_kind": points_by_kind(game),
        "winners": (game.phase() == Phase::Over).then(|| game.winners()),
        "board": {
            "svg": board_body(&board, (0, 0, 0, 0), 0.0, 0.0),
            "bounds": [min_x - 1, min_y - 1, max_x + 1, max_y + 1],
            "cell": CELL,
        },
        "actions": actions.iter().map(|a| action_json(game, s, &words, a)).collect::<Vec<_>>(),
        "tiles": placeable_tiles(s, &actions),
        "events": events(game, &words, since),
        "event_count": game.events().len(),
    })
}

/// The legal actions, with each other corner of a corner figure's field as its own action.
fn actions(game: &Game) -> Vec<Action> {
    let mut out = Vec::new();
    for a in game.legal_actions() {
        out.push(a);
        if let Action::Follower(o) = a {
            let points = game.corner_points(o);
            for &point in points.iter().skip(1) {
                out.push(Action::Corner(tegula_engine::CornerChoice {
                    option: o,
                    point,
                }));
            }
        }
    }
    out
}

/// One action for the page: the action itself (posted back as is), its words, and where it
/// goes on the board (`place`: the anchor cell and rotation; `spot`: a figure's point).
fn action_json(game: &Game, s: &Session, words: &Words, a: &Action) -> Value {
    let mut v = json!({
        "action": a,
        "words": action_words(game, words, a),
    });
    match a {
        Action::Place(p) => {
            v["kind"] = json!("place");
            v["place"] = json!({"tile": p.tile, "x": p.x, "y": p.y, "rotation": p.rotation});
        }
        Action::Follower(o) => {
            v["kind"] = json!("figure");
            v["symbol"] = json!(symbol(game, o.follower));
            let corner = game.corner_points(*o).first().copied();
            v["spot"] = match corner {
                Some([x, y]) => json!([f64::from(x) * CELL, f64::from(y) * CELL]),
                None => json!(last_tile_spot(game, s, o.feature)),
            };
        }
        Action::Corner(c) => {
            v["kind"] = json!("figure");
            v["symbol"] = json!(symbol(game, c.option.follower));
            v["spot"] = json!([f64::from(c.point[0]) * CELL, f64::from(c.point[1]) * CELL]);
        }
        Action::Take(t) => {
            v["kind"] = json!("other");
            v["tile"] = json!(t);
        }
        _ => v["kind"] = json!("other"),
    }
    v
}

/// The letters of follower type `f` on the board.
fn symbol(game: &Game, f: u8) -> String {
    let types = &game.rules().ruleset().followers;
    figure_symbols(types)
        .get(usize::from(f))
        .cloned()
        .unwrap_or_default()
}

/// Where a figure on feature `feature` of the tile just placed stands, in board pixels.
fn last_tile_spot(game: &Game, s: &Session, feature: u8) -> Option<[f64; 2]> {
    let p = game.tiles().last().copied()?;
    let view = TileView::from_compiled(s.loaded.drawings.get(usize::from(p.tile))?, p.rotation);
    let c0 = view.cells.first()?;
    let (ci, (u, v)) = feature_spot(&view, usize::from(feature))?;
    let c = view.cells.get(ci)?;
    Some([
        (f64::from(p.x - c0.x + c.x) + u) * CELL,
        (f64::from(p.y - c0.y + c.y) + v) * CELL,
    ])
}

/// The tile types the legal placements place (the drawn tile, own tiles, a taken pool tile),
/// each with its rotations' footprints: the anchor cell within the drawing and the size.
fn placeable_tiles(s: &Session, actions: &[Action]) -> Vec<Value> {
    let ruleset = s.game.rules().ruleset();
    let mut types: Vec<u16> = Vec::new();
    for a in actions {
        if let Action::Place(Placement { tile, .. }) = a {
            if !types.contains(tile) {
                types.push(*tile);
            }
        }
    }
    let words = |t: u16| {
        ruleset
            .tiles
            .get(usize::from(t))
            .map_or_else(String::new, |tt| {
                tegula_render::words::tile_display(&tt.id, &tt.name)
            })
    };
    (types.into_iter())
        .filter_map(|t| {
            let compiled = s.loaded.drawings.get(usize::from(t))?;
            let rotations: Vec<Value> = (0..4)
                .filter_map(|r| {
                    let view = TileView::from_compiled(compiled, r);
                    let c0 = view.cells.first()?;
                    let (w, h) = view.size();
                    Some(json!({"rotation": r, "anchor": [c0.x, c0.y], "size": [w, h]}))
                })
                .collect();
            Some(json!({"tile": t, "name": words(t), "rotations": rotations}))
        })
        .collect()
}

/// The events from `since` on, in words with their rule ids; `final` marks those of the final
/// scoring (after the last decision of a finished game).
fn events(game: &Game, words: &Words, since: usize) -> Vec<Value> {
    let all = game.events();
    let last_decision = if game.phase() == Phase::Over {
        all.iter().rposition(Event::is_decision)
    } else {
        None
    };
    // The turn each event names (the log's `turn`); an event without one is in the turn before.
    let turn_of = |e: &Event| serde_json::to_value(e).ok()?.get("turn")?.as_u64();
    let before = all[..since.min(all.len())].iter().rev();
    let mut turn = before.filter_map(turn_of).next().unwrap_or(0);
    let mut out = Vec::new();
    for (k, e) in all.iter().enumerate().skip(since) {
        turn = turn_of(e).unwrap_or(turn);
        let fin = last_decision.is_some_and(|d| k > d);
        if let Some(text) = words.describe(e, fin) {
            let (text, rule) = split_rule(&text, e.rule());
            out.push(json!({
                "k": k,
                "turn": turn,
                "text": text,
                "rule": rule,
                "final": fin,
            }));
        }
    }
    out
}

/// An event's words without the rule id they end with (`… [B-4]`), and that rule id (else the
/// event's own).
fn split_rule<'a>(text: &'a str, own: Option<&'a str>) -> (&'a str, Option<&'a str>) {
    if let Some(open) = text.rfind(" [") {
        if let Some(id) = text[open + 2..].strip_suffix(']') {
            return (&text[..open], Some(id));
        }
    }
    (text, own)
}

/// A legal action in words, generic over the rules: tile, figure and feature names come from
/// the data.
fn action_words(game: &Game, words: &Words, a: &Action) -> String {
    let ruleset = game.rules().ruleset();
    let tile_name = |t: u16| {
        ruleset
            .tiles
            .get(usize::from(t))
            .map_or_else(|| format!("tile {t}"), |tt| words.tile(&tt.id))
    };
    let figure = |f: u8| {
        ruleset
            .followers
            .get(usize::from(f))
            .map_or_else(|| format!("figure {f}"), |ft| ft.name.clone())
    };
    match a {
        Action::Take(t) => format!("take {}", tile_name(*t)),
        Action::Seat(p) => format!("let seat {p} take next"),
        Action::Place(p) => format!(
            "place {} at ({}, {}), turned {}°",
            tile_name(p.tile),
            p.x,
            p.y,
            u32::from(p.rotation) * 90
        ),
        Action::Follower(o) => {
            let at = game.tiles().last().map_or_else(String::new, |p| {
                feature_words(game, words, (p.tile, p.x, p.y), o.feature)
            });
            format!("put a {} on {at}", figure(o.follower))
        }
        Action::Corner(c) => format!(
            "put a {} on the corner ({}, {})",
            figure(c.option.follower),
            c.point[0],
            c.point[1]
        ),
        Action::Move(m) => {
            let tile = game
                .tiles()
                .iter()
                .find(|p| (p.x, p.y) == (m.x, m.y))
                .map(|p| p.tile);
            let at = tile.map_or_else(
                || format!("a feature at ({}, {})", m.x, m.y),
                |t| feature_words(game, words, (t, m.x, m.y), m.feature),
            );
            format!("move the figure to {at}")
        }
        Action::Pass => match game.phase() {
            Phase::Follower => "place no figure".to_string(),
            Phase::Hand if game.remaining() == 0 => "place none of your own tiles".to_string(),
            Phase::Hand => "draw a tile instead".to_string(),
            Phase::Move => "take the figure back".to_string(),
            Phase::Choice => match game.open_offer() {
                Some((rule, ..)) => format!("decline ({})", rule_id(game, rule)),
                None => "decline".to_string(),
            },
            _ => "pass".to_string(),
        },
        Action::Choose(n) => match game.choice_options().get(usize::from(*n)) {
            Some(&(rule, option)) => format!(
                "choose {} ({})",
                words.chosen(&game.choice_word(option)),
                rule_id(game, rule)
            ),
            None => format!("choose option {n}"),
        },
        Action::Draw(t) => format!("draw {}", tile_name(*t)),
        _ => format!("{a:?}"),
    }
}

/// The id of rule `rule` of the one form (an index into `Ruleset::when`).
fn rule_id(game: &Game, rule: u16) -> &str {
    let when = &game.rules().ruleset().when;
    when.get(usize::from(rule)).map_or("", |w| w.rule.as_str())
}

/// Feature `feature` of the tile of type `tile` anchored at `(x, y)`, in words.
fn feature_words(game: &Game, words: &Words, (tile, x, y): (u16, i32, i32), feature: u8) -> String {
    let seg = (game.rules().ruleset().tiles.get(usize::from(tile)))
        .and_then(|t| t.features.get(usize::from(feature)))
        .and_then(|f| f.segments.first());
    match seg {
        Some(seg) => words.segment(x, y, seg),
        None => format!("a feature at ({x}, {y})"),
    }
}
