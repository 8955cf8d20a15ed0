//! The lifting programs against the subband-filtering forms they factor, on the interior of a line.

use dwt_runtime::cpu::{forward, Layout};

fn signal(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 7919) % 113) as f64 - 56.0 + (i as f64 * 0.37).sin() * 10.0)
        .collect()
}

/// `out[k] = sum_i taps[i] * x[2k + phase + first + i]`.
fn convolve(x: &[f64], taps: &[f64], first: i64, phase: i64, k: usize) -> f64 {
    taps.iter()
        .enumerate()
        .map(|(i, t)| t * x[(2 * k as i64 + phase + first + i as i64) as usize])
        .sum()
}

#[test]
fn legall_5_3_equals_table_i_of_van_der_laan_on_the_interior() {
    // Table I: c_k = 1/8(-x[2k-2] + 2x[2k-1] + 6x[2k] + 2x[2k+1] - x[2k+2]),
    //          d_k = 1/2(-x[2k] + 2x[2k+1] - x[2k+2]).
    let low = [-1.0 / 8.0, 2.0 / 8.0, 6.0 / 8.0, 2.0 / 8.0, -1.0 / 8.0];
    let high = [-0.5, 1.0, -0.5];
    let legall = dwt_catalogue::by_name("LeGall53").unwrap().linearized();
    let n = 64;
    let x = signal(n);
    let mut y = x.clone();
    forward(&legall, &mut y, &[n], 1, Layout::Mallat).unwrap();
    for k in 2..n / 2 - 2 {
        assert!(
            (y[k] - convolve(&x, &low, -2, 0, k)).abs() < 1e-12,
            "low band at {k}"
        );
        assert!(
            (y[n / 2 + k] - convolve(&x, &high, -1, 1, k)).abs() < 1e-12,
            "high band at {k}"
        );
    }
}

#[test]
fn integer_legall_rounds_the_linear_transform() {
    // The rounded predict is within 1/2 of the exact one; the update then within 1/4 + 1/2.
    let integer = dwt_catalogue::by_name("LeGall53").unwrap();
    let mut w = integer.clone();
    w.shift = 0;
    let n = 64;
    let x: Vec<i32> = signal(n).iter().map(|v| v.round() as i32).collect();
    let mut yi = x.clone();
    forward(&w, &mut yi, &[n], 1, Layout::Mallat).unwrap();
    let mut yf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    forward(&w.linearized(), &mut yf, &[n], 1, Layout::Mallat).unwrap();
    for (a, b) in yi.iter().zip(&yf) {
        assert!((*a as f64 - b).abs() <= 1.0, "{a} vs {b}");
    }
}

#[test]
fn cdf_9_7_equals_the_published_analysis_filters_on_the_interior() {
    // The CDF 9/7 analysis filters (Daubechies 1992; JPEG 2000 Part 1, Table F.4) in JPEG 2000's
    // normalisation: the low-pass filter sums to 1, the high-pass one has central tap ~1.115.
    // Lifting with K = 1.1496 gives the orthonormal normalisation instead (the low-pass filter sums
    // to sqrt(2), as PyWavelets' dec_lo does): low times sqrt(2), high divided by sqrt(2).
    let low = [
        0.026748757410810,
        -0.016864118442875,
        -0.078223266528990,
        0.266864118442875,
        0.602949018236360,
        0.266864118442875,
        -0.078223266528990,
        -0.016864118442875,
        0.026748757410810,
    ];
    let high = [
        0.091271763114250,
        -0.057543526228500,
        -0.591271763114250,
        1.115087052457,
        -0.591271763114250,
        -0.057543526228500,
        0.091271763114250,
    ];
    let cdf = dwt_catalogue::by_name("Cdf97").unwrap();
    let n = 96;
    let x = signal(n);
    let mut y = x.clone();
    forward(cdf, &mut y, &[n], 1, Layout::Mallat).unwrap();
    for k in 3..n / 2 - 3 {
        let l = convolve(&x, &low, -4, 0, k) * std::f64::consts::SQRT_2;
        let h = convolve(&x, &high, -3, 1, k) / std::f64::consts::SQRT_2;
        assert!(
            (y[k] - l).abs() < 1e-9 * (1.0 + l.abs()),
            "low band at {k}: {} vs {l}",
            y[k]
        );
        assert!(
            (y[n / 2 + k] - h).abs() < 1e-9 * (1.0 + h.abs()),
            "high band at {k}: {} vs {h}",
            y[n / 2 + k]
        );
    }
}
