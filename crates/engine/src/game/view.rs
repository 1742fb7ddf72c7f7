//! Read access: what a player, an agent or a picture sees of the game.

use super::*;

impl Game {
    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// Number of players.
    pub fn players(&self) -> u8 {
        self.seats.players
    }

    /// Seed of the shuffled pile (`None` for a scripted pile).
    pub fn seed(&self) -> Option<u64> {
        self.deck.seed
    }

    /// The whole draw pile in order (drawn and undrawn). Tiles set aside and shuffled back
    /// (PD-3) stand in it twice: where they were drawn, and where they went back.
    pub fn pile(&self) -> &[u16] {
        &self.deck.pile
    }

    /// The pile as the game was set up (what a log's setup line records, and a replay starts
    /// from): [`Game::pile`] until tiles are shuffled back into it.
    pub fn setup_pile(&self) -> &[u16] {
        if self.nf.setup_pile.is_empty() {
            &self.deck.pile
        } else {
            &self.nf.setup_pile
        }
    }

    /// Tiles not drawn yet.
    pub fn remaining(&self) -> usize {
        self.deck.pile.len() - self.deck.drawn
    }

    /// Current phase.
    pub fn phase(&self) -> Phase {
        self.now.phase
    }

    /// Seat to act, or [`CHANCE`] in a chance step ([`Phase::Draw`]).
    pub fn current_player(&self) -> u8 {
        if self.now.phase == Phase::Draw {
            CHANCE
        } else {
            self.now.player
        }
    }

    /// The seat whose turn it is (also during a chance step: the seat that draws; in
    /// [`Phase::Move`] the active player, while a figure's owner decides).
    pub fn turn_seat(&self) -> u8 {
        self.now.active
    }

    /// Every decision made so far, in order, with chance outcomes as [`Action::Draw`] (only those
    /// of chance steps: draws inside moves follow the pile).
    pub fn history(&self) -> &[Action] {
        &self.log.history
    }

    /// The drawn tile (meaningful in [`Phase::Place`]).
    pub fn current_tile(&self) -> u16 {
        self.now.current
    }

    /// Number of land tiles placed so far (the start tile is turn 0).
    pub fn turn(&self) -> u32 {
        self.now.turn
    }

    /// Scores by seat.
    pub fn scores(&self) -> &[crate::points::Score] {
        &self.seats.scores
    }

    /// Seats with the highest score.
    pub fn winners(&self) -> Vec<u8> {
        let best = self.seats.scores.iter().copied().max().unwrap_or(0);
        (0..self.seats.players)
            .filter(|&p| self.seats.scores[p as usize] == best)
            .collect()
    }

    /// Followers of type `follower` that `player` has in supply.
    pub fn supply(&self, player: u8, follower: u8) -> u8 {
        let nf = self.rules.ruleset().followers.len();
        if player >= self.seats.players || follower as usize >= nf {
            return 0;
        }
        self.seats.supply[player as usize * nf + follower as usize]
    }

    /// Recorded events (empty unless the game records).
    pub fn events(&self) -> &[Event] {
        &self.log.events
    }

    /// Once the game is over: the index into [`Game::events`] of the first final-scoring event
    /// (B-6, AM-9), so that callers can tell a last turn's scoring from the final scoring.
    pub fn final_scoring_from(&self) -> Option<usize> {
        self.log.final_from
    }

    /// Whether events are recorded.
    pub fn recording(&self) -> bool {
        self.log.record
    }

    /// Turn event recording on or off (agents searching on clones turn it off).
    pub fn set_recording(&mut self, record: bool) {
        self.log.record = record;
    }

    /// Forget the recorded events (search copies do not need the history).
    pub fn clear_events(&mut self) {
        self.log.events.clear();
    }

    /// Tiles on the board, in placement order (index = tile instance).
    pub fn tiles(&self) -> Vec<PlacedTile> {
        self.board
            .insts
            .iter()
            .map(|i| PlacedTile {
                tile: i.tile,
                x: i.x,
                y: i.y,
                rotation: i.rot,
            })
            .collect()
    }

    /// Number of tiles on the board.
    pub fn tile_count(&self) -> usize {
        self.board.insts.len()
    }

    /// The tile covering cell `(x, y)` and the index of that cell in the tile.
    pub fn tile_at(&self, x: i32, y: i32) -> Option<(PlacedTile, u8)> {
        let p = self.pos(x, y)?;
        let c = self.board.cells[p];
        if c > FRONT - 1 {
            return None;
        }
        let i = self.board.insts[(c >> 4) as usize];
        Some((
            PlacedTile {
                tile: i.tile,
                x: i.x,
                y: i.y,
                rotation: i.rot,
            },
            (c & 0x7) as u8,
        ))
    }

