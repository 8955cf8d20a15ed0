//! The lifting IR: a wavelet as a program of lifting steps over Laurent polynomials, the parser of
//! the wavelet language (shared by the `lifting!` macro and run-time description files), its
//! pretty-printer, and the facts kernels need (inverse, supports, filters, op counts, window
//! geometry).

mod analysis;
mod coeff;
mod display;
mod laurent;
pub mod parse;
mod program;
mod spec;
mod tile;
mod transform;

pub use analysis::{Filter, OpCounts, PolyphaseMatrix, SlidingWindow, WindowGeometry};
pub use coeff::Coeff;
pub use laurent::Laurent;
pub use parse::{parse_str, parse_wavelet, ParseError};
pub use program::{Boundary, Direction, ElementKind, Op, Phase, Program, Sign, Step, Wavelet};
pub use spec::{KernelSource, WaveletSpec};
pub use tile::{Halo, TileHalo};
pub use transform::{ElementType, Layout};

/// Re-exported so generated code can name it through this crate.
#[doc(hidden)]
pub mod __private {
    pub use std::sync::OnceLock;
}
