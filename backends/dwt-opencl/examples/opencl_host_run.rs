//! Times `Backend::run` of the OpenCL backend on host slices (copies in, the launches, copies
//! back), wall clock, median of many calls after warm-up: the OpenCL host path beside the CUDA
//! one (`dwt-bench/examples/host_run.rs`), on whatever OpenCL device there is. A markdown table.
use std::time::Instant;

use dwt_ir::{Direction, Layout};
use dwt_opencl::OpenClBackend;
use dwt_runtime::{Backend, Request, Samples};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let b = OpenClBackend::new().expect("an OpenCL device");
    println!("device: {}", b.device());
    for &(h, w, reps) in &[
        (1080usize, 1920usize, 50usize),
        (4096, 4096, 15),
        (8192, 8192, 6),
    ] {
        let req = Request {
            wavelet: dwt_catalogue::by_name("LeGall53").unwrap(),
            direction: Direction::Forward,
            shape: vec![h, w],
            levels: 3,
            layout: Layout::Mallat,
        };
        let mut data: Vec<i32> = (0..h * w).map(|i| (i % 251) as i32).collect();
        for _ in 0..2 {
            b.run(&req, Samples::I32(&mut data)).unwrap();
        }
        let t: Vec<f64> = (0..reps)
            .map(|_| {
                let t = Instant::now();
                b.run(&req, Samples::I32(&mut data)).unwrap();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        let ms = median(t);
        let bytes = (h * w * 4) as f64;
        // Where the time goes: the copies alone (as `run` makes them), the transform of a
        // buffer already on the device alone.
        let queue = b.queue().unwrap();
        let copies = median(
            (0..reps)
                .map(|_| {
                    let t = Instant::now();
                    let buffer = ocl::Buffer::<i32>::builder()
                        .queue(queue.clone())
                        .len(data.len())
                        .copy_host_slice(&data)
                        .build()
                        .unwrap();
                    buffer.read(&mut data).enq().unwrap();
                    queue.finish().unwrap();
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect(),
        );
        let on_device = ocl::Buffer::<i32>::builder()
            .queue(queue.clone())
            .len(data.len())
            .copy_host_slice(&data)
            .build()
            .unwrap();
        b.run_on_device(&req, &on_device).unwrap();
        let device = median(
            (0..reps)
                .map(|_| {
                    let t = Instant::now();
                    b.run_on_device(&req, &on_device).unwrap();
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect(),
        );
        println!(
            "| opencl | LeGall53 {h}x{w} i32 L3 fwd | {:.1} MB | {ms:.3} ms | {:.1} GB/s | copies alone {copies:.3} ms | on the device alone {device:.3} ms |",
            bytes / 1e6,
            2.0 * bytes / ms / 1e6
        );
    }
}
