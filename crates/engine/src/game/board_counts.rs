//! The board-wide words a rule of the one form reads (the ones the `[[ability]]` short form
//! lowers to, W-10..W-17): the rule's owner and whether it acts, figures and features counted
//! anywhere on the board, rows and columns with a run of tiles, the seats and the tiles in the
//! game, and whether the subject figure stands near a cloister or a tagged feature.

use std::collections::BTreeMap;

use tegula_ruleset::{FeatureKind, NearCells, Owner, Quantity, State};

use super::when::Ctx;
use super::Game;

impl Game {
    /// The rule's owner: of the tile carrying it, else of the subject tile.
    pub(crate) fn rule_owner(&self, ctx: &Ctx) -> Option<u8> {
        match ctx.carrier {
            Some(c) => Some(c.owner),
            None => ctx.tile.and_then(|i| self.rf.placer_of(i)),
        }
    }

    /// A board-wide word of the one form (0 for the feature's own counts, which
    /// `RuleCounts` reads).
    pub(crate) fn board_count(&self, q: Quantity, ctx: &Ctx) -> u32 {
        let owner = self.rule_owner(ctx);
        let root = ctx.subject_feature().map(|f| self.find_ro(f));
        let on_root = |m: &&super::Meeple| Some(self.find_ro(m.seg)) == root;
        match q {
            Quantity::OwnerActs => u32::from(owner == Some(ctx.actor)),
            Quantity::PlacedThisTurn => u32::from(ctx.carrier.is_some_and(|c| c.fresh)),
            Quantity::OwnerFigure => u32::from(ctx.figure.is_some_and(|f| {
                Some(f.player) == owner
                    && self
                        .board
                        .meeples
                        .iter()
                        .any(|m| (m.player, m.ftype, m.seg) == (f.player, f.ftype, f.seg))
            })),
            Quantity::Occupants => root.map_or(0, |r| self.board.segs[r as usize].occ as u32),
            Quantity::OwnerFigures => {
                let mine = self
                    .board
                    .meeples
                    .iter()
                    .filter(|m| Some(m.player) == owner);
                mine.filter(on_root).count() as u32
            }
            Quantity::Figures { whose, kind, state } => self.figures_on(owner, whose, kind, state),
            Quantity::Features {
                kind,
                min_tiles,
                state,
                tag,
            } => self.features_of(kind, min_tiles, state, tag),
            Quantity::Lines(run) => self.lines(run),
            Quantity::Players => u32::from(self.seats.players),
            Quantity::GameTiles => self.tiles_in_game(),
            Quantity::Near(tag) => u32::from(self.near(ctx, tag)),
            _ => 0,
        }
    }

    /// The pieces this game deals (W-15): pile, start tile, pool, players' own tiles.
    pub fn tiles_in_game(&self) -> u32 {
        let held: u32 = self
            .rules
            .ruleset()
            .player_tiles
            .iter()
            .map(|p| u32::from(p.count))
            .sum();
        self.rules.dealt + held * u32::from(self.seats.players)
    }

    fn state_ok(&self, state: State, root: u32) -> bool {
        match state {
            State::Any => true,
            State::Complete => self.is_complete(root),
            State::Incomplete => !self.is_complete(root),
        }
    }

    /// Figures on features (`whose` relative to `owner`), on a kind, the feature in a state.
    fn figures_on(
        &self,
        owner: Option<u8>,
        whose: Owner,
        kind: Option<FeatureKind>,
        state: State,
    ) -> u32 {
        let mut n = 0;
        for m in &self.board.meeples {
            let ok = match whose {
                Owner::Own => Some(m.player) == owner,
                Owner::Others => Some(m.player) != owner,
                Owner::Anyone => true,
            };
            let root = self.find_ro(m.seg);
            let k = self.board.segs[root as usize].kind;
            if ok && kind.is_none_or(|want| want == k) && self.state_ok(state, root) {
                n += 1;
            }
        }
        n
    }

    /// Features of `kind` of at least `min_tiles` cells, in `state`, with a segment tagged
    /// `tag` (any without), each once.
    fn features_of(
        &self,
        kind: FeatureKind,
        min_tiles: u32,
        state: State,
        tag: Option<u32>,
    ) -> u32 {
        let mut buf = Vec::new();
        let mut n = 0;
        for i in 0..self.board.segs.len() as u32 {
            let s = self.board.segs[i as usize];
            if s.parent != i || s.kind != kind {
                continue;
            }
            if tag.is_some_and(|t| self.tag_count(i, t) == 0) {
                continue;
            }
            if self.count_cells(i, &mut buf) >= min_tiles && self.state_ok(state, i) {
                n += 1;
            }
        }
        n
    }

    /// Rows plus columns holding a gap-free run of at least `run` filled cells (W-17).
    fn lines(&self, run: u32) -> u32 {
        let mut rows: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
        let mut cols: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
        for i in &self.board.insts {
            for c in &self.rules.tiles[i.tile as usize].rot[i.rot as usize] {
                let (x, y) = (i.x + c.dx, i.y + c.dy);
                rows.entry(y).or_default().push(x);
                cols.entry(x).or_default().push(y);
            }
        }
        let has_run = |v: &mut Vec<i32>| {
            v.sort_unstable();
            let (mut best, mut cur) = (0u32, 0u32);
            for k in 0..v.len() {
                cur = if k > 0 && v[k] == v[k - 1] + 1 {
                    cur + 1
                } else {
                    1
                };
                best = best.max(cur);
            }
            best >= run
        };
        let mut n = 0;
        for v in rows.values_mut().chain(cols.values_mut()) {
            n += u32::from(has_run(v));
        }
        n
    }

    /// Whether a cell of the segment the subject figure stands on is one of the 8 cells around
    /// a cloister or a feature tagged `tag` (W-10); a figure on no feature is near nothing.
    fn near(&self, ctx: &Ctx, tag: Option<u32>) -> bool {
        let Some(f) = ctx.figure else {
            return false;
        };
        let same = |m: &super::Meeple| (m.player, m.ftype, m.seg) == (f.player, f.ftype, f.seg);
        if !self.board.meeples.iter().any(same) {
            return false;
        }
        let s = self.board.segs[f.seg as usize];
        let inst = self.board.insts[s.inst as usize];
        let info = &self.rules.tiles[inst.tile as usize];
        let mask = info.feats[s.local as usize].cells.max(1);
        let cells = &info.rot[inst.rot as usize];
        cells.iter().enumerate().any(|(ci, c)| {
            mask & (1 << ci) != 0 && self.tagged_near(inst.x + c.dx, inst.y + c.dy, tag)
        })
    }

    /// Whether one of the 8 cells around `(x, y)` holds a cloister or a feature tagged `tag`;
    /// or `(x, y)` itself, when the variant reads W-10 that way (`readings.near`).
    fn tagged_near(&self, x: i32, y: i32, tag: Option<u32>) -> bool {
        let own_cell = self.rules.ruleset().readings.near == NearCells::AroundOrOn;
        let mut near = false;
        self.around(x, y, own_cell, |v| {
            let inst = self.board.insts[(v >> 4) as usize];
            let t = &self.rules.ruleset().tiles[inst.tile as usize];
            let ci = v & 7;
            near |= t.features.iter().any(|f| {
                let on_cell = f.cells.max(1) & (1 << ci) != 0;
                let tagged = tag.is_some_and(|g| f.tags.checked_shr(g).unwrap_or(0) & 1 != 0);
                on_cell && (f.kind == FeatureKind::Cloister || tagged)
            });
        });
        near
    }
}
