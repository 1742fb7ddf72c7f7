//! The one rule form's dispatcher (docs/design/rule-form.md, "What the engine needs" 1): the
//! engine raises an event where it already acts (a tile placed, the figure step, a figure
//! placed, a feature completed or scored, a turn's start and end, the game's end); the rules of
//! the ruleset waiting for that event run in file order, each whose filter matches and whose
//! test holds over the event's subject ([`RuleCounts`]). A rule's automatic effects run at once
//! (`effects.rs`); its offer is left for the choices (see `game/choice.rs`).
//!
//! A variant with no rule for an event pays one test of a bit at its hook ([`Rules`]' index);
//! an event whose every rule asks a tag of the tile placed (or the type drawn) is raised only
//! for a tile carrying one of those tags ([`Game::placed_may_match`]).

use std::sync::Arc;

use tegula_ruleset::{FeatureKind, PieceKind, RuleEvent, ScoredAt, When};

use super::rule_state::PendingOffer;
use super::{find, Game};
use crate::rules::when::Kind;
#[cfg(doc)]
use crate::rules::Rules;

/// A figure on the board: its owner, type and the segment it stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FigureRef {
    /// Owner seat.
    pub player: u8,
    /// Figure type.
    pub ftype: u8,
    /// The segment it stands on.
    pub seg: u32,
}

/// What an offer's choice named ([`tegula_ruleset::Options`]; `game/choice.rs` makes them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Chosen {
    /// A figure of the chooser's on the board.
    Figure(FigureRef),
    /// A placed tile (its instance).
    Tile(u32),
    /// A kind of piece.
    Kind(PieceKind),
    /// A site for a figure of the chooser's from supply (PD-11): the segment it goes on and
    /// its figure type.
    Site {
        /// The segment (of the feature's first tile in placement order).
        seg: u32,
        /// Figure type.
        ftype: u8,
    },
    /// A figure on top of the stack on a tile instance: owner and type.
    Top {
        /// The stack's tile instance.
        inst: u32,
        /// Owner seat.
        player: u8,
        /// Figure type.
        ftype: u8,
    },
    /// A figure of the chooser's held by another seat (of the taker's, in an exchange).
    Captive {
        /// The seat holding it.
        holder: u8,
        /// Figure type.
        ftype: u8,
    },
}

impl Chosen {
    /// The owner of a chosen figure on the board or on top of a stack.
    pub(crate) fn owner(self) -> Option<u8> {
        match self {
            Chosen::Figure(f) => Some(f.player),
            Chosen::Top { player, .. } => Some(player),
            _ => None,
        }
    }
}

/// The placed tile a carried rule ([`tegula_ruleset::When::tile`]) acts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Carrier {
    /// Its tile type.
    pub tile: u16,
    /// Its instance.
    pub inst: u32,
    /// Its owner.
    pub owner: u8,
    /// Whether it was placed in the current turn.
    pub fresh: bool,
}

/// What a rule's test and effects read: the event's actor, subject and winners, and, for an
/// offer's effects, the choice made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Ctx {
    /// The seat whose turn it is.
    pub actor: u8,
    /// The subject tile (its instance): the tile just placed, the tile of the figure just
    /// placed, the tile completing a feature.
    pub tile: Option<u32>,
    /// The subject feature (a segment of it; its root is found when read).
    pub feature: Option<u32>,
    /// The subject figure (a figure just placed).
    pub figure: Option<FigureRef>,
    /// Whether the game is under way (false in final scoring).
    pub during: bool,
    /// The subject feature's winners (B-5), bit per seat.
    pub winners: u32,
    /// The seat that made the offer's choice.
    pub chooser: Option<u8>,
    /// What the choice named.
    pub chosen: Option<Chosen>,
    /// The completed cities of the part of the subject feature paid, when not the feature's
    /// own (a former field of a corner-figure join, one city of the first edition's fields).
    pub cities: Option<u32>,
    /// The tile a carried rule acts for.
    pub carrier: Option<Carrier>,
}

