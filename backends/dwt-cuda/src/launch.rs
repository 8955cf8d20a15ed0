//! The one interpreter of a [`LaunchPlan`] on CUDA: its steps issued on a stream with raw driver
//! calls, the same whether a transform runs now or is recorded as a graph ([`crate::graph`]).
//! Raw calls rather than cudarc's launch builder because capture may not wait on events recorded
//! outside it, which the builder adds for cudarc's cross-stream tracking; the caller takes the
//! buffers' addresses through cudarc (`device_ptr`), which keeps that ordering.
//!
//! On sm_90 and later a kernel that follows another of the plan is launched as its programmatic
//! dependent: its groups begin while the earlier kernel's last ones drain, and wait for it (and
//! its memory) at their first line (`griddepcontrol.wait`, every emitted CUDA kernel's prologue).
//! That hides most of the gap between a small level's kernels: graphs of three copy kernels of a
//! 1080p image's levels took 8.0 instead of 9.0 us on an H200 (`dwt-bench/floor`).

use std::collections::HashMap;
use std::ffi::c_void;

use cudarc::driver::{result, sys, CudaFunction};
use dwt_emit_c::{Buffer, LaunchPlan, Step};
use dwt_runtime::DwtError;

use crate::copy::Copier;
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
    /// Bytes an element.
    pub element_bytes: usize,
    /// The source is a copy of the data that the steps make first (a fused plan run in place).
    pub copy_in: bool,
}

/// Issues every step of `plan` on `stream` (not waited for), with `functions` its kernels; with
/// `programmatic` (a device of compute capability 9.0 or more), a kernel that follows another is
/// launched as its programmatic dependent; `copier` issues the plan's copies.
pub(crate) fn issue(
    plan: &LaunchPlan,
    functions: &HashMap<String, CudaFunction>,
    at: &Addresses,
    stream: sys::CUstream,
    programmatic: bool,
    copier: Copier,
) -> Result<(), DwtError> {
    issue_steps(
        plan,
        functions,
        at,
        stream,
        programmatic,
        copier,
        &mut |_| Ok(()),
    )
}

/// [`issue`] without programmatic launches, calling `after(i)` once step `i` is issued (to
/// record an event between steps).
pub(crate) fn issue_marked(
    plan: &LaunchPlan,
    functions: &HashMap<String, CudaFunction>,
    at: &Addresses,
    stream: sys::CUstream,
    after: &mut dyn FnMut(usize) -> Result<(), DwtError>,
) -> Result<(), DwtError> {
    issue_steps(plan, functions, at, stream, false, Copier::memcpy(), after)
}

/// [`issue`], calling `after(i)` once step `i` is issued.
fn issue_steps(
    plan: &LaunchPlan,
    functions: &HashMap<String, CudaFunction>,
    at: &Addresses,
    stream: sys::CUstream,
    programmatic: bool,
    copier: Copier,
    after: &mut dyn FnMut(usize) -> Result<(), DwtError>,
) -> Result<(), DwtError> {
    // Whether the step before is a kernel (a memcpy between ends the chain of dependents; the
    // copy kernel launches plainly, and a kernel after it waits for it as for any other).
    let mut after_kernel = false;
    if at.copy_in {
        // SAFETY: the source copy was allocated with the data's length, apart from it.
        after_kernel =
            unsafe { copier.copy(at.source, at.data, at.len * at.element_bytes, stream) }?;
    }
    for (i, step) in plan.steps.iter().enumerate() {
        let dependent = programmatic && after_kernel;
        after_kernel = matches!(step, Step::Launch(l) if !l.is_empty());
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
                // SAFETY: both buffers hold at least `span` elements (checked above) and are
                // apart.
                after_kernel =
                    unsafe { copier.copy(at.scratch, at.data, span * at.element_bytes, stream) }?;
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
                let function = functions[&l.kernel].cu_function();
                let groups = (l.groups[0] as u32, l.groups[1] as u32, l.groups[2] as u32);
                let block = (l.block[0] as u32, l.block[1] as u32, 1);
                // SAFETY: the parameters match the emitted kernel's in order and type (device
                // pointers, then ints: the plan follows `KernelModule`'s signatures) and live
                // until the call returns, which copies them; every index the kernel computes
                // stays inside the validated shape and the plan's scratch.
                unsafe {
                    match dependent {
                        // A device or driver that refuses the attribute gets a plain launch
                        // (the kernel's wait is then a no-op).
                        true => {
                            match launch_dependent(function, groups, block, stream, &mut params) {
                                Err(e) if e.0 == sys::cudaError_enum::CUDA_ERROR_NOT_SUPPORTED => {
                                    result::launch_kernel(
                                        function,
                                        groups,
                                        block,
                                        0,
                                        stream,
                                        &mut params,
                                    )
                                }
                                launched => launched,
                            }
                        }
                        false => {
                            result::launch_kernel(function, groups, block, 0, stream, &mut params)
                        }
                    }
                }
                .map_err(device_error)?;
            }
        }
        after(i)?;
    }
    Ok(())
}

/// `cuLaunchKernelEx` with programmatic stream serialization: the kernel may begin before the
/// one before it in `stream` ends (it waits for it at its first line).
///
/// # Safety
/// As [`result::launch_kernel`]: `params` match the kernel's parameters and stay alive for the
/// call.
unsafe fn launch_dependent(
    function: sys::CUfunction,
    groups: (u32, u32, u32),
    block: (u32, u32, u32),
    stream: sys::CUstream,
    params: &mut [*mut c_void],
) -> Result<(), cudarc::driver::DriverError> {
    // SAFETY: a zeroed attribute value is a valid union; the field set is the one the id names.
    let mut attribute: sys::CUlaunchAttribute = unsafe { std::mem::zeroed() };
    attribute.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attribute.value.programmaticStreamSerializationAllowed = 1;
    let config = sys::CUlaunchConfig {
        gridDimX: groups.0,
        gridDimY: groups.1,
        gridDimZ: groups.2,
        blockDimX: block.0,
        blockDimY: block.1,
        blockDimZ: block.2,
        sharedMemBytes: 0,
        hStream: stream,
        attrs: &mut attribute,
        numAttrs: 1,
    };
    // SAFETY: the configuration and its one attribute live for the call; as the caller promises
    // for the function and parameters.
    unsafe { sys::cuLaunchKernelEx(&config, function, params.as_mut_ptr(), std::ptr::null_mut()) }
        .result()
}
