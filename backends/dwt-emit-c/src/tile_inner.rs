//! The fused pass's fast path for tiles away from the band's edges, where every loaded index lies
//! inside the band and no read goes through the boundary rule.
//!
//! The general path lifts one step at a time over the whole tile, a barrier after each, and pays
//! index arithmetic per value per step: the kernel was bound by instructions, not by memory. Here
//! each work-item lifts a segment of `S` indices per phase of one line in registers, every step in
//! one straight run of code, reading the segment's own halo (from the IR's supports, as for the
//! tile: [`dwt_ir::Program::tile_halo`] with no margin) and writing back only its own indices.
//! Three barriers in all instead of one per step (CUDA; OpenCL kernels meet the general path's
//! barriers too, see [`crate::Dialect::barriers_in_uniform_branches`]); the second
//! axis's segments move their results straight to (forward) or from (inverse) the subbands in
//! global memory, consecutive work-items on consecutive columns so that those accesses coalesce.

use dwt_ir::{Direction, ElementKind, ElementType, Op, TileHalo};

use crate::emit::{offset, Emitter};
use crate::tile::{share, Axis, AxisLayout, Unroll, MAX_TILE_BYTES};
use crate::writer::Writer;

/// The fewest taps (over all of a program's lifting steps) from which the fused kernels' inner
/// tiles take the leaner forms of their global memory accesses: the forward's load a row per 32
/// work-items ([`Emitter::inner_load_natural`]), the inverse's store a vector per (even, odd) pair
/// ([`Emitter::tile_store_natural`]). Both cut instructions, which is what the longer programs'
/// kernels wait on; the shorter ones' kernels wait on memory, and the new forms made some of them
/// slower. Measured on an H200, 8192^2 one level, each form against the one before it for every
/// wavelet, two alternations in one call (BENCHMARKS.md): the row load made CDF 9/7 (8 taps),
/// Deslauriers-Dubuc (9,7) (6) and (13,7) (8), Daubechies 9/7 (8) 3.5-5.5% faster, Fidelity (16)
/// the same, Haar (2), LeGall 5/3 and CDF 5/3 (4) 2.5-5% slower; the pair store made DD (13,7)
/// 12%, Fidelity 7.5% and the other long ones 1.5-2% faster, LeGall 5/3 8% slower. Since tiles
/// at the band's edges lift in registers too ([`crate::EdgeTiles::Reflected`]), the pair store
/// is faster for the short programs' inverse as well: the measuring planner's own timings, both
/// forms side by side in one run (H200, BENCHMARKS.md), 2-13% for Haar, LeGall 5/3 and CDF 5/3 on
/// every size (LeGall 5/3 8192^2 one level 146 against 158 us, CDF 5/3 148 against 169 us), so
/// every inverse takes it; this threshold is the forward's. The rule is the default;
/// [`LaunchConfig::lean_access`](crate::LaunchConfig::lean_access) overrides it, and the
/// measuring planner (`dwt_cuda::Tuning::Measured`) times both forms per request.
pub(crate) const LEAN_ACCESS_MIN_TAPS: usize = 6;

/// The longest divisor of `t` not above `max` (at least 1): the segment a work-item lifts.
pub fn segment_len(t: usize, max: usize) -> usize {
    (1..=max.min(t).max(1))
        .rev()
        .find(|s| t % s == 0)
        .unwrap_or(1)
}

/// One register pass: along which axis, over which lines, and whether it touches the subbands.
#[derive(Clone, Copy)]
pub(crate) struct Pass {
    pub(crate) axis: Axis,
    /// Only the tile's own lines of the other axis (the second pass), or every loaded one.
    pub(crate) own: bool,
    /// Along y only: the segment's subband samples come from (inverse) or go to (forward) global
    /// memory rather than the tile.
    pub(crate) bands: bool,
    /// i16 storage: the first axis's results are stored as short before the other axis reads them.
    pub(crate) truncate: bool,
    /// Skip the lines outside the band (a tile at the band's edge along the other axis, which
    /// lifts along that axis on the general path); only a pass with `bands` sets it (the others
    /// stay in the tile, which holds every line).
    pub(crate) lines_checked: bool,
    /// A tile at the band's edge, and how its halo beyond the band is made: a pass from the
    /// subbands reads its lines and indices mapped into the band (where the tile's `refl_x` and
    /// `refl_y` say, or through `reflect()` or a clamp: [`Emitter::inverse_edge_maps`]), one to
    /// them skips the lines and indices outside it. `None`: a tile away from the band's edges
    /// along this pass's axis, or one whose lines the caller checks.
    pub(crate) edge: Option<EdgeHalo>,
    /// The tile holds its rows interleaved, sample `j` of the row (from the first loaded pair)
    /// at column `j`, as an inner tile copied in asynchronously leaves them
    /// ([`Emitter::interleaved_inner_tile`]): a pass along x reads both phases from there (and
    /// writes its results back to the phases' own columns, which the other pass reads), its
    /// work-items in the order of lines in both parts. Such a tile holds the samples as stored,
    /// so a pre-shifted program's pass pre-shifts each as it reads it
    /// ([`Emitter::raw_inner_tile`]).
    pub(crate) interleaved_reads: bool,
}

/// How an edge tile's register pass fills the indices beyond the band
/// ([`crate::EdgeTiles`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum EdgeHalo {
    /// Loaded by whole-sample reflection, then lifted as inside the band: exact where
    /// [`dwt_ir::Program::reflected_segments_exact`] proves it.
    Reflected,
    /// The clamp rule itself (reads clamped into the same phase): loaded from the phase's
    /// nearest sample, and after each lifting step the indices beyond the band take the value
    /// of the phase's end sample again, so every read beyond the band sees that sample's
    /// current value, as the rule says.
    Clamped,
    /// A periodic band: loaded modulo the band's side (`wrap()`), then lifted as inside the
    /// band, since the periodic extension of the band is its whole signal. Exact on every band.
    Wrapped,
}

impl Pass {
    /// The pass for a tile that may be at the band's edge along the other axis: one to or from
    /// the subbands skips the lines outside the band.
    pub(crate) fn checking_lines(self) -> Self {
        Pass {
            lines_checked: self.bands,
            ..self
        }
    }

