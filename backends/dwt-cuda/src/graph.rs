//! CUDA graphs of prepared transforms: the launches (and band copies) of one transform on one set
//! of buffers, recorded once and replayed with one `cuGraphLaunch`. A small image's transform is
//! a few short kernels whose cost is mostly launching them (host submission of each, and the
//! GPU's gap between dependent launches); a replay submits them together.
//!
//! A recorded graph holds its buffers' addresses, so it is kept per (stream, source, data); each
//! prepared request keeps the [`KEPT`] most recently used ones. The scratch (and, for a fused
//! plan run in place, the copy of the input) its nodes address is shared by the request's graphs
//! on that stream, which run in the stream's order: graphs take the memory of one call without
//! them, whatever the size. What is recorded is [`crate::launch::issue`], the same steps a
//! transform runs without a graph.
//!
//! Buffers are recorded on their second call, not their first: recording (capture and
//! instantiation) costs more than launching directly, so a caller that brings new buffers every
//! call would otherwise pay it every call and never replay.

use std::any::Any;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use cudarc::driver::{result, sys};
use dwt_runtime::DwtError;

use crate::device_error;

/// Graphs kept per prepared request (those of one stream sharing its buffers).
pub const KEPT: usize = 16;

/// Buffers seen once per prepared request, remembered so that their next call records.
const SEEN: usize = 4 * KEPT;

/// How many graphs a backend recorded and replayed (every prepared request of it together),
/// to tell whether a caller's loop replays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GraphCounts {
    pub recorded: usize,
    pub replayed: usize,
}

/// [`GraphCounts`], shared by a backend and the transforms it prepares.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    recorded: AtomicUsize,
    replayed: AtomicUsize,
}

impl Counters {
    pub(crate) fn get(&self) -> GraphCounts {
        GraphCounts {
            recorded: self.recorded.load(Ordering::Relaxed),
            replayed: self.replayed.load(Ordering::Relaxed),
        }
    }
}

/// What [`Graphs::replay`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Replay {
    /// The graph of these buffers was launched.
    Replayed,
    /// The buffers' first call: remembered, to be issued directly.
    FirstCall,
    /// Seen before without a graph: record one.
    Record,
}

/// The buffers a graph was recorded on (a prepared request's data always has its length).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Key {
    pub stream: usize,
    pub source: sys::CUdeviceptr,
    pub data: sys::CUdeviceptr,
}

/// A device buffer of any element type (a `CudaSlice`, freed in its stream's order when
/// dropped), its address and its length (elements).
pub(crate) struct DeviceBuffer {
    pub at: sys::CUdeviceptr,
    len: usize,
    _slice: Box<dyn Any + Send + Sync>,
}

impl DeviceBuffer {
    pub(crate) fn new(at: sys::CUdeviceptr, len: usize, slice: impl Any + Send + Sync) -> Self {
        DeviceBuffer {
            at,
            len,
            _slice: Box::new(slice),
        }
    }
}

/// The buffers of a request's graphs on one stream: the copy of the input (in place) and the
/// scratch, each allocated at the first recording that needs it.
#[derive(Default)]
struct StreamBuffers {
    copy: Option<Arc<DeviceBuffer>>,
    scratch: Option<Arc<DeviceBuffer>>,
}

/// The shared buffers a recording addresses ([`Graphs::stream_buffers`]), held from before its
/// capture for as long as its graph is kept: another thread's recording may evict the stream's
/// last graph meanwhile and with it the stream's [`StreamBuffers`], which must not free what
/// this graph's nodes address.
pub(crate) struct Shared {
    pub copy_at: sys::CUdeviceptr,
    pub scratch_at: sys::CUdeviceptr,
    _held: Vec<Arc<DeviceBuffer>>,
}

