//! Value expressions as text: the source form the data files use (what the model parses back to
//! the same tree) and the English `variant explain` prints. Tags are indices into `tags`, the
//! ruleset's tag names ([`crate::Ruleset::tags`]).

use crate::value::{Compare, Expr, Quantity, Test};
use crate::{FeatureKind, Owner};

/// Binding strength of an expression's top operator (higher binds tighter).
fn prec(e: &Expr) -> u8 {
    match e {
        Expr::If(..) | Expr::Cite(..) => 0,
        Expr::Add(..) | Expr::Sub(..) => 1,
        Expr::Mul(..) => 2,
        Expr::Int(_) | Expr::Count(_) => 3,
    }
}

fn test_prec(t: &Test) -> u8 {
    match t {
        Test::Or(..) => 0,
        Test::And(..) => 1,
        Test::Not(_) => 2,
        Test::Any(_) | Test::Cmp(..) => 3,
    }
}

/// The names a value's indices stand for: tags, and the rule form's tokens, counters, resources
/// and figures (ids, indices into [`crate::Ruleset::tags`], `tokens`, `counters`, `resources`,
/// `followers`).
/// A name missing from its list prints as `#INDEX` (`?` for a tag).
#[derive(Clone, Copy, Debug, Default)]
pub struct Names<'a> {
    /// Tag names.
    pub tags: &'a [String],
    /// Token ids.
    pub tokens: &'a [String],
    /// Counter ids.
    pub counters: &'a [String],
    /// Resource ids.
    pub resources: &'a [String],
    /// Figure (follower) ids.
    pub figures: &'a [String],
    /// Tile type ids (the tiles carrying rules).
    pub tiles: &'a [String],
    /// Track ids.
    pub tracks: &'a [String],
    /// Stack type ids.
    pub stacks: &'a [String],
    /// Neutral figure ids.
    pub neutrals: &'a [String],
}

impl<'a> Names<'a> {
    /// Only tags (what feature values read).
    pub fn tags(tags: &'a [String]) -> Self {
        Names {
            tags,
            ..Names::default()
        }
    }
}

/// The id at index `i` of `ids`, or `#i`.
pub(crate) fn name(ids: &[String], i: u32) -> String {
    ids.get(i as usize)
        .cloned()
        .unwrap_or_else(|| format!("#{i}"))
}

/// "token `ID`", or "token #i" when the id is unknown.
fn named(what: &str, ids: &[String], i: u32) -> String {
    match ids.get(i as usize) {
        Some(id) => format!("{what} `{id}`"),
        None => format!("{what} #{i}"),
    }
}

fn tag(tags: &[String], i: u32) -> &str {
    tags.get(i as usize).map_or("?", String::as_str)
}

impl Quantity {
    /// The name in the source form (`tiles`, `count(religious)`), tags named from `tags`.
    pub fn source(self, tags: &[String]) -> String {
        self.source_named(&Names::tags(tags))
    }

