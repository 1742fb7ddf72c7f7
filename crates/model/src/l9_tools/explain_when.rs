//! `variant explain`'s lines for the one rule form: each token and counter, each `[[when]]` in
//! words ([`tegula_ruleset::When::describe`], the sentence docs/RULE-LANGUAGE.md shows) with its
//! rule id and the file and line that wrote it, a resource's `start` and a figure's site tags.

use serde_json::{json, Value};
use tegula_ruleset::{FollowerType, Names, StartCount};

use crate::explain::{line, Locator, Origin, RuleLine};
use crate::variant::CompiledVariant;

/// The names a variant's rules use, owned.
pub(crate) struct OwnedNames {
    tags: Vec<String>,
    tokens: Vec<String>,
    counters: Vec<String>,
    resources: Vec<String>,
    figures: Vec<String>,
    tiles: Vec<String>,
    tracks: Vec<String>,
    stacks: Vec<String>,
    neutrals: Vec<String>,
}

impl OwnedNames {
    /// The names of `v`.
    pub(crate) fn of(v: &CompiledVariant) -> OwnedNames {
        OwnedNames {
            tags: crate::lower::tag_names(&v.tiles),
            tokens: v.tokens.iter().map(|t| t.id.clone()).collect(),
            counters: v.counters.iter().map(|t| t.id.clone()).collect(),
            resources: v.resources.iter().map(|t| t.id.clone()).collect(),
            figures: v.followers.iter().map(|t| t.id.clone()).collect(),
            tiles: v.tiles.iter().map(|t| t.id.clone()).collect(),
            tracks: v.tracks.iter().map(|t| t.id.clone()).collect(),
            stacks: v.stacks.iter().map(|t| t.id.clone()).collect(),
            neutrals: v.neutrals.iter().map(|t| t.id.clone()).collect(),
        }
    }

    /// Borrowed, for the value and rule words.
    pub(crate) fn names(&self) -> Names<'_> {
        Names {
            tags: &self.tags,
            tokens: &self.tokens,
            counters: &self.counters,
            resources: &self.resources,
            figures: &self.figures,
            tiles: &self.tiles,
            tracks: &self.tracks,
            stacks: &self.stacks,
            neutrals: &self.neutrals,
        }
    }
}

/// Tokens, counters, stacks, then one line per `[[when]]` (key `when.RULE`, `when.RULE.2` for a second
/// rule citing the same id).
pub(crate) fn lines(v: &CompiledVariant, at: &Locator<'_>) -> Vec<RuleLine> {
    let mut out = Vec::new();
    for t in &v.tokens {
        out.push(line(
            &format!("token.{}", t.id),
            json!({ "id": t.id, "name": t.name }),
            format!("token {}: held by at most one seat, with a record", t.name),
            None,
            at.element("token", "id", &t.id),
        ));
    }
    for c in &v.counters {
        out.push(line(
            &format!("counter.{}", c.id),
            json!({ "id": c.id, "name": c.name }),
            format!("counter {}: tiles carry any number of them", c.name),
            None,
            at.element("counter", "id", &c.id),
        ));
    }
    for k in &v.stacks {
        let tops: Vec<&str> = (k.top.iter())
            .filter_map(|&f| v.followers.get(usize::from(f)).map(|t| t.id.as_str()))
            .collect();
        out.push(line(
            &format!("stack.{}", k.id),
            serde_json::to_value(k).unwrap_or(Value::Null),
            format!(
                "stack {}: one on every tile carrying its tag, built of a seat's pieces; a {} \
                 on top from height {} closes it{}",
                k.name,
                tops.join(" or "),
                k.top_min,
                if k.reopen {
                    " until it leaves"
                } else {
                    " for good"
                }
            ),
            None,
            at.element("stack", "id", &k.id),
        ));
    }
    let owned = OwnedNames::of(v);
    let names = owned.names();
    for (i, w) in v.when.iter().enumerate() {
        let same = v.when[..i].iter().filter(|o| o.rule == w.rule).count();
        let key = match same {
            0 => format!("when.{}", w.rule),
            k => format!("when.{}.{}", w.rule, k + 1),
        };
        let origin = v.when_at.get(i).map(|(file, line)| Origin {
            file: file.clone(),
            line: *line,
        });
        out.push(line(
            &key,
            serde_json::to_value(w).unwrap_or(Value::Null),
            w.describe(&names),
            Some(&w.rule),
            origin,
        ));
    }
    out
}

/// A resource's start in words: "each seat starts with 3" or "… with 9 (2 players), 6 (3+)".
pub(crate) fn start_words(start: &[StartCount]) -> String {
    if let [one] = start {
        if one.players <= 1 {
            return format!("each seat starts with {}", one.count);
        }
    }
    let steps: Vec<String> = start
        .iter()
        .enumerate()
        .map(|(i, s)| match start.get(i + 1) {
            Some(next) if next.players == s.players + 1 => {
                format!("{} with {} players", s.count, s.players)
            }
            Some(next) => format!(
                "{} with {}-{} players",
                s.count,
                s.players,
                next.players - 1
            ),
            None => format!("{} with {}+ players", s.count, s.players),
        })
        .collect();
    format!("each seat starts with {}", steps.join(", "))
}

/// A figure's sites by tag, as a clause after its strength (empty without them).
pub(crate) fn site_tag_words(f: &FollowerType, tags: &[String]) -> String {
    let list = |ix: &[u32]| -> String {
        let names: Vec<String> = ix
            .iter()
            .map(|&i| format!("`{}`", tags.get(i as usize).map_or("?", String::as_str)))
            .collect();
        names.join(" or ")
    };
    let mut s = String::new();
    if !f.only_tags.is_empty() {
        s.push_str(&format!(", only on features tagged {}", list(&f.only_tags)));
    }
    if !f.never_tags.is_empty() {
        s.push_str(&format!(
            ", never on features tagged {}",
            list(&f.never_tags)
        ));
    }
    s
}
