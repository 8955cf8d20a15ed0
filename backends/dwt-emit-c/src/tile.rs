//! The fused 2-D pass: one kernel per level that reads a tile of the band with its halo once,
//! lifts it along x and along y on chip (in registers in tiles away from the band's edges,
//! `tile_inner.rs`; at the edges too, where a halo loaded by reflection stands in for the
//! boundary rule, the clamp rule is applied again after each step, or a periodic band's halo is
//! loaded modulo its sides, else step by step in local
//! memory, here: [`EdgeTiles`]), and writes the tile's four
//! subbands once (the forward direction; the inverse reads the four subbands and writes the band).
//! Halos come from the IR's step supports ([`dwt_ir::TileHalo`]); the planner runs it only where
//! the IR proves the tiles at the ends of both axes exact ([`TilePass::exact_on`]).
//!
//! The kernel is out of place: a tile's halo overlaps its neighbours' samples, which they must
//! still read unlifted. Where each subband goes (the Mallat quadrants, the interleaved grid, a
//! compact scratch band for the next level) is the planner's business: every buffer is addressed
//! as `base + row * row_step + col * col_step`.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use dwt_ir::{Boundary, Direction, ElementKind, ElementType, Op, Program, TileHalo};

use crate::dialect::Param;
use crate::emit::{offset, reflection, Emitter};
use crate::tile_inner::{segment_len, EdgeHalo, Pass, Stage};
use crate::writer::Writer;
use crate::EmitError;

/// The fused kernel of a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TilePass {
    /// `(nat, low, high, rows, cols, nat_base, nat_col_step, nat_row_step, low_base,
    /// low_col_step, low_row_step, high01_base, high10_base, high11_base, high_col_step,
    /// high_row_step)` and, with [`planes`](Self::planes), `plane_step`: one group of `threads`
    /// work-items per tile (and plane: group z, every buffer offset by `z * plane_step`): group
    /// `(gx, gy)` owns polyphase indices `[gx * tile[0], (gx + 1) * tile[0])` along x and
    /// `[gy * tile[1], ...)` along y of both phases. `nat` holds the band in natural order (forward: read, inverse:
    /// written); subband `(py, px)` (row phase, column phase) sample `(my, mx)` is in `low` for
    /// `(0, 0)` and in `high` at `high{py}{px}_base` otherwise. The reads never alias the writes.
    pub kernel: String,
    /// Polyphase indices per phase a tile owns along x and along y.
    pub tile: [usize; 2],
    /// Work-items per group (a 1-D group).
    pub threads: usize,
    /// The halos the kernel was emitted with (the same along both axes: one program).
    pub halo: TileHalo,
    /// Whether the kernel takes a last argument `plane_step` and lifts one plane of a stack per
    /// group along z ([`LaunchConfig::planes`](crate::LaunchConfig::planes)).
    pub planes: bool,
    /// How tiles at a band's edge lift, and so what proves them exact for a band.
    pub edges: EdgeTiles,
    /// Whether the kernel asks for full occupancy (on CUDA a register cap:
    /// [`LaunchConfig::register_cap`](crate::LaunchConfig::register_cap)).
    pub full_occupancy: bool,
    /// Forward only: whether subband (0, 1) goes to `low` (at `high01_base`, with
    /// `low_col_step` and `low_row_step`) rather than to `high` with the other two. The
    /// interleaved forward's first level before the even rows
    /// ([`KernelModule::even_rows_tile`](crate::KernelModule::even_rows_tile)) so keeps both
    /// subbands of the image's even rows compact in the scratch while the odd rows go to their
    /// places in the data.
    pub band01_with_low: bool,
}

/// How the fused kernel lifts the tiles at a band's edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeTiles {
    /// One step at a time over the tile, a barrier after each, every read through the boundary
    /// rule: exact for a band where [`dwt_ir::Program::tiles_exact`] says so for both axes.
    BoundaryRule,
    /// Like inner tiles, in registers, after loading the halo beyond the band's ends by
    /// whole-sample reflection; the lifting never reads through the boundary rule. Exact for a
    /// band where [`dwt_ir::Program::reflected_segments_exact`] says so for both axes with the
    /// register path's segments of `segments` (x, y) indices. The kernel takes it where that
    /// holds for every line the planner is likely to meet (symmetric two-tap programs under the
    /// clamp rule: LeGall 5/3, Daubechies 9/7, CDF 9/7 and 5/3): three barriers instead of one
    /// per step, no boundary rule per read. Measured in BENCHMARKS.md (edge tiles bounded small
    /// levels: a level's kernel lasts as long as its slowest group).
    Reflected { segments: [usize; 2] },
    /// Like inner tiles, in registers, after loading the halo beyond the band's ends modulo its
    /// sides (a periodic program): the periodic extension is the signal itself, so these tiles
    /// lift as inner ones do, exact on every band of two samples or more along each axis.
    Wrapped,
    /// Like inner tiles, in registers, under the clamp rule itself: the halo beyond the band
    /// loaded from the nearest sample of the same phase, and after each lifting step the indices
    /// beyond the band set again to their phase's new end sample (so each read beyond the band
    /// sees what the rule reads: `tile_inner.rs`, `EdgeHalo::Clamped`). Exact on every band of
    /// at least two samples along each axis for a program whose segments hold each end sample
    /// the rule reads (`clamp_in_registers`; Haar's forward only with
    /// [`LaunchConfig::clamped_edges_reach_back`](crate::LaunchConfig::clamped_edges_reach_back));
    /// the kernel takes it for programs under [`Boundary::Clamp`] whose reflected edges are not
    /// proved (the four-tap ones: Deslauriers-Dubuc (9,7) and (13,7), Fidelity), whose edge
    /// tiles took the general path before.
    Clamped,
}

impl EdgeTiles {
    /// How the register path makes an edge tile's halo; `None`: edge tiles take the general
    /// path.
    fn halo(self) -> Option<EdgeHalo> {
        match self {
            EdgeTiles::Reflected { .. } => Some(EdgeHalo::Reflected),
            EdgeTiles::Clamped => Some(EdgeHalo::Clamped),
            EdgeTiles::Wrapped => Some(EdgeHalo::Wrapped),
            EdgeTiles::BoundaryRule => None,
        }
    }
}

impl TilePass {
    /// Whether the kernel is exact on a band of `h` x `w` samples.
    pub fn exact_on(
        &self,
        program: &Program,
        boundary: Boundary,
        kind: ElementKind,
        [h, w]: [usize; 2],
    ) -> bool {
        let [tx, ty] = self.tile;
        match self.edges {
            EdgeTiles::BoundaryRule => {
                program.tiles_exact(boundary, w, tx, &self.halo)
                    && program.tiles_exact(boundary, h, ty, &self.halo)
            }
            EdgeTiles::Reflected { segments } => [w, h].into_iter().zip(segments).all(|(n, s)| {
                remembered(program, boundary, kind, Question::Line(n, s), || {
                    program.reflected_segments_exact(boundary, kind, n, s)
                })
            }),
            EdgeTiles::Clamped => boundary == Boundary::Clamp && w >= 2 && h >= 2,
            EdgeTiles::Wrapped => boundary == Boundary::Periodic && w >= 2 && h >= 2,
        }
    }
}

/// Whether the register path can apply the clamp rule itself ([`EdgeTiles::Clamped`]): at each
/// step, a read beyond the source phase's end takes that phase's end sample, which must then be
/// among the segment's registers with its current value. An end lies between the in-band target
/// index reading it and the read, except where an even index reads odd ones past the odd
/// phase's end in a line of odd length: the odd end is then the index just before the target's.
/// So each step into the even phase needs the odd index before its first target index current.
/// `seg` is the edge segments' halo ([`Emitter::clamped_segment_halo`]); this checks every even
/// step against it, and that the tile (loaded as `tile` says) holds what the segments at its
/// ends read.
fn clamp_in_registers(program: &Program, seg: &TileHalo, tile: &TileHalo) -> bool {
    let held = (0..2).all(|q| {
        seg.load[q].before <= tile.load[q].before && seg.load[q].after <= tile.load[q].after
    });
    // Per phase, the first register index holding a current value (relative to the segment).
    let mut first = seg.load.map(|h| -(h.before as i64));
    held && program.steps().zip(&seg.steps).all(|(step, h)| {
        let from = -(h.before as i64);
        let ok = step.target.parity() != 0 || first[1] < from;
        first[step.target.parity() as usize] = from;
        ok
    })
}

/// What is asked of reflected edges, with segments of the second number of indices.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Question {
    /// Exact on every line of 2 to this many samples (whether the emitter takes them).
    LinesUpTo(usize, usize),
    /// Exact on a line of this many samples (a band the planner runs the kernel on).
    Line(usize, usize),
}

/// The answer of `check` to `question` about reflected edges of `program`, remembered for the
/// process: it depends only on those, and the symbolic comparison behind it costs tens of
/// microseconds per line (an emission asks about every line up to six tiles long; every plan
/// about each band), against a millisecond or two for a whole module's emission.
fn remembered(
    program: &Program,
    boundary: Boundary,
    kind: ElementKind,
    question: Question,
    check: impl FnOnce() -> bool,
) -> bool {
    type Answers = HashMap<(String, Question), bool>;
    static ANSWERS: OnceLock<Mutex<Answers>> = OnceLock::new();
    let answers = ANSWERS.get_or_init(Default::default);
    let key = (format!("{program:?} {boundary:?} {kind:?}"), question);
    let known = answers
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&key)
        .copied();
    known.unwrap_or_else(|| {
        let answer = check();
        answers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(key, answer);
        answer
    })
}

/// Before the loops that move a tile between global and local memory: several loads (stores) in
/// flight per work-item, which the memory system needs to approach its bandwidth. Both NVRTC and
/// Clang-based OpenCL compilers (PoCL) read it.
pub(crate) const UNROLL: &str = "#pragma unroll 4";

