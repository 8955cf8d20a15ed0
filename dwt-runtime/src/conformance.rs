//! The conformance suite: what every backend must reproduce of the CPU reference, written once and
//! instantiated per backend with [`conformance_tests!`](crate::conformance_tests), so that no
//! backend is held to weaker tests than another.
//!
//! Integer wavelets must match bit for bit (on full-range data, so wrap-around is exercised);
//! float ones within `1e-5` (f32) or `1e-12` (f64) of the largest magnitude of the expected result.
//! A backend may refuse a transform with [`DwtError::Unsupported`] (f64 on a device without it,
//! say): the suite reports every refusal on stderr, and never accepts wrong data.

use dwt_ir::{
    Boundary, Coeff, Direction, ElementKind, ElementType, Laurent, Layout, Op, Phase, Program,
    Sign, Step, Wavelet,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

pub mod frames;

use crate::cpu::{self, max_levels};
use crate::{Backend, DwtError, Element, Request, Samples};

/// 1-D sizes.
pub const SHAPES_1D: &[[usize; 1]] = &[[1], [2], [3], [7], [64], [257], [1000]];
/// 2-D sizes: single samples, single rows and columns, odd by odd, non-powers of two.
pub const SHAPES_2D: &[[usize; 2]] = &[
    [1, 1],
    [1, 7],
    [7, 1],
    [2, 2],
    [3, 5],
    [17, 33],
    [33, 17],
    [64, 48],
    [100, 5],
];
/// 3-D sizes.
pub const SHAPES_3D: &[[usize; 3]] = &[
    [1, 1, 5],
    [2, 3, 4],
    [5, 6, 7],
    [8, 8, 8],
    [17, 9, 12],
    [9, 1, 10],
    [6, 21, 35],
];

/// Deterministic data: full-range for comparisons (wrap-around included), small for round trips.
fn data<E: Element>(len: usize, seed: u64, small: bool) -> Vec<E> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let v = match (E::KIND, E::TYPE, small) {
                (ElementKind::Integer, _, true) => (s % 256) as i64 - 128,
                (ElementKind::Integer, ElementType::I16, false) => (s % 65536) as i64 - 32768,
                (ElementKind::Integer, _, false) => s as i32 as i64,
                (ElementKind::Float, _, _) => (s % 20001) as i64 - 10000,
            };
            let w = <E::Work as crate::Work>::integer(v);
            let w = if E::KIND == ElementKind::Float {
                crate::Work::mul(w, <E::Work as crate::Work>::coeff(Coeff::ratio(1, 100)))
            } else {
                w
            };
            E::from_work(w)
        })
        .collect()
}

/// Whether `got` is close enough to `want`.
pub trait Compare: Element {
    fn close(got: &[Self], want: &[Self]) -> Result<(), String>;
}

macro_rules! exact {
    ($t:ty) => {
        impl Compare for $t {
            fn close(got: &[Self], want: &[Self]) -> Result<(), String> {
                match got.iter().zip(want).position(|(a, b)| a != b) {
                    None => Ok(()),
                    Some(i) => Err(format!(
                        "{} of {} samples differ; first at index {i}: got {}, want {}",
                        got.iter().zip(want).filter(|(a, b)| a != b).count(),
                        want.len(),
                        got[i],
                        want[i]
                    )),
                }
            }
        }
    };
}
exact!(i16);
exact!(i32);

macro_rules! within {
    ($t:ty, $tol:expr) => {
        impl Compare for $t {
            fn close(got: &[Self], want: &[Self]) -> Result<(), String> {
                let scale = want.iter().fold(1.0 as $t, |m, x| m.max(x.abs()));
                let (i, err) = got
                    .iter()
                    .zip(want)
                    .map(|(a, b)| (a - b).abs())
                    .enumerate()
                    .fold((0, 0.0 as $t), |m, (i, e)| {
                        if e > m.1 || e.is_nan() {
                            (i, e)
                        } else {
                            m
                        }
                    });
                if err <= $tol * scale {
                    Ok(())
                } else {
                    Err(format!(
                        "error {err:e} at index {i} (got {}, want {}) exceeds {:e} x {scale}",
                        got[i], want[i], $tol
                    ))
                }
            }
        }
    };
}
within!(f32, 1e-5);
within!(f64, 1e-12);

/// For a backend's own tests of what it reads from its environment: runs test `test` of the
/// calling test binary again in a child process (`--exact --ignored --nocapture`) with `env`
/// set, and returns the first line of its output that starts with one of `prefixes`. Panics,
/// with the child's output, where the child fails or prints no such line.
pub fn child_test_line(test: &str, env: &[(&str, &str)], prefixes: &[&str]) -> String {
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args(["--exact", test, "--ignored", "--nocapture"])
        .envs(env.iter().copied())
        .output()
        .expect("the test binary runs again as a child");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{test} failed in the child:\n{text}");
    text.lines()
        .find(|l| prefixes.iter().any(|p| l.starts_with(p)))
        .unwrap_or_else(|| panic!("no line starting with {prefixes:?} from {test}:\n{text}"))
        .to_string()
}

