//! Figures and player tiles as lowered from the shipped variants: the Abbey & Mayor figures
//! (mayor AM-5, barn AM-6..AM-9, wagon AM-10..AM-11) and the abbey as a player tile (AM-1, AM-4)
//! come out exactly as intended; variants that say nothing about figures keep standard followers.

use std::path::Path;

use tegula_model::variant::{build_variant, compile_variant};
use tegula_ruleset::{
    Act, Adjacency, AfterScore, Compare, CornerScoring, Expr, FollowerType, PlayerTile, Quantity,
    RuleEvent, Ruleset, Seat, Site, Strength, Test, TileSite,
};

mod common;
use common::show_diags;

fn build(path: &str) -> Ruleset {
    let (rs, diags) = build_variant(Path::new(path));
    assert!(diags.is_empty(), "{path}:\n{}", show_diags(&diags));
    rs.unwrap()
}

fn figure(
    id: &str,
    count: u8,
    strength: Strength,
    sites: &[Site],
    after_score: AfterScore,
) -> FollowerType {
    // A standard follower with the properties under test changed.
    let name = id[..1].to_uppercase() + &id[1..];
    FollowerType {
        strength,
        sites: sites.to_vec(),
        after_score,
        ..FollowerType::standard(id, &name, count, 1)
    }
}

/// The four Abbey & Mayor figure types ("1 mayor, 1 barn and 1 wagon" each, plus 7 meeples).
fn abbey_mayor_figures() -> Vec<FollowerType> {
    let mut barn = figure(
        "barn",
        1,
        Strength::Fixed(0),
        &[Site::Corner],
        AfterScore::Stay,
    );
    barn.corner = Some(CornerScoring {
        place: Expr::per(3, Quantity::Cities),
        join: Expr::per(1, Quantity::Cities),
        final_: Expr::per(4, Quantity::Cities),
        place_rule: "AM-7".into(),
        join_rule: "AM-8".into(),
        final_rule: "AM-9".into(),
    });
    barn.site_rule = Some("AM-6".into());
    let mut mayor = figure(
        "mayor",
        1,
        Strength::Value(Expr::Count(Quantity::Pennants)),
        &[Site::City],
        AfterScore::Return,
    );
    mayor.site_rule = Some("AM-5".into());
    let mut wagon = figure(
        "wagon",
        1,
        Strength::Fixed(1),
        &[Site::Road, Site::City, Site::Cloister],
        AfterScore::Move(Adjacency::Neighbourhood),
    );
    wagon.site_rule = Some("AM-10".into());
    wagon.move_rule = Some("AM-11".into());
    vec![
        FollowerType::standard("meeple", "Meeple", 7, 1),
        mayor,
        barn,
        wagon,
    ]
}

/// The abbey: held by each player (1), out of the pile, only into holes, final round (AM-1, AM-4).
fn check_abbey(rs: &Ruleset) {
    let abbey = rs.tiles.iter().position(|t| t.id == "abbey").unwrap();
    assert_eq!(
        rs.player_tiles,
        vec![PlayerTile {
            tile: abbey as u16,
            count: 1,
            site: TileSite::Enclosed,
            final_round: true,
            rule: "AM-1".into(),
        }]
    );
    assert_eq!(
        rs.tiles[abbey].count, 0,
        "the abbeys are not in the draw pile"
    );
}

#[test]
fn abbey_mayor_lowers_to_its_figures_and_the_abbey_player_tile() {
    let rs = build("variants/abbey-mayor.toml");
    assert_eq!(rs.followers, abbey_mayor_figures());
    check_abbey(&rs);
    // 72 base + 12 land tiles, minus the start tile; the 6 abbeys are held, not drawn.
    assert_eq!(rs.pile_size(), 83);
}

#[test]
fn abbey_mayor_facts_still_count_the_abbeys_of_the_box() {
    let (v, diags) = compile_variant(Path::new("variants/abbey-mayor.toml"));
    assert!(diags.is_empty(), "{}", show_diags(&diags));
    let v = v.unwrap();
    let abbey = v.tiles.iter().find(|t| t.id == "abbey").unwrap();
    assert_eq!(
        abbey.count, 6,
        "the compiled variant keeps the sets' numbers"
    );
}

