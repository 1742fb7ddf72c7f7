//! The action expansions' tiles against their catalogue (`../shared/reference/TILES-ACTIONS.md`),
//! encoded here a second time in the notation of the parent module's tables: the gardens of the
//! second-edition base game (AB-1), King & Robber Baron (KR-1), Goldmines (GM-1), The Cathars,
//! Siege and The Besiegers (CA-1). Compiled through the test kit
//! `tests/fixtures/catalogue/actions.toml`, which holds every one of these sets and no rule.

use super::*;

/// Gardens (AB-1): one copy each of E, H, I, M, N, R, U, V with a garden (a cloister-kind
/// feature tagged `garden`, counted in the last column); the topology is the base tile's.
const GARDENS: &[Row] = &[
    ("E-garden", 1, "C F F F", "N", "", "En Es Se Sw Ws Wn>N", 1),
    ("H-garden", 1, "C F C F", "N S", "", "En Es Ws Wn>N,S", 1),
    ("I-garden", 1, "C F F C", "N W", "", "En Es Se Sw>N,W", 1),
    ("M-garden", 1, "C F F C", "NW*", "", "En Es Se Sw>NW", 1),
    ("N-garden", 1, "C F F C", "NW", "", "En Es Se Sw>NW", 1),
    ("R-garden", 1, "C C F C", "NEW", "", "Se Sw>NEW", 1),
    (
        "U-garden",
        1,
        "F R F R",
        "",
        "WE",
        "Wn Nw Ne En; Es Se Sw Ws",
        1,
    ),
    (
        "V-garden",
        1,
        "F F R R",
        "",
        "WS",
        "Wn Nw Ne En Es Se; Sw Ws",
        1,
    ),
];

/// King & Robber Baron (KR-1), rows 1 to 5.
const KING_ROBBER: &[Row] = &[
    ("kr-1", 1, "C F F F", "N", "", "En Es Se Sw Ws Wn>N", 1),
    ("kr-2", 1, "C F F R", "N", "W", "Wn>N; En Es Se Sw Ws>N", 0),
    (
        "kr-3",
        1,
        "C R R R",
        "N",
        "W ES",
        "Wn>N; En Sw Ws>N; Es Se",
        0,
    ),
    (
        "kr-4",
        1,
        "C R R C",
        "NW",
        "E S",
        "En>NW; Es>NW; Se>NW; Sw>NW",
        0,
    ),
    ("kr-5", 1, "C C C C", "WE NS", "", ">WE,NS; >WE,NS", 0),
];

/// Goldmines (GM-1), rows 1 to 8; every tile carries the tile tag `gold`.
const GOLDMINES: &[Row] = &[
    (
        "gm-1",
        1,
        "F R R F",
        "",
        "ES",
        "Nw Ne En Sw Ws Wn; Es Se",
        1,
    ),
    ("gm-2", 1, "C F F C", "NW", "", "En Es Se Sw>NW", 1),
    ("gm-3", 1, "C R R C", "NW", "ES", "En Sw>NW; Es Se", 1),
    (
        "gm-4",
        1,
        "R R R R",
        "",
        "NE SW",
        "Ne En; Sw Ws; Wn Nw Es Se",
        1,
    ),
    (
        "gm-5",
        1,
        "R R R R",
        "",
        "NW SE",
        "Nw Wn; Es Se; Ne En Sw Ws",
        0,
    ),
    ("gm-6", 1, "C R R C", "NW", "ES", "En Sw>NW; Es Se", 0),
    (
        "gm-7",
        1,
        "R C R C",
        "WE",
        "NS",
        "Nw>WE; Ne>WE; Se>WE; Sw>WE",
        0,
    ),
    (
        "gm-8",
        1,
        "R R R R",
        "",
        "WE NS",
        "Wn Nw; Ne En; Es Se; Sw Ws",
        0,
    ),
];

/// The Cathars (CA-1), rows 1 to 4; Siege has the same layouts as `siege-1` .. `siege-4`.
const CATHARS: &[Row] = &[
    ("ca-1", 1, "C F F F", "N", "", "En Es Se Sw Ws Wn>N", 0),
    ("ca-2", 1, "C R F R", "N", "WE", "Wn En>N; Es Se Sw Ws", 0),
    ("ca-3", 1, "C F F C", "NW", "", "En Es Se Sw>NW", 0),
    ("ca-4", 1, "C R R C", "NW", "ES", "En Sw>NW; Es Se", 0),
];

/// The Besiegers (CA-1), rows 5 to 10.
const BESIEGERS: &[Row] = &[
    ("be-5", 1, "C C F C", "NEW", "", "Se Sw>NEW", 0),
    ("be-6", 1, "C R F C", "NW", "E", "En>NW; Es Se Sw>NW", 0),
    ("be-7", 1, "C F R F", "N", "S", "Sw Ws Wn>N; En Es Se>N", 0),
    ("be-8", 1, "C R R F", "N", "ES", "En Sw Ws Wn>N; Es Se", 0),
    ("be-9", 1, "C F R C", "NW", "S", "Sw>NW; Se En Es>NW", 0),
    ("be-10", 1, "C F R R", "N", "SW", "Wn En Es Se>N; Sw Ws", 0),
];

