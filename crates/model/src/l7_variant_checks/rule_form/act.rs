//! Effects (`then`) and seats (`to`): exactly one effect key per table with the keys that go
//! with it, every name resolved, `chosen` and `chooser` only inside an offer whose options
//! give them a meaning.

use std::ops::Range;

use tegula_ruleset::{
    Act, Avoid, Expr, FigureSet, Options, RuleEvent, Seat, TileRef, Walk, CHOSEN,
};

use super::{event, index_of, Cx, Place};
use crate::diag::{Code, Diagnostic};
use crate::raw::Sp;
use crate::raw_when::{RawAct, RawFigures, RawTileRef, RawValue};

/// The effect keys, each with the other keys it takes (required first, then optional).
const SHAPES: [(&str, &[&str], &[&str]); 26] = [
    ("score", &["to"], &[]),
    ("gain", &["amount", "to"], &[]),
    ("spend", &["amount", "to"], &[]),
    ("token", &["to", "record"], &[]),
    ("counters", &["add"], &["on"]),
    ("take", &["into", "to"], &[]),
    ("extra_turn", &[], &[]),
    ("return", &[], &[]),
    ("hand", &["to"], &[]),
    ("supply", &["add", "to"], &[]),
    ("advance", &["by"], &[]),
    ("place", &[], &[]),
    ("assign", &[], &[]),
    ("unassign", &[], &[]),
    ("add_piece", &[], &[]),
    ("top", &[], &[]),
    ("capture", &[], &["exchange"]),
    ("redeem", &[], &[]),
    ("exchange_back", &[], &[]),
    ("offer", &[], &[]),
    ("put", &[], &["on"]),
    ("no_figures", &[], &[]),
    (
        "walk",
        &["steps"],
        &["chooser", "revisit", "avoid", "on_enter"],
    ),
    ("return_on", &["figures"], &["rule", "tops"]),
    ("set_aside", &[], &[]),
    ("shuffle_back", &[], &[]),
];

/// The seats a `to` may name, beside `holder(TOKEN)`.
const SEATS: [&str; 13] = [
    "actor",
    "placer",
    "owner",
    "winners",
    "every",
    "chooser",
    "chosen-owner",
    "holder",
    "most",
    "has",
    "where",
    "assigned-owner",
    "owners-on",
];