/// Runs `request` on `backend` and on the CPU reference, both from `input`; `Ok(false)` when the
/// backend refused it as unsupported.
pub fn matches_reference<E: Compare>(
    backend: &dyn Backend,
    request: &Request,
    input: &[E],
) -> Result<bool, String> {
    let mut want = input.to_vec();
    cpu::transform(
        request.wavelet,
        request.direction,
        &mut want,
        &request.shape,
        request.levels,
        request.layout,
    )
    .map_err(|e| format!("the CPU reference refused the case: {e}"))?;
    let mut got = input.to_vec();
    match backend.run(request, E::samples(&mut got)) {
        Ok(()) => {}
        Err(DwtError::Unsupported { what, .. }) => {
            if got != input {
                return Err(format!(
                    "refused the transform ({what}) but changed the data"
                ));
            }
            eprintln!(
                "note: {} does not support {} {} {:?} {:?} {} levels: {what}",
                backend.name(),
                request.wavelet.name,
                E::NAME,
                request.direction,
                request.shape,
                request.levels
            );
            return Ok(false);
        }
        Err(e) => return Err(format!("failed: {e}")),
    }
    E::close(&got, &want).map(|()| true)
}

fn case<E: Compare>(
    backend: &dyn Backend,
    w: &Wavelet,
    shape: &[usize],
    levels: u32,
    layout: Layout,
    seed: u64,
    failures: &mut Vec<String>,
) -> usize {
    let len: usize = shape.iter().product();
    let mut ran = 0;
    for direction in [Direction::Forward, Direction::Inverse] {
        let request = Request {
            wavelet: w,
            direction,
            shape: shape.to_vec(),
            levels,
            layout,
        };
        match matches_reference::<E>(backend, &request, &data::<E>(len, seed, false)) {
            Ok(true) => ran += 1,
            Ok(false) => {}
            Err(e) => failures.push(format!(
                "{} {} {direction:?} {shape:?} {levels} levels {layout:?}: {e}",
                w.name,
                E::NAME
            )),
        }
    }
    // The round trip on the backend alone gives the input back (small data: no overflow).
    let input = data::<E>(len, seed ^ 0x55, true);
    let mut d = input.clone();
    let forward = Request {
        wavelet: w,
        direction: Direction::Forward,
        shape: shape.to_vec(),
        levels,
        layout,
    };
    let inverse = Request {
        direction: Direction::Inverse,
        ..forward.clone()
    };
    match backend
        .run(&forward, E::samples(&mut d))
        .and_then(|()| backend.run(&inverse, E::samples(&mut d)))
    {
        Ok(()) => match E::close(&d, &input) {
            Ok(()) => ran += 1,
            Err(e) => failures.push(format!(
                "{} {} round trip {shape:?} {levels} levels {layout:?}: {e}",
                w.name,
                E::NAME
            )),
        },
        Err(DwtError::Unsupported { .. }) => {}
        Err(e) => failures.push(format!("{} {} round trip {shape:?}: {e}", w.name, E::NAME)),
    }
    ran
}

/// Every level count the shape allows (at most `cap`) and both layouts, for each element type of
/// the wavelet's kind.
fn all_cases(
    backend: &dyn Backend,
    w: &Wavelet,
    shape: &[usize],
    cap: u32,
    failures: &mut Vec<String>,
) -> usize {
    let mut ran = 0;
    for levels in 1..=max_levels(shape).min(cap) {
        for layout in [Layout::Interleaved, Layout::Mallat] {
            let seed = shape.iter().fold(levels as u64, |s, &n| s * 31 + n as u64);
            ran += match w.kind {
                ElementKind::Integer => {
                    case::<i16>(backend, w, shape, levels, layout, seed, failures)
                        + case::<i32>(backend, w, shape, levels, layout, seed, failures)
                }
                ElementKind::Float => {
                    case::<f32>(backend, w, shape, levels, layout, seed, failures)
                        + case::<f64>(backend, w, shape, levels, layout, seed, failures)
                }
            };
        }
    }
    ran
}

fn report(what: &str, backend: &dyn Backend, ran: usize, failures: Vec<String>) {
    eprintln!(
        "{what} on {} ({}): {ran} comparisons passed, {} failed",
        backend.name(),
        backend.device(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{what} on {}: {} failures:\n{}",
        backend.name(),
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(ran > 0, "{what} on {}: nothing ran", backend.name());
}

/// Every catalogue wavelet, 1-D, on [`SHAPES_1D`], levels 1 to the maximum (at most 5).
pub fn catalogue_1d(backend: &dyn Backend) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for w in dwt_catalogue::all() {
        for shape in SHAPES_1D {
            ran += all_cases(backend, w, shape, 5, &mut failures);
        }
    }
    report("catalogue 1-D", backend, ran, failures);
}

/// Every catalogue wavelet, 2-D, on [`SHAPES_2D`], levels 1 to the maximum (at most 4).
pub fn catalogue_2d(backend: &dyn Backend) {
    catalogue_2d_of(backend, dwt_catalogue::all());
}

/// The catalogue programs `LaunchConfig::long_filter_tiles` gives tiles of their own in 4-byte
/// types: on planes of 3840x2160 (a step spanning four indices or more) or on 8192^2 other than
/// the 64x16 of 256 that every short program's inverse takes there (and the CUDA suite's tuning
/// candidates run for every program). The backends' suites run [`catalogue_2d_of`] them with
/// that option forced on; `dwt-emit-c`'s `fused_plan` test derives the same list from the rule.
pub const LONG_FILTER_PROGRAMS: [&str; 5] = [
    "DeslauriersDubuc97",
    "DeslauriersDubuc137",
    "Fidelity",
    "Cdf97",
    "Daubechies97Integer",
];

/// The 2-D cases of [`catalogue_2d`] for some wavelets only (for a variant whose kernels differ
/// from the default's only for those, where compiling every module costs).
pub fn catalogue_2d_of(
    backend: &dyn Backend,
    wavelets: impl IntoIterator<Item = &'static Wavelet>,
) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for w in wavelets {
        for shape in SHAPES_2D {
            ran += all_cases(backend, w, shape, 4, &mut failures);
        }
    }
    report("catalogue 2-D", backend, ran, failures);
}

