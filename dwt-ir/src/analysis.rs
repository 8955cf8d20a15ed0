//! Facts derived from a lifting program: supports, the equivalent analysis filters (through the
//! polyphase matrix), operation counts, and the sliding-window geometry of the van der Laan vertical
//! pass.

use std::fmt;

use crate::{Boundary, Coeff, Laurent, Op, Phase, Program, Step};

/// A 2x2 matrix of Laurent polynomials: `out[p] = sum_q m[p][q] * in[q]` over the phases
/// (index 0 even, 1 odd).
#[derive(Clone, Debug, PartialEq)]
pub struct PolyphaseMatrix(pub [[Laurent; 2]; 2]);

impl PolyphaseMatrix {
    pub fn identity() -> Self {
        let one = Laurent::constant(Coeff::one());
        PolyphaseMatrix([[one.clone(), Laurent::zero()], [Laurent::zero(), one]])
    }

    /// `self * rhs`: apply `rhs` first, then `self`.
    pub fn mul(&self, rhs: &Self) -> Self {
        let e = |p: usize, q: usize| {
            self.0[p][0]
                .mul(&rhs.0[0][q])
                .add(&self.0[p][1].mul(&rhs.0[1][q]))
        };
        PolyphaseMatrix([[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]])
    }
}

/// The equivalent filter of one output phase: taps at sample offsets relative to the output sample's
/// own position (`2n` for the low band, `2n+1` for the high band).
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    pub taps: Vec<(i64, Coeff)>,
}

impl Filter {
    pub fn support(&self) -> (i64, i64) {
        (
            self.taps.first().map_or(0, |t| t.0),
            self.taps.last().map_or(0, |t| t.0),
        )
    }

    /// Number of samples from the first to the last non-zero tap: the `m` and `n` of a `(m, n)` name.
    pub fn len(&self) -> usize {
        let (lo, hi) = self.support();
        if self.taps.is_empty() {
            0
        } else {
            (hi - lo + 1) as usize
        }
    }

    pub fn is_empty(&self) -> bool {
        self.taps.is_empty()
    }
}

/// Arithmetic per pair of input samples (one even, one odd) for one level of a 1-D transform.
///
/// A step costs one multiplication per distinct tap magnitude other than 1 (symmetric taps share one:
/// `c*(a + b)`), one addition per extra tap, one for the rounding constant, one to update the target,
/// and one shift when it rounds. Scaling costs one multiplication per phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    pub mul: u32,
    pub add: u32,
    pub shift: u32,
}

impl fmt::Display for OpCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per = |n: u32| n as f64 / 2.0;
        write!(
            f,
            "per sample: {} mul, {} add, {} shift",
            per(self.mul),
            per(self.add),
            per(self.shift)
        )
    }
}

/// The sliding window of the vertical pass (van der Laan et al., section IV-F, Fig. 7), in sample
/// rows, for a window of working height `H`:
/// - `top` rows above the working area are already final and only read as context;
/// - `overlap` rows have been through some but not all steps and are carried to the next window;
/// - `bottom` rows below are read as context but not yet lifted.
///
/// `lags[j]` says where step `j` works within window `k`: it lifts the target-phase polyphase
/// indices `[lags[j] + k*H/2, lags[j] + (k+1)*H/2)`, so later steps trail earlier ones just enough
/// that everything they read is in the right state (Fig. 8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlidingWindow {
    pub top: u32,
    pub overlap: u32,
    pub bottom: u32,
    pub lags: Vec<i32>,
    /// The smallest legal working height, see [`WindowGeometry::min_height`].
    pub min_height: u32,
}

/// The numbers of a [`SlidingWindow`] without the per-step lags, cheap enough to be a `const`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WindowGeometry {
    pub top: u32,
    pub overlap: u32,
    pub bottom: u32,
    /// The smallest legal working height: even, at least `top + overlap + bottom` so that the rows
    /// carried to the next window (Algorithm 1, line 11) never overlap their destination, and tall
    /// enough that the first window holds every row its boundary-resolved reads reach.
    pub min_height: u32,
}

impl SlidingWindow {
    pub fn geometry(&self) -> WindowGeometry {
        WindowGeometry {
            top: self.top,
            overlap: self.overlap,
            bottom: self.bottom,
            min_height: self.min_height(),
        }
    }

    pub fn min_height(&self) -> u32 {
        self.min_height
    }
}

