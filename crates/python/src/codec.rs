//! The integer encoding of actions (OpenSpiel wants every action as an int in
//! `0..num_distinct_actions`), laid out on the observation's board window so that a network's
//! policy head lines up with its input planes (as OpenSpiel's chess ids line up with its 8 × 8
//! planes).
//!
//! An id means a move *relative to the state*: board cells are cells of the observation window
//! (radius `r`, side `W = 2r + 1`, centred where [`crate::observe`] centres it), and a placed
//! tile is named by its *slot* among the tile types the player may place now (slot 0 the drawn
//! tile, then the other types in ascending index: a kept tile, an own tile). For a variant with
//! `K` pool tiles, `S` seats at most, `F` follower types, at most `N` features on one tile and
//! `H` tile slots, the ids are laid out in blocks:
//!
//! | block | ids | meaning |
//! |---|---|---|
//! | pass | `0` | [`Action::Pass`] |
//! | take | `1 + k` | [`Action::Take`] of the `k`-th pool tile (only with a pool) |
//! | seat | `SEAT + s` | [`Action::Seat`] `s` (only with a pool) |
//! | follower | `FOLLOWER + feature * F + follower` | [`Action::Follower`] on the tile just placed |
//! | move | `MOVE + near * N + feature` | [`Action::Move`] (only if a figure moves, AM-11) |
//! | place | `PLACE + (slot * W * W + cell) * 4 + rotation` | [`Action::Place`] of the anchor |
//! | choice | `CHOICE + block(rule) + option` | [`Action::Choose`] (only with offers) |
//!
//! The choice block has one part per rule with an offer, in the variant's rule order: a figure
//! option (`own-figure`, `figure-in`) is `cell * N + feature` (the figure's tile anchor in the
//! window), a site anywhere (`any-feature`, PD-11) `(cell * N + feature) * F + follower`, a
//! neighbour tile `cell` (the cell the option names), a kind `k` (its place in the offer's
//! list), a stack site `cell` (its tile's anchor), a stack top `cell * F + follower`, a figure
//! in a stack's reach `cell * (N + 1) + feature` (`feature = N`: the figure on top of a stack
//! there), a held figure `holder * F + follower`. Variants without offers have no choice block,
//! so their ids and `num_distinct_actions` are unchanged.
//!
//! where `cell = i * W + j` is window row `i`, column `j` (board `(cx - r + j, cy - r + i)`) and
//! each block starts right after the previous one. A move target is a feature of a tile near
//! the freed figure's tile: `near` is the target tile's cell in the `(2m + 1)²` square centred
//! on the figure's tile, `m = 2e + 1` for tiles reaching `e` cells from their anchor (AM-11's
//! 8-neighbourhood reading: every target feature has a tile there); with the older reading
//! (features the scored one touches, anywhere) `near` is a window cell as for placements. A placement or move whose cell lies outside
//! the window has no id (random play of the shipped variants stays well inside the default
//! window; [`Codec::encode`] says `None`). Chance outcomes (draws) are tile type indices in
//! OpenSpiel's separate chance-action space.

use std::collections::BTreeSet;

use tegula_engine::{
    Action, ChoiceOption, FollowerOption, Game, MoveTarget, Phase, Placement, Rules,
};
use tegula_ruleset::{Act, Adjacency, AfterScore, Options, Ruleset};

/// The sizes of one variant's encoding (the window radius is the game's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Codec {
    pool: Vec<u16>,
    seats: i64,
    /// The most seats of the variant (a held figure's holder).
    max_seats: i64,
    followers: i64,
    features: i64,
    moves: Moves,
    hand: u8,
    slots: i64,
    reach: i64,
    /// The rules with an offer, in rule order: the rule's index and its options' shape.
    offers: Vec<(u16, Shape)>,
}

/// The shape of an offer's options in the choice block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A figure: window cell × feature.
    Figure,
    /// A tile: window cell.
    Tile,
    /// A kind: this many.
    Kind(i64),
    /// A site for a figure anywhere (PD-11): window cell × feature × figure type.
    Site,
    /// A stack's tile with a figure type on top: window cell × figure type.
    Top,
    /// A figure in reach: window cell × (feature, or one more for the figure on a stack).
    Reach,
    /// A held figure: holder seat × figure type.
    Captive,
    /// A step of a walk: north, east, south, west of the walking figure.
    Step,
}

