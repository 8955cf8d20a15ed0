//! The main job from Rust: declare a wavelet with `lifting!`, transform a generated 1920x1080 image
//! on the CPU reference backend, reconstruct it and check the reconstruction. (The `dwt` command
//! line does the same from files, and draws the subband pyramid: see README.md.)
//!
//! `cargo run --release --example transform_image`

use std::time::Instant;

use lifting::catalogue::{Cdf97, LeGall53};
use lifting::ir::WaveletSpec;
use lifting::lifting;
use lifting::runtime::cpu::{band_shape, forward, inverse, Layout};

lifting! {
    /// Deslauriers-Dubuc (13,7), as in Dirac / VC-2 (SMPTE ST 2042-1), declared here as a user would.
    pub wavelet Dd137 {
        boundary = clamp;
        shift = 1;
        odd  -= (-even[-1] + 9*even[0] + 9*even[1] - even[2] + 8) >> 4;
        even += (-odd[-2] + 9*odd[-1] + 9*odd[0] - odd[1] + 16) >> 5;
    }
}

const HEIGHT: usize = 1080;
const WIDTH: usize = 1920;
const LEVELS: u32 = 4;

/// A synthetic 8-bit picture: a smooth gradient with a bright disc (sharp edges for the detail
/// bands) and a little deterministic noise.
fn scene() -> Vec<i16> {
    (0..HEIGHT * WIDTH)
        .map(|i| {
            let (y, x) = ((i / WIDTH) as i64, (i % WIDTH) as i64);
            let disc = if (x - 700).pow(2) + (y - 540).pow(2) < 300 * 300 {
                70
            } else {
                0
            };
            (60 + 80 * x / WIDTH as i64 + 40 * y / HEIGHT as i64 + disc + (i * 7919 % 5) as i64)
                as i16
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let image = scene();
    let shape = [HEIGHT, WIDTH];
    println!("image: {WIDTH}x{HEIGHT} synthetic scene, 8-bit values in i16; {LEVELS} levels, Mallat layout, CPU reference backend\n");
    println!("{}\n", Dd137::wavelet());
    println!("sliding window of the vertical pass: {}\n", Dd137::GEOMETRY);

    for (name, wavelet) in [
        ("Dd137 (declared above)", Dd137::wavelet()),
        ("LeGall53", LeGall53::wavelet()),
    ] {
        let mut coeffs = image.clone();
        let t = Instant::now();
        forward(wavelet, &mut coeffs, &shape, LEVELS, Layout::Mallat)?;
        let forward_time = t.elapsed();
        let low = band_shape(&shape, LEVELS);
        let detail: Vec<i16> = coeffs
            .iter()
            .enumerate()
            .filter(|(i, _)| !(i / WIDTH < low[0] && i % WIDTH < low[1]))
            .map(|(_, &c)| c)
            .collect();
        let small = detail.iter().filter(|c| c.abs() <= 2).count();
        let t = Instant::now();
        let mut back = coeffs.clone();
        inverse(wavelet, &mut back, &shape, LEVELS, Layout::Mallat)?;
        let inverse_time = t.elapsed();
        let exact = back == image;
        println!(
            "{name:>24}: forward {:>6.1} ms, inverse {:>6.1} ms; {:.1}% of detail coefficients within +-2; reconstruction {}",
            forward_time.as_secs_f64() * 1e3,
            inverse_time.as_secs_f64() * 1e3,
            100.0 * small as f64 / detail.len() as f64,
            if exact { "bit-exact" } else { "DIFFERS" }
        );
        if !exact {
            return Err(format!("{name}: the inverse did not reconstruct the image").into());
        }
    }

    let mut coeffs: Vec<f32> = image.iter().map(|&v| v as f32).collect();
    forward(
        Cdf97::wavelet(),
        &mut coeffs,
        &shape,
        LEVELS,
        Layout::Mallat,
    )?;
    let mut back = coeffs.clone();
    inverse(Cdf97::wavelet(), &mut back, &shape, LEVELS, Layout::Mallat)?;
    let err = back
        .iter()
        .zip(&image)
        .map(|(a, &b)| (a - b as f32).abs())
        .fold(0.0, f32::max);
    println!("{:>24}: f32, reconstruction max error {err:.2e}", "Cdf97");
    if err > 1e-3 {
        return Err("Cdf97 reconstruction error too large".into());
    }
    Ok(())
}
