//! The level-pair kernel: levels 1 and 2 of a 2-D forward in one launch, for programs with a
//! halo (where the pyramid kernels take only pair-local ones). A group owns a square tile of
//! level-2 indices; it loads the natural samples under it with the halo both levels read, lifts
//! level 1 in register segments along x and along y over the tile and the margin of level-1
//! low band that level 2 reads (its neighbours compute that margin too), stores level 1's high
//! subbands of its own indices, lifts level 2 on the low band it kept in local memory and
//! stores level 2's four subbands. Level 1's low band never goes through global memory: the
//! per-level plan writes it and reads it back in a launch of its own, and the neighbours'
//! recomputed margin costs less than that: CDF 5/3's and LeGall 5/3's two and three levels in
//! 0.89-0.97 of the per-level plan's time at 4096^2 and 8192^2 on an H100 (BENCHMARKS.md).
//!
//! Forward, Mallat layout, storage in the working type (no i16: its reference truncates between
//! axes), programs whose register segments fit full occupancy ([`LEVEL_PAIR_MAX_WORDS`]). Tiles
//! at the image's edges load their halo by whole-sample reflection and reflect the level-1 low
//! band's margin beyond its band again before level 2 reads it: exact where
//! [`dwt_ir::Program::reflected_segments_exact`] proves segments so on the lines of both levels
//! (the planner checks). The planner launches it only on images whose sides are multiples of
//! `4 * LEVEL_PAIR_TILE`, so that every tile is whole.

use dwt_ir::{Direction, Layout, TileHalo};

use crate::dialect::Param;
use crate::emit::{offset, Emitter};
use crate::tile::{share, Unroll, MAX_TILE_BYTES};
use crate::writer::Writer;

/// Level-2 indices per phase along each axis of a level-pair tile (each side of the image a
/// multiple of four times this).
pub const LEVEL_PAIR_TILE: usize = 16;
/// The fewest samples of an image whose first two levels take the level-pair kernel by default
/// ([`LaunchConfig::level_pairs_from`](crate::LaunchConfig::level_pairs_from)): 4096x4096, the
/// smallest size measured faster (BENCHMARKS.md).
pub const LEVEL_PAIRS_MIN_SAMPLES: usize = 4096 * 4096;
/// Work-items per group of the level-pair kernel.
pub const LEVEL_PAIR_THREADS: usize = 256;
/// The most 4-byte words a level-1 register segment of a level-pair kernel may hold: 11 (CDF 5/3
/// f32 and LeGall 5/3 i32: 6 even and 5 odd values) fit the 32 registers of full occupancy
/// without spilling (NVRTC 13.0). Programs of longer segments have no level-pair kernel: CDF
/// 9/7's and Daubechies 9/7's (15 words) spilled under 32 registers and with 48 their first two
/// levels took 1.05-1.28x the per-level plan's time on an H100; uncapped, CDF 5/3's took 40
/// registers and ran 5% slower at 4096^2 (BENCHMARKS.md).
const LEVEL_PAIR_MAX_WORDS: usize = 11;
/// Indices per phase of level 2's register segments along y, the last pass (divides
/// [`LEVEL_PAIR_TILE`]): shorter than the others, so that fewer values are live between its
/// loads and its stores (with 4, LeGall 5/3's kernel spilled 8 bytes under 32 registers) and
/// every work-item has one.
pub(crate) const LEVEL2_Y_SEGMENT: usize = 2;
/// Indices per phase of the kernel's register segments (divides [`LEVEL_PAIR_TILE`]).
pub const LEVEL_PAIR_SEGMENT: usize = 4;

