//! An upper bound on any seat's final score, from the variant's rules alone (OpenSpiel's
//! `max_utility`, docs/AI.md "Utility bounds"). A seat scores at most every point the score
//! events of a game can pay it, so the bound adds up what all events can pay, each counted from
//! the pieces the game holds (its tiles, with their printed features, and the figures):
//!
//! - roads, cities, cloisters: each feature scores once (completed, or incomplete at the end),
//!   its value an expression over its counts. Each expression is bounded above by an affine
//!   function of the counts (`Lin`; a product of two counts by its largest value), and the
//!   counts summed over all features of a kind are bounded by the game's pieces: a feature's
//!   cells by the tile-local features' cells, pennants and tagged segments by those printed,
//!   a cloister's neighbours by 8, a field's completed cities by the field–city borders;
//! - completed cities: a tile-local city with an open side needs another tile's city on it,
//!   so at most the closed tile-local cities plus half the open ones (the most cities one
//!   field can border, and the first edition's per-city field payments);
//! - fields at the end, per field (B-6) or per completed city (first edition);
//! - corner figures (AM-7, AM-8, AM-9): each placement at most its payment's bound on one field
//!   (every count at its largest) to the farmer majority, each final score only to the seat's
//!   own figures, an AM-8 join paying only farmers that then return (at most one join per
//!   follower decision, two where a figure that moves after scoring can stand on a field);
//! - abilities (W-10..W-17): each instance of a tile fires at most as often as its trigger can
//!   happen, each time at most its largest points times the largest count (figures: one seat's
//!   supply with what pool takes add, times the seats the count covers; features of a kind: at
//!   most its cells over `min_tiles`, its tagged segments, its completable cities; lines with a
//!   run of `n`: twice the cells over `n`); an ability paying a value of the road, city or
//!   cloister that triggers it pays at most those features' values added up;
//! - payment modifiers (TB-8's kind) add only to their owner's payment: the seat's own
//!   modifier figures, each at most its largest value per payment of the feature it stands on
//!   (a field: once at the end, or once per completed city under the first edition, and at each
//!   corner figure's majority payment); seat-resource awards (TB-3's kind): each once;
//! - rules of the one form (`[[when]]`, module `when`): each score effect, its event's firings
//!   times one firing's largest value, the counts that rules' effects make (counters,
//!   resources, records) bounded by those effects; a value that feeds itself has no bound.
//!
//! The sums saturate at `u32::MAX`, where scores saturate too.

mod when;

use std::cell::Cell;
use std::collections::HashMap;

use tegula_engine::Rules;

pub use when::NoBound;

use tegula_ruleset::{
    Ability, Act, AfterScore, Compare, Count, Effect, Expr, FeatureKind, FieldRule, Options, Owner,
    Per, Quantity, RuleEvent, Ruleset, Seat, State, StateValues, Test, Trigger,
};

/// An affine upper bound of an expression: `konst + Σ coef[q] · q`.
#[derive(Clone, Default)]
struct Lin {
    konst: u128,
    coef: HashMap<Quantity, u128>,
}

impl Lin {
    fn add(mut self, other: Lin) -> Lin {
        self.konst = self.konst.saturating_add(other.konst);
        for (q, c) in other.coef {
            let e = self.coef.entry(q).or_default();
            *e = e.saturating_add(c);
        }
        self
    }

    fn scale(mut self, k: u128) -> Lin {
        self.konst = self.konst.saturating_mul(k);
        for c in self.coef.values_mut() {
            *c = c.saturating_mul(k);
        }
        self
    }

    /// Coefficient-wise maximum (an upper bound of both, the counts being ≥ 0).
    fn max(mut self, other: Lin) -> Lin {
        self.konst = self.konst.max(other.konst);
        for (q, c) in other.coef {
            let e = self.coef.entry(q).or_default();
            *e = (*e).max(c);
        }
        self
    }

    /// Its value with each count at `value(q)`.
    fn at(&self, value: &dyn Fn(Quantity) -> u128) -> u128 {
        let terms = self.coef.iter().map(|(&q, &c)| c.saturating_mul(value(q)));
        terms.fold(self.konst, u128::saturating_add)
    }
}

