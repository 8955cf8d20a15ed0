//! Checks of a backend's batches of frames (`Plan::execute_frames` through its prepared
//! transform's `run_frames`) that every backend running frames in turns is held to: a batch
//! refused before any frame moves, and what a failure part way leaves of each frame.

use std::ops::DerefMut;

use dwt_ir::{ElementType, Layout};

use crate::{cpu, Backend, DwtError, Plan, Samples};

/// Samples from -2000 to 2000, another order for every seed.
fn values(n: usize, seed: usize) -> Vec<i32> {
    (0..n)
        .map(|i| ((i * 7919 + seed * 104_729) % 4001) as i32 - 2000)
        .collect()
}

/// The prepared transform refuses a batch holding a frame of another length, or of another
/// element type, before any frame moves: no frame begun, the failure naming the frame and what
/// it takes, every frame as it was.
pub fn refused_batches_are_untouched(backend: &dyn Backend) {
    let shape = [64, 64];
    let plan = Plan::builder(
        backend,
        dwt_catalogue::by_name("LeGall53").expect("catalogue"),
        &shape,
    )
    .levels(2)
    .element(ElementType::I32)
    .build()
    .unwrap();
    let prepared = backend.prepare(&plan.request(), ElementType::I32).unwrap();
    let transform = prepared
        .transform
        .expect("the backend prepares a transform");
    let (mut good, mut short, mut float) = (values(4096, 1), values(4095, 2), vec![0f32; 4096]);
    let (g, s) = (good.clone(), short.clone());
    for bad in [Samples::I32(&mut short), Samples::F32(&mut float)] {
        let failure = transform
            .run_frames(vec![Samples::I32(&mut good), bad])
            .unwrap_err();
        assert_eq!(
            (failure.transformed, failure.touched, failure.failed),
            (0, 0, Some(1))
        );
        assert!(
            (failure.error.to_string()).contains("the prepared transform takes 4096 i32 samples"),
            "{}",
            failure.error
        );
    }
    assert_eq!((good, short), (g, s));
    assert!(float.iter().all(|&v| v == 0.0));
}

/// Five frames in the backend's pinned memory (`host_buffer(n)`, which the backend runs in
/// turns), failed at frame 3 once its copy in is issued ([`crate::fail_frames_in_turns_at`]): the
/// error names frame 3 and says frame 0 is transformed, frames 1 to 3 may be partly and frame 4 is
/// untouched, which holds for frames 0 and 4; the next batch on the plan is exact.
pub fn a_failure_in_turns_names_the_frame<B: DerefMut<Target = [i32]>>(
    backend: &dyn Backend,
    host_buffer: impl Fn(usize) -> B,
) {
    let wavelet = dwt_catalogue::by_name("DeslauriersDubuc97").expect("catalogue");
    let shape = [512, 640];
    let plan = Plan::builder(backend, wavelet, &shape)
        .levels(3)
        .element(ElementType::I32)
        .build()
        .unwrap();
    let reference = |input: &[i32]| {
        let mut want = input.to_vec();
        cpu::forward(wavelet, &mut want, &shape, 3, Layout::Mallat).unwrap();
        want
    };
    let inputs: Vec<Vec<i32>> = (0..5).map(|k| values(plan.len(), k)).collect();
    let mut frames: Vec<B> = (inputs.iter())
        .map(|input| {
            let mut buffer = host_buffer(input.len());
            buffer.copy_from_slice(input);
            buffer
        })
        .collect();
    crate::fail_frames_in_turns_at(Some(3));
    let e = plan.execute_frames(frames.iter_mut().map(|f| &mut f[..]));
    crate::fail_frames_in_turns_at(None);
    let e = e.unwrap_err();
    assert!(
        matches!(
            &e,
            DwtError::Frame {
                index: Some(3),
                count: 5,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string().ends_with(
            "frame 0 is transformed, frames 1 to 3 are possibly partly transformed, frame 4 is untouched"
        ),
        "{e}"
    );
    assert!(frames[0][..] == reference(&inputs[0])[..]);
    assert!(frames[4][..] == inputs[4][..]);
    for (frame, input) in frames.iter_mut().zip(&inputs) {
        frame.copy_from_slice(input);
    }
    plan.execute_frames(frames.iter_mut().map(|f| &mut f[..]))
        .unwrap();
    for (k, (frame, input)) in frames.iter().zip(&inputs).enumerate() {
        assert!(
            frame[..] == reference(input)[..],
            "frame {k} after the failure"
        );
    }
}
