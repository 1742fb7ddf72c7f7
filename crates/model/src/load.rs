//! Loading: file → [`Source`] → TOML syntax check → JSON Schema check (errors mapped back to TOML
//! positions) → raw types with spans. Reports every problem, never panics, bounded in size.
//!
//! Steps, each stopping the file's loading when it fails:
//! 1. read at most [`MAX_FILE_BYTES`] (`io`, `too-large`), decode UTF-8 (`not-utf8`), refuse a
//!    file with no content (`empty-file`); a first line other than `#:schema …` is a
//!    `missing-schema-line` warning;
//! 2. parse with `toml_edit` (keeps spans; its recursion limit bounds nesting) → `toml-syntax`;
//! 3. convert to JSON and check against the schemars-generated JSON Schema, collecting every
//!    error (at most [`MAX_SCHEMA_ERRORS`]) and mapping its instance path back to the TOML text
//!    (`schema`), with a plain-words message;
//! 4. only then deserialise into the [`raw`](crate::raw) types (spans via `toml`); a serde error
//!    there is still a `schema` diagnostic.

use std::io::Read;
use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value as Json};
use toml_edit::{ImDocument, Item, Table};

use crate::diag::{Code, Diagnostic, Source};
use crate::open::{open_regular, OpenError};
use crate::raw::{TileSetFile, VariantFile};
use crate::schema;

/// Largest accepted file (1 MiB). Real tile data is a few tens of KiB; the cap bounds the time
/// and memory spent on hostile input before any parsing.
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// At most this many schema problems are reported per file (the last one says how many more).
pub const MAX_SCHEMA_ERRORS: usize = 100;

/// Deepest nesting the JSON conversion follows (toml_edit already refuses deeper input).
const MAX_DEPTH: usize = 256;

/// A successfully parsed document with its source.
#[derive(Clone, Debug)]
pub struct Loaded<T> {
    /// The source text (for positions).
    pub source: Source,
    /// The parsed document.
    pub doc: T,
}

/// Read and parse a tile-set file. `None` when it cannot be used; diagnostics either way
/// (warnings may come with a `Some`).
pub fn load_tileset(path: &Path) -> (Option<Loaded<TileSetFile>>, Vec<Diagnostic>) {
    match read_source(path) {
        Ok(source) => parse_tileset(source),
        Err(d) => (None, vec![d]),
    }
}

/// Read and parse a variant file.
///
/// A variant that `extends` others is read with its whole chain, merged
/// ([`crate::inherit`]); positions in the result's source map back to the files of the chain.
pub fn load_variant(path: &Path) -> (Option<Loaded<VariantFile>>, Vec<Diagnostic>) {
    match crate::inherit::read_variant(path) {
        Ok(source) => parse_variant(source),
        Err(d) => (None, d),
    }
}

/// Parse a tile-set document already in memory (same checks as [`load_tileset`] after reading).
pub fn parse_tileset(source: Source) -> (Option<Loaded<TileSetFile>>, Vec<Diagnostic>) {
    parse_as(source, Kind::TileSet)
}

/// Parse a variant document already in memory.
pub fn parse_variant(source: Source) -> (Option<Loaded<VariantFile>>, Vec<Diagnostic>) {
    parse_as(source, Kind::Variant)
}

/// Read a file as text, with the size cap and UTF-8 check. The error is the one diagnostic.
#[allow(clippy::result_large_err)] // called once per file; boxing would only add noise
pub fn read_source(path: &Path) -> Result<Source, Diagnostic> {
    // Type and size checked before reading; the open does not block (a FIFO or device could
    // block or never end).
    let file = open_regular(path, MAX_FILE_BYTES as u64).map_err(|e| match e {
        OpenError::TooLarge { len, .. } => too_large(path, len),
        e => Diagnostic::file_level(
            Code::Io,
            path,
            format!("cannot read `{}`: {e}", path.display()),
        ),
    })?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            Diagnostic::file_level(
                Code::Io,
                path,
                format!("cannot read `{}`: {e}", path.display()),
            )
        })?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large(path, bytes.len() as u64));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source::new(path, text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let source = Source::new(path, text);
            Err(source
                .diag(
                    Code::NotUtf8,
                    at..at + 1,
                    format!("the file is not UTF-8 text: invalid byte at offset {at}"),
                )
                .with_note("tegula data files must be saved as UTF-8"))
        }
    }
}

fn too_large(path: &Path, len: u64) -> Diagnostic {
    Diagnostic::file_level(
        Code::TooLarge,
        path,
        format!(
            "the file is too large to be tegula data: {len} bytes, at most {MAX_FILE_BYTES} allowed"
        ),
    )
}

