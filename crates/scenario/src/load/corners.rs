//! Corners of corner figures (AM-6): a follower's named `corner` and a step's expected
//! `corner_figures`, both resolved to board points (point `[x, y]` is the north-west corner of
//! cell `[x, y]`).

use tegula_model::raw::Sp;
use tegula_model::Code;

use super::{Ctx, Pos, MAX_COORDINATE};
use crate::raw::{RawCorner, RawPoints, RawStep};

/// Largest absolute coordinate of a board point: a corner of a cell at ±[`MAX_COORDINATE`].
const MAX_POINT: i64 = MAX_COORDINATE + 1;

/// A follower's `corner`: a compass corner of the step's cell `at`, or a board point.
pub(super) fn corner(cx: &mut Ctx, c: &Sp<RawCorner>, at: Option<(i32, i32)>) -> Option<[i32; 2]> {
    match &c.value {
        RawCorner::Compass(name) => {
            let Some((dx, dy)) = compass_offset(name) else {
                let why = format!("bad corner \"{name}\": use \"NW\", \"NE\", \"SE\", \"SW\" or a board point [x, y]");
                cx.err(Code::BadScenario, &c.span, why);
                return None;
            };
            let (x, y) = at?;
            Some([x + dx, y + dy])
        }
        RawCorner::Point(xy) => point(cx, xy, &c.span, "`corner`"),
    }
}

/// The point of compass corner `name` of a cell, from the cell's north-west corner.
fn compass_offset(name: &str) -> Option<(i32, i32)> {
    Some(match name {
        "NW" => (0, 0),
        "NE" => (1, 0),
        "SE" => (1, 1),
        "SW" => (0, 1),
        _ => return None,
    })
}

/// A board point: two coordinates within ±[`MAX_POINT`]; `what` names the key in messages.
fn point(cx: &mut Ctx, xy: &[i64], span: &std::ops::Range<usize>, what: &str) -> Option<[i32; 2]> {
    let &[x, y] = xy else {
        cx.err(
            Code::BadScenario,
            span,
            format!("{what} must be a board point `[x, y]`"),
        );
        return None;
    };
    let range = -MAX_POINT..=MAX_POINT;
    if !range.contains(&x) || !range.contains(&y) {
        let why = format!("{what} [{x}, {y}] out of range (-{MAX_POINT}..={MAX_POINT})");
        cx.err(Code::BadScenario, span, why);
        return None;
    }
    Some([x as i32, y as i32])
}

/// A step's `corner_figures`: the board points of every corner figure after the step, which
/// only a step that places its tile has (a discard or a rejected placement compares nothing).
pub(super) fn corner_figures(
    cx: &mut Ctx,
    raw: &RawPoints,
    st: &RawStep,
) -> Option<(Vec<[i32; 2]>, Pos)> {
    let rejected = st.expect_error.is_some() && st.follower.is_none();
    if st.at.is_none() || rejected {
        let why = "`corner_figures` needs a step that places its tile (not a discard or a \
                   rejected placement)";
        cx.err(Code::BadExpectation, &raw.span, why);
        return None;
    }
    let mut out = Vec::new();
    for p in raw.iter() {
        let xy: Vec<i64> = p.iter().map(|v| v.value).collect();
        out.extend(point(cx, &xy, &p.span, "a corner figure's point"));
    }
    Some((out, cx.pos(&raw.span)))
}
