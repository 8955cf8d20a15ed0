//! The emitter proper: helpers, the horizontal (row) pass and the sliding-window vertical (column)
//! pass of one lifting program, for one element type and layout.

use dwt_ir::{Boundary, Coeff, Direction, Op, Program, Sign, Step, Wavelet};

use crate::dialect::{Dialect, Param};
use crate::level_pair::{
    LevelPairPass, LEVEL2_Y_SEGMENT, LEVEL_PAIR_SEGMENT, LEVEL_PAIR_THREADS, LEVEL_PAIR_TILE,
};
use crate::plan::LaunchPlan;
use crate::pyramid::{pair_local, PyramidPass, PYRAMID_MAX_DEPTH};
use crate::row_segments::{row_segments, step_margins, RowSegments, ROW_SEGMENT_WIDTH};
use crate::tile::TilePass;
use crate::volume::{self, two_tap_pairs, volume_element, VolumePass, VOLUME_TILE};
use crate::volume_inverse::{MAX_INVERSE_PAIRS, VOLUME_INVERSE_TILE};
use crate::volume_pairs::VOLUME_PAIRS_MAX_DEPTH;
use crate::writer::{mentions, Writer};
use dwt_ir::{ElementType, Layout};

use crate::{is_integer, EmitError, LaunchConfig, Strategy};

/// The vertical window the kernels were emitted for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerticalGeometry {
    pub top: usize,
    pub overlap: usize,
    pub bottom: usize,
    /// The working height `H` actually used (the config's, raised to the program's minimum).
    pub height: usize,
    pub lags: Vec<i32>,
    /// Rows of the local window: `top + overlap + bottom + H`.
    pub window_rows: usize,
}

impl VerticalGeometry {
    pub fn carried(&self) -> usize {
        self.top + self.overlap + self.bottom
    }

    /// Columns with fewer rows fit one window.
    pub fn min_sliding_rows(&self) -> usize {
        self.height + self.bottom
    }
}

/// The vertical (column and depth) kernels of a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerticalPass {
    /// `(src, dst, base, col_step, row_step, plane_step, rows, cols, segment, margin)` (the
    /// inverse's: `(src, lows, dst, ..., margin, low_cols, low_planes)`, below): groups of
    /// `slab_width x slab_rows`, one per slab of columns (group x), plane (group y) and segment
    /// of `segment` rows of the columns (group z; `segment` even); sample `r` of column `c` of
    /// plane `p` is at `base + p * plane_step + c * col_step + r * row_step`. A group lifts
    /// `margin` rows (even, at least [`margin`](Self::margin)) beyond either end of its segment
    /// where the column goes on, and stores its segment only. The same kernel runs the columns
    /// of a 2-D band (one plane), the columns of every z-slice of a 3-D band (planes along z) and
    /// its z-lines (section IV-G: slabs in the x-z plane, planes along y, `row_step` the slice
    /// pitch). `dst` may be `src` for the interleaved layout with one segment; Mallat, and more
    /// than one segment, need `dst != src` (writes land on rows other windows still read).
    /// The inverse reads the low rows (even `r`) of the columns `c < low_cols` of the planes
    /// `p < low_planes` (interleaved: of those with `c` and `p` even) from `lows`, everything else
    /// from `src`: a band's low quadrant (or octant), written by the coarser level, beside high
    /// bands still in the input. `lows` may be `src`, and `low_cols = 0` reads nothing from it.
    pub columns_kernel: String,
    /// The rows a column segment lifts beyond either end of what it stores for the values it
    /// stores to be the whole column's: twice the program's reach in polyphase indices (the sum
    /// over steps of the farthest tap, plus one per step for the boundary rule at the
    /// segment's end).
    pub margin: usize,
    pub geometry: VerticalGeometry,
    /// The kernel reads its lines modulo their length (a periodic boundary): every segment, the
    /// whole line's too, lifts `margin` rows past either end, and `dst != src`.
    pub wraps: bool,
}

/// The emitted source of one program (a wavelet in one direction) for one element type and layout.
#[derive(Clone, Debug)]
pub struct KernelModule {
    /// The header comment and helpers.
    prelude: String,
    /// The same for kernels that address their data by arguments alone, naming no layout: one
    /// program for both layouts; without the boundary rule's `resolve`, which NVRTC warns of
    /// where no kernel of a program calls it.
    prelude_any_layout: String,
    /// The same with `resolve`, for kernels that call it (the fused kernels' general path).
    prelude_any_layout_resolving: String,
    /// Each kernel on its own, in the order of `source`.
    kernels: Vec<ModuleKernel>,
    /// `(src, dst, base, sample_step, row_step, plane_step, n, rows)`: one group of
    /// `row_group_size` work-items per row (group x) and plane (group y), the row at
    /// `src/dst[base + plane * plane_step + row * row_step + i * sample_step]` (`dst` may be
    /// `src`); pre-shift fused (forward: on load, inverse: undone on store). The executor runs
    /// it on rows of at most `LaunchConfig::row_limit` samples; longer rows take the
    /// row-segments kernel or the sliding `columns_kernel` along the row.
    pub rows_kernel: String,
    /// The VC-2 pre-shift alone (forward: `x <<= shift`, inverse: rounded back), with the rows
    /// kernel's parameters and launch: for bands whose rows are too long for the rows kernel,
    /// run before the sliding row pass (forward) or after it (inverse). Emitted with the
    /// vertical kernels when the wavelet shifts.
    pub shift_kernel: Option<String>,
    /// The row-segments kernel, which lifts rows longer than `LaunchConfig::row_limit` in
    /// segments of many groups per row; `None` for a periodic boundary (those rows then take the
    /// sliding kernel, which reads them modulo their length).
    pub row_segments: Option<RowSegments>,
    /// The sliding window's kernels, which lift along y and z.
    pub vertical: VerticalPass,
    /// The fused 2-D kernel, or why there is none (a tile too large for local memory, the
    /// two-pass strategy): the planner then runs the two passes.
    pub tile: Result<TilePass, EmitError>,
    /// The fused kernel on the tiles of the small bands
    /// ([`LaunchConfig::small_band_config`](crate::LaunchConfig::small_band_config)), where the
    /// module has one: the fused plan lifts bands of at most [`SMALL_BAND`](crate::SMALL_BAND)
    /// samples with it where its tiles are proven exact.
    pub small_tile: Option<TilePass>,
    /// The pyramid kernels ([`PyramidPass`]), by depth, where the program is pair-local
    /// ([`pair_local`]) and the strategy fused, in 2-D modules: the fused plan lifts the first
    /// levels of a 2-D transform whose sides they divide with them.
    pub pyramids: Vec<PyramidPass>,
    /// The even-rows kernel (module `even_rows`) of an interleaved 2-D forward module of the
    /// fused strategy with [`LaunchConfig::even_rows_from`](crate::LaunchConfig::even_rows_from):
    /// the fused plan's last launch over two or more levels of a large enough image.
    pub even_rows: Option<String>,
    /// With [`even_rows`](Self::even_rows): the configured fused kernel (`tile`'s tiles) storing
    /// subband (0, 1) with the low band ([`TilePass::band01_with_low`]), which the even-rows plan
    /// launches for the first level.
    pub even_rows_tile: Option<TilePass>,
    /// The level-pair kernel ([`LevelPairPass`]) of a 2-D forward module of the fused strategy,
    /// Mallat layout, stored in its working type, with
    /// [`LaunchConfig::level_pairs_from`](crate::LaunchConfig::level_pairs_from): the fused
    /// plan's first launch over two or more levels of a large enough image.
    pub level_pair: Option<LevelPairPass>,
    /// The one-pass volume kernel ([`VolumePass`]) of a 3-D module where it applies
    /// ([`LaunchConfig::one_pass_volumes`](crate::LaunchConfig::one_pass_volumes)): the fused
    /// plan lifts a volume's finest level with it, and in the Mallat layout the coarser levels
    /// whose launch has groups enough.
    pub volume: Option<VolumePass>,
    /// The pair-local volume kernel (module `volume_pairs`) of a 3-D module of a
    /// pair-local program ([`pair_local`]) where
    /// [`LaunchConfig::pair_volumes`](crate::LaunchConfig::pair_volumes) allows it: the
    /// fused plan lifts every level of a volume whose bands' sides are all even with it, one
    /// launch a level.
    pub volume_pairs: Option<String>,
    /// The pair-local volume pyramid (module `volume_pairs`), with
    /// [`volume_pairs`](Self::volume_pairs): two levels in one launch, a 4x4x4 block a
    /// work-item; the fused plan lifts each two levels whose first band's sides are multiples
    /// of four with it.
    pub volume_pyramid: Option<String>,
    /// The program the kernels lift (the wavelet's, in `direction`) and its boundary rule.
    pub program: Program,
    pub boundary: Boundary,
    pub elem: ElementType,
    pub layout: Layout,
    pub direction: Direction,
    pub config: LaunchConfig,
}

