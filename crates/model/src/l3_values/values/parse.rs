//! The value expression language (docs/FORMAT.md, "Values"): a tokenizer and a recursive-descent
//! parser that also type-checks, so every problem carries its byte range inside the string.
//!
//! ```text
//! value := ("[" RULE "]")? expr
//! expr  := "if" test "then" value "else" value | sum
//! sum   := term (("+" | "-") term)*
//! term  := atom ("*" atom)*
//! atom  := INT | "tiles" | "pennants" | "neighbours" | "cities" | "count" "(" TAG ")"
//!        | "(" expr ")" | rule-form words (values and tests of `[[when]]` only):
//!          "record" "(" TOKEN ")" | "counters" "(" COUNTER ")" | "held" "(" RESOURCE ")"
//!        | "completed" "(" KIND ")" | "touching" "(" KIND ("," TAG)? ")"
//!        | "extends" "(" FIGURE ")" | "extends_open" "(" FIGURE ")"
//!        | "score" | "taken" | "track" "(" TRACK ")" | "track_was" "(" TRACK ")"
//!        | "on_board" "(" NEUTRAL ")" | "set_aside" | "assigned" "(" NEUTRAL ")"
//!        | "holds_assigned" "(" NEUTRAL ")" | "assigned_wins" "(" NEUTRAL ")"
//!        | "on_tile_of" "(" NEUTRAL ")"
//! test  := conj ("or" conj)*
//! conj  := neg ("and" neg)*
//! neg   := "not" neg | "any" "(" TAG ")" | "(" test ")" | sum CMP sum
//! CMP   := "==" | "!=" | "<" | "<=" | ">" | ">="
//! ```

use std::ops::Range;

use tegula_ruleset::limits::{MAX_POINTS, MAX_VALUE_DEPTH};
use tegula_ruleset::{applies, Compare, Expr, FeatureKind, Names, Quantity, Test};

use crate::rules::Scope;

/// A problem in an expression: where in the string (bytes) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// Byte range inside the expression text.
    pub at: Range<usize>,
    /// What is wrong, and what would be right.
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    Int(u64),
    Word(&'a str),
    Open,
    Close,
    Plus,
    Minus,
    Star,
    Cmp(Compare),
    /// `[RULE]`: the rule id between the brackets.
    Cite(&'a str),
    End,
}

fn err<T>(at: Range<usize>, message: impl Into<String>) -> Result<T, ExprError> {
    Err(ExprError {
        at,
        message: message.into(),
    })
}

/// Split `text` into tokens with their byte ranges; the last is [`Tok::End`].
fn tokens(text: &str) -> Result<Vec<(Tok<'_>, Range<usize>)>, ExprError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let two = b.get(i + 1) == Some(&b'=');
        let tok = match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'0'..=b'9' => {
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                // More than 19 digits cannot be a u64; such a literal is over the limit anyway.
                let n = text[start..i].parse::<u64>().unwrap_or(u64::MAX);
                out.push((Tok::Int(n), start..i));
                continue;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                out.push((Tok::Word(&text[start..i]), start..i));
                continue;
            }
            b'[' => {
                i = cite_end(text, start)?;
                let id = text[start + 1..i - 1].trim();
                out.push((Tok::Cite(id), start..i));
                continue;
            }
            b'(' => Tok::Open,
            b')' => Tok::Close,
            b'+' => Tok::Plus,
            b'-' => Tok::Minus,
            b'*' => Tok::Star,
            b'=' if two => Tok::Cmp(Compare::Eq),
            b'!' if two => Tok::Cmp(Compare::Ne),
            b'<' if two => Tok::Cmp(Compare::Le),
            b'>' if two => Tok::Cmp(Compare::Ge),
            b'<' => Tok::Cmp(Compare::Lt),
            b'>' => Tok::Cmp(Compare::Gt),
            _ => {
                let ch = text[start..].chars().next().unwrap_or('?');
                let end = start + ch.len_utf8();
                return err(
                    start..end,
                    format!(
                        "`{ch}` is not part of the value language (docs/FORMAT.md, \"Values\")"
                    ),
                );
            }
        };
        i += if matches!(tok, Tok::Cmp(_)) && two {
            2
        } else {
            1
        };
        out.push((tok, start..i));
        if tok == Tok::Open && opens_tag(&out) {
            // A tag name is anything up to `)` (tags may hold `-` and `.`).
            let len = text[i..].find(')').unwrap_or(text.len() - i);
            let name = text[i..i + len].trim();
            let lead = text[i..].len() - text[i..].trim_start().len();
            let at = (i + lead).min(i + len)..(i + lead + name.len()).min(i + len);
            out.push((Tok::Word(name), at));
            i += len;
        }
    }
    out.push((Tok::End, b.len()..b.len()));
    Ok(out)
}

