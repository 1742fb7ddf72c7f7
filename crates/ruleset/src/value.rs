//! Feature values as expressions (issue 21, item 1): what a completed or incomplete feature is
//! worth, and what a field pays at the end, written in data over the feature's counts (cells,
//! pennants, tag counts, cloister neighbours, bordered completed cities) instead of a fixed set
//! of numbers per kind. The model parses the text form (docs/FORMAT.md, "Values"); the engine
//! and the naive reference engine evaluate the same tree.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{FeatureKind, Owner, State};

/// A number counted on the feature being scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Quantity {
    /// Distinct cells the feature covers (B-7); 1 for a cloister.
    Tiles,
    /// Pennants of a city.
    Pennants,
    /// Filled cells around a cloister (0..=8).
    Neighbours,
    /// Completed cities a field borders, each once (B-6).
    Cities,
    /// Completed cities a field borders of which some segment carries a tag (index into
    /// [`crate::Ruleset::tags`]), each once: the part of [`Quantity::Cities`] a value may pay or
    /// cite apart. Read only by a field's end value under the standard field rule.
    #[serde(rename = "cities_with")]
    CitiesWith(u32),
    /// Segments of the feature carrying a tag (index into [`crate::Ruleset::tags`]): the
    /// feature's count is the sum over the segments merged into it.
    Tag(u32),
    /// The record a single-holder token was last taken with (index into
    /// [`crate::Ruleset::tokens`]; 0 while nobody holds it). Rule-form values only.
    Record(u32),
    /// Counters of a kind (index into [`crate::Ruleset::counters`]) on the subject's tiles: the
    /// tiles of a road, city or field, a cloister's tile and its 8 neighbours, or the subject
    /// tile. Rule-form values only.
    Counters(u32),
    /// How many of a seat resource (index into [`crate::Ruleset::resources`]) the seat being
    /// paid holds. Rule-form values only.
    Held(u32),
    /// Completed features of a kind on the board. Rule-form values only.
    Completed(FeatureKind),
    /// Features of a kind on the 8 cells around the subject feature's tiles (with a tag: around
    /// its tiles holding a segment of it with that tag), each once. Rule-form values only.
    Touching(FeatureKind, Option<u32>),
    /// Features holding a figure of a type (index into [`crate::Ruleset::followers`]) of the
    /// seat that placed the subject tile, which a segment of that tile joined (TB-5's
    /// "extends"). Rule-form values only.
    Extends(u32),
    /// [`Quantity::Extends`], counting only the features still open after the placement.
    #[serde(rename = "extends_open")]
    ExtendsOpen(u32),
    /// 1 when the rule's owner (the owner of the tile carrying it, else of the subject tile)
    /// is the seat whose turn it is, else 0. Rule-form values only.
    #[serde(rename = "owner_acts")]
    OwnerActs,
    /// 1 when the tile carrying the rule was placed in the current turn, else 0 (0 for a rule
    /// no tile carries). Rule-form values only.
    #[serde(rename = "placed_this_turn")]
    PlacedThisTurn,
    /// 1 when the subject figure stands on a feature (not beside one, as a corner figure does)
    /// and belongs to the rule's owner, else 0. Rule-form values only.
    #[serde(rename = "owner_figure")]
    OwnerFigure,
    /// Figures on the subject feature, whoever's. Rule-form values only.
    Occupants,
    /// The rule's owner's figures on the subject feature. Rule-form values only.
    #[serde(rename = "owner_figures")]
    OwnerFigures,
    /// Figures on features anywhere on the board (figures beside a feature stand on none): whose
    /// (relative to the rule's owner), on which kind (`None`: any), the feature in which state;
    /// each figure once whatever its strength. Rule-form values only.
    Figures {
        /// Whose.
        whose: Owner,
        /// On which kind (`None`: any).
        kind: Option<FeatureKind>,
        /// The feature's state.
        state: State,
    },
    /// Features of a kind anywhere on the board covering at least `min_tiles` cells, in a state,
    /// with a segment carrying a tag (index into [`crate::Ruleset::tags`]; `None`: any), each
    /// once. Rule-form values only.
    Features {
        /// Kind.
        kind: FeatureKind,
        /// Least size in cells.
        min_tiles: u32,
        /// State.
        state: State,
        /// Only features with a segment carrying this tag.
        tag: Option<u32>,
    },
    /// Rows plus columns of the board holding a gap-free run of at least this many filled
    /// cells (each row or column once). Rule-form values only.
    Lines(u32),
    /// The number of seats in the game. Rule-form values only.
    Players,
    /// The tiles the game deals: the pile, the start tile, the pool's tiles and the players'
    /// own tiles (a mega tile once). Rule-form values only.
    #[serde(rename = "game_tiles")]
    GameTiles,
    /// 1 when a cell of the segment the subject figure stands on is one of the 8 cells around
    /// a cell holding a cloister or a feature with this tag (`None`: cloisters only) — or that
    /// cell itself, as [`crate::Readings::near`] reads it — else 0; 0 for a figure on no
    /// feature. Rule-form values only.
    #[serde(rename = "near")]
    Near(Option<u32>),
    /// The score of the seat being paid or tested (the actor in a rule's test). Rule-form
    /// values only.
    Score,
    /// How many tiles the seat being paid or tested has taken from the open pool
    /// ([`crate::Options::PoolTile`]; in the offer's effects, the takes before this one).
    /// Rule-form values only.
    Taken,
    /// Where a shared track stands (index into [`crate::Ruleset::tracks`]). Rule-form values
    /// only.
    Track(u32),
    /// Where a shared track stood when the turn's `turn-finished` was raised, before that
    /// event's effects moved it (W-3's `old-position` reading). Rule-form values only.
    #[serde(rename = "track_was")]
    TrackWas(u32),
    /// 1 while a neutral figure (index into [`crate::Ruleset::neutrals`]) stands on the board,
    /// else 0. Rule-form values only.
    #[serde(rename = "on_board")]
    OnBoard(u32),
    /// Tiles set aside and not yet shuffled back ([`crate::Act::SetAside`]). Rule-form values
    /// only.
    #[serde(rename = "set_aside")]
    SetAside,
    /// 1 while a neutral figure (index into [`crate::Ruleset::neutrals`]) is assigned to a
    /// figure of the seat the value is read for (in a rule's test, the actor;
    /// [`crate::Act::Assign`], PD-7, PD-9), else 0. Rule-form values only.
    Assigned(u32),
    /// 1 when the subject feature holds the figure a neutral figure is assigned to (PD-10),
    /// else 0. Rule-form values only.
    #[serde(rename = "holds_assigned")]
    HoldsAssigned(u32),
    /// 1 when the owner of the figure a neutral figure is assigned to is among the subject
    /// feature's winners (PD-10's other reading), else 0. Rule-form values only.
    #[serde(rename = "assigned_wins")]
    AssignedWins(u32),
    /// The figures of the seat the value is read for (in a rule's test, the actor) standing on
    /// a feature of the tile a neutral figure (index into [`crate::Ruleset::neutrals`]) stands
    /// on; 0 while it is off the board (PD-7's edition Reading, "on a tile"). Corner
    /// figures stand beside tiles and are not counted. Rule-form values only.
    #[serde(rename = "on_tile_of")]
    OnTileOf(u32),
}

