//! Properties of the IR over random valid lifting programs, built directly with the IR types:
//! the pretty-printer and the parser agree, inversion is an involution, inverse after forward is
//! the identity, and the sliding window schedules every step so that a windowed run computes what a
//! whole-line run does.

use dwt_ir::Phase;
use dwt_ir::{
    parse_wavelet, Boundary, Coeff, ElementKind, Laurent, Op, PolyphaseMatrix, Program, Sign,
    SlidingWindow, Step, Wavelet,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};

// ---------------------------------------------------------------------------------------------
// Generators

fn phase() -> impl Strategy<Value = Phase> {
    prop_oneof![Just(Phase::Even), Just(Phase::Odd)]
}

fn sign() -> impl Strategy<Value = Sign> {
    prop_oneof![Just(Sign::Add), Just(Sign::Sub)]
}

fn boundary() -> impl Strategy<Value = Boundary> {
    prop_oneof![
        Just(Boundary::Clamp),
        Just(Boundary::Symmetric),
        Just(Boundary::Periodic)
    ]
}

/// 1 to 4 distinct polyphase offsets in -4..=4.
fn offsets() -> impl Strategy<Value = Vec<i32>> {
    subsequence((-4..=4).collect::<Vec<i32>>(), 1..=4)
}

/// A non-zero integer in -50..=50.
fn int_coeff() -> impl Strategy<Value = i64> {
    (1i64..=50, any::<bool>()).prop_map(|(m, neg)| if neg { -m } else { m })
}

/// A non-zero coefficient of a float wavelet: mostly floats (including the awkward ones: +-1.0, an
/// integral 2.0, values printed with exponents), sometimes an exact rational, which a float wavelet
/// may also hold (`1/2*(...)`).
fn float_coeff() -> impl Strategy<Value = Coeff> {
    prop_oneof![
        4 => (-50.0f64..50.0)
            .prop_filter("non-zero", |x| *x != 0.0)
            .prop_map(Coeff::Float),
        1 => select(vec![1.0, -1.0, 0.5, -0.25, 2.0, 1e-7, -3.5e20, 0.1, 1.0 / 3.0])
            .prop_map(Coeff::Float),
        1 => (int_coeff(), 1i64..=16).prop_map(|(n, d)| Coeff::ratio(n, d)),
    ]
}

/// Taps at 1 to 4 distinct offsets, either with independent coefficients or all sharing one
/// magnitude (the `c*(a + b)` form the printer chooses for symmetric filters).
fn taps(coeff: BoxedStrategy<Coeff>) -> impl Strategy<Value = Laurent> {
    offsets().prop_flat_map(move |offs| {
        let n = offs.len();
        prop_oneof![
            vec(coeff.clone(), n),
            (coeff.clone(), vec(any::<bool>(), n)).prop_map(|(c, negs)| negs
                .into_iter()
                .map(|neg| if neg { c.neg() } else { c })
                .collect()),
        ]
        .prop_map(move |cs: Vec<Coeff>| Laurent::from_terms(offs.clone().into_iter().zip(cs)))
    })
}

fn int_step(target: Phase) -> impl Strategy<Value = Step> {
    (
        taps(int_coeff().prop_map(Coeff::int).boxed()),
        sign(),
        0u32..=8,
    )
        .prop_flat_map(move |(taps, sign, shift)| {
            let rounding = if shift == 0 {
                Just(0i64).boxed()
            } else {
                (0i64..(1 << shift)).boxed()
            };
            (Just(taps), Just(sign), Just(shift), rounding)
        })
        .prop_map(move |(taps, sign, shift, rounding)| Step {
            target,
            sign,
            taps,
            rounding,
            shift,
        })
}

fn float_step(target: Phase) -> impl Strategy<Value = Step> {
    (taps(float_coeff().boxed()), sign()).prop_map(move |(taps, sign)| Step {
        target,
        sign,
        taps,
        rounding: 0,
        shift: 0,
    })
}

