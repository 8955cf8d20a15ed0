//! NVRTC: CUDA C++ to a CUBIN for one architecture, with the program log (ptxas' resource usage
//! with `--ptxas-options=-v`), and the log's spill lines parsed per function.

use std::ffi::{c_char, CStr, CString};

use cudarc::nvrtc::{result, sys};
use dwt_emit_c::MAX_TILE_BYTES;
use dwt_runtime::DwtError;

use crate::{unavailable, NAME};

/// What NVRTC made of a source: the CUBIN and the program log.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub cubin: Vec<u8>,
    pub log: String,
}

/// The options every module is compiled with for `arch` (e.g. `sm_90`), ptxas' resource report in
/// the log. Float products and sums contract into fused multiply-adds (NVRTC's default): the
/// float kernels' instructions were 36% floating point, each step's tap two of them and its update
/// one more, and fusing (with the taps of one coefficient summed first) made CDF 9/7's forward
/// pass of 8192^2 6% faster (BENCHMARKS.md). Floats agree with the CPU reference to rounding.
///
/// NVRTC 12.9 and later may answer from a cache of its own without running ptxas, and then the
/// log reports nothing for the cached kernels (NVIDIA/Fuser#4694): `--no-cache` keeps the
/// report whole. Built modules are cached by this crate anyway ([`crate::disk_cache`]).
pub fn options(arch: &str) -> Vec<String> {
    let mut options = vec![
        format!("--gpu-architecture={arch}"),
        "--ptxas-options=-v".to_string(),
    ];
    if version().is_ok_and(|v| v >= (12, 9)) {
        options.push("--no-cache".to_string());
    }
    options
}

/// Whether NVRTC can be loaded; [`DwtError::Unavailable`] with what to install if not. Every
/// NVRTC call checks this first: cudarc panics on a missing library.
pub fn check_nvrtc() -> Result<(), DwtError> {
    // SAFETY: only tries to open the library.
    if unsafe { sys::is_culib_present() } {
        Ok(())
    } else {
        Err(unavailable(crate::NVRTC_MISSING))
    }
}

/// The NVRTC version, `(major, minor)`.
pub fn version() -> Result<(i32, i32), DwtError> {
    check_nvrtc()?;
    let (mut major, mut minor) = (0, 0);
    // SAFETY: NVRTC is loaded; both pointers are valid.
    unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
        .result()
        .map_err(|e| build_error(format!("nvrtcVersion: {e:?}")))?;
    Ok((major, minor))
}

fn build_error(log: String) -> DwtError {
    DwtError::Build {
        backend: NAME.into(),
        log,
    }
}

/// The program's name in NVRTC's diagnostics (`dwt.cu(LINE): error: ...`).
pub const PROGRAM_NAME: &str = "dwt.cu";

/// Compiles `source` for `arch` to a CUBIN. A compiler error is [`DwtError::Build`] with NVRTC's
/// log and the source lines it points at.
pub fn compile(source: &str, arch: &str) -> Result<Compiled, DwtError> {
    check_nvrtc()?;
    let src = CString::new(source)
        .map_err(|e| build_error(format!("the source holds a NUL byte: {e}")))?;
    let name = CString::new(PROGRAM_NAME).expect("no NUL");
    let prog = result::create_program(&src, Some(&name))
        .map_err(|e| build_error(format!("nvrtcCreateProgram: {e:?}")))?;
    let opts = options(arch);
    // SAFETY: `prog` is a live program, destroyed once below.
    let compiled = unsafe { result::compile_program(prog, &opts) };
    let log = unsafe { result::get_program_log(prog) }
        .map(|raw| c_string(&raw))
        .unwrap_or_default();
    let out = match compiled {
        Err(e) => Err(build_error(annotate_log(
            &format!(
                "{e:?} ({})\n{}{}",
                opts.join(" "),
                over_shared_memory(&log),
                log.trim_end()
            ),
            source,
        ))),
        Ok(()) => unsafe { cubin(prog) }.map(|cubin| Compiled { cubin, log }),
    };
    // SAFETY: created above, not destroyed before.
    let _ = unsafe { result::destroy_program(prog) };
    out
}

/// A line per kernel of `log` that declares more static shared memory than a block may have:
/// NVRTC then fails without an error line of its own, only ptxas' usage says why.
fn over_shared_memory(log: &str) -> String {
    function_usage(log)
        .into_iter()
        .filter_map(|u| Some((u.shared.filter(|&b| b > MAX_TILE_BYTES as u64)?, u.function)))
        .map(|(bytes, function)| {
            format!(
                "{function} declares {bytes} bytes of static shared memory, more than the {MAX_TILE_BYTES} a block may have (an emitter bug: please report it with this log; a smaller LaunchConfig::tile avoids it)\n"
            )
        })
        .collect()
}

