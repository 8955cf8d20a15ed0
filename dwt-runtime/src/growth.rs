//! Worst-case bit growth of an integer transform, from the IR alone.
//!
//! Interval arithmetic over the program: every sample of one phase of a band shares one interval
//! `[lo, hi]`, and a step `target (+|-)= (sum_k c_k * source[n+k] + r) >> s` maps the intervals
//! exactly as it maps the worst samples: the sum's interval is `r + sum_k c_k * [lo, hi]` (each term
//! at whichever end makes it extreme), the floor shift is monotone, and the target's interval moves
//! by the prediction's. Boundary rules only re-read samples of the same phase, so they change
//! nothing. Per level, the band is pre-shifted (`x << shift`, VC-2), then every axis is lifted,
//! last axis first as the reference does, each pass splitting every band into a low and a high one.
//! The bound covers every value the transform stores (the input, the pre-shifted band, every
//! band after every axis pass) and, separately, every lifting sum before its shift, which the
//! 32-bit working arithmetic must hold. The inverse retraces the same values, so the bound covers
//! it too.
//!
//! ```
//! use dwt_runtime::growth::{bit_growth, InputRange};
//! use dwt_runtime::ElementType;
//!
//! let g = bit_growth(dwt_catalogue::by_name("LeGall53").unwrap(), 4, 2, InputRange::unsigned(8).unwrap()).unwrap().unwrap();
//! assert!(g.check(ElementType::I16, false).is_ok());
//! ```

use std::fmt;

use dwt_ir::{Boundary, ElementKind, ElementType, Op, Phase, Program, Sign, Wavelet};

use crate::DwtError;

/// The way past a bit-growth refusal, for a library user and for the command line alike.
const ALLOW_OVERFLOW: &str =
    "allow overflow (`PlanBuilder::allow_overflow`, `dwt --allow-overflow`)";

/// A closed interval of integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Interval {
    pub lo: i128,
    pub hi: i128,
}

impl Interval {
    pub fn new(lo: i128, hi: i128) -> Self {
        debug_assert!(lo <= hi);
        Interval { lo, hi }
    }

    pub fn point(v: i128) -> Self {
        Interval { lo: v, hi: v }
    }

    pub fn hull(self, o: Self) -> Self {
        Interval::new(self.lo.min(o.lo), self.hi.max(o.hi))
    }

    /// The largest magnitude in the interval.
    pub fn magnitude(self) -> i128 {
        self.lo.abs().max(self.hi.abs())
    }

    pub fn contains(self, v: i128) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// Bits of a two's-complement integer that holds every value of the interval.
    pub fn bits(self) -> u32 {
        (1..=127)
            .find(|&n| -(1i128 << (n - 1)) <= self.lo && self.hi < (1i128 << (n - 1)))
            .unwrap_or(128)
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.lo, self.hi)
    }
}

/// The values the input samples take: `bits` wide, unsigned (`[0, 2^bits - 1]`, as image pixels)
/// or signed (`[-2^(bits-1), 2^(bits-1) - 1]`, as VC-2 after its offset). Built by
/// [`InputRange::unsigned`] or [`InputRange::signed`], which refuse a bit depth outside 1 to 64,
/// so every range the analysis is given is one it can follow. The default is 8-bit pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InputRange {
    bits: u32,
    signed: bool,
}

impl InputRange {
    /// The widest input the analysis takes: its intervals are `i128`, and lifting sums of wider
    /// samples could leave them.
    pub const MAX_BITS: u32 = 64;

    /// `[0, 2^bits - 1]`; [`DwtError::InputBits`] unless `bits` is 1 to [`InputRange::MAX_BITS`].
    pub fn unsigned(bits: u32) -> Result<Self, DwtError> {
        Self::new(bits, false)
    }

    /// `[-2^(bits-1), 2^(bits-1) - 1]`; [`DwtError::InputBits`] unless `bits` is 1 to
    /// [`InputRange::MAX_BITS`].
    pub fn signed(bits: u32) -> Result<Self, DwtError> {
        Self::new(bits, true)
    }

    /// [`InputRange::signed`] or [`InputRange::unsigned`] as `signed` says.
    pub fn new(bits: u32, signed: bool) -> Result<Self, DwtError> {
        match bits {
            1..=Self::MAX_BITS => Ok(InputRange { bits, signed }),
            bits => Err(DwtError::InputBits { bits }),
        }
    }

    pub fn bits(self) -> u32 {
        self.bits
    }

    pub fn is_signed(self) -> bool {
        self.signed
    }

    /// The values.
    pub fn interval(self) -> Interval {
        if self.signed {
            Interval::new(-(1i128 << (self.bits - 1)), (1i128 << (self.bits - 1)) - 1)
        } else {
            Interval::new(0, (1i128 << self.bits) - 1)
        }
    }
}

impl Default for InputRange {
    /// 8-bit pixels.
    fn default() -> Self {
        InputRange {
            bits: 8,
            signed: false,
        }
    }
}

impl fmt::Display for InputRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-bit{} input",
            self.bits,
            if self.signed { " signed" } else { "" }
        )
    }
}

/// The worst case of one transform configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Growth {
    pub wavelet: String,
    pub levels: u32,
    pub dims: usize,
    pub input: InputRange,
    /// Every value the transform stores, input included.
    pub range: Interval,
    /// Every value lifting computes on the way (lifting sums before their shift, values between
    /// steps), which the 32-bit working arithmetic of every backend must hold.
    pub working: Interval,
    /// Per level (0-based), the values stored while transforming that level (input excluded).
    pub per_level: Vec<Interval>,
}

impl Growth {
    /// Bits a stored coefficient needs.
    pub fn bits(&self) -> u32 {
        self.range.bits()
    }

    /// Bits the working arithmetic needs.
    pub fn working_bits(&self) -> u32 {
        self.working.bits()
    }

