//! The points of the one rule form's `score` effects (`Ruleset::when`: AB-4, GM-5, KR-4, LB-3
//! and the like), bounded for one seat: per rule, how often its event can fire in a game times
//! the most one firing can pay the seat, the value's counts each bounded by the game's pieces
//! and by what the rules themselves can put on the board (counters, resources, records).
//! TB-3's awards and TB-8's payments are bounded apart (`award_points`, `modifier_points`).

use std::cell::Cell;

use tegula_ruleset::{
    Act, AfterScore, Expr, FeatureKind, FieldRule, Offer, Options, Quantity, RuleEvent, Ruleset,
    Seat, TileRef, When, CHOSEN,
};

use super::{lin, seat_figures, Lin, Totals};

/// Why a rule's points have no bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoBound {
    /// The rule's id.
    pub rule: String,
    /// What cannot be bounded.
    pub reason: String,
}

impl std::fmt::Display for NoBound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no score bound: rule {}: {}", self.rule, self.reason)
    }
}

/// The feature kinds that score (a `kinds` filter left empty means these).
const KINDS: [FeatureKind; 4] = [
    FeatureKind::Road,
    FeatureKind::City,
    FeatureKind::Cloister,
    FeatureKind::Field,
];

/// What the bound reads: the ruleset, the pieces' totals, the seats, corner-figure payments.
pub(super) struct Game<'a> {
    pub rs: &'a Ruleset,
    pub t: &'a Totals,
    pub players: u8,
    pub corner_events: u128,
    /// How deep the bound is into counts defined by effects (see [`Game::deeper`]).
    pub depth: Cell<u8>,
}

/// How deep counts defined by effects may nest (a resource taken from counters placed by an
/// offer spending another resource is 3).
const MAX_DEPTH: u8 = 8;

/// A count no rule or piece bounds (a record, counter or resource defined by itself).
const UNBOUNDED: u128 = u128::MAX;

