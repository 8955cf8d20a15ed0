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

/// Tiles too large for local memory are refused at once, saying to lower the tile: the search
/// for a halo that makes them exact, which simulates every line of up to six tiles, ran first
/// (seconds per module at 4096x4096, without end at 2^20, an overflow at `usize::MAX`) only to
/// refuse them. The small bands' tiles ([`LaunchConfig::small_band_shape`]) alike.
#[test]
fn oversized_tiles_are_refused_at_once() {
    let start = std::time::Instant::now();
    let w = dwt_catalogue::by_name("LeGall53").unwrap();
    let tiles = [
        [4096, 4096],
        [1 << 20, 1 << 20],
        [usize::MAX, 1],
        [1, usize::MAX],
    ];
    for tile in tiles {
        let config = LaunchConfig {
            tile,
            small_band_shape: Some((tile, 256, 8)),
            small_band_tiles: Some(true),
            ..LaunchConfig::default()
        };
        for direction in [Direction::Forward, Direction::Inverse] {
            let module = emit_module(
                &Cuda,
                w,
                direction,
                ElementType::I32,
                Layout::Mallat,
                &config,
            )
            .unwrap();
            let why = module.tile.expect_err("no tile fits").to_string();
            assert!(why.contains("lower LaunchConfig::tile"), "{tile:?}: {why}");
            assert!(module.small_tile.is_none(), "{tile:?}");
        }
    }
    // Each took more than 6 s before (4096x4096, an optimised test build, one core).
    let took = start.elapsed();
    assert!(took < std::time::Duration::from_secs(5), "took {took:?}");
}
