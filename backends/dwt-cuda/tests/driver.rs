//! `CudaBackend::new` against driver libraries that are there but are not what it needs, without
//! a GPU: each case is a small C library named libcuda.so.1 (built here with `cc`) first on the
//! library path of a child process. The backend must be Unavailable saying what is wrong, never
//! panic (cudarc panics on a missing function) nor abort. Needs NVRTC, as `nvrtc.rs` does.

use std::path::{Path, PathBuf};
use std::process::Command;

use dwt_cuda::CudaBackend;

const CHILD_ENV: &str = "DWT_FAKE_DRIVER_CHILD";

/// A driver whose cuInit fails, as the toolkit's stub library or a machine without a GPU does.
const STUB: &str = r#"
int cuInit(unsigned int flags) { return 34; /* CUDA_ERROR_STUB_LIBRARY */ }
int cuDriverGetVersion(int *v) { *v = 13000; return 0; }
int cuGetErrorString(int e, const char **s) { *s = "CUDA driver is a stub library"; return 0; }
int cuGetErrorName(int e, const char **s) { *s = "CUDA_ERROR_STUB_LIBRARY"; return 0; }
"#;

/// A driver of CUDA 11.0 with a device: it lacks the memory-pool functions (11.2) and more.
const OLD: &str = r#"
#include <string.h>
int cuInit(unsigned int flags) { return 0; }
int cuDriverGetVersion(int *v) { *v = 11000; return 0; }
int cuDeviceGet(int *d, int o) { *d = 0; return 0; }
int cuDevicePrimaryCtxRetain(void **c, int d) { static int x; *c = &x; return 0; }
int cuDeviceGetAttribute(int *v, int a, int d) { *v = 8; return 0; }
int cuCtxSetCurrent(void *c) { return 0; }
int cuCtxGetCurrent(void **c) { static int x; *c = &x; return 0; }
int cuDeviceGetName(char *n, int len, int d) { strncpy(n, "Old GPU", len); return 0; }
int cuGetErrorString(int e, const char **s) { *s = "error"; return 0; }
int cuGetErrorName(int e, const char **s) { *s = "ERROR"; return 0; }
"#;

/// Another library under the driver's name.
const FOREIGN: &str = "int not_the_cuda_driver(void) { return 0; }\n";

/// `source` built as `dir/libcuda.so.1` (and `libcuda.so`).
fn fake_driver(dir: &Path, source: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let c = dir.join("fake.c");
    std::fs::write(&c, source).unwrap();
    let lib = dir.join("libcuda.so.1");
    let status = Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&lib)
        .arg(&c)
        .status()
        .expect("a C compiler (cc) builds the fake drivers");
    assert!(status.success());
    let _ = std::fs::remove_file(dir.join("libcuda.so"));
    std::os::unix::fs::symlink(&lib, dir.join("libcuda.so")).unwrap();
}

/// What `CudaBackend::new` says in a child process whose library path starts at `dir`: its
/// error, `"ok"`, or a panic or abort as an `Err` with the child's output.
fn new_with_driver_in(dir: &Path) -> Result<String, String> {
    let path = std::env::var_os("LD_LIBRARY_PATH").unwrap_or_default();
    let mut paths = vec![dir.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["child", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, "1")
        .env("LD_LIBRARY_PATH", std::env::join_paths(paths).unwrap())
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    match stdout.lines().find_map(|l| l.split("RESULT=").nth(1)) {
        Some(r) if out.status.success() && !stderr.contains("panicked") => Ok(r.to_string()),
        _ => Err(format!("{}\n{stdout}\n{stderr}", out.status)),
    }
}

/// Run by `new_with_driver_in` in the child only.
#[test]
fn child() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    match CudaBackend::new() {
        Ok(_) => println!("RESULT=ok"),
        Err(e) => println!("RESULT={e}"),
    }
}

fn scratch() -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!("dwt-fake-driver-{}-{nanos}", std::process::id()))
}

#[test]
fn a_driver_that_is_not_usable_is_unavailable_saying_why() {
    let (major, minor) = dwt_cuda::nvrtc_version()
        .unwrap_or_else(|e| panic!("NVRTC is needed for this test (it does not skip): {e}"));
    let dir = scratch();

    fake_driver(&dir.join("stub"), STUB);
    let e = new_with_driver_in(&dir.join("stub")).unwrap();
    assert!(
        e.contains("no usable CUDA device")
            && e.contains("CUDA_ERROR_STUB_LIBRARY")
            && e.contains("the NVIDIA driver (CUDA 13.0) is installed but offers no device"),
        "{e}"
    );
    assert!(!e.contains("was not found"), "the library was found: {e}");

    fake_driver(&dir.join("old"), OLD);
    let e = new_with_driver_in(&dir.join("old")).unwrap();
    assert!(
        e.contains(&format!(
            "the NVIDIA driver supports CUDA 11.0 but NVRTC {major}.{minor} compiles the kernels for CUDA {major}"
        )),
        "{e}"
    );

    fake_driver(&dir.join("foreign"), FOREIGN);
    let e = new_with_driver_in(&dir.join("foreign")).unwrap();
    assert!(
        e.contains("has no `cuInit`: it is not an NVIDIA driver"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