impl Game<'_> {
    /// Points all `[[when]]` score effects can pay one seat in a game.
    pub(super) fn points(&self) -> Result<u128, NoBound> {
        let mut points = 0u128;
        for (w, act, offer) in self.acts() {
            let (value, to) = match act {
                Act::Score { value, to } => (value, to),
                // The corner figures' own payments are bounded apart (`corner_points`).
                Act::ScoreFeature { .. } | Act::ScoreFigure { .. } if self.corner(&w.event) => {
                    continue
                }
                Act::ScoreFeature {
                    each_part: true, ..
                } => {
                    return Err(NoBound {
                        rule: w.rule.clone(),
                        reason: "a feature scored part by part outside a corner figure's \
                                 payments: the parts one placement joins are not bounded"
                            .into(),
                    })
                }
                // The feature's majority, or the figure's owner: one seat once a firing.
                Act::ScoreFeature { value, .. } | Act::ScoreFigure { value } => {
                    (value, &Seat::Winners)
                }
                // A figure bought back pays its holder: at most once a turn, a turn a piece.
                Act::Redeem { points: paid } => {
                    points = points.saturating_add(u128::from(*paid) * self.t.pieces);
                    continue;
                }
                _ => continue,
            };
            if counted_apart(&w.event, to) {
                continue;
            }
            let p = self.score_points(w, offer, value, to);
            if p == UNBOUNDED {
                return Err(NoBound {
                    rule: w.rule.clone(),
                    reason: "its value counts a record, counter or resource that the rules' \
                             own effects make unbounded"
                        .into(),
                });
            }
            points = points.saturating_add(p);
        }
        Ok(points)
    }

    /// Whether the event names a corner figure (AM-7..AM-9 lowered: placed, joined, at end).
    fn corner(&self, event: &RuleEvent) -> bool {
        let figure = match event {
            RuleEvent::FigurePlaced { figure }
            | RuleEvent::Joined { figure }
            | RuleEvent::FigureAtEnd { figure } => *figure,
            _ => None,
        };
        figure
            .and_then(|f| self.rs.followers.get(usize::from(f)))
            .is_some_and(|f| f.corner.is_some())
    }

    /// One score effect's points to one seat over a game.
    fn score_points(&self, w: &When, offer: Option<&Offer>, value: &Expr, to: &Seat) -> u128 {
        let kinds = self.subject_kinds(&w.event, offer);
        let most = |q| self.most(q, &kinds);
        let l = lin(value, &most);
        // A seat of `has(F)` is paid once per figure of F it has on the feature.
        let per_seat = match to {
            Seat::Has(f) => seat_figures(self.rs, usize::from(*f)),
            _ => 1,
        };
        let (counters, rest) = split_counters(l);
        let fires = self.fires(&w.event, offer);
        let terms: Vec<(u128, u32)> = counters
            .coef
            .iter()
            .filter_map(|(&q, &k)| match q {
                Quantity::Counters(c) => Some((k, c)),
                _ => None,
            })
            .collect();
        let read = self.counters_read(&terms, &w.event, offer, &kinds);
        let read = read.unwrap_or_else(|| fires.saturating_mul(counters.at(&most)));
        let each = rest.at(&most);
        let total = match offer.and_then(|o| self.instead_of_cloister(o, each)) {
            Some(extra) if terms.is_empty() => extra,
            _ => fires.saturating_mul(each).saturating_add(read),
        };
        let total = total.saturating_mul(per_seat);
        if l_unbounded(value, &most) {
            UNBOUNDED
        } else {
            total
        }
    }

    /// The feature kinds the effect's subject can be: the event's filter, or the kinds an
    /// offer's own-figure option stands on; every kind when unfiltered or not a feature.
    fn subject_kinds(&self, event: &RuleEvent, offer: Option<&Offer>) -> Vec<FeatureKind> {
        let filter = match (offer.map(|o| &o.options), event) {
            (Some(Options::OwnFigure { on, .. }), _) => on.clone(),
            (
                None,
                RuleEvent::FeatureCompleted { kinds }
                | RuleEvent::FeatureScored { kinds, .. }
                | RuleEvent::FeaturePaid { kinds },
            ) => kinds.clone(),
            _ => Vec::new(),
        };
        if filter.is_empty() {
            KINDS.to_vec()
        } else {
            filter
        }
    }

    /// The largest a count can be when an effect reads it (over the subject's kinds).
    fn most(&self, q: Quantity, kinds: &[FeatureKind]) -> u128 {
        let t = self.t;
        match q {
            Quantity::Record(token) => self.record(token),
            Quantity::Counters(c) => self.counters(c),
            Quantity::Held(r) => self.held(r),
            Quantity::Completed(FeatureKind::City) => t.completed_cities,
            Quantity::Completed(kind) | Quantity::Touching(kind, _) => t.count(kind),
            // Features holding a figure of the type: at most every seat's figures of it.
            Quantity::OnBoard(_)
            | Quantity::Assigned(_)
            | Quantity::HoldsAssigned(_)
            | Quantity::AssignedWins(_) => 1,
            // A seat's figures on one tile: at most the tile's figures, below the tiles.
            Quantity::SetAside | Quantity::OnTileOf(_) => t.pieces,
            Quantity::Extends(f) | Quantity::ExtendsOpen(f) => {
                let f = usize::try_from(f).unwrap_or(usize::MAX);
                let seat = if f < self.rs.followers.len() {
                    seat_figures(self.rs, f)
                } else {
                    0
                };
                seat.saturating_mul(u128::from(self.players))
            }
            Quantity::OwnerActs
            | Quantity::PlacedThisTurn
            | Quantity::OwnerFigure
            | Quantity::Near(_) => 1,
            Quantity::Occupants | Quantity::OwnerFigures | Quantity::Figures { .. } => {
                let seat = (0..self.rs.followers.len()).map(|i| seat_figures(self.rs, i));
                seat.fold(0, u128::saturating_add)
                    .saturating_mul(u128::from(self.players))
            }
            Quantity::Features { kind, .. } => t.count(kind),
            Quantity::Players => u128::from(self.players),
            Quantity::GameTiles => t.pieces,
            // Rows and columns: not bounded here.
            Quantity::Lines(_) => UNBOUNDED,
            q => kinds.iter().map(|&k| t.quantity(k, q).0).max().unwrap_or(0),
        }
    }

    /// The largest record a token can be taken with: its `token` effects' records.
    fn record(&self, token: u32) -> u128 {
        let plain = |q| self.most_plain(q);
        self.acts()
            .filter_map(|(_, a, _)| match a {
                Act::Token {
                    token: k, record, ..
                } if u32::from(*k) == token => Some(self.deeper(|| inner(record, &plain))),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// Counters of a kind on the board at most: every `counters` effect adding it (or the
    /// chosen kind, `CHOSEN`), each firing at most its amount.
    fn counters(&self, c: u32) -> u128 {
        let plain = |q| self.most_plain(q);
        let mut n = 0u128;
        for (w, a, offer) in self.acts() {
            let Act::Counters { counter, add, .. } = a else {
                continue;
            };
            if u32::from(*counter) != c && *counter != CHOSEN {
                continue;
            }
            let each = self.deeper(|| {
                let fires = self.offer_fires(w, offer, c);
                fires.saturating_mul(inner(add, &plain))
            });
            n = n.saturating_add(each);
        }
        n
    }

    /// The most of a resource one seat can hold: all seats' start, plus every gain of it and
    /// every counter taken into it.
    fn held(&self, r: u32) -> u128 {
        let Some(res) = self
            .rs
            .resources
            .get(usize::try_from(r).unwrap_or(usize::MAX))
        else {
            return 0;
        };
        let plain = |q| self.most_plain(q);
        let start = u128::from(res.start_for(self.players)) * u128::from(self.players);
        let mut n = start;
        for (w, a, offer) in self.acts() {
            let add = match a {
                Act::Gain {
                    resource,
                    amount,
                    spend: false,
                    ..
                } if u32::from(*resource) == r || *resource == CHOSEN => {
                    let fires = self.fires(&w.event, offer);
                    self.deeper(|| fires.saturating_mul(inner(amount, &plain)))
                }
                Act::Take { counter, into, .. } if u32::from(*into) == r => {
                    self.deeper(|| self.counters(u32::from(*counter)))
                }
                _ => 0,
            };
            n = n.saturating_add(add);
        }
        n
    }

    /// A count read inside a record, counter amount or gain: those that the rules' effects
    /// define are not bounded there (they could feed themselves).
    fn most_plain(&self, q: Quantity) -> u128 {
        match q {
            Quantity::Record(_) | Quantity::Counters(_) | Quantity::Held(_) => UNBOUNDED,
            q => self.most(q, &KINDS),
        }
    }

    /// Every effect of every rule, automatic or offered (with its offer), with its rule.
    /// The rules tiles carry (the lowered `[[ability]]`s) are bounded apart, from the tiles'
    /// abilities (`ability_points`).
    fn acts(&self) -> impl Iterator<Item = (&When, &Act, Option<&Offer>)> {
        self.rs
            .when
            .iter()
            .filter(|w| w.tile.is_none())
            .flat_map(|w| {
                let offered = w
                    .offer
                    .iter()
                    .flat_map(|o| o.then.iter().map(move |a| (a, Some(o))));
                let own = w.then.iter().map(|a| (a, None));
                own.chain(offered).map(move |(a, o)| (w, a, o))
            })
    }

    /// Runs `f` one level deeper into the counts that the rules' effects define (a record,
    /// counters, a resource), or gives up as unbounded past a few levels: data whose counts
    /// feed each other would otherwise recurse for ever.
    fn deeper(&self, f: impl FnOnce() -> u128) -> u128 {
        let depth = self.depth.get();
        if depth >= MAX_DEPTH {
            return UNBOUNDED;
        }
        self.depth.set(depth + 1);
        let n = f();
        self.depth.set(depth);
        n
    }

    /// How often an event can fire in a game (all seats together).
    fn fires(&self, event: &RuleEvent, offer: Option<&Offer>) -> u128 {
        let t = self.t;
        let base = match event {
            RuleEvent::TilePlaced { tag: None } => t.pieces,
            RuleEvent::TilePlaced { tag: Some(tag) } => t.tagged_pieces(*tag),
            // One figure step per turn, and a turn places one tile: counted twice for safety.
            // A chained offer is made by a figure-step choice: as often as one.
            RuleEvent::FigureStep
            | RuleEvent::FigureStepOn { .. }
            | RuleEvent::TurnStart
            | RuleEvent::TurnStartEach
            | RuleEvent::TurnEnd
            | RuleEvent::Chained => 2 * t.pieces,
            // Once a turn; its pool-tile offers are made again, at most 255 takes a seat.
            RuleEvent::TurnFinished if offer.is_some_and(|o| o.repeat) => {
                let takes = 255u128.saturating_mul(u128::from(self.players));
                (2 * t.pieces).saturating_mul(takes)
            }
            RuleEvent::TurnFinished => 2 * t.pieces,
            RuleEvent::BeforeScoring { tag: None } => 2 * t.pieces,
            RuleEvent::BeforeScoring { tag: Some(tag) } => 2 * t.tagged_pieces(*tag),
            // A draw per tile, and a set-aside tile is drawn twice.
            RuleEvent::Draw { .. } => 2 * t.pieces,
            RuleEvent::FigurePlaced { .. } => 2 * t.pieces,
            RuleEvent::FeatureCompleted { kinds } => self.each_kind(kinds, |k| match k {
                FeatureKind::City => t.completed_cities,
                k => t.count(k),
            }),
            RuleEvent::FeatureScored { kinds, .. } | RuleEvent::FeaturePaid { kinds } => {
                self.each_kind(kinds, |k| t.count(k) + self.field_rescores(k))
            }
            RuleEvent::GameEnd | RuleEvent::GameOver => 1,
            // A join pays at a placement's follower decision, at most two a piece (as
            // `corner_points` counts them).
            RuleEvent::Joined { .. } => 2 * t.pieces,
            // Once per figure on the board: every seat's figures at most.
            RuleEvent::FigureAtEnd { .. } => {
                let seat = (0..self.rs.followers.len()).map(|i| seat_figures(self.rs, i));
                seat.fold(0, u128::saturating_add)
                    .saturating_mul(u128::from(self.players))
            }
        };
        match offer.map(|o| &o.options) {
            Some(Options::OwnFigure {
                figure: Some(_),
                on,
                ..
            }) if offer.is_some_and(returns) => base.min(self.returns(on)),
            _ => base,
        }
    }

    /// How often an offer choosing the kind of counter `c` can fire: see [`Game::kind_supply`].
    fn offer_fires(&self, w: &When, offer: Option<&Offer>, c: u32) -> u128 {
        let fires = self.fires(&w.event, offer);
        offer.map_or(fires, |o| fires.min(self.kind_supply(o, c)))
    }

    /// An offer of kinds lists only those the chooser holds one of at least, and an offer that
    /// spends one (or more) of the chosen kind's resource takes one each time: it can choose a
    /// kind at most as often as that resource is ever held by all seats together.
    fn kind_supply(&self, o: &Offer, c: u32) -> u128 {
        let Options::Kind { of } = &o.options else {
            return UNBOUNDED;
        };
        let spends = o.then.iter().any(|a| {
            matches!(a, Act::Gain { resource: CHOSEN, spend: true, amount: Expr::Int(n), .. } if *n >= 1)
        });
        if !spends {
            return UNBOUNDED;
        }
        of.iter()
            .filter(|k| u32::from(k.counter) == c)
            .map(|k| self.held(u32::from(k.resource)))
            .fold(0, u128::saturating_add)
    }

    /// Returns of a figure (of one type) from features of `on` by an offer: a figure leaves supply only
    /// onto a feature of the tile just placed, one per turn, so each tile-local feature takes at
    /// most one and gives it back at most once — unless some figure moves after scoring or a
    /// tile ability acts on figures (then: no bound but the event's).
    fn returns(&self, on: &[FeatureKind]) -> u128 {
        let moves = self
            .rs
            .followers
            .iter()
            .any(|f| matches!(f.after_score, AfterScore::Move(_)));
        let abilities = self.rs.tiles.iter().any(|t| !t.abilities.is_empty());
        if moves || abilities {
            return UNBOUNDED;
        }
        let on = if on.is_empty() { &KINDS[..] } else { on };
        on.iter()
            .map(|&k| self.t.count(k))
            .fold(0, u128::saturating_add)
    }

    /// An offer giving back a figure from a cloister pays instead of that cloister's own
    /// score: a cloister is one tile, a figure goes only onto the tile just placed, so once its
    /// one figure is back nobody can ever win it. Each cloister so pays one seat at most the
    /// larger of the two, and its own score is already counted: the offer adds only what one
    /// firing (`each`) can exceed a cloister's largest value by, per cloister. `None` where
    /// the offer is not of that form or figures move (see [`Game::returns`]).
    fn instead_of_cloister(&self, o: &Offer, each: u128) -> Option<u128> {
        let Options::OwnFigure {
            figure: Some(_),
            on,
            ..
        } = &o.options
        else {
            return None;
        };
        let cloister = [FeatureKind::Cloister];
        if on[..] != cloister || !returns(o) || self.returns(on) == UNBOUNDED {
            return None;
        }
        let v = &self.rs.scoring.values.cloister;
        let most = |q| self.t.quantity(FeatureKind::Cloister, q).0;
        let own = inner(&v.complete, &most).max(inner(&v.incomplete, &most));
        Some(
            self.t
                .count(FeatureKind::Cloister)
                .saturating_mul(each.saturating_sub(own)),
        )
    }

    /// Scorings of a field beyond its one final payment: one per completed city under the first
    /// edition's rule, and the corner figures' payments.
    fn field_rescores(&self, kind: FeatureKind) -> u128 {
        if kind != FeatureKind::Field {
            return 0;
        }
        let per_city = match self.rs.scoring.field_rule {
            FieldRule::PerCity => self.t.completed_cities,
            FieldRule::PerField => 0,
        };
        per_city.saturating_add(self.corner_events)
    }

    /// `f` summed over a filter's kinds (every scoring kind when empty).
    fn each_kind(&self, kinds: &[FeatureKind], f: impl Fn(FeatureKind) -> u128) -> u128 {
        let kinds = if kinds.is_empty() { &KINDS[..] } else { kinds };
        kinds.iter().map(|&k| f(k)).fold(0, u128::saturating_add)
    }

    /// Whether every feature of the event's kinds fires it once at most: completed once, or
    /// scored (paid) once, a field not being scored again per city or by corner figures.
    fn once_per_feature(&self, event: &RuleEvent, kinds: &[FeatureKind]) -> bool {
        match event {
            RuleEvent::FeatureCompleted { .. } => true,
            RuleEvent::FeatureScored { .. } | RuleEvent::FeaturePaid { .. } => {
                kinds.iter().all(|&k| self.field_rescores(k) == 0)
            }
            _ => false,
        }
    }

    /// The counter terms (`coef · counters(c)`) summed over all firings of an automatic effect
    /// on a feature event that fires once per feature, over a game (`None`: not such an
    /// effect). A counter lies on one tile; the features reading it are those of the event's
    /// kinds with a segment on that tile, and the cloisters whose 9 cells hold it. So the
    /// counters worth most fill the tiles richest in such features first, each tile taking
    /// the most counters one tile can hold; each cloister reads at most 9 tiles' counters, and
    /// a counter at most the cloisters around it.
    fn counters_read(
        &self,
        terms: &[(u128, u32)],
        event: &RuleEvent,
        offer: Option<&Offer>,
        kinds: &[FeatureKind],
    ) -> Option<u128> {
        if offer.is_some() || !self.once_per_feature(event, kinds) {
            return None;
        }
        let t = self.t;
        let per_tile = self.per_tile(terms.iter().map(|e| e.1));
        let mut rich: Vec<(u128, u128)> = Vec::new();
        let mut cells = 1u128;
        for (tile, &n) in self.rs.tiles.iter().zip(&t.copies).filter(|(_, &n)| n > 0) {
            let not_cloister = |k: &FeatureKind| *k != FeatureKind::Cloister && kinds.contains(k);
            let here = tile
                .features
                .iter()
                .filter(|f| not_cloister(&f.kind))
                .count();
            rich.push((here as u128, n.saturating_mul(per_tile)));
            cells = cells.max(u128::from(tile.cell_count));
        }
        rich.sort_unstable_by(|a, b| b.cmp(a));
        let mut terms = terms.to_vec();
        terms.sort_unstable_by(|a, b| b.cmp(a));
        let (mut read, mut by_counter) = (0u128, 0u128);
        let cloisters = t.count(FeatureKind::Cloister);
        for &(coef, c) in &terms {
            let mut left = self.counters(c);
            by_counter = by_counter.saturating_add(coef.saturating_mul(left));
            for (features, room) in rich.iter_mut() {
                let here = left.min(*room);
                read = read.saturating_add(here.saturating_mul(*features).saturating_mul(coef));
                (left, *room) = (left - here, *room - here);
            }
        }
        if kinds.contains(&FeatureKind::Cloister) {
            let by_counter = by_counter.saturating_mul(cloisters.min(9 * cells));
            let top = terms.first().map_or(0, |e| e.0);
            let by_cloister = cloisters.saturating_mul(9 * top).saturating_mul(per_tile);
            read = read.saturating_add(by_counter.min(by_cloister));
        }
        Some(read)
    }

    /// The most counters of the kinds `cs` one tile can hold together: where every effect
    /// adding them puts them on the tile just placed (`tile-placed`, `figure-step`: once per
    /// placement), their amounts added up (an effect adding the chosen kind once); else all
    /// there are.
    fn per_tile(&self, cs: impl Iterator<Item = u32> + Clone) -> u128 {
        let plain = |q| self.most_plain(q);
        let all = || {
            cs.clone()
                .map(|c| self.counters(c))
                .fold(0, u128::saturating_add)
        };
        let mut n = 0u128;
        for (w, a, _) in self.acts() {
            let Act::Counters { counter, add, on } = a else {
                continue;
            };
            if *counter != CHOSEN && !cs.clone().any(|c| u32::from(*counter) == c) {
                continue;
            }
            let placed = matches!(
                w.event,
                RuleEvent::TilePlaced { .. }
                    | RuleEvent::FigureStep
                    | RuleEvent::FigureStepOn { .. }
            );
            if *on != TileRef::Subject || !placed {
                return all();
            }
            n = n.saturating_add(inner(add, &plain));
        }
        n
    }
}

/// Effects bounded elsewhere: TB-8's payments (`feature-paid` to `has(F)`) and TB-3's awards
/// (`game-over` to `most(R)`).
fn counted_apart(event: &RuleEvent, to: &Seat) -> bool {
    matches!(
        (event, to),
        (RuleEvent::FeaturePaid { .. }, Seat::Has(_)) | (RuleEvent::GameOver, Seat::Most(_))
    )
}

/// Whether an offer gives the chosen figure back.
fn returns(o: &Offer) -> bool {
    o.then.iter().any(|a| matches!(a, Act::ReturnChosen))
}

/// The affine bound's counter terms apart from the rest.
fn split_counters(l: Lin) -> (Lin, Lin) {
    let (mut counters, mut rest) = (
        Lin::default(),
        Lin {
            konst: l.konst,
            ..Lin::default()
        },
    );
    for (q, c) in l.coef {
        let side = if matches!(q, Quantity::Counters(_)) {
            &mut counters
        } else {
            &mut rest
        };
        side.coef.insert(q, c);
    }
    (counters, rest)
}

/// The largest value of `e` with each count at `most`.
fn inner(e: &Expr, most: &dyn Fn(Quantity) -> u128) -> u128 {
    lin(e, most).at(most)
}

/// Whether the value reads a count with no bound.
fn l_unbounded(e: &Expr, most: &dyn Fn(Quantity) -> u128) -> bool {
    let l = lin(e, most);
    l.coef.keys().any(|&q| most(q) == UNBOUNDED) || l.konst == UNBOUNDED
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::path::Path;

    use tegula_engine::Rules;
    use tegula_ruleset::{Act, Expr, Offer, Quantity, RuleEvent, Ruleset, When};

    use super::super::{corner_points, score_bound, Totals};
    use super::{Game, NoBound};

    /// A shipped variant, compiled.
    fn rules(name: &str) -> Rules {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../variants")
            .join(name);
        let (rs, diags) = tegula_model::variant::build_variant(&path);
        let rs = rs.unwrap_or_else(|| panic!("{name}: {diags:?}"));
        Rules::new(rs).expect("compiles")
    }

    /// The points the `[[when]]` rules of `rs` add to the two-seat bound, over `rules`' pieces.
    fn term(rules: &Rules, rs: &Ruleset) -> Result<u128, NoBound> {
        let t = Totals::of(rules, 2);
        let (_, corner_events) = corner_points(rs, &t, 2);
        let depth = Cell::new(0);
        Game {
            rs,
            t: &t,
            players: 2,
            corner_events,
            depth,
        }
        .points()
    }

    /// The variant's own rules' term.
    fn own(name: &str) -> u128 {
        let r = rules(name);
        term(&r, r.ruleset()).expect("bounded")
    }

    /// The one offer of the rule with id `rule`.
    fn offer_of<'a>(rs: &'a mut Ruleset, rule: &str) -> &'a mut Offer {
        let w = rs
            .when
            .iter_mut()
            .find(|w| w.rule == rule)
            .expect("the rule");
        w.offer.as_mut().expect("an offer")
    }

    #[test]
    fn pool_takes_give_what_the_lowered_thresholds_say() {
        // W-2: one take, 2 meeples; W-30: a second take gives 1 more. Read from the lowered
        // rule's test (`taken == 0 …` or `taken == 1 …`) and its `figures` effect, as the
        // thresholds' `gain.first` and `gain.second` were read before the lowering.
        let one = rules("wonders.toml");
        let two = rules("wonders-two.toml");
        assert_eq!(super::super::seat_figures(one.ruleset(), 0), 6 + 2);
        assert_eq!(super::super::seat_figures(two.ruleset(), 0), 6 + 2 + 1);
        assert_eq!(
            super::super::seat_figures(two.ruleset(), 1),
            1,
            "not a gained type"
        );
    }

    #[test]
    fn kr4_pays_each_completed_city_and_road_once() {
        // Game end fires once; its holder is one seat. completed(city): at most the closed
        // tile-local cities plus half the open ones, 27 with these 77 pieces; completed(road):
        // at most the 67 tile-local roads.
        assert_eq!(own("king-robber-baron.toml"), 27 + 67);
        // A flat 10 per token, once each.
        assert_eq!(own("house/king-robber-10.toml"), 2 * 10);
        // 1 per completed city and per completed road, as they complete.
        assert_eq!(own("house/king-robber-during-game.toml"), 27 + 67);
        let whole = score_bound(&rules("king-robber-baron.toml"), 2).expect("bounded");
        assert_eq!(whole, 517 + 94, "the base pieces' 517 and KR-4's 94");
    }

    #[test]
    fn gm5_pays_the_ingots_at_their_best_rate() {
        // 8 gold-mine tiles, each putting an ingot on itself and one on a neighbour: 16
        // ingots; one seat holding all 16 scores by the table's best rate, 4 each.
        assert_eq!(own("goldmines.toml"), 4 * 2 * 8);
    }

    #[test]
    fn lb3_reads_each_building_from_the_features_on_its_tile() {
        // 9 buildings a seat, 18 in all, one a tile (the tile just placed). The tiles richest
        // in roads, cities and fields: the crossroads 8 (×1), 7 (×3), 6 (×4), then 4 for the
        // other 10 buildings: 8 + 21 + 24 + 40 = 93. Cloisters: 6, each reading at most 9
        // tiles of one building: 54 (less than 18 buildings × 6 cloisters).
        assert_eq!(own("little-buildings.toml"), 93 + 54);
        // 6 towers (3), 6 houses (2), 6 sheds (1) on the richest tiles, towers first:
        // towers 8 + 21 + 2·6 = 41 → 123; houses 2·6 + 4·4 = 28 → 56; sheds 6·4 = 24;
        // cloisters 6 × 9 tiles × 3 at most = 162 (less than 36 points' worth × 6).
        assert_eq!(
            own("house/little-buildings-3-2-1.toml"),
            123 + 56 + 24 + 162
        );
        assert_eq!(own("house/little-buildings-by-kind.toml"), 93 + 54);
    }

    #[test]
    fn ab4_pays_instead_of_the_cloister() {
        // The abbot's return (1 + neighbours, 9 at most) pays instead of its cloister's own
        // score (9 at most), already counted: nothing more.
        assert_eq!(own("abbot.toml"), 0);
        // At 10 + neighbours each of the 14 cloisters and gardens can pay 18 - 9 more.
        let r = rules("abbot.toml");
        let mut rs = r.ruleset().clone();
        let ten = Expr::Add(
            Box::new(Expr::Int(10)),
            Box::new(Expr::Count(Quantity::Neighbours)),
        );
        let Act::Score { value, .. } = &mut offer_of(&mut rs, "AB-4").then[0] else {
            panic!("AB-4 scores first")
        };
        *value = ten;
        assert_eq!(term(&r, &rs), Ok(14 * 9));
    }

    #[test]
    fn counters_that_feed_themselves_have_no_bound() {
        let r = rules("little-buildings.toml");
        let mut rs = r.ruleset().clone();
        let Act::Counters { add, .. } = &mut offer_of(&mut rs, "LB-2").then[1] else {
            panic!("LB-2 places a counter second")
        };
        *add = Expr::Count(Quantity::Counters(0));
        let err = term(&r, &rs).expect_err("no bound");
        assert_eq!(err.rule, "LB-3");
    }

    #[test]
    fn corner_payments_stay_bounded_apart_and_figures_at_end_once_each() {
        // Abbey & Mayor's barn rules (lowered AM-7..AM-9: score-feature, score-figure on the
        // barn's events) are `corner_points`' term, not counted again.
        let am = rules("abbey-mayor.toml");
        assert!(am.ruleset().when.iter().any(|w| w.rule == "AM-9"));
        assert_eq!(term(&am, am.ruleset()), Ok(0));
        // A figure-at-end rule for every figure: 7 meeples a seat, 2 seats, 2 points each;
        // score-figure pays the figure's owner, one seat a firing.
        let r = rules("base.toml");
        let mut rs = r.ruleset().clone();
        rs.when.push(When {
            rule: "X-1".into(),
            event: RuleEvent::FigureAtEnd { figure: None },
            test: None,
            then: vec![Act::ScoreFigure {
                value: Expr::Int(2),
            }],
            offer: None,
            tile: None,
        });
        assert_eq!(term(&r, &rs), Ok(7 * 2 * 2));
    }
}