/// The targets of 1 to 4 steps: alternating from a random phase, or in any order.
fn targets() -> impl Strategy<Value = Vec<Phase>> {
    prop_oneof![
        (phase(), 1usize..=4).prop_map(|(first, n)| (0..n)
            .map(|i| if i % 2 == 0 { first } else { first.other() })
            .collect()),
        vec(phase(), 1..=4),
    ]
}

fn int_program() -> impl Strategy<Value = Program> {
    targets().prop_flat_map(|ts| {
        ts.into_iter()
            .map(|t| int_step(t).prop_map(Op::Lift).boxed())
            .collect::<Vec<_>>()
            .prop_map(|ops| Program { ops })
    })
}

fn nonzero_float(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo..hi, any::<bool>()).prop_map(|(x, neg)| if neg { -x } else { x })
}

fn scale() -> impl Strategy<Value = Option<Op>> {
    prop_oneof![
        Just(None),
        nonzero_float(0.1, 4.0).prop_map(|k| Some(Op::Scale {
            low: Coeff::Float(k),
            high: Coeff::Float(k).recip().unwrap(),
        })),
        (nonzero_float(0.1, 4.0), nonzero_float(0.1, 4.0)).prop_map(|(a, b)| Some(Op::Scale {
            low: Coeff::Float(a),
            high: Coeff::Float(b),
        })),
        (int_coeff(), 1i64..=16).prop_map(|(n, d)| Some(Op::Scale {
            low: Coeff::ratio(n, d),
            high: Coeff::ratio(d, n),
        })),
    ]
}

fn float_program() -> impl Strategy<Value = Program> {
    targets().prop_flat_map(|ts| {
        let steps = ts
            .into_iter()
            .map(|t| float_step(t).prop_map(Op::Lift).boxed())
            .collect::<Vec<_>>();
        (steps, scale()).prop_map(|(mut ops, scale)| {
            ops.extend(scale);
            Program { ops }
        })
    })
}

fn doc() -> impl Strategy<Value = Vec<String>> {
    vec("[a-zA-Z0-9 ,.()*/+-]{0,24}", 0..=3)
}

fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_]{0,10}".prop_map(|s| format!("W{s}"))
}

fn int_wavelet() -> impl Strategy<Value = Wavelet> {
    (name(), doc(), boundary(), 0u32..=15, int_program()).prop_map(
        |(name, doc, boundary, shift, program)| Wavelet {
            name,
            doc,
            kind: ElementKind::Integer,
            boundary,
            shift,
            program,
        },
    )
}

fn float_wavelet() -> impl Strategy<Value = Wavelet> {
    (name(), doc(), boundary(), float_program()).prop_map(|(name, doc, boundary, program)| {
        Wavelet {
            name,
            doc,
            kind: ElementKind::Float,
            boundary,
            shift: 0,
            program,
        }
    })
}

fn any_wavelet() -> impl Strategy<Value = Wavelet> {
    prop_oneof![int_wavelet(), float_wavelet()]
}

// ---------------------------------------------------------------------------------------------
// Helpers

/// The program of `a` followed by that of `b`.
fn then(a: &Program, b: &Program) -> Program {
    Program {
        ops: a.ops.iter().chain(&b.ops).cloned().collect(),
    }
}

fn is_exact(p: &Program) -> bool {
    p.ops.iter().all(|op| match op {
        Op::Lift(s) => s.taps.terms().all(|(_, c)| !c.is_float()),
        Op::Scale { low, high } => !low.is_float() && !high.is_float(),
    })
}

/// A bound on the magnitude of any polyphase coefficient met while multiplying `p` step by step,
/// to scale the float tolerance.
fn magnitude(p: &Program) -> f64 {
    p.ops
        .iter()
        .map(|op| match op {
            Op::Lift(s) => {
                1.0 + s
                    .linear_taps()
                    .terms()
                    .map(|(_, c)| c.to_f64().abs())
                    .sum::<f64>()
            }
            Op::Scale { low, high } => {
                let (l, h) = (low.to_f64().abs(), high.to_f64().abs());
                l.max(h).max(1.0 / l).max(1.0 / h)
            }
        })
        .product()
}