impl Quantity {
    /// Whether only the one rule form may read it (it counts the board or the seats, not the
    /// feature being valued).
    pub fn rule_form_only(self) -> bool {
        matches!(
            self,
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
                | Quantity::OnTileOf(_)
        )
    }
}

/// An integer expression. Arithmetic saturates: never above `u32::MAX`, never below 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Expr {
    /// A literal (at most [`crate::limits::MAX_POINTS`]).
    Int(u32),
    /// A count of the feature.
    Count(Quantity),
    /// Sum.
    Add(Box<Expr>, Box<Expr>),
    /// Difference, 0 when the right side is larger.
    Sub(Box<Expr>, Box<Expr>),
    /// Product.
    Mul(Box<Expr>, Box<Expr>),
    /// `if test then a else b`.
    If(Box<Test>, Box<Expr>, Box<Expr>),
    /// `[RULE] a`: the value `a`, and the rule id a score paid by it cites (an expansion's
    /// scoring cites its own rule on the branch that applies it). Only at the top of a value or
    /// of a branch of `if`, so the branch taken decides the rule.
    Cite(String, Box<Expr>),
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Compare {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// A condition of an `if`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Test {
    /// Some segment of the feature carries the tag (index into [`crate::Ruleset::tags`]).
    Any(u32),
    /// Two expressions compared.
    Cmp(Compare, Box<Expr>, Box<Expr>),
    /// Both hold.
    And(Box<Test>, Box<Test>),
    /// Either holds.
    Or(Box<Test>, Box<Test>),
    /// Does not hold.
    Not(Box<Test>),
}

