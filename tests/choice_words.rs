//! The replay viewer's words for offered choices (issue 30, item 2): a declined offer and a
//! chosen figure, each as a player would say it with the rule's id. The base game, compiled
//! from its files, with one rule of the one form added (a figure may leave a city at the end of
//! its owner's turn).

use std::path::Path;
use std::sync::Arc;

use tegula_engine::testkit::offers;
use tegula_engine::{Action, Event, FollowerOption, Game, Phase, Placement, Rules};
use tegula_model::variant::{build_variant, compile_variant};
use tegula_render::board::BoardView;
use tegula_render::words::Words;

fn place(g: &mut Game, tile: &str, (x, y): (i32, i32), rotation: u8) {
    let tile = g.rules().tile_index(tile).unwrap();
    let p = Placement {
        tile,
        x,
        y,
        rotation,
    };
    g.apply(Action::Place(p)).unwrap();
}

#[test]
fn a_declined_and_a_taken_choice_read_as_said() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/base.toml");
    let drawings = compile_variant(&path).0.expect("base compiles").tiles;
    let mut rs = build_variant(&path).0.expect("base builds");
    rs.when.push(offers::escape("xc-3"));
    let rules = Arc::new(Rules::new(rs).unwrap());
    let draws = ["E", "U", "U", "U"].map(|t| rules.tile_index(t).unwrap());
    let mut g = Game::scripted(rules.clone(), 2, draws.to_vec()).unwrap();
    place(&mut g, "E", (0, 1), 2);
    let city = rules
        .feature_index(rules.tile_index("E").unwrap(), "city")
        .unwrap();
    let knight = FollowerOption {
        feature: city,
        follower: 0,
    };
    g.apply(Action::Follower(knight)).unwrap();
    assert_eq!(g.phase(), Phase::Choice);
    g.apply(Action::Pass).unwrap();
    place(&mut g, "U", (1, 0), 0);
    g.apply(Action::Pass).unwrap();
    place(&mut g, "U", (-1, 0), 0);
    g.apply(Action::Pass).unwrap();
    g.apply(Action::Choose(0)).unwrap();

    let board = BoardView::from_game(&g, &drawings, &[]);
    let words = Words::new(rules.ruleset(), &board);
    let said: Vec<String> = (g.events().iter())
        .filter(|e| matches!(e, Event::Choice { .. } | Event::Pass { rule: Some(_), .. }))
        .filter_map(|e| words.describe(e, false))
        .collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(said[0].ends_with("declines the choice [xc-3]"), "{said:?}");
    let chose = &said[1];
    assert!(chose.contains(" chooses their "), "{chose}");
    assert!(
        chose.contains("city") && chose.contains("(0, 1)"),
        "{chose}"
    );
    assert!(chose.ends_with("[xc-3]"), "{chose}");
}
