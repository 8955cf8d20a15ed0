//! CUDA graphs of prepared transforms: the launches (and band copies) of one transform on one set
//! of buffers, recorded once and replayed with one `cuGraphLaunch`. A small image's transform is
//! a few short kernels whose cost is mostly launching them (host submission of each, and the
//! GPU's gap between dependent launches); a replay submits them together.
//!
//! A recorded graph holds its buffers' addresses, so it is kept per (stream, source, data) and
//! owns the scratch (and, for a fused plan run in place, the copy of the input) it was recorded
//! with. Each prepared request keeps the [`KEPT`] most recently used ones. What is recorded is
//! [`crate::launch::issue`], the same steps a transform runs without a graph.

use std::any::Any;
use std::collections::VecDeque;
use std::sync::Mutex;

use cudarc::driver::{result, sys};
use dwt_runtime::DwtError;

use crate::device_error;

/// Graphs kept per prepared request (each with its own scratch).
pub const KEPT: usize = 16;

/// The buffers a graph was recorded on (a prepared request's data always has its length).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Key {
    pub stream: usize,
    pub source: sys::CUdeviceptr,
    pub data: sys::CUdeviceptr,
}

/// Buffers a graph's nodes address that it owns (`CudaSlice`s of any element type).
pub(crate) type Owned = Vec<Box<dyn Any + Send + Sync>>;

/// An instantiated graph and what it must keep alive.
struct Recorded {
    key: Key,
    graph: sys::CUgraph,
    exec: sys::CUgraphExec,
    _buffers: Owned,
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

    /// Records what `issue` issues on `capture` (a stream of this context that nothing else
    /// uses meanwhile) into a graph owning `buffers`, keeps it for `key` and launches it on
    /// `stream`.
    pub(crate) fn record(
        &self,
        key: Key,
        capture: sys::CUstream,
        stream: sys::CUstream,
        buffers: Owned,
        issue: impl FnOnce(sys::CUstream) -> Result<(), DwtError>,
    ) -> Result<(), DwtError> {
        // SAFETY: `capture` is a valid stream; the capture is ended on every path below.
        unsafe {
            result::stream::begin_capture(
                capture,
                sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL,
            )
        }
        .map_err(device_error)?;
        let issued = issue(capture);
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
            _buffers: buffers,
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
