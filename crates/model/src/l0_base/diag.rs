//! Diagnostics: every problem found in the data, with a stable code, severity, position and the
//! rule id where one applies. Libraries collect them; only the CLI prints them.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::caps::MAX_SCHEMA_ERRORS;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Makes the data unusable; `validate` exits 1.
    Error,
    /// Suspicious but usable.
    Warning,
}

/// Which stage reports a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The loader: reading, syntax, schema.
    Loader,
    /// The compiler: topology, references, facts, variants.
    Compiler,
    /// The scenario checker (`tegula check`, and `validate` on scenario files).
    Scenario,
}

/// Declares [`Code`] once: each entry is its doc line, variant, stable kebab-case name and owner,
/// and `Code::ALL`, [`Code::as_str`], [`Code::owner`] and [`Code::from_name`] are generated from
/// that one list (no second list to keep in step).
macro_rules! codes {
    ($( $(#[doc = $doc:expr])+ $variant:ident = $name:literal, $owner:ident; )+) => {
        /// Stable diagnostic codes. Each has a kebab-case name (never renamed once released) and
        /// a one-line meaning; `tests/fixtures/invalid/` holds one failing file per code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $( $(#[doc = $doc])+ $variant, )+
        }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),+];

            /// Stable kebab-case name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)+
                }
            }

            /// The stage that reports this code.
            pub fn owner(self) -> Owner {
                match self {
                    $(Code::$variant => Owner::$owner,)+
                }
            }

            /// What the code means (its doc comment).
            pub fn meaning(self) -> &'static str {
                match self {
                    $(Code::$variant => concat!($($doc),+).trim_ascii(),)+
                }
            }
        }
    };
}

