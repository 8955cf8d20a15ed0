//! Times host transforms (`Backend::run`) of ordinary memory (a `Vec`, locked by each call for
//! its copies) against a `CudaBackend::host_buffer` (page-locked once), side by side in one run:
//! wall clock, median of many calls after warm-up, the two alternating in rounds. A markdown
//! table with the ratio.
use std::time::Instant;

use dwt_cuda::CudaBackend;
use dwt_ir::{Direction, Layout};
use dwt_runtime::{Backend, Request, Samples};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let b = CudaBackend::new().expect("a CUDA device");
    println!("| case | data | Vec (ms) | host buffer (ms) | Vec / host buffer |");
    println!("|---|---|---|---|---|");
    let cases: &[(&str, usize, usize, usize)] = &[
        ("LeGall53", 512, 512, 200),
        ("LeGall53", 1080, 1920, 100),
        ("Cdf97", 1080, 1920, 100),
        ("LeGall53", 4096, 4096, 30),
        ("LeGall53", 8192, 8192, 12),
    ];
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
        let mut time = |pinned: bool| {
            let t = Instant::now();
            match (float, pinned) {
                (false, false) => b.run(&req, Samples::I32(&mut vec_i)),
                (false, true) => b.run(&req, Samples::I32(&mut buf_i)),
                (true, false) => b.run(&req, Samples::F32(&mut vec_f)),
                (true, true) => b.run(&req, Samples::F32(&mut buf_f)),
            }
            .unwrap();
            t.elapsed().as_secs_f64() * 1e3
        };
        for _ in 0..3 {
            time(false);
            time(true);
        }
        let (mut plain, mut pinned) = (Vec::new(), Vec::new());
        for _ in 0..reps {
            plain.push(time(false));
            pinned.push(time(true));
        }
        let (a, p) = (median(plain), median(pinned));
        let ty = if float { "f32" } else { "i32" };
        println!(
            "| {name} {h}x{w} {ty} L3 fwd | {:.1} MB | {a:.3} | {p:.3} | {:.2}x |",
            (n * 4) as f64 / 1e6,
            a / p
        );
    }
}
