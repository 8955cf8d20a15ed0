//! The pyramid kernel: two or three levels of a 2-D transform in one launch, for programs whose
//! every step reads only its own (even, odd) pair (Haar and the like: no halo, no boundary rule
//! on bands of even sizes). Each work-item holds one column of a block of `2^depth` rows in
//! registers and lifts along y there; along x it trades values with the work-item `2^level`
//! columns away through local memory. A forward reads the band once and writes every level's
//! high subbands and the last level's low band once: the levels between never pass through
//! global memory, where the per-level plan writes each low band and reads it back in a launch
//! of its own (Quan and Jeong fuse a multi-level Haar into one launch likewise, section 3.2, into
//! their mixed-band layout). In the Mallat layout the subbands move through local memory in
//! coalesced rounds; in the interleaved layout a block's registers are its coefficients' places,
//! so each work-item stores its own column.

use dwt_ir::{Direction, Layout, Op, Phase, Program};

use crate::dialect::Param;
use crate::emit::Emitter;
use crate::writer::Writer;

/// Work-items per group of the pyramid kernels (one column each). 128 divides the widths of the
/// usual frames (1920, 4096, 8192), so that no group straddles a row's end.
pub const PYRAMID_THREADS: usize = 128;

/// The most levels one pyramid kernel lifts: a block of 8x8 samples, 8 registers per work-item.
pub const PYRAMID_MAX_DEPTH: u32 = 3;

/// A pyramid kernel of a module: `kernel` lifts `depth` levels of bands whose height and width
/// are multiples of `2^depth`, in groups of [`PYRAMID_THREADS`] work-items along x.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyramidPass {
    pub kernel: String,
    pub depth: u32,
}

/// Whether every step of `program` reads only the sample of its own pair (taps at offset 0 only):
/// such a program lifts a block of `2^k x 2^k` samples through `k` levels without its neighbours.
pub fn pair_local(program: &Program) -> bool {
    program.ops.iter().all(|op| match op {
        Op::Lift(step) => step.offsets() == (0, 0),
        Op::Scale { .. } => true,
    })
}

/// The Mallat kernels' `int` parameters after the band's `cols` (its rows are the grid's): where the natural
/// samples and the last level's low band are, the high subbands' row step, then per level the
/// bases of subbands (0, 1), (1, 0) and (1, 1) (row-major, one element apart along x).
const ADDRESSING: [&str; 5] = [
    "nat_base",
    "nat_row_step",
    "low_base",
    "low_row_step",
    "high_row_step",
];
/// The interleaved kernels' `int` parameters after `cols`: the natural samples, the
/// last level's low band (compact, for the next launch) and the band's coefficients in place,
/// every sample `high_col_step` apart along x (`2^level` of the band's first level).
const INTERLEAVED_ADDRESSING: [&str; 8] = [
    "nat_base",
    "nat_row_step",
    "low_base",
    "low_col_step",
    "low_row_step",
    "high_base",
    "high_col_step",
    "high_row_step",
];
const HIGH_BASES: [[&str; 3]; PYRAMID_MAX_DEPTH as usize] = [
    ["h0_01", "h0_10", "h0_11"],
    ["h1_01", "h1_10", "h1_11"],
    ["h2_01", "h2_10", "h2_11"],
];

