//! What is particular to the OpenCL backend: its errors (no device, a build failure, what the
//! kernels refuse), 1-D shapes, and the device-buffer API.

use dwt_ir::{
    parse_wavelet, Coeff, Direction, ElementKind, Laurent, Layout, Op, Phase, Program, Sign, Step,
    Wavelet, WaveletSpec,
};
use dwt_opencl::OpenClBackend;
use dwt_runtime::conformance::matches_reference;
use dwt_runtime::{cpu, Backend, DwtError, Request, Samples};
use ocl::Buffer;

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

/// Run by [`no_platform_is_unavailable_with_what_to_install`] in a child process that sees no
/// OpenCL platform.
#[test]
#[ignore = "run in a child process without OpenCL platforms"]
fn no_platform_child() {
    let e = OpenClBackend::new().err().expect("no platform is visible");
    let DwtError::Unavailable { backend, reason } = &e else {
        panic!("expected Unavailable, got {e:?}");
    };
    assert_eq!(backend, "opencl");
    assert!(
        reason.contains("apt-get install pocl-opencl-icd ocl-icd-opencl-dev"),
        "{reason}"
    );
    assert!(
        e.to_string()
            .starts_with("backend `opencl` is not available: no OpenCL platform found"),
        "{e}"
    );
}

#[test]
fn no_platform_is_unavailable_with_what_to_install() {
    // The ICD loader (ocl-icd) looks for platforms in OCL_ICD_VENDORS: an empty folder has none.
    let empty = std::env::temp_dir().join(format!("dwt-opencl-no-vendors-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "no_platform_child", "--ignored", "--nocapture"])
        .env("OCL_ICD_VENDORS", &empty)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir(&empty);
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1 passed"), "{text}");
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

#[test]
fn periodic_vertical_pass_is_unsupported_rows_run() {
    let b = backend();
    let w = parse_wavelet(
        "wavelet PeriodicLeGall { boundary = periodic; odd -= (even[0] + even[1]) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; }",
    )
    .unwrap();
    for shape in [&[8usize, 8][..], &[4, 4, 4], &[2, 16]] {
        for direction in [Direction::Forward, Direction::Inverse] {
            assert_unsupported(&b, &request(&w, direction, shape, 1), "periodic");
        }
    }
    // Without a vertical pass (1-D, or a single row) the periodic rule runs.
    for shape in [&[16usize][..], &[1, 16]] {
        for direction in [Direction::Forward, Direction::Inverse] {
            let r = request(&w, direction, shape, 2);
            let input: Vec<i32> = (0..16).map(|i| i * i * 37 - 200).collect();
            assert_eq!(matches_reference(&b, &r, &input), Ok(true), "{shape:?}");
        }
    }
}

#[test]
fn scale_between_steps_and_long_rows_are_unsupported() {
    let b = backend();
    let step = |target, k| Step {
        target,
        sign: Sign::Sub,
        taps: Laurent::from_terms([(0, Coeff::ratio(1, 2)), (k, Coeff::ratio(1, 2))]),
        rounding: 0,
        shift: 0,
    };
    let w = Wavelet {
        name: "ScaledMiddle".into(),
        doc: vec![],
        kind: ElementKind::Float,
        boundary: dwt_ir::Boundary::Symmetric,
        shift: 0,
        program: Program {
            ops: vec![
                Op::Lift(step(Phase::Odd, 1)),
                Op::Scale {
                    low: Coeff::int(2),
                    high: Coeff::ratio(1, 2),
                },
                Op::Lift(step(Phase::Even, -1)),
            ],
        },
    };
    let mut d = vec![1.5f32; 64];
    let e = b.run(
        &request(&w, Direction::Forward, &[8, 8], 1),
        Samples::F32(&mut d),
    );
    assert!(
        matches!(&e, Err(DwtError::Unsupported { what, .. }) if what.contains("scales between steps")),
        "{e:?}"
    );
    assert!(d.iter().all(|&x| x == 1.5));
    // Rows only: the scale runs wherever it is.
    let r = request(&w, Direction::Forward, &[1, 64], 1);
    let input: Vec<f32> = (0..64).map(|i| (i as f32 * 0.37).sin()).collect();
    assert_eq!(matches_reference(&b, &r, &input), Ok(true));

    let limit = b.config().max_row_len;
    let legall = dwt_catalogue::LeGall53::wavelet();
    assert_unsupported(
        &b,
        &request(legall, Direction::Forward, &[2, limit + 1], 1),
        "row limit",
    );
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

#[test]
fn device_buffers_round_trip_without_host_copies() {
    let b = backend();
    let w = dwt_catalogue::DeslauriersDubuc137::wavelet();
    let shape = [24usize, 40, 36];
    let input: Vec<i32> = (0..shape.iter().product::<usize>())
        .map(|i| ((i * 2_654_435_761) % 4096) as i32 - 2048)
        .collect();
    let queue = b.queue().unwrap();
    let buffer = Buffer::<i32>::builder()
        .queue(queue.clone())
        .len(input.len())
        .copy_host_slice(&input)
        .build()
        .unwrap();
    let forward = request(w, Direction::Forward, &shape, 2);
    b.run_on_device(&forward, &buffer).unwrap();
    let mut on_device = vec![0i32; input.len()];
    buffer.read(&mut on_device).enq().unwrap();
    let mut want = input.clone();
    cpu::transform(w, Direction::Forward, &mut want, &shape, 2, Layout::Mallat).unwrap();
    assert!(
        on_device == want,
        "forward on the device differs from the CPU reference"
    );

    b.run_on_device(&request(w, Direction::Inverse, &shape, 2), &buffer)
        .unwrap();
    let mut back = vec![0i32; input.len()];
    buffer.read(&mut back).enq().unwrap();
    assert!(back == input, "the round trip did not give the input back");

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

#[test]
fn names_itself() {
    let b = backend();
    assert_eq!(b.name(), "opencl");
    assert!(b.device().contains(" / "), "{}", b.device());
}
