//! Standard output and standard error for every verb: every write is checked (a closed pipe or a
//! full disk becomes an error that `main` turns into its exit code, never a panic), and terminal
//! control characters in the text — user data such as tile names and file names — are escaped,
//! so no file can move the cursor, clear the screen or retitle the terminal.

use std::borrow::Cow;
use std::fmt;
use std::io::Write as _;
use std::path::Path;

use tegula_model::diag::Diagnostic;
use tegula_model::report::termcolor::{ColorSpec, WriteColor};

use super::fsio::write_output_atomically;

/// A failed write to standard output: `main` exits 0 quietly for a closed pipe, 2 with this
/// message otherwise.
#[derive(Debug)]
pub(crate) struct StdoutError(pub std::io::Error);

impl fmt::Display for StdoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write to standard output: {}", self.0)
    }
}

impl std::error::Error for StdoutError {}

/// Whether `c` is a control character other than newline and tab: C0, DEL and C1.
fn is_terminal_control(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// `text` with every terminal control character written as `\u00XX` (visible, and still valid
/// inside a JSON string, where serde leaves DEL and C1 characters raw).
pub(crate) fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_terminal_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_terminal_control(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Write `text` to standard output, escaped and flushed.
pub(crate) fn print(text: &str) -> Result<(), StdoutError> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(escape_controls(text).as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(StdoutError)
}

/// Write `text` and a newline to standard output.
pub(crate) fn println(text: &str) -> Result<(), StdoutError> {
    print(&format!("{text}\n"))
}

/// Write `text` to standard error, escaped. A failure is ignored: there is nowhere left to say
/// so, and the exit code still tells.
pub(crate) fn eprint(text: &str) {
    let _ = std::io::stderr()
        .lock()
        .write_all(escape_controls(text).as_bytes());
}

/// Write `text` and a newline to standard error.
pub(crate) fn eprintln(text: &str) {
    eprint(&format!("{text}\n"));
}

/// Write `text` to the file `out` atomically (refusing to replace any input, see
/// [`write_output_atomically`]), or to standard output when `out` is `None`.
pub(crate) fn emit(out: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match out {
        Some(path) => write_output_atomically(path, text.as_bytes()),
        None => Ok(print(text)?),
    }
}

/// A terminal picture (`--format ascii`, `--board F.txt`) as it may be stored: its control
/// characters escaped as on standard output, so that `cat F` cannot clear or retitle the
/// terminal either.
pub(crate) fn terminal_picture(text: &str) -> String {
    escape_controls(text).into_owned()
}

/// Print diagnostics with source excerpts (as `tegula validate` does) to stderr, if there are
/// any. `files` is the number of files checked, for the summary line.
pub(crate) fn print_diags(diags: &[Diagnostic], files: usize) {
    if !diags.is_empty() {
        eprint(&tegula_model::report::render_to_string(diags, files));
    }
}

/// A colour writer that escapes terminal control characters in the text written to it while
/// passing colour changes through: the text is held until complete UTF-8 characters arrive.
pub(crate) struct Escaping<W> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: WriteColor> Escaping<W> {
    /// Wrap `inner`.
    pub(crate) fn new(inner: W) -> Self {
        Escaping {
            inner,
            pending: Vec::new(),
        }
    }

    /// Write out the complete characters held (all of them when `all`).
    fn drain(&mut self, all: bool) -> std::io::Result<()> {
        let complete = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            Err(e) if e.error_len().is_none() && !all => e.valid_up_to(),
            Err(_) => self.pending.len(),
        };
        let text = String::from_utf8_lossy(&self.pending[..complete]).into_owned();
        self.inner.write_all(escape_controls(&text).as_bytes())?;
        self.pending.drain(..complete);
        Ok(())
    }
}

impl<W: WriteColor> std::io::Write for Escaping<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        self.drain(false)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.drain(true)?;
        self.inner.flush()
    }
}

impl<W: WriteColor> WriteColor for Escaping<W> {
    fn supports_color(&self) -> bool {
        self.inner.supports_color()
    }

    fn set_color(&mut self, spec: &ColorSpec) -> std::io::Result<()> {
        self.drain(true)?;
        self.inner.set_color(spec)
    }

    fn reset(&mut self) -> std::io::Result<()> {
        self.drain(true)?;
        self.inner.reset()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_visible_escapes() {
        assert_eq!(
            escape_controls("a\x1b[2Jb\u{9b}\r\n\t"),
            "a\\u001b[2Jb\\u009b\\u000d\n\t"
        );
        assert!(matches!(escape_controls("plain ä\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_colour_writer_escapes_text_split_inside_a_character() {
        use tegula_model::report::termcolor::NoColor;
        let mut w = Escaping::new(NoColor::new(Vec::new()));
        let c1 = "\u{9b}".as_bytes();
        std::io::Write::write_all(&mut w, &[b'x', c1[0]]).unwrap();
        std::io::Write::write_all(&mut w, &[c1[1], 0x1b]).unwrap();
        std::io::Write::flush(&mut w).unwrap();
        assert_eq!(
            String::from_utf8(w.inner.into_inner()).unwrap(),
            "x\\u009b\\u001b"
        );
    }
}
