//! The rule registry: the one loader of `crates/ruleset/rules.toml` (every rule id the data,
//! diagnostics, scenarios and engine events cite, with its title, statement and source), and the
//! check that a cited id names an entry ([`Code::UnknownRule`], with a "did you mean").

use std::ops::Range;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::diag::{Code, Diagnostic, Source};
use crate::names::suggest;
use crate::raw::{RawRule, Sp};

/// One rule: of the registry, or declared by data (`[[rule]]`).
pub use tegula_ruleset::Rule;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleFile {
    rule: Vec<Rule>,
}

/// Every rule, in registry order. The embedded file is checked by this crate's tests, so a parse
/// failure cannot reach a user; should it happen anyway the registry is empty rather than a panic.
pub fn all() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        toml::from_str::<RuleFile>(tegula_ruleset::RULES_TOML)
            .map(|f| f.rule)
            .unwrap_or_default()
    })
}

/// The rule with this id.
pub fn find(id: &str) -> Option<&'static Rule> {
    all().iter().find(|r| r.id == id)
}

/// The closest registered id to `id`, for "did you mean".
pub fn closest(id: &str) -> Option<&'static str> {
    suggest(id, all().iter().map(|r| r.id.as_str()))
}

/// `None` when `id` is registered, else an [`Code::UnknownRule`] diagnostic at `span`.
pub fn check(src: &Source, id: &str, span: Range<usize>) -> Option<Diagnostic> {
    Scope::default().check(src, id, span)
}

/// What a rule id looks like (the schema's pattern `^[A-Z]+-[0-9]+[a-z]?$`), in words.
pub const RULE_ID_SHAPE: &str =
    "capital letters, `-`, a number and at most one small letter, such as `B-1`, `TB-6` or `W-18a`";

/// Whether `id` has the shape of a rule id ([`RULE_ID_SHAPE`]).
pub fn is_rule_id(id: &str) -> bool {
    let Some((head, tail)) = id.split_once('-') else {
        return false;
    };
    let digits = tail.trim_end_matches(|c: char| c.is_ascii_lowercase());
    let letters = tail.len() - digits.len();
    !head.is_empty()
        && head.bytes().all(|b| b.is_ascii_uppercase())
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && letters <= 1
}

/// The rules a file may cite: the registry's, and those its data declares (`[[rule]]` in the
/// file itself, in a variant's tile sets, in the variant).
#[derive(Clone, Debug, Default)]
pub struct Scope {
    declared: Vec<Rule>,
}

impl Scope {
    /// The registry and these declared rules.
    pub fn with(declared: Vec<Rule>) -> Scope {
        Scope { declared }
    }

    /// The declared rules, without the registry's.
    pub fn into_declared(self) -> Vec<Rule> {
        self.declared
    }

    /// The rules the data declares, in declaration order.
    pub fn declared(&self) -> &[Rule] {
        &self.declared
    }

    /// The rule with this id, of the registry or declared.
    pub fn find(&self, id: &str) -> Option<&Rule> {
        find(id).or_else(|| self.declared.iter().find(|r| r.id == id))
    }

    /// `None` when `id` names a rule in scope, else an [`Code::UnknownRule`] diagnostic at
    /// `span` with the nearest id and how to declare a rule of one's own.
    pub fn check(&self, src: &Source, id: &str, span: Range<usize>) -> Option<Diagnostic> {
        if self.find(id).is_some() {
            return None;
        }
        let mut d = src
            .diag(
                Code::UnknownRule,
                span,
                format!("`{id}` is not a rule of the registry nor one this data declares"),
            )
            .with_note("`tegula rules` lists the registry (crates/ruleset/rules.toml)")
            .with_note(
                "a rule of your own is declared in the tile set or variant with a `[[rule]]` \
                 table: id, title, statement, source (docs/FORMAT.md, \"Rules of your own\")",
            );
        if !is_rule_id(id) {
            d.notes.push(format!(
                "`{id}` is not shaped like a rule id: {RULE_ID_SHAPE}"
            ));
        }
        let ids = all().iter().chain(&self.declared).map(|r| r.id.as_str());
        if let Some(near) = suggest(id, ids) {
            d.notes.push(format!("did you mean `{near}`?"));
        }
        Some(d)
    }

