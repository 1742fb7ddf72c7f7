//! What a rule of the one form reads ([`RuleCounts`]): the subject feature's counts as its
//! value reads them, and the rule-form quantities — a token's record at turn start, counters on
//! the subject's tiles, a seat's holdings, completed features on the board, features touching
//! the subject, the board-wide words (`board_counts.rs`), a seat's score and pool takes, a
//! shared track.

use tegula_ruleset::{Counts, FeatureKind, Quantity};

use super::score::FeatureCounts;
use super::when::{Chosen, Ctx};
use super::{Game, FRONT};

/// The counts of a rule's subject for its test and values, for seat `seat` (whose holdings
/// `held(R)` reads: the seat being paid, or the actor in a test).
pub(crate) struct RuleCounts<'a> {
    game: &'a Game,
    ctx: &'a Ctx,
    seat: u8,
    buf: Vec<u32>,
}

impl<'a> RuleCounts<'a> {
    /// The counts of `ctx`'s subject for `seat`.
    pub(crate) fn new(game: &'a Game, ctx: &'a Ctx, seat: u8) -> Self {
        RuleCounts {
            game,
            ctx,
            seat,
            buf: Vec::new(),
        }
    }
}

impl Counts for RuleCounts<'_> {
    fn count(&mut self, q: Quantity) -> u32 {
        let g = self.game;
        let root = self.ctx.subject_feature().map(|f| g.find_ro(f));
        match q {
            Quantity::Record(t) => g.rf.tokens.get(t as usize).map_or(0, |t| t.at_start),
            Quantity::Counters(c) => {
                let tiles = g.subject_tiles(self.ctx);
                let on = tiles.iter().map(|&i| g.rf.counters_on(c as usize, i));
                on.fold(0, u32::saturating_add)
            }
            Quantity::Held(r) => g.holding(self.seat, r as usize),
            // Values are never negative: a score below 0 reads 0.
            Quantity::Score => g
                .seats
                .scores
                .get(usize::from(self.seat))
                .map_or(0, |&s| u32::try_from(s.max(0)).unwrap_or(u32::MAX)),
            Quantity::Taken => {
                u32::from(g.w.taken.get(usize::from(self.seat)).copied().unwrap_or(0))
            }
            Quantity::Track(t) => g.rf.tracks.get(t as usize).map_or(0, |t| t.at),
            Quantity::TrackWas(t) => g.rf.tracks.get(t as usize).map_or(0, |t| t.was),
            Quantity::Completed(k) => g.completed_of(k),
            Quantity::Touching(k, tag) => g.touching(self.ctx, k, tag),
            Quantity::Extends(f) => g.extends(self.ctx, f, false),
            Quantity::ExtendsOpen(f) => g.extends(self.ctx, f, true),
            Quantity::OwnerActs
            | Quantity::PlacedThisTurn
            | Quantity::OwnerFigure
            | Quantity::Occupants
            | Quantity::OwnerFigures
            | Quantity::Figures { .. }
            | Quantity::Features { .. }
            | Quantity::Lines(_)
            | Quantity::Players
            | Quantity::GameTiles
            | Quantity::Near(_) => g.board_count(q, self.ctx),
            Quantity::OnBoard(n) => u32::from(g.neutral_at(n as usize).is_some()),
            Quantity::SetAside => g.nf.set_aside.len() as u32,
            Quantity::Assigned(n) => {
                u32::from(g.assigned_to(n).and_then(Chosen::owner) == Some(self.seat))
            }
            // A figure on top of a stack belongs to no feature: it holds none.
            Quantity::HoldsAssigned(n) => {
                let holds = match g.assigned_to(n) {
                    Some(Chosen::Figure(f)) => Some(g.find_ro(f.seg)),
                    _ => None,
                };
                u32::from(holds.is_some() && holds == root)
            }
            Quantity::OnTileOf(n) => g.on_tile_of(n as usize, self.seat),
            Quantity::AssignedWins(n) => {
                let owner = g.assigned_to(n).and_then(Chosen::owner);
                u32::from(owner.is_some_and(|p| self.ctx.winners >> p & 1 != 0))
            }
            // A tile subject without a feature: the tile's tag and its features'.
            Quantity::Tag(t) if root.is_none() => {
                self.ctx.tile.map_or(0, |i| g.tile_tag_count(i, t))
            }
            _ => root.map_or(0, |r| {
                FeatureCounts::new(g, r, &mut self.buf, self.ctx.cities).count(q)
            }),
        }
    }
}

impl Game {
    /// Whether tile instance `inst` carries tag `tag` (on the tile or a feature of it).
    #[inline]
    pub(super) fn tile_has_tag(&self, inst: u32, tag: u32) -> bool {
        self.tile_tags(inst).checked_shr(tag).unwrap_or(0) & 1 != 0
    }

    /// The tags tile instance `inst` carries (on the tile or a feature of it), bit per tag.
    #[inline]
    pub(super) fn tile_tags(&self, inst: u32) -> u32 {
        let tile = usize::from(self.board.insts[inst as usize].tile);
        self.rules.tiles[tile].any_tags
    }

    /// How often tile instance `inst` carries tag `tag`: 1 for the tile-level tag, plus 1 per
    /// feature of it carrying the tag.
    pub(super) fn tile_tag_count(&self, inst: u32, tag: u32) -> u32 {
        let tile = usize::from(self.board.insts[inst as usize].tile);
        let has = |bits: u32| bits.checked_shr(tag).unwrap_or(0) & 1;
        let own = has(self.rules.ruleset().tiles[tile].tags);
        let feats = self.rules.tiles[tile].feats.iter();
        feats.fold(own, |n, f| n + has(f.tags))
    }

