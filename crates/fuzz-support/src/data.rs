//! The shipped data the targets start from, and a scratch folder laid out like the repository so
//! that fuzzed variants and scenarios find `../tiles/…` and `../variants/…`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use tegula_engine::Rules;
use tegula_model::variant::build_variant;

/// The repository root (this crate lives in `crates/fuzz-support`).
pub fn repo_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}

/// Every shipped variant (`variants/*.toml`), built once, by file name order: `(id, rules)`.
pub fn shipped_variants() -> &'static [(String, Arc<Rules>)] {
    static ALL: OnceLock<Vec<(String, Arc<Rules>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let dir = repo_root().join("variants");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        files
            .iter()
            .filter_map(|f| {
                let rs = build_variant(f).0?;
                Some((rs.id.clone(), Arc::new(Rules::new(rs).ok()?)))
            })
            .collect()
    })
}

/// A scratch folder per process holding copies of the repository's `tiles`, `variants` and
/// `schema`, so a file written to `sub/NAME.toml` resolves `../tiles/…` and `../variants/…` as
/// shipped files do. Copies, not links: the scratch folder is the data root of its variants
/// (it holds `schema/variant.schema.json`), and a variant may not reach through a link out of
/// its data root (`tegula_model::reach`).
fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tegula-fuzz-{}", std::process::id()));
        for sub in ["v", "s"] {
            let _ = std::fs::create_dir_all(dir.join(sub));
        }
        for data in ["tiles", "variants", "schema"] {
            let _ = copy_tree(&repo_root().join(data), &dir.join(data));
        }
        dir
    })
}

/// Copy the folder `from` to `to`, recursively.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// Write `text` to a scratch file in folder `sub` (`"v"` or `"s"`), one file per thread (the
/// test harness runs targets in parallel), and return its path.
pub(crate) fn scratch_file(sub: &str, text: &[u8]) -> Option<PathBuf> {
    let name = format!("{:?}.toml", std::thread::current().id())
        .replace(|c: char| !c.is_ascii_alphanumeric() && c != '.', "");
    let path = scratch().join(sub).join(name);
    std::fs::write(&path, text).ok()?;
    Some(path)
}
