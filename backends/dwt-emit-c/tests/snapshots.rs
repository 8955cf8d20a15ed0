//! Every emitted kernel module, as a reader sees it: each catalogue wavelet, forward and inverse,
//! each element type of its kind, Mallat layout, plus interleaved examples (LeGall 5/3, and Haar's
//! CUDA modules with their in-place pyramid kernels). One snapshot per
//! module, named `{wavelet}_{direction}_{elem}_{layout}` (OpenCL C) and
//! `cuda_{wavelet}_{direction}_{elem}_{layout}` (CUDA C++); and the modules of 3-D requests for
//! one wavelet (`volume_`, `cuda_volume_`: the fused kernel over planes; `volume_kernel_`,
//! `cuda_volume_kernel_`: one-pass volume kernels alone) and of a 1920x1080 one
//! (`1080p_`, `cuda_1080p_`: with the small bands' fused kernel), and an interleaved forward of
//! a 3840x2160 one (`cuda_2160p_`: with the even rows); and a periodic program with a pre-shift
//! (`periodic_`, `cuda_periodic_`: a sliding window reading its lines modulo their length, and
//! the fused kernels with wrapped edge tiles).

use dwt_emit_c::{emit_module, is_integer, Cuda, Dialect, KernelModule, LaunchConfig, OpenCl};
use dwt_ir::{Direction, ElementKind, ElementType, Layout, Wavelet};

fn snapshot(w: &Wavelet, direction: Direction, elem: ElementType, layout: Layout) {
    snapshot_in(&OpenCl, "", w, direction, elem, layout, 2);
}

fn snapshot_in(
    dialect: &dyn Dialect,
    prefix: &str,
    w: &Wavelet,
    direction: Direction,
    elem: ElementType,
    layout: Layout,
    axes: usize,
) {
    let config = LaunchConfig::default().for_axes(axes);
    let module =
        emit_module(dialect, w, direction, elem, layout, &config).expect("catalogue wavelets emit");
    let dir = match direction {
        Direction::Forward => "forward",
        Direction::Inverse => "inverse",
    };
    let name = format!(
        "{prefix}{}_{dir}_{}_{}",
        w.name.to_lowercase(),
        elem.name(),
        layout.name()
    );
    assert_eq!(is_integer(elem), w.kind == ElementKind::Integer);
    insta::assert_snapshot!(name, module.source());
}

#[test]
fn every_catalogue_module() {
    for w in dwt_catalogue::all() {
        for direction in [Direction::Forward, Direction::Inverse] {
            for elem in ElementType::ALL {
                if elem.kind() == w.kind {
                    snapshot(w, direction, elem, Layout::Mallat);
                }
            }
        }
    }
}

#[test]
fn an_interleaved_module() {
    snapshot(
        dwt_catalogue::by_name("LeGall53").expect("catalogue wavelet"),
        Direction::Inverse,
        ElementType::I16,
        Layout::Interleaved,
    );
}

/// Haar's interleaved modules: their pyramid kernels store each work-item's column in place.
#[test]
fn haars_interleaved_modules() {
    let w = dwt_catalogue::by_name("HaarWithShift").expect("catalogue wavelet");
    for direction in [Direction::Forward, Direction::Inverse] {
        snapshot_in(
            &Cuda,
            "cuda_",
            w,
            direction,
            ElementType::I32,
            Layout::Interleaved,
            2,
        );
    }
}

#[test]
fn every_catalogue_cuda_module() {
    for w in dwt_catalogue::all() {
        for direction in [Direction::Forward, Direction::Inverse] {
            for elem in ElementType::ALL {
                if elem.kind() == w.kind {
                    snapshot_in(&Cuda, "cuda_", w, direction, elem, Layout::Mallat, 2);
                }
            }
        }
    }
}

