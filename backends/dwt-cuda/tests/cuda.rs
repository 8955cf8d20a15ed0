//! What is particular to the CUDA backend: the Unavailable error without the driver or NVRTC, and
//! (on a GPU) the device-slice API and a long-row transform.

use cudarc::driver::CudaSlice;
use dwt_cuda::{check_libraries, CudaBackend, DRIVER_MISSING, NVRTC_MISSING};
use dwt_emit_c::{Axis, Pass, Step};
use dwt_ir::{Direction, Layout};
use dwt_runtime::conformance::matches_reference;
use dwt_runtime::{cpu, Backend, DwtError, Request, Samples};

#[test]
fn missing_libraries_are_unavailable_with_what_to_install() {
    assert!(check_libraries(true, true).is_ok());
    let e = check_libraries(false, true).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("backend `cuda` is not available: {DRIVER_MISSING}")
    );
    assert!(e.to_string().contains("install an NVIDIA driver"), "{e}");
    let e = check_libraries(true, false).unwrap_err();
    assert!(
        e.to_string()
            .contains("pip install nvidia-cuda-nvrtc==13.0.88"),
        "{e}"
    );
    assert!(e.to_string().contains("LD_LIBRARY_PATH"), "{e}");
    let e = check_libraries(false, false).unwrap_err();
    assert!(
        e.to_string().contains(DRIVER_MISSING) && e.to_string().contains(NVRTC_MISSING),
        "{e}"
    );
}

/// Without libcuda (CI), `new` is that error, never a panic; with a device it works.
#[test]
fn new_is_unavailable_without_the_driver() {
    // SAFETY: only tries to open the library.
    let driver = unsafe { cudarc::driver::sys::is_culib_present() };
    match CudaBackend::new() {
        Ok(b) => {
            assert!(driver);
            assert_eq!(b.name(), "cuda");
            eprintln!("CUDA device: {}", b.device());
        }
        Err(e) => {
            let DwtError::Unavailable { backend, reason } = &e else {
                panic!("expected Unavailable, got {e:?}");
            };
            assert_eq!(backend, "cuda");
            if !driver {
                assert!(reason.starts_with(DRIVER_MISSING), "{reason}");
            }
        }
    }
}

fn legall() -> &'static dwt_ir::Wavelet {
    dwt_catalogue::by_name("LeGall53").expect("catalogue wavelet")
}

/// Host test data for `shape`: values in -2000..=2000, never a constant run.
fn ramp<T: From<i16>>(shape: &[usize]) -> Vec<T> {
    (0..shape.iter().product::<usize>())
        .map(|i| T::from(((i * 7919) % 4001) as i16 - 2000))
        .collect()
}

/// [`ramp`] as it changes round by round (scaled by `round + 1`, shifted by `shift * round`),
/// so that a replayed graph that read stale input or wrote stale output would show.
fn round_ramp(shape: &[usize], round: i32, shift: i32) -> Vec<i32> {
    ramp::<i32>(shape)
        .iter()
        .map(|v| v * (round + 1) - shift * round)
        .collect()
}

/// A forward LeGall 5/3 request of 3 levels.
fn legall_forward(shape: &[usize], layout: Layout) -> Request<'static> {
    Request {
        wavelet: legall(),
        direction: Direction::Forward,
        shape: shape.to_vec(),
        levels: 3,
        layout,
    }
}

/// What the CPU reference makes of `host` under [`legall_forward`] in the Mallat layout.
fn legall_forward_reference(host: &[i32], shape: &[usize]) -> Vec<i32> {
    let mut want = host.to_vec();
    cpu::transform(
        legall(),
        Direction::Forward,
        &mut want,
        shape,
        3,
        Layout::Mallat,
    )
    .unwrap();
    want
}

/// The graphs `b` recorded and replayed since it counted `before`.
fn graphs_since(b: &CudaBackend, before: dwt_cuda::GraphCounts) -> (usize, usize) {
    let now = b.graph_counts();
    (
        now.recorded - before.recorded,
        now.replayed - before.replayed,
    )
}

#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn device_slice_round_trip_copies_nothing_to_the_host() {
    let b = CudaBackend::new().expect("a CUDA device");
    let shape = vec![67usize, 131];
    let host: Vec<i16> = ramp(&shape);
    let stream = b.stream();
    let mut data = stream.clone_htod(&host).unwrap();
    for layout in [Layout::Mallat, Layout::Interleaved] {
        let mut req = legall_forward(&shape, layout);
        b.run_on_device(&req, &mut data).unwrap();
        let forward = stream.clone_dtoh(&data).unwrap();
        let mut want = host.clone();
        cpu::transform(legall(), Direction::Forward, &mut want, &shape, 3, layout).unwrap();
        assert_eq!(forward, want, "{layout:?} forward");
        req.direction = Direction::Inverse;
        b.run_on_device(&req, &mut data).unwrap();
        assert_eq!(
            stream.clone_dtoh(&data).unwrap(),
            host,
            "{layout:?} round trip"
        );
    }
    // A wrong length is refused before anything runs.
    let req = Request {
        wavelet: legall(),
        direction: Direction::Forward,
        shape: vec![10, 10],
        levels: 1,
        layout: Layout::Mallat,
    };
    assert!(matches!(
        b.run_on_device(&req, &mut data),
        Err(DwtError::BufferLength { .. })
    ));
}

#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn out_of_place_runs_leave_the_source_alone() {
    let b = CudaBackend::new().expect("a CUDA device");
    let shape = vec![301usize, 517];
    let host: Vec<i32> = ramp(&shape);
    let stream = b.stream();
    for layout in [Layout::Mallat, Layout::Interleaved] {
        let src = stream.clone_htod(&host).unwrap();
        let mut mid = stream.alloc_zeros::<i32>(host.len()).unwrap();
        let mut back = stream.alloc_zeros::<i32>(host.len()).unwrap();
        let mut req = legall_forward(&shape, layout);
        assert!(b.is_fused(&req, dwt_ir::ElementType::I32).unwrap());
        b.run_on_device_into(&req, &src, &mut mid).unwrap();
        let mut want = host.clone();
        cpu::transform(legall(), Direction::Forward, &mut want, &shape, 3, layout).unwrap();
        assert_eq!(stream.clone_dtoh(&mid).unwrap(), want, "{layout:?} forward");
        assert_eq!(
            stream.clone_dtoh(&src).unwrap(),
            host,
            "{layout:?} source kept"
        );
        req.direction = Direction::Inverse;
        b.run_on_device_into(&req, &mid, &mut back).unwrap();
        assert_eq!(
            stream.clone_dtoh(&back).unwrap(),
            host,
            "{layout:?} round trip"
        );
        assert_eq!(
            stream.clone_dtoh(&mid).unwrap(),
            want,
            "{layout:?} inverse source kept"
        );
        // A destination of another length is refused before anything runs.
        let mut short = stream.alloc_zeros::<i32>(host.len() - 1).unwrap();
        assert!(matches!(
            b.run_on_device_into(&req, &mid, &mut short),
            Err(DwtError::Unsupported { .. })
        ));
    }
}

