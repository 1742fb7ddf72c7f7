//! A game board ready to draw: the placed tiles (each a rotated [`TileView`], the same drawing as
//! `tegula render`), the figures standing on them, the completed features, the last placed tile
//! and the score table.
//!
//! [`BoardView::from_game`] is the one place that reads a [`Game`]; the drawings ([`crate::svg`],
//! [`crate::ascii`]) read only a [`BoardView`]. Figures are drawn from the ruleset's
//! [`FollowerType`] data (sites, strength, name), never by id: a figure stands either on a feature
//! segment of a placed tile ([`FigureAt::Segment`]) or on a cell corner ([`FigureAt::Corner`], for
//! figures whose sites contain [`tegula_ruleset::Site::Corner`]).

use std::collections::BTreeMap;

use tegula_engine::{points, Event, Game, Phase, PileOrder};
use tegula_model::compile::CompiledTile;
use tegula_ruleset::{FeatureKind, FollowerType};

use crate::view::TileView;

/// One game position, ready to draw.
#[derive(Clone, Debug)]
pub struct BoardView {
    /// Variant id.
    pub variant: String,
    /// Turn shown (placed land tiles; the start tile is turn 0).
    pub turn: u32,
    /// Whether the game is over (final scoring done).
    pub over: bool,
    /// Placed tiles, in placement order (index = tile instance).
    pub tiles: Vec<BoardTile>,
    /// Figure types of the ruleset (index = [`Figure::follower`]).
    pub figure_types: Vec<FollowerType>,
    /// Figures on the board.
    pub figures: Vec<Figure>,
    /// Completed features: (index into [`BoardView::tiles`], tile-local feature).
    pub completed: Vec<(usize, usize)>,
    /// Index into [`BoardView::tiles`] of the last placed tile (none at turn 0).
    pub last: Option<usize>,
    /// One row per seat.
    pub seats: Vec<SeatScore>,
}

/// A placed tile.
#[derive(Clone, Debug)]
pub struct BoardTile {
    /// The tile's drawing, turned by its rotation.
    pub view: TileView,
    /// Tile type index in the ruleset.
    pub tile: u16,
    /// Rotation (clockwise quarter turns).
    pub rotation: u8,
    /// Board column of the view's cell column 0.
    pub x: i32,
    /// Board row of the view's cell row 0.
    pub y: i32,
    /// Turn it was placed (0 for the start tile).
    pub turn: u32,
}

/// A figure on the board.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Figure {
    /// Owner seat.
    pub seat: u8,
    /// Index into [`BoardView::figure_types`].
    pub follower: usize,
    /// Where it stands.
    pub at: FigureAt,
}

/// Where a figure stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FigureAt {
    /// On a feature of a placed tile: index into [`BoardView::tiles`] and tile-local feature.
    Segment {
        /// Tile instance.
        instance: usize,
        /// Tile-local feature.
        feature: usize,
    },
    /// On the corner at the north-west of board cell `(x, y)` (where four cells meet).
    Corner {
        /// Board column.
        x: i32,
        /// Board row.
        y: i32,
    },
}

/// A seat's line of the score table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatScore {
    /// Display name (`seat 0`, or `seat 0 (random)` when the agent is known).
    pub name: String,
    /// Score.
    pub score: u32,
    /// Points by what scored them (`roads`, `cities`, `cloisters`, `fields`, then `wonders` and
    /// `other` — a score change without a feature — only when they scored), in that order.
    pub by_kind: Vec<(String, u32)>,
    /// Whether the seat has the highest score (meaningful when the game is over).
    pub winner: bool,
}

/// Plural name of what a score event scored (the score table's columns).
pub fn score_column(kind: Option<FeatureKind>) -> &'static str {
    match kind {
        Some(FeatureKind::Road) => "roads",
        Some(FeatureKind::City) => "cities",
        Some(FeatureKind::Cloister) => "cloisters",
        Some(FeatureKind::Field) => "fields",
        Some(FeatureKind::Wonder) => "wonders",
        None => "other",
    }
}

