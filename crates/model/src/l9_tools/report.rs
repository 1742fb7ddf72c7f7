//! Rendering diagnostics for people (source excerpts via codespan-reporting) and for programs
//! (JSON). Colour is the caller's choice: pass a colour-capable writer only when the output is a
//! terminal. The facts checked by a validation run are summarised here too ([`fact_summary`],
//! [`validation_to_json`]), so both output formats of `tegula validate` come from this module.

use std::collections::BTreeMap;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files;
use codespan_reporting::term::{self, termcolor::WriteColor, Config};

use crate::diag::{Diagnostic, Related, Severity};
use crate::facts::{FactOutcome, FactStatus};
use crate::load::MAX_FILE_BYTES;
use crate::raw::RawFactSource;

pub use codespan_reporting::term::termcolor;

/// Render diagnostics with source excerpts, then the summary line, to `out`.
///
/// Source text is read from the diagnostics' files (bounded, lossy UTF-8). Each excerpt shows
/// at most a few lines, and long lines are cut to a window around the problem, so hostile input
/// (a 1 MiB line) cannot balloon the output. A diagnostic whose file or span cannot be shown is
/// rendered without an excerpt, naming its file in a note.
pub fn render_human(
    diags: &[Diagnostic],
    files_checked: usize,
    out: &mut dyn WriteColor,
) -> std::io::Result<()> {
    render_human_with_facts(diags, files_checked, &[], out)
}

/// [`render_human`], with the [`fact_summary`] line of `facts` (when there are any) before the
/// summary line: `tegula validate`'s human output.
pub fn render_human_with_facts(
    diags: &[Diagnostic],
    files_checked: usize,
    facts: &[FactOutcome],
    out: &mut dyn WriteColor,
) -> std::io::Result<()> {
    let mut texts: BTreeMap<PathBuf, Option<String>> = BTreeMap::new();
    let config = Config::default();
    for d in diags {
        let excerpt = match &d.at.span {
            Some(span) => texts
                .entry(d.at.file.clone())
                .or_insert_with(|| read_lossy(&d.at.file))
                .as_deref()
                .and_then(|text| Excerpt::new(&d.at.file, text, span.clone(), d.at.line)),
            None => None,
        };
        let cs = to_codespan(d, excerpt.as_ref().map(|e| e.label.clone()));
        let files = Excerpts(excerpt);
        if term::emit(out, &config, &files, &cs).is_err() {
            // Fall back to a plain line.
            writeln!(
                out,
                "{}: {}[{}]: {}",
                position(d),
                severity_word(d.severity),
                d.code.as_str(),
                d.message
            )?;
        }
        for label in &d.labels {
            render_label(label, &mut texts, &config, out)?;
        }
    }
    if let Some(line) = fact_summary(facts) {
        writeln!(out, "{line}")?;
    }
    for line in reconstruction_lines(facts) {
        writeln!(out, "  {line}")?;
    }
    writeln!(out, "{}", summary(diags, files_checked))
}

/// A secondary location, shown after its diagnostic as a note with its own excerpt.
fn render_label(
    label: &Related,
    texts: &mut BTreeMap<PathBuf, Option<String>>,
    config: &Config,
    out: &mut dyn WriteColor,
) -> std::io::Result<()> {
    let excerpt = label.at.span.as_ref().and_then(|span| {
        texts
            .entry(label.at.file.clone())
            .or_insert_with(|| read_lossy(&label.at.file))
            .as_deref()
            .and_then(|text| Excerpt::new(&label.at.file, text, span.clone(), label.at.line))
    });
    let at = format!(
        "{}:{}:{}",
        label.at.file.display(),
        label.at.line,
        label.at.column
    );
    let mut cs = CsDiagnostic::note().with_message(label.message.clone());
    match excerpt.as_ref() {
        Some(e) => cs = cs.with_labels(vec![Label::secondary((), e.label.clone())]),
        None => cs = cs.with_notes(vec![format!("at {at}")]),
    }
    if term::emit(out, config, &Excerpts(excerpt), &cs).is_err() {
        writeln!(out, "{at}: note: {}", label.message)?;
    }
    Ok(())
}

