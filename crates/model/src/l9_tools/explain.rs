//! The effective rules of a variant in plain words, one line a rule, each with its value and
//! the file and line that set it (`tegula variant explain`), and the rule-by-rule difference
//! of two variants (`tegula variant diff`).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{json, Value};
use tegula_ruleset::{
    Act, Adjacency, AfterScore, FieldRule, FinalRoundFirst, JoinedFieldScoring, JoinedFieldTiming,
    KeptAfterPile, NearCells, NeedsOwnAlone, OpenEnd, PoolTileDraw, Readings, ShuffleBack,
    Strength, ThresholdRecheck, WalkTiming,
};
use toml_edit::ImDocument;

use crate::diag::{Diagnostic, Source};
use crate::inherit::load_variant;
use crate::load::Loaded;
use crate::variant::{compile_variant, CompiledVariant};

/// Where a value was set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Origin {
    /// The file (in JSON: lossily where the name is not UTF-8).
    #[serde(serialize_with = "crate::diag::lossy_path")]
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
}

/// One effective rule.
#[derive(Clone, Debug, Serialize)]
pub struct RuleLine {
    /// Stable key (the variant key that sets it, e.g. `scoring.field_per_city`).
    pub key: String,
    /// The effective value.
    pub value: Value,
    /// The rule in plain words, with its value.
    pub text: String,
    /// Rule id (the rule registry, `tegula rules ID`, or one the data declares) the parameter
    /// belongs to, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Where it was set; `None`: the rulebook's default.
    pub origin: Option<Origin>,
}

/// The effective rules of one variant.
#[derive(Clone, Debug, Serialize)]
pub struct Explanation {
    /// Variant id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The files of its `extends` chain, the root first (in JSON: lossily where a name is not
    /// UTF-8).
    #[serde(serialize_with = "crate::diag::lossy_paths")]
    pub chain: Vec<PathBuf>,
    /// One line a rule.
    pub rules: Vec<RuleLine>,
}

/// Explain the variant at `path`. `None` (with the diagnostics) when it has errors.
pub fn explain(path: &Path) -> (Option<Explanation>, Vec<Diagnostic>) {
    let (v, diags) = compile_variant(path);
    let (loaded, _) = load_variant(path);
    let (Some(v), Some(Loaded { source, .. })) = (v, loaded) else {
        return (None, diags);
    };
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    let doc = ImDocument::parse(source.text.clone()).ok();
    let at = Locator {
        source: &source,
        doc: doc.as_ref(),
    };
    let chain = match source.origins() {
        Some(o) => o.files.iter().map(|f| f.path.clone()).collect(),
        None => vec![source.path.clone()],
    };
    let mut rules = setup_lines(&v, &at);
    rules.extend(scoring_lines(&v, &at));
    rules.extend(reading_lines(&v, &at));
    rules.extend(resource_lines(&v, &at));
    rules.extend(crate::explain_when::lines(&v, &at));
    let e = Explanation {
        id: v.id.clone(),
        name: v.name.clone(),
        chain,
        rules,
    };
    (Some(e), diags)
}

/// Finds where a key path of the (merged) document was written.
pub(crate) struct Locator<'a> {
    source: &'a Source,
    doc: Option<&'a ImDocument<String>>,
}

impl Locator<'_> {
    fn origin(&self, path: &[&str]) -> Option<Origin> {
        self.locate(self.offset(path)?)
    }

    /// Where in the merged text the key path was written.
    fn offset(&self, path: &[&str]) -> Option<usize> {
        let mut item = self.doc?.as_item();
        for k in path {
            item = item.as_table_like()?.get(k)?;
        }
        Some(item.span()?.start)
    }

    /// Where the element of the list `list` whose `id` is `id` was written (its `id` value).
    pub(crate) fn element(&self, list: &str, id_key: &str, id: &str) -> Option<Origin> {
        let item = self.doc?.as_table().get(list)?;
        let span = match item {
            toml_edit::Item::ArrayOfTables(a) => a
                .iter()
                .filter_map(|t| t.get(id_key))
                .find(|v| v.as_str() == Some(id))
                .and_then(|v| v.span()),
            _ => item
                .as_array()?
                .iter()
                .filter_map(|v| v.as_inline_table()?.get(id_key))
                .find(|v| v.as_str() == Some(id))
                .and_then(|v| v.span()),
        };
        self.locate(span?.start)
    }

    /// The file and line of a byte offset of the (merged) text.
    fn locate(&self, offset: usize) -> Option<Origin> {
        let (file, offset) = self.source.origin(offset);
        Some(Origin {
            file: file.path.clone(),
            line: file.line_col(offset).0,
        })
    }
}

