//! The main job on a fresh machine: declare a wavelet with `lifting!`, transform a generated
//! 1920x1080 image on the CPU reference backend, reconstruct it, check the reconstruction, and
//! write a picture of the subband pyramid.
//!
//! `cargo run --release --example transform_image [OUT_DIR]`

use std::path::{Path, PathBuf};
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

/// A synthetic 8-bit scene: smooth gradients, a disc with a hard edge, fine stripes and a little
/// deterministic noise, so every band has something in it.
fn scene() -> Vec<i16> {
    let mut noise = 0x2545_f491_4f6c_dd1du64;
    (0..HEIGHT * WIDTH)
        .map(|i| {
            let (y, x) = ((i / WIDTH) as f64, (i % WIDTH) as f64);
            let gradient = 60.0 + 80.0 * (x / WIDTH as f64) + 40.0 * (y / HEIGHT as f64);
            let (dy, dx) = (y - 540.0, x - 700.0);
            let disc = if dx * dx + dy * dy < 300.0 * 300.0 {
                70.0
            } else {
                0.0
            };
            let stripes = if x > 1300.0 && y > 200.0 && y < 800.0 {
                30.0 * ((x / 3.0).sin() > 0.0) as i32 as f64
            } else {
                0.0
            };
            noise ^= noise << 13;
            noise ^= noise >> 7;
            noise ^= noise << 17;
            (gradient + disc + stripes + (noise % 5) as f64).clamp(0.0, 255.0) as i16
        })
        .collect()
}

/// Writes the Mallat pyramid as an 8-bit PGM, each band contrast-stretched on its own so that small
/// detail coefficients stay visible next to the large low band.
fn write_pyramid(path: &Path, coeffs: &[f64]) -> std::io::Result<()> {
    let mut bands = Vec::new();
    for level in 0..LEVELS {
        let s = band_shape(&[HEIGHT, WIDTH], level);
        let (h, w, lh, lw) = (s[0], s[1], s[0].div_ceil(2), s[1].div_ceil(2));
        bands.extend([(0, h, lw, w), (lh, h, 0, lw), (lh, h, lw, w)]);
    }
    let last = band_shape(&[HEIGHT, WIDTH], LEVELS);
    bands.push((0, last[0], 0, last[1]));
    let mut pixels = vec![0u8; HEIGHT * WIDTH];
    for (i, &(y0, y1, x0, x1)) in bands.iter().enumerate() {
        let is_low = i == bands.len() - 1;
        let values = || (y0..y1).flat_map(move |y| (x0..x1).map(move |x| y * WIDTH + x));
        let (lo, hi) = values().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
            (lo.min(coeffs[p]), hi.max(coeffs[p]))
        });
        let peak = values()
            .map(|p| coeffs[p].abs())
            .fold(0.0, f64::max)
            .max(1e-9);
        for p in values() {
            let v = if is_low {
                (coeffs[p] - lo) / (hi - lo).max(1e-9)
            } else {
                (coeffs[p].abs() / peak).sqrt()
            };
            pixels[p] = (v * 255.0).round() as u8;
        }
    }
    let mut out = format!("P5\n{WIDTH} {HEIGHT}\n255\n").into_bytes();
    out.extend(pixels);
    std::fs::write(path, out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out_dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/lifting-example"));
    std::fs::create_dir_all(&out_dir)?;
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
        if name.starts_with("Dd137") {
            let path = out_dir.join("pyramid-dd137.pgm");
            write_pyramid(&path, &coeffs.iter().map(|&c| c as f64).collect::<Vec<_>>())?;
            println!("{:>24}  pyramid picture: {}", "", path.display());
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
