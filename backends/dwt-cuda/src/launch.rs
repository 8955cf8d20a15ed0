//! The one interpreter of a [`LaunchPlan`] on CUDA: its steps issued on a stream with raw driver
//! calls, the same whether a transform runs now or is recorded as a graph ([`crate::graph`]).
//! Raw calls rather than cudarc's launch builder because capture may not wait on events recorded
//! outside it, which the builder adds for cudarc's cross-stream tracking; the caller takes the
//! buffers' addresses through cudarc (`device_ptr`), which keeps that ordering.

use std::collections::HashMap;
use std::ffi::c_void;

use cudarc::driver::{result, sys, CudaFunction};
use dwt_emit_c::{Buffer, LaunchPlan, Step};
use dwt_runtime::DwtError;

use crate::device_error;

/// Device addresses of a plan's buffers for one run or recording.
pub(crate) struct Addresses {
    pub source: sys::CUdeviceptr,
    pub data: sys::CUdeviceptr,
    pub scratch: sys::CUdeviceptr,
    /// Elements in the data (and the source).
    pub len: usize,
    /// Elements in the scratch.
    pub scratch_len: usize,
    /// The source is a copy of the data that the steps make first (a fused plan run in place).
    pub copy_in: bool,
}

/// Issues every step of `plan` on `stream` (not waited for), with `functions` its kernels.
pub(crate) fn issue(
    plan: &LaunchPlan,
    functions: &HashMap<String, CudaFunction>,
    at: &Addresses,
    element_bytes: usize,
    stream: sys::CUstream,
) -> Result<(), DwtError> {
    issue_marked(plan, functions, at, element_bytes, stream, &mut |_| Ok(()))
}

/// [`issue`], calling `after(i)` once step `i` is issued (to record an event between steps).
pub(crate) fn issue_marked(
    plan: &LaunchPlan,
    functions: &HashMap<String, CudaFunction>,
    at: &Addresses,
    element_bytes: usize,
    stream: sys::CUstream,
    after: &mut dyn FnMut(usize) -> Result<(), DwtError>,
) -> Result<(), DwtError> {
    if at.copy_in {
        // SAFETY: the source copy was allocated with the data's length.
        unsafe { result::memcpy_dtod_async(at.source, at.data, at.len * element_bytes, stream) }
            .map_err(device_error)?;
    }
    for (i, step) in plan.steps.iter().enumerate() {
        match step {
            Step::Copy(c) => {
                let span = c.span();
                if span > at.len || span > at.scratch_len {
                    return Err(DwtError::Device {
                        backend: crate::NAME.into(),
                        message: format!(
                            "a band copy of {span} elements does not fit the data ({}) or the scratch ({}): a planner bug",
                            at.len, at.scratch_len
                        ),
                    });
                }
                // SAFETY: both buffers hold at least `span` elements (checked above).
                unsafe {
                    result::memcpy_dtod_async(at.scratch, at.data, span * element_bytes, stream)
                }
                .map_err(device_error)?;
            }
            Step::Launch(l) if l.is_empty() => {}
            Step::Launch(l) => {
                let mut pointers: Vec<sys::CUdeviceptr> = l
                    .buffers
                    .iter()
                    .map(|b| match b {
                        Buffer::Data => at.data,
                        Buffer::Scratch => at.scratch,
                        Buffer::Source => at.source,
                    })
                    .collect();
                let mut ints = l.ints.clone();
                let mut params: Vec<*mut c_void> = pointers
                    .iter_mut()
                    .map(|p| (p as *mut sys::CUdeviceptr).cast())
                    .chain(ints.iter_mut().map(|v| (v as *mut i32).cast()))
                    .collect();
                // SAFETY: the parameters match the emitted kernel's in order and type (device
                // pointers, then ints: the plan follows `KernelModule`'s signatures) and live
                // until the call returns, which copies them; every index the kernel computes
                // stays inside the validated shape and the plan's scratch.
                unsafe {
                    result::launch_kernel(
                        functions[&l.kernel].cu_function(),
                        (l.groups[0] as u32, l.groups[1] as u32, l.groups[2] as u32),
                        (l.block[0] as u32, l.block[1] as u32, 1),
                        0,
                        stream,
                        &mut params,
                    )
                }
                .map_err(device_error)?;
            }
        }
        after(i)?;
    }
    Ok(())
}