/// Transforms replay a recorded CUDA graph from their buffers' third call: a replay must read
/// the buffers' current data, and other buffers (more than the graphs kept), in place, two-pass
/// and on another stream must each get a graph of their own; the graphs of one stream share
/// their scratch and input copy, also when replays are queued without waiting. Recorded with
/// the copy kernel for the input copy in place (`with_copy_kernel_from(0)`; 130140 bytes, the
/// last 12 by memcpy) as with a memcpy node. Every result is checked against the CPU
/// reference, and the backend's counts say what was recorded and replayed.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn graph_replays_read_the_current_data_of_their_own_buffers() {
    let shape = vec![135usize, 241];
    let n: usize = shape.iter().product();
    let fused = CudaBackend::new().expect("a CUDA device");
    let two_pass = CudaBackend::with_config(dwt_cuda::LaunchConfig::two_pass()).unwrap();
    let unrecorded = CudaBackend::new().unwrap().with_graph_limit(0);
    let copying = CudaBackend::new().unwrap().with_copy_kernel_from(0);
    let other_stream = fused.context().new_stream().unwrap();
    let req = legall_forward(&shape, Layout::Mallat);
    // The copy kernel is built where it would be launched, and only there.
    let modules = |b: &CudaBackend| -> Vec<String> {
        let report = b.prepare(&req, dwt_ir::ElementType::I32).unwrap().report;
        report
            .modules
            .iter()
            .flat_map(|m| m.kernels.clone())
            .collect()
    };
    for (b, copies, what) in [
        (&fused, false, "fused"),
        (&copying, true, "fused, copy kernel"),
    ] {
        let kernels = modules(b);
        assert_eq!(
            kernels.iter().any(|k| k == dwt_cuda::COPY_KERNEL),
            copies,
            "{what}: {kernels:?}"
        );
    }
    let want = |host: &[i32]| legall_forward_reference(host, &shape);
    let data = |round: usize, i: usize| -> Vec<i32> {
        ramp::<i32>(&shape)
            .iter()
            .map(|v| v + (round * 1000 + i) as i32)
            .collect()
    };
    for (b, stream, what) in [
        (&fused, fused.stream(), "fused"),
        (&two_pass, two_pass.stream(), "two-pass"),
        (&unrecorded, unrecorded.stream(), "no graphs"),
        (&fused, other_stream.clone(), "fused, another stream"),
        (&copying, copying.stream(), "fused, copy kernel"),
    ] {
        let few = 3;
        let many = dwt_cuda::GRAPHS_KEPT + 2;
        let mut srcs: Vec<_> = (0..few + many)
            .map(|_| stream.alloc_zeros::<i32>(n).unwrap())
            .collect();
        let mut dsts: Vec<_> = (0..few + many)
            .map(|_| stream.alloc_zeros::<i32>(n).unwrap())
            .collect();
        // Three rounds over fewer buffer pairs than the graphs kept, then over more, new data
        // every call: each pair runs into its destination and in place on its source.
        for (phase, pairs) in [(0, 0..few), (1, few..few + many)] {
            let before = b.graph_counts();
            for round in 0..3 {
                for i in pairs.clone() {
                    let (src, dst) = (&mut srcs[i], &mut dsts[i]);
                    let host = data(round, i);
                    stream.memcpy_htod(&host, src).unwrap();
                    b.run_on_device_into(&req, src, dst).unwrap();
                    assert_eq!(
                        stream.clone_dtoh(dst).unwrap(),
                        want(&host),
                        "{what}: into, phase {phase}, round {round}, pair {i}"
                    );
                    // In place on the source: the fused plan copies it first.
                    b.run_on_device(&req, src).unwrap();
                    assert_eq!(
                        stream.clone_dtoh(src).unwrap(),
                        want(&host),
                        "{what}: in place, phase {phase}, round {round}, pair {i}"
                    );
                }
            }
            let calls = 2 * pairs.len();
            // Round 0 runs directly, round 1 records; round 2 replays when the graphs fit, and
            // records again when the pairs outnumber them (the oldest was dropped each time).
            let (recorded, replayed) = match (what, phase) {
                ("no graphs", _) => (0, 0),
                (_, 0) => (calls, calls),
                _ => (2 * calls, 0),
            };
            assert_eq!(
                graphs_since(b, before),
                (recorded, replayed),
                "{what}, phase {phase}: graphs recorded and replayed"
            );
            if phase == 0 {
                // The few pairs' replays queued back to back, read back only at the end: each
                // waits for the one before it on the stream, so their shared scratch and copy
                // hold.
                let before = b.graph_counts();
                let hosts: Vec<Vec<i32>> = (0..few).map(|i| data(3, i)).collect();
                for (i, host) in hosts.iter().enumerate() {
                    stream.memcpy_htod(host, &mut srcs[i]).unwrap();
                    b.run_on_device_into(&req, &srcs[i], &mut dsts[i]).unwrap();
                    b.run_on_device(&req, &mut srcs[i]).unwrap();
                }
                for (i, host) in hosts.iter().enumerate() {
                    let want = want(host);
                    assert_eq!(
                        stream.clone_dtoh(&dsts[i]).unwrap(),
                        want,
                        "{what}: queued into, pair {i}"
                    );
                    assert_eq!(
                        stream.clone_dtoh(&srcs[i]).unwrap(),
                        want,
                        "{what}: queued in place, pair {i}"
                    );
                }
                let replayed = if what == "no graphs" { 0 } else { 2 * few };
                assert_eq!(
                    graphs_since(b, before),
                    (0, replayed),
                    "{what}: queued replays"
                );
            }
        }
    }
}

/// The two passes' band copy (a volume whose rows take the row segments: three passes that
/// cross between the data and the scratch, so the level starts from a copy of the band) made
/// by the copy kernel in a recorded graph: 5 x 10 x 99 i32, 19800 bytes, the last 8 by memcpy.
/// Both ways, into a destination, recorded at the second call and replayed at the third, each
/// against the CPU reference.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn band_copies_by_the_copy_kernel_match_the_reference() {
    let config = dwt_cuda::LaunchConfig {
        max_row_len: 64,
        ..dwt_cuda::LaunchConfig::two_pass()
    };
    let b = CudaBackend::with_config(config)
        .expect("a CUDA device")
        .with_copy_kernel_from(0);
    let shape = vec![5usize, 10, 99];
    let n: usize = shape.iter().product();
    let w = dwt_catalogue::by_name("LeGall53").unwrap();
    let stream = b.stream();
    for direction in [Direction::Forward, Direction::Inverse] {
        let req = Request {
            wavelet: w,
            direction,
            shape: shape.clone(),
            levels: 2,
            layout: Layout::Mallat,
        };
        let plan = b.launch_plan(&req, dwt_ir::ElementType::I32).unwrap();
        assert!(
            plan.steps.iter().any(|s| matches!(s, Step::Copy(_))),
            "{direction:?}: {plan:?}"
        );
        let report = b.prepare(&req, dwt_ir::ElementType::I32).unwrap().report;
        assert!(
            (report.modules.iter()).any(|m| m.kernels.iter().any(|k| k == dwt_cuda::COPY_KERNEL)),
            "{report}"
        );
        let mut src = stream.alloc_zeros::<i32>(n).unwrap();
        let mut dst = stream.alloc_zeros::<i32>(n).unwrap();
        let before = b.graph_counts();
        for round in 0..3 {
            let host = round_ramp(&shape, round, 5);
            let mut want = host.clone();
            cpu::transform(w, direction, &mut want, &shape, 2, Layout::Mallat).unwrap();
            stream.memcpy_htod(&host, &mut src).unwrap();
            b.run_on_device_into(&req, &src, &mut dst).unwrap();
            assert_eq!(
                stream.clone_dtoh(&dst).unwrap(),
                want,
                "{direction:?}, round {round}"
            );
        }
        assert_eq!(graphs_since(&b, before), (1, 1), "{direction:?}");
    }
}

/// `host` uploaded to `src` and transformed by `req` in place there or into `dst`, downloaded.
fn transform_round(
    b: &CudaBackend,
    req: &Request,
    in_place: bool,
    host: &[i32],
    src: &mut CudaSlice<i32>,
    dst: &mut CudaSlice<i32>,
) -> Vec<i32> {
    let stream = b.stream();
    stream.memcpy_htod(host, src).unwrap();
    let out = if in_place {
        b.run_on_device(req, src).unwrap();
        src
    } else {
        b.run_on_device_into(req, src, dst).unwrap();
        dst
    };
    stream.clone_dtoh(out).unwrap()
}

/// Large transforms replay graphs too (above 2^21 samples, where they once launched directly):
/// the fused plan's three levels hand their low bands on through a scratch, which the graphs
/// of a stream share, and in place each also copies the input into a buffer they share. A
/// limit below the size launches directly.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn large_transforms_replay_graphs_sharing_their_scratch() {
    let shape = vec![1100usize, 2048];
    let n: usize = shape.iter().product();
    let graphed = CudaBackend::new().expect("a CUDA device");
    let limited = CudaBackend::new().unwrap().with_graph_limit(n - 1);
    let req = legall_forward(&shape, Layout::Mallat);
    for (b, in_place, graphs, what) in [
        (&graphed, false, (1, 1), "into"),
        (&graphed, true, (1, 1), "in place"),
        (&limited, false, (0, 0), "into, under a smaller limit"),
    ] {
        let stream = b.stream();
        let mut src = stream.alloc_zeros::<i32>(n).unwrap();
        let mut dst = stream.alloc_zeros::<i32>(n).unwrap();
        let before = b.graph_counts();
        for round in 0..3 {
            let host = round_ramp(&shape, round, 7);
            assert_eq!(
                transform_round(b, &req, in_place, &host, &mut src, &mut dst),
                legall_forward_reference(&host, &shape),
                "{what}, round {round}"
            );
        }
        assert_eq!(
            graphs_since(b, before),
            graphs,
            "{what}: graphs recorded and replayed"
        );
    }
}

/// A request's two plans record graphs on one stream that need different scratch: out of place
/// a 512^3 LeGall 5/3 volume lifts each level in one pass (half the volume of scratch), in
/// place the two passes (the whole volume). Recorded in that order, the in-place graph once
/// wrote past the scratch the first recording sized (`CUDA_ERROR_ILLEGAL_ADDRESS`, 7d83a72);
/// each recording that needs more now gets a longer buffer. Both replay and match the CPU
/// reference, round after round of new data.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn a_volume_in_place_after_out_of_place_records_with_scratch_enough() {
    let shape = vec![512usize, 512, 512];
    let n: usize = shape.iter().product();
    let b = CudaBackend::new().expect("a CUDA device");
    let req = legall_forward(&shape, Layout::Mallat);
    let stream = b.stream();
    let mut src = stream.alloc_zeros::<i32>(n).unwrap();
    let mut dst = stream.alloc_zeros::<i32>(n).unwrap();
    let wants: Vec<(Vec<i32>, Vec<i32>)> = (0..3)
        .map(|round| {
            let host = round_ramp(&shape, round, 7);
            let want = legall_forward_reference(&host, &shape);
            (host, want)
        })
        .collect();
    for in_place in [false, true] {
        let before = b.graph_counts();
        for (round, (host, want)) in wants.iter().enumerate() {
            let got = transform_round(&b, &req, in_place, host, &mut src, &mut dst);
            let wrong = got.iter().zip(want).filter(|(g, w)| g != w).count();
            assert_eq!(
                wrong, 0,
                "in place: {in_place}, round {round}: samples differ"
            );
        }
        assert_eq!(graphs_since(&b, before), (1, 1), "in place: {in_place}");
    }
}

