//! Perfect reconstruction of every catalogue wavelet, on every element type, layout, dimension
//! count and level count, on sizes that include 1, odd lengths and non-powers of two.

use dwt_ir::{ElementKind, Wavelet};
use dwt_runtime::cpu::{forward, inverse, max_levels, Layout};
use dwt_runtime::Element;

const SHAPES: &[&[usize]] = &[
    &[1],
    &[2],
    &[7],
    &[64],
    &[1, 1],
    &[1, 9],
    &[9, 1],
    &[3, 5],
    &[17, 33],
    &[33, 17],
    &[40, 24],
    &[1, 1, 5],
    &[5, 6, 7],
    &[8, 8, 8],
];

fn data(len: usize, seed: usize) -> Vec<i32> {
    (0..len)
        .map(|i| ((i * 2654435761 + seed * 97) % 511) as i32 - 255)
        .collect()
}

fn roundtrip<E: Element>(
    w: &Wavelet,
    shape: &[usize],
    levels: u32,
    layout: Layout,
    input: &[E],
) -> Vec<E> {
    let mut d = input.to_vec();
    forward(w, &mut d, shape, levels, layout).unwrap();
    if levels > 0 && shape.iter().any(|&n| n > 1) {
        assert_ne!(d, input, "{} {shape:?}: forward changed nothing", w.name);
    }
    inverse(w, &mut d, shape, levels, layout).unwrap();
    d
}

#[test]
fn every_catalogue_wavelet_reconstructs() {
    let mut runs = 0;
    for w in dwt_catalogue::all() {
        for shape in SHAPES {
            let len: usize = shape.iter().product();
            let raw = data(len, shape.len());
            for levels in 0..=max_levels(shape).min(5) {
                for layout in [Layout::Interleaved, Layout::Mallat] {
                    runs += 1;
                    match w.kind {
                        ElementKind::Integer => {
                            let narrow: Vec<i16> = raw.iter().map(|&x| x as i16).collect();
                            assert_eq!(
                                roundtrip(w, shape, levels, layout, &narrow),
                                narrow,
                                "{} i16 {shape:?} L{levels} {layout:?}",
                                w.name
                            );
                            assert_eq!(
                                roundtrip(w, shape, levels, layout, &raw),
                                raw,
                                "{} i32 {shape:?} L{levels} {layout:?}",
                                w.name
                            );
                        }
                        ElementKind::Float => {
                            let x64: Vec<f64> = raw.iter().map(|&x| x as f64 / 7.0).collect();
                            let y = roundtrip(w, shape, levels, layout, &x64);
                            let err = y
                                .iter()
                                .zip(&x64)
                                .map(|(a, b)| (a - b).abs())
                                .fold(0.0, f64::max);
                            assert!(
                                err < 1e-10,
                                "{} f64 {shape:?} L{levels} {layout:?}: error {err:e}",
                                w.name
                            );
                            let x32: Vec<f32> = x64.iter().map(|&x| x as f32).collect();
                            let y = roundtrip(w, shape, levels, layout, &x32);
                            let err = y
                                .iter()
                                .zip(&x32)
                                .map(|(a, b)| (a - b).abs() / (1.0 + b.abs()))
                                .fold(0.0, f32::max);
                            // f32 rounds each of a level's lifting operations (8 for CDF 9/7, with
                            // gains near 3) there and back: about 1e-5 relative is expected.
                            assert!(
                                err < 1e-4,
                                "{} f32 {shape:?} L{levels} {layout:?}: relative error {err:e}",
                                w.name
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(runs > 500);
}

#[test]
fn mallat_is_the_interleaved_result_de_interleaved() {
    for w in dwt_catalogue::all()
        .into_iter()
        .filter(|w| w.kind == ElementKind::Integer)
    {
        let (h, wd) = (9, 14);
        let input = data(h * wd, 3);
        let mut inter = input.clone();
        forward(w, &mut inter, &[h, wd], 1, Layout::Interleaved).unwrap();
        let mut mallat = input.clone();
        forward(w, &mut mallat, &[h, wd], 1, Layout::Mallat).unwrap();
        let (lh, lw) = (h.div_ceil(2), wd.div_ceil(2));
        for y in 0..h {
            for x in 0..wd {
                let my = if y % 2 == 0 { y / 2 } else { lh + y / 2 };
                let mx = if x % 2 == 0 { x / 2 } else { lw + x / 2 };
                assert_eq!(
                    inter[y * wd + x],
                    mallat[my * wd + mx],
                    "{} at ({y}, {x})",
                    w.name
                );
            }
        }
    }
}

#[test]
fn rows_are_lifted_before_columns() {
    // VC-2's order is observable: lifting columns first gives different coefficients.
    let w = dwt_catalogue::by_name("LeGall53").unwrap();
    let (h, wd) = (8, 8);
    let input = data(h * wd, 5);
    let mut ours = input.clone();
    forward(w, &mut ours, &[h, wd], 1, Layout::Interleaved).unwrap();
    // Transposing, transforming and transposing back lifts columns first.
    let t = |d: &[i32]| {
        (0..h * wd)
            .map(|i| d[(i % wd) * wd + i / wd])
            .collect::<Vec<_>>()
    };
    let mut swapped = t(&input);
    forward(w, &mut swapped, &[h, wd], 1, Layout::Interleaved).unwrap();
    assert_ne!(t(&swapped), ours);
}
