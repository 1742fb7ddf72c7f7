//! Adding up points. A game's points cannot be bounded below `u32::MAX` (see
//! `tegula_ruleset::limits`), so every total of points — a seat's score, an ability's takings, a
//! score's breakdown by kind, a sum over seats — saturates there, in debug and release builds
//! alike: a breakdown then agrees with the score it explains instead of panicking or wrapping.

/// Add `points` to `total`; a total that would pass `u32::MAX` stays there.
#[inline]
pub fn add(total: &mut u32, points: u32) {
    *total = total.saturating_add(points);
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
    }
}