/// Where an expression's counts come from: the feature being scored. Implementations compute a
/// count only when an expression asks for it.
pub trait Counts {
    /// The value of `q` for the feature.
    fn count(&mut self, q: Quantity) -> u32;
}

impl Expr {
    /// `n × q`, the shape most values have.
    pub fn per(n: u32, q: Quantity) -> Expr {
        Expr::Mul(Box::new(Expr::Int(n)), Box::new(Expr::Count(q)))
    }

    /// `a + b`.
    pub fn plus(a: Expr, b: Expr) -> Expr {
        Expr::Add(Box::new(a), Box::new(b))
    }

    /// The value for the feature `c` counts.
    pub fn eval(&self, c: &mut impl Counts) -> u32 {
        match self {
            Expr::Int(n) => *n,
            Expr::Count(q) => c.count(*q),
            Expr::Add(a, b) => a.eval(c).saturating_add(b.eval(c)),
            Expr::Sub(a, b) => a.eval(c).saturating_sub(b.eval(c)),
            Expr::Mul(a, b) => a.eval(c).saturating_mul(b.eval(c)),
            Expr::If(t, a, b) => {
                if t.holds(c) {
                    a.eval(c)
                } else {
                    b.eval(c)
                }
            }
            Expr::Cite(_, a) => a.eval(c),
        }
    }

    /// The value for the feature `c` counts, with the rule of the innermost [`Expr::Cite`] on
    /// the branch taken (`None`: the value cites nothing, the score cites the standard rule).
    pub fn eval_cited(&self, c: &mut impl Counts) -> (u32, Option<&str>) {
        match self {
            Expr::Cite(rule, a) => {
                let (v, inner) = a.eval_cited(c);
                (v, Some(inner.unwrap_or(rule)))
            }
            Expr::If(t, a, b) => {
                if t.holds(c) {
                    a.eval_cited(c)
                } else {
                    b.eval_cited(c)
                }
            }
            _ => (self.eval(c), None),
        }
    }

    /// Whether the value is 0 whatever the counts, as far as its shape shows (`0`, `0 * cities`,
    /// `tiles - tiles`, sums and branches of such): a value this says no to may still always
    /// be 0.
    pub fn is_zero(&self) -> bool {
        match self {
            Expr::Int(n) => *n == 0,
            Expr::Count(_) => false,
            Expr::Add(a, b) => a.is_zero() && b.is_zero(),
            // The same expression on both sides counts the same feature: equal, so 0.
            Expr::Sub(a, b) => a.is_zero() || a == b,
            Expr::Cite(_, a) => a.is_zero(),
            Expr::Mul(a, b) => a.is_zero() || b.is_zero(),
            Expr::If(_, a, b) => a.is_zero() && b.is_zero(),
        }
    }

    /// Levels of the tree (a literal or a count is 1; see [`crate::limits::MAX_VALUE_DEPTH`]).
    pub fn depth(&self) -> usize {
        1 + match self {
            Expr::Int(_) | Expr::Count(_) => 0,
            Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) => a.depth().max(b.depth()),
            Expr::If(t, a, b) => t.depth().max(a.depth()).max(b.depth()),
            Expr::Cite(_, a) => a.depth(),
        }
    }

    /// Every count the expression reads, in reading order (repeats included).
    pub fn quantities(&self, out: &mut Vec<Quantity>) {
        match self {
            Expr::Int(_) => {}
            Expr::Count(q) => out.push(*q),
            Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) => {
                a.quantities(out);
                b.quantities(out);
            }
            Expr::If(t, a, b) => {
                t.quantities(out);
                a.quantities(out);
                b.quantities(out);
            }
            Expr::Cite(_, a) => a.quantities(out),
        }
    }

    /// Every rule id the expression cites, in reading order.
    pub fn cites<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Expr::Cite(rule, a) => {
                out.push(rule);
                a.cites(out);
            }
            Expr::If(_, a, b) => {
                a.cites(out);
                b.cites(out);
            }
            _ => {}
        }
    }
}

impl Compare {
    /// Whether `a` stands in this relation to `b`.
    pub fn apply<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Compare::Eq => a == b,
            Compare::Ne => a != b,
            Compare::Lt => a < b,
            Compare::Le => a <= b,
            Compare::Gt => a > b,
            Compare::Ge => a >= b,
        }
    }
}

