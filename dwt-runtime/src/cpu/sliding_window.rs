//! A CPU simulator of the sliding-window vertical pass (van der Laan et al., section IV-F,
//! Algorithm 1): one column is lifted through a small scratch window exactly as a GPU thread block
//! lifts a slab, with `read`, `copy`, `write`, `transformTop`, `transformBlock` and
//! `transformBottom`.
//!
//! It is the executable specification of the window geometry the IR derives: for every legal
//! height it must give exactly what [`lift_line`](super::lift_line) gives, and with any of top,
//! overlap or bottom one row smaller it must go wrong for some height. Rows the window does not
//! hold read as a poison value, as stale shared memory would on a GPU.

use dwt_ir::{Boundary, Op, Phase, Program, SlidingWindow};

use super::line::LineProgram;
use crate::element::Work;
use crate::DwtError;

/// What a read of a row the window does not hold returns.
fn poison<W: Work>() -> W {
    W::integer(-0x2b3c4d)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Top,
    Block,
    Bottom,
}

/// Lifts `column` in place with `program`, through a window of working height `height` shaped by
/// `window` (its top, overlap, bottom and per-step lags).
pub fn vertical_pass<W: Work>(
    program: &Program,
    boundary: Boundary,
    window: &SlidingWindow,
    height: usize,
    column: &mut [W],
) -> Result<(), DwtError> {
    if boundary == Boundary::Periodic {
        return Err(DwtError::PeriodicWindow);
    }
    let (top, overlap, bottom) = (
        window.top as usize,
        window.overlap as usize,
        window.bottom as usize,
    );
    let carried = top + overlap + bottom;
    if height % 2 != 0 || height < carried.max(2) {
        return Err(DwtError::WindowHeight { height, carried });
    }
    let rows = column.len();
    if rows < height + bottom {
        return Err(DwtError::ColumnTooShort {
            rows,
            needed: height + bottom,
            height,
            bottom,
        });
    }
    // A scale before every step applies as rows enter the window, one after every step as they
    // leave: each row is read and written exactly once.
    let ops = &program.ops;
    let first_lift = ops
        .iter()
        .position(|op| matches!(op, Op::Lift(_)))
        .unwrap_or(0);
    let last_lift = ops
        .iter()
        .rposition(|op| matches!(op, Op::Lift(_)))
        .unwrap_or(0);
    if ops[first_lift..last_lift]
        .iter()
        .any(|op| matches!(op, Op::Scale { .. }))
    {
        return Err(DwtError::ScaleBetweenSteps);
    }
    let scale = |range: &[Op]| {
        range
            .iter()
            .fold((W::integer(1), W::integer(1)), |(l, h), op| match op {
                Op::Scale { low, high } => (l.mul(W::coeff(*low)), h.mul(W::coeff(*high))),
                Op::Lift(_) => (l, h),
            })
    };
    let (on_read, on_write) = (scale(&ops[..first_lift]), scale(&ops[last_lift..]));
    let sim = Simulator {
        program: LineProgram::new(program),
        boundary,
        lags: &window.lags,
        top,
        overlap,
        height,
        rows,
        win: vec![None; carried + height],
        on_read,
        on_write,
    };
    sim.run(column);
    Ok(())
}

struct Simulator<'a, W> {
    program: LineProgram<W>,
    boundary: Boundary,
    lags: &'a [i32],
    top: usize,
    overlap: usize,
    height: usize,
    rows: usize,
    /// The shared-memory window; `None` is a row never filled.
    win: Vec<Option<W>>,
    /// (even, odd) factors applied as a row is read from or written to the column.
    on_read: (W, W),
    on_write: (W, W),
}

impl<W: Work> Simulator<'_, W> {
    fn run(mut self, g: &mut [W]) {
        let (t, o, h) = (self.top, self.overlap, self.height);
        let carried = self.win.len() - h;
        let bottom = carried - t - o;
        let full = (self.rows - h - bottom) / h;
        let leftover = (self.rows - h - bottom) % h;
        let mut inrow = 0;
        let mut outrow = 0;

        self.read(g, h + bottom, inrow, t + o);
        inrow += h + bottom;
        self.transform(0, Part::Top);
        self.write(g, h - o, t + o, outrow);
        outrow += h - o;
        for k in 1..=full {
            self.copy(carried, h, 0);
            self.read(g, h, inrow, carried);
            inrow += h;
            self.transform(k, Part::Block);
            self.write(g, h, t, outrow);
            outrow += h;
        }
        self.copy(carried, h, 0);
        self.read(g, leftover, inrow, carried);
        self.transform(full + 1, Part::Bottom);
        self.write(g, leftover + o + bottom, t, outrow);
    }

    fn read(&mut self, g: &[W], count: usize, from: usize, to: usize) {
        for i in 0..count {
            self.win[to + i] = Some(g[from + i].mul(Self::factor(self.on_read, from + i)));
        }
    }

    fn write(&self, g: &mut [W], count: usize, from: usize, to: usize) {
        for i in 0..count {
            g[to + i] = self
                .get(from as i64 + i as i64)
                .mul(Self::factor(self.on_write, to + i));
        }
    }

    fn factor((even, odd): (W, W), row: usize) -> W {
        if row % 2 == 0 {
            even
        } else {
            odd
        }
    }

    /// All threads read, then all write: the copy of Algorithm 1, line 11.
    fn copy(&mut self, count: usize, from: usize, to: usize) {
        let rows: Vec<_> = self.win[from..from + count].to_vec();
        self.win[to..to + count].copy_from_slice(&rows);
    }

    fn get(&self, w: i64) -> W {
        usize::try_from(w)
            .ok()
            .and_then(|w| self.win.get(w).copied().flatten())
            .unwrap_or_else(poison)
    }

    fn phase_len(&self, phase: Phase) -> i64 {
        (self.rows as i64 - phase.parity() + 1) / 2
    }

    /// Lifts window `k`: step `j` works on target indices `[lag_j + k*H/2, lag_j + (k+1)*H/2)`,
    /// from the column's start in the first window and to its end in the last. Only the first and
    /// last windows resolve reads through the boundary rule; a middle window never needs to.
    fn transform(&mut self, k: usize, part: Part) {
        let half = (self.height / 2) as i64;
        let base = (k * self.height) as i64 - (self.top + self.overlap) as i64;
        let steps: Vec<_> = self.program.steps().cloned().collect();
        for (step, &lag) in steps.iter().zip(self.lags) {
            let (p, source) = (step.target.parity(), step.target.other());
            let q = source.parity();
            let start = match part {
                Part::Top => 0,
                _ => lag as i64 + k as i64 * half,
            };
            let end = match part {
                Part::Bottom => self.phase_len(step.target),
                _ => lag as i64 + (k as i64 + 1) * half,
            }
            .min(self.phase_len(step.target));
            let updates: Vec<(i64, W)> = (start.max(0)..end)
                .map(|n| {
                    let prediction = step.prediction(|off| {
                        let m = n + off as i64;
                        let m = match part {
                            Part::Block if m >= 0 && m < self.phase_len(source) => m,
                            Part::Block => return poison(),
                            _ => self.boundary.resolve(self.rows, source, m) as i64,
                        };
                        self.get(2 * m + q - base)
                    });
                    let row = 2 * n + p - base;
                    (row, step.apply(self.get(row), prediction))
                })
                .collect();
            for (row, v) in updates {
                if let Some(slot) = usize::try_from(row).ok().and_then(|r| self.win.get_mut(r)) {
                    *slot = Some(v);
                }
            }
        }
    }
}