/// The element type the tests below run `w` in: i32 for integer programs, f32 for float ones.
fn elem_of(w: &dwt_ir::Wavelet) -> dwt_ir::ElementType {
    match w.kind {
        dwt_ir::ElementKind::Integer => dwt_ir::ElementType::I32,
        dwt_ir::ElementKind::Float => dwt_ir::ElementType::F32,
    }
}

/// Residues of a prime stride, one per sample of `req` (every value of the range, no pattern a
/// tile repeats): i32 from -5000 for integer programs, f32 hundredths for float ones; whether
/// `b` transforms them as the CPU reference does.
fn residues_match_reference(b: &CudaBackend, req: &Request) -> Result<bool, String> {
    let n = req.shape.iter().product::<usize>() as i64;
    let residues = (0..n).map(|i| (i * 7919 % 10007) as i32);
    match req.wavelet.kind {
        dwt_ir::ElementKind::Integer => {
            let input: Vec<i32> = residues.map(|r| r - 5000).collect();
            matches_reference(b, req, &input)
        }
        dwt_ir::ElementKind::Float => {
            let input: Vec<f32> = residues.map(|r| r as f32 / 100.0).collect();
            matches_reference(b, req, &input)
        }
    }
}

/// A program reaching three indices per step, found by the random-program suite: under the
/// 64x16-of-512 candidate its tile kernel declared more than 48 KiB of shared memory and NVRTC
/// refused it. Every candidate now runs it (without a tile where it would not fit), both ways,
/// both layouts, as the CPU reference does.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn a_far_reaching_program_runs_on_every_candidate() {
    let w = dwt_ir::parse_wavelet(
        "wavelet Far { kind = integer; boundary = symmetric; even -= odd[-1]; odd -= even[-3] + even[3]; even -= odd[-1] + odd[3]; }",
    )
    .unwrap();
    for candidate in dwt_cuda::LaunchConfig::default().candidates() {
        let b = CudaBackend::with_config(candidate.config).unwrap();
        for shape in [&[3usize, 3][..], &[5, 5], &[37, 45]] {
            for levels in 1..=2 {
                for layout in [Layout::Mallat, Layout::Interleaved] {
                    for direction in [Direction::Forward, Direction::Inverse] {
                        let req = Request {
                            wavelet: &w,
                            direction,
                            shape: shape.to_vec(),
                            levels,
                            layout,
                        };
                        assert_eq!(
                            residues_match_reference(&b, &req),
                            Ok(true),
                            "{} {shape:?} {levels} {layout:?} {direction:?}",
                            candidate.name
                        );
                    }
                }
            }
        }
    }
}

/// The forward's inner tiles copy their pairs asynchronously (`cp.async`, a copy per pair into
/// rows interleaved as they lie, read so by the pass along x) where `LaunchConfig::async_load`
/// says: by rule the programs of six taps or more, CDF 9/7 (f32 and f64), Fidelity, Daubechies
/// 9/7 and both Deslauriers-Dubuc programs; the pre-shifted ones (all but CDF 9/7) hold their
/// inner tiles' samples as stored and shift them as the pass along x reads them. The conformance suite runs them on one image with inner tiles
/// (`INNER_TILES_2D`, two levels, one layout); this runs each copying module on images with
/// inner tiles and edge tiles of every kind, one and three levels, both layouts, against the
/// CPU reference. One width is even, where rows are read as (even, odd) pairs and copied; the
/// other odd, where rows load one sample at a time, interleaved and unshifted too in a
/// pre-shifted program's inner tiles (the same pass reads them); and a volume, whose x-y planes
/// kernel copies the same way.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn asynchronous_copies_match_the_reference() {
    use dwt_ir::ElementType::{F32, F64, I32};
    let residues = |n: usize| (0..n as i64).map(|i| (i * 7919 % 10007) as i32);
    for (name, elem) in [
        ("Cdf97", F32),
        ("Cdf97", F64),
        ("Fidelity", I32),
        ("Daubechies97Integer", I32),
        ("DeslauriersDubuc97", I32),
        ("DeslauriersDubuc137", I32),
    ] {
        let w = dwt_catalogue::by_name(name).expect("catalogue wavelet");
        let config = dwt_cuda::LaunchConfig::default();
        let module = dwt_emit_c::emit_module(
            &dwt_emit_c::Cuda,
            w,
            Direction::Forward,
            elem,
            Layout::Mallat,
            &config,
        )
        .unwrap();
        let source = module.source();
        assert!(
            source.contains("copy_async_pair(&tile["),
            "{name} {elem:?} copies"
        );
        assert_eq!(
            source.contains("= pre_shift(tile["),
            w.shift > 0,
            "{name} {elem:?}: the shift as the pass along x reads"
        );
        let b = CudaBackend::with_config(config).unwrap();
        for shape in [vec![301usize, 518], vec![300, 517], vec![8, 100, 260]] {
            let n = shape.iter().product();
            for (levels, layout) in [1, 3].into_iter().flat_map(|levels| {
                [Layout::Mallat, Layout::Interleaved].map(|layout| (levels, layout))
            }) {
                let req = Request {
                    wavelet: w,
                    direction: Direction::Forward,
                    shape: shape.clone(),
                    levels,
                    layout,
                };
                let matches = match elem {
                    F32 => {
                        let input: Vec<f32> = residues(n).map(|r| r as f32 / 100.0).collect();
                        matches_reference(&b, &req, &input)
                    }
                    F64 => {
                        let input: Vec<f64> = residues(n).map(|r| r as f64 / 100.0).collect();
                        matches_reference(&b, &req, &input)
                    }
                    _ => {
                        let input: Vec<i32> = residues(n).map(|r| r - 5000).collect();
                        matches_reference(&b, &req, &input)
                    }
                };
                assert_eq!(
                    matches,
                    Ok(true),
                    "{name} {elem:?} {shape:?} {levels} {layout:?}"
                );
            }
        }
    }
}

/// A kernel that spills under the register cap runs without it: CDF 9/7's forward with
/// register segments of 16 held to full occupancy (`LaunchConfig::register_cap`; ptxas spills
/// it, as `nvrtc.rs` checks) is built without the cap on the device (`uncapped_kernels` names
/// its tile kernel and the bytes it spilled, and the source it runs asks for no number of groups
/// per multiprocessor) and matches the CPU reference. With the default segments the cap stays:
/// nothing spills under it.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn a_kernel_that_spills_under_the_register_cap_runs_without_it() {
    let w = dwt_catalogue::by_name("Cdf97").expect("catalogue wavelet");
    let req = Request {
        wavelet: w,
        direction: Direction::Forward,
        // More samples than `SMALL_BAND`: the first level runs the configured tiles' kernel.
        shape: vec![601, 1000],
        levels: 2,
        layout: Layout::Mallat,
    };
    let capped = "__launch_bounds__(256, 8)";
    for (segment, spills) in [(16, true), (8, false)] {
        let config = dwt_cuda::LaunchConfig {
            segment,
            register_cap: Some(true),
            ..dwt_cuda::LaunchConfig::default()
        };
        let b = CudaBackend::with_config(config).unwrap();
        let uncapped = b.uncapped_kernels(&req, dwt_ir::ElementType::F32).unwrap();
        let source = b.kernel_source(&req, dwt_ir::ElementType::F32).unwrap();
        eprintln!("segments of {segment}: uncapped {uncapped:?}");
        if spills {
            assert_eq!(uncapped.len(), 1, "{uncapped:?}");
            assert!(
                uncapped[0].0.ends_with("_tile") && uncapped[0].1 > 0,
                "{uncapped:?}"
            );
        } else {
            assert!(uncapped.is_empty(), "{uncapped:?}");
        }
        assert_eq!(source.contains(capped), !spills, "segments of {segment}");
        assert_eq!(
            residues_match_reference(&b, &req),
            Ok(true),
            "segments of {segment}"
        );
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn long_rows_take_the_sliding_kernel_and_match_the_reference() {
    let b = CudaBackend::with_config(dwt_cuda::LaunchConfig {
        max_row_len: 64,
        ..Default::default()
    })
    .expect("a CUDA device");
    for w in [
        legall(),
        dwt_catalogue::by_name("Cdf97").expect("catalogue"),
    ] {
        for direction in [Direction::Forward, Direction::Inverse] {
            let req = Request {
                wavelet: w,
                direction,
                shape: vec![9, 301],
                levels: 2,
                layout: Layout::Mallat,
            };
            let ok = residues_match_reference(&b, &req);
            assert_eq!(ok, Ok(true), "{} {direction:?}", w.name);
        }
    }
}

/// The two passes' rows kernel at its default limit (8192 samples of i32 and f32, whole rows in
/// 32 KiB of shared memory; f64 slides that row and takes its second level's 4096 whole), and
/// one sample past it (the sliding kernel), against the CPU reference.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn rows_at_the_default_limit_take_the_rows_kernel_and_match_the_reference() {
    let b = CudaBackend::with_config(dwt_cuda::LaunchConfig::two_pass()).expect("a CUDA device");
    let limit = b.config().row_limit(dwt_ir::ElementType::I32);
    assert_eq!(limit, 8192);
    for w in [
        legall(),
        dwt_catalogue::by_name("Cdf97").expect("catalogue"),
    ] {
        for width in [limit, limit + 1] {
            for direction in [Direction::Forward, Direction::Inverse] {
                let req = Request {
                    wavelet: w,
                    direction,
                    shape: vec![3, width],
                    levels: 2,
                    layout: Layout::Mallat,
                };
                let ok = residues_match_reference(&b, &req).and_then(|a| {
                    if w.kind == dwt_ir::ElementKind::Integer {
                        return Ok(a);
                    }
                    let n = (3 * width) as i64;
                    let f64s: Vec<f64> = (0..n)
                        .map(|i| (((i * 7919) % 10007) as f32 / 100.0) as f64 * 1.5)
                        .collect();
                    Ok(a && matches_reference(&b, &req, &f64s)?)
                });
                assert_eq!(ok, Ok(true), "{} {width} {direction:?}", w.name);
            }
        }
    }
}