impl Emitter<'_> {
    /// The pyramid kernel `name` over `depth` levels.
    pub(crate) fn pyramid(&self, w: &mut Writer, name: &str, depth: u32) {
        let d = self.d;
        let forward = self.direction == Direction::Forward;
        let rows = 1usize << depth;
        let threads = PYRAMID_THREADS;
        let mallat = self.layout == Layout::Mallat;
        let mut params = self.nat_low_high().to_vec();
        params.push(Param::Int("cols"));
        if mallat {
            params.extend(ADDRESSING.map(Param::Int));
            for level in &HIGH_BASES[..depth as usize] {
                params.extend(level.map(Param::Int));
            }
        } else {
            params.extend(INTERLEAVED_ADDRESSING.map(Param::Int));
        }
        w.comment(format!(
            "Pyramid pass: {depth} levels of a pair-local program in one launch, on bands whose sides are"
        ));
        w.comment(format!(
            "multiples of {rows}. A work-item holds one column of {rows} rows in registers (v0..v{}) and lifts",
            rows - 1
        ));
        w.comment("along y there; along x, at level l, it trades with the work-item 2^l columns away through");
        w.comment("local memory. Level l lifts the work-items whose column is a multiple of 2^l.");
        w.comment(if forward {
            "Natural samples are loaded first; every level's subbands are stored at the end."
        } else {
            "Every level's subbands are loaded first; natural samples are stored at the end."
        });
        let sig = d.kernel_signature(name, &params, [threads, 1, 1], true);
        self.kernel_block(w, sig, |w| {
            // One region of the exchange per level, so that a level's writes never meet the
            // reads of the level before: one barrier per level. Level 0's region (the first
            // `rows` rows) also stages the subbands (`pyramid_staged`).
            let exchanged: usize = (0..depth).map(|l| rows >> l).sum();
            w.line(d.local_array(self.work(), "ex", &[exchanged, threads]));
            w.line(format!("const int lx = {};", d.local_id(0)));
            w.line(format!("const int x = {} * {threads} + lx;", d.group_id(0)));
            w.line(format!("const int y0 = {} * {rows};", d.group_id(1)));
            w.comment("Columns past the band's end take part in the exchanges only.");
            w.line("const int inside = x < cols;");
            let regs: Vec<String> = (0..rows).map(|r| format!("v{r}")).collect();
            w.line(format!("{} {} = 0;", self.work(), regs.join(" = 0, ")));
            if forward {
                w.block("if (inside)", |w| {
                    for (r, v) in regs.iter().enumerate() {
                        w.line(format!(
                            "{v} = to_work(nat[nat_base + (y0 + {r}) * nat_row_step + x]);"
                        ));
                    }
                });
                let mut region = 0;
                for level in 0..depth {
                    self.pyramid_rows(w, level, rows, region);
                    self.pyramid_columns(w, level, rows);
                    region += rows >> level;
                }
                match mallat {
                    true => self.pyramid_staged(w, depth, true),
                    false => self.pyramid_in_place(w, depth, true),
                }
            } else {
                match mallat {
                    true => self.pyramid_staged(w, depth, false),
                    false => self.pyramid_in_place(w, depth, false),
                }
                let mut region = exchanged;
                for level in (0..depth).rev() {
                    region -= rows >> level;
                    self.pyramid_columns(w, level, rows);
                    self.pyramid_rows(w, level, rows, region);
                }
                w.block("if (inside)", |w| {
                    for (r, v) in regs.iter().enumerate() {
                        w.line(format!(
                            "nat[nat_base + (y0 + {r}) * nat_row_step + x] = to_elem({v});"
                        ));
                    }
                });
            }
        });
    }

    /// The interleaved layout's coefficients between registers and their places: each
    /// work-item's column of the block in place (coalesced along x on level 0's band), and the
    /// last level's low band also at `low`, where the next launch reads it (the forward) or
    /// where the coarser one left it (the inverse).
    fn pyramid_in_place(&self, w: &mut Writer, depth: u32, store: bool) {
        let rows = 1usize << depth;
        w.comment(format!(
            "The block's coefficients {} their places in the band (interleaved), the low band's {} `low`.",
            if store { "to" } else { "from" },
            if store { "also to" } else { "from" }
        ));
        let at =
            |r: usize| format!("high[high_base + (y0 + {r}) * high_row_step + x * high_col_step]");
        let low = format!(
            "low[low_base + (y0 >> {depth}) * low_row_step + (x >> {depth}) * low_col_step]"
        );
        w.block("if (inside)", |w| {
            for r in 0..rows {
                w.line(match store {
                    true => format!("{} = to_elem(v{r});", at(r)),
                    false => format!("v{r} = to_work({});", at(r)),
                });
            }
            w.block(format!("if ((x & {}) == 0)", rows - 1), |w| {
                w.line(match store {
                    true => format!("{low} = to_elem(v0);"),
                    false => format!("v0 = to_work({low});"),
                })
            });
        });
    }

    /// The block's subbands between registers and their places through the exchange's first
    /// `2^depth` rows, in rounds of [`PYRAMID_THREADS`] coalesced accesses: in round k
    /// work-item `lx` moves coefficient `k * PYRAMID_THREADS + lx` of the block's runs
    /// ([`runs`]), so that every warp reads or writes one run of a subband row. A work-item
    /// moving its own registers' coefficients would read (inverse) or write (forward) runs of
    /// half, a quarter, an eighth of a warp per instruction, 22 partial accesses per warp
    /// instead of 8.
    fn pyramid_staged(&self, w: &mut Writer, depth: u32, store: bool) {
        let d = self.d;
        let rows = 1usize << depth;
        let threads = PYRAMID_THREADS;
        let runs = runs(depth);
        w.comment(format!(
            "The block's subbands {} their places in {rows} rounds of {threads} coalesced accesses through the exchange.",
            if store { "to" } else { "from" }
        ));
        w.line(format!("const int x0 = {} * {threads};", d.group_id(0)));
        // `body(w, run)` for the work-items of each run of round `k`, `j` the run's index.
        let per_run = |w: &mut Writer, k: usize, body: &dyn Fn(&mut Writer, &Run)| {
            let round: Vec<&Run> = (runs.iter()).filter(|r| r.start / threads == k).collect();
            for (i, run) in round.iter().enumerate() {
                let start = run.start % threads;
                let end = start + run.width;
                let open = match (i, end == threads) {
                    (0, true) => String::new(),
                    (0, false) => format!("if (lx < {end})"),
                    (_, true) => "else".to_string(),
                    (_, false) => format!("else if (lx < {end})"),
                };
                w.block(open, |w| {
                    w.line(format!("const int j = lx - {start};"));
                    body(w, run)
                });
            }
        };
        let global = |run: &Run| {
            let shift = run.level + 1;
            let (buffer, base, row_step) = match run.band {
                None => ("low", "low_base", "low_row_step"),
                Some(b) => ("high", HIGH_BASES[run.level as usize][b], "high_row_step"),
            };
            (
                format!("(x0 >> {shift}) + j < (cols >> {shift})"),
                format!(
                    "{buffer}[{base} + ((y0 >> {shift}) + {}) * {row_step} + (x0 >> {shift}) + j]",
                    run.row
                ),
            )
        };
        let local = |run: &Run| {
            let s = 1usize << run.level;
            let [py, px] = run.parity();
            format!(
                "ex[{}][j * {} + {}]",
                run.row * 2 * s + py * s,
                2 * s,
                px * s
            )
        };
        if store {
            for (r, v) in (0..rows).map(|r| (r, format!("v{r}"))) {
                w.line(format!("ex[{r}][lx] = {v};"));
            }
            w.line(d.barrier());
            for k in 0..rows {
                per_run(w, k, &|w, run| {
                    let (inside, at) = global(run);
                    w.block(format!("if ({inside})"), |w| {
                        w.line(format!("{at} = to_elem({});", local(run)))
                    });
                });
            }
        } else {
            // Every round's load first, then the exchange: a load's value stored at once
            // would hold the work-item for a memory latency per round.
            let temps: Vec<String> = (0..rows).map(|k| format!("t{k}")).collect();
            w.line(format!("{} {} = 0;", self.work(), temps.join(" = 0, ")));
            for (k, t) in temps.iter().enumerate() {
                per_run(w, k, &|w, run| {
                    let (inside, at) = global(run);
                    w.block(format!("if ({inside})"), |w| {
                        w.line(format!("{t} = to_work({at});"))
                    });
                });
            }
            for (k, t) in temps.iter().enumerate() {
                per_run(w, k, &|w, run| w.line(format!("{} = {t};", local(run))));
            }
            w.line(d.barrier());
            for r in 0..rows {
                w.line(format!("v{r} = ex[{r}][lx];"));
            }
        }
    }

    /// `body` for the work-items that lift level `level`: those whose column is a multiple of
    /// `2^level` (every one at level 0).
    fn pyramid_lifting(level: u32, w: &mut Writer, body: impl FnOnce(&mut Writer)) {
        match level {
            0 => w.block("", body),
            _ => w.block(format!("if ((x & {}) == 0)", (1 << level) - 1), body),
        }
    }

    /// Level `level` along x: the registers of the level's rows (every `2^level`-th) trade with
    /// the work-item `2^level` columns away in region `region` of the exchange, and each
    /// work-item lifts its pair and keeps its own phase. The forward pre-shifts the band first;
    /// the inverse undoes the pre-shift after, as the CPU reference does per level.
    fn pyramid_rows(&self, w: &mut Writer, level: u32, rows: usize, region: usize) {
        let d = self.d;
        let forward = self.direction == Direction::Forward;
        let s = 1usize << level;
        let lifted: Vec<usize> = (0..rows).step_by(s).collect();
        w.comment(format!(
            "Level {level} along x: rows {lifted:?} pair with the work-item {s} columns away."
        ));
        let shifted = self.pre_shifted();
        if forward && shifted {
            Self::pyramid_lifting(level, w, |w| {
                for &r in &lifted {
                    w.line(format!("v{r} = pre_shift(v{r});"));
                }
            });
        }
        for (i, &r) in lifted.iter().enumerate() {
            w.line(format!("ex[{}][lx] = v{r};", region + i));
        }
        w.line(d.barrier());
        Self::pyramid_lifting(level, w, |w| {
            w.line(format!("const int odd = (x & {s}) != 0;"));
            for (i, &r) in lifted.iter().enumerate() {
                w.block("", |w| {
                    w.line(format!(
                        "const {} p = ex[{}][lx ^ {s}];",
                        self.work(),
                        region + i
                    ));
                    w.line(format!(
                        "{} e = odd ? p : v{r}, o = odd ? v{r} : p;",
                        self.work()
                    ));
                    self.pyramid_pair(w);
                    w.line(format!("v{r} = {};", self.truncated("odd ? o : e")));
                });
            }
            if !forward && shifted {
                for &r in &lifted {
                    w.line(format!("v{r} = undo_pre_shift(v{r});"));
                }
            }
        });
    }

    /// Level `level` along y: rows `r` and `r + 2^level` of the lifting work-items (`r` a
    /// multiple of `2^(level + 1)`) are a pair, in registers.
    fn pyramid_columns(&self, w: &mut Writer, level: u32, rows: usize) {
        let s = 1usize << level;
        w.comment(format!(
            "Level {level} along y: rows r and r + {s} are a pair."
        ));
        Self::pyramid_lifting(level, w, |w| {
            for r in (0..rows).step_by(2 * s) {
                w.block("", |w| {
                    w.line(format!("{} e = v{r}, o = v{};", self.work(), r + s));
                    self.pyramid_pair(w);
                    w.line(format!("v{r} = {};", self.truncated("e")));
                    w.line(format!("v{} = {};", r + s, self.truncated("o")));
                });
            }
        });
    }

    /// The program on the pair `(e, o)` (every tap at offset 0).
    pub(crate) fn pyramid_pair(&self, w: &mut Writer) {
        let var = |p: Phase| match p {
            Phase::Even => "e",
            Phase::Odd => "o",
        };
        for op in self.ops {
            match op {
                Op::Lift(step) => {
                    let source = var(step.source());
                    w.block("", |w| {
                        self.step_body(w, step, var(step.target), &|_| source.to_string(), true)
                    });
                }
                Op::Scale { low, high } => {
                    w.line(format!("e = {};", self.mul(&self.coeff(*low), "e")));
                    w.line(format!("o = {};", self.mul(&self.coeff(*high), "o")));
                }
            }
        }
    }

    /// `value`, stored as the element type and read back where that loses bits (i16), as the
    /// CPU reference stores each pass's results.
    pub(crate) fn truncated(&self, value: &str) -> String {
        match self.elem {
            dwt_ir::ElementType::I16 => format!("to_work(to_elem({value}))"),
            _ => value.to_string(),
        }
    }
}

