//! The row-segments kernel: rows longer than the rows kernel holds (a long 1-D signal, a wide
//! image), lifted by many groups per row, each a segment of it with a margin on either side.

use dwt_ir::{Boundary, Direction, Layout, Op};

use crate::dialect::Param;
use crate::emit::{offset, Emitter};
use crate::writer::Writer;

/// Polyphase indices per phase a group of the row-segments kernel holds, its margins included
/// (or the rows kernel's limit, where that is less): 8 KiB of 4-byte working values per group,
/// so that many groups share a multiprocessor, and a 2^20-sample line makes about 520 groups.
pub const ROW_SEGMENT_WIDTH: usize = 1024;

/// How the row-segments kernel cuts a row: what the planner needs to launch it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowSegments {
    pub kernel: String,
    /// Polyphase indices per phase each group stores (its segment).
    pub segment: usize,
    /// Polyphase indices per phase each group loads and lifts beyond either end of its segment.
    pub margin: usize,
}

/// Per op of a program, the first local index (and the distance from the last) whose
/// value after that step equals the whole row's: a step reading `k` indices away needs its
/// sources valid `k` further in, and `1` more where a reflection at the row's end lands on the
/// other side of the target.
pub(crate) fn step_margins(ops: &[Op]) -> Vec<usize> {
    let mut reach = 0;
    ops.iter()
        .map(|op| {
            if let Op::Lift(step) = op {
                let (lo, hi) = step.taps.degree_range().unwrap_or((0, 0));
                reach += lo.unsigned_abs().max(hi.unsigned_abs()) as usize + 1;
            }
            reach
        })
        .collect()
}

/// The segments of the rows of a program of `ops` in groups of `width` polyphase indices per phase, or `None`
/// where there are none: a periodic boundary (a segment at one end reads the other end), or
/// margins that would leave a segment less than half its group.
pub(crate) fn row_segments(ops: &[Op], boundary: Boundary, width: usize) -> Option<(usize, usize)> {
    let margin = step_margins(ops).last().copied().unwrap_or(0);
    let segment = width.checked_sub(2 * margin)?;
    (boundary != Boundary::Periodic && 2 * segment >= width).then_some((segment, margin))
}

