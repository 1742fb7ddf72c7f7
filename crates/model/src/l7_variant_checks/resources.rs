//! Seat resources (`[[resource]]`, docs/FORMAT.md "Seat resources"): checked and lowered to
//! [`tegula_ruleset::Resource`]. A gain's amount is a value expression (the `[values]`
//! language) over the completed feature's counts, so it is parsed and type-checked by the same
//! parser against the variant's tags. Rule ids are checked with the variant's other citations.

use std::collections::HashMap;

use tegula_ruleset::{FeatureKind, Resource, StartCount};

use crate::short_forms::{Award, Gain, ResourceForms};

use crate::diag::{Code, Diagnostic, Source};
use crate::raw::{RawResource, Sp};
use crate::raw_when::RawStart;

/// Lower the variant's resources, reporting duplicates and bad gains, with each one's short
/// forms (`gain`, `award`: lowered to rules of the one form by `rule_form::short`). `tags` are
/// the tag names of the variant's tiles ([`crate::lower::tag_names`]). A resource with a bad
/// gain is kept without it (the variant is refused anyway).
pub fn lower(
    raw: &[Sp<RawResource>],
    tags: &[String],
    players: (u8, u8),
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Resource>, Vec<ResourceForms>) {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::with_capacity(raw.len());
    let mut forms = Vec::with_capacity(raw.len());
    for r in raw {
        let r = &r.value;
        if let Some(first) = seen.insert(&r.id.value, r.id.span.start) {
            let (line, _) = src.line_col(first);
            let msg = format!(
                "resource `{}` is declared twice (first on line {line})",
                r.id.value
            );
            diags.push(src.diag(Code::DuplicateId, r.id.span.clone(), msg));
            continue;
        }
        forms.push(ResourceForms {
            gain: r.gain.as_ref().and_then(|g| gain(r, g, tags, src, diags)),
            award: r.award.as_ref().map(|a| Award {
                most: a.value.most.value,
                rule: a.value.rule.value.clone(),
            }),
        });
        out.push(Resource {
            id: r.id.value.clone(),
            name: r.name.clone().unwrap_or_else(|| r.id.value.clone()),
            start: r
                .start
                .as_ref()
                .map_or_else(Vec::new, |s| start(r, s, players, src, diags)),
        });
    }
    (out, forms)
}

/// One resource's `start`, as entries by player count (empty after a diagnostic). A table's
/// player counts rise strictly and the first is at most the variant's fewest players, so every
/// game the variant allows has its entry.
fn start(
    r: &RawResource,
    s: &Sp<RawStart>,
    (min, max): (u8, u8),
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<StartCount> {
    let pairs: Vec<[u64; 2]> = match &s.value {
        RawStart::Fixed(n) => vec![[1, *n]],
        RawStart::Table(t) => t.clone(),
    };
    let problem = pairs.iter().enumerate().find_map(|(i, &[p, _])| {
        if p == 0 || p > u64::from(max) {
            Some(format!(
                "{p} players: the variant seats {min} to {max} (a table entry is \
                 `[players, count]`)"
            ))
        } else if i > 0 && p <= pairs[i - 1][0] {
            Some(format!(
                "the player counts must rise: {p} after {}",
                pairs[i - 1][0]
            ))
        } else {
            None
        }
    });
    let problem = problem.or_else(|| {
        (pairs[0][0] > u64::from(min)).then(|| {
            format!(
                "a game of {min} players has no entry (the first is for {}): start the table \
                 at {min} or fewer",
                pairs[0][0]
            )
        })
    });
    if let Some(p) = problem {
        let msg = format!("resource `{}`: start: {p}", r.id.value);
        diags.push(src.diag(Code::BadResource, s.span.clone(), msg));
        return Vec::new();
    }
    if pairs.iter().all(|&[_, c]| c == 0) {
        // Nothing held at setup: the same as no `start` (the artefact leaves it out).
        return Vec::new();
    }
    pairs
        .iter()
        .map(|&[p, c]| StartCount {
            players: p as u8,
            count: c.min(u64::from(tegula_ruleset::limits::MAX_POINTS)) as u32,
        })
        .collect()
}

/// One resource's gain, or `None` after a diagnostic.
fn gain(
    r: &RawResource,
    g: &Sp<crate::raw::RawResourceGain>,
    tags: &[String],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<Gain> {
    let g = &g.value;
    let kind = g.completed.value.lowered();
    let rule = g.rule.value.as_str();
    if kind == FeatureKind::Field {
        let msg = format!(
            "resource `{}`: a field is never completed, so this gain would never happen",
            r.id.value
        );
        let d = src.diag(Code::BadResource, g.completed.span.clone(), msg);
        diags.push(d.with_rule(rule));
        return None;
    }
    match crate::values::parse(&g.amount.value, kind, tags) {
        Ok(amount) => Some(Gain {
            feature: kind,
            amount,
            rule: rule.to_string(),
        }),
        Err(e) => {
            let at = crate::values::inner_span(src, &g.amount, e.at);
            let msg = format!("resource `{}`: gain amount: {}", r.id.value, e.message);
            diags.push(src.diag(Code::BadResource, at, msg).with_rule(rule));
            None
        }
    }
}

/// The rule ids the resources cite, for the variant's check of its citations.
pub fn cited(raw: &[Sp<RawResource>]) -> impl Iterator<Item = &Sp<String>> {
    raw.iter().flat_map(|r| {
        let gain = r.value.gain.as_ref().map(|g| &g.value.rule);
        let award = r.value.award.as_ref().map(|a| &a.value.rule);
        gain.into_iter().chain(award)
    })
}

#[cfg(test)]
mod tests {
    use super::lower;
    use crate::diag::{Code, Source};
    use crate::raw::{RawResource, Sp};

    /// The `start` of one resource, lowered for a 2–5 player variant: the entries, or the
    /// message.
    fn start(value: &str) -> Result<Vec<(u8, u32)>, String> {
        #[derive(serde::Deserialize)]
        struct Doc {
            resource: Vec<Sp<RawResource>>,
        }
        let text = format!("[[resource]]\nid = \"tower\"\nstart = {value}\n");
        let doc: Doc = toml::from_str(&text).expect("TOML");
        let src = Source::new("t.toml", text);
        let mut diags = Vec::new();
        let (r, _) = lower(&doc.resource, &[], (2, 5), &src, &mut diags);
        match diags.as_slice() {
            [] => Ok(r[0].start.iter().map(|s| (s.players, s.count)).collect()),
            [d] if d.code == Code::BadResource && d.at.line == 3 => Err(d.message.clone()),
            _ => panic!("{diags:?}"),
        }
    }

    #[test]
    fn a_start_is_a_number_or_a_table_covering_every_game() {
        assert_eq!(start("4"), Ok(vec![(1, 4)]));
        assert_eq!(start("0"), Ok(vec![]));
        assert_eq!(start("[[2, 3], [4, 1]]"), Ok(vec![(2, 3), (4, 1)]));
        let err = |v: &str| start(v).unwrap_err();
        assert!(err("[[3, 3]]").contains("a game of 2 players has no entry"));
        assert!(err("[[2, 3], [2, 1]]").contains("must rise: 2 after 2"));
        assert!(err("[[2, 3], [6, 1]]").contains("6 players: the variant seats 2 to 5"));
        assert!(err("[[0, 3]]").contains("0 players"));
    }
}
