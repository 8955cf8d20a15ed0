//! Property tests over random lifting programs (bounded: 64 cases each, so CI stays quick).
//!
//! Any integer lifting program inverts exactly, whatever its taps, offsets, shifts and rounding,
//! on any size, dimension count, level count and layout, even when its arithmetic wraps around;
//! with a per-level pre-shift it does as long as no value outgrows 32 bits (the pre-shift drops
//! the top bits otherwise, which is why the runtime will check bit growth). And the sliding-window
//! geometry the IR derives reproduces the reference at every column height tried.

use dwt_ir::{Boundary, Wavelet};
use dwt_runtime::conformance::random_wavelet;
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
}
