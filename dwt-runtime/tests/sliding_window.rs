//! The specification of the window geometry: Algorithm 1, simulated on the CPU with the geometry the
//! IR derives, gives exactly the reference lifting for every catalogue wavelet, both directions and
//! every legal column height up to 300; with top, overlap or bottom one row smaller it is wrong.

use dwt_ir::{Program, SlidingWindow, Wavelet};
use dwt_runtime::cpu::{lift_line, sliding_window::vertical_pass};
use dwt_runtime::Work;

const MAX_ROWS: usize = 300;

/// A deterministic pseudo-random column (xorshift), different per length.
fn column<W: Work>(rows: usize, seed: u64) -> Vec<W> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ rows as u64 ^ 0xdead_beef;
    (0..rows)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            W::integer((s % 1024) as i64 - 512)
        })
        .collect()
}

/// Heights at which the simulated pass differs from the reference, for each working height tried.
fn mismatches<W: Work>(
    program: &Program,
    w: &Wavelet,
    window: &SlidingWindow,
    heights: &[usize],
) -> Vec<(usize, usize)> {
    let mut bad = Vec::new();
    for &height in heights {
        for rows in height + window.bottom as usize..=MAX_ROWS {
            let input = column::<W>(rows, height as u64);
            let expected = lift_line(program, w.boundary, &input);
            let mut got = input.clone();
            vertical_pass(program, w.boundary, window, height, &mut got).expect("legal window");
            if got != expected {
                bad.push((height, rows));
            }
        }
    }
    bad
}

fn programs(w: &Wavelet) -> [(&'static str, Program); 2] {
    [("forward", w.program.clone()), ("inverse", w.inverse())]
}

fn check_catalogue<W: Work>(kind: dwt_ir::ElementKind) {
    for w in dwt_catalogue::all().into_iter().filter(|w| w.kind == kind) {
        for (dir, program) in programs(w) {
            let window = program.sliding_window(w.boundary);
            let min = window.min_height() as usize;
            let heights = [min, min + 2, min + 8, 64];
            let bad = mismatches::<W>(&program, w, &window, &heights);
            assert!(
                bad.is_empty(),
                "{} {dir}: sliding window {window:?} differs from the reference at (height, rows) {:?}",
                w.name,
                &bad[..bad.len().min(10)]
            );
        }
    }
}

#[test]
fn derived_geometry_reproduces_the_reference_for_integer_wavelets() {
    check_catalogue::<i32>(dwt_ir::ElementKind::Integer);
}

#[test]
fn derived_geometry_reproduces_the_reference_for_float_wavelets() {
    check_catalogue::<f64>(dwt_ir::ElementKind::Float);
}

/// One of a window's sizes, to shrink.
type Field = fn(&mut SlidingWindow) -> &mut u32;

#[test]
fn any_smaller_geometry_is_wrong_for_some_height() {
    for w in dwt_catalogue::all() {
        for (dir, program) in programs(w) {
            let window = program.sliding_window(w.boundary);
            let heights = [window.min_height() as usize, 64];
            let shrunk: [(&str, Field); 3] = [
                ("top", |s| &mut s.top),
                ("overlap", |s| &mut s.overlap),
                ("bottom", |s| &mut s.bottom),
            ];
            for (what, field) in shrunk {
                let mut smaller = window.clone();
                let value = field(&mut smaller);
                if *value == 0 {
                    continue;
                }
                *value -= 1;
                let bad = if w.kind == dwt_ir::ElementKind::Integer {
                    mismatches::<i32>(&program, w, &smaller, &heights)
                } else {
                    mismatches::<f64>(&program, w, &smaller, &heights)
                };
                assert!(!bad.is_empty(), "{} {dir}: {what} reduced to {} still reproduces the reference at every height, so the derived {what} is not minimal", w.name, *field(&mut smaller));
            }
        }
    }
}

#[test]
fn deslauriers_dubuc_13_7_has_the_papers_window() {
    let window = dwt_catalogue::by_name("DeslauriersDubuc137")
        .unwrap()
        .sliding_window(dwt_ir::Direction::Forward);
    assert_eq!((window.top, window.overlap, window.bottom), (3, 2, 3));
    assert_eq!(window.min_height(), 8);
}
