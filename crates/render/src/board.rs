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
    /// Counters lying on placed tiles (GM-2's ingots, LB-2's buildings), by kind and then in
    /// placement order; then the stacks (TO-2), each a badge of its height (kind: the ruleset's
    /// counters, then the stack type).
    pub counters: Vec<TileCounters>,
    /// Whether the variant declares single-holder tokens (KR-2) or stacks (TO-2): the score
    /// tables then keep their tally column from the first turn on, held or not.
    pub has_tokens: bool,
    /// The neutral figures standing on the board (`[[neutral]]`), in the ruleset's order.
    pub neutrals: Vec<NeutralOnBoard>,
}

/// A neutral figure on the board, drawn with its data's letters and colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NeutralOnBoard {
    /// Neutral figure index (into the ruleset's neutrals).
    pub index: usize,
    /// Board column of its cell.
    pub x: i32,
    /// Board row of its cell.
    pub y: i32,
    /// Display name.
    pub name: String,
    /// Letters drawn.
    pub symbol: String,
    /// Fill colour (`#rrggbb`).
    pub colour: String,
}

/// The neutral figures of `game` on the board.
fn board_neutrals(game: &Game) -> Vec<NeutralOnBoard> {
    let rs = game.rules().ruleset();
    let on = rs.neutrals.iter().enumerate();
    on.filter_map(|(index, n)| {
        let (x, y) = game.neutral_at(index)?;
        Some(NeutralOnBoard {
            index,
            x,
            y,
            name: n.name.clone(),
            symbol: n.symbol.clone(),
            colour: n.colour.clone(),
        })
    })
    .collect()
}

/// The counters of one kind on one placed tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileCounters {
    /// Board column of the tile's anchor cell.
    pub x: i32,
    /// Board row of the tile's anchor cell.
    pub y: i32,
    /// Counter kind (index into the ruleset's counters).
    pub kind: usize,
    /// The kind's display name (`gold ingot`).
    pub name: String,
    /// How many lie there.
    pub count: u32,
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

/// The placed tiles of `game` drawn (taking those of `earlier` that are the same placements).
fn board_tiles(game: &Game, drawings: &[CompiledTile], earlier: Vec<BoardTile>) -> Vec<BoardTile> {
    let turns = placement_turns(game);
    let placed = game.tiles();
    let mut tiles = Vec::with_capacity(placed.len());
    let mut earlier = earlier.into_iter().peekable();
    for (i, p) in placed.iter().enumerate() {
        let turn = turns.get(i).copied().unwrap_or(i as u32);
        if let Some(t) = earlier.next_if(|t| t.is_placement(p, turn)) {
            tiles.push(t);
            continue;
        }
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
            turn,
        });
    }
    tiles
}

/// Figures on features of placed tiles, corner figures on their points (AM-6), and the markers
/// on the buildings of placed pool tiles (W-5), sorted.
fn board_figures(game: &Game) -> Vec<Figure> {
    let ruleset = game.rules().ruleset();
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
                    .position(|f| f.kind == tegula_ruleset::FeatureKind::Unscored)
            });
            figures.extend(building.map(|feature| Figure {
                seat: owner,
                follower: pool.claim_figure as usize,
                at: FigureAt::Segment {
                    instance: instance as usize,
                    feature,
                },
            }));
        }
    }
    figures.sort();
    figures
}

/// The (tile, feature) pieces of `game`'s placed tiles whose features are complete.
fn completed_pieces(game: &Game) -> Vec<(usize, usize)> {
    let ruleset = game.rules().ruleset();
    let placed = game.tiles();
    // Sorted, for a quick lookup (a long game has thousands of completed features).
    let mut done = game.completed_features();
    done.sort_unstable();
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
                .is_some_and(|id| done.binary_search(&id).is_ok())
            {
                completed.push((i, f));
            }
        }
    }
    completed
}

