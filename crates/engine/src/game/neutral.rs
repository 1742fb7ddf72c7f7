//! Neutral figures (docs/design/actions.md, 1, 2, 7): figures owned by nobody, one of each per
//! game, off the board at the start, declared in data (`Ruleset::neutrals`). The rules that
//! name them say what they do: [`Act::Put`] stands one on a tile, [`Act::NoFigures`] keeps the
//! figure step off a tile for the turn, [`Act::Walk`] walks one step by step with a choice per
//! step (`game/walk.rs`), [`Act::ReturnOn`] returns the figures of a set standing on a tile,
//! [`Act::SetAside`] and [`Act::ShuffleBack`] set drawn tiles aside and put them back into the
//! pile. The engine knows them by index only.

use tegula_ruleset::{Act, FigureSet, NeedsOwnAlone, TileRef};

use super::walk::WalkState;
use super::when::{Chosen, Ctx};
use super::{find, part, Event, FeatureId, Game, Meeple, MoveError, Phase, FRONT};
use crate::rng::{derive_seed, Rng};

part! {
    /// The neutral figures' part of a game (empty, and never touched, in a variant without
    /// them).
    ///
    /// Invariants: `at` has one entry per neutral figure of the ruleset; a cell in it holds a
    /// placed tile; `walk` is `Some` only while a walk waits for a step
    /// ([`Phase::Choice`](crate::Phase::Choice)) or is being set up inside an event.
    #[derive(Default)]
    pub(crate) struct NeutralState {
        /// By neutral figure index, the cell it stands on (`None`: off the board).
        pub(crate) at: Vec<Option<(i32, i32)>>,
        /// The tile instance no figure may go on in this turn's figure step, and the rule that
        /// said so (index into `Ruleset::when`).
        pub(crate) no_figures: Option<(u32, u16)>,
        /// The walk under way.
        pub(crate) walk: Option<WalkState>,
        /// Tiles set aside (tile types, in the order set aside).
        pub(crate) set_aside: Vec<u16>,
        /// The pile as it was set up, kept once tiles are shuffled back into it (what the log's
        /// setup line records); empty until then.
        pub(crate) setup_pile: Vec<u16>,
        /// The tile being drawn while `draw` rules run; `None` between draws.
        pub(crate) drawn: Option<u16>,
        /// Whether a `draw` rule set the tile being drawn aside.
        pub(crate) aside_now: bool,
        /// By neutral figure index, the figure it is assigned to (PD-7; empty in a variant
        /// without neutral figures): a [`Chosen::Figure`] on a feature or a [`Chosen::Top`]
        /// on top of a stack.
        pub(crate) assigned: Vec<Option<Chosen>>,
    }
}

impl NeutralState {
    /// The state at the start of a game of `neutrals` neutral figures.
    pub(crate) fn reset(&mut self, neutrals: usize) {
        self.at.clear();
        self.at.resize(neutrals, None);
        self.no_figures = None;
        self.walk = None;
        self.set_aside.clear();
        self.setup_pile.clear();
        self.drawn = None;
        self.aside_now = false;
        self.assigned.clear();
        self.assigned.resize(neutrals, None);
    }
}

impl Game {
    /// Where neutral figure `n` stands: the cell, `None` off the board.
    pub fn neutral_at(&self, n: usize) -> Option<(i32, i32)> {
        self.nf.at.get(n).copied().flatten()
    }

    /// The figures of `seat` on features of the tile neutral figure `n` stands on (0 while it
    /// is off the board; corner figures stand beside tiles and are not counted).
    pub(super) fn on_tile_of(&self, n: usize, seat: u8) -> u32 {
        let Some(inst) = self.neutral_at(n).and_then(|(x, y)| self.inst_at(x, y)) else {
            return 0;
        };
        let on = |m: &&super::Meeple| {
            m.player == seat
                && self.board.segs[m.seg as usize].inst == inst
                && self.rules.figures[usize::from(m.ftype)].corner.is_none()
        };
        self.board.meeples.iter().filter(on).count() as u32
    }