impl Ctx {
    /// The feature the rule's values read (a segment of it): the chosen figure's, once an
    /// offer's choice named one (AB-4's `1 + neighbours` is the chosen cloister's), else the
    /// event's subject feature.
    pub(crate) fn subject_feature(&self) -> Option<u32> {
        match self.chosen {
            Some(Chosen::Figure(f)) => Some(f.seg),
            Some(Chosen::Site { seg, .. }) => Some(seg),
            _ => self.feature,
        }
    }

    /// The context of an event of `actor`'s turn with no subject yet.
    pub(crate) fn of(actor: u8) -> Ctx {
        Ctx {
            actor,
            tile: None,
            feature: None,
            figure: None,
            during: true,
            winners: 0,
            chooser: None,
            chosen: None,
            cities: None,
            carrier: None,
        }
    }
}

impl Game {
    /// Whether some rule of the one form waits for events of `kind`.
    #[inline(always)]
    pub(super) fn waits(&self, kind: Kind) -> bool {
        self.rules.when.kinds & kind.bit() != 0
    }

    /// Whether a rule of `kind` may match the tile just placed, once [`Game::waits`] says some
    /// rule waits for it: when every rule of the kind asks a tag of that tile, only if the tile
    /// carries one of them (a rule of a rare tile is not tested on every other tile).
    #[inline]
    pub(super) fn placed_may_match(&self, kind: Kind) -> bool {
        let last = self.board.insts.len().checked_sub(1);
        (self.rules.when).may_match(kind, || last.map_or(0, |i| self.tile_tags(i as u32)))
    }

    /// [`Game::placed_may_match`] for `draw` and the tile type `t` being drawn.
    #[inline]
    pub(super) fn drawn_may_match(&self, t: u16) -> bool {
        let tags = || self.rules.tiles[usize::from(t)].any_tags;
        self.rules.when.may_match(Kind::Draw, tags)
    }

    /// Raise an event of `kind` about `ctx`: every rule waiting for it whose filter matches and
    /// whose test holds runs its effects — first the rules tiles carry, for each owned tile in
    /// the order the tiles got their owners (`game/tile_rules.rs`), then the others in file
    /// order; a rule's offer, if any, is left pending.
    pub(super) fn raise(&mut self, kind: Kind, ctx: &Ctx) {
        let rules = Arc::clone(&self.rules);
        if !rules.when.carried(kind).is_empty() {
            self.raise_carried(rules.when.carried(kind), ctx);
        }
        for &i in rules.when.rules(kind) {
            self.run_rule(&rules.ruleset().when[usize::from(i)], i, ctx);
        }
    }

    /// Rule `w` (index `i`) on `ctx`: its effects when its filter matches and its test holds.
    pub(super) fn run_rule(&mut self, w: &When, i: u16, ctx: &Ctx) {
        if !self.rule_holds(w, ctx) {
            return;
        }
        self.run_acts(i, &w.then, ctx);
        if w.offer.is_some() {
            // offers: see game/choice.rs (the choices take them off `rf.offers`).
            self.rf.offers.push(PendingOffer { rule: i, ctx: *ctx });
        }
    }

    /// Whether rule `w`'s filter matches `ctx` and its test holds there.
    pub(super) fn rule_holds(&self, w: &When, ctx: &Ctx) -> bool {
        if !self.matches(&w.event, ctx) {
            return false;
        }
        let test = w.test.as_ref();
        test.is_none_or(|t| t.holds(&mut RuleCounts::new(self, ctx, ctx.actor)))
    }

