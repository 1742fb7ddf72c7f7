//! Answering the choices rules offer, from a step's `choices` in order: each offer the engine
//! makes must be the next answer's rule, every answer must be used, and an option named that
//! the engine does not list is a failure naming the options it does.

use std::collections::VecDeque;

use tegula_engine::{Action, ChoiceOption, Game, Phase};

use super::{fail, Failure};
use crate::load::{Answer, ChoiceAnswer, Step};

/// A step's answers not used yet.
pub(super) struct Answers<'s> {
    left: VecDeque<&'s ChoiceAnswer>,
}

impl<'s> Answers<'s> {
    /// All of `step`'s answers.
    pub(super) fn of(step: &'s Step) -> Answers<'s> {
        Answers {
            left: step.choices.iter().collect(),
        }
    }

    /// Answer every offer the engine makes now ([`Phase::Choice`]), one answer each.
    pub(super) fn offers(&mut self, game: &mut Game, step: &Step) -> Result<(), Failure> {
        while let Some((rule, seat, options)) = game.open_offer() {
            let rule = rule_id(game, rule);
            if self.skip_not_offered(game, step, Some(&rule))? {
                continue;
            }
            let Some(a) = self.left.pop_front() else {
                let message = format!(
                    "the engine offers seat {seat} the choice of {rule} and the step's `choices` \
                     do not answer it"
                );
                let actual = Some(format!("options: {}", words(game, &options)));
                return Err(fail(step, message, None, actual));
            };
            check_asked(step, a, &rule, seat)?;
            if a.refused {
                expect_refused(game, step, a)?;
                continue;
            }
            let action = match &a.answer {
                Answer::Decline => Action::Pass,
                answer => Action::Choose(option_index(game, &a.rule, answer, step)?),
            };
            apply(game, step, a, action)?;
        }
        Ok(())
    }

    /// At the figure step: the answers to figure-step offers that come next (a decline leaves
    /// the step as it is; a choice is taken).
    pub(super) fn figure_step(&mut self, game: &mut Game, step: &Step) -> Result<(), Failure> {
        while game.phase() == Phase::Follower {
            if self.skip_not_offered(game, step, None)? {
                continue;
            }
            let Some(&a) = self.left.front().filter(|a| a.figure_step) else {
                return Ok(());
            };
            // Not offered now (no option): the answer is left over, a failure at the end.
            let options = game.choice_options();
            if !a.refused && !options.iter().any(|&(r, _)| rule_id(game, r) == a.rule) {
                return Ok(());
            }
            self.left.pop_front();
            if a.refused {
                expect_refused(game, step, a)?;
                continue;
            }
            if a.answer == Answer::Decline {
                continue;
            }
            let seat = game.current_player();
            check_asked(step, a, &a.rule, seat)?;
            let i = option_index(game, &a.rule, &a.answer, step)?;
            apply(game, step, a, Action::Choose(i))?;
        }
        Ok(())
    }

    /// The next answer, when it says an option must not be offered (by the open offer of
    /// `rule`, or at the figure step with `None`): checked and used. True when one was.
    fn skip_not_offered(
        &mut self,
        game: &Game,
        step: &Step,
        rule: Option<&str>,
    ) -> Result<bool, Failure> {
        let Some(&a) = self.left.front().filter(|a| a.not_offered) else {
            return Ok(false);
        };
        if rule.is_some_and(|r| r != a.rule) || (rule.is_none() && !a.figure_step) {
            return Ok(false);
        }
        self.left.pop_front();
        let offered = game.choice_options();
        let named = offered
            .iter()
            .any(|&(r, o)| rule_id(game, r) == a.rule && names(game, &a.answer, o));
        if !named {
            return Ok(true);
        }
        let message = format!("the step says {} must not offer this option", a.rule);
        let mut f = fail(
            step,
            message,
            Some(format!("no {}", answer_words(&a.answer))),
            Some(format!(
                "options: {}",
                words(game, &offered.iter().map(|o| o.1).collect::<Vec<_>>())
            )),
        );
        (f.line, f.column) = (a.pos.line, a.pos.column);
        Err(f)
    }

    /// After the step's turn: an answer left over was never asked for (one saying an option
    /// must not be offered holds: its offer was never made).
    pub(super) fn all_used(&mut self, step: &Step) -> Result<(), Failure> {
        while self.left.front().is_some_and(|a| a.not_offered) {
            self.left.pop_front();
        }
        let Some(a) = self.left.front() else {
            return Ok(());
        };
        let message = format!(
            "the step answers a choice of {} that the engine did not offer (in that order)",
            a.rule
        );
        let mut f = fail(step, message, Some(a.rule.clone()), None);
        (f.line, f.column) = (a.pos.line, a.pos.column);
        Err(f)
    }
}

fn rule_id(game: &Game, rule: u16) -> String {
    let when = &game.rules().ruleset().when;
    when.get(usize::from(rule))
        .map_or_else(String::new, |w| w.rule.clone())
}

/// The offer made is the one `a` answers, to the seat it names.
fn check_asked(step: &Step, a: &ChoiceAnswer, rule: &str, seat: u8) -> Result<(), Failure> {
    let at = |mut f: Failure| {
        (f.line, f.column) = (a.pos.line, a.pos.column);
        f
    };
    if a.rule != rule {
        let message = "the engine offers another choice than the step answers next".into();
        let (expected, actual) = (a.rule.clone(), format!("{rule} to seat {seat}"));
        return Err(at(fail(step, message, Some(expected), Some(actual))));
    }
    match a.player.filter(|&p| p != seat) {
        Some(p) => {
            let message = format!("the choice of {rule} is offered to another seat");
            let (expected, actual) = (format!("seat {p}"), format!("seat {seat}"));
            Err(at(fail(step, message, Some(expected), Some(actual))))
        }
        None => Ok(()),
    }
}

/// An answer the step expects the engine to refuse: a decline of an offer that may not be
/// declined, or an option the engine does not list.
fn expect_refused(game: &Game, step: &Step, a: &ChoiceAnswer) -> Result<(), Failure> {
    let accepted = match &a.answer {
        Answer::Decline => game.check(Action::Pass).is_ok(),
        answer => option_index(game, &a.rule, answer, step).is_ok(),
    };
    if !accepted {
        return Ok(());
    }
    let message = format!(
        "the engine accepts the answer to {} the step expects refused",
        a.rule
    );
    let mut f = fail(
        step,
        message,
        Some("refused".into()),
        Some("accepted".into()),
    );
    (f.line, f.column) = (a.pos.line, a.pos.column);
    Err(f)
}

fn apply(game: &mut Game, step: &Step, a: &ChoiceAnswer, action: Action) -> Result<(), Failure> {
    game.apply(action).map_err(|e| {
        let message = format!("the engine refused the answer to {}", a.rule);
        let mut f = fail(step, message, None, Some(e.to_string()));
        (f.line, f.column) = (a.pos.line, a.pos.column);
        f
    })
}

/// The index of [`Action::Choose`] for `answer` among the engine's options of rule `rule`.
fn option_index(game: &Game, rule: &str, answer: &Answer, step: &Step) -> Result<u16, Failure> {
    let all = game.choice_options();
    let mine: Vec<(usize, ChoiceOption)> = (all.iter().enumerate())
        .filter(|(_, (r, _))| rule_id(game, *r) == rule)
        .map(|(i, &(_, o))| (i, o))
        .collect();
    let hits: Vec<usize> = (mine.iter())
        .filter(|(_, o)| names(game, answer, *o))
        .map(|&(i, _)| i)
        .collect();
    let offered: Vec<ChoiceOption> = mine.iter().map(|m| m.1).collect();
    let options = words(game, &offered);
    match hits.as_slice() {
        [i] => Ok(*i as u16),
        [] => {
            let message = format!("the step names an option the choice of {rule} does not have");
            let expected = Some(answer_words(answer));
            Err(fail(
                step,
                message,
                expected,
                Some(format!("options: {options}")),
            ))
        }
        _ => {
            let message = format!(
                "the step's figure for {rule} names two of the seat's figures on that tile: give \
                 `on` (a segment id of the one chosen)"
            );
            Err(fail(
                step,
                message,
                None,
                Some(format!("options: {options}")),
            ))
        }
    }
}

/// Whether `answer` names option `o`: a figure or a tile by any cell of its tile (and the
/// figure's feature by a segment id, if given), a kind by its id.
fn names(game: &Game, answer: &Answer, o: ChoiceOption) -> bool {
    let anchor = |(x, y): (i32, i32)| game.tile_at(x, y).map(|t| (t.0.x, t.0.y));
    match (answer, o) {
        (
            Answer::Figure(cell, on, kind),
            ChoiceOption::Figure {
                x,
                y,
                feature,
                follower,
            },
        ) => {
            let tile = game.tile_at(x, y).map(|t| t.0.tile);
            let seg = |s: &String| tile.and_then(|t| game.rules().feature_index(t, s));
            let id = game.rules().follower_id(follower);
            anchor(*cell) == Some((x, y))
                && on.as_ref().is_none_or(|s| seg(s) == Some(feature))
                && kind.as_ref().is_none_or(|k| k == id)
        }
        (Answer::Tile(cell), ChoiceOption::Tile { x, y }) => {
            anchor(*cell).is_some() && anchor(*cell) == anchor((x, y))
        }
        (Answer::Figure(cell, None, kind), ChoiceOption::Top { x, y, follower, .. }) => {
            let id = game.rules().follower_id(follower);
            anchor(*cell).is_some()
                && anchor(*cell) == Some((x, y))
                && kind.as_ref().is_none_or(|k| k == id)
        }
        (Answer::Captive(id), ChoiceOption::Captive { follower, .. }) => {
            game.rules().follower_id(follower) == id
        }
        (Answer::Kind(id), ChoiceOption::Kind { resource, .. }) => {
            let rs = game.rules().ruleset();
            rs.resources
                .get(usize::from(resource))
                .is_some_and(|r| r.id == *id)
        }
        _ => false,
    }
}

/// Options in words.
fn words(game: &Game, options: &[ChoiceOption]) -> String {
    if options.is_empty() {
        return "none".into();
    }
    let each = options.iter().map(|&o| game.choice_word(o).to_string());
    each.collect::<Vec<_>>().join("; ")
}

fn answer_words(answer: &Answer) -> String {
    match answer {
        Answer::Figure((x, y), on, kind) => {
            let on = on.as_ref().map_or(String::new(), |s| format!(" on `{s}`"));
            let kind = kind.as_ref().map_or(String::new(), |k| format!(" (`{k}`)"));
            format!("figure at [{x}, {y}]{on}{kind}")
        }
        Answer::Tile((x, y)) => format!("tile at [{x}, {y}]"),
        Answer::Kind(id) => format!("kind `{id}`"),
        Answer::Captive(id) => format!("held `{id}`"),
        Answer::Decline => "decline".into(),
    }
}
