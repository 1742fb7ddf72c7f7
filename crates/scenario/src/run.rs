//! Running a checked [`Scenario`] through the engine and comparing what happens with what the
//! file expects. Every failed expectation is reported (with the step number and its line), not
//! just the first; a divergence that makes the rest meaningless (a placement the engine refuses,
//! a different tile in hand) stops the run after reporting it.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use tegula_engine::{
    Action, CornerChoice, Event, FollowerOption, Game, MoveError, MoveTarget, Phase, Placement,
    Rules,
};

use crate::load::{Expected, ExpectedError, FollowerChoice, Pos, Scenario, Step};

mod choices;
mod items;

use items::{actual_items, expected_items, show, Item};

/// One failed expectation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// 1-based step number, `None` for setup, final scoring and final scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// Position in the scenario file (the step, the event or the key concerned).
    pub line: usize,
    /// Column.
    pub column: usize,
    /// What went wrong.
    pub message: String,
    /// What the scenario expected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// What the engine did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<String>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = self.step {
            write!(f, "step {s}: ")?;
        }
        write!(f, "{}", self.message)?;
        if let Some(e) = &self.expected {
            write!(f, "\n    expected: {e}")?;
        }
        if let Some(a) = &self.actual {
            write!(f, "\n    actual:   {a}")?;
        }
        Ok(())
    }
}

/// The result of running one scenario.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// Steps executed (rejected moves included).
    pub steps_run: usize,
    /// Final scores by seat, as the engine has them at the end of the run.
    pub scores: Vec<i64>,
    /// Every failed expectation, in order.
    pub failures: Vec<Failure>,
}

impl Outcome {
    /// Whether every expectation held.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// A refused move as `kind (rule): message`, the rule as the game's data cites it, once (a
/// placement rule's message already cites it).
fn refusal(game: &Game, e: &MoveError) -> String {
    let (m, rule) = (e.to_string(), game.rule_of(e));
    if m.contains(rule) {
        format!("{}: {m}", error_kind(e))
    } else {
        format!("{} ({rule}): {m}", error_kind(e))
    }
}

/// Stable kebab-case name of an engine error, as written in `expect_error.kind`.
pub fn error_kind(e: &MoveError) -> &'static str {
    e.kind()
}

/// Every error kind [`error_kind`] can return (for documentation and checks).
pub const ERROR_KINDS: &[&str] = MoveError::KINDS;

/// Compare expected and actual events exactly (as multisets). One failure per differing step,
/// positioned at the first expected event that did not happen (else at the step), listing what
/// is missing and what is unexpected.
fn compare_events(
    out: &mut Vec<Failure>,
    step: Option<usize>,
    at: Pos,
    what: &str,
    expected: &[Expected],
    actual: &[Event],
) {
    let exp = expected_items(expected);
    let act = actual_items(actual);
    let mut unmatched: Vec<Item> = act.clone();
    let mut missing = Vec::new();
    for (item, pos) in &exp {
        if let Some(i) = unmatched.iter().position(|a| a == item) {
            unmatched.remove(i);
        } else {
            missing.push((item.clone(), *pos));
        }
    }
    if missing.is_empty() && unmatched.is_empty() {
        return;
    }
    let pos = missing.first().map_or(at, |m| m.1);
    let mut parts = Vec::new();
    if !missing.is_empty() {
        let m: Vec<Item> = missing.into_iter().map(|m| m.0).collect();
        parts.push(format!("missing: {}", show(&m)));
    }
    if !unmatched.is_empty() {
        parts.push(format!("unexpected: {}", show(&unmatched)));
    }
    out.push(Failure {
        step,
        line: pos.line,
        column: pos.column,
        message: format!("{what} differ ({})", parts.join("; ")),
        expected: Some(show(
            &exp.iter().map(|(i, _)| i.clone()).collect::<Vec<_>>(),
        )),
        actual: Some(show(&act)),
    });
}

