//! Figures: a variant's `[[followers]]` entries checked and lowered to
//! [`tegula_ruleset::FollowerType`]s.
//!
//! A figure is described in the engine's terms, never by name: where it may stand (`sites`), how
//! strong it is (`strength`: a number or the pennant rule), what happens after its feature is
//! scored (`after_score`, with `adjacency` for figures that move), whether it may join an
//! occupied feature, and, for corner figures, how it scores its field (`corner`). The checks
//! below reject combinations the rules (AM-5 .. AM-11) make meaningless, each at the key to blame.

use std::ops::Range;

use tegula_ruleset::{Adjacency, AfterScore, CornerScoring, Expr, FollowerType, Site, Strength};

use crate::diag::{Code, Diagnostic, Source};
use crate::figure_values::bad;
use crate::raw::{RawAdjacency, RawAfterScore, RawFollower, RawSite, RawStrength, Sp};

/// The sites of a follower that does not say (a standard follower, B-2).
pub const DEFAULT_SITES: [Site; 4] = [Site::Road, Site::City, Site::Cloister, Site::Field];

/// Check one follower entry and lower it. `None` (with diagnostics) when it does not fit
/// together; the caller has already checked its id.
pub fn lower_follower(f: &RawFollower, src: &Source) -> (Option<FollowerType>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let sites = sites(f, src, &mut diags);
    check_corner(f, &sites, src, &mut diags);
    check_pennants(f, &sites, src, &mut diags);
    check_after_score(f, &sites, src, &mut diags);
    check_guest(f, &sites, src, &mut diags);
    let Ok(count) = u8::try_from(f.count.value) else {
        diags.push(src.diag(
            Code::BadVariant,
            f.count.span.clone(),
            "follower count out of range",
        ));
        return (None, diags);
    };
    if !diags.is_empty() {
        return (None, diags);
    }
    let site_list: Vec<Site> = sites.iter().map(|s| s.0).collect();
    let ft = FollowerType {
        id: f.id.value.clone(),
        name: f.name.clone().unwrap_or_else(|| f.id.value.clone()),
        count,
        strength: strength(f, &site_list),
        joins_occupied: f.joins_occupied.as_ref().is_some_and(|j| j.value),
        after_score: after_score(f),
        // Value expressions are parsed once the variant's tags are known
        // ([`crate::figure_values::lower_values`]); until then a corner figure's payments and
        // a strength written as an expression are placeholders.
        corner: f.corner.as_ref().map(|c| {
            let [place_rule, join_rule, final_rule] = crate::citations::corner(&c.value);
            CornerScoring {
                place: Expr::Int(0),
                join: Expr::Int(0),
                final_: Expr::Int(0),
                place_rule,
                join_rule,
                final_rule,
            }
        }),
        sites: site_list,
        needs_own_figure: flag(&f.needs_own_figure, false),
        occupies: flag(&f.occupies, true),
        place_rule: f.place_rule.as_ref().map(|r| r.value.clone()),
        return_rule: f.return_rule.as_ref().map(|r| r.value.clone()),
        site_rule: f.site_rule.as_ref().map(|r| r.value.clone()),
        move_rule: f.move_rule.as_ref().map(|r| r.value.clone()),
        // Sites by tag: wt-model sets them from the TOML (rf-notes.md).
        only_tags: Vec::new(),
        never_tags: Vec::new(),
    };
    (Some(ft), diags)
}

/// A site with the span to blame for it (the follower's id when the sites are the defaults).
type SiteAt = (Site, Range<usize>);

/// The follower's sites (defaults when absent); reports an empty list and repeated sites.
fn sites(f: &RawFollower, src: &Source, diags: &mut Vec<Diagnostic>) -> Vec<SiteAt> {
    let Some(list) = &f.sites else {
        return DEFAULT_SITES
            .iter()
            .map(|&s| (s, f.id.span.clone()))
            .collect();
    };
    if list.value.is_empty() {
        let msg = "`sites` is empty; a figure must stand somewhere";
        diags.push(bad(f, src, &list.span, "", msg));
    }
    let mut out: Vec<SiteAt> = Vec::new();
    for s in &list.value {
        let site = site(s.value);
        if out.iter().any(|(o, _)| *o == site) {
            let msg = format!("site `{}` is given twice", site.name());
            diags.push(bad(f, src, &s.span, "", &msg));
            continue;
        }
        out.push((site, s.span.clone()));
    }
    out
}

