//! Bad input never panics, hangs or balloons (issue 2, item 9): arbitrary text, TOML-ish junk and
//! random bytes all come back as diagnostics from the loader, within the size cap.

use proptest::prelude::*;
use tegula_model::load::{parse_tileset, parse_variant, MAX_FILE_BYTES, MAX_SCHEMA_ERRORS};
use tegula_model::{Code, Source};

fn check(text: String) {
    let len = text.len();
    let (doc, diags) = parse_tileset(Source::new("fuzz.toml", text.clone()));
    // Either a document or at least one error — never both an error and a document.
    assert!(doc.is_some() || diags.iter().any(|d| d.is_error()));
    if doc.is_some() {
        assert!(diags.iter().all(|d| !d.is_error()));
    }
    // Bounded output: per-file cap (plus the schema-line warning) and positions inside the text.
    assert!(
        diags.len() <= MAX_SCHEMA_ERRORS + 1,
        "{} diagnostics",
        diags.len()
    );
    for d in &diags {
        if let Some(span) = &d.at.span {
            assert!(span.start <= len, "{d:?}");
        }
    }
    let (_, diags) = parse_variant(Source::new("fuzz.toml", text));
    assert!(diags.len() <= MAX_SCHEMA_ERRORS + 1);
}

/// TOML-ish fragments that combine into plausible and implausible documents.
fn tomlish() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        Just("[set]\n".to_string()),
        Just("[[tile]]\n".to_string()),
        Just("[[fact]]\n".to_string()),
        Just("id = \"x\"\n".to_string()),
        Just("name = \"n\"\n".to_string()),
        Just("count = 1000000000000\n".to_string()),
        Just("count = -1\n".to_string()),
        Just("sides = [\"city\", \"road\", \"field\", \"any\"]\n".to_string()),
        Just("segments = [{ id = \"a\", kind = \"city\", sides = [\"N\"] }]\n".to_string()),
        Just("cells = [{ id = \"c\", at = [0, 0], sides = [] }]\n".to_string()),
        Just("x = { a = { b = [1, [2, [3]]] } }\n".to_string()),
        Just("d = 1979-05-27T07:32:00Z\n".to_string()),
        Just("f = nan\n".to_string()),
        Just("\"quoted key\" = '''multi\nline'''\n".to_string()),
        Just("a.b.c = 1\n".to_string()),
        Just("#:schema x\n".to_string()),
        "[a-z]{1,8} = [0-9]{1,20}\n",
        "[\\[\\]{}=\",.a-z0-9 \n]{0,40}",
    ];
    prop::collection::vec(atom, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in ".{0,400}") {
        check(s);
    }

    #[test]
    fn tomlish_junk_never_panics(s in tomlish()) {
        check(s);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        // As `read_source` would: invalid UTF-8 is reported, valid text goes on to parsing.
        if let Ok(text) = String::from_utf8(bytes) {
            check(text);
        }
    }
}

const HEAD: &str = "#:schema ../schema/tileset.schema.json\n[set]\nid = \"t\"\nname = \"T\"\n";

#[test]
fn a_tile_with_100000_cells_is_one_bounded_schema_error() {
    // rule-independent: the schema caps cells at 8 (the compiler's MAX_CELLS).
    let cells = "{},".repeat(100_000);
    let text = format!("{HEAD}[[tile]]\nid = \"huge\"\ncount = 1\ncells = [{cells}]\nsegments = [{{ id = \"s\", kind = \"cloister\" }}]\n");
    assert!(text.len() < MAX_FILE_BYTES);
    let (doc, diags) = parse_tileset(Source::new("t.toml", text));
    assert!(doc.is_none());
    assert!(diags.len() <= MAX_SCHEMA_ERRORS, "{}", diags.len());
    assert!(diags.iter().all(|d| d.code == Code::Schema));
    assert!(
        diags
            .iter()
            .any(|d| d.at.line == 8 && d.message.contains("at most 8 items, found 100000")),
        "{:?}",
        diags.first()
    );
}

