//! The one rule form (docs/RULE-LANGUAGE.md, "The one rule form"): the `[[token]]`,
//! `[[counter]]` and `[[when]]` tables of a variant and its tile sets, every name resolved and
//! every combination the engine cannot run refused with a located diagnostic, lowered to
//! [`Ruleset::when`](tegula_ruleset::Ruleset), `tokens` and `counters`. A set's entries come
//! first, in the variant's set order, then the variant's own, each in file order.

mod act;
mod event;
pub mod lower_ability;
mod lower_corner;
mod lower_pool;
pub mod short;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;

use tegula_ruleset::{
    CounterType, FeatureKind, FigureSet, Names, NeutralType, Offer, Options, PieceKind, TokenType,
    TrackType, When,
};

use crate::diag::{Code, Diagnostic, Source};
use crate::raw::Sp;
use crate::raw_when::{
    RawCounter, RawNeutral, RawOffer, RawOptions, RawOwnFigure, RawToken, RawWhen,
};

pub use crate::raw_when::RawRuleForm;
pub(crate) use lower_corner::{corner_origins, corner_rules};
pub(crate) use lower_pool::pool_rule;

/// What the rules of a variant may name beside their own tokens and counters.
pub struct Scope<'a> {
    /// The variant's tag names.
    pub tags: &'a [String],
    /// The variant's resource ids.
    pub resources: &'a [String],
    /// The variant's follower ids.
    pub followers: &'a [String],
    /// The variant's tile type ids (what a rule's `tile` may name).
    pub tiles: &'a [String],
    /// The variant's stack ids.
    pub stacks: &'a [String],
    /// The rules a value may cite.
    pub rules: &'a crate::rules::Scope,
    /// Tracks declared before the files' own (the pool's thresholds lowered: `track(ID)` may
    /// read them), which keep the first indices.
    pub tracks: &'a [TrackType],
    /// Whether the variant has an open pool (`pool-tile` options need one).
    pub pool: bool,
}

/// The lowered rule form of a variant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lowered {
    /// Every `[[when]]`, sets first.
    pub when: Vec<When>,
    /// Every `[[token]]`.
    pub tokens: Vec<TokenType>,
    /// Every `[[counter]]`.
    pub counters: Vec<CounterType>,
    /// Every `[[neutral]]`.
    pub neutrals: Vec<NeutralType>,
    /// Where each of `when` was written (file, 1-based line of its `rule`).
    pub when_at: Vec<(PathBuf, usize)>,
    /// Shared tracks (the pool's thresholds lowered, `lower_pool`).
    pub tracks: Vec<TrackType>,
    /// Every `[[stack]]` of the variant.
    pub stacks: Vec<tegula_ruleset::StackType>,
}