fn site(s: RawSite) -> Site {
    match s {
        RawSite::Road => Site::Road,
        RawSite::City => Site::City,
        RawSite::Cloister => Site::Cloister,
        RawSite::Field => Site::Field,
        RawSite::Corner => Site::Corner,
    }
}

/// AM-6, AM-7: a corner figure stands on corners only and has corner scoring; corner scoring
/// needs the corner site. Then the corner figure's other keys ([`check_corner_figure`]).
fn check_corner(f: &RawFollower, sites: &[SiteAt], src: &Source, diags: &mut Vec<Diagnostic>) {
    let Some((_, corner_at)) = sites.iter().find(|(s, _)| *s == Site::Corner) else {
        if let Some(c) = &f.corner {
            let msg = "`corner` scoring is only for corner figures; add \"corner\" to `sites` \
                       (and no other site) or remove `corner`";
            diags.push(bad(f, src, &c.span, "AM-7", msg));
        }
        return;
    };
    for (s, at) in sites.iter().filter(|(s, _)| *s != Site::Corner) {
        let msg = format!(
            "a corner figure scores its field; it cannot also stand on a {}",
            s.name()
        );
        diags.push(bad(f, src, at, "AM-6", &msg));
    }
    if f.corner.is_none() {
        let msg = "a corner figure needs `corner = { place = …, join = …, final = … }` (value \
                   expressions over its field, AM-7 .. AM-9; `place_per_city = 3` is short for \
                   `place = \"3 * cities\"`)";
        diags.push(bad(f, src, corner_at, "AM-7", msg));
    }
    check_corner_figure(f, corner_at, src, diags);
}

/// AM-7, AM-9: a corner figure is in no majority and stays on its corner.
fn check_corner_figure(
    f: &RawFollower,
    corner_at: &Range<usize>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let counts = |s: &RawStrength| !matches!(s, RawStrength::Fixed(0));
    if let Some(Sp { value, span }) = f.strength.as_ref().filter(|s| counts(&s.value)) {
        let shown = match value {
            RawStrength::Fixed(n) => n.to_string(),
            RawStrength::Value(t) => format!("`{t}`"),
        };
        let msg = format!(
            "a corner figure is in no majority (who owns it does not matter), so strength \
             {shown} would mean nothing; remove `strength` (it is 0)"
        );
        diags.push(bad(f, src, span, "AM-7", &msg));
    }
    let stays = f
        .after_score
        .as_ref()
        .map(|a| a.value)
        // `move` is reported by check_after_score (AM-10).
        .is_some_and(|a| matches!(a, RawAfterScore::Stay | RawAfterScore::Move));
    if !stays {
        let at = f.after_score.as_ref().map_or(corner_at, |a| &a.span);
        let msg = "a corner figure stays on its corner when its field is scored (AM-7) and \
                   scores again at the end (AM-9); write after_score = \"stay\"";
        diags.push(bad(f, src, at, "AM-9", msg));
    }
}

/// AM-5: the pennant strength only makes sense on cities. Said here, with the sites to blame,
/// for the plain `"pennants"`; an expression reading pennants off cities is reported where it
/// is parsed ([`crate::figure_values`]).
fn check_pennants(f: &RawFollower, sites: &[SiteAt], src: &Source, diags: &mut Vec<Diagnostic>) {
    let Some(Sp {
        value: RawStrength::Value(text),
        span,
    }) = &f.strength
    else {
        return;
    };
    if text.trim() != "pennants" {
        return;
    }
    let others: Vec<&str> = sites
        .iter()
        .filter(|(s, _)| *s != Site::City)
        .map(|(s, _)| s.name())
        .collect();
    if others.is_empty() {
        return;
    }
    let msg = format!(
        "strength \"pennants\" counts the pennants of a city, and pennants exist only on cities; \
         it cannot stand on {} (write sites = [\"city\"])",
        others.join(", ")
    );
    diags.push(bad(f, src, span, "AM-5", &msg));
}