    /// The name in the source form (`tiles`, `record(TOKEN)` with the token's id).
    pub fn source_named(self, n: &Names<'_>) -> String {
        match self {
            Quantity::Tiles => "tiles".into(),
            Quantity::Pennants => "pennants".into(),
            Quantity::Neighbours => "neighbours".into(),
            Quantity::Cities => "cities".into(),
            Quantity::CitiesWith(t) => format!("cities({})", tag(n.tags, t)),
            Quantity::Tag(t) => format!("count({})", tag(n.tags, t)),
            Quantity::Record(i) => format!("record({})", name(n.tokens, i)),
            Quantity::Counters(i) => format!("counters({})", name(n.counters, i)),
            Quantity::Held(i) => format!("held({})", name(n.resources, i)),
            Quantity::Completed(k) => format!("completed({})", k.name()),
            Quantity::Touching(k, None) => format!("touching({})", k.name()),
            Quantity::Touching(k, Some(t)) => format!("touching({}, {})", k.name(), tag(n.tags, t)),
            Quantity::Extends(f) => format!("extends({})", name(n.figures, f)),
            Quantity::ExtendsOpen(f) => format!("extends_open({})", name(n.figures, f)),
            Quantity::Score => "score".into(),
            Quantity::Taken => "taken".into(),
            Quantity::Track(t) => format!("track({})", name(n.tracks, t)),
            Quantity::TrackWas(t) => format!("track_was({})", name(n.tracks, t)),
            Quantity::OnBoard(i) => format!("on_board({})", name(n.neutrals, i)),
            Quantity::Assigned(i) => format!("assigned({})", name(n.neutrals, i)),
            Quantity::HoldsAssigned(i) => format!("holds_assigned({})", name(n.neutrals, i)),
            Quantity::AssignedWins(i) => format!("assigned_wins({})", name(n.neutrals, i)),
            Quantity::OnTileOf(i) => format!("on_tile_of({})", name(n.neutrals, i)),
            Quantity::SetAside => "set_aside".into(),
            _ => board_source(self, n),
        }
    }

    /// What one unit of the count is, in words ("tile", "segment tagged `religious`").
    fn unit(self, n: &Names<'_>) -> String {
        match self {
            Quantity::Tiles => "tile".into(),
            Quantity::Pennants => "pennant".into(),
            Quantity::Neighbours => "surrounding tile".into(),
            Quantity::Cities => "completed city it borders".into(),
            Quantity::CitiesWith(t) => {
                format!("completed city with `{}` it borders", tag(n.tags, t))
            }
            Quantity::Tag(t) => format!("segment tagged `{}`", tag(n.tags, t)),
            Quantity::Record(i) => format!("unit of {}'s record", named("token", n.tokens, i)),
            Quantity::Counters(i) => format!("{} on its tiles", named("counter", n.counters, i)),
            Quantity::Held(i) => format!("unit of {} held", named("resource", n.resources, i)),
            Quantity::Completed(k) => format!("completed {} on the board", k.name()),
            Quantity::Touching(k, None) => format!("{} touching it", k.name()),
            Quantity::Touching(k, Some(t)) => {
                format!(
                    "{} touching its tiles tagged `{}`",
                    k.name(),
                    tag(n.tags, t)
                )
            }
            Quantity::OnBoard(i) => {
                format!("{} on the board", named("neutral figure", n.neutrals, i))
            }
            Quantity::SetAside => "tile set aside".into(),
            Quantity::Assigned(i) => format!(
                "{} assigned to a figure of theirs",
                named("neutral figure", n.neutrals, i)
            ),
            Quantity::HoldsAssigned(i) => format!(
                "figure {} is assigned to on the feature",
                named("neutral figure", n.neutrals, i)
            ),
            Quantity::OnTileOf(i) => format!(
                "figure of theirs on the tile of {}",
                named("neutral figure", n.neutrals, i)
            ),
            Quantity::AssignedWins(i) => format!(
                "winning owner of the figure {} is assigned to",
                named("neutral figure", n.neutrals, i)
            ),
            Quantity::Extends(f) | Quantity::ExtendsOpen(f) => format!(
                "{}feature it extends holding its placer's {}",
                if self == Quantity::Extends(f) {
                    ""
                } else {
                    "open "
                },
                named("figure", n.figures, f)
            ),
            Quantity::Score => "point of the seat's score".into(),
            Quantity::Taken => "take of the seat's from the pool".into(),
            Quantity::Track(t) => format!("step of {}", named("track", n.tracks, t)),
            Quantity::TrackWas(t) => format!(
                "step of {} as it stood when the turn finished",
                named("track", n.tracks, t)
            ),
            _ => board_words(self, n, false),
        }
    }

