//! Adding up points. A game's points cannot be bounded below `u32::MAX` (see
//! `tegula_ruleset::limits`), so every total of points — a seat's score, an ability's takings, a
//! score's breakdown by kind, a sum over seats — saturates there, in debug and release builds
//! alike: a breakdown then agrees with the score it explains instead of panicking or wrapping.

/// Add `points` to `total`; a total that would pass `u32::MAX` stays there.
#[inline]
pub fn add(total: &mut u32, points: u32) {
    *total = total.saturating_add(points);
}

/// A seat's score: signed, so that a rule may take a seat below 0 (a buy-back dearer than the
/// seat's points, TO-7's other reading); it never passes `u32::MAX`, and a score of 0 or more
/// prints as it did when scores were unsigned, so logs of games without such a rule are
/// unchanged.
pub type Score = i64;

/// Add `points` to the score `total`; a score that would pass `u32::MAX` stays there.
#[inline]
pub fn credit(total: &mut Score, points: u32) {
    *total = total
        .saturating_add(Score::from(points))
        .min(Score::from(u32::MAX));
}

/// Take `points` from the score `total` (it may go below 0).
#[inline]
pub fn debit(total: &mut Score, points: u32) {
    *total = total.saturating_sub(Score::from(points));
}

/// The sum of `points`, saturating at `u32::MAX` like [`add`].
pub fn sum(points: impl IntoIterator<Item = u32>) -> u32 {
    points.into_iter().fold(0, u32::saturating_add)
}

#[cfg(test)]
mod tests {
    #[test]
    fn totals_stop_at_the_largest_score() {
        let mut t = u32::MAX - 1;
        super::add(&mut t, 5);
        assert_eq!(t, u32::MAX);
        assert_eq!(super::sum([u32::MAX, 1, 2]), u32::MAX);
        assert_eq!(super::sum([1, 2, 3]), 6);
        let mut s = super::Score::from(u32::MAX) - 1;
        super::credit(&mut s, 5);
        assert_eq!(s, super::Score::from(u32::MAX));
        let mut s = 1;
        super::debit(&mut s, 3);
        assert_eq!(s, -2);
        super::credit(&mut s, 3);
        assert_eq!(s, 1);
    }
}
