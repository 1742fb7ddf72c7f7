//! The state the one rule form keeps (docs/design/rule-form.md, "What the engine needs" 3, 4):
//! single-holder tokens with their records (KR-2), counters on placed tiles (GM-2), who placed
//! each tile (the `owner` seat selector), and the offers the automatic side leaves for the
//! choices (`game/choice.rs`). Empty, and never touched, in a variant without `[[when]]` rules.

use tegula_ruleset::TrackType;

use super::take::Claim;
use super::when::Ctx;
use super::{part, Game};

/// Who placed a tile instance: nobody (the start tile, or a tile placed before anyone was
/// recorded).
const NOBODY: u8 = u8::MAX;

/// One single-holder token (KR-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Token {
    /// The seat holding it.
    pub holder: Option<u8>,
    /// The record it was last taken with (never decreases).
    pub record: u32,
    /// The record as it was when the current turn began (what `record(TOKEN)` reads: KR-2's
    /// Reading compares a tile's cities with those completed before this turn).
    pub at_start: u32,
}

/// One shared track (W-2's threshold pairs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Track {
    /// Where it stands.
    pub at: u32,
    /// Where it stood when the turn's `turn-finished` was raised (what `track_was` reads).
    pub was: u32,
    /// The furthest it goes.
    pub max: u32,
}

/// An offer of a rule (`When::offer`) waiting for its choice: the rule's index into
/// [`tegula_ruleset::Ruleset::when`] and the context its effects act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PendingOffer {
    /// Index of the rule.
    pub rule: u16,
    /// The event's subject, actor and winners.
    pub ctx: Ctx,
}

part! {
    /// The one rule form's part of a game.
    #[derive(Default)]
    pub(crate) struct RuleState {
        /// By token index.
        pub(super) tokens: Vec<Token>,
        /// By track index.
        pub(super) tracks: Vec<Track>,
        /// By counter kind, by tile instance (grown when a counter is first put on an instance).
        pub(super) counters: Vec<Vec<u32>>,
        /// By tile instance, the seat that placed it ([`NOBODY`] for the start tile).
        pub(super) placed_by: Vec<u8>,
        /// Offers raised and not yet made, in the order raised. The automatic side only pushes
        /// them; the choices (`game/choice.rs`) take them off.
        pub(crate) offers: Vec<PendingOffer>,
        /// During the turn's scoring step, the takes waiting to be shared together (GM-4); `None`
        /// elsewhere (never set between moves).
        pub(super) claims: Option<Vec<Claim>>,
    }
}

impl RuleState {
    /// The state at the start of a game of `tokens` tokens, `counters` counter kinds and the
    /// tracks `tracks` at their starts.
    pub(super) fn reset(&mut self, tokens: usize, counters: usize, tracks: &[TrackType]) {
        self.tokens.clear();
        self.tokens.resize(tokens, Token::default());
        self.tracks.clear();
        self.tracks.extend(tracks.iter().map(|t| Track {
            at: t.start,
            was: t.start,
            max: t.max,
        }));
        self.counters.resize_with(counters, Vec::new);
        self.counters.truncate(counters);
        self.counters.iter_mut().for_each(Vec::clear);
        self.placed_by.clear();
        self.offers.clear();
        self.claims = None;
    }

    /// Record that `seat` placed tile instance `inst`.
    pub(super) fn note_placed(&mut self, inst: u32, seat: u8) {
        let i = inst as usize;
        if self.placed_by.len() <= i {
            self.placed_by.resize(i + 1, NOBODY);
        }
        self.placed_by[i] = seat;
    }

    /// The seat that placed tile instance `inst`, if any.
    pub(super) fn placer_of(&self, inst: u32) -> Option<u8> {
        let p = self.placed_by.get(inst as usize).copied()?;
        (p != NOBODY).then_some(p)
    }

    /// Counters of kind `counter` on tile instance `inst`.
    pub(super) fn counters_on(&self, counter: usize, inst: u32) -> u32 {
        let on = self
            .counters
            .get(counter)
            .and_then(|c| c.get(inst as usize));
        on.copied().unwrap_or(0)
    }