    /// The count in words ("the tiles", "the segments tagged `religious`").
    fn words_named(self, n: &Names<'_>) -> String {
        match self {
            Quantity::Tiles => "its tiles".into(),
            Quantity::Pennants => "its pennants".into(),
            Quantity::Neighbours => "its surrounding tiles".into(),
            Quantity::Cities => "the completed cities it borders".into(),
            Quantity::CitiesWith(t) => {
                format!("the completed cities with `{}` it borders", tag(n.tags, t))
            }
            Quantity::Tag(t) => format!("its segments tagged `{}`", tag(n.tags, t)),
            Quantity::Record(i) => format!("{}'s record", named("token", n.tokens, i)),
            Quantity::Counters(i) => {
                format!("the {} on its tiles", named("counters", n.counters, i))
            }
            Quantity::Held(i) => format!("the units of {} held", named("resource", n.resources, i)),
            Quantity::Completed(k) => format!("the completed {}s on the board", k.name()),
            Quantity::Touching(k, None) => format!("the {}s touching it", k.name()),
            Quantity::Touching(k, Some(t)) => format!(
                "the {}s touching its tiles tagged `{}`",
                k.name(),
                tag(n.tags, t)
            ),
            Quantity::OnBoard(i) => {
                format!("the neutral figures `{}` on the board", name(n.neutrals, i))
            }
            Quantity::SetAside => "the tiles set aside".into(),
            Quantity::Assigned(i) => format!(
                "whether {} is assigned to a figure of theirs",
                named("neutral figure", n.neutrals, i)
            ),
            Quantity::HoldsAssigned(i) => format!(
                "whether the feature holds the figure {} is assigned to",
                named("neutral figure", n.neutrals, i)
            ),
            Quantity::AssignedWins(i) => format!(
                "whether the owner of the figure {} is assigned to wins the feature",
                named("neutral figure", n.neutrals, i)
            ),
            Quantity::OnTileOf(i) => format!(
                "their figures on the tile of {}",
                named("neutral figure", n.neutrals, i)
            ),
            Quantity::Extends(f) | Quantity::ExtendsOpen(f) => format!(
                "the features it extends{} holding its placer's {}",
                if self == Quantity::Extends(f) {
                    ""
                } else {
                    ", still open,"
                },
                named("figure", n.figures, f)
            ),
            Quantity::Score => "the seat's points".into(),
            Quantity::Taken => "the seat's takes from the pool".into(),
            Quantity::Track(t) => format!("the position of {}", named("track", n.tracks, t)),
            Quantity::TrackWas(t) => format!(
                "the position {} had when the turn finished",
                named("track", n.tracks, t)
            ),
            _ => board_words(self, n, true),
        }
    }
}

/// The source form of the words a tile-borne rule reads (`owner_acts`, `figures(own, city,
/// any)`, `features(road, 5, any)`, `lines(7)`, `near(religious)`).
fn board_source(q: Quantity, n: &Names<'_>) -> String {
    match q {
        Quantity::OwnerActs => "owner_acts".into(),
        Quantity::PlacedThisTurn => "placed_this_turn".into(),
        Quantity::OwnerFigure => "owner_figure".into(),
        Quantity::Occupants => "occupants".into(),
        Quantity::OwnerFigures => "owner_figures".into(),
        Quantity::Figures { whose, kind, state } => format!(
            "figures({}, {}, {})",
            whose.name(),
            kind.map_or("any", FeatureKind::name),
            state.name()
        ),
        Quantity::Features {
            kind,
            min_tiles,
            state,
            tag: t,
        } => {
            let tagged = t.map_or(String::new(), |t| format!(", {}", tag(n.tags, t)));
            format!(
                "features({}, {min_tiles}, {}{tagged})",
                kind.name(),
                state.name()
            )
        }
        Quantity::Lines(run) => format!("lines({run})"),
        Quantity::Players => "players".into(),
        Quantity::GameTiles => "game_tiles".into(),
        Quantity::Near(None) => "near".into(),
        Quantity::Near(Some(t)) => format!("near({})", tag(n.tags, t)),
        // The feature's own counts and the other rule-form words are said by the caller.
        _ => String::new(),
    }
}