fn check_error(
    out: &mut Vec<Failure>,
    step: &Step,
    exp: &ExpectedError,
    got: &MoveError,
    what: &str,
) {
    let kind = error_kind(got);
    let msg = got.to_string();
    let kind_ok = exp.kind.as_deref().is_none_or(|k| k == kind);
    let msg_ok = exp.message.as_deref().is_none_or(|m| msg.contains(m));
    if !(kind_ok && msg_ok) {
        let mut e = Vec::new();
        if let Some(k) = &exp.kind {
            e.push(format!("kind `{k}`"));
        }
        if let Some(m) = &exp.message {
            e.push(format!("message containing \"{m}\""));
        }
        out.push(Failure {
            step: Some(step.number),
            line: exp.pos.line,
            column: exp.pos.column,
            message: format!("the {what} was rejected with another error"),
            expected: Some(e.join(", ")),
            actual: Some(format!("kind `{kind}`: {msg}")),
        });
    }
}

fn fail(step: &Step, message: String, expected: Option<String>, actual: Option<String>) -> Failure {
    Failure {
        step: Some(step.number),
        line: step.pos.line,
        column: step.pos.column,
        message,
        expected,
        actual,
    }
}

fn scores_text(s: &[i64]) -> String {
    format!("{s:?}")
}

fn compare_scores(out: &mut Vec<Failure>, step: Option<&Step>, pos: Pos, exp: &[i64], got: &[i64]) {
    let same = exp == got;
    if !same {
        out.push(Failure {
            step: step.map(|s| s.number),
            line: pos.line,
            column: pos.column,
            message: if step.is_some() {
                "scores after the step differ".into()
            } else {
                "final scores differ".into()
            },
            expected: Some(format!("{exp:?}")),
            actual: Some(scores_text(got)),
        });
    }
}

/// A step's `holdings` and `held` against the game's.
fn compare_held(out: &mut Vec<Failure>, step: &Step, game: &Game) {
    let rs = game.rules().ruleset();
    for (id, want) in &step.holdings {
        let Some(r) = rs.resources.iter().position(|x| x.id == *id) else {
            continue;
        };
        let got: Vec<u32> = (0..want.len() as u8).map(|p| game.holding(p, r)).collect();
        if got != *want {
            out.push(fail(
                step,
                format!("holdings of `{id}` after the step differ"),
                Some(format!("{want:?}")),
                Some(format!("{got:?}")),
            ));
        }
    }
    let Some(want) = &step.held else {
        return;
    };
    let got: Vec<(u8, u8, String)> = (game.held_figures().into_iter())
        .map(|(h, o, f)| (h, o, game.rules().follower_id(f).to_string()))
        .collect();
    if got != *want {
        out.push(fail(
            step,
            "held figures after the step differ".into(),
            Some(format!("{want:?}")),
            Some(format!("{got:?}")),
        ));
    }
}

/// Events since `cursor`, split into the part before the next draw (the step's own scoring)
/// and the rest (draws, discards and, if the game ended, final scoring).
fn split_at_draw(events: &[Event]) -> (&[Event], &[Event]) {
    let cut = events
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::Draw { .. } | Event::Discard { .. } | Event::End { .. }
            )
        })
        .unwrap_or(events.len());
    events.split_at(cut)
}

/// The outcome of a run that stopped before its first step: one failure at `pos`.
fn setup_failure(pos: Pos, message: String) -> Outcome {
    Outcome {
        steps_run: 0,
        scores: Vec::new(),
        failures: vec![Failure {
            step: None,
            line: pos.line,
            column: pos.column,
            message,
            expected: None,
            actual: None,
        }],
    }
}

/// Before a step: while the engine offers the current seat its own tiles (AM-1), decline unless
/// this step places one for that seat. An `own` step needs the offer; the seats declined must
/// be the step's `declined`, if it lists them.
fn settle_hand(game: &mut Game, step: &Step) -> Result<(), Failure> {
    let mut declined = Vec::new();
    let result = decline_offers(game, step, &mut declined);
    match &step.declined {
        Some(expected) if result.is_ok() && *expected != declined => Err(fail(
            step,
            "other seats were offered their own tiles and declined before this step (AM-1, AM-4)"
                .into(),
            Some(format!("declined by seats {expected:?}")),
            Some(format!("declined by seats {declined:?}")),
        )),
        _ => result,
    }
}

