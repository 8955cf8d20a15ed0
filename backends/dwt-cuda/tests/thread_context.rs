//! Transforms on device buffers from threads that never touched CUDA themselves: a worker of a
//! pool handed buffers made on another thread. The driver calls of a transform need the
//! backend's context current on the calling thread, which only cudarc's own calls (an
//! allocation, a copy) made so. A binary of its own: with a second stream in the process
//! cudarc waits on events before every use of a buffer, which binds the context by the way.

use dwt_cuda::CudaBackend;
use dwt_ir::{Direction, Layout};
use dwt_runtime::{cpu, Request};

/// Buffers made on the main thread; the first call (launched directly) and the second
/// (recorded) there, and then every call on a fresh thread of its own: the replay, a recording
/// and a direct launch (a buffer first seen there), 6 fresh threads in all, each result against
/// the CPU reference.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn fresh_threads_run_on_buffers_made_elsewhere() {
    let b = CudaBackend::new().expect("a CUDA device");
    let shape = vec![135usize, 241];
    let n: usize = shape.iter().product();
    let req = Request {
        wavelet: dwt_catalogue::by_name("LeGall53").unwrap(),
        direction: Direction::Forward,
        shape: shape.clone(),
        levels: 3,
        layout: Layout::Mallat,
    };
    let stream = b.stream();
    let host: Vec<i32> = (0..n).map(|i| ((i * 7919) % 4001) as i32 - 2000).collect();
    let mut want = host.clone();
    cpu::forward(req.wavelet, &mut want, &shape, 3, Layout::Mallat).unwrap();
    let src = stream.clone_htod(&host).unwrap();
    let mut dst = stream.alloc_zeros::<i32>(n).unwrap();
    let mut other = stream.alloc_zeros::<i32>(n).unwrap();
    for call in 0..2 {
        b.run_on_device_into(&req, &src, &mut dst).unwrap();
        assert_eq!(
            stream.clone_dtoh(&dst).unwrap(),
            want,
            "main thread, call {call}"
        );
    }
    let before = b.graph_counts();
    for call in 0..3 {
        for (what, dst) in [("replayed", &mut dst), ("new buffers", &mut other)] {
            std::thread::scope(|s| {
                s.spawn(|| b.run_on_device_into(&req, &src, dst))
                    .join()
                    .unwrap()
                    .unwrap_or_else(|e| panic!("fresh thread, {what}, call {call}: {e}"));
            });
            stream.synchronize().unwrap();
            assert_eq!(
                stream.clone_dtoh(dst).unwrap(),
                want,
                "fresh thread, {what}, call {call}"
            );
        }
    }
    let after = b.graph_counts();
    // The pair seen twice replays 3 times; the new pair runs directly, records, replays.
    assert_eq!(
        (
            after.recorded - before.recorded,
            after.replayed - before.replayed
        ),
        (1, 4)
    );
}
