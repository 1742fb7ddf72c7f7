//! Loading a scenario: file → TOML → raw types with spans → names resolved against the variant's
//! ruleset → a checked [`Scenario`]. Every problem is reported as a
//! [`tegula_model::Diagnostic`] with file:line:column; nothing panics on bad input.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tegula_model::raw::Sp;
use tegula_model::{Code, Diagnostic, Source};
use tegula_ruleset::{FeatureKind, Ruleset};

mod board;
mod choices;
mod corners;
mod pile;
mod resources;
mod rule_events;
mod setup;

use crate::raw::{
    RawEvent, RawExpectError, RawFeatureKind, RawFollowerPlacement, RawMove, RawRotation, RawStep,
    RawTake, ScenarioFile,
};

/// Largest scenario file accepted, in bytes.
pub const MAX_FILE_SIZE: u64 = tegula_model::load::MAX_FILE_BYTES as u64;

/// A checked scenario, ready to run.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The scenario file's source (path and text, for positions).
    pub source: Source,
    /// Title.
    pub name: String,
    /// Rule ids it exercises.
    pub rules: Vec<String>,
    /// Path of the variant file (resolved relative to the scenario).
    pub variant_path: PathBuf,
    /// The variant's ruleset.
    pub ruleset: Arc<Ruleset>,
    /// Number of players.
    pub players: u8,
    /// Start tile override `(tile index, rotation)`; `None` = the variant's start tile, rotation 0.
    pub start: Option<(u16, u8)>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Whether the pile is exactly the steps' drawn tiles (the game ends by itself, AM-4).
    pub pile_ends: bool,
    /// An explicit draw pile (W-12 hands draw ahead), instead of the steps' drawn tiles.
    pub pile: Option<Vec<u16>>,
    /// Tiles picked into the open pool at setup, in seat order (W-1).
    pub pool: Vec<u16>,
    /// Whether the pool tiles are dealt into the pile as ordinary tiles (geometry scenarios).
    pub pool_tiles_drawn: bool,
    /// Final scoring, if the scenario asks for it.
    pub end: Option<End>,
    /// Expected final scores per seat, with their position.
    pub final_scores: Option<(Vec<i64>, Pos)>,
    /// The seats declining their own tiles after the last step (AM-4), in order, with the
    /// key's position; `None`: no seat may be offered one then.
    pub declined_at_end: Option<(Vec<u8>, Pos)>,
    /// The position set by hand (`[setup]`), applied before the first step, with its position.
    pub preset: Option<(tegula_engine::Preset, Pos)>,
    /// A starting position from a game log (`[setup] board`): the game after the log's first
    /// turns, which the steps continue (no start tile, pool picks or preset of their own).
    pub board: Option<(tegula_engine::Game, Pos)>,
}

/// A position in the scenario file (1-based line and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Pos {
    /// Line.
    pub line: usize,
    /// Column in characters.
    pub column: usize,
}

/// One checked step.
#[derive(Clone, Debug)]
pub struct Step {
    /// 1-based step number (order in the file).
    pub number: usize,
    /// Where the step's table starts.
    pub pos: Pos,
    /// Tile index in the ruleset.
    pub tile: u16,
    /// Tile id as written.
    pub tile_id: String,
    /// Anchor cell and rotation; `None` = the tile must be unplaceable and is discarded (B-2).
    pub placement: Option<((i32, i32), u8)>,
    /// Seat that must be on turn, if the file says.
    pub player: Option<u8>,
    /// Whether the tile is the player's own, placed instead of drawing (AM-1).
    pub own: bool,
    /// The seats whose own-tile offers are declined before the step, in order, if the file says.
    pub declined: Option<Vec<u8>>,
    /// Follower to place on the tile just placed.
    pub follower: Option<FollowerChoice>,
    /// A second follower on a pool tile just placed (W-7).
    pub follower2: Option<FollowerChoice>,
    /// Answers to the choices offered during the step's turn, in order.
    pub choices: Vec<ChoiceAnswer>,
    /// Tiles taken from the pool after the step's scoring (W-2, W-3), in order.
    pub take: Vec<TakeChoice>,
    /// Decisions about figures freed by the step's scoring (AM-11), in order.
    pub moves: Vec<MoveChoice>,
    /// Expected score / return events (exactly these).
    pub expect: Vec<Expected>,
    /// The step must be rejected.
    pub expect_error: Option<ExpectedError>,
    /// Expected scores after the step.
    pub scores: Option<Vec<i64>>,
    /// Expected holdings after the step: resource id, one count a seat.
    pub holdings: Vec<(String, Vec<u32>)>,
    /// Expected held figures after the step (holder, owner, figure id), in the order taken.
    pub held: Option<Vec<(u8, u8, String)>>,
    /// Expected board points of every corner figure after the step (any order), with the
    /// position of the list.
    pub corner_figures: Option<(Vec<[i32; 2]>, Pos)>,
}

impl Step {
    /// Whether this step is a rejected placement (it uses no turn and no draw).
    pub fn rejects_placement(&self) -> bool {
        self.expect_error.is_some() && self.follower.is_none() && self.placement.is_some()
    }

    /// Whether the step's tile comes from the draw pile.
    pub fn draws(&self) -> bool {
        !self.own && !self.rejects_placement()
    }
}

pub use choices::{Answer, ChoiceAnswer};

/// A tile taken from the pool (W-2).
#[derive(Clone, Debug)]
pub struct TakeChoice {
    /// The seat taking.
    pub player: u8,
    /// Tile index.
    pub tile: u16,
    /// Tile id as written.
    pub tile_id: String,
    /// Position in the file.
    pub pos: Pos,
}

/// A decision about a freed figure (AM-11).
#[derive(Clone, Debug)]
pub struct MoveChoice {
    /// The owner who must decide, if the file says.
    pub player: Option<u8>,
    /// Target: a cell of the tile and a segment id on it; `None` = take the figure back.
    pub target: Option<((i32, i32), String)>,
    /// Position in the file.
    pub pos: Pos,
}