/// [`settle_hand`]'s offers: decline each not for this step, noting the seat in `declined`.
fn decline_offers(game: &mut Game, step: &Step, declined: &mut Vec<u8>) -> Result<(), Failure> {
    while game.phase() == Phase::Hand {
        let seat = game.current_player();
        if step.own && step.player.is_none_or(|p| p == seat) {
            return Ok(());
        }
        // AM-4: in the final round an offer declined is the seat's whole last turn; the
        // scenario must say so rather than have the runner decide it silently.
        if game.remaining() == 0 && step.declined.is_none() {
            return Err(unanswered_offer(game, Some(step), seat));
        }
        declined.push(seat);
        game.apply(Action::Pass).map_err(|e| {
            fail(
                step,
                "the engine refused a declined own tile".into(),
                None,
                Some(e.to_string()),
            )
        })?;
    }
    if step.own {
        return Err(fail(
            step,
            "the engine offers no own tile here (no hole for it, or none held, AM-1)".into(),
            Some(format!(
                "`{}` placed from the seat's own tiles",
                step.tile_id
            )),
            Some(format!("phase {:?}", game.phase())),
        ));
    }
    Ok(())
}

/// The failure for a final-round offer (AM-4) to `seat` that the scenario leaves unanswered:
/// neither an `own` step for the seat nor a `declined` list naming it.
fn unanswered_offer(game: &Game, step: Option<&Step>, seat: u8) -> Failure {
    let (number, pos, fix) = match step {
        Some(st) => (Some(st.number), st.pos, "this step's `declined`"),
        None => (None, Pos { line: 1, column: 1 }, "`declined_at_end`"),
    };
    let tiles = game
        .placements()
        .first()
        .map(|p| game.rules().tile_id(p.tile));
    Failure {
        step: number,
        line: pos.line,
        column: pos.column,
        message: format!(
            "seat {seat} is offered its own tile in the final round (AM-4) and the scenario does \
             not answer: give it an `own` step, or list seat {seat} in {fix}"
        ),
        expected: None,
        actual: Some(format!(
            "seat {seat} offered `{}`",
            tiles.unwrap_or("an own tile")
        )),
    }
}

/// After a step's turn: the decisions about freed figures, in the engine's order (AM-11, AM-12).
fn run_moves(game: &mut Game, step: &Step) -> Result<(), Failure> {
    let mut choices = step.moves.iter();
    while game.phase() == Phase::Move {
        let seat = game.current_player();
        let Some(m) = choices.next() else {
            return Err(fail(
                step,
                format!("the engine asks seat {seat} where its freed figure goes (AM-11), but the step lists no more `moves`"),
                None,
                Some(format!("{} target(s)", game.move_targets().len())),
            ));
        };
        let at_move = |message: String, actual: String| Failure {
            step: Some(step.number),
            line: m.pos.line,
            column: m.pos.column,
            message,
            expected: None,
            actual: Some(actual),
        };
        if let Some(p) = m.player.filter(|&p| p != seat) {
            return Err(at_move(
                format!("seat {p} should decide here"),
                format!("seat {seat} decides"),
            ));
        }
        let action = match &m.target {
            None => Action::Pass,
            Some(((x, y), seg)) => {
                let Some((tile, _)) = game.tile_at(*x, *y) else {
                    return Err(at_move(
                        format!("no tile at [{x}, {y}]"),
                        "an empty cell".into(),
                    ));
                };
                let Some(feature) = game.rules().feature_index(tile.tile, seg) else {
                    let id = game.rules().tile_id(tile.tile).to_string();
                    return Err(at_move(format!("tile `{id}` has no segment `{seg}`"), id));
                };
                Action::Move(MoveTarget {
                    x: tile.x,
                    y: tile.y,
                    feature,
                })
            }
        };
        game.apply(action)
            .map_err(|e| at_move("the engine refused the move".into(), refusal(game, &e)))?;
    }
    if choices.next().is_some() {
        return Err(fail(
            step,
            "the step lists more `moves` than the engine asked for".into(),
            None,
            None,
        ));
    }
    Ok(())
}

/// Setup (W-1): the scenario's `pool` picks, in the order the engine asks.
fn setup_pool(game: &mut Game, sc: &Scenario) -> Result<(), Failure> {
    let mut picks = sc.pool.iter();
    while game.phase() == Phase::Pick {
        let seat = game.current_player();
        let Some(&t) = picks.next() else {
            return Err(Failure {
                step: None,
                line: 1,
                column: 1,
                message: format!("the engine asks seat {seat} to pick a tile into the pool (W-1): list it in `pool`"),
                expected: None,
                actual: None,
            });
        };
        game.apply(Action::Take(t)).map_err(|e| Failure {
            step: None,
            line: 1,
            column: 1,
            message: "the engine refused a pool pick".into(),
            expected: None,
            actual: Some(refusal(game, &e)),
        })?;
    }
    Ok(())
}

