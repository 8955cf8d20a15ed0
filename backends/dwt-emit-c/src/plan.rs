//! The launches of one whole transform, computed once for every executor, in one of three shapes:
//! - two passes per level (van der Laan et al.), on the data with a scratch buffer: per level
//!   the rows (with the pre-shift; or the row segments, or the sliding-window kernel along long
//!   rows), the columns and the depth pass, the passes that must read one buffer and write the
//!   other moving the band between the data and the scratch, the rows kernel bringing it back
//!   (`Planner::level`); where the rows kernel takes every level's rows, the forward's first
//!   rows kernel and a 2-D or 3-D inverse's first window of each level read
//!   [`Buffer::Source`] (the window the band's low quadrant from the data);
//! - fused 2-D ([`Strategy::Fused`](crate::Strategy)): one tile kernel per level, out of place:
//!   level 0 reads [`Buffer::Source`], the subbands land in [`Buffer::Data`], and the low band
//!   each level hands the next lives in [`Buffer::Scratch`] (two regions used in turn); for a
//!   pair-local program (Haar) the first levels whose powers of two divide the sides take
//!   pyramid kernels instead, two or three levels per launch (interleaved: the data's band of
//!   their first level, in place, beside the compact low band they hand on);
//! - fused 3-D ([`Strategy::Fused`](crate::Strategy)): per level the tile kernel on every x-y
//!   plane of the band at once and the depth pass, between the data and the scratch, the source
//!   read where the level's samples still are (see `fused_volume`).
//!
//! An executor allocates [`LaunchPlan::scratch`] elements of scratch, gives a plan that
//! [`reads_source`](LaunchPlan::reads_source) the input as the source (for an in-place call a
//! copy of it, or the data itself where [`LaunchPlan::source_may_be_data`]), and interprets the
//! steps in order on one queue or stream.
//!
//! Level semantics are the CPU reference's: forward per level rows, columns, depth; inverse depth,
//! columns, rows; levels recurse on the low band, addressed in place with the full image's pitches
//! (interleaved: sample spacing `2^level`; Mallat: the band sits contiguous from the origin).

use dwt_ir::{Direction, Layout};

use crate::emit::KernelModule;
use crate::tile::TilePass;
use crate::volume::{VolumePass, VOLUME_SEGMENT, VOLUME_THREADS};
use crate::volume_pairs::{VOLUME_PAIRS_MAX_DEPTH, VOLUME_PAIRS_THREADS};
use crate::{column_segment_rows, Strategy};

/// Which device buffer a kernel argument is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Buffer {
    /// The data being transformed in place (two passes) or the output (fused).
    Data,
    /// The scratch buffer: the source of Mallat sliding-window passes, or the fused levels'
    /// low bands.
    Scratch,
    /// The input of a fused plan, only read.
    Source,
}

/// An axis of the data: x along rows, y down columns, z across planes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    X,
    Y,
    Z,
}

/// What a launch lifts, for readers of a plan (profiles, the benchmark's passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    /// The rows kernel: every row of the band along x (with the pre-shift).
    Rows,
    /// The pre-shift alone, beside a sliding window along long rows.
    Shift,
    /// The row-segments kernel: rows too long for the rows kernel, many groups per row.
    RowSegments,
    /// The sliding-window kernel along one axis.
    Window(Axis),
    /// The fused kernel: rows and columns of each x-y plane at once.
    Fused,
    /// The pyramid kernel: rows and columns of two or three levels at once.
    Pyramid,
    /// The level-pair kernel: rows and columns of two levels of a program with a halo at once.
    LevelPair,
    /// The even-rows kernel: an interleaved forward's even rows, written whole after every
    /// level.
    EvenRows,
    /// The one-pass volume kernel: rows, columns and depth of a level of a volume at once.
    Volume,
    /// The pair-local volume kernel: rows, columns and depth of a level of a pair-local program
    /// at once.
    VolumePairs,
    /// The pair-local volume pyramid: rows, columns and depth of two levels of a pair-local
    /// program at once.
    VolumePyramid,
}

/// One kernel launch: `groups` blocks (work-groups) along x, y and z of `block` threads
/// (work-items) along x and y, the kernel's buffer arguments then its `int` arguments, in the
/// kernel's parameter order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub kernel: String,
    pub pass: Pass,
    pub groups: [usize; 3],
    pub block: [usize; 2],
    pub buffers: Vec<Buffer>,
    pub ints: Vec<i32>,
}

impl Launch {
    /// The global work size (OpenCL's `groups * block`).
    pub fn global(&self) -> [usize; 3] {
        [
            self.groups[0] * self.block[0],
            self.groups[1] * self.block[1],
            self.groups[2],
        ]
    }

    /// The work-group size in three dimensions (OpenCL wants as many as the global size has).
    pub fn local(&self) -> [usize; 3] {
        [self.block[0], self.block[1], 1]
    }

    /// Whether the launch has no work (a zero extent): executors skip it.
    pub fn is_empty(&self) -> bool {
        self.groups.contains(&0)
    }
}

/// Copies a band from the data into the same place of the scratch buffer (for the interleaved
/// layout, the span of its rows, samples `2^level` apart), where a level of the two passes would
/// otherwise end in the scratch: `extents` =
/// `[depth, height, width]` samples, rows `row_pitch` and planes `plane_pitch` elements apart,
/// starting at element 0 of both buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BandCopy {
    pub extents: [usize; 3],
    pub row_pitch: usize,
    pub plane_pitch: usize,
}

impl BandCopy {
    /// The elements from the band's first to one past its last: a contiguous span covering the
    /// band (and what lies between its rows), for executors without a strided copy.
    pub fn span(&self) -> usize {
        let [d, h, w] = self.extents;
        (d - 1) * self.plane_pitch + (h - 1) * self.row_pitch + w
    }
}

/// One step of a transform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Launch(Launch),
    Copy(BandCopy),
}

/// The steps of one transform on one module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchPlan {
    pub steps: Vec<Step>,
    /// Elements of [`Buffer::Scratch`] the steps use (0: none).
    pub scratch: usize,
    /// Whether the steps read the input from [`Buffer::Source`] and write the result to
    /// [`Buffer::Data`]; else they transform [`Buffer::Data`] in place.
    pub reads_source: bool,
    /// Whether the fused 2-D kernel lifts the rows and columns of every level (of every x-y
    /// plane, in 3-D), rather than a pass per axis.
    pub fused: bool,
    /// Whether a plan that reads a source may, run in place, read the data itself as its source
    /// (no copy of the input): no step reads a sample of [`Buffer::Source`] after a step has
    /// written that sample of the data (and a step that reads the source writes the scratch).
    pub source_may_be_data: bool,
}

impl LaunchPlan {
    /// The kernels the steps launch, each once, in order of first launch.
    pub fn kernels(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for step in &self.steps {
            if let Step::Launch(l) = step {
                if !names.contains(&l.kernel.as_str()) {
                    names.push(&l.kernel);
                }
            }
        }
        names
    }

    /// What each launch lifts, in launch order (copies left out): the shape of a plan, for
    /// reports and for tests of which kernels a request runs.
    pub fn passes(&self) -> Vec<Pass> {
        (self.steps.iter())
            .filter_map(|s| match s {
                Step::Launch(l) => Some(l.pass),
                Step::Copy(_) => None,
            })
            .collect()
    }

    /// The levels each launch of the pair-local volume kernels lifts, in launch order (two the
    /// volume pyramid's, one the one-level kernel's); empty where the plan launches neither.
    pub fn pair_volume_levels(&self) -> Vec<u32> {
        (self.steps.iter())
            .filter_map(|s| match s {
                Step::Launch(l) if l.pass == Pass::VolumePairs => Some(1),
                Step::Launch(l) if l.pass == Pass::VolumePyramid => Some(VOLUME_PAIRS_MAX_DEPTH),
                _ => None,
            })
            .collect()
    }

    /// Whether the fused 2-D kernel runs the levels.
    pub fn is_fused(&self) -> bool {
        self.fused
    }

    /// Whether the plan runs on the data buffer alone, in place, with no copy of the input: it
    /// reads no source, or may read the data itself as its source.
    pub fn runs_in_place(&self) -> bool {
        !self.reads_source || self.source_may_be_data
    }
}

