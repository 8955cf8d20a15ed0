//! Tiles of a fused pass: how far each lifting step must reach beyond a tile so that the tile's own
//! indices come out right (its halo, from the steps' supports), and a check, for one line length,
//! that tiles touching the ends of the line are exact too under the boundary rule.
//!
//! A tile owns polyphase indices `[m0, m0 + T)` of both phases of a line. It loads more than that
//! and lifts a shrinking range per step, so that after the last step its own indices hold what
//! `lift_line` gives. Away from the ends this holds by construction. Near an end, reads go through
//! the boundary rule: they land on indices the tile may not have lifted far enough (or at all),
//! which only a simulation of the tile's index ranges settles; [`Program::tiles_exact`] runs it.
//!
//! A tile may instead load its halo beyond an end by whole-sample reflection and lift as if the
//! line went on (no read through the boundary rule): for symmetric two-tap steps under the clamp
//! rule the reflected line stays the reflection of the lifted one, so that tile is exact too.
//! [`Program::reflected_segments_exact`] proves it per line length by comparing computations.

use std::collections::HashMap;

use crate::{Boundary, Coeff, ElementKind, Op, Phase, Program};

/// A range of polyphase indices relative to a tile of `T` indices starting at `m0`:
/// `[m0 - before, m0 + T + after)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Halo {
    pub before: u32,
    pub after: u32,
}

impl Halo {
    /// The range's length for a tile of `t` indices.
    pub fn len(&self, t: usize) -> usize {
        self.before as usize + t + self.after as usize
    }
}

/// The halos of a tile along one axis, from the program's step supports.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TileHalo {
    /// The indices loaded, per phase (even, odd).
    pub load: [Halo; 2],
    /// Per lifting step, in program order: the target indices it lifts.
    pub steps: Vec<Halo>,
}

impl TileHalo {
    /// The smallest margin (up to `max_margin`) whose halos make tiles of `t` exact on every line
    /// of 2 to `lines_up_to` samples, with those halos; `None` when there is none (a periodic
    /// boundary sends reads to the far end of the line).
    pub fn for_lines(
        program: &Program,
        boundary: Boundary,
        t: usize,
        lines_up_to: usize,
        max_margin: u32,
    ) -> Option<TileHalo> {
        (0..=max_margin)
            .map(|m| program.tile_halo(m))
            .find(|h| (2..=lines_up_to).all(|n| program.tiles_exact(boundary, n, t, h)))
    }

    /// Indices held per phase, for a tile of `t`.
    pub fn stored(&self, t: usize) -> [usize; 2] {
        self.load.map(|h| h.len(t))
    }

    /// Whether a tile of `t` from `m0` loads only indices inside a line whose phase `q` has
    /// `len(q)` indices: it then reads nothing through the boundary rule and is exact by
    /// construction.
    fn loads_inside(&self, m0: i64, t: i64, len: &dyn Fn(usize) -> i64) -> bool {
        (0..2).all(|q| {
            m0 >= self.load[q].before as i64 && m0 + t + self.load[q].after as i64 <= len(q)
        })
    }
}

impl Program {
    /// Working backwards from the last step (which must lift the tile and `margin` indices on
    /// either side of it), each step must lift its target wherever a later step reads it or the
    /// tile owns it, and so needs its source that far plus its taps' reach. A margin gives reads
    /// that the boundary rule turns back into the line (at its ends) lifted indices to land on.
    pub fn tile_halo(&self, margin: u32) -> TileHalo {
        self.halo_reaching(margin, false)
    }

    /// The halos of a register segment that applies the clamp rule itself: as
    /// [`tile_halo(0)`](Self::tile_halo), with every step into the even phase reaching at least
    /// the odd index before its target. In a line of odd length the odd phase ends one index
    /// before the even one, so an even step reading past the odd end reads the odd index before
    /// its last target (the rule's nearest sample), which the segment must then hold, lifted.
    /// The same as `tile_halo(0)` for programs whose even steps read that index anyway.
    pub fn clamped_segment_halo(&self) -> TileHalo {
        self.halo_reaching(0, true)
    }

    fn halo_reaching(&self, margin: u32, odd_before_even: bool) -> TileHalo {
        let mut need = [Halo {
            before: margin,
            after: margin,
        }; 2];
        let steps: Vec<_> = self.steps().collect();
        let mut per_step = vec![Halo::default(); steps.len()];
        for (j, step) in steps.iter().enumerate().rev() {
            let (p, q) = (
                step.target.parity() as usize,
                step.source().parity() as usize,
            );
            per_step[j] = need[p];
            let (lo, hi) = step.offsets();
            let lo = if odd_before_even && p == 0 {
                lo.min(-1)
            } else {
                lo
            };
            let before = (need[p].before as i64 - lo as i64).max(0) as u32;
            let after = (need[p].after as i64 + hi as i64).max(0) as u32;
            need[q].before = need[q].before.max(before);
            need[q].after = need[q].after.max(after);
        }
        TileHalo {
            load: need,
            steps: per_step,
        }
    }

