//! What the calls of one plan reuse: a [`WorkingSet`] is an in-order queue, the device buffers a
//! transform needs besides the caller's (a host transform's upload and result, the scratch, the
//! copy of a source) and a kernel object per launch, kept by the plan ([`Spares`]) after each call
//! that finished and taken by the next. Made afresh, they cost a 1920x1080 transform on NVIDIA's
//! OpenCL more than its kernels did: a buffer's making and first touch about 0.1 ms each, a
//! kernel object 0.02 ms more than setting a kept one's arguments, a queue 0.01 ms
//! (`dwt-bench/results/2026-11-28-h100-opencl-host-buffers/`). A call that fails drops its set,
//! whose queue may be in an error state. No call reads a part of a buffer that it did not write
//! first (a new buffer's contents are undefined too), so a set carries nothing from one call into
//! the next.

use std::any::Any;
use std::collections::hash_map::{Entry, HashMap};
use std::sync::Mutex;

use dwt_runtime::DwtError;
use ocl::{Buffer, Kernel, OclPrm, Queue};

use crate::device_error;

/// Sets kept at most per plan: as many threads as run one plan at once get a set each, and the
/// sets beyond these are freed when their call ends, so a burst of threads leaves no more than
/// this many buffers of each kind on the device.
const KEPT: usize = 4;

/// The working sets a plan keeps between calls (each for the plan's element type).
#[derive(Default)]
pub(crate) struct Spares {
    sets: Mutex<Vec<Box<dyn Any + Send>>>,
}

impl Spares {
    /// A kept set of element type `T`, or a new one on a queue from `new_queue`.
    pub(crate) fn take<T: OclPrm>(
        &self,
        new_queue: impl FnOnce() -> Result<Queue, DwtError>,
    ) -> Result<WorkingSet<T>, DwtError> {
        // A panic elsewhere while holding the lock leaves a list of whole sets: take it anyway.
        let kept = self.sets.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match kept.map(|set| set.downcast::<WorkingSet<T>>()) {
            Some(Ok(set)) => Ok(*set),
            _ => Ok(WorkingSet::new(new_queue()?)),
        }
    }

    /// Keeps `set` for the next call, after its queue finished everything it was given. Its
    /// kernels let go of the call's buffers first: an ocl kernel holds a reference to each buffer
    /// argument, which would keep a caller's buffer on the device after the caller dropped it.
    pub(crate) fn keep<T: OclPrm>(&self, set: WorkingSet<T>) {
        for (kernel, buffers) in set.kernels.values() {
            for i in 0..*buffers {
                if kernel.set_arg(i as u32, None::<&Buffer<T>>).is_err() {
                    return;
                }
            }
        }
        let mut sets = self.sets.lock().unwrap_or_else(|e| e.into_inner());
        if sets.len() < KEPT {
            sets.push(Box::new(set));
        }
    }
}

/// The buffers of a set, by what the transform uses them for.
#[derive(Clone, Copy)]
pub(crate) enum Role {
    /// A host transform's copy of the caller's slice.
    Upload,
    /// What a host transform that reads its upload as a source writes.
    Result,
    /// The plan's scratch.
    Scratch,
    /// A copy of the data, for a plan that reads a source and may not read the data as its own.
    SourceCopy,
}

/// A queue and the buffers and kernels made on it, of element type `T`.
pub(crate) struct WorkingSet<T: OclPrm> {
    pub queue: Queue,
    buffers: [Option<Buffer<T>>; 4],
    /// By the plan's step: the kernel object and how many buffer arguments lead its arguments.
    kernels: HashMap<usize, (Kernel, usize)>,
}

impl<T: OclPrm> WorkingSet<T> {
    fn new(queue: Queue) -> Self {
        WorkingSet {
            queue,
            buffers: [None, None, None, None],
            kernels: HashMap::new(),
        }
    }

    /// Enqueues the kernel of the plan's step `step` on `buffers`: the set's kernel object of that
    /// step with its buffer arguments set anew, or the one `make` builds on the set's queue (with
    /// every argument) the first time. The integer arguments that follow the buffers are the
    /// plan's, the same at every call, and stay as they were set.
    pub(crate) fn launch(
        &mut self,
        step: usize,
        buffers: &[&Buffer<T>],
        make: impl FnOnce(&Queue) -> Result<Kernel, DwtError>,
    ) -> Result<(), DwtError> {
        let kernel = match self.kernels.entry(step) {
            Entry::Occupied(kept) => {
                let (kernel, _) = kept.into_mut();
                for (i, &b) in buffers.iter().enumerate() {
                    kernel.set_arg(i as u32, b).map_err(device_error)?;
                }
                kernel
            }
            Entry::Vacant(slot) => &slot.insert((make(&self.queue)?, buffers.len())).0,
        };
        // SAFETY: the kernel's arguments are the plan's for it, as when every call made its
        // kernels; the buffers outlive the call, which waits for the queue.
        unsafe { kernel.enq() }.map_err(device_error)
    }

    /// The set's buffer for `role`, of `len` samples (uninitialised when new), its default queue
    /// the set's. A handle: the set keeps the buffer.
    pub(crate) fn buffer(&mut self, role: Role, len: usize) -> Result<Buffer<T>, DwtError> {
        let slot = &mut self.buffers[role as usize];
        match slot {
            Some(b) if b.len() == len => Ok(b.clone()),
            _ => {
                let b = Buffer::<T>::builder()
                    .queue(self.queue.clone())
                    .len(len)
                    .build()
                    .map_err(device_error)?;
                *slot = Some(b.clone());
                Ok(b)
            }
        }
    }
}
