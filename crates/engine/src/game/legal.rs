//! One legality rule: [`Game::check`] is the explaining path (why an action is refused),
//! [`Game::is_legal`] its yes/no answer, and both agree with [`Game::legal_actions`] (a property
//! test and a fuzz target hold them to it; an [`Action::Corner`], not listed, agrees with its
//! option's listing and [`Game::corner_points`]). [`Game::play_unchecked`] is the by-value fast path.

use tegula_ruleset::Side;

use super::{Action, Game, MoveError, Phase, Placement, FRONT};

impl Game {
    /// Check an action without playing it: `Ok` exactly when [`Game::apply`] would accept it,
    /// otherwise the reason.
    pub fn check(&self, action: Action) -> Result<(), MoveError> {
        match action {
            Action::Place(p) => self.check_placement(p),
            Action::Follower(o) => self.check_follower(o),
            Action::Corner(c) => self.check_corner(c),
            Action::Move(t) => self.check_move(t).map(|_| ()),
            Action::Take(t) => self.check_take(t),
            Action::Seat(s) => self.check_seat(s),
            Action::Choose(n) => self.check_choose(n),
            Action::Pass if self.now.phase == Phase::Choice => self.check_decline(),
            Action::Pass => {
                if !matches!(self.now.phase, Phase::Hand | Phase::Follower | Phase::Move) {
                    return Err(MoveError::WrongPhase {
                        phase: self.now.phase,
                    });
                }
                if self.must_place() {
                    return Err(MoveError::MustPlace);
                }
                Ok(())
            }
            Action::Draw(tile) => {
                if self.now.phase != Phase::Draw {
                    return Err(MoveError::WrongPhase {
                        phase: self.now.phase,
                    });
                }
                if self.may_draw(tile) {
                    Ok(())
                } else {
                    Err(MoveError::NotInPile { tile })
                }
            }
        }
    }

    /// Whether `action` is legal now: true exactly when [`Game::legal_actions`] contains it
    /// (and so when [`Game::apply`] accepts it), for every action kind and phase; an
    /// [`Action::Corner`] when its option is listed and its point is one of the option's
    /// [`Game::corner_points`].
    pub fn is_legal(&self, action: &Action) -> bool {
        self.check(*action).is_ok()
    }

    /// Play a legal action without checking it (the by-value fast path for search). The action
    /// must come from [`Game::legal_actions`] or pass [`Game::is_legal`]; an illegal one is not
    /// undefined behaviour but may leave the game inconsistent (it never panics on the common
    /// placement and follower paths; debug builds assert legality).
    pub fn play_unchecked(&mut self, action: Action) {
        debug_assert!(self.is_legal(&action), "illegal action {action:?}");
        match action {
            Action::Place(p) => {
                self.log.history.push(action);
                if self.now.phase == Phase::Place
                    && p.tile == self.now.current
                    && self.w.w6.is_none()
                {
                    self.place_drawn(p);
                } else {
                    self.play_checked_placement(p);
                }
            }
            Action::Follower(o) => {
                self.log.history.push(action);
                self.put_follower(o, None);
                self.after_follower();
            }
            Action::Pass => self.play_pass(),
            // Rare phases: checked (a refused action changes nothing).
            _ => {
                let _ = self.apply(action);
            }
        }
    }

    /// All legal actions of the current phase, exactly those [`Game::apply`] accepts (but for
    /// [`Action::Corner`], the other corners of a listed corner-figure option):
    /// placements; own-tile placements then `Pass` (draw instead); follower options, then the
    /// other features of the tile that the board joins to an option's feature (the same option
    /// named another way), then the figure-step offers' options ([`Action::Choose`]), then
    /// `Pass`; an offer's options, then `Pass` where it may be declined; move targets, then the other tiles' features of a target's
    /// board feature, then `Pass` (take it back).
    pub fn legal_actions(&self) -> Vec<Action> {
        let pass = std::iter::once(Action::Pass);
        match self.now.phase {
            Phase::Pick => self.w.tiles.iter().map(|&t| Action::Take(t)).collect(),
            Phase::Order => self.w.seats.iter().map(|&s| Action::Seat(s)).collect(),
            Phase::Place => self
                .placements()
                .iter()
                .map(|&p| Action::Place(p))
                .collect(),
            Phase::Hand => {
                let places = self.placements().iter().map(|&p| Action::Place(p));
                let pass = pass.take(usize::from(!self.w.must_place));
                places.chain(pass).collect()
            }
            Phase::Follower => {
                let options = self
                    .legal
                    .options
                    .iter()
                    .copied()
                    .chain(self.follower_aliases());
                let choices = (0..self.choice_count() as u16).map(Action::Choose);
                let options = options.map(Action::Follower).chain(choices);
                options.chain(pass).collect()
            }
            Phase::Choice => {
                let choices = (0..self.choice_count() as u16).map(Action::Choose);
                let decline = self.check_decline().is_ok();
                choices.chain(pass.take(usize::from(decline))).collect()
            }
            Phase::Move => {
                let targets = self
                    .legal
                    .moves
                    .iter()
                    .map(|m| m.0)
                    .chain(self.move_aliases());
                targets.map(Action::Move).chain(pass).collect()
            }
            Phase::Draw => self
                .chance_outcomes()
                .iter()
                .map(|o| Action::Draw(o.0))
                .collect(),
            Phase::Over => Vec::new(),
        }
    }