fn assert_near_identity(m: &PolyphaseMatrix, tol: f64) -> Result<(), TestCaseError> {
    for p in 0..2 {
        for q in 0..2 {
            let mut terms: Vec<(i32, Coeff)> = m.0[p][q].terms().collect();
            if p == q && m.0[p][q].coeff(0).is_zero() {
                terms.push((0, Coeff::zero()));
            }
            for (k, c) in terms {
                let expected = if p == q && k == 0 { 1.0 } else { 0.0 };
                prop_assert!(
                    (c.to_f64() - expected).abs() <= tol,
                    "entry [{}][{}] term {} is {} (tolerance {})",
                    p,
                    q,
                    k,
                    c,
                    tol
                );
            }
        }
    }
    Ok(())
}

/// Lags satisfy every dependence between an earlier step `i` and a later step `j`, and each is the
/// largest that does (the derivation's stated rule):
/// - same target: `j` may not lift what `i` has not lifted yet, `lag_j <= lag_i`;
/// - `j` reads `i`'s target: everything it reads is finished, `lag_j + hi_j <= lag_i`;
/// - `i` reads `j`'s target: `j` leaves alone what `i` reads in the next window,
///   `lag_j <= lag_i + lo_i`.
fn check_lags(p: &Program, w: &SlidingWindow) -> Result<(), TestCaseError> {
    prop_assert_eq!(w.lags.first().copied(), Some(0));
    let bounds = check_dependences(p, w)?;
    for (j, bound) in bounds.into_iter().enumerate().skip(1) {
        prop_assert_eq!(w.lags[j], bound, "lag {} is not the largest legal one", j);
    }
    Ok(())
}

/// Checks the dependences of [`check_lags`] alone; returns, per step, the bound they put on its
/// lag (`i32::MAX` for the first step).
fn check_dependences(p: &Program, w: &SlidingWindow) -> Result<Vec<i32>, TestCaseError> {
    let steps: Vec<&Step> = p.steps().collect();
    prop_assert_eq!(w.lags.len(), steps.len());
    let mut bounds = vec![i32::MAX; steps.len()];
    for j in 1..steps.len() {
        for i in 0..j {
            let b = if steps[i].target == steps[j].target {
                w.lags[i]
            } else {
                (w.lags[i] - steps[j].offsets().1).min(w.lags[i] + steps[i].offsets().0)
            };
            prop_assert!(
                w.lags[j] <= b,
                "lag {} violates a dependence on step {}",
                j,
                i
            );
            bounds[j] = bounds[j].min(b);
        }
    }
    Ok(bounds)
}

/// One integer lifting step on polyphase index `m`, reading the other phase through `read`.
fn lift(step: &Step, m: i64, current: i64, mut read: impl FnMut(i64) -> i64) -> i64 {
    let mut sum = step.rounding;
    for (k, c) in step.taps.terms() {
        let c = c.as_integer().expect("integer taps");
        sum = sum.wrapping_add(c.wrapping_mul(read(m + k as i64)));
    }
    let delta = sum >> step.shift;
    match step.sign {
        Sign::Add => current.wrapping_add(delta),
        Sign::Sub => current.wrapping_sub(delta),
    }
}

/// Runs an integer program over a line of `2n` samples (reads past either end give 0) the plain
/// way: each step over the whole line, one after the other.
fn run_whole(p: &Program, input: &[i64]) -> Vec<i64> {
    let mut x = input.to_vec();
    let rows = x.len() as i64;
    for s in p.steps() {
        let (t, q) = (s.target.parity(), s.source().parity());
        let before = x.clone();
        for m in 0..rows / 2 {
            let row = (2 * m + t) as usize;
            x[row] = lift(s, m, before[row], |i| {
                let r = 2 * i + q;
                if (0..rows).contains(&r) {
                    before[r as usize]
                } else {
                    0
                }
            });
        }
    }
    x
}