    /// The pass for a tile at the band's edge with its halo made as `halo` says: from the
    /// subbands, every line and index mapped into the band; to them, only the lines (the tile's
    /// own) and indices inside it.
    pub(crate) fn at_edge(self, halo: EdgeHalo) -> Self {
        Pass {
            lines_checked: self.bands && self.own,
            edge: Some(halo),
            ..self
        }
    }
}

/// How the forward's inner tiles move a pair of natural samples into the tile.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PairMove {
    /// Loaded into a register as one vector, stored from there (pre-shifted where the wavelet
    /// says).
    Register,
    /// Copied asynchronously, one copy per pair, as stored and interleaved
    /// ([`Emitter::interleaved_inner_tile`]; a pre-shift left to the pass that reads them:
    /// [`Emitter::raw_inner_tile`]).
    Copy,
}

/// Which part of a register pass to emit. A pass from the tile back into it comes in two parts
/// with barriers between (a segment's halo is its neighbours' own indices, so every segment is
/// read and lifted before any is written back); each work-item keeps its own results in
/// `kept` (registers: the rounds are unrolled) across the barriers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    /// A pass to or from the subbands, in one part.
    Whole,
    /// Read, lift, keep.
    Lift,
    /// Write what was kept.
    WriteBack,
}

impl Emitter<'_> {
    /// The register passes of this kernel's fast path, in order: (first axis, second axis). The
    /// forward's first pass goes from the tile back into it, its second writes the subbands; the
    /// inverse's first reads the subbands, its second goes from the tile back into it.
    pub(crate) fn inner_passes(&self) -> (Pass, Pass) {
        let truncate = self.elem == ElementType::I16;
        if self.direction == Direction::Forward {
            (
                Pass {
                    axis: Axis::X,
                    own: false,
                    bands: false,
                    truncate,
                    lines_checked: false,
                    edge: None,
                    interleaved_reads: false,
                },
                Pass {
                    axis: Axis::Y,
                    own: true,
                    bands: true,
                    truncate: false,
                    lines_checked: false,
                    edge: None,
                    interleaved_reads: false,
                },
            )
        } else {
            (
                Pass {
                    axis: Axis::Y,
                    own: false,
                    bands: true,
                    truncate,
                    lines_checked: false,
                    edge: None,
                    interleaved_reads: false,
                },
                Pass {
                    axis: Axis::X,
                    own: true,
                    bands: false,
                    truncate: false,
                    lines_checked: false,
                    edge: None,
                    interleaved_reads: false,
                },
            )
        }
    }

    /// Segment length, lines and work-items' tasks of a pass.
    fn pass_shape(&self, layout: [AxisLayout; 2], pass: Pass) -> (usize, usize, usize) {
        let [lx, ly] = layout;
        let (along, across) = match pass.axis {
            Axis::X => (lx, ly),
            Axis::Y => (ly, lx),
        };
        let s = segment_len(along.t, self.cfg.segment);
        let lines = if pass.own {
            2 * across.t
        } else {
            across.stored[0] + across.stored[1]
        };
        (s, lines, lines * (along.t / s))
    }

    /// The rounds of a pass (how many of its tasks each work-item takes) and the values a
    /// two-part pass keeps per round (both phases of a segment).
    fn kept_shape(&self, layout: [AxisLayout; 2], pass: Pass) -> [usize; 2] {
        let (s, _, tasks) = self.pass_shape(layout, pass);
        [tasks.div_ceil(self.cfg.tile_threads), 2 * s]
    }

    /// The values each work-item keeps in registers across the barriers of a two-part pass.
    pub(crate) fn kept_values(&self, layout: [AxisLayout; 2], pass: Pass) -> usize {
        let [rounds, per_round] = self.kept_shape(layout, pass);
        rounds * per_round
    }

    /// The registers a two-part pass keeps across its barriers (declared outside the branches).
    pub(crate) fn kept_declaration(&self, layout: [AxisLayout; 2], pass: Pass) -> String {
        let [rounds, per_round] = self.kept_shape(layout, pass);
        format!("{} kept[{rounds}][{per_round}];", self.work())
    }

    /// Whether the inner tiles take the leaner global accesses: every inverse, and the forward of
    /// programs of at least [`LEAN_ACCESS_MIN_TAPS`] taps.
    pub(crate) fn lean_access(&self) -> bool {
        self.cfg.lean_access.unwrap_or_else(|| {
            self.direction == Direction::Inverse
                || self.wavelet.program_for(self.direction).taps() >= LEAN_ACCESS_MIN_TAPS
        })
    }

    /// Whether the forward's inner tiles copy their pairs into the tile asynchronously
    /// ([`Dialect::async_copies`](crate::Dialect::async_copies)): where the dialect
    /// can and the tile holds samples as stored, by default for programs of at least
    /// [`LEAN_ACCESS_MIN_TAPS`] taps. Measured on an H200 (BENCHMARKS.md): with a register
    /// staging each pair, the long programs' forwards waited on their loads (the lifting removed,
    /// CDF 9/7's kernel took 0.93 of its time); with the copies every pair of a work-item is in
    /// flight at once. The bench at 8192^2 one level, as configured: CDF 9/7 0.95, Fidelity
    /// 0.88, Daubechies 9/7 0.93-0.94, Deslauriers-Dubuc (9,7) and (13,7) 0.93 (held to full
    /// occupancy); LeGall 5/3 (tiles of 32x16) 1.02. A pre-shifted program's copies are shifted
    /// by the pass along x as it reads them ([`Emitter::raw_inner_tile`]), and every copy is of
    /// a whole pair into an interleaved row ([`Emitter::interleaved_inner_tile`]); only the
    /// register path's inner tiles, in a branch of their own, have such a pass to themselves
    /// (dialects with barriers in uniform branches).
    pub(crate) fn async_load(&self) -> bool {
        self.direction == Direction::Forward
            && self.d.storage_type(self.elem) == self.work()
            && self.d.async_copies()
            && self.d.barriers_in_uniform_branches()
            && self.cfg.async_load.unwrap_or_else(|| {
                self.wavelet.program_for(self.direction).taps() >= LEAN_ACCESS_MIN_TAPS
            })
    }

    /// Whether the forward's inner tiles hold their samples as stored rather than pre-shifted:
    /// those of a pre-shifted program that copies them in asynchronously
    /// ([`Emitter::async_load`]). The pass along x pre-shifts each as it reads it
    /// ([`Pass::interleaved_reads`]); a second walk over the copies, shifting each in place, made
    /// Daubechies 9/7's forward 1.11 times as slow at 8192^2 one level (BENCHMARKS.md).
    pub(crate) fn raw_inner_tile(&self) -> bool {
        self.async_load() && self.pre_shifted()
    }

    /// Whether the forward's inner tiles hold their rows interleaved as in global memory, both
    /// samples of a pair side by side (sample `j` of the row, counted from the first loaded pair,
    /// at column `j`): those that copy asynchronously ([`Emitter::async_load`]), one copy per
    /// pair of two samples instead of one per sample. Their pass along x reads both phases from
    /// there ([`Pass::interleaved_reads`]) and writes its results to the phases' own columns as
    /// other tiles hold them (every read is done before the barrier the write-back follows).
    /// Measured on an H200 at 8192^2 one level (BENCHMARKS.md): copy kernels loading a tile with
    /// CDF 9/7's halo as the forward does reached 86% of `cudaMemcpy` with a copy per sample and
    /// 97% with one per pair; the emitted forwards at 8192^2 one level took 0.90-0.98 of the
    /// time they took with a copy per sample (CDF 9/7 0.92, Fidelity 0.98).
    pub(crate) fn interleaved_inner_tile(&self) -> bool {
        self.async_load()
    }

    /// The indices a register segment along x reads before its first own one, per phase, where
    /// the tile's rows take [`AxisLayout::with_vector_rows`]: the inverse of a program with a
    /// step spanning [`LONG_STEP_SPAN`](crate::LONG_STEP_SPAN) indices or more (Fidelity), with
    /// 4-byte working values, segments of a multiple of four indices, and phase 0's reads
    /// beginning at a multiple of four (phase 0 is stored from index 0). Measured on an H100
    /// with every kernel so (BENCHMARKS.md): Fidelity's inverse 0.98-0.99 of its time at 4096^2
    /// and 8192^2, 0.95-0.99 at 1920x1080; the others within noise above 1920x1080, and there
    /// LeGall 5/3 1.02-1.09 (its i16 inverse 32 -> 39 registers) and CDF 9/7's inverse
    /// 1.03-1.05 in three calls, Daubechies 9/7 0.91-0.96 in one and 0.99-1.00 in the next.
    pub(crate) fn vector_row_reads(&self, halo: &TileHalo, tile_x: usize) -> Option<[usize; 2]> {
        let seg = self.wavelet.program_for(self.direction).tile_halo(0);
        let reads = seg.load.map(|h| h.before as usize);
        let before = halo.load.map(|h| h.before as usize);
        let long = crate::max_step_span(self.wavelet).is_some_and(|s| s >= crate::LONG_STEP_SPAN);
        let aligned = long
            && self.direction == Direction::Inverse
            && self.work_bytes() == 4
            && !self.interleaved_inner_tile()
            && segment_len(tile_x, self.cfg.segment) % 4 == 0
            && (0..2).all(|q| before[q] >= reads[q])
            && (before[0] - reads[0]) % 4 == 0;
        aligned.then_some(reads)
    }

    /// The row pitch (samples) of the tile array: the x layout's extent, or for an
    /// [interleaved](Emitter::interleaved_inner_tile) tile at least the interleaved row's width,
    /// raised to an even number (every row then starts at an address aligned for a pair), and to
    /// two more than a multiple of four where the tile still fits [`MAX_TILE_BYTES`] so
    /// (neighbouring work-items of the pass along x, which take neighbouring rows, then read in
    /// distinct banks: half the pitch is odd).
    pub(crate) fn tile_pitch(&self, [lx, ly]: [AxisLayout; 2]) -> usize {
        if !self.interleaved_inner_tile() {
            return lx.extent;
        }
        let least = lx.extent.max(2 * lx.pair_width());
        let even = least + least % 2;
        let banked = even + (6 - even % 4) % 4;
        if self.local_bytes_at([lx, ly], banked) <= MAX_TILE_BYTES {
            banked
        } else {
            even
        }
    }

    /// Whether the row load of [`Emitter::inner_load_pairs`] is unrolled whole, every pair
    /// loaded before any is stored ([`Emitter::inner_pairs_at_once`]), rather than by 4 with
    /// the halo round by round. Integer programs: measured on an H200 (8192^2 one level, each
    /// against the loop unrolled by 4, two alternations in one call, BENCHMARKS.md), the whole
    /// unroll made the forward of Daubechies 9/7 7.6% faster, Fidelity 4.7%, Deslauriers-Dubuc
    /// (13,7) 3.3%, (9,7) 2.4%, but CDF 9/7's (the one float program that takes the row load)
    /// 6.6% slower. Like [`LEAN_ACCESS_MIN_TAPS`], the default rule:
    /// [`LaunchConfig::whole_row_load`](crate::LaunchConfig::whole_row_load) overrides it, and the
    /// measuring planner times both.
    fn rows_unrolled_whole(&self) -> bool {
        self.cfg
            .whole_row_load
            .unwrap_or(self.elem.kind() == ElementKind::Integer)
    }

    /// Forward: the tile's rows in natural order into both phases of both axes, with no bounds
    /// checks: as (even, odd) pairs, one vector load each, where the rows are contiguous and
    /// aligned for that, else one sample at a time.
    pub(crate) fn inner_load_natural(&self, w: &mut Writer, lx: AxisLayout, ly: AxisLayout) {
        w.line(format!("const int pairs = {};", self.natural_pairs()));
        w.block("if (pairs)", |w| self.inner_load_pairs(w, lx, ly));
        w.block("else", |w| self.inner_load_scalar(w, lx, ly));
    }

    /// Whether the band in natural order (`nat`) can be read or written as (even, odd) pairs,
    /// one vector access each ([`Dialect::load_pair`](crate::Dialect::load_pair),
    /// [`Dialect::store_pair`](crate::Dialect::store_pair)): contiguous rows, each starting at
    /// an even index of an aligned pointer.
    pub(crate) fn natural_pairs(&self) -> String {
        let aligned = match self.d.pair_aligned(self.elem, "nat") {
            Some(a) => format!(" && {a}"),
            None => String::new(),
        };
        format!("nat_col_step == 1 && ((nat_base | nat_row_step) & 1) == 0{aligned}")
    }

    /// A natural sample as the forward's working value (pre-shifted where the wavelet says).
    pub(crate) fn loaded(&self, sample: &str) -> String {
        let value = format!("to_work({sample})");
        if self.pre_shifted() {
            format!("pre_shift({value})")
        } else {
            value
        }
    }

    /// Polyphase index `m` of the tile's rows as one pair of natural samples `(2m, 2m + 1)`,
    /// into both phases where each is stored. Inner tiles read inside the band for every `m`
    /// either phase stores (the band has at least as many even indices as odd ones).
    ///
    /// For programs of at least [`LEAN_ACCESS_MIN_TAPS`] taps, with groups of a multiple of 32
    /// work-items, the tile's own pairs of a row go to 32 consecutive work-items (a row per 32,
    /// its address computed once; no division), the halo's pairs of every row after them. The
    /// loop over rows has no loop inside it, so the unrolled iterations keep their loads in
    /// flight together ([`Emitter::rows_unrolled_whole`] says how far it is unrolled). Other
    /// programs take one loop over all pairs.
    fn inner_load_pairs(&self, w: &mut Writer, lx: AxisLayout, ly: AxisLayout) {
        if !self.async_load() {
            self.inner_pairs(w, lx, ly, PairMove::Register);
            return;
        }
        if self.copies_by_row(lx) {
            self.inner_copy_rows(w, lx, ly);
        } else {
            self.inner_pairs(w, lx, ly, PairMove::Copy);
        }
        w.line("wait_async();");
    }

    /// Whether the forward's inner tiles copy their pairs a row per 32 work-items
    /// ([`Emitter::inner_copy_rows`]) rather than the tile's own pairs by row and the halo's
    /// apart ([`Emitter::inner_pairs`]): where the row walk takes no more copies per row, counted
    /// a warp at a time (its copies' lanes are as busy). Measured on an H200 (BENCHMARKS.md):
    /// Fidelity's rows of 62 pairs (48 its own), two copies a row instead of 2.44, took 0.96 of
    /// its forward's time at 8192^2; CDF 9/7's of 36 (32 its own), two instead of 1.13, 1.07.
    fn copies_by_row(&self, lx: AxisLayout) -> bool {
        let width = lx.pair_width();
        let own = lx.t;
        self.cfg.tile_threads % 32 == 0
            && self.lean_access()
            && 32 * width.div_ceil(32) <= 32 * own.div_ceil(32) + (width - own)
    }

    /// The copies of [`Emitter::inner_load_pairs`] a row per 32 work-items: lane `k` copies
    /// pairs `k`, `k + 32`, ... of the row, halo and the tile's own alike, from a pointer made
    /// once per row (the lane's column in a pointer made once per work-item), each further pair
    /// at a constant offset from it. The split walk of [`Emitter::inner_pairs`] spends about ten
    /// instructions of 64-bit address arithmetic per copy, and a division per halo pair (NVRTC
    /// 13.0, sm_90 SASS); a walk of runs aligned to the tile's own pairs instead took 1.10-1.19x
    /// the time of the split walk for the programs with halos of 4-8 pairs (three copies a row,
    /// two of them nearly empty), and Fidelity's forward 0.99 (BENCHMARKS.md).
    fn inner_copy_rows(&self, w: &mut Writer, lx: AxisLayout, ly: AxisLayout) {
        let width = lx.pair_width();
        let rows = ly.stored[0] + ly.stored[1];
        let storage = self.d.storage_type(self.elem);
        w.comment(format!(
            "Load (inner tile): {rows} rows x {width} (even, odd) pairs, copied asynchronously as they lie (interleaved) a row per 32 work-items, no bounds checks."
        ));
        w.line("const int lane = tid % 32, lane_row = tid / 32;");
        w.line(format!(
            "const {storage}* lane_at = nat + nat_base + 2 * ({});",
            offset("mx0 + lane", -(lx.lead() as i64))
        ));
        let row = |w: &mut Writer| {
            w.line(format!(
                "const {storage}* vp = lane_at + ({}) * nat_row_step;",
                ly.natural_row("l")
            ));
            let dst = ly.all_lines("l");
            for k in 0..width.div_ceil(32) {
                let copy = format!(
                    "copy_async_pair(&tile[{dst}][{}], {});",
                    offset("2 * lane", 64 * k as i64),
                    offset("vp", 64 * k as i64)
                );
                let left = width - 32 * k;
                if left >= 32 {
                    w.line(copy);
                } else {
                    w.block(format!("if (lane < {left})"), |w| w.line(copy));
                }
            }
        };
        share(
            w,
            "l",
            "lane_row",
            self.cfg.tile_threads / 32,
            rows,
            Unroll::By4,
            row,
        );
    }

    /// The walk over the tile's pairs of [`Emitter::inner_load_pairs`], moving each as `how`
    /// says.
    fn inner_pairs(&self, w: &mut Writer, lx: AxisLayout, ly: AxisLayout, how: PairMove) {
        let bmax = lx.lead();
        let width = lx.pair_width();
        let rows = ly.stored[0] + ly.stored[1];
        let threads = self.cfg.tile_threads;
        w.comment(match how {
            PairMove::Register => format!(
                "Load (inner tile): {rows} rows x {width} (even, odd) pairs, no bounds checks."
            ),
            PairMove::Copy => format!(
                "Load (inner tile): {rows} rows x {width} (even, odd) pairs, copied asynchronously as they lie (interleaved), no bounds checks."
            ),
        });
        let pair_index = pair_index(lx);
        let load = |index: &str| self.d.load_pair(self.elem, "nat", index);
        let pair_type = self.d.pair_type(self.elem);
        // The pair (`v`, or at `vp`) as pair p of tile row `l`, into both phases where each
        // keeps it.
        let keep = |w: &mut Writer, l: &str, checked: bool| {
            let row = ly.all_lines(l);
            if how == PairMove::Copy {
                // Both samples, whether or not a phase keeps this pair (inner tiles hold both
                // samples of every pair in the band).
                w.line(format!("copy_async_pair(&tile[{row}][2 * p], vp);"));
                return;
            }
            for (q, field) in [(0, "x"), (1, "y")] {
                // Storage index of pair p in phase q, and the pairs that phase stores.
                let at = lx.before[q] as i64 - bmax as i64;
                let from = (bmax - lx.before[q]) as i64;
                let to = from + lx.stored[q] as i64;
                let base = if q == 0 { 0 } else { lx.phase1 as i64 };
                let cell = format!("tile[{row}][{}]", offset("p", base + at));
                let store = format!("{cell} = {};", self.loaded(&format!("v.{field}")));
                let mut bounds = Vec::new();
                if checked && from > 0 {
                    bounds.push(format!("p >= {from}"));
                }
                if checked && to < width as i64 {
                    bounds.push(format!("p < {to}"));
                }
                if bounds.is_empty() {
                    w.line(store);
                } else {
                    w.block(format!("if ({})", bounds.join(" && ")), |w| w.line(store));
                }
            }
        };
        let storage = self.d.storage_type(self.elem);
        let pair = |w: &mut Writer, index: &str, l: &str, checked: bool| {
            match how {
                PairMove::Register => w.line(format!("const {pair_type} v = {};", load(index))),
                PairMove::Copy => w.line(format!("const {storage}* vp = nat + {index};")),
            }
            keep(w, l, checked);
        };
        // The natural row of tile row `l`, where the walk reads global memory.
        let natural_row = |w: &mut Writer| {
            w.line(format!("const int nr = {};", ly.natural_row("l")));
        };
        if threads % 32 != 0 || !self.lean_access() {
            self.strided(w, rows * width, true, |w| {
                w.line(format!("const int l = t / {width}, p = t % {width};"));
                natural_row(w);
                pair(w, &pair_index, "l", true);
            });
            return;
        }
        // Pairs [bmax, bmax + t) are the tile's own, and every phase stores them.
        let own = lx.t;
        let halo = width - own;
        w.line("const int lane = tid % 32, lane_row = tid / 32;");
        let apart = threads / 32;
        if how == PairMove::Register && self.rows_unrolled_whole() {
            self.inner_pairs_at_once(w, lx, ly, &keep);
            return;
        }
        let row = |w: &mut Writer| {
            w.line(row_start(lx, ly));
            own_pairs(w, lx, &|w, _| pair(w, "at + 2 * p", "l", false));
        };
        // Copies hold no register: the row-by-row loop keeps them all in flight anyway.
        share(w, "l", "lane_row", apart, rows, Unroll::By4, row);
        if halo > 0 {
            self.strided(w, rows * halo, true, |w| {
                halo_position(w, lx);
                natural_row(w);
                pair(w, &pair_index, "l", true);
            });
        }
    }

    /// The walk of [`Emitter::inner_pairs`] through registers, unrolled whole
    /// ([`Emitter::rows_unrolled_whole`]): every load of the tile's own pairs (a row per 32
    /// work-items) and of the halo's, then every store (`keep`), each loop checking its index
    /// in its last round only ([`Unroll::WholeLastChecked`]). With the stores after their
    /// loads round by round and a check in every round, ptxas kept a few loads in flight at a
    /// time: about eight memory latencies per tile, half of a small level's time (Fidelity's
    /// 1920x1080 forward, BENCHMARKS.md).
    fn inner_pairs_at_once(
        &self,
        w: &mut Writer,
        lx: AxisLayout,
        ly: AxisLayout,
        keep: &dyn Fn(&mut Writer, &str, bool),
    ) {
        let rows = ly.stored[0] + ly.stored[1];
        let threads = self.cfg.tile_threads;
        let apart = threads / 32;
        let halo = lx.pair_width() - lx.t;
        let chunks = lx.t.div_ceil(32);
        let pair_type = self.d.pair_type(self.elem);
        let load = |index: &str| self.d.load_pair(self.elem, "nat", index);
        let unroll = Unroll::WholeLastChecked;
        w.line(format!(
            "{pair_type} own[{}][{chunks}];",
            rows.div_ceil(apart)
        ));
        share(w, "l", "lane_row", apart, rows, unroll, |w| {
            w.line(row_start(lx, ly));
            own_pairs(w, lx, &|w, k| {
                w.line(format!("own[round][{k}] = {};", load("at + 2 * p")));
            });
        });
        if halo > 0 {
            w.line(format!(
                "{pair_type} halo[{}];",
                (rows * halo).div_ceil(threads)
            ));
            share(w, "t", "tid", threads, rows * halo, unroll, |w| {
                halo_position(w, lx);
                w.line(format!("const int nr = {};", ly.natural_row("l")));
                w.line(format!("halo[round] = {};", load(&pair_index(lx))));
            });
        }
        share(w, "l", "lane_row", apart, rows, unroll, |w| {
            own_pairs(w, lx, &|w, k| {
                w.line(format!("const {pair_type} v = own[round][{k}];"));
                keep(w, "l", false);
            });
        });
        if halo > 0 {
            share(w, "t", "tid", threads, rows * halo, unroll, |w| {
                halo_position(w, lx);
                w.line(format!("const {pair_type} v = halo[round];"));
                keep(w, "l", true);
            });
        }
    }

    /// The same one natural sample at a time, the phase of a column from its parity.
    fn inner_load_scalar(&self, w: &mut Writer, lx: AxisLayout, ly: AxisLayout) {
        let (first, span) = lx.natural_span();
        let rows = ly.stored[0] + ly.stored[1];
        // `e` counts natural columns from an even point before the first, so that `e >> 1` and
        // `e & 1` never see a negative number.
        let bias = 2 * (lx.lead() as i64 + 1);
        let slot = |e: i64, q: usize| (e >> 1) - bias / 2 + lx.before[q] as i64;
        let all_stored = (0..span as i64).all(|j| {
            let e = j + first + bias;
            let q = (e & 1) as usize;
            (0..lx.stored[q] as i64).contains(&slot(e, q))
        });
        w.comment(format!(
            "Load (inner tile): {rows} rows x {span} natural columns, no bounds checks."
        ));
        let interleaved = self.interleaved_inner_tile();
        self.strided(w, rows * span, true, |w| {
            w.line(format!("const int l = t / {span}, j = t % {span};"));
            w.line(format!("const int nr = {};", ly.natural_row("l")));
            let sample = format!(
                "nat[nat_base + nr * nat_row_step + ({}) * nat_col_step]",
                offset("2 * mx0 + j", first)
            );
            // Raw like the pairs' copies, which the same pass reads.
            let load = if self.raw_inner_tile() {
                format!("to_work({sample})")
            } else {
                self.loaded(&sample)
            };
            if interleaved {
                // As the pairs' copies leave a row: natural column j at its place among the
                // pairs, whether or not a phase keeps it.
                w.line(format!(
                    "tile[{}][{}] = {load};",
                    ly.all_lines("l"),
                    offset("j", first + 2 * lx.lead() as i64)
                ));
                return;
            }
            w.line(format!("const int e = j + {};", first + bias));
            w.line(format!(
                "const int sx = (e >> 1) + ((e & 1) ? {} : {});",
                lx.phase1 as i64 + slot(0, 1),
                slot(0, 0)
            ));
            let store = format!("tile[{}][sx] = {load};", ly.all_lines("l"));
            if all_stored {
                w.line(store);
            } else {
                w.block(
                    format!(
                        "if ((e & 1) ? (sx >= {} && sx < {}) : (sx >= 0 && sx < {}))",
                        lx.phase1, lx.total, lx.stored[0]
                    ),
                    |w| w.line(store),
                );
            }
        });
    }

    /// One register pass: every work-item takes segments of `S` indices per phase of one line,
    /// consecutive work-items on consecutive lines (distinct banks in the tile; consecutive
    /// addresses in a subband).
    pub(crate) fn segments(
        &self,
        w: &mut Writer,
        layout: [AxisLayout; 2],
        pass: Pass,
        stage: Stage,
    ) {
        // Edge tiles under the clamp rule take the halo their choice was checked with.
        let seg = &match pass.edge {
            Some(EdgeHalo::Clamped) => self.clamped_segment_halo(),
            _ => self.wavelet.program_for(self.direction).tile_halo(0),
        };
        let [lx, ly] = layout;
        let (along, across) = match pass.axis {
            Axis::X => (lx, ly),
            Axis::Y => (ly, lx),
        };
        let v = pass.axis.v();
        let (s, lines, tasks) = self.pass_shape(layout, pass);
        let forward = self.direction == Direction::Forward;
        w.comment(format!(
            "Along {v} in registers{}: {lines} lines ({}) x {} segment{} of {s} indices per phase{}.",
            match stage {
                Stage::Whole => "",
                Stage::Lift => " (read and lift)",
                Stage::WriteBack => " (write back)",
            },
            if pass.own {
                "the tile's own"
            } else {
                "every loaded one"
            },
            along.t / s,
            if along.t / s == 1 { "" } else { "s" },
            match (pass.bands, forward) {
                (false, _) => "",
                (true, true) => ", written to the subbands",
                (true, false) => ", read from the subbands",
            }
        ));
        let reg = |q: usize, k: i64| format!("{}{}", ["e", "o"][q], k + seg.load[q].before as i64);
        // Reads from an interleaved row, pre-shifted where the program shifts (the write-back
        // stores to the phases' columns).
        let interleaved = pass.interleaved_reads && stage == Stage::Lift;
        let shift_reads = interleaved && self.raw_inner_tile();
        let tile_at = |q: usize, k: i64| {
            let at = if interleaved {
                offset("c", 2 * k + q as i64)
            } else {
                offset(&format!("b{q}"), k)
            };
            match pass.axis {
                Axis::X => format!("tile[line][{at}]"),
                Axis::Y => format!("tile[{at}][line]"),
            }
        };
        // Phase `q`'s subband of the column: its buffer, where the column begins and its row step.
        // (`None`: the buffer is a pointer to the column itself.)
        let band = |q: usize| match q {
            0 if self.band01_with_low => ("e_out", None, "low_row_step"),
            0 => ("(px ? high : low)", Some("e_at"), "e_step"),
            _ => ("high", Some("o_at"), "high_row_step"),
        };
        let band_at = |q: usize, k: i64| {
            let row = match (pass.edge, k) {
                (Some(_), _) if !forward && self.inverse_edge_maps() => {
                    format!("refl_y[{}]", offset(&format!("b{q}"), k))
                }
                (Some(EdgeHalo::Reflected), _) if !forward => {
                    format!("reflect(rows, {q}, {})", offset("i0", k))
                }
                (Some(EdgeHalo::Wrapped), _) if !forward => {
                    format!("wrap(rows, {q}, {})", offset("i0", k))
                }
                (Some(EdgeHalo::Clamped), _) if !forward => {
                    self.d
                        .clamp_int(&offset("i0", k), "0", &format!("ny{q} - 1"))
                }
                (_, 0) => "i0".to_string(),
                (_, k) => format!("({})", offset("i0", k)),
            };
            let (buffer, at, step) = band(q);
            match at {
                Some(at) => format!("{buffer}[{at} + {row} * {step}]"),
                None => format!("{buffer}[{row} * {step}]"),
            }
        };
        // Which line (`l`) and which of its segments work-item `t` takes. By default neighbouring
        // work-items take neighbouring lines: along y those are neighbouring columns, coalesced
        // where the pass reads or writes the subbands. Along x, where the pass stays in the tile
        // (whose x extent is odd), a line of exactly 32 indices gives its segments to neighbouring
        // work-items instead: a group of 32 then reads `s` whole lines, `segs` segments each, in
        // 32 distinct banks (`s` divides 32 and the row stride is odd, or with vector rows four more
        // than a multiple of eight for its 16-byte accesses), rather than straddling one
        // segment's last lines and the next one's first (2-way conflicts; 1-2.5% at 8192^2 on an
        // H200, BENCHMARKS.md). Not for lines of 64 indices: segments j and j + 4 share banks.
        // Nor in interleaved inner tiles (their pitch is even; the write-back after the barrier
        // takes the same order): neighbouring lines then read pairs in distinct banks.
        let segs = along.t / s;
        let bank_order = pass.axis == Axis::X && along.t == 32 && !pass.interleaved_reads;
        let (line_of_t, segment_of_t) = if bank_order {
            (format!("t / {segs}"), format!("t % {segs}"))
        } else {
            (format!("t % {lines}"), format!("t / {lines}"))
        };
        let header = |w: &mut Writer| {
            w.line(format!("const int l = {line_of_t};"));
            w.line(format!("const int i0 = m{v}0 + {s} * ({segment_of_t});"));
            let line = if pass.own {
                across.own_lines("l")
            } else {
                across.all_lines("l")
            };
            w.line(format!("const int line = {line};"));
            if interleaved {
                // Pair `i0` of the line's segment, both phases side by side.
                w.line(format!(
                    "const int c = 2 * ({});",
                    offset(&format!("i0 - m{v}0"), along.lead() as i64)
                ));
            } else {
                w.line(format!("const int b0 = i0 + o{v}0, b1 = i0 + o{v}1;"));
            }
            if pass.bands {
                // The line is a column: its phase and polyphase index along x.
                if pass.own {
                    w.line(format!(
                        "const int px = l >= {t}, mx = mx0 + l - (px ? {t} : 0);",
                        t = across.t
                    ));
                } else {
                    let mx = format!("px ? sx1 + l - {s0} : sx0 + l", s0 = across.stored[0]);
                    let mx = match pass.edge {
                        Some(_) if self.inverse_edge_maps() => "refl_x[line]".to_string(),
                        Some(EdgeHalo::Reflected) => format!("reflect(cols, px, {mx})"),
                        Some(EdgeHalo::Wrapped) => format!("wrap(cols, px, {mx})"),
                        Some(EdgeHalo::Clamped) => {
                            self.d.clamp_int(&mx, "0", "(px ? nx1 : nx0) - 1")
                        }
                        None => mx,
                    };
                    w.line(format!(
                        "const int px = l >= {s0}, mx = {mx};",
                        s0 = across.stored[0]
                    ));
                }
                if self.band01_with_low {
                    // A pointer rather than an index: the index form took a register more
                    // than the cap allows in Daubechies 9/7's i16 forward (4 bytes spilled).
                    w.line(format!(
                        "{} const e_out = low + (px ? high01_base : low_base) + mx * low_col_step;",
                        self.d.global_pointer(self.d.storage_type(self.elem))
                    ));
                } else {
                    w.line("const int e_at = px ? high01_base + mx * high_col_step : low_base + mx * low_col_step;");
                    w.line("const int e_step = px ? high_row_step : low_row_step;");
                }
                w.line("const int o_at = (px ? high11_base : high10_base) + mx * high_col_step;");
            }
        };
        let lift = |w: &mut Writer| {
            let from_bands = pass.bands && !forward;
            let value = |q: usize, k: i64| {
                if from_bands {
                    format!("to_work({})", band_at(q, k))
                } else if shift_reads {
                    format!("pre_shift({})", tile_at(q, k))
                } else {
                    tile_at(q, k)
                }
            };
            let group = match pass.edge {
                None => self.group_inner_taps,
                Some(_) => self.edge_taps_grouped(),
            };
            let clamp = (pass.edge == Some(EdgeHalo::Clamped)).then_some(v);
            self.lift_registers(w, seg, s, group, clamp, &value);
        };
        // An edge tile's forward stores the segment's indices of phase `q` (values `r(k)`) under
        // one condition, the segment beginning in the band: an index beyond the band stores at
        // the band's last index instead, the indices in descending order, so that the last
        // store there is the value of that index itself (one work-item's stores to one address
        // land in program order). No branch per index: a condition per store cost the edge
        // tiles' last pass three times the inner ones' at 1920x1080's small levels, each level
        // as long as its slowest tile (BENCHMARKS.md). A pointer to the segment's first index
        // and offsets clamped to its last in-band one: ptxas fits these in the forward's 32
        // registers where clamped rows (`min(i0 + k, n - 1)`) spilled, but for groups of 512
        // work-items, which keep a condition per store.
        let store_edge_phase = |w: &mut Writer, q: usize, r: &dyn Fn(i64) -> String| {
            let n = format!("n{v}{q}");
            let pointer = self.d.global_pointer(self.d.storage_type(self.elem));
            let (buffer, at, step) = band(q);
            let column = match at {
                Some(at) => format!("{buffer} + {at}"),
                None => buffer.to_string(),
            };
            w.block(format!("if (i0 < {n})"), |w| {
                w.line(format!("const int last{q} = {n} - 1 - i0;"));
                w.line(format!("{pointer} const seg{q} = {column} + i0 * {step};"));
                for k in (0..s as i64).rev() {
                    let at = match k {
                        0 => "0".to_string(),
                        _ => format!(
                            "{} * {step}",
                            self.d.min_int(&k.to_string(), &format!("last{q}"))
                        ),
                    };
                    w.line(format!("seg{q}[{at}] = to_elem({});", r(k)));
                }
            });
        };
        let edge_band_stores =
            pass.bands && forward && pass.edge.is_some() && self.cfg.tile_threads < 512;
        // Where own index `k` of phase `q` goes, and the value it takes from `r`.
        let store = |w: &mut Writer, q: usize, k: i64, r: &str| {
            if pass.bands && forward && pass.edge.is_some() {
                w.block(format!("if ({} < n{v}{q})", offset("i0", k)), |w| {
                    w.line(format!("{} = to_elem({r});", band_at(q, k)))
                });
            } else if pass.bands && forward {
                w.line(format!("{} = to_elem({r});", band_at(q, k)));
            } else if pass.truncate {
                w.line(format!("{} = to_work(to_elem({r}));", tile_at(q, k)));
            } else {
                w.line(format!("{} = {r};", tile_at(q, k)));
            }
        };
        if stage == Stage::Whole {
            self.strided(w, tasks, false, |w| {
                header(w);
                let stores = |w: &mut Writer| {
                    for q in 0..2 {
                        if edge_band_stores {
                            store_edge_phase(w, q, &|k| reg(q, k));
                            continue;
                        }
                        for k in 0..s as i64 {
                            store(w, q, k, &reg(q, k));
                        }
                    }
                };
                let in_band = "if (mx >= 0 && mx < (px ? nx1 : nx0))";
                match (pass.lines_checked, forward) {
                    (false, _) => {
                        lift(w);
                        stores(w);
                    }
                    // The forward lifts every line (the tile holds them all) and stores those in
                    // the band: with the lift under the branch too, ptxas took 46 registers
                    // instead of 32 for LeGall 5/3's kernel.
                    (true, true) => {
                        lift(w);
                        w.block(in_band, stores);
                    }
                    // The inverse reads the line from the subbands: only inside the band.
                    (true, false) => w.block(in_band, |w| {
                        lift(w);
                        stores(w);
                    }),
                }
            });
            return;
        }
        let kept = |q: usize, k: i64| format!("kept[round][{}]", q as i64 * s as i64 + k);
        self.strided_whole(w, tasks, |w| {
            header(w);
            if stage == Stage::Lift {
                lift(w);
            }
            for q in 0..2 {
                if stage != Stage::Lift && edge_band_stores {
                    store_edge_phase(w, q, &|k| kept(q, k));
                    continue;
                }
                for k in 0..s as i64 {
                    if stage == Stage::Lift {
                        w.line(format!("{} = {};", kept(q, k), reg(q, k)));
                    } else {
                        store(w, q, k, &kept(q, k));
                    }
                }
            }
        });
    }

    /// A register segment of `s` indices per phase: its registers (`e0`, `o0`, ... from the
    /// first index of `seg`'s halo) declared with `value(q, k)` for index `k` of phase `q`
    /// (`k` from minus the halo before to `s` plus the halo after), then every op of the
    /// program lifted over the indices its step's halo says. `group`: each coefficient's taps
    /// summed first ([`step_body`](Self::step_body)). `clamp`: the segment's axis, where the
    /// clamp rule is applied again after each step ([`EdgeHalo::Clamped`]).
    pub(crate) fn lift_registers(
        &self,
        w: &mut Writer,
        seg: &TileHalo,
        s: usize,
        group: bool,
        clamp: Option<&str>,
        value: &dyn Fn(usize, i64) -> String,
    ) {
        let reg = |q: usize, k: i64| format!("{}{}", ["e", "o"][q], k + seg.load[q].before as i64);
        for q in 0..2 {
            let h = seg.load[q];
            for k in -(h.before as i64)..(s + h.after as usize) as i64 {
                w.line(format!("{} {} = {};", self.work(), reg(q, k), value(q, k)));
            }
        }
        let mut steps = seg.steps.iter();
        for (i, op) in self.ops.iter().enumerate() {
            match op {
                Op::Lift(step) => {
                    let h = steps.next().expect("one halo per step");
                    let (p, q) = (
                        step.target.parity() as usize,
                        step.source().parity() as usize,
                    );
                    w.comment(format!("{step}"));
                    let (from, to) = (-(h.before as i64), (s + h.after as usize) as i64);
                    for g in from..to {
                        w.block("", |w| {
                            let read = |k| reg(q, g + k);
                            self.step_body(w, step, &reg(p, g), &read, group)
                        });
                    }
                    // No later step reads what the last one left beyond the band.
                    let later = self.ops[i + 1..].iter().any(|op| matches!(op, Op::Lift(_)));
                    if let (Some(v), true) = (clamp, later) {
                        self.clamp_again(w, p, from, to, &|k| reg(p, k), &format!("n{v}{p}"));
                    }
                }
                Op::Scale { low, high } => {
                    w.comment(format!("{op}"));
                    for (q, c) in [(0, low), (1, high)] {
                        let h = seg.load[q];
                        for k in -(h.before as i64)..(s + h.after as usize) as i64 {
                            let r = reg(q, k);
                            w.line(format!("{r} = {};", self.mul(&self.coeff(*c), &r)));
                        }
                    }
                }
            }
        }
    }

    /// Under the clamp rule, after a step that updated phase `p` over register indices
    /// `from..to` of a segment starting at polyphase index `i0`: the indices beyond the phase's
    /// `n` samples take its end sample's new value (the first's before the band, propagated
    /// from the band outwards; the last's after it), as the rule reads them in the next step.
    /// The end sample lies in `from..to` wherever a later step reads beyond it (where it might
    /// not, the kernel takes no clamped edges: `clamp_in_registers` in `tile.rs`); in a segment
    /// wholly beyond the band the values are never stored.
    fn clamp_again(
        &self,
        w: &mut Writer,
        p: usize,
        from: i64,
        to: i64,
        reg: &dyn Fn(i64) -> String,
        n: &str,
    ) {
        w.comment(format!(
            "Clamp rule: the {} phase beyond the band takes its end samples' new values.",
            ["even", "odd"][p]
        ));
        for g in (from..0).rev() {
            let (r, inward) = (reg(g), reg(g + 1));
            w.line(format!("{r} = {} < 0 ? {inward} : {r};", offset("i0", g)));
        }
        for g in from + 1..to {
            let (r, inward) = (reg(g), reg(g - 1));
            w.line(format!(
                "{r} = {} >= {n} ? {inward} : {r};",
                offset("i0", g)
            ));
        }
    }
}