impl Test {
    /// Whether the condition holds for the feature `c` counts.
    pub fn holds(&self, c: &mut impl Counts) -> bool {
        match self {
            Test::Any(t) => c.count(Quantity::Tag(*t)) > 0,
            Test::Cmp(op, a, b) => {
                let (a, b) = (a.eval(c), b.eval(c));
                op.apply(a, b)
            }
            Test::And(a, b) => a.holds(c) && b.holds(c),
            Test::Or(a, b) => a.holds(c) || b.holds(c),
            Test::Not(a) => !a.holds(c),
        }
    }

    /// Levels of the tree, as [`Expr::depth`].
    pub fn depth(&self) -> usize {
        1 + match self {
            Test::Any(_) => 0,
            Test::Cmp(_, a, b) => a.depth().max(b.depth()),
            Test::And(a, b) | Test::Or(a, b) => a.depth().max(b.depth()),
            Test::Not(a) => a.depth(),
        }
    }

    /// Every count the test reads, in reading order (a tag test as its tag count).
    pub fn quantities(&self, out: &mut Vec<Quantity>) {
        match self {
            Test::Any(t) => out.push(Quantity::Tag(*t)),
            Test::Cmp(_, a, b) => {
                a.quantities(out);
                b.quantities(out);
            }
            Test::And(a, b) | Test::Or(a, b) => {
                a.quantities(out);
                b.quantities(out);
            }
            Test::Not(a) => a.quantities(out),
        }
    }
}

/// The values of one feature kind: when completed during the game (B-4) and when still
/// incomplete at the end (B-6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct StateValues {
    /// Completed during the game (B-4).
    pub complete: Expr,
    /// Incomplete at the end of the game (B-6).
    pub incomplete: Expr,
}

/// What each scored feature is worth. Defaults are the standard rules (B-4, B-6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Values {
    /// Roads: `tiles` and `tiles`.
    pub road: StateValues,
    /// Cities: `2 * tiles + 2 * pennants` and `tiles + pennants`.
    pub city: StateValues,
    /// Cloisters: `9` and `1 + neighbours`.
    pub cloister: StateValues,
    /// A field at the end (B-6): `3 * cities`. The first edition's procedure
    /// ([`crate::FieldRule::PerCity`]) pays each city this value with `cities` = 1.
    pub field: Expr,
}

impl Default for Values {
    fn default() -> Self {
        ScoringNumbers::default().values()
    }
}

/// The numbers of the `[scoring]` keys (`city_complete_per_tile`, ...), which a variant may still
/// give instead of expressions: each sets the value it names (docs/FORMAT.md, "Values"). The
/// defaults are the standard rules (B-4, B-6), and [`Values::default`] is made from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoringNumbers {
    /// Completed road, per tile (B-4).
    pub road_complete_per_tile: u32,
    /// Incomplete road at the end, per tile (B-6).
    pub road_incomplete_per_tile: u32,
    /// Completed city, per tile (B-4).
    pub city_complete_per_tile: u32,
    /// Completed city, per pennant (B-4).
    pub city_complete_per_pennant: u32,
    /// Incomplete city at the end, per tile (B-6).
    pub city_incomplete_per_tile: u32,
    /// Incomplete city at the end, per pennant (B-6).
    pub city_incomplete_per_pennant: u32,
    /// A legacy variant rule: a completed city of exactly 2 tiles scores this per tile instead.
    pub small_city_per_tile: Option<u32>,
    /// Completed cloister (B-4).
    pub cloister_complete: u32,
    /// Incomplete cloister at the end, for itself (B-6)...
    pub cloister_incomplete_base: u32,
    /// ...plus this per surrounding filled cell (B-6).
    pub cloister_incomplete_per_neighbour: u32,
    /// Field at the end, per completed bordering city (B-6).
    pub field_per_city: u32,
}

impl Default for ScoringNumbers {
    fn default() -> Self {
        ScoringNumbers {
            road_complete_per_tile: 1,
            road_incomplete_per_tile: 1,
            city_complete_per_tile: 2,
            city_complete_per_pennant: 2,
            city_incomplete_per_tile: 1,
            city_incomplete_per_pennant: 1,
            small_city_per_tile: None,
            cloister_complete: 9,
            cloister_incomplete_base: 1,
            cloister_incomplete_per_neighbour: 1,
            field_per_city: 3,
        }
    }
}