/// Every catalogue wavelet, 3-D, on [`SHAPES_3D`], levels 1 to the maximum (at most 3).
pub fn catalogue_3d(backend: &dyn Backend) {
    catalogue_3d_of(backend, dwt_catalogue::all());
}

/// The 3-D cases of [`catalogue_3d`] for some wavelets only (for a variant whose kernels differ
/// from another's only in what the others already test, where compiling every module costs).
pub fn catalogue_3d_of(
    backend: &dyn Backend,
    wavelets: impl IntoIterator<Item = &'static Wavelet>,
) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for w in wavelets {
        for shape in SHAPES_3D {
            ran += all_cases(backend, w, shape, 3, &mut failures);
        }
    }
    report("catalogue 3-D", backend, ran, failures);
}

/// The catalogue programs whose volumes take the two passes at every level (a step spanning
/// four indices or more: no one-pass volume kernel), and so the volumes' settings
/// (`LaunchConfig::volume_depth_window`, and Fidelity's tiles by `long_filter_tiles`).
pub const TWO_PASS_VOLUME_PROGRAMS: [&str; 3] =
    ["DeslauriersDubuc97", "DeslauriersDubuc137", "Fidelity"];

/// Volumes for a backend configured with the volumes' settings forced on: one deeper than two
/// windows of the depth pass (96 rows) whose planes span several of the tallest tiles (48x32
/// indices, 96x64 samples) with a part-filled last one, and one thinner than a window and a
/// tile.
pub const SETTINGS_VOLUMES: [[usize; 3]; 2] = [[200, 70, 100], [5, 6, 7]];

/// [`TWO_PASS_VOLUME_PROGRAMS`] in i32 on [`SETTINGS_VOLUMES`], one and two levels, both layouts,
/// both ways and the round trip, against the CPU reference: for a backend whose configuration
/// forces the volumes' settings on every volume (the suite's own volumes are below the size
/// from which they apply).
pub fn volume_settings(backend: &dyn Backend) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for name in TWO_PASS_VOLUME_PROGRAMS {
        let w = dwt_catalogue::by_name(name).expect("catalogue wavelet");
        for shape in SETTINGS_VOLUMES {
            for levels in 1..=max_levels(&shape).min(2) {
                for layout in [Layout::Interleaved, Layout::Mallat] {
                    let seed = shape.iter().fold(levels as u64, |s, &n| s * 31 + n as u64);
                    ran += case::<i32>(backend, w, &shape, levels, layout, seed, &mut failures);
                }
            }
        }
    }
    report("volume settings", backend, ran, failures);
}

/// The wavelets the tiny-tile variant runs in 3-D: its planes differ from the 2-D tiles (every
/// wavelet, `catalogue_2d`) only by the plane offset; one plain integer wavelet, one with the
/// pre-shift and the longest float one cover it.
pub fn tiny_tile_volume_wavelets() -> impl Iterator<Item = &'static Wavelet> {
    ["LeGall53", "HaarWithShift", "Cdf97"]
        .into_iter()
        .map(|n| dwt_catalogue::by_name(n).expect("catalogue wavelet"))
}

/// Column heights just below, at and above the first multiples of the vertical window, for a
/// backend whose working window height is `max(window_height, min_height)`; every catalogue
/// wavelet, one level, both directions; as the columns of an image and as the depth of a volume
/// (the depth pass slides the same window along z).
pub fn window_edges(backend: &dyn Backend, window_height: usize) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for w in dwt_catalogue::all() {
        let mut heights = Vec::new();
        for direction in [Direction::Forward, Direction::Inverse] {
            let window = w.sliding_window(direction);
            let h = window_height
                .max(window.min_height as usize)
                .next_multiple_of(2);
            for k in 1..=3 {
                let edge = k * h + window.bottom as usize;
                heights.extend([edge - 1, edge, edge + 1]);
            }
        }
        heights.sort_unstable();
        heights.dedup();
        for rows in heights {
            ran += all_cases(backend, w, &[rows, 9], 1, &mut failures);
            ran += all_cases(backend, w, &[rows, 3, 4], 1, &mut failures);
        }
    }
    report("window edges", backend, ran, failures);
}

/// An image with tiles away from its edges under the default tiles (32x16 indices per phase),
/// its rows of an even length (read as (even, odd) pairs), for every catalogue wavelet in the
/// types [`SHAPES_2D`] (too small for such tiles) and 1920x1080 (i16 and f32 only) leave out.
pub const INNER_TILES_2D: [usize; 2] = [160, 300];

