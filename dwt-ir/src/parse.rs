//! The wavelet language, parsed with syn so that the `lifting!` macro (at compile time) and
//! description files (at run time) share one front end and one set of error messages.
//!
//! ```text
//! /// doc comment
//! pub wavelet Name {
//!     kind = integer;          // or float (default: integer)
//!     boundary = clamp;        // clamp | symmetric | periodic (default: clamp)
//!     shift = 1;               // VC-2 per-level pre-shift, integer wavelets only (default: 0)
//!     odd  -= (-even[-1] + 9*even[0] + 9*even[1] - even[2] + 8) >> 4;
//!     even += (-odd[-2] + 9*odd[-1] + 9*odd[0] - odd[1] + 16) >> 5;
//!     scale 1.149604398860241; // float only: low *= K, high /= K; or `scale (a, b);`
//! }
//! ```

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::{braced, BinOp, Expr, Lit, Token, UnOp};

use crate::{Boundary, Coeff, ElementKind, Laurent, Op, Phase, Program, Sign, Step, Wavelet};

/// The largest polyphase offset a step may read; larger ones are almost certainly typos and would
/// make window geometry absurd.
pub const MAX_OFFSET: i32 = 64;
/// The largest `>> s` of an integer step, so that `1 << s` fits comfortably in 32-bit arithmetic.
pub const MAX_STEP_SHIFT: u32 = 30;
/// The largest per-level pre-shift.
pub const MAX_PRE_SHIFT: u32 = 15;

/// A wavelet as declared, with what the macro needs to emit its type.
pub struct Declaration {
    pub wavelet: Wavelet,
    pub vis: syn::Visibility,
    /// Attributes other than doc comments, forwarded to the generated type.
    pub attrs: Vec<syn::Attribute>,
    pub ident: syn::Ident,
}

/// Several declarations, as a macro invocation or a description file holds them.
pub struct Declarations(pub Vec<Declaration>);

impl Parse for Declarations {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut out = Vec::new();
        let mut names = BTreeSet::new();
        while !input.is_empty() {
            let decl: Declaration = input.parse()?;
            if !names.insert(decl.wavelet.name.clone()) {
                return Err(syn::Error::new(
                    decl.ident.span(),
                    format!(
                        "wavelet `{}` is declared twice; give each wavelet its own name",
                        decl.ident
                    ),
                ));
            }
            out.push(decl);
        }
        if out.is_empty() {
            return Err(syn::Error::new(
                Span::call_site(),
                "no wavelet declared: write `wavelet Name { odd -= ...; even += ...; }`",
            ));
        }
        Ok(Declarations(out))
    }
}

/// The longest wavelet name, in characters: the name becomes kernel names and, through them, the
/// names of compiled-kernel cache files (PoCL aborted on a name of 5000 characters).
pub const MAX_NAME_LEN: usize = 64;

mod kw {
    syn::custom_keyword!(wavelet);
    syn::custom_keyword!(scale);
}

impl Parse for Declaration {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let all_attrs = input.call(syn::Attribute::parse_outer)?;
        let vis: syn::Visibility = input.parse()?;
        if !input.peek(kw::wavelet) {
            return Err(input.error("expected `wavelet Name { ... }`"));
        }
        input.parse::<kw::wavelet>()?;
        let ident: syn::Ident = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the wavelet's name after `wavelet`, e.g. `wavelet LeGall53 { ... }`",
            )
        })?;
        let name = syn::ext::IdentExt::unraw(&ident).to_string();
        if let Some(c) = name.chars().find(|c| !c.is_ascii()) {
            return Err(syn::Error::new(
                ident.span(),
                format!("the wavelet name `{name}` has the non-ASCII character `{c}`: the name becomes the names of its OpenCL and CUDA kernels, which take ASCII letters, digits and `_` only (rename it, e.g. with `{}`)", ascii_name(&name)),
            ));
        }
        let name_len = name.chars().count();
        if name_len > MAX_NAME_LEN {
            return Err(syn::Error::new(
                ident.span(),
                format!("a wavelet name of {name_len} characters: names are at most {MAX_NAME_LEN} (they become the names of its kernels and of their cache files)"),
            ));
        }
        let body;
        braced!(body in input);
        let mut statements = Vec::new();
        while !body.is_empty() {
            statements.push(body.parse::<Statement>()?);
        }
        let mut doc = Vec::new();
        let mut attrs = Vec::new();
        for attr in all_attrs {
            match doc_lines(&attr) {
                Some(lines) => doc.extend(lines),
                None => attrs.push(attr),
            }
        }
        let wavelet = lower(&ident, doc, statements)?;
        Ok(Declaration {
            wavelet,
            vis,
            attrs,
            ident,
        })
    }
}

/// `name` with each non-ASCII character replaced by `_`, for the suggestion of an ASCII name.
fn ascii_name(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii() { c } else { '_' })
        .collect()
}

/// The lines of a doc attribute: one for `/// text`, several for a block (`/** ... */`) or a
/// `#[doc = "..."]` holding newlines, each without one leading space, so that the canonical
/// form (one `///` per line) reads back the same.
fn doc_lines(attr: &syn::Attribute) -> Option<Vec<String>> {
    if !attr.path().is_ident("doc") {
        return None;
    }
    let syn::Meta::NameValue(nv) = &attr.meta else {
        return None;
    };
    let Expr::Lit(syn::ExprLit {
        lit: Lit::Str(s), ..
    }) = &nv.value
    else {
        return None;
    };
    let text = s.value();
    let lines = (text.split('\n')).map(|line| line.strip_prefix(' ').unwrap_or(line).to_string());
    Some(lines.collect())
}

/// One statement of a wavelet body, before validation.
enum Statement {
    Key {
        key: syn::Ident,
        value: Expr,
    },
    Step {
        target: syn::Ident,
        sign: Sign,
        rhs: Expr,
    },
    Scale {
        keyword: Span,
        value: Expr,
    },
}

