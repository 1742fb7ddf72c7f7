//! File safety for every verb (docs/HOSTILE-INPUT.md): inputs are checked for type and size
//! before a byte is read and opened without blocking; game logs are read line by line with a
//! line-length cap; outputs are written through an exclusively created temporary file with an
//! unpredictable name, renamed over the target, which must be a regular file other than the
//! command's inputs and keeps its permissions. The inputs are every file the process opened
//! through [`open_regular`] (`tegula_model::open::record_inputs`, turned on by `main`): the
//! variant, its whole `extends` chain, its tile sets and the files of its set folders, the log,
//! whatever a verb reads, so no verb can forget one.

use std::fmt;
use std::fs::{File, Metadata, OpenOptions};

use std::io::{BufRead, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use tegula_model::open::{is_input, open_own_output, open_regular};

/// Largest data file (TOML) read: the loader's own cap, so both refuse the same files.
pub(crate) const MAX_INPUT_BYTES: u64 = tegula_model::load::MAX_FILE_BYTES as u64;

/// Longest line of a game log. Real lines are a few hundred bytes (the setup line lists the
/// pile: a few KiB).
pub(crate) const MAX_LOG_LINE_BYTES: usize = 1 << 20;

/// The UTF-8 byte-order mark.
const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

/// An input that cannot be used, located: the file and, for logs, the 1-based line.
#[derive(Debug)]
pub(crate) struct InputError {
    /// The file.
    pub path: PathBuf,
    /// The line, when the problem is in one.
    pub line: Option<usize>,
    /// Why, in words.
    pub reason: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}: line {l}: {}", self.path.display(), self.reason),
            None => write!(f, "cannot read `{}`: {}", self.path.display(), self.reason),
        }
    }
}

impl std::error::Error for InputError {}

fn input_error(path: &Path, reason: impl Into<String>) -> InputError {
    InputError {
        path: path.to_path_buf(),
        line: None,
        reason: reason.into(),
    }
}

/// Open a regular file of at most `max` bytes, without blocking (see
/// [`tegula_model::open::open_regular`]: the loader reads through the same function).
pub(crate) fn open_input(path: &Path, max: u64) -> Result<File, InputError> {
    open_regular(path, max).map_err(|e| input_error(path, e.to_string()))
}

/// Read a data file as UTF-8 text, bounded by [`MAX_INPUT_BYTES`] (checked before reading and
/// while reading, should the file grow).
pub(crate) fn read_input(path: &Path) -> Result<String, InputError> {
    read_text(path, open_input(path, MAX_INPUT_BYTES)?)
}

/// Read the current contents of a file about to be replaced (to compare them with the new
/// ones), bounded like [`read_input`]; it does not count as an input.
pub(crate) fn read_own_output(path: &Path) -> Result<String, InputError> {
    let file =
        open_own_output(path, MAX_INPUT_BYTES).map_err(|e| input_error(path, e.to_string()))?;
    read_text(path, file)
}

fn read_text(path: &Path, file: File) -> Result<String, InputError> {
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| input_error(path, e.to_string()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(input_error(
            path,
            format!("the file is too large: it grew past {MAX_INPUT_BYTES} bytes while read"),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        input_error(path, format!("not UTF-8 text: invalid byte at offset {at}"))
    })
}

/// The lines of a game log, read one at a time: each at most [`MAX_LOG_LINE_BYTES`] and UTF-8,
/// numbered from 1, a leading byte-order mark skipped. Reading stops at the first error, so the rest of a hostile file is never
/// read.
pub(crate) struct LogLines {
    path: PathBuf,
    reader: BufReader<File>,
    line: usize,
}

impl LogLines {
    /// Open the log at `path` (a regular file; its size is bounded per line, not in total).
    pub(crate) fn open(path: &Path) -> Result<Self, InputError> {
        let file = open_input(path, u64::MAX)?;
        Ok(LogLines {
            path: path.to_path_buf(),
            reader: BufReader::new(file),
            line: 0,
        })
    }

    fn error(&self, reason: impl Into<String>) -> InputError {
        InputError {
            path: self.path.clone(),
            line: Some(self.line),
            reason: reason.into(),
        }
    }

    /// The next line (without its line ending) with its number, or `None` at the end.
    pub(crate) fn next_line(&mut self) -> Result<Option<(usize, String)>, InputError> {
        self.line += 1;
        let mut bytes = Vec::new();
        let cap = MAX_LOG_LINE_BYTES as u64 + 1;
        let n = (&mut self.reader)
            .take(cap)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| self.error(e.to_string()))?;
        if n == 0 {
            return Ok(None);
        }
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        } else if n as u64 == cap {
            return Err(self.error(format!(
                "the line is longer than {MAX_LOG_LINE_BYTES} bytes"
            )));
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        // A byte-order mark some editors write at the start of a UTF-8 file is no content.
        if self.line == 1 && bytes.starts_with(UTF8_BOM) {
            bytes.drain(..UTF8_BOM.len());
        }
        String::from_utf8(bytes)
            .map(|t| Some((self.line, t)))
            .map_err(|_| self.error("not UTF-8 text"))
    }
}