/// The affine upper bound of `e`; `most(q)` is the largest a count can be on one feature.
fn lin(e: &Expr, most: &dyn Fn(Quantity) -> u128) -> Lin {
    match e {
        Expr::Int(n) => Lin {
            konst: u128::from(*n),
            ..Lin::default()
        },
        Expr::Count(q) => Lin {
            konst: 0,
            coef: HashMap::from([(*q, 1)]),
        },
        Expr::Add(a, b) => lin(a, most).add(lin(b, most)),
        // A difference is never more than its left side.
        Expr::Sub(a, _) => lin(a, most),
        Expr::Mul(a, b) => {
            let (a, b) = (lin(a, most), lin(b, most));
            match (a.coef.is_empty(), b.coef.is_empty()) {
                (true, _) => b.scale(a.konst),
                (_, true) => a.scale(b.konst),
                // A product of counts: its largest value, on every feature.
                _ => Lin {
                    konst: a.at(most).saturating_mul(b.at(most)),
                    ..Lin::default()
                },
            }
        }
        Expr::If(_, a, b) => lin(a, most).max(lin(b, most)),
        Expr::Cite(_, a) => lin(a, most),
    }
}

/// What a game of the variant holds, summed over its pieces.
#[derive(Default)]
struct Totals {
    /// Per tile type: its pieces in a game (pile, start tile, pool, players' own tiles).
    copies: Vec<u128>,
    /// Pieces (tiles placed, start tile included).
    pieces: u128,
    /// Cells covered by all pieces.
    cells: u128,
    /// Per kind: tile-local features, and the cells they touch.
    features: HashMap<FeatureKind, (u128, u128)>,
    /// Pennants printed.
    pennants: u128,
    /// Per tag: segments of features carrying it.
    tagged: HashMap<u32, u128>,
    /// Per tag: pieces with a segment carrying it (or the tile itself).
    tagged_pieces: HashMap<u32, u128>,
    /// Field–city borders of the tile-local fields.
    borders: u128,
    /// The most cities that can be completed: a completed city is a tile-local city with no
    /// open side, or joins two or more with open sides (each open side meets another city's).
    completed_cities: u128,
}

impl Totals {
    fn of(rules: &Rules, players: u8) -> Totals {
        let rs = rules.ruleset();
        let mut copies = vec![0u128; rs.tiles.len()];
        let placed = rules
            .pile()
            .into_iter()
            .chain(std::iter::once(rules.start_tile()));
        let pool = rs.pool.iter().flat_map(|p| p.tiles.iter().copied());
        for t in placed.chain(pool) {
            copies[usize::from(t)] += 1;
        }
        for own in &rs.player_tiles {
            copies[usize::from(own.tile)] += u128::from(own.count) * u128::from(players);
        }
        let mut totals = Totals::default();
        let (mut closed, mut open) = (0u128, 0u128);
        for (tile, &n) in rs.tiles.iter().zip(&copies).filter(|(_, &n)| n > 0) {
            totals.pieces += n;
            let tags = tile.features.iter().fold(tile.tags, |a, f| a | f.tags);
            for tag in (0..32).filter(|b| tags & (1 << b) != 0) {
                *totals.tagged_pieces.entry(tag).or_default() += n;
            }
            totals.cells += n * u128::from(tile.cell_count);
            for f in &tile.features {
                let e = totals.features.entry(f.kind).or_default();
                e.0 += n;
                e.1 += n * u128::from(f.cells.count_ones());
                totals.pennants += n * u128::from(f.pennants);
                totals.borders += n * f.borders.len() as u128;
                if f.kind == FeatureKind::City {
                    closed += n * u128::from(f.open_sides == 0);
                    open += n * u128::from(f.open_sides > 0);
                }
                for tag in (0..32).filter(|b| f.tags & (1 << b) != 0) {
                    *totals.tagged.entry(tag).or_default() += n * f.segments.len() as u128;
                }
            }
        }
        totals.copies = copies;
        totals.completed_cities = closed + open / 2;
        totals
    }

    /// Tile-local features of `kind` (at least the merged features of that kind).
    fn count(&self, kind: FeatureKind) -> u128 {
        self.features.get(&kind).map_or(0, |e| e.0)
    }

