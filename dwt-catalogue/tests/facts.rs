//! The IR's derived facts for the catalogue wavelets, checked against values known independently of
//! this code: the literature's filter lengths and coefficients, van der Laan et al.'s sliding-window
//! numbers, and op counts worked out by hand.

use dwt_catalogue::{
    Cdf53, Cdf97, Daubechies97Integer, DeslauriersDubuc137, DeslauriersDubuc97, Fidelity,
    HaarNoShift, HaarWithShift, LeGall53,
};
use dwt_ir::{
    Boundary, Coeff, Direction, Filter, Laurent, Op, OpCounts, PolyphaseMatrix, Program, Wavelet,
    WaveletSpec,
};

fn r(num: i64, den: i64) -> Coeff {
    Coeff::ratio(num, den)
}

fn lengths(w: &Wavelet) -> (usize, usize) {
    let [low, high] = w.program.equivalent_filters();
    (low.len(), high.len())
}

/// The filter's taps as `(sample offset, value)` with every offset of its support present (zeros
/// included), so that two filters compare without caring which zero taps were stored.
fn dense_f64(f: &Filter) -> Vec<(i64, f64)> {
    let (lo, hi) = f.support();
    (lo..=hi)
        .map(|k| {
            let c = f
                .taps
                .iter()
                .find(|t| t.0 == k)
                .map_or(0.0, |t| t.1.to_f64());
            (k, c)
        })
        .collect()
}

/// A symmetric filter given by its centre tap and the taps at offsets 1, 2, ... on either side.
fn symmetric(half: &[f64]) -> Vec<(i64, f64)> {
    let n = half.len() as i64 - 1;
    (-n..=n)
        .map(|k| (k, half[k.unsigned_abs() as usize]))
        .collect()
}

fn assert_close(actual: &[(i64, f64)], expected: &[(i64, f64)], tol: f64, what: &str) {
    assert_eq!(
        actual.iter().map(|t| t.0).collect::<Vec<_>>(),
        expected.iter().map(|t| t.0).collect::<Vec<_>>(),
        "{what}: support"
    );
    for ((k, a), (_, e)) in actual.iter().zip(expected) {
        assert!(
            (a - e).abs() <= tol,
            "{what}: tap {k} is {a}, expected {e} (tolerance {tol})"
        );
    }
}

#[test]
fn equivalent_filter_lengths_match_the_names() {
    assert_eq!(lengths(LeGall53::wavelet()), (5, 3));
    assert_eq!(lengths(Cdf53::wavelet()), (5, 3));
    assert_eq!(lengths(DeslauriersDubuc97::wavelet()), (9, 7));
    assert_eq!(lengths(Daubechies97Integer::wavelet()), (9, 7));
    assert_eq!(lengths(Cdf97::wavelet()), (9, 7));
    assert_eq!(lengths(DeslauriersDubuc137::wavelet()), (13, 7));
    assert_eq!(lengths(HaarNoShift::wavelet()), (2, 2));
    assert_eq!(lengths(HaarWithShift::wavelet()), (2, 2));
}

/// van der Laan et al. 2011, Table I: the subband-filtering form of (unnormalised) LeGall 5/3,
/// `c_k = 1/8(-c_{2k-2} + 2c_{2k-1} + 6c_{2k} + 2c_{2k+1} - c_{2k+2})` and
/// `d_k = 1/2(-c_{2k} + 2c_{2k+1} - c_{2k+2})`, offsets relative to `2k` and `2k+1` respectively.
/// The catalogue's VC-2 pre-shift is not part of `program`, and the filters use linearised taps
/// (`taps / 2^shift`), so the table's rationals compare exactly.
#[test]
fn legall_53_filters_are_table_i() {
    let [low, high] = LeGall53::wavelet().program.equivalent_filters();
    assert_eq!(
        low.taps,
        vec![
            (-2, r(-1, 8)),
            (-1, r(2, 8)),
            (0, r(6, 8)),
            (1, r(2, 8)),
            (2, r(-1, 8)),
        ]
    );
    assert_eq!(high.taps, vec![(-1, r(-1, 2)), (0, r(2, 2)), (1, r(-1, 2))]);
    assert_eq!(low.support(), (-2, 2));
    assert_eq!(high.support(), (-1, 1));
}

