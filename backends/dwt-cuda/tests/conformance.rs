//! The conformance suite every backend passes, on the first CUDA device, once per plan variant
//! (`conformance_variants!`: fused, two-pass, tiny fused tiles) and once per other candidate
//! configuration the measuring planner (`Tuning::Measured`) may choose
//! (`conformance_candidates!`: the other access forms and tile shapes). CI has no GPU, so these are
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
