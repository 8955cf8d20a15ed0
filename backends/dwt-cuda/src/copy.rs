//! The device-to-device copy kernel that recorded graphs run instead of a memcpy node.
//!
//! A plan's copies (the copy of the data a plan that reads a source makes first when run in
//! place, the band copies of the two passes) are `cuMemcpyDtoDAsync`. Issued on a stream such a
//! copy runs at the copy roofline; captured into a graph it becomes a memcpy node, which the
//! driver ran at two thirds of that on an H200 at 512 MiB: 402.6 us against 266.3 us on a
//! stream and 281.0 us for a plain copy kernel in a graph; Haar 512^3 in place took 0.54 ms with
//! this kernel against 0.66 with the node. Up to 448 MiB the node kept the copy rate and this
//! kernel was 2-12% slower (223.5 against 246.5 us at 448 MiB, 8.8 against 9.0 at 8 MiB; in
//! place at 8192^2 and 4096^2, 0-4% of the transform), so it takes copies from
//! [`COPY_KERNEL_FROM`] bytes up (`dwt-bench/results/2026-11-30-h200-graph-copies/`).

use cudarc::driver::{result, sys, CudaFunction};
use dwt_runtime::DwtError;

use crate::device_error;

/// The kernel's name (in a module of its own: no emitted kernel is named so).
pub const NAME: &str = "lifting_copy16";

/// Its source: each work-item moves four 16-byte words, every load issued before any store.
pub const SOURCE: &str = r#"// lifting: the device-to-device copy recorded graphs run instead of a memcpy node.
extern "C" __global__ void __launch_bounds__(256)
lifting_copy16(const int4* __restrict__ src, int4* __restrict__ dst, unsigned long long words)
{
    const unsigned long long first = (unsigned long long)blockIdx.x * 1024u + threadIdx.x;
    int4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
        const unsigned long long i = first + 256u * u;
        if (i < words) v[u] = src[i];
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
        const unsigned long long i = first + 256u * u;
        if (i < words) dst[i] = v[u];
    }
}
"#;

/// Bytes from which a recorded graph copies with the kernel: 512 MiB, where it was measured
/// faster; between 448 and 512 MiB neither was measured (see the module's doc).
pub const COPY_KERNEL_FROM: usize = 512 << 20;

/// 16-byte words each group copies (256 work-items of four).
const WORDS_PER_GROUP: u64 = 1024;

/// How a plan's copies are issued: with `kernel` where one is given and the copy is of at
/// least `from` bytes, else as a memcpy.
#[derive(Clone, Copy)]
pub(crate) struct Copier<'a> {
    pub kernel: Option<&'a CudaFunction>,
    pub from: usize,
}

impl Copier<'_> {
    /// Memcpys only (transforms issued on a stream, not recorded).
    pub fn memcpy() -> Self {
        Copier {
            kernel: None,
            from: usize::MAX,
        }
    }

    /// Copies `bytes` from `src` to `dst` on `stream`; whether it launched the kernel (a
    /// programmatic dependent may follow a kernel, not a memcpy). The kernel copies the 16-byte
    /// words, a memcpy the few bytes after them; addresses not 16-byte aligned take the memcpy.
    ///
    /// # Safety
    /// `src` and `dst` hold at least `bytes` bytes each and do not overlap.
    pub unsafe fn copy(
        &self,
        dst: sys::CUdeviceptr,
        src: sys::CUdeviceptr,
        bytes: usize,
        stream: sys::CUstream,
    ) -> Result<bool, DwtError> {
        let aligned = (src | dst) % 16 == 0;
        let kernel = self
            .kernel
            .filter(|_| aligned && bytes >= self.from.max(16));
        let Some(kernel) = kernel else {
            // SAFETY: as the caller promises.
            unsafe { result::memcpy_dtod_async(dst, src, bytes, stream) }.map_err(device_error)?;
            return Ok(false);
        };
        let words = (bytes / 16) as u64;
        let groups = words.div_ceil(WORDS_PER_GROUP);
        let groups = u32::try_from(groups).map_err(|_| DwtError::Device {
            backend: crate::NAME.into(),
            message: format!("a copy of {bytes} bytes needs {groups} groups, over CUDA's grid"),
        })?;
        let (mut s, mut d, mut w) = (src, dst, words);
        let mut params = [
            (&mut s as *mut sys::CUdeviceptr).cast(),
            (&mut d as *mut sys::CUdeviceptr).cast(),
            (&mut w as *mut u64).cast(),
        ];
        // SAFETY: the parameters match the kernel's (two pointers, the word count) and live for
        // the call; it touches `words` 16-byte words of each buffer, within `bytes`.
        unsafe {
            result::launch_kernel(
                kernel.cu_function(),
                (groups, 1, 1),
                (256, 1, 1),
                0,
                stream,
                &mut params,
            )
        }
        .map_err(device_error)?;
        let tail = bytes % 16;
        if tail > 0 {
            let done = bytes as u64 - tail as u64;
            // SAFETY: the last `tail` bytes of both buffers, within `bytes`.
            unsafe { result::memcpy_dtod_async(dst + done, src + done, tail, stream) }
                .map_err(device_error)?;
            return Ok(false);
        }
        Ok(true)
    }
}
