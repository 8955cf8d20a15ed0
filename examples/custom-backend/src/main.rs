//! A user crate's own backend: declare a wavelet with `lifting!`, write a toy `Backend` that logs
//! each request and delegates to the CPU reference, register it in a `Registry`, select it by
//! name, transform an image and check the round trip.
//!
//! `cargo run -p custom-backend`

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use lifting::ir::{Direction, Layout, WaveletSpec};
use lifting::lifting;
use lifting::runtime::{Backend, CpuBackend, DwtError, Registry, Request, Samples};

lifting! {
    /// LeGall (5,3) without the VC-2 pre-shift, declared by the user.
    pub wavelet MyLeGall {
        boundary = clamp;
        odd  -= (even[0] + even[1] + 1) >> 1;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }
}

/// Logs every request, counts them, and lets the CPU reference do the work.
struct LoggingBackend {
    runs: Arc<AtomicUsize>,
}

impl Backend for LoggingBackend {
    fn name(&self) -> &str {
        "logging"
    }

    fn device(&self) -> String {
        format!("logs, then {}", CpuBackend.device())
    }

    fn run(&self, request: &Request, data: Samples) -> Result<(), DwtError> {
        let n = self.runs.fetch_add(1, Ordering::SeqCst) + 1;
        println!(
            "[logging #{n}] {} {:?} on {:?} {}, {} levels, {} layout",
            request.wavelet.name,
            request.direction,
            request.shape,
            data.element_type().name(),
            request.levels,
            request.layout.name()
        );
        CpuBackend.run(request, data)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut registry = Registry::with_builtins();
    registry.register(Box::new(LoggingBackend { runs: runs.clone() }));
    // A backend whose constructor fails (no device here) is recorded, not a panic.
    registry.register_with("imaginary-gpu", || {
        Err(DwtError::Unavailable {
            backend: "imaginary-gpu".into(),
            reason: "no such device on this machine".into(),
        })
    });
    println!("backends:");
    for b in registry.list() {
        println!("    {b}");
    }
    if let Err(e) = registry.select("imaginary-gpu") {
        println!("selecting imaginary-gpu: {e}");
    }

    let chosen = registry.select("logging")?;
    println!("{}", chosen.notice);

    let (h, w) = (135, 240);
    let image: Vec<i16> = (0..h * w)
        .map(|i| (((i % w) * 255 / w + (i / w) * 40 / h) % 256) as i16)
        .collect();
    let mut data = image.clone();
    for direction in [Direction::Forward, Direction::Inverse] {
        let request = Request {
            wavelet: MyLeGall::wavelet(),
            direction,
            shape: vec![h, w],
            levels: 3,
            layout: Layout::Mallat,
        };
        chosen.backend.run(&request, Samples::I16(&mut data))?;
        if direction == Direction::Forward {
            assert_ne!(data, image, "the forward transform changed the data");
        }
    }
    if data != image {
        return Err(
            "the round trip through the logging backend did not reconstruct the image".into(),
        );
    }
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    println!(
        "round trip through `logging`: bit-exact ({} requests logged)",
        runs.load(Ordering::SeqCst)
    );
    Ok(())
}
