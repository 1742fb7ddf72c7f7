//! Variants: load a variant file and the tile sets it names, apply its overrides (W-21), check
//! its facts, and lower everything to a [`tegula_ruleset::Ruleset`].

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use tegula_ruleset::{FollowerType, PlayerTile, PoolRules, Readings, Resource, Ruleset, Scoring};

use crate::compile::{compile_tileset, CompiledSet, CompiledTile};
use crate::diag::{Code, Diagnostic, Source};
use crate::inherit::load_variant;
use crate::load::{parse_tileset, Loaded};
use crate::raw::{RawConnectionOverride, RawFollower, RawSetRef, Sp, VariantFile};
use crate::raw_when::RawRuleForm;

pub use crate::compiled_variant::CompiledVariant;

/// A tile-set file compiled: its source and set (`None` when the file cannot be used at all),
/// and every diagnostic found.
pub type CompiledFile = (Option<(Source, CompiledSet)>, Vec<Diagnostic>);

/// Read, parse and compile one tile-set file. `None` when the file cannot be used at all.
pub fn compile_tileset_file(path: &Path) -> CompiledFile {
    match crate::load::read_source(path) {
        Ok(source) => compile_tileset_source(source),
        Err(d) => (None, vec![d]),
    }
}

/// Parse and compile a tile-set file already read.
fn compile_tileset_source(source: Source) -> CompiledFile {
    let (loaded, mut diags) = parse_tileset(source);
    let Some(loaded) = loaded else {
        return (None, diags);
    };
    let (set, more) = compile_tileset(&loaded);
    diags.extend(more);
    (Some((loaded.source, set)), diags)
}

/// The tile sets compiled in one run, by file and text: variants that share a set (every
/// shipped variant reads `tiles/base.toml`) compile it once, and a set is compiled again only
/// when its text differs. The text is the key (not a hash of it), so a hit is always right.
#[derive(Default)]
pub struct SetCache {
    compiled: HashMap<(PathBuf, String), CompiledFile>,
}

impl SetCache {
    /// [`compile_tileset_file`], once per file and text.
    pub fn compile(&mut self, path: &Path) -> CompiledFile {
        let source = match crate::load::read_source(path) {
            Ok(source) => source,
            Err(d) => return (None, vec![d]),
        };
        let file = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let key = (file, source.text.clone());
        if let Some(hit) = self.compiled.get(&key) {
            return hit.clone();
        }
        let compiled = compile_tileset_source(source);
        self.compiled.insert(key, compiled.clone());
        compiled
    }
}

/// Whether the file at `path` is a variant (a top-level `sets` or `extends` key and no `[set]`
/// table) rather
/// than a tile set. Unreadable or unparsable files count as tile sets (the loader says why).
pub fn is_variant_file(path: &Path) -> bool {
    crate::load::read_source(path)
        .ok()
        .and_then(|s| s.text.parse::<toml::Table>().ok())
        .is_some_and(|t| {
            (t.contains_key("sets") || t.contains_key(crate::inherit::EXTENDS))
                && !t.contains_key("set")
        })
}

/// The `*.toml` files of a folder (not recursive), sorted by name.
#[derive(Debug, Default)]
pub struct TomlFiles {
    /// The regular files.
    pub files: Vec<PathBuf>,
    /// `*.toml` entries that are no regular file (a FIFO, a device, a folder, an entry that
    /// could not be read): skipped, and said so by the caller.
    pub skipped: Vec<PathBuf>,
}

/// The `*.toml` files of a folder, sorted by name (not recursive), and the entries skipped.
pub fn toml_files(dir: &Path) -> std::io::Result<TomlFiles> {
    let mut out = TomlFiles::default();
    for entry in std::fs::read_dir(dir)? {
        let Ok(entry) = entry else {
            out.skipped.push(dir.to_path_buf());
            continue;
        };
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "toml") {
            match path.is_file() {
                true => out.files.push(path),
                false => out.skipped.push(path),
            }
        }
    }
    out.files.sort();
    out.skipped.sort();
    Ok(out)
}

/// A warning for each entry of a `sets` folder that was skipped (nothing is skipped silently).
fn skipped_warnings(
    skipped: &[PathBuf],
    src: &Source,
    span: std::ops::Range<usize>,
    diags: &mut Vec<Diagnostic>,
) {
    for path in skipped {
        let d = src.diag(
            Code::Io,
            span.clone(),
            format!("`{}` is not a regular file: skipped", path.display()),
        );
        diags.push(Diagnostic {
            severity: crate::diag::Severity::Warning,
            ..d
        });
    }
}