impl fmt::Display for WindowGeometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "top {}, overlap {}, bottom {}, height >= {} and even",
            self.top, self.overlap, self.bottom, self.min_height
        )
    }
}

fn phase_index(p: Phase) -> usize {
    p.parity() as usize
}

impl Program {
    /// The product of the steps' (linearised) polyphase matrices: rounding ignored, the exact
    /// real-valued transform.
    pub fn polyphase_matrix(&self) -> PolyphaseMatrix {
        let mut m = PolyphaseMatrix::identity();
        for op in &self.ops {
            let mut s = PolyphaseMatrix::identity();
            match op {
                Op::Lift(step) => {
                    s.0[phase_index(step.target)][phase_index(step.source())] = step.linear_taps()
                }
                Op::Scale { low, high } => {
                    s.0[0][0] = Laurent::constant(*low);
                    s.0[1][1] = Laurent::constant(*high);
                }
            }
            m = s.mul(&m);
        }
        m
    }

    /// The equivalent filters of the two output phases (for an analysis program: low-pass, then
    /// high-pass), each relative to its output sample.
    pub fn equivalent_filters(&self) -> [Filter; 2] {
        let m = self.polyphase_matrix();
        let filter = |p: usize| {
            let mut taps = Vec::new();
            for q in 0..2 {
                for (k, c) in m.0[p][q].without_float_noise().terms() {
                    taps.push((2 * k as i64 + q as i64 - p as i64, c));
                }
            }
            taps.sort_by_key(|t| t.0);
            Filter { taps }
        };
        [filter(0), filter(1)]
    }

    /// Per step, the sample offsets read relative to the target sample.
    pub fn step_supports(&self) -> Vec<(i64, i64)> {
        self.steps()
            .map(|s| {
                let (lo, hi) = s.offsets();
                let d = s.source().parity() - s.target.parity();
                (2 * lo as i64 + d, 2 * hi as i64 + d)
            })
            .collect()
    }

    /// How far, in samples, an output sample depends on input samples on either side: the union of
    /// the two equivalent filters' supports.
    pub fn total_support(&self) -> (i64, i64) {
        let [a, b] = self.equivalent_filters();
        let (a0, a1) = a.support();
        let (b0, b1) = b.support();
        (a0.min(b0), a1.max(b1))
    }

    /// The taps of all lifting steps together: how much arithmetic a sample pair costs, as the
    /// emitters read it when choosing between a kernel's leaner and plainer forms.
    pub fn taps(&self) -> usize {
        self.steps().map(|s| s.taps.len()).sum()
    }

    pub fn op_counts(&self) -> OpCounts {
        let mut c = OpCounts::default();
        for op in &self.ops {
            match op {
                Op::Lift(s) => {
                    let mut magnitudes: Vec<Coeff> = Vec::new();
                    for (_, k) in s.taps.terms() {
                        let m = k.abs();
                        if !m.is_one() && !magnitudes.contains(&m) {
                            magnitudes.push(m);
                        }
                    }
                    c.mul += magnitudes.len() as u32;
                    c.add += s.taps.len() as u32 - 1 + u32::from(s.rounding != 0) + 1;
                    c.shift += u32::from(s.shift > 0);
                }
                Op::Scale { low, high } => {
                    c.mul += u32::from(!low.is_one()) + u32::from(!high.is_one())
                }
            }
        }
        c
    }

    /// Derives the sliding window from the steps' supports and the boundary rule.
    ///
    /// Each step trails the earlier ones by as little as their dependences allow: a step may only
    /// read rows that every earlier writer of that phase has finished in this window, and must read
    /// them before any later writer of that phase touches them. Every such constraint points from an
    /// earlier step to a later one, so one pass in step order finds the largest lags. Those lags give
    /// the steady-state top, overlap and bottom; the last window may then need a taller top, because
    /// the boundary rule sends reads past the end back to rows above it (a clamped read in an
    /// odd-length column, say).
    pub fn sliding_window(&self, boundary: Boundary) -> SlidingWindow {
        derive_window(self, boundary, first_window_min_height, last_window_needs)
    }
}

/// The check of the first window's reads before the start of the column.
type FirstWindowCheck = fn(&[&Step], &SlidingWindow, Boundary) -> u32;
/// The check of the last window's reads past the end of the column.
type LastWindowCheck = fn(&[&Step], &SlidingWindow, Boundary) -> LastWindowNeeds;

