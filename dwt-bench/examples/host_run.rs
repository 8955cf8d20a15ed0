//! Times `Backend::run` on host slices (a host transform: copies in, the launches, copies back),
//! wall clock, median of many calls after warm-up, for a few sizes and types; a markdown table.
//! Built against two revisions and run side by side to compare their host paths.
use std::time::Instant;

use dwt_cuda::CudaBackend;
use dwt_ir::{Direction, Layout};
use dwt_runtime::{Backend, Request, Samples};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let label = std::env::args().nth(1).unwrap_or_default();
    let b = CudaBackend::new().expect("a CUDA device");
    let cases: &[(&str, usize, usize, &str, usize)] = &[
        ("LeGall53", 256, 256, "i32", 200),
        ("LeGall53", 512, 512, "i32", 200),
        ("LeGall53", 1080, 1920, "i16", 100),
        ("LeGall53", 1080, 1920, "i32", 100),
        ("CDF97", 1080, 1920, "f32", 100),
        ("LeGall53", 4096, 4096, "i32", 30),
        ("CDF97", 4096, 4096, "f32", 30),
        ("LeGall53", 8192, 8192, "i32", 12),
    ];
    for &(name, h, w, ty, reps) in cases {
        let wavelet = dwt_catalogue::by_name(name).unwrap();
        let req = Request {
            wavelet,
            direction: Direction::Forward,
            shape: vec![h, w],
            levels: 3,
            layout: Layout::Mallat,
        };
        let n = h * w;
        let mut i16s: Vec<i16> = (0..n).map(|i| (i % 251) as i16).collect();
        let mut i32s: Vec<i32> = (0..n).map(|i| (i % 251) as i32).collect();
        let mut f32s: Vec<f32> = (0..n).map(|i| (i % 251) as f32).collect();
        let mut call = || match ty {
            "i16" => b.run(&req, Samples::I16(&mut i16s)).unwrap(),
            "i32" => b.run(&req, Samples::I32(&mut i32s)).unwrap(),
            _ => b.run(&req, Samples::F32(&mut f32s)).unwrap(),
        };
        for _ in 0..3 {
            call();
        }
        let t: Vec<f64> = (0..reps)
            .map(|_| {
                let t = Instant::now();
                call();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        let bytes = n * if ty == "i16" { 2 } else { 4 };
        let ms = median(t);
        println!(
            "| {label} | {name} {h}x{w} {ty} L3 fwd | {:.1} MB | {ms:.3} ms | {:.1} GB/s |",
            bytes as f64 / 1e6,
            2.0 * bytes as f64 / ms / 1e6
        );
    }
}