/// Both layouts and directions of `levels` levels of `w` on `shape` with `b` (i32 or f32 input),
/// each plan launching a kernel that `expected` accepts, against the CPU reference.
fn plans_with_match_the_reference(
    b: &CudaBackend,
    w: &dwt_ir::Wavelet,
    shape: &[usize],
    levels: u32,
    expected: impl Fn(&dwt_emit_c::Launch) -> bool,
) {
    for layout in [Layout::Mallat, Layout::Interleaved] {
        for direction in [Direction::Forward, Direction::Inverse] {
            let req = Request {
                wavelet: w,
                direction,
                shape: shape.to_vec(),
                levels,
                layout,
            };
            let plan = b.launch_plan(&req, elem_of(w)).unwrap();
            assert!(
                plan.steps
                    .iter()
                    .any(|s| matches!(s, Step::Launch(l) if expected(l))),
                "{} {shape:?}: {plan:?}",
                w.name
            );
            assert_eq!(
                residues_match_reference(b, &req),
                Ok(true),
                "{} {shape:?} {layout:?} {direction:?}",
                w.name
            );
        }
    }
}

/// The small forwards whose first level takes `FIRST_LEVEL_TILE` (programs with a step spanning
/// four indices or more, more than 960x540 samples and at most 1920x1080): that level on 32x32
/// tiles, the later ones on the configured tiles, against the CPU reference in i16 and i32, both
/// layouts, at 1920x1080 and an odd 601x1001.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn small_forwards_on_wider_first_level_tiles_match_the_reference() {
    let b = CudaBackend::new().expect("a CUDA device");
    let (tile, threads, _) = dwt_emit_c::FIRST_LEVEL_TILE;
    for name in ["DeslauriersDubuc97", "DeslauriersDubuc137", "Fidelity"] {
        let w = dwt_catalogue::by_name(name).expect("catalogue");
        for shape in [[1080, 1920], [601, 1001]] {
            for layout in [Layout::Mallat, Layout::Interleaved] {
                let req = Request {
                    wavelet: w,
                    direction: Direction::Forward,
                    shape: shape.to_vec(),
                    levels: 3,
                    layout,
                };
                let what = format!("{name} {shape:?} {layout:?}");
                let plan = b.launch_plan(&req, dwt_ir::ElementType::I16).unwrap();
                let Some(Step::Launch(first)) = plan.steps.first() else {
                    panic!("{what}: {plan:?}");
                };
                let groups = [
                    shape[1].div_ceil(2).div_ceil(tile[0]),
                    shape[0].div_ceil(2).div_ceil(tile[1]),
                    1,
                ];
                assert_eq!((first.groups, first.block[0]), (groups, threads), "{what}");
                let n = shape[0] * shape[1];
                let i16s: Vec<i16> = (0..n).map(|i| ((i * 7919) % 511) as i16 - 255).collect();
                assert_eq!(matches_reference(&b, &req, &i16s), Ok(true), "{what} i16");
                assert_eq!(residues_match_reference(&b, &req), Ok(true), "{what} i32");
            }
        }
    }
}

/// Rows longer than the rows kernel holds (a 1-D signal of 300001 samples, an image 20000 wide)
/// take the row-segments kernel, many groups per row, and match the CPU reference at three
/// levels, both layouts: the segments' margins and the rows' ends in every step.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn long_rows_take_row_segments_and_match_the_reference() {
    let b = CudaBackend::new().expect("a CUDA device");
    for w in [
        legall(),
        dwt_catalogue::by_name("Cdf97").expect("catalogue"),
        dwt_catalogue::by_name("Fidelity").expect("catalogue"),
    ] {
        for shape in [vec![300_001], vec![3, 20_000]] {
            plans_with_match_the_reference(&b, w, &shape, 3, |l| l.pass == Pass::RowSegments);
        }
    }
}

/// Where a sliding-window launch has too few slabs of whole columns to fill the device, the
/// default rule splits its columns into segments (`LaunchConfig::column_segment`): the two
/// passes' columns of a tall image (2 slabs: 3000 rows in 23 segments of 132, Fidelity 18 of
/// 168), the fused 3-D plan's depth pass of a deep volume of small planes (600 planes in 4
/// segments, Fidelity 3), both layouts and directions, two levels, against the CPU reference.
/// The fused plan without the one-pass volume kernel, which would lift LeGall 5/3's and CDF
/// 9/7's forward with no depth pass.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn column_segments_by_the_rule_match_the_reference() {
    let two_pass = CudaBackend::with_config(dwt_cuda::LaunchConfig::two_pass()).unwrap();
    let fused = CudaBackend::with_config(dwt_cuda::LaunchConfig {
        one_pass_volumes: Some(false),
        ..Default::default()
    })
    .expect("a CUDA device");
    for w in [
        legall(),
        dwt_catalogue::by_name("Cdf97").expect("catalogue"),
        dwt_catalogue::by_name("Fidelity").expect("catalogue"),
    ] {
        for (b, shape, axis) in [
            (&two_pass, vec![3000, 64], Axis::Y),
            (&fused, vec![600, 8, 40], Axis::Z),
        ] {
            plans_with_match_the_reference(b, w, &shape, 2, |l| {
                l.pass == Pass::Window(axis) && l.groups[2] > 1
            });
        }
    }
}

/// On planes of 3840x2160 samples or more the long filters take wider tiles by default
/// (`LaunchConfig::long_filter_tiles`): the executor launches them (tiles of 64 polyphase
/// indices along x for the inverses, 32x32 for Fidelity's forward), and they match the CPU
/// reference at odd sizes, three levels, where every kind of edge tile runs at full scale.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn long_filters_on_large_planes_take_wider_tiles_and_match_the_reference() {
    // Level 1's band: 1923 x 1082 polyphase indices per phase.
    launches_level1_on_and_matches_the_reference(
        &[2163, 3845],
        &[
            ("DeslauriersDubuc97", Direction::Inverse, [31, 68]),
            ("DeslauriersDubuc137", Direction::Inverse, [31, 68]),
            ("Fidelity", Direction::Inverse, [31, 68]),
            ("Fidelity", Direction::Forward, [61, 34]),
            // Two taps per step: the configured 32x16 tiles.
            ("Cdf97", Direction::Inverse, [61, 68]),
        ],
    );
}

/// From 4096x4096 samples the long programs take taller tiles by default: Fidelity 48x32 both
/// ways, the forwards loading six halo indices or more per line and Daubechies 9/7's inverse
/// 32x24; the executor launches them, and they match the CPU reference at odd sizes, three
/// levels.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn long_filters_on_the_largest_planes_take_taller_tiles_and_match_the_reference() {
    // Level 1's band: 2052 x 2050 polyphase indices per phase.
    launches_level1_on_and_matches_the_reference(
        &[4099, 4103],
        &[
            ("Fidelity", Direction::Forward, [43, 65]),
            ("Fidelity", Direction::Inverse, [43, 65]),
            ("Daubechies97Integer", Direction::Inverse, [65, 86]),
            ("Daubechies97Integer", Direction::Forward, [65, 86]),
            ("DeslauriersDubuc137", Direction::Forward, [65, 86]),
            ("Cdf97", Direction::Forward, [65, 86]),
            // Deslauriers-Dubuc (9,7)'s forward loads five halo indices: the configured tiles.
            ("DeslauriersDubuc97", Direction::Forward, [65, 129]),
        ],
    );
}

