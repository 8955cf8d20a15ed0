//! Element types a transform runs on, and the arithmetic each computes in.
//!
//! Integers lift in `i32` with two's-complement wrapping (the arithmetic a GPU kernel does, so every
//! backend can agree bit for bit), and are stored back to the element type after every line.

use std::fmt::Debug;

use dwt_ir::{Coeff, ElementKind, ElementType};

use crate::Samples;

/// The arithmetic of lifting: `i32` for integer elements, the float type itself for floats.
pub trait Work: Copy + Debug + PartialEq + Send + Sync + 'static {
    fn coeff(c: Coeff) -> Self;
    fn integer(v: i64) -> Self;
    fn add(self, rhs: Self) -> Self;
    fn sub(self, rhs: Self) -> Self;
    fn mul(self, rhs: Self) -> Self;
    /// Floor shift for integers; floats never have a shift.
    fn shr(self, s: u32) -> Self;
    /// `x * 2^s`.
    fn pre_shift(self, s: u32) -> Self;
    /// `(x + 2^(s-1)) >> s`, undoing [`Work::pre_shift`] after synthesis.
    fn undo_pre_shift(self, s: u32) -> Self;
}

impl Work for i32 {
    fn coeff(c: Coeff) -> Self {
        // The parser only lets integer taps into integer wavelets; larger ones wrap like the GPU would.
        c.as_integer().map_or(0, |v| v as i32)
    }
    fn integer(v: i64) -> Self {
        v as i32
    }
    fn add(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
    fn sub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
    fn mul(self, rhs: Self) -> Self {
        self.wrapping_mul(rhs)
    }
    fn shr(self, s: u32) -> Self {
        self >> s
    }
    fn pre_shift(self, s: u32) -> Self {
        self.wrapping_shl(s)
    }
    fn undo_pre_shift(self, s: u32) -> Self {
        if s == 0 {
            self
        } else {
            self.wrapping_add(1 << (s - 1)) >> s
        }
    }
}

macro_rules! float_work {
    ($t:ty) => {
        impl Work for $t {
            fn coeff(c: Coeff) -> Self {
                c.to_f64() as $t
            }
            fn integer(v: i64) -> Self {
                v as $t
            }
            fn add(self, rhs: Self) -> Self {
                self + rhs
            }
            fn sub(self, rhs: Self) -> Self {
                self - rhs
            }
            fn mul(self, rhs: Self) -> Self {
                self * rhs
            }
            fn shr(self, _s: u32) -> Self {
                self
            }
            fn pre_shift(self, _s: u32) -> Self {
                self
            }
            fn undo_pre_shift(self, _s: u32) -> Self {
                self
            }
        }
    };
}
float_work!(f32);
float_work!(f64);

/// A storage element type: `i16` (lifted in `i32`), `i32`, `f32`, `f64`.
pub trait Element: Copy + Debug + PartialEq + Send + Sync + 'static {
    type Work: Work;
    const KIND: ElementKind;
    const TYPE: ElementType;
    const NAME: &'static str;
    fn to_work(self) -> Self::Work;
    fn from_work(w: Self::Work) -> Self;
    /// The data as backends take it.
    fn samples(data: &mut [Self]) -> Samples<'_>;
    /// The slice back from [`Element::samples`]; `None` for samples of another type.
    fn from_samples(data: Samples<'_>) -> Option<&mut [Self]>;
    /// Whether the value is neither NaN nor infinite (always, for integers).
    fn is_finite(self) -> bool;
}

macro_rules! element {
    ($t:ty, $w:ty, $kind:expr, $variant:ident, $finite:expr) => {
        impl Element for $t {
            type Work = $w;
            const KIND: ElementKind = $kind;
            const TYPE: ElementType = ElementType::$variant;
            fn samples(data: &mut [Self]) -> Samples<'_> {
                Samples::$variant(data)
            }
            fn from_samples(data: Samples<'_>) -> Option<&mut [Self]> {
                match data {
                    Samples::$variant(d) => Some(d),
                    _ => None,
                }
            }
            const NAME: &'static str = stringify!($t);
            fn to_work(self) -> $w {
                self as $w
            }
            fn from_work(w: $w) -> Self {
                w as $t
            }
            fn is_finite(self) -> bool {
                $finite(self)
            }
        }
    };
}
element!(i16, i32, ElementKind::Integer, I16, |_| true);
element!(i32, i32, ElementKind::Integer, I32, |_| true);
element!(f32, f32, ElementKind::Float, F32, f32::is_finite);
element!(f64, f64, ElementKind::Float, F64, f64::is_finite);

/// Of the samples that are NaN or infinite: how many, and the first's index and value.
pub(crate) fn non_finite<E: Element>(data: &[E]) -> Option<(usize, usize, E)> {
    let first = data.iter().position(|x| !x.is_finite())?;
    let count = 1 + data[first + 1..].iter().filter(|x| !x.is_finite()).count();
    Some((count, first, data[first]))
}
