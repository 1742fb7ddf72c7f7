//! A step's `choices`: answers to the choices rules offer (a `[[when]]`'s `offer`), checked
//! against the variant's rules — the rule has an offer, the answer is of the offer's kind of
//! option, a declined offer may be declined — and resolved to what the runner matches against
//! the engine's options.

use tegula_model::raw::Sp;
use tegula_model::Code;
use tegula_ruleset::{Act, Offer, Options, RuleEvent, Ruleset, When};

use super::{coordinates, names, seat, Ctx, Pos};
use crate::raw::{RawChoice, RawChoose};

/// An answer to an offered choice, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceAnswer {
    /// The rule id of the offer.
    pub rule: String,
    /// What is answered.
    pub answer: Answer,
    /// The seat that must be asked, if the file says.
    pub player: Option<u8>,
    /// Whether the offer is made at the figure step (beside the follower options).
    pub figure_step: bool,
    /// Whether taking it uses up the figure step (then no follower).
    pub uses_figure_step: bool,
    /// Whether the engine must refuse it (the offer then stays open).
    pub refused: bool,
    /// The option must not be offered (nothing is chosen).
    pub not_offered: bool,
    /// Position in the file.
    pub pos: Pos,
}

/// The option an answer takes, or a decline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A figure, or a site for one: a cell of its tile, a segment id of its feature there and
    /// its figure type (a follower id), each if given.
    Figure((i32, i32), Option<String>, Option<String>),
    /// A placed tile, by a cell of it.
    Tile((i32, i32)),
    /// A kind, by its resource id.
    Kind(String),
    /// A figure of the chooser's held by another seat, by its figure type id.
    Captive(String),
    /// The offer is declined.
    Decline,
}

/// A step's answers, each checked; a bad one is reported and left out.
pub(super) fn choices(
    cx: &mut Ctx,
    rs: &Ruleset,
    raw: &[Sp<RawChoice>],
    players: u8,
) -> Vec<ChoiceAnswer> {
    let mut out = Vec::new();
    for c in raw {
        let player = c.player.as_ref().and_then(|p| seat(cx, p, players));
        let pos = cx.pos(&c.span);
        let refused = c.refused.as_ref().is_some_and(|r| r.value);
        let answer = match (&c.choose, &c.decline) {
            (Some(ch), None) => choose(cx, rs, ch),
            (None, Some(rule)) => decline(cx, rs, rule, refused),
            _ => {
                let why = "a choice is `choose = { rule, figure | tile | kind }` or \
                           `decline = \"RULE\"`, exactly one of them";
                cx.err(Code::BadScenario, &c.span, why);
                None
            }
        };
        if c.not_offered && c.choose.is_none() {
            let why = "`not_offered = true` goes with a `choose`: the option that must not be \
                       offered";
            cx.err(Code::BadScenario, &c.span, why);
        }
        if let Some((rule, answer, w)) = answer {
            let offer = w.offer.as_ref();
            out.push(ChoiceAnswer {
                rule,
                answer,
                player,
                figure_step: matches!(
                    w.event,
                    RuleEvent::FigureStep | RuleEvent::FigureStepOn { .. }
                ),
                uses_figure_step: offer.is_some_and(|o| o.uses_figure_step),
                refused,
                not_offered: c.not_offered,
                pos,
            });
        }
    }
    out
}

/// Whether rule `w` walks a neutral figure: each step is a choice of a tile (PD-5).
fn walks(w: &When) -> bool {
    w.then.iter().any(|a| matches!(a, Act::Walk(_)))
}

/// Whether rule `w` makes choices: an offer, or the steps of a walk.
fn chooses(w: &When) -> bool {
    w.offer.is_some() || walks(w)
}

/// The rules of the variant with an offer (or a walk) whose id is `rule`; an unknown one is
/// reported, listing the offered rule ids.
fn offered<'r>(cx: &mut Ctx, rs: &'r Ruleset, rule: &Sp<String>) -> Vec<&'r When> {
    let found: Vec<&When> = (rs.when.iter())
        .filter(|w| chooses(w) && w.rule == rule.value)
        .collect();
    if found.is_empty() {
        let offering = rs.when.iter().filter(|w| chooses(w));
        let ids = names(offering.map(|w| w.rule.clone()));
        let why = format!("no rule `{}` of the variant offers a choice", rule.value);
        let d = cx.err(Code::DanglingReference, &rule.span, why);
        d.notes.push(match ids.is_empty() {
            true => format!("variant `{}` offers no choice", rs.id),
            false => format!("variant `{}` offers choices under: {ids}", rs.id),
        });
    }
    found
}

type Resolved<'r> = (String, Answer, &'r When);