/// A follower placement, resolved.
#[derive(Clone, Debug)]
pub struct FollowerChoice {
    /// Index into the ruleset's follower types.
    pub follower: u8,
    /// Follower type id.
    pub follower_id: String,
    /// Tile-local feature index (into the tile type's `features`).
    pub feature: u8,
    /// Segment id as written.
    pub segment: String,
    /// A corner figure's named corner, a board point (AM-6); `None`: the field's first.
    pub corner: Option<[i32; 2]>,
}

/// An expected event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Every listed seat scores `points` for a feature of `kind`, under `rule`.
    Score {
        /// Feature kind.
        kind: FeatureKind,
        /// Seats.
        players: Vec<u8>,
        /// Points each.
        points: u32,
        /// Rule id.
        rule: String,
        /// Position in the file.
        pos: Pos,
    },
    /// `count` followers of type `follower` return to `player`'s supply.
    Return {
        /// Seat.
        player: u8,
        /// Follower type id.
        follower: String,
        /// The rule its events cite (the figure type's `return_rule` unless the file names one).
        rule: Option<String>,
        /// How many.
        count: u32,
        /// Position in the file.
        pos: Pos,
    },
    /// `player` gains (or, with `spent`, gives up) `amount` of the seat resource `resource`,
    /// under `rule`.
    Gain {
        /// Seat.
        player: u8,
        /// Resource id.
        resource: String,
        /// How much.
        amount: u32,
        /// Given up rather than gained.
        spent: bool,
        /// Rule id.
        rule: String,
        /// Position in the file.
        pos: Pos,
    },
    /// Every listed seat scores `points` for holding the most of `resource`, under `rule`.
    Award {
        /// Seats.
        players: Vec<u8>,
        /// Resource id.
        resource: String,
        /// Points each.
        points: u32,
        /// Rule id.
        rule: String,
        /// Position in the file.
        pos: Pos,
    },
    /// Every listed seat scores `points` under a rule of the one form with no feature as its
    /// subject (a `points` event).
    Points {
        /// Seats.
        players: Vec<u8>,
        /// Points each.
        points: u32,
        /// Rule id.
        rule: String,
        /// Position in the file.
        pos: Pos,
    },
    /// `player` takes the single-holder token `token` (KR-2).
    Token {
        /// Seat.
        player: u8,
        /// Token id.
        token: String,
        /// Rule id.
        rule: String,
        /// Position in the file.
        pos: Pos,
    },
    /// `added` counters of kind `counter` are put on the tile anchored at `at` (GM-2).
    Counters {
        /// Counter id.
        counter: String,
        /// The tile's anchor cell.
        at: [i32; 2],
        /// How many.
        added: u32,
        /// Rule id.
        rule: String,
        /// Position in the file.
        pos: Pos,
    },
    /// `player` collects `amount` counters of kind `counter` off a scored feature (GM-3).
    Collect {
        /// Seat.
        player: u8,
        /// Counter id.
        counter: String,
        /// How many.
        amount: u32,
        /// Rule id.
        rule: String,
        /// Position in the file.
        pos: Pos,
    },
    /// `player` takes `owner`'s figure of type `follower` off the board (TO-4).
    Capture {
        /// The taker.
        player: u8,
        /// The figure's owner.
        owner: u8,
        /// Follower type id.
        follower: String,
        /// Rule id.
        rule: String,
        /// Position in the file.
        pos: Pos,
    },
    /// `player`'s figure of type `follower` comes home by an exchange (TO-6).
    Exchange {
        /// Its owner.
        player: u8,
        /// Follower type id.
        follower: String,
        /// Rule id.
        rule: String,
        /// Position in the file.
        pos: Pos,
    },
    /// `player` buys back its figure of type `follower` for `points` (TO-7).
    Redeem {
        /// Its owner.
        player: u8,
        /// Follower type id.
        follower: String,
        /// Points paid.
        points: u32,
        /// Rule id.
        rule: String,
        /// Position in the file.
        pos: Pos,
    },
}

impl Expected {
    /// Where the event is written.
    pub fn pos(&self) -> Pos {
        match self {
            Expected::Score { pos, .. }
            | Expected::Return { pos, .. }
            | Expected::Gain { pos, .. }
            | Expected::Award { pos, .. }
            | Expected::Points { pos, .. }
            | Expected::Token { pos, .. }
            | Expected::Counters { pos, .. }
            | Expected::Collect { pos, .. }
            | Expected::Capture { pos, .. }
            | Expected::Exchange { pos, .. }
            | Expected::Redeem { pos, .. } => *pos,
        }
    }
}

/// An expected rejection.
#[derive(Clone, Debug)]
pub struct ExpectedError {
    /// Error kind (kebab-case), if given.
    pub kind: Option<String>,
    /// Substring of the message, if given.
    pub message: Option<String>,
    /// Position in the file.
    pub pos: Pos,
}

/// Final scoring expectations.
#[derive(Clone, Debug)]
pub struct End {
    /// Where `[end]` is.
    pub pos: Pos,
    /// Exactly these final-scoring events.
    pub expect: Vec<Expected>,
}

/// Builds each variant once, however many scenarios use it.
#[derive(Default)]
pub struct VariantCache {
    built: HashMap<PathBuf, (Option<Arc<Ruleset>>, Vec<Diagnostic>)>,
}

impl VariantCache {
    /// Use `ruleset` as the variant at `path` (a ruleset built without a file: tests, tools
    /// that compile elsewhere).
    pub fn insert(&mut self, path: &Path, ruleset: Arc<Ruleset>) {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.built.insert(key, (Some(ruleset), Vec::new()));
    }

