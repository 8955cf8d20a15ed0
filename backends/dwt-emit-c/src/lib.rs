//! Emits C kernels for lifting programs: one emitter, parameterised by a [`Dialect`] ([`OpenCl`] C or
//! [`Cuda`] C++), writing per program (a wavelet in one direction), element type and layout
//! - a horizontal pass: one work-group per row (and plane), the row de-interleaved into local
//!   memory, one loop per lifting step with a barrier between steps, the boundary rule applied on
//!   reads;
//! - a vertical pass: van der Laan et al.'s Algorithm 1 (section IV-F), a sliding window over a slab
//!   of columns whose geometry (top, overlap, bottom, per-step lags) the IR derives, mirroring
//!   `dwt_runtime::cpu::sliding_window`, as one loop over the windows (a column shorter than
//!   `H + bottom` is one window). With a plane stride the same kernel is the depth pass of a 3-D
//!   transform (section IV-G: slabs in the x-z plane, sliding along z). Where a launch's slabs
//!   are too few to fill the device, its columns are split into segments, a group each, that
//!   lift a margin beyond their ends from a copy of the band ([`column_segment_rows`]);
//! - a fused 2-D pass ([`TilePass`], module `tile`): one tile of the band with its halo read once,
//!   lifted along both axes in local memory, its subbands written once, out of place; the planner
//!   ([`plan()`]) prefers it for 2-D transforms, and for the x-y planes of 3-D ones (then the depth
//!   pass), where the IR proves its edge tiles exact;
//! - a pyramid pass ([`PyramidPass`], module `pyramid`): two or three levels of a pair-local
//!   program (Haar) in one launch, each work-item a column of a block in registers; the planner
//!   runs a 2-D transform's first levels with it where they divide the sides;
//! - a level-pair pass ([`LevelPairPass`], module `level_pair`): levels 1 and 2 of a 2-D forward
//!   of a program with a halo in one launch, the first level's low band kept on chip, its margin
//!   recomputed by neighbouring groups; the planner runs a large image's first two levels with
//!   it where the sides are multiples of its tiles;
//! - a one-pass volume kernel ([`VolumePass`], modules `volume` and `volume_inverse`): a level
//!   of a 3-D transform in one launch (the finest, and in the Mallat layout the coarser ones
//!   whose launch has groups enough), for programs of one or two pairs of two-tap symmetric steps in 4-byte samples: each group
//!   lifts an x-y tile per plane and keeps its columns' samples in registers along z, where the
//!   depth steps run;
//! - a pair-local volume kernel (module `volume_pairs`): every level of a 3-D transform of a
//!   pair-local program (Haar) on sides that stay even, one launch a level, each work-item a
//!   2x2x2 block in registers, or two levels a launch (the volume pyramid, a 4x4x4 block)
//!   where the first band's sides are multiples of four;
//! - an even-rows pass (module `even_rows`): an interleaved forward over several levels writes
//!   the image's even rows whole at the end, from the first level's subband (0, 1) (kept compact
//!   in scratch by a variant of the fused kernel) and the coarser levels, which the planner
//!   lifts in a Mallat form there.
//!
//! The VC-2 per-level pre-shift is fused into the horizontal pass: applied as the row is loaded
//! (forward), undone as it is stored (inverse). Rows longer than [`LaunchConfig::row_limit`] run
//! through the sliding-window kernel along the row instead, with a separate shift kernel
//! ([`KernelModule::shift_kernel`]) before (forward) or after (inverse) it. A periodic program's sliding window reads its
//! lines modulo their length. A float program scaling between its steps is emitted with its
//! scales moved after the last ([`dwt_ir::Program::with_scales_moved_last`]): the window and the
//! tiles apply scales only as samples enter or leave them. The `dwt-opencl` crate builds and runs the kernels.

mod dialect;
pub mod disk_cache;
mod emit;
mod even_rows;
mod level_pair;
pub mod plan;
mod pyramid;
mod row_segments;
mod tile;
mod tile_inner;
mod volume;
mod volume_inverse;
mod volume_pairs;
mod writer;

pub use dialect::{Cuda, Dialect, OpenCl, Param};
pub use emit::{emit_module, KernelModule, VerticalGeometry, VerticalPass};
pub use even_rows::{EVEN_ROWS_MIN_SAMPLES, EVEN_ROWS_THREADS};
pub use level_pair::{
    LevelPairPass, LEVEL_PAIRS_MIN_SAMPLES, LEVEL_PAIR_SEGMENT, LEVEL_PAIR_THREADS, LEVEL_PAIR_TILE,
};
pub use plan::{plan, plan_in_place, Axis, BandCopy, Buffer, Launch, LaunchPlan, Pass, Step};
pub use pyramid::{pair_local, PyramidPass, PYRAMID_MAX_DEPTH, PYRAMID_THREADS};
pub use row_segments::{RowSegments, ROW_SEGMENT_WIDTH};
pub use tile::{EdgeTiles, TilePass, MAX_TILE_BYTES};
pub use volume::{VolumePass, VOLUME_COLUMN, VOLUME_SEGMENT, VOLUME_THREADS, VOLUME_TILE};
pub use volume_inverse::VOLUME_INVERSE_TILE;
pub use volume_pairs::VOLUME_PAIRS_THREADS;

use dwt_ir::{Direction, ElementType, Wavelet};
pub use writer::Writer;

/// The samples per x-y plane from which [`LaunchConfig::long_filter_tiles`] applies by default:
/// a 3840x2160 frame. On an H200 the long filters' inverses took 0.82-0.97 of the configured
/// tiles' time from there up (Fidelity's forward 0.89-0.98), but up to 1.30x as long at
/// 1920x1080, and either way at 2048x2048 (BENCHMARKS.md).
pub const LONG_FILTER_PLANE: usize = 3840 * 2160;

/// The samples per x-y plane above which [`LaunchConfig::long_filter_tiles`] applies by default
/// to the inverses of the short programs too: 4096x4096. On an H200 at 8192^2 their one-level
/// inverses took 0.95-0.98 of the configured tiles' time (two-step programs, ae009ea; CDF 9/7 in
/// f32 0.96, 83% of copy instead of 80%), at 4096^2 0.98-1.04 and at 3840x2160 0.95-1.09. Not
/// the integer programs of more than two steps (Daubechies 9/7: 1.08-1.15 at every size) nor
/// f64 (CDF 9/7: 1.19-1.24) (BENCHMARKS.md).
pub const WIDE_INVERSE_PLANE: usize = 4096 * 4096;

