//! Plans on the OpenCL device, and its on-disk program cache across processes.
//!
//! The cache test runs this test binary again as child processes (the in-memory program cache
//! lives as long as the process) with `DWT_CACHE_DIR` set to a fresh folder, and reads where the
//! program came from off their output.

use std::path::{Path, PathBuf};
use std::process::Command;

use dwt_opencl::OpenClBackend;
use dwt_runtime::{cpu, DwtError, ElementType, KernelOrigin, Layout, Plan};
use ndarray::{Array, ArrayD, IxDyn};

const CHILD_ENV: &str = "DWT_PLAN_TEST_CHILD";

fn backend() -> OpenClBackend {
    OpenClBackend::new().expect("an OpenCL platform (PoCL in CI)")
}

fn legall() -> &'static dwt_ir::Wavelet {
    dwt_catalogue::by_name("LeGall53").unwrap()
}

fn ramp(n: usize) -> Vec<i32> {
    (0..n as i32).map(|i| (i * 37 + 11) % 256).collect()
}

#[test]
fn plan_executed_twice_gives_the_reference() {
    let b = backend();
    for (shape, levels, layout) in [
        (vec![40usize, 33], 3u32, Layout::Mallat),
        (vec![4, 9, 12], 2, Layout::Interleaved),
        (vec![100], 4, Layout::Mallat),
    ] {
        let plan = Plan::builder(&b, legall(), &shape)
            .levels(levels)
            .layout(layout)
            .build()
            .unwrap();
        assert!(plan.report().kernels() >= 1, "{}", plan.report());
        let input = ramp(shape.iter().product());
        let mut want = input.clone();
        cpu::forward(legall(), &mut want, &shape, levels, layout).unwrap();
        for _ in 0..2 {
            let mut d = input.clone();
            plan.execute(&mut d).unwrap();
            assert_eq!(d, want, "{shape:?}");
        }
    }
}

#[test]
fn ndarray_views_equal_slices_on_the_device() {
    let b = backend();
    let shape = [24usize, 20];
    let plan = Plan::builder(&b, legall(), &shape)
        .levels(2)
        .element(ElementType::I16)
        .build()
        .unwrap();
    let input: Vec<i16> = ramp(480).into_iter().map(|v| v as i16).collect();
    let mut slice = input.clone();
    plan.execute(&mut slice).unwrap();
    let mut a = ArrayD::from_shape_vec(IxDyn(&shape), input.clone()).unwrap();
    plan.execute(a.view_mut()).unwrap();
    assert_eq!(a.as_slice().unwrap(), &slice[..]);
    let mut wrong = Array::from_shape_vec((20, 24), input).unwrap();
    assert!(matches!(
        plan.execute(&mut wrong),
        Err(DwtError::ShapeMismatch { .. })
    ));
}

#[test]
fn batches_of_rows_on_the_device() {
    let b = backend();
    let (rows, n) = (6usize, 50usize);
    let plan = Plan::builder(&b, legall(), &[rows, n])
        .rows()
        .levels(3)
        .build()
        .unwrap();
    let input = ramp(rows * n);
    let mut want = input.clone();
    for row in want.chunks_mut(n) {
        cpu::forward(legall(), row, &[n], 3, Layout::Mallat).unwrap();
    }
    let mut d = input;
    plan.execute(&mut d).unwrap();
    assert_eq!(d, want);
}

/// Run as a child: builds a plan (whose source no other test builds: a float wavelet, inverse),
/// checks it against the reference and prints where the program came from.
#[test]
fn plan_child() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let w = dwt_catalogue::by_name("CDF97").unwrap();
    let shape = [16usize, 24];
    let b = backend();
    let plan = Plan::builder(&b, w, &shape)
        .levels(2)
        .direction(dwt_ir::Direction::Inverse)
        .element(ElementType::F64)
        .build();
    let plan = match plan {
        Err(DwtError::Unsupported { .. }) => {
            // No fp64 on this device: the same with f32.
            Plan::builder(&b, w, &shape)
                .levels(2)
                .direction(dwt_ir::Direction::Inverse)
                .element(ElementType::F32)
                .build()
                .unwrap()
        }
        other => other.unwrap(),
    };
    let input: Vec<f64> = (0..shape.iter().product::<usize>())
        .map(|i| ((i * 7) % 23) as f64 - 11.0)
        .collect();
    match plan.element() {
        ElementType::F64 => {
            let mut d = input.clone();
            let mut want = input.clone();
            plan.execute(&mut d).unwrap();
            cpu::inverse(w, &mut want, &shape, 2, Layout::Mallat).unwrap();
            for (a, b) in d.iter().zip(&want) {
                assert!((a - b).abs() < 1e-9, "{a} vs {b}");
            }
        }
        _ => {
            let mut d: Vec<f32> = input.iter().map(|&v| v as f32).collect();
            let mut want = d.clone();
            plan.execute(&mut d).unwrap();
            cpu::inverse(w, &mut want, &shape, 2, Layout::Mallat).unwrap();
            for (a, b) in d.iter().zip(&want) {
                assert!((a - b).abs() < 1e-3, "{a} vs {b}");
            }
        }
    }
    let origin = plan.report().origin().unwrap();
    println!("ORIGIN={origin}");
    println!("REPORT={}", plan.report());
}

fn child(cache: &Path) -> KernelOrigin {
    child_report(cache).0
}