/// Lower the rule form of a variant: `files` are its tile-set files' tables in set order, then
/// its own. Entries with a problem are left out after their diagnostic.
pub fn lower(
    files: &[(&Source, &RawRuleForm)],
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Lowered {
    let tokens = declare(files, |f| &f.token, "token", diags);
    let counters = declare(files, |f| &f.counter, "counter", diags);
    let tracks = declare_tracks(files, scope.tracks, diags);
    let token_ids: Vec<String> = tokens.iter().map(|t| t.0.clone()).collect();
    let counter_ids: Vec<String> = counters.iter().map(|t| t.0.clone()).collect();
    let track_ids: Vec<String> = tracks.iter().map(|t| t.id.clone()).collect();
    let neutral_ids: Vec<(String, String)> = declare(files, |f| &f.neutral, "neutral", diags);
    let neutrals = neutral_types(files, &neutral_ids);
    let neutral_ids: Vec<String> = neutral_ids.into_iter().map(|n| n.0).collect();
    let groups = groups(files, scope.followers, diags);
    let names = Names {
        tags: scope.tags,
        tokens: &token_ids,
        counters: &counter_ids,
        resources: scope.resources,
        figures: scope.followers,
        tiles: scope.tiles,
        tracks: &track_ids,
        stacks: scope.stacks,
        neutrals: &neutral_ids,
    };
    let mut when = Vec::new();
    let mut when_at = Vec::new();
    for (src, f) in files {
        let cx = Cx {
            src,
            names: &names,
            scope,
            carried: false,
            groups: &groups,
        };
        for w in &f.when {
            if let Some(lowered) = cx.when(w, diags) {
                when.push(lowered);
                let (file, offset) = src.origin(w.value.rule.span.start);
                let at = (crate::reach::normalize(&file.path), file.line_col(offset).0);
                when_at.push(at);
            }
        }
    }
    Lowered {
        when,
        tokens: tokens
            .into_iter()
            .map(|(id, name)| TokenType { id, name })
            .collect(),
        counters: counters
            .into_iter()
            .map(|(id, name)| CounterType { id, name })
            .collect(),
        neutrals,
        when_at,
        tracks,
        stacks: Vec::new(),
    }
}

/// The tracks of `files` after those of `before`: a repeated id (or one of `before`'s) is
/// reported at the repetition, a track starting past its `max` at its `start`.
fn declare_tracks(
    files: &[(&Source, &RawRuleForm)],
    before: &[TrackType],
    diags: &mut Vec<Diagnostic>,
) -> Vec<TrackType> {
    let mut out: Vec<TrackType> = before.to_vec();
    for (src, f) in files {
        for t in &f.track {
            let (id, raw) = (&t.value.id, &t.value);
            if out.iter().any(|o| o.id == id.value) {
                let msg = format!("track `{}` is declared twice", id.value);
                let mut d = src.diag(Code::DuplicateId, id.span.clone(), msg);
                if before.iter().any(|o| o.id == id.value) {
                    d.notes
                        .push("the variant's `[pool] thresholds` are that track".into());
                }
                diags.push(d);
                continue;
            }
            let start = raw.start.as_ref().map_or(0, |s| s.value);
            if start > raw.max.value {
                let at = raw
                    .start
                    .as_ref()
                    .map_or(t.span.clone(), |s| s.span.clone());
                let msg = format!(
                    "track `{}` starts at {start}, past its end `max = {}`",
                    id.value, raw.max.value
                );
                diags.push(src.diag(Code::BadWhen, at, msg));
                continue;
            }
            let as_u32 = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
            out.push(TrackType {
                id: id.value.clone(),
                name: raw.name.clone(),
                start: as_u32(start),
                max: as_u32(raw.max.value),
            });
        }
    }
    out.truncate(usize::from(u16::MAX));
    out
}

/// The neutral figures declared (`ids`, first declarations only), with their pictures.
fn neutral_types(files: &[(&Source, &RawRuleForm)], ids: &[(String, String)]) -> Vec<NeutralType> {
    let all = files.iter().flat_map(|(_, f)| &f.neutral);
    ids.iter()
        .filter_map(|(id, name)| {
            let n = all.clone().find(|n| n.value.id.value == *id)?;
            Some(NeutralType {
                id: id.clone(),
                name: name.clone(),
                symbol: n.value.symbol.clone(),
                colour: n.value.colour.clone(),
            })
        })
        .collect()
}

/// The `[groups]` of the files, each a set of the variant's followers (an id it lacks is a
/// `dangling-reference`; a later file's group of the same name replaces an earlier one).
fn groups(
    files: &[(&Source, &RawRuleForm)],
    followers: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, FigureSet)> {
    let mut out: Vec<(String, FigureSet)> = Vec::new();
    for (src, f) in files {
        for (name, ids) in &f.groups {
            let mut set = 0u32;
            for id in &ids.value {
                match index_of(followers, &id.value).filter(|&i| i < 32) {
                    Some(i) => set |= 1 << i,
                    None => diags.push(dangling(
                        src,
                        "figure",
                        followers,
                        &id.value,
                        id.span.clone(),
                    )),
                }
            }
            out.retain(|g| g.0 != *name);
            out.push((name.clone(), FigureSet(set)));
        }
    }
    out
}

/// A token or counter: an id and a name.
trait Declared {
    fn id(&self) -> &Sp<String>;
    fn name(&self) -> &str;
}

impl Declared for RawToken {
    fn id(&self) -> &Sp<String> {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
}

impl Declared for RawNeutral {
    fn id(&self) -> &Sp<String> {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
}

impl Declared for RawCounter {
    fn id(&self) -> &Sp<String> {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
}

/// The `(id, name)` of every token (or counter) of `files`, a repeated id reported at the
/// repetition.
fn declare<T: Declared>(
    files: &[(&Source, &RawRuleForm)],
    of: impl Fn(&RawRuleForm) -> &Vec<Sp<T>>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, String)> {
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut out = Vec::new();
    for (src, f) in files {
        for t in of(f) {
            let id = t.value.id();
            if let Some(first) = seen.get(&id.value) {
                let msg = format!("{what} `{}` is declared twice (first {first})", id.value);
                diags.push(src.diag(Code::DuplicateId, id.span.clone(), msg));
                continue;
            }
            let (line, _) = src.line_col(id.span.start);
            let at = format!("in {} line {line}", src.path.display());
            seen.insert(id.value.clone(), at);
            out.push((id.value.clone(), t.value.name().to_string()));
        }
    }
    if out.len() > usize::from(u16::MAX) {
        out.truncate(usize::from(u16::MAX));
    }
    out
}

/// What a rule of one file is checked against.
#[derive(Clone, Copy)]
struct Cx<'a> {
    src: &'a Source,
    names: &'a Names<'a>,
    scope: &'a Scope<'a>,
    /// The rule being checked is carried by a tile (`tile`): it has an owner at every event.
    carried: bool,
    /// The `[groups]`, by name.
    groups: &'a [(String, FigureSet)],
}

/// Where an effect stands: in a rule's `then`, or in an offer's with its options.
#[derive(Clone, Copy)]
struct Place<'a> {
    /// The rule's event (its subject).
    event: &'a tegula_ruleset::RuleEvent,
    /// The subject feature's kind when the event names exactly one.
    kind: Option<FeatureKind>,
    /// The offer's options, inside an offer.
    offer: Option<&'a Options>,
    /// Inside a walk's `on_enter`.
    walk: bool,
}

impl Cx<'_> {
    /// One `[[when]]`, or `None` after its diagnostics.
    fn when(&self, w: &Sp<RawWhen>, diags: &mut Vec<Diagnostic>) -> Option<When> {
        let cx = Cx {
            carried: w.value.tile.is_some(),
            ..*self
        };
        cx.when_in(w, diags)
    }

    /// [`Cx::when`], with `carried` set for the rule.
    fn when_in(&self, w: &Sp<RawWhen>, diags: &mut Vec<Diagnostic>) -> Option<When> {
        let before = diags.len();
        let rule = w.value.rule.value.clone();
        let mut out = Vec::new();
        let event = self.event(&w.value, &mut out);
        let subject_kind = event.as_ref().and_then(event::single_kind);
        let test = event.as_ref().and_then(|e| {
            let t = w.value.test.as_ref()?;
            self.test(t, e, subject_kind, &mut out)
        });
        let mut when = None;
        if let Some(e) = event {
            let place = Place {
                event: &e,
                kind: subject_kind,
                offer: None,
                walk: false,
            };
            let then = self.acts(&w.value.then, place, &mut out);
            let offer = w
                .value
                .offer
                .as_ref()
                .and_then(|o| self.offer(o, &e, &mut out));
            self.never_at_end(&w.value, &e, &mut out);
            self.draw_only_hands(&w.value, &e, &mut out);
            if w.value.then.is_empty() && w.value.offer.is_none() {
                let msg = format!(
                    "rule {rule}: this `[[when]]` does nothing: give it `then` effects or an \
                     `offer`"
                );
                out.push(
                    self.src
                        .diag(Code::BadWhen, w.value.event.span.clone(), msg),
                );
            }
            when = Some(When {
                rule: rule.clone(),
                event: e,
                test,
                then,
                offer,
                tile: self.carrier(&w.value, &mut out),
            });
        }
        diags.extend(out.into_iter().map(|d| d.with_rule(&rule)));
        when.filter(|_| diags[before..].iter().all(|d| !d.is_error()))
    }

    /// The tile type a rule's `tile` names (`None`: no `tile`, or a diagnostic).
    fn carrier(&self, w: &RawWhen, out: &mut Vec<Diagnostic>) -> Option<u16> {
        let t = w.tile.as_ref()?;
        self.resolve("tile", self.scope.tiles, t, out)
    }

    /// A `draw` rule with a `hand` effect only sets the hand (`hand` effects, no offer): the
    /// hand is read before the draw, so nothing else of that rule could run then.
    fn draw_only_hands(
        &self,
        w: &RawWhen,
        e: &tegula_ruleset::RuleEvent,
        out: &mut Vec<Diagnostic>,
    ) {
        let sets_hand = w.then.iter().any(|a| a.value.hand.is_some());
        if !matches!(e, tegula_ruleset::RuleEvent::Draw { .. }) || !sets_hand {
            return;
        }
        let others = w.then.iter().filter(|a| a.value.hand.is_none());
        let spans = others.map(|a| a.span.clone());
        for at in spans.chain(w.offer.iter().map(|o| o.span.clone())) {
            let msg = "a `draw` rule with `hand` sets the tiles a seat draws up to: its effects \
                       are `hand` only, and it offers nothing";
            out.push(self.src.diag(Code::BadWhen, at, msg));
        }
    }

    /// An offer or an extra turn on an event that happens once the game is over would never
    /// be made or taken.
    fn never_at_end(&self, w: &RawWhen, e: &tegula_ruleset::RuleEvent, out: &mut Vec<Diagnostic>) {
        if !event::at_end(e) {
            return;
        }
        let when = format!(
            "a `{}` rule acts once the game is over",
            if matches!(e, tegula_ruleset::RuleEvent::GameEnd) {
                "game-end"
            } else if matches!(e, tegula_ruleset::RuleEvent::GameOver) {
                "game-over"
            } else {
                "feature-scored` `at = \"end\""
            }
        );
        if let Some(o) = &w.offer {
            let msg = format!("{when}: its offer would never be made (no turn is left to make it)");
            out.push(self.src.diag(Code::BadWhen, o.span.clone(), msg));
        }
        let extra = w.then.iter().filter_map(|a| a.value.extra_turn.as_ref());
        for x in extra.filter(|x| x.value) {
            let msg = format!("{when}: an extra turn would never be taken");
            out.push(self.src.diag(Code::BadWhen, x.span.clone(), msg));
        }
    }

    /// A rule's or an offer's `if`, over a subject of `kind`.
    fn test(
        &self,
        t: &Sp<String>,
        e: &tegula_ruleset::RuleEvent,
        kind: Option<FeatureKind>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<tegula_ruleset::Test> {
        let rules = self.scope.rules;
        match crate::values::parse_rule_test(&t.value, kind, self.names, rules) {
            Ok(test) => {
                let mut qs = Vec::new();
                test.quantities(&mut qs);
                self.reads_subject(&qs, e, false, &t.span, out);
                Some(test)
            }
            Err(err) => {
                let at = crate::values::inner_span(self.src, t, err.at);
                out.push(
                    self.src
                        .diag(Code::BadWhen, at, format!("if: {}", err.message)),
                );
                None
            }
        }
    }

    /// An offer, or `None` after its diagnostics.
    fn offer(
        &self,
        o: &Sp<RawOffer>,
        e: &tegula_ruleset::RuleEvent,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Offer> {
        let whole = o.span.clone();
        let o = &o.value;
        let to = self.seat(&o.to, e, false, out)?;
        let options = self.options(&o.options, e, out)?;
        let uses_figure_step = o.uses_figure_step.as_ref().is_some_and(|u| u.value);
        if uses_figure_step
            && !matches!(
                e,
                tegula_ruleset::RuleEvent::FigureStep
                    | tegula_ruleset::RuleEvent::FigureStepOn { .. }
            )
        {
            let at = o.uses_figure_step.as_ref().map_or(0..0, |u| u.span.clone());
            let msg = "`uses_figure_step = true` needs `event = \"figure-step\"`: only the \
                       figure step's offers stand beside the figure options (\"instead of \
                       placing a figure\")";
            out.push(self.src.diag(Code::BadWhen, at, msg));
        }
        let may_decline = o.may_decline.as_ref().is_some_and(|m| m.value);
        let step = matches!(
            e,
            tegula_ruleset::RuleEvent::FigureStep | tegula_ruleset::RuleEvent::FigureStepOn { .. }
        );
        if !may_decline && step && !uses_figure_step {
            // An offer that may not be declined is the whole figure step when it has options
            // (PD-12's "must"); one that left the step open would have to be taken and then
            // the step go on, which no rule says.
            let at = o.may_decline.as_ref().map_or(whole, |m| m.span.clone());
            let msg = "a `figure-step` offer the seat may not decline is the turn's whole figure \
                       step: write `uses_figure_step = true` (or `may_decline = true`)";
            out.push(self.src.diag(Code::BadWhen, at, msg));
        }
        // The effects on a chosen figure read its feature.
        let kind = match &options {
            Options::OwnFigure { on, .. } if on.len() == 1 => Some(on[0]),
            _ => None,
        };
        let place = Place {
            event: e,
            kind,
            offer: Some(&options),
            walk: false,
        };
        let then = self.acts(&o.then, place, out);
        let (repeat, order) = self.repeat_order(o, &options, out);
        Some(Offer {
            to,
            may_decline,
            uses_figure_step,
            then,
            options,
            repeat,
            order,
        })
    }

    /// An offer's `repeat` and `order`: only pool tiles are offered again and in an order the
    /// actor chooses (game/pool.rs makes those offers).
    fn repeat_order(
        &self,
        o: &RawOffer,
        options: &Options,
        out: &mut Vec<Diagnostic>,
    ) -> (bool, tegula_ruleset::SeatOrder) {
        use tegula_ruleset::SeatOrder;
        let repeat = o.repeat.as_ref().is_some_and(|r| r.value);
        let order = match o.order.as_ref().map(|o| o.value) {
            Some(crate::raw_when::RawSeatOrder::ActorChooses) => SeatOrder::ActorChooses,
            _ => SeatOrder::TurnOrder,
        };
        if *options != Options::PoolTile {
            let stray = [
                o.repeat
                    .as_ref()
                    .filter(|r| r.value)
                    .map(|r| ("repeat", r.span.clone())),
                o.order
                    .as_ref()
                    .filter(|_| order != SeatOrder::TurnOrder)
                    .map(|r| ("order", r.span.clone())),
            ];
            for (key, at) in stray.into_iter().flatten() {
                let msg = format!(
                    "`{key}` goes only with `pool-tile` options (W-2, W-3): other offers are \
                     made once to each seat, in turn order"
                );
                out.push(self.src.diag(Code::BadWhen, at, msg));
            }
        }
        (repeat, order)
    }

    /// An offer's options.
    fn options(
        &self,
        o: &Sp<RawOptions>,
        e: &tegula_ruleset::RuleEvent,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Options> {
        let raw = &o.value;
        if let Some(p) = &raw.pool_tile {
            return self.pool_tile(p, e, out);
        }
        if *e == tegula_ruleset::RuleEvent::TurnFinished {
            let msg = "a `turn-finished` offer is of pool tiles (`options = { pool-tile = true \
                       }`): other offers are made at `turn-end`";
            out.push(self.src.diag(Code::BadWhen, o.span.clone(), msg));
            return None;
        }
        if let Some(f) = &raw.own_figure {
            let f = &f.value;
            let figure = match &f.figure {
                Some(id) => Some(self.figure(id, out)?),
                None => None,
            };
            let on: Vec<FeatureKind> =
                f.on.iter()
                    .flat_map(|v| &v.value)
                    .map(|k| k.value.lowered())
                    .collect();
            let kind = (on.len() == 1).then(|| on[0]);
            // The test is over the figure's feature, a subject every event has here.
            let subject = tegula_ruleset::RuleEvent::FeatureScored {
                kinds: Vec::new(),
                at: tegula_ruleset::ScoredAt::Any,
            };
            let test = match &f.test {
                Some(t) => Some(self.test(t, &subject, kind, out)?),
                None => None,
            };
            let figures = match &f.figures {
                Some(set) => Some(self.figure_set(set, out)?),
                None => None,
            };
            let not_assigned = match &f.not_assigned {
                Some(n) => Some(self.resolve("neutral figure", self.names.neutrals, n, out)?),
                None => None,
            };
            let tops = self.own_tops(f, out)?;
            return Some(Options::OwnFigure {
                figure,
                figures,
                not_assigned,
                on,
                test,
                tops,
            });
        }
        if let Some(n) = &raw.neighbour_tile {
            if !event::has_tile(e) {
                let msg = format!(
                    "`neighbour-tile` options are the tiles around the subject tile; a `{}` \
                     rule has no subject tile",
                    event::name(e)
                );
                out.push(self.src.diag(Code::BadWhen, n.span.clone(), msg));
                return None;
            }
            let diagonals = n.value.diagonals.as_ref().is_some_and(|d| d.value);
            return Some(Options::NeighbourTile { diagonals });
        }
        if raw.any_feature.is_some() || raw.figure_in.is_some() {
            return self.board_options(raw, e, out);
        }
        if let Some(s) = raw.stack_site.as_ref().or(raw.stack_top.as_ref()) {
            let stack = self.resolve("stack", self.scope.stacks, &s.value.stack, out)?;
            return Some(match raw.stack_site.is_some() {
                true => Options::StackSite { stack },
                false => Options::StackTop { stack },
            });
        }
        if let Some(r) = &raw.in_reach {
            if *e != tegula_ruleset::RuleEvent::Chained {
                let msg = "`in-reach` options are the figures within the reach of a stack chosen \
                           just before: the rule is `event = \"chained\"`, its offer made by \
                           the `{ offer = RULE }` of a `stack-site` choice";
                out.push(self.src.diag(Code::BadWhen, r.span.clone(), msg));
                return None;
            }
            let set = self.figure_set(&r.value.figures, out)?;
            let figures = (0..32u8).filter(|&f| set.has(f)).collect();
            let tops = r.value.tops.as_ref().is_none_or(|t| t.value);
            return Some(Options::InReach { figures, tops });
        }
        if let Some(x) = &raw.exchange_back {
            if *e != tegula_ruleset::RuleEvent::Chained || !x.value {
                let msg = "`exchange-back = true` chooses which figure an exchange gives back: \
                           the rule is `event = \"chained\"`, named by a capture's `exchange`";
                out.push(self.src.diag(Code::BadWhen, x.span.clone(), msg));
                return None;
            }
            return Some(Options::ExchangeBack);
        }
        if let Some(c) = &raw.own_captive {
            return Some(Options::OwnCaptive {
                min_score: c.value.min_score.as_ref().map_or(0, |m| m.value),
                once_per_turn: c.value.once_per_turn.as_ref().is_some_and(|o| o.value),
            });
        }
        let kinds = raw.kind.as_ref()?;
        self.piece_kinds(kinds, out).map(|of| Options::Kind { of })
    }

    /// `own-figure`'s `tops` (PD-7's Reading): `false` when absent; refused beside `on` or
    /// `if` (a figure on a stack top stands on no feature) and in a variant without stacks.
    fn own_tops(&self, f: &RawOwnFigure, out: &mut Vec<Diagnostic>) -> Option<bool> {
        let Some(t) = f.tops.as_ref().filter(|t| t.value) else {
            return Some(false);
        };
        let msg = if f.on.is_some() || f.test.is_some() {
            "`tops = true` does not go with `on` or `if`: a figure on top of a stack stands on \
             no feature"
        } else if self.scope.stacks.is_empty() {
            "`tops = true` lists figures on top of stacks: the variant has no `[[stack]]`"
        } else {
            return Some(true);
        };
        out.push(self.src.diag(Code::BadWhen, t.span.clone(), msg));
        None
    }

    /// `pool-tile = true`: only at `turn-finished`, only with a pool.
    fn pool_tile(
        &self,
        p: &Sp<bool>,
        e: &tegula_ruleset::RuleEvent,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Options> {
        let msg = if !p.value {
            "`pool-tile = false` offers nothing: leave the key out"
        } else if *e != tegula_ruleset::RuleEvent::TurnFinished {
            "pool tiles are offered when the turn is finished (`event = \"turn-finished\"`), \
             after its scoring and figure moves (W-2)"
        } else if !self.scope.pool {
            "pool tiles need an open pool: the variant has no `[pool]`"
        } else {
            return Some(Options::PoolTile);
        };
        out.push(self.src.diag(Code::BadWhen, p.span.clone(), msg));
        None
    }

    /// Options over the board: `any-feature` (sites anywhere, PD-11) or `figure-in` (figures on
    /// the subject tile's tagged feature, PD-12).
    fn board_options(
        &self,
        raw: &RawOptions,
        e: &tegula_ruleset::RuleEvent,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Options> {
        if let Some(f) = &raw.any_feature {
            if !matches!(
                e,
                tegula_ruleset::RuleEvent::FigureStep
                    | tegula_ruleset::RuleEvent::FigureStepOn { .. }
            ) {
                let msg = format!(
                    "`any-feature` options place a figure: only a `figure-step` rule may offer \
                     them, not a `{}` rule",
                    event::name(e)
                );
                out.push(self.src.diag(Code::BadWhen, f.span.clone(), msg));
                return None;
            }
            let figures = self.figure_set(&f.value.figures, out)?;
            let avoid = self.site_avoid(f.value.avoid.as_ref(), out)?;
            return Some(Options::AnyFeature { figures, avoid });
        }
        if let Some(f) = &raw.figure_in {
            if !event::has_tile(e) {
                let msg = format!(
                    "`figure-in` options are the figures on the subject tile's features; a \
                     `{}` rule has no subject tile",
                    event::name(e)
                );
                out.push(self.src.diag(Code::BadWhen, f.span.clone(), msg));
                return None;
            }
            if let Some(a) = &f.value.avoid {
                let msg = "`avoid` names tiles no site may be on: it goes with `any-feature` \
                           options only";
                out.push(self.src.diag(Code::BadWhen, a.span.clone(), msg));
                return None;
            }
            let figures = self.figure_set(&f.value.figures, out)?;
            return Some(Options::FigureIn { figures });
        }
        None
    }

    /// The tiles an `any-feature` offer's sites avoid: a neutral figure's, or a tag's; `empty`
    /// and `visited` are a walk's words.
    fn site_avoid(
        &self,
        avoid: Option<&Sp<Vec<Sp<String>>>>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Vec<tegula_ruleset::Avoid>> {
        let mut all = Vec::new();
        for a in avoid.iter().flat_map(|v| &v.value) {
            let got = self.avoid(a, out)?;
            if matches!(
                got,
                tegula_ruleset::Avoid::Empty | tegula_ruleset::Avoid::Visited
            ) {
                let msg = "a site is on a placed tile and visits nothing: an `any-feature` \
                           offer avoids `neutral(ID)` or `tag(TAG)`";
                out.push(self.src.diag(Code::BadWhen, a.span.clone(), msg));
                return None;
            }
            all.push(got);
        }
        Some(all)
    }

    /// The kinds of a `kind` offer: each name both a resource and a counter, each once.
    fn piece_kinds(
        &self,
        kinds: &Sp<Vec<Sp<String>>>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Vec<PieceKind>> {
        let mut of = Vec::new();
        for (i, k) in kinds.value.iter().enumerate() {
            if kinds.value[..i].iter().any(|o| o.value == k.value) {
                let msg = format!("kind `{}` is listed twice", k.value);
                out.push(self.src.diag(Code::BadWhen, k.span.clone(), msg));
                continue;
            }
            let resource = index_of(self.names.resources, &k.value);
            let counter = index_of(self.names.counters, &k.value);
            match (resource, counter) {
                (Some(resource), Some(counter)) => of.push(PieceKind { resource, counter }),
                _ => {
                    let msg = format!(
                        "kind `{}` must be both a `[[resource]]` (the seats' supply of it) and a \
                         `[[counter]]` (the piece on a tile): it is {}",
                        k.value,
                        match (resource, counter) {
                            (Some(_), None) => "a resource but no counter",
                            (None, Some(_)) => "a counter but no resource",
                            _ => "neither",
                        }
                    );
                    out.push(self.src.diag(Code::BadWhen, k.span.clone(), msg));
                }
            }
        }
        (of.len() == kinds.value.len()).then_some(of)
    }

    /// A follower id as its index.
    fn figure(&self, id: &Sp<String>, out: &mut Vec<Diagnostic>) -> Option<u8> {
        let i = self.resolve("figure", self.scope.followers, id, out)?;
        u8::try_from(i).ok()
    }

    /// The index of `id` among `ids`, or a `dangling-reference` with the known ones.
    fn resolve(
        &self,
        what: &str,
        ids: &[String],
        id: &Sp<String>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<u16> {
        if let Some(i) = index_of(ids, &id.value) {
            return Some(i);
        }
        out.push(dangling(self.src, what, ids, &id.value, id.span.clone()));
        None
    }

    /// Report a count of the subject (`qs`: what a value or test reads) where the event has no
    /// subject.
    /// `chosen_figure`: the value is an effect on a figure chosen in an offer, whose feature is
    /// the subject whatever the event.
    fn reads_subject(
        &self,
        qs: &[tegula_ruleset::Quantity],
        e: &tegula_ruleset::RuleEvent,
        chosen_figure: bool,
        at: &Range<usize>,
        out: &mut Vec<Diagnostic>,
    ) {
        if chosen_figure || event::has_tile(e) {
            return;
        }
        if let Some(q) = qs.iter().find(|q| event::reads_subject(**q)) {
            let msg = format!(
                "`{}` counts the event's subject, and a `{}` rule has none: read the board or \
                 the seats instead (completed(KIND), held(RESOURCE), record(TOKEN))",
                q.source_named(self.names),
                event::name(e)
            );
            out.push(self.src.diag(Code::BadWhen, at.clone(), msg));
        }
    }
}

/// The variant's `[[stack]]` tables, each name resolved against its tags, resources,
/// followers and `[groups]`; a stack with a problem is left out after its diagnostic.
pub fn lower_stacks(
    raw: &[Sp<crate::raw_when::RawStack>],
    (scope, groups): (&Scope<'_>, Option<&crate::raw_when::RawGroups>),
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<tegula_ruleset::StackType> {
    let mut out: Vec<tegula_ruleset::StackType> = Vec::new();
    for s in raw {
        let s = &s.value;
        let before = diags.len();
        if out.iter().any(|o| o.id == s.id.value) {
            let msg = format!("stack `{}` is declared twice", s.id.value);
            diags.push(src.diag(Code::DuplicateId, s.id.span.clone(), msg));
            continue;
        }
        let ids = top_ids(s.top.as_ref(), groups, src, diags);
        let mut find = |what: &str, ids: &[String], id: &Sp<String>| {
            let i = index_of(ids, &id.value);
            if i.is_none() {
                diags.push(dangling(src, what, ids, &id.value, id.span.clone()));
            }
            i
        };
        let tag = find("tag", scope.tags, &s.site_tag);
        let piece = find("resource", scope.resources, &s.piece);
        let top: Vec<u8> = (ids.iter())
            .filter_map(|f| find("figure", scope.followers, f))
            .filter_map(|i| u8::try_from(i).ok())
            .collect();
        let (Some(tag), Some(piece)) = (tag, piece) else {
            continue;
        };
        if diags.len() > before {
            continue;
        }
        out.push(tegula_ruleset::StackType {
            id: s.id.value.clone(),
            name: s.name.clone(),
            site_tag: u32::from(tag),
            piece,
            top,
            top_min: s.top_min_height.as_ref().map_or(1, |m| m.value),
            reopen: s.reopen.as_ref().is_none_or(|r| r.value),
        });
    }
    out
}

/// The follower ids of a stack's `top`: the list, or the `[groups]` entry it names (each id
/// with the span of the name it was read from).
fn top_ids(
    top: Option<&Sp<crate::raw_when::RawFigures>>,
    groups: Option<&crate::raw_when::RawGroups>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Sp<String>> {
    let Some(top) = top else {
        return Vec::new();
    };
    let at = |id: &String| Sp {
        value: id.clone(),
        span: top.span.clone(),
    };
    match &top.value {
        crate::raw_when::RawFigures::List(ids) => ids.iter().map(at).collect(),
        crate::raw_when::RawFigures::Group(g) => match groups.and_then(|m| m.get(g)) {
            Some(ids) => ids.value.iter().map(|id| at(&id.value)).collect(),
            None => {
                let names: Vec<String> =
                    groups.into_iter().flat_map(|m| m.keys().cloned()).collect();
                diags.push(dangling(src, "group", &names, g, top.span.clone()));
                Vec::new()
            }
        },
    }
}

/// The index of `id` in `ids`.
fn index_of(ids: &[String], id: &str) -> Option<u16> {
    ids.iter()
        .position(|x| x == id)
        .and_then(|i| u16::try_from(i).ok())
}

/// A name that names nothing: a `dangling-reference` listing the known names and the closest.
fn dangling(src: &Source, what: &str, ids: &[String], id: &str, at: Range<usize>) -> Diagnostic {
    let msg = crate::names::unknown_name(what, id, ids);
    src.diag(Code::DanglingReference, at, msg)
}