/// The four steps of a walk, in their ids' order.
const STEPS: [(i64, i64); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// Where a freed figure's move targets lie (AM-11), so how many cells the move block spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Moves {
    /// No figure moves after scoring: no move block.
    None,
    /// Within this many cells (Chebyshev) of the figure's tile anchor.
    Near(i64),
    /// Anywhere: window cells.
    Window,
}

/// Largest coordinate the engine's board can hold (its side is at most 1023 cells).
const MAX_RADIUS: i64 = 511;

/// What an id's cells and slots refer to in one state: the window and the placeable tiles.
pub struct Frame {
    centre: (i64, i64),
    radius: i64,
    tiles: Vec<u16>,
    /// The anchor of the tile a figure waiting to move stood on ((0, 0) when none waits).
    origin: (i64, i64),
    /// The options [`Action::Choose`] numbers now, with their rules.
    choices: Vec<(u16, ChoiceOption)>,
    /// The cell of the figure whose walk waits for a step.
    walker: Option<(i64, i64)>,
}

impl Frame {
    /// The frame of `game` for a window of `radius`.
    pub fn new(game: &Game, radius: u16) -> Frame {
        let (cx, cy) = crate::observe::centre(game);
        let waiting = game.waiting_figures();
        let tile = waiting
            .first()
            .and_then(|w| game.tiles().get(usize::from(w.2)).copied());
        Frame {
            centre: (i64::from(cx), i64::from(cy)),
            radius: i64::from(radius),
            tiles: slot_tiles(game),
            origin: tile.map_or((0, 0), |t| (i64::from(t.x), i64::from(t.y))),
            choices: game.choice_options(),
            walker: game
                .walking_from()
                .map(|(x, y)| (i64::from(x), i64::from(y))),
        }
    }

    fn width(&self) -> i64 {
        2 * self.radius + 1
    }

    /// A board cell's index in the window, if inside.
    fn cell(&self, x: i32, y: i32) -> Option<i64> {
        grid_cell(self.centre, self.radius, x, y)
    }

    /// The board cell of a window index.
    fn xy(&self, cell: i64) -> (i32, i32) {
        grid_xy(self.centre, self.radius, cell)
    }
}

/// A board cell's index in the square of `radius` around `centre`, row-major, if inside.
fn grid_cell(centre: (i64, i64), radius: i64, x: i32, y: i32) -> Option<i64> {
    let j = i64::from(x) - centre.0 + radius;
    let i = i64::from(y) - centre.1 + radius;
    let w = 2 * radius + 1;
    ((0..w).contains(&i) && (0..w).contains(&j)).then_some(i * w + j)
}

/// The board cell of an index of [`grid_cell`].
fn grid_xy(centre: (i64, i64), radius: i64, cell: i64) -> (i32, i32) {
    let w = 2 * radius + 1;
    let x = cell % w - radius + centre.0;
    let y = cell / w - radius + centre.1;
    (x as i32, y as i32)
}

/// The tile types the player to act may place now, in slot order: the drawn tile first (in
/// [`Phase::Place`]), then the others in ascending index.
fn slot_tiles(game: &Game) -> Vec<u16> {
    let mut others: BTreeSet<u16> = game.placements().iter().map(|p| p.tile).collect();
    let mut tiles = Vec::with_capacity(others.len());
    if game.phase() == Phase::Place && others.remove(&game.current_tile()) {
        tiles.push(game.current_tile());
    }
    tiles.extend(others);
    tiles
}

impl Codec {
    /// The encoding of a variant: the same for every player count it allows.
    pub fn new(rules: &Rules) -> Codec {
        let rs = rules.ruleset();
        let hand = largest_hand(rs);
        Codec {
            pool: rs.pool.as_ref().map_or_else(Vec::new, |p| p.tiles.clone()),
            seats: if rs.pool.is_some() {
                i64::from(rs.max_players.max(1))
            } else {
                0
            },
            max_seats: i64::from(rs.max_players.max(1)),
            followers: rs.followers.len().max(1) as i64,
            features: rs.tiles.iter().map(|t| t.features.len()).max().unwrap_or(1) as i64,
            moves: moves(rules),
            hand,
            slots: i64::from(hand).max(rs.player_tiles.len() as i64),
            reach: reach(rules),
            offers: offer_shapes(rs),
        }
    }

