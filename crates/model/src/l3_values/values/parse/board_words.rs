//! The board-wide words of the one rule form (the ones `[[ability]]` lowers to): bare words
//! (`owner_acts`, `players`, …) and words with several arguments (`figures(own, city, any)`,
//! `features(road, 5, any)`, `lines(7)`, `near(religious)`).

use std::ops::Range;

use tegula_ruleset::{Owner, Quantity, State};

use super::{err, find_name, kind_arg, ExprError};

/// The bare words, each a quantity of its own.
pub(super) const BARE_WORDS: [(&str, Quantity); 8] = [
    ("owner_acts", Quantity::OwnerActs),
    ("placed_this_turn", Quantity::PlacedThisTurn),
    ("owner_figure", Quantity::OwnerFigure),
    ("occupants", Quantity::Occupants),
    ("owner_figures", Quantity::OwnerFigures),
    ("players", Quantity::Players),
    ("game_tiles", Quantity::GameTiles),
    ("near", Quantity::Near(None)),
];

/// The argument text `arg` (at `at`) split at commas, each part trimmed with its range.
fn args<'a>(arg: &'a str, at: &Range<usize>) -> Vec<(&'a str, Range<usize>)> {
    let mut out = Vec::new();
    let mut start = 0;
    for part in arg.split(',') {
        let lead = part.len() - part.trim_start().len();
        let s = at.start + start + lead;
        out.push((part.trim(), s..s + part.trim().len()));
        start += part.len() + 1;
    }
    out
}

fn state_arg(name: &str, at: Range<usize>) -> Result<State, ExprError> {
    match name {
        "any" => Ok(State::Any),
        "complete" => Ok(State::Complete),
        "incomplete" => Ok(State::Incomplete),
        _ => err(
            at,
            format!("`{name}` is no state: any, complete or incomplete"),
        ),
    }
}

fn number_arg(name: &str, at: Range<usize>) -> Result<u32, ExprError> {
    name.parse::<u32>()
        .or_else(|_| err(at, format!("expected a number, not `{name}`")))
}

/// `figures(WHOSE, KIND|any, STATE)`.
pub(super) fn figures(arg: &str, at: Range<usize>) -> Result<Quantity, ExprError> {
    let [(w, w_at), (k, k_at), (s, s_at)] = &args(arg, &at)[..] else {
        return err(at, "`figures` takes three arguments: own|others|anyone, a kind or `any`, any|complete|incomplete");
    };
    let whose = match *w {
        "own" => Owner::Own,
        "others" => Owner::Others,
        "anyone" => Owner::Anyone,
        _ => {
            return err(
                w_at.clone(),
                format!("`{w}` is not whose figures: own, others or anyone"),
            )
        }
    };
    let kind = match *k {
        "any" => None,
        k => Some(kind_arg(k, k_at.clone())?),
    };
    let state = state_arg(s, s_at.clone())?;
    Ok(Quantity::Figures { whose, kind, state })
}

/// `features(KIND, MIN_TILES, STATE[, TAG])`.
pub(super) fn features(
    arg: &str,
    at: Range<usize>,
    tags: &[String],
) -> Result<Quantity, ExprError> {
    let parts = args(arg, &at);
    let (kind, min, state, tag) = match &parts[..] {
        [k, m, s] => (k, m, s, None),
        [k, m, s, t] => (k, m, s, Some(t)),
        _ => return err(at, "`features` takes a kind, a least size in tiles, any|complete|incomplete and maybe a tag"),
    };
    Ok(Quantity::Features {
        kind: kind_arg(kind.0, kind.1.clone())?,
        min_tiles: number_arg(min.0, min.1.clone())?,
        state: state_arg(state.0, state.1.clone())?,
        tag: match tag {
            Some((t, t_at)) => Some(find_name("tag", t, tags, t_at.clone())?),
            None => None,
        },
    })
}

/// `lines(RUN)`.
pub(super) fn lines(arg: &str, at: Range<usize>) -> Result<Quantity, ExprError> {
    Ok(Quantity::Lines(number_arg(arg.trim(), at)?))
}

/// `near(TAG)`.
pub(super) fn near(arg: &str, at: Range<usize>, tags: &[String]) -> Result<Quantity, ExprError> {
    Ok(Quantity::Near(Some(find_name(
        "tag",
        arg.trim(),
        tags,
        at,
    )?)))
}