    /// The largest `q` on one feature of `kind`, and `q` summed over all of them.
    fn quantity(&self, kind: FeatureKind, q: Quantity) -> (u128, u128) {
        match q {
            Quantity::Tiles => {
                let cells = self.features.get(&kind).map_or(0, |e| e.1);
                (cells, cells)
            }
            Quantity::Pennants => (self.pennants, self.pennants),
            Quantity::Neighbours => (8, 8 * self.count(kind)),
            // Those with a tag are some of the cities; each border pairs a field with a city.
            Quantity::Cities | Quantity::CitiesWith(_) => (self.completed_cities, self.borders),
            Quantity::Tag(t) => {
                let n = self.tagged.get(&t).copied().unwrap_or(0);
                (n, n)
            }
            // Never in a feature's value (the model refuses them there).
            Quantity::Record(_)
            | Quantity::Counters(_)
            | Quantity::Held(_)
            | Quantity::Completed(_)
            | Quantity::Touching(..)
            | Quantity::Extends(_)
            | Quantity::ExtendsOpen(_)
            | Quantity::OwnerActs
            | Quantity::PlacedThisTurn
            | Quantity::OwnerFigure
            | Quantity::Occupants
            | Quantity::OwnerFigures
            | Quantity::Figures { .. }
            | Quantity::Features { .. }
            | Quantity::Lines(_)
            | Quantity::Players
            | Quantity::GameTiles
            | Quantity::Near(_)
            | Quantity::Score
            | Quantity::Taken
            | Quantity::Track(_)
            | Quantity::TrackWas(_)
            | Quantity::OnBoard(_)
            | Quantity::SetAside
            | Quantity::Assigned(_)
            | Quantity::HoldsAssigned(_)
            | Quantity::AssignedWins(_)
            | Quantity::OnTileOf(_) => (0, 0),
        }
    }

    /// Pieces carrying a tag (on the tile or a segment).
    fn tagged_pieces(&self, tag: u32) -> u128 {
        self.tagged_pieces.get(&tag).copied().unwrap_or(0)
    }

    /// Points all features of `kind` valued by `lin` can pay in one game.
    fn all_features(&self, kind: FeatureKind, lin: &Lin) -> u128 {
        let per_feature = lin.konst.saturating_mul(self.count(kind));
        let sums = lin
            .coef
            .iter()
            .map(|(&q, &c)| c.saturating_mul(self.quantity(kind, q).1));
        sums.fold(per_feature, u128::saturating_add)
    }
}

/// The largest final score any seat can reach in a game of `players` seats (see the module);
/// `u32::MAX` (where scores saturate) where a rule's points have no bound ([`score_bound`]
/// says why).
pub fn max_score(rules: &Rules, players: u8) -> u32 {
    score_bound(rules, players).unwrap_or(u32::MAX)
}

/// The lowest final score any seat can reach in a game of `players` seats: 0, or below 0 where
/// a buy-back (`redeem`) costs more than its offer's `min_score` (TO-7's other reading). Such a
/// buy-back takes at most its points less `min_score` (a seat pays only with at least
/// `min_score`), or with no minimum (`min_score` 0) its points once a piece (a held figure was
/// captured in a turn); the debts add up, saturating at `-u32::MAX`. OpenSpiel's `min_utility`.
pub fn min_score(rules: &Rules, players: u8) -> i64 {
    let rs = rules.ruleset();
    let pieces = Totals::of(rules, players).pieces;
    let debt = |o: &tegula_ruleset::Offer| {
        let Options::OwnCaptive { min_score: m, .. } = o.options else {
            return 0;
        };
        let each = |a: &Act| match *a {
            Act::Redeem { points } if points > m && m > 0 => u128::from(points - m),
            Act::Redeem { points } if points > m => u128::from(points).saturating_mul(pieces),
            _ => 0,
        };
        o.then.iter().map(each).fold(0, u128::saturating_add)
    };
    let offers = rs.when.iter().filter_map(|w| w.offer.as_ref());
    let total = offers.map(debt).fold(0, u128::saturating_add);
    -i64::from(u32::try_from(total).unwrap_or(u32::MAX))
}