/// The follower types, checked ([`crate::figures`]); ids given twice are reported and skipped.
fn followers(
    raw: &[Sp<RawFollower>],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<FollowerType> {
    let mut out: Vec<FollowerType> = Vec::new();
    for (n, f) in raw.iter().enumerate() {
        let f = &f.value;
        if raw[..n].iter().any(|o| o.value.id.value == f.id.value) {
            diags.push(src.diag(
                Code::BadVariant,
                f.id.span.clone(),
                format!("follower id `{}` is given twice", f.id.value),
            ));
            continue;
        }
        let (ft, more) = crate::figures::lower_follower(f, src);
        diags.extend(more);
        out.extend(ft);
    }
    out
}

/// Load a variant and compile its tiles: sets (files or folders, relative to the variant file),
/// `copies`, `only`, W-21 connection overrides, player range, followers, unique tile ids, one
/// start tile at most, and the variant's facts. `None` when the variant file itself cannot be
/// read; otherwise the (possibly partial) result with every diagnostic found.
pub fn compile_variant(path: &Path) -> (Option<CompiledVariant>, Vec<Diagnostic>) {
    compile_variant_with(path, &mut SetCache::default())
}

/// [`compile_variant`], compiling its tile sets through `cache` (shared by the variants of one
/// run).
pub fn compile_variant_with(
    path: &Path,
    cache: &mut SetCache,
) -> (Option<CompiledVariant>, Vec<Diagnostic>) {
    let (loaded, mut diags) = load_variant(path);
    let Some(Loaded { source: vsrc, doc }) = loaded else {
        return (None, diags);
    };
    check_players(&doc, &vsrc, &mut diags);
    let mut followers = followers(&doc.followers, &vsrc, &mut diags);
    crate::params::follower_counts(&doc.follower_count, &mut followers, &vsrc, &mut diags);
    let sets = variant_sets(&doc, &vsrc, cache, &mut diags);
    let set_ok = sets.ok;
    let Sets {
        tiles,
        tile_source,
        sources,
        facts,
        rules,
        edges: edge_kinds,
        rule_form: set_rule_form,
        ..
    } = sets;
    let files = SourceOf {
        variant: &vsrc,
        sets: &sources,
        tile_source: &tile_source,
        rule_form: &set_rule_form,
    };
    let mut c = check_parts(&doc, &files, (tiles, followers), &rules, set_ok, &mut diags);
    let (resources, rule_form) = lower_rules(&doc, &files, &mut c, &rules, &mut diags);
    let players = &doc.players.value;
    let v = CompiledVariant {
        id: doc.id.value.clone(),
        name: doc.name.clone(),
        min_players: players.min,
        max_players: players.max,
        followers: c.followers,
        scoring: c.scoring,
        hand: doc.hand.as_ref().map_or(1, |h| h.value),
        readings: c.readings,
        tiles: c.tiles,
        player_tiles: c.player_tiles,
        pool: c.pool,
        tile_source,
        sources,
        facts,
        rules: rules.declared().to_vec(),
        resources,
        edge_kinds,
        pile_groups: c.pile_groups,
        seats_rule: players.above.as_ref().map(|a| tegula_ruleset::SeatsRule {
            above: a.value.count.value,
            rule: a.value.rule.value.clone(),
        }),
        citations: crate::citations::lower(doc.citations.as_ref()),
        when: rule_form.when,
        tokens: rule_form.tokens,
        counters: rule_form.counters,
        tracks: rule_form.tracks,
        neutrals: rule_form.neutrals,
        when_at: rule_form.when_at,
        stacks: rule_form.stacks,
    };
    crate::limits::check_playable(&v, &doc, set_ok, &vsrc, &mut diags);
    sort_diags(&mut diags);
    (Some(v), diags)
}

/// What the checks of the variant's parts make of them (see [`check_parts`]).
struct Checked {
    tiles: Vec<CompiledTile>,
    followers: Vec<FollowerType>,
    tags: Vec<String>,
    player_tiles: Vec<PlayerTile>,
    pool: Option<PoolRules>,
    thresholds: Option<crate::pool::Thresholds>,
    /// Each figure's `payment` (a short form, lowered with the others).
    payments: Vec<Option<crate::short_forms::PaymentModifier>>,
    pile_groups: Vec<tegula_ruleset::PileGroup>,
    readings: Readings,
    scoring: Scoring,
}

/// The variant's parts checked and lowered, in the order they depend on each other: the pile's
/// groups, players' tiles, abilities (the variant's overrides first), the figures' values and
/// site tags, the pool, the readings and the scoring.
fn check_parts(
    doc: &VariantFile,
    files: &SourceOf,
    (mut tiles, mut followers): (Vec<CompiledTile>, Vec<FollowerType>),
    rules: &crate::rules::Scope,
    set_ok: bool,
    diags: &mut Vec<Diagnostic>,
) -> Checked {
    let vsrc = files.variant;
    let pile_groups = crate::pile::groups(&doc.pile, &tiles, set_ok, rules, vsrc, diags);
    let players = &doc.players.value;
    let (player_tiles, more) =
        crate::player_tiles::player_tiles(&doc.player_tiles, &tiles, players.max, set_ok, vsrc);
    diags.extend(more);
    // Abilities: the variant's entries replace the named tiles' own, then the checks that need
    // the whole variant (tags, player range).
    crate::abilities::apply_overrides(&doc.ability, &mut tiles, set_ok, vsrc, diags);
    let tags = crate::lower::tag_names(&tiles);
    let payments =
        crate::figure_values::lower_values(&doc.followers, &mut followers, &tags, vsrc, diags);
    crate::site_tags::lower(&doc.followers, &mut followers, &tags, vsrc, diags);
    let parts = Parts {
        tiles: &tiles,
        followers: &followers,
        tags: &tags,
        set_ok,
    };
    check_abilities(doc, &parts, files, diags);
    let (pool, thresholds) = lower_pool(doc, &parts, &player_tiles, vsrc, diags).unzip();
    let pooled = pool.as_ref().map_or(&[][..], |p| &p.tiles[..]);
    crate::pile::check_drawable(&doc.pile, &tiles, &player_tiles, pooled, vsrc, diags);
    let readings = readings(doc, &parts, &player_tiles, pool.is_some(), vsrc, diags);
    let scoring = crate::values::scoring(
        doc.scoring.as_ref(),
        doc.values.as_ref(),
        &tags,
        rules,
        vsrc,
        diags,
    );
    Checked {
        tiles,
        followers,
        tags,
        player_tiles,
        pool,
        thresholds,
        payments,
        pile_groups,
        readings,
        scoring,
    }
}

/// The variant's tile sets read (through `cache`) and made the variant's: ids and the start
/// tile checked, `tile_count`, `start` and the W-21 connection overrides applied, the facts
/// checked.
fn variant_sets(
    doc: &VariantFile,
    vsrc: &Source,
    cache: &mut SetCache,
    diags: &mut Vec<Diagnostic>,
) -> Sets {
    let mut sets = Sets::new();
    for sref in &doc.sets {
        sets.add(sref, vsrc, cache, diags);
    }
    sets.check_ids_and_start(diags);
    let set_ok = sets.ok;
    // The tile distribution, before the facts count it.
    crate::params::tile_counts(&doc.tile_count, &mut sets.tiles, set_ok, vsrc, diags);
    let start = doc.start.as_ref();
    crate::pile::start_override(start, &mut sets.tiles, set_ok, vsrc, diags);
    crate::pile::check_edge_count(&sets.edges, vsrc, diags);
    // W-21 overrides, before anything looks at the features.
    apply_connections(&doc.connections, &mut sets.tiles, vsrc, diags);
    check_variant_facts(doc, &mut sets, vsrc, diags);
    sets
}

/// The files a variant is read from: the variant file, its sets' files, each tile's set file
/// (an index into `sets`) and the sets' rule-form tables (each with its set file's index).
struct SourceOf<'a> {
    variant: &'a Source,
    sets: &'a [Source],
    tile_source: &'a [usize],
    rule_form: &'a [(usize, RawRuleForm)],
}