/// The samples per x-y plane from which [`LaunchConfig::long_filter_tiles`] gives the long
/// programs taller tiles by default (not in f64): 4096x4096. On an H200 at 4096^2 and 8192^2,
/// one and three levels, in i32, Fidelity both ways on 48x32 tiles with segments of 16 took
/// 0.92-0.97 of the time of 32x32 (forward) and 64x16 (inverse), and on 32x24 tiles with
/// segments of 8 the forwards loading six halo indices or more per line 0.93-0.98 of the time of
/// 32x16 (CDF 9/7 in f32, Daubechies 9/7, Deslauriers-Dubuc (13,7); (9,7), five, 0.99-1.00;
/// LeGall 5/3, three, 1.03-1.04) and Daubechies 9/7's inverse 0.95-0.96; in i16 the same
/// 0.91-0.97, but Fidelity's forward 1.33 (it keeps 32x32 there); at 3840x2160 and 2048x2048
/// every one of them 1.01-1.10 (BENCHMARKS.md).
pub const TALL_TILE_PLANE: usize = 4096 * 4096;

/// The samples of a volume from which its fused plan takes the volumes' measured settings by
/// default: the depth pass's window and slabs of [`VOLUME_DEPTH_WINDOW`]
/// ([`LaunchConfig::volume_depth_window`]) and, for the programs of steps spanning eight
/// indices (Fidelity), tiles of 48x32 with segments of 16 on every x-y plane
/// ([`LaunchConfig::long_filter_tiles`]): 256^3, measured at 512^3 (BENCHMARKS.md). A volume's
/// planes are small, but a launch lifts all of them: as many groups as a 16384^2 image's at
/// 512^3.
pub const VOLUME_SETTINGS_FROM: usize = 256 * 256 * 256;

/// Whether `shape` is a volume of [`VOLUME_SETTINGS_FROM`] samples or more (saturating: a shape
/// too large to address is refused where it is validated).
fn large_volume(shape: &[usize]) -> bool {
    shape.len() == 3
        && shape.iter().fold(1usize, |n, &d| n.saturating_mul(d)) >= VOLUME_SETTINGS_FROM
}

/// The window height and slab (work-items along x and y) of a volume's depth pass from
/// [`VOLUME_SETTINGS_FROM`] samples: 96 rows, 32x4. On an H200 at 512^3, three levels, the
/// programs whose volumes take the two passes (Deslauriers-Dubuc (9,7) and (13,7), Fidelity)
/// took 0.95-0.98 of the time of the configured 64 rows and 32x8 (two rounds alternated;
/// 128 rows with the same slabs 0.94-0.995, whole columns 0.99-1.00, segments of 128 rows
/// 1.09-1.12: BENCHMARKS.md).
pub const VOLUME_DEPTH_WINDOW: (usize, [usize; 2]) = (96, [32, 4]);

/// The span (indices a step reads, first to last) from which a program's steps are the long
/// ones of [`LaunchConfig::long_filter_tiles`]: Fidelity's eight. Their forward takes 32x32 tiles
/// from [`LONG_FILTER_PLANE`], both directions [`TALLEST_TILE`] from [`TALL_TILE_PLANE`].
pub(crate) const LONG_STEP_SPAN: usize = 8;

/// The tiles, work-items and register segments of the programs of [`LONG_STEP_SPAN`] on planes
/// of at least [`TALL_TILE_PLANE`] samples (not their forward in i16): 48x32 of 256 with
/// segments of 16. On those tiles Fidelity's i32 inverse also groups its edge tiles' taps.
pub(crate) const TALLEST_TILE: ([usize; 2], usize, usize) = ([48, 32], 256, 16);

/// The most samples a transform may have for [`LaunchConfig::clamped_edges_reach_back`] to apply
/// by default whatever its direction and axes: 1920x1080. Its levels are each about a wave of
/// groups or less and last as long as their slowest tile, so Haar's forward edge tiles in
/// registers saved 27% at three levels there (and 9% at one). Larger 2-D forwards take them too:
/// on an H100 at 1416463's kernels Haar's forward took 0.92 of the time at 4096^2 three levels
/// and 0.96 at 8192^2 (BENCHMARKS.md), where an H200 at 5b37047 had found the 40 registers those
/// tiles take 8% slower at 8192^2 one level; larger inverses and volumes keep the general path
/// (not measured since).
pub const SMALL_TRANSFORM: usize = 1920 * 1080;

/// The most samples a band may have for [`LaunchConfig::small_band_tiles`] to lift it: 960x540,
/// the second level of a 1920x1080 transform. On an H200 one level of 960x540 or 480x270 on
/// tiles of 16x8 indices took 0.86-1.00 of the configured tiles' time for most programs, while
/// 1920x1080 took 1.10-1.36 (BENCHMARKS.md): a band this small fills the device with a fraction
/// of a wave of the configured tiles and lasts as long as one tile's run, which smaller tiles
/// shorten.
pub const SMALL_BAND: usize = 960 * 540;

/// The tile, work-items and register segment of the first level of a small transform's forward
/// (at most [`SMALL_TRANSFORM`] samples, more than [`SMALL_BAND`]) by a program with a step
/// spanning four indices or more (Deslauriers-Dubuc, Fidelity), its later levels on the
/// configured tiles (the small bands' kernel, [`LaunchConfig::small_band_shape`]). At 1920x1080
/// on an H100, four runs of each build alternating: one level 0.92-0.96 of the configured tiles'
/// time (Deslauriers-Dubuc (9,7) 0.92, Fidelity 0.94, (13,7) 0.96), three levels 0.95, 0.99 and
/// 0.98 (64x16 tiles: 0.94-0.98 and 0.96-0.99), where the unchanged kernels spread 0.97-1.07;
/// six runs each in a later call: 0.94-0.96 and 0.97-0.98, the controls 0.995-1.011. With every
/// level on such tiles three levels took 1.07-1.40 (BENCHMARKS.md).
pub const FIRST_LEVEL_TILE: ([usize; 2], usize, usize) = ([32, 32], 256, 16);