/// `[setup]`: the position set by hand, after the pool picks and before the first step.
fn preset(game: &mut Game, sc: &Scenario) -> Result<(), Failure> {
    let Some((preset, pos)) = &sc.preset else {
        return Ok(());
    };
    game.preset(preset.clone()).map_err(|e| Failure {
        step: None,
        line: pos.line,
        column: pos.column,
        message: format!("the engine refused `[setup]`: {e}"),
        expected: None,
        actual: None,
    })
}

/// After a step's turn: the tiles taken from the pool (W-2) and, when several seats qualified
/// together, the active player's order (W-3) — both given by the step's `take` list.
fn run_takes(game: &mut Game, step: &Step) -> Result<(), Failure> {
    let mut takes = step.take.iter().peekable();
    while matches!(game.phase(), Phase::Pick | Phase::Order) {
        let Some(t) = takes.peek().copied() else {
            return Err(fail(
                step,
                format!(
                    "seat {} reached the pool threshold (W-2): the step must list a `take`",
                    game.current_player()
                ),
                None,
                Some(format!("phase {:?}", game.phase())),
            ));
        };
        let at = |message: String, actual: String| Failure {
            step: Some(step.number),
            line: t.pos.line,
            column: t.pos.column,
            message,
            expected: None,
            actual: Some(actual),
        };
        let action = if game.phase() == Phase::Order {
            Action::Seat(t.player)
        } else {
            if game.current_player() != t.player {
                return Err(at(
                    format!("seat {} should take here", t.player),
                    format!("seat {} takes", game.current_player()),
                ));
            }
            takes.next();
            Action::Take(t.tile)
        };
        game.apply(action).map_err(|e| {
            at(
                format!("the engine refused `{}` for seat {}", t.tile_id, t.player),
                refusal(game, &e),
            )
        })?;
    }
    if takes.next().is_some() {
        return Err(fail(
            step,
            "the step lists more `take`s than seats reached the threshold".into(),
            None,
            None,
        ));
    }
    Ok(())
}

/// `pile_ends`: after the last step, the remaining final-round offers (AM-4) are declined by
/// exactly the seats of `declined_at_end`, in order, and the game must be over.
fn play_to_end(game: &mut Game, sc: &Scenario) -> Result<(), Failure> {
    let steps = sc.steps.len();
    let mut declined = Vec::new();
    while game.phase() == Phase::Hand {
        let seat = game.current_player();
        let Some((listed, _)) = &sc.declined_at_end else {
            return Err(unanswered_offer(game, None, seat));
        };
        if !listed.contains(&seat) {
            return Err(unanswered_offer(game, None, seat));
        }
        declined.push(seat);
        if game.apply(Action::Pass).is_err() {
            break;
        }
    }
    if let Some((listed, pos)) = sc.declined_at_end.as_ref().filter(|d| d.0 != declined) {
        return Err(Failure {
            step: None,
            line: pos.line,
            column: pos.column,
            message: "other seats declined their own tiles after the last step (AM-4)".into(),
            expected: Some(format!("declined by seats {listed:?}")),
            actual: Some(format!("declined by seats {declined:?}")),
        });
    }
    if game.phase() == Phase::Over {
        return Ok(());
    }
    Err(Failure {
        step: Some(steps),
        line: 1,
        column: 1,
        message: "with `pile_ends` the game should be over after the last step".into(),
        expected: Some("the game over".into()),
        actual: Some(format!(
            "phase {:?}, {} tile(s) left",
            game.phase(),
            game.remaining()
        )),
    })
}

