//! A `[[when]]`'s event and the keys that filter it (`kinds`, `at`, `tag`, `figure`): each key
//! goes with one or two events only.

use tegula_ruleset::{FeatureKind, Quantity, RuleEvent, ScoredAt};

use super::{dangling, Cx};
use crate::diag::{Code, Diagnostic};
use crate::raw_when::{RawEvent, RawParts, RawScoredAt, RawWhen};

impl Cx<'_> {
    /// The event of `w` with its filters, or `None` after a diagnostic.
    pub(super) fn event(&self, w: &RawWhen, out: &mut Vec<Diagnostic>) -> Option<RuleEvent> {
        let ev = w.event.value;
        let before = out.len();
        self.stray(ev, w, out);
        let kinds: Vec<FeatureKind> = w
            .kinds
            .iter()
            .flat_map(|k| &k.value)
            .map(|k| k.value.lowered())
            .collect();
        let e = match ev {
            RawEvent::TilePlaced => RuleEvent::TilePlaced {
                tag: match &w.tag {
                    Some(t) => Some(self.tag(t, out)?),
                    None => None,
                },
            },
            RawEvent::FigureStep => match &w.tag {
                Some(t) => RuleEvent::FigureStepOn {
                    tag: self.tag(t, out)?,
                },
                None => RuleEvent::FigureStep,
            },
            RawEvent::FigurePlaced => RuleEvent::FigurePlaced {
                figure: match &w.figure {
                    Some(f) => Some(self.figure(f, out)?),
                    None => None,
                },
            },
            RawEvent::FeatureCompleted => {
                self.never_completed(w, &kinds, out);
                RuleEvent::FeatureCompleted { kinds }
            }
            RawEvent::FeatureScored => RuleEvent::FeatureScored {
                kinds,
                at: match w.at.as_ref().map(|a| a.value) {
                    None | Some(RawScoredAt::Any) => ScoredAt::Any,
                    Some(RawScoredAt::Game) => ScoredAt::Game,
                    Some(RawScoredAt::End) => ScoredAt::End,
                },
            },
            RawEvent::TurnStart => match w.parts.as_ref().map(|p| p.value) {
                None | Some(RawParts::First) => RuleEvent::TurnStart,
                Some(RawParts::Each) => RuleEvent::TurnStartEach,
            },
            RawEvent::TurnEnd => RuleEvent::TurnEnd,
            RawEvent::GameEnd => RuleEvent::GameEnd,
            RawEvent::GameOver => RuleEvent::GameOver,
            RawEvent::FeaturePaid => RuleEvent::FeaturePaid { kinds },
            RawEvent::TurnFinished => RuleEvent::TurnFinished,
            RawEvent::Chained => RuleEvent::Chained,
            RawEvent::BeforeScoring => RuleEvent::BeforeScoring {
                tag: match &w.tag {
                    Some(t) => Some(self.tag(t, out)?),
                    None => None,
                },
            },
            RawEvent::Draw => RuleEvent::Draw {
                tag: match &w.tag {
                    Some(t) => Some(self.tag(t, out)?),
                    None => None,
                },
            },
        };
        (out.len() == before).then_some(e)
    }

    /// Report the filter keys `w` gives that its event does not take.
    fn stray(&self, ev: RawEvent, w: &RawWhen, out: &mut Vec<Diagnostic>) {
        use RawEvent as E;
        let keys = [
            (
                "kinds",
                w.kinds.as_ref().map(|k| k.span.clone()),
                matches!(ev, E::FeatureCompleted | E::FeatureScored | E::FeaturePaid),
                "`feature-completed`, `feature-scored` or `feature-paid`",
            ),
            (
                "at",
                w.at.as_ref().map(|k| k.span.clone()),
                ev == E::FeatureScored,
                "`feature-scored`",
            ),
            (
                "parts",
                w.parts.as_ref().map(|k| k.span.clone()),
                ev == E::TurnStart,
                "`turn-start`",
            ),
            (
                "tag",
                w.tag.as_ref().map(|k| k.span.clone()),
                matches!(
                    ev,
                    E::TilePlaced | E::FigureStep | E::BeforeScoring | E::Draw
                ),
                "`tile-placed`, `figure-step`, `before-scoring` or `draw`",
            ),
            (
                "figure",
                w.figure.as_ref().map(|k| k.span.clone()),
                ev == E::FigurePlaced,
                "`figure-placed`",
            ),
        ];
        for (key, span, fits, with) in keys {
            let Some(span) = span else { continue };
            if !fits {
                let msg = format!(
                    "`{key}` goes only with event = {with}; this rule waits for `{}`",
                    ev.name()
                );
                out.push(self.src.diag(Code::BadWhen, span, msg));
            }
        }
    }

    /// A field is never completed during the game: a `feature-completed` rule for fields only
    /// would never fire.
    fn never_completed(&self, w: &RawWhen, kinds: &[FeatureKind], out: &mut Vec<Diagnostic>) {
        if !kinds.is_empty() && kinds.iter().all(|k| *k == FeatureKind::Field) {
            let at = w.kinds.as_ref().map_or(0..0, |k| k.span.clone());
            let msg = "a field is never completed, so this rule would never fire (a field is \
                       scored at the end: event = \"feature-scored\", at = \"end\")";
            out.push(self.src.diag(Code::BadWhen, at, msg));
        }
    }

    /// A tag name as its index.
    fn tag(&self, t: &crate::raw::Sp<String>, out: &mut Vec<Diagnostic>) -> Option<u32> {
        let tags = self.scope.tags;
        match tags.iter().position(|x| *x == t.value) {
            Some(i) => u32::try_from(i).ok(),
            None => {
                out.push(dangling(self.src, "tag", tags, &t.value, t.span.clone()));
                None
            }
        }
    }
}