impl Parse for Statement {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        check_statement_size(input)?;
        if input.peek(kw::scale) && !input.peek2(Token![=]) {
            let keyword = input.parse::<kw::scale>()?.span;
            let value: Expr = input.parse()?;
            expect_semi(input, &value)?;
            return Ok(Statement::Scale { keyword, value });
        }
        let ident: syn::Ident = input.call(syn::ext::IdentExt::parse_any).map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected a setting (`boundary = clamp;`), a step (`odd -= ...;`) or `scale K;`",
            )
        })?;
        let is_phase = ident == "even" || ident == "odd";
        if input.peek(Token![+=]) || input.peek(Token![-=]) {
            let sign = if input.peek(Token![+=]) {
                input.parse::<Token![+=]>()?;
                Sign::Add
            } else {
                input.parse::<Token![-=]>()?;
                Sign::Sub
            };
            if !is_phase {
                return Err(syn::Error::new(
                    ident.span(),
                    format!("a step updates `even` or `odd`, not `{ident}`"),
                ));
            }
            let rhs: Expr = input.parse()?;
            expect_semi(input, &rhs)?;
            return Ok(Statement::Step {
                target: ident,
                sign,
                rhs,
            });
        }
        if is_phase {
            let (op, text) = operator_after(input);
            let found = if text.is_empty() {
                String::new()
            } else {
                format!(", not `{text}`")
            };
            let msg = format!("a lifting step updates `{ident}` with `+=` or `-=`{found}, e.g. `{ident} -= (even[0] + even[1] + 1) >> 1;`");
            return Err(match op {
                Some(op) => syn::Error::new_spanned(op, msg),
                None => syn::Error::new(ident.span(), msg),
            });
        }
        if input.peek(Token![=]) && !input.peek(Token![==]) {
            input.parse::<Token![=]>()?;
            let value: Expr = input.parse()?;
            expect_semi(input, &value)?;
            return Ok(Statement::Key { key: ident, value });
        }
        Err(syn::Error::new(ident.span(), format!("unexpected `{ident}`: expected a setting (`{ident} = ...;`), a step (`odd -= ...;`) or `scale K;`")))
    }
}

/// The most tokens one statement may hold, brackets included: a step reads at most
/// `2 * MAX_OFFSET + 1` samples, a few tokens each. Dropping a parsed expression recurses per
/// term, and a hundred thousand terms overflowed the stack (an abort, not an error).
pub const MAX_STATEMENT_TOKENS: usize = 4096;

/// The most operators in a row (`- - -x`): the expression parser recurses per prefix
/// operator, and a thousand of them overflowed a thread's stack.
pub const MAX_OPERATORS_IN_A_ROW: usize = 32;

/// Refuses a statement too long, or with too many operators in a row, for the expression parser
/// to read within the stack, before it tries; pointing at the first token past the limit.
fn check_statement_size(input: ParseStream) -> syn::Result<()> {
    use proc_macro2::TokenTree;
    let (mut tokens, mut in_a_row) = (0usize, 0usize);
    // The cursors to go on from after each group entered, so that nesting costs no stack.
    let mut after_groups = Vec::new();
    let mut cursor = input.cursor();
    loop {
        let Some((tt, next)) = cursor.token_tree() else {
            match after_groups.pop() {
                Some(next) => {
                    cursor = next;
                    continue;
                }
                None => return Ok(()),
            }
        };
        if after_groups.is_empty() && matches!(&tt, TokenTree::Punct(p) if p.as_char() == ';') {
            return Ok(());
        }
        tokens += 1;
        in_a_row = match &tt {
            TokenTree::Punct(_) => in_a_row + 1,
            _ => 0,
        };
        let too_many = if tokens > MAX_STATEMENT_TOKENS {
            Some(format!("a statement of more than {MAX_STATEMENT_TOKENS} tokens: a lifting step reads at most {} samples of the other phase; write it with fewer terms", 2 * MAX_OFFSET + 1))
        } else if in_a_row > MAX_OPERATORS_IN_A_ROW {
            Some(format!("more than {MAX_OPERATORS_IN_A_ROW} operator signs in a row; write the expression with fewer signs (`- -x` is `x`)"))
        } else {
            None
        };
        if let Some(message) = too_many {
            return Err(syn::Error::new(tt.span(), message));
        }
        // `3u8` or `0.5f32` read as their digits would mean what Rust's types do not: refused.
        if let TokenTree::Literal(l) = &tt {
            let lit = Lit::new(l.clone());
            if !lit.suffix().is_empty() {
                return Err(syn::Error::new(
                    tt.span(),
                    format!(
                        "number with the type suffix `{}`: the wavelet language has no Rust types; write the number alone",
                        lit.suffix()
                    ),
                ));
            }
        }
        match cursor.any_group() {
            Some((inside, _, _, after)) => {
                after_groups.push(after);
                cursor = inside;
            }
            None => cursor = next,
        }
    }
}

/// The operator at the cursor (one punctuation token, or several joined like `*=`), with its text.
fn operator_after(input: ParseStream) -> (Option<TokenStream>, String) {
    let mut tokens = TokenStream::new();
    let mut text = String::new();
    let mut cursor = input.cursor();
    while let Some((punct, next)) = cursor.punct() {
        text.push(punct.as_char());
        tokens.extend([proc_macro2::TokenTree::Punct(punct.clone())]);
        cursor = next;
        if punct.spacing() == proc_macro2::Spacing::Alone {
            break;
        }
    }
    if text.is_empty() {
        match input.cursor().token_tree() {
            Some((tt, _)) => {
                let text = tt.to_string();
                (Some(tt.into()), text)
            }
            None => (None, String::new()),
        }
    } else {
        (Some(tokens), text)
    }
}

fn expect_semi(input: ParseStream, after: &Expr) -> syn::Result<()> {
    if input.peek(Token![;]) {
        input.parse::<Token![;]>()?;
        Ok(())
    } else {
        Err(syn::Error::new_spanned(
            after,
            "missing `;` at the end of this statement",
        ))
    }
}

const KEYS: &str = "`kind`, `boundary`, `shift`";

