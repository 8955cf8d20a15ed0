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

/// Work-group and window sizes past a 32-bit int are refused, naming the settings, for both
/// dialects: emitted, their literals did not compile (PoCL: "integer constant expression
/// evaluates to value 1099511627776 that cannot be represented in a 32-bit unsigned integer
/// type"; a window of 2^40 rows: "call to 'min' is ambiguous"), and a `window_height` of
/// `usize::MAX` overflowed rounding it up to even.
#[test]
fn sizes_past_the_kernels_ints_are_config_errors() {
    let w = dwt_catalogue::by_name("LeGall53").unwrap();
    let d = LaunchConfig::two_pass();
    let cases = [
        (
            "row_group_size",
            LaunchConfig {
                row_group_size: 1 << 40,
                ..d
            },
        ),
        (
            "tile_threads",
            LaunchConfig {
                tile_threads: 1 << 40,
                ..d
            },
        ),
        (
            "slab_width",
            LaunchConfig {
                slab_width: 1 << 40,
                slab_rows: 1,
                ..d
            },
        ),
        (
            "slab_rows",
            LaunchConfig {
                slab_width: 1,
                slab_rows: 1 << 40,
                ..d
            },
        ),
        (
            "slab_rows",
            LaunchConfig {
                slab_width: 1 << 16,
                slab_rows: 1 << 16,
                ..d
            },
        ),
        (
            "window_height",
            LaunchConfig {
                window_height: 1 << 40,
                ..d
            },
        ),
        (
            "window_height",
            LaunchConfig {
                window_height: usize::MAX,
                ..d
            },
        ),
        (
            "window_height",
            LaunchConfig {
                window_height: 1 << 26,
                ..d
            },
        ),
    ];
    for (setting, config) in cases {
        for dialect in [&Cuda as &dyn dwt_emit_c::Dialect, &OpenCl] {
            let module = emit_module(
                dialect,
                w,
                Direction::Forward,
                ElementType::I32,
                Layout::Mallat,
                &config,
            );
            match module {
                Err(EmitError::Config(why)) => assert!(why.contains(setting), "{setting}: {why}"),
                other => panic!(
                    "{setting}: expected a Config error, got {:?}",
                    other.map(|_| ())
                ),
            }
        }
    }
    // The largest that fit are emitted (the device's limits refuse them at run time).
    let fits = LaunchConfig {
        window_height: 1 << 20,
        slab_width: 1,
        row_group_size: 1 << 30,
        ..d
    };
    emit_module(
        &OpenCl,
        w,
        Direction::Forward,
        ElementType::I32,
        Layout::Mallat,
        &fits,
    )
    .unwrap();
}