/// [`max_score`], or the rule whose points have no bound and why.
pub fn score_bound(rules: &Rules, players: u8) -> Result<u32, NoBound> {
    let rs = rules.ruleset();
    let t = Totals::of(rules, players);
    let values = &rs.scoring.values;
    let kinds: [(FeatureKind, &StateValues); 3] = [
        (FeatureKind::Road, &values.road),
        (FeatureKind::City, &values.city),
        (FeatureKind::Cloister, &values.cloister),
    ];
    let mut total = 0u128;
    for (kind, v) in kinds {
        let most = |q| t.quantity(kind, q).0;
        let either = lin(&v.complete, &most).max(lin(&v.incomplete, &most));
        total = total.saturating_add(t.all_features(kind, &either));
    }
    let field_most = |q| t.quantity(FeatureKind::Field, q).0;
    let field = lin(&values.field, &field_most);
    let fields = match rs.scoring.field_rule {
        FieldRule::PerField => t.all_features(FeatureKind::Field, &field),
        // Each completed city once, valued with `cities` = 1.
        FieldRule::PerCity => {
            let one = |q| match q {
                Quantity::Cities => 1,
                q => field_most(q),
            };
            field.at(&one).saturating_mul(t.completed_cities)
        }
    };
    let (corner, corner_events) = corner_points(rs, &t, players);
    let abilities = ability_points(rs, &t, players, corner_events);
    let extras = modifier_points(rs, &t, corner_events).saturating_add(award_points(rs));
    let rules_form = when::Game {
        rs,
        t: &t,
        players,
        corner_events,
        depth: Cell::new(0),
    }
    .points()?;
    let all = total
        .saturating_add(rules_form)
        .saturating_add(extras)
        .saturating_add(fields)
        .saturating_add(corner)
        .saturating_add(abilities);
    Ok(u32::try_from(all).unwrap_or(u32::MAX))
}

/// Figures of follower type `i` one seat can own: its supply and what pool takes give it (the
/// `figures` effects of the pool-tile offers, W-2 and W-30), see [`taken_figures`].
fn seat_figures(rs: &Ruleset, i: usize) -> u128 {
    let offers = rs.when.iter().filter_map(|w| w.offer.as_ref());
    let pool_tiles = offers.filter(|o| o.options == Options::PoolTile);
    let gained = pool_tiles.fold(0u128, |n, o| {
        let adds = o.then.iter().filter_map(|a| match a {
            Act::Figures { figure, add, .. } if usize::from(*figure) == i => Some(add),
            _ => None,
        });
        let takes = takes_bound(&o.to);
        adds.fold(n, |n, add| n.saturating_add(taken_figures(add, takes)))
    });
    u128::from(rs.followers[i].count) + gained
}

/// How many times one seat can take from a pool-tile offer to `to`: one more than the largest
/// `k` its test compares `taken == k` with, where every alternative of the test does (W-2 and
/// W-30: `taken == 0 and …` or `taken == 1 and …`: 2); otherwise the engine's limit of 255.
fn takes_bound(to: &Seat) -> u32 {
    fn most(t: &Test) -> Option<u32> {
        match t {
            Test::Or(a, b) => Some(most(a)?.max(most(b)?)),
            Test::And(a, b) => match (most(a), most(b)) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
            Test::Cmp(Compare::Eq, a, b) => match (a.as_ref(), b.as_ref()) {
                (Expr::Count(Quantity::Taken), Expr::Int(k))
                | (Expr::Int(k), Expr::Count(Quantity::Taken)) => Some(*k),
                _ => None,
            },
            _ => None,
        }
    }
    match to {
        Seat::Where(t) => most(t).map_or(u32::from(u8::MAX), |k| k.saturating_add(1)),
        _ => u32::from(u8::MAX),
    }
}

/// The figures `add` gives over `takes` takes: its value with `taken` at 0, 1, …; a value
/// reading anything but `taken` has no bound here (`u32::MAX` a take).
fn taken_figures(add: &Expr, takes: u32) -> u128 {
    struct Taken(u32, bool);
    impl tegula_ruleset::Counts for Taken {
        fn count(&mut self, q: Quantity) -> u32 {
            if q == Quantity::Taken {
                self.0
            } else {
                self.1 = true;
                u32::MAX
            }
        }
    }
    (0..takes).fold(0u128, |n, k| {
        let mut c = Taken(k, false);
        let v = add.eval(&mut c);
        let v = if c.1 { u32::MAX } else { v };
        n.saturating_add(u128::from(v))
    })
}

