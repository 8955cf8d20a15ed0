//! The CPU reference backend: obviously correct code that interprets the IR, against which every
//! generated kernel is checked.
//!
//! Level semantics are VC-2's: per level, pre-shift the band by the wavelet's `shift`, lift every row
//! (the last axis), then every column, then (3-D) every z-line; the inverse undoes z, then columns,
//! then rows, then rounds the shift back. Levels recurse on the low band. Any size works: a line of
//! `n` samples gives `ceil(n/2)` low and `floor(n/2)` high samples, and a line of one sample passes
//! through.

mod line;
pub mod sliding_window;

pub use line::{LineOp, LineProgram, LineStep};

pub use dwt_ir::Layout;
use dwt_ir::{Boundary, Direction, ElementType, Program, Wavelet};

use crate::element::{Element, Work};
use crate::DwtError;

/// The most levels a shape supports: each level halves (rounding up) every axis longer than 1, and
/// a level needs some axis longer than 1.
pub fn max_levels(shape: &[usize]) -> u32 {
    let mut longest = shape.iter().copied().max().unwrap_or(1);
    let mut levels = 0;
    while longest > 1 {
        longest = longest.div_ceil(2);
        levels += 1;
    }
    levels
}

/// The number of samples of `shape`, or [`DwtError::ShapeTooLarge`] where it overflows `usize`
/// (a shape read from a file's header can claim anything).
pub fn sample_count(shape: &[usize]) -> Result<usize, DwtError> {
    shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .ok_or_else(|| DwtError::ShapeTooLarge {
            shape: shape.to_vec(),
        })
}

/// The band dimensions that level `level` (0-based) works on.
pub fn band_shape(shape: &[usize], level: u32) -> Vec<usize> {
    shape
        .iter()
        .map(|&n| (0..level).fold(n, |n, _| n.div_ceil(2)))
        .collect()
}

/// Checks everything about a transform request that does not depend on the data itself.
pub fn validate(
    wavelet: &Wavelet,
    element: ElementType,
    len: usize,
    shape: &[usize],
    levels: u32,
) -> Result<(), DwtError> {
    if shape.is_empty() || shape.len() > 3 {
        return Err(DwtError::Dimensions {
            shape: shape.to_vec(),
            dims: shape.len(),
        });
    }
    if shape.contains(&0) {
        return Err(DwtError::EmptyAxis {
            shape: shape.to_vec(),
        });
    }
    let needed = sample_count(shape)?;
    if len != needed {
        return Err(DwtError::BufferLength {
            shape: shape.to_vec(),
            len,
            needed,
        });
    }
    if let Some(what) = contradiction(wavelet) {
        return Err(DwtError::MalformedWavelet {
            wavelet: wavelet.name.clone(),
            kind: wavelet.kind,
            what,
        });
    }
    if wavelet.kind != element.kind() {
        return Err(DwtError::KindMismatch {
            wavelet: wavelet.name.clone(),
            kind: wavelet.kind,
            element: element.name(),
            element_kind: element.kind(),
        });
    }
    if let Some((direction, value)) = wavelet.unrepresentable_coefficient(element) {
        return Err(DwtError::Unrepresentable {
            wavelet: wavelet.name.clone(),
            direction,
            value,
            element: element.name(),
        });
    }
    let max = max_levels(shape);
    if levels > max {
        return Err(DwtError::TooManyLevels {
            shape: shape.to_vec(),
            levels,
            max,
        });
    }
    if wavelet.boundary == Boundary::Periodic {
        for level in 0..levels {
            for (axis, &len) in band_shape(shape, level).iter().enumerate() {
                if len > 1 && len % 2 == 1 {
                    return Err(DwtError::PeriodicOddLength {
                        wavelet: wavelet.name.clone(),
                        axis,
                        len,
                        level: level + 1,
                    });
                }
            }
        }
    }
    Ok(())
}

