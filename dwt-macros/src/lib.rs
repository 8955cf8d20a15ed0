//! `lifting!`: a thin wrapper over dwt-ir's parser. It validates the declarations at compile time
//! (errors point at the offending token) and emits, for each wavelet, a unit type implementing
//! `WaveletSpec` that carries the canonical source, the derived window geometry and the OpenCL
//! and CUDA kernels (from dwt-emit-c, for the default launch configuration) as constants.

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use proc_macro_crate::{crate_name, FoundCrate};
use quote::{format_ident, quote};

use dwt_emit_c::{emit_module, Cuda, Dialect, EmitError, LaunchConfig, OpenCl};
use dwt_ir::parse::{Declaration, Declarations};
use dwt_ir::{Direction, ElementKind, ElementType, Layout, Wavelet, WindowGeometry};

/// Declares one or more wavelets as lifting programs.
///
/// ```ignore
/// lifting! {
///     /// Deslauriers-Dubuc (13,7), as in Dirac / VC-2.
///     pub wavelet Dd137 {
///         boundary = clamp;
///         shift = 1;
///         odd  -= (-even[-1] + 9*even[0] + 9*even[1] - even[2] + 8) >> 4;
///         even += (-odd[-2] + 9*odd[-1] + 9*odd[0] - odd[1] + 16) >> 5;
///     }
/// }
/// ```
#[proc_macro]
pub fn lifting(input: TokenStream) -> TokenStream {
    match expand(input.into()) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

fn expand(input: TokenStream2) -> syn::Result<TokenStream2> {
    let Declarations(decls) = syn::parse2(input)?;
    let ir = ir_path()?;
    let mut out = TokenStream2::new();
    for decl in decls {
        out.extend(expand_one(&decl, &ir)?);
    }
    Ok(out)
}

/// Where the generated code finds the IR: through the `lifting` facade when the caller depends on
/// it, otherwise through `dwt-ir` directly (as the catalogue does).
fn ir_path() -> syn::Result<TokenStream2> {
    if let Ok(found) = crate_name("lifting") {
        let name = match found {
            FoundCrate::Itself => format_ident!("lifting"),
            FoundCrate::Name(n) => format_ident!("{}", n),
        };
        return Ok(quote!(::#name::ir));
    }
    match crate_name("dwt-ir") {
        Ok(FoundCrate::Name(n)) => {
            let name = format_ident!("{}", n);
            Ok(quote!(::#name))
        }
        Ok(FoundCrate::Itself) => Ok(quote!(crate)),
        Err(_) => Err(syn::Error::new(proc_macro2::Span::call_site(), "`lifting!` needs the `lifting` crate as a dependency of this crate (add `lifting` to [dependencies])")),
    }
}

fn geometry_tokens(g: WindowGeometry, ir: &TokenStream2) -> TokenStream2 {
    let WindowGeometry {
        top,
        overlap,
        bottom,
        min_height,
    } = g;
    quote!(#ir::WindowGeometry { top: #top, overlap: #overlap, bottom: #bottom, min_height: #min_height })
}

fn expand_one(decl: &Declaration, ir: &TokenStream2) -> syn::Result<TokenStream2> {
    let Declaration {
        wavelet,
        vis,
        attrs,
        ident,
    } = decl;
    let source = wavelet.to_string();
    // The type re-parses its canonical text at run time; make sure that gives the very same IR.
    match dwt_ir::parse_wavelet(&source) {
        Ok(back) if &back == wavelet => {}
        _ => return Err(syn::Error::new(ident.span(), format!("internal error: the canonical form of `{ident}` does not parse back to the same program; please report this with the declaration:\n{source}"))),
    }
    let name = wavelet.name.as_str();
    let docs = wavelet.doc.iter().map(|line| {
        let line = format!(" {line}");
        quote!(#[doc = #line])
    });
    let opencl = kernel_sources(&OpenCl, wavelet, ident, ir)?;
    let cuda = kernel_sources(&Cuda, wavelet, ident, ir)?;
    let geometry = geometry_tokens(
        wavelet
            .sliding_window(dwt_ir::Direction::Forward)
            .geometry(),
        ir,
    );
    let inverse_geometry = geometry_tokens(
        wavelet
            .sliding_window(dwt_ir::Direction::Inverse)
            .geometry(),
        ir,
    );
    Ok(quote! {
        #(#docs)*
        #(#attrs)*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #ident;

        impl #ir::WaveletSpec for #ident {
            const NAME: &'static ::core::primitive::str = #name;
            const SOURCE: &'static ::core::primitive::str = #source;
            const GEOMETRY: #ir::WindowGeometry = #geometry;
            const INVERSE_GEOMETRY: #ir::WindowGeometry = #inverse_geometry;
            const OPENCL: &'static [#ir::KernelSource] = &[#(#opencl),*];
            const CUDA: &'static [#ir::KernelSource] = &[#(#cuda),*];

            fn wavelet() -> &'static #ir::Wavelet {
                static IR: #ir::__private::OnceLock<#ir::Wavelet> = #ir::__private::OnceLock::new();
                IR.get_or_init(|| #ir::parse_wavelet(Self::SOURCE).expect("`lifting!` checked at compile time that this source parses"))
            }

            fn inverse() -> &'static #ir::Program {
                static INVERSE: #ir::__private::OnceLock<#ir::Program> = #ir::__private::OnceLock::new();
                INVERSE.get_or_init(|| <Self as #ir::WaveletSpec>::wavelet().inverse())
            }
        }
    })
}

/// The modules of one dialect for every direction, element type of the wavelet's kind and layout;
/// an emitter failure is a compile error on the wavelet's name, except f32 modules of a float
/// coefficient f32 cannot hold: the wavelet is valid, only f64 can run it, and the runtime says
/// so to whoever asks for f32.
fn kernel_sources(
    dialect: &dyn Dialect,
    wavelet: &Wavelet,
    ident: &syn::Ident,
    ir: &TokenStream2,
) -> syn::Result<Vec<TokenStream2>> {
    let elements = match wavelet.kind {
        ElementKind::Integer => [ElementType::I16, ElementType::I32],
        ElementKind::Float => [ElementType::F32, ElementType::F64],
    };
    let mut out = Vec::new();
    for (direction, dir) in [
        (Direction::Forward, quote!(Forward)),
        (Direction::Inverse, quote!(Inverse)),
    ] {
        for element in elements {
            for (layout, lay) in [
                (Layout::Mallat, quote!(Mallat)),
                (Layout::Interleaved, quote!(Interleaved)),
            ] {
                let module = match emit_module(
                    dialect,
                    wavelet,
                    direction,
                    element,
                    layout,
                    &LaunchConfig::default(),
                ) {
                    Err(EmitError::Unrepresentable { .. }) if element == ElementType::F32 => {
                        continue
                    }
                    other => other,
                }
                .map_err(|e| {
                    syn::Error::new(
                        ident.span(),
                        format!(
                            "the {} emitter cannot generate kernels for `{ident}`: {e}",
                            dialect.name()
                        ),
                    )
                })?;
                let source = module.source();
                let elem = format_ident!("{}", format!("{element:?}"));
                out.push(quote!(#ir::KernelSource {
                    direction: #ir::Direction::#dir,
                    element: #ir::ElementType::#elem,
                    layout: #ir::Layout::#lay,
                    source: #source,
                }));
            }
        }
    }
    Ok(out)
}
