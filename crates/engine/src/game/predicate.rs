//! Placement rules a tile carries in data beside matching edges (`TileType::placement`): the tile
//! continues a line of declared edges, and the open end it leaves keeps room to go on
//! (`Readings::open_end`). Only tiles that carry rules are checked, so other tiles pay nothing.

use tegula_ruleset::{OpenEnd, PlacementRule, Side, SideKind};

use super::{Game, MoveError, Placement};

/// A side of a placed cell: the cell and the board side.
type CellSide = (i32, i32, Side);

impl Game {
    /// Whether placement `p`, whose cells and edges are already checked (B-2), keeps the tile's
    /// placement rules; the first it breaks otherwise.
    pub(super) fn check_placement_rules(&self, p: Placement) -> Result<(), MoveError> {
        let rules = &self.rules.ruleset().tiles[p.tile as usize].placement;
        for r in rules {
            let (ok, why) = match *r {
                PlacementRule::Continues { kind, .. } => (
                    self.continues(p, kind),
                    "the tile must continue the line: one of its declared edges must meet \
                     the line's open end",
                ),
                PlacementRule::RoomAhead { kind, .. } => (
                    self.room_ahead(p, kind),
                    "the line may not turn back on itself: the open end needs room ahead",
                ),
            };
            if !ok {
                let rule = r.rule().to_string();
                return Err(MoveError::PlacementRule { rule, why });
            }
        }
        Ok(())
    }

    /// Keep only the generated placements that keep the tile's placement rules.
    pub(super) fn filter_placement_rules(&mut self) {
        let mut all = std::mem::take(&mut self.legal.placements);
        all.truncate(self.legal.n_place);
        all.retain(|&p| self.check_placement_rules(p).is_ok());
        self.legal.n_place = all.len();
        self.legal.placements = all;
    }

    /// The outer sides of kind `kind` of the tile placed as `p`.
    fn sides_of(&self, p: Placement, kind: SideKind) -> impl Iterator<Item = CellSide> + '_ {
        let cells = &self.rules.tiles[p.tile as usize].rot[p.rotation as usize];
        cells.iter().flat_map(move |c| {
            let outer = move |s: &Side| c.outer & (1 << s.index()) != 0;
            Side::ALL
                .into_iter()
                .filter(outer)
                .filter(move |s| c.sides[s.index()] == kind)
                .map(move |s| (p.x + c.dx, p.y + c.dy, s))
        })
    }

    fn filled(&self, x: i32, y: i32) -> bool {
        self.tile_at(x, y).is_some()
    }

    /// The cell across side `s` of `(x, y)`.
    fn across((x, y, s): CellSide) -> (i32, i32) {
        let (dx, dy) = s.delta();
        (x + dx, y + dy)
    }

    /// The tile's two sides of kind `kind`, when it has exactly two (no allocation: this runs
    /// for every candidate placement of a tile that carries the rule).
    fn two_sides(&self, p: Placement, kind: SideKind) -> Option<[CellSide; 2]> {
        let mut it = self.sides_of(p, kind);
        let pair = [it.next()?, it.next()?];
        it.next().is_none().then_some(pair)
    }

    /// At least one side of kind `kind` meets a placed neighbour.
    fn continues(&self, p: Placement, kind: SideKind) -> bool {
        self.sides_of(p, kind).any(|cs| {
            let (x, y) = Game::across(cs);
            self.filled(x, y)
        })
    }

    /// Every open end (a side of kind `kind` facing an empty cell) keeps room as the reading
    /// asks.
    fn room_ahead(&self, p: Placement, kind: SideKind) -> bool {
        match self.rules.ruleset().readings.open_end {
            OpenEnd::Room => self.sides_of(p, kind).all(|cs| self.clear_ahead(cs)),
            OpenEnd::NoRepeatedTurn => !self.repeats_turn(p, kind),
        }
    }

    /// The side's neighbour is filled (no open end), or the two cells ahead of it and the cells
    /// beside those two are all empty.
    fn clear_ahead(&self, cs: CellSide) -> bool {
        let (x, y, s) = cs;
        let (dx, dy) = s.delta();
        if self.filled(x + dx, y + dy) {
            return true;
        }
        (1..=2).all(|k| {
            let (ax, ay) = (x + k * dx, y + k * dy);
            [(0, 0), (dy, dx), (-dy, -dx)]
                .iter()
                .all(|&(ox, oy)| !self.filled(ax + ox, ay + oy))
        })
    }

    /// The tile turns its line the same way as the tile it continues (two turns in a row the
    /// same way): each has exactly two sides of kind `kind`.
    fn repeats_turn(&self, p: Placement, kind: SideKind) -> bool {
        let Some([a, b]) = self.two_sides(p, kind) else {
            return false;
        };
        // The entry is the side meeting the line; the other side is the exit.
        let (entry, exit) = if self.filled(Game::across(a).0, Game::across(a).1) {
            (a, b)
        } else {
            (b, a)
        };
        let turn = |entry: Side, exit: Side| (exit.index() + 4 - entry.index()) % 4;
        let my_turn = turn(entry.2, exit.2);
        if my_turn == 2 {
            return false;
        }
        let (nx, ny) = Game::across(entry);
        let Some((prev, _)) = self.tile_at(nx, ny) else {
            return false;
        };
        let before = Placement {
            tile: prev.tile,
            x: prev.x,
            y: prev.y,
            rotation: prev.rotation,
        };
        let Some([c, d]) = self.two_sides(before, kind) else {
            return false;
        };
        let back = entry.2.opposite();
        let (their_entry, their_exit) = if c.2 == back { (d, c) } else { (c, d) };
        turn(their_entry.2, their_exit.2) == my_turn
    }
}