/// How [`share`] unrolls a work-item's loop.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unroll {
    /// As the compiler likes.
    No,
    /// By 4 ([`UNROLL`]): a loop of fewer rounds never reaches its unrolled body.
    By4,
    /// Whole, over a compile-time count of rounds (`round`, in the body's scope): every round's
    /// loads can be in flight at once, at the price of their registers.
    Whole,
    /// Whole, and only the last round checks its index (every earlier one takes every
    /// work-item, as `first` < `step`): those rounds hold no branch, and ptxas issues their loads
    /// together. Under [`Unroll::Whole`]'s check in every round it split the inner tiles' loads
    /// into batches of two to seven and a wait per halo load (Fidelity's 1920x1080 tiles, NVRTC
    /// 13.0, BENCHMARKS.md).
    WholeLastChecked,
}

/// A work-item's share of the indices below `n`: `var` takes `first` (an expression in
/// `[0, step)`, differing between work-items), `first + step`, and so on, in a loop unrolled
/// as `unroll` says.
pub(crate) fn share(
    w: &mut Writer,
    var: &str,
    first: &str,
    step: usize,
    n: usize,
    unroll: Unroll,
    body: impl FnOnce(&mut Writer),
) {
    match unroll {
        Unroll::No | Unroll::By4 => {
            if unroll == Unroll::By4 {
                w.line(UNROLL);
            }
            w.block(
                format!("for (int {var} = {first}; {var} < {n}; {var} += {step})"),
                body,
            );
        }
        Unroll::Whole | Unroll::WholeLastChecked => {
            let rounds = n.div_ceil(step);
            w.line("#pragma unroll");
            w.block(
                format!("for (int round = 0; round < {rounds}; ++round)"),
                |w| {
                    w.line(format!("const int {var} = {first} + round * {step};"));
                    let full = n / step;
                    if rounds * step == n {
                        body(w);
                    } else if unroll == Unroll::WholeLastChecked && full > 0 {
                        w.block(format!("if (round < {full} || {var} < {n})"), body);
                    } else {
                        w.block(format!("if ({var} < {n})"), body);
                    }
                },
            );
        }
    }
}

/// Where subband `band = 2 * py + px` (not 0) starts in `high`: the same in the load of the
/// inverse and the store of the forward kernel.
const HIGH_BASE: &str =
    "const int hb = band == 1 ? high01_base : (band == 2 ? high10_base : high11_base);";

/// The most local memory a tile may take: CUDA's static shared-memory limit per block (the
/// most any kernel may declare).
pub const MAX_TILE_BYTES: usize = 48 * 1024;

/// The most values a forward's first register pass may keep per work-item across its barriers
/// for the kernel to be held to full occupancy (32 registers at 256 work-items): what the
/// default tiles keep (one round of a segment of 8 per phase). More spilled under that cap.
const KEPT_UNDER_CAP: usize = 16;

/// Where one axis's samples sit in the local tile: phase 0 from index 0, phase 1 from `phase1`
/// (padded so that the two phases of consecutive natural samples fall in different banks).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxisLayout {
    pub(crate) t: usize,
    pub(crate) before: [usize; 2],
    pub(crate) stored: [usize; 2],
    pub(crate) phase1: usize,
    /// Storage indices along the axis (padding included).
    pub(crate) total: usize,
    /// The array's extent: `total`, made odd along x so that work-items walking down a column
    /// of the tile (the register pass along x) hit distinct banks, or with
    /// [`vector_rows`](Self::vector_rows) four more than a multiple of eight.
    pub(crate) extent: usize,
    /// Whether the register pass along x reads and writes its segments 16 bytes at a time
    /// ([`AxisLayout::with_vector_rows`]): the tile array is then aligned to 16 bytes.
    pub(crate) vector_rows: bool,
}

impl AxisLayout {
    fn new(halo: &TileHalo, t: usize, pad: bool) -> Self {
        let stored = halo.stored(t);
        let before = halo.load.map(|h| h.before as usize);
        // Natural sample 2m lands at m + before0, 2m+1 at phase1 + m + before1: a half-warp
        // apart when those differ by 16 (mod 32) words.
        let mut phase1 = stored[0];
        if pad {
            while (phase1 + before[1] + 32 - before[0] % 32) % 32 != 16 {
                phase1 += 1;
            }
        }
        let total = phase1 + stored[1];
        AxisLayout {
            t,
            before,
            stored,
            phase1,
            total,
            extent: if pad { total | 1 } else { total },
            vector_rows: false,
        }
    }

    /// This (x) layout with rows that the register pass along x reads and writes 16 bytes at a
    /// time, where ptxas can prove the alignment: phase 1 moved so that a segment's reads of it
    /// begin at a multiple of four storage indices (`reads`: the indices a segment reads before
    /// its first own one, per phase, at most the tile's own halo), and an extent of four more
    /// than a multiple of eight, so that the eight work-items of a 16-byte access's quarter warp,
    /// on neighbouring rows (or on the segments of two rows), hit 32 distinct banks. A segment of
    /// 16 indices then reads Fidelity's 53 values in 14 accesses instead of 53 and writes its 32
    /// in 10 (NVRTC 13.0, sm_90 SASS). Phase 1 loses the half-warp spacing of
    /// [`AxisLayout::new`]: natural-order walks of the tile (edge tiles' stores) take two passes
    /// of the banks.
    fn with_vector_rows(self, reads: [usize; 2]) -> Self {
        let mut phase1 = self.stored[0];
        while (phase1 + self.before[1] - reads[1]) % 4 != 0 {
            phase1 += 1;
        }
        let total = phase1 + self.stored[1];
        AxisLayout {
            phase1,
            total,
            extent: total + (12 - total % 8) % 8,
            vector_rows: true,
            ..self
        }
    }

    /// The natural samples the tile loads along this axis, from the first loaded even or odd one
    /// to the last: (first, relative to twice the tile's first polyphase index; count).
    pub(crate) fn natural_span(&self) -> (i64, usize) {
        let first = (-2 * self.before[0] as i64).min(1 - 2 * self.before[1] as i64);
        let last = (2 * (self.stored[0] - self.before[0]) as i64 - 2)
            .max(2 * (self.stored[1] - self.before[1]) as i64 - 1);
        (first, (last - first + 1) as usize)
    }

    /// The indices the tile loads before its first own one, in the phase that loads more: where
    /// the first loaded (even, odd) pair of a row lies, `m0 - lead`.
    pub(crate) fn lead(&self) -> usize {
        self.before[0].max(self.before[1])
    }

    /// The (even, odd) pairs of natural samples a row of the tile spans along this axis, from the
    /// first loaded index of either phase to the last: what the forward's inner tiles load pair
    /// by pair.
    pub(crate) fn pair_width(&self) -> usize {
        (0..2)
            .map(|q| self.stored[q] - self.before[q] + self.lead())
            .max()
            .unwrap_or(0)
    }

    /// The natural row of stored row `l` (in `[0, stored0 + stored1)`, before the padding), from
    /// the kernel's `sy0`, `sy1`.
    pub(crate) fn natural_row(&self, l: &str) -> String {
        format!(
            "{l} < {s0} ? 2 * (sy0 + {l}) : 2 * (sy1 + {l} - {s0}) + 1",
            s0 = self.stored[0]
        )
    }

    /// A line index `l` in `[0, stored0 + stored1)` as a storage index (skipping the padding).
    pub(crate) fn all_lines(&self, l: &str) -> String {
        if self.phase1 == self.stored[0] {
            l.to_string()
        } else {
            format!(
                "({l} < {} ? {l} : {l} + {})",
                self.stored[0],
                self.phase1 - self.stored[0]
            )
        }
    }

    /// A line index `l` in `[0, 2t)` (the tile's own indices, phase 0 then phase 1) as a
    /// storage index.
    pub(crate) fn own_lines(&self, l: &str) -> String {
        format!(
            "({l} < {t} ? {} : {})",
            offset(l, self.before[0] as i64),
            offset(
                l,
                self.phase1 as i64 + self.before[1] as i64 - self.t as i64
            ),
            t = self.t
        )
    }
}

/// The two axes of a tile: which variable names, extents and layouts belong to each.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Axis {
    X,
    Y,
}

impl Axis {
    pub(crate) fn v(self) -> &'static str {
        match self {
            Axis::X => "x",
            Axis::Y => "y",
        }
    }

    /// The band's extent along the axis.
    fn extent(self) -> &'static str {
        match self {
            Axis::X => "cols",
            Axis::Y => "rows",
        }
    }
}