/// [`Program::sliding_window`] with its two boundary checks as parameters, so that the tests can
/// run the derivation with the exhaustive checks the bounded ones must agree with.
fn derive_window(
    program: &Program,
    boundary: Boundary,
    first_window_min_height: FirstWindowCheck,
    last_window_needs: LastWindowCheck,
) -> SlidingWindow {
    let steps: Vec<&Step> = program.steps().collect();
    let mut caps = vec![i32::MAX; steps.len()];
    'lags: loop {
        let mut window = steady_window(&steps, &caps);
        if boundary == Boundary::Periodic {
            return window;
        }
        window.min_height = first_window_min_height(&steps, &window, boundary);
        loop {
            let needs = last_window_needs(&steps, &window, boundary);
            let capped: Vec<i32> = caps
                .iter()
                .zip(&needs.caps)
                .map(|(a, b)| *a.min(b))
                .collect();
            if capped != caps {
                caps = capped;
                continue 'lags;
            }
            if needs.deficit == 0 {
                return window;
            }
            window.top += needs.deficit;
            window.min_height = first_window_min_height(&steps, &window, boundary);
        }
    }
}

/// The window of the middle windows: lags as large as the dependences between steps allow (and no
/// larger than `caps`), and the rows those lags make each window touch.
fn steady_window(steps: &[&Step], caps: &[i32]) -> SlidingWindow {
    let mut lags: Vec<i32> = Vec::with_capacity(steps.len());
    for (j, sj) in steps.iter().enumerate() {
        let mut lag = if j == 0 { 0 } else { i32::MAX }.min(caps[j]);
        for (i, si) in steps[..j].iter().enumerate() {
            if si.target == sj.target {
                lag = lag.min(lags[i]);
            } else {
                lag = lag.min(lags[i] - sj.offsets().1);
                lag = lag.min(lags[i] + si.offsets().0);
            }
        }
        lags.push(lag);
    }
    // Extents in sample rows relative to the window's first working row, for a working height H:
    // `lo` is the first row touched, `beyond` the last row touched minus H.
    let mut lo = i64::MAX;
    let mut beyond = i64::MIN;
    let mut frontier: [Option<i64>; 2] = [None, None];
    for (s, &lag) in steps.iter().zip(&lags) {
        let (p, q) = (s.target.parity(), s.source().parity());
        let (mn, mx) = s.offsets();
        let lag = lag as i64;
        lo = lo.min(2 * lag + p).min(2 * (lag + mn as i64) + q);
        beyond = beyond
            .max(2 * lag + p - 2)
            .max(2 * (lag + mx as i64) + q - 2);
        frontier[p as usize] = Some(2 * lag + p);
    }
    let first_unfinished = frontier.iter().flatten().copied().min().unwrap_or(0);
    let overlap = (-first_unfinished).max(0);
    let top = (-lo - overlap).max(0);
    let bottom = (beyond + 1).max(0);
    let carried = (top + overlap + bottom) as u32;
    let min_height = (carried + carried % 2).max(2);
    SlidingWindow {
        top: top as u32,
        overlap: overlap as u32,
        bottom: bottom as u32,
        lags,
        min_height,
    }
}

/// The smallest even working height at which the first window's reads before the start of the
/// column, sent back in by the boundary rule (a reflection can send a backward read forwards), land
/// on rows the window has loaded and every earlier step of that phase has already lifted.
fn first_window_min_height(steps: &[&Step], window: &SlidingWindow, boundary: Boundary) -> u32 {
    let offsets = tap_offsets(steps);
    let carried = window.top + window.overlap + window.bottom;
    let mut height = (carried + carried % 2).max(2) as i64;
    'height: loop {
        let half = height / 2;
        // Long enough that the end of the column plays no part.
        let n = (10 * height + 10 * window.bottom as i64) as usize;
        for (j, (step, &lag)) in steps.iter().zip(&window.lags).enumerate() {
            let (source, q) = (step.source(), step.source().parity());
            let Some(&lowest) = offsets[j].first() else {
                continue;
            };
            // A target from `-lowest` on reads nothing before the start, whatever the height:
            // without this bound every height tried would scan the whole window again.
            for target in 0..(lag as i64 + half).max(0).min(-lowest) {
                for &offset in &offsets[j] {
                    let m = target + offset;
                    if m >= 0 {
                        continue;
                    }
                    let resolved = boundary.resolve(n, source, m) as i64;
                    let loaded = 2 * resolved + q < height + window.bottom as i64;
                    let lifted = steps[..j].iter().zip(&window.lags).all(|(earlier, &l)| {
                        earlier.target != source || resolved < l as i64 + half
                    });
                    if !(loaded && lifted) {
                        height += 2;
                        continue 'height;
                    }
                }
            }
        }
        return height as u32;
    }
}