    /// Whether every stored value fits `element` and every working value fits 32 bits.
    pub fn fits(&self, element: ElementType) -> bool {
        match element.kind() {
            ElementKind::Float => true,
            ElementKind::Integer => {
                self.bits() <= 8 * element.size() as u32 && self.working_bits() <= 32
            }
        }
    }

    /// `LeGall53, 4 levels, 2-D, 8-bit input`.
    pub fn what(&self) -> String {
        format!(
            "{}, {} level{}, {}-D, {}",
            self.wavelet,
            self.levels,
            if self.levels == 1 { "" } else { "s" },
            self.dims,
            self.input
        )
    }

    /// The verdict for `element`: a one-line `Ok` summary (`... needs up to 14 bits; i16 holds 16:
    /// ok`), or a [`DwtError::BitGrowth`] with the numbers and what to do; with `allow_overflow`,
    /// an `Ok` summary that says the overflow was allowed.
    pub fn check(&self, element: ElementType, allow_overflow: bool) -> Result<String, DwtError> {
        let holds = 8 * element.size() as u32;
        let (needed, work) = (self.bits(), self.working_bits());
        if element.kind() == ElementKind::Float {
            return Ok(format!(
                "{} needs up to {needed} bits; {} does not wrap: ok",
                self.what(),
                element.name()
            ));
        }
        if needed <= holds && work <= 32 {
            return Ok(format!(
                "{} needs up to {needed} bits; {} holds {holds}: ok",
                self.what(),
                element.name()
            ));
        }
        let problem = if needed > holds {
            format!(
                "{} needs {needed} bits but {} holds {holds}",
                self.what(),
                element.name()
            )
        } else {
            format!(
                "{} needs {work}-bit intermediate sums but lifting computes in 32 bits",
                self.what()
            )
        };
        if allow_overflow {
            return Ok(format!("{problem}: overflow allowed, results may wrap"));
        }
        let mut advice = Vec::new();
        if element == ElementType::I16 && needed <= 32 && work <= 32 {
            advice.push("i32".to_string());
        }
        if let Some(l) = self.max_levels_fitting(element) {
            advice.push(format!(
                "at most {l} level{}",
                if l == 1 { "" } else { "s" }
            ));
        } else if self.levels > 1 {
            advice.push("fewer levels".to_string());
        } else {
            // One level already: only narrower input would fit.
            advice.push("input of fewer bits".to_string());
        }
        advice.push(ALLOW_OVERFLOW.to_string());
        let last = advice.pop().unwrap_or_default();
        let advice = match advice.len() {
            0 => last,
            1 => format!("use {} or {last}", advice[0]),
            _ => format!("use {}, or {last}", advice.join(", ")),
        };
        Err(DwtError::BitGrowth {
            message: format!("{problem}: {advice}"),
        })
    }

    /// The most levels, fewer than this configuration's, whose stored values fit `element`.
    fn max_levels_fitting(&self, element: ElementType) -> Option<u32> {
        let mut range = self.input.interval();
        let mut best = None;
        for (l, r) in self.per_level.iter().enumerate() {
            range = range.hull(*r);
            if range.bits() > 8 * element.size() as u32 {
                break;
            }
            best = Some(l as u32 + 1);
        }
        best.filter(|&l| l < self.levels)
    }
}

/// A linear form over the input samples of a line: `coeffs[i]` weighs sample `start + i`.
#[derive(Clone, Debug, Default)]
struct Form {
    start: usize,
    coeffs: Vec<f64>,
}

impl Form {
    fn unit(i: usize) -> Self {
        Form {
            start: i,
            coeffs: vec![1.0],
        }
    }

    fn add_scaled(&mut self, other: &Form, c: f64) {
        if other.coeffs.is_empty() {
            return;
        }
        if self.coeffs.is_empty() {
            self.start = other.start;
        }
        let lo = self.start.min(other.start);
        let hi = (self.start + self.coeffs.len()).max(other.start + other.coeffs.len());
        if lo < self.start || hi > self.start + self.coeffs.len() {
            let mut v = vec![0.0; hi - lo];
            v[self.start - lo..self.start - lo + self.coeffs.len()].copy_from_slice(&self.coeffs);
            self.coeffs = v;
            self.start = lo;
        }
        let off = other.start - self.start;
        for (i, x) in other.coeffs.iter().enumerate() {
            self.coeffs[off + i] += c * x;
        }
    }

    /// The sums of the positive and of the negated negative weights.
    fn signs(&self) -> Signs {
        let mut s = Signs::default();
        for &x in &self.coeffs {
            if x > 0.0 {
                s.pos += x;
            } else {
                s.neg -= x;
            }
        }
        s
    }
}

/// The error of a value after a pass whose input errs by at most `E`: within
/// `[lo - g*E, hi + g*E]`, `g` the l1 norm of its form over the pass's input, `[lo, hi]` the
/// pass's own rounding.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Err {
    g: f64,
    lo: f64,
    hi: f64,
}

impl Err {
    fn max(self, o: Err) -> Err {
        Err {
            g: self.g.max(o.g),
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    /// The error interval for an input error within `[-e, e]`.
    fn apply(self, e: f64) -> (f64, f64) {
        (self.lo - self.g * e, self.hi + self.g * e)
    }
}

/// The positive and (negated) negative weight sums of a form: its range over inputs in `[lo, hi]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Signs {
    pos: f64,
    neg: f64,
}

impl Signs {
    const ONE: Signs = Signs { pos: 1.0, neg: 0.0 };

    fn l1(self) -> f64 {
        self.pos + self.neg
    }

    fn max(self, o: Signs) -> Signs {
        Signs {
            pos: self.pos.max(o.pos),
            neg: self.neg.max(o.neg),
        }
    }

    /// The sums of the tensor product of two forms.
    fn times(self, o: Signs) -> Signs {
        Signs {
            pos: self.pos * o.pos + self.neg * o.neg,
            neg: self.pos * o.neg + self.neg * o.pos,
        }
    }