/// Full-size cases: 1920x1080 (the paper's Table III) in i16 and f32, and a 3-D volume; and
/// every catalogue wavelet on [`INNER_TILES_2D`], integers in i32 and floats in f64.
pub fn large(backend: &dyn Backend, volume: [usize; 3]) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for name in [
        "LeGall53",
        "DeslauriersDubuc137",
        "Daubechies97Integer",
        "Cdf97",
    ] {
        let w = dwt_catalogue::by_name(name).expect("catalogue wavelet");
        for (shape, levels) in [(&[1080usize, 1920][..], 3), (&volume[..], 2)] {
            let seed = levels as u64 * 7;
            ran += match w.kind {
                ElementKind::Integer => case::<i16>(
                    backend,
                    w,
                    shape,
                    levels,
                    Layout::Mallat,
                    seed,
                    &mut failures,
                ),
                ElementKind::Float => case::<f32>(
                    backend,
                    w,
                    shape,
                    levels,
                    Layout::Interleaved,
                    seed,
                    &mut failures,
                ),
            };
        }
    }
    for w in dwt_catalogue::all() {
        let shape = &INNER_TILES_2D[..];
        ran += match w.kind {
            ElementKind::Integer => {
                case::<i32>(backend, w, shape, 2, Layout::Mallat, 11, &mut failures)
            }
            ElementKind::Float => {
                case::<f64>(backend, w, shape, 2, Layout::Interleaved, 11, &mut failures)
            }
        };
    }
    report("large sizes", backend, ran, failures);
}

/// A float wavelet whose steps read only their own pair (an orthonormal Haar): with the
/// catalogue's two integer Haars, what [`pyramids`] and [`pair_volumes`] run in every element
/// type.
pub const FLOAT_HAAR: &str = "wavelet FloatHaar { kind = float; boundary = symmetric; \
    odd -= even[0]; even += 1/2*odd[0]; scale 1.4142135623730951; }";

/// Sizes whose sides are multiples of 4 or 8, where a 2-D transform by a pair-local program
/// (Haar) lifts its first levels in pyramid launches of two or three levels, then a tile launch
/// per level: with `levels` up to the table's, every split of the levels the planner makes
/// (2; 3; 3 + 2; 3 + 3; pyramids then tiles) and a row wider than one group of 128 with a
/// part-filled last group (264).
pub const PYRAMID_SHAPES: &[([usize; 2], u32)] = &[
    ([8, 8], 3),
    ([4, 12], 3),
    ([16, 24], 4),
    ([32, 48], 5),
    ([64, 128], 6),
    ([32, 64], 5),
    ([40, 264], 3),
    ([24, 8], 4),
];

/// The pair-local programs (the catalogue's Haars in i16 and i32, [`FLOAT_HAAR`] in f32 and
/// f64) on [`PYRAMID_SHAPES`] at every level count up to the table's, in both layouts, both ways
/// and the round trip, and at 1920x1080 (i16) three levels: the pyramid kernels and the tile
/// launches after them against the CPU reference.
pub fn pyramids(backend: &dyn Backend) {
    let mut failures = Vec::new();
    let shapes = PYRAMID_SHAPES
        .iter()
        .map(|(shape, most)| (&shape[..], *most));
    let mut ran = pair_local_programs(backend, shapes, &mut failures);
    for name in ["HaarNoShift", "HaarWithShift"] {
        let w = dwt_catalogue::by_name(name).expect("catalogue");
        for layout in [Layout::Mallat, Layout::Interleaved] {
            ran += case::<i16>(backend, w, &[1080, 1920], 3, layout, 5, &mut failures);
        }
    }
    report("pyramids", backend, ran, failures);
}

/// The pair-local programs (the catalogue's Haars in i16 and i32, [`FLOAT_HAAR`] in f32 and
/// f64) on each of `shapes` at every level count up to its own, in both layouts, both ways and
/// the round trip; returns the comparisons that ran.
fn pair_local_programs<'s>(
    backend: &dyn Backend,
    shapes: impl Iterator<Item = (&'s [usize], u32)>,
    failures: &mut Vec<String>,
) -> usize {
    let mut ran = 0;
    let float = dwt_ir::parse_wavelet(FLOAT_HAAR).expect("FLOAT_HAAR parses");
    let haars =
        ["HaarNoShift", "HaarWithShift"].map(|n| dwt_catalogue::by_name(n).expect("catalogue"));
    for (shape, most) in shapes {
        for levels in 1..=most {
            let seed = shape.iter().fold(levels as u64, |s, &n| s * 37 + n as u64);
            for layout in [Layout::Mallat, Layout::Interleaved] {
                for w in haars {
                    ran += case::<i16>(backend, w, shape, levels, layout, seed, failures)
                        + case::<i32>(backend, w, shape, levels, layout, seed, failures);
                }
                ran += case::<f32>(backend, &float, shape, levels, layout, seed, failures)
                    + case::<f64>(backend, &float, shape, levels, layout, seed, failures);
            }
        }
    }
    ran
}

/// Volumes and level counts for the pair-local volume kernels, which lift every level of a 3-D
/// transform by a pair-local program (Haar) where every level's band has even sides, two
/// levels a launch (the pyramid) and the last of an odd count alone: one block, rows of one
/// group and of several with a part-filled last group (264 samples, 132 blocks of two; 520,
/// 130 blocks of four), the pyramid then one level, two pyramids (four levels), two then one
/// (five: the bands between launches alternate between the scratch's halves); and sides that
/// turn odd at a level (the two passes at every level then).
pub const PAIR_VOLUME_SHAPES: &[([usize; 3], u32)] = &[
    ([2, 2, 2], 1),
    ([4, 8, 12], 2),
    ([16, 8, 24], 3),
    ([8, 4, 264], 2),
    ([4, 4, 520], 2),
    ([16, 16, 16], 4),
    ([32, 32, 32], 5),
    ([12, 6, 10], 2),
    ([9, 6, 10], 1),
];

