//! Diagnostics: every problem found in the data, with a stable code, severity, position and the
//! rule id where one applies. Libraries collect them; only the CLI prints them.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Makes the data unusable; `validate` exits 1.
    Error,
    /// Suspicious but usable.
    Warning,
}

/// Stable diagnostic codes. Each has a kebab-case name (never renamed once released) and a
/// one-line meaning; `tests/fixtures/invalid/` holds one failing file per code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    // --- loading (owned by the loader) ---
    /// The file could not be read.
    Io,
    /// The file is not UTF-8.
    NotUtf8,
    /// The file is empty.
    Empty,
    /// The file is too large to be tegula data.
    TooLarge,
    /// TOML syntax error.
    Syntax,
    /// The document does not match the JSON Schema (wrong type, unknown key, missing key, ...).
    Schema,
    /// The file does not start with a `#:schema` line.
    MissingSchemaLine,
    // --- topology and references (owned by the compiler) ---
    /// Two things of one kind share an id.
    DuplicateId,
    /// A reference names nothing.
    DanglingReference,
    /// A tile gives both or neither of `sides` and `cells`.
    TileShape,
    /// A segment's `cell` is missing on a mega tile or given on a single-cell tile.
    SegmentCell,
    /// Two cells of a mega tile share coordinates.
    OverlappingCells,
    /// The cells of a mega tile are not edge-connected.
    DisconnectedCells,
    /// A side is covered wrongly (a city side not by exactly one city segment, ...).
    SideCoverage,
    /// A half-edge is claimed by two fields, or a field/road side's half by none.
    HalfCoverage,
    /// A segment touches something its kind cannot touch (a city with halves, a pennant on a road,
    /// a cloister with sides, ...).
    SegmentShape,
    /// Inner sides of two cells disagree in kind.
    InnerSideMismatch,
    /// A connection is wrong (segments not facing each other, different kinds, same cell, ...).
    BadConnection,
    /// Two segments face each other across an inner side with no connection saying joined or not.
    MissingConnection,
    /// A multi-cell feature is not connected.
    DisconnectedFeature,
    /// A field borders something that is not a city of the tile.
    BadBorder,
    /// More than one start tile, or a count out of range.
    BadCount,
    /// A rulebook fact does not hold for the compiled data.
    FactMismatch,
    /// A fact does not back its source: a rulebook fact without a `quote`, a reconstruction
    /// fact without a `derivation`.
    FactSource,
    /// A variant is inconsistent (player range, followers, overrides, ...).
    BadVariant,
    /// A follower type's keys do not fit together (sites, strength rule, after-score rule,
    /// corner scoring: AM-5 .. AM-11).
    BadFigure,
    /// A tile ability's keys do not fit together (trigger, conditions, effect, per tables,
    /// counts, tags; docs/ABILITIES.md).
    BadAbility,
    /// The open pool of a variant is inconsistent (tag, thresholds, gains; W-1 .. W-4, W-30).
    BadPool,
}