impl Emitter<'_> {
    /// A loop over indices `t < n`, each work-item of the group taking every `tile_threads`-th
    /// from its own; `unrolled` (loops that move the tile between global and local memory) puts
    /// [`UNROLL`] before it.
    pub(crate) fn strided(
        &self,
        w: &mut Writer,
        n: usize,
        unrolled: bool,
        body: impl FnOnce(&mut Writer),
    ) {
        let unroll = if unrolled { Unroll::By4 } else { Unroll::No };
        share(w, "t", "tid", self.cfg.tile_threads, n, unroll, body);
    }

    /// The same indices as [`Emitter::strided`], the loop unrolled whole ([`Unroll::Whole`]).
    pub(crate) fn strided_whole(&self, w: &mut Writer, n: usize, body: impl FnOnce(&mut Writer)) {
        share(w, "t", "tid", self.cfg.tile_threads, n, Unroll::Whole, body);
    }

    /// Refuses tiles too large for local memory before [`Emitter::tile_plan`] searches for the
    /// halo that makes them exact, which simulates the edge tiles of every line of up to
    /// `6 * t + 2` samples: 0.4 s for tiles of 1024, seconds for 4096 (per module, and
    /// `LaunchConfig::for_request` emits several), without end for larger ones, only to refuse
    /// them. The halo of margin 0 is the least the search can take, so a tile that does not fit
    /// with it fits with none. Sides past any tile that fits are refused on their own work
    /// values (both phases of its indices along both axes), a bound that cannot overflow.
    fn refuse_oversized_tile(&self, program: &Program, tile: [usize; 2]) -> Result<(), EmitError> {
        let own = (tile.iter()).fold(self.work_bytes(), |n, &t| {
            n.saturating_mul(t.saturating_mul(2))
        });
        let bytes = if own > MAX_TILE_BYTES {
            own
        } else {
            let least = program.tile_halo(0);
            self.local_bytes([
                AxisLayout::new(&least, tile[0], true),
                AxisLayout::new(&least, tile[1], false),
            ])
        };
        if bytes > MAX_TILE_BYTES {
            return Err(EmitError::NoTile(format!(
                "tiles of {}x{} indices take at least {bytes} bytes of local memory, more than {MAX_TILE_BYTES}; lower LaunchConfig::tile",
                tile[0], tile[1]
            )));
        }
        Ok(())
    }

    /// Emits the fused kernel, or says why there is none for this program.
    pub(crate) fn tile_plan(
        &self,
        tile: [usize; 2],
    ) -> Result<(TileHalo, [AxisLayout; 2], EdgeTiles), EmitError> {
        let program = self.wavelet.program_for(self.direction);
        self.refuse_oversized_tile(&program, tile)?;
        let longest = tile[0].max(tile[1]);
        let lines = 6 * longest + 2;
        // A periodic band's edge tiles load their halo modulo its sides and lift as inner tiles
        // (`EdgeTiles::Wrapped`): the inner tiles' halo is every tile's.
        let halo = match self.wavelet.boundary {
            Boundary::Periodic => Some(program.tile_halo(0)),
            b => TileHalo::for_lines(&program, b, longest, lines, 4),
        }
        .ok_or_else(|| EmitError::NoTile(format!(
                "no halo of up to 4 extra indices makes tiles exact at the ends of a line under the {} boundary",
                self.wavelet.boundary.name()
            )))?;
        if halo.steps.is_empty() {
            return Err(EmitError::NoTile("the program has no lifting step".into()));
        }
        let mut x = AxisLayout::new(&halo, tile[0], true);
        let y = AxisLayout::new(&halo, tile[1], false);
        let bytes = self.local_bytes([x, y]);
        if bytes > MAX_TILE_BYTES {
            return Err(EmitError::NoTile(format!(
                "a tile of {}x{} work values and its index maps take {bytes} bytes of local memory, more than {MAX_TILE_BYTES}",
                y.total, x.total
            )));
        }
        // Vector rows where they fit too: never a tile the odd layout would not fit, so that the
        // planner's choice of tiles stays.
        if let Some(reads) = self.vector_row_reads(&halo, tile[0]) {
            let vector = x.with_vector_rows(reads);
            if self.local_bytes([vector, y]) <= MAX_TILE_BYTES {
                x = vector;
            }
        }
        // Reflected edges where they hold on every line of up to `lines` samples, as the halo's
        // margin is chosen; the planner checks each band it runs the kernel on either way.
        let segments = tile.map(|t| segment_len(t, self.cfg.segment));
        let kind = self.elem.kind();
        let boundary = self.wavelet.boundary;
        let reflected = || {
            segments.iter().all(|&s| {
                remembered(
                    &program,
                    boundary,
                    kind,
                    Question::LinesUpTo(lines, s),
                    || (2..=lines).all(|n| program.reflected_segments_exact(boundary, kind, n, s)),
                )
            })
        };
        // A periodic program's edge tiles need no proof (EdgeTiles::Wrapped): none is run.
        let edges = if boundary == Boundary::Periodic {
            EdgeTiles::Wrapped
        } else if reflected() {
            EdgeTiles::Reflected { segments }
        } else if boundary == Boundary::Clamp
            && clamp_in_registers(&program, &self.clamped_segment_halo(), &halo)
        {
            EdgeTiles::Clamped
        } else {
            EdgeTiles::BoundaryRule
        };
        Ok((halo, [x, y], edges))
    }

    /// The halos of the register segments of edge tiles under the clamp rule, the one place
    /// both the choice of [`EdgeTiles::Clamped`] and the emitted segments take them from: the
    /// program's own ([`Program::tile_halo`]), or with
    /// [`LaunchConfig::clamped_edges_reach_back`](crate::LaunchConfig::clamped_edges_reach_back)
    /// reaching the odd index before each even target ([`Program::clamped_segment_halo`]:
    /// Haar's even step reads odd index `m` alone, and its segments then hold one odd index
    /// more, at a cost in registers).
    pub(crate) fn clamped_segment_halo(&self) -> TileHalo {
        let program = self.wavelet.program_for(self.direction);
        if self.cfg.clamped_edges_reach_back.unwrap_or(false) {
            program.clamped_segment_halo()
        } else {
            program.tile_halo(0)
        }
    }

    pub(crate) fn work_bytes(&self) -> usize {
        match self.elem {
            ElementType::F64 => 8,
            _ => 4,
        }
    }

    /// Whether the fused kernel asks for full occupancy ([`Dialect::kernel_signature`]: on CUDA
    /// `__launch_bounds__(threads, 2048 / threads)`, a register cap):
    /// [`LaunchConfig::register_cap`](crate::LaunchConfig::register_cap), or where that is
    /// `None` the measured rule below. The rule's exceptions are the kernels measured to spill
    /// under the cap, kept as a rule rather than left to the executor's check so that those
    /// are compiled once; the CUDA executor takes the cap off any other that spills on its
    /// device (`dwt_cuda`: a user's wavelet, a candidate the rule did not foresee).
    ///
    /// The rule holds the forward 2-D kernel at full occupancy: with the register paths of edge
    /// tiles beside those of inner ones, ptxas took 40 to 48 registers instead of 32 and the
    /// forward pass of 8192^2 ran 5-7% slower; capped, none spills (the NVRTC test checks) and it
    /// runs as fast as with the inner tiles' path alone. The inverse of CDF 9/7 and its forward
    /// over planes (the plane offset) would spill; those ran faster uncapped anyway. Nor is the
    /// forward under the clamp rule applied in edge tiles (Deslauriers-Dubuc, Fidelity): capped,
    /// its edge tiles' passes along y spilled 8-20 bytes; uncapped it takes 40 and more and still
    /// ran faster than with the general path at the edges (BENCHMARKS.md). Unless its inner tiles
    /// copy asynchronously: then none spills capped, and Deslauriers-Dubuc (13,7)'s forward at
    /// 8192^2 took 0.94 of the time it took uncapped. But groups of 512 copying so spilled 8-20
    /// bytes capped where the samples are also pre-shifted or the edge tiles clamped (Daubechies
    /// 9/7's, Fidelity's tiles of 64x16), and with the pairs copied whole into interleaved rows, so
    /// did Fidelity's on tiles of fewer than 16 indices along y (32x8 of 256, 16x8 of 128: 8
    /// bytes). Nor is a forward whose first register pass keeps more than the default's 16 values
    /// per work-item across its barriers (two rounds, as in tiles of 32x32 or 64x16 of 256, or
    /// segments of 16): under the cap those spilled 88-852 bytes.
    pub(crate) fn full_occupancy(&self, layout: [AxisLayout; 2], edges: EdgeTiles) -> bool {
        if let Some(cap) = self.cfg.register_cap {
            return cap;
        }
        let forward = self.direction == Direction::Forward;
        let edge_halo = edges.halo();
        let clamped = edge_halo == Some(EdgeHalo::Clamped);
        let copies_spill_capped = self.async_load()
            && ((self.cfg.tile_threads > 256 && (self.pre_shifted() || clamped))
                || (clamped && self.cfg.tile[1] < 16));
        forward
            && !self.cfg.planes
            && self.elem != ElementType::F64
            && (!clamped || self.async_load())
            && !copies_spill_capped
            && self.kept_values(layout, self.inner_passes().0) <= KEPT_UNDER_CAP
    }

    /// Whether the register passes of the fused kernel's edge tiles sum each coefficient's taps
    /// first, as its inner tiles do: only in the i32 inverse of a program with a step spanning
    /// [`LONG_STEP_SPAN`](crate::LONG_STEP_SPAN) indices or more (Fidelity) on the tallest tiles
    /// that [`LaunchConfig::long_filter_tiles`](crate::LaunchConfig::long_filter_tiles) gives it
    /// ([`TALLEST_TILE`](crate::TALLEST_TILE), 48x32).
    /// There the whole kernel took 0.95-0.97 of the time at 4096^2 and 8192^2 on an H200 (its
    /// 80 registers unchanged); in i16 it took 96 instead of 80 registers and 1.07-1.09x the
    /// time. Elsewhere edge tiles keep a product per tap: grouped, the other
    /// inverses' edge code took more registers (Deslauriers-Dubuc's at 8192^2 64 -> 80,
    /// 1.03-1.09x the time) and it sets the kernel's count, Fidelity's inverse on the configured
    /// tiles of 1920x1080 took 1.07x and its forward gained nothing (BENCHMARKS.md).
    pub(crate) fn edge_taps_grouped(&self) -> bool {
        self.direction == Direction::Inverse
            && self.elem == ElementType::I32
            && self.cfg.tile == crate::TALLEST_TILE.0
            && crate::max_step_span(self.wavelet).is_some_and(|span| span >= crate::LONG_STEP_SPAN)
    }

    pub(crate) fn tile(
        &self,
        w: &mut Writer,
        name: &str,
        halo: &TileHalo,
        layout: [AxisLayout; 2],
        edges: EdgeTiles,
    ) {
        let d = self.d;
        let [lx, ly] = layout;
        let threads = self.cfg.tile_threads;
        let edge_halo = edges.halo();
        let reflected = edge_halo == Some(EdgeHalo::Reflected);
        let forward = self.direction == Direction::Forward;
        debug_assert!(
            forward || !self.band01_with_low,
            "a forward kernel's variant"
        );
        let mut params = self.nat_low_high().to_vec();
        for n in [
            "rows",
            "cols",
            "nat_base",
            "nat_col_step",
            "nat_row_step",
            "low_base",
            "low_col_step",
            "low_row_step",
            "high01_base",
            "high10_base",
            "high11_base",
            "high_col_step",
            "high_row_step",
        ] {
            params.push(Param::Int(n));
        }
        if self.cfg.planes {
            params.push(Param::Int("plane_step"));
        }
        w.comment(format!(
            "Fused 2-D pass: one group of {threads} work-items per tile of {}x{} polyphase indices per phase",
            lx.t, ly.t
        ));
        w.comment(format!(
            "({}x{} samples) read once with its halo, lifted along {} in local memory, written once.",
            2 * lx.t,
            2 * ly.t,
            if forward { "x then y" } else { "y then x" }
        ));
        w.comment(format!(
            "Halo per phase (before, after): even {:?}, odd {:?}; per step {:?}.",
            (halo.load[0].before, halo.load[0].after),
            (halo.load[1].before, halo.load[1].after),
            halo.steps
                .iter()
                .map(|h| (h.before, h.after))
                .collect::<Vec<_>>()
        ));
        w.comment(format!(
            "Local tile: {} rows (even {}, odd {}) x {} columns (even {} from 0, odd {} from {}).",
            ly.total, ly.stored[0], ly.stored[1], lx.total, lx.stored[0], lx.stored[1], lx.phase1
        ));
        if self.band01_with_low {
            w.comment("Subband (0, 1) goes to `low` at high01_base with the low band's steps, not with the other");
            w.comment("two: the interleaved forward's first level keeps the even rows compact for the even-rows kernel.");
        }
        if reflected {
            w.comment("Tiles at the band's edges load their halo by whole-sample reflection (reflect()) and lift");
            w.comment("in registers as the others do; the planner runs this kernel where");
            w.comment("Program::reflected_segments_exact proves those tiles exact.");
        } else if edge_halo == Some(EdgeHalo::Wrapped) {
            w.comment("Tiles at the band's edges load their halo modulo the band's sides (wrap(), the periodic");
            w.comment("rule) and lift in registers as the others do: exact on every band.");
        } else if edge_halo == Some(EdgeHalo::Clamped) {
            w.comment("Tiles at the band's edges load their halo beyond the band from the nearest sample of the");
            w.comment("same phase and lift in registers as the others do, setting those indices to their phase's");
            w.comment("end sample again after each step (the clamp rule): exact on bands of two samples or more.");
        } else {
            w.comment("Reads beyond the band go through resolve() in tiles at its edges only; the planner runs");
            w.comment("this kernel where Program::tiles_exact proves those tiles exact.");
        }
        let full_occupancy = self.full_occupancy(layout, edges);
        let sig = d.kernel_signature(name, &params, [threads, 1, 1], full_occupancy);
        self.kernel_block(w, sig, |w| {
            let pitch = self.tile_pitch([lx, ly]);
            w.line(if self.interleaved_inner_tile() || lx.vector_rows {
                // Pair copies land on addresses aligned for a pair; vector rows need 16 bytes.
                d.aligned_local_array(self.work(), "tile", &[ly.extent, pitch], 16)
            } else {
                d.local_array(self.work(), "tile", &[ly.extent, pitch])
            });
            if forward || edge_halo.is_some() {
                for (name, len) in self.index_maps([lx, ly]) {
                    w.line(d.local_array("int", name, &[len]));
                }
            }
            w.line(format!("const int tid = {};", d.local_id(0)));
            if self.cfg.planes {
                // A kernel of its own rather than an offset of zero in the 2-D one: moving the
                // pointers cost the 2-D kernel up to 13% at 8192^2 (registers, addressing).
                w.comment("Group z lifts plane z of a stack of bands (the x-y planes of a volume).");
                w.line(format!("const int plane = {} * plane_step;", d.group_id(2)));
                w.line("nat += plane;");
                w.line("low += plane;");
                w.line("high += plane;");
            }
            w.line(format!("const int mx0 = {} * {};", d.group_id(0), lx.t));
            w.line(format!("const int my0 = {} * {};", d.group_id(1), ly.t));
            // The even phases' lengths only where the body reads them (the inverse's edge
            // tiles may not), so that OpenCL compilers do not warn of unused variables.
            let mut body = w.nested();
            {
                let w = &mut body;
                w.comment("First loaded index per phase, and the offset from a polyphase index to its storage index.");
                for (a, l) in [(Axis::X, lx), (Axis::Y, ly)] {
                    let v = a.v();
                    w.line(format!(
                        "const int s{v}0 = m{v}0 - {}, s{v}1 = m{v}0 - {};",
                        l.before[0], l.before[1]
                    ));
                    w.line(format!(
                        "const int o{v}0 = -s{v}0, o{v}1 = {} - s{v}1;",
                        l.phase1
                    ));
                }
                w.comment("Tiles whose loaded indices all lie inside the band skip the boundary rule.");
                for (a, l) in [(Axis::X, lx), (Axis::Y, ly)] {
                    let v = a.v();
                    let before = l.lead();
                    let after = (0..2)
                        .map(|q| l.stored[q] - l.before[q] - l.t)
                        .max()
                        .unwrap_or(0);
                    w.line(format!(
                        "const int inner_{v} = m{v}0 >= {before} && m{v}0 + {} <= n{v}1;",
                        l.t + after
                    ));
                }
                w.blank();
                // Tiles away from the band's edges lift in registers (tile_inner.rs), the others
                // too with reflected halos or under the clamp rule, else one step at a time (the
                // general path).
                if let (Some(halo), true) = (edge_halo, d.barriers_in_uniform_branches()) {
                    // Each kind of tile in a branch of its own: with one body for both (the
                    // branches only around the loads and the last pass), ptxas kept more values
                    // live and Daubechies 9/7's forward spilled at full occupancy.
                    w.block("if (inner_x && inner_y)", |w| {
                        self.register_body(w, layout, Tiles::Inner)
                    });
                    w.block("else", |w| self.register_body(w, layout, Tiles::Edge(halo)));
                } else if let Some(halo) = edge_halo {
                    w.line("const int inner = inner_x && inner_y;");
                    self.register_body(w, layout, Tiles::Both(halo));
                } else if d.barriers_in_uniform_branches() {
                    w.block("if (inner_x && inner_y)", |w| {
                        self.register_body(w, layout, Tiles::Inner)
                    });
                    w.block("else", |w| self.tile_edge_body(w, halo, layout));
                } else {
                    self.tile_body(w, halo, layout);
                }
            }
            for (v, n) in [("x", "cols"), ("y", "rows")] {
                w.line(if body.mentions(&format!("n{v}0")) {
                    format!("const int n{v}0 = ({n} + 1) / 2, n{v}1 = {n} / 2;")
                } else {
                    format!("const int n{v}1 = {n} / 2;")
                });
            }
            w.append(body);
        });
    }

    /// The kernel after its prologue: each axis's pass takes the register path in tiles whose
    /// loaded indices along that axis all lie inside the band (`inner_x`, `inner_y`; an edge
    /// tile along y alone still lifts along x in registers) and the general one elsewhere,
    /// branch by branch between shared barriers, all at the kernel's top level (for dialects
    /// whose compilers are not trusted with barriers under a branch).
    fn tile_body(&self, w: &mut Writer, halo: &TileHalo, layout: [AxisLayout; 2]) {
        let d = self.d;
        let [lx, ly] = layout;
        let forward = self.direction == Direction::Forward;
        w.line("const int inner = inner_x && inner_y;");
        // `inner` ends with the register path, `general` the general one, as `cond` says.
        let split = |w: &mut Writer,
                     cond: &str,
                     inner: Option<&dyn Fn(&mut Writer)>,
                     general: Option<&dyn Fn(&mut Writer)>| {
            match (inner, general) {
                (Some(i), Some(g)) => {
                    w.block(format!("if ({cond})"), i);
                    w.block("else", g);
                }
                (Some(i), None) => w.block(format!("if ({cond})"), i),
                (None, Some(g)) => w.block(format!("if (!{cond})"), g),
                (None, None) => {}
            }
        };
        let (first, second) = if forward {
            (Axis::X, Axis::Y)
        } else {
            (Axis::Y, Axis::X)
        };
        let (in_first, in_second) = (
            format!("inner_{}", first.v()),
            format!("inner_{}", second.v()),
        );
        let (in_first, in_second) = (in_first.as_str(), in_second.as_str());
        // The passes to or from the subbands skip the lines outside the band (in edge tiles
        // along the other axis).
        let (inner_first, inner_second) = self.inner_passes();
        let (inner_first, inner_second) =
            (inner_first.checking_lines(), inner_second.checking_lines());
        // The pass that goes from the tile back into it keeps its results across barriers.
        let two_part = if forward { inner_first } else { inner_second };
        w.line(self.kept_declaration(layout, two_part));
        let truncate = |w: &mut Writer| self.tile_truncate(w, lx, ly);
        let i16 = self.elem == ElementType::I16;
        // The first axis lifts every loaded line of the other axis (the second axis reads
        // them); the second axis only the tile's own lines.
        if forward {
            self.edge_sources(w, layout, None, Some("!inner"));
            split(
                w,
                "inner",
                Some(&|w| self.inner_load_natural(w, lx, ly)),
                Some(&|w| self.edge_load_natural(w, layout)),
            );
            w.line(d.barrier());
            split(
                w,
                in_first,
                Some(&|w| self.segments(w, layout, inner_first, Stage::Lift)),
                None,
            );
            self.tile_axis(w, halo, first, layout, false, AxisPaths::SkipInner);
            split(
                w,
                in_first,
                Some(&|w| self.segments(w, layout, inner_first, Stage::WriteBack)),
                if i16 { Some(&truncate) } else { None },
            );
            w.line(d.barrier());
            split(
                w,
                in_second,
                Some(&|w| self.segments(w, layout, inner_second, Stage::Whole)),
                None,
            );
            self.tile_axis(w, halo, second, layout, true, AxisPaths::SkipInner);
            split(
                w,
                in_second,
                None,
                Some(&|w| self.tile_store_bands(w, lx, ly)),
            );
        } else {
            split(
                w,
                in_first,
                Some(&|w| self.segments(w, layout, inner_first, Stage::Whole)),
                Some(&|w| self.tile_load_bands(w, lx, ly)),
            );
            w.line(d.barrier());
            self.tile_axis(w, halo, first, layout, false, AxisPaths::SkipInner);
            if i16 {
                split(w, in_first, None, Some(&truncate));
                w.line(d.barrier());
            }
            split(
                w,
                in_second,
                Some(&|w| self.segments(w, layout, inner_second, Stage::Lift)),
                None,
            );
            self.tile_axis(w, halo, second, layout, true, AxisPaths::SkipInner);
            w.block(format!("if ({in_second})"), |w| {
                self.segments(w, layout, inner_second, Stage::WriteBack)
            });
            w.line(d.barrier());
            split(
                w,
                "inner",
                Some(&|w| self.tile_store_natural(w, lx, ly, NaturalStore::Inside)),
                Some(&|w| self.tile_store_natural(w, lx, ly, NaturalStore::EdgeSingles)),
            );
        }
    }
}

