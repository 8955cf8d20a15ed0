//! The one-pass volume kernel: a level of a 3-D forward in one launch (each level in the Mallat
//! layout, the first in the interleaved one), the depth lifting in registers, for programs of
//! one or two pairs of two-tap symmetric steps (a predict from `even[0]`, `even[1]`, then an
//! update from `odd[-1]`, `odd[0]`, each of one coefficient:
//! LeGall 5/3, CDF 5/3, the integer Daubechies 9/7, CDF 9/7), with a scale after them or none,
//! in 4-byte samples, in CUDA (shuffles and `cp.async`) and OpenCL C (plain copies, each
//! work-item lifting its own samples' neighbours along x).
//!
//! The fused plan's two passes move a level's band through memory twice (the tile kernel on
//! every x-y plane, then the depth pass). Here each group owns an x-y tile of
//! [`VOLUME_TILE`] samples and a segment of [`VOLUME_SEGMENT`] planes (with a margin of planes
//! on either side, as many as the steps reach). Per plane the tile and its halo arrive by
//! `cp.async` into one of three buffers (two planes in flight, in 16-byte chunks where the tile
//! lies inside the rows); half a warp lifts each row from 16-byte reads, neighbours by shuffles;
//! each work-item lifts a column segment of [`VOLUME_COLUMN`] samples in registers, and those
//! samples are its own along z: the depth steps run in registers, with no barrier, and each
//! finished sample goes to its subband place. The halo, along x, y and z alike, is loaded
//! reflected at the volume's edges, which for such steps is the clamp rule and whole-sample
//! symmetry alike. A hand-written LeGall 5/3 form of this kernel took 0.58 of the two passes'
//! time at 512^3 on an H200 (BENCHMARKS.md).

use dwt_ir::{Boundary, Coeff, Direction, ElementType, Layout, Op, Phase, Program, Step};

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
/// The halo loaded before and after the tile along x: a 16-byte chunk, which the most pairs
/// of steps reach (two samples a pair before the tile, one fewer after it).
const HALO_X: usize = 4;
/// The most pairs of steps the kernel lifts (the halo along x).
pub(crate) const MAX_PAIRS: usize = HALO_X / 2;
/// Planes of the tile in local memory at once: one lifted while two are in flight.
pub(crate) const STAGES: usize = 3;

/// Groups a multiprocessor holds for programs of `pairs` pairs of steps: the register budget
/// (80 a work-item at three, 128 at two) against the registers the depth steps keep, eight
/// samples a plane for `2 * pairs + 1` planes; more pairs at three groups spill.
fn groups_per_multiprocessor(pairs: usize) -> usize {
    match pairs {
        1 => 3,
        _ => 2,
    }
}

/// The one-pass volume kernel of a module ([`crate::KernelModule::volume`]): the forward's
/// (this module) or the inverse's (`volume_inverse`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VolumePass {
    pub kernel: String,
    /// Samples along x and y of the tile a group writes: [`VOLUME_TILE`] forward,
    /// [`VOLUME_INVERSE_TILE`](crate::VOLUME_INVERSE_TILE) inverse.
    pub tile: [usize; 2],
}

/// The steps of `program` in pairs where a one-pass kernel lifts it (see the module doc),
/// `None` otherwise: at most `max_pairs` pairs and a scale, after them (forward: pairs of a
/// predict and an update) or before them (inverse: pairs of an update and a predict), or none.
/// Each predict (odd) reads `even[0]` and `even[1]`, each update (even) `odd[-1]` and `odd[0]`,
/// each with one coefficient: steps symmetric about their target, which keep a whole-sample
/// symmetric line symmetric, so that the halo loaded reflected at a line's ends lifts to what
/// the clamp rule and whole-sample symmetry read (LeGall 5/3, CDF 5/3, the integer Daubechies
/// 9/7, CDF 9/7), forward and back. A one-tap step (Haar's) is not: at an odd length the
/// reflected halo's lifted value is not the clamped one. Periodic lines are not reflected.
pub(crate) fn two_tap_pairs(
    program: &Program,
    boundary: Boundary,
    direction: Direction,
    max_pairs: usize,
) -> Option<Vec<[&Step; 2]>> {
    if boundary == Boundary::Periodic {
        return None;
    }
    let (lifts, phases) = match (direction, &program.ops[..]) {
        (Direction::Forward, [lifts @ .., Op::Scale { .. }]) => (lifts, [Phase::Odd, Phase::Even]),
        (Direction::Inverse, [Op::Scale { .. }, lifts @ ..]) => (lifts, [Phase::Even, Phase::Odd]),
        (Direction::Forward, lifts) => (lifts, [Phase::Odd, Phase::Even]),
        (Direction::Inverse, lifts) => (lifts, [Phase::Even, Phase::Odd]),
    };
    fn symmetric(op: &Op, target: Phase) -> Option<&Step> {
        match op {
            Op::Lift(s) => {
                let first = reads_from(target);
                let terms: Vec<(i32, Coeff)> = s.taps.terms().collect();
                let two_tap = s.target == target
                    && terms.len() == 2
                    && terms[0].0 == first
                    && terms[1].0 == first + 1
                    && terms[0].1 == terms[1].1;
                two_tap.then_some(s)
            }
            _ => None,
        }
    }
    if lifts.is_empty() || lifts.len() % 2 != 0 || lifts.len() / 2 > max_pairs.min(MAX_PAIRS) {
        return None;
    }
    lifts
        .chunks(2)
        .map(|pair| {
            Some([
                symmetric(&pair[0], phases[0])?,
                symmetric(&pair[1], phases[1])?,
            ])
        })
        .collect()
}

