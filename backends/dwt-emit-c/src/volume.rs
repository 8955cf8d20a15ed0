//! The one-pass volume kernel: the first level of a 3-D forward in one launch, the depth lifting
//! in registers, for programs of two two-tap symmetric steps (a predict from `even[0]`,
//! `even[1]`, then an update from `odd[-1]`, `odd[0]`, each of one coefficient: LeGall 5/3,
//! CDF 5/3) in 4-byte samples, in CUDA (shuffles and `cp.async`).
//!
//! The fused plan's other 3-D levels move the band through memory twice (the tile kernel on
//! every x-y plane, then the depth pass). Here each group owns an x-y tile of
//! [`VOLUME_TILE`] samples and a segment of [`VOLUME_SEGMENT`] planes (with two planes of margin
//! before it and one after where the volume goes on). Per plane the tile and its halo arrive by
//! `cp.async` into one of three buffers (two planes in flight, in 16-byte chunks where the tile
//! lies inside the rows); half a warp lifts each row from 16-byte reads, neighbours by shuffles;
//! each work-item lifts a column segment of [`VOLUME_COLUMN`] samples in registers, and those
//! samples are its own along z: the depth steps run in registers, with no barrier, and each
//! finished sample goes to its subband place. The halo is loaded reflected at the volume's
//! edges, which for such steps is the clamp rule and whole-sample symmetry alike. A hand-written
//! LeGall 5/3 form of this kernel took 0.58 of the two passes' time at 512^3 on an H200
//! (BENCHMARKS.md).

use dwt_ir::{Boundary, Coeff, ElementType, Layout, Op, Phase, Program, Step};

use crate::dialect::Param;
use crate::emit::Emitter;
use crate::writer::Writer;

/// Samples along x and y of a group's tile.
pub const VOLUME_TILE: [usize; 2] = [64, 32];
/// Work-items per group.
pub const VOLUME_THREADS: usize = 256;
/// Planes per group (segments of a volume's depth).
pub const VOLUME_SEGMENT: usize = 32;
/// Samples of a column a work-item lifts along y and keeps along z.
pub const VOLUME_COLUMN: usize = 8;
/// Groups a multiprocessor holds (the register budget: 80 a work-item).
const GROUPS_PER_MULTIPROCESSOR: usize = 3;
/// The halo loaded before the tile along x (a 16-byte chunk) and on either side along y.
const HALO_X: usize = 4;
const HALO_Y: usize = 2;
/// Planes of the tile in local memory at once: one lifted while two are in flight.
const STAGES: usize = 3;

/// The one-pass volume kernel of a module ([`crate::KernelModule::volume`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VolumePass {
    pub kernel: String,
}

/// The predict and the update of `program` where the one-pass kernel lifts it (see the module
/// doc), with the scale after them if any; `None` otherwise. The predict (odd) reads `even[0]`
/// and `even[1]`, the update (even) `odd[-1]` and `odd[0]`, each with one coefficient: steps
/// symmetric about their target, which keep a whole-sample symmetric line symmetric, so that
/// the halo loaded reflected at a line's ends lifts to what the clamp rule and whole-sample
/// symmetry read (LeGall 5/3, CDF 5/3). A one-tap step (Haar's) is not: at an odd length the
/// reflected halo's lifted value is not the clamped one. Periodic lines are not reflected.
pub(crate) fn two_tap_steps(program: &Program, boundary: Boundary) -> Option<[&Step; 2]> {
    if boundary == Boundary::Periodic {
        return None;
    }
    let (predict, update) = match &program.ops[..] {
        [Op::Lift(p), Op::Lift(u)] | [Op::Lift(p), Op::Lift(u), Op::Scale { .. }] => (p, u),
        _ => None?,
    };
    let symmetric = |s: &Step, target: Phase| {
        let first = reads_from(target);
        let terms: Vec<(i32, Coeff)> = s.taps.terms().collect();
        s.target == target
            && terms.len() == 2
            && terms[0].0 == first
            && terms[1].0 == first + 1
            && terms[0].1 == terms[1].1
    };
    (symmetric(predict, Phase::Odd) && symmetric(update, Phase::Even)).then_some([predict, update])
}

/// The nearer of the two source offsets a step of `target` may read: `even[0]` for an odd
/// target, `odd[-1]` for an even one.
fn reads_from(target: Phase) -> i32 {
    match target {
        Phase::Odd => 0,
        Phase::Even => -1,
    }
}

/// Whether modules of `elem` take the kernel: 16-byte chunks of 4-byte samples.
pub(crate) fn volume_element(elem: ElementType) -> bool {
    matches!(elem, ElementType::I32 | ElementType::F32)
}