/// The synthesis filters of LeGall 5/3 (the columns of the inverse's polyphase matrix): the
/// biorthogonal partners `1/2(1, 2, 1)` and `1/8(-1, -2, 6, -2, -1)`.
#[test]
fn legall_53_synthesis_filters() {
    let m = LeGall53::inverse().polyphase_matrix();
    // Band `q`'s impulse at index 0 (sample `q`) reaches output sample `2n + p` through the term
    // `k = -n` of `m[p][q]`; offsets are relative to sample `q`.
    let column = |q: usize| {
        let mut taps: Vec<(i64, Coeff)> = (0..2)
            .flat_map(|p| {
                m.0[p][q]
                    .terms()
                    .map(move |(k, c)| (p as i64 - 2 * k as i64 - q as i64, c))
            })
            .collect();
        taps.sort_by_key(|t| t.0);
        taps
    };
    assert_eq!(column(0), vec![(-1, r(1, 2)), (0, r(1, 1)), (1, r(1, 2))]);
    assert_eq!(
        column(1),
        vec![
            (-2, r(-1, 8)),
            (-1, r(-2, 8)),
            (0, r(6, 8)),
            (1, r(-2, 8)),
            (2, r(-1, 8)),
        ]
    );
}

/// The catalogue's CDF 9/7 against the published analysis filters (JPEG 2000 Part 1 / Daubechies):
///
/// - published low-pass `h0`: centre 0.6029490182363579, then 0.2668641184428723,
///   -0.07822326652898785, -0.01686411844287495, 0.02674875741080976; it sums to 1 (DC gain 1);
/// - published high-pass `h1` (relative to the odd sample): centre 1.115087052456994, then
///   -0.5912717631142470, -0.05754352622849957, 0.09127176311424948; its alternating sum is 2
///   (Nyquist gain 2).
///
/// The catalogue's program scales low by K = 1.149604398860241 and high by 1/K, which gives the
/// orthonormal-style convention: DC gain of low = Nyquist gain of high = sqrt(2). So
/// `ours_low = sqrt(2) * h0` and `ours_high = h1 / sqrt(2)`, with the same sign for the high band
/// (its centre tap is positive in both).
#[test]
fn cdf_97_filters_are_the_published_ones() {
    let h0 = [
        0.6029490182363579,
        0.2668641184428723,
        -0.07822326652898785,
        -0.01686411844287495,
        0.02674875741080976,
    ];
    let h1 = [
        1.115087052456994,
        -0.591271763114247,
        -0.05754352622849957,
        0.09127176311424948,
    ];
    let sqrt2 = std::f64::consts::SQRT_2;
    let low: Vec<f64> = h0.iter().map(|c| c * sqrt2).collect();
    let high: Vec<f64> = h1.iter().map(|c| c / sqrt2).collect();

    let [ours_low, ours_high] = Cdf97::wavelet().program.equivalent_filters();
    assert!(ours_low.taps.iter().all(|t| t.1.is_float()));
    assert_close(&dense_f64(&ours_low), &symmetric(&low), 1e-9, "CDF 9/7 low");
    assert_close(
        &dense_f64(&ours_high),
        &symmetric(&high),
        1e-9,
        "CDF 9/7 high",
    );

    // The convention, stated as gains.
    let dc: f64 = ours_low.taps.iter().map(|t| t.1.to_f64()).sum();
    let nyquist: f64 = ours_high
        .taps
        .iter()
        .map(|t| if t.0 % 2 == 0 { 1.0 } else { -1.0 } * t.1.to_f64())
        .sum();
    assert!((dc - sqrt2).abs() < 1e-9, "low DC gain {dc}");
    assert!(
        (nyquist - sqrt2).abs() < 1e-9,
        "high Nyquist gain {nyquist}"
    );
}

/// CDF 5/3 is LeGall 5/3 with low scaled by sqrt(2) and high by 1/sqrt(2).
#[test]
fn cdf_53_filters_are_scaled_legall() {
    let sqrt2 = std::f64::consts::SQRT_2;
    let [low, high] = Cdf53::wavelet().program.equivalent_filters();
    let expected_low: Vec<f64> = [6.0 / 8.0, 2.0 / 8.0, -1.0 / 8.0]
        .iter()
        .map(|c| c * sqrt2)
        .collect();
    let expected_high: Vec<f64> = [1.0, -0.5].iter().map(|c| c / sqrt2).collect();
    assert_close(&dense_f64(&low), &symmetric(&expected_low), 1e-12, "low");
    assert_close(&dense_f64(&high), &symmetric(&expected_high), 1e-12, "high");
}

