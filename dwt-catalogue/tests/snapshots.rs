//! One insta snapshot per catalogue wavelet: a readable report of everything the IR derives from it
//! (inverse, supports, equivalent filters, op counts, sliding windows). A change to any derivation
//! shows up as a reviewable diff.

use std::fmt::Write;

use dwt_catalogue::{
    Cdf53, Cdf97, Daubechies97Integer, DeslauriersDubuc137, DeslauriersDubuc97, Fidelity,
    HaarNoShift, HaarWithShift, LeGall53,
};
use dwt_ir::{Boundary, Coeff, Direction, Filter, Program, SlidingWindow, Wavelet, WaveletSpec};

/// A float printed to 12 significant digits, and rounding noise below 1e-12 as zero, so that the
/// last bits of float derivations do not churn the snapshots; exact coefficients print exactly.
fn coeff(c: Coeff) -> String {
    match c {
        Coeff::Exact(_) => c.to_string(),
        Coeff::Float(x) if x.abs() < 1e-12 => "0 (float, |x| < 1e-12)".to_string(),
        Coeff::Float(x) => format!("{x:.12e}"),
    }
}

fn filter(out: &mut String, name: &str, f: &Filter) {
    let (lo, hi) = f.support();
    writeln!(
        out,
        "  {name}: length {}, sample offsets {lo}..={hi}",
        f.len()
    )
    .unwrap();
    for (k, c) in &f.taps {
        writeln!(out, "    {k:>3}: {}", coeff(*c)).unwrap();
    }
    let sum = f.taps.iter().fold(Coeff::zero(), |acc, (_, c)| acc.add(*c));
    let alternating = f.taps.iter().fold(Coeff::zero(), |acc, (k, c)| {
        acc.add(if k % 2 == 0 { *c } else { c.neg() })
    });
    writeln!(
        out,
        "    gain at DC {}, at Nyquist {}",
        coeff(sum),
        coeff(alternating)
    )
    .unwrap();
}

/// The synthesis filters of a synthesis program: band `q`'s impulse at index 0 (sample `q`) reaches
/// output sample `2n + p` through the term `k = -n` of `m[p][q]`; taps are relative to sample `q`.
fn synthesis_filters(p: &Program) -> [Filter; 2] {
    let m = p.polyphase_matrix();
    let column = |q: usize| {
        let mut taps: Vec<(i64, Coeff)> = (0..2)
            .flat_map(|p| {
                m.0[p][q]
                    .without_float_noise()
                    .terms()
                    .map(move |(k, c)| (p as i64 - 2 * k as i64 - q as i64, c))
                    .collect::<Vec<_>>()
            })
            .collect();
        taps.sort_by_key(|t| t.0);
        Filter { taps }
    };
    [column(0), column(1)]
}

fn window(out: &mut String, w: &SlidingWindow) {
    let g = w.geometry();
    writeln!(out, "  {g}").unwrap();
    writeln!(out, "  lags: {:?}", w.lags).unwrap();
}

fn program_facts(out: &mut String, p: &Program, direction: Direction, boundary: Boundary) {
    writeln!(out, "step supports:").unwrap();
    for (step, (lo, hi)) in p.steps().zip(p.step_supports()) {
        let (plo, phi) = step.offsets();
        writeln!(
            out,
            "  {} reads {}[{plo}..={phi}], samples {lo}..={hi}",
            step.target.name(),
            step.source().name()
        )
        .unwrap();
    }
    match direction {
        Direction::Forward => {
            let [low, high] = p.equivalent_filters();
            writeln!(out, "analysis filters ({}, {}):", low.len(), high.len()).unwrap();
            filter(out, "low", &low);
            filter(out, "high", &high);
        }
        Direction::Inverse => {
            // The rows of a synthesis program's matrix mix the bands; its filters are the columns.
            let [low, high] = synthesis_filters(p);
            writeln!(out, "synthesis filters ({}, {}):", low.len(), high.len()).unwrap();
            filter(out, "from low", &low);
            filter(out, "from high", &high);
        }
    }
    let (lo, hi) = p.total_support();
    writeln!(out, "total support: samples {lo}..={hi}").unwrap();
    let ops = p.op_counts();
    writeln!(
        out,
        "op counts per sample pair: {} mul, {} add, {} shift ({ops})",
        ops.mul, ops.add, ops.shift
    )
    .unwrap();
    writeln!(out, "sliding window, steady state:").unwrap();
    window(out, &p.sliding_window(Boundary::Periodic));
    writeln!(out, "sliding window, {} boundary:", boundary.name()).unwrap();
    window(out, &p.sliding_window(boundary));
}

fn report(w: &Wavelet) -> String {
    let mut out = String::new();
    writeln!(out, "{w}").unwrap();
    writeln!(out).unwrap();
    writeln!(out, "== forward ==").unwrap();
    program_facts(&mut out, &w.program, Direction::Forward, w.boundary);
    writeln!(out).unwrap();
    writeln!(out, "== inverse ==").unwrap();
    let inv = w.inverse();
    writeln!(out, "{inv}").unwrap();
    program_facts(&mut out, &inv, Direction::Inverse, w.boundary);
    out
}

fn check<W: WaveletSpec>() -> String {
    let w = W::wavelet();
    assert_eq!(w.name, W::NAME);
    assert_eq!(*W::inverse(), w.inverse());
    report(w)
}

#[test]
fn deslauriers_dubuc_97() {
    insta::assert_snapshot!("DeslauriersDubuc97", check::<DeslauriersDubuc97>());
}

#[test]
fn legall_53() {
    insta::assert_snapshot!("LeGall53", check::<LeGall53>());
}

#[test]
fn deslauriers_dubuc_137() {
    insta::assert_snapshot!("DeslauriersDubuc137", check::<DeslauriersDubuc137>());
}

#[test]
fn haar_no_shift() {
    insta::assert_snapshot!("HaarNoShift", check::<HaarNoShift>());
}

#[test]
fn haar_with_shift() {
    insta::assert_snapshot!("HaarWithShift", check::<HaarWithShift>());
}

#[test]
fn fidelity() {
    insta::assert_snapshot!("Fidelity", check::<Fidelity>());
}

#[test]
fn daubechies_97_integer() {
    insta::assert_snapshot!("Daubechies97Integer", check::<Daubechies97Integer>());
}

#[test]
fn cdf_97() {
    insta::assert_snapshot!("Cdf97", check::<Cdf97>());
}

#[test]
fn cdf_53() {
    insta::assert_snapshot!("Cdf53", check::<Cdf53>());
}

/// Every catalogue wavelet has a snapshot above.
#[test]
fn every_catalogue_wavelet_is_snapshotted() {
    let names: Vec<&str> = dwt_catalogue::all()
        .iter()
        .map(|w| w.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "DeslauriersDubuc97",
            "LeGall53",
            "DeslauriersDubuc137",
            "HaarNoShift",
            "HaarWithShift",
            "Fidelity",
            "Daubechies97Integer",
            "Cdf97",
            "Cdf53",
        ]
    );
}
