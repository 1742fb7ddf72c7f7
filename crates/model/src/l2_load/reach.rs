//! What a variant may reach: the files and folders its `extends` and `sets` name
//! (docs/FORMAT.md, "What a variant may reach").
//!
//! A variant is data someone else may have written, and whatever it names is read and quoted in
//! diagnostics; `extends = "/etc/passwd"` or `../../../.cargo/credentials.toml` must not turn
//! `tegula validate` into a way of showing another file's content. So a path in a variant is
//! relative to the file that writes it, stays inside the variant's *data root*, and names a
//! `.toml` file (or, for `sets`, a folder, whose `*.toml` files are read):
//!
//! - the data root is the nearest folder, from the folder of the variant named (the leaf of an
//!   `extends` chain) upward, that holds `schema/variant.schema.json` — the folder the `#:schema`
//!   lines of a data tree point into, written by `tegula schema`; without one, the variant's own
//!   folder. The root is found from where the file is, never from what it says;
//! - `..` may climb up to the root and no further; a symbolic link may not lead out of it.

use std::path::{Component, Path, PathBuf};

use crate::schema::VARIANT_SCHEMA;

/// The folder, inside a data root, that holds the schemas (and so marks the root).
pub const SCHEMA_FOLDER: &str = "schema";

/// The data root of the variant file at `leaf` (canonical when the file system allows): the
/// nearest folder from the variant's own upward holding `schema/variant.schema.json`, else the
/// variant's own folder.
pub fn data_root(leaf: &Path) -> PathBuf {
    let own = leaf
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let own = std::fs::canonicalize(own).unwrap_or_else(|_| own.to_path_buf());
    own.ancestors()
        .find(|dir| dir.join(SCHEMA_FOLDER).join(VARIANT_SCHEMA).is_file())
        .unwrap_or(&own)
        .to_path_buf()
}

/// Why `rel`, written in the file `from` of a variant whose data root is `root`, may not be
/// read; `None` when it may. `toml_only`: the path must name a `.toml` file (`extends`), not
/// also a folder (`sets`). Nothing outside the root is opened to decide.
pub fn refusal(root: &Path, from: &Path, rel: &str, toml_only: bool) -> Option<String> {
    if let Some(why) = outside(root, from, rel, "variant") {
        return Some(why);
    }
    let base = from
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let base = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
    let real = std::fs::canonicalize(lexical(&base.join(rel))).ok()?;
    let toml = real.extension().is_some_and(|e| e == "toml");
    if !toml && (toml_only || real.is_file()) {
        return Some(format!(
            "`{rel}` is not a `.toml` file: a variant reads only tegula data"
        ));
    }
    None
}

/// Why `rel`, written in the file `from` (a `what`: `variant`, `scenario`) whose data root is
/// `root`, leads outside that root — an absolute path, `..` past the root, a symbolic link out
/// of it; `None` when it stays inside. Nothing outside the root is opened to decide.
pub fn outside(root: &Path, from: &Path, rel: &str, what: &str) -> Option<String> {
    let path = Path::new(rel);
    if path.has_root() || path.components().any(|c| matches!(c, Component::Prefix(_))) {
        return Some(format!(
            "`{rel}` is an absolute path: a {what} names files relative to itself"
        ));
    }
    let base = from
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let base = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
    let target = lexical(&base.join(path));
    let outside = || {
        format!(
            "`{rel}` leads outside the data root {} of this {what}",
            root.display()
        )
    };
    if !target.starts_with(root) {
        return Some(outside());
    }
    // Inside by name: a symbolic link on the way may still lead out.
    let real = std::fs::canonicalize(&target).ok()?;
    (!real.starts_with(root)).then(|| outside() + " (through a symbolic link)")
}

/// A note for every refusal: how to let variants reach each other's files.
pub fn note(root: &Path) -> String {
    format!(
        "a variant reads only `.toml` files inside its data root ({}): the nearest folder above \
         it holding `{SCHEMA_FOLDER}/{VARIANT_SCHEMA}` (`tegula schema` writes it), else its own \
         folder",
        root.display()
    )
}

/// `a/b/../c` as `a/c`, without asking the file system; `..` above the start is kept.
pub(crate) fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Lexically normalised path (`variants/../tiles/a.toml` → `tiles/a.toml`).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tegula-reach-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("data/schema")).unwrap();
        std::fs::create_dir_all(d.join("data/variants/house")).unwrap();
        std::fs::create_dir_all(d.join("data/tiles/set")).unwrap();
        std::fs::write(d.join("data/schema").join(VARIANT_SCHEMA), "{}").unwrap();
        for f in [
            "variants/base.toml",
            "variants/house/h.toml",
            "tiles/t.toml",
        ] {
            std::fs::write(d.join("data").join(f), "id = \"x\"\n").unwrap();
        }
        std::fs::write(d.join("secret.toml"), "token = \"s\"\n").unwrap();
        std::fs::write(d.join("data/notes.txt"), "not toml\n").unwrap();
        std::fs::canonicalize(d).unwrap()
    }

    #[test]
    fn the_root_is_the_nearest_folder_with_the_schema_else_the_own_folder() {
        let d = tree("root");
        let leaf = d.join("data/variants/house/h.toml");
        assert_eq!(data_root(&leaf), d.join("data"));
        assert_eq!(data_root(&d.join("secret.toml")), d);
    }

    #[test]
    fn paths_stay_inside_the_root_and_name_toml() {
        let d = tree("paths");
        let root = d.join("data");
        let house = d.join("data/variants/house/h.toml");
        let base = d.join("data/variants/base.toml");
        assert_eq!(refusal(&root, &house, "../base.toml", true), None);
        assert_eq!(refusal(&root, &base, "../tiles/t.toml", false), None);
        assert_eq!(refusal(&root, &base, "../tiles/set", false), None);
        let why = |from: &Path, rel: &str, toml_only: bool| {
            refusal(&root, from, rel, toml_only).unwrap_or_default()
        };
        assert!(why(&house, "/etc/passwd", true).contains("absolute path"));
        assert!(why(&house, "../../../secret.toml", true).contains("outside the data root"));
        assert!(why(&base, "../notes.txt", false).contains("not a `.toml` file"));
        assert!(why(&base, "../tiles/set", true).contains("not a `.toml` file"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(d.join("secret.toml"), root.join("link.toml")).unwrap();
            assert!(why(&base, "../link.toml", true).contains("through a symbolic link"));
        }
        // Missing inside the root: for the caller to report as missing.
        assert_eq!(refusal(&root, &base, "../nope.toml", true), None);
    }
}
