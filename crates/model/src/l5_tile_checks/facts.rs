//! Rulebook facts (`[[fact]]` tables): each key states a number the rulebook gives; it is
//! compared with what the compiled geometry yields, and a mismatch is reported at that key with
//! the fact's rule id (`fact-mismatch`).
//!
//! Without `tile = "…"` a fact is about every tile of the file (or variant): `tiles`,
//! `start_tiles`, `pennants`, `cloisters`, `wonders` and `tags` (segments carrying each named
//! tag) count copies (draw-pile copies plus the
//! start copy); `types`, `cells`, `cities`, `roads`, `fields` and `fields_without_city` are summed
//! over tile types; `tags` counts the features carrying each tag over copies; the multisets `city_cells`, `road_cells` and `road_ends` collect one entry per
//! feature of every tile type. With `tile = "…"` the same keys are evaluated over that one tile.
//!
//! Every fact names its `source`: `"rulebook"` facts quote the rulebook's words (`quote`),
//! `"reconstruction"` facts say how the data's chosen shape gives the numbers (`derivation`); a
//! fact missing its backing text is reported (`fact-source`). [`check_facts`] also returns what
//! became of each fact ([`FactOutcome`]), so that `tegula validate` can count the rulebook's and
//! the reconstruction's facts separately.

use std::collections::HashSet;
use std::ops::Range;
use std::path::PathBuf;

use serde::Serialize;
use tegula_ruleset::{FeatureKind, SideKind};

use crate::diag::{Code, Diagnostic, Source};
use crate::raw::{RawFact, RawFactSource, Sp};
use crate::tile::CompiledTile;

/// Whether a fact's numbers held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FactStatus {
    /// Every number the fact states is what the tiles give.
    Holds,
    /// Some number differs, or the fact names no tile (reported as diagnostics).
    Fails,
    /// Not checked: a tile it is about did not compile cleanly (its errors are reported).
    Unchecked,
}

/// What became of one `[[fact]]` table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FactOutcome {
    /// File the fact is in (in JSON: lossily where the name is not UTF-8).
    #[serde(serialize_with = "crate::diag::lossy_path")]
    pub file: PathBuf,
    /// 1-based line of the fact's `rule` key.
    pub line: usize,
    /// 1-based column of the fact's `rule` key.
    pub column: usize,
    /// Rule id.
    pub rule: String,
    /// The tile it is about, if one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tile: Option<String>,
    /// Where its numbers come from.
    pub source: RawFactSource,
    /// Whether they held.
    pub status: FactStatus,
}

/// Check that each fact backs its source: a rulebook fact needs a non-empty `quote`, a
/// reconstruction fact a non-empty `derivation`. Reported at `source`.
fn check_source(fact: &Sp<RawFact>, src: &Source, diags: &mut Vec<Diagnostic>) {
    let f = &fact.value;
    let given = |t: &Option<Sp<String>>| t.as_ref().is_some_and(|t| !t.value.trim().is_empty());
    let (key, what) = match f.source.value {
        RawFactSource::Rulebook if !given(&f.quote) => ("quote", "the rulebook's words"),
        RawFactSource::Reconstruction if !given(&f.derivation) => {
            ("derivation", "how the chosen shape gives the numbers")
        }
        _ => return,
    };
    let source = f.source.value.as_str();
    diags.push(
        src.diag(
            Code::FactSource,
            f.source.span.clone(),
            format!("a fact with `source = \"{source}\"` needs a `{key}`: {what}"),
        )
        .with_rule(f.rule.value.as_str())
        .with_note(
            "rulebook facts quote the rulebook (`quote`); numbers the data derives from its \
             chosen shape are `source = \"reconstruction\"` with a `derivation`",
        ),
    );
}

