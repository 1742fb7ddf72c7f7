//! `simulate --where EXPR`: the small condition language that picks games (docs/GUIDE.md,
//! "Finding a game"). Parsed once, checked against the variant (rule ids, tile ids, seats), then
//! evaluated on each game's [`GameFacts`].
//!
//! ```text
//! expr  := and ("or" and)*
//! and   := unary ("and" unary)*
//! unary := "not" unary | "(" expr ")" | field op value
//! field := rule | kind | tile | winner | turns | total | score "[" seat "]"
//! op    := == | != | < | <= | > | >=
//! value := a whole number, or a "quoted" id (rule, kind, tile)
//! ```
//!
//! `kind` is an event's kind (`score`, `place`, … as the log's `type`). Where one `and` chain
//! holds `kind == "K"`, its `kind ==` and `rule ==` comparisons are about one event: `kind ==
//! "score" and rule == "W-17"` keeps games where a score event cites W-17, not games that score
//! something and cite W-17 in a placement.

use std::collections::BTreeSet;
use std::fmt;

use tegula_engine::{Event, Rules};
use tegula_model::load::suggest;
use tegula_model::rules::Scope;

/// Longest expression accepted: far more than any real condition, short enough to show in one
/// error line.
const MAX_EXPR_CHARS: usize = 1000;

/// Deepest nesting of `not` and parentheses (the parser recurses once per level).
const MAX_DEPTH: usize = 64;

/// What a finished game offers to a condition.
pub(crate) struct GameFacts<'a> {
    /// Final scores by seat.
    pub scores: &'a [i64],
    /// Winning seats.
    pub winners: &'a [u8],
    /// Turns played.
    pub turns: u32,
    /// Rule ids cited by the game's events.
    pub rules: &'a BTreeSet<String>,
    /// Ids of the tiles placed.
    pub tiles: &'a BTreeSet<String>,
    /// The game's events as their kind and the rule ids they cite, each distinct pair once.
    pub events: &'a BTreeSet<(&'static str, Vec<String>)>,
}

/// A bad expression: what is wrong and at which column (1-based, in characters).
#[derive(Debug)]
pub(crate) struct WhereError {
    expr: String,
    column: usize,
    message: String,
}

impl fmt::Display for WhereError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "--where: column {}: {}", self.column, self.message)?;
        writeln!(f, "  {}", self.expr)?;
        write!(f, "  {}^", " ".repeat(self.column.saturating_sub(1)))
    }
}

impl std::error::Error for WhereError {}

/// A comparison's left-hand side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Field {
    Rule,
    Kind,
    Tile,
    Winner,
    Turns,
    Total,
    Score(u64),
}

/// A comparison operator: the rule language's own (`tegula_ruleset::Compare`).
pub(crate) type Op = tegula_ruleset::Compare;

/// A comparison's right-hand side.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Number(u64),
    Text(String),
}

/// A parsed condition.
#[derive(Debug)]
pub(crate) enum Cond {
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
    /// `kind == K and rule == R …` of one `and` chain: one event of kind K citing R ….
    Event(Vec<Cond>),
    /// `field op value`; `at` is the column of the id or seat (for checks against the variant).
    Cmp {
        field: Field,
        op: Op,
        value: Value,
        at: usize,
    },
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Number(u64),
    Text(String),
    Op(Op),
    Open,
    Close,
    OpenBracket,
    CloseBracket,
    End,
}