/// What of `wavelet` contradicts its kind, as the parser would have refused it; `None` for every
/// parsed wavelet. `Wavelet`'s fields are public, and one changed by hand (a float program marked
/// integer, a shift past 31 bits) otherwise ran: integer arithmetic reads a fractional tap as 0
/// and float arithmetic skips shifts and roundings (silently another transform), and a shift of
/// 32 bits or more overflows the 32-bit working arithmetic.
fn contradiction(wavelet: &Wavelet) -> Option<String> {
    use dwt_ir::parse::{MAX_PRE_SHIFT, MAX_STEP_SHIFT};
    use dwt_ir::{ElementKind, Op};
    let integer = wavelet.kind == ElementKind::Integer;
    if integer && wavelet.shift > MAX_PRE_SHIFT {
        return Some(format!(
            "its pre-shift is {} bits (at most {MAX_PRE_SHIFT})",
            wavelet.shift
        ));
    }
    if !integer && wavelet.shift != 0 {
        return Some(format!(
            "it has a pre-shift of {} (only integer wavelets have one)",
            wavelet.shift
        ));
    }
    for (i, op) in wavelet.program.ops.iter().enumerate() {
        let step = match op {
            Op::Lift(step) => step,
            Op::Scale { .. } if integer => {
                return Some(format!(
                    "operation {i} scales the bands (only float wavelets scale)"
                ))
            }
            Op::Scale { .. } => continue,
        };
        if integer {
            if let Some((k, c)) = step.taps.terms().find(|(_, c)| c.as_integer().is_none()) {
                return Some(format!(
                    "step {i} has the fractional tap {c} at offset {k} (integer steps take whole taps and a `>> s`)"
                ));
            }
            if step.shift > MAX_STEP_SHIFT {
                return Some(format!(
                    "step {i} shifts by {} bits (at most {MAX_STEP_SHIFT})",
                    step.shift
                ));
            }
        } else if step.shift != 0 || step.rounding != 0 {
            return Some(format!(
                "step {i} has a rounding of {} and a shift of {} bits (float steps have neither)",
                step.rounding, step.shift
            ));
        }
    }
    None
}

/// Forward (analysis) transform in place. It checks the request ([`validate`]) but not the bit
/// growth: integer values that outgrow the element type wrap, as on every backend (a
/// [`crate::Plan`] refuses such a transform before it runs), and float data gets what the
/// arithmetic gives, NaN and infinities included (see [`crate::Plan::execute`]).
pub fn forward<E: Element>(
    wavelet: &Wavelet,
    data: &mut [E],
    shape: &[usize],
    levels: u32,
    layout: Layout,
) -> Result<(), DwtError> {
    transform(wavelet, Direction::Forward, data, shape, levels, layout)
}

/// Inverse (synthesis) transform in place: undoes [`forward`] with the same arguments.
pub fn inverse<E: Element>(
    wavelet: &Wavelet,
    data: &mut [E],
    shape: &[usize],
    levels: u32,
    layout: Layout,
) -> Result<(), DwtError> {
    transform(wavelet, Direction::Inverse, data, shape, levels, layout)
}

pub fn transform<E: Element>(
    wavelet: &Wavelet,
    direction: Direction,
    data: &mut [E],
    shape: &[usize],
    levels: u32,
    layout: Layout,
) -> Result<(), DwtError> {
    validate(wavelet, E::TYPE, data.len(), shape, levels)?;
    let program = LineProgram::<E::Work>::new(&wavelet.program_for(direction));
    let strides = row_major_strides(shape);
    let dims = shape.len();
    match direction {
        Direction::Forward => {
            for level in 0..levels {
                let band = Band::new(shape, &strides, level, layout);
                band.for_each(data, |x| x.pre_shift(wavelet.shift));
                for axis in (0..dims).rev() {
                    band.lift_lines(data, axis, &program, wavelet.boundary, direction);
                }
            }
        }
        Direction::Inverse => {
            for level in (0..levels).rev() {
                let band = Band::new(shape, &strides, level, layout);
                for axis in 0..dims {
                    band.lift_lines(data, axis, &program, wavelet.boundary, direction);
                }
                band.for_each(data, |x| x.undo_pre_shift(wavelet.shift));
            }
        }
    }
    Ok(())
}

