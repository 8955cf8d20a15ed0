//! The trait every `lifting!`-declared wavelet type implements.

use crate::{Program, Wavelet, WindowGeometry};

/// A wavelet known at compile time: the type `lifting!` generates for each declaration.
///
/// The IR is parsed once from [`SOURCE`](WaveletSpec::SOURCE), the canonical text the macro
/// validated, and then borrowed for the life of the program.
pub trait WaveletSpec {
    /// The wavelet's name as declared.
    const NAME: &'static str;
    /// The declaration in canonical form (what `Display` prints); parsing it gives [`Self::wavelet`].
    const SOURCE: &'static str;
    /// The vertical-pass sliding window of the analysis program.
    const GEOMETRY: WindowGeometry;
    /// The vertical-pass sliding window of the synthesis program.
    const INVERSE_GEOMETRY: WindowGeometry;

    /// The wavelet's IR.
    fn wavelet() -> &'static Wavelet;
    /// The synthesis program derived from it.
    fn inverse() -> &'static Program;
}