    /// Build (or reuse) the ruleset of the variant at `path`.
    pub fn get(&mut self, path: &Path) -> (Option<Arc<Ruleset>>, Vec<Diagnostic>) {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.built
            .entry(key)
            .or_insert_with(|| {
                let (rs, diags) = tegula_model::variant::build_variant(path);
                (rs.map(Arc::new), diags)
            })
            .clone()
    }
}

/// Read the file at `path` (with the loader's size cap and UTF-8 check) and parse it into raw
/// types. `None` on any error.
pub fn parse_file(path: &Path) -> (Option<(Source, ScenarioFile)>, Vec<Diagnostic>) {
    match tegula_model::load::read_source(path) {
        Ok(source) => parse_text(path, source.text),
        Err(d) => (None, vec![d]),
    }
}

/// Parse scenario text (already read) into raw types.
pub fn parse_text(path: &Path, text: String) -> (Option<(Source, ScenarioFile)>, Vec<Diagnostic>) {
    let source = Source::new(path, text);
    let mut diags = Vec::new();
    if source.text.trim().is_empty() {
        diags.push(Diagnostic::file_level(
            Code::Empty,
            path,
            "scenario file is empty",
        ));
        return (None, diags);
    }
    if !source.text.starts_with("#:schema") {
        diags.push(
            source
                .diag(
                    Code::MissingSchemaLine,
                    0..0,
                    "the file does not start with a `#:schema` line",
                )
                .with_note("add `#:schema ../schema/scenario.schema.json` as the first line"),
        );
    }
    if let Err(e) = source.text.parse::<toml::Table>() {
        let span = e.span().unwrap_or(0..0);
        diags.push(source.diag(Code::Syntax, span, e.message().trim().to_string()));
        return (None, diags);
    }
    match toml::from_str::<ScenarioFile>(&source.text) {
        Ok(doc) => (Some((source, doc)), diags),
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            diags.push(source.diag(Code::Schema, span, e.message().trim().to_string()));
            (None, diags)
        }
    }
}

/// Load a scenario file and check it against its variant. `None` if any error was found.
pub fn load(path: &Path, cache: &mut VariantCache) -> (Option<Scenario>, Vec<Diagnostic>) {
    load_under_or_own(path, None, cache)
}

/// Load a scenario file to be played under `variant` instead of its own (the house-rule
/// check: a house rule's scenario must fail under the variant the house rule extends). The
/// scenario may still cite the rules its own variant declares (`[[rule]]`): under the other
/// variant an expectation citing one simply does not hold (the run fails), where a cited id
/// known to neither variant is still an error.
pub fn load_under(
    path: &Path,
    variant: &Path,
    cache: &mut VariantCache,
) -> (Option<Scenario>, Vec<Diagnostic>) {
    load_under_or_own(path, Some(variant), cache)
}

fn load_under_or_own(
    path: &Path,
    under: Option<&Path>,
    cache: &mut VariantCache,
) -> (Option<Scenario>, Vec<Diagnostic>) {
    let (parsed, mut diags) = parse_file(path);
    let Some((source, doc)) = parsed else {
        return (None, diags);
    };
    let (scenario, more) = resolve_under(source, doc, under, cache);
    diags.extend(more);
    (scenario, tegula_model::diag::cap_per_file(diags))
}

struct Ctx<'a> {
    source: &'a Source,
    diags: Vec<Diagnostic>,
    /// The rules the scenario may cite: the registry's and its variant's own (`[[rule]]`).
    rules: tegula_model::rules::Scope,
}

impl Ctx<'_> {
    fn err(&mut self, code: Code, span: &Range<usize>, msg: impl Into<String>) -> &mut Diagnostic {
        self.diags.push(self.source.diag(code, span.clone(), msg));
        self.diags.last_mut().expect("just pushed")
    }
    fn pos(&self, span: &Range<usize>) -> Pos {
        let (line, column) = self.source.line_col(span.start);
        Pos { line, column }
    }
}

impl Ctx<'_> {
    /// Whether `r` names a rule of the registry or of the variant's data; reports
    /// [`Code::UnknownRule`] otherwise.
    fn rule_ok(&mut self, r: &Sp<crate::raw::RuleId>) -> bool {
        match self.rules.check(self.source, &r.value, r.span.clone()) {
            None => true,
            Some(d) => {
                self.diags.push(d);
                false
            }
        }
    }
}

fn kind_of(k: RawFeatureKind) -> FeatureKind {
    match k {
        RawFeatureKind::City => FeatureKind::City,
        RawFeatureKind::Road => FeatureKind::Road,
        RawFeatureKind::Cloister => FeatureKind::Cloister,
        RawFeatureKind::Field => FeatureKind::Field,
        RawFeatureKind::Wonder => FeatureKind::Unscored,
    }
}

fn names(v: impl Iterator<Item = String>) -> String {
    let all: Vec<String> = v.collect();
    if all.len() > 30 {
        format!("{}, … ({} in all)", all[..30].join(", "), all.len())
    } else {
        all.join(", ")
    }
}

/// Index of the variant's follower type called `name`; an unknown name is a dangling reference
/// listing the known ones.
fn follower_type(cx: &mut Ctx<'_>, rs: &Ruleset, name: &Sp<String>) -> Option<usize> {
    let found = rs.followers.iter().position(|x| x.id == name.value);
    if found.is_none() {
        cx.err(
            Code::DanglingReference,
            &name.span,
            format!("unknown follower type `{}`", name.value),
        )
        .notes
        .push(format!(
            "variant `{}` has: {}",
            rs.id,
            names(rs.followers.iter().map(|x| x.id.clone()))
        ));
    }
    found
}

