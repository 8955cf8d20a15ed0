//! The conformance suite every backend passes, on the first CUDA device, once per variant the
//! planner can choose: the fused 2-D pass (the default, two-pass where it does not apply), the
//! two passes alone, and the fused pass with tiny tiles (every kind of tile edge in small
//! images). CI has no GPU, so these are ignored there (reported as not run); on a GPU machine:
//! `cargo test -p dwt-cuda -- --ignored` (results in GPU_RESULTS.md).

use dwt_cuda::{CudaBackend, LaunchConfig, Strategy};

fn backend(config: LaunchConfig) -> CudaBackend {
    CudaBackend::with_config(config).expect("a CUDA device")
}

mod fused {
    dwt_runtime::conformance_tests!(
        #[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
        backend = super::backend(dwt_cuda::LaunchConfig::default()),
        window_height = dwt_cuda::LaunchConfig::default().window_height,
        random_cases = 32,
        volume = [100, 100, 100]
    );
}

mod two_pass {
    dwt_runtime::conformance_tests!(
        #[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
        backend = super::backend(dwt_cuda::LaunchConfig {
            strategy: dwt_cuda::Strategy::TwoPass,
            ..Default::default()
        }),
        window_height = dwt_cuda::LaunchConfig::default().window_height,
        random_cases = 32,
        volume = [100, 100, 100]
    );
}

/// Tiles of 3 x 2 polyphase indices (6 x 4 samples): the 2-D parts of the suite.
fn small_tiles() -> CudaBackend {
    backend(LaunchConfig {
        tile: [3, 2],
        tile_threads: 64,
        strategy: Strategy::Fused,
        ..Default::default()
    })
}

#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn fused_small_tiles_catalogue_2d() {
    dwt_runtime::conformance::catalogue_2d(&small_tiles());
}

#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn fused_small_tiles_random_programs() {
    dwt_runtime::conformance::random_programs(&small_tiles(), 32);
}

#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn fused_small_tiles_large_sizes() {
    dwt_runtime::conformance::large(&small_tiles(), [8, 8, 8]);
}
