//! The rule language in English: each ability's trigger, conditions and effect said in words, next
//! to the types that define them (as a ludeme carries its own `toEnglish`), so `variant explain`,
//! `render` and the docs never keep a second description by hand.

use crate::{Ability, Condition, Count, Effect, FeatureKind, Owner, Per, State, Trigger};

impl Ability {
    /// The ability in one sentence, e.g. "When a road is completed in the owner's turn, if it
    /// covers at least 5 tiles: the owner scores 1 per figure of theirs on an incomplete road."
    /// `tags` are the ruleset's tag names ([`crate::Ruleset::tags`]).
    pub fn words(&self, tags: &[String]) -> String {
        let mut s = capitalised(&self.when.words());
        let conditions: Vec<String> = self.conditions.iter().map(|c| c.words(tags)).collect();
        if !conditions.is_empty() {
            s.push_str(", if ");
            s.push_str(&conditions.join(" and "));
        }
        if self.not_in_placing_turn {
            s.push_str(", from the turn after the tile is placed");
        }
        s.push_str(": ");
        s.push_str(&self.effect.words(tags));
        s.push('.');
        s
    }
}

impl Trigger {
    /// When it acts, as a clause ("when a cloister is completed").
    pub fn words(&self) -> String {
        match *self {
            Trigger::FollowerPlaced => "when the owner places a figure from supply".to_string(),
            Trigger::FeatureCompleted { kind, owners_turn } => format!(
                "when {} {} is completed{}",
                article(kind),
                kind.name(),
                if owners_turn {
                    " in the owner's turn"
                } else {
                    ""
                }
            ),
            Trigger::FeatureScored {
                kind,
                during_game_only,
            } => format!(
                "when {} {} is scored{}",
                article(kind),
                kind.name(),
                if during_game_only {
                    " during the game (not in final scoring)"
                } else {
                    ""
                }
            ),
            Trigger::GameEnd => "at the end of the game, before final scoring".to_string(),
            Trigger::Draw => "when the owner draws".to_string(),
        }
    }
}

impl Condition {
    /// The condition, as a clause after "if".
    pub fn words(&self, tags: &[String]) -> String {
        match self {
            Condition::Near { tag } => {
                let around = tag
                    .and_then(|t| tags.get(t as usize))
                    .map_or("a cloister".to_string(), |t| {
                        format!("a cloister or a feature tagged `{t}`")
                    });
                format!("the figure stands in one of the 8 cells around {around}")
            }
            Condition::Occupied => "the feature holds a figure".to_string(),
            Condition::MinTiles(n) => format!("the feature covers at least {n} tiles"),
            Condition::OwnerPresent => "the owner has a figure on the feature".to_string(),
        }
    }
}

impl Effect {
    /// What it does, as a clause ("the owner scores 2 per completed road of 3 tiles or more").
    /// `tags` are the ruleset's tag names.
    pub fn words(&self, tags: &[String]) -> String {
        match self {
            Effect::Score { per, count } => match count {
                Count::One => format!("the owner scores {}", per.words(tags)),
                _ => format!(
                    "the owner scores {} per {}",
                    per.words(tags),
                    count.words(tags)
                ),
            },
            Effect::Gain { resource, amount } => format!(
                "the owner gains {} of the seat resource `{resource}`",
                amount.words(tags)
            ),
            Effect::ExtraTurn => "the owner takes one more turn after this one (never in an \
                                  extra turn, nor with the pile empty)"
                .to_string(),
            Effect::Hand(n) => format!(
                "the owner holds a hand of {n} tiles (draws up to {n}, places one, keeps the rest)"
            ),
        }
    }
}

impl Per {
    /// The points, with their thresholds ("4 (2 or 3 players), 3 (4 players or more)"), or
    /// the value over the triggering feature. `tags` are the ruleset's tag names.
    pub fn words(&self, tags: &[String]) -> String {
        match self {
            Per::Value(e) => format!("{} (of the triggering feature)", e.words(tags)),
            Per::Fixed(n) => n.to_string(),
            Per::ByPlayers(steps) => {
                thresholds(steps.iter().map(|&(k, p)| (u32::from(k), p)), "players")
            }
            Per::ByTiles(steps) => thresholds(steps.iter().copied(), "tiles in the game"),
        }
    }
}