/// An `out-of-reach` error when the file `path` names (its `variant`, its board's `log`)
/// leads outside the scenario's data root — the nearest folder above it holding
/// `schema/variant.schema.json`, else its own folder — as a variant's `extends` may not; never
/// opened then, so nothing of it is read or quoted.
pub(crate) fn out_of_reach(source: &Source, path: &Sp<String>) -> Option<Diagnostic> {
    let root = tegula_model::reach::data_root(&source.path);
    let why = tegula_model::reach::outside(&root, &source.path, &path.value, "scenario")?;
    let mut d = source.diag(Code::OutOfReach, path.span.clone(), why);
    d.notes.push(format!(
        "a scenario reads only files inside its data root ({}): the nearest folder above it \
         holding `schema/variant.schema.json` (`tegula schema` writes it), else its own folder",
        root.display()
    ));
    Some(d)
}

/// Check a parsed scenario against its variant.
pub fn resolve(
    source: Source,
    doc: ScenarioFile,
    cache: &mut VariantCache,
) -> (Option<Scenario>, Vec<Diagnostic>) {
    resolve_under(source, doc, None, cache)
}

/// [`resolve`], played under the variant `under` when given ([`load_under`]).
fn resolve_under(
    source: Source,
    doc: ScenarioFile,
    under: Option<&Path>,
    cache: &mut VariantCache,
) -> (Option<Scenario>, Vec<Diagnostic>) {
    let base = source.path.parent().unwrap_or(Path::new(""));
    let own = base.join(&doc.variant.value);
    if let Some(d) = out_of_reach(&source, &doc.variant) {
        return (None, vec![d]);
    }
    let variant_path = under.map_or_else(|| own.clone(), Path::to_path_buf);
    let declared = declared_rules(cache, &variant_path, under.map(|_| own.as_path()));
    let mut cx = Ctx {
        source: &source,
        diags: Vec::new(),
        rules: tegula_model::rules::Scope::with(declared),
    };
    for r in &doc.rules {
        cx.rule_ok(r);
    }
    let Some(rs) = variant(&mut cx, &doc, &variant_path, cache) else {
        return (None, cx.diags);
    };
    let players = doc.players.value;
    check_players(&mut cx, &rs, &doc.players);
    // Copies used of each tile type (B-1), the start tile's first.
    let mut used: HashMap<u16, u32> = HashMap::new();
    let start = start_tile(&mut cx, &rs, &doc, &mut used);
    let pile = doc
        .pile
        .as_ref()
        .and_then(|p| pile::pile(&mut cx, &rs, p, &used));
    let steps: Vec<Step> = (doc.step.iter().enumerate())
        .filter_map(|(i, st)| step(&mut cx, &rs, i + 1, st, players))
        .collect();
    rejections_followed(&mut cx, &doc.step);
    copies(&mut cx, &rs, &doc.step, &steps, used);
    let end = doc.end.as_ref().map(|e| End {
        pos: cx.pos(&e.span),
        expect: events(&mut cx, &rs, &e.expect, players),
    });
    let final_scores = doc.expect.as_ref().map(|e| {
        let scores = seat_scores(&mut cx, &e.scores, players);
        (scores, cx.pos(&e.scores.span))
    });
    let pool = tile_list(&mut cx, &rs, &doc.pool);
    let board = (doc.setup.as_ref())
        .and_then(|s| s.board.as_ref().map(|b| (s, b)))
        .and_then(|(s, b)| board::board(&mut cx, &rs, &doc, s, b));
    let preset = setup::setup(&mut cx, &rs, &doc, players);
    let declined_at_end = declined_at_end(&mut cx, &doc, players);
    if cx.diags.iter().any(|d| d.is_error()) {
        return (None, cx.diags);
    }
    let scenario = Scenario {
        name: doc.name.clone(),
        rules: doc.rules.iter().map(|r| r.value.clone()).collect(),
        variant_path,
        ruleset: rs,
        players,
        start,
        steps,
        pile_ends: doc.pile_ends,
        pile,
        pool,
        pool_tiles_drawn: doc.pool_tiles_drawn,
        end,
        final_scores,
        preset,
        board,
        declined_at_end,
        source: source.clone(),
    };
    (Some(scenario), cx.diags)
}

/// The rules declared by the variant at `variant_path`, to check the cited ids against (before
/// the variant's own errors, if any, are reported); under another variant, those of the
/// scenario's own variant (`own`) too.
fn declared_rules(
    cache: &mut VariantCache,
    variant_path: &Path,
    own: Option<&Path>,
) -> Vec<tegula_ruleset::Rule> {
    let mut declared = cache.get(variant_path).0.map(|rs| rs.rules.clone());
    if let Some(own) = own {
        let mine = cache.get(own).0.map(|rs| rs.rules.clone());
        let all = declared.get_or_insert_with(Vec::new);
        for r in mine.unwrap_or_default() {
            if !all.iter().any(|a| a.id == r.id) {
                all.push(r);
            }
        }
    }
    declared.unwrap_or_default()
}

/// The scenario's `players` is a player count its variant allows.
fn check_players(cx: &mut Ctx, rs: &Ruleset, players: &Sp<u8>) {
    let n = players.value;
    if n == 0 || n < rs.min_players || n > rs.max_players {
        let why = format!(
            "{n} players, but variant `{}` allows {} to {}",
            rs.id, rs.min_players, rs.max_players
        );
        cx.err(Code::BadVariant, &players.span, why);
    }
}

/// The seats that decline the offers left at the end (`declined_at_end`), which needs
/// `pile_ends = true`.
fn declined_at_end(cx: &mut Ctx, doc: &ScenarioFile, players: u8) -> Option<(Vec<u8>, Pos)> {
    let declined = doc.declined_at_end.as_ref().map(|d| {
        let seats = d.iter().filter_map(|p| seat(cx, p, players)).collect();
        (seats, cx.pos(&d.span))
    });
    if let (Some(d), false) = (&doc.declined_at_end, doc.pile_ends) {
        let why =
            "`declined_at_end` needs `pile_ends = true` (only then does the game end by itself)";
        cx.err(Code::BadScenario, &d.span, why);
    }
    declined
}