    /// Whether tiles of `t` polyphase indices per phase, lifted as `halo` says (each step over
    /// its range clipped to the line, every read through `boundary`), give
    /// every index of a line of `n` samples the value `lift_line` gives, with every read inside
    /// the tile's loaded indices. Simulates every tile of the line; `false` for `n < 2` (a line
    /// of one sample is not lifted) and `t == 0`.
    pub fn tiles_exact(&self, boundary: Boundary, n: usize, t: usize, halo: &TileHalo) -> bool {
        if n < 2 || t == 0 || halo.steps.len() != self.steps().count() {
            return false;
        }
        let len = |q: usize| ((n - q).div_ceil(2)) as i64;
        let t = t as i64;
        let tiles = (len(0) + t - 1) / t;
        // Read once per line rather than per lifted index: walking the taps' map in the innermost
        // loop dominated unoptimised builds, where `lifting!` runs this for every line it checks.
        let offsets: Vec<Vec<i64>> = self
            .steps()
            .map(|s| s.taps.terms().map(|(k, _)| k as i64).collect())
            .collect();
        // Only the tiles near either end are simulated.
        (0..tiles).map(|tile| tile * t).all(|m0| {
            halo.loads_inside(m0, t, &len) || self.tile_exact(boundary, n, halo, &offsets, m0, t)
        })
    }

    fn tile_exact(
        &self,
        boundary: Boundary,
        n: usize,
        halo: &TileHalo,
        offsets: &[Vec<i64>],
        m0: i64,
        t: i64,
    ) -> bool {
        let len = |q: usize| ((n - q).div_ceil(2)) as i64;
        // Per phase: the first stored index and whether each stored index holds the right value.
        let start = halo.load.map(|h| m0 - h.before as i64);
        let mut valid: Vec<Vec<bool>> = (0..2)
            .map(|q| {
                (0..halo.load[q].len(t as usize) as i64)
                    .map(|i| (0..len(q)).contains(&(start[q] + i)))
                    .collect()
            })
            .collect();
        for ((step, h), offsets) in self.steps().zip(&halo.steps).zip(offsets) {
            let (p, q) = (
                step.target.parity() as usize,
                step.source().parity() as usize,
            );
            let source = if q == 0 { Phase::Even } else { Phase::Odd };
            let lo = (m0 - h.before as i64).max(0);
            let hi = (m0 + t + h.after as i64).min(len(p));
            let mut lifted = vec![false; valid[p].len()];
            for g in lo..hi {
                let mut ok = valid[p][(g - start[p]) as usize];
                for &k in offsets {
                    let r = boundary.resolve(n, source, g + k) as i64 - start[q];
                    match valid[q].get(r as usize) {
                        Some(v) if r >= 0 => ok &= *v,
                        _ => return false,
                    }
                }
                lifted[(g - start[p]) as usize] = ok;
            }
            valid[p] = lifted;
        }
        (0..2).all(|q| (m0..(m0 + t).min(len(q))).all(|g| valid[q][(g - start[q]) as usize]))
    }
}

/// A value of the symbolic lifting: a sample of the line as given, or one operation of the program
/// on values (interned, so that two values are equal exactly when they are computed alike from the
/// same samples, whatever the arithmetic).
#[derive(Clone, PartialEq, Eq, Hash)]
enum Value {
    Sample(usize, i64),
    /// Operation `op` of the program (a step: the target, then its taps' sources in order; a
    /// scale: the value and its phase).
    Op(usize, Vec<u32>),
}

/// A step's operands: the target, then its sources grouped by coefficient (in the order the
/// coefficients first appear), each group sorted where its sum is the same in any order: wrapping
/// integer sums, and float sums of two terms (the kernels add a group's terms before multiplying).
fn step_args(
    target: u32,
    sources: impl IntoIterator<Item = (Coeff, u32)>,
    kind: ElementKind,
) -> Vec<u32> {
    let mut groups: Vec<(Coeff, Vec<u32>)> = Vec::new();
    for (c, v) in sources {
        match groups.iter_mut().find(|(g, _)| *g == c) {
            Some((_, vs)) => vs.push(v),
            None => groups.push((c, vec![v])),
        }
    }
    let mut args = vec![target];
    for (_, mut vs) in groups {
        if kind == ElementKind::Integer || vs.len() <= 2 {
            vs.sort_unstable();
        }
        args.extend(vs);
    }
    args
}

