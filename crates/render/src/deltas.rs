//! The board of every turn of a game as deltas, for the replay viewer: each drawn piece
//! ([`Piece`]: a placed tile, a completion mark, the last-tile outline, a figure) is kept once,
//! with the positions it is shown at, so a page of `n` turns holds `O(n)` pieces instead of
//! `n` whole boards. The viewer's script draws position `k` from the pieces whose interval holds
//! `k`, in drawing order: the same markup as [`crate::svg::board::board_body`].

use std::collections::BTreeMap;

use crate::board::BoardView;
use crate::svg::board::{board_pieces, Piece, PieceKey};

/// A piece shown from position `from` to position `to` (excluded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// First position shown.
    pub from: usize,
    /// First position no longer shown.
    pub to: usize,
    /// The piece's markup.
    pub markup: String,
}

/// Whether a piece, once drawn, stays as it is at every later position: a placed tile never
/// moves, a completed feature never reopens. These are drawn once and never compared again.
fn is_permanent(key: &PieceKey) -> bool {
    matches!(key, PieceKey::Tile(_) | PieceKey::Done(..))
}

/// The pieces of the positions pushed so far.
pub struct BoardDeltas {
    bounds: (i32, i32, i32, i32),
    origin: (f64, f64),
    /// Permanent pieces, with the position they appeared at.
    permanent: BTreeMap<PieceKey, (String, usize)>,
    /// Other pieces shown at the last position, with the position they appeared at.
    transient: BTreeMap<PieceKey, (String, usize)>,
    /// Pieces no longer shown.
    ended: Vec<(PieceKey, Span)>,
    positions: usize,
}

impl BoardDeltas {
    /// No positions yet; boards are drawn for cells spanning `bounds` with the top-left cell at
    /// `origin` (see [`crate::svg::board::board_body`]).
    pub fn new(bounds: (i32, i32, i32, i32), origin: (f64, f64)) -> Self {
        BoardDeltas {
            bounds,
            origin,
            permanent: BTreeMap::new(),
            transient: BTreeMap::new(),
            ended: Vec::new(),
            positions: 0,
        }
    }

    /// Add the next position: only what changed since the last one is drawn and kept.
    pub fn push(&mut self, b: &BoardView) {
        let k = self.positions;
        self.positions += 1;
        let permanent = &self.permanent;
        let known = |key: &PieceKey| is_permanent(key) && permanent.contains_key(key);
        let pieces: Vec<Piece> = board_pieces(b, self.bounds, self.origin, &known);
        let mut shown = BTreeMap::new();
        for p in pieces {
            if is_permanent(&p.key) {
                self.permanent.insert(p.key, (p.markup, k));
            } else {
                shown.insert(p.key, p.markup);
            }
        }
        let before = std::mem::take(&mut self.transient);
        for (key, (markup, from)) in before {
            match shown.remove(&key) {
                Some(now) if now == markup => {
                    self.transient.insert(key, (markup, from));
                }
                now => {
                    let span = Span {
                        from,
                        to: k,
                        markup,
                    };
                    self.ended.push((key.clone(), span));
                    if let Some(now) = now {
                        self.transient.insert(key, (now, k));
                    }
                }
            }
        }
        for (key, markup) in shown {
            self.transient.insert(key, (markup, k));
        }
    }

    /// Every piece with the positions it is shown at, in drawing order.
    pub fn finish(self) -> Vec<Span> {
        let end = self.positions;
        let mut all = self.ended;
        for (key, (markup, from)) in self.permanent.into_iter().chain(self.transient) {
            all.push((
                key,
                Span {
                    from,
                    to: end,
                    markup,
                },
            ));
        }
        all.sort_by(|a, b| (&a.0, a.1.from).cmp(&(&b.0, b.1.from)));
        all.into_iter().map(|(_, s)| s).collect()
    }
}
