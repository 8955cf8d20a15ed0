//! Batches of host frames (`Plan::execute_frames`), which the OpenCL backend runs in turns on
//! several queues of the plan (module `frames`): frames laid end to end in one `Vec` and in one
//! host buffer, 1 to 5 of them (more than the turns, so a queue takes a second frame); fused 2-D
//! plans (out of place), the two passes and fused 3-D plans (in place), 1-D; each frame against
//! the CPU reference, the samples around the batch untouched; float frames bit for bit against
//! the same plan's `execute`; a batch the prepared transform refuses. Each also on a backend made
//! to run host buffers in turns (`OpenClBackend::with_frames_in_turns`) where the device would run
//! them one after another, so that PoCL in CI takes the turns' path a GPU takes.

use dwt_ir::{Direction, ElementType, Layout};
use dwt_opencl::{LaunchConfig, OpenClBackend};
use dwt_runtime::{cpu, Element, Plan};

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
    // The same with host buffers in turns, where the device would run them one after another.
    let fused_turns = OpenClBackend::new().unwrap().with_frames_in_turns();
    let two_pass_turns =
        (OpenClBackend::with_config(LaunchConfig::two_pass()).unwrap()).with_frames_in_turns();
    let cases = [
        (
            [&fused, &fused_turns],
            "LeGall53",
            vec![96, 130],
            Direction::Forward,
        ),
        (
            [&two_pass, &two_pass_turns],
            "Fidelity",
            vec![96, 130],
            Direction::Inverse,
        ),
        (
            [&fused, &fused_turns],
            "LeGall53",
            vec![12, 20, 18],
            Direction::Inverse,
        ),
        (
            [&fused, &fused_turns],
            "Fidelity",
            vec![1000],
            Direction::Forward,
        ),
    ];
    for (backends, name, shape, direction) in cases {
        for b in backends {
            frames_end_to_end(b, name, &shape, direction);
        }
    }
}

fn frames_end_to_end(b: &OpenClBackend, name: &str, shape: &[usize], direction: Direction) {
    let turns_here = b.runs_frames_in_turns();
    let plan = plan(b, name, shape, direction, ElementType::I32);
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
            let turns = dwt_runtime::frames_in_turns();
            plan.execute_frames(buffer[offset..offset + count * n].chunks_exact_mut(n))
                .unwrap();
            // Host buffers in turns on several queues (on a GPU, or forced), `Vec`s one
            // after another.
            let in_turns = dwt_runtime::frames_in_turns() - turns;
            let pinned = kind != "Vec" && turns_here;
            assert_eq!(in_turns, if pinned { count as u64 } else { 0 });
            for (k, input) in inputs.iter().enumerate() {
                assert!(
                    buffer[offset + k * n..][..n] == reference(&plan, input)[..],
                    "{name} {direction:?} {shape:?}: frame {k} of {count} in a {kind} \
                     (in turns: {turns_here})"
                );
            }
            assert!(buffer[..offset].iter().all(|&v| v == SENTINEL));
            assert!(buffer[offset + count * n..].iter().all(|&v| v == SENTINEL));
        }
    }
}

/// f32 frames (CDF 9/7) in `Vec`s and in host buffers (in turns) bit for bit as the same plan's
/// `execute` gives them, and near the CPU reference.
#[test]
fn float_frames_match_execute() {
    let b = OpenClBackend::new().expect("an OpenCL device (PoCL in CI)");
    float_frames_match_execute_on(&b);
    float_frames_match_execute_on(&OpenClBackend::new().unwrap().with_frames_in_turns());
}

fn float_frames_match_execute_on(b: &OpenClBackend) {
    let plan = plan(b, "Cdf97", &[64, 96], Direction::Forward, ElementType::F32);
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
    let turns = dwt_runtime::frames_in_turns();
    plan.execute_frames(pinned.iter_mut()).unwrap();
    let expected = if b.runs_frames_in_turns() { 4 } else { 0 };
    assert_eq!(dwt_runtime::frames_in_turns() - turns, expected);
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

/// In turns (on a GPU, or forced where the device runs frames one after another): a batch of
/// five host buffers that fails at frame 3 names it and what each frame was left as
/// (`conformance::frames`).
#[test]
fn a_failure_in_turns_names_the_frame_and_what_each_was_left_as() {
    let b = (OpenClBackend::new().expect("an OpenCL device (PoCL in CI)")).with_frames_in_turns();
    dwt_runtime::conformance::frames::a_failure_in_turns_names_the_frame(&b, |n| {
        b.host_buffer::<i32>(n).unwrap()
    });
}

/// The prepared transform itself refuses a batch holding a frame of another length or type
/// before any frame moves (`conformance::frames`).
#[test]
fn a_batch_the_prepared_transform_refuses_is_untouched() {
    let b = OpenClBackend::new().expect("an OpenCL device (PoCL in CI)");
    dwt_runtime::conformance::frames::refused_batches_are_untouched(&b);
}