/// Run a scenario through the engine.
pub fn run(sc: &Scenario) -> Outcome {
    let top = Pos { line: 1, column: 1 };
    let rules = match scenario_rules(sc) {
        Ok(rules) => rules,
        Err(message) => return setup_failure(top, message),
    };
    let game = match &sc.board {
        // The log's game goes on: its events are history, not the steps'.
        Some((game, _)) => game.clone(),
        None => match new_game(sc, rules) {
            Ok(game) => game,
            Err(outcome) => return *outcome,
        },
    };
    let mut runner = Runner {
        cursor: game.events().len(),
        game,
        discards: VecDeque::new(),
        final_events: Vec::new(),
        failures: Vec::new(),
    };
    runner.take_new_events();
    let mut steps_run = 0;
    for step in &sc.steps {
        steps_run += 1;
        if runner.step(step).is_err() {
            break;
        }
    }
    runner.finish(sc, steps_run)
}

/// A new game for the scenario: its pile, the pool picks (W-1) and the `[setup]` preset; the
/// outcome of a run that stops there otherwise.
fn new_game(sc: &Scenario, rules: Arc<Rules>) -> Result<Game, Box<Outcome>> {
    let top = Pos { line: 1, column: 1 };
    let draws = scenario_pile(sc, &rules);
    let mut game = Game::scripted(rules, sc.players, draws).map_err(|e| {
        let why = format!("the engine cannot set up the game: {e}");
        Box::new(setup_failure(top, why))
    })?;
    if let Err(f) = setup_pool(&mut game, sc).and_then(|()| preset(&mut game, sc)) {
        return Err(Box::new(Outcome {
            steps_run: 0,
            scores: game.scores().to_vec(),
            failures: vec![f],
        }));
    }
    Ok(game)
}

/// The scenario's ruleset as the engine plays it: the pool's tiles in the pile for geometry
/// scenarios, the start tile (in its rotation) the scenario names.
fn scenario_rules(sc: &Scenario) -> Result<Arc<Rules>, String> {
    let mut ruleset = (*sc.ruleset).clone();
    if sc.pool_tiles_drawn {
        // Geometry scenarios: the pool's tiles become ordinary tiles of the pile.
        if let Some(pool) = ruleset.pool.take() {
            for t in pool.tiles {
                ruleset.tiles[t as usize].count = 1;
                ruleset.without_tile_rules(t);
            }
            // Nothing to take from: the rules offering pool tiles (W-2) go with the pool.
            let pool_tile = |w: &tegula_ruleset::When| {
                (w.offer.as_ref()).is_some_and(|o| o.options == tegula_ruleset::Options::PoolTile)
            };
            ruleset.when.retain(|w| !pool_tile(w));
        }
    }
    if let Some((tile, rot)) = sc.start {
        if rot == 0 {
            ruleset.start_tile = Some(tile);
        } else {
            // The engine lays the start tile with rotation 0: give it a copy of the tile type
            // whose rotation 0 is the requested rotation (same id, no copies in the pile).
            let mut t = ruleset.tiles[tile as usize].clone();
            t.count = 0;
            t.start = true;
            t.rotations.rotate_left(rot as usize % 4);
            ruleset.tiles.push(t);
            ruleset.start_tile = Some((ruleset.tiles.len() - 1) as u16);
        }
    }
    Rules::new(ruleset).map(Arc::new).map_err(|e| {
        let reasons: Vec<String> = e.reasons.iter().map(|r| r.to_string()).collect();
        format!("the engine refuses the variant: {}", reasons.join("; "))
    })
}

/// The draw pile: every step's tile except rejected placements (the tile stays in hand), plus
/// one sentinel so that the pile is not empty after the last step: the game then does not end
/// by itself, and final scoring runs only when `[end]` asks for it.
fn scenario_pile(sc: &Scenario, rules: &Rules) -> Vec<u16> {
    let mut draws: Vec<u16> = match &sc.pile {
        Some(p) => p.clone(),
        None => sc
            .steps
            .iter()
            .filter(|s| s.draws())
            .map(|s| s.tile)
            .collect(),
    };
    if !sc.pile_ends {
        let first = sc.steps.first().map_or(rules.start_tile(), |s| s.tile);
        // The pile's groups are drawn in order: a sentinel of an earlier group than the
        // last draw would be refused, so it is then the last draw's tile again.
        let sentinel = match draws.last() {
            Some(&last) if rules.pile_group(first) < rules.pile_group(last) => last,
            _ => first,
        };
        draws.push(sentinel);
    }
    draws
}

/// A step's divergence that makes the rest of the run meaningless (already recorded).
struct Stop;

