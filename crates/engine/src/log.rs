//! Game logs (JSON Lines) and replay.
//!
//! Line 1 is the setup: `{"type":"setup","variant":…,"players":…,"seed":…|null,"pile":[tile ids]}`.
//! Every following line is one [`Event`] as serialised by serde (draws, decisions — `place`,
//! `follower`, `pass` — scores, returns, seat resources gained and awarded, and a final `end` line
//! with the scores and, where the variant has seat resources, the holdings). A corner figure's
//! `follower` line records its point (`"corner":[x,y]`, AM-6), and replay puts it there. The same seed and
//! decisions give a byte-identical log.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::event::Event;
use crate::game::{Action, CornerChoice, FollowerOption, Game, MoveTarget, PileOrder, Placement};
use crate::rules::Rules;

/// The setup line of a game's log.
pub fn setup_line(game: &Game) -> String {
    #[derive(serde::Serialize)]
    struct Setup<'a> {
        #[serde(rename = "type")]
        kind: &'a str,
        variant: &'a str,
        players: u8,
        seed: Option<u64>,
        pile: Vec<&'a str>,
    }
    let rules = game.rules();
    let setup = Setup {
        kind: "setup",
        variant: &rules.ruleset().id,
        players: game.players(),
        seed: game.seed(),
        pile: game
            .setup_pile()
            .iter()
            .map(|&t| rules.tile_id(t))
            .collect(),
    };
    serde_json::to_string(&setup).unwrap_or_default()
}

/// One event as a log line (no newline).
pub fn event_line(event: &Event) -> String {
    serde_json::to_string(event)
        .unwrap_or_else(|e| format!("{{\"type\":\"error\",\"message\":\"{e}\"}}"))
}

/// The whole log of a recorded game, one line per entry, each ending in `\n`.
pub fn log_text(game: &Game) -> String {
    let mut s = setup_line(game);
    s.push('\n');
    for e in game.events() {
        s.push_str(&event_line(e));
        s.push('\n');
    }
    s
}

/// What went wrong in a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayErrorKind {
    /// A line is not valid JSON or lacks a field.
    Corrupt,
    /// The setup cannot be used with these rules.
    Setup,
    /// A decision in the log is illegal.
    Illegal,
    /// The game produced something else than the log says.
    Divergence,
}

/// A replay failure with the 1-based line number and, once play started, the move number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// Category.
    pub kind: ReplayErrorKind,
    /// 1-based line of the log.
    pub line: usize,
    /// 1-based decision number, if any decision was involved.
    pub move_number: Option<u32>,
    /// Explanation.
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            ReplayErrorKind::Corrupt => "corrupt log",
            ReplayErrorKind::Setup => "bad setup",
            ReplayErrorKind::Illegal => "illegal move",
            ReplayErrorKind::Divergence => "divergence",
        };
        write!(f, "line {}", self.line)?;
        if let Some(m) = self.move_number {
            write!(f, " (move {m})")?;
        }
        write!(f, ": {kind}: {}", self.message)
    }
}

impl std::error::Error for ReplayError {}

fn err(kind: ReplayErrorKind, line: usize, mv: Option<u32>, m: impl Into<String>) -> ReplayError {
    ReplayError {
        kind,
        line,
        move_number: mv,
        message: m.into(),
    }
}

fn field<'a>(v: &'a Value, key: &str, line: usize) -> Result<&'a Value, ReplayError> {
    v.get(key).ok_or_else(|| {
        err(
            ReplayErrorKind::Corrupt,
            line,
            None,
            format!("missing field `{key}`"),
        )
    })
}

fn int(v: &Value, key: &str, line: usize) -> Result<i64, ReplayError> {
    field(v, key, line)?.as_i64().ok_or_else(|| {
        err(
            ReplayErrorKind::Corrupt,
            line,
            None,
            format!("field `{key}` is not an integer"),
        )
    })
}

fn text<'a>(v: &'a Value, key: &str, line: usize) -> Result<&'a str, ReplayError> {
    field(v, key, line)?.as_str().ok_or_else(|| {
        err(
            ReplayErrorKind::Corrupt,
            line,
            None,
            format!("field `{key}` is not a string"),
        )
    })
}

/// Compare the engine's next unchecked event (if there is one) with log line `v`, advancing
/// `produced`; `Ok(true)` when an event was compared.
fn match_next(
    game: &Game,
    produced: &mut usize,
    v: &Value,
    ln: usize,
    moves: u32,
) -> Result<bool, ReplayError> {
    let Some(event) = game.events().get(*produced) else {
        return Ok(false);
    };
    let mine = serde_json::to_value(event).unwrap_or(Value::Null);
    if &mine != v {
        return Err(err(
            ReplayErrorKind::Divergence,
            ln,
            Some(moves),
            format!("the log says {v} but the engine produced {mine}"),
        ));
    }
    *produced += 1;
    Ok(true)
}

