//! The OpenCL side of the on-disk kernel cache ([`dwt_emit_c::disk_cache`]): program binaries
//! (`clGetProgramInfo(CL_PROGRAM_BINARIES)`) keyed by the source, the platform, the device and
//! its driver version, loaded with `clCreateProgramWithBinary`. A missing, corrupt or rejected
//! entry is compiled from source and rewritten; the cache never makes a build fail, and an entry
//! that cannot be written is a warning in the prepare report.

use std::ffi::CString;
use std::path::PathBuf;

use dwt_emit_c::disk_cache;
use dwt_runtime::{DwtError, KernelOrigin};
use ocl::enums::{DeviceInfo, PlatformInfo, ProgramInfo, ProgramInfoResult};
use ocl::Program;

use crate::{DeviceState, OpenClBackend};

/// The folder under the cache directory OpenCL entries live in.
pub const SUBDIR: &str = "opencl";

/// What, besides the source, changes the binary: the platform with its version, the device and
/// its driver version.
pub(crate) fn identity(state: &DeviceState) -> String {
    let platform_version = state
        .device
        .info(DeviceInfo::Platform)
        .ok()
        .and_then(|p| match p {
            ocl::enums::DeviceInfoResult::Platform(id) => ocl::Platform::new(id)
                .info(PlatformInfo::Version)
                .ok()
                .map(|v| v.to_string()),
            _ => None,
        })
        .unwrap_or_default();
    let driver = state
        .device
        .info(DeviceInfo::DriverVersion)
        .map(|v| v.to_string())
        .unwrap_or_default();
    format!(
        "{} | {platform_version} | {} | driver {driver}",
        state.platform_name, state.device_name
    )
}

/// The entry of `source` on the device, `None` when there is no cache directory.
pub(crate) fn entry(state: &DeviceState, source: &str) -> Option<PathBuf> {
    let dir = disk_cache::cache_dir()?;
    let key = disk_cache::key(&[source.as_bytes(), state.cache_identity.as_bytes()]);
    Some(disk_cache::entry_path(&dir, SUBDIR, &key, "bin"))
}

/// Builds `source`: from the disk cache when a valid entry is there, else compiled from source
/// (and the binary stored). The third value is the warning of a binary the cache could not store
/// ([`disk_cache::store_or_warn`]).
pub(crate) fn build(
    backend: &OpenClBackend,
    source: &str,
) -> Result<(Program, KernelOrigin, Option<String>), DwtError> {
    let state = backend.state;
    let path = entry(state, source);
    if let Some(binary) = path.as_deref().and_then(disk_cache::load) {
        if let Some(program) = from_binary(state, &binary) {
            return Ok((program, KernelOrigin::DiskCache, None));
        }
    }
    let program = backend.compile(source)?;
    let warning = path.and_then(|path| {
        let binary = binary_of(&program)?;
        disk_cache::store_or_warn(&path, &binary, "the kernel will be compiled again")
    });
    Ok((program, KernelOrigin::Compiled, warning))
}

fn from_binary(state: &DeviceState, binary: &[u8]) -> Option<Program> {
    let device = *state.device.as_core();
    let program =
        ocl::core::create_program_with_binary(state.context.as_core(), &[device], &[binary])
            .ok()?;
    let options = CString::new("").expect("no NUL");
    ocl::core::build_program(&program, Some(&[device]), &options, None, None).ok()?;
    Some(Program::from(program))
}

fn binary_of(program: &Program) -> Option<Vec<u8>> {
    match ocl::core::get_program_info(program.as_core(), ProgramInfo::Binaries).ok()? {
        ProgramInfoResult::Binaries(mut b) if b.len() == 1 && !b[0].is_empty() => b.pop(),
        _ => None,
    }
}
