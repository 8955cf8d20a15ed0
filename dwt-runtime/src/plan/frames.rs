//! Transforms of many frames by one plan (the frames of a video, a stack of images):
//! [`Plan::execute_frames`], and what a failure part way leaves of each frame ([`FrameFailure`]).

use std::cell::Cell;

use super::{guarded, Plan, PlanData};
use crate::{DwtError, Element, Samples};

/// What a batch of frames was left as when it failed: frames `..transformed` are transformed,
/// frames `transformed..touched` may be partly transformed (their copies or kernels were under
/// way), and the rest are untouched; `failed` is the frame whose copy, kernels or wait failed
/// (`None` where the batch failed as a whole).
#[derive(Debug)]
pub struct FrameFailure {
    pub transformed: usize,
    pub touched: usize,
    pub failed: Option<usize>,
    pub error: DwtError,
}

impl FrameFailure {
    /// [`DwtError::Frame`] for a batch of `count` frames. Counts past the batch (a backend's
    /// mistake) are not believed: the error says every frame may be partly transformed.
    fn into_error(self, count: usize) -> DwtError {
        let (transformed, touched) = match self.transformed > count || self.touched > count {
            true => (0, count),
            false => (self.transformed, self.touched.max(self.transformed)),
        };
        DwtError::Frame {
            index: self.failed.filter(|&i| i < count),
            count,
            state: state(transformed, touched, count),
            error: Box::new(self.error),
        }
    }
}

thread_local! {
    /// Frames this thread's batches ran in turns, on any backend, for the tests to see which way
    /// a batch went (its only effect is speed).
    static IN_TURNS: Cell<u64> = const { Cell::new(0) };
    /// The frame at which this thread's batches in turns fail, for the tests of a failure part
    /// way ([`fail_frames_in_turns_at`]).
    static FAIL_AT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Frames the calling thread's batches ran in turns on several streams or queues (a backend's
/// [`FrameProgress::begin_in_turns`]), for the tests.
#[doc(hidden)]
pub fn frames_in_turns() -> u64 {
    IN_TURNS.with(Cell::get)
}

/// Makes the calling thread's batches in turns fail at frame `at` (`None`: not), once its copy to
/// the device is issued ([`FrameProgress::injected_failure`]), as a failing kernel or copy
/// would, for the tests.
#[doc(hidden)]
pub fn fail_frames_in_turns_at(at: Option<usize>) {
    FAIL_AT.with(|f| f.set(at));
}

/// How far a backend's batch got, frame by frame, for its [`FrameFailure`]: frames
/// `..transformed` are back on the host, `..started` were begun, and `failed` is the frame the
/// backend is working on (or waiting for) now.
#[derive(Debug, Default)]
pub struct FrameProgress {
    pub transformed: usize,
    pub started: usize,
    pub failed: Option<usize>,
}

impl FrameProgress {
    /// Frame `i` begun on a batch's turn: the frame any failure now is of, and counted.
    pub fn begin_in_turns(&mut self, i: usize) {
        (self.failed, self.started) = (Some(i), i + 1);
        IN_TURNS.with(|n| n.set(n.get() + 1));
    }

    /// The failure a test asked for at the frame begun last ([`fail_frames_in_turns_at`]), as
    /// `backend`'s device error; `Ok` otherwise.
    pub fn injected_failure(&self, backend: &str) -> Result<(), DwtError> {
        match self.failed.filter(|&i| FAIL_AT.with(Cell::get) == Some(i)) {
            Some(i) => Err(DwtError::Device {
                backend: backend.into(),
                message: format!("frame {i} failed as the test asked (fail_frames_in_turns_at)"),
            }),
            None => Ok(()),
        }
    }

    /// The batch's failure with `error`, as far as it got.
    pub fn failure(&self, error: DwtError) -> FrameFailure {
        FrameFailure {
            transformed: self.transformed,
            touched: self.started,
            failed: self.failed,
            error,
        }
    }
}

/// The frames of a batch as slices of `E`, each checked to be the `len` samples of `E` a
/// backend's prepared transform takes ([`Samples::check_prepared`]); else the failure of a
/// batch none of whose frames was begun.
pub fn prepared_frames<'a, E: Element>(
    backend: &str,
    frames: Vec<Samples<'a>>,
    len: usize,
) -> Result<Vec<&'a mut [E]>, FrameFailure> {
    let mut slices = Vec::with_capacity(frames.len());
    for (i, frame) in frames.into_iter().enumerate() {
        let refuse = |error| FrameFailure {
            transformed: 0,
            touched: 0,
            failed: Some(i),
            error,
        };
        frame
            .check_prepared(backend, E::TYPE, len)
            .map_err(refuse)?;
        let slice = E::from_samples(frame).ok_or_else(|| {
            refuse(DwtError::Unsupported {
                backend: backend.into(),
                what: format!("a frame of {} samples", E::NAME),
            })
        })?;
        slices.push(slice);
    }
    Ok(slices)
}

