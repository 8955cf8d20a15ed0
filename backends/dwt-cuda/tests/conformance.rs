//! The conformance suite every backend passes, on the first CUDA device. CI has no GPU, so these
//! are ignored there (reported as not run); on a GPU machine: `cargo test -p dwt-cuda -- --ignored`
//! (results in GPU_RESULTS.md).

dwt_runtime::conformance_tests!(
    #[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
    backend = dwt_cuda::CudaBackend::new().expect("a CUDA device"),
    window_height = dwt_cuda::LaunchConfig::default().window_height,
    random_cases = 32,
    volume = [100, 100, 100]
);