/// Deslauriers-Dubuc (13,7): the 13-tap low-pass `(-1, 0, 18, -16, -63, 144, 348, ...)/512` and the
/// 7-tap high-pass `(1, 0, -9, 16, -9, 0, 1)/16`.
#[test]
fn deslauriers_dubuc_137_filters() {
    let [low, high] = DeslauriersDubuc137::wavelet().program.equivalent_filters();
    let low_512 = [-1, 0, 18, -16, -63, 144, 348, 144, -63, -16, 18, 0, -1];
    let expected: Vec<(i64, Coeff)> = (-6..=6)
        .zip(low_512)
        .filter(|t| t.1 != 0)
        .map(|(k, c)| (k, r(c, 512)))
        .collect();
    assert_eq!(low.taps, expected);
    let high_16 = [1, 0, -9, 16, -9, 0, 1];
    let expected: Vec<(i64, Coeff)> = (-3..=3)
        .zip(high_16)
        .filter(|t| t.1 != 0)
        .map(|(k, c)| (k, r(c, 16)))
        .collect();
    assert_eq!(high.taps, expected);
}

/// van der Laan et al. 2011, section IV-F: DD(13,7) has top 3, overlap 2, bottom 3 (and the paper's
/// example height 8 is the smallest legal one). The second step lags the first by one polyphase
/// index ("in step 2 we start at row 6, i.e., three rows before the first step (row 9)").
#[test]
fn deslauriers_dubuc_137_sliding_window_is_the_papers() {
    let w = DeslauriersDubuc137::wavelet()
        .program
        .sliding_window(Boundary::Periodic);
    assert_eq!((w.top, w.overlap, w.bottom), (3, 2, 3));
    assert_eq!(w.lags, vec![0, -1]);
    assert_eq!(w.geometry().min_height, 8);
}

/// Haar has no overlap problem at all (the paper: "the filter length being just 2"), in the steady
/// state; the boundary rule may still widen the last window's top.
#[test]
fn haar_sliding_window_is_empty() {
    for w in [HaarNoShift::wavelet(), HaarWithShift::wavelet()] {
        for p in [w.program.clone(), w.inverse()] {
            let g = p.sliding_window(Boundary::Periodic).geometry();
            assert_eq!((g.top, g.overlap, g.bottom, g.min_height), (0, 0, 0, 2));
        }
    }
}

fn check_geometry<W: WaveletSpec>() {
    let w = W::wavelet();
    assert_eq!(W::NAME, w.name);
    assert_eq!(
        W::GEOMETRY,
        w.sliding_window(Direction::Forward).geometry(),
        "{}",
        W::NAME
    );
    assert_eq!(
        W::INVERSE_GEOMETRY,
        w.sliding_window(Direction::Inverse).geometry(),
        "{}",
        W::NAME
    );
    assert_eq!(*W::inverse(), w.inverse());
    assert_eq!(dwt_ir::parse_wavelet(W::SOURCE).as_ref(), Ok(w));
}

#[test]
fn geometry_consts_match_the_derivation() {
    check_geometry::<DeslauriersDubuc97>();
    check_geometry::<LeGall53>();
    check_geometry::<DeslauriersDubuc137>();
    check_geometry::<HaarNoShift>();
    check_geometry::<HaarWithShift>();
    check_geometry::<Fidelity>();
    check_geometry::<Daubechies97Integer>();
    check_geometry::<Cdf97>();
    check_geometry::<Cdf53>();
}

#[test]
fn inverse_of_inverse_is_the_program() {
    for w in dwt_catalogue::all() {
        let inv = w.inverse();
        assert_ne!(inv, w.program, "{}", w.name);
        assert_eq!(inv.inverse(), w.program, "{}", w.name);
    }
}

#[test]
fn inverse_steps_flip_only_the_sign() {
    for w in dwt_catalogue::all() {
        let fwd: Vec<_> = w.program.steps().collect();
        let inv: Vec<_> = w.inverse().steps().cloned().collect();
        assert_eq!(fwd.len(), inv.len());
        for (f, i) in fwd.iter().rev().zip(&inv) {
            assert_eq!(i.sign, f.sign.flipped(), "{}", w.name);
            assert_eq!(
                (i.target, &i.taps, i.rounding, i.shift),
                (f.target, &f.taps, f.rounding, f.shift),
                "{}",
                w.name
            );
            assert_eq!(f.inverse(), *i);
            assert_eq!(i.inverse(), **f);
        }
    }
}