/// Validates statements into a [`Wavelet`].
fn lower(ident: &syn::Ident, doc: Vec<String>, statements: Vec<Statement>) -> syn::Result<Wavelet> {
    // `r#W` names the wavelet `W`: the name becomes kernel identifiers, where `r#` is not C.
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    let mut kind = None;
    let mut boundary = None;
    let mut shift = None;
    let mut shift_span = None;
    for st in &statements {
        let Statement::Key { key, value } = st else {
            continue;
        };
        let name = key.to_string();
        let dup = |set: bool| -> syn::Result<()> {
            if set {
                Err(syn::Error::new(
                    key.span(),
                    format!("`{name}` is set twice; keep one"),
                ))
            } else {
                Ok(())
            }
        };
        match name.as_str() {
            "kind" => {
                dup(kind.is_some())?;
                kind = Some(match word(value, "`integer` or `float`")?.as_str() {
                    "integer" => ElementKind::Integer,
                    "float" => ElementKind::Float,
                    other => {
                        return Err(syn::Error::new_spanned(
                            value,
                            format!("unknown kind `{other}`: expected `integer` or `float`"),
                        ))
                    }
                });
            }
            "boundary" => {
                dup(boundary.is_some())?;
                let rules = "`clamp`, `symmetric` or `periodic`";
                boundary = Some(match word(value, rules)?.as_str() {
                    "clamp" => Boundary::Clamp,
                    "symmetric" => Boundary::Symmetric,
                    "periodic" => Boundary::Periodic,
                    other => return Err(syn::Error::new_spanned(value, format!("unknown boundary rule `{other}`: expected `clamp`, `symmetric` or `periodic`"))),
                });
            }
            "shift" => {
                dup(shift.is_some())?;
                let s = small_int(value, MAX_PRE_SHIFT, "the per-level pre-shift")?;
                shift = Some(s);
                shift_span = Some(key.span());
            }
            _ => {
                let hint = match closest(&name, &["kind", "boundary", "shift", "scale"]) {
                    Some("scale") => {
                        " (the band scaling is a statement, `scale K;`, without `=`)".to_string()
                    }
                    Some(k) => format!(" (did you mean `{k}`?)"),
                    None => String::new(),
                };
                return Err(syn::Error::new(
                    key.span(),
                    format!("unknown setting `{name}`: expected one of {KEYS}{hint}"),
                ));
            }
        }
    }
    let kind = kind.unwrap_or(ElementKind::Integer);
    if kind == ElementKind::Float && shift.unwrap_or(0) != 0 {
        return Err(syn::Error::new(shift_span.unwrap_or(ident.span()), "`shift` is the integer pre-shift of VC-2; a float wavelet has none (remove it, or declare `kind = integer;`)"));
    }

    let mut ops = Vec::new();
    let mut scaled = false;
    for st in statements {
        match st {
            Statement::Key { .. } => {}
            Statement::Step { target, sign, rhs } => {
                if scaled {
                    return Err(syn::Error::new(
                        target.span(),
                        "this step comes after `scale`: the scaling must be the last statement of a wavelet (move the step above it)",
                    ));
                }
                let target_phase = if target == "even" {
                    Phase::Even
                } else {
                    Phase::Odd
                };
                ops.push(Op::Lift(lower_step(target_phase, sign, &rhs, kind)?));
            }
            Statement::Scale { keyword, value } => {
                if kind == ElementKind::Integer {
                    return Err(syn::Error::new(keyword, "`scale` needs real arithmetic: an integer wavelet cannot scale its bands (declare `kind = float;`, or drop the scaling)"));
                }
                if scaled {
                    return Err(syn::Error::new(
                        keyword,
                        "`scale` appears twice; combine the factors into one",
                    ));
                }
                scaled = true;
                let (low, high) = match &value {
                    Expr::Tuple(t) if t.elems.len() == 2 => {
                        (constant(&t.elems[0], kind)?, constant(&t.elems[1], kind)?)
                    }
                    Expr::Tuple(t) => {
                        return Err(syn::Error::new_spanned(
                            t,
                            "`scale (low, high);` takes exactly two factors",
                        ))
                    }
                    other => {
                        let k = constant(other, kind)?;
                        (k, k.recip().unwrap_or(Coeff::zero()))
                    }
                };
                if low.is_zero() || high.is_zero() {
                    return Err(syn::Error::new_spanned(
                        &value,
                        "a zero scale factor cannot be inverted",
                    ));
                }
                if let Some(tiny) = [low, high].into_iter().find(|c| !reciprocal_is_finite(*c)) {
                    return Err(syn::Error::new_spanned(
                        &value,
                        format!("the scale factor {tiny} is too small to invert: its reciprocal, which the inverse transform (or the other band, for `scale K;`) multiplies by, overflows to infinity; use a larger factor"),
                    ));
                }
                ops.push(Op::Scale { low, high });
            }
        }
    }
    if !ops.iter().any(|op| matches!(op, Op::Lift(_))) {
        return Err(syn::Error::new(
            ident.span(),
            format!(
                "wavelet `{name}` has no lifting step: add at least one, e.g. `odd -= even[0];`"
            ),
        ));
    }
    Ok(Wavelet {
        name,
        doc,
        kind,
        boundary: boundary.unwrap_or(Boundary::Clamp),
        shift: shift.unwrap_or(0),
        program: Program { ops },
    })
}

/// Whether `1/c` is a finite number: a float scale factor below about 5.6e-309 is finite, but
/// its reciprocal, which the inverse (and `scale K;`'s high band) multiplies by, is not.
fn reciprocal_is_finite(c: Coeff) -> bool {
    c.recip().is_some_and(|r| r.to_f64().is_finite())
}

/// The candidate within edit distance 2 of `word`, if any (for "did you mean" hints).
fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    fn distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut prev = row[0];
            row[0] = i + 1;
            for (j, &cb) in b.iter().enumerate() {
                let cur = row[j + 1];
                row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
                prev = cur;
            }
        }
        row[b.len()]
    }
    candidates
        .iter()
        .map(|c| (distance(word, c), *c))
        .filter(|&(d, _)| d <= 2)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// The bare word a setting takes (`kind = float`), or an error saying which (`expected`), as a
/// string (`"clamp"`) or anything else would otherwise leave unsaid.
fn word(value: &Expr, expected: &str) -> syn::Result<String> {
    match value {
        Expr::Path(p) if p.path.get_ident().is_some() => {
            Ok(p.path.get_ident().unwrap().to_string())
        }
        other => Err(syn::Error::new_spanned(
            other,
            format!("expected a bare word here: {expected}"),
        )),
    }
}