    /// Check a placement of the drawn tile directly against the board (the explaining path, also
    /// used by the naive generator): every cell empty, every outer side matching a placed
    /// neighbour (B-2), at least one placed neighbour.
    pub fn check_placement(&self, p: Placement) -> Result<(), MoveError> {
        if self.now.phase == Phase::Hand {
            return self.check_own_tile(p);
        }
        if self.now.phase != Phase::Place {
            return Err(MoveError::WrongPhase {
                phase: self.now.phase,
            });
        }
        if self.w.w6.is_some() {
            // W-6: only a placement after which the pool tile fits next to this one.
            self.check_geometry(p)?;
            if !self.placements().contains(&p) {
                return Err(MoveError::NotNextToTile);
            }
            return Ok(());
        }
        let kept = !self.w.kept_only && self.w.kept.contains(&(self.now.player, p.tile));
        if p.tile != self.now.current && !kept {
            return Err(MoveError::WrongTile {
                expected: self.now.current,
                got: p.tile,
            });
        }
        self.check_geometry(p)
    }

    /// [`Game::check_placement`] without the phase and drawn-tile checks.
    pub fn check_geometry(&self, p: Placement) -> Result<(), MoveError> {
        if p.rotation >= 4 {
            return Err(MoveError::BadRotation(p.rotation));
        }
        let Some(info) = self.rules.tiles.get(p.tile as usize) else {
            return Err(MoveError::WrongTile {
                expected: self.now.current,
                got: p.tile,
            });
        };
        let cells = &info.rot[p.rotation as usize];
        for c in cells {
            let (x, y) = (p.x.saturating_add(c.dx), p.y.saturating_add(c.dy));
            match self.pos_inner(x, y) {
                Some(pos) if self.board.cells[pos] < FRONT => {
                    return Err(MoveError::Occupied { x, y })
                }
                // Outside the array but on the full board: an empty cell.
                None if !self.on_full_board(x, y) => return Err(MoveError::OutOfBoard { x, y }),
                _ => {}
            }
        }
        let mut touches = false;
        for c in cells {
            let (x, y) = (p.x + c.dx, p.y + c.dy);
            for side in Side::ALL {
                let s = side.index();
                if c.outer & (1 << s) == 0 {
                    continue;
                }
                let (dx, dy) = side.delta();
                let Some((nt, ncell)) = self.tile_at(x + dx, y + dy) else {
                    continue;
                };
                touches = true;
                let ninfo = &self.rules.tiles[nt.tile as usize];
                let theirs = ninfo.rot[nt.rotation as usize][ncell as usize].sides[(s + 2) % 4];
                if !c.sides[s].matches(theirs) {
                    return Err(MoveError::EdgeMismatch {
                        x,
                        y,
                        side,
                        tile: c.sides[s],
                        neighbour: theirs,
                    });
                }
            }
        }
        if !touches {
            return Err(MoveError::NotAdjacent);
        }
        if info.has_placement_rules {
            self.check_placement_rules(p)?;
        }
        Ok(())
    }

    /// The naive generator: every rotation of every tile the phase allows (the drawn tile, or
    /// the player's own tiles) at every cell of the bounding box grown by the largest tile offset
    /// + 1, each checked directly with [`Game::check_placement`]. Slow; for tests.
    pub fn naive_placements(&self) -> Vec<Placement> {
        let mut out = Vec::new();
        let tiles: Vec<u16> = match self.now.phase {
            Phase::Place => {
                let me = self.now.player;
                let kept = (self.w.kept.iter())
                    .filter(|k| k.0 == me && !self.w.kept_only)
                    .map(|k| k.1);
                std::iter::once(self.now.current).chain(kept).collect()
            }
            Phase::Hand if self.w.must_place => {
                let me = self.now.player;
                self.w
                    .held
                    .iter()
                    .filter(|h| h.0 == me)
                    .map(|h| h.1)
                    .collect()
            }
            Phase::Hand => {
                let pts = &self.rules.ruleset().player_tiles;
                (0..pts.len())
                    .filter(|&i| self.held(self.now.player, i) > 0)
                    .map(|i| pts[i].tile)
                    .collect()
            }
            _ => return out,
        };
        let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for (pos, &c) in self.board.cells.iter().enumerate() {
            if c < FRONT {
                let (x, y) = self.xy(pos);
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x);
                y1 = y1.max(y);
            }
        }
        let m = self.rules.max_offset + 1;
        for y in y0 - m..=y1 + m {
            for x in x0 - m..=x1 + m {
                for (&tile, rotation) in tiles.iter().flat_map(|t| std::iter::repeat(t).zip(0..4)) {
                    let p = Placement {
                        tile,
                        x,
                        y,
                        rotation,
                    };
                    if self.check_placement(p).is_ok() {
                        out.push(p);
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }
}