/// Check `facts` against `tiles`. Facts about tiles named in `broken` (which failed to compile
/// cleanly), and file-level facts when any tile is broken, are skipped (their outcome is
/// [`FactStatus::Unchecked`]): the geometry is not trustworthy then and its errors are already
/// reported. Returns the diagnostics and one outcome per fact, in file order.
pub fn check_facts(
    facts: &[Sp<RawFact>],
    tiles: &[CompiledTile],
    broken: &HashSet<String>,
    src: &Source,
) -> (Vec<Diagnostic>, Vec<FactOutcome>) {
    let mut diags = Vec::new();
    let mut outcomes = Vec::new();
    for fact in facts {
        let f = &fact.value;
        check_source(fact, src, &mut diags);
        let (line, column) = src.line_col(f.rule.span.start);
        let mut outcome = FactOutcome {
            file: src.path.clone(),
            line,
            column,
            rule: f.rule.value.clone(),
            tile: f.tile.as_ref().map(|t| t.value.clone()),
            source: f.source.value,
            status: FactStatus::Unchecked,
        };
        outcome.status = match fact_scope(f, tiles, broken, src, &mut diags) {
            Scope::Skipped => FactStatus::Unchecked,
            Scope::NoSuchTile => FactStatus::Fails,
            Scope::Tiles(scope) => {
                let before = diags.len();
                check_counts(f, &scope, src, &mut diags);
                check_multisets(f, &scope, src, &mut diags);
                let failed = diags[before..].iter().any(|d| d.code == Code::FactMismatch);
                if failed {
                    FactStatus::Fails
                } else {
                    FactStatus::Holds
                }
            }
        };
        outcomes.push(outcome);
    }
    (diags, outcomes)
}

/// The tiles a fact is about.
enum Scope<'a> {
    /// Its tile (or, for a file-level fact, some tile) failed to compile: not checked.
    Skipped,
    /// It names a tile that does not exist (reported).
    NoSuchTile,
    /// These tiles: the one it names, or all of them.
    Tiles(Vec<&'a CompiledTile>),
}

/// The tiles fact `f` is about: the tile it names, or every tile for a file-level fact.
fn fact_scope<'a>(
    f: &RawFact,
    tiles: &'a [CompiledTile],
    broken: &HashSet<String>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Scope<'a> {
    let Some(id) = &f.tile else {
        if !broken.is_empty() {
            return Scope::Skipped;
        }
        return Scope::Tiles(tiles.iter().collect());
    };
    if broken.contains(&id.value) {
        return Scope::Skipped;
    }
    if let Some(t) = tiles.iter().find(|t| t.id == id.value) {
        return Scope::Tiles(vec![t]);
    }
    let why = format!("no tile `{}` to state this fact about", id.value);
    let d = src.diag(Code::DanglingReference, id.span.clone(), why);
    diags.push(d.with_rule(&f.rule.value));
    Scope::NoSuchTile
}

