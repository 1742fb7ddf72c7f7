//! Figures: which may go on the tile just placed (B-2, AM-5, AM-10), corner figures (AM-6,
//! AM-7), and figures freed by a scoring that their owners move or take back (AM-11, AM-12).

use tegula_ruleset::{Adjacency, FeatureKind};

use super::{
    find, CornerFig, Event, FeatureId, FollowerOption, Freed, Game, Meeple, MoveError, MoveTarget,
    Phase, FRONT,
};
use crate::rules::when::Kind;

impl Game {
    /// Follower options of the tile just placed: one per unoccupied board feature (B-2) and
    /// follower type in supply that may stand on its kind; none on a corner-figure field (AM-8);
    /// then corner figures, one per field with a legal corner (AM-6).
    pub(super) fn compute_options(&mut self) {
        self.legal.options.clear();
        if self.rules.plain_figures {
            self.plain_options();
            return;
        }
        let nf = self.rules.figures.len();
        let base = self.now.player as usize * nf;
        // The follower types with some left in supply, bit per type (figure facts are bit sets
        // in `Rules`, so a feature's options are a few mask operations).
        let supply = self.seats.supply[base..base + nf].iter().enumerate();
        let in_supply = supply.fold(0u16, |m, (k, &n)| m | u16::from(n > 0) << k);
        self.figure_options(in_supply);
        if self.rules.any_corner {
            self.corner_options(in_supply);
        }
    }

    /// The follower options on features of the tile just placed ([`Game::compute_options`]
    /// but corner figures) for the figure types in `in_supply`. The roots met so far are
    /// compared in a fixed array with a fold, as in [`Game::plain_options`]: scanning a list of
    /// them ends after a number of steps the branch predictor cannot learn in a random game.
    fn figure_options(&mut self, in_supply: u16) {
        let inst = *self.board.insts.last().expect("just placed");
        let rules = &*self.rules;
        let feats = &rules.tiles[inst.tile as usize].feats;
        if feats.len() > FAST_FEATS {
            return self.figure_options_of_many(in_supply);
        }
        // The roots offered; slots from `n` on hold no root, so only offered roots compare equal.
        let mut roots = [NO_ROOT; FAST_FEATS];
        let mut n = 0;
        for (i, f) in feats.iter().enumerate() {
            // An unscored feature takes no follower (rare: a branch the predictor learns).
            if f.kind == FeatureKind::Unscored {
                continue;
            }
            let root = find(&mut self.board.segs, inst.seg_base + i as u32);
            let r = self.board.segs[root as usize];
            let occupied = r.occ > u16::from(r.guests);
            // Two segments of this tile in the same connected feature are one choice (B-2).
            let seen = roots.iter().fold(false, |a, &s| a | (s == root));
            // A corner-figure field takes no follower (AM-8), only a figure that occupies
            // nothing beside its owner's figure ([`Rules::corner_guest_figs`]).
            let corner_field = r.corners > 0;
            let closed = corner_field & (rules.corner_guest_figs == 0);
            if (occupied & !rules.any_joins) | closed | seen {
                continue;
            }
            // `n` never passes `i`, so it stays in bounds.
            roots[n] = root;
            n += 1;
            let mut may = rules.figs_on_kind[f.kind as usize] & in_supply;
            if may & rules.tag_sited_figs != 0 {
                may &= !tag_refused(rules, f.tags);
            }
            if occupied {
                may &= rules.joining_figs;
            }
            if corner_field {
                may &= rules.corner_guest_figs;
            }
            // Read only when some figure type on offer needs it (TB-4, TB-7).
            if may & rules.needs_own_figs != 0 && !self.holds_own_figure(root, self.now.player) {
                may &= !rules.needs_own_figs;
            }
            // TB-4's other reading: not on a feature this tile completes (0 by default).
            if may & rules.open_only_figs != 0 && self.is_complete(root) {
                may &= !rules.open_only_figs;
            }
            while may != 0 {
                let follower = may.trailing_zeros() as u8;
                may &= may - 1;
                let feature = i as u8;
                self.legal
                    .options
                    .push(FollowerOption { feature, follower });
            }
        }
    }