/// Runs `run` on each frame in turn, stopping at the first failure: the frames before it
/// transformed, it possibly in part, the rest untouched.
pub fn one_after_another<F>(
    frames: Vec<F>,
    mut run: impl FnMut(F) -> Result<(), DwtError>,
) -> Result<(), FrameFailure> {
    for (i, frame) in frames.into_iter().enumerate() {
        run(frame).map_err(|error| FrameFailure {
            transformed: i,
            touched: i + 1,
            failed: Some(i),
            error,
        })?;
    }
    Ok(())
}

/// Which frames of `count` are transformed, which may be partly, and which are untouched, in words.
fn state(transformed: usize, touched: usize, count: usize) -> String {
    let span = |from: usize, to: usize, what: &str| match to - from {
        1 => format!("frame {from} is {what}"),
        _ => format!("frames {from} to {} are {what}", to - 1),
    };
    if count == 0 {
        return "there were no frames".into();
    }
    let mut parts = Vec::new();
    if transformed > 0 {
        parts.push(span(0, transformed, "transformed"));
    }
    if touched > transformed {
        parts.push(span(transformed, touched, "possibly partly transformed"));
    }
    if count > touched {
        parts.push(span(touched, count, "untouched"));
    }
    parts.join(", ")
}

impl Plan<'_> {
    /// Transforms each of `frames` in place, as [`Plan::execute`] would one after another: each
    /// a slice, `Vec`, array or view the plan takes (or a backend's host buffer). On CUDA, and on
    /// OpenCL on a GPU, frames in host buffers (pinned memory) run in turns on three streams or
    /// queues, one frame's copy to the device beside another's copy back, which moves them
    /// through the bus 1.5-2x as fast as a loop of [`Plan::execute`] (BENCHMARKS.md); other
    /// frames and other backends run one after another.
    ///
    /// Every frame is checked (element type, shape, length) before any is transformed: one that
    /// does not fit is [`DwtError::Frame`] naming it, every frame untouched. A failure while
    /// running is [`DwtError::Frame`] too, saying which frames are transformed, which may be
    /// partly and which are untouched. Plans of rows and plans that check for NaN and infinity
    /// run [`Plan::execute`] on each frame in turn (a failing frame is left as that says).
    pub fn execute_frames<'d, E: Element, D: PlanData<'d, E>>(
        &self,
        frames: impl IntoIterator<Item = D>,
    ) -> Result<(), DwtError> {
        let mut slices = Vec::new();
        let mut refused = None;
        let mut count = 0;
        for frame in frames {
            match self.accept(frame) {
                Ok(slice) => slices.push(slice),
                Err(error) => {
                    refused.get_or_insert((count, error));
                }
            }
            count += 1;
        }
        if let Some((index, error)) = refused {
            return Err(DwtError::Frame {
                index: Some(index),
                count,
                state: "every frame is untouched (each is checked before any is transformed)"
                    .into(),
                error: Box::new(error),
            });
        }
        if count == 0 {
            return Ok(());
        }
        let kept = self.check_finite && E::KIND == dwt_ir::ElementKind::Float;
        if self.rows || kept {
            return one_after_another(slices, |frame| self.execute(frame)).map_err(|mut f| {
                // `execute` puts back a frame it held a copy of.
                if kept {
                    f.touched = f.transformed;
                }
                f.into_error(count)
            });
        }
        let samples: Vec<_> = slices.into_iter().map(E::samples).collect();
        let backend = self.backend.get();
        let ran = guarded(backend, "transforming frames", || {
            Ok(match &self.transform {
                Some(t) => t.run_frames(samples),
                None => one_after_another(samples, |frame| backend.run(&self.request(), frame)),
            })
        });
        match ran {
            Ok(Ok(())) => Ok(()),
            Ok(Err(failure)) => Err(failure.into_error(count)),
            Err(panicked) => Err(FrameFailure {
                transformed: 0,
                touched: count,
                failed: None,
                error: panicked,
            }
            .into_error(count)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::state;

    #[test]
    fn the_state_names_each_part_of_the_batch() {
        assert_eq!(
            state(0, 1, 3),
            "frame 0 is possibly partly transformed, frames 1 to 2 are untouched"
        );
        assert_eq!(
            state(2, 4, 5),
            "frames 0 to 1 are transformed, frames 2 to 3 are possibly partly transformed, frame 4 is untouched"
        );
        assert_eq!(
            state(1, 2, 2),
            "frame 0 is transformed, frame 1 is possibly partly transformed"
        );
    }
}