/// The fact's counts: of copies (tiles, pennants, cloisters, wonders, segments carrying each
/// tag), of tile types (types, start tiles, cells, cities, roads, fields).
fn check_counts(f: &RawFact, scope: &[&CompiledTile], src: &Source, diags: &mut Vec<Diagnostic>) {
    let rule = f.rule.value.as_str();
    let mut check = |key: &Option<Sp<u64>>, name: &str, actual: u64| {
        if let Some(k) = key.as_ref().filter(|k| k.value != actual) {
            diags.push(mismatch(src, k.span.clone(), name, k.value, actual, rule));
        }
    };
    let copies = |per: &dyn Fn(&CompiledTile) -> u64| -> u64 {
        scope
            .iter()
            .map(|t| t.copies().saturating_mul(per(t)))
            .sum()
    };
    let types = |per: &dyn Fn(&CompiledTile) -> u64| -> u64 { scope.iter().map(|t| per(t)).sum() };
    let count = |t: &CompiledTile, k: FeatureKind| t.features_of(k).count() as u64;
    let starts = scope.iter().filter(|t| t.start).count() as u64;
    check(&f.tiles, "tiles", copies(&|_| 1));
    check(&f.types, "types", scope.len() as u64);
    check(&f.start_tiles, "start_tiles", starts);
    check(&f.pennants, "pennants", copies(&|t| t.pennants()));
    let cloisters = copies(&|t| count(t, FeatureKind::Cloister));
    check(&f.cloisters, "cloisters", cloisters);
    check(
        &f.wonders,
        "wonders",
        copies(&|t| count(t, FeatureKind::Unscored)),
    );
    check(&f.cells, "cells", types(&|t| t.cells.len() as u64));
    let declared = |t: &CompiledTile| {
        let outer = t.cells.iter().flat_map(|c| c.sides.iter().zip(c.outer));
        let declared = outer.filter(|(k, o)| *o && matches!(k, SideKind::Declared(_)));
        declared.count() as u64
    };
    check(&f.declared_edges, "declared_edges", copies(&declared));
    check(&f.cities, "cities", types(&|t| count(t, FeatureKind::City)));
    check(&f.roads, "roads", types(&|t| count(t, FeatureKind::Road)));
    check(
        &f.fields,
        "fields",
        types(&|t| count(t, FeatureKind::Field)),
    );
    let lonely = |t: &CompiledTile| {
        let fields = t.features_of(FeatureKind::Field);
        fields.filter(|x| x.borders.is_empty()).count() as u64
    };
    check(
        &f.fields_without_city,
        "fields_without_city",
        types(&lonely),
    );
    let segment_tags = f.tags.iter().flatten().map(|(tag, want)| {
        let carrying =
            |t: &CompiledTile| t.segments.iter().filter(|s| s.tags.contains(tag)).count();
        (format!("tags.{tag}"), want, copies(&|t| carrying(t) as u64))
    });
    let tile_tags = f.tile_tags.iter().flatten().map(|(tag, want)| {
        let carrying = |t: &CompiledTile| u64::from(t.tags.contains(tag));
        (format!("tile_tags.{tag}"), want, copies(&carrying))
    });
    for (name, want, actual) in segment_tags.chain(tile_tags) {
        if want.value != actual {
            diags.push(mismatch(
                src,
                want.span.clone(),
                &name,
                want.value,
                actual,
                rule,
            ));
        }
    }
}

/// The fact's multisets: cells of each city and road, open ends of each road.
fn check_multisets(
    f: &RawFact,
    scope: &[&CompiledTile],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let multiset = |kind: FeatureKind, per: &dyn Fn(&crate::tile::CompiledFeature) -> u64| {
        let per_tile = scope.iter().flat_map(|t| t.features_of(kind));
        let mut v: Vec<u64> = per_tile.map(per).collect();
        v.sort_unstable();
        v
    };
    let mut check = |key: &Option<Sp<Vec<u64>>>, name: &str, actual: Vec<u64>| {
        let Some(k) = key else { return };
        let mut want = k.value.clone();
        want.sort_unstable();
        if want == actual {
            return;
        }
        let why = format!(
            "{name}: expected {}, the tiles give {}",
            show(&want),
            show(&actual)
        );
        let d = src.diag(Code::FactMismatch, k.span.clone(), why);
        let note = "a multiset: the order of the numbers does not matter";
        diags.push(d.with_rule(&f.rule.value).with_note(note));
    };
    let cells = |x: &crate::tile::CompiledFeature| x.cells.len() as u64;
    check(
        &f.city_cells,
        "city_cells",
        multiset(FeatureKind::City, &cells),
    );
    check(
        &f.road_cells,
        "road_cells",
        multiset(FeatureKind::Road, &cells),
    );
    let ends = |x: &crate::tile::CompiledFeature| u64::from(x.open_sides);
    check(
        &f.road_ends,
        "road_ends",
        multiset(FeatureKind::Road, &ends),
    );
}

fn mismatch(
    src: &Source,
    span: Range<usize>,
    name: &str,
    want: u64,
    actual: u64,
    rule: &str,
) -> Diagnostic {
    src.diag(
        Code::FactMismatch,
        span,
        format!("{name}: expected {want}, the tiles give {actual}"),
    )
    .with_rule(rule)
}

fn show(v: &[u64]) -> String {
    let parts: Vec<String> = v.iter().map(u64::to_string).collect();
    format!("[{}]", parts.join(", "))
}