/// Runs a program on one line given in natural sample order (no pre-shift), returning the result
/// in interleaved order: the 1-D lifting every pass of every backend must agree with.
pub fn lift_line<W: Work>(program: &Program, boundary: Boundary, line: &[W]) -> Vec<W> {
    let mut even: Vec<W> = line.iter().step_by(2).copied().collect();
    let mut odd: Vec<W> = line.iter().skip(1).step_by(2).copied().collect();
    LineProgram::new(program).run(boundary, &mut even, &mut odd);
    let mut out = line.to_vec();
    for (i, v) in even.into_iter().enumerate() {
        out[2 * i] = v;
    }
    for (i, v) in odd.into_iter().enumerate() {
        out[2 * i + 1] = v;
    }
    out
}

fn row_major_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for a in (0..shape.len().saturating_sub(1)).rev() {
        strides[a] = strides[a + 1] * shape[a + 1];
    }
    strides
}

/// The band one level works on: its extent per axis and the distance between its samples.
struct Band {
    dims: Vec<usize>,
    steps: Vec<usize>,
    layout: Layout,
}

impl Band {
    fn new(shape: &[usize], strides: &[usize], level: u32, layout: Layout) -> Self {
        let spacing = match layout {
            Layout::Interleaved => 1usize << level,
            Layout::Mallat => 1,
        };
        Band {
            dims: band_shape(shape, level),
            steps: strides.iter().map(|s| s * spacing).collect(),
            layout,
        }
    }

    /// Offsets of the first sample of every line along `axis`.
    fn line_starts(&self, axis: usize) -> Vec<usize> {
        let mut starts = vec![0usize];
        for (a, (&n, &step)) in self.dims.iter().zip(&self.steps).enumerate() {
            if a == axis {
                continue;
            }
            starts = starts
                .iter()
                .flat_map(|&s| (0..n).map(move |i| s + i * step))
                .collect();
        }
        starts
    }

    fn for_each<E: Element>(&self, data: &mut [E], f: impl Fn(E::Work) -> E::Work) {
        let last = self.dims.len() - 1;
        let (n, step) = (self.dims[last], self.steps[last]);
        for start in self.line_starts(last) {
            for i in 0..n {
                let p = start + i * step;
                data[p] = E::from_work(f(data[p].to_work()));
            }
        }
    }

    fn lift_lines<E: Element>(
        &self,
        data: &mut [E],
        axis: usize,
        program: &LineProgram<E::Work>,
        boundary: Boundary,
        direction: Direction,
    ) {
        let (n, step) = (self.dims[axis], self.steps[axis]);
        if n < 2 {
            return;
        }
        let half = n.div_ceil(2);
        // Forward passes read a line in sample order and write it split into phases; inverse ones
        // the other way round.
        let (from, to) = match direction {
            Direction::Forward => (Order::Natural, Order::Split),
            Direction::Inverse => (Order::Split, Order::Natural),
        };
        let mut even = vec![E::Work::integer(0); half];
        let mut odd = vec![E::Work::integer(0); n / 2];
        for start in self.line_starts(axis) {
            let line = Line {
                start,
                step,
                half,
                layout: self.layout,
            };
            for (j, x) in even.iter_mut().enumerate() {
                *x = data[line.index(from, j, 0)].to_work();
            }
            for (j, x) in odd.iter_mut().enumerate() {
                *x = data[line.index(from, j, 1)].to_work();
            }
            program.run(boundary, &mut even, &mut odd);
            for (j, x) in even.iter().enumerate() {
                data[line.index(to, j, 0)] = E::from_work(*x);
            }
            for (j, x) in odd.iter().enumerate() {
                data[line.index(to, j, 1)] = E::from_work(*x);
            }
        }
    }
}

/// How a line's samples are ordered in memory.
#[derive(Clone, Copy)]
enum Order {
    /// Sample order: the polyphase sample `j` of phase `p` is sample `2j + p`.
    Natural,
    /// After a pass: interleaved layouts keep sample order, Mallat puts the low phase first.
    Split,
}

/// Where the samples of one line lie in the buffer.
struct Line {
    start: usize,
    step: usize,
    half: usize,
    layout: Layout,
}

impl Line {
    fn index(&self, order: Order, j: usize, phase: usize) -> usize {
        let k = match (order, self.layout) {
            (Order::Split, Layout::Mallat) => j + phase * self.half,
            _ => 2 * j + phase,
        };
        self.start + k * self.step
    }
}
