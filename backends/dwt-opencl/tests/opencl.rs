//! What is particular to the OpenCL backend: its errors (no device, a build failure, what the
//! kernels refuse), 1-D shapes, and the device-buffer API.

use dwt_ir::{parse_wavelet, Direction, ElementKind, ElementType, Layout, Wavelet, WaveletSpec};
use dwt_opencl::{
    DeviceEntry, DeviceKind, DeviceSelector, LaunchConfig, OpenClBackend, DEVICE_ENV,
};
use dwt_runtime::conformance::matches_reference;
use dwt_runtime::{cpu, Backend, DwtError, Request, Samples};
use ocl::enums::{DeviceInfo, DeviceInfoResult};
use ocl::Buffer;
use std::time::{Duration, Instant};

fn backend() -> OpenClBackend {
    OpenClBackend::new().expect("an OpenCL device (PoCL in CI)")
}

fn request<'w>(
    wavelet: &'w Wavelet,
    direction: Direction,
    shape: &[usize],
    levels: u32,
) -> Request<'w> {
    Request {
        wavelet,
        direction,
        shape: shape.to_vec(),
        levels,
        layout: Layout::Mallat,
    }
}

/// Run by [`no_platform_is_unavailable_at_once_with_what_to_install`] in a child process that
/// sees no OpenCL device: constructing the backend is `Unavailable`, and it prints the error.
#[test]
#[ignore = "run in a child process without OpenCL platforms"]
fn no_platform_child() {
    let e = OpenClBackend::new().err().expect(
        "a device is visible: this test runs as a child of \
         no_platform_is_unavailable_at_once_with_what_to_install, whose ICD loader sees no \
         platform (OCL_ICD_VENDORS: an empty folder); run alone, under `--include-ignored`, it fails",
    );
    let DwtError::Unavailable { backend, .. } = &e else {
        panic!("expected Unavailable, got {e:?}");
    };
    assert_eq!(backend, "opencl");
    println!("ERROR={e}");
}

/// This test binary again as a child whose ICD loader (ocl-icd) looks for platforms in
/// `vendors` (`OCL_ICD_VENDORS`) with `env` besides: the child's error, and how long it took.
fn without_platforms(vendors: &std::path::Path, env: &[(&str, &str)]) -> (String, Duration) {
    let start = Instant::now();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "no_platform_child", "--ignored", "--nocapture"])
        .env("OCL_ICD_VENDORS", vendors)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let took = start.elapsed();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1 passed"), "{text}");
    let error = text
        .lines()
        .find_map(|l| l.split("ERROR=").nth(1))
        .unwrap_or_else(|| panic!("no ERROR line in:\n{text}"));
    (error.to_string(), took)
}

