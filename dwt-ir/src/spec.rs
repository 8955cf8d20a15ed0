//! The trait every `lifting!`-declared wavelet type implements.

use crate::{Direction, ElementType, Layout, Program, Wavelet, WindowGeometry};

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
    /// The OpenCL C kernel modules for the default launch configuration, one per direction,
    /// element type of the wavelet's kind and layout, generated at compile time by the same emitter
    /// the runtime uses (which regenerates for other configurations). A float wavelet with a
    /// coefficient f32 cannot hold (overflowing to infinity or a nonzero one to zero) has no f32
    /// modules in that direction: only f64 data can take it.
    const OPENCL: &'static [KernelSource];
    /// The CUDA C kernel modules, likewise (compiled at run time with NVRTC).
    const CUDA: &'static [KernelSource];

    /// The wavelet's IR.
    fn wavelet() -> &'static Wavelet;
    /// The synthesis program derived from it.
    fn inverse() -> &'static Program;

    /// The OpenCL module for one direction, element type and layout, if the wavelet has one.
    fn opencl(direction: Direction, element: ElementType, layout: Layout) -> Option<&'static str> {
        KernelSource::find(Self::OPENCL, direction, element, layout)
    }

    /// The CUDA module for one direction, element type and layout, if the wavelet has one.
    fn cuda(direction: Direction, element: ElementType, layout: Layout) -> Option<&'static str> {
        KernelSource::find(Self::CUDA, direction, element, layout)
    }
}

/// Generated kernel source carried by a `lifting!` type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelSource {
    pub direction: Direction,
    pub element: ElementType,
    pub layout: Layout,
    pub source: &'static str,
}

impl KernelSource {
    fn find(
        all: &[KernelSource],
        direction: Direction,
        element: ElementType,
        layout: Layout,
    ) -> Option<&'static str> {
        all.iter()
            .find(|k| k.direction == direction && k.element == element && k.layout == layout)
            .map(|k| k.source)
    }
}