fn decline<'r>(
    cx: &mut Ctx,
    rs: &'r Ruleset,
    rule: &Sp<String>,
    refused: bool,
) -> Option<Resolved<'r>> {
    let found = offered(cx, rs, rule);
    let may = |w: &&&When| {
        if refused {
            return true;
        }
        let figure_step = matches!(
            w.event,
            RuleEvent::FigureStep | RuleEvent::FigureStepOn { .. }
        );
        figure_step || w.offer.as_ref().is_some_and(|o| o.may_decline)
    };
    let Some(&w) = found.iter().find(may) else {
        if !found.is_empty() {
            let why = format!("the offer of `{}` may not be declined", rule.value);
            cx.err(Code::BadScenario, &rule.span, why);
        }
        return None;
    };
    Some((rule.value.clone(), Answer::Decline, w))
}

fn choose<'r>(cx: &mut Ctx, rs: &'r Ruleset, ch: &Sp<RawChoose>) -> Option<Resolved<'r>> {
    let found = offered(cx, rs, &ch.rule);
    if found.is_empty() {
        return None;
    }
    let answer = match (&ch.figure, &ch.tile, &ch.kind, &ch.captive) {
        (Some(at), None, None, None) => {
            let on = ch.on.as_ref().map(|o| o.value.clone());
            let kind = ch.kind_of.as_ref().map(|o| o.value.clone());
            Answer::Figure(coordinates(cx, at)?, on, kind)
        }
        (None, Some(at), None, None) => Answer::Tile(coordinates(cx, at)?),
        (None, None, Some(k), None) => Answer::Kind(k.value.clone()),
        (None, None, None, Some(f)) => Answer::Captive(f.value.clone()),
        _ => {
            let why = "a `choose` names exactly one of `figure = [x, y]`, `tile = [x, y]`, \
                       `kind = \"ID\"` and `captive = \"FIGURE\"`";
            cx.err(Code::BadScenario, &ch.span, why);
            return None;
        }
    };
    if (ch.on.is_some() || ch.kind_of.is_some()) && ch.figure.is_none() {
        let why = "`on` and `type` name the segment and type of a chosen `figure`";
        cx.err(Code::BadScenario, &ch.span, why);
    }
    let step = walks_to_tile(&answer);
    let fits = |w: &&&When| {
        w.offer.as_ref().is_some_and(|o| of_kind(o, &answer, rs)) || (walks(w) && step)
    };
    let Some(&w) = found.iter().find(fits) else {
        let what = found[0]
            .offer
            .as_ref()
            .map_or("the tiles a walk steps to", |o| option_words(&o.options));
        let why = format!("the offer of `{}` is of {what}", ch.rule.value);
        cx.err(Code::BadScenario, &ch.span, why);
        return None;
    };
    Some((ch.rule.value.clone(), answer, w))
}

/// Whether `answer` can be a walk's step (a tile entered).
fn walks_to_tile(answer: &Answer) -> bool {
    matches!(answer, Answer::Tile(_))
}

/// Whether `answer` is an option of the kind `offer` lists (a kind by one of its ids).
fn of_kind(offer: &Offer, answer: &Answer, rs: &Ruleset) -> bool {
    match (&offer.options, answer) {
        (
            Options::OwnFigure { .. } | Options::FigureIn { .. } | Options::AnyFeature { .. },
            Answer::Figure(..),
        ) => true,
        (Options::NeighbourTile { .. }, Answer::Tile(_)) => true,
        (Options::StackSite { .. }, Answer::Tile(_)) => true,
        (Options::StackTop { .. } | Options::InReach { .. }, Answer::Figure(..)) => true,
        (Options::OwnCaptive { .. } | Options::ExchangeBack, Answer::Captive(_)) => true,
        (Options::Kind { of }, Answer::Kind(id)) => of.iter().any(|k| {
            let r = rs.resources.get(usize::from(k.resource));
            r.is_some_and(|r| r.id == *id)
        }),
        _ => false,
    }
}

/// What an offer's options are, in words (for a diagnostic).
fn option_words(o: &Options) -> &'static str {
    match o {
        Options::OwnFigure { .. } => "figures: answer with `figure = [x, y]`",
        Options::NeighbourTile { .. } => "neighbouring tiles: answer with `tile = [x, y]`",
        Options::Kind { .. } => "kinds of piece: answer with `kind = \"ID\"`, one of its kinds",
        Options::PoolTile => "pool tiles: a step's `take` answers them, not a choice",
        Options::FigureIn { .. } => "figures on a feature: answer with `figure = [x, y]`",
        Options::AnyFeature { .. } => {
            "sites for a figure: answer with `figure = [x, y]`, `on` and `type`"
        }
        Options::StackSite { .. } => "stacks: answer with `tile = [x, y]`, a cell of its tile",
        Options::StackTop { .. } => "figures on a stack: answer with `figure = [x, y]`",
        Options::InReach { .. } => "figures in reach: answer with `figure = [x, y]` (and `on`)",
        Options::OwnCaptive { .. } => "held figures: answer with `captive = \"FIGURE\"`",
        Options::ExchangeBack => "figures to get back: answer with `captive = \"FIGURE\"`",
    }
}