/// `[depth, height, width]` extents and element steps of one level's band (a 1-D or 2-D shape
/// has depth 1, and 1-D height 1).
struct Band {
    n: [usize; 3],
    step: [usize; 3],
}

/// Band `level` of data of `full = [depth, height, width]` samples in `layout`, addressed in
/// place with the full data's pitches (interleaved: sample spacing `2^level`; Mallat: from the
/// origin).
fn band(full: [usize; 3], layout: Layout, level: u32) -> Band {
    let spacing = match layout {
        Layout::Interleaved => 1usize << level,
        Layout::Mallat => 1,
    };
    Band {
        n: full.map(|n| band_shape(n, level)),
        step: [full[1] * full[2] * spacing, full[2] * spacing, spacing],
    }
}

/// Indices into `[depth, height, width]` of a window along `axis`: the axis it slides along,
/// its lines' axis, its planes' axis (lines along x for windows along y or z, along y for
/// windows along x).
fn window_axes(axis: Axis) -> (usize, usize, usize) {
    match axis {
        Axis::X => (2, 1, 0),
        Axis::Y => (1, 2, 0),
        Axis::Z => (0, 2, 1),
    }
}

/// The rows per column segment of the sliding window along `axis` of band `b`
/// ([`column_segment_rows`]): the line's length or more where one group slides down whole lines.
fn window_segment(module: &KernelModule, b: &Band, axis: Axis) -> Result<usize, String> {
    let v = &module.vertical;
    let (along, lines, planes) = window_axes(axis);
    let cfg = &module.config;
    let groups = b.n[lines].div_ceil(cfg.slab_width) * b.n[planes];
    Ok(column_segment_rows(
        b.n[along],
        groups,
        v.margin,
        v.geometry.height,
        cfg.column_segment,
    ))
}

/// The sliding-window kernel along `axis` of band `b` from `src` to `dst`, or `None` for lines
/// of fewer than 2 samples: one group of `slab_width` lines per plane of the remaining axis and
/// column segment ([`window_segment`]; `src != dst` where there is more than one). The inverse
/// reads the low rows of the band's low quadrant of lines and planes from `lows` where given
/// (the inverse kernel's `lows`, `low_cols` and `low_planes`; else from `src`).
fn window_launch(
    module: &KernelModule,
    b: &Band,
    axis: Axis,
    src: Buffer,
    lows: Option<Buffer>,
    dst: Buffer,
) -> Result<Option<Launch>, String> {
    let (along, lines, planes) = window_axes(axis);
    if b.n[along] < 2 {
        return Ok(None);
    }
    let v = &module.vertical;
    let cfg = &module.config;
    let segment = window_segment(module, b, axis)?;
    let segments = b.n[along].div_ceil(segment);
    if (segments > 1 || v.wraps) && src == dst {
        return Err("column segments or wrapping lines in place: a planner bug".into());
    }
    let mut buffers = vec![src, dst];
    let mut ints = vec![
        0,
        int(b.step[lines])?,
        int(b.step[along])?,
        int(b.step[planes])?,
        int(b.n[along])?,
        int(b.n[lines])?,
        int(segment)?,
        int(if segments > 1 || v.wraps { v.margin } else { 0 })?,
    ];
    if module.direction == Direction::Inverse {
        buffers.insert(1, lows.unwrap_or(src));
        // The low quadrant: Mallat's first ceil(n / 2) lines and planes; the interleaved
        // layout's even ones, which the kernel picks among all of them.
        let low = |n: usize| match module.layout {
            Layout::Mallat => n.div_ceil(2),
            Layout::Interleaved => n,
        };
        let (low_cols, low_planes) = match lows {
            Some(_) => (low(b.n[lines]), low(b.n[planes])),
            None => (0, 0),
        };
        ints.extend([int(low_cols)?, int(low_planes)?]);
    } else if lows.is_some() {
        return Err("a forward's window reading lows from another buffer: a planner bug".into());
    }
    Ok(Some(Launch {
        kernel: v.columns_kernel.clone(),
        pass: Pass::Window(axis),
        groups: [b.n[lines].div_ceil(cfg.slab_width), b.n[planes], segments],
        block: [cfg.slab_width, cfg.slab_rows],
        buffers,
        ints,
    }))
}

/// Where an inverse that reads its source finds level `level`'s low band (the low quadrant or
/// octant its first window reads through `lows`): in the data, where the coarser level left it;
/// `None` at the coarsest level, whose whole band is still the source's.
fn lows_of(level: u32, levels: u32) -> Option<Buffer> {
    (level + 1 < levels).then_some(Buffer::Data)
}

/// The `int` arguments of the kernels over the rows of band `b` (rows, shift, row segments):
/// `(base, sample_step, row_step, plane_step, n, rows)`.
fn row_ints(b: &Band) -> Result<Vec<i32>, String> {
    [0, b.step[2], b.step[1], b.step[0], b.n[2], b.n[1]]
        .into_iter()
        .map(int)
        .collect()
}

fn band_shape(n: usize, level: u32) -> usize {
    (0..level).fold(n, |n, _| n.div_ceil(2))
}

fn int(v: usize) -> Result<i32, String> {
    i32::try_from(v).map_err(|_| format!("{v} does not fit the kernels' int indices"))
}

/// The launches of a transform of `shape` (1 to 3 axes, validated by the caller) over `levels`
/// levels with `module`. Refuses, before anything runs, what the module cannot do: a vertical or
/// depth pass (or a row longer than `LaunchConfig::row_limit`) without vertical kernels, and sizes past the
/// kernels' 32-bit indices.
pub fn plan(module: &KernelModule, shape: &[usize], levels: u32) -> Result<LaunchPlan, String> {
    plan_with(module, shape, levels, true)
}

/// The plan an executor runs in place (no source buffer) where [`plan`]'s would first copy the
/// data there: the same transform without the one-pass volume kernel ([`VolumePass`]), which
/// reads a source and writes the data, so that the data is lifted where it lies. `None` where
/// [`plan`]'s runs in place itself, or is run so after a copy of the data: the pair-local
/// volume kernel's (module `volume_pairs`), which with the copy moves a volume through memory
/// less than the two passes do.
pub fn plan_in_place(
    module: &KernelModule,
    shape: &[usize],
    levels: u32,
) -> Result<Option<LaunchPlan>, String> {
    if plan(module, shape, levels)?.runs_in_place() {
        return Ok(None);
    }
    let without = plan_with(module, shape, levels, false)?;
    Ok(without.runs_in_place().then_some(without))
}

/// [`plan`], taking the one-pass volume kernel where `one_pass` and the module has it.
fn plan_with(
    module: &KernelModule,
    shape: &[usize],
    levels: u32,
    one_pass: bool,
) -> Result<LaunchPlan, String> {
    let dims = shape.len();
    if !(1..=3).contains(&dims) {
        return Err(format!("{dims} axes: the kernels take 1 to 3"));
    }
    let len = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    let Some(len) = len.filter(|&len| i32::try_from(len).is_ok()) else {
        return Err(format!(
            "shape {shape:?}: the kernels index with 32-bit ints (at most {} samples)",
            i32::MAX
        ));
    };
    let cfg = &module.config;
    // The fused kernels are emitted only where they apply (not where their tiles are not
    // proven): without them `fused` and `fused_volume` decline.
    if module.config.strategy == Strategy::Fused {
        let fused = match *shape {
            [height, width] => fused(module, [height, width], levels)?,
            [depth, height, width] => {
                fused_volume(module, [depth, height, width], levels, one_pass)?
            }
            _ => None,
        };
        if let Some(fused) = fused {
            return Ok(fused);
        }
    }
    let mut full = [1usize; 3];
    full[3 - dims..].copy_from_slice(shape);
    // Out of place, nothing is copied first where the first pass that reads a band can read it
    // from the source: the forward's rows kernel at level 0 (it writes the data or the scratch,
    // as the level needs; in place it may read and write the same rows), and the inverse's first
    // window of every level (the depth pass, or the columns), which reads the band's low
    // quadrant from the data, where the coarser level left it, and the rest from the source.
    // The inverse needs the rows kernel on every level (no band copy before its first pass)
    // and a window to open each level.
    let rows_kernel = levels > 0 && full[2] <= cfg.row_limit(module.elem);
    let reads_source = rows_kernel
        && match module.direction {
            Direction::Forward => true,
            Direction::Inverse => {
                dims >= 2
                    && (0..levels).all(|level| {
                        band_shape(full[0], level) >= 2 || band_shape(full[1], level) >= 2
                    })
            }
        };
    let mut p = Planner {
        module,
        steps: Vec::new(),
        needs_scratch: false,
        at: Buffer::Data,
        first_from_source: false,
        lows: None,
    };
    let band = |level: u32| band(full, module.layout, level);
    let forward = module.direction == Direction::Forward;
    let (order, axes): (Vec<u32>, _) = match forward {
        true => ((0..levels).collect(), [Axis::X, Axis::Y, Axis::Z]),
        false => ((0..levels).rev().collect(), [Axis::Z, Axis::Y, Axis::X]),
    };
    for level in order {
        p.first_from_source = reads_source && (!forward || level == 0);
        p.lows = if forward {
            None
        } else {
            lows_of(level, levels)
        };
        p.level(&band(level), axes)?;
        if p.first_from_source {
            return Err("a level's first pass did not read the source: a planner bug".into());
        }
    }
    let scratch = if p.needs_scratch { len } else { 0 };
    Ok(LaunchPlan {
        steps: p.steps,
        scratch,
        reads_source,
        fused: false,
        source_may_be_data: reads_source,
    })
}