/// Split `expr` into tokens, each with its column.
fn tokens(expr: &str) -> Result<Vec<(Tok, usize)>, (usize, String)> {
    let chars: Vec<char> = expr.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (c, col) = (chars[i], i + 1);
        let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
        let (tok, len) = match c {
            _ if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '(' => (Tok::Open, 1),
            ')' => (Tok::Close, 1),
            '[' => (Tok::OpenBracket, 1),
            ']' => (Tok::CloseBracket, 1),
            _ if two == "==" => (Tok::Op(Op::Eq), 2),
            _ if two == "!=" => (Tok::Op(Op::Ne), 2),
            _ if two == "<=" => (Tok::Op(Op::Le), 2),
            _ if two == ">=" => (Tok::Op(Op::Ge), 2),
            '<' => (Tok::Op(Op::Lt), 1),
            '>' => (Tok::Op(Op::Gt), 1),
            '"' => {
                let len = chars[i + 1..]
                    .iter()
                    .position(|&c| c == '"')
                    .ok_or((col, "this quote is never closed".to_string()))?;
                let text = chars[i + 1..i + 1 + len].iter().collect();
                (Tok::Text(text), len + 2)
            }
            _ if c.is_ascii_digit() => {
                let len = chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                let digits: String = chars[i..i + len].iter().collect();
                let n = digits
                    .parse()
                    .map_err(|_| (col, format!("{digits} is too large a number")))?;
                (Tok::Number(n), len)
            }
            _ if c.is_ascii_alphabetic() => {
                let len = chars[i..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                    .count();
                (Tok::Word(chars[i..i + len].iter().collect()), len)
            }
            '=' => return Err((col, "`=` compares nothing: write `==`".into())),
            _ => return Err((col, format!("unexpected character `{}`", c.escape_debug()))),
        };
        out.push((tok, col));
        i += len;
    }
    out.push((Tok::End, chars.len() + 1));
    Ok(out)
}

/// A recursive-descent parser over the tokens.
struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    depth: usize,
}

type Parsed<T> = Result<T, (usize, String)>;