/// The modules of a 3-D request: the fused kernel lifts one x-y plane per group along z; the
/// CUDA forward's and the OpenCL inverse's one-pass volume kernels lift its levels in one pass.
#[test]
fn a_volume_module() {
    let w = dwt_catalogue::by_name("LeGall53").expect("catalogue wavelet");
    let (elem, layout) = (ElementType::I32, Layout::Mallat);
    snapshot_in(
        &Cuda,
        "cuda_volume_",
        w,
        Direction::Forward,
        elem,
        layout,
        3,
    );
    snapshot_in(&OpenCl, "volume_", w, Direction::Inverse, elem, layout, 3);
}

/// The one-pass volume kernel of a program of two pairs of steps and a scale (CDF 9/7, f32):
/// columns of 8 with 4 rows above and 3 below, four depth steps in registers; along x in CUDA
/// the halo lanes 0 and 15 lift through four steps, in OpenCL every work-item lifts its own
/// samples' neighbours (asked for: OpenCL's default keeps the two passes). The kernel alone,
/// with its prelude and helpers.
#[test]
fn a_volume_kernel_of_two_pairs_of_steps() {
    for (dialect, prefix) in [(&Cuda as &dyn Dialect, "cuda_"), (&OpenCl, "")] {
        volume_kernel_snapshot(
            dialect,
            prefix,
            "Cdf97",
            Direction::Forward,
            ElementType::F32,
        );
    }
}

/// Snapshot `{prefix}volume_kernel_{wavelet}_{direction}_{elem}_mallat`: the one-pass volume
/// kernel of `name` (asked for), alone with its prelude and helpers.
fn volume_kernel_snapshot(
    dialect: &dyn Dialect,
    prefix: &str,
    name: &str,
    direction: Direction,
    elem: ElementType,
) {
    let kernel = |m: &KernelModule| m.volume.as_ref().map(|v| v.kernel.clone());
    let what = (name, direction, elem, Layout::Mallat);
    kernel_snapshot(dialect, &format!("{prefix}volume_kernel_"), what, kernel);
}

/// Snapshot `{prefix}{wavelet}_{direction}_{elem}_{layout}`: the kernel `kernel` picks from the
/// 3-D module of catalogue wavelet `name` (the one-pass kernels asked for), alone with its
/// prelude and helpers.
fn kernel_snapshot(
    dialect: &dyn Dialect,
    prefix: &str,
    (name, direction, elem, layout): (&str, Direction, ElementType, Layout),
    kernel: impl Fn(&KernelModule) -> Option<String>,
) {
    let w = dwt_catalogue::by_name(name).expect("catalogue wavelet");
    let config = LaunchConfig {
        one_pass_volumes: Some(true),
        ..LaunchConfig::default().for_axes(3)
    };
    let module =
        emit_module(dialect, w, direction, elem, layout, &config).expect("catalogue wavelets emit");
    let kernel = kernel(&module).expect("the module has the kernel");
    let source = module.kernel_source(&kernel).expect("the kernel's source");
    let dir = match direction {
        Direction::Forward => "forward",
        Direction::Inverse => "inverse",
    };
    insta::assert_snapshot!(
        format!(
            "{prefix}{}_{dir}_{}_{}",
            name.to_lowercase(),
            elem.name(),
            layout.name()
        ),
        source
    );
}

/// The pair-local volume kernels: Haar without the pre-shift in i32 in CUDA forward and Haar
/// with it in i16 in OpenCL C inverse, in the Mallat layout, and the integer Haar's interleaved
/// inverse in CUDA: a 2x2x2 block a work-item, read as a pair per row of each plane (one vector
/// access where adjacent and aligned), lifted along x, y, z forward (z, y, x inverse, then the
/// pre-shift undone), one coefficient to (from) each octant (interleaved: back in their places,
/// the block's low from `lows`). The kernels alone, with their preludes and helpers.
#[test]
fn volume_pairs_kernels() {
    let kernel = |m: &KernelModule| m.volume_pairs.clone();
    let (forward, inverse, mallat) = (Direction::Forward, Direction::Inverse, Layout::Mallat);
    let cuda = "cuda_volume_pairs_kernel_";
    let what = ("HaarNoShift", forward, ElementType::I32, mallat);
    kernel_snapshot(&Cuda, cuda, what, kernel);
    let what = (
        "HaarNoShift",
        inverse,
        ElementType::I32,
        Layout::Interleaved,
    );
    kernel_snapshot(&Cuda, cuda, what, kernel);
    let what = ("HaarWithShift", inverse, ElementType::I16, mallat);
    kernel_snapshot(&OpenCl, "volume_pairs_kernel_", what, kernel);
}

