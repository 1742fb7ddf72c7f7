//! Messages: each JSON Schema error said in plain words (what, where, what is allowed, a "did
//! you mean"), with the helpers that word them.

use super::*;

pub(super) fn check_schema(
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
        if kind == Kind::VariantPart && inherited_key(&error, json, &segs) {
            continue;
        }
        out.extend(describe(source, root, json, kind, &segs, &error));
    }
    out.sort_by(|a, b| {
        let sa = a.at.span.clone().unwrap_or(0..0);
        let sb = b.at.span.clone().unwrap_or(0..0);
        (sa.start, sa.end, &a.message).cmp(&(sb.start, sb.end, &b.message))
    });
    out.dedup_by(|a, b| a.at.span == b.at.span && a.message == b.message);
    fold_rule_ids(source, &mut out);
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

/// Whether `error` is a key missing from a table (not the file's own top level, not an element
/// of a list) of a file that extends another: tables merge key by key, so the parent may give it.
fn inherited_key(error: &jsonschema::ValidationError<'_>, json: &Json, segs: &[String]) -> bool {
    if !matches!(
        error.kind,
        jsonschema::error::ValidationErrorKind::Required { .. }
    ) {
        return false;
    }
    if segs.is_empty() {
        // `id` and `name`: every file names itself.
        return false;
    }
    let mut at = json;
    for seg in segs {
        at = match at {
            Json::Array(_) => return false,
            Json::Object(map) => match map.get(seg) {
                Some(next) => next,
                None => return false,
            },
            _ => return false,
        };
    }
    !at.is_array()
}

/// One JSON Schema error in plain words, at the TOML text it concerns (one diagnostic, or one
/// per unknown key).
pub(super) fn describe(
    source: &Source,
    root: &Table,
    json: &Json,
    kind: Kind,
    segs: &[String],
    error: &jsonschema::ValidationError<'_>,
) -> Vec<Diagnostic> {
    use jsonschema::error::ValidationErrorKind as K;
    let (node, span) = locate(&source.text, root, segs);
    let here = Here {
        source,
        span,
        note: (!segs.is_empty()).then(|| format!("at {}", toml_path(segs))),
    };
    let found = node.map_or("a value", Node::type_name);
    let subject = subject(json, kind, segs);
    let value = error.instance.as_ref();
    let mut out = match &error.kind {
        K::AdditionalProperties { unexpected } => {
            let owner = owner_noun(json, kind, segs);
            let allowed = allowed_keys(kind.schema(), segs);
            let key_span = |key: &str| node.and_then(|n| n.key_span(key));
            let one_key = |key: &String| here.unknown_key(key, key_span(key), &owner, &allowed);
            unexpected.iter().map(one_key).collect()
        }
        K::Required { property } => {
            let owner = owner_noun(json, kind, segs);
            let key = property.as_str().unwrap_or("?");
            here.one(format!("missing key `{key}` in {owner}"))
        }
        K::Enum { options } => {
            let options = options.as_array().cloned().unwrap_or_default();
            let message = format!(
                "{subject}: expected one of {}; found {}",
                code_list_json(&options),
                quoted(value)
            );
            with_suggestion(here.one(message), value, &options)
        }
        K::OneOfNotValid | K::AnyOf => {
            let consts = const_options(kind.schema(), segs);
            let message = forms_message(kind, segs, &subject, value, found, &consts);
            // A string close to an allowed one gets a "did you mean".
            if consts.is_empty() || !value.is_string() {
                here.one(message)
            } else {
                with_suggestion(here.one(message), value, &consts)
            }
        }
        other => {
            let message = bound_message(other, &subject, value, found);
            here.one(message.unwrap_or_else(|| format!("{subject}: {error}")))
        }
    };
    if outside_ability_language(segs, &error.kind) {
        for d in &mut out {
            d.notes.push(ABILITY_LIMITS.to_string());
        }
    }
    out
}

/// The note on a word the ability language does not have.
const ABILITY_LIMITS: &str = "an ability is said with a small fixed set of words; \
     docs/RULE-LANGUAGE.md, \"What it cannot say yet\", lists what is outside it";

