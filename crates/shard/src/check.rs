//! A shard's header is data someone may have edited: it is checked against itself (seats in the
//! engine's range, one agent and one sum per seat, pool figures no larger than the games allow),
//! against its file's game lines (the sums they add up to) and against the variant (its digest,
//! its player range, its pool). Without these checks a merge prints win rates of 1,250 %.

use tegula_engine::{Rules, MAX_PLAYERS};

use crate::{win_unit, ShardHeader, ShardSums};

/// Why a header cannot be the header of a shard `tegula simulate --shard` wrote, judged on the
/// header alone; `None` when it can be.
pub(crate) fn header_problem(h: &ShardHeader) -> Option<String> {
    if !(1..=MAX_PLAYERS).contains(&h.players) {
        return Some(format!(
            "{} players: a game seats 1 to {MAX_PLAYERS}",
            h.players
        ));
    }
    let seats = usize::from(h.players);
    let s = &h.sums;
    if s.seat_scores.len() != seats || s.wins.len() != seats {
        return Some(format!("its sums do not have one entry per seat ({seats})"));
    }
    if h.agents.len() != seats {
        return Some(format!(
            "it names {} agents for {seats} seats",
            h.agents.len()
        ));
    }
    if !s.holdings.is_empty() && Some(s.holdings.len()) != seats.checked_mul(s.resource_ids.len()) {
        return Some(format!(
            "its `holdings` has {} entries for {seats} seats and {} resources",
            s.holdings.len(),
            s.resource_ids.len()
        ));
    }
    let unit = win_unit(h.players).unwrap_or(u64::MAX);
    s.pool.iter().find_map(|(t, p)| {
        let most_wins = p.games.saturating_mul(unit);
        let why = if p.games > s.games {
            "was placed in more games than the shard played"
        } else if p.wins > most_wins {
            "won more than the games it was placed in"
        } else if p.owner_scores > s.total_score
            || i64::try_from(p.ability_points).map_or(true, |a| a > p.owner_scores)
        {
            "scored more than its owners"
        } else {
            return None;
        };
        Some(format!("pool tile {t} (`{}`) {why}", p.id))
    })
}

/// The sums of a shard's game lines, to hold its header to (the lines carry each game's final
/// scores and winners; decisions and pool figures are not in them).
pub struct LineSums {
    players: u8,
    unit: u64,
    sums: ShardSums,
}

impl LineSums {
    /// No lines yet, for a header of `players` seats (checked: 1 to [`MAX_PLAYERS`]).
    pub fn new(players: u8) -> LineSums {
        LineSums {
            players,
            unit: win_unit(players).unwrap_or(1),
            sums: ShardSums::new(players),
        }
    }

    /// Add one game's line (a JSON object with `scores` and `winners`), or say what is wrong
    /// with it.
    pub fn add(&mut self, line: &serde_json::Value) -> Result<(), String> {
        let seats = usize::from(self.players);
        // A score is at most `u32::MAX`; it may be below 0 (a buy-back dearer than the points).
        let scores: Vec<i64> = line
            .get("scores")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|s| s.as_i64()).collect())
            .filter(|s: &Vec<i64>| s.len() == seats && s.iter().all(|&x| x <= i64::from(u32::MAX)))
            .ok_or_else(|| format!("`scores` is not {seats} scores, one per seat"))?;
        let mut winners: Vec<u64> = line
            .get("winners")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|s| s.as_u64()).collect())
            .unwrap_or_default();
        winners.sort_unstable();
        winners.dedup();
        let listed = line.get("winners").and_then(|v| v.as_array()).map(Vec::len);
        if winners.is_empty()
            || listed != Some(winners.len())
            || winners[winners.len() - 1] >= seats as u64
        {
            return Err(format!(
                "`winners` is not a list of distinct seats below {seats}"
            ));
        }
        let s = &mut self.sums;
        let share = self.unit / winners.len() as u64;
        let mut ok = crate::add(&mut s.games, 1);
        for (p, &score) in scores.iter().enumerate() {
            ok &= crate::add_signed(&mut s.seat_scores[p], score)
                & crate::add_signed(&mut s.total_score, score);
        }
        for &w in &winners {
            ok &= crate::add(&mut s.wins[w as usize], share);
        }
        ok.then_some(())
            .ok_or_else(|| "the lines' sums pass 2^64".into())
    }

    /// The first sum in which `header` differs from the lines', in words; `None` when they
    /// agree.
    pub fn mismatch(&self, header: &ShardSums) -> Option<String> {
        let (a, b) = (header, &self.sums);
        let scalar = |x: &dyn ToString, y: &dyn ToString, same: bool| {
            (!same).then(|| (x.to_string(), y.to_string()))
        };
        let list = |x: &dyn std::fmt::Debug, y: &dyn std::fmt::Debug, same: bool| {
            (!same).then(|| (format!("{x:?}"), format!("{y:?}")))
        };
        let (what, (said, real)) = [
            ("games", scalar(&a.games, &b.games, a.games == b.games)),
            (
                "total_score",
                scalar(
                    &a.total_score,
                    &b.total_score,
                    a.total_score == b.total_score,
                ),
            ),
            (
                "seat_scores",
                list(
                    &a.seat_scores,
                    &b.seat_scores,
                    a.seat_scores == b.seat_scores,
                ),
            ),
            ("wins", list(&a.wins, &b.wins, a.wins == b.wins)),
        ]
        .into_iter()
        .find_map(|(what, d)| Some((what, d?)))?;
        Some(format!(
            "its header's `sums.{what}` is {said}, but its game lines add up to {real}"
        ))
    }
}

/// Why `header` cannot be a shard of a run of the variant `rules`: another variant or other
/// rules (the digest), players the variant does not seat, pool tiles it has not; `None` when
/// it can be.
pub fn variant_problem(header: &ShardHeader, rules: &Rules) -> Option<String> {
    let ruleset = rules.ruleset();
    let digest = crate::variant_digest(rules);
    if header.variant != ruleset.id || header.variant_digest != digest {
        return Some(format!(
            "the shard is of variant `{}` (digest {}), not of `{}` (digest {digest})",
            header.variant, header.variant_digest, ruleset.id
        ));
    }
    if !(ruleset.min_players..=ruleset.max_players).contains(&header.players) {
        return Some(format!(
            "{} players, but `{}` seats {} to {}",
            header.players, ruleset.id, ruleset.min_players, ruleset.max_players
        ));
    }
    let pool: &[u16] = ruleset.pool.as_ref().map_or(&[], |p| &p.tiles);
    header.sums.pool.iter().find_map(|(&t, p)| {
        let known = pool.contains(&t) && usize::from(t) < ruleset.tiles.len();
        (!known || rules.tile_id(t) != p.id).then(|| {
            if pool.is_empty() {
                format!(
                    "pool tile {t} (`{}`), but `{}` has no pool",
                    p.id, ruleset.id
                )
            } else {
                format!(
                    "pool tile {t} (`{}`) is not a pool tile of `{}`",
                    p.id, ruleset.id
                )
            }
        })
    })
}
