//! Bad requests are errors that say what is wrong, never panics or silently wrong data.

use dwt_runtime::cpu::{forward, Layout};
use dwt_runtime::DwtError;

fn legall() -> &'static dwt_ir::Wavelet {
    dwt_catalogue::by_name("LeGall53").unwrap()
}

#[test]
fn too_many_levels() {
    let mut d = vec![0i32; 16];
    let e = forward(legall(), &mut d, &[4, 4], 3, Layout::Mallat).unwrap_err();
    assert_eq!(
        e,
        DwtError::TooManyLevels {
            shape: vec![4, 4],
            levels: 3,
            max: 2
        }
    );
    assert!(e.to_string().contains("at most 2"), "{e}");
    let mut one = vec![5i32];
    let e = forward(legall(), &mut one, &[1, 1], 1, Layout::Mallat).unwrap_err();
    assert!(matches!(e, DwtError::TooManyLevels { max: 0, .. }), "{e:?}");
    // Nothing to transform is said so, not as "at most 0 levels".
    assert_eq!(
        e.to_string(),
        "shape [1, 1] is too small to transform (1 level asked): every axis has 1 sample, and a level needs an axis of 2 or more"
    );
    assert_eq!(one, [5], "input untouched on error");
}

#[test]
fn buffer_length_and_shape() {
    let mut d = vec![1i32; 15];
    let e = forward(legall(), &mut d, &[4, 4], 1, Layout::Mallat).unwrap_err();
    assert_eq!(
        e,
        DwtError::BufferLength {
            shape: vec![4, 4],
            len: 15,
            needed: 16
        }
    );
    assert!(d.iter().all(|&x| x == 1), "input untouched on error");
    assert!(matches!(
        forward(legall(), &mut d, &[], 1, Layout::Mallat),
        Err(DwtError::Dimensions { dims: 0, .. })
    ));
    assert!(matches!(
        forward(legall(), &mut d, &[1, 1, 3, 5], 1, Layout::Mallat),
        Err(DwtError::Dimensions { dims: 4, .. })
    ));
    assert!(matches!(
        forward(legall(), &mut d, &[0, 15], 1, Layout::Mallat),
        Err(DwtError::EmptyAxis { .. })
    ));
}

#[test]
fn element_kind_must_match_the_wavelet() {
    let mut f = vec![0f32; 8];
    let e = forward(legall(), &mut f, &[8], 1, Layout::Mallat).unwrap_err();
    assert!(
        e.to_string().contains("integer") && e.to_string().contains("f32"),
        "{e}"
    );
    let mut i = vec![0i16; 8];
    let cdf = dwt_catalogue::by_name("Cdf97").unwrap();
    assert!(matches!(
        forward(cdf, &mut i, &[8], 1, Layout::Mallat),
        Err(DwtError::KindMismatch { .. })
    ));
}

#[test]
fn periodic_needs_even_lengths_at_every_level() {
    let mut w = legall().clone();
    w.boundary = dwt_ir::Boundary::Periodic;
    let mut d = vec![0i32; 12];
    forward(&w, &mut d, &[12], 2, Layout::Mallat).unwrap();
    let e = forward(&w, &mut d, &[12], 3, Layout::Mallat).unwrap_err();
    assert_eq!(
        e,
        DwtError::PeriodicOddLength {
            wavelet: "LeGall53".into(),
            axis: 0,
            len: 3,
            level: 3
        }
    );
}

/// A shape whose sample count overflows (a file header can claim one) is refused before
/// anything is sized from it.
#[test]
fn shapes_too_large_to_address() {
    use dwt_runtime::{CpuBackend, Direction, ElementType, Plan};
    for shape in [
        vec![usize::MAX, 2],
        vec![1 << 40, 1 << 40],
        vec![1 << 22, 1 << 22, 1 << 22],
    ] {
        let e = Plan::new(
            &CpuBackend,
            legall(),
            &shape,
            1,
            Direction::Forward,
            Layout::Mallat,
            ElementType::I32,
        )
        .unwrap_err();
        assert_eq!(
            e,
            DwtError::ShapeTooLarge {
                shape: shape.clone()
            }
        );
        assert!(e.to_string().contains("smaller pieces"), "{e}");
        let mut d = vec![1i32; 16];
        assert_eq!(
            forward(legall(), &mut d, &shape, 1, Layout::Mallat),
            Err(DwtError::ShapeTooLarge { shape })
        );
        assert!(d.iter().all(|&x| x == 1), "input untouched on error");
    }
}

