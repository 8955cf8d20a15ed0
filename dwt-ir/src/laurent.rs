//! Laurent polynomials over [`Coeff`]: the taps of a lifting step, kept as polynomials so that later
//! derivations (polyphase products, non-separable 2-D schemes) can multiply them.

use std::collections::BTreeMap;

use crate::Coeff;

/// `sum_k c_k z^k`, where the term `k` of a step's taps reads the other phase at polyphase offset `k`
/// (`even[k]` or `odd[k]` in the macro). Zero coefficients are never stored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Laurent {
    terms: BTreeMap<i32, Coeff>,
}

impl Laurent {
    pub fn zero() -> Self {
        Self::default()
    }

    pub fn constant(c: Coeff) -> Self {
        Self::monomial(0, c)
    }

    pub fn monomial(k: i32, c: Coeff) -> Self {
        let mut p = Self::zero();
        p.add_term(k, c);
        p
    }

    pub fn from_terms(terms: impl IntoIterator<Item = (i32, Coeff)>) -> Self {
        let mut p = Self::zero();
        for (k, c) in terms {
            p.add_term(k, c);
        }
        p
    }

    pub fn add_term(&mut self, k: i32, c: Coeff) {
        let sum = match self.terms.get(&k) {
            Some(old) => old.add(c),
            None => c,
        };
        if sum.is_zero() {
            self.terms.remove(&k);
        } else {
            self.terms.insert(k, sum);
        }
    }

    /// Terms in increasing order of offset.
    pub fn terms(&self) -> impl Iterator<Item = (i32, Coeff)> + '_ {
        self.terms.iter().map(|(k, c)| (*k, *c))
    }

    pub fn coeff(&self, k: i32) -> Coeff {
        self.terms.get(&k).copied().unwrap_or(Coeff::zero())
    }

    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn len(&self) -> usize {
        self.terms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Lowest and highest offset with a non-zero coefficient.
    pub fn degree_range(&self) -> Option<(i32, i32)> {
        Some((*self.terms.keys().next()?, *self.terms.keys().next_back()?))
    }

    pub fn scaled(&self, c: Coeff) -> Self {
        Self::from_terms(self.terms().map(|(k, x)| (k, x.mul(c))))
    }

    pub fn neg(&self) -> Self {
        self.scaled(Coeff::int(-1))
    }

    pub fn add(&self, other: &Self) -> Self {
        let mut p = self.clone();
        for (k, c) in other.terms() {
            p.add_term(k, c);
        }
        p
    }

    pub fn mul(&self, other: &Self) -> Self {
        let mut p = Self::zero();
        for (a, x) in self.terms() {
            for (b, y) in other.terms() {
                p.add_term(a + b, x.mul(y));
            }
        }
        p
    }

    /// Drops float terms whose magnitude is negligible next to the largest one: cancellation in
    /// floating point rarely gives an exact zero.
    pub fn without_float_noise(&self) -> Self {
        let max = self
            .terms()
            .map(|(_, c)| c.to_f64().abs())
            .fold(0.0, f64::max);
        Self::from_terms(
            self.terms()
                .filter(|(_, c)| !c.is_float() || c.to_f64().abs() > max * 1e-12),
        )
    }
}