fn is_exact(p: &Program) -> bool {
    p.ops.iter().all(|op| match op {
        Op::Lift(s) => s.taps.terms().all(|(_, c)| !c.is_float()),
        Op::Scale { low, high } => !low.is_float() && !high.is_float(),
    })
}

fn assert_near_identity(m: &PolyphaseMatrix, tol: f64, what: &str) {
    for p in 0..2 {
        for q in 0..2 {
            for (k, c) in m.0[p][q].terms() {
                let expected = if p == q && k == 0 { 1.0 } else { 0.0 };
                assert!(
                    (c.to_f64() - expected).abs() <= tol,
                    "{what}: entry [{p}][{q}] term {k} is {c}"
                );
            }
            if p == q {
                assert!(
                    (m.0[p][q].coeff(0).to_f64() - 1.0).abs() <= tol,
                    "{what}: diagonal [{p}][{p}] has no constant 1"
                );
            }
        }
    }
}

#[test]
fn inverse_times_forward_is_the_identity() {
    for w in dwt_catalogue::all() {
        let fwd = &w.program;
        let inv = w.inverse();
        // Step by step: the forward steps, then the inverse ones, multiplied in order. Every
        // partial product is a prefix of the forward transform, so exact coefficients stay small.
        let composed = Program {
            ops: fwd.ops.iter().chain(&inv.ops).cloned().collect(),
        };
        let m = composed.polyphase_matrix();
        // The product of the two matrices.
        let product = inv.polyphase_matrix().mul(&fwd.polyphase_matrix());
        if is_exact(fwd) {
            assert_eq!(m, PolyphaseMatrix::identity(), "{}", w.name);
            // Daubechies97Integer's matrices have denominators up to 2^48, so the terms of their
            // product overflow Rational64 and fall back to floats (an off-diagonal entry comes out
            // as +-5.6e-17 instead of 0); the others stay exact.
            if w.name == "Daubechies97Integer" {
                assert_near_identity(&product, 1e-12, &w.name);
            } else {
                assert_eq!(product, PolyphaseMatrix::identity(), "{}", w.name);
            }
        } else {
            assert_near_identity(&m, 1e-12, &w.name);
            assert_near_identity(&product, 1e-12, &w.name);
        }
        // And the other way round: synthesis then analysis.
        let other = fwd.polyphase_matrix().mul(&inv.polyphase_matrix());
        assert_near_identity(&other, 1e-12, &w.name);
    }
}

/// LeGall per pair of samples: predict `(e0 + e1 + 1) >> 1` is 1 add for the taps, 1 for the
/// rounding, 1 to update the target, 1 shift; the update likewise: 0 mul, 6 add, 2 shift.
/// Haar: `odd -= even[0]` is 1 add; `even += (odd[0] + 1) >> 1` is 2 add and 1 shift.
#[test]
fn op_counts_by_hand() {
    let legall = OpCounts {
        mul: 0,
        add: 6,
        shift: 2,
    };
    assert_eq!(LeGall53::wavelet().program.op_counts(), legall);
    assert_eq!(LeGall53::inverse().op_counts(), legall);
    let haar = OpCounts {
        mul: 0,
        add: 3,
        shift: 1,
    };
    assert_eq!(HaarNoShift::wavelet().program.op_counts(), haar);
    assert_eq!(HaarWithShift::wavelet().program.op_counts(), haar);
    // DD(13,7): each step is `9*(a + b) - (c + d)` plus rounding and update: 1 mul, 5 add, 1 shift.
    assert_eq!(
        DeslauriersDubuc137::wavelet().program.op_counts(),
        OpCounts {
            mul: 2,
            add: 10,
            shift: 2
        }
    );
    // CDF 9/7: four steps `c*(a + b)` (1 mul, 2 add each) and two scalings.
    assert_eq!(
        Cdf97::wavelet().program.op_counts(),
        OpCounts {
            mul: 6,
            add: 8,
            shift: 0
        }
    );
}

