//! The one rule form's index (docs/design/rule-form.md, "What the engine needs" 1): the rules of
//! [`Ruleset::when`] by event kind, in file order, with a bit per kind, so that a variant with no
//! rule for an event pays one predictable branch at its hook; and the checks of the indices the
//! rules name (tokens, counters, resources, figures, tags).

use tegula_ruleset::{Act, Avoid, Offer, Options, RuleEvent, Ruleset, Seat, When, CHOSEN};

use super::error::RulesReason;

/// The event kinds of [`RuleEvent`], as bit positions of [`WhenIndex::kinds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    /// [`RuleEvent::TilePlaced`].
    TilePlaced,
    /// [`RuleEvent::FigureStep`].
    FigureStep,
    /// [`RuleEvent::FigurePlaced`].
    FigurePlaced,
    /// [`RuleEvent::FeatureCompleted`].
    FeatureCompleted,
    /// [`RuleEvent::FeatureScored`].
    FeatureScored,
    /// [`RuleEvent::TurnStart`].
    TurnStart,
    /// [`RuleEvent::TurnEnd`].
    TurnEnd,
    /// [`RuleEvent::GameEnd`].
    GameEnd,
    /// [`RuleEvent::GameOver`].
    GameOver,
    /// [`RuleEvent::Joined`].
    Joined,
    /// [`RuleEvent::FigureAtEnd`].
    FigureAtEnd,
    /// [`RuleEvent::FeaturePaid`].
    FeaturePaid,
    /// [`RuleEvent::TurnFinished`].
    TurnFinished,
    /// [`RuleEvent::Chained`] (never raised: [`Act::Offer`] makes its offers).
    Chained,
    /// [`RuleEvent::BeforeScoring`].
    BeforeScoring,
    /// [`RuleEvent::Draw`].
    Draw,
}

/// How many [`Kind`]s there are (the last one's position, plus one: a literal went stale when
/// two branches each added kinds).
const KINDS: usize = Kind::Draw as usize + 1;

impl Kind {
    /// The kind of an event.
    pub(crate) fn of(e: &RuleEvent) -> Kind {
        match e {
            RuleEvent::TilePlaced { .. } => Kind::TilePlaced,
            RuleEvent::FigureStep | RuleEvent::FigureStepOn { .. } => Kind::FigureStep,
            RuleEvent::FigurePlaced { .. } => Kind::FigurePlaced,
            RuleEvent::FeatureCompleted { .. } => Kind::FeatureCompleted,
            RuleEvent::FeatureScored { .. } => Kind::FeatureScored,
            RuleEvent::TurnStart | RuleEvent::TurnStartEach => Kind::TurnStart,
            RuleEvent::TurnEnd => Kind::TurnEnd,
            RuleEvent::GameEnd => Kind::GameEnd,
            RuleEvent::GameOver => Kind::GameOver,
            RuleEvent::Joined { .. } => Kind::Joined,
            RuleEvent::FigureAtEnd { .. } => Kind::FigureAtEnd,
            RuleEvent::FeaturePaid { .. } => Kind::FeaturePaid,
            RuleEvent::TurnFinished => Kind::TurnFinished,
            RuleEvent::Chained => Kind::Chained,
            RuleEvent::BeforeScoring { .. } => Kind::BeforeScoring,
            RuleEvent::Draw { .. } => Kind::Draw,
        }
    }

