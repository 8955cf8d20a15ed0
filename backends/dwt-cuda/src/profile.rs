//! Per-step timing of a plan: where a transform's time goes, step by step (the benchmark's
//! horizontal and vertical passes, van der Laan et al.'s Table IV), with an event between steps.

use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
use dwt_emit_c::Step;
use dwt_runtime::{DwtError, Request};

use crate::{device_error, launch, unsupported, CudaBackend, DeviceElement};

/// One step of a plan and its median time on the device.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTime {
    /// The step as planned: a launch (its kernel, grid and [`Pass`](dwt_emit_c::Pass)) or a
    /// band copy.
    pub step: Step,
    /// The median over the runs, in milliseconds.
    pub median_ms: f64,
}

impl std::fmt::Display for StepTime {
    /// The step, for a table row: `kernel [gx, gy, gz] x [bx, by]` or `band copy [d, h, w]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.step {
            Step::Launch(l) => write!(f, "{} {:?} x {:?}", l.kernel, l.groups, l.block),
            Step::Copy(c) => write!(f, "band copy {:?}", c.extents),
        }
    }
}

impl CudaBackend {
    /// Runs the request's plan `reps` times from `src` into `dst` (on `dst`'s stream, each
    /// launch issued on its own, never as a graph) with an event between consecutive steps, and
    /// returns each step with its median time. For reading where the time goes: the events
    /// between steps make the whole slower than [`run_on_device_into`](Self::run_on_device_into).
    /// A plan that works in place copies `src` into `dst` before each run, outside the timing.
    pub fn time_steps<T: DeviceElement>(
        &self,
        request: &Request,
        src: &CudaSlice<T>,
        dst: &mut CudaSlice<T>,
        reps: usize,
    ) -> Result<Vec<StepTime>, DwtError> {
        self.check_into(request, src, dst)?;
        if reps == 0 {
            return Err(unsupported(
                "time_steps needs at least one run (reps = 0)".to_string(),
            ));
        }
        let prepared = self.prepared(request, T::TYPE)?;
        let plan = &prepared.plan;
        let stream = dst.stream().clone();
        let flags = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let events = (0..=plan.steps.len())
            .map(|_| self.context().new_event(flags))
            .collect::<Result<Vec<_>, _>>()
            .map_err(device_error)?;
        // SAFETY: the plan writes every element of its scratch before reading it.
        let mut scratch =
            unsafe { stream.alloc::<T>(plan.scratch.max(1)) }.map_err(device_error)?;
        let len = dst.len();
        let mut times = vec![Vec::with_capacity(reps); plan.steps.len()];
        for _ in 0..reps {
            if !plan.reads_source {
                stream.memcpy_dtod(src, dst).map_err(device_error)?;
            }
            {
                let (source_at, _read) = src.device_ptr(&stream);
                let (data_at, _write) = dst.device_ptr_mut(&stream);
                let (scratch_at, _scratch) = scratch.device_ptr_mut(&stream);
                let at = launch::Addresses {
                    source: source_at,
                    data: data_at,
                    scratch: scratch_at,
                    len,
                    scratch_len: plan.scratch,
                    element_bytes: size_of::<T>(),
                    copy_in: false,
                };
                events[0].record(&stream).map_err(device_error)?;
                launch::issue_marked(
                    plan,
                    &prepared.functions,
                    &at,
                    stream.cu_stream(),
                    &mut |i| events[i + 1].record(&stream).map_err(device_error),
                )?;
            }
            for (i, t) in times.iter_mut().enumerate() {
                let ms = events[i].elapsed_ms(&events[i + 1]).map_err(device_error)?;
                t.push(f64::from(ms));
            }
        }
        Ok(plan
            .steps
            .iter()
            .zip(times)
            .map(|(step, mut t)| {
                t.sort_by(f64::total_cmp);
                StepTime {
                    step: step.clone(),
                    median_ms: t[t.len() / 2],
                }
            })
            .collect())
    }
}
