//! Values of the shape most variants use, `c + k₁ × q₁ + k₂ × q₂` (the standard rules' values
//! all are), evaluated without walking the expression tree. The engine recognises them once,
//! when it builds its tables, and scores a feature with a few multiplications instead of a
//! recursive walk of boxed nodes.

use crate::value::{Counts, Expr, Quantity};

/// Most counted terms a [`Linear`] keeps (`tiles` and `pennants` of a city value).
const MAX_TERMS: usize = 2;

/// `constant + Σ factor × count`, with [`Expr::eval`]'s saturating arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Linear {
    constant: u32,
    terms: [(u32, Quantity); MAX_TERMS],
    len: u8,
}

impl Linear {
    /// The value `e` as a sum of a constant and at most two products of a constant and a
    /// count, or `None` when it is of another shape (branches, citations, differences,
    /// products of counts): those are evaluated as trees.
    pub fn of(e: &Expr) -> Option<Linear> {
        let mut lin = Linear {
            constant: 0,
            terms: [(0, Quantity::Tiles); MAX_TERMS],
            len: 0,
        };
        lin.add(e)?;
        Some(lin)
    }

    /// Add the terms of `e` (a sum of constants, counts and constant × count).
    fn add(&mut self, e: &Expr) -> Option<()> {
        match e {
            Expr::Int(n) => self.constant = self.constant.saturating_add(*n),
            Expr::Count(q) => self.term(1, *q)?,
            Expr::Mul(a, b) => match (&**a, &**b) {
                (Expr::Int(k), Expr::Count(q)) | (Expr::Count(q), Expr::Int(k)) => {
                    self.term(*k, *q)?
                }
                (Expr::Int(a), Expr::Int(b)) => {
                    self.constant = self.constant.saturating_add(a.saturating_mul(*b))
                }
                _ => return None,
            },
            Expr::Add(a, b) => {
                self.add(a)?;
                self.add(b)?;
            }
            Expr::Sub(..) | Expr::If(..) | Expr::Cite(..) => return None,
        }
        Some(())
    }

    fn term(&mut self, k: u32, q: Quantity) -> Option<()> {
        let slot = self.terms.get_mut(usize::from(self.len))?;
        *slot = (k, q);
        self.len += 1;
        Some(())
    }

    /// What [`Expr::eval`] gives for the expression this was made from. Every part is at
    /// least 0, so saturating each product and the running sum equals saturating the tree's
    /// sums and products in its own order; the counts are asked in the tree's order.
    #[inline]
    pub fn eval(&self, c: &mut impl Counts) -> u32 {
        let terms = &self.terms[..usize::from(self.len)];
        terms.iter().fold(self.constant, |v, &(k, q)| {
            v.saturating_add(k.saturating_mul(c.count(q)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::ScoringNumbers;

    /// Counts from a table (tiles, pennants, neighbours, cities), large enough to saturate.
    struct Table([u32; 4]);

    impl Counts for Table {
        fn count(&mut self, q: Quantity) -> u32 {
            match q {
                Quantity::Tiles => self.0[0],
                Quantity::Pennants => self.0[1],
                Quantity::Neighbours => self.0[2],
                Quantity::Cities => self.0[3],
                _ => 7,
            }
        }
    }

    /// The standard values and a few other sums are linear and agree with the tree walk, up to
    /// saturation; other shapes are refused.
    #[test]
    fn linear_values_agree_with_the_tree() {
        let std = ScoringNumbers::default().values();
        let mut exprs: Vec<Expr> = std.entries().iter().map(|e| e.2.clone()).collect();
        let big = u32::MAX / 3;
        exprs.push(Expr::plus(Expr::Int(big), Expr::per(big, Quantity::Tiles)));
        exprs.push(Expr::Mul(Box::new(Expr::Int(4)), Box::new(Expr::Int(big))));
        exprs.push(Expr::plus(Expr::Count(Quantity::Cities), Expr::Int(5)));
        for e in &exprs {
            let lin = Linear::of(e).unwrap_or_else(|| panic!("{e:?} is linear"));
            for counts in [[0, 0, 0, 0], [3, 1, 8, 2], [u32::MAX, 9, 1, u32::MAX / 2]] {
                assert_eq!(
                    lin.eval(&mut Table(counts)),
                    e.eval(&mut Table(counts)),
                    "{e:?}"
                );
            }
        }
        let tiles = || Box::new(Expr::Count(Quantity::Tiles));
        let three = Expr::plus(
            Expr::per(1, Quantity::Tiles),
            Expr::plus(
                Expr::per(1, Quantity::Pennants),
                Expr::Count(Quantity::Cities),
            ),
        );
        let refused = [
            Expr::Mul(tiles(), tiles()),
            Expr::Sub(tiles(), Box::new(Expr::Int(1))),
            Expr::Cite("B-4".into(), tiles()),
            three,
        ];
        for e in &refused {
            assert_eq!(Linear::of(e), None, "{e:?}");
        }
    }
}
