//! A variant's scoring (docs/FORMAT.md, "Values"): the `[scoring]` numbers lowered to value
//! expressions, then the `[values]` expressions parsed and type-checked over the variant's tags,
//! each replacing the value it names. A value set both ways in one file is an error at the
//! expression; across an `extends` chain the later file wins.

mod parse;

use std::ops::Range;

pub use parse::{parse, parse_in, parse_rule_test, parse_rule_value, ExprError};
use tegula_ruleset::{Expr, FeatureKind, FieldRule, Quantity, Scoring, ScoringNumbers, Values};

use crate::diag::{Code, Diagnostic, Source};
use crate::raw::{RawFieldRule, RawScoring, RawStateValues, RawValues, Sp};

/// Each `[values]` key, its kind, and the `[scoring]` number keys that set the same value.
pub const KEYS: [(&str, FeatureKind, &[&str]); 7] = [
    (
        "road.complete",
        FeatureKind::Road,
        &["road_complete_per_tile"],
    ),
    (
        "road.incomplete",
        FeatureKind::Road,
        &["road_incomplete_per_tile"],
    ),
    (
        "city.complete",
        FeatureKind::City,
        &[
            "city_complete_per_tile",
            "city_complete_per_pennant",
            "small_city_per_tile",
        ],
    ),
    (
        "city.incomplete",
        FeatureKind::City,
        &["city_incomplete_per_tile", "city_incomplete_per_pennant"],
    ),
    (
        "cloister.complete",
        FeatureKind::Cloister,
        &["cloister_complete"],
    ),
    (
        "cloister.incomplete",
        FeatureKind::Cloister,
        &[
            "cloister_incomplete_base",
            "cloister_incomplete_per_neighbour",
        ],
    ),
    ("field.end", FeatureKind::Field, &["field_per_city"]),
];

/// Lower `[scoring]` and `[values]` to the variant's [`Scoring`]. `tags` are the tag names of the
/// variant's tiles ([`crate::lower::tag_names`]); `rules` are those a value may cite.
pub fn scoring(
    raw: Option<&Sp<RawScoring>>,
    values: Option<&Sp<RawValues>>,
    tags: &[String],
    rules: &crate::rules::Scope,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Scoring {
    let numbers = raw.map(|r| &r.value).cloned().unwrap_or_default();
    let mut out = numbers_of(&numbers).values();
    for (key, kind, text) in given(values) {
        let parsed = parse_in(&text.value, kind, tags, rules).map_err(|e| {
            diags.push(src.diag(
                Code::BadValue,
                inner_span(src, text, e.at),
                format!("values.{key}: {}", e.message),
            ))
        });
        let (later, same) = also_numbers(&numbers, key, text, src);
        if !same.is_empty() {
            diags.push(src.diag(
                Code::BadValue,
                text.span.clone(),
                format!(
                    "values.{key} is also set by [scoring] {} in the same file: say it once \
                     (the expression alone can say what the numbers say)",
                    same.join(", ")
                ),
            ));
        }
        let per_city = matches!(numbers.field_rule, Some(RawFieldRule::PerCity));
        if per_city && parsed.as_ref().is_ok_and(reads_cities_with) {
            // The first edition's procedure pays each city alone, with `cities` = 1.
            diags.push(src.diag(
                Code::BadValue,
                text.span.clone(),
                format!(
                    "values.{key}: `cities(TAG)` needs the standard field rule; under \
                     `field_rule = \"per-city\"` each city is paid on its own"
                ),
            ));
            continue;
        }
        if let (Ok(e), false) = (parsed, later) {
            *slot(&mut out, key) = e;
        }
    }
    let d = Scoring::default();
    Scoring {
        values: out,
        final_incomplete: numbers.final_incomplete.unwrap_or(d.final_incomplete),
        field_rule: match numbers.field_rule {
            None => d.field_rule,
            Some(RawFieldRule::PerField) => FieldRule::PerField,
            Some(RawFieldRule::PerCity) => FieldRule::PerCity,
        },
    }
}

/// The `[scoring]` numbers that also set the value `key` written at `text`: whether one was
/// written in a later file of the `extends` chain (it then decides the value), and those written
/// in the same file (an error: say it once). Earlier files' numbers are overridden.
fn also_numbers(
    numbers: &RawScoring,
    key: &str,
    text: &Sp<String>,
    src: &Source,
) -> (bool, Vec<&'static str>) {
    let here = chain_file(src, text.span.start);
    let mut later = false;
    let mut same = Vec::new();
    for &k in number_keys(key) {
        let Some(n) = number(numbers, k) else {
            continue;
        };
        match chain_file(src, n.span.start).cmp(&here) {
            std::cmp::Ordering::Equal => same.push(k),
            std::cmp::Ordering::Greater => later = true,
            std::cmp::Ordering::Less => {}
        }
    }
    (later, same)
}

/// The `[scoring]` numbers given, the standard rules for the others.
fn numbers_of(r: &RawScoring) -> ScoringNumbers {
    let d = ScoringNumbers::default();
    let n = |v: &Option<Sp<u32>>, def: u32| v.as_ref().map_or(def, |v| v.value);
    ScoringNumbers {
        road_complete_per_tile: n(&r.road_complete_per_tile, d.road_complete_per_tile),
        road_incomplete_per_tile: n(&r.road_incomplete_per_tile, d.road_incomplete_per_tile),
        city_complete_per_tile: n(&r.city_complete_per_tile, d.city_complete_per_tile),
        city_complete_per_pennant: n(&r.city_complete_per_pennant, d.city_complete_per_pennant),
        city_incomplete_per_tile: n(&r.city_incomplete_per_tile, d.city_incomplete_per_tile),
        city_incomplete_per_pennant: n(
            &r.city_incomplete_per_pennant,
            d.city_incomplete_per_pennant,
        ),
        small_city_per_tile: r
            .small_city_per_tile
            .as_ref()
            .map(|v| v.value)
            .or(d.small_city_per_tile),
        cloister_complete: n(&r.cloister_complete, d.cloister_complete),
        cloister_incomplete_base: n(&r.cloister_incomplete_base, d.cloister_incomplete_base),
        cloister_incomplete_per_neighbour: n(
            &r.cloister_incomplete_per_neighbour,
            d.cloister_incomplete_per_neighbour,
        ),
        field_per_city: n(&r.field_per_city, d.field_per_city),
    }
}

/// The `[scoring]` number `key`, if given.
fn number<'a>(r: &'a RawScoring, key: &str) -> Option<&'a Sp<u32>> {
    match key {
        "road_complete_per_tile" => r.road_complete_per_tile.as_ref(),
        "road_incomplete_per_tile" => r.road_incomplete_per_tile.as_ref(),
        "city_complete_per_tile" => r.city_complete_per_tile.as_ref(),
        "city_complete_per_pennant" => r.city_complete_per_pennant.as_ref(),
        "small_city_per_tile" => r.small_city_per_tile.as_ref(),
        "city_incomplete_per_tile" => r.city_incomplete_per_tile.as_ref(),
        "city_incomplete_per_pennant" => r.city_incomplete_per_pennant.as_ref(),
        "cloister_complete" => r.cloister_complete.as_ref(),
        "cloister_incomplete_base" => r.cloister_incomplete_base.as_ref(),
        "cloister_incomplete_per_neighbour" => r.cloister_incomplete_per_neighbour.as_ref(),
        "field_per_city" => r.field_per_city.as_ref(),
        _ => None,
    }
}