fn kit() -> Ruleset {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/catalogue/actions.toml");
    let (ruleset, diagnostics) = tegula_model::variant::build_variant(&path);
    assert!(
        diagnostics.is_empty(),
        "{}",
        common::show_diags(&diagnostics)
    );
    ruleset.expect("the catalogue kit builds")
}

/// The Siege rows: the Cathars' layouts under Siege's ids.
fn siege_rows() -> Vec<Row> {
    const IDS: [&str; 4] = ["siege-1", "siege-2", "siege-3", "siege-4"];
    CATHARS
        .iter()
        .zip(IDS)
        .map(|(r, id)| (id, r.1, r.2, r.3, r.4, r.5, r.6))
        .collect()
}

/// Over the tiles of `table`, the features carrying `tag`, as `(tile id, kind)` pairs.
fn tagged_features(ruleset: &Ruleset, table: &[Row], tag: &str) -> Vec<(String, FeatureKind)> {
    let bit = ruleset.tag(tag).map_or(0, |t| 1u32 << t);
    let mut out = Vec::new();
    for tile in ruleset
        .tiles
        .iter()
        .filter(|t| table.iter().any(|r| r.0 == t.id))
    {
        for f in tile.features.iter().filter(|f| f.tags & bit != 0) {
            out.push((tile.id.clone(), f.kind));
        }
    }
    out
}

#[test]
fn action_expansion_tiles_match_their_catalogue() {
    let ruleset = kit();
    let siege = siege_rows();
    let mut errors = Vec::new();
    for (table, set) in [
        (GARDENS, "gardens"),
        (KING_ROBBER, "king-robber-baron"),
        (GOLDMINES, "goldmines"),
        (CATHARS, "cathars"),
        (&siege[..], "siege"),
        (BESIEGERS, "besiegers"),
    ] {
        errors.extend(compare(&ruleset, table, set, None));
    }
    assert!(
        errors.is_empty(),
        "{} mismatches:\n{}",
        errors.len(),
        errors.join("\n")
    );
    let all: Vec<&str> = ids(&ruleset);
    let want = table_ids(&[BASE, GARDENS, KING_ROBBER, GOLDMINES, CATHARS]);
    assert_eq!(&all[..want.len()], &want[..], "the sets in the kit's order");
}

/// The Checks of TILES-ACTIONS.md: King & Scout 5 tiles, 1 cloister, no pennant; Goldmines 8
/// tiles, 4 cloisters; gardens 8 in the base game; The Cathars 4 tiles; every besieged city
/// carries exactly one siege segment.
#[test]
fn action_expansion_totals_and_symbols_match_the_checks() {
    let ruleset = kit();
    assert_eq!(total(&ruleset.tiles, KING_ROBBER, pennants), (5, 0), "KR-1");
    assert_eq!(
        total(&ruleset.tiles, KING_ROBBER, cloisters),
        (5, 1),
        "KR-1"
    );
    assert_eq!(total(&ruleset.tiles, GOLDMINES, cloisters), (8, 4), "GM-1");
    assert_eq!(total(&ruleset.tiles, GARDENS, cloisters), (8, 8), "AB-1");
    assert_eq!(total(&ruleset.tiles, CATHARS, pennants), (4, 0), "CA-1");
    assert_eq!(total(&ruleset.tiles, BESIEGERS, pennants), (6, 0), "CA-1");

    // AB-1: each garden is a cloister-kind feature tagged `garden`, one per garden tile, and
    // nothing of the base game is.
    let gardens = tagged_features(&ruleset, GARDENS, "garden");
    assert_eq!(gardens.len(), 8, "{gardens:?}");
    assert!(
        gardens.iter().all(|(_, k)| *k == FeatureKind::Cloister),
        "{gardens:?}"
    );
    assert!(tagged_features(&ruleset, BASE, "garden").is_empty());

    // GM-1: the gold symbol belongs to the whole tile: a tile tag on exactly the 8 gold tiles.
    let gold = ruleset.tag("gold").expect("a `gold` tag (GM-1)");
    for tile in &ruleset.tiles {
        let tagged = tile.tags & (1 << gold) != 0;
        let is_gold = GOLDMINES.iter().any(|r| r.0 == tile.id);
        assert_eq!(tagged, is_gold, "{}: the gold tile tag", tile.id);
    }

    // CA-1: on every tile the one city carries the siege segment, and nothing else does.
    let siege = siege_rows();
    for table in [CATHARS, &siege[..], BESIEGERS] {
        let camps = tagged_features(&ruleset, table, "siege");
        assert_eq!(camps.len(), table.len(), "{camps:?}");
        for row in table {
            assert!(
                camps.contains(&(row.0.to_string(), FeatureKind::City)),
                "{}: the siege camp on its city",
                row.0
            );
        }
    }
    assert!(tagged_features(&ruleset, BASE, "siege").is_empty());
}