impl ScoringNumbers {
    /// The values these numbers say: `n * tiles`, `a * tiles + b * pennants` (with the 2-tile
    /// city as `(if tiles == 2 then s else a) * tiles + ...`), `c`, `b + n * neighbours`,
    /// `f * cities`.
    pub fn values(&self) -> Values {
        use Quantity::{Cities, Neighbours, Pennants, Tiles};
        let city = |per_tile: Expr, per_pennant| {
            Expr::plus(
                Expr::Mul(Box::new(per_tile), Box::new(Expr::Count(Tiles))),
                Expr::per(per_pennant, Pennants),
            )
        };
        let mut complete_per_tile = Expr::Int(self.city_complete_per_tile);
        if let Some(small) = self.small_city_per_tile {
            let two = Test::Cmp(
                Compare::Eq,
                Box::new(Expr::Count(Tiles)),
                Box::new(Expr::Int(2)),
            );
            complete_per_tile = Expr::If(
                Box::new(two),
                Box::new(Expr::Int(small)),
                Box::new(complete_per_tile),
            );
        }
        Values {
            road: StateValues {
                complete: Expr::per(self.road_complete_per_tile, Tiles),
                incomplete: Expr::per(self.road_incomplete_per_tile, Tiles),
            },
            city: StateValues {
                complete: city(complete_per_tile, self.city_complete_per_pennant),
                incomplete: city(
                    Expr::Int(self.city_incomplete_per_tile),
                    self.city_incomplete_per_pennant,
                ),
            },
            cloister: StateValues {
                complete: Expr::Int(self.cloister_complete),
                incomplete: Expr::plus(
                    Expr::Int(self.cloister_incomplete_base),
                    Expr::per(self.cloister_incomplete_per_neighbour, Neighbours),
                ),
            },
            field: Expr::per(self.field_per_city, Cities),
        }
    }
}

impl Values {
    /// The value of a feature of `kind`, completed or not; `None` for kinds never scored by
    /// value (unscored features). Fields have one value, whatever `complete` says.
    pub fn of(&self, kind: FeatureKind, complete: bool) -> Option<&Expr> {
        match kind {
            FeatureKind::Road => Some(state(&self.road, complete)),
            FeatureKind::City => Some(state(&self.city, complete)),
            FeatureKind::Cloister => Some(state(&self.cloister, complete)),
            FeatureKind::Field => Some(&self.field),
            FeatureKind::Unscored => None,
        }
    }

    /// Every value with its key (`city.complete`, ...) and kind, in the order `[values]` lists
    /// them.
    pub fn entries(&self) -> [(&'static str, FeatureKind, &Expr); 7] {
        [
            ("road.complete", FeatureKind::Road, &self.road.complete),
            ("road.incomplete", FeatureKind::Road, &self.road.incomplete),
            ("city.complete", FeatureKind::City, &self.city.complete),
            ("city.incomplete", FeatureKind::City, &self.city.incomplete),
            (
                "cloister.complete",
                FeatureKind::Cloister,
                &self.cloister.complete,
            ),
            (
                "cloister.incomplete",
                FeatureKind::Cloister,
                &self.cloister.incomplete,
            ),
            ("field.end", FeatureKind::Field, &self.field),
        ]
    }

    /// Whether some value reads a tag count (the engine then counts tags on features).
    pub fn uses_tags(&self) -> bool {
        let mut qs = Vec::new();
        for (_, _, e) in self.entries() {
            e.quantities(&mut qs);
        }
        qs.iter().any(|q| matches!(q, Quantity::Tag(_)))
    }
}

fn state(s: &StateValues, complete: bool) -> &Expr {
    if complete {
        &s.complete
    } else {
        &s.incomplete
    }
}

/// Whether the count `q` means something for a feature of `kind`: `tiles` and tags for every
/// kind, `pennants` for cities, `neighbours` for cloisters, `cities` for fields.
pub fn applies(q: Quantity, kind: FeatureKind) -> bool {
    match q {
        Quantity::Tiles | Quantity::Tag(_) => true,
        Quantity::Pennants => kind == FeatureKind::City,
        Quantity::Neighbours => kind == FeatureKind::Cloister,
        Quantity::Cities | Quantity::CitiesWith(_) => kind == FeatureKind::Field,
        // Counts of the board and the seats (`Quantity::rule_form_only`): never a feature's
        // value.
        _ => false,
    }
}