/// Where a subband or band lives: `buffer[base + row * row_step + col * col_step]`.
#[derive(Clone, Copy)]
struct Place {
    buffer: Buffer,
    base: usize,
    col_step: usize,
    row_step: usize,
}

/// The fused kernel's launch over `planes` x-y planes (group z), `plane_step` elements apart in
/// every buffer (one plane, for a kernel without [`TilePass::planes`]), of an `h` x `w` band:
/// natural samples at `nat`, subband (0, 0) at `low`, subbands (0, 1), (1, 0) and (1, 1) at
/// `highs` (one buffer and the same steps for the three; subband (0, 1) in `low`'s buffer with
/// its steps for a kernel that stores it there, [`TilePass::band01_with_low`]).
fn tile_launch(
    tile: &TilePass,
    [planes, h, w]: [usize; 3],
    plane_step: usize,
    nat: Place,
    low: Place,
    highs: [Place; 3],
) -> Result<Launch, String> {
    let [tx, ty] = tile.tile;
    let addressing = |p: Place| (p.buffer, p.col_step, p.row_step);
    let band01_with = match tile.band01_with_low {
        true => low,
        false => highs[1],
    };
    if addressing(highs[0]) != addressing(band01_with)
        || addressing(highs[2]) != addressing(highs[1])
    {
        return Err(format!(
            "the subbands of a launch of {} are not where its kernel stores them: a planner bug",
            tile.kernel
        ));
    }
    let ints = [
        h,
        w,
        nat.base,
        nat.col_step,
        nat.row_step,
        low.base,
        low.col_step,
        low.row_step,
        highs[0].base,
        highs[1].base,
        highs[2].base,
        highs[1].col_step,
        highs[1].row_step,
    ]
    .into_iter()
    .chain(tile.planes.then_some(plane_step))
    .map(int)
    .collect::<Result<Vec<_>, _>>()?;
    Ok(Launch {
        kernel: tile.kernel.clone(),
        pass: Pass::Fused,
        groups: [
            w.div_ceil(2).div_ceil(tx),
            h.div_ceil(2).div_ceil(ty),
            planes,
        ],
        block: [tile.threads, 1],
        buffers: vec![nat.buffer, low.buffer, highs[1].buffer],
        ints,
    })
}

/// Subband `(py, px)` of level `level` of an image (or of every x-y plane of a volume) whose
/// rows are `width` samples long and whose level-0 band is `height` x `width`, in its final
/// place in `buffer`.
fn subband(
    layout: Layout,
    buffer: Buffer,
    [height, width]: [usize; 2],
    level: u32,
    [py, px]: [usize; 2],
) -> Place {
    let (h, w) = (band_shape(height, level), band_shape(width, level));
    match layout {
        Layout::Mallat => Place {
            buffer,
            base: py * h.div_ceil(2) * width + px * w.div_ceil(2),
            col_step: 1,
            row_step: width,
        },
        Layout::Interleaved => {
            let s = 1usize << level;
            Place {
                buffer,
                base: py * s * width + px * s,
                col_step: 2 * s,
                row_step: 2 * s * width,
            }
        }
    }
}

/// The three high subbands of a level, in `buffer`.
fn highs(layout: Layout, buffer: Buffer, image: [usize; 2], level: u32) -> [Place; 3] {
    [[0, 1], [1, 0], [1, 1]].map(|p| subband(layout, buffer, image, level, p))
}

/// Whether `tile`'s kernel is proven exact on an `h` x `w` band of the module's program.
fn exact_on(module: &KernelModule, tile: &TilePass, band: [usize; 2]) -> bool {
    tile.exact_on(&module.program, module.boundary, module.elem.kind(), band)
}

/// Whether the fused kernel is proven exact on the x-y bands of every level.
fn tiles_fit(
    module: &KernelModule,
    tile: &TilePass,
    [height, width]: [usize; 2],
    levels: u32,
) -> bool {
    (0..levels).all(|level| {
        exact_on(
            module,
            tile,
            [band_shape(height, level), band_shape(width, level)],
        )
    })
}

/// The fused kernel that lifts a 2-D band: the module's small-band kernel for a band of at most
/// [`SMALL_BAND`](crate::SMALL_BAND) samples where it has one proven exact there, else its
/// configured one, if proven exact there, else the small-band kernel if proven exact there.
fn tile_for(module: &KernelModule, [h, w]: [usize; 2]) -> Option<&TilePass> {
    let small = (module.small_tile.as_ref()).filter(|t| exact_on(module, t, [h, w]));
    let configured = (module.tile.as_ref().ok()).filter(|t| exact_on(module, t, [h, w]));
    (small.filter(|_| h * w <= crate::SMALL_BAND))
        .or(configured)
        .or(small)
}

/// The levels of a 2-D transform that pyramid kernels lift, from level 0: the most levels (at
/// most `levels`) whose powers of two divide both sides, where they are two or more, the module
/// has pyramid kernels and their grid fits; else 0.
fn pyramid_levels(module: &KernelModule, [height, width]: [usize; 2], levels: u32) -> u32 {
    // A pyramid launch's groups along y are its blocks of rows (4 or 8 each), which CUDA caps
    // at MAX_GRID_YZ; the tile launches, a group per 32 rows, go further.
    if module.pyramids.is_empty() || height / 4 > MAX_GRID_YZ {
        return 0;
    }
    let divides = |l: u32| height % (1 << l) == 0 && width % (1 << l) == 0;
    let m = (0..=levels.min(30))
        .take_while(|&l| divides(l))
        .last()
        .unwrap_or(0);
    if m >= 2 {
        m
    } else {
        0
    }
}

/// The depths of the pyramid launches over the first `m` levels: three while three or more
/// remain, then two; a last single level is left to a tile launch (the levels after the
/// pyramids), which moves less than a second pyramid of two: at 8192^2 four levels as 3 + a tile
/// took 0.976-0.978 of 2 + 2 (BENCHMARKS.md).
fn pyramid_depths(m: u32) -> Vec<u32> {
    let mut depths = Vec::new();
    let mut left = m;
    while left >= 2 {
        let depth = left.min(3);
        depths.push(depth);
        left -= depth;
    }
    depths
}