/// A scenario's game and what has been read of its events.
struct Runner {
    game: Game,
    /// Events before this index were compared or set aside.
    cursor: usize,
    /// Tiles the engine discarded as unplaceable (B-2), not yet matched by a step.
    discards: VecDeque<String>,
    /// Events outside the steps' own (final scoring), compared with `[end]`.
    final_events: Vec<Event>,
    failures: Vec<Failure>,
}

impl Runner {
    /// Set the events since the cursor aside: discards for the steps, draws dropped, the rest
    /// for final scoring.
    fn take_new_events(&mut self) {
        let ev = self.game.events();
        set_aside(
            &ev[self.cursor..],
            &mut self.discards,
            &mut self.final_events,
        );
        self.cursor = ev.len();
    }

    /// Record a failure that stops the run.
    fn stop(&mut self, f: Failure) -> Stop {
        self.failures.push(f);
        Stop
    }

    /// Play one step and compare what happens with what it expects.
    fn step(&mut self, step: &Step) -> Result<(), Stop> {
        let mut answers = choices::Answers::of(step);
        // Offers of the turn's start, then own tiles on offer (AM-1): kept for this step if it
        // places one, declined otherwise.
        let start = answers.offers(&mut self.game, step);
        if let Err(f) = start.and_then(|_| settle_hand(&mut self.game, step)) {
            return Err(self.stop(f));
        }
        self.take_new_events();
        let Some(((x, y), rotation)) = step.placement else {
            return self.expect_discard(step);
        };
        self.check_in_hand(step)?;
        let placed = self.game.apply(Action::Place(Placement {
            tile: step.tile,
            x,
            y,
            rotation,
        }));
        if step.rejects_placement() {
            return self.expect_rejected(step, placed);
        }
        if let Err(e) = placed {
            let expected = format!(
                "`{}` at [{x}, {y}] rotation {rotation} accepted",
                step.tile_id
            );
            let message = "the engine rejected the placement".into();
            return Err(self.stop(fail(
                step,
                message,
                Some(expected),
                Some(refusal(&self.game, &e)),
            )));
        }
        // Offers of the placement, then the figure step's (beside the follower).
        let offered = (answers.offers(&mut self.game, step))
            .and_then(|_| answers.figure_step(&mut self.game, step));
        if let Err(f) = offered {
            return Err(self.stop(f));
        }
        self.followers(step)?;
        // Offers of the turn's end, freed figures' moves, pool takes; every answer used.
        let after = (answers.offers(&mut self.game, step))
            .and_then(|_| run_moves(&mut self.game, step))
            .and_then(|_| run_takes(&mut self.game, step))
            .and_then(|_| answers.all_used(step));
        if let Err(f) = after {
            return Err(self.stop(f));
        }
        self.compare_step(step);
        Ok(())
    }

    /// An unplaceable tile: the engine must have discarded it (B-2).
    fn expect_discard(&mut self, step: &Step) -> Result<(), Stop> {
        let actual = match self.discards.pop_front() {
            Some(t) if t == step.tile_id => return Ok(()),
            Some(t) => format!("the engine discarded `{t}`"),
            None => format!(
                "the engine has `{}` in hand with {} legal placement(s)",
                self.game.rules().tile_id(self.game.current_tile()),
                self.game.placements().len()
            ),
        };
        let message = "the tile should be unplaceable and discarded (B-2)".into();
        let expected = format!("`{}` discarded", step.tile_id);
        Err(self.stop(fail(step, message, Some(expected), Some(actual))))
    }

