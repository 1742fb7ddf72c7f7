//! Copying a game. A derived `Clone` would give `clone_from` the default body, a fresh
//! `clone`, so tree search (which copies the root into the same scratch game every iteration)
//! would reallocate every vector of the state each time. Here `clone_from` copies field by
//! field into the target's buffers. The field list is written once, in `copy_fields!`, and both
//! bodies destructure `Game` without `..`: a field added to `Game` and not to the list does
//! not compile.

use super::Game;

/// `Clone` for `Game` from one list of its fields.
macro_rules! copy_fields {
    ($($f:ident),* $(,)?) => {
        impl Clone for Game {
            fn clone(&self) -> Game {
                let Game { $($f),* } = self;
                Game { $($f: $f.clone()),* }
            }

            fn clone_from(&mut self, source: &Game) {
                let Game { $($f),* } = self;
                $($f.clone_from(&source.$f);)*
            }
        }
    };
}

copy_fields!(
    rules,
    players,
    seed,
    record,
    width,
    off,
    roomy,
    full_width,
    full_roomy,
    cells,
    frontier,
    insts,
    segs,
    meeples,
    supply,
    scores,
    holdings,
    pile,
    drawn,
    phase,
    current,
    player,
    turn,
    placements,
    slots,
    n_place,
    options,
    pending,
    pending_cloisters,
    events,
    tmp,
    holes,
    w,
    held,
    corner_figs,
    freed,
    moves,
    final_seats,
    corner_points,
    pending_fields,
    in_final,
    extra_due,
    in_extra,
    final_from,
    active,
    last_placer,
    chance,
    revealed,
    resume,
    left,
    history,
    finished,
    zobrist,
    preset,
    choice,
    rf
);