/// The tile (polyphase indices per phase along x and y) and work-items of the kernel that lifts
/// bands of at most [`SMALL_BAND`] samples ([`LaunchConfig::small_band_tiles`]).
pub const SMALL_BAND_TILE: ([usize; 2], usize) = ([16, 8], 128);

/// The register segment (polyphase indices per phase a work-item lifts) of the small bands'
/// kernel. Such a band's tiles are a fraction of a wave and each lasts as long as its work-items'
/// chains of dependent steps, which shorter segments halve, for more halo indices lifted twice
/// on a device that is mostly idle anyway: on an H200 1920x1080 three levels took 0.93-1.00 of
/// the time segments of 8 took (segments of 2: 0.95-1.01; BENCHMARKS.md).
pub const SMALL_BAND_SEGMENT: usize = 4;

/// The groups a launch of the sliding window is split into column segments to reach, where
/// its slabs of whole columns are fewer ([`column_segment_rows`]): about two waves of its
/// groups on an H200 (eight groups of 256 work-items on each of 132 multiprocessors). Whole
/// columns of 8192 rows in 256 groups took 1.3-1.4x as long as segments of 512 to 2048 rows
/// (BENCHMARKS.md).
pub const COLUMN_GROUPS: usize = 2048;

/// The fewest rows a column segment stores by the rule of [`column_segment_rows`]: at 1920x1080
/// segments of 128 rows were the fastest measured (the two passes' three levels 0.56-0.59 of
/// whole columns' time), 512 and longer slower.
pub const MIN_COLUMN_SEGMENT: usize = 128;

/// Rows per column segment of a sliding-window launch over lines of `len` samples in `groups`
/// groups of whole columns (slabs times planes), for a program whose segments lift `margin`
/// rows beyond their ends in windows of `height` rows; `len` or more means whole columns.
/// `setting` is [`LaunchConfig::column_segment`]; its rule (`None`) splits the columns until
/// the launch has [`COLUMN_GROUPS`] groups, into segments of at least [`MIN_COLUMN_SEGMENT`]
/// rows, two windows and eight margins. Never more than 65535 segments (a grid's extent).
/// A set length of `len` or more is whole columns (`len`): the kernels take the length as an
/// `int`, which a setting meaning "longer than any column" (`Some(usize::MAX)`) is not.
pub fn column_segment_rows(
    len: usize,
    groups: usize,
    margin: usize,
    height: usize,
    setting: Option<usize>,
) -> usize {
    let even = |n: usize| n + n % 2;
    let rows = match setting {
        Some(0) => return len,
        Some(n) if n >= len => return len,
        Some(n) => even(n.max(2)),
        None => {
            let least = MIN_COLUMN_SEGMENT.max(2 * height).max(8 * margin);
            let segments = COLUMN_GROUPS.div_ceil(groups.max(1)).min(len / least);
            if segments <= 1 {
                return len;
            }
            even(len.div_ceil(segments))
        }
    };
    rows.max(even(len.div_ceil(65535)))
}

/// The most local memory the rows kernel's two phases take: 32 KiB, the least an OpenCL device
/// of the full profile offers a work-group and within CUDA's 48 KiB of static shared memory
/// ([`LaunchConfig::row_limit`]).
pub const ROW_LOCAL_BYTES: usize = 32 * 1024;

/// The most polyphase indices one lifting step of `wavelet` reads (its forward's and its
/// inverse's steps are the same), or `None` for a program without steps.
fn max_step_span(wavelet: &Wavelet) -> Option<usize> {
    (wavelet.forward().steps())
        .map(|s| {
            let (lo, hi) = s.offsets();
            (hi - lo + 1) as usize
        })
        .max()
}

/// Whether the element type lifts in wrapping `int` arithmetic.
pub fn is_integer(t: ElementType) -> bool {
    t.kind() == dwt_ir::ElementKind::Integer
}

