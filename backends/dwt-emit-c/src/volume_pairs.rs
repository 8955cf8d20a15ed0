//! The pair-local volume kernel: one level of a 3-D transform in one launch for programs whose
//! every step reads only its own (even, odd) pair (Haar and the like, [`pair_local`]), on bands
//! whose three sides are even. Each work-item holds one 2x2x2 block of the band in registers:
//! the forward reads its two pairs of each of two rows of two planes, lifts along x, y and z
//! there (the CPU reference's order, with the pre-shift first) and stores its eight
//! coefficients; the inverse the other way about. In the Mallat layout one coefficient goes to
//! each octant of the level, the work-items of a warp storing 32 consecutive samples of an
//! octant row; in the interleaved layout the coefficients take their samples' places, so that
//! every level after the first lifts the data in place. Where the tile kernel and the depth pass
//! each read and write the band once per level, this reads and writes it once: the fused plan
//! lifts every level of such a volume with it (`plan::pair_volume`), in the Mallat layout the
//! low octant handed from level to level through the scratch.
//!
//! The volume pyramid is the same kernel two levels deep: each work-item holds a 4x4x4 block,
//! lifts its eight 2x2x2 blocks (level 0) and then the block of their low coefficients (level 1),
//! so that the level between never passes through memory. The fused plan takes it for each two
//! levels whose first band's sides are multiples of four.
//!
//! [`pair_local`]: crate::pyramid::pair_local

use dwt_ir::{Direction, Layout};

use crate::dialect::Param;
use crate::emit::Emitter;
use crate::writer::Writer;

/// Work-items per group: blocks along x of one row of blocks of one plane of blocks.
pub const VOLUME_PAIRS_THREADS: usize = 128;

/// The Mallat layout's `int` parameters after the three buffers: the level's size in blocks
/// (half the band's columns, rows and planes), where the natural samples and the low octant are
/// (base, row and plane steps), the high octants' row and plane steps, then the high octants'
/// bases.
const VOLUME_PAIRS_ADDRESSING: [&str; 11] = [
    "cols",
    "rows",
    "planes",
    "nat_base",
    "nat_row_step",
    "nat_plane_step",
    "low_base",
    "low_row_step",
    "low_plane_step",
    "high_row_step",
    "high_plane_step",
];

/// The interleaved layout's `int` parameters after the buffers: the level's size in blocks,
/// then its samples' steps (`2^level` samples of the volume apart along each axis).
const IN_PLACE_ADDRESSING: [&str; 6] = [
    "cols",
    "rows",
    "planes",
    "col_step",
    "row_step",
    "plane_step",
];

/// The high octants in parameter order, by their `[z, y, x]` parity (1: high along that axis),
/// with the parameter of each one's base at the kernel's first level and (the pyramid) its
/// second.
const HIGH_OCTANTS: [([usize; 3], [&str; 2]); 7] = [
    ([0, 0, 1], ["h001_base", "h001_base1"]),
    ([0, 1, 0], ["h010_base", "h010_base1"]),
    ([0, 1, 1], ["h011_base", "h011_base1"]),
    ([1, 0, 0], ["h100_base", "h100_base1"]),
    ([1, 0, 1], ["h101_base", "h101_base1"]),
    ([1, 1, 0], ["h110_base", "h110_base1"]),
    ([1, 1, 1], ["h111_base", "h111_base1"]),
];

/// The most levels one launch lifts (the pyramid's): a block of 4x4x4 samples, 64 registers.
pub const VOLUME_PAIRS_MAX_DEPTH: u32 = 2;

/// A block's register for the sample at `[z, y, x]` in it.
fn reg([z, y, x]: [usize; 3]) -> String {
    format!("v{z}{y}{x}")
}

/// The places `[z, y, x]` of a block of side `side` that level `level` of it lifts (every
/// `2^level`-th along each axis), z slowest.
fn lattice(side: usize, level: u32) -> Vec<[usize; 3]> {
    let s = 1 << level;
    let along = || (0..side).step_by(s);
    along()
        .flat_map(|z| along().flat_map(move |y| along().map(move |x| [z, y, x])))
        .collect()
}

/// Where a block's samples are: `buffer[base + (Bk + z) * plane_step + (Bj + y) * row_step +
/// (Bi + x) * col_step]` for a block of side `B`, `col_step` 1 where `None` (the Mallat layout's
/// natural samples).
struct Samples {
    buffer: &'static str,
    /// `None`: 0.
    base: Option<&'static str>,
    plane_step: &'static str,
    row_step: &'static str,
    col_step: Option<&'static str>,
}

