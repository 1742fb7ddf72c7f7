//! Rendering diagnostics for people (source excerpts via codespan-reporting) and for programs
//! (one JSON array). Colour is the caller's choice: pass a colour-capable writer only when the
//! output is a terminal.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::WriteColor, Config};

use crate::diag::{Diagnostic, Severity};
use crate::load::MAX_FILE_BYTES;

pub use codespan_reporting::term::termcolor;

/// Render diagnostics with source excerpts, then the summary line, to `out`.
///
/// Source text is read from the diagnostics' files (bounded, lossy UTF-8); a diagnostic whose
/// file or span cannot be shown is rendered without an excerpt, naming its file in a note.
pub fn render_human(
    diags: &[Diagnostic],
    files_checked: usize,
    out: &mut dyn WriteColor,
) -> std::io::Result<()> {
    let mut files = SimpleFiles::new();
    let mut ids: BTreeMap<PathBuf, Option<usize>> = BTreeMap::new();
    let config = Config::default();
    for d in diags {
        let id = *ids.entry(d.file.clone()).or_insert_with(|| {
            read_lossy(&d.file).map(|text| files.add(d.file.display().to_string(), text))
        });
        let cs = to_codespan(d, id, &files);
        if term::emit(out, &config, &files, &cs).is_err() {
            // Fall back to a plain line (e.g. the file changed under us).
            writeln!(
                out,
                "{}: {}[{}]: {}",
                position(d),
                severity_word(d.severity),
                d.code.as_str(),
                d.message
            )?;
        }
    }
    writeln!(out, "{}", summary(diags, files_checked))
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
        diags.iter().map(|d| d.file.as_path()).collect();
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

/// The diagnostics as one pretty-printed JSON array of objects with the keys `code`,
/// `severity`, `message`, `file`, `line`, `column`, and `rule` / `notes` when present.
pub fn to_json(diags: &[Diagnostic]) -> String {
    serde_json::to_string_pretty(diags).unwrap_or_else(|_| "[]".to_string())
}

fn read_lossy(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() > MAX_FILE_BYTES {
        return None;
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn position(d: &Diagnostic) -> String {
    if d.line == 0 {
        d.file.display().to_string()
    } else {
        format!("{}:{}:{}", d.file.display(), d.line, d.column)
    }
}

fn to_codespan(
    d: &Diagnostic,
    file_id: Option<usize>,
    files: &SimpleFiles<String, String>,
) -> CsDiagnostic<usize> {
    let severity = match d.severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
    };
    let mut cs = CsDiagnostic::new(severity)
        .with_code(d.code.as_str())
        .with_message(d.message.clone());
    let label = match (file_id, &d.span) {
        (Some(id), Some(span)) => files.get(id).ok().and_then(|f| {
            let text = f.source();
            let start = span.start.min(text.len());
            let mut end = span.end.clamp(start, text.len());
            if !text.is_char_boundary(start) {
                return None;
            }
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            Some(Label::primary(id, start..end))
        }),
        _ => None,
    };
    let mut notes = Vec::new();
    match label {
        Some(l) => cs = cs.with_labels(vec![l]),
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
        assert_eq!(summary(std::slice::from_ref(&w), 1), "ok: 1 file, 1 warning");
        let e = Diagnostic::file_level(Code::Io, Path::new("b.toml"), "y");
        assert_eq!(
            summary(&[w, e.clone(), e], 2),
            "2 errors, 1 warning in 2 files (2 checked)"
        );
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
    fn unreadable_file_renders_without_excerpt() {
        let d = Diagnostic::file_level(Code::Io, Path::new("/nonexistent/x.toml"), "cannot read");
        let s = render_to_string(&[d], 0);
        assert!(s.contains("error[io]: cannot read"), "{s}");
        assert!(s.contains("in /nonexistent/x.toml"), "{s}");
    }
}