impl Emitter<'_> {
    /// The functions the fused kernel of `edges` calls beyond the prelude's: `reflect()` where
    /// its edge tiles reflect their halo, `copy_async_pair()` and `wait_async()` where its inner
    /// tiles copy asynchronously.
    pub(crate) fn tile_helpers(&self, edges: EdgeTiles) -> String {
        let mut w = Writer::new();
        match edges.halo() {
            Some(EdgeHalo::Reflected) => self.reflect_helper(&mut w),
            Some(EdgeHalo::Wrapped) => self.wrap_helper(&mut w),
            _ => {}
        }
        if self.async_load() {
            w.comment(
                "A pair of samples from global to local memory without a register, and the wait",
            );
            w.comment("for a work-item's own copies: the forward's inner tiles load so.");
            let storage = self.d.storage_type(self.elem);
            self.d.async_copy_helpers(&mut w, storage, self.elem.size());
            w.blank();
        }
        w.finish()
    }

    /// `reflect(n, q, m)`: polyphase index `m` of phase `q` in a line of `n >= 2` samples,
    /// reflected about the end samples (whole-sample symmetric, as `Boundary::Symmetric`) until
    /// it lies in the line.
    fn reflect_helper(&self, w: &mut Writer) {
        w.comment(
            "Polyphase index m of phase q (0 even, 1 odd) reflected into a line of n >= 2 samples",
        );
        w.comment("about its end samples (whole-sample symmetric): where an edge tile loads its halo from.");
        w.block(
            format!(
                "{} int reflect(int n, int q, int m)",
                self.d.helper_qualifier()
            ),
            |w| reflection(w, self.direction),
        );
        w.blank();
    }

    /// `wrap(n, q, m)`: polyphase index `m` of phase `q` in a line of `n >= 2` samples, taken
    /// modulo its phase's length (the periodic rule, as `Boundary::Periodic` for even `n`).
    fn wrap_helper(&self, w: &mut Writer) {
        w.comment("Polyphase index m of phase q (0 even, 1 odd) of a periodic line of n >= 2 samples, modulo");
        w.comment("its phase's length: where an edge tile loads its halo from.");
        w.block(
            format!(
                "{} int wrap(int n, int q, int m)",
                self.d.helper_qualifier()
            ),
            |w| {
                w.line("const int len = (n + 1 - q) / 2;");
                w.line("const int r = m % len;");
                w.line("return r < 0 ? r + len : r;");
            },
        );
        w.blank();
    }

    /// A tile at the band's edge: where each stored row and column of the tile reads from,
    /// worked out once per tile into local memory, then a barrier, so that the loads spend no
    /// arithmetic or branch per index on it (reflecting every index where it was loaded took an
    /// edge tile to twice an inner one's time, and ptxas to more registers than the inner
    /// tiles' 32). Forward: `from_row`, `from_col`, offsets into `nat` by dense row and column
    /// ([`Emitter::edge_load_natural`]). Inverse: `refl_y`, `refl_x`, the polyphase index in
    /// the band by storage index (the pass from the subbands). An index beyond the band reads,
    /// as `halo` says, its reflection into the band ([`EdgeHalo::Reflected`]) or the nearest
    /// sample of its phase ([`EdgeHalo::Clamped`]); with none (forward only: the general path)
    /// the nearest sample of the band, a value the general path never reads (it reads beyond
    /// the band through `resolve()`). With `guard`, only tiles where it holds fill them,
    /// and the barrier is every tile's (for dialects without barriers under branches).
    fn edge_sources(
        &self,
        w: &mut Writer,
        [lx, ly]: [AxisLayout; 2],
        halo: Option<EdgeHalo>,
        guard: Option<&str>,
    ) {
        let forward = self.direction == Direction::Forward;
        let rows = ly.stored[0] + ly.stored[1];
        let cols = lx.stored[0] + lx.stored[1];
        // One axis's entry `t` (dense) at storage index `at`, whose polyphase index `m` of
        // phase `q` lies in a line of `n` samples taken `step` apart in `nat`.
        let entry =
            |w: &mut Writer, [array, n, step]: [&str; 3], t: &str, at: &str, [q, m]: [&str; 2]| {
                // Polyphase index `m` mapped into the band, as the register path's halo takes it
                // (the clamp: into the phase, whose last index is `(n + 1 - q) / 2 - 1`).
                let mapped = halo.map(|halo| match halo {
                    EdgeHalo::Reflected => format!("reflect({n}, {q}, {m})"),
                    EdgeHalo::Wrapped => format!("wrap({n}, {q}, {m})"),
                    EdgeHalo::Clamped => {
                        self.d
                            .clamp_int(m, "0", &format!("({n} + 1 - {q}) / 2 - 1"))
                    }
                });
                if let Some(mapped) = mapped {
                    if forward {
                        w.line(format!("{array}[{t}] = (2 * {mapped} + {q}) * {step};"));
                    } else {
                        w.line(format!("{array}[{at}] = {mapped};"));
                    }
                } else {
                    let sample =
                        self.d
                            .clamp_int(&format!("2 * ({m}) + {q}"), "0", &format!("{n} - 1"));
                    w.line(format!("{array}[{t}] = ({sample}) * {step};"));
                }
            };
        let [row_array, col_array] = if forward {
            ["from_row", "from_col"]
        } else {
            ["refl_y", "refl_x"]
        };
        let fill = |w: &mut Writer| {
            w.comment(match halo {
                Some(EdgeHalo::Reflected) => "Where each stored row and column of this edge tile reads from: reflected into the band.",
                Some(EdgeHalo::Wrapped) => "Where each stored row and column of this edge tile reads from: modulo the band's sides.",
                Some(EdgeHalo::Clamped) => "Where each stored row and column of this edge tile reads from: the nearest sample of its phase.",
                None => "Where each stored row and column of this edge tile reads from: the nearest sample of the band.",
            });
            self.strided(w, rows + cols, false, |w| {
                w.block(format!("if (t < {rows})"), |w| {
                    w.line(format!("const int r = {};", ly.all_lines("t")));
                    w.line(format!("const int py = r >= {};", ly.phase1));
                    entry(
                        w,
                        [row_array, "rows", "nat_row_step"],
                        "t",
                        "r",
                        ["py", "r - (py ? oy1 : oy0)"],
                    );
                });
                w.block("else", |w| {
                    w.line(format!(
                        "const int sx = {};",
                        lx.all_lines(&format!("(t - {rows})"))
                    ));
                    w.line(format!("const int px = sx >= {};", lx.phase1));
                    let t = format!("t - {rows}");
                    entry(
                        w,
                        [col_array, "cols", "nat_col_step"],
                        &t,
                        "sx",
                        ["px", "sx - (px ? ox1 : ox0)"],
                    );
                });
            });
        };
        match guard {
            Some(cond) => w.block(format!("if ({cond})"), fill),
            None => fill(w),
        }
        w.line(self.d.barrier());
    }

    /// Whether the inverse's edge tiles read the subbands where `refl_y` and `refl_x` say
    /// ([`Emitter::edge_sources`]) rather than reflecting each index where they read it: for
    /// programs of more than two lifting steps. Those of two (LeGall 5/3, CDF 5/3, Haar) then
    /// fitted the 32 registers of eight groups per multiprocessor, and ran 10-22% slower at
    /// 8192^2 than with 40 registers and six (H200; the longer ones went from 48 to 40
    /// registers and ran 7% faster).
    pub(crate) fn inverse_edge_maps(&self) -> bool {
        self.ops
            .iter()
            .filter(|op| matches!(op, Op::Lift(_)))
            .count()
            > 2
    }

    /// The `int` index maps the tile kernel's edge tiles may take in local memory, with their
    /// lengths: the forward's `from_row` and `from_col` (every stored index of both phases), the
    /// inverse's `refl_y` and `refl_x` where the program reads through them
    /// ([`inverse_edge_maps`](Self::inverse_edge_maps)). `tile_kernel` declares them (the
    /// inverse's only where its edge tiles take a halo); [`local_bytes`](Self::local_bytes)
    /// counts them either way.
    fn index_maps(&self, [lx, ly]: [AxisLayout; 2]) -> Vec<(&'static str, usize)> {
        match self.direction {
            Direction::Forward => vec![
                ("from_row", ly.stored[0] + ly.stored[1]),
                ("from_col", lx.stored[0] + lx.stored[1]),
            ],
            Direction::Inverse if self.inverse_edge_maps() => {
                vec![("refl_y", ly.total), ("refl_x", lx.total)]
            }
            Direction::Inverse => vec![],
        }
    }

    /// The local memory of the tile kernel's arrays: the tile of work values and its
    /// [`index_maps`](Self::index_maps). What CUDA's static shared-memory limit bounds, all
    /// arrays together.
    fn local_bytes(&self, layout: [AxisLayout; 2]) -> usize {
        self.local_bytes_at(layout, self.tile_pitch(layout))
    }

    /// [`Emitter::local_bytes`] with rows of `pitch` samples.
    pub(crate) fn local_bytes_at(&self, [lx, ly]: [AxisLayout; 2], pitch: usize) -> usize {
        let maps: usize = self.index_maps([lx, ly]).iter().map(|(_, n)| n).sum();
        pitch * ly.extent * self.work_bytes() + maps * 4
    }

    /// Forward, a tile at the band's edge: every stored index of both phases of both axes from
    /// where [`Emitter::edge_sources`] says.
    fn edge_load_natural(&self, w: &mut Writer, [lx, ly]: [AxisLayout; 2]) {
        let rows = ly.stored[0] + ly.stored[1];
        let cols = lx.stored[0] + lx.stored[1];
        w.comment(format!(
            "Load (edge tile): {rows} x {cols} stored indices from where from_row and from_col say."
        ));
        self.batched(
            w,
            rows * cols,
            self.edge_load_at_once,
            &|_| {
                self.loaded(&format!(
                    "nat[nat_base + from_row[t / {cols}] + from_col[t % {cols}]]"
                ))
            },
            &|w, v| {
                let [r, sx] = stored_cell(lx, ly);
                w.line(format!("tile[{r}][{sx}] = {v};"))
            },
        );
    }

    /// Indices `t` in `[0, n)` shared among the work-items (`t = tid + k * threads`) and written
    /// out line by line in batches of up to eight per work-item: a batch's values `load` all
    /// issue before its `store`s. Written as a loop, or with a load under a branch, ptxas at
    /// the 32 registers of full occupancy kept one load in flight, and a tile waited out a
    /// memory latency per index (an edge tile twice an inner one's time: a small level lasts as
    /// long as its slowest tile). With `at_once`, every value in one batch. `load` may write
    /// lines before the value it returns and must read only inside the band for any `t`;
    /// `store(w, v)` stores value `v`. Past `n` a work-item loads index `n - 1` again (no branch
    /// around the load) and stores nothing.
    fn batched(
        &self,
        w: &mut Writer,
        n: usize,
        at_once: bool,
        load: &dyn Fn(&mut Writer) -> String,
        store: &dyn Fn(&mut Writer, &str),
    ) {
        let threads = self.cfg.tile_threads;
        let rounds = n.div_ceil(threads);
        let batches = if at_once { 1 } else { rounds.div_ceil(8) };
        let per_batch = rounds.div_ceil(batches);
        let work = self.work();
        let whole = |k: usize| (k + 1) * threads <= n;
        let first = |k: usize| offset("tid", (k * threads) as i64);
        for batch in (0..rounds).collect::<Vec<_>>().chunks(per_batch) {
            w.block("", |w| {
                for &k in batch {
                    w.line(format!("{work} v{k};"));
                    w.block("", |w| {
                        if whole(k) {
                            w.line(format!("const int t = {};", first(k)));
                        } else {
                            let last = (n - 1).to_string();
                            w.line(format!(
                                "const int t = {};",
                                self.d.min_int(&first(k), &last)
                            ));
                        }
                        let value = load(w);
                        w.line(format!("v{k} = {value};"));
                    });
                }
                for &k in batch {
                    let open = if whole(k) {
                        String::new()
                    } else {
                        format!("if ({} < {n})", first(k))
                    };
                    w.block(open, |w| {
                        w.line(format!("const int t = {};", first(k)));
                        store(w, &format!("v{k}"));
                    });
                }
            });
        }
    }
}