fn small_int(value: &Expr, max: u32, what: &str) -> syn::Result<u32> {
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Int(i), ..
    }) = value
    {
        if let Ok(v) = i.base10_parse::<u32>() {
            if v <= max {
                return Ok(v);
            }
        }
    }
    Err(syn::Error::new_spanned(
        value,
        format!("{what} must be a whole number from 0 to {max}"),
    ))
}

/// The right-hand side of a step, flattened to taps plus a constant.
struct Linear<'a> {
    taps: Laurent,
    constant: Coeff,
    /// The source of the (first) constant term, for errors about it.
    constant_at: Option<&'a Expr>,
}

impl<'a> Linear<'a> {
    fn neg(self) -> Self {
        Linear {
            taps: self.taps.neg(),
            constant: self.constant.neg(),
            constant_at: self.constant_at,
        }
    }
}

struct StepContext {
    target: Phase,
    /// Parsing a `scale` factor rather than a step.
    scale: bool,
    kind: ElementKind,
    seen: BTreeSet<i32>,
}

fn lower_step(target: Phase, sign: Sign, rhs: &Expr, kind: ElementKind) -> syn::Result<Step> {
    let mut cx = StepContext {
        target,
        scale: false,
        kind,
        seen: BTreeSet::new(),
    };
    let (body, shift) = match strip_parens(rhs) {
        Expr::Binary(b) if matches!(b.op, BinOp::Shr(_)) => {
            if kind == ElementKind::Float {
                return Err(syn::Error::new_spanned(b.op, "`>> s` is integer lifting; in a float wavelet write the division as a coefficient, e.g. `1/16 * (...)`"));
            }
            let s = match strip_parens(&b.right) {
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Int(i), ..
                }) => i
                    .base10_parse::<u32>()
                    .ok()
                    .filter(|s| (1..=MAX_STEP_SHIFT).contains(s)),
                _ => None,
            };
            let Some(s) = s else {
                return Err(syn::Error::new_spanned(
                    &b.right,
                    format!(
                        "the shift of `>> s` must be a whole number from 1 to {MAX_STEP_SHIFT}"
                    ),
                ));
            };
            (&*b.left, s)
        }
        _ => (rhs, 0),
    };
    let lin = linear(body, &mut cx)?;
    if lin.taps.is_zero() {
        return Err(syn::Error::new_spanned(rhs, format!("this step reads nothing from `{0}` (its taps are all zero); a lifting step needs at least one non-zero tap such as `{0}[0]`", target.other().name())));
    }
    let constant_at = lin.constant_at.unwrap_or(rhs);
    let rounding = match (kind, lin.constant.is_zero()) {
        (_, true) => 0,
        (ElementKind::Float, false) => {
            return Err(syn::Error::new_spanned(constant_at, "a float step cannot add a constant: a lifting step is a weighted sum of the other phase; remove this term (constants are only the rounding offsets of integer steps, as in `(a + b + 1) >> 1`)"));
        }
        (ElementKind::Integer, false) if shift == 0 => {
            return Err(syn::Error::new_spanned(constant_at, format!("the constant `{}` is a rounding offset, which only makes sense before a floor shift: write `(... + r) >> s`, or remove it", lin.constant)));
        }
        (ElementKind::Integer, false) => lin
            .constant
            .as_integer()
            .expect("integer wavelets only fold integers"),
    };
    Ok(Step {
        target,
        sign,
        taps: lin.taps,
        rounding,
        shift,
    })
}

fn strip_parens(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip_parens(&p.expr),
        Expr::Group(g) => strip_parens(&g.expr),
        other => other,
    }
}

fn overflow(e: &Expr) -> syn::Error {
    syn::Error::new_spanned(
        e,
        "coefficient overflows 64-bit exact arithmetic (or, for floats, is not finite); use smaller numbers",
    )
}

/// The error of a float coefficient that underflows to zero, at a literal or an expression.
const UNDERFLOW: &str = "coefficient underflows to zero in 64-bit floats (it is below about 5e-324), which would silently drop its term; use larger numbers, or remove the term";

fn linear<'a>(e: &'a Expr, cx: &mut StepContext) -> syn::Result<Linear<'a>> {
    // A chain `a + b - c + ...` (or `a * b * c`) parses as a tree as deep as it is long, leaning
    // left: its left spine is walked in a loop, so that a step costs stack per nesting, not per
    // term (recursing, a few hundred terms overflowed a test thread's stack, an abort). An
    // operator that is an error on its own is reported before its operands are read, top down,
    // as recursing did.
    let mut spine = Vec::new();
    let mut leaf = e;
    while let Expr::Binary(b) = leaf {
        if let Some(err) = operator_error(b, cx) {
            return Err(err);
        }
        spine.push((b, leaf));
        leaf = &b.left;
    }
    let mut lin = constant_term(linear_inner(leaf, cx)?, leaf);
    for (b, node) in spine.into_iter().rev() {
        lin = constant_term(binary(b, node, lin, cx)?, node);
    }
    Ok(lin)
}

/// A sub-expression with no taps is one constant term: report it whole (`-1`, `2*3`).
fn constant_term<'a>(mut lin: Linear<'a>, e: &'a Expr) -> Linear<'a> {
    if lin.taps.is_zero() {
        lin.constant_at = Some(e);
    }
    lin
}

/// The error of a binary operator a step may not use here, whatever its operands.
fn operator_error(b: &syn::ExprBinary, cx: &StepContext) -> Option<syn::Error> {
    match b.op {
        BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) => None,
        BinOp::Div(op) if cx.kind == ElementKind::Integer => Some(syn::Error::new_spanned(op, "integer wavelets divide with a floor shift: write `(... + r) >> s` instead of `/`")),
        BinOp::Div(_) => None,
        BinOp::Shr(op) => Some(syn::Error::new_spanned(op, "`>> s` may only wrap the whole sum: write `target -= (... + r) >> s;`")),
        _ => Some(syn::Error::new_spanned(b.op, "a lifting step is a weighted sum: only `+`, `-`, `*`, `/` by a constant and one outer `>> s` are allowed")),
    }
}

