//! `[setup] board`: a starting position taken from a game log, the log replayed (every line
//! checked by the engine's [`Replayer`]) up to the end of its `turns`-th turn.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use tegula_engine::log::Replayer;
use tegula_engine::{Game, Phase, Rules};
use tegula_model::raw::Sp;
use tegula_model::Code;
use tegula_ruleset::Ruleset;

use super::{Ctx, Pos};
use crate::raw::{RawBoard, RawSetup, ScenarioFile};

/// Most turns a board may start after (more than any pile holds).
const MAX_TURNS: i64 = 10_000;

/// The position after the log's first `turns` turns, with the key's position; `None` (errors
/// reported) when the log cannot be read or replayed that far, or the scenario sets what the
/// log already decides.
pub(super) fn board(
    cx: &mut Ctx,
    rs: &Arc<Ruleset>,
    doc: &ScenarioFile,
    setup: &RawSetup,
    b: &Sp<RawBoard>,
) -> Option<(Game, Pos)> {
    conflicts(cx, doc, setup, b);
    let Some(turns) = u32::try_from(b.turns.value)
        .ok()
        .filter(|&t| i64::from(t) <= MAX_TURNS)
    else {
        let why = format!("turns {} out of range (0..={MAX_TURNS})", b.turns.value);
        cx.err(Code::BadCount, &b.turns.span, why);
        return None;
    };
    if let Some(d) = super::out_of_reach(cx.source, &b.log) {
        cx.diags.push(d);
        return None;
    }
    let base = cx.source.path.parent().unwrap_or(Path::new(""));
    let path = base.join(&b.log.value);
    let text = match tegula_model::load::read_source(&path) {
        Ok(source) => source.text,
        Err(d) => {
            let why = format!("cannot read the log `{}`", path.display());
            cx.err(Code::DanglingReference, &b.log.span, why)
                .notes
                .push(d.message);
            return None;
        }
    };
    let rules = match Rules::new((**rs).clone()) {
        Ok(r) => Arc::new(r),
        Err(_) => return None, // the runner reports a variant the engine refuses
    };
    let game = replay_prefix(cx, b, &path, rules, &text, turns)?;
    if game.players() != doc.players.value {
        let why = format!(
            "the log is a {}-player game, the scenario has {} players",
            game.players(),
            doc.players.value
        );
        cx.err(Code::BadScenario, &b.log.span, why);
        return None;
    }
    Some((game, cx.pos(&b.span)))
}

/// Replay `text` until the `turns`-th turn is over: stop before the first decision of the next
/// turn (a placement, or declining an own tile, with `turns` tiles placed).
fn replay_prefix(
    cx: &mut Ctx,
    b: &Sp<RawBoard>,
    path: &Path,
    rules: Arc<Rules>,
    text: &str,
    turns: u32,
) -> Option<Game> {
    let mut replayer = Replayer::new(rules);
    for (i, line) in text.lines().enumerate() {
        if replayer
            .game()
            .is_some_and(|g| next_turn_begins(g, line, turns))
        {
            return replayer.into_game();
        }
        if let Err(e) = replayer.line(i + 1, line) {
            let why = format!("the log does not replay: {}: {e}", path.display());
            cx.err(Code::BadScenario, &b.log.span, why);
            return None;
        }
    }
    let placed = replayer.game().map_or(0, Game::turn);
    if placed < turns {
        let why = format!("turns {turns} is past the log's end: it places {placed} tiles");
        cx.err(Code::BadCount, &b.turns.span, why);
        return None;
    }
    replayer.into_game()
}

/// Whether `line` is the first decision of the turn after the `turns`-th.
fn next_turn_begins(game: &Game, line: &str, turns: u32) -> bool {
    if game.turn() < turns || !matches!(game.phase(), Phase::Place | Phase::Hand) {
        return false;
    }
    let kind = serde_json::from_str::<Value>(line).ok();
    let kind = kind
        .as_ref()
        .and_then(|v| v.get("type"))
        .and_then(Value::as_str);
    matches!(kind, Some("place" | "pass"))
}

/// What a board from a log cannot go with: the log already decided the start tile, the pool
/// picks and the pile, and the engine takes no preset after the first placement.
fn conflicts(cx: &mut Ctx, doc: &ScenarioFile, setup: &RawSetup, b: &Sp<RawBoard>) {
    let mut set = Vec::new();
    if doc.start.is_some() {
        set.push("`start`");
    }
    if !doc.pool.is_empty() {
        set.push("`pool`");
    }
    if doc.pile.is_some() {
        set.push("`pile`");
    }
    if doc.pool_tiles_drawn {
        set.push("`pool_tiles_drawn`");
    }
    if setup.scores.is_some() || !setup.supply.is_empty() {
        set.push("`[setup]` scores or supply");
    }
    if !setup.held.is_empty() || setup.pairs.is_some() {
        set.push("`[setup]` held or pairs");
    }
    if !setup.resources.is_empty() {
        set.push("`[setup]` resources");
    }
    if !set.is_empty() {
        let why = format!(
            "a board from a log cannot go with {}: the log decides them",
            set.join(", ")
        );
        cx.err(Code::BadScenario, &b.span, why);
    }
}