/// Launch parameters: inputs of the emitter, baked into the kernels as array sizes and
/// `reqd_work_group_size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchConfig {
    /// Work-items per group of the horizontal pass (one group per row). On an H200 256 took the
    /// rows of 4096 and 8192 samples at 0.6-0.9 of the time 64 took: the group holds a whole
    /// row in 32 KiB of local memory, so seven groups share a multiprocessor, and 64 work-items
    /// each left it mostly idle (BENCHMARKS.md).
    pub row_group_size: usize,
    /// The longest row the horizontal (rows) kernel takes: both phases of a row live in local
    /// memory, at most [`ROW_LOCAL_BYTES`] of it ([`row_limit`](Self::row_limit): 8192 samples
    /// of the 4-byte working types, 4096 of f64 by default). Executors run longer rows through
    /// the sliding-window kernel along the row, whose groups each take a row and read across
    /// rows: several times slower than the rows kernel (BENCHMARKS.md).
    pub max_row_len: usize,
    /// The working height `H` of the vertical window; raised to the program's `min_height` (and to
    /// an even number) when smaller. Taller windows keep more loads of a work-item in flight:
    /// on an H200 the depth pass of a 512^3 volume took 0.63 ms at 16, 0.39 at 32, 0.31 at 64
    /// (BENCHMARKS.md).
    pub window_height: usize,
    /// Columns per slab (work-items along x of the vertical pass).
    pub slab_width: usize,
    /// Work-items along y of the vertical pass, sharing the rows of a window.
    pub slab_rows: usize,
    /// Rows of a column each group of the sliding window stores, where a launch's columns are
    /// split among several groups (column segments, each lifting [`VerticalPass::margin`] rows
    /// more on either side): `None`, the rule of [`column_segment_rows`]; `Some(0)`, whole
    /// columns (one group slides down all of a column, van der Laan et al.'s form); `Some(n)`,
    /// segments of `n` rows (rounded up to even). Runtime arguments of the same kernel.
    pub column_segment: Option<usize>,
    /// Polyphase indices per phase a fused 2-D tile owns along x and y (twice as many samples).
    /// The long filters take others on large planes unless
    /// [`long_filter_tiles`](Self::long_filter_tiles) is `Some(false)`; so do
    /// [`tile_threads`](Self::tile_threads) and [`segment`](Self::segment).
    pub tile: [usize; 2],
    /// Work-items per group of the fused 2-D pass.
    pub tile_threads: usize,
    /// Polyphase indices per phase a work-item lifts in registers in tiles away from the band's
    /// edges (the longest divisor of the tile's extent up to this).
    pub segment: usize,
    /// Which passes 2-D and 3-D levels take.
    pub strategy: Strategy,
    /// Whether the fused kernels' inner tiles take the leaner forms of their global accesses
    /// (the forward's load a row per 32 work-items, the inverse's store a vector per pair);
    /// `None`: the measured rule, every inverse and the forward of programs of 6 taps or more. A
    /// choice the tuner times.
    pub lean_access: Option<bool>,
    /// Whether the forward's row load (with [`lean_access`](Self::lean_access)) is unrolled
    /// whole, every halo round loaded before any is stored, rather than by 4; `None`: the
    /// measured rule, integer programs. A choice the tuner times.
    pub whole_row_load: Option<bool>,
    /// Whether the forward's inner tiles copy their (even, odd) pairs from global to local
    /// memory asynchronously (CUDA's `cp.async`, no register staged, one copy per pair) rather
    /// than through registers, where the dialect has such a copy and the samples are stored in
    /// their working type (not i16). The tiles' rows then lie interleaved as in global memory
    /// until the pass along x has read them, and a pre-shifted program's samples unshifted (the
    /// pass along x shifts each as it reads it). `None`: the measured rule, programs of 6 taps
    /// or more, as for [`lean_access`](Self::lean_access) (at 8192^2 one level on an H200
    /// against loads through registers: CDF 9/7 0.86 of the time in f32 and 0.85 in f64,
    /// Deslauriers-Dubuc (9,7) 0.84 and (13,7) 0.85, Fidelity 0.86, Daubechies 9/7 0.88;
    /// BENCHMARKS.md). A choice the tuner times.
    pub async_load: Option<bool>,
    /// Whether the edge tiles of a clamp-rule program lift in registers (under the rule, as
    /// [`EdgeTiles::Clamped`]) also where their segments must then hold one odd index more than
    /// the program reads (Haar's forward: its even step reads odd index `m` alone, and the rule
    /// sends the last even index of an odd-length line to odd index `m - 1`), rather than step
    /// by step through the rule. `None`: the measured rule, for transforms of at most
    /// [`SMALL_TRANSFORM`] samples and for every 2-D forward ([`for_request`](Self::for_request)
    /// resolves it; emitted without a request, not): that forward then takes 40 registers
    /// instead of 32 (capped, it spills), and saved 27% at 1920x1080 three levels and 4-8% at
    /// 4096^2 and 8192^2 on an H100 (BENCHMARKS.md). A choice the tuner times.
    pub clamped_edges_reach_back: Option<bool>,
    /// Whether the fused kernels of the long filters take the tiles measured fastest for them
    /// instead of [`tile`](Self::tile), [`tile_threads`](Self::tile_threads) and
    /// [`segment`](Self::segment), all of 256 work-items:
    /// - the inverse of a program with a lifting step spanning four indices or more: tiles of
    ///   64x16 with register segments of 16 (so do the other inverses but integer ones of more
    ///   than two steps and f64 ones, on planes of more than [`WIDE_INVERSE_PLANE`] samples by
    ///   default), the forward of one spanning eight or more 32x32 with segments of 16;
    /// - but, not in f64, on planes of at least [`TALL_TILE_PLANE`] samples by default: a
    ///   program with a step spanning eight or more, both ways (not its forward in i16), 48x32
    ///   with segments of 16; the forward of a program loading six halo indices or more per line
    ///   (both phases and sides) and the inverse of an integer program of more than two steps
    ///   each spanning fewer than four indices (Daubechies 9/7), 32x24 with segments of 8.
    ///
    /// `None`: the measured rule, on planes of at least [`LONG_FILTER_PLANE`] samples;
    /// `Some(true)`: whatever the plane's size; `Some(false)`: never. A request's configuration
    /// is resolved by [`for_request`](Self::for_request).
    ///
    /// In a volume (3-D, fused) the programs of steps spanning eight indices (Fidelity) take
    /// 48x32 tiles with segments of 16 on its x-y planes both ways, not in f64 nor their forward
    /// in i16, from [`VOLUME_SETTINGS_FROM`] samples whatever its planes' size (`None`), or
    /// wherever (`Some(true)`): at 512^3 three levels 0.95-0.96 of the configured tiles' time on
    /// an H200, where the Deslauriers-Dubuc programs lost by each of the 2-D plans' wider shapes
    /// (up to 1.18x: BENCHMARKS.md).
    pub long_filter_tiles: Option<bool>,
    /// Whether the fused 2-D plan lifts the bands of at most [`SMALL_BAND`] samples (the later
    /// levels of small transforms) with a second tile kernel of the module, on tiles of
    /// [`SMALL_BAND_TILE`] with register segments of [`SMALL_BAND_SEGMENT`], rather than with the
    /// configured tiles.
    /// `None`: the measured rule, every program's inverse and the forward of programs whose
    /// steps span at most three indices ([`for_request`](Self::for_request) resolves it;
    /// emitted without a request, not): at 1920x1080 three levels the forwards of
    /// Deslauriers-Dubuc (13,7) and Fidelity took 1.05 and 1.15 times as long on them, the
    /// others 0.94-1.01 (BENCHMARKS.md); there those forwards take [`FIRST_LEVEL_TILE`] on
    /// their first level instead and the configured tiles as the small bands' kernel
    /// ([`small_band_shape`](Self::small_band_shape)). Not for 3-D plans. A choice the tuner
    /// times.
    pub small_band_tiles: Option<bool>,
    /// The tile, work-items and register segment of the small bands' kernel
    /// ([`small_band_tiles`](Self::small_band_tiles)): `None`, [`SMALL_BAND_TILE`] with segments
    /// of [`SMALL_BAND_SEGMENT`]. [`for_request`](Self::for_request) sets it to the default tiles
    /// where a small transform's first level takes wider ones ([`FIRST_LEVEL_TILE`]).
    pub small_band_shape: Option<([usize; 2], usize, usize)>,
    /// Whether the fused kernels ask for full occupancy (on CUDA `__launch_bounds__(threads,
    /// 2048 / threads)`: 32 registers for groups of 256; OpenCL C has no such bound). `None`:
    /// the measured rule, the 2-D forwards but those measured to spill under the cap (the
    /// forward's edge tiles beside its inner ones took 40-48 registers and ran 5-7% slower at
    /// 8192^2; the inverses ran faster uncapped: BENCHMARKS.md). `Some(true)`: every fused
    /// kernel; `Some(false)`: none. Whatever this says, the CUDA executor takes the cap off a
    /// kernel that uses local memory under it on its device (spills), and builds the request
    /// without it. The level-pair kernel ([`LevelPairPass`]) asks for it but with `Some(false)`.
    pub register_cap: Option<bool>,
    /// Whether the fused plan lifts the first levels of a 2-D transform by a pair-local program
    /// (Haar) in pyramid kernels ([`PyramidPass`]), two or three levels per launch, where they
    /// divide the sides: on by default (three levels in 0.67-0.74 of the time of a tile launch
    /// per level at every size measured, BENCHMARKS.md); off, a tile launch per level, for
    /// comparison. It also switches the volume pyramid (module `volume_pairs`: two levels of
    /// a pair-local program's volume per launch where the first band's sides are multiples of
    /// four); off, [`pair_volumes`](Self::pair_volumes) lifts a level per launch.
    pub pyramids: bool,
    /// The fewest samples of an image whose interleaved 2-D forward of two or more levels on
    /// tile kernels writes the odd rows in place at its first level and the even rows' two
    /// subbands compact in scratch, lifts the levels after the first in a Mallat form there and
    /// writes the image's even rows whole at the end (the even-rows kernel), where each level's
    /// in-place stores wrote part of each sector, per level and subband: by default
    /// [`EVEN_ROWS_MIN_SAMPLES`] (BENCHMARKS.md); `None`, never (the kernels are not emitted).
    pub even_rows_from: Option<usize>,
    /// The fewest samples of an image whose 2-D forward (Mallat layout) of two or more levels
    /// lifts its first two levels in one launch ([`LevelPairPass`]) where the sides are
    /// multiples of `4 * LEVEL_PAIR_TILE` and the program's edge segments are proven exact: by
    /// default [`LEVEL_PAIRS_MIN_SAMPLES`] (BENCHMARKS.md); `None`, never (the kernel is not
    /// emitted).
    pub level_pairs_from: Option<usize>,
    /// Whether the fused plan lifts a level of a 3-D transform in one launch (the forward's
    /// every level in the Mallat layout, its first in the interleaved one; the inverse's last),
    /// the depth lifting in registers ([`VolumePass`]),
    /// where the samples are 4 bytes and the program is one or two pairs of two-tap symmetric
    /// steps (LeGall 5/3, CDF 5/3, the integer Daubechies 9/7, CDF 9/7). `None` (the default):
    /// where it was measured faster than the two passes, in CUDA (whose forward trades
    /// neighbours by warp shuffles) and in OpenCL the inverse of one pair (LeGall 5/3 512^3
    /// 0.65x the two passes' time through NVIDIA's OpenCL on an H200); OpenCL's forward, whose
    /// work-items lift their neighbours along x themselves, took 1.08x and 1.00x the two
    /// passes' time there and up to 1.57x on PoCL, its inverse of two pairs 1.24x
    /// (BENCHMARKS.md). The OpenCL backend on a CPU device (PoCL), where the inverse took
    /// 2.6x, asks for `Some(false)`. The levels past the first take it by default where their
    /// launch has enough groups to beat the two passes (128: a 128^3 band, not 64^3; measured in
    /// CUDA, the same rule unmeasured for OpenCL's inverse).
    /// `Some(true)`: wherever the program and samples allow, at every level; `Some(false)`:
    /// never (the tile kernel and the depth pass).
    pub one_pass_volumes: Option<bool>,
    /// Whether a volume's depth pass (the sliding window along z of a fused 3-D plan's two
    /// passes) takes the window and slabs of [`VOLUME_DEPTH_WINDOW`] instead of
    /// [`window_height`](Self::window_height), [`slab_width`](Self::slab_width) and
    /// [`slab_rows`](Self::slab_rows), which then hold for the two-pass plans and for other
    /// axes' sliding windows. `None`: the measured rule, volumes of at least
    /// [`VOLUME_SETTINGS_FROM`] samples ([`for_request`](Self::for_request) resolves it);
    /// `Some(true)`: every volume; `Some(false)`: never.
    pub volume_depth_window: Option<bool>,
    /// Whether the fused plan lifts every level of a 3-D transform of a pair-local program
    /// (Haar: every step reads only its own pair) in one launch a level, each work-item a 2x2x2
    /// block in registers (module `volume_pairs`), where every level's band has even sides (in
    /// the interleaved layout in place): by default, in both dialects and on every device (on an H200 Haar 512^3
    /// three levels took 0.38-0.41x the two passes' time in CUDA and through NVIDIA's OpenCL,
    /// on PoCL 128^3 0.07-0.10x: BENCHMARKS.md). `false`: the tile kernel and the depth pass.
    pub pair_volumes: bool,
    /// Whether the fused kernel lifts a stack of x-y planes (one per group along z: the fused
    /// plan of a 3-D transform) rather than one image; the 2-D kernel stays free of the plane
    /// offset, which slowed it. A property of the request, not a tuning knob: the executors
    /// emit each request's module with [`for_request`](Self::for_request) (which sets it by
    /// [`for_axes`](Self::for_axes)), whatever is set here.
    pub planes: bool,
}