/// `e`, the binary operation `b` (one [`operator_error`] accepts), with its left operand read as `l`.
fn binary<'a>(
    b: &'a syn::ExprBinary,
    e: &'a Expr,
    l: Linear<'a>,
    cx: &mut StepContext,
) -> syn::Result<Linear<'a>> {
    let r = linear(&b.right, cx)?;
    match b.op {
        BinOp::Add(_) | BinOp::Sub(_) => {
            let r = if matches!(b.op, BinOp::Sub(_)) {
                r.neg()
            } else {
                r
            };
            let constant = l
                .constant
                .checked_add(r.constant)
                .ok_or_else(|| overflow(e))?;
            let constant_at = if l.constant.is_zero() {
                r.constant_at
            } else {
                l.constant_at
            };
            Ok(Linear {
                taps: l.taps.add(&r.taps),
                constant,
                constant_at,
            })
        }
        BinOp::Mul(_) => {
            let (factor, lin) = match (l.taps.is_zero(), r.taps.is_zero()) {
                (true, _) => (l.constant, r),
                (false, true) => (r.constant, l),
                (false, false) => return Err(syn::Error::new_spanned(e, "a product of two signal terms is not linear: a lifting step is a weighted sum of the other phase")),
            };
            scale_linear(lin, factor, e)
        }
        _ => {
            if !r.taps.is_zero() {
                return Err(syn::Error::new_spanned(
                    &b.right,
                    "dividing by a signal term is not linear: divide by a constant",
                ));
            }
            if r.constant.is_zero() {
                return Err(syn::Error::new_spanned(&b.right, "division by zero"));
            }
            // A float divisor below about 5.6e-309 is not zero, but its reciprocal is infinite.
            let inv = r
                .constant
                .recip()
                .filter(|c| c.to_f64().is_finite())
                .ok_or_else(|| overflow(e))?;
            scale_linear(l, inv, e)
        }
    }
}

fn linear_inner<'a>(e: &'a Expr, cx: &mut StepContext) -> syn::Result<Linear<'a>> {
    match e {
        Expr::Paren(p) => linear(&p.expr, cx),
        Expr::Group(g) => linear(&g.expr, cx),
        Expr::Lit(l) => Ok(Linear { taps: Laurent::zero(), constant: literal(&l.lit, cx.kind)?, constant_at: Some(e) }),
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => Ok(linear(&u.expr, cx)?.neg()),
        Expr::Index(_) if cx.scale => Err(syn::Error::new_spanned(
            e,
            "a scale factor is a constant number such as `1.149604398860241`, not a signal",
        )),
        Expr::Index(ix) => {
            let phase = match strip_parens(&ix.expr) {
                Expr::Path(p) if p.path.is_ident("even") => Phase::Even,
                Expr::Path(p) if p.path.is_ident("odd") => Phase::Odd,
                other => {
                    let what = match other {
                        Expr::Path(p) if p.path.get_ident().is_some() => format!("unknown signal `{}`", p.path.get_ident().unwrap()),
                        _ => "not a signal".to_string(),
                    };
                    return Err(syn::Error::new_spanned(other, format!("{what}: a step reads the other phase, `{}[k]`", cx.target.other().name())));
                }
            };
            if phase == cx.target {
                return Err(syn::Error::new_spanned(
                    e,
                    format!("a step updating `{0}` cannot read `{0}`: lifting steps read only the other phase (`{1}[k]`), which is what makes them invertible", phase.name(), phase.other().name()),
                ));
            }
            let k = offset(&ix.index)?;
            if !cx.seen.insert(k) {
                return Err(syn::Error::new_spanned(e, format!("`{0}[{k}]` is read twice in this step; combine the terms into one coefficient (`a*{0}[{k}] + b*{0}[{k}]` is `(a + b)*{0}[{k}]`)", phase.name())));
            }
            Ok(Linear { taps: Laurent::monomial(k, Coeff::one()), constant: Coeff::zero(), constant_at: None })
        }
        Expr::Path(p) if p.path.is_ident("even") || p.path.is_ident("odd") => {
            Err(syn::Error::new_spanned(e, format!("`{0}` needs an offset: `{0}[0]` is the sample at the target's index, `{0}[-1]` the one before", p.path.get_ident().unwrap())))
        }
        _ => Err(syn::Error::new_spanned(e, "expected `even[k]`, `odd[k]`, a number, or a sum of them")),
    }
}

fn scale_linear<'a>(lin: Linear<'a>, factor: Coeff, e: &Expr) -> syn::Result<Linear<'a>> {
    // Exact products overflow to `None`; float ones to infinity (or 0 * infinity to NaN), or
    // underflow to zero, which would drop a term the source gives a non-zero coefficient.
    let product = |c: Coeff| {
        let p = c
            .checked_mul(factor)
            .filter(|p| p.to_f64().is_finite())
            .ok_or_else(|| overflow(e))?;
        if p.is_zero() && !c.is_zero() && !factor.is_zero() {
            return Err(syn::Error::new_spanned(e, UNDERFLOW));
        }
        Ok(p)
    };
    let mut taps = Laurent::zero();
    for (k, c) in lin.taps.terms() {
        taps.add_term(k, product(c)?);
    }
    Ok(Linear {
        taps,
        constant: product(lin.constant)?,
        constant_at: lin.constant_at,
    })
}

fn literal(lit: &Lit, kind: ElementKind) -> syn::Result<Coeff> {
    match lit {
        Lit::Int(i) => i.base10_parse::<i64>().map(Coeff::int).map_err(|_| syn::Error::new_spanned(i, "integer too large")),
        Lit::Float(f) if kind == ElementKind::Integer => {
            Err(syn::Error::new_spanned(f, format!("float literal `{f}` in an integer wavelet: integer wavelets use integer taps and `>> s` (declare `kind = float;` for a real-valued wavelet)")))
        }
        Lit::Float(f) => {
            let v = f.base10_parse::<f64>()?;
            if !v.is_finite() {
                return Err(syn::Error::new_spanned(f, "coefficient is not finite"));
            }
            // `1e-400` reads as 0.0: a non-zero digit before the exponent says it was not meant so.
            let mantissa = f.base10_digits().split(['e', 'E']).next().unwrap_or("");
            if v == 0.0 && mantissa.contains(|c: char| ('1'..='9').contains(&c)) {
                return Err(syn::Error::new_spanned(f, UNDERFLOW));
            }
            Ok(Coeff::Float(v))
        }
        other => Err(syn::Error::new_spanned(other, "expected a number")),
    }
}