/// Each step's tap offsets in increasing order, read once: the checks below visit them for
/// every target they try, and walking the taps' map each time dominated unoptimised builds.
fn tap_offsets(steps: &[&Step]) -> Vec<Vec<i64>> {
    steps
        .iter()
        .map(|s| s.taps.terms().map(|(k, _)| k as i64).collect())
        .collect()
}

/// What the last window's boundary-resolved reads demand of the window.
#[cfg_attr(test, derive(Debug, PartialEq))]
struct LastWindowNeeds {
    /// Rows above the last window's first row that those reads reach.
    deficit: u32,
    /// Per step, the largest lag that leaves every row such a read lands on unlifted by that step
    /// until the last window, where the reading step runs first.
    caps: Vec<i32>,
}

/// Checks every length of the last window (Algorithm 1's `leftover` from 0 to H-1 at the smallest
/// height; taller windows only have longer last windows, which reach back less). A read past the
/// end that the boundary rule sends back up (a clamped read in an odd-length column, a reflected
/// one) must find its row in the window and not yet lifted by any later step of that phase.
///
/// Only targets within a step's reach of either end of the column read through the boundary rule,
/// so only those are visited (visiting every target of the last window, for each of its lengths,
/// made this quadratic in the height). Both demands depend on a step's reads only through the lowest row
/// they land on, which is all that is kept per step.
fn last_window_needs(
    steps: &[&Step],
    window: &SlidingWindow,
    boundary: Boundary,
) -> LastWindowNeeds {
    let offsets = tap_offsets(steps);
    let height = window.min_height() as i64;
    let half = height / 2;
    // Far enough from the top that the first window's boundary plays no part.
    let k = 4;
    let first_row = k * height - (window.top + window.overlap) as i64;
    let mut lowest: Vec<Option<i64>> = vec![None; steps.len()];
    for tail in window.bottom as i64..window.bottom as i64 + height {
        let n = (k * height + tail) as usize;
        for (j, (step, &lag)) in steps.iter().zip(&window.lags).enumerate() {
            let (source, q) = (step.source(), step.source().parity());
            let (Some(&lo), Some(&hi)) = (offsets[j].first(), offsets[j].last()) else {
                continue;
            };
            let target_len = (n as i64 - step.target.parity() + 1) / 2;
            let source_len = (n as i64 - q + 1) / 2;
            let start = (lag as i64 + k * half).max(0);
            let near_start = start..target_len.min(-lo);
            let near_end = (source_len - hi).max(near_start.end).max(start)..target_len;
            for target in near_start.chain(near_end) {
                for &offset in &offsets[j] {
                    let m = target + offset;
                    if (0..source_len).contains(&m) {
                        continue;
                    }
                    let resolved = boundary.resolve(n, source, m) as i64;
                    lowest[j] = Some(lowest[j].map_or(resolved, |l| l.min(resolved)));
                }
            }
        }
    }
    let mut deficit = 0i64;
    let mut caps = vec![i32::MAX; steps.len()];
    for (j, (step, resolved)) in steps.iter().zip(&lowest).enumerate() {
        let Some(resolved) = *resolved else {
            continue;
        };
        let source = step.source();
        deficit = deficit.max(first_row - (2 * resolved + source.parity()));
        for (i, later) in steps.iter().enumerate().skip(j + 1) {
            if later.target == source {
                caps[i] = caps[i].min((resolved - k * half) as i32);
            }
        }
    }
    LastWindowNeeds {
        deficit: deficit as u32,
        caps,
    }
}