    /// Range of the form over inputs in `[lo, hi]`.
    fn range(self, lo: f64, hi: f64) -> (f64, f64) {
        (
            -(self.pos * (-lo).max(0.0) + self.neg * hi.max(0.0)),
            self.pos * hi.max(0.0) + self.neg * (-lo).max(0.0),
        )
    }
}

/// What one stage of a pass holds along the pass's axis: the worst linear form (relative to the
/// original input line) and the worst rounding error (relative to the pass's input).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Stage {
    form: Signs,
    err: Err,
}

impl Stage {
    fn max(self, o: Stage) -> Stage {
        Stage {
            form: self.form.max(o.form),
            err: self.err.max(o.err),
        }
    }
}

/// Per level, along one axis: the stages of the pass (every lifting sum and every value between
/// steps, not stored) and its two outputs (stored), each maximised over the positions and line
/// lengths analysed. `None` where no line of the analysed lengths has such samples.
#[derive(Clone, Debug, Default)]
struct AxisLevel {
    /// The pass's input: the low band of the previous level.
    input: Option<Signs>,
    working: Option<Stage>,
    low: Option<Stage>,
    high: Option<Stage>,
}

fn max_opt<T: Copy>(a: Option<T>, b: T, f: impl Fn(T, T) -> T) -> Option<T> {
    Some(match a {
        Some(a) => f(a, b),
        None => b,
    })
}

/// Runs `levels` levels of the linearised program on one line of `n` samples symbolically and
/// folds what every stage holds into `out`.
fn analyse_line(
    program: &Program,
    boundary: Boundary,
    n: usize,
    levels: u32,
    out: &mut [AxisLevel],
) {
    let mut line: Vec<(Form, ())> = (0..n).map(|i| (Form::unit(i), ())).collect();
    for slot in out.iter_mut().take(levels as usize) {
        let len = line.len();
        for (f, _) in &line {
            slot.input = max_opt(slot.input, f.signs(), Signs::max);
        }
        // Per sample: the form over the original line, the form over this pass's input (whose l1
        // norm is the gain of the input's error), and the rounding error made in this pass.
        type Sample = (Form, Form, (f64, f64));
        let split = |parity: usize| -> Vec<Sample> {
            line.iter()
                .enumerate()
                .skip(parity)
                .step_by(2)
                .map(|(i, (f, _))| (f.clone(), Form::unit(i), (0.0, 0.0)))
                .collect()
        };
        let (mut even, mut odd) = (split(0), split(1));
        let stage = |f: &Form, local: &Form, e: (f64, f64)| Stage {
            form: f.signs(),
            err: Err {
                g: local.signs().l1(),
                lo: e.0,
                hi: e.1,
            },
        };
        if len >= 2 {
            for op in &program.ops {
                let Op::Lift(step) = op else { continue };
                let (target, source) = match step.target {
                    Phase::Even => (&mut even, &odd),
                    Phase::Odd => (&mut odd, &even),
                };
                let scale = 1.0 / (1u64 << step.shift) as f64;
                let sign = match step.sign {
                    Sign::Add => 1.0,
                    Sign::Sub => -1.0,
                };
                let r = step.rounding as f64;
                for (i, (tf, tl, te)) in target.iter_mut().enumerate() {
                    let (mut acc, mut acc_local, mut acc_err) =
                        (Form::default(), Form::default(), (r, r));
                    for (k, c) in step.taps.terms() {
                        let c = c.to_f64();
                        let j = boundary.resolve(len, step.source(), i as i64 + k as i64);
                        let (sf, sl, se) = &source[j];
                        acc.add_scaled(sf, c);
                        acc_local.add_scaled(sl, c);
                        let (a, b) = (c * se.0, c * se.1);
                        acc_err = (acc_err.0 + a.min(b), acc_err.1 + a.max(b));
                    }
                    slot.working =
                        max_opt(slot.working, stage(&acc, &acc_local, acc_err), Stage::max);
                    // floor(acc / 2^s) = acc / 2^s - d, d in [0, 1 - 2^-s].
                    let pred = (acc_err.0 * scale - (1.0 - scale), acc_err.1 * scale);
                    tf.add_scaled(&acc, sign * scale);
                    tl.add_scaled(&acc_local, sign * scale);
                    *te = if sign > 0.0 {
                        (te.0 + pred.0, te.1 + pred.1)
                    } else {
                        (te.0 - pred.1, te.1 - pred.0)
                    };
                    slot.working = max_opt(slot.working, stage(tf, tl, *te), Stage::max);
                }
            }
        }
        for (f, l, e) in &even {
            slot.low = max_opt(slot.low, stage(f, l, *e), Stage::max);
        }
        for (f, l, e) in &odd {
            slot.high = max_opt(slot.high, stage(f, l, *e), Stage::max);
        }
        let even: Vec<(Form, ())> = even.into_iter().map(|(f, _, _)| (f, ())).collect();
        line = even;
    }
}

/// The per-level stages of one axis, maximised over the line lengths `lengths`.
fn analyse_axis(
    wavelet: &Wavelet,
    levels: u32,
    lengths: impl IntoIterator<Item = usize>,
) -> Vec<AxisLevel> {
    let mut out = vec![AxisLevel::default(); levels as usize];
    for n in lengths {
        analyse_line(&wavelet.program, wavelet.boundary, n, levels, &mut out);
    }
    out
}

/// Line lengths whose boundary cases cover every length: every short line (both ends interact),
/// and long lines of every residue modulo `2^levels` (the parities of every level's length).
fn representative_lengths(wavelet: &Wavelet, levels: u32) -> Vec<usize> {
    let (short, long, scale) =
        length_classes(wavelet, levels).expect("analysed for few enough levels to count lines");
    (1..=short).chain(long..long + scale).collect()
}

