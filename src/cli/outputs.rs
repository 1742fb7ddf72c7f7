//! The outputs of one command must be distinct files: two options naming the same file (after
//! symbolic links and `..` are resolved), or a file that an output folder's writes would replace
//! (`simulate --logs d --out d/game-0.jsonl`), are refused before anything runs, naming both
//! options. Otherwise the later write silently replaces the earlier one and the command exits 0
//! having lost a file.

use std::path::{Path, PathBuf};

/// One output of a command: a file, or a folder the command writes files into.
pub(crate) enum Target<'a> {
    /// A file written whole.
    File(&'a Path),
    /// A folder receiving files whose names `writes` accepts, described by `names`.
    Folder {
        /// The folder.
        dir: &'a Path,
        /// The file names written into it, in words (`game-N.jsonl`).
        names: &'static str,
        /// Whether the command may write a file of this name into the folder.
        writes: fn(&str) -> bool,
    },
}

/// An output with the option that names it (`--log`).
pub(crate) struct Output<'a> {
    /// The option, as the user typed it.
    pub flag: &'static str,
    /// What it writes.
    pub target: Target<'a>,
}

impl<'a> Output<'a> {
    /// The file output `flag`, if given.
    pub(crate) fn file(flag: &'static str, path: Option<&'a Path>) -> Option<Self> {
        path.map(|p| Output {
            flag,
            target: Target::File(p),
        })
    }

    /// The folder `flag` fills with the logs `simulate --logs` writes (`game-N.jsonl`), if
    /// given.
    pub(crate) fn game_logs(flag: &'static str, dir: Option<&'a Path>) -> Option<Self> {
        dir.map(|dir| Output {
            flag,
            target: Target::Folder {
                dir,
                names: "game-N.jsonl",
                writes: is_game_log_name,
            },
        })
    }

    fn path(&self) -> &Path {
        match &self.target {
            Target::File(p) => p,
            Target::Folder { dir, .. } => dir,
        }
    }
}

/// `path` made absolute with its symbolic links (dangling ones too) and `..` resolved as far as
/// it exists: the whole path when it exists, else its nearest existing ancestor resolved and the
/// names below it appended (`file_name` is never `.` or `..`; a path that climbs out of a
/// missing folder cannot be written anyway).
fn resolve(path: &Path) -> PathBuf {
    let mut absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    // A dangling link names the file it would create (40 links at most, as the kernel).
    for _ in 0..40 {
        match std::fs::read_link(&absolute) {
            Ok(to) if absolute.canonicalize().is_err() => {
                let dir = absolute.parent().map(Path::to_path_buf).unwrap_or_default();
                absolute = dir.join(to);
            }
            _ => break,
        }
    }
    let mut rest = Vec::new();
    let mut head = absolute.as_path();
    loop {
        if let Ok(real) = head.canonicalize() {
            return rest.iter().rev().fold(real, |acc, part| acc.join(part));
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                head = parent;
            }
            _ => return absolute,
        }
    }
}

/// Why outputs `a` and `b` (resolved `ra`, `rb`) would overwrite each other, if they would.
fn clash(a: &Output, ra: &Path, b: &Output, rb: &Path) -> Option<String> {
    match (&a.target, &b.target) {
        (Target::File(_), Target::File(_)) | (Target::Folder { .. }, Target::Folder { .. })
            if ra == rb =>
        {
            Some(format!("they are the same file ({})", ra.display()))
        }
        (Target::File(_), Target::Folder { names, writes, .. }) => {
            folder_clash(ra, rb, b.flag, names, *writes)
        }
        (Target::Folder { names, writes, .. }, Target::File(_)) => {
            folder_clash(rb, ra, a.flag, names, *writes)
        }
        _ => None,
    }
}

/// Why writing the file `file` clashes with the folder `dir` that `flag` fills with `names`.
fn folder_clash(
    file: &Path,
    dir: &Path,
    flag: &str,
    names: &str,
    writes: fn(&str) -> bool,
) -> Option<String> {
    if file == dir {
        return Some(format!("{flag} needs {} as a folder", dir.display()));
    }
    let name = file.file_name()?.to_str()?;
    (file.parent() == Some(dir) && writes(name)).then(|| {
        format!(
            "{flag} writes its {names} files into {}, {name} among them",
            dir.display()
        )
    })
}

/// Refuse outputs that would overwrite each other (exit 2 through `main`), before any work;
/// `None` stands for an output option not given.
pub(crate) fn refuse_clashes<'a>(
    outputs: impl IntoIterator<Item = Option<Output<'a>>>,
) -> anyhow::Result<()> {
    let outputs: Vec<Output> = outputs.into_iter().flatten().collect();
    let resolved: Vec<PathBuf> = outputs.iter().map(|o| resolve(o.path())).collect();
    for (i, a) in outputs.iter().enumerate() {
        for (j, b) in outputs.iter().enumerate().skip(i + 1) {
            if let Some(why) = clash(a, &resolved[i], b, &resolved[j]) {
                anyhow::bail!(
                    "{} {} and {} {} would overwrite each other: {why}; give each output its \
                     own file",
                    a.flag,
                    a.path().display(),
                    b.flag,
                    b.path().display()
                );
            }
        }
    }
    Ok(())
}

/// Whether `name` is a log that `simulate --logs` writes: `game-N.jsonl`.
pub(crate) fn is_game_log_name(name: &str) -> bool {
    name.strip_prefix("game-")
        .and_then(|r| r.strip_suffix(".jsonl"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tegula-clash-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn files<'a>(a: &'a Path, b: &'a Path) -> [Option<Output<'a>>; 2] {
        [
            Output::file("--log", Some(a)),
            Output::file("--board", Some(b)),
        ]
    }

    #[test]
    fn spellings_and_links_of_one_file_clash() {
        let dir = scratch("spellings");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let a = dir.join("same.out");
        for b in [dir.join("sub/../same.out"), dir.join("./same.out")] {
            assert!(refuse_clashes(files(&a, &b)).is_err(), "{}", b.display());
        }
        // A link to a file not yet written, and a link to the folder holding it.
        std::os::unix::fs::symlink(&a, dir.join("link.out")).unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("here")).unwrap();
        std::fs::write(&a, "x").unwrap();
        for b in [dir.join("link.out"), dir.join("here/same.out")] {
            let e = refuse_clashes(files(&a, &b)).unwrap_err().to_string();
            assert!(e.contains("--log") && e.contains("--board"), "{e}");
        }
        assert!(refuse_clashes(files(&a, &dir.join("other.out"))).is_ok());
    }

    #[test]
    fn a_file_an_output_folder_would_write_clashes() {
        let dir = scratch("folder");
        let logs = Output::game_logs("--logs", Some(&dir));
        let clashing = dir.join("game-0.jsonl");
        let out = Output::file("--out", Some(&clashing));
        let e = refuse_clashes([logs, out]).unwrap_err().to_string();
        assert!(e.contains("--logs") && e.contains("game-0.jsonl"), "{e}");
        for fine in ["summary.jsonl", "game-.jsonl", "game-1.json"] {
            let logs = Output::game_logs("--logs", Some(&dir));
            let p = dir.join(fine);
            let out = Output::file("--out", Some(&p));
            assert!(refuse_clashes([out, logs]).is_ok(), "{fine}");
        }
    }
}