/// The pair-local programs (the catalogue's Haars in i16 and i32, [`FLOAT_HAAR`] in f32 and
/// f64) on [`PAIR_VOLUME_SHAPES`] at every level count up to the table's, in both layouts, both
/// ways and the round trip: the pair-local volume kernel against the CPU reference.
pub fn pair_volumes(backend: &dyn Backend) {
    let mut failures = Vec::new();
    let shapes = PAIR_VOLUME_SHAPES
        .iter()
        .map(|(shape, most)| (&shape[..], *most));
    let ran = pair_local_programs(backend, shapes, &mut failures);
    report("pair-local volumes", backend, ran, failures);
}

fn random_step() -> impl Strategy<Value = Step> {
    (
        any::<bool>(),
        any::<bool>(),
        proptest::collection::btree_map(-3i32..=3, (1i64..=20, any::<bool>()), 1..=4),
        0u32..=6,
        any::<u16>(),
    )
        .prop_map(|(odd, add, taps, shift, r)| Step {
            target: if odd { Phase::Odd } else { Phase::Even },
            sign: if add { Sign::Add } else { Sign::Sub },
            taps: Laurent::from_terms(
                taps.into_iter()
                    .map(|(k, (c, neg))| (k, Coeff::int(if neg { -c } else { c }))),
            ),
            rounding: if shift == 0 {
                0
            } else {
                r as i64 % (1 << shift)
            },
            shift,
        })
}

/// Random integer wavelets: 1 to 5 steps of 1 to 4 taps at offsets -3..=3 with coefficients up to
/// 20, shifts up to 6 with any rounding constant, one of `boundaries`, a pre-shift up to
/// `max_pre_shift`.
pub fn random_wavelet(
    boundaries: &'static [Boundary],
    max_pre_shift: u32,
) -> impl Strategy<Value = Wavelet> {
    (
        proptest::collection::vec(random_step(), 1..=5),
        proptest::sample::select(boundaries),
        0u32..=max_pre_shift,
    )
        .prop_map(|(steps, boundary, shift)| Wavelet {
            name: "Random".into(),
            doc: vec![],
            kind: ElementKind::Integer,
            boundary,
            shift,
            program: Program {
                ops: steps.into_iter().map(Op::Lift).collect(),
            },
        })
}

/// The differential property test: `cases` random lifting programs on random sizes (small 2-D
/// and 3-D ones and larger planes with inner tiles, as [`random_requests`] draws them), levels and
/// layouts give the same bits on the backend as on the CPU reference, both ways, in i32 (which
/// every backend must run). `PROPTEST_CASES` in the environment, when set, replaces `cases` (to
/// search longer on a device than CI can afford).
pub fn random_programs(backend: &dyn Backend, cases: u32) {
    let wavelets = random_wavelet(
        &[Boundary::Clamp, Boundary::Symmetric, Boundary::Periodic],
        2,
    );
    random_requests(
        backend,
        "random programs",
        cases,
        wavelets,
        |request, seed| {
            let input = data::<i32>(request.shape.iter().product(), seed, false);
            match matches_reference::<i32>(backend, request, &input)? {
                true => Ok(()),
                false => Err("i32 refused as unsupported".into()),
            }
        },
    );
}

/// `cases` wavelets drawn from `wavelets` (`PROPTEST_CASES`, when set, replaces `cases`), each on
/// a random size, 1 to 3 levels and either layout, `check`ed forward and inverse with a seed for
/// its data; the first failure (shrunk) panics, headed `what`. Sizes, in three cases in four:
/// 2-D up to 40x40 (3-D, up to 6 planes deep, in one case in three), where every tile touches an
/// edge and the edge rules are tried hardest; in the fourth, planes of 100 to 330 samples a side
/// (one, or 2 to 4 in one case in four), where the default tiles (64x32 samples) and the
/// candidates' (up to 128 wide and 64 tall) have inner tiles, whose code (the lean accesses, the
/// asynchronous loads, the register segments away from the edges) small planes never reach.
fn random_requests(
    backend: &dyn Backend,
    what: &str,
    cases: u32,
    wavelets: impl Strategy<Value = Wavelet>,
    check: impl Fn(&Request, u64) -> Result<(), String>,
) {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    let small = (
        prop_oneof![2 => Just(1usize), 1 => 2usize..=6],
        1usize..=40,
        1usize..=40,
    );
    let large = (
        prop_oneof![3 => Just(1usize), 1 => 2usize..=4],
        100usize..=330,
        100usize..=330,
    );
    let strategy = (
        wavelets,
        prop_oneof![3 => small, 1 => large],
        1u32..=3,
        any::<bool>(),
        any::<u64>(),
    );
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(
        &strategy,
        |(w, (depth, h, wd), levels, interleaved, seed)| {
            let shape = match depth {
                1 => vec![h, wd],
                _ => vec![depth, h, wd],
            };
            let levels = levels.min(max_levels(&shape));
            // A periodic program needs even lengths at every level: each side of two samples
            // or more rounded up to a multiple of 2^levels.
            let shape: Vec<usize> = match w.boundary {
                Boundary::Periodic => (shape.iter())
                    .map(|&n| {
                        if n < 2 {
                            n
                        } else {
                            n.next_multiple_of(1 << levels)
                        }
                    })
                    .collect(),
                _ => shape,
            };
            let layout = if interleaved {
                Layout::Interleaved
            } else {
                Layout::Mallat
            };
            for direction in [Direction::Forward, Direction::Inverse] {
                let request = Request {
                    wavelet: &w,
                    direction,
                    shape: shape.clone(),
                    levels,
                    layout,
                };
                check(&request, seed).map_err(|e| {
                    TestCaseError::fail(format!(
                        "{}\n{direction:?} {shape:?} {levels} levels {layout:?}: {e}",
                        w
                    ))
                })?;
            }
            Ok(())
        },
    );
    if let Err(e) = result {
        panic!("{what} on {}: {e}", backend.name());
    }
}