/// Which file of the `extends` chain (0 = the root) the byte `offset` of `src` was written in.
pub(crate) fn chain_file(src: &Source, offset: usize) -> usize {
    let Some(o) = src.origins() else { return 0 };
    let i = o.pieces.partition_point(|p| p.at <= offset);
    i.checked_sub(1)
        .and_then(|i| o.pieces.get(i))
        .map_or(o.files.len().saturating_sub(1), |p| p.file)
}

/// The `[scoring]` number keys that set the value `key`.
pub fn number_keys(key: &str) -> &'static [&'static str] {
    KEYS.iter()
        .find(|(k, _, _)| *k == key)
        .map_or(&[], |(_, _, n)| n)
}

/// The expressions `[values]` gives, with their keys and kinds, in [`KEYS`] order.
fn given(values: Option<&Sp<RawValues>>) -> Vec<(&'static str, FeatureKind, &Sp<String>)> {
    let Some(v) = values else { return Vec::new() };
    let v = &v.value;
    let (road, city, cloister) = (state(&v.road), state(&v.city), state(&v.cloister));
    let field = v.field.as_ref().and_then(|f| f.end.as_ref());
    let texts = [
        road.0, road.1, city.0, city.1, cloister.0, cloister.1, field,
    ];
    KEYS.iter()
        .zip(texts)
        .filter_map(|(&(k, kind, _), t)| Some((k, kind, t?)))
        .collect()
}

/// The `complete` and `incomplete` texts of one kind's `[values]` table.
fn state(s: &Option<RawStateValues>) -> (Option<&Sp<String>>, Option<&Sp<String>>) {
    let s = s.as_ref();
    (
        s.and_then(|s| s.complete.as_ref()),
        s.and_then(|s| s.incomplete.as_ref()),
    )
}

/// The value `key` names in `v`.
fn slot<'a>(v: &'a mut Values, key: &str) -> &'a mut Expr {
    match key {
        "road.complete" => &mut v.road.complete,
        "road.incomplete" => &mut v.road.incomplete,
        "city.complete" => &mut v.city.complete,
        "city.incomplete" => &mut v.city.incomplete,
        "cloister.complete" => &mut v.cloister.complete,
        "cloister.incomplete" => &mut v.cloister.incomplete,
        _ => &mut v.field,
    }
}

/// The source range of bytes `at` of the string `text`: exact when the TOML literal is the text
/// between quotes (no escapes), else the whole literal.
pub(crate) fn inner_span(src: &Source, text: &Sp<String>, at: Range<usize>) -> Range<usize> {
    let lit = src.text.get(text.span.clone()).unwrap_or("");
    let plain = lit.len() == text.value.len() + 2 && lit.get(1..lit.len() - 1) == Some(&text.value);
    if plain {
        let start = text.span.start + 1;
        // An error at the end of the text points at the closing quote.
        start + at.start..start + at.end.max(at.start + 1)
    } else {
        text.span.clone()
    }
}

/// Whether `e` reads `cities(TAG)` ([`Quantity::CitiesWith`]).
pub(crate) fn reads_cities_with(e: &Expr) -> bool {
    let mut read = Vec::new();
    e.quantities(&mut read);
    read.iter().any(|q| matches!(q, Quantity::CitiesWith(_)))
}

#[cfg(test)]
mod tests;
