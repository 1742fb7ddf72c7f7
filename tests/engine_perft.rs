//! Perft: legal-move counts from fixed draw orders, kept in `tests/perft/*.perft`, asserted
//! through the fast generator AND through the naive checker (B-2).
//!
//! A *move* is one whole turn: a placement of the drawn tile × a follower choice (each follower
//! option, plus "no follower"). `perft(d)` counts the move sequences of `d` turns (a game that ends
//! earlier counts as one leaf). Follower choices are counted once per board feature (two segments
//! of the new tile in one connected feature are one move, B-2). Set `TEGULA_PERFT_PRINT=1` to
//! print the computed counts.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tegula_engine::{testkit, Action, FollowerOption, Game, Phase, Rules};

fn load(spec: &str) -> Arc<Rules> {
    let rs = if let Some(kit) = spec.strip_prefix("testkit:") {
        let mut specs: Vec<&str> = testkit::BASE_TILES.to_vec();
        if kit == "domino" {
            specs.push(testkit::DOMINO);
        }
        testkit::ruleset(&format!("kit-{kit}"), &specs).expect("testkit specs")
    } else {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(spec);
        let (rs, diags) = tegula_model::variant::build_variant(&path);
        rs.unwrap_or_else(|| panic!("{spec} does not build: {diags:?}"))
    };
    Arc::new(Rules::new(rs).expect("playable"))
}

/// Fast path: generated placements and follower options, unchecked play by index.
fn perft_fast(g: &Game, depth: u32) -> u64 {
    if depth == 0 || g.phase() != Phase::Place {
        return 1;
    }
    let mut n = 0;
    for i in 0..g.placements().len() {
        let mut a = g.clone();
        assert!(a.play_placement(i));
        let k = a.follower_options().len();
        for choice in std::iter::once(None).chain((0..k).map(Some)) {
            let mut b = a.clone();
            assert!(b.play_follower(choice));
            n += perft_fast(&b, depth - 1);
        }
    }
    n
}

/// Naive path: placements from the bounding-box checker, follower options by trying every
/// (feature, follower type) with the checked API.
fn perft_naive(g: &Game, depth: u32) -> u64 {
    if depth == 0 || g.phase() != Phase::Place {
        return 1;
    }
    let rs = g.rules().ruleset();
    let mut n = 0;
    for p in g.naive_placements() {
        let mut a = g.clone();
        a.apply(Action::Place(p)).expect("naive placement is legal");
        let tile = &rs.tiles[p.tile as usize];
        let mut choices = vec![Action::Pass];
        // One choice per board feature and follower type (B-2): two segments of the new tile in
        // the same connected feature are the same move.
        let mut seen = Vec::new();
        for feature in 0..tile.features.len() as u8 {
            for follower in 0..rs.followers.len() as u8 {
                let o = FollowerOption { feature, follower };
                if a.check_follower(o).is_ok() {
                    let name = a.rules().feature_name(p.tile, feature).to_string();
                    let root = a
                        .feature_id(p.x, p.y, &name)
                        .expect("feature of the new tile");
                    if !seen.contains(&(root, follower)) {
                        seen.push((root, follower));
                        choices.push(Action::Follower(o));
                    }
                }
            }
        }
        for c in choices {
            let mut b = a.clone();
            b.apply(c).expect("checked follower choice");
            n += perft_naive(&b, depth - 1);
        }
    }
    n
}

struct Case {
    id: String,
    draws: Vec<String>,
    players: u8,
    expected: Vec<(u32, u64)>,
    line: usize,
}

fn parse(path: &Path) -> (String, Vec<Case>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut variant = String::new();
    let mut cases: Vec<Case> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let mut w = line.split_whitespace();
        let key = w.next().unwrap();
        let rest: Vec<&str> = w.collect();
        match key {
            "variant" => variant = rest.join(" "),
            "id" => cases.push(Case {
                id: rest.join(" "),
                draws: Vec::new(),
                players: 2,
                expected: Vec::new(),
                line: i + 1,
            }),
            "draws" => {
                cases.last_mut().unwrap().draws = rest.iter().map(|s| s.to_string()).collect()
            }
            "players" => cases.last_mut().unwrap().players = rest[0].parse().unwrap(),
            "perft" => cases
                .last_mut()
                .unwrap()
                .expected
                .push((rest[0].parse().unwrap(), rest[1].parse().unwrap())),
            other => panic!("{}:{}: unknown key `{other}`", path.display(), i + 1),
        }
    }
    (variant, cases)
}

fn perft_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    v.sort();
    v
}

#[test]
fn perft_counts_match_fast_and_naive() {
    let print = std::env::var_os("TEGULA_PERFT_PRINT").is_some();
    let files = perft_files();
    assert!(!files.is_empty());
    for file in files {
        let (variant, cases) = parse(&file);
        assert!(!variant.is_empty(), "{}: no `variant` line", file.display());
        let rules = load(&variant);
        assert!(!cases.is_empty());
        for case in cases {
            let draws: Vec<u16> = case
                .draws
                .iter()
                .map(|d| {
                    rules
                        .tile_index(d)
                        .unwrap_or_else(|| panic!("unknown tile {d}"))
                })
                .collect();
            let g = Game::new(
                rules.clone(),
                case.players,
                tegula_engine::PileOrder::Scripted(draws),
                false,
            )
            .unwrap();
            assert!(
                !case.expected.is_empty() || print,
                "{} has no perft lines",
                case.id
            );
            for d in 1..=3 {
                let fast = perft_fast(&g, d);
                if print {
                    println!("{} {}: perft {d} {fast}", file.display(), case.id);
                }
                let Some(&(_, want)) = case.expected.iter().find(|e| e.0 == d) else {
                    continue;
                };
                let naive = perft_naive(&g, d);
                assert_eq!(
                    fast,
                    want,
                    "{}:{} {} perft {d} (fast)",
                    file.display(),
                    case.line,
                    case.id
                );
                assert_eq!(
                    naive,
                    want,
                    "{} {} perft {d} (naive)",
                    file.display(),
                    case.id
                );
            }
        }
    }
}