/// The volume pyramids (two levels of a pair-local program a launch): Haar with the pre-shift
/// in i16 forward in CUDA's Mallat layout (a 4x4x4 block a work-item, two pairs a row; level 0
/// pre-shifts and lifts all 64 samples along x, y, z, level 1 pre-shifts and lifts the eight
/// low coefficients 2 apart; coefficients to each level's octants, the last level's low to
/// `low`), and Haar without it in i32 inverse in OpenCL C's interleaved layout (level 1 first,
/// the block's low from `lows`, all 64 back in their places).
#[test]
fn volume_pyramid_kernels() {
    let kernel = |m: &KernelModule| m.volume_pyramid.clone();
    let what = (
        "HaarWithShift",
        Direction::Forward,
        ElementType::I16,
        Layout::Mallat,
    );
    kernel_snapshot(&Cuda, "cuda_volume_pyramid_kernel_", what, kernel);
    let what = (
        "HaarNoShift",
        Direction::Inverse,
        ElementType::I32,
        Layout::Interleaved,
    );
    kernel_snapshot(&OpenCl, "volume_pyramid_kernel_", what, kernel);
}

/// The inverse one-pass volume kernels: LeGall 5/3 in i32 in CUDA (one pair of steps, its
/// pre-shift undone on the store) and CDF 9/7 in f32 in OpenCL C (two pairs, its scale on the
/// column's load; one plane an iteration, barriers outside branches; asked for: OpenCL's default
/// keeps the two passes): the tile's 64 columns gathered from the subbands, a column segment of
/// 8 with 2n rows either side lifted along z and y in registers, each row lifted by work-items
/// 1 to 14 of half a warp. The kernels alone, with their preludes and helpers.
#[test]
fn volume_inverse_kernels() {
    volume_kernel_snapshot(
        &Cuda,
        "cuda_",
        "LeGall53",
        Direction::Inverse,
        ElementType::I32,
    );
    volume_kernel_snapshot(&OpenCl, "", "Cdf97", Direction::Inverse, ElementType::F32);
}

/// The modules of a 1920x1080 request (`LaunchConfig::for_request`): beside the fused kernel, the
/// one its plan runs on the bands of levels 2 and up (`small_tile`: LeGall 5/3's on tiles of 16x8
/// indices; Fidelity's forward on the configured 32x16, its first level on 32x32, its small
/// tiles' edge loads in one batch).
#[test]
fn a_small_transform_module() {
    for (name, dialect, prefix, direction) in [
        (
            "LeGall53",
            &Cuda as &dyn Dialect,
            "cuda_1080p_",
            Direction::Forward,
        ),
        ("LeGall53", &OpenCl, "1080p_", Direction::Inverse),
        ("Fidelity", &Cuda, "cuda_1080p_", Direction::Forward),
    ] {
        let w = dwt_catalogue::by_name(name).expect("catalogue wavelet");
        let config =
            LaunchConfig::default().for_request(w, direction, ElementType::I16, &[1080, 1920]);
        let module = emit_module(
            dialect,
            w,
            direction,
            ElementType::I16,
            Layout::Mallat,
            &config,
        )
        .expect("catalogue wavelets emit");
        assert!(module.small_tile.is_some());
        let dir = match direction {
            Direction::Forward => "forward",
            Direction::Inverse => "inverse",
        };
        insta::assert_snapshot!(
            format!("{prefix}{}_{dir}_i16_mallat", name.to_lowercase()),
            module.source()
        );
    }
}