pub(crate) fn line(
    key: &str,
    value: Value,
    text: String,
    rule: Option<&str>,
    at: Option<Origin>,
) -> RuleLine {
    RuleLine {
        key: key.to_string(),
        value,
        text,
        rule: rule.map(str::to_string),
        origin: at,
    }
}

/// Players, tiles, hand, figures, own tiles, the pool, abilities.
fn setup_lines(v: &CompiledVariant, at: &Locator<'_>) -> Vec<RuleLine> {
    let (value, text) = match &v.seats_rule {
        None => (
            json!([v.min_players, v.max_players]),
            format!("{} to {} players", v.min_players, v.max_players),
        ),
        Some(s) => (
            json!([v.min_players, v.max_players, { "above": s.above, "rule": s.rule }]),
            format!(
                "{} to {} players; a game of more than {} cites {} at its start",
                v.min_players, v.max_players, s.above, s.rule
            ),
        ),
    };
    let mut out = vec![line("players", value, text, None, at.origin(&["players"]))];
    out.extend(tile_lines(v, at));
    out.push(line(
        "hand",
        json!(v.hand),
        match v.hand {
            1 => "a player draws a tile and places it (hand of 1)".to_string(),
            n => format!("a player holds {n} tiles, places one and draws back up to {n}"),
        },
        Some("B-2"),
        at.origin(&["hand"]),
    ));
    let tags = crate::lower::tag_names(&v.tiles);
    for f in &v.followers {
        let origin = at
            .origin(&["follower_count", &f.id])
            .or_else(|| at.element("followers", "id", &f.id));
        let value = serde_json::to_value(f).unwrap_or(Value::Null);
        out.push(line(
            &format!("followers.{}", f.id),
            value,
            figure_words(f, &tags) + &corner_words(f, &tags) + &guest_words(f) + &cited_words(f),
            Some("B-2"),
            origin,
        ));
    }
    out.extend(held_lines(v, at));
    out.extend(ability_lines(v, at));
    out
}

/// The distribution: the whole of it (value: every tile's count), and each `tile_count` entry.
fn tile_lines(v: &CompiledVariant, at: &Locator<'_>) -> Vec<RuleLine> {
    let pile: u64 = v.tiles.iter().map(|t| t.count).sum();
    let total = pile + v.tiles.iter().filter(|t| t.start).count() as u64;
    let counts: serde_json::Map<String, Value> = v
        .tiles
        .iter()
        .map(|t| (t.id.clone(), json!(t.count)))
        .collect();
    let mut out = vec![line(
        "sets",
        json!({ "tiles": total, "counts": counts }),
        format!(
            "{total} tiles of {} types, start tile included",
            v.tiles.len()
        ),
        Some("B-1"),
        at.origin(&["sets"]),
    )];
    for t in &v.tiles {
        if let Some(o) = at.origin(&["tile_count", &t.id]) {
            out.push(line(
                &format!("tile_count.{}", t.id),
                json!(t.count),
                format!("tile {}: {} copies in the pile", t.id, t.count),
                Some("B-1"),
                Some(o),
            ));
        }
    }
    out
}

/// Tiles the players hold, and the pool.
fn held_lines(v: &CompiledVariant, at: &Locator<'_>) -> Vec<RuleLine> {
    let mut out = Vec::new();
    for p in &v.player_tiles {
        let id = v
            .tiles
            .get(usize::from(p.tile))
            .map_or("?", |t| t.id.as_str());
        let site = if p.site == tegula_ruleset::TileSite::Enclosed {
            "into holes only"
        } else {
            "anywhere"
        };
        let last = if p.final_round {
            ", also after the pile"
        } else {
            ""
        };
        out.push(line(
            &format!("player_tiles.{id}"),
            serde_json::to_value(p).unwrap_or(Value::Null),
            format!(
                "each player holds {} {id} tile(s), placed {site}{last}",
                p.count
            ),
            Some("AM-1"),
            at.element("player_tiles", "tile", id),
        ));
    }
    if let Some(p) = &v.pool {
        out.push(line(
            "pool",
            serde_json::to_value(p).unwrap_or(Value::Null),
            format!(
                "an open pool of {} tiles, {} picked per player, taken as rule `when.{}` offers \
                 them",
                p.tiles.len(),
                p.pick,
                p.rules.take
            ),
            Some("W-1"),
            at.origin(&["pool"]),
        ));
    }
    out
}