impl LaunchConfig {
    /// This configuration for a transform of `axes` axes: [`planes`](Self::planes) set for a
    /// fused 3-D one (a two-pass module has no fused kernel).
    pub fn for_axes(&self, axes: usize) -> Self {
        LaunchConfig {
            planes: axes == 3 && self.strategy == Strategy::Fused,
            ..*self
        }
    }

    /// This configuration as a transform of `shape` (slowest axis first) of `elem` samples by
    /// `wavelet` in `direction` takes it: [`for_axes`](Self::for_axes), the measured rules of
    /// [`clamped_edges_reach_back`](Self::clamped_edges_reach_back) and
    /// [`small_band_tiles`](Self::small_band_tiles) where they are `None`, [`FIRST_LEVEL_TILE`]
    /// on the first level of the small forwards it names, and the
    /// tiles of [`long_filter_tiles`](Self::long_filter_tiles) where they apply and keep the
    /// fused pass and its kind of edge tiles (a program whose halo would not fit them keeps the
    /// configured tiles). What the executors emit each request's module with.
    pub fn for_request(
        &self,
        wavelet: &Wavelet,
        direction: Direction,
        elem: ElementType,
        shape: &[usize],
    ) -> Self {
        let small = shape.iter().product::<usize>() <= SMALL_TRANSFORM;
        let reach_back = small || (direction == Direction::Forward && shape.len() == 2);
        let short_steps = max_step_span(wavelet).is_some_and(|span| span < 4);
        let small_bands = direction == Direction::Inverse || short_steps;
        let mut config = LaunchConfig {
            clamped_edges_reach_back: Some(self.clamped_edges_reach_back.unwrap_or(reach_back)),
            small_band_tiles: Some(self.small_band_tiles.unwrap_or(small_bands)),
            ..self.for_axes(shape.len())
        };
        if config.planes && self.volume_depth_window.unwrap_or(large_volume(shape)) {
            let (height, [width, rows]) = VOLUME_DEPTH_WINDOW;
            config.window_height = height;
            config.slab_width = width;
            config.slab_rows = rows;
        }
        let edges = |c: &LaunchConfig| {
            emit::fused_edges(wavelet, direction, elem, c).map(|e| std::mem::discriminant(&e))
        };
        let configured = edges(&config);
        // Other tiles are taken only where they keep the fused pass and its kind of edge tiles.
        let keeps_edges = |c: &LaunchConfig| configured.is_some() && edges(c) == configured;
        if let Some(first_level) = self.first_level_tile(wavelet, direction, shape) {
            // The later levels (bands of at most SMALL_BAND samples) keep the configured tiles
            // as the small bands' kernel.
            let wide = LaunchConfig {
                tile: first_level.0,
                tile_threads: first_level.1,
                segment: first_level.2,
                small_band_tiles: Some(true),
                small_band_shape: Some((config.tile, config.tile_threads, config.segment)),
                ..config
            };
            if keeps_edges(&wide) {
                return wide;
            }
        }
        let shapes = config.long_filter_shapes(wavelet, direction, elem, shape);
        if shapes.is_empty() {
            return config;
        }
        (shapes.into_iter())
            .map(|(tile, tile_threads, segment)| LaunchConfig {
                tile,
                tile_threads,
                segment,
                ..config
            })
            .find(|wide| keeps_edges(wide))
            .unwrap_or(config)
    }

