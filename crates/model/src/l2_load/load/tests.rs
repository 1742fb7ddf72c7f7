//! Tests of loading: syntax, schema messages and their positions.

use super::*;

fn tileset(text: &str) -> Vec<Diagnostic> {
    parse_tileset(Source::new("t.toml", text.to_string())).1
}

const HEAD: &str = "#:schema ../schema/tileset.schema.json\n[set]\nid = \"t\"\nname = \"T\"\n";

#[test]
fn minimal_tileset_loads() {
    let (doc, diags) = parse_tileset(Source::new("t.toml", HEAD.to_string()));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(doc.unwrap().doc.set.id.value, "t");
}

#[test]
fn unknown_key_points_at_the_key() {
    let text = format!("{HEAD}colour = \"red\"\n");
    let d = tileset(&text);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, Code::Schema);
    assert_eq!((d[0].at.line, d[0].at.column), (5, 1));
    assert!(
        d[0].message.contains("unknown key `colour` in [set]"),
        "{}",
        d[0].message
    );
    assert!(d[0].message.contains("`name`"), "{}", d[0].message);
}

#[test]
fn edit_distance_counts_characters_ignoring_case() {
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(edit_distance("Road", "road"), 0);
    assert_eq!(edit_distance("clöister", "cloister"), 1);
    assert_eq!(edit_distance("", "abc"), 3);
}

#[test]
fn count_too_big_in_plain_words() {
    let text = format!(
        "{HEAD}[[tile]]\nid = \"A\"\ncount = 1000000000000\nsides = [\"city\",\"road\",\"field\",\"road\"]\nsegments = [{{ id = \"c\", kind = \"city\", sides = [\"N\"] }}]\n"
    );
    let d = tileset(&text);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].at.line, 7);
    assert_eq!(
        d[0].message,
        "`count` in tile `A` must be at most 1000, found 1000000000000"
    );
}

#[test]
fn wrong_type_and_bad_enum_are_both_reported() {
    let text = format!(
        "{HEAD}[[tile]]\nid = 5\ncount = 1\nsides = [\"city\",\"road\",\"castle\",\"road\"]\nsegments = [{{ id = \"c\", kind = \"city\", sides = [\"N\"] }}]\n"
    );
    let d = tileset(&text);
    assert_eq!(d.len(), 2, "{d:?}");
    assert_eq!(d[0].at.line, 6);
    assert!(
        d[0].message.contains("expected a string, found an integer"),
        "{}",
        d[0].message
    );
    assert_eq!(d[1].at.line, 8);
    assert!(
        d[1].message.contains("`castle`") && d[1].message.contains("`field`"),
        "{}",
        d[1].message
    );
}

#[test]
fn missing_key_points_at_the_table() {
    let text = format!("{HEAD}\n[[tile]]\nid = \"A\"\nsegments = []\n");
    let d = tileset(&text);
    assert!(
        d.iter()
            .any(|d| d.message == "missing key `count` in tile `A`" && d.at.line == 6),
        "{d:?}"
    );
}

#[test]
fn syntax_error_has_position() {
    let d = tileset("#:schema x/tileset.schema.json\n[set\nid = 1\n");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, Code::Syntax);
    assert_eq!(d[0].at.line, 2);
}

#[test]
fn deep_nesting_is_refused_without_overflow() {
    let n = 100_000;
    let text = format!("{HEAD}x = {}{}\n", "[".repeat(n), "]".repeat(n));
    let d = tileset(&text);
    assert_eq!(d[0].code, Code::Syntax);
    let text = format!("{HEAD}x = {}1{}\n", "{a=".repeat(n), "}".repeat(n));
    assert_eq!(tileset(&text)[0].code, Code::Syntax);
}

#[test]
fn comments_only_is_empty_and_missing_line_is_a_warning() {
    assert_eq!(tileset("# nothing\n\n")[0].code, Code::Empty);
    assert_eq!(tileset("   \n")[0].code, Code::Empty);
    let d = tileset("[set]\nid = \"t\"\nname = \"T\"\n");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, Code::MissingSchemaLine);
    assert!(!d[0].is_error());
}

