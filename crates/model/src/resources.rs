//! Seat resources (`[[resource]]`, docs/FORMAT.md "Seat resources"): checked and lowered to
//! [`tegula_ruleset::Resource`]. A gain's amount is a value expression (the `[values]`
//! language) over the completed feature's counts, so it is parsed and type-checked by the same
//! parser against the variant's tags. Rule ids are checked with the variant's other citations.

use std::collections::HashMap;

use tegula_ruleset::{Award, FeatureKind, Gain, Resource};

use crate::diag::{Code, Diagnostic, Source};
use crate::raw::{RawResource, Sp};

/// Lower the variant's resources, reporting duplicates and bad gains. `tags` are the tag names
/// of the variant's tiles ([`crate::lower::tag_names`]). A resource with a bad gain is kept
/// without it (the variant is refused anyway).
pub fn lower(
    raw: &[Sp<RawResource>],
    tags: &[String],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Resource> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::with_capacity(raw.len());
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
        out.push(Resource {
            id: r.id.value.clone(),
            name: r.name.clone().unwrap_or_else(|| r.id.value.clone()),
            gain: r.gain.as_ref().and_then(|g| gain(r, g, tags, src, diags)),
            award: r.award.as_ref().map(|a| Award {
                most: a.value.most.value,
                rule: a.value.rule.value.clone(),
            }),
        });
    }
    out
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
