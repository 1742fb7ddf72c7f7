//! The rule registry: the one loader of `crates/ruleset/rules.toml` (every rule id the data,
//! diagnostics, scenarios and engine events cite, with its title, statement and source), and the
//! check that a cited id names an entry ([`Code::UnknownRule`], with a "did you mean").

use std::ops::Range;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::diag::{Code, Diagnostic, Source};
use crate::load::suggest;

/// One rule of the registry.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable id (`B-4`, `AM-7`, `W-18`).
    pub id: String,
    /// Short title.
    pub title: String,
    /// The rule in the project's own words (one paragraph).
    pub statement: String,
    /// The rulebook and section it comes from.
    pub source: String,
}

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
    if find(id).is_some() {
        return None;
    }
    let mut d = src
        .diag(
            Code::UnknownRule,
            span,
            format!("`{id}` is not a rule of the registry"),
        )
        .with_note("`tegula rules` lists them (crates/ruleset/rules.toml)");
    if let Some(near) = closest(id) {
        d.notes.push(format!("did you mean `{near}`?"));
    }
    Some(d)
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
}
