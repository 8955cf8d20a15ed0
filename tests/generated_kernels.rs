//! The kernels a `lifting!` type carries are the emitter's output for the default launch
//! configuration, for every direction, element type of the wavelet's kind and layout.

use dwt_emit_c::{emit_module, LaunchConfig, OpenCl};
use lifting::catalogue::*;
use lifting::ir::{Direction, ElementKind, ElementType, Layout, WaveletSpec};

fn check<W: WaveletSpec>() {
    let wavelet = W::wavelet();
    assert_eq!(
        W::OPENCL.len(),
        8,
        "{}: 2 directions x 2 element types x 2 layouts",
        W::NAME
    );
    for k in W::OPENCL {
        assert_eq!(
            k.element.kind(),
            wavelet.kind,
            "{}: {:?} is not of the wavelet's kind",
            W::NAME,
            k.element
        );
        let fresh = emit_module(
            &OpenCl,
            wavelet,
            k.direction,
            k.element,
            k.layout,
            &LaunchConfig::default(),
        )
        .unwrap();
        assert_eq!(
            k.source,
            fresh.source,
            "{} {:?} {:?} {:?}",
            W::NAME,
            k.direction,
            k.element,
            k.layout
        );
    }
    let element = if wavelet.kind == ElementKind::Integer {
        ElementType::I16
    } else {
        ElementType::F32
    };
    let source =
        W::opencl(Direction::Inverse, element, Layout::Mallat).expect("an inverse Mallat module");
    assert!(
        source.contains("__kernel"),
        "{}: not an OpenCL module",
        W::NAME
    );
    assert!(
        W::opencl(Direction::Forward, ElementType::F64, Layout::Mallat).is_some()
            == (wavelet.kind == ElementKind::Float)
    );
}

#[test]
fn catalogue_types_carry_the_emitted_opencl_kernels() {
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