    /// The tiles (instances, in placement order) of the subject: a cloister's tile and the
    /// tiles on its 8 neighbouring cells, every tile holding part of another feature, else the
    /// subject tile.
    pub(crate) fn subject_tiles(&self, ctx: &Ctx) -> Vec<u32> {
        let mut out = Vec::new();
        match ctx.subject_feature().map(|f| self.find_ro(f)) {
            Some(root) if self.board.segs[root as usize].kind == FeatureKind::Cloister => {
                let (x, y) = self.cell_of(root, self.board.segs[root as usize].cells);
                self.around(x, y, true, |v| out.push(v >> 4));
            }
            Some(root) => self.for_each_member(root, |seg, _, _| out.push(seg.inst)),
            None => out.extend(ctx.tile),
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The board cell of the first cell in `mask` of segment `seg`'s tile (a segment of no
    /// cell in particular is on cell 0).
    pub(super) fn cell_of(&self, seg: u32, mask: u8) -> (i32, i32) {
        let inst = self.board.insts[self.board.segs[seg as usize].inst as usize];
        let ci = mask.max(1).trailing_zeros() as usize;
        let c = &self.rules.tiles[usize::from(inst.tile)].rot[usize::from(inst.rot)][ci];
        (inst.x + c.dx, inst.y + c.dy)
    }

    /// Call `f` with the board value of each placed cell among the 8 around `(x, y)` (and
    /// `(x, y)` itself with `own`), row by row.
    pub(super) fn around(&self, x: i32, y: i32, own: bool, mut f: impl FnMut(u32)) {
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) == (0, 0) && !own {
                    continue;
                }
                let Some(pos) = self.pos(x + dx, y + dy) else {
                    continue;
                };
                let v = self.board.cells[pos];
                if v < FRONT {
                    f(v);
                }
            }
        }
    }

    /// Features holding a figure of type `ftype` of the subject tile's placer which a segment
    /// of that tile joined (with `open`: only those still open), each once (TB-5's "extends": a
    /// tile whose sides carry no segment extends nothing).
    fn extends(&self, ctx: &Ctx, ftype: u32, open: bool) -> u32 {
        let Some((inst, placer)) = ctx.tile.and_then(|i| Some((i, self.rf.placer_of(i)?))) else {
            return 0;
        };
        let at = self.board.insts[inst as usize];
        let n = self.rules.tiles[usize::from(at.tile)].feats.len() as u32;
        let mut roots: Vec<u32> = Vec::new();
        for m in &self.board.meeples {
            if m.player != placer || u32::from(m.ftype) != ftype {
                continue;
            }
            let root = self.find_ro(m.seg);
            let kind = self.board.segs[root as usize].kind;
            let joined = (at.seg_base..at.seg_base + n)
                .any(|s| self.board.segs[s as usize].kind == kind && self.find_ro(s) == root);
            if joined && !(open && self.is_complete(root)) && !roots.contains(&root) {
                roots.push(root);
            }
        }
        roots.len() as u32
    }

    /// Completed features of kind `kind` on the board (each once).
    fn completed_of(&self, kind: FeatureKind) -> u32 {
        let roots = (0..self.board.segs.len() as u32).filter(|&i| {
            let s = self.board.segs[i as usize];
            s.parent == i && s.kind == kind
        });
        roots.filter(|&r| self.is_complete(r)).count() as u32
    }

    /// Features of kind `kind` on the 8 cells around the subject feature's cells (with `tag`:
    /// around the cells of its segments carrying the tag; without a feature, around the subject
    /// tile's cells), each once, the subject feature itself left out.
    fn touching(&self, ctx: &Ctx, kind: FeatureKind, tag: Option<u32>) -> u32 {
        let root = ctx.subject_feature().map(|f| self.find_ro(f));
        let mut cells = Vec::new();
        match root {
            Some(r) => self.for_each_member(r, |seg, inst, feat| {
                if tag.is_some_and(|t| feat.tags.checked_shr(t).unwrap_or(0) & 1 == 0) {
                    return;
                }
                let rot = &self.rules.tiles[usize::from(inst.tile)].rot[usize::from(inst.rot)];
                let mask = seg.cells.max(1);
                let on = rot.iter().enumerate().filter(|(ci, _)| mask >> ci & 1 != 0);
                cells.extend(on.map(|(_, c)| (inst.x + c.dx, inst.y + c.dy)));
            }),
            None => {
                if let Some(i) = ctx.tile {
                    let inst = self.board.insts[i as usize];
                    let rot = &self.rules.tiles[usize::from(inst.tile)].rot[usize::from(inst.rot)];
                    cells.extend(rot.iter().map(|c| (inst.x + c.dx, inst.y + c.dy)));
                }
            }
        }
        let mut roots = Vec::new();
        for (x, y) in cells {
            self.around(x, y, false, |v| {
                let inst = self.board.insts[(v >> 4) as usize];
                let ci = v & 7;
                let feats = &self.rules.tiles[usize::from(inst.tile)].feats;
                for (fi, f) in feats.iter().enumerate() {
                    if f.kind != kind || f.cells.max(1) >> ci & 1 == 0 {
                        continue;
                    }
                    let r = self.find_ro(inst.seg_base + fi as u32);
                    if Some(r) != root {
                        roots.push(r);
                    }
                }
            });
        }
        roots.sort_unstable();
        roots.dedup();
        roots.len() as u32
    }
}
