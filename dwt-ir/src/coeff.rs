//! Lifting coefficients: exact rationals (integers and dyadic rationals included) or floats.

use std::fmt;

use num_rational::Rational64;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// One coefficient of a lifting tap.
///
/// Exact coefficients stay exact through every derivation (inverse, polyphase products), so integer
/// wavelets are analysed without rounding; a float only appears where the user wrote one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Coeff {
    Exact(Rational64),
    Float(f64),
}

impl Coeff {
    pub fn int(n: i64) -> Self {
        Coeff::Exact(Rational64::from_integer(n))
    }

    pub fn ratio(num: i64, den: i64) -> Self {
        Coeff::Exact(Rational64::new(num, den))
    }

    pub fn zero() -> Self {
        Coeff::int(0)
    }

    pub fn one() -> Self {
        Coeff::int(1)
    }

    pub fn is_zero(&self) -> bool {
        match self {
            Coeff::Exact(r) => r.is_zero(),
            Coeff::Float(f) => *f == 0.0,
        }
    }

    pub fn is_float(&self) -> bool {
        matches!(self, Coeff::Float(_))
    }

    /// The value as an integer, when it is an exact integer.
    pub fn as_integer(&self) -> Option<i64> {
        match self {
            Coeff::Exact(r) if r.is_integer() => Some(*r.numer()),
            _ => None,
        }
    }

    pub fn to_f64(&self) -> f64 {
        match self {
            Coeff::Exact(r) => r.to_f64().unwrap_or(f64::NAN),
            Coeff::Float(f) => *f,
        }
    }

    pub fn abs(&self) -> Self {
        match self {
            Coeff::Exact(r) => Coeff::Exact(r.abs()),
            Coeff::Float(f) => Coeff::Float(f.abs()),
        }
    }

    pub fn is_negative(&self) -> bool {
        match self {
            Coeff::Exact(r) => r.is_negative(),
            Coeff::Float(f) => *f < 0.0,
        }
    }

    pub fn is_one(&self) -> bool {
        match self {
            Coeff::Exact(r) => r.is_one(),
            Coeff::Float(f) => *f == 1.0,
        }
    }

    /// `None` on overflow of the exact representation (a numerator or denominator of `i64::MIN`
    /// included, so that negating and inverting never overflow) or division by zero.
    pub fn checked_add(self, rhs: Self) -> Option<Self> {
        match (self, rhs) {
            (Coeff::Exact(a), Coeff::Exact(b)) => checked_ratio(
                *a.numer() as i128 * *b.denom() as i128 + *b.numer() as i128 * *a.denom() as i128,
                *a.denom() as i128 * *b.denom() as i128,
            ),
            (a, b) => Some(Coeff::Float(a.to_f64() + b.to_f64())),
        }
    }

    pub fn checked_mul(self, rhs: Self) -> Option<Self> {
        match (self, rhs) {
            (Coeff::Exact(a), Coeff::Exact(b)) => checked_ratio(
                *a.numer() as i128 * *b.numer() as i128,
                *a.denom() as i128 * *b.denom() as i128,
            ),
            (a, b) => Some(Coeff::Float(a.to_f64() * b.to_f64())),
        }
    }

    pub fn checked_div(self, rhs: Self) -> Option<Self> {
        if rhs.is_zero() {
            return None;
        }
        self.checked_mul(rhs.recip()?)
    }

    pub fn recip(self) -> Option<Self> {
        match self {
            Coeff::Exact(r) if r.is_zero() => None,
            Coeff::Exact(r) => Some(Coeff::Exact(r.recip())),
            Coeff::Float(f) => Some(Coeff::Float(1.0 / f)),
        }
    }

    // `neg`, `mul` and `add` are methods rather than operator impls on purpose: `mul` and `add`
    // silently fall back to floats on overflow, which an operator would hide at the call site.
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Self {
        match self {
            Coeff::Exact(r) => Coeff::Exact(-r),
            Coeff::Float(f) => Coeff::Float(-f),
        }
    }

    /// Multiplication for derivations whose inputs were validated small; overflow saturates to a float.
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, rhs: Self) -> Self {
        self.checked_mul(rhs)
            .unwrap_or(Coeff::Float(self.to_f64() * rhs.to_f64()))
    }

    /// Addition, saturating to a float on overflow like [`Coeff::mul`].
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, rhs: Self) -> Self {
        self.checked_add(rhs)
            .unwrap_or(Coeff::Float(self.to_f64() + rhs.to_f64()))
    }
}

fn checked_ratio(num: i128, den: i128) -> Option<Coeff> {
    if den == 0 {
        return None;
    }
    let g = gcd(num.unsigned_abs(), den.unsigned_abs()).max(1) as i128;
    let (mut n, mut d) = (num / g, den / g);
    if d < 0 {
        n = -n;
        d = -d;
    }
    // i64::MIN has no negation: every derivation (the inverse, a reciprocal) negates.
    let exact = |v: i128| i64::try_from(v).ok().filter(|&v| v != i64::MIN);
    Some(Coeff::Exact(Rational64::new_raw(exact(n)?, exact(d)?)))
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Prints a coefficient so that the parser reads back the same value: integers plainly, rationals as
/// `n/d`, floats with the shortest representation that round-trips.
impl fmt::Display for Coeff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Coeff::Exact(r) if r.is_integer() => write!(f, "{}", r.numer()),
            Coeff::Exact(r) => write!(f, "{}/{}", r.numer(), r.denom()),
            Coeff::Float(x) => {
                let s = format!("{x:?}");
                f.write_str(&s)
            }
        }
    }
}
