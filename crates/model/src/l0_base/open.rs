//! Opening an input file safely, the one place every reader of tegula data goes through (the
//! loader, the `extends` chain, the excerpts of the diagnostics, the CLI's own reads): the path
//! must name a regular file of at most a given size; its type is checked before opening, the
//! open does not block (a FIFO swapped in meanwhile would otherwise wait for a writer forever),
//! and type and size are checked again on the open file. It also remembers what it opened, when
//! asked ([`record_inputs`]), so that a program never writes an output over one of its inputs.

use std::collections::HashSet;
use std::fmt;
use std::fs::{File, Metadata, OpenOptions};
use std::path::Path;
use std::sync::Mutex;

/// Why an input was refused.
#[derive(Debug)]
pub enum OpenError {
    /// The operating system's error (no such file, permission denied, …).
    Io(std::io::Error),
    /// The path names a folder.
    Folder,
    /// The path names a device, FIFO or socket.
    NotRegular,
    /// The file is larger than allowed.
    TooLarge {
        /// Its size in bytes.
        len: u64,
        /// The largest size allowed.
        max: u64,
    },
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Io(e) => write!(f, "{e}"),
            OpenError::Folder => write!(f, "it is a folder"),
            OpenError::NotRegular => {
                write!(f, "it is not a regular file (a device, FIFO or socket)")
            }
            OpenError::TooLarge { len, max } => {
                write!(
                    f,
                    "the file is too large: {len} bytes, at most {max} allowed"
                )
            }
        }
    }
}

impl std::error::Error for OpenError {}

fn check(meta: &Metadata, max: u64) -> Result<(), OpenError> {
    if meta.is_dir() {
        Err(OpenError::Folder)
    } else if !meta.is_file() {
        Err(OpenError::NotRegular)
    } else if meta.len() > max {
        Err(OpenError::TooLarge {
            len: meta.len(),
            max,
        })
    } else {
        Ok(())
    }
}

/// Open the regular file at `path` for reading, refusing folders, devices, FIFOs, sockets and
/// files over `max` bytes (the caller still reads at most `max + 1` bytes: a file may grow).
/// The file is an input of the process: once [`record_inputs`] is on, it is remembered, and
/// [`is_input`] says so.
pub fn open_regular(path: &Path, max: u64) -> Result<File, OpenError> {
    let (file, meta) = open_checked(path, max)?;
    remember(&meta);
    Ok(file)
}

/// Open a file the process is about to replace, to compare its contents with the new ones (as
/// [`open_regular`] does, but it is not an input: writing over it is the point).
pub fn open_own_output(path: &Path, max: u64) -> Result<File, OpenError> {
    open_checked(path, max).map(|(file, _)| file)
}

/// Check the path's type and size, then open it ([`open_nonblocking`]).
fn open_checked(path: &Path, max: u64) -> Result<(File, Metadata), OpenError> {
    check(&std::fs::metadata(path).map_err(OpenError::Io)?, max)?;
    open_nonblocking(path, max)
}

/// The open itself, for a path whose type and size were checked: non-blocking, so that a FIFO
/// swapped in since the check is opened at once (and refused by the check on the open file)
/// instead of waiting for a writer.
fn open_nonblocking(path: &Path, max: u64) -> Result<(File, Metadata), OpenError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(OpenError::Io)?;
    let meta = file.metadata().map_err(OpenError::Io)?;
    check(&meta, max)?;
    Ok((file, meta))
}

/// Every file [`open_regular`] opened since [`record_inputs`], by device and inode; `None` while
/// nothing is recorded (a library user that never asks pays nothing and keeps nothing).
static INPUTS: Mutex<Option<HashSet<(u64, u64)>>> = Mutex::new(None);

/// Remember, from now on, every file [`open_regular`] opens: the inputs of a command (a variant,
/// the whole `extends` chain, every tile-set file and the files of set folders, a game log,
/// a scenario), which its outputs must never replace ([`is_input`]). Called once by a program
/// that writes files.
pub fn record_inputs() {
    let mut inputs = INPUTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    inputs.get_or_insert_with(HashSet::new);
}

/// Whether the file described by `meta` was opened by [`open_regular`] since
/// [`record_inputs`] (the same file by device and inode, whatever the path's spelling).
pub fn is_input(meta: &Metadata) -> bool {
    let inputs = INPUTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    file_id(meta).is_some_and(|id| inputs.as_ref().is_some_and(|s| s.contains(&id)))
}

fn remember(meta: &Metadata) {
    let mut inputs = INPUTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let (Some(set), Some(id)) = (inputs.as_mut(), file_id(meta)) {
        set.insert(id);
    }
}

#[cfg(unix)]
fn file_id(meta: &Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &Metadata) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_devices_and_large_files_are_refused() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert!(matches!(open_regular(dir, 10), Err(OpenError::Folder)));
        #[cfg(unix)]
        assert!(matches!(
            open_regular(Path::new("/dev/zero"), 10),
            Err(OpenError::NotRegular)
        ));
        let toml = dir.join("Cargo.toml");
        assert!(matches!(
            open_regular(&toml, 10),
            Err(OpenError::TooLarge { max: 10, .. })
        ));
        assert!(open_regular(&toml, 1 << 20).is_ok());
        assert!(matches!(
            open_regular(&dir.join("no such file"), 10),
            Err(OpenError::Io(_))
        ));
    }

    /// The race of a FIFO swapped in between the type check and the open, set up directly: the
    /// open meets the FIFO (no writer) and must neither block nor accept it.
    #[cfg(unix)]
    #[test]
    fn a_fifo_met_by_the_open_itself_does_not_block() {
        let dir = std::env::temp_dir().join(format!("tegula-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("swapped.toml");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let (tx, rx) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            let _ = tx.send(open_nonblocking(&path, 1 << 20).map(|(file, _)| file));
        });
        let got = rx.recv_timeout(std::time::Duration::from_secs(20));
        assert!(
            matches!(got, Ok(Err(OpenError::NotRegular))),
            "the open blocked or accepted a FIFO: {got:?}"
        );
        // A socket is refused by the check before the open.
        let sock = dir.join("socket.toml");
        let _ = std::fs::remove_file(&sock);
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        assert!(matches!(
            open_regular(&sock, 1 << 20),
            Err(OpenError::NotRegular)
        ));
    }
}
