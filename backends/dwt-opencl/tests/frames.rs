//! Batches of host frames (`Plan::execute_frames`), which the OpenCL backend runs in turns on
//! several queues of the plan (module `frames`): frames laid end to end in one `Vec` and in one
//! host buffer, 1 to 5 of them (more than the turns, so a queue takes a second frame); fused 2-D
//! plans (out of place), the two passes and fused 3-D plans (in place), 1-D; each frame against
//! the CPU reference, the samples around the batch untouched; float frames bit for bit against
//! the same plan's `execute`; a batch the prepared transform refuses.

use dwt_ir::{Direction, ElementType, Layout};
use dwt_opencl::{LaunchConfig, OpenClBackend};
use dwt_runtime::{cpu, Backend, Element, Plan, Samples};

fn plan<'b>(
    b: &'b OpenClBackend,
    name: &str,
    shape: &[usize],
    direction: Direction,
    element: ElementType,
) -> Plan<'b> {
    Plan::builder(b, dwt_catalogue::by_name(name).unwrap(), shape)
        .levels(2)
        .direction(direction)
        .element(element)
        .build()
        .unwrap()
}

/// 8-bit samples (the plans' default input range), another order for every seed.
fn values(n: usize, seed: usize) -> Vec<i32> {
    (0..n)
        .map(|i| ((i * 7919 + seed * 104_729) % 256) as i32)
        .collect()
}

fn reference<E: Element>(plan: &Plan, input: &[E]) -> Vec<E> {
    let mut want = input.to_vec();
    cpu::transform(
        plan.wavelet(),
        plan.direction(),
        &mut want,
        plan.shape(),
        plan.levels(),
        Layout::Mallat,
    )
    .unwrap();
    want
}

const SENTINEL: i32 = 0x5a5a_5a5a;

#[test]
fn frames_end_to_end_transform_as_the_reference_does() {
    let fused = OpenClBackend::new().expect("an OpenCL device (PoCL in CI)");
    let two_pass = OpenClBackend::with_config(LaunchConfig::two_pass()).unwrap();
    let cases = [
        (&fused, "LeGall53", vec![96, 130], Direction::Forward),
        (&two_pass, "Fidelity", vec![96, 130], Direction::Inverse),
        (&fused, "LeGall53", vec![12, 20, 18], Direction::Inverse),
        (&fused, "Fidelity", vec![1000], Direction::Forward),
    ];
    for (b, name, shape, direction) in cases {
        let plan = plan(b, name, &shape, direction, ElementType::I32);
        let n = plan.len();
        for count in [1, 2, 3, 5] {
            let offset = 3;
            let total = offset + count * n + 7;
            let inputs: Vec<Vec<i32>> = (0..count).map(|k| values(n, k)).collect();
            let mut vec = vec![SENTINEL; total];
            let mut pinned = b.host_buffer::<i32>(total).unwrap();
            pinned.fill(SENTINEL);
            for (buffer, kind) in [(&mut vec[..], "Vec"), (&mut pinned[..], "host buffer")] {
                for (k, input) in inputs.iter().enumerate() {
                    buffer[offset + k * n..][..n].copy_from_slice(input);
                }
                let turns = dwt_opencl::frames_in_turns();
                plan.execute_frames(buffer[offset..offset + count * n].chunks_exact_mut(n))
                    .unwrap();
                // Host buffers in turns on several queues (on a GPU), `Vec`s one after another.
                let in_turns = dwt_opencl::frames_in_turns() - turns;
                let pinned = kind != "Vec" && fused.runs_frames_in_turns();
                assert_eq!(in_turns, if pinned { count as u64 } else { 0 });
                for (k, input) in inputs.iter().enumerate() {
                    assert!(
                        buffer[offset + k * n..][..n] == reference(&plan, input)[..],
                        "{name} {direction:?} {shape:?}: frame {k} of {count} in a {kind}"
                    );
                }
                assert!(buffer[..offset].iter().all(|&v| v == SENTINEL));
                assert!(buffer[offset + count * n..].iter().all(|&v| v == SENTINEL));
            }
        }
    }
}

