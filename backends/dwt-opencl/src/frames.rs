//! Host transforms of a batch of frames ([`Plan::execute_frames`](dwt_runtime::Plan::execute_frames)):
//! on a GPU or accelerator, frames in host buffers (pinned) go to [`TURNS`] working sets of the
//! plan in turn, each with its own in-order queue, so that one frame's copy to the device may run
//! while another's comes back and the next frame's copy in is queued while a kernel runs. On
//! NVIDIA's OpenCL that took 1.44-2.2x less time per frame than a loop of single transforms;
//! frames in ordinary memory, which the driver stages, took up to 1.28x more in turns
//! (BENCHMARKS.md, History), and are transformed one after another, as are all frames on a CPU
//! device (nothing to overlap) and on PoCL (one launch in flight at a time: `RUNS`). Each frame
//! is written, transformed and read back on its turn's queue exactly as a single host transform
//! is, without waiting; a turn comes round again only after its queue has finished the frame
//! before.

use dwt_runtime::{frames_one_after_another, DwtError, FrameFailure, FrameProgress, Samples};

use crate::working_set::{Role, WorkingSet};
use crate::{device_error, host_buffer, DeviceElement, OpenClBackend, Plan, NAME};

/// The queues a batch takes turns on.
const TURNS: usize = 3;

/// The working sets of a batch, each with the frame its queue is working on. Dropped, it waits
/// for every queue, errors included: the frames are borrowed only until the batch returns, and
/// reads into them may still be queued.
struct Turns<T: DeviceElement> {
    sets: Vec<(WorkingSet<T>, Option<usize>)>,
}

impl<T: DeviceElement> Drop for Turns<T> {
    fn drop(&mut self) {
        for (set, _) in &self.sets {
            // A queue that cannot finish has lost its device: its commands are over either way.
            let _ = set.queue.finish();
        }
    }
}

/// Transforms each frame on the device and back: in turns on [`TURNS`] queues where every frame
/// lies in a host buffer, else one after another.
pub(crate) fn run<T: DeviceElement>(
    backend: &OpenClBackend,
    plan: &Plan,
    frames: Vec<Samples>,
    len: usize,
) -> Result<(), FrameFailure> {
    let frames = dwt_runtime::prepared_frames::<T>(NAME, frames, len)?;
    let pinned = frames.iter().all(|frame| host_buffer::holds(frame));
    if !(backend.frames_in_turns && pinned) {
        return frames_one_after_another(frames, |frame| backend.execute_host(plan, frame));
    }
    let mut progress = FrameProgress::default();
    in_turns(backend, plan, frames, len, &mut progress).map_err(|e| progress.failure(e))
}

fn in_turns<T: DeviceElement>(
    backend: &OpenClBackend,
    plan: &Plan,
    frames: Vec<&mut [T]>,
    len: usize,
    progress: &mut FrameProgress,
) -> Result<(), DwtError> {
    let count = frames.len();
    // Taken before the sets, so released only after their drop has finished every queue.
    let _one = backend.one_run();
    let mut turns = Turns::<T> { sets: Vec::new() };
    for _ in 0..count.min(TURNS) {
        turns
            .sets
            .push((plan.spares.take(|| backend.queue())?, None));
    }
    for (i, frame) in frames.into_iter().enumerate() {
        let (set, busy) = &mut turns.sets[i % TURNS];
        if let Some(before) = busy.take() {
            progress.failed = Some(before);
            set.queue.finish().map_err(device_error)?;
            progress.transformed = before + 1;
        }
        progress.begin_in_turns(i);
        let uploaded = set.buffer(Role::Upload, len)?;
        // SAFETY: the frame stays borrowed, untouched here, until the queue has finished with
        // it (`finish` above or below, or `turns`' drop).
        unsafe { uploaded.write(&*frame).block(false).enq() }.map_err(device_error)?;
        progress.injected_failure(NAME)?;
        let result = if !plan.launches.runs_in_place() {
            let out = set.buffer(Role::Result, len)?;
            backend.execute::<T>(plan, set, Some(&uploaded), &out)?;
            out
        } else {
            backend.execute::<T>(plan, set, None, &uploaded)?;
            uploaded
        };
        // SAFETY: as the write's.
        unsafe { result.read(&mut *frame).block(false).enq() }.map_err(device_error)?;
        *busy = Some(i);
    }
    for i in count.saturating_sub(TURNS)..count {
        let (set, busy) = &mut turns.sets[i % TURNS];
        if busy.take().is_some() {
            progress.failed = Some(i);
            set.queue.finish().map_err(device_error)?;
            progress.transformed = i + 1;
        }
    }
    // Every queue finished: the sets are kept for the plan's next call.
    for (set, _) in std::mem::take(&mut turns.sets) {
        plan.spares.keep(set);
    }
    Ok(())
}