    /// Before placing: no unexpected discard, the game still on, the step's tile in hand and
    /// its seat on turn (own tiles were checked by `settle_hand`).
    fn check_in_hand(&mut self, step: &Step) -> Result<(), Stop> {
        let game = &self.game;
        if !step.own {
            if let Some(t) = self.discards.pop_front() {
                let message = format!(
                    "the engine discarded `{t}` as unplaceable (B-2), but the scenario does not \
                     say so"
                );
                let (expected, actual) = (
                    format!("`{}` in hand", step.tile_id),
                    format!("`{t}` discarded"),
                );
                return Err(self.stop(fail(step, message, Some(expected), Some(actual))));
            }
            if game.phase() != Phase::Place {
                let actual = format!("phase {:?}", game.phase());
                let message = "the game is over before this step".into();
                return Err(self.stop(fail(step, message, None, Some(actual))));
            }
            let kept = game
                .kept_tiles()
                .contains(&(game.current_player(), step.tile));
            if game.current_tile() != step.tile && !kept {
                let expected = format!("`{}`", step.tile_id);
                let actual = format!("`{}`", game.rules().tile_id(game.current_tile()));
                let message = "the engine drew another tile".into();
                return Err(self.stop(fail(step, message, Some(expected), Some(actual))));
            }
        }
        let seat = self.game.current_player();
        if let Some(p) = step.player.filter(|&p| p != seat) {
            let message = "another seat is on turn".into();
            let f = fail(
                step,
                message,
                Some(format!("seat {p}")),
                Some(format!("seat {seat}")),
            );
            self.failures.push(f);
        }
        Ok(())
    }

    /// A placement the scenario expects the engine to refuse.
    fn expect_rejected(&mut self, step: &Step, placed: Result<(), MoveError>) -> Result<(), Stop> {
        let exp = step
            .expect_error
            .as_ref()
            .expect("rejected step has expect_error");
        match placed {
            Err(e) => {
                check_error(&mut self.failures, step, exp, &e, "placement");
                Ok(())
            }
            Ok(()) => {
                let message = "the placement should be rejected, but the engine accepted it".into();
                let f = fail(
                    step,
                    message,
                    Some("rejected".into()),
                    Some("accepted".into()),
                );
                Err(self.stop(f))
            }
        }
    }

    /// The follower phase: the step's follower (none after a tile placed for a pool tile, W-6),
    /// a second one on a pool tile (W-7), then the end of the phase.
    fn followers(&mut self, step: &Step) -> Result<(), Stop> {
        let passed = self.first_follower(step);
        let second = step
            .follower2
            .as_ref()
            .filter(|_| self.game.phase() == Phase::Follower);
        if let (Some(f), false) = (second, passed) {
            // W-7: a second follower on another feature of the pool tile just placed.
            let r = self.game.apply(follower_action(f));
            if let Err(e) = r {
                self.failures.push(fail(
                    step,
                    "the engine rejected the second follower".into(),
                    Some(format!("{} on `{}` accepted", f.follower_id, f.segment)),
                    Some(refusal(&self.game, &e)),
                ));
            }
        }
        // Whatever was placed or refused, a follower phase still open ends without more.
        if self.game.phase() != Phase::Follower {
            return Ok(());
        }
        match self.game.apply(Action::Pass) {
            Ok(()) => Ok(()),
            Err(e) => {
                let message = "the engine refused to end the turn without a follower".into();
                Err(self.stop(fail(step, message, None, Some(e.to_string()))))
            }
        }
    }

    /// The step's first follower; whether the turn went on without one (none asked, or the
    /// one asked refused), so that no second follower follows.
    fn first_follower(&mut self, step: &Step) -> bool {
        if self.game.phase() != Phase::Follower {
            if let Some(f) = &step.follower {
                self.no_follower_phase(step, f);
            }
            return false;
        }
        let Some(f) = &step.follower else {
            return true;
        };
        let r = self.game.apply(follower_action(f));
        match (r, &step.expect_error) {
            (Ok(()), None) => false,
            (Ok(()), Some(_)) => {
                self.failures.push(fail(
                    step,
                    "the follower should be rejected, but the engine accepted it".into(),
                    Some("rejected".into()),
                    Some(format!("{} placed on `{}`", f.follower_id, f.segment)),
                ));
                false
            }
            (Err(e), Some(exp)) => {
                check_error(&mut self.failures, step, exp, &e, "follower");
                true
            }
            (Err(e), None) => {
                self.failures.push(fail(
                    step,
                    "the engine rejected the follower".into(),
                    Some(format!("{} on `{}` accepted", f.follower_id, f.segment)),
                    Some(refusal(&self.game, &e)),
                ));
                true
            }
        }
    }