/// The words a tile-borne rule reads, as a unit ("figure of the owner's on an incomplete city")
/// or, with `all`, as the whole count ("the owner's figures on incomplete cities").
fn board_words(q: Quantity, n: &Names<'_>, all: bool) -> String {
    let (one, many) = match q {
        Quantity::OwnerActs => ("time the owner is the actor", "1 if the owner is the actor"),
        Quantity::PlacedThisTurn => (
            "time the rule's tile was placed this turn",
            "1 if the rule's tile was placed this turn",
        ),
        Quantity::OwnerFigure => (
            "time the figure is the owner's",
            "1 if the figure stands on a feature and is the owner's",
        ),
        Quantity::Occupants => ("figure on it", "the figures on it"),
        Quantity::OwnerFigures => ("figure of the owner's on it", "the owner's figures on it"),
        Quantity::Players => ("player", "the players"),
        Quantity::GameTiles => ("tile in the game", "the tiles in the game"),
        _ => ("", ""),
    };
    if !one.is_empty() {
        return if all { many } else { one }.to_string();
    }
    let unit = match q {
        Quantity::Figures { whose, kind, state } => {
            let whose = match whose {
                Owner::Own => "figure of the owner's",
                Owner::Others => "figure of another seat's",
                Owner::Anyone => "figure",
            };
            let on = kind.map_or("feature", FeatureKind::name);
            format!("{whose} on {}{on} on the board", state.article())
        }
        Quantity::Features {
            kind,
            min_tiles,
            state,
            tag: t,
        } => {
            let tagged = t.map_or(String::new(), |t| {
                format!(" with a `{}` segment", tag(n.tags, t))
            });
            let size = if min_tiles > 1 {
                format!(" of {min_tiles} tiles or more")
            } else {
                String::new()
            };
            format!(
                "{}{}{size}{tagged} on the board",
                state.adjective(),
                kind.name()
            )
        }
        Quantity::Lines(run) => {
            format!("row or column of the board with a gap-free run of {run} tiles or more")
        }
        Quantity::Near(t) => {
            let around = t.map_or("a cloister".to_string(), |t| {
                format!("a cloister or a feature tagged `{}`", tag(n.tags, t))
            });
            let s = format!("the figure stands in one of the 8 cells around {around}");
            return if all {
                format!("1 if {s}")
            } else {
                format!("time {s}")
            };
        }
        _ => String::new(),
    };
    if all {
        format!("each {unit}")
    } else {
        unit
    }
}

impl Expr {
    /// [`Expr::source_named`] with tags only.
    pub fn source(&self, tags: &[String]) -> String {
        self.source_named(&Names::tags(tags))
    }

    /// [`Expr::words_named`] with tags only.
    pub fn words(&self, tags: &[String]) -> String {
        self.words_named(&Names::tags(tags))
    }

    /// The source form, with the fewest parentheses that parse back to this tree.
    pub fn source_named(&self, n: &Names<'_>) -> String {
        let mut s = String::new();
        self.write(n, 0, &mut s);
        s
    }

    fn write(&self, n: &Names<'_>, min: u8, s: &mut String) {
        let paren = prec(self) < min;
        if paren {
            s.push('(');
        }
        match self {
            Expr::Int(k) => s.push_str(&k.to_string()),
            Expr::Count(q) => s.push_str(&q.source_named(n)),
            Expr::Add(a, b) | Expr::Sub(a, b) => {
                a.write(n, 1, s);
                s.push_str(if matches!(self, Expr::Add(..)) {
                    " + "
                } else {
                    " - "
                });
                b.write(n, 2, s);
            }
            Expr::Mul(a, b) => {
                a.write(n, 2, s);
                s.push_str(" * ");
                b.write(n, 3, s);
            }
            Expr::If(t, a, b) => {
                s.push_str("if ");
                t.write(n, 0, s);
                s.push_str(" then ");
                a.write(n, 0, s);
                s.push_str(" else ");
                b.write(n, 0, s);
            }
            Expr::Cite(rule, a) => {
                s.push('[');
                s.push_str(rule);
                s.push_str("] ");
                a.write(n, 0, s);
            }
        }
        if paren {
            s.push(')');
        }
    }

