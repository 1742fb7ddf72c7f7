//! Value expressions as text: the source form the data files use (what the model parses back to
//! the same tree) and the English `variant explain` prints. Tags are indices into `tags`, the
//! ruleset's tag names ([`crate::Ruleset::tags`]).

use crate::value::{Compare, Expr, Quantity, Test};

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

// Tokens, counters and resources are named by index here: the value text has only the tag
// list; the model names them in its own explanations.
fn ix(i: u32) -> String {
    format!("#{i}")
}

fn tag(tags: &[String], i: u32) -> &str {
    tags.get(i as usize).map_or("?", String::as_str)
}

impl Quantity {
    /// The name in the source form (`tiles`, `count(religious)`).
    pub fn source(self, tags: &[String]) -> String {
        match self {
            Quantity::Tiles => "tiles".into(),
            Quantity::Pennants => "pennants".into(),
            Quantity::Neighbours => "neighbours".into(),
            Quantity::Cities => "cities".into(),
            Quantity::CitiesWith(t) => format!("cities({})", tag(tags, t)),
            Quantity::Tag(t) => format!("count({})", tag(tags, t)),
            Quantity::Record(i) => format!("record({})", ix(i)),
            Quantity::Counters(i) => format!("counters({})", ix(i)),
            Quantity::Held(i) => format!("held({})", ix(i)),
            Quantity::Completed(k) => format!("completed({})", k.name()),
            Quantity::Touching(k, None) => format!("touching({})", k.name()),
            Quantity::Touching(k, Some(t)) => format!("touching({}, {})", k.name(), tag(tags, t)),
        }
    }

    /// What one unit of the count is, in words ("tile", "segment tagged `religious`").
    fn unit(self, tags: &[String]) -> String {
        match self {
            Quantity::Tiles => "tile".into(),
            Quantity::Pennants => "pennant".into(),
            Quantity::Neighbours => "surrounding tile".into(),
            Quantity::Cities => "completed city it borders".into(),
            Quantity::CitiesWith(t) => format!("completed city with `{}` it borders", tag(tags, t)),
            Quantity::Tag(t) => format!("segment tagged `{}`", tag(tags, t)),
            Quantity::Record(i) => format!("unit of token #{i}'s record"),
            Quantity::Counters(i) => format!("counter #{i} on its tiles"),
            Quantity::Held(i) => format!("unit of resource #{i} held"),
            Quantity::Completed(k) => format!("completed {} on the board", k.name()),
            Quantity::Touching(k, _) => format!("{} touching it", k.name()),
        }
    }

    /// The count in words ("the tiles", "the segments tagged `religious`").
    fn words(self, tags: &[String]) -> String {
        match self {
            Quantity::Tiles => "its tiles".into(),
            Quantity::Pennants => "its pennants".into(),
            Quantity::Neighbours => "its surrounding tiles".into(),
            Quantity::Cities => "the completed cities it borders".into(),
            Quantity::CitiesWith(t) => {
                format!("the completed cities with `{}` it borders", tag(tags, t))
            }
            Quantity::Tag(t) => format!("its segments tagged `{}`", tag(tags, t)),
            Quantity::Record(i) => format!("token #{i}'s record"),
            Quantity::Counters(i) => format!("the counters #{i} on its tiles"),
            Quantity::Held(i) => format!("the resource #{i} held"),
            Quantity::Completed(k) => format!("the completed {}s on the board", k.name()),
            Quantity::Touching(k, _) => format!("the {}s touching it", k.name()),
        }
    }
}

impl Expr {
    /// The source form, with the fewest parentheses that parse back to this tree.
    pub fn source(&self, tags: &[String]) -> String {
        let mut s = String::new();
        self.write(tags, 0, &mut s);
        s
    }

    fn write(&self, tags: &[String], min: u8, s: &mut String) {
        let paren = prec(self) < min;
        if paren {
            s.push('(');
        }
        match self {
            Expr::Int(n) => s.push_str(&n.to_string()),
            Expr::Count(q) => s.push_str(&q.source(tags)),
            Expr::Add(a, b) | Expr::Sub(a, b) => {
                a.write(tags, 1, s);
                s.push_str(if matches!(self, Expr::Add(..)) {
                    " + "
                } else {
                    " - "
                });
                b.write(tags, 2, s);
            }
            Expr::Mul(a, b) => {
                a.write(tags, 2, s);
                s.push_str(" * ");
                b.write(tags, 3, s);
            }
            Expr::If(t, a, b) => {
                s.push_str("if ");
                t.write(tags, 0, s);
                s.push_str(" then ");
                a.write(tags, 0, s);
                s.push_str(" else ");
                b.write(tags, 0, s);
            }
            Expr::Cite(rule, a) => {
                s.push('[');
                s.push_str(rule);
                s.push_str("] ");
                a.write(tags, 0, s);
            }
        }
        if paren {
            s.push(')');
        }
    }