    /// The longest row the rows kernel of element type `elem` takes: [`max_row_len`](Self::max_row_len),
    /// or fewer where the row's working values would take more than [`ROW_LOCAL_BYTES`].
    pub fn row_limit(&self, elem: ElementType) -> usize {
        let work_bytes = match elem {
            ElementType::F64 => 8,
            ElementType::I16 | ElementType::I32 | ElementType::F32 => 4,
        };
        self.max_row_len.min(ROW_LOCAL_BYTES / work_bytes)
    }

    /// [`FIRST_LEVEL_TILE`] where the measured rule gives it: a 2-D forward of at most
    /// [`SMALL_TRANSFORM`] samples whose first band is larger than [`SMALL_BAND`], by a program
    /// with a step spanning four indices or more, where neither
    /// [`long_filter_tiles`](Self::long_filter_tiles) nor
    /// [`small_band_tiles`](Self::small_band_tiles) is set.
    fn first_level_tile(
        &self,
        wavelet: &Wavelet,
        direction: Direction,
        shape: &[usize],
    ) -> Option<([usize; 2], usize, usize)> {
        // Saturating: a shape too large to address is refused where it is validated.
        let samples = shape.iter().fold(1usize, |n, &d| n.saturating_mul(d));
        let applies = direction == Direction::Forward
            && self.strategy == Strategy::Fused
            && shape.len() == 2
            && self.long_filter_tiles.is_none()
            && self.small_band_tiles.is_none()
            && samples > SMALL_BAND
            && samples <= SMALL_TRANSFORM
            && max_step_span(wavelet).is_some_and(|span| span >= 4);
        applies.then_some(FIRST_LEVEL_TILE)
    }