    /// The seats with a figure in the subject feature on the tile neutral figure `n` stands
    /// on, bit per seat (none while it is off the board or without a subject feature; corner
    /// figures stand beside tiles and are not counted): [`tegula_ruleset::Seat::OwnersOn`].
    pub(super) fn owners_on(&self, n: usize, ctx: &Ctx) -> u32 {
        let Some(inst) = self.neutral_at(n).and_then(|(x, y)| self.inst_at(x, y)) else {
            return 0;
        };
        let Some(root) = ctx.subject_feature().map(|f| self.find_ro(f)) else {
            return 0;
        };
        let kind = self.board.segs[root as usize].kind;
        let on = |m: &&super::Meeple| {
            let seg = &self.board.segs[m.seg as usize];
            seg.inst == inst
                && seg.kind == kind
                && self.rules.figures[usize::from(m.ftype)].corner.is_none()
                && self.find_ro(m.seg) == root
        };
        let mine = self.board.meeples.iter().filter(on);
        mine.fold(0, |bits, m| bits | 1 << m.player)
    }

    /// The tiles set aside and not shuffled back (tile indices, in the order set aside).
    pub fn set_aside_tiles(&self) -> &[u16] {
        &self.nf.set_aside
    }

    /// The tile instance on cell `(x, y)`, if a tile lies there.
    pub(super) fn inst_at(&self, x: i32, y: i32) -> Option<u32> {
        let v = self.board.cells[self.pos(x, y)?];
        (v < FRONT).then_some(v >> 4)
    }

    /// The tile instance an effect's `on` names.
    pub(super) fn tile_of(&self, on: TileRef, ctx: &Ctx) -> Option<u32> {
        let inst = match (on, ctx.chosen) {
            (TileRef::Subject, _) => ctx.tile,
            (TileRef::Chosen | TileRef::Entered, Some(Chosen::Tile(i))) => Some(i),
            // The tile the chosen figure stands on (an `own-figure` offer), on a feature or on
            // top of a stack.
            (TileRef::Chosen, Some(Chosen::Figure(f))) => {
                self.board.segs.get(f.seg as usize).map(|s| s.inst)
            }
            (TileRef::Chosen, Some(Chosen::Top { inst, .. })) => Some(inst),
            _ => None,
        };
        inst.filter(|&i| (i as usize) < self.board.insts.len())
    }

    /// Run an effect of neutral figures or of the pile (see the module doc).
    pub(super) fn run_neutral_act(&mut self, rule: u16, a: &Act, ctx: &Ctx) {
        match a {
            Act::Put { neutral, on } => {
                if let Some(inst) = self.tile_of(*on, ctx) {
                    self.put_neutral(rule, *neutral, inst);
                }
            }
            Act::NoFigures { on } => {
                self.nf.no_figures = self.tile_of(*on, ctx).map(|i| (i, rule));
            }
            Act::Walk(w) => self.start_walk(rule, w, ctx),
            Act::ReturnOn {
                on,
                figures,
                rule: cite,
                tops,
            } => {
                if let Some(inst) = self.tile_of(*on, ctx) {
                    // The effect's own citation is borrowed (every step of a walk runs it).
                    let own;
                    let cite = match cite.as_deref() {
                        Some(c) => c,
                        None => {
                            own = self.when_id(rule).to_string();
                            &own
                        }
                    };
                    self.return_on(cite, inst, *figures);
                    if *tops {
                        self.return_top(cite, inst, *figures);
                    }
                }
            }
            Act::SetAside => self.nf.aside_now = self.nf.drawn.is_some(),
            Act::ShuffleBack => self.shuffle_back(rule),
            _ => {}
        }
    }

    /// Neutral figure `n` stands on tile instance `inst` (at its anchor cell), wherever it was.
    pub(super) fn put_neutral(&mut self, rule: u16, n: u16, inst: u32) {
        let i = self.board.insts[inst as usize];
        let Some(slot) = self.nf.at.get_mut(usize::from(n)) else {
            return;
        };
        *slot = Some((i.x, i.y));
        if self.log.record {
            self.log.events.push(Event::Neutral {
                turn: self.now.turn,
                rule: self.when_id(rule).to_string(),
                neutral: self.neutral_id(n).to_string(),
                x: i.x,
                y: i.y,
            });
        }
    }

    /// The id of neutral figure `n`.
    pub(super) fn neutral_id(&self, n: u16) -> &str {
        let rs = self.rules.ruleset();
        rs.neutrals
            .get(usize::from(n))
            .map_or("", |t| t.id.as_str())
    }