/// Each seat's name, score, points by kind, resources and tokens.
fn seat_scores(game: &Game, seat_names: &[String]) -> Vec<SeatScore> {
    let ruleset = game.rules().ruleset();
    let points = points_by_kind(game);
    let winners = game.winners();
    (0..game.players())
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
            resources: (ruleset.resources.iter().enumerate())
                .map(|(r, res)| (res.name.clone(), game.holding(p, r)))
                .collect(),
            tokens: (ruleset.tokens.iter().enumerate())
                .filter(|(i, _)| game.token_holder(*i) == Some(p))
                .map(|(i, tok)| (tok.name.clone(), game.token_record(i)))
                .collect(),
            held: held_by(game, p),
        })
        .collect()
}

/// The figures seat `p` holds of other seats (TO-4), as "seat 1's Meeple", in the order taken.
fn held_by(game: &Game, p: u8) -> Vec<String> {
    let ruleset = game.rules().ruleset();
    let held = game.held_figures().into_iter().filter(|h| h.0 == p);
    let name = |f: u8| {
        ruleset
            .followers
            .get(usize::from(f))
            .map(|t| t.name.clone())
    };
    held.map(|(_, owner, f)| format!("seat {owner}'s {}", name(f).unwrap_or_default()))
        .collect()
}

/// The stacks on placed tiles (TO-2), drawn as counters: their height, named with the figure
/// on top; their kinds follow the ruleset's counters.
fn stack_badges(game: &Game) -> Vec<TileCounters> {
    let ruleset = game.rules().ruleset();
    let each = game.stacks().into_iter().map(|s| {
        let kind = ruleset.stacks.get(usize::from(s.kind));
        let mut name = kind.map_or_else(|| "stack".to_string(), |k| k.name.clone());
        if let Some((owner, f)) = s.top {
            let figure = ruleset
                .followers
                .get(usize::from(f))
                .map(|t| t.name.as_str());
            name = format!("{name} (on top: seat {owner}'s {})", figure.unwrap_or(""));
        } else if s.closed {
            name = format!("{name} (closed)");
        }
        TileCounters {
            x: s.x,
            y: s.y,
            kind: ruleset.counters.len() + usize::from(s.kind),
            name,
            count: u32::from(s.height),
        }
    });
    each.collect()
}

/// The counters lying on placed tiles, with their kinds' names.
fn tile_counters(game: &Game) -> Vec<TileCounters> {
    let ruleset = game.rules().ruleset();
    (game.tile_counters().into_iter())
        .map(|(kind, x, y, count)| TileCounters {
            x,
            y,
            kind,
            name: ruleset
                .counters
                .get(kind)
                .map_or_else(|| format!("counter {kind}"), |c| c.name.clone()),
            count,
        })
        .collect()
}

/// Turn of each placed tile instance: the start tile is 0, then the place events in order.
fn placement_turns(game: &Game) -> Vec<u32> {
    let mut turns = vec![0u32];
    turns.extend(game.events().iter().filter_map(|e| match e {
        Event::Place { turn, .. } => Some(*turn),
        _ => None,
    }));
    turns
}

/// The [`BoardView::turn`] of `game`'s position: the turn of the last placed tile that has a
/// drawing (0 when none has).
fn view_turn(game: &Game, drawings: &[CompiledTile]) -> u32 {
    let turns = placement_turns(game);
    let placed = game.tiles();
    let last = placed
        .iter()
        .rposition(|p| drawings.get(p.tile as usize).is_some());
    last.map_or(0, |i| turns.get(i).copied().unwrap_or(i as u32))
}

