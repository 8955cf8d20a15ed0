//! Host threads sharing one CUDA backend, as a thread pool over video frames does: each thread
//! with its own buffers on a stream of its own (created, or CUDA's per-thread default stream),
//! enough rounds that graphs are recorded, replayed and (more buffers than
//! [`dwt_cuda::GRAPHS_KEPT`]) evicted while other threads record; one `Plan` shared by every
//! thread; plans of one new request built by every thread at once; every result against the CPU
//! reference. The thread counts and rounds are fixed below (8 threads, a few rounds each).

mod common;

use common::reference;

use std::sync::Arc;

use cudarc::driver::CudaStream;
use dwt_cuda::CudaBackend;
use dwt_ir::{Direction, ElementType, Layout, Wavelet};
use dwt_runtime::{cpu, DwtError, KernelOrigin, Plan, Request};

const THREADS: usize = 8;

fn wavelet(name: &str) -> &'static Wavelet {
    dwt_catalogue::by_name(name).expect("catalogue wavelet")
}

fn request(w: &'static Wavelet, shape: &[usize], levels: u32, layout: Layout) -> Request<'static> {
    Request {
        wavelet: w,
        direction: Direction::Forward,
        shape: shape.to_vec(),
        levels,
        layout,
    }
}

/// Frame `frame` of thread `t`: values in -2000..=2000 that differ per thread and frame.
fn frame(n: usize, t: usize, frame: usize) -> Vec<i32> {
    (0..n)
        .map(|i| ((i * 7919 + t * 104729 + frame * 1299709) % 4001) as i32 - 2000)
        .collect()
}

/// Every thread runs `rounds` rounds over `pairs` buffer pairs of its own on the stream
/// `stream()` gives it: each round uploads a frame to every pair's source, queues every
/// transform into the destination and then in place on the source without waiting, and only
/// then reads them all back and compares (so that the threads' transforms overlap on the
/// device). Frames alternate between two per pair, their references computed once.
fn each_thread_on_its_own_buffers(
    b: &CudaBackend,
    req: &Request,
    stream: impl Fn() -> Arc<CudaStream> + Sync,
    pairs: usize,
    rounds: usize,
) {
    let n: usize = req.shape.iter().product();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let stream = &stream;
                s.spawn(move || -> Vec<String> {
                    let frames: Vec<Vec<(Vec<i32>, Vec<i32>)>> = (0..pairs)
                        .map(|i| {
                            (0..2)
                                .map(|f| {
                                    let host = frame(n, t, 2 * i + f);
                                    let want = reference(req, &host);
                                    (host, want)
                                })
                                .collect()
                        })
                        .collect();
                    let stream = stream();
                    let mut failures = Vec::new();
                    let mut srcs: Vec<_> = (0..pairs)
                        .map(|_| stream.alloc_zeros::<i32>(n).unwrap())
                        .collect();
                    let mut dsts: Vec<_> = (0..pairs)
                        .map(|_| stream.alloc_zeros::<i32>(n).unwrap())
                        .collect();
                    for round in 0..rounds {
                        for i in 0..pairs {
                            stream
                                .memcpy_htod(&frames[i][round % 2].0, &mut srcs[i])
                                .unwrap();
                            let ran = b
                                .run_on_device_into(req, &srcs[i], &mut dsts[i])
                                .and_then(|()| b.run_on_device(req, &mut srcs[i]));
                            if let Err(e) = ran {
                                failures.push(format!("thread {t}, round {round}, pair {i}: {e}"));
                            }
                        }
                        for i in 0..pairs {
                            let want = &frames[i][round % 2].1;
                            if stream.clone_dtoh(&dsts[i]).unwrap() != *want {
                                failures.push(format!("thread {t}, round {round}, pair {i}: into"));
                            }
                            if stream.clone_dtoh(&srcs[i]).unwrap() != *want {
                                failures
                                    .push(format!("thread {t}, round {round}, pair {i}: in place"));
                            }
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a thread panicked"))
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} wrong or failed transforms of {} ({:?} {:?}), e.g. {:?}",
        failures.len(),
        THREADS * pairs * rounds * 2,
        req.shape,
        req.layout,
        &failures[..failures.len().min(8)]
    );
}

/// The requests the threads run: the fused plan (in place it copies the input into a buffer
/// its graphs on a stream share) and the two passes (a scratch shared so), Mallat.
fn backends_and_requests() -> Vec<(CudaBackend, Request<'static>, &'static str)> {
    let shape = [540usize, 960];
    vec![
        (
            CudaBackend::new().expect("a CUDA device"),
            request(wavelet("LeGall53"), &shape, 3, Layout::Mallat),
            "fused",
        ),
        (
            CudaBackend::with_config(dwt_cuda::LaunchConfig::two_pass()).unwrap(),
            request(wavelet("DeslauriersDubuc137"), &shape, 3, Layout::Mallat),
            "two-pass",
        ),
    ]
}

/// 8 threads with a stream each (`CudaContext::new_stream`), 2 buffer pairs each (32 buffer
/// sets on one prepared request, twice the graphs kept: graphs are evicted, with the buffers
/// their stream shared, while other threads record), 6 rounds: 192 transforms of 540x960 per
/// backend.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn threads_with_streams_of_their_own_share_one_backend() {
    for (b, req, what) in backends_and_requests() {
        let ctx = b.context().clone();
        let before = b.graph_counts();
        each_thread_on_its_own_buffers(&b, &req, || ctx.new_stream().unwrap(), 2, 6);
        let after = b.graph_counts();
        eprintln!("{what}: {before:?} -> {after:?}");
        assert!(
            after.recorded > before.recorded,
            "{what}: no graph recorded"
        );
    }
}

/// The same on CUDA's per-thread default stream (`CudaContext::per_thread_stream`): one handle
/// (0x2) that is a different stream on every thread, so whatever is kept per stream handle
/// (the scratch and input copy a stream's graphs share) would be used by every thread at once.
/// 8 threads, 2 buffer pairs, 6 rounds.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn threads_on_their_per_thread_default_streams_share_one_backend() {
    for (b, req, _) in backends_and_requests() {
        let ctx = b.context().clone();
        each_thread_on_its_own_buffers(&b, &req, || ctx.per_thread_stream(), 2, 6);
    }
}

/// One `Plan` shared by 8 threads, each transforming 6 host frames of 8-bit pixels of its own
/// (integer, so bit for bit), while a ninth thread keeps handing the plan buffers of the wrong
/// length (20 times): those fail with `BufferLength`, the others all match the CPU reference.
/// Two plans, i16 and i32, each on 4 of the threads.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn one_plan_shared_by_threads_while_one_fails() {
    let b = CudaBackend::new().expect("a CUDA device");
    let shape = [120usize, 200];
    let n = shape[0] * shape[1];
    let w = wavelet("Fidelity");
    let plan = |element| {
        Plan::builder(&b, w, &shape)
            .levels(3)
            .element(element)
            .build()
            .unwrap()
    };
    let (i32_plan, i16_plan) = (plan(ElementType::I32), plan(ElementType::I16));
    let pixels = |t: usize, f: usize| {
        frame(n, t, f)
            .iter()
            .map(|v| v & 0xff)
            .collect::<Vec<i32>>()
    };
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (i32_plan, i16_plan) = (&i32_plan, &i16_plan);
            s.spawn(move || {
                for f in 0..6 {
                    let host = pixels(t, f);
                    if t % 2 == 0 {
                        let mut want = host.clone();
                        cpu::forward(w, &mut want, &shape, 3, Layout::Mallat).unwrap();
                        let mut data = host;
                        i32_plan.execute(&mut data).unwrap();
                        assert!(data == want, "thread {t}, frame {f}, i32");
                    } else {
                        let host: Vec<i16> = host.iter().map(|&v| v as i16).collect();
                        let mut want = host.clone();
                        cpu::forward(w, &mut want, &shape, 3, Layout::Mallat).unwrap();
                        let mut data = host;
                        i16_plan.execute(&mut data).unwrap();
                        assert!(data == want, "thread {t}, frame {f}, i16");
                    }
                }
            });
        }
        s.spawn(|| {
            for _ in 0..20 {
                let e = i32_plan.execute(&mut vec![0i32; n - 1]).unwrap_err();
                assert!(matches!(e, DwtError::BufferLength { .. }), "{e}");
            }
        });
    });
}

