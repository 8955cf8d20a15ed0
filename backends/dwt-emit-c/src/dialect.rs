//! What differs between C dialects: qualifiers, local memory, barriers, index built-ins, kernel
//! signatures and bit casts. The emitter writes everything else once.

use dwt_ir::ElementType;

use crate::writer::Writer;

/// A kernel parameter.
#[derive(Clone, Debug)]
pub enum Param {
    /// A pointer to global memory holding elements of the given type.
    Global(&'static str, ElementType),
    /// A pointer to global memory the kernel only reads, not aliased by a written parameter.
    Input(&'static str, ElementType),
    /// A by-value `int`.
    Int(&'static str),
}

/// The most threads a multiprocessor runs at once on sm_90 (and sm_80): what
/// [`Dialect::kernel_signature`]'s `full_occupancy` asks the compiler to fit.
const THREADS_PER_MULTIPROCESSOR: usize = 2048;

/// One C dialect: OpenCL C or CUDA C++.
pub trait Dialect {
    fn name(&self) -> &'static str;
    /// The name of one kernel of a module: `prefix` is `{wavelet}_{direction}`, `pass` is `rows`,
    /// `shift` or `columns`.
    fn kernel_name(&self, prefix: &str, elem: ElementType, pass: &str) -> String {
        let _ = elem;
        format!("{prefix}_{pass}")
    }
    /// The C type of stored elements.
    fn storage_type(&self, t: ElementType) -> &'static str {
        match t {
            ElementType::I16 => "short",
            ElementType::I32 => "int",
            ElementType::F32 => "float",
            ElementType::F64 => "double",
        }
    }
    /// The C type of the working arithmetic: `int` (wrapping) for integers, else the float type.
    fn work_type(&self, t: ElementType) -> &'static str {
        match t {
            ElementType::I16 | ElementType::I32 => "int",
            ElementType::F32 => "float",
            ElementType::F64 => "double",
        }
    }
    /// Lines before everything else: pragmas, extensions.
    fn preamble(&self, elem: ElementType) -> Vec<String>;
    /// Qualifier of a helper function (`static inline`, `__device__ inline`).
    fn helper_qualifier(&self) -> &'static str;
    /// The first lines of every kernel's body, before it touches memory: none by default.
    fn kernel_prologue(&self) -> &'static [&'static str] {
        &[]
    }
    /// The kernel's opening line, up to but excluding the `{`. With `full_occupancy`, the
    /// compiler is asked to fit as many groups per multiprocessor as it runs threads (CUDA's
    /// `__launch_bounds__(n, 2048 / n)`: a register budget);
    /// OpenCL C has no such hint.
    fn kernel_signature(
        &self,
        name: &str,
        params: &[Param],
        local_size: [usize; 3],
        full_occupancy: bool,
    ) -> String;
    /// A local (shared) memory array declaration with its `;`.
    fn local_array(&self, ty: &str, name: &str, dims: &[usize]) -> String;
    /// A pointer to global memory holding `ty` (`__global short*`, `short*`).
    fn global_pointer(&self, ty: &str) -> String;
    /// A work-group barrier over local memory, with its `;`.
    fn barrier(&self) -> &'static str;
    /// The work-item's index within its group along `axis`, as an `int`.
    fn local_id(&self, axis: u32) -> String;
    /// The group's index along `axis`, as an `int`.
    fn group_id(&self, axis: u32) -> String;
    /// Two consecutive stored elements from `array[index]` (`index` even, the address aligned
    /// as [`Dialect::pair_aligned`] checks), as a value with fields `.x` and `.y`.
    fn load_pair(&self, t: ElementType, array: &str, index: &str) -> String;
    /// Whether the global pointer `array` of `t` is aligned for [`Dialect::load_pair`]; `None`
    /// where every address is (the check would be a constant).
    fn pair_aligned(&self, t: ElementType, array: &str) -> Option<String>;
    /// A statement storing `x` and `y` (stored type `t`) as the two consecutive elements at
    /// `array[index]` (`index` even, the address aligned as [`Dialect::pair_aligned`] checks).
    fn store_pair(&self, t: ElementType, array: &str, index: &str, x: &str, y: &str) -> String;
    /// The two-element vector of stored type `t` (`int2`): the same name in both dialects.
    fn pair_type(&self, t: ElementType) -> String {
        format!("{}2", self.storage_type(t))
    }
    /// Whether the compilers of this dialect are trusted with a barrier under a branch that
    /// every work-item of a group takes the same way. Both languages allow it; PoCL, which runs
    /// a group's items in loops and duplicates code around such barriers, crashed on the fused
    /// kernel written that way (heap corruption, SIGSEGV), so OpenCL kernels keep their barriers
    /// at the top level.
    fn barriers_in_uniform_branches(&self) -> bool;
    /// Whether the dialect copies one sample from global to local memory without staging it in
    /// a register ([`async_copy_helpers`](Self::async_copy_helpers)); OpenCL C's
    /// `async_work_group_copy` copies for the whole group, in one contiguous run, so it does not.
    fn async_copies(&self) -> bool {
        false
    }
    /// Whether kernels may trade registers within a warp (CUDA's `__shfl_*_sync`): the one-pass
    /// volume kernel (module `volume`) lifts a row per half warp so; without, each work-item
    /// lifts its samples' neighbours itself.
    fn warp_shuffles(&self) -> bool {
        false
    }
    /// A pointer to `ty` in local memory.
    fn local_pointer(&self, ty: &str) -> String;
    /// The four consecutive elements of stored type `t` in local memory from address `at`
    /// (16-byte aligned), as a vector with fields `.x` to `.w`.
    fn local_load4(&self, t: ElementType, at: &str) -> String {
        format!(
            "*({})({at})",
            self.local_pointer(&format!("const {}4", self.storage_type(t)))
        )
    }
    /// A statement storing `v` as the four consecutive elements of stored type `t` in local
    /// memory from address `at` (16-byte aligned).
    fn local_store4(&self, t: ElementType, at: &str, v: [&str; 4]) -> String;
    /// A statement storing `v` as the four consecutive elements of stored type `t` in global
    /// memory from address `at` (16-byte aligned).
    fn global_store4(&self, t: ElementType, at: &str, v: [&str; 4]) -> String;
    /// Writes the helpers of [`async_copies`](Self::async_copies): `copy_async_pair(dst, src)`,
    /// two consecutive samples of `storage` (`bytes` wide each, both addresses aligned for the
    /// pair), and `wait_async()`, for a work-item's own copies.
    fn async_copy_helpers(&self, _w: &mut Writer, _storage: &str, _bytes: usize) {}
    /// [`local_array`](Self::local_array) starting at an address aligned to `align` bytes.
    fn aligned_local_array(&self, ty: &str, name: &str, dims: &[usize], align: usize) -> String;
    /// Reinterprets a `uint` expression as `int`.
    fn uint_as_int(&self, e: &str) -> String;
    /// Reinterprets an `int` expression as `uint`.
    fn int_as_uint(&self, e: &str) -> String;
    /// Reinterprets a `ushort` expression as `short`.
    fn ushort_as_short(&self, e: &str) -> String;
    /// The 32-bit unsigned type.
    fn uint_type(&self) -> &'static str {
        "uint"
    }
    /// The 16-bit unsigned type.
    fn ushort_type(&self) -> &'static str {
        "ushort"
    }
    /// `x` clamped to `[lo, hi]`, on `int`s.
    fn clamp_int(&self, x: &str, lo: &str, hi: &str) -> String {
        format!("clamp({x}, {lo}, {hi})")
    }
    /// The smaller of two `int`s.
    fn min_int(&self, a: &str, b: &str) -> String {
        format!("min({a}, {b})")
    }
    /// The larger of two `int`s.
    fn max_int(&self, a: &str, b: &str) -> String {
        format!("max({a}, {b})")
    }
}