/// From `EVEN_ROWS_MIN_SAMPLES` samples an interleaved forward of several levels lifts its first
/// level with the tile kernel's variant that keeps the even rows compact in the scratch, on the
/// tiles the request takes (Fidelity's and Daubechies 9/7's taller ones from 4096x4096), and
/// ends with the even rows: it matches the CPU reference at odd sizes, three levels.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn large_interleaved_forwards_end_with_the_even_rows_and_match_the_reference() {
    let b = CudaBackend::new().expect("a CUDA device");
    for name in [
        "Fidelity",
        "Daubechies97Integer",
        "LeGall53",
        "Cdf97",
        "Cdf53",
    ] {
        let w = dwt_catalogue::by_name(name).expect("catalogue");
        let req = Request {
            wavelet: w,
            direction: Direction::Forward,
            shape: vec![4099, 4103],
            levels: 3,
            layout: Layout::Interleaved,
        };
        let plan = b.launch_plan(&req, elem_of(w)).unwrap();
        let kernels: Vec<&str> = (plan.steps.iter())
            .filter_map(|s| match s {
                Step::Launch(l) => Some(l.kernel.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(kernels.len(), 4, "{name}: {kernels:?}");
        assert!(
            kernels[0].ends_with("_even_rows_tile"),
            "{name}: {kernels:?}"
        );
        assert!(kernels[3].ends_with("_even_rows"), "{name}: {kernels:?}");
        assert_eq!(residues_match_reference(&b, &req), Ok(true), "{name}");
    }
}

/// Runs each (wavelet, direction) on `shape`, three levels: its finest level's fused launch
/// has `groups` groups of 256 work-items, and the result matches the CPU reference.
fn launches_level1_on_and_matches_the_reference(
    shape: &[usize],
    cases: &[(&str, Direction, [usize; 2])],
) {
    let b = CudaBackend::new().expect("a CUDA device");
    for &(name, direction, groups) in cases {
        let w = dwt_catalogue::by_name(name).expect("catalogue");
        let req = Request {
            wavelet: w,
            direction,
            shape: shape.to_vec(),
            levels: 3,
            layout: Layout::Mallat,
        };
        let what = format!("{name} {direction:?} {shape:?}");
        let plan = b.launch_plan(&req, elem_of(w)).unwrap();
        // The finest level's launch: the most groups (the inverse runs it last).
        let level1 = (plan.steps.iter())
            .filter_map(|s| match s {
                Step::Launch(l) if l.pass == Pass::Fused => Some(l),
                _ => None,
            })
            .max_by_key(|l| l.groups[0] * l.groups[1]);
        let level1 = level1.unwrap_or_else(|| panic!("{what}: no fused launch"));
        assert_eq!([level1.groups[0], level1.groups[1]], groups, "{what}");
        assert_eq!(level1.block[0] * level1.block[1], 256, "{what}");
        assert_eq!(residues_match_reference(&b, &req), Ok(true), "{what}");
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn host_run_of_a_macro_wavelet() {
    let b = CudaBackend::new().expect("a CUDA device");
    let w = dwt_catalogue::by_name("DeslauriersDubuc137").expect("catalogue");
    let mut image: Vec<i16> = (0..1080 * 1920)
        .map(|i| ((i * 31) % 511) as i16 - 255)
        .collect();
    let original = image.clone();
    let mut req = Request {
        wavelet: w,
        direction: Direction::Forward,
        shape: vec![1080, 1920],
        levels: 4,
        layout: Layout::Mallat,
    };
    b.run(&req, Samples::I16(&mut image)).unwrap();
    req.direction = Direction::Inverse;
    b.run(&req, Samples::I16(&mut image)).unwrap();
    assert_eq!(image, original);
}

/// A volume runs the fused kernel on its x-y planes and the depth pass per level, out of place
/// and in place (its finest level in one pass out of place); `time_steps` times each of those
/// steps and leaves the same result.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn volumes_run_fused_and_time_steps_times_each_step() {
    let b = CudaBackend::new().expect("a CUDA device");
    // Deeper than two windows of the depth pass.
    let shape = vec![150usize, 37, 53];
    let host: Vec<i32> = ramp(&shape);
    let stream = b.stream();
    for layout in [Layout::Mallat, Layout::Interleaved] {
        let mut req = legall_forward(&shape, layout);
        let mut want = host.clone();
        cpu::transform(legall(), Direction::Forward, &mut want, &shape, 3, layout).unwrap();
        for direction in [Direction::Forward, Direction::Inverse] {
            req.direction = direction;
            assert!(b.is_fused(&req, dwt_ir::ElementType::I32).unwrap());
            let (input, output) = match direction {
                Direction::Forward => (&host, &want),
                Direction::Inverse => (&want, &host),
            };
            let src = stream.clone_htod(input).unwrap();
            let mut dst = stream.alloc_zeros::<i32>(host.len()).unwrap();
            b.run_on_device_into(&req, &src, &mut dst).unwrap();
            assert_eq!(
                &stream.clone_dtoh(&dst).unwrap(),
                output,
                "{layout:?} {direction:?}"
            );
            let mut in_place = src.clone();
            b.run_on_device(&req, &mut in_place).unwrap();
            assert_eq!(
                &stream.clone_dtoh(&in_place).unwrap(),
                output,
                "{layout:?} {direction:?} in place"
            );
            let mut timed = stream.alloc_zeros::<i32>(host.len()).unwrap();
            let steps = b.time_steps(&req, &src, &mut timed, 3).unwrap();
            // The forward's first level in one pass (the one-pass volume kernel), then per level
            // the planes and z (levels 1 and 2 too few groups for the kernel); the inverse per
            // level z, then the planes, and its last level in one pass.
            assert_eq!(steps.len(), 5, "{steps:?}");
            // The steps timed are the plan's, in its order.
            let plan = b.launch_plan(&req, dwt_ir::ElementType::I32).unwrap();
            let timed_steps: Vec<&Step> = steps.iter().map(|s| &s.step).collect();
            assert_eq!(timed_steps, plan.steps.iter().collect::<Vec<_>>());
            let pass = |s: &Step| match s {
                Step::Launch(l) => l.pass,
                Step::Copy(_) => panic!("a fused plan copies nothing"),
            };
            let (first, last) = (pass(&plan.steps[0]), pass(&plan.steps[4]));
            let want = match direction {
                Direction::Forward => (Pass::Volume, Pass::Window(Axis::Z)),
                Direction::Inverse => (Pass::Window(Axis::Z), Pass::Volume),
            };
            assert_eq!((first, last), want);
            assert!(
                steps
                    .iter()
                    .all(|s| matches!(s.step, Step::Launch(_)) && s.median_ms > 0.0),
                "{steps:?}"
            );
            assert_eq!(
                &stream.clone_dtoh(&timed).unwrap(),
                output,
                "{layout:?} {direction:?} timed"
            );
            assert_eq!(&stream.clone_dtoh(&src).unwrap(), input, "source kept");
        }
    }
    // The two passes per axis: the rows kernel into the scratch, then the sliding window back
    // to the data (no band copy between them).
    let two_pass = CudaBackend::with_config(dwt_cuda::LaunchConfig::two_pass()).unwrap();
    let req = legall_forward(&[64, 64], Layout::Mallat);
    let req = Request { levels: 1, ..req };
    let src = stream.clone_htod(&ramp::<i32>(&[64, 64])).unwrap();
    let mut dst = stream.alloc_zeros::<i32>(64 * 64).unwrap();
    let steps = two_pass.time_steps(&req, &src, &mut dst, 2).unwrap();
    let passes: Vec<Option<Pass>> = steps
        .iter()
        .map(|s| match &s.step {
            Step::Launch(l) => Some(l.pass),
            Step::Copy(_) => None,
        })
        .collect();
    assert_eq!(
        passes,
        [Some(Pass::Rows), Some(Pass::Window(Axis::Y))],
        "{steps:?}"
    );
    assert!(two_pass.time_steps(&req, &src, &mut dst, 0).is_err());
}

/// A 2-D shape near `base` that this run has to itself (within a few tens of samples, from the
/// clock), so that no earlier run's choices on disk answer for it.
fn fresh_shape(base: [usize; 2]) -> Vec<usize> {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as usize;
    vec![base[0] + seed % 97, base[1] + seed % 89]
}

/// The measuring planner times every distinct candidate, runs the fastest (whose result is the
/// reference's), keeps the choice on disk, and a later preparation takes it without timing.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn the_measuring_planner_runs_the_fastest_candidate_and_caches_the_choice() {
    use dwt_cuda::Tuning;
    let b = CudaBackend::new()
        .expect("a CUDA device")
        .with_tuning(Tuning::Measured);
    // A shape of its own so no earlier run (or earlier test binary) cached its choice.
    let shape = fresh_shape([300, 1000]);
    let req = legall_forward(&shape, Layout::Mallat);
    let host: Vec<i16> = ramp(&shape);
    assert!(matches_reference(&b, &req, &host).unwrap(), "tuned result");
    let t = b
        .tuning_report(&req, dwt_ir::ElementType::I16)
        .unwrap()
        .expect("a 2-D request is tuned");
    eprintln!("{t}");
    assert!(!t.cached);
    // LeGall 5/3 in i16: the configured form, the other access forms, three tile shapes, two
    // passes (the lean forms' two unrolls differ for an integer program: both timed).
    assert!(t.timings.len() >= 6, "{t}");
    assert!(t.skipped.is_empty(), "{t}");
    let fastest = t.timings.iter().min_by_key(|(_, d)| *d).unwrap();
    assert_eq!(fastest.0, t.chosen, "{t}");
    assert!(t.timings.iter().all(|(_, d)| !d.is_zero()), "{t}");
    // A new preparation of the same request takes the choice remembered, measuring nothing.
    let again = b.prepare(&req, dwt_ir::ElementType::I16).unwrap();
    let t2 = again.report.tuning.expect("tuned");
    assert!(t2.cached, "{t2}");
    assert_eq!(t2.chosen, t.chosen);
    assert!(t2.timings.is_empty());
    // Other processes find it on disk, where there is a cache folder.
    if let Some(dir) = dwt_emit_c::disk_cache::cache_dir() {
        let choices = std::fs::read_dir(dir.join("cuda-tuning")).expect("the choices' folder");
        let named = |e: std::io::Result<std::fs::DirEntry>| {
            e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "choice"))
        };
        assert!(choices.into_iter().any(named), "a choice on disk");
    }
    // 1-D requests take the configuration as given.
    let line = Request {
        wavelet: legall(),
        direction: Direction::Forward,
        shape: vec![4096],
        levels: 3,
        layout: Layout::Mallat,
    };
    assert!(b
        .tuning_report(&line, dwt_ir::ElementType::I16)
        .unwrap()
        .is_none());
}