/// One line per tile with abilities: the rule ids, where they are written (the tile's file, or
/// the variant's `[[ability]]` replacing them).
fn ability_lines(v: &CompiledVariant, at: &Locator<'_>) -> Vec<RuleLine> {
    let mut out = Vec::new();
    let tags = &crate::lower::tag_names(&v.tiles);
    for (i, t) in v.tiles.iter().enumerate() {
        let Some(first) = t.abilities.first() else {
            continue;
        };
        let origin = if first.in_variant {
            at.locate(first.span.start)
        } else {
            v.tile_source
                .get(i)
                .and_then(|&s| v.sources.get(s))
                .map(|src| {
                    let (line, _) = src.line_col(first.span.start);
                    Origin {
                        file: crate::validate::normalize(&src.path),
                        line,
                    }
                })
        };
        // In words after lowering: a count's tag and a gain's amount are resolved there.
        let said: Vec<String> = crate::abilities::lower(&t.abilities, tags)
            .iter()
            .map(|a| format!("{} {}", a.rule, a.words(tags)))
            .collect();
        let value: Vec<&tegula_ruleset::Ability> = t.abilities.iter().map(|a| &a.ability).collect();
        out.push(line(
            &format!("abilities.{}", t.id),
            serde_json::to_value(value).unwrap_or(Value::Null),
            format!("tile {}: {}", t.id, said.join(" ")),
            None,
            origin,
        ));
    }
    out
}

fn figure_words(f: &tegula_ruleset::FollowerType, tags: &[String]) -> String {
    let strength = match &f.strength {
        Strength::Fixed(s) => format!("strength {s}"),
        Strength::Value(e) => format!("strength on its feature: {}", e.words(tags)),
    };
    let after = match f.after_score {
        AfterScore::Return => "",
        AfterScore::Stay => ", stays after scoring",
        AfterScore::Move(Adjacency::Neighbourhood) => {
            ", moves on after scoring to a feature in its tile's neighbourhood (AM-11 Reading)"
        }
        AfterScore::Move(Adjacency::Connected) => {
            ", moves on after scoring to a connected feature (the older AM-11 rule)"
        }
    };
    let tagged = crate::explain_when::site_tag_words(f, tags);
    format!(
        "{} {} per player ({strength}{after}{tagged})",
        f.count, f.name
    )
}

/// A corner figure's three payments (AM-7 .. AM-9), in words.
fn corner_words(f: &tegula_ruleset::FollowerType, tags: &[String]) -> String {
    let Some(c) = &f.corner else {
        return String::new();
    };
    format!(
        "; its field pays its farmer majority {} when it is placed (AM-7) and {} when a farmer \
         field joins it (AM-8), and its owner {} at the end (AM-9)",
        c.place.words(tags),
        c.join.words(tags),
        c.final_.words(tags)
    )
}

/// The generic properties of figures that stand beside their owner's (TB-4, TB-7), in words.
fn guest_words(f: &tegula_ruleset::FollowerType) -> String {
    let mut out = String::new();
    if f.needs_own_figure {
        out.push_str("; only on a feature holding one of its owner's figures");
    }
    if !f.occupies {
        out.push_str("; does not occupy (blocks nobody)");
    }
    // A `payment` and a `when_extended` are rules of the one form once lowered: their own
    // `when.RULE` lines say them.
    out
}

/// The rules a figure's placements from supply and returns cite, in words.
fn cited_words(f: &tegula_ruleset::FollowerType) -> String {
    let mut out = String::new();
    if let Some(r) = &f.place_rule {
        out.push_str(&format!("; its placements cite {r}"));
    }
    if let Some(r) = &f.return_rule {
        out.push_str(&format!("; its returns cite {r}"));
    }
    out
}