impl Emitter<'_> {
    /// The one-pass volume kernel `name` (see the module doc): `(src, dst, depth, rows, cols,
    /// segment)`, the volume contiguous (`cols` samples a row, `rows * cols` a plane), `dst`
    /// another buffer than `src`; groups `[cols / 64, rows / 32, depth / segment]` (rounded up)
    /// of [`VOLUME_THREADS`].
    pub(crate) fn volume(&self, w: &mut Writer, name: &str, [predict, update]: [&Step; 2]) {
        let d = self.d;
        let t = d.storage_type(self.elem);
        let vec4 = format!("{t}4");
        let [tx, ty] = VOLUME_TILE;
        let sy = VOLUME_COLUMN;
        let (lx, ly) = (tx + 2 * HALO_X, ty + 2 * HALO_Y);
        let pitch = lx;
        let chunks = lx / 4;
        let threads = VOLUME_THREADS;
        assert_eq!(tx, 64, "half a warp lifts a row of 64 along x");
        assert_eq!(
            threads / tx * sy,
            ty,
            "the columns' segments cover the tile"
        );
        let shift = self.pre_shifted();
        let load = |x: &str| match shift {
            true => format!("pre_shift({x})"),
            false => x.to_string(),
        };
        let [ex, ey] = [HALO_X, HALO_Y];
        w.comment(format!(
            "One-pass volume kernel: the first level of a 3-D forward, a group per {tx}x{ty} x-y tile and"
        ));
        w.comment(
            "`segment` planes (two of margin before, one after, where the volume goes on). Per plane the",
        );
        w.comment(format!(
            "tile and its halo ({ex} before and after along x, {ey} along y, reflected at the volume's edges)"
        ));
        w.comment(format!(
            "arrive by cp.async into one of {STAGES} buffers, half a warp lifts each row from 16-byte reads,"
        ));
        w.comment(format!(
            "and each work-item lifts {sy} samples of a column in registers and keeps them along z: the"
        ));
        w.comment(
            "depth steps run in registers, each finished sample stored to its subband place.",
        );
        let sig = d
            .kernel_signature(
                name,
                &[
                    Param::Input("src", self.elem),
                    Param::Global("dst", self.elem),
                    Param::Int("depth"),
                    Param::Int("rows"),
                    Param::Int("cols"),
                    Param::Int("segment"),
                ],
                [threads, 1, 1],
                false,
            )
            .replace(
                &format!("__launch_bounds__({threads})"),
                &format!("__launch_bounds__({threads}, {GROUPS_PER_MULTIPROCESSOR})"),
            );
        self.kernel_block(w, sig, |w| {
            w.line(format!(
                "__shared__ __align__(16) {t} tile[{STAGES}][{}];",
                ly * pitch
            ));
            w.line(format!("__shared__ __align__(16) {t} rowsx[{ly}][{tx}];"));
            w.line("const int tid = (int)threadIdx.x, lane = tid & 31, warp = tid >> 5;");
            w.line(format!(
                "const int x0 = (int)blockIdx.x * {tx}, y0 = (int)blockIdx.y * {ty};"
            ));
            w.line("const int seg_lo = (int)blockIdx.z * segment, seg_hi = min(seg_lo + segment, depth);");
            w.line("const int r0 = max(seg_lo - 2, 0), r1 = min(seg_hi + 1, depth);");
            w.line("const size_t plane = (size_t)rows * cols;");
            w.comment("Each work-item's loads, the same places in every plane: rows warp, warp + 8, ...");
            w.comment("of the tile, columns lane, lane + 32, ... (reflected at the volume's edges).");
            let (colq, rowq) = (lx.div_ceil(32), ly.div_ceil(threads / 32));
            w.line(format!("int gxo[{colq}], gyo[{rowq}];"));
            w.line("#pragma unroll");
            w.line(format!(
                "for (int q = 0; q < {colq}; ++q) gxo[q] = volume_reflect(x0 - {ex} + lane + 32 * q, cols);"
            ));
            w.line("#pragma unroll");
            w.line(format!(
                "for (int q = 0; q < {rowq}; ++q) gyo[q] = volume_reflect(y0 - {ey} + warp + {} * q, rows) * cols;",
                threads / 32
            ));
            w.comment("Chunks of 16 bytes where the tile's rows lie inside the volume's and are aligned.");
            w.line(format!(
                "const int inner_x = (cols & 3) == 0 && x0 >= {ex} && x0 - {ex} + {lx} <= cols && ((unsigned long long)src & 15) == 0;"
            ));
            w.block("auto load = [&](int p, int b)", |w| {
                w.line(format!("const {t}* sp = src + (size_t)p * plane;"));
                w.line(format!("{t}* tb = tile[b];"));
                w.block("if (inner_x)", |w| {
                    w.block(
                        format!("for (int s = tid; s < {}; s += {threads})", ly * chunks),
                        |w| {
                            w.line(format!(
                                "const int ly = s / {chunks}, cx = s - ly * {chunks};"
                            ));
                            w.line(format!(
                                "volume_copy16(&tb[ly * {pitch} + 4 * cx], sp + (size_t)volume_reflect(y0 - {ey} + ly, rows) * cols + x0 - {ex} + 4 * cx);"
                            ));
                        },
                    );
                });
                w.block("else", |w| {
                    w.line("#pragma unroll");
                    w.block(format!("for (int qy = 0; qy < {rowq}; ++qy)"), |w| {
                        w.line(format!("const int ly = warp + {} * qy;", threads / 32));
                        w.block(format!("if (ly < {ly})"), |w| {
                            w.line("#pragma unroll");
                            w.block(format!("for (int qx = 0; qx < {colq}; ++qx)"), |w| {
                                w.line("const int lx = lane + 32 * qx;");
                                w.line(format!(
                                    "if (lx < {lx}) volume_copy4(&tb[ly * {pitch} + lx], sp + gyo[qy] + gxo[qx]);"
                                ));
                            });
                        });
                    });
                });
                w.line("volume_commit();");
            });
            w.line(";");
            w.comment(format!(
                "The column segment this work-item lifts along y and owns along z: {sy} samples from gy0."
            ));
            w.line(format!(
                "const int c = tid % {tx}, gx = x0 + c, gy0 = y0 + (tid / {tx}) * {sy};"
            ));
            let (mx, odd_rows) = match self.layout {
                Layout::Mallat => (
                    "(gx & 1) ? (cols + 1) / 2 + gx / 2 : gx / 2",
                    "(size_t)((rows + 1) / 2) * cols",
                ),
                Layout::Interleaved => ("gx", "(size_t)cols"),
            };
            // Where plane z lies, its parity known where the code is written.
            let mz = |z_odd: bool| match (self.layout, z_odd) {
                (Layout::Mallat, true) => "(depth + 1) / 2 + z / 2",
                (Layout::Mallat, false) => "z / 2",
                (Layout::Interleaved, _) => "z",
            };
            let row_step = match self.layout {
                Layout::Mallat => "cols",
                Layout::Interleaved => "2 * cols",
            };
            let first_row = match self.layout {
                Layout::Mallat => "gy0 / 2",
                Layout::Interleaved => "gy0",
            };
            w.line(format!("const int mx = {mx};"));
            w.line(format!(
                "{t}* const even_at = dst + (size_t)({first_row}) * cols + mx;"
            ));
            w.line(format!("const size_t odd_rows = {odd_rows};"));
            w.line(format!("const int rows_left = rows - gy0, all_rows = rows_left >= {sy}, column_in = gx < cols;"));
            let scales = self.on_write;
            if let Some((low, high)) = scales {
                w.line(format!(
                    "const {t} fx = (gx & 1) ? {} : {};",
                    self.literal(high),
                    self.literal(low)
                ));
            }
            w.line(format!("{t} E[{sy}], O[{sy}], P[{sy}];"));
            w.line("#pragma unroll");
            w.line(format!(
                "for (int j = 0; j < {sy}; ++j) E[j] = O[j] = P[j] = {};",
                self.literal(0.0)
            ));
            // Plane `z`'s stores of `v`: sample j at row gy0 + j (even rows from `even_at`, odd
            // ones `odd_rows` further), scaled where the program scales last.
            let store = |w: &mut Writer, z: &str, z_odd: bool, v: &str| {
                w.block(
                    format!("if ({z} >= seg_lo && {z} < seg_hi && column_in)"),
                    |w| {
                        w.line(format!("const int z = {z};"));
                        w.line(format!(
                            "{t}* const at = even_at + (size_t)({}) * plane;",
                            mz(z_odd)
                        ));
                        for j in 0..sy {
                            let value = match scales {
                                Some((low, high)) => {
                                    let f = |odd: bool| if odd { high } else { low };
                                    format!(
                                        "{v}[{j}] * fx * {}",
                                        self.literal(f(j % 2 == 1) * f(z_odd))
                                    )
                                }
                                None => format!("{v}[{j}]"),
                            };
                            let row = match j % 2 {
                                0 => format!("(size_t){} * {row_step}", j / 2),
                                _ => format!("odd_rows + (size_t){} * {row_step}", j / 2),
                            };
                            w.line(format!(
                                "if (all_rows || {j} < rows_left) at[{row}] = {value};"
                            ));
                        }
                    },
                );
            };
            // The predict of odd sample `target` from even samples `e0`, `e1`, and the update of
            // even `target` from odd `o_before`, `o_after`, each in a block of its own.
            let lift = |w: &mut Writer, step: &Step, target: &str, a: &str, b: &str| {
                let (before, after) = (a.to_string(), b.to_string());
                let first = reads_from(step.target);
                w.block("", |w| {
                    self.step_body(
                        w,
                        step,
                        target,
                        &|k| match k - i64::from(first) {
                            0 => before.clone(),
                            _ => after.clone(),
                        },
                        true,
                    )
                });
            };
            // The pending odd plane (P) predicted from the even one before it (E) and the next
            // (`next_even`), then E updated from the odd plane before it (O; itself where
            // `first`, the volume's start) and the new one, both stored: planes `z`.
            let depth_pair = |w: &mut Writer, first: &str, next_even: &str, z: [&str; 2]| {
                w.line(format!("const int first = {first};"));
                w.line("#pragma unroll");
                w.block(format!("for (int j = 0; j < {sy}; ++j)"), |w| {
                    w.line(format!("{t} of = P[j];"));
                    lift(w, predict, "of", "E[j]", next_even);
                    w.line(format!("const {t} below = first ? of : O[j];"));
                    lift(w, update, "E[j]", "below", "of");
                    w.line("O[j] = of;");
                });
                store(w, z[0], false, "E");
                store(w, z[1], true, "O");
            };
            w.line("#pragma unroll");
            w.block(format!("for (int k = 0; k < {}; ++k)", STAGES - 1), |w| {
                w.line("if (r0 + k < r1) load(r0 + k, k);");
                w.line("else volume_commit();");
            });
            w.comment("Planes in pairs from r0 (even): k is the plane's parity where the code is written.");
            w.block("for (int pp = r0; pp < r1; pp += 2)", |w| {
                w.line("#pragma unroll");
                w.block("for (int k = 0; k < 2; ++k)", |w| {
                    w.line("const int p = pp + k;");
                    w.line("if (p >= r1) break;");
                    w.line(format!("const int b = (p - r0) % {STAGES};"));
                    w.line(format!("volume_wait_all_but_{}();", STAGES - 2));
                    w.line(d.barrier());
                    w.line(format!("const int ahead = p + {};", STAGES - 1));
                    w.line(format!(
                        "if (ahead < r1) load(ahead, (ahead - r0) % {STAGES});"
                    ));
                    w.line("else volume_commit();");
                    w.comment("Rows: half a warp per row, lane q of the half samples 4q..4q+3, neighbours by shuffles.");
                    w.block("", |w| {
                        w.line("const int q = lane & 15;");
                        w.block(
                            format!(
                                "for (int r = 2 * warp + (lane >> 4); r < {ly}; r += {})",
                                threads / 16
                            ),
                            |w| {
                                w.line(format!("const {t}* row = &tile[b][r * {pitch}];"));
                                w.line(format!(
                                    "const {vec4} v = *reinterpret_cast<const {vec4}*>(&row[{ex} + 4 * q]);"
                                ));
                                w.line(format!(
                                    "{t} e0 = {}, o0 = {}, e1 = {}, o1 = {};",
                                    load("v.x"),
                                    load("v.y"),
                                    load("v.z"),
                                    load("v.w")
                                ));
                                w.line(format!(
                                    "{t} en = __shfl_down_sync(0xffffffffu, e0, 1, 16);"
                                ));
                                w.line(format!(
                                    "if (q == 15) en = {};",
                                    load(&format!("row[{}]", ex + tx))
                                ));
                                lift(w, predict, "o0", "e0", "e1");
                                lift(w, predict, "o1", "e1", "en");
                                w.line(format!(
                                    "{t} op = __shfl_up_sync(0xffffffffu, o1, 1, 16);"
                                ));
                                w.block("if (q == 0)", |w| {
                                    w.line(format!(
                                        "const {t} em = {};",
                                        load(&format!("row[{}]", ex - 2))
                                    ));
                                    w.line(format!("op = {};", load(&format!("row[{}]", ex - 1))));
                                    lift(w, predict, "op", "em", "e0");
                                });
                                lift(w, update, "e0", "op", "o0");
                                lift(w, update, "e1", "o0", "o1");
                                w.line(format!(
                                    "*reinterpret_cast<{vec4}*>(&rowsx[r][4 * q]) = make_{vec4}(e0, o0, e1, o1);"
                                ));
                            },
                        );
                    });
                    w.line(d.barrier());
                    w.comment(format!(
                        "Columns: {sy} samples from tile row {ey} + {sy} * (tid / {tx}), with 2 above and 1 below."
                    ));
                    w.line(format!("{t} col[{}];", sy + 3));
                    w.line("#pragma unroll");
                    w.line(format!(
                        "for (int i = 0; i < {}; ++i) col[i] = rowsx[{ey} + (tid / {tx}) * {sy} - 2 + i][c];",
                        sy + 3
                    ));
                    for i in (1..sy + 2).step_by(2) {
                        lift(
                            w,
                            predict,
                            &format!("col[{i}]"),
                            &format!("col[{}]", i - 1),
                            &format!("col[{}]", i + 1),
                        );
                    }
                    for i in (2..sy + 2).step_by(2) {
                        lift(
                            w,
                            update,
                            &format!("col[{i}]"),
                            &format!("col[{}]", i - 1),
                            &format!("col[{}]", i + 1),
                        );
                    }
                    w.comment("Depth, in registers: on an even plane p the odd plane p - 1 is predicted and the even");
                    w.comment("plane p - 2 updated (the odd plane before it clamped at the volume's start).");
                    w.block("if (k == 0)", |w| {
                        w.block("if (p >= r0 + 2)", |w| {
                            depth_pair(w, "p == 2", "col[j + 2]", ["p - 2", "p - 1"])
                        });
                        w.line("#pragma unroll");
                        w.line(format!("for (int j = 0; j < {sy}; ++j) E[j] = col[j + 2];"));
                    });
                    w.block("else", |w| {
                        w.line("#pragma unroll");
                        w.line(format!("for (int j = 0; j < {sy}; ++j) P[j] = col[j + 2];"));
                    });
                });
            });
            w.comment("The volume's end: depth even, predict depth - 1 (the even after it clamped to depth - 2)");
            w.comment("and update depth - 2; depth odd, update depth - 1 (the odd after it clamped to depth - 2).");
            w.block("if (r1 == depth)", |w| {
                w.block("if ((depth & 1) == 0)", |w| {
                    depth_pair(w, "depth == 2", "E[j]", ["depth - 2", "depth - 1"])
                });
                w.block("else", |w| {
                    w.line("#pragma unroll");
                    w.block(format!("for (int j = 0; j < {sy}; ++j)"), |w| {
                        lift(w, update, "E[j]", "O[j]", "O[j]");
                    });
                    store(w, "depth - 1", false, "E");
                });
            });
        });
    }

    /// The volume kernel's helpers: the reflection of an index into `[0, n)` (n >= 2), and the
    /// asynchronous copies of 4 and 16 bytes with their commit and wait (plain copies before
    /// sm_80).
    pub(crate) fn volume_helpers(&self) -> String {
        let mut w = Writer::new();
        let q = self.d.helper_qualifier();
        let t = self.d.storage_type(self.elem);
        w.block(format!("{q} int volume_reflect(int i, int n)"), |w| {
            w.line("i = i < 0 ? -i : i;");
            w.line("i = i >= n ? 2 * n - 2 - i : i;");
            w.line("return min(max(i, 0), n - 1);");
        });
        for (bytes, cache) in [(4, "ca"), (16, "cg")] {
            w.block(
                format!("{q} void volume_copy{bytes}({t}* dst, const {t}* src)"),
                |w| {
                    w.line("#if __CUDA_ARCH__ >= 800");
                    w.line(format!(
                        "asm volatile(\"cp.async.{cache}.shared.global [%0], [%1], {bytes};\" :: \"r\"((unsigned)__cvta_generic_to_shared(dst)), \"l\"(src) : \"memory\");"
                    ));
                    w.line("#else");
                    match bytes {
                        4 => w.line("*dst = *src;"),
                        _ => w.line(format!(
                            "*reinterpret_cast<{t}4*>(dst) = *reinterpret_cast<const {t}4*>(src);"
                        )),
                    }
                    w.line("#endif");
                },
            );
        }
        w.block(format!("{q} void volume_commit()"), |w| {
            w.line("#if __CUDA_ARCH__ >= 800");
            w.line("asm volatile(\"cp.async.commit_group;\" ::: \"memory\");");
            w.line("#endif");
        });
        let pending = STAGES - 2;
        w.block(format!("{q} void volume_wait_all_but_{pending}()"), |w| {
            w.line("#if __CUDA_ARCH__ >= 800");
            w.line(format!(
                "asm volatile(\"cp.async.wait_group {pending};\" ::: \"memory\");"
            ));
            w.line("#endif");
        });
        w.finish()
    }
}