/// The level-pair kernel (a forward's first two levels in one launch) against the CPU
/// reference: with the size threshold lifted, the programs it takes on images of one tile, a
/// row of three and two by four, two and three levels, both element types of their kind (i16
/// and f64 on the per-level plan); and by
/// default at 4096x4096, three levels (CDF 5/3 f32, LeGall 5/3 i32), where the plan launches it.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn level_pairs_match_the_reference() {
    let always = dwt_cuda::LaunchConfig {
        level_pairs_from: Some(0),
        ..dwt_cuda::LaunchConfig::default()
    };
    let b = CudaBackend::with_config(always).expect("a CUDA device");
    let takes = |b: &CudaBackend, req: &Request| {
        let plan = b.launch_plan(req, elem_of(req.wavelet)).unwrap();
        (plan.steps.iter()).any(|s| matches!(s, Step::Launch(l) if l.pass == Pass::LevelPair))
    };
    for name in ["LeGall53", "Cdf53"] {
        let w = dwt_catalogue::by_name(name).expect("catalogue");
        for shape in [[64, 64], [64, 192], [128, 256]] {
            for levels in [2, 3] {
                let req = Request {
                    wavelet: w,
                    direction: Direction::Forward,
                    shape: shape.to_vec(),
                    levels,
                    layout: Layout::Mallat,
                };
                let what = format!("{name} {shape:?} {levels} levels");
                assert!(takes(&b, &req), "{what}");
                assert_eq!(residues_match_reference(&b, &req), Ok(true), "{what}");
                let n = shape[0] * shape[1];
                let other = match w.kind {
                    dwt_ir::ElementKind::Integer => {
                        let i16s: Vec<i16> =
                            (0..n).map(|i| ((i * 7919) % 511) as i16 - 255).collect();
                        matches_reference(&b, &req, &i16s)
                    }
                    dwt_ir::ElementKind::Float => {
                        let f64s: Vec<f64> =
                            (0..n).map(|i| ((i * 31) % 977) as f64 / 7.0).collect();
                        matches_reference(&b, &req, &f64s)
                    }
                };
                assert_eq!(other, Ok(true), "{what}, the other element type");
            }
        }
    }
    let b = CudaBackend::new().expect("a CUDA device");
    for name in ["Cdf53", "LeGall53"] {
        let req = Request {
            wavelet: dwt_catalogue::by_name(name).expect("catalogue"),
            direction: Direction::Forward,
            shape: vec![4096, 4096],
            levels: 3,
            layout: Layout::Mallat,
        };
        assert!(takes(&b, &req), "{name} 4096x4096");
        assert_eq!(
            residues_match_reference(&b, &req),
            Ok(true),
            "{name} 4096x4096"
        );
    }
}

/// The disk cache as a new process meets it: a module whose entry holds a CUBIN loads from the
/// disk without NVRTC, and one whose entry passes the cache's checksum but holds no ELF image is
/// compiled afresh (handed to the driver, it would be read as PTX text). Each source carries a
/// comment unique to the run, so this process's in-memory cache has never seen it.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn disk_cache_entries_load_and_non_elf_entries_recompile() {
    use dwt_runtime::KernelOrigin;
    let b = CudaBackend::new().expect("a CUDA device");
    let req = Request {
        wavelet: legall(),
        direction: Direction::Forward,
        shape: vec![64, 64],
        levels: 1,
        layout: Layout::Mallat,
    };
    let base = b.kernel_source(&req, dwt_ir::ElementType::I32).unwrap();
    let nonce = format!("{}-{:?}", std::process::id(), std::time::SystemTime::now());
    let source = |tag: &str| format!("// {tag} {nonce}\n{base}");
    let id = b.cache_identity().expect("NVRTC's version");
    // The folder the backend writes to: DWT_CACHE_DIR (the GPU test script sets it), else the
    // user's.
    let dir =
        dwt_emit_c::disk_cache::cache_dir().expect("a cache folder ($DWT_CACHE_DIR or ~/.cache)");
    let entry = |s: &str| id.entry(&dir, s);

    let (_, origin, _) = b.build_reporting(&source("first")).unwrap();
    assert_eq!(origin, KernelOrigin::Compiled);
    let cubin = dwt_emit_c::disk_cache::load(&entry(&source("first"))).expect("stored");
    assert!(cubin.starts_with(b"\x7fELF"));

    // A CUBIN under another source's entry: loaded from the disk.
    dwt_emit_c::disk_cache::store(&entry(&source("second")), &cubin).unwrap();
    let (_, origin, _) = b.build_reporting(&source("second")).unwrap();
    assert_eq!(origin, KernelOrigin::DiskCache);

    // A well-formed entry that is not an ELF image: compiled, and the entry replaced.
    let text = b"//\n.version 8.0\n.target sm_90\n";
    dwt_emit_c::disk_cache::store(&entry(&source("third")), text).unwrap();
    let (_, origin, _) = b.build_reporting(&source("third")).unwrap();
    assert_eq!(origin, KernelOrigin::Compiled);
    let stored = dwt_emit_c::disk_cache::load(&entry(&source("third"))).unwrap();
    assert!(stored.starts_with(b"\x7fELF"));
}

/// Each kernel a plan launches is built as a module of its own, once per process: a 1920x1080
/// three-level forward reports its two kernels (the first level's tile, the small bands' tile)
/// compiled apart; the one-level plan of that image launches the first alone and a 256x256
/// plan the second alone, and both find theirs in memory. Each transform matches the CPU
/// reference. The wavelet's name is new to the process and to any disk cache.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn each_kernel_is_built_once_as_a_module_of_its_own() {
    use dwt_ir::ElementType::I16;
    use dwt_runtime::{KernelOrigin, PrepareReport};
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    let text = format!(
        "wavelet Apart{}x{} {{ boundary = clamp; shift = 1; odd -= (even[0] + even[1] + 1) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; }}",
        std::process::id(),
        since.unwrap().as_nanos()
    );
    let w = dwt_ir::parse_wavelet(&text).unwrap();
    let b = CudaBackend::new().expect("a CUDA device");
    let prepare = |shape: &[usize], levels| -> PrepareReport {
        let req = Request {
            wavelet: &w,
            direction: Direction::Forward,
            shape: shape.to_vec(),
            levels,
            layout: Layout::Mallat,
        };
        let report = b.prepare(&req, I16).unwrap().report;
        let input: Vec<i16> = ramp(shape);
        assert_eq!(
            matches_reference(&b, &req, &input),
            Ok(true),
            "{shape:?} {levels}"
        );
        report
    };
    let kernels = |r: &PrepareReport| -> Vec<(Vec<String>, KernelOrigin)> {
        r.modules
            .iter()
            .map(|m| (m.kernels.clone(), m.origin))
            .collect()
    };
    let three = prepare(&[1080, 1920], 3);
    let built = kernels(&three);
    assert_eq!(built.len(), 2, "{three}");
    assert!(
        built[0].0[0].ends_with("_tile") && built[1].0[0].ends_with("_small_tile"),
        "{three}"
    );
    for (names, origin) in &built {
        assert_eq!(
            (names.len(), *origin),
            (1, KernelOrigin::Compiled),
            "{three}"
        );
    }
    assert_eq!(three.origin(), Some(KernelOrigin::Compiled));
    let one = prepare(&[1080, 1920], 1);
    assert_eq!(
        kernels(&one),
        [(built[0].0.clone(), KernelOrigin::Memory)],
        "{one}"
    );
    let small = prepare(&[256, 256], 2);
    assert_eq!(
        kernels(&small),
        [(built[1].0.clone(), KernelOrigin::Memory)],
        "{small}"
    );
}

