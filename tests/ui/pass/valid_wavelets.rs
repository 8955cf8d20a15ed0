use lifting::ir::{ElementKind, WaveletSpec};
use lifting::lifting;

lifting! {
    /// LeGall (5,3) with the VC-2 pre-shift.
    pub wavelet IntLeGall {
        boundary = clamp;
        shift = 1;
        odd  -= (even[0] + even[1] + 1) >> 1;
        even += (odd[-1] + odd[0] + 2) >> 2;
    }

    /// The same wavelet in real arithmetic, with rational coefficients and explicit band gains.
    pub wavelet FloatLeGall {
        kind = float;
        boundary = symmetric;
        odd  -= 1/2*(even[0] + even[1]);
        even += 1/4*(odd[-1] + odd[0]);
        scale (1.4142135623730951, 0.7071067811865476);
    }
}

fn main() {
    assert_eq!(IntLeGall::NAME, "IntLeGall");
    assert_eq!(FloatLeGall::NAME, "FloatLeGall");
    // Both read one row of the other phase on each side: a window with at least one row of context.
    for geometry in [IntLeGall::GEOMETRY, FloatLeGall::GEOMETRY] {
        assert!(geometry.min_height > 0, "{geometry:?}");
    }
    assert_eq!(IntLeGall::wavelet().kind, ElementKind::Integer);
    assert_eq!(FloatLeGall::wavelet().kind, ElementKind::Float);
}