/// The keys `a` gives, with their spans, in [`SHAPES`]' and then the other keys' order.
fn given(a: &RawAct) -> Vec<(&'static str, Range<usize>)> {
    let span = |o: Option<Range<usize>>| o;
    let keys = [
        ("score", span(a.score.as_ref().map(|v| v.span.clone()))),
        ("gain", a.gain.as_ref().map(|v| v.span.clone())),
        ("spend", a.spend.as_ref().map(|v| v.span.clone())),
        ("token", a.token.as_ref().map(|v| v.span.clone())),
        ("counters", a.counters.as_ref().map(|v| v.span.clone())),
        ("take", a.take.as_ref().map(|v| v.span.clone())),
        ("extra_turn", a.extra_turn.as_ref().map(|v| v.span.clone())),
        ("return", a.return_.as_ref().map(|v| v.span.clone())),
        ("hand", a.hand.as_ref().map(|v| v.span.clone())),
        ("supply", a.supply.as_ref().map(|v| v.span.clone())),
        ("advance", a.advance.as_ref().map(|v| v.span.clone())),
        ("by", a.by.as_ref().map(|v| v.span.clone())),
        ("place", a.place.as_ref().map(|v| v.span.clone())),
        ("assign", a.assign.as_ref().map(|v| v.span.clone())),
        ("unassign", a.unassign.as_ref().map(|v| v.span.clone())),
        ("add_piece", a.add_piece.as_ref().map(|v| v.span.clone())),
        ("top", a.top.as_ref().map(|v| v.span.clone())),
        ("capture", a.capture.as_ref().map(|v| v.span.clone())),
        ("redeem", a.redeem.as_ref().map(|v| v.span.clone())),
        (
            "exchange_back",
            a.exchange_back.as_ref().map(|v| v.span.clone()),
        ),
        ("offer", a.offer.as_ref().map(|v| v.span.clone())),
        ("exchange", a.exchange.as_ref().map(|v| v.span.clone())),
        ("put", a.put.as_ref().map(|v| v.span.clone())),
        ("no_figures", a.no_figures.as_ref().map(|v| v.span.clone())),
        ("walk", a.walk.as_ref().map(|v| v.span.clone())),
        ("return_on", a.return_on.as_ref().map(|v| v.span.clone())),
        ("set_aside", a.set_aside.as_ref().map(|v| v.span.clone())),
        (
            "shuffle_back",
            a.shuffle_back.as_ref().map(|v| v.span.clone()),
        ),
        ("steps", a.steps.as_ref().map(|v| v.span.clone())),
        ("chooser", a.chooser.as_ref().map(|v| v.span.clone())),
        ("revisit", a.revisit.as_ref().map(|v| v.span.clone())),
        ("avoid", a.avoid.as_ref().map(|v| v.span.clone())),
        ("on_enter", a.on_enter.as_ref().map(|v| v.span.clone())),
        ("figures", a.figures.as_ref().map(|v| v.span.clone())),
        ("rule", a.rule.as_ref().map(|v| v.span.clone())),
        ("tops", a.tops.as_ref().map(|v| v.span.clone())),
        ("amount", a.amount.as_ref().map(|v| v.span.clone())),
        ("record", a.record.as_ref().map(|v| v.span.clone())),
        ("add", a.add.as_ref().map(|v| v.span.clone())),
        ("on", a.on.as_ref().map(|v| v.span.clone())),
        ("into", a.into.as_ref().map(|v| v.span.clone())),
        ("to", a.to.as_ref().map(|v| v.span.clone())),
    ];
    keys.into_iter()
        .filter_map(|(k, s)| Some((k, s?)))
        .collect()
}