/// A launch of a fused plan: levels `first..first + depth` by one kernel.
#[derive(Clone, Copy)]
enum Stage<'m> {
    Pyramid(&'m crate::PyramidPass),
    LevelPair(&'m crate::LevelPairPass),
    Tile(&'m TilePass),
}

/// Where a pyramid launch writes (forward) or reads (inverse) its levels' coefficients.
enum Coefficients {
    /// Mallat: each level's three high subbands (one element apart along x, all rows the same
    /// step apart).
    Subbands(Vec<[Place; 3]>),
    /// Interleaved: the band of the launch's first level, in place, its coefficients where its
    /// samples were.
    InPlace(Place),
}

/// The pyramid kernel's launch over an `h` x `w` band (sides multiples of `2^depth`): natural
/// samples at `nat`, the last level's low band at `low`, the levels' coefficients at `coeffs`.
fn pyramid_launch(
    pyramid: &crate::PyramidPass,
    [h, w]: [usize; 2],
    nat: Place,
    low: Place,
    coeffs: &Coefficients,
) -> Result<Launch, String> {
    let threads = crate::PYRAMID_THREADS;
    let rows = 1usize << pyramid.depth;
    let (addressing, high) = match coeffs {
        Coefficients::Subbands(highs) => (
            [
                nat.base,
                nat.row_step,
                low.base,
                low.row_step,
                highs[0][0].row_step,
            ]
            .into_iter()
            .chain(highs.iter().flat_map(|level| level.map(|p| p.base)))
            .collect::<Vec<_>>(),
            highs[0][0].buffer,
        ),
        Coefficients::InPlace(band) => (
            vec![
                nat.base,
                nat.row_step,
                low.base,
                low.col_step,
                low.row_step,
                band.base,
                band.col_step,
                band.row_step,
            ],
            band.buffer,
        ),
    };
    // The band's height is the grid's: the kernel takes its width alone.
    let ints = std::iter::once(w)
        .chain(addressing)
        .map(int)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Launch {
        kernel: pyramid.kernel.clone(),
        pass: Pass::Pyramid,
        groups: [w.div_ceil(threads), h / rows, 1],
        block: [threads, 1],
        buffers: vec![nat.buffer, low.buffer, high],
        ints,
    })
}

/// The level-pair kernel for the first two levels of an `h` x `w` forward, where it applies:
/// the module has one (a 2-D forward in the Mallat layout stored in its working type), two or
/// more levels, an image of at least `LaunchConfig::level_pairs_from` samples whose sides are
/// multiples of its tiles (every tile whole, so that an edge tile's reflections stay inside
/// what it holds), and edge segments proven exact on the lines of both levels.
fn level_pair_for(
    module: &KernelModule,
    [h, w]: [usize; 2],
    levels: u32,
) -> Option<&crate::LevelPairPass> {
    let pair = module.level_pair.as_ref()?;
    let side = 4 * pair.tile;
    let large = (module.config.level_pairs_from).is_some_and(|n| h * w >= n);
    let whole = h % side == 0 && w % side == 0 && h / side <= MAX_GRID_YZ;
    // Every index read beyond a line lies within one reflection of it.
    let folds_once = pair.reach + 1 < h.min(w) / 2;
    let kind = module.elem.kind();
    let proven =
        |n: usize, s: usize| (module.program).reflected_segments_exact(module.boundary, kind, n, s);
    let [first, level2_y] = pair.segments;
    let exact = || {
        [h, w].into_iter().all(|n| proven(n, first))
            && [h / 2, w / 2]
                .into_iter()
                .all(|n| proven(n, first) && proven(n, level2_y))
    };
    (levels >= 2 && large && whole && folds_once && exact()).then_some(pair)
}

/// The level-pair kernel's launch over an `h` x `w` band (sides multiples of four tiles):
/// natural samples at `nat`, the second level's low band at `low`, the two levels' high
/// subbands at `highs`, every one addressed by rows of contiguous samples.
fn level_pair_launch(
    pair: &crate::LevelPairPass,
    [h, w]: [usize; 2],
    nat: Place,
    low: Place,
    highs: [[Place; 3]; 2],
) -> Result<Launch, String> {
    let first = highs[0][0];
    let rows_of_samples = nat.col_step == 1
        && low.col_step == 1
        && (highs.iter().flatten())
            .all(|p| (p.buffer, p.col_step, p.row_step) == (first.buffer, 1, first.row_step));
    if !rows_of_samples {
        return Err(format!(
            "a launch of {} addresses its subbands otherwise than its kernel: a planner bug",
            pair.kernel
        ));
    }
    let ints = [
        h,
        w,
        nat.base,
        nat.row_step,
        low.base,
        low.row_step,
        first.row_step,
    ]
    .into_iter()
    .chain(highs.iter().flat_map(|level| level.map(|p| p.base)))
    .map(int)
    .collect::<Result<Vec<_>, _>>()?;
    let side = 4 * pair.tile;
    Ok(Launch {
        kernel: pair.kernel.clone(),
        pass: Pass::LevelPair,
        groups: [w / side, h / side, 1],
        block: [pair.threads, 1],
        buffers: vec![nat.buffer, low.buffer, first.buffer],
        ints,
    })
}

/// The fused plan of a 2-D transform, or `None` where it does not apply: no tile kernel, a level
/// with a band of one row or column, or tiles not proven exact at some level's size. Its first
/// levels run on pyramid kernels where [`pyramid_levels`] finds them, the rest a tile kernel
/// per level.
fn fused(
    module: &KernelModule,
    [height, width]: [usize; 2],
    levels: u32,
) -> Result<Option<LaunchPlan>, String> {
    if levels == 0 {
        return Ok(None);
    }
    let band = |level: u32| [band_shape(height, level), band_shape(width, level)];
    let pyramid_levels = pyramid_levels(module, [height, width], levels);
    let mut stages: Vec<(u32, u32, Stage)> = Vec::new();
    let mut first = 0;
    for depth in pyramid_depths(pyramid_levels) {
        let Some(pyramid) = module.pyramids.iter().find(|p| p.depth == depth) else {
            return Err(format!("no pyramid kernel of depth {depth}: a planner bug"));
        };
        stages.push((first, depth, Stage::Pyramid(pyramid)));
        first += depth;
    }
    if let (0, Some(pair)) = (first, level_pair_for(module, band(0), levels)) {
        stages.push((0, 2, Stage::LevelPair(pair)));
        first = 2;
    }
    for level in first..levels {
        let Some(tile) = tile_for(module, band(level)) else {
            return Ok(None);
        };
        stages.push((level, 1, Stage::Tile(tile)));
    }
    let image = [height, width];
    let layout = module.layout;
    // An interleaved forward on tile launches from level 0, on an image of at least
    // `LaunchConfig::even_rows_from` samples, has level 0 write the image's odd rows in place
    // (whole) and its even rows' two subbands compact in the scratch (the low band handed on as
    // in the Mallat layout, subband (0, 1) in a region of its own); the later levels lift into a
    // Mallat form of level 1's band (`coarse`, after the hand-off regions), and the even-rows
    // kernel then writes the image's even rows whole from both.
    let low_band = band(1);
    // Modules have the kernels only for interleaved 2-D forwards (`emit_module`).
    // Its first level's kernel is the configured one's variant: that level must take `tile`.
    let configured = |t: &TilePass| module.tile.as_ref().is_ok_and(|c| c.kernel == t.kernel);
    let even_rows = match (&module.even_rows, &module.even_rows_tile, &stages[..]) {
        (Some(kernel), Some(first), [(0, 1, Stage::Tile(t)), _, ..])
            if configured(t)
                && low_band[0] <= MAX_GRID_YZ
                && (module.config.even_rows_from).is_some_and(|n| height * width >= n) =>
        {
            stages[0].2 = Stage::Tile(first);
            Some(kernel)
        }
        _ => None,
    };
    // The low band stage k (in level order) hands on through the scratch, band `first + depth`
    // (the forward's output of stage k, the inverse's input of it), lives compact in one of two
    // regions, by turns: the first holds the larger bands, the second starts after it. The last
    // stage hands nothing on.
    let region_len = |b: u32| band_shape(height, b) * band_shape(width, b);
    let scratch = match stages.len() - 1 {
        0 => 0,
        1 => region_len(1),
        _ => region_len(1) + region_len(2),
    };
    let handed_on = |k: usize| {
        let (first, depth, _) = stages[k];
        let b = first + depth;
        Place {
            buffer: Buffer::Scratch,
            base: if k % 2 == 0 { 0 } else { region_len(1) },
            col_step: 1,
            row_step: band_shape(width, b),
        }
    };
    let natural = |buffer: Buffer| Place {
        buffer,
        base: 0,
        col_step: 1,
        row_step: width,
    };
    let coarse = |level: u32, p: [usize; 2]| {
        let place = subband(Layout::Mallat, Buffer::Scratch, low_band, level - 1, p);
        Place {
            base: scratch + place.base,
            ..place
        }
    };
    // Level 0's subband (0, 1) with the even rows: after the coarse band, with its steps.
    let coarse_len = even_rows.map_or(0, |_| low_band[0] * low_band[1]);
    let band01 = Place {
        buffer: Buffer::Scratch,
        base: scratch + coarse_len,
        col_step: 1,
        row_step: low_band[1],
    };
    let highs_of = |level: u32, buffer: Buffer| match even_rows {
        Some(_) if level > 0 => [[0, 1], [1, 0], [1, 1]].map(|p| coarse(level, p)),
        Some(_) => {
            let [_, b10, b11] = highs(layout, buffer, image, 0);
            [band01, b10, b11]
        }
        None => highs(layout, buffer, image, level),
    };
    let launch =
        |(first, depth, stage): (u32, u32, Stage), nat: Place, low: Place, high: Buffer| {
            match stage {
                Stage::Tile(tile) => {
                    let [h, w] = band(first);
                    tile_launch(tile, [1, h, w], 0, nat, low, highs_of(first, high))
                }
                Stage::Pyramid(pyramid) => {
                    let coeffs = match layout {
                        Layout::Mallat => Coefficients::Subbands(
                            (first..first + depth)
                                .map(|level| highs(layout, high, image, level))
                                .collect(),
                        ),
                        Layout::Interleaved => {
                            let b = crate::plan::band([1, height, width], layout, first);
                            Coefficients::InPlace(Place {
                                buffer: high,
                                base: 0,
                                col_step: b.step[2],
                                row_step: b.step[1],
                            })
                        }
                    };
                    pyramid_launch(pyramid, band(first), nat, low, &coeffs)
                }
                Stage::LevelPair(pair) => {
                    let highs = [highs_of(first, high), highs_of(first + 1, high)];
                    level_pair_launch(pair, band(first), nat, low, highs)
                }
            }
            .map(Step::Launch)
        };
    let last = stages.len() - 1;
    let low = |k: usize, buffer: Buffer| match (k == last, even_rows) {
        (true, Some(_)) => coarse(levels - 1, [0, 0]),
        (true, None) => subband(layout, buffer, image, levels - 1, [0, 0]),
        (false, _) => handed_on(k),
    };
    let nat = |k: usize, buffer: Buffer| match k {
        0 => natural(buffer),
        _ => handed_on(k - 1),
    };
    let mut steps = Vec::new();
    match module.direction {
        Direction::Forward => {
            for (k, &stage) in stages.iter().enumerate() {
                let (nat, low) = (nat(k, Buffer::Source), low(k, Buffer::Data));
                steps.push(launch(stage, nat, low, Buffer::Data)?);
            }
            if let Some(kernel) = even_rows {
                steps.push(Step::Launch(even_rows_launch(
                    kernel,
                    image,
                    scratch,
                    band01.base,
                    levels - 1,
                )?));
            }
        }
        Direction::Inverse => {
            for (k, &stage) in stages.iter().enumerate().rev() {
                let (nat, low) = (nat(k, Buffer::Data), low(k, Buffer::Source));
                steps.push(launch(stage, nat, low, Buffer::Source)?);
            }
        }
    }
    Ok(Some(LaunchPlan {
        steps,
        scratch: scratch + 2 * coarse_len,
        reads_source: true,
        fused: true,
        source_may_be_data: false,
    }))
}

/// The even-rows kernel's launch over an `height` x `width` image in the data: a group per even
/// row and [`EVEN_ROWS_THREADS`](crate::EVEN_ROWS_THREADS) pairs of columns, the `levels`
/// coarser levels in their Mallat form over level 1's band (the image's even rows and columns)
/// at `coarse_base` in the scratch, level 0's subband (0, 1) at `band01_base` (rows as far
/// apart).
fn even_rows_launch(
    kernel: &str,
    [height, width]: [usize; 2],
    coarse_base: usize,
    band01_base: usize,
    levels: u32,
) -> Result<Launch, String> {
    let threads = crate::EVEN_ROWS_THREADS;
    let low_band = [band_shape(height, 1), band_shape(width, 1)];
    let ints = [
        low_band[0],
        low_band[1],
        width,
        coarse_base,
        band01_base,
        levels as usize,
    ]
    .into_iter()
    .map(int)
    .collect::<Result<Vec<_>, _>>()?;
    Ok(Launch {
        kernel: kernel.to_string(),
        pass: Pass::EvenRows,
        groups: [low_band[1].div_ceil(threads), low_band[0], 1],
        block: [threads, 1],
        buffers: vec![Buffer::Data, Buffer::Scratch],
        ints,
    })
}

/// The fused plan of a 3-D transform, or `None` where it does not apply (a module emitted
/// without [`LaunchConfig::planes`](crate::LaunchConfig::planes), where [`fused`] would not on
/// the x-y bands, a level whose band has a single plane, more planes than a grid takes).
/// Per level two passes over the band, each reading one buffer and writing the other, where the
/// passes per axis take three (the rows, and a sliding window per other axis):
/// the fused kernel lifts the rows and columns of every x-y plane at once (group z = plane) and
/// the depth pass's sliding window lifts along z. The order is the reference's (forward rows,
/// columns, depth; inverse depth, columns, rows).
/// - forward (reads the source): level 0's kernel reads the source, later levels the low band
///   the previous level's depth pass left at the data's origin; the kernel writes the plane's
///   four subbands in their final x-y places in the scratch, the depth pass moves them from
///   there to the data, split along z.
/// - inverse (reads the source too): the depth pass reads the band's low octant from the data
///   (the coarsest level's from the source) and its high octants from the source, and writes it
///   merged along z to the scratch; the kernel reads the subbands there and writes the band's
///   natural samples to the data's origin, where the next level finds its low octant.
///
/// With the module's one-pass volume kernel ([`VolumePass`]), a level is one launch, from
/// level 0 as far as the launches have groups enough ([`volume_launches`]; level 0 alone in the
/// interleaved layout): the forward's first launches, reading the source, then the bands they
/// leave each other in the scratch; the inverse's last, after the two passes have lifted the
/// coarser levels (swapping the two buffers' parts) into the scratch, its last launch writing
/// the data.
fn fused_volume(
    module: &KernelModule,
    [depth, height, width]: [usize; 3],
    levels: u32,
    one_pass: bool,
) -> Result<Option<LaunchPlan>, String> {
    // In place too: a copy of the volume and this plan move it through memory less than the
    // two passes, which read and write it twice a level.
    if let Some(plan) = pair_volume(module, [depth, height, width], levels)? {
        return Ok(Some(plan));
    }
    let Ok(tile) = &module.tile else {
        return Ok(None);
    };
    if !tile.planes {
        return Ok(None);
    }
    let planes_fit = (0..levels).all(|level| band_shape(depth, level) >= 2) && depth <= MAX_GRID_YZ;
    if levels == 0 || !planes_fit || !tiles_fit(module, tile, [height, width], levels) {
        return Ok(None);
    }
    let image = [height, width];
    let layout = module.layout;
    let band = |level: u32| band([depth, height, width], layout, level);
    // Band `level`'s natural samples at the origin of `buffer`, with the volume's pitches.
    let natural = |buffer: Buffer, level: u32| {
        let b = band(level);
        Place {
            buffer,
            base: 0,
            col_step: b.step[2],
            row_step: b.step[1],
        }
    };
    let lift_planes = |level: u32, nat: Place, bands: Buffer| {
        let b = band(level);
        let low = subband(layout, bands, image, level, [0, 0]);
        let highs = highs(layout, bands, image, level);
        tile_launch(tile, b.n, b.step[0], nat, low, highs).map(Step::Launch)
    };
    // Every level's band has at least 2 planes (checked above): the window always launches.
    let lift_depth = |level: u32, src: Buffer, lows: Option<Buffer>, dst: Buffer| {
        window_launch(module, &band(level), Axis::Z, src, lows, dst)?
            .map(Step::Launch)
            .ok_or_else(|| format!("level {level} of the volume has one plane: a planner bug"))
    };
    let mut steps = Vec::new();
    let (launches, lifted, compact) = match module.volume.as_ref().filter(|_| one_pass) {
        Some(v) => {
            let every_level = module.config.one_pass_volumes == Some(true);
            let shape = [depth, height, width];
            volume_launches(v, module.direction, layout, every_level, shape, levels)?
        }
        None => (Vec::new(), 0, 0),
    };
    if module.direction == Direction::Forward {
        // The one-pass launches first, then the two passes take up the levels left: level 0's
        // tiles read the source, the later levels the low band the last launch or depth pass
        // left at the data's origin.
        steps.extend(launches.into_iter().map(Step::Launch));
        for level in lifted..levels {
            let nat = if level == 0 {
                natural(Buffer::Source, 0)
            } else {
                natural(Buffer::Data, level)
            };
            steps.push(lift_planes(level, nat, Buffer::Scratch)?);
            steps.push(lift_depth(level, Buffer::Scratch, None, Buffer::Data)?);
        }
    } else {
        // A level's band is its low octant, which the coarser level wrote to the data, and
        // seven high octants still in the source: the depth pass reads each from where it is,
        // so the source is never copied. The data's high octants are never written before the
        // level 0 tiles write the whole volume, so the source may be the data.
        // With the one-pass kernel for the finer levels, the last of which reads the source as
        // it writes the data, the coarser levels pass through the two buffers the other way
        // about: each depth pass writes the data, each level's tiles the scratch, where the
        // next level finds its low octant, the last of them where the kernel's first launch
        // reads it.
        let (lows, mid, out) = match lifted > 0 {
            true => (Buffer::Scratch, Buffer::Data, Buffer::Scratch),
            false => (Buffer::Data, Buffer::Scratch, Buffer::Data),
        };
        for level in (lifted..levels).rev() {
            // The coarsest level's low octant is in the source.
            let level_lows = (level + 1 < levels).then_some(lows);
            steps.push(lift_depth(level, Buffer::Source, level_lows, mid)?);
            let mut nat = natural(out, level);
            if lifted > 0 && level == lifted && layout == Layout::Mallat {
                nat.base = band_place([height, width], level);
            }
            steps.push(lift_planes(level, nat, mid)?);
        }
        steps.extend(launches.into_iter().map(Step::Launch));
    }
    Ok(Some(LaunchPlan {
        steps,
        // The one-pass launches' bands alone, or the two passes' whole volume.
        scratch: match lifted == levels {
            true => compact,
            false => depth * height * width,
        },
        reads_source: true,
        fused: true,
        // Without the one-pass kernel, the forward's level 0 tiles, the only reader of the
        // source, write the scratch only, and the inverse's depth passes read the source's
        // samples that no step writes until level 0's tiles, the last step. The one-pass
        // kernel reads the source (the forward's first launch, the inverse's last) as it
        // writes the data.
        source_may_be_data: lifted == 0,
    }))
}

/// Every level of a volume by the pair-local volume kernels (module `volume_pairs`), or `None`
/// where the module has none or a level's band has an odd side (or one past the grid): each
/// two levels whose first band's sides are multiples of four by the pyramid, the others one
/// launch a level ([`pair_volume_launches`]). Each launch reads and writes its bands once:
/// the forward reads the source at level 0, stores the high octants of its levels in the data
/// and its last level's low one in the scratch (the data at the last launch), where the next
/// launch reads it; the inverse reads the high octants from the source and the low one from
/// where the coarser launch wrote it (the source at the coarsest), and writes its first
/// level's band to the scratch (the data at level 0). The bands in the scratch lie compact,
/// alternately in its first and second eighth of the volume (a quarter in all), so that no
/// launch writes where it reads; the others keep the volume's pitches. The interleaved
/// layout's levels lift in place ([`interleaved_pair_volume`]).
fn pair_volume(
    module: &KernelModule,
    [depth, height, width]: [usize; 3],
    levels: u32,
) -> Result<Option<LaunchPlan>, String> {
    let Some(kernel) = &module.volume_pairs else {
        return Ok(None);
    };
    let shape = |level: u32| [depth, height, width].map(|n| band_shape(n, level));
    let even = (0..levels).all(|level| {
        let sides = shape(level);
        sides.iter().all(|&n| n >= 2 && n % 2 == 0)
            && sides[0] / 2 <= MAX_GRID_YZ
            && sides[1] / 2 <= MAX_GRID_YZ
    });
    if levels == 0 || !even {
        return Ok(None);
    }
    let spans = pair_volume_launches(module, shape, levels);
    // A launch of the kernel that lifts `levels` levels (two: the pyramid) of a band of
    // `[d, h, w]` samples, a block of side `2^levels` a work-item.
    let launch_of = |levels: u32,
                     [d, h, w]: [usize; 3],
                     buffers: Vec<Buffer>,
                     ints: Vec<usize>|
     -> Result<Step, String> {
        let (kernel, pass) = match levels {
            1 => (kernel.clone(), Pass::VolumePairs),
            _ => (module.volume_pyramid.clone())
                .map(|k| (k, Pass::VolumePyramid))
                .ok_or("a pyramid launch without the pyramid kernel: a planner bug")?,
        };
        let side = 1 << levels;
        Ok(Step::Launch(Launch {
            kernel,
            pass,
            groups: [
                (w / side).div_ceil(VOLUME_PAIRS_THREADS),
                h / side,
                d / side,
            ],
            block: [VOLUME_PAIRS_THREADS, 1],
            buffers,
            ints: ints.into_iter().map(int).collect::<Result<_, _>>()?,
        }))
    };
    let (row_step, plane_step) = (width, height * width);
    let forward = module.direction == Direction::Forward;
    if module.layout == Layout::Interleaved {
        return interleaved_pair_volume(module, &spans, launch_of, [depth, height, width])
            .map(Some);
    }
    // Where the band between launches `b - 1` and `b` (finest first) is, as (buffer, base, row
    // step, plane step): the volume (`b` 0) in the forward's source or the inverse's data, the
    // coarsest low octant (after the last launch) in the forward's data or the inverse's
    // source, both with the volume's pitches; the others compact in the scratch, alternately
    // in its first and second eighth of the volume (a band past level 0 holds at most that),
    // so that no launch writes where it reads.
    let last = spans.len();
    let eighth = (depth / 2) * (height / 2) * (width / 2);
    let band = |b: usize| match b {
        0 if forward => (Buffer::Source, 0, row_step, plane_step),
        0 => (Buffer::Data, 0, row_step, plane_step),
        _ if b == last && forward => (Buffer::Data, 0, row_step, plane_step),
        _ if b == last => (Buffer::Source, 0, row_step, plane_step),
        _ => {
            let [_, h, w] = shape(spans[b].0);
            (Buffer::Scratch, (b + 1) % 2 * eighth, w, h * w)
        }
    };
    let launch = |b: usize| -> Result<Step, String> {
        let (level, levels) = spans[b];
        let side = 1 << levels;
        let [d, h, w] = shape(level);
        let (nat, low) = (band(b), band(b + 1));
        let high = if forward {
            Buffer::Data
        } else {
            Buffer::Source
        };
        let mut ints = vec![
            w / side,
            h / side,
            d / side,
            nat.1,
            nat.2,
            nat.3,
            low.1,
            low.2,
            low.3,
            row_step,
            plane_step,
        ];
        // Each level's high octants' bases, by [z, y, x] parity in the kernel's order (x
        // fastest).
        for l in level..level + levels {
            let [d, h, w] = shape(l);
            ints.extend((1..8).map(|p: usize| {
                (p >> 2 & 1) * (d / 2) * plane_step
                    + (p >> 1 & 1) * (h / 2) * row_step
                    + (p & 1) * (w / 2)
            }));
        }
        launch_of(levels, [d, h, w], vec![nat.0, low.0, high], ints)
    };
    let steps = match forward {
        true => (0..last).map(launch).collect::<Result<_, _>>()?,
        false => (0..last).rev().map(launch).collect::<Result<_, _>>()?,
    };
    Ok(Some(LaunchPlan {
        steps,
        scratch: if last > 1 { 2 * eighth } else { 0 },
        reads_source: true,
        fused: true,
        // The forward's first level reads the source as it writes the data; the inverse reads
        // the source's high octants at every level, and its last writes the data.
        source_may_be_data: false,
    }))
}

/// The launches of a pair-local volume's `levels`, finest first, as `(first level, levels)`:
/// two levels at once by the module's pyramid where it has one, another level follows and the
/// first band's sides are multiples of four (its 4x4x4 blocks); one level otherwise.
fn pair_volume_launches(
    module: &KernelModule,
    shape: impl Fn(u32) -> [usize; 3],
    levels: u32,
) -> Vec<(u32, u32)> {
    let mut spans = Vec::new();
    let mut level = 0;
    while level < levels {
        let two = module.volume_pyramid.is_some()
            && level + 1 < levels
            && shape(level).iter().all(|&n| n % 4 == 0);
        let n = if two { VOLUME_PAIRS_MAX_DEPTH } else { 1 };
        spans.push((level, n));
        level += n;
    }
    spans
}

/// [`pair_volume`] in the interleaved layout, where each block's coefficients take its
/// samples' places: every launch reads the source (the inverse: the blocks' low coefficients
/// from the data, where the coarser launch wrote them, but at the coarsest) and writes the
/// data, each work-item where it read, so that the source may be the data.
fn interleaved_pair_volume(
    module: &KernelModule,
    spans: &[(u32, u32)],
    launch_of: impl Fn(u32, [usize; 3], Vec<Buffer>, Vec<usize>) -> Result<Step, String>,
    [depth, height, width]: [usize; 3],
) -> Result<LaunchPlan, String> {
    let forward = module.direction == Direction::Forward;
    let launch = |b: usize| -> Result<Step, String> {
        let (level, levels) = spans[b];
        let side = 1 << levels;
        let [d, h, w] = [depth, height, width].map(|n| band_shape(n, level));
        let s = 1usize << level;
        let buffers = match forward {
            true if b == 0 => vec![Buffer::Source, Buffer::Data],
            true => vec![Buffer::Data, Buffer::Data],
            false if b + 1 == spans.len() => vec![Buffer::Source, Buffer::Source, Buffer::Data],
            false => vec![Buffer::Source, Buffer::Data, Buffer::Data],
        };
        let ints = vec![
            w / side,
            h / side,
            d / side,
            s,
            s * width,
            s * height * width,
        ];
        launch_of(levels, [d, h, w], buffers, ints)
    };
    let steps = match forward {
        true => (0..spans.len()).map(launch).collect::<Result<_, _>>()?,
        false => (0..spans.len())
            .rev()
            .map(launch)
            .collect::<Result<_, _>>()?,
    };
    Ok(LaunchPlan {
        steps,
        scratch: 0,
        reads_source: true,
        fused: true,
        source_may_be_data: true,
    })
}

/// Whether the one-pass volume kernels lift a band of `[depth, height, width]` samples: an
/// axis of one sample has no lifting along it, which the kernels always do, and a plane must
/// stay within their `int` indices.
fn volume_fits([depth, height, width]: [usize; 3]) -> bool {
    depth >= 2
        && height >= 2
        && width >= 2
        && height
            .checked_mul(width)
            .is_some_and(|n| n <= i32::MAX as usize)
}

/// The groups a one-pass forward launch's planes are split towards ([`volume_segment`]). On an
/// H200 (BENCHMARKS.md) a 256^3 band took 0.062 ms at 32 planes a group (256 groups), 0.066 at
/// 16 and 0.065 at 8 (LeGall 5/3; CDF 9/7 0.074, 0.085, 0.102); a 128^3 band 0.043 ms at 32
/// planes (32 groups) and 0.016 at 8 (CDF 9/7 0.052 and 0.022).
const VOLUME_FORWARD_GROUPS: usize = 256;
/// The same for the inverse's launch: at 256^3, 16 planes a group (640 groups) took 0.93 (LeGall
/// 5/3) and 0.96 (CDF 9/7) of three levels' time at 32 (320 groups).
const VOLUME_INVERSE_GROUPS: usize = 512;
/// The fewest planes a group of a one-pass volume launch lifts: the margin of planes either
/// side (two a pair of steps) is loaded and lifted again by each group.
const VOLUME_MIN_SEGMENT: usize = 8;
/// The fewest groups with which a forward level past the first takes the one-pass kernel rather
/// than the two passes: a 128^3 band (128 groups of 8 planes) took 0.016 ms against the two
/// passes' 0.022 (LeGall 5/3; CDF 9/7 0.022 against 0.025), a 64^3 band (16 groups) is one
/// group's chain of planes, where the two passes took 0.010-0.012 ms against 0.043 at 32 groups.
const VOLUME_COARSE_GROUPS: usize = 128;

/// Planes per group of a one-pass volume launch over a band of `[d, h, w]` samples, and its
/// groups: [`VOLUME_SEGMENT`], halved (down to [`VOLUME_MIN_SEGMENT`]) while the launch has
/// fewer groups than `towards`. A small band's launch otherwise lasts one group's chain of
/// planes.
fn volume_segment(volume: &VolumePass, [d, h, w]: [usize; 3], towards: usize) -> (usize, usize) {
    let [tx, ty] = volume.tile;
    let tiles = w.div_ceil(tx) * h.div_ceil(ty);
    let mut segment = VOLUME_SEGMENT;
    while segment > VOLUME_MIN_SEGMENT && tiles * d.div_ceil(segment) < towards {
        segment /= 2;
    }
    (segment, tiles * d.div_ceil(segment))
}

/// The one-pass volume kernel's launches of a volume's levels in `direction` (the forward's
/// finest first, the inverse's coarsest first), how many levels they lift (from level 0) and
/// the scratch they need (samples). The interleaved layout: level 0 alone. The Mallat layout:
/// level 0 and each level past it whose launch has [`VOLUME_COARSE_GROUPS`] groups or more
/// (or `every_level`), all with the volume's pitches. The forward reads band 0 from the
/// source, stores each launch's high octants in their places in the data and its low octant
/// (the next band) in the scratch, the last launch's in the data, where the two passes take up
/// the levels left. The inverse, after the two passes have lifted the levels left (leaving
/// their last band where the kernel reads it), reads each band's high octants from the source
/// and its low octant from where the coarser launch left it (the coarsest in the source), and
/// writes the band to the scratch, level 0's to the data. The bands in the scratch alternate
/// between its origin and the rows below band 1 ([`band_place`]), so that no launch writes
/// where it reads.
fn volume_launches(
    volume: &VolumePass,
    direction: Direction,
    layout: Layout,
    every_level: bool,
    [depth, height, width]: [usize; 3],
    levels: u32,
) -> Result<(Vec<Launch>, u32, usize), String> {
    let forward = direction == Direction::Forward;
    let towards = match forward {
        true => VOLUME_FORWARD_GROUPS,
        false => VOLUME_INVERSE_GROUPS,
    };
    let shape = |level: u32| [depth, height, width].map(|n| band_shape(n, level));
    let [tx, ty] = volume.tile;
    let launch = |level: u32, buffers: Vec<Buffer>, pitches: &[usize]| {
        let [d, h, w] = shape(level);
        let (segment, _) = volume_segment(volume, [d, h, w], towards);
        Ok::<_, String>(Launch {
            kernel: volume.kernel.clone(),
            pass: Pass::Volume,
            groups: [w.div_ceil(tx), h.div_ceil(ty), d.div_ceil(segment)],
            block: [VOLUME_THREADS, 1],
            buffers,
            ints: [d, h, w, segment]
                .iter()
                .chain(pitches)
                .map(|&n| int(n))
                .collect::<Result<_, _>>()?,
        })
    };
    if levels == 0 || !volume_fits(shape(0)) {
        return Ok((Vec::new(), 0, 0));
    }
    if layout == Layout::Interleaved {
        let buffers = match (forward, levels) {
            (true, _) => vec![Buffer::Source, Buffer::Data],
            (false, 1) => vec![Buffer::Source, Buffer::Source, Buffer::Data],
            (false, _) => vec![Buffer::Source, Buffer::Scratch, Buffer::Data],
        };
        return Ok((vec![launch(0, buffers, &[])?], 1, 0));
    }
    let lifted = (0..levels)
        .take_while(|&l| {
            let groups = volume_segment(volume, shape(l), towards).1;
            volume_fits(shape(l)) && (l == 0 || every_level || groups >= VOLUME_COARSE_GROUPS)
        })
        .count() as u32;
    // Where band `level` lies: (buffer, base).
    let place = |level: u32| match level {
        0 if forward => (Buffer::Source, 0),
        0 => (Buffer::Data, 0),
        l if forward && l == lifted => (Buffer::Data, 0),
        l if !forward && l == levels => (Buffer::Source, 0),
        l => (Buffer::Scratch, band_place([height, width], l)),
    };
    let level_launch = |level: u32| {
        let (band, low) = (place(level), place(level + 1));
        match forward {
            true => launch(
                level,
                vec![band.0, Buffer::Data, low.0],
                &[band.1, low.1, width, height * width],
            ),
            false => launch(
                level,
                vec![Buffer::Source, low.0, band.0],
                &[low.1, band.1, width, height * width],
            ),
        }
    };
    let launches = match forward {
        true => (0..lifted).map(level_launch).collect::<Result<_, _>>()?,
        false => (0..lifted)
            .rev()
            .map(level_launch)
            .collect::<Result<_, _>>()?,
    };
    // Band 1's planes with the volume's pitches (band 2 lies within them).
    let scratch = match lifted {
        0 | 1 => 0,
        _ => shape(1)[0] * height * width,
    };
    Ok((launches, lifted, scratch))
}

/// Where band `level` (1 or more) of a volume's one-pass launches lies in the scratch, with the
/// volume's pitches: bands 1, 3, ... at its origin, 2, 4, ... below band 1's rows, so that a
/// launch never writes the band it reads.
fn band_place([height, width]: [usize; 2], level: u32) -> usize {
    match level % 2 {
        1 => 0,
        _ => band_shape(height, 1) * width,
    }
}

/// CUDA's grid limit along y and z: the most planes one launch of the fused kernel takes, and
/// the most groups of a pyramid launch (one per block of rows).
const MAX_GRID_YZ: usize = 65535;

struct Planner<'a> {
    module: &'a KernelModule,
    steps: Vec<Step>,
    needs_scratch: bool,
    /// The buffer the band being lifted is in: the data, or the scratch between the passes of a
    /// level that read one and write the other.
    at: Buffer,
    /// Whether the next pass that launches reads the source instead of `at`: the forward's
    /// rows kernel at level 0 (the whole input, not yet copied anywhere), the inverse's first
    /// window of each level (with `lows`).
    first_from_source: bool,
    /// Where that window reads the band's low quadrant (the data, below the coarsest level).
    lows: Option<Buffer>,
}