#[test]
fn datetime_is_rejected_by_name() {
    let text = "#:schema tileset.schema.json\n[set]\nid = 1979-05-27\nname = \"T\"\n";
    let d = tileset(text);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message.contains("found a date-time"),
        "{}",
        d[0].message
    );
}

#[test]
fn near_misses_get_a_suggestion() {
    let text = format!(
        "{HEAD}colur = 1\n[[tile]]\nid = \"A\"\ncount = 1\nsides = [\"feild\", \"road\", \"field\", \"road\"]\nsegments = [{{ id = \"c\", kind = \"Cloister\" }}]\n"
    );
    let d = tileset(&text);
    let notes: Vec<&str> = d
        .iter()
        .flat_map(|d| d.notes.iter().map(String::as_str))
        .collect();
    for want in ["did you mean `field`?", "did you mean `cloister`?"] {
        assert!(notes.contains(&want), "{want}: {d:#?}");
    }
    // Only close candidates are suggested (`colur` is far from every tile-set key).
    assert!(!notes.iter().any(|n| n.contains("`name`")), "{notes:?}");
    assert_eq!(suggest("kind", ["id", "kind"].into_iter()), Some("kind"));
    assert_eq!(suggest("xyzzy", ["id", "name"].into_iter()), None);
}

#[test]
fn schema_line_target_takes_the_file_name() {
    assert_eq!(
        schema_line_target("#:schema ../../schema/variant.schema.json\n"),
        Some("variant.schema.json")
    );
    assert_eq!(schema_line_target("# nope\n"), None);
}

#[test]
fn a_strength_names_both_of_its_forms() {
    // A number out of range names the range and the other form; a string is an expression,
    // parsed (and its typos reported) once the variant's tags are known.
    let head = "#:schema ../schema/variant.schema.json\nid = \"v\"\nname = \"V\"\n\
                players = { min = 2, max = 5 }\nsets = [{ path = \"x.toml\" }]\n";
    let messages = |strength: &str| {
        let text =
            format!("{head}followers = [{{ id = \"m\", count = 1, strength = {strength} }}]\n");
        let (_, d) = parse_variant(Source::new("v.toml", text));
        d.into_iter()
            .map(|d| (d.message, d.notes))
            .collect::<Vec<_>>()
    };
    let too_big = messages("20");
    assert_eq!(too_big.len(), 1, "{too_big:?}");
    assert!(
        too_big[0]
            .0
            .contains("expected an integer from 0 to 10 or a string; found 20"),
        "{too_big:?}"
    );
    let negative = messages("-1");
    assert_eq!(negative.len(), 1, "{negative:?}");
    assert!(messages("\"pennants\"").is_empty());
    assert!(messages("\"if pennants > 2 then 3 else pennants\"").is_empty());
    assert!(messages("2").is_empty());
}

/// A file that grows after its size was checked is cut one byte past the cap and refused; a
/// reader that never ends (a file growing without end) likewise stops there.
#[test]
fn a_file_growing_while_read_is_cut_at_the_cap() {
    use std::io::Write as _;
    let dir = std::env::temp_dir().join(format!("tegula-grow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("grows.toml");
    std::fs::write(&path, HEAD).unwrap();
    // Opened while small (type and size pass), then it grows past the cap before the read.
    let file = open_regular(&path, MAX_FILE_BYTES as u64).unwrap();
    let mut more = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    more.write_all(&vec![b'#'; 2 * MAX_FILE_BYTES]).unwrap();
    let cap = MAX_FILE_BYTES + 1;
    let e = read_capped(file, &path).unwrap_err();
    assert_eq!(e.code, Code::TooLarge);
    assert!(
        e.message.contains(&format!(": {cap} bytes")),
        "{}",
        e.message
    );
    let e = read_capped(std::io::repeat(b'#'), &path).unwrap_err();
    assert!(
        e.message.contains(&format!(": {cap} bytes")),
        "{}",
        e.message
    );
}

#[test]
fn a_byte_order_mark_is_skipped_and_positions_stay_right() {
    let mut bytes = b"\xEF\xBB\xBFid = 1\n".to_vec();
    assert_eq!(skip_bom(&mut bytes), 3);
    assert_eq!(bytes, b"id = 1\n");
    assert_eq!(skip_bom(&mut bytes), 0);
}
