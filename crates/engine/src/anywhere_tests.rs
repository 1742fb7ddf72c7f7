//! Offers over the whole board (issue 31; docs/design/actions.md, 5 and 6) on the base ruleset:
//! a figure placed on any other tile's feature instead of the figure step (PD-11's shape), and
//! a figure of any seat's removed from the subject tile's feature (PD-12's shape).

use std::sync::Arc;

use tegula_ruleset::{Act, FigureSet, Offer, Options, RuleEvent, Ruleset, Seat, When};

use crate::testkit::{base_ruleset, meeple_on, offers, scripted_game as game};
use crate::*;

fn figure_step_offer(rule: &str, options: Options, then: Vec<Act>) -> When {
    let offer = Offer {
        to: Seat::Actor,
        options,
        may_decline: true,
        uses_figure_step: true,
        then,
        repeat: false,
        order: tegula_ruleset::SeatOrder::TurnOrder,
    };
    offers::offered(rule, RuleEvent::FigureStep, offer)
}

fn rules_with(w: When) -> Arc<Rules> {
    let mut rs: Ruleset = base_ruleset();
    rs.when.push(w);
    Arc::new(Rules::new(rs).unwrap())
}

fn sites_rules() -> Arc<Rules> {
    let options = Options::AnyFeature {
        figures: FigureSet(1),
        avoid: Vec::new(),
    };
    rules_with(figure_step_offer("xp-11", options, vec![Act::Place]))
}

fn removal_rules() -> Arc<Rules> {
    let options = Options::FigureIn {
        figures: FigureSet(1),
    };
    rules_with(figure_step_offer("xp-12", options, vec![Act::ReturnChosen]))
}

fn site_names(g: &Game) -> Vec<(i32, i32, String)> {
    let each = g.choice_options().into_iter().map(|(_, o)| match o {
        ChoiceOption::Figure { x, y, feature, .. } => {
            let tile = g.tile_at(x, y).unwrap().0.tile;
            (x, y, g.rules().feature_name(tile, feature).to_string())
        }
        other => panic!("not a site: {other:?}"),
    });
    each.collect()
}

#[test]
fn sites_anywhere_list_every_other_tiles_free_features_in_board_order() {
    let rules = sites_rules();
    let mut g = game(&rules, &["U", "U"]);
    g.place(1, 0, 0).unwrap();
    meeple_on(&mut g, "road");
    g.place(-1, 0, 0).unwrap();
    // The road and both fields run through the tile just placed (its own options); D's city
    // is the one other free feature, named at D.
    assert_eq!(site_names(&g), [(0, 0, "city".to_string())]);
    // The follower options come first, then the sites, then the pass.
    let legal = g.legal_actions();
    let first = legal.iter().position(|a| matches!(a, Action::Choose(_)));
    let first = first.expect("a site is listed");
    assert!(legal[..first]
        .iter()
        .all(|a| matches!(a, Action::Follower(_))));
    assert_eq!(legal[first..], [Action::Choose(0), Action::Pass]);
}

#[test]
fn a_figure_placed_anywhere_goes_on_the_chosen_tile_and_ends_the_figure_step() {
    let rules = sites_rules();
    let mut g = game(&rules, &["U", "U", "U"]);
    g.place(1, 0, 0).unwrap();
    g.apply(Action::Pass).unwrap();
    g.place(-1, 0, 0).unwrap();
    let names = site_names(&g);
    let city = names.iter().position(|n| n.2 == "city").unwrap();
    g.apply(Action::Choose(city as u16)).unwrap();
    assert_eq!(g.supply(1, 0), 6);
    assert_eq!((g.phase(), g.current_player()), (Phase::Place, 0));
    let kinds: Vec<_> = (g.events().iter())
        .filter(|e| e.rule() == Some("xp-11"))
        .map(|e| e.kind())
        .collect();
    assert_eq!(kinds, ["choice"]);
    // The city is occupied now: no site on it for the next seat.
    g.place(2, 0, 0).unwrap();
    assert!(!site_names(&g).iter().any(|n| n.2 == "city"));
}

#[test]
fn a_completed_feature_is_no_site() {
    let rules = sites_rules();
    // E at (0, -1) turned 2 closes D's city: completed, nobody in it.
    let mut g = game(&rules, &["E", "U"]);
    g.place(0, -1, 2).unwrap();
    g.apply(Action::Pass).unwrap();
    g.place(1, 0, 0).unwrap();
    let names = site_names(&g);
    assert!(!names.iter().any(|n| n.2 == "city"), "{names:?}");
}