/// A random float step: 1 to 4 taps at offsets -3..=3, each coefficient either an exact
/// sixteenth up to 3/2 in magnitude or a float between 0.01 and 1.6 (as the catalogue's CDF
/// 9/7 writes its own), so that both kinds of literal reach the kernels.
fn random_float_step() -> impl Strategy<Value = Step> {
    let coeff = prop_oneof![
        (1i64..=24, any::<bool>()).prop_map(|(k, neg)| Coeff::ratio(if neg { -k } else { k }, 16)),
        (0.01f64..1.6, any::<bool>()).prop_map(|(c, neg)| Coeff::Float(if neg { -c } else { c })),
    ];
    (
        any::<bool>(),
        any::<bool>(),
        proptest::collection::btree_map(-3i32..=3, coeff, 1..=4),
    )
        .prop_map(|(odd, add, taps)| Step {
            target: if odd { Phase::Odd } else { Phase::Even },
            sign: if add { Sign::Add } else { Sign::Sub },
            taps: Laurent::from_terms(taps),
            rounding: 0,
            shift: 0,
        })
}

/// Random float wavelets: 1 to 4 steps ([`random_float_step`]), one of `boundaries`, and in one
/// case in two a final scale of each band between 1/2 and 2 (the only place the column and depth
/// passes take one).
pub fn random_float_wavelet(boundaries: &'static [Boundary]) -> impl Strategy<Value = Wavelet> {
    (
        proptest::collection::vec(random_float_step(), 1..=4),
        proptest::sample::select(boundaries),
        proptest::option::of((0.5f64..2.0, 0.5f64..2.0)),
    )
        .prop_map(|(steps, boundary, scale)| {
            let mut ops: Vec<Op> = steps.into_iter().map(Op::Lift).collect();
            if let Some((low, high)) = scale {
                ops.push(Op::Scale {
                    low: Coeff::Float(low),
                    high: Coeff::Float(high),
                });
            }
            Wavelet {
                name: "RandomFloat".into(),
                doc: vec![],
                kind: ElementKind::Float,
                boundary,
                shift: 0,
                program: Program { ops },
            }
        })
}

/// [`random_programs`] for float wavelets ([`random_float_wavelet`]): `cases` random programs on
/// random sizes ([`random_requests`]), levels and layouts match the CPU reference both
/// ways within the suite's tolerance, in f32 (which must run) and f64 (which a device without
/// it may refuse). `PROPTEST_CASES`, when set, replaces `cases` here too.
pub fn random_float_programs(backend: &dyn Backend, cases: u32) {
    let wavelets =
        random_float_wavelet(&[Boundary::Clamp, Boundary::Symmetric, Boundary::Periodic]);
    random_requests(
        backend,
        "random float programs",
        cases,
        wavelets,
        |request, seed| {
            let len = request.shape.iter().product();
            match matches_reference::<f32>(backend, request, &data::<f32>(len, seed, false)) {
                Ok(true) => {}
                Ok(false) => return Err("f32 refused as unsupported".into()),
                Err(e) => return Err(format!("f32: {e}")),
            }
            matches_reference::<f64>(backend, request, &data::<f64>(len, seed, false))
                .map(|_| ())
                .map_err(|e| format!("f64: {e}"))
        },
    );
}

/// The random float programs the suite's macros run for `random_cases` integer ones: a quarter
/// as many, at least one (each builds f32 and f64 modules both ways, twice the integer
/// programs' builds).
pub fn float_cases(random_cases: u32) -> u32 {
    (random_cases / 4).max(1)
}

/// A float program scaling between its steps (the language keeps `scale` last; the IR does not):
/// the sliding window and the fused tiles apply scales only as samples enter or leave them, so
/// the GPU kernels lift it with its scales moved last (`Program::with_scales_moved_last`), which
/// gives the CPU reference's results up to rounding.
pub fn scale_between_steps() -> Wavelet {
    let half = |target, k| Step {
        target,
        sign: Sign::Sub,
        taps: Laurent::from_terms([(0, Coeff::ratio(1, 2)), (k, Coeff::ratio(1, 2))]),
        rounding: 0,
        shift: 0,
    };
    Wavelet {
        name: "ScaledMiddle".into(),
        doc: vec![],
        kind: ElementKind::Float,
        boundary: Boundary::Symmetric,
        shift: 0,
        program: Program {
            ops: vec![
                Op::Lift(half(Phase::Odd, 1)),
                Op::Scale {
                    low: Coeff::int(2),
                    high: Coeff::ratio(1, 2),
                },
                Op::Lift(half(Phase::Even, -1)),
            ],
        },
    }
}