    /// Whether the event's filters (a tile's tag, a figure type, feature kinds, the time of a
    /// scoring) accept `ctx`.
    fn matches(&self, event: &RuleEvent, ctx: &Ctx) -> bool {
        let kind_in = |kinds: &[FeatureKind]| {
            kinds.is_empty()
                || ctx
                    .feature
                    .is_some_and(|f| kinds.contains(&self.board.segs[f as usize].kind))
        };
        match event {
            RuleEvent::TilePlaced { tag: Some(t) }
            | RuleEvent::FigureStepOn { tag: t }
            | RuleEvent::BeforeScoring { tag: Some(t) } => {
                ctx.tile.is_some_and(|i| self.tile_has_tag(i, *t))
            }
            RuleEvent::Draw { tag } => self.drawn_has(*tag),
            // Once per turn: not for the second part of a double turn (TB-5).
            RuleEvent::TurnStart => !self.now.in_extra,
            RuleEvent::FigurePlaced { figure: Some(f) }
            | RuleEvent::Joined { figure: Some(f) }
            | RuleEvent::FigureAtEnd { figure: Some(f) } => {
                ctx.figure.is_some_and(|m| m.ftype == *f)
            }
            RuleEvent::FeatureCompleted { kinds } | RuleEvent::FeaturePaid { kinds } => {
                kind_in(kinds)
            }
            RuleEvent::FeatureScored { kinds, at } => {
                let when = match at {
                    ScoredAt::Any => true,
                    ScoredAt::Game => ctx.during,
                    ScoredAt::End => !ctx.during,
                };
                when && kind_in(kinds)
            }
            _ => true,
        }
    }

    /// The context of an event about the tile just placed.
    fn placed_ctx(&self) -> Ctx {
        Ctx {
            tile: self.board.insts.len().checked_sub(1).map(|i| i as u32),
            ..Ctx::of(self.now.active)
        }
    }

    /// A tile was placed (every placement a player makes, `place_drawn`): note its placer and
    /// raise `tile-placed`. Called only in variants with rules of the one form.
    pub(super) fn rule_tile_placed(&mut self) {
        let inst = self.board.insts.len() as u32 - 1;
        self.rf.note_placed(inst, self.now.player);
        self.nf.no_figures = None;
        if self.waits(Kind::TilePlaced) && self.placed_may_match(Kind::TilePlaced) {
            let ctx = self.placed_ctx();
            self.raise(Kind::TilePlaced, &ctx);
        }
    }

    /// The figure step of the tile just placed begins: raise `figure-step` (its offers are
    /// listed beside the figure options by the choices).
    pub(super) fn rule_figure_step(&mut self) {
        let ctx = self.placed_ctx();
        self.raise(Kind::FigureStep, &ctx);
    }

    /// A figure of type `ftype` was placed from supply on segment `seg`: `figure-placed`.
    pub(super) fn rule_figure_placed(&mut self, ftype: u8, seg: u32) {
        let figure = FigureRef {
            player: self.now.player,
            ftype,
            seg,
        };
        let ctx = Ctx {
            feature: Some(find(&mut self.board.segs, seg)),
            figure: Some(figure),
            tile: Some(self.board.segs[seg as usize].inst),
            ..Ctx::of(self.now.active)
        };
        self.raise(Kind::FigurePlaced, &ctx);
    }

    /// The feature rooted at `root` was completed during the game, before it scores.
    pub(super) fn rule_completed(&mut self, root: u32) {
        let ctx = Ctx {
            feature: Some(root),
            ..self.placed_ctx()
        };
        self.raise(Kind::FeatureCompleted, &ctx);
    }

    /// The feature rooted at `root` was scored (during the game with `during`), its winners
    /// `winners` (bit per seat).
    pub(super) fn rule_scored(&mut self, root: u32, during: bool, winners: u32) {
        let ctx = self.feature_ctx(root, during, winners);
        self.raise(Kind::FeatureScored, &ctx);
    }

    /// The context of a scoring or payment of the feature rooted at `root` to `winners`:
    /// during the game, the tile just placed is the subject tile.
    fn feature_ctx(&self, root: u32, during: bool, winners: u32) -> Ctx {
        let base = if during {
            self.placed_ctx()
        } else {
            Ctx::of(self.now.active)
        };
        Ctx {
            feature: Some(root),
            during,
            winners,
            ..base
        }
    }

