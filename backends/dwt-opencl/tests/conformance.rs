//! The conformance suite every backend passes, on the first OpenCL device (PoCL in CI).

dwt_runtime::conformance_tests!(
    backend = dwt_opencl::OpenClBackend::new().expect("an OpenCL device (PoCL in CI)"),
    window_height = dwt_opencl::LaunchConfig::default().window_height,
    random_cases = 32,
    volume = [40, 40, 40]
);