/// `(short, long, 2^levels)`: up to `short` samples a line's two ends interact at some level;
/// from `long` on (a multiple of `2^levels`), lines whose lengths agree modulo `2^levels` have
/// the same worst cases. `None` where these overflow (no line that long can exist).
fn length_classes(wavelet: &Wavelet, levels: u32) -> Option<(usize, usize, usize)> {
    let reach = reach(wavelet);
    let scale = 1usize.checked_shl(levels)?;
    let short = reach.checked_mul(2)?.checked_add(1)?.checked_mul(scale)?;
    let long = short.checked_add(scale)?.checked_mul(2)?;
    Some((short, long, scale))
}

/// How far the two ends of a line influence each other in one level: the program's support and
/// a margin.
fn reach(wavelet: &Wavelet) -> usize {
    let (lo, hi) = wavelet.program.total_support();
    (hi - lo + 2).max(2) as usize
}

/// A line length with the same worst cases as `n` at `levels` levels, at most about twice
/// `long` ([`length_classes`]): the symbolic analysis costs time and memory in proportion to
/// the line, and a signal of millions of samples would otherwise take minutes and gigabytes.
fn equivalent_length(wavelet: &Wavelet, levels: u32, n: usize) -> usize {
    match length_classes(wavelet, levels) {
        Some((_, long, scale)) if n > long => long + n % scale,
        _ => n,
    }
}

/// The worst case of `wavelet` at `levels` levels on `dims`-dimensional data of `input`, for every
/// shape; `None` for a float wavelet (no integer overflow to bound). For many configurations of
/// one wavelet, [`GrowthAnalysis`] does the expensive part once. Refused
/// ([`DwtError::GrowthTooCostly`]) where that part would take more than a few minutes
/// ([`GrowthAnalysis::cost`]); [`bit_growth_for_shape`] bounds one shape at any level count.
pub fn bit_growth(
    wavelet: &Wavelet,
    levels: u32,
    dims: usize,
    input: InputRange,
) -> Result<Option<Growth>, DwtError> {
    Ok(GrowthAnalysis::new(wavelet, levels)?.map(|a| a.growth(levels, dims, input)))
}

/// The per-axis analysis of an integer wavelet for every line length, up to some number of levels:
/// [`GrowthAnalysis::growth`] then bounds any level count up to it, any dimension count and any
/// input range cheaply.
#[derive(Clone, Debug)]
pub struct GrowthAnalysis {
    wavelet: String,
    shift: u32,
    axis: Vec<AxisLevel>,
}

impl GrowthAnalysis {
    /// The work [`GrowthAnalysis::new`] does for `levels` levels, in units of roughly a nanosecond:
    /// it follows every line up to the length where the two ends stop interacting, so the work
    /// grows with the cube of the program's reach and the square of `2^levels` (a program reading
    /// 64 samples away takes minutes at 4 levels). `usize::MAX` where that overflows.
    pub fn cost(wavelet: &Wavelet, levels: u32) -> usize {
        let Some((short, long, scale)) = length_classes(wavelet, levels) else {
            return usize::MAX;
        };
        let taps: usize = wavelet
            .program
            .ops
            .iter()
            .map(|op| match op {
                Op::Lift(step) => step.taps.terms().count(),
                _ => 0,
            })
            .sum();
        let short_lines = short.checked_mul(short + 1).map(|s| s / 2);
        let long_lines = long
            .checked_add(scale / 2)
            .and_then(|l| l.checked_mul(scale));
        short_lines
            .zip(long_lines)
            .and_then(|(a, b)| a.checked_add(b))
            .and_then(|n| n.checked_mul(levels as usize))
            .and_then(|n| n.checked_mul(reach(wavelet)))
            .and_then(|n| n.checked_mul(taps.max(1)))
            .unwrap_or(usize::MAX)
    }

    /// The most levels, from 1 to `max_levels`, whose analysis takes a few seconds at most
    /// ([`GrowthAnalysis::cost`]); 0 where not even one level does.
    pub fn affordable_levels(wavelet: &Wavelet, max_levels: u32) -> u32 {
        (1..=max_levels)
            .rev()
            .find(|&l| Self::cost(wavelet, l) <= AFFORDABLE_COST)
            .unwrap_or(0)
    }

    /// `None` for a float wavelet. The work grows with `4^max_levels` ([`GrowthAnalysis::cost`],
    /// [`GrowthAnalysis::affordable_levels`]); past [`MAX_ANALYSIS_COST`], a few minutes, it is
    /// refused ([`DwtError::GrowthTooCostly`]) rather than run for hours, or where the lines to
    /// follow cannot even be counted.
    pub fn new(wavelet: &Wavelet, max_levels: u32) -> Result<Option<Self>, DwtError> {
        if wavelet.kind != ElementKind::Integer {
            return Ok(None);
        }
        if Self::cost(wavelet, max_levels) > MAX_ANALYSIS_COST {
            return Err(DwtError::GrowthTooCostly {
                wavelet: wavelet.name.clone(),
                levels: max_levels,
                affordable: (1..max_levels)
                    .rev()
                    .find(|&l| Self::cost(wavelet, l) <= MAX_ANALYSIS_COST)
                    .unwrap_or(0),
            });
        }
        Ok(Some(GrowthAnalysis {
            wavelet: wavelet.name.clone(),
            shift: wavelet.shift,
            axis: analyse_axis(
                wavelet,
                max_levels,
                representative_lengths(wavelet, max_levels),
            ),
        }))
    }

    /// The worst case at `levels` (at most the analysis's `max_levels`) on `dims`-dimensional data.
    pub fn growth(&self, levels: u32, dims: usize, input: InputRange) -> Growth {
        assert!(
            levels as usize <= self.axis.len(),
            "analysed up to {} levels",
            self.axis.len()
        );
        let axes = vec![self.axis.clone(); dims];
        combine(
            &self.wavelet,
            self.shift,
            levels,
            &axes,
            input,
            input.interval(),
        )
        .0
    }
}

