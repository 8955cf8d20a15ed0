//! CUDA graphs of prepared transforms: the launches (and band copies) of one transform on one set
//! of buffers, recorded once and replayed with one `cuGraphLaunch`. A small image's transform is
//! a few short kernels whose cost is mostly launching them (host submission of each, and the
//! GPU's gap between dependent launches); a replay submits them together.
//!
//! A recorded graph holds its buffers' addresses, so it is kept per (stream, source, data) and
//! owns the scratch (and, for a fused plan run in place, the copy of the input) it was recorded
//! with. Each prepared request keeps the [`KEPT`] most recently used ones.
//!
//! Recording uses the driver directly rather than cudarc's launch builder: capture may not wait
//! on events recorded outside it, which cudarc's cross-stream tracking would add. The caller
//! takes the buffers' addresses through cudarc (`device_ptr`), which orders the replay against
//! other streams' use of them.

use std::any::Any;
use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::Mutex;

use cudarc::driver::{result, sys, CudaFunction};
use dwt_emit_c::{Buffer, LaunchPlan, Step};

use crate::device_error;
use dwt_runtime::DwtError;

/// Graphs kept per prepared request (each with its own scratch).
pub const KEPT: usize = 16;

/// The buffers a graph was recorded on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Key {
    pub stream: usize,
    pub source: sys::CUdeviceptr,
    pub data: sys::CUdeviceptr,
    pub len: usize,
}

/// An instantiated graph and what it must keep alive.
struct Recorded {
    key: Key,
    graph: sys::CUgraph,
    exec: sys::CUgraphExec,
    /// Scratch and source copy (`CudaSlice`s) the graph's nodes address.
    _buffers: Vec<Box<dyn Any + Send + Sync>>,
}

// SAFETY: the handles are only used under the `Graphs` mutex (the driver asks that calls on one
// graph be serialized) and the context they belong to outlives the process's backends.
unsafe impl Send for Recorded {}

impl Drop for Recorded {
    fn drop(&mut self) {
        // SAFETY: both handles were created by this value and are destroyed once; a launch still
        // running keeps its resources until it ends (the driver defers the release).
        unsafe {
            let _ = result::graph::exec_destroy(self.exec);
            let _ = result::graph::destroy(self.graph);
        }
    }
}

/// The graphs of one prepared request, most recently used last.
#[derive(Default)]
pub(crate) struct Graphs {
    kept: Mutex<VecDeque<Recorded>>,
}

/// Raw device addresses of a plan's buffers for one recording.
pub(crate) struct Addresses {
    pub source: sys::CUdeviceptr,
    pub data: sys::CUdeviceptr,
    pub scratch: sys::CUdeviceptr,
    /// Elements in the data (and the source).
    pub len: usize,
    /// The source is a copy of the data the graph makes first (a fused plan run in place).
    pub copy_in: bool,
}

impl Graphs {
    /// Replays the graph recorded for `key` on `stream`; `false` when there is none.
    pub(crate) fn replay(&self, key: Key, stream: sys::CUstream) -> Result<bool, DwtError> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let Some(i) = kept.iter().position(|r| r.key == key) else {
            return Ok(false);
        };
        let recorded = kept.remove(i).expect("found");
        // SAFETY: the exec is valid (owned by `recorded`), the stream is the caller's live one.
        let launched = unsafe { result::graph::launch(recorded.exec, stream) };
        kept.push_back(recorded);
        launched.map_err(device_error)?;
        Ok(true)
    }

    /// Records `plan` on the buffers at `at` (with `keep` owning the scratch and copy it
    /// addresses) into a graph, using `capture` (a stream of this context that nothing else
    /// uses while this runs), keeps it for `key` and launches it on `stream`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record_and_launch(
        &self,
        key: Key,
        stream: sys::CUstream,
        capture: sys::CUstream,
        plan: &LaunchPlan,
        functions: &std::collections::HashMap<String, CudaFunction>,
        at: Addresses,
        element_bytes: usize,
        keep: Vec<Box<dyn Any + Send + Sync>>,
    ) -> Result<(), DwtError> {
        // SAFETY: `capture` is a valid stream; the capture is ended on every path below.
        unsafe {
            result::stream::begin_capture(
                capture,
                sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL,
            )
        }
        .map_err(device_error)?;
        let issued = issue(plan, functions, &at, element_bytes, capture);
        // SAFETY: the capture began above on this thread.
        let ended = unsafe { result::stream::end_capture(capture) };
        issued?;
        let graph = ended.map_err(device_error)?;
        // SAFETY: `graph` is the captured graph; it is destroyed by `Recorded` or here.
        let exec =
            match unsafe { result::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)) } {
                Ok(exec) => exec,
                Err(e) => {
                    // SAFETY: the graph was created above and nothing else holds it.
                    let _ = unsafe { result::graph::destroy(graph) };
                    return Err(device_error(e));
                }
            };
        let recorded = Recorded {
            key,
            graph,
            exec,
            _buffers: keep,
        };
        // SAFETY: as in `replay`.
        unsafe { result::graph::launch(recorded.exec, stream) }.map_err(device_error)?;
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() >= KEPT {
            kept.pop_front();
        }
        kept.push_back(recorded);
        Ok(())
    }
}

/// Issues every step of `plan` on `stream` with raw driver calls.
fn issue(
    plan: &LaunchPlan,
    functions: &std::collections::HashMap<String, CudaFunction>,
    at: &Addresses,
    element_bytes: usize,
    stream: sys::CUstream,
) -> Result<(), DwtError> {
    if at.copy_in {
        // SAFETY: the source copy was allocated with the data's length.
        unsafe { result::memcpy_dtod_async(at.source, at.data, at.len * element_bytes, stream) }
            .map_err(device_error)?;
    }
    for step in &plan.steps {
        match step {
            Step::Copy(c) => {
                // SAFETY: the plan's band copies stay inside the data and the scratch (both
                // at least `span` elements long, as `execute` checks for its own copies).
                unsafe {
                    result::memcpy_dtod_async(at.scratch, at.data, c.span() * element_bytes, stream)
                }
                .map_err(device_error)?;
            }
            Step::Launch(l) => {
                if l.groups[0] == 0 || l.groups[1] == 0 {
                    continue;
                }
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
                // until the call returns, which copies them.
                unsafe {
                    result::launch_kernel(
                        functions[&l.kernel].cu_function(),
                        (l.groups[0] as u32, l.groups[1] as u32, 1),
                        (l.block[0] as u32, l.block[1] as u32, 1),
                        0,
                        stream,
                        &mut params,
                    )
                }
                .map_err(device_error)?;
            }
        }
    }
    Ok(())
}