    /// A follower asked for where the engine opens no follower phase (a tile placed for a pool
    /// tile, W-6): the engine's refusal is the step's expected rejection, or a failure.
    fn no_follower_phase(&mut self, step: &Step, f: &FollowerChoice) {
        let refused = self.game.apply(follower_action(f));
        match (refused, &step.expect_error) {
            (Err(e), Some(exp)) => check_error(&mut self.failures, step, exp, &e, "follower"),
            (Err(e), None) => self.failures.push(fail(
                step,
                "no follower may be placed after this placement".into(),
                Some(format!("{} on `{}` accepted", f.follower_id, f.segment)),
                Some(refusal(&self.game, &e)),
            )),
            // Outside the follower phase the engine refuses every follower.
            (Ok(()), _) => {}
        }
    }

    /// The step's own events (up to the next draw) and its scores.
    fn compare_step(&mut self, step: &Step) {
        let ev = self.game.events();
        // A last turn's own scoring ends where final scoring begins (`pile_ends`).
        let stop = self
            .game
            .final_scoring_from()
            .unwrap_or(ev.len())
            .max(self.cursor);
        let (own, rest) = split_at_draw(&ev[self.cursor..stop]);
        let rest = [rest, &ev[stop..]].concat();
        let (number, pos) = (Some(step.number), step.pos);
        compare_events(&mut self.failures, number, pos, "events", &step.expect, own);
        set_aside(&rest, &mut self.discards, &mut self.final_events);
        self.cursor = ev.len();
        if let Some(s) = &step.scores {
            compare_scores(
                &mut self.failures,
                Some(step),
                step.pos,
                s,
                self.game.scores(),
            );
        }
        compare_held(&mut self.failures, step, &self.game);
        if let Some((want, pos)) = &step.corner_figures {
            compare_corner_figures(&mut self.failures, step, *pos, want, &self.game);
        }
    }

    /// After the steps: the rest of the pile (`pile_ends`), final scoring (`[end]`) and the
    /// final scores.
    fn finish(mut self, sc: &Scenario, steps_run: usize) -> Outcome {
        if sc.pile_ends {
            if let Err(f) = play_to_end(&mut self.game, sc) {
                self.failures.push(f);
            }
        }
        if let Some(end) = &sc.end {
            self.game.finish();
            let ev = self.game.events();
            self.final_events.extend(ev[self.cursor..].iter().cloned());
            compare_events(
                &mut self.failures,
                None,
                end.pos,
                "final-scoring events",
                &end.expect,
                &self.final_events,
            );
        }
        let scores = self.game.scores().to_vec();
        if let Some((exp, pos)) = &sc.final_scores {
            compare_scores(&mut self.failures, None, *pos, exp, &scores);
        }
        Outcome {
            steps_run,
            scores,
            failures: self.failures,
        }
    }
}

/// A step's follower as the engine's action: on its named corner (AM-6) if it has one.
fn follower_action(f: &FollowerChoice) -> Action {
    let option = FollowerOption {
        feature: f.feature,
        follower: f.follower,
    };
    match f.corner {
        Some(point) => Action::Corner(CornerChoice { option, point }),
        None => Action::Follower(option),
    }
}

/// The step's `corner_figures`: the board points of the corner figures standing after it,
/// compared as sets.
fn compare_corner_figures(
    out: &mut Vec<Failure>,
    step: &Step,
    pos: Pos,
    want: &[[i32; 2]],
    game: &Game,
) {
    let show = |mut v: Vec<[i32; 2]>| {
        v.sort_unstable();
        let points: Vec<String> = v.iter().map(|[x, y]| format!("[{x}, {y}]")).collect();
        format!("[{}]", points.join(", "))
    };
    let actual: Vec<[i32; 2]> = game.followers().iter().filter_map(|f| f.corner).collect();
    let (expected, actual) = (show(want.to_vec()), show(actual));
    if expected != actual {
        out.push(Failure {
            step: Some(step.number),
            line: pos.line,
            column: pos.column,
            message: "the corner figures stand elsewhere (AM-6)".into(),
            expected: Some(expected),
            actual: Some(actual),
        });
    }
}

/// Events outside a step's own: discards are queued for the steps, draws dropped, the rest kept
/// for final scoring.
fn set_aside(events: &[Event], discards: &mut VecDeque<String>, fin: &mut Vec<Event>) {
    for e in events {
        match e {
            Event::Discard { tile, .. } => discards.push_back(tile.clone()),
            Event::Draw { .. } => {}
            other => fin.push(other.clone()),
        }
    }
}