/// Programs whose lines have no ends or whose scales fall between steps: two periodic programs
/// (one pre-shifted), in i16 and i32, which the GPU backends' sliding window lifts reading its
/// lines modulo their length (rows longer than the default row limit among them), and
/// [`scale_between_steps`] in f32, which they lift with its scales moved last; 1-D to 3-D,
/// degenerate sides to 512x768 and 4x8200, both layouts, forward, inverse and the round trip.
/// Unlike the catalogue's, a refusal here fails: no backend may refuse these programs.
pub fn lines(backend: &dyn Backend) {
    let periodic = |name: &str, predict: &str, shift: u32| {
        dwt_ir::parse_wavelet(&format!(
            "wavelet {name} {{ boundary = periodic; shift = {shift}; odd -= {predict}; even += (odd[-1] + odd[0] + 2) >> 2; }}"
        ))
        .expect("a periodic program")
    };
    let legall = periodic("PeriodicLeGall", "(even[0] + even[1]) >> 1", 0);
    let shifted = periodic(
        "PeriodicShifted",
        "(9*(even[0] + even[1]) - (even[-1] + even[2]) + 8) >> 4",
        1,
    );
    let scaled = scale_between_steps();
    // Periodic sides are even at every level; the scaled program's need not be.
    let periodic_shapes: &[(&[usize], u32)] = &[
        (&[16], 2),
        (&[1, 16], 2),
        (&[16, 1], 2),
        (&[2, 16], 1),
        (&[8, 8], 3),
        (&[64, 96], 3),
        (&[512, 768], 2),
        (&[4, 4, 4], 2),
        (&[8, 24, 40], 3),
        // Longer than the default row limit (8192): the window along the rows, in segments.
        (&[4, 8200], 2),
        (&[8200, 2], 1),
    ];
    let scaled_shapes: &[(&[usize], u32)] = &[
        (&[1, 64], 1),
        (&[8, 8], 2),
        (&[37, 51], 3),
        (&[5, 9, 12], 2),
        // Planes with inner tiles, now that the fused pass lifts it.
        (&[130, 200], 2),
    ];
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut each = |w: &Wavelet, shapes: &[(&[usize], u32)]| {
        for &(shape, levels) in shapes {
            for layout in [Layout::Mallat, Layout::Interleaved] {
                let seed = shape.iter().fold(levels as u64, |s, &n| s * 31 + n as u64);
                let f = &mut failures;
                let counts = match w.kind {
                    ElementKind::Integer => vec![
                        (
                            "i16",
                            case::<i16>(backend, w, shape, levels, layout, seed, f),
                        ),
                        (
                            "i32",
                            case::<i32>(backend, w, shape, levels, layout, seed, f),
                        ),
                    ],
                    ElementKind::Float => vec![(
                        "f32",
                        case::<f32>(backend, w, shape, levels, layout, seed, f),
                    )],
                };
                // Each type's case runs forward, inverse and the round trip: 3 when none refused.
                for (elem, n) in counts {
                    ran += n;
                    if n < 3 {
                        failures.push(format!(
                            "{} {elem} {shape:?} {levels} levels {layout:?}: refused (see the notes above)",
                            w.name
                        ));
                    }
                }
            }
        }
    };
    each(&legall, periodic_shapes);
    each(&shifted, periodic_shapes);
    each(&scaled, scaled_shapes);
    report(
        "periodic programs and a scale between steps",
        backend,
        ran,
        failures,
    );
}

/// Bad requests are errors, not panics, and leave the data untouched.
pub fn rejects_bad_requests(backend: &dyn Backend) {
    let w = dwt_catalogue::by_name("LeGall53").expect("catalogue wavelet");
    let mut d = vec![7i32; 15];
    let bad = [
        Request {
            wavelet: w,
            direction: Direction::Forward,
            shape: vec![4, 4],
            levels: 1,
            layout: Layout::Mallat,
        },
        Request {
            wavelet: w,
            direction: Direction::Forward,
            shape: vec![3, 5],
            levels: 4,
            layout: Layout::Mallat,
        },
    ];
    for request in &bad {
        let e = backend.run(request, Samples::I32(&mut d));
        assert!(e.is_err(), "{} accepted {request:?}", backend.name());
        assert!(
            d.iter().all(|&x| x == 7),
            "{} changed the data of a refused request",
            backend.name()
        );
    }
    let mut f = vec![0f32; 16];
    let e = backend.run(
        &Request {
            wavelet: w,
            direction: Direction::Forward,
            shape: vec![4, 4],
            levels: 1,
            layout: Layout::Mallat,
        },
        Samples::F32(&mut f),
    );
    assert!(
        matches!(e, Err(DwtError::KindMismatch { .. })),
        "{}: integer wavelet on f32 gave {e:?}",
        backend.name()
    );
}