/// 8 threads building plans of one request no other test builds, at once: the module is
/// compiled (or loaded from the disk cache) once, the other plans find it in memory, and every
/// plan transforms as the CPU reference does.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn plans_of_one_new_request_built_at_once_build_its_module_once() {
    let b = CudaBackend::new().expect("a CUDA device");
    let w = dwt_ir::parse_str(
        "wavelet CudaThreadsBuiltAtOnce {\n    odd -= (even[0] + even[1] + 1) >> 1;\n    even += (odd[-1] + odd[0] + 2) >> 2;\n}",
    )
    .unwrap()
    .remove(0);
    let shape = [97usize, 151];
    let n = shape[0] * shape[1];
    let origins: Vec<Option<KernelOrigin>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let (b, w) = (&b, &w);
                s.spawn(move || {
                    let plan = Plan::builder(b, w, &shape).levels(2).build().unwrap();
                    let host = frame(n, t, 0);
                    let mut want = host.clone();
                    cpu::forward(w, &mut want, &shape, 2, Layout::Mallat).unwrap();
                    let mut data = host;
                    plan.execute(&mut data).unwrap();
                    assert!(data == want, "thread {t}");
                    plan.report().origin()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let built = origins
        .iter()
        .filter(|o| **o != Some(KernelOrigin::Memory))
        .count();
    assert_eq!(built, 1, "origins {origins:?}");
}
