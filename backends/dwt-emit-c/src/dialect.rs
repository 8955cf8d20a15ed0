//! What differs between C dialects: qualifiers, local memory, barriers, index built-ins, kernel
//! signatures and bit casts. The emitter writes everything else once.

use dwt_ir::ElementType;

/// A kernel parameter.
#[derive(Clone, Debug)]
pub enum Param {
    /// A pointer to global memory holding elements of the given type.
    Global(&'static str, ElementType),
    /// A by-value `int`.
    Int(&'static str),
}

/// One C dialect: OpenCL C now, CUDA C later.
pub trait Dialect {
    fn name(&self) -> &'static str;
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
    /// The kernel's opening line, up to but excluding the `{`.
    fn kernel_signature(&self, name: &str, params: &[Param], local_size: [usize; 3]) -> String;
    /// A local (shared) memory array declaration with its `;`.
    fn local_array(&self, ty: &str, name: &str, dims: &[usize]) -> String;
    /// Qualifier of a pointer to global memory.
    fn global_qualifier(&self) -> &'static str;
    /// A work-group barrier over local memory, with its `;`.
    fn barrier(&self) -> &'static str;
    /// The work-item's index within its group along `axis`, as an `int`.
    fn local_id(&self, axis: u32) -> String;
    /// The group's index along `axis`, as an `int`.
    fn group_id(&self, axis: u32) -> String;
    /// Reinterprets a `uint` expression as `int`.
    fn uint_as_int(&self, e: &str) -> String;
    /// Reinterprets an `int` expression as `uint`.
    fn int_as_uint(&self, e: &str) -> String;
    /// Reinterprets a `ushort` expression as `short`.
    fn ushort_as_short(&self, e: &str) -> String;
}

/// OpenCL C 1.2.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenCl;

impl Dialect for OpenCl {
    fn name(&self) -> &'static str {
        "OpenCL C"
    }

    fn preamble(&self, elem: ElementType) -> Vec<String> {
        let mut lines = vec![
            "// Multiply and add stay separate, as in the CPU reference (no fused multiply-add)."
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

    fn kernel_signature(&self, name: &str, params: &[Param], local_size: [usize; 3]) -> String {
        let params: Vec<String> = params
            .iter()
            .map(|p| match p {
                Param::Global(n, t) => format!("__global {}* {n}", self.storage_type(*t)),
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
        let dims: String = dims.iter().map(|d| format!("[{d}]")).collect();
        format!("__local {ty} {name}{dims};")
    }

    fn global_qualifier(&self) -> &'static str {
        "__global"
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
