//! The pool's thresholds lowered to the one rule form (docs/design/rule-form.md, "The pool's
//! thresholds: lowered"): a variant's `[pool] thresholds`, `second` and `gain` (W-2, W-3, W-30)
//! stay in the data as sugar and become one shared track and one rule, so the engine runs the
//! takes through its dispatcher alone:
//!
//! - the track (the threshold pairs): it starts at `first` and goes no further than `cap`;
//! - `turn-finished` → an offer of a pool tile (`pool-tile`, never declined) to every seat
//!   `where (taken == 0 and score >= PAIRS) or (taken == 1 and score >= second)`, made again
//!   until no seat qualifies (`repeat`: W-3's "anyone already at or past the moved pairs is
//!   next"), the actor choosing who goes first when several do (`order = "actor-chooses"`);
//!   the chooser puts `gain.first` figures into supply on a first take and `gain.second` on a
//!   second, and a first take moves the track on by `step`.
//!
//! `PAIRS` is where the track stands (`track(T)`) under W-3's `new-position` reading, and the
//! lower of that and where it stood when the turn finished (`track_was(T)`) under
//! `old-position`.

use tegula_ruleset::{
    Act, Compare, Expr, Offer, Options, Quantity, Readings, RuleEvent, Seat, SeatOrder, Test,
    ThresholdRecheck, TrackType, When,
};

use crate::pool::Thresholds;

/// The id of the track the thresholds lower to.
pub(crate) const TRACK_ID: &str = "thresholds";

/// The track and the rule of `th` under `readings`, citing `rule` (the pool's `take` rule,
/// W-2); the track is `track` (its index among the variant's tracks).
pub(crate) fn pool_rule(
    th: &Thresholds,
    readings: &Readings,
    rule: &str,
    track: u16,
) -> (TrackType, When) {
    let t = u32::from(track);
    let at = || Expr::Count(Quantity::Track(t));
    let pairs = match readings.threshold_recheck {
        ThresholdRecheck::NewPosition => at(),
        ThresholdRecheck::OldPosition => {
            let was = || Expr::Count(Quantity::TrackWas(t));
            let lower = cmp(Compare::Le, was(), at());
            Expr::If(Box::new(lower), Box::new(was()), Box::new(at()))
        }
    };
    let score = || Expr::Count(Quantity::Score);
    let taken_is = |k: u32| cmp(Compare::Eq, Expr::Count(Quantity::Taken), Expr::Int(k));
    let first = and(taken_is(0), cmp(Compare::Ge, score(), pairs));
    let (to, add, by) = match th.second {
        Some(second) => {
            let again = and(taken_is(1), cmp(Compare::Ge, score(), Expr::Int(second)));
            let on_first = |a: u32, b: u32| {
                Expr::If(
                    Box::new(taken_is(0)),
                    Box::new(Expr::Int(a)),
                    Box::new(Expr::Int(b)),
                )
            };
            let add = on_first(u32::from(th.gain_first), u32::from(th.gain_second));
            (
                Test::Or(Box::new(first), Box::new(again)),
                add,
                on_first(th.step, 0),
            )
        }
        None => (
            first,
            Expr::Int(u32::from(th.gain_first)),
            Expr::Int(th.step),
        ),
    };
    let offer = Offer {
        to: Seat::Where(Box::new(to)),
        options: Options::PoolTile,
        may_decline: false,
        uses_figure_step: false,
        then: vec![
            Act::Figures {
                figure: th.figure,
                add,
                to: Seat::Chooser,
            },
            Act::Advance { track, by },
        ],
        repeat: true,
        order: SeatOrder::ActorChooses,
    };
    let when = When {
        rule: rule.to_string(),
        event: RuleEvent::TurnFinished,
        test: None,
        then: Vec::new(),
        offer: Some(offer),
        tile: None,
    };
    let track = TrackType {
        id: TRACK_ID.to_string(),
        name: "the pool's threshold pairs".to_string(),
        start: th.first,
        max: th.cap,
    };
    (track, when)
}

fn cmp(op: Compare, a: Expr, b: Expr) -> Test {
    Test::Cmp(op, Box::new(a), Box::new(b))
}

fn and(a: Test, b: Test) -> Test {
    Test::And(Box::new(a), Box::new(b))
}