/// The scenario's variant, built (through the cache); a located error with the variant's own
/// first errors as notes when it cannot be.
fn variant(
    cx: &mut Ctx,
    doc: &ScenarioFile,
    path: &Path,
    cache: &mut VariantCache,
) -> Option<Arc<Ruleset>> {
    let (ruleset, vdiags) = cache.get(path);
    if ruleset.is_some() {
        return ruleset;
    }
    let why = if path.is_file() {
        format!("variant `{}` could not be built", path.display())
    } else {
        format!(
            "no variant file `{}` (`variant` is relative to this scenario's folder)",
            path.display()
        )
    };
    let d = cx.err(Code::DanglingReference, &doc.variant.span, why);
    for v in vdiags.iter().filter(|d| d.is_error()).take(10) {
        let at = &v.at;
        // A problem of the whole file (it cannot be read) has no line: no `:0:0`.
        let note = if at.line == 0 {
            format!("{}: {}", at.file.display(), v.message)
        } else {
            format!(
                "{}:{}:{}: {}",
                at.file.display(),
                at.line,
                at.column,
                v.message
            )
        };
        d.notes.push(note);
    }
    if vdiags.is_empty() {
        d.notes
            .push("the variant compiler returned no ruleset (not implemented yet?)".into());
    }
    None
}

/// Index of the tile type called `id`.
fn tile_index(rs: &Ruleset, id: &str) -> Option<u16> {
    rs.tiles.iter().position(|t| t.id == id).map(|i| i as u16)
}

/// The start tile (`[start]`, or the variant's), counted as a used copy; `Some` with its
/// rotation only when the scenario names one.
fn start_tile(
    cx: &mut Ctx,
    rs: &Ruleset,
    doc: &ScenarioFile,
    used: &mut HashMap<u16, u32>,
) -> Option<(u16, u8)> {
    let Some(s) = &doc.start else {
        match rs.start_tile {
            Some(t) => *used.entry(t).or_default() += 1,
            None => {
                let why = format!(
                    "variant `{}` has no start tile; give `[start] tile = …`",
                    rs.id
                );
                cx.err(Code::BadVariant, &(0..0), why);
            }
        }
        return None;
    };
    let rot = check_rotation(cx, &s.rotation);
    let Some(t) = tile_index(rs, &s.tile) else {
        unknown_tile(cx, rs, &s.tile);
        return None;
    };
    *used.entry(t).or_default() += 1;
    Some((t, rot.unwrap_or(0)))
}

/// One step, checked; `None` when its tile or placement could not be resolved (the errors are
/// reported and the scenario is dropped).
fn step(cx: &mut Ctx, rs: &Ruleset, number: usize, st: &Sp<RawStep>, players: u8) -> Option<Step> {
    let pos = cx.pos(&st.span);
    let tile = tile_index(rs, &st.tile);
    if tile.is_none() {
        unknown_tile(cx, rs, &st.tile);
    }
    let rot = check_rotation(cx, &st.rotation);
    let at = st.at.as_ref().and_then(|at| coordinates(cx, at));
    let player = st.player.as_ref().and_then(|p| seat(cx, p, players));
    let declined =
        (st.declined.as_ref()).map(|d| d.iter().filter_map(|p| seat(cx, p, players)).collect());
    let why = "a discarded tile (no `at`) cannot take a follower";
    not_on_discard(cx, st, st.follower.is_some(), why);
    let follower = (st.follower.as_ref()).and_then(|f| follower_choice(cx, rs, tile, at, f));
    let follower2 = (st.follower2.as_ref()).and_then(|f| follower_choice(cx, rs, tile, at, f));
    let take = takes(cx, rs, &st.take, players);
    let choices = choices::choices(cx, rs, &st.choices, players);
    let uses_step = choices
        .iter()
        .find(|c| c.uses_figure_step && c.answer != Answer::Decline);
    if let (Some(c), Some(f)) = (uses_step, &st.follower) {
        let why = format!(
            "the step takes the choice `{}` instead of its figure: it cannot also place a follower",
            c.rule
        );
        cx.err(Code::BadScenario, &f.span, why);
    }
    let expect = match &st.expect {
        Some(ev) => events(cx, rs, ev, players),
        None => Vec::new(),
    };
    let moves = move_choices(cx, &st.moves, players);
    let why = "an own tile (`own = true`) is placed, never discarded: give `at`";
    not_on_discard(cx, st, st.own, why);
    let expect_error = st.expect_error.as_ref().map(|e| expected_error(cx, st, e));
    let why = "a discarded tile (no `at`) cannot `expect_error`";
    not_on_discard(cx, st, st.expect_error.is_some(), why);
    let scores = st.scores.as_ref().map(|s| seat_scores(cx, s, players));
    let holdings = step_holdings(cx, rs, st, players);
    let held = st.held.as_ref().map(|h| h.value.clone());
    if let Some(h) = &st.held {
        let bad = h.value.iter().find(|(a, b, f)| {
            *a >= players || *b >= players || !rs.followers.iter().any(|x| x.id == *f)
        });
        if let Some((a, b, f)) = bad {
            let why = format!("held figure [{a}, {b}, \"{f}\"]: a seat or figure the game lacks");
            cx.err(Code::BadScenario, &h.span, why);
        }
    }
    let corner_figures =
        (st.corner_figures.as_ref()).and_then(|c| corners::corner_figures(cx, c, st));
    // A placement (`at` and rotation resolved) or a discard (no `at`, B-2).
    let placement = match (at, rot) {
        (Some(xy), Some(r)) => Some((xy, r)),
        _ if st.at.is_none() => None,
        _ => return None,
    };
    let placed = placement.is_some();
    Some(Step {
        number,
        pos,
        tile: tile?,
        tile_id: st.tile.value.clone(),
        placement,
        player,
        own: st.own,
        declined,
        follower: follower.filter(|_| placed),
        follower2: follower2.filter(|_| placed),
        choices,
        take,
        moves,
        expect,
        expect_error: expect_error.filter(|_| placed),
        scores,
        holdings,
        held,
        corner_figures,
    })
}

