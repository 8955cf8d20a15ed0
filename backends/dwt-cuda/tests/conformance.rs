//! The conformance suite every backend passes, on the first CUDA device, once per plan variant
//! (`conformance_variants!`: fused, two-pass, tiny fused tiles) and once per other candidate
//! configuration the measuring planner (`Tuning::Measured`) may choose
//! (`conformance_candidates!`: the other access forms and tile shapes), and the 2-D catalogue
//! part with the long filters' wider and taller tiles (module `long_filter_tiles`), and the
//! volumes' settings forced on (module `volume_settings`). CI has no GPU, so these are
//! ignored there (reported as not run); on a GPU machine: `cargo test -p dwt-cuda -- --ignored`
//! (results in GPU_RESULTS.md).

fn backend(config: dwt_cuda::LaunchConfig) -> dwt_cuda::CudaBackend {
    dwt_cuda::CudaBackend::with_config(config).expect("a CUDA device")
}

dwt_runtime::conformance_variants!(
    #[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
    backend = crate::backend,
    config = dwt_cuda::LaunchConfig,
    random_cases = [32, 32, 32],
    volume = [100, 100, 100]
);

dwt_runtime::conformance_candidates!(
    #[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
    backend = crate::backend,
    config = dwt_cuda::LaunchConfig,
    two_pass = dwt_cuda::Strategy::TwoPass,
    random_cases = 8,
    volume = [100, 100, 100]
);

/// The wider and taller tiles the long filters take on large planes
/// (`LaunchConfig::long_filter_tiles`), forced on the suite's images: the programs they give
/// tiles of their own (`conformance::LONG_FILTER_PROGRAMS`).
mod long_filter_tiles {
    dwt_runtime::conformance_tests!(@one [#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]] conformance_catalogue_2d, dwt_runtime::conformance::catalogue_2d_of(
        &crate::backend(dwt_cuda::LaunchConfig { long_filter_tiles: Some(true), ..Default::default() }),
        dwt_runtime::conformance::LONG_FILTER_PROGRAMS.map(|n| dwt_catalogue::by_name(n).expect("catalogue")),
    ));
}

/// The volumes' settings (`LaunchConfig::volume_depth_window`: the depth pass's window of 96
/// rows in slabs of 32x4; `long_filter_tiles`: Fidelity's 48x32 tiles on the planes), which
/// apply from 256^3 samples, forced on the programs whose volumes take the two passes
/// (`conformance::volume_settings`).
mod volume_settings {
    dwt_runtime::conformance_tests!(@one [#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]] conformance_volume_settings, dwt_runtime::conformance::volume_settings(
        &crate::backend(dwt_cuda::LaunchConfig { volume_depth_window: Some(true), long_filter_tiles: Some(true), ..Default::default() }),
    ));
}
