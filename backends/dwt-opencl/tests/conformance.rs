//! The conformance suite every backend passes, on the first OpenCL device (PoCL in CI), once per
//! plan variant (`conformance_variants!`: fused, two-pass, tiny fused tiles), and the 2-D
//! catalogue part with the long filters' wider and taller tiles (module `long_filter_tiles`), and
//! the volumes' settings forced on (module `volume_settings`).
//! Random integer programs per variant: 12 fused, 8 two-pass, 6 tiny-tile, and float ones 3, 2
//! and 1 (`conformance::float_cases`); bounded for CI time: PoCL compiles each random program's
//! modules, about 10 s a program on 2 cores with a cold kernel cache (fused, one test at a time:
//! 12 integer programs 114 s, 3 float ones 30 s; this whole binary 697 s). The GPU runs these
//! counts through NVIDIA's OpenCL, and CUDA 32 integer and 8 float programs per variant.

fn backend(config: dwt_opencl::LaunchConfig) -> dwt_opencl::OpenClBackend {
    dwt_opencl::OpenClBackend::with_config(config).expect("an OpenCL device (PoCL in CI)")
}

dwt_runtime::conformance_variants!(
    backend = crate::backend,
    config = dwt_opencl::LaunchConfig,
    random_cases = [12, 8, 6],
    volume = [40, 40, 40]
);

/// The wider and taller tiles the long filters take on large planes
/// (`LaunchConfig::long_filter_tiles`), forced on the suite's small images: the programs they
/// give tiles of their own (`conformance::LONG_FILTER_PROGRAMS`: Deslauriers-Dubuc, Fidelity,
/// CDF 9/7 and Daubechies 9/7; the GPU suite runs the same).
mod long_filter_tiles {
    dwt_runtime::conformance_tests!(@one [] conformance_catalogue_2d, dwt_runtime::conformance::catalogue_2d_of(
        &crate::backend(dwt_opencl::LaunchConfig { long_filter_tiles: Some(true), ..Default::default() }),
        dwt_runtime::conformance::LONG_FILTER_PROGRAMS.map(|n| dwt_catalogue::by_name(n).expect("catalogue")),
    ));
}

/// The volumes' settings (`LaunchConfig::volume_depth_window`: the depth pass's window of 96
/// rows in slabs of 32x4; `long_filter_tiles`: Fidelity's 48x32 tiles on the planes), which
/// apply from 256^3 samples, forced on the programs whose volumes take the two passes
/// (`conformance::volume_settings`; the GPU suite runs the same).
mod volume_settings {
    dwt_runtime::conformance_tests!(@one [] conformance_volume_settings, dwt_runtime::conformance::volume_settings(
        &crate::backend(dwt_opencl::LaunchConfig { volume_depth_window: Some(true), long_filter_tiles: Some(true), ..Default::default() }),
    ));
}