    /// Whether every seat sees everything: no seat ever holds more than one tile (its hand
    /// size, raised by no ability); own tiles (AM-1) are public counts.
    pub fn perfect_information(&self) -> bool {
        self.hand == 1
    }

    /// The variant's board reach: no anchor of a game lies farther than this from the start.
    pub fn reach(&self) -> i64 {
        self.reach
    }

    fn seat_base(&self) -> i64 {
        1 + self.pool.len() as i64
    }

    fn follower_base(&self) -> i64 {
        self.seat_base() + self.seats
    }

    fn move_base(&self) -> i64 {
        self.follower_base() + self.features * self.followers
    }

    /// Cells of the move block, for a window of `cells` cells.
    fn move_cells(&self, cells: i64) -> i64 {
        match self.moves {
            Moves::None => 0,
            Moves::Near(m) => (2 * m + 1) * (2 * m + 1),
            Moves::Window => cells,
        }
    }

    fn move_ids(&self, cells: i64) -> i64 {
        self.move_cells(cells) * self.features
    }

    /// The move block's cell of a target tile's anchor, if inside.
    fn move_cell(&self, frame: &Frame, x: i32, y: i32) -> Option<i64> {
        match self.moves {
            Moves::None => None,
            Moves::Near(m) => grid_cell(frame.origin, m, x, y),
            Moves::Window => frame.cell(x, y),
        }
    }

    /// The board cell of a move block cell.
    fn move_xy(&self, frame: &Frame, cell: i64) -> (i32, i32) {
        match self.moves {
            Moves::Near(m) => grid_xy(frame.origin, m, cell),
            _ => frame.xy(cell),
        }
    }

    fn place_base(&self, cells: i64) -> i64 {
        self.move_base() + self.move_ids(cells)
    }

    fn choice_base(&self, cells: i64) -> i64 {
        self.place_base(cells) + self.slots * cells * 4
    }

    /// Ids of the choice part of the offer of shape `shape`.
    fn shape_ids(&self, shape: Shape, cells: i64) -> i64 {
        match shape {
            Shape::Figure => cells * self.features,
            Shape::Tile => cells,
            Shape::Kind(k) => k,
            Shape::Site => cells * self.features * self.followers,
            Shape::Top => cells * self.followers,
            Shape::Reach => cells * (self.features + 1),
            Shape::Captive => self.max_seats * self.followers,
            Shape::Step => 4,
        }
    }

    /// Where rule `rule`'s part of the choice block starts, and its shape.
    fn offer_part(&self, rule: u16, cells: i64) -> Option<(i64, Shape)> {
        let mut at = self.choice_base(cells);
        for &(r, shape) in &self.offers {
            if r == rule {
                return Some((at, shape));
            }
            at += self.shape_ids(shape, cells);
        }
        None
    }

    /// Number of distinct action ids (OpenSpiel's `num_distinct_actions`) for a window of
    /// `radius`.
    pub fn num_actions(&self, radius: u16) -> i64 {
        let w = 2 * i64::from(radius) + 1;
        let offers = self.offers.iter().map(|&(_, s)| self.shape_ids(s, w * w));
        self.choice_base(w * w) + offers.sum::<i64>()
    }