    /// Every figure of the types in `set` standing on tile instance `inst` returns to its
    /// owner's supply, scoring nothing, in the board's figure order.
    fn return_on(&mut self, cite: &str, inst: u32, set: FigureSet) {
        let mut left = Vec::new();
        let mut i = 0;
        while i < self.board.meeples.len() {
            let m = self.board.meeples[i];
            if set.has(m.ftype) && self.board.segs[m.seg as usize].inst == inst {
                let (gone, root) = self.remove_figure(i, cite);
                left.push((gone.player, root));
            } else {
                i += 1;
            }
        }
        for (owner, root) in left {
            self.alone_leave(cite, owner, root);
        }
    }

    /// PD-6's second Reading (`readings.needs_own_alone = "leaves"`): once no occupying figure
    /// of `owner`'s is left on the feature rooted at `root`, `owner`'s figures there that need
    /// one (`needs_own_figure`) go home too, citing `cite`. Under the registry's reading they stay.
    pub(super) fn alone_leave(&mut self, cite: &str, owner: u8, root: u32) {
        let leaves = self.rules.ruleset().readings.needs_own_alone == NeedsOwnAlone::Leaves;
        if !leaves || self.holds_own_figure(root, owner) {
            return;
        }
        let mut i = 0;
        while i < self.board.meeples.len() {
            let m = self.board.meeples[i];
            let needs_own = self.rules.figures[usize::from(m.ftype)].needs_own;
            if m.player == owner && needs_own && self.find_ro(m.seg) == root {
                self.remove_figure(i, cite);
            } else {
                i += 1;
            }
        }
    }

    /// Figure `i` of the board leaves it: the assignments to it end and its feature (rooted
    /// at the root returned) counts it no more. Where it goes is the caller's.
    pub(super) fn take_off(&mut self, i: usize) -> (Meeple, u32) {
        let f = self.board.meeples.remove(i);
        self.figure_left(f);
        let root = find(&mut self.board.segs, f.seg);
        let occupies = self.rules.figures[usize::from(f.ftype)].occupies;
        let s = &mut self.board.segs[root as usize];
        s.occ = s.occ.saturating_sub(1);
        if !occupies {
            s.guests = s.guests.saturating_sub(1);
        }
        (f, root)
    }

    /// Figure `i` of the board leaves it for its owner's supply, one `return` line citing
    /// `cite`; the figure and its feature's root.
    pub(super) fn remove_figure(&mut self, i: usize, cite: &str) -> (Meeple, u32) {
        let (f, root) = self.take_off(i);
        let nf = self.rules.figures.len();
        let slot = &mut self.seats.supply[usize::from(f.player) * nf + usize::from(f.ftype)];
        *slot = slot.saturating_add(1);
        if self.log.record {
            self.log.events.push(Event::Return {
                turn: self.now.turn,
                player: f.player,
                follower: self.rules.follower_id(f.ftype).to_string(),
                feature: FeatureId(root),
                rule: Some(cite.to_string()),
            });
        }
        (f, root)
    }

    /// Whether tile type `t` carries tag `tag`, on the tile or on a segment.
    fn type_has_tag(&self, t: u16, tag: u32) -> bool {
        let tags = self.rules.tiles[usize::from(t)].any_tags;
        tags.checked_shr(tag).unwrap_or(0) & 1 != 0
    }

    /// Whether the tile being drawn passes a `draw` rule's tag filter. Before a tile is drawn
    /// (the hand a seat draws up to, W-12: `hand_size`) only an untagged rule holds.
    pub(super) fn drawn_has(&self, tag: Option<u32>) -> bool {
        match (self.nf.drawn, tag) {
            (Some(t), Some(tag)) => self.type_has_tag(t, tag),
            (_, None) => true,
            (None, Some(_)) => false,
        }
    }

    /// Tile `t` was drawn: raise `draw`; true when a rule set it aside (the seat draws again).
    pub(super) fn rule_draw(&mut self, t: u16) -> bool {
        self.nf.drawn = Some(t);
        self.nf.aside_now = false;
        self.raise(crate::rules::when::Kind::Draw, &Ctx::of(self.now.active));
        self.nf.drawn = None;
        if !std::mem::take(&mut self.nf.aside_now) {
            return false;
        }
        self.nf.set_aside.push(t);
        if self.log.record {
            let rule = self.draw_rule_id();
            self.log.events.push(Event::SetAside {
                turn: self.now.turn + 1,
                player: self.now.player,
                tile: self.rules.tile_id(t).to_string(),
                rule,
            });
        }
        true
    }

