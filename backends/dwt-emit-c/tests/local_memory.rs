//! Every kernel the emitter writes fits CUDA's 48 KiB of static shared memory, all its arrays
//! together: where a tile would not, the module has none (the planner takes the two passes)
//! rather than a kernel NVRTC refuses to build. A random program reaching three indices per step
//! once made a candidate's tile kernel declare 49792 bytes (the tile was checked, its edge
//! tiles' index maps were not), found by the GPU conformance suite's random programs.

use dwt_emit_c::{emit_module, Cuda, KernelModule, LaunchConfig, MAX_TILE_BYTES};
use dwt_ir::{Direction, ElementType, Layout, Wavelet};
use proptest::prelude::*;

/// The bytes of the `__shared__` arrays a CUDA source declares.
fn shared_bytes(source: &str) -> usize {
    source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("__shared__ "))
        .map(|declaration| {
            // An alignment (`__align__(16)`) pads before the array: counted as 16 bytes more.
            let (padding, declaration) = match declaration.strip_prefix("__align__(16) ") {
                Some(rest) => (16, rest),
                None => (0, declaration),
            };
            let (ty, rest) = declaration.split_once(' ').expect("a type and a name");
            let size = match ty {
                "short" => 2,
                "int" | "float" => 4,
                "double" => 8,
                other => panic!("a shared array of {other}: {declaration}"),
            };
            let count: usize = rest
                .split('[')
                .skip(1)
                .map(|d| d.trim_end_matches([']', ';']).parse::<usize>().unwrap())
                .product();
            padding + size * count
        })
        .sum()
}

/// Every kernel of `module`: its name and shared bytes.
fn kernels(module: &KernelModule) -> Vec<(String, usize)> {
    module
        .kernel_names()
        .map(|name| {
            let source = module.kernel_source(name).expect("the module's kernel");
            (name.to_string(), shared_bytes(&source))
        })
        .collect()
}

/// The configurations a request may be emitted with: every candidate of the measuring planner,
/// for images and for volumes.
fn configs() -> Vec<LaunchConfig> {
    [LaunchConfig::default(), LaunchConfig::default().for_axes(3)]
        .iter()
        .flat_map(|c| c.candidates())
        .map(|c| c.config)
        .chain([LaunchConfig::tiny_tiles(), LaunchConfig::two_pass()])
        .collect()
}

/// Checks every module of `wavelet` (both directions, every configuration, the integer or
/// float types and both layouts) against the limit; returns how many tile kernels it saw.
fn check(wavelet: &Wavelet, elems: &[ElementType]) -> usize {
    let mut tiles = 0;
    for config in configs() {
        for direction in [Direction::Forward, Direction::Inverse] {
            for &elem in elems {
                for layout in [Layout::Mallat, Layout::Interleaved] {
                    let Ok(module) = emit_module(&Cuda, wavelet, direction, elem, layout, &config)
                    else {
                        continue;
                    };
                    tiles += module.tile.is_ok() as usize;
                    for (name, bytes) in kernels(&module) {
                        assert!(
                            bytes <= MAX_TILE_BYTES,
                            "{name} ({direction:?} {elem:?} {layout:?}, {config:?}) declares {bytes} bytes of shared memory, more than {MAX_TILE_BYTES}:\n{wavelet}"
                        );
                    }
                }
            }
        }
    }
    tiles
}

#[test]
fn catalogue_kernels_fit_static_shared_memory() {
    let mut tiles = 0;
    for w in dwt_catalogue::all() {
        let elems: &[ElementType] = match w.kind {
            dwt_ir::ElementKind::Integer => &[ElementType::I16, ElementType::I32],
            dwt_ir::ElementKind::Float => &[ElementType::F32, ElementType::F64],
        };
        tiles += check(w, elems);
    }
    assert!(tiles > 0, "no tile kernel was checked");
}

/// The program the GPU suite found: its long reach gives large halos.
#[test]
fn a_far_reaching_program_fits_or_has_no_tile() {
    let w = dwt_ir::parse_wavelet(
        "wavelet Far { kind = integer; boundary = symmetric; even -= odd[-1]; odd -= even[-3] + even[3]; even -= odd[-1] + odd[3]; }",
    )
    .expect("the program parses");
    check(&w, &[ElementType::I32, ElementType::I16]);
}

proptest! {
    // 24 random programs: each emits about 30 configurations x 2 directions x 2 types x 2
    // layouts (about 3 s in a debug build).
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_programs_fit_static_shared_memory(
        w in dwt_runtime::conformance::random_wavelet(
            &[dwt_ir::Boundary::Clamp, dwt_ir::Boundary::Symmetric],
            2,
        )
    ) {
        check(&w, &[ElementType::I32, ElementType::I16]);
    }
}
