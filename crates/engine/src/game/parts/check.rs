//! The parts' invariants, checked on demand (tests call [`Game::check_parts`] after every move
//! of random games of every shipped variant). Each check reads one part and says which
//! invariant failed.

use super::super::{Game, Phase, EMPTY, FRONT};

impl Game {
    /// Check the invariants each part of the state states in its doc comment: the board array's
    /// shape and the union-find's links, the seats' list sizes, the turn's seats and final
    /// round, the pile's counts. For tests; `Err` names the first invariant broken.
    pub fn check_parts(&self) -> Result<(), String> {
        self.check_board()?;
        self.check_seats()?;
        self.check_turn()?;
        self.check_deck()?;
        self.check_stacks()?;
        let due = &self.due;
        let placing = matches!(self.now.phase, Phase::Place | Phase::Over);
        let scored = due.pending.is_empty() && due.pending_cloisters.is_empty();
        if placing && !(scored && due.pending_fields.is_empty()) {
            return Err("due: features left to score from an earlier placement".into());
        }
        if !due.freed.is_empty() && self.now.phase != Phase::Move {
            return Err("due: freed figures outside their moves".into());
        }
        let log = &self.log;
        if log.final_from.is_some_and(|i| i > log.events.len()) {
            return Err("log: final_from is past the events".into());
        }
        Ok(())
    }

    fn check_board(&self) -> Result<(), String> {
        let b = &self.board;
        if b.cells.len() != b.width * b.width || b.off != (b.width / 2) as i32 {
            return Err(format!("board: {} cells, width {}", b.cells.len(), b.width));
        }
        if b.width > b.full_width {
            return Err(format!("board: width {} > {}", b.width, b.full_width));
        }
        let placed = b.cells.iter().filter(|&&c| c != EMPTY && c & FRONT == 0);
        let cells = b
            .insts
            .iter()
            .map(|i| self.rules.tiles[i.tile as usize].cell_count);
        if placed.count() != cells.sum::<usize>() {
            return Err("board: placed cells and tiles' cells differ in number".into());
        }
        let fronts = b
            .cells
            .iter()
            .filter(|&&c| c != EMPTY && c & FRONT != 0)
            .count();
        if fronts != b.frontier.len() {
            return Err(format!(
                "board: {fronts} frontier cells, {}",
                b.frontier.len()
            ));
        }
        for (i, s) in b.segs.iter().enumerate() {
            let root = self.find_ro(i as u32);
            if s.inst as usize >= b.insts.len() || b.segs[root as usize].parent != root {
                return Err(format!("board: segment {i} has no tile or no root"));
            }
            // A feature is of one kind (the any-feature site search judges a kind once per
            // feature, `game/anywhere.rs`).
            if s.kind != b.segs[root as usize].kind {
                return Err(format!("board: segment {i} is not of its feature's kind"));
            }
        }
        let segs = b.segs.len() as u32;
        let on = b
            .meeples
            .iter()
            .map(|m| m.seg)
            .chain(b.corner_figs.iter().map(|c| c.seg));
        if let Some(seg) = on.into_iter().find(|&s| s >= segs) {
            return Err(format!("board: a figure on segment {seg} of {segs}"));
        }
        Ok(())
    }

    fn check_seats(&self) -> Result<(), String> {
        let s = &self.seats;
        let rs = self.rules.ruleset();
        let n = usize::from(s.players);
        let sizes = [
            (s.supply.len(), n * rs.followers.len(), "supply"),
            (s.scores.len(), n, "scores"),
            (s.holdings.len(), n * rs.resources.len(), "holdings"),
            (s.held.len(), n * rs.player_tiles.len(), "held"),
        ];
        match sizes.into_iter().find(|&(len, want, _)| len != want) {
            Some((len, want, what)) => Err(format!("seats: {len} {what}, not {want}")),
            None => Ok(()),
        }
    }

    fn check_turn(&self) -> Result<(), String> {
        let t = &self.now;
        let players = self.seats.players;
        if t.player >= players || t.active >= players || t.last_placer >= players {
            return Err(format!("turn: a seat beyond {players}: {t:?}"));
        }
        if !t.in_final && !t.final_seats.is_empty() {
            return Err("turn: seats in a final round not under way".into());
        }
        if t.in_extra && t.extra_due.is_some() {
            return Err("turn: an extra turn earned in an extra turn".into());
        }
        Ok(())
    }

    fn check_deck(&self) -> Result<(), String> {
        let d = &self.deck;
        if d.drawn > d.revealed || d.revealed > d.pile.len() {
            let (drawn, revealed, len) = (d.drawn, d.revealed, d.pile.len());
            return Err(format!(
                "deck: drawn {drawn}, revealed {revealed}, pile {len}"
            ));
        }
        if !d.chance && d.revealed != d.pile.len() {
            return Err("deck: undecided draws without chance steps".into());
        }
        let mut left = vec![0u16; d.left.len()];
        for &t in &d.pile[d.drawn..] {
            left[t as usize] += 1;
        }
        if left != d.left {
            return Err("deck: the remaining counts are not the undrawn pile's".into());
        }
        Ok(())
    }
}
