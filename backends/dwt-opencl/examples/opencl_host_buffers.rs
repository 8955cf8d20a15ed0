//! Times host transforms (`Backend::run`) of ordinary memory (a `Vec`, copied through the
//! driver's staging) against an `OpenClBackend::host_buffer` (pinned, mapped once), side by side
//! in one run: wall clock, median of many calls after warm-up, the two alternating in rounds;
//! and the bare copies from and back into the host buffer (one device buffer written and read),
//! what the bus allows. A markdown table with the ratios; the CUDA counterpart is
//! `dwt-bench/examples/host_buffers.rs`.
use std::time::Instant;

use dwt_ir::{Direction, Layout};
use dwt_opencl::OpenClBackend;
use dwt_runtime::{Backend, Request, Samples};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn ms(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let b = OpenClBackend::new().expect("an OpenCL device");
    println!("device: {}", b.device());
    println!("| case | data | Vec (ms) | host buffer (ms) | Vec / host buffer | copies alone from the host buffer (ms) | copies / host buffer |");
    println!("|---|---|---|---|---|---|---|");
    let cases: &[(&str, usize, usize, usize)] = &[
        ("LeGall53", 512, 512, 200),
        ("LeGall53", 1080, 1920, 100),
        ("Cdf97", 1080, 1920, 100),
        ("LeGall53", 4096, 4096, 30),
        ("LeGall53", 8192, 8192, 12),
    ];
    let queue = b.queue().unwrap();
    for &(name, h, w, reps) in cases {
        let wavelet = dwt_catalogue::by_name(name).unwrap();
        let req = Request {
            wavelet,
            direction: Direction::Forward,
            shape: vec![h, w],
            levels: 3,
            layout: Layout::Mallat,
        };
        let n = h * w;
        let float = name == "Cdf97";
        let mut vec_i: Vec<i32> = (0..n).map(|i| (i % 251) as i32).collect();
        let mut vec_f: Vec<f32> = (0..n).map(|i| (i % 251) as f32).collect();
        let mut buf_i = b.host_buffer::<i32>(if float { 0 } else { n }).unwrap();
        let mut buf_f = b.host_buffer::<f32>(if float { n } else { 0 }).unwrap();
        let (ni, nf) = (buf_i.len(), buf_f.len());
        buf_i.copy_from_slice(&vec_i[..ni]);
        buf_f.copy_from_slice(&vec_f[..nf]);
        let device = ocl::Buffer::<i32>::builder()
            .queue(queue.clone())
            .len(n)
            .build()
            .unwrap();
        let mut time = |which: usize| {
            ms(|| match (float, which) {
                (false, 0) => b.run(&req, Samples::I32(&mut vec_i)).unwrap(),
                (false, 1) => b.run(&req, Samples::I32(&mut buf_i)).unwrap(),
                (true, 0) => b.run(&req, Samples::F32(&mut vec_f)).unwrap(),
                (true, 1) => b.run(&req, Samples::F32(&mut buf_f)).unwrap(),
                _ => {
                    // The same bytes as the transform's copies, from and back into pinned memory.
                    let mut bytes = b.host_buffer::<i32>(0).unwrap();
                    let pinned: &mut [i32] = if float { &mut bytes } else { &mut buf_i };
                    if !pinned.is_empty() {
                        device.write(&*pinned).enq().unwrap();
                        device.read(&mut *pinned).enq().unwrap();
                        queue.finish().unwrap();
                    }
                }
            })
        };
        for _ in 0..3 {
            for which in 0..3 {
                time(which);
            }
        }
        let mut times = [Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..reps {
            for (which, t) in times.iter_mut().enumerate() {
                t.push(time(which));
            }
        }
        let [plain, pinned, copies] = times.map(median);
        let ty = if float { "f32" } else { "i32" };
        let copies = if float {
            "- | -".to_string()
        } else {
            format!("{copies:.3} | {:.0}%", 100.0 * copies / pinned)
        };
        println!(
            "| {name} {h}x{w} {ty} L3 fwd | {:.1} MB | {plain:.3} | {pinned:.3} | {:.2}x | {copies} |",
            (n * 4) as f64 / 1e6,
            plain / pinned
        );
    }
}