/// Whether an error is about a word outside the ability language: an unknown key or an unknown
/// trigger, kind, count, owner or state word inside an `[[ability]]` table (not a number out of
/// range or a malformed rule id, which the language has).
fn outside_ability_language(
    segs: &[String],
    kind: &jsonschema::error::ValidationErrorKind,
) -> bool {
    use jsonschema::error::ValidationErrorKind as K;
    segs.first().is_some_and(|s| s == "ability")
        && matches!(
            kind,
            K::AdditionalProperties { .. } | K::Enum { .. } | K::OneOfNotValid | K::AnyOf
        )
}

/// Where a schema error is reported: its file, the span of the value and the TOML path note.
struct Here<'a> {
    source: &'a Source,
    span: Range<usize>,
    note: Option<String>,
}

impl Here<'_> {
    /// A `schema` diagnostic at `span` with the path note.
    fn diag(&self, span: Range<usize>, message: String) -> Diagnostic {
        let mut d = self.source.diag(Code::Schema, span, message);
        d.notes.extend(self.note.clone());
        d
    }

    /// The one diagnostic of an error, at the value.
    fn one(&self, message: String) -> Vec<Diagnostic> {
        vec![self.diag(self.span.clone(), message)]
    }

    /// An unknown key, at the key where it can be found, with the keys allowed there and the
    /// nearest of them.
    fn unknown_key(
        &self,
        key: &str,
        key_span: Option<Range<usize>>,
        owner: &str,
        allowed: &[String],
    ) -> Diagnostic {
        let mut message = format!("unknown key `{key}` in {owner}");
        if !allowed.is_empty() {
            message.push_str("; expected one of ");
            message.push_str(&code_list(allowed));
        }
        let mut d = self.diag(key_span.unwrap_or(self.span.clone()), message);
        if let Some(s) = suggest(key, allowed.iter().map(String::as_str)) {
            d.notes.push(format!("did you mean `{s}`?"));
        }
        d
    }
}

/// The message of a value outside a type, a bound, a length, a pattern or a constant; `None`
/// for the other kinds of error.
fn bound_message(
    kind: &jsonschema::error::ValidationErrorKind,
    subject: &str,
    value: &Json,
    found: &str,
) -> Option<String> {
    use jsonschema::error::ValidationErrorKind as K;
    let items = || value.as_array().map_or(0, Vec::len);
    Some(match kind {
        K::Type { kind: expected } => {
            format!(
                "{subject}: expected {}, found {found}",
                type_names(expected)
            )
        }
        K::Maximum { limit } => format!("{subject} must be at most {limit}, found {value}"),
        K::Minimum { limit } => format!("{subject} must be at least {limit}, found {value}"),
        K::ExclusiveMaximum { limit } => {
            format!("{subject} must be less than {limit}, found {value}")
        }
        K::ExclusiveMinimum { limit } => {
            format!("{subject} must be greater than {limit}, found {value}")
        }
        K::MaxItems { limit } => format!(
            "{subject} may have at most {limit} item{}, found {}",
            plural(*limit),
            items()
        ),
        K::MinItems { limit } => format!(
            "{subject} must have at least {limit} item{}, found {}",
            plural(*limit),
            items()
        ),
        K::MaxLength { limit } => format!(
            "{subject} may be at most {limit} character{} long, found {}",
            plural(*limit),
            value.as_str().map_or(0, |s| s.chars().count())
        ),
        K::MinLength { limit } => format!(
            "{subject} must be at least {limit} character{} long",
            plural(*limit)
        ),
        K::Pattern { pattern } => {
            format!(
                "{subject} {}; found {}",
                pattern_words(pattern),
                short(value)
            )
        }
        K::Constant { expected_value } => format!(
            "{subject}: expected `{}`; found {}",
            plain(expected_value),
            short(value)
        ),
        _ => return None,
    })
}

