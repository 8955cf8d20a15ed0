//! The pyramid kernel: two or three levels of a 2-D transform in one launch, for programs whose
//! every step reads only its own (even, odd) pair (Haar and the like: no halo, no boundary rule
//! on bands of even sizes). Each work-item holds one column of a block of `2^depth` rows in
//! registers and lifts along y there; along x it trades values with the work-item `2^level`
//! columns away through local memory. A forward reads the band once and writes every level's
//! high subbands and the last level's low band once: the levels between never pass through
//! global memory, where the per-level plan writes each low band and reads it back in a launch
//! of its own (Quan and Jeong's multi-level Haar in registers, section III).

use dwt_ir::{Direction, Op, Phase, Program};

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

/// The kernel's `int` parameters after the band's `rows` and `cols`: where the natural samples
/// and the last level's low band are, the high subbands' row step, then per level the bases of
/// subbands (0, 1), (1, 0) and (1, 1) (Mallat: row-major, one element apart along x).
const ADDRESSING: [&str; 5] = [
    "nat_base",
    "nat_row_step",
    "low_base",
    "low_row_step",
    "high_row_step",
];
const HIGH_BASES: [[&str; 3]; PYRAMID_MAX_DEPTH as usize] = [
    ["h0_01", "h0_10", "h0_11"],
    ["h1_01", "h1_10", "h1_11"],
    ["h2_01", "h2_10", "h2_11"],
];

impl Emitter<'_> {
    /// The pyramid kernel `name` over `depth` levels (Mallat layout).
    pub(crate) fn pyramid(&self, w: &mut Writer, name: &str, depth: u32) {
        let d = self.d;
        let forward = self.direction == Direction::Forward;
        let rows = 1usize << depth;
        let threads = PYRAMID_THREADS;
        let (nat, low, high) = if forward {
            (
                Param::Input("nat", self.elem),
                Param::Global("low", self.elem),
                Param::Global("high", self.elem),
            )
        } else {
            (
                Param::Global("nat", self.elem),
                Param::Input("low", self.elem),
                Param::Input("high", self.elem),
            )
        };
        let mut params = vec![nat, low, high, Param::Int("rows"), Param::Int("cols")];
        params.extend(ADDRESSING.map(Param::Int));
        for level in &HIGH_BASES[..depth as usize] {
            params.extend(level.map(Param::Int));
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
            "Each level's high subbands are stored once lifted, the last level's low band with them."
        } else {
            "Every level's subbands are loaded first, the natural samples stored at the end."
        });
        let sig = d.kernel_signature(name, &params, [threads, 1, 1], true);
        self.kernel_block(w, sig, |w| {
            // One region of the exchange per level, so that a level's writes never meet the
            // reads of the level before: one barrier per level.
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
                    self.pyramid_bands(w, level, depth, rows, true);
                    region += rows >> level;
                }
            } else {
                for level in 0..depth {
                    self.pyramid_bands(w, level, depth, rows, false);
                }
                let mut region: usize = (0..depth).map(|l| rows >> l).sum();
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

    /// The forward's stores of level `level`'s subbands (and, at the last level, of its low
    /// band), or the inverse's loads of them, between registers and their Mallat places: at
    /// band row `(y0 + r) >> (level + 1)` and column `x >> (level + 1)`, subband (0, 1) and
    /// (1, 1) held by the odd work-items of the level, (1, 0) and the low band by the even.
    fn pyramid_bands(&self, w: &mut Writer, level: u32, depth: u32, rows: usize, store: bool) {
        let s = 1usize << level;
        let [h01, h10, h11] = HIGH_BASES[level as usize];
        let last = level + 1 == depth;
        w.comment(format!(
            "Level {level}'s subbands {} their places.",
            if store { "to" } else { "from" }
        ));
        let col = format!("(x >> {})", level + 1);
        let access = |w: &mut Writer, buffer: &str, base: &str, row_step: &str, r: usize| {
            let at = format!(
                "{buffer}[{base} + ((y0 + {r}) >> {}) * {row_step} + {col}]",
                level + 1
            );
            if store {
                w.line(format!("{at} = to_elem(v{r});"));
            } else {
                w.line(format!("v{r} = to_work({at});"));
            }
        };
        let mask = 2 * s - 1;
        w.block(format!("if (inside && (x & {mask}) == {s})"), |w| {
            for r in (0..rows).step_by(2 * s) {
                access(w, "high", h01, "high_row_step", r);
                access(w, "high", h11, "high_row_step", r + s);
            }
        });
        w.block(format!("else if (inside && (x & {mask}) == 0)"), |w| {
            for r in (0..rows).step_by(2 * s) {
                access(w, "high", h10, "high_row_step", r + s);
                if last {
                    access(w, "low", "low_base", "low_row_step", r);
                }
            }
        });
    }

    /// The program on the pair `(e, o)` (every tap at offset 0).
    fn pyramid_pair(&self, w: &mut Writer) {
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
    fn truncated(&self, value: &str) -> String {
        match self.elem {
            dwt_ir::ElementType::I16 => format!("to_work(to_elem({value}))"),
            _ => value.to_string(),
        }
    }
}
