//! Programs the emitter refuses to write kernels for, with an error instead of code that does
//! not compile or computes something else.

use dwt_emit_c::{emit_module, Cuda, EmitError, LaunchConfig, OpenCl};
use dwt_ir::{Direction, ElementType, Layout};

/// A coefficient the kernels' float type cannot hold would be written as `inff` (not C) or as
/// `0.0f` (another wavelet): refused, for both dialects and directions, where f64 takes it.
#[test]
fn float_coefficients_the_element_cannot_hold() {
    let w = dwt_ir::parse_str("wavelet Huge { kind = float; odd -= 0.5*even[0]; scale 1e300; }")
        .unwrap()
        .remove(0);
    let config = LaunchConfig::default();
    for dialect in [&Cuda as &dyn dwt_emit_c::Dialect, &OpenCl] {
        for direction in [Direction::Forward, Direction::Inverse] {
            let module = emit_module(
                dialect,
                &w,
                direction,
                ElementType::F32,
                Layout::Mallat,
                &config,
            );
            let Err(e) = module else {
                panic!("f32 cannot hold 1e300");
            };
            assert!(
                matches!(&e, EmitError::Unrepresentable { value, elem: ElementType::F32, .. } if value == "1e300"),
                "{e}"
            );
            assert!(e.to_string().contains("emit f64 kernels"), "{e}");
            let module = emit_module(
                dialect,
                &w,
                direction,
                ElementType::F64,
                Layout::Mallat,
                &config,
            )
            .unwrap();
            assert!(
                module.source().contains("e-300"),
                "the f64 literal is written"
            );
        }
    }
}
