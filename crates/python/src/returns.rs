//! What a finished game pays each seat: its final score, or its rank against the other seats
//! (`returns="rank"`, as the OpenSpiel adapter's): wins minus losses against each other seat,
//! over `players - 1`, in `[-1, 1]` and zero-sum (+1 / 0 / -1 for two seats).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The kind of returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    /// Each seat's final score.
    Score,
    /// Wins minus losses against the other seats, over `players - 1`.
    Rank,
}

impl Returns {
    /// `"score"` or `"rank"`; anything else is a `ValueError` naming both.
    pub fn parse(text: &str) -> PyResult<Returns> {
        match text {
            "score" => Ok(Returns::Score),
            "rank" => Ok(Returns::Rank),
            _ => Err(PyValueError::new_err(format!(
                "returns={text:?}: one of \"score\", \"rank\""
            ))),
        }
    }

    /// The returns of final `scores` into `out` (one per seat).
    pub fn fill(self, scores: &[i64], out: &mut [f32]) {
        let others = scores.len().saturating_sub(1).max(1) as f32;
        for (r, &s) in out.iter_mut().zip(scores) {
            *r = match self {
                Returns::Score => s as f32,
                Returns::Rank => {
                    let beats = scores.iter().map(|&t| i32::from(s > t) - i32::from(s < t));
                    beats.sum::<i32>() as f32 / others
                }
            };
        }
    }
}
