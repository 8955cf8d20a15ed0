//! Tiles of a fused pass: how far each lifting step must reach beyond a tile so that the tile's own
//! indices come out right (its halo, from the steps' supports), and a check, for one line length,
//! that tiles touching the ends of the line are exact too under the boundary rule.
//!
//! A tile owns polyphase indices `[m0, m0 + T)` of both phases of a line. It loads more than that
//! and lifts a shrinking range per step, so that after the last step its own indices hold what
//! `lift_line` gives. Away from the ends this holds by construction. Near an end, reads go through
//! the boundary rule: they land on indices the tile may not have lifted far enough (or at all),
//! which only a simulation of the tile's index ranges settles; [`Program::tiles_exact`] runs it.

use crate::{Boundary, Phase, Program};

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
}

impl Program {
    /// Working backwards from the last step (which must lift the tile and `margin` indices on
    /// either side of it), each step must lift its target wherever a later step reads it or the
    /// tile owns it, and so needs its source that far plus its taps' reach. A margin gives reads
    /// that the boundary rule turns back into the line (at its ends) lifted indices to land on.
    pub fn tile_halo(&self, margin: u32) -> TileHalo {
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
        // A tile whose loaded indices all lie inside the line reads nothing through the boundary
        // rule and is exact by construction; only the tiles near either end are simulated.
        let inside = |m0: i64| {
            (0..2).all(|q| {
                m0 >= halo.load[q].before as i64 && m0 + t + halo.load[q].after as i64 <= len(q)
            })
        };
        (0..tiles)
            .map(|tile| tile * t)
            .all(|m0| inside(m0) || self.tile_exact(boundary, n, halo, m0, t, &len))
    }

    fn tile_exact(
        &self,
        boundary: Boundary,
        n: usize,
        halo: &TileHalo,
        m0: i64,
        t: i64,
        len: &dyn Fn(usize) -> i64,
    ) -> bool {
        // Per phase: the first stored index and whether each stored index holds the right value.
        let start = halo.load.map(|h| m0 - h.before as i64);
        let mut valid: Vec<Vec<bool>> = (0..2)
            .map(|q| {
                (0..halo.load[q].len(t as usize) as i64)
                    .map(|i| (0..len(q)).contains(&(start[q] + i)))
                    .collect()
            })
            .collect();
        for (step, h) in self.steps().zip(&halo.steps) {
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
                for (k, _) in step.taps.terms() {
                    let r = boundary.resolve(n, source, g + k as i64) as i64 - start[q];
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
