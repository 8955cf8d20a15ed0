//! Batches of host frames (`Plan::execute_frames`), which the CUDA backend runs in turns on
//! several streams where the frames are page-locked, else one after another (module `frames`):
//! frames laid end to end in one buffer, in a `Vec` and in a host buffer; plans in place and out
//! of place; i16 host buffers; float frames against the same plan's `execute`; two threads'
//! batches at once; a batch the prepared transform refuses.

mod common;

use common::{locked, reference, values};

use cudarc::driver::sys;
use dwt_cuda::CudaBackend;
use dwt_ir::{Direction, ElementType, Layout};
use dwt_runtime::{Plan, Request};

fn request(name: &str, shape: &[usize], levels: u32, direction: Direction) -> Request<'static> {
    Request {
        wavelet: dwt_catalogue::by_name(name).expect("catalogue wavelet"),
        direction,
        shape: shape.to_vec(),
        levels,
        layout: Layout::Mallat,
    }
}

fn plan<'b>(b: &'b CudaBackend, req: &Request, element: ElementType) -> Plan<'b> {
    Plan::builder(b, req.wavelet, &req.shape)
        .levels(req.levels)
        .direction(req.direction)
        .element(element)
        .build()
        .unwrap()
}

const SENTINEL: i32 = 0x5a5a_5a5a;

/// 1, 2, 3 and 5 frames end to end in one buffer, 3 samples past a page boundary: in a `Vec`
/// (one frame after another, each locked for its copies; neighbours share a page, which neither
/// may lock) and in a host buffer (page-locked: in turns on several streams, frames of one
/// turn's stream and of another's in flight at once). Each frame as the CPU reference transforms
/// it, the samples around the batch untouched; for the `Vec`, the frames of 1 MiB or more locked
/// for their copies and no page left locked. Requests the plan runs in place and out of place.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn frames_end_to_end_transform_as_the_reference_does() {
    let b = CudaBackend::new().expect("a CUDA device");
    let requests = [
        request("LeGall53", &[1024, 1024], 3, Direction::Forward),
        request("DeslauriersDubuc137", &[1080, 1920], 3, Direction::Inverse),
        request("LeGall53", &[1 << 20], 4, Direction::Forward),
        request("HaarWithShift", &[48, 64, 80], 2, Direction::Forward),
        request("Fidelity", &[64, 64], 2, Direction::Forward),
    ];
    let mut in_place = [false; 2];
    for req in &requests {
        in_place[b
            .launch_plan(req, ElementType::I32)
            .unwrap()
            .runs_in_place() as usize] = true;
        let plan = plan(&b, req, ElementType::I32);
        let n = plan.len();
        for count in [1, 2, 3, 5] {
            let offset = 3;
            let total = offset + count * n + 7;
            let inputs: Vec<Vec<i32>> = (0..count).map(|k| values(n, k)).collect();
            let mut vec = vec![SENTINEL; total];
            let mut pinned = b.host_buffer::<i32>(total).unwrap();
            pinned.fill(SENTINEL);
            for buffer in [&mut vec[..], &mut pinned[..]] {
                for (k, input) in inputs.iter().enumerate() {
                    buffer[offset + k * n..][..n].copy_from_slice(input);
                }
            }
            for (buffer, is_vec) in [(&mut vec[..], true), (&mut pinned[..], false)] {
                let (before, turns) = (
                    dwt_cuda::host_bytes_locked(),
                    dwt_runtime::frames_in_turns(),
                );
                plan.execute_frames(buffer[offset..offset + count * n].chunks_exact_mut(n))
                    .unwrap();
                let in_turns = dwt_runtime::frames_in_turns() - turns;
                assert_eq!(in_turns, if is_vec { 0 } else { count as u64 });
                let bytes = dwt_cuda::host_bytes_locked() - before;
                let whole = (count * n * 4) as u64;
                match is_vec && n * 4 >= 1 << 20 {
                    true => assert!(
                        bytes + count as u64 * 2 * 4096 >= whole && bytes <= whole,
                        "{:?}: {bytes} of {whole} bytes locked",
                        req.shape
                    ),
                    false => assert_eq!(bytes, 0, "{:?}", req.shape),
                }
                for (k, input) in inputs.iter().enumerate() {
                    let frame = &buffer[offset + k * n..][..n];
                    assert!(
                        *frame == reference(req, input)[..],
                        "{} {:?}: frame {k} of {count} (in a Vec: {is_vec})",
                        req.wavelet.name,
                        req.shape
                    );
                    if is_vec {
                        for at in [0, n / 2, n - 1] {
                            assert!(!locked(&frame[at]), "frame {k}: sample {at} left locked");
                        }
                    }
                }
                assert!(buffer[..offset].iter().all(|&v| v == SENTINEL));
                assert!(buffer[offset + count * n..].iter().all(|&v| v == SENTINEL));
            }
        }
    }
    assert_eq!(in_place, [true, true], "plans in place and out of place");
}

