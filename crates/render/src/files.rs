//! Finding tiles: the tile-set files under a folder, loading them, and close matches for an
//! unknown tile id.

use std::io;
use std::path::{Path, PathBuf};

use tegula_model::diag::Diagnostic;

/// The `.toml` files under `root` (recursively, sorted by path, as `tegula validate` finds
/// them), or `root` itself if it is a file. Symbolic links to folders are not followed.
pub fn tileset_files(root: &Path) -> io::Result<Vec<PathBuf>> {
    tileset_files_and_warnings(root).map(|(files, _)| files)
}

/// [`tileset_files`], with the walk's warnings (what it skipped: FIFOs, devices, folders
/// nested too deep), which do not stop the search and are for the caller to show.
pub fn tileset_files_and_warnings(root: &Path) -> io::Result<(Vec<PathBuf>, Vec<Diagnostic>)> {
    let mut problems = Vec::new();
    let files = tegula_model::validate::collect_files(&[root.to_path_buf()], &mut problems);
    match problems.iter().position(Diagnostic::is_error) {
        Some(i) => Err(io::Error::other(problems.swap_remove(i).message)),
        None => Ok((files, problems)),
    }
}

/// Ids from `ids` close to `wanted` (same letters ignoring case, a prefix either way, or at most
/// 2 edits away), best first, at most 5.
pub fn close_matches<'a>(wanted: &str, ids: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let w = wanted.to_lowercase();
    let mut scored: Vec<(usize, String)> = ids
        .into_iter()
        .filter_map(|id| {
            let l = id.to_lowercase();
            let d = tegula_model::load::edit_distance(&w, &l);
            let shorter = w.chars().count().min(l.chars().count());
            let prefix = shorter >= 3 && (l.starts_with(&w) || w.starts_with(&l));
            let limit = if w.chars().count() <= 2 { 1 } else { 2 };
            if l == w {
                Some((0, id.to_string()))
            } else if d <= limit || prefix {
                Some((d + 1, id.to_string()))
            } else {
                None
            }
        })
        .collect();
    scored.sort();
    scored.dedup();
    scored.into_iter().take(5).map(|(_, id)| id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_find_near_ids() {
        let ids = ["notre-dame", "stonehenge", "am-11", "am-1", "D"];
        assert_eq!(close_matches("notre_dame", ids)[0], "notre-dame");
        assert_eq!(close_matches("d", ids), vec!["D".to_string()]);
        assert!(close_matches("am-13", ids).contains(&"am-11".to_string()));
        assert!(close_matches("zzzzzz", ids).is_empty());
    }
}
