//! One legality rule: [`Game::check`] is the explaining path (why an action is refused),
//! [`Game::is_legal`] its yes/no answer, and both agree with [`Game::legal_actions`] (a property
//! test and a fuzz target hold them to it). [`Game::play_unchecked`] is the by-value fast path.

use super::{Action, Game, MoveError, Phase};

impl Game {
    /// Check an action without playing it: `Ok` exactly when [`Game::apply`] would accept it,
    /// otherwise the reason.
    pub fn check(&self, action: Action) -> Result<(), MoveError> {
        match action {
            Action::Place(p) => self.check_placement(p),
            Action::Follower(o) => self.check_follower(o),
            Action::Move(t) => self.check_move(t).map(|_| ()),
            Action::Take(t) => self.check_take(t),
            Action::Seat(s) => self.check_seat(s),
            Action::Pass => {
                if !matches!(self.phase, Phase::Hand | Phase::Follower | Phase::Move) {
                    return Err(MoveError::WrongPhase { phase: self.phase });
                }
                if self.must_place() {
                    return Err(MoveError::MustPlace);
                }
                Ok(())
            }
            Action::Draw(tile) => {
                if self.phase != Phase::Draw {
                    return Err(MoveError::WrongPhase { phase: self.phase });
                }
                match self.left.get(tile as usize) {
                    Some(&c) if c > 0 => Ok(()),
                    _ => Err(MoveError::NotInPile { tile }),
                }
            }
        }
    }

    /// Whether `action` is legal now: true exactly when [`Game::legal_actions`] contains it
    /// (and so when [`Game::apply`] accepts it), for every action kind and phase.
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
                self.history.push(action);
                if self.phase == Phase::Place && p.tile == self.current && self.w.w6.is_none() {
                    self.place_drawn(p);
                } else {
                    self.play_checked_placement(p);
                }
            }
            Action::Follower(o) => {
                self.history.push(action);
                self.put_follower(o);
                self.after_follower();
            }
            Action::Pass => self.play_pass(),
            // Rare phases: checked (a refused action changes nothing).
            _ => {
                let _ = self.apply(action);
            }
        }
    }
}