/// Host buffers of i16 frames (page-locked already: nothing more is locked) and f32 frames in
/// `Vec`s and host buffers: the i16 ones as the CPU reference transforms them, the f32 ones bit for bit as the
/// same plan's `execute` does (the kernels are the same; `execute`'s against the reference to
/// a tolerance is the conformance suite's).
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn host_buffers_and_float_frames() {
    let b = CudaBackend::new().expect("a CUDA device");
    let req = request("DeslauriersDubuc97", &[1080, 1920], 3, Direction::Forward);
    let plan16 = plan(&b, &req, ElementType::I16);
    let n = plan16.len();
    let inputs: Vec<Vec<i16>> = (0..5)
        .map(|k| values(n, k).into_iter().map(|v| v as i16).collect())
        .collect();
    let mut buffers: Vec<_> = (inputs.iter())
        .map(|input| {
            let mut buffer = b.host_buffer::<i16>(n).unwrap();
            buffer.copy_from_slice(input);
            buffer
        })
        .collect();
    let (before, turns) = (
        dwt_cuda::host_bytes_locked(),
        dwt_runtime::frames_in_turns(),
    );
    plan16.execute_frames(buffers.iter_mut()).unwrap();
    assert_eq!(dwt_cuda::host_bytes_locked(), before);
    assert_eq!(dwt_runtime::frames_in_turns() - turns, 5);
    for (k, (buffer, input)) in buffers.iter().zip(&inputs).enumerate() {
        assert!(**buffer == reference(&req, input)[..], "frame {k}");
    }

    let req = request("Cdf97", &[1080, 1920], 3, Direction::Forward);
    let plan32 = plan(&b, &req, ElementType::F32);
    let inputs: Vec<Vec<f32>> = (0..3)
        .map(|k| values(n, k).into_iter().map(|v| v as f32 / 7.0).collect())
        .collect();
    let mut frames = inputs.clone();
    plan32.execute_frames(frames.iter_mut()).unwrap();
    let mut pinned: Vec<_> = (inputs.iter())
        .map(|input| {
            let mut buffer = b.host_buffer::<f32>(n).unwrap();
            buffer.copy_from_slice(input);
            buffer
        })
        .collect();
    let turns = dwt_runtime::frames_in_turns();
    plan32.execute_frames(pinned.iter_mut()).unwrap();
    assert_eq!(dwt_runtime::frames_in_turns() - turns, 3);
    for (k, frame) in pinned.iter().enumerate() {
        assert!(
            frame
                .iter()
                .zip(&frames[k])
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "frame {k}: in a host buffer and in a Vec"
        );
    }
    for (k, (frame, input)) in frames.iter().zip(&inputs).enumerate() {
        let mut one = input.clone();
        plan32.execute(&mut one).unwrap();
        assert!(
            frame
                .iter()
                .zip(&one)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "frame {k}"
        );
        let want = reference(&req, input);
        let worst = (frame.iter().zip(&want)).fold(0f32, |m, (a, b)| m.max((a - b).abs()));
        assert!(worst < 1e-2, "frame {k}: {worst} from the reference");
    }
}

/// Two threads each run batches of host buffers on one plan at once (each batch on streams of
/// its own): every frame exact, four rounds each.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn two_threads_run_batches_on_one_plan() {
    let b = CudaBackend::new().expect("a CUDA device");
    let req = request("LeGall53", &[512, 768], 3, Direction::Forward);
    let plan = plan(&b, &req, ElementType::I32);
    std::thread::scope(|s| {
        for t in 0..2 {
            let (b, plan, req) = (&b, &plan, &req);
            s.spawn(move || {
                let mut frames: Vec<_> = (0..4)
                    .map(|_| b.host_buffer::<i32>(plan.len()).unwrap())
                    .collect();
                for round in 0..4 {
                    let inputs: Vec<Vec<i32>> = (0..frames.len())
                        .map(|k| values(plan.len(), 100 * t + 10 * round + k))
                        .collect();
                    for (frame, input) in frames.iter_mut().zip(&inputs) {
                        frame.copy_from_slice(input);
                    }
                    let turns = dwt_runtime::frames_in_turns();
                    plan.execute_frames(frames.iter_mut()).unwrap();
                    assert_eq!(dwt_runtime::frames_in_turns() - turns, 4);
                    for (k, (frame, input)) in frames.iter().zip(&inputs).enumerate() {
                        assert!(
                            **frame == reference(req, input)[..],
                            "thread {t}, round {round}, frame {k}"
                        );
                    }
                }
            });
        }
    });
}

