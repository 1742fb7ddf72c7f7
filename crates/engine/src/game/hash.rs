//! A Zobrist-style state hash for transposition tables. The parts that grow with the game (the
//! placed tiles, the remaining multiset) are kept incrementally, as a wrapping sum of random
//! keys: each placed tile adds a key of (tile, x, y, rotation), and the remaining multiset is
//! the sum of count × key(tile), so a draw subtracts one precomputed key (a load and a
//! subtraction in the move loop; sums of random 64-bit keys collide as rarely as XORs do).
//! The other parts (the turn, the seats, the figures, what the turn still has to score, the
//! pool, offers and the one rule form's state) are mixed in when [`Game::state_hash`] is asked,
//! in time proportional to the figures on the board. Every part is destructured whole there, so
//! a new field is hashed, or said to follow from the rest, before the crate compiles; a test
//! changes each hashed field and requires the hash to move. Tiles are keyed by where they lie,
//! never by when they were placed.

use super::{Game, Phase};

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
    /// features), scores, supplies, seat resources and own tiles, the remaining tiles as a
    /// multiset, the phase, the seats to act and the tile in hand, the final round and extra
    /// turns, features waiting to be scored and freed figures, the pool with what each seat
    /// took, holds and owns, offers and the one rule form's tokens and counters. Equal
    /// positions reached by different move orders hash equally (the history, the count of
    /// turns and the hidden pile order take no part, nor the legal moves, which follow from the
    /// rest); different positions collide with probability about 2⁻⁶⁴. The board part is kept
    /// incrementally on every move.
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

    /// The parts mixed in on request: small, bounded by the figures, seats and pool. Each part
    /// is destructured whole (no `..`), so a field added to a part does not compile until it is
    /// hashed here or said to follow from the rest; `tests::every_field_moves_the_hash` changes
    /// each hashed field in turn.
    fn small_hash(&self) -> u64 {
        let Game {
            rules: _,
            board,
            seats,
            now,
            // The phase's legal moves follow from the rest of the position.
            legal: _,
            due,
            deck,
            // The record of how the game got here is no part of the position.
            log: _,
            w,
            choice,
            rf,
            st: _,
            nf,
            // The placed tiles and the remaining multiset, kept on every move.
            zobrist: _,
            tmp: _,
        } = self;
        let mut h = self.board_hash(board) ^ seats_hash(seats) ^ self.turn_hash(now);
        h ^= self.due_hash(due) ^ deck_hash(deck) ^ self.pool_hash(w);
        // Offers under way (none in most variants: their hash stays what it was).
        if *choice != super::choice::ChoiceState::default() {
            let mut s = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(choice, &mut s);
            h ^= key(14, 0, std::hash::Hasher::finish(&s));
        }
        // The one rule form's tokens, counters, placers and offers (none in most variants).
        rf.hash_into(|inst| self.inst_key(inst), |tag, a, b| h ^= key(tag, a, b));
        // Stacks and held figures (none in most variants).
        self.stacks_hash(|tag, a, b| h ^= key(tag, a, b));
        // Neutral figures, a walk, tiles set aside (none in most variants). `setup_pile` and
        // `drawn` are the record and a draw's scratch; the pile is in `zobrist`.
        if *nf != super::neutral::NeutralState::default() {
            let mut s = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(&nf.at, &mut s);
            std::hash::Hash::hash(&nf.no_figures, &mut s);
            std::hash::Hash::hash(&nf.walk, &mut s);
            std::hash::Hash::hash(&nf.set_aside, &mut s);
            h ^= key(15, 0, std::hash::Hasher::finish(&s));
        }
        h
    }

    /// The key of tile instance `inst` by where it lies, not by when it was placed (equal
    /// positions reached in another order number their tiles differently).
    pub(super) fn inst_key(&self, inst: u32) -> u64 {
        let i = &self.board.insts[inst as usize];
        tile_key(i.tile, i.x, i.y, i.rot)
    }

    /// The key of segment `seg` by its tile's place and its local feature.
    fn seg_key(&self, seg: u32) -> u64 {
        let s = &self.board.segs[seg as usize];
        self.inst_key(s.inst) ^ u64::from(s.local)
    }

    /// The figures on the board; the tiles are in `zobrist`, the rest follows from them.
    fn board_hash(&self, board: &super::parts::Board) -> u64 {
        let super::parts::Board {
            width: _,
            off: _,
            roomy: _,
            full_width: _,
            full_roomy: _,
            cells: _,
            frontier: _,
            insts: _,
            segs: _,
            meeples,
            corner_figs,
            holes: _,
        } = board;
        let mut h = 0;
        for m in meeples {
            let who = u64::from(m.player) << 8 | u64::from(m.ftype);
            h ^= key(6, who, self.seg_key(m.seg));
        }
        for c in corner_figs {
            let pt = (c.point.0 as u32 as u64) << 32 | c.point.1 as u32 as u64;
            h ^= key(7, u64::from(c.player) << 8 | u64::from(c.ftype), pt);
        }
        h
    }

    /// The phase, the seats deciding and placing, the tile in hand (and where it went, while
    /// its figure step is open), the final round and extra turns.
    fn turn_hash(&self, now: &super::parts::Turn) -> u64 {
        let super::parts::Turn {
            phase,
            current,
            player,
            // How many turns were played: equal positions reached in another order agree.
            turn: _,
            active,
            last_placer,
            in_final,
            final_seats,
            in_extra,
            extra_due,
            finished,
        } = now;
        let seats = u64::from(*player) << 16 | u64::from(*active) << 8 | u64::from(*last_placer);
        let mut h = key(3, phase_bits(*phase), seats << 16 | u64::from(*current));
        for (i, &seat) in final_seats.iter().enumerate() {
            h ^= key(20, i as u64, u64::from(seat));
        }
        if *phase == Phase::Follower && !self.board.insts.is_empty() {
            h ^= key(21, 0, self.last_key());
        }
        h ^ key(
            11,
            u64::from(*in_final) << 1
                | u64::from(*in_extra) << 2
                // The earned extra turn (TB-5): bit 3 set, the figure type above it.
                | extra_due.map_or(0, |t| 8 | t.bits() << 4),
            u64::from(*finished),
        )
    }

    /// The key of the tile placed last.
    fn last_key(&self) -> u64 {
        self.inst_key(self.board.insts.len() as u32 - 1)
    }

    /// What the turn still has to score, and the freed figures with where they stood.
    fn due_hash(&self, due: &super::parts::Due) -> u64 {
        let super::parts::Due {
            pending,
            pending_cloisters,
            pending_fields,
            freed,
        } = due;
        let mut h = 0;
        for (tag, list) in [(22, pending), (23, pending_cloisters), (24, pending_fields)] {
            for (i, &seg) in list.iter().enumerate() {
                h ^= key(tag, i as u64, self.seg_key(seg));
            }
        }
        for (i, f) in freed.iter().enumerate() {
            let who = u64::from(f.player) << 8 | u64::from(f.ftype);
            let at = self.inst_key(f.inst) ^ self.seg_key(f.root).rotate_left(17);
            h ^= key(10, (i as u64) << 16 | who, at);
        }
        h
    }

    /// The pool, what each seat took and holds, the tiles' owners and the open pick.
    fn pool_hash(&self, w: &super::pool::PoolState) -> u64 {
        let super::pool::PoolState {
            pool,
            taken,
            offering,
            queue,
            left,
            held,
            owned,
            unplaceable,
            kept,
            kept_only,
            // A record of the points abilities scored (the scores hold them).
            ability_points: _,
            setup_seats,
            tiles,
            seats,
            picking,
            must_place,
            second_follower,
            w6,
            claims,
        } = w;
        let mut h = key(25, u64::from(*left), 0);
        let offers = offering.iter().chain(queue.iter());
        for (i, o) in offers.enumerate() {
            let ctx = {
                let mut s = std::hash::DefaultHasher::new();
                std::hash::Hash::hash(&o.ctx, &mut s);
                std::hash::Hasher::finish(&s)
            };
            h ^= key(47, (i as u64) << 16 | u64::from(o.rule), ctx);
        }
        let lists: [(u64, &[u16]); 2] = [(8, pool), (26, tiles)];
        for (tag, list) in lists {
            for (i, &t) in list.iter().enumerate() {
                h ^= key(tag, i as u64, u64::from(t));
            }
        }
        let seat_lists: [(u64, &[u8]); 3] = [(27, taken), (28, setup_seats), (29, seats)];
        for (tag, list) in seat_lists {
            for (i, &n) in list.iter().enumerate() {
                h ^= key(tag, i as u64, u64::from(n));
            }
        }
        let pairs: [(u64, &[(u8, u16)]); 3] = [(9, held), (30, kept), (31, unplaceable)];
        for (tag, list) in pairs {
            for (i, &(seat, t)) in list.iter().enumerate() {
                h ^= key(tag, i as u64, u64::from(seat) << 16 | u64::from(t));
            }
        }
        // Owners of placed tiles (the turn an owned tile was placed is a record).
        for o in owned {
            let who = u64::from(o.player) << 1 | u64::from(o.pooled);
            h ^= key(13, who << 16 | u64::from(o.tile), self.inst_key(o.inst));
        }
        for (i, &(seat, ftype)) in claims.iter().enumerate() {
            h ^= key(32, i as u64, u64::from(seat) << 8 | u64::from(ftype));
        }
        let flags = u64::from(*must_place)
            | u64::from(*kept_only) << 1
            | u64::from(*second_follower) << 2
            | u64::from(*picking == super::pool::Picking::Take) << 3;
        h ^ key(33, flags, w6.map_or(0, |t| 1 << 16 | u64::from(t)))
    }
}

