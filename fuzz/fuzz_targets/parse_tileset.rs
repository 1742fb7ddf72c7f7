//! Arbitrary bytes through the loader as `read_source` would see them: invalid UTF-8 is
//! `not-utf8`, the rest must come back as diagnostics (or a document), never a panic, and with a
//! bounded number of diagnostics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tegula_model::load::{parse_tileset, parse_variant, MAX_SCHEMA_ERRORS};
use tegula_model::Source;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for diags in [
        parse_tileset(Source::new("fuzz.toml", text.to_string())).1,
        parse_variant(Source::new("fuzz.toml", text.to_string())).1,
    ] {
        assert!(diags.len() <= MAX_SCHEMA_ERRORS + 1);
        for d in &diags {
            if let Some(span) = &d.span {
                assert!(span.start <= text.len());
            }
        }
    }
});
