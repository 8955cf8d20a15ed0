//! Times batches of host frames through a plan on OpenCL: a loop of `Plan::execute` (each frame
//! written to the device, transformed and read back before the next) against
//! `Plan::execute_frames` (three queues in turn), for frames in `Vec`s (staged by the driver) and
//! in `OpenClBackend::host_buffer`s (pinned). Wall clock per frame, median of rounds after a
//! warm-up round, the four ways alternating round by round. A markdown table; the CUDA
//! counterpart is `dwt-bench/examples/host_frames.rs`.
use std::time::Instant;

use dwt_ir::ElementType;
use dwt_opencl::{DeviceElement, OpenClBackend};
use dwt_runtime::Plan;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Milliseconds per frame of each way, in the order of the table's columns.
fn case<E: DeviceElement>(
    b: &OpenClBackend,
    plan: &Plan,
    frames: usize,
    rounds: usize,
    sample: fn(usize) -> E,
) -> [f64; 4] {
    let n = plan.len();
    let mut vecs: Vec<Vec<E>> = (0..frames)
        .map(|k| (0..n).map(|i| sample(i + k)).collect())
        .collect();
    let mut pinned: Vec<_> = (vecs.iter())
        .map(|v| {
            let mut buffer = b.host_buffer::<E>(n).unwrap();
            buffer.copy_from_slice(v);
            buffer
        })
        .collect();
    let mut time = |way: usize| {
        let start = Instant::now();
        match way {
            0 => vecs.iter_mut().for_each(|f| plan.execute(f).unwrap()),
            1 => plan.execute_frames(vecs.iter_mut()).unwrap(),
            2 => pinned
                .iter_mut()
                .for_each(|f| plan.execute(&mut f[..]).unwrap()),
            _ => plan
                .execute_frames(pinned.iter_mut().map(|f| &mut f[..]))
                .unwrap(),
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

fn main() {
    let b = OpenClBackend::new().expect("an OpenCL device");
    println!("Device: {}", dwt_runtime::Backend::device(&b));
    println!();
    println!("| case | frames | Vec loop (ms/frame) | Vec batch | loop / batch | host buffer loop | host buffer batch | loop / batch |");
    println!("|---|---|---|---|---|---|---|---|");
    let cases: &[(&str, ElementType, usize, usize, usize, usize)] = &[
        ("LeGall53", ElementType::I16, 1080, 1920, 16, 15),
        ("Cdf97", ElementType::F32, 1080, 1920, 16, 15),
        ("LeGall53", ElementType::I32, 4096, 4096, 8, 7),
        ("LeGall53", ElementType::I32, 8192, 8192, 4, 5),
    ];
    for &(name, element, h, w, frames, rounds) in cases {
        let wavelet = dwt_catalogue::by_name(name).unwrap();
        let plan = Plan::builder(&b, wavelet, &[h, w])
            .levels(3)
            .element(element)
            .build()
            .unwrap();
        let t = match element {
            ElementType::I16 => case(&b, &plan, frames, rounds, |i| (i % 251) as i16),
            ElementType::I32 => case(&b, &plan, frames, rounds, |i| (i % 251) as i32),
            _ => case(&b, &plan, frames, rounds, |i| (i % 251) as f32),
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
}