#[derive(Default)]
struct Interner(HashMap<Value, u32>);

impl Interner {
    fn id(&mut self, v: Value) -> u32 {
        let next = self.0.len() as u32;
        *self.0.entry(v).or_insert(next)
    }
}

impl Program {
    /// Whether a line of `n` samples, lifted in segments of `s` polyphase indices per phase, each
    /// loading its indices and halo ([`Program::tile_halo`] with no margin) by whole-sample
    /// reflection about the line's end samples and then lifting every index of each step's range
    /// with no read through the boundary rule (the fused kernel's register path in tiles at a
    /// band's edge), gives every index of the line what lifting it under `boundary` gives.
    /// Compares the two computations symbolically, so the answer holds for any arithmetic
    /// (rounding shifts, wrapping, floats): a step's taps of one coefficient count in any order
    /// where the kernels' sum of them does not depend on it ([`ElementKind`]: wrapping integer
    /// sums always, float sums of two). `false` for `n < 2` and `s == 0`.
    pub fn reflected_segments_exact(
        &self,
        boundary: Boundary,
        kind: ElementKind,
        n: usize,
        s: usize,
    ) -> bool {
        if n < 2 || s == 0 {
            return false;
        }
        let halo = self.tile_halo(0);
        let len = |q: usize| (n - q).div_ceil(2) as i64;
        let phase = |q: usize| if q == 0 { Phase::Even } else { Phase::Odd };
        let mut line = LiftedLine {
            program: self,
            boundary,
            kind,
            n,
            values: Interner::default(),
            memo: HashMap::new(),
        };
        let s = s as i64;
        let segments = (len(0).max(len(1)) + s - 1) / s;
        (0..segments).all(|segment| {
            let i0 = segment * s;
            // Per phase: the first held index and the held values.
            let start = halo.load.map(|h| i0 - h.before as i64);
            // A segment whose loads all lie inside the line computes what the line does, from
            // the same samples: only those near an end are compared.
            if halo.loads_inside(i0, s, &len) {
                return true;
            }
            let mut held: Vec<Vec<u32>> = (0..2)
                .map(|q| {
                    (0..halo.load[q].len(s as usize) as i64)
                        .map(|i| {
                            let m = Boundary::Symmetric.resolve(n, phase(q), start[q] + i);
                            line.values.id(Value::Sample(q, m as i64))
                        })
                        .collect()
                })
                .collect();
            let mut steps = halo.steps.iter();
            for (j, op) in self.ops.iter().enumerate() {
                match op {
                    Op::Lift(step) => {
                        let Some(h) = steps.next() else {
                            return false;
                        };
                        let (p, q) = (
                            step.target.parity() as usize,
                            step.source().parity() as usize,
                        );
                        let mut lifted = held[p].clone();
                        for g in (i0 - h.before as i64)..(i0 + s + h.after as i64) {
                            let Some(&target) = held[p].get((g - start[p]) as usize) else {
                                return false;
                            };
                            let mut sources = Vec::new();
                            for (k, c) in step.taps.terms() {
                                let r = g + k as i64 - start[q];
                                match held[q].get(r as usize) {
                                    Some(v) if r >= 0 => sources.push((c, *v)),
                                    _ => return false,
                                }
                            }
                            let args = step_args(target, sources, kind);
                            lifted[(g - start[p]) as usize] = line.values.id(Value::Op(j, args));
                        }
                        held[p] = lifted;
                    }
                    Op::Scale { .. } => {
                        for (q, phase_held) in held.iter_mut().enumerate() {
                            for v in phase_held.iter_mut() {
                                *v = line.values.id(Value::Op(j, vec![*v, q as u32]));
                            }
                        }
                    }
                }
            }
            (0..2).all(|q| {
                (i0..(i0 + s).min(len(q)))
                    .all(|g| held[q][(g - start[q]) as usize] == line.value(self.ops.len(), q, g))
            })
        })
    }
}

/// A line of `n` samples lifted under the boundary rule, as `lift_line` does, computed lazily:
/// only the values a comparison asks for and what they depend on (near the line's ends), each
/// once.
struct LiftedLine<'a> {
    program: &'a Program,
    boundary: Boundary,
    kind: ElementKind,
    n: usize,
    values: Interner,
    /// (operations applied, phase, index) -> value.
    memo: HashMap<(usize, usize, i64), u32>,
}