    /// The expression in English, e.g. "2 per tile plus 2 per pennant".
    pub fn words_named(&self, n: &Names<'_>) -> String {
        match self {
            Expr::Int(n) => n.to_string(),
            Expr::Count(q) => format!("1 per {}", q.unit(n)),
            Expr::Mul(..) if self.power_words(n).is_some() => {
                self.power_words(n).unwrap_or_default()
            }
            Expr::Mul(a, b) => match (&**a, &**b) {
                (Expr::Count(_), Expr::Count(_)) => {
                    format!("{} times {}", a.amount_named(n), b.amount_named(n))
                }
                (k, Expr::Count(q)) | (Expr::Count(q), k) => {
                    format!("{} per {}", k.nested(n), q.unit(n))
                }
                _ => format!("{} times {}", a.nested(n), b.nested(n)),
            },
            Expr::Add(a, b) => format!("{} plus {}", a.words_named(n), b.nested(n)),
            Expr::Sub(a, b) => format!("{} minus {} (not below 0)", a.words_named(n), b.nested(n)),
            Expr::If(t, a, b) => format!(
                "if {}: {}, otherwise {}",
                t.words_named(n),
                a.nested(n),
                b.words_named(n)
            ),
            Expr::Cite(rule, a) => format!("{} ({rule})", a.words_named(n)),
        }
    }

    /// A product of constants and two or more counts in words, a count repeated said once as a
    /// power ("its tiles to the power of 6", not "its tiles times its tiles per tile per tile
    /// …"); `None` for any other shape.
    fn power_words(&self, n: &Names<'_>) -> Option<String> {
        let mut factors = Vec::new();
        self.factors(&mut factors);
        let mut constant: Option<u32> = None;
        let mut powers: Vec<(Quantity, u32)> = Vec::new();
        for f in factors {
            match f {
                Expr::Int(n) => constant = Some(constant.unwrap_or(1).saturating_mul(*n)),
                Expr::Count(q) => match powers.iter_mut().find(|(p, _)| p == q) {
                    Some((_, k)) => *k += 1,
                    None => powers.push((*q, 1)),
                },
                _ => return None,
            }
        }
        if powers.iter().map(|(_, k)| k).sum::<u32>() < 2 {
            return None;
        }
        let phrases: Vec<String> = powers
            .iter()
            .map(|&(q, k)| match k {
                1 => q.words_named(n),
                2 => format!("{} squared", q.words_named(n)),
                3 => format!("{} cubed", q.words_named(n)),
                _ => format!("{} to the power of {k}", q.words_named(n)),
            })
            .collect();
        let product = phrases.join(" times ");
        Some(match constant {
            Some(n) => format!("{n} times {product}"),
            None => product,
        })
    }

    /// The factors of a product, in order (the expression itself when it is no product).
    fn factors<'a>(&'a self, out: &mut Vec<&'a Expr>) {
        match self {
            Expr::Mul(a, b) => {
                a.factors(out);
                b.factors(out);
            }
            _ => out.push(self),
        }
    }

    /// Words, in parentheses when they are a compound phrase that would read ambiguously.
    fn nested(&self, n: &Names<'_>) -> String {
        match self {
            Expr::Int(_) | Expr::Count(_) | Expr::Mul(..) => self.words_named(n),
            Expr::Cite(rule, a) => format!("{} ({rule})", a.nested(n)),
            _ => format!("({})", self.words_named(n)),
        }
    }

    /// The value as a number, in words when compared ("its tiles", "2").
    pub fn amount_named(&self, n: &Names<'_>) -> String {
        match self {
            Expr::Count(q) => q.words_named(n),
            _ => self.words_named(n),
        }
    }
}