/// The file name the `#:schema` first line points at (`tileset.schema.json`, ...), if any.
pub fn schema_line_target(text: &str) -> Option<&str> {
    let first = text.lines().next()?.trim_start_matches('\u{feff}');
    let rest = first.strip_prefix("#:schema")?.trim();
    let name = rest.rsplit(['/', '\\']).next().unwrap_or(rest);
    (!name.is_empty()).then_some(name)
}

/// A `missing-schema-line` warning pointing at the file's first line.
pub(crate) fn schema_line_diag(source: &Source, message: impl Into<String>) -> Diagnostic {
    let first = source.text.lines().next().map_or(0, str::len);
    source.diag(Code::MissingSchemaLine, 0..first, message)
}

/// Which kind of document is being loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    TileSet,
    Variant,
}

impl Kind {
    fn schema(self) -> &'static Json {
        match self {
            Kind::TileSet => schema::tileset_schema(),
            Kind::Variant => schema::variant_schema(),
        }
    }

    fn schema_file(self) -> &'static str {
        match self {
            Kind::TileSet => schema::TILESET_SCHEMA,
            Kind::Variant => schema::VARIANT_SCHEMA,
        }
    }

    fn validator(self) -> Option<&'static jsonschema::Validator> {
        static TILESET: OnceLock<Option<jsonschema::Validator>> = OnceLock::new();
        static VARIANT: OnceLock<Option<jsonschema::Validator>> = OnceLock::new();
        let cell = match self {
            Kind::TileSet => &TILESET,
            Kind::Variant => &VARIANT,
        };
        cell.get_or_init(|| {
            jsonschema::options()
                .should_validate_formats(false)
                .build(self.schema())
                .ok()
        })
        .as_ref()
    }

    fn root_noun(self) -> &'static str {
        match self {
            Kind::TileSet => "the tile-set file",
            Kind::Variant => "the variant file",
        }
    }
}

