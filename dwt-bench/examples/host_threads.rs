//! Times host transforms (`Backend::run` on host slices) from 1, 2 and 4 threads sharing one
//! backend, each on frames of its own: the aggregate rate in frames per second (wall clock over
//! all threads' calls, after warm-up), and its ratio to one thread's. A markdown table.
use std::time::Instant;

use dwt_cuda::CudaBackend;
use dwt_ir::{Direction, Layout};
use dwt_runtime::{Backend, Request, Samples};

fn main() {
    let label = std::env::args().nth(1).unwrap_or_default();
    let b = CudaBackend::new().expect("a CUDA device");
    let wavelet = dwt_catalogue::by_name("LeGall53").unwrap();
    for &(h, w, calls) in &[(1080usize, 1920usize, 200usize), (4096, 4096, 30)] {
        let req = Request {
            wavelet,
            direction: Direction::Forward,
            shape: vec![h, w],
            levels: 3,
            layout: Layout::Mallat,
        };
        let mut one = 0.0;
        for threads in [1usize, 2, 4] {
            let mut frames: Vec<Vec<i32>> = (0..threads)
                .map(|t| (0..h * w).map(|i| ((i + t) % 251) as i32).collect())
                .collect();
            for f in frames.iter_mut() {
                b.run(&req, Samples::I32(f)).unwrap();
            }
            let start = Instant::now();
            std::thread::scope(|s| {
                for f in frames.iter_mut() {
                    let (b, req) = (&b, &req);
                    s.spawn(move || {
                        for _ in 0..calls {
                            b.run(req, Samples::I32(f)).unwrap();
                        }
                    });
                }
            });
            let rate = (threads * calls) as f64 / start.elapsed().as_secs_f64();
            if threads == 1 {
                one = rate;
            }
            println!("| {label} | {h}x{w} i32 L3 fwd | {threads} threads | {rate:.0} frames/s | {:.2}x one thread |", rate / one);
        }
    }
}