/// AM-10, AM-11: a moving figure never stands on a field or corner; `adjacency` only for it.
fn check_after_score(f: &RawFollower, sites: &[SiteAt], src: &Source, diags: &mut Vec<Diagnostic>) {
    let moves = f
        .after_score
        .as_ref()
        .is_some_and(|a| a.value == RawAfterScore::Move);
    if let (Some(a), false) = (&f.adjacency, moves) {
        let msg = "`adjacency` says where a figure moves after scoring; it needs \
                   after_score = \"move\"";
        diags.push(bad(f, src, &a.span, "AM-11", msg));
    }
    let Some(a) = f.after_score.as_ref().filter(|_| moves) else {
        return;
    };
    let on_fields: Vec<String> = sites
        .iter()
        .filter(|(s, _)| matches!(s, Site::Field | Site::Corner))
        .map(|(s, _)| format!("`{}`", s.name()))
        .collect();
    if !on_fields.is_empty() {
        let msg = format!(
            "a figure that moves after scoring never stands on a field; remove {} from `sites` \
             (fields are scored only at the end)",
            on_fields.join(" and ")
        );
        diags.push(bad(f, src, &a.span, "AM-10", &msg));
    }
}

/// Strength as given; absent: 1, or 0 for a corner figure or one that does not occupy (in no
/// majority). An expression is a placeholder 0 until it is parsed.
fn strength(f: &RawFollower, sites: &[Site]) -> Strength {
    match f.strength.as_ref().map(|s| &s.value) {
        Some(RawStrength::Fixed(n)) => Strength::Fixed(u8::try_from(*n).unwrap_or(u8::MAX)),
        Some(RawStrength::Value(_)) => Strength::Fixed(0),
        None if sites.contains(&Site::Corner) || !flag(&f.occupies, true) => Strength::Fixed(0),
        None => Strength::Fixed(1),
    }
}

/// A boolean key's value, `default` when absent.
fn flag(v: &Option<Sp<bool>>, default: bool) -> bool {
    v.as_ref().map_or(default, |b| b.value)
}

/// TB-4 .. TB-8: the keys of figures that stand beside the owner's followers. A figure that
/// does not occupy counts for no majority; the precondition, the payment modifier and the turn
/// effect concern a feature, and a corner figure stands on none.
fn check_guest(f: &RawFollower, sites: &[SiteAt], src: &Source, diags: &mut Vec<Diagnostic>) {
    if let (Some(o), Some(Sp { value, span })) = (&f.occupies, &f.strength) {
        let counts = !matches!(value, RawStrength::Fixed(0));
        if !o.value && counts {
            let msg = "a figure that does not occupy its feature counts for no majority; \
                       remove `strength` (it is 0)";
            diags.push(bad(f, src, span, "TB-4", msg));
        }
    }
    if !sites.iter().any(|(s, _)| *s == Site::Corner) {
        return;
    }
    let keys = [
        (
            "needs_own_figure",
            f.needs_own_figure.as_ref().map(|k| &k.span),
            "TB-4",
        ),
        ("occupies", f.occupies.as_ref().map(|k| &k.span), "TB-4"),
        ("payment", f.payment.as_ref().map(|k| &k.span), "TB-8"),
        (
            "when_extended",
            f.when_extended.as_ref().map(|k| &k.span),
            "TB-5",
        ),
    ];
    for (key, span, rule) in keys {
        if let Some(span) = span {
            let msg = format!(
                "`{key}` concerns the feature a figure stands on; a corner figure stands on a \
                 corner and scores by `corner`"
            );
            diags.push(bad(f, src, span, rule, &msg));
        }
    }
}