impl SourceOf<'_> {
    /// The file of tile `i`'s ability `def`.
    fn of(&self, i: usize, def: &crate::abilities::AbilityDef) -> &Source {
        if def.in_variant {
            self.variant
        } else {
            &self.sets[self.tile_source[i]]
        }
    }
}

/// What the variant checks read of the compiled variant so far.
struct Parts<'a> {
    tiles: &'a [CompiledTile],
    followers: &'a [FollowerType],
    tags: &'a [String],
    /// Every set was read and compiled cleanly.
    set_ok: bool,
}

/// The abilities checked against the whole variant (tags, resources, player range, owners),
/// then the features that can never score.
fn check_abilities(doc: &VariantFile, v: &Parts, files: &SourceOf, diags: &mut Vec<Diagnostic>) {
    let source_of = |i: usize, def: &crate::abilities::AbilityDef| files.of(i, def);
    let players = &doc.players.value;
    let resource_ids: Vec<&str> = doc
        .resource
        .iter()
        .map(|r| r.value.id.value.as_str())
        .collect();
    let scope = crate::abilities::VariantScope {
        tags: v.tags,
        resources: &resource_ids,
        min_players: players.min,
    };
    crate::abilities::check_in_variant(v.tiles, &scope, source_of, diags);
    crate::abilities::check_owned(v.tiles, source_of, diags);
    // With a set missing, its tiles' kinds are unknown: "no tile has a cloister" could be false.
    if v.set_ok {
        let reach = crate::never_scores::Facts::of(v.tiles, v.followers, players.max);
        crate::never_scores::check(v.tiles, &reach, v.tags, source_of, diags);
    }
}