/// The event's name as written.
pub(super) fn name(e: &RuleEvent) -> &'static str {
    match e {
        RuleEvent::TilePlaced { .. } => "tile-placed",
        RuleEvent::FigureStep | RuleEvent::FigureStepOn { .. } => "figure-step",
        RuleEvent::FigurePlaced { .. } => "figure-placed",
        RuleEvent::FeatureCompleted { .. } => "feature-completed",
        RuleEvent::FeatureScored { .. } => "feature-scored",
        RuleEvent::TurnStart | RuleEvent::TurnStartEach => "turn-start",
        RuleEvent::TurnEnd => "turn-end",
        RuleEvent::GameEnd => "game-end",
        RuleEvent::GameOver => "game-over",
        // Lowered from a corner figure's short form only (no `[[when]]` writes them yet).
        RuleEvent::Joined { .. } => "joined",
        RuleEvent::FigureAtEnd { .. } => "figure-at-end",
        RuleEvent::FeaturePaid { .. } => "feature-paid",
        RuleEvent::TurnFinished => "turn-finished",
        RuleEvent::Chained => "chained",
        RuleEvent::BeforeScoring { .. } => "before-scoring",
        RuleEvent::Draw { .. } => "draw",
    }
}

/// The subject feature's kind, when the event names exactly one.
pub(super) fn single_kind(e: &RuleEvent) -> Option<FeatureKind> {
    match e {
        RuleEvent::FeatureCompleted { kinds }
        | RuleEvent::FeatureScored { kinds, .. }
        | RuleEvent::FeaturePaid { kinds }
            if kinds.len() == 1 =>
        {
            Some(kinds[0])
        }
        _ => None,
    }
}

/// Whether the event has a subject tile on the board (all but the turn's and the game's, and
/// a draw's, whose tile is not placed yet).
pub(super) fn has_tile(e: &RuleEvent) -> bool {
    !matches!(
        e,
        RuleEvent::TurnStart
            | RuleEvent::TurnStartEach
            | RuleEvent::TurnEnd
            | RuleEvent::TurnFinished
            | RuleEvent::GameEnd
            | RuleEvent::GameOver
            | RuleEvent::Draw { .. }
    )
}

/// Whether the event's subject is a feature (with its tiles and, when scored, its winners).
pub(super) fn has_feature(e: &RuleEvent) -> bool {
    matches!(
        e,
        RuleEvent::FigurePlaced { .. }
            | RuleEvent::FeatureCompleted { .. }
            | RuleEvent::FeatureScored { .. }
            | RuleEvent::FeaturePaid { .. }
    )
}

/// Whether the event's subject feature has winners (a majority, B-5).
pub(super) fn has_winners(e: &RuleEvent) -> bool {
    matches!(
        e,
        RuleEvent::FeatureCompleted { .. }
            | RuleEvent::FeatureScored { .. }
            | RuleEvent::FeaturePaid { .. }
    )
}

/// Whether a count reads the event's subject (not the board or the seats).
pub(super) fn reads_subject(q: Quantity) -> bool {
    !matches!(
        q,
        Quantity::Record(_)
            | Quantity::Held(_)
            | Quantity::Completed(_)
            | Quantity::OwnerActs
            | Quantity::Figures { .. }
            | Quantity::Features { .. }
            | Quantity::Lines(_)
            | Quantity::Players
            | Quantity::GameTiles
            | Quantity::Score
            | Quantity::Taken
            | Quantity::Track(_)
            | Quantity::TrackWas(_)
            | Quantity::OnBoard(_)
            | Quantity::SetAside
            | Quantity::Assigned(_)
            | Quantity::OnTileOf(_)
    )
}

/// Whether the event happens only once the game is over (no turn is left: no offer is made and
/// no extra turn is taken).
pub(super) fn at_end(e: &RuleEvent) -> bool {
    matches!(
        e,
        RuleEvent::GameEnd
            | RuleEvent::GameOver
            | RuleEvent::FeatureScored {
                at: ScoredAt::End,
                ..
            }
    )
}
