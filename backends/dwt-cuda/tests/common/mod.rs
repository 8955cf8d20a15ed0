//! Helpers the CUDA tests of host memory share: deterministic samples, the CPU reference's result
//! of a request, and whether the driver counts a page as page-locked.
#![allow(dead_code)] // each test binary uses some of them

use cudarc::driver::sys;
use dwt_runtime::{cpu, Element, Request};

/// Samples from -2000 to 2000, another order for every seed.
pub fn values(n: usize, seed: usize) -> Vec<i32> {
    (0..n)
        .map(|i| ((i * 7919 + seed * 104729) % 4001) as i32 - 2000)
        .collect()
}

/// What the CPU reference makes of `input` under `req`.
pub fn reference<E: Element>(req: &Request, input: &[E]) -> Vec<E> {
    let mut want = input.to_vec();
    cpu::transform(
        req.wavelet,
        req.direction,
        &mut want,
        &req.shape,
        req.levels,
        req.layout,
    )
    .unwrap();
    want
}

/// Whether the driver counts the page holding `p` as page-locked, allocated so or registered
/// (`cuMemHostGetFlags` knows only the first).
pub fn locked<T>(p: *const T) -> bool {
    let mut device = 0;
    // SAFETY: a query; the driver only reads the address.
    let r = unsafe { sys::cuMemHostGetDevicePointer_v2(&mut device, p as *mut _, 0) };
    r == sys::CUresult::CUDA_SUCCESS
}