/// The fused kernels of 8192x8192 requests (`LaunchConfig::for_request`) where the long filters'
/// tiles apply: Fidelity's 48x32 tiles with register segments of 16 (its inverse's edge tiles
/// grouping their taps, in i32) and Daubechies 9/7's 32x24 with segments of 8 (CUDA; the rule is
/// the same for OpenCL).
#[test]
fn large_plane_modules() {
    for (name, direction, tile) in [
        ("Fidelity", Direction::Forward, [48, 32]),
        ("Fidelity", Direction::Inverse, [48, 32]),
        ("Daubechies97Integer", Direction::Inverse, [32, 24]),
    ] {
        let w = dwt_catalogue::by_name(name).expect("catalogue wavelet");
        let config =
            LaunchConfig::default().for_request(w, direction, ElementType::I32, &[8192, 8192]);
        assert_eq!(config.tile, tile, "{name}");
        let module = emit_module(
            &Cuda,
            w,
            direction,
            ElementType::I32,
            Layout::Mallat,
            &config,
        )
        .expect("catalogue wavelets emit");
        let dir = match direction {
            Direction::Forward => "forward",
            Direction::Inverse => "inverse",
        };
        insta::assert_snapshot!(
            format!("cuda_8192_{}_{dir}_i32_mallat", name.to_lowercase()),
            module.source()
        );
    }
}

/// The module of an interleaved forward at a 3840x2160 request, where its plan takes the even
/// rows: the tile kernel's variant storing subband (0, 1) with the low band (its inner and edge
/// tiles' even-row stores through `e_out`) and the even-rows kernel. CUDA, LeGall 5/3 in i32, as
/// `large_interleaved_forwards_end_with_the_even_rows_and_match_the_reference` runs it.
#[test]
fn an_even_rows_module() {
    let w = dwt_catalogue::by_name("LeGall53").expect("catalogue wavelet");
    let config =
        LaunchConfig::default().for_request(w, Direction::Forward, ElementType::I32, &[2160, 3840]);
    let module = emit_module(
        &Cuda,
        w,
        Direction::Forward,
        ElementType::I32,
        Layout::Interleaved,
        &config,
    )
    .expect("catalogue wavelets emit");
    assert!(module.even_rows_tile.is_some() && module.even_rows.is_some());
    insta::assert_snapshot!(
        "cuda_2160p_legall53_forward_i32_interleaved",
        module.source()
    );
}

/// A periodic program: its module is the rows kernel, the sliding window reading its lines modulo
/// their length, the shift kernel (for rows too long for the rows kernel) and the fused kernels,
/// their edge tiles loading their halo modulo the band's sides.
/// The execution tests: the suite's `conformance_lines` (this program among them, on every GPU
/// backend) and its random periodic programs.
#[test]
fn a_periodic_module() {
    let w = dwt_ir::parse_str(
        "wavelet PeriodicShifted { boundary = periodic; shift = 1; odd -= (9*(even[0] + even[1]) - (even[-1] + even[2]) + 8) >> 4; even += (odd[-1] + odd[0] + 2) >> 2; }",
    )
    .unwrap()
    .remove(0);
    both_ways_both_dialects(&w, ElementType::I32);
}

/// A float program scaling between its steps (`conformance::scale_between_steps`): its module
/// lifts the program with its scales moved after the last step, the taps they pass rescaled, and
/// says so in its header; rows, window and fused kernels as any float program's. The execution
/// tests: the suite's `conformance_lines` on every GPU backend.
#[test]
fn a_module_scaling_between_steps() {
    let w = dwt_runtime::conformance::scale_between_steps();
    both_ways_both_dialects(&w, ElementType::F32);
}

/// The 2-D Mallat modules of `w` in `elem`, both directions, OpenCL C and CUDA.
fn both_ways_both_dialects(w: &Wavelet, elem: ElementType) {
    for direction in [Direction::Forward, Direction::Inverse] {
        snapshot_in(&OpenCl, "", w, direction, elem, Layout::Mallat, 2);
        snapshot_in(&Cuda, "cuda_", w, direction, elem, Layout::Mallat, 2);
    }
}