/// Where the child's program came from, and its whole prepare report.
fn child_report(cache: &Path) -> (KernelOrigin, String) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["plan_child", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, "1")
        .env("DWT_CACHE_DIR", cache)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = |key: &str| {
        stdout
            .lines()
            .find_map(|l| l.split(key).nth(1))
            .unwrap_or_else(|| panic!("no {key} line in:\n{stdout}"))
            .to_string()
    };
    let origin = match line("ORIGIN=").as_str() {
        "compiled" => KernelOrigin::Compiled,
        "disk cache" => KernelOrigin::DiskCache,
        "in-memory cache" => KernelOrigin::Memory,
        other => panic!("unknown origin {other}"),
    };
    (origin, line("REPORT="))
}

fn entries(cache: &Path) -> Vec<PathBuf> {
    let dir = cache.join(dwt_opencl::disk_cache::SUBDIR);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|r| r.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn disk_cache_across_processes_and_corruption() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let cache = std::env::temp_dir().join(format!("dwt-plan-cache-{}-{nanos}", std::process::id()));
    let (origin, report) = child_report(&cache);
    assert_eq!(origin, KernelOrigin::Compiled, "fresh cache");
    assert!(
        !report.contains("warning"),
        "a cache that works warns: {report}"
    );
    let files = entries(&cache);
    assert_eq!(files.len(), 1, "one program binary: {files:?}");
    assert_eq!(files[0].extension().unwrap(), "bin");
    assert_eq!(child(&cache), KernelOrigin::DiskCache, "second process");

    // A corrupt entry is rebuilt, not an error, and rewritten.
    std::fs::write(&files[0], b"not a program binary").unwrap();
    assert_eq!(child(&cache), KernelOrigin::Compiled, "corrupt entry");
    assert_eq!(child(&cache), KernelOrigin::DiskCache, "rewritten entry");
    // A truncated one too.
    let good = std::fs::read(&files[0]).unwrap();
    std::fs::write(&files[0], &good[..good.len() / 2]).unwrap();
    assert_eq!(child(&cache), KernelOrigin::Compiled, "truncated entry");
    // An unwritable cache folder (a file in its place: no folder below it, even for root) only
    // loses the cache: the transform is right (checked by the child), and the report says
    // which entry could not be written, why, and what to do.
    let blocked = cache.join("blocked");
    std::fs::write(&blocked, b"a file, not a folder").unwrap();
    let entry_dir = blocked.join(dwt_opencl::disk_cache::SUBDIR);
    for _ in 0..2 {
        let (origin, report) = child_report(&blocked);
        assert_eq!(origin, KernelOrigin::Compiled);
        for part in [
            "warning: the disk cache could not write",
            &entry_dir.display().to_string(),
            ".bin: ",
            "compiled again",
            "DWT_CACHE_DIR",
        ] {
            assert!(
                report.contains(part),
                "{part:?} not in the report: {report}"
            );
        }
    }
    assert_eq!(entries(&cache).len(), 1, "no temporary files left behind");
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn second_plan_in_one_process_comes_from_memory() {
    let b = backend();
    let make = || {
        Plan::builder(&b, legall(), &[8, 8])
            .levels(1)
            .direction(dwt_ir::Direction::Inverse)
            .layout(Layout::Interleaved)
            .build()
            .unwrap()
    };
    let _first = make();
    assert_eq!(make().report().origin(), Some(KernelOrigin::Memory));
}

/// `prepare` goes through the backend's memo of plans, as `run` does: a request prepared again
/// builds nothing (its programs from memory, no time spent on them) and both prepared
/// transforms give the reference. Each of the plan's kernels is a program of its own.
#[test]
fn a_request_prepared_again_builds_nothing() {
    use dwt_runtime::{Backend, Request};
    // A wavelet of this run alone: its programs are in no cache yet.
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    let text = format!(
        "wavelet Again{}x{} {{ boundary = clamp; odd -= (even[0] + even[1]) >> 1; even += (odd[-1] + odd[0] + 2) >> 2; }}",
        std::process::id(),
        since.unwrap().as_nanos()
    );
    let w = dwt_ir::parse_wavelet(&text).unwrap();
    let shape = vec![72usize, 80];
    let req = Request {
        wavelet: &w,
        direction: dwt_ir::Direction::Forward,
        shape: shape.clone(),
        levels: 3,
        layout: Layout::Mallat,
    };
    let b = backend();
    let first = b.prepare(&req, ElementType::I32).unwrap();
    assert_eq!(
        first.report.origin(),
        Some(KernelOrigin::Compiled),
        "{}",
        first.report
    );
    assert!(
        first.report.modules.iter().all(|m| m.kernels.len() == 1),
        "{}",
        first.report
    );
    let again = b.prepare(&req, ElementType::I32).unwrap();
    assert_eq!(again.report.modules.len(), first.report.modules.len());
    for m in &again.report.modules {
        assert_eq!(
            (m.origin, m.time),
            (KernelOrigin::Memory, std::time::Duration::ZERO),
            "{}",
            again.report
        );
    }
    let input = ramp(shape.iter().product());
    let mut want = input.clone();
    cpu::forward(&w, &mut want, &shape, 3, Layout::Mallat).unwrap();
    for prepared in [first, again] {
        let mut d = input.clone();
        let transform = prepared.transform.expect("a prepared transform");
        transform.run(dwt_runtime::Samples::I32(&mut d)).unwrap();
        assert_eq!(d, want);
    }
}