    /// The id of option `n` of the choices in `frame`.
    fn encode_choice(&self, frame: &Frame, n: u16) -> Option<i64> {
        let cells = frame.width() * frame.width();
        let &(rule, option) = frame.choices.get(usize::from(n))?;
        let (base, shape) = self.offer_part(rule, cells)?;
        let local = match (shape, option) {
            (Shape::Figure, ChoiceOption::Figure { x, y, feature, .. }) => {
                let f = i64::from(feature);
                frame.cell(x, y).filter(|_| f < self.features)? * self.features + f
            }
            (Shape::Tile, ChoiceOption::Tile { x, y }) => frame.cell(x, y)?,
            (Shape::Kind(k), ChoiceOption::Kind { index, .. }) => {
                Some(i64::from(index)).filter(|&i| i < k)?
            }
            (
                Shape::Site,
                ChoiceOption::Figure {
                    x,
                    y,
                    feature,
                    follower,
                },
            ) => {
                let (f, k) = (i64::from(feature), i64::from(follower));
                let fits = f < self.features && k < self.followers;
                let cell = frame.cell(x, y).filter(|_| fits)?;
                (cell * self.features + f) * self.followers + k
            }
            (Shape::Top, ChoiceOption::Top { x, y, follower, .. }) => {
                let f = i64::from(follower);
                frame.cell(x, y).filter(|_| f < self.followers)? * self.followers + f
            }
            (Shape::Reach, ChoiceOption::Figure { x, y, feature, .. }) => {
                let f = i64::from(feature);
                frame.cell(x, y).filter(|_| f < self.features)? * (self.features + 1) + f
            }
            (Shape::Reach, ChoiceOption::Top { x, y, .. }) => {
                frame.cell(x, y)? * (self.features + 1) + self.features
            }
            (Shape::Captive, ChoiceOption::Captive { holder, follower }) => {
                let f = i64::from(follower);
                Some(i64::from(holder)).filter(|_| f < self.followers)? * self.followers + f
            }
            (Shape::Step, ChoiceOption::Tile { x, y }) => {
                let (wx, wy) = frame.walker?;
                let d = (i64::from(x) - wx, i64::from(y) - wy);
                STEPS.iter().position(|&s| s == d)? as i64
            }
            _ => return None,
        };
        Some(base + local)
    }

    /// The [`Action::Choose`] of a choice-block id, if the state offers that option.
    fn decode_choice(&self, frame: &Frame, id: i64) -> Option<Action> {
        let cells = frame.width() * frame.width();
        let n = frame.choices.iter().position(|&(rule, option)| {
            let Some((base, shape)) = self.offer_part(rule, cells) else {
                return false;
            };
            let size = self.shape_ids(shape, cells);
            (base..base + size).contains(&id) && self.names(frame, id - base, shape, option)
        })?;
        Some(Action::Choose(u16::try_from(n).ok()?))
    }

    /// Whether the id `local` within an offer's part names `option`.
    fn names(&self, frame: &Frame, local: i64, shape: Shape, option: ChoiceOption) -> bool {
        match (shape, option) {
            (Shape::Figure, ChoiceOption::Figure { x, y, feature, .. }) => {
                frame.xy(local / self.features) == (x, y)
                    && local % self.features == i64::from(feature)
            }
            (Shape::Tile, ChoiceOption::Tile { x, y }) => frame.xy(local) == (x, y),
            (Shape::Kind(_), ChoiceOption::Kind { index, .. }) => local == i64::from(index),
            (
                Shape::Site,
                ChoiceOption::Figure {
                    x,
                    y,
                    feature,
                    follower,
                },
            ) => {
                let per_cell = self.features * self.followers;
                frame.xy(local / per_cell) == (x, y)
                    && local % per_cell == i64::from(feature) * self.followers + i64::from(follower)
            }
            (Shape::Top, ChoiceOption::Top { x, y, follower, .. }) => {
                frame.xy(local / self.followers) == (x, y)
                    && local % self.followers == i64::from(follower)
            }
            (Shape::Reach, ChoiceOption::Figure { x, y, feature, .. }) => {
                frame.xy(local / (self.features + 1)) == (x, y)
                    && local % (self.features + 1) == i64::from(feature)
            }
            (Shape::Reach, ChoiceOption::Top { x, y, .. }) => {
                frame.xy(local / (self.features + 1)) == (x, y)
                    && local % (self.features + 1) == self.features
            }
            (Shape::Captive, ChoiceOption::Captive { holder, follower }) => {
                local == i64::from(holder) * self.followers + i64::from(follower)
            }
            (Shape::Step, ChoiceOption::Tile { x, y }) => {
                let (Some((wx, wy)), Some(&(dx, dy))) = (frame.walker, STEPS.get(local as usize))
                else {
                    return false;
                };
                (i64::from(x), i64::from(y)) == (wx + dx, wy + dy)
            }
            _ => false,
        }
    }