    /// Its bit in [`WhenIndex::kinds`].
    #[inline(always)]
    pub(crate) const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The rules of the one form by event kind.
#[derive(Clone, Debug, Default)]
pub(crate) struct WhenIndex {
    /// Bit [`Kind::bit`] set when some rule waits for that kind (0: the variant has none).
    pub kinds: u16,
    /// By kind, the indices into [`Ruleset::when`] of its rules no tile carries, in file order.
    pub by_kind: [Vec<u16>; KINDS],
    /// By kind, the rules tiles carry ([`When::tile`]): `(tile type, index into
    /// [`Ruleset::when`])`, in file order.
    pub carried: [Vec<(u16, u16)>; KINDS],
    /// The kinds (bit [`Kind::bit`]) whose every rule asks a tag of the subject tile
    /// (`tile-placed`, `figure-step`, `before-scoring`, `draw` with a `tag`) and that no tile carries
    /// a rule for: a tile with none of [`WhenIndex::kind_tags`]'s tags raises nothing.
    pub tagged_only: u16,
    /// By kind, the tags its rules ask of the subject tile, bit per tag.
    pub kind_tags: [u32; KINDS],
    /// By tile type, whether it carries a rule (empty when none does).
    pub carriers: Vec<bool>,
    /// Whether some rule grants an extra turn ([`Act::ExtraTurn`]).
    pub extra_turn: bool,
    /// Whether some rule scores a joined feature part by part ([`Act::ScoreFeature`]'s
    /// `each_part`): placements then record the features they join as they were.
    pub each_part: bool,
    /// Whether some rule walks a neutral figure ([`Act::Walk`]).
    pub walks: bool,
    /// Whether some `draw` rule sets a hand ([`Act::Hand`]): without one every seat holds the
    /// variant's hand, and the draw asks no rule.
    pub hands: bool,
    /// Whether some `draw` rule acts on the drawn tile: one that only sets the hand
    /// ([`Act::Hand`], read before the draw by `hand_size`) does nothing when a tile is drawn,
    /// so the draw raises no event for it.
    pub draw_acts: bool,
}

impl WhenIndex {
    /// The index of `rules` (checked by [`check_when`] first).
    pub(crate) fn new(rules: &[When]) -> WhenIndex {
        let mut ix = WhenIndex::default();
        for (i, w) in rules.iter().enumerate() {
            let k = Kind::of(&w.event);
            ix.kinds |= k.bit();
            match w.tile {
                Some(t) => {
                    ix.carried[k as usize].push((t, i as u16));
                    let t = usize::from(t);
                    if ix.carriers.len() <= t {
                        ix.carriers.resize(t + 1, false);
                    }
                    ix.carriers[t] = true;
                }
                None => ix.by_kind[k as usize].push(i as u16),
            }
            let offered = w.offer.iter().flat_map(|o| &o.then);
            let acts: Vec<&Act> = w.then.iter().chain(offered).collect();
            ix.extra_turn |= acts.iter().any(|a| **a == Act::ExtraTurn);
            let by_part = |a: &&Act| {
                matches!(
                    a,
                    Act::ScoreFeature {
                        each_part: true,
                        ..
                    }
                )
            };
            ix.each_part |= acts.iter().any(by_part);
            ix.walks |= acts.iter().any(|a| matches!(a, Act::Walk(_)));
            ix.draw_acts |= k == Kind::Draw && acts.iter().any(|a| !matches!(a, Act::Hand { .. }));
            ix.hands |= k == Kind::Draw && acts.iter().any(|a| matches!(a, Act::Hand { .. }));
        }
        ix.note_tile_tags(rules);
        ix
    }

    /// [`WhenIndex::tagged_only`] and [`WhenIndex::kind_tags`] of `rules`.
    fn note_tile_tags(&mut self, rules: &[When]) {
        let tile_tag = |w: &When| match w.event {
            RuleEvent::BeforeScoring { tag } | RuleEvent::Draw { tag } => tag,
            ref e => event_tag(e),
        };
        for k in 0..KINDS {
            let mine = self.by_kind[k].iter().map(|&i| &rules[usize::from(i)]);
            let tags: Option<Vec<u32>> = mine.map(tile_tag).collect();
            let Some(tags) = tags.filter(|t| !t.is_empty() && self.carried[k].is_empty()) else {
                continue;
            };
            self.tagged_only |= 1 << k;
            // A tag past the tile's tag word never matches (`Game::tile_has_tag`).
            let bit = |t: u32| 1u32.checked_shl(t).unwrap_or(0);
            self.kind_tags[k] = tags.into_iter().fold(0, |m, t| m | bit(t));
        }
    }

