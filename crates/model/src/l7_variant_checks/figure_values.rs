//! The value expressions of figures, parsed once the variant's tags are known: a strength
//! written as an expression (B-5), a payment modifier (TB-8) and a corner figure's three
//! payments (AM-7 .. AM-9). Each is type-checked for every kind of feature its figure stands on
//! (a corner figure's payments for fields), so a count that means nothing there is a located
//! `bad-figure` diagnostic.

use std::ops::Range;

use tegula_ruleset::limits::MAX_POINTS;
use tegula_ruleset::{CornerScoring, Counts, Expr, FeatureKind, FollowerType, Quantity, Strength};

use crate::diag::{Code, Diagnostic, Source};
use crate::raw::{RawCornerScoring, RawFollower, RawStrength, Sp, MAX_STRENGTH};
use crate::short_forms::PaymentModifier;
use crate::values::reads_cities_with;

/// What a figure's values are checked against: the variant's tags and its file.
struct Cx<'a> {
    tags: &'a [String],
    src: &'a Source,
    diags: &'a mut Vec<Diagnostic>,
}

/// Parse the value expressions of the variant's figures (strength, payment, corner payments).
/// A figure whose expression does not parse keeps a placeholder; the diagnostic is an error.
/// Returns each figure's `payment`, a short form the contract has no field for (lowered by
/// `rule_form::short`).
pub fn lower_values(
    raw: &[Sp<RawFollower>],
    followers: &mut [FollowerType],
    tags: &[String],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Option<PaymentModifier>> {
    let mut cx = Cx { tags, src, diags };
    let mut payments = vec![None; followers.len()];
    for (ft, payment) in followers.iter_mut().zip(&mut payments) {
        let Some(f) = raw.iter().map(|f| &f.value).find(|f| f.id.value == ft.id) else {
            continue;
        };
        let kinds: Vec<FeatureKind> = ft.sites.iter().filter_map(|s| s.feature_kind()).collect();
        if let Some(s) = strength(f, &kinds, &mut cx) {
            ft.strength = s;
        }
        *payment = f.payment.as_ref().and_then(|p| {
            let (rule, text) = (&p.value.rule.value, &p.value.value);
            let value = cx.parse(f, text, &kinds, ("payment", rule))?;
            Some(PaymentModifier {
                rule: rule.clone(),
                value,
            })
        });
        if let Some(c) = &f.corner {
            ft.corner = corner(f, &c.value, &c.span, &mut cx);
        }
    }
    payments
}

/// A strength written as an expression (`None` for a number, already lowered): constant ones
/// fold to [`Strength::Fixed`] so majorities never evaluate them.
fn strength(f: &RawFollower, kinds: &[FeatureKind], cx: &mut Cx) -> Option<Strength> {
    let s = f.strength.as_ref()?;
    let RawStrength::Value(text) = &s.value else {
        return None;
    };
    let text = Sp {
        value: text.clone(),
        span: s.span.clone(),
    };
    let e = cx.parse(f, &text, kinds, ("strength", "B-5"))?;
    let e = cx.uncited(f, &text, e, "strength")?;
    let mut read = Vec::new();
    e.quantities(&mut read);
    if !read.is_empty() {
        return Some(Strength::Value(e));
    }
    let n = e.eval(&mut NoCounts);
    match u8::try_from(n) {
        Ok(n) if u64::from(n) <= MAX_STRENGTH => Some(Strength::Fixed(n)),
        _ => {
            let msg = format!(
                "strength `{}` is always {n}; a constant strength is at most {MAX_STRENGTH}",
                text.value
            );
            cx.diags.push(bad(f, cx.src, &text.span, "B-5", &msg));
            None
        }
    }
}

/// A corner figure's three payments, each from its expression or its per-city shorthand.
fn corner(
    f: &RawFollower,
    c: &RawCornerScoring,
    at: &Range<usize>,
    cx: &mut Cx,
) -> Option<CornerScoring> {
    let place = cx.payment(f, at, ("place", &c.place), &c.place_per_city, "AM-7");
    let join = cx.payment(f, at, ("join", &c.join), &c.join_per_city, "AM-8");
    let final_ = cx.payment(f, at, ("final", &c.final_), &c.final_per_city, "AM-9");
    let [place_rule, join_rule, final_rule] = crate::citations::corner(c);
    Some(CornerScoring {
        place: place?,
        join: join?,
        final_: final_?,
        place_rule,
        join_rule,
        final_rule,
    })
}

impl Cx<'_> {
    /// Parse `text` for each kind in `kinds` (the first parse is the value; the tree does not
    /// depend on the kind). `what` names the key and the rule its diagnostics cite.
    fn parse(
        &mut self,
        f: &RawFollower,
        text: &Sp<String>,
        kinds: &[FeatureKind],
        what: (&str, &str),
    ) -> Option<Expr> {
        let (key, rule) = what;
        let mut value = None;
        for &kind in kinds {
            match crate::values::parse(&text.value, kind, self.tags) {
                Ok(e) => value = value.or(Some(e)),
                Err(e) => {
                    let at = crate::values::inner_span(self.src, text, e.at.clone());
                    let msg = format!("{key} on a {}: {}", kind.name(), e.message);
                    self.diags.push(bad(f, self.src, &at, rule, &msg));
                    return None;
                }
            }
        }
        if value.as_ref().is_some_and(reads_cities_with) {
            // Figures' payments are also made for one city or a former field's cities, where
            // the engine cannot tell which of them carry the tag.
            let msg = format!(
                "{key}: `cities(TAG)` is read only by a field's end value (`values.field.end`)"
            );
            self.diags.push(bad(f, self.src, &text.span, rule, &msg));
            return None;
        }
        value
    }

    /// `e`, written at `text`, when it cites no rule: a strength is no payment, and a corner
    /// payment's events cite their own rule, so a `[RULE]` there would say nothing.
    fn uncited(&mut self, f: &RawFollower, text: &Sp<String>, e: Expr, key: &str) -> Option<Expr> {
        let mut cites = Vec::new();
        e.cites(&mut cites);
        let Some(rule) = cites.first() else {
            return Some(e);
        };
        let msg = format!("{key} cites no rule; remove `[{rule}]`");
        self.diags.push(bad(f, self.src, &text.span, "", &msg));
        None
    }

    /// One corner payment: the expression `text` over the field, or `per_city` × `cities`;
    /// exactly one of them.
    fn payment(
        &mut self,
        f: &RawFollower,
        at: &Range<usize>,
        text: (&str, &Option<Sp<String>>),
        per_city: &Option<Sp<u32>>,
        rule: &str,
    ) -> Option<Expr> {
        let (key, text) = text;
        match (text, per_city) {
            (Some(t), None) => {
                let e = self.parse(f, t, &[FeatureKind::Field], (key, rule))?;
                self.uncited(f, t, e, key)
            }
            (None, Some(n)) => Some(Expr::per(n.value.min(MAX_POINTS), Quantity::Cities)),
            (Some(t), Some(_)) => {
                let msg =
                    format!("`corner.{key}` and `corner.{key}_per_city` say the same; give one");
                self.diags.push(bad(f, self.src, &t.span, rule, &msg));
                None
            }
            (None, None) => {
                let msg = format!(
                    "a corner figure needs `corner.{key}` (a value expression over its \
                     field) or `corner.{key}_per_city` (a number per completed city)"
                );
                self.diags.push(bad(f, self.src, at, rule, &msg));
                None
            }
        }
    }
}