    /// [`Game::figure_options`] for tiles of more features than its array holds (big
    /// multi-cell tiles, rare): the roots offered in a list.
    #[inline(never)]
    fn figure_options_of_many(&mut self, in_supply: u16) {
        let inst = *self.board.insts.last().expect("just placed");
        let rules = &*self.rules;
        let info = &rules.tiles[inst.tile as usize];
        let mut seen = std::mem::take(&mut self.tmp.buf);
        seen.clear();
        for (i, f) in info.feats.iter().enumerate() {
            if f.kind == FeatureKind::Unscored {
                continue;
            }
            let root = find(&mut self.board.segs, inst.seg_base + i as u32);
            let r = self.board.segs[root as usize];
            let occupied = r.occ > u16::from(r.guests);
            let corner_field = r.corners > 0;
            let closed = corner_field && rules.corner_guest_figs == 0;
            if (occupied && !rules.any_joins) || closed || has_root(&seen, root) {
                continue;
            }
            seen.push(root);
            let mut may = rules.figs_on_kind[f.kind as usize] & in_supply;
            if may & rules.tag_sited_figs != 0 {
                may &= !tag_refused(rules, f.tags);
            }
            if occupied {
                may &= rules.joining_figs;
            }
            if corner_field {
                may &= rules.corner_guest_figs;
            }
            if may & rules.needs_own_figs != 0 && !self.holds_own_figure(root, self.now.player) {
                may &= !rules.needs_own_figs;
            }
            if may & rules.open_only_figs != 0 && self.is_complete(root) {
                may &= !rules.open_only_figs;
            }
            while may != 0 {
                let follower = may.trailing_zeros() as u8;
                may &= may - 1;
                let feature = i as u8;
                self.legal
                    .options
                    .push(FollowerOption { feature, follower });
            }
        }
        self.tmp.buf = seen;
    }

    /// [`Game::compute_options`] when every figure stands on every feature but unscored ones and
    /// joins nothing occupied (the base game's figures): the move loop's hot path. Which features
    /// of a random game's tile are free is what the branch predictor cannot learn, so those
    /// decisions are data (roots compared in a fixed array, an entry written always and kept by
    /// advancing the count), not jumps.
    fn plain_options(&mut self) {
        let inst = *self.board.insts.last().expect("just placed");
        let rules = &*self.rules;
        let feats = &rules.tiles[inst.tile as usize].feats;
        if feats.len() > FAST_FEATS {
            return self.plain_options_of_many();
        }
        let nf = rules.figures.len();
        let base = self.now.player as usize * nf;
        let supply = &self.seats.supply[base..base + nf];
        // The features offered, in order, and the roots they stand for.
        let mut offered = [0u8; FAST_FEATS];
        let mut roots = [NO_ROOT; FAST_FEATS];
        let mut n = 0;
        for (i, f) in feats.iter().enumerate() {
            // An unscored feature takes no follower (rare: a branch the predictor learns).
            if f.kind == FeatureKind::Unscored {
                continue;
            }
            let root = find(&mut self.board.segs, inst.seg_base + i as u32);
            // Slots from `n` on hold no root, so only offered roots compare equal.
            let seen = roots.iter().fold(false, |a, &r| a | (r == root));
            let offer = (self.board.segs[root as usize].occ == 0) & !seen;
            // Written always, kept when offered (`n` never passes `i`, so it stays in bounds).
            offered[n] = i as u8;
            roots[n] = if offer { root } else { NO_ROOT };
            n += usize::from(offer);
        }
        for &feature in &offered[..n] {
            for (k, &left) in supply.iter().enumerate() {
                if left > 0 {
                    let follower = k as u8;
                    self.legal
                        .options
                        .push(FollowerOption { feature, follower });
                }
            }
        }
    }