/// The Mallat layout's natural samples.
const NATURAL: Samples = Samples {
    buffer: "nat",
    base: Some("nat_base"),
    plane_step: "nat_plane_step",
    row_step: "nat_row_step",
    col_step: None,
};

/// Two samples of a block's row moved as a pair: the index of the pair's vector access, each
/// sample's own index, and their registers' places.
struct PairAccess {
    vector: String,
    samples: [String; 2],
    regs: [[usize; 3]; 2],
}

/// The statement moving register `r` to or from (`load`) the sample `at`.
fn moved(r: String, at: String, load: bool) -> String {
    match load {
        true => format!("{r} = to_work({at});"),
        false => format!("{at} = to_elem({r});"),
    }
}

impl Emitter<'_> {
    /// The pair-local volume kernel `name` lifting `depth` levels (1, or 2: the pyramid; see the
    /// module doc).
    pub(crate) fn volume_pairs(&self, w: &mut Writer, name: &str, depth: u32) {
        let d = self.d;
        let side = 1usize << depth;
        let forward = self.direction == Direction::Forward;
        let mallat = self.layout == Layout::Mallat;
        let mut params = match (mallat, forward) {
            (true, _) => self.nat_low_high().to_vec(),
            // In place at every level but the first out of place: nothing is `restrict`.
            (false, true) => vec![
                Param::Global("src", self.elem),
                Param::Global("dst", self.elem),
            ],
            (false, false) => ["src", "lows", "dst"]
                .map(|b| Param::Global(b, self.elem))
                .to_vec(),
        };
        match mallat {
            true => {
                params.extend(VOLUME_PAIRS_ADDRESSING.map(Param::Int));
                for level in 0..depth as usize {
                    params.extend(HIGH_OCTANTS.map(|(_, bases)| Param::Int(bases[level])));
                }
            }
            false => params.extend(IN_PLACE_ADDRESSING.map(Param::Int)),
        }
        match depth {
            1 => w.comment("Pair-local volume pass: one level of a pair-local program along x, y and z in one launch,"),
            _ => w.comment(format!("Pair-local volume pyramid: {depth} levels of a pair-local program along x, y and z in one launch,")),
        }
        w.comment(format!(
            "{} layout, sides {}. Work-item (i, j, k) holds the {side}x{side}x{side} block of the band's samples",
            if mallat { "Mallat" } else { "Interleaved" },
            if depth == 1 { "even".to_string() } else { format!("multiples of {side}") },
        ));
        w.comment(match mallat {
            true if depth == 1 => "(2i.., 2j.., 2k..) in registers v{z}{y}{x} and coefficient (i, j, k) of each octant.".to_string(),
            true => format!("({side}i.., {side}j.., {side}k..) in registers v{{z}}{{y}}{{x}} and its coefficients in each level's octants."),
            false => format!("({side}i.., {side}j.., {side}k..) in registers v{{z}}{{y}}{{x}}, its coefficients in their places: from src to dst."),
        });
        if depth > 1 {
            w.comment("Level l lifts the block's samples 2^l apart: level 0 its 2x2x2 blocks, level 1 their low coefficients.");
        }
        if !mallat && !forward {
            w.comment("The low coefficient of each block, which the coarser level wrote, is read from lows.");
        }
        // Full occupancy holds a work-item to 32 registers: the pyramid's 64 samples need more.
        let sig = d.kernel_signature(name, &params, [VOLUME_PAIRS_THREADS, 1, 1], depth == 1);
        self.kernel_block(w, sig, |w| {
            w.line(format!(
                "const int i = {} * {VOLUME_PAIRS_THREADS} + {};",
                d.group_id(0),
                d.local_id(0)
            ));
            w.line(format!(
                "const int j = {}, k = {};",
                d.group_id(1),
                d.group_id(2)
            ));
            w.line("if (i >= cols) return;");
            let regs: Vec<String> = lattice(side, 0).into_iter().map(reg).collect();
            w.line(format!("{} {};", self.work(), regs.join(", ")));
            let in_place = |buffer| Samples {
                buffer,
                base: None,
                plane_step: "plane_step",
                row_step: "row_step",
                col_step: Some("col_step"),
            };
            let shift = |w: &mut Writer, level: u32, how: &str| {
                if self.pre_shifted() {
                    for r in lattice(side, level).into_iter().map(reg) {
                        w.line(format!("{r} = {how}({r});"));
                    }
                }
            };
            if forward {
                match mallat {
                    true => self.volume_pairs_samples(w, &NATURAL, true, side),
                    false => self.volume_pairs_samples(w, &in_place("src"), true, side),
                }
                for level in 0..depth {
                    shift(w, level, "pre_shift");
                    for axis in [2, 1, 0] {
                        self.volume_pairs_axis(w, axis, side, level);
                    }
                }
                match mallat {
                    true => self.volume_pairs_octants(w, true, depth),
                    false => self.volume_pairs_samples(w, &in_place("dst"), false, side),
                }
            } else {
                match mallat {
                    true => self.volume_pairs_octants(w, false, depth),
                    false => {
                        self.volume_pairs_samples(w, &in_place("src"), true, side);
                        w.line("v000 = to_work(lows[n00]);");
                    }
                }
                for level in (0..depth).rev() {
                    for axis in [0, 1, 2] {
                        self.volume_pairs_axis(w, axis, side, level);
                    }
                    shift(w, level, "undo_pre_shift");
                }
                match mallat {
                    true => self.volume_pairs_samples(w, &NATURAL, false, side),
                    false => self.volume_pairs_samples(w, &in_place("dst"), false, side),
                }
            }
        });
    }

    /// The block's samples (of side `side`) between `at` and the registers: pairs along each
    /// row of each plane, each as one vector access where the pair is adjacent and aligned (a
    /// whole volume of even sides, the Mallat layout's every level), else a sample at a time.
    /// Declares `n{z}{y}`, each row's first sample, where none are yet.
    fn volume_pairs_samples(&self, w: &mut Writer, at: &Samples, load: bool, side: usize) {
        let rows: Vec<[usize; 2]> = (0..side)
            .flat_map(|z| (0..side).map(move |y| [z, y]))
            .collect();
        let row = |[z, y]: [usize; 2]| format!("n{z}{y}");
        let Samples {
            buffer,
            base,
            plane_step,
            row_step,
            col_step,
        } = *at;
        w.comment(format!(
            "The block's samples {} {buffer}: {} per row of each of its planes.",
            if load { "from" } else { "to" },
            if side == 2 {
                "a pair".to_string()
            } else {
                format!("{} pairs", side / 2)
            }
        ));
        // The inverse's in-place form stores where it loaded.
        if load || col_step.is_none() {
            let x = col_step.map_or(format!("{side} * i"), |s| format!("{side} * i * {s}"));
            let base = base.map_or(String::new(), |b| format!("{b} + "));
            for &zy in &rows {
                w.line(format!(
                    "const int {} = {base}({side} * k + {}) * {plane_step} + ({side} * j + {}) * {row_step} + {x};",
                    row(zy),
                    zy[0],
                    zy[1]
                ));
            }
        }
        let next = col_step.unwrap_or("1");
        let adjacent = match col_step {
            Some(s) => format!("{s} == 1 && "),
            None => String::new(),
        };
        let bases = match base {
            Some(b) => format!("{b} | {row_step} | {plane_step}"),
            None => format!("{row_step} | {plane_step}"),
        };
        let sample = |zy: [usize; 2], x: usize| match (x, next) {
            (0, _) => row(zy),
            (1, _) => format!("{} + {next}", row(zy)),
            (_, "1") => format!("{} + {x}", row(zy)),
            _ => format!("{} + {x} * {next}", row(zy)),
        };
        let pairs: Vec<PairAccess> = (rows.iter())
            .flat_map(|&zy| (0..side).step_by(2).map(move |x| (zy, x)))
            .map(|(zy, x)| PairAccess {
                vector: match x {
                    0 => row(zy),
                    _ => format!("{} + {x}", row(zy)),
                },
                samples: [x, x + 1].map(|x| sample(zy, x)),
                regs: [x, x + 1].map(|x| [zy[0], zy[1], x]),
            })
            .collect();
        self.pair_accesses(
            w,
            buffer,
            &format!("{adjacent}(({bases}) & 1) == 0"),
            &pairs,
            load,
        );
    }

    /// The block's coefficients between the registers and the octants of each of the `depth`
    /// levels: the last level's low one at `low`, the high ones in `high`. Level `l` of a block
    /// of side `2^depth` has `n = 2^(depth - 1 - l)` blocks along each axis; block `(a, b, c)`'s
    /// coefficient of octant `p` is register `((2c + pz) 2^l, (2b + py) 2^l, (2a + px) 2^l)`,
    /// at `(n i + a, n j + b, n k + c)` of the octant. Where `n` is 2 (the pyramid's level 0)
    /// blocks `a` 0 and 1 are a pair of the octant's row, moved as one vector where aligned.
    fn volume_pairs_octants(&self, w: &mut Writer, store: bool, depth: u32) {
        w.comment(format!(
            "The block's coefficients {} the octants{}.",
            if store { "to" } else { "from" },
            if depth == 1 {
                ": coefficient (i, j, k) of each"
            } else {
                " of each level"
            }
        ));
        let last = depth - 1;
        let mut places = vec![(
            [0, 0, 0],
            "low[low_base + k * low_plane_step + j * low_row_step + i]".to_string(),
        )];
        // Rows of two, where a level has two blocks along x.
        let mut pairs: Vec<PairAccess> = Vec::new();
        for level in (0..depth).rev() {
            let n = 1usize << (last - level);
            for (p, bases) in HIGH_OCTANTS {
                let base = bases[level as usize];
                let place = |[c, b, a]: [usize; 3]| {
                    [2 * c + p[0], 2 * b + p[1], 2 * a + p[2]].map(|q| q << level)
                };
                if n == 1 {
                    places.push((
                        place([0, 0, 0]),
                        format!("high[{base} + k * high_plane_step + j * high_row_step + i]"),
                    ));
                    continue;
                }
                for [c, b, _] in lattice(n, 0).into_iter().filter(|q| q[2] == 0) {
                    let first = format!(
                        "{base} + ({n} * k + {c}) * high_plane_step + ({n} * j + {b}) * high_row_step + {n} * i"
                    );
                    pairs.push(PairAccess {
                        samples: [first.clone(), format!("{first} + 1")],
                        vector: first,
                        regs: [place([c, b, 0]), place([c, b, 1])],
                    });
                }
            }
        }
        for (p, at) in places {
            w.line(moved(reg(p), at, !store));
        }
        if !pairs.is_empty() {
            let bases: Vec<&str> = HIGH_OCTANTS.iter().map(|(_, b)| b[0]).collect();
            let even = format!(
                "(({} | high_row_step | high_plane_step) & 1) == 0",
                bases.join(" | ")
            );
            self.pair_accesses(w, "high", &even, &pairs, !store);
        }
    }

    /// `pairs` moved between `buffer` and the registers (`load`: into them): each as one vector
    /// access where `even` (a C condition that the pairs start at even indices) holds and
    /// `buffer` is aligned for it, else a sample at a time.
    fn pair_accesses(
        &self,
        w: &mut Writer,
        buffer: &str,
        even: &str,
        pairs: &[PairAccess],
        load: bool,
    ) {
        let d = self.d;
        let elem = self.elem;
        let aligned = match d.pair_aligned(elem, buffer) {
            Some(a) => format!(" && {a}"),
            None => String::new(),
        };
        w.block(format!("if ({even}{aligned})"), |w| {
            for pair in pairs {
                let [e, o] = pair.regs.map(reg);
                match load {
                    true => w.block("", |w| {
                        w.line(format!(
                            "const {} p = {};",
                            d.pair_type(elem),
                            d.load_pair(elem, buffer, &pair.vector)
                        ));
                        w.line(format!("{e} = to_work(p.x);"));
                        w.line(format!("{o} = to_work(p.y);"));
                    }),
                    false => w.line(d.store_pair(
                        elem,
                        buffer,
                        &pair.vector,
                        &format!("to_elem({e})"),
                        &format!("to_elem({o})"),
                    )),
                }
            }
        });
        w.block("else", |w| {
            for pair in pairs {
                for (r, at) in pair.regs.iter().zip(&pair.samples) {
                    w.line(moved(reg(*r), format!("{buffer}[{at}]"), load));
                }
            }
        });
    }

    /// The program on level `level`'s pairs along `axis` (0: z, 1: y, 2: x) of a block of side
    /// `side`, each result stored as the element type where that loses bits, as the reference
    /// stores each pass.
    fn volume_pairs_axis(&self, w: &mut Writer, axis: usize, side: usize, level: u32) {
        let s = 1usize << level;
        let pairs: Vec<[usize; 3]> = (lattice(side, level).into_iter())
            .filter(|e| e[axis] / s % 2 == 0)
            .collect();
        let count = match pairs.len() {
            4 => "four pairs".to_string(),
            n => format!("{n} pairs"),
        };
        w.comment(match side {
            2 => format!("Along {}: {count}.", ["z", "y", "x"][axis]),
            _ => format!("Level {level} along {}: {count}.", ["z", "y", "x"][axis]),
        });
        for e in pairs {
            let mut o = e;
            o[axis] += s;
            let (re, ro) = (reg(e), reg(o));
            w.block("", |w| {
                w.line(format!("{} e = {re}, o = {ro};", self.work()));
                self.pyramid_pair(w);
                w.line(format!("{re} = {};", self.truncated("e")));
                w.line(format!("{ro} = {};", self.truncated("o")));
            });
        }
    }
}