/// Columns of the score table, in order (`abilities`: points scored by tile abilities, W-10..).
pub const SCORE_COLUMNS: [&str; 7] = [
    "roads",
    "cities",
    "cloisters",
    "fields",
    "abilities",
    "wonders",
    "other",
];

/// Points per seat and per [`SCORE_COLUMNS`] entry from a game's events: a score under the rule
/// of one of the ruleset's abilities goes to `abilities`, any other by the kind it scored.
pub fn points_by_kind(game: &Game) -> Vec<BTreeMap<&'static str, u32>> {
    let rs = game.rules().ruleset();
    let ability_rules: Vec<&str> = rs
        .tiles
        .iter()
        .flat_map(|t| t.abilities.iter().map(|a| a.rule.as_str()))
        .collect();
    let mut out = vec![BTreeMap::new(); game.players() as usize];
    for e in game.events() {
        if e.points() == 0 {
            continue;
        }
        let col = if e.rule().is_some_and(|r| ability_rules.contains(&r)) {
            "abilities"
        } else {
            score_column(e.feature().map(|f| f.kind))
        };
        for p in e.players() {
            if let Some(m) = out.get_mut(p as usize) {
                points::add(m.entry(col).or_insert(0), e.points());
            }
        }
    }
    out
}

impl BoardView {
    /// The board of `game` as it stands now. `drawings` are the compiled tiles of the game's
    /// variant, in ruleset order (`tegula_model::variant::compile_variant`); `seat_names` names the
    /// seats (missing names become `seat N`).
    pub fn from_game(game: &Game, drawings: &[CompiledTile], seat_names: &[String]) -> BoardView {
        let rules = game.rules();
        let ruleset = rules.ruleset();
        // Turn of each placed tile instance: the start tile is 0, then the place events in order.
        let mut turns = vec![0u32];
        turns.extend(game.events().iter().filter_map(|e| match e {
            Event::Place { turn, .. } => Some(*turn),
            _ => None,
        }));
        let placed = game.tiles();
        let mut tiles = Vec::with_capacity(placed.len());
        for (i, p) in placed.iter().enumerate() {
            let Some(compiled) = drawings.get(p.tile as usize) else {
                continue;
            };
            let view = TileView::from_compiled(compiled, p.rotation);
            let anchor = view.cells.first().map_or((0, 0), |c| (c.x, c.y));
            tiles.push(BoardTile {
                view,
                tile: p.tile,
                rotation: p.rotation,
                x: p.x - anchor.0,
                y: p.y - anchor.1,
                turn: turns.get(i).copied().unwrap_or(i as u32),
            });
        }
        // Figures on features of placed tiles, corner figures on their points (AM-6), and the
        // markers on the buildings of placed pool tiles (W-5).
        let mut figures: Vec<Figure> = game
            .followers()
            .iter()
            .map(|f| Figure {
                seat: f.player,
                follower: f.follower as usize,
                at: match f.corner {
                    Some([x, y]) => FigureAt::Corner { x, y },
                    None => FigureAt::Segment {
                        instance: f.instance as usize,
                        feature: f.feature as usize,
                    },
                },
            })
            .collect();
        if let Some(pool) = &ruleset.pool {
            for (owner, tile, instance) in game.pool_owned() {
                let feats = ruleset.tiles.get(tile as usize).map(|t| &t.features);
                let building = feats.and_then(|fs| {
                    fs.iter()
                        .position(|f| f.kind == tegula_ruleset::FeatureKind::Wonder)
                });
                figures.extend(building.map(|feature| Figure {
                    seat: owner,
                    follower: pool.gain_follower as usize,
                    at: FigureAt::Segment {
                        instance: instance as usize,
                        feature,
                    },
                }));
            }
        }
        figures.sort();
        let done = game.completed_features();
        let mut completed = Vec::new();
        for (i, p) in placed.iter().enumerate() {
            let Some(tt) = ruleset.tiles.get(p.tile as usize) else {
                continue;
            };
            for (f, feat) in tt.features.iter().enumerate() {
                let Some(seg) = feat.segments.first() else {
                    continue;
                };
                if game
                    .feature_id(p.x, p.y, seg)
                    .is_some_and(|id| done.contains(&id))
                {
                    completed.push((i, f));
                }
            }
        }
        let points = points_by_kind(game);
        let over = game.phase() == Phase::Over;
        let winners = game.winners();
        let seats = (0..game.players())
            .map(|p| SeatScore {
                name: seat_names
                    .get(p as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("seat {p}")),
                score: game.scores()[p as usize],
                by_kind: SCORE_COLUMNS
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| {
                        let v = points[p as usize].get(c).copied();
                        // The four base kinds always, later ones when they scored.
                        (i < 4 || v.is_some()).then(|| (c.to_string(), v.unwrap_or(0)))
                    })
                    .collect(),
                winner: winners.contains(&p),
            })
            .collect();
        BoardView {
            variant: ruleset.id.clone(),
            turn: tiles.last().map_or(0, |t| t.turn),
            over,
            last: (tiles.len() > 1).then(|| tiles.len() - 1),
            tiles,
            figure_types: ruleset.followers.clone(),
            figures,
            completed,
            seats,
        }
    }

    /// Board bounds in cells: (min x, min y, max x, max y), inclusive.
    pub fn bounds(&self) -> (i32, i32, i32, i32) {
        let mut b = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for t in &self.tiles {
            for c in &t.view.cells {
                let (x, y) = (t.x + c.x, t.y + c.y);
                b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
            }
        }
        if self.tiles.is_empty() {
            (0, 0, 0, 0)
        } else {
            b
        }
    }

    /// Whether feature `feature` of tile `instance` is complete.
    pub fn is_completed(&self, instance: usize, feature: usize) -> bool {
        self.completed.contains(&(instance, feature))
    }
}