    /// The tiles, work-items and register segments a request may take by
    /// [`long_filter_tiles`](Self::long_filter_tiles), the fastest measured first (the
    /// executors take the first that keeps the fused pass and its kind of edge tiles). Segments
    /// of 16 lift fewer halo indices per kept one (a step's targets for a segment of s indices
    /// reading h neighbouring indices are s + h - 1), which pays where h is large; wider and
    /// taller tiles load fewer halo rows and columns per sample. Small planes lose by them:
    /// they fill the device with fewer, longer-running groups (BENCHMARKS.md: at 1920x1080 up
    /// to 1.30x slower; from 3840x2160 up 0.82-0.97 for the first shapes, from 4096x4096 up
    /// 0.92-0.98 for the taller ones, [`TALL_TILE_PLANE`]).
    fn long_filter_shapes(
        &self,
        wavelet: &Wavelet,
        direction: Direction,
        elem: ElementType,
        shape: &[usize],
    ) -> Vec<([usize; 2], usize, usize)> {
        let plane: usize = shape.iter().rev().take(2).product();
        let applies = |from: usize| match self.long_filter_tiles {
            Some(applies) => applies,
            None => plane >= from,
        };
        let Some(span) = max_step_span(wavelet) else {
            return Vec::new();
        };
        if self.strategy != Strategy::Fused || shape.len() < 2 {
            return Vec::new();
        }
        let steps = wavelet.forward().steps().count();
        let mut shapes = Vec::new();
        // A volume's launches lift all its planes: its own size decides (the longest programs').
        let volume = shape.len() == 3 && self.long_filter_tiles.unwrap_or(large_volume(shape));
        // The taller tiles were measured in i16, i32 and f32, not in f64.
        if elem != ElementType::F64 && (applies(TALL_TILE_PLANE) || volume) {
            // Halo indices the forward loads per line, both phases and sides.
            let forward_halo: u32 = (wavelet.forward().tile_halo(0).load)
                .iter()
                .map(|h| h.before + h.after)
                .sum();
            let tallest = match (span >= LONG_STEP_SPAN, direction) {
                // Not Fidelity's forward in i16, whose tiles load through registers: 48x32 took
                // 1.33x the time of 32x32 there (its inverse 0.92-0.99 of 64x16's).
                (true, Direction::Forward) => elem != ElementType::I16,
                (true, Direction::Inverse) => true,
                _ => false,
            };
            // Inverses of steps spanning four or more keep the wider tiles measured for them.
            let taller = match direction {
                Direction::Inverse => is_integer(elem) && steps > 2 && span < 4,
                Direction::Forward => span < LONG_STEP_SPAN && forward_halo >= 6,
            };
            if tallest {
                shapes.push(TALLEST_TILE);
            } else if taller && applies(TALL_TILE_PLANE) {
                shapes.push(([32, 24], 256, 8));
            }
        }
        // The short programs' inverses gain too on the largest planes, but neither Daubechies
        // 9/7's (integer, four steps) nor any in f64.
        let short_inverse = match elem {
            ElementType::F64 => false,
            ElementType::F32 => true,
            _ => steps <= 2,
        };
        let wide = match direction {
            Direction::Inverse => {
                (span >= 4 && applies(LONG_FILTER_PLANE))
                    || (short_inverse && applies(WIDE_INVERSE_PLANE + 1))
            }
            Direction::Forward => span >= LONG_STEP_SPAN && applies(LONG_FILTER_PLANE),
        };
        if wide {
            shapes.push(match direction {
                Direction::Inverse => ([64, 16], 256, 16),
                Direction::Forward => ([32, 32], 256, 16),
            });
        }
        shapes
    }

    /// The configuration of a module's kernel for bands of at most [`SMALL_BAND`] samples, if
    /// it has one: this one on tiles of [`SMALL_BAND_TILE`] with segments of
    /// [`SMALL_BAND_SEGMENT`] (the lengths measured), for a fused 2-D module where
    /// [`small_band_tiles`](Self::small_band_tiles) is `Some(true)` and whose own tiles are
    /// other ones.
    pub fn small_band_config(&self) -> Option<LaunchConfig> {
        let (tile, tile_threads, segment) = self.small_band_shape.unwrap_or((
            SMALL_BAND_TILE.0,
            SMALL_BAND_TILE.1,
            SMALL_BAND_SEGMENT,
        ));
        let small = LaunchConfig {
            tile,
            tile_threads,
            segment,
            ..*self
        };
        let applies = self.strategy == Strategy::Fused
            && !self.planes
            && self.small_band_tiles == Some(true)
            && small != *self;
        applies.then_some(small)
    }

    /// The defaults with [`Strategy::TwoPass`]: van der Laan et al.'s passes only.
    pub fn two_pass() -> Self {
        LaunchConfig {
            strategy: Strategy::TwoPass,
            ..Default::default()
        }
    }

    /// The configurations a measuring planner times for one request, this one first, each named
    /// for reports: the other forms of the inner tiles' global accesses
    /// ([`lean_access`](Self::lean_access), [`whole_row_load`](Self::whole_row_load)), eight
    /// other tile shapes and segment lengths, clamped edges in registers where that costs
    /// registers, and the two passes per level. Each was the fastest
    /// for some wavelet, direction or size in the sweeps of BENCHMARKS.md:
    /// - 64x16 indices of 512 work-items: CDF 9/7's forward at 8192^2 before the row loads;
    /// - 32x8 of 128: the long filters' inverse at 4096^2 and 8192^2;
    /// - 16x8 of 128 and 32x8 of 256: 1920x1080, whose levels are bound by one group's run time
    ///   rather than by memory;
    /// - [`clamped_edges_reach_back`](Self::clamped_edges_reach_back): Haar's forward at
    ///   1920x1080, for the same reason;
    /// - 32x32 and 64x16 of 256, which load less halo per sample: the forwards of the filters of
    ///   six taps or more at 8192^2;
    /// - the same with register segments of 16, which lift fewer halo indices per kept one: the
    ///   inverses of CDF 9/7, Deslauriers-Dubuc and Fidelity at 8192^2, and Fidelity's forward;
    /// - the configured tiles where [`long_filter_tiles`](Self::long_filter_tiles) would replace
    ///   them, and on the small bands too ([`small_band_tiles`](Self::small_band_tiles)): every
    ///   shape candidate keeps its own tiles at every level so;
    /// - the configured tiles on the small bands alone.
    ///
    /// Of the other shapes swept (BENCHMARKS.md; 64x32 of 512, 128x8 of 256 and 64x8 of 128 with
    /// segments of 16 among them), none was the fastest by more than a few percent. Candidates may emit the same source for a program (the access forms of a program
    /// that takes the other form by rule): executors time each source once. The conformance
    /// suite runs every candidate (`dwt_runtime::conformance_variants!` and
    /// `conformance_candidates!`).
    pub fn candidates(&self) -> Vec<Candidate> {
        let access = |lean, whole| LaunchConfig {
            lean_access: Some(lean),
            whole_row_load: whole,
            ..*self
        };
        let shape = |tile, threads| LaunchConfig {
            tile,
            tile_threads: threads,
            long_filter_tiles: Some(false),
            small_band_tiles: Some(false),
            ..*self
        };
        let segmented = |tile, threads| LaunchConfig {
            segment: 16,
            ..shape(tile, threads)
        };
        vec![
            Candidate::new("as configured", *self),
            Candidate::new("plain access", access(false, None)),
            Candidate::new("lean access, whole row load", access(true, Some(true))),
            Candidate::new("lean access, row load by 4", access(true, Some(false))),
            Candidate::new(
                "loads through registers",
                LaunchConfig {
                    async_load: Some(false),
                    ..*self
                },
            ),
            Candidate::new(
                "asynchronous copies",
                LaunchConfig {
                    async_load: Some(true),
                    ..*self
                },
            ),
            Candidate::new(
                "configured tiles, no long-filter or small-band rule",
                shape(self.tile, self.tile_threads),
            ),
            Candidate::new("tiles 64x16 of 512", shape([64, 16], 512)),
            Candidate::new("tiles 32x8 of 128", shape([32, 8], 128)),
            Candidate::new("tiles 16x8 of 128", shape([16, 8], 128)),
            Candidate::new(
                "clamped edges reaching back",
                LaunchConfig {
                    clamped_edges_reach_back: Some(true),
                    ..*self
                },
            ),
            Candidate::new("tiles 32x8 of 256", shape([32, 8], 256)),
            Candidate::new("tiles 32x32 of 256", shape([32, 32], 256)),
            Candidate::new("tiles 64x16 of 256", shape([64, 16], 256)),
            Candidate::new(
                "tiles 64x16 of 256, segments of 16",
                segmented([64, 16], 256),
            ),
            Candidate::new(
                "tiles 32x32 of 256, segments of 16",
                segmented([32, 32], 256),
            ),
            Candidate::new(
                "no small-band tiles",
                LaunchConfig {
                    small_band_tiles: Some(false),
                    ..*self
                },
            ),
            Candidate::new(
                "two passes",
                LaunchConfig {
                    strategy: Strategy::TwoPass,
                    ..*self
                },
            ),
        ]
    }