    /// Followers on the board: figures on features, then corner figures (AM-6).
    pub fn followers(&self) -> Vec<BoardFollower> {
        let on_seg = |player: u8, ftype: u8, seg: u32, corner: Option<[i32; 2]>| {
            let s = self.board.segs[seg as usize];
            let i = self.board.insts[s.inst as usize];
            BoardFollower {
                player,
                follower: ftype,
                instance: s.inst as u16,
                x: i.x,
                y: i.y,
                feature: s.local,
                feature_id: FeatureId(self.find_ro(seg)),
                corner,
            }
        };
        let figures = self
            .board
            .meeples
            .iter()
            .map(|m| on_seg(m.player, m.ftype, m.seg, None));
        let corners = self
            .board
            .corner_figs
            .iter()
            .map(|c| on_seg(c.player, c.ftype, c.seg, Some([c.point.0, c.point.1])));
        figures.chain(corners).collect()
    }

    /// Tiles of their own that `player` still holds, by [`Ruleset::player_tiles`] index (AM-1).
    ///
    /// [`Ruleset::player_tiles`]: tegula_ruleset::Ruleset::player_tiles
    pub fn held(&self, player: u8, index: usize) -> u8 {
        let n = self.rules.ruleset().player_tiles.len();
        if player >= self.seats.players || index >= n {
            return 0;
        }
        self.seats.held[player as usize * n + index]
    }

    /// Figures freed by this turn's scoring that still wait for their owners' decisions
    /// (AM-11), in decision order: `(owner, follower type, tile instance it stood on, the scored
    /// feature)`. The first one decides now ([`Phase::Move`]).
    pub fn waiting_figures(&self) -> Vec<(u8, u8, u16, FeatureId)> {
        self.due
            .freed
            .iter()
            .map(|f| (f.player, f.ftype, f.inst as u16, FeatureId(f.root)))
            .collect()
    }

    /// Legal targets of the freed figure deciding now ([`Phase::Move`], AM-11); taking it back
    /// ([`Action::Pass`]) is always possible besides these.
    pub fn move_targets(&self) -> Vec<MoveTarget> {
        if self.now.phase != Phase::Move {
            return Vec::new();
        }
        self.legal.moves.iter().map(|m| m.0).collect()
    }

    /// The board feature containing segment `segment` of the tile covering `(x, y)`.
    pub fn feature_id(&self, x: i32, y: i32, segment: &str) -> Option<FeatureId> {
        let p = self.pos(x, y)?;
        let c = self.board.cells[p];
        if c > FRONT - 1 {
            return None;
        }
        let inst = self.board.insts[(c >> 4) as usize];
        let local = self.rules.feature_index(inst.tile, segment)?;
        Some(FeatureId(self.find_ro(inst.seg_base + local as u32)))
    }

    /// Facts about a board feature (size in distinct cells, pennants, completion, ...).
    pub fn feature(&self, id: FeatureId) -> Option<FeatureInfo> {
        if id.0 as usize >= self.board.segs.len() {
            return None;
        }
        let root = self.find_ro(id.0);
        let mut buf = Vec::new();
        Some(self.info(root, &mut buf))
    }

    /// Strength of each seat on a feature (B-5), by seat.
    pub fn strengths(&self, id: FeatureId) -> Vec<u32> {
        let mut s = vec![0; self.seats.players as usize];
        if id.0 as usize >= self.board.segs.len() {
            return s;
        }
        let root = self.find_ro(id.0);
        for m in &self.board.meeples {
            if self.find_ro(m.seg) == root {
                let seat = &mut s[m.player as usize];
                *seat = seat.saturating_add(self.strength_of(m.ftype, root));
            }
        }
        s
    }

    /// Every complete road, city and cloister on the board (B-3).
    pub fn completed_features(&self) -> Vec<FeatureId> {
        let mut out = Vec::new();
        for i in 0..self.board.segs.len() as u32 {
            let s = self.board.segs[i as usize];
            if s.parent != i {
                continue;
            }
            let complete = match s.kind {
                FeatureKind::Road | FeatureKind::City => s.open <= 0,
                FeatureKind::Cloister => self.cloister_neighbours(i) == 8,
                _ => false,
            };
            if complete {
                out.push(FeatureId(i));
            }
        }
        out
    }

    /// Legal placements of the drawn tile in [`Phase::Place`], of the player's own tiles in
    /// [`Phase::Hand`] (fast generator; empty in other phases).
    /// Every rotation is listed, even when two rotations of a symmetric tile look the same.
    /// A drawn single-cell tile's list is built on the first call after the draw (the draw
    /// only counts); [`Game::placement_count`] gives its length without making it, and
    /// [`Game::play_placement`] plays an index of it either way.
    pub fn placements(&self) -> &[Placement] {
        if matches!(self.now.phase, Phase::Place | Phase::Hand) {
            self.placement_slice()
        } else {
            &[]
        }
    }

    /// Follower options on the tile just placed (empty outside [`Phase::Follower`]): one per
    /// unoccupied board feature and follower type in supply (two segments of the tile in the same
    /// connected feature are one option, B-2; [`Game::check_follower`] accepts either segment).
    /// Passing is always possible besides these.
    pub fn follower_options(&self) -> &[FollowerOption] {
        if self.now.phase == Phase::Follower {
            &self.legal.options
        } else {
            &[]
        }
    }
}