    /// Set the counters of kind `counter` on instance `inst` (a counter kind the ruleset lacks
    /// holds nothing: `Rules::new` refuses rules naming one).
    pub(super) fn set_counters(&mut self, counter: usize, inst: u32, n: u32) {
        let Some(c) = self.counters.get_mut(counter) else {
            return;
        };
        let i = inst as usize;
        if c.len() <= i {
            c.resize(i + 1, 0);
        }
        c[i] = n;
    }

    /// The turn is finished: each track's position as it is now is the one `track_was` reads.
    pub(super) fn note_tracks(&mut self) {
        for t in &mut self.tracks {
            t.was = t.at;
        }
    }

    /// Track `track` moves on by `by`, never past its end.
    pub(super) fn advance(&mut self, track: usize, by: u32) {
        if let Some(t) = self.tracks.get_mut(track) {
            t.at = t.at.saturating_add(by).min(t.max);
        }
    }

    /// At the start of a turn: each token's record as it is now is the one the turn reads.
    pub(super) fn begin_turn(&mut self) {
        for t in &mut self.tokens {
            t.at_start = t.record;
        }
    }

    /// A few words for the state hash (nothing when the variant has no rule of the one form, so
    /// the hash of every other variant stays what it was). Tile instances are keyed by where
    /// they lie (`inst_key`), not by their placement order. `claims` is empty between moves.
    pub(super) fn hash_into(
        &self,
        inst_key: impl Fn(u32) -> u64,
        mut key: impl FnMut(u64, u64, u64),
    ) {
        let RuleState {
            tokens,
            tracks,
            counters,
            placed_by,
            offers,
            claims: _,
        } = self;
        for (i, t) in tokens.iter().enumerate() {
            let holder = t.holder.map_or(0, |h| u64::from(h) + 1);
            key(40, i as u64, holder << 32 | u64::from(t.record));
            key(41, i as u64, u64::from(t.at_start));
        }
        for (i, t) in tracks.iter().enumerate() {
            key(45, i as u64, u64::from(t.at) << 32 | u64::from(t.was));
        }
        for (k, c) in counters.iter().enumerate() {
            for (inst, &n) in c.iter().enumerate().filter(|(_, &n)| n > 0) {
                key(42, (k as u64) << 32 | u64::from(n), inst_key(inst as u32));
            }
        }
        let placers = placed_by.iter().enumerate().filter(|(_, &p)| p != NOBODY);
        for (inst, &seat) in placers {
            key(43, u64::from(seat), inst_key(inst as u32));
        }
        for (i, o) in offers.iter().enumerate() {
            let ctx = {
                let mut s = std::hash::DefaultHasher::new();
                std::hash::Hash::hash(&o.ctx, &mut s);
                std::hash::Hasher::finish(&s)
            };
            key(44, (i as u64) << 16 | u64::from(o.rule), ctx);
        }
    }
}

impl Game {
    /// Where shared track `track` (index into the ruleset's tracks) stands; 0 for none.
    pub fn track_at(&self, track: usize) -> u32 {
        self.rf.tracks.get(track).map_or(0, |t| t.at)
    }

    /// The seat holding token `token` (index into the ruleset's tokens), if any.
    pub fn token_holder(&self, token: usize) -> Option<u8> {
        self.rf.tokens.get(token).and_then(|t| t.holder)
    }

    /// The record token `token` was last taken with (0 while nobody has taken it).
    pub fn token_record(&self, token: usize) -> u32 {
        self.rf.tokens.get(token).map_or(0, |t| t.record)
    }

    /// Counters of kind `counter` (index into the ruleset's counters) on the tile covering cell
    /// `(x, y)`; 0 on an empty cell.
    pub fn counters_at(&self, counter: usize, x: i32, y: i32) -> u32 {
        let Some(pos) = self.pos(x, y) else {
            return 0;
        };
        let v = self.board.cells[pos];
        if v >= super::FRONT {
            return 0;
        }
        self.rf.counters_on(counter, v >> 4)
    }

    /// Every tile carrying counters: `(counter kind, tile anchor x, y, how many)`, by kind and
    /// then in placement order (what a board picture draws).
    pub fn tile_counters(&self) -> Vec<(usize, i32, i32, u32)> {
        let mut out = Vec::new();
        for (k, c) in self.rf.counters.iter().enumerate() {
            for (inst, &n) in c.iter().enumerate().filter(|(_, &n)| n > 0) {
                let i = self.board.insts[inst];
                out.push((k, i.x, i.y, n));
            }
        }
        out
    }
}