/// Why `path` may not be replaced, if it may not: it exists but is no regular file, or it is
/// one of the command's inputs (the same file by device and inode, whatever the path's
/// spelling).
fn target_refusal(path: &Path, meta: &Metadata) -> Option<String> {
    if meta.is_dir() {
        return Some("it is a folder".into());
    }
    if !meta.is_file() {
        return Some("it is not a regular file (a device, FIFO or socket)".into());
    }
    is_input(meta).then(|| format!("`{}` is one of this command's inputs", path.display()))
}

/// 64 unpredictable bits for a temporary name: the standard library's per-process random hash
/// keys, mixed with the time.
fn random_bits() -> u64 {
    use std::hash::{BuildHasher as _, Hasher as _};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(now);
    h.write_u32(std::process::id());
    h.finish()
}

/// Longest file name the file systems take (`NAME_MAX` on Linux and the BSDs).
const NAME_MAX: usize = 255;

/// Bytes a temporary name adds to the start of the target's name: `.`, then `.` and 16 hex
/// digits and `.tmp`.
const TEMPORARY_EXTRA: usize = 1 + 1 + 16 + 4;

/// The name of a temporary file for the target named `name`: `.NAME.<16 hex>.tmp`, `NAME` cut
/// short so that the whole fits in [`NAME_MAX`] bytes (any valid target name works; the random
/// part keeps it unpredictable, the exclusive creation keeps it ours).
fn temporary_name(name: &std::ffi::OsStr, bits: u64) -> std::ffi::OsString {
    let keep = NAME_MAX - TEMPORARY_EXTRA;
    #[cfg(unix)]
    let stem = {
        use std::os::unix::ffi::OsStrExt as _;
        let bytes = name.as_bytes();
        std::ffi::OsStr::from_bytes(&bytes[..bytes.len().min(keep)]).to_os_string()
    };
    #[cfg(not(unix))]
    let stem = {
        let lossy = name.to_string_lossy();
        let mut end = lossy.len().min(keep);
        while !lossy.is_char_boundary(end) {
            end -= 1;
        }
        std::ffi::OsString::from(&lossy[..end])
    };
    let mut out = std::ffi::OsString::from(".");
    out.push(stem);
    out.push(format!(".{bits:016x}.tmp"));
    out
}

/// Create a new temporary file next to `name` in `dir`, exclusively (never through an existing
/// file or symbolic link), under a random name.
fn create_temporary(dir: &Path, name: &std::ffi::OsStr) -> std::io::Result<(PathBuf, File)> {
    let mut last = None;
    for _ in 0..16 {
        let tmp = dir.join(temporary_name(name, random_bits()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// Write `bytes` to `path` atomically: refused when `path` exists and is not a regular file or
/// is one of the command's inputs (any file read so far); otherwise written to an exclusively created temporary file in the same
/// folder, flushed to disk, given the replaced file's permissions, and renamed over `path`.
/// The temporary file is removed on failure.
pub(crate) fn write_output_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let cannot = |why: String| anyhow::anyhow!("cannot write `{}`: {why}", path.display());
    let existing = std::fs::metadata(path).ok();
    if let Some(why) = existing.as_ref().and_then(|m| target_refusal(path, m)) {
        return Err(cannot(why));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| cannot("it is not a file name".into()))?;
    let (tmp, mut file) = create_temporary(dir, name).map_err(|e| cannot(e.to_string()))?;
    let written = file
        .write_all(bytes)
        .and_then(|()| match &existing {
            Some(m) => file.set_permissions(m.permissions()),
            None => Ok(()),
        })
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(cannot(e.to_string()));
    }
    Ok(())
}