/// A step's `holdings`: each resource known, one count a seat.
fn step_holdings(
    cx: &mut Ctx,
    rs: &Ruleset,
    st: &crate::raw::RawStep,
    players: u8,
) -> Vec<(String, Vec<u32>)> {
    let Some(h) = &st.holdings else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (id, counts) in &h.value {
        if !rs.resources.iter().any(|r| r.id == *id) {
            let why = format!("unknown resource `{id}` in `holdings`");
            cx.err(Code::DanglingReference, &h.span, why);
        } else if counts.len() != usize::from(players) {
            let why = format!("`holdings.{id}` must list {players} seats");
            cx.err(Code::BadScenario, &h.span, why);
        } else {
            out.push((id.clone(), counts.clone()));
        }
    }
    out
}

/// Largest absolute board coordinate a scenario may name (a step's `at`, a move's `to`).
pub(crate) const MAX_COORDINATE: i64 = 1000;

/// `v` as a board coordinate, if within ±[`MAX_COORDINATE`]. Compared as written (`i64`): no
/// absolute value, which `i32::MIN` and `i64::MIN` do not have.
fn coordinate(v: i64) -> Option<i32> {
    let range = -MAX_COORDINATE..=MAX_COORDINATE;
    range.contains(&v).then_some(v as i32)
}

/// The message for coordinates outside ±[`MAX_COORDINATE`].
fn out_of_range(what: impl std::fmt::Display) -> String {
    let m = MAX_COORDINATE;
    format!("{what} out of range (-{m}..={m})")
}

/// A step's `at`: two coordinates within ±[`MAX_COORDINATE`].
fn coordinates(cx: &mut Ctx, at: &Sp<Vec<Sp<i64>>>) -> Option<(i32, i32)> {
    if at.len() != 2 {
        cx.err(Code::BadScenario, &at.span, "`at` must be `[x, y]`");
        return None;
    }
    let mut xy = [0i32; 2];
    for (k, v) in at.iter().enumerate() {
        match coordinate(v.value) {
            Some(c) => xy[k] = c,
            None => {
                let why = out_of_range(format_args!("coordinate {} is", v.value));
                cx.err(Code::BadScenario, &v.span, why);
            }
        }
    }
    Some((xy[0], xy[1]))
}

/// A discarded tile (no `at`) cannot have `what` (`has`): an error at the step.
fn not_on_discard(cx: &mut Ctx, st: &Sp<RawStep>, has: bool, why: &str) {
    if has && st.at.is_none() {
        cx.err(Code::BadScenario, &st.span, why);
    }
}

/// A step's `expect_error`: a known error kind or a message, and no `expect` beside it.
fn expected_error(cx: &mut Ctx, st: &RawStep, e: &Sp<RawExpectError>) -> ExpectedError {
    if let Some(k) = &e.kind {
        if !crate::run::ERROR_KINDS.contains(&k.value.as_str()) {
            let why = format!("unknown error kind `{}`", k.value);
            cx.err(Code::DanglingReference, &k.span, why)
                .notes
                .push(format!("kinds: {}", crate::run::ERROR_KINDS.join(", ")));
        }
    }
    if e.kind.is_none() && e.message.is_none() {
        let why = "`expect_error` needs `kind` or `message`";
        cx.err(Code::BadExpectation, &e.span, why);
    }
    // A refused follower leaves the placement standing: that turn still scores, so its events
    // may be expected. A refused placement uses no turn and scores nothing.
    if st.expect.is_some() && st.follower.is_none() {
        let why = "a rejected placement cannot also `expect` events";
        cx.err(Code::BadExpectation, &e.span, why);
    }
    ExpectedError {
        kind: e.kind.as_ref().map(|k| k.value.clone()),
        message: e.message.as_ref().map(|k| k.value.clone()),
        pos: cx.pos(&e.span),
    }
}

/// A `scores` list: one score a seat.
fn seat_scores(cx: &mut Ctx, s: &Sp<Vec<Sp<i64>>>, players: u8) -> Vec<i64> {
    if s.len() != players as usize {
        let why = format!("`scores` must list {players} seats");
        cx.err(Code::BadExpectation, &s.span, why);
    }
    s.iter().map(|v| v.value).collect()
}

/// A rejected placement must be followed by a step placing the same (still drawn) tile.
fn rejections_followed(cx: &mut Ctx, steps: &[Sp<RawStep>]) {
    for (i, st) in steps.iter().enumerate() {
        let rejected = st.expect_error.is_some() && st.follower.is_none() && st.at.is_some();
        if !rejected {
            continue;
        }
        if steps
            .get(i + 1)
            .is_some_and(|next| next.tile.value == st.tile.value)
        {
            continue;
        }
        let why = format!(
            "step {} is a rejected placement: the next step must place the same tile `{}` (still \
             in hand)",
            i + 1,
            st.tile.value
        );
        cx.err(Code::BadScenario, &st.span, why);
    }
}

/// A scenario may not use more copies of a tile than the variant has (B-1).
fn copies(
    cx: &mut Ctx,
    rs: &Ruleset,
    raw: &[Sp<RawStep>],
    steps: &[Step],
    mut used: HashMap<u16, u32>,
) {
    for st in steps.iter().filter(|st| st.draws()) {
        *used.entry(st.tile).or_default() += 1;
    }
    let mut over: Vec<_> = used
        .iter()
        .filter_map(|(&t, &n)| {
            let have = pile::copies_of(rs, t);
            (n > have).then_some((t, n, have))
        })
        .collect();
    over.sort();
    for (t, n, have) in over {
        let tt = &rs.tiles[t as usize];
        let last = raw.iter().rev().find(|s| s.tile.value == tt.id);
        let span = last.map(|s| s.tile.span.clone()).unwrap_or(0..0);
        let why = format!(
            "tile `{}` is used {n} times (start tile included) but variant `{}` has {have}",
            tt.id, rs.id
        );
        cx.err(Code::BadCount, &span, why).rule = Some("B-1".into());
    }
}

