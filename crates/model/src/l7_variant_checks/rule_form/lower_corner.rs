//! The corner figure's short form lowered to the one rule form (docs/design/rule-form.md,
//! "Lowering the short forms"): a figure's `corner = { place, join, final }` (AM-7..AM-9)
//! becomes three rules, so the engine pays corner figures through its dispatcher alone:
//!
//! - `figure-placed` (that figure) → `score-feature` with `place`: its field to the field's
//!   majority, whose figures return (AM-7);
//! - `joined` (a field holding figures joined to that figure's field) → `score-feature` with
//!   `join`, part by part under `readings.joined_field_scoring = "each-field"` (AM-8; the
//!   `joined_field_timing` reading says when the engine raises `joined`);
//! - `figure-at-end` (that figure) → `score-figure` with `final`: its owner scores its field
//!   after final scoring (AM-9).
//!
//! The rules come before the `[[when]]` entries (short forms first), by figure, in that order.

use std::path::PathBuf;

use tegula_ruleset::{Act, FollowerType, JoinedFieldScoring, Readings, RuleEvent, When};

use crate::diag::Source;
use crate::raw::{RawFollower, Sp};

/// The rules of the corner figures among `followers` under `readings`.
pub(crate) fn corner_rules(followers: &[FollowerType], readings: &Readings) -> Vec<When> {
    let each_part = readings.joined_field_scoring == JoinedFieldScoring::EachField;
    let mut out = Vec::new();
    for (i, f) in followers.iter().enumerate() {
        let (Some(c), Ok(figure)) = (&f.corner, u8::try_from(i)) else {
            continue;
        };
        let figure = Some(figure);
        out.push(rule(
            &c.place_rule,
            RuleEvent::FigurePlaced { figure },
            Act::ScoreFeature {
                value: c.place.clone(),
                each_part: false,
            },
        ));
        out.push(rule(
            &c.join_rule,
            RuleEvent::Joined { figure },
            Act::ScoreFeature {
                value: c.join.clone(),
                each_part,
            },
        ));
        out.push(rule(
            &c.final_rule,
            RuleEvent::FigureAtEnd { figure },
            Act::ScoreFigure {
                value: c.final_.clone(),
            },
        ));
    }
    out
}

/// A rule with one automatic effect and no test.
fn rule(id: &str, event: RuleEvent, act: Act) -> When {
    When {
        rule: id.to_string(),
        event,
        test: None,
        then: vec![act],
        offer: None,
        tile: None,
    }
}

/// Where each rule of [`corner_rules`] was written: the file and line of its figure's `corner`
/// (of the figure's `[[follower]]` when the span is lost), three per corner figure.
pub(crate) fn corner_origins(
    followers: &[FollowerType],
    raw: &[Sp<RawFollower>],
    src: &Source,
) -> Vec<(PathBuf, usize)> {
    let mut out = Vec::new();
    for f in followers.iter().filter(|f| f.corner.is_some()) {
        let written = raw.iter().find(|r| r.value.id.value == f.id);
        let start = written.map_or(0, |r| {
            r.value
                .corner
                .as_ref()
                .map_or(r.span.start, |c| c.span.start)
        });
        let (file, at) = src.origin(start);
        let line = file.line_col(at).0;
        out.extend(std::iter::repeat_n((file.path.clone(), line), 3));
    }
    out
}

#[cfg(test)]
mod tests {
    use tegula_ruleset::{CornerScoring, Expr, Quantity, Site};

    use super::*;

    fn corner_figure() -> FollowerType {
        let cities = |n| {
            Expr::Mul(
                Box::new(Expr::Int(n)),
                Box::new(Expr::Count(Quantity::Cities)),
            )
        };
        FollowerType {
            sites: vec![Site::Corner],
            corner: Some(CornerScoring {
                place: cities(3),
                join: cities(1),
                final_: cities(4),
                place_rule: "P".into(),
                join_rule: "J".into(),
                final_rule: "F".into(),
            }),
            ..FollowerType::standard("c", "C", 1, 0)
        }
    }

    #[test]
    fn a_corner_figure_becomes_three_rules_and_the_reading_picks_the_join() {
        let figures = [FollowerType::standard("m", "M", 7, 1), corner_figure()];
        let mut readings = Readings::default();
        let rules = corner_rules(&figures, &readings);
        let events: Vec<(&str, &RuleEvent)> =
            rules.iter().map(|w| (w.rule.as_str(), &w.event)).collect();
        let figure = Some(1);
        assert_eq!(
            events,
            [
                ("P", &RuleEvent::FigurePlaced { figure }),
                ("J", &RuleEvent::Joined { figure }),
                ("F", &RuleEvent::FigureAtEnd { figure }),
            ]
        );
        assert!(matches!(
            &rules[1].then[..],
            [Act::ScoreFeature {
                each_part: false,
                ..
            }]
        ));
        assert!(matches!(&rules[2].then[..], [Act::ScoreFigure { .. }]));
        readings.joined_field_scoring = JoinedFieldScoring::EachField;
        let rules = corner_rules(&figures, &readings);
        assert!(matches!(
            &rules[1].then[..],
            [Act::ScoreFeature {
                each_part: true,
                ..
            }]
        ));
        assert!(corner_rules(&figures[..1], &readings).is_empty());
    }
}
