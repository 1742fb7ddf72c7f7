//! Statistics for comparing variants (`tegula simulate --compare`): sample means with a 95 %
//! confidence interval (normal approximation, which the central limit theorem makes good for
//! the hundreds or thousands of games a comparison plays), and tests of whether two samples'
//! means differ at the 5 % level: Welch's unequal-variance z-test for independent samples, and
//! the paired test for games played with the same seeds under two variants.

/// The z value of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A sample's size, mean and variance, accumulated one value at a time (Welford's method: no
/// loss of precision on long runs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sample {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Sample {
    /// Add one observation.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// A sample of the values of `xs`.
    pub fn of(xs: impl IntoIterator<Item = f64>) -> Sample {
        let mut s = Sample::default();
        for x in xs {
            s.add(x);
        }
        s
    }

    /// Number of observations.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// The mean (0 for an empty sample).
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// The unbiased sample variance (0 with fewer than 2 observations).
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }

    /// The standard error of the mean.
    pub fn std_error(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            (self.variance() / self.n as f64).sqrt()
        }
    }

    /// The 95 % confidence interval of the mean, `(low, high)`.
    pub fn ci95(&self) -> (f64, f64) {
        let h = Z95 * self.std_error();
        (self.mean - h, self.mean + h)
    }
}

/// The difference of two sample means `b - a` with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// `b.mean - a.mean`.
    pub diff: f64,
    /// Low end of the 95 % interval of the difference.
    pub low: f64,
    /// High end.
    pub high: f64,
}

impl Difference {
    /// Whether the interval excludes 0: the means differ at the 5 % level.
    pub fn significant(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }

    /// The two-sided p-value of "no difference", from the interval's own standard error (the
    /// same normal approximation, so `p < 0.05` exactly when [`Difference::significant`]). A
    /// zero-width interval: 0 when the difference is not 0, else 1.
    pub fn p_value(&self) -> f64 {
        let se = (self.high - self.low) / (2.0 * Z95);
        if !(se > 0.0 && se.is_finite()) {
            return if self.diff == 0.0 { 1.0 } else { 0.0 };
        }
        erfc((self.diff / se).abs() / std::f64::consts::SQRT_2)
    }
}

/// Holm–Bonferroni adjusted p-values, in the order given: with `m` tests sorted by p, the
/// `k`-th smallest (from 0) is multiplied by `m - k`, then each is raised to the largest
/// adjusted value before it (and capped at 1). A test is significant at family-wise level
/// `α` when its adjusted p is below `α`: the chance of any false finding among the `m` stays
/// at most `α`, where the unadjusted 5 % level would find one in twenty of equal metrics.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut out = vec![1.0; m];
    let mut running = 0.0f64;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// The complementary error function for `x >= 0` (a Chebyshev fit of `exp(-x²) · erfc`,
/// relative error below 1.2e-7: plenty for p-values).
fn erfc(x: f64) -> f64 {
    const C: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let t = 1.0 / (1.0 + 0.5 * x);
    let poly = C.iter().rev().fold(0.0, |acc, c| c + t * acc);
    t * (-x * x + poly).exp()
}

/// `b - a` with Welch's standard error (the two samples are independent games).
pub fn difference(a: &Sample, b: &Sample) -> Difference {
    let diff = b.mean() - a.mean();
    let se = (a.std_error().powi(2) + b.std_error().powi(2)).sqrt();
    Difference {
        diff,
        low: diff - Z95 * se,
        high: diff + Z95 * se,
    }
}

/// `b - a` for matched pairs (`a[i]` and `b[i]` from the same game seed under two variants):
/// the interval of the mean per-pair difference. Much narrower than [`difference`] when the
/// pairs move together, and valid either way since the pairs are independent of each other.
pub fn paired(a: &[f64], b: &[f64]) -> Difference {
    let d = Sample::of(a.iter().zip(b).map(|(x, y)| y - x));
    let (low, high) = d.ci95();
    Difference {
        diff: d.mean(),
        low,
        high,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_variance_and_interval_by_hand() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum 32, variance 32/7.
        let s = Sample::of([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.n(), 8);
        assert!((s.mean() - 5.0).abs() < 1e-12);
        assert!((s.variance() - 32.0 / 7.0).abs() < 1e-12);
        let se = (32.0 / 7.0 / 8.0f64).sqrt();
        let (lo, hi) = s.ci95();
        assert!((lo - (5.0 - Z95 * se)).abs() < 1e-12 && (hi - (5.0 + Z95 * se)).abs() < 1e-12);
    }

    #[test]
    fn degenerate_samples_have_no_spread() {
        assert_eq!(Sample::default().ci95(), (0.0, 0.0));
        assert_eq!(Sample::of([3.0]).ci95(), (3.0, 3.0));
    }

    #[test]
    fn p_values_match_the_interval() {
        // The interval's edge at 0 is p = 0.05; 1.96 standard errors out likewise.
        let edge = Difference {
            diff: Z95,
            low: 0.0,
            high: 2.0 * Z95,
        };
        assert!((edge.p_value() - 0.05).abs() < 1e-6, "{}", edge.p_value());
        let three = Difference {
            diff: -3.0,
            low: -3.0 - Z95,
            high: -3.0 + Z95,
        };
        assert!((three.p_value() - 0.002_699_8).abs() < 1e-6);
        let none = Difference {
            diff: 0.0,
            low: 0.0,
            high: 0.0,
        };
        assert_eq!(none.p_value(), 1.0);
        let sure = Difference {
            diff: 1.0,
            low: 1.0,
            high: 1.0,
        };
        assert_eq!(sure.p_value(), 0.0);
    }

    #[test]
    fn holm_adjusts_in_order_and_can_undo_a_raw_finding() {
        // Three tests with raw p 0.01, 0.04, 0.03: all below 0.05 alone; Holm multiplies the
        // smallest by 3, the next by 2 (0.06), the largest by 1 raised to 0.06.
        let adj = holm(&[0.01, 0.04, 0.03]);
        let want = [0.03, 0.06, 0.06];
        for (a, w) in adj.iter().zip(want) {
            assert!((a - w).abs() < 1e-12, "{adj:?}");
        }
        assert_eq!(adj.iter().filter(|&&a| a < 0.05).count(), 1);
        assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn differences_are_significant_only_beyond_the_noise() {
        let a = Sample::of((0..100).map(|i| f64::from(i % 10)));
        let same = Sample::of((0..100).map(|i| f64::from((i + 3) % 10)));
        assert!(!difference(&a, &same).significant());
        let shifted = Sample::of((0..100).map(|i| f64::from(i % 10) + 2.0));
        let d = difference(&a, &shifted);
        assert!((d.diff - 2.0).abs() < 1e-12);
        assert!(d.significant());
        assert!(difference(&shifted, &a).high < 0.0);
    }

    #[test]
    fn paired_differences_see_a_small_shift_the_noise_hides() {
        // Pairs that move together: b = a + 0.5 exactly. Unpaired, the spread of a (0..9)
        // hides the shift; paired, every difference is 0.5.
        let a: Vec<f64> = (0..40).map(|i| f64::from(i % 10)).collect();
        let b: Vec<f64> = a.iter().map(|x| x + 0.5).collect();
        assert!(!difference(&Sample::of(a.clone()), &Sample::of(b.clone())).significant());
        let d = paired(&a, &b);
        assert_eq!((d.diff, d.low, d.high), (0.5, 0.5, 0.5));
        assert!(d.significant());
        assert!(!paired(&a, &a).significant());
    }
}