/// The schema's cell cap is the compiler's (`MAX_CELLS` = 8, the engine's cell mask): 8 cells
/// pass the schema, 9 do not (W-18 mega tiles; `tests/fixtures/invalid/schema-too-many-cells.toml`).
#[test]
fn the_schema_cell_cap_is_the_compilers() {
    use tegula_model::compile::MAX_CELLS;
    let tile = |n: usize| {
        let cells: String = (0..n)
            .map(|i| format!("{{ id = \"c{i}\", at = [{i}, 0], sides = [\"field\", \"field\", \"field\", \"field\"] }},"))
            .collect();
        format!("{HEAD}[[tile]]\nid = \"m\"\ncount = 1\ncells = [{cells}]\nsegments = [{{ id = \"f\", kind = \"field\", cell = \"c0\" }}]\n")
    };
    let (doc, diags) = parse_tileset(Source::new("t.toml", tile(MAX_CELLS)));
    assert!(doc.is_some(), "{diags:?}");
    let (doc, diags) = parse_tileset(Source::new("t.toml", tile(MAX_CELLS + 1)));
    assert!(doc.is_none());
    assert!(
        diags
            .iter()
            .any(|d| d.code == Code::Schema && d.message.contains("at most 8 items, found 9")),
        "{diags:?}"
    );
}

#[test]
fn deep_nesting_is_a_syntax_error() {
    for text in [
        format!("{HEAD}x = {}{}\n", "[".repeat(100_000), "]".repeat(100_000)),
        format!(
            "{HEAD}x = {}1{}\n",
            "{a=".repeat(100_000),
            "}".repeat(100_000)
        ),
        format!("{HEAD}[{}]\n", vec!["a"; 100_000].join(".")),
        format!("{HEAD}{} = 1\n", vec!["a"; 100_000].join(".")),
    ] {
        let (_, diags) = parse_tileset(Source::new("t.toml", text));
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, Code::Syntax);
    }
}

#[test]
fn oversized_text_is_refused_before_parsing() {
    let text = format!("{HEAD}{}", "x".repeat(MAX_FILE_BYTES));
    let (_, diags) = parse_tileset(Source::new("t.toml", text));
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, Code::TooLarge);
}

#[test]
fn a_huge_flat_array_stays_bounded() {
    // ~1 MiB of one-digit integers where a list of tiles is expected.
    let n = (MAX_FILE_BYTES - 200) / 2;
    let text = format!("{HEAD}tile = [{}]\n", "1,".repeat(n));
    let (_, diags) = parse_tileset(Source::new("t.toml", text));
    assert!(!diags.is_empty() && diags.len() <= MAX_SCHEMA_ERRORS);
    assert!(diags.iter().all(|d| d.code == Code::Schema));
}

/// One edit of a real file: (position as a fraction of the length, how many bytes to delete,
/// what to insert).
fn edits() -> impl Strategy<Value = Vec<(f64, usize, String)>> {
    let insert = prop_oneof![
        Just(String::new()),
        Just("\"".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just(",".to_string()),
        Just("=".to_string()),
        Just("\n".to_string()),
        Just("\n[[tile]]\n".to_string()),
        Just("99999999999".to_string()),
        Just("-1".to_string()),
        Just("\"N\", \"N\"".to_string()),
        Just("\"Nw\"".to_string()),
        "[a-zA-Z0-9_ .\"=\\[\\]{},\n-]{1,6}",
    ];
    prop::collection::vec((0.0..1.0f64, 0usize..8, insert), 1..6)
}

fn mutate(text: &str, edits: &[(f64, usize, String)]) -> String {
    let mut s = text.to_string();
    for (at, delete, insert) in edits {
        let mut i = ((s.len() as f64) * at) as usize;
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        let mut j = (i + delete).min(s.len());
        while !s.is_char_boundary(j) {
            j -= 1;
        }
        s.replace_range(i..j, insert);
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Small random edits of the shipped base set: the loader reports (never panics), and when
    /// the edited file still loads, the compiler checks it without panicking either.
    #[test]
    fn edited_real_files_never_panic(e in edits()) {
        let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tiles/base.toml")).unwrap();
        let text = mutate(&base, &e);
        check(text.clone());
        if let (Some(loaded), _) = parse_tileset(Source::new("edited.toml", text)) {
            let _ = tegula_model::compile::compile_tileset(&loaded);
        }
    }
}
