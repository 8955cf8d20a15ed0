//! What a transform request is made of besides the wavelet: the element type and the layout of the
//! bands. Shared by the emitters and the runtime so that both name them the same way.

use crate::ElementKind;

/// Where the bands of a level are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// In place: after a level, low samples stay at even positions and high ones at odd positions;
    /// the next level works on every `2^level`-th sample.
    Interleaved,
    /// De-interleaved per axis: low samples first, then high (LL top-left, HL top-right, LH
    /// bottom-left, HH bottom-right), recursing into the low corner, as `pywt.coeffs_to_array`.
    Mallat,
}

impl Layout {
    pub fn name(self) -> &'static str {
        match self {
            Layout::Interleaved => "interleaved",
            Layout::Mallat => "mallat",
        }
    }
}

/// A storage element type. Integers lift in 32-bit two's-complement (wrapping) arithmetic and are
/// stored back after every pass; floats lift in their own precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    I16,
    I32,
    F32,
    F64,
}

impl ElementType {
    pub const ALL: [ElementType; 4] = [
        ElementType::I16,
        ElementType::I32,
        ElementType::F32,
        ElementType::F64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ElementType::I16 => "i16",
            ElementType::I32 => "i32",
            ElementType::F32 => "f32",
            ElementType::F64 => "f64",
        }
    }

    pub fn kind(self) -> ElementKind {
        match self {
            ElementType::I16 | ElementType::I32 => ElementKind::Integer,
            ElementType::F32 | ElementType::F64 => ElementKind::Float,
        }
    }

    pub fn size(self) -> usize {
        match self {
            ElementType::I16 => 2,
            ElementType::I32 | ElementType::F32 => 4,
            ElementType::F64 => 8,
        }
    }
}
