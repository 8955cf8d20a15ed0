//! Times batches of host frames through a plan on each GPU backend built in (features `cuda`,
//! `opencl`): a loop of `Plan::execute` (each frame to the device, transformed and back before the
//! next) against `Plan::execute_frames` (frames in host buffers in turns on three streams or
//! queues, one frame's copy in beside another's copy back), for frames in `Vec`s and in the
//! backend's host buffers (pinned). Wall clock per frame, median of rounds after a warm-up round,
//! the four ways alternating round by round. A markdown table per backend.
//!
//! `cargo run --release --example host_frames --features cuda,opencl`
#![cfg_attr(
    not(any(feature = "cuda", feature = "opencl")),
    allow(dead_code, unused_imports, unused_macros)
)]

use std::ops::DerefMut;
use std::time::Instant;

use lifting::ir::ElementType;
use lifting::runtime::{Backend, Element, Plan};

/// (wavelet, element type, height, width, frames, rounds), three levels forward.
const CASES: [(&str, ElementType, usize, usize, usize, usize); 4] = [
    ("LeGall53", ElementType::I16, 1080, 1920, 16, 15),
    ("Cdf97", ElementType::F32, 1080, 1920, 16, 15),
    ("LeGall53", ElementType::I32, 4096, 4096, 8, 7),
    ("LeGall53", ElementType::I32, 8192, 8192, 4, 5),
];

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Milliseconds per frame of each way, in the order of the table's columns: `pinned` holds the
/// frames' host buffers, filled here as the `Vec`s are.
fn case<E: Element, B: DerefMut<Target = [E]>>(
    plan: &Plan,
    mut pinned: Vec<B>,
    rounds: usize,
    sample: fn(usize) -> E,
) -> [f64; 4] {
    let n = plan.len();
    let mut vecs: Vec<Vec<E>> = (0..pinned.len())
        .map(|k| (0..n).map(|i| sample(i + k)).collect())
        .collect();
    for (buffer, v) in pinned.iter_mut().zip(&vecs) {
        buffer.copy_from_slice(v);
    }
    let frames = pinned.len();
    let mut time = |way: usize| {
        let start = Instant::now();
        match way {
            0 => vecs.iter_mut().for_each(|f| plan.execute(f).unwrap()),
            1 => plan.execute_frames(vecs.iter_mut()).unwrap(),
            2 => (pinned.iter_mut()).for_each(|f| plan.execute(&mut f[..]).unwrap()),
            _ => (plan.execute_frames(pinned.iter_mut().map(|f| &mut f[..]))).unwrap(),
        }
        start.elapsed().as_secs_f64() * 1e3 / frames as f64
    };
    let mut times: [Vec<f64>; 4] = Default::default();
    for round in 0..=rounds {
        for (way, t) in times.iter_mut().enumerate() {
            let ms = time(way);
            if round > 0 {
                t.push(ms);
            }
        }
    }
    times.map(median)
}

/// The table of every case on `$backend`, whose `host_buffer::<T>(n)` makes the frames.
macro_rules! table {
    ($backend:expr) => {{
        let b = $backend;
        println!("Device: {}", Backend::device(&b));
        println!();
        println!("| case | frames | Vec loop (ms/frame) | Vec batch | loop / batch | host buffer loop | host buffer batch | loop / batch |");
        println!("|---|---|---|---|---|---|---|---|");
        for (name, element, h, w, frames, rounds) in CASES {
            let wavelet = lifting::catalogue::by_name(name).unwrap();
            let plan = Plan::builder(&b, wavelet, &[h, w])
                .levels(3)
                .element(element)
                .build()
                .unwrap();
            let n = plan.len();
            let t = match element {
                ElementType::I16 => {
                    let pinned = (0..frames).map(|_| b.host_buffer::<i16>(n).unwrap()).collect();
                    case(&plan, pinned, rounds, |i| (i % 251) as i16)
                }
                ElementType::I32 => {
                    let pinned = (0..frames).map(|_| b.host_buffer::<i32>(n).unwrap()).collect();
                    case(&plan, pinned, rounds, |i| (i % 251) as i32)
                }
                _ => {
                    let pinned = (0..frames).map(|_| b.host_buffer::<f32>(n).unwrap()).collect();
                    case(&plan, pinned, rounds, |i| (i % 251) as f32)
                }
            };
            println!(
                "| {name} {h}x{w} {} L3 fwd | {frames} | {:.3} | {:.3} | {:.2}x | {:.3} | {:.3} | {:.2}x |",
                element.name(),
                t[0],
                t[1],
                t[0] / t[1],
                t[2],
                t[3],
                t[2] / t[3]
            );
        }
        println!();
    }};
}

fn main() {
    #[cfg(feature = "opencl")]
    table!(lifting::opencl::OpenClBackend::new().expect("an OpenCL device"));
    #[cfg(feature = "cuda")]
    table!(lifting::cuda::CudaBackend::new().expect("a CUDA device"));
    #[cfg(not(any(feature = "cuda", feature = "opencl")))]
    eprintln!("built without a GPU backend: run with `--features cuda,opencl` (or one of them)");
}