/// The variant's resources and its rules of the one form, in their order: the short forms
/// lowered first (resources' and figures', the corner figures', then the tiles' abilities),
/// then the `[[when]]`
/// tables of the sets and of the variant (docs/design/rule-form.md). Lowering a short form
/// takes it out of the resources and figures.
fn lower_rules(
    doc: &VariantFile,
    files: &SourceOf,
    c: &mut Checked,
    rules: &crate::rules::Scope,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Resource>, crate::rule_form::Lowered) {
    let vsrc = files.variant;
    let (tags, followers, readings) = (&c.tags[..], &c.followers, &c.readings);
    let players = &doc.players.value;
    let seats = (players.min, players.max);
    let (resources, forms) = crate::resources::lower(&doc.resource, tags, seats, vsrc, diags);
    let names = (tags, &resources[..], &followers[..], &c.tiles[..]);
    // The pool's thresholds (W-2, W-3, W-30): a shared track (the first, which `[[when]]`
    // rules may read too) and a `turn-finished` rule.
    let pool = c.pool.as_ref();
    let take = pool.map_or("", |p| p.rules.take.as_str());
    let pool_rule = (c.thresholds.as_ref()).map(|th| {
        let (track, rule) = crate::rule_form::pool_rule(th, readings, take, 0);
        let (file, local) = vsrc.origin(th.span.start);
        let at = (crate::reach::normalize(&file.path), file.line_col(local).0);
        (track, rule, at)
    });
    let before: Vec<_> = pool_rule.iter().map(|p| p.0.clone()).collect();
    let form_scope = (&before[..], pool.is_some());
    let mut rule_form = when_tables(doc, files, names, form_scope, rules, diags);
    // The short forms become rules of the one form, before the `[[when]]` tables
    // (docs/design/rule-form.md): resources' and figures' first, then the corner figures'.
    let raw = (&doc.resource[..], &doc.followers[..]);
    let short =
        crate::rule_form::short::lower((&resources, &forms), (followers, &c.payments), raw, vsrc);
    let (mut when, mut when_at): (Vec<_>, Vec<_>) = short.into_iter().unzip();
    when.extend(crate::rule_form::corner_rules(followers, readings));
    when_at.extend(crate::rule_form::corner_origins(
        followers,
        &doc.followers,
        vsrc,
    ));
    // The tiles' abilities, each a rule its tile carries (run by owned tile, before the
    // event's other rules: their place in the list orders only a tile's own).
    let resource_ids: Vec<String> = resources.iter().map(|r| r.id.clone()).collect();
    let source_of = |i: usize, def: &crate::abilities::AbilityDef| files.of(i, def);
    let carried =
        crate::rule_form::lower_ability::ability_rules(&c.tiles, (tags, &resource_ids), source_of);
    for (w, at) in carried {
        when.push(w);
        when_at.push(at);
    }
    if let Some((_, rule, at)) = pool_rule {
        when.push(rule);
        when_at.push(at);
    }
    when.append(&mut rule_form.when);
    when_at.append(&mut rule_form.when_at);
    rule_form.when = when;
    rule_form.when_at = when_at;
    let raw_readings = doc.readings.as_ref();
    let rules = (&rule_form.when[..], &followers[..]);
    crate::readings::check_walk_readings(raw_readings, rules, vsrc, diags);
    (resources, rule_form)
}