/// The bit-growth check of a plan does not follow every sample of a long line: a plan for a
/// line of 2^40 samples is built (or refused for its growth) from its sizes alone, where
/// following each sample would need terabytes.
#[test]
fn long_lines_are_checked_from_their_length() {
    use dwt_runtime::{CpuBackend, Direction, ElementType, Plan};
    let line = [1usize << 40];
    let plan = |levels| {
        Plan::new(
            &CpuBackend,
            legall(),
            &line,
            levels,
            Direction::Forward,
            Layout::Mallat,
            ElementType::I32,
        )
    };
    assert_eq!(plan(12).unwrap().len(), 1 << 40);
    let e = plan(40).unwrap_err();
    assert!(
        matches!(&e, DwtError::BitGrowth { message } if message.contains("use at most")),
        "{e}"
    );
}

/// A float coefficient the element type cannot hold (overflowing to infinity, or a nonzero one
/// underflowing to zero) is refused before any data changes, naming the program it is in.
#[test]
fn float_coefficients_the_element_cannot_hold() {
    use dwt_ir::Direction;
    // A factor whose reciprocal overflows even f64 (`1e-310`) is a parse error now; an IR built
    // by hand may still hold one, written here as `1e-300` and set after parsing.
    let wavelet = |body: &str| {
        let mut w = dwt_ir::parse_str(&format!("wavelet W {{ kind = float; {body} }}"))
            .unwrap()
            .remove(0);
        for op in &mut w.program.ops {
            if let dwt_ir::Op::Scale { low, .. } = op {
                if low.to_f64() == 1e-300 {
                    *low = dwt_ir::Coeff::Float(1e-310);
                }
            }
        }
        w
    };
    let cases = [
        // (program, refused for f32 in, refused for f64 in)
        (
            "odd -= 0.5*even[0]; scale 1e300;",
            Some(Direction::Forward),
            None,
        ),
        // `scale K` multiplies the high band by 1/K in the forward program already.
        (
            "odd -= 0.5*even[0]; scale 1e-40;",
            Some(Direction::Forward),
            None,
        ),
        (
            "odd -= 0.5*even[0]; scale (1e-40, 1.0);",
            Some(Direction::Inverse),
            None,
        ),
        ("odd -= 1e-50*even[0];", Some(Direction::Forward), None),
        (
            "odd -= 0.5*even[0]; scale (1e-300, 1.0);",
            Some(Direction::Forward),
            Some(Direction::Inverse),
        ),
        ("odd -= 0.5*even[0]; scale 1e30;", None, None),
    ];
    for (body, f32_refused, f64_refused) in cases {
        let w = wavelet(body);
        let mut single = vec![1.5f32; 8];
        let got = forward(&w, &mut single, &[8], 1, Layout::Mallat).err();
        match f32_refused {
            Some(direction) => {
                let e = got.expect(body);
                assert!(
                    matches!(&e, DwtError::Unrepresentable { direction: d, element: "f32", .. } if *d == direction),
                    "{body}: {e}"
                );
                assert!(e.to_string().contains("use f64 data"), "{e}");
                assert!(single.iter().all(|&x| x == 1.5), "input untouched on error");
            }
            None => assert_eq!(got, None, "{body}"),
        }
        let mut double = vec![1.5f64; 8];
        let got = forward(&w, &mut double, &[8], 1, Layout::Mallat).err();
        match f64_refused {
            Some(direction) => assert!(
                matches!(&got, Some(DwtError::Unrepresentable { direction: d, element: "f64", .. }) if *d == direction),
                "{body}: {got:?}"
            ),
            None => assert_eq!(got, None, "{body}"),
        }
    }
}

/// An input range of no bit depth is refused where it is built, saying what it takes (it
/// panicked inside the analysis, and later only `Plan::build` refused it), so no analysis
/// function can be given one.
#[test]
fn input_ranges_of_no_bit_depth() {
    use dwt_runtime::{CpuBackend, InputRange, Plan};
    for bits in [0, 65, u32::MAX] {
        for range in [
            InputRange::unsigned(bits),
            InputRange::signed(bits),
            InputRange::new(bits, true),
        ] {
            let e = range.unwrap_err();
            assert_eq!(e, DwtError::InputBits { bits });
            assert!(e.to_string().contains("give 1 to 64 bits"), "{e}");
        }
    }
    for input in [InputRange::unsigned(1), InputRange::signed(64)] {
        let input = input.unwrap();
        assert!(Plan::builder(&CpuBackend, legall(), &[8])
            .input_range(input)
            .allow_overflow(true)
            .build()
            .is_ok());
        let g = dwt_runtime::bit_growth(legall(), 2, 2, input)
            .unwrap()
            .unwrap();
        assert!(g.range.contains(input.interval().hi), "{g:?}");
    }
    assert_eq!(InputRange::default(), InputRange::unsigned(8).unwrap());
}

