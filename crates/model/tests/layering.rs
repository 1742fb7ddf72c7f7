//! The model crate's layers (issue 34): every module lives in a folder `src/lN_NAME/`, and no
//! module's code may name, through a `crate::` path, a module of a layer above its own. The
//! layer of a file is its folder; the layer of a module is the folder its file or folder is in.
//! Test code (`tests.rs` files and a trailing `#[cfg(test)] mod tests { … }`) is exempt: a test
//! may build its input with the layers above.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The names `lib.rs` re-exports from `diag` at the crate root (layer 0).
const ROOT_ITEMS: [&str; 6] = [
    "Code",
    "Diagnostic",
    "Location",
    "Related",
    "Severity",
    "Source",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The layer a folder name `lN_…` stands for.
fn folder_layer(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('l')?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() || !rest[digits.len()..].starts_with('_') {
        return None;
    }
    digits.parse().ok()
}

/// Every layer folder's modules: module name (or layer folder name) → layer.
fn module_layers(root: &Path) -> BTreeMap<String, u32> {
    let mut map = BTreeMap::new();
    for entry in fs::read_dir(root).expect("src/") {
        let entry = entry.expect("src/ entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(layer) = folder_layer(&name) else {
            continue;
        };
        map.insert(name, layer);
        for module in fs::read_dir(entry.path()).expect("layer folder") {
            let module = module.expect("layer entry").file_name();
            let module = module.to_string_lossy();
            let stem = module.strip_suffix(".rs").unwrap_or(&module);
            if stem != "mod" {
                // `x.rs` and its folder `x/` are one module.
                let before = map.insert(stem.to_string(), layer);
                assert!(
                    before.is_none_or(|b| b == layer),
                    "module `{stem}` is in two layer folders"
                );
            }
        }
    }
    for item in ROOT_ITEMS {
        map.insert(item.to_string(), 0);
    }
    map
}

/// The code of a file that the rule applies to: line comments removed, a trailing test module
/// cut off.
fn checked_code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first identifier of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The top-level names inside the braces `s` starts with (`{a::b, c, d::{e, f}}` → a, c, d).
fn group_names(s: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut start = 1;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                names.push(ident(s[start..i].trim_start()));
                start = i + 1;
                if c == '}' {
                    break;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    names.into_iter().filter(|n| !n.is_empty()).collect()
}

/// The module names `code` reaches through `crate::` paths.
fn crate_names(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue; // `tegula_model_crate::`, not a path from this crate's root.
        }
        let rest = &code[i + "crate::".len()..];
        if rest.starts_with('{') {
            out.extend(group_names(rest));
        } else {
            out.push(ident(rest));
        }
    }
    out
}

/// Each upward or unplaceable `crate::` name of the file `file` (text `text`) at `layer`.
fn violations(file: &str, layer: u32, text: &str, layers: &BTreeMap<String, u32>) -> Vec<String> {
    let code = checked_code(text);
    let mut out = Vec::new();
    for name in crate_names(&code) {
        match layers.get(name) {
            Some(&l) if l > layer => out.push(format!(
                "{file} (layer {layer}) uses `crate::{name}` of layer {l}, above it"
            )),
            Some(_) => {}
            None => out.push(format!(
                "{file} uses `crate::{name}`, which is in no layer folder"
            )),
        }
    }
    out
}

/// Pairs of modules that are one concern written in two files and may use each other: the raw
/// types and the one rule form's raw tables; `variant explain` and its words for rules.
const ONE_CONCERN: [(&str, &str); 2] = [("raw", "raw_when"), ("explain", "explain_when")];