/// The `[[token]]`, `[[counter]]` and `[[when]]` tables of the sets (in the variant's set
/// order) and of the variant,
/// lowered against the variant's (tags, resources, followers, tiles) and rules.
fn when_tables(
    doc: &VariantFile,
    files: &SourceOf,
    (tags, resources, followers, tiles): (&[String], &[Resource], &[FollowerType], &[CompiledTile]),
    (tracks, pool): (&[tegula_ruleset::TrackType], bool),
    rules: &crate::rules::Scope,
    diags: &mut Vec<Diagnostic>,
) -> crate::rule_form::Lowered {
    let own = RawRuleForm {
        token: doc.token.clone(),
        counter: doc.counter.clone(),
        track: doc.track.clone(),
        neutral: doc.neutral.clone(),
        groups: doc
            .groups
            .iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        when: doc.when.clone(),
    };
    let forms: Vec<(&Source, &RawRuleForm)> = (files.rule_form.iter())
        .map(|(si, f)| (&files.sets[*si], f))
        .chain(std::iter::once((files.variant, &own)))
        .collect();
    let resource_ids: Vec<String> = resources.iter().map(|r| r.id.clone()).collect();
    let follower_ids: Vec<String> = followers.iter().map(|f| f.id.clone()).collect();
    let tile_ids: Vec<String> = tiles.iter().map(|t| t.id.clone()).collect();
    let mut scope = crate::rule_form::Scope {
        tags,
        resources: &resource_ids,
        followers: &follower_ids,
        tiles: &tile_ids,
        stacks: &[],
        rules,
        tracks,
        pool,
    };
    let groups = doc.groups.as_ref();
    let stacks = crate::rule_form::lower_stacks(&doc.stack, (&scope, groups), files.variant, diags);
    let stack_ids: Vec<String> = stacks.iter().map(|s| s.id.clone()).collect();
    scope.stacks = &stack_ids;
    let mut lowered = crate::rule_form::lower(&forms, &scope, diags);
    lowered.stacks = stacks;
    lowered
}

