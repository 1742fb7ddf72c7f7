//! The integer encoding of actions (OpenSpiel wants every action as an int in
//! `0..num_distinct_actions`, the same int meaning the same move in every state of a game).
//!
//! For a variant with `T` tile types, `S` seats at most, `F` follower types, at most `N` features
//! on one tile and board coordinates in `-R..=R` (`W = 2R + 1`), the ids are laid out in blocks:
//!
//! | block | ids | meaning |
//! |---|---|---|
//! | pass | `0` | [`Action::Pass`] |
//! | take | `1 + t` | [`Action::Take`] of tile type `t` |
//! | seat | `TAKE + T + s` | [`Action::Seat`] `s` |
//! | follower | `FOLLOWER + feature * F + follower` | [`Action::Follower`] |
//! | move | `MOVE + ((y + R) * W + (x + R)) * N + feature` | [`Action::Move`] |
//! | place | `PLACE + ((t * W + (y + R)) * W + (x + R)) * 4 + rotation` | [`Action::Place`] |
//!
//! where each block starts right after the previous one. Chance outcomes (draws) are tile type
//! indices `0..T`, in OpenSpiel's separate chance-action space. `R` bounds every anchor a game
//! of the variant can reach (every dealt piece placed in a line, see [`Codec::new`]).

use tegula_engine::{Action, FollowerOption, MoveTarget, Placement, Rules};

/// The action encoding of one variant and player count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Codec {
    tiles: i64,
    seats: i64,
    followers: i64,
    features: i64,
    radius: i64,
}

/// Largest coordinate the engine's board can hold (its side is at most 1023 cells).
const MAX_RADIUS: i64 = 511;

impl Codec {
    /// The encoding of a variant: the same for every player count it allows.
    pub fn new(rules: &Rules) -> Codec {
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
        let radius = (reach + extent(rules.start_tile())).min(MAX_RADIUS);
        Codec {
            tiles: rs.tiles.len() as i64,
            seats: i64::from(seats),
            followers: rs.followers.len().max(1) as i64,
            features: rs.tiles.iter().map(|t| t.features.len()).max().unwrap_or(1) as i64,
            radius,
        }
    }

    /// The coordinate bound `R`: anchors lie in `-R..=R`.
    pub fn radius(&self) -> i64 {
        self.radius
    }

    fn width(&self) -> i64 {
        2 * self.radius + 1
    }

    fn take_base(&self) -> i64 {
        1
    }

    fn seat_base(&self) -> i64 {
        self.take_base() + self.tiles
    }

    fn follower_base(&self) -> i64 {
        self.seat_base() + self.seats
    }

    fn move_base(&self) -> i64 {
        self.follower_base() + self.features * self.followers
    }

    fn place_base(&self) -> i64 {
        self.move_base() + self.width() * self.width() * self.features
    }

    /// Number of distinct action ids (OpenSpiel's `num_distinct_actions`).
    pub fn num_actions(&self) -> i64 {
        self.place_base() + self.tiles * self.width() * self.width() * 4
    }

    /// Number of chance outcomes (tile types).
    pub fn num_tiles(&self) -> i64 {
        self.tiles
    }

    /// A cell's index in the `W × W` grid, if inside.
    fn cell(&self, x: i32, y: i32) -> Option<i64> {
        let (x, y) = (i64::from(x) + self.radius, i64::from(y) + self.radius);
        let w = self.width();
        ((0..w).contains(&x) && (0..w).contains(&y)).then_some(y * w + x)
    }

    /// The id of an action; `None` for an action outside the encoding (a coordinate beyond
    /// `R`, an index beyond the variant's), which no legal action is.
    pub fn encode(&self, action: Action) -> Option<i64> {
        match action {
            Action::Pass => Some(0),
            Action::Take(t) => (i64::from(t) < self.tiles).then(|| self.take_base() + i64::from(t)),
            Action::Seat(s) => (i64::from(s) < self.seats).then(|| self.seat_base() + i64::from(s)),
            Action::Follower(o) => {
                let (f, k) = (i64::from(o.feature), i64::from(o.follower));
                (f < self.features && k < self.followers)
                    .then(|| self.follower_base() + f * self.followers + k)
            }
            Action::Move(m) => {
                let f = i64::from(m.feature);
                let c = self.cell(m.x, m.y).filter(|_| f < self.features)?;
                Some(self.move_base() + c * self.features + f)
            }
            Action::Place(p) => {
                let (t, r) = (i64::from(p.tile), i64::from(p.rotation));
                let c = self.cell(p.x, p.y).filter(|_| t < self.tiles && r < 4)?;
                let w = self.width();
                Some(self.place_base() + ((t * w * w) + c) * 4 + r)
            }
            // Action kinds added to the engine later have no id until the codec learns them.
            _ => None,
        }
    }

    /// The action of an id; `None` for an id outside `0..num_actions()`.
    pub fn decode(&self, id: i64) -> Option<Action> {
        if id < 0 || id >= self.num_actions() {
            return None;
        }
        let w = self.width();
        let xy = |c: i64| ((c % w - self.radius) as i32, (c / w - self.radius) as i32);
        Some(if id == 0 {
            Action::Pass
        } else if id < self.seat_base() {
            Action::Take((id - self.take_base()) as u16)
        } else if id < self.follower_base() {
            Action::Seat((id - self.seat_base()) as u8)
        } else if id < self.move_base() {
            let i = id - self.follower_base();
            Action::Follower(FollowerOption {
                feature: (i / self.followers) as u8,
                follower: (i % self.followers) as u8,
            })
        } else if id < self.place_base() {
            let i = id - self.move_base();
            let (x, y) = xy(i / self.features);
            let feature = (i % self.features) as u8;
            Action::Move(MoveTarget { x, y, feature })
        } else {
            let i = id - self.place_base();
            let rotation = (i % 4) as u8;
            let (tile, cell) = ((i / 4) / (w * w), (i / 4) % (w * w));
            let (x, y) = xy(cell);
            Action::Place(Placement {
                tile: tile as u16,
                x,
                y,
                rotation,
            })
        })
    }
}

/// A readable name of an action: `place H at 0,1 r3`, `follower meeple on feature 1 (city-s)`,
/// `move to 2,0 feature 1`, `take W2`, `seat 1`, `pass`. For a follower the tile is the one just
/// placed (`last_tile`), which names the feature's segments.
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
        _ => format!("{action:?}"),
    }
}