impl Code {
    /// Every code, in documentation order.
    pub const ALL: &'static [Code] = &[
        Code::Io,
        Code::NotUtf8,
        Code::Empty,
        Code::TooLarge,
        Code::Syntax,
        Code::Schema,
        Code::MissingSchemaLine,
        Code::DuplicateId,
        Code::DanglingReference,
        Code::TileShape,
        Code::SegmentCell,
        Code::OverlappingCells,
        Code::DisconnectedCells,
        Code::SideCoverage,
        Code::HalfCoverage,
        Code::SegmentShape,
        Code::InnerSideMismatch,
        Code::BadConnection,
        Code::MissingConnection,
        Code::DisconnectedFeature,
        Code::BadBorder,
        Code::BadCount,
        Code::FactMismatch,
        Code::FactSource,
        Code::BadVariant,
        Code::BadFigure,
        Code::BadAbility,
        Code::BadPool,
    ];

    /// Whether the compiler (topology, references, facts, variants) reports this code, as opposed
    /// to the loader (reading, syntax, schema). The compiler's codes are declared after the
    /// loader's, from [`Code::DuplicateId`] on.
    pub fn is_compiler_code(self) -> bool {
        self >= Code::DuplicateId
    }

    /// Stable kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Io => "io",
            Code::NotUtf8 => "not-utf8",
            Code::Empty => "empty-file",
            Code::TooLarge => "too-large",
            Code::Syntax => "toml-syntax",
            Code::Schema => "schema",
            Code::MissingSchemaLine => "missing-schema-line",
            Code::DuplicateId => "duplicate-id",
            Code::DanglingReference => "dangling-reference",
            Code::TileShape => "tile-shape",
            Code::SegmentCell => "segment-cell",
            Code::OverlappingCells => "overlapping-cells",
            Code::DisconnectedCells => "disconnected-cells",
            Code::SideCoverage => "side-coverage",
            Code::HalfCoverage => "half-coverage",
            Code::SegmentShape => "segment-shape",
            Code::InnerSideMismatch => "inner-side-mismatch",
            Code::BadConnection => "bad-connection",
            Code::MissingConnection => "missing-connection",
            Code::DisconnectedFeature => "disconnected-feature",
            Code::BadBorder => "bad-border",
            Code::BadCount => "bad-count",
            Code::FactMismatch => "fact-mismatch",
            Code::FactSource => "fact-source",
            Code::BadVariant => "bad-variant",
            Code::BadFigure => "bad-figure",
            Code::BadAbility => "bad-ability",
            Code::BadPool => "bad-pool",
        }
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
#[derive(Clone, Debug)]
pub struct Source {
    /// Path as given by the user.
    pub path: PathBuf,
    /// Full text.
    pub text: String,
    line_starts: Vec<usize>,
}

impl Source {
    /// Wrap a text.
    pub fn new(path: impl Into<PathBuf>, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// A diagnostic positioned at `span` of this file.
    pub fn diag(&self, code: Code, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        let (line, column) = self.line_col(span.start);
        Diagnostic {
            line,
            column,
            span: Some(span),
            ..Diagnostic::file_level(code, &self.path, message)
        }
    }
}

/// Serialise a path as a string, lossily where it is not UTF-8 (serde's own path serialiser
/// fails there, which would lose the whole report).
pub fn lossy_path<S: serde::Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
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
    /// File the problem is in (in JSON: a file name that is not UTF-8 is shown lossily).
    #[serde(serialize_with = "lossy_path")]
    pub file: PathBuf,
    /// 1-based line (0 when the problem has no position, e.g. an unreadable file).
    pub line: usize,
    /// 1-based column in characters (0 when there is no position).
    pub column: usize,
    /// Byte range in the file, when known.
    #[serde(skip)]
    pub span: Option<Range<usize>>,
    /// Rule id (RULES.md) the problem breaks, when one applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Extra explanation lines.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic about a whole file, with no position.
    pub fn file_level(code: Code, file: &Path, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            file: file.to_path_buf(),
            line: 0,
            column: 0,
            span: None,
            rule: None,
            notes: Vec::new(),
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

    /// Whether this is an error (as opposed to a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
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
    fn all_is_in_declaration_order_loader_codes_first() {
        assert!(Code::ALL.windows(2).all(|w| w[0] < w[1]));
        let first_compiler = Code::ALL.iter().position(|c| c.is_compiler_code());
        assert_eq!(first_compiler, Some(7));
        assert!(Code::ALL[..7].iter().all(|c| !c.is_compiler_code()));
        assert!(Code::ALL[7..].iter().all(|c| c.is_compiler_code()));
        assert!(!Code::MissingSchemaLine.is_compiler_code());
    }

    #[test]
    fn line_col_counts_characters() {
        let s = Source::new("x.toml", "ab\ncé d\n".to_string());
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(3), (2, 1));
        assert_eq!(s.line_col(7), (2, 4));
    }
}
