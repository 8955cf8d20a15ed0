//! The one-pass volume kernel's inverse: a level of a 3-D inverse in one launch (each level in
//! the Mallat layout, the finest in the interleaved one), the
//! depth lifting in registers, for programs of one or two pairs of two-tap symmetric steps (an
//! update from `odd[-1]`, `odd[0]`, then a predict from `even[0]`, `even[1]`: LeGall 5/3, CDF
//! 5/3, the integer Daubechies 9/7, CDF 9/7), with a scale before them or none, in 4-byte
//! samples, in CUDA and OpenCL C.
//!
//! The inverse undoes the forward's axes in reverse: depth, then columns, then rows. Each group
//! writes an x-y tile of [`VOLUME_INVERSE_TILE`] samples for a segment of planes. Per plane the
//! tile's 64 columns (the tile and 4 of halo either side) and its rows with a halo arrive, each
//! sample gathered from its subband (by `cp.async` in CUDA) into one of three buffers. Each
//! work-item takes a column segment of [`VOLUME_COLUMN`] samples with the halo the columns'
//! steps read and lifts it along z in registers (the halo too, so that no barrier parts the
//! depth steps from the columns'); each pair of planes the depth steps finish is lifted along y
//! in registers and set down for the rows, which half a warp lifts a row at a time, each
//! work-item four samples with the neighbours it reads, and stores to the data. The halo is
//! loaded reflected, as the forward's: symmetric steps keep a whole-sample symmetric line's
//! coefficients symmetric, so the reflected coefficients lift back to the reflected samples.
//!
//! On an H200 it took LeGall 5/3's 512^3 three-level inverse from 0.833 to 0.507 ms and CDF
//! 9/7's 256^3 from 0.150 to 0.122 (BENCHMARKS.md). A form that lifted each sample along z
//! once (a quarter of the tile's rows a work-item, the finished planes through local memory
//! for the columns, one at a time to fit 48 KiB) took 1.04-1.05x this one's time for both.

use dwt_ir::{Layout, Phase, Step};

use crate::dialect::Param;
use crate::emit::Emitter;
use crate::volume::{step_targets, volume_prologue, STAGES, VOLUME_COLUMN, VOLUME_THREADS};
use crate::writer::Writer;

/// Samples along x and y of the tile a group writes: its 64 columns less the halo along x.
pub const VOLUME_INVERSE_TILE: [usize; 2] = [64 - 2 * HALO_X, 32];
/// The halo along x either side of the tile, as far as the steps of two pairs read.
const HALO_X: usize = 4;
/// The most pairs of steps the inverse lifts: the halo along x.
pub(crate) const MAX_INVERSE_PAIRS: usize = 2;
/// Groups a multiprocessor holds for programs of `pairs` pairs of steps: three for one (80
/// registers a work-item without spills, NVRTC 13.0, `sm_90`; two took 1.02x the time at
/// 512^3); two for two, whose depth registers (five planes of a column segment and its halo)
/// take 128.
fn groups_per_multiprocessor(pairs: usize) -> usize {
    match pairs {
        1 => 3,
        _ => 2,
    }
}

