//! Without an OpenCL platform the backend is unavailable at once, with what to install.
//!
//! The device is discovered once per process, so each case runs this test binary again as a
//! child process whose ICD loader finds no platform (`OCL_ICD_VENDORS` naming an empty folder, a
//! missing one, or one whose only entry names a library that does not exist), or only PoCL with
//! no device (`POCL_DEVICES` naming none it has).

use std::process::Command;
use std::time::{Duration, Instant};

use dwt_opencl::OpenClBackend;
use dwt_runtime::DwtError;

const CHILD_ENV: &str = "DWT_NO_PLATFORM_CHILD";

/// Run as a child: constructing the backend must fail with `Unavailable`, and say so.
#[test]
fn no_platform_child() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    match OpenClBackend::new() {
        Err(e @ DwtError::Unavailable { .. }) => println!("ERROR={e}"),
        Err(e) => panic!("not Unavailable: {e:?}"),
        Ok(b) => panic!(
            "a backend without a platform: {}",
            dwt_runtime::Backend::device(&b)
        ),
    }
}

fn child(vendors: &std::path::Path, env: &[(&str, &str)]) -> (String, Duration) {
    let start = Instant::now();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "no_platform_child",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, "1")
        .env("OCL_ICD_VENDORS", vendors)
        .env("OPENCL_VENDOR_PATH", vendors)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let took = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.split("ERROR=").nth(1))
        .unwrap_or_else(|| panic!("no ERROR line in:\n{stdout}"))
        .to_string();
    (line, took)
}

/// `ocl`'s `get_platform_ids` sleeps and retries for 10 s when the loader finds no platform;
/// the backend asks the loader once.
#[test]
fn no_platform_is_unavailable_at_once() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let root = std::env::temp_dir().join(format!("dwt-no-icd-{}-{nanos}", std::process::id()));
    let empty = root.join("empty");
    let broken = root.join("broken");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(
        broken.join("missing.icd"),
        "/nonexistent/libMissingOpenCL.so\n",
    )
    .unwrap();
    for vendors in [&empty, &broken, &root.join("nonexistent")] {
        let (error, took) = child(vendors, &[]);
        assert!(error.contains("no OpenCL platform found"), "{error}");
        assert!(error.contains("apt-get install pocl-opencl-icd"), "{error}");
        // The child process itself (starting, printing) takes well under a second.
        assert!(
            took < Duration::from_secs(4),
            "{}: took {took:?}",
            vendors.display()
        );
    }
    // A platform without a device: PoCL told to use a device driver it does not have.
    let pocl = std::path::Path::new("/etc/OpenCL/vendors/pocl.icd");
    if pocl.exists() {
        let only_pocl = root.join("pocl");
        std::fs::create_dir_all(&only_pocl).unwrap();
        std::fs::copy(pocl, only_pocl.join("pocl.icd")).unwrap();
        let (error, took) = child(&only_pocl, &[("POCL_DEVICES", "nonexistent")]);
        assert!(error.contains("none has a device"), "{error}");
        assert!(took < Duration::from_secs(4), "no device: took {took:?}");
    }
    let _ = std::fs::remove_dir_all(&root);
}