/// The nearer of the two source offsets a step of `target` may read: `even[0]` for an odd
/// target, `odd[-1]` for an even one.
fn reads_from(target: Phase) -> i32 {
    match target {
        Phase::Odd => 0,
        Phase::Even => -1,
    }
}

/// The targets step `s` of `steps` lifts on a run of `width` samples (the tile's row, a column
/// segment; sample 0 even) with its halo: those of its phase within `reach` of the run, where
/// `reach` is how far the steps after it read (one sample a step; none for the last). Samples
/// relative to the run's first.
pub(crate) fn step_targets(steps: &[&Step], s: usize, width: i64) -> impl Iterator<Item = i64> {
    let reach = (steps.len() - 1 - s) as i64;
    let parity = i64::from(steps[s].target == Phase::Odd);
    (-reach..width + reach).filter(move |x| x.rem_euclid(2) == parity)
}

/// The volume kernels' first loads: planes r0 and r0 + 1 into tile buffers 0 and 1 by `load`
/// (plane, buffer), each a commit group (empty past r1).
pub(crate) fn volume_prologue(w: &mut Writer, load: &dyn Fn(&mut Writer, &str, &str)) {
    w.line("#pragma unroll");
    w.block(format!("for (int k = 0; k < {}; ++k)", STAGES - 1), |w| {
        w.block("if (r0 + k < r1)", |w| load(w, "r0 + k", "k"));
        w.line("else volume_commit();");
    });
}

/// Whether modules of `elem` take the kernel: 16-byte chunks of 4-byte samples.
pub(crate) fn volume_element(elem: ElementType) -> bool {
    matches!(elem, ElementType::I32 | ElementType::F32)
}