/// How a pass of a level moves the band between the data and the scratch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Move {
    /// Nothing to lift along the axis (a line of one sample), or lifted in place.
    Stays,
    /// Reads the buffer the band is in and writes the other.
    Crosses,
    /// Either (the rows kernel): chosen so that the band ends the level in the data.
    Either,
}

impl Planner<'_> {
    /// One level's passes along `axes`, in that order, each reading the buffer the band is in.
    /// Passes that must read one buffer and write the other (the sliding window in the Mallat
    /// layout or over column segments, the row segments) alternate between the data and the
    /// scratch; the rows kernel, which may do either, is chosen to bring the band back to the
    /// data, else the level starts from a copy of the band in the scratch.
    fn level(&mut self, b: &Band, axes: [Axis; 3]) -> Result<(), String> {
        let moves = axes
            .iter()
            .map(|&axis| self.move_of(b, axis))
            .collect::<Result<Vec<_>, String>>()?;
        let crossings = moves.iter().filter(|&&m| m == Move::Crosses).count();
        let either = moves.contains(&Move::Either);
        if crossings % 2 == 1 && !either {
            self.copy_band(b);
            self.at = Buffer::Scratch;
        }
        for (&axis, &m) in axes.iter().zip(&moves) {
            let cross = match m {
                Move::Stays => false,
                Move::Crosses => true,
                Move::Either => crossings % 2 == 1,
            };
            let to = match (cross, self.at) {
                (false, at) => at,
                (true, Buffer::Data) => Buffer::Scratch,
                (true, _) => Buffer::Data,
            };
            self.needs_scratch |= to == Buffer::Scratch;
            match axis {
                Axis::X => self.rows(b, to)?,
                Axis::Y | Axis::Z => self.sliding(b, axis, to)?,
            }
            self.at = to;
        }
        debug_assert!(self.at == Buffer::Data, "a level ended in the scratch");
        Ok(())
    }

    /// How the pass along `axis` of band `b` moves it.
    fn move_of(&self, b: &Band, axis: Axis) -> Result<Move, String> {
        let m = self.module;
        if axis == Axis::X && b.n[2] <= m.config.row_limit(m.elem) {
            return Ok(Move::Either);
        }
        if axis == Axis::X && m.row_segments.is_some() {
            return Ok(Move::Crosses);
        }
        let along = window_axes(axis).0;
        if b.n[along] < 2 {
            return Ok(Move::Stays);
        }
        let wraps = m.vertical.wraps;
        let split = b.n[along] > window_segment(m, b, axis)?;
        Ok(if m.layout == Layout::Mallat || split || wraps {
            Move::Crosses
        } else {
            Move::Stays
        })
    }

    /// Copies band `b` from the data to the same place in the scratch (an interleaved band's
    /// samples lie `step` apart along its rows: the span of each row).
    fn copy_band(&mut self, b: &Band) {
        self.needs_scratch = true;
        self.steps.push(Step::Copy(BandCopy {
            extents: [b.n[0], b.n[1], (b.n[2] - 1) * b.step[2] + 1],
            row_pitch: b.step[1],
            plane_pitch: b.step[0],
        }));
    }

    /// The row pass into `to` (run even for rows of one sample: it applies the pre-shift). Rows
    /// of at most `row_limit` samples take the rows kernel; longer rows the row-segments
    /// kernel, many groups per row (a program without one: the sliding-window kernel along
    /// the row, with the shift kernel before it (forward) or after it (inverse), one group per
    /// 32 rows).
    fn rows(&mut self, b: &Band, to: Buffer) -> Result<(), String> {
        let m = self.module;
        let from = self.at;
        if b.n[2] <= m.config.row_limit(m.elem) {
            let from = match std::mem::take(&mut self.first_from_source) {
                true => Buffer::Source,
                false => from,
            };
            return self.row_kernel(&m.rows_kernel, Pass::Rows, b, vec![from, to]);
        }
        if let Some(s) = &m.row_segments {
            self.steps.push(Step::Launch(Launch {
                kernel: s.kernel.clone(),
                pass: Pass::RowSegments,
                groups: [b.n[2].div_ceil(2).div_ceil(s.segment), b.n[1], b.n[0]],
                block: [m.config.row_group_size, 1],
                buffers: vec![from, to],
                ints: row_ints(b)?,
            }));
            return Ok(());
        }
        let shift = m.shift_kernel.as_deref();
        if let (Some(k), Direction::Forward) = (shift, m.direction) {
            self.row_kernel(k, Pass::Shift, b, vec![from])?;
        }
        self.sliding(b, Axis::X, to)?;
        if let (Some(k), Direction::Inverse) = (shift, m.direction) {
            self.row_kernel(k, Pass::Shift, b, vec![to])?;
        }
        Ok(())
    }

    /// A kernel with the rows kernel's launch (one group per row and plane) and its `int`
    /// parameters, on `buffers`.
    fn row_kernel(
        &mut self,
        name: &str,
        pass: Pass,
        b: &Band,
        buffers: Vec<Buffer>,
    ) -> Result<(), String> {
        let wg = self.module.config.row_group_size;
        self.steps.push(Step::Launch(Launch {
            kernel: name.to_string(),
            pass,
            groups: [b.n[1], b.n[0], 1],
            block: [wg, 1],
            buffers,
            ints: row_ints(b)?,
        }));
        Ok(())
    }

    /// The sliding-window kernel along `axis` of band `b` (the columns along y, the depth
    /// along z (section IV-G: slabs in the x-z plane, planes along y), long rows along x), from
    /// the buffer the band is in to `to` (nothing for lines of fewer than 2 samples).
    fn sliding(&mut self, b: &Band, axis: Axis, to: Buffer) -> Result<(), String> {
        let (from, lows) = match self.first_from_source {
            true => (Buffer::Source, self.lows),
            false => (self.at, None),
        };
        if let Some(launch) = window_launch(self.module, b, axis, from, lows, to)? {
            self.steps.push(Step::Launch(launch));
            self.first_from_source = false;
        }
        Ok(())
    }
}