/// Points payment modifiers (TB-8's kind) can add to one seat's score: a modifier adds only to
/// its owner's payments, so only the seat's own modifier figures count, each at most its
/// largest value per payment of the feature it stands on. On a road, city or cloister that is
/// each such feature's one payment. On a field: one final payment per figure (a field is paid
/// at the end, B-6), or under the first edition's rule one per completed city with `cities` =
/// 1; plus every corner-figure scoring (AM-7, AM-8), each paying one field.
fn modifier_points(rs: &Ruleset, t: &Totals, corner_events: u128) -> u128 {
    let mut points = 0u128;
    for (i, value) in payments(rs) {
        let Some(f) = rs.followers.get(i) else {
            continue;
        };
        let mine = seat_figures(rs, i);
        for kind in f.sites.iter().filter_map(|s| s.feature_kind()) {
            let most = |q| t.quantity(kind, q).0;
            let each = lin(value, &most).at(&most);
            let paid = if kind != FeatureKind::Field {
                t.count(kind).saturating_mul(each)
            } else {
                let one_city = |q| match q {
                    Quantity::Cities => 1,
                    q => most(q),
                };
                let end = match rs.scoring.field_rule {
                    FieldRule::PerField => each,
                    FieldRule::PerCity => {
                        (t.completed_cities).saturating_mul(lin(value, &most).at(&one_city))
                    }
                };
                end.saturating_add(corner_events.saturating_mul(each))
            };
            points = points.saturating_add(mine.saturating_mul(paid));
        }
    }
    points
}

/// The figures' payments (TB-8) as the model lowers them: `feature-paid` rules scoring the
/// winners with a figure of a type (`has(FIGURE)`), by figure type with the value.
fn payments(rs: &Ruleset) -> impl Iterator<Item = (usize, &Expr)> {
    let paid = rs
        .when
        .iter()
        .filter(|w| matches!(w.event, RuleEvent::FeaturePaid { .. }));
    paid.flat_map(|w| &w.then).filter_map(|a| match a {
        Act::Score {
            value,
            to: Seat::Has(f),
        } => Some((usize::from(*f), value)),
        _ => None,
    })
}

/// Points seat-resource awards can pay one seat: each award (a `game-over` rule scoring the
/// seats holding the most, as the model lowers a resource's `award`) once; a value other than
/// a number is not bounded.
fn award_points(rs: &Ruleset) -> u128 {
    let over = rs.when.iter().filter(|w| w.event == RuleEvent::GameOver);
    let awards = over.flat_map(|w| &w.then).filter_map(|a| match a {
        Act::Score {
            value,
            to: Seat::Most(_),
        } => Some(value),
        _ => None,
    });
    awards
        .map(|v| match v {
            Expr::Int(n) => u128::from(*n),
            _ => u128::from(u32::MAX),
        })
        .sum()
}

/// Points corner figures can score one seat (AM-7 at placement, AM-8 at joins, AM-9 at the
/// end), and how many majority payments of a field they can make (those a payment modifier
/// adds to: placements and joins, not the owner's own final score).
fn corner_points(rs: &Ruleset, t: &Totals, players: u8) -> (u128, u128) {
    // A join pays only a part holding farmers, and all of them return (AM-8): at most one
    // paying part per figure put on a field: by the follower decision of a placement, and by
    // a move after scoring where a figure that moves can stand on a field.
    let moves_to_fields = rs.followers.iter().any(|f| {
        matches!(f.after_score, AfterScore::Move(_))
            && f.sites
                .iter()
                .any(|s| s.feature_kind() == Some(FeatureKind::Field))
    });
    let joins = t.pieces * (1 + u128::from(moves_to_fields));
    // A payment's largest value on one field, each count at its largest there.
    let most = |q| t.quantity(FeatureKind::Field, q).0;
    let bound = |e: &Expr| lin(e, &most).at(&most);
    let (mut points, mut events) = (0u128, 0u128);
    for (i, f) in rs.followers.iter().enumerate() {
        let Some(c) = &f.corner else { continue };
        // Placements pay the farmer majority (any seat); the final score only the owner.
        let figures = u128::from(f.count) * u128::from(players);
        points = points
            .saturating_add(figures.saturating_mul(bound(&c.place)))
            .saturating_add(seat_figures(rs, i).saturating_mul(bound(&c.final_)))
            .saturating_add(joins.saturating_mul(bound(&c.join)));
        events += figures + joins;
    }
    (points, events)
}