/// How a tile stores its own samples in natural order ([`Emitter::tile_store_natural`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum NaturalStore {
    /// A tile wholly inside the band: no checks.
    Inside,
    /// A tile at the band's edge, one sample at a time under a condition each.
    EdgeSingles,
    /// A tile at the band's edge, (even, odd) pairs as inside, under one condition per pair (half
    /// a pair only at the end of an odd-width band). The inverse's edge tiles with reflected
    /// halos and no edge maps (LeGall 5/3, CDF 5/3, Haar) take it: one sample at a time made
    /// their store twice an inner tile's at 1920x1080 (a clock64 probe). The other programs keep
    /// `EdgeSingles`: the pairs changed how ptxas scheduled their whole kernel, and Daubechies
    /// 9/7's inverse ran 1.17x slower at 8192^2 (the same 40 registers), Deslauriers-Dubuc's
    /// 1.08x (80 registers instead of 64), (9,7)'s 1.19x at 1920x1080 three levels (H200,
    /// BENCHMARKS.md).
    EdgePairs,
}

/// The tile's storage row and column of index `t` of a walk over every stored index (rows by
/// stored columns, the padding skipped): where a load of that walk stores its value.
fn stored_cell(lx: AxisLayout, ly: AxisLayout) -> [String; 2] {
    let cols = lx.stored[0] + lx.stored[1];
    [
        ly.all_lines(&format!("(t / {cols})")),
        lx.all_lines(&format!("(t % {cols})")),
    ]
}