/// The level-pair kernel of a module: `kernel` lifts levels `l` and `l + 1` of bands whose sides
/// are multiples of `4 * tile`, a group of `threads` work-items per `tile` x `tile` level-2
/// indices per phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelPairPass {
    pub kernel: String,
    pub tile: usize,
    pub threads: usize,
    /// The register segments' lengths, for the exactness proof of edge tiles: every pass's but
    /// level 2's along y, and that one's.
    pub segments: [usize; 2],
    /// Whether the kernel asks for full occupancy (on CUDA 32 registers for groups of 256): but
    /// with [`LaunchConfig::register_cap`](crate::LaunchConfig::register_cap) off, always (its
    /// segments were sized for that, `LEVEL_PAIR_MAX_WORDS`); an executor that finds it
    /// spilling on its device builds it without.
    pub full_occupancy: bool,
    /// The most indices beyond a line's ends that a tile reads, natural samples or level-1 low
    /// band (`PairGeometry::reach`): the kernel reflects them once, so each line must be longer
    /// than this plus one.
    pub reach: usize,
}

/// The kernel's `int` parameters: the first level's band, where its natural samples are, the
/// second level's low band, the high subbands' row step (every level's), then the bases of
/// subbands (0, 1), (1, 0) and (1, 1) of the first level and of the second.
pub(crate) const LEVEL_PAIR_INTS: [&str; 13] = [
    "rows",
    "cols",
    "nat_base",
    "nat_row_step",
    "low_base",
    "low_row_step",
    "high_row_step",
    "h0_01",
    "h0_10",
    "h0_11",
    "h1_01",
    "h1_10",
    "h1_11",
];

/// Where the kernel's local tile holds what, along one axis (the same along both): the level-1
/// indices `[a, a + held)` of the low band that level 2 reads begin `margin` before the tile's
/// own (`2 * q0`); each phase's slot `k` holds level-1 index `a - before + k`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairGeometry {
    /// Level-1 low-band indices level 2 reads before the tile's own.
    pub margin: usize,
    /// Level-1 indices lifted per line: the tile's own, the margins, rounded up to segments.
    pub held: usize,
    /// Slots per phase before the first held index (the level-1 segments' farthest halo).
    pub before: usize,
    /// Slots per phase.
    pub slots: usize,
}

impl PairGeometry {
    pub(crate) fn new(seg: &TileHalo, tile: usize, s: usize) -> Self {
        let (b, a) = (
            seg.load.map(|h| h.before as usize),
            seg.load.map(|h| h.after as usize),
        );
        // Level 2's segment registers reach phase q's indices [q0 - b[q], q0 + tile + a[q]),
        // which are level-1 indices 2n + q.
        let margin = (0..2)
            .map(|q| (2 * b[q]).saturating_sub(q))
            .max()
            .unwrap_or(0);
        let after = (0..2)
            .map(|q| (2 * a[q] + q).saturating_sub(1))
            .max()
            .unwrap_or(0);
        let held = (margin + 2 * tile + after).div_ceil(s) * s;
        let before = b[0].max(b[1]);
        PairGeometry {
            margin,
            held,
            before,
            slots: before + held + a[0].max(a[1]),
        }
    }

    /// The most indices a tile reads beyond the ends of a line, natural samples (level 1) or
    /// low-band indices (level 2), where the sides are multiples of `4 * tile`.
    pub(crate) fn reach(&self, tile: usize) -> usize {
        let natural_before = 2 * (self.margin + self.before);
        let natural_after = (2 * self.slots).saturating_sub(natural_before + 4 * tile);
        let low_after = self.held.saturating_sub(self.margin + 2 * tile);
        natural_before
            .max(natural_after)
            .max(self.margin)
            .max(low_after)
    }

    /// The local tile's rows (natural order: both phases of each slot) and columns (the even
    /// phase's slots, then the odd one's, then one more so that the pitch is odd and a column's
    /// rows fall on distinct banks).
    pub(crate) fn dims(&self) -> [usize; 2] {
        [2 * self.slots, 2 * self.slots + 1]
    }
}

