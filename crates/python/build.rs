//! Embeds the shipped data (tiles/, variants/ and the schema that marks their data root) in the
//! extension module, so an installed wheel can load the shipped variants by name without the
//! repository (`tegula.variants`). Only the standard library: the files are listed here and
//! included with `include_bytes!` by the generated `shipped.rs`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

/// Every file under `dir`, sorted (so the generated code is the same on every build).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "toml" || e == "json") {
            out.push(p);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest.join("../..");
    let mut list = Vec::new();
    for dir in ["tiles", "variants"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
        files(&root.join(dir), &mut list);
    }
    let schema = root.join("schema/variant.schema.json");
    println!("cargo:rerun-if-changed={}", schema.display());
    // Outside the repository (a source distribution without the data) nothing is embedded and
    // `tegula.variants` knows no name.
    if schema.is_file() {
        list.push(schema);
    }
    let mut code = String::from("/// The shipped data files: path under the data root, content.\n");
    code.push_str("pub const FILES: &[(&str, &[u8])] = &[\n");
    for p in &list {
        let rel = p.strip_prefix(&root).expect("under the root");
        let rel = rel.to_string_lossy().replace('\\', "/");
        let abs = fs::canonicalize(p).expect("listed file exists");
        let _ = writeln!(code, "    ({rel:?}, include_bytes!({:?})),", abs);
    }
    code.push_str("];\n");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo")).join("shipped.rs");
    fs::write(out, code).expect("OUT_DIR is writable");
}