/// [`GrowthAnalysis::cost`] of a few seconds: the catalogue's longest program (Fidelity) at 4
/// levels costs about 1e9 and takes 1.5 s on one core.
const AFFORDABLE_COST: usize = 2_000_000_000;

/// The most [`GrowthAnalysis::cost`] an analysis for every shape is let run: a few minutes on one
/// core. One level more multiplies the cost by about four, so past this a call would not end in
/// any useful time (Fidelity at 10 levels: hours).
pub const MAX_ANALYSIS_COST: usize = 100 * AFFORDABLE_COST;

/// The most samples of one line the symbolic analysis follows (after [`equivalent_length`]):
/// about a second for the longest programs. Longer lines at many levels are bounded in parts.
const ANALYSED_LINE: usize = 1 << 16;

/// The worst case of `wavelet` at `levels` levels on data of exactly `shape` (tighter than
/// [`bit_growth`], which covers every shape); `None` for a float wavelet.
///
/// Exact for lines up to 2^16 samples (`ANALYSED_LINE`), or longer at levels few enough that
/// `equivalent_length` shortens them to that. Beyond, the first levels are analysed exactly
/// and the rest as a transform of their low band whose samples may each take any value of that
/// band's range: an upper bound (it forgets how the low band's samples are related), where the
/// exact analysis would take minutes and gigabytes.
pub fn bit_growth_for_shape(
    wavelet: &Wavelet,
    levels: u32,
    shape: &[usize],
    input: InputRange,
) -> Option<Growth> {
    if wavelet.kind != ElementKind::Integer {
        return None;
    }
    Some(
        growth_in_parts(
            wavelet,
            levels,
            shape,
            input,
            input.interval(),
            ANALYSED_LINE,
        )
        .0,
    )
}

/// [`bit_growth_for_shape`] on input values in `iv`, following lines of up to `budget` samples,
/// with the range of the last level's low band.
fn growth_in_parts(
    wavelet: &Wavelet,
    levels: u32,
    shape: &[usize],
    input: InputRange,
    iv: Interval,
    budget: usize,
) -> (Growth, Interval) {
    let analysed = |levels: u32| {
        shape
            .iter()
            .all(|&n| equivalent_length(wavelet, levels, n) <= budget)
    };
    if analysed(levels) {
        return exact_growth(wavelet, levels, shape, input, iv);
    }
    // At ANALYSED_LINE, level 1 always qualifies: its equivalent lengths are a few times the
    // program's support.
    let Some(first) = (1..levels).rev().find(|&l| analysed(l)) else {
        return exact_growth(wavelet, levels, shape, input, iv);
    };
    let (head, low) = exact_growth(wavelet, first, shape, input, iv);
    let band = crate::cpu::band_shape(shape, first);
    let (tail, low) = growth_in_parts(wavelet, levels - first, &band, input, low, budget);
    (joined(head, tail), low)
}

/// The analysis of `levels` levels on `shape`, every line followed at its [`equivalent_length`].
fn exact_growth(
    wavelet: &Wavelet,
    levels: u32,
    shape: &[usize],
    input: InputRange,
    iv: Interval,
) -> (Growth, Interval) {
    let axes: Vec<Vec<AxisLevel>> = shape
        .iter()
        .map(|&n| analyse_axis(wavelet, levels, [equivalent_length(wavelet, levels, n)]))
        .collect();
    combine(&wavelet.name, wavelet.shift, levels, &axes, input, iv)
}

/// The first levels' bound followed by the bound of the rest, which transformed the first's last
/// low band (the tail's input range: any value of that band's range).
fn joined(head: Growth, tail: Growth) -> Growth {
    Growth {
        levels: head.levels + tail.levels,
        range: head.range.hull(tail.range),
        working: head.working.hull(tail.working),
        per_level: head.per_level.into_iter().chain(tail.per_level).collect(),
        ..head
    }
}

