//! The events a scenario compares, as comparable items: a seat scoring (for a feature, or a
//! rule's points with no feature), a follower returning, a seat gaining or spending a resource,
//! scoring a resource's award, taking a token, counters put on a tile, counters collected.

use std::fmt;

use tegula_engine::Event;
use tegula_ruleset::FeatureKind;

use crate::load::{Expected, Pos};

/// One comparable event (one seat's part of it).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Item {
    Score {
        player: u8,
        kind: String,
        points: u32,
        rule: String,
    },
    Points {
        player: u8,
        points: u32,
        rule: String,
    },
    Return {
        player: u8,
        follower: String,
        rule: Option<String>,
    },
    Gain {
        player: u8,
        resource: String,
        amount: u32,
        spent: bool,
        rule: String,
    },
    Award {
        player: u8,
        resource: String,
        points: u32,
        rule: String,
    },
    Token {
        player: u8,
        token: String,
        rule: String,
    },
    Counters {
        counter: String,
        at: [i32; 2],
        added: u32,
        rule: String,
    },
    Collect {
        player: u8,
        counter: String,
        amount: u32,
        rule: String,
    },
    Capture {
        player: u8,
        owner: u8,
        follower: String,
        rule: String,
    },
    Exchange {
        player: u8,
        follower: String,
        rule: String,
    },
    Redeem {
        player: u8,
        follower: String,
        points: u32,
        rule: String,
    },
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Score {
                player,
                kind,
                points,
                rule,
            } => write!(f, "seat {player} scores {points} for a {kind} ({rule})"),
            Item::Points {
                player,
                points,
                rule,
            } => write!(f, "seat {player} scores {points} ({rule})"),
            Item::Return {
                player,
                follower,
                rule,
            } => {
                write!(f, "a {follower} returns to seat {player}")?;
                rule.as_ref().map_or(Ok(()), |r| write!(f, " ({r})"))
            }
            Item::Gain {
                player,
                resource,
                amount,
                spent,
                rule,
            } => {
                let verb = if *spent { "spends" } else { "gains" };
                write!(f, "seat {player} {verb} {amount} {resource} ({rule})")
            }
            Item::Award {
                player,
                resource,
                points,
                rule,
            } => write!(
                f,
                "seat {player} scores {points} for the most {resource} ({rule})"
            ),
            Item::Token {
                player,
                token,
                rule,
            } => write!(f, "seat {player} takes the {token} ({rule})"),
            Item::Counters {
                counter,
                at: [x, y],
                added,
                rule,
            } => write!(
                f,
                "{added} {counter} put on the tile at [{x}, {y}] ({rule})"
            ),
            Item::Collect {
                player,
                counter,
                amount,
                rule,
            } => write!(f, "seat {player} collects {amount} {counter} ({rule})"),
            other => other.held_words(f),
        }
    }
}

impl Item {
    /// The words of a capture, an exchange or a buy-back (TO-4, TO-6, TO-7).
    fn held_words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Capture {
                player,
                owner,
                follower,
                rule,
            } => write!(
                f,
                "seat {player} captures seat {owner}'s {follower} ({rule})"
            ),
            Item::Exchange {
                player,
                follower,
                rule,
            } => write!(
                f,
                "seat {player}'s {follower} comes home by exchange ({rule})"
            ),
            Item::Redeem {
                player,
                follower,
                points,
                rule,
            } => write!(
                f,
                "seat {player} buys back its {follower} for {points} ({rule})"
            ),
            _ => Ok(()),
        }
    }
}

fn kind_name(k: FeatureKind) -> String {
    tegula_model::compile::kind_name(k).to_string()
}

/// The comparable items of `events`, sorted.
pub(super) fn actual_items(events: &[Event]) -> Vec<Item> {
    let mut out = Vec::new();
    for e in events {
        actual(e, &mut out);
    }
    out.sort();
    out
}

fn actual(e: &Event, out: &mut Vec<Item>) {
    let each = |players: &[u8], item: &dyn Fn(u8) -> Item| -> Vec<Item> {
        players.iter().map(|&p| item(p)).collect()
    };
    let items = match e.clone() {
        // A feature that paid nothing (complete and unoccupied) is no score.
        Event::Score { points: 0, .. } | Event::Points { points: 0, .. } => Vec::new(),
        Event::Score {
            rule,
            players,
            points,
            feature,
            ..
        } => each(&players, &|player| Item::Score {
            player,
            kind: kind_name(feature.kind),
            points,
            rule: rule.clone(),
        }),
        Event::Points {
            rule,
            players,
            points,
            ..
        } => each(&players, &|player| Item::Points {
            player,
            points,
            rule: rule.clone(),
        }),
        Event::Award {
            rule,
            players,
            resource,
            points,
            ..
        } => each(&players, &|player| Item::Award {
            player,
            resource: resource.clone(),
            points,
            rule: rule.clone(),
        }),
        Event::Exchange {
            rule,
            players,
            followers,
            ..
        } => (0..2)
            .map(|i| Item::Exchange {
                player: players[i],
                follower: followers[i].clone(),
                rule: rule.clone(),
            })
            .collect(),
        other => held_event(&other)
            .or_else(|| one_seat(other))
            .into_iter()
            .collect(),
    };
    out.extend(items);
}

