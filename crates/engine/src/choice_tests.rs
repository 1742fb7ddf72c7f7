//! Offered choices (issue 30, item 2) on hand-built rulesets: a figure-step offer (withdraw a
//! figure for points, AB-4's shape), a tile-placed neighbour offer (GM-2's), a kind offer
//! (LB-2's), a turn-end offer with a decline (CA-3's); their log and snapshot round trips.

use std::sync::Arc;

use tegula_ruleset::{
    Act, CounterType, Expr, Offer, Options, PieceKind, Resource, RuleEvent, Ruleset, Seat, TileRef,
    When, CHOSEN,
};

use crate::testkit::{base_ruleset, meeple_on, offers, scripted_game as game};
use crate::*;

fn offer(options: Options, may_decline: bool, uses_figure_step: bool, then: Vec<Act>) -> Offer {
    Offer {
        to: Seat::Actor,
        options,
        may_decline,
        uses_figure_step,
        then,
        repeat: false,
        order: tegula_ruleset::SeatOrder::TurnOrder,
    }
}

fn rules_with(rs: Ruleset) -> Arc<Rules> {
    Arc::new(Rules::new(rs).unwrap())
}

fn with_rule(w: When) -> Ruleset {
    let mut rs = base_ruleset();
    rs.when.push(w);
    rs
}

fn withdraw_rule() -> When {
    offers::withdraw("xa-4")
}

/// Seat 0's monk on B at (0, 1); seat 1's U at (1, 0); seat 0's U at (-1, 0), then its figure
/// step.
fn monk_game(rules: &Arc<Rules>) -> Game {
    let mut g = game(rules, &["B", "U", "U", "U"]);
    g.place(0, 1, 0).unwrap();
    meeple_on(&mut g, "cloister");
    g.place(1, 0, 0).unwrap();
    g.apply(Action::Pass).unwrap();
    g.place(-1, 0, 0).unwrap();
    g
}

#[test]
fn a_figure_step_offer_is_listed_after_the_follower_options_and_withdraws_for_points() {
    let plain = monk_game(&rules_with(base_ruleset()));
    let rules = rules_with(with_rule(withdraw_rule()));
    let mut g = monk_game(&rules);
    assert_eq!(g.phase(), Phase::Follower);
    // The follower options keep their ids; the choice comes after them, before the pass.
    let legal = g.legal_actions();
    let before = plain.legal_actions();
    assert_eq!(legal[..before.len() - 1], before[..before.len() - 1]);
    assert_eq!(legal[before.len() - 1], Action::Choose(0));
    assert_eq!(legal.last(), Some(&Action::Pass));
    let monk = ChoiceOption::Figure {
        x: 0,
        y: 1,
        feature: 0,
        follower: 0,
    };
    assert_eq!(g.choice_options(), vec![(0, monk)]);
    // A choice that does not exist is explained, citing the rule.
    let e = g.check(Action::Choose(1)).unwrap_err();
    assert_eq!(e.kind(), "no-such-option");
    assert_eq!(g.rule_of(&e), "xa-4");
    assert!(e.to_string().contains("1 option(s)"), "{e}");
    g.apply(Action::Choose(0)).unwrap();
    // 1 + 3 neighbours (D, and the two U tiles), the monk back, the figure step used up.
    assert_eq!(g.scores(), &[4, 0]);
    assert_eq!(g.supply(0, 0), 7);
    assert_eq!(g.phase(), Phase::Place);
    assert_eq!(g.current_player(), 1);
    let turn: Vec<_> = g
        .events()
        .iter()
        .filter(|e| e.rule() == Some("xa-4"))
        .collect();
    let kinds: Vec<_> = turn.iter().map(|e| e.kind()).collect();
    assert_eq!(kinds, ["choice", "score", "return"]);
    assert_eq!(turn[1].points(), 4);
}

#[test]
fn an_offer_with_no_option_is_not_made() {
    let rules = rules_with(with_rule(withdraw_rule()));
    let mut g = game(&rules, &["U", "U"]);
    g.place(1, 0, 0).unwrap();
    assert_eq!(g.choice_count(), 0);
    assert!(!g
        .legal_actions()
        .iter()
        .any(|a| matches!(a, Action::Choose(_))));
    let e = g.check(Action::Choose(0)).unwrap_err();
    assert_eq!(e.kind(), "wrong-phase");
}