#[test]
fn a_figure_in_offer_lists_any_seats_figure_on_the_tiles_features_and_returns_it() {
    let rules = removal_rules();
    // Seat 0's knight in D's city through G at (0, -1); seat 1 places U on the road: its own
    // tile's features hold no figure, no offer.
    let mut g = game(&rules, &["G", "U", "E"]);
    g.place(0, -1, 1).unwrap();
    meeple_on(&mut g, "city");
    g.place(1, 0, 0).unwrap();
    assert_eq!(g.choice_count(), 0);
    g.apply(Action::Pass).unwrap();
    // Seat 0 closes the city with E: its own knight is an option too, removed before the
    // city scores (nobody is paid).
    g.place(0, -2, 2).unwrap();
    assert_eq!(g.choice_count(), 1);
    let (_, o) = g.choice_options()[0];
    assert!(matches!(o, ChoiceOption::Figure { x: 0, y: -1, .. }));
    g.apply(Action::Choose(0)).unwrap();
    assert_eq!((g.supply(0, 0), g.scores()), (7, &[0, 0][..]));
    let kinds: Vec<_> = (g.events().iter())
        .filter(|e| e.rule() == Some("xp-12"))
        .map(|e| e.kind())
        .collect();
    assert_eq!(kinds, ["choice", "return"]);
}

#[test]
fn games_with_sites_and_removals_replay_from_their_logs_and_snapshots() {
    for rules in [sites_rules(), removal_rules()] {
        let mut offers = 0;
        for seed in 0..4 {
            let mut g = Game::seeded(rules.clone(), 2, seed).unwrap();
            let mut agents = sim::build_agents(&[AgentKind::Random], &[seed, seed + 1]);
            while g.phase() != Phase::Over {
                let legal = g.legal_actions();
                assert!(legal.iter().all(|a| g.is_legal(a)));
                offers += usize::from(g.choice_count() > 0);
                sim::play_one(&mut g, &mut agents);
            }
            let log = log::log_text(&g);
            let back = log::replay(rules.clone(), &log).unwrap();
            assert_eq!(back.state_hash(), g.state_hash());
            let snap = Game::from_json(&g.to_json(), rules.clone()).unwrap();
            assert_eq!(snap, g);
        }
        assert!(offers > 0);
        let kinds = [AgentKind::Greedy, AgentKind::Mcts(8)];
        let stats = sim::simulate(&rules, 2, 1, 3, 1, &kinds, &|_| {}).unwrap();
        assert_eq!(stats.games, 1);
    }
}

#[test]
fn a_figure_step_offer_that_may_not_be_declined_is_the_whole_figure_step() {
    let options = Options::FigureIn {
        figures: FigureSet(1),
    };
    let mut w = figure_step_offer("xp-12", options, vec![Act::ReturnChosen]);
    if let Some(o) = w.offer.as_mut() {
        o.may_decline = false;
    }
    let rules = rules_with(w);
    let mut g = game(&rules, &["G", "U", "E"]);
    g.place(0, -1, 1).unwrap();
    meeple_on(&mut g, "city");
    // No figure on U's features: no offer, the ordinary figure step.
    g.place(1, 0, 0).unwrap();
    assert_eq!(g.phase(), Phase::Follower);
    g.apply(Action::Pass).unwrap();
    // The knight in the city E joins: the removal alone, no pass, no follower.
    g.place(0, -2, 2).unwrap();
    assert_eq!((g.phase(), g.current_player()), (Phase::Choice, 0));
    assert_eq!(g.legal_actions(), vec![Action::Choose(0)]);
    let e = g.check(Action::Pass).unwrap_err();
    assert_eq!((e.kind(), g.rule_of(&e)), ("must-choose", "xp-12"));
    let o = FollowerOption {
        feature: 0,
        follower: 0,
    };
    assert!(g.check(Action::Follower(o)).is_err());
    g.apply(Action::Choose(0)).unwrap();
    // The scripted pile is empty: the game is over, the city paid nobody.
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!((g.supply(0, 0), g.scores()), (7, &[0, 0][..]));
}