/// The seats' scores, supplies, own tiles and resources.
fn seats_hash(seats: &super::parts::Seats) -> u64 {
    let super::parts::Seats {
        players,
        supply,
        scores,
        holdings,
        held,
    } = seats;
    let mut h = key(34, u64::from(*players), 0);
    for (p, &s) in scores.iter().enumerate() {
        h ^= key(4, p as u64, s as u64);
    }
    for (i, &n) in supply.iter().chain(held).enumerate() {
        h ^= key(5, i as u64, u64::from(n));
    }
    for (i, &n) in holdings.iter().enumerate() {
        h ^= key(12, i as u64, u64::from(n));
    }
    h
}

/// The pile's hidden order, how far it was drawn and its seed take no part (the remaining
/// multiset is in `zobrist`); whether draws are chance steps, and what the waiting one resumes,
/// do.
fn deck_hash(deck: &super::parts::Deck) -> u64 {
    let super::parts::Deck {
        pile: _,
        drawn: _,
        left: _,
        revealed: _,
        chance,
        resume,
        seed: _,
    } = deck;
    let resume = match resume {
        super::Resume::Draw => 0,
        super::Resume::W6(t) => 1 << 16 | u64::from(*t),
    };
    key(35, u64::from(*chance), resume)
}

/// The phase as a number.
fn phase_bits(phase: Phase) -> u64 {
    match phase {
        Phase::Pick => 1,
        Phase::Order => 2,
        Phase::Hand => 3,
        Phase::Place => 4,
        Phase::Follower => 5,
        Phase::Move => 6,
        Phase::Over => 7,
        Phase::Draw => 8,
        Phase::Choice => 9,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::choice::Stage;
    use super::super::extra::ExtraFrom;
    use super::super::pool::{Owned, Picking};
    use super::super::rule_state::{PendingOffer, Token, Track};
    use super::super::stacks::{Held, Stack};
    use super::super::when::Ctx;
    use super::super::{CornerFig, Freed, Resume};
    use crate::testkit::base_ruleset;
    use crate::{Game, Phase, PileOrder, Rng, Rules};

    /// A base game in a figure step with figures on the board.
    fn midgame() -> Game {
        let rules = Arc::new(Rules::new(base_ruleset()).unwrap());
        let mut g = Game::new(rules, 2, PileOrder::Shuffled(4), false).unwrap();
        let mut rng = Rng::new(1);
        while g.phase() != Phase::Follower || g.board.meeples.len() < 2 {
            let actions = g.legal_actions();
            g.apply(actions[rng.below(actions.len() as u32) as usize])
                .unwrap();
        }
        g
    }

    /// Seat 0 owns the start tile, from the pool or not.
    fn owned(pooled: bool) -> Owned {
        let (player, inst, tile, turn) = (0, 0, 0, 0);
        Owned {
            player,
            inst,
            tile,
            turn,
            pooled,
        }
    }

    /// One change to one field of the state.
    type Change = (&'static str, fn(&mut Game));

    /// A change of every hashed field of every part (the hash destructures each part whole, so
    /// a new field is hashed or excused there first).
    const CHANGES: &[Change] = &[
        ("zobrist", |g| g.zobrist ^= 1),
        ("board.meeples", |g| g.board.meeples[0].player ^= 1),
        ("board.corner_figs", |g| {
            let seg = g.board.meeples[0].seg;
            let (player, ftype, point) = (0, 0, (1, 1));
            g.board.corner_figs.push(CornerFig {
                player,
                ftype,
                seg,
                point,
            });
        }),
        ("the tile just placed", |g| {
            g.board.insts.last_mut().unwrap().x += 9
        }),
        ("seats.players", |g| g.seats.players += 1),
        ("seats.supply", |g| g.seats.supply[1] -= 1),
        ("seats.scores", |g| g.seats.scores[1] += 1),
        ("seats.holdings", |g| g.seats.holdings.push(0)),
        ("seats.held", |g| g.seats.held.push(0)),
        ("now.phase", |g| g.now.phase = Phase::Move),
        ("now.current", |g| g.now.current += 1),
        ("now.player", |g| g.now.player ^= 1),
        ("now.active", |g| g.now.active ^= 1),
        ("now.last_placer", |g| g.now.last_placer ^= 1),
        ("now.in_final", |g| g.now.in_final = true),
        ("now.final_seats", |g| g.now.final_seats.push(0)),
        ("now.in_extra", |g| g.now.in_extra = true),
        ("now.extra_due", |g| {
            g.now.extra_due = Some(ExtraFrom::Rule(0))
        }),
        ("now.finished", |g| g.now.finished = true),
        ("due.pending", |g| g.due.pending.push(0)),
        ("due.pending_cloisters", |g| g.due.pending_cloisters.push(0)),
        ("due.pending_fields", |g| g.due.pending_fields.push(0)),
        ("due.freed", |g| {
            let (player, ftype, inst, root) = (0, 0, 0, 0);
            g.due.freed.push(Freed {
                player,
                ftype,
                inst,
                root,
            });
        }),
        ("deck.chance", |g| g.deck.chance ^= true),
        ("deck.resume", |g| g.deck.resume = Resume::W6(0)),
        ("w.pool", |g| g.w.pool.push(0)),
        ("w.offering", |g| {
            g.w.offering = Some(PendingOffer {
                rule: 0,
                ctx: Ctx::of(0),
            })
        }),
        ("w.queue", |g| {
            g.w.queue.push(PendingOffer {
                rule: 0,
                ctx: Ctx::of(0),
            })
        }),
        ("w.left", |g| g.w.left = 1),
        ("w.taken", |g| g.w.taken.push(0)),
        ("w.held", |g| g.w.held.push((0, 0))),
        ("w.owned", |g| g.w.owned.push(owned(true))),
        ("w.owned's pooled", |g| g.w.owned.push(owned(false))),
        ("w.unplaceable", |g| g.w.unplaceable.push((0, 0))),
        ("w.kept", |g| g.w.kept.push((0, 0))),
        ("w.kept_only", |g| g.w.kept_only = true),
        ("w.setup_seats", |g| g.w.setup_seats.push(0)),
        ("w.tiles", |g| g.w.tiles.push(0)),
        ("w.seats", |g| g.w.seats.push(0)),
        ("w.picking", |g| g.w.picking = Picking::Take),
        ("w.must_place", |g| g.w.must_place = true),
        ("w.second_follower", |g| g.w.second_follower = true),
        ("w.w6", |g| g.w.w6 = Some(0)),
        ("w.claims", |g| g.w.claims.push((0, 0))),
        ("choice", |g| g.choice.stage = Stage::TurnEnd),
        ("rf.tokens", |g| g.rf.tokens.push(Token::default())),
        ("rf.tracks", |g| g.rf.tracks.push(Track::default())),
        ("rf.counters", |g| g.rf.counters.push(vec![1])),
        ("rf.placed_by", |g| g.rf.placed_by.push(1)),
        ("st.stacks", |g| {
            let (inst, kind, height, top, closed) = (0, 0, 1, None, false);
            g.st.stacks.push(Stack {
                inst,
                kind,
                height,
                top,
                closed,
            });
        }),
        ("st.held", |g| {
            let (holder, owner, ftype) = (0, 1, 0);
            g.st.held.push(Held {
                holder,
                owner,
                ftype,
            });
        }),
        ("st.taken", |g| g.st.taken.push((0, 1))),
        ("nf.at", |g| g.nf.at.push(Some((0, 0)))),
        ("nf.no_figures", |g| g.nf.no_figures = Some((0, 0))),
        ("nf.set_aside", |g| g.nf.set_aside.push(0)),
    ];

    #[test]
    fn every_field_moves_the_hash() {
        let g = midgame();
        assert_eq!(g.state_hash(), g.state_hash_from_scratch());
        for (what, change) in CHANGES {
            let mut h = g.clone();
            change(&mut h);
            assert!(h != g, "{what}: the change changes nothing");
            assert_ne!(h.state_hash(), g.state_hash(), "{what}");
        }
    }

    /// What the hash leaves out on purpose: the record of how the game got here, the hidden
    /// pile order, the count of turns.
    #[test]
    fn history_and_hidden_order_do_not_move_the_hash() {
        let g = midgame();
        let mut h = g.clone();
        h.now.turn += 1;
        h.log.history.clear();
        h.deck.seed = None;
        let drawn = h.deck.drawn;
        h.deck.pile[drawn..].reverse();
        assert!(h != g);
        assert_eq!(h.state_hash(), g.state_hash());
    }
}
