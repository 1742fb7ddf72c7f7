//! A Zobrist-style state hash for transposition tables. The parts that grow with the game (the
//! placed tiles, the remaining multiset) are kept incrementally, as a wrapping sum of random
//! keys: each placed tile adds a key of (tile, x, y, rotation), and the remaining multiset is
//! the sum of count × key(tile), so a draw subtracts one precomputed key (a load and a
//! subtraction in the move loop; sums of random 64-bit keys collide as rarely as XORs do).
//! The small parts (phase, seat, drawn tile, scores, supplies, resources, figures, pool) are mixed in when
//! [`Game::state_hash`] is asked, in time proportional to the figures on the board.

use super::{Action, Game, Phase};

/// A pseudo-random 64-bit key for `(tag, a, b)`: two odd multipliers and a xor-shift, cheap
/// enough for every move (the keys need to be well spread, not secret).
#[inline]
fn key(tag: u64, a: u64, b: u64) -> u64 {
    let z =
        (a ^ tag << 56).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03);
    let z = (z ^ z >> 31).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ z >> 29
}

/// Key of a tile placed at `(x, y)` with `rot`.
#[inline]
pub(super) fn tile_key(tile: u16, x: i32, y: i32, rot: u8) -> u64 {
    let pos = (x as u32 as u64) << 32 | (y as u32 as u64);
    key(1, u64::from(tile) << 2 | u64::from(rot), pos)
}

/// The key of one remaining tile of each of `types` tile types ([`crate::Rules`] keeps them, so
/// that a draw reads its key instead of computing it).
pub(crate) fn left_keys(types: usize) -> Vec<u64> {
    (0..types as u64).map(|t| key(2, t, 0)).collect()
}

impl Game {
    /// A 64-bit hash of the position: placed tiles and rotations, figures (with owners and
    /// features), scores, supplies, seat resources, the remaining tiles as a multiset, the phase, the seat to
    /// act and the tile in hand. Equal positions reached by different move orders hash equally
    /// (the history and the hidden pile order take no part); different positions collide with
    /// probability about 2⁻⁶⁴. The board part is kept incrementally on every move.
    pub fn state_hash(&self) -> u64 {
        self.zobrist ^ self.small_hash()
    }

    /// [`Game::state_hash`] computed from scratch (for tests of the incremental part).
    pub fn state_hash_from_scratch(&self) -> u64 {
        let placed = self
            .board
            .insts
            .iter()
            .map(|i| tile_key(i.tile, i.x, i.y, i.rot));
        placed.fold(self.left_hash(), u64::wrapping_add) ^ self.small_hash()
    }

    /// The remaining multiset's part: Σ count × key(tile).
    pub(super) fn left_hash(&self) -> u64 {
        let keys = &self.rules.left_keys;
        let terms = self.deck.left.iter().zip(keys);
        terms.fold(0, |z, (&c, &k)| {
            z.wrapping_add(u64::from(c).wrapping_mul(k))
        })
    }

    /// The parts mixed in on request: small, bounded by the figures and seats.
    fn small_hash(&self) -> u64 {
        let phase = match self.now.phase {
            Phase::Pick => 1,
            Phase::Order => 2,
            Phase::Hand => 3,
            Phase::Place => 4,
            Phase::Follower => 5,
            Phase::Move => 6,
            Phase::Over => 7,
            Phase::Draw => 8,
            Phase::Choice => 9,
        };
        let mut h = key(
            3,
            phase,
            u64::from(self.now.player) << 16 | u64::from(self.now.current),
        );
        for (p, &s) in self.seats.scores.iter().enumerate() {
            h ^= key(4, p as u64, u64::from(s));
        }
        for (i, &n) in self.seats.supply.iter().chain(&self.seats.held).enumerate() {
            h ^= key(5, i as u64, u64::from(n));
        }
        // Seat resources (none in most variants: the hash of those stays what it was).
        for (i, &n) in self.seats.holdings.iter().enumerate() {
            h ^= key(12, i as u64, u64::from(n));
        }
        for m in &self.board.meeples {
            let seg = &self.board.segs[m.seg as usize];
            let inst = &self.board.insts[seg.inst as usize];
            let at = tile_key(inst.tile, inst.x, inst.y, inst.rot);
            h ^= key(
                6,
                u64::from(m.player) << 8 | u64::from(m.ftype),
                at ^ u64::from(seg.local),
            );
        }
        for c in &self.board.corner_figs {
            let pt = (c.point.0 as u32 as u64) << 32 | c.point.1 as u32 as u64;
            h ^= key(7, u64::from(c.player) << 8 | u64::from(c.ftype), pt);
        }
        let w = &self.w;
        let pool = w.pool.iter().chain(&w.tiles).map(|&t| u64::from(t));
        for (i, t) in pool.enumerate() {
            h ^= key(8, i as u64, t);
        }
        for (i, &(seat, t)) in w.held.iter().chain(&w.kept).enumerate() {
            h ^= key(9, i as u64, u64::from(seat) << 16 | u64::from(t));
        }
        // Owners of placed tiles with abilities outside the pool (none in most variants: their
        // hash stays what it was). Pool tiles' owners follow from the pool's own state.
        for o in w.owned.iter().filter(|o| !o.pooled) {
            h ^= key(13, u64::from(o.inst), u64::from(o.player));
        }
        // Offers under way (none in most variants: their hash stays what it was).
        if self.choice != super::choice::ChoiceState::default() {
            let mut s = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(&self.choice, &mut s);
            h ^= key(14, 0, std::hash::Hasher::finish(&s));
        }
        // The one rule form's tokens, counters and offers (none in most variants).
        self.rf.hash_into(|tag, a, b| h ^= key(tag, a, b));
        for (i, m) in self.legal.moves.iter().enumerate() {
            h ^= key(10, i as u64, action_bits(Action::Move(m.0)));
        }
        h ^ key(
            11,
            u64::from(w.must_place)
                | u64::from(self.now.in_final) << 1
                | u64::from(self.now.in_extra) << 2
                // The earned extra turn (TB-5): bit 3 set, the figure type above it.
                | self.now.extra_due.map_or(0, |t| 8 | t.bits() << 4)
                // A kept tile alone on offer after the pile (W-12): the top bit, clear elsewhere.
                | u64::from(w.kept_only) << 63,
            w.pairs_at.into(),
        )
    }
}

/// A few bits identifying an action (for hashing the open choices).
fn action_bits(a: Action) -> u64 {
    match a {
        Action::Move(t) => {
            (t.x as u32 as u64) << 32 ^ (t.y as u32 as u64) << 8 ^ u64::from(t.feature)
        }
        _ => 0,
    }
}