/// [`first_window_min_height`] as first written, trying every target of every step at every
/// height: the reference the bounded one is checked against.
#[cfg(test)]
fn first_window_min_height_exhaustive(
    steps: &[&Step],
    window: &SlidingWindow,
    boundary: Boundary,
) -> u32 {
    let carried = window.top + window.overlap + window.bottom;
    let mut height = (carried + carried % 2).max(2) as i64;
    'height: loop {
        let half = height / 2;
        // Long enough that the end of the column plays no part.
        let n = (10 * height + 10 * window.bottom as i64) as usize;
        for (j, (step, &lag)) in steps.iter().zip(&window.lags).enumerate() {
            let (source, q) = (step.source(), step.source().parity());
            for target in 0..(lag as i64 + half).max(0) {
                for (offset, _) in step.taps.terms() {
                    let m = target + offset as i64;
                    if m >= 0 {
                        continue;
                    }
                    let resolved = boundary.resolve(n, source, m) as i64;
                    let loaded = 2 * resolved + q < height + window.bottom as i64;
                    let lifted = steps[..j].iter().zip(&window.lags).all(|(earlier, &l)| {
                        earlier.target != source || resolved < l as i64 + half
                    });
                    if !(loaded && lifted) {
                        height += 2;
                        continue 'height;
                    }
                }
            }
        }
        return height as u32;
    }
}

/// [`last_window_needs`] as first written, trying every target of the last window for every
/// length: the reference the bounded one is checked against.
#[cfg(test)]
fn last_window_needs_exhaustive(
    steps: &[&Step],
    window: &SlidingWindow,
    boundary: Boundary,
) -> LastWindowNeeds {
    let height = window.min_height() as i64;
    let half = height / 2;
    // Far enough from the top that the first window's boundary plays no part.
    let k = 4;
    let first_row = k * height - (window.top + window.overlap) as i64;
    let mut deficit = 0i64;
    let mut caps = vec![i32::MAX; steps.len()];
    for tail in window.bottom as i64..window.bottom as i64 + height {
        let n = (k * height + tail) as usize;
        for (j, (step, &lag)) in steps.iter().zip(&window.lags).enumerate() {
            let (source, q) = (step.source(), step.source().parity());
            let target_len = (n as i64 - step.target.parity() + 1) / 2;
            let source_len = (n as i64 - q + 1) / 2;
            for target in (lag as i64 + k * half).max(0)..target_len {
                for (offset, _) in step.taps.terms() {
                    let m = target + offset as i64;
                    if (0..source_len).contains(&m) {
                        continue;
                    }
                    let resolved = boundary.resolve(n, source, m) as i64;
                    deficit = deficit.max(first_row - (2 * resolved + q));
                    for (i, later) in steps.iter().enumerate().skip(j + 1) {
                        if later.target == source {
                            caps[i] = caps[i].min((resolved - k * half) as i32);
                        }
                    }
                }
            }
        }
    }
    LastWindowNeeds {
        deficit: deficit as u32,
        caps,
    }
}

#[cfg(test)]
mod tests {
    use proptest::collection::vec;
    use proptest::prelude::*;
    use proptest::sample::subsequence;

    use super::*;
    use crate::{parse_wavelet, Direction, Laurent, Sign};

    /// Both checks at once, failing on the first call where the bounded one and the exhaustive
    /// one disagree (not only on the final window, which could hide a compensating difference).
    fn first_window_both(steps: &[&Step], window: &SlidingWindow, boundary: Boundary) -> u32 {
        let fast = first_window_min_height(steps, window, boundary);
        let slow = first_window_min_height_exhaustive(steps, window, boundary);
        assert_eq!(fast, slow, "first window, {boundary:?}, {window:?}");
        fast
    }

    fn last_window_both(
        steps: &[&Step],
        window: &SlidingWindow,
        boundary: Boundary,
    ) -> LastWindowNeeds {
        let fast = last_window_needs(steps, window, boundary);
        let slow = last_window_needs_exhaustive(steps, window, boundary);
        assert_eq!(fast, slow, "last window, {boundary:?}, {window:?}");
        fast
    }

    /// A step of 1 to 4 taps at offsets within `-5..=5`: wider than the catalogue's, so that
    /// reads cross both ends of short last windows. The coefficients play no part in the window.
    fn step(target: Phase) -> impl Strategy<Value = Step> {
        subsequence((-5..=5).collect::<Vec<i32>>(), 1..=4).prop_map(move |offsets| Step {
            target,
            sign: Sign::Add,
            taps: Laurent::from_terms(offsets.into_iter().map(|k| (k, Coeff::int(1)))),
            rounding: 0,
            shift: 0,
        })
    }

    /// 1 to 10 steps, alternating or with targets in any order (repeated targets give the caps
    /// and same-phase constraints their cases).
    fn program() -> impl Strategy<Value = Program> {
        (any::<bool>(), vec(any::<bool>(), 1..=10))
            .prop_flat_map(|(alternate, bits)| {
                let mut target = if bits[0] { Phase::Odd } else { Phase::Even };
                let steps: Vec<_> = bits
                    .iter()
                    .map(|&b| {
                        let s = step(target).prop_map(Op::Lift).boxed();
                        if alternate || b {
                            target = target.other();
                        }
                        s
                    })
                    .collect();
                steps
            })
            .prop_map(|ops| Program { ops })
    }