    /// The id of `action` in the state `frame` describes; `None` for an action outside the
    /// encoding (a cell outside the window, an index beyond the variant's).
    pub fn encode(&self, frame: &Frame, action: Action) -> Option<i64> {
        let cells = frame.width() * frame.width();
        match action {
            Action::Pass => Some(0),
            Action::Take(t) => {
                let k = self.pool.iter().position(|&p| p == t)?;
                Some(1 + k as i64)
            }
            Action::Seat(s) => (i64::from(s) < self.seats).then(|| self.seat_base() + i64::from(s)),
            Action::Follower(o) => {
                let (f, k) = (i64::from(o.feature), i64::from(o.follower));
                (f < self.features && k < self.followers)
                    .then(|| self.follower_base() + f * self.followers + k)
            }
            Action::Move(m) => {
                let f = i64::from(m.feature);
                let c = self
                    .move_cell(frame, m.x, m.y)
                    .filter(|_| f < self.features)?;
                Some(self.move_base() + c * self.features + f)
            }
            Action::Place(p) => {
                let slot = frame.tiles.iter().position(|&t| t == p.tile)? as i64;
                let c = frame.cell(p.x, p.y).filter(|_| p.rotation < 4)?;
                Some(self.place_base(cells) + (slot * cells + c) * 4 + i64::from(p.rotation))
            }
            Action::Choose(n) => self.encode_choice(frame, n),
            // Action kinds added to the engine later have no id until the codec learns them.
            _ => None,
        }
    }

    /// The action of `id` in the state `frame` describes; `None` for an id outside
    /// `0..num_actions` or naming a tile slot the state does not have.
    pub fn decode(&self, frame: &Frame, id: i64) -> Option<Action> {
        let cells = frame.width() * frame.width();
        let radius = u16::try_from(frame.radius).ok()?;
        if id < 0 || id >= self.num_actions(radius) {
            return None;
        }
        Some(if id == 0 {
            Action::Pass
        } else if id < self.seat_base() {
            Action::Take(self.pool[(id - 1) as usize])
        } else if id < self.follower_base() {
            Action::Seat((id - self.seat_base()) as u8)
        } else if id < self.move_base() {
            let i = id - self.follower_base();
            Action::Follower(FollowerOption {
                feature: (i / self.followers) as u8,
                follower: (i % self.followers) as u8,
            })
        } else if id < self.place_base(cells) {
            let i = id - self.move_base();
            let (x, y) = self.move_xy(frame, i / self.features);
            let feature = (i % self.features) as u8;
            Action::Move(MoveTarget { x, y, feature })
        } else if id >= self.choice_base(cells) {
            return self.decode_choice(frame, id);
        } else {
            let i = id - self.place_base(cells);
            let (x, y) = frame.xy((i / 4) % cells);
            Action::Place(Placement {
                tile: *frame.tiles.get((i / 4 / cells) as usize)?,
                x,
                y,
                rotation: (i % 4) as u8,
            })
        })
    }
}

/// The most tiles a seat of the variant can hold: its hand size, raised by any `draw` rule's
/// `hand` (W-12: Abu Simbel's ability is lowered to one). More than one means tiles hidden from
/// the other seats.
pub fn largest_hand(rs: &Ruleset) -> u8 {
    let acts = rs.when.iter().flat_map(|w| w.then.iter());
    let hand = acts.fold(rs.hand, |h, a| match a {
        Act::Hand { size, .. } => h.max(*size),
        _ => h,
    });
    hand.max(1)
}

/// The rules of the variant with an offer, in rule order, with the shape of their options.
fn offer_shapes(rs: &Ruleset) -> Vec<(u16, Shape)> {
    let offers = rs.when.iter().enumerate().filter_map(|(i, w)| {
        let walks = w.then.iter().any(|a| matches!(a, Act::Walk(_)));
        let shape = match w.offer.as_ref().map(|o| &o.options) {
            // With `tops` (PD-7's Reading) a figure on a stack top too: the in-reach shape, a
            // feature slot or the top slot per cell.
            Some(Options::OwnFigure { tops: true, .. }) => Shape::Reach,
            Some(Options::OwnFigure { .. } | Options::FigureIn { .. }) => Shape::Figure,
            Some(Options::AnyFeature { .. }) => Shape::Site,
            Some(Options::NeighbourTile { .. }) => Shape::Tile,
            Some(Options::Kind { of }) => Shape::Kind(of.len() as i64),
            // Taken with `Action::Take` (the pool's own ids), not chosen.
            Some(Options::PoolTile) => return None,
            Some(Options::StackSite { .. }) => Shape::Tile,
            Some(Options::StackTop { .. }) => Shape::Top,
            Some(Options::InReach { .. }) => Shape::Reach,
            Some(Options::OwnCaptive { .. } | Options::ExchangeBack) => Shape::Captive,
            None if walks => Shape::Step,
            None => return None,
        };
        Some((u16::try_from(i).ok()?, shape))
    });
    offers.collect()
}

