//! The kernels a `lifting!` type carries are the emitter's output for the default launch
//! configuration, in both dialects, for every direction, element type of the wavelet's kind and
//! layout.

use dwt_emit_c::{emit_module, Cuda, Dialect, LaunchConfig, OpenCl};
use lifting::catalogue::*;
use lifting::ir::{Direction, ElementKind, ElementType, KernelSource, Layout, WaveletSpec};

fn check_dialect<W: WaveletSpec>(dialect: &dyn Dialect, kernels: &[KernelSource]) {
    let wavelet = W::wavelet();
    assert_eq!(
        kernels.len(),
        8,
        "{} {}: 2 directions x 2 element types x 2 layouts",
        W::NAME,
        dialect.name()
    );
    for k in kernels {
        assert_eq!(
            k.element.kind(),
            wavelet.kind,
            "{}: {:?} is not of the wavelet's kind",
            W::NAME,
            k.element
        );
        let fresh = emit_module(
            dialect,
            wavelet,
            k.direction,
            k.element,
            k.layout,
            &LaunchConfig::default(),
        )
        .unwrap();
        assert_eq!(
            k.source,
            fresh.source(),
            "{} {} {:?} {:?} {:?}",
            W::NAME,
            dialect.name(),
            k.direction,
            k.element,
            k.layout
        );
    }
}

fn check<W: WaveletSpec>() {
    check_dialect::<W>(&OpenCl, W::OPENCL);
    check_dialect::<W>(&Cuda, W::CUDA);
    let integer = W::wavelet().kind == ElementKind::Integer;
    let element = if integer {
        ElementType::I16
    } else {
        ElementType::F32
    };
    let opencl =
        W::opencl(Direction::Inverse, element, Layout::Mallat).expect("an inverse Mallat module");
    assert!(
        opencl.contains("__kernel"),
        "{}: not an OpenCL module",
        W::NAME
    );
    let cuda = W::cuda(Direction::Forward, element, Layout::Interleaved)
        .expect("a forward interleaved module");
    assert!(
        cuda.contains("extern \"C\" __global__"),
        "{}: not a CUDA module",
        W::NAME
    );
    assert_eq!(
        W::opencl(Direction::Forward, ElementType::F64, Layout::Mallat).is_some(),
        !integer
    );
    assert_eq!(
        W::cuda(Direction::Forward, ElementType::I32, Layout::Mallat).is_some(),
        integer
    );
}

#[test]
fn catalogue_types_carry_the_emitted_kernels() {
    check::<DeslauriersDubuc97>();
    check::<LeGall53>();
    check::<DeslauriersDubuc137>();
    check::<HaarNoShift>();
    check::<HaarWithShift>();
    check::<Fidelity>();
    check::<Daubechies97Integer>();
    check::<Cdf97>();
    check::<Cdf53>();
}