/// Table II of the paper: both DD(13,7) steps read two samples of the other phase on either side,
/// i.e. sample offsets -3..=3 around the target.
#[test]
fn deslauriers_dubuc_137_step_supports() {
    let p = &DeslauriersDubuc137::wavelet().program;
    assert_eq!(p.step_supports(), vec![(-3, 3), (-3, 3)]);
    let steps: Vec<_> = p.steps().collect();
    assert_eq!(steps[0].target, dwt_ir::Phase::Odd);
    assert_eq!(steps[0].offsets(), (-1, 2));
    assert_eq!(steps[1].target, dwt_ir::Phase::Even);
    assert_eq!(steps[1].offsets(), (-2, 1));
    assert_eq!(p.total_support(), (-6, 6));
}

#[test]
fn legall_and_haar_step_supports() {
    assert_eq!(
        LeGall53::wavelet().program.step_supports(),
        vec![(-1, 1), (-1, 1)]
    );
    // Haar: the odd sample reads the even one before it, the even one reads the odd one after it.
    assert_eq!(
        HaarNoShift::wavelet().program.step_supports(),
        vec![(-1, -1), (1, 1)]
    );
}

#[test]
fn display_parse_round_trip() {
    for w in dwt_catalogue::all() {
        let text = w.to_string();
        assert_eq!(
            dwt_ir::parse_wavelet(&text).as_ref(),
            Ok(w),
            "round trip of\n{text}"
        );
    }
}

#[test]
fn legall_inverse_program_text() {
    assert_eq!(
        LeGall53::inverse().to_string(),
        "even -= (odd[-1] + odd[0] + 2) >> 2;\nodd += (even[0] + even[1] + 1) >> 1;"
    );
}

/// The linearised LeGall (VC-2 form) is exactly the real CDF 5/3 lifting before scaling.
#[test]
fn linearized_legall_is_cdf53_unscaled() {
    let lin = LeGall53::wavelet().linearized();
    let cdf = Cdf53::wavelet();
    let unscaled: Vec<_> = cdf
        .program
        .ops
        .iter()
        .filter(|op| matches!(op, Op::Lift(_)))
        .map(|op| match op {
            Op::Lift(s) => s.linear_taps(),
            Op::Scale { .. } => unreachable!(),
        })
        .collect();
    let ours: Vec<Laurent> = lin.program.steps().map(|s| s.taps.clone()).collect();
    assert_eq!(ours, unscaled);
    assert_eq!(lin.shift, 0);
}

/// Whole-sample reflection stands in for VC-2's clamp rule exactly where the notes say the two
/// agree: two-tap steps, symmetric about their target (LeGall 5/3, Daubechies 9/7, and the float
/// CDF 9/7 and 5/3, whose steps have the same shape). Not for the longer Deslauriers-Dubuc and
/// Fidelity steps (clamping `A[2n-3]` at the first sample reads sample 1, reflecting reads 3), nor
/// for Haar's one-sided forward predict on lines of an odd length (its inverse reads only within
/// a pair but the last sample of an odd line, a read the reflection and the clamp agree on).
#[test]
fn reflected_halos_are_exact_for_the_symmetric_two_tap_programs() {
    let exact = |w: &Wavelet, dir: Direction, n: usize, s: usize| {
        w.program_for(dir)
            .reflected_segments_exact(w.boundary, w.kind, n, s)
    };
    for w in dwt_catalogue::all() {
        for dir in [Direction::Forward, Direction::Inverse] {
            let all = (2..=120).all(|n| (1..=8).all(|s| exact(w, dir, n, s)));
            let symmetric_two_tap =
                ["LeGall53", "Daubechies97Integer", "Cdf97", "Cdf53"].contains(&w.name.as_str());
            let haar_inverse = w.name.starts_with("Haar") && dir == Direction::Inverse;
            assert_eq!(all, symmetric_two_tap || haar_inverse, "{} {dir:?}", w.name);
            if w.name.starts_with("Haar") {
                assert!((2..=120)
                    .step_by(2)
                    .all(|n| (1..=8).all(|s| exact(w, dir, n, s))));
            }
        }
    }
    // Lines of one sample are not lifted; empty segments hold nothing.
    assert!(!exact(LeGall53::wavelet(), Direction::Forward, 1, 8));
    assert!(!exact(LeGall53::wavelet(), Direction::Forward, 100, 0));
}