/// Longest piece of one source line shown in an excerpt.
const MAX_LINE_CHARS: usize = 160;
/// Most lines shown in one excerpt.
const MAX_LINES: usize = 6;

/// The few source lines one diagnostic shows, clipped, with the real line and column numbers.
struct Excerpt {
    name: String,
    text: String,
    line_starts: Vec<usize>,
    /// Real 1-based number of the excerpt's first line.
    first_line: usize,
    /// Characters of the real first line cut off before the excerpt (minus the `…` shown).
    col_offset: usize,
    /// The label's range in `text`.
    label: Range<usize>,
}

impl Excerpt {
    fn new(path: &Path, text: &str, span: Range<usize>, line: usize) -> Option<Excerpt> {
        let start = span.start;
        if start > text.len() || !text.is_char_boundary(start) {
            return None;
        }
        let end = floor_boundary(text, span.end.clamp(start, text.len()));
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let first_line = if line > 0 {
            line
        } else {
            text[..line_start].matches('\n').count() + 1
        };
        let mut out = String::new();
        let mut col_offset = 0;
        let (mut label_start, mut label_end) = (None, None);
        let mut pos = line_start;
        for i in 0..MAX_LINES {
            let line_end = text[pos..].find('\n').map_or(text.len(), |k| pos + k);
            let line_end = if text[pos..line_end].ends_with('\r') {
                line_end - 1
            } else {
                line_end
            };
            let (ws, we) = if i == 0 && text[pos..line_end].chars().nth(MAX_LINE_CHARS).is_some() {
                let from = floor_boundary(text, start.saturating_sub(MAX_LINE_CHARS / 3).max(pos));
                (from, char_window_end(text, from, line_end))
            } else {
                (pos, char_window_end(text, pos, line_end))
            };
            if i > 0 {
                out.push('\n');
            }
            if ws > pos {
                out.push('…');
                col_offset = text[pos..ws].chars().count().saturating_sub(1);
            }
            let base = out.len();
            out.push_str(&text[ws..we]);
            if label_start.is_none() && (ws..=we).contains(&start) {
                label_start = Some(base + start - ws);
            }
            if label_start.is_some() && (ws..=we).contains(&end) {
                label_end = Some(base + end - ws);
            }
            if we < line_end {
                out.push('…');
            }
            if end <= line_end || line_end >= text.len() {
                break;
            }
            pos = text[line_end..]
                .find('\n')
                .map_or(text.len(), |k| line_end + k + 1);
        }
        let label_start = label_start?;
        let label_end = label_end.unwrap_or(out.len()).max(label_start);
        let line_starts = std::iter::once(0)
            .chain(out.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Some(Excerpt {
            name: path.display().to_string(),
            text: out,
            line_starts,
            first_line,
            col_offset,
            label: label_start..label_end,
        })
    }
}

/// End of a window of at most [`MAX_LINE_CHARS`] characters starting at `from`.
fn char_window_end(text: &str, from: usize, line_end: usize) -> usize {
    text[from..line_end]
        .char_indices()
        .nth(MAX_LINE_CHARS)
        .map_or(line_end, |(i, _)| from + i)
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// codespan's view of the (at most one) excerpt of the diagnostic being rendered.
struct Excerpts(Option<Excerpt>);

impl Excerpts {
    fn get(&self) -> Result<&Excerpt, files::Error> {
        self.0.as_ref().ok_or(files::Error::FileMissing)
    }
}

impl<'a> files::Files<'a> for Excerpts {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(&self.get()?.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(&self.get()?.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, files::Error> {
        let e = self.get()?;
        Ok(e.line_starts
            .partition_point(|&s| s <= byte_index)
            .saturating_sub(1))
    }

    fn line_number(&'a self, (): (), line_index: usize) -> Result<usize, files::Error> {
        Ok(self.get()?.first_line + line_index)
    }

    fn column_number(
        &'a self,
        (): (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let e = self.get()?;
        let range = self.line_range((), line_index)?;
        let col = files::column_index(&e.text, range, byte_index) + 1;
        Ok(if line_index == 0 {
            col + e.col_offset
        } else {
            col
        })
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, files::Error> {
        let e = self.get()?;
        let start = *e
            .line_starts
            .get(line_index)
            .ok_or(files::Error::LineTooLarge {
                given: line_index,
                max: e.line_starts.len().saturating_sub(1),
            })?;
        let end = e
            .line_starts
            .get(line_index + 1)
            .map_or(e.text.len(), |&next| next.saturating_sub(1));
        Ok(start..end.max(start))
    }
}

/// [`render_human`] into a string, without colour (tests, snapshots).
pub fn render_to_string(diags: &[Diagnostic], files_checked: usize) -> String {
    let mut buf = termcolor::NoColor::new(Vec::new());
    let _ = render_human(diags, files_checked, &mut buf);
    String::from_utf8_lossy(&buf.into_inner()).into_owned()
}

/// One line: "3 errors, 1 warning in 2 files (5 checked)" or "ok: 5 files, no problems".
pub fn summary(diags: &[Diagnostic], files_checked: usize) -> String {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    let files_with: std::collections::BTreeSet<&Path> =
        diags.iter().map(|d| d.at.file.as_path()).collect();
    let n = |k: usize, word: &str| format!("{k} {word}{}", if k == 1 { "" } else { "s" });
    if diags.is_empty() {
        format!("ok: {}, no problems", n(files_checked, "file"))
    } else if errors == 0 {
        format!(
            "ok: {}, {}",
            n(files_checked, "file"),
            n(warnings, "warning")
        )
    } else {
        format!(
            "{}, {} in {} ({} checked)",
            n(errors, "error"),
            n(warnings, "warning"),
            n(files_with.len(), "file"),
            files_checked
        )
    }
}

/// How many facts came from each source and how they fared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FactTally {
    /// Facts with `source = "rulebook"`.
    pub rulebook: usize,
    /// Facts with `source = "reconstruction"`.
    pub reconstruction: usize,
    /// Facts whose numbers all held.
    pub hold: usize,
    /// Facts with a number that did not hold (or naming no tile).
    pub fail: usize,
    /// Facts not checked because a tile they are about did not compile cleanly.
    pub unchecked: usize,
}

impl FactTally {
    /// Count `facts`.
    pub fn of(facts: &[FactOutcome]) -> FactTally {
        let mut t = FactTally::default();
        for f in facts {
            match f.source {
                RawFactSource::Rulebook => t.rulebook += 1,
                RawFactSource::Reconstruction => t.reconstruction += 1,
            }
            match f.status {
                FactStatus::Holds => t.hold += 1,
                FactStatus::Fails => t.fail += 1,
                FactStatus::Unchecked => t.unchecked += 1,
            }
        }
        t
    }
}

/// One line: "facts: 41 from the rulebook, 17 from the reconstruction, all hold", or "…; 1 does
/// not hold, 2 not checked". `None` when no fact was checked.
pub fn fact_summary(facts: &[FactOutcome]) -> Option<String> {
    if facts.is_empty() {
        return None;
    }
    let t = FactTally::of(facts);
    let head = format!(
        "facts: {} from the rulebook, {} from the reconstruction",
        t.rulebook, t.reconstruction
    );
    if t.fail == 0 && t.unchecked == 0 {
        let all = if facts.len() == 1 {
            "it holds"
        } else {
            "all hold"
        };
        return Some(format!("{head}, {all}"));
    }
    let mut parts = Vec::new();
    if t.fail > 0 {
        let verb = if t.fail == 1 { "does" } else { "do" };
        parts.push(format!("{} {verb} not hold", t.fail));
    }
    if t.unchecked > 0 {
        parts.push(format!("{} not checked", t.unchecked));
    }
    Some(format!("{head}; {}", parts.join(", ")))
}

/// One line per file that states facts the rulebook does not make (`source =
/// "reconstruction"`), so the human output labels them as the JSON `list` does: "not in the
/// rulebook (reconstruction): tiles/x.toml: W-18 (line 95), W-19 (line 120)". Files in order.
pub fn reconstruction_lines(facts: &[FactOutcome]) -> Vec<String> {
    let mut by_file: BTreeMap<&Path, Vec<String>> = BTreeMap::new();
    for f in facts
        .iter()
        .filter(|f| f.source == RawFactSource::Reconstruction)
    {
        by_file
            .entry(f.file.as_path())
            .or_default()
            .push(format!("{} (line {})", f.rule, f.line));
    }
    by_file
        .into_iter()
        .map(|(file, items)| {
            format!(
                "not in the rulebook (reconstruction): {}: {}",
                file.display(),
                items.join(", ")
            )
        })
        .collect()
}

/// `tegula validate --format json`: one pretty-printed JSON object with `diagnostics` (the array
/// of [`to_json`]) and `facts`: the [`FactTally`] counts (`rulebook`, `reconstruction`, `hold`,
/// `fail`, `unchecked`) and `list`, one object per fact with `file`, `line`, `column`, `rule`,
/// `tile` (when about one tile), `source` (`"rulebook"` / `"reconstruction"`) and `status`
/// (`"holds"` / `"fails"` / `"unchecked"`).
pub fn validation_to_json(diags: &[Diagnostic], facts: &[FactOutcome]) -> String {
    let tally = FactTally::of(facts);
    let value = serde_json::json!({
        "diagnostics": diags,
        "facts": {
            "rulebook": tally.rulebook,
            "reconstruction": tally.reconstruction,
            "hold": tally.hold,
            "fail": tally.fail,
            "unchecked": tally.unchecked,
            "list": facts,
        },
    });
    serde_json::to_string_pretty(&value).unwrap_or_else(|_| "{}".to_string())
}

/// The diagnostics as one pretty-printed JSON array of objects with the keys `code`,
/// `severity`, `message`, `file`, `line`, `column`, `end_line`, `end_column` (just after the
/// blamed text), and `rule` / `notes` / `labels` when present; each label (a secondary location,
/// "first used here") has `message`, `file`, `line`, `column`, `end_line`, `end_column`.
pub fn to_json(diags: &[Diagnostic]) -> String {
    serde_json::to_string_pretty(diags).unwrap_or_else(|_| "[]".to_string())
}

fn read_lossy(path: &Path) -> Option<String> {
    // Only regular files, bounded: opening a FIFO could block.
    let file = crate::open::open_regular(path, MAX_FILE_BYTES as u64).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() > MAX_FILE_BYTES {
        return None;
    }
    // Positions are in the text the loader read, which has no byte-order mark.
    crate::load::skip_bom(&mut bytes);
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn position(d: &Diagnostic) -> String {
    if d.at.line == 0 {
        d.at.file.display().to_string()
    } else {
        format!("{}:{}:{}", d.at.file.display(), d.at.line, d.at.column)
    }
}

fn to_codespan(d: &Diagnostic, label: Option<Range<usize>>) -> CsDiagnostic<()> {
    let severity = match d.severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
    };
    let mut cs = CsDiagnostic::new(severity)
        .with_code(d.code.as_str())
        .with_message(d.message.clone());
    let mut notes = Vec::new();
    match label {
        Some(range) => cs = cs.with_labels(vec![Label::primary((), range)]),
        None => notes.push(format!("in {}", position(d))),
    }
    if let Some(rule) = &d.rule {
        notes.push(format!("rule: {rule}"));
    }
    notes.extend(d.notes.iter().cloned());
    cs.with_notes(notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;

    #[test]
    fn summary_lines() {
        assert_eq!(summary(&[], 3), "ok: 3 files, no problems");
        let w = Diagnostic::file_level(Code::MissingSchemaLine, Path::new("a.toml"), "x");
        assert_eq!(
            summary(std::slice::from_ref(&w), 1),
            "ok: 1 file, 1 warning"
        );
        let e = Diagnostic::file_level(Code::Io, Path::new("b.toml"), "y");
        assert_eq!(
            summary(&[w, e.clone(), e], 2),
            "2 errors, 1 warning in 2 files (2 checked)"
        );
    }

    fn fact(source: RawFactSource, status: FactStatus) -> FactOutcome {
        FactOutcome {
            file: PathBuf::from("t.toml"),
            line: 1,
            column: 8,
            rule: "W-18".into(),
            tile: None,
            source,
            status,
        }
    }

    #[test]
    fn fact_summary_lines() {
        use FactStatus::*;
        use RawFactSource::*;
        assert_eq!(fact_summary(&[]), None);
        assert_eq!(
            fact_summary(&[fact(Rulebook, Holds)]).as_deref(),
            Some("facts: 1 from the rulebook, 0 from the reconstruction, it holds")
        );
        let some = [
            fact(Rulebook, Holds),
            fact(Rulebook, Fails),
            fact(Reconstruction, Holds),
            fact(Reconstruction, Unchecked),
        ];
        assert_eq!(
            fact_summary(&some).as_deref(),
            Some(
                "facts: 2 from the rulebook, 2 from the reconstruction; 1 does not hold, \
                 1 not checked"
            )
        );
        let v: serde_json::Value = serde_json::from_str(&validation_to_json(&[], &some)).unwrap();
        assert_eq!(v["diagnostics"], serde_json::json!([]));
        for (k, n) in [
            ("rulebook", 2),
            ("reconstruction", 2),
            ("hold", 2),
            ("fail", 1),
            ("unchecked", 1),
        ] {
            assert_eq!(v["facts"][k], n, "{k}");
        }
        assert_eq!(v["facts"]["list"][1]["status"], "fails");
        assert_eq!(v["facts"]["list"][2]["source"], "reconstruction");
        assert!(v["facts"]["list"][0].get("tile").is_none());
    }

    #[test]
    fn json_has_the_contract_keys() {
        let d = Diagnostic::file_level(Code::Io, Path::new("b.toml"), "y").with_rule("B-1");
        let v: serde_json::Value = serde_json::from_str(&to_json(&[d])).unwrap();
        let o = v[0].as_object().unwrap();
        for k in [
            "code", "severity", "message", "file", "line", "column", "rule",
        ] {
            assert!(o.contains_key(k), "{k}");
        }
        assert_eq!(o["code"], "io");
        assert_eq!(o["severity"], "error");
        assert!(!o.contains_key("notes"));
    }

    #[test]
    fn long_lines_are_cut_around_the_problem() {
        let dir = std::env::temp_dir().join(format!("tegula-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("long.toml");
        let mut text = String::from("a = 1\nx = [");
        text.push_str(&"1, ".repeat(100_000));
        let at = text.len();
        text.push_str("oops, 2]\n");
        std::fs::write(&path, &text).unwrap();
        let source = crate::Source::new(&path, text);
        let d = source.diag(Code::Schema, at..at + 4, "bad");
        let s = render_to_string(std::slice::from_ref(&d), 1);
        std::fs::remove_dir_all(&dir).ok();
        assert!(s.len() < 2_000, "{} bytes", s.len());
        assert!(s.contains(&format!("long.toml:2:{}", d.at.column)), "{s}");
        assert!(s.contains("oops, 2]"), "{s}");
        assert!(s.contains("2 │ …, 1, 1,"), "{s}");
    }

    #[test]
    fn multi_line_spans_show_their_lines() {
        let dir = std::env::temp_dir().join(format!("tegula-report-ml-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ml.toml");
        let text = "a = 1\n[[tile]]\nid = \"é\"\ncount = 2\n".to_string();
        std::fs::write(&path, &text).unwrap();
        let source = crate::Source::new(&path, text.clone());
        let d = source.diag(Code::Schema, 6..text.len() - 1, "whole tile");
        let s = render_to_string(std::slice::from_ref(&d), 1);
        std::fs::remove_dir_all(&dir).ok();
        assert!(s.contains("ml.toml:2:1"), "{s}");
        for line in ["2 │ ╭ [[tile]]", "3 │ │ id = \"é\"", "4 │ │ count = 2"] {
            assert!(s.contains(line), "{line} in\n{s}");
        }
    }

    #[test]
    fn unreadable_file_renders_without_excerpt() {
        let d = Diagnostic::file_level(Code::Io, Path::new("/nonexistent/x.toml"), "cannot read");
        let s = render_to_string(&[d], 0);
        assert!(s.contains("error[io]: cannot read"), "{s}");
        assert!(s.contains("in /nonexistent/x.toml"), "{s}");
    }
}