    /// Whether a rule of `kind` may match a subject tile carrying `tags` (read only when
    /// needed): always, unless every rule of the kind asks one of [`WhenIndex::kind_tags`].
    #[inline]
    pub(crate) fn may_match(&self, kind: Kind, tags: impl FnOnce() -> u32) -> bool {
        self.tagged_only & kind.bit() == 0 || tags() & self.kind_tags[kind as usize] != 0
    }

    /// The rules no tile carries waiting for `kind`, in file order.
    #[inline]
    pub(crate) fn rules(&self, kind: Kind) -> &[u16] {
        &self.by_kind[kind as usize]
    }

    /// The rules tiles carry waiting for `kind`: `(tile type, rule)`, in file order.
    #[inline]
    pub(crate) fn carried(&self, kind: Kind) -> &[(u16, u16)] {
        &self.carried[kind as usize]
    }
}

/// The tag an event's filter names of the tile just placed (a `tile-placed` or `figure-step`
/// rule's `tag`).
pub(crate) fn event_tag(e: &RuleEvent) -> Option<u32> {
    match e {
        RuleEvent::TilePlaced { tag } => *tag,
        RuleEvent::FigureStepOn { tag } => Some(*tag),
        _ => None,
    }
}

/// The most rules of the one form a variant may have (indices are `u16`).
const MAX_WHEN: usize = u16::MAX as usize;

/// Every index a rule of the one form names must name something: a token, a counter, a
/// resource, a figure type, a tag (a bit of the feature tag sets); and no `feature-scored` rule
/// may score a feature itself (it would raise its own event without end).
pub(super) fn check_when(rs: &Ruleset, reasons: &mut Vec<RulesReason>) {
    if rs.when.len() > MAX_WHEN {
        reasons.push(RulesReason::TooManyRules {
            count: rs.when.len(),
            max: MAX_WHEN,
        });
        return;
    }
    for w in &rs.when {
        let scores_feature = |a: &Act| matches!(a, Act::ScoreFeature { .. });
        let offered = w.offer.iter().flat_map(|o| &o.then);
        if Kind::of(&w.event) == Kind::FeatureScored
            && w.then.iter().chain(offered).any(scores_feature)
        {
            reasons.push(RulesReason::RuleFormLoop {
                rule: w.rule.clone(),
            });
        }
        let misplaced = w
            .offer
            .as_ref()
            .and_then(|o| offer_misplaced(rs, &w.event, o));
        if let Some(why) = misplaced {
            reasons.push(RulesReason::OfferPlace {
                rule: w.rule.clone(),
                why,
            });
        }
        let mut bad = |what: &'static str, index: u32| {
            reasons.push(RulesReason::RuleFormIndex {
                rule: w.rule.clone(),
                what,
                index,
            });
        };
        let tags = rs.tags.len().min(u32::BITS as usize);
        if let Some(t) = w.tile.filter(|&t| usize::from(t) >= rs.tiles.len()) {
            bad("tile", u32::from(t));
        }
        if let RuleEvent::TilePlaced { tag: Some(t) }
        | RuleEvent::FigureStepOn { tag: t }
        | RuleEvent::BeforeScoring { tag: Some(t) }
        | RuleEvent::Draw { tag: Some(t) } = w.event
        {
            if t as usize >= tags {
                bad("tag", t);
            }
        }
        if let RuleEvent::FigurePlaced { figure: Some(f) }
        | RuleEvent::Joined { figure: Some(f) }
        | RuleEvent::FigureAtEnd { figure: Some(f) } = w.event
        {
            if usize::from(f) >= rs.followers.len() {
                bad("figure", u32::from(f));
            }
        }
        let kinds = w.offer.as_ref().map_or(&[][..], |o| match &o.options {
            Options::Kind { of } => of.as_slice(),
            _ => &[],
        });
        for k in kinds {
            check_index(rs, "resource", k.resource, false, &mut bad);
            check_index(rs, "counter", k.counter, false, &mut bad);
        }
        if let Some(o) = &w.offer {
            check_options(rs, &o.options, &mut bad);
            check_seat(rs, &o.to, &mut bad);
        }
        let chosen_kind = !kinds.is_empty();
        let offered = w.offer.iter().flat_map(|o| &o.then);
        for a in w.then.iter() {
            check_act(rs, a, false, &mut bad);
        }
        for a in offered {
            check_act(rs, a, chosen_kind, &mut bad);
        }
    }
}

