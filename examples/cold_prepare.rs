//! Times what a new process spends preparing a sequence of plans of each catalogue wavelet,
//! both directions, with an empty disk cache (run it with `DWT_CACHE_DIR` a new empty folder):
//! 1920x1080 three levels, then one level, 256x256 two levels (i16, f32 for float wavelets),
//! 4096x4096 three levels and 8192x8192 one level (i32, f32). Wall clock of each
//! `Backend::prepare` (emission, the driver's compiler, loading); a markdown table. Built against
//! two revisions and run side by side to compare how they build kernels.
//!
//! `DWT_CACHE_DIR=$(mktemp -d) cargo run --release --example cold_prepare --features cuda,opencl -- cuda LABEL`
//! (`opencl` for the OpenCL backend; LABEL names the build in the table).
#![cfg_attr(
    not(any(feature = "cuda", feature = "opencl")),
    allow(dead_code, unused_imports, unused_variables)
)]

use std::time::Instant;

use lifting::ir::{Direction, ElementKind, ElementType, Layout};
use lifting::runtime::{Backend, Request};

fn table(b: &dyn Backend, label: &str) {
    println!("Device: {}\n", b.device());
    println!("| build | program | dir | 1080p L3 | 1080p L1 | 256^2 L2 | 4096^2 L3 | 8192^2 L1 | total |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut all = 0.0;
    for w in lifting::catalogue::all() {
        let (small, large) = match w.kind {
            ElementKind::Integer => (ElementType::I16, ElementType::I32),
            _ => (ElementType::F32, ElementType::F32),
        };
        for direction in [Direction::Forward, Direction::Inverse] {
            let mut cells = Vec::new();
            let mut total = 0.0;
            for (shape, levels, elem) in [
                (vec![1080, 1920], 3, small),
                (vec![1080, 1920], 1, small),
                (vec![256, 256], 2, small),
                (vec![4096, 4096], 3, large),
                (vec![8192, 8192], 1, large),
            ] {
                let req = Request {
                    wavelet: w,
                    direction,
                    shape,
                    levels,
                    layout: Layout::Mallat,
                };
                let start = Instant::now();
                let prepared = b.prepare(&req, elem).expect("prepared");
                let ms = start.elapsed().as_secs_f64() * 1e3;
                total += ms;
                cells.push(format!("{ms:.0} ms ({})", prepared.report.modules.len()));
            }
            all += total;
            println!(
                "| {label} | {} | {direction:?} | {} | {total:.0} ms |",
                w.name,
                cells.join(" | ")
            );
        }
    }
    println!("\n{label}: every sequence {all:.0} ms (in parentheses: modules each plan reports)");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let backend = args.next().unwrap_or_else(|| "cuda".into());
    let label = args.next().unwrap_or_default();
    match backend.as_str() {
        #[cfg(feature = "cuda")]
        "cuda" => table(&lifting::cuda::CudaBackend::new().expect("a CUDA device"), &label),
        #[cfg(feature = "opencl")]
        "opencl" => table(
            &lifting::opencl::OpenClBackend::new().expect("an OpenCL device"),
            &label,
        ),
        other => eprintln!(
            "no backend `{other}` built in: name `cuda` or `opencl` and build with `--features cuda,opencl`"
        ),
    }
}