/// An instantiated graph.
struct Recorded {
    key: Key,
    graph: sys::CUgraph,
    exec: sys::CUgraphExec,
    /// Dropped after the graph (fields drop after `Drop::drop`): freed in stream order, after
    /// its last launch.
    _buffers: Shared,
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

/// The graphs of one prepared request, most recently used last, the buffers called once, and
/// per stream the buffers its graphs share.
#[derive(Default)]
struct Kept {
    graphs: VecDeque<Recorded>,
    seen: VecDeque<Key>,
    buffers: HashMap<usize, StreamBuffers>,
}

impl Kept {
    fn see(&mut self, key: Key) {
        if self.seen.len() >= SEEN {
            self.seen.pop_front();
        }
        self.seen.push_back(key);
    }
}

/// The graphs of one prepared request.
#[derive(Default)]
pub(crate) struct Graphs {
    kept: Mutex<Kept>,
}

impl Graphs {
    /// Replays the graph recorded for `key` on `stream`, or says whether to record one.
    pub(crate) fn replay(
        &self,
        key: Key,
        stream: sys::CUstream,
        counters: &Counters,
    ) -> Result<Replay, DwtError> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let Some(i) = kept.graphs.iter().position(|r| r.key == key) else {
            if let Some(j) = kept.seen.iter().position(|&k| k == key) {
                kept.seen.remove(j);
                return Ok(Replay::Record);
            }
            kept.see(key);
            return Ok(Replay::FirstCall);
        };
        let recorded = kept.graphs.remove(i).expect("found");
        // SAFETY: the exec is valid (owned by `recorded`), the stream is the caller's live one.
        let launched = unsafe { result::graph::launch(recorded.exec, stream) };
        kept.graphs.push_back(recorded);
        launched.map_err(device_error)?;
        counters.replayed.fetch_add(1, Ordering::Relaxed);
        Ok(Replay::Replayed)
    }