impl BoardTile {
    /// Whether this is the drawing of placement `p` made at `turn`.
    fn is_placement(&self, p: &tegula_engine::PlacedTile, turn: u32) -> bool {
        let anchor = self.view.cells.first().map_or((0, 0), |c| (c.x, c.y));
        (self.tile, self.rotation, self.turn) == (p.tile, p.rotation, turn)
            && (self.x + anchor.0, self.y + anchor.1) == (p.x, p.y)
    }
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

/// The letters that tell figure types apart on a board, by type index: the initial of each
/// type's name, upper case, followed by as many more letters of the name as it takes to
/// differ from every other type's (`Meeple`, `Mayor` → `Me`, `Ma`; `Meeple`, `Large meeple` →
/// `M`, `L`). Taken from the names in the data: no figure is known by name here.
pub fn figure_symbols(types: &[FollowerType]) -> Vec<String> {
    let letters: Vec<Vec<char>> = types
        .iter()
        .map(|t| t.name.chars().filter(|c| c.is_alphanumeric()).collect())
        .collect();
    let symbol = |l: &[char], k: usize| -> String {
        let mut it = l.iter().take(k);
        let mut s: String = it
            .next()
            .map(|c| c.to_uppercase().collect())
            .unwrap_or_default();
        s.extend(it.flat_map(|c| c.to_lowercase()));
        s
    };
    (0..types.len())
        .map(|i| {
            let mine = &letters[i];
            let k = (1..=mine.len().max(1))
                .find(|&k| {
                    letters
                        .iter()
                        .enumerate()
                        .all(|(j, other)| j == i || symbol(other, k) != symbol(mine, k))
                })
                .unwrap_or(mine.len().max(1));
            symbol(mine, k)
        })
        .collect()
}

/// A seat's line of the score table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatScore {
    /// Display name (`seat 0`, or `seat 0 (random)` when the agent is known).
    pub name: String,
    /// Score.
    pub score: i64,
    /// Points by what scored them (`roads`, `cities`, `cloisters`, `fields`, then `wonders` and
    /// `other` — a score change without a feature — only when they scored), in that order.
    pub by_kind: Vec<(String, u32)>,
    /// Whether the seat has the highest score (meaningful when the game is over).
    pub winner: bool,
    /// The seat's resources (docs/FORMAT.md, "Seat resources"): `(resource name, holding)` in
    /// the variant's order; empty when the variant declares none.
    pub resources: Vec<(String, u32)>,
    /// The single-holder tokens the seat holds (KR-2's King): `(token name, record)` in the
    /// variant's order.
    pub tokens: Vec<(String, u32)>,
    /// The figures of other seats the seat holds (TO-4), "seat 1's Meeple", in the order taken.
    pub held: Vec<String>,
}

impl SeatScore {
    /// The seat's points in score column `column` (0 when it has none there).
    pub fn points_in(&self, column: &str) -> u32 {
        self.by_kind
            .iter()
            .find(|(k, _)| k == column)
            .map_or(0, |(_, v)| *v)
    }

    /// The seat's resources and tokens as a short tally, "Wine 2, Grain 0, holds King (3)"
    /// (empty with neither).
    pub fn tally(&self) -> String {
        let parts: Vec<String> = (self.resources.iter())
            .map(|(name, n)| format!("{name} {n}"))
            .chain((self.tokens.iter()).map(|(name, record)| format!("holds {name} ({record})")))
            .chain((self.held.iter()).map(|h| format!("holds {h}")))
            .collect();
        parts.join(", ")
    }
}