/// The value of each feature kind as an expression with its words, then the scoring rules that
/// are not values.
fn scoring_lines(v: &CompiledVariant, at: &Locator<'_>) -> Vec<RuleLine> {
    let s = &v.scoring;
    let tags = crate::lower::tag_names(&v.tiles);
    let mut out: Vec<RuleLine> = s
        .values
        .entries()
        .into_iter()
        .map(|(key, kind, e)| {
            let (subject, rule) = match key.rsplit_once('.').map_or("", |k| k.1) {
                "complete" => (format!("completed {}", kind.name()), "B-4"),
                "incomplete" => (format!("incomplete {} at the end", kind.name()), "B-6"),
                _ => (format!("{} at the end", kind.name()), "B-6"),
            };
            line(
                &format!("values.{key}"),
                json!(e.source(&tags)),
                format!("{subject}: `{}`, {}", e.source(&tags), e.words(&tags)),
                Some(rule),
                value_origin(key, at),
            )
        })
        .collect();
    let incomplete = if s.final_incomplete {
        "incomplete roads, cities and cloisters score at the end"
    } else {
        "incomplete roads, cities and cloisters score nothing at the end"
    };
    let fields = match s.field_rule {
        FieldRule::PerField => {
            "fields: each field scores every completed city it borders, to its own farmer majority"
        }
        FieldRule::PerCity => {
            "fields (first edition): each completed city scores once, to the farmer majority \
             over all its fields"
        }
    };
    for (k, value, words, rule) in [
        (
            "final_incomplete",
            json!(s.final_incomplete),
            incomplete.to_string(),
            "B-6",
        ),
        ("field_rule", json!(s.field_rule), fields.to_string(), "B-6"),
    ] {
        out.push(line(
            &format!("scoring.{k}"),
            value,
            words,
            Some(rule),
            at.origin(&["scoring", k]),
        ));
    }
    out
}

/// One line per seat resource: its name and what each seat starts with (docs/FORMAT.md, "Seat
/// resources"); its gain and award are `when` lines.
fn resource_lines(v: &CompiledVariant, at: &Locator<'_>) -> Vec<RuleLine> {
    let mut out = Vec::new();
    for r in &v.resources {
        let mut parts = vec![format!("{}, held by each seat", r.name)];
        // A `gain` and an `award` are rules of the one form once lowered (`when.RULE` lines).
        if !r.start.is_empty() {
            parts.push(crate::explain_when::start_words(&r.start));
        }
        out.push(line(
            &format!("resource.{}", r.id),
            serde_json::to_value(r).unwrap_or(Value::Null),
            parts.join("; "),
            None,
            at.element("resource", "id", &r.id),
        ));
    }
    out
}

/// Where the value `key` (`city.complete`) was set: its `[values]` expression or a `[scoring]`
/// number that sets it, whichever the later file of the chain wrote (the one that decides it);
/// `None` when neither (the rulebook's value).
fn value_origin(key: &str, at: &Locator<'_>) -> Option<Origin> {
    let expr: Vec<&str> = std::iter::once("values").chain(key.split('.')).collect();
    let numbers = crate::values::number_keys(key)
        .iter()
        .map(|k| vec!["scoring", *k]);
    let written = std::iter::once(expr).chain(numbers);
    let offsets = written.filter_map(|path| at.offset(&path));
    // The first of the latest file: the expression when a file gave both (an error anyway).
    let best = offsets
        .rev()
        .max_by_key(|&o| crate::values::chain_file(at.source, o))?;
    at.locate(best)
}