/// Index `t` of a walk over every stored index of the tile (rows by stored columns, the padding
/// skipped) as its storage row `r` and column `sx`, the phases `py`, `px` and the polyphase
/// indices `my`, `mx` they hold (outside the band where the tile's halo reaches beyond it).
fn stored_position(w: &mut Writer, lx: AxisLayout, ly: AxisLayout) {
    let [r, sx] = stored_cell(lx, ly);
    w.line(format!("const int r = {r};"));
    w.line(format!("const int sx = {sx};"));
    w.line(format!(
        "const int py = r >= {}, px = sx >= {};",
        ly.phase1, lx.phase1
    ));
    w.line("const int my = r - (py ? oy1 : oy0), mx = sx - (px ? ox1 : ox0);");
}

/// Which tiles a register body ([`Emitter::register_body`]) serves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tiles {
    /// Tiles whose loaded indices all lie inside the band.
    Inner,
    /// Tiles at the band's edge, their halo made as the [`EdgeHalo`] says.
    Edge(EdgeHalo),
    /// Either, as `inner` says at run time.
    Both(EdgeHalo),
}

impl Tiles {
    /// How edge tiles among these make their halo; `None`: inner tiles only.
    fn halo(self) -> Option<EdgeHalo> {
        match self {
            Tiles::Inner => None,
            Tiles::Edge(halo) | Tiles::Both(halo) => Some(halo),
        }
    }
}

/// Which tiles the general pass along an axis ([`Emitter::tile_axis`]) serves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AxisPaths {
    /// Tiles at the band's edge along the axis; the others skip the work (they lift in
    /// registers) but meet its barriers.
    SkipInner,
    /// Only tiles at the band's edge along the axis run it (in their own branch).
    EdgeOnly,
}

