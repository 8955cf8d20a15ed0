//! Property tests over random lifting programs (bounded: 64 cases each, so CI stays quick).
//!
//! Any integer lifting program inverts exactly, whatever its taps, offsets, shifts and rounding,
//! on any size, dimension count, level count and layout, even when its arithmetic wraps around;
//! with a per-level pre-shift it does as long as no value outgrows 32 bits (the pre-shift drops
//! the top bits otherwise, which is why the runtime will check bit growth). And the sliding-window
//! geometry the IR derives reproduces the reference at every column height tried. A float program
//! scaling between its steps, with its scales moved last (how the GPU kernels run it), gives the
//! transform the program as written gives, and its window does too.

use dwt_ir::{Boundary, Coeff, Op, Wavelet};
use dwt_runtime::conformance::{random_float_wavelet, random_wavelet};
use dwt_runtime::cpu::{
    forward, inverse, lift_line, max_levels, sliding_window::vertical_pass, Layout,
};
use proptest::prelude::*;

fn wavelet(boundaries: &'static [Boundary], max_pre_shift: u32) -> impl Strategy<Value = Wavelet> {
    random_wavelet(boundaries, max_pre_shift)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_integer_programs_invert_exactly(
        w in wavelet(&[Boundary::Clamp, Boundary::Symmetric, Boundary::Periodic], 0),
        shape in proptest::collection::vec(1usize..=13, 1..=3),
        level_pick in 0u32..8,
        interleaved in any::<bool>(),
        seed in any::<u64>(),
    ) {
        // Periodic lines need even lengths at every level: round each axis up to a multiple of 2^levels.
        let levels = level_pick.min(max_levels(&shape)).min(3);
        let shape: Vec<usize> = if w.boundary == Boundary::Periodic {
            shape.iter().map(|&n| n.div_ceil(1 << levels) << levels).collect()
        } else {
            shape
        };
        let len: usize = shape.iter().product();
        let mut s = seed | 1;
        let input: Vec<i32> = (0..len).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; (s % 2001) as i32 - 1000 }).collect();
        let layout = if interleaved { Layout::Interleaved } else { Layout::Mallat };
        let mut d = input.clone();
        forward(&w, &mut d, &shape, levels, layout).unwrap();
        inverse(&w, &mut d, &shape, levels, layout).unwrap();
        prop_assert_eq!(d, input, "{}", w);
    }

    #[test]
    fn random_programs_with_a_pre_shift_invert_exactly_while_values_fit(
        w in wavelet(&[Boundary::Clamp, Boundary::Symmetric], 2),
        shape in proptest::collection::vec(1usize..=13, 1..=2),
        seed in any::<u64>(),
    ) {
        // One level on 8-bit data: growth stays far below 32 bits (5 steps of at most 4 taps of 20).
        let len: usize = shape.iter().product();
        let mut s = seed | 1;
        let input: Vec<i32> = (0..len).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; (s % 256) as i32 - 128 }).collect();
        let levels = max_levels(&shape).min(1);
        let mut d = input.clone();
        forward(&w, &mut d, &shape, levels, Layout::Mallat).unwrap();
        inverse(&w, &mut d, &shape, levels, Layout::Mallat).unwrap();
        prop_assert_eq!(d, input, "{}", w);
    }

    #[test]
    fn derived_window_reproduces_the_reference_for_random_programs(
        w in wavelet(&[Boundary::Clamp, Boundary::Symmetric], 0),
        extra in 0usize..3,
        inverse_program in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let program = if inverse_program { w.inverse() } else { w.program.clone() };
        let window = program.sliding_window(w.boundary);
        let height = window.min_height() as usize + 2 * extra;
        let first = height + window.bottom as usize;
        for rows in first..first + 2 * height + 8 {
            let mut s = seed | 1;
            let input: Vec<i32> = (0..rows).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; (s % 2001) as i32 - 1000 }).collect();
            let expected = lift_line(&program, w.boundary, &input);
            let mut got = input.clone();
            vertical_pass(&program, w.boundary, &window, height, &mut got).unwrap();
            prop_assert_eq!(&got, &expected, "{} rows {} height {} window {:?}", program, rows, height, window);
        }
    }

    #[test]
    fn scales_moved_last_give_the_transform_as_written(
        w in random_float_wavelet(&[Boundary::Clamp, Boundary::Symmetric, Boundary::Periodic]),
        scales in proptest::collection::vec((0usize..6, 0.25f64..4.0, 0.25f64..4.0), 1..=3),
        inverse_program in any::<bool>(),
        len in 2usize..40,
        seed in any::<u64>(),
    ) {
        // Scales at random places among the steps, then the program or its inverse.
        let mut ops = w.program.ops.clone();
        for (at, low, high) in scales {
            let at = at.min(ops.len());
            ops.insert(at, Op::Scale { low: Coeff::Float(low), high: Coeff::Float(high) });
        }
        let written = dwt_ir::Program { ops };
        let written = if inverse_program { written.inverse() } else { written };
        let moved = written.with_scales_moved_last().expect("float steps take any scale");
        prop_assert!(!moved.scales_between_steps(), "{}", moved);
        prop_assert_eq!(moved.steps().count(), written.steps().count());
        // Periodic lines need an even length.
        let len = if w.boundary == Boundary::Periodic { len + len % 2 } else { len };
        let mut s = seed | 1;
        let input: Vec<f64> = (0..len).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; (s % 2001) as f64 - 1000.0 }).collect();
        let want = lift_line(&written, w.boundary, &input);
        let largest = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let close = |got: &[f64]| got.iter().zip(&want).all(|(g, w)| (g - w).abs() <= 1e-9 * largest);
        let got = lift_line(&moved, w.boundary, &input);
        prop_assert!(close(&got), "{} moved to {}: {:?} against {:?}", written, moved, got, want);
        // The window runs the moved program (the written one it refuses) on a column of the
        // clamp or symmetric rule; a periodic line's window is another kernel's.
        if w.boundary != Boundary::Periodic {
            let window = moved.sliding_window(w.boundary);
            let height = window.min_height() as usize;
            if len >= height + window.bottom as usize {
                let mut column = input.clone();
                vertical_pass(&moved, w.boundary, &window, height, &mut column).unwrap();
                prop_assert!(close(&column), "window of {}: {:?} against {:?}", moved, column, want);
            }
        }
    }
}