/// Combines the per-axis analyses: the linear part of every band is the tensor product of its
/// axes' forms; rounding errors propagate through each pass as the pass's stages say.
#[allow(clippy::needless_range_loop)] // `level` indexes every axis's analysis
fn combine(
    name: &str,
    shift: u32,
    levels: u32,
    axes: &[Vec<AxisLevel>],
    input: InputRange,
    iv: Interval,
) -> (Growth, Interval) {
    let dims = axes.len();
    let (lo, hi) = (iv.lo as f64, iv.hi as f64);
    let mut range = iv;
    let mut working = iv;
    let mut per_level = Vec::new();
    // The error of the low band handed to the next level (magnitude bound), and its values.
    let mut low_err = 0.0f64;
    let mut low = iv;
    let bound = |form: Signs, gain: f64, err: (f64, f64)| -> Interval {
        let (a, b) = form.range(lo, hi);
        let pad = |x: f64| x.abs() * 1e-9 + 1e-9;
        let l = a * gain + err.0;
        let h = b * gain + err.1;
        // Values are integers: round the real bound inwards, after padding it for float error.
        Interval::new((l - pad(l)).ceil() as i128, (h + pad(h)).floor() as i128)
    };
    for level in 0..levels as usize {
        // Powers of two as floats: `shift * levels` may pass 64 bits (and be refused for it).
        let gain = 2f64.powi((shift * (level as u32 + 1)) as i32);
        let e0 = low_err * 2f64.powi(shift as i32);
        // Bands: per axis, `None` = not yet lifted at this level (its form is the pass input),
        // `Some(false)` low, `Some(true)` high; with the band's error magnitude.
        let input_form = |a: usize| axes[a][level].input;
        let mut level_range: Option<Interval> = None;
        let stored = |iv: Interval, r: &mut Option<Interval>| {
            *r = Some(r.map_or(iv, |r| r.hull(iv)));
        };
        let mut bands: Vec<(Vec<Option<bool>>, f64)> = vec![(vec![None; dims], e0)];
        // The pre-shifted band.
        if let Some(f) =
            (0..dims).try_fold(Signs::ONE, |acc, a| input_form(a).map(|s| acc.times(s)))
        {
            stored(bound(f, gain, (-e0, e0)), &mut level_range);
        }
        for a in (0..dims).rev() {
            let mut next = Vec::new();
            for (types, e) in &bands {
                // The other axes' forms.
                let mut others = Some(Signs::ONE);
                for (b, t) in types.iter().enumerate() {
                    if b == a {
                        continue;
                    }
                    let f = match t {
                        None => input_form(b),
                        Some(false) => axes[b][level].low.map(|s| s.form),
                        Some(true) => axes[b][level].high.map(|s| s.form),
                    };
                    others = others.and_then(|o| f.map(|f| o.times(f)));
                }
                let Some(others) = others else { continue };
                let al = &axes[a][level];
                if let Some(w) = al.working {
                    working = working.hull(bound(others.times(w.form), gain, w.err.apply(*e)));
                }
                for (high, st) in [(false, al.low), (true, al.high)] {
                    let Some(st) = st else { continue };
                    let err = st.err.apply(*e);
                    let iv = bound(others.times(st.form), gain, err);
                    stored(iv, &mut level_range);
                    let mut t = types.clone();
                    t[a] = Some(high);
                    if t.iter().all(|t| *t != Some(true)) {
                        low = iv;
                    }
                    next.push((t, err.0.abs().max(err.1.abs())));
                }
            }
            bands = next;
        }
        low_err = bands
            .iter()
            .find(|(t, _)| t.iter().all(|t| *t == Some(false) || t.is_none()))
            .map_or(0.0, |b| b.1);
        let level_range = level_range.unwrap_or(iv);
        range = range.hull(level_range);
        working = working.hull(level_range);
        per_level.push(level_range);
    }
    let growth = Growth {
        wavelet: name.to_string(),
        levels,
        dims,
        input,
        range,
        working,
        per_level,
    };
    (growth, low)
}

