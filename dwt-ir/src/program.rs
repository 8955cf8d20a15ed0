//! The IR proper: a wavelet is a named lifting program plus its per-wavelet defaults.

use crate::{Coeff, ElementType, Laurent};

/// Which polyphase component a step updates or reads: `even[k]` is sample `2(n+k)`, `odd[k]` is
/// sample `2(n+k)+1`, relative to the index `n` of the sample being updated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Even,
    Odd,
}

impl Phase {
    pub fn other(self) -> Phase {
        match self {
            Phase::Even => Phase::Odd,
            Phase::Odd => Phase::Even,
        }
    }

    /// 0 for even, 1 for odd: the sample position of polyphase index `m` is `2m + parity`.
    pub fn parity(self) -> i64 {
        match self {
            Phase::Even => 0,
            Phase::Odd => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Phase::Even => "even",
            Phase::Odd => "odd",
        }
    }
}

/// Whether a step adds (`+=`) or subtracts (`-=`) its prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sign {
    Add,
    Sub,
}

impl Sign {
    pub fn flipped(self) -> Sign {
        match self {
            Sign::Add => Sign::Sub,
            Sign::Sub => Sign::Add,
        }
    }

    pub fn as_coeff(self) -> Coeff {
        match self {
            Sign::Add => Coeff::int(1),
            Sign::Sub => Coeff::int(-1),
        }
    }
}

/// How reads beyond either end of a line are answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Boundary {
    /// Each read is clamped into the same phase (VC-2): odd reads to `[1, N-1]`, even reads to
    /// `[0, N-2]` for even `N`.
    Clamp,
    /// Whole-sample symmetric extension: sample `-r` reads `r`, sample `N-1+r` reads `N-1-r`.
    Symmetric,
    /// The line wraps around; every level must then have an even length.
    Periodic,
}

impl Boundary {
    /// The rule a sliding window that runs this boundary applies at its own ends, whose
    /// geometry ([`Program::sliding_window`]) the kernels take: the rule itself, but for a
    /// periodic line, which has no ends. Its window reads the line modulo its length and lifts
    /// margins past both ends of what it stores, as a segment inside a long column does; the
    /// clamp rule there only keeps reads inside the window, on rows never stored.
    pub fn window_rule(self) -> Boundary {
        match self {
            Boundary::Periodic => Boundary::Clamp,
            b => b,
        }
    }

    /// Where a read of polyphase index `m` of `phase` lands in a line of `n >= 2` samples, as a
    /// polyphase index of the same phase.
    ///
    /// Every rule keeps the phase: clamping stays within the phase (for odd `n`, even reads clamp to
    /// `[0, N-1]` and odd reads to `[1, N-2]`), whole-sample symmetric reflection about samples 0 and
    /// N-1 preserves parity, and so does a periodic wrap for even `n` (the only lengths it allows).
    pub fn resolve(self, n: usize, phase: Phase, m: i64) -> usize {
        let n = n as i64;
        let q = phase.parity();
        let len = (n - q + 1) / 2;
        let m = match self {
            Boundary::Clamp => m.clamp(0, len - 1),
            Boundary::Symmetric => {
                let period = 2 * (n - 1);
                let mut r = (2 * m + q).rem_euclid(period);
                if r > n - 1 {
                    r = period - r;
                }
                (r - q) / 2
            }
            Boundary::Periodic => ((2 * m + q).rem_euclid(n) - q) / 2,
        };
        m as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Boundary::Clamp => "clamp",
            Boundary::Symmetric => "symmetric",
            Boundary::Periodic => "periodic",
        }
    }
}

/// Whether a wavelet maps integers to integers (with floor-shift rounding) or works on reals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementKind {
    Integer,
    Float,
}

impl ElementKind {
    pub fn name(self) -> &'static str {
        match self {
            ElementKind::Integer => "integer",
            ElementKind::Float => "float",
        }
    }
}

/// One lifting step: `target[n] (+|-)= (sum_k taps_k * other[n+k] + rounding) >> shift`.
///
/// For float steps `rounding` is 0 and `shift` is 0, and the sum is exact real arithmetic up to the
/// element type's precision.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub target: Phase,
    pub sign: Sign,
    pub taps: Laurent,
    pub rounding: i64,
    pub shift: u32,
}

impl Step {
    /// The phase the step reads.
    pub fn source(&self) -> Phase {
        self.target.other()
    }

    /// The same step undone: integer lifting inverts exactly because the rounded prediction only
    /// depends on the other phase, which the step does not change.
    pub fn inverse(&self) -> Step {
        Step {
            sign: self.sign.flipped(),
            ..self.clone()
        }
    }

    /// The real-valued step that this one rounds: taps divided by `2^shift`, with the sign folded in.
    pub fn linear_taps(&self) -> Laurent {
        self.taps
            .scaled(self.sign.as_coeff())
            .scaled(Coeff::ratio(1, 1i64 << self.shift))
    }