    /// The copy of the input (of `copy` elements; address 0 when `None`) and the scratch
    /// (`scratch` elements; 0 when none) that this request's graphs on `stream` share,
    /// allocated by `alloc` where not yet or shorter than asked (a request's plans differ: in
    /// place it may run one needing more scratch than out of place; the graphs recorded on the
    /// shorter one keep it); held until the recording's graph is dropped.
    pub(crate) fn stream_buffers(
        &self,
        stream: usize,
        copy: Option<usize>,
        scratch: usize,
        mut alloc: impl FnMut(usize) -> Result<DeviceBuffer, DwtError>,
    ) -> Result<Shared, DwtError> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let buffers = kept.buffers.entry(stream).or_default();
        let mut held = Vec::new();
        let mut take =
            |slot: &mut Option<Arc<DeviceBuffer>>, n: Option<usize>| -> Result<_, DwtError> {
                let buffer = match (n, slot.as_ref()) {
                    (None | Some(0), _) => return Ok(0),
                    (Some(n), Some(b)) if b.len >= n => b.clone(),
                    (Some(n), _) => slot.insert(Arc::new(alloc(n)?)).clone(),
                };
                let at = buffer.at;
                held.push(buffer);
                Ok(at)
            };
        let copy_at = take(&mut buffers.copy, copy)?;
        let scratch_at = take(&mut buffers.scratch, Some(scratch))?;
        Ok(Shared {
            copy_at,
            scratch_at,
            _held: held,
        })
    }

    /// Records what `issue` issues on `capture` (a stream of this context that nothing else
    /// uses meanwhile) into a graph, keeps it for `key` and launches it on `stream`.
    pub(crate) fn record(
        &self,
        key: Key,
        buffers: Shared,
        capture: sys::CUstream,
        stream: sys::CUstream,
        counters: &Counters,
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
        counters.recorded.fetch_add(1, Ordering::Relaxed);
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.graphs.push_back(recorded);
        if kept.graphs.len() > KEPT {
            // Its buffers were called more than once: their next call records again.
            let evicted = kept.graphs.pop_front().expect("full").key;
            kept.see(evicted);
            // The last graph on its stream gone, so are the buffers they shared (freed after
            // the stream's launches, once no recording in progress holds them).
            if !kept.graphs.iter().any(|r| r.key.stream == evicted.stream) {
                kept.buffers.remove(&evicted.stream);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;

    /// A buffer stand-in that says when it is dropped (freed).
    struct Freed(Arc<AtomicBool>);

    impl Drop for Freed {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    /// The interleaving of two threads' recordings, made deterministic: a recording on stream 1
    /// takes the buffers its stream's graphs share; before it captures, [`KEPT`] recordings on
    /// stream 2 evict stream 1's only graph, and with it stream 1's buffers. The buffers the
    /// first recording addresses must live until its graph goes, not be freed under it (they
    /// were: the map held the only reference).
    #[test]
    #[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
    fn a_recording_keeps_its_buffers_while_other_streams_evict_its_streams_graphs() {
        let backend = crate::CudaBackend::new().expect("a CUDA device");
        let ctx = backend.context();
        ctx.bind_to_thread().unwrap();
        let (s1, s2, capture) = (
            ctx.new_stream().unwrap(),
            ctx.new_stream().unwrap(),
            ctx.new_stream().unwrap(),
        );
        let graphs = Graphs::default();
        let counters = Counters::default();
        let freed = Arc::new(AtomicBool::new(false));
        let ours = |n| Ok(DeviceBuffer::new(0x1000, n, Freed(freed.clone())));
        let others = |n| Ok(DeviceBuffer::new(0x2000, n, ()));
        let key = |stream: &cudarc::driver::CudaStream, data| Key {
            stream: stream.cu_stream() as usize,
            source: 0,
            data,
        };
        let record = |k: Key, shared, stream: &cudarc::driver::CudaStream| {
            // An empty capture: the graph's nodes do not matter here, its buffers do.
            graphs
                .record(
                    k,
                    shared,
                    capture.cu_stream(),
                    stream.cu_stream(),
                    &counters,
                    |_| Ok(()),
                )
                .unwrap()
        };
        let first = graphs.stream_buffers(k1(&s1), None, 8, ours).unwrap();
        record(key(&s1, 1), first, &s1);
        let held = graphs.stream_buffers(k1(&s1), None, 8, ours).unwrap();
        assert_eq!(held.scratch_at, 0x1000, "the stream's shared scratch");
        for i in 0..KEPT as u64 {
            let shared = graphs.stream_buffers(k1(&s2), None, 8, others).unwrap();
            record(key(&s2, 100 + i), shared, &s2);
        }
        assert!(
            !freed.load(Ordering::SeqCst),
            "stream 1's scratch was freed while a recording addresses it"
        );
        record(key(&s1, 2), held, &s1);
        for i in 0..KEPT as u64 {
            let shared = graphs.stream_buffers(k1(&s2), None, 8, others).unwrap();
            record(key(&s2, 200 + i), shared, &s2);
        }
        assert!(
            freed.load(Ordering::SeqCst),
            "freed once no graph addresses it"
        );
        s1.synchronize().unwrap();
        s2.synchronize().unwrap();
    }

    fn k1(stream: &cudarc::driver::CudaStream) -> usize {
        stream.cu_stream() as usize
    }

    /// A request's graphs on one stream share its scratch, but its plans may need more or less
    /// of it (in place, without the one-pass volume kernel, a 512^3 inverse needs the volume;
    /// out of place half of it, and a graph replayed on the shorter scratch wrote past it): a
    /// recording that needs more than the stream's scratch gets a new one, which later
    /// recordings share; one that needs less shares the larger.
    #[test]
    fn a_recording_needing_more_scratch_than_its_stream_shares_gets_its_own() {
        let graphs = Graphs::default();
        let next = std::cell::Cell::new(0x1000u64);
        let alloc = |n| {
            let at = next.get();
            next.set(at + 0x1000);
            Ok(DeviceBuffer::new(at, n, ()))
        };
        let scratch = |n| graphs.stream_buffers(7, None, n, alloc).unwrap().scratch_at;
        assert_eq!(scratch(8), 0x1000);
        assert_eq!(scratch(8), 0x1000, "shared");
        assert_eq!(scratch(16), 0x2000, "longer than the stream's: a new one");
        assert_eq!(scratch(8), 0x2000, "the longer one, shared");
        assert_eq!(scratch(16), 0x2000);
        let copy = |n| graphs.stream_buffers(7, Some(n), 0, alloc).unwrap().copy_at;
        assert_eq!((copy(4), copy(4), copy(5)), (0x3000, 0x3000, 0x4000));
    }
}