impl Count {
    /// What is counted, in the singular ("figure of theirs on a completed city"). `tags` are
    /// the ruleset's tag names.
    pub fn words(&self, tags: &[String]) -> String {
        match *self {
            Count::One => "time".to_string(),
            Count::Followers { owner, kind, state } => {
                let whose = match owner {
                    Owner::Own => "figure of theirs",
                    Owner::Others => "other player's figure",
                    Owner::Anyone => "figure",
                };
                let on = kind.map_or("feature", FeatureKind::name);
                format!("{whose} on {}{on}", state_words(state))
            }
            Count::Features {
                kind,
                min_tiles,
                state,
                tag,
            } => {
                let tagged = tag.map_or(String::new(), |t| {
                    let name = tags.get(t as usize).map_or("?", String::as_str);
                    format!(" with a `{name}` segment")
                });
                let size = if min_tiles > 1 {
                    format!(" of {min_tiles} tiles or more")
                } else {
                    String::new()
                };
                let adjective = match state {
                    State::Complete => "completed ",
                    State::Incomplete => "incomplete ",
                    State::Any => "",
                };
                format!("{adjective}{}{size}{tagged} on the board", kind.name())
            }
            Count::LinesWithRun(n) => {
                format!("row or column of the board with a gap-free run of {n} tiles or more")
            }
        }
    }
}

/// "a completed " / "an incomplete " / "a " before a noun.
fn state_words(state: State) -> &'static str {
    match state {
        State::Complete => "a completed ",
        State::Incomplete => "an incomplete ",
        State::Any => "a ",
    }
}

/// "a" or "an" before the kind's name.
pub(crate) fn article(kind: FeatureKind) -> &'static str {
    if kind.name().starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// `(least, points)` steps in words: each with the range of the counted thing it applies to.
fn thresholds(steps: impl Iterator<Item = (u32, u32)>, unit: &str) -> String {
    let steps: Vec<(u32, u32)> = steps.collect();
    let mut parts = Vec::new();
    for (i, &(least, points)) in steps.iter().enumerate() {
        let range = match steps.get(i + 1) {
            Some(&(next, _)) if next > least + 1 => format!("{least} to {} {unit}", next - 1),
            Some(_) => format!("{least} {unit}"),
            None => format!("{least} {unit} or more"),
        };
        parts.push(format!("{points} ({range})"));
    }
    parts.join(", ")
}

pub(crate) fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

impl Owner {
    /// The name in the source form (`own`, `others`, `anyone`).
    pub fn name(self) -> &'static str {
        match self {
            Owner::Own => "own",
            Owner::Others => "others",
            Owner::Anyone => "anyone",
        }
    }
}

impl State {
    /// The name in the source form (`complete`, `incomplete`, `any`).
    pub fn name(self) -> &'static str {
        match self {
            State::Complete => "complete",
            State::Incomplete => "incomplete",
            State::Any => "any",
        }
    }

    /// "a completed " / "an incomplete " / "a " before a noun.
    pub(crate) fn article(self) -> &'static str {
        state_words(self)
    }

    /// "completed " / "incomplete " / "" before a noun.
    pub(crate) fn adjective(self) -> &'static str {
        match self {
            State::Complete => "completed ",
            State::Incomplete => "incomplete ",
            State::Any => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abilities_read_as_sentences() {
        let a = Ability {
            rule: "W-13".into(),
            when: Trigger::FeatureCompleted {
                kind: FeatureKind::Cloister,
                owners_turn: false,
            },
            conditions: vec![Condition::OwnerPresent],
            effect: Effect::Score {
                per: Per::Fixed(1),
                count: Count::Features {
                    kind: FeatureKind::Road,
                    min_tiles: 3,
                    state: State::Complete,
                    tag: None,
                },
            },
            not_in_placing_turn: false,
        };
        assert_eq!(
            a.words(&[]),
            "When a cloister is completed, if the owner has a figure on the feature: the owner \
             scores 1 per completed road of 3 tiles or more on the board."
        );
        let per = Per::ByPlayers(vec![(2, 4), (4, 3), (5, 2)]);
        assert_eq!(
            per.words(&[]),
            "4 (2 to 3 players), 3 (4 players), 2 (5 players or more)"
        );
        let hand = Effect::Hand(2);
        assert!(hand
            .words(&[])
            .starts_with("the owner holds a hand of 2 tiles"));
    }
}