    /// Lowest and highest polyphase offset read.
    pub fn offsets(&self) -> (i32, i32) {
        self.taps
            .degree_range()
            .expect("validated steps have at least one tap")
    }
}

/// One operation of a lifting program.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Lift(Step),
    /// `low *= low; high *= high` (float wavelets only).
    Scale {
        low: Coeff,
        high: Coeff,
    },
}

/// An ordered list of operations applied to the two phases of a line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    pub ops: Vec<Op>,
}

impl Program {
    pub fn steps(&self) -> impl Iterator<Item = &Step> + '_ {
        self.ops.iter().filter_map(|op| match op {
            Op::Lift(s) => Some(s),
            Op::Scale { .. } => None,
        })
    }

    /// Whether a scale falls between two lifting steps (the language writes `scale` last; a
    /// program built by hand, or the inverse of one, may scale anywhere).
    pub fn scales_between_steps(&self) -> bool {
        let first = self.ops.iter().position(|op| matches!(op, Op::Lift(_)));
        let last = self.ops.iter().rposition(|op| matches!(op, Op::Lift(_)));
        match (first, last) {
            (Some(first), Some(last)) => self.ops[first..last]
                .iter()
                .any(|op| matches!(op, Op::Scale { .. })),
            _ => false,
        }
    }

    /// The same transform with every scale after the first step moved past the steps that follow
    /// it, into one scale after the last: a scale `(a, b)` of the (even, odd) phases followed by a
    /// step reading phase `s` into phase `t` is that step with its taps times `scale_s / scale_t`,
    /// followed by the scale. Boundary rules re-read samples of one phase, which the scale
    /// multiplies alike, so they commute with it too. Exact with exact (rational) coefficients;
    /// in floating point the results differ by rounding. The sliding window and the fused tiles
    /// apply scales only as samples enter or leave them, so they run a program scaling between
    /// its steps in this form. `None` where a step to move past has a rounding or a shift (an
    /// integer step: a scale does not commute with its floor) or a scale is zero; `self` where no
    /// scale falls between steps.
    pub fn with_scales_moved_last(&self) -> Option<Program> {
        if !self.scales_between_steps() {
            return Some(self.clone());
        }
        let first = self.ops.iter().position(|op| matches!(op, Op::Lift(_)))?;
        let mut ops = self.ops[..first].to_vec();
        // The product of the scales met so far, (even, odd): what the true samples are times the
        // working ones.
        let (mut even, mut odd) = (Coeff::one(), Coeff::one());
        for op in &self.ops[first..] {
            match op {
                Op::Scale { low, high } => {
                    even = even.checked_mul(*low)?;
                    odd = odd.checked_mul(*high)?;
                }
                Op::Lift(step) => {
                    let (source, target) = match step.target {
                        Phase::Even => (odd, even),
                        Phase::Odd => (even, odd),
                    };
                    let factor = source.checked_div(target)?;
                    if factor.is_one() {
                        ops.push(op.clone());
                        continue;
                    }
                    if step.rounding != 0 || step.shift != 0 || factor.is_zero() {
                        return None;
                    }
                    ops.push(Op::Lift(Step {
                        taps: step.taps.scaled(factor),
                        ..step.clone()
                    }));
                }
            }
        }
        if !even.is_one() || !odd.is_one() {
            ops.push(Op::Scale {
                low: even,
                high: odd,
            });
        }
        Some(Program { ops })
    }

    /// The synthesis program: operations reversed, each step's sign flipped, scaling inverted.
    pub fn inverse(&self) -> Program {
        let ops = self
            .ops
            .iter()
            .rev()
            .map(|op| match op {
                Op::Lift(s) => Op::Lift(s.inverse()),
                Op::Scale { low, high } => Op::Scale {
                    low: low.recip().expect("validated scales are non-zero"),
                    high: high.recip().expect("validated scales are non-zero"),
                },
            })
            .collect();
        Program { ops }
    }
}

/// Which way a program runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Forward,
    Inverse,
}

/// A wavelet: a validated lifting program with its defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Wavelet {
    pub name: String,
    /// The doc comment, one line per entry, without the leading `///`.
    pub doc: Vec<String>,
    pub kind: ElementKind,
    pub boundary: Boundary,
    /// VC-2's per-level filter bit shift: analysis multiplies the band by `2^shift` before lifting,
    /// synthesis rounds it back with `(x + 2^(shift-1)) >> shift`.
    pub shift: u32,
    /// The analysis (forward) program.
    pub program: Program,
}

impl Wavelet {
    pub fn forward(&self) -> &Program {
        &self.program
    }

    /// The synthesis program, derived from the analysis one.
    pub fn inverse(&self) -> Program {
        self.program.inverse()
    }