/// A cycle in `edges` (module → modules it uses), as its modules in order, if there is one.
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            return Some(path[i..].to_vec());
        }
        if !done.insert(m.to_string()) {
            return None;
        }
        path.push(m.to_string());
        for next in edges.get(m).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|m| visit(m, edges, &mut Vec::new(), &mut done))
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_imports_from_a_layer_above_its_own() {
    let root = src();
    let layers = module_layers(&root);
    assert!(
        layers.values().any(|&l| l >= 9),
        "the ten layers: {layers:?}"
    );
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut problems = Vec::new();
    let mut checked = 0;
    for path in files {
        let rel = path.strip_prefix(&root).expect("under src/");
        let rel_text = rel.to_string_lossy().replace('\\', "/");
        let first = rel.components().next().expect("a component");
        let first = first.as_os_str().to_string_lossy();
        let Some(layer) = folder_layer(&first) else {
            assert_eq!(rel_text, "lib.rs", "every module lives in a layer folder");
            continue;
        };
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = fs::read_to_string(&path).expect("readable source");
        problems.extend(violations(&rel_text, layer, &text, &layers));
        checked += 1;
    }
    assert!(checked > 40, "only {checked} files checked");
    assert!(
        problems.is_empty(),
        "upward imports:\n{}",
        problems.join("\n")
    );
}

/// Within a layer the modules use each other without a cycle (but for [`ONE_CONCERN`]'s
/// pairs), so that the order of the files in a layer can be read too.
#[test]
fn no_cycle_between_the_modules_of_a_layer() {
    let root = src();
    let layers = module_layers(&root);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in files {
        let rel = path.strip_prefix(&root).expect("under src/");
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.len() < 2 || folder_layer(&parts[0]).is_none() || parts[1] == "mod.rs" {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let module = parts[1].trim_end_matches(".rs").to_string();
        let text = fs::read_to_string(&path).expect("readable source");
        let code = checked_code(&text);
        for name in crate_names(&code) {
            let pair =
                |a: &str, b: &str| ONE_CONCERN.contains(&(a, b)) || ONE_CONCERN.contains(&(b, a));
            let same_layer = layers.get(name) == layers.get(module.as_str());
            if name != module && same_layer && !pair(&module, name) && folder_layer(name).is_none()
            {
                edges
                    .entry(module.clone())
                    .or_default()
                    .insert(name.to_string());
            }
        }
    }
    assert!(!edges.is_empty(), "no edge inside a layer was read");
    assert_eq!(find_cycle(&edges), None, "modules of one layer in a cycle");
}

/// The check itself: a planted upward import is found, in each way a path is written; a
/// downward one, a comment and test code are not.
#[test]
fn a_planted_upward_import_is_found() {
    let layers = module_layers(&src());
    let raw_layer = layers["raw"];
    let planted = [
        "use crate::variant::compile_variant;\n",
        "use crate::{diag::Code, validate::{run, Hook}};\n",
        "fn f() { let _ = crate::explain::explain; }\n",
        "use crate::l8_variant::variant;\n",
    ];
    for text in planted {
        let found = violations("l1_raw/raw.rs", raw_layer, text, &layers);
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        assert!(found[0].contains("above it"), "{}", found[0]);
    }
    let fine = [
        "use crate::diag::{Code, Diagnostic};\nuse crate::{Source, caps::MAX_CELLS};\n",
        "/// See [`crate::variant`].\n// crate::validate is above\nfn f() {}\n",
        "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::variant::compile_variant;\n}\n",
    ];
    for text in fine {
        assert_eq!(
            violations("l1_raw/raw.rs", raw_layer, text, &layers),
            Vec::<String>::new()
        );
    }
    let unknown = violations("l1_raw/raw.rs", raw_layer, "use crate::nowhere;", &layers);
    assert!(unknown[0].contains("no layer folder"), "{unknown:?}");
}

#[test]
fn a_planted_cycle_is_found() {
    let edge = |a: &str, b: &str| (a.to_string(), BTreeSet::from([b.to_string()]));
    let acyclic = BTreeMap::from([edge("figures", "figure_values"), edge("pool", "citations")]);
    assert_eq!(find_cycle(&acyclic), None);
    let mut cyclic = acyclic.clone();
    cyclic.insert(
        "figure_values".into(),
        BTreeSet::from(["figures".to_string()]),
    );
    assert_eq!(
        find_cycle(&cyclic),
        Some(vec!["figure_values".to_string(), "figures".to_string()])
    );
}

#[test]
fn group_names_reads_nested_groups() {
    assert_eq!(
        group_names("{a::b, c, d::{e, f}, }; rest"),
        vec!["a", "c", "d"]
    );
    assert_eq!(folder_layer("l10_x"), Some(10));
    assert_eq!(folder_layer("load"), None);
}