fn c_string(raw: &[c_char]) -> String {
    if raw.is_empty() {
        return String::new();
    }
    // SAFETY: NVRTC NUL-terminates its log.
    unsafe { CStr::from_ptr(raw.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// # Safety
/// `prog` must be a live, successfully compiled program.
unsafe fn cubin(prog: sys::nvrtcProgram) -> Result<Vec<u8>, DwtError> {
    let mut size = 0usize;
    sys::nvrtcGetCUBINSize(prog, &mut size)
        .result()
        .map_err(|e| build_error(format!("nvrtcGetCUBINSize: {e:?}")))?;
    let mut out = vec![0u8; size];
    sys::nvrtcGetCUBIN(prog, out.as_mut_ptr() as *mut c_char)
        .result()
        .map_err(|e| build_error(format!("nvrtcGetCUBIN: {e:?}")))?;
    Ok(out)
}

/// ptxas' report of one function: spill bytes and registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionUsage {
    pub function: String,
    pub spill_stores: u64,
    pub spill_loads: u64,
    pub registers: Option<u64>,
    /// Bytes of static shared memory (`N bytes smem`).
    pub shared: Option<u64>,
}

fn number_before(line: &str, what: &str) -> Option<u64> {
    let head = &line[..line.find(what)?];
    head.split(|c: char| !c.is_ascii_digit())
        .rfind(|s| !s.is_empty())?
        .parse()
        .ok()
}

/// Parses `ptxas info : Function properties for NAME` / `N bytes stack frame, N bytes spill
/// stores, N bytes spill loads` / `Used N registers` from a `--ptxas-options=-v` log.
pub fn function_usage(log: &str) -> Vec<FunctionUsage> {
    let mut out: Vec<FunctionUsage> = Vec::new();
    let mut current: Option<String> = None;
    for line in log.lines() {
        if let Some(i) = line.find("Function properties for ") {
            current = Some(
                line[i + "Function properties for ".len()..]
                    .trim()
                    .to_string(),
            );
        } else if line.contains("bytes spill stores") {
            if let Some(function) = current.clone() {
                out.push(FunctionUsage {
                    function,
                    spill_stores: number_before(line, "bytes spill stores").unwrap_or(u64::MAX),
                    spill_loads: number_before(line, "bytes spill loads").unwrap_or(u64::MAX),
                    registers: None,
                    shared: None,
                });
            }
        } else if line.contains("Used ") && line.contains(" registers") {
            if let (Some(f), Some(last)) = (&current, out.last_mut()) {
                if &last.function == f {
                    last.registers = number_before(line, " registers");
                    last.shared = number_before(line, " bytes smem");
                }
            }
        }
    }
    out
}

/// NVRTC's log followed by the source lines it points at (`dwt.cu(LINE): ...`), quoted with
/// their numbers.
pub fn annotate_log(log: &str, source: &str) -> String {
    dwt_emit_c::annotate_build_log(log, source, |l| {
        let rest = &l[l.find('(')? + 1..];
        let j = rest.find(')')?;
        if rest[j..].starts_with("):") {
            rest[..j].parse().ok()
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ptxas_lines() {
        let log = "ptxas info    : 0 bytes gmem\nptxas info    : Compiling entry function 'k_rows' for 'sm_90'\nptxas info    : Function properties for k_rows\n    0 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\nptxas info    : Used 30 registers, used 1 barriers, 16384 bytes smem\n";
        assert_eq!(
            function_usage(log),
            vec![FunctionUsage {
                function: "k_rows".into(),
                spill_stores: 8,
                spill_loads: 4,
                registers: Some(30),
                shared: Some(16384),
            }]
        );
    }

    /// NVRTC failed on the 64x16-of-512 candidate's tile of a far-reaching program with nothing
    /// but warnings and ptxas' usage in its log.
    #[test]
    fn names_a_kernel_over_the_shared_memory_limit() {
        let log = "ptxas info    : Compiling entry function 'far_forward_i32_tile' for 'sm_90'\nptxas info    : Function properties for far_forward_i32_tile\nptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\nptxas info    : Used 32 registers, used 1 barriers, 49792 bytes smem\nptxas info    : Function properties for k_rows\n    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\nptxas info    : Used 30 registers, used 1 barriers, 16384 bytes smem\n";
        let out = over_shared_memory(log);
        assert!(
            out.starts_with("far_forward_i32_tile declares 49792 bytes of static shared memory, more than the 49152"),
            "{out}"
        );
        assert_eq!(out.lines().count(), 1, "{out}");
    }

    #[test]
    fn quotes_the_offending_line() {
        let out = annotate_log(
            "dwt.cu(2): error: identifier \"y\" is undefined",
            "int a;\nint b = y;\n",
        );
        assert!(
            out.ends_with("in the emitted source:\n    2 | int b = y;"),
            "{out}"
        );
    }
}