/// Instantiates the whole suite as `#[test]` functions for a backend, built afresh by `$backend`
/// in each test (an expression of a type implementing [`Backend`]). Attributes before the
/// backend go on every test: a backend whose device CI lacks marks them
/// `#[ignore = "needs ..."]`, so they are reported as not run, never as passed. `random_cases`
/// integer programs ([`random_programs`]) and [`float_cases`] of that float ones
/// ([`random_float_programs`]).
///
/// ```ignore
/// dwt_runtime::conformance_tests!(backend = my_backend::Backend::new().expect("device"), window_height = 64, random_cases = 32, volume = [40, 40, 40]);
/// dwt_runtime::conformance_tests!(#[ignore = "needs an NVIDIA GPU"] backend = Gpu::new().unwrap(), window_height = 64, random_cases = 32, volume = [40, 40, 40]);
/// ```
#[macro_export]
macro_rules! conformance_tests {
    ($(#[$attr:meta])* backend = $backend:expr, window_height = $h:expr, random_cases = $n:expr, volume = $v:expr) => {
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_catalogue_1d, $crate::conformance::catalogue_1d(&$backend));
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_catalogue_2d, $crate::conformance::catalogue_2d(&$backend));
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_catalogue_3d, $crate::conformance::catalogue_3d(&$backend));
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_window_edges, $crate::conformance::window_edges(&$backend, $h));
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_large_sizes, $crate::conformance::large(&$backend, $v));
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_random_programs, $crate::conformance::random_programs(&$backend, $n));
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_random_float_programs, $crate::conformance::random_float_programs(&$backend, $crate::conformance::float_cases($n)));
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_rejects_bad_requests, $crate::conformance::rejects_bad_requests(&$backend));
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_pyramids, $crate::conformance::pyramids(&$backend));
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_pair_volumes, $crate::conformance::pair_volumes(&$backend));
        $crate::conformance_tests!(@one [$(#[$attr])*] conformance_lines, $crate::conformance::lines(&$backend));
    };
    (@one [$($attr:tt)*] $test:ident, $check:expr) => {
        #[test]
        $($attr)*
        fn $test() {
            $check;
        }
    };
}

/// [`conformance_tests!`](crate::conformance_tests) once per plan variant of a backend whose
/// kernels come from `dwt-emit-c`, so that every variant its planner can choose is held to the
/// same suite: module `fused` (the default config: the fused 2-D pass where it applies),
/// `two_pass` (`LaunchConfig::two_pass()`) and `tiny_tiles` (`LaunchConfig::tiny_tiles()`, the
/// 2-D parts of the suite, and 3-D for [`tiny_tile_volume_wavelets`]). `backend` is a path to a
/// function from the config to the backend (absolute, e.g. `crate::backend`: it is named from
/// inside the modules); `random_cases` gives the random integer programs per variant, in that
/// order (and [`float_cases`] of each the float ones).
#[macro_export]
macro_rules! conformance_variants {
    ($(#[$attr:meta])* backend = $make:path, config = $cfg:ty, random_cases = [$fused:expr, $two_pass:expr, $tiny:expr], volume = $v:expr) => {
        mod fused {
            $crate::conformance_tests!($(#[$attr])* backend = $make(<$cfg>::default()), window_height = <$cfg>::default().window_height, random_cases = $fused, volume = $v);
        }
        mod two_pass {
            $crate::conformance_tests!($(#[$attr])* backend = $make(<$cfg>::two_pass()), window_height = <$cfg>::default().window_height, random_cases = $two_pass, volume = $v);
        }
        mod tiny_tiles {
            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_catalogue_2d, $crate::conformance::catalogue_2d(&$make(<$cfg>::tiny_tiles())));
            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_catalogue_3d, $crate::conformance::catalogue_3d_of(&$make(<$cfg>::tiny_tiles()), $crate::conformance::tiny_tile_volume_wavelets()));
            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_random_programs, $crate::conformance::random_programs(&$make(<$cfg>::tiny_tiles()), $tiny));
            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_random_float_programs, $crate::conformance::random_float_programs(&$make(<$cfg>::tiny_tiles()), $crate::conformance::float_cases($tiny)));
            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_large_sizes, $crate::conformance::large(&$make(<$cfg>::tiny_tiles()), [8, 8, 8]));
        }
    };
}

/// The suite's 2-D, 3-D, large-size and random-program parts once per candidate configuration a
/// measuring planner may choose besides those [`conformance_variants!`](crate::conformance_variants)
/// covers (the configured one and the two passes): each candidate of
/// `<$cfg>::default().candidates()` whose config is neither the default nor two-pass. `backend`
/// makes the backend from a config, as there; `random_cases` random integer programs per candidate
/// (and [`float_cases`] of that float ones).
#[macro_export]
macro_rules! conformance_candidates {
    ($(#[$attr:meta])* backend = $make:path, config = $cfg:ty, two_pass = $two:expr, random_cases = $n:expr, volume = $v:expr) => {
        mod candidates {
            /// The candidates the other variants' modules do not cover, with their names.
            fn others() -> Vec<(&'static str, $cfg)> {
                let default = <$cfg>::default();
                let others: Vec<_> = default
                    .candidates()
                    .into_iter()
                    .filter(|c| c.config != default && c.config.strategy != $two)
                    .map(|c| (c.name, c.config))
                    .collect();
                assert!(!others.is_empty(), "no candidates beyond the default and two passes");
                others
            }

            /// `check` on every candidate's backend, each on a thread of its own (most of the
            /// time goes into compiling their modules); a failure names its candidate.
            fn each(check: impl Fn(&dyn $crate::Backend) + Sync) {
                let check = &check;
                std::thread::scope(|s| {
                    let runs: Vec<_> = others()
                        .into_iter()
                        .map(|(name, config)| (name, s.spawn(move || check(&$make(config)))))
                        .collect();
                    let failed: Vec<&str> = runs
                        .into_iter()
                        .filter_map(|(name, h)| h.join().is_err().then_some(name))
                        .collect();
                    assert!(failed.is_empty(), "failed for the candidates {failed:?} (their panics are above)");
                });
            }

            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_catalogue_2d, each(|b| $crate::conformance::catalogue_2d(b)));
            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_catalogue_3d, each(|b| $crate::conformance::catalogue_3d(b)));
            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_large_sizes, each(|b| $crate::conformance::large(b, $v)));
            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_random_programs, each(|b| $crate::conformance::random_programs(b, $n)));
            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_random_float_programs, each(|b| $crate::conformance::random_float_programs(b, $crate::conformance::float_cases($n))));
            $crate::conformance_tests!(@one [$(#[$attr])*] conformance_pyramids, each(|b| $crate::conformance::pyramids(b)));
        }
    };
}