/// The index of tile row `l`'s first loaded pair in `nat` (`at`), for the walks that take a row
/// per 32 work-items.
fn row_start(lx: AxisLayout, ly: AxisLayout) -> String {
    format!(
        "const int at = nat_base + ({}) * nat_row_step + 2 * ({});",
        ly.natural_row("l"),
        offset("mx0", -(lx.lead() as i64))
    )
}

/// Where pair `p` of the row whose natural index is `nr` (variables the caller declares) lies in
/// `nat`.
fn pair_index(lx: AxisLayout) -> String {
    format!(
        "nat_base + nr * nat_row_step + 2 * ({})",
        offset("mx0 + p", -(lx.lead() as i64))
    )
}

/// Tile row `l` and pair `p` of halo pair `t` (`t / halo` rows of the halo's pairs, those
/// before the tile's own then those after).
fn halo_position(w: &mut Writer, lx: AxisLayout) {
    let halo = lx.pair_width() - lx.t;
    w.line(format!("const int l = t / {halo}, h = t % {halo};"));
    w.line(format!(
        "const int p = h < {} ? h : h + {};",
        lx.lead(),
        lx.t
    ));
}

/// The tile's own pairs of a row taken by 32 work-items: lane `lane` takes pair
/// `lane + lead + 32 k` (`p`, counted from the first loaded pair) for each `k` where there is
/// one, `each(w, k)` moving it.
fn own_pairs(w: &mut Writer, lx: AxisLayout, each: &dyn Fn(&mut Writer, usize)) {
    let (own, lead) = (lx.t, lx.lead());
    for k in 0..own.div_ceil(32) {
        let left = own - 32 * k;
        let open = if left >= 32 {
            String::new()
        } else {
            format!("if (lane < {left})")
        };
        w.block(open, |w| {
            w.line(format!("const int p = lane + {};", lead + 32 * k));
            each(w, k);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::segment_len;

    #[test]
    fn segments_divide_the_tile() {
        assert_eq!(segment_len(32, 8), 8);
        assert_eq!(segment_len(24, 16), 12);
        assert_eq!(segment_len(3, 8), 3);
        assert_eq!(segment_len(7, 4), 1);
        assert_eq!(segment_len(2, 8), 2);
        assert_eq!(segment_len(5, 0), 1);
    }
}