/// Points tile abilities can score: per instance of each tile, per ability, its firings times
/// its largest points times its largest count.
fn ability_points(rs: &Ruleset, t: &Totals, players: u8, corner_events: u128) -> u128 {
    // One seat's figures; the others' are `players - 1` times as many at most.
    let seat: u128 = (0..rs.followers.len()).map(|i| seat_figures(rs, i)).sum();
    let figures = Figures {
        seat,
        players: u128::from(players),
    };
    let mut points = 0u128;
    for (tile, &n) in rs.tiles.iter().zip(&t.copies) {
        for a in &tile.abilities {
            let once = per_feature_points(a, t, figures).unwrap_or_else(|| {
                fires(a, t, corner_events).saturating_mul(most_points(a, t, figures))
            });
            points = points.saturating_add(once.saturating_mul(n));
        }
    }
    points
}

/// An ability paying a value of the road, city or cloister that triggers it (`per_value`): each
/// such feature is completed and scored once, so its firings pay at most what the features'
/// values add up to (the sum over all features of the kind, as for their own scores).
fn per_feature_points(a: &Ability, t: &Totals, figures: Figures) -> Option<u128> {
    let Effect::Score {
        per: Per::Value(e),
        count,
    } = &a.effect
    else {
        return None;
    };
    let (Trigger::FeatureCompleted { kind, .. } | Trigger::FeatureScored { kind, .. }) = a.when
    else {
        return None;
    };
    if kind == FeatureKind::Field {
        return None; // fields are paid per city and by corner figures too
    }
    let most = |q| t.quantity(kind, q).0;
    let all = t.all_features(kind, &lin(e, &most));
    Some(all.saturating_mul(count_bound(count, t, figures)))
}

/// Figures on the board: one seat's at most, and the number of seats.
#[derive(Clone, Copy)]
struct Figures {
    seat: u128,
    players: u128,
}

/// How often an ability can fire in a game.
fn fires(a: &Ability, t: &Totals, corner_events: u128) -> u128 {
    match a.when {
        // One follower decision per placement, counted twice for safety (a turn places at
        // most one figure from supply).
        Trigger::FollowerPlaced | Trigger::Draw => 2 * t.pieces,
        Trigger::FeatureCompleted { kind, .. } => t.count(kind),
        Trigger::FeatureScored { kind, .. } => {
            let fields = if kind == FeatureKind::Field {
                t.count(FeatureKind::City) + corner_events
            } else {
                0
            };
            t.count(kind) + fields
        }
        Trigger::GameEnd => 1,
    }
}

/// The most one firing of an ability pays.
fn most_points(a: &Ability, t: &Totals, figures: Figures) -> u128 {
    let Effect::Score { per, count } = &a.effect else {
        return 0;
    };
    let per = match per {
        Per::Fixed(n) => *n,
        Per::ByPlayers(v) => v.iter().map(|e| e.1).max().unwrap_or(0),
        Per::ByTiles(v) => v.iter().map(|e| e.1).max().unwrap_or(0),
        // Over the triggering feature: its largest value on one feature of the kind.
        Per::Value(e) => {
            let kind = match a.when {
                Trigger::FeatureCompleted { kind, .. } | Trigger::FeatureScored { kind, .. } => {
                    kind
                }
                _ => FeatureKind::City,
            };
            let most = |q| t.quantity(kind, q).0;
            let v = lin(e, &most).at(&most);
            u32::try_from(v).unwrap_or(u32::MAX)
        }
    };
    u128::from(per).saturating_mul(count_bound(count, t, figures))
}

/// The most an ability's `count` can be.
fn count_bound(count: &Count, t: &Totals, figures: Figures) -> u128 {
    match count {
        Count::One => 1,
        Count::Followers { owner, .. } => match owner {
            Owner::Own => figures.seat,
            Owner::Others => figures.seat * figures.players.saturating_sub(1),
            Owner::Anyone => figures.seat * figures.players,
        },
        // Each such feature spans `min_tiles` cells of the kind's at least, holds a segment
        // with the tag, and a completed city is one of the cities that can be completed.
        Count::Features {
            kind,
            min_tiles,
            state,
            tag,
        } => {
            let cells = t.features.get(kind).map_or(0, |e| e.1);
            let mut n = t.count(*kind).min(cells / u128::from((*min_tiles).max(1)));
            if let Some(tag) = tag {
                n = n.min(t.tagged.get(tag).copied().unwrap_or(0));
            }
            if *kind == FeatureKind::City && *state == State::Complete {
                n = n.min(t.completed_cities);
            }
            n
        }
        // Rows and columns holding a run of `n` filled cells: each row (and each column)
        // holds `n` of the cells at least.
        Count::LinesWithRun(n) => 2 * (t.cells / u128::from((*n).max(1))),
    }
}