/// The check a plan or the command line makes before an integer transform of `shape`: `Ok` with a
/// one-line summary when `element` holds the worst case (or the wavelet is float, or
/// `allow_overflow`), else a [`DwtError::BitGrowth`] with the numbers and what to do. A request
/// no transform could run (an empty or 4-D shape, too many levels for it, an element type of the
/// other kind) is refused as a plan refuses it, not given a verdict.
pub fn check_bit_growth(
    wavelet: &Wavelet,
    levels: u32,
    shape: &[usize],
    input: InputRange,
    element: ElementType,
    allow_overflow: bool,
) -> Result<String, DwtError> {
    crate::cpu::validate(
        wavelet,
        element,
        crate::cpu::sample_count(shape)?,
        shape,
        levels,
    )?;
    match bit_growth_for_shape(wavelet, levels, shape, input) {
        Some(g) => g.check(element, allow_overflow),
        None => Ok(format!(
            "{} is a float wavelet: no integer bit growth to check",
            wavelet.name
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_bits() {
        assert_eq!(Interval::new(0, 255).bits(), 9);
        assert_eq!(Interval::new(-128, 127).bits(), 8);
        assert_eq!(Interval::new(-129, 0).bits(), 9);
        assert_eq!(Interval::new(0, 0).bits(), 1);
        assert_eq!(Interval::new(-32768, 32767).bits(), 16);
    }

    #[test]
    fn haar_no_shift_by_hand() {
        // odd = b - a in [-255, 255]; even = a + ((b - a + 1) >> 1) in [0, 255].
        let w = dwt_catalogue::by_name("HaarNoShift").unwrap();
        let g = bit_growth(w, 1, 1, InputRange::unsigned(8).unwrap())
            .unwrap()
            .unwrap();
        // Over every length: an odd line's clamped last even sample is a + ((b - c + 1) >> 1),
        // up to 383.
        assert_eq!(g.range, Interval::new(-255, 383));
        assert_eq!(g.bits(), 10);
        let g = bit_growth_for_shape(w, 1, &[4], InputRange::unsigned(8).unwrap()).unwrap();
        assert_eq!(g.range, Interval::new(-255, 255));
        assert_eq!(g.bits(), 9);
        let g = bit_growth_for_shape(w, 1, &[4], InputRange::signed(8).unwrap()).unwrap();
        assert_eq!(g.range, Interval::new(-255, 255));
    }

    /// A pre-shift of 15 bits a level passes 64 bits at the fifth level: the bound keeps growing
    /// by the shift each level (it wrapped, under-reporting, and panicked in debug builds).
    #[test]
    fn pre_shifts_past_64_bits_keep_growing() {
        let w = dwt_ir::parse_str(
            "wavelet S { shift = 15; odd -= (even[0] + even[1] + 1) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; }",
        )
        .unwrap()
        .remove(0);
        let bits: Vec<u32> = (3..=6)
            .map(|l| {
                bit_growth_for_shape(&w, l, &[4096], InputRange::unsigned(8).unwrap())
                    .unwrap()
                    .bits()
            })
            .collect();
        for pair in bits.windows(2) {
            assert!(pair[1] >= pair[0] + 15, "{bits:?}");
        }
    }

    /// A long line is analysed at a shorter length of the same class; every bound must be what
    /// the line's own length gives, at lengths on both sides of the class boundary.
    #[test]
    fn long_lines_have_the_worst_cases_of_their_equivalent_length() {
        for w in dwt_catalogue::all() {
            if w.kind != ElementKind::Integer {
                continue;
            }
            for levels in 1..=3 {
                let (_, long, scale) = length_classes(w, levels).unwrap();
                for n in [
                    long - 1,
                    long,
                    long + 1,
                    long + scale + 3,
                    3 * long + 2 * scale - 1,
                ] {
                    let m = equivalent_length(w, levels, n);
                    assert!(m <= long + scale, "{} {levels} levels: {n} -> {m}", w.name);
                    for input in [
                        InputRange::unsigned(8).unwrap(),
                        InputRange::signed(10).unwrap(),
                    ] {
                        let own = combine(
                            &w.name,
                            w.shift,
                            levels,
                            &[analyse_axis(w, levels, [n])],
                            input,
                            input.interval(),
                        )
                        .0;
                        let reduced = bit_growth_for_shape(w, levels, &[n], input).unwrap();
                        assert_eq!(own, reduced, "{} {levels} levels, {n} samples", w.name);
                    }
                }
            }
        }
    }

    use crate::cpu;
    use dwt_ir::{Direction, Layout};

    /// xorshift64: deterministic random numbers without a dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Inputs meant to drive coefficients to their extremes: constants, checkerboards and stripes of
    /// the extreme values along every axis, random extremes and random values.
    fn adversarial_inputs(shape: &[usize], max: i32, seed: u64) -> Vec<Vec<i32>> {
        let n: usize = shape.iter().product();
        let coords = |i: usize| {
            let mut c = vec![0; shape.len()];
            let mut r = i;
            for a in (0..shape.len()).rev() {
                c[a] = r % shape[a];
                r /= shape[a];
            }
            c
        };
        let mut inputs = vec![vec![0; n], vec![max; n]];
        let pick = |b: bool| if b { max } else { 0 };
        for flip in [false, true] {
            inputs.push(
                (0..n)
                    .map(|i| pick((coords(i).iter().sum::<usize>() % 2 == 0) != flip))
                    .collect(),
            );
            for a in 0..shape.len() {
                inputs.push(
                    (0..n)
                        .map(|i| pick((coords(i)[a] % 2 == 0) != flip))
                        .collect(),
                );
                // Blocks of two and four: extremes at the next levels' scale.
                inputs.push(
                    (0..n)
                        .map(|i| pick((coords(i)[a] / 2 % 2 == 0) != flip))
                        .collect(),
                );
                inputs.push(
                    (0..n)
                        .map(|i| pick((coords(i)[a] / 4 % 2 == 0) != flip))
                        .collect(),
                );
            }
        }
        let mut rng = Rng(seed | 1);
        for _ in 0..8 {
            inputs.push((0..n).map(|_| pick(rng.next() % 2 == 0)).collect());
        }
        for _ in 0..2 {
            inputs.push(
                (0..n)
                    .map(|_| (rng.next() % (max as u64 + 1)) as i32)
                    .collect(),
            );
        }
        inputs
    }

    fn forward(w: &Wavelet, data: &mut [i32], shape: &[usize], levels: u32) {
        cpu::transform(w, Direction::Forward, data, shape, levels, Layout::Mallat).unwrap();
    }

    fn extremes(data: &[i32]) -> Interval {
        Interval::new(
            *data.iter().min().unwrap() as i128,
            *data.iter().max().unwrap() as i128,
        )
    }

    /// Greedy search: flips input samples between 0 and `max` while that pushes some coefficient
    /// further out.
    fn greedy(w: &Wavelet, shape: &[usize], levels: u32, max: i32, seed: u64) -> Interval {
        let n: usize = shape.iter().product();
        let mut rng = Rng(seed | 1);
        let mut best = Interval::point(0);
        for upward in [true, false] {
            let mut x: Vec<i32> = (0..n)
                .map(|_| if rng.next() % 2 == 0 { max } else { 0 })
                .collect();
            let score = |x: &[i32]| {
                let mut c = x.to_vec();
                forward(w, &mut c, shape, levels);
                let e = extremes(&c);
                if upward {
                    e.hi
                } else {
                    -e.lo
                }
            };
            let mut current = score(&x);
            for _ in 0..2 {
                for i in 0..n {
                    x[i] = max - x[i];
                    let s = score(&x);
                    if s > current {
                        current = s;
                    } else {
                        x[i] = max - x[i];
                    }
                }
            }
            let mut c = x.clone();
            forward(w, &mut c, shape, levels);
            best = best.hull(extremes(&c));
        }
        best
    }

    /// The bound is never exceeded by the CPU reference, for every catalogue integer wavelet, 1 to 4
    /// levels, 1-D to 3-D shapes (even, odd and degenerate sizes), 8- and 10-bit input; and where
    /// the bound fits 16 bits, the i16 transform agrees with the i32 one (nothing wrapped).
    #[test]
    fn bound_is_never_exceeded_by_the_reference() {
        let shapes: [&[usize]; 8] = [
            &[64],
            &[37],
            &[24, 24],
            &[17, 11],
            &[1, 40],
            &[9, 2],
            &[8, 8, 8],
            &[5, 6, 7],
        ];
        let mut tightest = Vec::new();
        for w in dwt_catalogue::all() {
            let Some(analysis) = GrowthAnalysis::new(w, 4).unwrap() else {
                continue;
            };
            for &shape in &shapes {
                for levels in 1..=4.min(cpu::max_levels(shape)) {
                    for bits in [8u32, 10] {
                        let input = InputRange::unsigned(bits).unwrap();
                        let max = (1 << bits) - 1;
                        let exact = bit_growth_for_shape(w, levels, shape, input).unwrap();
                        let general = analysis.growth(levels, shape.len(), input);
                        let mut seen = input.interval();
                        for x in adversarial_inputs(shape, max, 7 + levels as u64) {
                            let mut c = x.clone();
                            forward(w, &mut c, shape, levels);
                            let e = extremes(&c);
                            seen = seen.hull(e);
                            if exact.bits() <= 16 {
                                let mut c16: Vec<i16> = x.iter().map(|&v| v as i16).collect();
                                cpu::transform(
                                    w,
                                    Direction::Forward,
                                    &mut c16,
                                    shape,
                                    levels,
                                    Layout::Mallat,
                                )
                                .unwrap();
                                assert!(
                                    c16.iter().zip(&c).all(|(a, b)| *a as i32 == *b),
                                    "{} {shape:?} {levels} levels: i16 wrapped though the bound fits",
                                    w.name
                                );
                            }
                        }
                        if shape.iter().product::<usize>() <= 64 || shape.len() == 1 {
                            seen = seen.hull(greedy(w, shape, levels, max, 99));
                        }
                        // Split after each level: the tail's input is any value of the head's
                        // last low band, which must still bound what the reference stores.
                        let parts: Vec<Growth> = (1..levels)
                            .map(|first| {
                                let iv = input.interval();
                                let (head, low) = exact_growth(w, first, shape, input, iv);
                                let band = cpu::band_shape(shape, first);
                                let tail = exact_growth(w, levels - first, &band, input, low).0;
                                joined(head, tail)
                            })
                            .collect();
                        let split = parts.iter().map(|g| ("split", g));
                        for (what, g) in [("shape", &exact), ("general", &general)]
                            .into_iter()
                            .chain(split)
                        {
                            assert!(
                                g.range.lo <= seen.lo && seen.hi <= g.range.hi,
                                "{} {shape:?} {levels} levels {bits}-bit: saw {seen}, {what} bound {}",
                                w.name,
                                g.range
                            );
                        }
                        assert!(
                            general.range.lo <= exact.range.lo
                                && exact.range.hi <= general.range.hi
                        );
                        tightest.push((
                            seen.magnitude() as f64 / exact.range.magnitude() as f64,
                            format!(
                                "{} {shape:?} L{levels} {bits}-bit: seen {seen} bound {}",
                                w.name, exact.range
                            ),
                        ));
                    }
                }
            }
        }
        tightest.sort_by(|a, b| a.0.total_cmp(&b.0));
        // The bound is sound; it is also not absurdly loose somewhere in the middle of the cases.
        let median = tightest[tightest.len() / 2].0;
        assert!(median > 0.5, "median seen/bound {median}");
    }

    #[test]
    fn messages() {
        let w = dwt_catalogue::by_name("LeGall53").unwrap();
        let ok = check_bit_growth(
            w,
            4,
            &[1080, 1920],
            InputRange::unsigned(8).unwrap(),
            ElementType::I16,
            false,
        )
        .unwrap();
        assert!(
            ok.starts_with("LeGall53, 4 levels, 2-D, 8-bit input needs up to "),
            "{ok}"
        );
        assert!(ok.ends_with("; i16 holds 16: ok"), "{ok}");

        // A 16-bit image cannot be transformed in i16.
        let e = check_bit_growth(
            w,
            4,
            &[1080, 1920],
            InputRange::unsigned(16).unwrap(),
            ElementType::I16,
            false,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("LeGall53, 4 levels, 2-D, 16-bit input needs ")
                && e.contains(" bits but i16 holds 16: use i32, fewer levels, or allow overflow (`PlanBuilder::allow_overflow`, `dwt --allow-overflow`)"),
            "{e}"
        );
        // At one level, fewer levels is no advice.
        let e = check_bit_growth(
            w,
            1,
            &[1080, 1920],
            InputRange::signed(32).unwrap(),
            ElementType::I32,
            false,
        )
        .unwrap_err()
        .to_string();
        assert!(
            !e.contains("fewer levels") && e.contains("use input of fewer bits or allow overflow"),
            "{e}"
        );
        let allowed = check_bit_growth(
            w,
            4,
            &[1080, 1920],
            InputRange::unsigned(16).unwrap(),
            ElementType::I16,
            true,
        )
        .unwrap();
        assert!(allowed.contains("overflow allowed"), "{allowed}");
        assert!(check_bit_growth(
            w,
            4,
            &[1080, 1920],
            InputRange::unsigned(16).unwrap(),
            ElementType::I32,
            false
        )
        .is_ok());

        // 12-bit input fits i16 at one level, not at four: the advice says how many levels fit.
        let e = check_bit_growth(
            w,
            4,
            &[64, 64],
            InputRange::unsigned(12).unwrap(),
            ElementType::I16,
            false,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("i16 holds 16: use i32, at most "), "{e}");

        // Sums too wide for the 32-bit arithmetic are refused even in i32.
        let d = dwt_catalogue::by_name("Daubechies97Integer").unwrap();
        let e = check_bit_growth(
            d,
            4,
            &[512, 512, 512],
            InputRange::unsigned(16).unwrap(),
            ElementType::I32,
            false,
        )
        .unwrap_err();
        assert!(matches!(e, DwtError::BitGrowth { .. }), "{e}");

        let f = dwt_catalogue::by_name("Cdf97").unwrap();
        assert!(check_bit_growth(
            f,
            4,
            &[64, 64],
            InputRange::unsigned(16).unwrap(),
            ElementType::F32,
            false
        )
        .is_ok());
        assert!(bit_growth(f, 1, 1, InputRange::unsigned(8).unwrap())
            .unwrap()
            .is_none());

        // No verdict on a request no transform could run: it is refused as a plan refuses it.
        let input = InputRange::unsigned(8).unwrap();
        for (shape, levels, element) in [
            (&[][..], 1, ElementType::I16),
            (&[0, 8][..], 1, ElementType::I16),
            (&[2, 2, 2, 2][..], 1, ElementType::I16),
            (&[4][..], 3, ElementType::I16),
            (&[64, 64][..], 1, ElementType::F32),
        ] {
            let e = check_bit_growth(w, levels, shape, input, element, false);
            assert!(
                matches!(
                    e,
                    Err(DwtError::Dimensions { .. }
                        | DwtError::EmptyAxis { .. }
                        | DwtError::TooManyLevels { .. }
                        | DwtError::KindMismatch { .. })
                ),
                "{shape:?} at {levels} levels in {element:?}: {e:?}"
            );
        }
    }
}