    /// The expression in English, e.g. "2 per tile plus 2 per pennant".
    pub fn words(&self, tags: &[String]) -> String {
        match self {
            Expr::Int(n) => n.to_string(),
            Expr::Count(q) => format!("1 per {}", q.unit(tags)),
            Expr::Mul(..) if self.power_words(tags).is_some() => {
                self.power_words(tags).unwrap_or_default()
            }
            Expr::Mul(a, b) => match (&**a, &**b) {
                (Expr::Count(_), Expr::Count(_)) => {
                    format!("{} times {}", a.amount(tags), b.amount(tags))
                }
                (n, Expr::Count(q)) | (Expr::Count(q), n) => {
                    format!("{} per {}", n.nested(tags), q.unit(tags))
                }
                _ => format!("{} times {}", a.nested(tags), b.nested(tags)),
            },
            Expr::Add(a, b) => format!("{} plus {}", a.words(tags), b.nested(tags)),
            Expr::Sub(a, b) => format!("{} minus {} (not below 0)", a.words(tags), b.nested(tags)),
            Expr::If(t, a, b) => format!(
                "if {}: {}, otherwise {}",
                t.words(tags),
                a.nested(tags),
                b.words(tags)
            ),
            Expr::Cite(rule, a) => format!("{} ({rule})", a.words(tags)),
        }
    }

    /// A product of constants and two or more counts in words, a count repeated said once as a
    /// power ("its tiles to the power of 6", not "its tiles times its tiles per tile per tile
    /// …"); `None` for any other shape.
    fn power_words(&self, tags: &[String]) -> Option<String> {
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
                1 => q.words(tags),
                2 => format!("{} squared", q.words(tags)),
                3 => format!("{} cubed", q.words(tags)),
                _ => format!("{} to the power of {k}", q.words(tags)),
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
    fn nested(&self, tags: &[String]) -> String {
        match self {
            Expr::Int(_) | Expr::Count(_) | Expr::Mul(..) => self.words(tags),
            Expr::Cite(rule, a) => format!("{} ({rule})", a.nested(tags)),
            _ => format!("({})", self.words(tags)),
        }
    }

    /// The value as a number, in words when compared ("its tiles", "2").
    fn amount(&self, tags: &[String]) -> String {
        match self {
            Expr::Count(q) => q.words(tags),
            _ => self.words(tags),
        }
    }
}

impl Test {
    fn write(&self, tags: &[String], min: u8, s: &mut String) {
        let paren = test_prec(self) < min;
        if paren {
            s.push('(');
        }
        match self {
            Test::Any(t) => {
                s.push_str("any(");
                s.push_str(tag(tags, *t));
                s.push(')');
            }
            Test::Cmp(op, a, b) => {
                a.write(tags, 1, s);
                s.push(' ');
                s.push_str(op.symbol());
                s.push(' ');
                b.write(tags, 1, s);
            }
            Test::And(a, b) => {
                a.write(tags, 1, s);
                s.push_str(" and ");
                b.write(tags, 2, s);
            }
            Test::Or(a, b) => {
                a.write(tags, 0, s);
                s.push_str(" or ");
                b.write(tags, 1, s);
            }
            Test::Not(a) => {
                s.push_str("not ");
                a.write(tags, 2, s);
            }
        }
        if paren {
            s.push(')');
        }
    }

    /// The condition in English, e.g. "it has a segment tagged `religious`".
    pub fn words(&self, tags: &[String]) -> String {
        match self {
            Test::Any(t) => format!("it has a segment tagged `{}`", tag(tags, *t)),
            Test::Cmp(op, a, b) => {
                format!("{} {} {}", a.amount(tags), op.words(), b.amount(tags))
            }
            Test::And(a, b) => format!("{} and {}", a.words(tags), b.words(tags)),
            Test::Or(a, b) => format!("{} or {}", a.words(tags), b.words(tags)),
            Test::Not(a) => format!("not ({})", a.words(tags)),
        }
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
