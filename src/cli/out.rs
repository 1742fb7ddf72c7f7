//! Output helpers shared by the verbs: atomic file writes, stdout-or-file output, and
//! diagnostics on stderr.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use tegula_model::diag::Diagnostic;

/// Write `text` to `path` atomically: a temporary file (`.NAME.tmp-PID`) in the same folder,
/// flushed to disk, then renamed over `path`. The temporary file is removed on failure.
pub(crate) fn write_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("`{}` is not a file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write `{}`", tmp.display()));
    }
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write `{}`", path.display()));
    }
    Ok(())
}

/// Write `text` to the file `out` atomically (see [`write_atomic`]), or to stdout when `out` is
/// `None`.
pub(crate) fn emit(out: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match out {
        Some(path) => write_atomic(path, text),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes())?;
            stdout.flush()?;
            Ok(())
        }
    }
}

/// Print diagnostics with source excerpts (as `tegula validate` does) to stderr, if there are
/// any. `files` is the number of files checked, for the summary line.
pub(crate) fn print_diags(diags: &[Diagnostic], files: usize) {
    if !diags.is_empty() {
        eprint!("{}", tegula_model::report::render_to_string(diags, files));
    }
}
