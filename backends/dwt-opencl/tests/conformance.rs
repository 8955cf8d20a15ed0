//! The conformance suite every backend passes, on the first OpenCL device (PoCL in CI), once per
//! plan variant (`conformance_variants!`: fused, two-pass, tiny fused tiles). The two-pass and
//! tiny-tile variants run fewer random programs: they compile the same kinds of kernels the fused
//! variant already ran 32 of (CI time on PoCL).

fn backend(config: dwt_opencl::LaunchConfig) -> dwt_opencl::OpenClBackend {
    dwt_opencl::OpenClBackend::with_config(config).expect("an OpenCL device (PoCL in CI)")
}

dwt_runtime::conformance_variants!(
    backend = crate::backend,
    config = dwt_opencl::LaunchConfig,
    random_cases = [32, 12, 16],
    volume = [40, 40, 40]
);