/// OpenCL C 1.2.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenCl;

/// The bracketed extents of an array declaration: `[39][83]`.
fn array_dims(dims: &[usize]) -> String {
    dims.iter().map(|d| format!("[{d}]")).collect()
}

impl Dialect for OpenCl {
    fn name(&self) -> &'static str {
        "OpenCL C"
    }

    fn preamble(&self, elem: ElementType) -> Vec<String> {
        let mut lines = vec![
            "// No fused multiply-add: each product and sum rounds on its own, as in the CPU reference."
                .to_string(),
            "#pragma OPENCL FP_CONTRACT OFF".to_string(),
        ];
        if elem == ElementType::F64 {
            lines.push("#pragma OPENCL EXTENSION cl_khr_fp64 : enable".to_string());
        }
        lines
    }

    fn helper_qualifier(&self) -> &'static str {
        "static inline"
    }

    fn kernel_signature(
        &self,
        name: &str,
        params: &[Param],
        local_size: [usize; 3],
        _full_occupancy: bool,
    ) -> String {
        let params: Vec<String> = params
            .iter()
            .map(|p| match p {
                Param::Global(n, t) => format!("__global {}* {n}", self.storage_type(*t)),
                Param::Input(n, t) => {
                    format!("__global const {}* restrict {n}", self.storage_type(*t))
                }
                Param::Int(n) => format!("const int {n}"),
            })
            .collect();
        let [x, y, z] = local_size;
        format!(
            "__kernel __attribute__((reqd_work_group_size({x}, {y}, {z})))\nvoid {name}({})",
            params.join(", ")
        )
    }

    fn local_array(&self, ty: &str, name: &str, dims: &[usize]) -> String {
        format!("__local {ty} {name}{};", array_dims(dims))
    }

    fn aligned_local_array(&self, ty: &str, name: &str, dims: &[usize], align: usize) -> String {
        format!(
            "__local {ty} {name}{} __attribute__((aligned({align})));",
            array_dims(dims)
        )
    }

    fn global_pointer(&self, ty: &str) -> String {
        format!("__global {ty}*")
    }

    fn local_pointer(&self, ty: &str) -> String {
        format!("__local {ty}*")
    }

    fn local_store4(&self, t: ElementType, at: &str, [x, y, z, w]: [&str; 4]) -> String {
        let v = format!("{}4", self.storage_type(t));
        format!("*(__local {v}*)({at}) = ({v})({x}, {y}, {z}, {w});")
    }

    fn global_store4(&self, t: ElementType, at: &str, [x, y, z, w]: [&str; 4]) -> String {
        let v = format!("{}4", self.storage_type(t));
        format!("*(__global {v}*)({at}) = ({v})({x}, {y}, {z}, {w});")
    }

    fn barrier(&self) -> &'static str {
        "barrier(CLK_LOCAL_MEM_FENCE);"
    }

    fn local_id(&self, axis: u32) -> String {
        format!("(int)get_local_id({axis})")
    }

    fn group_id(&self, axis: u32) -> String {
        format!("(int)get_group_id({axis})")
    }

    fn barriers_in_uniform_branches(&self) -> bool {
        false
    }

    /// A vector through a cast pointer rather than `vload2`: Clang treats every OpenCL call as
    /// convergent, so a loop holding a `vload2` PoCL keeps out of line cannot be unrolled by 4
    /// with a remainder, and PoCL prints the warning on stderr at each build.
    fn load_pair(&self, t: ElementType, array: &str, index: &str) -> String {
        format!(
            "*(__global const {}*)({array} + {index})",
            self.pair_type(t)
        )
    }

    fn pair_aligned(&self, t: ElementType, array: &str) -> Option<String> {
        Some(format!(
            "(((ulong){array}) % sizeof({})) == 0",
            self.pair_type(t)
        ))
    }

    fn store_pair(&self, t: ElementType, array: &str, index: &str, x: &str, y: &str) -> String {
        let pair = self.pair_type(t);
        format!("*(__global {pair}*)({array} + {index}) = ({pair})({x}, {y});")
    }

    fn uint_as_int(&self, e: &str) -> String {
        format!("as_int({e})")
    }

    fn int_as_uint(&self, e: &str) -> String {
        format!("as_uint({e})")
    }

    fn ushort_as_short(&self, e: &str) -> String {
        format!("as_short({e})")
    }
}

