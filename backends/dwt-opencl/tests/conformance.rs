//! The conformance suite every backend passes, on the first OpenCL device (PoCL in CI), once per
//! plan variant (`conformance_variants!`: fused, two-pass, tiny fused tiles). Random programs per
//! variant: 16 fused, 12 two-pass, 8 tiny-tile (bounded for CI time: PoCL compiles each random
//! program's module, about 10 s for one with the fused kernel's register path on 2 cores; the GPU
//! runs 32 of each).

fn backend(config: dwt_opencl::LaunchConfig) -> dwt_opencl::OpenClBackend {
    dwt_opencl::OpenClBackend::with_config(config).expect("an OpenCL device (PoCL in CI)")
}

dwt_runtime::conformance_variants!(
    backend = crate::backend,
    config = dwt_opencl::LaunchConfig,
    random_cases = [16, 12, 8],
    volume = [40, 40, 40]
);