impl Parser {
    fn peek(&self) -> &(Tok, usize) {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn next(&mut self) -> (Tok, usize) {
        let t = self.peek().clone();
        self.pos += 1;
        t
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(&self.peek().0, Tok::Word(x) if x == w)
    }

    fn expr(&mut self) -> Parsed<Cond> {
        let mut left = self.and()?;
        while self.is_word("or") {
            self.next();
            left = Cond::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Parsed<Cond> {
        let mut terms = vec![self.unary()?];
        while self.is_word("and") {
            self.next();
            terms.push(self.unary()?);
        }
        Ok(bind_event_terms(terms))
    }

    fn unary(&mut self) -> Parsed<Cond> {
        let col = self.peek().1;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err((col, format!("nested more than {MAX_DEPTH} deep")));
        }
        let cond = if self.is_word("not") {
            self.next();
            Cond::Not(Box::new(self.unary()?))
        } else if self.peek().0 == Tok::Open {
            self.next();
            let inner = self.expr()?;
            match self.next() {
                (Tok::Close, _) => inner,
                (_, at) => {
                    return Err((at, format!("expected `)` to close the `(` at column {col}")))
                }
            }
        } else {
            self.comparison()?
        };
        self.depth -= 1;
        Ok(cond)
    }

    fn comparison(&mut self) -> Parsed<Cond> {
        let field_at = self.peek().1;
        let field = self.field()?;
        let (op, op_at) = match self.next() {
            (Tok::Op(op), at) => (op, at),
            (_, at) => return Err((at, "expected a comparison: == != < <= > >=".into())),
        };
        let (value, at) = match self.next() {
            (Tok::Number(n), at) => (Value::Number(n), at),
            (Tok::Text(t), at) => (Value::Text(t), at),
            (_, at) => return Err((at, "expected a number or a \"quoted\" id".into())),
        };
        check_types(field, &value).map_err(|m| (at, m))?;
        if matches!(
            field,
            Field::Rule | Field::Kind | Field::Tile | Field::Winner
        ) && !matches!(op, Op::Eq | Op::Ne)
        {
            return Err((
                op_at,
                "rule, kind, tile and winner compare with == or != only".into(),
            ));
        }
        // A seat error points at the seat: in the brackets, or the value of `winner`.
        let at = if matches!(field, Field::Score(_)) {
            field_at + "score[".len()
        } else {
            at
        };
        Ok(Cond::Cmp {
            field,
            op,
            value,
            at,
        })
    }

    fn field(&mut self) -> Parsed<Field> {
        let (tok, at) = self.next();
        let known = "expected rule, kind, tile, winner, turns, total, score[SEAT], not or `(`";
        let Tok::Word(word) = tok else {
            return Err((at, known.into()));
        };
        Ok(match word.as_str() {
            "rule" => Field::Rule,
            "kind" => Field::Kind,
            "tile" => Field::Tile,
            "winner" => Field::Winner,
            "turns" => Field::Turns,
            "total" => Field::Total,
            "score" => {
                let seat = match (self.next(), self.next(), self.next()) {
                    ((Tok::OpenBracket, _), (Tok::Number(n), _), (Tok::CloseBracket, _)) => n,
                    _ => return Err((at + 5, "expected a seat in brackets: score[0]".into())),
                };
                Field::Score(seat)
            }
            _ => return Err((at, format!("unknown name `{word}`: {known}"))),
        })
    }
}

/// Whether `c` is `kind == …` (`kinds`) or `rule == …` (`rules`).
fn is_eq_on(c: &Cond, kinds: bool, rules: bool) -> bool {
    matches!(c, Cond::Cmp { field: Field::Kind, op: Op::Eq, .. } if kinds)
        || matches!(c, Cond::Cmp { field: Field::Rule, op: Op::Eq, .. } if rules)
}

/// The terms of one `and` chain joined; when one of them is `kind == …`, its `kind ==` and
/// `rule ==` terms become one [`Cond::Event`] (first, the others after it in order).
fn bind_event_terms(terms: Vec<Cond>) -> Cond {
    let terms = if terms.iter().any(|t| is_eq_on(t, true, false)) {
        let (event, rest): (Vec<Cond>, Vec<Cond>) =
            terms.into_iter().partition(|t| is_eq_on(t, true, true));
        std::iter::once(Cond::Event(event)).chain(rest).collect()
    } else {
        terms
    };
    let mut terms = terms.into_iter();
    let first = terms.next().unwrap_or(Cond::Event(Vec::new()));
    terms.fold(first, |l, r| Cond::And(Box::new(l), Box::new(r)))
}

/// Whether the value suits the field: a quoted id for rule and tile, a number otherwise.
fn check_types(field: Field, value: &Value) -> Result<(), String> {
    match (
        matches!(field, Field::Rule | Field::Kind | Field::Tile),
        value,
    ) {
        (true, Value::Number(_)) => Err("expected a \"quoted\" id".into()),
        (false, Value::Text(_)) => Err("expected a whole number".into()),
        _ => Ok(()),
    }
}

impl Cond {
    /// Parse `expr`; a bad one is a [`WhereError`] at its column.
    pub(crate) fn parse(expr: &str) -> Result<Cond, WhereError> {
        let fail = |(column, message)| WhereError {
            expr: expr.to_string(),
            column,
            message,
        };
        if expr.chars().count() > MAX_EXPR_CHARS {
            return Err(fail((
                MAX_EXPR_CHARS + 1,
                format!("longer than {MAX_EXPR_CHARS} characters"),
            )));
        }
        let mut p = Parser {
            toks: tokens(expr).map_err(fail)?,
            pos: 0,
            depth: 0,
        };
        let cond = p.expr().map_err(fail)?;
        match p.next() {
            (Tok::End, _) => Ok(cond),
            (_, at) => Err(fail((at, "expected `and`, `or` or the end".into()))),
        }
    }

    /// Check the ids and seats against the variant: rule ids of the registry or declared by the
    /// variant's data, tile ids of the variant, seats below `players`.
    pub(crate) fn check(&self, expr: &str, rules: &Rules, players: u8) -> Result<(), WhereError> {
        let fail = |column, message| WhereError {
            expr: expr.to_string(),
            column,
            message,
        };
        match self {
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.check(expr, rules, players)?;
                b.check(expr, rules, players)
            }
            Cond::Not(a) => a.check(expr, rules, players),
            Cond::Event(terms) => terms.iter().try_for_each(|t| t.check(expr, rules, players)),
            Cond::Cmp {
                field, value, at, ..
            } => match (field, value) {
                (Field::Kind, Value::Text(kind)) => {
                    if Event::KINDS.contains(&kind.as_str()) {
                        return Ok(());
                    }
                    let near = suggest(kind, Event::KINDS.iter().copied());
                    let mut msg = format!(
                        "no event kind `{kind}` (kinds: {})",
                        Event::KINDS.join(", ")
                    );
                    if let Some(n) = near {
                        msg.push_str(&format!("; did you mean `{n}`?"));
                    }
                    Err(fail(*at, msg))
                }
                (Field::Rule, Value::Text(id)) => {
                    let scope = Scope::with(rules.ruleset().rules.clone());
                    if scope.find(id).is_some() {
                        return Ok(());
                    }
                    let ids = tegula_model::rules::all().iter().chain(scope.declared());
                    let near = suggest(id, ids.map(|r| r.id.as_str()));
                    Err(fail(
                        *at,
                        unknown("rule", id, "`tegula rules` lists them", near),
                    ))
                }
                (Field::Tile, Value::Text(id)) => {
                    if rules.tile_index(id).is_some() {
                        return Ok(());
                    }
                    let ids = rules.ruleset().tiles.iter().map(|t| t.id.as_str());
                    let near = suggest(id, ids);
                    let msg = unknown("tile", id, "`tegula tiles` lists them", near);
                    Err(fail(*at, format!("{msg} (variant {})", rules.ruleset().id)))
                }
                (Field::Winner | Field::Score(_), _) => {
                    let seat = match (field, value) {
                        (Field::Score(s), _) => *s,
                        (_, Value::Number(n)) => *n,
                        _ => 0,
                    };
                    if seat < u64::from(players) {
                        return Ok(());
                    }
                    let last = players.saturating_sub(1);
                    Err(fail(*at, format!("no seat {seat}: seats are 0 to {last}")))
                }
                _ => Ok(()),
            },
        }
    }

    /// Whether the game matches.
    pub(crate) fn matches(&self, g: &GameFacts) -> bool {
        match self {
            Cond::And(a, b) => a.matches(g) && b.matches(g),
            Cond::Or(a, b) => a.matches(g) || b.matches(g),
            Cond::Not(a) => !a.matches(g),
            Cond::Event(terms) => g.events.iter().any(|(kind, cited)| {
                terms.iter().all(|t| match t {
                    Cond::Cmp {
                        field: Field::Kind,
                        value: Value::Text(k),
                        ..
                    } => kind == k,
                    Cond::Cmp {
                        value: Value::Text(r),
                        ..
                    } => cited.contains(r),
                    _ => false,
                })
            }),
            Cond::Cmp {
                field, op, value, ..
            } => match (field, value) {
                (Field::Rule, Value::Text(id)) => holds(*op, g.rules.contains(id)),
                (Field::Kind, Value::Text(k)) => holds(*op, g.events.iter().any(|e| e.0 == k)),
                (Field::Tile, Value::Text(id)) => holds(*op, g.tiles.contains(id)),
                (Field::Winner, Value::Number(n)) => {
                    holds(*op, g.winners.iter().any(|&w| u64::from(w) == *n))
                }
                (Field::Turns, Value::Number(n)) => compare(g.turns.into(), *op, *n),
                (Field::Total, Value::Number(n)) => {
                    let total = g.scores.iter().map(|&s| i128::from(s)).sum();
                    compare(total, *op, *n)
                }
                (Field::Score(seat), Value::Number(n)) => {
                    let score = usize::try_from(*seat)
                        .ok()
                        .and_then(|s| g.scores.get(s))
                        .map_or(0, |&s| i128::from(s));
                    compare(score, *op, *n)
                }
                _ => false,
            },
        }
    }
}

/// `== true` / `!= true` of a membership.
fn holds(op: Op, member: bool) -> bool {
    if op == Op::Ne {
        !member
    } else {
        member
    }
}

/// `left op right`; a score may be below 0, so `left` is signed.
fn compare(left: i128, op: Op, right: u64) -> bool {
    op.apply(left, i128::from(right))
}

/// "no rule `X`" with where to look and the nearest id.
fn unknown(what: &str, id: &str, listed: &str, near: Option<&str>) -> String {
    let mut s = format!("no {what} `{id}` in this variant ({listed})");
    if let Some(n) = near {
        s.push_str(&format!("; did you mean `{n}`?"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts_match(expr: &str) -> bool {
        let rules: BTreeSet<String> = ["B-4".to_string(), "W-13".to_string()].into();
        let tiles: BTreeSet<String> = ["notre-dame".to_string()].into();
        // W-13 cited by a placement only; B-4 by a score.
        let events: BTreeSet<(&'static str, Vec<String>)> = [
            ("place", vec!["W-13".to_string()]),
            ("score", vec!["B-4".to_string()]),
            ("draw", vec![]),
        ]
        .into();
        let g = GameFacts {
            scores: &[80, 30],
            winners: &[0],
            turns: 71,
            rules: &rules,
            tiles: &tiles,
            events: &events,
        };
        Cond::parse(expr).unwrap().matches(&g)
    }

    #[test]
    fn kind_narrows_a_rule_to_one_event() {
        assert!(facts_match(r#"rule == "W-13""#));
        assert!(!facts_match(r#"kind == "score" and rule == "W-13""#));
        assert!(facts_match(r#"rule == "W-13" and kind == "place""#));
        assert!(facts_match(
            r#"kind == "score" and rule == "B-4" and winner == 0"#
        ));
        assert!(facts_match(
            r#"kind == "score" and (rule == "W-13" or winner == 0)"#
        ));
        assert!(facts_match(r#"kind == "draw" and kind != "finish""#));
        assert!(!facts_match(r#"kind == "end""#));
        assert!(facts_match(r#"not kind == "end" and kind != "end""#));
    }

    #[test]
    fn conditions_evaluate() {
        assert!(facts_match(r#"rule == "W-13""#));
        assert!(!facts_match(r#"rule == "W-12""#));
        assert!(facts_match(r#"rule != "W-12" and tile == "notre-dame""#));
        assert!(facts_match("winner == 0 and not winner == 1"));
        assert!(facts_match(
            "score[0] >= 80 and score[1] < 31 and total > 100"
        ));
        assert!(!facts_match("turns < 60 or total <= 109"));
        assert!(facts_match("(turns < 60 or total <= 110) and winner != 1"));
        // `and` binds tighter than `or`.
        assert!(facts_match("winner == 0 or winner == 1 and turns == 0"));
    }

    fn column(expr: &str) -> usize {
        Cond::parse(expr).unwrap_err().column
    }

    #[test]
    fn bad_expressions_point_at_their_column() {
        assert_eq!(column("rule == "), 9);
        assert_eq!(column("rule = \"B-4\""), 6);
        assert_eq!(column("turn < 3"), 1);
        assert_eq!(column("turns < \"x\""), 9);
        assert_eq!(column("winner > 1"), 8);
        assert_eq!(column("(turns < 3"), 11);
        assert_eq!(column("turns < 3 turns"), 11);
        assert_eq!(column("tile == \"a"), 9);
        assert_eq!(column("score[x] > 1"), 6);
        assert_eq!(column(&"not ".repeat(100)), 4 * MAX_DEPTH + 1);
    }
}