/// CUDA C++ for NVRTC: `extern "C"` kernels (unmangled names for the driver's lookup),
/// `__launch_bounds__` from the launch configuration, `__shared__` arrays, `__syncthreads()`.
/// NVRTC contracts a float step's product and sum into one fused multiply-add (its default):
/// the float kernels agree with the CPU reference to rounding, not bit for bit.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cuda;

const CUDA_AXES: [&str; 3] = ["x", "y", "z"];

impl Dialect for Cuda {
    fn name(&self) -> &'static str {
        "CUDA C++"
    }

    fn kernel_name(&self, prefix: &str, elem: ElementType, pass: &str) -> String {
        format!("{prefix}_{}_{pass}", elem.name())
    }

    fn preamble(&self, elem: ElementType) -> Vec<String> {
        match elem {
            ElementType::F32 | ElementType::F64 => vec![
                "// Float steps contract into fused multiply-adds (NVRTC's default): within rounding of the CPU reference.".to_string(),
            ],
            ElementType::I16 | ElementType::I32 => Vec::new(),
        }
    }

    fn helper_qualifier(&self) -> &'static str {
        "static __device__ __forceinline__"
    }

    /// A kernel may be launched as a programmatic dependent of the kernel before it in its
    /// stream (sm_90: the CUDA backend launches a plan's later kernels so, and they begin while
    /// the earlier one drains); it waits here for that kernel's completion and memory. Launched
    /// otherwise, or below sm_90, the wait is a no-op or absent.
    fn kernel_prologue(&self) -> &'static [&'static str] {
        &[
            "#if __CUDA_ARCH__ >= 900",
            "asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");",
            "#endif",
        ]
    }

    fn kernel_signature(
        &self,
        name: &str,
        params: &[Param],
        local_size: [usize; 3],
        full_occupancy: bool,
    ) -> String {
        let params: Vec<String> = params
            .iter()
            .map(|p| match p {
                Param::Global(n, t) => format!("{}* {n}", self.storage_type(*t)),
                Param::Input(n, t) => format!("const {}* __restrict__ {n}", self.storage_type(*t)),
                Param::Int(n) => format!("const int {n}"),
            })
            .collect();
        let [x, y, z] = local_size;
        let threads = x * y * z;
        let bounds = if full_occupancy {
            format!(
                "{threads}, {}",
                (THREADS_PER_MULTIPROCESSOR / threads).max(1)
            )
        } else {
            threads.to_string()
        };
        format!(
            "// Launched with blockDim = ({x}, {y}, {z}).\nextern \"C\" __global__ void __launch_bounds__({bounds})\n{name}({})",
            params.join(", ")
        )
    }

    fn local_array(&self, ty: &str, name: &str, dims: &[usize]) -> String {
        format!("__shared__ {ty} {name}{};", array_dims(dims))
    }

    fn aligned_local_array(&self, ty: &str, name: &str, dims: &[usize], align: usize) -> String {
        format!(
            "__shared__ __align__({align}) {ty} {name}{};",
            array_dims(dims)
        )
    }

    fn global_pointer(&self, ty: &str) -> String {
        format!("{ty}*")
    }

    fn local_pointer(&self, ty: &str) -> String {
        format!("{ty}*")
    }

    fn local_store4(&self, t: ElementType, at: &str, [x, y, z, w]: [&str; 4]) -> String {
        let v = format!("{}4", self.storage_type(t));
        format!("*({v}*)({at}) = make_{v}({x}, {y}, {z}, {w});")
    }

    fn global_store4(&self, t: ElementType, at: &str, v: [&str; 4]) -> String {
        self.local_store4(t, at, v)
    }

    fn barrier(&self) -> &'static str {
        "__syncthreads();"
    }

    fn local_id(&self, axis: u32) -> String {
        format!("(int)threadIdx.{}", CUDA_AXES[axis as usize])
    }

    fn group_id(&self, axis: u32) -> String {
        format!("(int)blockIdx.{}", CUDA_AXES[axis as usize])
    }

    fn barriers_in_uniform_branches(&self) -> bool {
        true
    }

    fn load_pair(&self, t: ElementType, array: &str, index: &str) -> String {
        format!("*(const {}*)({array} + {index})", self.pair_type(t))
    }

    fn async_copies(&self) -> bool {
        true
    }

    fn warp_shuffles(&self) -> bool {
        true
    }

    /// `cp.async` (sm_80 and later; a plain copy below): the copy holds no register, so a
    /// work-item has every copy of its tile in flight at once under the forward's 32-register
    /// cap. A pair per copy: copy kernels loading a tile as the forward does reached 97% of
    /// `cudaMemcpy` so on an H200, 86% with a copy per sample (BENCHMARKS.md).
    fn async_copy_helpers(&self, w: &mut Writer, storage: &str, bytes: usize) {
        let q = self.helper_qualifier();
        w.block(
            format!("{q} void copy_async_pair({storage}* dst, const {storage}* src)"),
            |w| {
                w.line("#if __CUDA_ARCH__ >= 800");
                w.line(format!(
                    "asm volatile(\"cp.async.ca.shared.global [%0], [%1], {};\" :: \"r\"((unsigned)__cvta_generic_to_shared(dst)), \"l\"(src) : \"memory\");",
                    2 * bytes
                ));
                w.line("#else");
                w.line("dst[0] = src[0];");
                w.line("dst[1] = src[1];");
                w.line("#endif");
            },
        );
        w.block(format!("{q} void wait_async()"), |w| {
            w.line("#if __CUDA_ARCH__ >= 800");
            w.line("asm volatile(\"cp.async.wait_all;\" ::: \"memory\");");
            w.line("#endif");
        });
    }

    fn pair_aligned(&self, t: ElementType, array: &str) -> Option<String> {
        Some(format!(
            "(((unsigned long long){array}) % sizeof({})) == 0",
            self.pair_type(t)
        ))
    }

    fn store_pair(&self, t: ElementType, array: &str, index: &str, x: &str, y: &str) -> String {
        let pair = self.pair_type(t);
        format!("*({pair}*)({array} + {index}) = make_{pair}({x}, {y});")
    }

    fn uint_as_int(&self, e: &str) -> String {
        format!("(int)({e})")
    }

    fn int_as_uint(&self, e: &str) -> String {
        format!("(unsigned int)({e})")
    }

    fn ushort_as_short(&self, e: &str) -> String {
        format!("(short)({e})")
    }

    fn uint_type(&self) -> &'static str {
        "unsigned int"
    }

    fn ushort_type(&self) -> &'static str {
        "unsigned short"
    }

    fn clamp_int(&self, x: &str, lo: &str, hi: &str) -> String {
        format!("min(max({x}, {lo}), {hi})")
    }
}