fn offset(e: &Expr) -> syn::Result<i32> {
    let value = match strip_parens(e) {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse::<i128>().ok(),
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match strip_parens(&u.expr) {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Int(i), ..
            }) => i.base10_parse::<i128>().ok().map(|v| -v),
            _ => None,
        },
        _ => None,
    };
    match value {
        // Within MAX_OFFSET, so the narrowing is exact.
        Some(k) if k.abs() <= MAX_OFFSET as i128 => Ok(k as i32),
        Some(k) => Err(syn::Error::new_spanned(e, format!("offset {k} is too far: steps read at most {MAX_OFFSET} samples of the other phase away"))),
        None => Err(syn::Error::new_spanned(e, "an offset must be a whole number such as `0`, `1` or `-2`")),
    }
}

fn constant(e: &Expr, kind: ElementKind) -> syn::Result<Coeff> {
    let mut cx = StepContext {
        target: Phase::Even,
        scale: true,
        kind,
        seen: BTreeSet::new(),
    };
    let lin = linear(e, &mut cx)?;
    if !lin.taps.is_zero() {
        return Err(syn::Error::new_spanned(
            e,
            "a scale factor is a constant number such as `1.149604398860241`, not a signal",
        ));
    }
    Ok(lin.constant)
}

/// A parse error located in a description's text (1-based line and column).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl From<syn::Error> for ParseError {
    fn from(e: syn::Error) -> Self {
        let start = e.span().start();
        ParseError {
            line: start.line,
            column: start.column + 1,
            message: e.to_string(),
        }
    }
}

/// The deepest bracket nesting [`parse_str`] reads: the lexer and the expression parser recurse
/// per level, and a few thousand levels overflow the stack (an abort, not an error).
pub const MAX_NESTING: usize = 64;