codes! {
    // --- loading ---
    /// The file could not be read.
    Io = "io", Loader;
    /// The file is not UTF-8.
    NotUtf8 = "not-utf8", Loader;
    /// The file is empty.
    Empty = "empty-file", Loader;
    /// The file is too large to be tegula data.
    TooLarge = "too-large", Loader;
    /// TOML syntax error.
    Syntax = "toml-syntax", Loader;
    /// The document does not match the JSON Schema (wrong type, unknown key, missing key, ...).
    Schema = "schema", Loader;
    /// The file does not start with a `#:schema` line.
    MissingSchemaLine = "missing-schema-line", Loader;
    // --- topology and references ---
    /// Two things of one kind share an id.
    DuplicateId = "duplicate-id", Compiler;
    /// A reference names nothing.
    DanglingReference = "dangling-reference", Compiler;
    /// A path in `extends` or `sets` is absolute, leads outside the variant's data root, or
    /// names a file that is not `.toml` (docs/FORMAT.md, "What a variant may reach").
    OutOfReach = "out-of-reach", Compiler;
    /// A tile gives both or neither of `sides` and `cells`.
    TileShape = "tile-shape", Compiler;
    /// A segment's `cell` is missing on a mega tile or given on a single-cell tile.
    SegmentCell = "segment-cell", Compiler;
    /// Two cells of a mega tile share coordinates.
    OverlappingCells = "overlapping-cells", Compiler;
    /// The cells of a mega tile are not edge-connected.
    DisconnectedCells = "disconnected-cells", Compiler;
    /// A side is covered wrongly (a city side not by exactly one city segment, ...).
    SideCoverage = "side-coverage", Compiler;
    /// A half-edge is claimed by two fields, or a field/road side's half by none.
    HalfCoverage = "half-coverage", Compiler;
    /// A segment touches something its kind cannot touch (a city with halves, a pennant on a
    /// road, a cloister with sides, ...).
    SegmentShape = "segment-shape", Compiler;
    /// Inner sides of two cells disagree in kind.
    InnerSideMismatch = "inner-side-mismatch", Compiler;
    /// A connection is wrong (segments not facing each other, different kinds, same cell, ...).
    BadConnection = "bad-connection", Compiler;
    /// Two segments face each other across an inner side with no connection saying joined or not.
    MissingConnection = "missing-connection", Compiler;
    /// A multi-cell feature is not connected.
    DisconnectedFeature = "disconnected-feature", Compiler;
    /// A field's stated border is not a city of its cell, or the geometry contradicts it or
    /// cannot show it (and no `hidden_borders` reason says why).
    BadBorder = "bad-border", Compiler;
    /// A field touches a city side at a corner of its cell but does not list it in `borders`.
    MissingBorder = "missing-border", Compiler;
    /// More than one start tile, or a count out of range.
    BadCount = "bad-count", Compiler;
    /// A rulebook fact does not hold for the compiled data.
    FactMismatch = "fact-mismatch", Compiler;
    /// A fact does not back its source: a rulebook fact without a `quote`, a reconstruction
    /// fact without a `derivation`.
    FactSource = "fact-source", Compiler;
    /// A rule id names no entry of the rule registry (`tegula rules`).
    UnknownRule = "unknown-rule", Compiler;
    /// A variant is inconsistent (player range, followers, overrides, ...).
    BadVariant = "bad-variant", Compiler;
    /// A follower type's keys do not fit together (sites, strength rule, after-score rule,
    /// corner scoring: AM-5 .. AM-11).
    BadFigure = "bad-figure", Compiler;
    /// A tile ability's keys do not fit together (trigger, conditions, effect, per tables,
    /// counts, tags; docs/RULE-LANGUAGE.md).
    BadAbility = "bad-ability", Compiler;
    /// A feature value expression (`[values]`, docs/FORMAT.md "Values") does not parse, names a
    /// tag no tile carries, counts what its kind lacks (`pennants` on a road, ...), or sets a
    /// value a `[scoring]` number also sets.
    BadValue = "bad-value", Compiler;
    /// A seat resource (`[[resource]]`, docs/FORMAT.md "Seat resources") is inconsistent: its
    /// gain amount does not parse, names a tag no tile carries or counts what its kind lacks,
    /// or its gain waits for a kind of feature that is never completed.
    BadResource = "bad-resource", Compiler;
    /// The open pool of a variant is inconsistent (tag, thresholds, gains; W-1 .. W-4, W-30).
    BadPool = "bad-pool", Compiler;
    /// A rule of the one form (`[[when]]`, docs/RULE-LANGUAGE.md "The one rule form") does not
    /// fit together: a key its event does not take, an effect without its keys or with two
    /// effect keys, a seat, `chosen` or `chooser` where the event or the offer gives it no
    /// meaning, a figure-step offer on another event, a `kind` option that is not both a
    /// resource and a counter, a value or test that does not parse.
    BadWhen = "bad-when", Compiler;
    /// A tile of a variant has an ability, but no player can own the tile (only the tiles of the
    /// open pool have an owner), so the ability would never act.
    UnownedAbility = "unowned-ability", Compiler;
    /// A tile ability can never score in its variant: its trigger never happens, a condition is
    /// never true, or its count is always 0 at its trigger (no tile or figure for it, a field
    /// is never complete, figures have left completed features; docs/RULE-LANGUAGE.md).
    NeverScores = "never-scores", Compiler;
    // --- scenarios ---
    /// A scenario's steps cannot be played as written (coordinates, seats, rotations, a discard
    /// with a follower, an own tile without a place, ...).
    BadScenario = "bad-scenario", Scenario;
    /// A scenario's expected events or scores are malformed (seats, points, counts, ...).
    BadExpectation = "bad-expectation", Scenario;
}

impl Code {
    /// Whether the compiler (topology, references, facts, variants) reports this code.
    pub fn is_compiler_code(self) -> bool {
        self.owner() == Owner::Compiler
    }

