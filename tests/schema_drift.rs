//! The committed JSON Schemas (`schema/*.schema.json`, issue 2 item 5) must equal what the code
//! generates. If this fails, run `cargo run -- schema` and commit the result.

use std::path::Path;

#[test]
fn committed_schemas_match_the_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    let mut stale = Vec::new();
    for (name, schema) in tegula_model::schema::schemas() {
        let expected = tegula_model::schema::to_pretty(&schema);
        match std::fs::read_to_string(dir.join(name)) {
            Ok(text) if text == expected => {}
            Ok(_) => stale.push(format!("{name} differs")),
            Err(e) => stale.push(format!("{name}: {e}")),
        }
    }
    assert!(
        stale.is_empty(),
        "schema/ is out of date ({}): run `cargo run -- schema` and commit schema/",
        stale.join(", ")
    );
}

#[test]
fn cli_check_agrees() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tegula"))
        .args(["schema", "--check", "--out"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("schema"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn every_data_file_starts_with_a_schema_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tiles", "variants", "scenarios"] {
        collect(&root.join(dir), &mut files);
    }
    assert!(!files.is_empty());
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let target = tegula_model::load::schema_line_target(&text);
        assert!(
            matches!(
                target,
                Some("tileset.schema.json" | "variant.schema.json" | "scenario.schema.json")
            ),
            "{} does not start with a #:schema line naming a known schema",
            f.display()
        );
    }
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}