/// GM-2's shape: a tile placed, a counter on it and one on a neighbouring tile the actor picks
/// (diagonals count), and the picker gains 2 of a resource.
fn neighbour_rule() -> Ruleset {
    let mut rs = base_ruleset();
    let w = offers::neighbour(&mut rs, "xg-2", "nuggets", "ore");
    rs.when.push(w);
    rs
}

fn counter_type(id: &str) -> CounterType {
    CounterType {
        id: id.into(),
        name: id.into(),
    }
}

fn resource(id: &str) -> Resource {
    Resource {
        id: id.into(),
        name: id.into(),
        start: Vec::new(),
    }
}

#[test]
fn a_tile_placed_offer_comes_before_the_figure_step_in_cell_order() {
    let rules = rules_with(neighbour_rule());
    let mut g = game(&rules, &["B", "U", "U"]);
    g.place(0, 1, 0).unwrap();
    // One option (D) and no decline: still a choice.
    assert_eq!(g.phase(), Phase::Choice);
    assert_eq!(g.legal_actions(), vec![Action::Choose(0)]);
    let e = g.check(Action::Pass).unwrap_err();
    assert_eq!((e.kind(), g.rule_of(&e)), ("must-choose", "xg-2"));
    g.apply(Action::Choose(0)).unwrap();
    assert_eq!(g.holdings(), &[2, 0]);
    assert_eq!((g.counters_at(0, 0, 1), g.counters_at(0, 0, 0)), (1, 1));
    assert_eq!(g.phase(), Phase::Follower);
    assert!(!g.follower_options().is_empty());
    g.apply(Action::Pass).unwrap();
    // Seat 1's U at (1, 0): D at (0, 0), then B at (0, 1) (row, then column).
    g.place(1, 0, 0).unwrap();
    assert_eq!((g.phase(), g.current_player()), (Phase::Choice, 1));
    let cells: Vec<_> = g.choice_options().into_iter().map(|c| c.1).collect();
    let tile = |x, y| ChoiceOption::Tile { x, y };
    assert_eq!(cells, [tile(0, 0), tile(0, 1)]);
    g.apply(Action::Choose(1)).unwrap();
    let chosen = g
        .events()
        .iter()
        .rev()
        .find(|e| e.kind() == "choice")
        .unwrap();
    assert_eq!(
        *chosen,
        Event::Choice {
            turn: 2,
            rule: "xg-2".into(),
            player: 1,
            option: ChoiceWord::Tile([0, 1]),
        }
    );
    assert_eq!(g.holdings(), &[2, 2]);
    assert_eq!(g.counters_at(0, 0, 1), 2);
    assert_eq!(g.counters_at(0, 1, 0), 1);
}

/// LB-2's shape: instead of a figure, place a piece of a kind the seat holds.
fn kind_rules() -> Arc<Rules> {
    let of = vec![
        PieceKind {
            resource: 0,
            counter: 0,
        },
        PieceKind {
            resource: 1,
            counter: 1,
        },
    ];
    let spend = Act::Gain {
        resource: CHOSEN,
        amount: Expr::Int(1),
        to: Seat::Chooser,
        spend: true,
    };
    let put = Act::Counters {
        counter: CHOSEN,
        add: Expr::Int(1),
        on: TileRef::Subject,
    };
    let o = offer(Options::Kind { of }, true, true, vec![spend, put]);
    let mut rs = with_rule(offers::offered("xl-2", RuleEvent::FigureStep, o));
    rs.resources.extend([resource("tower"), resource("house")]);
    rs.counters
        .extend([counter_type("tower"), counter_type("house")]);
    rules_with(rs)
}