/// Re-run a log against `rules`: rebuild the game from the setup line, apply every decision, and
/// check that every other line is exactly what the engine produces. Returns the finished game.
/// Stops at the first bad line (see [`Replayer`] to feed a log line by line).
pub fn replay(rules: Arc<Rules>, log: &str) -> Result<Game, ReplayError> {
    let mut replayer = Replayer::new(rules);
    for (i, l) in log.lines().enumerate() {
        replayer.line(i + 1, l)?;
    }
    replayer.finish()
}

/// A replay fed one line at a time (a log read as a stream): every line is checked when it
/// arrives, so a reader can stop at the first error without reading the rest.
pub struct Replayer {
    rules: Arc<Rules>,
    /// The game, once the setup line is read.
    game: Option<Game>,
    /// Engine events already matched against the log.
    produced: usize,
    /// Decisions applied.
    moves: u32,
    /// The last non-blank line read.
    last: usize,
}

impl Replayer {
    /// A replay against `rules`, waiting for the setup line.
    pub fn new(rules: Arc<Rules>) -> Self {
        Replayer {
            rules,
            game: None,
            produced: 0,
            moves: 0,
            last: 0,
        }
    }

    /// Check line `ln` (1-based) of the log; blank lines are skipped.
    pub fn line(&mut self, ln: usize, text: &str) -> Result<(), ReplayError> {
        if text.trim().is_empty() {
            return Ok(());
        }
        let v: Value = serde_json::from_str(text).map_err(|e| {
            err(
                ReplayErrorKind::Corrupt,
                ln,
                None,
                format!("not a JSON object: {e}"),
            )
        })?;
        if !v.is_object() {
            return Err(err(ReplayErrorKind::Corrupt, ln, None, "not a JSON object"));
        }
        self.last = ln;
        match &mut self.game {
            None => {
                self.game = Some(setup(&self.rules, &v, ln)?);
                Ok(())
            }
            Some(game) => step(game, &mut self.produced, &mut self.moves, &v, ln),
        }
    }

    /// The game as replayed so far (`None` before the setup line): a position part-way through a
    /// log, e.g. a scenario's starting board.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The game as replayed so far, without the end-of-log checks of [`Replayer::finish`]: the
    /// position after a prefix of the log.
    pub fn into_game(self) -> Option<Game> {
        self.game
    }

    /// The end of the log: the game must have produced nothing more and be over.
    pub fn finish(self) -> Result<Game, ReplayError> {
        let Some(game) = self.game else {
            return Err(err(ReplayErrorKind::Corrupt, 1, None, "the log is empty"));
        };
        let after = self.last + 1;
        if let Some(event) = game.events().get(self.produced) {
            let mine = serde_json::to_value(event).unwrap_or(Value::Null);
            return Err(err(
                ReplayErrorKind::Divergence,
                after,
                Some(self.moves),
                format!("the log ends but the engine produced {mine}"),
            ));
        }
        if game.phase() != crate::Phase::Over {
            return Err(err(
                ReplayErrorKind::Divergence,
                after,
                Some(self.moves),
                "the log ends before the game is over",
            ));
        }
        Ok(game)
    }
}

/// The game a setup line (line `l0`) describes, with its scripted pile.
fn setup(rules: &Arc<Rules>, setup: &Value, l0: usize) -> Result<Game, ReplayError> {
    if text(setup, "type", l0)? != "setup" {
        return Err(err(
            ReplayErrorKind::Corrupt,
            l0,
            None,
            "the first line is not a setup line",
        ));
    }
    let variant = text(setup, "variant", l0)?;
    if variant != rules.ruleset().id {
        return Err(err(
            ReplayErrorKind::Setup,
            l0,
            None,
            format!(
                "the log is for variant `{variant}`, not `{}`",
                rules.ruleset().id
            ),
        ));
    }
    let players = int(setup, "players", l0)?;
    let players = u8::try_from(players)
        .map_err(|_| err(ReplayErrorKind::Setup, l0, None, "bad player count"))?;
    let pile_v = field(setup, "pile", l0)?
        .as_array()
        .ok_or_else(|| err(ReplayErrorKind::Corrupt, l0, None, "`pile` is not a list"))?;
    let mut pile = Vec::with_capacity(pile_v.len());
    for t in pile_v {
        let id = t.as_str().ok_or_else(|| {
            err(
                ReplayErrorKind::Corrupt,
                l0,
                None,
                "pile entry not a string",
            )
        })?;
        let idx = rules.tile_index(id).ok_or_else(|| {
            err(
                ReplayErrorKind::Setup,
                l0,
                None,
                format!("unknown tile `{id}` in the pile"),
            )
        })?;
        pile.push(idx);
    }
    if let Some(m) = pile_mismatch(rules, &pile) {
        return Err(err(ReplayErrorKind::Setup, l0, None, m));
    }
    Game::new(rules.clone(), players, PileOrder::Scripted(pile), true)
        .map_err(|e| err(ReplayErrorKind::Setup, l0, None, e.to_string()))
}