    /// [`Game::plain_options`] for tiles of more features than its arrays hold (big multi-cell
    /// tiles, rare): the roots offered in a list.
    #[inline(never)]
    fn plain_options_of_many(&mut self) {
        let inst = *self.board.insts.last().expect("just placed");
        let rules = &*self.rules;
        let info = &rules.tiles[inst.tile as usize];
        let nf = rules.figures.len();
        let base = self.now.player as usize * nf;
        let mut seen = std::mem::take(&mut self.tmp.buf);
        seen.clear();
        for (i, f) in info.feats.iter().enumerate() {
            if f.kind == FeatureKind::Unscored {
                continue;
            }
            let root = find(&mut self.board.segs, inst.seg_base + i as u32);
            if self.board.segs[root as usize].occ > 0 || has_root(&seen, root) {
                continue;
            }
            seen.push(root);
            for k in 0..nf {
                if self.seats.supply[base + k] > 0 {
                    self.legal.options.push(FollowerOption {
                        feature: i as u8,
                        follower: k as u8,
                    });
                }
            }
        }
        self.tmp.buf = seen;
    }

    /// Check a follower option on the tile just placed (B-2, AM-5, AM-6, AM-8, AM-10).
    pub fn check_follower(&self, o: FollowerOption) -> Result<(), MoveError> {
        self.figure_step_open(o.follower)?;
        let inst = *self.board.insts.last().expect("a tile was placed");
        let info = &self.rules.tiles[inst.tile as usize];
        let Some(feat) = info.feats.get(o.feature as usize) else {
            return Err(MoveError::NoSuchFeature(o.feature));
        };
        let feature = o.feature;
        if feat.kind == FeatureKind::Unscored {
            return Err(MoveError::NotAFollowerFeature {
                feature,
                kind: feat.kind,
            });
        }
        let Some(fig) = self.rules.figures.get(o.follower as usize) else {
            return Err(MoveError::NoSuchFollower(o.follower));
        };
        let root = self.board.segs[self.find_ro(inst.seg_base + feature as u32) as usize];
        let wrong_site = MoveError::WrongSite {
            feature,
            kind: feat.kind,
            follower: o.follower,
        };
        if fig.corner.is_some() {
            if feat.kind != FeatureKind::Field {
                return Err(wrong_site);
            }
            if root.corners > 0 {
                return Err(MoveError::CornerFigureField { feature });
            }
            if self.pool_tile_just_placed() {
                return Err(MoveError::CornerOnPoolTile { feature });
            }
            if !self.legal_corners().iter().any(|c| c.0 == feature) {
                return Err(MoveError::NoCorner { feature });
            }
        } else {
            if !fig.stands_on(feat.kind) || !fig.tags_allow(feat.tags) {
                return Err(wrong_site);
            }
            let root_seg = self.find_ro(inst.seg_base + feature as u32);
            // AM-8 keeps followers off a corner-figure field; a figure that occupies nothing
            // may stand beside its owner's figure there (TB-7's reading, the join not yet
            // scored).
            let guest = self.rules.corner_guest_figs >> o.follower & 1 != 0;
            if root.corners > 0 && !(guest && self.holds_own_figure(root_seg, self.now.player)) {
                return Err(MoveError::CornerFigureField { feature });
            }
            if root.occ > u16::from(root.guests) && !fig.joins {
                return Err(MoveError::FeatureOccupied { feature });
            }
            if fig.needs_own && !self.holds_own_figure(root_seg, self.now.player) {
                let (kind, follower) = (feat.kind, o.follower);
                return Err(MoveError::NeedsOwnFigure {
                    feature,
                    kind,
                    follower,
                });
            }
            if self.rules.open_only_figs >> o.follower & 1 != 0 && self.is_complete(root_seg) {
                let (kind, follower) = (feat.kind, o.follower);
                return Err(MoveError::FeatureCompleted {
                    feature,
                    kind,
                    follower,
                });
            }
        }
        let nf = self.rules.figures.len();
        if self.seats.supply[self.now.player as usize * nf + o.follower as usize] == 0 {
            return Err(MoveError::NoFollowerLeft {
                follower: o.follower,
            });
        }
        Ok(())
    }