    /// The code called `name` (its [`Code::as_str`]).
    pub fn from_name(name: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == name)
    }

    /// Default severity.
    pub fn severity(self) -> Severity {
        match self {
            Code::MissingSchemaLine => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One loaded source file: its path and text, with a line index for positions.
///
/// A variant that `extends` others is read as one merged text built from pieces of the files of
/// its chain ([`crate::inherit`]); such a source keeps where each piece came from, and every
/// position it reports (lines, columns, diagnostics) is in the file the piece came from.
#[derive(Clone, Debug)]
pub struct Source {
    /// Path as given by the user.
    pub path: PathBuf,
    /// Full text.
    pub text: String,
    line_starts: Vec<usize>,
    /// Characters before every [`CHAR_MARK_BYTES`]-th byte: a column is then counted from the
    /// nearest mark, not from the start of its line (a 1 MiB line with thousands of problems
    /// would otherwise cost time quadratic in the line).
    char_marks: Vec<usize>,
    origins: Option<Arc<Origins>>,
}

/// Bytes between two entries of a [`Source`]'s character marks.
const CHAR_MARK_BYTES: usize = 256;

/// Characters that start in `bytes` (UTF-8: every byte but continuation bytes `10xxxxxx`).
/// Additive over any split of the bytes, so marks need not fall on character boundaries.
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// Where the pieces of a merged text came from.
#[derive(Debug)]
pub struct Origins {
    /// The files read, root of the chain first.
    pub files: Vec<Source>,
    /// The pieces, in text order.
    pub pieces: Vec<Piece>,
}

/// A run of merged text and its origin.
#[derive(Clone, Copy, Debug)]
pub struct Piece {
    /// Start in the merged text.
    pub at: usize,
    /// Length in bytes.
    pub len: usize,
    /// Index into [`Origins::files`].
    pub file: usize,
    /// Where it starts in that file.
    pub from: usize,
    /// Whether the text is a verbatim copy (offsets inside map one to one); otherwise it was
    /// written by the merge (a table header, `key = `) and all of it maps to `from`.
    pub exact: bool,
}

impl Source {
    /// Wrap a text.
    pub fn new(path: impl Into<PathBuf>, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut char_marks = vec![0];
        for chunk in text.as_bytes().chunks(CHAR_MARK_BYTES) {
            char_marks.push(char_marks[char_marks.len() - 1] + char_starts(chunk));
        }
        Source {
            path: path.into(),
            text,
            line_starts,
            char_marks,
            origins: None,
        }
    }

    /// A merged text (named after the last file of the chain) with the origin of its pieces.
    pub fn merged(path: impl Into<PathBuf>, text: String, origins: Origins) -> Self {
        Source {
            origins: Some(Arc::new(origins)),
            ..Source::new(path, text)
        }
    }

    /// The files a merged text was built from (root first); `None` for a plain file.
    pub fn origins(&self) -> Option<&Origins> {
        self.origins.as_deref()
    }

    /// The file a byte offset of this text comes from, and the offset in that file.
    pub fn origin(&self, offset: usize) -> (&Source, usize) {
        let Some(o) = &self.origins else {
            return (self, offset);
        };
        let i = o.pieces.partition_point(|p| p.at <= offset);
        let Some(p) = i.checked_sub(1).and_then(|i| o.pieces.get(i)) else {
            // Before the first piece: the start of the last file (the one the user named).
            return o.files.last().map_or((self, 0), |f| (f, 0));
        };
        let within = if p.exact {
            (offset - p.at).min(p.len)
        } else {
            0
        };
        (&o.files[p.file], p.from + within)
    }

    /// 1-based line and column (in characters) of a byte offset, in the file it comes from.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let (src, offset) = self.origin(offset);
        src.local_line_col(offset)
    }

    fn local_line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let col = if self.text.is_char_boundary(offset) {
            self.chars_before(offset) - self.chars_before(start)
        } else {
            offset - start
        };
        (line + 1, col + 1)
    }

    /// Characters before byte `offset` (at most the text's length), from the nearest mark.
    fn chars_before(&self, offset: usize) -> usize {
        let mark = offset / CHAR_MARK_BYTES;
        let from = mark * CHAR_MARK_BYTES;
        self.char_marks[mark] + char_starts(&self.text.as_bytes()[from..offset])
    }

    /// The file `span` of this text comes from and the span within that file. A span that
    /// leaves its piece of a merged text keeps only its start in the original file.
    fn local_span(&self, span: Range<usize>) -> (&Source, Range<usize>) {
        let (src, start) = self.origin(span.start);
        let (end_src, end) = match span.end.checked_sub(1) {
            Some(last) if span.end > span.start => {
                let (f, e) = self.origin(last);
                (f, e + 1)
            }
            _ => (src, start),
        };
        let end = if std::ptr::eq(src, end_src) && end >= start {
            end
        } else {
            start
        };
        (src, start..end)
    }

    /// A diagnostic positioned at `span` of this file.
    pub fn diag(&self, code: Code, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            at: self.locate(span),
            ..Diagnostic::file_level(code, &self.path, message)
        }
    }

    /// A secondary location at `span` of this file, labelled `message` ("first used here").
    pub fn label(&self, span: Range<usize>, message: impl Into<String>) -> Related {
        Related {
            message: message.into(),
            at: self.locate(span),
        }
    }

    /// Where `span` of this text is, in the file it comes from.
    pub fn locate(&self, span: Range<usize>) -> Location {
        let (src, span) = self.local_span(span);
        let (line, column) = src.local_line_col(span.start);
        let (end_line, end_column) = src.local_line_col(span.end);
        Location {
            file: src.path.clone(),
            line,
            column,
            end_line,
            end_column,
            span: Some(span),
        }
    }
}