/// The board after every turn of a finished (or running) `game`, from turn 0 (the start tile)
/// to the last: the game's decisions are played again on a fresh game with the same pile.
/// Fails when the events hold a decision this viewer cannot replay.
pub fn timeline(
    game: &Game,
    drawings: &[CompiledTile],
    seat_names: &[String],
) -> Result<Vec<BoardView>, String> {
    let rules = game.rules().clone();
    let mut g = Game::new(
        rules.clone(),
        game.players(),
        PileOrder::Scripted(game.pile().to_vec()),
        true,
    )
    .map_err(|e| e.to_string())?;
    let mut out = vec![BoardView::from_game(&g, drawings, seat_names)];
    for e in game.events().iter().filter(|e| e.is_decision()) {
        let action = tegula_engine::log::decision_action(&g, e)?;
        g.apply(action).map_err(|e| e.to_string())?;
        if g.phase() != Phase::Follower {
            let view = BoardView::from_game(&g, drawings, seat_names);
            // One position per turn: a later position of the same turn replaces the earlier.
            if out.last().is_some_and(|v| v.turn == view.turn) && view.turn > 0 {
                out.pop();
            }
            out.push(view);
        }
    }
    Ok(out)
}

/// The score table as text: one line per seat (`seat 0 (random)  27  roads 5, cities 12, ...`),
/// the winners marked with `*` when the game is over.
pub fn score_table(b: &BoardView) -> String {
    let width = b
        .seats
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for s in &b.seats {
        let parts: Vec<String> = s.by_kind.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let mark = if b.over && s.winner { "*" } else { " " };
        let detail = if parts.is_empty() {
            String::new()
        } else {
            format!("  ({})", parts.join(", "))
        };
        out.push_str(&format!(
            "{mark} {:<width$}  {:>3}{detail}\n",
            s.name, s.score
        ));
    }
    out
}
