//! One level of a 1-D lifting program on one line, split into its two phases: the interpreter every
//! other part of the CPU reference is built on.

use dwt_ir::{Boundary, Op, Phase, Program, Sign};

use crate::element::Work;

/// A step with its coefficients converted to the working arithmetic once, not per sample.
#[derive(Clone, Debug)]
pub struct LineStep<W> {
    pub target: Phase,
    pub sign: Sign,
    pub taps: Vec<(i32, W)>,
    pub rounding: W,
    pub shift: u32,
}

impl<W: Work> LineStep<W> {
    /// `(sum_k c_k * source[n+k] + rounding) >> shift`, with `read(k)` giving the (boundary-resolved)
    /// source sample at offset `k`. Taps are summed in increasing offset order, as kernels do.
    pub fn prediction(&self, mut read: impl FnMut(i32) -> W) -> W {
        let mut acc = self.rounding;
        for &(k, c) in &self.taps {
            acc = acc.add(c.mul(read(k)));
        }
        acc.shr(self.shift)
    }

    pub fn apply(&self, target: W, prediction: W) -> W {
        match self.sign {
            Sign::Add => target.add(prediction),
            Sign::Sub => target.sub(prediction),
        }
    }
}

/// An operation of a [`LineProgram`].
#[derive(Clone, Debug)]
pub enum LineOp<W> {
    Lift(LineStep<W>),
    Scale { low: W, high: W },
}

/// A [`Program`] prepared for one working arithmetic.
#[derive(Clone, Debug)]
pub struct LineProgram<W> {
    pub ops: Vec<LineOp<W>>,
}

impl<W: Work> LineProgram<W> {
    pub fn new(program: &Program) -> Self {
        let ops = program
            .ops
            .iter()
            .map(|op| match op {
                Op::Lift(s) => LineOp::Lift(LineStep {
                    target: s.target,
                    sign: s.sign,
                    taps: s.taps.terms().map(|(k, c)| (k, W::coeff(c))).collect(),
                    rounding: W::integer(s.rounding),
                    shift: s.shift,
                }),
                Op::Scale { low, high } => LineOp::Scale {
                    low: W::coeff(*low),
                    high: W::coeff(*high),
                },
            })
            .collect();
        LineProgram { ops }
    }

    pub fn steps(&self) -> impl Iterator<Item = &LineStep<W>> {
        self.ops.iter().filter_map(|op| match op {
            LineOp::Lift(s) => Some(s),
            LineOp::Scale { .. } => None,
        })
    }

    /// Runs the program on a line of `even.len() + odd.len()` samples. A line of one sample passes
    /// through unchanged: it has no odd phase to lift against.
    pub fn run(&self, boundary: Boundary, even: &mut [W], odd: &mut [W]) {
        let n = even.len() + odd.len();
        debug_assert!(even.len() == n.div_ceil(2) && odd.len() == n / 2);
        if n < 2 {
            return;
        }
        for op in &self.ops {
            match op {
                LineOp::Lift(step) => {
                    let (target, source) = match step.target {
                        Phase::Even => (&mut *even, &*odd),
                        Phase::Odd => (&mut *odd, &*even),
                    };
                    let source_phase = step.target.other();
                    for (i, t) in target.iter_mut().enumerate() {
                        let p = step.prediction(|k| {
                            source[boundary.resolve(n, source_phase, i as i64 + k as i64)]
                        });
                        *t = step.apply(*t, p);
                    }
                }
                LineOp::Scale { low, high } => {
                    even.iter_mut().for_each(|x| *x = x.mul(*low));
                    odd.iter_mut().for_each(|x| *x = x.mul(*high));
                }
            }
        }
    }
}