/// The byte after the `]` closing the `[` at `start`, or the error that none does.
fn cite_end(text: &str, start: usize) -> Result<usize, ExprError> {
    match text[start..].find(']') {
        Some(len) => Ok(start + len + 1),
        None => err(
            start..start + 1,
            "`[` opens a rule id and needs its `]`, as in `[IC-3] 2 * tiles`",
        ),
    }
}

/// The words of the one rule form, each with a name in parentheses.
const RULE_WORDS: [&str; 18] = [
    "on_board",
    "on_tile_of",
    "assigned",
    "holds_assigned",
    "assigned_wins",
    "record",
    "counters",
    "held",
    "completed",
    "touching",
    "extends",
    "extends_open",
    "figures",
    "features",
    "lines",
    "near",
    "track",
    "track_was",
];

mod board_words;

/// Whether the `(` just pushed follows `count`, `any` or a rule-form word: a name follows.
fn opens_tag(out: &[(Tok<'_>, Range<usize>)]) -> bool {
    out.len() >= 2
        && match out[out.len() - 2].0 {
            Tok::Word(w) => w == "count" || w == "any" || RULE_WORDS.contains(&w),
            _ => false,
        }
}

/// Parse and type-check the value of a `kind` feature. `tags` are the tag names of the variant's
/// tiles; a tag becomes its index there. A cited rule must be in the registry.
pub fn parse(text: &str, kind: FeatureKind, tags: &[String]) -> Result<Expr, ExprError> {
    parse_in(text, kind, tags, &Scope::default())
}

/// [`parse`], where a cited rule may also be one the data declares (`rules`).
pub fn parse_in(
    text: &str,
    kind: FeatureKind,
    tags: &[String],
    rules: &Scope,
) -> Result<Expr, ExprError> {
    let names = Names::tags(tags);
    let mut p = Parser::new(text, Some(kind), &names, false, rules)?;
    let e = p.value()?;
    p.finish(text, e.depth(), "an operator (`+`, `-`, `*`)")?;
    Ok(e)
}

/// Parse a value of the one rule form (`[[when]]`): over a subject of kind `kind` (`None`: any
/// kind, or no feature), reading the rule-form words with the tokens, counters and resources of
/// `names`.
pub fn parse_rule_value(
    text: &str,
    kind: Option<FeatureKind>,
    names: &Names<'_>,
    rules: &Scope,
) -> Result<Expr, ExprError> {
    let mut p = Parser::new(text, kind, names, true, rules)?;
    let e = p.value()?;
    p.finish(text, e.depth(), "an operator (`+`, `-`, `*`)")?;
    Ok(e)
}

/// Parse a test of the one rule form (a rule's or an offer's `if`), as [`parse_rule_value`].
pub fn parse_rule_test(
    text: &str,
    kind: Option<FeatureKind>,
    names: &Names<'_>,
    rules: &Scope,
) -> Result<Test, ExprError> {
    let mut p = Parser::new(text, kind, names, true, rules)?;
    let t = p.test()?;
    p.finish(text, t.depth(), "`and`, `or`")?;
    Ok(t)
}

struct Parser<'a> {
    toks: Vec<(Tok<'a>, Range<usize>)>,
    pos: usize,
    /// Open `expr`/`neg` calls: parsing stops past [`MAX_VALUE_DEPTH`] (no deep recursion).
    depth: usize,
    /// The subject's kind (`None`: any, in a rule of the one form).
    kind: Option<FeatureKind>,
    tags: &'a [String],
    /// The names the rule-form words take.
    names: &'a Names<'a>,
    /// Whether the rule-form words may be used (a `[[when]]`'s value or test).
    rule_form: bool,
    /// The rules a `[RULE]` may cite.
    rules: &'a Scope,
}

impl<'a> Parser<'a> {
    fn new(
        text: &'a str,
        kind: Option<FeatureKind>,
        names: &'a Names<'a>,
        rule_form: bool,
        rules: &'a Scope,
    ) -> Result<Self, ExprError> {
        Ok(Parser {
            toks: tokens(text)?,
            pos: 0,
            depth: 0,
            kind,
            tags: names.tags,
            names,
            rule_form,
            rules,
        })
    }

    /// The end of the text, and a tree no deeper than [`MAX_VALUE_DEPTH`].
    fn finish(&self, text: &str, depth: usize, more: &str) -> Result<(), ExprError> {
        if self.peek() != Tok::End {
            return err(
                self.span(),
                format!("expected {more} or the end of the value"),
            );
        }
        if depth > MAX_VALUE_DEPTH {
            return err(
                0..text.len(),
                format!(
                    "the value nests {depth} levels deep (each operator, `if` and `not` is \
                     one); at most {MAX_VALUE_DEPTH}"
                ),
            );
        }
        Ok(())
    }

    fn peek(&self) -> Tok<'a> {
        self.toks[self.pos].0
    }

    fn span(&self) -> Range<usize> {
        self.toks[self.pos].1.clone()
    }

    fn bump(&mut self) -> (Tok<'a>, Range<usize>) {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn is_word(&self, w: &str) -> bool {
        self.peek() == Tok::Word(w)
    }

    fn expect(&mut self, tok: Tok<'_>, what: &str) -> Result<(), ExprError> {
        if self.peek() == tok {
            self.bump();
            Ok(())
        } else {
            err(self.span(), format!("expected {what}"))
        }
    }

    /// A whole value or a branch of `if`: an expression, perhaps after the rule it cites.
    fn value(&mut self) -> Result<Expr, ExprError> {
        let Tok::Cite(id) = self.peek() else {
            return self.expr();
        };
        let at = self.span();
        self.bump();
        if self.rules.find(id).is_none() {
            let near = crate::rules::closest(id)
                .map(|c| format!("; did you mean `{c}`?"))
                .unwrap_or_default();
            return err(
                at,
                format!(
                    "unknown rule `{id}`: cite a rule of the registry (`tegula rules`) or one \
                     the data declares with [[rule]]{near}"
                ),
            );
        }
        Ok(Expr::Cite(id.to_string(), Box::new(self.expr()?)))
    }

    fn expr(&mut self) -> Result<Expr, ExprError> {
        self.enter()?;
        let e = self.expr_inner();
        self.depth -= 1;
        e
    }

    /// One more level of nesting, or the error that it is one too many.
    fn enter(&mut self) -> Result<(), ExprError> {
        if self.depth >= MAX_VALUE_DEPTH {
            return err(
                self.span(),
                format!("the value nests deeper than {MAX_VALUE_DEPTH} levels here"),
            );
        }
        self.depth += 1;
        Ok(())
    }

    fn expr_inner(&mut self) -> Result<Expr, ExprError> {
        if !self.is_word("if") {
            return self.sum();
        }
        self.bump();
        let t = self.test()?;
        self.expect(Tok::Word("then"), "`then`")?;
        let a = self.value()?;
        self.expect(Tok::Word("else"), "`else` (every `if` needs both branches)")?;
        let b = self.value()?;
        Ok(Expr::If(Box::new(t), Box::new(a), Box::new(b)))
    }

    fn sum(&mut self) -> Result<Expr, ExprError> {
        let mut e = self.term()?;
        loop {
            let plus = match self.peek() {
                Tok::Plus => true,
                Tok::Minus => false,
                _ => return Ok(e),
            };
            self.bump();
            let r = Box::new(self.term()?);
            e = if plus {
                Expr::Add(Box::new(e), r)
            } else {
                Expr::Sub(Box::new(e), r)
            };
        }
    }

    fn term(&mut self) -> Result<Expr, ExprError> {
        let mut e = self.atom()?;
        while self.peek() == Tok::Star {
            self.bump();
            e = Expr::Mul(Box::new(e), Box::new(self.atom()?));
        }
        Ok(e)
    }

    fn atom(&mut self) -> Result<Expr, ExprError> {
        let (tok, at) = self.bump();
        let q = match tok {
            Tok::Int(n) if n <= u64::from(MAX_POINTS) => return Ok(Expr::Int(n as u32)),
            Tok::Int(_) => {
                return err(at, format!("a number in a value is at most {MAX_POINTS}"));
            }
            Tok::Open => {
                let e = self.expr()?;
                self.expect(Tok::Close, "`)`")?;
                return Ok(e);
            }
            Tok::Word("tiles") => Quantity::Tiles,
            Tok::Word("pennants") => Quantity::Pennants,
            Tok::Word("neighbours") => Quantity::Neighbours,
            Tok::Word("cities") if self.peek() == Tok::Open => {
                Quantity::CitiesWith(self.tag_arg()?)
            }
            Tok::Word("cities") => Quantity::Cities,
            Tok::Word("count") => Quantity::Tag(self.tag_arg()?),
            Tok::Word(w)
                if self.peek() != Tok::Open
                    && board_words::BARE_WORDS.iter().any(|(n, _)| *n == w) =>
            {
                self.bare_word(w, at.clone())?
            }
            Tok::Word("set_aside") if self.rule_form => Quantity::SetAside,
            Tok::Word(w) if RULE_WORDS.contains(&w) => self.rule_word(w, at.clone())?,
            Tok::Word(w @ ("score" | "taken")) if self.rule_form => {
                if w == "score" {
                    Quantity::Score
                } else {
                    Quantity::Taken
                }
            }
            Tok::Word(w @ ("score" | "taken")) => {
                return err(
                    at,
                    format!(
                        "`{w}` reads a seat, not the feature being valued: it may be used only \
                         in the values and tests of a `[[when]]` rule"
                    ),
                )
            }
            Tok::Word(w) => {
                return err(
                    at,
                    format!(
                        "`{w}` is not a count; the counts are tiles, pennants, neighbours, \
                         cities, cities(TAG) and count(TAG)"
                    ),
                )
            }
            Tok::Cite(_) => {
                return err(
                    at,
                    "a cited rule goes only at the start of the value or of a branch of `if` \
                     (`if any(TAG) then [RULE] ... else ...`)",
                )
            }
            _ => return err(at, "expected a number, a count or `(`"),
        };
        match self.kind {
            Some(kind) if !q.rule_form_only() && !applies(q, kind) => {
                err(at, self.not_for_kind(q, kind))
            }
            _ => Ok(Expr::Count(q)),
        }
    }

    fn not_for_kind(&self, q: Quantity, kind: FeatureKind) -> String {
        let only = match q {
            Quantity::Pennants => "cities",
            Quantity::Neighbours => "cloisters",
            _ => "fields",
        };
        format!(
            "`{}` counts only on {only}; a {} has none",
            q.source(self.tags),
            kind.name()
        )
    }

    /// `( TAG )` after `count` or `any`: the index of a tag of the variant's tiles.
    fn tag_arg(&mut self) -> Result<u32, ExprError> {
        self.expect(Tok::Open, "`(` and a tag name")?;
        let (tok, at) = self.bump();
        let Tok::Word(name) = tok else {
            return err(at, "expected a tag name");
        };
        if name.is_empty() {
            return err(at, "expected a tag name");
        }
        let Some(i) = self.tags.iter().position(|t| t == name) else {
            let known = if self.tags.is_empty() {
                "the variant's tiles carry no tags".to_string()
            } else {
                format!("the variant's tiles carry: {}", self.tags.join(", "))
            };
            return err(at, format!("unknown tag `{name}`: {known}"));
        };
        self.expect(Tok::Close, "`)`")?;
        Ok(i as u32)
    }

    /// `WORD ( NAME )` of the one rule form, after `WORD` (at `at`): its quantity, or where it
    /// may be used when this is a feature's value.
    fn rule_word(&mut self, word: &str, at: Range<usize>) -> Result<Quantity, ExprError> {
        self.expect(Tok::Open, "`(` and a name")?;
        let (tok, arg_at) = self.bump();
        let Tok::Word(arg) = tok else {
            return err(arg_at, "expected a name");
        };
        let close = self.span();
        self.expect(Tok::Close, "`)`")?;
        self.rule_form_only(&format!("{word}(…)"), at.start..close.end)?;
        let n = self.names;
        let one = |what: &str, ids: &[String]| find_name(what, arg, ids, arg_at.clone());
        Ok(match word {
            "record" => Quantity::Record(one("token", n.tokens)?),
            "counters" => Quantity::Counters(one("counter", n.counters)?),
            "held" => Quantity::Held(one("resource", n.resources)?),
            "completed" => Quantity::Completed(kind_arg(arg, arg_at)?),
            "extends" => Quantity::Extends(one("figure", n.figures)?),
            "extends_open" => Quantity::ExtendsOpen(one("figure", n.figures)?),
            "figures" => board_words::figures(arg, arg_at)?,
            "features" => board_words::features(arg, arg_at, self.tags)?,
            "lines" => board_words::lines(arg, arg_at)?,
            "near" => board_words::near(arg, arg_at, self.tags)?,
            "track" => Quantity::Track(one("track", n.tracks)?),
            "track_was" => Quantity::TrackWas(one("track", n.tracks)?),
            "on_board" => Quantity::OnBoard(one("neutral figure", n.neutrals)?),
            "assigned" => Quantity::Assigned(one("neutral figure", n.neutrals)?),
            "holds_assigned" => Quantity::HoldsAssigned(one("neutral figure", n.neutrals)?),
            "assigned_wins" => Quantity::AssignedWins(one("neutral figure", n.neutrals)?),
            "on_tile_of" => Quantity::OnTileOf(one("neutral figure", n.neutrals)?),
            _ => self.touching(arg, arg_at)?,
        })
    }

    /// A bare word of the one rule form (`owner_acts`, `players`, …) at `at`.
    fn bare_word(&self, word: &str, at: Range<usize>) -> Result<Quantity, ExprError> {
        self.rule_form_only(word, at)?;
        let q = board_words::BARE_WORDS.iter().find(|(n, _)| *n == word);
        Ok(q.map_or(Quantity::Players, |(_, q)| *q))
    }

    /// The error that `what` (at `at`) reads the board or the seats, unless this is a value of
    /// the one rule form.
    fn rule_form_only(&self, what: &str, at: Range<usize>) -> Result<(), ExprError> {
        if self.rule_form {
            return Ok(());
        }
        err(
            at,
            format!(
                "`{what}` reads the board or the seats, not the feature being valued: it \
                 may be used only in the values and tests of a `[[when]]` rule (`if`, \
                 `score`, `amount`, `record`, `add`; docs/RULE-LANGUAGE.md, \"Values of the \
                 rule form\")"
            ),
        )
    }

    /// `touching(KIND)` or `touching(KIND, TAG)`: the argument text `arg` at `at`.
    fn touching(&self, arg: &str, at: Range<usize>) -> Result<Quantity, ExprError> {
        let (k, tag) = match arg.split_once(',') {
            Some((k, t)) => (k, Some(t)),
            None => (arg, None),
        };
        let k_at = at.start..at.start + k.trim_end().len();
        let kind = kind_arg(k.trim_end(), k_at)?;
        let Some(t) = tag else {
            return Ok(Quantity::Touching(kind, None));
        };
        let lead = t.len() - t.trim_start().len();
        let t_start = at.start + k.len() + 1 + lead;
        let t_at = t_start..t_start + t.trim().len();
        let i = find_name("tag", t.trim(), self.tags, t_at)?;
        Ok(Quantity::Touching(kind, Some(i)))
    }

    fn test(&mut self) -> Result<Test, ExprError> {
        let mut t = self.conj()?;
        while self.is_word("or") {
            self.bump();
            t = Test::Or(Box::new(t), Box::new(self.conj()?));
        }
        Ok(t)
    }

    fn conj(&mut self) -> Result<Test, ExprError> {
        let mut t = self.neg()?;
        while self.is_word("and") {
            self.bump();
            t = Test::And(Box::new(t), Box::new(self.neg()?));
        }
        Ok(t)
    }

    fn neg(&mut self) -> Result<Test, ExprError> {
        self.enter()?;
        let t = self.neg_inner();
        self.depth -= 1;
        t
    }

    fn neg_inner(&mut self) -> Result<Test, ExprError> {
        if self.is_word("not") {
            self.bump();
            return Ok(Test::Not(Box::new(self.neg()?)));
        }
        if self.is_word("any") {
            self.bump();
            return Ok(Test::Any(self.tag_arg()?));
        }
        if self.peek() == Tok::Open {
            // `(` opens a condition or a parenthesised sum of a comparison: try the condition.
            let back = self.pos;
            self.bump();
            if let Ok(t) = self.test() {
                if self.peek() == Tok::Close {
                    self.bump();
                    if !matches!(
                        self.peek(),
                        Tok::Cmp(_) | Tok::Plus | Tok::Minus | Tok::Star
                    ) {
                        return Ok(t);
                    }
                }
            }
            self.pos = back;
        }
        let a = self.sum()?;
        let (tok, at) = self.bump();
        let Tok::Cmp(op) = tok else {
            return err(
                at,
                "expected a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`) after the number",
            );
        };
        Ok(Test::Cmp(op, Box::new(a), Box::new(self.sum()?)))
    }
}

/// The index of `name` among `ids` (a `what`: token, counter, resource, tag), or the error
/// naming the known ones and the closest.
fn find_name(what: &str, name: &str, ids: &[String], at: Range<usize>) -> Result<u32, ExprError> {
    if let Some(i) = ids.iter().position(|t| t == name) {
        return Ok(i as u32);
    }
    if name.is_empty() {
        return err(at, format!("expected a {what} name"));
    }
    err(at, crate::names::unknown_name(what, name, ids))
}

/// A feature kind named in a rule-form word (`completed(city)`).
fn kind_arg(name: &str, at: Range<usize>) -> Result<FeatureKind, ExprError> {
    const KINDS: [(&str, FeatureKind); 4] = [
        ("road", FeatureKind::Road),
        ("city", FeatureKind::City),
        ("cloister", FeatureKind::Cloister),
        ("field", FeatureKind::Field),
    ];
    if let Some((_, k)) = KINDS.iter().find(|(n, _)| *n == name) {
        return Ok(*k);
    }
    let near = crate::names::did_you_mean(name, KINDS.iter().map(|(n, _)| *n));
    err(
        at,
        format!("`{name}` is no kind of feature: road, city, cloister or field{near}"),
    )
}