impl Emitter<'_> {
    /// The inverse one-pass volume kernel `name` (see the module doc) for the steps `pairs`
    /// (each an update, then a predict), a band of `depth` x `rows` x `cols` samples: `(src,
    /// low, dst, depth, rows, cols, segment)`, then in the Mallat layout `(low_base, dst_base,
    /// row_pitch, plane_pitch)`. The band's subbands are in `src` but the low octant, which is
    /// at `low_base` of `low` (the source itself where the transform has one level) in its
    /// place relative to that base; the band is written at `dst_base` of `dst`, another buffer
    /// or place; all with the pitches given (samples a row and a plane). In the interleaved
    /// layout, the first level only, the volume contiguous. Groups `[cols / 56, rows / 32,
    /// depth / segment]` (rounded up) of [`VOLUME_THREADS`].
    pub(crate) fn volume_inverse(&self, w: &mut Writer, name: &str, pairs: &[[&Step; 2]]) {
        let d = self.d;
        let t = d.storage_type(self.elem);
        let [tx, ty] = VOLUME_INVERSE_TILE;
        let sy = VOLUME_COLUMN;
        let n = pairs.len();
        assert!((1..=MAX_INVERSE_PAIRS).contains(&n), "{n} pairs of steps");
        let steps: Vec<&Step> = pairs.iter().flatten().copied().collect();
        assert_eq!(
            steps[0].target,
            Phase::Even,
            "the inverse's pairs begin with an update"
        );
        // Along y and z the steps reach 2n - 1 samples before and 2n after; 2n rows either side
        // keep the tile's row count even.
        let ey = 2 * n;
        let ex = HALO_X;
        let (lx, ly) = (tx + 2 * ex, ty + 2 * ey);
        let len = sy + 2 * ey;
        let threads = VOLUME_THREADS;
        let warps = threads / 32;
        assert_eq!(lx, 64, "a work-item's column of 64, half a warp's row");
        assert_eq!(
            threads / lx * sy,
            ty,
            "the columns' segments cover the tile"
        );
        let lift = |w: &mut Writer, step: &Step, target: &str, before: &str, after: &str| {
            self.two_tap_lift(w, step, target, before, after)
        };
        w.comment(format!(
            "One-pass volume kernel, inverse: a level of a 3-D inverse, a group per {tx}x{ty} x-y tile"
        ));
        w.comment(format!(
            "and `segment` planes ({} of margin before, {} after). Per plane the tile's {lx} columns ({ex} of halo",
            2 * n,
            2 * n
        ));
        w.comment(format!(
            "either side) and {ly} rows ({ey} either side), reflected at the volume's edges, are gathered from"
        ));
        w.comment(format!(
            "their subbands into one of {STAGES} buffers; each work-item lifts a column segment with its halo"
        ));
        w.comment(
            "along z in registers, then the planes the depth steps finish along y, and half a warp lifts",
        );
        w.comment("each of their rows along x, four samples a work-item, and stores it.");
        let mallat = self.layout == Layout::Mallat;
        let pitches: &[&str] = match mallat {
            true => &["low_base", "dst_base", "row_pitch", "plane_pitch"],
            false => &[],
        };
        let sig = self.volume_signature(
            name,
            &[
                Param::Input("low", self.elem),
                Param::Global("dst", self.elem),
            ],
            pitches,
            groups_per_multiprocessor(n),
        );
        self.kernel_block(w, sig, |w| {
            w.line(d.aligned_local_array(t, "tile", &[STAGES, ly * lx], 16));
            w.line(d.aligned_local_array(t, "rowsx", &[2, ty * lx], 16));
            self.volume_group(w, [tx, ty]);
            w.comment(format!(
                "Planes r0 (even) to r1 (an even count): the segment's, {} before and {} or {} after, reflected",
                2 * n,
                2 * n - 1,
                2 * n
            ));
            w.comment("past the volume's ends; the last is odd, which finishes the segment's last planes.");
            w.line(format!(
                "const int r0 = seg_lo - {}, r1 = seg_hi + {} - (seg_hi & 1);",
                2 * n,
                2 * n
            ));
            if !mallat {
                w.comment("The volume contiguous.");
                w.line("const int row_pitch = cols;");
                w.line("const size_t plane_pitch = (size_t)rows * cols;");
            }
            w.comment(format!(
                "Each work-item's loads, the same places in every plane: rows warp, warp + {warps}, ... and"
            ));
            w.comment(
                "columns lane, lane + 32 of the tile, reflected at the volume's edges, at their subband places;",
            );
            w.comment(
                "even along x, y and z (the parities of lane, warp and the plane) from the low octant.",
            );
            let rowq = ly.div_ceil(warps);
            let split = |i: &str, n: &str| match self.layout {
                Layout::Mallat => format!("volume_split({i}, {n})"),
                Layout::Interleaved => i.to_string(),
            };
            w.line(format!("int gxo[2], gyo[{rowq}];"));
            w.line("#pragma unroll");
            w.line(format!(
                "for (int q = 0; q < 2; ++q) gxo[q] = {};",
                split(&format!("volume_reflect(x0 - {ex} + lane + 32 * q, cols)"), "cols")
            ));
            w.line("#pragma unroll");
            w.line(format!(
                "for (int q = 0; q < {rowq}; ++q) gyo[q] = {} * row_pitch;",
                split(
                    &format!("volume_reflect(y0 - {ey} + warp + {warps} * q, rows)"),
                    "rows"
                )
            ));
            w.line("const int low_lane = ((lane | warp) & 1) == 0;");
            let src_plane = d.global_pointer(&format!("const {t}"));
            // Plane `p` (reflected past the volume's ends) into tile buffer `b`, inline where
            // called: OpenCL C has no lambdas.
            let emit_load = |w: &mut Writer, p: &str, b: &str| {
                w.line(format!("const int lb = {b}, pz = volume_reflect({p}, depth);"));
                w.line(format!(
                    "const size_t zo = (size_t){} * plane_pitch;",
                    split("pz", "depth")
                ));
                let low = if mallat { "low + low_base" } else { "low" };
                w.line(format!(
                    "{src_plane} const from = ((pz & 1) == 0 && low_lane ? {low} : src) + zo;"
                ));
                w.line("#pragma unroll");
                w.block(format!("for (int qy = 0; qy < {rowq}; ++qy)"), |w| {
                    w.line(format!("const int ty_ = warp + {warps} * qy;"));
                    w.block(format!("if (ty_ < {ly})"), |w| {
                        w.line("#pragma unroll");
                        w.line(format!(
                            "for (int qx = 0; qx < 2; ++qx) volume_copy4(&tile[lb][ty_ * {lx} + lane + 32 * qx], from + gyo[qy] + gxo[qx]);"
                        ));
                    });
                });
                w.line("volume_commit();");
            };
            w.comment(format!(
                "The column this work-item lifts along z and y: {sy} samples from tile row {ey} + {sy} * g, with"
            ));
            w.comment(format!("{ey} above and {ey} below."));
            w.line(format!("const int c = tid % {lx}, g = tid / {lx};"));
            let scales = self.on_read;
            if let Some((low, high)) = scales {
                w.line(format!(
                    "const {t} fx = (c & 1) ? {} : {};",
                    self.literal(high),
                    self.literal(low)
                ));
            }
            // The depth steps' registers, as the forward's (the pending plane even here).
            self.volume_depth_registers(w, n, len, None);
            w.line("const int q = lane & 15;");
            w.line(format!(
                "const int ox = x0 - {ex} + 4 * q, lane_out = q >= 1 && q <= 14 && ox < cols;"
            ));
            w.line(match mallat {
                true => "const int whole = ((dst_base | row_pitch | plane_pitch) & 3) == 0 && ((size_t)(dst + dst_base) & 15) == 0 && ox + 3 < cols;",
                false => "const int whole = (cols & 3) == 0 && ((size_t)dst & 15) == 0 && ox + 3 < cols;",
            });
            volume_prologue(w, &emit_load);
            let uniform_barriers = d.barriers_in_uniform_branches();
            // Plane p (of parity k, in tile buffer b): its column segment into the depth
            // registers; on odd planes the two planes the depth steps finish lifted along y
            // and x and stored.
            let plane = |w: &mut Writer| {
                w.line(format!("volume_wait_all_but_{}();", STAGES - 2));
                w.line(d.barrier());
                w.line(format!("const int ahead = p + {};", STAGES - 1));
                w.block("if (ahead < r1)", |w| {
                    emit_load(w, "ahead", &format!("(ahead - r0) % {STAGES}"))
                });
                w.line("else volume_commit();");
                if let Some((low, high)) = scales {
                    w.line(format!(
                        "const {t} fz = k ? {} : {};",
                        self.literal(high),
                        self.literal(low)
                    ));
                }
                w.line(format!("{t} col[{len}];"));
                w.line("#pragma unroll");
                w.block(format!("for (int i = 0; i < {len}; ++i)"), |w| {
                    w.line(format!("col[i] = tile[b][(g * {sy} + i) * {lx} + c];"));
                    if let Some((low, high)) = scales {
                        w.line(format!(
                            "col[i] = col[i] * fx * fz * ((i & 1) ? {} : {});",
                            self.literal(high),
                            self.literal(low)
                        ));
                    }
                });
                w.block("if (k == 0)", |w| {
                    w.line("#pragma unroll");
                    w.line(format!("for (int j = 0; j < {len}; ++j) P[j] = col[j];"));
                });
                w.block("else", |w| {
                    w.comment(
                        "Depth, in registers: on an odd plane p step s lifts plane p - 1 - s, from the planes",
                    );
                    w.comment(format!(
                        "either side as the step before left them; planes p - {} and p - {} are finished.",
                        2 * n,
                        2 * n - 1
                    ));
                    w.line(format!("{t} A[{len}], B[{len}];"));
                    w.line("#pragma unroll");
                    w.block(format!("for (int j = 0; j < {len}; ++j)"), |w| {
                        self.volume_depth_steps(w, &steps, "col[j]");
                        w.line(format!("A[j] = v{};", 2 * n - 1));
                        w.line(format!("B[j] = v{};", 2 * n - 2));
                        w.line("E[j] = col[j];");
                    });
                    w.comment(format!(
                        "Columns: planes p - {} (A) and p - {} (B), sample j of the segment at {ey} + j.",
                        2 * n,
                        2 * n - 1
                    ));
                    for (s, step) in steps.iter().enumerate() {
                        for x in step_targets(&steps, s, sy as i64) {
                            let i = x + ey as i64;
                            for v in ["A", "B"] {
                                lift(
                                    w,
                                    step,
                                    &format!("{v}[{i}]"),
                                    &format!("{v}[{}]", i - 1),
                                    &format!("{v}[{}]", i + 1),
                                );
                            }
                        }
                    }
                    w.line("#pragma unroll");
                    w.block(format!("for (int j = 0; j < {sy}; ++j)"), |w| {
                        w.line(format!(
                            "rowsx[0][(g * {sy} + j) * {lx} + c] = A[{ey} + j];"
                        ));
                        w.line(format!(
                            "rowsx[1][(g * {sy} + j) * {lx} + c] = B[{ey} + j];"
                        ));
                    });
                    if uniform_barriers {
                        w.line(d.barrier());
                        self.volume_inverse_rows(w, &steps);
                    }
                });
                if !uniform_barriers {
                    // PoCL keeps barriers out of branches: every plane meets this one.
                    w.line(d.barrier());
                    w.block("if (k == 1)", |w| self.volume_inverse_rows(w, &steps));
                }
            };
            // r1 - r0 is even.
            self.volume_planes(w, false, &plane);
        });
    }

    /// The inverse volume kernel's row pass over the two planes in `rowsx` (plane p - 2n, then
    /// p - 2n + 1): half a warp per row, work-items 1 to 14 of the half each lifting samples
    /// 4q..4q+3 of the row's 64 with the neighbours the steps read, then storing them.
    fn volume_inverse_rows(&self, w: &mut Writer, steps: &[&Step]) {
        let d = self.d;
        let t = d.storage_type(self.elem);
        let [_, ty] = VOLUME_INVERSE_TILE;
        let lx = VOLUME_INVERSE_TILE[0] + 2 * HALO_X;
        let n = steps.len() / 2;
        let width = 4i64;
        // The samples the lifts read, relative to the work-item's first.
        let reads: Vec<i64> = (0..steps.len())
            .flat_map(|s| step_targets(steps, s, width).flat_map(|x| [x - 1, x, x + 1]))
            .chain(0..width)
            .collect();
        let (lo, hi) = (*reads.iter().min().unwrap(), *reads.iter().max().unwrap());
        assert!(-lo <= HALO_X as i64 && hi < width + HALO_X as i64);
        let name = |x: i64| match x {
            x if x < 0 => format!("l{}", -x),
            0 => "e0".to_string(),
            1 => "o0".to_string(),
            2 => "e1".to_string(),
            3 => "o1".to_string(),
            x => format!("h{}", x - width),
        };
        let unshift = |v: String| match self.pre_shifted() {
            true => format!("undo_pre_shift({v})"),
            false => v,
        };
        w.comment("Rows: half a warp per row of the two planes, work-item q of the half samples 4q..4q+3,");
        w.comment("lifting the neighbours it reads itself; the halo's work-items (0 and 15) store nothing.");
        w.block(
            format!(
                "for (int r = 2 * warp + (lane >> 4); r < {}; r += {})",
                2 * ty,
                VOLUME_THREADS / 16
            ),
            |w| {
                w.line(format!(
                    "const int z = p - {} + r / {ty}, y = y0 + r % {ty};",
                    2 * n
                ));
                w.block(
                    "if (lane_out && z >= seg_lo && z < seg_hi && y < rows)",
                    |w| {
                        let row = d.local_pointer(&format!("const {t}"));
                        w.line(format!(
                            "{row} const at = &rowsx[r / {ty}][(r % {ty}) * {lx} + 4 * q];"
                        ));
                        w.line(format!(
                            "{t} {};",
                            (lo..=hi)
                                .map(|x| format!("{} = at[{x}]", name(x)))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ));
                        for (s, step) in steps.iter().enumerate() {
                            for x in step_targets(steps, s, width) {
                                self.two_tap_lift(w, step, &name(x), &name(x - 1), &name(x + 1));
                            }
                        }
                        let dst = d.global_pointer(t);
                        let band = match self.layout {
                            Layout::Mallat => "dst + dst_base",
                            Layout::Interleaved => "dst",
                        };
                        w.line(format!(
                            "{dst} const out = {band} + (size_t)z * plane_pitch + (size_t)y * row_pitch + ox;"
                        ));
                        let v: Vec<String> = (0..4).map(|x| unshift(name(x))).collect();
                        w.line(format!(
                            "if (whole) {}",
                            d.global_store4(self.elem, "out", [&v[0], &v[1], &v[2], &v[3]])
                        ));
                        w.block("else", |w| {
                            for (x, v) in v.iter().enumerate() {
                                w.line(format!("if (ox + {x} < cols) out[{x}] = {v};"));
                            }
                        });
                    },
                );
            },
        );
    }
}