/// Resolve a follower placement on `tile` placed at cell `at`: its type (default: the
/// variant's first), the feature holding the named segment and its named corner.
fn follower_choice(
    cx: &mut Ctx,
    rs: &Ruleset,
    tile: Option<u16>,
    at: Option<(i32, i32)>,
    f: &Sp<RawFollowerPlacement>,
) -> Option<FollowerChoice> {
    let corner = f.corner.as_ref().map(|c| corners::corner(cx, c, at));
    let ftype = match &f.kind {
        Some(k) => follower_type(cx, rs, k),
        None => (!rs.followers.is_empty()).then_some(0),
    };
    let feature = tile.and_then(|t| {
        let tt = &rs.tiles[t as usize];
        let found = tt
            .features
            .iter()
            .position(|ft| ft.segments.iter().any(|s| *s == f.on.value));
        if found.is_none() {
            cx.err(
                Code::DanglingReference,
                &f.on.span,
                format!("tile `{}` has no segment `{}`", tt.id, f.on.value),
            )
            .notes
            .push(format!(
                "segments of `{}`: {}",
                tt.id,
                names(
                    tt.features
                        .iter()
                        .flat_map(|ft| ft.segments.iter().cloned())
                )
            ));
        }
        found
    });
    let (ft, fe) = (ftype?, feature?);
    // A corner written but not resolved was reported: the choice is dropped with it.
    let corner = match corner {
        Some(None) => return None,
        c => c.flatten(),
    };
    Some(FollowerChoice {
        follower: ft as u8,
        follower_id: rs.followers[ft].id.clone(),
        feature: fe as u8,
        segment: f.on.value.clone(),
        corner,
    })
}

/// Tiles taken from the pool: seat and tile (W-2, W-3).
fn takes(cx: &mut Ctx, rs: &Ruleset, raw: &[Sp<RawTake>], players: u8) -> Vec<TakeChoice> {
    let mut out = Vec::new();
    for t in raw {
        let player = seat(cx, &t.player, players);
        let tile = rs.tiles.iter().position(|x| x.id == t.tile.value);
        if tile.is_none() {
            unknown_tile(cx, rs, &t.tile);
        }
        if let (Some(player), Some(tile)) = (player, tile) {
            out.push(TakeChoice {
                player,
                tile: tile as u16,
                tile_id: t.tile.value.clone(),
                pos: cx.pos(&t.span),
            });
        }
    }
    out
}

/// Tile ids resolved to indices (unknown ones reported).
fn tile_list(cx: &mut Ctx, rs: &Ruleset, ids: &[Sp<String>]) -> Vec<u16> {
    let mut out = Vec::new();
    for id in ids {
        match rs.tiles.iter().position(|t| t.id == id.value) {
            Some(i) => out.push(i as u16),
            None => unknown_tile(cx, rs, id),
        }
    }
    out
}

/// Decisions about freed figures: `to` + `on`, or `back = true` (AM-11).
fn move_choices(cx: &mut Ctx, raw: &[Sp<RawMove>], players: u8) -> Vec<MoveChoice> {
    let mut out = Vec::new();
    for m in raw {
        let player = m.player.as_ref().and_then(|p| seat(cx, p, players));
        let target = match (&m.to, &m.on, m.back) {
            (Some(to), Some(on), false) if to.len() == 2 => {
                match (coordinate(to[0].value), coordinate(to[1].value)) {
                    (Some(x), Some(y)) => Some(((x, y), on.value.clone())),
                    _ => {
                        cx.err(Code::BadScenario, &to.span, out_of_range("coordinates"));
                        None
                    }
                }
            }
            (None, None, true) => None,
            _ => {
                cx.err(
                    Code::BadScenario,
                    &m.span,
                    "a move needs `to = [x, y]` and `on = \"segment\"`, or `back = true` alone",
                );
                None
            }
        };
        out.push(MoveChoice {
            player,
            target,
            pos: cx.pos(&m.span),
        });
    }
    out
}

fn unknown_tile(cx: &mut Ctx, rs: &Ruleset, id: &Sp<String>) {
    cx.err(
        Code::DanglingReference,
        &id.span,
        format!("unknown tile id `{}` in variant `{}`", id.value, rs.id),
    )
    .notes
    .push(format!(
        "tiles: {}",
        names(rs.tiles.iter().map(|t| t.id.clone()))
    ));
}

fn check_rotation(cx: &mut Ctx, r: &Sp<RawRotation>) -> Option<u8> {
    let q = r.value.quarter_turns();
    if q.is_none() {
        let shown = match &r.value {
            RawRotation::Turns(t) => t.to_string(),
            RawRotation::Facing(s) => format!("\"{s}\""),
        };
        cx.err(
            Code::BadScenario,
            &r.span,
            format!("bad rotation {shown}: use 0, 1, 2, 3 (quarter turns clockwise) or \"N\", \"E\", \"S\", \"W\""),
        );
    }
    q
}

fn seat(cx: &mut Ctx, p: &Sp<i64>, players: u8) -> Option<u8> {
    if (0..i64::from(players)).contains(&p.value) {
        Some(p.value as u8)
    } else {
        cx.err(
            Code::BadScenario,
            &p.span,
            format!(
                "seat {} does not exist: seats are 0 to {}",
                p.value,
                players.saturating_sub(1)
            ),
        );
        None
    }
}