impl KernelModule {
    /// The whole module: its header comment and helpers, then every kernel below.
    pub fn source(&self) -> String {
        self.assemble(|_| true)
    }

    /// The module's source with only the kernels `plan` launches: what executors build. A
    /// compiler may compile every kernel of a program (PoCL does, when it is built), and most
    /// plans launch one or two of the module's kernels (a 1-D transform its rows, a fused 2-D
    /// one its tile).
    pub fn source_for(&self, plan: &LaunchPlan) -> String {
        self.source_for_plans(&[plan])
    }

    /// The source of the kernels any of `plans` launches (an executor's plan and its in-place
    /// alternative), as [`source_for`](Self::source_for).
    pub fn source_for_plans(&self, plans: &[&LaunchPlan]) -> String {
        let launched: Vec<&str> = plans.iter().flat_map(|p| p.kernels()).collect();
        self.assemble(|k| launched.contains(&k.name.as_str()))
    }

    /// The name of every kernel of the module, in module order: each has a
    /// [`kernel_source`](Self::kernel_source).
    pub fn kernel_names(&self) -> impl Iterator<Item = &str> {
        self.kernels.iter().map(|k| k.name.as_str())
    }

    /// The source of kernel `name` alone, or `None` where the module has no such kernel: for an
    /// executor that builds each kernel once, however its plans combine them (a module's plans
    /// for different shapes launch different sets: the fused kernel alone, it and the sliding
    /// window, the rows kernel alone...).
    pub fn kernel_source(&self, name: &str) -> Option<String> {
        (self.kernels.iter().any(|k| k.name == name)).then(|| self.assemble(|k| k.name == name))
    }

    /// The prelude then the chosen kernels, in module order; the prelude names no layout when
    /// every chosen kernel takes any (never all of them: the rows kernel does not).
    /// Each helper a chosen kernel calls comes once, before the first of them.
    fn assemble(&self, chosen: impl Fn(&ModuleKernel) -> bool) -> String {
        let chosen: Vec<&ModuleKernel> = self.kernels.iter().filter(|k| chosen(k)).collect();
        let mut helpers: Vec<&str> = Vec::new();
        let sources: Vec<String> = chosen
            .iter()
            .map(|k| {
                let new = !k.helpers.is_empty() && !helpers.contains(&k.helpers.as_str());
                if new {
                    helpers.push(&k.helpers);
                    k.helpers.clone() + &k.source
                } else {
                    k.source.clone()
                }
            })
            .collect();
        let resolves =
            |k: &&ModuleKernel| mentions(&k.source, "resolve") || mentions(&k.helpers, "resolve");
        let prelude = match (
            chosen.iter().all(|k| k.any_layout),
            chosen.iter().any(resolves),
        ) {
            (false, _) => &self.prelude,
            (true, true) => &self.prelude_any_layout_resolving,
            (true, false) => &self.prelude_any_layout,
        };
        prelude.clone() + &sources.join("\n")
    }
}

/// One kernel of a module.
#[derive(Clone, Debug)]
struct ModuleKernel {
    name: String,
    source: String,
    /// Whether it takes every buffer's addressing as arguments (the fused kernel: each subband's
    /// base and steps), so that the layout's helpers and name stay out of its program.
    any_layout: bool,
    /// Functions it calls that are not in the prelude (the fused kernels' `reflect()`), shared
    /// by kernels of the module that call the same: written once before the first of them.
    helpers: String,
}

/// The most a size baked into the kernels may be: they write it as an `int` literal, an array
/// extent or a `reqd_work_group_size` argument (32-bit unsigned).
const MAX_KERNEL_INT: usize = i32::MAX as usize;

/// Refuses work-group and window sizes the kernels cannot hold as 32-bit ints: past them the
/// source does not compile (PoCL: "integer constant expression evaluates to value ... that
/// cannot be represented in a 32-bit unsigned integer type", "call to 'min' is ambiguous"),
/// with a compiler's log that names no setting, and `usize::MAX` overflowed the emitter's own
/// arithmetic (the window's height rounded up to even). No device runs groups or windows
/// nearly this large: the executors' checks against the device's limits refuse far smaller
/// ones, naming the settings to lower.
fn check_int_sizes(config: &LaunchConfig) -> Result<(), EmitError> {
    let small_threads = config.small_band_shape.map_or(1, |(_, threads, _)| threads);
    let group = [config.row_group_size, config.tile_threads, small_threads];
    if group.iter().any(|&n| n > MAX_KERNEL_INT) {
        return Err(EmitError::Config(
            "row_group_size, tile_threads and small_band_shape's work-items must fit a 32-bit int (the kernels' work-group sizes); lower them to what the device runs (at most 1024 on CUDA)",
        ));
    }
    let slab = config.slab_width.checked_mul(config.slab_rows);
    if config.window_height > MAX_KERNEL_INT || !slab.is_some_and(|n| n <= MAX_KERNEL_INT) {
        return Err(EmitError::Config(WINDOW_TOO_LARGE));
    }
    Ok(())
}

/// What [`check_int_sizes`] and [`check_window_rows`] say of a sliding window too large.
const WINDOW_TOO_LARGE: &str = "window_height x slab_width (the sliding window's local array) and slab_width x slab_rows (its work-groups) must fit a 32-bit int; lower them to what the device's local memory and work-group size hold";

/// Refuses a sliding window whose local array (`geometry`'s rows of `slab_width` values) has
/// more values than a 32-bit int counts, as [`check_int_sizes`] does its parts.
fn check_window_rows(geometry: &VerticalGeometry, config: &LaunchConfig) -> Result<(), EmitError> {
    let values = geometry.window_rows.checked_mul(config.slab_width);
    if !values.is_some_and(|n| n <= MAX_KERNEL_INT) {
        return Err(EmitError::Config(WINDOW_TOO_LARGE));
    }
    Ok(())
}