    /// The id of the first rule setting a drawn tile aside.
    fn draw_rule_id(&self) -> String {
        let rs = self.rules.ruleset();
        let w = self.rules.when.rules(crate::rules::when::Kind::Draw);
        let first = w
            .iter()
            .map(|&i| &rs.when[usize::from(i)])
            .find(|w| w.then.contains(&Act::SetAside));
        first.map_or(String::new(), |w| w.rule.clone())
    }

    /// The tiles set aside go back into the remaining pile, each at a position of it drawn
    /// from a stream keyed by the pile as set up (itself the seeded shuffle's, and what the
    /// log's setup line records, so a replay draws the same positions); under the reading
    /// `shuffle_back = "bottom"`, under the pile in the order set aside.
    fn shuffle_back(&mut self, rule: u16) {
        if self.nf.set_aside.is_empty() {
            return;
        }
        if self.nf.setup_pile.is_empty() {
            self.nf.setup_pile = self.deck.pile.clone();
        }
        let key = self
            .nf
            .setup_pile
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &t| {
                (h ^ u64::from(t)).wrapping_mul(0x0100_0000_01b3)
            });
        let mut rng = Rng::new(derive_seed(key, u64::from(self.now.turn)));
        let bottom =
            self.rules.ruleset().readings.shuffle_back == tegula_ruleset::ShuffleBack::Bottom;
        let tiles = std::mem::take(&mut self.nf.set_aside);
        let mut at = Vec::with_capacity(tiles.len());
        for &t in &tiles {
            let remaining = self.deck.pile.len() - self.deck.drawn;
            let k = if bottom {
                remaining
            } else {
                rng.below(remaining as u32 + 1) as usize
            };
            self.deck.pile.insert(self.deck.drawn + k, t);
            self.deck.left[usize::from(t)] += 1;
            let key = self.rules.left_keys[usize::from(t)];
            self.zobrist = self.zobrist.wrapping_add(key);
            at.push(k as u32);
        }
        self.deck.revealed = if self.deck.chance {
            self.deck.drawn
        } else {
            self.deck.pile.len()
        };
        if self.log.record {
            let ids = tiles.iter().map(|&t| self.rules.tile_id(t).to_string());
            self.log.events.push(Event::ShuffleBack {
                turn: self.now.turn,
                rule: self.when_id(rule).to_string(),
                tiles: ids.collect(),
                at,
            });
        }
    }

    /// Whether a figure of type `ftype` may be asked for now: the figure step is open, and no
    /// rule keeps figures off the tile just placed (PD-2).
    pub(super) fn figure_step_open(&self, ftype: u8) -> Result<(), MoveError> {
        if self.now.phase != Phase::Follower {
            return Err(MoveError::WrongPhase {
                phase: self.now.phase,
            });
        }
        match self.blocked_rule(ftype) {
            Some(rule) => Err(MoveError::BlockedTile { rule }),
            None => Ok(()),
        }
    }

    /// The rule keeping a figure of type `ftype` off the tile just placed, if one does (a
    /// corner figure stands beside the tile, not on it).
    pub(super) fn blocked_rule(&self, ftype: u8) -> Option<String> {
        let (inst, rule) = self.nf.no_figures?;
        let corner = self.rules.figures.get(usize::from(ftype))?.corner.is_some();
        let last = self.board.insts.len() as u32 == inst + 1;
        (last && !corner).then(|| self.when_id(rule).to_string())
    }

    /// After the figure options are listed: none on a tile [`Act::NoFigures`] named this turn
    /// (figures beside a tile, on its corners, stay).
    pub(super) fn drop_blocked_options(&mut self) {
        let Some((inst, _)) = self.nf.no_figures else {
            return;
        };
        if self.board.insts.len() as u32 != inst + 1 {
            return;
        }
        let figures = &self.rules.figures;
        self.legal.options.retain(|o| {
            figures
                .get(usize::from(o.follower))
                .is_some_and(|f| f.corner.is_some())
        });
    }
}