/// The `points` of an expected event (`what`: "a score event", …), 0 to 100000, required.
fn expected_points(cx: &mut Ctx, ev: &Sp<RawEvent>, what: &str) -> Option<u32> {
    match &ev.points {
        Some(p) if (0..=100_000).contains(&p.value) => Some(p.value as u32),
        Some(p) => {
            cx.err(Code::BadExpectation, &p.span, "points must be 0 to 100000");
            None
        }
        None => {
            let why = format!("{what} needs `points`");
            cx.err(Code::BadExpectation, &ev.span, why);
            None
        }
    }
}

fn events(cx: &mut Ctx, rs: &Ruleset, evs: &[Sp<RawEvent>], players: u8) -> Vec<Expected> {
    let mut out = Vec::new();
    for ev in evs {
        let pos = cx.pos(&ev.span);
        let seats = event_seats(cx, ev, players);
        if rule_events::is_rule_event(ev) {
            out.extend(rule_events::event(cx, rs, ev, seats, pos));
            continue;
        }
        if ev.gained.is_some() || ev.award.is_some() {
            out.extend(resources::event(cx, rs, ev, seats, pos));
            continue;
        }
        match (&ev.score, &ev.returned) {
            (Some(k), None) => out.extend(score_event(cx, ev, k, seats, pos)),
            (None, Some(f)) => out.extend(return_event(cx, rs, ev, f, seats, pos)),
            _ => {
                cx.err(Code::BadExpectation, &ev.span, "an event needs exactly one of `score = \"city\"|\"road\"|\"cloister\"|\"field\"`, `returned = \"<follower type>\"`, `gained = \"<resource>\"` and `award = \"<resource>\"`");
            }
        }
    }
    out
}

/// The seats an event names (`player` or `players`, each a seat of the game, none twice).
fn event_seats(cx: &mut Ctx, ev: &Sp<RawEvent>, players: u8) -> Vec<u8> {
    let mut seats = Vec::new();
    let named = (&ev.player, &ev.players);
    match named {
        _ if !rule_events::has_seats(ev) => {}
        (Some(p), None) => seats.extend(seat(cx, p, players)),
        (None, Some(ps)) => {
            for p in ps.iter() {
                seats.extend(seat(cx, p, players));
            }
            let mut sorted = seats.clone();
            sorted.sort();
            sorted.dedup();
            if sorted.len() != seats.len() {
                cx.err(Code::BadExpectation, &ps.span, "a seat is listed twice");
            }
        }
        (Some(p), Some(_)) => {
            cx.err(
                Code::BadExpectation,
                &p.span,
                "give `player` or `players`, not both",
            );
        }
        (None, None) => {
            cx.err(
                Code::BadExpectation,
                &ev.span,
                "an event needs `player` (or `players`)",
            );
        }
    }
    seats
}

/// A `score = KIND` event: its points and the rule it is awarded under.
fn score_event(
    cx: &mut Ctx,
    ev: &Sp<RawEvent>,
    k: &Sp<RawFeatureKind>,
    seats: Vec<u8>,
    pos: Pos,
) -> Option<Expected> {
    let points = expected_points(cx, ev, "a score event");
    let rule = match &ev.rule {
        Some(r) if cx.rule_ok(r) => Some(r.value.clone()),
        Some(_) => None,
        None => {
            cx.err(
                Code::BadExpectation,
                &ev.span,
                "a score event needs the `rule` it is awarded under (e.g. \"B-4\")",
            );
            None
        }
    };
    if let Some(c) = &ev.count {
        cx.err(
            Code::BadExpectation,
            &c.span,
            "`count` is for `returned` events",
        );
    }
    Some(Expected::Score {
        kind: kind_of(k.value),
        players: seats,
        points: points?,
        rule: rule?,
        pos,
    })
}

/// A `returned = FIGURE` event: one seat's figures going home, `count` of them.
fn return_event(
    cx: &mut Ctx,
    rs: &Ruleset,
    ev: &Sp<RawEvent>,
    f: &Sp<String>,
    seats: Vec<u8>,
    pos: Pos,
) -> Option<Expected> {
    let ftype = follower_type(cx, rs, f);
    let rule = match &ev.rule {
        Some(r) => cx.rule_ok(r).then(|| r.value.clone()),
        None => ftype.and_then(|i| rs.followers[i].return_rule.clone()),
    };
    if let Some(p) = &ev.points {
        cx.err(
            Code::BadExpectation,
            &p.span,
            "`points` is for `score` events",
        );
    }
    if let Some(p) = &ev.players {
        cx.err(
            Code::BadExpectation,
            &p.span,
            "a `returned` event takes one `player`",
        );
    }
    let count = match &ev.count {
        Some(c) if (1..=100).contains(&c.value) => c.value as u32,
        Some(c) => {
            cx.err(Code::BadExpectation, &c.span, "count must be 1 to 100");
            1
        }
        None => 1,
    };
    let &player = seats.first()?;
    Some(Expected::Return {
        player,
        follower: f.value.clone(),
        rule,
        count,
        pos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_and_unknown_keys_are_positioned() {
        let (r, d) = parse_text(Path::new("x.toml"), "#:schema s\nname = \n".into());
        assert!(r.is_none());
        assert_eq!(d[0].code, Code::Syntax);
        assert_eq!(d[0].at.line, 2);
        let (r, d) = parse_text(
            Path::new("x.toml"),
            "#:schema s\nname = 'n'\nvariant = 'v'\nplayers = 2\n[[step]]\ntile = 'E'\nwhere = [0, 1]\n".into(),
        );
        assert!(r.is_none());
        assert_eq!(d[0].code, Code::Schema);
        assert_eq!(d[0].at.line, 7, "{:?}", d[0]);
        assert!(d[0].message.contains("where"), "{}", d[0].message);
    }
}