    /// Put a checked follower on the tile just placed; a corner figure goes on the `named`
    /// point (checked), else on its field's first corner (its field scores at once, AM-7, by
    /// the rule `figure-placed` runs).
    pub(super) fn put_follower(&mut self, o: FollowerOption, named: Option<(i32, i32)>) {
        let inst = *self.board.insts.last().expect("just placed");
        let seg = inst.seg_base + o.feature as u32;
        let root = find(&mut self.board.segs, seg);
        let nf = self.rules.figures.len();
        self.seats.supply[self.now.player as usize * nf + o.follower as usize] -= 1;
        let corner = self.rules.figures[o.follower as usize].corner.is_some();
        let point = match corner {
            true if named.is_some() => named,
            true => self
                .legal_corners()
                .into_iter()
                .find(|c| c.0 == o.feature)
                .map(|c| c.1),
            false => None,
        };
        if self.log.record {
            self.record_figure(self.now.player, o.follower, seg, point, false);
        }
        match (corner, point) {
            (true, Some(point)) => {
                self.board.corner_figs.push(CornerFig {
                    player: self.now.player,
                    ftype: o.follower,
                    seg,
                    point,
                });
                // AM-7's payment is the rule lowered from `corner.place`, run by
                // `figure-placed` below (no figure on the field counts the corner figure).
                self.board.segs[root as usize].corners += 1;
            }
            _ => {
                self.add_figure(root, o.follower);
                self.board.meeples.push(Meeple {
                    player: self.now.player,
                    ftype: o.follower,
                    seg,
                });
                self.on_follower_placed(seg);
            }
        }
        if self.waits(Kind::FigurePlaced) {
            self.rule_figure_placed(o.follower, seg);
        }
    }

    /// Count a figure of type `ftype` put on the feature rooted at `root` (a guest when its
    /// type does not occupy).
    fn add_figure(&mut self, root: u32, ftype: u8) {
        let s = &mut self.board.segs[root as usize];
        s.occ += 1;
        if !self.rules.figures[ftype as usize].occupies {
            s.guests = s.guests.saturating_add(1);
        }
    }

    /// Whether the feature rooted at `root` holds an occupying figure of `player`'s (the
    /// precondition of figure types that need one, TB-4, TB-7).
    pub(super) fn holds_own_figure(&self, root: u32, player: u8) -> bool {
        let s = self.board.segs[root as usize];
        s.occ > u16::from(s.guests)
            && self.board.meeples.iter().any(|m| {
                m.player == player
                    && self.rules.figures[m.ftype as usize].occupies
                    && self.find_ro(m.seg) == root
            })
    }

    /// Record a figure put on segment `seg` (placed, or `moved` after a scoring).
    fn record_figure(
        &mut self,
        player: u8,
        ftype: u8,
        seg: u32,
        point: Option<(i32, i32)>,
        moved: bool,
    ) {
        if !self.log.record {
            return;
        }
        let s = self.board.segs[seg as usize];
        let inst = self.board.insts[s.inst as usize];
        let fig = &self.rules.ruleset().followers[usize::from(ftype)];
        let rule = fig.place_rule.clone().filter(|_| !moved);
        self.log.events.push(Event::Follower {
            turn: self.now.turn,
            player,
            follower: self.rules.follower_id(ftype).to_string(),
            x: inst.x,
            y: inst.y,
            feature: s.local,
            segment: self.rules.feature_name(inst.tile, s.local).to_string(),
            corner: point.map(|(x, y)| [x, y]),
            moved,
            claim: false,
            rule,
        });
    }

    /// AM-12: freed figures decide in seat order starting with the active player (stable
    /// within a seat: in the order their features were scored).
    #[inline]
    pub(super) fn order_freed(&mut self) {
        if self.due.freed.len() > 1 {
            let (n, a) = (self.seats.players, self.now.active);
            self.due.freed.sort_by_key(|f| (f.player + n - a) % n);
        }
    }

    /// Give the next freed figure with somewhere to go its decision ([`Phase::Move`]); figures
    /// with nowhere to go return to supply (AM-11). When none is left, the turn ends.
    #[inline]
    pub(super) fn next_freed(&mut self) {
        while let Some(&f) = self.due.freed.first() {
            self.collect_targets(f);
            if !self.legal.moves.is_empty() {
                self.now.player = f.player;
                self.now.phase = Phase::Move;
                return;
            }
            self.due.freed.remove(0);
            self.return_to_supply(f);
        }
        self.finish_turn();
    }

