//! Abilities that can never score: a trigger, condition or count that the variant's tiles,
//! figures and player range make impossible (docs/RULE-LANGUAGE.md, "Abilities that can never
//! score"). Such an ability is accepted by every key check and scores 0 in every game, so it is
//! refused (`never-scores`) like an ability no player can own.
//!
//! The reasons are derived from the rules, not listed per wonder: which feature kinds the tiles
//! have, which kinds some figure stands on (`sites`), which figures stay on a feature after it
//! is scored (`after_score`), and when completed features still hold figures. [`ROWS`] is the
//! whole table, one row per reason.

use tegula_ruleset::{
    AfterScore, Condition, Count, Effect, Expr, FeatureKind, FollowerType, Owner, Per, State,
    Trigger,
};

use crate::abilities::AbilityDef;
use crate::diag::{Code, Diagnostic, Source};
use crate::tile::CompiledTile;

/// What a variant allows, as far as the rows below need it.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// Feature kinds some tile of the variant has.
    pub on_tiles: Vec<FeatureKind>,
    /// Feature kinds some figure type stands on (corner figures stand on no feature).
    pub stands: Vec<FeatureKind>,
    /// Feature kinds some figure type stands on and stays on after the feature is scored.
    pub stays: Vec<FeatureKind>,
    /// Most players.
    pub max_players: u8,
}

impl Facts {
    /// The facts of a variant's tiles, figure types and player range.
    pub fn of(tiles: &[CompiledTile], followers: &[FollowerType], max_players: u8) -> Facts {
        let kinds = |f: &FollowerType| {
            f.sites
                .iter()
                .filter_map(|s| s.feature_kind())
                .collect::<Vec<_>>()
        };
        let mut facts = Facts {
            max_players,
            ..Facts::default()
        };
        for t in tiles {
            facts.on_tiles.extend(t.features.iter().map(|f| f.kind));
        }
        for f in followers {
            facts.stands.extend(kinds(f));
            if f.after_score == AfterScore::Stay {
                facts.stays.extend(kinds(f));
            }
        }
        for v in [&mut facts.on_tiles, &mut facts.stands, &mut facts.stays] {
            v.sort_unstable();
            v.dedup();
        }
        facts
    }
}

/// One ability's trigger, conditions and count (`None`: a hand, which has no count).
#[derive(Clone, Copy, Debug)]
pub struct Case<'a> {
    /// The trigger.
    pub when: &'a Trigger,
    /// The conditions.
    pub conditions: &'a [Condition],
    /// The count of a `score` effect.
    pub count: Option<&'a Count>,
    /// What the effect pays per counted thing or gains, if it has an amount.
    pub amount: Option<Amount<'a>>,
}