impl LiftedLine<'_> {
    /// Index `g` of phase `q` after the program's first `ops` operations.
    fn value(&mut self, ops: usize, q: usize, g: i64) -> u32 {
        if ops == 0 {
            return self.values.id(Value::Sample(q, g));
        }
        if let Some(&v) = self.memo.get(&(ops, q, g)) {
            return v;
        }
        let j = ops - 1;
        let before = self.value(j, q, g);
        let v = match &self.program.ops[j] {
            Op::Lift(step) if step.target.parity() as usize == q => {
                let source = step.source();
                let p = source.parity() as usize;
                let mut sources = Vec::new();
                for (k, c) in step.taps.terms() {
                    let r = self.boundary.resolve(self.n, source, g + k as i64) as i64;
                    sources.push((c, self.value(j, p, r)));
                }
                let args = step_args(before, sources, self.kind);
                self.values.id(Value::Op(j, args))
            }
            Op::Lift(_) => before,
            Op::Scale { .. } => self.values.id(Value::Op(j, vec![before, q as u32])),
        };
        self.memo.insert((ops, q, g), v);
        v
    }
}

#[cfg(test)]
mod tests {
    use crate::parse_str;

    const LEGALL: &str = "wavelet LeGall53 { kind = integer; boundary = clamp;
        odd -= (even[0] + even[1] + 1) >> 1;
        even += (odd[-1] + odd[0] + 2) >> 2; }";

    #[test]
    fn legall_halo_follows_its_supports() {
        let w = parse_str(LEGALL).unwrap().remove(0);
        let h = w.program.tile_halo(0);
        // The update lifts exactly the tile; it reads odd[-1..=0], so the predict lifts odd
        // one index before the tile; that predict reads even[0..=1]: one even index after.
        assert_eq!(h.steps[1], super::Halo::default());
        assert_eq!(
            h.steps[0],
            super::Halo {
                before: 1,
                after: 0
            }
        );
        assert_eq!(
            h.load,
            [
                super::Halo {
                    before: 1,
                    after: 1
                },
                super::Halo {
                    before: 1,
                    after: 0
                }
            ]
        );
    }

    #[test]
    fn one_sample_lines_and_empty_tiles_are_not_tiled() {
        let w = parse_str(LEGALL).unwrap().remove(0);
        let h = w.program.tile_halo(0);
        assert!(!w.program.tiles_exact(w.boundary, 1, 8, &h));
        assert!(!w.program.tiles_exact(w.boundary, 100, 0, &h));
        assert!(w.program.tiles_exact(w.boundary, 100, 8, &h));
    }

    #[test]
    fn reflection_stands_in_for_the_boundary_rule_only_where_it_agrees() {
        use crate::ElementKind;
        let exact = |src: &str, n: usize| {
            let w = parse_str(src).unwrap().remove(0);
            w.program
                .reflected_segments_exact(w.boundary, ElementKind::Integer, n, 4)
        };
        // Symmetric two-tap steps: clamping at either end reads the sample reflection reads.
        assert!((2..=40).all(|n| exact(LEGALL, n)));
        // Lopsided taps: the reflected neighbour carries the other weight, so the halo's lifted
        // values are not the reflection of the line's.
        let lopsided = "wavelet L { kind = integer; boundary = clamp;
            odd -= (even[0] + 3 * even[1] + 2) >> 2;
            even += (odd[-1] + odd[0] + 2) >> 2; }";
        assert!(!exact(lopsided, 16));
        // A periodic line wraps instead of reflecting.
        let periodic = LEGALL.replace("clamp", "periodic");
        assert!(!exact(&periodic, 16));
    }

    #[test]
    fn haar_needs_a_margin_on_odd_lines() {
        // Odd lines: the last even index reads the odd index past the end, clamped back to the
        // last odd one, which belongs to the previous tile when the last tile holds only that
        // even index (101 samples: 51 even, tiles of 10 leave one).
        let w = parse_str("wavelet H { kind = integer; boundary = clamp; odd -= even[0]; even += (odd[0] + 1) >> 1; }")
            .unwrap()
            .remove(0);
        let bare = w.program.tile_halo(0);
        assert!(!w.program.tiles_exact(w.boundary, 101, 10, &bare));
        assert!(w.program.tiles_exact(w.boundary, 102, 10, &bare));
        let h = super::TileHalo::for_lines(&w.program, w.boundary, 10, 200, 4).unwrap();
        assert_eq!(h.load[0].before, 1);
        assert!(w.program.tiles_exact(w.boundary, 101, 10, &h));
    }
}