    /// Move the deciding figure to target `choice`, or take it back with `None`.
    pub(super) fn move_freed(&mut self, choice: Option<usize>) {
        let f = self.due.freed.remove(0);
        match choice.and_then(|i| self.legal.moves.get(i).copied()) {
            Some((_, seg)) => {
                let root = find(&mut self.board.segs, seg);
                self.add_figure(root, f.ftype);
                self.board.meeples.push(Meeple {
                    player: f.player,
                    ftype: f.ftype,
                    seg,
                });
                self.record_figure(f.player, f.ftype, seg, None, true);
            }
            None => {
                // The owner's decision to take it back is logged as a pass.
                self.record_pass(self.now.turn);
                self.return_to_supply(f);
            }
        }
        self.legal.moves.clear();
        self.next_freed();
    }

    /// Take every waiting freed figure back (the game is ending).
    pub(super) fn return_freed(&mut self) {
        for f in std::mem::take(&mut self.due.freed) {
            self.return_to_supply(f);
        }
        self.legal.moves.clear();
    }

    fn return_to_supply(&mut self, f: Freed) {
        let nf = self.rules.figures.len();
        self.seats.supply[f.player as usize * nf + f.ftype as usize] += 1;
        if self.log.record {
            self.log.events.push(Event::Return {
                turn: self.now.turn,
                player: f.player,
                follower: self.rules.follower_id(f.ftype).to_string(),
                feature: FeatureId(f.root),
                rule: self.rules.ruleset().followers[usize::from(f.ftype)]
                    .return_rule
                    .clone(),
            });
        }
    }

    /// Check a move of the deciding figure; returns the index of the matching target (any
    /// segment of the target's board feature names it).
    pub(super) fn check_move(&self, t: MoveTarget) -> Result<usize, MoveError> {
        if self.now.phase != Phase::Move {
            return Err(MoveError::WrongPhase {
                phase: self.now.phase,
            });
        }
        let refused = MoveError::NotAMoveTarget {
            follower: self.due.freed.first().map_or(0, |f| f.ftype),
            x: t.x,
            y: t.y,
            feature: t.feature,
        };
        let Some(v) = self
            .pos(t.x, t.y)
            .map(|p| self.board.cells[p])
            .filter(|&v| v < FRONT)
        else {
            return Err(refused);
        };
        let inst = self.board.insts[(v >> 4) as usize];
        if (inst.x, inst.y) != (t.x, t.y)
            || t.feature as usize >= self.rules.tiles[inst.tile as usize].feats.len()
        {
            return Err(refused);
        }
        let root = self.find_ro(inst.seg_base + t.feature as u32);
        self.legal
            .moves
            .iter()
            .position(|m| self.find_ro(m.1) == root)
            .ok_or(refused)
    }

    /// AM-11: the unfinished, unoccupied features the freed figure may stand on, adjacent in
    /// its figure type's sense, one per board feature.
    fn collect_targets(&mut self, f: Freed) {
        let rules = self.rules.clone();
        let fig = &rules.figures[f.ftype as usize];
        let mut insts = self.adjacent_tiles(f, fig.moves.unwrap_or_default());
        insts.sort_unstable();
        insts.dedup();
        let mut moves = std::mem::take(&mut self.legal.moves);
        moves.clear();
        let mut roots = Vec::new();
        for j in insts {
            let inst = self.board.insts[j as usize];
            for (l, feat) in rules.tiles[inst.tile as usize].feats.iter().enumerate() {
                if !fig.stands_on(feat.kind) {
                    continue;
                }
                let seg = inst.seg_base + l as u32;
                let root = self.find_ro(seg);
                let r = self.board.segs[root as usize];
                let occupied = r.occ > u16::from(r.guests);
                if r.done || occupied || r.corners > 0 || roots.contains(&root) {
                    continue;
                }
                if self.is_complete(root) {
                    continue;
                }
                roots.push(root);
                let target = MoveTarget {
                    x: inst.x,
                    y: inst.y,
                    feature: l as u8,
                };
                moves.push((target, seg));
            }
        }
        self.legal.moves = moves;
    }