    /// The vertical-pass sliding window of the program for `direction`, under this wavelet's
    /// boundary rule.
    pub fn sliding_window(&self, direction: Direction) -> crate::SlidingWindow {
        self.program_for(direction).sliding_window(self.boundary)
    }

    pub fn program_for(&self, direction: Direction) -> Program {
        match direction {
            Direction::Forward => self.program.clone(),
            Direction::Inverse => self.inverse(),
        }
    }

    /// The first coefficient of a float program (or of its inverse, where a scale `K` becomes
    /// `1/K`) that `element` cannot hold: one that overflows to infinity, or a nonzero one that
    /// underflows to zero, would make every kernel and the reference compute something other
    /// than the wavelet. `None` where all fit, and for integer elements.
    pub fn unrepresentable_coefficient(&self, element: ElementType) -> Option<(Direction, f64)> {
        let holds = |v: f64| match element {
            ElementType::F32 => (v as f32).is_finite() && (v == 0.0 || v as f32 != 0.0),
            ElementType::F64 => v.is_finite(),
            ElementType::I16 | ElementType::I32 => true,
        };
        [Direction::Forward, Direction::Inverse]
            .into_iter()
            .find_map(|direction| {
                let program = self.program_for(direction);
                let value = program.ops.iter().find_map(|op| {
                    let values: Vec<f64> = match op {
                        Op::Lift(step) => step.taps.terms().map(|(_, c)| c.to_f64()).collect(),
                        Op::Scale { low, high } => vec![low.to_f64(), high.to_f64()],
                    };
                    values.into_iter().find(|&v| !holds(v))
                });
                value.map(|v| (direction, v))
            })
    }

    /// The same wavelet with every rounding removed and taps divided by `2^shift`: the real-valued
    /// transform the integer one approximates (without the per-level pre-shift).
    pub fn linearized(&self) -> Wavelet {
        let ops = self
            .program
            .ops
            .iter()
            .map(|op| match op {
                Op::Lift(s) => Op::Lift(Step {
                    target: s.target,
                    sign: Sign::Add,
                    taps: s.linear_taps(),
                    rounding: 0,
                    shift: 0,
                }),
                other => other.clone(),
            })
            .collect();
        Wavelet {
            kind: ElementKind::Float,
            shift: 0,
            program: Program { ops },
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(target: Phase, taps: &[(i32, Coeff)]) -> Op {
        Op::Lift(Step {
            target,
            sign: Sign::Sub,
            taps: Laurent::from_terms(taps.iter().copied()),
            rounding: 0,
            shift: 0,
        })
    }

    /// A scale `(2, 1/2)` between the two steps of CDF 5/3 moves last: the update reads odd
    /// samples (times 1/2) into even ones (times 2), so its taps are times 1/4, exactly.
    #[test]
    fn a_scale_between_steps_moves_last_with_the_taps_it_passes_rescaled() {
        let half = Coeff::ratio(1, 2);
        let quarter = Coeff::ratio(1, 4);
        let scale = Op::Scale {
            low: Coeff::int(2),
            high: half,
        };
        let written = Program {
            ops: vec![
                scale.clone(),
                step(Phase::Odd, &[(0, half), (1, half)]),
                scale.clone(),
                step(Phase::Even, &[(-1, quarter), (0, quarter)]),
            ],
        };
        assert!(written.scales_between_steps());
        let moved = written.with_scales_moved_last().unwrap();
        let sixteenth = Coeff::ratio(1, 16);
        assert_eq!(
            moved.ops,
            [
                scale.clone(),
                step(Phase::Odd, &[(0, half), (1, half)]),
                step(Phase::Even, &[(-1, sixteenth), (0, sixteenth)]),
                scale,
            ]
        );
        assert!(!moved.scales_between_steps());
        // Its inverse scales first, which the window takes as it is.
        assert!(!moved.inverse().scales_between_steps());
        assert_eq!(moved.with_scales_moved_last().unwrap(), moved);
    }

    /// An integer step's floor does not commute with a scale, and a zero scale has no inverse.
    #[test]
    fn scales_stay_where_they_cannot_move() {
        let mut rounded = step(Phase::Even, &[(0, Coeff::int(1))]);
        if let Op::Lift(s) = &mut rounded {
            s.shift = 1;
        }
        let scale = |low| Op::Scale {
            low,
            high: Coeff::one(),
        };
        let odd = step(Phase::Odd, &[(0, Coeff::int(1))]);
        for ops in [
            vec![odd.clone(), scale(Coeff::int(3)), rounded],
            vec![odd.clone(), scale(Coeff::zero()), odd.clone()],
        ] {
            let program = Program { ops };
            assert!(program.scales_between_steps());
            assert_eq!(program.with_scales_moved_last(), None, "{program:?}");
        }
    }
}