/// Emits the row and column kernels of `wavelet` in `direction`.
pub fn emit_module(
    dialect: &dyn Dialect,
    wavelet: &Wavelet,
    direction: Direction,
    elem: ElementType,
    layout: Layout,
    config: &LaunchConfig,
) -> Result<KernelModule, EmitError> {
    if wavelet.kind != elem.kind() {
        return Err(EmitError::KindMismatch {
            wavelet: wavelet.name.clone(),
            kind: wavelet.kind,
            elem,
        });
    }
    if let Some((direction, value)) = wavelet.unrepresentable_coefficient(elem) {
        return Err(EmitError::Unrepresentable {
            wavelet: wavelet.name.clone(),
            direction,
            value: format!("{value:e}"),
            elem,
        });
    }
    if config.row_group_size == 0 || config.slab_width == 0 || config.slab_rows == 0 {
        return Err(EmitError::Config("work-group dimensions must be positive"));
    }
    if config.tile[0] == 0 || config.tile[1] == 0 || config.tile_threads == 0 {
        return Err(EmitError::Config(
            "fused tile and group sizes must be positive",
        ));
    }
    if config.max_row_len < 2 {
        return Err(EmitError::Config("max_row_len must be at least 2"));
    }
    check_int_sizes(config)?;
    let moved = scales_moved_last(wavelet)?;
    let scales_moved = moved.is_some();
    let wavelet = moved.as_ref().unwrap_or(wavelet);
    let program = wavelet.program_for(direction);
    let (on_read, on_write) = edge_scales(&program.ops);
    let geometry = {
        let window = program.sliding_window(wavelet.boundary.window_rule());
        let mut height = config.window_height.max(window.min_height as usize).max(2);
        height += height % 2;
        VerticalGeometry {
            top: window.top as usize,
            overlap: window.overlap as usize,
            bottom: window.bottom as usize,
            height,
            lags: window.lags.clone(),
            window_rows: (window.top + window.overlap + window.bottom) as usize + height,
        }
    };

    check_window_rows(&geometry, config)?;
    let dir = match direction {
        Direction::Forward => "forward",
        Direction::Inverse => "inverse",
    };
    let prefix = format!("{}_{dir}", wavelet.name.to_lowercase());
    let rows_kernel = dialect.kernel_name(&prefix, elem, "rows");
    let columns_kernel = dialect.kernel_name(&prefix, elem, "columns");
    let shift_kernel = dialect.kernel_name(&prefix, elem, "shift");
    let e = Emitter {
        d: dialect,
        wavelet,
        direction,
        elem,
        layout,
        cfg: config,
        ops: &program.ops,
        geometry: Some(&geometry),
        on_read,
        on_write,
        group_inner_taps: true,
        edge_load_at_once: false,
        band01_with_low: false,
        scales_moved,
    };
    let prelude_for = |layout: Option<Layout>, resolve: bool| {
        let mut w = Writer::new();
        e.header(&mut w, layout);
        e.helpers(&mut w, layout, resolve);
        w.finish()
    };
    // Each kernel is written on its own, so that an executor builds only those its plan launches.
    let kernel = |name: &str, any_layout: bool, write: &dyn Fn(&mut Writer)| {
        let mut w = Writer::new();
        write(&mut w);
        ModuleKernel {
            name: name.to_string(),
            source: w.finish(),
            any_layout,
            helpers: String::new(),
        }
    };
    let mut kernels = vec![kernel(&rows_kernel, false, &|w| e.rows(w, &rows_kernel))];
    let vertical = VerticalPass {
        columns_kernel: columns_kernel.clone(),
        geometry: geometry.clone(),
        margin: 2 * step_margins(&program.ops).last().copied().unwrap_or(0),
        wraps: e.wraps(),
    };
    let shift_kernel = e.pre_shifted().then(|| {
        kernels.push(kernel(&shift_kernel, false, &|w| e.shift(w, &shift_kernel)));
        shift_kernel
    });
    let width = ROW_SEGMENT_WIDTH.min(config.row_limit(elem).div_ceil(2));
    let row_segments =
        row_segments(&program.ops, wavelet.boundary, width).map(|(segment, margin)| {
            let name = dialect.kernel_name(&prefix, elem, "row_segments");
            kernels.push(kernel(&name, false, &|w| {
                e.row_segments_kernel(w, &name, segment, margin)
            }));
            RowSegments {
                kernel: name,
                segment,
                margin,
            }
        });
    kernels.push(kernel(&columns_kernel, false, &|w| {
        e.columns(w, &columns_kernel)
    }));
    // A fused kernel on the tiles of `e`'s configuration, its helpers apart (two fused kernels
    // of one module share them).
    let mut fused_kernel = |e: &Emitter, pass: &str| -> Result<TilePass, EmitError> {
        let (halo, layout, edges) = e.tile_plan(e.cfg.tile)?;
        let full_occupancy = e.full_occupancy(layout, edges);
        let e = &Emitter {
            group_inner_taps: !full_occupancy,
            edge_load_at_once: e.edge_load_at_once && !full_occupancy,
            ..*e
        };
        let name = dialect.kernel_name(&prefix, elem, pass);
        kernels.push(ModuleKernel {
            helpers: e.tile_helpers(edges),
            ..kernel(&name, true, &|w| e.tile(w, &name, &halo, layout, edges))
        });
        Ok(TilePass {
            kernel: name,
            tile: e.cfg.tile,
            threads: e.cfg.tile_threads,
            halo,
            planes: e.cfg.planes,
            edges,
            full_occupancy,
            band01_with_low: e.band01_with_low,
        })
    };
    // A two-pass module never launches the fused kernel: it is not emitted (nor compiled).
    let tile = match config.strategy {
        Strategy::TwoPass => Err(EmitError::NoTile(
            "the two-pass strategy (LaunchConfig::strategy) takes no fused pass".into(),
        )),
        Strategy::Fused => fused_kernel(&e, "tile"),
    };
    // The same kernel on smaller tiles, for the small bands of a fused plan.
    let small_config = config.small_band_config().filter(|_| tile.is_ok());
    let small_tile = small_config.as_ref().and_then(|small| {
        let small = Emitter {
            cfg: small,
            edge_load_at_once: true,
            ..e
        };
        fused_kernel(&small, "small_tile").ok()
    });
    let even_rows_applies = config.strategy == Strategy::Fused
        && config.even_rows_from.is_some()
        && !config.planes
        && layout == Layout::Interleaved
        && direction == Direction::Forward;
    let even_rows_tile = match &tile {
        Ok(_) if even_rows_applies => fused_kernel(
            &Emitter {
                band01_with_low: true,
                ..e
            },
            "even_rows_tile",
        )
        .ok(),
        _ => None,
    };
    // Not for the planes of a volume, whose fused plan lifts one level per launch.
    let pyramid_applies = config.strategy == Strategy::Fused
        && !e.wraps()
        && config.pyramids
        && !config.planes
        && pair_local(&program);
    let pyramids = if pyramid_applies {
        (2..=PYRAMID_MAX_DEPTH)
            .map(|depth| {
                let name = dialect.kernel_name(&prefix, elem, &format!("pyramid{depth}"));
                kernels.push(kernel(&name, true, &|w| e.pyramid(w, &name, depth)));
                PyramidPass {
                    kernel: name,
                    depth,
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    // Not where the pyramids take a 2-D transform's first levels (a pair-local program): the
    // plan would never launch it.
    let level_pair = match &tile {
        Ok(_) if config.level_pairs_from.is_some() && !config.planes && !pyramid_applies => {
            e.level_pair_geometry()
        }
        _ => None,
    }
    .map(|g| {
        let name = dialect.kernel_name(&prefix, elem, "level_pair");
        kernels.push(kernel(&name, true, &|w| e.level_pair(w, &name, g)));
        LevelPairPass {
            kernel: name,
            tile: LEVEL_PAIR_TILE,
            threads: LEVEL_PAIR_THREADS,
            segments: [LEVEL_PAIR_SEGMENT, LEVEL2_Y_SEGMENT],
            reach: g.reach(LEVEL_PAIR_TILE),
            full_occupancy: e.level_pair_capped(),
        }
    });
    let even_rows = even_rows_applies.then(|| {
        let name = dialect.kernel_name(&prefix, elem, "even_rows");
        kernels.push(kernel(&name, true, &|w| e.even_rows(w, &name)));
        name
    });
    let (max_pairs, volume_tile) = match direction {
        Direction::Forward => (volume::MAX_PAIRS, VOLUME_TILE),
        Direction::Inverse => (MAX_INVERSE_PAIRS, VOLUME_INVERSE_TILE),
    };
    let volume_steps =
        two_tap_pairs(&program, wavelet.boundary, direction, max_pairs).filter(|pairs| {
            // By default where it was measured faster than the two passes: in CUDA, and in
            // OpenCL the inverse of one pair (BENCHMARKS.md).
            let faster =
                dialect.warp_shuffles() || (direction == Direction::Inverse && pairs.len() == 1);
            config.planes
                && config.one_pass_volumes.unwrap_or(faster)
                && config.strategy == Strategy::Fused
                && volume_element(elem)
                && match direction {
                    Direction::Forward => on_read.is_none(),
                    Direction::Inverse => on_write.is_none(),
                }
        });
    let volume = volume_steps.map(|steps| {
        let name = dialect.kernel_name(&prefix, elem, "volume");
        kernels.push(ModuleKernel {
            helpers: e.volume_helpers(),
            ..kernel(&name, false, &|w| match direction {
                Direction::Forward => e.volume(w, &name, &steps),
                Direction::Inverse => e.volume_inverse(w, &name, &steps),
            })
        });
        VolumePass {
            kernel: name,
            tile: volume_tile,
        }
    });
    let volume_pairs = (config.planes
        && config.pair_volumes
        && config.strategy == Strategy::Fused
        && !e.wraps()
        && pair_local(&program))
    .then(|| {
        let name = dialect.kernel_name(&prefix, elem, "volume_pairs");
        kernels.push(kernel(&name, true, &|w| e.volume_pairs(w, &name, 1)));
        let pyramid = config.pyramids.then(|| {
            let pyramid = dialect.kernel_name(&prefix, elem, "volume_pyramid");
            kernels.push(kernel(&pyramid, true, &|w| {
                e.volume_pairs(w, &pyramid, VOLUME_PAIRS_MAX_DEPTH)
            }));
            pyramid
        });
        (name, pyramid)
    });
    let (volume_pairs, volume_pyramid) = match volume_pairs {
        Some((pairs, pyramid)) => (Some(pairs), pyramid),
        None => (None, None),
    };
    // The rows and columns kernels read through the boundary rule; of the kernels that take
    // any layout only the fused kernels' general path does.
    Ok(KernelModule {
        prelude: prelude_for(Some(layout), true),
        prelude_any_layout: prelude_for(None, false),
        prelude_any_layout_resolving: prelude_for(None, true),
        kernels,
        rows_kernel,
        shift_kernel,
        row_segments,
        vertical,
        tile,
        small_tile,
        pyramids,
        even_rows,
        even_rows_tile,
        level_pair,
        volume,
        volume_pairs,
        volume_pyramid,
        program: program.clone(),
        boundary: wavelet.boundary,
        elem,
        layout,
        direction,
        config: *config,
    })
}

/// `wavelet` with the scales between its steps moved after the last
/// ([`Program::with_scales_moved_last`](dwt_ir::Program::with_scales_moved_last)), `None` where
/// none falls between steps. The sliding window and the fused tiles apply scales only as samples
/// enter or leave them; a float program scaling between its steps runs so, with the results of
/// the program as written up to rounding. A scale between integer steps, which no kernel runs, is
/// refused (the language has no integer scales; only an IR built by hand does).
pub(crate) fn scales_moved_last(wavelet: &Wavelet) -> Result<Option<Wavelet>, EmitError> {
    if !wavelet.program.scales_between_steps() {
        return Ok(None);
    }
    match wavelet.program.with_scales_moved_last() {
        Some(program) => Ok(Some(Wavelet {
            program,
            ..wavelet.clone()
        })),
        None => Err(EmitError::ScaleBetweenSteps(wavelet.name.clone())),
    }
}

/// The (even, odd) factors the vertical window applies as rows are read (scales before the first
/// step) and written (scales after the last), as `sliding_window.rs` does; `ops` scales nowhere
/// else ([`scales_moved_last`]).
type EdgeScales = (Option<(f64, f64)>, Option<(f64, f64)>);

fn edge_scales(ops: &[Op]) -> EdgeScales {
    let first = ops.iter().position(|op| matches!(op, Op::Lift(_)));
    let last = ops.iter().rposition(|op| matches!(op, Op::Lift(_)));
    let (first, last) = (first.unwrap_or(0), last.unwrap_or(0));
    let product = |range: &[Op]| {
        let mut any = false;
        let f = range.iter().fold((1.0f64, 1.0f64), |(l, h), op| match op {
            Op::Scale { low, high } => {
                any = true;
                (l * low.to_f64(), h * high.to_f64())
            }
            Op::Lift(_) => (l, h),
        });
        any.then_some(f)
    };
    (product(&ops[..first]), product(&ops[last..]))
}

pub(crate) struct Emitter<'a> {
    pub(crate) d: &'a dyn Dialect,
    pub(crate) wavelet: &'a Wavelet,
    pub(crate) direction: Direction,
    pub(crate) elem: ElementType,
    pub(crate) layout: Layout,
    pub(crate) cfg: &'a LaunchConfig,
    pub(crate) ops: &'a [Op],
    pub(crate) geometry: Option<&'a VerticalGeometry>,
    pub(crate) on_read: Option<(f64, f64)>,
    pub(crate) on_write: Option<(f64, f64)>,
    /// Whether the register passes of the fused kernel's inner tiles sum each coefficient's
    /// taps first ([`step_body`](Self::step_body)'s `group_taps`): not in a kernel held to full
    /// occupancy, where the sums' temporaries spilled (Fidelity's forward on 32x16 tiles, 12
    /// bytes at 32 registers) and the products per tap did not.
    pub(crate) group_inner_taps: bool,
    /// Whether the fused kernel stores subband (0, 1) in `low`, with the low band's steps, at
    /// `high01_base` ([`TilePass::band01_with_low`](crate::TilePass::band01_with_low)).
    pub(crate) band01_with_low: bool,
    /// Whether the forward's edge tiles load every sample before storing any
    /// ([`Emitter::batched`] in one batch) rather than in batches of eight: in the small bands'
    /// kernel (asked for there, kept where the kernel is not held to full occupancy). Its levels are a fraction of a wave, so the
    /// registers cost no groups, and its edge tiles end each such level (BENCHMARKS.md).
    pub(crate) edge_load_at_once: bool,
    /// The wavelet's scales between steps were moved after the last ([`scales_moved_last`]):
    /// the header says the program it prints is not the one declared.
    pub(crate) scales_moved: bool,
}

/// The edge tiles of the fused pass of `wavelet` in `direction` for `elem` under `config`, or
/// `None` where it has no tile (no exact halo, or more local memory than
/// [`MAX_TILE_BYTES`](crate::MAX_TILE_BYTES)): what [`emit_module`] finds, without emitting.
pub(crate) fn fused_edges(
    wavelet: &Wavelet,
    direction: Direction,
    elem: ElementType,
    config: &LaunchConfig,
) -> Option<crate::EdgeTiles> {
    let moved = scales_moved_last(wavelet).ok()?;
    let wavelet = moved.as_ref().unwrap_or(wavelet);
    let program = wavelet.program_for(direction);
    let e = Emitter {
        // The dialect does not enter the tile's plan, only how it is written.
        d: &crate::OpenCl,
        wavelet,
        direction,
        elem,
        layout: Layout::Mallat,
        cfg: config,
        ops: &program.ops,
        geometry: None,
        on_read: None,
        on_write: None,
        group_inner_taps: true,
        edge_load_at_once: false,
        band01_with_low: false,
        scales_moved: false,
    };
    e.tile_plan(config.tile).ok().map(|(_, _, edges)| edges)
}

/// The body of a function `(int n, int q, int m)` returning polyphase index `m` of phase `q`
/// reflected about the end samples of a line of `n >= 2` samples until it lies in the line
/// (whole-sample symmetric, as `Boundary::Symmetric`).
///
/// The extension is even and periodic, so the inverse folds the index's magnitude by the period:
/// an unsigned division, about half the instructions of a signed one. Its edge tiles reflect
/// every index they read, and the signed form made their pass along y twice an inner tile's at
/// 1920x1080 (a clock64 probe); with the unsigned one the two-step inverses there ran 9-17%
/// faster and nothing at 8192^2 changed (H100, BENCHMARKS.md). Forms that fold once about each
/// end, with the division or a loop only for lines shorter than the halo, took 7-8 more
/// registers and ran those inverses up to 1.28x slower at 8192^2. The forward reflects once per
/// loaded row and column of an edge tile (a table), and keeps the signed form: under its
/// register cap the unsigned one spilled (Daubechies 9/7's tile kernel, 8 bytes).
pub(crate) fn reflection(w: &mut Writer, direction: Direction) {
    if direction == Direction::Inverse {
        w.line("const unsigned int period = 2 * (n - 1);");
        w.line("const int s = 2 * m + q;");
        w.line("int r = (int)((unsigned int)(s < 0 ? -s : s) % period);");
        w.line("r = r > n - 1 ? (int)period - r : r;");
        w.line("return (r - q) >> 1;");
    } else {
        w.line("const int period = 2 * (n - 1);");
        w.line("int r = (2 * m + q) % period;");
        w.line("r = r < 0 ? r + period : r;");
        w.line("r = r > n - 1 ? period - r : r;");
        w.line("return (r - q) / 2;");
    }
}

/// `var + k` written plainly.
pub(crate) fn offset(var: &str, k: i64) -> String {
    match k {
        0 => var.to_string(),
        k if k > 0 => format!("{var} + {k}"),
        k => format!("{var} - {}", -k),
    }
}

impl Emitter<'_> {
    /// A kernel: its opening line `sig`, the dialect's prologue, then `body`.
    pub(crate) fn kernel_block(&self, w: &mut Writer, sig: String, body: impl FnOnce(&mut Writer)) {
        w.block(sig, |w| {
            for line in self.d.kernel_prologue() {
                w.line(*line);
            }
            body(w)
        });
    }

    /// The buffers of the kernels between natural samples and subbands (the fused and pyramid
    /// kernels): `nat`, `low`, `high`, those the direction only reads as inputs.
    pub(crate) fn nat_low_high(&self) -> [Param; 3] {
        let forward = self.direction == Direction::Forward;
        let buffer = |name, read: bool| match read {
            true => Param::Input(name, self.elem),
            false => Param::Global(name, self.elem),
        };
        [
            buffer("nat", forward),
            buffer("low", !forward),
            buffer("high", !forward),
        ]
    }

    pub(crate) fn work(&self) -> &'static str {
        self.d.work_type(self.elem)
    }

    pub(crate) fn int(&self) -> bool {
        is_integer(self.elem)
    }

    /// A literal of the working type.
    pub(crate) fn literal(&self, v: f64) -> String {
        match self.elem {
            ElementType::I16 | ElementType::I32 => format!("{}", v as i32),
            ElementType::F32 => format!("{:?}f", v as f32),
            ElementType::F64 => format!("{v:?}"),
        }
    }

    pub(crate) fn coeff(&self, c: Coeff) -> String {
        match c.as_integer() {
            Some(i) if self.int() => format!("{}", i as i32),
            _ => self.literal(c.to_f64()),
        }
    }

    pub(crate) fn add(&self, a: &str, b: &str) -> String {
        if self.int() {
            format!("wrap_add({a}, {b})")
        } else {
            format!("{a} + {b}")
        }
    }

    pub(crate) fn sub(&self, a: &str, b: &str) -> String {
        if self.int() {
            format!("wrap_sub({a}, {b})")
        } else {
            format!("{a} - {b}")
        }
    }

    /// Whether an integer program multiplies (a tap of magnitude other than one, or a scale):
    /// `wrap_mul` is written only then. Every path of every kernel lifts with the same taps.
    fn multiplies(&self) -> bool {
        self.ops.iter().any(|op| match op {
            Op::Lift(step) => step.taps.terms().any(|(_, c)| !c.abs().is_one()),
            Op::Scale { low, high } => !low.is_one() || !high.is_one(),
        })
    }

    pub(crate) fn mul(&self, c: &str, x: &str) -> String {
        if self.int() {
            format!("wrap_mul({c}, {x})")
        } else {
            format!("{c} * {x}")
        }
    }

    /// The vertical geometry; only the vertical kernels call this, and they are emitted only
    /// when there is one.
    fn g(&self) -> &VerticalGeometry {
        self.geometry
            .expect("vertical kernels are emitted only with a geometry")
    }

    /// The module's header comment; `layout` `None` for kernels that take any layout.
    fn header(&self, w: &mut Writer, layout: Option<Layout>) {
        let dir = match self.direction {
            Direction::Forward => "forward (analysis)",
            Direction::Inverse => "inverse (synthesis)",
        };
        w.comment(format!(
            "{} kernels for wavelet `{}`, {dir}, {} storage ({} arithmetic), {}, boundary {}.",
            self.d.name(),
            self.wavelet.name,
            self.d.storage_type(self.elem),
            self.work(),
            match layout {
                Some(l) => format!("{} layout", l.name()),
                None => "any layout (subbands addressed by base and steps)".to_string(),
            },
            self.wavelet.boundary.name()
        ));
        if self.int() && self.wavelet.shift > 0 {
            w.comment(format!(
                "VC-2 pre-shift by {} bit{} per level, fused into the rows kernel; rows too long for it",
                self.wavelet.shift,
                if self.wavelet.shift == 1 { "" } else { "s" }
            ));
            w.comment("take the separate shift kernel.");
        }
        w.comment("Generated by dwt-emit-c from this program (one loop per line below):");
        if self.scales_moved {
            w.comment(
                "(the declared program with its scales between steps moved after the last and the",
            );
            w.comment("taps they passed rescaled: the same transform, up to rounding)");
        }
        for op in self.ops {
            w.comment(format!("    {op}"));
        }
        let c = self.cfg;
        w.comment(format!(
            "Rows kernel: {} work-items per row, rows of at most {} samples (row_limit), so each",
            c.row_group_size,
            c.row_limit(self.elem)
        ));
        w.comment(format!(
            "phase holds at most {} samples in local memory. Longer rows take the sliding-window kernel",
            c.row_limit(self.elem).div_ceil(2)
        ));
        w.comment(
            "along the row (row_step = sample spacing, col_step = row pitch, one line per row).",
        );
        if let Some(g) = self.geometry {
            w.comment(format!(
                "Vertical window (Algorithm 1): top {}, overlap {}, bottom {}, working height H = {},",
                g.top, g.overlap, g.bottom, g.height
            ));
            w.comment(format!(
                "so {} window rows; lags per step {:?}; slabs of {} columns x {} work-items per column.",
                g.window_rows, g.lags, c.slab_width, c.slab_rows
            ));
        }
        for l in self.d.preamble(self.elem) {
            w.line(l);
        }
        w.blank();
    }

    /// The helper functions; the boundary rule's `resolve()` with `resolve` only, the Mallat
    /// layout's index map with `layout` Mallat only.
    fn helpers(&self, w: &mut Writer, layout: Option<Layout>, resolve: bool) {
        let q = self.d.helper_qualifier();
        let (work, storage) = (self.work(), self.d.storage_type(self.elem));
        if self.int() {
            w.comment(
                "Two's-complement wrapping int arithmetic, as the CPU reference's wrapping i32:",
            );
            w.comment("signed overflow is undefined in C, unsigned arithmetic wraps. `>>` on a");
            w.comment(format!(
                "negative int is an arithmetic (floor) shift in {}.",
                self.d.name()
            ));
            // Only the helpers some kernel of the module calls: OpenCL compilers warn of unused
            // functions, and PoCL prints its warnings.
            let (ua, ub) = (self.d.int_as_uint("a"), self.d.int_as_uint("b"));
            let ops = [("wrap_add", "+"), ("wrap_sub", "-"), ("wrap_mul", "*")];
            for (name, op) in ops.into_iter().take(if self.multiplies() { 3 } else { 2 }) {
                let body = self.d.uint_as_int(&format!("{ua} {op} {ub}"));
                w.line(format!("{q} int {name}(int a, int b) {{ return {body}; }}"));
            }
            if self.pre_shifted() && self.direction == Direction::Forward {
                let shl = self.d.uint_as_int(&format!("{ua} << s"));
                w.line(format!(
                    "{q} int wrap_shl(int a, {} s) {{ return {shl}; }}",
                    self.d.uint_type()
                ));
            }
            w.blank();
        }
        w.comment(
            "Storage <-> working type. Integers are stored back with truncation, as `as` does.",
        );
        w.line(format!(
            "{q} {work} to_work({storage} x) {{ return ({work})x; }}"
        ));
        let store = match self.elem {
            ElementType::I16 => self.d.ushort_as_short(&format!(
                "({}){}",
                self.d.ushort_type(),
                self.d.int_as_uint("x")
            )),
            _ => "x".to_string(),
        };
        w.line(format!(
            "{q} {storage} to_elem({work} x) {{ return {store}; }}"
        ));
        w.blank();

        let shift = self.wavelet.shift;
        if self.int() && shift > 0 {
            match self.direction {
                Direction::Forward => {
                    w.comment(format!(
                        "VC-2 pre-shift (band <<= {shift}), stored and reloaded as the CPU reference does."
                    ));
                    w.line(format!(
                        "{q} int pre_shift(int x) {{ return to_work(to_elem(wrap_shl(x, {shift}u))); }}"
                    ));
                }
                Direction::Inverse => {
                    w.comment(format!(
                        "Undoes the VC-2 pre-shift of the stored value: (x + {}) >> {shift}.",
                        1u32 << (shift - 1)
                    ));
                    w.block(format!("{q} int undo_pre_shift(int x)"), |w| {
                        w.line("const int stored = to_work(to_elem(x));");
                        w.line(format!(
                            "return wrap_add(stored, {}) >> {shift};",
                            1u32 << (shift - 1)
                        ));
                    });
                }
            }
            w.blank();
        }

        if resolve {
            self.resolve_helper(w);
        }
        // Only the sliding window's columns kernel calls it.
        if layout == Some(Layout::Mallat) && self.geometry.is_some() {
            w.comment("Mallat layout: where natural sample r of a line whose low half has n_low samples is stored.");
            w.line(format!(
                "{q} int split_index(int r, int n_low) {{ return (r & 1) ? n_low + (r >> 1) : (r >> 1); }}"
            ));
            w.blank();
        }
    }

    fn resolve_helper(&self, w: &mut Writer) {
        let q = self.d.helper_qualifier();
        w.comment(format!(
            "Boundary rule `{}`: where a read of polyphase index m of phase q (0 even, 1 odd) lands",
            self.wavelet.boundary.name()
        ));
        w.comment("in a line of n >= 2 samples, as `Boundary::resolve`.");
        w.block(format!("{q} int resolve(int n, int q, int m)"), |w| {
            w.line("const int len = (n - q + 1) / 2;");
            w.block("if (m >= 0 && m < len)", |w| w.line("return m;"));
            match self.wavelet.boundary {
                Boundary::Clamp => {
                    w.line(format!("return {};", self.d.clamp_int("m", "0", "len - 1")))
                }
                Boundary::Symmetric => reflection(w, self.direction),
                Boundary::Periodic => {
                    w.line("int r = (2 * m + q) % n;");
                    w.line("r = r < 0 ? r + n : r;");
                    w.line("return (r - q) / 2;");
                }
            }
        });
        w.blank();
    }

    /// The body of one lifting step for target index `i`: `read(k)` is the source sample at
    /// polyphase offset `k`, `target` the target's lvalue. Integer steps start a sum at the
    /// rounding and shift it at the end, as the CPU reference; with `group_taps` each
    /// coefficient's taps are summed first and multiplied once (`acc = acc - 8 * (o0 + o7)`:
    /// a symmetric step's products halved, which NVVM does not do of itself), else each tap
    /// gets its product, in tap order. Both are exact: wrapping arithmetic distributes. Float
    /// steps are [`float_step_body`](Self::float_step_body), grouped either way.
    pub(crate) fn step_body(
        &self,
        w: &mut Writer,
        step: &Step,
        target: &str,
        read: &dyn Fn(i64) -> String,
        group_taps: bool,
    ) {
        if !self.int() {
            return self.float_step_body(w, step, target, read);
        }
        w.line(format!("{} acc = {};", self.work(), step.rounding as i32));
        for (c, ks) in tap_groups(step, group_taps) {
            let term = self.times_sum(c.abs(), &ks, read);
            let acc = if c.is_negative() {
                self.sub("acc", &term)
            } else {
                self.add("acc", &term)
            };
            w.line(format!("acc = {acc};"));
        }
        let prediction = if step.shift > 0 {
            format!("acc >> {}", step.shift)
        } else {
            "acc".to_string()
        };
        let updated = match step.sign {
            Sign::Add => self.add(target, &prediction),
            Sign::Sub => self.sub(target, &prediction),
        };
        w.line(format!("{target} = {updated};"));
    }

    /// `magnitude` times the sum of the samples at offsets `ks` (the product left out for a
    /// magnitude of one).
    fn times_sum(&self, magnitude: Coeff, ks: &[i64], read: &dyn Fn(i64) -> String) -> String {
        let mut reads = ks.iter().map(|&k| read(k));
        let first = reads.next().expect("a coefficient has a tap");
        let sum = if self.int() {
            reads.fold(first, |sum, x| self.add(&sum, &x))
        } else if ks.len() > 1 {
            let all: Vec<String> = std::iter::once(first).chain(reads).collect();
            format!("({})", all.join(" + "))
        } else {
            first
        };
        if magnitude.is_one() {
            sum
        } else {
            self.mul(&self.coeff(magnitude), &sum)
        }
    }

    /// A float step as its taps are written: the taps of one coefficient summed first and
    /// multiplied once (`o = o - c * (e0 + e1)`), the target updated group by group, so that with
    /// contraction each group is an addition and a fused multiply-add. The CPU reference adds
    /// every product to a sum started at zero; the two agree to rounding (floats are compared
    /// within a tolerance; integer steps, grouped so too, are exact in wrapping arithmetic).
    fn float_step_body(
        &self,
        w: &mut Writer,
        step: &Step,
        target: &str,
        read: &dyn Fn(i64) -> String,
    ) {
        for (c, ks) in tap_groups(step, true) {
            let subtract = c.is_negative() != (step.sign == Sign::Sub);
            let term = self.times_sum(c.abs(), &ks, read);
            let updated = if subtract {
                self.sub(target, &term)
            } else {
                self.add(target, &term)
            };
            w.line(format!("{target} = {updated};"));
        }
    }

    // ---------------------------------------------------------------- horizontal pass

    /// Whether the sliding window reads its lines modulo their length (a periodic boundary), with
    /// the margins of a segment inside a column at both ends.
    pub(crate) fn wraps(&self) -> bool {
        self.wavelet.boundary == Boundary::Periodic
    }

    /// The rows kernel.
    fn rows(&self, w: &mut Writer, name: &str) {
        let d = self.d;
        let wg = self.cfg.row_group_size;
        let half_cap = self.cfg.row_limit(self.elem).div_ceil(2);
        // No `restrict` on the source: the rows kernel may run in place.
        let params = self.row_params(&[
            Param::Global("src", self.elem),
            Param::Global("dst", self.elem),
        ]);
        w.comment(
            "Horizontal pass: one work-group per row of `n` samples (n <= row_limit) and plane, the row at",
        );
        w.comment("src/dst[base + plane * plane_step + row * row_step + i * sample_step] (`rows` rows per plane);");
        w.comment("dst may be src: the whole row is in local memory before any of it is stored.");
        w.comment(
            "Short-row path (n <= row_limit; longer rows take the row-segments or the columns kernel).",
        );
        w.comment("Each step is a loop over its target phase in local memory with a barrier after it; reads");
        w.comment("outside the phase go through resolve().");
        let sig = d.kernel_signature(name, &params, [wg, 1, 1], false);
        self.kernel_block(w, sig, |w| {
            w.line(d.local_array(self.work(), "even", &[half_cap]));
            w.line(d.local_array(self.work(), "odd", &[half_cap]));
            w.line(format!("const int lid = {};", d.local_id(0)));
            w.line(format!("const int row = {};", d.group_id(0)));
            w.line(format!("const int plane = {};", d.group_id(1)));
            w.comment(
                "The host launches exactly `rows` groups per plane: no early return, barriers stay uniform.",
            );
            for buffer in ["src", "dst"] {
                w.line(format!(
                    "{} {buffer}_line = {buffer} + base + plane * plane_step + row * row_step;",
                    d.global_pointer(self.d.storage_type(self.elem))
                ));
            }
            w.line("const int n_even = (n + 1) / 2;");
            w.line("const int n_odd = n / 2;");
            w.blank();
            self.rows_load(w);
            w.line(d.barrier());
            w.blank();
            w.comment(
                "A row of one sample passes through unchanged (no odd phase to lift against). The",
            );
            w.comment(
                "loops test it rather than a branch around them: barriers stay unconditional.",
            );
            w.line("const int lifted = n >= 2;");
            {
                for op in self.ops {
                    match op {
                        Op::Lift(step) => {
                            let (tgt, src) = (step.target.name(), step.source().name());
                            let q = step.source().parity();
                            w.comment(format!("{step}"));
                            w.block(
                                format!("for (int i = lid; lifted && i < n_{tgt}; i += {wg})"),
                                |w| {
                                    self.step_body(
                                        w,
                                        step,
                                        &format!("{tgt}[i]"),
                                        &|k| format!("{src}[resolve(n, {q}, {})]", offset("i", k)),
                                        true,
                                    )
                                },
                            );
                        }
                        Op::Scale { low, high } => {
                            w.comment(format!("{op}"));
                            for (phase, c) in [("even", low), ("odd", high)] {
                                w.block(
                                    format!(
                                        "for (int i = lid; lifted && i < n_{phase}; i += {wg})"
                                    ),
                                    |w| {
                                        let v = self.mul(&self.coeff(*c), &format!("{phase}[i]"));
                                        w.line(format!("{phase}[i] = {v};"));
                                    },
                                );
                            }
                        }
                    }
                    w.line(d.barrier());
                }
            }
            w.blank();
            self.rows_store(w);
        });
    }

    /// The parameters of the kernels over rows (rows, shift, row segments): `buffers`, then
    /// `(base, sample_step, row_step, plane_step, n, rows)`.
    pub(crate) fn row_params(&self, buffers: &[Param]) -> Vec<Param> {
        let ints = ["base", "sample_step", "row_step", "plane_step", "n", "rows"];
        (buffers.iter().cloned())
            .chain(ints.map(Param::Int))
            .collect()
    }

    pub(crate) fn pre_shifted(&self) -> bool {
        self.int() && self.wavelet.shift > 0
    }

    /// The rows kernel's load, pre-shifting (forward) where the program shifts.
    fn rows_load(&self, w: &mut Writer) {
        let wg = self.cfg.row_group_size;
        let split_input = self.direction == Direction::Inverse && self.layout == Layout::Mallat;
        let forward_shift = self.pre_shifted() && self.direction == Direction::Forward;
        let load = "Load (coalesced)";
        w.comment(match (split_input, forward_shift) {
            (false, true) => format!("{load}, pre-shift, de-interleave into the two phases."),
            (false, false) => format!("{load} and de-interleave into the two phases."),
            (true, _) => format!("{load}: low half into even, high half into odd."),
        });
        w.block(format!("for (int i = lid; i < n; i += {wg})"), |w| {
            let load = "to_work(src_line[i * sample_step])";
            let load = if forward_shift {
                format!("pre_shift({load})")
            } else {
                load.to_string()
            };
            w.line(format!("const {} x = {load};", self.work()));
            if split_input {
                w.block("if (i < n_even)", |w| w.line("even[i] = x;"));
                w.block("else", |w| w.line("odd[i - n_even] = x;"));
            } else {
                w.block("if ((i & 1) == 0)", |w| w.line("even[i >> 1] = x;"));
                w.block("else", |w| w.line("odd[i >> 1] = x;"));
            }
        });
    }

    /// The rows kernel's store, undoing the pre-shift (inverse) where the program shifts.
    fn rows_store(&self, w: &mut Writer) {
        let wg = self.cfg.row_group_size;
        let split_output = self.direction == Direction::Forward && self.layout == Layout::Mallat;
        let undo = self.pre_shifted() && self.direction == Direction::Inverse;
        w.comment(match (split_output, undo) {
            (true, _) => "Store: low half, then high half.",
            (false, true) => "Store interleaved, undoing the pre-shift.",
            (false, false) => "Store interleaved.",
        });
        w.block(format!("for (int i = lid; i < n; i += {wg})"), |w| {
            let value = if split_output {
                "i < n_even ? even[i] : odd[i - n_even]"
            } else {
                "(i & 1) == 0 ? even[i >> 1] : odd[i >> 1]"
            };
            w.line(format!("const {} x = {value};", self.work()));
            let x = if undo { "undo_pre_shift(x)" } else { "x" };
            w.line(format!("dst_line[i * sample_step] = to_elem({x});"));
        });
    }

    /// The pre-shift alone, for rows the rows kernel cannot hold: the same parameters and launch
    /// as the rows kernel, no local memory.
    fn shift(&self, w: &mut Writer, name: &str) {
        let d = self.d;
        let wg = self.cfg.row_group_size;
        let params = self.row_params(&[Param::Global("data", self.elem)]);
        let (what, f) = match self.direction {
            Direction::Forward => ("applies the VC-2 pre-shift before", "pre_shift"),
            Direction::Inverse => ("undoes the VC-2 pre-shift after", "undo_pre_shift"),
        };
        w.comment(format!("Long-row path: {what} the sliding-window row pass"));
        w.comment("(rows longer than row_limit); launched as the rows kernel (one group per row and plane).");
        let sig = d.kernel_signature(name, &params, [wg, 1, 1], false);
        self.kernel_block(w, sig, |w| {
            w.line(format!("const int lid = {};", d.local_id(0)));
            w.line(format!("const int row = {};", d.group_id(0)));
            w.line(format!("const int plane = {};", d.group_id(1)));
            w.line(format!(
                "{} line = data + base + plane * plane_step + row * row_step;",
                d.global_pointer(self.d.storage_type(self.elem))
            ));
            w.block(format!("for (int i = lid; i < n; i += {wg})"), |w| {
                w.line(format!(
                    "line[i * sample_step] = to_elem({f}(to_work(line[i * sample_step])));"
                ));
            });
        });
    }

    // ---------------------------------------------------------------- vertical pass

    /// The inverse's kernel also takes `lows`, `low_cols` and `low_planes` ([`VerticalPass`]).
    fn columns_params(&self) -> Vec<Param> {
        let inverse = self.direction == Direction::Inverse;
        let mut params = vec![Param::Global("src", self.elem)];
        if inverse {
            params.push(Param::Global("lows", self.elem));
        }
        params.extend([
            Param::Global("dst", self.elem),
            Param::Int("base"),
            Param::Int("col_step"),
            Param::Int("row_step"),
            Param::Int("plane_step"),
            Param::Int("rows"),
            Param::Int("cols"),
            Param::Int("segment"),
            Param::Int("margin"),
        ]);
        if inverse {
            params.extend([Param::Int("low_cols"), Param::Int("low_planes")]);
        }
        params
    }

    /// Whether column `col` of plane `plane` reads its low rows from `lows` (the inverse only):
    /// the columns of the band's low quadrant, which the next coarser level wrote elsewhere.
    fn lows_predicate(&self) -> String {
        match self.layout {
            Layout::Mallat => "col < low_cols && plane < low_planes".into(),
            Layout::Interleaved => {
                "((col | plane) & 1) == 0 && col < low_cols && plane < low_planes".into()
            }
        }
    }

    /// The sliding-window kernel (Algorithm 1), one loop over the windows of a column: the first
    /// and last windows apply the boundary rule; a column shorter than `H + bottom` is one window
    /// that is both. One loop body rather than Algorithm 1's three copies keeps the kernel small
    /// (PoCL compiles every barrier region of it) and every barrier unconditional.
    fn columns(&self, w: &mut Writer, name: &str) {
        let d = self.d;
        let g = self.g();
        let (t, o, h, b) = (g.top, g.overlap, g.height, g.bottom);
        let c = g.carried();
        let (sw, sr) = (self.cfg.slab_width, self.cfg.slab_rows);
        w.comment("Vertical pass (van der Laan et al., Algorithm 1): a slab of columns slides a window of");
        w.comment(format!(
            "top {t} + overlap {o} + bottom {b} + H {h} = {} rows down the columns; sample r of column c is",
            g.window_rows
        ));
        w.comment("src/dst[base + p * plane_step + c * col_step + r * row_step], p the plane (group y): the");
        w.comment("columns of a 2-D band, of every z-slice of a 3-D one, or its z-lines (row_step = slice");
        w.comment("pitch, planes along y: slabs in the x-z plane, section IV-G). Long-row path: rows longer than");
        w.comment("row_limit run here too, as lines with row_step = sample spacing and col_step = row pitch.");
        w.comment(format!(
            "Window k lifts target indices [lag_j + k*H/2, lag_j + (k+1)*H/2) of step j (H/2 = {});",
            h / 2
        ));
        w.comment("only the first and last windows reach the ends of the column and apply the boundary rule.");
        w.comment("Column segments (group z): a group stores rows [seg_lo, seg_hi) of `segment` rows and lifts");
        w.comment("`margin` rows more on either side where the column goes on, as a column of `len` rows from r0:");
        w.comment(
            "their values see the boundary rule where the column goes on, and are never stored.",
        );
        if self.wraps() {
            w.comment("Periodic: the column has no ends. Every segment reads from r0 = seg_lo - margin, rows");
            w.comment("modulo `rows`, and lifts `margin` rows past either end (the clamp rule at the window's ends,");
            w.comment("on rows never stored); dst != src (a segment reads rows another, or its own end, stores).");
        } else {
            w.comment(
                "Mallat layout, or more than one segment: dst != src (writes land on rows other windows still");
            w.comment("read); interleaved with one segment: may be equal.");
        }
        let inverse = self.direction == Direction::Inverse;
        if inverse {
            w.comment("The low rows (even r) of the columns where low_cols and low_planes say come from `lows`, every");
            w.comment("other row from src: a level's first window reads the low band the coarser level wrote to the");
            w.comment("data and its high bands from the untouched input, with no copy of the input first.");
        }
        let sig = d.kernel_signature(name, &self.columns_params(), [sw, sr, 1], false);
        self.kernel_block(w, sig, |w| {
            w.line(d.local_array(self.work(), "win", &[g.window_rows, sw]));
            w.line(format!("const int tx = {};", d.local_id(0)));
            w.line(format!("const int ty = {};", d.local_id(1)));
            w.line(format!("const int col = {} * {sw} + tx;", d.group_id(0)));
            w.line(format!("const int plane = {};", d.group_id(1)));
            w.line("const int active = col < cols;");
            w.line("const int col_base = base + plane * plane_step + col * col_step;");
            if inverse {
                w.line(format!(
                    "{} const low_src = ({}) ? lows : src;",
                    d.global_pointer(d.storage_type(self.elem)),
                    self.lows_predicate()
                ));
            }
            w.line(format!("const int seg_lo = {} * segment;", d.group_id(2)));
            w.line(format!(
                "const int seg_hi = {};",
                d.min_int("seg_lo + segment", "rows")
            ));
            if self.wraps() {
                w.line("const int r0 = seg_lo - margin;");
                w.line("const int len = seg_hi + margin - r0;");
            } else {
                w.line(format!(
                    "const int r0 = {};",
                    d.max_int("seg_lo - margin", "0")
                ));
                w.line(format!(
                    "const int len = {} - r0;",
                    d.min_int("seg_hi + margin", "rows")
                ));
            }
            if self.layout == Layout::Mallat {
                // Only split_index() reads it (row_in, row_out).
                w.line("const int rows_even = (rows + 1) / 2;");
            }
            w.line("const int n_even = (len + 1) / 2;");
            w.line("const int n_odd = len / 2;");
            w.blank();
            w.comment(format!(
                "Windows: one when the column fits (len < H + bottom = {}); else the first ({} rows in),",
                h + b,
                h + b
            ));
            w.comment(format!(
                "`full` windows of H = {h} rows, and the last with the `leftover` rows."
            ));
            w.line(format!("const int sliding = len >= {};", h + b));
            w.line(format!("const int full = sliding ? (len - {}) / {h} : 0;", h + b));
            w.line(format!(
                "const int leftover = sliding ? (len - {}) % {h} : 0;",
                h + b
            ));
            w.line("const int windows = sliding ? full + 2 : 1;");
            w.line("int inrow = 0;");
            w.line("int outrow = 0;");
            w.block("for (int k = 0; k < windows; ++k)", |w| {
                w.line("const int first = k == 0;");
                w.line("const int last = k == windows - 1;");
                w.comment(format!(
                    "copy: the {c} carried rows (top + overlap + bottom) below the working area move to the"
                ));
                w.comment("window's top (carried <= H: no overlap); nothing before the first window.");
                w.block(
                    format!("for (int i = ty; i < (first ? 0 : {c}); i += {sr})"),
                    |w| w.line(format!("win[i][tx] = win[i + {h}][tx];")),
                );
                w.line(d.barrier());
                w.comment(format!(
                    "read: the first window fills rows top + overlap = {} on, later ones rows {c} on.",
                    t + o
                ));
                w.line(format!(
                    "const int n_in = first ? {} : (last ? leftover : {h});",
                    d.min_int("len", &(h + b).to_string())
                ));
                w.line(format!("const int at = first ? {} : {c};", t + o));
                if let Some((low, high)) = self.on_read {
                    w.comment(format!(
                        "The scale before the first step applies as rows enter: even rows x {low:?}, odd x {high:?}."
                    ));
                }
                w.block(format!("for (int i = ty; i < n_in; i += {sr})"), |w| {
                    let from = if inverse {
                        "(((r0 + inrow + i) & 1) ? src : low_src)"
                    } else {
                        "src"
                    };
                    let row = match self.wraps() {
                        true => {
                            // A division only past the ends: most rows are read as they are.
                            w.line("int wrapped = r0 + inrow + i;");
                            w.block("if (wrapped < 0 || wrapped >= rows)", |w| {
                                w.line("wrapped %= rows;");
                                w.line("wrapped = wrapped < 0 ? wrapped + rows : wrapped;");
                            });
                            "wrapped"
                        }
                        false => "r0 + inrow + i",
                    };
                    let load = format!(
                        "to_work({from}[col_base + {} * row_step])",
                        self.row_in(row)
                    );
                    let load = self.factor(load, self.on_read, "inrow + i");
                    w.line(format!(
                        "win[at + i][tx] = active ? {load} : {};",
                        self.literal(0.0)
                    ));
                });
                w.line(d.barrier());
                w.line("inrow += n_in;");
                w.comment(format!(
                    "transform: the window row of sample r is r - wbase (sample 0 at row top + overlap = {}).",
                    t + o
                ));
                w.line(format!("const int wbase = k * {h} - {};", t + o));
                for (j, step) in self.ops.iter().filter_map(op_step).enumerate() {
                    self.window_step(w, step, g.lags[j]);
                }
                w.comment(format!(
                    "write: the first window's H - overlap = {} rows from row {}, then H = {h} rows from row",
                    h - o,
                    t + o
                ));
                w.comment(format!(
                    "top = {t}; the last window writes the rest (leftover + overlap + bottom)."
                ));
                w.line(format!(
                    "const int n_out = !sliding ? len : (first ? {} : (last ? leftover + {} : {h}));",
                    h - o,
                    o + b
                ));
                w.line(format!("const int from = first ? {} : {t};", t + o));
                if let Some((low, high)) = self.on_write {
                    w.comment(format!(
                        "The scale after the last step applies as rows leave: even rows x {low:?}, odd x {high:?}."
                    ));
                }
                w.block(format!("for (int i = ty; i < n_out; i += {sr})"), |w| {
                    w.line("const int r = r0 + outrow + i;");
                    let value = self.factor("win[from + i][tx]".into(), self.on_write, "r");
                    w.block("if (active && r >= seg_lo && r < seg_hi)", |w| {
                        w.line(format!(
                            "dst[col_base + {} * row_step] = to_elem({value});",
                            self.row_out("r")
                        ))
                    });
                });
                w.line(d.barrier());
                w.line("outrow += n_out;");
            });
        });
    }

    /// Where natural row `r` is read from / written to, relative to `col_base`, in rows.
    fn row_in(&self, r: &str) -> String {
        match (self.layout, self.direction) {
            (Layout::Mallat, Direction::Inverse) => format!("split_index({r}, rows_even)"),
            _ if r.contains(' ') => format!("({r})"),
            _ => r.to_string(),
        }
    }

    fn row_out(&self, r: &str) -> String {
        match (self.layout, self.direction) {
            (Layout::Mallat, Direction::Forward) => format!("split_index({r}, rows_even)"),
            _ if r.contains(' ') => format!("({r})"),
            _ => r.to_string(),
        }
    }

    fn factor(&self, value: String, scales: Option<(f64, f64)>, row: &str) -> String {
        match scales {
            None => value,
            Some((low, high)) => format!(
                "{value} * ((({row}) & 1) ? {} : {})",
                self.literal(high),
                self.literal(low)
            ),
        }
    }

    /// One lifting step inside window `k`: its target indices in this window, every read through
    /// the boundary rule (the identity away from the ends).
    fn window_step(&self, w: &mut Writer, step: &Step, lag: i32) {
        let half = self.g().height / 2;
        let tgt = step.target.name();
        let (p, q) = (step.target.parity(), step.source().parity());
        w.comment(format!("{step}   (lag {lag})"));
        w.block("", |w| {
            w.line(format!(
                "const int lo = first ? 0 : {};",
                self.d
                    .max_int(&offset(&format!("k * {half}"), lag as i64), "0")
            ));
            w.line(format!(
                "const int hi = last ? n_{tgt} : {};",
                self.d.min_int(
                    &offset(&format!("(k + 1) * {half}"), lag as i64),
                    &format!("n_{tgt}")
                )
            ));
            w.block(
                format!("for (int i = lo + ty; i < hi; i += {})", self.cfg.slab_rows),
                |w| {
                    let target = format!("win[{} - wbase][tx]", sample_row("i", p));
                    let read = |k| {
                        let m = match self.wraps() {
                            true => self.d.clamp_int(
                                &offset("i", k),
                                "0",
                                &format!("n_{} - 1", step.source().name()),
                            ),
                            false => format!("resolve(len, {q}, {})", offset("i", k)),
                        };
                        format!("win[{} - wbase][tx]", sample_row(&m, q))
                    };
                    self.step_body(w, step, &target, &read, true)
                },
            );
        });
        w.line(self.d.barrier());
    }
}

/// `2 * m + parity`, the sample row of polyphase index `m`.
fn sample_row(m: &str, parity: i64) -> String {
    if parity == 0 {
        format!("2 * {m}")
    } else {
        format!("2 * {m} + {parity}")
    }
}

fn op_step(op: &Op) -> Option<&Step> {
    match op {
        Op::Lift(s) => Some(s),
        Op::Scale { .. } => None,
    }
}

/// A step's taps as (coefficient, offsets) in the order of their first tap: with
/// `by_coefficient` the taps of one coefficient together (in tap order), else one tap each.
fn tap_groups(step: &Step, by_coefficient: bool) -> Vec<(Coeff, Vec<i64>)> {
    let mut groups: Vec<(Coeff, Vec<i64>)> = Vec::new();
    for (k, c) in step.taps.terms() {
        match groups.iter_mut().find(|(g, _)| by_coefficient && *g == c) {
            Some((_, ks)) => ks.push(k as i64),
            None => groups.push((c, vec![k as i64])),
        }
    }
    groups
}