fn parse_as<T: DeserializeOwned>(
    source: Source,
    kind: Kind,
) -> (Option<Loaded<T>>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    if source.text.len() > MAX_FILE_BYTES {
        return (
            None,
            vec![too_large(&source.path, source.text.len() as u64)],
        );
    }
    if source.text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#')
    }) {
        let d = source.diag(
            Code::Empty,
            0..0,
            "the file is empty: it has no keys or tables, only whitespace or comments",
        );
        return (None, vec![d]);
    }
    if schema_line_target(&source.text).is_none() {
        diags.push(
            schema_line_diag(&source, "the file does not start with a `#:schema` line").with_note(
                format!(
                    "start it with `#:schema <relative path>/schema/{}` so editors can check it",
                    kind.schema_file()
                ),
            ),
        );
    }
    let doc = match ImDocument::parse(source.text.as_str()) {
        Ok(doc) => doc,
        Err(e) => {
            let span = first_line(&source.text, e.span().unwrap_or(0..0));
            let message = e
                .message()
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(": ");
            diags.push(source.diag(Code::Syntax, span, format!("TOML syntax error: {message}")));
            return (None, diags);
        }
    };
    let mut json = table_to_json(doc.as_table(), 0);
    let schema_diags = check_schema(&source, &doc, &mut json, kind);
    if !schema_diags.is_empty() {
        diags.extend(schema_diags);
        return (None, diags);
    }
    // Deserialise from the document already parsed (spans kept by `toml::Spanned`).
    let parsed = T::deserialize(toml_edit::de::Deserializer::from(doc));
    match parsed {
        Ok(parsed) => (
            Some(Loaded {
                source,
                doc: parsed,
            }),
            diags,
        ),
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let message = e.message().trim().to_string();
            diags.push(source.diag(Code::Schema, span, message));
            (None, diags)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// TOML → JSON

fn table_to_json(t: &Table, depth: usize) -> Json {
    let mut map = Map::new();
    if depth > MAX_DEPTH {
        return Json::Object(map);
    }
    for (k, item) in t.iter() {
        if let Some(v) = item_to_json(item, depth + 1) {
            map.insert(k.to_string(), v);
        }
    }
    Json::Object(map)
}

fn item_to_json(item: &Item, depth: usize) -> Option<Json> {
    match item {
        Item::None => None,
        Item::Value(v) => Some(value_to_json(v, depth)),
        Item::Table(t) => Some(table_to_json(t, depth)),
        Item::ArrayOfTables(a) => Some(Json::Array(
            a.iter().map(|t| table_to_json(t, depth + 1)).collect(),
        )),
    }
}

fn value_to_json(v: &toml_edit::Value, depth: usize) -> Json {
    use toml_edit::Value as V;
    if depth > MAX_DEPTH {
        return Json::Null;
    }
    match v {
        V::String(s) => Json::String(s.value().clone()),
        V::Integer(i) => Json::Number((*i.value()).into()),
        V::Float(f) => Number::from_f64(*f.value()).map_or_else(|| marker("float"), Json::Number),
        V::Boolean(b) => Json::Bool(*b.value()),
        // No schema accepts an object with this key where a scalar is expected, so a datetime is
        // rejected wherever it appears; messages name the TOML type, not this marker.
        V::Datetime(_) => marker("datetime"),
        V::Array(a) => Json::Array(a.iter().map(|v| value_to_json(v, depth + 1)).collect()),
        V::InlineTable(t) => {
            let mut map = Map::new();
            for (k, v) in t.iter() {
                map.insert(k.to_string(), value_to_json(v, depth + 1));
            }
            Json::Object(map)
        }
    }
}

fn marker(what: &str) -> Json {
    let mut map = Map::new();
    map.insert("$toml".into(), Json::String(what.into()));
    Json::Object(map)
}

// ---------------------------------------------------------------------------------------------
// Walking the TOML document along a JSON instance path

/// A position in the toml_edit document.
#[derive(Clone, Copy)]
enum Node<'a> {
    Table(&'a Table),
    Inline(&'a toml_edit::InlineTable),
    Tables(&'a toml_edit::ArrayOfTables),
    Array(&'a toml_edit::Array),
    Scalar(&'a toml_edit::Value),
}

impl<'a> Node<'a> {
    fn of_item(item: &'a Item) -> Option<Node<'a>> {
        match item {
            Item::None => None,
            Item::Value(v) => Some(Node::of_value(v)),
            Item::Table(t) => Some(Node::Table(t)),
            Item::ArrayOfTables(a) => Some(Node::Tables(a)),
        }
    }

    fn of_value(v: &'a toml_edit::Value) -> Node<'a> {
        match v {
            toml_edit::Value::Array(a) => Node::Array(a),
            toml_edit::Value::InlineTable(t) => Node::Inline(t),
            other => Node::Scalar(other),
        }
    }

    /// The child at a path segment, with the span of its key (for tables).
    fn child(self, seg: &str) -> Option<(Node<'a>, Option<Range<usize>>)> {
        match self {
            Node::Table(t) => {
                let (k, item) = t.get_key_value(seg)?;
                Some((Node::of_item(item)?, k.span()))
            }
            Node::Inline(t) => {
                let (k, item) = t.get_key_value(seg)?;
                Some((Node::of_item(item)?, k.span()))
            }
            Node::Tables(a) => Some((Node::Table(a.get(seg.parse().ok()?)?), None)),
            Node::Array(a) => Some((Node::of_value(a.get(seg.parse().ok()?)?), None)),
            Node::Scalar(_) => None,
        }
    }

    fn key_span(self, key: &str) -> Option<Range<usize>> {
        match self {
            Node::Table(t) => t.get_key_value(key)?.0.span(),
            Node::Inline(t) => t.get_key_value(key)?.0.span(),
            _ => None,
        }
    }

    fn span(self) -> Option<Range<usize>> {
        match self {
            Node::Table(t) => t.span(),
            Node::Inline(t) => t.span(),
            Node::Tables(a) => a.span().or_else(|| a.get(0).and_then(Table::span)),
            Node::Array(a) => a.span(),
            Node::Scalar(v) => v.span(),
        }
    }

    /// "an integer", "a table", ... as TOML calls it.
    fn type_name(self) -> &'static str {
        use toml_edit::Value as V;
        match self {
            Node::Table(_) | Node::Inline(_) => "a table",
            Node::Tables(_) | Node::Array(_) => "an array",
            Node::Scalar(V::String(_)) => "a string",
            Node::Scalar(V::Integer(_)) => "an integer",
            Node::Scalar(V::Float(_)) => "a float",
            Node::Scalar(V::Boolean(_)) => "a boolean",
            Node::Scalar(V::Datetime(_)) => "a date-time",
            Node::Scalar(_) => "a value",
        }
    }
}

/// Split a JSON pointer into unescaped segments.
fn pointer_segments(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Best span for the value at `segs`: a scalar's own span; for a table or array its key when it
/// has one (`cells = [` → `cells`), else its first line; else the nearest ancestor's.
fn locate<'a>(text: &str, root: &'a Table, segs: &[String]) -> (Option<Node<'a>>, Range<usize>) {
    let mut node = Node::Table(root);
    let mut best: Option<Range<usize>> = None;
    let mut last_key: Option<Range<usize>> = None;
    for seg in segs {
        match node.child(seg) {
            Some((child, key_span)) => {
                if let Some(s) = key_span.clone().or_else(|| child.span()) {
                    best = Some(s);
                }
                last_key = key_span;
                node = child;
            }
            None => return (None, first_line(text, best.unwrap_or(0..0))),
        }
    }
    let span = match node {
        Node::Scalar(_) => node.span(),
        _ => last_key.or_else(|| node.span()),
    };
    (Some(node), first_line(text, span.or(best).unwrap_or(0..0)))
}

/// Clip a span to the line it starts on (multi-line excerpts of whole tables say little).
fn first_line(text: &str, span: Range<usize>) -> Range<usize> {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    match text.get(start..end).and_then(|s| s.find('\n')) {
        Some(0) => start..start,
        Some(nl) => start..start + nl,
        None => start..end,
    }
}

// ---------------------------------------------------------------------------------------------
// Schema errors → diagnostics

fn check_schema(
    source: &Source,
    doc: &ImDocument<&str>,
    json: &mut Json,
    kind: Kind,
) -> Vec<Diagnostic> {
    let Some(validator) = kind.validator() else {
        return vec![Diagnostic::file_level(
            Code::Schema,
            &source.path,
            "internal error: the JSON Schema does not compile",
        )];
    };
    let root = doc.as_table();
    let mut out: Vec<Diagnostic> = Vec::new();
    // Over-long arrays first: report them and cut them to their limit, so that a tile with
    // 100,000 cells is one diagnostic and the validator's work stays bounded.
    let mut long = Vec::new();
    prune_long_arrays(
        kind.schema(),
        kind.schema(),
        json,
        &mut Vec::new(),
        &mut long,
    );
    for (segs, limit, found) in long {
        let (_, span) = locate(&source.text, root, &segs);
        let mut d = source.diag(
            Code::Schema,
            span,
            format!(
                "{} may have at most {limit} item{}, found {found}",
                subject(json, kind, &segs),
                plural(limit)
            ),
        );
        d.notes.push(format!("at {}", toml_path(&segs)));
        out.push(d);
    }
    let json: &Json = json;
    let mut more = false;
    for error in validator.iter_errors(json) {
        if out.len() >= MAX_SCHEMA_ERRORS {
            more = true;
            break;
        }
        let segs = pointer_segments(error.instance_path.as_str());
        out.extend(describe(source, root, json, kind, &segs, &error));
    }
    out.sort_by(|a, b| {
        let sa = a.span.clone().unwrap_or(0..0);
        let sb = b.span.clone().unwrap_or(0..0);
        (sa.start, sa.end, &a.message).cmp(&(sb.start, sb.end, &b.message))
    });
    out.dedup_by(|a, b| a.span == b.span && a.message == b.message);
    out.truncate(MAX_SCHEMA_ERRORS);
    if more {
        if let Some(last) = out.last_mut() {
            last.notes.push(format!(
                "more schema problems follow; only the first {MAX_SCHEMA_ERRORS} are reported"
            ));
        }
    }
    out
}

fn describe(
    source: &Source,
    root: &Table,
    json: &Json,
    kind: Kind,
    segs: &[String],
    error: &jsonschema::ValidationError<'_>,
) -> Vec<Diagnostic> {
    use jsonschema::error::ValidationErrorKind as K;
    let (node, span) = locate(&source.text, root, segs);
    let found = node.map_or("a value", Node::type_name);
    let subject = subject(json, kind, segs);
    let path_note = (!segs.is_empty()).then(|| format!("at {}", toml_path(segs)));
    let value = error.instance.as_ref();
    let one = |message: String| {
        let mut d = source.diag(Code::Schema, span.clone(), message);
        if let Some(n) = &path_note {
            d.notes.push(n.clone());
        }
        vec![d]
    };
    match &error.kind {
        K::AdditionalProperties { unexpected } => {
            let owner = owner_noun(json, kind, segs);
            let allowed = allowed_keys(kind.schema(), segs);
            unexpected
                .iter()
                .map(|key| {
                    let key_span = node.and_then(|n| n.key_span(key)).unwrap_or(span.clone());
                    let mut message = format!("unknown key `{key}` in {owner}");
                    if !allowed.is_empty() {
                        message.push_str("; expected one of ");
                        message.push_str(&code_list(&allowed));
                    }
                    let mut d = source.diag(Code::Schema, key_span, message);
                    if let Some(n) = &path_note {
                        d.notes.push(n.clone());
                    }
                    if let Some(s) = suggest(key, allowed.iter().map(String::as_str)) {
                        d.notes.push(format!("did you mean `{s}`?"));
                    }
                    d
                })
                .collect()
        }
        K::Required { property } => {
            let owner = owner_noun(json, kind, segs);
            let key = property.as_str().unwrap_or("?");
            one(format!("missing key `{key}` in {owner}"))
        }
        K::Type { kind: expected } => one(format!(
            "{subject}: expected {}, found {found}",
            type_names(expected)
        )),
        K::Maximum { limit } => one(format!("{subject} must be at most {limit}, found {value}")),
        K::Minimum { limit } => one(format!("{subject} must be at least {limit}, found {value}")),
        K::ExclusiveMaximum { limit } => one(format!(
            "{subject} must be less than {limit}, found {value}"
        )),
        K::ExclusiveMinimum { limit } => one(format!(
            "{subject} must be greater than {limit}, found {value}"
        )),
        K::MaxItems { limit } => one(format!(
            "{subject} may have at most {limit} item{}, found {}",
            plural(*limit),
            value.as_array().map_or(0, Vec::len)
        )),
        K::MinItems { limit } => one(format!(
            "{subject} must have at least {limit} item{}, found {}",
            plural(*limit),
            value.as_array().map_or(0, Vec::len)
        )),
        K::MaxLength { limit } => one(format!(
            "{subject} may be at most {limit} character{} long, found {}",
            plural(*limit),
            value.as_str().map_or(0, |s| s.chars().count())
        )),
        K::MinLength { limit } => one(format!(
            "{subject} must be at least {limit} character{} long",
            plural(*limit)
        )),
        K::Pattern { pattern } => one(format!(
            "{subject} {}; found {}",
            pattern_words(pattern),
            short(value)
        )),
        K::Enum { options } => {
            let options = options.as_array().cloned().unwrap_or_default();
            with_suggestion(
                one(format!(
                    "{subject}: expected one of {}; found {}",
                    code_list_json(&options),
                    quoted(value)
                )),
                value,
                &options,
            )
        }
        K::Constant { expected_value } => one(format!(
            "{subject}: expected `{}`; found {}",
            plain(expected_value),
            short(value)
        )),
        K::OneOfNotValid | K::AnyOf => {
            let consts = const_options(kind.schema(), segs);
            if consts.is_empty() {
                one(format!(
                    "{subject} does not match any allowed form; found {found}"
                ))
            } else if let (Some(range), false) =
                (integer_branch(kind.schema(), segs), value.is_string())
            {
                one(format!(
                    "{subject}: expected {range} or one of {}; found {}",
                    code_list_json(&consts),
                    short(value)
                ))
            } else if !value.is_string() {
                one(format!("{subject}: expected a string, found {found}"))
            } else {
                with_suggestion(
                    one(format!(
                        "{subject}: expected one of {}; found {}",
                        code_list_json(&consts),
                        quoted(value)
                    )),
                    value,
                    &consts,
                )
            }
        }
        _ => one(format!("{subject}: {error}")),
    }
}

/// Add a "did you mean" note when a string value is close to one of the allowed ones.
fn with_suggestion(mut diags: Vec<Diagnostic>, value: &Json, options: &[Json]) -> Vec<Diagnostic> {
    if let Some(word) = value.as_str() {
        if let Some(s) = suggest(word, options.iter().filter_map(Json::as_str)) {
            for d in &mut diags {
                d.notes.push(format!("did you mean `{s}`?"));
            }
        }
    }
    diags
}

/// The closest candidate within edit distance 2 (case-insensitive), if any (for "did you mean"
/// notes).
pub fn suggest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    if word.chars().count() > 64 {
        return None;
    }
    candidates
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= 2 && *d < c.chars().count())
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edit (Levenshtein) distance between two strings, ignoring case, in characters; for "did you
/// mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A short rendering of an offending value for messages.
fn short(v: &Json) -> String {
    let s = match v {
        Json::String(s) => format!("{s:?}"),
        Json::Object(m) if m.contains_key("$toml") => "a date-time".to_string(),
        Json::Object(_) => "a table".to_string(),
        Json::Array(a) => format!("an array of {} item{}", a.len(), plural(a.len() as u64)),
        other => other.to_string(),
    };
    if s.chars().count() > 60 {
        let cut: String = s.chars().take(57).collect();
        format!("{cut}…")
    } else {
        s
    }
}

/// A string value in backticks (as in the expected list), anything else as [`short`].
fn quoted(v: &Json) -> String {
    match v {
        Json::String(s) if s.chars().count() <= 60 && !s.contains('`') => format!("`{s}`"),
        other => short(other),
    }
}

fn plain(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn code_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn code_list_json(items: &[Json]) -> String {
    items
        .iter()
        .map(|s| format!("`{}`", plain(s)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn type_names(kind: &jsonschema::error::TypeKind) -> String {
    use jsonschema::error::TypeKind;
    fn name(t: jsonschema::JsonType) -> &'static str {
        match t.to_string().as_str() {
            "array" => "an array",
            "boolean" => "a boolean (`true` or `false`)",
            "integer" => "an integer",
            "null" => "nothing",
            "number" => "a number",
            "object" => "a table",
            "string" => "a string",
            _ => "a value",
        }
    }
    match kind {
        TypeKind::Single(t) => name(*t).to_string(),
        TypeKind::Multiple(set) => set.iter().map(name).collect::<Vec<_>>().join(" or "),
    }
}

/// Plain words for the patterns used in `raw.rs`.
fn pattern_words(pattern: &str) -> String {
    match pattern {
        r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$" => "must be an id: 1 to 64 letters, digits, `_`, `.` or `-`, starting with a letter or digit".to_string(),
        r"^[A-Z]+-[0-9]+[a-z]?$" => "must be a rule id such as `B-1` or `W-18a`".to_string(),
        other => format!("must match the pattern `{other}`"),
    }
}

/// `tile[3].segments[0].kind`
fn toml_path(segs: &[String]) -> String {
    let mut out = String::new();
    for seg in segs {
        if seg.parse::<usize>().is_ok() {
            out.push('[');
            out.push_str(seg);
            out.push(']');
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(seg);
        }
    }
    out
}

/// How a path's last key reads in a message: "`count` in tile `D`", "item 3 of `sides` in …".
fn subject(json: &Json, kind: Kind, segs: &[String]) -> String {
    // Trailing indices belong to the last key.
    let key_at = segs.iter().rposition(|s| s.parse::<usize>().is_err());
    let Some(key_at) = key_at else {
        return format!("{} itself", kind.root_noun());
    };
    let key = &segs[key_at];
    let mut s = String::new();
    for idx in segs[key_at + 1..].iter().rev() {
        let n = idx.parse::<usize>().unwrap_or(0) + 1;
        s.push_str(&format!("item {n} of "));
    }
    s.push_str(&format!("`{key}`"));
    let owner = owner_noun(json, kind, &segs[..key_at]);
    format!("{s} in {owner}")
}

/// A readable name of the object at `segs`: "tile `D`", "segment `city` of tile `D`", ...
fn owner_noun(json: &Json, kind: Kind, segs: &[String]) -> String {
    let mut value = json;
    let mut last_key: Option<&str> = None;
    let mut parts: Vec<String> = Vec::new();
    for seg in segs {
        value = match value {
            Json::Object(m) => match m.get(seg.as_str()) {
                Some(v) => v,
                None => break,
            },
            Json::Array(a) => match seg.parse::<usize>().ok().and_then(|i| a.get(i)) {
                Some(v) => v,
                None => break,
            },
            _ => break,
        };
        if seg.parse::<usize>().is_err() {
            last_key = Some(seg);
        }
        if let (Json::Object(m), Some(key)) = (value, last_key) {
            let noun = noun(kind, key, parts.is_empty());
            let named = match m.get("id").and_then(Json::as_str) {
                Some(_) if noun.starts_with('[') => noun,
                Some(id) => format!("{noun} `{id}`"),
                None => {
                    let index = seg.parse::<usize>().ok();
                    match index {
                        Some(i) => format!("{noun} #{}", i + 1),
                        None => noun,
                    }
                }
            };
            parts.push(named);
        }
    }
    if parts.is_empty() {
        return kind.root_noun().to_string();
    }
    parts.reverse();
    // The innermost object and its outermost named ancestor are enough context.
    if parts.len() > 2 {
        let first = parts[0].clone();
        let last = parts[parts.len() - 1].clone();
        parts = vec![first, last];
    }
    parts.join(" of ")
}

fn noun(kind: Kind, key: &str, top: bool) -> String {
    match (kind, key) {
        (_, "set") if top => "[set]".into(),
        (_, "tile") => "tile".into(),
        (_, "segments") => "segment".into(),
        (_, "cells") => "cell".into(),
        (Kind::Variant, "connections") if top => "connection override".into(),
        (_, "connections") => "connection".into(),
        (_, "fact") => "fact".into(),
        (_, "players") => "`players`".into(),
        (_, "sets") => "set reference".into(),
        (_, "followers") => "follower".into(),
        (_, "player_tiles") => "player tile".into(),
        (_, "corner") => "corner scoring".into(),
        (_, "scoring") => "[scoring]".into(),
        (_, other) => format!("`{other}`"),
    }
}

// ---------------------------------------------------------------------------------------------
// Looking things up in the schema itself

fn deref<'a>(root: &'a Json, mut s: &'a Json) -> &'a Json {
    for _ in 0..16 {
        // Draft 7 puts `$ref` with siblings into a one-element `allOf`.
        if let Some([only]) = s.get("allOf").and_then(Json::as_array).map(Vec::as_slice) {
            s = only;
            continue;
        }
        let Some(r) = s.get("$ref").and_then(Json::as_str) else {
            break;
        };
        let name = r
            .strip_prefix("#/definitions/")
            .map(|n| ("definitions", n))
            .or_else(|| r.strip_prefix("#/$defs/").map(|n| ("$defs", n)));
        let Some((defs, name)) = name else {
            break;
        };
        match root.get(defs).and_then(|d| d.get(name)) {
            Some(t) => s = t,
            None => break,
        }
    }
    s
}

/// The sub-schema describing the instance at `segs` (following `$ref`, `properties`, `items`).
fn schema_at<'a>(root: &'a Json, segs: &[String]) -> Option<&'a Json> {
    let mut s = deref(root, root);
    for seg in segs {
        let next = s
            .get("properties")
            .and_then(|p| p.get(seg.as_str()))
            .or_else(|| {
                seg.parse::<usize>().ok()?;
                s.get("items")
            })?;
        s = deref(root, next);
    }
    Some(s)
}

/// Cut every array longer than its schema's `maxItems` to that length, recording
/// `(path, limit, original length)`.
fn prune_long_arrays(
    root: &Json,
    schema: &Json,
    json: &mut Json,
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, u64, usize)>,
) {
    if path.len() > MAX_DEPTH {
        return;
    }
    let schema = deref(root, schema);
    match json {
        Json::Object(map) => {
            let Some(props) = schema.get("properties").and_then(Json::as_object) else {
                return;
            };
            for (key, value) in map.iter_mut() {
                if let Some(sub) = props.get(key) {
                    path.push(key.clone());
                    prune_long_arrays(root, sub, value, path, out);
                    path.pop();
                }
            }
        }
        Json::Array(items) => {
            if let Some(limit) = schema.get("maxItems").and_then(Json::as_u64) {
                if items.len() as u64 > limit {
                    out.push((path.clone(), limit, items.len()));
                    items.truncate(limit as usize);
                }
            }
            let Some(sub) = schema.get("items") else {
                return;
            };
            for (i, item) in items.iter_mut().enumerate() {
                path.push(i.to_string());
                prune_long_arrays(root, sub, item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn allowed_keys(root: &Json, segs: &[String]) -> Vec<String> {
    schema_at(root, segs)
        .and_then(|s| s.get("properties"))
        .and_then(Json::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

fn const_options(root: &Json, segs: &[String]) -> Vec<Json> {
    let Some(s) = schema_at(root, segs) else {
        return Vec::new();
    };
    let branches = s
        .get("oneOf")
        .or_else(|| s.get("anyOf"))
        .and_then(Json::as_array);
    branches
        .map(|b| {
            b.iter()
                .filter_map(|b| deref(root, b).get("const").cloned())
                .collect()
        })
        .unwrap_or_default()
}

/// "an integer from A to B" when the `anyOf`/`oneOf` at `segs` has an integer branch (e.g. a
/// strength: a number or `pennants`).
fn integer_branch(root: &Json, segs: &[String]) -> Option<String> {
    let s = schema_at(root, segs)?;
    let branches = s.get("oneOf").or_else(|| s.get("anyOf"))?.as_array()?;
    let int = branches
        .iter()
        .map(|b| deref(root, b))
        .find(|b| b.get("type").and_then(Json::as_str) == Some("integer"))?;
    let bound = |k: &str| int.get(k).and_then(Json::as_i64);
    Some(match (bound("minimum"), bound("maximum")) {
        (Some(lo), Some(hi)) => format!("an integer from {lo} to {hi}"),
        (Some(lo), None) => format!("an integer of at least {lo}"),
        (None, Some(hi)) => format!("an integer of at most {hi}"),
        (None, None) => "an integer".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tileset(text: &str) -> Vec<Diagnostic> {
        parse_tileset(Source::new("t.toml", text.to_string())).1
    }

    const HEAD: &str = "#:schema ../schema/tileset.schema.json\n[set]\nid = \"t\"\nname = \"T\"\n";

    #[test]
    fn minimal_tileset_loads() {
        let (doc, diags) = parse_tileset(Source::new("t.toml", HEAD.to_string()));
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(doc.unwrap().doc.set.id.value, "t");
    }

    #[test]
    fn unknown_key_points_at_the_key() {
        let text = format!("{HEAD}colour = \"red\"\n");
        let d = tileset(&text);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].code, Code::Schema);
        assert_eq!((d[0].line, d[0].column), (5, 1));
        assert!(
            d[0].message.contains("unknown key `colour` in [set]"),
            "{}",
            d[0].message
        );
        assert!(d[0].message.contains("`name`"), "{}", d[0].message);
    }

    #[test]
    fn edit_distance_counts_characters_ignoring_case() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("Road", "road"), 0);
        assert_eq!(edit_distance("clöister", "cloister"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn count_too_big_in_plain_words() {
        let text = format!(
            "{HEAD}[[tile]]\nid = \"A\"\ncount = 1000000000000\nsides = [\"city\",\"road\",\"field\",\"road\"]\nsegments = [{{ id = \"c\", kind = \"city\", sides = [\"N\"] }}]\n"
        );
        let d = tileset(&text);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].line, 7);
        assert_eq!(
            d[0].message,
            "`count` in tile `A` must be at most 1000, found 1000000000000"
        );
    }

    #[test]
    fn wrong_type_and_bad_enum_are_both_reported() {
        let text = format!(
            "{HEAD}[[tile]]\nid = 5\ncount = 1\nsides = [\"city\",\"road\",\"castle\",\"road\"]\nsegments = [{{ id = \"c\", kind = \"city\", sides = [\"N\"] }}]\n"
        );
        let d = tileset(&text);
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!(d[0].line, 6);
        assert!(
            d[0].message.contains("expected a string, found an integer"),
            "{}",
            d[0].message
        );
        assert_eq!(d[1].line, 8);
        assert!(
            d[1].message.contains("`castle`") && d[1].message.contains("`field`"),
            "{}",
            d[1].message
        );
    }

    #[test]
    fn missing_key_points_at_the_table() {
        let text = format!("{HEAD}\n[[tile]]\nid = \"A\"\nsegments = []\n");
        let d = tileset(&text);
        assert!(
            d.iter()
                .any(|d| d.message == "missing key `count` in tile `A`" && d.line == 6),
            "{d:?}"
        );
    }

    #[test]
    fn syntax_error_has_position() {
        let d = tileset("#:schema x/tileset.schema.json\n[set\nid = 1\n");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, Code::Syntax);
        assert_eq!(d[0].line, 2);
    }

    #[test]
    fn deep_nesting_is_refused_without_overflow() {
        let n = 100_000;
        let text = format!("{HEAD}x = {}{}\n", "[".repeat(n), "]".repeat(n));
        let d = tileset(&text);
        assert_eq!(d[0].code, Code::Syntax);
        let text = format!("{HEAD}x = {}1{}\n", "{a=".repeat(n), "}".repeat(n));
        assert_eq!(tileset(&text)[0].code, Code::Syntax);
    }

    #[test]
    fn comments_only_is_empty_and_missing_line_is_a_warning() {
        assert_eq!(tileset("# nothing\n\n")[0].code, Code::Empty);
        assert_eq!(tileset("   \n")[0].code, Code::Empty);
        let d = tileset("[set]\nid = \"t\"\nname = \"T\"\n");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, Code::MissingSchemaLine);
        assert!(!d[0].is_error());
    }

    #[test]
    fn datetime_is_rejected_by_name() {
        let text = "#:schema tileset.schema.json\n[set]\nid = 1979-05-27\nname = \"T\"\n";
        let d = tileset(text);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].message.contains("found a date-time"),
            "{}",
            d[0].message
        );
    }

    #[test]
    fn near_misses_get_a_suggestion() {
        let text = format!(
            "{HEAD}colur = 1\n[[tile]]\nid = \"A\"\ncount = 1\nsides = [\"feild\", \"road\", \"field\", \"road\"]\nsegments = [{{ id = \"c\", kind = \"Cloister\" }}]\n"
        );
        let d = tileset(&text);
        let notes: Vec<&str> = d
            .iter()
            .flat_map(|d| d.notes.iter().map(String::as_str))
            .collect();
        for want in ["did you mean `field`?", "did you mean `cloister`?"] {
            assert!(notes.contains(&want), "{want}: {d:#?}");
        }
        // Only close candidates are suggested (`colur` is far from every tile-set key).
        assert!(!notes.iter().any(|n| n.contains("`name`")), "{notes:?}");
        assert_eq!(suggest("kind", ["id", "kind"].into_iter()), Some("kind"));
        assert_eq!(suggest("xyzzy", ["id", "name"].into_iter()), None);
    }

    #[test]
    fn schema_line_target_takes_the_file_name() {
        assert_eq!(
            schema_line_target("#:schema ../../schema/variant.schema.json\n"),
            Some("variant.schema.json")
        );
        assert_eq!(schema_line_target("# nope\n"), None);
    }

    #[test]
    fn a_strength_names_both_of_its_forms() {
        let head = "#:schema ../schema/variant.schema.json\nid = \"v\"\nname = \"V\"\n\
                    players = { min = 2, max = 5 }\nsets = [{ path = \"x.toml\" }]\n";
        let messages = |strength: &str| {
            let text =
                format!("{head}followers = [{{ id = \"m\", count = 1, strength = {strength} }}]\n");
            let (_, d) = parse_variant(Source::new("v.toml", text));
            d.into_iter()
                .map(|d| (d.message, d.notes))
                .collect::<Vec<_>>()
        };
        let too_big = messages("20");
        assert_eq!(too_big.len(), 1, "{too_big:?}");
        assert!(
            too_big[0]
                .0
                .contains("expected an integer from 0 to 10 or one of `pennants`; found 20"),
            "{too_big:?}"
        );
        let typo = messages("\"pennant\"");
        assert_eq!(typo.len(), 1, "{typo:?}");
        assert!(
            typo[0].1.contains(&"did you mean `pennants`?".to_string()),
            "{typo:?}"
        );
        assert!(messages("\"pennants\"").is_empty());
        assert!(messages("2").is_empty());
    }
}
