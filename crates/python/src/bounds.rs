//! An upper bound on any seat's final score, from the variant's rules alone (OpenSpiel's
//! `max_utility`, docs/AI.md "Utility bounds"). A seat scores at most every point any score
//! event pays, so the bound adds up what all events of a game can pay:
//!
//! - roads, cities, cloisters: each feature scores once (completed, or incomplete at the end),
//!   its value an expression over its counts. Each expression is bounded above by an affine
//!   function of the counts (`Lin`; a product of two counts by its largest value), and the
//!   counts summed over all features of a kind are bounded by the game's pieces: a feature's
//!   cells by the tile-local features' cells, pennants and tagged segments by those printed,
//!   a cloister's neighbours by 8, a field's completed cities by the field–city borders;
//! - fields at the end, per field (B-6) or per city (first edition);
//! - corner figures (AM-7, AM-8, AM-9): each event at most its payment's bound on one field
//!   (every count at its largest), an AM-8 join paying only farmers that then return (one per
//!   figure put on a field);
//! - abilities (W-10..W-17): each instance of a tile fires at most as often as its trigger can
//!   happen, each time at most its largest points times the largest count;
//! - payment modifiers (TB-8's kind): at most their largest value per payment of a feature they
//!   can stand on; seat-resource awards (TB-3's kind): each once.
//!
//! The sums saturate at `u32::MAX`, where scores saturate too.

use std::collections::HashMap;

use tegula_engine::Rules;

use tegula_ruleset::{
    Ability, Count, Effect, Expr, FeatureKind, FieldRule, Per, Quantity, Ruleset, StateValues,
    Trigger,
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
    /// Field–city borders of the tile-local fields.
    borders: u128,
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
        for (tile, &n) in rs.tiles.iter().zip(&copies).filter(|(_, &n)| n > 0) {
            totals.pieces += n;
            totals.cells += n * u128::from(tile.cell_count);
            for f in &tile.features {
                let e = totals.features.entry(f.kind).or_default();
                e.0 += n;
                e.1 += n * u128::from(f.cells.count_ones());
                totals.pennants += n * u128::from(f.pennants);
                totals.borders += n * f.borders.len() as u128;
                for tag in (0..32).filter(|b| f.tags & (1 << b) != 0) {
                    *totals.tagged.entry(tag).or_default() += n * f.segments.len() as u128;
                }
            }
        }
        totals.copies = copies;
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
            // Those with a tag are some of the cities.
            Quantity::Cities | Quantity::CitiesWith(_) => {
                (self.count(FeatureKind::City), self.borders)
            }
            Quantity::Tag(t) => {
                let n = self.tagged.get(&t).copied().unwrap_or(0);
                (n, n)
            }
            // Never in a feature's value (the model refuses them there).
            Quantity::Record(_)
            | Quantity::Counters(_)
            | Quantity::Held(_)
            | Quantity::Completed(_)
            | Quantity::Touching(..) => (0, 0),
        }
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

/// The largest final score any seat can reach in a game of `players` seats (see the module).
pub fn max_score(rules: &Rules, players: u8) -> u32 {
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
            field.at(&one).saturating_mul(t.count(FeatureKind::City))
        }
    };
    let (corner, corner_events) = corner_points(rs, &t, players);
    let abilities = ability_points(rs, &t, players, corner_events);
    let extras = modifier_points(rs, &t, corner_events).saturating_add(award_points(rs));
    let all = total
        .saturating_add(extras)
        .saturating_add(fields)
        .saturating_add(corner)
        .saturating_add(abilities);
    u32::try_from(all).unwrap_or(u32::MAX)
}

/// Points payment modifiers can add (TB-8's kind): each payment of a feature a modifier figure
/// can stand on adds at most the modifier's largest value; a feature is paid at most once at the
/// end or per city (first edition), plus once per corner-figure scoring.
fn modifier_points(rs: &Ruleset, t: &Totals, corner_events: u128) -> u128 {
    let mut points = 0u128;
    for f in &rs.followers {
        let Some(m) = &f.payment else { continue };
        for kind in f.sites.iter().filter_map(|s| s.feature_kind()) {
            let most = |q| t.quantity(kind, q).0;
            let payments = t
                .count(kind)
                .saturating_add(t.count(FeatureKind::City))
                .saturating_add(corner_events);
            let each = lin(&m.value, &most).at(&most);
            points = points.saturating_add(each.saturating_mul(payments));
        }
    }
    points
}

/// Points seat-resource awards can pay one seat: each award once.
fn award_points(rs: &Ruleset) -> u128 {
    (rs.resources.iter())
        .filter_map(|r| r.award.as_ref())
        .map(|a| u128::from(a.most))
        .sum()
}

/// Points corner figures can score (AM-7 at placement, AM-8 at joins, AM-9 at the end), and how
/// many field scorings they can make.
fn corner_points(rs: &Ruleset, t: &Totals, players: u8) -> (u128, u128) {
    // A join pays only a part holding farmers, and all of them return (AM-8): at most one
    // paying part per figure put on a field, by a follower decision or a move (two a turn).
    let joins = 2 * t.pieces;
    // A payment's largest value on one field, each count at its largest there.
    let most = |q| t.quantity(FeatureKind::Field, q).0;
    let bound = |e: &Expr| lin(e, &most).at(&most);
    let (mut points, mut events) = (0u128, 0u128);
    for f in &rs.followers {
        let Some(c) = &f.corner else { continue };
        let figures = u128::from(f.count) * u128::from(players);
        let place_and_final = bound(&c.place).saturating_add(bound(&c.final_));
        points = points
            .saturating_add(figures.saturating_mul(place_and_final))
            .saturating_add(joins.saturating_mul(bound(&c.join)));
        events += 2 * figures + joins;
    }
    (points, events)
}

/// Points tile abilities can score: per instance of each tile, per ability, its firings times
/// its largest points times its largest count.
fn ability_points(rs: &Ruleset, t: &Totals, players: u8, corner_events: u128) -> u128 {
    let gained = rs
        .pool
        .as_ref()
        .map_or(0, |p| u128::from(p.gain_first) + u128::from(p.gain_second));
    let figures = u128::from(players)
        * (rs
            .followers
            .iter()
            .map(|f| u128::from(f.count))
            .sum::<u128>()
            + gained);
    let mut points = 0u128;
    for (tile, &n) in rs.tiles.iter().zip(&t.copies) {
        for a in &tile.abilities {
            let once = fires(a, t, corner_events).saturating_mul(most_points(a, t, figures));
            points = points.saturating_add(once.saturating_mul(n));
        }
    }
    points
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
fn most_points(a: &Ability, t: &Totals, figures: u128) -> u128 {
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
    let count = match count {
        Count::One => 1,
        Count::Followers { .. } => figures,
        Count::Features { kind, .. } => t.count(*kind),
        // Rows and columns holding a filled cell.
        Count::LinesWithRun(_) => 2 * t.cells,
    };
    u128::from(per).saturating_mul(count)
}