/// A backend switched to measuring after it prepared a request measures that request afresh
/// (it kept the configured preparation before), and one given a graph limit after preparing
/// runs under the new limit.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn switching_tuning_or_graph_limit_prepares_again() {
    use dwt_cuda::Tuning;
    let b = CudaBackend::new()
        .expect("a CUDA device")
        .with_tuning(Tuning::Fixed);
    let shape = fresh_shape([200, 300]);
    let req = legall_forward(&shape, Layout::Mallat);
    assert!(b
        .tuning_report(&req, dwt_ir::ElementType::I16)
        .unwrap()
        .is_none());
    let b = b.with_tuning(Tuning::Measured);
    let t = b.tuning_report(&req, dwt_ir::ElementType::I16).unwrap();
    assert!(t.is_some_and(|t| !t.timings.is_empty() || t.cached));
    assert!(matches_reference(&b, &req, &ramp::<i16>(&shape)).unwrap());

    // Graphs: recorded at a buffer pair's second call under the default limit, never under 0.
    let b = CudaBackend::new().expect("a CUDA device");
    let host: Vec<i32> = ramp(&shape);
    let mut data = b.stream().clone_htod(&host).unwrap();
    for _ in 0..3 {
        b.run_on_device(&req, &mut data).unwrap();
    }
    assert!(b.graph_counts().recorded > 0, "{:?}", b.graph_counts());
    let b = b.with_graph_limit(0);
    let before = b.graph_counts();
    for _ in 0..3 {
        b.run_on_device(&req, &mut data).unwrap();
    }
    assert_eq!(b.graph_counts(), before);
}

/// A scale between steps runs with its scales moved last, so columns longer than the row limit
/// slide through the window and match the CPU reference, which lifts the program as written
/// (they were refused while such programs took the lines kernel).
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn columns_of_a_scale_between_steps_beyond_the_row_limit_are_lifted() {
    let b = CudaBackend::new().expect("a CUDA device");
    let w = dwt_runtime::conformance::scale_between_steps();
    let limit = b.config().max_row_len;
    for shape in [vec![limit + 2, 2], vec![2, limit + 2]] {
        for direction in [Direction::Forward, Direction::Inverse] {
            let r = Request {
                wavelet: &w,
                direction,
                shape: shape.clone(),
                levels: 1,
                layout: Layout::Mallat,
            };
            let d: Vec<f32> = (0..2 * (limit + 2))
                .map(|i| (i as f32 * 0.37).sin() * 50.0)
                .collect();
            assert_eq!(
                matches_reference(&b, &r, &d),
                Ok(true),
                "{shape:?} {direction:?}"
            );
        }
    }
}

/// Run by the tests of `DWT_CUDA_DEVICE` in a child process with it set: prints the device the
/// backend opened, or its error.
#[test]
#[ignore = "run in a child process with DWT_CUDA_DEVICE set"]
fn device_variable_child() {
    match CudaBackend::new() {
        Ok(b) => println!("DEVICE={}", b.device()),
        Err(e) => println!("ERROR={e}"),
    }
}

fn with_device_variable(value: &str) -> String {
    dwt_runtime::conformance::child_test_line(
        "device_variable_child",
        &[(dwt_cuda::DEVICE_ENV, value)],
        &["DEVICE=", "ERROR="],
    )
}

/// A malformed `DWT_CUDA_DEVICE` is refused saying so before the driver is asked anything, on
/// any machine (CI has no driver).
#[test]
fn a_malformed_device_variable_is_refused_on_any_machine() {
    for bad in ["gpu", "-1", "0:1"] {
        let e = with_device_variable(bad);
        assert!(
            e.starts_with(&format!("ERROR=backend `cuda` is not available: `{bad}` is not a CUDA device ordinal (DWT_CUDA_DEVICE)")),
            "{e}"
        );
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn the_device_variable_picks_the_device_or_says_why_none() {
    let names = CudaBackend::devices().expect("a CUDA device");
    let last = names.len() - 1;
    let e = with_device_variable(&last.to_string());
    assert!(e.starts_with("DEVICE=") && e.contains(&names[last]), "{e}");
    assert!(with_device_variable("").contains(&names[0]));
    let e = with_device_variable(&names.len().to_string());
    assert!(
        e.starts_with(&format!(
            "ERROR=backend `cuda` is not available: there is no CUDA device {} (DWT_CUDA_DEVICE); the devices: 0 {}",
            names.len(),
            names[0]
        )),
        "{e}"
    );
}

/// Each device opens by its ordinal and transforms as the CPU reference does; an ordinal past
/// the last is `Unavailable` listing the devices; with two devices or more, data on one is
/// refused by a backend on another (its kernels cannot run on another context's stream).
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn devices_open_by_ordinal_and_refuse_each_other_s_data() {
    let names = CudaBackend::devices().expect("a CUDA device");
    eprintln!("CUDA devices: {names:?}");
    let shape = [37usize, 45];
    let req = legall_forward(&shape, Layout::Mallat);
    let host: Vec<i32> = ramp(&shape);
    let mut backends = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let b = CudaBackend::on_device(i, dwt_cuda::LaunchConfig::default()).unwrap();
        assert!(
            b.device().contains(name.as_str()),
            "{} / {name}",
            b.device()
        );
        assert_eq!(b.context().ordinal(), i);
        assert_eq!(matches_reference(&b, &req, &host), Ok(true), "device {i}");
        let mut data = b.stream().clone_htod(&host).unwrap();
        b.run_on_device(&req, &mut data).unwrap();
        assert_eq!(
            b.stream().clone_dtoh(&data).unwrap(),
            legall_forward_reference(&host, &shape)
        );
        backends.push(b);
    }
    let e = CudaBackend::on_device(names.len(), dwt_cuda::LaunchConfig::default())
        .err()
        .expect("no such device");
    assert!(
        e.to_string().starts_with(&format!(
            "backend `cuda` is not available: there is no CUDA device {} (CudaBackend::on_device); the devices: 0 {}",
            names.len(),
            names[0]
        )),
        "{e}"
    );
    if let [first, second, ..] = &backends[..] {
        let mut theirs = second.stream().clone_htod(&host).unwrap();
        let e = first.run_on_device(&req, &mut theirs).unwrap_err();
        assert!(
            e.to_string()
                .contains("the data lies on CUDA device 1 but this backend runs on device 0"),
            "{e}"
        );
        let mut ours = first.stream().clone_htod(&host).unwrap();
        let e = first
            .run_on_device_into(&req, &theirs, &mut ours)
            .unwrap_err();
        assert!(
            e.to_string().contains("the source lies on CUDA device 1"),
            "{e}"
        );
        // Refused before anything ran: both still hold the input.
        assert_eq!(second.stream().clone_dtoh(&theirs).unwrap(), host);
        assert_eq!(first.stream().clone_dtoh(&ours).unwrap(), host);
        eprintln!("data across devices: refused");
    } else {
        eprintln!("one CUDA device: the refusal of another device's data needs two (run on a machine of two GPUs)");
    }
}

/// The pair-local volume kernels (every level of a 3-D transform of Haar and the like, two
/// levels a launch in the volume pyramid, the last of an odd count alone) in the plans the backend makes, and run out of place and in place: on the
/// conformance suite's volumes (`conformance::PAIR_VOLUME_SHAPES`, which the suite's
/// `conformance_pair_volumes` runs in every element type), Haar without and with the pre-shift
/// and a float Haar, both ways, both layouts. Volumes whose bands stay even run every level on
/// it, the others the two passes; in place, the Mallat layout the same plan after a copy of the
/// data, the interleaved its levels in place. The integer Haars in i32 against the CPU
/// reference, exactly, the source left alone.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn pair_local_volumes_match_the_reference() {
    use dwt_ir::ElementType::{F32, I32};
    use dwt_runtime::conformance::{FLOAT_HAAR, PAIR_VOLUME_SHAPES};
    let b = CudaBackend::new().expect("a CUDA device");
    let float_haar = dwt_ir::parse_wavelet(FLOAT_HAAR).unwrap();
    let mut runs = 0;
    for (w, elem) in [
        (dwt_catalogue::by_name("HaarNoShift").unwrap(), I32),
        (dwt_catalogue::by_name("HaarWithShift").unwrap(), I32),
        (&float_haar, F32),
    ] {
        for direction in [Direction::Forward, Direction::Inverse] {
            for &(shape, most) in PAIR_VOLUME_SHAPES {
                for levels in 1..=most {
                    let even = (0..levels).all(|l| shape.iter().all(|&n| (n >> l) % 2 == 0));
                    for layout in [Layout::Mallat, Layout::Interleaved] {
                        let req = Request {
                            wavelet: w,
                            direction,
                            shape: shape.to_vec(),
                            levels,
                            layout,
                        };
                        let what = format!(
                            "{} {direction:?} {shape:?} {levels} levels {layout:?}",
                            w.name
                        );
                        let plan = b.launch_plan(&req, elem).unwrap();
                        // Levels by launch, finest first: two in the pyramid, the last of an odd
                        // count alone.
                        let mut lifted = plan.pair_volume_levels();
                        if direction == Direction::Inverse {
                            lifted.reverse();
                        }
                        let pairs = lifted.len();
                        let want = match even {
                            true => [vec![2; levels as usize / 2], vec![1; levels as usize % 2]]
                                .concat(),
                            false => vec![],
                        };
                        assert_eq!(lifted, want, "{what}: {plan:?}");
                        assert!(pairs == 0 || plan.steps.len() == pairs, "{what}: {plan:?}");
                        if pairs > 0 {
                            // In place, the same plan (after a copy of the data in Mallat's).
                            assert_eq!(b.in_place_plan(&req, elem).unwrap(), plan, "{what}");
                        }
                        if elem != I32 {
                            continue;
                        }
                        let mut host: Vec<i32> = ramp(&shape);
                        if direction == Direction::Inverse {
                            cpu::transform(
                                w,
                                Direction::Forward,
                                &mut host,
                                &shape,
                                levels,
                                layout,
                            )
                            .unwrap();
                        }
                        let mut want = host.clone();
                        cpu::transform(w, direction, &mut want, &shape, levels, layout).unwrap();
                        on_device_both_ways(&b, &req, &host, &want, &what);
                        runs += 1;
                    }
                }
            }
        }
    }
    assert!(runs >= 80, "{runs}");
}