/// A `Wavelet` whose public fields were changed to contradict its kind is refused before any
/// data changes: Cdf97 marked integer turned a ramp into zeros (its fractional taps read as 0),
/// LeGall 5/3 marked float skipped its shifts, and a 33-bit pre-shift panicked in the inverse.
#[test]
fn wavelets_changed_by_hand_against_their_kind() {
    use dwt_ir::{ElementKind, Op};
    let cdf = dwt_catalogue::by_name("Cdf97").unwrap();
    let mut cases: Vec<(dwt_ir::Wavelet, &str)> = Vec::new();
    let mut w = cdf.clone();
    w.kind = ElementKind::Integer;
    cases.push((w, "fractional tap"));
    let mut w = legall().clone();
    w.kind = ElementKind::Float;
    cases.push((
        w.clone(),
        "has a pre-shift of 1 (only integer wavelets have one)",
    ));
    w.shift = 0;
    cases.push((w, "float steps have neither"));
    let mut w = legall().clone();
    w.shift = 33;
    cases.push((w, "pre-shift is 33 bits (at most 15)"));
    let mut w = legall().clone();
    if let Some(Op::Lift(step)) = w.program.ops.first_mut() {
        step.shift = 32;
    }
    cases.push((w, "shifts by 32 bits (at most 30)"));
    for (w, what) in cases {
        let ramp: Vec<i32> = (0..16).map(|i| i * 10).collect();
        let mut d = ramp.clone();
        let mut f: Vec<f32> = ramp.iter().map(|&x| x as f32).collect();
        let e = match w.kind {
            ElementKind::Integer => dwt_runtime::cpu::inverse(&w, &mut d, &[16], 1, Layout::Mallat),
            ElementKind::Float => forward(&w, &mut f, &[16], 1, Layout::Mallat),
        }
        .unwrap_err();
        assert!(
            matches!(&e, DwtError::MalformedWavelet { kind, .. } if *kind == w.kind),
            "{what}: {e:?}"
        );
        assert!(e.to_string().contains(what), "{e}");
        assert!(e.to_string().contains("changed by hand"), "{e}");
        assert_eq!(d, ramp, "input untouched on error");
    }
    // Every declared wavelet passes.
    for w in dwt_catalogue::all() {
        let mut d = vec![0f64; 8];
        let mut i = vec![0i32; 8];
        match w.kind {
            ElementKind::Integer => forward(w, &mut i, &[8], 1, Layout::Mallat).unwrap(),
            ElementKind::Float => forward(w, &mut d, &[8], 1, Layout::Mallat).unwrap(),
        }
    }
}

/// The bit growth for every shape is refused, quickly, at level counts it could not follow in a
/// few minutes: 70 levels panicked (the lines to follow could not be counted) and Fidelity at 10
/// ran for hours. One shape is still bounded at any level count.
#[test]
fn bit_growth_for_every_shape_past_its_cost_is_refused() {
    let input = dwt_runtime::growth::InputRange::unsigned(8).unwrap();
    let fidelity = dwt_catalogue::by_name("Fidelity").unwrap();
    let start = std::time::Instant::now();
    for (w, levels) in [(legall(), 70), (fidelity, 10)] {
        let e = dwt_runtime::bit_growth(w, levels, 2, input).unwrap_err();
        assert!(matches!(e, DwtError::GrowthTooCostly { .. }), "{e}");
        let text = e.to_string();
        assert!(
            text.contains(&format!("at {levels} levels")) && text.contains("bit_growth_for_shape"),
            "{text}"
        );
    }
    assert!(
        start.elapsed().as_secs() < 10,
        "refused only after {:?}",
        start.elapsed()
    );
    let DwtError::GrowthTooCostly { affordable, .. } =
        dwt_runtime::bit_growth(fidelity, 10, 2, input).unwrap_err()
    else {
        unreachable!()
    };
    assert!(
        (4..10).contains(&affordable),
        "Fidelity is analysed at 4 levels in seconds, so at least that is affordable: {affordable}"
    );
    let one = dwt_runtime::growth::bit_growth_for_shape(legall(), 12, &[4096, 4096], input)
        .expect("an integer wavelet");
    assert!(one.bits() > 8);
}