/// The item of an event that concerns one seat (or none), if compared.
fn one_seat(e: Event) -> Option<Item> {
    Some(match e {
        Event::Return {
            player,
            follower,
            rule,
            ..
        } => Item::Return {
            player,
            follower,
            rule,
        },
        // A figure on top of a stack going home reads as any return (PD-6's Reading).
        Event::TopReturn {
            player,
            follower,
            rule,
            ..
        } => Item::Return {
            player,
            follower,
            rule: Some(rule),
        },
        Event::Gain {
            rule,
            player,
            resource,
            amount,
            spent,
            ..
        } => Item::Gain {
            player,
            resource,
            amount,
            spent,
            rule,
        },
        Event::Token {
            rule,
            token,
            player,
            ..
        } => Item::Token {
            player,
            token,
            rule,
        },
        Event::Counters {
            rule,
            counter,
            x,
            y,
            added,
            ..
        } => Item::Counters {
            counter,
            at: [x, y],
            added,
            rule,
        },
        Event::Collect {
            rule,
            counter,
            player,
            amount,
            ..
        } => Item::Collect {
            player,
            counter,
            amount,
            rule,
        },
        _ => return None,
    })
}

/// The item of a capture or a buy-back (TO-4, TO-7), if `e` is one.
fn held_event(e: &Event) -> Option<Item> {
    Some(match e.clone() {
        Event::Capture {
            rule,
            player,
            owner,
            follower,
            ..
        } => Item::Capture {
            player,
            owner,
            follower,
            rule,
        },
        Event::Redeem {
            rule,
            player,
            follower,
            points,
            ..
        } => Item::Redeem {
            player,
            follower,
            points,
            rule,
        },
        _ => return None,
    })
}

/// The items a scenario expects, each with its position, sorted.
pub(super) fn expected_items(exp: &[Expected]) -> Vec<(Item, Pos)> {
    let mut out = Vec::new();
    for e in exp {
        expected(e, &mut out);
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn expected(e: &Expected, out: &mut Vec<(Item, Pos)>) {
    let pos = e.pos();
    let mut push = |item: Item| out.push((item, pos));
    match e.clone() {
        Expected::Score {
            kind,
            players,
            points,
            rule,
            ..
        } => players.iter().for_each(|&player| {
            let kind = kind_name(kind);
            push(Item::Score {
                player,
                kind,
                points,
                rule: rule.clone(),
            })
        }),
        Expected::Points {
            players,
            points,
            rule,
            ..
        } => players.iter().for_each(|&player| {
            push(Item::Points {
                player,
                points,
                rule: rule.clone(),
            })
        }),
        Expected::Return {
            player,
            follower,
            rule,
            count,
            ..
        } => (0..count).for_each(|_| {
            push(Item::Return {
                player,
                follower: follower.clone(),
                rule: rule.clone(),
            })
        }),
        Expected::Award {
            players,
            resource,
            points,
            rule,
            ..
        } => players.iter().for_each(|&player| {
            push(Item::Award {
                player,
                resource: resource.clone(),
                points,
                rule: rule.clone(),
            })
        }),
        other => expected_one(other).into_iter().for_each(push),
    }
}

/// The item of an expected event of one seat (`None` for the others, listed seat by seat).
fn expected_one(e: Expected) -> Option<Item> {
    Some(match e {
        Expected::Gain {
            player,
            resource,
            amount,
            spent,
            rule,
            ..
        } => Item::Gain {
            player,
            resource,
            amount,
            spent,
            rule,
        },
        Expected::Token {
            player,
            token,
            rule,
            ..
        } => Item::Token {
            player,
            token,
            rule,
        },
        Expected::Counters {
            counter,
            at,
            added,
            rule,
            ..
        } => Item::Counters {
            counter,
            at,
            added,
            rule,
        },
        Expected::Collect {
            player,
            counter,
            amount,
            rule,
            ..
        } => Item::Collect {
            player,
            counter,
            amount,
            rule,
        },
        Expected::Capture { .. } | Expected::Exchange { .. } | Expected::Redeem { .. } => {
            return expected_held(e)
        }
        Expected::Score { .. }
        | Expected::Points { .. }
        | Expected::Return { .. }
        | Expected::Award { .. } => return None,
    })
}

/// The item of an expected capture, exchange or buy-back (TO-4, TO-6, TO-7).
fn expected_held(e: Expected) -> Option<Item> {
    Some(match e {
        Expected::Capture {
            player,
            owner,
            follower,
            rule,
            ..
        } => Item::Capture {
            player,
            owner,
            follower,
            rule,
        },
        Expected::Exchange {
            player,
            follower,
            rule,
            ..
        } => Item::Exchange {
            player,
            follower,
            rule,
        },
        Expected::Redeem {
            player,
            follower,
            points,
            rule,
            ..
        } => Item::Redeem {
            player,
            follower,
            points,
            rule,
        },
        _ => return None,
    })
}

/// Items in words, or "no … events".
pub(super) fn show(items: &[Item]) -> String {
    if items.is_empty() {
        "no score, points, return, gain, award, token, counters, collect, capture, exchange or \
         redeem events"
            .to_string()
    } else {
        let words: Vec<String> = items.iter().map(|i| i.to_string()).collect();
        words.join("; ")
    }
}