/// The open pool (`[pool]`), checked against the variant's tiles, figures and players' tiles.
fn lower_pool(
    doc: &VariantFile,
    v: &Parts,
    player_tiles: &[PlayerTile],
    vsrc: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<(PoolRules, crate::pool::Thresholds)> {
    let p = doc.pool.as_ref()?;
    let cx = crate::pool::PoolContext {
        tiles: v.tiles,
        followers: v.followers,
        player_tiles,
        max_players: doc.players.value.max,
        sets_ok: v.set_ok,
    };
    let (rules, more) = crate::pool::pool(&p.value, &cx, vsrc);
    diags.extend(more);
    rules
}

/// The rulebook's *Readings* the variant chooses, checked against the mechanisms it has.
fn readings(
    doc: &VariantFile,
    v: &Parts,
    player_tiles: &[PlayerTile],
    pool: bool,
    vsrc: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Readings {
    let hand = doc.hand.as_ref().map_or(1, |h| h.value);
    let mechanisms = crate::readings::Mechanisms {
        player_tiles,
        near_building: crate::readings::has_near_building(v.tiles),
        pool,
        room_ahead: crate::readings::has_room_ahead(v.tiles),
        hands: crate::readings::has_hands(hand, v.tiles),
        corner_join: crate::readings::has_corner_join(v.followers),
        needs_own_on_lines: crate::readings::has_needs_own_on_lines(v.followers),
    };
    crate::readings::lower(doc.readings.as_ref(), &mechanisms, vsrc, diags)
}

/// The player range must be one (1 <= min <= max).
fn check_players(doc: &VariantFile, vsrc: &Source, diags: &mut Vec<Diagnostic>) {
    let players = &doc.players.value;
    if players.min < 1 || players.min > players.max {
        diags.push(vsrc.diag(
            Code::BadVariant,
            doc.players.span.clone(),
            format!(
                "players: min {} and max {} do not make a range (1 <= min <= max)",
                players.min, players.max
            ),
        ));
    }
    // A game never seats more than `max`: a count at or above it would cite its rule in no game.
    if let Some(a) = players
        .above
        .as_ref()
        .filter(|a| a.value.count.value >= players.max)
    {
        diags.push(vsrc.diag(
            Code::BadVariant,
            a.value.count.span.clone(),
            format!(
                "players.above.count {} is not below max {}: no game would cite `{}`",
                a.value.count.value, players.max, a.value.rule.value
            ),
        ));
    }
}

/// The tile sets a variant names, compiled: its tiles in variant order with the file each came
/// from, and the sets' facts.
struct Sets {
    tiles: Vec<CompiledTile>,
    /// Index into `sources` of each tile's file.
    tile_source: Vec<usize>,
    sources: Vec<Source>,
    facts: Vec<crate::facts::FactOutcome>,
    /// The rules the sets declare (`[[rule]]`); the variant's own are added to it.
    rules: crate::rules::Scope,
    /// Whether every set was found and compiled without errors (else the checks that need the
    /// whole variant are skipped: they would report consequences, not causes).
    ok: bool,
    /// The edge kinds the sets declare, numbered for the variant.
    edges: Vec<tegula_ruleset::EdgeKind>,
    /// Each file's rule-form tables with the index into `sources` of the file.
    rule_form: Vec<(usize, RawRuleForm)>,
}

/// What a set's path names.
enum SetFiles {
    /// These tile-set files.
    Files(Vec<PathBuf>),
    /// Nothing usable, already reported (an empty or unreadable folder).
    Skip,
    /// No such file or folder (reported): the variant's sets are incomplete.
    Missing,
}

impl Sets {
    /// No sets yet (all well so far).
    fn new() -> Sets {
        Sets {
            tiles: Vec::new(),
            tile_source: Vec::new(),
            sources: Vec::new(),
            facts: Vec::new(),
            rules: crate::rules::Scope::default(),
            ok: true,
            edges: Vec::new(),
            rule_form: Vec::new(),
        }
    }

    /// Compile one `[[sets]]` entry: its files, `copies` and `only`.
    fn add(
        &mut self,
        sref: &Sp<RawSetRef>,
        vsrc: &Source,
        cache: &mut SetCache,
        diags: &mut Vec<Diagnostic>,
    ) {
        let sref = &sref.value;
        let files = match set_files(sref, vsrc, diags) {
            SetFiles::Files(files) => files,
            SetFiles::Skip => return,
            SetFiles::Missing => {
                self.ok = false;
                return;
            }
        };
        let mut seen_ids: HashSet<String> = HashSet::new();
        let mut this_ok = true;
        for file in files {
            let (compiled, more) = cache.compile(&file);
            this_ok &= !more.iter().any(Diagnostic::is_error);
            diags.extend(more);
            let Some((src, set)) = compiled else {
                this_ok = false;
                continue;
            };
            // Each file's rules were checked when it compiled; a clash between two files is
            // reported in the later one.
            self.rules.merge(set.rules, &src, diags);
            let si = self.sources.len();
            self.sources.push(src);
            self.facts.extend(set.facts);
            if !set.rule_form.is_empty() {
                self.rule_form.push((si, set.rule_form));
            }
            let mut set_tiles = set.tiles;
            crate::pile::renumber_edges(&set.edges, &mut self.edges, &mut set_tiles);
            for mut t in set_tiles {
                seen_ids.insert(t.id.clone());
                if sref
                    .only
                    .as_ref()
                    .is_some_and(|only| !only.iter().any(|o| o.value == t.id))
                {
                    continue;
                }
                t.count = t.count.saturating_mul(sref.copies.value.max(1));
                self.tiles.push(t);
                self.tile_source.push(si);
            }
        }
        if !this_ok {
            self.ok = false;
            return;
        }
        for o in sref.only.iter().flatten() {
            if !seen_ids.contains(&o.value) {
                diags.push(vsrc.diag(
                    Code::DanglingReference,
                    o.span.clone(),
                    format!("no tile `{}` in {}", o.value, sref.path.value),
                ));
            }
        }
    }

    /// Tile ids unique across the variant; one start tile at most (B-1). Problems inside one
    /// file were already reported when compiling it.
    fn check_ids_and_start(&self, diags: &mut Vec<Diagnostic>) {
        let mut first_of: HashMap<&str, usize> = HashMap::new();
        let mut start: Option<usize> = None;
        for (i, t) in self.tiles.iter().enumerate() {
            let src = &self.sources[self.tile_source[i]];
            let other_file = |j: usize| self.tile_source[j] != self.tile_source[i];
            match first_of.get(t.id.as_str()) {
                Some(&j) if other_file(j) => diags.push(src.diag(
                    Code::DuplicateId,
                    t.span.clone(),
                    format!(
                        "tile id `{}` is also used in {} (ids are unique across a variant)",
                        t.id,
                        self.sources[self.tile_source[j]].path.display()
                    ),
                )),
                Some(_) => {}
                None => {
                    first_of.insert(&t.id, i);
                }
            }
            if !t.start {
                continue;
            }
            match start {
                Some(j) if other_file(j) => diags.push(
                    src.diag(
                        Code::BadCount,
                        t.span.clone(),
                        format!(
                            "a second start tile in this variant: `{}` is already the start tile",
                            self.tiles[j].id
                        ),
                    )
                    .with_rule("B-1"),
                ),
                Some(_) => {}
                None => start = Some(i),
            }
        }
    }
}

/// The tile-set files a `[[sets]]` entry names (relative to the file of the chain that wrote
/// the path): one file, or the `.toml` files of a folder.
fn set_files(sref: &RawSetRef, vsrc: &Source, diags: &mut Vec<Diagnostic>) -> SetFiles {
    let span = sref.path.span.clone();
    let from = &vsrc.origin(span.start).0.path;
    let root = crate::reach::data_root(&vsrc.path);
    if let Some(why) = crate::reach::refusal(&root, from, &sref.path.value, false) {
        diags.push(
            vsrc.diag(Code::OutOfReach, span, why)
                .with_note(crate::reach::note(&root)),
        );
        return SetFiles::Missing;
    }
    let p = from
        .parent()
        .unwrap_or(Path::new("."))
        .join(&sref.path.value);
    if p.is_file() {
        return SetFiles::Files(vec![p]);
    }
    if !p.is_dir() {
        let why = format!("no tile-set file or folder {}", p.display());
        diags.push(vsrc.diag(Code::DanglingReference, span, why));
        return SetFiles::Missing;
    }
    match toml_files(&p) {
        Ok(found) => {
            skipped_warnings(&found.skipped, vsrc, span.clone(), diags);
            if found.files.is_empty() {
                let why = format!("folder {} holds no .toml file", p.display());
                diags.push(vsrc.diag(Code::BadVariant, span, why));
                return SetFiles::Skip;
            }
            SetFiles::Files(found.files)
        }
        Err(e) => {
            let why = format!("cannot read folder {}: {e}", p.display());
            diags.push(vsrc.diag(Code::Io, span, why));
            SetFiles::Skip
        }
    }
}

/// The W-21 connection overrides: each names a tile of the variant and one of its connections.
fn apply_connections(
    overrides: &[Sp<RawConnectionOverride>],
    tiles: &mut [CompiledTile],
    vsrc: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    for o in overrides {
        let o = &o.value;
        let rule = o.rule.as_ref().map_or("W-21", |r| r.value.as_str());
        let tile = tiles.iter_mut().find(|t| t.id == o.tile.value);
        let (span, why) = match tile.map(|t| t.set_joined(&o.connection.value, o.joined.value)) {
            None => (
                o.tile.span.clone(),
                format!("no tile `{}` in this variant", o.tile.value),
            ),
            Some(false) => (
                o.connection.span.clone(),
                format!(
                    "tile `{}` has no connection `{}`",
                    o.tile.value, o.connection.value
                ),
            ),
            Some(true) => continue,
        };
        diags.push(
            vsrc.diag(Code::DanglingReference, span, why)
                .with_rule(rule),
        );
    }
}

/// The rule ids the variant cites, and its facts about its tiles (skipped over tiles that
/// failed to compile, and all of them when a set could not be read or compiled cleanly).
fn check_variant_facts(
    doc: &VariantFile,
    sets: &mut Sets,
    vsrc: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let mut broken: HashSet<String> = sets
        .tiles
        .iter()
        .filter(|t| !t.valid)
        .map(|t| t.id.clone())
        .collect();
    if !sets.ok {
        // The variant's file-level facts cannot be trusted (any non-empty `broken` skips them;
        // "" is no valid tile id).
        broken.insert(String::new());
    }
    let cited = doc
        .fact
        .iter()
        .map(|f| &f.value.rule)
        .chain(doc.ability.iter().map(|a| &a.value.rule))
        .chain(doc.connections.iter().filter_map(|c| c.value.rule.as_ref()))
        .chain(doc.followers.iter().flat_map(|f| figure_rules(&f.value)))
        .chain(crate::resources::cited(&doc.resource))
        .chain(doc.players.value.above.as_ref().map(|a| &a.value.rule))
        .chain(crate::citations::cited(doc))
        .chain(doc.when.iter().map(|w| &w.value.rule));
    sets.rules.declare(&doc.rule, vsrc, diags);
    diags.extend(cited.filter_map(|r| sets.rules.check(vsrc, &r.value, r.span.clone())));
    let (fact_diags, own_facts) = crate::facts::check_facts(&doc.fact, &sets.tiles, &broken, vsrc);
    diags.extend(fact_diags);
    sets.facts.extend(own_facts);
}

/// The rule ids a figure's payment modifier and turn effect cite.
fn figure_rules(f: &RawFollower) -> impl Iterator<Item = &Sp<String>> {
    let payment = f.payment.as_ref().map(|p| &p.value.rule);
    payment
        .into_iter()
        .chain(f.when_extended.as_ref().map(|t| &t.value.rule))
        .chain(&f.place_rule)
        .chain(&f.return_rule)
}

/// Keep diagnostics in a stable order: by file, then position, then code.
fn sort_diags(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (&a.at.file, a.at.line, a.at.column, a.code).cmp(&(
            &b.at.file,
            b.at.line,
            b.at.column,
            b.code,
        ))
    });
}