/// f32 frames (CDF 9/7) in `Vec`s and in host buffers (in turns) bit for bit as the same plan's
/// `execute` gives them, and near the CPU reference.
#[test]
fn float_frames_match_execute() {
    let b = OpenClBackend::new().expect("an OpenCL device (PoCL in CI)");
    let plan = plan(&b, "Cdf97", &[64, 96], Direction::Forward, ElementType::F32);
    let inputs: Vec<Vec<f32>> = (0..4)
        .map(|k| {
            values(plan.len(), k)
                .iter()
                .map(|&v| v as f32 / 7.0)
                .collect()
        })
        .collect();
    let mut frames = inputs.clone();
    plan.execute_frames(frames.iter_mut()).unwrap();
    let mut pinned: Vec<_> = (inputs.iter())
        .map(|input| {
            let mut buffer = b.host_buffer::<f32>(input.len()).unwrap();
            buffer.copy_from_slice(input);
            buffer
        })
        .collect();
    let turns = dwt_opencl::frames_in_turns();
    plan.execute_frames(pinned.iter_mut()).unwrap();
    let expected = if b.runs_frames_in_turns() { 4 } else { 0 };
    assert_eq!(dwt_opencl::frames_in_turns() - turns, expected);
    for (k, (frame, input)) in frames.iter().zip(&inputs).enumerate() {
        let mut one = b.host_buffer::<f32>(input.len()).unwrap();
        one.copy_from_slice(input);
        plan.execute(&mut one).unwrap();
        assert!(
            pinned[k]
                .iter()
                .zip(&one[..])
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "frame {k}: in a host buffer in turns"
        );
        assert!(
            frame
                .iter()
                .zip(&one[..])
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "frame {k}: in a Vec"
        );
        let want = reference(&plan, input);
        let worst = (frame.iter().zip(&want)).fold(0f32, |m, (a, b)| m.max((a - b).abs()));
        assert!(worst < 1e-3, "frame {k}: {worst} from the reference");
    }
}

/// On a GPU (frames in turns): a batch of five host-buffer frames that fails at frame 3 (once its
/// write is queued) names frame 3 and says frame 0 is transformed, frames 1 to 3 may be partly
/// and frame 4 is untouched, which holds for frames 0 and 4; the next batch is exact.
#[test]
#[ignore = "needs an OpenCL GPU, where frames run in turns (PoCL runs them one after another)"]
fn a_failure_in_turns_names_the_frame_and_what_each_was_left_as() {
    let b = OpenClBackend::new().expect("an OpenCL device");
    assert!(
        b.runs_frames_in_turns(),
        "{} runs frames one after another",
        b.device()
    );
    let plan = plan(
        &b,
        "DeslauriersDubuc97",
        &[512, 640],
        Direction::Forward,
        ElementType::I32,
    );
    let inputs: Vec<Vec<i32>> = (0..5).map(|k| values(plan.len(), k)).collect();
    let mut frames: Vec<_> = (inputs.iter())
        .map(|input| {
            let mut buffer = b.host_buffer::<i32>(input.len()).unwrap();
            buffer.copy_from_slice(input);
            buffer
        })
        .collect();
    dwt_opencl::fail_frames_in_turns_at(Some(3));
    let e = plan.execute_frames(frames.iter_mut()).unwrap_err();
    dwt_opencl::fail_frames_in_turns_at(None);
    assert!(
        matches!(
            &e,
            dwt_runtime::DwtError::Frame {
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
    assert!(frames[0][..] == reference(&plan, &inputs[0])[..]);
    assert!(frames[4][..] == inputs[4][..]);
    for (frame, input) in frames.iter_mut().zip(&inputs) {
        frame.copy_from_slice(input);
    }
    plan.execute_frames(frames.iter_mut()).unwrap();
    for (k, (frame, input)) in frames.iter().zip(&inputs).enumerate() {
        assert!(
            frame[..] == reference(&plan, input)[..],
            "frame {k} after the failure"
        );
    }
}

/// The prepared transform itself refuses a batch holding a frame of another length or type
/// before any frame moves, saying none was begun.
#[test]
fn a_batch_the_prepared_transform_refuses_is_untouched() {
    let b = OpenClBackend::new().expect("an OpenCL device (PoCL in CI)");
    let plan = plan(
        &b,
        "LeGall53",
        &[64, 64],
        Direction::Forward,
        ElementType::I32,
    );
    let prepared = b.prepare(&plan.request(), ElementType::I32).unwrap();
    let transform = prepared.transform.expect("OpenCL prepares a transform");
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
