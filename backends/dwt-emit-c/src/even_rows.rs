//! The even-rows kernel of an interleaved forward over several levels: writes the image's even
//! rows whole, once, after every level has run. In the interleaved layout level `k`'s
//! coefficients sit `2^k` samples apart along both axes, so a level after the first that
//! stores them in place writes a part of every sector it touches, each sector again per level
//! and subband: a three-level forward took twice the Mallat layout's time at 4096^2 and 8192^2
//! (BENCHMARKS.md). The fused plan instead has the first level write the image's odd rows in
//! place (whole: subbands (1, 0) and (1, 1)) and its even rows' two subbands, its low band and
//! subband (0, 1), compact in the scratch
//! ([`TilePass::band01_with_low`](crate::TilePass::band01_with_low)); the later levels lift into
//! a Mallat form of the first level's low band in the scratch (coalesced, as the Mallat
//! layout's levels), and this kernel then writes each even row of the image: subband (0, 1) at
//! its odd columns, and at its even columns the coarser levels' coefficients, gathered from
//! their Mallat form.

use crate::dialect::Param;
use crate::emit::Emitter;
use crate::writer::Writer;

/// Work-items per group of the even-rows kernel, one group per row and 256 pairs of columns.
pub const EVEN_ROWS_THREADS: usize = 256;

/// The fewest samples of an image whose interleaved forward the planner ends with the even
/// rows by default ([`LaunchConfig::even_rows_from`](crate::LaunchConfig::even_rows_from)): a
/// 3840x2160 frame, where the long filters' tiles begin too
/// ([`LONG_FILTER_PLANE`](crate::LONG_FILTER_PLANE); on the configured tiles Fidelity's
/// first-level variant spills under the register cap). Measured on an H100 (two and three
/// levels, against each level storing in place): 0.82-0.91 of the time at 2880^2 (as many
/// samples), about 0.66-0.79 at 4096^2 and 8192^2 (two A/Bs chained); at 2048^2 0.97-1.00 but
/// Fidelity 1.05-1.06, and
/// at 1920x1080 1.07-1.23, where the extra launch costs more than the sectors save
/// (BENCHMARKS.md).
pub const EVEN_ROWS_MIN_SAMPLES: usize = crate::LONG_FILTER_PLANE;

/// The `int` parameters after the buffers: the first level's low band (`low_rows` x
/// `low_cols`, the image's even rows and columns), the image's width (its rows are `2 * cols`
/// apart from the data's origin, the even ones), where the Mallat form of the coarser levels is
/// and where the first level's subband (0, 1) is (both in `coarse`, rows `low_cols` apart), and
/// how many levels the Mallat form holds (one or more).
pub(crate) const EVEN_ROWS_INTS: [&str; 6] = [
    "low_rows",
    "low_cols",
    "cols",
    "coarse_base",
    "band01_base",
    "levels",
];

impl Emitter<'_> {
    /// The even-rows kernel `name`: work-item `i` of group `(gx, gy)` writes the pair of
    /// columns `2 * (gx * 256 + i)` and the next of even row `gy` of the image at `data`,
    /// reading `coarse` alone: the coarser levels there as a band of `low_rows` x `low_cols` in
    /// the Mallat layout (rows `low_cols` apart), the first level's subband (0, 1) with the same
    /// row step.
    pub(crate) fn even_rows(&self, w: &mut Writer, name: &str) {
        let d = self.d;
        let threads = EVEN_ROWS_THREADS;
        let params: Vec<Param> = [
            Param::Global("data", self.elem),
            Param::Input("coarse", self.elem),
        ]
        .into_iter()
        .chain(EVEN_ROWS_INTS.map(Param::Int))
        .collect();
        w.comment(
            "Interleaved forward, after every level: the image's even rows written whole, the odd",
        );
        w.comment("columns the first level's subband (0, 1), the even columns the coarser levels'");
        w.comment(
            "coefficients, gathered from their Mallat form over the first level's low band; a",
        );
        w.comment("work-item per (even, odd) pair, stored as one vector where the data is aligned for it.");
        let sig = d.kernel_signature(name, &params, [threads, 1, 1], false);
        self.kernel_block(w, sig, |w| {
            w.line(format!(
                "const int c = {} * {threads} + {};",
                d.group_id(0),
                d.local_id(0)
            ));
            w.line(format!("const int r = {};", d.group_id(1)));
            w.line("if (c >= low_cols) return;");
            w.comment("The level of the low band's transform that sample (r, c) belongs to: the most");
            w.comment("trailing zero bits r and c share, the last level's low band at `levels`.");
            w.line("int j = 0;");
            w.line("while (j < levels && (((r | c) >> j) & 1) == 0) j++;");
            w.line("int row = r >> j, col = c >> j;");
            w.block("if (j < levels)", |w| {
                w.line("const int py = row & 1, px = col & 1;");
                w.comment("Subband (py, px) of that level: past the low half of its band along each odd axis.");
                w.line("const int h = ((low_rows - 1) >> j) + 1, wd = ((low_cols - 1) >> j) + 1;");
                w.line("row = (row >> 1) + py * ((h + 1) >> 1);");
                w.line("col = (col >> 1) + px * ((wd + 1) >> 1);");
            });
            let storage = d.storage_type(self.elem);
            w.line(format!(
                "const {storage} even = coarse[coarse_base + row * low_cols + col];"
            ));
            w.line("const int at = 2 * (r * cols + c);");
            w.comment("An odd width leaves the last pair its even column alone.");
            w.block("if (2 * c + 1 == cols)", |w| {
                w.line("data[at] = even;");
                w.line("return;");
            });
            w.line(format!(
                "const {storage} odd = coarse[band01_base + r * low_cols + c];"
            ));
            let pair = d.store_pair(self.elem, "data", "at", "even", "odd");
            match d.pair_aligned(self.elem, "data") {
                Some(aligned) => {
                    w.block(format!("if ({aligned})"), |w| w.line(&pair));
                    w.block("else", |w| {
                        w.line("data[at] = even;");
                        w.line("data[at + 1] = odd;");
                    });
                }
                None => w.line(pair),
            }
        });
    }
}