/// Where the variant's freed figures may move: near their tile (the 8-neighbourhood of its
/// cells, so a target tile's anchor within `2e + 1` of the figure's for tiles reaching `e`
/// cells), or anywhere (the older reading).
fn moves(rules: &Rules) -> Moves {
    let rs = rules.ruleset();
    let after = rs.followers.iter().filter_map(|f| match f.after_score {
        AfterScore::Move(a) => Some(a),
        _ => None,
    });
    let adjacency: Vec<Adjacency> = after.collect();
    if adjacency.is_empty() {
        return Moves::None;
    }
    if adjacency.contains(&Adjacency::Connected) {
        return Moves::Window;
    }
    let cells = rs
        .tiles
        .iter()
        .flat_map(|t| t.rotations.iter().flat_map(|r| &r.cells));
    let offsets = cells.map(|c| c.offset.0.unsigned_abs().max(c.offset.1.unsigned_abs()));
    Moves::Near(2 * i64::from(offsets.max().unwrap_or(0)) + 1)
}

/// The board reach of a variant: every piece a game can place (pile, pool, own tiles of every
/// seat) laid in a line from the start tile.
fn reach(rules: &Rules) -> i64 {
    let rs = rules.ruleset();
    // Largest cell offset of each tile type from its anchor, in any rotation.
    let extent = |t: u16| {
        let rots = rs.tiles.get(t as usize).map(|t| t.rotations.as_slice());
        let cells = rots.unwrap_or(&[]).iter().flat_map(|r| r.cells.iter());
        let offsets = cells.map(|c| c.offset.0.unsigned_abs().max(c.offset.1.unsigned_abs()));
        i64::from(offsets.max().unwrap_or(0))
    };
    let seats = rs.max_players.max(1);
    let pool = rs.pool.as_ref().map_or(&[][..], |p| p.tiles.as_slice());
    let own = rs.player_tiles.iter().flat_map(|p| {
        let n = p.count as usize * seats as usize;
        std::iter::repeat_n(p.tile, n)
    });
    let pieces = rules
        .pile()
        .into_iter()
        .chain(pool.iter().copied())
        .chain(own);
    // A piece touches a placed cell, so each one reaches at most its own span beyond the
    // pieces placed before it.
    let reach: i64 = pieces.map(|t| 2 * extent(t) + 1).sum();
    (reach + extent(rules.start_tile())).min(MAX_RADIUS)
}

/// A readable name of an action: `place H at 0,1 r3`, `follower meeple on feature 1 (city-s)`,
/// `move to 2,0 feature 1`, `take W2`, `seat 1`, `pass`; a corner figure on a named corner adds
/// `on corner 1,2`. For a follower the tile is the one just placed (`last_tile`), which names
/// the feature's segments.
pub fn action_text(rules: &Rules, action: Action, last_tile: Option<u16>) -> String {
    match action {
        Action::Pass => "pass".to_string(),
        Action::Take(t) => format!("take {}", rules.tile_id(t)),
        Action::Seat(s) => format!("seat {s}"),
        Action::Place(p) => format!(
            "place {} at {},{} r{}",
            rules.tile_id(p.tile),
            p.x,
            p.y,
            p.rotation
        ),
        Action::Follower(o) => {
            let name = last_tile.map_or("?", |t| rules.feature_name(t, o.feature));
            let who = rules.follower_id(o.follower);
            format!("follower {who} on feature {} ({name})", o.feature)
        }
        Action::Move(m) => format!("move to {},{} feature {}", m.x, m.y, m.feature),
        Action::Choose(n) => format!("choose option {n}"),
        Action::Corner(c) => format!(
            "{} on corner {},{}",
            action_text(rules, Action::Follower(c.option), last_tile),
            c.point[0],
            c.point[1]
        ),
        _ => format!("{action:?}"),
    }
}