/// Where a diagnostic or one of its secondary locations points: a file and, when known, a range
/// of it (1-based lines and columns in characters; 0 when there is no position).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Location {
    /// File it is in (in JSON: lossily where the name is not UTF-8).
    #[serde(serialize_with = "lossy_path")]
    pub file: PathBuf,
    /// 1-based line (0 when there is no position, e.g. an unreadable file).
    pub line: usize,
    /// 1-based column in characters (0 when there is no position).
    pub column: usize,
    /// 1-based line where the place ends (0 when there is no position).
    pub end_line: usize,
    /// 1-based column (in characters) just after the place's end (0 when there is no position).
    pub end_column: usize,
    /// Byte range in the file, when known.
    #[serde(skip)]
    pub span: Option<Range<usize>>,
}

impl Location {
    /// A whole file, with no position.
    pub fn file(path: &Path) -> Location {
        Location {
            file: path.to_path_buf(),
            ..Location::default()
        }
    }
}

/// A secondary location of a diagnostic: another place the problem involves, with a label
/// ("first used here", "the city side").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Related {
    /// What this place is.
    pub message: String,
    /// Where it is.
    #[serde(flatten)]
    pub at: Location,
}

/// Serialise a path as a string, lossily where it is not UTF-8 (serde's own path serialiser
/// fails there, which would lose the whole report).
pub fn lossy_path<S: serde::Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
}

/// Serialise paths as strings, lossily where they are not UTF-8 (see [`lossy_path`]).
pub fn lossy_paths<S: serde::Serializer>(paths: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(paths.iter().map(|p| p.to_string_lossy()))
}

/// One problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable code.
    pub code: Code,
    /// Severity.
    pub severity: Severity,
    /// Short message.
    pub message: String,
    /// Where the problem is: the file and, when known, the text to blame.
    #[serde(flatten)]
    pub at: Location,
    /// Rule id (the rule registry, `tegula rules ID`) the problem breaks, when one applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Extra explanation lines.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Secondary locations ("first used here").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<Related>,
}