fn after_score(f: &RawFollower) -> AfterScore {
    match f.after_score.as_ref().map(|a| a.value) {
        None | Some(RawAfterScore::Return) => AfterScore::Return,
        Some(RawAfterScore::Stay) => AfterScore::Stay,
        Some(RawAfterScore::Move) => {
            AfterScore::Move(match f.adjacency.as_ref().map(|a| a.value) {
                None | Some(RawAdjacency::Neighbourhood) => Adjacency::Neighbourhood,
                Some(RawAdjacency::Connected) => Adjacency::Connected,
            })
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Both passes over one follower table (the second with the tag `t` known).
    pub(crate) fn lower(body: &str) -> (Option<FollowerType>, Vec<Diagnostic>) {
        #[derive(serde::Deserialize)]
        struct Doc {
            followers: Vec<Sp<RawFollower>>,
        }
        let text = format!("[[followers]]\n{body}");
        let doc: Doc = toml::from_str(&text).expect("a follower table");
        let src = Source::new("v.toml", text);
        let (ft, mut d) = lower_follower(&doc.followers[0].value, &src);
        let mut fts: Vec<FollowerType> = ft.into_iter().collect();
        let tags = ["t".to_string()];
        crate::figure_values::lower_values(&doc.followers, &mut fts, &tags, &src, &mut d);
        (fts.pop(), d)
    }

    #[test]
    fn defaults_make_a_standard_follower() {
        let (ft, d) = lower("id = \"meeple\"\ncount = 7\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(ft, Some(FollowerType::standard("meeple", "meeple", 7, 1)));
    }

    #[test]
    fn every_key_reaches_the_lowered_figure() {
        let (ft, d) = lower(
            "id = \"cart\"\nname = \"Cart\"\ncount = 2\nstrength = 3\nsites = [\"road\"]\n\
             joins_occupied = true\nafter_score = \"move\"\nadjacency = \"connected\"\n",
        );
        assert!(d.is_empty(), "{d:?}");
        let ft = ft.unwrap();
        assert_eq!(ft.strength, Strength::Fixed(3));
        assert_eq!(ft.sites, vec![Site::Road]);
        assert!(ft.joins_occupied);
        assert_eq!(ft.after_score, AfterScore::Move(Adjacency::Connected));
        assert_eq!(ft.corner, None);
    }

    #[test]
    fn a_corner_figure_has_strength_zero_and_its_scoring() {
        let (ft, d) = lower(
            "id = \"barn\"\ncount = 1\nsites = [\"corner\"]\nafter_score = \"stay\"\n\
             corner = { place_per_city = 3, join_per_city = 1, final_per_city = 4 }\n",
        );
        assert!(d.is_empty(), "{d:?}");
        let ft = ft.unwrap();
        assert_eq!(ft.strength, Strength::Fixed(0));
        assert!(ft.is_corner_figure());
        let per = |n| Expr::per(n, tegula_ruleset::Quantity::Cities);
        assert_eq!(
            ft.corner,
            Some(CornerScoring {
                place: per(3),
                join: per(1),
                final_: per(4),
                place_rule: "AM-7".into(),
                join_rule: "AM-8".into(),
                final_rule: "AM-9".into(),
            })
        );
    }

    #[test]
    fn a_figure_beside_its_owners_lowers_its_generic_properties() {
        let (ft, d) = lower(
            "id = \"builder\"\ncount = 1\nsites = [\"road\", \"city\"]\n\
             needs_own_figure = true\noccupies = false\n\
             when_extended = { rule = \"TB-5\", effect = \"extra-turn\", completing = false }\n",
        );
        assert!(d.is_empty(), "{d:?}");
        let ft = ft.unwrap();
        assert!(ft.needs_own_figure && !ft.occupies);
        // Not occupying, it is in no majority: strength 0 by default.
        assert_eq!(ft.strength, Strength::Fixed(0));
    }

    #[test]
    fn problems_leave_the_figure_out_and_are_all_reported() {
        // Pennants off a city (AM-5), moving onto fields (AM-10), a site twice.
        let (ft, d) = lower(
            "id = \"x\"\ncount = 1\nstrength = \"pennants\"\nsites = [\"city\", \"field\", \
             \"city\"]\nafter_score = \"move\"\n",
        );
        assert_eq!(ft, None);
        let rules: Vec<Option<&str>> = d.iter().map(|d| d.rule.as_deref()).collect();
        assert_eq!(rules, vec![None, Some("AM-5"), Some("AM-10")], "{d:?}");
        assert!(d.iter().all(|d| d.code == Code::BadFigure));
    }
}