/// A thread that never used the device, handed host buffers made on another, runs them in turns
/// (the driver tells page-locked memory only in a current context), each frame exact.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn a_fresh_thread_runs_host_buffers_in_turns() {
    let b = CudaBackend::new().expect("a CUDA device");
    let req = request("LeGall53", &[256, 384], 2, Direction::Forward);
    let plan = plan(&b, &req, ElementType::I32);
    let inputs: Vec<Vec<i32>> = (0..4).map(|k| values(plan.len(), k)).collect();
    let mut frames: Vec<_> = (inputs.iter())
        .map(|input| {
            let mut buffer = b.host_buffer::<i32>(input.len()).unwrap();
            buffer.copy_from_slice(input);
            buffer
        })
        .collect();
    let in_turns = std::thread::scope(|s| {
        s.spawn(|| {
            plan.execute_frames(frames.iter_mut().map(|f| &mut f[..]))
                .unwrap();
            dwt_runtime::frames_in_turns()
        })
        .join()
        .unwrap()
    });
    assert_eq!(in_turns, 4);
    for (k, (frame, input)) in frames.iter().zip(&inputs).enumerate() {
        assert!(**frame == reference(&req, input)[..], "frame {k}");
    }
}

/// Frames in memory the caller registered (page-locked, not allocated so) run in turns, exact,
/// and stay registered: the batch neither locks nor unlocks them.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn memory_the_caller_registered_runs_in_turns() {
    let b = CudaBackend::new().expect("a CUDA device");
    let req = request("LeGall53", &[256, 384], 2, Direction::Forward);
    let plan = plan(&b, &req, ElementType::I32);
    let n = plan.len();
    let mut buffer = vec![0i32; 3 * n + 4096];
    let skip = buffer.as_ptr().align_offset(4096);
    let region = &mut buffer[skip..skip + 3 * n];
    b.context().bind_to_thread().unwrap();
    // SAFETY: the region lies inside `buffer`, which outlives the registration (undone below).
    let r = unsafe {
        sys::cuMemHostRegister_v2(region.as_mut_ptr().cast(), std::mem::size_of_val(region), 0)
    };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    assert!(locked(region.as_ptr()) && locked(&region[3 * n - 1]));
    let inputs: Vec<Vec<i32>> = (0..3).map(|k| values(n, k)).collect();
    for (frame, input) in region.chunks_exact_mut(n).zip(&inputs) {
        frame.copy_from_slice(input);
    }
    let (before, turns) = (
        dwt_cuda::host_bytes_locked(),
        dwt_runtime::frames_in_turns(),
    );
    plan.execute_frames(region.chunks_exact_mut(n)).unwrap();
    assert_eq!(dwt_runtime::frames_in_turns() - turns, 3);
    assert_eq!(dwt_cuda::host_bytes_locked(), before);
    for (k, (frame, input)) in region.chunks_exact(n).zip(&inputs).enumerate() {
        assert!(*frame == reference(&req, input)[..], "frame {k}");
    }
    assert!(
        locked(region.as_ptr()),
        "the caller's registration was undone"
    );
    // SAFETY: registered above, no copy pending.
    let r = unsafe { sys::cuMemHostUnregister(region.as_mut_ptr().cast()) };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    assert!(!locked(region.as_ptr()));
}

/// A batch of five host buffers in turns that fails at frame 3 names it and what each frame
/// was left as (`conformance::frames`).
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn a_failure_in_turns_names_the_frame_and_what_each_was_left_as() {
    let b = CudaBackend::new().expect("a CUDA device");
    dwt_runtime::conformance::frames::a_failure_in_turns_names_the_frame(&b, |n| {
        b.host_buffer::<i32>(n).unwrap()
    });
}

/// The prepared transform itself refuses a batch holding a frame of another length or type
/// before any frame moves (`conformance::frames`).
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn a_batch_the_prepared_transform_refuses_is_untouched() {
    let b = CudaBackend::new().expect("a CUDA device");
    dwt_runtime::conformance::frames::refused_batches_are_untouched(&b);
}