/// Why `pile` is not an order of the variant's pile (a log records the whole pile, so anything
/// else — a tile too many, or 65,536 copies of one that the engine's counts cannot hold — is a
/// forged or damaged setup), or `None` when it is one.
fn pile_mismatch(rules: &Rules, pile: &[u16]) -> Option<String> {
    let count = |p: &[u16]| {
        let mut n = vec![0usize; rules.tiles.len()];
        p.iter().for_each(|&t| n[t as usize] += 1);
        n
    };
    let (have, want) = (count(pile), count(rules.pile_slice()));
    let t = (0..have.len()).find(|&t| have[t] != want[t])?;
    let id = rules.tile_id(t as u16);
    Some(format!(
        "the pile is not the variant's: {} tiles, {} of them `{id}`, where the variant's pile \
         has {} tiles, {} of them `{id}`",
        pile.len(),
        have[t],
        rules.pile_slice().len(),
        want[t]
    ))
}

/// One line after the setup: either the engine's next event, or a decision to apply (or the
/// early end a `finish` line records).
fn step(
    game: &mut Game,
    produced: &mut usize,
    moves: &mut u32,
    v: &Value,
    ln: usize,
) -> Result<(), ReplayError> {
    if match_next(game, produced, v, ln, *moves)? {
        return Ok(());
    }
    let kind = text(v, "type", ln)?;
    if game.phase() == crate::Phase::Over {
        // Every event of the game, its `end` line last, has been matched: nothing may follow.
        return Err(err(
            ReplayErrorKind::Divergence,
            ln,
            Some(*moves),
            format!("the log has a `{kind}` line after the game's `end` line: the game is over"),
        ));
    }
    let event: Event = serde_json::from_value(v.clone()).map_err(|e| {
        err(
            ReplayErrorKind::Corrupt,
            ln,
            None,
            format!("not a `{kind}` line: {e}"),
        )
    })?;
    if let Event::Finish { .. } = event {
        game.finish();
        return match_next(game, produced, v, ln, *moves).map(|_| ());
    }
    if !event.is_decision() {
        return Err(err(
            ReplayErrorKind::Divergence,
            ln,
            Some(*moves),
            format!("the log has a `{kind}` line where the engine waits for a decision"),
        ));
    }
    let action =
        decision_action(game, &event).map_err(|m| err(ReplayErrorKind::Corrupt, ln, None, m))?;
    *moves += 1;
    game.apply(action).map_err(|e| {
        err(
            ReplayErrorKind::Illegal,
            ln,
            Some(*moves),
            // The rule id once: a placement rule's message already ends with it.
            match (e.to_string(), game.rule_of(&e)) {
                (m, rule) if m.contains(rule) => m,
                (m, rule) => format!("{m} [{rule}]"),
            },
        )
    })?;
    // The decision itself is the first produced event; it must equal the line.
    match_next(game, produced, v, ln, *moves).map(|_| ())
}

/// The action that a decision event of a log records, in the state `game` is in before it (a
/// `follower` line moves a freed figure in [`crate::Phase::Move`]). Errors name what is unknown.
pub fn decision_action(game: &Game, event: &Event) -> Result<Action, String> {
    let rules = game.rules();
    let tile_of = |id: &str| {
        rules
            .tile_index(id)
            .ok_or_else(|| format!("unknown tile `{id}`"))
    };
    Ok(match event {
        Event::Place {
            tile,
            x,
            y,
            rotation,
            ..
        } => Action::Place(Placement {
            tile: tile_of(tile)?,
            x: *x,
            y: *y,
            rotation: *rotation,
        }),
        Event::Follower { x, y, feature, .. } if game.phase() == crate::Phase::Move => {
            Action::Move(MoveTarget {
                x: *x,
                y: *y,
                feature: *feature,
            })
        }
        Event::Follower {
            follower,
            feature,
            corner,
            ..
        } => {
            let option = FollowerOption {
                feature: *feature,
                follower: rules
                    .follower_index(follower)
                    .ok_or_else(|| format!("unknown figure `{follower}`"))?,
            };
            follower_action(game, option, *corner)
        }
        Event::Pass { .. } => Action::Pass,
        Event::Take { tile, .. } => Action::Take(tile_of(tile)?),
        Event::Seat { seat, .. } => Action::Seat(*seat),
        Event::Step { rule, x, y, .. } => {
            let word = crate::event::ChoiceWord::Tile([*x, *y]);
            let i = game.choice_index(rule, &word).ok_or_else(|| {
                format!("a step to ({x}, {y}) is no step of `{rule}` offered now")
            })?;
            Action::Choose(i)
        }
        Event::Choice { rule, option, .. } => {
            let i = game
                .choice_index(rule, option)
                .ok_or_else(|| format!("{option} is no option of a `{rule}` choice offered now"))?;
            Action::Choose(i)
        }
        other => return Err(format!("a `{}` line is not a decision", other.kind())),
    })
}

/// A `follower` line's action: its corner (AM-6) is named only when it is not the option's
/// first corner, which [`Action::Follower`] takes, so that a log's decisions are the ones played.
fn follower_action(game: &Game, option: FollowerOption, corner: Option<[i32; 2]>) -> Action {
    match corner {
        Some(point) if game.corner_points(option).first() != Some(&point) => {
            Action::Corner(CornerChoice { option, point })
        }
        _ => Action::Follower(option),
    }
}