#[test]
fn a_kind_offer_lists_only_the_kinds_held_and_spends_the_chosen_one() {
    let rules = kind_rules();
    let mut g = game(&rules, &["U", "U"]);
    let preset = Preset {
        resources: vec![(0, 1, 2)],
        ..Preset::default()
    };
    g.preset(preset).unwrap();
    g.place(1, 0, 0).unwrap();
    let kinds: Vec<_> = g.choice_options().into_iter().map(|c| c.1).collect();
    let house = ChoiceOption::Kind {
        index: 1,
        resource: 1,
    };
    assert_eq!(kinds, [house]);
    let n = g.follower_options().len() as u16;
    assert_eq!(g.legal_actions()[n as usize], Action::Choose(0));
    g.apply(Action::Choose(0)).unwrap();
    assert_eq!(g.holdings(), &[0, 1, 0, 0]);
    assert_eq!((g.counters_at(0, 1, 0), g.counters_at(1, 1, 0)), (0, 1));
    assert_eq!((g.phase(), g.current_player()), (Phase::Place, 1));
    let word = ChoiceWord::Kind("house".into());
    let chosen = g.events().iter().find_map(|e| match e {
        Event::Choice { option, .. } => Some(option),
        _ => None,
    });
    assert_eq!(chosen, Some(&word));
}

/// CA-3's shape: at the end of the turn, the actor may take a figure of theirs off a city.
fn escape_rules() -> Arc<Rules> {
    rules_with(with_rule(offers::escape("xc-3")))
}

/// Seat 0's knight on E at (0, 1) turned so that its city faces south (open).
fn knight_game(rules: &Arc<Rules>) -> Game {
    let mut g = game(rules, &["E", "U", "U", "U"]);
    g.place(0, 1, 2).unwrap();
    meeple_on(&mut g, "city");
    g
}

#[test]
fn a_turn_end_offer_may_be_declined_and_later_taken() {
    let rules = escape_rules();
    let mut g = knight_game(&rules);
    assert_eq!((g.phase(), g.current_player()), (Phase::Choice, 0));
    assert_eq!(g.legal_actions(), vec![Action::Choose(0), Action::Pass]);
    g.apply(Action::Pass).unwrap();
    let declined = Event::Pass {
        turn: 1,
        player: 0,
        rule: Some("xc-3".into()),
    };
    assert!(g.events().contains(&declined));
    // Seat 1 has no figure on a city: no offer, straight to seat 0's turn.
    assert_eq!((g.phase(), g.current_player()), (Phase::Place, 1));
    g.place(1, 0, 0).unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!((g.phase(), g.current_player()), (Phase::Place, 0));
    g.place(-1, 0, 0).unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!(g.phase(), Phase::Choice);
    g.apply(Action::Choose(0)).unwrap();
    assert_eq!(g.supply(0, 0), 7);
    assert!(g.followers().is_empty());
    let returned = g.events().iter().rev().find(|e| e.kind() == "return");
    assert_eq!(returned.and_then(Event::rule), Some("xc-3"));
    assert_eq!((g.phase(), g.current_player()), (Phase::Place, 1));
}

#[test]
fn games_with_choices_replay_from_their_logs_and_snapshots() {
    for rules in [escape_rules(), kind_rules(), rules_with(neighbour_rule())] {
        let rules2 = rules.clone();
        let rules3 = rules.clone();
        for seed in 0..6 {
            let mut g = Game::seeded(rules.clone(), 2, seed).unwrap();
            let mut agents = sim::build_agents(&[AgentKind::Random], &[seed, seed + 1]);
            sim::play_out(&mut g, &mut agents);
            let log = log::log_text(&g);
            let back = log::replay(rules2.clone(), &log).unwrap();
            assert_eq!(back.state_hash(), g.state_hash());
            let again = log::log_text(&back);
            if again.lines().skip(1).ne(log.lines().skip(1)) {
                // (The setup line of a replayed game names no seed.)
                let lines = again.lines().zip(log.lines()).skip(1);
                let diff = lines.into_iter().find(|(a, b)| a != b);
                panic!("seed {seed}: {diff:?}");
            }
            let snap = Game::from_json(&g.to_json(), rules3.clone()).unwrap();
            assert_eq!(snap, g);
        }
    }
}