    /// Tile instances whose features count as adjacent for a figure freed from tile instance
    /// `f.inst` after the feature `f.root` was scored (AM-11 and its readings).
    fn adjacent_tiles(&self, f: Freed, adjacency: Adjacency) -> Vec<u32> {
        let mut out = Vec::new();
        match adjacency {
            Adjacency::Neighbourhood => {
                let inst = self.board.insts[f.inst as usize];
                for c in &self.rules.tiles[inst.tile as usize].rot[inst.rot as usize] {
                    for dy in -1..=1 {
                        for dx in -1..=1 {
                            let (x, y) = (inst.x + c.dx + dx, inst.y + c.dy + dy);
                            if let Some(pos) = self.pos(x, y) {
                                let v = self.board.cells[pos];
                                if v < FRONT {
                                    out.push(v >> 4);
                                }
                            }
                        }
                    }
                }
            }
            Adjacency::Connected => self.for_each_member(f.root, |seg, _, _| out.push(seg.inst)),
        }
        out
    }
}

impl Game {
    /// Follower actions [`Game::apply`] accepts besides [`Game::follower_options`]: another
    /// feature of the tile just placed that the board joins to an option's feature (B-2 counts
    /// them as one option; [`Game::check_follower`] accepts either).
    pub(super) fn follower_aliases(&self) -> Vec<FollowerOption> {
        let mut out = Vec::new();
        let Some(inst) = self.board.insts.last() else {
            return out;
        };
        let n = self.rules.tiles[inst.tile as usize].feats.len();
        let root = |f: u8| self.find_ro(inst.seg_base + u32::from(f));
        for o in &self.legal.options {
            for feature in (0..n).filter_map(|f| u8::try_from(f).ok()) {
                let alias = FollowerOption { feature, ..*o };
                // A corner figure needs a corner on the feature itself (AM-6), so not every
                // feature joined to its option's is one.
                if root(feature) == root(o.feature)
                    && !self.legal.options.contains(&alias)
                    && !out.contains(&alias)
                    && self.check_follower(alias).is_ok()
                {
                    out.push(alias);
                }
            }
        }
        out
    }

    /// Move targets [`Game::apply`] accepts besides [`Game::move_targets`]: a feature of any
    /// placed tile that belongs to a target's board feature (one target per board feature is
    /// listed; [`Game::check_move`] accepts every tile of it).
    pub(super) fn move_aliases(&self) -> Vec<MoveTarget> {
        let roots: Vec<u32> = self.legal.moves.iter().map(|m| self.find_ro(m.1)).collect();
        let mut out = Vec::new();
        for inst in &self.board.insts {
            let n = self.rules.tiles[inst.tile as usize].feats.len();
            for feature in (0..n).filter_map(|f| u8::try_from(f).ok()) {
                let t = MoveTarget {
                    x: inst.x,
                    y: inst.y,
                    feature,
                };
                let root = self.find_ro(inst.seg_base + u32::from(feature));
                if roots.contains(&root) && !self.legal.moves.iter().any(|m| m.0 == t) {
                    out.push(t);
                }
            }
        }
        out
    }
}

/// Features of a tile whose options [`Game::plain_options`] works out in fixed arrays (nearly
/// every tile).
const FAST_FEATS: usize = 8;

/// A free slot of the roots offered (no segment has this index).
const NO_ROOT: u32 = u32::MAX;

/// Whether `root` is among the few roots a tile's features met so far: a plain loop, where
/// `slice::contains` sets up a vectorised search that costs more than the usual zero to three
/// comparisons (measured: 2,000 instructions per base game).
#[inline]
#[allow(clippy::manual_contains)]
fn has_root(seen: &[u32], root: u32) -> bool {
    seen.iter().any(|&r| r == root)
}

/// The figure types with site tags (AB-1) that may not stand on a tile-local feature carrying
/// `tags`, bit per type.
fn tag_refused(rules: &crate::rules::Rules, tags: u32) -> u16 {
    let mut sited = rules.tag_sited_figs;
    let mut refused = 0;
    while sited != 0 {
        let k = sited.trailing_zeros();
        sited &= sited - 1;
        if !rules.figures[k as usize].tags_allow(tags) {
            refused |= 1 << k;
        }
    }
    refused
}