/// `req` on the device out of place (`host` to `want`, the source kept) and in place.
fn on_device_both_ways(b: &CudaBackend, req: &Request, host: &[i32], want: &[i32], what: &str) {
    let stream = b.stream();
    let src = stream.clone_htod(host).unwrap();
    let mut dst = stream.alloc_zeros::<i32>(host.len()).unwrap();
    b.run_on_device_into(req, &src, &mut dst).unwrap();
    assert_eq!(stream.clone_dtoh(&dst).unwrap(), want, "{what}");
    assert_eq!(
        stream.clone_dtoh(&src).unwrap(),
        host,
        "{what}: source kept"
    );
    let mut in_place = src.clone();
    b.run_on_device(req, &mut in_place).unwrap();
    assert_eq!(
        stream.clone_dtoh(&in_place).unwrap(),
        want,
        "{what} in place"
    );
}

/// The one-pass volume kernels (a 3-D transform's levels, in the interleaved layout its finest
/// only, the depth lifting in registers) against the CPU reference, the integer programs
/// exactly: one pair of
/// steps (LeGall 5/3 in i32, CDF 5/3 in f32) and two (the integer Daubechies 9/7 in i32, CDF
/// 9/7 in f32), both ways (the inverse of the forward's coefficients). Odd and even sides,
/// volumes of several segments of planes, tiles inside the rows (16-byte loads) and at their
/// edges, bands short of a tile, sides shorter than the halo (reflected more than once), 1 to 3
/// levels, both layouts; the integer programs also in place (the plan without the kernel).
/// Asked for at every level (`one_pass_volumes: Some(true)`): by default the levels past the
/// first take the kernel only where their launch has 128 groups or more, as LeGall 5/3's 256^3
/// level 1 does (level 2 by the two passes), checked at the end both ways.
#[test]
#[ignore = "needs an NVIDIA GPU: cargo test -p dwt-cuda -- --ignored"]
fn one_pass_volumes_match_the_reference() {
    /// The inverse's input: the forward's coefficients of the ramp.
    fn input<E: dwt_runtime::Element>(req: &Request, host: &mut [E]) {
        if req.direction == Direction::Inverse {
            let (w, shape) = (req.wavelet, &req.shape[..]);
            cpu::transform(w, Direction::Forward, host, shape, req.levels, req.layout).unwrap();
        }
    }
    let b = CudaBackend::with_config(dwt_cuda::LaunchConfig {
        one_pass_volumes: Some(true),
        ..Default::default()
    })
    .expect("a CUDA device");
    let shapes: [&[usize]; 8] = [
        &[37, 45, 70],
        &[36, 45, 70],
        &[70, 40, 200],
        &[2, 2, 2],
        &[3, 2, 5],
        &[33, 3, 132],
        &[65, 64, 64],
        &[68, 36, 68],
    ];
    let mut runs = [0, 0];
    for name in ["LeGall53", "Cdf53", "Daubechies97Integer", "Cdf97"] {
        let w = dwt_catalogue::by_name(name).unwrap();
        for (direction, runs) in [Direction::Forward, Direction::Inverse]
            .into_iter()
            .zip(&mut runs)
        {
            for shape in shapes {
                for levels in 1..=3u32 {
                    if shape.iter().any(|&n| n >> (levels - 1) < 2) {
                        continue;
                    }
                    for layout in [Layout::Mallat, Layout::Interleaved] {
                        let req = Request {
                            wavelet: w,
                            direction,
                            shape: shape.to_vec(),
                            levels,
                            layout,
                        };
                        let what =
                            format!("{name} {direction:?} {shape:?} {levels} levels {layout:?}");
                        let has_kernel = |plan: &dwt_emit_c::LaunchPlan| {
                            let at = match direction {
                                Direction::Forward => plan.steps.first(),
                                Direction::Inverse => plan.steps.last(),
                            };
                            // In the Mallat layout: a launch a level.
                            let one_pass =
                                plan.passes().iter().filter(|&&p| p == Pass::Volume).count();
                            let want = match (direction, layout) {
                                (_, Layout::Mallat) => levels as usize,
                                _ => 1,
                            };
                            matches!(at, Some(Step::Launch(l)) if l.pass == Pass::Volume)
                                && one_pass == want
                        };
                        if w.kind == dwt_ir::ElementKind::Integer {
                            let plan = b.launch_plan(&req, dwt_ir::ElementType::I32).unwrap();
                            assert!(has_kernel(&plan), "{what}: {plan:?}");
                            // In place, the plan without the kernel, which copies nothing first.
                            let in_place = b.in_place_plan(&req, dwt_ir::ElementType::I32).unwrap();
                            assert!(in_place.runs_in_place() && !plan.runs_in_place(), "{what}");
                            assert!(
                                in_place.steps.iter().all(
                                    |s| matches!(s, Step::Launch(l) if l.pass != Pass::Volume)
                                ),
                                "{what}: {in_place:?}"
                            );
                            let mut host: Vec<i32> = ramp(shape);
                            input(&req, &mut host);
                            let mut want = host.clone();
                            cpu::transform(w, direction, &mut want, shape, levels, layout).unwrap();
                            if direction == Direction::Inverse {
                                assert_eq!(
                                    want,
                                    ramp::<i32>(shape),
                                    "{what}: the reference inverts"
                                );
                            }
                            on_device_both_ways(&b, &req, &host, &want, &what);
                        } else {
                            let plan = b.launch_plan(&req, dwt_ir::ElementType::F32).unwrap();
                            assert!(has_kernel(&plan), "{what}: {plan:?}");
                            let mut host: Vec<f32> = ramp(shape);
                            input(&req, &mut host);
                            assert_eq!(matches_reference(&b, &req, &host), Ok(true), "{what}");
                        }
                        *runs += 1;
                    }
                }
            }
        }
    }
    assert!(runs[0] >= 130 && runs[1] >= 130, "{runs:?}");
    // The default rule on a volume large enough for a coarser level's launch, both ways: the
    // inverse of the forward's coefficients gives the ramp back.
    let b = CudaBackend::new().expect("a CUDA device");
    let shape = [256usize, 256, 256];
    let host: Vec<i32> = ramp(&shape);
    let mut coefficients = host.clone();
    cpu::transform(
        legall(),
        Direction::Forward,
        &mut coefficients,
        &shape,
        3,
        Layout::Mallat,
    )
    .unwrap();
    let stream = b.stream();
    for direction in [Direction::Forward, Direction::Inverse] {
        let req = Request {
            direction,
            ..legall_forward(&shape, Layout::Mallat)
        };
        let plan = b.launch_plan(&req, dwt_ir::ElementType::I32).unwrap();
        let passes: Vec<Pass> = (plan.steps.iter())
            .map(|s| match s {
                Step::Launch(l) => l.pass,
                Step::Copy(_) => panic!("a fused plan copies nothing"),
            })
            .collect();
        let (z, fused) = (Pass::Window(Axis::Z), Pass::Fused);
        let (input, want, passes_want) = match direction {
            Direction::Forward => (&host, &coefficients, [Pass::Volume, Pass::Volume, fused, z]),
            Direction::Inverse => (&coefficients, &host, [z, fused, Pass::Volume, Pass::Volume]),
        };
        assert_eq!(passes, passes_want, "{direction:?}");
        let src = stream.clone_htod(input).unwrap();
        let mut dst = stream.alloc_zeros::<i32>(host.len()).unwrap();
        b.run_on_device_into(&req, &src, &mut dst).unwrap();
        assert!(
            &stream.clone_dtoh(&dst).unwrap() == want,
            "LeGall53 256^3 {direction:?} by default"
        );
    }
}