    /// The feature rooted at `root` was paid to its majority `winners` (bit per seat), its
    /// counts those of the part paid (`cities`, when not the feature's own): `feature-paid`.
    pub(super) fn rule_paid(&mut self, root: u32, winners: u32, cities: Option<u32>) {
        let during = self.log.final_from.is_none();
        let ctx = Ctx {
            cities,
            ..self.feature_ctx(root, during, winners)
        };
        self.raise(Kind::FeaturePaid, &ctx);
    }

    /// The game is over, after final scoring: `game-over` (TB-3's awards).
    pub(super) fn rule_game_over(&mut self) {
        let ctx = Ctx {
            during: false,
            ..Ctx::of(self.now.active)
        };
        self.raise(Kind::GameOver, &ctx);
    }

    /// A turn begins (the seat `self.now.active`): the tokens' records are the turn's, then
    /// `turn-start` — unless nothing is left to play (the pile empty, no tile kept, held or
    /// owned: the game ends instead of the turn).
    pub(super) fn rule_turn_start(&mut self) {
        self.rf.begin_turn();
        // "Once a turn" offers taken in the turn before (an extra turn is the same turn's).
        if !self.now.in_extra {
            self.st.taken.clear();
        }
        let playable = self.deck.drawn < self.deck.pile.len()
            || !self.w.held.is_empty()
            || !self.w.kept.is_empty()
            || !self.rules.ruleset().player_tiles.is_empty();
        if playable && self.waits(Kind::TurnStart) {
            self.raise(Kind::TurnStart, &Ctx::of(self.now.active));
        }
    }

    /// The figure step is over, the turn's scoring is next: `before-scoring` about the tile
    /// just placed.
    pub(super) fn rule_before_scoring(&mut self) {
        let ctx = self.placed_ctx();
        self.raise(Kind::BeforeScoring, &ctx);
    }

    /// The turn ends, after its scorings: `turn-end`.
    pub(super) fn rule_turn_end(&mut self) {
        self.raise(Kind::TurnEnd, &Ctx::of(self.now.active));
    }

    /// The game ends, before final scoring: `game-end`.
    pub(super) fn rule_game_end(&mut self) {
        let ctx = Ctx {
            during: false,
            ..Ctx::of(self.now.active)
        };
        self.raise(Kind::GameEnd, &ctx);
    }

    /// A placement joined a feature holding figures to the one rooted at `root`, beside which
    /// `figure` stands (the first such figure, AM-8): `joined`.
    pub(super) fn rule_joined(&mut self, root: u32, figure: FigureRef) {
        let ctx = Ctx {
            feature: Some(root),
            figure: Some(figure),
            ..self.placed_ctx()
        };
        self.raise(Kind::Joined, &ctx);
    }

    /// After final scoring: `figure-at-end` once for each figure on the board, those on
    /// features first (in the board's order), then those beside them (in the order placed).
    pub(super) fn rule_figures_at_end(&mut self) {
        let on = self
            .board
            .meeples
            .iter()
            .map(|m| (m.player, m.ftype, m.seg));
        let beside = self
            .board
            .corner_figs
            .iter()
            .map(|c| (c.player, c.ftype, c.seg));
        let all: Vec<FigureRef> = on
            .chain(beside)
            .map(|(player, ftype, seg)| FigureRef { player, ftype, seg })
            .collect();
        for figure in all {
            let ctx = Ctx {
                feature: Some(find(&mut self.board.segs, figure.seg)),
                figure: Some(figure),
                tile: Some(self.board.segs[figure.seg as usize].inst),
                during: false,
                ..Ctx::of(self.now.active)
            };
            self.raise(Kind::FigureAtEnd, &ctx);
        }
    }

    /// The winners of a feature (B-5) from the strengths on it, bit per seat (nobody when the
    /// top strength is 0).
    pub(super) fn winner_bits(&self, strength: &[u32; 32]) -> u32 {
        let seats = &strength[..usize::from(self.seats.players)];
        let best = seats.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return 0;
        }
        let won = seats.iter().enumerate().filter(|(_, &s)| s == best);
        won.fold(0, |m, (p, _)| m | 1 << p)
    }
}

pub(super) use super::rule_counts::RuleCounts;

#[cfg(test)]
mod corner_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tile_tests;