/// One reading as explained: its key under `readings.`, its value, the reading in words and
/// the rule it decides.
type ReadingRow = (&'static str, Value, &'static str, &'static str);

/// The rulebook's *Readings* the variant has a mechanism for (`[readings]`), each with the
/// reading in words: the registry's, or the alternative the variant chose.
fn reading_lines(v: &CompiledVariant, at: &Locator<'_>) -> Vec<RuleLine> {
    let mut rows: Vec<ReadingRow> = Vec::new();
    if v.player_tiles.iter().any(|p| p.final_round) {
        rows.push(final_round_row(&v.readings));
    }
    if crate::readings::has_near_building(&v.tiles) {
        rows.push(near_building_row(&v.readings));
    }
    if v.pool.is_some() {
        rows.extend(pool_rows(&v.readings));
    }
    if crate::readings::has_hands(v.hand, &v.tiles) {
        rows.push(kept_row(&v.readings));
    }
    if crate::readings::has_corner_join(&v.followers) {
        rows.extend(corner_join_rows(&v.readings));
    }
    if crate::readings::has_room_ahead(&v.tiles) {
        rows.push(open_end_row(&v.readings));
    }
    let mut lines: Vec<RuleLine> = rows
        .into_iter()
        .map(|(k, value, words, rule)| {
            line(
                &format!("readings.{k}"),
                value,
                words.to_string(),
                Some(rule),
                at.origin(&["readings", k]),
            )
        })
        .collect();
    lines.extend(walk_reading_lines(v, at));
    lines
}

/// `shuffle_back` and `walk_timing`, where the variant's rules shuffle tiles back or walk a
/// neutral figure; each cites the data's rule that does it (PD-3, PD-5 are the tile set's own).
fn walk_reading_lines(v: &CompiledVariant, at: &Locator<'_>) -> Vec<RuleLine> {
    let rule_of = |is: &dyn Fn(&Act) -> bool| {
        let w = v.when.iter().find(|w| w.then.iter().any(is));
        w.map(|w| w.rule.clone())
    };
    let mut out = Vec::new();
    if let Some(rule) = rule_of(&|a| *a == Act::ShuffleBack) {
        let words = match v.readings.shuffle_back {
            ShuffleBack::RandomPositions => {
                "tiles set aside go back into the remaining pile, each at a random position"
            }
            ShuffleBack::Bottom => "tiles set aside go back under the remaining pile",
        };
        let value = json!(v.readings.shuffle_back);
        let origin = at.origin(&["readings", "shuffle_back"]);
        out.push(line(
            "readings.shuffle_back",
            value,
            words.into(),
            Some(&rule),
            origin,
        ));
    }
    if let Some(rule) = rule_of(&|a| matches!(a, Act::Walk(_))) {
        let words = match v.readings.walk_timing {
            WalkTiming::BeforeScoring => {
                "a walk of a `before-scoring` rule is made between the figure step and the turn's \
                 scoring"
            }
            WalkTiming::AfterScoring => {
                "a walk of a `before-scoring` rule is made after the turn's scoring"
            }
        };
        let value = json!(v.readings.walk_timing);
        let origin = at.origin(&["readings", "walk_timing"]);
        out.push(line(
            "readings.walk_timing",
            value,
            words.into(),
            Some(&rule),
            origin,
        ));
    }
    out.extend(needs_own_alone_line(v, at));
    out
}

/// `needs_own_alone` (PD-6's second Reading), where a figure needs an own figure and a rule's
/// effect takes figures off the board; it cites the first such rule.
fn needs_own_alone_line(v: &CompiledVariant, at: &Locator<'_>) -> Option<RuleLine> {
    if !v.followers.iter().any(|f| f.needs_own_figure) {
        return None;
    }
    let acts = |w: &tegula_ruleset::When| {
        let offered = w.offer.iter().flat_map(|o| &o.then);
        w.then.iter().chain(offered).any(crate::readings::removes)
    };
    let w = v.when.iter().find(|w| acts(w))?;
    // A walk's meal cites its own rule (PD-6), not the walk's (PD-5).
    let meal = w.then.iter().find_map(|a| match a {
        Act::Walk(walk) => walk.on_enter.iter().find_map(|e| match e {
            Act::ReturnOn { rule, .. } => rule.clone(),
            _ => None,
        }),
        _ => None,
    });
    let rule = meal.unwrap_or_else(|| w.rule.clone());
    let words = match v.readings.needs_own_alone {
        NeedsOwnAlone::Stays => {
            "a builder or pig stays when an effect takes its owner's last figure on its feature"
        }
        NeedsOwnAlone::Leaves => {
            "a builder or pig goes home with its owner's last figure on its feature when an \
             effect takes that figure"
        }
    };
    let value = json!(v.readings.needs_own_alone);
    let origin = at.origin(&["readings", "needs_own_alone"]);
    Some(line(
        "readings.needs_own_alone",
        value,
        words.into(),
        Some(&rule),
        origin,
    ))
}

/// AM-4: who opens the final round of player tiles.
fn final_round_row(r: &Readings) -> ReadingRow {
    (
        "final_round_first",
        json!(r.final_round_first),
        match r.final_round_first {
            FinalRoundFirst::NextSeat => {
                "final round of player tiles: the seat after the one that placed the last \
                 tile goes first"
            }
            FinalRoundFirst::LastPlacer => {
                "final round of player tiles: the player who placed the last tile goes first"
            }
        },
        "AM-4",
    )
}

/// W-10: which cells are near a building.
fn near_building_row(r: &Readings) -> ReadingRow {
    (
        "near_building",
        json!(r.near),
        match r.near {
            NearCells::Around => {
                "near a building: one of the 8 cells around the building's cell (its own \
                 cell only if it neighbours another)"
            }
            NearCells::AroundOrOn => {
                "near a building: one of the 8 cells around the building's cell, or that \
                 cell itself"
            }
        },
        "W-10",
    )
}

/// W-3 and W-6: the pool's readings.
fn pool_rows(r: &Readings) -> [ReadingRow; 2] {
    [
        (
            "threshold_recheck",
            json!(r.threshold_recheck),
            match r.threshold_recheck {
                ThresholdRecheck::NewPosition => {
                    "several players at the pairs in one turn: after the pairs move, the others \
                     must reach their new position"
                }
                ThresholdRecheck::OldPosition => {
                    "several players at the pairs in one turn: everyone who reached them this \
                     turn takes, even after they move"
                }
            },
            "W-3",
        ),
        (
            "pool_tile_draw",
            json!(r.pool_tile_draw),
            match r.pool_tile_draw {
                PoolTileDraw::Enabling => {
                    "a taken pool tile that fits nowhere: a drawn tile is placed only where the \
                     pool tile can then touch it, else removed"
                }
                PoolTileDraw::AnyFit => {
                    "a taken pool tile that fits nowhere: a drawn tile is placed wherever it \
                     fits and stays; only a tile that fits nowhere is removed"
                }
            },
            "W-6",
        ),
    ]
}

/// W-12: who plays the tiles kept in hand when the pile is empty.
fn kept_row(r: &Readings) -> ReadingRow {
    (
        "kept_after_pile",
        json!(r.kept_after_pile),
        match r.kept_after_pile {
            KeptAfterPile::Keeper => {
                "tiles still kept in hand when the pile is empty: each keeper places theirs, \
                 then the game ends"
            }
            KeptAfterPile::NextSeat => {
                "tiles still kept in hand when the pile is empty: the next seats in turn \
                 play them as the pile's last tiles, then the game ends"
            }
        },
        "W-12",
    )
}

/// what room the open end of a line of declared edges needs.
fn open_end_row(r: &Readings) -> ReadingRow {
    (
        "open_end",
        json!(r.open_end),
        match r.open_end {
            OpenEnd::Room => {
                "a line of declared edges (the river) may not turn back: the two cells ahead \
                 of its open end and the cells beside them are empty"
            }
            OpenEnd::NoRepeatedTurn => {
                "a line of declared edges (the river) may not turn twice in a row the same way"
            }
        },
        "R-4",
    )
}

/// AM-8: how and when a join to a corner-figure field scores.
fn corner_join_rows(r: &Readings) -> [ReadingRow; 2] {
    [
        (
            "joined_field_scoring",
            json!(r.joined_field_scoring),
            match r.joined_field_scoring {
                JoinedFieldScoring::WholeField => {
                    "farmer fields joined to a corner-figure field: the whole joined field \
                     scores its completed cities to all its farmers' majority"
                }
                JoinedFieldScoring::EachField => {
                    "farmer fields joined to a corner-figure field: each scores the completed \
                     cities it bordered to its own farmers' majority"
                }
            },
            "AM-8",
        ),
        (
            "joined_field_timing",
            json!(r.joined_field_timing),
            match r.joined_field_timing {
                JoinedFieldTiming::AtOnce => {
                    "a join to a corner-figure field scores as the tile is placed, before the \
                     figure decision: its farmers may go on that tile again"
                }
                JoinedFieldTiming::ScoringStep => {
                    "a join to a corner-figure field scores in the turn's scoring step, after \
                     the figure decision"
                }
            },
            "AM-8",
        ),
    ]
}

/// One rule that differs between two variants.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    /// The rule's key.
    pub key: String,
    /// The rule in the first variant (`None`: it has no such rule, e.g. no pool).
    pub a: Option<RuleLine>,
    /// The rule in the second.
    pub b: Option<RuleLine>,
}

/// The rules whose values differ between `a` and `b`, in `a`'s order then `b`'s new keys.
pub fn diff(a: &Explanation, b: &Explanation) -> Vec<Difference> {
    let mut keys: Vec<&str> = a.rules.iter().map(|r| r.key.as_str()).collect();
    for r in &b.rules {
        if !keys.contains(&r.key.as_str()) {
            keys.push(&r.key);
        }
    }
    let find = |e: &Explanation, k: &str| e.rules.iter().find(|r| r.key == k).cloned();
    keys.into_iter()
        .filter_map(|k| {
            let (x, y) = (find(a, k), find(b, k));
            let same = match (&x, &y) {
                (Some(x), Some(y)) => x.value == y.value,
                _ => false,
            };
            (!same).then(|| Difference {
                key: k.to_string(),
                a: x,
                b: y,
            })
        })
        .collect()
}
