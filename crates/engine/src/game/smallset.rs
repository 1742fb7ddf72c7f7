//! Distinct counts without sorting: a fixed bit set of small numbers (segment indices, tile
//! cells), for the features scored during a game. Sorting a few numbers and dropping repeats
//! takes branches that follow the data; setting bits and counting the new ones takes none.

/// Numbers below [`SmallSet::CAP`], each counted once however often inserted.
pub(super) struct SmallSet {
    words: [u64; Self::WORDS],
    len: u32,
}

impl SmallSet {
    const WORDS: usize = 16;
    /// One more than the greatest number the set holds.
    pub(super) const CAP: u32 = (Self::WORDS * 64) as u32;

    /// The empty set.
    #[inline(always)]
    pub(super) fn new() -> SmallSet {
        SmallSet {
            words: [0; Self::WORDS],
            len: 0,
        }
    }

    /// Insert `i` (below [`SmallSet::CAP`]) when `keep` holds, without branching on either.
    #[inline(always)]
    pub(super) fn insert_if(&mut self, i: u32, keep: bool) {
        let w = &mut self.words[(i >> 6) as usize % Self::WORDS];
        let bit = u64::from(keep) << (i & 63);
        self.len += ((!*w & bit) != 0) as u32;
        *w |= bit;
    }

    /// How many distinct numbers were inserted.
    #[inline(always)]
    pub(super) fn len(&self) -> u32 {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::SmallSet;

    #[test]
    fn counts_each_number_once_and_only_the_kept() {
        let mut s = SmallSet::new();
        for (i, keep) in [
            (0, true),
            (63, true),
            (64, true),
            (0, true),
            (1023, true),
            (5, false),
        ] {
            s.insert_if(i, keep);
        }
        s.insert_if(63, true);
        assert_eq!(s.len(), 4);
        assert_eq!(SmallSet::CAP, 1024);
    }
}