impl Emitter<'_> {
    /// The level-pair kernel's geometry, or `None` where the module has none: not a forward of
    /// the Mallat layout stored in its working type, no lifting step, register segments too
    /// long for full occupancy ([`level_pair_words`](Self::level_pair_words)), or a tile over
    /// [`MAX_TILE_BYTES`].
    pub(crate) fn level_pair_geometry(&self) -> Option<PairGeometry> {
        let program = self.wavelet.program_for(self.direction);
        let seg = program.tile_halo(0);
        let applies = self.direction == Direction::Forward
            && self.layout == Layout::Mallat
            && self.d.storage_type(self.elem) == self.work()
            && self.wavelet.boundary != dwt_ir::Boundary::Periodic
            && !seg.steps.is_empty()
            && self.level_pair_words(&seg) <= LEVEL_PAIR_MAX_WORDS;
        let g = PairGeometry::new(&seg, LEVEL_PAIR_TILE, LEVEL_PAIR_SEGMENT);
        let [rows, cols] = g.dims();
        // The tile and the two tables of where an edge tile's rows and columns read from.
        let bytes = rows * cols * self.elem.size() + 2 * rows * 4;
        (applies && bytes <= MAX_TILE_BYTES).then_some(g)
    }

    /// The 4-byte words of one level-1 register segment (both phases with their halos).
    fn level_pair_words(&self, seg: &TileHalo) -> usize {
        let s = LEVEL_PAIR_SEGMENT;
        let values: usize = (seg.load.iter())
            .map(|h| (h.before + h.after) as usize + s)
            .sum();
        values * self.elem.size().div_ceil(4)
    }

    /// Whether the level-pair kernel asks for full occupancy ([`LevelPairPass::full_occupancy`]).
    pub(crate) fn level_pair_capped(&self) -> bool {
        self.cfg.register_cap != Some(false)
    }

    /// The level-pair kernel `name` on geometry `g`.
    pub(crate) fn level_pair(&self, w: &mut Writer, name: &str, g: PairGeometry) {
        let d = self.d;
        let (q, s, threads) = (LEVEL_PAIR_TILE, LEVEL_PAIR_SEGMENT, LEVEL_PAIR_THREADS);
        let seg = self.wavelet.program_for(self.direction).tile_halo(0);
        let (before, held, margin) = (g.before, g.held, g.margin);
        let [rows, cols] = g.dims();
        let mut params = self.nat_low_high().to_vec();
        params.extend(LEVEL_PAIR_INTS.map(Param::Int));
        w.comment(format!(
            "Level pair: levels 1 and 2 of the forward in one launch, one group of {threads} work-items per tile of"
        ));
        w.comment(format!(
            "{q}x{q} level-2 indices per phase. Level 1 is lifted over the tile and the {margin} + {} low-band indices",
            held - 2 * q - margin
        ));
        w.comment(format!(
            "around it that level 2 reads ({held} per line in segments of {s}); its high subbands are stored for the"
        ));
        w.comment("tile's own indices, its low band stays in local memory for level 2, whose four subbands are");
        w.comment(format!(
            "stored. Local tile: {rows} rows (natural order) x {cols} columns (even slots, odd slots); slot k of a phase holds"
        ));
        w.comment(format!(
            "level-1 index a - {before} + k. Sides multiples of {}; edge tiles load by whole-sample reflection and",
            4 * q
        ));
        w.comment("reflect the low band's margin beyond its band again before level 2.");
        let sig = d.kernel_signature(name, &params, [threads, 1, 1], self.level_pair_capped());
        let work = self.work();
        self.kernel_block(w, sig, |w| {
            w.line(d.local_array(work, "tile", &[rows, cols]));
            w.line(d.local_array("int", "from_row", &[rows]));
            w.line(d.local_array("int", "from_col", &[rows]));
            w.line(format!("const int tid = {};", d.local_id(0)));
            w.line(format!("const int q0x = {} * {q};", d.group_id(0)));
            w.line(format!("const int q0y = {} * {q};", d.group_id(1)));
            w.comment(
                "The first level-1 index held (a) and natural sample loaded (sx, sy) per axis.",
            );
            w.line(format!(
                "const int ax = 2 * q0x - {margin}, ay = 2 * q0y - {margin};"
            ));
            w.line(format!(
                "const int sx = 2 * (ax - {before}), sy = 2 * (ay - {before});"
            ));
            self.level_pair_load(w, g);
            w.line(d.barrier());
            self.level_pair_level1(w, g, &seg);
            w.line(d.barrier());
            self.level_pair_reflect_low(w, g);
            self.level_pair_level2(w, g, &seg);
        });
    }

    /// The natural samples into the tile: as pairs from inner tiles where the rows allow, else
    /// one sample at a time, reflected into the image.
    fn level_pair_load(&self, w: &mut Writer, g: PairGeometry) {
        let slots = g.slots;
        let [rows, _] = g.dims();
        let threads = LEVEL_PAIR_THREADS;
        let d = self.d;
        let aligned = match d.pair_aligned(self.elem, "nat") {
            Some(a) => format!(" && {a}"),
            None => String::new(),
        };
        w.line(format!(
            "const int rows_inside = sy >= 0 && sy + {rows} <= rows, cols_inside = sx >= 0 && sx + {rows} <= cols;"
        ));
        w.line(format!(
            "const int aligned = ((nat_base | nat_row_step) & 1) == 0{aligned};"
        ));
        w.line("const int pairs = cols_inside && aligned;");
        self.branch_then_barrier(w, "!(rows_inside && pairs)", |w| {
            w.comment("Where each loaded row and column reads from, reflected into the image once per tile:");
            w.comment("per sample, the reflections took registers the passes need.");
            share(w, "t", "tid", threads, 2 * rows, Unroll::No, |w| {
                w.block(format!("if (t < {rows})"), |w| {
                    w.line(format!(
                        "from_row[t] = ({}) * nat_row_step;",
                        folded("sy + t", "rows")
                    ))
                });
                w.block("else", |w| {
                    w.line(format!(
                        "from_col[t - {rows}] = {};",
                        folded(&format!("sx + t - {rows}"), "cols")
                    ))
                });
            });
        });
        let pair = d.pair_type(self.elem);
        w.block("if (pairs)", |w| {
            w.comment(format!(
                "{rows} rows x {slots} (even, odd) pairs; rows reflected at the image's top and bottom."
            ));
            share(w, "t", "tid", threads, rows * slots, Unroll::By4, |w| {
                w.line(format!("const int r = t / {slots}, k = t % {slots};"));
                w.line("const int row = rows_inside ? (sy + r) * nat_row_step : from_row[r];");
                let v = d.load_pair(self.elem, "nat", "nat_base + row + sx + 2 * k");
                w.line(format!("const {pair} v = {v};"));
                w.line(format!("tile[r][k] = {};", self.loaded("v.x")));
                w.line(format!("tile[r][{slots} + k] = {};", self.loaded("v.y")));
            });
        });
        w.block("else", |w| {
            w.comment("A tile at the image's left or right edge (or rows not aligned for pairs): the pairs inside");
            w.comment("the image as vectors where aligned, the others a sample at a time from where the tables say.");
            share(w, "t", "tid", threads, rows * slots, Unroll::By4, |w| {
                w.line(format!("const int r = t / {slots}, k = t % {slots};"));
                w.line("const int x = sx + 2 * k;");
                w.line(format!("{pair} v;"));
                w.block("if (aligned && x >= 0 && x + 2 <= cols)", |w| {
                    w.line(format!(
                        "v = {};",
                        d.load_pair(self.elem, "nat", "nat_base + from_row[r] + x")
                    ));
                });
                w.block("else", |w| {
                    w.line("v.x = nat[nat_base + from_row[r] + from_col[2 * k]];");
                    w.line("v.y = nat[nat_base + from_row[r] + from_col[2 * k + 1]];");
                });
                w.line(format!("tile[r][k] = {};", self.loaded("v.x")));
                w.line(format!("tile[r][{slots} + k] = {};", self.loaded("v.y")));
            });
        });
    }

    /// Level 1 along x over every loaded row, then along y: the low-x columns of every held
    /// index (their low rows kept in the tile for level 2, their high rows of the tile's own
    /// indices stored as subband (1, 0)), the high-x columns of the tile's own indices (stored
    /// as subbands (0, 1) and (1, 1)).
    fn level_pair_level1(&self, w: &mut Writer, g: PairGeometry, seg: &TileHalo) {
        let d = self.d;
        let (q, s, threads) = (LEVEL_PAIR_TILE, LEVEL_PAIR_SEGMENT, LEVEL_PAIR_THREADS);
        let (before, held, slots, margin) = (g.before, g.held, g.slots, g.margin);
        let [rows, _] = g.dims();
        let work = self.work();
        let group = self.group_inner_taps;

        // Along x: every loaded row, segments over the held indices.
        self.lift_in_place(
            w,
            seg,
            rows * (held / s),
            &format!(
                "Level 1 along x in registers: {rows} rows x {} segments of {s} indices per phase.",
                held / s
            ),
            &format!("const int r = t % {rows}, k0 = {before} + {s} * (t / {rows});"),
            &|p, k| {
                format!(
                    "tile[r][{}]",
                    offset(&format!("{}k0", slot_base(p, slots)), k)
                )
            },
            &|v| v,
        );

        // Along y.
        let low_tasks = held * (held / s);
        let high_tasks = 2 * q * (2 * q / s);
        w.block("", |w| {
            w.line(format!("{work} kept[{}][{s}];", low_tasks.div_ceil(threads)));
            w.comment(format!(
                "Level 1 along y, low-x columns: {held} columns x {} segments; the low rows kept, the tile's own",
                held / s
            ));
            w.comment("high rows of the tile's own columns stored as subband (1, 0).");
            share(w, "t", "tid", threads, low_tasks, Unroll::Whole, |w| {
                w.line(format!("const int c = t % {held}, j = t / {held};"));
                w.line(format!("const int col = {before} + c, k0 = {before} + {s} * j;"));
                self.lift_registers(w, seg, s, group, None, &|p, k| {
                    format!("tile[{}][col]", natural_row("k0", k, p))
                });
                for i in 0..s {
                    w.line(format!("kept[round][{i}] = e{};", i + seg.load[0].before as usize));
                }
                let own = |v: &str| format!("{v} >= {margin} && {v} < {}", margin + 2 * q);
                w.block(format!("if ({})", own("c")), |w| {
                    w.line("const int at = h0_10 + ax + c;");
                    for i in 0..s {
                        let row = format!("{s} * j + {i}");
                        w.block(format!("if ({})", own(&row)), |w| {
                            w.line(format!(
                                "high[at + (ay + {row}) * high_row_step] = to_elem(o{});",
                                i + seg.load[1].before as usize
                            ))
                        });
                    }
                });
            });
            w.comment(format!(
                "Level 1 along y, high-x columns: the tile's own {} columns x {} segments, stored as",
                2 * q,
                2 * q / s
            ));
            w.comment("subbands (0, 1) and (1, 1).");
            share(w, "t", "tid", threads, high_tasks, Unroll::No, |w| {
                w.line(format!("const int c = t % {}, j = t / {};", 2 * q, 2 * q));
                w.line(format!(
                    "const int col = {} + c, k0 = {} + {s} * j;",
                    slots + before + margin,
                    before + margin
                ));
                self.lift_registers(w, seg, s, group, None, &|p, k| {
                    format!("tile[{}][col]", natural_row("k0", k, p))
                });
                w.line(format!(
                    "const int at = (2 * q0y + {s} * j) * high_row_step + 2 * q0x + c;"
                ));
                for i in 0..s {
                    for (p, band) in [(0, "h0_01"), (1, "h0_11")] {
                        let row = match i {
                            0 => String::new(),
                            _ => format!(" + {i} * high_row_step"),
                        };
                        w.line(format!(
                            "high[{band} + at{row}] = to_elem({}{});",
                            ["e", "o"][p],
                            i + seg.load[p].before as usize
                        ));
                    }
                }
            });
            w.line(d.barrier());
            share(w, "t", "tid", threads, low_tasks, Unroll::Whole, |w| {
                w.line(format!("const int c = t % {held}, j = t / {held};"));
                w.line(format!("const int col = {before} + c, k0 = {before} + {s} * j;"));
                for i in 0..s {
                    w.line(format!(
                        "tile[{}][col] = kept[round][{i}];",
                        natural_row("k0", i as i64, 0)
                    ));
                }
            });
        });
    }

    /// An edge tile's low-band indices beyond the band take the values the boundary rule reads
    /// there (whole-sample reflection into the band, inside the tile's held indices where the
    /// sides are multiples of the tile).
    fn level_pair_reflect_low(&self, w: &mut Writer, g: PairGeometry) {
        let (before, held) = (g.before, g.held);
        let n = held * held;
        w.line("const int low_rows = (rows + 1) / 2, low_cols = (cols + 1) / 2;");
        self.branch_then_barrier(
            w,
            &format!("ax < 0 || ay < 0 || ax + {held} > low_cols || ay + {held} > low_rows"),
            |w| {
                w.comment("Every index beyond the low band reads its reflection in the band, which no work-item writes.");
                share(w, "t", "tid", LEVEL_PAIR_THREADS, n, Unroll::No, |w| {
                    w.line(format!("const int cy = t / {held}, cx = t % {held};"));
                    w.line("int y = ay + cy, x = ax + cx;");
                    w.block("if (y < 0 || y >= low_rows || x < 0 || x >= low_cols)", |w| {
                        w.line(format!("const int ry = {};", folded("y", "low_rows")));
                        w.line(format!("const int rx = {};", folded("x", "low_cols")));
                        w.line(format!(
                            "tile[2 * ({before} + cy)][{before} + cx] = tile[2 * ({before} + ry - ay)][{before} + rx - ax];"
                        ));
                    });
                });
            },
        );
    }

    /// `if (cond) { body }` for a condition the whole group shares, then a barrier: inside the
    /// branch where the dialect trusts barriers there (the groups that skip it meet none), else
    /// after it ([`crate::Dialect::barriers_in_uniform_branches`]).
    fn branch_then_barrier(&self, w: &mut Writer, cond: &str, body: impl FnOnce(&mut Writer)) {
        let inside = self.d.barriers_in_uniform_branches();
        w.block(format!("if ({cond})"), |w| {
            body(w);
            if inside {
                w.line(self.d.barrier());
            }
        });
        if !inside {
            w.line(self.d.barrier());
        }
    }

    /// A pass of register segments that writes its results back where it read them, `tasks`
    /// segments of [`LEVEL_PAIR_SEGMENT`] per phase: each work-item reads (`read` of the tile's
    /// `at(phase, index)`), lifts and keeps its segments' own indices, and after a barrier (a
    /// segment's halo is its neighbours' own indices) stores them; a barrier after. `header`
    /// declares what `at` names from the task `t`.
    #[allow(clippy::too_many_arguments)]
    fn lift_in_place(
        &self,
        w: &mut Writer,
        seg: &TileHalo,
        tasks: usize,
        comment: &str,
        header: &str,
        at: &dyn Fn(usize, i64) -> String,
        read: &dyn Fn(String) -> String,
    ) {
        let (s, threads, d) = (LEVEL_PAIR_SEGMENT, LEVEL_PAIR_THREADS, self.d);
        w.block("", |w| {
            w.line(format!(
                "{} kept[{}][{}];",
                self.work(),
                tasks.div_ceil(threads),
                2 * s
            ));
            w.comment(comment);
            share(w, "t", "tid", threads, tasks, Unroll::Whole, |w| {
                w.line(header);
                self.lift_registers(w, seg, s, self.group_inner_taps, None, &|p, k| {
                    read(at(p, k))
                });
                keep(w, seg, s);
            });
            w.line(d.barrier());
            share(w, "t", "tid", threads, tasks, Unroll::Whole, |w| {
                w.line(header);
                for p in 0..2 {
                    for i in 0..s {
                        w.line(format!("{} = kept[round][{}];", at(p, i as i64), p * s + i));
                    }
                }
            });
            w.line(d.barrier());
        });
    }

    /// Level 2 on the low band in the tile: along x over the rows it reads (written back),
    /// then along y, its four subbands stored.
    fn level_pair_level2(&self, w: &mut Writer, g: PairGeometry, seg: &TileHalo) {
        let d = self.d;
        let (q, s, threads) = (LEVEL_PAIR_TILE, LEVEL_PAIR_SEGMENT, LEVEL_PAIR_THREADS);
        let (before, held, margin) = (g.before, g.held, g.margin);
        let group = self.group_inner_taps;
        // Level-2 index n0 + k of phase p, in segments of `len` (n0 = q0 + len * j): level-1
        // index 2 (n0 + k) + p, held index 2 (n0 + k) + p - a = margin + 2 * (len * j + k) + p.
        let held_at = |len: usize, p: usize, k: i64| {
            format!(
                "{} + 2 * ({})",
                before + margin + p,
                offset(&format!("{len} * j"), k)
            )
        };
        let shifted = |v: String| match self.pre_shifted() {
            true => format!("pre_shift({v})"),
            false => v,
        };
        self.lift_in_place(
            w,
            seg,
            held * (q / s),
            &format!(
                "Level 2 along x in registers: {held} low-band rows x {} segments of {s} indices per phase.",
                q / s
            ),
            &format!("const int r = 2 * ({before} + t % {held}), j = t / {held};"),
            &|p, k| format!("tile[r][{}]", held_at(s, p, k)),
            &shifted,
        );
        let pointer = d.global_pointer(d.storage_type(self.elem));
        let s = LEVEL2_Y_SEGMENT;
        w.comment(format!(
            "Level 2 along y in registers: {} columns x {} segments of {s}, stored as the four subbands.",
            2 * q,
            q / s
        ));
        share(w, "t", "tid", threads, 2 * q * (q / s), Unroll::No, |w| {
            w.line(format!("const int c = t % {}, j = t / {};", 2 * q, 2 * q));
            w.line(format!("const int col = {} + c;", before + margin));
            self.lift_registers(w, seg, s, group, None, &|p, k| {
                format!("tile[2 * ({})][col]", held_at(s, p, k))
            });
            w.line(format!(
                "const int px = c & 1, nx = q0x + (c >> 1), ny = q0y + {s} * j;"
            ));
            w.line(format!(
                "{pointer} const e_out = px ? high + h1_01 + nx + ny * high_row_step : low + low_base + nx + ny * low_row_step;"
            ));
            w.line("const int e_step = px ? high_row_step : low_row_step;");
            w.line(format!(
                "{pointer} const o_out = high + (px ? h1_11 : h1_10) + nx + ny * high_row_step;"
            ));
            for i in 0..s {
                let [e_at, o_at] = match i {
                    0 => ["0".to_string(), "0".to_string()],
                    _ => [format!("{i} * e_step"), format!("{i} * high_row_step")],
                };
                w.line(format!(
                    "e_out[{e_at}] = to_elem(e{});",
                    i + seg.load[0].before as usize
                ));
                w.line(format!(
                    "o_out[{o_at}] = to_elem(o{});",
                    i + seg.load[1].before as usize
                ));
            }
        });
    }
}

