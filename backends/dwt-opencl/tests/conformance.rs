//! The conformance suite every backend passes, on the first OpenCL device (PoCL in CI), once per
//! variant the planner can choose: the fused 2-D pass (the default, two-pass where it does not
//! apply), the two passes alone, and the fused pass with tiny tiles, so that every kind of tile
//! edge (first, last, both, odd extents, several levels) appears in small images.

use dwt_opencl::{LaunchConfig, OpenClBackend, Strategy};

fn backend(config: LaunchConfig) -> OpenClBackend {
    OpenClBackend::with_config(config).expect("an OpenCL device (PoCL in CI)")
}

mod fused {
    dwt_runtime::conformance_tests!(
        backend = super::backend(dwt_opencl::LaunchConfig::default()),
        window_height = dwt_opencl::LaunchConfig::default().window_height,
        random_cases = 32,
        volume = [40, 40, 40]
    );
}

mod two_pass {
    dwt_runtime::conformance_tests!(
        backend = super::backend(dwt_opencl::LaunchConfig {
            strategy: dwt_opencl::Strategy::TwoPass,
            ..Default::default()
        }),
        window_height = dwt_opencl::LaunchConfig::default().window_height,
        // Fewer than the default's: these programs compile the same kernels, which the fused
        // instance runs 32 of (CI time on PoCL).
        random_cases = 12,
        volume = [40, 40, 40]
    );
}

/// Tiles of 3 x 2 polyphase indices (6 x 4 samples): the 2-D parts of the suite.
fn small_tiles() -> OpenClBackend {
    backend(LaunchConfig {
        tile: [3, 2],
        tile_threads: 64,
        strategy: Strategy::Fused,
        ..Default::default()
    })
}

#[test]
fn fused_small_tiles_catalogue_2d() {
    dwt_runtime::conformance::catalogue_2d(&small_tiles());
}

#[test]
fn fused_small_tiles_random_programs() {
    dwt_runtime::conformance::random_programs(&small_tiles(), 16);
}

#[test]
fn fused_small_tiles_large_sizes() {
    dwt_runtime::conformance::large(&small_tiles(), [8, 8, 8]);
}