/// A run of a block's coefficients in global memory: `width` samples of row `row` (of the
/// block's rows in the band) of level `level`'s subband `band` (an index into
/// [`HIGH_BASES`]: (0, 1), (1, 0), (1, 1)) or, for `None`, of the last level's low band, at
/// `start` in the order the staged rounds move them.
struct Run {
    level: u32,
    band: Option<usize>,
    row: usize,
    width: usize,
    start: usize,
}

impl Run {
    /// The run's `[y, x]` parity in its level: where its samples sit in the block, whose rows
    /// and columns of level `l` are `2^l` apart.
    fn parity(&self) -> [usize; 2] {
        match self.band {
            None => [0, 0],
            Some(b) => [[0, 1], [1, 0], [1, 1]][b],
        }
    }
}

/// The runs of a pyramid block of `2^depth` rows by [`PYRAMID_THREADS`] columns, in the order
/// the staged rounds move them: level by level, subband by subband, row by row, the low band
/// last. Their widths (half the block's width at level 0, halving per level) fall to widths that
/// each run's start is a multiple of, so no run straddles a round.
fn runs(depth: u32) -> Vec<Run> {
    let rows = 1usize << depth;
    let mut runs = Vec::new();
    let mut start = 0;
    let mut push = |level: u32, band: Option<usize>, count: usize| {
        let width = PYRAMID_THREADS >> (level + 1);
        for row in 0..count {
            runs.push(Run {
                level,
                band,
                row,
                width,
                start,
            });
            start += width;
        }
    };
    for level in 0..depth {
        for band in 0..3 {
            push(level, Some(band), rows >> (level + 1));
        }
    }
    push(depth - 1, None, 1);
    runs
}