#[test]
fn abbey_mayor_wonders_adds_a_large_meeple_and_the_wonders() {
    let rs = build("variants/abbey-mayor-wonders.toml");
    let mut want = abbey_mayor_figures();
    // W-1: 6 meeples in supply (2 more come with the wonder, `pool.gain`).
    want[0].count = 6;
    want.insert(
        1,
        FollowerType::standard("large-meeple", "Large meeple", 1, 2),
    );
    assert_eq!(rs.followers, want);
    check_abbey(&rs);
    let wonders: Vec<u16> = (0..rs.tiles.len() as u16)
        .filter(|&i| rs.tiles[usize::from(i)].cell_count == 5)
        .collect();
    assert_eq!(wonders.len(), 8);
    // The wonders are the open pool (W-1): out of the draw pile.
    assert_eq!(rs.pool.as_ref().map(|p| &p.tiles), Some(&wonders));
    assert!(wonders.iter().all(|&i| rs.tiles[usize::from(i)].count == 0));
    // 72 + 12 + 6 abbeys + 8 wonders = 98 in the game (W-1 recommends at least 90); the pile
    // holds them minus the start tile, the abbeys and the wonders.
    assert_eq!(rs.pile_size(), 83);
}

#[test]
fn variants_without_figure_keys_keep_standard_followers() {
    for (path, want) in [
        (
            "variants/base.toml",
            vec![FollowerType::standard("meeple", "Meeple", 7, 1)],
        ),
        (
            "variants/base-legacy.toml",
            vec![
                FollowerType::standard("meeple", "Meeple", 7, 1),
                FollowerType::standard("large-meeple", "Large meeple", 1, 2),
            ],
        ),
    ] {
        let rs = build(path);
        assert_eq!(rs.followers, want, "{path}");
        assert!(rs.player_tiles.is_empty(), "{path}");
    }
}

/// The builder and the pig (TB-4 .. TB-8) come out of traders-builders.toml as generic
/// properties (with the rules their placements and returns cite), their `when_extended` (TB-5)
/// and `payment` (TB-8) as rules of the one form; abbey-mayor-traders.toml appends the same two
/// to the Abbey & Mayor figures.
#[test]
fn traders_builders_lowers_the_builder_and_the_pig() {
    let mut builder = figure(
        "builder",
        1,
        Strength::Fixed(0),
        &[Site::Road, Site::City],
        AfterScore::Return,
    );
    builder.needs_own_figure = true;
    builder.occupies = false;
    builder.place_rule = Some("TB-4".into());
    builder.return_rule = Some("TB-6".into());
    let mut pig = figure(
        "pig",
        1,
        Strength::Fixed(0),
        &[Site::Field],
        AfterScore::Return,
    );
    pig.needs_own_figure = true;
    pig.occupies = false;
    pig.place_rule = Some("TB-7".into());
    let rs = build("variants/traders-builders.toml");
    let meeple = FollowerType::standard("meeple", "Meeple", 7, 1);
    assert_eq!(rs.followers, vec![meeple, builder.clone(), pig.clone()]);
    let lowered = |rs: &Ruleset, figure: usize| {
        let rule = |id: &str| rs.when.iter().find(|w| w.rule == id).cloned().unwrap();
        let extends = Test::Cmp(
            Compare::Gt,
            Box::new(Expr::Count(Quantity::Extends(figure as u32))),
            Box::new(Expr::Int(0)),
        );
        assert_eq!(rule("TB-5").event, RuleEvent::TilePlaced { tag: None });
        assert_eq!(rule("TB-5").test, Some(extends));
        assert_eq!(rule("TB-5").then, [Act::ExtraTurn]);
        let pig = Act::Score {
            value: Expr::Count(Quantity::Cities),
            to: Seat::Has(figure as u8 + 1),
        };
        let paid = RuleEvent::FeaturePaid { kinds: Vec::new() };
        assert_eq!((rule("TB-8").event, rule("TB-8").then), (paid, vec![pig]));
    };
    lowered(&rs, 1);
    let rs = build("variants/abbey-mayor-traders.toml");
    let mut want = abbey_mayor_figures();
    want.extend([builder, pig]);
    let builder_at = want.len() - 2;
    assert_eq!(rs.followers, want);
    lowered(&rs, builder_at);
}