/// Runs an integer program over the same line as Algorithm 1 of van der Laan et al. does: a
/// window of rows `[kH - top - overlap, kH + H + bottom)` per step `k`, whose first
/// `top + overlap + bottom` rows are carried from the previous window and the rest read afresh;
/// step `j` lifts polyphase indices `[lag_j + kH/2, lag_j + (k+1)H/2)`; rows
/// `[kH - overlap, kH + H - overlap)` are written back. Returns the output, or the first access
/// outside the window.
fn run_windowed(
    p: &Program,
    w: &SlidingWindow,
    height: i64,
    input: &[i64],
) -> Result<Vec<i64>, String> {
    let rows = input.len() as i64;
    let (top, overlap, bottom) = (w.top as i64, w.overlap as i64, w.bottom as i64);
    let half = height / 2;
    let fetch = |r: i64| {
        if (0..rows).contains(&r) {
            input[r as usize]
        } else {
            0
        }
    };
    let mut out = vec![i64::MIN; input.len()];
    let mut prev: Option<(i64, Vec<i64>)> = None;
    let steps: Vec<&Step> = p.steps().collect();
    for k in -2..=rows / height + 3 {
        let start = k * height - top - overlap;
        let len = top + overlap + height + bottom;
        let mut buf: Vec<i64> = (start..start + len).map(fetch).collect();
        if let Some((prev_start, prev_buf)) = &prev {
            // Carried rows: [start, k*H + bottom), from the previous window's buffer.
            for r in start..k * height + bottom {
                buf[(r - start) as usize] = prev_buf[(r - prev_start) as usize];
            }
        }
        let in_window = |r: i64| (start..start + len).contains(&r);
        for (j, s) in steps.iter().enumerate() {
            let (t, q) = (s.target.parity(), s.source().parity());
            let lag = w.lags[j] as i64;
            let before = buf.clone();
            for m in (lag + k * half).max(0)..(lag + (k + 1) * half).min(rows / 2) {
                let row = 2 * m + t;
                if !in_window(row) {
                    return Err(format!("window {k}: step {j} lifts row {row} outside"));
                }
                let mut outside = None;
                let value = lift(s, m, before[(row - start) as usize], |i| {
                    let r = 2 * i + q;
                    if !(0..rows).contains(&r) {
                        0
                    } else if in_window(r) {
                        before[(r - start) as usize]
                    } else {
                        outside = Some(r);
                        0
                    }
                });
                if let Some(r) = outside {
                    return Err(format!("window {k}: step {j} reads row {r} outside"));
                }
                buf[(row - start) as usize] = value;
            }
        }
        for r in (k * height - overlap).max(0)..(k * height + height - overlap).min(rows) {
            out[r as usize] = buf[(r - start) as usize];
        }
        prev = Some((start, buf));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// What the pretty-printer writes, the parser reads back as the same wavelet.
    #[test]
    fn display_parse_round_trip(w in any_wavelet()) {
        let text = w.to_string();
        let back = parse_wavelet(&text);
        prop_assert_eq!(back.as_ref(), Ok(&w), "text:\n{}", text);
    }

    /// Inverting twice gives the program back: exactly for every step and exact scale; a float
    /// scale goes through `1/(1/x)`, which IEEE arithmetic only brings back to within an ulp.
    #[test]
    fn inverse_of_inverse(w in any_wavelet()) {
        let back = w.inverse().inverse();
        prop_assert_eq!(back.ops.len(), w.program.ops.len());
        for (b, a) in back.ops.iter().zip(&w.program.ops) {
            match (b, a) {
                (Op::Scale { low: bl, high: bh }, Op::Scale { low: al, high: ah })
                    if al.is_float() || ah.is_float() =>
                {
                    for (x, y) in [(bl, al), (bh, ah)] {
                        let (x, y) = (x.to_f64(), y.to_f64());
                        prop_assert!((x - y).abs() <= 2.0 * f64::EPSILON * y.abs(), "{} vs {}", x, y);
                    }
                }
                _ => prop_assert_eq!(b, a),
            }
        }
        // Each inverse step is the forward step with only its sign flipped.
        let fwd: Vec<&Step> = w.program.steps().collect();
        let inv = w.inverse();
        let inv: Vec<&Step> = inv.steps().collect();
        for (f, i) in fwd.iter().rev().zip(&inv) {
            prop_assert_eq!(i.sign, f.sign.flipped());
            prop_assert_eq!(&Step { sign: f.sign, ..(*i).clone() }, *f);
        }
    }

    /// Integer programs: the polyphase matrix of the forward program followed by its inverse is
    /// exactly the identity (rationals). Multiplied step by step, each partial product is a prefix
    /// of the forward transform, so the exact arithmetic never overflows.
    #[test]
    fn inverse_after_forward_is_identity_exactly(p in int_program()) {
        prop_assert!(is_exact(&p));
        let m = then(&p, &p.inverse()).polyphase_matrix();
        prop_assert_eq!(&m, &PolyphaseMatrix::identity());
        // Synthesis then analysis too.
        let m = then(&p.inverse(), &p).polyphase_matrix();
        prop_assert_eq!(&m, &PolyphaseMatrix::identity());
        // The product of the two matrices, where it stays exact (large shifts overflow Rational64,
        // and the terms then fall back to floats).
        let product = p.inverse().polyphase_matrix().mul(&p.polyphase_matrix());
        let exact = (0..2).all(|i| (0..2).all(|j| product.0[i][j].terms().all(|(_, c)| !c.is_float())));
        if exact {
            prop_assert_eq!(&product, &PolyphaseMatrix::identity());
        }
    }

    /// Float programs: the same, to rounding error.
    #[test]
    fn inverse_after_forward_is_identity_float(p in float_program()) {
        let tol = 1e-12 * magnitude(&p).powi(2);
        assert_near_identity(&then(&p, &p.inverse()).polyphase_matrix(), tol)?;
        assert_near_identity(&then(&p.inverse(), &p).polyphase_matrix(), tol)?;
    }

    /// The lags obey every dependence and are the largest that do; when the steps alternate
    /// phases and each reads around its own index (lowest offset <= 0 <= highest), they never
    /// increase. (With one-sided steps they may: see `lags_may_increase_for_one_sided_steps`.)
    #[test]
    fn lags(p in prop_oneof![int_program(), float_program()]) {
        let w = p.sliding_window(Boundary::Periodic);
        check_lags(&p, &w)?;
        let steps: Vec<&Step> = p.steps().collect();
        let alternating = steps.windows(2).all(|s| s[0].target != s[1].target);
        let centred = steps.iter().all(|s| s.offsets().0 <= 0 && 0 <= s.offsets().1);
        if alternating && centred {
            prop_assert!(w.lags.windows(2).all(|l| l[1] <= l[0]), "lags {:?}", w.lags);
        }
        // A boundary rule may hold steps back (lower lags) and widen the top for the last window,
        // but the lags still obey every dependence.
        for b in [Boundary::Clamp, Boundary::Symmetric] {
            let wb = p.sliding_window(b);
            check_dependences(&p, &wb)?;
            prop_assert!(wb.lags.iter().zip(&w.lags).all(|(b, p)| b <= p), "{:?} vs {:?}", wb.lags, w.lags);
        }
    }

    /// The same with the lags of alternating, centred programs only: never increasing.
    #[test]
    fn lags_of_centred_alternating_programs_never_increase(
        first in phase(),
        steps in vec((taps(int_coeff().prop_map(Coeff::int).boxed()), sign()), 1..=4),
    ) {
        let ops = steps
            .into_iter()
            .enumerate()
            .map(|(i, (taps, sign))| {
                let target = if i % 2 == 0 { first } else { first.other() };
                // Make the taps straddle the step's own index.
                let (lo, hi) = taps.degree_range().unwrap();
                let mut taps = taps;
                if lo > 0 { taps.add_term(0, Coeff::one()); }
                if hi < 0 { taps.add_term(0, Coeff::one()); }
                Op::Lift(Step { target, sign, taps, rounding: 0, shift: 0 })
            })
            .collect();
        let p = Program { ops };
        let w = p.sliding_window(Boundary::Periodic);
        prop_assert!(w.lags.windows(2).all(|l| l[1] <= l[0]), "lags {:?}", w.lags);
    }

    /// The smallest working height is even and holds the rows carried between windows.
    #[test]
    fn geometry(p in prop_oneof![int_program(), float_program()], b in boundary()) {
        let g = p.sliding_window(b).geometry();
        prop_assert_eq!(g.min_height % 2, 0);
        prop_assert!(g.min_height >= 2);
        prop_assert!(g.min_height >= g.top + g.overlap + g.bottom, "{}", g);
    }

    /// The window is big enough and the lags are right: running an integer program window by
    /// window, as Algorithm 1 does, reads and writes only inside each window and computes what
    /// running it over the whole line does.
    #[test]
    fn windowed_run_matches_whole_line(
        p in int_program(),
        b in boundary(),
        extra in 0i64..3,
        windows in 2i64..6,
        tail in 0i64..4,
        seed in -1000i64..1000,
    ) {
        // Reads past the ends give 0 in both runs, so this checks the middle windows' schedule
        // (for every boundary rule's lags), not the boundary handling.
        let w = p.sliding_window(b);
        let height = w.geometry().min_height as i64 + 2 * extra;
        let rows = windows * height + 2 * tail;
        let input: Vec<i64> = (0..rows).map(|r| (r * 7919 + seed).rem_euclid(2001) - 1000).collect();
        let whole = run_whole(&p, &input);
        let windowed = run_windowed(&p, &w, height, &input);
        prop_assert_eq!(windowed.as_ref(), Ok(&whole), "window {:?}, height {}", w, height);
    }
}

/// The counterexample to "lags never increase when steps alternate": a predict that reads only the
/// even sample after the odd one, then an update that reads only the odd sample before the one
/// before. The update may run one index ahead of the predict and still see finished values.
#[test]
fn lags_may_increase_for_one_sided_steps() {
    let p = Program {
        ops: vec![
            Op::Lift(Step {
                target: Phase::Odd,
                sign: Sign::Sub,
                taps: Laurent::monomial(1, Coeff::one()),
                rounding: 0,
                shift: 0,
            }),
            Op::Lift(Step {
                target: Phase::Even,
                sign: Sign::Add,
                taps: Laurent::monomial(-1, Coeff::one()),
                rounding: 0,
                shift: 0,
            }),
        ],
    };
    let w = p.sliding_window(Boundary::Periodic);
    assert_eq!(w.lags, vec![0, 1]);
    let input: Vec<i64> = (0..40).map(|r| r * r % 17 - 8).collect();
    assert_eq!(
        run_windowed(&p, &w, w.geometry().min_height as i64, &input),
        Ok(run_whole(&p, &input))
    );
}

/// A float coefficient of magnitude one is printed as `1.0*x`, not as a bare read, which the
/// parser would take for the exact integer 1.
#[test]
fn float_unit_coefficient_round_trips() {
    let text = "wavelet W { kind = float; odd -= 1.0*even[0]; even += -1.0*odd[0] + 0.5*odd[1]; }";
    let w = parse_wavelet(text).unwrap();
    let taps = &w.program.steps().next().unwrap().taps;
    assert_eq!(taps.coeff(0), Coeff::Float(1.0));
    assert_eq!(parse_wavelet(&w.to_string()), Ok(w.clone()), "{w}");
}