/// An ability (kept in the artefact as its description) must have its lowered rule: a tile
/// carrying none would silently not play it (an artefact compiled before the lowering).
pub(super) fn check_unlowered(rs: &Ruleset, reasons: &mut Vec<RulesReason>) {
    let mut left = |owner: &str, what: &'static str| {
        reasons.push(RulesReason::UnloweredShortForm {
            owner: owner.to_string(),
            what,
        });
    };
    for (i, t) in rs.tiles.iter().enumerate() {
        // Each ability (kept in the artefact as its description) has its lowered rule on the
        // tile: a rule citing its id that the tile carries.
        let lowered = |rule: &str| {
            rs.when
                .iter()
                .any(|w| w.tile == Some(i as u16) && w.rule == rule)
        };
        if t.abilities.iter().any(|a| !lowered(&a.rule)) {
            left(&t.id, "ability");
        }
    }
}

/// The indices one effect names ([`CHOSEN`] only in an offer of kinds).
fn check_act(rs: &Ruleset, a: &Act, chosen: bool, bad: &mut impl FnMut(&'static str, u32)) {
    match a {
        Act::Score { to, .. } => check_seat(rs, to, bad),
        Act::Gain { resource, to, .. } => {
            check_index(rs, "resource", *resource, chosen, bad);
            check_seat(rs, to, bad);
        }
        Act::Token { token, to, .. } => {
            check_index(rs, "token", *token, false, bad);
            check_seat(rs, to, bad);
        }
        Act::Counters { counter, .. } => check_index(rs, "counter", *counter, chosen, bad),
        Act::Take {
            counter, into, to, ..
        } => {
            check_index(rs, "counter", *counter, false, bad);
            check_index(rs, "resource", *into, false, bad);
            check_seat(rs, to, bad);
        }
        Act::Hand { to, .. } => check_seat(rs, to, bad),
        Act::Figures { figure, to, .. } => {
            if usize::from(*figure) >= rs.followers.len() {
                bad("figure", u32::from(*figure));
            }
            check_seat(rs, to, bad);
        }
        Act::Advance { track, .. } => {
            if usize::from(*track) >= rs.tracks.len() {
                bad("track", u32::from(*track));
            }
        }
        Act::Put { neutral, .. } | Act::Assign { neutral } | Act::Unassign { neutral } => {
            check_index(rs, "neutral", *neutral, false, bad)
        }
        Act::Offer { rule } => {
            if chained_rule(&rs.when, rule).is_none() {
                bad("chained rule", 0);
            }
        }
        Act::Walk(w) => {
            check_index(rs, "neutral", w.neutral, false, bad);
            for a in &w.avoid {
                match a {
                    Avoid::Neutral(n) => check_index(rs, "neutral", *n, false, bad),
                    Avoid::Tag(t) if *t as usize >= rs.tags.len().min(32) => bad("tag", *t),
                    _ => {}
                }
            }
            for a in &w.on_enter {
                check_act(rs, a, false, bad);
            }
        }
        Act::ReturnOn { figures, .. } => {
            if figures
                .0
                .checked_shr(rs.followers.len() as u32)
                .unwrap_or(0)
                != 0
            {
                bad("figure", figures.0);
            }
        }
        Act::ExtraTurn
        | Act::ReturnChosen
        | Act::ScoreFeature { .. }
        | Act::ScoreFigure { .. }
        | Act::Place
        | Act::NoFigures { .. }
        | Act::SetAside
        | Act::ShuffleBack
        | Act::AddPiece
        | Act::Top
        | Act::Capture { .. }
        | Act::ExchangeBack
        | Act::Redeem { .. } => {}
    }
}

/// Why offer `o` of a rule waiting for `event` cannot be made, if it cannot: pool tiles are
/// offered only at `turn-finished` and only with a pool, and that event offers nothing else;
/// a seat order other than turn order and `repeat` belong to pool tiles (game/pool.rs makes
/// those offers, game/choice.rs the others).
fn offer_misplaced(rs: &Ruleset, event: &RuleEvent, o: &Offer) -> Option<&'static str> {
    let pool_tile = o.options == Options::PoolTile;
    let finished = *event == RuleEvent::TurnFinished;
    if pool_tile && rs.pool.is_none() {
        Some("offers pool tiles, but the ruleset has no pool")
    } else if pool_tile != finished {
        Some("is made at `turn-finished` exactly when it offers pool tiles")
    } else if !pool_tile && (o.repeat || !o.order.is_default()) {
        Some("has `repeat` or a seat order, which only pool-tile offers have")
    } else {
        None
    }
}