    proptest! {
        // A bounded 64 cases, since each also runs the exhaustive reference checks; off-by-one
        // errors in the bounds on the targets fail well within them.
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn bounded_window_checks_agree_with_exhaustive(
            p in program(),
            boundary in prop_oneof![Just(Boundary::Clamp), Just(Boundary::Symmetric)],
        ) {
            let checked = derive_window(&p, boundary, first_window_both, last_window_both);
            let exhaustive = derive_window(
                &p,
                boundary,
                first_window_min_height_exhaustive,
                last_window_needs_exhaustive,
            );
            prop_assert_eq!(&checked, &exhaustive);
            prop_assert_eq!(p.sliding_window(boundary), exhaustive);
        }

        #[test]
        fn bounded_window_checks_agree_on_any_window(
            (p, window) in program_and_window(),
            boundary in prop_oneof![Just(Boundary::Clamp), Just(Boundary::Symmetric)],
        ) {
            let steps: Vec<&Step> = p.steps().collect();
            prop_assert_eq!(
                first_window_min_height(&steps, &window, boundary),
                first_window_min_height_exhaustive(&steps, &window, boundary)
            );
            prop_assert_eq!(
                last_window_needs(&steps, &window, boundary),
                last_window_needs_exhaustive(&steps, &window, boundary)
            );
        }
    }

    /// Any window, not only derived ones: the bounds on the targets visited do not rest on the
    /// window being consistent, and arbitrary lags and heights make the rare binding reads (a
    /// reflected read deep into the first window, say) common.
    fn program_and_window() -> impl Strategy<Value = (Program, SlidingWindow)> {
        program().prop_flat_map(|p| {
            let steps = p.ops.len();
            (
                Just(p),
                vec(-30i32..=2, steps),
                (0u32..=12, 0u32..=40, 0u32..=12, 1u32..=40),
            )
                .prop_map(|(p, lags, (top, overlap, bottom, half))| {
                    let window = SlidingWindow {
                        top,
                        overlap,
                        bottom,
                        lags,
                        min_height: 2 * half,
                    };
                    (p, window)
                })
        })
    }

    /// Sixteen Fidelity-wide steps: the exhaustive checks took a quarter of a second per window
    /// here unoptimised and grow steeply with the steps, so a return to them shows as a slow test.
    /// The geometries are the ones the exhaustive checks derive.
    #[test]
    fn sixteen_wide_steps_are_analysed() {
        let update = "even += (-8*odd[-4] + 21*odd[-3] - 46*odd[-2] + 161*odd[-1] + 161*odd[0] \
                      - 46*odd[1] + 21*odd[2] - 8*odd[3] + 128) >> 8;";
        let predict = "odd -= (-2*even[-3] + 10*even[-2] - 25*even[-1] + 81*even[0] + 81*even[1] \
                       - 25*even[2] + 10*even[3] - 2*even[4] + 128) >> 8;";
        for boundary in ["clamp", "symmetric"] {
            let steps = [update, predict].repeat(8).join("\n");
            let text = format!("wavelet Wide {{ boundary = {boundary};\n{steps}\n}}");
            let w = parse_wavelet(&text).expect("the test's wavelet parses");
            let forward = w.sliding_window(Direction::Forward);
            assert_eq!(
                (forward.geometry(), forward.lags),
                (
                    WindowGeometry {
                        top: 7,
                        overlap: 105,
                        bottom: 6,
                        min_height: 118
                    },
                    vec![
                        0, -4, -7, -11, -14, -18, -21, -25, -28, -32, -35, -39, -42, -46, -49, -53
                    ]
                ),
                "{boundary}"
            );
            let inverse = w.sliding_window(Direction::Inverse);
            assert_eq!(
                (inverse.geometry(), inverse.lags),
                (
                    WindowGeometry {
                        top: 7,
                        overlap: 104,
                        bottom: 7,
                        min_height: 118
                    },
                    vec![
                        0, -3, -7, -10, -14, -17, -21, -24, -28, -31, -35, -38, -42, -45, -49, -52
                    ]
                ),
                "{boundary}"
            );
        }
    }
}