/// Counts of no feature: a constant expression reads none.
struct NoCounts;

impl Counts for NoCounts {
    fn count(&mut self, _: Quantity) -> u32 {
        0
    }
}

/// A `bad-figure` diagnostic about follower `f` at `span`, citing `rule` when given.
pub(crate) fn bad(
    f: &RawFollower,
    src: &Source,
    span: &Range<usize>,
    rule: &str,
    msg: &str,
) -> Diagnostic {
    let d = src.diag(
        Code::BadFigure,
        span.clone(),
        format!("follower `{}`: {msg}", f.id.value),
    );
    if rule.is_empty() {
        d
    } else {
        d.with_rule(rule)
    }
}

#[cfg(test)]
mod tests {
    use tegula_ruleset::{CornerScoring, Expr, Quantity, Strength};

    use crate::diag::Code;
    use crate::figures::tests::lower;

    fn messages(body: &str) -> Vec<String> {
        let (_, d) = lower(body);
        assert!(d.iter().all(|d| d.code == Code::BadFigure), "{d:?}");
        d.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn payments_are_parsed_for_every_kind_the_figure_stands_on() {
        let (ft, d) = lower(
            "id = \"pig\"\ncount = 1\nsites = [\"field\", \"city\"]\n\
             payment = { rule = \"TB-8\", value = \"cities\" }\n",
        );
        // `cities` counts on fields only: the city site makes it an error, and no modifier.
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].message.contains("payment on a city"), "{d:?}");
        assert!(ft.is_some(), "the figure stays, without its payment");
    }

    #[test]
    fn a_strength_expression_is_kept_and_a_constant_one_folds() {
        let (ft, d) = lower(
            "id = \"m\"\ncount = 1\nsites = [\"city\"]\n\
             strength = \"if pennants > 2 then 3 else pennants\"\n",
        );
        assert!(d.is_empty(), "{d:?}");
        let Some(Strength::Value(e)) = ft.map(|f| f.strength) else {
            panic!("an expression strength")
        };
        let mut read = Vec::new();
        e.quantities(&mut read);
        assert_eq!(read, vec![Quantity::Pennants; 2]);
        let (ft, d) = lower("id = \"m\"\ncount = 1\nstrength = \"1 + 1\"\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(ft.unwrap().strength, Strength::Fixed(2));
        let (ft, _) = lower("id = \"m\"\ncount = 1\nstrength = \"pennants\"\nsites = [\"city\"]\n");
        assert_eq!(
            ft.unwrap().strength,
            Strength::Value(Expr::Count(Quantity::Pennants))
        );
    }

    #[test]
    fn a_strength_expression_is_checked_on_every_site() {
        let m = messages(
            "id = \"m\"\ncount = 1\nsites = [\"city\", \"road\"]\n\
             strength = \"if pennants > 2 then 3 else 1\"\n",
        );
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(
            m[0].contains("strength on a road: `pennants` counts only on cities"),
            "{m:?}"
        );
        let m = messages("id = \"m\"\ncount = 1\nstrength = \"20\"\n");
        assert!(m[0].contains("a constant strength is at most 10"), "{m:?}");
        let m = messages("id = \"m\"\ncount = 1\nstrength = \"[B-5] tiles\"\n");
        assert!(m[0].contains("strength cites no rule"), "{m:?}");
        let m = messages("id = \"m\"\ncount = 1\nstrength = \"count(nope)\"\n");
        assert!(m[0].contains("strength on a road"), "{m:?}");
    }

    #[test]
    fn corner_payments_take_expressions_or_the_per_city_shorthand() {
        let head = "id = \"b\"\ncount = 1\nsites = [\"corner\"]\nafter_score = \"stay\"\n";
        let (ft, d) = lower(&format!(
            "{head}corner = {{ place = \"3 * cities + count(t)\", join_per_city = 0, \
             final = \"if cities > 2 then 12 else 4 * cities\" }}\n"
        ));
        assert!(d.is_empty(), "{d:?}");
        let c: CornerScoring = ft.unwrap().corner.unwrap();
        let mut read = Vec::new();
        c.place.quantities(&mut read);
        assert_eq!(read, vec![Quantity::Cities, Quantity::Tag(0)]);
        assert!(c.join.is_zero() && !c.final_.is_zero());
        let m = messages(&format!(
            "{head}corner = {{ place = \"pennants\", place_per_city = 1, final_per_city = 4 }}\n"
        ));
        assert_eq!(m.len(), 2, "{m:?}");
        assert!(
            m[0].contains("`corner.place` and `corner.place_per_city`"),
            "{m:?}"
        );
        assert!(m[1].contains("needs `corner.join`"), "{m:?}");
        let m = messages(&format!(
            "{head}corner = {{ place = \"pennants\", join = \"[AM-8] cities\", final = \"4\" }}\n"
        ));
        assert!(
            m[0].contains("place on a field: `pennants` counts only on cities"),
            "{m:?}"
        );
        assert!(m[1].contains("join cites no rule"), "{m:?}");
    }
}
