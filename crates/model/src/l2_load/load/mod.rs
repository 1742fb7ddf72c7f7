//! Loading: file → [`Source`] → TOML syntax check → JSON Schema check (errors mapped back to TOML
//! positions) → raw types with spans. Reports every problem, never panics, bounded in size.
//!
//! Steps, each stopping the file's loading when it fails:
//! 1. read at most [`MAX_FILE_BYTES`] (`io`, `too-large`), skip a leading byte-order mark
//!    ([`skip_bom`]), decode UTF-8 (`not-utf8`), refuse a file with no content (`empty-file`); a
//!    first line other than `#:schema …` is a `missing-schema-line` warning;
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

mod json;
mod locate;
mod messages;
mod schema_nav;
#[cfg(test)]
mod tests;

pub use crate::names::{did_you_mean, edit_distance, suggest, unknown_name};
use json::*;
use locate::*;
use messages::*;
use schema_nav::*;

pub use crate::caps::{MAX_FILE_BYTES, MAX_SCHEMA_ERRORS};

/// Deepest nesting the JSON conversion follows (toml_edit already refuses deeper input).
pub(super) const MAX_DEPTH: usize = 256;

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
    let mut bytes = read_capped(file, path)?;
    let bom = skip_bom(&mut bytes);
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
                    format!(
                        "the file is not UTF-8 text: invalid byte at offset {}",
                        at + bom
                    ),
                )
                .with_note("tegula data files must be saved as UTF-8"))
        }
    }
}

/// The bytes of `file` (opened from `path`), at most [`MAX_FILE_BYTES`]: reading stops one byte
/// past the cap, so a file that grew after its size was checked (or never ends) is refused
/// after 1 MiB + 1 bytes, not read to its end.
#[allow(clippy::result_large_err)] // as read_source
fn read_capped(file: impl Read, path: &Path) -> Result<Vec<u8>, Diagnostic> {
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
    Ok(bytes)
}

/// The UTF-8 byte-order mark some editors write at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Remove a leading byte-order mark from a data file's bytes; how many bytes were removed.
///
/// Every reader of data text (the loader, and the excerpts of the diagnostics) skips it the same
/// way, so that the kind of a file is told by its first real line and the positions of the
/// diagnostics (offsets into the text without the mark) are the same in both. An editor does not
/// count the mark as a column either.
pub fn skip_bom(bytes: &mut Vec<u8>) -> usize {
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
        BOM.len()
    } else {
        0
    }
}

pub(super) fn too_large(path: &Path, len: u64) -> Diagnostic {
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
pub(super) enum Kind {
    TileSet,
    Variant,
    /// A variant file that `extends` another, checked as written before the chain is merged:
    /// a key missing from one of its tables may come from a parent, so only the elements of its
    /// lists (replaced or appended whole) must have all their keys.
    VariantPart,
}

impl Kind {
    fn schema(self) -> &'static Json {
        match self {
            Kind::TileSet => schema::tileset_schema(),
            Kind::Variant | Kind::VariantPart => schema::variant_schema(),
        }
    }

    fn schema_file(self) -> &'static str {
        match self {
            Kind::TileSet => schema::TILESET_SCHEMA,
            Kind::Variant | Kind::VariantPart => schema::VARIANT_SCHEMA,
        }
    }

    fn validator(self) -> Option<&'static jsonschema::Validator> {
        static TILESET: OnceLock<Option<jsonschema::Validator>> = OnceLock::new();
        static VARIANT: OnceLock<Option<jsonschema::Validator>> = OnceLock::new();
        let cell = match self {
            Kind::TileSet => &TILESET,
            Kind::Variant | Kind::VariantPart => &VARIANT,
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
            Kind::Variant | Kind::VariantPart => "the variant file",
        }
    }
}

pub(super) fn parse_as<T: DeserializeOwned>(
    source: Source,
    kind: Kind,
) -> (Option<Loaded<T>>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let Some(doc) = check_document(&source, kind, &mut diags) else {
        return (None, diags);
    };
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

/// The errors of one file of an `extends` chain checked as written, before the chain is merged
/// (so that a merge never hides them): its syntax, and its shape against the variant schema, a
/// file that itself `extends` another as a [`Kind::VariantPart`]. Warnings are left to the
/// check of the merged document.
pub(crate) fn chain_file_errors(source: &Source, extends: bool) -> Vec<Diagnostic> {
    let kind = if extends {
        Kind::VariantPart
    } else {
        Kind::Variant
    };
    let mut diags = Vec::new();
    check_document(source, kind, &mut diags);
    diags.retain(Diagnostic::is_error);
    diags
}

/// Steps 1–3 on text already read: size, emptiness, the `#:schema` line, syntax, schema. The
/// parsed document when it passed them all.
fn check_document<'s>(
    source: &'s Source,
    kind: Kind,
    diags: &mut Vec<Diagnostic>,
) -> Option<ImDocument<&'s str>> {
    if source.text.len() > MAX_FILE_BYTES {
        diags.push(too_large(&source.path, source.text.len() as u64));
        return None;
    }
    if source.text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#')
    }) {
        diags.push(source.diag(
            Code::Empty,
            0..0,
            "the file is empty: it has no keys or tables, only whitespace or comments",
        ));
        return None;
    }
    if schema_line_target(&source.text).is_none() {
        diags.push(
            schema_line_diag(source, "the file does not start with a `#:schema` line").with_note(
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
            return None;
        }
    };
    let mut json = table_to_json(doc.as_table(), 0);
    let schema_diags = check_schema(source, &doc, &mut json, kind);
    if !schema_diags.is_empty() {
        diags.extend(schema_diags);
        return None;
    }
    Some(doc)
}

// ---------------------------------------------------------------------------------------------
// TOML → JSON