impl Emitter<'_> {
    /// The one-pass volume kernel `name` (see the module doc) for the steps `pairs`, a band of
    /// `depth` x `rows` x `cols` samples; groups `[cols / 64, rows / 32, depth / segment]`
    /// (rounded up) of [`VOLUME_THREADS`]. In the Mallat layout, any level: `(src, dst, low,
    /// depth, rows, cols, segment, src_base, low_base, row_pitch, plane_pitch)`, the band at
    /// `src_base` of `src`, its high octants stored in their places at the origin of `dst`,
    /// its low octant at `low_base` of `low` (not where the band is), all with the pitches
    /// given (samples a row and a plane). In the interleaved layout, the first level only:
    /// `(src, dst, depth, rows, cols, segment)`, the volume contiguous. `dst` is another buffer
    /// than `src`.
    pub(crate) fn volume(&self, w: &mut Writer, name: &str, pairs: &[[&Step; 2]]) {
        let d = self.d;
        let t = d.storage_type(self.elem);
        let [tx, ty] = VOLUME_TILE;
        let sy = VOLUME_COLUMN;
        let n = pairs.len();
        assert!((1..=MAX_PAIRS).contains(&n), "{n} pairs of steps");
        // The steps in order (each reads one sample further than the steps after it: see
        // `step_targets`).
        let steps: Vec<&Step> = pairs.iter().flatten().copied().collect();
        // Along y and z the steps reach 2n samples before and 2n - 1 after; the tile loads 2n
        // rows on either side, which keeps its row count even (the row pass below).
        let ey = 2 * n;
        let ex = HALO_X;
        let (lx, ly) = (tx + 2 * ex, ty + 2 * ey);
        let pitch = lx;
        let chunks = lx / 4;
        let threads = VOLUME_THREADS;
        let groups = groups_per_multiprocessor(n);
        assert_eq!(tx, 64, "half a warp lifts a row of 64 along x");
        assert_eq!(
            threads / tx * sy,
            ty,
            "the columns' segments cover the tile"
        );
        let lift = |w: &mut Writer, step: &Step, target: &str, before: &str, after: &str| {
            self.two_tap_lift(w, step, target, before, after)
        };
        assert_eq!(ly % 2, 0, "both halves of a warp take as many rows");
        w.comment(format!(
            "One-pass volume kernel: a level of a 3-D forward, a group per {tx}x{ty} x-y tile and"
        ));
        w.comment(format!(
            "`segment` planes ({} of margin before, {} after). Per plane the tile and its halo ({ex} before and",
            2 * n,
            2 * n - 1
        ));
        w.comment(format!(
            "after along x, {ey} along y; along x, y and z reflected at the volume's edges) arrive in one of"
        ));
        w.comment(format!(
            "{STAGES} buffers (in CUDA by cp.async, two planes in flight); half a warp lifts each row from"
        ));
        w.comment(format!(
            "16-byte reads (in CUDA trading neighbours by shuffles), and each work-item lifts {sy} samples"
        ));
        w.comment(
            "of a column in registers and keeps them along z: the depth steps run in registers, each",
        );
        w.comment("finished sample stored to its subband place.");
        let mallat = self.layout == Layout::Mallat;
        let (outputs, pitches): (&[Param], &[&str]) = match mallat {
            true => (
                &[
                    Param::Global("dst", self.elem),
                    Param::Global("low", self.elem),
                ],
                &["src_base", "low_base", "row_pitch", "plane_pitch"],
            ),
            false => (&[Param::Global("dst", self.elem)], &[]),
        };
        let sig = self.volume_signature(name, outputs, pitches, groups);
        self.kernel_block(w, sig, |w| {
            w.line(d.aligned_local_array(t, "tile", &[STAGES, ly * pitch], 16));
            w.line(d.aligned_local_array(t, "rowsx", &[ly, tx], 16));
            self.volume_group(w, [tx, ty]);
            w.comment(format!(
                "Planes r0 (even) to r1: the segment's, {} before and {} after, reflected past the volume's ends;",
                2 * n,
                2 * n - 1
            ));
            w.comment("one more where the last is even, which the loop lifts with its pair.");
            w.line(format!(
                "const int r0 = seg_lo - {}, r1 = seg_hi + {} + (seg_hi & 1);",
                2 * n,
                2 * n - 1
            ));
            if !mallat {
                w.comment("The volume contiguous.");
                w.line("const int row_pitch = cols;");
                w.line("const size_t plane_pitch = (size_t)rows * cols;");
            }
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
                "for (int q = 0; q < {rowq}; ++q) gyo[q] = volume_reflect(y0 - {ey} + warp + {} * q, rows) * row_pitch;",
                threads / 32
            ));
            w.comment("Chunks of 16 bytes where the tile's rows lie inside the volume's and are aligned.");
            let (band, aligned) = match mallat {
                true => ("src + src_base", "((src_base | row_pitch | plane_pitch) & 3) == 0"),
                false => ("src", "(cols & 3) == 0"),
            };
            w.line(format!(
                "const int inner_x = {aligned} && x0 >= {ex} && x0 - {ex} + {lx} <= cols && ((size_t)({band}) & 15) == 0;"
            ));
            // Plane `p` (reflected past the volume's ends) into tile buffer `b`, inline where
            // called: OpenCL C has no lambdas.
            let src_pointer = d.global_pointer(&format!("const {t}"));
            let emit_load = |w: &mut Writer, p: &str, b: &str| {
                w.line(format!("const int lb = {b};"));
                w.line(format!(
                    "{src_pointer} sp = {band} + (size_t)volume_reflect({p}, depth) * plane_pitch;"
                ));
                w.block("if (inner_x)", |w| {
                    w.block(
                        format!("for (int s = tid; s < {}; s += {threads})", ly * chunks),
                        |w| {
                            w.line(format!(
                                "const int ly = s / {chunks}, cx = s - ly * {chunks};"
                            ));
                            w.line(format!(
                                "volume_copy16(&tile[lb][ly * {pitch} + 4 * cx], sp + (size_t)volume_reflect(y0 - {ey} + ly, rows) * row_pitch + x0 - {ex} + 4 * cx);"
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
                                    "if (lx < {lx}) volume_copy4(&tile[lb][ly * {pitch} + lx], sp + gyo[qy] + gxo[qx]);"
                                ));
                            });
                        });
                    });
                });
                w.line("volume_commit();");
            };
            w.comment(format!(
                "The column segment this work-item lifts along y and owns along z: {sy} samples from gy0."
            ));
            w.line(format!(
                "const int c = tid % {tx}, gx = x0 + c, gy0 = y0 + (tid / {tx}) * {sy};"
            ));
            let (mx, odd_rows) = match self.layout {
                Layout::Mallat => (
                    "(gx & 1) ? (cols + 1) / 2 + gx / 2 : gx / 2",
                    "(size_t)((rows + 1) / 2) * row_pitch",
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
                Layout::Mallat => "row_pitch",
                Layout::Interleaved => "2 * cols",
            };
            let first_row = match self.layout {
                Layout::Mallat => "gy0 / 2",
                Layout::Interleaved => "gy0",
            };
            w.line(format!("const int mx = {mx};"));
            let dst_sample = d.global_pointer(t);
            w.line(format!(
                "{dst_sample} const even_at = dst + (size_t)({first_row}) * row_pitch + mx;"
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
            // The depth steps' registers, and F, the even plane the last step finishes.
            let kept = self.volume_depth_registers(w, n, sy, Some("F"));
            // Plane `z`'s stores of `v`: sample j at row gy0 + j (even rows from `even_at`, odd
            // ones `odd_rows` further), scaled where the program scales last.
            let store = |w: &mut Writer, z: &str, z_odd: bool, v: &str| {
                w.block(
                    format!("if ({z} >= seg_lo && {z} < seg_hi && column_in)"),
                    |w| {
                        w.line(format!("const int z = {z};"));
                        w.line(format!(
                            "{dst_sample} const at = even_at + (size_t)({}) * plane_pitch;",
                            mz(z_odd)
                        ));
                        // Even rows of even planes: the low octant where the column is even, at
                        // `low_base` of `low` with the same pitches (no more registers: they are
                        // the kernel's limit).
                        let low = mallat && !z_odd;
                        if low {
                            w.line(format!(
                                "{dst_sample} const low_z = (gx & 1) ? at : low + low_base + (at - dst);"
                            ));
                        }
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
                            let (at, row) = match j % 2 {
                                0 if low => ("low_z", format!("(size_t){} * {row_step}", j / 2)),
                                0 => ("at", format!("(size_t){} * {row_step}", j / 2)),
                                _ => ("at", format!("odd_rows + (size_t){} * {row_step}", j / 2)),
                            };
                            w.line(format!(
                                "if (all_rows || {j} < rows_left) {at}[{row}] = {value};"
                            ));
                        }
                    },
                );
            };
            volume_prologue(w, &emit_load);
            // Plane p (of parity k, in tile buffer b) lifted and its finished planes stored.
            let plane = |w: &mut Writer| {
                w.line(format!("volume_wait_all_but_{}();", STAGES - 2));
                    w.line(d.barrier());
                    w.line(format!("const int ahead = p + {};", STAGES - 1));
                    w.block("if (ahead < r1)", |w| {
                        emit_load(w, "ahead", &format!("(ahead - r0) % {STAGES}"))
                    });
                    w.line("else volume_commit();");
                    self.volume_rows(w, &steps, ly, pitch);
                    w.line(d.barrier());
                    let len = sy + 4 * n - 1;
                    w.comment(format!(
                        "Columns: {sy} samples from tile row {ey} + {sy} * (tid / {tx}), with {} above and {} below.",
                        2 * n,
                        2 * n - 1
                    ));
                    w.line(format!("{t} col[{len}];"));
                    w.line("#pragma unroll");
                    w.line(format!(
                        "for (int i = 0; i < {len}; ++i) col[i] = rowsx[(tid / {tx}) * {sy} + i][c];"
                    ));
                    // Sample j of the segment is col[2n + j].
                    for (s, step) in steps.iter().enumerate() {
                        for x in step_targets(&steps, s, sy as i64) {
                            let i = x + 2 * n as i64;
                            lift(
                                w,
                                step,
                                &format!("col[{i}]"),
                                &format!("col[{}]", i - 1),
                                &format!("col[{}]", i + 1),
                            );
                        }
                    }
                    w.comment(
                        "Depth, in registers: on an even plane p step s lifts plane p - 1 - s, from the planes",
                    );
                    w.comment(format!(
                        "either side as the step before left them; planes p - {} and p - {} are finished.",
                        2 * n,
                        2 * n - 1
                    ));
                    w.block("if (k == 0)", |w| {
                        w.block("if (p >= r0 + 2)", |w| {
                            w.line("#pragma unroll");
                            w.block(format!("for (int j = 0; j < {sy}; ++j)"), |w| {
                                self.volume_depth_steps(w, &steps, &format!("col[j + {}]", 2 * n));
                                w.line(format!("F[j] = v{};", 2 * n - 1));
                            });
                            store(w, &format!("p - {}", 2 * n), false, "F");
                            store(w, &format!("p - {}", 2 * n - 1), true, &kept[2 * n - 2]);
                        });
                        w.line("#pragma unroll");
                        w.line(format!("for (int j = 0; j < {sy}; ++j) E[j] = col[j + {}];", 2 * n));
                    });
                    w.block("else", |w| {
                        w.line("#pragma unroll");
                        w.line(format!("for (int j = 0; j < {sy}; ++j) P[j] = col[j + {}];", 2 * n));
                    });
            };
            self.volume_planes(w, true, &plane);
        });
    }

    /// A volume kernel's signature: `src`, the buffers `then`, `(depth, rows, cols, segment)`,
    /// the `int`s `pitches`; groups of [`VOLUME_THREADS`], `groups` of them a multiprocessor.
    pub(crate) fn volume_signature(
        &self,
        name: &str,
        then: &[Param],
        pitches: &[&'static str],
        groups: usize,
    ) -> String {
        let threads = VOLUME_THREADS;
        let params: Vec<Param> = std::iter::once(Param::Input("src", self.elem))
            .chain(then.iter().cloned())
            .chain(["depth", "rows", "cols", "segment"].map(Param::Int))
            .chain(pitches.iter().map(|&p| Param::Int(p)))
            .collect();
        self.d
            .kernel_signature(name, &params, [threads, 1, 1], false)
            .replace(
                &format!("__launch_bounds__({threads})"),
                &format!("__launch_bounds__({threads}, {groups})"),
            )
    }

    /// A volume kernel's work-item (`tid`, `lane`, `warp`), its group's tile origin (`x0`, `y0`,
    /// tiles of `tx` by `ty`) and planes (`seg_lo` to `seg_hi`).
    pub(crate) fn volume_group(&self, w: &mut Writer, [tx, ty]: [usize; 2]) {
        let d = self.d;
        w.line(format!(
            "const int tid = {}, lane = tid & 31, warp = tid >> 5;",
            d.local_id(0)
        ));
        w.line(format!(
            "const int x0 = {} * {tx}, y0 = {} * {ty};",
            d.group_id(0),
            d.group_id(1)
        ));
        w.line(format!(
            "const int seg_lo = {} * segment, seg_hi = min(seg_lo + segment, depth);",
            d.group_id(2)
        ));
    }

    /// The depth steps' registers of the volume kernels, `len` samples each, declared (with
    /// `extra` beside them) and zeroed: the pending plane (P), the plane before it (E) and the
    /// plane each step but the last of `n` pairs lifted last (S0, S1, ...), which it returns.
    pub(crate) fn volume_depth_registers(
        &self,
        w: &mut Writer,
        n: usize,
        len: usize,
        extra: Option<&str>,
    ) -> Vec<String> {
        let t = self.d.storage_type(self.elem);
        let kept: Vec<String> = (0..2 * n - 1).map(|s| format!("S{s}")).collect();
        let all: Vec<String> = ["P", "E"]
            .iter()
            .map(|r| r.to_string())
            .chain(kept.iter().cloned())
            .collect();
        let extra = extra.map_or(String::new(), |e| format!(", {e}[{len}]"));
        w.line(format!(
            "{t} {}{extra};",
            all.iter()
                .map(|r| format!("{r}[{len}]"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        w.line("#pragma unroll");
        w.line(format!(
            "for (int j = 0; j < {len}; ++j) {}[j] = {};",
            all.join("[j] = "),
            self.literal(0.0)
        ));
        kept
    }

    /// Sample j's depth steps as a plane `new` arrives (of the parity that completes a pair):
    /// step s lifts `v{s}`, what step s - 2 left (P and E before the first two), from what step
    /// s - 1 left before it and the value that step just made (`new` for the first); `S{s}`
    /// keeps each but the last.
    pub(crate) fn volume_depth_steps(&self, w: &mut Writer, steps: &[&Step], new: &str) {
        let t = self.d.storage_type(self.elem);
        let mut after = new.to_string();
        for (s, step) in steps.iter().enumerate() {
            let target = match s {
                0 => "P[j]".to_string(),
                1 => "E[j]".to_string(),
                _ => format!("S{}[j]", s - 2),
            };
            let before = match s {
                0 => "E[j]".to_string(),
                _ => format!("S{}[j]", s - 1),
            };
            w.line(format!("{t} v{s} = {target};"));
            self.two_tap_lift(w, step, &format!("v{s}"), &before, &after);
            after = format!("v{s}");
        }
        for s in 0..steps.len() - 1 {
            w.line(format!("S{s}[j] = v{s};"));
        }
    }

    /// The volume kernels' loop over planes r0 (even) to r1, `plane` the body for plane p of
    /// parity k in tile buffer b; `odd_count` where r1 - r0 may be odd.
    pub(crate) fn volume_planes(
        &self,
        w: &mut Writer,
        odd_count: bool,
        plane: &dyn Fn(&mut Writer),
    ) {
        if self.d.barriers_in_uniform_branches() {
            // The parity known where the code is written: a runtime parity cost CUDA 6-9%
            // (BENCHMARKS.md).
            w.comment("Planes in pairs from r0 (even): k is the plane's parity where the code is written.");
            w.block("for (int pp = r0; pp < r1; pp += 2)", |w| {
                w.line("#pragma unroll");
                w.block("for (int k = 0; k < 2; ++k)", |w| {
                    w.line("const int p = pp + k;");
                    // Only where needed: the exit cost the inverse of two pairs spills
                    // under its 128 registers.
                    if odd_count {
                        w.line("if (p >= r1) break;");
                    }
                    w.line(format!("const int b = (p - r0) % {STAGES};"));
                    plane(w);
                });
            });
        } else {
            // PoCL keeps barriers out of branches (`Dialect::barriers_in_uniform_branches`):
            // one plane an iteration, its parity a uniform branch.
            w.comment("One plane an iteration: k its parity (r0 is even), b its tile buffer.");
            w.block("for (int p = r0; p < r1; ++p)", |w| {
                w.line(format!(
                    "const int k = (p - r0) & 1, b = (p - r0) % {STAGES};"
                ));
                plane(w);
            });
        }
    }

    /// The volume kernel's row pass over the `ly` rows of tile buffer `b` into `rowsx`: half a
    /// warp per row, lane q lifting samples 4q..4q+3. With shuffles ([`Dialect::warp_shuffles`])
    /// the lanes trade their neighbours, lane 0 also lifts the halo before the tile (samples
    /// -1, -2, ... as `l1`, `l2`, ...) and lane 15 the halo after it (samples 64, 65, ... as
    /// `h0`, `h1`, ...); without, every lane lifts the halo of its own four samples so. Each step
    /// lifts the halo's targets that the steps after it read.
    ///
    /// [`Dialect::warp_shuffles`]: crate::dialect::Dialect::warp_shuffles
    fn volume_rows(&self, w: &mut Writer, steps: &[&Step], ly: usize, pitch: usize) {
        let d = self.d;
        let t = d.storage_type(self.elem);
        let ex = HALO_X as i64;
        let n = steps.len() as i64 / 2;
        let threads = VOLUME_THREADS;
        let shuffles = d.warp_shuffles();
        // The samples a halo is around: the half warp's row of 64, or the work-item's 4; and
        // where in the tile's row they begin, less the halo before the tile.
        let (width, first) = match shuffles {
            true => (VOLUME_TILE[0] as i64, "rb"),
            false => (4, "rb + 4 * q"),
        };
        // Sample x (from the first) where the lanes holding the halo keep it.
        let name = |x: i64| match x {
            x if x < 0 => format!("l{}", -x),
            0 => "e0".to_string(),
            x if x == width - 1 => "o1".to_string(),
            x => format!("h{}", x - width),
        };
        let (left, right): (Vec<i64>, Vec<i64>) = (
            (1..=2 * n).map(|k| -k).collect(),
            (0..2 * n - 1).map(|k| width + k).collect(),
        );
        let lift = |w: &mut Writer, step: &Step, target: &str, before: &str, after: &str| {
            self.two_tap_lift(w, step, target, before, after)
        };
        let load = |x: &str| self.volume_sample(x);
        // The halo's lines: with shuffles only lane 0 (before) and lane 15 (after) hold one.
        let on_lane = |w: &mut Writer, lane: u32, body: &dyn Fn(&mut Writer)| match shuffles {
            true => w.block(format!("if (q == {lane})"), body),
            false => body(w),
        };
        match shuffles {
            true => {
                w.comment("Rows: half a warp per row, lane q of the half samples 4q..4q+3, neighbours by shuffles;");
                w.comment(
                    "lanes 0 and 15 lift the halo either side as far as the steps after read it.",
                );
            }
            false => {
                w.comment("Rows: half a warp per row, work-item q of the half samples 4q..4q+3, lifting their");
                w.comment("neighbours either side itself as far as the steps after read them.");
            }
        }
        w.block("", |w| {
            w.line("const int q = lane & 15;");
            w.block(
                format!(
                    "for (int r = 2 * warp + (lane >> 4); r < {ly}; r += {})",
                    threads / 16
                ),
                |w| {
                    w.line(format!("const int rb = r * {pitch};"));
                    w.line(format!(
                        "const {t}4 v = {};",
                        d.local_load4(self.elem, &format!("&tile[b][rb + {ex} + 4 * q]"))
                    ));
                    w.line(format!(
                        "{t} e0 = {}, o0 = {}, e1 = {}, o1 = {};",
                        load("v.x"),
                        load("v.y"),
                        load("v.z"),
                        load("v.w")
                    ));
                    let read = |x: i64| load(&format!("tile[b][{first} + {}]", ex + x));
                    match shuffles {
                        true => {
                            let zero = self.literal(0.0);
                            let halo: Vec<String> =
                                left.iter().chain(&right).map(|&x| name(x)).collect();
                            w.line(format!(
                                "{t} {};",
                                halo.iter()
                                    .map(|h| format!("{h} = {zero}"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ));
                            for (lane, xs) in [(0, &left), (15, &right)] {
                                on_lane(w, lane, &|w| {
                                    for &x in xs {
                                        w.line(format!("{} = {};", name(x), read(x)));
                                    }
                                });
                            }
                        }
                        false => {
                            for &x in left.iter().chain(&right) {
                                w.line(format!("{t} {} = {};", name(x), read(x)));
                            }
                        }
                    }
                    for (s, step) in steps.iter().enumerate() {
                        let odd = step.target == Phase::Odd;
                        let targets: Vec<i64> = step_targets(steps, s, width).collect();
                        for (lane, xs) in [(0, &left), (15, &right)] {
                            let targets: Vec<i64> =
                                xs.iter().copied().filter(|x| targets.contains(x)).collect();
                            if !targets.is_empty() {
                                on_lane(w, lane, &|w| {
                                    for &x in &targets {
                                        lift(w, step, &name(x), &name(x - 1), &name(x + 1));
                                    }
                                });
                            }
                        }
                        // The neighbour after the last odd sample (an even one) and before the
                        // first even one (an odd one): the next lane's and the last's, or the halo.
                        w.block("", |w| match odd {
                            true => {
                                let next = match shuffles {
                                    true => {
                                        w.line(format!(
                                            "{t} en = __shfl_down_sync(0xffffffffu, e0, 1, 16);"
                                        ));
                                        w.line("if (q == 15) en = h0;");
                                        "en"
                                    }
                                    false => "h0",
                                };
                                lift(w, step, "o0", "e0", "e1");
                                lift(w, step, "o1", "e1", next);
                            }
                            false => {
                                let before = match shuffles {
                                    true => {
                                        w.line(format!(
                                            "{t} op = __shfl_up_sync(0xffffffffu, o1, 1, 16);"
                                        ));
                                        w.line("if (q == 0) op = l1;");
                                        "op"
                                    }
                                    false => "l1",
                                };
                                lift(w, step, "e0", before, "o0");
                                lift(w, step, "e1", "o0", "o1");
                            }
                        });
                    }
                    w.line(d.local_store4(self.elem, "&rowsx[r][4 * q]", ["e0", "o0", "e1", "o1"]));
                },
            );
        });
    }

    /// `target` of the two-tap `step` lifted from `before` (its nearer source: `even[0]` or
    /// `odd[-1]`) and `after`, in a block of its own.
    pub(crate) fn two_tap_lift(
        &self,
        w: &mut Writer,
        step: &Step,
        target: &str,
        before: &str,
        after: &str,
    ) {
        let first = reads_from(step.target);
        w.block("", |w| {
            self.step_body(
                w,
                step,
                target,
                &|k| match k - i64::from(first) {
                    0 => before.to_string(),
                    _ => after.to_string(),
                },
                true,
            )
        });
    }

    /// Stored sample `x` as the kernel lifts it: pre-shifted where the program shifts.
    pub(crate) fn volume_sample(&self, x: &str) -> String {
        match self.pre_shifted() {
            true => format!("pre_shift({x})"),
            false => x.to_string(),
        }
    }

    /// The volume kernels' helpers: the reflection of an index into `[0, n)`, the inverse's
    /// place of a sample in Mallat's order, and the copies of
    /// 4 and 16 bytes from global to local memory with their commit and wait: `cp.async` in
    /// CUDA (sm_80 and later), plain copies otherwise, which need no wait.
    pub(crate) fn volume_helpers(&self) -> String {
        let mut w = Writer::new();
        let d = self.d;
        let q = d.helper_qualifier();
        let t = d.storage_type(self.elem);
        w.block(format!("{q} int volume_reflect(int i, int n)"), |w| {
            // Reflected as often as the halo needs on short lines; no division, which cost the
            // LeGall 5/3 kernel spills under its register cap.
            w.comment("Whole-sample symmetric about both ends: reflected until inside (a line of one: 0).");
            w.line("while ((unsigned)i >= (unsigned)n && n > 1) i = i < 0 ? -i : 2 * n - 2 - i;");
            w.line("return n > 1 ? i : 0;");
        });
        if self.direction == Direction::Inverse && self.layout == Layout::Mallat {
            w.block(format!("{q} int volume_split(int i, int n)"), |w| {
                w.comment("Where sample i of a line of n lies in Mallat's order: evens first.");
                w.line("return (i & 1) ? (n + 1) / 2 + i / 2 : i / 2;");
            });
        }
        let asynchronous = d.async_copies();
        // `body` where the copies are asynchronous, else `plain`.
        let either = |w: &mut Writer, body: &str, plain: Option<&str>| match asynchronous {
            true => {
                w.line("#if __CUDA_ARCH__ >= 800");
                w.line(body);
                if let Some(plain) = plain {
                    w.line("#else");
                    w.line(plain);
                }
                w.line("#endif");
            }
            false => {
                if let Some(plain) = plain {
                    w.line(plain)
                }
            }
        };
        let (to, from) = (d.local_pointer(t), d.global_pointer(&format!("const {t}")));
        // The inverse gathers its samples one at a time.
        let copies: &[(usize, &str)] = match self.direction {
            Direction::Forward => &[(4, "ca"), (16, "cg")],
            Direction::Inverse => &[(4, "ca")],
        };
        for &(bytes, cache) in copies {
            let plain = match bytes {
                4 => "*dst = *src;".to_string(),
                _ => format!(
                    "*({})dst = *({})src;",
                    d.local_pointer(&format!("{t}4")),
                    d.global_pointer(&format!("const {t}4"))
                ),
            };
            w.block(
                format!("{q} void volume_copy{bytes}({to} dst, {from} src)"),
                |w| {
                    either(
                        w,
                        &format!(
                            "asm volatile(\"cp.async.{cache}.shared.global [%0], [%1], {bytes};\" :: \"r\"((unsigned)__cvta_generic_to_shared(dst)), \"l\"(src) : \"memory\");"
                        ),
                        Some(&plain),
                    )
                },
            );
        }
        w.block(format!("{q} void volume_commit(void)"), |w| {
            either(
                w,
                "asm volatile(\"cp.async.commit_group;\" ::: \"memory\");",
                None,
            )
        });
        let pending = STAGES - 2;
        w.block(
            format!("{q} void volume_wait_all_but_{pending}(void)"),
            |w| {
                either(
                    w,
                    &format!("asm volatile(\"cp.async.wait_group {pending};\" ::: \"memory\");"),
                    None,
                )
            },
        );
        w.finish()
    }
}