#[test]
fn a_snapshot_taken_in_a_choice_reads_back_equal() {
    let rules = escape_rules();
    let g = knight_game(&rules);
    assert_eq!(g.phase(), Phase::Choice);
    let back = Game::from_json(&g.to_json(), rules.clone()).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.state_hash(), g.state_hash());
    assert_eq!(back.legal_actions(), g.legal_actions());
}

#[test]
fn a_log_with_a_choice_no_longer_offered_stops_at_that_line() {
    let rules = escape_rules();
    let mut g = Game::seeded(rules.clone(), 2, 0).unwrap();
    let mut agents = sim::build_agents(&[AgentKind::Random], &[0, 1]);
    sim::play_out(&mut g, &mut agents);
    let log = log::log_text(&g);
    let at = log.find("\"type\":\"choice\"").expect("a choice was made");
    let line = log[..at].lines().count();
    let bad =
        log[..at].to_string() + &log[at..].replacen("\"figure\":{\"x\":", "\"figure\":{\"x\":9", 1);
    let e = log::replay(rules.clone(), &bad).unwrap_err();
    assert_eq!(e.line, line);
    assert!(e.to_string().contains("xc-3"), "{e}");
}

#[test]
fn greedy_takes_the_choice_that_scores_and_search_agents_play_choices_through() {
    let rules = rules_with(with_rule(withdraw_rule()));
    let g = monk_game(&rules);
    let mut greedy = GreedyAgent::new(1);
    let n = g.follower_options().len();
    let step = greedy.choose_step(&g, g.follower_options(), g.choice_count());
    assert_eq!(step, Some(n), "withdrawing the monk gains 4 now");
    for rules in [
        escape_rules(),
        kind_rules(),
        rules_with(neighbour_rule()),
        rules,
    ] {
        let kinds = [AgentKind::Greedy, AgentKind::Mcts(8)];
        let stats = sim::simulate(&rules, 2, 1, 3, 1, &kinds, &|_| {}).unwrap();
        assert_eq!(stats.games, 1);
    }
}

#[test]
fn a_figure_step_choice_that_keeps_the_step_leaves_the_follower_options() {
    // The withdrawal without using up the figure step: the follower options stay, the offer
    // is used for the turn.
    let mut w = withdraw_rule();
    if let Some(o) = w.offer.as_mut() {
        o.uses_figure_step = false;
    }
    let rules = rules_with(with_rule(w));
    let mut g = monk_game(&rules);
    let options = g.follower_options().to_vec();
    g.apply(Action::Choose(0)).unwrap();
    assert_eq!((g.phase(), g.current_player()), (Phase::Follower, 0));
    assert_eq!(g.follower_options(), &options[..]);
    assert_eq!(g.choice_count(), 0);
    assert_eq!(g.scores(), &[4, 0]);
    // The monk back in supply may go on the new tile.
    meeple_on(&mut g, "road");
    assert_eq!((g.phase(), g.supply(0, 0)), (Phase::Place, 6));
}

#[test]
fn every_listed_action_is_legal_and_no_other_choice_is() {
    for rules in [escape_rules(), kind_rules(), rules_with(neighbour_rule())] {
        let mut g = Game::seeded(rules.clone(), 3, 11).unwrap();
        if rules.ruleset().resources.len() == 2 {
            // Buildings to place (the kind offer lists only kinds held).
            let resources = vec![(0, 0, 3), (1, 1, 2), (2, 0, 1)];
            g.preset(Preset {
                resources,
                ..Preset::default()
            })
            .unwrap();
        }
        let mut agents = sim::build_agents(&[AgentKind::Random], &[1, 2, 3]);
        let mut offers = 0;
        while g.phase() != Phase::Over {
            let legal = g.legal_actions();
            assert!(legal.iter().all(|a| g.is_legal(a)));
            let n = g.choice_count() as u16;
            offers += usize::from(n > 0);
            let beyond = g.check(Action::Choose(n)).unwrap_err();
            assert!(["no-such-option", "wrong-phase"].contains(&beyond.kind()));
            let chooses = legal
                .iter()
                .filter(|a| matches!(a, Action::Choose(_)))
                .count();
            assert_eq!(chooses, usize::from(n));
            sim::play_one(&mut g, &mut agents);
        }
        assert!(offers > 0);
    }
}
