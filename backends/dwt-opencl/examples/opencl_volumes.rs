//! The one-pass volume kernels against the two passes per level on whatever OpenCL device there
//! is: `run_on_device_into` (out of place, so neither plan copies) of LeGall 5/3 512^3 i32,
//! CDF 9/7 256^3 f32 and Haar 512^3 i32 (the pair-local volume kernel), three levels both
//! ways, with `LaunchConfig::one_pass_volumes` and `pair_volumes` on and off (`Some(true)` and
//! `true`, `Some(false)` and `false`), in turns (`--small`: Haar and LeGall 5/3 at 128^3, for a
//! CPU device); Haar also with the pair-local kernel a level a launch (`pyramids: false`, no
//! volume pyramid) as the one pass. Wall clock around the call (which returns when the queue has
//! finished), median of 15 after warm-up; a markdown table.
use std::time::Instant;

use dwt_ir::{Direction, Layout};
use dwt_opencl::{LaunchConfig, OpenClBackend};
use dwt_runtime::{Backend, Request};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn time<T: dwt_opencl::DeviceElement + Default>(b: &OpenClBackend, req: &Request) -> f64 {
    let n: usize = req.shape.iter().product();
    let queue = b.queue().unwrap();
    let buffer = || {
        ocl::Buffer::<T>::builder()
            .queue(queue.clone())
            .len(n)
            .fill_val(T::default())
            .build()
            .unwrap()
    };
    let (src, dst) = (buffer(), buffer());
    for _ in 0..3 {
        b.run_on_device_into(req, &src, &dst).unwrap();
    }
    median(
        (0..15)
            .map(|_| {
                let t = Instant::now();
                b.run_on_device_into(req, &src, &dst).unwrap();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    )
}

fn main() {
    let with = |one_pass, pyramids| {
        OpenClBackend::with_config(LaunchConfig {
            one_pass_volumes: Some(one_pass),
            pair_volumes: one_pass,
            pyramids,
            ..LaunchConfig::default()
        })
        .expect("an OpenCL device")
    };
    println!("device: {}\n", with(true, true).device());
    println!("| case | two passes | one pass | one pass / two |");
    println!("|---|---|---|---|");
    // `--small`: Haar and LeGall 5/3 at 128^3, for a CPU device.
    // (wavelet, side, f32, the volume pyramid in the one pass)
    let cases: &[(&str, usize, bool, bool)] = match std::env::args().nth(1).as_deref() {
        Some("--small") => &[
            ("HaarNoShift", 128, false, true),
            ("HaarNoShift", 128, false, false),
            ("LeGall53", 128, false, true),
        ],
        _ => &[
            ("LeGall53", 512, false, true),
            ("Cdf97", 256, true, true),
            ("HaarNoShift", 512, false, true),
            ("HaarNoShift", 512, false, false),
        ],
    };
    for &(name, side, float, pyramids) in cases {
        let how = match (name, pyramids) {
            ("HaarNoShift", true) => " (the pyramid)",
            ("HaarNoShift", false) => " (a level a launch)",
            _ => "",
        };
        for (direction, dir) in [(Direction::Forward, "fwd"), (Direction::Inverse, "inv")] {
            let req = Request {
                wavelet: dwt_catalogue::by_name(name).unwrap(),
                direction,
                shape: vec![side; 3],
                levels: 3,
                layout: Layout::Mallat,
            };
            // Backends of their own per case: the buffers the plans keep between calls are
            // bounded over the process (2 GiB), which four plans of 512^3 would fill, leaving
            // the next cases to make their scratch every call.
            let (on, off) = (with(true, pyramids), with(false, pyramids));
            let mut times = [Vec::new(), Vec::new()];
            for _ in 0..2 {
                for (k, b) in [&off, &on].into_iter().enumerate() {
                    times[k].push(match float {
                        false => time::<i32>(b, &req),
                        true => time::<f32>(b, &req),
                    });
                }
            }
            let [two, one] = times.map(|t| t.into_iter().fold(f64::MAX, f64::min));
            println!(
                "| {name} {side}^3 L3 {dir}{how} | {two:.3} ms | {one:.3} ms | {:.2} |",
                one / two
            );
        }
    }
}
