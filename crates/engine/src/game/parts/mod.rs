//! The parts of a [`Game`](super::Game), one concern each: the board and its features
//! ([`Board`]), what each seat has ([`Seats`]), the turn ([`Turn`]), the phase's legal moves
//! ([`Legal`]), what the turn still has to settle ([`Due`]), the pile and chance ([`Deck`]) and
//! the record of the game ([`Log`]). The pool, the offered choices and the one rule form's state
//! keep the parts they already had (`pool.rs`, `choice.rs`, `rule_state.rs`).
//!
//! Each part is declared through [`part!`], which derives `Debug`, `PartialEq`, `Eq` and `Hash`
//! and writes `Clone` from the same field list: `clone_from` copies field by field into the
//! target's buffers (tree search copies the root into one scratch game every iteration; a
//! derived `clone_from` would reallocate every vector each time). A field added to a part is in
//! all four at once.

pub(super) mod board;
mod check;
pub(super) mod deck;
pub(super) mod due;
mod legal;
mod log;
mod seats;
mod turn;

pub(super) use board::Board;
pub(super) use deck::Deck;
pub(super) use due::Due;
pub(super) use legal::Legal;
pub(super) use log::Log;
pub(super) use seats::Seats;
pub(super) use turn::Turn;

/// Declare a part of the game state: the struct as written, with `Debug`, `PartialEq`, `Eq` and
/// `Hash` derived and a `Clone` whose `clone_from` reuses each field's buffers.
macro_rules! part {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$fmeta:meta])* $fvis:vis $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, PartialEq, Eq, Hash)]
        $vis struct $name {
            $($(#[$fmeta])* $fvis $field: $ty,)*
        }

        impl Clone for $name {
            fn clone(&self) -> $name {
                $name { $($field: self.$field.clone(),)* }
            }

            fn clone_from(&mut self, source: &$name) {
                $(self.$field.clone_from(&source.$field);)*
            }
        }
    };
}
pub(super) use part;