/// Where phase `p`'s slots begin in a row of the tile: `""` (the even phase) or `"{slots} + "`.
fn slot_base(p: usize, slots: usize) -> String {
    match p {
        0 => String::new(),
        _ => format!("{slots} + "),
    }
}

/// The tile's row of phase `p` of slot `k0 + k` (rows in natural order: both phases of a slot).
fn natural_row(k0: &str, k: i64, p: usize) -> String {
    let row = match k {
        0 => format!("2 * {k0}"),
        _ => format!("2 * ({})", offset(k0, k)),
    };
    match p {
        0 => row,
        _ => format!("{row} + {p}"),
    }
}

/// `kept[round][..]` = the segment's own registers of both phases (named from `seg`'s halo).
fn keep(w: &mut Writer, seg: &TileHalo, s: usize) {
    for p in 0..2 {
        for i in 0..s {
            w.line(format!(
                "kept[round][{}] = {}{};",
                p * s + i,
                ["e", "o"][p],
                i + seg.load[p].before as usize
            ));
        }
    }
}

/// Natural index `i` of a line of `n` samples reflected once about the nearer end sample
/// (whole-sample symmetric): the boundary rule's index wherever `i` lies less than `n - 1` beyond
/// the line, as every index a level-pair tile reads does (sides of at least 64, halos of a few
/// indices: [`PairGeometry::reach`]).
fn folded(i: &str, n: &str) -> String {
    format!("({i}) < 0 ? -({i}) : (({i}) >= {n} ? 2 * ({n} - 1) - ({i}) : ({i}))")
}
