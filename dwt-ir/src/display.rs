//! Pretty-printing in the wavelet language itself, so that what the parser reads back is the same IR
//! (tested as a round trip), and snapshots and the CLI show programs as a person writes them.

use std::fmt;

use crate::{Coeff, Laurent, Op, Phase, Program, Sign, Step, Wavelet};

impl fmt::Display for Wavelet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in &self.doc {
            if line.is_empty() {
                writeln!(f, "///")?;
            } else {
                writeln!(f, "/// {line}")?;
            }
        }
        // A name that is a Rust keyword was written `r#name`, and reads back only so.
        let raw = if syn::parse_str::<syn::Ident>(&self.name).is_err() {
            "r#"
        } else {
            ""
        };
        writeln!(f, "wavelet {raw}{} {{", self.name)?;
        writeln!(f, "    kind = {};", self.kind.name())?;
        writeln!(f, "    boundary = {};", self.boundary.name())?;
        if self.shift != 0 {
            writeln!(f, "    shift = {};", self.shift)?;
        }
        for op in &self.program.ops {
            writeln!(f, "    {op}")?;
        }
        write!(f, "}}")
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, op) in self.ops.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{op}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Lift(step) => write!(f, "{step}"),
            Op::Scale { low, high } if low.recip() == Some(*high) => write!(f, "scale {low};"),
            Op::Scale { low, high } => write!(f, "scale ({low}, {high});"),
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.sign {
            Sign::Add => "+=",
            Sign::Sub => "-=",
        };
        let sum = weighted_sum(&self.taps, self.source());
        let target = self.target.name();
        match (self.shift, self.rounding) {
            (0, _) => write!(f, "{target} {op} {sum};"),
            (s, 0) => write!(f, "{target} {op} ({sum}) >> {s};"),
            (s, r) if r < 0 => write!(f, "{target} {op} ({sum} - {}) >> {s};", r.unsigned_abs()),
            (s, r) => write!(f, "{target} {op} ({sum} + {r}) >> {s};"),
        }
    }
}

/// Whether a coefficient may be left implicit (`x` for `1*x`): only the exact integer 1 in
/// magnitude. A float 1.0 must be written out, or the parser would read the bare `x` back as the
/// exact 1 and the round trip would change the IR.
fn is_unit(c: Coeff) -> bool {
    !c.is_float() && c.abs().is_one()
}

/// `c*(x + y)` when every tap shares one magnitude other than 1 (as symmetric filters do), otherwise
/// a plain signed sum `a*x - b*y + z`.
fn weighted_sum(taps: &Laurent, phase: Phase) -> String {
    let terms: Vec<(i32, Coeff)> = taps.terms().collect();
    let first = terms[0].1;
    let common = terms.len() > 1
        && !is_unit(first)
        && terms.iter().all(|(_, c)| *c == first || *c == first.neg());
    if common {
        let inner = Laurent::from_terms(terms.iter().map(|(k, c)| {
            (
                *k,
                if *c == first {
                    Coeff::one()
                } else {
                    Coeff::int(-1)
                },
            )
        }));
        return format!("{}*({})", first, signed_sum(&inner, phase));
    }
    signed_sum(taps, phase)
}

fn signed_sum(taps: &Laurent, phase: Phase) -> String {
    let mut out = String::new();
    for (i, (k, c)) in taps.terms().enumerate() {
        let read = format!("{}[{k}]", phase.name());
        let magnitude = c.abs();
        let term = if is_unit(c) {
            read
        } else {
            format!("{magnitude}*{read}")
        };
        match (i, c.is_negative()) {
            (0, false) => out.push_str(&term),
            (0, true) => {
                out.push('-');
                out.push_str(&term);
            }
            (_, false) => {
                out.push_str(" + ");
                out.push_str(&term);
            }
            (_, true) => {
                out.push_str(" - ");
                out.push_str(&term);
            }
        }
    }
    out
}