impl Emitter<'_> {
    /// The register path, three barriers in all, for the tiles `tiles` says: inner ones, tiles at
    /// the band's edge with their halo reflected ([`EdgeTiles::Reflected`]: reflected loads,
    /// guarded stores), or both, each taking its own form where the two differ (`if (inner)`,
    /// no barrier under the branch: for dialects whose barriers stay out of branches). The
    /// others' kernels call it under `if (inner_x && inner_y)`, a branch all of a group takes.
    fn register_body(&self, w: &mut Writer, layout: [AxisLayout; 2], tiles: Tiles) {
        let d = self.d;
        let [lx, ly] = layout;
        let (first, second) = self.inner_passes();
        // A part that differs between inner tiles (`false`) and edge tiles (`true`).
        let per_tile = |w: &mut Writer, part: &dyn Fn(&mut Writer, bool)| match tiles {
            Tiles::Inner => part(w, false),
            Tiles::Edge(_) => part(w, true),
            Tiles::Both(_) => {
                w.block("if (inner)", |w| part(w, false));
                w.block("else", |w| part(w, true));
            }
        };
        let halo = tiles.halo();
        let at_edge = |p: Pass, edge: bool| match (edge, halo) {
            (true, Some(halo)) => p.at_edge(halo),
            _ => p,
        };
        // The pass from the tile back into it lifts edge tiles as inner ones where their halo is
        // reflected; under the clamp rule it sets the indices beyond the band again after each
        // step. Inner tiles holding their rows interleaved read both phases from there (the
        // forward's pass along x: the only one this lifts in a forward), pre-shifting each sample
        // where the program shifts.
        let interleaved = self.interleaved_inner_tile();
        let lift_in_tile = |w: &mut Writer, p: Pass| {
            if halo != Some(EdgeHalo::Clamped) && !interleaved {
                self.segments(w, layout, p, Stage::Lift);
            } else {
                per_tile(w, &|w, edge| {
                    let pass = Pass {
                        interleaved_reads: interleaved && !edge,
                        ..at_edge(p, edge)
                    };
                    self.segments(w, layout, pass, Stage::Lift)
                });
            }
        };
        if self.direction == Direction::Forward {
            w.line(self.kept_declaration(layout, first));
            if halo.is_some() {
                let guard = matches!(tiles, Tiles::Both(_)).then_some("!inner");
                self.edge_sources(w, layout, halo, guard);
            }
            per_tile(w, &|w, edge| {
                if edge {
                    self.edge_load_natural(w, layout);
                } else {
                    self.inner_load_natural(w, lx, ly);
                }
            });
            w.line(d.barrier());
            lift_in_tile(w, first);
            w.line(d.barrier());
            // The write-back takes its work-items' lines as the lift took them.
            let back = Pass {
                interleaved_reads: interleaved && matches!(tiles, Tiles::Inner),
                ..first
            };
            self.segments(w, layout, back, Stage::WriteBack);
            w.line(d.barrier());
            per_tile(w, &|w, edge| {
                self.segments(w, layout, at_edge(second, edge), Stage::Whole)
            });
        } else {
            w.line(self.kept_declaration(layout, second));
            if halo.is_some() && self.inverse_edge_maps() {
                let guard = matches!(tiles, Tiles::Both(_)).then_some("!inner");
                self.edge_sources(w, layout, halo, guard);
            }
            per_tile(w, &|w, edge| {
                self.segments(w, layout, at_edge(first, edge), Stage::Whole)
            });
            w.line(d.barrier());
            lift_in_tile(w, second);
            w.line(d.barrier());
            self.segments(w, layout, second, Stage::WriteBack);
            w.line(d.barrier());
            let pairs = matches!(halo, Some(EdgeHalo::Reflected | EdgeHalo::Wrapped));
            let edge_store = if pairs && !self.inverse_edge_maps() {
                NaturalStore::EdgePairs
            } else {
                NaturalStore::EdgeSingles
            };
            per_tile(w, &|w, edge| {
                let store = if edge {
                    edge_store
                } else {
                    NaturalStore::Inside
                };
                self.tile_store_natural(w, lx, ly, store)
            });
        }
    }

    /// A tile at the band's edge along one axis or both, for dialects that allow barriers under a
    /// branch all of a group takes: each axis's pass in registers where the tile is inner along
    /// it (`if (inner_x)`, `if (inner_y)`), else on the general path. The branches keep each
    /// path's registers to itself (a register pass's kept values are not live across the general
    /// pass), so the kernel needs no more registers than the inner path's.
    fn tile_edge_body(&self, w: &mut Writer, halo: &TileHalo, layout: [AxisLayout; 2]) {
        let d = self.d;
        let [lx, ly] = layout;
        let forward = self.direction == Direction::Forward;
        let (first, second) = self.inner_passes();
        let (first, second) = (first.checking_lines(), second.checking_lines());
        let i16 = self.elem == ElementType::I16;
        let truncate = |w: &mut Writer| self.tile_truncate(w, lx, ly);
        // A pass from the tile back into it: read and lift, barrier, write back.
        let two_part = |w: &mut Writer, pass: Pass| {
            w.line(self.kept_declaration(layout, pass));
            self.segments(w, layout, pass, Stage::Lift);
            w.line(d.barrier());
            self.segments(w, layout, pass, Stage::WriteBack);
        };
        let cond = |p: Pass| format!("if (inner_{})", p.axis.v());
        if forward {
            self.edge_sources(w, layout, None, None);
            self.edge_load_natural(w, layout);
            w.line(d.barrier());
            w.block(cond(first), |w| two_part(w, first));
            w.block("else", |w| {
                self.tile_axis(w, halo, first.axis, layout, false, AxisPaths::EdgeOnly);
                if i16 {
                    truncate(w);
                }
            });
            w.line(d.barrier());
            w.block(cond(second), |w| {
                self.segments(w, layout, second, Stage::Whole)
            });
            w.block("else", |w| {
                self.tile_axis(w, halo, second.axis, layout, true, AxisPaths::EdgeOnly);
                self.tile_store_bands(w, lx, ly);
            });
        } else {
            w.block(cond(first), |w| {
                self.segments(w, layout, first, Stage::Whole)
            });
            w.block("else", |w| {
                self.tile_load_bands(w, lx, ly);
                w.line(d.barrier());
                self.tile_axis(w, halo, first.axis, layout, false, AxisPaths::EdgeOnly);
                if i16 {
                    truncate(w);
                }
            });
            w.line(d.barrier());
            w.block(cond(second), |w| two_part(w, second));
            w.block("else", |w| {
                self.tile_axis(w, halo, second.axis, layout, true, AxisPaths::EdgeOnly)
            });
            w.line(d.barrier());
            self.tile_store_natural(w, lx, ly, NaturalStore::EdgeSingles);
        }
    }

    /// Every operation of the program along `axis`, over every loaded line of the other axis or
    /// (`own`) only the tile's own ones.
    fn tile_axis(
        &self,
        w: &mut Writer,
        halo: &TileHalo,
        axis: Axis,
        layout: [AxisLayout; 2],
        own: bool,
        paths: AxisPaths,
    ) {
        let guarded = paths == AxisPaths::SkipInner;
        // Guarded: tiles inner along this axis skip the work (they lift in registers) but meet
        // every barrier.
        let open = if guarded {
            format!("if (!inner_{})", axis.v())
        } else {
            String::new()
        };
        let d = self.d;
        let [lx, ly] = layout;
        let (along, across) = match axis {
            Axis::X => (lx, ly),
            Axis::Y => (ly, lx),
        };
        let v = axis.v();
        let (lines, line) = if own {
            (2 * across.t, across.own_lines("(t / W)"))
        } else {
            (
                across.stored[0] + across.stored[1],
                across.all_lines("(t / W)"),
            )
        };
        w.comment(format!(
            "Along {v}: {} lines ({}).",
            lines,
            if own {
                "the tile's own"
            } else {
                "every loaded one"
            }
        ));
        let at = |line: &str, pos: &str| match axis {
            Axis::X => format!("tile[{line}][{pos}]"),
            Axis::Y => format!("tile[{pos}][{line}]"),
        };
        let mut steps = halo.steps.iter();
        for op in self.ops {
            match op {
                Op::Lift(step) => {
                    let h = steps.next().expect("one halo per step");
                    let (p, q) = (step.target.parity(), step.source().parity());
                    let width = h.len(along.t);
                    w.comment(format!("{step}   (along {v})"));
                    w.block(&open, |w| {
                        w.line(format!("const int W = {width};"));
                        w.line(format!(
                            "const int lo = {};",
                            d.max_int(&offset(&format!("m{v}0"), -(h.before as i64)), "0")
                        ));
                        w.line(format!(
                            "const int hi = {};",
                            d.min_int(
                                &offset(&format!("m{v}0"), (along.t + h.after as usize) as i64),
                                &format!("n{v}{p}")
                            )
                        ));
                        // Only tiles at the band's edge along this axis get here (the others
                        // lift in registers): every read goes through the boundary rule.
                        self.strided(w, lines * width, false, |w| {
                            w.line(format!("const int line = {line};"));
                            w.line("const int i = lo + t % W;");
                            w.block("if (i < hi)", |w| {
                                let target = at("line", &format!("i + o{v}{p}"));
                                let read = |k| {
                                    let m = offset("i", k);
                                    let m = format!("resolve({}, {q}, {m})", axis.extent());
                                    at("line", &format!("{m} + o{v}{q}"))
                                };
                                // A product per tap, as the edge tiles' register passes but
                                // Fidelity's on its tallest tiles (`edge_taps_grouped`).
                                self.step_body(w, step, &target, &read, false);
                            });
                        });
                    });
                    w.line(d.barrier());
                }
                Op::Scale { low, high } => {
                    w.comment(format!("{op}   (along {v}: even and odd {v} indices)"));
                    let scale = |w: &mut Writer| {
                        let n = ly.total * lx.total;
                        let c = lx.total;
                        self.strided(w, n, false, |w| {
                            let odd = match axis {
                                Axis::X => format!("t % {c} >= {}", lx.phase1),
                                Axis::Y => format!("t / {c} >= {}", ly.phase1),
                            };
                            let cell = format!("tile[t / {c}][t % {c}]");
                            let value = format!(
                                "({odd}) ? {} : {}",
                                self.mul(&self.coeff(*high), &cell),
                                self.mul(&self.coeff(*low), &cell)
                            );
                            w.line(format!("{cell} = {value};"));
                        });
                    };
                    if guarded {
                        w.block(&open, scale);
                    } else {
                        scale(w);
                    }
                    w.line(d.barrier());
                }
            }
        }
    }

    /// i16 storage: every value of the tile stored as short and read back, as the CPU reference
    /// stores each pass's results before the other axis reads them.
    fn tile_truncate(&self, w: &mut Writer, lx: AxisLayout, ly: AxisLayout) {
        w.comment(
            "i16 storage: the pass's results are stored as short before the other axis reads them.",
        );
        let n = ly.total * lx.total;
        self.strided(w, n, false, |w| {
            w.line(format!(
                "tile[t / {c}][t % {c}] = to_work(to_elem(tile[t / {c}][t % {c}]));",
                c = lx.total
            ));
        });
    }

    /// Inverse: the four subbands, coalesced along x within each, into the tile, in batches
    /// ([`Emitter::batched`]; a branch around each load kept one in flight per work-item, and an
    /// edge tile waited out a memory latency per round). A stored index outside the band reads
    /// the low band's nearest sample instead, so that no load needs a branch: the low band is
    /// never empty, and what those indices hold never reaches a result inside the band (the
    /// general path reads beyond the band through `resolve()`). Measured on an H200
    /// (BENCHMARKS.md): Deslauriers-Dubuc's inverse at 1080p, 3 levels, 0.76-0.79 of the time
    /// before, and at 8192^2 0.84-0.91, the latter because ptxas then gives the whole kernel 44-48
    /// registers instead of 32: five groups per multiprocessor instead of eight, whose warps
    /// wait half as long between instructions (ncu). The same load as a loop without the branch
    /// kept 32 registers and gained nothing at 8192^2.
    fn tile_load_bands(&self, w: &mut Writer, lx: AxisLayout, ly: AxisLayout) {
        let rows = ly.stored[0] + ly.stored[1];
        let cols = lx.stored[0] + lx.stored[1];
        w.comment(format!(
            "Load: {rows} x {cols} stored indices from the four subbands."
        ));
        let clamp = |v: &str, n: &str| self.d.clamp_int(v, "0", &format!("{n} - 1"));
        self.batched(
            w,
            rows * cols,
            false,
            &|w| {
                stored_position(w, lx, ly);
                w.line("const int inside = my >= 0 && my < (py ? ny1 : ny0) && mx >= 0 && mx < (px ? nx1 : nx0);");
                w.line("const int band = inside ? 2 * py + px : 0;");
                w.line(format!(
                    "const int by = inside ? my : {}, bx = inside ? mx : {};",
                    clamp("my", "ny0"),
                    clamp("mx", "nx0")
                ));
                w.line(HIGH_BASE);
                "to_work(band == 0 ? low[low_base + by * low_row_step + bx * low_col_step] : high[hb + by * high_row_step + bx * high_col_step])".to_string()
            },
            &|w, v| {
                let [r, sx] = stored_cell(lx, ly);
                w.line(format!("tile[{r}][{sx}] = {v};"))
            },
        );
    }

    /// Forward: the tile's own indices of the four subbands, coalesced along x within each.
    fn tile_store_bands(&self, w: &mut Writer, lx: AxisLayout, ly: AxisLayout) {
        let (tx, ty) = (lx.t, ly.t);
        w.comment(format!(
            "Store: the tile's own {}x{} indices of each subband.",
            ty, tx
        ));
        self.strided(w, 4 * tx * ty, true, |w| {
            w.line(format!(
                "const int l = t / {}, cc = t % {};",
                2 * tx,
                2 * tx
            ));
            w.line(format!("const int py = l >= {ty}, px = cc >= {tx};"));
            w.line(format!(
                "const int my = my0 + l - py * {ty}, mx = mx0 + cc - px * {tx};"
            ));
            w.block("if (my < (py ? ny1 : ny0) && mx < (px ? nx1 : nx0))", |w| {
                w.line(format!(
                    "const {} v = tile[my + (py ? oy1 : oy0)][mx + (px ? ox1 : ox0)];",
                    self.work()
                ));
                w.line("const int band = 2 * py + px;");
                w.block("if (band == 0)", |w| {
                    w.line("low[low_base + my * low_row_step + mx * low_col_step] = to_elem(v);");
                });
                if self.band01_with_low {
                    w.block("else if (band == 1)", |w| {
                        w.line("low[high01_base + my * low_row_step + mx * low_col_step] = to_elem(v);");
                    });
                }
                w.block("else", |w| {
                    w.line(HIGH_BASE);
                    w.line("high[hb + my * high_row_step + mx * high_col_step] = to_elem(v);");
                });
            });
        });
    }

    /// The tile's own samples from the local tile into the band in natural order, checked at
    /// the band's edges. With the leaner accesses ([`Emitter::lean_access`]: every inverse by
    /// default), each (even, odd) pair of a row is one vector store where the rows are
    /// contiguous and aligned for it: half the stores and half the index arithmetic of one
    /// sample at a time ([`NaturalStore`] says where edge tiles do so too).
    pub(crate) fn tile_store_natural(
        &self,
        w: &mut Writer,
        lx: AxisLayout,
        ly: AxisLayout,
        store: NaturalStore,
    ) {
        let checked = store != NaturalStore::Inside;
        let (tx, ty) = (lx.t, ly.t);
        let undo = self.pre_shifted();
        let stored = |v: &str| {
            if undo {
                format!("to_elem(undo_pre_shift({v}))")
            } else {
                format!("to_elem({v})")
            }
        };
        w.comment(format!(
            "Store: the tile's own {}x{} samples in natural order.",
            2 * ty,
            2 * tx
        ));
        let singles = |w: &mut Writer| {
            self.strided(w, 4 * tx * ty, true, |w| {
                w.line(format!(
                    "const int r = 2 * my0 + t / {}, c = 2 * mx0 + t % {};",
                    2 * tx,
                    2 * tx
                ));
                let store = |w: &mut Writer| {
                    w.line(format!(
                        "const {} v = tile[(r >> 1) + ((r & 1) ? oy1 : oy0)][(c >> 1) + ((c & 1) ? ox1 : ox0)];",
                        self.work()
                    ));
                    w.line(format!(
                        "nat[nat_base + r * nat_row_step + c * nat_col_step] = {};",
                        stored("v")
                    ));
                };
                if checked {
                    w.block("if (r < rows && c < cols)", store);
                } else {
                    store(w);
                }
            });
        };
        if !self.lean_access() || store == NaturalStore::EdgeSingles {
            singles(w);
            return;
        }
        w.block(format!("if ({})", self.natural_pairs()), |w| {
            if let (false, Some(runs)) = (checked, self.store_runs(tx, ty)) {
                self.inner_store_runs(w, tx, ty, runs, &stored);
                return;
            }
            self.strided(w, 2 * tx * ty, true, |w| {
                w.line(format!(
                    "const int r = 2 * my0 + t / {tx}, m = mx0 + t % {tx};"
                ));
                let pair = |w: &mut Writer| {
                    w.line("const int ry = (r >> 1) + ((r & 1) ? oy1 : oy0);");
                    w.line(self.d.store_pair(
                        self.elem,
                        "nat",
                        "nat_base + r * nat_row_step + 2 * m",
                        &stored("tile[ry][m + ox0]"),
                        &stored("tile[ry][m + ox1]"),
                    ));
                };
                if !checked {
                    pair(w);
                    return;
                }
                // At the band's edges too: one sample at a time, each under its own
                // condition, made an edge tile's store 2x an inner one's at 1920x1080 (a
                // clock64 probe, BENCHMARKS.md). Only a band of odd width ends in half a pair.
                w.block("if (r < rows && 2 * m + 1 < cols)", pair);
                w.block("else if (r < rows && 2 * m < cols)", |w| {
                    w.line("const int ry = (r >> 1) + ((r & 1) ? oy1 : oy0);");
                    w.line(format!(
                        "nat[nat_base + r * nat_row_step + 2 * m] = {};",
                        stored("tile[ry][m + ox0]")
                    ));
                });
            });
        });
        w.block("else", singles);
    }

    /// The runs of [`Emitter::inner_store_runs`] for a tile of `tx` x `ty` indices per phase:
    /// the fewest natural rows that fill whole warps with pairs, where each work-item then makes
    /// at most 4 stores (its addresses are kept in registers across the loop). A run of an odd
    /// number of rows begins on rows of both phases in turn, which a warp's runs keep where the
    /// group has an even number of warps (each warp's runs step by them); otherwise the runs
    /// take twice the rows.
    fn store_runs(&self, tx: usize, ty: usize) -> Option<StoreRuns> {
        let lanes = 32;
        let threads = self.cfg.tile_threads;
        let pairs = lanes / gcd(lanes, tx) * tx;
        let mut runs = StoreRuns {
            rows: pairs / tx,
            stores: pairs / lanes,
        };
        if runs.rows % 2 == 1 && (threads / lanes) % 2 == 1 {
            runs.rows *= 2;
            runs.stores *= 2;
        }
        (threads % lanes == 0 && (2 * ty) % runs.rows == 0 && runs.stores <= 4).then_some(runs)
    }

    /// The inner tiles' pair stores of [`Emitter::tile_store_natural`] a run of rows per 32
    /// work-items: lane `k` stores pairs `k`, `k + 32`, ... of the run, counted along its rows,
    /// every lane busy. Where each pair lies in the run (its row and column, its place in the
    /// band and in the tile) is reckoned once per work-item, and a run adds its first row to
    /// it. The strided walk spent a division by the tile's width and 64-bit address arithmetic
    /// on every pair, about 29 instructions a store against 11 (NVRTC 13.0, sm_90 SASS of
    /// Fidelity's inverse). Measured on an H200 at 8192^2 (BENCHMARKS.md): Fidelity's inverse
    /// 0.98 of its time, CDF 9/7's 0.975-0.982, the other inverses within noise.
    fn inner_store_runs(
        &self,
        w: &mut Writer,
        tx: usize,
        ty: usize,
        runs: StoreRuns,
        stored: &dyn Fn(&str) -> String,
    ) {
        let rows = 2 * ty;
        let warps = self.cfg.tile_threads / 32;
        let pointer = self.d.global_pointer(self.d.storage_type(self.elem));
        let odd = runs.rows % 2 == 1;
        w.comment(format!(
            "{} of {tx} pairs per 32 work-items at a time, each work-item's pairs placed once.",
            match runs.rows {
                1 => "A row".to_string(),
                n => format!("{n} rows"),
            }
        ));
        w.line("const int lane = tid % 32, lane_row = tid / 32;");
        for k in 0..runs.stores {
            let j = match k {
                0 => "lane".to_string(),
                _ => format!("(lane + {})", 32 * k),
            };
            w.line(format!(
                "const int d{k} = {j} / {tx}, m{k} = mx0 + {j} % {tx};"
            ));
            // The pair's row counted from an even row: a warp's runs of an odd number of rows
            // all begin in the phase of its first.
            let e = if odd {
                let first = match runs.rows {
                    1 => "(lane_row & 1)".to_string(),
                    n => format!("{n} * (lane_row & 1)"),
                };
                w.line(format!("const int e{k} = d{k} + {first};"));
                format!("e{k}")
            } else {
                format!("d{k}")
            };
            w.line(format!(
                "const int ry{k} = ({e} >> 1) + (({e} & 1) ? oy1 : oy0);"
            ));
            w.line(format!(
                "{pointer} const at{k} = nat + nat_base + {e} * nat_row_step + 2 * m{k};"
            ));
        }
        share(
            w,
            "run",
            "lane_row",
            warps,
            rows / runs.rows,
            Unroll::By4,
            |w| {
                // Half the natural row the run's pairs are counted from.
                let h = match (odd, runs.rows) {
                    (true, 1) => "my0 + (run >> 1)".to_string(),
                    (true, n) => format!("my0 + {n} * (run >> 1)"),
                    (false, 2) => "my0 + run".to_string(),
                    (false, n) => format!("my0 + {} * run", n / 2),
                };
                w.line(format!("const int h = {h};"));
                w.line("const int off = 2 * h * nat_row_step;");
                for k in 0..runs.stores {
                    w.line(self.d.store_pair(
                        self.elem,
                        &format!("at{k}"),
                        "off",
                        &stored(&format!("tile[h + ry{k}][m{k} + ox0]")),
                        &stored(&format!("tile[h + ry{k}][m{k} + ox1]")),
                    ));
                }
            },
        );
    }
}

/// How [`Emitter::inner_store_runs`] walks a tile's rows: `rows` natural rows a warp at a time,
/// `stores` pair stores per work-item each time.
#[derive(Clone, Copy, Debug)]
struct StoreRuns {
    rows: usize,
    stores: usize,
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
