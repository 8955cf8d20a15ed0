//! Host transforms of a batch of frames ([`Plan::execute_frames`](dwt_runtime::Plan::execute_frames)):
//! frames in page-locked memory (host buffers) go through [`TURNS`] streams in turn, so that one
//! frame's copy to the device runs while another is copied back (the bus carries both directions
//! at once; on an H100, copies both ways at once moved 78 GB/s against 50 GB/s one after the
//! other) and the next frame's copy in is queued while a kernel runs. Frames of ordinary memory
//! are transformed one after another as single host transforms are: the locking and unlocking
//! of their pages, which each copy needs, did not overlap the other stream's copies, and in
//! turns they were no faster (BENCHMARKS.md, History).
//!
//! Every frame is copied, transformed and copied back on its turn's stream exactly as a single
//! host transform is (module `host`), with that stream's own device buffers; a stream's turn
//! comes round again only after it has finished its frame before.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream};
use dwt_runtime::{frames_one_after_another, DwtError, FrameFailure, FrameProgress, Samples};

use crate::{device_error, host, CudaBackend, DeviceElement, Prepared, NAME};

/// The streams a batch takes turns on.
pub(crate) const TURNS: usize = 3;

/// Streams kept for the next batch ([`TURNS`] per batch running at once, up to this many batches).
const STREAMS_KEPT: usize = 4;

type Streams = [Arc<CudaStream>; TURNS];

/// One stream's turn: its device buffers, and the frame it is working on with its locked pages.
struct Turn<T: DeviceElement> {
    stream: Arc<CudaStream>,
    upload: CudaSlice<T>,
    /// Where an out-of-place plan writes (the upload is its source).
    out: Option<CudaSlice<T>>,
    busy: Option<(usize, host::Locked)>,
}

/// Transforms each frame on the device and back: in turns on [`TURNS`] streams where every
/// frame is page-locked, else one after another.
pub(crate) fn run<T: DeviceElement>(
    backend: &CudaBackend,
    prepared: &Prepared,
    frames: Vec<Samples>,
    len: usize,
) -> Result<(), FrameFailure> {
    let slices = dwt_runtime::prepared_frames::<T>(NAME, frames, len)?;
    let mut progress = FrameProgress::default();
    if slices.is_empty() {
        return Ok(());
    }
    // The driver answers whether memory is page-locked only in a current context: a thread that
    // never used this one would be told no.
    (backend.state.ctx.bind_to_thread()).map_err(|e| progress.failure(device_error(e)))?;
    if !slices.iter().all(|frame| host::is_locked(frame)) {
        return frames_one_after_another(slices, |frame| backend.execute_host(prepared, frame));
    }
    let streams = take_streams(backend).map_err(|e| progress.failure(e))?;
    in_turns(backend, prepared, &streams, slices, len, &mut progress)
        .map_err(|e| progress.failure(e))?;
    keep_streams(backend, streams);
    Ok(())
}

/// The frames, each on its turn's stream; every stream finished when this returns (the turns'
/// locked pages wait for their streams when dropped, errors included).
fn in_turns<T: DeviceElement>(
    backend: &CudaBackend,
    prepared: &Prepared,
    streams: &Streams,
    frames: Vec<&mut [T]>,
    len: usize,
    progress: &mut FrameProgress,
) -> Result<(), DwtError> {
    let turns = frames.len().min(TURNS);
    let mut turns: Vec<Turn<T>> = (streams[..turns].iter())
        .map(|stream| {
            // SAFETY: each frame's upload writes every element before a kernel reads it, and a
            // plan that reads a source writes every element of its output before the copy back.
            let alloc = || unsafe { stream.alloc::<T>(len) }.map_err(device_error);
            Ok(Turn {
                stream: stream.clone(),
                upload: alloc()?,
                out: match prepared.plan.runs_in_place() {
                    true => None,
                    false => Some(alloc()?),
                },
                busy: None,
            })
        })
        .collect::<Result<_, DwtError>>()?;
    let count = frames.len();
    for (i, frame) in frames.into_iter().enumerate() {
        let turn = &mut turns[i % TURNS];
        if let Some((before, locked)) = turn.busy.take() {
            progress.failed = Some(before);
            host::finish(locked)?;
            progress.transformed = before + 1;
        }
        progress.begin_in_turns(i);
        // SAFETY: the frame is borrowed for the whole batch, untouched here until its turn's
        // stream is finished (`finish`, or the turn's drop waiting for it).
        let locked = unsafe { host::upload(&turn.stream, frame, &mut turn.upload) }?;
        progress.injected_failure(NAME)?;
        let result = match &mut turn.out {
            Some(out) => {
                backend.execute(prepared, &turn.stream, Some(&turn.upload), out, false)?;
                &*out
            }
            None => {
                backend.execute(prepared, &turn.stream, None, &mut turn.upload, false)?;
                &turn.upload
            }
        };
        turn.busy = Some((
            i,
            host::download_async(&turn.stream, result, frame, locked)?,
        ));
    }
    // The last frames, in order.
    for i in count.saturating_sub(TURNS)..count {
        if let Some((_, locked)) = turns[i % TURNS].busy.take() {
            progress.failed = Some(i);
            host::finish(locked)?;
            progress.transformed = i + 1;
        }
    }
    Ok(())
}

/// [`TURNS`] streams of the backend's context: kept from an earlier batch, or new.
fn take_streams(backend: &CudaBackend) -> Result<Streams, DwtError> {
    let kept = (backend.state.frame_streams.lock())
        .map(|mut kept| kept.pop())
        .unwrap_or(None);
    if let Some(streams) = kept {
        return Ok(streams);
    }
    let mut streams = Vec::with_capacity(TURNS);
    for _ in 0..TURNS {
        streams.push(backend.state.ctx.new_stream().map_err(device_error)?);
    }
    streams
        .try_into()
        .map_err(|_| device_error("a batch's streams"))
}

/// Keeps the streams of a batch that finished for the next batch, up to [`STREAMS_KEPT`].
fn keep_streams(backend: &CudaBackend, streams: Streams) {
    if let Ok(mut kept) = backend.state.frame_streams.lock() {
        if kept.len() < STREAMS_KEPT {
            kept.push(streams);
        }
    }
}
