//! The kernels a `lifting!` type carries are the emitter's output for the default launch
//! configuration, in both dialects, for every direction, element type of the wavelet's kind and
//! layout.

use dwt_emit_c::{emit_module, Cuda, Dialect, LaunchConfig, OpenCl};
use lifting::catalogue::*;
use lifting::ir::{Direction, ElementKind, ElementType, KernelSource, Layout, WaveletSpec};

fn check_dialect<W: WaveletSpec>(dialect: &dyn Dialect, kernels: &[KernelSource]) {
    let wavelet = W::wavelet();
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
    for kernels in [W::OPENCL, W::CUDA] {
        assert_eq!(
            kernels.len(),
            8,
            "{}: 2 directions x 2 element types x 2 layouts",
            W::NAME
        );
    }
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

lifting::lifting! {
    /// A float wavelet whose predict coefficient overflows f32 (about 3.4e38): only f64 holds it.
    wavelet WideRange {
        kind = float;
        odd -= 1e300*(even[0] + even[1]);
        even += 1/4*(odd[-1] + odd[0]);
    }
}

/// A float wavelet whose coefficients only f64 can hold declares without error and carries its
/// f64 modules alone: the f32 ones would be written with `inff`, which is not C.
#[test]
fn a_wavelet_only_f64_holds_carries_f64_kernels_alone() {
    for kernels in [WideRange::OPENCL, WideRange::CUDA] {
        assert_eq!(kernels.len(), 4, "2 directions x 2 layouts, f64 only");
        assert!(kernels.iter().all(|k| k.element == ElementType::F64));
    }
    check_dialect::<WideRange>(&OpenCl, WideRange::OPENCL);
    check_dialect::<WideRange>(&Cuda, WideRange::CUDA);
    assert!(WideRange::cuda(Direction::Inverse, ElementType::F64, Layout::Mallat).is_some());
    assert!(WideRange::cuda(Direction::Inverse, ElementType::F32, Layout::Mallat).is_none());
}

/// Wavelets named like the primitive and prelude types the generated impl names (`str`,
/// `Option`) declare and work: the generated code names those types by absolute paths (`str`
/// gave four type errors pointing at the macro). Rust's naming lint is the user's to allow.
#[allow(non_camel_case_types)]
mod names_of_rust_types {
    lifting::lifting! {
        wavelet str { odd -= even[0]; }
        wavelet Option { odd -= even[0]; }
    }

    #[test]
    fn declare_and_carry_their_kernels() {
        use lifting::ir::WaveletSpec;
        assert_eq!(<str as WaveletSpec>::NAME, "str");
        assert_eq!(<Option as WaveletSpec>::wavelet().name, "Option");
        assert_eq!(<str as WaveletSpec>::CUDA.len(), 8);
    }
}