/// The amount of an effect: a `score` effect's points per counted thing, or a `gain`'s amount.
#[derive(Clone, Copy, Debug)]
pub enum Amount<'a> {
    /// `per`, `per_players`, `per_tiles` or `per_value`.
    Per(&'a Per),
    /// A `gain`'s amount.
    Gain(&'a Expr),
}

/// A row of the table: its name (for tests and docs) and the check, giving the reason when the
/// ability can never score.
pub type Row = (&'static str, fn(&Case, &Facts) -> Option<String>);

/// The table, in the order the reasons are reported (the first that holds is the one given):
/// the trigger, then the conditions, then the count.
pub const ROWS: &[Row] = &[
    ("trigger-kind-absent", trigger_kind_absent),
    ("condition-needs-figure", condition_needs_figure),
    ("count-kind-absent", count_kind_absent),
    ("field-never-complete", field_never_complete),
    ("no-figure-on-kind", no_figure_on_kind),
    ("others-alone", others_alone),
    ("figures-left-completed", figures_left_completed),
    ("zero-amount", zero_amount),
];

/// The first reason why `case` can never score in a variant with `facts`, if any.
pub fn never_scores(case: &Case, facts: &Facts) -> Option<String> {
    ROWS.iter().find_map(|(_, row)| row(case, facts))
}

/// The kind of a feature trigger.
fn trigger_kind(when: &Trigger) -> Option<FeatureKind> {
    match *when {
        Trigger::FeatureCompleted { kind, .. } | Trigger::FeatureScored { kind, .. } => Some(kind),
        _ => None,
    }
}

/// A feature trigger of a kind no tile has never happens.
fn trigger_kind_absent(c: &Case, f: &Facts) -> Option<String> {
    let k = trigger_kind(c.when).filter(|k| !f.on_tiles.contains(k))?;
    Some(format!(
        "no tile of the variant has a {}, so the trigger never happens",
        k.name()
    ))
}

/// `occupied` and `owner_present` need a figure on the triggering feature.
fn condition_needs_figure(c: &Case, f: &Facts) -> Option<String> {
    let k = trigger_kind(c.when).filter(|k| !f.stands.contains(k))?;
    let word = c.conditions.iter().find_map(|c| match c {
        Condition::Occupied => Some("occupied"),
        Condition::OwnerPresent => Some("owner_present"),
        _ => None,
    })?;
    Some(format!(
        "no figure of the variant stands on a {} (`sites`), so `{word}` is never true",
        k.name()
    ))
}

/// The kind a count looks at, if it names one.
fn count_kind(count: Option<&Count>) -> Option<FeatureKind> {
    match *count? {
        Count::Features { kind, .. } => Some(kind),
        Count::Followers { kind, .. } => kind,
        _ => None,
    }
}

/// The state a count asks for.
fn count_state(count: Option<&Count>) -> Option<State> {
    match *count? {
        Count::Features { state, .. } | Count::Followers { state, .. } => Some(state),
        _ => None,
    }
}

/// Counting features of a kind no tile has (or figures on them) always gives 0.
fn count_kind_absent(c: &Case, f: &Facts) -> Option<String> {
    let k = count_kind(c.count).filter(|k| !f.on_tiles.contains(k))?;
    Some(format!(
        "no tile of the variant has a {}, so the count is always 0",
        k.name()
    ))
}

/// A field is never complete (B-3).
fn field_never_complete(c: &Case, _: &Facts) -> Option<String> {
    let field = count_kind(c.count) == Some(FeatureKind::Field);
    (field && count_state(c.count) == Some(State::Complete)).then(|| {
        "a field is never complete (B-3), so counting complete fields (or figures on them) \
         always gives 0"
            .to_string()
    })
}

/// Counting figures on a kind no figure stands on (or on any kind, with no figure on any).
fn no_figure_on_kind(c: &Case, f: &Facts) -> Option<String> {
    let Some(Count::Followers { kind, .. }) = c.count else {
        return None;
    };
    match kind {
        Some(k) if !f.stands.contains(k) => Some(format!(
            "no figure of the variant stands on a {} (`sites`), so the count is always 0",
            k.name()
        )),
        None if f.stands.is_empty() => {
            Some("no figure of the variant stands on a feature, so the count is always 0".into())
        }
        _ => None,
    }
}

/// Other players' figures in a variant of one player.
fn others_alone(c: &Case, f: &Facts) -> Option<String> {
    let others = matches!(
        c.count,
        Some(Count::Followers {
            owner: Owner::Others,
            ..
        })
    );
    (others && f.max_players <= 1).then(|| {
        "the variant has one player, so there are no other players' figures to count".to_string()
    })
}

/// Whether, at this trigger, a completed feature can be waiting for its scoring (its figures
/// still on it): the figure just placed may stand on a feature its tile completes, and a
/// feature completed or scored during the game holds its figures (and the other features its
/// tile completed hold theirs) until it is scored. At the end of the game, and when a field is
/// scored (only in final scoring), every completed feature was scored long before.
fn completed_being_scored(when: &Trigger) -> bool {
    match *when {
        Trigger::FollowerPlaced | Trigger::FeatureCompleted { .. } => true,
        Trigger::FeatureScored { kind, .. } => kind != FeatureKind::Field,
        Trigger::GameEnd | Trigger::Draw => false,
    }
}

/// Figures on completed features: they return when the feature is scored (B-4), so they are
/// there only while a completed feature waits for its scoring, or when a figure that stands on
/// that kind stays after scoring (`after_score = "stay"`; a figure that moves goes to an
/// unfinished feature, AM-11).
fn figures_left_completed(c: &Case, f: &Facts) -> Option<String> {
    let Some(Count::Followers {
        kind,
        state: State::Complete,
        ..
    }) = c.count
    else {
        return None;
    };
    let now = completed_being_scored(c.when);
    let possible = f.stands.iter().any(|k| {
        *k != FeatureKind::Field
            && kind.is_none_or(|want| want == *k)
            && (now || f.stays.contains(k))
    });
    if possible {
        return None;
    }
    let on = kind.map_or("feature".to_string(), |k| k.name().to_string());
    Some(format!(
        "at this trigger no completed {on} holds a figure: figures return when their feature is \
         completed and scored (B-4), and no figure of the variant that stands on one stays after \
         scoring (`after_score = \"stay\"`)"
    ))
}

/// An amount that is 0 in every game: `per = 0`, a table of 0 points, a value or a gain that is
/// 0 whatever the counts (`0`, `0 * tiles`, `tiles - tiles`, [`Expr::is_zero`]).
fn zero_amount(c: &Case, _: &Facts) -> Option<String> {
    let why = match c.amount? {
        Amount::Per(Per::Fixed(0)) => "`per = 0` pays 0 points for anything it counts",
        Amount::Per(Per::ByPlayers(t)) if t.iter().all(|&(_, p)| p == 0) => {
            "every entry of `per_players` pays 0 points"
        }
        Amount::Per(Per::ByTiles(t)) if t.iter().all(|&(_, p)| p == 0) => {
            "every entry of `per_tiles` pays 0 points"
        }
        Amount::Per(Per::Value(e)) if e.is_zero() => {
            "`per_value` is 0 whatever the feature counts, so it pays 0 points"
        }
        Amount::Gain(e) if e.is_zero() => {
            "the gained amount is 0 whatever the feature counts, so nothing is ever gained"
        }
        _ => return None,
    };
    Some(why.to_string())
}

/// A value written over the triggering feature (`per_value`, a gain's amount), parsed against
/// the variant's tags; `None` when there is none or it does not parse (reported elsewhere).
fn written(text: Option<&(crate::raw::Sp<String>, FeatureKind)>, tags: &[String]) -> Option<Expr> {
    let (text, kind) = text?;
    crate::values::parse(&text.value, *kind, tags).ok()
}

/// Refuse every ability of the variant's tiles that can never score. `where_(i, def)` is the
/// file of tile `i`'s ability `def`; `tags` are the variant's (values over a feature are
/// written as text until the variant's tags are known).
pub fn check<'a>(
    tiles: &[CompiledTile],
    facts: &Facts,
    tags: &[String],
    where_: impl Fn(usize, &AbilityDef) -> &'a Source,
    diags: &mut Vec<Diagnostic>,
) {
    for (i, t) in tiles.iter().enumerate() {
        for def in &t.abilities {
            let a = &def.ability;
            let per_value = written(def.per_value.as_ref(), tags).map(Per::Value);
            let gain = written(def.gain_amount.as_ref(), tags);
            // A value written as text that does not parse was reported: its placeholder is no
            // amount to judge.
            let (count, amount) = match &a.effect {
                Effect::Score { count, per } => (
                    Some(count),
                    match (&def.per_value, &per_value) {
                        (None, _) => Some(Amount::Per(per)),
                        (Some(_), p) => p.as_ref().map(Amount::Per),
                    },
                ),
                Effect::Gain { amount, .. } => (
                    None,
                    match (&def.gain_amount, &gain) {
                        (None, _) => Some(Amount::Gain(amount)),
                        (Some(_), g) => g.as_ref().map(Amount::Gain),
                    },
                ),
                Effect::Hand(_) | Effect::ExtraTurn => (None, None),
            };
            let case = Case {
                when: &a.when,
                conditions: &a.conditions,
                count,
                amount,
            };
            let Some(why) = never_scores(&case, facts) else {
                continue;
            };
            diags.push(
                where_(i, def)
                    .diag(
                        Code::NeverScores,
                        def.span.clone(),
                        format!("ability {} of `{}` can never score: {why}", a.rule, t.id),
                    )
                    .with_rule(a.rule.clone())
                    .with_note(
                        "docs/RULE-LANGUAGE.md, \"Abilities that can never score\", lists what each \
                         trigger can count",
                    ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FeatureKind::{City, Cloister, Field, Road};

    /// The base game with farmers: every kind on the tiles, meeples on all four, none stays.
    fn base() -> Facts {
        Facts {
            on_tiles: vec![City, Road, Field, Cloister],
            stands: vec![City, Road, Field, Cloister],
            stays: vec![],
            max_players: 5,
        }
    }

    fn followers(owner: Owner, kind: Option<FeatureKind>, state: State) -> Count {
        Count::Followers { owner, kind, state }
    }

    fn features(kind: FeatureKind, state: State) -> Count {
        Count::Features {
            kind,
            min_tiles: 1,
            state,
            tag: None,
        }
    }

    /// The name of the row that refuses `when` + `conditions` + `count` under `facts`.
    fn row(
        when: Trigger,
        conditions: &[Condition],
        count: Count,
        facts: &Facts,
    ) -> Option<&'static str> {
        let case = Case {
            when: &when,
            conditions,
            count: Some(&count),
            amount: None,
        };
        ROWS.iter()
            .find(|(_, r)| r(&case, facts).is_some())
            .map(|(name, _)| *name)
    }

    const COMPLETED_CITY: Trigger = Trigger::FeatureCompleted {
        kind: City,
        owners_turn: false,
    };
    const SCORED_FIELD: Trigger = Trigger::FeatureScored {
        kind: Field,
        during_game_only: false,
    };

    #[test]
    fn a_trigger_on_a_kind_no_tile_has() {
        let facts = Facts {
            on_tiles: vec![City, Road, Field],
            ..base()
        };
        let when = Trigger::FeatureScored {
            kind: Cloister,
            during_game_only: true,
        };
        assert_eq!(
            row(when, &[], Count::One, &facts),
            Some("trigger-kind-absent")
        );
        assert_eq!(row(when, &[], Count::One, &base()), None);
    }

    #[test]
    fn occupied_or_owner_present_needs_a_figure_on_the_kind() {
        let no_farmers = Facts {
            stands: vec![City, Road, Cloister],
            ..base()
        };
        for c in [Condition::Occupied, Condition::OwnerPresent] {
            let got = row(
                SCORED_FIELD,
                std::slice::from_ref(&c),
                Count::One,
                &no_farmers,
            );
            assert_eq!(got, Some("condition-needs-figure"));
            assert_eq!(row(SCORED_FIELD, &[c], Count::One, &base()), None);
        }
        let got = row(
            SCORED_FIELD,
            &[Condition::MinTiles(3)],
            Count::One,
            &no_farmers,
        );
        assert_eq!(got, None);
    }

    #[test]
    fn counting_a_kind_no_tile_has() {
        let no_cloisters = Facts {
            on_tiles: vec![City, Road, Field],
            ..base()
        };
        for count in [
            features(Cloister, State::Any),
            followers(Owner::Own, Some(Cloister), State::Incomplete),
        ] {
            let got = row(Trigger::GameEnd, &[], count, &no_cloisters);
            assert_eq!(got, Some("count-kind-absent"));
            assert_eq!(row(Trigger::GameEnd, &[], count, &base()), None);
        }
    }

    #[test]
    fn a_field_is_never_complete() {
        for when in [Trigger::FollowerPlaced, COMPLETED_CITY, Trigger::GameEnd] {
            for count in [
                features(Field, State::Complete),
                followers(Owner::Anyone, Some(Field), State::Complete),
            ] {
                assert_eq!(row(when, &[], count, &base()), Some("field-never-complete"));
            }
            let count = features(Field, State::Incomplete);
            assert_eq!(row(when, &[], count, &base()), None);
        }
    }

    #[test]
    fn counting_figures_on_a_kind_no_figure_stands_on() {
        let no_farmers = Facts {
            stands: vec![City, Road, Cloister],
            ..base()
        };
        let count = followers(Owner::Own, Some(Field), State::Any);
        let got = row(Trigger::GameEnd, &[], count, &no_farmers);
        assert_eq!(got, Some("no-figure-on-kind"));
        assert_eq!(row(Trigger::GameEnd, &[], count, &base()), None);
        let nobody = Facts {
            stands: vec![],
            ..base()
        };
        let count = followers(Owner::Own, None, State::Any);
        assert_eq!(
            row(Trigger::GameEnd, &[], count, &nobody),
            Some("no-figure-on-kind")
        );
        assert_eq!(row(Trigger::GameEnd, &[], count, &no_farmers), None);
    }

    #[test]
    fn other_players_figures_need_other_players() {
        let solo = Facts {
            max_players: 1,
            ..base()
        };
        let count = followers(Owner::Others, None, State::Any);
        assert_eq!(
            row(Trigger::GameEnd, &[], count, &solo),
            Some("others-alone")
        );
        assert_eq!(row(Trigger::GameEnd, &[], count, &base()), None);
        let own = followers(Owner::Own, None, State::Any);
        assert_eq!(row(Trigger::GameEnd, &[], own, &solo), None);
    }

    #[test]
    fn figures_on_completed_features_only_while_they_wait_for_scoring() {
        // Issue 18's example: own figures on completed cloisters, at game end.
        let count = followers(Owner::Own, Some(Cloister), State::Complete);
        let gone = Some("figures-left-completed");
        assert_eq!(row(Trigger::GameEnd, &[], count, &base()), gone);
        // Final field scoring: every completed feature was scored long before.
        assert_eq!(row(SCORED_FIELD, &[], count, &base()), gone);
        let any_kind = followers(Owner::Anyone, None, State::Complete);
        assert_eq!(row(Trigger::GameEnd, &[], any_kind, &base()), gone);
        // While a completed feature waits for its scoring, its figures are on it.
        for when in [
            Trigger::FollowerPlaced,
            COMPLETED_CITY,
            Trigger::FeatureScored {
                kind: Road,
                during_game_only: false,
            },
        ] {
            assert_eq!(row(when, &[], count, &base()), None);
        }
        // A figure that stays after scoring is still there at the end.
        let staying_monks = Facts {
            stays: vec![Cloister],
            ..base()
        };
        assert_eq!(row(Trigger::GameEnd, &[], count, &staying_monks), None);
        let city = followers(Owner::Own, Some(City), State::Complete);
        assert_eq!(row(Trigger::GameEnd, &[], city, &staying_monks), gone);
        // Figures on incomplete features are there at the end, and so are completed features.
        let open = followers(Owner::Own, Some(Cloister), State::Incomplete);
        assert_eq!(row(Trigger::GameEnd, &[], open, &base()), None);
        let done = features(Cloister, State::Complete);
        assert_eq!(row(Trigger::GameEnd, &[], done, &base()), None);
    }

    #[test]
    fn amounts_that_are_always_zero() {
        let tiles = || Box::new(Expr::Count(tegula_ruleset::Quantity::Tiles));
        fn zero(amount: Amount) -> bool {
            let case = Case {
                when: &Trigger::GameEnd,
                conditions: &[],
                count: Some(&Count::One),
                amount: Some(amount),
            };
            zero_amount(&case, &base()).is_some()
        }
        let diff = Expr::Sub(tiles(), tiles());
        assert!(zero(Amount::Per(&Per::Fixed(0))));
        assert!(!zero(Amount::Per(&Per::Fixed(1))));
        assert!(zero(Amount::Per(&Per::Value(diff.clone()))));
        assert!(zero(Amount::Gain(&diff)));
        assert!(zero(Amount::Gain(&Expr::Int(0))));
        assert!(!zero(Amount::Gain(&Expr::Int(1))));
        assert!(zero(Amount::Per(&Per::ByPlayers(vec![(1, 0), (4, 0)]))));
        assert!(!zero(Amount::Per(&Per::ByTiles(vec![(1, 0), (80, 2)]))));
        let more = Expr::Sub(tiles(), Box::new(Expr::Int(1)));
        assert!(!zero(Amount::Per(&Per::Value(more))));
    }

    #[test]
    fn facts_come_from_sites_and_after_score() {
        let mut barn = FollowerType::standard("barn", "Barn", 1, 0);
        barn.sites = vec![tegula_ruleset::Site::Corner];
        barn.after_score = AfterScore::Stay;
        let mut abbot = FollowerType::standard("abbot", "Abbot", 1, 1);
        abbot.sites = vec![tegula_ruleset::Site::Cloister];
        abbot.after_score = AfterScore::Stay;
        let f = Facts::of(&[], &[barn.clone()], 2);
        assert!(f.stands.is_empty() && f.stays.is_empty(), "{f:?}");
        let f = Facts::of(&[], &[barn, abbot], 2);
        assert_eq!((f.stands, f.stays), (vec![Cloister], vec![Cloister]));
    }
}