impl Cx<'_> {
    /// The effects of a `then`; those with a problem are left out after their diagnostics.
    pub(super) fn acts(
        &self,
        acts: &[Sp<RawAct>],
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Vec<Act> {
        acts.iter()
            .filter_map(|a| {
                let before = out.len();
                let act = self.act(a, place, out);
                act.filter(|_| out.len() == before)
            })
            .collect()
    }

    /// The shape of one effect table: its effect key, or `None` after a diagnostic.
    fn shape(&self, a: &Sp<RawAct>, out: &mut Vec<Diagnostic>) -> Option<&'static str> {
        let keys = given(&a.value);
        let heads: Vec<&(&str, Range<usize>)> = keys
            .iter()
            .filter(|(k, _)| SHAPES.iter().any(|(h, _, _)| h == k))
            .collect();
        let names = || SHAPES.map(|(h, _, _)| format!("`{h}`")).join(", ");
        let head = match heads.as_slice() {
            [] => {
                let msg = format!("an effect needs one of {}", names());
                out.push(self.src.diag(Code::BadWhen, a.span.clone(), msg));
                return None;
            }
            [one] => *one,
            [first, second, ..] => {
                let msg = format!(
                    "an effect does one thing: `{}` and `{}` here; write them as two effects",
                    first.0, second.0
                );
                out.push(self.src.diag(Code::BadWhen, second.1.clone(), msg));
                return None;
            }
        };
        let (name, required, optional) = SHAPES.iter().find(|(h, _, _)| *h == head.0)?;
        let before = out.len();
        for (k, span) in keys.iter().filter(|(k, _)| k != name) {
            if !required.contains(k) && !optional.contains(k) {
                let msg = format!("`{k}` does not go with `{name}`");
                out.push(self.src.diag(Code::BadWhen, span.clone(), msg));
            }
        }
        for r in required
            .iter()
            .filter(|r| !keys.iter().any(|(k, _)| k == *r))
        {
            let msg = format!("`{name}` needs `{r}`");
            out.push(self.src.diag(Code::BadWhen, a.span.clone(), msg));
        }
        (out.len() == before).then_some(*name)
    }

    /// One effect, or `None` after a diagnostic.
    fn act(&self, a: &Sp<RawAct>, place: Place<'_>, out: &mut Vec<Diagnostic>) -> Option<Act> {
        let head = self.shape(a, out)?;
        let r = &a.value;
        let e = place.event;
        let in_offer = place.offer.is_some();
        let to = |out: &mut Vec<Diagnostic>| self.seat(r.to.as_ref()?, e, in_offer, out);
        Some(match head {
            "score" => Act::Score {
                value: self.value(r.score.as_ref()?, place, out)?,
                to: to(out)?,
            },
            "gain" | "spend" => {
                let res = if head == "gain" { &r.gain } else { &r.spend };
                Act::Gain {
                    resource: self.chosen_or("resource", res.as_ref()?, place, out)?,
                    amount: self.value(r.amount.as_ref()?, place, out)?,
                    to: to(out)?,
                    spend: head == "spend",
                }
            }
            "token" => Act::Token {
                token: self.resolve("token", self.names.tokens, r.token.as_ref()?, out)?,
                to: to(out)?,
                record: self.value(r.record.as_ref()?, place, out)?,
            },
            "counters" => Act::Counters {
                counter: self.chosen_or("counter", r.counters.as_ref()?, place, out)?,
                add: self.value(r.add.as_ref()?, place, out)?,
                on: self.tile_ref(r.on.as_ref(), place, out)?,
            },
            "take" => self.take(r, place, out)?,
            "extra_turn" => self.extra_turn(r.extra_turn.as_ref()?, out)?,
            "hand" => {
                let size = self.hand(r.hand.as_ref()?, e, out)?;
                Act::Hand { size, to: to(out)? }
            }
            "supply" => Act::Figures {
                figure: self.figure(r.supply.as_ref()?, out)?,
                add: self.value(r.add.as_ref()?, place, out)?,
                to: to(out)?,
            },
            "advance" => Act::Advance {
                track: self.resolve("track", self.names.tracks, r.advance.as_ref()?, out)?,
                by: self.value(r.by.as_ref()?, place, out)?,
            },
            "place" => self.place_chosen(r.place.as_ref()?, place, out)?,
            "return" => self.return_chosen(a, place, out)?,
            "offer" => self.chained_offer(r.offer.as_ref()?, place, out)?,
            "add_piece" | "top" | "capture" | "redeem" | "exchange_back" => {
                self.stack_act(head, a, place, out)?
            }
            _ => self.neutral_act(head, a, place, out)?,
        })
    }

    /// `{ offer = "RULE" }`: inside an offer's `then`, naming a rule (its `chained` rule is
    /// looked for when the variant is put together; the engine refuses an artefact without
    /// one).
    fn chained_offer(
        &self,
        rule: &Sp<String>,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Act> {
        if place.offer.is_none() {
            let msg = "`offer` makes another rule's offer on the choice just made: it goes only \
                       in the `then` of an offer";
            out.push(self.src.diag(Code::BadWhen, rule.span.clone(), msg));
            return None;
        }
        Some(Act::Offer {
            rule: rule.value.clone(),
        })
    }

    /// `add_piece`, `top`, `capture`, `redeem` and `exchange_back`: each only in the `then` of an offer of the
    /// options that name what it acts on.
    fn stack_act(
        &self,
        head: &str,
        a: &Sp<RawAct>,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Act> {
        let r = &a.value;
        let (fits, options) = match (head, place.offer) {
            ("add_piece", Some(Options::StackSite { .. })) => (Act::AddPiece, ""),
            ("top", Some(Options::StackTop { .. })) => (Act::Top, ""),
            ("capture", Some(Options::InReach { .. })) => (
                Act::Capture {
                    exchange: r.exchange.as_ref().map(|e| e.value.clone()),
                },
                "",
            ),
            ("redeem", Some(Options::OwnCaptive { .. })) => (
                Act::Redeem {
                    points: r.redeem.as_ref().map_or(0, |p| p.value),
                },
                "",
            ),
            ("exchange_back", Some(Options::ExchangeBack)) => (Act::ExchangeBack, ""),
            ("add_piece", _) => (Act::AddPiece, "stack-site"),
            ("exchange_back", _) => (Act::ExchangeBack, "exchange-back"),
            ("top", _) => (Act::Top, "stack-top"),
            ("capture", _) => (Act::Capture { exchange: None }, "in-reach"),
            _ => (Act::Redeem { points: 0 }, "own-captive"),
        };
        if options.is_empty() {
            return Some(fits);
        }
        let msg = format!(
            "`{head}` acts on what an offer's choice named: it goes only in the `then` of an \
             offer with `{options}` options"
        );
        out.push(self.src.diag(Code::BadWhen, a.span.clone(), msg));
        None
    }

    /// The effects of neutral figures and the pile (docs/design/actions.md, 1, 2, 7): `put`,
    /// `no_figures`, `walk`, `return_on`, `set_aside`, `shuffle_back`.
    fn neutral_act(
        &self,
        head: &str,
        a: &Sp<RawAct>,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Act> {
        let r = &a.value;
        let neutral = |n: &Sp<String>, out: &mut Vec<Diagnostic>| {
            self.resolve("neutral figure", self.names.neutrals, n, out)
        };
        Some(match head {
            "put" => Act::Put {
                neutral: neutral(r.put.as_ref()?, out)?,
                on: self.tile_ref(r.on.as_ref(), place, out)?,
            },
            "no_figures" => Act::NoFigures {
                on: self.tile_ref(r.no_figures.as_ref(), place, out)?,
            },
            "walk" => Act::Walk(self.walk(r, neutral(r.walk.as_ref()?, out)?, place, out)?),
            "assign" => {
                let n = r.assign.as_ref()?;
                if !matches!(place.offer, Some(Options::OwnFigure { .. })) {
                    let msg = "`assign` gives a neutral figure to the figure chosen in an offer: \
                               it goes only in the `then` of an offer with `own-figure` options";
                    out.push(self.src.diag(Code::BadWhen, n.span.clone(), msg));
                    return None;
                }
                Act::Assign {
                    neutral: neutral(n, out)?,
                }
            }
            "unassign" => Act::Unassign {
                neutral: neutral(r.unassign.as_ref()?, out)?,
            },
            "return_on" => Act::ReturnOn {
                on: self.tile_ref(r.return_on.as_ref(), place, out)?,
                figures: self.figure_set(r.figures.as_ref()?, out)?,
                rule: match &r.rule {
                    Some(id) => {
                        let bad = self.scope.rules.check(self.src, &id.value, id.span.clone());
                        if let Some(d) = bad {
                            out.push(d);
                            return None;
                        }
                        Some(id.value.clone())
                    }
                    None => None,
                },
                tops: r.tops.as_ref().is_some_and(|t| t.value),
            },
            "set_aside" | "shuffle_back" => {
                let flag = if head == "set_aside" {
                    r.set_aside.as_ref()?
                } else {
                    r.shuffle_back.as_ref()?
                };
                if !flag.value {
                    let msg = format!("`{head} = false` does nothing: leave the effect out");
                    out.push(self.src.diag(Code::BadWhen, flag.span.clone(), msg));
                    return None;
                }
                if head == "set_aside" && !matches!(place.event, RuleEvent::Draw { .. }) {
                    let msg =
                        "`set_aside` sets the drawn tile aside: it goes only in a `draw` rule";
                    out.push(self.src.diag(Code::BadWhen, flag.span.clone(), msg));
                    return None;
                }
                if head == "set_aside" {
                    Act::SetAside
                } else {
                    Act::ShuffleBack
                }
            }
            _ => return None,
        })
    }

    /// A walk's keys (`walk` itself resolved to `neutral`).
    fn walk(
        &self,
        r: &RawAct,
        neutral: u16,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Walk> {
        let when = matches!(
            place.event,
            RuleEvent::BeforeScoring { .. } | RuleEvent::TurnEnd
        );
        if !when || place.walk || place.offer.is_some() {
            let msg = format!(
                "a walk is made between the figure step and the turn's scoring or at the turn's \
                 end: only a `before-scoring` or `turn-end` rule's `then` starts one{}",
                match (place.walk, place.offer.is_some()) {
                    (true, _) => " (not another walk's `on_enter`)",
                    (_, true) => " (not an offer's)",
                    _ => "",
                }
            );
            let at = r.walk.as_ref().map_or(0..0, |w| w.span.clone());
            out.push(self.src.diag(Code::BadWhen, at, msg));
            return None;
        }
        let steps = self.value(r.steps.as_ref()?, place, out)?;
        let mut avoid = Vec::new();
        for a in r.avoid.iter().flat_map(|v| &v.value) {
            avoid.push(self.avoid(a, out)?);
        }
        let inner = Place {
            walk: true,
            ..place
        };
        let on_enter = match &r.on_enter {
            Some(acts) => self.acts(&acts.value, inner, out),
            None => Vec::new(),
        };
        Some(Walk {
            neutral,
            steps,
            chooser: r.chooser.as_ref().map(|c| c.value).unwrap_or_default(),
            revisit: r.revisit.as_ref().map(|c| c.value).unwrap_or_default(),
            avoid,
            on_enter,
        })
    }

    /// A cell a walk avoids: `empty`, `visited`, `neutral(ID)`, `tag(TAG)`.
    pub(super) fn avoid(&self, a: &Sp<String>, out: &mut Vec<Diagnostic>) -> Option<Avoid> {
        let text = a.value.trim();
        let inner = |head: &str| {
            text.strip_prefix(head)
                .and_then(|r| r.strip_prefix('('))
                .and_then(|r| r.strip_suffix(')'))
                .map(str::trim)
        };
        let found = match text {
            "empty" => return Some(Avoid::Empty),
            "visited" => return Some(Avoid::Visited),
            _ => inner("neutral")
                .map(|n| (n, "neutral figure", self.names.neutrals))
                .or_else(|| inner("tag").map(|t| (t, "tag", self.names.tags))),
        };
        let Some((name, what, ids)) = found else {
            let msg =
                format!("`{text}` is no cell to avoid: empty, visited, neutral(ID) or tag(TAG)");
            out.push(self.src.diag(Code::BadWhen, a.span.clone(), msg));
            return None;
        };
        let Some(i) = index_of(ids, name) else {
            out.push(super::dangling(self.src, what, ids, name, a.span.clone()));
            return None;
        };
        Some(if what == "tag" {
            Avoid::Tag(u32::from(i))
        } else {
            Avoid::Neutral(i)
        })
    }

    /// Figure types: a `[groups]` name, or a list of follower ids.
    pub(super) fn figure_set(
        &self,
        f: &Sp<RawFigures>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<FigureSet> {
        let ids = self.names.figures;
        match &f.value {
            RawFigures::Group(g) => {
                if let Some((_, set)) = self.groups.iter().find(|(n, _)| n == g) {
                    return Some(*set);
                }
                let names: Vec<String> = self.groups.iter().map(|(n, _)| n.clone()).collect();
                out.push(super::dangling(
                    self.src,
                    "group",
                    &names,
                    g,
                    f.span.clone(),
                ));
                None
            }
            RawFigures::List(list) => {
                let mut set = 0u32;
                for id in list {
                    match index_of(ids, id).filter(|&i| i < 32) {
                        Some(i) => set |= 1 << i,
                        None => {
                            out.push(super::dangling(self.src, "figure", ids, id, f.span.clone()));
                            return None;
                        }
                    }
                }
                Some(FigureSet(set))
            }
        }
    }

    /// `{ take = COUNTER, into = RESOURCE, to = SEAT }`: needs a subject feature.
    fn take(&self, r: &RawAct, place: Place<'_>, out: &mut Vec<Diagnostic>) -> Option<Act> {
        let take = r.take.as_ref()?;
        if !event::has_feature(place.event) {
            let msg = format!(
                "`take` takes the counters of the subject feature's tiles; a `{}` rule has no \
                 subject feature",
                event::name(place.event)
            );
            out.push(self.src.diag(Code::BadWhen, take.span.clone(), msg));
            return None;
        }
        Some(Act::Take {
            counter: self.resolve("counter", self.names.counters, take, out)?,
            into: self.resolve("resource", self.names.resources, r.into.as_ref()?, out)?,
            to: self.seat(r.to.as_ref()?, place.event, place.offer.is_some(), out)?,
        })
    }

    /// `{ extra_turn = true }`.
    fn extra_turn(&self, v: &Sp<bool>, out: &mut Vec<Diagnostic>) -> Option<Act> {
        if !v.value {
            let msg = "`extra_turn = false` does nothing: leave the effect out";
            out.push(self.src.diag(Code::BadWhen, v.span.clone(), msg));
            return None;
        }
        Some(Act::ExtraTurn)
    }

    /// `{ hand = N }`: only at `draw` with no `tag`; a rule with it takes only `hand`.
    fn hand(&self, n: &Sp<u8>, e: &RuleEvent, out: &mut Vec<Diagnostic>) -> Option<u8> {
        if !matches!(e, RuleEvent::Draw { tag: None }) {
            let msg = format!(
                "`hand` sets the tiles a seat draws up to: it goes only with event = \"draw\" (and no `tag`); \
                 this rule waits for `{}`",
                event::name(e)
            );
            out.push(self.src.diag(Code::BadWhen, n.span.clone(), msg));
            return None;
        }
        if n.value == 0 {
            let msg = "`hand = 0`: a seat holds at least the tile it places";
            out.push(self.src.diag(Code::BadWhen, n.span.clone(), msg));
            return None;
        }
        Some(n.value)
    }

    /// `{ return = "chosen" }`: only in an offer of the chooser's figures.
    fn return_chosen(
        &self,
        a: &Sp<RawAct>,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Act> {
        if matches!(
            place.offer,
            Some(Options::OwnFigure { .. } | Options::FigureIn { .. })
        ) {
            return Some(Act::ReturnChosen);
        }
        let at = a
            .value
            .return_
            .as_ref()
            .map_or(a.span.clone(), |r| r.span.clone());
        let msg = "`return = \"chosen\"` returns the figure chosen in an offer: it goes only in \
                   the `then` of an offer with `own-figure` or `figure-in` options";
        out.push(self.src.diag(Code::BadWhen, at, msg));
        None
    }

    /// `{ place = "chosen" }`: only in an offer of sites (`any-feature`).
    fn place_chosen(
        &self,
        v: &Sp<crate::raw_when::RawChosen>,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Act> {
        if matches!(place.offer, Some(Options::AnyFeature { .. })) {
            return Some(Act::Place);
        }
        let msg = "`place = \"chosen\"` puts a figure on the site chosen in an offer: it goes \
                   only in the `then` of an offer with `any-feature` options";
        out.push(self.src.diag(Code::BadWhen, v.span.clone(), msg));
        None
    }

    /// A resource or counter name, or `"chosen"` in an offer of kinds.
    fn chosen_or(
        &self,
        what: &str,
        name: &Sp<String>,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<u16> {
        if name.value != "chosen" {
            let ids = if what == "resource" {
                self.names.resources
            } else {
                self.names.counters
            };
            return self.resolve(what, ids, name, out);
        }
        if matches!(place.offer, Some(Options::Kind { .. })) {
            return Some(CHOSEN);
        }
        let msg = format!(
            "`\"chosen\"` as a {what} is the kind chosen in an offer: it goes only in the `then` \
             of an offer with `kind` options"
        );
        out.push(self.src.diag(Code::BadWhen, name.span.clone(), msg));
        None
    }

    /// The tile an effect acts on: the subject tile, the tile chosen in a `neighbour-tile`
    /// offer (or the tile the figure chosen in an `own-figure` offer stands on), or the tile a
    /// walk entered.
    fn tile_ref(
        &self,
        on: Option<&Sp<RawTileRef>>,
        place: Place<'_>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<TileRef> {
        let at = on.map_or(0..0, |o| o.span.clone());
        match on.map_or(RawTileRef::Subject, |o| o.value) {
            RawTileRef::Chosen
                if matches!(
                    place.offer,
                    Some(Options::NeighbourTile { .. } | Options::OwnFigure { .. })
                ) =>
            {
                Some(TileRef::Chosen)
            }
            RawTileRef::Entered if place.walk => Some(TileRef::Entered),
            RawTileRef::Entered => {
                let msg = "`\"entered\"` is the tile a walk just entered: it goes only in a \
                           walk's `on_enter`";
                out.push(self.src.diag(Code::BadWhen, at, msg));
                None
            }
            RawTileRef::Chosen => {
                let msg = "`on = \"chosen\"` is the tile chosen in an offer: it goes only in the \
                           `then` of an offer with `neighbour-tile` options (the chosen tile) or \
                           `own-figure` options (the chosen figure's tile)";
                out.push(self.src.diag(Code::BadWhen, at, msg));
                None
            }
            RawTileRef::Subject if event::has_tile(place.event) => Some(TileRef::Subject),
            RawTileRef::Subject => {
                let msg = format!(
                    "this effect acts on the subject tile, and a `{}` rule has none",
                    event::name(place.event)
                );
                out.push(self.src.diag(Code::BadWhen, at, msg));
                None
            }
        }
    }

    /// A value of an effect, over the rule's subject.
    fn value(&self, v: &Sp<RawValue>, place: Place<'_>, out: &mut Vec<Diagnostic>) -> Option<Expr> {
        let text = v.value.text();
        let rules = self.scope.rules;
        match crate::values::parse_rule_value(&text, place.kind, self.names, rules) {
            Ok(e) => {
                let mut qs = Vec::new();
                e.quantities(&mut qs);
                let chosen = matches!(
                    place.offer,
                    Some(
                        Options::OwnFigure { .. }
                            | Options::FigureIn { .. }
                            | Options::AnyFeature { .. }
                    )
                );
                self.reads_subject(&qs, place.event, chosen, &v.span, out);
                Some(e)
            }
            Err(err) => {
                let at = match &v.value {
                    RawValue::Text(s) => {
                        let sp = Sp {
                            value: s.clone(),
                            span: v.span.clone(),
                        };
                        crate::values::inner_span(self.src, &sp, err.at)
                    }
                    RawValue::Int(_) => v.span.clone(),
                };
                out.push(self.src.diag(Code::BadWhen, at, err.message));
                None
            }
        }
    }

    /// A seat: `actor`, `placer`, `owner`, `winners`, `every`, `holder(TOKEN)`, `chooser` (in an
    /// offer's `then` only), each where the event gives it a meaning.
    pub(super) fn seat(
        &self,
        s: &Sp<String>,
        e: &RuleEvent,
        in_offer: bool,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Seat> {
        let text = s.value.trim();
        let bad = |msg: String, out: &mut Vec<Diagnostic>| {
            out.push(self.src.diag(Code::BadWhen, s.span.clone(), msg));
            None
        };
        let seat = match text {
            "actor" => Seat::Actor,
            "every" => Seat::Every,
            // A rule a tile carries has that tile's owner at every event.
            "placer" | "owner" if !(event::has_tile(e) || text == "owner" && self.carried) => {
                let msg = format!(
                    "`{text}` is a seat of the subject tile, and a `{}` rule has none",
                    event::name(e)
                );
                return bad(msg, out);
            }
            "placer" => Seat::Placer,
            "owner" => Seat::Owner,
            "winners" if !event::has_winners(e) => {
                let msg = format!(
                    "`winners` are a feature's majority: only a `feature-completed`, \
                     `feature-scored` or `feature-paid` rule has them, not a `{}` rule",
                    event::name(e)
                );
                return bad(msg, out);
            }
            "winners" => Seat::Winners,
            // A `chained` rule's offer goes to seats of the choice that made it.
            "chooser" if !in_offer && *e != RuleEvent::Chained => {
                let msg = "`chooser` is the seat that made an offer's choice: it goes only in \
                           the `then` of an offer, or in a `chained` rule (the choice that made \
                           its offer)"
                    .to_string();
                return bad(msg, out);
            }
            "chooser" => Seat::Chooser,
            "chosen-owner" if *e != RuleEvent::Chained => {
                let msg = "`chosen-owner` owns the figure chosen in the offer that made this one: \
                           it goes only in a `chained` rule"
                    .to_string();
                return bad(msg, out);
            }
            "chosen-owner" => Seat::ChosenOwner,
            _ if text.starts_with("has(") && !event::has_winners(e) => {
                let msg = format!(
                    "`{text}` reads a feature's majority: only a `feature-completed`, \
                     `feature-scored` or `feature-paid` rule has one, not a `{}` rule",
                    event::name(e)
                );
                return bad(msg, out);
            }
            _ if text.starts_with("owners-on(") && !event::has_feature(e) => {
                let msg = format!(
                    "`{text}` reads the subject feature's figures: only a `figure-placed`, \
                     `feature-completed`, `feature-scored` or `feature-paid` rule has one, not \
                     a `{}` rule",
                    event::name(e)
                );
                return bad(msg, out);
            }
            _ => return self.holder(s, text, out),
        };
        Some(seat)
    }

    /// `holder(TOKEN)` or `most(RESOURCE)`, or the diagnostic for a seat that is none of the
    /// seats.
    fn holder(&self, s: &Sp<String>, text: &str, out: &mut Vec<Diagnostic>) -> Option<Seat> {
        let inner = |head: &str| {
            text.strip_prefix(head)
                .and_then(|r| r.strip_prefix('('))
                .and_then(|r| r.strip_suffix(')'))
                .map(str::trim)
        };
        if let Some(figure) = inner("has") {
            let ids = self.names.figures;
            if let Some(i) = index_of(ids, figure).and_then(|i| u8::try_from(i).ok()) {
                return Some(Seat::Has(i));
            }
            let span = s.span.clone();
            out.push(super::dangling(self.src, "figure", ids, figure, span));
            return None;
        }
        if let Some(test) = inner("where") {
            return self.seat_where(s, test, out);
        }
        let neutral_seat = [
            ("assigned-owner", Seat::AssignedOwner as fn(u16) -> Seat),
            ("owners-on", Seat::OwnersOn),
        ];
        if let Some((neutral, seat)) = neutral_seat
            .into_iter()
            .find_map(|(head, seat)| inner(head).map(|n| (n, seat)))
        {
            let ids = self.names.neutrals;
            if let Some(i) = index_of(ids, neutral) {
                return Some(seat(i));
            }
            let span = s.span.clone();
            out.push(super::dangling(
                self.src,
                "neutral figure",
                ids,
                neutral,
                span,
            ));
            return None;
        }
        if let Some(resource) = inner("most") {
            let ids = self.names.resources;
            if let Some(i) = index_of(ids, resource) {
                return Some(Seat::Most(i));
            }
            let span = s.span.clone();
            out.push(super::dangling(self.src, "resource", ids, resource, span));
            return None;
        }
        let Some(token) = inner("holder") else {
            let head = text.split('(').next().unwrap_or(text);
            let near = crate::names::did_you_mean(head, SEATS.iter().copied());
            let msg = format!(
                "`{text}` is no seat: actor, placer, owner, winners, every, holder(TOKEN), \
                 most(RESOURCE), has(FIGURE), where(TEST), assigned-owner(NEUTRAL), \
                 owners-on(NEUTRAL) or chooser{near}"
            );
            out.push(self.src.diag(Code::BadWhen, s.span.clone(), msg));
            return None;
        };
        if let Some(i) = index_of(self.names.tokens, token) {
            return Some(Seat::Holder(i));
        }
        out.push(super::dangling(
            self.src,
            "token",
            self.names.tokens,
            token,
            s.span.clone(),
        ));
        None
    }

    /// `where(TEST)`: every seat for which the test holds, reading that seat's values (`score`,
    /// `taken`, `held(R)`).
    fn seat_where(&self, s: &Sp<String>, test: &str, out: &mut Vec<Diagnostic>) -> Option<Seat> {
        let rules = self.scope.rules;
        match crate::values::parse_rule_test(test, None, self.names, rules) {
            Ok(t) => Some(Seat::Where(Box::new(t))),
            Err(err) => {
                let msg = format!("where: {}", err.message);
                out.push(self.src.diag(Code::BadWhen, s.span.clone(), msg));
                None
            }
        }
    }
}