impl Diagnostic {
    /// A diagnostic about a whole file, with no position.
    pub fn file_level(code: Code, file: &Path, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            at: Location::file(file),
            rule: None,
            notes: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// Attach the rule id this problem breaks.
    pub fn with_rule(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }

    /// Attach an explanation line.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Attach a secondary location (see [`Source::label`]).
    pub fn with_label(mut self, label: Related) -> Self {
        self.labels.push(label);
        self
    }

    /// Whether this is an error (as opposed to a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// At most [`MAX_SCHEMA_ERRORS`] diagnostics per file, as the schema check caps its own: a
/// hostile file with tens of thousands of problems must not flood the output. The first ones of
/// each file are kept in order, and its first error even past the cap (a file with errors never
/// looks clean); the last error kept (or the last diagnostic, if none is an error) of a file
/// with more notes how many are not shown.
pub fn cap_per_file(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    /// Per file: diagnostics kept, left out, whether an error was kept, where the note goes.
    #[derive(Default)]
    struct Tally {
        kept: usize,
        left_out: usize,
        error: bool,
        note_at: usize,
    }
    let mut tally: HashMap<PathBuf, Tally> = HashMap::new();
    let mut out = Vec::with_capacity(diags.len().min(MAX_SCHEMA_ERRORS));
    for d in diags {
        let t = tally.entry(d.at.file.clone()).or_default();
        let first_error = d.is_error() && !t.error;
        if t.kept >= MAX_SCHEMA_ERRORS && !first_error {
            t.left_out += 1;
            continue;
        }
        t.kept += 1;
        if d.is_error() || !t.error {
            t.note_at = out.len();
        }
        t.error |= d.is_error();
        out.push(d);
    }
    for t in tally.values().filter(|t| t.left_out > 0) {
        out[t.note_at].notes.push(format!(
            "{} more diagnostics not shown (at most {MAX_SCHEMA_ERRORS} per file)",
            t.left_out
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_kebab_case() {
        let mut names: Vec<_> = Code::ALL.iter().map(|c| c.as_str()).collect();
        assert!(names.iter().all(|n| n
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')));
        names.sort();
        let n = names.len();
        names.dedup();
        assert_eq!(n, names.len());
    }

    #[test]
    fn all_is_in_declaration_order_grouped_by_owner() {
        assert!(Code::ALL.windows(2).all(|w| w[0] < w[1]));
        let owners: Vec<Owner> = Code::ALL.iter().map(|c| c.owner()).collect();
        let mut groups = owners.clone();
        groups.dedup();
        assert_eq!(groups, [Owner::Loader, Owner::Compiler, Owner::Scenario]);
        assert!(!Code::MissingSchemaLine.is_compiler_code());
        assert!(Code::DuplicateId.is_compiler_code());
        assert!(!Code::BadScenario.is_compiler_code());
    }

    #[test]
    fn names_and_meanings_come_from_the_one_list() {
        for &c in Code::ALL {
            assert_eq!(Code::from_name(c.as_str()), Some(c));
            assert!(!c.meaning().is_empty() && !c.meaning().starts_with(' '));
        }
        assert_eq!(Code::Io.meaning(), "The file could not be read.");
        assert_eq!(Code::from_name("no-such-code"), None);
    }

    #[test]
    fn diag_and_label_carry_end_positions() {
        let s = Source::new("x.toml", "ab\ncd ef\n".to_string());
        let d = s
            .diag(Code::Schema, 3..8, "m")
            .with_label(s.label(0..2, "first"));
        let at = &d.at;
        assert_eq!(
            (at.line, at.column, at.end_line, at.end_column),
            (2, 1, 2, 6)
        );
        let l = &d.labels[0].at;
        assert_eq!((l.line, l.column, l.end_line, l.end_column), (1, 1, 1, 3));
    }

    #[test]
    fn line_col_counts_characters() {
        let s = Source::new("x.toml", "ab\ncé d\n".to_string());
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(3), (2, 1));
        assert_eq!(s.line_col(7), (2, 4));
    }

    /// The cap keeps the first diagnostics of each file, and a file's first error even past it,
    /// noting on the last error kept how many are left out.
    #[test]
    fn the_cap_keeps_each_files_first_error_and_counts_the_rest() {
        let warn = |f: &str| Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::file_level(Code::Schema, Path::new(f), "w")
        };
        let mut diags: Vec<Diagnostic> = (0..MAX_SCHEMA_ERRORS + 5).map(|_| warn("a")).collect();
        diags.push(Diagnostic::file_level(Code::Schema, Path::new("a"), "e"));
        diags.push(warn("b"));
        let capped = cap_per_file(diags);
        assert_eq!(capped.len(), MAX_SCHEMA_ERRORS + 2);
        let error = &capped[MAX_SCHEMA_ERRORS];
        assert!(error.is_error());
        let note = format!("5 more diagnostics not shown (at most {MAX_SCHEMA_ERRORS} per file)");
        assert_eq!(error.notes, [note]);
        assert!(capped[MAX_SCHEMA_ERRORS + 1].notes.is_empty());
    }

    /// Columns counted from the character marks equal counting from the line's start, on long
    /// lines of mixed 1- to 4-byte characters (marks fall inside characters).
    #[test]
    fn columns_from_marks_match_counting_characters() {
        let line: String = "aé€𝄞".repeat(300);
        let text = format!("x\n{line}\n{line}");
        let s = Source::new("x.toml", text.clone());
        let start = text.rfind('\n').unwrap() + 1;
        for (offset, _) in text
            .char_indices()
            .filter(|(i, _)| i % 7 == 0 || *i >= start)
        {
            let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
            let want = text[line_start..offset].chars().count() + 1;
            assert_eq!(s.line_col(offset).1, want, "offset {offset}");
        }
    }
}