/// Lower a compiled variant to a ruleset. Problems (limits of the flat tables) are returned as
/// diagnostics positioned in the tile files.
pub fn lower_variant(v: &CompiledVariant) -> (Option<Ruleset>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let tags = crate::lower::tag_names(&v.tiles);
    let where_ =
        |i: usize| -> Option<&Source> { v.tile_source.get(i).and_then(|&s| v.sources.get(s)) };
    if tags.len() > 32 {
        let msg = format!(
            "the variant's tiles use {} different tags; the engine takes at most 32",
            tags.len()
        );
        diags.push(match where_(0) {
            Some(src) => src.diag(Code::BadVariant, 0..0, msg),
            None => Diagnostic::file_level(Code::BadVariant, Path::new(&v.id), msg),
        });
    }
    if v.tiles.len() > usize::from(u16::MAX) {
        diags.push(Diagnostic::file_level(
            Code::BadVariant,
            Path::new(&v.id),
            "too many tile types",
        ));
    }
    let mut tiles = Vec::with_capacity(v.tiles.len());
    for (i, t) in v.tiles.iter().enumerate() {
        match crate::lower::lower_tile(t, &tags) {
            Ok(mut tt) => {
                tt.abilities = crate::abilities::lower(&t.abilities, &tags);
                tiles.push(tt);
            }
            Err(msg) => diags.push(match where_(i) {
                Some(src) => src.diag(Code::TileShape, t.span.clone(), msg),
                None => Diagnostic::file_level(Code::TileShape, Path::new(&t.id), msg),
            }),
        }
    }
    if !diags.is_empty() {
        return (None, diags);
    }
    let start_tile = v.tiles.iter().position(|t| t.start).map(|i| i as u16);
    for p in &v.player_tiles {
        // The players hold these copies: none is in the draw pile.
        if let Some(t) = tiles.get_mut(usize::from(p.tile)) {
            t.count = 0;
        }
    }
    for &i in v.pool.iter().flat_map(|p| &p.tiles) {
        // The pool tiles are taken at score thresholds, never drawn (W-1, W-2).
        if let Some(t) = tiles.get_mut(usize::from(i)) {
            t.count = 0;
        }
    }
    let rs = Ruleset {
        format_version: tegula_ruleset::FORMAT_VERSION,
        id: v.id.clone(),
        name: v.name.clone(),
        min_players: v.min_players,
        max_players: v.max_players,
        followers: v.followers.clone(),
        scoring: v.scoring.clone(),
        tags,
        tiles,
        start_tile,
        player_tiles: v.player_tiles.clone(),
        pool: v.pool.clone(),
        hand: v.hand,
        readings: v.readings.clone(),
        rules: v.rules.clone(),
        resources: v.resources.clone(),
        edge_kinds: v.edge_kinds.clone(),
        pile_groups: v.pile_groups.clone(),
        seats_rule: v.seats_rule.clone(),
        citations: v.citations.clone(),
        when: v.when.clone(),
        tokens: v.tokens.clone(),
        counters: v.counters.clone(),
        tracks: v.tracks.clone(),
        stacks: v.stacks.clone(),
        neutrals: v.neutrals.clone(),
    };
    (Some(rs), diags)
}