    /// Add the `[[rule]]` tables of `src`. An id of the registry, or one already declared with
    /// other words, is a [`Code::DuplicateId`] error and is not added; the same rule declared
    /// again word for word (a set read twice) is taken once.
    pub fn declare(&mut self, raw: &[Sp<RawRule>], src: &Source, diags: &mut Vec<Diagnostic>) {
        for r in raw {
            let rule = Rule {
                id: r.value.id.value.clone(),
                title: r.value.title.clone(),
                statement: r.value.statement.clone(),
                source: r.value.source.clone(),
            };
            let span = r.value.id.span.clone();
            if find(&rule.id).is_some() {
                diags.push(src.diag(
                    Code::DuplicateId,
                    span,
                    format!(
                        "`{}` is a rule of the registry: a rule of your own needs an id of its \
                         own (`tegula rules {}` shows the registry's)",
                        rule.id, rule.id
                    ),
                ));
            } else if let Some(msg) = self.add(rule) {
                diags.push(src.diag(Code::DuplicateId, span, msg));
            }
        }
    }

    /// Add the rules another file declared (checked when it compiled); a clash with a rule
    /// declared with other words is reported against `src`'s file.
    pub fn merge(&mut self, rules: Vec<Rule>, src: &Source, diags: &mut Vec<Diagnostic>) {
        for rule in rules {
            if let Some(msg) = self.add(rule) {
                diags.push(Diagnostic::file_level(Code::DuplicateId, &src.path, msg));
            }
        }
    }

    /// Declare `rule`; the message when its id is taken by a rule with other words.
    fn add(&mut self, rule: Rule) -> Option<String> {
        match self.declared.iter().find(|o| o.id == rule.id) {
            Some(old) if *old != rule => Some(format!(
                "rule `{}` is declared twice with different words (first as \"{}\")",
                rule.id, old.title
            )),
            Some(_) => None,
            None => {
                self.declared.push(rule);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_loads_with_unique_complete_entries() {
        let parsed: RuleFile = toml::from_str(tegula_ruleset::RULES_TOML).expect("rules.toml");
        assert_eq!(parsed.rule.len(), all().len());
        assert!(all().len() >= 40);
        let mut ids: Vec<&str> = all().iter().map(|r| r.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all().len(), "duplicate rule ids");
        for r in all() {
            assert!(!r.title.trim().is_empty(), "{}", r.id);
            assert!(r.statement.len() > 40, "{}", r.id);
            assert!(!r.source.trim().is_empty(), "{}", r.id);
        }
    }

    #[test]
    fn unknown_ids_are_reported_with_a_suggestion() {
        let src = Source::new("x.toml", "rule = \"W-81\"\n".to_string());
        assert!(check(&src, "W-18", 8..12).is_none());
        let d = check(&src, "W-81", 8..12).unwrap();
        assert_eq!(d.code, Code::UnknownRule);
        assert_eq!((d.at.line, d.at.column), (1, 9));
        assert!(
            d.notes
                .iter()
                .any(|n| n.contains("did you mean `W-18`") || n.contains("did you mean `W-1`")),
            "{:?}",
            d.notes
        );
        let zz = check(&src, "ZZZ-99", 8..12).unwrap();
        assert_eq!(zz.code, Code::UnknownRule);
    }

    #[test]
    fn rule_ids_have_one_shape() {
        for ok in ["B-1", "TB-6", "AM-12", "B-4a"] {
            assert!(super::is_rule_id(ok), "{ok}");
        }
        for bad in ["R2-1", "b-1", "B-", "-1", "B-1ab", "B1", "B-1A", ""] {
            assert!(!super::is_rule_id(bad), "{bad}");
        }
    }
}