/// The message of a value matching none of a `oneOf` / `anyOf`'s forms: the constants it
/// allows (with the integer range beside them, when there is one), the range or a string (a
/// form such as a strength: a number or an expression), or a string expected.
fn forms_message(
    kind: Kind,
    segs: &[String],
    subject: &str,
    value: &Json,
    found: &str,
    consts: &[Json],
) -> String {
    if consts.is_empty() {
        return match integer_branch(kind.schema(), segs).filter(|_| !value.is_string()) {
            Some(range) => format!(
                "{subject}: expected {range} or a string; found {}",
                short(value)
            ),
            None => format!("{subject} does not match any allowed form; found {found}"),
        };
    }
    if !value.is_string() {
        if let Some(range) = integer_branch(kind.schema(), segs) {
            return format!(
                "{subject}: expected {range} or one of {}; found {}",
                code_list_json(consts),
                short(value)
            );
        }
        return format!("{subject}: expected a string, found {found}");
    }
    format!(
        "{subject}: expected one of {}; found {}",
        code_list_json(consts),
        quoted(value)
    )
}

/// Add a "did you mean" note when a string value is close to one of the allowed ones.
pub(super) fn with_suggestion(
    mut diags: Vec<Diagnostic>,
    value: &Json,
    options: &[Json],
) -> Vec<Diagnostic> {
    if let Some(word) = value.as_str() {
        if let Some(s) = suggest(word, options.iter().filter_map(Json::as_str)) {
            for d in &mut diags {
                d.notes.push(format!("did you mean `{s}`?"));
            }
        }
    }
    diags
}

pub(super) fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A short rendering of an offending value for messages.
pub(super) fn short(v: &Json) -> String {
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
pub(super) fn quoted(v: &Json) -> String {
    match v {
        Json::String(s) if s.chars().count() <= 60 && !s.contains('`') => format!("`{s}`"),
        other => short(other),
    }
}

pub(super) fn plain(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub(super) fn code_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn code_list_json(items: &[Json]) -> String {
    items
        .iter()
        .map(|s| format!("`{}`", plain(s)))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn type_names(kind: &jsonschema::error::TypeKind) -> String {
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

/// The start of the words for a malformed rule id (followed by [`crate::rules::RULE_ID_SHAPE`]).
const RULE_ID_WORDS: &str = "must be a rule id: ";

/// One malformed rule id written in several places (declared in a `[[rule]]` and cited by each
/// ability, fact or figure of the file) is one cause: its first diagnostic stays, with the other
/// places as a note, instead of one identical error per place.
fn fold_rule_ids(source: &Source, out: &mut Vec<Diagnostic>) {
    let found = |d: &Diagnostic| {
        let at = d.message.find(RULE_ID_WORDS)?;
        Some(d.message[at..].to_string())
    };
    let mut kept: Vec<Diagnostic> = Vec::with_capacity(out.len());
    for d in out.drain(..) {
        let same = found(&d).and_then(|f| kept.iter_mut().find(|k| found(k) == Some(f.clone())));
        match same {
            Some(first) => {
                let start = d.at.span.as_ref().map_or(0, |s| s.start);
                let (line, column) = source.line_col(start);
                let note = format!("the same id is also written at line {line}, column {column}");
                first.notes.push(note);
            }
            None => kept.push(d),
        }
    }
    *out = kept;
}

/// Plain words for the patterns used in `raw.rs`.
pub(super) fn pattern_words(pattern: &str) -> String {
    match pattern {
        r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$" => "must be an id: 1 to 64 letters, digits, `_`, `.` or `-`, starting with a letter or digit".to_string(),
        r"^[A-Z]+-[0-9]+[a-z]?$" => format!("{RULE_ID_WORDS}{}", crate::rules::RULE_ID_SHAPE),
        other => format!("must match the pattern `{other}`"),
    }
}

/// `tile[3].segments[0].kind`
pub(super) fn toml_path(segs: &[String]) -> String {
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
pub(super) fn subject(json: &Json, kind: Kind, segs: &[String]) -> String {
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
pub(super) fn owner_noun(json: &Json, kind: Kind, segs: &[String]) -> String {
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

pub(super) fn noun(kind: Kind, key: &str, top: bool) -> String {
    match (kind, key) {
        (_, "set") if top => "[set]".into(),
        (_, "tile") => "tile".into(),
        (_, "segments") => "segment".into(),
        (_, "cells") => "cell".into(),
        (Kind::Variant | Kind::VariantPart, "connections") if top => "connection override".into(),
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
