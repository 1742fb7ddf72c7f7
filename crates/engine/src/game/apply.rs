//! Moves: applying a checked action, the index-based fast paths the agents use, and ending a
//! game early.

use super::*;

impl Game {
    /// Apply an action after checking it; on error the game is unchanged. Accepts exactly the
    /// actions [`Game::legal_actions`] lists ([`Game::is_legal`]), [`Action::Draw`] included,
    /// and an [`Action::Corner`] on any of its option's [`Game::corner_points`].
    pub fn apply(&mut self, action: Action) -> Result<(), MoveError> {
        if let Action::Draw(t) = action {
            return self.apply_draw(t);
        }
        self.apply_decision(action)?;
        self.log.history.push(action);
        Ok(())
    }

    /// [`Game::apply`] for a player's decision (not recorded in the history).
    pub(super) fn apply_decision(&mut self, action: Action) -> Result<(), MoveError> {
        match action {
            Action::Place(p) => {
                self.check_placement(p)?;
                self.play_checked_placement(p);
            }
            Action::Follower(o) => {
                self.check_follower(o)?;
                self.put_follower(o, None);
                self.after_follower();
            }
            Action::Corner(c) => {
                self.check_corner(c)?;
                self.put_follower(c.option, Some((c.point[0], c.point[1])));
                self.after_follower();
            }
            Action::Move(t) => {
                let i = self.check_move(t)?;
                self.move_freed(Some(i));
            }
            Action::Take(t) => {
                self.check_take(t)?;
                self.take(t);
            }
            Action::Seat(s) => {
                self.check_seat(s)?;
                self.choose_seat(s);
            }
            Action::Choose(n) => {
                self.check_choose(n)?;
                self.choose(n);
            }
            Action::Pass if self.now.phase == Phase::Choice => {
                self.check_decline()?;
                self.decline();
            }
            Action::Pass => {
                if !matches!(self.now.phase, Phase::Hand | Phase::Follower | Phase::Move) {
                    return Err(MoveError::WrongPhase {
                        phase: self.now.phase,
                    });
                }
                if self.must_place() {
                    return Err(MoveError::MustPlace);
                }
                self.play_pass_inner();
            }
            Action::Draw(t) => self.apply_draw(t)?,
        }
        Ok(())
    }

    /// Place the drawn tile at `x, y` with `rotation` (checked).
    pub fn place(&mut self, x: i32, y: i32, rotation: u8) -> Result<(), MoveError> {
        let tile = self.now.current;
        self.apply(Action::Place(Placement {
            tile,
            x,
            y,
            rotation,
        }))
    }

    /// Play placement number `index` of [`Game::placements`] (no re-check: the list is legal), in
    /// [`Phase::Place`] or [`Phase::Hand`]. Returns false if the index or the phase is wrong.
    pub fn play_placement(&mut self, index: usize) -> bool {
        if !matches!(self.now.phase, Phase::Place | Phase::Hand) || index >= self.legal.n_place {
            return false;
        }
        let p = self.placement_at(index);
        self.log.history.push(Action::Place(p));
        if self.now.phase == Phase::Place && p.tile == self.now.current && self.w.w6.is_none() {
            // The common case: the drawn tile, no own tile, kept tile or W-6 procedure.
            self.place_drawn(p);
        } else {
            self.play_checked_placement(p);
        }
        true
    }

    /// Play follower option number `index` of [`Game::follower_options`], or pass with `None`,
    /// then score and go on. Returns false if the index or the phase is wrong.
    pub fn play_follower(&mut self, index: Option<usize>) -> bool {
        if self.now.phase != Phase::Follower {
            return false;
        }
        match index {
            Some(i) if i < self.legal.options.len() => {
                let o = self.legal.options[i];
                self.log.history.push(Action::Follower(o));
                self.put_follower(o, None);
                self.after_follower();
            }
            Some(_) => return false,
            None => {
                self.log.history.push(Action::Pass);
                self.record_pass(self.now.turn);
                self.end_turn();
            }
        }
        true
    }

    /// After a follower: a second one on a pool tile just placed (W-7), or the end of the turn.
    pub(super) fn after_follower(&mut self) {
        if !self.offer_second_follower() {
            self.end_turn();
        }
    }

    /// Take choice number `index` of [`Game::pool_choices`]: a tile in [`Phase::Pick`], a seat
    /// in [`Phase::Order`] (unchecked). Returns false if the index or the phase is wrong.
    pub fn play_choice(&mut self, index: usize) -> bool {
        match self.now.phase {
            Phase::Pick if index < self.w.tiles.len() => {
                let t = self.w.tiles[index];
                self.log.history.push(Action::Take(t));
                self.take(t);
            }
            Phase::Order if index < self.w.seats.len() => {
                let s = self.w.seats[index];
                self.log.history.push(Action::Seat(s));
                self.choose_seat(s);
            }
            _ => return false,
        }
        true
    }

    /// Move the freed figure to target number `index` of [`Game::move_targets`], or take it back
    /// with `None` ([`Phase::Move`]). Returns false if the index or the phase is wrong.
    pub fn play_move(&mut self, index: Option<usize>) -> bool {
        if self.now.phase != Phase::Move || index.is_some_and(|i| i >= self.legal.moves.len()) {
            return false;
        }
        let action = index.map_or(Action::Pass, |i| Action::Move(self.legal.moves[i].0));
        self.log.history.push(action);
        self.move_freed(index);
        true
    }

    /// Decline in the current phase ([`Action::Pass`], unchecked): no follower, draw instead of
    /// placing one's own tile, or take the freed figure back. Does nothing in other phases.
    pub fn play_pass(&mut self) {
        let can = match self.now.phase {
            Phase::Follower | Phase::Move => true,
            Phase::Choice => self.check_decline().is_ok(),
            Phase::Hand => !self.w.must_place,
            _ => false,
        };
        if can {
            self.log.history.push(Action::Pass);
            self.play_pass_inner();
        }
    }

    /// [`Game::play_pass`] without recording the decision.
    pub(super) fn play_pass_inner(&mut self) {
        match self.now.phase {
            Phase::Follower => {
                self.record_pass(self.now.turn);
                self.end_turn();
            }
            Phase::Hand if !self.w.must_place => {
                self.record_pass(self.now.turn + 1);
                self.decline_own_tile();
            }
            Phase::Move => self.move_freed(None),
            Phase::Choice => self.decline(),
            _ => {}
        }
    }

    /// End the game now: finish the current turn without a follower (if a tile was just placed),
    /// take back figures waiting to move, drop the undrawn pile and players' own tiles, and run
    /// the final scoring (B-6). Does nothing if already over. A recording game logs a `finish`
    /// event first, so that its log replays ([`crate::log::replay`] calls `finish` there too).
    pub fn finish(&mut self) {
        if self.now.phase != Phase::Over {
            self.now.finished = true;
            if self.log.record {
                // A tile drawn and not yet placed belongs to the next turn, as its draw says.
                let turn = match self.now.phase {
                    Phase::Place => self.now.turn + 1,
                    _ => self.now.turn,
                };
                self.log.events.push(Event::Finish { turn });
            }
        }
        match self.now.phase {
            Phase::Over => {}
            Phase::Follower => {
                // The figure step's offers lapse with it.
                self.choice.step.clear();
                self.score_pending();
                self.return_freed();
                self.end_game();
            }
            Phase::Move => {
                self.return_freed();
                self.end_game();
            }
            Phase::Choice => {
                if self.drop_offers() {
                    self.score_pending();
                }
                self.return_freed();
                self.end_game();
            }
            _ => self.end_game(),
        }
    }
}