impl Emitter<'_> {
    /// `(src, dst, base, sample_step, row_step, plane_step, n, rows)`: group x a segment of the
    /// row, group y the row, group z the plane; reads `src`, writes `dst`, never the same buffer
    /// (a segment's stores land where its neighbours load their margins).
    pub(crate) fn row_segments_kernel(
        &self,
        w: &mut Writer,
        name: &str,
        segment: usize,
        margin: usize,
    ) {
        let d = self.d;
        let wg = self.cfg.row_group_size;
        let width = segment + 2 * margin;
        let params = self.row_params(&[
            Param::Input("src", self.elem),
            Param::Global("dst", self.elem),
        ]);
        w.comment(format!(
            "Long-row path: rows longer than row_limit, {segment} polyphase indices per phase to a group"
        ));
        w.comment(format!(
            "(group x), each loading {margin} more on either side and lifting them with its own through every"
        ));
        w.comment("step (the values of the margins it stores nowhere), so that the segment's are the whole row's.");
        w.comment(
            "Reads past the row's ends go through resolve() as in the rows kernel; each step lifts",
        );
        w.comment("the local indices whose sources the steps before left exact.");
        let sig = d.kernel_signature(name, &params, [wg, 1, 1], false);
        self.kernel_block(w, sig, |w| {
            w.line(d.local_array(self.work(), "even", &[width]));
            w.line(d.local_array(self.work(), "odd", &[width]));
            w.line(format!("const int lid = {};", d.local_id(0)));
            w.line(format!("const int seg = {};", d.group_id(0)));
            w.line(format!("const int row = {};", d.group_id(1)));
            w.line(format!("const int plane = {};", d.group_id(2)));
            let storage = d.storage_type(self.elem);
            w.line(format!(
                "{} in = src + base + plane * plane_step + row * row_step;",
                d.global_pointer(&format!("const {storage}"))
            ));
            w.line(format!(
                "{} out = dst + base + plane * plane_step + row * row_step;",
                d.global_pointer(storage)
            ));
            w.line("const int n_even = (n + 1) / 2;");
            w.line("const int n_odd = n / 2;");
            w.comment("The polyphase index of local index 0.");
            w.line(format!("const int m0 = seg * {segment} - {margin};"));
            w.blank();
            self.segments_load(w, width);
            w.line(d.barrier());
            let margins = step_margins(self.ops);
            for (op, &c) in self.ops.iter().zip(&margins) {
                match op {
                    Op::Lift(step) => {
                        let (tgt, src) = (step.target.name(), step.source().name());
                        let q = step.source().parity();
                        w.comment(format!("{step}"));
                        w.block(
                            format!("for (int l = {c} + lid; l < {} - {c}; l += {wg})", width),
                            |w| {
                                w.line("const int m = m0 + l;");
                                w.block(format!("if (m >= 0 && m < n_{tgt})"), |w| {
                                    let read = |k| {
                                        format!("{src}[resolve(n, {q}, {}) - m0]", offset("m", k))
                                    };
                                    self.step_body(w, step, &format!("{tgt}[l]"), &read, true)
                                });
                            },
                        );
                    }
                    Op::Scale { low, high } => {
                        w.comment(format!("{op}"));
                        w.block(format!("for (int l = lid; l < {width}; l += {wg})"), |w| {
                            for (phase, c) in [("even", low), ("odd", high)] {
                                let v = self.mul(&self.coeff(*c), &format!("{phase}[l]"));
                                w.line(format!("{phase}[l] = {v};"));
                            }
                        });
                    }
                }
                w.line(d.barrier());
            }
            self.segments_store(w, segment, margin);
        });
    }

    /// Where polyphase index `m` of phase `q` of the row is stored: the low half then the high
    /// half (Mallat) or interleaved.
    fn segment_place(&self, split: bool) -> &'static str {
        if split {
            "q == 0 ? m : n_even + m"
        } else {
            "2 * m + q"
        }
    }

    fn segments_load(&self, w: &mut Writer, width: usize) {
        let wg = self.cfg.row_group_size;
        let split = self.direction == Direction::Inverse && self.layout == Layout::Mallat;
        let shift = self.pre_shifted() && self.direction == Direction::Forward;
        w.comment(if shift {
            "Load both phases of the segment and its margins (pairs of consecutive work-items), pre-shifted."
        } else {
            "Load both phases of the segment and its margins (pairs of consecutive work-items)."
        });
        w.block(
            format!("for (int j = lid; j < {}; j += {wg})", 2 * width),
            |w| {
                w.line("const int q = j & 1;");
                w.line("const int m = m0 + (j >> 1);");
                w.block("if (m >= 0 && m < (q == 0 ? n_even : n_odd))", |w| {
                    let load =
                        format!("to_work(in[({}) * sample_step])", self.segment_place(split));
                    let load = if shift {
                        format!("pre_shift({load})")
                    } else {
                        load
                    };
                    w.line(format!("const {} x = {load};", self.work()));
                    w.block("if (q == 0)", |w| w.line("even[j >> 1] = x;"));
                    w.block("else", |w| w.line("odd[j >> 1] = x;"));
                });
            },
        );
    }

    fn segments_store(&self, w: &mut Writer, segment: usize, margin: usize) {
        let wg = self.cfg.row_group_size;
        let split = self.direction == Direction::Forward && self.layout == Layout::Mallat;
        let undo = self.pre_shifted() && self.direction == Direction::Inverse;
        w.comment(if undo {
            "Store the segment, undoing the pre-shift."
        } else {
            "Store the segment."
        });
        w.block(
            format!("for (int j = lid; j < {}; j += {wg})", 2 * segment),
            |w| {
                w.line("const int q = j & 1;");
                w.line(format!("const int l = {margin} + (j >> 1);"));
                w.line("const int m = m0 + l;");
                w.block("if (m < (q == 0 ? n_even : n_odd))", |w| {
                    w.line(format!(
                        "const {} x = q == 0 ? even[l] : odd[l];",
                        self.work()
                    ));
                    let x = if undo { "undo_pre_shift(x)" } else { "x" };
                    w.line(format!(
                        "out[({}) * sample_step] = to_elem({x});",
                        self.segment_place(split)
                    ));
                });
            },
        );
    }
}