/// Build the ruleset of the variant file at `path`. `None` if any error was found.
pub fn build_variant(path: &Path) -> (Option<Ruleset>, Vec<Diagnostic>) {
    let (v, mut diags) = compile_variant(path);
    let Some(v) = v else {
        return (None, diags);
    };
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    let (rs, more) = lower_variant(&v);
    diags.extend(more);
    (rs, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Variants sharing a set compile it once; a set whose text changed is compiled anew.
    #[test]
    fn a_set_is_compiled_once_per_text() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut cache = SetCache::default();
        for v in ["variants/base.toml", "variants/house/farms-4.toml"] {
            let (compiled, diags) = compile_variant_with(&root.join(v), &mut cache);
            assert!(compiled.is_some() && diags.is_empty(), "{v}: {diags:?}");
        }
        assert_eq!(cache.compiled.len(), 1, "tiles/base.toml once");

        let dir = std::env::temp_dir().join(format!("tegula-setcache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("set.toml");
        let text = std::fs::read_to_string(root.join("tiles/base.toml")).unwrap();
        std::fs::write(&file, &text).unwrap();
        let first = cache.compile(&file).0.unwrap().1.tiles.len();
        std::fs::write(&file, text.replace("id = \"X\"", "id = \"X2\"")).unwrap();
        let (again, _) = cache.compile(&file);
        assert_eq!(cache.compiled.len(), 3, "the changed text is compiled anew");
        let ids: Vec<String> = again.unwrap().1.tiles.into_iter().map(|t| t.id).collect();
        assert_eq!(ids.len(), first);
        assert!(ids.iter().any(|id| id == "X2"), "{ids:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