    /// The defaults with fused tiles of 3 x 2 polyphase indices (6 x 4 samples) and 64
    /// work-items: every kind of tile edge (first, last, both, odd extents, several levels)
    /// appears in small images, and no band takes the small-band tiles instead; interleaved
    /// forwards of every size end with the even rows. For testing; far too small to be fast.
    pub fn tiny_tiles() -> Self {
        LaunchConfig {
            tile: [3, 2],
            tile_threads: 64,
            strategy: Strategy::Fused,
            small_band_tiles: Some(false),
            even_rows_from: Some(0),
            ..Default::default()
        }
    }
}

/// A launch configuration a measuring planner may choose ([`LaunchConfig::candidates`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Candidate {
    /// What it is, in words, for reports.
    pub name: &'static str,
    pub config: LaunchConfig,
}

impl Candidate {
    pub fn new(name: &'static str, config: LaunchConfig) -> Self {
        Candidate { name, config }
    }
}

/// How the planner runs the levels of a 2-D or 3-D transform.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The fused 2-D pass (one read and one write of each level; in 3-D, of each level's x-y
    /// planes, then the depth pass) wherever its tiles are proven exact for the band's size,
    /// every level of the transform; else [`Strategy::TwoPass`]. The default: in every case
    /// benchmarked it was the faster (BENCHMARKS.md).
    #[default]
    Fused,
    /// Van der Laan et al.'s passes only: rows, then the sliding-window columns (and depth).
    TwoPass,
}

impl Default for LaunchConfig {
    fn default() -> Self {
        LaunchConfig {
            row_group_size: 256,
            max_row_len: 8192,
            window_height: 64,
            slab_width: 32,
            slab_rows: 8,
            column_segment: None,
            tile: [32, 16],
            tile_threads: 256,
            segment: 8,
            strategy: Strategy::Fused,
            lean_access: None,
            whole_row_load: None,
            async_load: None,
            clamped_edges_reach_back: None,
            long_filter_tiles: None,
            small_band_tiles: None,
            small_band_shape: None,
            register_cap: None,
            pyramids: true,
            even_rows_from: Some(EVEN_ROWS_MIN_SAMPLES),
            level_pairs_from: Some(LEVEL_PAIRS_MIN_SAMPLES),
            one_pass_volumes: None,
            volume_depth_window: None,
            pair_volumes: true,
            planes: false,
        }
    }
}

/// What the emitter refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmitError {
    #[error("wavelet `{wavelet}` is {} but the element type {} is {}", .kind.name(), .elem.name(), .elem.kind().name())]
    KindMismatch {
        wavelet: String,
        kind: dwt_ir::ElementKind,
        elem: ElementType,
    },
    /// A scale between steps with roundings or shifts: it cannot move past them
    /// ([`dwt_ir::Program::with_scales_moved_last`]), and the kernels apply scales only before
    /// the first step or after the last. The language declares no such program.
    #[error("`{0}` scales between integer steps (with roundings or shifts), which no kernel runs: only float wavelets scale, and their scales move past float steps")]
    ScaleBetweenSteps(String),
    #[error("no fused 2-D pass: {0}")]
    NoTile(String),
    #[error("launch config is not usable: {0}")]
    Config(&'static str),
    #[error("wavelet `{wavelet}`'s {} program has the coefficient {value}, which {} cannot hold (it overflows to infinity or underflows to zero); emit f64 kernels, or rescale the wavelet's coefficients", if *.direction == dwt_ir::Direction::Forward { "forward" } else { "inverse" }, .elem.name())]
    Unrepresentable {
        wavelet: String,
        direction: dwt_ir::Direction,
        /// The coefficient, in exponent notation.
        value: String,
        elem: ElementType,
    },
}

/// A compiler's log followed by the emitted source lines it points at, quoted with their numbers.
/// `line_of` reads the source line number a diagnostic line cites, in the compiler's own format;
/// numbers outside the source and repeats are dropped, and at most 8 lines are quoted.
pub fn annotate_build_log(
    log: &str,
    source: &str,
    line_of: impl Fn(&str) -> Option<usize>,
) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let mut cited: Vec<usize> = Vec::new();
    for n in log.lines().filter_map(line_of) {
        if (1..=lines.len()).contains(&n) && !cited.contains(&n) {
            cited.push(n);
        }
    }
    let mut out = log.trim_end().to_string();
    if !cited.is_empty() {
        out.push_str("\nin the emitted source:");
        for n in cited.into_iter().take(8) {
            out.push_str(&format!("\n{n:>5} | {}", lines[n - 1]));
        }
    }
    out
}