/// The rule id of rule `rule` of `rules` (empty past the end).
pub(crate) fn rule_id(rules: &[When], rule: u16) -> &str {
    rules.get(usize::from(rule)).map_or("", |w| w.rule.as_str())
}

/// The index of the first [`RuleEvent::Chained`] rule with id `id` and an offer.
pub(crate) fn chained_rule(rules: &[When], id: &str) -> Option<u16> {
    let found = rules
        .iter()
        .position(|w| w.rule == id && w.event == RuleEvent::Chained && w.offer.is_some());
    found.and_then(|i| u16::try_from(i).ok())
}

/// The indices an offer's options name: a figure type, a stack type.
fn check_options(rs: &Ruleset, o: &Options, bad: &mut impl FnMut(&'static str, u32)) {
    let figures: &[u8] = match o {
        Options::OwnFigure {
            figure: Some(f), ..
        } => std::slice::from_ref(f),
        Options::InReach { figures, .. } => figures,
        _ => &[],
    };
    for &f in figures {
        if usize::from(f) >= rs.followers.len() {
            bad("figure", u32::from(f));
        }
    }
    if let Options::StackSite { stack } | Options::StackTop { stack } = o {
        if usize::from(*stack) >= rs.stacks.len() {
            bad("stack", u32::from(*stack));
        }
    }
}

/// The indices a stack type names: its site tag, its piece resource, its top figures.
pub(super) fn check_stacks(rs: &Ruleset, reasons: &mut Vec<RulesReason>) {
    for s in &rs.stacks {
        let mut bad = |what: &'static str, index: u32| {
            reasons.push(RulesReason::RuleFormIndex {
                rule: s.id.clone(),
                what,
                index,
            });
        };
        if s.site_tag as usize >= rs.tags.len().min(u32::BITS as usize) {
            bad("tag", s.site_tag);
        }
        check_index(rs, "resource", s.piece, false, &mut bad);
        for &f in &s.top {
            if usize::from(f) >= rs.followers.len() {
                bad("figure", u32::from(f));
            }
        }
    }
}

fn check_seat(rs: &Ruleset, s: &Seat, bad: &mut impl FnMut(&'static str, u32)) {
    match s {
        Seat::Holder(t) => check_index(rs, "token", *t, false, bad),
        Seat::Most(r) => check_index(rs, "resource", *r, false, bad),
        Seat::AssignedOwner(n) | Seat::OwnersOn(n) => check_index(rs, "neutral", *n, false, bad),
        Seat::Has(f) if usize::from(*f) >= rs.followers.len() => bad("figure", u32::from(*f)),
        _ => {}
    }
}

/// Whether index `i` of `what` names one of the ruleset's (or, with `chosen`, is [`CHOSEN`]).
fn check_index(
    rs: &Ruleset,
    what: &'static str,
    i: u16,
    chosen: bool,
    bad: &mut impl FnMut(&'static str, u32),
) {
    if chosen && i == CHOSEN {
        return;
    }
    let n = match what {
        "token" => rs.tokens.len(),
        "counter" => rs.counters.len(),
        "neutral" => rs.neutrals.len(),
        _ => rs.resources.len(),
    };
    if usize::from(i) >= n {
        bad(what, u32::from(i));
    }
}
