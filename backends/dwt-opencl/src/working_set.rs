//! What the calls of one plan reuse: a [`WorkingSet`] is an in-order queue, the device buffers a
//! transform needs besides the caller's (a host transform's upload and result, the scratch, the
//! copy of a source) and a kernel object per launch, kept by the plan ([`Spares`]) after each call
//! that finished and taken by the next. Made afresh, they cost a 1920x1080 transform on NVIDIA's
//! OpenCL more than its kernels did: a buffer's making and first touch about 0.1 ms each, a
//! kernel object 0.02 ms more than setting a kept one's arguments, a queue 0.01 ms
//! (`dwt-bench/results/2026-11-28-h100-opencl-host-buffers/`). A call that fails drops its set,
//! whose queue may be in an error state. No call reads a part of a buffer that it did not write
//! first (a new buffer's contents are undefined too), so a set carries nothing from one call into
//! the next. What the sets of all plans keep is bounded ([`KEPT_MEMORY`]).

use std::any::Any;
use std::collections::hash_map::{Entry, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use dwt_runtime::DwtError;
use ocl::{Buffer, Kernel, OclPrm, Queue};

use crate::device_error;

/// Sets kept at most per plan: as many threads as run one plan at once get a set each, and the
/// sets beyond these are freed when their call ends, so a burst of threads leaves no more than
/// this many buffers of each kind on the device.
const KEPT: usize = 4;

/// Device memory that kept sets may hold, counted over every plan of the process.
pub(crate) struct Budget {
    held: AtomicUsize,
    max: usize,
}

impl Budget {
    pub(crate) const fn new(max: usize) -> Self {
        Budget {
            held: AtomicUsize::new(0),
            max,
        }
    }

    /// Counts `bytes` as kept, unless that would pass the budget.
    fn reserve(&self, bytes: usize) -> bool {
        self.held
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |held| {
                held.checked_add(bytes).filter(|&total| total <= self.max)
            })
            .is_ok()
    }

    fn release(&self, bytes: usize) {
        self.held.fetch_sub(bytes, Ordering::SeqCst);
    }

    /// Bytes the kept sets hold now.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.held.load(Ordering::SeqCst)
    }
}

/// What the kept sets of all plans hold at most together: 2 GiB, the buffers of three host
/// transforms of 8192x8192 i32 or of thirty of a 3840x2160 frame. A set past it is freed at the
/// end of its call, as every set was before they were kept, so a process that transforms many
/// sizes keeps the buffers of a few of them rather than of all on the device.
pub(crate) static KEPT_MEMORY: Budget = Budget::new(2 << 30);

/// The working sets a plan keeps between calls (each for the plan's element type), with the bytes
/// each holds.
pub(crate) struct Spares {
    sets: Mutex<Vec<(usize, Box<dyn Any + Send>)>>,
    budget: &'static Budget,
}

impl Default for Spares {
    fn default() -> Self {
        Spares::with_budget(&KEPT_MEMORY)
    }
}

impl Drop for Spares {
    fn drop(&mut self) {
        let sets = self.sets.get_mut().unwrap_or_else(|e| e.into_inner());
        for (bytes, _) in sets.drain(..) {
            self.budget.release(bytes);
        }
    }
}

impl Spares {
    pub(crate) fn with_budget(budget: &'static Budget) -> Self {
        Spares {
            sets: Mutex::default(),
            budget,
        }
    }

    /// A kept set of element type `T`, or a new one on a queue from `new_queue`.
    pub(crate) fn take<T: OclPrm>(
        &self,
        new_queue: impl FnOnce() -> Result<Queue, DwtError>,
    ) -> Result<WorkingSet<T>, DwtError> {
        // A panic elsewhere while holding the lock leaves a list of whole sets: take it anyway.
        let kept = self.sets.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let Some((bytes, set)) = kept else {
            return Ok(WorkingSet::new(new_queue()?));
        };
        self.budget.release(bytes);
        match set.downcast::<WorkingSet<T>>() {
            Ok(set) => Ok(*set),
            Err(_) => Ok(WorkingSet::new(new_queue()?)),
        }
    }

    /// Sets kept now.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.sets.lock().unwrap().len()
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
        let bytes = set.bytes();
        let mut sets = self.sets.lock().unwrap_or_else(|e| e.into_inner());
        if sets.len() < KEPT && self.budget.reserve(bytes) {
            sets.push((bytes, Box::new(set)));
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

    /// Device memory the set's buffers hold.
    fn bytes(&self) -> usize {
        self.buffers
            .iter()
            .flatten()
            .map(|b| b.len() * std::mem::size_of::<T>())
            .sum()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn queue() -> Queue {
        crate::OpenClBackend::new()
            .expect("an OpenCL device (PoCL in CI)")
            .queue()
            .unwrap()
    }

    /// Sets are kept while they fit the budget and the count per plan, counted out when taken
    /// again and when their plan is dropped; a set past either is freed.
    #[test]
    fn kept_sets_stay_within_their_budget_and_count() {
        static BUDGET: Budget = Budget::new(5000);
        let spares = Spares::with_budget(&BUDGET);
        let with = |samples: usize| {
            let mut set = spares.take::<i32>(|| Ok(queue())).unwrap();
            set.buffer(Role::Upload, samples).unwrap();
            set
        };
        let (a, b, c) = (with(500), with(500), with(300));
        spares.keep(a);
        spares.keep(b);
        assert_eq!((spares.len(), BUDGET.held()), (2, 4000));
        spares.keep(c); // 1200 bytes more would pass 5000
        assert_eq!((spares.len(), BUDGET.held()), (2, 4000));
        let again = spares
            .take::<i32>(|| panic!("a kept set was there"))
            .unwrap();
        assert_eq!((again.bytes(), BUDGET.held()), (2000, 2000));
        drop(again);
        assert_eq!((spares.len(), BUDGET.held()), (1, 2000));
        // The first of these takes the kept set, whose upload is made again at its new length.
        let small: Vec<_> = (0..KEPT + 2).map(|_| with(1)).collect();
        assert_eq!((spares.len(), BUDGET.held()), (0, 0));
        for set in small {
            spares.keep(set);
        }
        assert_eq!((spares.len(), BUDGET.held()), (KEPT, 4 * KEPT));
        drop(spares);
        assert_eq!(BUDGET.held(), 0);
    }
}