impl Test {
    /// [`Test::words_named`] with tags only.
    pub fn words(&self, tags: &[String]) -> String {
        self.words_named(&Names::tags(tags))
    }

    /// The source form, with the fewest parentheses that parse back to this tree.
    pub fn source_named(&self, n: &Names<'_>) -> String {
        let mut s = String::new();
        self.write(n, 0, &mut s);
        s
    }

    fn write(&self, n: &Names<'_>, min: u8, s: &mut String) {
        let paren = test_prec(self) < min;
        if paren {
            s.push('(');
        }
        match self {
            Test::Any(t) => {
                s.push_str("any(");
                s.push_str(tag(n.tags, *t));
                s.push(')');
            }
            Test::Cmp(op, a, b) => {
                a.write(n, 1, s);
                s.push(' ');
                s.push_str(op.symbol());
                s.push(' ');
                b.write(n, 1, s);
            }
            Test::And(a, b) => {
                a.write(n, 1, s);
                s.push_str(" and ");
                b.write(n, 2, s);
            }
            Test::Or(a, b) => {
                a.write(n, 0, s);
                s.push_str(" or ");
                b.write(n, 1, s);
            }
            Test::Not(a) => {
                s.push_str("not ");
                a.write(n, 2, s);
            }
        }
        if paren {
            s.push(')');
        }
    }

    /// The condition in English, e.g. "it has a segment tagged `religious`".
    pub fn words_named(&self, n: &Names<'_>) -> String {
        if let Some((yes, _)) = self.flag(n) {
            return yes;
        }
        match self {
            Test::Any(t) => format!("it has a segment tagged `{}`", tag(n.tags, *t)),
            Test::Cmp(op, a, b) => {
                format!("{} {} {}", a.amount_named(n), op.words(), b.amount_named(n))
            }
            Test::And(a, b) => format!("{} and {}", a.words_named(n), b.words_named(n)),
            Test::Or(a, b) => format!("{} or {}", a.words_named(n), b.words_named(n)),
            Test::Not(a) => match a.flag(n) {
                Some((_, no)) => no,
                None => format!("not ({})", a.words_named(n)),
            },
        }
    }

    /// `WORD > 0` for a word that is 0 or 1 (`owner_acts`, `near(TAG)`…): the clause
    /// it says, and its negation.
    fn flag(&self, n: &Names<'_>) -> Option<(String, String)> {
        let Test::Cmp(Compare::Gt, a, b) = self else {
            return None;
        };
        let (Expr::Count(q), Expr::Int(0)) = (&**a, &**b) else {
            return None;
        };
        let (yes, no) = match q {
            Quantity::OwnerActs => ("it is the owner's turn", "it is not the owner's turn"),
            Quantity::PlacedThisTurn => (
                "the rule's tile was placed this turn",
                "the rule's tile was not placed this turn",
            ),
            Quantity::OwnerFigure => (
                "the figure is the owner's, on a feature",
                "the figure is not the owner's, on a feature",
            ),
            Quantity::Near(t) => {
                let around = t.map_or("a cloister".to_string(), |t| {
                    format!("a cloister or a feature tagged `{}`", tag(n.tags, t))
                });
                return Some((
                    format!("the figure stands in one of the 8 cells around {around}"),
                    format!("the figure stands in none of the 8 cells around {around}"),
                ));
            }
            _ => return None,
        };
        Some((yes.to_string(), no.to_string()))
    }
}

impl Compare {
    /// The operator as written (`==`, `<=`, ...).
    pub fn symbol(self) -> &'static str {
        match self {
            Compare::Eq => "==",
            Compare::Ne => "!=",
            Compare::Lt => "<",
            Compare::Le => "<=",
            Compare::Gt => ">",
            Compare::Ge => ">=",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Compare::Eq => "are",
            Compare::Ne => "are not",
            Compare::Lt => "are fewer than",
            Compare::Le => "are at most",
            Compare::Gt => "are more than",
            Compare::Ge => "are at least",
        }
    }
}