/// The first bracket opened deeper than [`MAX_NESTING`], outside comments.
fn too_deep(src: &str) -> Option<ParseError> {
    let (mut depth, mut line, mut column) = (0usize, 1usize, 0usize);
    let mut chars = src.chars().peekable();
    let mut comment = None::<bool>; // Some(true): a line comment, Some(false): a block comment
    while let Some(c) = chars.next() {
        column += 1;
        if c == '\n' {
            (line, column) = (line + 1, 0);
            if comment == Some(true) {
                comment = None;
            }
            continue;
        }
        match (comment, c, chars.peek()) {
            (None, '/', Some('/')) => comment = Some(true),
            (None, '/', Some('*')) => comment = Some(false),
            (Some(false), '*', Some('/')) => {
                chars.next();
                column += 1;
                comment = None;
            }
            (None, '(' | '[' | '{', _) => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(ParseError {
                        line,
                        column,
                        message: format!(
                            "brackets nested more than {MAX_NESTING} deep; write the expression with fewer parentheses"
                        ),
                    });
                }
            }
            (None, ')' | ']' | '}', _) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Parses wavelet declarations from text (a description file), with the macro's rules and messages.
pub fn parse_str(src: &str) -> Result<Vec<Wavelet>, ParseError> {
    if let Some(e) = too_deep(src) {
        return Err(e);
    }
    let tokens: TokenStream = src.parse().map_err(|e: proc_macro2::LexError| {
        let start = e.span().start();
        ParseError {
            line: start.line,
            column: start.column + 1,
            message: format!("not valid tokens: {e}"),
        }
    })?;
    let decls: Declarations = syn::parse2(tokens)?;
    Ok(decls.0.into_iter().map(|d| d.wavelet).collect())
}

/// Parses text that declares exactly one wavelet.
pub fn parse_wavelet(src: &str) -> Result<Wavelet, ParseError> {
    let mut all = parse_str(src)?;
    if all.len() != 1 {
        return Err(ParseError {
            line: 1,
            column: 1,
            message: format!("expected one wavelet, found {}", all.len()),
        });
    }
    Ok(all.remove(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(src: &str) -> ParseError {
        match parse_str(src) {
            Ok(_) => panic!("parsed:\n{src}"),
            Err(e) => e,
        }
    }

    /// Exact arithmetic that would reach -2^63 (which the inverse could not negate) or a float
    /// that overflows is a located error, never a silent float tap in an integer wavelet, a
    /// flipped sign or an infinite coefficient.
    #[test]
    fn coefficients_past_exact_or_finite_arithmetic_are_located_errors() {
        let cases = [
            (
                "odd -= -(-4611686018427387904*2*even[0]);",
                "-4611686018427387904*2*even[0]",
            ),
            (
                "odd -= even[1] - (-4611686018427387904*2)*even[0];",
                "-4611686018427387904*2",
            ),
            (
                "odd -= (even[0] - (-4611686018427387904*2)) >> 1;",
                "-4611686018427387904*2",
            ),
            (
                "kind = float; odd -= 1e200*even[0]*1e200;",
                "1e200*even[0]*1e200",
            ),
            (
                "kind = float; odd -= 1e300*1e300*even[0] + even[1];",
                "1e300*1e300",
            ),
            (
                "kind = float; odd -= even[0]/1e-300/1e-300;",
                "even[0]/1e-300/1e-300",
            ),
        ];
        for (step, at) in cases {
            let src = format!("wavelet W {{\n    {step}\n}}");
            let e = error(&src);
            assert!(e.message.contains("coefficient overflows"), "{step}: {e}");
            let column = 5 + step.find(at).unwrap();
            assert_eq!((e.line, e.column), (2, column), "{step}: {e}");
        }
        // The largest products that fit still parse, exactly.
        let w = parse_str("wavelet W { odd -= (4611686018427387903*2 + 1)*even[0]; }").unwrap();
        let tap = w[0].program.steps().next().unwrap().taps.coeff(0);
        assert_eq!(tap.as_integer(), Some(i64::MAX));
    }

    /// A float coefficient that underflows to zero (a literal, a product or a quotient) is a
    /// located error: the term it multiplies was silently dropped (`1e-200*1e-200*even[0] +
    /// even[1]` parsed as `even[1]`). A divisor whose reciprocal overflows is an overflow, not a
    /// division by zero.
    #[test]
    fn float_coefficients_that_underflow_to_zero_are_located_errors() {
        let cases = [
            (
                "odd -= 1e-400*even[0] + even[1];",
                "1e-400",
                "underflows to zero",
            ),
            ("odd -= 1.5E-999*even[0];", "1.5E-999", "underflows to zero"),
            (
                "odd -= 1e-200*1e-200*even[0] + even[1];",
                "1e-200*1e-200",
                "underflows to zero",
            ),
            (
                "odd -= even[0]/1e300/1e300 + even[1];",
                "even[0]/1e300/1e300",
                "underflows to zero",
            ),
            (
                "odd -= even[0]/1e-320;",
                "even[0]/1e-320",
                "coefficient overflows",
            ),
            ("odd -= even[0]/0.0;", "0.0", "division by zero"),
        ];
        for (step, at, what) in cases {
            let src = format!("wavelet W {{\n    kind = float;\n    {step}\n}}");
            let e = error(&src);
            assert!(e.message.contains(what), "{step}: {e}");
            let column = 5 + step.find(at).unwrap();
            assert_eq!((e.line, e.column), (3, column), "{step}: {e}");
        }
        // Zero written as zero is still a zero tap, and a subnormal coefficient is kept.
        let w =
            parse_wavelet("wavelet W { kind = float; odd -= 0e-400*even[0] + 1e-320*even[1]; }")
                .unwrap();
        let taps: Vec<_> = w.program.steps().next().unwrap().taps.terms().collect();
        assert_eq!(taps, [(1, Coeff::Float(1e-320))]);
    }

    #[test]
    fn offsets_past_32_bits_are_too_far_not_malformed() {
        for k in ["-2147483648", "2147483648", "99999999999999999999"] {
            let e = error(&format!("wavelet W {{ odd -= even[{k}]; }}"));
            assert!(e.message.contains(&format!("offset {k} is too far")), "{e}");
        }
        let e = error("wavelet W { odd -= even[1.5]; }");
        assert!(e.message.contains("must be a whole number"), "{e}");
    }

    #[test]
    fn a_raw_identifier_names_the_wavelet_without_its_prefix() {
        let w = parse_str("wavelet r#float { odd -= even[0]; }").unwrap();
        assert_eq!(w[0].name, "float");
    }

    #[test]
    fn brackets_nested_too_deep_are_an_error_not_a_stack_overflow() {
        let step = |depth: usize| {
            format!(
                "wavelet W {{\n    // ((((( in a comment is not counted\n    odd -= {}even[0]{};\n}}",
                "(".repeat(depth),
                ")".repeat(depth)
            )
        };
        // The declaration's braces and the offset's brackets count too.
        assert!(parse_str(&step(MAX_NESTING - 2)).is_ok());
        assert!(parse_str(&step(MAX_NESTING - 1)).is_err());
        // Deep enough that reading it recursively overflowed the stack.
        let e = error(&step(100_000));
        assert_eq!((e.line, e.column), (3, 11 + MAX_NESTING), "{e}");
        assert!(e.message.contains("nested more than 64 deep"), "{e}");
    }

    #[test]
    fn reading_the_target_phase_points_at_the_read() {
        let e = error("wavelet W {\n    odd -= odd[1];\n}\n");
        assert_eq!((e.line, e.column), (2, 12));
        assert!(e.message.contains("cannot read `odd`"), "{e}");
        assert!(e.message.contains("`even[k]`"), "{e}");
    }

    #[test]
    fn a_misspelt_setting_suggests_the_right_one() {
        let e = error("wavelet W {\n  boundry = clamp;\n  odd -= even[0];\n}");
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.contains("unknown setting `boundry`"), "{e}");
        assert!(e.message.contains("did you mean `boundary`?"), "{e}");
    }

    #[test]
    fn a_rounding_constant_without_shift_points_at_the_constant() {
        let e = error("wavelet W {\n    odd -= even[0] + 1;\n}");
        assert_eq!((e.line, e.column), (2, 22));
        assert!(e.message.contains("the constant `1`"), "{e}");
        assert!(e.message.contains("`(... + r) >> s`"), "{e}");
    }

    #[test]
    fn a_shift_in_a_float_step_points_at_the_operator() {
        let src = "wavelet W {\n    kind = float;\n    odd -= (even[0] + even[1]) >> 1;\n}";
        let e = error(src);
        assert_eq!((e.line, e.column), (3, 32));
        assert!(e.message.contains("1/16 * (...)"), "{e}");
        assert_eq!(
            e.to_string(),
            format!("3:32: {}", e.message),
            "Display is `line:column: message`"
        );
    }

    #[test]
    fn a_wrong_update_operator_is_named() {
        let e = error("wavelet W {\n    odd *= even[0];\n}");
        assert_eq!((e.line, e.column), (2, 9));
        assert!(e.message.contains("not `*=`"), "{e}");
    }

    #[test]
    fn a_missing_semicolon_points_at_the_unfinished_statement() {
        let e = error("wavelet W {\n    odd -= even[0]\n    even += odd[0];\n}");
        assert_eq!((e.line, e.column), (2, 12));
        assert!(e.message.contains("missing `;`"), "{e}");
    }

    /// The canonical form (`Display`) reads back as the same wavelet where the source had a
    /// block doc comment, a `#[doc]` holding newlines or a name that is a Rust keyword (the `dwt`
    /// sidecar and the macro's own check both read it back).
    #[test]
    fn block_docs_and_keyword_names_read_back_from_the_canonical_form() {
        for src in [
            "/** A wavelet documented\n    with a block comment. */\nwavelet BlockDoc { odd -= even[0]; }",
            "#[doc = \"a\\nb\\n\"]\nwavelet DocAttr { odd -= even[0]; }",
            "/// one\n///\n///   indented\nwavelet Lines { odd -= even[0]; }",
            "wavelet r#fn { odd -= even[0]; even += (odd[0] + 1) >> 1; }",
        ] {
            let w = parse_wavelet(src).unwrap_or_else(|e| panic!("{src}: {e}"));
            let again = parse_wavelet(&w.to_string())
                .unwrap_or_else(|e| panic!("{src}\nwritten as\n{w}\n: {e}"));
            assert_eq!(again, w, "{src}");
            assert!(w.doc.iter().all(|l| !l.contains('\n')), "{:?}", w.doc);
        }
        assert_eq!(
            parse_wavelet("/** a\n b */ wavelet W { odd -= even[0]; }")
                .unwrap()
                .doc,
            ["a", "b "]
        );
    }

    /// A name longer than [`MAX_NAME_LEN`] is an error at the name (it became kernel names that
    /// aborted PoCL); the longest is taken.
    #[test]
    fn overlong_names_are_refused() {
        let name = "W".repeat(MAX_NAME_LEN + 1);
        let e = error(&format!("wavelet {name} {{ odd -= even[0]; }}"));
        assert!(e.message.contains("at most 64"), "{e}");
        assert_eq!((e.line, e.column), (1, 9));
        let name = "W".repeat(MAX_NAME_LEN);
        assert!(parse_wavelet(&format!("wavelet {name} {{ odd -= even[0]; }}")).is_ok());
    }

    /// A long sum costs no stack per term, and a statement too long or too signed for the
    /// expression parser's own recursion is a located error: reading a few hundred terms
    /// recursed per term (a few thousand overflowed the main thread), and a hundred thousand
    /// terms or a thousand minus signs overflowed it in the parser (an abort, not an error).
    #[test]
    fn long_statements_use_little_stack_or_are_refused() {
        // Just under MAX_STATEMENT_TOKENS, parsed on a small stack.
        let terms = 2000;
        let src = format!(
            "wavelet W {{ odd -= (even[0]{}) >> 1; }}",
            " + 1".repeat(terms)
        );
        let rounding = std::thread::Builder::new()
            .stack_size(512 << 10)
            .spawn(move || parse_wavelet(&src).map(|w| w.program.steps().next().unwrap().rounding))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(rounding, Ok(terms as i64));
        let src = format!(
            "wavelet W {{\n    odd -= even[0]{};\n}}",
            "*1".repeat(100_000)
        );
        let e = error(&src);
        assert!(e.message.contains("more than 4096 tokens"), "{e}");
        // The 4097th token: `odd`, `-`, `=`, `even`, `[0]`, `0`, then pairs `*`, `1`.
        assert_eq!(
            (e.line, e.column),
            (2, 5 + "odd -= even[0]".len() + 4090),
            "{e}"
        );
        let src = format!("wavelet W {{\n    odd -= {}even[0];\n}}", "- ".repeat(1000));
        let e = error(&src);
        assert!(
            e.message.contains("more than 32 operator signs in a row"),
            "{e}"
        );
        assert_eq!((e.line, e.column), (2, 12 + 2 * 30), "{e}");
    }

    /// A name with a non-ASCII character is an error at the name: it parsed and compiled, and
    /// every CUDA kernel then failed at run time (NVRTC: "Universal character is not allowed in
    /// device entity name"), as OpenCL C takes ASCII identifiers only too.
    #[test]
    fn non_ascii_names_are_refused() {
        for name in ["Wé", "名前", "r#Ωmega"] {
            let e = error(&format!("wavelet {name} {{ odd -= even[0]; }}"));
            assert_eq!((e.line, e.column), (1, 9), "{name}: {e}");
            assert!(e.message.contains("non-ASCII character"), "{name}: {e}");
            assert!(e.message.contains("OpenCL and CUDA kernels"), "{name}: {e}");
        }
        let e = error("wavelet Wé { odd -= even[0]; }");
        assert!(
            e.message.contains("`é`") && e.message.contains("`W_`"),
            "{e}"
        );
        assert!(parse_wavelet("wavelet W_9 { odd -= even[0]; }").is_ok());
    }

    /// A number with a Rust type suffix (`3u8`, `300u8`, `0.5f32`, `even[0u8]`, `shift = 1u32`)
    /// is a located error: its digits were read, whatever the type would have made of them.
    #[test]
    fn numbers_with_type_suffixes_are_refused() {
        for (src, column) in [
            ("wavelet W { odd -= 3u8*even[0]; }", 20),
            ("wavelet W { odd -= 300u8*even[0]; }", 20),
            ("wavelet W { odd -= even[0u8]; }", 25),
            ("wavelet W { shift = 1u32; odd -= (even[0] + 1) >> 1; }", 21),
            ("wavelet W { kind = float; odd -= 0.5f32*even[0]; }", 34),
        ] {
            let e = error(src);
            assert_eq!((e.line, e.column), (1, column), "{src}: {e}");
            assert!(e.message.contains("type suffix"), "{src}: {e}");
        }
        assert!(parse_wavelet("wavelet W { odd -= 3*even[0]; }").is_ok());
    }

    /// A float scale factor so small that its reciprocal is infinite is a located error: it
    /// parsed, and put an infinite coefficient into the forward (`scale K;`) or inverse program.
    #[test]
    fn a_scale_factor_with_an_infinite_reciprocal_is_refused() {
        for scale in ["1e-320", "(1e-320, 1)", "(1, -1e-310)", "(1e-200*1e-120)"] {
            let src = format!(
                "wavelet W {{\n    kind = float;\n    odd -= even[0];\n    scale {scale};\n}}"
            );
            let e = error(&src);
            assert_eq!((e.line, e.column), (4, 11), "{scale}: {e}");
            assert!(e.message.contains("too small to invert"), "{scale}: {e}");
        }
        // The smallest normal float still inverts, exactly as written.
        let w = parse_wavelet(
            "wavelet W { kind = float; odd -= even[0]; scale 2.2250738585072014e-308; }",
        )
        .unwrap();
        assert!(w.program.inverse().ops.iter().all(|op| match op {
            Op::Scale { low, high } => low.to_f64().is_finite() && high.to_f64().is_finite(),
            Op::Lift(_) => true,
        }));
    }

    /// A setting's value written as a string says which words it takes.
    #[test]
    fn a_quoted_setting_says_which_words_it_takes() {
        let e = error("wavelet W { boundary = \"clamp\"; odd -= even[0]; }");
        assert!(
            e.message.contains("`clamp`, `symmetric` or `periodic`"),
            "{e}"
        );
        let e = error("wavelet W { kind = \"float\"; odd -= even[0]; }");
        assert!(e.message.contains("`integer` or `float`"), "{e}");
    }
}