/// No platform (an empty vendors folder, a missing one, one whose only entry names a library
/// that does not exist) is `Unavailable` with what to install, at once: `ocl`'s
/// `get_platform_ids` sleeps and asks again for 10 s when the loader finds none, which `auto` and
/// `dwt list` waited. So is a platform without a device (PoCL told to use a driver it lacks).
#[test]
fn no_platform_is_unavailable_at_once_with_what_to_install() {
    let root = std::env::temp_dir().join(format!("dwt-opencl-no-vendors-{}", std::process::id()));
    let (empty, broken) = (root.join("empty"), root.join("broken"));
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(
        broken.join("missing.icd"),
        "/nonexistent/libMissingOpenCL.so\n",
    )
    .unwrap();
    // A child process starts and prints in well under a second.
    let quick = Duration::from_secs(4);
    for vendors in [&empty, &broken, &root.join("missing")] {
        let (error, took) = without_platforms(vendors, &[]);
        assert!(
            error.starts_with("backend `opencl` is not available: no OpenCL platform found"),
            "{error}"
        );
        assert!(
            error.contains("apt-get install pocl-opencl-icd ocl-icd-opencl-dev"),
            "{error}"
        );
        assert!(took < quick, "{}: took {took:?}", vendors.display());
    }
    let pocl = std::path::Path::new("/etc/OpenCL/vendors/pocl.icd");
    if pocl.exists() {
        let only_pocl = root.join("pocl");
        std::fs::create_dir_all(&only_pocl).unwrap();
        std::fs::copy(pocl, only_pocl.join("pocl.icd")).unwrap();
        let (error, took) = without_platforms(&only_pocl, &[("POCL_DEVICES", "nonexistent")]);
        assert!(error.contains("none has a device"), "{error}");
        assert!(took < quick, "no device: took {took:?}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Every listed device opens by its index, reports itself as listed and transforms as the CPU
/// reference does; a selector matching none is `Unavailable` and lists the devices there are.
#[test]
fn devices_are_listed_and_each_opens_by_its_index() {
    let devices = OpenClBackend::devices().expect("an OpenCL device (PoCL in CI)");
    assert!(!devices.is_empty());
    let w = dwt_catalogue::by_name("LeGall53").unwrap();
    let r = request(w, Direction::Forward, &[37, 45], 2);
    let input: Vec<i32> = (0..37 * 45).map(|i| i * 7919 % 509 - 254).collect();
    for d in &devices {
        let selector = DeviceSelector::Index {
            platform: d.platform,
            device: d.device,
        };
        let b = OpenClBackend::on_device(&selector, LaunchConfig::default()).unwrap();
        assert_eq!(
            b.device(),
            format!("{} / {}", d.platform_name, d.device_name)
        );
        assert_eq!(matches_reference(&b, &r, &input), Ok(true), "{d}");
        // By a part of its name, any case, the first device of that name.
        let by_name: DeviceSelector = d.device_name.to_uppercase().parse().unwrap();
        let b = OpenClBackend::on_device(&by_name, LaunchConfig::default()).unwrap();
        assert!(b.device().ends_with(&d.device_name), "{}", b.device());
    }
    let e = OpenClBackend::on_device(
        &"no-such-device-anywhere".parse().unwrap(),
        LaunchConfig::default(),
    )
    .err()
    .expect("no device of that name");
    assert!(matches!(e, DwtError::Unavailable { .. }), "{e:?}");
    let text = e.to_string();
    assert!(
        text.starts_with("backend `opencl` is not available: no OpenCL device matches `no-such-device-anywhere` (OpenClBackend::on_device); the devices: 0:0 "),
        "{text}"
    );
    assert!(text.contains(&devices[0].to_string()), "{text}");
    let past = DeviceSelector::Index {
        platform: devices.iter().map(|d| d.platform).max().unwrap() + 1,
        device: 0,
    };
    assert!(OpenClBackend::on_device(&past, LaunchConfig::default()).is_err());
}

/// Run by [`the_device_variable_picks_the_device_or_says_why_none`] in a child process with
/// `DWT_OPENCL_DEVICE` set: prints the device the backend opened, or its error.
#[test]
#[ignore = "run in a child process with DWT_OPENCL_DEVICE set"]
fn device_variable_child() {
    match OpenClBackend::new() {
        Ok(b) => println!("DEVICE={}", b.device()),
        Err(e) => println!("ERROR={e}"),
    }
}

fn with_device_variable(value: &str) -> String {
    dwt_runtime::conformance::child_test_line(
        "device_variable_child",
        &[(DEVICE_ENV, value)],
        &["DEVICE=", "ERROR="],
    )
}

#[test]
fn the_device_variable_picks_the_device_or_says_why_none() {
    let devices = OpenClBackend::devices().expect("an OpenCL device (PoCL in CI)");
    let last = devices.last().unwrap();
    let named = |d: &DeviceEntry| format!("DEVICE={} / {}", d.platform_name, d.device_name);
    assert_eq!(
        with_device_variable(&format!("{}:{}", last.platform, last.device)),
        named(last)
    );
    // Unset or empty: the first GPU, else accelerator, else the first device.
    let preferred = devices
        .iter()
        .find(|d| d.kind == DeviceKind::Gpu)
        .or_else(|| devices.iter().find(|d| d.kind == DeviceKind::Accelerator))
        .unwrap_or(&devices[0]);
    assert_eq!(with_device_variable(""), named(preferred));
    let e = with_device_variable("no-such-device-anywhere");
    assert!(
        e.starts_with("ERROR=backend `opencl` is not available: no OpenCL device matches `no-such-device-anywhere` (DWT_OPENCL_DEVICE); the devices: 0:0 "),
        "{e}"
    );
    let e = with_device_variable("1");
    assert!(
        e.starts_with("ERROR=backend `opencl` is not available: `1` is not an OpenCL device selector: name a device by a `platform:device` index"),
        "{e}"
    );
    assert!(e.ends_with("(DWT_OPENCL_DEVICE)"), "{e}");
}

#[test]
fn build_failure_quotes_the_log_and_the_offending_line() {
    let source = "// a kernel with a mistake on line 3\n__kernel void k(__global int* x) {\n    x[0] = undeclared_name + 1;\n}\n";
    let e = backend().build(source).expect_err("a build failure");
    let DwtError::Build { backend, log } = &e else {
        panic!("expected Build, got {e:?}");
    };
    assert_eq!(backend, "opencl");
    assert!(
        log.contains("undeclared_name"),
        "compiler log missing:\n{log}"
    );
    assert!(
        log.contains("    3 |     x[0] = undeclared_name + 1;"),
        "offending line not quoted:\n{log}"
    );
    // Built sources are cached, failures included: the same error again, not a rebuild.
    assert_eq!(backend_build_again(source), e);
}

fn backend_build_again(source: &str) -> DwtError {
    backend().build(source).expect_err("a build failure")
}

fn assert_unsupported(b: &OpenClBackend, r: &Request, what: &str) {
    let mut d: Vec<i32> = (0..r.shape.iter().product::<usize>() as i32).collect();
    let before = d.clone();
    match b.run(r, Samples::I32(&mut d)) {
        Err(DwtError::Unsupported { backend, what: w }) => {
            assert_eq!(backend, "opencl");
            assert!(w.contains(what), "`{w}` does not say `{what}`");
        }
        other => panic!("expected Unsupported ({what}), got {other:?}"),
    }
    assert_eq!(d, before, "a refused transform changed the data");
}

/// A launch the device cannot take (more work-items per group, or more local memory, than it
/// offers the kernel) is refused when the plan is prepared, naming the setting to lower, and
/// the data is left as it was. PoCL offers 4096 work-items and 512 KiB.
#[test]
fn kernels_too_large_for_the_device_are_refused_before_the_data_is_touched() {
    let legall = dwt_catalogue::by_name("LeGall53").unwrap();
    let wide_rows = OpenClBackend::with_config(LaunchConfig {
        row_group_size: 8192,
        ..LaunchConfig::two_pass()
    })
    .unwrap();
    assert_unsupported(
        &wide_rows,
        &request(legall, Direction::Forward, &[4, 100], 1),
        "work-groups of 8192 work-items",
    );
    // Windows over slabs of 32 columns one row pair taller than the device's local memory holds
    // (height + 2 rows of 32 values of 4 bytes): PoCL offers its processor's L2 cache, 512 KiB
    // on some machines and 1 MiB on others, so the height is read off the device. A driver that
    // compiles the kernel anyway (PoCL) is refused by the local-memory check; one whose compiler
    // refuses it first (NVIDIA's: "uses too much shared data") is a build error with that log.
    // Either way before the data is touched.
    let offered = match wide_rows.ocl_device().info(DeviceInfo::LocalMemSize) {
        Ok(DeviceInfoResult::LocalMemSize(n)) => n as usize,
        other => panic!("the device's local memory size: {other:?}"),
    };
    let height = offered / (32 * 4);
    let tall_windows = OpenClBackend::with_config(LaunchConfig {
        window_height: height,
        ..LaunchConfig::two_pass()
    })
    .unwrap();
    let rows = height + 1000;
    let r = request(legall, Direction::Forward, &[rows, 40], 1);
    let mut d: Vec<i32> = (0..(rows * 40) as i32).collect();
    let before = d.clone();
    match tall_windows.run(&r, Samples::I32(&mut d)) {
        Err(DwtError::Unsupported { what, .. }) => {
            assert!(
                what.contains("bytes of local memory per work-group"),
                "{what}"
            )
        }
        Err(DwtError::Build { log, .. }) => assert!(log.contains("shared data"), "{log}"),
        other => panic!("expected a refusal of the local memory, got {other:?}"),
    }
    assert_eq!(d, before, "a refused transform changed the data");
}

/// A scale between steps runs with its scales moved last, so rows longer than the row limit and
/// columns of any length slide through the window: both match the CPU reference, which lifts the
/// program as written (they were refused while such programs took the lines kernel).
#[test]
fn lines_of_a_scale_between_steps_beyond_the_row_limit_are_lifted() {
    let b = backend();
    let w = dwt_runtime::conformance::scale_between_steps();
    let limit = b.config().max_row_len;
    for shape in [[1, limit + 2], [limit + 2, 2]] {
        for direction in [Direction::Forward, Direction::Inverse] {
            let r = request(&w, direction, &shape, 1);
            let n: usize = shape.iter().product();
            let d: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin() * 50.0).collect();
            assert_eq!(
                matches_reference(&b, &r, &d),
                Ok(true),
                "{shape:?} {direction:?}"
            );
        }
    }
}

/// Integer inputs spanning the i16 range (so the pre-shift truncates), float inputs smooth
/// plus noise.
fn check_case(b: &OpenClBackend, r: &Request, seed: usize) {
    let n: usize = r.shape.iter().product();
    let ok = match r.wavelet.kind {
        ElementKind::Integer => {
            let i16s: Vec<i16> = (0..n)
                .map(|i| ((i * 7919 + seed * 104_729) % 65536) as u16 as i16)
                .collect();
            let i32s: Vec<i32> = (0..n)
                .map(|i| ((i * 2_654_435_761 + seed) % 8192) as i32 - 4096)
                .collect();
            matches_reference(b, r, &i16s).and_then(|a| Ok(a && matches_reference(b, r, &i32s)?))
        }
        ElementKind::Float => {
            let f32s: Vec<f32> = (0..n)
                .map(|i| ((i + seed) as f32 * 0.37).sin() * 50.0 + (i % 7) as f32)
                .collect();
            let f64s: Vec<f64> = (0..n)
                .map(|i| ((i + seed) as f64 * 0.71).cos() * 100.0 + (i % 5) as f64)
                .collect();
            matches_reference(b, r, &f32s).and_then(|a| Ok(a && matches_reference(b, r, &f64s)?))
        }
    };
    assert_eq!(
        ok,
        Ok(true),
        "{} {:?} {:?} {} levels {:?}",
        r.wavelet.name,
        r.shape,
        r.direction,
        r.levels,
        r.layout
    );
}

/// Every third catalogue wavelet from `first` (three tests, run in parallel), with a small row
/// limit: the first levels' rows slide, later ones fit the rows kernel. The two passes only:
/// the fused passes read whole rows whatever their length.
fn long_rows_slide(first: usize) {
    let b = OpenClBackend::with_config(LaunchConfig {
        max_row_len: 64,
        ..LaunchConfig::two_pass()
    })
    .unwrap();
    let shapes: [&[usize]; 5] = [&[5, 200], &[3, 65], &[2, 1000], &[7, 130, 70], &[300]];
    every_third_wavelet(first, &shapes.map(|shape| (&b, shape)));
}

/// Every third catalogue wavelet from `first` on each `(backend, shape)`: one to three levels,
/// both directions and layouts, against the CPU reference ([`check_case`]).
fn every_third_wavelet(first: usize, cases: &[(&OpenClBackend, &[usize])]) {
    for w in dwt_catalogue::all().into_iter().skip(first).step_by(3) {
        for (s, (b, shape)) in cases.iter().enumerate() {
            for levels in 1..=3 {
                for direction in [Direction::Forward, Direction::Inverse] {
                    for layout in [Layout::Interleaved, Layout::Mallat] {
                        let r = Request {
                            layout,
                            ..request(w, direction, shape, levels)
                        };
                        check_case(b, &r, s + levels as usize);
                    }
                }
            }
        }
    }
}

#[test]
fn rows_longer_than_the_limit_slide_0() {
    long_rows_slide(0);
}

#[test]
fn rows_longer_than_the_limit_slide_1() {
    long_rows_slide(1);
}

#[test]
fn rows_longer_than_the_limit_slide_2() {
    long_rows_slide(2);
}

/// Every third catalogue wavelet from `first` (three tests, run in parallel), with the sliding
/// window's lines split into column segments of 6 rows, far shorter than the programs' margins:
/// the columns and depth of the two passes (and their rows longer than a row limit of 64, for
/// the programs without row segments), and the depth pass of the fused 3-D plan.
fn column_segments(first: usize) {
    let two_pass = OpenClBackend::with_config(LaunchConfig {
        column_segment: Some(6),
        max_row_len: 64,
        ..LaunchConfig::two_pass()
    })
    .unwrap();
    let fused = OpenClBackend::with_config(LaunchConfig {
        column_segment: Some(6),
        ..LaunchConfig::tiny_tiles()
    })
    .unwrap();
    every_third_wavelet(
        first,
        &[
            (&two_pass, &[40, 9]),
            (&two_pass, &[37, 5]),
            (&two_pass, &[9, 130]),
            (&two_pass, &[30, 6, 5]),
            (&two_pass, &[150]),
            (&fused, &[30, 7, 6]),
        ],
    );
}

#[test]
fn column_segments_match_the_reference_0() {
    column_segments(0);
}

#[test]
fn column_segments_match_the_reference_1() {
    column_segments(1);
}

#[test]
fn column_segments_match_the_reference_2() {
    column_segments(2);
}

/// Rows of `width` samples, two levels of the two passes at the default limits, both layouts and
/// directions of three programs (an integer one with a pre-shift, a clamp-rule one, a float one).
fn two_pass_rows_match_the_reference(width: usize, seed: usize) {
    let b = OpenClBackend::with_config(LaunchConfig::two_pass()).unwrap();
    for name in ["HaarWithShift", "DeslauriersDubuc137", "Cdf97"] {
        let w = dwt_catalogue::by_name(name).unwrap();
        for direction in [Direction::Forward, Direction::Inverse] {
            for layout in [Layout::Interleaved, Layout::Mallat] {
                let r = Request {
                    layout,
                    ..request(w, direction, &[3, width], 2)
                };
                check_case(&b, &r, seed);
            }
        }
    }
}

#[test]
fn rows_longer_than_the_default_limit_slide() {
    two_pass_rows_match_the_reference(2 * LaunchConfig::two_pass().max_row_len + 8, 1);
}

#[test]
fn rows_up_to_the_default_limit_take_the_rows_kernel() {
    // 8192 samples: the rows kernel's longest row of the 4-byte types (f64 slides it, then
    // takes the second level's 4096 in the rows kernel, its own limit).
    let limit = LaunchConfig::two_pass().row_limit(ElementType::I32);
    assert_eq!(limit, 8192);
    two_pass_rows_match_the_reference(limit, 2);
}

#[test]
fn one_dimensional_shapes_match_the_reference() {
    let b = backend();
    for name in ["LeGall53", "HaarWithShift", "DeslauriersDubuc137", "Cdf97"] {
        let w = dwt_catalogue::by_name(name).unwrap();
        for n in [1usize, 2, 7, 64, 1000] {
            for levels in 1..=cpu::max_levels(&[n]).min(4) {
                for direction in [Direction::Forward, Direction::Inverse] {
                    for layout in [Layout::Interleaved, Layout::Mallat] {
                        let r = Request {
                            layout,
                            ..request(w, direction, &[n], levels)
                        };
                        let ok = match w.kind {
                            ElementKind::Integer => {
                                let input: Vec<i16> =
                                    (0..n).map(|i| (i * 7919 % 65536) as i16).collect();
                                matches_reference(&b, &r, &input)
                            }
                            ElementKind::Float => {
                                let input: Vec<f64> =
                                    (0..n).map(|i| (i as f64 * 0.71).cos() * 100.0).collect();
                                matches_reference(&b, &r, &input)
                            }
                        };
                        assert_eq!(
                            ok,
                            Ok(true),
                            "{name} [{n}] {levels} {direction:?} {layout:?}"
                        );
                    }
                }
            }
        }
    }
}

/// A device buffer of `queue`'s context holding `host`.
fn on_device(queue: &ocl::Queue, host: &[i32]) -> Buffer<i32> {
    Buffer::<i32>::builder()
        .queue(queue.clone())
        .len(host.len())
        .copy_host_slice(host)
        .build()
        .unwrap()
}

#[test]
fn device_buffers_round_trip_without_host_copies() {
    let b = backend();
    let w = dwt_catalogue::DeslauriersDubuc137::wavelet();
    let shape = [24usize, 40, 36];
    let input: Vec<i32> = (0..shape.iter().product::<usize>())
        .map(|i| ((i * 2_654_435_761) % 4096) as i32 - 2048)
        .collect();
    let queue = b.queue().unwrap();
    // The fused 3-D plans in place read the data itself as their source: the inverse's depth
    // passes read high octants beside the low one the coarser level wrote there.
    for layout in [Layout::Mallat, Layout::Interleaved] {
        let buffer = on_device(&queue, &input);
        let forward = Request {
            layout,
            ..request(w, Direction::Forward, &shape, 2)
        };
        b.run_on_device(&forward, &buffer).unwrap();
        let mut on_device = vec![0i32; input.len()];
        buffer.read(&mut on_device).enq().unwrap();
        let mut want = input.clone();
        cpu::transform(w, Direction::Forward, &mut want, &shape, 2, layout).unwrap();
        assert!(
            on_device == want,
            "{layout:?} forward on the device differs from the CPU reference"
        );

        let inverse = Request {
            direction: Direction::Inverse,
            ..forward
        };
        b.run_on_device(&inverse, &buffer).unwrap();
        let mut back = vec![0i32; input.len()];
        buffer.read(&mut back).enq().unwrap();
        assert!(
            back == input,
            "{layout:?}: the round trip did not give the input back"
        );
    }
    let buffer = on_device(&queue, &input);

    // Validated like host data, with the buffer's length and element type.
    let e = b.run_on_device(&request(w, Direction::Forward, &[24, 40], 1), &buffer);
    assert!(matches!(e, Err(DwtError::BufferLength { .. })), "{e:?}");
    let floats = Buffer::<f32>::builder()
        .queue(queue)
        .len(16)
        .fill_val(0.0)
        .build()
        .unwrap();
    let e = b.run_on_device(&request(w, Direction::Forward, &[4, 4], 1), &floats);
    assert!(matches!(e, Err(DwtError::KindMismatch { .. })), "{e:?}");
}

/// `run_on_device_into` on the fused 3-D plans (whose inverse reads its high octants from the
/// source and its low octants from the output), the fused 2-D plan, and two-pass plans (whose
/// forward reads the source in its first rows kernel; the others, and row segments first, copy
/// it first): each against the CPU reference, the source unchanged.
#[test]
fn out_of_place_runs_leave_the_source_alone() {
    let b = backend();
    let two_pass = OpenClBackend::with_config(LaunchConfig::two_pass()).unwrap();
    let row_segments = OpenClBackend::with_config(LaunchConfig {
        max_row_len: 64,
        ..LaunchConfig::two_pass()
    })
    .unwrap();
    let queue = b.queue().unwrap();
    let device = |host: &[i32]| on_device(&queue, host);
    let read = |buffer: &Buffer<i32>| {
        let mut host = vec![0i32; buffer.len()];
        buffer.read(&mut host).enq().unwrap();
        host
    };
    let w = dwt_catalogue::by_name("LeGall53").unwrap();
    let cases: [(&OpenClBackend, &[usize], u32); 7] = [
        (&b, &[20, 30, 42], 3),
        (&b, &[45, 61], 3),
        (&b, &[300], 2),
        (&two_pass, &[45, 61], 3),
        (&two_pass, &[20, 30, 42], 2),
        (&row_segments, &[300], 2),
        (&row_segments, &[9, 130], 2),
    ];
    for (b, shape, levels) in cases {
        for layout in [Layout::Mallat, Layout::Interleaved] {
            let input: Vec<i32> = (0..shape.iter().product::<usize>())
                .map(|i| ((i * 2_654_435_761) % 4096) as i32 - 2048)
                .collect();
            let mut coefficients = input.clone();
            cpu::transform(
                w,
                Direction::Forward,
                &mut coefficients,
                shape,
                levels,
                layout,
            )
            .unwrap();
            for (direction, from, to) in [
                (Direction::Forward, &input, &coefficients),
                (Direction::Inverse, &coefficients, &input),
            ] {
                let what = format!("{shape:?} {layout:?} {direction:?}");
                let r = Request {
                    layout,
                    ..request(w, direction, shape, levels)
                };
                let src = device(from);
                let dst = device(&vec![7; from.len()]);
                b.run_on_device_into(&r, &src, &dst).unwrap();
                assert!(&read(&dst) == to, "{what}: differs from the CPU reference");
                assert!(&read(&src) == from, "{what}: the source changed");
            }
        }
    }
    // A destination of another length is refused before anything runs; the same buffer as
    // both runs in place.
    let r = request(w, Direction::Forward, &[45, 61], 3);
    let input: Vec<i32> = (0..45 * 61).map(|i| i % 97).collect();
    let src = device(&input);
    let short = device(&[0; 45 * 61 - 1]);
    let e = b.run_on_device_into(&r, &src, &short);
    assert!(matches!(e, Err(DwtError::Unsupported { .. })), "{e:?}");
    assert!(
        read(&short).iter().all(|&v| v == 0),
        "the short buffer changed"
    );
    b.run_on_device_into(&r, &src, &src).unwrap();
    let mut want = input.clone();
    cpu::transform(
        w,
        Direction::Forward,
        &mut want,
        &[45, 61],
        3,
        Layout::Mallat,
    )
    .unwrap();
    assert!(read(&src) == want, "in place through run_on_device_into");
}

/// Device buffers the kernels cannot use as asked are refused before anything runs, the data
/// untouched: a buffer of another context (the driver failed the first command with
/// `CL_INVALID_CONTEXT`, or ran the source), and a source and destination that overlap in part
/// (sub-buffers of one buffer: the kernels read samples already overwritten, wrong data without
/// an error). The same bytes as two buffers run in place; disjoint sub-buffers are fine.
#[test]
fn foreign_and_overlapping_device_buffers_are_refused() {
    let b = backend();
    let w = dwt_catalogue::by_name("LeGall53").unwrap();
    let shape = [64usize, 64];
    let len = 64 * 64;
    let r = request(w, Direction::Forward, &shape, 2);
    let input: Vec<i32> = (0..len as i32).map(|i| (i * 37 + 11) % 256).collect();
    let mut want = input.clone();
    cpu::forward(w, &mut want, &shape, 2, Layout::Mallat).unwrap();
    let read = |buffer: &Buffer<i32>| {
        let mut host = vec![0i32; buffer.len()];
        buffer.read(&mut host).enq().unwrap();
        host
    };

    // Another context on the same device.
    let context = ocl::Context::builder()
        .devices(b.ocl_device())
        .build()
        .unwrap();
    let foreign_queue = ocl::Queue::new(&context, b.ocl_device(), None).unwrap();
    let foreign = on_device(&foreign_queue, &input);
    let queue = b.queue().unwrap();
    let ours = on_device(&queue, &input);
    for e in [
        b.run_on_device(&r, &foreign),
        b.run_on_device_into(&r, &foreign, &ours),
        b.run_on_device_into(&r, &ours, &foreign),
    ] {
        let e = e.unwrap_err();
        assert!(matches!(e, DwtError::Unsupported { .. }), "{e:?}");
        assert!(e.to_string().contains("another OpenCL context"), "{e}");
        assert!(e.to_string().contains("OpenClBackend::context()"), "{e}");
    }
    assert!(
        read(&foreign) == input && read(&ours) == input,
        "data untouched"
    );

    // Sub-buffers of one buffer, at offsets the device's alignment allows.
    let align = (b.ocl_device().mem_base_addr_align().unwrap() as usize / 8 / 4).max(1);
    let parent = Buffer::<i32>::builder()
        .queue(queue.clone())
        .len(2 * len + 4 * align)
        .fill_val(0)
        .build()
        .unwrap();
    let sub = |offset: usize| {
        let s = parent.create_sub_buffer(None, offset, len).unwrap();
        s.write(&input).enq().unwrap();
        s
    };
    let (src, dst) = (sub(0), sub(align));
    let e = b.run_on_device_into(&r, &src, &dst).unwrap_err();
    assert!(matches!(e, DwtError::Unsupported { .. }), "{e:?}");
    assert!(e.to_string().contains("overlap"), "{e}");
    assert!(read(&dst) == input, "data untouched");
    // The same bytes through two sub-buffers: in place.
    let (a, same) = (sub(0), parent.create_sub_buffer(None, 0usize, len).unwrap());
    b.run_on_device_into(&r, &a, &same).unwrap();
    assert!(read(&same) == want, "the same bytes run in place");
    // Disjoint sub-buffers.
    let (src, dst) = (sub(0), sub(len.next_multiple_of(align)));
    b.run_on_device_into(&r, &src, &dst).unwrap();
    assert!(read(&dst) == want && read(&src) == input);
}

#[test]
fn names_itself() {
    let b = backend();
    assert_eq!(b.name(), "opencl");
    assert!(b.device().contains(" / "), "{}", b.device());
}

/// A transform whose first band is larger than `dwt_emit_c::SMALL_BAND` and whose later ones are
/// not: its plan launches both fused kernels of the module (`small_band_tiles`; each a program of
/// its own here, both in one for NVRTC, which `dwt-cuda`'s `nvrtc` test compiles) and matches the
/// reference bit for bit: LeGall 5/3 both ways (the small bands on the small tiles), and the
/// forwards whose first level takes `FIRST_LEVEL_TILE` (the small bands on the configured ones).
#[test]
fn a_plan_on_both_fused_kernels_matches_the_reference() {
    let b = backend();
    let shape = [544, 962];
    assert!(shape[0] * shape[1] > dwt_emit_c::SMALL_BAND);
    assert!(shape[0].div_ceil(2) * shape[1].div_ceil(2) <= dwt_emit_c::SMALL_BAND);
    let (forward, inverse) = (Direction::Forward, Direction::Inverse);
    for (name, direction) in [
        ("LeGall53", forward),
        ("LeGall53", inverse),
        // The rule's shortest steps (four indices) and longest (eight).
        ("DeslauriersDubuc97", forward),
        ("Fidelity", forward),
    ] {
        let w = dwt_catalogue::by_name(name).unwrap();
        let config = b
            .config()
            .for_request(w, direction, dwt_ir::ElementType::I16, &shape);
        let module = dwt_emit_c::emit_module(
            &dwt_emit_c::OpenCl,
            w,
            direction,
            dwt_ir::ElementType::I16,
            Layout::Mallat,
            &config,
        )
        .unwrap();
        let plan = dwt_emit_c::plan(&module, &shape, 3).unwrap();
        let launched = plan.kernels();
        let tile = module.tile.as_ref().unwrap();
        assert!(launched.contains(&tile.kernel.as_str()), "{name}");
        assert!(
            launched.contains(&module.small_tile.as_ref().unwrap().kernel.as_str()),
            "{name}"
        );
        assert_eq!(
            tile.tile == dwt_emit_c::FIRST_LEVEL_TILE.0,
            name != "LeGall53",
            "{name}"
        );
        check_case(&b, &request(w, direction, &shape, 3), 3);
    }
}

/// A backend whose plans take the level-pair kernel at every size its tiles divide, with or
/// without the pyramid kernels (which take a pair-local program's first levels before it).
fn level_pair_backend(pyramids: bool) -> OpenClBackend {
    let config = LaunchConfig {
        level_pairs_from: Some(0),
        pyramids,
        ..LaunchConfig::default()
    };
    OpenClBackend::with_config(config).expect("an OpenCL device (PoCL in CI)")
}

/// Whether `b`'s plan of a Mallat forward of `w` on `shape` in `elem` launches the level-pair
/// kernel.
fn takes_level_pair(
    b: &OpenClBackend,
    w: &Wavelet,
    elem: ElementType,
    shape: &[usize],
    levels: u32,
) -> bool {
    let config = b.config().for_request(w, Direction::Forward, elem, shape);
    let module = dwt_emit_c::emit_module(
        &dwt_emit_c::OpenCl,
        w,
        Direction::Forward,
        elem,
        Layout::Mallat,
        &config,
    )
    .unwrap();
    let plan = dwt_emit_c::plan(&module, shape, levels).unwrap();
    (module.level_pair.as_ref()).is_some_and(|pair| plan.kernels().contains(&pair.kernel.as_str()))
}

/// The level-pair kernel (levels 1 and 2 of a forward in one launch, the first level's low band
/// kept on chip) against the CPU reference, the size threshold lifted: every catalogue wavelet
/// on images whose sides are multiples of its tiles: one tile (every edge reflected on both
/// sides), a row of three, and two by four; two and three levels; f32 and f64, i16 and i32
/// (i16 and f64 take the per-level plan). The f32 and i32 plans of CDF 5/3 and LeGall 5/3 must
/// launch it, and only those: the programs of longer register segments have no level-pair
/// kernel, Haar's first levels take the pyramid kernels (and without those, the level-pair
/// kernel: checked too).
#[test]
fn level_pairs_match_the_reference() {
    let b = level_pair_backend(true);
    let takers = ["LeGall53", "Cdf53"];
    let mut launched = 0;
    for w in dwt_catalogue::all() {
        let elem = match w.kind {
            ElementKind::Integer => ElementType::I32,
            ElementKind::Float => ElementType::F32,
        };
        for shape in [[64, 64], [64, 192], [128, 256]] {
            for levels in [2, 3] {
                let takes = takes_level_pair(&b, w, elem, &shape, levels);
                assert_eq!(
                    takes,
                    takers.contains(&w.name.as_str()),
                    "{} {shape:?} {levels} levels",
                    w.name
                );
                launched += usize::from(takes);
                check_case(&b, &request(w, Direction::Forward, &shape, levels), 5);
            }
        }
    }
    assert_eq!(launched, takers.len() * 3 * 2);
    // Without the pyramids, Haar's first two levels take the level-pair kernel too.
    let b = level_pair_backend(false);
    for name in ["HaarNoShift", "HaarWithShift"] {
        let w = dwt_catalogue::by_name(name).unwrap();
        for shape in [[64, 64], [128, 64]] {
            assert!(
                takes_level_pair(&b, w, ElementType::I32, &shape, 3),
                "{name}"
            );
            check_case(&b, &request(w, Direction::Forward, &shape, 3), 7);
        }
    }
}

/// The level-pair kernel on programs it was not written for: 32 seeded random integer programs
/// of one to three short steps (taps at offsets the 5/3 pair reads, so that most keep register
/// segments of at most 11 words; random coefficients, rounding and shift, pre-shift, boundary,
/// which phase lifts first), the size threshold lifted, on 64x64, 64x128 and 128x64 with two or
/// three levels, against the CPU reference (i32). Where the planner takes the kernel depends on
/// the IR's proofs; at least a third of the programs must take it.
#[test]
fn random_short_programs_on_level_pairs_match_the_reference() {
    let b = level_pair_backend(true);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let (mut took, cases) = (0, 32);
    for case in 0..cases {
        let first_odd = next(2) == 0;
        let mut text = format!(
            "wavelet Random {{ kind = integer; boundary = {}; shift = {};",
            ["symmetric", "clamp"][next(2) as usize],
            next(3)
        );
        for step in 0..1 + next(3) {
            let odd_target = (step % 2 == 0) == first_odd;
            let (target, source, offsets) = match odd_target {
                true => ("odd", "even", [0, 1]),
                false => ("even", "odd", [-1, 0]),
            };
            let taps = 1 + next(2) as usize;
            let terms: Vec<String> = offsets[..taps]
                .iter()
                .map(|o| {
                    format!(
                        "{}*{source}[{o}]",
                        (1 + next(9) as i64) * [1, -1][next(2) as usize]
                    )
                })
                .collect();
            let shift = next(4);
            let sign = ["-", "+"][next(2) as usize];
            text += &match shift {
                0 => format!(" {target} {sign}= {};", terms.join(" + ")),
                _ => format!(
                    " {target} {sign}= ({} + {}) >> {shift};",
                    terms.join(" + "),
                    next(1 << shift)
                ),
            };
        }
        text += " }";
        let w = parse_wavelet(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let shape = [[64, 64], [64, 128], [128, 64]][case % 3];
        let levels = 2 + next(2) as u32;
        took += usize::from(takes_level_pair(&b, &w, ElementType::I32, &shape, levels));
        let n = shape[0] * shape[1];
        let input: Vec<i32> = (0..n)
            .map(|i| ((i * 7919 + case * 31) % 4001) as i32 - 2000)
            .collect();
        let r = request(&w, Direction::Forward, &shape, levels);
        assert_eq!(
            matches_reference(&b, &r, &input),
            Ok(true),
            "{text} {shape:?} {levels} levels"
        );
    }
    eprintln!("{took} of {cases} programs took the level-pair kernel");
    assert!(
        3 * took >= cases,
        "{took} of {cases} programs took the level-pair kernel"
    );
}

/// Threads transforming different sizes at once with the same kernels (one program cache, one
/// PoCL binary cache): every result against the CPU reference, and the process alive. A CI run
/// of this binary once aborted inside PoCL (`pocl_release_dlhandle_cache`), which the backend
/// now guards against by running one transform at a time on PoCL; this test did not reproduce
/// that abort without the guard (three local runs), so it checks the concurrent results, not the
/// guard.
#[test]
fn threads_transforming_different_sizes_at_once_match_the_reference() {
    let haar = dwt_catalogue::by_name("HaarNoShift").expect("catalogue wavelet");
    let legall = dwt_catalogue::by_name("LeGall53").expect("catalogue wavelet");
    const ROWS: usize = 256;
    std::thread::scope(|s| {
        for t in 0..4usize {
            s.spawn(move || {
                let b = backend();
                for i in 0..32usize {
                    // Growing widths, so that each kernel runs on ever wider grids while the
                    // other threads run it on narrower ones.
                    let width = 8 * (1 + 4 * i + t);
                    let w = if t % 2 == 0 { haar } else { legall };
                    let r = request(w, Direction::Forward, &[ROWS, width], 2);
                    let input: Vec<i32> = (0..ROWS * width)
                        .map(|k| ((k * 2654435761 + t) % 1000) as i32 - 500)
                        .collect();
                    assert_eq!(
                        matches_reference::<i32>(&b, &r, &input),
                        Ok(true),
                        "thread {t}, {ROWS}x{width}, {}",
                        w.name
                    );
                }
            });
        }
    });
}

/// PoCL prints every build's warnings on stderr, where a user of the CLI sees them (even under
/// `dwt -q`): every kernel of every catalogue module builds without one, each as a program of
/// its own as the executor builds it ([`KernelModule::kernel_source`]: a helper only another
/// kernel calls would be unused there), in both directions and layouts, on the configured
/// tiles, on those of a 3840x2160 request (the long filters' own tiles, the interleaved
/// forward's even-rows kernels) and in a volume's modules. One element type per wavelet: the
/// others differ only in their types' names.
#[test]
fn catalogue_kernels_build_without_warnings() {
    use dwt_emit_c::{emit_module, OpenCl};
    use ocl::enums::{ProgramBuildInfo, ProgramBuildInfoResult};
    let b = backend();
    let mut sources = std::collections::BTreeMap::new();
    for w in dwt_catalogue::all() {
        let elem = match w.kind {
            ElementKind::Integer => ElementType::I16,
            ElementKind::Float => ElementType::F32,
        };
        for direction in [Direction::Forward, Direction::Inverse] {
            let configs = [
                ("configured tiles", b.config().for_axes(2)),
                (
                    "3840x2160",
                    b.config().for_request(w, direction, elem, &[2160, 3840]),
                ),
                ("a volume", b.config().for_axes(3)),
            ];
            for layout in [Layout::Mallat, Layout::Interleaved] {
                for (what, config) in &configs {
                    let module = emit_module(&OpenCl, w, direction, elem, layout, config)
                        .expect("catalogue modules emit");
                    for k in module.kernel_names() {
                        let source = module.kernel_source(k).expect("the module's kernel");
                        let what = format!("{k} ({:?}, {what})", layout);
                        sources.entry(source).or_insert(what);
                    }
                }
            }
        }
    }
    let device = b.ocl_device();
    let build = |(source, what): (&String, &String)| -> Option<String> {
        let program = ocl::Program::builder()
            .src(source.as_str())
            .devices(device)
            .build(b.context())
            .unwrap_or_else(|e| panic!("{what} does not build: {e}"));
        match program.build_info(device, ProgramBuildInfo::BuildLog) {
            Ok(ProgramBuildInfoResult::BuildLog(log)) if log.contains("warning") => {
                Some(format!("{what}:\n{log}"))
            }
            Ok(ProgramBuildInfoResult::BuildLog(_)) => None,
            other => panic!("{what}: no build log: {other:?}"),
        }
    };
    // Two threads (CI's cores), every warning reported, not only the first.
    let all: Vec<(&String, &String)> = sources.iter().collect();
    let warned: Vec<String> = std::thread::scope(|scope| {
        let halves: Vec<_> = all
            .chunks(all.len().div_ceil(2))
            .map(|half| scope.spawn(|| half.iter().filter_map(|&c| build(c)).collect::<Vec<_>>()))
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(warned.is_empty(), "{}", warned.join("\n"));
    eprintln!("{} kernel programs built without warnings", all.len());
    assert!(all.len() >= 9 * 2 * 2 * 3, "only {} programs", all.len());
}

/// A host buffer of the backend (pinned memory, zeroed, used as a slice) transforms bit for bit
/// as the CPU reference does, both ways, through `run` and through a `Plan`; it can be dropped
/// after a transform and made again; sizes it cannot hold are an error, not a panic.
#[test]
fn host_buffers_transform_as_the_reference_does() {
    let b = backend();
    let shape = [544, 962];
    let n = shape[0] * shape[1];
    let w = dwt_catalogue::by_name("Fidelity").unwrap();
    for round in 0..2 {
        let mut buffer = b.host_buffer::<i16>(n).unwrap();
        assert_eq!(buffer.len(), n);
        assert!(buffer.iter().all(|&v| v == 0));
        for (i, v) in buffer.iter_mut().enumerate() {
            // 8-bit samples, the plan's default input range: Fidelity's three levels of wider
            // ones can leave i16.
            *v = ((i * 7919 + round * 104_729) % 256) as i16;
        }
        let original = buffer.to_vec();
        let mut want = original.clone();
        cpu::forward(w, &mut want, &shape, 3, Layout::Mallat).unwrap();
        let mut back = want.clone();
        cpu::inverse(w, &mut back, &shape, 3, Layout::Mallat).unwrap();
        assert!(back == original, "cpu round {round}");
        let forward = request(w, Direction::Forward, &shape, 3);
        b.run(&forward, Samples::I16(&mut buffer)).unwrap();
        assert!(buffer[..] == want[..], "forward, round {round}");
        let plan = dwt_runtime::Plan::builder(&b, w, &shape)
            .levels(3)
            .direction(Direction::Inverse)
            .element(ElementType::I16)
            .build()
            .unwrap();
        plan.execute(&mut *buffer).unwrap();
        assert!(buffer[..] == original[..], "inverse, round {round}");
    }
    assert!(b.host_buffer::<f32>(0).unwrap().is_empty());
    let too_large = b.host_buffer::<f64>(usize::MAX / 4).unwrap_err();
    assert!(matches!(too_large, DwtError::Device { .. }), "{too_large}");
    assert!(too_large.to_string().contains("too large"), "{too_large}");
}

/// A plan keeps its queue and device buffers (upload, result, scratch, the source's copy) for its
/// next call: two calls in a row on different data, through the host path, in place on the
/// device and out of place, each match the CPU reference, so nothing one call left in a kept
/// buffer reaches the next. The fused 2-D plans (a source copy in place), the two passes (the
/// scratch) and the fused 3-D plans (the data as its own source).
#[test]
fn kept_queues_and_buffers_carry_nothing_into_the_next_call() {
    let fused = backend();
    let two_pass = OpenClBackend::with_config(LaunchConfig::two_pass()).unwrap();
    let queue = fused.queue().unwrap();
    for (b, shape) in [
        (&fused, vec![272, 481]),
        (&two_pass, vec![272, 481]),
        (&fused, vec![24, 40, 36]),
    ] {
        for name in ["LeGall53", "Fidelity"] {
            for direction in [Direction::Forward, Direction::Inverse] {
                let w = dwt_catalogue::by_name(name).unwrap();
                let r = request(w, direction, &shape, 2);
                let case = format!("{name} {direction:?} {shape:?}");
                for seed in 0..2usize {
                    let input: Vec<i32> = (0..shape.iter().product::<usize>())
                        .map(|i| ((i * 2_654_435_761 + seed * 7919) % 256) as i32)
                        .collect();
                    assert_eq!(matches_reference(b, &r, &input), Ok(true), "{case} host");
                    let mut want = input.clone();
                    cpu::transform(w, direction, &mut want, &shape, 2, Layout::Mallat).unwrap();
                    let data = on_device(&queue, &input);
                    b.run_on_device(&r, &data).unwrap();
                    let mut got = vec![0i32; input.len()];
                    data.read(&mut got).enq().unwrap();
                    assert!(got == want, "{case} in place, call {seed}");
                    let (src, dst) = (on_device(&queue, &input), on_device(&queue, &want));
                    dst.cmd().fill(-1, None).enq().unwrap();
                    queue.finish().unwrap();
                    b.run_on_device_into(&r, &src, &dst).unwrap();
                    dst.read(&mut got).enq().unwrap();
                    assert!(got == want, "{case} out of place, call {seed}");
                }
            }
        }
    }
}

/// The kernel objects a plan keeps for its next call hold none of the caller's buffers once the
/// call returns (an ocl kernel references its buffer arguments): the caller's buffers come back
/// to the one reference they had, so dropping them frees them. Within a second: PoCL lets go of a
/// finished command's buffers on its own thread, a moment after `clFinish` returns.
#[test]
fn kept_kernels_let_go_of_the_callers_buffers() {
    let b = backend();
    let queue = b.queue().unwrap();
    let references = |buffer: &Buffer<i32>| {
        let count = || match buffer.mem_info(ocl::enums::MemInfo::ReferenceCount) {
            Ok(ocl::enums::MemInfoResult::ReferenceCount(n)) => n,
            other => panic!("the reference count came back as {other:?}"),
        };
        let start = Instant::now();
        while count() != 1 && start.elapsed() < Duration::from_secs(1) {
            std::thread::sleep(Duration::from_millis(5));
        }
        count()
    };
    let w = dwt_catalogue::by_name("Fidelity").unwrap();
    let r = request(w, Direction::Forward, &[544, 962], 3);
    let input = vec![5i32; 544 * 962];
    for call in 0..2 {
        let (src, dst) = (on_device(&queue, &input), on_device(&queue, &input));
        assert_eq!((references(&src), references(&dst)), (1, 1));
        b.run_on_device_into(&r, &src, &dst).unwrap();
        assert_eq!(
            (references(&src), references(&dst)),
            (1, 1),
            "into, call {call}"
        );
        b.run_on_device(&r, &dst).unwrap();
        assert_eq!(references(&dst), 1, "in place, call {call}");
    }
}

/// The backend's default for the one-pass volume kernels follows its device: none on a CPU
/// device (PoCL in CI), where the inverse's took 2.6x the two passes' time; on a GPU the
/// dialect's (the inverse of one pair, faster there); what was asked for on either.
#[test]
fn a_cpu_device_keeps_the_two_passes_for_volumes() {
    use dwt_emit_c::Pass;
    use ocl::enums::{DeviceInfo, DeviceInfoResult};
    use ocl::flags::DeviceType;
    let b = OpenClBackend::new().expect("an OpenCL device (PoCL in CI)");
    let cpu = match b.ocl_device().info(DeviceInfo::Type) {
        Ok(DeviceInfoResult::Type(t)) => !t.intersects(DeviceType::GPU | DeviceType::ACCELERATOR),
        other => panic!("the device's type: {other:?}"),
    };
    assert_eq!(b.config().one_pass_volumes, cpu.then_some(false));
    let w = dwt_catalogue::by_name("LeGall53").unwrap();
    let shape = [20, 30, 40];
    let has_kernel = |b: &OpenClBackend| {
        let config = b
            .config()
            .for_request(w, Direction::Inverse, ElementType::I32, &shape);
        let module = dwt_emit_c::emit_module(
            &dwt_emit_c::OpenCl,
            w,
            Direction::Inverse,
            ElementType::I32,
            Layout::Mallat,
            &config,
        )
        .unwrap();
        let plan = dwt_emit_c::plan(&module, &shape, 2).unwrap();
        plan.passes().contains(&Pass::Volume)
    };
    assert_eq!(has_kernel(&b), !cpu);
    for asked in [true, false] {
        let b = OpenClBackend::with_config(LaunchConfig {
            one_pass_volumes: Some(asked),
            ..LaunchConfig::default()
        })
        .unwrap();
        assert_eq!(b.config().one_pass_volumes, Some(asked));
        assert_eq!(has_kernel(&b), asked);
    }
}

/// The one-pass volume kernels (a 3-D transform's levels, the depth lifting in registers) on
/// this device (PoCL in CI), where each work-item lifts its own
/// samples' neighbours along x: one pair of steps (LeGall 5/3 in i32, CDF 5/3 in f32) and two
/// (the integer Daubechies 9/7, CDF 9/7), both ways. Against the CPU reference,
/// the integer programs exactly: tiles inside the rows (16-byte copies) and at their edges,
/// several segments of planes, sides shorter than the halo (reflected more than once), 1 to 3
/// levels (the inverse's low octant in the source or the scratch), both layouts. The plan the
/// backend makes for each request (as it makes it) has the kernel: the forward's first step,
/// the inverse's last; in the Mallat layout a launch a level both ways (the bands between them
/// in the scratch). Asked for: OpenCL's default plans keep the two passes on a CPU device
/// and for the forwards, which were as fast or faster (`LaunchConfig::one_pass_volumes`).
#[test]
fn one_pass_volumes_match_the_reference() {
    use dwt_emit_c::{Pass, Step};
    let b = OpenClBackend::with_config(LaunchConfig {
        one_pass_volumes: Some(true),
        ..LaunchConfig::default()
    })
    .expect("an OpenCL device (PoCL in CI)");
    let shapes: [&[usize]; 5] = [
        &[36, 45, 70],
        &[2, 2, 2],
        &[3, 2, 5],
        &[33, 3, 132],
        &[68, 36, 68],
    ];
    let mut runs = [0, 0];
    for name in ["LeGall53", "Cdf53", "Daubechies97Integer", "Cdf97"] {
        let w = dwt_catalogue::by_name(name).unwrap();
        let elem = match w.kind {
            ElementKind::Integer => ElementType::I32,
            ElementKind::Float => ElementType::F32,
        };
        for (direction, runs) in [Direction::Forward, Direction::Inverse]
            .iter()
            .zip(&mut runs)
        {
            for shape in shapes {
                for levels in 1..=3u32 {
                    if shape.iter().any(|&n| n >> (levels - 1) < 2) {
                        continue;
                    }
                    for layout in [Layout::Mallat, Layout::Interleaved] {
                        let r = Request {
                            layout,
                            ..request(w, *direction, shape, levels)
                        };
                        let what =
                            format!("{name} {direction:?} {shape:?} {levels} levels {layout:?}");
                        let config = b.config().for_request(w, *direction, elem, shape);
                        let module = dwt_emit_c::emit_module(
                            &dwt_emit_c::OpenCl,
                            w,
                            r.direction,
                            elem,
                            layout,
                            &config,
                        )
                        .unwrap();
                        let plan = dwt_emit_c::plan(&module, shape, levels).unwrap();
                        let at = match direction {
                            Direction::Forward => plan.steps.first(),
                            Direction::Inverse => plan.steps.last(),
                        };
                        assert!(
                            matches!(at, Some(Step::Launch(l)) if l.pass == Pass::Volume),
                            "{what}: {plan:?}"
                        );
                        let one_pass = plan.passes().iter().filter(|&&p| p == Pass::Volume).count();
                        let want = match (direction, layout) {
                            (_, Layout::Mallat) => levels as usize,
                            _ => 1,
                        };
                        assert_eq!(one_pass, want, "{what}: {plan:?}");
                        let n: usize = shape.iter().product();
                        let ramp = (0..n).map(|i| ((i * 7919) % 4001) as i32 - 2000);
                        let matched = match elem {
                            ElementType::I32 => {
                                matches_reference(&b, &r, &ramp.collect::<Vec<i32>>())
                            }
                            _ => matches_reference(
                                &b,
                                &r,
                                &ramp.map(|v| v as f32).collect::<Vec<f32>>(),
                            ),
                        };
                        assert_eq!(matched, Ok(true), "{what}");
                        *runs += 1;
                    }
                }
            }
        }
    }
    assert!(runs[0] >= 70 && runs[1] >= 70, "{runs:?}");
}

/// With the volume pyramid off (`LaunchConfig::pyramids: false`), a Haar volume lifts a level
/// a launch, and in the Mallat layout the bands between launches alternate between the two
/// compact halves of the scratch (three launches or more): Haar with the pre-shift in i32,
/// both ways, both layouts, three and four levels, out of place, exactly the CPU reference.
#[test]
fn pair_local_volumes_a_level_a_launch_match_the_reference() {
    use dwt_emit_c::{Pass, Step};
    let b = OpenClBackend::with_config(dwt_opencl::LaunchConfig {
        pyramids: false,
        ..Default::default()
    })
    .expect("an OpenCL device (PoCL in CI)");
    let queue = b.queue().unwrap();
    let w = dwt_catalogue::by_name("HaarWithShift").unwrap();
    for (shape, levels) in [([16usize, 8, 24], 3u32), ([16, 16, 16], 4)] {
        for direction in [Direction::Forward, Direction::Inverse] {
            for layout in [Layout::Mallat, Layout::Interleaved] {
                let r = Request {
                    layout,
                    ..request(w, direction, &shape, levels)
                };
                let what = format!("{direction:?} {shape:?} {levels} levels {layout:?}");
                let config = b
                    .config()
                    .for_request(w, direction, ElementType::I32, &shape);
                let module = dwt_emit_c::emit_module(
                    &dwt_emit_c::OpenCl,
                    w,
                    direction,
                    ElementType::I32,
                    layout,
                    &config,
                )
                .unwrap();
                let plan = dwt_emit_c::plan(&module, &shape, levels).unwrap();
                assert!(
                    plan.steps.len() == levels as usize
                        && (plan.steps.iter())
                            .all(|s| matches!(s, Step::Launch(l) if l.pass == Pass::VolumePairs)),
                    "{what}: {plan:?}"
                );
                let n: usize = shape.iter().product();
                let mut host: Vec<i32> =
                    (0..n).map(|i| ((i * 7919) % 4001) as i32 - 2000).collect();
                if direction == Direction::Inverse {
                    cpu::transform(w, Direction::Forward, &mut host, &shape, levels, layout)
                        .unwrap();
                }
                let mut want = host.clone();
                cpu::transform(w, direction, &mut want, &shape, levels, layout).unwrap();
                let (src, dst) = (on_device(&queue, &host), on_device(&queue, &vec![7; n]));
                b.run_on_device_into(&r, &src, &dst).unwrap();
                let mut out = vec![0i32; n];
                dst.read(&mut out).enq().unwrap();
                assert!(out == want, "{what}");
            }
        }
    }
}

/// The pair-local volume kernels (every level of a 3-D transform of Haar and the like, two
/// levels a launch in the volume pyramid, the last of an odd count alone) in the plans the backend makes by default (on a CPU device too, unlike the
/// two-tap one-pass kernels: `LaunchConfig::pair_volumes`), and run out of place: on the
/// conformance suite's volumes (`conformance::PAIR_VOLUME_SHAPES`, which the suite's
/// `conformance_pair_volumes` runs in place in every element type), Haar without and with the
/// pre-shift and a float Haar, both ways, both layouts. Volumes whose bands stay even run every
/// level on it, the others the two passes. The integer Haars in i32 against the CPU reference,
/// exactly, the source left alone (the interleaved inverse reading the coarser level's lows from
/// the data, the rest from the source).
#[test]
fn pair_local_volumes_match_the_reference() {
    use dwt_runtime::conformance::{FLOAT_HAAR, PAIR_VOLUME_SHAPES};
    use ElementType::{F32, I32};
    let b = OpenClBackend::new().expect("an OpenCL device (PoCL in CI)");
    assert!(b.config().pair_volumes);
    let queue = b.queue().unwrap();
    let read = |buffer: &Buffer<i32>| {
        let mut out = vec![0i32; buffer.len()];
        buffer.read(&mut out).enq().unwrap();
        out
    };
    let float_haar = parse_wavelet(FLOAT_HAAR).unwrap();
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
                        let r = Request {
                            layout,
                            ..request(w, direction, &shape, levels)
                        };
                        let what = format!(
                            "{} {direction:?} {shape:?} {levels} levels {layout:?}",
                            w.name
                        );
                        let config = b.config().for_request(w, direction, elem, &shape);
                        let module = dwt_emit_c::emit_module(
                            &dwt_emit_c::OpenCl,
                            w,
                            direction,
                            elem,
                            layout,
                            &config,
                        )
                        .unwrap();
                        let plan = dwt_emit_c::plan(&module, &shape, levels).unwrap();
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
                        if elem != I32 {
                            continue;
                        }
                        let n: usize = shape.iter().product();
                        let mut host: Vec<i32> =
                            (0..n).map(|i| ((i * 7919) % 4001) as i32 - 2000).collect();
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
                        // Both written at creation, before the call: an enqueued fill
                        // could still be running when the transform writes.
                        let (src, dst) = (on_device(&queue, &host), on_device(&queue, &vec![7; n]));
                        b.run_on_device_into(&r, &src, &dst).unwrap();
                        assert!(read(&dst) == want, "{what}: out of place");
                        assert!(read(&src) == host, "{what}: the source changed");
                        runs += 1;
                    }
                }
            }
        }
    }
    assert!(runs >= 80, "{runs}");
}
