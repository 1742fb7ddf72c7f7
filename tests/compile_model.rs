//! Integration tests of the compiler on the shipped data.

use std::path::Path;

use tegula_model::variant::{build_variant, compile_tileset_file};

#[test]
fn shipped_base_tiles_compile_cleanly() {
    let (set, diags) = compile_tileset_file(Path::new("tiles/base.toml"));
    for d in &diags {
        eprintln!(
            "{}:{}:{}: {} {}",
            d.file.display(),
            d.line,
            d.column,
            d.code.as_str(),
            d.message
        );
    }
    assert!(diags.is_empty());
    assert!(set.is_some());
}

#[test]
fn base_variant_builds() {
    let (rs, diags) = build_variant(Path::new("variants/base.toml"));
    for d in &diags {
        eprintln!(
            "{}:{}:{}: {} {}",
            d.file.display(),
            d.line,
            d.column,
            d.code.as_str(),
            d.message
        );
    }
    assert!(diags.is_empty());
    assert_eq!(rs.unwrap().pile_size(), 71);
}