/// Plural name of what a score event scored (the score table's columns).
pub fn score_column(kind: Option<FeatureKind>) -> &'static str {
    match kind {
        Some(FeatureKind::Road) => "roads",
        Some(FeatureKind::City) => "cities",
        Some(FeatureKind::Cloister) => "cloisters",
        Some(FeatureKind::Field) => "fields",
        Some(FeatureKind::Unscored) => "wonders",
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
/// of a rule a tile carries (an ability, lowered) goes to `abilities`, any other by the kind it
/// scored.
pub fn points_by_kind(game: &Game) -> Vec<BTreeMap<&'static str, u32>> {
    let rs = game.rules().ruleset();
    let ability_rules: Vec<&str> = rs
        .when
        .iter()
        .filter(|w| w.tile.is_some())
        .map(|w| w.rule.as_str())
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
        Self::from_game_reusing(game, drawings, seat_names, Vec::new())
    }

    /// [`BoardView::from_game`], taking the placed tiles that are the same in `earlier` (the
    /// tiles of an earlier position of the same game) instead of drawing them again.
    fn from_game_reusing(
        game: &Game,
        drawings: &[CompiledTile],
        seat_names: &[String],
        earlier: Vec<BoardTile>,
    ) -> BoardView {
        let ruleset = game.rules().ruleset();
        let tiles = board_tiles(game, drawings, earlier);
        BoardView {
            variant: ruleset.id.clone(),
            turn: tiles.last().map_or(0, |t| t.turn),
            over: game.phase() == Phase::Over,
            last: (tiles.len() > 1).then(|| tiles.len() - 1),
            tiles,
            figure_types: ruleset.followers.clone(),
            figures: board_figures(game),
            completed: completed_pieces(game),
            seats: seat_scores(game, seat_names),
            counters: [tile_counters(game), stack_badges(game)].concat(),
            has_tokens: !ruleset.tokens.is_empty() || !ruleset.stacks.is_empty(),
            neutrals: board_neutrals(game),
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

    /// The columns of [`SCORE_COLUMNS`] some seat has, in that order: the columns of a score
    /// table of this position (and, for the final position, of every earlier one: scores only
    /// grow).
    pub fn used_columns(&self) -> Vec<&'static str> {
        SCORE_COLUMNS
            .iter()
            .copied()
            .filter(|c| {
                self.seats
                    .iter()
                    .any(|s| s.by_kind.iter().any(|(k, _)| k == c))
            })
            .collect()
    }

    /// Whether the variant has seat resources or tokens (the score tables then show a tally
    /// column, at every turn alike).
    pub fn has_resources(&self) -> bool {
        self.has_tokens || self.seats.iter().any(|s| !s.resources.is_empty())
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
    let mut out = Vec::new();
    timeline_each(game, drawings, seat_names, |v| {
        out.push(v.clone());
        Ok(())
    })?;
    Ok(out)
}

/// The positions of [`timeline`], one at a time and in bounded memory: `each` receives every
/// turn's final position, in order (the tiles of one position are reused for the next).
/// Fails when the events hold a decision this viewer cannot replay, or with `each`'s error.
pub fn timeline_each(
    game: &Game,
    drawings: &[CompiledTile],
    seat_names: &[String],
    mut each: impl FnMut(&BoardView) -> Result<(), String>,
) -> Result<(), String> {
    let mut g = Game::new(
        game.rules().clone(),
        game.players(),
        PileOrder::Scripted(game.setup_pile().to_vec()),
        true,
    )
    .map_err(|e| e.to_string())?;
    // The position waiting to be shown: a later position of the same turn replaces it.
    let mut pending = BoardView::from_game(&g, drawings, seat_names);
    for e in game.events().iter().filter(|e| e.is_decision()) {
        let action = tegula_engine::log::decision_action(&g, e)?;
        g.apply(action).map_err(|e| e.to_string())?;
        if g.phase() != Phase::Follower {
            let same_turn = pending.turn == view_turn(&g, drawings) && pending.turn > 0;
            if !same_turn {
                each(&pending)?;
            }
            let tiles = std::mem::take(&mut pending.tiles);
            pending = BoardView::from_game_reusing(&g, drawings, seat_names, tiles);
        }
    }
    each(&pending)
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
        let tally = match s.tally() {
            t if t.is_empty() => String::new(),
            t => format!("  [{t}]"),
        };
        out.push_str(&format!(
            "{mark} {:<width$}  {:>3}{detail}{tally}\n",
            s.name, s.score
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::figure_symbols;
    use tegula_ruleset::FollowerType;

    fn types(names: &[&str]) -> Vec<FollowerType> {
        names
            .iter()
            .map(|n| FollowerType::standard(&n.to_lowercase(), n, 1, 1))
            .collect()
    }

    #[test]
    fn figure_symbols_are_the_shortest_distinct_starts_of_the_names() {
        let s = figure_symbols(&types(&["Meeple", "Mayor", "Barn", "Wagon"]));
        assert_eq!(s, ["Me", "Ma", "B", "W"]);
        let s = figure_symbols(&types(&["Meeple", "Large meeple"]));
        assert_eq!(s, ["M", "L"]);
        // A name that starts another keeps all its letters; the other gets one more.
        let s = figure_symbols(&types(&["Pig", "Pigherd"]));
        assert_eq!(s, ["Pig", "Pigh"]);
        // Same names cannot differ: each shows the whole name, nothing panics.
        let s = figure_symbols(&types(&["Ghost", "Ghost", ""]));
        assert_eq!(s, ["Ghost", "Ghost", ""]);
        // Letters beyond ASCII keep their case rules.
        let s = figure_symbols(&types(&["éclaireur", "Ours"]));
        assert_eq!(s, ["É", "O"]);
    }
}
